"""Checks that need the kernel's sizes: the Unified Buffer budget (at compile
time when sizes are constants, at run time otherwise), TQue misuse and
out-of-bounds global memory. A failing block raises pyasc.KernelError naming
the block and the kernel's file:line; the process and the device survive it.
"""

from __future__ import annotations

import inspect
import re

import numpy as np
import pytest

import pyasc as asc
from kernel_api_helpers import CACHE, jit


KiB = 1024
UB = asc.get_device_properties().ub_size
# default mode's reach: the smallest power of two covering the UB
# (docs/kernel-reference-semantics.md, "the UB's reach")
REACH = 1 << (UB - 1).bit_length()
BLOCKS = 4


def marked(fn, marker="# ERR") -> tuple[str, int]:
    fn = getattr(fn, "fn", fn)
    lines, first = inspect.getsourcelines(fn)
    hits = [i for i, text in enumerate(lines) if marker in text]
    assert len(hits) == 1
    return inspect.getsourcefile(fn), first + hits[0]


def compile_error(kernel, *args) -> str:
    with pytest.raises(asc.CompileError) as info:
        kernel.compile(*args)
    return str(info.value)


def kernel_error(kernel, *args, blocks=BLOCKS) -> str:
    with pytest.raises(asc.KernelError) as info:
        kernel[blocks](*args)
        asc.synchronize()
    return str(info.value)


@pytest.fixture(autouse=True)
def ub_size_restored():
    """configure_device changes are undone even when a test fails."""
    yield
    if asc.get_device_properties().ub_size != UB:
        asc.configure_device(ub_size=UB)


# --- a kernel that must keep working after every failure --------------------------------------


@jit
def good_kernel(x: asc.GlobalAddress, z: asc.GlobalAddress, n: asc.ConstExpr[int]):
    xg = asc.GlobalTensor()
    zg = asc.GlobalTensor()
    xg.set_global_buffer(x + asc.get_block_idx() * n, n)
    zg.set_global_buffer(z + asc.get_block_idx() * n, n)
    t = asc.LocalTensor(x.dtype, asc.TPosition.VECCALC, 0, n)
    asc.data_copy(t, xg, n)
    asc.adds(t, t, 1.0, n)
    asc.data_copy(zg, t, n)


def assert_device_usable():
    x = np.arange(BLOCKS * 64, dtype=np.float32)
    z = np.zeros_like(x)
    good_kernel[BLOCKS](x, z, 64)
    asc.synchronize()
    np.testing.assert_array_equal(z, x + 1)


# --- Unified Buffer budget --------------------------------------------------------------------


@jit
def k_pipe_over_budget(x: asc.GlobalAddress, kib: asc.ConstExpr[int]):
    pipe = asc.TPipe()
    a = asc.TQue(asc.TPosition.VECIN, 2)
    b = asc.TBuf(asc.TPosition.VECCALC)
    pipe.init_buffer(a, 2, 64 * 1024)
    pipe.init_buffer(b, kib * 1024)  # ERR


@jit
def k_local_outside_ub(x: asc.GlobalAddress, addr: asc.ConstExpr[int], n: asc.ConstExpr[int]):
    t = asc.LocalTensor(x.dtype, asc.TPosition.VECIN, addr, n)  # ERR


@jit
def k_pipe_reset_frees_budget(x: asc.GlobalAddress):
    pipe = asc.TPipe()
    a = asc.TBuf(asc.TPosition.VECCALC)
    pipe.init_buffer(a, 150 * 1024)
    pipe.reset()
    b = asc.TBuf(asc.TPosition.VECCALC)
    pipe.init_buffer(b, 150 * 1024)


def test_tpipe_buffers_over_the_ub_at_compile_time():
    file, line = marked(k_pipe_over_budget)
    x = np.zeros(8, np.float32)
    assert "!ub_check" not in k_pipe_over_budget.compile(x, UB // KiB - 128).ir_text  # UB exactly
    # past the UB but within the reach: left to run time (tests/python/test_ub_reach.py)
    assert "!ub_check" in k_pipe_over_budget.compile(x, REACH // KiB - 128).ir_text
    kib = REACH // KiB - 127
    message = compile_error(k_pipe_over_budget, x, kib)
    assert f"{file}:{line}:" in message
    assert "Unified Buffer budget exceeded" in message
    assert f"{128 * KiB + kib * KiB} bytes" in message and f"holds {UB}" in message
    assert f"or the {REACH} bytes default mode lets a kernel reach" in message
    assert "pipe.init_buffer(b, kib * 1024)" in message


def test_pipe_reset_gives_the_budget_back():
    ir = k_pipe_reset_frees_budget.compile(np.zeros(8, np.float32)).ir_text
    assert "pipe.reset" in ir


@pytest.mark.parametrize("addr,n", [(0, REACH // 4 + 1), (REACH - 32, 16), (REACH, 1)])
def test_local_tensor_outside_the_ub_at_compile_time(addr, n):
    file, line = marked(k_local_outside_ub)
    message = compile_error(k_local_outside_ub, np.zeros(8, np.float32), addr, n)
    assert f"{file}:{line}:" in message
    assert f"LocalTensor bytes [{addr}, {addr + 4 * n}) fall outside the {UB}-byte" in message


def test_local_tensor_at_the_end_of_the_ub_compiles():
    k_local_outside_ub.compile(np.zeros(8, np.float32), UB - 64, 16)


@jit
def k_run_time_local(x: asc.GlobalAddress, addr: int, n: int):
    t = asc.LocalTensor(x.dtype, asc.TPosition.VECIN, addr, n)  # ERR
    asc.duplicate(t, 1.0, 8)


@jit
def k_run_time_pipe(x: asc.GlobalAddress, nbytes: int):
    pipe = asc.TPipe()
    q = asc.TQue(asc.TPosition.VECIN, 1)
    pipe.init_buffer(q, 1, 64 * 1024)
    b = asc.TBuf(asc.TPosition.VECCALC)
    pipe.init_buffer(b, nbytes)  # ERR
    t = b.get(x.dtype)
    asc.duplicate(t, 1.0, 8)


def test_run_time_sizes_are_checked_when_the_kernel_runs():
    x = np.zeros(8, np.float32)
    ir = k_run_time_local.compile(x, 0, 8).ir_text
    assert re.search(r"local.new\(.*\).* !ub_check", ir)
    assert re.search(r"pipe.init_tbuf\(.*\) !ub_check", k_run_time_pipe.compile(x, 1).ir_text)
    k_run_time_local[BLOCKS](x, REACH - 32, 8)  # fits (default mode: within the reach)
    k_run_time_pipe[BLOCKS](x, REACH - 64 * KiB)
    asc.synchronize()
    file, line = marked(k_run_time_local)
    message = kernel_error(k_run_time_local, x, REACH - 16, 8)
    assert f"{file}:{line}: LocalTensor: 8 elements at UB byte {REACH - 16} fall outside" in message
    # Every block fails the same way; whichever fails first is reported.
    assert re.search(r"k_run_time_local: block \d of 4", message), message
    file, line = marked(k_run_time_pipe)
    message = kernel_error(k_run_time_pipe, x, REACH - 64 * KiB + 1)
    assert f"{file}:{line}: init_buffer: Unified Buffer overflow" in message
    assert_device_usable()


@jit
def k_ub_probe(x: asc.GlobalAddress, n: asc.ConstExpr[int]):
    t = asc.LocalTensor(x.dtype, asc.TPosition.VECIN, 0, n)  # ERR
    asc.duplicate(t, 1.0, n)


def test_configure_device_ub_size_changes_the_budget():
    x = np.zeros(8, np.float32)
    file, line = marked(k_ub_probe)
    asc.configure_device(ub_size=64 * KiB)
    assert asc.get_device_properties().ub_size == 64 * KiB
    message = compile_error(k_ub_probe, x, 32 * KiB)  # 128 KiB of float32
    assert f"{file}:{line}:" in message and "outside the 65536-byte Unified Buffer" in message
    k_ub_probe.compile(x, 16 * KiB)  # exactly 64 KiB
    asc.configure_device(ub_size=UB)
    assert asc.get_device_properties().ub_size == UB
    k_ub_probe.compile(x, 32 * KiB)
    k_ub_probe[2](x, 32 * KiB)
    asc.synchronize()


def test_a_smaller_ub_is_enforced_at_run_time_for_compiled_kernels():
    x = np.arange(BLOCKS * 64, dtype=np.float32)
    k_run_time_local.compile(x, 0, 8)
    asc.configure_device(ub_size=64 * KiB)
    try:
        message = kernel_error(k_run_time_local, x, 64 * KiB, 8, blocks=1)
        assert "outside the 65536-byte Unified Buffer" in message
    finally:
        asc.configure_device(ub_size=UB)
    assert_device_usable()


# --- TQue misuse and out-of-bounds memory -----------------------------------------------------


@jit
def k_misuse(x: asc.GlobalAddress, case: asc.ConstExpr[str], bad_block: int):
    g = asc.GlobalTensor()
    g.set_global_buffer(x, 64)
    pipe = asc.TPipe()
    q = asc.TQue(asc.TPosition.VECIN, 1)
    other = asc.TQue(asc.TPosition.VECIN, 1)
    pipe.init_buffer(q, 2, 256)
    pipe.init_buffer(other, 1, 256)
    t = q.alloc_tensor(x.dtype)
    if asc.get_block_idx() == bad_block:
        if case == "deque_empty":
            u = q.deque(x.dtype)  # ERR
        if case == "alloc_beyond":
            u = q.alloc_tensor(x.dtype)
            w = q.alloc_tensor(x.dtype)  # ERR
        if case == "enque_beyond_depth":
            u = q.alloc_tensor(x.dtype)
            q.enque(t)
            q.enque(u)  # ERR
        if case == "free_foreign":
            u = other.alloc_tensor(x.dtype)
            q.free_tensor(u)  # ERR
        if case == "double_free":
            q.free_tensor(t)
            q.free_tensor(t)  # ERR
        if case == "gm_out_of_bounds":
            asc.data_copy(t, g[32:], 64)  # ERR
        if case == "gm_past_argument":
            h = asc.GlobalTensor()
            h.set_global_buffer(x + 60)
            asc.data_copy(h, t, 8)  # ERR
    else:
        asc.data_copy(t, g, 16)
        q.free_tensor(t)


MISUSE = {
    "deque_empty": "deque on an empty queue",
    "alloc_beyond": "alloc_tensor: all 2 buffers of the queue are in use",
    "enque_beyond_depth": "enque: the queue already holds its depth of 1 tensors",
    "double_free": "free_tensor: the tensor is not one this queue handed out",
}
#: Bugs the device survives, so the default mode runs them as the device does
#: (GM outside the argument: zeros read, writes dropped; a buffer freed
#: through another queue of the pipe is freed); checked mode reports them.
CHECKED_ONLY = {
    "free_foreign": "free_tensor: the tensor is not one this queue handed out",
    "gm_out_of_bounds": "data_copy: global memory access of 64 elements at offset 0 is outside "
                        "the argument (128 bytes left)",
    "gm_past_argument": "data_copy: global memory access of 8 elements at offset 0 is outside "
                        "the argument (16 bytes left)",
}
k_misuse_checked = asc.jit(k_misuse.fn, cache_dir=CACHE, debug=True)


def marked_case(case: str) -> int:
    """The line of case's # ERR marker inside k_misuse."""
    lines, first = inspect.getsourcelines(k_misuse.fn)
    start = next(i for i, t in enumerate(lines) if f'case == "{case}"' in t)
    return first + next(i for i in range(start, len(lines)) if "# ERR" in lines[i])


@pytest.mark.parametrize("case", list(MISUSE))
def test_misuse_raises_kernel_error_naming_block_and_line(case):
    x = np.zeros(64, np.float32)
    message = kernel_error(k_misuse, x, case, 2)
    file = inspect.getsourcefile(k_misuse.fn)
    assert f"k_misuse: block 2 of {BLOCKS}: {file}:{marked_case(case)}: {MISUSE[case]}" in \
        message
    assert_device_usable()


@pytest.mark.parametrize("case", list(CHECKED_ONLY))
def test_device_tolerated_misuse_runs_by_default_and_fails_in_checked_mode(case):
    x = np.zeros(64, np.float32)
    k_misuse[BLOCKS](x, case, 2)
    asc.synchronize()
    # nothing but x[60:64] may change (gm_past_argument writes 4 of its 8)
    np.testing.assert_array_equal(x[:60], 0)
    message = kernel_error(k_misuse_checked, x, case, 2)
    file = inspect.getsourcefile(k_misuse.fn)
    assert f"k_misuse: block 2 of {BLOCKS}: {file}:{marked_case(case)}: {CHECKED_ONLY[case]}" \
        in message
    assert_device_usable()


def test_misuse_kernels_run_clean_when_no_block_misbehaves():
    x = np.zeros(64, np.float32)
    for case in list(MISUSE) + list(CHECKED_ONLY):
        k_misuse[BLOCKS](x, case, BLOCKS)  # no block has that index
    asc.synchronize()


def test_errors_on_a_stream_surface_at_its_synchronisation():
    x = asc.from_numpy(np.zeros(64, np.float32))  # a Tensor: the launch stays asynchronous
    s = asc.Stream()
    try:
        k_misuse[BLOCKS, s](x, "double_free", 1)
        with pytest.raises(asc.KernelError, match="block 1 of 4"):
            s.synchronize()
        s.synchronize()  # reported once
    finally:
        s.destroy()
    assert_device_usable()
