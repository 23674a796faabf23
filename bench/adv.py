"""adv library benchmark: a softmax kernel (pyasc.adv.softmax) over 16M
float32 elements as 16384 rows of 1024, next to NumPy's softmax on the same
rows in the same run.

Each of BLOCKS blocks takes a contiguous band of rows and walks it in tiles
of TILE_ROWS rows: copy in, adv.softmax with a host-filled SoftmaxTiling and
a shared tmp buffer sized by get_softmax_min_tmp_size, copy out.

Usage: make bench   (or PYTHONPATH=build/dev/stage python bench/adv.py)
"""

from __future__ import annotations

import functools

import numpy as np

import pyasc as asc
from pyasc.language import adv_host
from pyasc.language.adv_tiling import SoftmaxTiling

import bench_timing  # bench/bench_timing.py

ROWS, COLS = 16384, 1024
BLOCKS = 32
TILE_ROWS = 8


@asc.jit
def softmax_kernel(x: asc.GlobalAddress, y: asc.GlobalAddress, tiling: SoftmaxTiling,
                   rows: asc.ConstExpr[int], cols: asc.ConstExpr[int],
                   tile_rows: asc.ConstExpr[int], tmp_bytes: asc.ConstExpr[int]):
    band = rows // asc.get_block_num()
    tile = tile_rows * cols
    gx = asc.GlobalTensor()
    gx.set_global_buffer(x)
    gy = asc.GlobalTensor()
    gy.set_global_buffer(y)
    src = asc.LocalTensorAuto(x.dtype, tile)
    s = asc.LocalTensorAuto(asc.float32, tile_rows * 8)
    m = asc.LocalTensorAuto(asc.float32, tile_rows * 8)
    tmp = asc.LocalTensorAuto(asc.uint8, tmp_bytes)
    first = asc.get_block_idx() * band * cols
    for t in range(band // tile_rows):
        offset = first + t * tile
        asc.data_copy(src, gx[offset:], tile)
        asc.adv.softmax(src, s, m, src, tiling, tmp)
        asc.data_copy(gy[offset:], src, tile)


def numpy_softmax(x: np.ndarray, out: np.ndarray) -> None:
    np.subtract(x, x.max(axis=1, keepdims=True), out=out)
    np.exp(out, out=out)
    out /= out.sum(axis=1, keepdims=True)


best = functools.partial(bench_timing.best, repeats=3)


def main() -> None:
    x = np.random.default_rng(0).standard_normal((ROWS, COLS), dtype=np.float32) * 4
    y = np.empty_like(x)
    ref = np.empty_like(x)
    tmp = adv_host.get_softmax_min_tmp_size([TILE_ROWS, COLS], 4)
    tiling = SoftmaxTiling()
    adv_host.softmax_tiling_func([TILE_ROWS, COLS], 4, tmp, tiling)

    def kernel() -> None:  # synchronous: the arguments are NumPy arrays
        softmax_kernel[BLOCKS](x, y, tiling, ROWS, COLS, TILE_ROWS, tmp)

    kernel()  # compiles once
    numpy_softmax(x, ref)
    np.testing.assert_allclose(y, ref, rtol=1e-5, atol=1e-9)
    t_k, t_np = best(kernel), best(lambda: numpy_softmax(x, ref))
    gb = 2 * x.nbytes / 1e9
    print(f"{'measurement':44} {'pyasc':>10} {'numpy':>10} {'ratio':>6}")
    print(f"{'adv.softmax 16384x1024 f32 (ms)':44} {t_k * 1e3:10.1f} {t_np * 1e3:10.1f} "
          f"{t_np / t_k:6.2f}")
    print(f"{'adv.softmax 16384x1024 f32 (GB/s in+out)':44} {gb / t_k:10.2f} {gb / t_np:10.2f}")


if __name__ == "__main__":
    main()
