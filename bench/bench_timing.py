"""The timing the bench scripts share: the best of several samples, the
figure least disturbed by whatever else the machine is doing."""

from __future__ import annotations

import time
from collections.abc import Callable


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
