"""Eager max/min reductions against NumPy measured in the same run.

Rows: float32 and float64 max and min over 16M elements (the whole
array), and float32 max along the last axis of 4096 x 4096 (one slice a
row) and of 1M x 16 (short slices), in GB/s of input read, with the
ratio to NumPy's. The vector loop is src/tensor/reduce_extreme.c
(PYASC_CPU_SIMD=0 measures the portable one).

Usage: make bench   (or PYTHONPATH=build/dev/stage python bench/reduce.py)
"""

from __future__ import annotations

import functools

import numpy as np

import pyasc

import bench_timing  # bench/bench_timing.py


best = functools.partial(bench_timing.best, repeats=7, warmup=True)


def row(name: str, a: np.ndarray, op: str, axis: int | None) -> tuple[str, float, float]:
    """GB/s of pyasc's and NumPy's `op` over `a` (checked equal first)."""
    t = pyasc.Tensor(a)
    ours = lambda: getattr(pyasc, op)(t, axis=axis).numpy()  # noqa: E731
    theirs = lambda: getattr(np, op)(a, axis=axis)  # noqa: E731
    if not np.array_equal(ours(), theirs(), equal_nan=True):
        raise RuntimeError(f"{name}: result differs from NumPy")
    return name, a.nbytes / best(ours) / 1e9, a.nbytes / best(theirs) / 1e9


def main() -> None:
    rng = np.random.default_rng(0)
    n = 16 * 1024 * 1024
    f32 = rng.standard_normal(n, dtype=np.float32)
    f64 = rng.standard_normal(n // 2)
    rows = [
        row("max float32 16M", f32, "max", None),
        row("min float32 16M", f32, "min", None),
        row("max float64 8M", f64, "max", None),
        row("max float32 4096x4096 axis=-1", f32.reshape(4096, 4096), "max", -1),
        row("max float32 1Mx16 axis=-1", f32.reshape(-1, 16), "max", -1),
    ]
    print(f"{'eager reduction':36} {'pyasc GB/s':>10} {'numpy GB/s':>10} {'ratio':>6}")
    for name, ours, theirs in rows:
        print(f"{name:36} {ours:10.2f} {theirs:10.2f} {ours / theirs:6.2f}")
    print(f"vector ISA: {pyasc._C._vector_isa()}; ratio = pyasc / numpy (higher is better)")


if __name__ == "__main__":
    main()
