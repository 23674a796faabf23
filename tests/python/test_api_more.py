"""transpose, gather, scatter and brcb against NumPy models of their
hardware semantics, in plain and checked mode, with their errors, and
their Ascend C forms."""

from __future__ import annotations

import numpy as np
import pytest

import pyasc as asc
from kernel_api_helpers import jit, launch, local, modes, store


N = 2048  # elements of each UB operand


# --- transpose -------------------------------------------------------------------------------

@jit
def transpose_kernel(x: asc.GlobalAddress, y: asc.GlobalAddress, in_place: asc.ConstExpr[int]):
    a = local(x, 0, 256)
    if in_place == 1:
        asc.transpose(a, a)
        store(y, a, 256)
    else:
        b = local(y, 1024, 256)
        asc.transpose(b, a)
        store(y, b, 256)


@pytest.mark.parametrize("dtype", [np.float16, np.int16])
@pytest.mark.parametrize("in_place", [0, 1])
def test_transpose_16x16(dtype, in_place):
    x = np.arange(256).astype(dtype) * dtype(3)
    for kernel in modes(transpose_kernel):
        y = np.zeros(256, dtype)
        launch(kernel, x, y, in_place)
        np.testing.assert_array_equal(y, x.reshape(16, 16).T.reshape(-1))


def test_transpose_rejects_4_byte_elements_and_a_bad_ext_form():
    with pytest.raises(asc.CompileError, match="transpose does not support float32"):
        launch(transpose_kernel, np.zeros(256, np.float32), np.zeros(256, np.float32), 0)

    @jit
    def ext(x: asc.GlobalAddress):
        a = local(x, 0, 256)
        asc.transpose(a, a, a, 0)

    # the TransposeParamsExt form: tests/python/test_layout.py
    with pytest.raises(asc.CompileError, match="params must be a pyasc.TransposeParamsExt"):
        launch(ext, np.zeros(256, np.float16))


# --- gather / scatter -------------------------------------------------------------------------

@jit
def gather_kernel(x: asc.GlobalAddress, off: asc.GlobalAddress, y: asc.GlobalAddress, base: int,
                  count: int, scatter: asc.ConstExpr[int]):
    src = local(x, 0, N)
    o = local(off, 4 * N, N)
    dst = local(y, 8 * N, N)
    if scatter == 1:
        asc.scatter(dst, src, o, base, count)
    else:
        asc.gather(dst, src, o, base, count)
    store(y, dst, N)


def gather_model(x, off, y, base, count):
    y = y.copy()
    idx = (base + off[:count].astype(np.int64)) // x.itemsize
    y[:count] = x[idx]
    return y


def scatter_model(x, off, y, base, count):
    y = y.copy()
    idx = (base + off[:count].astype(np.int64)) // x.itemsize
    y[idx] = x[:count]
    return y


@pytest.mark.parametrize("dtype", [np.float32, np.float16, np.int32, np.int16])
@pytest.mark.parametrize("count", [0, 1, 100, N])
def test_gather_and_scatter_count_forms(dtype, count):
    g = np.random.default_rng(count)
    x = g.integers(-1000, 1000, N).astype(dtype)
    size = np.dtype(dtype).itemsize
    base = 8 * size
    # gather: any element after base, repeats allowed; scatter: a permutation
    gather_off = (g.integers(0, N - 8, N) * size).astype(np.int32)
    perm = g.permutation(N - 8)
    scatter_off = np.zeros(N, np.int32)
    scatter_off[:N - 8] = perm * size
    for kernel in modes(gather_kernel):
        y0 = g.integers(-5, 5, N).astype(dtype)
        y = y0.copy()
        launch(kernel, x, gather_off, y, base, count, 0)
        np.testing.assert_array_equal(y, gather_model(x, gather_off, y0, base, count))
        c = min(count, N - 8)
        y = y0.copy()
        launch(kernel, x, scatter_off, y, base, c, 1)
        np.testing.assert_array_equal(y, scatter_model(x, scatter_off, y0, base, c))


@pytest.mark.parametrize("scatter", [0, 1])
@pytest.mark.parametrize("offset, base, count, message", [
    (6, 0, 1, "not an element of the 2048-element"),       # misaligned for float32
    (4 * N, 0, 1, "not an element of the 2048-element"),   # past the end
    (0, 4 * N - 4, 2, None),                                # base + 0 is the last element: ok
    (4, 4 * N - 4, 1, "not an element"),                    # base + 4 is past it
    (0, 2, 1, "base address 2 must be a multiple"),
    (0, -4, 1, "base address -4"),
    (0, 0, -1, "count -1 is outside"),
])
def test_gather_and_scatter_errors_name_the_line(scatter, offset, base, count, message):
    x = np.arange(N, dtype=np.float32)
    off = np.full(N, offset, np.int32)
    off[1:] = 0
    y = np.zeros(N, np.float32)
    if message is None:
        launch(gather_kernel, x, off, y, base, count, scatter)
        return
    with pytest.raises(asc.KernelError, match=message) as info:
        launch(gather_kernel, x, off, y, base, count, scatter)
    assert "test_api_more.py" in str(info.value)


def test_gather_needs_int32_offsets():
    x = np.zeros(N, np.float32)
    with pytest.raises(asc.CompileError, match="offset tensor"):
        launch(gather_kernel, x, np.zeros(N, np.float32), x.copy(), 0, 1, 0)


# --- brcb -------------------------------------------------------------------------------------

@jit
def brcb_kernel(x: asc.GlobalAddress, y: asc.GlobalAddress, repeat: int, blk: int, rep: int):
    src = local(x, 0, N)
    dst = local(y, 8 * N, 8 * N)
    asc.brcb(dst, src, repeat, asc.BrcbRepeatParams(blk, rep))
    store(y, dst, 8 * N)


def brcb_model(x, y, repeat, blk, rep):
    y = y.copy()
    per = 32 // x.itemsize
    for r in range(repeat):
        for j in range(8):
            at = (r * rep + j * blk) * per
            y[at:at + per] = x[r * 8 + j]
    return y


@pytest.mark.parametrize("dtype", [np.float32, np.float16, np.int16, np.int32])
@pytest.mark.parametrize("repeat, blk, rep", [(0, 1, 8), (1, 1, 8), (3, 1, 8), (4, 2, 16),
                                              (5, 0, 1), (2, 1, 0), (255, 1, 8)])
def test_brcb(dtype, repeat, blk, rep):
    per = 32 // np.dtype(dtype).itemsize
    if ((repeat - 1) * rep + 7 * blk + 1) * per > 8 * N or 8 * repeat > N:
        repeat = min(repeat, (8 * N // per - 7 * blk - 1) // max(rep, 1) + 1, N // 8)
    x = np.arange(N).astype(dtype)
    for kernel in modes(brcb_kernel):
        y0 = np.full(8 * N, -1, dtype)
        y = y0.copy()
        launch(kernel, x, y, repeat, blk, rep)
        np.testing.assert_array_equal(y, brcb_model(x, y0, repeat, blk, rep))


@pytest.mark.parametrize("repeat, blk, rep, message", [
    (256, 1, 8, "repeat_time 256 is outside"), (-1, 1, 8, "repeat_time -1"),
    (1, -1, 8, "strides must be in"), (200, 1, 200, "brcb"),  # past the UB
])
def test_brcb_errors(repeat, blk, rep, message):
    x = np.zeros(N, np.float32)
    with pytest.raises(asc.KernelError, match=message):
        launch(brcb_kernel, x, np.zeros(8 * N, np.float32), repeat, blk, rep)


def test_brcb_needs_brcb_repeat_params():
    @jit
    def bad(x: asc.GlobalAddress):
        a = local(x, 0, 64)
        asc.brcb(a, a, 1, asc.CopyRepeatParams(1, 1, 8, 8))

    with pytest.raises(asc.CompileError, match="must be a BrcbRepeatParams"):
        launch(bad, np.zeros(64, np.float32))


# --- Ascend C ---------------------------------------------------------------------------------

def test_ascendc_forms():
    x16 = np.zeros(256, np.float16)
    src = transpose_kernel.ascendc(x16, x16.copy(), 0)
    assert "AscendC::Transpose(" in src
    x = np.zeros(N, np.float32)
    src = gather_kernel.ascendc(x, np.zeros(N, np.int32), x.copy(), 0, 8, 0)
    assert "AscendC::Gather(" in src and ".ReinterpretCast<uint32_t>()" in src
    src = gather_kernel.ascendc(x, np.zeros(N, np.int32), x.copy(), 0, 8, 1)
    assert "AscendC::Scatter(" in src
    src = brcb_kernel.ascendc(x, np.zeros(8 * N, np.float32), 1, 1, 8)
    assert "AscendC::Brcb(" in src and "AscendC::BrcbRepeatParams(" in src


# --- TPipe.init, event ids, LocalTensor.get_phy_addr ------------------------------------------

@jit
def events_kernel(y: asc.GlobalAddress, extra_release: int, allocs: int):
    pipe = asc.TPipe()
    pipe.init()
    g = asc.GlobalTensor()
    g.set_global_buffer(y, 16)
    a = pipe.alloc_event_id(asc.HardEvent.MTE2_V)
    b = pipe.alloc_event_id(asc.HardEvent.MTE2_V)
    c = pipe.alloc_event_id()  # V_S: its own ids
    f = pipe.fetch_event_id(asc.HardEvent.MTE2_V)
    g.set_value(0, a)
    g.set_value(1, b)
    g.set_value(2, c)
    g.set_value(3, f)
    pipe.release_event_id(a, asc.HardEvent.MTE2_V)
    g.set_value(4, pipe.fetch_event_id(asc.HardEvent.MTE2_V))  # a is free again
    g.set_value(5, pipe.alloc_event_id(event=asc.HardEvent.MTE2_V))
    asc.set_flag(asc.HardEvent.MTE2_V, b)
    asc.wait_flag(asc.HardEvent.MTE2_V, b)
    pipe.release_event_id(b, asc.HardEvent.MTE2_V)
    if extra_release == 1:
        pipe.release_event_id(b, asc.HardEvent.MTE2_V)
    for _ in range(allocs):
        pipe.alloc_event_id(asc.HardEvent.V_MTE3)
    t = asc.LocalTensor(asc.float32, asc.TPosition.VECCALC, 1024, 64)
    g.set_value(6, t.get_phy_addr())
    g.set_value(7, t.get_phy_addr(5))
    g.set_value(8, t[8].get_phy_addr(offset=2))


def test_event_ids_and_phy_addr():
    for kernel in modes(events_kernel):
        y = np.full(16, -1, np.int64)
        launch(kernel, y, 0, 8)
        np.testing.assert_array_equal(y[:9], [0, 1, 0, 2, 0, 0, 1024, 1044, 1064])


def test_event_id_errors_name_the_line():
    with pytest.raises(asc.KernelError, match="release_event_id: event id 1 is not allocated"):
        launch(events_kernel, np.zeros(16, np.int64), 1, 0)
    with pytest.raises(asc.KernelError, match="all 8 event ids of this HardEvent are allocated") \
            as info:
        launch(events_kernel, np.zeros(16, np.int64), 0, 9)
    assert "test_api_more.py" in str(info.value)


def test_event_id_needs_a_hard_event():
    @jit
    def bad(y: asc.GlobalAddress, ev: int, which: asc.ConstExpr[int]):
        pipe = asc.TPipe()
        if which == 0:
            pipe.alloc_event_id(ev)  # a run-time value
        else:
            pipe.release_event_id(0, 99)

    with pytest.raises(asc.CompileError, match="must be a pyasc.HardEvent member"):
        launch(bad, np.zeros(4, np.int64), 4, 0)
    with pytest.raises(asc.CompileError, match="99 is not a pyasc.HardEvent value"):
        launch(bad, np.zeros(4, np.int64), 4, 1)


def test_get_phy_addr_out_of_the_ub_is_an_error():
    @jit
    def far(y: asc.GlobalAddress, off: int):
        g = asc.GlobalTensor()
        g.set_global_buffer(y, 1)
        t = asc.LocalTensor(asc.float32, asc.TPosition.VECCALC, 0, 64)
        g.set_value(0, t.get_phy_addr(off))

    with pytest.raises(asc.KernelError, match="get_phy_addr: offset -1 is outside"):
        launch(far, np.zeros(1, np.int64), -1)
    with pytest.raises(asc.KernelError, match="outside the Unified Buffer"):
        launch(far, np.zeros(1, np.int64), 1 << 62)


def test_pipe_and_phy_addr_ascendc_forms():
    src = events_kernel.ascendc(np.zeros(16, np.int64), 0, 8)
    for form in ("pipe.Init()", "AllocEventID<AscendC::HardEvent::MTE2_V>()",
                 "FetchEventID<AscendC::HardEvent::MTE2_V>()",
                 "ReleaseEventID<AscendC::HardEvent::MTE2_V>(", ".GetPhyAddr(0)",
                 ".GetPhyAddr(5)"):
        assert form in src, form


# --- add_relu, sub_relu, fused_mul_add_relu ---------------------------------------------------

@jit
def relu_binary_kernel(x: asc.GlobalAddress, y: asc.GlobalAddress, z: asc.GlobalAddress, n: int,
                       which: asc.ConstExpr[int], mask_form: asc.ConstExpr[int]):
    a = local(x, 0, N)
    b = local(y, 4 * N, N)
    c = local(z, 8 * N, N)
    ops = (asc.add_relu, asc.sub_relu, asc.fused_mul_add_relu)
    if mask_form == 1:  # 64 float32 / 128 float16 elements per repeat, contiguous
        ops[which](c, a, b, 256 // x.dtype.sizeof(), n, asc.BinaryRepeatParams(1, 1, 1, 8, 8, 8))
    else:
        ops[which](c, a, b, n)
    store(z, c, N)


def relu_binary_model(which, x, y, d, n):
    f = np.float32
    with np.errstate(all="ignore"):
        r = [x.astype(f) + y.astype(f), x.astype(f) - y.astype(f),
             x.astype(f) * d.astype(f) + y.astype(f)][which]
    out = d.copy()
    out[:n] = np.maximum(r[:n], f(0)).astype(x.dtype)
    return out


@pytest.mark.parametrize("dtype", [np.float32, np.float16])
@pytest.mark.parametrize("which", [0, 1, 2])
@pytest.mark.parametrize("mask_form", [0, 1])
def test_relu_binary_ops(dtype, which, mask_form):
    g = np.random.default_rng(which)
    x, y, d = (g.uniform(-4, 4, N).astype(dtype) for _ in range(3))
    per = 256 // np.dtype(dtype).itemsize
    for kernel in modes(relu_binary_kernel):
        for n in ((0, 3, 16) if mask_form else (0, 1, 1000, N)):
            z = d.copy()
            launch(kernel, x, y, z, n, which, mask_form)
            expected = relu_binary_model(which, x, y, d, n * per if mask_form else n)
            np.testing.assert_array_equal(z, expected)


def test_relu_binary_ops_reject_integers():
    # add_relu takes int16 as well (Atlas A2; test_upstream_forms_basic), not int32.
    x = np.zeros(N, np.int32)
    with pytest.raises(asc.CompileError, match="add_relu does not support int32"):
        launch(relu_binary_kernel, x, x.copy(), x.copy(), 1, 0, 0)
    x = np.zeros(N, np.int16)
    with pytest.raises(asc.CompileError, match="fused_mul_add_relu does not support int16"):
        launch(relu_binary_kernel, x, x.copy(), x.copy(), 1, 2, 0)
