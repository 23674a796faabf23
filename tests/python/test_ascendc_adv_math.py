"""The math library's Exp and Log on the simulated cores (include/ascendc/kernel_operator/
adv_math.h): ``Exp<T, taylorExpandLevel, isReuseSource>(dst, src, sharedTmpBuffer, calCount)`` and
the form without a scratch buffer, ``Log<T, isReuseSource>(dst, src[, calCount])``, as CANN's exp
and log examples call them, against NumPy's float64 results rounded to the element type; a
scratch buffer below GetExpMaxMinTmpSize's minimum fails at its line. ``Power`` of two tensors,
a tensor and a scalar exponent, a scalar base and a tensor, with its ``PowerConfig``. And CANN's
KERNEL_LOG and ASCENDC_ASSERT (kernel_operator/sys.h) as its CPU debug build has them."""

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


POWER_SRC = r"""
#include "kernel_operator.h"

// mode 0: tensor ** tensor, 1: tensor ** scalar, 2: scalar ** tensor (CANN's power example's
// scenarios), with GetPowerMaxMinTmpSize's least buffer, tmpBytes
template <typename T>
__aicore__ inline void run(GM_ADDR b, GM_ADDR e, GM_ADDR y, uint32_t mode, uint32_t tmpBytes)
{
    static constexpr AscendC::PowerConfig precise = {AscendC::PowerAlgo::DOUBLE_FLOAT_TECH};
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> bb, eb, ob, tb;
    pipe.InitBuffer(bb, 256 * sizeof(T));
    pipe.InitBuffer(eb, 256 * sizeof(T));
    pipe.InitBuffer(ob, 256 * sizeof(T));
    pipe.InitBuffer(tb, tmpBytes);
    AscendC::GlobalTensor<T> bg, eg, yg;
    bg.SetGlobalBuffer((__gm__ T *)b, 256);
    eg.SetGlobalBuffer((__gm__ T *)e, 256);
    yg.SetGlobalBuffer((__gm__ T *)y, 256);
    AscendC::LocalTensor<T> base = bb.Get<T>(), exp = eb.Get<T>(), dst = ob.Get<T>();
    AscendC::LocalTensor<uint8_t> tmp = tb.Get<uint8_t>();
    AscendC::DataCopy(base, bg, 256);
    AscendC::DataCopy(exp, eg, 256);
    AscendC::DataCopy(dst, yg, 256);  // what calCount leaves alone comes back as it was
    AscendC::PipeBarrier<PIPE_ALL>();
    if (mode == 0) {
        AscendC::Power<T, false, precise>(dst, base, exp, tmp);
    } else if (mode == 1) {
        AscendC::Power<T, false>(dst, base, exp.GetValue(0), tmp, 200);
    } else {
        AscendC::Power(dst, base.GetValue(0), exp);  // the scalar-base line
    }
    AscendC::PipeBarrier<PIPE_ALL>();
    AscendC::DataCopy(yg, dst, 256);
}

extern "C" __global__ __aicore__ void power_float(GM_ADDR b, GM_ADDR e, GM_ADDR y, uint32_t mode,
                                                  uint32_t tmpBytes)
{
    run<float>(b, e, y, mode, tmpBytes);
}

extern "C" __global__ __aicore__ void power_half(GM_ADDR b, GM_ADDR e, GM_ADDR y, uint32_t mode,
                                                 uint32_t tmpBytes)
{
    run<half>(b, e, y, mode, tmpBytes);
}
"""


@pytest.mark.parametrize("dtype,kernel,least", [(np.float32, "power_float", (1280, 1536, 1536)),
                                                (np.float16, "power_half", (2048, 2048, 2048))])
@pytest.mark.parametrize("mode", [0, 1, 2])
def test_power_of_tensors_and_scalars_matches_numpy(dtype, kernel, least, mode):
    """Power's three operand forms, each with GetPowerMaxMinTmpSize's least buffer (dav-2201's
    counts); 32 bytes less fails at the call's line."""
    rng = np.random.default_rng(3 + mode)
    b = rng.uniform(0.5, 2.0, 256).astype(dtype)
    e = rng.uniform(-3.0, 3.0, 256).astype(dtype)
    y = np.full(256, 9, dtype)
    power = pyasc.ascendc.load(POWER_SRC, kernel)
    power[1](b, e, y, np.uint32(mode), np.uint32(least[mode]))
    b64, e64 = b.astype(np.float64), e.astype(np.float64)
    want = {0: b64 ** e64, 1: b64 ** e64[0], 2: b64[0] ** e64}[mode].astype(dtype)
    n = 200 if mode == 1 else 256
    np.testing.assert_allclose(y[:n].astype(np.float64), want[:n].astype(np.float64),
                               rtol=1e-6 if dtype == np.float32 else 1e-3)
    assert (y[n:] == 9).all()
    if mode != 2:  # the scalar-base line has no buffer
        with pytest.raises(pyasc.KernelError, match=r"adv.power: the shared tmp buffer holds "
                                                    rf"{least[mode] - 32} bytes"):
            power[1](b, e, y, np.uint32(mode), np.uint32(least[mode] - 32))
