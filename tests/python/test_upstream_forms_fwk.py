"""Forms of the TPipe framework that PyAsc's front end accepts: TQueBind
between two vector positions, the in-place (depth 0) queue, the
user-position forms of enque/deque, and PyAsc's module paths
(``asc.language.fwk.tpipe``, ``asc.language.core.dtype``). Each runs on the
simulator, in plain and checked mode, against NumPy."""

from __future__ import annotations

import numpy as np
import pytest

import asc
import pyasc
from asc.language.core.dtype import KnownTypes as KT
from asc.language.fwk.tpipe import TQueBind
from kernel_api_helpers import jit, modes
from test_ascendc import assert_valid_cpp

N = 256


def test_module_paths_serve_pyasc_objects():
    assert TQueBind is asc.TQueBind
    assert KT.float32 is asc.float32 and KT.int32 is asc.int32 and KT.half is asc.float16
    assert asc.language.core.dtype.DataType is asc.DataType


@jit
def vec_bind_kernel(x: asc.GlobalAddress, y: asc.GlobalAddress, n: asc.ConstExpr[int]):
    """x -> VECIN queue -> (+2) -> TQueBind(VECIN, VECOUT) -> (*3) -> y."""
    gx = asc.GlobalTensor()
    gx.set_global_buffer(x, n)
    gy = asc.GlobalTensor()
    gy.set_global_buffer(y, n)
    pipe = asc.TPipe()
    qin = asc.TQue(asc.TPosition.VECIN, 1)
    mid = TQueBind(src=asc.TPosition.VECIN, dst=asc.TPosition.VECOUT, depth=1)
    qout = TQueBind(asc.TPosition.VECOUT, asc.TPosition.GM, 1)
    pipe.init_buffer(qin, 1, n * 4)
    pipe.init_buffer(mid, 1, n * 4)
    pipe.init_buffer(qout, 1, n * 4)
    a = qin.alloc_tensor(KT.float32)
    asc.data_copy(a, gx, n)
    qin.enque(a)
    a = qin.deque(KT.float32)
    b = mid.alloc_tensor(KT.float32)
    asc.adds(b, a, 2.0, n)
    qin.free_tensor(a)
    mid.enque(b, asc.TPosition.VECIN, asc.TPosition.VECOUT)
    b = mid.deque(KT.float32, asc.TPosition.VECIN, asc.TPosition.VECOUT)
    c = qout.alloc_tensor(KT.float32)
    asc.muls(c, b, 3.0, n)
    mid.free_tensor(b)
    qout.enque(c)
    c = qout.deque(KT.float32)
    asc.data_copy(gy, c, n)
    qout.free_tensor(c)


def test_que_bind_between_vector_positions():
    x = np.arange(N, dtype=np.float32) - 7
    for kernel in modes(vec_bind_kernel):
        y = np.zeros(N, np.float32)
        kernel[1](x, y, N)
        np.testing.assert_array_equal(y, (x + 2) * 3)


@jit
def inplace_kernel(x0: asc.GlobalAddress, x1: asc.GlobalAddress, y: asc.GlobalAddress,
                   tile: asc.ConstExpr[int], tiles: asc.ConstExpr[int]):
    """Ascend C's in-place pattern: depth-0 queues whose alloc_tensor and
    deque fill the LocalTensor variables they are given, over several tiles."""
    g0 = asc.GlobalTensor()
    g0.set_global_buffer(x0, tile * tiles)
    g1 = asc.GlobalTensor()
    g1.set_global_buffer(x1, tile * tiles)
    gy = asc.GlobalTensor()
    gy.set_global_buffer(y, tile * tiles)
    pipe = asc.TPipe()
    q0 = asc.TQue(asc.TPosition.VECIN, 0)
    q1 = TQueBind(asc.TPosition.GM, asc.TPosition.VECIN, 0)
    qo = asc.TQue(asc.TPosition.VECOUT, 0)
    pipe.init_buffer(q0, 1, tile * 2)
    pipe.init_buffer(q1, 1, tile * 2)
    pipe.init_buffer(qo, 1, tile * 2)
    a = asc.LocalTensor(asc.float16)
    b = asc.LocalTensor(asc.float16)
    o = asc.LocalTensor(asc.float16)
    for i in range(tiles):
        q0.alloc_tensor(a)
        q1.alloc_tensor(b)
        asc.data_copy(a, g0[i * tile:], tile)
        asc.data_copy(b, g1[i * tile:], tile)
        q0.enque(a)
        q1.enque(b)
        q0.deque(a)
        q1.deque(b)
        qo.alloc_tensor(o)
        asc.add(o, a, b, tile)
        qo.enque(o)
        q0.free_tensor(a)
        q1.free_tensor(b)
        qo.deque(o)
        asc.data_copy(gy[i * tile:], o, tile)
        qo.free_tensor(o)


def test_in_place_queues():
    rng = np.random.default_rng(5)
    tile, tiles = 128, 4
    x0 = rng.standard_normal(tile * tiles).astype(np.float16)
    x1 = rng.standard_normal(tile * tiles).astype(np.float16)
    for kernel in modes(inplace_kernel):
        y = np.zeros(tile * tiles, np.float16)
        kernel[1](x0, x1, y, tile, tiles)
        np.testing.assert_array_equal(y, x0 + x1)


def test_in_place_forms_in_ascend_c():
    src = inplace_kernel.ascendc(np.zeros(256, np.float16), np.zeros(256, np.float16),
                                 np.zeros(256, np.float16), 128, 2)
    assert "AscendC::TQue<AscendC::TPosition::VECIN, 0>" in src
    assert "TQueBind<AscendC::TPosition::GM, AscendC::TPosition::VECIN, 0>" in src
    assert "q0.AllocTensor<half>(pyasc_t)" in src and "q0.DeQue<half>(pyasc_t)" in src
    assert_valid_cpp(src)


@jit
def inplace_order_kernel(x0: asc.GlobalAddress, x1: asc.GlobalAddress, y: asc.GlobalAddress,
                         n: asc.ConstExpr[int], stray: asc.ConstExpr[bool]):
    """Two tensors through one depth-0 queue, dequeued in the other order: an
    in-place deque leaves each tensor its own buffer (y = x0 - x1); a stray
    tensor dequeued in place keeps its own (empty) buffer."""
    g0 = asc.GlobalTensor()
    g0.set_global_buffer(x0, n)
    g1 = asc.GlobalTensor()
    g1.set_global_buffer(x1, n)
    gy = asc.GlobalTensor()
    gy.set_global_buffer(y, n)
    pipe = asc.TPipe()
    q = asc.TQue(asc.TPosition.VECIN, 0)
    qo = asc.TQue(asc.TPosition.VECOUT, 1)
    pipe.init_buffer(q, 2, n * 4)
    pipe.init_buffer(qo, 1, n * 4)
    a = asc.LocalTensor(asc.float32)
    b = asc.LocalTensor(asc.float32)
    q.alloc_tensor(a)
    q.alloc_tensor(b)
    asc.data_copy(a, g0, n)
    asc.data_copy(b, g1, n)
    q.enque(a)
    q.enque(b)
    q.deque(b)
    if stray:
        c = asc.LocalTensor(asc.float32, asc.TPosition.VECCALC, 3 * n * 4, n)  # past the queues
        q.deque(c)
    else:
        q.deque(a)
    o = qo.alloc_tensor(asc.float32)
    asc.sub(o, a, b, n)
    q.free_tensor(a)
    q.free_tensor(b)
    qo.enque(o)
    o = qo.deque(asc.float32)
    asc.data_copy(gy, o, n)
    qo.free_tensor(o)


def test_in_place_deque_keeps_each_tensor_its_buffer():
    x0 = np.arange(N, dtype=np.float32) * 3
    x1 = np.arange(N, dtype=np.float32) + 1
    for kernel in modes(inplace_order_kernel):
        y = np.zeros(N, np.float32)
        kernel[1](x0, x1, y, N, False)
        np.testing.assert_array_equal(y, x0 - x1)
    # a stray tensor: the device only waits for the oldest hand-over (a's) and
    # every tensor keeps its own buffer; checked mode reports it
    y = np.zeros(N, np.float32)
    inplace_order_kernel[1](x0, x1, y, N, True)
    np.testing.assert_array_equal(y, x0 - x1)
    with pytest.raises(pyasc.KernelError, match="the tensor is not one enqueued in this queue"):
        modes(inplace_order_kernel)[1][1](x0, x1, np.zeros(N, np.float32), N, True)


@jit
def inplace_error_kernel():
    TQueBind(asc.TPosition.GM, asc.TPosition.GM)


def test_que_bind_with_two_gm_ends_is_an_error():
    with pytest.raises(pyasc.CompileError, match="at most one end may be TPosition.GM"):
        inplace_error_kernel[1]()


@jit
def lone_pool_kernel(x: asc.GlobalAddress, y: asc.GlobalAddress, info: asc.GlobalAddress,
                     n: asc.ConstExpr[int]):
    """TBufPools that no TPipe gave memory (Ascend C's default pool: start
    0, length 0): the device hands their buffers out from UB byte 0 on,
    unchecked; a pool initialised twice takes its new memory, a shared pool
    its share's start."""
    gx = asc.GlobalTensor()
    gx.set_global_buffer(x, n)
    gy = asc.GlobalTensor()
    gy.set_global_buffer(y, n)
    gi = asc.GlobalTensor()
    gi.set_global_buffer(info, 8)
    pool0 = asc.TBufPool(pos=asc.TPosition.VECIN, buf_id_size=4)
    pool1 = asc.TBufPool(pos=asc.TPosition.VECIN, buf_id_size=4)
    pool2 = asc.TBufPool(pos=asc.TPosition.VECIN, buf_id_size=4)
    pool0.init_buf_pool(buf_pool=pool1, len=n * 4)
    pool0.init_buf_pool(buf_pool=pool1, len=n * 4)  # pool1 again: after the first
    pool0.init_buf_pool(buf_pool=pool2, len=n * 4, share_buf=pool1)
    que = asc.TQue(asc.TPosition.VECIN, 1)
    out = asc.TQue(asc.TPosition.VECOUT, 1)
    tmp = asc.TBuf(asc.TPosition.VECCALC)
    pool2.init_buffer(que=que, num=1, len=n * 4)
    pool2.init_buffer(out, 1, n * 4)
    pool2.init_buffer(buf=tmp, len=64)
    a = que.alloc_tensor(asc.float32)
    gi.set_value(0, a.get_phy_addr())
    asc.data_copy(a, gx, n)
    que.enque(a)
    a = que.deque(asc.float32)
    b = out.alloc_tensor(asc.float32)
    gi.set_value(1, b.get_phy_addr())
    asc.muls(b, a, 2.0, n)
    que.free_tensor(a)
    out.enque(b)
    b = out.deque(asc.float32)
    asc.data_copy(gy, b, n)
    out.free_tensor(b)
    gi.set_value(2, tmp.get(asc.float32).get_phy_addr())
    pool2.reset()


def test_pools_without_a_pipe_take_memory_as_the_device_does():
    x = np.arange(N, dtype=np.float32)
    y = np.zeros(N, np.float32)
    info = np.full(8, -1, np.int64)
    lone_pool_kernel[1](x, y, info, N)
    np.testing.assert_array_equal(y, 2 * x)
    # pool1 sits after its first placement; pool2 shares it; buffers follow on
    assert info[:3].tolist() == [N * 4, 2 * N * 4, 3 * N * 4]
    checked = modes(lone_pool_kernel)[1]
    with pytest.raises(pyasc.KernelError, match="no init_buf_pool gave this TBufPool memory"):
        checked[1](x, y, info, N)
