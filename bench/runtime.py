"""Runtime latencies: caching allocator and stream round trips.

Prints one table. Each row names the baseline measured in the same run and
the ratio pyasc / baseline; targets come from the project's issues.
Usage: make bench   (or PYTHONPATH=build/dev/stage python bench/runtime.py)
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

import pyasc

ROOT = Path(__file__).resolve().parent.parent


def per_call_ns(fn: Callable[[], object], iterations: int, repeats: int = 5) -> float:
    """Best-of-`repeats` mean time of one call, in nanoseconds."""
    best = float("inf")
    for _ in range(repeats):
        t0 = time.perf_counter_ns()
        for _ in range(iterations):
            fn()
        best = min(best, (time.perf_counter_ns() - t0) / iterations)
    return best


def c_measurements(build: Path) -> dict[str, float]:
    """Runs the C benchmark binary and parses its `name ns` lines."""
    exe = build / "bench" / "asc_bench_runtime"
    if not exe.exists():
        sys.exit(f"{exe} is missing: run `make build` first")
    out = subprocess.run([str(exe)], capture_output=True, text=True, check=True).stdout
    return {name: float(value) for name, value in (line.split() for line in out.splitlines())}


def python_measurements() -> dict[str, float]:
    """Measures the same operations through the Python API."""
    mem = pyasc.memory
    results = {}
    mem.alloc(4096).free()
    results["py_cached_alloc_free"] = per_call_ns(lambda: mem.alloc(4096).free(), 100_000)
    mem.set_caching(False)
    results["py_uncached_alloc_free"] = per_call_ns(lambda: mem.alloc(4096).free(), 20_000)
    mem.set_caching(True)
    results["numpy_empty_4k"] = per_call_ns(lambda: np.empty(1024, np.float32), 100_000)

    event = pyasc.Event()

    def round_trip() -> None:
        event.record()
        event.synchronize()

    results["py_empty_task_round_trip"] = per_call_ns(round_trip, 5_000)
    return results


def main() -> None:
    build = Path(os.environ.get("PYASC_BUILD_DIR", ROOT / "build" / "dev"))
    m = {**c_measurements(build), **python_measurements()}
    rows = [
        ("cached alloc+free 4 KiB, C", "c_cached_alloc_free", "c_malloc_free", "aligned_alloc+free", "<= 1 us"),
        ("uncached alloc+free 4 KiB, C", "c_uncached_alloc_free", "c_malloc_free", "aligned_alloc+free", "-"),
        ("cached alloc+free 4 KiB, Python", "py_cached_alloc_free", "numpy_empty_4k", "numpy.empty 4 KiB", "<= 1 us"),
        ("uncached alloc+free 4 KiB, Python", "py_uncached_alloc_free", "numpy_empty_4k", "numpy.empty 4 KiB", "-"),
        ("cached vs uncached, Python", "py_cached_alloc_free", "py_uncached_alloc_free", "uncached pyasc", "-"),
        ("empty task enqueue->sync, C", "c_empty_task_round_trip", None, "-", "<= 20 us"),
        ("empty task enqueue->sync, Python", "py_empty_task_round_trip", None, "-", "<= 20 us"),
    ]
    print(f"{'measurement':36} {'pyasc':>10} {'baseline':>10}  {'ratio':>6}  {'baseline is':22} target")
    for label, key, base_key, base_name, target in rows:
        value = m[key]
        base = m[base_key] if base_key else None
        base_text = f"{base / 1000:8.3f}us" if base else f"{'-':>10}"
        ratio = f"{value / base:6.2f}" if base else f"{'-':>6}"
        print(f"{label:36} {value / 1000:8.3f}us {base_text}  {ratio}  {base_name:22} {target}")


if __name__ == "__main__":
    main()
