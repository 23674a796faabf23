"""z = relu(x * scale) + bias on float16 data, with a TBuf scratch buffer.
float16 vector instructions compute in float32 and round once each, so the
result matches NumPy's float16 arithmetic bit for bit."""

import numpy as np

import pyasc as asc

CORE_NUM = 8


@asc.jit
def scale_relu_kernel(x: asc.GlobalAddress, z: asc.GlobalAddress, block_length: int,
                      scale: float, bias: float, tile: asc.ConstExpr[int]) -> None:
    offset = asc.get_block_idx() * block_length
    x_gm = asc.GlobalTensor()
    z_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x + offset, block_length)
    z_gm.set_global_buffer(z + offset, block_length)
    pipe = asc.TPipe()
    buf = asc.TBuf(asc.TPosition.VECCALC)
    pipe.init_buffer(buf, tile * x.dtype.sizeof())
    t = buf.get(x.dtype)
    # A TBuf brings no synchronisation: the flags order the copy in (MTE2),
    # the vector work (V) and the copy out (MTE3) of each tile, and the copy
    # out before the next tile's copy in overwrites the buffer.
    for i in range(block_length // tile):
        asc.data_copy(t, x_gm[i * tile:], tile)
        asc.set_flag(asc.HardEvent.MTE2_V, 0)
        asc.wait_flag(asc.HardEvent.MTE2_V, 0)
        asc.muls(t, t, scale, tile)
        asc.relu(t, t, tile)
        asc.adds(t, t, bias, tile)
        asc.set_flag(asc.HardEvent.V_MTE3, 0)
        asc.wait_flag(asc.HardEvent.V_MTE3, 0)
        asc.data_copy(z_gm[i * tile:], t, tile)
        asc.set_flag(asc.HardEvent.MTE3_MTE2, 0)
        asc.wait_flag(asc.HardEvent.MTE3_MTE2, 0)


def scale_relu(x: np.ndarray, scale: float, bias: float, tile: int = 1024) -> np.ndarray:
    """The kernel on float16 data whose size splits into CORE_NUM blocks of tiles."""
    z = np.empty_like(x)
    scale_relu_kernel[CORE_NUM](x, z, x.size // CORE_NUM, scale, bias, tile)
    asc.synchronize()
    return z


def reference(x: np.ndarray, scale: float, bias: float) -> np.ndarray:
    """NumPy float16 arithmetic: each step rounds to float16."""
    scaled = x * np.float16(scale)
    return np.maximum(scaled, np.float16(0)) + np.float16(bias)


if __name__ == "__main__":
    x = np.random.default_rng(0).standard_normal(CORE_NUM * 4096).astype(np.float16)
    z = scale_relu(x, 1.5, 0.25)
    assert np.array_equal(z, reference(x, 1.5, 0.25))
    print("scale_relu: bit-exact with NumPy float16 on", x.size, "elements")
