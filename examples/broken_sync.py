"""A synchronisation bug and how checked mode finds it: examples/vadd.py with
the wait_flag(MTE2_V) removed, so the vector add may read x_local and
y_local before MTE2 has finished copying them in. The simulated cores run
in program order and would give the right sum anyway; on an NPU the result
would be garbage now and then. Checked mode (debug=True here, or
PYASC_DEBUG=1 for any kernel) stops the kernel at the add and names both
lines and the HardEvent that orders them. Run it: it prints the error and
exits 0."""

import numpy as np

import pyasc as asc

USE_CORE_NUM = 8
BUFFER_NUM = 2
TILE_NUM = 8


@asc.jit(debug=True)
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
    x_local = asc.LocalTensor(data_type, asc.TPosition.VECIN, 0, tile_length * BUFFER_NUM)
    y_local = asc.LocalTensor(data_type, asc.TPosition.VECIN, buffer_size, tile_length * BUFFER_NUM)
    z_local = asc.LocalTensor(data_type, asc.TPosition.VECOUT, buffer_size * 2,
                              tile_length * BUFFER_NUM)

    for i in range(TILE_NUM * BUFFER_NUM):
        buf_id = i % BUFFER_NUM
        asc.data_copy(x_local[buf_id * tile_length:], x_gm[i * tile_length:], tile_length)
        asc.data_copy(y_local[buf_id * tile_length:], y_gm[i * tile_length:], tile_length)
        asc.set_flag(asc.HardEvent.MTE2_V, buf_id)
        # BUG: the matching asc.wait_flag(asc.HardEvent.MTE2_V, buf_id) is missing
        asc.add(z_local[buf_id * tile_length:], x_local[buf_id * tile_length:],
                y_local[buf_id * tile_length:], tile_length)
        asc.set_flag(asc.HardEvent.V_MTE3, buf_id)
        asc.wait_flag(asc.HardEvent.V_MTE3, buf_id)
        asc.data_copy(z_gm[i * tile_length:], z_local[buf_id * tile_length:], tile_length)
        asc.set_flag(asc.HardEvent.MTE3_MTE2, buf_id)
        asc.wait_flag(asc.HardEvent.MTE3_MTE2, buf_id)


if __name__ == "__main__":
    rng = np.random.default_rng(0)
    x = rng.random(8 * 2048, dtype=np.float32)
    y = rng.random(8 * 2048, dtype=np.float32)
    z = np.zeros_like(x)
    try:
        vadd_kernel[USE_CORE_NUM](x, y, z, x.size // USE_CORE_NUM)
        asc.synchronize()
    except asc.KernelError as exc:
        print(f"checked mode caught it:\n{exc}")
    else:
        raise SystemExit("checked mode missed the missing wait_flag")
