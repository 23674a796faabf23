"""A PyAsc program written against Huawei's `asc` package, run unchanged:
vector add over 8 blocks with torch tensors, laid out like PyAsc's first
tutorial (`python examples/add_asc.py -r Model`; `-r NPU` also selects the
simulated device)."""

import argparse
import logging

import torch

import asc
import asc.lib.runtime as rt
import asc.runtime.config as config

USE_CORE_NUM = 8
BUFFER_NUM = 2
TILE_NUM = 8

logging.basicConfig(level=logging.INFO)


@asc.jit
def vadd_kernel(x: asc.GlobalAddress, y: asc.GlobalAddress, z: asc.GlobalAddress,
                block_length: int) -> None:
    start = asc.get_block_idx() * block_length
    x_gm, y_gm, z_gm = asc.GlobalTensor(), asc.GlobalTensor(), asc.GlobalTensor()
    x_gm.set_global_buffer(x + start, block_length)
    y_gm.set_global_buffer(y + start, block_length)
    z_gm.set_global_buffer(z + start, block_length)

    tile = block_length // TILE_NUM // BUFFER_NUM
    dtype = x.dtype
    region = tile * BUFFER_NUM * dtype.sizeof()
    # One UB region per operand, each holding the tiles of both buffers.
    xs = asc.LocalTensor(dtype, asc.TPosition.VECIN, 0, tile * BUFFER_NUM)
    ys = asc.LocalTensor(dtype, asc.TPosition.VECIN, region, tile * BUFFER_NUM)
    zs = asc.LocalTensor(dtype, asc.TPosition.VECOUT, 2 * region, tile * BUFFER_NUM)

    for step in range(TILE_NUM * BUFFER_NUM):
        buf = step % BUFFER_NUM
        ub = buf * tile
        gm = step * tile
        asc.data_copy(xs[ub:], x_gm[gm:], tile)
        asc.data_copy(ys[ub:], y_gm[gm:], tile)
        asc.set_flag(asc.HardEvent.MTE2_V, buf)
        asc.wait_flag(asc.HardEvent.MTE2_V, buf)
        asc.add(zs[ub:], xs[ub:], ys[ub:], tile)
        asc.set_flag(asc.HardEvent.V_MTE3, buf)
        asc.wait_flag(asc.HardEvent.V_MTE3, buf)
        asc.data_copy(z_gm[gm:], zs[ub:], tile)
        asc.set_flag(asc.HardEvent.MTE3_MTE2, buf)
        asc.wait_flag(asc.HardEvent.MTE3_MTE2, buf)


def vadd(x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    """z = x + y; the launch is complete when it returns, as in PyAsc."""
    z = torch.zeros_like(x)
    block_length = z.numel() // USE_CORE_NUM
    vadd_kernel[USE_CORE_NUM, rt.current_stream()](x, y, z, block_length)
    return z


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("-r", default="Model", choices=[b.value for b in config.Backend],
                        help="backend (both run on the simulated device)")
    parser.add_argument("-v", default=None, choices=[p.value for p in config.Platform],
                        help="platform")
    args = parser.parse_args()
    config.set_platform(config.Backend(args.r), args.v and config.Platform(args.v))
    logging.info("start: vadd on %s (%s)", args.r, rt.current_platform())
    x = torch.rand(8 * 2048, dtype=torch.float32)
    y = torch.rand(8 * 2048, dtype=torch.float32)
    z = vadd(x, y)
    assert torch.equal(z, x + y)
    logging.info("Sample add run success.")


if __name__ == "__main__":
    main()
