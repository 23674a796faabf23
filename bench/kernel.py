"""Kernel language benchmarks: throughput of the vadd_framework kernel, the
cost of launching a cached kernel, and compile/caching times.

A launch on NumPy arrays is complete when the call returns (PyAsc's
semantics), so its rows time the whole synchronous launch; launches on
pyasc Tensors are asynchronous and are timed both enqueued and with a sync.

Prints one table; each row names the baseline measured in the same run.
Usage: make bench   (or PYTHONPATH=build/dev/stage python bench/kernel.py)
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

import pyasc as asc
from pyasc import _C

import bench_timing  # bench/bench_timing.py

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "examples"))
import vadd_framework  # noqa: E402


@asc.jit
def empty_kernel(x: asc.GlobalAddress):
    pass


best = bench_timing.best


def vadd_throughput(n: int) -> tuple[float, float]:
    rng = np.random.default_rng(0)
    x, y = rng.random(n, dtype=np.float32), rng.random(n, dtype=np.float32)
    z = np.empty_like(x)
    block = n // 8

    def kernel() -> None:  # synchronous: the arguments are NumPy arrays
        vadd_framework.vadd_kernel[8](x, y, z, block, 2048)

    kernel()
    _C.jit_wait_tiers()  # time the optimising build, not the first tier's
    assert np.array_equal(z, x + y)
    bytes_moved = 3 * x.nbytes
    return bytes_moved / best(kernel) / 1e9, bytes_moved / best(lambda: np.add(x, y, out=z)) / 1e9


def small_vadd_latency() -> tuple[float, float]:
    """Microseconds per synchronous vadd launch on 512-element NumPy arrays
    (8 blocks of 64), and per numpy.add of the same arrays."""
    x, y = np.ones(512, np.float32), np.ones(512, np.float32)
    z = np.empty_like(x)
    kernel = vadd_framework.vadd_kernel
    kernel[8](x, y, z, 64, 64)
    _C.jit_wait_tiers()  # time the optimising build, not the first tier's
    assert np.array_equal(z, x + y)
    reps = 500
    ours = best(lambda: [kernel[8](x, y, z, 64, 64) for _ in range(reps)]) / reps
    theirs = best(lambda: [np.add(x, y, out=z) for _ in range(reps)]) / reps
    return ours * 1e6, theirs * 1e6


def launch_overhead() -> tuple[float, float, float]:
    """Microseconds: a launch on NumPy args (complete at return), a launch
    on a Tensor enqueued, and a Tensor launch plus synchronize."""
    x = np.zeros(8, np.float32)
    t = asc.from_numpy(x)
    empty_kernel[1](x)
    empty_kernel[1](t)
    asc.synchronize()
    numpy_round_trip = best(lambda: [empty_kernel[1](x) for _ in range(200)]) / 200
    n = 2000
    t0 = time.perf_counter()
    for _ in range(n):
        empty_kernel[1](t)
    enqueue = (time.perf_counter() - t0) / n
    asc.synchronize()

    def round_trip() -> None:
        empty_kernel[1](t)
        asc.synchronize()

    tensor_round_trip = best(lambda: [round_trip() for _ in range(200)]) / 200
    return numpy_round_trip * 1e6, enqueue * 1e6, tensor_round_trip * 1e6


def cold_compile(cache: str) -> float:
    kernel = asc.jit(vadd_framework.vadd_kernel.fn, always_compile=True, cache_dir=cache)
    x = np.zeros(8 * 2048, np.float32)
    return best(lambda: kernel.compile(x, x, x, 2048, 2048), 3) * 1e3


def fresh_process_hit(cache: str) -> float:
    code = (
        "import sys, time; sys.path.insert(0, %r); import numpy as np; import pyasc as asc;"
        "import vadd_framework as v; k = asc.jit(v.vadd_kernel.fn, cache_dir=%r);"
        "x = np.zeros(8 * 2048, np.float32); t0 = time.perf_counter();"
        "c = k.compile(x, x, x, 2048, 2048); dt = time.perf_counter() - t0;"
        "assert c.cache_hit; print(dt)" % (str(ROOT / "examples"), cache)
    )
    # As a user's process would find it: Python's bytecode cache written.
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    times = []
    for _ in range(3):
        out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                             check=True, env=env)
        times.append(float(out.stdout.strip()) * 1e3)
    return min(times[1:])


def main() -> None:
    n = 16 * 1024 * 1024
    ours, numpy_gbs = vadd_throughput(n)
    numpy_round_trip_us, enqueue_us, round_trip_us = launch_overhead()
    small_us, small_np_us = small_vadd_latency()
    with tempfile.TemporaryDirectory() as cache:
        os.chmod(cache, 0o700)
        cold_ms = cold_compile(cache)
        _C.jit_wait_tiers()  # the optimising build reaches the disk cache
        hit_ms = fresh_process_hit(cache)
    rows = [
        ("vadd 16M float32, 8 blocks, NumPy (sync)", f"{ours:.2f} GB/s",
         f"{numpy_gbs:.2f} GB/s", f"{ours / numpy_gbs:.2f}", "numpy.add", ">= 0.8x"),
        ("vadd 512 float32, 8 blocks, NumPy (sync)", f"{small_us:.2f} us",
         f"{small_np_us:.2f} us", f"{small_us / small_np_us:.1f}", "numpy.add", "-"),
        ("empty kernel launch, NumPy arg (sync)", f"{numpy_round_trip_us:.2f} us", "-", "-",
         "-", "-"),
        ("empty kernel launch, Tensor (enqueue)", f"{enqueue_us:.2f} us", "-", "-", "-",
         "<= 10 us"),
        ("empty kernel launch, Tensor + sync", f"{round_trip_us:.2f} us", "-", "-", "-", "-"),
        ("cold compile of vadd_framework", f"{cold_ms:.1f} ms", "-", "-", "-", "<= 500 ms"),
        ("disk-cache hit in a fresh process", f"{hit_ms:.1f} ms", "-", "-", "-", "<= 20 ms"),
    ]
    print(f"{'measurement':40} {'pyasc':>12} {'baseline':>12} {'ratio':>6}  {'baseline is':10} target")
    for r in rows:
        print(f"{r[0]:40} {r[1]:>12} {r[2]:>12} {r[3]:>6}  {r[4]:10} {r[5]}")


if __name__ == "__main__":
    main()
