"""Mixed kernels as on the device (rt/mix.h): a launch of N blocks runs N
groups of one AIC and two AIVs, each core with its own view of the block
index, and the cross-core flags order them for real."""

from __future__ import annotations

import numpy as np
import pytest

import pyasc as asc
from pyasc.language.options import KernelType


@asc.jit
def where_kernel(out: asc.GlobalAddress):
    """Each core writes (block_idx, sub_block_idx, sub_block_num, block_num)
    to its own row: AICs first, then the AIVs by block index."""
    g = asc.GlobalTensor()
    g.set_global_buffer(out)
    row = asc.get_block_idx()
    if asc.ascend_is_aiv():
        row = asc.get_block_num() + asc.get_block_idx()
    g.set_value(4 * row, asc.get_block_idx())
    g.set_value(4 * row + 1, asc.get_sub_block_idx())
    g.set_value(4 * row + 2, asc.get_sub_block_num())
    g.set_value(4 * row + 3, asc.get_block_num())


@pytest.mark.parametrize("groups", [1, 3, 24])
def test_a_mixed_launch_runs_one_aic_and_two_aivs_per_group(groups):
    out = np.full((3 * groups, 4), -1, np.int32)
    where_kernel[groups](out)
    aic = np.stack([np.arange(groups), np.zeros(groups), np.ones(groups),
                    np.full(groups, groups)], axis=1)
    aiv_idx = np.arange(2 * groups)
    aiv = np.stack([aiv_idx, aiv_idx % 2, np.full(2 * groups, 2), np.full(2 * groups, groups)],
                   axis=1)
    np.testing.assert_array_equal(out, np.concatenate([aic, aiv]).astype(np.int32))


def test_cube_only_and_vector_only_launches_run_one_core_per_block():
    cube = asc.jit(matmul_cube_only=True)(where_kernel.fn)
    out = np.full((6, 4), -1, np.int32)
    cube[3](out)  # AICs alone: rows 0..2, sub-block 0 of 1
    np.testing.assert_array_equal(out[:3], [[i, 0, 1, 3] for i in range(3)])
    assert (out[3:] == -1).all()
    vec = asc.jit(kernel_type=KernelType.AIV_ONLY)(where_kernel.fn)
    out[:] = -1
    vec[3](out)  # AIVs alone: rows 3..5
    np.testing.assert_array_equal(out[3:], [[i, 0, 1, 3] for i in range(3)])
    assert (out[:3] == -1).all()


@asc.jit
def handoff_kernel(data: asc.GlobalAddress, out: asc.GlobalAddress, rounds: asc.ConstExpr[int]):
    """Each round the AIVs write a value, the AIC (after a mode 2 wait) adds
    them up, and the AIVs (after the AIC's set) read the sum back: wrong
    without real ordering between the cores."""
    o = asc.GlobalTensor()
    o.set_global_buffer(out)
    if asc.ascend_is_aic():
        d = asc.GlobalTensor()
        d.set_global_buffer(data + 3 * asc.get_block_idx())
        for r in range(rounds):
            asc.cross_core_wait_flag(1, 2, asc.PipeID.PIPE_S)
            d.set_value(2, d.get_value(0) + d.get_value(1))
            asc.cross_core_set_flag(2, 2, asc.PipeID.PIPE_S)
    else:
        dv = asc.GlobalTensor()
        dv.set_global_buffer(data + 3 * (asc.get_block_idx() // 2))
        me = asc.get_sub_block_idx()
        for r in range(rounds):
            dv.set_value(me, (r + 1) * (me + 1) + asc.get_block_idx())
            asc.cross_core_set_flag(1, 2, asc.PipeID.PIPE_S)
            asc.cross_core_wait_flag(2, 2, asc.PipeID.PIPE_S)
            o.set_value(asc.get_block_idx() * rounds + r, dv.get_value(2))
            asc.cross_core_set_flag(3, 1, asc.PipeID.PIPE_S)  # both AIVs read before the next
            asc.cross_core_wait_flag(3, 1, asc.PipeID.PIPE_S)


@pytest.mark.parametrize("groups", [1, 4])
@pytest.mark.parametrize("debug", [False, True])
def test_cross_core_flags_hand_data_between_aic_and_aivs(groups, debug):
    rounds = 20
    data = np.zeros(3 * groups, np.int32)
    out = np.full(2 * groups * rounds, -1, np.int32)
    kernel = asc.jit(debug=True)(handoff_kernel.fn) if debug else handoff_kernel
    kernel[groups](data, out, rounds)  # checked mode: each core has its own checker
    want = np.empty((2 * groups, rounds), np.int32)
    for v in range(2 * groups):
        g = v // 2
        for r in range(rounds):
            want[v, r] = (r + 1) * 1 + 2 * g + (r + 1) * 2 + 2 * g + 1
    np.testing.assert_array_equal(out.reshape(2 * groups, rounds), want)


@asc.jit
def aiv_wait_kernel(a: asc.GlobalAddress):
    if asc.ascend_is_aiv():
        asc.cross_core_wait_flag(5, 2, asc.PipeID.PIPE_S)


@asc.jit
def aic_mode1_kernel(a: asc.GlobalAddress):
    if asc.ascend_is_aic():
        asc.cross_core_set_flag(4, 1, asc.PipeID.PIPE_S)


@asc.jit
def mode0_kernel(a: asc.GlobalAddress):
    asc.cross_core_set_flag(0, 0, asc.PipeID.PIPE_S)
    asc.cross_core_wait_flag(0, 0, asc.PipeID.PIPE_S)


def test_flag_errors_name_the_line_and_the_core():
    a = np.zeros(8, np.float32)
    with pytest.raises(asc.KernelError, match=r"test_mix\.py:\d+: cross_core_wait_flag: flag 5 "
                                              r"\(mode 2\) is never set.*\(on AIV [01]\)"):
        aiv_wait_kernel[2](a)
    with pytest.raises(asc.KernelError, match=r"test_mix\.py:\d+: cross_core_set_flag: mode 1 "
                                              r"synchronises the two AIVs.*\(on the AIC\)"):
        aic_mode1_kernel[1](a)
    mode0_kernel[1](a)  # one group: every AIC (itself) and both AIVs
    mode0_kernel[2](a)  # every group at once (test_mix_mode0.py)


def test_ascend_c_of_core_kinds():
    src = where_kernel.ascendc(np.zeros((3, 4), np.int32))
    assert "ASCEND_IS_AIV" in src
    assert "AscendC::GetSubBlockIdx()" in src and "AscendC::GetSubBlockNum()" in src
    cube = asc.jit(matmul_cube_only=True)(where_kernel.fn)
    src = cube.ascendc(np.zeros((3, 4), np.int32))
    assert "KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIC_ONLY);" in src
    assert "ASCEND_IS_AIV" not in src  # folded: every core is an AIC
