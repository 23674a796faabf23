"""Ascend C's cross-core flags as CANN documents them for A2 (dav-2201): a
CrossCoreSetFlag's mode says which cores' counters it raises, while
CrossCoreWaitFlag's modeId has no effect there: a wait takes one from its
own core's counter of the flag, whichever mode raised it (CANN's
matmul_leakyrelu_basic_api waits with the default mode 0 for the AIC's
mode-2 set)."""

from __future__ import annotations

import numpy as np
import pytest

import pyasc

# The AIVs write a value each and set flag 3 (mode 2); the AIC waits for it
# with WAIT_AIC's mode, writes the sum and sets flag 4 (mode 2); the AIVs wait
# with WAIT_AIV's mode and read the sum back: wrong without the ordering.
HANDOFF_SRC = r"""
#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void handoff(GM_ADDR data, GM_ADDR out)
{
    GlobalTensor<int32_t> d;
    GlobalTensor<int32_t> o;
    d.SetGlobalBuffer(reinterpret_cast<__gm__ int32_t *>(data));
    o.SetGlobalBuffer(reinterpret_cast<__gm__ int32_t *>(out));
    int32_t groups = GetBlockNum();
    if ASCEND_IS_AIV {
        int32_t g = GetBlockIdx() / 2;
        int32_t sub = GetSubBlockIdx();
        d.SetValue(2 * g + sub, (sub + 1) * 100 + g);
        CrossCoreSetFlag<2, PIPE_MTE3>(3);
        CrossCoreWaitFlag WAIT_AIV(4);
        o.SetValue(2 * g + sub, d.GetValue(2 * groups + g));
    } else {
        int32_t g = GetBlockIdx();
        CrossCoreWaitFlag WAIT_AIC(3);
        d.SetValue(2 * groups + g, d.GetValue(2 * g) + d.GetValue(2 * g + 1));
        CrossCoreSetFlag<2, PIPE_MTE3>(4);
    }
}
"""


def _handoff(wait_aic: str, wait_aiv: str, groups: int) -> np.ndarray:
    src = HANDOFF_SRC.replace("WAIT_AIC", wait_aic).replace("WAIT_AIV", wait_aiv)
    kernel = pyasc.ascendc.load(src, "handoff")
    data, out = np.zeros(3 * groups, np.int32), np.zeros(2 * groups, np.int32)
    kernel[groups](data, out)
    return out


@pytest.mark.parametrize("wait_aic, wait_aiv", [
    ("", ""),                          # the default mode 0 for mode-2 sets
    ("<1, PIPE_S>", "<0, PIPE_S>"),    # a mode 0 written out: the blocks run together
    ("<2, PIPE_S>", "<2, PIPE_S>"),    # the set's own mode, as before
])
@pytest.mark.parametrize("groups", [1, 3])
def test_a_waits_mode_has_no_effect_on_a2(wait_aic, wait_aiv, groups):
    out = _handoff(wait_aic, wait_aiv, groups)
    g = np.arange(groups)
    np.testing.assert_array_equal(out, np.repeat(300 + 2 * g, 2))


# The AIVs wait on a flag nobody sets: the device would hang there.
NEVER_SRC = r"""
#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void never(GM_ADDR data)
{
    GlobalTensor<int32_t> d;
    d.SetGlobalBuffer(reinterpret_cast<__gm__ int32_t *>(data));
    if ASCEND_IS_AIV {
        CrossCoreWaitFlag(5);
        d.SetValue(GetBlockIdx(), 1);
    } else {
        CrossCoreSetFlag<2, PIPE_MTE3>(4);
    }
}
"""


def test_a_wait_no_mode_releases_is_an_error():
    kernel = pyasc.ascendc.load(NEVER_SRC, "never")
    with pytest.raises(pyasc.KernelError, match=r"flag 5 \(any mode.*is never set"):
        kernel[1](np.zeros(2, np.int32))


RATIO_SRC = r"""
#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void ratio(GM_ADDR out)
{
    GlobalTensor<int64_t> o;
    o.SetGlobalBuffer(reinterpret_cast<__gm__ int64_t *>(out));
    if ASCEND_IS_AIV {
        o.SetValue(GetBlockIdx(), GetTaskRation());
    } else {
        o.SetValue(2 * GetBlockNum() + GetBlockIdx(), GetTaskRation());
    }
}
"""


@pytest.mark.parametrize("groups", [1, 2])
def test_task_ratio_is_the_groups_vector_cores(groups):
    """GetTaskRation: 2 on each AIV of a mixed kernel's group (CANN's quant_group_matmul
    divides the AIV's block index by it to find its AIC), 1 on the AIC."""
    out = np.full(3 * groups, -1, np.int64)
    pyasc.ascendc.load(RATIO_SRC, "ratio")[groups](out)
    np.testing.assert_array_equal(out, [2] * (2 * groups) + [1] * groups)
