"""Ascend C's Layout (MakeShape, MakeStride, MakeCoord, MakeLayout, Crd2Idx) and TransData on
the simulated cores.

TransData's four format changes against NumPy reshapes and transposes of the formats CANN's
TransData page defines (NCDHW [N, C, D, H, W]; NDC1HWC0 [N, D, C/16, H, W, 16]; FRACTAL_Z_3D [D,
C/16, H, W, N/16, 16, 16]), C and N padded to 16 with zeros, and NCDHW in the UB with each H x W
row padded to 16 elements, as the page requires of an input and writes of an output."""

from __future__ import annotations

import shutil

import numpy as np
import pytest

import pyasc

pytestmark = pytest.mark.skipif(shutil.which("c++") is None and shutil.which("g++") is None,
                                reason="no C++ compiler")

KERNELS = r"""
#include "kernel_operator.h"

constexpr uint32_t CAP = 16384;
constexpr AscendC::TransDataConfig TO_5HD = {AscendC::DataFormat::NCDHW,
                                             AscendC::DataFormat::NDC1HWC0};
constexpr AscendC::TransDataConfig FROM_5HD = {AscendC::DataFormat::NDC1HWC0,
                                               AscendC::DataFormat::NCDHW};
constexpr AscendC::TransDataConfig TO_FZ = {AscendC::DataFormat::NCDHW,
                                            AscendC::DataFormat::FRACTAL_Z_3D};
constexpr AscendC::TransDataConfig FROM_FZ = {AscendC::DataFormat::FRACTAL_Z_3D,
                                              AscendC::DataFormat::NCDHW};

// which: 1 NCDHW -> NDC1HWC0, 2 back, 3 NCDHW -> FRACTAL_Z_3D, 4 back, 5 as 3 with a wrong
// FRACTAL_Z_3D shape (C1 one too many); dst starts as out's values
extern "C" __global__ __aicore__ void transdata(GM_ADDR x, GM_ADDR out, int32_t which,
                                                int32_t n, int32_t c, int32_t d, int32_t h,
                                                int32_t w)
{
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> xb, yb, tb;
    pipe.InitBuffer(xb, CAP * sizeof(half));
    pipe.InitBuffer(yb, CAP * sizeof(half));
    pipe.InitBuffer(tb, 1024);
    AscendC::GlobalTensor<int16_t> xg, yg;
    xg.SetGlobalBuffer((__gm__ int16_t *)x, CAP);
    yg.SetGlobalBuffer((__gm__ int16_t *)out, CAP);
    AscendC::LocalTensor<int16_t> src = xb.Get<int16_t>(), dst = yb.Get<int16_t>();
    AscendC::LocalTensor<uint8_t> tmp = tb.Get<uint8_t>();
    AscendC::DataCopy(src, xg, CAP);
    AscendC::DataCopy(dst, yg, CAP);
    AscendC::PipeBarrier<PIPE_ALL>();
    const int32_t c1 = (c + 15) / 16, n1 = (n + 15) / 16;
    auto ncdhw = AscendC::MakeLayout(AscendC::MakeShape(n, c, d, h, w), AscendC::MakeStride());
    auto hd = AscendC::MakeLayout(AscendC::MakeShape(n, d, c1, h, w, 16), AscendC::MakeStride());
    auto fz = AscendC::MakeLayout(AscendC::MakeShape(d, which == 5 ? c1 + 1 : c1, h, w, n1, 16, 16),
                                  AscendC::MakeStride());
    switch (which) {
    case 1: {
        AscendC::TransDataParams<decltype(ncdhw), decltype(hd)> p = {ncdhw, hd};
        AscendC::TransData<TO_5HD>(dst, src, tmp, p);
        break;
    }
    case 2: {
        AscendC::TransDataParams<decltype(hd), decltype(ncdhw)> p = {hd, ncdhw};
        AscendC::TransData<FROM_5HD>(dst, src, p);
        break;
    }
    case 4: {
        AscendC::TransDataParams<decltype(fz), decltype(ncdhw)> p = {fz, ncdhw};
        AscendC::TransData<FROM_FZ, int16_t, decltype(fz), decltype(ncdhw)>(dst, src, tmp, p);
        break;
    }
    default: {
        AscendC::TransDataParams<decltype(ncdhw), decltype(fz)> p = {ncdhw, fz};
        AscendC::TransData<TO_FZ>(dst, src, tmp, p);
    }
    }
    AscendC::PipeBarrier<PIPE_ALL>();
    AscendC::DataCopy(yg, dst, CAP);
}

// Layout: offsets of coordinates by Crd2Idx and a layout's call, its shape's modes
extern "C" __global__ __aicore__ void layouts(GM_ADDR out)
{
    AscendC::GlobalTensor<int32_t> og;
    og.SetGlobalBuffer((__gm__ int32_t *)out, 8);
    auto rowMajor = AscendC::MakeLayout(AscendC::MakeShape(4, 8), AscendC::MakeStride(8, 1));
    auto nested = AscendC::MakeLayout(AscendC::MakeShape(AscendC::MakeShape(2, 3), 5),
                                      AscendC::MakeStride(AscendC::MakeStride(1, 10), 100));
    og.SetValue(0, rowMajor(AscendC::MakeCoord(2, 3)));
    og.SetValue(1, nested(AscendC::MakeCoord(AscendC::MakeCoord(1, 2), 4)));
    og.SetValue(2, nested(AscendC::MakeCoord(5, 4)));  // 5 over (2, 3): (1, 2)
    og.SetValue(3, AscendC::Std::get<1>(rowMajor.GetShape()));
    og.SetValue(4, AscendC::Std::get<0>(rowMajor.GetStride<1>()));
    og.SetValue(5, AscendC::is_layout_v<decltype(nested)>);
    og.SetValue(6, AscendC::is_layout_v<int>);
    og.SetValue(7, static_cast<int32_t>(AscendC::Size(nested.GetShape())));
}
"""

CAP = 16384


def _ncdhw_padded(x: np.ndarray) -> np.ndarray:
    """[N, C, D, H, W] as the UB holds it: each H x W row padded to 16 elements."""
    n, c, d, h, w = x.shape
    row = -(-h * w // 16) * 16
    out = np.zeros((n, c, d, row), x.dtype)
    out[..., :h * w] = x.reshape(n, c, d, h * w)
    return out


def _to_5hd(x: np.ndarray) -> np.ndarray:
    n, c, d, h, w = x.shape
    c1 = -(-c // 16)
    p = np.pad(x, ((0, 0), (0, c1 * 16 - c), (0, 0), (0, 0), (0, 0)))
    return p.reshape(n, c1, 16, d, h, w).transpose(0, 3, 1, 4, 5, 2)


def _to_fz(x: np.ndarray) -> np.ndarray:
    n, c, d, h, w = x.shape
    c1, n1 = -(-c // 16), -(-n // 16)
    p = np.pad(x, ((0, n1 * 16 - n), (0, c1 * 16 - c), (0, 0), (0, 0), (0, 0)))
    return p.reshape(n1, 16, c1, 16, d, h, w).transpose(4, 2, 5, 6, 0, 1, 3)


def _run(which: int, src: np.ndarray, shape, debug: bool = False) -> np.ndarray:
    x = np.zeros(CAP, np.int16)
    x[:src.size] = src.reshape(-1)
    out = np.full(CAP, -5, np.int16)
    pyasc.ascendc.load(KERNELS, "transdata", debug=debug)[1](
        x, out, np.int32(which), *(np.int32(v) for v in shape))
    return out


SHAPES = [(16, 16, 1, 3, 5), (2, 20, 2, 4, 4), (20, 33, 1, 2, 3), (1, 16, 2, 16, 1)]


@pytest.mark.parametrize("shape", SHAPES)
def test_ncdhw_to_ndc1hwc0_and_back(shape):
    x = np.random.default_rng(sum(shape)).integers(-30000, 30000, shape).astype(np.int16)
    want = _to_5hd(x)
    got = _run(1, _ncdhw_padded(x), shape)
    np.testing.assert_array_equal(got[:want.size], want.reshape(-1))
    np.testing.assert_array_equal(got[want.size:], -5)
    back = _run(2, want, shape)
    padded = _ncdhw_padded(x)
    rows = back[:padded.size].reshape(padded.shape)
    hw = shape[3] * shape[4]
    np.testing.assert_array_equal(rows[..., :hw], padded[..., :hw])
    np.testing.assert_array_equal(rows[..., hw:], -5)  # the rows' padding left as it was


@pytest.mark.parametrize("shape", SHAPES)
def test_ncdhw_to_fractal_z_3d_and_back(shape):
    x = np.random.default_rng(len(shape) + sum(shape)).integers(-30000, 30000, shape)
    x = x.astype(np.int16)
    want = _to_fz(x)
    got = _run(3, _ncdhw_padded(x), shape)
    np.testing.assert_array_equal(got[:want.size], want.reshape(-1))
    back = _run(4, want, shape)
    padded = _ncdhw_padded(x)
    hw = shape[3] * shape[4]
    np.testing.assert_array_equal(back[:padded.size].reshape(padded.shape)[..., :hw],
                                  padded[..., :hw])


def test_canns_example_shape_from_its_data():
    # CANN's transdata example: n = c = 16, d = 1, h x w = 3 x 5, the source NCDHW 0..3839
    shape = (16, 16, 1, 3, 5)
    x = np.arange(np.prod(shape)).reshape(shape).astype(np.float16).view(np.int16)
    got = _run(3, _ncdhw_padded(x), shape)
    want = x.reshape(1, 16, 1, 16, 1, 3, 5).transpose(4, 2, 5, 6, 0, 1, 3)
    np.testing.assert_array_equal(got[:want.size], want.reshape(-1))


@pytest.mark.parametrize("debug", [False, True])
def test_a_shape_that_does_not_match_fails_at_the_call(debug):
    line = KERNELS[:KERNELS.index("AscendC::TransData<TO_FZ>")].count("\n") + 1
    with pytest.raises(pyasc.KernelError,
                       match=rf"<string>:{line}: TransData: the FRACTAL_Z_3D shape"):
        _run(5, np.zeros(256, np.int16), (16, 16, 1, 4, 4), debug=debug)


def test_layout_offsets():
    out = np.zeros(8, np.int32)
    pyasc.ascendc.load(KERNELS, "layouts")[1](out)
    assert list(out) == [2 * 8 + 3, 1 + 2 * 10 + 4 * 100, 1 + 2 * 10 + 4 * 100, 8, 1, 1, 0, 30]
