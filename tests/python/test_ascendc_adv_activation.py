"""Ascend C's activation, clamp, fmod and index APIs on the simulated cores
(include/ascendc/kernel_operator/adv_math.h, the runtime's asc_k_adv_elementwise):
``Gelu``, ``Sigmoid``, ``Silu``, ``Swish``, ``ClampMin``, ``ClampMax``, ``GeGLU``, ``Fmod``,
``SwiGLU``, ``Arange`` and ``FasterGelu`` (built from the vector API in CANN's order) in the
forms CANN's examples call, against NumPy's float64 values of the
formulas CANN documents, rounded to the element type; a count past the tensor and a
negative count fail at the call's line."""

from __future__ import annotations

import shutil

import numpy as np
import pytest

import pyasc

pytestmark = pytest.mark.skipif(shutil.which("c++") is None and shutil.which("g++") is None,
                                reason="no C++ compiler")

N = 256

SRC = r"""
#include "kernel_operator.h"

constexpr int32_t N = NUMBER;

// which: 0 Gelu, 1 Sigmoid, 2 Silu, 3 Swish, 4 ClampMin, 5 ClampMax, 6 GeGLU, 7 Fmod,
// 8 SwiGLU, 9 Arange, 10 FasterGelu; count elements of N, the rest of y left as it was
template <typename T>
__aicore__ inline void run(GM_ADDR a, GM_ADDR b, GM_ADDR y, int32_t which, int32_t count)
{
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> ab, bb, ob, tb;
    pipe.InitBuffer(ab, N * sizeof(T));
    pipe.InitBuffer(bb, N * sizeof(T));
    pipe.InitBuffer(ob, N * sizeof(T));
    pipe.InitBuffer(tb, 4096);
    AscendC::GlobalTensor<T> ag, bg, yg;
    ag.SetGlobalBuffer((__gm__ T *)a, N);
    bg.SetGlobalBuffer((__gm__ T *)b, N);
    yg.SetGlobalBuffer((__gm__ T *)y, N);
    AscendC::LocalTensor<T> x = ab.Get<T>(), z = bb.Get<T>(), dst = ob.Get<T>();
    AscendC::LocalTensor<uint8_t> tmp = tb.Get<uint8_t>();
    AscendC::DataCopy(x, ag, N);
    AscendC::DataCopy(z, bg, N);
    AscendC::DataCopy(dst, yg, N);
    AscendC::PipeBarrier<PIPE_ALL>();
    const T c = static_cast<T>(0.75f);
    switch (which) {
    case 0: AscendC::Gelu(dst, x, tmp, count); break;
    case 1: AscendC::Sigmoid<T, false>(dst, x, count); break;
    case 2: AscendC::Silu<T, false>(dst, x, count); break;
    case 3: AscendC::Swish(dst, x, count, static_cast<T>(1.702f)); break;
    case 4: AscendC::ClampMin<T, false>(dst, x, tmp, c, count); break;
    case 5: AscendC::ClampMax<T, false>(dst, x, c, count); break;
    case 6: AscendC::GeGLU<T, false>(dst, x, z, tmp, count); break;
    case 7: AscendC::Fmod(dst, x, z, count); break;
    case 8: AscendC::SwiGLU<T, false>(dst, x, z, 0.5f, tmp, count); break;
    case 10:
        if (likely(count > 0)) AscendC::FasterGelu(dst, x, tmp, count);
        if (unlikely(count == 0)) AscendC::FasterGelu<T, false, true>(dst, x, tmp, N);
        break;
    default: AscendC::Arange<T>(dst, static_cast<T>(1.25f), static_cast<T>(0.5f), count);  // Arange
    }
    AscendC::PipeBarrier<PIPE_ALL>();
    AscendC::DataCopy(yg, dst, N);
}

extern "C" __global__ __aicore__ void act_float(GM_ADDR a, GM_ADDR b, GM_ADDR y, int32_t which,
                                                int32_t count)
{
    run<float>(a, b, y, which, count);
}

extern "C" __global__ __aicore__ void act_half(GM_ADDR a, GM_ADDR b, GM_ADDR y, int32_t which,
                                               int32_t count)
{
    run<half>(a, b, y, which, count);
}

extern "C" __global__ __aicore__ void arange_int(GM_ADDR y, int32_t first, int32_t diff)
{
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> ob;
    pipe.InitBuffer(ob, N * sizeof(int32_t));
    AscendC::GlobalTensor<int32_t> yg;
    yg.SetGlobalBuffer((__gm__ int32_t *)y, N);
    AscendC::LocalTensor<int32_t> dst = ob.Get<int32_t>();
    AscendC::Arange<int32_t>(dst, first, diff, N);
    AscendC::PipeBarrier<PIPE_ALL>();
    AscendC::DataCopy(yg, dst, N);
}
""".replace("NUMBER", str(N))


def _gelu(x):
    return x / (1 + np.exp(-1.5957691216057308 * (x + 0.044715 * x ** 3)))


C = 0.75
#: which -> the float64 reference over (a, b)
REFS = [
    lambda a, b: _gelu(a),
    lambda a, b: 1 / (1 + np.exp(-a)),
    lambda a, b: a / (1 + np.exp(-a)),
    lambda a, b: a / (1 + np.exp(-np.float64(np.float32(1.702)) * a)),
    lambda a, b: np.maximum(a, C),
    lambda a, b: np.minimum(a, C),
    lambda a, b: a * _gelu(b),
    lambda a, b: np.fmod(a, b),
    lambda a, b: a * b / (1 + np.exp(-0.5 * b)),
    lambda a, b: 1.25 + 0.5 * np.arange(a.size),
]


@pytest.mark.parametrize("dtype,kernel", [(np.float32, "act_float"), (np.float16, "act_half")])
@pytest.mark.parametrize("which", range(len(REFS)),
                         ids=["gelu", "sigmoid", "silu", "swish", "clamp_min", "clamp_max",
                              "geglu", "fmod", "swiglu", "arange"])
def test_matches_numpy(dtype, kernel, which):
    rng = np.random.default_rng(40 + which)
    a = rng.uniform(-4, 4, N).astype(dtype)
    b = rng.uniform(0.5, 3, N).astype(dtype) * rng.choice([-1, 1], N).astype(dtype)
    y = np.full(N, 9, dtype)
    count = 200
    pyasc.ascendc.load(SRC, kernel)[1](a, b, y, np.int32(which), np.int32(count))
    ref = REFS[which](a.astype(np.float64), b.astype(np.float64)).astype(dtype)
    np.testing.assert_allclose(y[:count].astype(np.float64), ref[:count].astype(np.float64),
                               rtol=2e-6 if dtype == np.float32 else 2e-3, atol=1e-6)
    assert (y[count:] == 9).all()


def test_arange_of_integers_is_exact():
    y = np.zeros(N, np.int32)
    pyasc.ascendc.load(SRC, "arange_int")[1](y, np.int32(-7), np.int32(3))
    np.testing.assert_array_equal(y, -7 + 3 * np.arange(N))


@pytest.mark.parametrize("count,what", [(N + 8, "dst"), (-1, "count -1 is negative")])
def test_bad_counts_fail_at_the_call(count, what):
    line = SRC[:SRC.index("// Arange")].count("\n") + 1
    x = np.zeros(N, np.float32)
    with pytest.raises(pyasc.KernelError, match=rf"<string>:{line}: Arange: .*{what}"):
        pyasc.ascendc.load(SRC, "act_float", debug=True)[1](x, x, x.copy(), np.int32(9),
                                                             np.int32(count))


@pytest.mark.parametrize("dtype,kernel", [(np.float32, "act_float"), (np.float16, "act_half")])
@pytest.mark.parametrize("count", [200, 0], ids=["div", "reciprocal"])
def test_faster_gelu_rounds_each_step_to_the_type(dtype, kernel, count):
    """FasterGelu = x / (1 + exp(-1.702 x)) as CANN builds it: Muls, Exp, Adds, Div (with
    highPerformance Reciprocal and Mul; count 0 runs that form over all N), each rounded."""
    a = np.random.default_rng(3).uniform(-4, 4, N).astype(dtype)
    y = np.full(N, 9, dtype)
    pyasc.ascendc.load(SRC, kernel)[1](a, a, y, np.int32(10), np.int32(count))
    t = (a * dtype(-1.702)).astype(dtype)
    t = np.exp(t.astype(np.float64)).astype(dtype)
    t = (t + dtype(1)).astype(dtype)
    if count:
        want = (a.astype(np.float64) / t).astype(dtype)
    else:
        want = (a.astype(np.float64) * (1 / t.astype(np.float64)).astype(dtype)).astype(dtype)
    n = count or N
    np.testing.assert_allclose(y[:n].astype(np.float64), want[:n].astype(np.float64),
                               rtol=2e-6 if dtype == np.float32 else 1e-3, atol=1e-7)
    assert (y[n:] == 9).all()
