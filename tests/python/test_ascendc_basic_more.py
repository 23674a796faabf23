"""More of Ascend C's basic APIs on the simulated cores, each through the runtime: the
special register of ReduceSum (GetReduceRepeatSumSpr, GetAccVal). Each kernel is our own,
checked against NumPy."""

from __future__ import annotations

import shutil

import numpy as np
import pytest

import pyasc

pytestmark = pytest.mark.skipif(shutil.which("c++") is None and shutil.which("g++") is None,
                                reason="no C++ compiler")

# out[0]: the register before any ReduceSum; out[1], out[2]: dst[0] and the register after a
# count-form ReduceSum of n elements; out[3]: the register after a mask-form ReduceSum, which
# does not set it; out[4]: GetAccVal.
SPR_SRC = r"""
#include "kernel_operator.h"
using namespace AscendC;

template <typename T>
__aicore__ inline void Spr(GM_ADDR x, GM_ADDR out, uint32_t n)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> sb, db, wb;
    pipe.InitBuffer(sb, 4096 * sizeof(T));
    pipe.InitBuffer(db, 64 * sizeof(T));
    pipe.InitBuffer(wb, 4096 * sizeof(T));
    GlobalTensor<T> xg;
    GlobalTensor<float> og;
    xg.SetGlobalBuffer((__gm__ T *)x);
    og.SetGlobalBuffer((__gm__ float *)out);
    LocalTensor<T> s = sb.Get<T>(), d = db.Get<T>(), w = wb.Get<T>();
    og.SetValue(0, (float)GetReduceRepeatSumSpr<T>());
    DataCopy(s, xg, 4096);
    SetFlag<HardEvent::MTE2_V>(EVENT_ID0);
    WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);
    ReduceSum<T>(d, s, w, n);
    SetFlag<HardEvent::V_S>(EVENT_ID0);
    WaitFlag<HardEvent::V_S>(EVENT_ID0);
    og.SetValue(1, (float)d.GetValue(0));
    og.SetValue(2, (float)GetReduceRepeatSumSpr<T>());
    SetFlag<HardEvent::S_V>(EVENT_ID0);
    WaitFlag<HardEvent::S_V>(EVENT_ID0);
    ReduceSum<T>(d, s, w, 32, 1, 8);
    SetFlag<HardEvent::V_S>(EVENT_ID1);
    WaitFlag<HardEvent::V_S>(EVENT_ID1);
    og.SetValue(3, (float)GetReduceRepeatSumSpr<T>());
    og.SetValue(4, (float)GetAccVal<T>());
}

extern "C" __global__ __aicore__ void spr_half(GM_ADDR x, GM_ADDR out, uint32_t n) { Spr<half>(x, out, n); }
extern "C" __global__ __aicore__ void spr_float(GM_ADDR x, GM_ADDR out, uint32_t n) { Spr<float>(x, out, n); }
"""


@pytest.mark.parametrize("debug", [False, True], ids=["plain", "checked"])
@pytest.mark.parametrize("dtype,n", [(np.float16, 300), (np.float32, 4000), (np.float32, 7)])
def test_reduce_sum_leaves_its_sum_in_the_register(dtype, n, debug):
    rng = np.random.default_rng(n)
    x = rng.uniform(-1, 1, 4096).astype(dtype)
    out = np.full(5, np.nan, np.float32)
    name = "spr_half" if dtype == np.float16 else "spr_float"
    pyasc.ascendc.load(SPR_SRC, name, debug=debug)[1](x, out, n)
    assert out[0] == 0
    assert out[1] == out[2] == out[3] == out[4]  # the count form's sum, kept past the mask form
    tol = 2e-2 if dtype == np.float16 else 1e-4
    np.testing.assert_allclose(out[2], x[:n].astype(np.float64).sum(), rtol=tol, atol=tol)
