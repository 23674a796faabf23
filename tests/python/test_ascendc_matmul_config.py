"""Ascend C's MatmulConfig builders in the simulator's header (GetNormalConfig, GetMDLConfig,
GetSpecialMDLConfig, GetBasicConfig, GetSpecialBasicConfig, GetIBShareNormConfig, CFG_*,
GetMMConfig with its parameter structs), checked at compile time against the defaults CANN's
lib/matmul/tiling.h documents, and run: a Matmul with each predefined config computes C; and
which IterateBatch form a call's arguments pick."""

from __future__ import annotations

import shutil

import numpy as np
import pytest

import pyasc
from test_ascendc_cube import CUBE_ONLY_SRC, _ints, _tiling

pytestmark = pytest.mark.skipif(shutil.which("c++") is None and shutil.which("g++") is None,
                                reason="no C++ compiler")

CHECKS = r"""
static_assert(CFG_NORM.doNorm && CFG_NORM.enUnitFlag && CFG_NORM.enableReuse);
static_assert(CFG_NORM.batchMode == BatchMode::BATCH_LESS_THAN_L1);
static_assert(CFG_MDL.doMultiDataLoad && !CFG_MDL.doNorm && !CFG_MDL.enUnitFlag);
static_assert(CFG_MDL.batchMode == BatchMode::NONE && CFG_MDL.enableUBReuse);
static_assert(GetMDLConfig(false, false, 2).doMTE2Preload == 2);
static_assert(GetMDLConfig(false, false, 0, false, false, false, false, true, true, false, false,
                           true).enableKdimReorderLoad);
static_assert(GetSpecialMDLConfig().doSpecialMDL && !GetSpecialMDLConfig().enUnitFlag);
static_assert(MM_CFG_BB.doBasicBlock && MM_CFG_BB.basicM == 128 && MM_CFG_BB.basicK == 128);
static_assert(GetSpecialBasicConfig(64, 64, 32, 128, 128, 64, 2, 1).doSpecialBasicBlock);
static_assert(GetSpecialBasicConfig(64, 64, 32, 128, 128, 64, 2, 1).stepM == 2);
static_assert(CFG_IBSHARE_NORM.doIBShareNorm && CFG_IBSHARE_NORM.enUnitFlag);
static_assert(GetIBShareNormConfig(false, false, false, BatchMode::BATCH_LESS_THAN_L1, true)
                  .enableDoubleCache);
static_assert(GetNormalConfig(false, false, false, BatchMode::BATCH_LESS_THAN_L1, true,
                              IterateOrder::ORDER_N).iterateOrder == IterateOrder::ORDER_N);
constexpr MatmulShapeParams SHAPE = {128, 256, 64, 64, 128, 32};
constexpr MatmulFuncParams FUNC = {false, false, false, false, 1, IterateOrder::ORDER_M,
                                   ScheduleType::INNER_PRODUCT, true, false, false, true, true};
constexpr MatmulConfig MM = GetMMConfig<MatmulConfigMode::CONFIG_MDL>(SHAPE, FUNC);
static_assert(MM.doMultiDataLoad && MM.singleCoreN == 256 && MM.basicN == 128);
static_assert(MM.doMTE2Preload == 1 && MM.isA2B2Shared && MM.isEnableChannelSplit);
static_assert(!GetMMConfig<MatmulConfigMode::CONFIG_NORM>().isEnableChannelSplit);
static_assert(GetMMConfig<MatmulConfigMode::CONFIG_IBSHARE>(MatmulQuantParams{true, false})
                  .isPerTensor);
"""


def test_the_builders_give_canns_defaults():
    source = CUBE_ONLY_SRC.replace("using namespace AscendC;", "using namespace AscendC;\n" + CHECKS)
    assert CHECKS in source
    pyasc.ascendc.load(source, "mm_cube")  # a failed static_assert fails the build


@pytest.mark.parametrize("config", ["CFG_MDL", "CFG_IBSHARE_NORM", "MM_CFG_BB",
                                    "GetMDLConfig(false, false, 2)"])
def test_a_matmul_runs_with_each_config(config):
    source = CUBE_ONLY_SRC.replace("constexpr MatmulConfig NORM_CFG = CFG_NORM;",
                                   f"constexpr MatmulConfig NORM_CFG = {config};")
    assert config in source
    rng = np.random.default_rng(19)
    m, n, k = 64, 128, 64
    a, b = _ints(rng, (m, k)), _ints(rng, (k, n))
    c = np.zeros((m, n), np.float32)
    pyasc.ascendc.load(source, "mm_cube")[1](a, b, np.zeros((1, n), np.float32), c,
                                             _tiling(m, n, k, 1), np.zeros(1024, np.uint8))
    np.testing.assert_array_equal(c, a.astype(np.float32) @ b.astype(np.float32))


@pytest.mark.parametrize("call,error", [
    ("int32_t one = 1;\n    mm.IterateBatch(cGm, one, one, false);", None),
    ("mm.IterateBatch(cGm, false, 0, false);", "call set_batch_num"),
])
def test_iterate_batch_takes_the_form_its_arguments_name(call, error):
    """IterateBatch(c, batchA, batchB, false) with int counts (CANN's batch_matmul) is the counts'
    form, not the (enPartialSum, enAtomic) one, whose counts come from SetBatchNum."""
    source = CUBE_ONLY_SRC.replace("mm.IterateAll(cGm);", call)
    assert call in source
    rng = np.random.default_rng(20)
    m, n, k = 64, 128, 64
    a, b = _ints(rng, (m, k)), _ints(rng, (k, n))
    c = np.zeros((m, n), np.float32)
    args = (a, b, np.zeros((1, n), np.float32), c, _tiling(m, n, k, 1), np.zeros(1024, np.uint8))
    kernel = pyasc.ascendc.load(source, "mm_cube")
    if error:
        with pytest.raises(pyasc.KernelError, match=error):
            kernel[1](*args)
    else:
        kernel[1](*args)
        np.testing.assert_array_equal(c, a.astype(np.float32) @ b.astype(np.float32))


CEIL_SRC = r"""
#include "kernel_operator.h"
#include "lib/matmul_intf.h"

extern "C" __global__ __aicore__ void ceil_k(GM_ADDR out, int64_t d)
{
    AscendC::GlobalTensor<int64_t> o;
    o.SetGlobalBuffer((__gm__ int64_t *)out, 3);
    o.SetValue(0, AscendC::Ceil(int64_t{7}, d));
    o.SetValue(1, AscendC::CeilAlign(int64_t{7}, d));
    o.SetValue(2, AscendC::Ceil(uint32_t{8}, uint32_t{4}));
}
"""


def test_the_matmul_librarys_ceil_helpers():
    """AscendC::Ceil and CeilAlign on integers (CANN's matmul_utils.h, which matmul_l2cache
    calls); a divisor that is not positive is a KernelError at the caller's line."""
    out = np.zeros(3, np.int64)
    kernel = pyasc.ascendc.load(CEIL_SRC, "ceil_k")
    kernel[1](out, 4)
    np.testing.assert_array_equal(out, [2, 8, 2])
    line = next(i for i, text in enumerate(CEIL_SRC.splitlines(), 1) if "Ceil(int64_t{7}" in text)
    with pytest.raises(pyasc.KernelError, match=rf"<string>:{line}: .*num2 must be positive"):
        kernel[1](out, 0)


STATIC_SRC = r"""
#include "kernel_operator.h"
#include "lib/matmul_intf.h"
using namespace AscendC;

using A = MatmulType<TPosition::GM, CubeFormat::ND, half>;
using B = MatmulType<TPosition::GM, CubeFormat::ND, half>;
using C = MatmulType<TPosition::GM, CubeFormat::ND, float>;
constexpr MatmulShapeParams SHAPE = {1024, 1024, 1024, BASE_M, BASE_N, 32};
constexpr MatmulApiStaticTiling STATIC = [] {
    auto t = GetMatmulApiTiling<A, B, C, C>(GetMMConfig<MatmulConfigMode::CONFIG_MDL>(SHAPE));
    t.depthA1 = 4, t.depthB1 = 4, t.stepKa = 2, t.stepKb = 2;
    return t;
}();
static_assert(STATIC.baseM == BASE_M && STATIC.singleCoreK == 1024 && STATIC.stepKa == 2);
static_assert(GetMatmulApiTiling<A, B, C, C>(CFG_NORM).baseM == -1);

extern "C" __global__ __cube__ void mm_static(GM_ADDR a, GM_ADDR b, GM_ADDR c, int32_t m,
                                              int32_t n, int32_t k)
{
    GlobalTensor<half> aGm, bGm;
    GlobalTensor<float> cGm;
    aGm.SetGlobalBuffer((__gm__ half *)a);
    bGm.SetGlobalBuffer((__gm__ half *)b);
    cGm.SetGlobalBuffer((__gm__ float *)c);
    TPipe pipe;
    Matmul<A, B, C, C, STATIC> mm;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, (TCubeTiling *)nullptr);
    mm.SetOrgShape(m, n, k);
    mm.SetTail(m, n, k);
    mm.SetTensorA(aGm);
    mm.SetTensorB(bGm);
    mm.IterateAll(cGm);
    mm.End();
}
"""


@pytest.mark.parametrize("base", [(64, 128), (128, 256)])
def test_a_constant_tiling_runs_without_a_tcube_tiling(base):
    """GetMatmulApiTiling's MatmulApiStaticTiling as a Matmul's MM_CFG, registered with no
    TCubeTiling (CANN's matmul_constant_tiling): its base block and steps, the shapes from
    SetOrgShape and SetTail."""
    source = "#define ASCENDC_CUBE_ONLY\n" + STATIC_SRC.replace("BASE_M", str(base[0])).replace(
        "BASE_N", str(base[1]))
    rng = np.random.default_rng(22)
    m, n, k = 200, 300, 96
    a, b = _ints(rng, (m, k)), _ints(rng, (k, n))
    c = np.zeros((m, n), np.float32)
    pyasc.ascendc.load(source, "mm_static")[1](a, b, c, m, n, k)
    np.testing.assert_array_equal(c, a.astype(np.float32) @ b.astype(np.float32))


def test_a_constant_tiling_with_no_base_block_is_an_error():
    source = "#define ASCENDC_CUBE_ONLY\n" + STATIC_SRC.replace(
        "Matmul<A, B, C, C, STATIC> mm;",
        "constexpr static auto OPEN = GetMatmulApiTiling<A, B, C, C>(CFG_NORM);\n"
        "    Matmul<A, B, C, C, OPEN> mm;").replace("BASE_M", "64").replace("BASE_N", "64")
    assert "OPEN> mm" in source
    with pytest.raises(pyasc.KernelError, match="fixes no base block"):
        pyasc.ascendc.load(source, "mm_static")[1](np.zeros((16, 16), np.float16),
                                                   np.zeros((16, 16), np.float16),
                                                   np.zeros((16, 16), np.float32), 16, 16, 16)


PARTIAL_SRC = r"""
#define ASCENDC_CUBE_ONLY
#include "kernel_operator.h"
#include "lib/matmul_intf.h"
using namespace AscendC;

constexpr MatmulConfig PARTIAL = [] {
    MatmulConfig c = CFG_NORM;
    c.isPartialOutput = true;
    return c;
}();

extern "C" __global__ __aicore__ void mm_partial(GM_ADDR a, GM_ADDR b, GM_ADDR ws,
                                                 GM_ADDR tilingGm, GM_ADDR workspace)
{
    TCubeTiling tiling;
    auto words = reinterpret_cast<__gm__ int32_t *>(tilingGm);
    for (uint32_t i = 0; i < sizeof(TCubeTiling) / sizeof(int32_t); ++i)
        reinterpret_cast<int32_t *>(&tiling)[i] = words[i];
    GlobalTensor<half> aGm, bGm;
    GlobalTensor<float> wGm;
    aGm.SetGlobalBuffer((__gm__ half *)a);
    bGm.SetGlobalBuffer((__gm__ half *)b);
    wGm.SetGlobalBuffer((__gm__ float *)ws);
    TPipe pipe;
    Matmul<MatmulType<TPosition::GM, CubeFormat::ND, half>,
           MatmulType<TPosition::GM, CubeFormat::ND, half>,
           MatmulType<TPosition::GM, CubeFormat::ND, float>,
           MatmulType<TPosition::GM, CubeFormat::ND, float>, PARTIAL> mm;
    REGIST_MATMUL_OBJ(&pipe, workspace, mm, &tiling);
    mm.SetTensorA(aGm);
    mm.SetTensorB(bGm);
    uint32_t offset = 0;
    while (mm.Iterate()) {
        mm.GetTensorC(wGm[offset], 0, true);
        offset += tiling.baseM * tiling.baseN;
    }
    WRITE_ALL
    mm.End();
}
"""


def test_partial_output_gives_each_k_block_of_each_block():
    """MatmulConfig's isPartialOutput (CANN's matmul_partial_output): each Iterate is one base K
    block of one base block, its product not added to the others', and GetTensorC with
    enSequentialWrite writes it at the tensor's start, rows baseN apart."""
    rng = np.random.default_rng(24)
    m, n, k = 64, 64, 1024
    a, b = _ints(rng, (m, k)), _ints(rng, (k, n))
    tiling = _tiling(m, n, k, 1)
    bm, bn, bk = tiling.base_m, tiling.base_n, tiling.base_k
    mb, nb, kb = -(-m // bm), -(-n // bn), -(-k // bk)
    assert kb >= 2 and m % bm == 0 and n % bn == 0 and k % bk == 0
    ws = np.zeros((mb * nb, kb, bm, bn), np.float32)
    source = PARTIAL_SRC.replace("WRITE_ALL", "")
    pyasc.ascendc.load(source, "mm_partial")[1](a, b, ws, tiling, np.zeros(1024, np.uint8))
    af, bf = a.astype(np.float32), b.astype(np.float32)
    got = {}
    for blk in range(mb * nb):
        parts = ws[blk]
        total = parts.sum(axis=0)
        # the block's place: find it in the full product (the tiling's order)
        for i in range(mb):
            for j in range(nb):
                if np.array_equal(total, (af @ bf)[i * bm:(i + 1) * bm, j * bn:(j + 1) * bn]):
                    got[blk] = (i, j)
        i, j = got[blk]
        for q in range(kb):
            np.testing.assert_array_equal(
                parts[q], af[i * bm:(i + 1) * bm, q * bk:(q + 1) * bk]
                @ bf[q * bk:(q + 1) * bk, j * bn:(j + 1) * bn])
    assert sorted(got.values()) == [(i, j) for i in range(mb) for j in range(nb)]
    with pytest.raises(pyasc.KernelError, match="isPartialOutput Matmul's blocks are K parts"):
        pyasc.ascendc.load(PARTIAL_SRC.replace("WRITE_ALL", "mm.IterateAll(wGm);"),
                           "mm_partial")[1](a, b, ws, tiling, np.zeros(1024, np.uint8))
