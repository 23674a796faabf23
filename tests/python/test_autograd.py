"""pyasc.trace, pyasc.autograd: recorded graphs, pyasc.grad / pyasc.vjp, and
operators' backwards, checked against central differences in float64."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest

import pyasc
from pyasc import exp as imported_exp  # a C function imported by name
from pyasc.autograd import VJP
from pyasc.op import unregister
from pyasc.trace import OPS, Graph, trace

from framework_ops import drop_ops, make_ops, numerical_grad, sample_inputs


@pytest.fixture(scope="module")
def ops():
    made = make_ops("ag")
    yield made
    drop_ops(made)


@pytest.fixture
def clean_registry():
    before = set(pyasc.list_ops())
    yield
    for name in set(pyasc.list_ops()) - before:
        unregister(name)


def _loss_weights(out_shape, seed=1):
    return np.random.default_rng(seed).standard_normal(out_shape)


# --- the four operators: pyasc.grad against central differences ---------------------


@pytest.mark.parametrize("name", ["my_custom_op", "chain", "entropy", "linear_gelu"])
def test_operator_gradients_match_finite_differences(ops, name):
    op = ops[name]
    args = sample_inputs(name, np.random.default_rng(0))
    out_shape = op(*args).shape
    w = pyasc.asarray(_loss_weights(out_shape))

    def loss(*xs):
        return pyasc.sum(op(*xs) * w)

    grads = pyasc.grad(loss, argnums=tuple(range(len(args))))(*args)
    assert len(grads) == len(args)
    for i, g in enumerate(grads):
        assert g.shape == args[i].shape and g.dtype == pyasc.float64
        expected = numerical_grad(lambda *xs: (op(*xs) * w).numpy(), args, i)
        np.testing.assert_allclose(g.numpy(), expected, rtol=1e-6, atol=1e-7)


def test_attribute_is_a_constant_of_the_graph(ops):
    x, y = sample_inputs("chain", np.random.default_rng(2))
    g1 = pyasc.grad(lambda x: ops["chain"](x, y, alpha=0.25).sum())(x)
    g2 = pyasc.grad(lambda x: ops["chain"](x, y, alpha=2.0).sum())(x)
    assert not np.allclose(g1.numpy(), g2.numpy())
    expected = numerical_grad(lambda x: ops["chain"](x, y, alpha=2.0).numpy(), [x], 0)
    np.testing.assert_allclose(g2.numpy(), expected, rtol=1e-6, atol=1e-7)


# --- every derivative rule of the table ---------------------------------------------

pos = "positive"
# op name -> (f(x, y), domain of x and y, eps): each exercises its rule on both
# operands where it has two.
RULE_CASES = {
    "add": (lambda x, y: x + y, None, 1e-6),
    "subtract": (lambda x, y: x - y * 2.0, None, 1e-6),
    "multiply": (lambda x, y: x * y, None, 1e-6),
    "divide": (lambda x, y: x / y, pos, 1e-6),
    "power": (lambda x, y: x**y, pos, 1e-6),
    "maximum": (lambda x, y: pyasc.maximum(x, y), None, 1e-6),
    "minimum": (lambda x, y: pyasc.minimum(x, y), None, 1e-6),
    "negative": (lambda x, y: -x, None, 1e-6),
    "positive": (lambda x, y: pyasc.positive(x) * y, None, 1e-6),
    "abs": (lambda x, y: pyasc.abs(x), None, 1e-6),
    "exp": (lambda x, y: imported_exp(x), None, 1e-6),
    "exp2": (lambda x, y: pyasc.exp2(x), None, 1e-6),
    "expm1": (lambda x, y: pyasc.expm1(x), None, 1e-6),
    "log": (lambda x, y: pyasc.log(x), pos, 1e-6),
    "log2": (lambda x, y: pyasc.log2(x), pos, 1e-6),
    "log1p": (lambda x, y: pyasc.log1p(x), pos, 1e-6),
    "sqrt": (lambda x, y: pyasc.sqrt(x), pos, 1e-6),
    "rsqrt": (lambda x, y: pyasc.rsqrt(x), pos, 1e-6),
    "sin": (lambda x, y: pyasc.sin(x), None, 1e-6),
    "cos": (lambda x, y: x.cos(), None, 1e-6),
    "tan": (lambda x, y: pyasc.tan(x * 0.5), None, 1e-6),
    "tanh": (lambda x, y: pyasc.tanh(x), None, 1e-6),
    "sigmoid": (lambda x, y: pyasc.sigmoid(x), None, 1e-6),
    "relu": (lambda x, y: pyasc.relu(x), None, 1e-6),
    "gelu": (lambda x, y: pyasc.gelu(x), None, 1e-6),
    "erf": (lambda x, y: pyasc.erf(x), None, 1e-6),
    "reciprocal": (lambda x, y: pyasc.reciprocal(x), pos, 1e-6),
    "where": (lambda x, y: pyasc.where(x > 0, x * 3.0, y), None, 1e-6),
    "clip": (lambda x, y: pyasc.clip(x, -0.5, y), None, 1e-6),
    "sum": (lambda x, y: pyasc.sum(x * y, axis=0), None, 1e-6),
    "mean": (lambda x, y: x.mean(axis=(0, 1), keepdims=True) * y, None, 1e-6),
    "prod": (lambda x, y: pyasc.prod(x, axis=1), pos, 1e-6),
    "var": (lambda x, y: pyasc.var(x, axis=1, ddof=1), None, 1e-6),
    "std": (lambda x, y: pyasc.std(x, axis=0), None, 1e-6),
    "max": (lambda x, y: pyasc.max(x, axis=1), None, 1e-6),
    "min": (lambda x, y: pyasc.amin(x), None, 1e-6),
    "softmax": (lambda x, y: pyasc.softmax(x, axis=0) * y, None, 1e-6),
    "log_softmax": (lambda x, y: pyasc.log_softmax(x) * y, None, 1e-6),
    "matmul": (lambda x, y: x @ y.T + x[0] @ y.T + (x @ y[1]), None, 1e-6),
    # through float32 and back: linear, so a large step is exact but for rounding
    "astype": (lambda x, y: x.astype(pyasc.float32).astype(pyasc.float64) * y, None, 1e-2),
    "reshape": (lambda x, y: x.reshape(4, 3) @ y, None, 1e-6),
    "transpose": (lambda x, y: x.transpose(1, 0) * y.T + x.T.sum(axis=1, keepdims=True), None, 1e-6),
    "expand": (lambda x, y: x[0:1].expand(3, 4) * y, None, 1e-6),
    "getitem": (lambda x, y: x[1:, ::2] * y[0, 1], None, 1e-6),
}


def test_every_rule_has_a_case():
    assert set(RULE_CASES) | {"op"} == set(VJP)
    assert set(VJP) - {"op"} <= set(OPS)


@pytest.mark.parametrize("name", sorted(RULE_CASES))
def test_rule_matches_finite_differences(name):
    f, domain, eps = RULE_CASES[name]
    rng = np.random.default_rng(abs(hash(name)) % 1000)
    x, y = rng.standard_normal((3, 4)), rng.standard_normal((3, 4))
    if domain == pos:
        x, y = np.abs(x) + 0.5, np.abs(y) + 0.5
    out = f(pyasc.asarray(x), pyasc.asarray(y))
    w = pyasc.asarray(_loss_weights(out.shape))
    gx, gy = pyasc.grad(lambda a, b: pyasc.sum(f(a, b) * w), argnums=(0, 1))(x, y)
    tol = 1e-5 if eps > 1e-6 else 1e-6
    for i, g in enumerate((gx, gy)):
        expected = numerical_grad(lambda a, b: (f(pyasc.asarray(a), pyasc.asarray(b)) * w).numpy(),
                                  [x, y], i, eps)
        np.testing.assert_allclose(g.numpy(), expected, rtol=tol, atol=tol)


def test_ties_share_the_cotangent():
    x = np.array([1.0, 3.0, 3.0, 2.0])
    np.testing.assert_array_equal(pyasc.grad(lambda x: pyasc.max(x))(x).numpy(), [0, 0.5, 0.5, 0])
    g = pyasc.grad(lambda x: pyasc.maximum(x, 3.0).sum())(x)
    np.testing.assert_array_equal(g.numpy(), [0, 0.5, 0.5, 0])


# --- grad and vjp conventions ---------------------------------------------------------


def test_vjp_tuple_outputs_and_cotangents():
    x, y = np.array([1.0, 2.0]), np.array([3.0, 5.0])
    (s, p), pullback = pyasc.vjp(lambda a, b: (a + b, a * b), x, y)
    np.testing.assert_array_equal(s.numpy(), [4, 7])
    np.testing.assert_array_equal(p.numpy(), [3, 10])
    gx, gy = pullback((np.ones(2), np.array([1.0, 2.0])))
    np.testing.assert_array_equal(gx.numpy(), [1 + 3, 1 + 10])
    np.testing.assert_array_equal(gy.numpy(), [1 + 1, 1 + 4])
    # the pullback runs again with other cotangents
    gx, _ = pullback((np.zeros(2), np.ones(2)))
    np.testing.assert_array_equal(gx.numpy(), y)


def test_vjp_checks_cotangents():
    _, pullback = pyasc.vjp(lambda a: a * 2.0, np.ones(3))
    with pytest.raises(pyasc.InvalidValueError, match="shape"):
        pullback(np.ones(4))
    _, pullback = pyasc.vjp(lambda a: (a, a), np.ones(3))
    with pytest.raises(pyasc.InvalidValueError, match="2 output"):
        pullback(np.ones(3))


def test_grad_argnums_and_errors():
    f = lambda a, b, c: pyasc.sum(a * b + c)  # noqa: E731
    a, b, c = np.array([1.0, 2.0]), np.array([3.0, 4.0]), np.array([5.0, 6.0])
    np.testing.assert_array_equal(pyasc.grad(f)(a, b, c).numpy(), b)
    gb, ga = pyasc.grad(f, argnums=(1, 0))(a, b, c)
    np.testing.assert_array_equal(gb.numpy(), a)
    np.testing.assert_array_equal(ga.numpy(), b)
    np.testing.assert_array_equal(pyasc.grad(f, argnums=-1)(a, b, c).numpy(), [1, 1])
    value, g = pyasc.value_and_grad(f)(a, b, c)
    assert value.item() == 1 * 3 + 2 * 4 + 11
    with pytest.raises(pyasc.InvalidValueError, match="one element"):
        pyasc.grad(lambda a: a * 2.0)(a)
    with pytest.raises(pyasc.InvalidValueError, match="out of range"):
        pyasc.grad(f, argnums=3)(a, b, c)
    with pytest.raises(pyasc.DTypeError, match="floating-point"):
        pyasc.grad(lambda a: pyasc.sum(a))(np.arange(3))


def test_input_that_does_not_reach_the_output_gets_zeros():
    g = pyasc.grad(lambda a, b: pyasc.sum(a), argnums=1)(np.ones(2), np.ones((2, 3)))
    np.testing.assert_array_equal(g.numpy(), np.zeros((2, 3)))
    g = pyasc.grad(lambda a: pyasc.sum((a > 0).astype(pyasc.float64)))(np.ones(2))
    np.testing.assert_array_equal(g.numpy(), [0, 0])


def _helper(x):
    return pyasc.tanh(x) * 2.0


def test_module_helpers_and_imported_names_are_recorded():
    g = pyasc.grad(lambda x: pyasc.sum(_helper(imported_exp(x))))(np.array([0.0, 1.0]))
    e = np.exp([0.0, 1.0])
    np.testing.assert_allclose(g.numpy(), 2 * (1 - np.tanh(e) ** 2) * e, rtol=1e-12)


def test_unrecordable_function_raises_instead_of_dropping_the_gradient():
    with pytest.raises(pyasc.UnsupportedError, match="does not record"):
        pyasc.grad(lambda x: pyasc.sum(pyasc.asarray(np.asarray(x))))(np.ones(2))
    with pytest.raises(pyasc.UnsupportedError, match="out="):
        pyasc.grad(lambda x: pyasc.sum(pyasc.exp(x, out=pyasc.zeros(2))))(np.ones(2))


# --- declared backwards ----------------------------------------------------------------


def test_declared_backward_is_used(clean_registry):
    calls = []

    @pyasc.op
    def square(x):
        return x * x

    @square.setup_context
    def _(ctx, inputs, output):
        ctx.save_for_backward(inputs[0])

    @square.backward
    def _(ctx, g):
        calls.append(1)
        (x,) = ctx.saved_tensors
        return g * 2.0 * x

    x = np.array([1.0, -2.0, 3.0])
    g = pyasc.grad(lambda x: pyasc.sum(square(x) * 3.0))(x)
    np.testing.assert_array_equal(g.numpy(), 6 * x)
    assert calls == [1]
    graph, _ = trace(lambda x: square(x) + 1.0, x)
    assert [n.op for n in graph.nodes] == ["op", "add"]


def test_backward_keyword_and_default_context(clean_registry):
    def back(ctx, g):
        assert set(ctx.inputs) == {"x", "y"} and ctx.attrs == {"k": 3.0}
        return g * ctx.attrs["k"], None

    @pyasc.op(backward=back)
    def scale(x, y, k=3.0):
        return x * k + y

    gx, gy = pyasc.grad(lambda x, y: pyasc.sum(scale(x, y)), argnums=(0, 1))(np.ones(2), np.ones(2))
    np.testing.assert_array_equal(gx.numpy(), [3, 3])
    np.testing.assert_array_equal(gy.numpy(), [0, 0])  # None: no gradient


def test_backward_with_wrong_arity_is_an_error(clean_registry):
    @pyasc.op(backward=lambda ctx, g: (g, g, g))
    def bad(x, y):
        return x + y

    with pytest.raises(pyasc.InvalidValueError, match="returned 3 gradient"):
        pyasc.grad(lambda x: pyasc.sum(bad(x, 1.0)))(np.ones(2))
    with pytest.raises(pyasc.DTypeError, match="callable"):
        bad.backward(3)


def test_operator_without_backward_is_recorded_through_its_body(ops):
    graph, out = trace(ops["my_custom_op"], np.ones(2), np.ones(2))
    assert [n.op for n in graph.nodes] == ["add", "multiply"]
    assert graph.nodes[1].inputs[1] == 2.0
    np.testing.assert_array_equal(out.data.numpy(), [4, 4])


# --- the graph ----------------------------------------------------------------------


def test_graph_nodes_and_text():
    graph, out = trace(lambda x, w: pyasc.sum(x @ w, axis=0), np.ones((2, 3)), np.ones((3, 4)))
    assert [n.op for n in graph.nodes] == ["matmul", "sum"]
    assert graph.nodes[0].shape == (2, 4) and graph.nodes[0].dtype == pyasc.float64
    assert graph.nodes[1].attrs == {"axis": 0}
    assert len(graph.inputs) == 2
    assert str(graph).splitlines() == [
        "graph(%0, %1):",
        "  %2 = matmul(%0, %1) : float64[2, 4]",
        "  %3 = sum(%2, axis=0) : float64[4]",
    ]


def test_meta_graph_has_shapes_and_dtypes_only(ops):
    graph = Graph(concrete=False)
    x = graph.input(shape=(7, 4), dtype=pyasc.float32)
    w = graph.input(shape=(4, 5), dtype=pyasc.float32)
    b = graph.input(shape=(5,), dtype=pyasc.float64)
    out = ops["linear_gelu"](x, w, b)
    assert out.shape == (7, 5) and out.dtype == pyasc.float64 and out.data is None
    e = ops["entropy"](x)
    assert e.shape == (7,) and e.dtype == pyasc.float32
    with pytest.raises(pyasc.UnsupportedError, match="concrete"):
        float(e.sum())
    # the operator's specs are checked on Values too
    with pytest.raises(pyasc.InvalidValueError, match="K=4"):
        ops["linear_gelu"](x, graph.input(shape=(3, 5), dtype=pyasc.float32), b)


def test_importing_pyasc_does_not_import_the_frameworks():
    code = ("import sys, pyasc; pyasc.torch.register, pyasc.jax.wrap; "
            "assert 'torch' not in sys.modules and 'jax' not in sys.modules, sorted(sys.modules)")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr


SCALE = 2.0


def _scaled(x):
    return x * SCALE


def test_traced_copy_reads_the_module_globals_at_each_use():
    global SCALE
    f = pyasc.grad(lambda x: pyasc.sum(_scaled(x)))
    np.testing.assert_array_equal(f(np.ones(2)).numpy(), [2, 2])
    SCALE = 5.0
    try:
        np.testing.assert_array_equal(f(np.ones(2)).numpy(), [5, 5])
    finally:
        SCALE = 2.0


def test_closure_names_are_recorded():
    tanh = pyasc.tanh  # a C function held by a closure cell

    def inner(x):
        return tanh(x)

    g = pyasc.grad(lambda x: pyasc.sum(inner(x)))(np.array([0.5]))
    np.testing.assert_allclose(g.numpy(), 1 - np.tanh(0.5) ** 2, rtol=1e-12)


def test_creation_like_a_tensor_is_a_constant():
    def f(x):
        return pyasc.sum(x * pyasc.full_like(x, 3.0) + pyasc.ones_like(x) + pyasc.zeros_like(x))

    graph, _ = trace(f, np.ones(3))
    assert [n.op for n in graph.nodes][:3] == ["full_like", "multiply", "ones_like"]
    np.testing.assert_array_equal(pyasc.grad(f)(np.ones(3)).numpy(), [3, 3, 3])
    meta = Graph(concrete=False)
    out = pyasc.trace.traceable(lambda x: pyasc.empty_like(x, dtype=pyasc.int8))(
        meta.input(shape=(2, 5), dtype=pyasc.float32))
    assert out.shape == (2, 5) and out.dtype == pyasc.int8
