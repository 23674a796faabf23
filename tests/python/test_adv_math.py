"""pyasc.adv's maths family, power, xor, axpy, concat and extract against
float64 references (math.lgamma, math.erf, mpmath's digamma through
np.vectorize; NumPy elsewhere), over ranges that include the edge values
(poles, +-inf, NaN, +-0, halves for the rounding ones), in float32 and
float16, in plain and checked mode, with and without a shared tmp buffer;
their Ascend C compiled against kernel_operator.h; the tmp-buffer conventions and errors.

float16 data is computed in float32 and rounded once, so the references
are rounded to the data's type and compared within a few units of it.
"""

from __future__ import annotations

import math

import mpmath
import numpy as np
import pytest
from test_ascendc import assert_valid_cpp

import pyasc as asc
from kernel_api_helpers import CACHE, jit
from pyasc.language import adv_host


N = 64  # elements per function


def _vec(f):
    def ref(x):
        def one(v):
            try:
                return f(v)
            except (ValueError, OverflowError):
                return math.nan
        return np.vectorize(one, otypes=[np.float64])(np.asarray(x, np.float64))
    return ref


def _lgamma(v):
    if v <= 0 and v == math.floor(v):
        return math.inf  # the poles
    return math.lgamma(v) if math.isfinite(v) else abs(v) if not math.isnan(v) else v


def _digamma(v):
    if math.isnan(v) or v == -math.inf or (v <= 0 and v == math.floor(v)):
        return math.nan
    if v == math.inf:
        return math.inf
    return float(mpmath.digamma(v))


def _round(x):
    return np.rint(x)  # half to even


def _frac(x):
    with np.errstate(invalid="ignore"):
        return np.where(np.isinf(x), 0.0, x - np.trunc(x))


def _sign(x):
    return np.where(x > 0, 1.0, np.where(x < 0, -1.0, x))


def span(lo, hi, *edges):
    body = np.linspace(lo, hi, N - len(edges))
    return np.concatenate([body, np.array(edges, np.float64)])


INF, NAN = math.inf, math.nan
# name -> (reference on float64, inputs incl. edge values, float32 tolerance (rtol, atol))
FUNCS = {
    "acos": (np.arccos, span(-1, 1, 1.0, -1.0, 0.0, 1.5, NAN), (2e-6, 1e-6)),
    "acosh": (np.arccosh, span(1, 20, 1.0, 0.5, INF), (2e-6, 1e-6)),
    "asin": (np.arcsin, span(-1, 1, 1.0, -1.0, -0.0, -1.5), (2e-6, 1e-6)),
    "asinh": (np.arcsinh, span(-20, 20, 0.0, INF, -INF), (2e-6, 1e-6)),
    "atan": (np.arctan, span(-20, 20, INF, -INF, -0.0), (2e-6, 1e-6)),
    "atanh": (np.arctanh, span(-0.99, 0.99, 1.0, -1.0, 2.0), (2e-6, 1e-6)),
    "ceil": (np.ceil, span(-5, 5, 0.5, -0.5, -0.0, INF, NAN), (0, 0)),
    "cos": (np.cos, span(-math.pi, math.pi, 0.0), (2e-6, 1e-6)),
    "cosh": (np.cosh, span(-10, 10, 0.0, 100.0), (2e-6, 1e-6)),
    "digamma": (_vec(_digamma), span(0.05, 10, -2.5, -0.5, 0.0, -3.0, INF), (1e-5, 1e-5)),
    "erf": (_vec(math.erf), span(-4, 4, 0.0, INF, -INF), (2e-6, 1e-6)),
    "erfc": (_vec(math.erfc), span(-4, 9, 0.0, INF, -INF), (1e-5, 1e-30)),
    "floor": (np.floor, span(-5, 5, 0.5, -0.5, -0.0, -INF), (0, 0)),
    "frac": (_frac, span(-5, 5, 2.5, -2.5, INF, 0.0), (0, 1e-6)),
    "lgamma": (_vec(_lgamma), span(-3.7, 12, 0.0, -2.0, 1.0, 2.0, INF), (1e-5, 1e-5)),
    "log": (np.log, span(0.01, 100, 0.0, -1.0, 1.0, INF), (2e-6, 1e-6)),
    "round": (_round, span(-5, 5, 0.5, 1.5, 2.5, -0.5, -2.5, NAN), (0, 0)),
    "sign": (_sign, span(-5, 5, 0.0, -0.0, INF, -INF, NAN), (0, 0)),
    "sin": (np.sin, span(-math.pi, math.pi, -0.0), (2e-6, 1e-6)),
    "sinh": (np.sinh, span(-10, 10, 0.0, 100.0), (2e-6, 1e-6)),
    "tan": (np.tan, span(-1.5, 1.5, 0.0), (1e-5, 1e-6)),
    "tanh": (np.tanh, span(-10, 10, INF, -INF, 0.0), (2e-6, 1e-6)),
    "trunc": (np.trunc, span(-5, 5, 0.5, -0.5, -0.0, INF), (0, 0)),
}
NAMES = tuple(FUNCS)
OPS = tuple(getattr(asc.adv, n) for n in NAMES)


@jit
def apply_all(ops, k: asc.ConstExpr[int], gx, gy, n: asc.ConstExpr[int], tmp,
              use_tmp: asc.ConstExpr[int]):
    if k < len(ops):
        a = asc.LocalTensorAuto(gx.dtype, n)
        b = asc.LocalTensorAuto(gx.dtype, n)
        asc.data_copy(a, gx[k * n:], n)
        if use_tmp == 1:
            ops[k](b, a, n, tmp)
        else:
            ops[k](b, a)  # count defaults to src's size
        asc.data_copy(gy[k * n:], b, n)
        apply_all(ops, k + 1, gx, gy, n, tmp, use_tmp)


@jit
def k_math(x: asc.GlobalAddress, y: asc.GlobalAddress, n: asc.ConstExpr[int], ops: asc.ConstExpr,
           tmp_bytes: asc.ConstExpr[int]):
    gx = asc.GlobalTensor()
    gx.set_global_buffer(x)
    gy = asc.GlobalTensor()
    gy.set_global_buffer(y)
    if tmp_bytes > 0:
        tmp = asc.LocalTensorAuto(asc.uint8, tmp_bytes)
        apply_all(ops, 0, gx, gy, n, tmp, 1)
    else:
        apply_all(ops, 0, gx, gy, n, gx, 0)


def kernel(debug):
    return asc.jit(k_math.fn, cache_dir=CACHE, debug=True) if debug else k_math


def check(name, got, x, dtype):
    ref_fn, _, (rtol, atol) = FUNCS[name]
    with np.errstate(all="ignore"):
        ref = ref_fn(x.astype(np.float64)).astype(dtype)
    if dtype == np.float16 and (rtol or atol):
        rtol, atol = 2e-3, 2e-3
    np.testing.assert_allclose(got.astype(np.float64), ref.astype(np.float64), rtol=rtol,
                               atol=atol, equal_nan=True, err_msg=f"adv.{name} on {dtype}")
    # signed zeros survive the exact ones
    if rtol == 0 and atol == 0:
        zero = ref == 0
        assert np.array_equal(np.signbit(got[zero]), np.signbit(ref[zero])), name


@pytest.mark.parametrize("debug", [False, True], ids=["plain", "checked"])
@pytest.mark.parametrize("dtype", [np.float32, np.float16])
@pytest.mark.parametrize("tmp", [0, 8192], ids=["no_tmp", "tmp"])
def test_maths_family(dtype, debug, tmp):
    x = np.concatenate([FUNCS[n][1] for n in NAMES]).astype(dtype)
    y = np.zeros_like(x)
    kernel(debug)[1](x, y, N, OPS, tmp)
    asc.synchronize()
    for i, name in enumerate(NAMES):
        check(name, y[i * N:(i + 1) * N], x[i * N:(i + 1) * N], dtype)


def test_maths_family_ascendc_is_valid_cpp():
    x = np.zeros(N * len(NAMES), np.float16)
    for tmp in (0, 8192):
        src = k_math.ascendc(x, x, N, OPS, tmp)
        for name in NAMES:
            api = "AscendC::" + name.capitalize() + "("
            assert api in src, api
        assert ("tmp, 64)" in src) == (tmp > 0)
        assert_valid_cpp(src)


# --- exp with a Taylor level ---------------------------------------------------------------


@jit
def k_exp(x: asc.GlobalAddress, y: asc.GlobalAddress, n: asc.ConstExpr[int],
          level: asc.ConstExpr[int]):
    gx = asc.GlobalTensor()
    gx.set_global_buffer(x, n)
    gy = asc.GlobalTensor()
    gy.set_global_buffer(y, n)
    a = asc.LocalTensorAuto(x.dtype, n)
    b = asc.LocalTensorAuto(x.dtype, n)
    asc.data_copy(a, gx, n)
    asc.adv.exp(b, a, n, level)
    asc.data_copy(gy, b, n)


@pytest.mark.parametrize("level,rtol", [(0, 2e-6), (12, 1e-6), (3, 5e-3)])
def test_exp_taylor_levels(level, rtol):
    x = span(-10, 10, 0.0, -INF, INF).astype(np.float32)
    y = np.zeros_like(x)
    k_exp[1](x, y, N, level)
    asc.synchronize()
    with np.errstate(over="ignore"):
        np.testing.assert_allclose(y, np.exp(x.astype(np.float64)), rtol=rtol, equal_nan=True)


def test_exp_fewer_terms_lose_precision():
    x = np.full(N, 0.9, np.float32)
    y1, y8 = np.zeros_like(x), np.zeros_like(x)
    k_exp[1](x, y1, N, 1)
    k_exp[1](x, y8, N, 8)
    asc.synchronize()
    assert abs(y1[0] - 1.9) < 1e-6  # 1 + f: one term
    assert abs(y8[0] - math.exp(0.9)) < 5e-6  # 8 terms: float32 precision


def test_exp_ascendc_has_the_level_as_template_argument():
    x = np.zeros(N, np.float32)
    src = k_exp.ascendc(x, x, N, 4)
    assert "AscendC::Exp<float, 4, false>(b, a, 64)" in src
    assert_valid_cpp(src)


# --- power, xor, axpy --------------------------------------------------------------------------


@jit
def k_binary(x: asc.GlobalAddress, z: asc.GlobalAddress, y: asc.GlobalAddress,
             n: asc.ConstExpr[int], which: asc.ConstExpr[int], tmp_bytes: asc.ConstExpr[int]):
    gx = asc.GlobalTensor()
    gx.set_global_buffer(x, n)
    gz = asc.GlobalTensor()
    gz.set_global_buffer(z, n)
    gy = asc.GlobalTensor()
    gy.set_global_buffer(y, n)
    a = asc.LocalTensorAuto(x.dtype, n)
    b = asc.LocalTensorAuto(z.dtype, n)
    d = asc.LocalTensorAuto(y.dtype, n)
    asc.data_copy(a, gx, n)
    asc.data_copy(b, gz, n)
    asc.data_copy(d, gy, n)
    t = asc.LocalTensorAuto(asc.uint8, tmp_bytes)
    if which == 0:
        asc.adv.power(d, a, b, n, t)
    elif which == 1:
        asc.adv.xor(d, a, b, count=n)
    else:
        asc.adv.axpy(d, b, 1.5, n, temp_buffer=t)
    asc.data_copy(gy, d, n)


@pytest.mark.parametrize("dtype", [np.float32, np.float16])
def test_power(dtype):
    base = np.concatenate([np.linspace(0.1, 4, N - 6), [0, 0, -2, -2, 2, -1]]).astype(dtype)
    ex = np.concatenate([np.linspace(-3, 3, N - 6), [0, 2, 3, 0.5, -INF, INF]]).astype(dtype)
    y = np.zeros_like(base)
    k_binary[1](base, ex, y, N, 0, 2048)
    asc.synchronize()
    with np.errstate(all="ignore"):
        ref = np.power(base.astype(np.float64), ex.astype(np.float64)).astype(dtype)
    rtol = 2e-6 if dtype == np.float32 else 2e-3
    np.testing.assert_allclose(y.astype(np.float64), ref.astype(np.float64), rtol=rtol,
                               equal_nan=True)


def test_xor_int16_bit_exact():
    g = np.random.default_rng(3)
    a = g.integers(-32768, 32767, N, dtype=np.int16)
    b = g.integers(-32768, 32767, N, dtype=np.int16)
    a[:3], b[:3] = [-1, 0, 32767], [-32768, -1, -1]
    y = np.zeros_like(a)
    k_binary[1](a, b, y, N, 1, 32)
    asc.synchronize()
    np.testing.assert_array_equal(y, a ^ b)


@pytest.mark.parametrize("dst,src", [(np.float32, np.float32), (np.float16, np.float16),
                                     (np.float32, np.float16)])
def test_axpy(dst, src):
    g = np.random.default_rng(4)
    x = g.uniform(-4, 4, N).astype(src)
    y0 = g.uniform(-4, 4, N).astype(dst)
    y = y0.copy()
    k_binary[1](x, x, y, N, 2, 1024)
    asc.synchronize()
    ref = (y0.astype(np.float32) + x.astype(np.float32) * np.float32(1.5)).astype(dst)
    np.testing.assert_array_equal(y, ref)


def test_binary_ascendc_is_valid_cpp():
    f32, f16, i16 = (np.zeros(N, t) for t in (np.float32, np.float16, np.int16))
    for args in ((f32, f32, f32, N, 0, 2048), (i16, i16, i16, N, 1, 32),
                 (f16, f16, f32, N, 2, 1024)):
        assert_valid_cpp(k_binary.ascendc(*args))


# --- concat and extract ----------------------------------------------------------------------


@jit
def k_sort_io(x: asc.GlobalAddress, pairs: asc.GlobalAddress, c: asc.GlobalAddress,
              v: asc.GlobalAddress, i: asc.GlobalAddress, repeat: asc.ConstExpr[int]):
    n = repeat * 32
    gx = asc.GlobalTensor()
    gx.set_global_buffer(x, n)
    gp = asc.GlobalTensor()
    gp.set_global_buffer(pairs, 2 * n)
    gc = asc.GlobalTensor()
    gc.set_global_buffer(c, n)
    gv = asc.GlobalTensor()
    gv.set_global_buffer(v, n)
    gi = asc.GlobalTensor()
    gi.set_global_buffer(i, n)
    src = asc.LocalTensorAuto(x.dtype, n)
    tmp = asc.LocalTensorAuto(x.dtype, n)
    cat = asc.LocalTensorAuto(x.dtype, n)
    sorted_ = asc.LocalTensorAuto(pairs.dtype, 2 * n)
    val = asc.LocalTensorAuto(v.dtype, n)
    idx = asc.LocalTensorAuto(i.dtype, n)
    asc.data_copy(src, gx, n)
    asc.data_copy(sorted_, gp, 2 * n)
    asc.adv.concat(cat, src, tmp, repeat * 2)
    asc.adv.extract(val, idx, sorted_, repeat)
    asc.data_copy(gc, cat, n)
    asc.data_copy(gv, val, n)
    asc.data_copy(gi, idx, n)


@pytest.mark.parametrize("index_dtype", [np.int32, np.uint32])
def test_concat_and_extract(index_dtype):
    """extract's indices are Ascend C's uint32_t: an int32 or uint32 tensor."""
    repeat = 2
    n = repeat * 32
    g = np.random.default_rng(5)
    x = g.uniform(-1, 1, n).astype(np.float32)
    scores = np.sort(g.uniform(-1, 1, n)).astype(np.float32)[::-1]
    index = g.permutation(n).astype(np.uint32)
    pairs = np.empty(2 * n, np.float32)
    pairs[0::2] = scores
    pairs[1::2] = index.view(np.float32)
    c, v, i = np.zeros(n, np.float32), np.zeros(n, np.float32), np.zeros(n, index_dtype)
    for kernel in (k_sort_io, asc.jit(k_sort_io.fn, cache_dir=CACHE, debug=True)):
        kernel[1](x, pairs, c, v, i, repeat)
        asc.synchronize()
        np.testing.assert_array_equal(c, x)
        np.testing.assert_array_equal(v, scores)
        np.testing.assert_array_equal(i, index.astype(index_dtype))
    src = k_sort_io.ascendc(x, pairs, c, v, i, repeat)
    assert "AscendC::Extract(val, idx.ReinterpretCast<uint32_t>(), sorted_, 2)" in src
    assert_valid_cpp(src)


# --- errors --------------------------------------------------------------------------------


@jit
def k_one(x: asc.GlobalAddress, n: asc.ConstExpr[int], count: int, tmp_bytes: asc.ConstExpr[int],
          tmp_dtype: asc.ConstExpr):
    gx = asc.GlobalTensor()
    gx.set_global_buffer(x, n)
    a = asc.LocalTensorAuto(x.dtype, n)
    b = asc.LocalTensorAuto(x.dtype, n)
    asc.data_copy(a, gx, n)
    t = asc.LocalTensorAuto(tmp_dtype, tmp_bytes)
    asc.adv.sin(b, a, count, t)  # the line errors name
    asc.data_copy(gx, b, n)


def test_tmp_buffer_below_the_minimum_is_an_error_naming_the_line():
    x = np.zeros(N, np.float32)
    _, low = adv_host.get_sin_max_min_tmp_size([N], 4)
    k_one[1](x, N, N, low, asc.uint8)  # exactly the minimum is fine
    asc.synchronize()
    with pytest.raises(asc.KernelError, match=r"test_adv_math.py:\d+: adv.sin: the shared tmp "
                                              r"buffer holds 736 bytes but needs at least 768"):
        k_one[1](x, N, N, low - 32, asc.uint8)
        asc.synchronize()


def test_tmp_buffer_must_be_uint8():
    x = np.zeros(N, np.float32)
    with pytest.raises(asc.CompileError, match="temp_buffer must be a uint8 LocalTensor"):
        k_one[1](x, N, N, 1024, asc.float32)


def test_negative_count_is_an_error():
    x = np.zeros(N, np.float32)
    with pytest.raises(asc.KernelError, match="adv.sin: count -1 is negative"):
        k_one[1](x, N, -1, 1024, asc.uint8)
        asc.synchronize()


def test_count_past_the_tensor_is_caught_in_checked_mode():
    x = np.zeros(N, np.float32)
    checked = asc.jit(k_one.fn, cache_dir=CACHE, debug=True)
    with pytest.raises(asc.KernelError, match="adv.sin"):
        checked[1](x, N, 2 * N, 1024, asc.uint8)
        asc.synchronize()


@jit
def k_int_acos(x: asc.GlobalAddress):
    a = asc.LocalTensorAuto(x.dtype, 64)
    asc.adv.acos(a, a, 64)


def test_unsupported_dtype_is_a_compile_error():
    with pytest.raises(asc.CompileError, match=r"adv.acos does not support int32 tensors "
                                               r"\(supported: float16, float32\)"):
        k_int_acos[1](np.zeros(64, np.int32))


@jit
def k_bad_level(x: asc.GlobalAddress, level: int):
    a = asc.LocalTensorAuto(x.dtype, 64)
    asc.adv.exp(a, a, 64, level)


def test_exp_level_must_be_a_constant():
    with pytest.raises(asc.CompileError, match="taylor_expand_level must be a constant int"):
        k_bad_level[1](np.zeros(64, np.float32), 2)


def test_adv_builtins_only_run_in_kernels():
    with pytest.raises(TypeError, match="inside a @pyasc.jit kernel"):
        asc.adv.sin(None, None)


# --- host queries --------------------------------------------------------------------------------


def test_math_tmp_size_queries():
    mx, mn = adv_host.get_acos_max_min_tmp_size([1024], 4)
    assert (mx, mn) == (2 * 4 * 1024, 2 * 256)
    mx16, mn16 = asc.adv.get_acos_max_min_tmp_size([1024], 2)  # float16: six half buffers
    assert (mx16, mn16) == (6 * 2 * 1024, 6 * 256)
    assert adv_host.get_trunc_max_min_tmp_size([3], 4) == (256, 256)  # at least the minimum
    # CANN's other floors: in elements (acosh), none (sign), float32 buffers (exp), reuse (cos)
    assert adv_host.get_acosh_max_min_tmp_size([10], 4) == (256 * 4, 256)
    assert adv_host.get_sign_max_min_tmp_size([10], 4) == (3 * 10 * 4, 3 * 256)
    assert adv_host.get_exp_max_min_tmp_size([10], 2) == (4 * 256, 4 * 256)
    assert adv_host.get_cos_max_min_tmp_size([1000], 4, True) == (2 * 4000, 2 * 256)
    assert adv_host.get_power_max_min_tmp_size([1000], 4) == (4 * 4000 + 256, 5 * 256)
    assert adv_host.get_exp_max_min_tmp_size([0], 4) == (3 * 256, 3 * 256)
    with pytest.raises(ValueError, match="no elements"):
        adv_host.get_sin_max_min_tmp_size([4, 0], 4)
    for bad in ([], [-1], [2.0]):
        with pytest.raises(ValueError, match="src_shape"):
            adv_host.get_sin_max_min_tmp_size(bad, 4)
    with pytest.raises(ValueError, match="type_size"):
        adv_host.get_sin_max_min_tmp_size([8], 8)
    with pytest.raises(ValueError, match="type_size"):
        adv_host.get_xor_max_min_tmp_size([8], 4)  # xor is int16 only
    with pytest.raises(ValueError, match="no adv maths API"):
        adv_host.get_math_max_min_tmp_size("gelu", [8], 4)
