"""sync_all: every block of a launch meets, so a block reads what the others
wrote to global memory before it; blocks of such a kernel all run at once
(more blocks than cores is an error, as the hardware would hang); a block
that fails or skips the meeting fails the others instead of hanging them."""

from __future__ import annotations

import numpy as np
import pytest

import pyasc as asc
from kernel_api_helpers import jit, modes

from test_ascendc import assert_valid_cpp


N = 64  # elements each block owns


@jit
def rotate_kernel(x: asc.GlobalAddress, y: asc.GlobalAddress, w: asc.GlobalAddress,
                  soft: asc.ConstExpr[int], rounds: asc.ConstExpr[int], n: asc.ConstExpr[int]):
    """Each round every block writes its slice + 1 into y, meets the others,
    then reads its right neighbour's slice of y back into its UB: after r
    rounds block b holds x's slice of block b + r, plus r. soft: the
    workspace form (w: int32 workspace)."""
    blocks = asc.get_block_num()
    me = asc.get_block_idx()
    gx = asc.GlobalTensor()
    gx.set_global_buffer(x + me * n, n)
    t = asc.LocalTensor(asc.float32, asc.TPosition.VECIN, 0, n)
    work = asc.LocalTensor(asc.int32, asc.TPosition.VECCALC, 4 * n, 8 * blocks)
    ws = asc.GlobalTensor()
    ws.set_global_buffer(w, 8 * blocks)
    asc.data_copy(t, gx, n)
    mine = asc.GlobalTensor()
    mine.set_global_buffer(y + me * n, n)
    nxt = asc.GlobalTensor()
    nxt.set_global_buffer(y + (me + 1) % blocks * n, n)
    for r in range(rounds):
        asc.pipe_barrier(asc.PipeID.PIPE_ALL)
        asc.adds(t, t, 1.0, n)
        asc.pipe_barrier(asc.PipeID.PIPE_ALL)
        asc.data_copy(mine, t, n)
        asc.pipe_barrier(asc.PipeID.PIPE_ALL)
        if soft == 1:
            asc.sync_all(ws, work, used_cores=0)
        else:
            asc.sync_all()
        asc.data_copy(t, nxt, n)
        asc.pipe_barrier(asc.PipeID.PIPE_ALL)
        if soft == 1:
            asc.sync_all(ws, work)
        else:
            asc.sync_all(is_aiv_only=True)
    asc.data_copy(mine, t, n)


@pytest.mark.parametrize("soft", [0, 1], ids=["hard", "soft"])
@pytest.mark.parametrize("blocks", [1, 5, 48])
def test_blocks_see_each_others_writes(blocks, soft):
    rounds = 3
    x = np.arange(blocks * N, dtype=np.float32)
    for kernel in modes(rotate_kernel):
        y = np.zeros(blocks * N, np.float32)
        kernel[blocks](x, y, np.zeros(8 * blocks, np.int32), soft, rounds, N)
        want = np.roll(x.reshape(blocks, N), -rounds, axis=0).reshape(-1) + rounds
        np.testing.assert_array_equal(y, want)


def test_more_blocks_than_cores_is_an_error():
    x = np.zeros(49 * N, np.float32)
    with pytest.raises(asc.InvalidValueError, match="the 49 blocks synchronise with each other "
                                                     "\\(sync_all\\), so all must run at once, "
                                                     "but the device has 48 cores"):
        rotate_kernel[49](x, x, np.zeros(8 * 49, np.int32), 0, 1, N)


@jit
def skip_kernel(x: asc.GlobalAddress, case: asc.ConstExpr[int]):
    g = asc.GlobalTensor()
    g.set_global_buffer(x, 64)
    if asc.get_block_idx() == 0:
        if case == 0:
            asc.trap()  # block 0 fails before the meeting
    else:
        asc.sync_all()


@pytest.mark.parametrize("case,message", [
    (0, "block 0 of 4: .*trap|"
        "sync_all: another block failed before reaching it \\(block 0: .*trap"),
    (1, "sync_all: a block finished without reaching this sync_all"),
])
def test_a_block_that_fails_or_skips_does_not_hang_the_others(case, message):
    with pytest.raises(asc.KernelError, match=message) as info:
        skip_kernel[4](np.zeros(64, np.float32), case)
    assert "test_api_sync_all.py" in str(info.value)


@jit
def soft_error_kernel(x: asc.GlobalAddress, w: asc.GlobalAddress, case: asc.ConstExpr[int],
                      m: asc.ConstExpr[int]):
    ws = asc.GlobalTensor()
    ws.set_global_buffer(w, m)
    ub = asc.LocalTensor(asc.int32, asc.TPosition.VECCALC, 0, 8 * asc.get_block_num())
    if case == 0:
        asc.sync_all(ws, ub)  # 16 elements: 2 blocks' worth
    elif case == 1:
        asc.sync_all(ws[0:], asc.LocalTensor(asc.int32, asc.TPosition.VECCALC, 1024, 8))
    else:
        asc.sync_all(ws, ub, used_cores=1)


@pytest.mark.parametrize("case,message", [
    (0, "gm_workspace holds 16 int32 elements; 3 blocks need 24"),
    (1, "ub_workspace holds 8 int32 elements; 3 blocks need 24"),
    (2, "used_cores 1: only all 3 blocks of the launch can meet"),
])
def test_soft_form_checks(case, message):
    with pytest.raises(asc.KernelError, match=message):
        m = 16 if case == 0 else 64
        soft_error_kernel[3](np.zeros(8, np.float32), np.zeros(m, np.int32), case, m)


@jit
def soft_type_kernel(w: asc.GlobalAddress):
    ws = asc.GlobalTensor()
    ws.set_global_buffer(w, 64)
    asc.sync_all(ws, asc.LocalTensor(asc.int32, asc.TPosition.VECCALC, 0, 64))


def test_soft_form_needs_int32():
    with pytest.raises(asc.CompileError, match="gm_workspace and ub_workspace must be int32"):
        soft_type_kernel[2](np.zeros(64, np.float32))


def test_ascendc_form():
    x = np.zeros(4 * N, np.float32)
    w = np.zeros(32, np.int32)
    hard = rotate_kernel.ascendc(x, x, w, 0, 1, N)
    assert "AscendC::SyncAll<true>();" in hard
    assert_valid_cpp(hard)
    soft = rotate_kernel.ascendc(x, x, w, 1, 1, N)
    assert "AscendC::SyncAll<true>(ws, work, 0);" in soft
    assert_valid_cpp(soft)
