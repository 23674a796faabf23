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
from cube_helpers import gm_abc, img2col_queues, l1_and_l0a, mmad_to_gm
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
    out (mext x n) = img2col block @ other, or other (n x mext) @ the
    block when to_b (L0B takes the block as B: K along its rows)."""
    fm_gm, o_gm, out_gm = gm_abc(fm, other, out)
    pipe = asc.TPipe()
    q1, qa, qb, qc = img2col_queues(pipe, L1_BYTES, L0_BYTES, L0_BYTES, L0C_BYTES)
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
    if to_b:
        asc.load_data(a2, o_gm, asc.LoadData2DParams(0, n * mext // (16 * c0), 1, 0, 0, False))
        mmad_to_gm(out_gm, qa, qb, qc, a2, b2, n, kext, mext)
    else:
        asc.load_data(b2, o_gm, asc.LoadData2DParams(0, n * kext // (16 * c0), 1, 0, 0, False))
        mmad_to_gm(out_gm, qa, qb, qc, a2, b2, mext, n, kext)


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
    if to_b:  # other (mext x n) is A^T: out (n x kext) = A @ block
        image, n = zz_image(other.T.copy(), c0), other.shape[1]
        out = np.zeros((n, kext), ACC[dtype])
        ref = other.T.astype(ACC[dtype]) @ block.astype(ACC[dtype])
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
    other = (rng.integers(-4, 5, (32, 32)) / 2).astype(np.float16)  # A^T: mext x n
    out, ref = run_v2(np.float16, fm, (1, 1, 1, 1), (1, 1), (3, 1), (1, 1), mext=32, kext=48,
                      other=other, to_b=True, checked=checked)
    np.testing.assert_array_equal(out, ref)


def test_v2pro_reads_the_registers():
    rng = np.random.default_rng(13)
    fm = _fm(rng, np.float16, 2, 5, 6)
    out, ref = run_v2(np.float16, fm, (1, 0, 1, 1), (1, 2), (2, 2), (2, 1), mext=16, kext=64,
                      m0=2, k0=16, pad=5, pro=1)
    np.testing.assert_array_equal(out, ref)


# --- V1, repeat, boundary, LoadData2DParamsV2 --------------------------------------


@jit
def regs_kernel(fm: asc.GlobalAddress, other: asc.GlobalAddress, out: asc.GlobalAddress,
                fm_rows: int, h: int, w: int, c1: int, fw: int, fh: int, lw: int, lh: int,
                kw: int, kh: int, sw: int, sh: int, pl: int, pt: int, jump: int, mode: int,
                times: int, boundary: int, rep_times: int, rep_stride: int, rep_mode: int,
                mext: int, kext: int, n: int, fm_at: int, lm: int, form: asc.ConstExpr[int]):
    """form 0: a V1 load (16 x C0 fractals) into L0A; form 1: a V2 load with
    the repeat register and the boundary register; form 2: LoadData2DParamsV2
    GM -> A1 and A1 -> A2 (the fm as an NZ matrix of fm_rows x C0 * c1).
    Then out = L0A (mext x kext) @ other, read through mmad and fixpipe."""
    fm_gm, o_gm, out_gm = gm_abc(fm, other, out)
    pipe = asc.TPipe()
    q1, qa, qb, qc = img2col_queues(pipe, L1_BYTES, L0_BYTES, L0_BYTES, L0C_BYTES)
    l1 = q1.alloc_tensor(fm.dtype)
    a1 = l1[fm_at:]
    c0 = 32 // fm.dtype.sizeof()
    a2 = qa.alloc_tensor(fm.dtype)
    if form == 2:
        asc.load_data(a1, fm_gm, asc.LoadData2DParamsV2(0, 0, fm_rows // 16, c1, fm_rows // 16,
                                                        0, False, 0))
    else:
        if fm_at > 0:  # a copy at L1's start too (reads past the boundary wrap there)
            asc.data_copy(l1, fm_gm, asc.Nd2NzParams(1, fm_rows, c0, 0, c0, fm_rows, 1, 0))
        asc.data_copy(a1, fm_gm, asc.Nd2NzParams(1, fm_rows, c0, 0, c0, fm_rows, 1, 0))
    q1.enque(l1)
    l1 = q1.deque(fm.dtype)
    a1 = l1[fm_at:]
    if form == 0:
        asc.load_data(a2, a1, asc.LoadData3DParamsV1([pl, 0, pt, 0], h, w, c1, fw, fh, lw, lh,
                                                     sw, sh, kw, kh, 1, 1, jump, mode, times))
    if form == 1:
        asc.set_load_data_boundary(boundary)
        asc.set_load_data_repeat(asc.LoadDataRepeatParam(rep_times, rep_stride, rep_mode))
        asc.load_data(a2, a1, asc.LoadData3DParamsV2([pl, 0, pt, 0], h, w, c0 * c1, kext, lm,
                                                     0, 0, sw, sh, kw, kh, 1, 1))
    if form == 2:
        asc.load_data(a2, a1, asc.LoadData2DParamsV2(lh, lw, mext // 16, kext // c0,
                                                     fm_rows // 16, 0, False, 0))
    b2 = qb.alloc_tensor(fm.dtype)
    asc.load_data(b2, o_gm, asc.LoadData2DParams(0, n * kext // (16 * c0), 1, 0, 0, False))
    mmad_to_gm(out_gm, qa, qb, qc, a2, b2, mext, n, kext)


REGS, REGS_CHECKED = modes(regs_kernel)


def _regs(dtype, fm, args, mext, kext, form, checked=False, fm_at=0, lm=None):
    """L0A (mext x kext) after the load, as the kernel reads it back."""
    c0 = C0[dtype]
    c1n, h, w, _ = fm.shape
    defaults = dict(c1=0, fw=0, fh=0, lw=0, lh=0, kw=1, kh=1, sw=1, sh=1, pl=0, pt=0, jump=1,
                    mode=0, times=1, boundary=0, rep_times=1, rep_stride=0, rep_mode=0)
    defaults.update(args)
    out = np.zeros((mext, kext), ACC[dtype])
    k = REGS_CHECKED if checked else REGS
    fm_rows = h * w if form == 2 else c1n * h * w  # form 2: C1 column blocks of H * W rows
    k[1](fm.ravel(), zn_image(np.eye(kext, dtype=dtype), c0), out, fm_rows, h, w,
         *defaults.values(), mext, kext, kext, fm_at, mext if lm is None else lm, form)
    return out


def test_v1_walks_the_filter_and_the_windows():
    dtype, c0 = np.float16, 16
    rng = np.random.default_rng(21)
    fm = _fm(rng, dtype, 2, 6, 7)
    pads, stride, kernel = (1, 0, 1, 0), (1, 2), (2, 3)
    mat = img2col(fm, pads, stride, kernel, (1, 1), 0, 64)
    ho, wo = out_size(6, 7, pads, stride, kernel, (1, 1))
    # mode 0: 4 fractals along K from filter point (0, 1) of c1 1, windows from the start
    out = _regs(dtype, fm, dict(c1=1, fw=1, fh=0, lw=-1, lh=-1, kw=3, kh=2, sw=2, sh=1, pl=1,
                                pt=1, times=4, mode=0), 16, 64, 0)
    k0 = ((1 * 2 + 0) * 3 + 1) * c0
    np.testing.assert_array_equal(out, mat[:16, k0:k0 + 64].astype(np.float32))
    # mode 1 with jump_stride 4 (one fractal row of a 16 x 64 L0A): 2 x 16 windows
    # from the window of output position 5
    lh, lw = 5 // wo * 1 - 1, 5 % wo * 2 - 1
    out = _regs(dtype, fm, dict(c1=0, fw=2, fh=1, lw=lw, lh=lh, kw=3, kh=2, sw=2, sh=1, pl=1,
                                pt=1, times=2, mode=1, jump=4), 32, 64, 0)
    k0 = (1 * 3 + 2) * c0
    np.testing.assert_array_equal(out[:, :16], mat[5:37, k0:k0 + 16].astype(np.float32))


@pytest.mark.parametrize("checked", [False, True])
def test_repeat_register(checked):
    dtype, c0 = np.float16, 16
    rng = np.random.default_rng(22)
    fm = _fm(rng, dtype, 1, 6, 6)
    mat = img2col(fm, (1, 0, 1, 0), (1, 1), (2, 2), (1, 1), 0, 128)
    # mode 0: 3 blocks of 16 x 64 rows 0, 32, 64 (stride 2 x 16)
    out = _regs(dtype, fm, dict(c1=1, kw=2, kh=2, pl=1, pt=1, rep_times=3, rep_stride=2), 48, 64,
                1, checked, lm=16)
    ref = np.concatenate([mat[0:16], mat[32:48], mat[64:80]])  # block r lands after r - 1
    # each 16 x 64 block is its own ZZ image, which for one fractal row is the rows in order
    np.testing.assert_array_equal(out, ref.astype(np.float32))


def test_boundary_wraps_reads_to_l1_start():
    """A copy of the map at L1's start and one at byte 1024, the boundary at
    byte 2048: the second copy's reads at or past byte 2048 (its second
    half) wrap to L1's start, where the map's first half lies."""
    dtype = np.float16
    rng = np.random.default_rng(23)
    fm = _fm(rng, dtype, 1, 8, 8)  # 2 KiB
    mat = img2col(fm, (0, 0, 0, 0), (1, 1), (1, 1), (1, 1))
    # the map at element 0: a plain load; boundary 2048 bytes (V2: bytes) and the map moved
    # to byte 1024: its second half wraps to bytes [0, 1024), the map's first half
    plain = _regs(dtype, fm, dict(c1=1), 64, 16, 1)
    np.testing.assert_array_equal(plain, mat.astype(np.float32))
    wrapped = _regs(dtype, fm, dict(c1=1, boundary=2048), 64, 16, 1, fm_at=512)
    np.testing.assert_array_equal(wrapped[:32], mat[:32].astype(np.float32))
    np.testing.assert_array_equal(wrapped[32:], mat[:32].astype(np.float32))
    assert not np.array_equal(mat[32:], mat[:32])


@pytest.mark.parametrize("checked", [False, True])
def test_load2d_v2_gm_to_l1_and_l1_to_l0a(checked):
    """The map as an NZ matrix (64 rows x 2 column blocks): GM -> A1
    verbatim, then the 32 x 16 block at fractal (1, 1) to L0A."""
    dtype, c0 = np.float16, 16
    rng = np.random.default_rng(24)
    fm = _fm(rng, dtype, 2, 8, 8)
    nz = fm.reshape(2, 64, c0).transpose(1, 0, 2).reshape(64, 2 * c0)  # A[r, c1 * C0 + c0]
    out = _regs(dtype, fm, dict(c1=2, lh=1, lw=1), 32, 16, 2, checked)
    np.testing.assert_array_equal(out, nz[16:48, 16:32].astype(np.float32))


# --- errors ----------------------------------------------------------------------


def _conv_args(**over):
    """conv_v2's scalar arguments for a 1 x 4 x 4 map and a 1 x 1 filter."""
    args = dict(fm_rows=16, h=4, w=4, c=16, kh=1, kw=1, sh=1, sw=1, dh=1, dw=1, pl=0, pr=0, pt=0,
                pb=0, mext=16, kext=16, m0=0, k0=0, n=16, pad=0)
    args.update(over)
    return list(args.values())


@pytest.mark.parametrize("over,pattern", [
    (dict(kext=8, n=16), r"k_extension and k_start_pt must be multiples of 16"),
    (dict(mext=8), r"m_extension a multiple of 16"),
    (dict(c=8), r"channel_size must be a multiple of 16"),
    (dict(sw=0), r"stride_w and stride_h must be in \[1, 63\]"),
    (dict(kh=0), r"filter_w and filter_h must be in \[1, 255\]"),
    (dict(dw=256), r"dilation_filter_w and dilation_filter_h must be in \[1, 255\]"),
    (dict(pl=256), r"pad_list values must be in \[0, 255\]"),
    (dict(kh=9), r"does not fit the padded"),
    (dict(m0=70000), r"m_start_pt in \[0, 65535\]"),
])
@pytest.mark.parametrize("checked", [False, True])
def test_v2_parameter_errors_name_the_line(over, pattern, checked):
    fm = np.zeros(256, np.float16)
    k = CONV_V2_CHECKED if checked else CONV_V2
    with pytest.raises(asc.KernelError,
                       match=r"test_cube_img2col\.py:\d+: load_data \(LoadData3DParamsV2\): .*" +
                       pattern):
        k[1](fm, np.zeros(256, np.float16), np.zeros(256, np.float32), *_conv_args(**over),
             False, 0)


def test_v2_reading_past_its_l1_tensor_is_reported_in_checked_mode():
    """The load reads on to the end of L1 in the default mode, as the
    hardware does; checked mode holds it to the tensor."""
    args = _conv_args(c=9600, k0=9584)
    fm = np.zeros(256, np.float16)
    with pytest.raises(asc.KernelError,
                       match=r"test_cube_img2col\.py:\d+: load_data \(LoadData3DParamsV2\): .*"
                       r"img2col reads element \(c1 599, h 0, w 0\) at byte 306688 past its "
                       r"source \(131072 bytes\)"):
        CONV_V2_CHECKED[1](fm, np.zeros(256, np.float16), np.zeros(256, np.float32), *args,
                           False, 0)
    CONV_V2[1](fm, np.zeros(256, np.float16), np.zeros(256, np.float32), *args, False, 0)
    asc.synchronize()


@pytest.mark.parametrize("checked", [False, True])
def test_v2_int8_into_l0b_is_an_error(checked):
    """A2 has no 1-byte img2col into L0B (CANN's LoadData 3D v2)."""
    fm = np.zeros(512, np.int8)  # 1 x 4 x 4 x 32
    k = CONV_V2_CHECKED if checked else CONV_V2
    with pytest.raises(asc.KernelError, match=r"load_data \(LoadData3DParamsV2\): img2col into "
                                              r"L0B takes 2- and 4-byte types"):
        k[1](fm, np.zeros(1024, np.int8), np.zeros(1024, np.int32), *_conv_args(c=32, kext=32), True, 0)


@pytest.mark.parametrize("over,api,pattern", [
    (dict(c1=4096), "V1", r"c1_index must be in \[0, 4095\]"),
    (dict(jump=0), "V1", r"jump_stride must be in \[1, 127\]"),
    (dict(times=0), "V1", r"repeat_time in \[1, 255\]"),
    (dict(lw=-256), "V1", r"left_top_w and left_top_h must be in \[-255, 32767\]"),
    (dict(fw=1), "V1", r"fetch_filter \(0, 1\) lies outside the 1 x 1 filter"),
    (dict(kw=256), "V1", r"filter_w and filter_h must be in \[1, 255\], got 256 and 1"),
])
def test_v1_parameter_errors(over, api, pattern):
    fm = _fm(np.random.default_rng(0), np.float16, 1, 4, 4)
    with pytest.raises(asc.KernelError, match=rf"load_data \(LoadData3DParams{api}\): .*{pattern}"):
        _regs(np.float16, fm, over, 16, 16, 0, checked=True)


@pytest.mark.parametrize("over,pattern", [
    (dict(boundary=512), r"load data boundary 512 must be 0 or in \[1024, 524288\]"),
    (dict(boundary=1024), r"src starts at L1 byte 1024, past the load data boundary"),
    (dict(rep_times=256), r"set_load_data_repeat: repeat_time must be in \[0, 255\]"),
    (dict(rep_mode=2), r"set_load_data_repeat: .*repeat_mode in \[0, 1\]"),
    (dict(boundary=-1), r"set_load_data_boundary: the boundary must be in \[0, 2\*\*32\)"),
])
def test_register_errors(over, pattern):
    fm = _fm(np.random.default_rng(0), np.float16, 1, 8, 8)
    with pytest.raises(asc.KernelError, match=r"test_cube_img2col\.py:\d+: .*" + pattern):
        _regs(np.float16, fm, dict(c1=1, **over), 64, 16, 1, fm_at=512)


def test_load2d_v2_errors():
    fm = _fm(np.random.default_rng(0), np.float16, 2, 8, 8)
    # three column blocks asked of a GM matrix with two
    with pytest.raises(asc.KernelError, match=r"test_cube_img2col\.py:\d+: load_data "
                                              r"\(LoadData2DParamsV2\): fractal \(0, 2\) at byte "
                                              r"4096 lies outside its source \(4096 bytes\)"):
        _regs(np.float16, fm, dict(c1=3), 32, 16, 2)


@jit
def v2pro_first(fm: asc.GlobalAddress):
    pipe = asc.TPipe()
    a1, a2 = l1_and_l0a(pipe, fm.dtype)
    asc.load_data(a2, a1, asc.LoadData3DParamsV2Pro(16, ext_config=(16 << 16) | 16))


def test_v2pro_needs_the_fmatrix():
    with pytest.raises(asc.KernelError, match=r"FMATRIX is not set: a load_data with "
                                              r"LoadData3DParamsV2 \(f_matrix_ctrl False\) or "
                                              r"V1 sets it"):
        v2pro_first[1](np.zeros(16, np.float16))


@jit
def compile_errors(fm: asc.GlobalAddress, which: asc.ConstExpr[int]):
    pipe = asc.TPipe()
    a1, a2 = l1_and_l0a(pipe, fm.dtype)
    if which == 0:  # dst in L1
        asc.load_data(a1, a1, asc.LoadData3DParamsV2([0, 0, 0, 0], 4, 4, 16, 16, 16))
    if which == 1:
        asc.load_data(a2, a1, asc.LoadData3DParamsV2([0, 0, 0], 4, 4, 16, 16, 16))
    if which == 2:
        asc.load_data(a2, a1, asc.LoadData3DParamsV2Pro(16, ext_config=-1))
    if which == 3:
        asc.set_load_data_repeat(asc.LoadData2DParamsV2())
    if which == 4:
        asc.set_load_data_padding_value(a1)
    if which == 5:  # src in GM: the img2col loads read L1
        g = asc.GlobalTensor()
        g.set_global_buffer(fm)
        asc.load_data(a2, g, asc.LoadData3DParamsV1())


@pytest.mark.parametrize("which,pattern", [
    (0, r"operand 1 is a LocalTensor at TPosition.A1; it must be at A2 or B2"),
    (1, r"pad_list must be a list of 4 ints"),
    (2, r"ext_config must be an int in \[0, 2\*\*64\)"),
    (3, r"set_load_data_repeat param must be a pyasc.LoadDataRepeatParam"),
    (4, r"pad_value must be a number"),
    (5, r"load_data src must be a LocalTensor"),
])
def test_compile_errors_name_the_line(which, pattern):
    with pytest.raises(asc.CompileError, match=r"test_cube_img2col\.py:\d+:\d+.*" + pattern):
        compile_errors[1](np.zeros(16, np.float16), which)


# --- Ascend C ---------------------------------------------------------------------------


def test_ascendc_forms_are_valid_cpp():
    from test_ascendc import assert_valid_cpp, body

    fm = np.zeros(1024, np.float16)
    sources = [regs_kernel.ascendc(fm, fm, np.zeros(16, np.float32), *([1] * 26), form)
               for form in range(3)]
    sources.append(conv_v2.ascendc(fm, fm, np.zeros(16, np.float32), *_conv_args(), False, 1))
    src = "".join(body(s) for s in sources)
    # CANN's V1/V2 constructors take the pad list as an array, V2 enSmallK before padValue
    for text in ("const uint8_t padList[4] = {static_cast<uint8_t>(pl)",
                 "return AscendC::LoadData3DParamsV1<half>(padList, static_cast<uint16_t>(h)",
                 "return AscendC::LoadData3DParamsV2<half>(padList, static_cast<uint16_t>(",
                 ", false, static_cast<half>(", "AscendC::LoadData3DParamsV2Pro{",
                 "AscendC::LoadData2DParamsV2{", "AscendC::SetLoadDataBoundary(",
                 # CANN's constructor order: repeatStride (uint16_t), repeatTime, repeatMode
                 "AscendC::SetLoadDataRepeat(AscendC::LoadDataRepeatParam{static_cast<uint16_t>(",
                 "AscendC::SetLoadDataPaddingValue("):
        assert text in src, text
    for s in sources:
        assert_valid_cpp(s)


@jit
def unsynced(fm: asc.GlobalAddress, out: asc.GlobalAddress):
    """img2col (MTE1) then mmad (M) with nothing ordering them."""
    out_gm = asc.GlobalTensor()
    out_gm.set_global_buffer(out)
    pipe = asc.TPipe()
    q1, qa, qb, qc = img2col_queues(pipe, 4096, 4096, 4096, 4096)
    a1 = q1.alloc_tensor(fm.dtype)
    a2 = qa.alloc_tensor(fm.dtype)
    b2 = qb.alloc_tensor(fm.dtype)
    asc.load_data(a2, a1, asc.LoadData3DParamsV2([0, 0, 0, 0], 4, 4, 16, 16, 16))
    c = qc.alloc_tensor(out.dtype)
    asc.mmad(c, a2, b2, asc.MmadParams(16, 16, 16))


def test_checked_mode_reports_missing_sync_after_img2col():
    args = (np.zeros(16, np.float16), np.zeros(16, np.float32))
    unsynced[1](*args)  # the default mode runs it
    with pytest.raises(asc.KernelError, match=r"mmad: missing synchronisation \(read-after-write\)"
                                              r": fm reads L0A .* on pipe M, but load_data "
                                              r"\(LoadData3DParamsV2\) at line \d+ wrote .* on "
                                              r"pipe MTE1"):
        modes(unsynced)[1][1](*args)


def test_v2_bfloat16():
    """bfloat16 maps (values exact in bf16) through the same kernel."""
    rng = np.random.default_rng(25)
    fm = (rng.integers(-64, 64, (1, 5, 6, 16)) / 8).astype(np.float32)
    pads, stride, kernel, dil = (1, 1, 1, 0), (1, 1), (2, 2), (1, 1)
    ho, wo = out_size(5, 6, pads, stride, kernel, dil)
    mext, kext = (ho * wo + 15) // 16 * 16, 64
    mat = img2col(fm, pads, stride, kernel, dil, 0, mext)
    out = np.zeros((mext, kext), np.float32)
    bf = asc.asarray(fm.ravel(), dtype="bfloat16")
    eye = asc.asarray(zn_image(np.eye(kext, dtype=np.float32), 16), dtype="bfloat16")
    CONV_V2[1](bf, eye, out, 30, 5, 6, 16, 2, 2, 1, 1, 1, 1, *pads, mext, kext, 0, 0, kext, 0,
               False, 0)
    np.testing.assert_array_equal(out, mat)


@pytest.mark.parametrize("seed", range(12))
def test_v2_random_geometries(seed):
    """Random maps, pads, strides, dilations, filters and start positions."""
    rng = np.random.default_rng(100 + seed)
    dtype = (np.float16, np.int8)[seed % 2]
    c0 = C0[dtype]
    while True:
        c1n, h, w = int(rng.integers(1, 3)), int(rng.integers(1, 10)), int(rng.integers(1, 10))
        pads = tuple(int(p) for p in rng.integers(0, 3, 4))
        stride = tuple(int(s) for s in rng.integers(1, 4, 2))
        kernel = tuple(int(k) for k in rng.integers(1, 4, 2))
        dil = tuple(int(d) for d in rng.integers(1, 3, 2))
        ho, wo = out_size(h, w, pads, stride, kernel, dil)
        if ho >= 1 and wo >= 1 and (w + pads[0] + pads[1] - dil[1] * (kernel[1] - 1) - 1) >= 0 \
                and (h + pads[2] + pads[3] - dil[0] * (kernel[0] - 1) - 1) >= 0:
            break
    fm = _fm(rng, dtype, c1n, h, w)
    total = c1n * kernel[0] * kernel[1] * c0
    k0 = int(rng.integers(0, total // c0)) * c0
    kext = min(total - k0, 4 * c0)
    m0 = int(rng.integers(0, ho * wo))
    pad = int(rng.integers(-3, 4))
    out, ref = run_v2(dtype, fm, pads, stride, kernel, dil, 16 * int(rng.integers(1, 4)), kext,
                      m0=m0, k0=k0, pad=pad, checked=seed % 3 == 0)
    np.testing.assert_array_equal(out, ref)


def test_img2col_loads_run_as_ascendc():
    """Each of V1, V2, V2Pro and LoadData2DParamsV2 (from GM and from L1), with the
    registers: this file's own kernels, each launch also run as its emitted Ascend C on the
    header's forms (ascendc_roundtrip.py), bit for bit, and their own NumPy checks."""
    import importlib

    roundtrip = importlib.import_module("ascendc_roundtrip")
    hook = roundtrip.RoundTrip()
    hook.install()
    try:
        test_v2_matches_the_model(np.float16, GEOMETRIES[2])
        test_v2pro_reads_the_registers()
        test_v1_walks_the_filter_and_the_windows()
        test_repeat_register(False)
        test_boundary_wraps_reads_to_l1_start()
        test_load2d_v2_gm_to_l1_and_l1_to_l0a(False)
    finally:
        hook.uninstall()
    assert not hook.mismatched and not hook.unsupported and not hook.no_form, hook.report()
    assert len(hook.matched) == 2 and sum(hook.matched.values()) >= 6, hook.report()
