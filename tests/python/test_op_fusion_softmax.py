"""A reduction whose chain values also leave the kernel, and per-row inputs
of last-axis reductions (docs/op-compiler.md): softmax written by hand in
``@pyasc.op`` fuses ``exp(x - m)`` and its row sum into one kernel that
also writes ``exp(x - m)``. The written values equal eager's bit for bit;
the sums keep the documented bound against a float64 reference; what
cannot fuse this way says why and equals eager."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import pyasc
from test_ascendc import assert_valid_cpp
from test_op_fusion_reduce import EPS, _bound

F32 = np.float32


@pytest.fixture(autouse=True)
def launch_every_size(monkeypatch):
    monkeypatch.setenv("PYASC_OP_FUSE_MIN", "0")


@pyasc.op(name="fzs_softmax", overwrite=True)
def softmax(x):
    m = x.max(axis=-1, keepdims=True)
    e = pyasc.exp(x - m)
    return e / e.sum(axis=-1, keepdims=True)


@pyasc.op(name="fzs_parts", overwrite=True)
def softmax_parts(x):
    m = x.max(axis=-1, keepdims=True)
    e = pyasc.exp(x - m)
    s = e.sum(axis=-1, keepdims=True)
    return e, s, e / s


def _eager(op, *args):
    return op.fn(*[pyasc.asarray(a) for a in args])


@pytest.mark.parametrize("shape", [(64, 128), (300, 256), (7, 1024), (3, 9088), (2, 50, 384),
                                   (5, 8192)])
def test_softmax_fuses_the_row_sum_and_keeps_the_bound(shape):
    rng = np.random.default_rng(sum(shape))
    x = (rng.standard_normal(shape) * 4).astype(F32)
    text = softmax_parts.explain(x)
    assert "2 fused kernel(s), 1 eager call(s)" in text, text
    assert "then sum:float32 fused over the last axis" in text, text
    assert "one value per row, read once per row as a scalar" in text, text
    e, s, r = (t.numpy() for t in softmax_parts(x))
    e_eager, _, _ = (t.numpy() for t in _eager(softmax_parts, x))
    np.testing.assert_array_equal(e, e_eager)  # the same operations, written by the kernel
    exact = e.astype(np.float64).sum(-1, keepdims=True)  # e > 0: sum|e| is the sum
    assert np.all(np.abs(s - exact) <= _bound(shape[-1]) * exact)
    want = e.astype(np.float64) / exact
    assert np.all(np.abs(r - want) <= (_bound(shape[-1]) + 2 * EPS) * want + 1e-45)
    np.testing.assert_array_equal(softmax(x).numpy(), r)


def test_softmax_matches_the_float64_softmax():
    rng = np.random.default_rng(11)
    x = (rng.standard_normal((256, 512)) * 10).astype(F32)
    got = softmax(x).numpy()
    x64 = x.astype(np.float64)
    d = x64 - x64.max(-1, keepdims=True)
    ref = np.exp(d) / np.exp(d).sum(-1, keepdims=True)
    # x - m rounded once (relative error eps |d| after exp), exp within
    # 1 ulp, the sum's bound, one division
    rtol = _bound(512) + 8 * EPS + 2 * EPS * np.abs(d)
    assert np.all(np.abs(got - ref) <= rtol * ref + 1e-45)
    np.testing.assert_allclose(got.sum(-1), 1.0, rtol=0, atol=1e-5)


def test_rows_that_are_not_whole_tiles_keep_the_sum_eager_and_equal_eager():
    x = np.random.default_rng(2).standard_normal((40, 200)).astype(F32)
    text = softmax.explain(x)
    assert "rows of 200 elements are not a multiple of 128" in text, text
    assert "fused over" not in text, text
    np.testing.assert_array_equal(softmax(x).numpy(), _eager(softmax, x).numpy())


def test_nan_and_infinite_rows_propagate_as_in_eager():
    x = np.random.default_rng(4).standard_normal((6, 256)).astype(F32)
    x[1, 7] = np.nan
    x[2, 100] = np.inf
    x[3, :] = -np.inf
    x[4, 3] = -np.inf
    got = softmax_parts(x)
    want = _eager(softmax_parts, x)
    for g, w in zip(got, want):
        g, w = g.numpy(), w.numpy()
        np.testing.assert_array_equal(np.isnan(g), np.isnan(w))
        np.testing.assert_allclose(g[~np.isnan(g)], w[~np.isnan(w)], rtol=_bound(256) + 2 * EPS,
                                   atol=0)
    assert np.isnan(got[2].numpy()[1]).all() and got[2].numpy()[4, 3] == 0.0


def test_chain_values_leave_an_all_axes_reduction_kernel():
    @pyasc.op(name="fzs_all", overwrite=True)
    def both(x):
        z = x * 2.0 + 1.0
        return z, z.sum()

    for shape in [(5000,), (37, 300)]:
        x = np.linspace(-1, 1, int(np.prod(shape)), dtype=F32).reshape(shape)
        text = both.explain(x)
        assert "1 fused kernel(s), 0 eager call(s)" in text and "over all axes" in text, text
        z, s = both(x)
        want = x * F32(2) + F32(1)
        np.testing.assert_array_equal(z.numpy(), want)
        w64 = want.astype(np.float64)
        assert abs(float(s.numpy()) - w64.sum()) <= _bound(want.size) * np.abs(w64).sum()


def test_a_bool_value_and_a_sum_leave_one_kernel():
    @pyasc.op(name="fzs_mask", overwrite=True)
    def mask_and_sum(x):
        z = x * 2.0
        return z > 1.0, z.sum(axis=-1)

    x = np.random.default_rng(6).standard_normal((33, 256)).astype(F32)
    text = mask_and_sum.explain(x)
    assert "1 fused kernel(s), 0 eager call(s)" in text, text
    mask, s = mask_and_sum(x)
    assert mask.dtype == pyasc.bool_
    np.testing.assert_array_equal(mask.numpy(), x * F32(2) > 1)
    z64 = (x * F32(2)).astype(np.float64)
    assert np.all(np.abs(s.numpy() - z64.sum(-1)) <= _bound(256) * np.abs(z64).sum(-1))


@pytest.mark.parametrize("m_shape, kind", [((4, 30, 1), "one value per row"),
                                           ((1, 30, 1), "eager copy first"),
                                           ((4, 1, 1), "one value per row")])
def test_per_row_inputs_of_three_dimensional_rows(m_shape, kind):
    @pyasc.op(name="fzs_3d", overwrite=True)
    def centred(x, m):
        return ((x - m) * 3.0).sum(axis=-1)

    rng = np.random.default_rng(8)
    x = rng.integers(-50, 50, (4, 30, 256)).astype(F32)
    m = rng.integers(-50, 50, m_shape).astype(F32)
    text = centred.explain(x, m)
    assert kind in text and "fused over the last axis" in text, text
    # small integers: every partial sum is exact, so the result is exact
    want = ((x - m) * F32(3)).astype(np.float64).sum(-1)
    np.testing.assert_array_equal(centred(x, m).numpy(), want)


def test_a_per_row_input_of_another_dtype_is_expanded():
    @pyasc.op(name="fzs_mixed", overwrite=True)
    def mixed(x, m):
        return pyasc.exp(x - m).sum(axis=-1)

    rng = np.random.default_rng(9)
    x = rng.standard_normal((16, 256)).astype(F32)
    m = rng.standard_normal((16, 1)).astype(np.float16)
    text = mixed.explain(x, m)
    assert "eager copy first" in text and "fused over the last axis" in text, text
    v = _eager(mixed, x, m)
    e = np.exp(x.astype(np.float64) - m.astype(np.float64))
    assert np.all(np.abs(mixed(x, m).numpy() - e.sum(-1)) <= (_bound(256) + 4 * EPS) * e.sum(-1))
    assert v.shape == (16,)


def test_ascendc_of_the_fused_softmax_is_valid_cpp():
    x = np.ones((8, 256), F32)
    src = softmax.ascendc(x)
    assert "GetValue(pyasc_floordiv(seg_start, 256))" in src, src
    assert src.count("AscendC::DataCopy(out0_gm[offset]") == 2, src  # e, then e / s
    assert_valid_cpp(src)


_STEPS = ["add_y", "sub_m", "mul_m", "div_m", "mul_c", "exp", "abs", "neg", "max_y"]


def _apply(step, v, y, m, lib):
    """One step of a random chain, on pyasc values or on NumPy float32."""
    if step == "add_y":
        return v + y
    if step == "sub_m":
        return v - m
    if step == "mul_m":
        return v * m
    if step == "div_m":
        return v / m
    if step == "mul_c":
        return v * 0.75
    if step == "exp":
        return lib.exp(v * 0.125)
    if step == "abs":
        return abs(v)
    if step == "neg":
        return -v
    return lib.maximum(v, y)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.sampled_from(_STEPS), min_size=1, max_size=6),
       st.sampled_from(["sum", "max", "min"]), st.sampled_from([-1, None]),
       st.sampled_from([(3, 128), (20, 256), (2, 3, 384), (4, 200), (5000,)]),
       st.integers(0, 2**31))
def test_random_chains_leave_their_values_and_reduce(steps, how, axis, shape, seed):
    """Every value of a random chain leaves the kernel as well as feeding its
    reduction: the values equal eager's bit for bit, max and min too, sums
    keep the documented bound."""
    def body(x, y, m):
        vals, v = [], x
        for step in steps:
            v = _apply(step, v, y, m, pyasc)
            vals.append(v)
        vals.append(v * 2.0)  # reads the reduced value before the reduction does
        return (*vals, getattr(v, how)(axis=axis))

    op = pyasc.op(name="fzs_random", overwrite=True)(body)
    rng = np.random.default_rng(seed)
    x = rng.standard_normal(shape).astype(F32)
    y = rng.standard_normal(shape).astype(F32)
    m = (rng.random(shape[:-1] + (1,)) + 0.5).astype(F32)
    got = op(x, y, m)
    want = op.fn(*(pyasc.asarray(a) for a in (x, y, m)))
    for g, w in zip(got[:-1], want[:-1]):
        np.testing.assert_array_equal(g.numpy(), w.numpy())
    red, red_eager = got[-1].numpy(), want[-1].numpy()
    if how != "sum":
        np.testing.assert_array_equal(red, red_eager)
    else:
        v = want[-3].numpy().astype(np.float64)
        exact, mags = v.sum(axis=axis), np.abs(v).sum(axis=axis)
        length = v.shape[-1] if axis == -1 and v.ndim > 1 else v.size
        assert np.all(np.abs(red - exact) <= _bound(length) * mags + 1e-30)
    text = op.explain(x, y, m)
    fusible = shape[-1] % 128 == 0 or axis is None or len(shape) == 1
    assert ("fused over" in text) == fusible, text
