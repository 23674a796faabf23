"""float32 img2col loads (LoadData3DParamsV1/V2/V2Pro, C0 = 8 for 4-byte
types) against the NumPy img2col model, read back through float32 mmad
and fixpipe (values are multiples of 1/8 with few bits, so every product
and sum is exact in fp32); plus the float32 error paths (C0 = 8
multiples).

The kernels and the model are test_cube_img2col's (written for any dtype:
C0 = 32 bytes of elements)."""

from __future__ import annotations

import numpy as np
import pytest

import pyasc as asc
from test_cube_img2col import (CONV_V2, CONV_V2_CHECKED, GEOMETRIES, REGS_CHECKED, _conv_args,
                               img2col, out_size, zn_image, zz_image)

C0 = 8  # 32 bytes of float32


def _fm(rng, c1, h, w):
    """A 5HD float32 feature map [C1, H, W, 8] of exact small values."""
    return (rng.integers(-64, 64, (c1, h, w, C0)) / 8).astype(np.float32)


def run_v2(fm, pads, stride, kernel, dilation, mext, kext, m0=0, k0=0, other=None, to_b=False,
           pad=0.0, checked=False, pro=0):
    """The kernel's result and the model's for one float32 V2 (V2Pro) load."""
    c1n, h, w, _ = fm.shape
    block = img2col(fm, pads, stride, kernel, dilation, pad, m0 + mext)[m0:, k0:k0 + kext]
    eye = other is None
    if eye:  # an identity with n padded to 16 columns (fractals are 16 x 8)
        other = np.eye(kext, (kext + 15) // 16 * 16, dtype=np.float32)
    n = other.shape[1]
    if to_b:  # other (mext x n) is A^T: out (n x kext) = A @ block
        image = zz_image(other.T.copy(), C0)
        out = np.zeros((n, kext), np.float32)
        ref = other.T @ block
    else:
        image = zn_image(other, C0)
        out = np.zeros((mext, n), np.float32)
        ref = block @ other
    k = CONV_V2_CHECKED if checked else CONV_V2
    k[1](fm.ravel(), image, out, c1n * h * w, h, w, c1n * C0, kernel[0], kernel[1], stride[0],
         stride[1], dilation[0], dilation[1], *pads, mext, kext, m0, k0, n, pad, to_b, pro)
    return (out[:, :kext], ref[:, :kext]) if eye else (out, ref)


@pytest.mark.parametrize("geo", GEOMETRIES)
def test_v2_float32_matches_the_model(geo):
    c1n, h, w, pads, stride, kernel, dil = geo
    fm = _fm(np.random.default_rng(c1n * 100 + h * 10 + w), c1n, h, w)
    ho, wo = out_size(h, w, pads, stride, kernel, dil)
    mext = (ho * wo + 15) // 16 * 16
    total, chunk = c1n * kernel[0] * kernel[1] * C0, 4 * C0
    got = []
    for k0 in range(0, total, chunk):
        out, ref = run_v2(fm, pads, stride, kernel, dil, mext, min(chunk, total - k0), k0=k0)
        np.testing.assert_array_equal(out, ref)
        got.append(out)
    mat = img2col(fm, pads, stride, kernel, dil)
    np.testing.assert_array_equal(np.concatenate(got, axis=1)[:ho * wo], mat)


@pytest.mark.parametrize("checked", [False, True])
def test_v2_float32_start_positions_pad_value_and_l0b(checked):
    rng = np.random.default_rng(31)
    fm = _fm(rng, 2, 6, 7)
    args = ((1, 1, 2, 0), (1, 1), (3, 3), (1, 1))
    out, ref = run_v2(fm, *args, mext=32, kext=4 * C0, m0=5, k0=3 * C0, pad=3, checked=checked)
    np.testing.assert_array_equal(out, ref)
    assert (ref == 3).any()  # the padding value reached the result
    other = (rng.integers(-4, 5, (32, 32)) / 2).astype(np.float32)  # A^T: mext x n
    out, ref = run_v2(fm, *args, mext=32, kext=48, other=other, to_b=True, checked=checked)
    np.testing.assert_array_equal(out, ref)
    # 40 columns: the last fractal of each row of L0B is half written
    out, ref = run_v2(fm, *args, mext=32, kext=40, other=other, to_b=True, checked=checked)
    np.testing.assert_array_equal(out, ref)


def test_v2pro_float32_reads_the_registers():
    fm = _fm(np.random.default_rng(32), 2, 5, 6)
    out, ref = run_v2(fm, (1, 0, 1, 1), (1, 2), (2, 2), (2, 1), mext=16, kext=32, m0=2, k0=8,
                      pad=5, pro=1)
    np.testing.assert_array_equal(out, ref)


def test_float32_convolution():
    """img2col x fractal_Z weights in float32 equals a direct convolution."""
    rng = np.random.default_rng(33)
    cin, h, w, cout, kh, kw = 16, 6, 5, 16, 3, 2
    x = rng.standard_normal((cin, h, w)).astype(np.float32)
    weight = rng.standard_normal((cout, cin, kh, kw)).astype(np.float32)
    pads, stride, dil = (1, 0, 1, 1), (1, 1), (1, 1)
    fm = x.reshape(2, C0, h, w).transpose(0, 2, 3, 1).copy()  # 5HD, C1 = 2
    wk = weight.reshape(cout, 2, C0, kh, kw).transpose(1, 3, 4, 2, 0).reshape(-1, cout).copy()
    ho, wo = out_size(h, w, pads, stride, (kh, kw), dil)
    out, _ = run_v2(fm, pads, stride, (kh, kw), dil, mext=(ho * wo + 15) // 16 * 16,
                    kext=2 * kh * kw * C0, other=wk, checked=True)
    xp = np.pad(x, ((0, 0), (1, 1), (1, 0)))
    ref = np.zeros((cout, ho, wo), np.float64)
    for i in range(kh):
        for j in range(kw):
            ref += np.einsum("oc,chw->ohw", weight[:, :, i, j].astype(np.float64),
                             xp[:, i:i + ho, j:j + wo].astype(np.float64))
    np.testing.assert_allclose(out[:ho * wo].T.reshape(cout, ho, wo), ref, rtol=1e-5, atol=1e-4)


def test_v1_float32_walks_the_filter():
    """V1 with float32: 16 x 8 fractals, the filter walk along K."""
    fm = _fm(np.random.default_rng(34), 2, 6, 7)
    pads, stride, kernel = (1, 0, 1, 0), (1, 2), (2, 3)
    mat = img2col(fm, pads, stride, kernel, (1, 1), 0, 64)
    c1n, h, w, _ = fm.shape
    out = np.zeros((16, 32), np.float32)
    args = dict(c1=1, fw=1, fh=0, lw=-1, lh=-1, kw=3, kh=2, sw=2, sh=1, pl=1, pt=1, jump=1,
                mode=0, times=4, boundary=0, rep_times=1, rep_stride=0, rep_mode=0)
    REGS_CHECKED[1](fm.ravel(), zn_image(np.eye(32, dtype=np.float32), C0), out, c1n * h * w, h,
                    w, *args.values(), 16, 32, 32, 0, 16, 0)
    k0 = ((1 * 2 + 0) * 3 + 1) * C0
    np.testing.assert_array_equal(out, mat[:16, k0:k0 + 32])


@pytest.mark.parametrize("over,pattern", [
    (dict(c=12), r"channel_size must be a multiple of 8 \(32 bytes\)"),
    (dict(kext=12, n=16), r"k_extension and k_start_pt must be multiples of 8"),
    (dict(k0=4), r"k_extension and k_start_pt must be multiples of 8"),
])
def test_v2_float32_errors(over, pattern):
    fm = np.zeros(128, np.float32)
    with pytest.raises(asc.KernelError, match=r"load_data \(LoadData3DParamsV2\): .*" + pattern):
        CONV_V2_CHECKED[1](fm, np.zeros(256, np.float32), np.zeros(256, np.float32),
                           *_conv_args(**dict(dict(c=8, kext=8, n=8), **over)), False, 0)


def test_ascendc_float32_forms():
    from test_ascendc import assert_valid_cpp, body
    from test_cube_img2col import conv_v2, regs_kernel

    fm = np.zeros(1024, np.float32)
    sources = [regs_kernel.ascendc(fm, fm, np.zeros(16, np.float32), *([1] * 26), 0),
               conv_v2.ascendc(fm, fm, np.zeros(16, np.float32), *_conv_args(), False, 0)]
    src = "".join(body(s) for s in sources)
    for text in ("AscendC::LoadData3DParamsV1<float>(padList",
                 "AscendC::LoadData3DParamsV2<float>(padList"):
        assert text in src, text
    for s in sources:
        assert_valid_cpp(s)
