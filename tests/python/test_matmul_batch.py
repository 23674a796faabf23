"""asc.adv.Matmul's batched calls (set_batch_num, iterate_batch,
wait_iterate_batch), its output quantisation (set_quant_scalar,
set_quant_vector) and the calls the simulator accepts and checks
(set_self_define_data, set_user_def_info, set_sparse_index), against NumPy
and in the emitted Ascend C."""

from __future__ import annotations

import struct

import numpy as np
import pytest

import asc
import pyasc
from asc.lib import host

from cube_helpers import (gm_abc, gm_matmul, gm_tiler, offset_kernel, plain_tiling, ref_matmul,
                          take_tiling, workspace)


@asc.jit(matmul_cube_only=True)
def batch_kernel(a: asc.GlobalAddress, b: asc.GlobalAddress, c: asc.GlobalAddress,
                 tiling: asc.adv.TCubeTiling, workspace: asc.GlobalAddress, batch_a: int,
                 batch_b: int, stride_a: int, form: asc.ConstExpr[int]):
    a_gm, b_gm, c_gm = gm_abc(a, b, c)
    pipe = asc.TPipe()
    layout = asc.LayoutMode.NORMAL if form == 0 else asc.LayoutMode.BSNGD if form == 2 else 0
    mm = asc.adv.Matmul(
        a=asc.adv.MatmulType(asc.TPosition.GM, asc.CubeFormat.ND, a_gm.dtype, False, layout),
        b=asc.adv.MatmulType(asc.TPosition.GM, asc.CubeFormat.ND, b_gm.dtype, False, layout),
        c=asc.adv.MatmulType(asc.TPosition.GM, asc.CubeFormat.ND, c_gm.dtype),
    )
    asc.adv.register_matmul(pipe, workspace, mm, tiling)
    mm.set_tensor_a(a_gm)
    mm.set_tensor_b(b_gm)
    if form == 0:
        mm.iterate_batch(c_gm, batch_a, batch_b, False, matrix_stride_a=stride_a)
    else:
        mm.set_batch_num(batch_a, batch_b)
        mm.iterate_batch(tensor=c_gm, en_partial_sum=False, en_atomic=0,
                         en_sequential_write=False, matrix_stride_a=stride_a)
    mm.wait_iterate_batch()
    mm.end()


def _batch(ba: int, bb: int, form: int = 0, pad_a: int = 0, m: int = 40, n: int = 24,
           k: int = 48):
    rng = np.random.default_rng(ba * 10 + bb)
    a = rng.integers(-4, 5, (ba, m * k + pad_a)).astype(np.float16)
    b = rng.integers(-4, 5, (bb, k, n)).astype(np.float16)
    nb = max(ba, bb)
    c = np.zeros((nb, m, n), np.float32)
    tiling = plain_tiling(m, n, k)
    args = (a, b, c, tiling, workspace(), ba, bb, m * k + pad_a if pad_a else 0,
            form)
    batch_kernel[1](*args)
    a3 = a[:, :m * k].reshape(ba, m, k).astype(np.float32)
    ref = np.stack([a3[i // (nb // ba)] @ b[i // (nb // bb)].astype(np.float32)
                    for i in range(nb)])
    return c, ref, args


@pytest.mark.parametrize("ba,bb,form,pad_a", [(3, 3, 0, 0), (2, 4, 0, 0), (4, 1, 0, 0),
                                               (2, 2, 1, 0), (3, 3, 0, 32)])
def test_iterate_batch_matches_numpy(ba, bb, form, pad_a):
    c, ref, _ = _batch(ba, bb, form, pad_a)
    np.testing.assert_array_equal(c, ref)


def test_iterate_batch_ascendc():
    _, _, args = _batch(2, 2)
    src = batch_kernel.ascendc(*args)
    assert "IterateBatch(" in src and "WaitIterateBatch()" in src
    _, _, args = _batch(2, 2, form=1)
    src = batch_kernel.ascendc(*args)
    assert "SetBatchNum(" in src and "IterateBatch(c_gm, false, 0, false" in src.replace(
        "  ", " ")


def test_axis_layouts_need_the_tilings_layout_axes():
    # BSNGD is simulated (test_matmul_layout.py); this tiling has no set_a_layout
    with pytest.raises(pyasc.KernelError, match="set_a_layout"):
        _batch(2, 2, form=2)


def test_iterate_batch_rejects_counts_that_do_not_divide():
    with pytest.raises(pyasc.KernelError, match="multiples of one another"):
        _batch(3, 2)


def test_iterate_batch_rejects_a_too_small_input():
    with pytest.raises(pyasc.KernelError, match="outside"):
        _batch(2, 2, pad_a=-16 * 48)  # A's stride points past its data


@asc.jit(matmul_cube_only=True)
def quant_kernel(a: asc.GlobalAddress, b: asc.GlobalAddress, c: asc.GlobalAddress,
                 scales: asc.GlobalAddress, tiling: asc.adv.TCubeTiling,
                 workspace: asc.GlobalAddress, bits: int, vector: asc.ConstExpr[bool]):
    a_gm, b_gm, c_gm = gm_abc(a, b, c)
    s_gm = asc.GlobalTensor()
    s_gm.set_global_buffer(scales)
    pipe = asc.TPipe()
    mm = gm_matmul(pipe, workspace, tiling, a_gm, b_gm, c_gm)
    if vector:
        mm.set_quant_vector(s_gm)
    else:
        mm.set_quant_scalar(bits)
    mm.set_tensor_a(a_gm)
    mm.set_tensor_b(b_gm)
    mm.iterate_all(c_gm)
    mm.end()


def _int8_tiling(m: int, n: int, k: int, c_type: int) -> asc.adv.TCubeTiling:
    return take_tiling(gm_tiler(m, n, k, host.DataType.DT_INT8, c_type))


def _f32_bits(x: float) -> int:
    return struct.unpack("<I", struct.pack("<f", x))[0]


def _quant(out_dtype, vector: bool, m=32, n=48, k=64):
    rng = np.random.default_rng(7)
    a = (2 * rng.integers(-3, 4, (m, k))).astype(np.int8)  # even products: exact halves
    b = rng.integers(-3, 4, (k, n)).astype(np.int8)
    col = np.where(np.arange(n) % 2 == 0, 0.5, 0.25).astype(np.float32)
    scales = col.view(np.uint32).astype(np.uint64)  # float32 bits in the low half
    c = np.zeros((m, n), out_dtype)
    tiling = _int8_tiling(m, n, k, host.DataType.DT_FLOAT16 if out_dtype == np.float16
                          else host.DataType.DT_INT8)
    args = (a, b, c, scales, tiling, workspace(), _f32_bits(0.5), vector)
    quant_kernel[1](*args)
    acc = a.astype(np.int64) @ b.astype(np.int64)
    ref = acc * (col if vector else np.float32(0.5))
    return c, ref, args


@pytest.mark.parametrize("vector", [False, True])
def test_dequant_int8_to_half(vector):
    c, ref, args = _quant(np.float16, vector)
    np.testing.assert_array_equal(c.astype(np.float32), ref.astype(np.float16).astype(np.float32))
    src = quant_kernel.ascendc(*args)
    assert ("SetQuantVector(" if vector else "SetQuantScalar(") in src


@pytest.mark.parametrize("vector", [False, True])
def test_quant_scale_keeps_ten_mantissa_bits(vector):
    """CANN's SetQuantScalar and Fixpipe: the AI core's float32 multiplier has 10 mantissa bits
    (the low 13 are cleared), so 0.1f scales by 0.0999756 (CANN's matmul_quant golden)."""
    m, n, k = 32, 48, 64
    rng = np.random.default_rng(11)
    a = rng.integers(-10, 10, (m, k)).astype(np.int8)
    b = rng.integers(-10, 10, (k, n)).astype(np.int8)
    scale = np.float32(0.1)
    scales = np.full(n, scale, np.float32).view(np.uint32).astype(np.uint64)
    c = np.zeros((m, n), np.float16)
    tiling = _int8_tiling(m, n, k, host.DataType.DT_FLOAT16)
    quant_kernel[1](a, b, c, scales, tiling, workspace(), _f32_bits(0.1), vector)
    acc = (a.astype(np.int64) @ b.astype(np.int64)).astype(np.float32)
    kept = np.array([_f32_bits(0.1) & 0xFFFFE000], np.uint32).view(np.float32)[0]
    np.testing.assert_array_equal(c, (acc * kept).astype(np.float16))
    assert np.any(c != (acc * scale).astype(np.float16))  # the full scale would differ


@pytest.mark.parametrize("vector", [False, True])
def test_requant_int8_to_int8(vector):
    c, ref, _ = _quant(np.int8, vector)
    exact = np.clip(ref, -128, 127)
    # half-products round as the fixpipe does; compare where the value is exact
    whole = exact == np.round(exact)
    assert whole.any()
    np.testing.assert_array_equal(c[whole], exact[whole].astype(np.int8))
    assert np.all(np.abs(c.astype(np.float64) - exact) <= 1)


def test_int8_output_without_quant_is_an_error():
    m, n, k = 32, 32, 32
    a = np.ones((m, k), np.int8)
    b = np.ones((k, n), np.int8)
    tiling = _int8_tiling(m, n, k, host.DataType.DT_INT8)

    @asc.jit(matmul_cube_only=True)
    def plain(a: asc.GlobalAddress, b: asc.GlobalAddress, c: asc.GlobalAddress,
              tiling: asc.adv.TCubeTiling, workspace: asc.GlobalAddress):
        a_gm, b_gm, c_gm = gm_abc(a, b, c)
        pipe = asc.TPipe()
        mm = gm_matmul(pipe, workspace, tiling, a_gm, b_gm, c_gm)
        mm.set_tensor_a(a_gm)
        mm.set_tensor_b(b_gm)
        mm.iterate_all(c_gm)

    with pytest.raises(pyasc.KernelError, match="set_quant_scalar or set_quant_vector"):
        plain[1](a, b, np.zeros((m, n), np.int8), tiling, workspace())


def test_quant_vector_rejects_other_dtypes():
    c, ref, args = _quant(np.float16, True)
    bad = list(args)
    bad[3] = np.zeros(48, np.float32)
    with pytest.raises(pyasc.CompileError, match="uint64"):
        quant_kernel[1](*bad)


@asc.jit(matmul_cube_only=True)
def callback_kernel(a: asc.GlobalAddress, b: asc.GlobalAddress, c: asc.GlobalAddress,
                    index: asc.GlobalAddress, tiling: asc.adv.TCubeTiling,
                    workspace: asc.GlobalAddress, sparse: asc.ConstExpr[bool]):
    a_gm, b_gm, c_gm = gm_abc(a, b, c)
    i_gm = asc.GlobalTensor()
    i_gm.set_global_buffer(index)
    pipe = asc.TPipe()
    mm = gm_matmul(pipe, workspace, tiling, a_gm, b_gm, c_gm)
    mm.set_user_def_info(i_gm)
    mm.set_self_define_data(i_gm)
    mm.set_self_define_data(7)
    mm.set_tensor_a(a_gm)
    mm.set_tensor_b(b_gm)
    if sparse:
        mm.set_sparse_index(i_gm)
    mm.iterate_all(c_gm)


def _callback(sparse: bool, index_dtype=np.uint8):
    m, n, k = 32, 32, 32
    rng = np.random.default_rng(1)
    a = rng.integers(-3, 4, (m, k)).astype(np.float16)
    b = rng.integers(-3, 4, (k, n)).astype(np.float16)
    c = np.zeros((m, n), np.float32)
    tiling = plain_tiling(m, n, k)
    args = (a, b, c, np.zeros(64, index_dtype), tiling, workspace(), sparse)
    return a, b, c, args


def test_callback_data_is_accepted_and_changes_nothing():
    a, b, c, args = _callback(False)
    callback_kernel[1](*args)
    np.testing.assert_array_equal(c, ref_matmul(a, b))
    src = callback_kernel.ascendc(*args)
    assert "SetUserDefInfo(" in src and "SetSelfDefineData(7)" in src


def test_sparse_index_is_emitted_but_not_simulated():
    _, _, _, args = _callback(True)
    assert "SetSparseIndex(i_gm)" in callback_kernel.ascendc(*args)
    with pytest.raises(pyasc.KernelError, match="sparse matmul is not simulated"):
        callback_kernel[1](*args)
    _, _, _, bad = _callback(True, np.int32)
    with pytest.raises(pyasc.CompileError, match="uint8"):
        callback_kernel[1](*bad)


@asc.jit(matmul_cube_only=True)
def n_batch_kernel(a: asc.GlobalAddress, b: asc.GlobalAddress, c: asc.GlobalAddress,
                   tiling: asc.adv.TCubeTiling, workspace: asc.GlobalAddress, loops: int,
                   batch: asc.ConstExpr[int], with_ws: asc.ConstExpr[bool]):
    a_gm, b_gm, c_gm = gm_abc(a, b, c)
    ws_gm = asc.GlobalTensor()
    ws_gm.set_global_buffer(workspace)
    pipe = asc.TPipe()
    que = asc.TQue(asc.TPosition.VECOUT, 1)
    size = batch * tiling.m * tiling.n
    pipe.init_buffer(que=que, num=1, len=size * 4)
    mm = gm_matmul(pipe, workspace, tiling, a_gm, b_gm, c_gm)
    if with_ws:
        mm.set_workspace(ws_gm)
    mm.set_tensor_a(a_gm)
    mm.set_tensor_b(b_gm)
    mm.iterate_n_batch(loops, batch, batch, False, sync=False)
    mm.wait_iterate_batch()
    for i in range(loops):
        out = que.alloc_tensor(c_gm.dtype)
        mm.get_batch_tensor_c(out, batch, batch, sync=False)
        que.enque(out)
        out = que.deque(c_gm.dtype)
        asc.data_copy(c_gm[i * size:], out, count=size)
        que.free_tensor(out)
    mm.end()


def _n_batch(loops: int, batch: int, with_ws: bool = True, m: int = 32, n: int = 16, k: int = 32):
    rng = np.random.default_rng(loops)
    a = rng.integers(-4, 5, (loops * batch, m, k)).astype(np.float16)
    b = rng.integers(-4, 5, (loops * batch, k, n)).astype(np.float16)
    c = np.zeros((loops * batch, m, n), np.float32)
    tiling = plain_tiling(m, n, k)
    args = (a, b, c, tiling, np.zeros(loops * batch * m * n * 4, np.uint8), loops, batch,
            with_ws)
    n_batch_kernel[1](*args)
    return c, ref_matmul(a, b), args


def test_iterate_n_batch_through_the_workspace():
    c, ref, args = _n_batch(3, 2)
    np.testing.assert_array_equal(c, ref)
    src = n_batch_kernel.ascendc(*args)
    assert "IterateNBatch(" in src and "GetBatchTensorC(" in src


def test_iterate_n_batch_needs_a_workspace():
    with pytest.raises(pyasc.KernelError, match="set_workspace first"):
        _n_batch(2, 2, with_ws=False)


def test_get_matmul_api_tiling_fixes_the_base_block():
    half = asc.adv.MatmulType(asc.TPosition.GM, asc.CubeFormat.ND, asc.float16)
    f32 = asc.adv.MatmulType(asc.TPosition.GM, asc.CubeFormat.ND, asc.float32)
    cfg = asc.adv.get_normal_config()
    cfg = type(cfg)(**{**cfg.__dict__, "basic_m": 128, "basic_n": 256, "basic_k": 64})
    t = asc.adv.get_matmul_api_tiling(cfg, 524288, half, half, f32, f32)
    assert (t.base_m, t.base_n, t.base_k, t.is_bias, t.m) == (128, 256, 64, 1, -1)
    assert t.cfg is cfg
    # upstream's other order: (mm_cfg, a, b, c, bias, l1_size=None)
    assert asc.adv.get_matmul_api_tiling(cfg, half, half, f32, None).is_bias == 0
    big = type(cfg)(**{**cfg.__dict__, "basic_m": 128, "basic_n": 128, "basic_k": 512})
    with pytest.raises(ValueError, match="L0A"):
        asc.adv.get_matmul_api_tiling(big, 524288, half, half, f32)
    # a config that fixes neither the base block nor the single-core shape:
    # Ascend C's tiling then holds no constant field
    open_cfg = asc.adv.get_normal_config()
    t = asc.adv.get_matmul_api_tiling(open_cfg, 524288, half, half, f32)
    assert t.cfg is open_cfg and (t.base_m, t.base_n, t.base_k, t.m, t.is_bias) == (-1,) * 5
    single = type(cfg)(**{**open_cfg.__dict__, "single_core_m": 64, "single_core_n": 64,
                          "single_core_k": 64})
    with pytest.raises(ValueError, match="base block"):
        asc.adv.get_matmul_api_tiling(single, 524288, half, half, f32)
    with pytest.raises(ValueError, match="l1_size"):
        asc.adv.get_matmul_api_tiling(cfg, 1 << 30, half, half, f32)


@asc.jit(matmul_cube_only=True)
def static_kernel(a: asc.GlobalAddress, b: asc.GlobalAddress, c: asc.GlobalAddress,
                  tiling: asc.adv.TCubeTiling, workspace: asc.GlobalAddress):
    a_gm, b_gm, c_gm = gm_abc(a, b, c)
    pipe = asc.TPipe()
    a_type = asc.adv.MatmulType(asc.TPosition.GM, asc.CubeFormat.ND, a_gm.dtype)
    b_type = asc.adv.MatmulType(asc.TPosition.GM, asc.CubeFormat.ND, b_gm.dtype)
    c_type = asc.adv.MatmulType(asc.TPosition.GM, asc.CubeFormat.ND, c_gm.dtype)
    cfg = asc.adv.get_mm_config(asc.MatmulConfigMode.CONFIG_NORM,
                                asc.adv.MatmulShapeParams(32, 32, 32, 32, 32, 32))
    static = asc.adv.get_matmul_api_tiling(cfg, 524288, a_type, b_type, c_type)
    mm = asc.adv.Matmul(a_type, b_type, c_type, None, static)
    asc.adv.register_matmul(pipe, workspace, mm, tiling)
    mm.set_tensor_a(a_gm)
    mm.set_tensor_b(b_gm)
    mm.iterate_all(c_gm)


def test_a_static_tiling_stands_for_the_config():
    m = n = k = 32
    rng = np.random.default_rng(5)
    a = rng.integers(-3, 4, (m, k)).astype(np.float16)
    b = rng.integers(-3, 4, (k, n)).astype(np.float16)
    c = np.zeros((m, n), np.float32)
    static_kernel[1](a, b, c, plain_tiling(m, n, k),
                     workspace())
    np.testing.assert_array_equal(c, ref_matmul(a, b))


def test_get_offset_c_names_each_block():
    m, n, k = 200, 72, 32
    a = np.ones((m, k), np.float16)
    b = np.ones((k, n), np.float16)
    tiling = plain_tiling(m, n, k)
    places = np.full((64, 5), -1, np.int32)
    args = (a, b, np.zeros((m, n), np.float32), places, tiling, workspace())
    offset_kernel[1](*args)
    bm, bn = tiling.base_m, tiling.base_n
    mb, nb = -(-m // bm), -(-n // bn)
    want = [(i * bm * n + j * bn, i * bm, j * bn, min(bm, m - i * bm), min(bn, n - j * bn))
            for j in range(nb) for i in range(mb)]  # M first
    assert [tuple(r) for r in places[:len(want)]] == want
    assert (places[len(want):] == -1).all()
    # the with-form's count has no Ascend C form: emit get_offset_c after iterate_all
    src = offset_c_source.ascendc(*args)
    assert "GetOffsetC().row" in src and "GetOffsetC().width" in src
    with pytest.raises(pyasc.KernelError, match="no block"):
        offset_c_source[1](*args)


@asc.jit(matmul_cube_only=True)
def offset_c_source(a: asc.GlobalAddress, b: asc.GlobalAddress, c: asc.GlobalAddress,
                    places: asc.GlobalAddress, tiling: asc.adv.TCubeTiling,
                    workspace: asc.GlobalAddress):
    a_gm, b_gm, c_gm = gm_abc(a, b, c)
    p_gm = asc.GlobalTensor()
    p_gm.set_global_buffer(places)
    pipe = asc.TPipe()
    mm = gm_matmul(pipe, workspace, tiling, a_gm, b_gm, c_gm)
    mm.set_tensor_a(a_gm)
    mm.set_tensor_b(b_gm)
    mm.iterate_all(c_gm)
    at = mm.get_offset_c()  # after iterate_all there is no current block
    p_gm.set_value(0, at.row)
    p_gm.set_value(1, at.width)
