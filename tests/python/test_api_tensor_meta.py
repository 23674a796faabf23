"""LocalTensor set_size/set_buffer_len/set_addr_with_offset/set_user_tag/
get_user_tag/set_shape_info/get_shape_info, GlobalTensor get_phy_addr/
set_shape_info/get_shape_info/set_l2_cache_hint, get_shape_size,
LocalMemAllocator and set_pad_value: results against NumPy, in plain and
checked mode, their errors naming the line, and their Ascend C forms."""

from __future__ import annotations

import numpy as np
import pytest

import pyasc as asc
from kernel_api_helpers import CACHE, jit, modes

from test_ascendc import assert_valid_cpp


N = 256


@jit
def local_kernel(x: asc.GlobalAddress, y: asc.GlobalAddress, info: asc.GlobalAddress,
                 n: asc.ConstExpr[int]):
    """The setters' effects on sizes and addresses (info), and a copy through
    a tensor placed by set_addr_with_offset (y = x[64:] then zeros)."""
    gx = asc.GlobalTensor()
    gx.set_global_buffer(x, n)
    gy = asc.GlobalTensor()
    gy.set_global_buffer(y, n)
    gi = asc.GlobalTensor()
    gi.set_global_buffer(info, 16)
    pipe = asc.TPipe()
    q = asc.TQue(asc.TPosition.VECIN, 1)
    pipe.init_buffer(q, 1, n * 4)
    t = q.alloc_tensor(asc.float32)
    gi.set_value(0, t.get_size())
    t.set_size(64)
    gi.set_value(1, t.get_size())
    t.set_buffer_len(512)
    gi.set_value(2, t.get_size())
    t.set_size()
    gi.set_value(3, t.get_size())
    t.set_buffer_len(n * 4)
    asc.data_copy(t, gx, n)
    u = asc.LocalTensor(asc.float32, asc.TPosition.VECOUT, 3 * n * 4, n)
    u.set_addr_with_offset(t, 64)
    gi.set_value(4, u.get_phy_addr())
    gi.set_value(5, u.get_size())
    h = asc.LocalTensor(asc.int16, asc.TPosition.VECCALC, 4 * n * 4, 8)
    h.set_addr_with_offset(t, 2)
    gi.set_value(6, h.get_phy_addr())
    gi.set_value(7, h.get_size())
    t.set_user_tag(7)
    q.enque(t)
    w = q.deque(asc.float32)
    gi.set_value(8, w.get_user_tag())
    gi.set_value(9, u.get_user_tag())
    w.set_user_tag()
    gi.set_value(10, t.get_user_tag())
    v = asc.LocalTensor(asc.float32, asc.TPosition.VECOUT, 2 * n * 4, n)
    asc.duplicate(v, 0.0, n)
    asc.pipe_barrier(asc.PipeID.PIPE_ALL)
    asc.data_copy(v, u, n - 64)
    asc.pipe_barrier(asc.PipeID.PIPE_ALL)
    asc.data_copy(gy, v, n)
    q.free_tensor(w)


def test_local_tensor_setters():
    x = np.arange(N, dtype=np.float32)
    for kernel in modes(local_kernel):
        y = np.full(N, -1, np.float32)
        info = np.full(16, -1, np.int64)
        kernel[1](x, y, info, N)
        assert info[:11].tolist() == [N, 64, 128, 0, 64 * 4, N - 64, 2 * 4, (N - 2) * 2, 7, 0,
                                      0]
        np.testing.assert_array_equal(y, np.concatenate([x[64:], np.zeros(64, np.float32)]))


@jit
def setter_error_kernel(case: asc.ConstExpr[int]):
    t = asc.LocalTensor(asc.float32, asc.TPosition.VECIN, 0, 64)
    if case == 0:
        t.set_size(-1)
    elif case == 1:
        t.set_buffer_len(6)
    elif case == 2:
        t.set_size(1 << 20)
    elif case == 3:
        u = asc.LocalTensor(asc.float32, asc.TPosition.VECIN, 256, 64)
        u.set_addr_with_offset(t, 65)
    else:
        for i in range(65):
            s = asc.LocalTensor(asc.float32, asc.TPosition.VECIN, 256 + i * 32, 8)
            s.set_user_tag(i)


@pytest.mark.parametrize("case,message", [
    (0, "set_size: negative length -1"),
    (1, "set_buffer_len: 6 bytes are not whole 4-byte elements"),
    (2, "fall outside the 196608-byte Unified Buffer"),
    (3, "set_addr_with_offset: offset 65 is outside the source tensor's 64 elements"),
    (4, "set_user_tag: more than 64 tagged buffers"),
])
def test_setter_errors_name_the_line(case, message):
    for kernel in modes(setter_error_kernel):
        with pytest.raises(asc.KernelError, match=message) as info:
            kernel[1](case)
            asc.synchronize()
        assert "test_api_tensor_meta.py" in str(info.value)


@jit
def shape_kernel(x: asc.GlobalAddress, y: asc.GlobalAddress, rows: int,
                 n: asc.ConstExpr[int]):
    """Shape info set on tensors and read back; get_shape_size of compile-time
    and run-time dims; GlobalTensor.get_phy_addr as a new GlobalTensor's
    address (y[:n-8] = x[8:]); set_l2_cache_hint changes nothing."""
    gx = asc.GlobalTensor()
    gx.set_global_buffer(x, n)
    gx.set_l2_cache_hint()
    gx.set_l2_cache_hint(asc.CacheMode.CACHE_MODE_DISABLE, rw_mode=asc.CacheRwMode.READ)
    gx.set_shape_info(asc.ShapeInfo([2, n // 2], [2, n // 2], asc.DataFormat.ND))
    info = gx.get_shape_info()
    g2 = asc.GlobalTensor()
    g2.set_global_buffer(gx.get_phy_addr(8), n - 8)
    gy = asc.GlobalTensor()
    gy.set_global_buffer(y, n)
    t = asc.LocalTensor(asc.float32, asc.TPosition.VECIN, 0, n)
    t.set_shape_info(asc.ShapeInfo(shape=[rows, 4, 2]))
    asc.duplicate(t, 0.0, n)
    asc.pipe_barrier(asc.PipeID.PIPE_ALL)
    asc.data_copy(t, g2, n - 8)
    asc.pipe_barrier(asc.PipeID.PIPE_ALL)
    t.set_value(n - 2, asc.get_shape_size(info))
    t.set_value(n - 1, asc.get_shape_size(t.get_shape_info()))
    asc.pipe_barrier(asc.PipeID.PIPE_ALL)
    asc.data_copy(gy, t, n)


def test_shape_info_phy_addr_and_l2_hint():
    x = np.arange(N, dtype=np.float32)
    for kernel in modes(shape_kernel):
        y = np.zeros(N, np.float32)
        kernel[1](x, y, 5, N)
        want = np.zeros(N, np.float32)
        want[:N - 8] = x[8:]
        want[N - 2:] = [N, 5 * 8]
        np.testing.assert_array_equal(y, want)
    assert "gx.SetShapeInfo" not in shape_kernel.ascendc(x, x, 5, N)  # compile-time only


@jit
def meta_compile_error_kernel(x: asc.GlobalAddress, case: asc.ConstExpr[int]):
    g = asc.GlobalTensor()
    g.set_global_buffer(x, 8)
    t = asc.LocalTensor(asc.float32, asc.TPosition.VECIN, 0, 8)
    if case == 0:
        g.set_shape_info(7)
    elif case == 1:
        g.set_l2_cache_hint(asc.CacheMode.CACHE_MODE_DISABLE, 7)
    elif case == 2:
        g.set_l2_cache_hint(asc.TPosition.VECIN)
    elif case == 3:
        t.set_shape_info(asc.DataCopyParams())
    elif case == 4:
        n = asc.get_shape_size(5)
    elif case == 5:
        t.set_addr_with_offset(g, 0)
    elif case == 6:
        asc.set_pad_value(1.0, asc.TPosition.A1)
    else:
        t.set_size(1.5)


@pytest.mark.parametrize("case,message", [
    (0, "GlobalTensor.set_shape_info shape_info must be a pyasc.ShapeInfo"),
    (1, "set_l2_cache_hint: rw_mode must be a pyasc.CacheRwMode member"),
    (2, "set_l2_cache_hint: mode must be a pyasc.CacheMode member"),
    (3, "shape_info must be a pyasc.ShapeInfo"),
    (4, "get_shape_size shape_info must be a pyasc.ShapeInfo"),
    (5, "set_addr_with_offset src must be a LocalTensor"),
    (6, "set_pad_value: pos must be TPosition.VECIN, TPosition.VECOUT"),
    (7, "set_size size must be an integer"),
])
def test_compile_errors_name_the_line(case, message):
    with pytest.raises(asc.CompileError, match=message) as info:
        meta_compile_error_kernel[1](np.zeros(8, np.float32), case)
    assert "test_api_tensor_meta.py" in str(info.value)


@jit
def allocator_kernel(x: asc.GlobalAddress, y: asc.GlobalAddress, info: asc.GlobalAddress,
                     m: int, n: asc.ConstExpr[int]):
    """Tensors from a LocalMemAllocator: consecutive 32-byte aligned
    addresses (info), and y = x + 2 through them."""
    gi = asc.GlobalTensor()
    gi.set_global_buffer(info, 8)
    gx = asc.GlobalTensor()
    gx.set_global_buffer(x, n)
    gy = asc.GlobalTensor()
    gy.set_global_buffer(y, n)
    allocator = asc.LocalMemAllocator()
    gi.set_value(0, allocator.get_cur_addr())
    a = allocator.alloc(asc.TPosition.VECIN, asc.float32, n)
    odd = allocator.alloc(asc.TPosition.VECCALC, asc.int8, 3)
    gi.set_value(1, allocator.get_cur_addr())
    b = allocator.alloc(asc.TPosition.VECOUT, asc.float32, m)
    gi.set_value(2, b.get_phy_addr())
    gi.set_value(3, allocator.get_cur_addr())
    gi.set_value(4, odd.get_phy_addr())
    asc.data_copy(a, gx, n)
    asc.set_flag(asc.HardEvent.MTE2_V, 0)
    asc.wait_flag(asc.HardEvent.MTE2_V, 0)
    asc.adds(b, a, 2.0, n)
    asc.set_flag(asc.HardEvent.V_MTE3, 0)
    asc.wait_flag(asc.HardEvent.V_MTE3, 0)
    asc.data_copy(gy, b, n)


def test_local_mem_allocator():
    x = np.arange(N, dtype=np.float32)
    for kernel in modes(allocator_kernel):
        y = np.zeros(N, np.float32)
        info = np.full(8, -1, np.int64)
        kernel[1](x, y, info, N + 3, N)
        np.testing.assert_array_equal(y, x + 2)
        end_b = N * 4 + 32 + ((N + 3) * 4 + 31) // 32 * 32
        assert info[:5].tolist() == [0, N * 4 + 32, N * 4 + 32, end_b, N * 4]


@jit
def allocator_error_kernel(x: asc.GlobalAddress, case: asc.ConstExpr[int]):
    allocator = asc.LocalMemAllocator()
    if case == 1:
        t = allocator.alloc(asc.TPosition.A1, asc.float32, 8)
    else:
        t = allocator.alloc(asc.TPosition.VECIN, asc.float32, -8)


@jit
def allocator_pipe_kernel(x: asc.GlobalAddress):
    pipe = asc.TPipe()
    allocator = asc.LocalMemAllocator()


@pytest.mark.parametrize("case,message", [
    (0, "LocalMemAllocator cannot be mixed with a TPipe"),
    (1, "pos must be in the Unified Buffer"),
    (2, "tile_size must not be negative"),
])
def test_allocator_errors(case, message):
    with pytest.raises(asc.CompileError, match=message) as info:
        if case == 0:
            allocator_pipe_kernel[1](np.zeros(8, np.float32))
        else:
            allocator_error_kernel[1](np.zeros(8, np.float32), case)
    assert "test_api_tensor_meta.py" in str(info.value)


@jit
def pad_kernel(x: asc.GlobalAddress, y: asc.GlobalAddress, set_pad: asc.ConstExpr[int]):
    """data_copy_pad of rows of 5 float32 (20 bytes) into 32-byte UB rows;
    set_pad_value fills the 3 elements after each row."""
    gx = asc.GlobalTensor()
    gx.set_global_buffer(x, 20)
    gy = asc.GlobalTensor()
    gy.set_global_buffer(y, 32)
    t = asc.LocalTensor(asc.float32, asc.TPosition.VECIN, 0, 32)
    asc.duplicate(t, -1.0, 32)
    asc.pipe_barrier(asc.PipeID.PIPE_ALL)
    if set_pad == 1:
        asc.set_pad_value(9.5)
    elif set_pad == 2:
        asc.set_pad_value(7, asc.TPosition.VECIN)
    asc.data_copy_pad(t, gx, asc.DataCopyExtParams(4, 20, 0, 0, 0),
                      asc.DataCopyPadExtParams(asc.float32, False, 0, 0, 0))
    asc.pipe_barrier(asc.PipeID.PIPE_ALL)
    asc.data_copy(gy, t, 32)


@pytest.mark.parametrize("set_pad,fill", [(0, -1.0), (1, 9.5), (2, 7.0)])
def test_set_pad_value(set_pad, fill):
    x = np.arange(20, dtype=np.float32)
    for kernel in modes(pad_kernel):
        y = np.zeros(32, np.float32)
        kernel[1](x, y, set_pad)
        want = np.full((4, 8), fill, np.float32)
        want[:, :5] = x.reshape(4, 5)
        np.testing.assert_array_equal(y, want.reshape(-1))


def test_ascendc_forms():
    x = np.zeros(N, np.float32)
    src = local_kernel.ascendc(x, x, np.zeros(16, np.int64), N)
    for text in ("t_.SetSize(64);", "t_.SetBufferLen(512);", "t_.SetAddrWithOffset(t, 64);",
                 "t.SetUserTag(7);", "w.GetUserTag()"):
        assert text in src, text
    assert_valid_cpp(src)
    src = shape_kernel.ascendc(x, x, 5, N)
    assert "gx.GetPhyAddr(8)" in src
    assert_valid_cpp(src)
    assert "AscendC::SetPadValue(9.5" in pad_kernel.ascendc(np.zeros(20, np.float32),
                                                            np.zeros(32, np.float32), 1)
    assert_valid_cpp(pad_kernel.ascendc(np.zeros(20, np.float32), np.zeros(32, np.float32), 2))
    assert_valid_cpp(allocator_kernel.ascendc(x, x, np.zeros(8, np.int64), 4, N))


@jit
def loop_setter_kernel(y: asc.GlobalAddress):
    """A setter inside a loop and a branch changes the tensor after them too."""
    gy = asc.GlobalTensor()
    gy.set_global_buffer(y, 8)
    t = asc.LocalTensor(asc.float32, asc.TPosition.VECIN, 0, 64)
    for i in range(3):
        t.set_size(8 * (i + 1))
        gy.set_value(i, t.get_size())
    if gy.get_value(0) > 0:
        t.set_buffer_len(20)
    gy.set_value(5, t.get_size())


def test_setters_in_loops_and_branches():
    for kernel in modes(loop_setter_kernel):
        y = np.zeros(8, np.float32)
        kernel[1](y)
        np.testing.assert_array_equal(y[:6], [8, 16, 24, 0, 0, 5])
    assert_valid_cpp(loop_setter_kernel.ascendc(np.zeros(8, np.float32)))


@asc.jit(cache_dir=CACHE, verify_sync=True)
def sync_through_setter_kernel(x: asc.GlobalAddress, y: asc.GlobalAddress):
    gx = asc.GlobalTensor()
    gx.set_global_buffer(x, 64)
    gy = asc.GlobalTensor()
    gy.set_global_buffer(y, 64)
    t = asc.LocalTensor(asc.float32, asc.TPosition.VECIN, 0, 64)
    u = asc.LocalTensor(asc.float32, asc.TPosition.VECOUT, 1024, 64)
    asc.data_copy(t, gx, 64)
    u.set_addr_with_offset(t, 0)
    u.set_size(64)
    asc.adds(u, u, 1.0, 64)  # no MTE2 -> V flag: the static check follows u to t
    asc.data_copy(gy, u, 64)


def test_static_sync_check_follows_setters():
    with pytest.raises(asc.CompileError, match="adds: missing synchronisation "
                                               "\\(read-after-write\\).*data_copy wrote on pipe "
                                               "MTE2"):
        sync_through_setter_kernel[1](np.zeros(64, np.float32), np.zeros(64, np.float32))
