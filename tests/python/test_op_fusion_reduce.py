"""Trailing reductions fused into an operator's kernel (docs/op-compiler.md):
float32 sum and mean within the documented bound of a float64 NumPy
reference, integer max and min bit for bit, against eager and NumPy, with
tails, one-element rows, many rows, NaN and infinities; what stays eager
says why."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import pyasc
from pyasc import _fuse_kernel
from test_ascendc import assert_valid_cpp

F32 = np.float32
EPS = float(np.finfo(F32).eps)


@pytest.fixture(autouse=True)
def launch_every_size(monkeypatch):
    monkeypatch.setenv("PYASC_OP_FUSE_MIN", "0")


def _reducer(name, how, axis, keepdims):
    def body(x, y):
        return getattr(pyasc, how)(x * y - x, axis=axis, keepdims=keepdims)

    body.__name__ = name
    return pyasc.op(name=name, overwrite=True)(body)


def _axis(kind, ndim):
    return {"none": None, "last": -1, "all": tuple(range(ndim))}[kind]


def _bound(length):
    """The documented bound's factor for a float32 sum of ``length`` values:
    lanes of at most T (>= 256) tiles each, log2(T) <= 13 halvings, the
    per-block partials' combination, one rounding more."""
    blocks = max(_fuse_kernel.cores(), 2)
    return (math.ceil(length / 256) + 13 + math.ceil(math.log2(blocks)) + 2) * EPS


def _floats(shape, rng, specials):
    v = rng.standard_normal(shape).astype(F32) * F32(rng.choice([1e-3, 1.0, 1e3]))
    if specials and v.size:
        pick = rng.random(shape) < 0.02
        v[pick] = rng.choice(np.array([np.nan, np.inf, -np.inf], F32), int(pick.sum()))
    return v


shapes = st.one_of(
    st.tuples(st.integers(1, 20000)),
    st.tuples(st.integers(1, 40), st.integers(1, 700)),
    st.tuples(st.integers(1, 3), st.integers(1, 5), st.integers(1, 300)),
    st.tuples(st.integers(500, 3000), st.integers(1, 4)),  # many short rows
)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(shapes, st.sampled_from(["sum", "mean"]), st.sampled_from(["none", "last", "all"]),
       st.booleans(), st.booleans(), st.integers(0, 2**31))
def test_float_sum_and_mean_fused_within_the_bound(shape, how, axis_kind, keepdims, specials,
                                                    seed):
    rng = np.random.default_rng(seed)
    x, y = _floats(shape, rng, specials), _floats(shape, rng, False)
    axis = _axis(axis_kind, len(shape))
    op = _reducer("fzr_float", how, axis, keepdims)
    got = op(x, y).numpy()
    eager = op.fn(pyasc.asarray(x), pyasc.asarray(y)).numpy()
    with np.errstate(all="ignore"):
        v = x * y - x  # float32, rounded per operation as eager and the kernel do
        exact = v.astype(np.float64).sum(axis=axis, keepdims=keepdims)
        mags = np.abs(v.astype(np.float64)).sum(axis=axis, keepdims=keepdims)
    length = v.size if axis_kind != "last" or len(shape) == 1 else shape[-1]
    if how == "mean":
        exact, mags = exact / length, mags / length
    assert got.dtype == eager.dtype == np.float32 and got.shape == eager.shape == exact.shape
    finite = np.isfinite(exact)
    # NaN where the reference has one, the same infinities
    np.testing.assert_array_equal(np.isnan(got), np.isnan(exact))
    np.testing.assert_array_equal(got[~finite & ~np.isnan(exact)], exact[~finite & ~np.isnan(exact)])
    bound = _bound(length) * mags[finite] + np.finfo(F32).tiny
    assert np.all(np.abs(got[finite] - exact[finite]) <= bound)
    assert np.all(np.abs(eager[finite] - exact[finite]) <= bound)
    text = op.explain(x, y)
    assert f"then {how}:float32 fused" in text and "0 eager call" in text, text


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(shapes, st.sampled_from(["max", "min"]), st.sampled_from([np.int16, np.int32]),
       st.sampled_from(["none", "last", "all"]), st.booleans(), st.integers(0, 2**31))
def test_integer_max_and_min_fused_bit_for_bit(shape, how, dtype, axis_kind, keepdims, seed):
    rng = np.random.default_rng(seed)
    info = np.iinfo(dtype)
    x = rng.integers(info.min, info.max, shape, dtype=dtype, endpoint=True)
    y = rng.integers(-3, 4, shape, dtype=dtype)
    axis = _axis(axis_kind, len(shape))
    op = _reducer("fzr_int", how, axis, keepdims)
    got = op(x, y).numpy()
    eager = op.fn(pyasc.asarray(x), pyasc.asarray(y)).numpy()
    with np.errstate(all="ignore"):
        want = getattr(np, how)(x * y - x, axis=axis, keepdims=keepdims)  # wraps as eager
    assert got.dtype == eager.dtype == want.dtype
    np.testing.assert_array_equal(got, eager)
    np.testing.assert_array_equal(got, want)
    text = op.explain(x, y)
    assert f"then {how}:{np.dtype(dtype).name} fused" in text and "0 eager call" in text, text


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(shapes, st.sampled_from(["max", "min"]), st.sampled_from(["none", "last", "all"]),
       st.booleans(), st.booleans(), st.integers(0, 2**31))
def test_float_max_and_min_fused_propagate_nan(shape, how, axis_kind, keepdims, specials, seed):
    rng = np.random.default_rng(seed)
    x, y = _floats(shape, rng, specials), _floats(shape, rng, False)
    y[rng.random(shape) < 0.05] = F32(-0.0)  # signed zeros, and inf * 0 makes NaN
    axis = _axis(axis_kind, len(shape))
    op = _reducer("fzr_fmax", how, axis, keepdims)
    got = op(x, y).numpy()
    eager = op.fn(pyasc.asarray(x), pyasc.asarray(y)).numpy()
    with np.errstate(all="ignore"):
        want = getattr(np, how)(x * y - x, axis=axis, keepdims=keepdims)
    assert got.dtype == eager.dtype == want.dtype == np.float32
    np.testing.assert_array_equal(got, want)  # NaN where NumPy has one; equal values
    np.testing.assert_array_equal(got, eager)
    text = op.explain(x, y)
    assert f"then {how}:float32 fused" in text and "0 eager call" in text, text


def test_float_max_keeps_nan_and_the_sign_of_zero():
    @pyasc.op(name="fzr_nan", overwrite=True)
    def rowmax(x):
        return pyasc.max(x * 1.0, axis=-1)

    x = np.full((3, 200), -0.0, F32)
    x[1, 150] = np.nan
    x[2, 3] = -np.inf
    got = rowmax(x).numpy()
    assert np.signbit(got[0]) and got[0] == 0 and np.isnan(got[1]) and got[2] == -0.0, got


def test_row_results_are_written_per_row_and_the_kernel_is_reused():
    @pyasc.op(name="fzr_rows", overwrite=True)
    def rowdot(x, y):
        return (x * y).sum(axis=-1)

    rng = np.random.default_rng(3)
    x, y = (rng.standard_normal((300, 37)).astype(F32) for _ in range(2))
    got = rowdot(x, y).numpy()
    ref = (x * y).astype(np.float64).sum(-1)
    assert np.all(np.abs(got - ref) <= _bound(37) * np.abs(x * y).astype(np.float64).sum(-1))
    text = rowdot.explain(x, y)
    assert "over the last axis: one value per row of 37" in text, text
    x2, y2 = x[:100].copy(), y[:100].copy()  # a new shape: traced again, same kernel
    assert "memory" in rowdot.explain(x2, y2)
    np.testing.assert_array_equal(rowdot(x2, y2).numpy(), got[:100])


@pytest.mark.parametrize("body, args, reason", [
    (lambda x: (x + 1).sum(), (np.arange(5000, dtype=np.int32),), "int64"),
    (lambda x: pyasc.max(x * 2.0), (np.ones(5000, np.float16),), "float16 max"),
    (lambda x: pyasc.min(x * 2.0, axis=-1), (np.ones((50, 100), np.float16),), "float16 min"),
    (lambda x: (x * 2.0).sum(axis=0), (np.ones((50, 100), F32),), "last axis or all axes"),
    (lambda x: x.sum(), (np.ones(5000, F32),), "library call"),
    (lambda x: (x * 2.0).mean(axis=-1), (np.ones((50, 100), np.float16),), "mean"),
])
def test_reductions_that_stay_eager_say_why(body, args, reason):
    op = pyasc.op(name="fzr_eager", overwrite=True)(body)
    text = op.explain(*args)
    assert reason in text and "fused over" not in text, text
    got = op(*args).numpy()
    np.testing.assert_array_equal(got, body(*[pyasc.asarray(a) for a in args]).numpy())


def test_a_chain_value_used_elsewhere_keeps_a_reduction_of_short_rows_eager():
    @pyasc.op(name="fzr_shared", overwrite=True)
    def both(x):
        z = x * 2.0 + 1.0
        return z, z.sum(axis=-1)

    x = np.linspace(-1, 1, 5000, dtype=F32).reshape(50, 100)
    text = both.explain(x)
    assert "also used outside it and rows of 100" in text and "fused over" not in text, text
    z, s = both(x)
    np.testing.assert_array_equal(z.numpy(), x * F32(2) + F32(1))
    np.testing.assert_array_equal(s.numpy(), pyasc.asarray(x * F32(2) + F32(1)).sum(-1).numpy())


def test_ascendc_of_fused_reductions_is_valid_cpp():
    cases = [
        (lambda x, y, i: ((x - y) * (x - y)).sum(), "AscendC::Add"),
        (lambda x, y, i: (x * y).mean(axis=-1, keepdims=True), "AscendC::Add"),
        (lambda x, y, i: pyasc.max(i + 1, axis=-1), "AscendC::Max"),
        (lambda x, y, i: pyasc.min(x * y), "AscendC::Compare"),
    ]
    args = (np.ones((8, 64), F32), np.ones((8, 64), F32), np.ones((8, 64), np.int32))
    for body, api in cases:
        cpp = pyasc.op(name="fzr_cpp", overwrite=True)(body)
        assert "fused over" in cpp.explain(*args)
        src = cpp.ascendc(*args)
        assert api in src and "SetValue" in src, src
        assert_valid_cpp(src)


@pytest.mark.parametrize("how, dtype", [("sum", F32), ("mean", F32), ("max", np.int32),
                                        ("min", F32)])
def test_rows_longer_than_a_tile_with_broadcast_and_scalar_inputs(how, dtype):
    @pyasc.op(name="fzr_long", overwrite=True)
    def long_rows(x, row, s):
        return getattr(pyasc, how)((x - row) * s, axis=-1, keepdims=True)

    rng = np.random.default_rng(5)
    x = rng.integers(-100, 100, (3, 20001)).astype(dtype)
    row = rng.integers(-100, 100, 20001).astype(dtype)
    got = long_rows(x, row, 3).numpy()
    v = (x - row) * dtype(3)
    text = long_rows.explain(x, row, 3)
    assert f"then {how}:{np.dtype(dtype).name} fused" in text and "eager copy first" in text, text
    if how in ("max", "min"):
        np.testing.assert_array_equal(got, getattr(np, how)(v, axis=-1, keepdims=True))
    else:  # sum|v| < 2**24: every partial sum is an exact float32 integer
        want = v.astype(np.float64).sum(-1, keepdims=True)
        np.testing.assert_array_equal(got, (want / 20001).astype(F32) if how == "mean" else want)


def test_small_reductions_run_eagerly_and_equal_eager(monkeypatch):
    monkeypatch.setenv("PYASC_OP_FUSE_MIN", "4096")

    @pyasc.op(name="fzr_small", overwrite=True)
    def small(x):
        return (x * 2.0 + 1.0).sum(axis=-1)

    x = np.linspace(-3, 3, 300, dtype=F32).reshape(3, 100)
    assert "not launched" in small.explain(x)
    np.testing.assert_array_equal(small(x).numpy(), small.fn(pyasc.asarray(x)).numpy())
