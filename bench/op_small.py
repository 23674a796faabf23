"""Small ``@pyasc.op`` calls (below PYASC_OP_FUSE_MIN, docs/op-compiler.md
"Small operators") against NumPy, measured side by side in one run.

Rows, in us per call on 16 float32 elements: the seed's ``(x + y) * 2.0``
and a 5-operation chain ``exp(x) * y + x * 0.5 - y``, each as an operator
whose operations run in one C call (the default), as the same operator with
``PYASC_OP_PROGRAM=0`` (one eager call per operation, as before), and as the
NumPy expression; the ratios are against NumPy of the same run.
Usage: make bench   (or PYTHONPATH=build/dev/stage python bench/op_small.py)
"""

from __future__ import annotations

import os
from typing import Any, Callable

import numpy as np

import pyasc

import bench_timing  # bench/bench_timing.py

N = 16
INNER = 20000


def seed(x: pyasc.Tensor, y: pyasc.Tensor) -> pyasc.Tensor:
    return (x + y) * 2.0


def chain5(x: pyasc.Tensor, y: pyasc.Tensor) -> pyasc.Tensor:
    return pyasc.exp(x) * y + x * 0.5 - y


def numpy_seed(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    return (x + y) * np.float32(2.0)


def numpy_chain5(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    return np.exp(x) * y + x * np.float32(0.5) - y


def operator(fn: Callable[..., Any], programs: bool, x: Any, y: Any) -> Any:
    """A fresh operator of fn whose first signature is made with programs on
    or off (the setting is read when a signature is created)."""
    op = pyasc.op(name=f"{fn.__name__}_{int(programs)}", overwrite=True)(fn)
    old = os.environ.get("PYASC_OP_PROGRAM")
    os.environ["PYASC_OP_PROGRAM"] = "1" if programs else "0"
    try:
        op(x, y)
    finally:
        if old is None:
            del os.environ["PYASC_OP_PROGRAM"]
        else:
            os.environ["PYASC_OP_PROGRAM"] = old
    pyasc.synchronize()
    return op


def main() -> None:
    rng = np.random.default_rng(0)
    xa = rng.standard_normal(N).astype(np.float32)
    ya = rng.standard_normal(N).astype(np.float32)
    x, y = pyasc.Tensor(xa), pyasc.Tensor(ya)
    print(f"small operators, {N} float32 elements, us per call (best of 5 x {INNER}):")
    for label, fn, npfn in (("(x + y) * 2.0", seed, numpy_seed),
                            ("exp(x) * y + x * 0.5 - y", chain5, numpy_chain5)):
        one = operator(fn, True, x, y)
        eager = operator(fn, False, x, y)
        np.testing.assert_array_equal(one(x, y).numpy(), eager(x, y).numpy())
        t_one = bench_timing.best(lambda: one(x, y), inner=INNER)
        t_eager = bench_timing.best(lambda: eager(x, y), inner=INNER)
        t_np = bench_timing.best(lambda: npfn(xa, ya), inner=INNER)
        pyasc.synchronize()
        print(f"  {label}")
        print(f"    pyasc.op, one C call   {t_one * 1e6:6.2f} us  ({t_one / t_np:4.2f}x NumPy)")
        print(f"    pyasc.op, eager calls  {t_eager * 1e6:6.2f} us  ({t_eager / t_np:4.2f}x NumPy)")
        print(f"    NumPy                  {t_np * 1e6:6.2f} us")


if __name__ == "__main__":
    main()
