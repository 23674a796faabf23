"""asc.adv.Matmul.iterate_batch over the BSNGD, SBNGD and BNGS1S2 batch
layouts (MatmulType's layout, the host tiling's set_a/b/c_layout axes),
against NumPy's einsum on the same arrays, and the errors of layouts that
do not fit."""

from __future__ import annotations

import numpy as np
import pytest

import asc
import pyasc

from cube_helpers import gm_abc, gm_tiler, take_tiling, workspace

NONE, NORMAL, BSNGD, SBNGD, BNGS1S2 = (int(asc.LayoutMode.NONE), int(asc.LayoutMode.NORMAL),
                                       int(asc.LayoutMode.BSNGD), int(asc.LayoutMode.SBNGD),
                                       int(asc.LayoutMode.BNGS1S2))


@asc.jit(matmul_cube_only=True)
def layout_kernel(a: asc.GlobalAddress, b: asc.GlobalAddress, c: asc.GlobalAddress,
                  tiling: asc.adv.TCubeTiling, workspace: asc.GlobalAddress, loops: int,
                  batch_a: int, batch_b: int, off_a: int, off_b: int, off_c: int,
                  la: asc.ConstExpr[int], lb: asc.ConstExpr[int], lc: asc.ConstExpr[int],
                  trans_b: asc.ConstExpr[bool], nz_a: asc.ConstExpr[bool]):
    a_gm, b_gm, c_gm = gm_abc(a, b, c)
    pipe = asc.TPipe()
    fa = asc.CubeFormat.NZ if nz_a else asc.CubeFormat.ND
    mm = asc.adv.Matmul(
        a=asc.adv.MatmulType(asc.TPosition.GM, fa, a_gm.dtype, False, la),
        b=asc.adv.MatmulType(asc.TPosition.GM, asc.CubeFormat.ND, b_gm.dtype, trans_b, lb),
        c=asc.adv.MatmulType(asc.TPosition.GM, asc.CubeFormat.ND, c_gm.dtype, False, lc),
    )
    asc.adv.register_matmul(pipe, workspace, mm, tiling)
    for i in range(loops):
        mm.set_tensor_a(a_gm[i * off_a])
        mm.set_tensor_b(b_gm[i * off_b])
        mm.iterate_batch(c_gm[i * off_c], batch_a, batch_b, False)
    mm.end()


def _tiling(m: int, n: int, k: int, layouts: tuple | None, trans_b: bool):
    tiler = gm_tiler(m, n, k, trans_b=trans_b)
    if layouts is not None:
        la, lb, lc = layouts
        assert tiler.set_a_layout(*la) == 0
        assert tiler.set_b_layout(*lb) == 0
        assert tiler.set_c_layout(*lc) == 0
    return take_tiling(tiler)


def _ints(shape, seed):
    return np.random.default_rng(seed).integers(-4, 5, shape).astype(np.float16)


def _run(a, b, c, tiling, loops, ba, bb, offs, la, lb, lc, trans_b=False, nz_a=False):
    layout_kernel[1](a, b, c, tiling, workspace(), loops, ba, bb, *offs, la, lb, lc,
                     trans_b, nz_a)
    return c


@pytest.mark.parametrize("g_b", [2, 1])  # 1: B's G axis shared by A's two (grouped queries)
def test_bsngd_attention_scores_into_bngs1s2(g_b):
    """Q [B, S, N, G, D] times K^T (K [B, S2, N, G_b, D]) into
    C [B, N, G, S, S2]: one iterate_batch per B, batch_a = N*G."""
    bsz, s, nh, g, d, s2 = 2, 24, 2, 2, 32, 40
    q = _ints((bsz, s, nh, g, d), 1)
    kt = _ints((bsz, s2, nh, g_b, d), 2)
    c = np.zeros((bsz, nh, g, s, s2), np.float32)
    tiling = _tiling(s, s2, d, ((bsz, s, nh, g, d), (bsz, s2, nh, g_b, d), (bsz, s, nh, g, s2)),
                     True)
    offs = (s * nh * g * d, s2 * nh * g_b * d, nh * g * s * s2)
    _run(q, kt, c, tiling, bsz, nh * g, nh * g_b, offs, BSNGD, BSNGD, BNGS1S2, trans_b=True)
    kf = np.repeat(kt.astype(np.float32), g // g_b, axis=3)
    ref = np.einsum("bsngd,btngd->bngst", q.astype(np.float32), kf)
    np.testing.assert_array_equal(c, ref)


def test_sbngd_all_batches_in_one_call():
    """A [S, B, N, G, K] and B [K, B, N, G, N'] (not transposed) into
    C [S, B, N, G, N'] (SBNGD): one call covers all B*N*G matrices."""
    s, bsz, nh, g, k, n = 20, 2, 3, 1, 48, 24
    a = _ints((s, bsz, nh, g, k), 3)
    b = _ints((k, bsz, nh, g, n), 4)
    c = np.zeros((s, bsz, nh, g, n), np.float32)
    tiling = _tiling(s, n, k, ((bsz, s, nh, g, k), (bsz, k, nh, g, n), (bsz, s, nh, g, n)), False)
    nb = bsz * nh * g
    _run(a, b, c, tiling, 1, nb, nb, (0, 0, 0), SBNGD, SBNGD, SBNGD)
    ref = np.einsum("sbngk,kbngj->sbngj", a.astype(np.float32), b.astype(np.float32))
    np.testing.assert_array_equal(c, ref)


def test_bngs1s2_a_with_normal_b_into_bsngd_c():
    """A [B, N, G, M, K] whole matrices, B NORMAL (k x n after one
    another), C [B, M, N, G, N'] (BSNGD): one call per B."""
    bsz, nh, g, m, k, n = 2, 2, 1, 17, 40, 24
    a = _ints((bsz, nh, g, m, k), 5)
    b = _ints((bsz, nh * g, k, n), 6)
    c = np.zeros((bsz, m, nh, g, n), np.float32)
    tiling = _tiling(m, n, k, ((bsz, m, nh, g, k), (1, 1, 1, 1, 1), (bsz, m, nh, g, n)), False)
    offs = (nh * g * m * k, nh * g * k * n, m * nh * g * n)
    _run(a, b, c, tiling, bsz, nh * g, nh * g, offs, BNGS1S2, NORMAL, BSNGD)
    ref = np.einsum("bngmk,bngkj->bmngj", a.astype(np.float32),
                    b.reshape(bsz, nh, g, k, n).astype(np.float32))
    np.testing.assert_array_equal(c, ref)


def test_layout_in_ascendc():
    bsz, s, nh, g, d = 1, 16, 1, 2, 32
    q = _ints((bsz, s, nh, g, d), 7)
    c = np.zeros((bsz, nh, g, s, s), np.float32)
    tiling = _tiling(s, s, d, ((bsz, s, nh, g, d),) * 2 + ((bsz, s, nh, g, s),), True)
    args = (q, q.copy(), c, tiling, workspace(), 1, 2, 2, 0, 0, 0, BSNGD, BSNGD,
            BNGS1S2, True, False)
    src = layout_kernel.ascendc(*args)
    assert "LayoutMode::BSNGD" in src and "LayoutMode::BNGS1S2" in src


def _bsngd_case(ba, layouts=True, s_a=24, nz_a=False):
    bsz, s, nh, g, d = 1, 24, 2, 2, 32
    q = _ints((bsz, s, nh, g, d), 8)
    c = np.zeros((bsz, nh, g, s, s), np.float32)
    lay = ((bsz, s_a, nh, g, d), (bsz, s, nh, g, d), (bsz, s, nh, g, s)) if layouts else None
    tiling = _tiling(s, s, d, lay, True)
    return _run(q, q.copy(), c, tiling, 1, ba, ba, (0, 0, 0), BSNGD, BSNGD, BNGS1S2,
                trans_b=True, nz_a=nz_a)


def test_layout_axes_must_be_set_in_the_tiling():
    with pytest.raises(pyasc.KernelError, match="set_a_layout"):
        _bsngd_case(4, layouts=False)


def test_bsngd_batch_count_must_divide_n_times_g():
    with pytest.raises(pyasc.KernelError, match="do not fit its BSNGD layout"):
        _bsngd_case(3)


def test_matrix_larger_than_the_layout_is_an_error():
    with pytest.raises(pyasc.KernelError, match="larger than its BSNGD layout"):
        _bsngd_case(4, s_a=16)


def test_nz_operand_in_a_batch_layout_is_an_error():
    with pytest.raises(pyasc.KernelError, match="must be ND"):
        _bsngd_case(4, nz_a=True)


def test_bias_layout_must_be_none_or_normal():
    @asc.jit(matmul_cube_only=True)
    def bias_layout(a: asc.GlobalAddress):
        a_gm = asc.GlobalTensor()
        a_gm.set_global_buffer(a)
        asc.adv.Matmul(
            a=asc.adv.MatmulType(asc.TPosition.GM, asc.CubeFormat.ND, a_gm.dtype),
            b=asc.adv.MatmulType(asc.TPosition.GM, asc.CubeFormat.ND, a_gm.dtype),
            c=asc.adv.MatmulType(asc.TPosition.GM, asc.CubeFormat.ND, asc.float32),
            bias=asc.adv.MatmulType(asc.TPosition.GM, asc.CubeFormat.ND, asc.float32, False,
                                    asc.LayoutMode.BSNGD),
        )

    with pytest.raises(pyasc.CompileError, match="bias: NONE or NORMAL"):
        bias_layout[1](np.zeros(16, np.float16))


@asc.jit(matmul_cube_only=True)
def n_batch_layout_kernel(a: asc.GlobalAddress, b: asc.GlobalAddress, c: asc.GlobalAddress,
                          tiling: asc.adv.TCubeTiling, workspace: asc.GlobalAddress, loops: int,
                          batch: int, read_ub: asc.ConstExpr[bool]):
    a_gm, b_gm, c_gm = gm_abc(a, b, c)
    pipe = asc.TPipe()
    que = asc.TQue(asc.TPosition.VECOUT, 1)
    pipe.init_buffer(que=que, num=1, len=4096)
    mm = asc.adv.Matmul(
        a=asc.adv.MatmulType(asc.TPosition.GM, asc.CubeFormat.ND, a_gm.dtype, False, BSNGD),
        b=asc.adv.MatmulType(asc.TPosition.GM, asc.CubeFormat.ND, b_gm.dtype, True, BSNGD),
        c=asc.adv.MatmulType(asc.TPosition.GM, asc.CubeFormat.ND, c_gm.dtype, False, BSNGD),
    )
    asc.adv.register_matmul(pipe, workspace, mm, tiling)
    mm.set_workspace(c_gm)
    mm.set_tensor_a(a_gm)
    mm.set_tensor_b(b_gm, True)
    mm.iterate_n_batch(loops, batch, batch, False)
    if read_ub:
        out = que.alloc_tensor(c_gm.dtype)
        mm.get_batch_tensor_c(out, batch, batch)
        que.free_tensor(out)
    mm.end()


def test_iterate_n_batch_leaves_a_bsngd_c_in_its_layout():
    """CANN's batch_matmul_iterate_n_batch: A, B^T and C in BSNGD, the workspace C itself; each
    round's matrices land where C's layout puts them, not one after another."""
    s, g, d, s2 = 32, 4, 64, 48
    q = _ints((1, s, 1, g, d), 3)
    kt = _ints((1, s2, 1, g, d), 4)
    c = np.zeros((1, s, 1, g, s2), np.float32)
    tiling = _tiling(s, s2, d, ((1, s, 1, g, d), (1, s2, 1, g, d), (1, s, 1, g, s2)), True)
    n_batch_layout_kernel[1](q, kt, c, tiling, workspace(), 2, 2, False)
    ref = np.einsum("bsngd,btngd->bsngt", q.astype(np.float32), kt.astype(np.float32))
    np.testing.assert_array_equal(c, ref)
    with pytest.raises(pyasc.KernelError, match="left C in its layout, in place"):
        n_batch_layout_kernel[1](q, kt, c, tiling, workspace(), 2, 2, True)
