"""The adv library's Sum, CumSum, Broadcast and two-axis ReduceMax/ReduceMin
(include/ascendc/kernel_operator/adv_reduce.h).
Sum is built from RepeatReduceSum in counter mode as CANN builds it: each row's n elements
summed over repeats and again over the repeats' sums, with GetSumMaxMinTmpSize's buffer or the
stack's, against NumPy's float64 sums (test_math_tiling_cpp.py checks the C++ host query
itself); CumSum adds in float and rounds once, as NumPy's float32 cumsum; Broadcast as
NumPy's broadcast_to, a shape that does not broadcast an error at its line; ReduceMax and
ReduceMin along either axis of padded rows as NumPy's max and min, the padding left out."""

from __future__ import annotations

import shutil

import numpy as np
import pytest

import pyasc

pytestmark = pytest.mark.skipif(shutil.which("c++") is None and shutil.which("g++") is None,
                                reason="no C++ compiler")

SRC = r"""
#include "kernel_operator.h"

template <typename T>
__aicore__ inline void run(GM_ADDR x, GM_ADDR y, uint32_t rows, uint32_t n, uint32_t least)
{
    const uint32_t inner = (n * sizeof(T) + 31) / 32 * 32 / sizeof(T);
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> in, out, tmp;
    pipe.InitBuffer(in, rows * inner * sizeof(T));
    pipe.InitBuffer(out, 32 * sizeof(T));
    AscendC::GlobalTensor<T> xg, yg;
    xg.SetGlobalBuffer((__gm__ T *)x, rows * inner);
    yg.SetGlobalBuffer((__gm__ T *)y, 32);
    AscendC::LocalTensor<T> src = in.Get<T>(), dst = out.Get<T>();
    AscendC::DataCopy(src, xg, rows * inner);
    AscendC::PipeBarrier<PIPE_ALL>();
    AscendC::SumParams params{rows, inner, n};
    if (least == 0) {
        AscendC::Sum(dst, src, params);
    } else {
        pipe.InitBuffer(tmp, least);
        AscendC::Sum(dst, src, tmp.Get<uint8_t>(), params);
    }
    AscendC::PipeBarrier<PIPE_ALL>();
    AscendC::DataCopy(yg, dst, 32);
}

extern "C" __global__ __aicore__ void sum_float(GM_ADDR x, GM_ADDR y, uint32_t rows, uint32_t n,
                                                uint32_t least)
{
    run<float>(x, y, rows, n, least);
}

extern "C" __global__ __aicore__ void sum_half(GM_ADDR x, GM_ADDR y, uint32_t rows, uint32_t n,
                                               uint32_t least)
{
    run<half>(x, y, rows, n, least);
}
"""


@pytest.mark.parametrize("dtype,kernel", [(np.float32, "sum_float"), (np.float16, "sum_half")])
@pytest.mark.parametrize("n", [40, 64, 1000, 5000])
@pytest.mark.parametrize("stack", [0, 1])
def test_sum_of_rows_matches_numpy(dtype, kernel, n, stack):
    rows = 3
    inner = -(-n * np.dtype(dtype).itemsize // 32) * 32 // np.dtype(dtype).itemsize
    rng = np.random.default_rng(n)
    x = rng.uniform(-1, 1, (rows, inner)).astype(dtype)
    x[:, n:] = 1000  # the padding past n is not summed
    y = np.zeros(32, dtype)
    size = np.dtype(dtype).itemsize  # GetSumMaxMinTmpSize: a value a repeat, in 32-byte blocks
    least = 0 if stack else -(-(-(-n * size // 256)) * size // 32) * 32
    pyasc.ascendc.load(SRC, kernel)[1](x, y, np.uint32(rows), np.uint32(n), np.uint32(least))
    want = x[:, :n].astype(np.float64).sum(axis=1)
    np.testing.assert_allclose(y[:rows].astype(np.float64), want,
                               atol=1e-4 * np.sqrt(n) if dtype == np.float32 else 0.05 * np.sqrt(n))


CUMSUM_SRC = r"""
#include "kernel_operator.h"

constexpr AscendC::CumSumConfig kDown = {false, false, true,
                                         AscendC::CumSumAlgorithm::CUMSUM_ALGORITHM_LINEBYLINE};
constexpr AscendC::CumSumConfig kAlong = {true, false, true,
                                          AscendC::CumSumAlgorithm::CUMSUM_ALGORITHM_LINEBYLINE};

// the running sums of a rows x inner tile into y, its last row into last
template <typename T>
__aicore__ inline void run(GM_ADDR x, GM_ADDR y, GM_ADDR last, uint32_t rows, uint32_t inner,
                           uint32_t alongLastAxis)
{
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> in, out, lastBuf;
    pipe.InitBuffer(in, rows * inner * sizeof(T));
    pipe.InitBuffer(out, rows * inner * sizeof(T));
    pipe.InitBuffer(lastBuf, inner * sizeof(T));
    AscendC::GlobalTensor<T> xg, yg, lg;
    xg.SetGlobalBuffer((__gm__ T *)x, rows * inner);
    yg.SetGlobalBuffer((__gm__ T *)y, rows * inner);
    lg.SetGlobalBuffer((__gm__ T *)last, inner);
    AscendC::LocalTensor<T> src = in.Get<T>(), dst = out.Get<T>(), lastRow = lastBuf.Get<T>();
    AscendC::DataCopy(src, xg, rows * inner);
    AscendC::PipeBarrier<PIPE_ALL>();
    const AscendC::CumSumInfo info{rows, inner};
    if (alongLastAxis) {
        AscendC::CumSum<T, kAlong>(dst, lastRow, src, info);
    } else {
        AscendC::CumSum<T, kDown>(dst, lastRow, src, info);
    }
    AscendC::PipeBarrier<PIPE_ALL>();
    AscendC::DataCopy(yg, dst, rows * inner);
    AscendC::DataCopy(lg, lastRow, inner);
}

extern "C" __global__ __aicore__ void cumsum_float(GM_ADDR x, GM_ADDR y, GM_ADDR last,
                                                   uint32_t rows, uint32_t inner, uint32_t along)
{
    run<float>(x, y, last, rows, inner, along);
}

extern "C" __global__ __aicore__ void cumsum_half(GM_ADDR x, GM_ADDR y, GM_ADDR last,
                                                  uint32_t rows, uint32_t inner, uint32_t along)
{
    run<half>(x, y, last, rows, inner, along);
}
"""


@pytest.mark.parametrize("dtype,kernel", [(np.float32, "cumsum_float"), (np.float16, "cumsum_half")])
@pytest.mark.parametrize("along", [0, 1], ids=["first_axis", "last_axis"])
def test_cumsum_adds_in_float_and_rounds_once(dtype, kernel, along):
    """Sequential float32 sums, as NumPy's float32 cumsum adds them, rounded to the type once;
    lastRow is the result's last row."""
    rows, inner = 20, 48
    x = np.random.default_rng(7 + along).uniform(-1, 1, (rows, inner)).astype(dtype)
    y = np.zeros_like(x)
    last = np.zeros(inner, dtype)
    pyasc.ascendc.load(CUMSUM_SRC, kernel)[1](x, y, last, np.uint32(rows), np.uint32(inner),
                                              np.uint32(along))
    want = np.cumsum(x.astype(np.float32), axis=1 if along else 0).astype(dtype)
    np.testing.assert_array_equal(y, want)
    np.testing.assert_array_equal(last, want[-1])


BROADCAST_SRC = r"""
#include "kernel_operator.h"

// src of rows x 1 (axis 1), 1 x cols (axis 0) or one element (dim 1) into a rows x cols tile
extern "C" __global__ __aicore__ void broadcast(GM_ADDR x, GM_ADDR y, uint32_t rows,
                                                uint32_t cols, uint32_t how, uint32_t bad)
{
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> in, out;
    pipe.InitBuffer(in, 4096);
    pipe.InitBuffer(out, rows * cols * sizeof(float));
    AscendC::GlobalTensor<float> xg, yg;
    xg.SetGlobalBuffer((__gm__ float *)x, 1024);
    yg.SetGlobalBuffer((__gm__ float *)y, rows * cols);
    AscendC::LocalTensor<float> src = in.Get<float>(), dst = out.Get<float>();
    AscendC::DataCopy(src, xg, 1024);
    AscendC::PipeBarrier<PIPE_ALL>();
    const uint32_t dstShape[2] = {rows, cols};
    if (how == 0) {
        const uint32_t srcShape[2] = {1, cols + bad};
        AscendC::Broadcast<float, 2, 0>(dst, src, dstShape, srcShape);  // the Broadcast line
    } else if (how == 1) {
        const uint32_t srcShape[2] = {rows, 1};
        AscendC::BroadCast<float, 2, 1>(dst, src, dstShape, srcShape);  // CANN's other name
    } else {
        const uint32_t one[1] = {1}, all[1] = {rows * cols};
        AscendC::Broadcast<float, 1, 0>(dst, src, all, one);
    }
    AscendC::PipeBarrier<PIPE_ALL>();
    AscendC::DataCopy(yg, dst, rows * cols);
}
"""


@pytest.mark.parametrize("how", [0, 1, 2], ids=["row", "column", "scalar"])
def test_broadcast_matches_numpy(how):
    rows, cols = 12, 40
    x = np.random.default_rng(how).uniform(-5, 5, 1024).astype(np.float32)
    y = np.zeros(rows * cols, np.float32)
    pyasc.ascendc.load(BROADCAST_SRC, "broadcast")[1](x, y, np.uint32(rows), np.uint32(cols),
                                                      np.uint32(how), np.uint32(0))
    src = {0: x[:cols].reshape(1, cols), 1: x[:rows].reshape(rows, 1), 2: x[:1].reshape(1, 1)}
    np.testing.assert_array_equal(y.reshape(rows, cols), np.broadcast_to(src[how], (rows, cols)))


def test_broadcast_of_a_wrong_shape_fails_at_its_line():
    line = BROADCAST_SRC[:BROADCAST_SRC.index("// the Broadcast line")].count("\n") + 1
    x = np.zeros(1024, np.float32)
    with pytest.raises(pyasc.KernelError, match=rf"<string>:{line}: Broadcast: a source of 1 x 41 "
                                                r"does not broadcast to 12 x 40 along axis 0"):
        pyasc.ascendc.load(BROADCAST_SRC, "broadcast")[1](x, np.zeros(480, np.float32),
                                                          np.uint32(12), np.uint32(40),
                                                          np.uint32(0), np.uint32(1))


# --- ReduceMax / ReduceMin over two axes ------------------------------------------------------

EXTREME = r"""
#include "kernel_operator.h"

constexpr uint32_t ROWS = 6, COLS = 20, PAD = 24;  // 20 floats a row, rows 24 (96 bytes) apart

// which: 0 ReduceMax AR, 1 ReduceMax RA, 2 ReduceMin AR (no buffer), 3 ReduceMin RA; rows:
// the shape's first axis (ROWS, or more to fail)
extern "C" __global__ __aicore__ void extreme(GM_ADDR x, GM_ADDR y, int32_t which, uint32_t rows)
{
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> in, out, tb;
    pipe.InitBuffer(in, ROWS * PAD * sizeof(float));
    pipe.InitBuffer(out, PAD * sizeof(float));
    pipe.InitBuffer(tb, 1024);
    AscendC::GlobalTensor<float> xg, yg;
    xg.SetGlobalBuffer((__gm__ float *)x, ROWS * PAD);
    yg.SetGlobalBuffer((__gm__ float *)y, PAD);
    AscendC::LocalTensor<float> src = in.Get<float>(), dst = out.Get<float>();
    AscendC::LocalTensor<uint8_t> tmp = tb.Get<uint8_t>();
    AscendC::DataCopy(src, xg, ROWS * PAD);
    AscendC::Duplicate(dst, -1.0f, PAD);
    AscendC::PipeBarrier<PIPE_ALL>();
    const uint32_t shape[2] = {rows, COLS};
    switch (which) {
    case 0: AscendC::ReduceMax<float, AscendC::Pattern::Reduce::AR>(dst, src, tmp, shape, true); break;
    case 1: AscendC::ReduceMax<float, AscendC::Pattern::Reduce::RA>(dst, src, tmp, shape, true); break;
    case 2: AscendC::ReduceMin<float, AscendC::Pattern::Reduce::AR, true>(dst, src, shape, true); break;
    default: AscendC::ReduceMin<float, AscendC::Pattern::Reduce::RA>(dst, src, tmp, shape, true);
    }
    AscendC::PipeBarrier<PIPE_ALL>();
    AscendC::DataCopy(yg, dst, PAD);
}
"""


@pytest.mark.parametrize("which", range(4), ids=["max_ar", "max_ra", "min_ar", "min_ra"])
def test_two_axis_extremes_match_numpy(which):
    rng = np.random.default_rng(70 + which)
    x = np.full((6, 24), 1e9 if which >= 2 else -1e9, np.float32)  # the pad must not count
    x[:, :20] = rng.uniform(-10, 10, (6, 20)).astype(np.float32)
    y = np.zeros(24, np.float32)
    pyasc.ascendc.load(EXTREME, "extreme")[1](x, y, np.int32(which), np.uint32(6))
    data = x[:, :20]
    reduce = np.max if which < 2 else np.min
    want = reduce(data, axis=1 if which % 2 == 0 else 0)
    np.testing.assert_array_equal(y[:want.size], want)
    assert (y[want.size:] == -1).all()


def test_two_axis_extreme_past_the_source_fails_at_its_line():
    line = EXTREME[:EXTREME.index("case 1:")].count("\n") + 1
    x = np.zeros((6, 24), np.float32)
    with pytest.raises(pyasc.KernelError, match=rf"<string>:{line}: ReduceMax: .*srcTensor"):
        pyasc.ascendc.load(EXTREME, "extreme", debug=True)[1](x, np.zeros(24, np.float32),
                                                              np.int32(1), np.uint32(9))
