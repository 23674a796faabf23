"""The math library's Exp on the simulated cores (include/ascendc/kernel_operator/vector.h):
``Exp<T, taylorExpandLevel, isReuseSource>(dst, src, sharedTmpBuffer, calCount)`` and the form
without a scratch buffer, as CANN's exp example calls them, against NumPy's float64 e^x rounded
to the element type; a scratch buffer below GetExpMaxMinTmpSize's minimum fails at its line."""

from __future__ import annotations

import shutil

import numpy as np
import pytest

import pyasc

pytestmark = pytest.mark.skipif(shutil.which("c++") is None and shutil.which("g++") is None,
                                reason="no C++ compiler")

COUNT = 1000  # not a whole number of repeats: calCount stops inside one

SRC = r"""
#include "kernel_operator.h"

template <typename T>
__aicore__ inline void run(GM_ADDR x, GM_ADDR y, uint32_t tmpBytes, uint32_t withTmp)
{
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> in, out, tmp;
    pipe.InitBuffer(in, 1024 * sizeof(T));
    pipe.InitBuffer(out, 1024 * sizeof(T));
    pipe.InitBuffer(tmp, tmpBytes);
    AscendC::GlobalTensor<T> xg, yg;
    xg.SetGlobalBuffer((__gm__ T *)x, 1024);
    yg.SetGlobalBuffer((__gm__ T *)y, 1024);
    AscendC::LocalTensor<T> src = in.Get<T>(), dst = out.Get<T>();
    AscendC::DataCopy(src, xg, 1024);
    AscendC::PipeBarrier<PIPE_ALL>();
    if (withTmp) {
        AscendC::Exp<T, 10, false>(dst, src, tmp.Get<uint8_t>(), COUNT);  // the Exp line
    } else {
        AscendC::Exp<T, 0>(dst, src, COUNT);
    }
    AscendC::PipeBarrier<PIPE_ALL>();
    AscendC::DataCopy(yg, dst, 1024);
}

extern "C" __global__ __aicore__ void exp_float(GM_ADDR x, GM_ADDR y, uint32_t tmpBytes,
                                                uint32_t withTmp)
{
    run<float>(x, y, tmpBytes, withTmp);
}

extern "C" __global__ __aicore__ void exp_half(GM_ADDR x, GM_ADDR y, uint32_t tmpBytes,
                                               uint32_t withTmp)
{
    run<half>(x, y, tmpBytes, withTmp);
}
""".replace("COUNT", str(COUNT))


@pytest.mark.parametrize("dtype,kernel,tmp", [(np.float32, "exp_float", 3 * 256),
                                              (np.float16, "exp_half", 4 * 256)])
@pytest.mark.parametrize("with_tmp", [1, 0])
def test_exp_matches_numpy(dtype, kernel, tmp, with_tmp):
    rng = np.random.default_rng(11)
    x = rng.uniform(-10, 10, 1024).astype(dtype)
    y = np.full(1024, 7, dtype)
    pyasc.ascendc.load(SRC, kernel)[1](x, y, np.uint32(tmp), np.uint32(with_tmp))
    want = np.exp(x[:COUNT].astype(np.float64)).astype(dtype)
    np.testing.assert_allclose(y[:COUNT].astype(np.float64), want.astype(np.float64),
                               rtol=2e-7 if dtype == np.float32 else 1e-3)


@pytest.mark.parametrize("dtype,kernel,tmp", [(np.float32, "exp_float", 3 * 256 - 32),
                                              (np.float16, "exp_half", 3 * 256)])
def test_exp_scratch_below_the_minimum_fails_at_its_line(dtype, kernel, tmp):
    line = SRC[:SRC.index("// the Exp line")].count("\n") + 1
    x = np.zeros(1024, dtype)
    with pytest.raises(pyasc.KernelError, match=rf"<string>:{line}:.*Exp: the shared buffer"):
        pyasc.ascendc.load(SRC, kernel)[1](x, x.copy(), np.uint32(tmp), np.uint32(1))
