"""The tiling's step_k_a / step_k_b in asc.adv.Matmul: how many base K
blocks of A / B one GM -> L1 load brings. The simulated K loop loads them
that many at a time into as many L1 blocks (L1 keeps max(depth, step)
blocks of each), so results never change, and steps whose blocks do not
fit L1 are a KernelError while those that fit run."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

import pyasc

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "examples"))
import matmul_cube_only  # noqa: E402


def _run(m, n, k, steps, base=None, depth=(0, 0), seed=0):
    """C = A @ B + bias through the example's Matmul kernel with the host
    tiling's steps and depths replaced; returns (C, NumPy's)."""
    rng = np.random.default_rng(seed)
    a = rng.integers(-3, 4, (m, k)).astype(np.float16)
    b = rng.integers(-3, 4, (k, n)).astype(np.float16)
    bias = rng.integers(-8, 9, n).astype(np.float32)
    tiling = matmul_cube_only.make_tiling(m, n, k, cores=1, bias=True)
    if base is not None:
        tiling.base_m, tiling.base_n, tiling.base_k = base
    tiling.step_k_a, tiling.step_k_b = steps
    tiling.depth_a1, tiling.depth_b1 = depth
    tiling.step_m = tiling.step_n = 1
    c = matmul_cube_only.matmul(a, b, bias, tiling)
    return c, a.astype(np.float32) @ b.astype(np.float32) + bias


@pytest.mark.parametrize("steps", [(1, 1), (2, 3), (4, 1), (7, 7), (9, 2), (0, 5)])
def test_steps_do_not_change_results(steps):
    # K = 200 in base_k 32: 7 K blocks, the last 8 wide; steps that divide
    # it, do not, cover it at once, or pass it (9: one load, 7 blocks)
    c, ref = _run(48, 40, 200, steps, base=(32, 32, 32))
    np.testing.assert_array_equal(c, ref)


def test_host_tiling_steps_run():
    """The host tiling's own step_k_a/step_k_b (above 1 for a long K)."""
    m, n, k = 64, 64, 1024
    tiling = matmul_cube_only.make_tiling(m, n, k, cores=1, bias=True)
    assert tiling.step_k_a >= 1 and tiling.step_k_b >= 1
    c, ref = _run(m, n, k, (tiling.step_k_a, tiling.step_k_b),
                  depth=(tiling.depth_a1, tiling.depth_b1))
    np.testing.assert_array_equal(c, ref)


# 128 x 128 x 64 float16 base blocks: 16 KiB of L1 per A or B block
BASE = (128, 128, 64)


def test_steps_that_fit_l1_run():
    # 8 + 8 K blocks of 16 KiB (256 KiB) fit the 910B's 512 KiB L1
    c, ref = _run(128, 128, 64 * 9 + 16, (8, 8), base=BASE, seed=1)
    np.testing.assert_array_equal(c, ref)


@pytest.mark.parametrize("steps,depth,pattern", [
    ((40, 1), (0, 0), r"depth_a1 A blocks in L1 \(at least step_ka\) \(638976 bytes\) does not "
                      r"fit"),
    ((40, 1), (8, 1), r"depth_a1 A blocks in L1 \(at least step_ka\)"),  # the step, not depth
    ((17, 17), (0, 0), r"depth_b1 B blocks in L1 \(at least step_kb\) \(262144 bytes\) does not "
                       r"fit"),
])
def test_steps_that_overflow_l1_are_an_error(steps, depth, pattern):
    with pytest.raises(pyasc.KernelError, match=r"Matmul: the tiling's " + pattern):
        _run(128, 128, 64 * 9 + 16, steps, base=BASE, depth=depth)


def test_negative_step_is_an_error():
    with pytest.raises(pyasc.KernelError, match=r"step_ka -1 and step_kb 1 are not valid"):
        _run(32, 32, 64, (-1, 1))
