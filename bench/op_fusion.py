"""The operator compiler (docs/op-compiler.md) against NumPy, numexpr and
PyTorch (eager and torch.compile), measured side by side in one run.

Rows: 16M float32 ``(x + y) * 2.0`` and ``exp(x) * y + x`` in ms, with the
single-pass floor from the copy bandwidth measured in the same run (bytes
of one pass: inputs read once, the output written once); the 16-element
operator call (below PYASC_OP_FUSE_MIN its operations run in one C call,
bench/op_small.py); the
first call of a new signature (trace + build, empty kernel cache; 1M
elements, so that a kernel is built) and the first call in a fresh process
that finds the kernel in the disk cache; and chains ending in a fused
reduction (16M float32 sum((x - y) ** 2), sum(x * y, axis=-1) on 4096 x 4096);
softmax over the rows of 4096 x 4096 float32 written by hand in @pyasc.op.
Usage: make bench   (or PYTHONPATH=build/dev/stage python bench/op_fusion.py)
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from typing import Any, Callable

import numpy as np

import pyasc

import bench_timing  # bench/bench_timing.py

try:
    import numexpr
except ImportError:
    numexpr = None
try:
    import torch
except ImportError:
    torch = None


best = bench_timing.best


def synced(fn: Callable[[], object]) -> Callable[[], None]:
    def run() -> None:
        fn()
        pyasc.synchronize()

    return run


@pyasc.op
def axpy2(x: pyasc.Tensor, y: pyasc.Tensor) -> pyasc.Tensor:
    return (x + y) * 2.0


@pyasc.op
def expmix(x: pyasc.Tensor, y: pyasc.Tensor) -> pyasc.Tensor:
    return pyasc.exp(x) * y + x


@pyasc.op
def sqdist(x: pyasc.Tensor, y: pyasc.Tensor) -> pyasc.Tensor:
    d = x - y
    return (d * d).sum()


@pyasc.op
def rowdot(x: pyasc.Tensor, y: pyasc.Tensor) -> pyasc.Tensor:
    return (x * y).sum(axis=-1)


def reduction_rows(xa: np.ndarray, ya: np.ndarray, gbs: float) -> None:
    """A chain ending in a fused reduction: 16M float32 sum((x - y)^2) and
    sum(x * y, axis=-1) on 4096 x 4096; the floor reads both inputs once."""
    floor_s = 2 * xa.nbytes / (gbs * 1e9)
    rows2 = xa.reshape(4096, -1), ya.reshape(4096, -1)
    cases = [
        ("sum((x - y) ** 2)", sqdist, (xa, ya), lambda a, b: np.sum((a - b) ** 2),
         "sum((x - y) ** 2)", lambda a, b: torch.sum((a - b) ** 2)),
        ("sum(x * y, axis=-1) 4096x4096", rowdot, rows2, lambda a, b: np.sum(a * b, axis=-1),
         None, lambda a, b: torch.sum(a * b, dim=-1)),
    ]
    for title, op, (a, b), np_fn, ne_expr, torch_fn in cases:
        x, y = pyasc.Tensor(a), pyasc.Tensor(b)
        op(x, y)
        pyasc.synchronize()
        fused = best(synced(lambda: op(x, y)))
        numpy_s = best(lambda: np_fn(a, b))
        print(f"{title}: (floor {floor_s * 1e3:.2f} ms, 2 inputs read once)")
        print(f"  pyasc.op fused   {fused * 1e3:8.2f} ms   floor/fused {floor_s / fused:5.2f}   "
              f"NumPy/fused {numpy_s / fused:5.2f}x")
        print(f"  NumPy            {numpy_s * 1e3:8.2f} ms")
        if numexpr is not None and ne_expr is not None:
            ne_s = best(lambda: numexpr.evaluate(ne_expr, local_dict={"x": a, "y": b}))
            print(f"  numexpr          {ne_s * 1e3:8.2f} ms")
        if torch is not None:
            at, bt = torch.from_numpy(a), torch.from_numpy(b)
            print(f"  torch eager      {best(lambda: torch_fn(at, bt)) * 1e3:8.2f} ms")


@pyasc.op
def softmax_op(x: pyasc.Tensor) -> pyasc.Tensor:
    m = x.max(axis=-1, keepdims=True)
    e = pyasc.exp(x - m)
    return e / e.sum(axis=-1, keepdims=True)


def softmax_rows(xa: np.ndarray, gbs: float) -> None:
    """Softmax over the last axis of 4096 x 4096 float32 written by hand in
    ``@pyasc.op`` (an eager max, one kernel for exp and its row sums, one
    for the division), the same body eager, ``pyasc.softmax``, NumPy and
    torch.softmax; the floor reads the input once and writes the output."""
    a = xa.reshape(4096, -1)
    x = pyasc.Tensor(a)
    floor_s = 2 * a.nbytes / (gbs * 1e9)
    softmax_op(x)
    pyasc.synchronize()
    fused = best(synced(lambda: softmax_op(x)))
    rows = [("pyasc.op fused", fused), ("pyasc eager body", best(synced(lambda: softmax_op.fn(x)))),
            ("pyasc.softmax", best(synced(lambda: pyasc.softmax(x, axis=-1))))]

    def np_softmax() -> np.ndarray:
        e = np.exp(a - a.max(axis=-1, keepdims=True))
        return e / e.sum(axis=-1, keepdims=True)

    numpy_s = best(np_softmax)
    rows.append(("NumPy", numpy_s))
    if torch is not None:
        at = torch.from_numpy(a)
        rows.append(("torch.softmax", best(lambda: torch.softmax(at, dim=-1))))
    print(f"softmax(x, axis=-1) 4096x4096: (floor {floor_s * 1e3:.2f} ms, read once, written "
          f"once; NumPy/fused {numpy_s / fused:5.2f}x)")
    for label, s in rows:
        print(f"  {label:<16} {s * 1e3:8.2f} ms")


def _torch_rows(name: str, fn: Callable[..., Any], xt: Any, yt: Any) -> list[tuple[str, float]]:
    rows = [(f"torch eager {name}", best(lambda: fn(xt, yt)))]
    try:
        compiled = torch.compile(fn)
        compiled(xt, yt)
        rows.append((f"torch.compile {name}", best(lambda: compiled(xt, yt))))
    except Exception as exc:  # noqa: BLE001 - a missing C++ toolchain, say: report it
        print(f"  torch.compile {name}: unavailable ({type(exc).__name__})")
    return rows


_FRESH = """
import time, numpy as np
t0 = time.perf_counter()
import pyasc
t1 = time.perf_counter()
@pyasc.op
def axpy2(x, y):
    return (x + y) * 2.0
x = pyasc.Tensor(np.ones(1 << 20, np.float32))  # above PYASC_OP_FUSE_MIN: a kernel
t2 = time.perf_counter()
axpy2(x, x); pyasc.synchronize()
t3 = time.perf_counter()
print(f"{(t3 - t2) * 1e3:.2f} {(t1 - t0) * 1e3:.1f}")
"""


def fresh_process_first_call(cache: str) -> tuple[float, float]:
    """(first call ms, import ms) in a new interpreter using ``cache``."""
    env = dict(os.environ, PYASC_CACHE_DIR=cache)
    out = subprocess.run([sys.executable, "-c", _FRESH], env=env, capture_output=True,
                         text=True, check=True, timeout=300)
    first, imp = out.stdout.split()
    return float(first), float(imp)


def main() -> None:
    n = 16 * 1024 * 1024
    rng = np.random.default_rng(0)
    xa, ya = rng.random(n, dtype=np.float32), rng.random(n, dtype=np.float32)
    x, y = pyasc.Tensor(xa), pyasc.Tensor(ya)
    dst = np.empty_like(xa)
    copy_s = best(lambda: np.copyto(dst, xa))
    gbs = 2 * 4 * n / copy_s / 1e9
    floor_s = 3 * 4 * n / (gbs * 1e9)  # one pass: two inputs read, one output written
    print(f"copy bandwidth {gbs:.1f} GB/s; single-pass floor (2 in + 1 out, 16M float32) "
          f"{floor_s * 1e3:.2f} ms")
    cases = [
        # numexpr reads a bare 2.0 as float64 and computes in float64: name a float32 two
        ("(x + y) * 2.0", axpy2, lambda a, b: (a + b) * np.float32(2.0), "(x + y) * two",
         lambda a, b: (a + b) * 2.0),
        ("exp(x) * y + x", expmix, lambda a, b: np.exp(a) * b + a, "exp(x) * y + x",
         lambda a, b: torch.exp(a) * b + a),
    ]
    for title, op, np_fn, ne_expr, torch_fn in cases:
        op(x, y)
        pyasc.synchronize()
        fused = best(synced(lambda: op(x, y)))
        eager = best(synced(lambda: op.fn(x, y)))
        numpy_s = best(lambda: np_fn(xa, ya))
        print(f"{title}:")
        print(f"  pyasc.op fused   {fused * 1e3:8.2f} ms   floor/fused {floor_s / fused:5.2f}   "
              f"NumPy/fused {numpy_s / fused:5.2f}x")
        print(f"  pyasc eager      {eager * 1e3:8.2f} ms")
        print(f"  NumPy            {numpy_s * 1e3:8.2f} ms")
        if numexpr is None:
            print("  numexpr          absent")
        else:
            names = {"x": xa, "y": ya, "two": np.float32(2.0)}
            ne_s = best(lambda: numexpr.evaluate(ne_expr, local_dict=names))
            print(f"  numexpr          {ne_s * 1e3:8.2f} ms")
        if torch is None:
            print("  torch            absent")
        else:
            xt, yt = torch.from_numpy(xa), torch.from_numpy(ya)
            for label, s in _torch_rows(title, torch_fn, xt, yt):
                print(f"  {label:<16} {s * 1e3:8.2f} ms")

    reduction_rows(xa, ya, gbs)
    softmax_rows(xa, gbs)

    small = pyasc.Tensor(np.ones(16, np.float32))
    axpy2(small, small)
    pyasc.synchronize()
    call_s = best(lambda: axpy2(small, small), inner=2000)
    pyasc.synchronize()
    add_s = best(lambda: small + small, inner=2000)
    pyasc.synchronize()
    npa = np.ones(16, np.float32)
    np_s = best(lambda: (npa + npa) * np.float32(2.0), inner=2000)
    print(f"16-element call: pyasc.op {call_s * 1e6:.2f} us, one pyasc add {add_s * 1e6:.2f} us, "
          f"NumPy expression {np_s * 1e6:.2f} us")

    with tempfile.TemporaryDirectory() as cache:
        os.chmod(cache, 0o700)
        cold, _ = fresh_process_first_call(cache)
        warm, imp = fresh_process_first_call(cache)
    print(f"first call of a new signature (trace + build, empty cache): {cold:.1f} ms")
    print(f"first call in a fresh process from the disk cache: {warm:.1f} ms "
          f"(import pyasc {imp:.0f} ms, not counted)")


if __name__ == "__main__":
    main()
