"""NZ inputs in asc.adv.Matmul.iterate_batch's BNGS1S2 layout (PyAsc: the
BSNGD/SBNGD layouts take ND only, BNGS1S2 ND or NZ inputs): each S x D
matrix stored as NZ (S padded to 16 rows, D to C0 columns), one after
another, against NumPy; NZ where it is not allowed is a KernelError."""

from __future__ import annotations

import numpy as np
import pytest

import asc
import pyasc
from asc.lib import host
from cube_helpers import gm_abc

BSNGD, BNGS1S2 = int(asc.LayoutMode.BSNGD), int(asc.LayoutMode.BNGS1S2)


@asc.jit(matmul_cube_only=True)
def nz_layout_kernel(a: asc.GlobalAddress, b: asc.GlobalAddress, c: asc.GlobalAddress,
                     tiling: asc.adv.TCubeTiling, workspace: asc.GlobalAddress, batch: int,
                     la: asc.ConstExpr[int], lb: asc.ConstExpr[int], lc: asc.ConstExpr[int],
                     trans_b: asc.ConstExpr[bool], nz_a: asc.ConstExpr[bool],
                     nz_b: asc.ConstExpr[bool], nz_c: asc.ConstExpr[bool]):
    a_gm, b_gm, c_gm = gm_abc(a, b, c)
    pipe = asc.TPipe()
    fa = asc.CubeFormat.NZ if nz_a else asc.CubeFormat.ND
    fb = asc.CubeFormat.NZ if nz_b else asc.CubeFormat.ND
    fc = asc.CubeFormat.NZ if nz_c else asc.CubeFormat.ND
    mm = asc.adv.Matmul(
        a=asc.adv.MatmulType(asc.TPosition.GM, fa, a_gm.dtype, False, la),
        b=asc.adv.MatmulType(asc.TPosition.GM, fb, b_gm.dtype, trans_b, lb),
        c=asc.adv.MatmulType(asc.TPosition.GM, fc, c_gm.dtype, False, lc),
    )
    asc.adv.register_matmul(pipe, workspace, mm, tiling)
    mm.set_tensor_a(a_gm)
    mm.set_tensor_b(b_gm)
    mm.iterate_batch(c_gm, batch, batch, False)
    mm.end()


def _tiling(m, n, k, layouts, trans_b):
    tiler = host.MultiCoreMatmulTiling(host.get_ascendc_platform())
    tiler.set_a_type(host.TPosition.GM, host.CubeFormat.ND, host.DataType.DT_FLOAT16, False)
    tiler.set_b_type(host.TPosition.GM, host.CubeFormat.ND, host.DataType.DT_FLOAT16, trans_b)
    tiler.set_c_type(host.TPosition.GM, host.CubeFormat.ND, host.DataType.DT_FLOAT)
    tiler.set_dim(1)
    tiler.set_org_shape(m, n, k)
    tiler.set_shape(m, n, k)
    tiler.enable_bias(False)
    tiler.set_buffer_space(-1, -1, -1)
    for setter, axes in zip((tiler.set_a_layout, tiler.set_b_layout, tiler.set_c_layout),
                            layouts):
        assert setter(*axes) == 0
    tiling = asc.adv.TCubeTiling()
    assert tiler.get_tiling(tiling) != -1
    return tiling


def nz(mats, c0=16):
    """Each matrix of mats[..., S, D] in NZ: S padded to 16 rows and D to
    c0 columns, column blocks of c0 one after another, matrices likewise."""
    *lead, s, d = mats.shape
    s16, dc = -(-s // 16) * 16, -(-d // c0) * c0
    pad = np.zeros((*lead, s16, dc), mats.dtype)
    pad[..., :s, :d] = mats
    blocks = pad.reshape(*lead, s16, dc // c0, c0)
    return np.moveaxis(blocks, -2, -3).copy()


def _ints(shape, seed):
    return np.random.default_rng(seed).integers(-4, 5, shape).astype(np.float16)


@pytest.mark.parametrize("nz_a,nz_b,trans_b", [
    (True, False, False), (False, True, False), (True, True, False), (True, True, True),
])
def test_bngs1s2_nz_inputs(nz_a, nz_b, trans_b):
    """A [B, N, G, M, K] and B [B, N, G, K, N'] (or [.., N', K]) whole
    matrices, either in NZ, into C [B, N, G, M, N'] (ND); M, K and N' are
    not multiples of 16, so NZ's padding is what the addressing skips."""
    bsz, nh, g, m, k, n = 2, 1, 2, 17, 40, 24
    a = _ints((bsz, nh, g, m, k), 1)
    b = _ints((bsz, nh, g, n, k) if trans_b else (bsz, nh, g, k, n), 2)
    c = np.zeros((bsz, nh, g, m, n), np.float32)
    bl = (bsz, n, nh, g, k) if trans_b else (bsz, k, nh, g, n)
    tiling = _tiling(m, n, k, ((bsz, m, nh, g, k), bl, (bsz, m, nh, g, n)), trans_b)
    nz_layout_kernel[1](nz(a) if nz_a else a, nz(b) if nz_b else b, c, tiling,
                        np.zeros(1024, np.uint8), bsz * nh * g, BNGS1S2, BNGS1S2, BNGS1S2,
                        trans_b, nz_a, nz_b, False)
    bm = np.swapaxes(b, -1, -2) if trans_b else b
    np.testing.assert_array_equal(c, a.astype(np.float32) @ bm.astype(np.float32))


def test_nz_matrices_fill_their_layout_slot():
    """A layout S larger than M: each NZ matrix takes S (padded to 16)
    rows, so matrix j starts at j * 48 * K, not j * 32 * K."""
    bsz, m, k, n, s = 3, 20, 32, 16, 40
    a = _ints((bsz, m, k), 3)
    slots = np.zeros((bsz, s, k), np.float16)
    slots[:, :m] = a
    b = _ints((bsz, k, n), 4)
    c = np.zeros((bsz, m, n), np.float32)
    tiling = _tiling(m, n, k, ((bsz, s, 1, 1, k), (bsz, k, 1, 1, n), (bsz, m, 1, 1, n)), False)
    nz_layout_kernel[1](nz(slots), b, c, tiling, np.zeros(1024, np.uint8), bsz, BNGS1S2,
                        BNGS1S2, BNGS1S2, False, True, False, False)
    np.testing.assert_array_equal(c, a.astype(np.float32) @ b.astype(np.float32))


@pytest.mark.parametrize("la,nz_a,nz_c,pattern", [
    (BSNGD, True, False, r"A in the BSNGD layout must be ND \(NZ: A and B in BNGS1S2\)"),
    (BNGS1S2, False, True, r"C in the BNGS1S2 layout must be ND"),
])
def test_nz_outside_bngs1s2_inputs_is_an_error(la, nz_a, nz_c, pattern):
    bsz, m, k, n = 2, 16, 32, 16
    tiling = _tiling(m, n, k, ((bsz, m, 1, 1, k), (bsz, k, 1, 1, n), (bsz, m, 1, 1, n)), False)
    with pytest.raises(pyasc.KernelError, match=pattern):
        nz_layout_kernel[1](np.zeros(bsz * m * k, np.float16), np.zeros(bsz * k * n, np.float16),
                            np.zeros(bsz * m * n, np.float32), tiling, np.zeros(1024, np.uint8),
                            bsz, la, BNGS1S2, BNGS1S2, False, nz_a, False, nz_c)


def test_nz_a_too_small_for_its_layout_is_an_error():
    """The NZ matrices' padded size, not the ND size, bounds the reads."""
    bsz, m, k, n = 2, 17, 32, 16
    tiling = _tiling(m, n, k, ((bsz, m, 1, 1, k), (bsz, k, 1, 1, n), (bsz, m, 1, 1, n)), False)
    with pytest.raises(pyasc.KernelError, match="outside its global tensor"):
        nz_layout_kernel[1](np.zeros(bsz * m * k, np.float16), np.zeros(bsz * k * n, np.float16),
                            np.zeros(bsz * m * n, np.float32), tiling, np.zeros(1024, np.uint8),
                            bsz, BNGS1S2, BNGS1S2, BNGS1S2, False, True, False, False)
