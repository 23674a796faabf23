"""The math library's Exp and Log on the simulated cores (include/ascendc/kernel_operator/
adv_math.h): ``Exp<T, taylorExpandLevel, isReuseSource>(dst, src, sharedTmpBuffer, calCount)`` and
the form without a scratch buffer, ``Log<T, isReuseSource>(dst, src[, calCount])``, as CANN's exp
and log examples call them, against NumPy's float64 results rounded to the element type; a
scratch buffer below GetExpMaxMinTmpSize's minimum fails at its line. And CANN's KERNEL_LOG and
ASCENDC_ASSERT (kernel_operator/sys.h) as its CPU debug build has them."""

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
    # with the scratch buffer, 10 Taylor terms of the fraction, as a Python kernel's
    # adv.exp computes them (test_adv_math's tolerance for such levels)
    np.testing.assert_allclose(y[:COUNT].astype(np.float64), want.astype(np.float64),
                               rtol=(1e-6 if with_tmp else 2e-7) if dtype == np.float32 else 1e-3)


@pytest.mark.parametrize("dtype,kernel,tmp", [(np.float32, "exp_float", 3 * 256 - 32),
                                              (np.float16, "exp_half", 3 * 256)])
def test_exp_scratch_below_the_minimum_fails_at_its_line(dtype, kernel, tmp):
    line = SRC[:SRC.index("// the Exp line")].count("\n") + 1
    x = np.zeros(1024, dtype)
    with pytest.raises(pyasc.KernelError,
                       match=rf"<string>:{line}: adv.exp: the shared tmp buffer holds {tmp} bytes"):
        pyasc.ascendc.load(SRC, kernel)[1](x, x.copy(), np.uint32(tmp), np.uint32(1))


LOG_SRC = r"""
#include "kernel_operator.h"

extern "C" __global__ __aicore__ void log_float(GM_ADDR x, GM_ADDR y, uint32_t count)
{
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> in, out;
    pipe.InitBuffer(in, 1024 * sizeof(float));
    pipe.InitBuffer(out, 1024 * sizeof(float));
    AscendC::GlobalTensor<float> xg, yg;
    xg.SetGlobalBuffer((__gm__ float *)x, 1024);
    yg.SetGlobalBuffer((__gm__ float *)y, 1024);
    AscendC::LocalTensor<float> src = in.Get<float>(), dst = out.Get<float>();
    AscendC::DataCopy(src, xg, 1024);
    AscendC::PipeBarrier<PIPE_ALL>();
    ASCENDC_ASSERT(count <= 1024, { KERNEL_LOG(KERNEL_ERROR, "count %u > 1024", count); });
    if (count == 0) {
        AscendC::Log(dst, src);  // every element
    } else {
        AscendC::Log<float, false>(dst, src, count);
    }
    KERNEL_LOG(KERNEL_INFO, "logged %u", count);
    AscendC::PipeBarrier<PIPE_ALL>();
    AscendC::DataCopy(yg, dst, 1024);
}
"""


@pytest.mark.parametrize("count", [1024, 0, 300])
def test_log_matches_numpy(count, capfd):
    rng = np.random.default_rng(5)
    x = rng.uniform(1e-3, 1e3, 1024).astype(np.float32)
    y = x.copy()
    pyasc.ascendc.load(LOG_SRC, "log_float")[1](x, y, np.uint32(count))
    n = count or 1024
    np.testing.assert_allclose(y[:n].astype(np.float64), np.log(x[:n].astype(np.float64)),
                               rtol=2e-7, atol=1e-7)
    assert f"[INFO][Block_0][<string>:" in capfd.readouterr().out


def test_ascendc_assert_logs_and_stops_the_block(capfd):
    x = np.ones(1024, np.float32)
    with pytest.raises(pyasc.KernelError):
        pyasc.ascendc.load(LOG_SRC, "log_float")[1](x, x.copy(), np.uint32(5000))
    out = capfd.readouterr().out
    assert "[ERROR][Block_0]" in out and "count 5000 > 1024" in out
    assert "ASCENDC_ASSERT(count <= 1024) failed" in out
