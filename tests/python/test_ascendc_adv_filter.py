"""Ascend C's DropOut on the simulated cores (include/ascendc/kernel_operator/adv_math.h, the
runtime's asc_k_adv_dropout): in the four modes CANN infers from the shape (a mask byte per
element, with its rows as long as the source's or longer; a mask bit per element, LSB first,
rows an eighth as long or padded) an element stays, times 1/keepProb rounded to the element
type, or becomes 0, against NumPy; checked mode refuses a keepProb outside (0, 1), and a mask
row too short for its source row fails at the call."""

from __future__ import annotations

import shutil

import numpy as np
import pytest

import pyasc

pytestmark = pytest.mark.skipif(shutil.which("c++") is None and shutil.which("g++") is None,
                                reason="no C++ compiler")

ROWS, COLS = 4, 64

SRC = r"""
#include "kernel_operator.h"

template <typename T>
__aicore__ inline void run(GM_ADDR x, GM_ADDR m, GM_ADDR y, uint32_t maskLast, float keep)
{
    constexpr uint32_t ROWS = 4, COLS = 64;
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> in, mb, out, tb;
    pipe.InitBuffer(in, ROWS * COLS * sizeof(T));
    pipe.InitBuffer(mb, ROWS * 128);
    pipe.InitBuffer(out, ROWS * COLS * sizeof(T));
    pipe.InitBuffer(tb, 512);
    AscendC::GlobalTensor<T> xg, yg;
    AscendC::GlobalTensor<uint8_t> mg;
    xg.SetGlobalBuffer((__gm__ T *)x, ROWS * COLS);
    mg.SetGlobalBuffer((__gm__ uint8_t *)m, ROWS * 128);
    yg.SetGlobalBuffer((__gm__ T *)y, ROWS * COLS);
    AscendC::LocalTensor<T> src = in.Get<T>(), dst = out.Get<T>();
    AscendC::LocalTensor<uint8_t> mask = mb.Get<uint8_t>(), tmp = tb.Get<uint8_t>();
    AscendC::DataCopy(src, xg, ROWS * COLS);
    AscendC::DataCopy(mask, mg, ROWS * 128);
    AscendC::PipeBarrier<PIPE_ALL>();
    AscendC::DropOutShapeInfo info;
    info.firstAxis = ROWS, info.srcLastAxis = COLS, info.maskLastAxis = maskLast;
    AscendC::DropOut(dst, src, mask, tmp, keep, info);
    AscendC::PipeBarrier<PIPE_ALL>();
    AscendC::DataCopy(yg, dst, ROWS * COLS);
}

extern "C" __global__ __aicore__ void drop_float(GM_ADDR x, GM_ADDR m, GM_ADDR y,
                                                 uint32_t maskLast, float keep)
{
    run<float>(x, m, y, maskLast, keep);
}

extern "C" __global__ __aicore__ void drop_half(GM_ADDR x, GM_ADDR m, GM_ADDR y,
                                                uint32_t maskLast, float keep)
{
    run<half>(x, m, y, maskLast, keep);
}
"""


def _kept(mask: np.ndarray, mask_last: int) -> np.ndarray:
    rows = mask[:ROWS * mask_last].reshape(ROWS, mask_last)
    if mask_last >= COLS:  # bytes
        return rows[:, :COLS] != 0
    bits = np.unpackbits(rows, axis=1, bitorder="little")
    return bits[:, :COLS].astype(bool)


@pytest.mark.parametrize("dtype,kernel", [(np.float32, "drop_float"), (np.float16, "drop_half")])
@pytest.mark.parametrize("mask_last", [COLS, 96, COLS // 8, 32],
                         ids=["bytes", "byte_rows_padded", "bits", "bit_rows_padded"])
def test_dropout_matches_numpy(dtype, kernel, mask_last):
    rng = np.random.default_rng(mask_last)
    x = rng.uniform(-100, 100, (ROWS, COLS)).astype(dtype)
    if mask_last >= COLS:
        mask = rng.integers(0, 3, ROWS * 128).astype(np.uint8)  # any non-zero byte keeps
    else:
        mask = rng.integers(0, 256, ROWS * 128).astype(np.uint8)
    y = np.full((ROWS, COLS), 7, dtype)
    keep = np.float32(0.3)
    pyasc.ascendc.load(SRC, kernel)[1](x, mask, y, np.uint32(mask_last), keep)
    scale = dtype(np.float32(1) / keep)
    want = np.where(_kept(mask, mask_last), (x.astype(np.float32) * np.float32(scale)).astype(dtype),
                    dtype(0))
    np.testing.assert_array_equal(y, want)


def test_dropout_checks():
    x = np.ones((ROWS, COLS), np.float32)
    mask = np.ones(ROWS * 128, np.uint8)
    line = SRC[:SRC.index("AscendC::DropOut(")].count("\n") + 1
    k = pyasc.ascendc.load(SRC, "drop_float", debug=True)
    with pytest.raises(pyasc.KernelError, match=rf"<string>:{line}: DropOut: keepProb 0 is "):
        k[1](x, mask, x.copy(), np.uint32(COLS), np.float32(0))
    # a bit mask row of 7 bytes cannot cover 64 elements
    with pytest.raises(pyasc.KernelError, match=rf"<string>:{line}: DropOut: the shape"):
        k[1](x, mask, x.copy(), np.uint32(7), np.float32(0.5))
