"""Vector add with manual synchronisation, as PyAsc's first tutorial writes
it: 8 blocks, LocalTensors at explicit Unified Buffer offsets, double
buffering ordered by set_flag/wait_flag."""

import numpy as np

import pyasc as asc

USE_CORE_NUM = 8
BUFFER_NUM = 2
TILE_NUM = 8


@asc.jit
def vadd_kernel(x: asc.GlobalAddress, y: asc.GlobalAddress, z: asc.GlobalAddress,
                block_length: int) -> None:
    offset = asc.get_block_idx() * block_length
    x_gm = asc.GlobalTensor()
    y_gm = asc.GlobalTensor()
    z_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x + offset, block_length)
    y_gm.set_global_buffer(y + offset, block_length)
    z_gm.set_global_buffer(z + offset, block_length)

    tile_length = block_length // TILE_NUM // BUFFER_NUM
    data_type = x.dtype
    buffer_size = tile_length * BUFFER_NUM * data_type.sizeof()
    # Three regions of the UB, each holding both buffers of one operand.
    x_local = asc.LocalTensor(data_type, asc.TPosition.VECIN, 0, tile_length * BUFFER_NUM)
    y_local = asc.LocalTensor(data_type, asc.TPosition.VECIN, buffer_size, tile_length * BUFFER_NUM)
    z_local = asc.LocalTensor(data_type, asc.TPosition.VECOUT, buffer_size * 2,
                              tile_length * BUFFER_NUM)

    for i in range(TILE_NUM * BUFFER_NUM):
        buf_id = i % BUFFER_NUM
        asc.data_copy(x_local[buf_id * tile_length:], x_gm[i * tile_length:], tile_length)
        asc.data_copy(y_local[buf_id * tile_length:], y_gm[i * tile_length:], tile_length)
        asc.set_flag(asc.HardEvent.MTE2_V, buf_id)
        asc.wait_flag(asc.HardEvent.MTE2_V, buf_id)
        asc.add(z_local[buf_id * tile_length:], x_local[buf_id * tile_length:],
                y_local[buf_id * tile_length:], tile_length)
        asc.set_flag(asc.HardEvent.V_MTE3, buf_id)
        asc.wait_flag(asc.HardEvent.V_MTE3, buf_id)
        asc.data_copy(z_gm[i * tile_length:], z_local[buf_id * tile_length:], tile_length)
        asc.set_flag(asc.HardEvent.MTE3_MTE2, buf_id)
        asc.wait_flag(asc.HardEvent.MTE3_MTE2, buf_id)


def vadd(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """z = x + y on the default device; sizes must split into 8 x 16 tiles."""
    z = np.zeros_like(x)
    block_length = x.size // USE_CORE_NUM
    vadd_kernel[USE_CORE_NUM, asc.current_stream()](x, y, z, block_length)
    asc.synchronize()
    return z


if __name__ == "__main__":
    rng = np.random.default_rng(0)
    x = rng.random(8 * 2048, dtype=np.float32)
    y = rng.random(8 * 2048, dtype=np.float32)
    z = vadd(x, y)
    assert np.array_equal(z, x + y)
    print("vadd: max |z - (x + y)| =", float(np.abs(z - (x + y)).max()))
