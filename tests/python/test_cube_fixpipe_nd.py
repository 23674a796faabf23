"""fixpipe with FixpipeParamsV220's nd_num > 1, as CANN documents it for
A2: nd_num NZ matrices of L0C, src_nd_stride fractals (16 x 16 x 4 bytes)
apart, each written as an ND matrix, dst_nd_stride elements after the one
before (a batched matmul's output in one instruction). Against NumPy, in
the default and checked modes, with gaps on both sides that must stay
untouched."""

from __future__ import annotations

import numpy as np
import pytest

import pyasc as asc
from cube_helpers import gm_abc, img2col_queues
from kernel_api_helpers import jit, modes
from test_cube_img2col import zn_image, zz_image

L0_BYTES, L0C_BYTES = 64 * 1024, 128 * 1024


@jit
def batched(a: asc.GlobalAddress, b: asc.GlobalAddress, out: asc.GlobalAddress, m: int, n: int,
            k: int, batches: asc.ConstExpr[int], place: int, nd: int, src_nd: int, dst_nd: int):
    """The batches products A_i @ B_i (m x n) to L0C, `place` fractals apart
    (a and b are the L0A and L0B images of the A_i and B_i one after
    another), then one fixpipe of nd ND matrices to out (nd_num nd,
    src_nd_stride src_nd, dst_nd_stride dst_nd)."""
    a_gm, b_gm, out_gm = gm_abc(a, b, out)
    pipe = asc.TPipe()
    _q1, qa, qb, qc = img2col_queues(pipe, 4096, L0_BYTES, L0_BYTES, L0C_BYTES)
    m1, n1, k1 = (m + 15) // 16, (n + 15) // 16, (k + 15) // 16
    a2 = qa.alloc_tensor(a.dtype)
    b2 = qb.alloc_tensor(b.dtype)
    asc.load_data(a2, a_gm, asc.LoadData2DParams(0, batches * m1 * k1, 1, 0, 0, False))
    asc.load_data(b2, b_gm, asc.LoadData2DParams(0, batches * k1 * n1, 1, 0, 0, False))
    qa.enque(a2)
    qb.enque(b2)
    a2 = qa.deque(a.dtype)
    b2 = qb.deque(b.dtype)
    c1 = qc.alloc_tensor(out.dtype)
    for i in range(batches):
        asc.mmad(c1[i * place * 256:], a2[i * m1 * k1 * 256:], b2[i * k1 * n1 * 256:],
                 asc.MmadParams(m, n, k))
    qc.enque(c1)
    c1 = qc.deque(out.dtype)
    asc.fixpipe(out_gm, c1, asc.FixpipeParamsV220(n, m, m1 * 16, n, nd_num=nd,
                                                  src_nd_stride=src_nd, dst_nd_stride=dst_nd))


BATCHED = modes(batched)


SENTINEL = -1000.5  # no product of these small values


def _run(batches, m, n, k, src_nd, dst_nd, checked=False, out_size=None, nd=None):
    """The kernel's output (initialised to SENTINEL) and the NumPy
    reference, the products src_nd fractals apart in L0C."""
    rng = np.random.default_rng(batches * 100 + m)
    a = (rng.integers(-8, 9, (batches, m, k)) / 4).astype(np.float16)
    b = (rng.integers(-8, 9, (batches, k, n)) / 8).astype(np.float16)
    mp, np_, kp = (-(-m // 16) * 16, -(-n // 16) * 16, -(-k // 16) * 16)
    a_img, b_img = [], []
    for i in range(batches):
        ap = np.zeros((mp, kp), np.float16)
        ap[:m, :k] = a[i]
        bp = np.zeros((kp, np_), np.float16)
        bp[:k, :n] = b[i]
        a_img.append(zz_image(ap, 16))
        b_img.append(zn_image(bp, 16))
    size = (batches - 1) * dst_nd + m * n if out_size is None else out_size
    out = np.full(size, SENTINEL, np.float32)
    ref = out.copy()
    for i in range(batches if out_size is None else 0):
        prod = a[i].astype(np.float32) @ b[i].astype(np.float32)
        for r in range(m):
            ref[i * dst_nd + r * n:i * dst_nd + (r + 1) * n] = prod[r]
    place = src_nd if src_nd <= 64 else 4
    BATCHED[checked][1](np.concatenate(a_img), np.concatenate(b_img), out, m, n, k, batches,
                        place, batches if nd is None else nd, src_nd, dst_nd)
    return out, ref


@pytest.mark.parametrize("checked", [False, True])
def test_nd_num_writes_each_matrix(checked):
    # 20 x 24 products: 2 x 2 fractals in L0C, one more left between them;
    # 8 untouched elements between the matrices in GM
    out, ref = _run(3, 20, 24, 16, src_nd=5, dst_nd=20 * 24 + 8, checked=checked)
    np.testing.assert_array_equal(out, ref)
    assert (out == SENTINEL).sum() == 2 * 8


def test_nd_num_zero_writes_nothing():
    out, _ref = _run(1, 16, 16, 16, src_nd=0, dst_nd=0, out_size=256, nd=0)
    assert (out == SENTINEL).all()


@pytest.mark.parametrize("src_nd,dst_nd,pattern", [
    (513, 256, r"src_nd_stride 513: \[0, 512\]"),
    (1, 65536, r"dst_nd_stride 65536: \[0, 65535\]"),
])
def test_nd_strides_out_of_range(src_nd, dst_nd, pattern):
    with pytest.raises(asc.KernelError, match=r"test_cube_fixpipe_nd\.py:\d+: FixpipeParamsV220 "
                                              r"out of range .*" + pattern):
        _run(2, 16, 16, 16, src_nd=src_nd, dst_nd=dst_nd, out_size=1 << 18)


@pytest.mark.parametrize("checked", [False, True])
def test_a_matrix_past_the_destination_is_an_error(checked):
    with pytest.raises(asc.KernelError, match=r"fixpipe's ND matrix 2 starts past its "
                                              r"destination"):
        _run(3, 16, 16, 16, src_nd=1, dst_nd=512, checked=checked, out_size=2 * 512)


def test_ascendc_form_sets_the_nd_fields():
    from test_ascendc import assert_valid_cpp, body

    z = np.zeros(4096, np.float16)
    src = batched.ascendc(z, z, np.zeros(4096, np.float32), 16, 16, 16, 2, 1, 2, 1, 256)
    for text in ("p.ndNum = ", "p.srcNdStride = ", "p.dstNdStride = "):
        assert text in body(src), text
    assert_valid_cpp(src)
