"""The order of asc.adv.Matmul's base blocks follows the tiling: its
iterate_order (ORDER_M / ORDER_N) and the L1 steps step_m / step_n, as
Ascend C's normal-template Matmul walks them; results stay right for
tilings whose steps are above 1."""

from __future__ import annotations

import numpy as np
import pytest

import pyasc

from cube_helpers import offset_kernel, plain_tiling, ref_matmul, workspace


def model_order(mb: int, nb: int, order: int, step_m: int, step_n: int) -> list[tuple[int, int]]:
    """The documented walk, written as loops: ORDER_M takes N in windows of
    step_n blocks (B's blocks kept in L1) and for each window runs every M
    block over that window; ORDER_N the same with M and N swapped."""
    out = []
    if order == 1:
        for w in range(0, mb, step_m):
            for j in range(nb):
                for i in range(w, min(w + step_m, mb)):
                    out.append((i, j))
    else:
        for w in range(0, nb, step_n):
            for i in range(mb):
                for j in range(w, min(w + step_n, nb)):
                    out.append((i, j))
    return out


def _run(m, n, k, order, step_m, step_n, base=None, depth=None):
    rng = np.random.default_rng(m * 7 + n)
    a = rng.integers(-3, 4, (m, k)).astype(np.float16)
    b = rng.integers(-3, 4, (k, n)).astype(np.float16)
    tiling = plain_tiling(m, n, k)
    if base is not None:
        tiling.base_m, tiling.base_n = base
    tiling.iterate_order, tiling.step_m, tiling.step_n = order, step_m, step_n
    if depth is not None:
        tiling.depth_a1, tiling.depth_b1 = depth
    bm, bn = tiling.base_m, tiling.base_n
    mb, nb = -(-m // bm), -(-n // bn)
    places = np.full((mb * nb + 4, 5), -1, np.int32)
    c = np.zeros((m, n), np.float32)
    offset_kernel[1](a, b, c, places, tiling, workspace())
    np.testing.assert_array_equal(c, ref_matmul(a, b))
    got = [(int(r) // bm, int(col) // bn) for _, r, col, _, _ in places[:mb * nb]]
    assert (places[mb * nb:] == -1).all()
    return got, model_order(mb, nb, order, step_m, step_n)


@pytest.mark.parametrize("order,step_m,step_n", [
    (0, 1, 1), (1, 1, 1), (0, 1, 2), (0, 3, 3), (1, 2, 1), (1, 3, 2), (0, 1, 5), (1, 4, 1),
    (0, 2, 9), (1, 9, 2),
])
def test_block_order_follows_the_tiling(order, step_m, step_n):
    # 5 x 4 blocks of 32 x 32 with tails: windows that do and do not divide
    got, want = _run(150, 112, 48, order, step_m, step_n, base=(32, 32))
    assert got == want


def test_host_tiling_order_and_steps():
    """The host tiling's own steps (above 1 for a small K) give its order."""
    m, n, k = 256, 512, 32
    tiling = plain_tiling(m, n, k)
    got, want = _run(m, n, k, tiling.iterate_order, tiling.step_m, tiling.step_n)
    assert got == want


def test_bad_iterate_order_is_an_error():
    with pytest.raises(pyasc.KernelError, match="iterate_order"):
        _run(64, 64, 32, 5, 1, 1)


def test_model_visits_every_block_once():
    for mb, nb, order, sm, sn in [(5, 4, 0, 1, 3), (3, 7, 1, 2, 1), (1, 1, 0, 4, 4)]:
        seen = model_order(mb, nb, order, sm, sn)
        assert sorted(seen) == [(i, j) for i in range(mb) for j in range(nb)]


def test_depth_that_overflows_l1_is_an_error():
    """depth_a1/depth_b1 base blocks stay in L1: more than L1 holds fails,
    as the tiling would on the device."""
    with pytest.raises(pyasc.KernelError, match="depth_a1 A blocks in L1"):
        _run(64, 64, 32, 0, 1, 1, depth=(4096, 1))
    with pytest.raises(pyasc.KernelError, match="depth_b1 B blocks in L1"):
        _run(64, 64, 32, 0, 1, 1, depth=(2, 4096))
