"""Mode-0 cross-core flags over more than one group: every core of a kind
in the launch meets, so the launch runs every group at once (more groups
than the device has AIC cores is an InvalidValueError); a core that
finishes without setting the flag fails the waits instead of hanging."""

from __future__ import annotations

import numpy as np
import pytest

import pyasc as asc
from pyasc.language.options import KernelType


@asc.jit
def meet_kernel(x: asc.GlobalAddress, y: asc.GlobalAddress, rounds: int):
    """Each core of a kind writes its slot, meets the others (mode 0) and
    sums every slot of its kind; `rounds` times, the slots growing."""
    g = asc.GlobalTensor()
    o = asc.GlobalTensor()
    g.set_global_buffer(x)
    o.set_global_buffer(y)
    i = asc.get_block_idx()
    n = asc.get_block_num()
    base = 0
    if asc.ascend_is_aiv():
        n = n * 2
        base = 256  # the AIVs' slots after the AICs'
    for r in range(rounds):
        g.set_value(base + i, (r + 1) * (i + 1))
        asc.cross_core_set_flag(1, 0, asc.PipeID.PIPE_MTE3)
        asc.cross_core_wait_flag(1, 0, asc.PipeID.PIPE_MTE3)
        total = 0
        for j in range(n):
            total += g.get_value(base + j)
        o.set_value(base + r * 64 + i, total)
        # nobody rewrites its slot before every core has read this round's
        asc.cross_core_set_flag(2, 0, asc.PipeID.PIPE_MTE3)
        asc.cross_core_wait_flag(2, 0, asc.PipeID.PIPE_MTE3)


@pytest.mark.parametrize("groups", [2, 5, 24])
def test_every_core_of_a_kind_meets(groups):
    rounds = 3
    x = np.zeros(512, np.int64)
    y = np.full(512, -1, np.int64)
    meet_kernel[groups](x, y, rounds)
    for r in range(rounds):
        aic = (r + 1) * groups * (groups + 1) // 2
        aiv = (r + 1) * (2 * groups) * (2 * groups + 1) // 2
        np.testing.assert_array_equal(y[r * 64:r * 64 + groups], aic)
        np.testing.assert_array_equal(y[256 + r * 64:256 + r * 64 + 2 * groups], aiv)


def test_more_groups_than_aic_cores_is_an_error():
    x = np.zeros(512, np.int64)
    with pytest.raises(asc.InvalidValueError, match="the 25 groups synchronise with each other "
                                                    "\\(mode-0 cross-core flags\\).*24 AIC cores"):
        meet_kernel[25](x, x, 1)


@asc.jit
def skip_kernel(x: asc.GlobalAddress):
    if asc.ascend_is_aiv():
        if asc.get_block_idx() != 3:
            asc.cross_core_set_flag(1, 0, asc.PipeID.PIPE_S)
            asc.cross_core_wait_flag(1, 0, asc.PipeID.PIPE_S)


def test_a_core_that_never_sets_fails_the_waits():
    with pytest.raises(asc.KernelError, match="flag 1 \\(mode 0\\) is never set: AIV 3 finished "
                                              "without setting it"):
        skip_kernel[3](np.zeros(8, np.float32))


@asc.jit(kernel_type=KernelType.AIV_ONLY)
def aiv_only_kernel(x: asc.GlobalAddress, y: asc.GlobalAddress):
    g = asc.GlobalTensor()
    o = asc.GlobalTensor()
    g.set_global_buffer(x)
    o.set_global_buffer(y)
    i = asc.get_block_idx()
    g.set_value(i, i + 1)
    asc.cross_core_set_flag(3, 0, asc.PipeID.PIPE_S)
    asc.cross_core_wait_flag(3, 0, asc.PipeID.PIPE_S)
    total = 0
    for j in range(asc.get_block_num()):
        total += g.get_value(j)
    o.set_value(i, total)


def test_one_kind_launch_of_many_blocks():
    x = np.zeros(64, np.int64)
    y = np.zeros(64, np.int64)
    aiv_only_kernel[7](x, y)
    np.testing.assert_array_equal(y[:7], 28)


def test_more_aiv_blocks_than_cores_is_an_error():
    x = np.zeros(64, np.int64)
    with pytest.raises(asc.InvalidValueError, match="the 49 AIV cores synchronise with each other "
                                                    "\\(mode-0 cross-core flags\\).*48 AIV cores"):
        aiv_only_kernel[49](x, x)
