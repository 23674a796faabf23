"""Ascend C forms that the code Huawei's PyAsc generates uses (tools/upstream-ascendc.sh runs
Huawei's kernel tests on it), in kernels of our own: the 910B's buffer-size constants
(``AscendC::TOTAL_L1_SIZE``...), ``LocalTensor::GetPosition``, a ``TCubeTiling`` declared and
partly set (its other members 0, as in CANN's kernel_tiling.h), ``ShapeInfo`` with
``SetShapeInfo`` giving ``SoftMax`` its rows, a ``static constexpr AscendQuantConfig`` as
``AscendQuant``'s template argument, and queue tensors moved with ``SetAddrWithOffset`` freed as
their buffers. Results against CANN's values and NumPy."""

from __future__ import annotations

import shutil

import numpy as np
import pytest

import pyasc
from test_ascendc import assert_valid_cpp

pytestmark = pytest.mark.skipif(shutil.which("c++") is None and shutil.which("g++") is None,
                                reason="no C++ compiler")

SRC = r"""
#include "kernel_operator.h"

extern "C" __global__ __aicore__ void facts(GM_ADDR out)
{
    AscendC::GlobalTensor<int32_t> o;
    o.SetGlobalBuffer((__gm__ int32_t *)out, 16);
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::TPosition::VECIN, 1> qin;
    AscendC::TQue<AscendC::TPosition::VECOUT, 1> qout;
    AscendC::TBuf<AscendC::TPosition::VECCALC> buf;
    pipe.InitBuffer(qin, 1, 256);
    pipe.InitBuffer(qout, 1, 256);
    pipe.InitBuffer(buf, 256);
    AscendC::LocalTensor<float> a = qin.AllocTensor<float>(), b = qout.AllocTensor<float>();
    AscendC::LocalTensor<float> c = buf.Get<float>();
    int32_t v[16] = {(int32_t)AscendC::TOTAL_L1_SIZE, (int32_t)AscendC::TOTAL_L0A_SIZE,
                     (int32_t)AscendC::TOTAL_L0B_SIZE, (int32_t)AscendC::TOTAL_L0C_SIZE,
                     (int32_t)AscendC::TOTAL_UB_SIZE, a.GetPosition(), b.GetPosition(),
                     c.GetPosition(), a[8].GetPosition(), c.ReinterpretCast<int32_t>().GetPosition()};
    TCubeTiling t;
    t.M = 64;
    v[10] = t.M;
    v[11] = t.stepKa | t.stepKb | t.iterateOrder | t.isBias | t.BatchNum;
    // a tensor moved inside its buffer is freed as the buffer
    qin.FreeTensor(a);
    qout.FreeTensor(b);
    AscendC::LocalTensor<int32_t> m = qout.AllocTensor<int32_t>();
    m.SetAddrWithOffset(m, 16);
    qout.FreeTensor(m);
    v[12] = qout.HasIdleBuffer() ? 1 : 0;
    for (int i = 0; i < 13; i++) o.SetValue(i, v[i]);
}

extern "C" __global__ __aicore__ void softmax_by_shape(GM_ADDR x, GM_ADDR y)
{
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> in, out, sum, max;
    pipe.InitBuffer(in, 8 * 64 * 4);
    pipe.InitBuffer(out, 8 * 64 * 4);
    pipe.InitBuffer(sum, 8 * 8 * 4);
    pipe.InitBuffer(max, 8 * 8 * 4);
    AscendC::GlobalTensor<float> xg, yg;
    xg.SetGlobalBuffer((__gm__ float *)x, 8 * 64);
    yg.SetGlobalBuffer((__gm__ float *)y, 8 * 64);
    AscendC::LocalTensor<float> src = in.Get<float>(), dst = out.Get<float>();
    AscendC::DataCopy(src, xg, 8 * 64);
    AscendC::PipeBarrier<PIPE_ALL>();
    uint32_t dims[2] = {8, 64};
    AscendC::ShapeInfo shape{2, dims, AscendC::DataFormat::ND};
    src.SetShapeInfo(shape);
    SoftMaxTiling tiling;  // no srcM/srcK: the source's shape gives them
    AscendC::SoftMax<float>(dst, sum.Get<float>(), max.Get<float>(), src, tiling);
    AscendC::PipeBarrier<PIPE_ALL>();
    AscendC::DataCopy(yg, dst, 8 * 64);
}

extern "C" __global__ __aicore__ void quant_with_config(GM_ADDR x, GM_ADDR y)
{
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> in, out, tmp;
    pipe.InitBuffer(in, 512 * 4);
    pipe.InitBuffer(out, 512);
    pipe.InitBuffer(tmp, 4096);
    AscendC::GlobalTensor<float> xg;
    AscendC::GlobalTensor<int8_t> yg;
    xg.SetGlobalBuffer((__gm__ float *)x, 512);
    yg.SetGlobalBuffer((__gm__ int8_t *)y, 512);
    AscendC::LocalTensor<float> src = in.Get<float>();
    AscendC::LocalTensor<int8_t> dst = out.Get<int8_t>();
    AscendC::DataCopy(src, xg, 512);
    AscendC::PipeBarrier<PIPE_ALL>();
    static constexpr AscendC::AscendQuantConfig config{32, 0, 0, 512};
    AscendC::AscendQuant<float, false, config>(dst, src, tmp.Get<uint8_t>(), 2.0f, 0.9f, 512);
    AscendC::PipeBarrier<PIPE_ALL>();
    AscendC::DataCopy(yg, dst, 512);
}
"""

# CANN's kernel_utils_constants.h for dav-2201; TPosition VECIN, VECOUT, VECCALC
FACTS = [512 * 1024 - 128, 64 * 1024, 64 * 1024, 128 * 1024, 192 * 1024, 9, 10, 11, 9, 11, 64,
         0, 1]


@pytest.mark.parametrize("debug", [False, True])
def test_constants_positions_zeroed_tiling_and_moved_free(debug):
    out = np.full(16, -1, np.int32)
    pyasc.ascendc.load(SRC, "facts", debug=debug)[1](out)
    assert out[:13].tolist() == FACTS


@pytest.mark.parametrize("debug", [False, True])
def test_softmax_takes_its_rows_from_the_source_shape(debug):
    x = np.random.default_rng(3).standard_normal((8, 64)).astype(np.float32) * 4
    y = np.zeros_like(x)
    pyasc.ascendc.load(SRC, "softmax_by_shape", debug=debug)[1](x, y)
    x64 = x.astype(np.float64)
    ref = np.exp(x64 - x64.max(axis=1, keepdims=True))
    ref /= ref.sum(axis=1, keepdims=True)
    np.testing.assert_allclose(y, ref, rtol=2e-6, atol=1e-7)


@pytest.mark.parametrize("debug", [False, True])
def test_ascend_quant_takes_a_static_config(debug):
    x = np.random.default_rng(4).uniform(-80, 80, 512).astype(np.float32)
    y = np.zeros(512, np.int8)
    pyasc.ascendc.load(SRC, "quant_with_config", debug=debug)[1](x, y)
    h = np.float16  # dav-2201's AscendQuant works in half, a rounding a step
    ref = np.clip(np.rint((x.astype(h) * h(2.0)).astype(h) + h(0.9)), -128, 127)
    np.testing.assert_array_equal(y, ref.astype(np.int8))


def test_iterate_batch_takes_the_sync_template_arguments():
    """Matmul::IterateBatch<sync, waitIterateBatch>(...), as Huawei's generated code writes it
    (its matmul iterate_batch test runs that way under tools/upstream-ascendc.sh)."""
    assert_valid_cpp(r"""
#include "kernel_operator.h"
#include "lib/matmul_intf.h"
using F = matmul::MatmulType<AscendC::TPosition::GM, CubeFormat::ND, float>;
void calls(matmul::Matmul<F, F, F, F> &mm, AscendC::GlobalTensor<float> &c) {
  mm.IterateBatch<true, false>(c, 2u, 2u, false, 0u, 0u, 0u);
  mm.IterateBatch<false>(c, false, static_cast<uint8_t>(0), false);
  mm.IterateBatch(c, 1u, 1u, false);
}
""")


L3D_SRC = r"""
#include "kernel_operator.h"

extern "C" __global__ __aicore__ void l3d_registers(GM_ADDR x, uint32_t mode)
{
    AscendC::SetLoadDataBoundary(4096);
    AscendC::SetLoadDataPaddingValue(static_cast<half>(1.5));
    AscendC::SetLoadDataRepeat(AscendC::LoadDataRepeatParam(7, 3, mode));  // the mode line
}
"""


@pytest.mark.parametrize("debug", [False, True])
def test_img2col_registers_reach_the_runtime_in_canns_order(debug):
    """SetLoadDataBoundary, SetLoadDataPaddingValue and SetLoadDataRepeat (CANN's constructor:
    repeatStride, repeatTime, repeatMode) set the runtime's registers: a repeat mode of 2 is
    the runtime's error naming time 3, stride 7 and mode 2 at the call's line."""
    kernel = pyasc.ascendc.load(L3D_SRC, "l3d_registers", debug=debug)
    kernel[1](np.zeros(16, np.float32), 1)
    with pytest.raises(pyasc.KernelError, match=r"<string>:8: set_load_data_repeat: .*"
                       r"\(got 3, 7, 2\)"):
        kernel[1](np.zeros(16, np.float32), 2)
