"""The system and hardware APIs (rt/system.h, lowering_system.py): the
system counter and program counter, the no-op cache/profiling controls and
their argument checks, the workspace and HCCL registers, dump_acc_chk_point,
init_soc_state, and inter-block synchronisation through GM flags with its
deadlock reports, in plain and checked mode."""

from __future__ import annotations

import inspect

import numpy as np
import pytest

import asc
import pyasc
from kernel_cache import kernel_cache_dir

CACHE = kernel_cache_dir("pyasc-system-hw-")

MODES = (False, True)  # plain, checked


def jit(fn):
    return pyasc.jit(fn, cache_dir=CACHE)


def variant(kernel, checked):
    return pyasc.jit(kernel.fn, cache_dir=CACHE, debug=checked) if checked else kernel


def line_of(fn, text: str) -> int:
    """The file line of the first line of fn containing text."""
    lines, first = inspect.getsourcelines(fn)
    return first + next(i for i, s in enumerate(lines) if text in s)


@pytest.fixture
def workers():
    """Sets the device's worker threads for a test; restores them after."""
    before = pyasc.get_device_properties().worker_threads
    yield lambda n: pyasc.configure_device(worker_threads=n)
    pyasc.configure_device(worker_threads=before)


# --- counters and registers --------------------------------------------------------------


@jit
def k_counters(out: pyasc.GlobalAddress):
    o = pyasc.GlobalTensor()
    o.set_global_buffer(out)
    c0 = pyasc.get_system_cycle()
    pc = pyasc.get_program_counter()  # PC LINE
    c1 = pyasc.get_system_cycle()
    o.set_value(0, c0)
    o.set_value(1, c1 - c0)
    o.set_value(2, pc)
    o.set_value(3, pyasc.get_icache_preload_status())
    o.set_value(4, pyasc.get_task_ratio())


@pytest.mark.parametrize("checked", MODES)
def test_counters_and_status_registers(checked):
    out = np.full(5, -1, np.int64)
    variant(k_counters, checked)[1](out)
    assert out[0] > 0 and out[1] >= 0  # the counter runs and never goes back
    assert out[2] & 0xFFFFF == line_of(k_counters.fn, "# PC LINE")  # the call's location
    assert out[3] == 0 and out[4] == 1  # preloader idle; coupled mode


@jit
def k_time_stamp(desc: pyasc.ConstExpr[int]):
    pyasc.print_time_stamp(desc)


def test_print_time_stamp_prints_its_id_and_counter(capfd):
    k_time_stamp[2](65577)
    pyasc.synchronize()  # a launch without arrays is asynchronous
    lines = sorted(capfd.readouterr().out.splitlines())
    assert len(lines) == 2
    for block, text in enumerate(lines):
        assert text.startswith(f"[block {block}] time_stamp desc_id=65577 rsv=0 time_stamp=")
        assert int(text.split("time_stamp=")[1].split()[0]) > 0


def test_print_time_stamp_rejects_an_id_outside_uint32():
    with pytest.raises(pyasc.KernelError, match=r"test_system_hw.py:\d+: print_time_stamp: "
                                                r"desc_id -1 is not a uint32"):
        k_time_stamp[1](-1)
        pyasc.synchronize()


# --- no-op controls: they run and check their arguments ------------------------------------


@jit
def k_controls(x: pyasc.GlobalAddress, pre: int, fetch: int, bit: int, lo: int, hi: int):
    g = pyasc.GlobalTensor()
    g.set_global_buffer(x)
    pyasc.data_sync_barrier(pyasc.MemDsbT.ALL)
    pyasc.data_sync_barrier(asc.MemDsbT.UB)
    pyasc.data_cache_clean_and_invalid(pyasc.CacheLine.SINGLE_CACHE_LINE,
                                       pyasc.DcciDst.CACHELINE_OUT, g)
    pyasc.data_cache_clean_and_invalid(entire_type=pyasc.CacheLine.ENTIRE_DATA_CACHE, dst=g)
    pyasc.data_cache_preload(g, pre)
    pyasc.icache_preload(fetch)
    pyasc.metrics_prof_start()
    pyasc.metrics_prof_stop()
    pyasc.check_local_memory_ia(pyasc.CheckLocalMemoryIAParam(
        enable_bit=bit, start_addr=lo, end_addr=hi, is_vector_write=True, is_enable=True))
    pyasc.check_local_memory_ia(pyasc.CheckLocalMemoryIAParam())  # the reset
    g.set_value(0, g.get_value(0) + 1)


@pytest.mark.parametrize("checked", MODES)
def test_cache_and_profiling_controls_leave_data_alone(checked):
    x = np.arange(8, dtype=np.float32)
    variant(k_controls, checked)[1](x, 0, 2, 3, 0, 8)
    np.testing.assert_array_equal(x, [1, 1, 2, 3, 4, 5, 6, 7])


@pytest.mark.parametrize("args, message", [
    ((-1, 2, 0, 0, 8), "data_cache_preload: negative cache_offset -1"),
    ((0, -2, 0, 0, 8), "icache_preload: negative pre_fetch_len -2"),
    ((0, 2, 4, 0, 8), r"check_local_memory_ia: enable_bit 4 is outside \[0, 3\]"),
    ((0, 2, 0, 0, 65536), r"start_addr 0 and end_addr 65536 must be in \[0, 65535\]"),
    ((0, 2, 0, 8, 8), r"the range \(start_addr, end_addr\] = \(8, 8\] is empty"),
])
def test_control_arguments_are_checked(args, message):
    with pytest.raises(pyasc.KernelError, match=r"test_system_hw.py:\d+: .*" + message):
        k_controls[1](np.zeros(8, np.float32), *args)


@jit
def k_bad_dcci(x: pyasc.GlobalAddress):
    g = pyasc.GlobalTensor()
    g.set_global_buffer(x)
    pyasc.data_cache_clean_and_invalid(pyasc.CacheLine.SINGLE_CACHE_LINE,
                                       pyasc.DcciDst.CACHELINE_UB, g)


@jit
def k_bad_dsb():
    pyasc.data_sync_barrier(pyasc.DcciDst.CACHELINE_OUT)


@jit
def k_bad_hccl(i: int):
    pyasc.get_hccl_context(i)


def test_enum_and_constant_arguments_are_checked_at_compile_time():
    x = np.zeros(8, np.float32)
    with pytest.raises(pyasc.CompileError, match="CACHELINE_UB is reserved"):
        k_bad_dcci[1](x)
    with pytest.raises(pyasc.CompileError, match="arg0 must be a pyasc.MemDsbT member"):
        k_bad_dsb[1]()
    with pytest.raises(pyasc.CompileError, match="index must be a compile-time int"):
        k_bad_hccl[1](0)


# --- init_soc_state ---------------------------------------------------------------------


@jit
def k_soc(a: pyasc.GlobalAddress, out: pyasc.GlobalAddress, reset: pyasc.ConstExpr[bool]):
    g = pyasc.GlobalTensor()
    g.set_global_buffer(a)
    o = pyasc.GlobalTensor()
    o.set_global_buffer(out)
    x = pyasc.LocalTensor(pyasc.float32, pyasc.TPosition.VECCALC, 0, 64)
    y = pyasc.LocalTensor(pyasc.float32, pyasc.TPosition.VECCALC, 256, 64)
    pyasc.data_copy(x, g, 64)
    pyasc.set_flag(pyasc.HardEvent.MTE2_V, 0)
    pyasc.wait_flag(pyasc.HardEvent.MTE2_V, 0)
    pyasc.duplicate(y, 0.0, 64)
    pyasc.set_vector_mask(0, 0xF, dtype=pyasc.float32, mode=pyasc.MaskMode.NORMAL)
    if reset:
        pyasc.init_soc_state()  # the mask register back to all ones
    pyasc.add(y, x, x, 0, 1, pyasc.BinaryRepeatParams(1, 1, 1, 8, 8, 8), is_set_mask=False)
    pyasc.set_flag(pyasc.HardEvent.V_MTE3, 0)
    pyasc.wait_flag(pyasc.HardEvent.V_MTE3, 0)
    pyasc.data_copy(o, y, 64)


@pytest.mark.parametrize("checked", MODES)
def test_init_soc_state_resets_the_vector_mask(checked):
    a = np.arange(64, dtype=np.float32)
    for reset, lanes in ((False, 4), (True, 64)):
        out = np.full(64, -1, np.float32)
        variant(k_soc, checked)[1](a, out, reset)
        want = np.where(np.arange(64) < lanes, 2 * a, 0)
        np.testing.assert_array_equal(out, want)


# --- dump_acc_chk_point -------------------------------------------------------------------


@jit
def k_dump(x: pyasc.GlobalAddress, off: int, n: int):
    g = pyasc.GlobalTensor()
    g.set_global_buffer(x)
    t = pyasc.LocalTensor(pyasc.int32, pyasc.TPosition.VECIN, 0, 16)
    pyasc.data_copy(t, g, 16)
    pyasc.dump_acc_chk_point(t, 7, off, n)
    pyasc.dump_acc_chk_point(g, 8, off, n)


@pytest.mark.parametrize("checked", MODES)
def test_dump_acc_chk_point_prints_from_the_offset(checked, capfd):
    x = np.arange(16, dtype=np.int32) * 3
    variant(k_dump, checked)[1](x, 5, 3)
    out = capfd.readouterr().out.splitlines()
    assert out == ["[block 0] dump_tensor desc=7 LocalTensor<int32>, 3 elements: [15, 18, 21]",
                   "[block 0] dump_tensor desc=8 GlobalTensor<int32>, 3 elements: [15, 18, 21]"]


def test_dump_acc_chk_point_checks_its_range():
    with pytest.raises(pyasc.KernelError, match="dump_acc_chk_point: negative count_off"):
        k_dump[1](np.zeros(16, np.int32), -1, 3)
    with pytest.raises(pyasc.KernelError, match="dump_acc_chk_point: an operand accesses 8 elements"):
        variant(k_dump, True)[1](np.zeros(16, np.int32), 10, 8)


# --- workspace and HCCL context registers -------------------------------------------------


@jit
def k_registers(x: pyasc.GlobalAddress, y: pyasc.GlobalAddress, out: pyasc.GlobalAddress,
                set_first: pyasc.ConstExpr[bool]):
    o = pyasc.GlobalTensor()
    o.set_global_buffer(out)
    if set_first:
        pyasc.set_sys_workspace(x)
    pyasc.set_hccl_context(0, x)
    pyasc.set_hccl_context(1, y)
    w = pyasc.GlobalTensor()
    w.set_global_buffer(pyasc.get_sys_workspace())
    h0 = pyasc.GlobalTensor()
    h0.set_global_buffer(pyasc.get_hccl_context(0))
    h1 = pyasc.GlobalTensor()
    h1.set_global_buffer(asc.get_hccl_context(index=1))
    o.set_value(0, w.get_value(2))
    o.set_value(1, h0.get_value(3))
    o.set_value(2, h1.get_value(1))


@pytest.mark.parametrize("checked", MODES)
def test_workspace_and_hccl_registers_hold_addresses(checked):
    x = np.arange(10, 20, dtype=np.uint8)
    y = np.arange(50, 60, dtype=np.uint8)
    out = np.zeros(3, np.int64)
    variant(k_registers, checked)[1](x, y, out, True)
    np.testing.assert_array_equal(out, [x[2], x[3], y[1]])


def test_an_unset_workspace_reads_zeros_and_checked_mode_reports_it():
    x = np.arange(10, 20, dtype=np.uint8)
    out = np.full(3, -1, np.int64)
    k_registers[1](x, x, out, False)
    assert out[0] == 0  # no memory behind the register: reads give zeros
    with pytest.raises(pyasc.KernelError, match="outside the argument"):
        variant(k_registers, True)[1](x, x, out, False)


# --- inter-block synchronisation ---------------------------------------------------------


@jit
def k_chain(ws: pyasc.GlobalAddress, ctr: pyasc.GlobalAddress, out: pyasc.GlobalAddress,
            rounds: pyasc.ConstExpr[int]):
    """Each block, in turn, appends its turn number: a read-modify-write of
    ctr that only notify_next_block/wait_pre_block make race-free."""
    g = pyasc.GlobalTensor()
    g.set_global_buffer(ws)
    c = pyasc.GlobalTensor()
    c.set_global_buffer(ctr)
    o = pyasc.GlobalTensor()
    o.set_global_buffer(out)
    ub = pyasc.LocalTensor(pyasc.int32, pyasc.TPosition.VECCALC, 0, 8)
    b = pyasc.get_block_idx()
    n = pyasc.get_block_num()
    for r in range(rounds):
        pyasc.wait_pre_block(g, ub)
        v = c.get_value(0)
        o.set_value(r * n + b, v)
        c.set_value(0, v + 1)
        pyasc.notify_next_block(g, ub)


def chain_model(blocks: int, rounds: int) -> np.ndarray:
    """Turn numbers in the order the blocks must take turns: round by
    round, block 0 first."""
    return np.arange(blocks * rounds, dtype=np.int32)


@pytest.mark.parametrize("checked", MODES)
@pytest.mark.parametrize("threads, blocks, rounds", [(1, 8, 1), (2, 8, 1), (2, 2, 3), (3, 3, 4)])
def test_blocks_take_turns(checked, threads, blocks, rounds, workers):
    workers(threads)
    ws = np.zeros(blocks * 8, np.int32)
    ctr = np.zeros(1, np.int32)
    out = np.full(blocks * rounds, -1, np.int32)
    variant(k_chain, checked)[blocks](ws, ctr, out, rounds)
    np.testing.assert_array_equal(out, chain_model(blocks, rounds))
    assert ctr[0] == blocks * rounds
    # slot b counts the notifications block b received
    np.testing.assert_array_equal(ws[::8], [rounds] * blocks)


@pytest.mark.parametrize("checked", MODES)
def test_rounds_need_every_block_running(checked, workers):
    """Block 0's second round waits for the last block, which cannot start
    while the two threads run blocks that wait: the hardware hangs, the
    simulator names the deadlock."""
    workers(2)
    with pytest.raises(pyasc.KernelError, match=r"wait_pre_block: deadlock: all 2 running blocks "
                                                r"wait while only 2 of 4 have started \(2 run at "
                                                r"once\).*launch at most 2 blocks. Waiting: block 0 "
                                                r"in wait_pre_block for block 3 \(round 2\) "
                                                r"\(line \d+\); block 1 in wait_pre_block for "
                                                r"block 0 \(round 2\)"):
        variant(k_chain, checked)[4](np.zeros(32, np.int32), np.zeros(1, np.int32),
                                     np.zeros(8, np.int32), 2)


@jit
def k_ib(ws: pyasc.GlobalAddress, out: pyasc.GlobalAddress, wait_for: int, event: int):
    g = pyasc.GlobalTensor()
    g.set_global_buffer(ws)
    o = pyasc.GlobalTensor()
    o.set_global_buffer(out)
    ub = pyasc.LocalTensor(pyasc.int32, pyasc.TPosition.VECCALC, 0, 8)
    b = pyasc.get_block_idx()
    if b == 1:
        o.set_value(1, 42)
        pyasc.ib_set(g, ub, block_idx=1, event_id=event)
    if b == 0:
        pyasc.ib_wait(g, ub, wait_for, event)
        o.set_value(0, o.get_value(1) + 1)


@pytest.mark.parametrize("checked", MODES)
@pytest.mark.parametrize("event", [0, 2])
def test_ib_wait_sees_what_was_written_before_ib_set(checked, event, workers):
    workers(2)
    ws = np.zeros(2 * 8 * (event + 1), np.int32)
    out = np.zeros(2, np.int32)
    variant(k_ib, checked)[2](ws, out, 1, event)
    np.testing.assert_array_equal(out, [43, 42])
    assert not ws.any()  # ib_wait cleared the flag it consumed


@pytest.mark.parametrize("threads, message", [
    (1, r"ib_wait: deadlock: all 1 running blocks wait while only 1 of 2 have started .*"
        r"Waiting: block 0 in ib_wait for block 1's flag of event 0 \(line \d+\)$"),
    (2, r"ib_wait: deadlock: every running block waits and no wait can end \(the device would "
        r"hang\): block 0 in ib_wait for block 0's flag of event 0 \(line \d+\)$"),
])
def test_a_wait_that_cannot_end_is_reported(threads, message, workers):
    workers(threads)
    wait_for = 1 if threads == 1 else 0  # a block that cannot start / a flag nobody sets
    with pytest.raises(pyasc.KernelError, match=r"test_system_hw.py:\d+: " + message):
        k_ib[2](np.zeros(16, np.int32), np.zeros(2, np.int32), wait_for, 0)


def test_a_single_block_cannot_wait_for_another():
    with pytest.raises(pyasc.KernelError, match="deadlock: the launch has one block"):
        k_ib[1](np.zeros(16, np.int32), np.zeros(2, np.int32), 0, 0)


def test_block_sync_arguments_are_checked(workers):
    workers(2)
    with pytest.raises(pyasc.KernelError, match=r"ib_wait: block_idx 5 is outside \[0, 2\)"):
        k_ib[2](np.zeros(16, np.int32), np.zeros(2, np.int32), 5, 0)
    with pytest.raises(pyasc.KernelError, match="slot 3 is outside the GM workspace"):
        k_ib[2](np.zeros(16, np.int32), np.zeros(2, np.int32), 1, 1)


@jit
def k_bad_ws(ws: pyasc.GlobalAddress, aiv: pyasc.ConstExpr[bool]):
    g = pyasc.GlobalTensor()
    g.set_global_buffer(ws)
    ub = pyasc.LocalTensor(pyasc.int32, pyasc.TPosition.VECCALC, 0, 8)
    pyasc.ib_set(g, ub, 0, 0, aiv)


def test_block_sync_types_are_checked_at_compile_time():
    with pytest.raises(pyasc.CompileError, match="gm_workspace must be an int32 GlobalTensor"):
        k_bad_ws[1](np.zeros(16, np.float32), True)
    with pytest.raises(pyasc.CompileError, match="is_aiv_only=False"):
        k_bad_ws[1](np.zeros(16, np.int32), False)


# --- Ascend C and the asc package ---------------------------------------------------------


def test_ascend_c_forms():
    src = k_ib.ascendc(np.zeros(16, np.int32), np.zeros(2, np.int32), 1, 0)
    assert "AscendC::IBSet<true>(g, ub, 1, event);" in src
    assert "AscendC::IBWait<true>(g, ub, wait_for, event);" in src
    src = k_registers.ascendc(np.zeros(4, np.uint8), np.zeros(4, np.uint8), np.zeros(3, np.int64),
                              True)
    assert "AscendC::SetHcclContext<1>((GM_ADDR)" in src and "AscendC::GetHcclContext<0>()" in src
    src = k_controls.ascendc(np.zeros(8, np.float32), 0, 2, 3, 0, 8)
    assert "AscendC::DataSyncBarrier<AscendC::MemDsbT::UB>();" in src
    assert ("AscendC::DataCacheCleanAndInvalid<float, AscendC::CacheLine::ENTIRE_DATA_CACHE, "
            "AscendC::DcciDst::CACHELINE_OUT>(g);") in src


def test_asc_names():
    assert asc.MemDsbT is pyasc.MemDsbT and asc.Hardware.L0C == 5
    assert asc.CacheMode.CACHE_MODE_PERSISTENT == 4 and asc.CacheRwMode.RW == 3
    assert asc.lan_all == list(asc.language.__all__) and "ib_set" in asc.lan_all


# --- check_local_memory_ia traps accesses to its range ------------------------------------


@jit
def k_ia(x: pyasc.GlobalAddress, y: pyasc.GlobalAddress, start: int, end: int,
         vector_write: pyasc.ConstExpr[bool], scalar_read: pyasc.ConstExpr[bool],
         reset: pyasc.ConstExpr[bool]):
    g = pyasc.GlobalTensor()
    g.set_global_buffer(x)
    o = pyasc.GlobalTensor()
    o.set_global_buffer(y)
    a = pyasc.LocalTensor(pyasc.float32, pyasc.TPosition.VECIN, 0, 64)  # UB blocks 0-7
    b = pyasc.LocalTensor(pyasc.float32, pyasc.TPosition.VECOUT, 256, 64)  # UB blocks 8-15
    pyasc.check_local_memory_ia(pyasc.CheckLocalMemoryIAParam(
        enable_bit=2, start_addr=start, end_addr=end, is_vector_write=vector_write,
        is_scalar_read=scalar_read, is_enable=True))
    if reset:
        pyasc.check_local_memory_ia(pyasc.CheckLocalMemoryIAParam(enable_bit=2))
    pyasc.data_copy(a, g, 64)
    pyasc.set_flag(pyasc.HardEvent.MTE2_V, 0)
    pyasc.wait_flag(pyasc.HardEvent.MTE2_V, 0)
    pyasc.adds(b, a, 1.0, 64)  # a vector write of blocks 8-15
    pyasc.set_flag(pyasc.HardEvent.V_S, 0)
    pyasc.wait_flag(pyasc.HardEvent.V_S, 0)
    o.set_value(0, b.get_value(3))  # a scalar read of block 8


@pytest.mark.parametrize("checked", MODES)
@pytest.mark.parametrize("start, end, vector_write, scalar_read, reset, trapped", [
    (7, 8, True, False, False, "vector write of UB bytes \\[256, 512\\)"),  # block 8 watched
    (15, 20, True, False, False, None),  # (15, 20]: blocks 16-20, past b's last block
    (0, 7, True, True, False, None),  # blocks 1-7: only the MTE write of a touches them
    (7, 9, False, True, False, "scalar read of UB bytes \\[268, 272\\)"),
    (7, 8, True, True, True, None),  # is_enable=False cleared the register
])
def test_check_local_memory_ia_traps_watched_accesses(checked, start, end, vector_write,
                                                      scalar_read, reset, trapped):
    x = np.arange(64, dtype=np.float32)
    y = np.zeros(1, np.float32)
    kernel = variant(k_ia, checked)[1]
    if trapped is None:
        kernel(x, y, start, end, vector_write, scalar_read, reset)
        assert y[0] == 4.0
    else:
        with pytest.raises(pyasc.KernelError, match=r"test_system_hw.py:\d+: .*a " + trapped +
                                                    r" is inside the range check_local_memory_ia "
                                                    r"register 2 watches"):
            kernel(x, y, start, end, vector_write, scalar_read, reset)
