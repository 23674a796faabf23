"""The timing model (docs/perf-model.md) against CANN's published msprof
figures for its data_copy best-practice example (Atlas A2, half matrices
read from GM into the UB with DataCopyPad and into L1 with DataCopy's
ND-to-NZ form; examples/01_simd_cpp_api/05_best_practices/04_memory_access).

Each scenario is our own PyAsc kernel with the example's algorithm: the
matrix shape, the tile, the core count, the rows per core, the loop order
(and for the repeat and same-address scenarios, the example's repeat and
rotation orders, with the L2 hint the example sets). The kernels only read;
each block writes the first row of its last tile back to check the copies.

Only BURST came from this example (the L1 scenarios 1 and 2); every other
row tests the model on a program it was not fitted on.

Prints: path, scenario, modelled and published Task Duration and MTE2 time
(means over the cores), ratios.

Usage: python bench/perf_model_data_copy.py [--only ub|l1]
"""

import argparse
import time

import numpy as np

import pyasc as asc

HB = 2  # bytes of a half
# the cores of each path's scenarios: the vector cores (UB) or the cube cores (L1)
CORES = {"ub": 48, "l1": 24}
# scenario (path, number): (M, N, tile_m, tile_n, mode, published Task
# Duration, published MTE2 time (us)); mode 0 plain, 1 whole matrix 4 times,
# 2 in four N slices 4 times each, 3 every core reads all in the same order,
# 4 the same with the order rotated by the core's index
SCENARIOS = {
    ("ub", 1): (12288, 12288, 1, 64, 0, 564.84, 548.161),
    ("ub", 2): (12288, 12288, 64, 64, 0, 233.54, 220.772),
    ("ub", 3): (12288, 12288, 64, 1024, 0, 215.82, 202.657),
    ("ub", 4): (12288, 12287, 64, 1024, 0, 275.3, 259.047),
    ("ub", 5): (12288, 12288, 64, 1024, 1, 828.06, None),
    ("ub", 6): (12288, 12288, 64, 1024, 2, 365.74, None),
    ("ub", 7): (6144, 512, 128, 64, 3, 539.42, 474.717),
    ("ub", 8): (6144, 512, 128, 64, 4, 328.88, 307.38),
    ("l1", 1): (12288, 12288, 64, 64, 0, 300.7, 283.508),
    ("l1", 2): (12288, 12288, 64, 256, 0, 230.24, 214.519),
    ("l1", 3): (12288, 12287, 64, 256, 0, 438.76, 422.515),
    ("l1", 4): (12288, 12288, 64, 1024, 1, 899.34, None),
    ("l1", 5): (12288, 12288, 64, 1024, 2, 414.96, None),
    ("l1", 6): (6144, 512, 256, 64, 3, 278.56, 240.198),
    ("l1", 7): (6144, 512, 256, 64, 4, 221.34, 209.8),
}


@asc.jit
def copy_kernel(src: asc.GlobalAddress, out: asc.GlobalAddress, m: asc.ConstExpr[int],
                n: asc.ConstExpr[int], tile_m: asc.ConstExpr[int], tile_n: asc.ConstExpr[int],
                mode: asc.ConstExpr[int], to_l1: asc.ConstExpr[int]) -> None:
    """Reads the block's part of src (or all of it, modes 3 and 4) tile by
    tile into one UB or L1 buffer; writes the first row of the last tile to
    out[block]."""
    idx = asc.get_block_idx()
    nblk = asc.get_block_num()
    single_m = m // nblk
    src_gm = asc.GlobalTensor()
    src_gm.set_global_buffer(src, m * n)
    out_gm = asc.GlobalTensor()
    out_gm.set_global_buffer(out + idx * tile_n, tile_n)
    if mode >= 3:  # the example keeps these reads out of the L2
        src_gm.set_l2_cache_hint(asc.CacheMode.CACHE_MODE_DISABLE)
    rows16 = (tile_m + 15) // 16 * 16
    if to_l1:
        buf = asc.LocalTensor(asc.float16, asc.TPosition.A1, 0, rows16 * tile_n)
    else:
        buf = asc.LocalTensor(asc.float16, asc.TPosition.VECIN, 0, tile_m * tile_n)
    # (first row, rows, first column, columns, repeats) of each pass
    n_slices = 1
    repeats = 1
    if mode == 1:
        repeats = 4
    if mode == 2:
        n_slices = 4
        repeats = 4
    groups = 1
    if mode >= 3:
        groups = m // single_m
    slice_n = n // n_slices
    last = 0
    for s in range(n_slices):
        for r in range(repeats):
            for g in range(groups):
                part = idx
                if mode == 3:
                    part = g
                if mode == 4:
                    part = (g // nblk) * nblk + (g + idx) % nblk
                for mi in range(single_m // tile_m):
                    row = part * single_m + mi * tile_m
                    for ni in range((slice_n + tile_n - 1) // tile_n):
                        col = s * slice_n + ni * tile_n
                        cols = min(tile_n, slice_n - ni * tile_n)
                        last = row * n + col
                        if to_l1:
                            asc.data_copy(buf, src_gm[last:],
                                          asc.Nd2NzParams(1, tile_m, cols, 0, n, rows16, 1, 0))
                        else:
                            asc.data_copy_pad(buf, src_gm[last:],
                                              asc.DataCopyParams(tile_m, cols * 2,
                                                                 (n - cols) * 2, 0),
                                              asc.DataCopyPadParams(False, 0, 0, 0))
    if not to_l1:
        asc.set_flag(asc.HardEvent.MTE2_MTE3, 0)
        asc.wait_flag(asc.HardEvent.MTE2_MTE3, 0)
        asc.data_copy_pad(out_gm, buf, asc.DataCopyParams(1, tile_n * 2, 0, 0))
    asc.pipe_barrier(asc.PipeID.PIPE_ALL)


def run(path: str, num: int, src: np.ndarray) -> tuple[float, float, float]:
    """Modelled Task Duration and mean MTE2 time (us) of one scenario, and
    the host seconds it took; checks the UB path's copied rows."""
    m, n, tile_m, tile_n, mode, _task, _mte2 = SCENARIOS[path, num]
    blocks = CORES[path]
    a = src[:m * n].reshape(m, n)
    out = np.zeros((blocks, tile_n), np.float16)
    t0 = time.perf_counter()
    with asc.profile() as prof:
        copy_kernel[blocks, asc.current_stream()](a, out, m, n, tile_m, tile_n, mode,
                                                  1 if path == "l1" else 0)
    host = time.perf_counter() - t0
    if path == "ub":
        check_last_rows(a, out, blocks, tile_m, tile_n, mode)
    rec = prof.launches[0]
    return rec.task_duration_us, rec.pipe_time_us["mte2"], host


def check_last_rows(a: np.ndarray, out: np.ndarray, blocks: int, tile_m: int, tile_n: int,
                    mode: int) -> None:
    """Each block's out row is the first row of the last tile it read."""
    m, n = a.shape
    single_m = m // blocks
    last_col = (n - 1) // tile_n * tile_n if mode != 2 else 3 * (n // 4) + (n // 4 - tile_n)
    for idx in range(blocks):
        part = idx
        if mode == 3:
            part = m // single_m - 1
        if mode == 4:
            g = m // single_m - 1
            part = (g // blocks) * blocks + (g + idx) % blocks
        row = part * single_m + single_m - tile_m
        cols = min(tile_n, n - last_col)
        if not np.array_equal(out[idx, :cols], a[row, last_col:last_col + cols]):
            raise SystemExit(f"block {idx}: wrong data copied")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", choices=("ub", "l1"))
    ns = parser.parse_args()
    rng = np.random.default_rng(0)
    src = rng.integers(-2048, 2048, 12288 * 12288, dtype=np.int16).astype(np.float16)
    print(f"{'path':>4} {'sc':>2}  {'Task Duration us, model / published':>36}  "
          f"{'MTE2 us, model / published':>30}  host s")
    for (path, num), row in SCENARIOS.items():
        if ns.only and ns.only != path:
            continue
        task, mte2, host = run(path, num, src)
        pub_task, pub_mte2 = row[5], row[6]
        mte2_text = (f"{mte2:9.1f} / {pub_mte2:9.1f} = {mte2 / pub_mte2:5.2f}" if pub_mte2
                     else f"{mte2:9.1f} / {'-':>9}        ")
        print(f"{path:>4} {num:>2}  {task:9.1f} / {pub_task:9.1f} = {task / pub_task:5.2f}"
              f"       {mte2_text}  {host:6.1f}")


if __name__ == "__main__":
    main()
