"""Forms of the basic APIs that PyAsc's front end accepts, run on the
simulator against NumPy models or the documented Ascend C semantics: the
register forms of compare and select with their trailing arguments by
keyword, select's tensor-scalar register form (the scalar from CMPMASK),
add_relu on int16, tensor element access t(i), get_shape_info's default,
pipe_barrier with pipe_t's numbers, Nz2NdParamsFull built with PyAsc's
extra handle argument, and the count form of data_copy GM<->UB rounding a
count down to whole 32-byte blocks as the MTE does (checked mode reports
it)."""

from __future__ import annotations

import numpy as np
import pytest

import pyasc as asc
from cube_helpers import cube_queues, gm_abc_sized, load_tile_32
from kernel_api_helpers import jit, launch, local, modes, store
from test_ascendc import assert_valid_cpp, gxx
from test_layout import bilinear_model, five_hd_model


# --- compare / select register forms, trailing arguments by keyword ----------------------

@jit
def cmp_kw_kernel(a: asc.GlobalAddress, b: asc.GlobalAddress, y: asc.GlobalAddress,
                  m: asc.GlobalAddress, list_mask: asc.ConstExpr[bool]):
    s0 = local(a, 0, 256)
    s1 = local(b, 1024, 256)
    bits = asc.LocalTensor(asc.int32, asc.TPosition.VECCALC, 2048, 32)
    asc.duplicate(bits, 0, 32)
    dst = local(y, 4096, 256)
    params = asc.BinaryRepeatParams(1, 1, 1, 8, 8, 8)
    if list_mask:
        asc.compare(s0, s1, cmp_mode=asc.CMPMODE.LT, mask=[2**64 - 1, 2**64 - 1],
                    repeat_params=params)
    else:
        asc.compare(s0, s1, cmp_mode=asc.CMPMODE.LT, mask=128, repeat_params=params)
    asc.get_cmp_mask(bits)
    asc.select(dst, s0, s1, repeat_times=2, repeat_params=params,
               sel_mode=asc.SELMODE.VSEL_CMPMASK_SPR)
    store(m, bits, 32)
    store(y, dst, 256)


@pytest.mark.parametrize("list_mask", [False, True])
def test_compare_and_select_register_forms_by_keyword(list_mask):
    rng = np.random.default_rng(3)
    a = rng.integers(-4, 4, 256).astype(np.float16)
    b = rng.integers(-4, 4, 256).astype(np.float16)
    want_bits = a[:128] < b[:128]  # one repeat of 128 float16 elements
    for kernel in modes(cmp_kw_kernel):
        y = np.zeros(256, np.float16)
        m = np.zeros(32, np.int32)
        launch(kernel, a, b, y, m, list_mask)
        got = np.unpackbits(m[:4].view(np.uint8), bitorder="little").astype(bool)
        np.testing.assert_array_equal(got, want_bits)
        sel = np.concatenate([want_bits, want_bits])  # every repeat reads the same 128 bits
        np.testing.assert_array_equal(y, np.where(sel, a, b))


@jit
def sel_scalar_kernel(x: asc.GlobalAddress, s: asc.GlobalAddress, bm: asc.GlobalAddress,
                      y: asc.GlobalAddress, repeat: int):
    src = local(x, 0, 256)
    scalar = local(s, 1024, 16)
    bits = local(bm, 2048, 16)
    dst = local(y, 4096, 256)
    asc.set_cmp_mask(scalar)
    asc.select(dst, bits, src, repeat_times=repeat, repeat_params=asc.BinaryRepeatParams())
    store(y, dst, 256)


def test_select_tensor_scalar_register_form():
    """Select(dst, selMask, src0, repeatTime, repeatParams): the scalar is
    CMPMASK's first element; repeats consume sel_mask's bits in turn."""
    x = np.arange(1, 257, dtype=np.float32)
    s = np.zeros(16, np.float32)
    s[0] = -7.5
    rng = np.random.default_rng(5)
    bm = rng.integers(-2**31, 2**31, 16).astype(np.int32)
    bits = np.unpackbits(bm.view(np.uint8), bitorder="little").astype(bool)
    for kernel in modes(sel_scalar_kernel):
        y = np.full(256, 99.0, np.float32)
        launch(kernel, x, s, bm, y, 3)  # 3 repeats of 64 float32 elements
        want = np.where(bits[:192], x[:192], np.float32(-7.5))
        np.testing.assert_array_equal(y[:192], want)
        np.testing.assert_array_equal(y[192:], np.full(64, 99.0, np.float32))
    source = sel_scalar_kernel.ascendc(x, s, bm, np.zeros(256, np.float32), 3)
    assert "AscendC::Select(" in source and "AscendC::SetCmpMask(" in source
    assert_valid_cpp(source)


def test_select_register_form_errors():
    @jit
    def bad_dtype(x: asc.GlobalAddress):
        a = local(x, 0, 256)
        asc.select(a, a, a, repeat_times=1, repeat_params=asc.BinaryRepeatParams())

    with pytest.raises(asc.CompileError, match="select.reg_scalar does not support a int32 dst"):
        launch(bad_dtype, np.zeros(256, np.int32))


# --- add_relu on int16 -----------------------------------------------------------------------

@jit
def add_relu_kernel(a: asc.GlobalAddress, b: asc.GlobalAddress, y: asc.GlobalAddress,
                    form: asc.ConstExpr[int]):
    s0 = local(a, 0, 256)
    s1 = local(b, 1024, 256)
    dst = local(y, 2048, 256)
    if form == 0:
        asc.add_relu(dst, s0, s1, count=200)
    else:
        params = asc.BinaryRepeatParams(1, 1, 1, 8, 8, 8)
        if form == 1:
            asc.add_relu(dst, s0, s1, mask=100, repeat_times=2, repeat_params=params)
        else:
            asc.add_relu(dst, s0, s1, mask=[2**64 - 1, 0], repeat_times=2, repeat_params=params)
    store(y, dst, 256)


def _wrap16(v):
    return ((v + 2**15) % 2**16 - 2**15).astype(np.int16)


@pytest.mark.parametrize("form", [0, 1, 2])
def test_add_relu_int16(form):
    rng = np.random.default_rng(form)
    a = rng.integers(-2**15, 2**15, 256).astype(np.int16)
    b = rng.integers(-2**15, 2**15, 256).astype(np.int16)
    a[:4] = [30000, -30000, 5, 0]
    b[:4] = [30000, -30000, -5, 0]
    # the int16 sum wraps (as add's does), then relu
    full = np.maximum(_wrap16(a.astype(np.int64) + b.astype(np.int64)), 0).astype(np.int16)
    if form == 0:
        on = np.arange(256) < 200
    elif form == 1:
        on = np.arange(256) % 128 < 100
    else:
        on = np.arange(256) % 128 < 64
    for kernel in modes(add_relu_kernel):
        y = np.full(256, 1234, np.int16)
        launch(kernel, a, b, y, form)
        np.testing.assert_array_equal(y, np.where(on, full, np.int16(1234)))


# --- t(i), get_shape_info's default, pipe_barrier(int), Nz2NdParamsFull ---------------------

@jit
def access_kernel(x: asc.GlobalAddress, y: asc.GlobalAddress, i: int):
    gx = asc.GlobalTensor()
    gx.set_global_buffer(x, 64)
    gy = asc.GlobalTensor()
    gy.set_global_buffer(y, 8)
    t = local(x, 0, 64)
    asc.pipe_barrier(6)  # PIPE_ALL by its pipe_t number
    gy.set_value(0, gx(i))
    gy.set_value(1, t(i + 1))
    gy.set_value(2, gx(index=3))
    gy.set_value(3, asc.get_shape_size(gx.get_shape_info()))
    gy.set_value(4, asc.get_shape_size(t.get_shape_info()))
    p = asc.Nz2NdParamsFull(1, 1, 1, 1, 1, 1, 1, 1)
    q = asc.Nz2NdParamsFull(1, 1, 1, 1, 1, 1, 1)


def test_element_access_shape_default_and_pipe_number():
    x = np.arange(64, dtype=np.float32) * 1.5
    for kernel in modes(access_kernel):
        y = np.full(8, -1.0, np.float32)
        launch(kernel, x, y, 10)
        np.testing.assert_array_equal(y[:5], [x[10], x[11], x[3], 0.0, 0.0])
    source = access_kernel.ascendc(x, np.zeros(8, np.float32), 10)
    assert "PipeBarrier<PIPE_ALL>()" in source
    assert_valid_cpp(source)


def test_forms_errors():
    @jit
    def bad_pipe():
        asc.pipe_barrier(11)

    with pytest.raises(asc.CompileError, match=r"pipe_barrier: pipe must be a pyasc.PipeID "
                                               r"member \(or its value 0..10\), not int 11"):
        launch(bad_pipe)

    @jit
    def two_indices(x: asc.GlobalAddress):
        t = local(x, 0, 64)
        v = t(1, 2)

    with pytest.raises(asc.CompileError, match=r"\(index\) takes one element index"):
        launch(two_indices, np.zeros(64, np.float32))

    @jit
    def handle_struct(x: asc.GlobalAddress):
        g = asc.GlobalTensor()
        g.set_global_buffer(x, 64)
        t = local(x, 0, 64)
        asc.data_copy(g, t, intri_params=asc.Nz2NdParamsFull(1, 2, 16, 0, 2, 16, 1, 1))

    with pytest.raises(asc.CompileError, match="built with an 8th argument"):
        launch(handle_struct, np.zeros(64, np.float16))


# --- gather / scatter mask forms, gatherb on uint16 -------------------------------------------

@jit
def gather_l0_kernel(x: asc.GlobalAddress, o: asc.GlobalAddress, y: asc.GlobalAddress,
                     scatter: asc.ConstExpr[bool], list_mask: asc.ConstExpr[bool], mask: int,
                     repeat: int, stride: int):
    src = local(x, 0, 512)
    off = local(o, 4096, 512)
    dst = local(y, 8192, 512)
    if scatter:
        if list_mask:
            asc.scatter(dst, src, off, dst_base=64, mask=[mask, 0], repeat_times=repeat,
                        src_rep_stride=stride)
        else:
            asc.scatter(dst, src, off, dst_base=64, mask=mask, repeat_times=repeat,
                        src_rep_stride=stride)
    elif list_mask:
        asc.gather(dst, src, off, src_base=64, mask=[mask, 0], repeat_times=repeat,
                   dst_rep_stride=stride)
    else:
        asc.gather(dst, src, off, src_base=64, mask=mask, repeat_times=repeat,
                   dst_rep_stride=stride)
    store(y, dst, 512)


def gather_l0_model(x, off, y, scatter, on, repeat, stride):
    """Repeat r: 64 float32 elements of the dense operand at r * stride
    blocks, element i paired with offset[64 r + i] (bytes, after base 64)."""
    y = y.copy()
    for r in range(repeat):
        for i in range(64):
            if not on[i]:
                continue
            at = (64 + int(off[r * 64 + i])) // 4
            dense = r * stride * 8 + i
            if scatter:
                y[at] = x[dense]
            else:
                y[dense] = x[at]
    return y


@pytest.mark.parametrize("scatter", [False, True])
@pytest.mark.parametrize("list_mask, mask, repeat, stride", [
    (False, 64, 2, 8), (False, 10, 3, 16), (True, 0b1011 | (1 << 40), 2, 8)])
def test_gather_scatter_mask_forms(scatter, list_mask, mask, repeat, stride):
    rng = np.random.default_rng(repeat + stride)
    x = rng.standard_normal(512).astype(np.float32)
    # distinct targets for scatter (a permutation), any for gather
    perm = rng.permutation(400) if scatter else rng.integers(0, 400, 512)
    off = np.zeros(512, np.uint32)
    off[:len(perm)] = (perm * 4).astype(np.uint32)
    on = np.array([(mask >> i) & 1 for i in range(64)], bool) if list_mask else \
        np.arange(64) < mask
    for kernel in modes(gather_l0_kernel):
        y = np.full(512, 5.0, np.float32)
        launch(kernel, x, off, y, scatter, list_mask, mask, repeat, stride)
        want = gather_l0_model(x, off, np.full(512, 5.0, np.float32), scatter, on, repeat,
                               stride)
        np.testing.assert_array_equal(y, want)
    source = gather_l0_kernel.ascendc(x, off, np.zeros(512, np.float32), scatter, list_mask,
                                      mask, repeat, stride)
    assert ("AscendC::Scatter(" if scatter else "AscendC::Gather(") in source
    assert_valid_cpp(source)


def test_gather_offset_error():
    x = np.zeros(512, np.float32)
    off = np.zeros(512, np.uint32)
    off[3] = 4096  # past the 512-element src
    with pytest.raises(asc.KernelError, match=r"gather: offset\[3\] = 4096 .* is not an element"):
        launch(gather_l0_kernel, x, off, np.zeros(512, np.float32), False, False, 64, 1, 8)


@jit
def gatherb_u16_kernel(x: asc.GlobalAddress, o: asc.GlobalAddress, y: asc.GlobalAddress):
    src = local(x, 0, 256)
    off = local(o, 1024, 16)
    dst = local(y, 2048, 256)
    asc.gatherb(dst, src, off, repeat_times=2,
                repeat_params=asc.GatherRepeatParams(dst_blk_stride=1, dst_rep_stride=8))
    store(y, dst, 256)


def test_gatherb_uint16():
    """Gatherb on uint16_t (documented for Atlas A2): block j of repeat r is
    the 32 bytes at byte offset[8 r + j] of src."""
    x = np.arange(256, dtype=np.uint16) * 3
    blocks = np.random.default_rng(1).integers(0, 16, 16)
    off = (blocks * 32).astype(np.uint32)
    want = np.concatenate([x[b * 16:(b + 1) * 16] for b in blocks])
    for kernel in modes(gatherb_u16_kernel):
        y = np.zeros(256, np.uint16)
        launch(kernel, x, off, y)
        np.testing.assert_array_equal(y, want)


# --- cube operands at other positions (PyAsc compiles them) ---------------------------------

@jit
def mmad_ub_operands_kernel(a: asc.GlobalAddress, b: asc.GlobalAddress, c: asc.GlobalAddress,
                            through_ub: asc.ConstExpr[bool]):
    a_gm, b_gm, c_gm = gm_abc_sized(a, b, c, 1024)
    pipe = asc.TPipe()
    q_a1, q_b1, q_a2, q_b2, q_c = cube_queues(pipe, 2048, 2048, 2048, 2048, 4096)
    a2, b2 = load_tile_32(a_gm, b_gm, q_a1, q_b1, q_a2, q_b2)
    c1 = q_c.alloc_tensor(asc.float32)
    if through_ub:
        # UB tensors at byte 0: the MMAD takes their addresses in L0A / L0B
        fm = asc.LocalTensor(asc.float16, asc.TPosition.VECIN, 0, 1024)
        filt = asc.LocalTensor(asc.float16, asc.TPosition.VECIN, 0, 1024)
        asc.mmad(c1, fm, filt, asc.MmadParams(32, 32, 32))
    else:
        asc.mmad(c1, a2, b2, asc.MmadParams(32, 32, 32))
    asc.fixpipe(c_gm, c1, asc.FixpipeParamsV220(32, 32, 32, 32))


def test_mmad_operand_positions_are_a_run_time_matter():
    rng = np.random.default_rng(9)
    a = (rng.integers(-8, 9, (32, 32)) / 4).astype(np.float16)
    b = (rng.integers(-8, 9, (32, 32)) / 8).astype(np.float16)
    want = a.astype(np.float32) @ b.astype(np.float32)
    for through_ub in (False, True):
        c = np.zeros((32, 32), np.float32)
        launch(mmad_ub_operands_kernel, a, b, c, through_ub)
        np.testing.assert_array_equal(c, want)
    checked = modes(mmad_ub_only_kernel)[1]
    with pytest.raises(asc.KernelError, match=r"mmad: fm must be a LocalTensor in L0A"):
        launch(checked, np.zeros(16, np.float16))


@jit
def mmad_ub_only_kernel(x: asc.GlobalAddress):
    pipe = asc.TPipe()
    q_c = asc.TQue(asc.TPosition.CO1, 1)
    pipe.init_buffer(q_c, 1, 1024)
    c1 = q_c.alloc_tensor(asc.float32)
    t = asc.LocalTensor(asc.float16, asc.TPosition.VECIN, 0, 256)
    asc.mmad(c1, t, t, asc.MmadParams(16, 16, 16))


@jit
def np_scalar_kernel(y: asc.GlobalAddress):
    g = asc.GlobalTensor()
    g.set_global_buffer(y, 8)
    g.set_value(0, np.float16(2.2))
    g.set_value(1, np.float32(0.1))
    g.set_value(2, np.int8(-3))


def test_numpy_scalar_constructors_round_to_their_type():
    y = np.zeros(8, np.float64)
    launch(np_scalar_kernel, y)
    np.testing.assert_array_equal(y[:3], [float(np.float16(2.2)), float(np.float32(0.1)), -3.0])


# --- fixpipe: FixpipeConfig(layout), the cbuf_workspace form, src checked when it runs ------

@jit
def fixpipe_forms_kernel(a: asc.GlobalAddress, b: asc.GlobalAddress, c: asc.GlobalAddress,
                         ws: asc.ConstExpr[bool], nz: asc.ConstExpr[bool]):
    a_gm, b_gm, c_gm = gm_abc_sized(a, b, c, 1024)
    pipe = asc.TPipe()
    q_a1, q_b1, q_a2, q_b2, q_c = cube_queues(pipe, 2048, 2048, 2048, 2048, 4096)
    a2, b2 = load_tile_32(a_gm, b_gm, q_a1, q_b1, q_a2, q_b2)
    c1 = q_c.alloc_tensor(asc.float32)
    asc.mmad(c1, a2, b2, asc.MmadParams(32, 32, 32))
    # NZ: dst_stride in 32-byte blocks between column blocks (32 rows of 64 bytes)
    params = asc.FixpipeParamsV220(n_size=32, m_size=32, src_stride=32, dst_stride=64 if nz else 32)
    config = asc.FixpipeConfig(asc.CO2Layout.NZ if nz else asc.CO2Layout.ROW_MAJOR)
    q_w = asc.TQue(asc.TPosition.C1, 1)
    pipe.init_buffer(q_w, 1, 256)
    w = q_w.alloc_tensor(asc.uint64)
    if ws:
        asc.fixpipe(c_gm, c1, w, params, config)
    else:
        asc.fixpipe(c_gm, c1, params, config)


def _nz_of(x):
    """A (32 x 32) float32 matrix in NZ order: column blocks of 16, rows within."""
    return x.reshape(32, 2, 16).transpose(1, 0, 2).reshape(32, 32)


@pytest.mark.parametrize("ws", [False, True])
@pytest.mark.parametrize("nz", [False, True])
def test_fixpipe_config_from_layout_and_workspace_form(ws, nz):
    rng = np.random.default_rng(11)
    a = (rng.integers(-8, 9, (32, 32)) / 4).astype(np.float16)
    b = (rng.integers(-8, 9, (32, 32)) / 8).astype(np.float16)
    want = a.astype(np.float32) @ b.astype(np.float32)
    c = np.zeros((32, 32), np.float32)
    launch(fixpipe_forms_kernel, a, b, c, ws, nz)
    np.testing.assert_array_equal(c, _nz_of(want) if nz else want)
    source = fixpipe_forms_kernel.ascendc(a, b, c, ws, nz)
    assert ("AscendC::CFG_NZ" if nz else "AscendC::CFG_ROW_MAJOR") in source
    assert_valid_cpp(source)  # the workspace form too: Fixpipe(dst, src, cbufWorkspace, params)


@jit
def fixpipe_f16_src_kernel(x: asc.GlobalAddress):
    g = asc.GlobalTensor()
    g.set_global_buffer(x, 256)
    src = asc.LocalTensor(asc.float16, asc.TPosition.VECIN, 0, 512)
    asc.fixpipe(g, src, asc.FixpipeParamsV220(16, 16, 16, 16),
                asc.FixpipeConfig(asc.CO2Layout.ROW_MAJOR))


def test_fixpipe_src_checked_when_it_runs():
    """PyAsc compiles a float16 UB src; the fixpipe refuses it when it runs."""
    for kernel in modes(fixpipe_f16_src_kernel):
        with pytest.raises(asc.KernelError, match="fixpipe: src must be float32 or int32, "
                                                  "not float16"):
            launch(kernel, np.zeros(256, np.float16))
    # its Ascend C too, when it is compiled (Fixpipe's src is an L0C tensor of float or int32)
    source = fixpipe_f16_src_kernel.ascendc(np.zeros(256, np.float16))
    assert "Fixpipe: src is an L0C tensor of float or int32_t" in gxx(source).stderr

    @jit
    def bad_layout(x: asc.GlobalAddress):
        cfg = asc.FixpipeConfig(asc.CO2Layout.COLUMN_MAJOR)

    with pytest.raises(asc.CompileError, match="layout must be CO2Layout.NZ or "
                                               "CO2Layout.ROW_MAJOR"):
        launch(bad_layout, np.zeros(16, np.float16))


# --- bilinear_interpolation with uint32 offsets ------------------------------------------------

@jit
def bilinear_u32_kernel(x: asc.GlobalAddress, off: asc.GlobalAddress, w: asc.GlobalAddress,
                        y: asc.GlobalAddress, mask: asc.ConstExpr, mode: asc.ConstExpr[bool]):
    src0 = local(x, 0, 1024)
    offs = local(off, 4096, 256)  # uint32 byte offsets, as Ascend C declares them
    src1 = local(w, 8192, 256)
    dst = local(y, 16384, 2048)
    tmp = asc.LocalTensor(asc.uint8, asc.TPosition.VECCALC, 32768, 1024)
    asc.bilinear_interpolation(dst, src0, offs, src1, mask, 2, mode, 1, 128, 2, tmp)
    store(y, dst, 2048)


@pytest.mark.parametrize("mask, mode", [(128, False), ((2**64 - 1, 0x00FF00FF00FF00FF), True)])
def test_bilinear_interpolation_uint32_offsets(mask, mode):
    rng = np.random.default_rng(4)
    x = rng.uniform(-2, 2, 1024).astype(np.float16)
    off = (rng.integers(0, 64, 256) * 32).astype(np.uint32)
    w = rng.uniform(-1, 1, 256).astype(np.float16)
    want = bilinear_model(x, off.astype(np.int64), w, np.full(2048, 9, np.float16),
                          mask, 2, mode, 1, 128, 2)
    for kernel in modes(bilinear_u32_kernel):
        y = np.full(2048, 9, np.float16)
        launch(kernel, x, off, w, y, mask, mode)
        np.testing.assert_array_equal(y, want)


# --- data_copy GM<->UB: whole 32-byte blocks ------------------------------------------------

@jit
def copy_count_kernel(x: asc.GlobalAddress, y: asc.GlobalAddress, n: int, out: int):
    gx = asc.GlobalTensor()
    gx.set_global_buffer(x, 64)
    gy = asc.GlobalTensor()
    gy.set_global_buffer(y, 64)
    t = asc.LocalTensor(asc.float32, asc.TPosition.VECIN, 0, 64)
    asc.duplicate(t, -1.0, 64)
    asc.set_flag(asc.HardEvent.V_MTE2, 0)
    asc.wait_flag(asc.HardEvent.V_MTE2, 0)
    asc.data_copy(t, gx, n)
    asc.set_flag(asc.HardEvent.MTE2_MTE3, 0)
    asc.wait_flag(asc.HardEvent.MTE2_MTE3, 0)
    asc.data_copy(gy, t, out)


@pytest.mark.parametrize("n, out", [(1, 64), (11, 64), (24, 64), (64, 13), (64, 7)])
def test_data_copy_count_rounds_down_to_whole_blocks(n, out):
    """CANN: in NPU mode a count that is not a whole number of 32-byte
    blocks is rounded down (no error); checked mode reports it."""
    x = np.arange(1, 65, dtype=np.float32)
    y = np.zeros(64, np.float32)
    launch(copy_count_kernel, x, y, n, out)
    n_in, n_out = n // 8 * 8, out // 8 * 8  # 8 float32 elements a block
    ub = np.full(64, -1.0, np.float32)
    ub[:n_in] = x[:n_in]
    want = np.zeros(64, np.float32)
    want[:n_out] = ub[:n_out]
    np.testing.assert_array_equal(y, want)
    checked = modes(copy_count_kernel)[1]
    if n % 8 or out % 8:
        with pytest.raises(asc.KernelError, match="not whole 32-byte data blocks"):
            launch(checked, x, np.zeros(64, np.float32), n, out)
    else:
        y2 = np.zeros(64, np.float32)
        launch(checked, x, y2, n, out)
        np.testing.assert_array_equal(y2, want)


# --- printf of a GlobalAddress ----------------------------------------------------------------

@jit
def printf_addr_kernel(s: asc.GlobalAddress, n: int):
    asc.printf("<%s>", s)
    asc.printf("%s|%d\n", s + n, n)
    asc.printf("[%p]\n", s)


def test_printf_global_address_prints_its_string(capfd):
    """Ascend C's printf %s prints the string at a GM address (up to its
    NUL); the simulator never reads past the argument."""
    text = np.frombuffer(b"hello pyasc\0tail\0", np.uint8).copy()
    for kernel in modes(printf_addr_kernel):
        launch(kernel, text, 12)
        out = capfd.readouterr().out
        assert out.startswith("<hello pyasc>tail|12\n[") and out.endswith("]\n")
    unterminated = np.frombuffer(b"abc", np.uint8).copy()
    launch(printf_addr_kernel, unterminated, 1)  # default mode: cut at the argument's end
    assert capfd.readouterr().out.startswith("<abc>bc|1\n")
    with pytest.raises(asc.KernelError, match="printf: the %s string at this address has no NUL"):
        launch(modes(printf_addr_kernel)[1], unterminated, 1)
    source = printf_addr_kernel.ascendc(text, 12)
    assert "AscendC::printf(" in source and "\\045s" in source and "\\045p" in source
    assert_valid_cpp(source)


# --- trans_data_to_5hd address forms ------------------------------------------------------------

@jit
def five_hd_addr_kernel(x: asc.GlobalAddress, y: asc.GlobalAddress, d: asc.ConstExpr[tuple],
                        s: asc.ConstExpr[tuple], rep: asc.ConstExpr[int],
                        dst_stride: asc.ConstExpr[int], src_stride: asc.ConstExpr[int],
                        count: asc.ConstExpr[int], as_tensor: asc.ConstExpr[bool]):
    a = local(x, 0, count)
    b = local(y, 8192, count)
    params = asc.TransDataTo5HDParams(dst_high_half=False, src_high_half=False,
                                      repeat_times=rep, dst_rep_stride=dst_stride,
                                      src_rep_stride=src_stride)
    # tensors of addresses, made outside the branch (the element type is
    # read from the set_value calls on this very tensor value)
    da = asc.LocalTensor(asc.uint64, asc.TPosition.VECCALC, 16384, 16)
    sa = asc.LocalTensor(asc.uint64, asc.TPosition.VECCALC, 16512, 16)
    if as_tensor:
        for i in asc.static_range(16):
            da.set_value(i, b[d[i]].get_phy_addr())
            sa.set_value(i, a[s[i]].get_phy_addr())
        asc.set_flag(asc.HardEvent.S_V, 0)
        asc.wait_flag(asc.HardEvent.S_V, 0)
        asc.trans_data_to_5hd(da, sa, params)
    else:
        asc.trans_data_to_5hd(
            [b[d[0]].get_phy_addr(), b[d[1]].get_phy_addr(), b[d[2]].get_phy_addr(),
             b[d[3]].get_phy_addr(), b[d[4]].get_phy_addr(), b[d[5]].get_phy_addr(),
             b[d[6]].get_phy_addr(), b[d[7]].get_phy_addr(), b[d[8]].get_phy_addr(),
             b[d[9]].get_phy_addr(), b[d[10]].get_phy_addr(), b[d[11]].get_phy_addr(),
             b[d[12]].get_phy_addr(), b[d[13]].get_phy_addr(), b[d[14]].get_phy_addr(),
             b[d[15]].get_phy_addr()],
            [a[s[0]].get_phy_addr(), a[s[1]].get_phy_addr(), a[s[2]].get_phy_addr(),
             a[s[3]].get_phy_addr(), a[s[4]].get_phy_addr(), a[s[5]].get_phy_addr(),
             a[s[6]].get_phy_addr(), a[s[7]].get_phy_addr(), a[s[8]].get_phy_addr(),
             a[s[9]].get_phy_addr(), a[s[10]].get_phy_addr(), a[s[11]].get_phy_addr(),
             a[s[12]].get_phy_addr(), a[s[13]].get_phy_addr(), a[s[14]].get_phy_addr(),
             a[s[15]].get_phy_addr()], params)
    store(y, b, count)


@pytest.mark.parametrize("as_tensor", [False, True])
@pytest.mark.parametrize("dtype, d, s, rep, dst_stride, src_stride", [
    (np.float16, tuple(range(0, 256, 16)), tuple(range(0, 512, 32)), 2, 16, 1),
    (np.float32, tuple(range(0, 128, 8)), tuple(range(0, 256, 16)), 2, 16, 1),
])
def test_trans_data_to_5hd_address_forms(as_tensor, dtype, d, s, rep, dst_stride, src_stride):
    """The addresses' element type is their tensors' (get_phy_addr), as
    PyAsc infers it; the result is the tensor-list form's (NumPy model)."""
    count = 4096 // np.dtype(dtype).itemsize
    x = (np.arange(count) % 251 - 120).astype(dtype)
    want = five_hd_model(x, np.full(count, 7, dtype), d, s, (False, False), rep, dst_stride,
                         src_stride)
    for kernel in modes(five_hd_addr_kernel):
        y = np.full(count, 7, dtype)
        launch(kernel, x, y, d, s, rep, dst_stride, src_stride, count, as_tensor)
        np.testing.assert_array_equal(y, want)
    source = five_hd_addr_kernel.ascendc(x, x, d, s, rep, dst_stride, src_stride, count,
                                         as_tensor)
    ctype = "half" if dtype == np.float16 else "float"
    assert f"AscendC::TransDataTo5HD<{ctype}>(" in source
    assert_valid_cpp(source)


@jit
def five_hd_loop_kernel(x: asc.GlobalAddress, y: asc.GlobalAddress, dstep: asc.ConstExpr[int],
                        sstep: asc.ConstExpr[int], rep: asc.ConstExpr[int],
                        dst_stride: asc.ConstExpr[int], src_stride: asc.ConstExpr[int],
                        count: asc.ConstExpr[int], as_tensor: asc.ConstExpr[bool], loops: int):
    """The address tensors and the tensor lists made in a run-time loop's
    body, held in variables, as upstream's generalization tests write them:
    the i-th address is element i * dstep of b (i * sstep of a)."""
    a = local(x, 0, count)
    b = local(y, 8192, count)
    params = asc.TransDataTo5HDParams(dst_high_half=False, src_high_half=False,
                                      repeat_times=rep, dst_rep_stride=dst_stride,
                                      src_rep_stride=src_stride)
    for j in range(loops):
        if as_tensor:
            da = asc.LocalTensor(asc.uint64, asc.TPosition.VECCALC, 16384, 16)
            sa = asc.LocalTensor(asc.uint64, asc.TPosition.VECCALC, 16512, 16)
            for i in range(16):
                dst_addr = b[i * dstep].get_phy_addr()
                da.set_value(i, dst_addr)
                src_addr = a[i * sstep].get_phy_addr()
                sa.set_value(i, src_addr)
            asc.set_flag(asc.HardEvent.S_V, 0)
            asc.wait_flag(asc.HardEvent.S_V, 0)
            asc.trans_data_to_5hd(da, sa, params)
        else:
            dst_list = [b[0 * dstep], b[1 * dstep], b[2 * dstep], b[3 * dstep], b[4 * dstep],
                        b[5 * dstep], b[6 * dstep], b[7 * dstep], b[8 * dstep], b[9 * dstep],
                        b[10 * dstep], b[11 * dstep], b[12 * dstep], b[13 * dstep],
                        b[14 * dstep], b[15 * dstep]]
            src_list = [a[0 * sstep], a[1 * sstep], a[2 * sstep], a[3 * sstep], a[4 * sstep],
                        a[5 * sstep], a[6 * sstep], a[7 * sstep], a[8 * sstep], a[9 * sstep],
                        a[10 * sstep], a[11 * sstep], a[12 * sstep], a[13 * sstep],
                        a[14 * sstep], a[15 * sstep]]
            asc.trans_data_to_5hd(dst_list, src_list, params)
    store(y, b, count)


@pytest.mark.parametrize("as_tensor", [False, True], ids=["lists", "address_tensors"])
def test_trans_data_to_5hd_operands_made_in_a_runtime_loop(as_tensor):
    """Variables hold the address tensors, the addresses and the lists: the
    element type still comes from get_phy_addr (float16: half), and the
    result is the NumPy model's."""
    count, dstep, sstep = 2048, 16, 32
    x = (np.arange(count) % 251 - 120).astype(np.float16)
    d, s = tuple(range(0, 16 * dstep, dstep)), tuple(range(0, 16 * sstep, sstep))
    want = five_hd_model(x, np.full(count, 7, np.float16), d, s, (False, False), 2, 16, 1)
    for kernel in modes(five_hd_loop_kernel):
        y = np.full(count, 7, np.float16)
        launch(kernel, x, y, dstep, sstep, 2, 16, 1, count, as_tensor, 1)
        np.testing.assert_array_equal(y, want)


def test_trans_data_to_5hd_address_element_type_must_be_known():
    @jit
    def plain_numbers():
        p = asc.TransDataTo5HDParams()
        asc.trans_data_to_5hd([0, 32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416,
                               448, 480], [0, 32, 64, 96, 128, 160, 192, 224, 256, 288, 320,
                                           352, 384, 416, 448, 480], p)

    with pytest.raises(asc.CompileError, match="cannot tell the element type of the address "
                                               "lists"):
        launch(plain_numbers)
