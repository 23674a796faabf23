"""TQueBind, the TQue queries (get_tensor_count_in_que, has_idle_buffer,
free_all_event), TBufPool (TPipe.init_buf_pool, init_buffer, init_buf_pool,
reset) and get_tpipe_ptr: their results against the queue model, in plain
and checked mode, their errors, and their Ascend C forms."""

from __future__ import annotations

import numpy as np
import pytest

import pyasc as asc
from kernel_api_helpers import jit, modes

from test_ascendc import assert_valid_cpp


N = 512


@jit
def bind_kernel(x: asc.GlobalAddress, y: asc.GlobalAddress, info: asc.GlobalAddress,
                n: asc.ConstExpr[int]):
    """x -> TQueBind(GM, VECIN) -> adds 1 -> TQueBind(VECOUT, GM) -> y; the
    queue queries at each step into info."""
    gx = asc.GlobalTensor()
    gx.set_global_buffer(x, n)
    gy = asc.GlobalTensor()
    gy.set_global_buffer(y, n)
    gi = asc.GlobalTensor()
    gi.set_global_buffer(info, 16)
    pipe = asc.TPipe()
    qin = asc.TQueBind(asc.TPosition.GM, asc.TPosition.VECIN, 2)
    qout = asc.TQueBind(src=asc.TPosition.VECOUT, dst=asc.TPosition.GM)
    pipe.init_buffer(qin, 2, n * 4)
    pipe.init_buffer(qout, 1, n * 4)
    gi.set_value(0, qin.get_tensor_count_in_que())
    gi.set_value(1, qin.has_idle_buffer())
    a = qin.alloc_tensor(asc.float32)
    b = qin.alloc_tensor(asc.float32)
    gi.set_value(2, qin.has_idle_buffer())
    asc.data_copy(a, gx, n)
    qin.enque(a)
    gi.set_value(3, qin.get_tensor_count_in_que())
    qin.enque(b)
    gi.set_value(4, qin.get_tensor_count_in_que())
    gi.set_value(5, qin.vacant_in_que())
    a = qin.deque(asc.float32)
    gi.set_value(6, qin.get_tensor_count_in_que())
    gi.set_value(7, qin.has_tensor_in_que())
    b = qin.deque(asc.float32)
    qin.free_tensor(b)
    gi.set_value(8, qin.has_idle_buffer())
    out = qout.alloc_tensor(asc.float32)
    asc.adds(out, a, 1.0, n)
    qin.free_tensor(a)
    qout.enque(out)
    out = qout.deque(asc.float32)
    asc.data_copy(gy, out, n)
    qout.free_tensor(out)
    qout.free_all_event()
    qin.free_all_event()
    gi.set_value(9, qout.has_idle_buffer())


def test_que_bind_and_queries():
    x = np.arange(N, dtype=np.float32)
    for kernel in modes(bind_kernel):
        y = np.zeros(N, np.float32)
        info = np.full(16, -1, np.int32)
        kernel[1](x, y, info, N)
        np.testing.assert_array_equal(y, x + 1)
        assert info[:10].tolist() == [0, 1, 0, 1, 2, 0, 1, 1, 1, 1]


@jit
def moved_tensor_kernel(x: asc.GlobalAddress, y: asc.GlobalAddress, info: asc.GlobalAddress,
                        n: asc.ConstExpr[int]):
    """A queue tensor sliced, and one moved with set_addr_with_offset, are
    enqueued and freed as their buffers (Ascend C passes a tensor by its
    buffer's handle, which both keep): each buffer is idle again after."""
    gx = asc.GlobalTensor()
    gx.set_global_buffer(x, n)
    gy = asc.GlobalTensor()
    gy.set_global_buffer(y, n)
    gi = asc.GlobalTensor()
    gi.set_global_buffer(info, 4)
    pipe = asc.TPipe()
    q = asc.TQue(asc.TPosition.VECIN, 1)
    tmp = asc.TQue(asc.TPosition.VECCALC, 1)
    pipe.init_buffer(q, 1, n * 4)
    pipe.init_buffer(tmp, 1, n * 4)
    a = q.alloc_tensor(asc.float32)
    asc.data_copy(a, gx, n)
    q.enque(a[16:])
    b = q.deque(asc.float32)
    asc.data_copy(gy, b, n)
    q.free_tensor(b[32:])
    gi.set_value(0, q.has_idle_buffer())
    t = tmp.alloc_tensor(asc.int32)
    t.set_addr_with_offset(t, 16)
    tmp.free_tensor(t)
    gi.set_value(1, tmp.has_idle_buffer())


def test_sliced_and_moved_tensors_free_their_buffers():
    x = np.arange(N, dtype=np.float32)
    for kernel in modes(moved_tensor_kernel):
        y = np.zeros(N, np.float32)
        info = np.full(4, -1, np.int32)
        kernel[1](x, y, info, N)
        np.testing.assert_array_equal(y, x)  # the dequeued tensor is the whole buffer
        assert info[:2].tolist() == [1, 1]


@jit
def bind_error_kernel(x: asc.GlobalAddress, case: asc.ConstExpr[int]):
    if case == 0:
        q = asc.TQueBind(asc.TPosition.GM, asc.TPosition.GM)
    elif case == 1:
        q = asc.TQueBind(asc.TPosition.GM, asc.TPosition.A1)
    elif case == 2:
        q = asc.TQueBind(asc.TPosition.VECOUT, asc.TPosition.GM, 9)
    else:
        q = asc.TQueBind(asc.TPosition.VECOUT, 3.5)


@pytest.mark.parametrize("case,message", [
    (0, "at most one end may be TPosition.GM"),
    (1, "local end must be VECIN, VECOUT or VECCALC"),
    (2, "depth must be a constant in \\[0, 8\\]"),
    (3, "dst must be a pyasc.TPosition member"),
])
def test_que_bind_errors(case, message):
    with pytest.raises(asc.CompileError, match=message) as info:
        bind_error_kernel[1](np.zeros(8, np.float32), case)
    assert "asc.TQueBind(" in str(info.value)


@jit
def pool_kernel(x: asc.GlobalAddress, y: asc.GlobalAddress, info: asc.GlobalAddress,
                n: asc.ConstExpr[int]):
    """Two pools sharing memory (the upstream pattern): pool1's queues copy x
    to y doubled, reset, then pool2's queues (at the same addresses) add 3."""
    gx = asc.GlobalTensor()
    gx.set_global_buffer(x, n)
    gy = asc.GlobalTensor()
    gy.set_global_buffer(y, n)
    gi = asc.GlobalTensor()
    gi.set_global_buffer(info, 8)
    pipe = asc.TPipe()
    pool0 = asc.TBufPool(asc.TPosition.VECCALC, 8)
    pool1 = asc.TBufPool(asc.TPosition.VECCALC)
    pool2 = asc.TBufPool(pos=asc.TPosition.VECCALC, buf_id_size=4)
    qa = asc.TQue(asc.TPosition.VECIN, 1)
    qb = asc.TQue(asc.TPosition.VECOUT, 1)
    qc = asc.TQue(asc.TPosition.VECIN, 1)
    qd = asc.TQue(asc.TPosition.VECOUT, 1)
    tmp = asc.TBuf(asc.TPosition.VECCALC)
    pipe.init_buf_pool(pool0, 4 * n * 4)
    pool0.init_buf_pool(pool1, 2 * n * 4)
    pool0.init_buf_pool(pool2, 2 * n * 4, pool1)
    pool1.init_buffer(qa, 1, n * 4)
    pool1.init_buffer(que=qb, num=1, len=n * 4)
    a = qa.alloc_tensor(asc.float32)
    gi.set_value(0, a.get_phy_addr())
    asc.data_copy(a, gx, n)
    qa.enque(a)
    a = qa.deque(asc.float32)
    b = qb.alloc_tensor(asc.float32)
    asc.muls(b, a, 2.0, n)
    qa.free_tensor(a)
    qb.enque(b)
    b = qb.deque(asc.float32)
    asc.data_copy(gy, b, n)
    qb.free_tensor(b)
    pool1.reset()
    asc.pipe_barrier(asc.PipeID.PIPE_ALL)
    pool2.init_buffer(qc, 1, n * 4)
    pool2.init_buffer(qd, 1, n * 4)
    c = qc.alloc_tensor(asc.float32)
    gi.set_value(1, c.get_phy_addr())
    asc.data_copy(c, gy, n)
    qc.enque(c)
    c = qc.deque(asc.float32)
    d = qd.alloc_tensor(asc.float32)
    asc.adds(d, c, 3.0, n)
    qc.free_tensor(c)
    qd.enque(d)
    d = qd.deque(asc.float32)
    asc.data_copy(gy, d, n)
    qd.free_tensor(d)
    pool2.reset()
    pool0.reset()
    asc.get_tpipe_ptr().init_buffer(tmp, 64)
    gi.set_value(2, tmp.get(asc.float32).get_phy_addr())


def test_buf_pools_share_memory():
    x = np.arange(N, dtype=np.float32)
    for kernel in modes(pool_kernel):
        y = np.zeros(N, np.float32)
        info = np.full(8, -1, np.int64)
        kernel[1](x, y, info, N)
        np.testing.assert_array_equal(y, 2 * x + 3)
        # pool2 reuses pool1's memory; the pipe goes on after pool0's 8 KiB
        assert info[:3].tolist() == [0, 0, 4 * N * 4]


@jit
def pool_error_kernel(case: asc.ConstExpr[int]):
    pipe = asc.TPipe()
    pool = asc.TBufPool(asc.TPosition.VECCALC, 2)
    other = asc.TBufPool(asc.TPosition.VECCALC, 2)
    q = asc.TQue(asc.TPosition.VECIN, 1)
    if case == 0:
        pipe.init_buf_pool(pool, 1000)
        pool.init_buffer(q, 1, 2048)  # line 175: more than the pool
    elif case == 1:
        pipe.init_buf_pool(pool, 4096)
        pool.init_buffer(q, 3, 64)  # more buffers than buf_id_size
    elif case == 2:
        pipe.init_buf_pool(pool, 64)
        pipe.init_buf_pool(other, 128, pool)  # longer than the pool it shares
    elif case == 3:
        pipe.init_buf_pool(pool, 64)
        pipe.init_buf_pool(pool, 64)
    else:
        pipe.init_buf_pool(pool, 1 << 30)


@pytest.mark.parametrize("case,message,always", [
    (0, "TBufPool overflow: 2048 more bytes at byte 0 exceed the pool's bytes \\[0, 1024\\)",
     False),
    (1, "already hands out its buf_id_size of 2 buffers", True),
    (2, "128 bytes exceed the 64 bytes of share_buf", False),
    (3, "this TBufPool already has its memory", False),
    (4, "Unified Buffer overflow", True),
])
def test_buf_pool_errors_name_the_line(case, message, always):
    """The device does not check a pool's own bounds: those are checked-mode
    errors; the UB's bounds and the buffer ids always hold."""
    plain, checked = modes(pool_error_kernel)
    with pytest.raises(asc.KernelError, match=message) as info:
        checked[1](case)
        asc.synchronize()
    assert "test_api_queues.py" in str(info.value)
    if always:
        with pytest.raises(asc.KernelError, match=message):
            plain[1](case)
            asc.synchronize()
    else:
        plain[1](case)
        asc.synchronize()


@jit
def pool_compile_error_kernel(x: asc.GlobalAddress, case: asc.ConstExpr[int]):
    if case == 4:
        p = asc.get_tpipe_ptr()
    else:
        pipe = asc.TPipe()
        if case == 1:
            p = asc.TBufPool(asc.TPosition.A1)
        elif case == 2:
            p = asc.TBufPool(asc.TPosition.VECIN, 17)
        else:
            q = asc.TQue(asc.TPosition.VECIN, 1)
            pipe.init_buf_pool(q, 64)


@pytest.mark.parametrize("case,message", [
    (1, "pos must be VECIN, VECOUT"),
    (2, "buf_id_size must be a constant in \\[1, 16\\]"),
    (3, "buf_pool must be a TBufPool"),
    (4, "the kernel has no TPipe yet"),
])
def test_pool_compile_errors(case, message):
    with pytest.raises(asc.CompileError, match=message):
        pool_compile_error_kernel[1](np.zeros(8, np.float32), case)


def test_ascendc_forms():
    x = np.zeros(N, np.float32)
    src = bind_kernel.ascendc(x, x, np.zeros(16, np.int32), N)
    for text in ("AscendC::TQueBind<AscendC::TPosition::GM, AscendC::TPosition::VECIN, 2> qin;",
                 "AscendC::TQueBind<AscendC::TPosition::VECOUT, AscendC::TPosition::GM, 1> qout;",
                 "qin.GetTensorCountInQue()", "qin.HasIdleBuffer()", "qout.FreeAllEvent();"):
        assert text in src
    assert_valid_cpp(src)
    src = pool_kernel.ascendc(x, x, np.zeros(8, np.int64), N)
    for text in ("AscendC::TBufPool<AscendC::TPosition::VECCALC, 8> pool0;",
                 "pipe.InitBufPool(pool0, 8192);", "pool0.InitBufPool(pool2, 4096, pool1);",
                 "pool1.InitBuffer(qa, 1, 2048);", "pool1.Reset();",
                 "(*AscendC::GetTPipePtr()).InitBuffer(tmp, 64);"):
        assert text in src, text
    assert_valid_cpp(src)
