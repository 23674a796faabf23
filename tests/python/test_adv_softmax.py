"""pyasc.adv's softmax (with SoftmaxTiling), rmsnorm (with RmsNormTiling)
and quant (with QuantConfig): softmax against NumPy's in float32 and
float16, rmsnorm against a float64 reference, quant against a NumPy model
of AscendQuant's rounding and saturation; the host tilings and tmp-size
queries; plain and checked mode; the Ascend C compiled against kernel_operator.h; errors.
"""

from __future__ import annotations

import numpy as np
import pytest
from test_ascendc import assert_valid_cpp

import pyasc as asc
from kernel_api_helpers import CACHE, jit
from pyasc.language import adv_host
from pyasc.language.adv_tiling import QuantConfig, RmsNormTiling, SoftmaxTiling


def variants(kernel):
    return [kernel, asc.jit(kernel.fn, cache_dir=CACHE, debug=True)]


def numpy_softmax(x):
    x = x.astype(np.float64)
    e = np.exp(x - x.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


# --- softmax --------------------------------------------------------------------------------


@jit
def k_softmax(x: asc.GlobalAddress, y: asc.GlobalAddress, s: asc.GlobalAddress,
              mx: asc.GlobalAddress, tiling: SoftmaxTiling, m: asc.ConstExpr[int],
              k: asc.ConstExpr[int], tmp_bytes: asc.ConstExpr[int]):
    n = m * k
    nb = m * (32 // s.dtype.sizeof())
    gx = asc.GlobalTensor()
    gx.set_global_buffer(x, n)
    gy = asc.GlobalTensor()
    gy.set_global_buffer(y, n)
    gs = asc.GlobalTensor()
    gs.set_global_buffer(s, nb)
    gm = asc.GlobalTensor()
    gm.set_global_buffer(mx, nb)
    a = asc.LocalTensorAuto(x.dtype, n)
    d = asc.LocalTensorAuto(y.dtype, n)
    ls = asc.LocalTensorAuto(s.dtype, nb)
    lm = asc.LocalTensorAuto(mx.dtype, nb)
    asc.data_copy(a, gx, n)
    if tmp_bytes > 0:
        t = asc.LocalTensorAuto(asc.uint8, tmp_bytes)
        asc.adv.softmax(d, ls, lm, a, tiling, t)
    else:
        asc.adv.softmax(d, ls, lm, a, tiling)
    asc.data_copy(gy, d, n)
    asc.data_copy(gs, ls, nb)
    asc.data_copy(gm, lm, nb)


def softmax_case(dtype, stat_dtype, m=8, k=128, tmp=0, seed=0):
    g = np.random.default_rng(seed)
    x = (g.standard_normal((m, k)) * 4).astype(dtype)
    x[0, :3] = [60.0, -60.0, 0.0]  # a large spread in one row
    x[1, :] = 0  # a flat row: 1/k everywhere
    per = 32 // np.dtype(stat_dtype).itemsize
    tiling = SoftmaxTiling()
    work = tmp or adv_host.get_softmax_max_tmp_size([m, k], np.dtype(dtype).itemsize)
    adv_host.softmax_tiling_func([m, k], np.dtype(dtype).itemsize, work, tiling)
    y = np.zeros_like(x)
    s = np.zeros(m * per, stat_dtype)
    mx = np.zeros(m * per, stat_dtype)
    return x, y, s, mx, tiling, per


@pytest.mark.parametrize("dtype,stat_dtype,rtol", [(np.float32, np.float32, 2e-6),
                                                   (np.float16, np.float16, 2e-3),
                                                   (np.float16, np.float32, 2e-3)])
@pytest.mark.parametrize("tmp", [0, 8192], ids=["no_tmp", "tmp"])
def test_softmax_against_numpy(dtype, stat_dtype, rtol, tmp):
    m, k = 8, 128
    for kernel in variants(k_softmax):
        x, y, s, mx, tiling, per = softmax_case(dtype, stat_dtype, m, k, tmp)
        kernel[1](x, y, s, mx, tiling, m, k, tmp)
        asc.synchronize()
        np.testing.assert_allclose(y.astype(np.float64), numpy_softmax(x), rtol=rtol,
                                   atol=rtol * 1e-3)
        xd = x.astype(np.float64)
        np.testing.assert_array_equal(mx.reshape(m, per),
                                      np.repeat(x.max(axis=1, keepdims=True), per, 1)
                                      .astype(stat_dtype))
        ref_sum = np.exp(xd - xd.max(axis=1, keepdims=True)).sum(axis=1, keepdims=True)
        np.testing.assert_allclose(s.reshape(m, per).astype(np.float64),
                                   np.repeat(ref_sum, per, 1), rtol=rtol * 10)
        assert np.all(y[1] == y.dtype.type(1.0 / k))


def test_softmax_in_place_as_upstream_writes_it():
    m, k = 4, 64

    @jit
    def in_place(x: asc.GlobalAddress, tiling: SoftmaxTiling, m: asc.ConstExpr[int],
                 k: asc.ConstExpr[int]):
        n = m * k
        gx = asc.GlobalTensor()
        gx.set_global_buffer(x, n)
        a = asc.LocalTensorAuto(x.dtype, n)
        ls = asc.LocalTensorAuto(x.dtype, m * 8)
        lm = asc.LocalTensorAuto(x.dtype, m * 8)
        asc.data_copy(a, gx, n)
        asc.adv.softmax(a, ls, lm, a, tiling)
        asc.data_copy(gx, a, n)

    x = np.random.default_rng(1).random((m, k), dtype=np.float32) * 5
    ref = numpy_softmax(x)
    tiling = SoftmaxTiling()
    adv_host.softmax_tiling_func([m, k], 4, 1 << 20, tiling)
    in_place[1](x, tiling, m, k)
    asc.synchronize()
    np.testing.assert_allclose(x, ref, rtol=2e-6)


def test_softmax_tmp_below_one_row_is_an_error():
    m, k = 8, 128
    x, y, s, mx, tiling, _ = softmax_case(np.float32, np.float32, m, k)
    row = adv_host.get_softmax_min_tmp_size([m, k], 4)
    k_softmax[1](x, y, s, mx, tiling, m, k, row)
    asc.synchronize()
    with pytest.raises(asc.KernelError, match=rf"softmax: the shared tmp buffer holds {row - 32} "
                                              rf"bytes but needs at least {row}"):
        k_softmax[1](x, y, s, mx, tiling, m, k, row - 32)
        asc.synchronize()


def test_softmax_with_an_unfilled_tiling_says_how_to_fill_it():
    x, y, s, mx, _, _ = softmax_case(np.float32, np.float32)
    with pytest.raises(asc.KernelError, match="empty or negative.*softmax_tiling_func"):
        k_softmax[1](x, y, s, mx, SoftmaxTiling(), 8, 128, 0)
        asc.synchronize()


@jit
def k_softmax_shape_info(x: asc.GlobalAddress, tiling: SoftmaxTiling, rows: asc.ConstExpr[int],
                         k: asc.ConstExpr[int], tiles: asc.ConstExpr[int],
                         in_kernel_tiling: asc.ConstExpr[bool]):
    """softmax over `tiles` tiles of rows x k, in place, each tile's shape
    given by set_shape_info on a tensor assigned in the loop (a variable):
    the tiling is the argument, or SoftmaxTiling() made in the kernel."""
    n = rows * k
    gx = asc.GlobalTensor()
    gx.set_global_buffer(x, n * tiles)
    for i in asc.range(tiles):
        a = asc.LocalTensorAuto(x.dtype, n)
        ls = asc.LocalTensorAuto(x.dtype, rows * 8)
        lm = asc.LocalTensorAuto(x.dtype, rows * 8)
        asc.data_copy(a, gx[i * n:], n)
        a.set_shape_info(asc.ShapeInfo(asc.array(asc.int32, (rows, k))))
        if in_kernel_tiling:
            asc.adv.softmax(a, ls, lm, a, SoftmaxTiling())
        else:
            asc.adv.softmax(a, ls, lm, a, tiling)
        asc.data_copy(gx[i * n:], a, n)


@pytest.mark.parametrize("in_kernel_tiling", [True, False], ids=["kernel_tiling", "host_tiling"])
def test_softmax_with_an_empty_tiling_takes_the_shape_info(in_kernel_tiling):
    """An empty SoftmaxTiling (nobody ran softmax_tiling_func) normalises
    the rows the source's ShapeInfo gives, as upstream's insert_sync softmax
    test relies on; a filled one is used as it is."""
    rows, k, tiles = 4, 64, 3
    x = np.random.default_rng(2).random((tiles * rows, k), dtype=np.float32) * 5
    ref = numpy_softmax(x)
    k_softmax_shape_info[1](x, SoftmaxTiling(), rows, k, tiles, in_kernel_tiling)
    asc.synchronize()
    np.testing.assert_allclose(x, ref, rtol=2e-6)


def test_softmax_filled_tiling_wins_over_the_shape_info():
    rows, k, tiles = 4, 64, 1
    x = np.random.default_rng(3).random((rows, k), dtype=np.float32) * 5
    ref = x.copy()
    ref[:2] = numpy_softmax(x[:2])  # the tiling covers the first two rows only
    tiling = SoftmaxTiling()
    adv_host.softmax_tiling_func([2, k], 4, 1 << 20, tiling)
    k_softmax_shape_info[1](x, tiling, rows, k, tiles, False)
    asc.synchronize()
    np.testing.assert_allclose(x, ref, rtol=2e-6)


def test_softmax_tiling_larger_than_the_tensors_is_caught_in_checked_mode():
    x, y, s, mx, tiling, _ = softmax_case(np.float32, np.float32)
    tiling.src_m = 16  # twice the rows the kernel's tensors hold
    with pytest.raises(asc.KernelError, match="softmax"):
        variants(k_softmax)[1][1](x, y, s, mx, tiling, 8, 128, 0)
        asc.synchronize()


@jit
def k_softmax_bad(x: asc.GlobalAddress, which: asc.ConstExpr[int]):
    a = asc.LocalTensorAuto(x.dtype, 256)
    b = asc.LocalTensorAuto(asc.float32, 64)
    if which == 0:
        asc.adv.softmax(a, a, a, a, RmsNormTiling())
    elif which == 1:
        asc.adv.softmax(a, a, a, a, SoftmaxTiling(), data_format_nz=True)
    elif which == 2:
        asc.adv.softmax(a, b, b, a, SoftmaxTiling())  # float32 stats with float32 data: fine
        asc.adv.softmax(a, a, b, a, SoftmaxTiling())
    else:
        asc.adv.softmax(a, a, a, a, SoftmaxTiling(src_m=1, src_k=64), a)


@pytest.mark.parametrize("which,message", [
    (0, "adv.softmax: tiling must be a SoftmaxTiling"),
    (1, "data_format_nz=True .* not supported"),
    (2, "sum and max must both be float16"),
    (3, "temp_buffer must be a uint8 LocalTensor")])
def test_softmax_compile_errors(which, message):
    with pytest.raises(asc.CompileError, match=message):
        k_softmax_bad[1](np.zeros(256, np.float16), which)


def test_softmax_ascendc_is_valid_cpp():
    for dtype, stat, tmp in ((np.float32, np.float32, 0), (np.float16, np.float32, 8192),
                             (np.float16, np.float16, 0)):
        x, y, s, mx, tiling, _ = softmax_case(dtype, stat)
        src = k_softmax.ascendc(x, y, s, mx, tiling, 8, 128, tmp)
        assert "AscendC::SoftMax<" in src and ">(d, ls, lm, a" in src
        assert "SoftMaxTiling{(uint32_t)" in src
        assert_valid_cpp(src)


def test_softmax_host_tiling():
    t = SoftmaxTiling()
    row = adv_host.softmax_row_bytes(1024, 4)
    adv_host.softmax_tiling_func([2, 8, 1024], 4, 3 * row + 5, t)
    assert (t.src_m, t.src_k, t.src_size) == (16, 1024, 16 * 1024)
    assert (t.out_max_m, t.out_max_k, t.out_max_size) == (16, 8, 128)
    assert (t.split_m, t.split_k, t.split_size) == (3, 1024, 3 * 1024)
    assert (t.reduce_m, t.reduce_k, t.reduce_size) == (3, 8, 24)
    adv_host.softmax_tiling_func([4, 64], 2, 1 << 20, t)
    assert (t.out_max_k, t.split_m) == (16, 4)
    assert adv_host.get_softmax_max_tmp_size([16, 1024], 4) == 16 * row
    assert adv_host.get_softmax_min_tmp_size([16, 1024], 4) == row
    assert adv_host.get_softmax_min_tmp_size([16, 1024], 2) > row  # float16 converts first
    with pytest.raises(ValueError, match="below one row"):
        adv_host.softmax_tiling_func([4, 64], 4, 10, t)
    with pytest.raises(ValueError, match="rows, k"):
        adv_host.softmax_tiling_func([64], 4, 1 << 20, t)
    with pytest.raises(ValueError, match="int32"):
        adv_host.softmax_tiling_func([1 << 20, 1 << 12], 4, 1 << 30, t)
    with pytest.raises(TypeError, match="SoftmaxTiling"):
        adv_host.softmax_tiling_func([4, 64], 4, 1 << 20, RmsNormTiling())


# --- rmsnorm --------------------------------------------------------------------------------------


@jit
def k_rmsnorm(x: asc.GlobalAddress, gamma: asc.GlobalAddress, y: asc.GlobalAddress,
              tiling: RmsNormTiling, n: asc.ConstExpr[int], h: asc.ConstExpr[int],
              eps: float, tmp_bytes: asc.ConstExpr[int]):
    gx = asc.GlobalTensor()
    gx.set_global_buffer(x, n)
    gg = asc.GlobalTensor()
    gg.set_global_buffer(gamma, h)
    gy = asc.GlobalTensor()
    gy.set_global_buffer(y, n)
    a = asc.LocalTensorAuto(x.dtype, n)
    g = asc.LocalTensorAuto(x.dtype, h)
    d = asc.LocalTensorAuto(x.dtype, n)
    asc.data_copy(a, gx, n)
    asc.data_copy(g, gg, h)
    if tmp_bytes > 0:
        t = asc.LocalTensorAuto(asc.uint8, tmp_bytes)
        asc.adv.rmsnorm(d, a, g, eps, tiling, t)
    else:
        asc.adv.rmsnorm(d, a, g, eps, tiling)
    asc.data_copy(gy, d, n)


def rmsnorm_case(dtype, b=2, s=4, h=64, orig_h=60, seed=2):
    g = np.random.default_rng(seed)
    x = (g.standard_normal((b, s, h)) * 3).astype(dtype)
    x[..., orig_h:] = 0  # the padding
    x[0, 0, :orig_h] = 0  # an all-zero row: epsilon keeps it finite
    gamma = g.uniform(0.5, 1.5, h).astype(dtype)
    tiling = RmsNormTiling()
    size = np.dtype(dtype).itemsize
    big, _ = adv_host.get_rms_norm_max_min_tmp_size([b, s, h], size)
    assert adv_host.get_rms_norm_tiling_info([b, s, h], [b, s, orig_h], big, size, tiling)
    return x, gamma, tiling


def rmsnorm_ref(x, gamma, orig_h, eps):
    xd = x.astype(np.float64)
    ms = (xd[..., :orig_h] ** 2).sum(axis=-1, keepdims=True) / orig_h
    return xd / np.sqrt(ms + eps) * gamma.astype(np.float64)


@pytest.mark.parametrize("dtype,rtol", [(np.float32, 1e-5), (np.float16, 3e-3)])
@pytest.mark.parametrize("tmp", [0, 4096], ids=["no_tmp", "tmp"])
def test_rmsnorm_against_float64(dtype, rtol, tmp):
    b, s, h, orig_h, eps = 2, 4, 64, 60, 1e-5
    for kernel in variants(k_rmsnorm):
        x, gamma, tiling = rmsnorm_case(dtype, b, s, h, orig_h)
        y = np.zeros_like(x)
        kernel[1](x, gamma, y, tiling, x.size, h, eps, tmp)
        asc.synchronize()
        np.testing.assert_allclose(y.astype(np.float64), rmsnorm_ref(x, gamma, orig_h, eps),
                                   rtol=rtol, atol=rtol)
        assert np.all(y[0, 0] == 0)


def test_rmsnorm_tmp_below_one_row_is_an_error():
    x, gamma, tiling = rmsnorm_case(np.float32)
    y = np.zeros_like(x)
    _, low = adv_host.get_rms_norm_max_min_tmp_size([2, 4, 64], 4)
    with pytest.raises(asc.KernelError, match=rf"rmsnorm: the shared tmp buffer holds {low - 32} "
                                              rf"bytes but needs at least {low}"):
        k_rmsnorm[1](x, gamma, y, tiling, x.size, 64, 1e-5, low - 32)
        asc.synchronize()


def test_rmsnorm_with_an_unfilled_tiling_says_how_to_fill_it():
    x, gamma, _ = rmsnorm_case(np.float32)
    with pytest.raises(asc.KernelError, match="get_rms_norm_tiling_info"):
        k_rmsnorm[1](x, gamma, np.zeros_like(x), RmsNormTiling(), x.size, 64, 1e-5, 0)
        asc.synchronize()


def test_rmsnorm_host_tiling():
    t = RmsNormTiling()
    row = adv_host.rms_norm_row_bytes(64, 4)
    assert adv_host.get_rms_norm_max_min_tmp_size([2, 5, 64], 4) == (10 * row, row)
    assert adv_host.get_rms_norm_tiling_info([2, 5, 64], [2, 5, 60], 3 * row, 4, t)
    assert (t.b_length, t.s_length, t.h_length, t.original_h_length) == (2, 5, 64, 60)
    assert abs(t.reciprocal_of_h_length - 1 / 60) < 1e-9
    assert (t.main_bs_length, t.main_bsh_length, t.main_bs_length_align) == (3, 192, 8)
    assert (t.loop_round, t.input_tail_pos) == (3, 3 * 192)
    assert (t.tail_bs_length, t.tail_bsh_length) == (1, 64)
    before = RmsNormTiling(**{n: getattr(t, n) for n in RmsNormTiling.struct_fields})
    assert not adv_host.get_rms_norm_tiling_info([2, 5, 64], [2, 5, 60], row - 1, 4, t)
    assert not adv_host.get_rms_norm_tiling_info([2, 5, 64], [2, 5, 65], row, 4, t)
    assert not adv_host.get_rms_norm_tiling_info([2, 5, 64], [1, 5, 64], row, 4, t)
    assert t == before  # untouched when it fails
    with pytest.raises(ValueError, match=r"\[B, S, H\]"):
        adv_host.get_rms_norm_max_min_tmp_size([5, 64], 4)


def test_rmsnorm_ascendc_is_valid_cpp():
    for dtype, tmp in ((np.float32, 0), (np.float16, 4096)):
        x, gamma, tiling = rmsnorm_case(dtype)
        src = k_rmsnorm.ascendc(x, gamma, np.zeros_like(x), tiling, x.size, 64, 1e-5, tmp)
        assert "AscendC::RmsNorm<" in src and ">(d, a, g" in src
        assert "RmsNormTiling{(uint32_t)" in src
        assert "(float)" in src  # reciprocalOfHLength
        assert_valid_cpp(src)


# --- quant ----------------------------------------------------------------------------------------


def quant_model(x, scale, offset):
    """AscendQuant per tensor on dav-2201: src, scale and offset cast to half,
    src * scale + offset in half (each step rounded), then rint (half to even)
    and saturation to int8; NaN -> 0."""
    h = np.float16
    with np.errstate(all="ignore"):
        v = np.rint((x.astype(h) * h(scale)).astype(h) + h(offset))
    v = np.where(np.isnan(v), 0, np.clip(v, -128, 127))
    return v.astype(np.int8)


@jit
def k_quant(x: asc.GlobalAddress, y: asc.GlobalAddress, n: asc.ConstExpr[int], scale: float,
            offset: float, form: asc.ConstExpr[int]):
    gx = asc.GlobalTensor()
    gx.set_global_buffer(x, n)
    gy = asc.GlobalTensor()
    gy.set_global_buffer(y, n)
    a = asc.LocalTensorAuto(x.dtype, n)
    d = asc.LocalTensorAuto(asc.int8, n)
    asc.data_copy(a, gx, n)
    if form == 0:
        t = asc.LocalTensorAuto(asc.uint8, 512)
        asc.adv.quant(d, a, scale, offset, n, t)  # upstream's call
    elif form == 1:
        asc.adv.quant(d, a, scale, offset)  # the whole tensor
    elif form == 2:
        asc.adv.quant(d, a, scale, offset, config=QuantConfig(calc_count=n))
    else:  # PyAsc's positional fields: calc_count, offset_count, scale_count, work_local_size
        asc.adv.quant(d, a, scale, offset, config=QuantConfig(n, 0, 0, 0))
    asc.data_copy(gy, d, n)


@pytest.mark.parametrize("dtype", [np.float16, np.float32])
@pytest.mark.parametrize("form", [0, 1, 2, 3], ids=["tmp", "whole", "config", "positional"])
def test_quant_against_numpy_model(dtype, form):
    n = 64
    g = np.random.default_rng(7)
    x = (g.random(n) * 8 - 4).astype(dtype)
    x[:8] = [0.25, 0.75, -0.25, 1000, -1000, np.nan, np.inf, -np.inf]  # halves, saturation
    for kernel in variants(k_quant):
        for scale, offset in ((2.0, 0.9), (2.0, 0.0), (100.0, -0.5)):
            y = np.zeros(n, np.int8)
            kernel[1](x, y, n, scale, offset, form)
            asc.synchronize()
            np.testing.assert_array_equal(y, quant_model(x, scale, offset))


def test_quant_upstream_case():
    """upstream's test_quant: 32 float16 in [-4, 4], scale 2.0, offset 0.9."""
    src = (np.random.default_rng(2025).random(32) * 8.0 - 4.0).astype(np.float16)
    y = np.zeros(32, np.int8)
    k_quant[1](src, y, 32, 2.0, 0.9, 0)
    asc.synchronize()
    np.testing.assert_array_equal(y, np.round((src * 2.0) + 0.9).astype(np.int8))


@jit
def k_quant_bad(x: asc.GlobalAddress, which: asc.ConstExpr[int]):
    a = asc.LocalTensorAuto(x.dtype, 64)
    d = asc.LocalTensorAuto(asc.int8, 64)
    if which == 0:
        asc.adv.quant(a, a, 1.0, 0.0)
    else:
        asc.adv.quant(d, a, 1.0, 0.0, config=QuantConfig(scale_count=4))


@pytest.mark.parametrize("which,message", [(0, "quant does not support float32"),
                                           (1, "scale_count must be 0")])
def test_quant_compile_errors(which, message):
    with pytest.raises(asc.CompileError, match=message):
        k_quant_bad[1](np.zeros(64, np.float32), which)


def test_quant_host_query_and_ascendc():
    assert adv_host.get_ascend_quant_max_min_tmp_size([32], 2) == (512, 512)
    assert adv_host.get_ascend_quant_max_min_tmp_size([1000], 2) == (2016, 512)
    x = np.zeros(64, np.float16)
    for form in (0, 1, 2):
        src = k_quant.ascendc(x, np.zeros(64, np.int8), 64, 2.0, 0.9, form)
        assert "AscendC::AscendQuant(d, a" in src
        assert_valid_cpp(src)


# --- the static synchronisation check knows what adv ops write -----------------------------------


def k_sync(x: asc.GlobalAddress, s: asc.GlobalAddress, tiling: SoftmaxTiling,
           synced: asc.ConstExpr[int]):
    gx = asc.GlobalTensor()
    gx.set_global_buffer(x, 64)
    gs = asc.GlobalTensor()
    gs.set_global_buffer(s, 8)
    a = asc.LocalTensor(asc.float32, asc.TPosition.VECIN, 0, 64)
    d = asc.LocalTensor(asc.float32, asc.TPosition.VECOUT, 256, 64)
    ls = asc.LocalTensor(asc.float32, asc.TPosition.VECOUT, 512, 8)
    lm = asc.LocalTensor(asc.float32, asc.TPosition.VECOUT, 544, 8)
    asc.data_copy(a, gx, 64)
    asc.set_flag(asc.HardEvent.MTE2_V, 0)
    asc.wait_flag(asc.HardEvent.MTE2_V, 0)
    asc.adv.softmax(d, ls, lm, a, tiling)
    if synced == 1:
        asc.set_flag(asc.HardEvent.V_MTE3, 0)
        asc.wait_flag(asc.HardEvent.V_MTE3, 0)
    asc.data_copy(gs, ls, 8)


def test_sync_check_sees_softmax_write_its_sum():
    kernel = asc.jit(k_sync, cache_dir=CACHE, verify_sync=True)
    x, s = np.zeros(64, np.float32), np.zeros(8, np.float32)
    tiling = SoftmaxTiling()
    adv_host.softmax_tiling_func([1, 64], 4, 1024, tiling)
    kernel[1](x, s, tiling, 1)
    asc.synchronize()
    assert s[0] == 64.0  # the sum of exp(0) over the row
    with pytest.raises(asc.CompileError, match="read-after-write.*softmax"):
        kernel[1](x, s, tiling, 0)
