"""Cube unit benchmark: fp16 matmul 1024^3 on the simulated cube next to
NumPy's float32 matmul (OpenBLAS) measured in the same run.

Rows: asc.adv.Matmul (examples/matmul_mix.py, the host tiling over 48
AIVs: a mixed launch of 24 groups) and the hand-written basic-API kernel (examples/matmul_basic.py:
Nd2Nz into L1, load_data into L0A/L0B, mmad, fixpipe), both launched from
Python with NumPy arrays (synchronous: the time includes the launch); and
the same pipeline in C alone (bench/bench_cube.c, asc_bench_cube) on one
simulated core and on as many as the host has CPUs, and once more with
PYASC_CPU_SIMD=0, the portable mmad and fixpipe (what the SIMD paths of
rt/cube_mmad256.h, cube_mmad512.h and cube_fixpipe_nd.h gain). The target
is at least 0.5x NumPy for the two kernel-language rows. Every pyasc
row is timed once NumPy's BLAS helper threads have stopped spinning
(bench_timing.quiet): on a 2-core host a spinning helper took the core of
the second worker, and two workers timed slower than one. The last
column, GFLOP per CPU-second of the process (all its threads), moves
little with the load of a shared host, where the wall-clock rows do.

Usage: make bench   (or python bench/cube.py [build-dir])
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

import bench_timing  # bench/bench_timing.py

ROOT = Path(__file__).resolve().parent.parent
SIZE = 1024


def best_seconds(fn, repeats: int = 3) -> tuple[float, float]:
    """Best wall time and best process CPU time of fn() in seconds (after
    one warm-up call)."""
    fn()
    wall = cpu = float("inf")
    for _ in range(repeats):
        t0, c0 = time.perf_counter(), time.process_time()
        fn()
        wall = min(wall, time.perf_counter() - t0)
        cpu = min(cpu, time.process_time() - c0)
    return wall, cpu


def numpy_gflops(n: int = SIZE, repeats: int = 5) -> tuple[float, float]:
    """Best GFLOP/s and GFLOP per CPU-second of NumPy's float32 n x n x n
    matmul."""
    rng = np.random.default_rng(0)
    a = rng.random((n, n), dtype=np.float32)
    b = rng.random((n, n), dtype=np.float32)
    wall, cpu = best_seconds(lambda: a @ b, repeats)
    bench_timing.quiet()
    return 2.0 * n**3 / wall / 1e9, 2.0 * n**3 / cpu / 1e9


def kernel_rows(n: int = SIZE) -> list[tuple[str, float, float]]:
    """GFLOP/s and GFLOP per CPU-second of the two kernel-language
    matmuls, checked against NumPy."""
    sys.path.insert(0, str(ROOT / "examples"))
    import matmul_basic
    import matmul_mix

    rng = np.random.default_rng(1)
    a = rng.integers(-4, 4, (n, n)).astype(np.float16)
    b = rng.integers(-4, 4, (n, n)).astype(np.float16)
    ref = a.astype(np.float32) @ b.astype(np.float32)
    bench_timing.quiet()
    tiling = matmul_mix.make_tiling(n, n, n, cores=48)  # AIVs: 24 groups
    rows = []
    for name, fn in (("asc.adv.Matmul (matmul_mix, 24 groups)",
                      lambda: matmul_mix.matmul(a, b, tiling)),
                     ("basic APIs by hand (matmul_basic, 24 cores)",
                      lambda: matmul_basic.matmul_basic(a, b, cores=24))):
        if not np.array_equal(fn(), ref):
            raise RuntimeError(f"{name}: result differs from NumPy")
        wall, cpu = best_seconds(fn)
        rows.append((name, 2.0 * n**3 / wall / 1e9, 2.0 * n**3 / cpu / 1e9))
    return rows


def cube_gflops(exe: Path, threads: int, n: int = SIZE, portable: bool = False) -> float:
    """GFLOP/s the cube bench reports for n^3 on `threads` simulated cores
    (`portable`: with PYASC_CPU_SIMD=0)."""
    env = dict(os.environ, PYASC_CPU_SIMD="0") if portable else None
    out = subprocess.run(
        [str(exe), str(n), str(n), str(n), str(threads)], check=True, capture_output=True, text=True,
        env=env
    ).stdout
    match = re.search(r"([0-9.]+) GFLOP/s, max error ([0-9.e+-]+)", out)
    if match is None:
        raise RuntimeError(f"unexpected output from {exe}: {out!r}")
    if float(match.group(2)) != 0.0:
        raise RuntimeError(f"cube matmul result differs from the reference: {out!r}")
    return float(match.group(1))


def main() -> int:
    build = Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "build" / "dev"
    exe = build / "bench" / "asc_bench_cube"
    if not exe.exists():
        print(f"{exe} not built (make build)", file=sys.stderr)
        return 1
    ref, ref_cpu = numpy_gflops()
    print(f"{'fp16 matmul 1024^3':44s} {'GFLOP/s':>9s} {'x NumPy':>8s} {'GFLOP/cpu-s':>12s}")
    print(f"{'numpy float32 matmul (baseline)':44s} {ref:9.2f} {1.0:8.2f} {ref_cpu:12.2f}")
    for name, g, g_cpu in kernel_rows():
        print(f"{name:44s} {g:9.2f} {g / ref:8.2f} {g_cpu:12.2f}")
    cores = os.cpu_count() or 1
    for threads in sorted({1, cores}):
        g = cube_gflops(exe, threads)
        print(f"{f'C pipeline alone, {threads} thread(s)':44s} {g:9.2f} {g / ref:8.2f}")
    g = cube_gflops(exe, cores, portable=True)
    print(f"{f'... portable (PYASC_CPU_SIMD=0), {cores} thread(s)':44s} {g:9.2f} {g / ref:8.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
