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
