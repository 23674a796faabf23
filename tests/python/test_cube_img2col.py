"""The img2col loads (load_data with LoadData3DParamsV1/V2/V2Pro), their
registers (set_load_data_boundary/padding_value/repeat) and load_data with
LoadData2DParamsV2, against a NumPy model written from the documented
semantics (convolution as a matrix product), plain and checked mode.

The kernels read L0A/L0B back through the cube itself: mmad with an
identity on the other side and fixpipe to GM give the loaded matrix
exactly (fp16 and int8 values are exact in fp32/int32); with weights
instead of the identity the same kernel is a convolution."""

from __future__ import annotations

import numpy as np
import pytest

import pyasc as asc
from kernel_api_helpers import jit, modes

C0 = {np.float16: 16, np.int8: 32}
ACC = {np.float16: np.float32, np.int8: np.int32}


# --- the NumPy model ------------------------------------------------------------


def out_size(h, w, pads, stride, kernel, dilation):
    """(Ho, Wo) of a convolution; pads = (left, right, top, bottom)."""
    (sh, sw), (kh, kw), (dh, dw) = stride, kernel, dilation
    wo = (w + pads[0] + pads[1] - dw * (kw - 1) - 1) // sw + 1
    ho = (h + pads[2] + pads[3] - dh * (kh - 1) - 1) // sh + 1
    return ho, wo


def img2col(fm, pads, stride, kernel, dilation, pad_value=0, nrows=None):
    """The convolution matrix of a 5HD feature map fm[C1, H, W, C0]: row
    m = ho * Wo + wo, column k = ((c1 * Kh + kh) * Kw + kw) * C0 + c0.
    Rows past Ho * Wo (nrows of them in all) continue the walk: windows
    below the map, which read what lies there (the padding value, or the
    map's rows for bottom padding that is not all used)."""
    c1n, h, w, c0n = fm.shape
    (sh, sw), (kh, kw), (dh, dw) = stride, kernel, dilation
    ho, wo = out_size(h, w, pads, stride, kernel, dilation)
    nrows = ho * wo if nrows is None else nrows
    ho_all = -(-nrows // wo)
    padded = np.full((c1n, pads[2] + max(h, ho_all * sh + kh * dh), w + pads[0] + pads[1] + 64,
                      c0n), pad_value, fm.dtype)
    padded[:, pads[2]:pads[2] + h, pads[0]:pads[0] + w] = fm
    out = np.empty((ho_all * wo, c1n, kh, kw, c0n), fm.dtype)
    for oh in range(ho_all):
        for ow in range(wo):
            for i in range(kh):
                for j in range(kw):
                    out[oh * wo + ow, :, i, j] = padded[:, oh * sh + i * dh, ow * sw + j * dw]
    return out.reshape(ho_all * wo, c1n * kh * kw * c0n)[:nrows]


def zn_image(b, c0):
    """B (K x N) as L0B holds it: fractal (k / C0, n / 16), 16 x C0 inside
    with n as the row."""
    k, n = b.shape
    return b.reshape(k // c0, c0, n // 16, 16).transpose(0, 2, 3, 1).ravel()


def zz_image(a, c0):
    """A (M x K) as L0A holds it: fractal (m / 16, k / C0), row-major."""
    m, k = a.shape
    return a.reshape(m // 16, 16, k // c0, c0).transpose(0, 2, 1, 3).ravel()


def nz_image(a, c0):
    """A (M x K) in NZ: column blocks of C0, each M x C0 row-major."""
    m, k = a.shape
    return a.reshape(m, k // c0, c0).transpose(1, 0, 2).ravel()


def _fm(rng, dtype, c1, h, w):
    if dtype == np.int8:
        return rng.integers(-100, 100, (c1, h, w, C0[dtype])).astype(np.int8)
    return (rng.integers(-64, 64, (c1, h, w, C0[dtype])) / 8).astype(np.float16)


# --- the kernels ----------------------------------------------------------------

L1_BYTES, L0_BYTES, L0C_BYTES = 128 * 1024, 64 * 1024, 128 * 1024


@jit
def conv_v2(fm: asc.GlobalAddress, other: asc.GlobalAddress, out: asc.GlobalAddress,
            fm_rows: int, h: int, w: int, c: int, kh: int, kw: int, sh: int, sw: int, dh: int,
            dw: int, pl: int, pr: int, pt: int, pb: int, mext: int, kext: int, m0: int, k0: int,
            n: int, pad: int, to_b: asc.ConstExpr[bool], pro: asc.ConstExpr[int]):
    """img2col (V2; pro 1: V2Pro after a V2 that sets the registers) into
    L0A (L0B when to_b), `other` on the other side, mmad, fixpipe to out:
    out (mext x n) = img2col block @ other, or other (n x kext) @ its
    transpose when to_b."""
    fm_gm = asc.GlobalTensor()
    o_gm = asc.GlobalTensor()
    out_gm = asc.GlobalTensor()
    fm_gm.set_global_buffer(fm)
    o_gm.set_global_buffer(other)
    out_gm.set_global_buffer(out)
    pipe = asc.TPipe()
    q1 = asc.TQue(asc.TPosition.A1, 1)
    qa = asc.TQue(asc.TPosition.A2, 1)
    qb = asc.TQue(asc.TPosition.B2, 1)
    qc = asc.TQue(asc.TPosition.CO1, 1)
    pipe.init_buffer(q1, 1, L1_BYTES)
    pipe.init_buffer(qa, 1, L0_BYTES)
    pipe.init_buffer(qb, 1, L0_BYTES)
    pipe.init_buffer(qc, 1, L0C_BYTES)
    a1 = q1.alloc_tensor(fm.dtype)
    c0 = 32 // fm.dtype.sizeof()
    asc.data_copy(a1, fm_gm, asc.Nd2NzParams(1, fm_rows, c0, 0, c0, fm_rows, 1, 0))
    q1.enque(a1)
    a1 = q1.deque(fm.dtype)
    a2 = qa.alloc_tensor(fm.dtype)
    b2 = qb.alloc_tensor(fm.dtype)
    dst = b2 if to_b else a2
    p = asc.LoadData3DParamsV2([pl, pr, pt, pb], h, w, c, kext, mext, k0, m0, sw, sh, kw, kh, dw,
                               dh, False, pad)
    if pro == 1:
        asc.load_data(dst, a1, asc.LoadData3DParamsV2(
            [pl, pr, pt, pb], h, w, c, c0, 16, 0, 0, 1, 1, 1, 1, 1, 1, False, pad))
        asc.set_load_data_padding_value(pad)
        ext = (m0 << 48) | (k0 << 32) | (mext << 16) | kext
        cfg = sw | (sh << 8) | (kw << 16) | (kh << 24) | (dw << 32) | (dh << 40)
        asc.load_data(dst, a1, asc.LoadData3DParamsV2Pro(c, False, False, False, False, False,
                                                          ext, cfg))
    else:
        asc.load_data(dst, a1, p)
    nfrac = n * kext // (16 * c0)
    if to_b:
        asc.load_data(a2, o_gm, asc.LoadData2DParams(0, nfrac, 1, 0, 0, False))
    else:
        asc.load_data(b2, o_gm, asc.LoadData2DParams(0, nfrac, 1, 0, 0, False))
    qa.enque(a2)
    qb.enque(b2)
    a2 = qa.deque(fm.dtype)
    b2 = qb.deque(fm.dtype)
    c1 = qc.alloc_tensor(out.dtype)
    if to_b:
        asc.mmad(c1, a2, b2, asc.MmadParams(n, mext, kext))
    else:
        asc.mmad(c1, a2, b2, asc.MmadParams(mext, n, kext))
    qc.enque(c1)
    c1 = qc.deque(out.dtype)
    if to_b:
        asc.fixpipe(out_gm, c1, asc.FixpipeParamsV220(mext, n, n, mext))
    else:
        asc.fixpipe(out_gm, c1, asc.FixpipeParamsV220(n, mext, mext, n))


CONV_V2, CONV_V2_CHECKED = modes(conv_v2)


def run_v2(dtype, fm, pads, stride, kernel, dilation, mext, kext, m0=0, k0=0, other=None,
           to_b=False, pad=0, checked=False, pro=0):
    """The kernel's result and the model's for one V2 load."""
    c0 = C0[dtype]
    c1n, h, w, _ = fm.shape
    mat = img2col(fm, pads, stride, kernel, dilation, pad, m0 + mext)
    block = mat[m0:, k0:k0 + kext]
    n = kext if other is None else other.shape[1]
    if other is None:
        other = np.eye(kext, dtype=dtype)
    if to_b:
        image, n = zz_image(other.T.copy(), c0), other.shape[1]
        out = np.zeros((n, mext), ACC[dtype])
        ref = other.T.astype(ACC[dtype]) @ block.T.astype(ACC[dtype])
    else:
        image = zn_image(other, c0)
        out = np.zeros((mext, n), ACC[dtype])
        ref = block.astype(ACC[dtype]) @ other.astype(ACC[dtype])
    k = CONV_V2_CHECKED if checked else CONV_V2
    k[1](fm.ravel(), image, out, c1n * h * w, h, w, c1n * c0, kernel[0], kernel[1], stride[0],
         stride[1], dilation[0], dilation[1], *pads, mext, kext, m0, k0, n, pad, to_b, pro)
    return out, ref


GEOMETRIES = [  # c1, h, w, pads (l, r, t, b), stride, kernel, dilation
    (1, 4, 4, (0, 0, 0, 0), (1, 1), (1, 1), (1, 1)),
    (1, 6, 5, (1, 1, 1, 1), (1, 1), (3, 3), (1, 1)),
    (2, 7, 9, (2, 0, 1, 3), (2, 1), (3, 2), (1, 1)),
    (1, 9, 8, (1, 2, 0, 1), (1, 2), (2, 3), (2, 2)),
    (2, 5, 6, (0, 1, 2, 0), (3, 2), (2, 2), (1, 3)),
]


@pytest.mark.parametrize("dtype", [np.float16, np.int8])
@pytest.mark.parametrize("geo", GEOMETRIES)
def test_v2_matches_the_model(dtype, geo):
    c1n, h, w, pads, stride, kernel, dil = geo
    rng = np.random.default_rng(sum(map(hash, (c1n, h, w))) & 0xFFFF)
    fm = _fm(rng, dtype, c1n, h, w)
    ho, wo = out_size(h, w, pads, stride, kernel, dil)
    mext = (ho * wo + 15) // 16 * 16
    total, chunk = c1n * kernel[0] * kernel[1] * C0[dtype], 4 * C0[dtype]
    got = []
    for k0 in range(0, total, chunk):  # the identity on the other side fits L0B
        out, ref = run_v2(dtype, fm, pads, stride, kernel, dil, mext, min(chunk, total - k0),
                          k0=k0)
        np.testing.assert_array_equal(out, ref)
        got.append(out)
    # and the whole matrix is the model's img2col
    mat = img2col(fm, pads, stride, kernel, dil)
    np.testing.assert_array_equal(np.concatenate(got, axis=1)[:ho * wo], mat.astype(ACC[dtype]))


@pytest.mark.parametrize("dtype", [np.float16, np.int8])
def test_v2_start_positions_and_pad_value(dtype):
    rng = np.random.default_rng(7)
    fm = _fm(rng, dtype, 2, 6, 7)
    c0 = C0[dtype]
    args = ((1, 1, 2, 0), (1, 1), (3, 3), (1, 1))
    out, ref = run_v2(dtype, fm, *args, mext=32, kext=4 * c0, m0=5, k0=3 * c0, pad=3)
    np.testing.assert_array_equal(out, ref)
    assert (ref == 3).any()  # the padding value reached the result


def test_v2_checked_mode_and_convolution():
    """An end-to-end convolution: img2col, mmad with fractal_Z weights,
    fixpipe; against a direct NumPy convolution, in checked mode."""
    rng = np.random.default_rng(11)
    cin, h, w, cout, kh, kw = 16, 7, 6, 32, 3, 3
    x = (rng.integers(-8, 9, (cin, h, w)) / 4).astype(np.float16)
    weight = (rng.integers(-8, 9, (cout, cin, kh, kw)) / 8).astype(np.float16)
    pads, stride, dil = (1, 1, 1, 1), (1, 1), (1, 1)
    fm = x.reshape(1, 16, h, w).transpose(0, 2, 3, 1).copy()  # 5HD, C1 = 1
    # fractal_Z order of K: (c1, kh, kw, c0)
    wk = weight.reshape(cout, 1, 16, kh, kw).transpose(1, 3, 4, 2, 0).reshape(-1, cout).copy()
    ho, wo = out_size(h, w, pads, stride, (kh, kw), dil)
    out, _ = run_v2(np.float16, fm, pads, stride, (kh, kw), dil, mext=(ho * wo + 15) // 16 * 16,
                    kext=kh * kw * 16, other=wk, checked=True)
    xp = np.pad(x.astype(np.float32), ((0, 0), (1, 1), (1, 1)))
    ref = np.zeros((cout, ho, wo), np.float32)
    for i in range(kh):
        for j in range(kw):
            ref += np.einsum("oc,chw->ohw", weight[:, :, i, j].astype(np.float32),
                             xp[:, i:i + ho, j:j + wo])
    np.testing.assert_array_equal(out[:ho * wo].T.reshape(cout, ho, wo), ref)


@pytest.mark.parametrize("checked", [False, True])
def test_v2_into_l0b(checked):
    rng = np.random.default_rng(12)
    fm = _fm(rng, np.float16, 1, 6, 6)
    other = (rng.integers(-4, 5, (48, 32)) / 2).astype(np.float16)  # K x n, used transposed
    out, ref = run_v2(np.float16, fm, (1, 1, 1, 1), (1, 1), (3, 1), (1, 1), mext=32, kext=48,
                      other=other, to_b=True, checked=checked)
    np.testing.assert_array_equal(out, ref)


def test_v2pro_reads_the_registers():
    rng = np.random.default_rng(13)
    fm = _fm(rng, np.float16, 2, 5, 6)
    out, ref = run_v2(np.float16, fm, (1, 0, 1, 1), (1, 2), (2, 2), (2, 1), mext=16, kext=64,
                      m0=2, k0=16, pad=5, pro=1)
    np.testing.assert_array_equal(out, ref)
