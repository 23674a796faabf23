"""Checked mode's cost: the same kernels built unchecked and checked
(@pyasc.jit(debug=...)), timed in the same run. vadd_framework on 16M
float32 over 8 blocks, and examples/softmax.py's kernel (4096 x 1024
float32) when that example exists.

Usage: PYTHONPATH=build/<dir>/stage python bench/checked.py
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import numpy as np

import pyasc as asc

import bench_timing  # bench/bench_timing.py

ROOT = Path(__file__).resolve().parent.parent
N = 16 * 1024 * 1024
BLOCKS = 8


def example(name: str):
    path = ROOT / "examples" / f"{name}.py"
    if not path.exists():
        return None
    spec = importlib.util.spec_from_file_location(f"bench_example_{name}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


best = bench_timing.best


def vadd_framework_case():
    module = example("vadd_framework")
    rng = np.random.default_rng(0)
    x, y = rng.random(N, dtype=np.float32), rng.random(N, dtype=np.float32)
    z = np.empty_like(x)

    def runner(debug: bool):
        kernel = asc.jit(module.vadd_kernel.fn, debug=debug)

        def run() -> None:
            kernel[BLOCKS](x, y, z, N // BLOCKS, 2048)
            asc.synchronize()

        return run

    def check() -> None:
        assert np.array_equal(z, x + y)

    return "vadd_framework 16M float32, 8 blocks", runner, check


def softmax_case():
    """examples/softmax.py's kernel, launched as its softmax() does."""
    module = example("softmax")
    if module is None or not hasattr(module, "softmax_kernel"):
        return None
    rows, cols = 4096, 1024
    x = np.random.default_rng(1).standard_normal((rows, cols)).astype(np.float32)
    y = np.empty_like(x)
    per_block = rows // BLOCKS

    def runner(debug: bool):
        kernel = asc.jit(module.softmax_kernel.fn, debug=debug)

        def run() -> None:
            kernel[BLOCKS](x, y, rows, per_block, cols)
            asc.synchronize()

        return run

    def check() -> None:
        np.testing.assert_allclose(y, module.reference(x), rtol=2e-6, atol=1e-9)

    return "softmax 4096 x 1024 float32, 8 blocks", runner, check


def main() -> None:
    cases = [c for c in (vadd_framework_case(), softmax_case()) if c is not None]
    rows = []
    for name, runner, check in cases:
        plain, checked = runner(False), runner(True)
        plain()  # build and warm both variants
        check()
        checked()
        check()
        t_plain, t_checked = best(plain), best(checked)
        rows.append((name, t_plain * 1e3, t_checked * 1e3, t_checked / t_plain))
    width = max(len(r[0]) for r in rows)
    print(f"{'kernel':<{width}}  {'unchecked ms':>12}  {'checked ms':>10}  {'slowdown':>8}")
    for name, a, b, ratio in rows:
        print(f"{name:<{width}}  {a:>12.2f}  {b:>10.2f}  {ratio:>7.2f}x")
    if len(rows) == 1:
        print("(examples/softmax.py not found: vadd_framework only)", file=sys.stderr)


if __name__ == "__main__":
    main()
