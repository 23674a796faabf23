"""Tensor operation throughput and overhead, against NumPy and PyTorch
measured in the same run.

Rows: 16M float32 add/mul/exp in GB/s (bytes read + written) next to a copy
baseline (memory bandwidth); small-call latency (16 elements: a + b, a * 2.0,
exp(a), a.sum(), Python call to result); 1024x1024 float32 matmul in GFLOP/s.
Usage: make bench   (or PYTHONPATH=build/dev/stage python bench/tensor.py)
"""

from __future__ import annotations

from typing import Callable

import numpy as np

import pyasc

import bench_timing  # bench/bench_timing.py

try:
    import torch
except ImportError:  # PyTorch columns are then reported as missing
    torch = None


best = bench_timing.best


def pyasc_sync(fn: Callable[[], object]) -> Callable[[], None]:
    def run() -> None:
        fn()
        pyasc.synchronize()

    return run


def small_call_rows() -> list[tuple[str, str, str, str, str, str]]:
    """16-element float32 operations, Python call to result, in microseconds:
    what a call costs when the work is nothing. Many short samples: their
    minimum holds on a busy machine, where a long sample is preempted."""
    sa, sb = np.ones(16, np.float32), np.ones(16, np.float32)
    a, b = pyasc.Tensor(sa), pyasc.Tensor(sb)
    cases = [
        ("a + b", lambda: a + b, lambda: sa + sb, "target <= 0.4 us"),
        ("a * 2.0", lambda: a * 2.0, lambda: sa * 2.0, ""),
        ("exp(a)", lambda: pyasc.exp(a), lambda: np.exp(sa), ""),
        ("a.sum()", lambda: a.sum(), lambda: sa.sum(), ""),
    ]
    if torch is not None:
        ta, tb = torch.ones(16), torch.ones(16)
        torch_fns = [lambda: ta + tb, lambda: ta * 2.0, lambda: torch.exp(ta), lambda: ta.sum()]
    rows = []
    for k, (name, ours, theirs, note) in enumerate(cases):
        ours_us = best(ours, repeats=200, inner=1000) * 1e6
        np_us = best(theirs, repeats=200, inner=1000) * 1e6
        torch_us = (f"{best(torch_fns[k], repeats=200, inner=1000) * 1e6:.2f}"
                    if torch is not None else "n/a")
        rows.append((f"16-element {name}, call to result (us)", f"{ours_us:.2f}", f"{np_us:.2f}",
                     torch_us, f"{ours_us / np_us:.2f}", note))
    pyasc.synchronize()
    return rows


def main() -> None:
    n = 16 * 1024 * 1024
    rng = np.random.default_rng(0)
    xa, ya = rng.random(n, dtype=np.float32), rng.random(n, dtype=np.float32)
    x, y = pyasc.Tensor(xa), pyasc.Tensor(ya)
    out = pyasc.empty_like(x)
    na_out = np.empty_like(xa)
    rows = []

    binary_bytes, unary_bytes = 3 * 4 * n, 2 * 4 * n
    copy_gbs = 2 * 4 * n / best(lambda: np.copyto(na_out, xa)) / 1e9
    cases = [
        ("add", binary_bytes, lambda: pyasc.add(x, y, out=out), lambda: np.add(xa, ya, out=na_out),
         "add"),
        ("mul", binary_bytes, lambda: pyasc.multiply(x, y, out=out),
         lambda: np.multiply(xa, ya, out=na_out), "mul"),
        ("exp", unary_bytes, lambda: pyasc.exp(x, out=out), lambda: np.exp(xa, out=na_out),
         "exp"),
    ]
    if torch is not None:
        tx, ty, tout = torch.from_numpy(xa), torch.from_numpy(ya), torch.empty(n)
    for name, nbytes, ours, theirs, torch_name in cases:
        gbs = nbytes / best(pyasc_sync(ours)) / 1e9
        np_gbs = nbytes / best(theirs) / 1e9
        if torch is not None:
            fn = {"add": lambda: torch.add(tx, ty, out=tout),
                  "mul": lambda: torch.mul(tx, ty, out=tout),
                  "exp": lambda: torch.exp(tx, out=tout)}[torch_name]
            torch_gbs = f"{nbytes / best(fn) / 1e9:.2f}"
        else:
            torch_gbs = "n/a"
        rows.append((f"16M float32 {name} (GB/s)", f"{gbs:.2f}", f"{np_gbs:.2f}", torch_gbs,
                     f"{gbs / np_gbs:.2f}", f"copy {copy_gbs:.2f} GB/s"))

    rows.extend(small_call_rows())

    ma = rng.random((1024, 1024), dtype=np.float32)
    m = pyasc.Tensor(ma)
    flops = 2 * 1024**3
    ours_gf = flops / best(pyasc_sync(lambda: m @ m)) / 1e9
    np_gf = flops / best(lambda: ma @ ma) / 1e9
    if torch is not None:
        tm = torch.from_numpy(ma)
        torch_gf = f"{flops / best(lambda: tm @ tm) / 1e9:.1f}"
    else:
        torch_gf = "n/a"
    rows.append(("1024^2 float32 matmul (GFLOP/s)", f"{ours_gf:.1f}", f"{np_gf:.1f}", torch_gf,
                 f"{ours_gf / np_gf:.2f}", "target >= 0.95x NumPy"))

    print(f"{'measurement':42} {'pyasc':>9} {'numpy':>9} {'torch':>9} {'ratio':>6}  note")
    for r in rows:
        print(f"{r[0]:42} {r[1]:>9} {r[2]:>9} {r[3]:>9} {r[4]:>6}  {r[5]}")
    print("ratio = pyasc / numpy (higher is better for GB/s and GFLOP/s, lower for us)")


if __name__ == "__main__":
    main()
