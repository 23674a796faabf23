"""The Unified Buffer's reach: the NPU does not check that a TPipe buffer or
a LocalTensor ends inside the physical UB (192 KiB on the 910B), so default
mode lets a kernel use bytes past it, up to the smallest power of two that
covers the UB (256 KiB; the simulator's choice, since the hardware's
behaviour there is not documented), and gives NumPy's result; checked mode
reports the same kernel at the offending line. Past the reach both modes
fail (docs/kernel-reference-semantics.md, "the UB's reach")."""

from __future__ import annotations

import inspect

import numpy as np
import pytest

import pyasc as asc
from kernel_api_helpers import jit, modes


UB = asc.get_device_properties().ub_size
REACH = 1 << (UB - 1).bit_length()
BLOCKS = 2


def marked(fn, marker="# ERR") -> tuple[str, int]:
    """The file and line of the kernel's one line carrying marker."""
    fn = getattr(fn, "fn", fn)
    lines, first = inspect.getsourcelines(fn)
    hits = [i for i, text in enumerate(lines) if marker in text]
    assert len(hits) == 1
    return inspect.getsourcefile(fn), first + hits[0]


def leaky(x: np.ndarray, alpha: float) -> np.ndarray:
    """leaky_relu in float64, rounded to float32."""
    v = x.astype(np.float64)
    return np.where(v >= 0, v, v * alpha).astype(np.float32)


@jit
def two_out_buffers(x: asc.GlobalAddress, z: asc.GlobalAddress, info: asc.GlobalAddress, n: int):
    """Two tiles of n floats per block through a VECIN queue of one buffer
    and a VECOUT queue of two, both VECOUT buffers live at once (so the
    second one is used); its UB address goes to info."""
    base = asc.get_block_idx() * 2 * n
    x0 = asc.GlobalTensor()
    x0.set_global_buffer(x + base, n)
    x1 = asc.GlobalTensor()
    x1.set_global_buffer(x + base + n, n)
    z0 = asc.GlobalTensor()
    z0.set_global_buffer(z + base, n)
    z1 = asc.GlobalTensor()
    z1.set_global_buffer(z + base + n, n)
    gi = asc.GlobalTensor()
    gi.set_global_buffer(info + asc.get_block_idx(), 1)
    pipe = asc.TPipe()
    qin = asc.TQue(asc.TPosition.VECIN, 1)
    qout = asc.TQue(asc.TPosition.VECOUT, 2)
    pipe.init_buffer(qin, 1, n * 4)
    pipe.init_buffer(qout, 2, n * 4)  # ERR
    a = qin.alloc_tensor(asc.float32)
    asc.data_copy(a, x0, n)
    qin.enque(a)
    a = qin.deque(asc.float32)
    y0 = qout.alloc_tensor(asc.float32)
    asc.leaky_relu(y0, a, 0.25, n)
    qin.free_tensor(a)
    b = qin.alloc_tensor(asc.float32)
    asc.data_copy(b, x1, n)
    qin.enque(b)
    b = qin.deque(asc.float32)
    y1 = qout.alloc_tensor(asc.float32)
    asc.leaky_relu(y1, b, 0.5, n)
    qin.free_tensor(b)
    gi.set_value(0, y1.get_phy_addr(0))
    qout.enque(y0)
    qout.enque(y1)
    y0 = qout.deque(asc.float32)
    y1 = qout.deque(asc.float32)
    asc.data_copy(z0, y0, n)
    asc.data_copy(z1, y1, n)
    qout.free_tensor(y0)
    qout.free_tensor(y1)


def run_two_out_buffers(kernel, n: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The input, the output and the second VECOUT buffers' UB addresses."""
    rng = np.random.default_rng(n)
    x = rng.standard_normal(BLOCKS * 2 * n).astype(np.float32)
    z = np.zeros_like(x)
    info = np.full(BLOCKS, -1, np.int64)
    kernel[BLOCKS](x, z, info, n)
    asc.synchronize()
    return x, z, info


def test_a_queue_buffer_past_the_ub_runs_in_default_mode():
    """80 KiB in, then 2 x 80 KiB out: the second out buffer is UB bytes
    [160 KiB, 240 KiB), past the 192 KiB UB (as upstream's adv matmul test's
    VECOUT queue)."""
    n = 80 * 1024 // 4
    assert 3 * n * 4 > UB and 3 * n * 4 <= REACH
    x, z, info = run_two_out_buffers(two_out_buffers, n)
    np.testing.assert_array_equal(info, np.full(BLOCKS, 2 * n * 4))
    for blk in range(BLOCKS):
        t = x[blk * 2 * n:(blk + 1) * 2 * n]
        out = z[blk * 2 * n:(blk + 1) * 2 * n]
        np.testing.assert_array_equal(out[:n], leaky(t[:n], 0.25))
        np.testing.assert_array_equal(out[n:], leaky(t[n:], 0.5))


def test_checked_mode_reports_the_queue_past_the_ub_at_init_buffer():
    _, checked = modes(two_out_buffers)
    file, line = marked(two_out_buffers)
    n = 80 * 1024 // 4
    with pytest.raises(asc.KernelError) as info:
        run_two_out_buffers(checked, n)
    message = str(info.value)
    assert (f"{file}:{line}: init_buffer: Unified Buffer overflow: {n * 4} more bytes at "
            f"byte {2 * n * 4} exceed the {UB}-byte UB") in message
    assert "default mode" not in message
    # the device stays usable
    _, z, _ = run_two_out_buffers(two_out_buffers, 64)
    assert z.any()


def test_a_queue_past_the_reach_fails_in_both_modes():
    n = 90 * 1024 // 4  # 270 KiB of buffers
    file, line = marked(two_out_buffers)
    plain, checked = modes(two_out_buffers)
    for kernel, note in ((plain, True), (checked, False)):
        with pytest.raises(asc.KernelError) as info:
            run_two_out_buffers(kernel, n)
        message = str(info.value)
        assert (f"{file}:{line}: init_buffer: Unified Buffer overflow: {n * 4} more bytes at "
                f"byte {2 * n * 4} exceed the {UB}-byte UB") in message
        assert (f"or the {REACH} bytes default mode lets a kernel reach" in message) == note


@jit
def past_the_ub(x: asc.GlobalAddress, z: asc.GlobalAddress, addr: asc.ConstExpr[int],
                n: asc.ConstExpr[int]):
    """leaky_relu of n floats through a LocalTensor at UB byte addr."""
    xg = asc.GlobalTensor()
    xg.set_global_buffer(x + asc.get_block_idx() * n, n)
    zg = asc.GlobalTensor()
    zg.set_global_buffer(z + asc.get_block_idx() * n, n)
    t = asc.LocalTensor(asc.float32, asc.TPosition.VECCALC, addr, n)  # ERR
    asc.data_copy(t, xg, n)
    asc.leaky_relu(t, t, 0.125, n)
    asc.data_copy(zg, t, n)


def test_a_vector_op_on_a_tensor_past_the_ub():
    """Known at compile time, the range is left to run time: default mode
    computes leaky_relu there, checked mode reports the tensor's line."""
    n, addr = 4096, UB + 16 * 1024  # UB bytes [208 KiB, 224 KiB)
    x = np.linspace(-4, 4, BLOCKS * n, dtype=np.float32)
    plain, checked = modes(past_the_ub)
    z = np.zeros_like(x)
    plain[BLOCKS](x, z, addr, n)
    asc.synchronize()
    np.testing.assert_array_equal(z, leaky(x, 0.125))
    file, line = marked(past_the_ub)
    with pytest.raises(asc.KernelError) as info:
        checked[BLOCKS](x, z, addr, n)
        asc.synchronize()
    assert (f"{file}:{line}: LocalTensor: {n} elements at UB byte {addr} fall outside the "
            f"{UB}-byte Unified Buffer") in str(info.value)


@jit
def overrun(x: asc.GlobalAddress, addr: asc.ConstExpr[int], n: asc.ConstExpr[int]):
    """A tensor of n floats at UB byte addr, duplicated over 2 * n."""
    xg = asc.GlobalTensor()
    xg.set_global_buffer(x, n)
    t = asc.LocalTensor(asc.float32, asc.TPosition.VECCALC, addr, n)
    asc.duplicate(t, 1.0, 2 * n)  # ERR
    asc.data_copy(xg, t, n)


def test_a_vector_op_past_the_reach_fails_in_default_mode():
    """The instruction's own range check: default mode lets a vector op run
    past its tensor (the device does) but not past the reach."""
    n = 1024
    x = np.zeros(n, np.float32)
    overrun[1](x, UB + 16 * 1024, n)  # 8 KiB from 208 KiB: within the reach
    asc.synchronize()
    np.testing.assert_array_equal(x, np.ones(n, np.float32))
    addr = REACH - 4 * n  # the tensor ends at the reach, the op 4 KiB past it
    file, line = marked(overrun)
    with pytest.raises(asc.KernelError) as info:
        overrun[1](x, addr, n)
        asc.synchronize()
    assert (f"{file}:{line}: duplicate: {2 * n} elements at UB byte {addr} overrun the "
            f"{UB}-byte Unified Buffer (or the {REACH} bytes default mode lets a kernel "
            f"reach)") in str(info.value)


def test_a_tensor_past_the_reach_is_a_compile_error_in_both_modes():
    n, addr = 4096, REACH - 8 * 1024  # ends 8 KiB past the reach
    x = np.zeros(BLOCKS * n, np.float32)
    file, line = marked(past_the_ub)
    for kernel in modes(past_the_ub):
        with pytest.raises(asc.CompileError) as info:
            kernel.compile(x, x, addr, n)
        message = str(info.value)
        assert f"{file}:{line}:" in message
        assert (f"LocalTensor bytes [{addr}, {addr + 4 * n}) fall outside the {UB}-byte Unified "
                f"Buffer (or the {REACH} bytes default mode lets a kernel reach)") in message


@jit
def mixed_past_the_ub(x: asc.GlobalAddress, z: asc.GlobalAddress, addr: asc.ConstExpr[int],
                      n: asc.ConstExpr[int]):
    """A mixed kernel (one AIC and two AIVs per group, rt/mix.h): each AIV
    doubles its own row of n floats through UB bytes at addr."""
    if asc.ascend_is_aiv():
        xg = asc.GlobalTensor()
        xg.set_global_buffer(x + asc.get_block_idx() * n, n)
        zg = asc.GlobalTensor()
        zg.set_global_buffer(z + asc.get_block_idx() * n, n)
        t = asc.LocalTensor(asc.float32, asc.TPosition.VECCALC, addr, n)
        asc.data_copy(t, xg, n)
        asc.muls(t, t, 2.0, n)
        asc.data_copy(zg, t, n)


def test_each_core_of_a_mixed_group_has_its_own_reach():
    """The second AIV's UB is allocated apart: its bytes past the UB are its
    own, not the first AIV's."""
    n, groups = 8192, 3
    x = np.arange(2 * groups * n, dtype=np.float32)
    z = np.zeros_like(x)
    mixed_past_the_ub[groups](x, z, UB + 16 * 1024, n)  # bytes [208 KiB, 240 KiB)
    asc.synchronize()
    np.testing.assert_array_equal(z, x * 2)


def test_platform_numbers_stay_physical():
    """The reach is address space, not a bigger UB."""
    assert UB == 192 * 1024
    assert REACH == 256 * 1024
