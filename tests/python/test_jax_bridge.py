"""pyasc.jax: operators as functions of JAX arrays, under jax.jit and jax.grad."""

from __future__ import annotations

import numpy as np
import pytest

import pyasc
from pyasc.op import unregister

from framework_ops import drop_ops, make_ops, numerical_grad, sample_inputs

jax = pytest.importorskip("jax")
jnp = jax.numpy


@pytest.fixture(scope="module", autouse=True)
def x64():
    before = jax.config.jax_enable_x64
    jax.config.update("jax_enable_x64", True)  # gradients are checked in float64
    yield
    jax.config.update("jax_enable_x64", before)


@pytest.fixture(scope="module")
def ops():
    made = make_ops("jb")
    yield made
    drop_ops(made)


@pytest.fixture
def clean_registry():
    before = set(pyasc.list_ops())
    yield
    for name in set(pyasc.list_ops()) - before:
        unregister(name)


NAMES = ["my_custom_op", "chain", "entropy", "linear_gelu"]


@pytest.mark.parametrize("name", NAMES)
def test_jit_and_grad_match_pyasc_and_finite_differences(ops, name):
    op = ops[name]
    f = op.to_jax()
    args = sample_inputs(name, np.random.default_rng(0))
    expected = op(*args).numpy()
    np.testing.assert_array_equal(np.asarray(f(*args)), expected)
    out = jax.jit(f)(*[jnp.asarray(a) for a in args])
    assert out.dtype == jnp.float64
    np.testing.assert_array_equal(np.asarray(out), expected)
    w = np.random.default_rng(1).standard_normal(expected.shape)
    loss = jax.jit(jax.grad(lambda *xs: jnp.sum(f(*xs) * w), argnums=tuple(range(len(args)))))
    grads = loss(*[jnp.asarray(a) for a in args])
    for i, g in enumerate(grads):
        fd = numerical_grad(lambda *xs: op(*xs).numpy() * w, args, i)
        np.testing.assert_allclose(np.asarray(g), fd, rtol=1e-6, atol=1e-7)


def test_matches_a_jnp_reference(ops):
    f = ops["linear_gelu"].to_jax()
    x, w, b = (jnp.asarray(a) for a in sample_inputs("linear_gelu", np.random.default_rng(3)))

    def ref(x, w, b):
        return jax.nn.gelu(x @ w + b, approximate=False)

    np.testing.assert_allclose(np.asarray(f(x, w, b)), np.asarray(ref(x, w, b)), rtol=1e-12)
    g = jax.grad(lambda *a: jnp.sum(f(*a) ** 2), argnums=(0, 1, 2))(x, w, b)
    r = jax.grad(lambda *a: jnp.sum(ref(*a) ** 2), argnums=(0, 1, 2))(x, w, b)
    for a, e in zip(g, r):
        np.testing.assert_allclose(np.asarray(a), np.asarray(e), rtol=1e-10, atol=1e-12)


def test_attributes_are_static(ops):
    f = ops["chain"].to_jax()
    x, y = (jnp.asarray(a) for a in sample_inputs("chain", np.random.default_rng(4)))
    a = jax.jit(f, static_argnames="alpha")(x, y, alpha=2.0)
    np.testing.assert_array_equal(
        np.asarray(a), ops["chain"](np.asarray(x), np.asarray(y), alpha=2.0).numpy())
    with pytest.raises(pyasc.InvalidValueError, match="alpha"):
        f(x, y, alpha=-1.0)  # the Attr's min=0.0


def test_float32_and_declared_backward(clean_registry):
    calls = []

    @pyasc.op(name="jb_square")
    def square(x):
        return x * x

    @square.backward
    def _(ctx, g):
        calls.append(1)
        return g * 2.0 * ctx.inputs["x"]

    f = square.to_jax()
    x = jnp.arange(4, dtype=jnp.float32)
    g = jax.jit(jax.grad(lambda x: jnp.sum(f(x))))(x)
    assert g.dtype == jnp.float32
    np.testing.assert_array_equal(np.asarray(g), 2 * np.arange(4))
    assert calls == [1]


def test_integer_input_gets_no_gradient(clean_registry):
    @pyasc.op(name="jb_scale")
    def scale(x, n):
        return x * n

    f = scale.to_jax()
    g = jax.grad(lambda x: jnp.sum(f(x, jnp.arange(3))))(jnp.ones(3))
    np.testing.assert_array_equal(np.asarray(g), [0, 1, 2])


def test_missing_input_is_an_error(ops):
    with pytest.raises(pyasc.DTypeError, match="missing"):
        ops["chain"].to_jax()(jnp.ones(3))


def test_work_on_another_stream_is_complete_when_the_call_returns(clean_registry, stream_pair):
    side, _ = stream_pair

    @pyasc.op(name="jb_side_stream")
    def on_side(x):
        with pyasc.stream(side):
            return pyasc.sqrt(pyasc.exp(x) * 3.0 + 1.0)

    f = on_side.to_jax()
    x = np.random.default_rng(0).random(1 << 22, dtype=np.float32)
    expected = np.sqrt(np.exp(x) * np.float32(3.0) + np.float32(1.0))
    for _ in range(3):
        np.testing.assert_allclose(np.asarray(f(x)), expected, rtol=1e-6)
