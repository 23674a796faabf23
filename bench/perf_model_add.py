"""The timing model (docs/perf-model.md) against CANN's published msprof
figures for its add_high_performance example (Atlas A2, 8192 x 8192 half
z = x + y, cases 0-6). The seven cases are our own PyAsc kernel with the
example's algorithm, shapes, copy lengths, core split and UB layout.

Prints: case, modelled Task Duration, published Task Duration, ratio; then
each case of --ascendc (default: 4) run as its emitted Ascend C through
pyasc.ascendc.load, whose modelled time is printed beside the Python
kernel's (docs/perf-model.md, "Ascend C").
Cases 1-6 run the full 8192 x 8192 problem. Case 0 (one core adding
element by element with get_value/set_value) runs ROWS0 of the 8192 rows
and is scaled by 8192 / ROWS0: its one block's work is a loop of identical
tiles, so its modelled time is linear in the rows (the ratio of two sizes
is printed as a check). Every result is checked against NumPy.

Usage: python bench/perf_model_add.py [--rows0 N] [--cases CASE ...] [--ascendc CASE ...]
"""

import argparse
import time

import numpy as np

import pyasc as asc

M = N = 8192
CORES = 48
BASE_LEN, LARGE_LEN, BC_LEN = 4096, 16384, 16256
MAX_LEN = 16384  # halves per UB buffer (32 KiB), as the example lays the UB out
HB = 2  # bytes of a half
# msprof Task Duration (us) published for Atlas A2 in the example's README
PUBLISHED = {0: 1239689.1, 1: 6909.6, 2: 306.58, 3: 268.5, 4: 264.02, 5: 187.68, 6: 184.52}
# case: (cores, copy length)
CASES = {0: (1, BASE_LEN), 1: (1, BASE_LEN), 2: (CORES, BASE_LEN), 3: (CORES, LARGE_LEN),
         4: (CORES, LARGE_LEN), 5: (CORES, LARGE_LEN), 6: (CORES, BC_LEN)}


@asc.jit
def add_kernel(x: asc.GlobalAddress, y: asc.GlobalAddress, z: asc.GlobalAddress, total_m: int,
               total_n: int, copy_len: asc.ConstExpr[int], case: asc.ConstExpr[int]) -> None:
    # rows split evenly over the blocks, the remainder to the first ones
    idx = asc.get_block_idx()
    nblk = asc.get_block_num()
    base = total_m // nblk
    rem = total_m % nblk
    rows = base
    start = rem * (base + 1) + (idx - rem) * base
    if idx < rem:
        rows = base + 1
        start = idx * rows
    count = rows * total_n
    x_gm = asc.GlobalTensor()
    y_gm = asc.GlobalTensor()
    z_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x + start * total_n, count)
    y_gm.set_global_buffer(y + start * total_n, count)
    z_gm.set_global_buffer(z + start * total_n, count)
    if case >= 5:  # the inputs are read once: they bypass the L2
        x_gm.set_l2_cache_hint(asc.CacheMode.CACHE_MODE_DISABLE)
        y_gm.set_l2_cache_hint(asc.CacheMode.CACHE_MODE_DISABLE)
    loops = (count + copy_len - 1) // copy_len
    buf = MAX_LEN * HB
    if case <= 3:
        xl = asc.LocalTensor(asc.float16, asc.TPosition.VECCALC, 0, MAX_LEN)
        yl = asc.LocalTensor(asc.float16, asc.TPosition.VECCALC, buf, MAX_LEN)
        zl = asc.LocalTensor(asc.float16, asc.TPosition.VECCALC, 2 * buf, MAX_LEN)
        for i in range(loops):
            off = i * copy_len
            cur = min(copy_len, count - off)
            if i != 0:
                asc.wait_flag(asc.HardEvent.V_MTE2, 0)
            asc.data_copy(xl, x_gm[off:], cur)
            asc.data_copy(yl, y_gm[off:], cur)
            asc.set_flag(asc.HardEvent.MTE2_V, 0)
            asc.wait_flag(asc.HardEvent.MTE2_V, 0)
            if i != 0:
                asc.wait_flag(asc.HardEvent.MTE3_V, 0)
            if case == 0:
                for j in range(cur):
                    zl.set_value(j, xl.get_value(j) + yl.get_value(j))
            else:
                asc.add(zl, xl, yl, cur)
            if i != loops - 1:
                asc.set_flag(asc.HardEvent.V_MTE2, 0)
            asc.set_flag(asc.HardEvent.V_MTE3, 0)
            asc.wait_flag(asc.HardEvent.V_MTE3, 0)
            asc.data_copy(z_gm[off:], zl, cur)
            if i != loops - 1:
                asc.set_flag(asc.HardEvent.MTE3_V, 0)
    else:
        # ping-pong buffers at the example's UB addresses (bytes); case 6
        # shifts y and z by 256 B against x
        step = (BC_LEN if case == 6 else MAX_LEN) * HB
        ub = asc.LocalTensor(asc.float16, asc.TPosition.VECCALC, 0, 6 * MAX_LEN)
        for e in range(2):
            asc.set_flag(asc.HardEvent.V_MTE2, e)
            asc.set_flag(asc.HardEvent.MTE3_V, e)
        for i in range(loops):
            off = i * copy_len
            cur = min(copy_len, count - off)
            e = i % 2
            if case == 6:  # x ping, y ping, x pong, y pong, then z ping, z pong
                xo = e * 2 * buf
                yo = e * 2 * buf + step
                zo = 4 * buf + e * step
            else:  # x, y, z ping, then x, y, z pong
                xo = e * 3 * buf
                yo = e * 3 * buf + buf
                zo = e * 3 * buf + 2 * buf
            asc.wait_flag(asc.HardEvent.V_MTE2, e)
            asc.data_copy(ub[xo // HB:], x_gm[off:], cur)
            asc.data_copy(ub[yo // HB:], y_gm[off:], cur)
            asc.set_flag(asc.HardEvent.MTE2_V, e)
            asc.wait_flag(asc.HardEvent.MTE2_V, e)
            asc.wait_flag(asc.HardEvent.MTE3_V, e)
            asc.add(ub[zo // HB:], ub[xo // HB:], ub[yo // HB:], cur)
            asc.set_flag(asc.HardEvent.V_MTE2, e)
            asc.set_flag(asc.HardEvent.V_MTE3, e)
            asc.wait_flag(asc.HardEvent.V_MTE3, e)
            asc.data_copy(z_gm[off:], ub[zo // HB:], cur)
            asc.set_flag(asc.HardEvent.MTE3_V, e)
        for e in range(2):
            asc.wait_flag(asc.HardEvent.V_MTE2, e)
            asc.wait_flag(asc.HardEvent.MTE3_V, e)
    asc.pipe_barrier(asc.PipeID.PIPE_ALL)


def run_case(case: int, rows: int, x: np.ndarray, y: np.ndarray) -> float:
    """Modelled Task Duration (us) of one case over the first rows rows."""
    cores, copy_len = CASES[case]
    z = np.zeros((rows, N), np.float16)
    with asc.profile() as prof:
        add_kernel[cores, asc.current_stream()](x[:rows], y[:rows], z, rows, N, copy_len, case)
    if not np.array_equal(z, (x[:rows] + y[:rows]).astype(np.float16)):
        raise SystemExit(f"case {case}: wrong result")
    return prof.launches[0].task_duration_us


def ascendc_case(case: int, rows: int, x: np.ndarray, y: np.ndarray) -> tuple[float, float]:
    """Modelled Task Duration (us) of one case's kernel as Ascend C (its
    emitted source, add_kernel.ascendc, built by pyasc.ascendc.load and run
    on the runtime's profiled table) and of the Python kernel, over the
    first rows rows."""
    cores, copy_len = CASES[case]
    z = np.zeros((rows, N), np.float16)
    args = (x[:rows], y[:rows], z, rows, N, copy_len, case)
    kernel = asc.ascendc.load(add_kernel.ascendc(*args), "add_kernel")
    with asc.profile() as prof:
        kernel[cores](x[:rows], y[:rows], z, rows, N)  # copy_len and case are compiled in
        if not np.array_equal(z, (x[:rows] + y[:rows]).astype(np.float16)):
            raise SystemExit(f"case {case} as Ascend C: wrong result")
        add_kernel[cores, asc.current_stream()](*args)
    return prof.launches[0].task_duration_us, prof.launches[1].task_duration_us


def host_cost(x: np.ndarray, y: np.ndarray, case: int = 4, repeat: int = 3) -> None:
    """Host wall time of one case with and without profiling (built already),
    the best of repeat runs each, and the process's CPU time (all threads),
    which other work on a shared machine disturbs less."""
    cores, copy_len = CASES[case]
    z = np.zeros((M, N), np.float16)

    def once() -> tuple[float, float]:
        t0, c0 = time.perf_counter(), time.process_time()
        add_kernel[cores, asc.current_stream()](x, y, z, M, N, copy_len, case)
        asc.current_stream().synchronize()  # a profiled launch waits for its stream
        return time.perf_counter() - t0, time.process_time() - c0

    once()
    runs = [once() for _ in range(repeat)]
    plain, plain_cpu = min(r[0] for r in runs), min(r[1] for r in runs)
    with asc.profile():
        once()
        runs = [once() for _ in range(repeat)]
    profiled, profiled_cpu = min(r[0] for r in runs), min(r[1] for r in runs)
    print(f"host wall time of case {case}: {plain:.3f} s, profiled {profiled:.3f} s "
          f"({profiled / plain:.2f}x); CPU time {plain_cpu:.3f} s, profiled "
          f"{profiled_cpu:.3f} s ({profiled_cpu / plain_cpu:.2f}x)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows0", type=int, default=64, help="rows simulated for case 0")
    parser.add_argument("--cases", type=int, nargs="*", default=list(CASES),
                        help="the cases run (default: all; the host cost needs case 4)")
    parser.add_argument("--ascendc", type=int, nargs="*", default=[4],
                        help="cases also run as their emitted Ascend C (pyasc.ascendc)")
    ns = parser.parse_args()
    rng = np.random.default_rng(0)
    x = rng.standard_normal((M, N), dtype=np.float32).astype(np.float16)
    y = rng.standard_normal((M, N), dtype=np.float32).astype(np.float16)
    print(f"{'case':>4}  {'modelled us':>12}  {'published us':>12}  {'ratio':>6}  host s")
    for case in ns.cases:
        t0 = time.perf_counter()
        if case == 0:
            half = run_case(0, ns.rows0 // 2, x, y)
            us = run_case(0, ns.rows0, x, y)
            print(f"      case 0 linearity: t({ns.rows0}) / t({ns.rows0 // 2}) = {us / half:.3f}")
            us = us * M / ns.rows0
        else:
            us = run_case(case, M, x, y)
        print(f"{case:>4}  {us:12.2f}  {PUBLISHED[case]:12.2f}  {us / PUBLISHED[case]:6.3f}  "
              f"{time.perf_counter() - t0:.1f}")
    for case in ns.ascendc:
        cxx, py = ascendc_case(case, M, x, y)
        print(f"case {case} as Ascend C: modelled {cxx:.2f} us, the Python kernel {py:.2f} us "
              f"({cxx / py:.4f}), published {PUBLISHED[case]:.2f} us")
    if 4 in ns.cases:
        host_cost(x, y)


if __name__ == "__main__":
    main()
