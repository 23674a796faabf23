"""The timing the bench scripts share: the best of several samples, the
figure least disturbed by whatever else the machine is doing, and a wait
for the process's idle helper threads to stop spinning."""

from __future__ import annotations

import time
from collections.abc import Callable

#: the slice quiet() watches, and the CPU time in it that counts as idle
QUIET_SLICE_S = 0.02
QUIET_CPU_S = 0.002


def best(fn: Callable[[], object], repeats: int = 5, inner: int = 1,
         warmup: bool = False) -> float:
    """Best time of one call of fn in seconds: the least of `repeats`
    samples, each running fn `inner` times (after one call first when
    `warmup`: registration, compilation, caches)."""
    if warmup:
        fn()
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        for _ in range(inner):
            fn()
        times.append((time.perf_counter() - t0) / inner)
    return min(times)


def quiet(limit_s: float = 2.0) -> None:
    """Waits (at most ``limit_s``) until the process's threads use no CPU
    while this one sleeps. OpenBLAS's helper threads spin for about 0.1 s
    after each NumPy matmul before they sleep: timed right after one, a
    kernel's worker threads share a core with a spinning helper (on a
    2-core host, the second worker gets next to nothing)."""
    end = time.perf_counter() + limit_s
    while time.perf_counter() < end:
        c0 = time.process_time()
        time.sleep(QUIET_SLICE_S)
        if time.process_time() - c0 < QUIET_CPU_S:
            return
