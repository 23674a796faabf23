"""AscendDequant and AscendAntiQuant (include/ascendc/kernel_operator/adv_math.h, the runtime's
asc_k_adv_dequant, asc_k_adv_antiquant). AscendDequant:
dst[r][c] = src[r][c] * deqScale[c] for the first calCount of each row, in float and rounded
once to dst's type; a uint64 scale's float in its low half; single-row mode reading
{1, k * calCount, calCount} as k rows; a calCount past n an error at the call. And Select
with a mask of bytes (adv_math.h, asc_k_adv_select), both operand orders. AscendAntiQuant
per channel (with and without offset, transposed) and per tensor, in half (each step rounded,
as dav-2201's vector unit computes it) and in bfloat16 (float32, rounded once). Against
NumPy."""

from __future__ import annotations

import shutil

import numpy as np
import pytest

import pyasc

pytestmark = pytest.mark.skipif(shutil.which("c++") is None and shutil.which("g++") is None,
                                reason="no C++ compiler")

SRC = r"""
#include "kernel_operator.h"

template <typename D, typename S, AscendC::DeQuantMode mode>
__aicore__ inline void run(GM_ADDR x, GM_ADDR scale, GM_ADDR y, uint32_t m, uint32_t n,
                           uint32_t count)
{
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> in, sc, out;
    pipe.InitBuffer(in, 4096 * 4);
    pipe.InitBuffer(sc, 256 * sizeof(S));
    pipe.InitBuffer(out, 4096 * sizeof(D));
    AscendC::GlobalTensor<int32_t> xg;
    AscendC::GlobalTensor<S> sg;
    AscendC::GlobalTensor<D> yg;
    xg.SetGlobalBuffer((__gm__ int32_t *)x, 4096);
    sg.SetGlobalBuffer((__gm__ S *)scale, 256);
    yg.SetGlobalBuffer((__gm__ D *)y, 4096);
    AscendC::LocalTensor<int32_t> src = in.Get<int32_t>();
    AscendC::LocalTensor<S> deqScale = sc.Get<S>();
    AscendC::LocalTensor<D> dst = out.Get<D>();
    AscendC::DataCopy(src, xg, 4096);
    AscendC::DataCopy(deqScale, sg, 256);
    AscendC::DataCopy(dst, yg, 4096);
    AscendC::PipeBarrier<PIPE_ALL>();
    AscendC::AscendDequant<D, S, mode>(dst, src, deqScale, {m, n, count});  // the Dequant line
    AscendC::PipeBarrier<PIPE_ALL>();
    AscendC::DataCopy(yg, dst, 4096);
}

#define KERNEL(NAME, D, S, MODE)                                                              \
    extern "C" __global__ __aicore__ void NAME(GM_ADDR x, GM_ADDR s, GM_ADDR y, uint32_t m,    \
                                               uint32_t n, uint32_t count)                    \
    {                                                                                         \
        run<D, S, AscendC::DeQuantMode::MODE>(x, s, y, m, n, count);                           \
    }
KERNEL(float_float, float, float, DEQUANT_WITH_SINGLE_ROW)
KERNEL(half_bf16, half, bfloat16_t, DEQUANT_WITH_SINGLE_ROW)
KERNEL(float_u64, float, uint64_t, DEQUANT_WITH_SINGLE_ROW)
KERNEL(float_multi, float, float, DEQUANT_WITH_MULTI_ROW)
"""


def _bf16(values):
    """float32 values rounded to bfloat16 (nearest even), as uint16 bits and as float32."""
    bits = np.asarray(values, np.float32).view(np.uint32)
    rounded = ((bits + 0x7FFF + ((bits >> 16) & 1)) >> 16).astype(np.uint16)
    return rounded, (rounded.astype(np.uint32) << 16).view(np.float32)


@pytest.mark.parametrize("kernel,dst", [("float_float", np.float32), ("half_bf16", np.float16),
                                        ("float_u64", np.float32)])
def test_dequant_matches_numpy(kernel, dst):
    rng = np.random.default_rng(1)
    m, n, count = 6, 64, 40
    x = rng.integers(-1000, 1000, 4096).astype(np.int32)
    scale32 = rng.uniform(-2, 2, 256).astype(np.float32)
    if kernel == "half_bf16":
        scale, scale32 = _bf16(scale32)
    elif kernel == "float_u64":  # the float in the low half, junk in the high
        scale = scale32.view(np.uint32).astype(np.uint64) | (np.uint64(0xDEAD) << np.uint64(32))
    else:
        scale = scale32
    y = np.full(4096, 7, dst)
    pyasc.ascendc.load(SRC, kernel)[1](x, scale, y, np.uint32(m), np.uint32(n), np.uint32(count))
    want = np.full((m, n), 7, dst)
    rows = x[:m * n].reshape(m, n)
    want[:, :count] = (rows[:, :count].astype(np.float32) * scale32[:count]).astype(dst)
    np.testing.assert_array_equal(y[:m * n].reshape(m, n), want)


@pytest.mark.parametrize("kernel,rows", [("float_float", 4), ("float_multi", 1)])
def test_single_row_mode_reads_one_long_row_as_rows(kernel, rows):
    """{1, 4 * 16, 16}: four rows of 16 in single-row mode, one row's first 16 in multi-row."""
    x = np.arange(4096, dtype=np.int32)
    scale = np.arange(1, 257, dtype=np.float32)
    y = np.zeros(4096, np.float32)
    pyasc.ascendc.load(SRC, kernel)[1](x, scale, y, np.uint32(1), np.uint32(64), np.uint32(16))
    want = np.zeros(64, np.float32)
    for r in range(rows):
        want[r * 16:(r + 1) * 16] = x[r * 16:(r + 1) * 16] * scale[:16]
    np.testing.assert_array_equal(y[:64], want)


def test_a_count_past_the_row_fails_at_its_line():
    line = SRC[:SRC.index("// the Dequant line")].count("\n") + 1
    with pytest.raises(pyasc.KernelError,
                       match=rf"<string>:{line}: AscendDequant: .*calCount must be in \[0, n\]"):
        pyasc.ascendc.load(SRC, "float_multi")[1](np.zeros(4096, np.int32),
                                                  np.zeros(256, np.float32),
                                                  np.zeros(4096, np.float32), np.uint32(2),
                                                  np.uint32(8), np.uint32(16))


SELECT_SRC = r"""
#include "kernel_operator.h"

// rows x cols elements, mask rows of maskCols bytes; scalarFirst: Select(dst, 2.5, src, ...)
extern "C" __global__ __aicore__ void select_bytes(GM_ADDR x, GM_ADDR m, GM_ADDR y,
                                                   uint32_t rows, uint32_t cols,
                                                   uint32_t maskCols, uint32_t scalarFirst)
{
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> in, mb, out, tmp;
    pipe.InitBuffer(in, 4096 * 4);
    pipe.InitBuffer(mb, 4096);
    pipe.InitBuffer(out, 4096 * 4);
    pipe.InitBuffer(tmp, 1024);
    AscendC::GlobalTensor<float> xg, yg;
    AscendC::GlobalTensor<uint8_t> mg;
    xg.SetGlobalBuffer((__gm__ float *)x, 4096);
    mg.SetGlobalBuffer((__gm__ uint8_t *)m, 4096);
    yg.SetGlobalBuffer((__gm__ float *)y, 4096);
    AscendC::LocalTensor<float> src = in.Get<float>(), dst = out.Get<float>();
    AscendC::LocalTensor<uint8_t> mask = mb.Get<uint8_t>();
    AscendC::DataCopy(src, xg, 4096);
    AscendC::DataCopy(mask, mg, 4096);
    AscendC::PipeBarrier<PIPE_ALL>();
    AscendC::SelectWithBytesMaskShapeInfo info;
    info.firstAxis = rows;
    info.srcLastAxis = cols;
    info.maskLastAxis = maskCols;
    if (scalarFirst) {
        AscendC::Select(dst, 2.5f, src, mask, tmp.Get<uint8_t>(), info);
    } else {
        AscendC::Select(dst, src, 2.5f, mask, tmp.Get<uint8_t>(), info);  // the Select line
    }
    AscendC::PipeBarrier<PIPE_ALL>();
    AscendC::DataCopy(yg, dst, 4096);
}
"""


@pytest.mark.parametrize("scalar_first", [0, 1])
@pytest.mark.parametrize("mask_cols", [64, 96])
def test_select_with_a_byte_mask(scalar_first, mask_cols):
    """Where the mask is not zero, the second operand; where zero, the first; a mask row
    longer than the source's read at its own stride."""
    rows, cols = 8, 64
    rng = np.random.default_rng(mask_cols + scalar_first)
    x = rng.uniform(-4, 4, 4096).astype(np.float32)
    m = rng.integers(0, 3, 4096).astype(np.uint8)  # 0, 1 or 2: any non-zero byte selects
    y = np.zeros(4096, np.float32)
    pyasc.ascendc.load(SELECT_SRC, "select_bytes")[1](x, m, y, np.uint32(rows), np.uint32(cols),
                                                      np.uint32(mask_cols),
                                                      np.uint32(scalar_first))
    src = x[:rows * cols].reshape(rows, cols)
    set_ = m[:rows * mask_cols].reshape(rows, mask_cols)[:, :cols] != 0
    want = np.where(set_, src, np.float32(2.5)) if scalar_first else \
        np.where(set_, np.float32(2.5), src)
    np.testing.assert_array_equal(y[:rows * cols].reshape(rows, cols), want)


def test_select_with_a_mask_shorter_than_the_source_fails_at_its_line():
    line = SELECT_SRC[:SELECT_SRC.index("// the Select line")].count("\n") + 1
    z = np.zeros(4096, np.float32)
    with pytest.raises(pyasc.KernelError, match=rf"<string>:{line}: Select: .*maskLastAxis 32"):
        pyasc.ascendc.load(SELECT_SRC, "select_bytes")[1](z, np.zeros(4096, np.uint8), z.copy(),
                                                          np.uint32(8), np.uint32(64),
                                                          np.uint32(32), np.uint32(0))


# --- AscendAntiQuant ----------------------------------------------------------------------------

ANTI = r"""
#include "kernel_operator.h"

constexpr uint32_t K = 8, N = 64;  // the source [K, N], or [N, K] transposed

// which: 0 per channel (offset and scale [2, N]: 4 rows a group), 1 no offset, 2 per tensor,
// 3 transposed (offset and scale [N, 2]: 4 columns a group)
template <typename T>
__aicore__ inline void run(GM_ADDR x, GM_ADDR o, GM_ADDR s, GM_ADDR y, int32_t which)
{
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> in, ob, sb, out, tb;
    pipe.InitBuffer(in, K * N);
    pipe.InitBuffer(ob, 2 * N * sizeof(T));
    pipe.InitBuffer(sb, 2 * N * sizeof(T));
    pipe.InitBuffer(out, K * N * sizeof(T));
    pipe.InitBuffer(tb, 1024);
    AscendC::GlobalTensor<int8_t> xg;
    AscendC::GlobalTensor<T> og, sg, yg;
    xg.SetGlobalBuffer((__gm__ int8_t *)x, K * N);
    og.SetGlobalBuffer((__gm__ T *)o, 2 * N);
    sg.SetGlobalBuffer((__gm__ T *)s, 2 * N);
    yg.SetGlobalBuffer((__gm__ T *)y, K * N);
    AscendC::LocalTensor<int8_t> src = in.Get<int8_t>();
    AscendC::LocalTensor<T> offset = ob.Get<T>(), scale = sb.Get<T>(), dst = out.Get<T>();
    AscendC::LocalTensor<uint8_t> tmp = tb.Get<uint8_t>();
    AscendC::DataCopy(src, xg, K * N);
    AscendC::DataCopy(offset, og, 2 * N);
    AscendC::DataCopy(scale, sg, 2 * N);
    AscendC::PipeBarrier<PIPE_ALL>();
    AscendC::AntiQuantShapeInfo rowsOf2 = {2, N, 2, N}, colsOf2 = {N, 2, N, 2};
    switch (which) {
    case 0: AscendC::AscendAntiQuant<int8_t, T, false>(dst, src, offset, scale, tmp, K, rowsOf2); break;
    case 1: AscendC::AscendAntiQuant<int8_t, T, false>(dst, src, scale, tmp, K, rowsOf2); break;
    case 2:
        AscendC::AscendAntiQuant<int8_t, T, false>(dst, src, static_cast<T>(1.5f),
                                                   static_cast<T>(0.375f), tmp, K);
        break;
    default: AscendC::AscendAntiQuant<int8_t, T, true>(dst, src, offset, scale, tmp, K, colsOf2);
    }
    AscendC::PipeBarrier<PIPE_ALL>();
    AscendC::DataCopy(yg, dst, K * N);
}

extern "C" __global__ __aicore__ void anti_half(GM_ADDR x, GM_ADDR o, GM_ADDR s, GM_ADDR y,
                                                int32_t which)
{
    run<half>(x, o, s, y, which);
}

extern "C" __global__ __aicore__ void anti_bf16(GM_ADDR x, GM_ADDR o, GM_ADDR s, GM_ADDR y,
                                                int32_t which)
{
    run<bfloat16_t>(x, o, s, y, which);
}
"""


@pytest.mark.parametrize("out", ["half", "bf16"])
@pytest.mark.parametrize("which", range(4), ids=["per_channel", "no_offset", "per_tensor",
                                                  "transposed"])
def test_antiquant_matches_numpy(out, which):
    rng = np.random.default_rng(90 + which)
    k, n = 8, 64
    x = rng.integers(-128, 128, k * n).astype(np.int8)
    o = rng.uniform(-10, 10, 2 * n).astype(np.float32)
    s = rng.uniform(-2, 2, 2 * n).astype(np.float32)
    if out == "half":
        o, s = o.astype(np.float16), s.astype(np.float16)
        o_in, s_in = o, s
        y = np.zeros(k * n, np.float16)
    else:
        (o_in, o), (s_in, s) = _bf16(o), _bf16(s)
        y = np.zeros(k * n, np.uint16)
    pyasc.ascendc.load(ANTI, f"anti_{out}")[1](x, o_in, s_in, y, np.int32(which))
    xf = x.astype(np.float32).reshape(k, n)
    if which == 0:
        off, sc = np.repeat(o.reshape(2, n), 4, 0), np.repeat(s.reshape(2, n), 4, 0)
    elif which == 1:
        off, sc = np.zeros((k, n), np.float32), np.repeat(s.reshape(2, n), 4, 0)
    elif which == 2:
        off, sc = np.full((k, n), 1.5, np.float32), np.full((k, n), 0.375, np.float32)
    else:  # [n, k] rows, 4 columns a group
        xf = x.astype(np.float32).reshape(n, k)
        off, sc = np.repeat(o.reshape(n, 2), 4, 1), np.repeat(s.reshape(n, 2), 4, 1)
    if out == "half":  # the cast, the add and the multiply each round to half
        h = (xf.astype(np.float16) + off.astype(np.float16)).astype(np.float16)
        want = (h.astype(np.float32) * sc.astype(np.float16).astype(np.float32)).astype(np.float16)
        np.testing.assert_array_equal(y.reshape(want.shape), want)
    else:  # in float32, rounded once
        want = _bf16(((xf + off) * sc).astype(np.float32))[0]
        np.testing.assert_array_equal(y.reshape(want.shape), want)


def test_antiquant_groups_that_do_not_divide_fail_at_the_call():
    bad = ANTI.replace("rowsOf2 = {2, N, 2, N}", "rowsOf2 = {3, N, 3, N}")
    line = bad[:bad.index("case 0:")].count("\n") + 1
    x = np.zeros(8 * 64, np.int8)
    p = np.zeros(128, np.float16)
    with pytest.raises(pyasc.KernelError, match=rf"<string>:{line}: AscendAntiQuant: .*3 groups"):
        pyasc.ascendc.load(bad, "anti_half")[1](x, p, p, np.zeros(8 * 64, np.float16),
                                                np.int32(0))
