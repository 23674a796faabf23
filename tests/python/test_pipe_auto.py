"""A TPipe and LocalTensorAuto in one kernel, as PyAsc materialises it: each
automatic tensor is a VECCALC TBuf initialised from the kernel's pipe, next
to the pipe's queues; the errors where that cannot work."""

from __future__ import annotations

import inspect

import numpy as np
import pytest

import pyasc as asc

N = 256


@asc.jit
def queues_and_auto(x: asc.GlobalAddress, z: asc.GlobalAddress, n: asc.ConstExpr[int],
                    scale: float) -> None:
    pipe = asc.TPipe()
    q_in = asc.TQue(asc.TPosition.VECIN, 1)
    q_out = asc.TQue(asc.TPosition.VECOUT, 1)
    pipe.init_buffer(q_in, 1, n * x.dtype.sizeof())
    pipe.init_buffer(q_out, 1, n * x.dtype.sizeof())
    tmp = asc.LocalTensorAuto(x.dtype, n)
    xg = asc.GlobalTensor()
    zg = asc.GlobalTensor()
    xg.set_global_buffer(x, n)
    zg.set_global_buffer(z, n)
    a = q_in.alloc_tensor(x.dtype)
    asc.data_copy(a, xg, n)
    q_in.enque(a)
    b = q_in.deque(x.dtype)
    asc.muls(tmp, b, scale, n)
    c = q_out.alloc_tensor(x.dtype)
    asc.add(c, tmp, b, n)
    q_out.enque(c)
    q_in.free_tensor(b)
    d = q_out.deque(x.dtype)
    asc.data_copy(zg, d, n)
    q_out.free_tensor(d)


@pytest.mark.parametrize("debug", [False, True])
@pytest.mark.parametrize("dtype", [np.float32, np.float16])
def test_queues_and_automatic_tensors_share_the_pipe(debug, dtype):
    kernel = asc.jit(queues_and_auto.fn, debug=debug)
    x = np.arange(N).astype(dtype)
    z = np.zeros_like(x)
    kernel[1](x, z, N, 3.0)
    np.testing.assert_array_equal(z, (x * dtype(3.0)) + x)


def test_ascendc_takes_the_automatic_tensor_from_the_pipe():
    x = np.zeros(N, np.float32)
    src = queues_and_auto.ascendc(x, x, N, 2.0)
    assert "AscendC::TBuf<AscendC::TPosition::VECCALC>" in src
    assert "pipe.InitBuffer(" in src and f"Get<float>({N})" in src


@asc.jit
def overlapping_budget(x: asc.GlobalAddress, n: asc.ConstExpr[int]) -> None:
    pipe = asc.TPipe()
    q = asc.TQue(asc.TPosition.VECIN, 1)
    pipe.init_buffer(q, 1, 100000)
    tmp = asc.LocalTensorAuto(x.dtype, n)  # [too much]


def test_automatic_tensors_count_against_the_pipes_unified_buffer():
    """Allocated by the pipe, they cannot overlap its queues: past the UB is
    the pipe's budget error, at the tensor's line."""
    src, first = inspect.getsourcelines(overlapping_budget.fn)
    line = first + next(i for i, t in enumerate(src) if "[too much]" in t)
    with pytest.raises(asc.CompileError, match=rf":{line}:\d+: Unified Buffer budget exceeded"):
        # 100000 + 4 * 45000 bytes: past the UB and default mode's 256 KiB reach
        overlapping_budget[1](np.zeros(8, np.float32), 45000)


@asc.jit
def auto_in_runtime_loop(x: asc.GlobalAddress, k: int, n: asc.ConstExpr[int]) -> None:
    """x[i*n:(i+1)*n] += i + 1 for each of k tiles, through an automatic
    tensor made in the loop's body, as upstream's insert_sync matmul does."""
    pipe = asc.TPipe()
    xg = asc.GlobalTensor()
    xg.set_global_buffer(x, n * k)
    for i in range(k):
        tmp = asc.LocalTensorAuto(x.dtype, n)  # [in loop]
        asc.data_copy(tmp, xg[i * n:], n)
        asc.adds(tmp, tmp, float(i + 1), n)
        asc.data_copy(xg[i * n:], tmp, n)


def test_automatic_tensor_in_a_runtime_loop_takes_its_buffer_once():
    """PyAsc hoists the buffer out of the loop: the site takes it from the
    pipe the first time and reuses it, so 40 tiles of 16 KiB (640 KiB in
    all, more than the 192 KiB UB) run; plain and checked mode."""
    k, n = 40, 4096
    for kernel in (auto_in_runtime_loop, asc.jit(auto_in_runtime_loop.fn, debug=True)):
        x = np.arange(k * n, dtype=np.float32)
        kernel[1](x, k, n)
        asc.synchronize()
        expected = np.arange(k * n, dtype=np.float32) + np.repeat(np.arange(1, k + 1), n)
        np.testing.assert_array_equal(x, expected.astype(np.float32))


def test_automatic_tensor_in_a_runtime_loop_has_no_ascendc_form_yet():
    """The Ascend C emitter declares objects once, where they are made: it
    refuses the per-site buffer with an error at the tensor's line."""
    src, first = inspect.getsourcelines(auto_in_runtime_loop.fn)
    line = first + next(i for i, t in enumerate(src) if "[in loop]" in t)
    with pytest.raises(asc.UnsupportedError, match=rf":{line}:\d+: .*LocalTensorAuto buffer"):
        auto_in_runtime_loop.ascendc(np.zeros(8, np.float32), 2, 8)
