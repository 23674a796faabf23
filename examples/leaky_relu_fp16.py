"""LeakyReLU on float16 data computed in float32: cast up (exact), leaky_relu
in float32, cast back with a chosen RoundMode. With CAST_RINT the result
equals NumPy's float32 computation rounded to float16, bit for bit."""

import numpy as np

import pyasc as asc

CORE_NUM = 4
BUFFER_NUM = 2


@asc.jit
def leaky_relu_kernel(x: asc.GlobalAddress, y: asc.GlobalAddress, block_length: int,
                      alpha: float, tile: asc.ConstExpr[int], round_mode: asc.ConstExpr[int]) -> None:
    offset = asc.get_block_idx() * block_length
    x_gm = asc.GlobalTensor()
    y_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x + offset, block_length)
    y_gm.set_global_buffer(y + offset, block_length)
    pipe = asc.TPipe()
    in_queue = asc.TQue(asc.TPosition.VECIN, BUFFER_NUM)
    out_queue = asc.TQue(asc.TPosition.VECOUT, BUFFER_NUM)
    wide = asc.TBuf(asc.TPosition.VECCALC)
    pipe.init_buffer(in_queue, BUFFER_NUM, tile * 2)
    pipe.init_buffer(out_queue, BUFFER_NUM, tile * 2)
    pipe.init_buffer(wide, tile * 4)
    for i in range(block_length // tile):
        x_in = in_queue.alloc_tensor(asc.float16)
        asc.data_copy(x_in, x_gm[i * tile:], tile)
        in_queue.enque(x_in)
        x_half = in_queue.deque(asc.float16)
        y_half = out_queue.alloc_tensor(asc.float16)
        t = wide.get(asc.float32)
        asc.cast(t, x_half, asc.RoundMode.CAST_NONE, tile)  # exact
        asc.leaky_relu(t, t, alpha, tile)
        asc.cast(y_half, t, round_mode, tile)
        out_queue.enque(y_half)
        in_queue.free_tensor(x_half)
        y_out = out_queue.deque(asc.float16)
        asc.data_copy(y_gm[i * tile:], y_out, tile)
        out_queue.free_tensor(y_out)


def leaky_relu_fp16(x: np.ndarray, alpha: float, round_mode: asc.RoundMode = asc.RoundMode.CAST_RINT,
                    tile: int = 1024) -> np.ndarray:
    """float16 x whose size splits into CORE_NUM blocks of whole tiles."""
    y = np.empty_like(x)
    leaky_relu_kernel[CORE_NUM](x, y, x.size // CORE_NUM, alpha, tile, int(round_mode))
    asc.synchronize()
    return y


def reference(x: np.ndarray, alpha: float) -> np.ndarray:
    """float32 arithmetic rounded to float16 (half to even)."""
    w = x.astype(np.float32)
    return np.where(w >= 0, w, w * np.float32(alpha)).astype(np.float16)


if __name__ == "__main__":
    x = np.random.default_rng(0).standard_normal(CORE_NUM * 4096).astype(np.float16) * 8
    y = leaky_relu_fp16(x, 0.1)
    assert np.array_equal(y.view(np.uint16), reference(x, 0.1).view(np.uint16))
    print("leaky_relu_fp16: bit-exact with NumPy (float32 compute, RINT) on", x.size, "elements")
