"""Comparisons fused into kernels (docs/op-compiler.md): bool results from
compare, select and a cast to bytes, against eager and NumPy, NaN and
infinities included; what stays eager says why."""

from __future__ import annotations

import operator

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import pyasc

CMP = {"lt": operator.lt, "le": operator.le, "gt": operator.gt, "ge": operator.ge,
       "eq": operator.eq, "ne": operator.ne}


@pytest.fixture(autouse=True)
def launch_every_size(monkeypatch):
    monkeypatch.setenv("PYASC_OP_FUSE_MIN", "0")


def _op(name, cmp, const, scalar_first):
    def body(x, y):
        z = x * 2 + y
        if const is None:
            return cmp(z, y)
        return cmp(const, z) if scalar_first else cmp(z, const)

    body.__name__ = "fzc_case"
    return pyasc.op(name="fzc_case", overwrite=True)(body)


def _values(dtype, n, seed):
    rng = np.random.default_rng(seed)
    if np.dtype(dtype).kind == "f":
        v = rng.integers(-4, 4, n).astype(dtype) / 2  # ties on purpose
        specials = np.array([np.nan, np.inf, -np.inf, -0.0], dtype)
        pick = rng.random(n) < 0.1
        v[pick] = rng.choice(specials, int(pick.sum()))
        return v
    return rng.integers(-4, 4, n).astype(dtype)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(list(CMP)), st.sampled_from([np.float16, np.float32, np.int16, np.int32]),
       st.integers(0, 300), st.sampled_from([None, 1, -2]), st.booleans(),
       st.integers(0, 2**31))
def test_comparisons_fused_eager_numpy(name, dtype, n, const, scalar_first, seed):
    op = _op(name, CMP[name], const, scalar_first)
    x, y = _values(dtype, n, seed), _values(dtype, n, seed + 1)
    got = op(x, y).numpy()
    eager = op.fn(pyasc.asarray(x), pyasc.asarray(y)).numpy()
    with np.errstate(all="ignore"):
        z = x * dtype(2) + y
        want = CMP[name](z, y) if const is None else (
            CMP[name](dtype(const), z) if scalar_first else CMP[name](z, dtype(const)))
    assert got.dtype == np.bool_ and eager.dtype == np.bool_
    np.testing.assert_array_equal(got, eager)
    np.testing.assert_array_equal(got, want)
    text = op.explain(x, y)
    assert "1 fused kernel" in text and "0 eager call" in text, text


def test_comparison_feeds_a_fused_where():
    @pyasc.op(name="fzc_where", overwrite=True)
    def clipped(x, y):
        return pyasc.where(x > y, x, y * 0.5)

    x, y = _values(np.float32, 200, 1), _values(np.float32, 200, 2)
    got = clipped(x, y).numpy()
    np.testing.assert_array_equal(got, clipped.fn(pyasc.asarray(x), pyasc.asarray(y)).numpy())
    with np.errstate(all="ignore"):
        np.testing.assert_array_equal(got, np.where(x > y, x, y * np.float32(0.5)))
    text = clipped.explain(x, y)
    assert "greater:bool" in text and "where:float32" in text and "0 eager" in text, text


PICKS = {"x": lambda x, y: x, "y": lambda x, y: y, "one": lambda x, y: 1.0,
         "neg": lambda x, y: -2}


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from([np.float16, np.float32]), st.integers(0, 300),
       st.sampled_from(list(PICKS)), st.sampled_from(list(PICKS)), st.booleans(),
       st.integers(0, 2**31))
def test_where_fused_eager_numpy(dtype, n, first, second, given_cond, seed):
    def body(x, y, c):
        cond = c if given_cond else x <= y
        return pyasc.where(cond, PICKS[first](x, y), PICKS[second](x, y)) * 2

    op = pyasc.op(name="fzc_where_case", overwrite=True)(body)
    x, y = _values(dtype, n, seed), _values(dtype, n, seed + 1)
    c = np.random.default_rng(seed).random(n) < 0.5
    got = op(x, y, c).numpy()
    eager = op.fn(pyasc.asarray(x), pyasc.asarray(y), pyasc.asarray(c)).numpy()
    np.testing.assert_array_equal(got, eager)
    cond = c if given_cond else x <= y
    pick = {"x": x, "y": y, "one": dtype(1.0), "neg": dtype(-2)}
    with np.errstate(all="ignore"):
        want = np.where(cond, pick[first], pick[second]).astype(dtype) * dtype(2)
    np.testing.assert_array_equal(got, want)
    if "x" in (first, second) or "y" in (first, second):
        assert "0 eager call" in op.explain(x, y, c)


@pytest.mark.parametrize("xdt,cshape,why", [
    (np.int32, (20,), "where on int32: select takes float16 and float32"),
    (np.float64, (20,), "no float64 vector instructions"),
    (np.float32, (1,), "the condition is broadcast"),
])
def test_where_that_stays_eager_says_why(xdt, cshape, why):
    @pyasc.op(name="fzc_where_eager", overwrite=True)
    def pick(x, c):
        return pyasc.where(c, x, x * 3)

    x = np.arange(20).astype(xdt)
    c = np.arange(int(np.prod(cshape))).reshape(cshape) % 2 == 0
    np.testing.assert_array_equal(pick(x, c).numpy(), np.where(c, x, x * 3))
    text = pick.explain(x, c)
    assert "eager where" in text and why in text, text


def test_comparison_results_and_values_leave_one_kernel():
    @pyasc.op(name="fzc_both", overwrite=True)
    def both(x):
        z = x - 1
        return z, z != 0

    x = np.arange(-70, 70, dtype=np.int16)
    z, mask = both(x)
    np.testing.assert_array_equal(z.numpy(), x - 1)
    np.testing.assert_array_equal(mask.numpy(), x != 1)
    assert "1 fused kernel" in both.explain(x)


@pytest.mark.parametrize("xdt,ydt,const,why", [
    (np.float16, np.float32, None, "operands of two dtypes"),
    (np.int32, np.int32, 0.5, "promotes the comparison"),
    (np.float64, np.float64, None, "no float64 vector instructions"),
])
def test_comparisons_that_stay_eager_say_why(xdt, ydt, const, why):
    @pyasc.op(name="fzc_eager", overwrite=True)
    def cmp(x, y):
        return (x < y) if const is None else (x < const)

    x, y = np.arange(20).astype(xdt), np.arange(20)[::-1].astype(ydt)
    got = cmp(x, y).numpy()
    np.testing.assert_array_equal(got, (x < y) if const is None else (x < const))
    text = cmp.explain(x, y)
    assert "eager less" in text and why in text, text


@pytest.mark.parametrize("shape,other", [((300,), ()), ((300,), (1,)), ((6, 32), (32,)),
                                         ((6, 32), (6, 1)), ((5, 20), (5, 1))])
@pytest.mark.parametrize("dtype", [np.float16, np.int32])
def test_comparisons_with_broadcast_operands(shape, other, dtype):
    @pyasc.op(name="fzc_bcast", overwrite=True)
    def ge(x, y):
        return x >= y

    x = _values(dtype, int(np.prod(shape)), 3).reshape(shape)
    y = _values(dtype, int(np.prod(other)), 4).reshape(other)
    got = ge(x, y).numpy()
    np.testing.assert_array_equal(got, ge.fn(pyasc.asarray(x), pyasc.asarray(y)).numpy())
    np.testing.assert_array_equal(got, x >= y)
    assert "1 fused kernel" in ge.explain(x, y)
