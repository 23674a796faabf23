"""The cube in Ascend C on the simulated cores (include/ascendc/kernel_operator/cube.h, matmul.h).

* the emitter verified by execution: the Ascend C of the cube examples
  (basic APIs, and the adv Matmul in a mixed kernel) runs bit for bit like
  the Python kernel;
* Ascend C written by hand against NumPy, in the calling convention PyAsc's
  cube tutorials use (a ``__gm__ TCubeTiling *`` copied into the kernel, a
  workspace, ``REGIST_MATMUL_OBJ``, ``g_coreType``): the adv Matmul in a
  mixed kernel (groups of an AIC and two AIVs), a cube-only kernel with a
  bias, Iterate/GetTensorC into the UB with a vector epilogue, GetTensorC
  to GM with enAtomic; and the basic APIs one by one (DataCopy with
  Nd2NzParams, LoadData from L1 and from GM, Mmad with and without a bias
  and accumulating, Fixpipe to GM and to the UB, ND and NZ, with quantPre,
  DataCopy with Nz2NdParamsFull);
* checked mode, and errors at the user's line.
"""

from __future__ import annotations

import importlib.util
import shutil
from pathlib import Path

import numpy as np
import pytest

import pyasc
import pyasc.host as host
from pyasc import _C
from pyasc.language.adv_tiling import TCubeTiling

from cube_helpers import gm_tiler, take_tiling

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"

pytestmark = pytest.mark.skipif(shutil.which("c++") is None and shutil.which("g++") is None,
                                reason="no C++ compiler")


def _example(name: str):
    spec = importlib.util.spec_from_file_location(f"pyasc_cube_example_{name}",
                                                  EXAMPLES / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _ints(rng, shape, dtype=np.float16):
    """Small integers: every product and sum is exact in float32."""
    return rng.integers(-6, 6, shape).astype(dtype)


def _tiling(m, n, k, cores, *, bias=False, trans_a=False, trans_b=False, c_pos=None,
            fix=None, traverse=None):
    t = host.MultiCoreMatmulTiling(host.get_ascendc_platform())
    t.set_a_type(host.TPosition.GM, host.CubeFormat.ND, host.DataType.DT_FLOAT16, trans_a)
    t.set_b_type(host.TPosition.GM, host.CubeFormat.ND, host.DataType.DT_FLOAT16, trans_b)
    t.set_c_type(c_pos or host.TPosition.GM, host.CubeFormat.ND, host.DataType.DT_FLOAT)
    t.set_bias_type(host.TPosition.GM, host.CubeFormat.ND, host.DataType.DT_FLOAT)
    t.set_dim(cores)
    t.set_org_shape(m, n, k)
    t.set_shape(m, n, k)
    t.enable_bias(bias)
    if traverse is not None:
        t.set_traverse(traverse)
    if fix is not None:
        t.set_fix_split(*fix)
    t.set_buffer_space(-1, -1, -1)
    tiling = TCubeTiling()
    assert t.get_tiling(tiling) != -1
    return tiling


# --- the emitter, verified by execution -----------------------------------------------------

@pytest.mark.parametrize("case", ["f32", "f16_out", "int8"])
def test_emitted_basic_cube_ascendc_runs_bit_for_bit_like_the_python_kernel(case):
    mb = _example("matmul_basic")
    rng = np.random.default_rng(7)
    m, n, k = 200, 300, 150
    dt = np.int8 if case == "int8" else np.float16
    a, b = _ints(rng, (m, k), dt), _ints(rng, (k, n), dt)
    b_in, c0 = (np.ascontiguousarray(b.T), 32) if case == "int8" else (b, 16)
    out = np.zeros((m, n), {"f32": np.float32, "f16_out": np.float16, "int8": np.int32}[case])
    quant = int(pyasc.QuantModes.F322F16) if case == "f16_out" else 0
    args = [a, b_in, out, m, n, k, quant, c0]
    cxx = pyasc.ascendc.load(mb.matmul_basic_kernel.ascendc(*args), "matmul_basic_kernel")
    py_out, cxx_out = out.copy(), out.copy()
    mb.matmul_basic_kernel[4](a, b_in, py_out, m, n, k, quant, c0)
    cxx[4](a, b_in, cxx_out, m, n, k)
    assert py_out.tobytes() == cxx_out.tobytes()
    ref = a.astype(np.float64) @ b.astype(np.float64)
    assert np.array_equal(cxx_out.astype(np.float64), ref)


def test_emitted_matmul_mix_ascendc_runs_bit_for_bit_like_the_python_kernel():
    mx = _example("matmul_mix")
    rng = np.random.default_rng(8)
    m, n, k = 256, 512, 128
    a, b = _ints(rng, (m, k)), _ints(rng, (k, n))
    tiling = mx.make_tiling(m, n, k, cores=8)
    ws = np.zeros(1024, np.uint8)
    args = [a, b, np.zeros((m, n), np.float32), tiling, ws, False, False]
    cxx = pyasc.ascendc.load(mx.matmul_kernel.ascendc(*args), "matmul_kernel")
    py_out, cxx_out = np.zeros((m, n), np.float32), np.zeros((m, n), np.float32)
    mx.matmul_kernel[4](a, b, py_out, tiling, ws, False, False)
    cxx[4](a, b, cxx_out, tiling, ws)  # the struct goes as its bytes
    assert py_out.tobytes() == cxx_out.tobytes()
    assert np.array_equal(cxx_out, a.astype(np.float32) @ b.astype(np.float32))


# --- the adv Matmul, written by hand -------------------------------------------------------

# The host's tiling reaches the kernel as the bytes of a TCubeTiling in GM, which the kernel
# copies into a local struct, as PyAsc's generated code does.
TILING_COPY = r"""
#include "kernel_operator.h"
#include "lib/matmul_intf.h"

__aicore__ inline void LoadTiling(TCubeTiling &tiling, GM_ADDR src)
{
    auto words = reinterpret_cast<__gm__ int32_t *>(src);
    for (uint32_t i = 0; i < sizeof(TCubeTiling) / sizeof(int32_t); ++i) {
        reinterpret_cast<int32_t *>(&tiling)[i] = words[i];
    }
}
"""

# A mixed kernel: each AIV of a group (GetBlockIdx() = 2 * group + sub-block) computes its
# singleCoreM x singleCoreN part of C = op(A) op(B); transposed operands are stored k x m / n x k.
MIX_SRC = TILING_COPY + r"""
using AType = matmul::MatmulType<AscendC::TPosition::GM, CubeFormat::ND, half, TRANS_A>;
using BType = matmul::MatmulType<AscendC::TPosition::GM, CubeFormat::ND, half, TRANS_B>;
using CType = matmul::MatmulType<AscendC::TPosition::GM, CubeFormat::ND, float>;

extern "C" __global__ __aicore__ void mm_groups(GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR tilingGm,
                                                GM_ADDR workspace, GM_ADDR fftsAddr)
{
    set_ffts_base_addr(*reinterpret_cast<__gm__ uint64_t *>(fftsAddr));
    TCubeTiling tiling;
    LoadTiling(tiling, tilingGm);
    int32_t core = AscendC::GetBlockIdx();
    int32_t mParts = (tiling.M + tiling.singleCoreM - 1) / tiling.singleCoreM;
    int32_t mIdx = core % mParts;
    int32_t nIdx = core / mParts;
    int32_t m0 = mIdx * tiling.singleCoreM;
    int32_t n0 = nIdx * tiling.singleCoreN;
    AscendC::GlobalTensor<half> aGm;
    AscendC::GlobalTensor<half> bGm;
    AscendC::GlobalTensor<float> cGm;
    aGm.SetGlobalBuffer(reinterpret_cast<__gm__ half *>(a) + (TRANS_A ? m0 : m0 * tiling.Ka));
    bGm.SetGlobalBuffer(reinterpret_cast<__gm__ half *>(b) + (TRANS_B ? n0 * tiling.Kb : n0));
    cGm.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(c) + m0 * tiling.N + n0);
    AscendC::TPipe pipe;
    matmul::Matmul<AType, BType, CType> mm;
    REGIST_MATMUL_OBJ(&pipe, workspace, mm, &tiling);
    if (core >= tiling.usedCoreNum) {
        return;
    }
    int32_t tailM = tiling.M - m0 < tiling.singleCoreM ? tiling.M - m0 : tiling.singleCoreM;
    int32_t tailN = tiling.N - n0 < tiling.singleCoreN ? tiling.N - n0 : tiling.singleCoreN;
    mm.SetTensorA(aGm, TRANS_A);
    mm.SetTensorB(bGm, TRANS_B);
    mm.SetTail(tailM, tailN);
    mm.IterateAll<true>(cGm);
    mm.End();
    AscendC::PipeBarrier<PIPE_ALL>();
}
"""


def _mix_source(trans_a: bool, trans_b: bool) -> str:
    return MIX_SRC.replace("TRANS_A", str(trans_a).lower()).replace("TRANS_B",
                                                                     str(trans_b).lower())


@pytest.mark.parametrize("debug", [False, True], ids=["plain", "checked"])
@pytest.mark.parametrize("trans_a,trans_b", [(False, False), (True, False), (False, True)])
def test_matmul_in_a_mixed_kernel_matches_numpy(trans_a, trans_b, debug):
    rng = np.random.default_rng(11)
    m, n, k = 200, 340, 96  # edges that leave partial base blocks
    a, b = _ints(rng, (m, k)), _ints(rng, (k, n))
    tiling = _tiling(m, n, k, 8, trans_a=trans_a, trans_b=trans_b)
    assert tiling.used_core_num > 1
    kernel = pyasc.ascendc.load(_mix_source(trans_a, trans_b), "mm_groups", debug=debug)
    c = np.zeros((m, n), np.float32)
    a_in = np.ascontiguousarray(a.T) if trans_a else a
    b_in = np.ascontiguousarray(b.T) if trans_b else b
    groups = (tiling.used_core_num + 1) // 2
    kernel[groups](a_in, b_in, c, tiling, np.zeros(1024, np.uint8), np.zeros(1, np.uint64))
    np.testing.assert_array_equal(c, a.astype(np.float32) @ b.astype(np.float32))



@pytest.mark.parametrize("defined", [False, True])
def test_ascendc_cube_only_counts_where_the_preprocessor_leaves_it(defined):
    """A source that names ASCENDC_CUBE_ONLY under an #if that leaves it undefined stays a mixed
    kernel (CANN's matmul_ibshareB: both AIVs of a group compute their part); defined, the
    launch's one block is one AIC, core 0, which computes core 0's part alone."""
    rng = np.random.default_rng(18)
    m, n, k = 64, 96, 32
    a, b = _ints(rng, (m, k)), _ints(rng, (k, n))
    tiling = _tiling(m, n, k, 2)
    assert tiling.used_core_num == 2
    source = f"#if {int(defined)}\n#define ASCENDC_CUBE_ONLY\n#endif\n" + _mix_source(False, False)
    kernel = pyasc.ascendc.load(source, "mm_groups")
    c = np.zeros((m, n), np.float32)
    kernel[1](a, b, c, tiling, np.zeros(1024, np.uint8), np.zeros(1, np.uint64))
    ref = a.astype(np.float32) @ b.astype(np.float32)
    if defined:
        sm, sn = tiling.single_core_m, tiling.single_core_n
        assert (sm, sn) != (m, n)
        np.testing.assert_array_equal(c[:sm, :sn], ref[:sm, :sn])
        c[:sm, :sn] = 0
        assert not c.any()
    else:
        np.testing.assert_array_equal(c, ref)


# A __mix__ kernel that defines ASCENDC_CUBE_ONLY (CANN's matmul_fused_manual): the AIC runs
# the Matmul itself and hands C over with a mode-2 flag; each AIV then doubles its half of C.
MANUAL_MIX_SRC = "#define ASCENDC_CUBE_ONLY\n" + TILING_COPY + r"""
using namespace AscendC;

extern "C" __global__ __mix__(1, 2) void mm_then_double(GM_ADDR a, GM_ADDR b, GM_ADDR c,
                                                        GM_ADDR tilingGm, GM_ADDR workspace)
{
    TCubeTiling tiling;
    LoadTiling(tiling, tilingGm);
    TPipe pipe;
    GlobalTensor<half> aGm, bGm;
    GlobalTensor<float> cGm;
    aGm.SetGlobalBuffer((__gm__ half *)a);
    bGm.SetGlobalBuffer((__gm__ half *)b);
    cGm.SetGlobalBuffer((__gm__ float *)c);
    if ASCEND_IS_AIC {
        Matmul<MatmulType<TPosition::GM, CubeFormat::ND, half>,
               MatmulType<TPosition::GM, CubeFormat::ND, half>,
               MatmulType<TPosition::GM, CubeFormat::ND, float>> mm;
        REGIST_MATMUL_OBJ(&pipe, workspace, mm, &tiling);
        mm.SetTensorA(aGm);
        mm.SetTensorB(bGm);
        mm.IterateAll(cGm);
        mm.End();
        CrossCoreSetFlag<0x2, PIPE_FIX>(3);
    }
    if ASCEND_IS_AIV {
        const uint32_t len = tiling.M * tiling.N / 2;
        GlobalTensor<float> mine = cGm[GetSubBlockIdx() * len];
        TBuf<TPosition::VECCALC> buf;
        pipe.InitBuffer(buf, len * sizeof(float));
        LocalTensor<float> t = buf.Get<float>();
        CrossCoreWaitFlag(3);
        DataCopy(t, mine, len);
        SetFlag<HardEvent::MTE2_V>(EVENT_ID0);
        WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);
        Muls(t, t, 2.0f, len);
        SetFlag<HardEvent::V_MTE3>(EVENT_ID0);
        WaitFlag<HardEvent::V_MTE3>(EVENT_ID0);
        DataCopy(mine, t, len);
    }
}
"""


@pytest.mark.parametrize("debug", [False, True], ids=["plain", "checked"])
def test_a_mix_kernel_with_a_cube_only_matmul_runs_its_aic_and_aivs(debug):
    rng = np.random.default_rng(21)
    m, n, k = 32, 64, 32
    a, b = _ints(rng, (m, k)), _ints(rng, (k, n))
    c = np.zeros((m, n), np.float32)
    pyasc.ascendc.load(MANUAL_MIX_SRC, "mm_then_double", debug=debug)[1](
        a, b, c, _tiling(m, n, k, 1), np.zeros(1024, np.uint8))
    np.testing.assert_array_equal(c, 2 * (a.astype(np.float32) @ b.astype(np.float32)))

# A cube-only kernel (one AIC per block) with a bias, a MatmulConfig and Init after
# REGIST_MATMUL_OBJ; SetSingleShape gives this core's part.
CUBE_ONLY_SRC = "#define ASCENDC_CUBE_ONLY\n" + TILING_COPY + r"""
using namespace AscendC;

constexpr MatmulConfig NORM_CFG = CFG_NORM;

extern "C" __global__ __aicore__ void mm_cube(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c,
                                              GM_ADDR tilingGm, GM_ADDR workspace)
{
    if ASCEND_IS_AIV {
        return;
    }
    TCubeTiling tiling;
    LoadTiling(tiling, tilingGm);
    int32_t core = GetBlockIdx();
    int32_t mParts = (tiling.M + tiling.singleCoreM - 1) / tiling.singleCoreM;
    int32_t m0 = core % mParts * tiling.singleCoreM;
    int32_t n0 = core / mParts * tiling.singleCoreN;
    GlobalTensor<half> aGm;
    GlobalTensor<half> bGm;
    GlobalTensor<float> biasGm;
    GlobalTensor<float> cGm;
    aGm.SetGlobalBuffer(reinterpret_cast<__gm__ half *>(a) + m0 * tiling.Ka);
    bGm.SetGlobalBuffer(reinterpret_cast<__gm__ half *>(b) + n0);
    biasGm.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(bias) + n0);
    cGm.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(c) + m0 * tiling.N + n0);
    TPipe pipe;
    Matmul<MatmulType<TPosition::GM, CubeFormat::ND, half>,
           MatmulType<TPosition::GM, CubeFormat::ND, half>,
           MatmulType<TPosition::GM, CubeFormat::ND, float>,
           MatmulType<TPosition::GM, CubeFormat::ND, float>, NORM_CFG> mm;
    REGIST_MATMUL_OBJ(&pipe, workspace, mm);
    mm.Init(&tiling);
    if (core >= tiling.usedCoreNum) {
        return;
    }
    mm.SetTensorA(aGm);
    mm.SetTensorB(bGm);
    if (tiling.isBias) {
        mm.SetBias(biasGm);
    }
    mm.SetSingleShape(tiling.M - m0 < tiling.singleCoreM ? tiling.M - m0 : tiling.singleCoreM,
                      tiling.N - n0 < tiling.singleCoreN ? tiling.N - n0 : tiling.singleCoreN,
                      tiling.Ka);
    mm.IterateAll(cGm);
    mm.End();
}
"""


@pytest.mark.parametrize("bias", [True, False])
def test_matmul_in_a_cube_only_kernel_matches_numpy(bias):
    rng = np.random.default_rng(12)
    m, n, k = 128, 1024, 64
    a, b = _ints(rng, (m, k)), _ints(rng, (k, n))
    bias_row = _ints(rng, (1, n), np.float32)
    tiling = _tiling(m, n, k, 6, bias=bias)
    kernel = pyasc.ascendc.load(CUBE_ONLY_SRC, "mm_cube")
    c = np.zeros((m, n), np.float32)
    kernel[tiling.used_core_num](a, b, bias_row, c, tiling, np.zeros(1024, np.uint8))
    ref = a.astype(np.float32) @ b.astype(np.float32) + (bias_row if bias else 0)
    np.testing.assert_array_equal(c, ref)



@pytest.mark.parametrize("debug", [False, True], ids=["plain", "checked"])
def test_an_nd_align_c_pads_its_rows_to_32_bytes(debug):
    """CubeFormat::ND_ALIGN (CANN's matmul_format_nd_align): C's rows start a 32-byte multiple
    apart, 100 floats in a row of 104; the pad is left as it was."""
    c_type = "MatmulType<TPosition::GM, CubeFormat::ND, float>,\n"
    source = CUBE_ONLY_SRC.replace(c_type, c_type.replace("ND,", "ND_ALIGN,"), 1)
    assert source.count("ND_ALIGN") == 1
    rng = np.random.default_rng(13)
    m, n, k = 32, 100, 64
    a, b = _ints(rng, (m, k)), _ints(rng, (k, n))
    tiling = _tiling(m, n, k, 1)
    c = np.full((m, 104), 7, np.float32)
    pyasc.ascendc.load(source, "mm_cube", debug=debug)[1](
        a, b, np.zeros((1, n), np.float32), c, tiling, np.zeros(1024, np.uint8))
    np.testing.assert_array_equal(c[:, :n], a.astype(np.float32) @ b.astype(np.float32))
    assert (c[:, n:] == 7).all()


def _int4_tiling(m: int, n: int, k: int):
    tiling = take_tiling(gm_tiler(m, n, k, host.DataType.DT_INT4, host.DataType.DT_INT32,
                                  bias_type=host.DataType.DT_INT32))
    assert tiling.base_k % 64 == 0  # int4b_t's C0: 64 elements in 32 bytes
    return tiling


def _pack_int4(x: np.ndarray) -> np.ndarray:
    """Two int4b_t a byte along the last axis, the even element in the low nibble."""
    lo, hi = x[..., 0::2].astype(np.uint8) & 15, x[..., 1::2].astype(np.uint8) & 15
    return (lo | hi << 4).astype(np.uint8)


@pytest.mark.parametrize("debug", [False, True], ids=["plain", "checked"])
def test_matmul_of_int4b_t_operands_matches_numpy(debug):
    """The adv Matmul on int4b_t A and B (CANN's matmul_int4): s4 x s4 -> s32 with an int32
    bias, its operands packed two a byte, with the host's DT_INT4 tiling."""
    kernel_src = CUBE_ONLY_SRC[CUBE_ONLY_SRC.index("using namespace AscendC;"):]
    source = CUBE_ONLY_SRC[:CUBE_ONLY_SRC.index("using namespace AscendC;")] + kernel_src.replace(
        "half", "int4b_t").replace("float", "int32_t")
    assert "Matmul<MatmulType<TPosition::GM, CubeFormat::ND, int4b_t>" in source
    rng = np.random.default_rng(14)
    m, n, k = 64, 96, 128
    a, b = rng.integers(-8, 8, (m, k)), rng.integers(-8, 8, (k, n))
    bias = rng.integers(-50, 50, (1, n)).astype(np.int32)
    c = np.zeros((m, n), np.int32)
    pyasc.ascendc.load(source, "mm_cube", debug=debug)[1](
        _pack_int4(a), _pack_int4(b), bias, c, _int4_tiling(m, n, k), np.zeros(1024, np.uint8))
    np.testing.assert_array_equal(c, a @ b + bias)

# Iterate / GetTensorC into the UB, a vector epilogue (LeakyRelu), and DataCopy with
# DataCopyParams to the block's place, which GetOffsetC gives.
EPILOGUE_SRC = TILING_COPY + r"""
using namespace AscendC;

extern "C" __global__ __aicore__ void mm_leaky(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c,
                                               float alpha, GM_ADDR tilingGm, GM_ADDR workspace)
{
    TCubeTiling tiling;
    LoadTiling(tiling, tilingGm);
    int32_t core = GetBlockIdx();
    int32_t mParts = (tiling.M + tiling.singleCoreM - 1) / tiling.singleCoreM;
    int32_t m0 = core % mParts * tiling.singleCoreM;
    int32_t n0 = core / mParts * tiling.singleCoreN;
    GlobalTensor<half> aGm;
    GlobalTensor<half> bGm;
    GlobalTensor<float> biasGm;
    GlobalTensor<float> cGm;
    aGm.SetGlobalBuffer(reinterpret_cast<__gm__ half *>(a) + m0 * tiling.Ka);
    bGm.SetGlobalBuffer(reinterpret_cast<__gm__ half *>(b) + n0);
    biasGm.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(bias) + n0);
    cGm.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(c) + m0 * tiling.N + n0);
    const int32_t blockLen = tiling.baseM * tiling.baseN;
    TPipe pipe;
    TQue<TPosition::VECOUT, 1> outQue;
    pipe.InitBuffer(outQue, 1, blockLen * sizeof(float));
    matmul::Matmul<matmul::MatmulType<TPosition::GM, CubeFormat::ND, half>,
                   matmul::MatmulType<TPosition::GM, CubeFormat::ND, half>,
                   matmul::MatmulType<TPosition::VECCALC, CubeFormat::ND, float>,
                   matmul::MatmulType<TPosition::GM, CubeFormat::ND, float>> mm;
    REGIST_MATMUL_OBJ(&pipe, workspace, mm, &tiling);
    if (core >= tiling.usedCoreNum) {
        return;
    }
    mm.SetTensorA(aGm);
    mm.SetTensorB(bGm);
    mm.SetBias(biasGm);
    while (mm.Iterate()) {
        LocalTensor<float> block = outQue.AllocTensor<float>();
        mm.GetTensorC(block, 0, true);
        LeakyRelu(block, block, alpha, blockLen);
        outQue.EnQue(block);
        LocalTensor<float> ready = outQue.DeQue<float>();
        MatrixOffset at = mm.GetOffsetC();
        DataCopyParams rows(static_cast<uint16_t>(at.height),
                            static_cast<uint16_t>(tiling.baseN * sizeof(float) / 32), 0,
                            static_cast<uint16_t>((tiling.N - tiling.baseN) * sizeof(float) / 32));
        DataCopy(cGm[at.offset], ready, rows);
        outQue.FreeTensor(ready);
    }
    mm.End();
}
"""


@pytest.mark.parametrize("debug", [False, True], ids=["plain", "checked"])
def test_matmul_iterate_get_tensor_c_into_the_ub_matches_numpy(debug):
    rng = np.random.default_rng(13)
    m, n, k = 512, 384, 128
    a, b = _ints(rng, (m, k)), _ints(rng, (k, n))
    bias_row = _ints(rng, (1, n), np.float32)
    tiling = _tiling(m, n, k, 2, bias=True, c_pos=host.TPosition.VECCALC, fix=(128, 128, -1),
                     traverse=host.MatrixTraverse.FIRSTM)
    assert tiling.single_core_m % tiling.base_m == 0 and tiling.single_core_n % tiling.base_n == 0
    kernel = pyasc.ascendc.load(EPILOGUE_SRC, "mm_leaky", debug=debug)
    c = np.zeros((m, n), np.float32)
    alpha = 0.125
    kernel[(tiling.used_core_num + 1) // 2](a, b, bias_row, c, alpha, tiling,
                                            np.zeros(1024, np.uint8))
    ref = a.astype(np.float32) @ b.astype(np.float32) + bias_row
    np.testing.assert_array_equal(c, np.where(ref >= 0, ref, ref * np.float32(alpha)))


def _async_source(extra_gets: int = 0) -> str:
    """EPILOGUE_SRC in CANN's asynchronous mode: one Iterate<false>(), then a GetTensorC<false>
    for each block of the core (and extra_gets more)."""
    loop = ("mm.template Iterate<false>();\n"
            "    const int32_t blocks = tiling.singleCoreM / tiling.baseM * "
            f"(tiling.singleCoreN / tiling.baseN) + {extra_gets};\n"
            "    for (int32_t i = 0; i < blocks; ++i) {")
    source = EPILOGUE_SRC.replace("while (mm.Iterate()) {", loop)
    source = source.replace("mm.GetTensorC(block, 0, true);",
                            "mm.template GetTensorC<false>(block, 0, true);")
    assert "Iterate<false>" in source and "GetTensorC<false>" in source
    return source


def _epilogue_case(seed: int):
    rng = np.random.default_rng(seed)
    m, n, k = 512, 384, 128
    a, b = _ints(rng, (m, k)), _ints(rng, (k, n))
    bias_row = _ints(rng, (1, n), np.float32)
    tiling = _tiling(m, n, k, 2, bias=True, c_pos=host.TPosition.VECCALC, fix=(128, 128, -1),
                     traverse=host.MatrixTraverse.FIRSTM)
    return a, b, bias_row, tiling


@pytest.mark.parametrize("debug", [False, True], ids=["plain", "checked"])
def test_async_iterate_hands_each_get_tensor_c_the_next_block(debug):
    """Iterate<false>() then GetTensorC<false> per block (CANN's matmul_fused): the blocks
    come in the tiling's order, as the synchronous loop gives them."""
    a, b, bias_row, tiling = _epilogue_case(15)
    c = np.zeros((512, 384), np.float32)
    pyasc.ascendc.load(_async_source(), "mm_leaky", debug=debug)[(tiling.used_core_num + 1) // 2](
        a, b, bias_row, c, 0.125, tiling, np.zeros(1024, np.uint8))
    ref = a.astype(np.float32) @ b.astype(np.float32) + bias_row
    np.testing.assert_array_equal(c, np.where(ref >= 0, ref, ref * np.float32(0.125)))


def test_a_get_tensor_c_past_the_async_blocks_fails_at_its_line():
    a, b, bias_row, tiling = _epilogue_case(16)
    source = _async_source(extra_gets=1)
    line = next(i for i, text in enumerate(source.splitlines(), 1) if "GetTensorC<false>" in text)
    with pytest.raises(pyasc.KernelError, match=rf"<string>:{line}: .*blocks are all taken"):
        pyasc.ascendc.load(source, "mm_leaky")[(tiling.used_core_num + 1) // 2](
            a, b, bias_row, np.zeros((512, 384), np.float32), 0.125, tiling,
            np.zeros(1024, np.uint8))


# GetTensorC to GM with enAtomic 1: each block is added to what C holds.
ATOMIC_SRC = TILING_COPY + r"""
extern "C" __global__ __aicore__ void mm_accumulate(GM_ADDR a, GM_ADDR b, GM_ADDR c,
                                                    GM_ADDR tilingGm)
{
    TCubeTiling tiling;
    LoadTiling(tiling, tilingGm);
    AscendC::GlobalTensor<half> aGm;
    AscendC::GlobalTensor<half> bGm;
    AscendC::GlobalTensor<float> cGm;
    aGm.SetGlobalBuffer(reinterpret_cast<__gm__ half *>(a));
    bGm.SetGlobalBuffer(reinterpret_cast<__gm__ half *>(b));
    cGm.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(c));
    AscendC::TPipe pipe;
    AscendC::Matmul<AscendC::MatmulType<AscendC::TPosition::GM, CubeFormat::ND, half>,
                    AscendC::MatmulType<AscendC::TPosition::GM, CubeFormat::ND, half>,
                    AscendC::MatmulType<AscendC::TPosition::GM, CubeFormat::ND, float>> mm;
    REGIST_MATMUL_OBJ(&pipe, nullptr, mm, &tiling);
    if (AscendC::GetBlockIdx() != 0) {
        return;
    }
    mm.SetTensorA(aGm);
    mm.SetTensorB(bGm);
    mm.SetOrgShape(tiling.M, tiling.N, tiling.Ka);
    mm.SetSingleShape(tiling.M, tiling.N, tiling.Ka);
    while (mm.Iterate()) {
        mm.GetTensorC(cGm, 1);
    }
    mm.End();
}
"""


def test_matmul_get_tensor_c_with_en_atomic_adds_into_c():
    rng = np.random.default_rng(14)
    m, n, k = 96, 160, 80
    a, b = _ints(rng, (m, k)), _ints(rng, (k, n))
    tiling = _tiling(m, n, k, 1)
    kernel = pyasc.ascendc.load(ATOMIC_SRC, "mm_accumulate")
    c0 = _ints(rng, (m, n), np.float32)
    c = c0.copy()
    kernel[1](a, b, c, tiling)
    np.testing.assert_array_equal(c, c0 + a.astype(np.float32) @ b.astype(np.float32))


# --- the basic cube APIs, written by hand ---------------------------------------------------

# C = A (M x K) B (K x N) + bias in two K steps: ND -> NZ into L1 (DataCopy with Nd2NzParams),
# L1 -> L0A/L0B (LoadData; B's fractals transposed; A's first step straight from GM, where aZz
# holds it in L0A's fractal order), Mmad with the bias, then accumulating; C out three ways:
# Fixpipe to GM as ND float, to GM as half with relu (quantPre F322F16), and to the UB as NZ,
# which DataCopy with Nz2NdParamsFull writes to GM as ND.
STEPS_SRC = r"""
#include "kernel_operator.h"
using namespace AscendC;

constexpr int32_t M = 32, N = 48, K = 64, KS = 32;
constexpr int32_t M1 = M / 16, N1 = N / 16, K1 = KS / 16, FRACTAL = 16 * 16;

extern "C" __global__ __aicore__ void cube_steps(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR aZz,
                                                 GM_ADDR c, GM_ADDR cHalf, GM_ADDR cViaNz)
{
    GlobalTensor<half> aGm, bGm, aZzGm, cHalfGm;
    GlobalTensor<float> biasGm, cGm, cViaNzGm;
    aGm.SetGlobalBuffer(reinterpret_cast<__gm__ half *>(a), M * K);
    bGm.SetGlobalBuffer(reinterpret_cast<__gm__ half *>(b), K * N);
    aZzGm.SetGlobalBuffer(reinterpret_cast<__gm__ half *>(aZz), M * KS);
    biasGm.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(bias), N);
    cGm.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(c), M * N);
    cHalfGm.SetGlobalBuffer(reinterpret_cast<__gm__ half *>(cHalf), M * N);
    cViaNzGm.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(cViaNz), M * N);

    TPipe pipe;
    TQue<TPosition::A1, 1> a1Que;
    TQue<TPosition::B1, 1> b1Que;
    TQue<TPosition::C1, 1> biasQue;
    TQue<TPosition::A2, 1> a2Que;
    TQue<TPosition::B2, 1> b2Que;
    TQue<TPosition::CO1, 1> co1Que;
    TQue<TPosition::VECOUT, 1> nzQue;
    pipe.InitBuffer(a1Que, 1, M * KS * sizeof(half));
    pipe.InitBuffer(b1Que, 1, KS * N * sizeof(half));
    pipe.InitBuffer(biasQue, 1, N * sizeof(float));
    pipe.InitBuffer(a2Que, 1, M * KS * sizeof(half));
    pipe.InitBuffer(b2Que, 1, KS * N * sizeof(half));
    pipe.InitBuffer(co1Que, 1, M * N * sizeof(float));
    pipe.InitBuffer(nzQue, 1, M * N * sizeof(float));

    LocalTensor<float> biasL1 = biasQue.AllocTensor<float>();
    DataCopy(biasL1, biasGm, Nd2NzParams(1, 1, N, 0, N, 1, 1, 0));  // one row stays a row
    biasQue.EnQue(biasL1);
    biasL1 = biasQue.DeQue<float>();

    LocalTensor<float> acc = co1Que.AllocTensor<float>();
    for (int32_t step = 0; step < K / KS; ++step) {
        LocalTensor<half> a1 = a1Que.AllocTensor<half>();
        LocalTensor<half> b1 = b1Que.AllocTensor<half>();
        DataCopy(a1, aGm[step * KS], Nd2NzParams(1, M, KS, 0, K, M, 1, 0));
        DataCopy(b1, bGm[step * KS * N], Nd2NzParams(1, KS, N, 0, N, KS, 1, 0));
        a1Que.EnQue(a1);
        b1Que.EnQue(b1);
        a1 = a1Que.DeQue<half>();
        b1 = b1Que.DeQue<half>();
        LocalTensor<half> a2 = a2Que.AllocTensor<half>();
        LocalTensor<half> b2 = b2Que.AllocTensor<half>();
        if (step == 0) {
            LoadData(a2, aZzGm, LoadData2DParams(0, M1 * K1, 1, 0, 0, false, 0));
        } else {
            for (int32_t i = 0; i < M1; ++i) {
                LoadData(a2[i * K1 * FRACTAL], a1, LoadData2DParams(i, K1, M1, 0, 0, false, 0));
            }
        }
        for (int32_t q = 0; q < K1; ++q) {
            LoadData(b2[q * N1 * FRACTAL], b1, LoadData2DParams(q, N1, K1, 0, 0, true, 0));
        }
        a1Que.FreeTensor(a1);
        b1Que.FreeTensor(b1);
        a2Que.EnQue(a2);
        b2Que.EnQue(b2);
        a2 = a2Que.DeQue<half>();
        b2 = b2Que.DeQue<half>();
        if (step == 0) {
            Mmad(acc, a2, b2, biasL1, MmadParams(M, N, KS, 0, false, true));
        } else {
            Mmad(acc, a2, b2, MmadParams(M, N, KS, 0, false, false));
        }
        a2Que.FreeTensor(a2);
        b2Que.FreeTensor(b2);
    }
    co1Que.EnQue(acc);
    acc = co1Que.DeQue<float>();
    Fixpipe(cGm, acc, FixpipeParamsV220(N, M, M, N, false));
    FixpipeParamsV220 toHalf(N, M, M, N, true);
    toHalf.quantPre = QuantMode_t::F322F16;
    // CANN documents FixpipeConfig with isToUB (false: GM, as on dav-2201)
    static constexpr FixpipeConfig ROW_MAJOR_GM = {CO2Layout::ROW_MAJOR, false};
    Fixpipe<half, float, ROW_MAJOR_GM>(cHalfGm, acc, toHalf);
    LocalTensor<float> nz = nzQue.AllocTensor<float>();
    // NZ: dstStride counts 32-byte blocks between column blocks
    Fixpipe<float, float, CFG_NZ>(nz, acc, FixpipeParamsV220(N, M, M, M * 2, false));
    nzQue.EnQue(nz);
    nz = nzQue.DeQue<float>();
    DataCopy(cViaNzGm, nz, Nz2NdParamsFull(1, M, N, 0, M, N, 0));
    nzQue.FreeTensor(nz);
    co1Que.FreeTensor(acc);
    biasQue.FreeTensor(biasL1);
}
"""


@pytest.mark.parametrize("debug", [False, True], ids=["plain", "checked"])
def test_basic_cube_apis_match_numpy(debug):
    rng = np.random.default_rng(15)
    m, n, k, ks = 32, 48, 64, 32
    a, b = _ints(rng, (m, k)), _ints(rng, (k, n))
    bias = _ints(rng, (n,), np.float32)
    # L0A's order: 16 x 16 fractals row by row, each row-major
    a_zz = np.ascontiguousarray(a[:, :ks].reshape(m // 16, 16, ks // 16, 16).transpose(0, 2, 1, 3))
    c, c_half, c_nz = (np.zeros((m, n), np.float32), np.zeros((m, n), np.float16),
                       np.zeros((m, n), np.float32))
    kernel = pyasc.ascendc.load(STEPS_SRC, "cube_steps", debug=debug)
    kernel[1](a, b, bias, a_zz, c, c_half, c_nz)
    ref = a.astype(np.float32) @ b.astype(np.float32) + bias
    np.testing.assert_array_equal(c, ref)
    np.testing.assert_array_equal(c_half, np.maximum(ref, 0).astype(np.float16))
    np.testing.assert_array_equal(c_nz, ref)


def test_fixpipe_to_the_ub_is_dav_3510s():
    """isToUB: L0C to the Unified Buffer, which dav-2201's Fixpipe cannot: a compile error."""
    src = STEPS_SRC.replace("{CO2Layout::ROW_MAJOR, false}", "{CO2Layout::ROW_MAJOR, true}")
    with pytest.raises(pyasc.CompileError, match="isToUB .* is dav-3510's"):
        pyasc.ascendc.load(src, "cube_steps")


# --- errors at the user's line ---------------------------------------------------------------

def _line_of(source: str, text: str) -> int:
    return next(i for i, line in enumerate(source.splitlines(), 1) if text in line)


def test_mmad_with_an_l1_operand_fails_at_the_users_line_in_checked_mode():
    source = STEPS_SRC.replace("Mmad(acc, a2, b2, MmadParams(M, N, KS, 0, false, false));",
                               "Mmad(acc, b1Que.AllocTensor<half>(), b2, MmadParams(M, N, KS, 0, "
                               "false, false));")
    kernel = pyasc.ascendc.load(source, "cube_steps", debug=True)
    m, n, k = 32, 48, 64
    with pytest.raises(pyasc.KernelError) as e:
        kernel[1](np.zeros((m, k), np.float16), np.zeros((k, n), np.float16),
                  np.zeros(n, np.float32), np.zeros((m, 32), np.float16),
                  np.zeros((m, n), np.float32), np.zeros((m, n), np.float16),
                  np.zeros((m, n), np.float32))
    line = _line_of(source, "b1Que.AllocTensor<half>(), b2")
    assert f"<string>:{line}:" in str(e.value) and "L0A (A2)" in str(e.value)


def test_get_tensor_c_before_iterate_fails_at_the_users_line():
    source = ATOMIC_SRC.replace("while (mm.Iterate()) {", "mm.GetTensorC(cGm);\n    while (mm.Iterate()) {")
    kernel = pyasc.ascendc.load(source, "mm_accumulate")
    tiling = _tiling(32, 32, 32, 1)
    with pytest.raises(pyasc.KernelError, match=rf"<string>:{_line_of(source, 'mm.GetTensorC(cGm);')}:.*no block"):
        kernel[1](np.zeros((32, 32), np.float16), np.zeros((32, 32), np.float16),
                  np.zeros((32, 32), np.float32), tiling)


def _steps_with_two_nd_matrices(src_nd_stride: int, debug: bool = False):
    """STEPS_SRC with its half output moved as two ND matrices of M / 2 rows:
    the second starts src_nd_stride fractals into L0C and M / 2 rows on in
    GM. Returns (c_half, the reference, the kernel's inputs)."""
    source = STEPS_SRC.replace("FixpipeParamsV220 toHalf(N, M, M, N, true);",
                               "FixpipeParamsV220 toHalf(N, M / 2, M, N, true);\n"
                               f"    toHalf.ndNum = 2;\n    toHalf.srcNdStride = {src_nd_stride};\n"
                               "    toHalf.dstNdStride = M / 2 * N;")
    kernel = pyasc.ascendc.load(source, "cube_steps", debug=debug)
    rng = np.random.default_rng(16)
    m, n, k, ks = 32, 48, 64, 32
    a, b = _ints(rng, (m, k)), _ints(rng, (k, n))
    bias = _ints(rng, (n,), np.float32)
    a_zz = np.ascontiguousarray(a[:, :ks].reshape(m // 16, 16, ks // 16, 16).transpose(0, 2, 1, 3))
    c_half = np.zeros((m, n), np.float16)
    kernel[1](a, b, bias, a_zz, np.zeros((m, n), np.float32), c_half, np.zeros((m, n), np.float32))
    return c_half, a.astype(np.float32) @ b.astype(np.float32) + bias


@pytest.mark.parametrize("debug", [False, True], ids=["plain", "checked"])
def test_fixpipe_nd_num_moves_several_matrices(debug):
    """L0C's column blocks are M rows: the rows M / 2.. start one fractal in."""
    c_half, ref = _steps_with_two_nd_matrices(1, debug)
    np.testing.assert_array_equal(c_half, np.maximum(ref, 0).astype(np.float16))


def test_fixpipe_nd_stride_out_of_range_is_an_error():
    with pytest.raises(pyasc.KernelError, match=r"src_nd_stride 513: \[0, 512\]"):
        _steps_with_two_nd_matrices(513)


# Fixpipe into L1 (C1) as NZ int8 with a vector quant (VQF322B8_PRE): CANN's cbufWorkspace is a
# LocalTensor<uint64_t> in L1, one uint64 per channel with the scale's float32 bits in its low
# word (bit 46 the int8 sign); NZ int8 column blocks are 32 channels wide, dstStride 32-byte
# blocks apart. The fixpipe moves the vector into its own buffer first, so CANN's
# fixpipe_l0c2l1 example puts it at the same L1 address as the output (OVERLAP 1).
VQUANT_L1_SRC = r"""
#include "kernel_operator.h"
using namespace AscendC;

constexpr int32_t M = 32, N = 64, K = 32, M1 = M / 16, N1 = N / 16, K1 = K / 16, FRACTAL = 256;

extern "C" __global__ __aicore__ void vquant_l1(GM_ADDR a, GM_ADDR b, GM_ADDR scales, GM_ADDR c)
{
    GlobalTensor<half> aGm, bGm;
    GlobalTensor<uint64_t> sGm;
    GlobalTensor<int8_t> cGm;
    aGm.SetGlobalBuffer(reinterpret_cast<__gm__ half *>(a), M * K);
    bGm.SetGlobalBuffer(reinterpret_cast<__gm__ half *>(b), K * N);
    sGm.SetGlobalBuffer(reinterpret_cast<__gm__ uint64_t *>(scales), N);  // N uint64s: 512 bytes
    cGm.SetGlobalBuffer(reinterpret_cast<__gm__ int8_t *>(c), M * N);
    TPipe pipe;
    TQue<TPosition::A1, 1> a1Que;
    TQue<TPosition::B1, 1> b1Que;
    TQue<TPosition::A2, 1> a2Que;
    TQue<TPosition::B2, 1> b2Que;
    TQue<TPosition::CO1, 1> co1Que;
    TQue<TPosition::C1, 1> outQue, scaleQue;
    pipe.InitBuffer(a1Que, 1, M * K * sizeof(half));
    pipe.InitBuffer(b1Que, 1, K * N * sizeof(half));
    pipe.InitBuffer(a2Que, 1, M * K * sizeof(half));
    pipe.InitBuffer(b2Que, 1, K * N * sizeof(half));
    pipe.InitBuffer(co1Que, 1, M * N * sizeof(float));
    pipe.InitBuffer(outQue, 1, M * N);
    pipe.InitBuffer(scaleQue, 1, N * sizeof(uint64_t));

    LocalTensor<half> a1 = a1Que.AllocTensor<half>();
    LocalTensor<half> b1 = b1Que.AllocTensor<half>();
    DataCopy(a1, aGm, Nd2NzParams(1, M, K, 0, K, M, 1, 0));
    DataCopy(b1, bGm, Nd2NzParams(1, K, N, 0, N, K, 1, 0));
    PipeBarrier<PIPE_ALL>();
    LocalTensor<half> a2 = a2Que.AllocTensor<half>();
    LocalTensor<half> b2 = b2Que.AllocTensor<half>();
    for (int32_t i = 0; i < M1; ++i) {
        LoadData(a2[i * K1 * FRACTAL], a1, LoadData2DParams(i, K1, M1, 0, 0, false, 0));
    }
    for (int32_t q = 0; q < K1; ++q) {
        LoadData(b2[q * N1 * FRACTAL], b1, LoadData2DParams(q, N1, K1, 0, 0, true, 0));
    }
    PipeBarrier<PIPE_ALL>();
    LocalTensor<float> acc = co1Que.AllocTensor<float>();
    Mmad(acc, a2, b2, MmadParams(M, N, K, 0, false, true));
    PipeBarrier<PIPE_ALL>();

    LocalTensor<int8_t> out = outQue.AllocTensor<int8_t>();
#if OVERLAP
    LocalTensor<uint64_t> scalesL1 = out.ReinterpretCast<uint64_t>();
#else
    LocalTensor<uint64_t> scalesL1 = scaleQue.AllocTensor<uint64_t>();
#endif
    DataCopy(scalesL1, sGm, DataCopyParams(1, N * sizeof(uint64_t) / 32, 0, 0));
    PipeBarrier<PIPE_ALL>();
    FixpipeParamsV220 p;
    p.nSize = N;
    p.mSize = M;
    p.srcStride = M;
    p.dstStride = M * 32 / 32;  // an int8 column block: M rows of 32 bytes
    p.quantPre = QuantMode_t::VQF322B8_PRE;
    Fixpipe<int8_t, float, CFG_NZ>(out, acc, scalesL1, p);
    PipeBarrier<PIPE_ALL>();
    DataCopy(cGm, out, DataCopyParams(1, M * N / 32, 0, 0));
}
"""


@pytest.mark.parametrize("overlap", [False, True], ids=["apart", "overlapping"])
@pytest.mark.parametrize("debug", [False, True], ids=["plain", "checked"])
def test_fixpipe_vector_quant_into_l1_scales_each_channel_by_its_uint64(overlap, debug):
    rng = np.random.default_rng(21)
    m, n, k = 32, 64, 32
    a, b = _ints(rng, (m, k)), _ints(rng, (k, n))
    # a different scale per channel, each exact in the fixpipe's 10 mantissa bits
    scale = (rng.integers(1, 17, n) / 4 * np.where(np.arange(n) % 3 == 0, -1, 1)).astype(np.float32)
    words = scale.view(np.uint32).astype(np.uint64) | np.uint64(1 << 46)  # bit 46: int8 sign
    c = np.zeros(m * n, np.int8)
    source = VQUANT_L1_SRC.replace("#if OVERLAP", f"#if {int(overlap)}")
    kernel = pyasc.ascendc.load(source, "vquant_l1", debug=debug)
    kernel[1](a, b, words, c)
    acc = a.astype(np.float32) @ b.astype(np.float32)
    want = np.clip(np.rint(acc * scale), -128, 127).astype(np.int8)
    assert (np.abs(acc * scale) > 127).any() and (want[:, 1::2] != 0).any()
    # NZ int8: column blocks of 32 channels, each M rows of 32 bytes
    got = c.reshape(n // 32, m, 32).transpose(1, 0, 2).reshape(m, n)
    np.testing.assert_array_equal(got, want)


# DataCopy GM -> L1 with Nd2NzParams whose last ND matrix runs past the source's end, as CANN's
# load_data_l12l0 scenario 14 does (a [k, m] float matrix cut into ndNum matrices of 16 rows to
# make a Zz layout, k = 70): the device reads whatever follows in global memory; plain mode reads
# zeros there (as its other global memory reads), checked mode reports the read.
ND2NZ_PAST_END_SRC = r"""
#include "kernel_operator.h"
using namespace AscendC;

constexpr int32_t ROWS = 20, COLS = 16, ND = 2;

extern "C" __global__ __aicore__ void nd2nz_past_end(GM_ADDR a, GM_ADDR fill, GM_ADDR out)
{
    GlobalTensor<float> aGm, fillGm, outGm;
    aGm.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(a));
    fillGm.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(fill));
    outGm.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(out));
    TPipe pipe;
    TQue<TPosition::A1, 1> a1Que;
    pipe.InitBuffer(a1Que, 1, ND * 16 * COLS * sizeof(float));
    LocalTensor<float> a1 = a1Que.AllocTensor<float>();
    DataCopy(a1, fillGm, DataCopyParams(1, ND * 16 * COLS * sizeof(float) / 32, 0, 0));
    PipeBarrier<PIPE_ALL>();
    // ND matrices of 16 rows, 16 * COLS elements apart in GM and in L1 (one NZ matrix each)
    DataCopy(a1, aGm, Nd2NzParams(ND, 16, COLS, 16 * COLS, COLS, 16, 1, 16 * COLS));
    PipeBarrier<PIPE_ALL>();
    DataCopy(outGm, a1, DataCopyParams(1, ND * 16 * COLS * sizeof(float) / 32, 0, 0));
}
"""


@pytest.mark.parametrize("debug", [False, True], ids=["plain", "checked"])
def test_nd2nz_rows_past_the_source_end_read_as_zeros(debug):
    rng = np.random.default_rng(23)
    a = rng.integers(-9, 10, (20, 16)).astype(np.float32)
    fill = np.full((32, 16), 7.0, np.float32)
    out = np.zeros(32 * 16, np.float32)
    kernel = pyasc.ascendc.load(ND2NZ_PAST_END_SRC, "nd2nz_past_end", debug=debug)
    if debug:
        line = _line_of(ND2NZ_PAST_END_SRC, "DataCopy(a1, aGm, Nd2NzParams(")
        with pytest.raises(pyasc.KernelError, match=rf"<string>:{line}: data_copy: Nd2Nz reads"):
            kernel[1](a, fill, out)
        return
    kernel[1](a, fill, out)
    want = np.zeros((32, 16), np.float32)
    want[:20] = a
    # L1: matrix i (rows 16 i..), its column blocks of 8 floats, 16 rows each
    got = out.reshape(2, 2, 16, 8).transpose(0, 2, 1, 3).reshape(32, 16)
    np.testing.assert_array_equal(got, want)


def test_the_tiling_struct_matches_the_hosts_field_order():
    """TCubeTiling's members in kernel_operator.h are the host's, in its order: a kernel that
    writes each member back gives the struct's own values."""
    names = [c for _py, c in _C.tiling_fields()]
    body = "\n".join(f"    out[{i}] = t.{c};" for i, c in enumerate(names))
    source = ("#include \"kernel_operator.h\"\n"
              "extern \"C\" __global__ __aicore__ void echo(__gm__ TCubeTiling *tiling, "
              "__gm__ int32_t *out)\n{\n    TCubeTiling t = *tiling;\n" + body + "\n}\n")
    kernel = pyasc.ascendc.load(source, "echo")
    tiling = TCubeTiling()
    for i, (py, _c) in enumerate(_C.tiling_fields()):
        setattr(tiling, py, 1000 + 7 * i)
    out = np.zeros(len(names), np.int32)
    kernel[1](tiling, out)
    np.testing.assert_array_equal(out, 1000 + 7 * np.arange(len(names)))


# --- core kinds and cross-core flags ---------------------------------------------------------

# Each group's AIVs write a value and set flag 3 (mode 2); the AIC waits for both, writes their
# sum and sets flag 4; the AIVs wait for it and read the sum back: wrong without the ordering.
HANDOFF_SRC = r"""
#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void handoff(GM_ADDR data, GM_ADDR out, GM_ADDR kinds)
{
    GlobalTensor<int32_t> d;
    GlobalTensor<int32_t> o;
    GlobalTensor<int32_t> k;
    d.SetGlobalBuffer(reinterpret_cast<__gm__ int32_t *>(data));
    o.SetGlobalBuffer(reinterpret_cast<__gm__ int32_t *>(out));
    k.SetGlobalBuffer(reinterpret_cast<__gm__ int32_t *>(kinds));
    int32_t groups = GetBlockNum();
    if ASCEND_IS_AIV {
        int32_t g = GetBlockIdx() / 2;
        int32_t sub = GetSubBlockIdx();
        k.SetValue(GetBlockIdx(), 10 * static_cast<int32_t>(GetSubBlockNum()) + sub);
        d.SetValue(2 * g + sub, (sub + 1) * 100 + g);
        CrossCoreSetFlag<2, PIPE_MTE3>(3);
        CrossCoreWaitFlag<2, PIPE_S>(4);
        o.SetValue(2 * g + sub, d.GetValue(2 * groups + g));
    } else {
        int32_t g = GetBlockIdx();
        k.SetValue(2 * groups + g, g_coreType == AscendC::AIC ? -1 : -2);
        CrossCoreWaitFlag<2, PIPE_S>(3);
        d.SetValue(2 * groups + g, d.GetValue(2 * g) + d.GetValue(2 * g + 1));
        CrossCoreSetFlag<2, PIPE_MTE3>(4);
    }
}
"""


def test_cross_core_flags_order_a_groups_aic_and_aivs():
    kernel = pyasc.ascendc.load(HANDOFF_SRC, "handoff")
    groups = 5
    data, out = np.zeros(3 * groups, np.int32), np.zeros(2 * groups, np.int32)
    kinds = np.zeros(3 * groups, np.int32)
    kernel[groups](data, out, kinds)
    g = np.arange(groups)
    np.testing.assert_array_equal(out, np.repeat(300 + 2 * g, 2))
    # AIVs: GetSubBlockNum() 2 and their sub-block; the AICs see g_coreType == AIC
    np.testing.assert_array_equal(kinds, [20, 21] * groups + [-1] * groups)


# Mode 0 over every AIV of an AIV-only launch: all of them must have written before any reads.
MODE0_SRC = r"""
#include "kernel_operator.h"
KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);

extern "C" __global__ __aicore__ void all_sum(GM_ADDR data, GM_ADDR out)
{
    AscendC::GlobalTensor<int32_t> d;
    AscendC::GlobalTensor<int32_t> o;
    d.SetGlobalBuffer(reinterpret_cast<__gm__ int32_t *>(data));
    o.SetGlobalBuffer(reinterpret_cast<__gm__ int32_t *>(out));
    int32_t me = AscendC::GetBlockIdx();
    d.SetValue(me, (me + 1) * (me + 1));
    AscendC::CrossCoreSetFlag<0, PIPE_MTE3>(1);
    AscendC::CrossCoreWaitFlag<0, PIPE_S>(1);
    int32_t sum = 0;
    for (int32_t i = 0; i < AscendC::GetBlockNum(); ++i) {
        sum += d.GetValue(i);
    }
    o.SetValue(me, sum);
}
"""


def test_mode0_cross_core_flags_meet_every_aiv_of_the_launch():
    kernel = pyasc.ascendc.load(MODE0_SRC, "all_sum")
    blocks = 6
    data, out = np.zeros(blocks, np.int32), np.zeros(blocks, np.int32)
    kernel[blocks](data, out)
    np.testing.assert_array_equal(out, np.full(blocks, sum((i + 1) ** 2 for i in range(blocks))))


# --- the other cube and Matmul forms, as the emitter writes them -----------------------------

def test_emitted_matmul_members_and_cube_forms_run_like_the_python_kernels():
    """Other tests' kernels, each launch also run as its Ascend C (ascendc_roundtrip.py) and
    checked by their own NumPy asserts: Matmul's batch forms, IterateNBatch with SetWorkspace,
    quantised outputs (SetQuantScalar/Vector), callbacks' data, A/B/bias from LocalTensors,
    scalar operands, a MatmulConfig, SetOrgShape with Kc; DataCopy from L0C with
    DataCopyCO12DstParams and SetFixpipePreQuantFlag; LoadDataWithTranspose; the sparse
    LoadDataWithSparse and MmadWithSparse."""
    roundtrip = importlib.import_module("ascendc_roundtrip")
    batch = importlib.import_module("test_matmul_batch")
    co12 = importlib.import_module("test_cube_co12")
    load_t = importlib.import_module("test_cube_load_transpose")
    local = importlib.import_module("test_matmul_local")
    forms = importlib.import_module("test_upstream_forms_matmul")
    sparse = importlib.import_module("test_cube_sparse")
    hook = roundtrip.RoundTrip()
    hook.install()
    try:
        batch.test_iterate_batch_matches_numpy(3, 3, 0, 0)
        batch.test_iterate_batch_matches_numpy(2, 2, 1, 0)
        for vector in (False, True):
            batch.test_dequant_int8_to_half(vector)
            batch.test_requant_int8_to_int8(vector)
        batch.test_iterate_n_batch_through_the_workspace()
        batch.test_callback_data_is_accepted_and_changes_nothing()
        co12.test_no_quant_float32()
        co12.test_relu_pre()
        co12.test_f322f16()
        co12.test_qf322b8_pre_scales_by_the_pre_quant_flag(3.0)
        co12.test_nz_output()
        for v2 in (False, True):
            load_t.test_load_data_with_transpose_matmul(v2)
        load_t.test_load_data_with_transpose_int8(32, 64, 32)
        load_t.test_load_data_with_transpose_float32(48, True)
        for case in sorted(local.CASES):
            local.test_local_operands_equal_numpy(case)
        for form in (0, 1, 2, 4):
            forms.test_config_and_scalar_operands(form)
        forms.test_org_kc_is_cs_row_length()
        sparse.test_sparse_matmul_exact(sparse.plain_kernel, 20, 30, 72)
        sparse.test_split_loads_and_accumulate(sparse.plain_kernel)
    finally:
        hook.uninstall()
    assert not hook.mismatched and not hook.unsupported and not hook.no_form, hook.report()
    assert sum(hook.matched.values()) >= 34, hook.report()


BAD_MMAD_SRC = r"""
#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void bad_types(GM_ADDR unused)
{
    (void)unused;
    TPipe pipe;
    TQue<TPosition::A2, 1> a2Que;
    TQue<TPosition::B2, 1> b2Que;
    TQue<TPosition::CO1, 1> co1Que;
    pipe.InitBuffer(a2Que, 1, 512);
    pipe.InitBuffer(b2Que, 1, 512);
    pipe.InitBuffer(co1Que, 1, 1024);
    LocalTensor<half> a2 = a2Que.AllocTensor<half>();
    LocalTensor<half> b2 = b2Que.AllocTensor<half>();
    LocalTensor<int32_t> c = co1Que.AllocTensor<int32_t>();
    Mmad(c, a2, b2, MmadParams(16, 16, 16, 0, false, true));
}
"""


def test_mmad_of_half_into_int32_is_refused_at_the_users_line():
    kernel = pyasc.ascendc.load(BAD_MMAD_SRC, "bad_types")
    line = _line_of(BAD_MMAD_SRC, "Mmad(c, a2, b2")
    with pytest.raises(pyasc.KernelError, match=rf"<string>:{line}: Mmad: fm and filter must be"):
        kernel[1](np.zeros(1, np.uint8))
