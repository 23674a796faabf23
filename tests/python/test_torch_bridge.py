"""pyasc.torch: operators as torch.library ops (eager, gradcheck, opcheck,
fake tensors, torch.compile)."""

from __future__ import annotations

import pathlib
import sys

import numpy as np
import pytest

import pyasc
from pyasc.op import unregister

from framework_ops import drop_ops, make_ops, sample_inputs

torch = pytest.importorskip("torch")
import pyasc.torch as pt  # noqa: E402

NS = "pyasc_test"
NAMES = ["my_custom_op", "chain", "entropy", "linear_gelu"]


@pytest.fixture(scope="module")
def ops():
    made = make_ops("tb")
    yield made
    drop_ops(made)


@pytest.fixture(scope="module")
def tops(ops):
    return {k: v.to_torch(NS) for k, v in ops.items()}


@pytest.fixture
def clean_registry():
    before = set(pyasc.list_ops())
    yield
    for name in set(pyasc.list_ops()) - before:
        unregister(name)


def _inputs(name, seed=0, requires_grad=False):
    return [torch.from_numpy(a).requires_grad_(requires_grad)
            for a in sample_inputs(name, np.random.default_rng(seed))]


def test_schema_from_specs_and_attrs(ops, tops):
    assert pt.schema(ops["chain"]) == "(Tensor x, Tensor y, float alpha=0.5) -> Tensor"
    assert pt.schema(ops["linear_gelu"]) == "(Tensor x, Tensor w, Tensor b) -> Tensor"
    assert getattr(torch.ops, NS).tb_chain.default._schema.arguments[2].name == "alpha"


@pytest.mark.parametrize("name", NAMES)
def test_eager_values_match_pyasc(ops, tops, name):
    args = _inputs(name)
    out = tops[name](*args)
    assert isinstance(out, torch.Tensor)
    expected = ops[name](*[a.numpy() for a in args]).numpy()
    np.testing.assert_array_equal(out.numpy(), expected)
    via_ops = getattr(getattr(torch.ops, NS), f"tb_{name}")(*args)
    np.testing.assert_array_equal(via_ops.numpy(), expected)


def test_attribute_by_keyword(ops, tops):
    x, y = _inputs("chain")
    np.testing.assert_array_equal(tops["chain"](x, y, alpha=2.0).numpy(),
                                  ops["chain"](x.numpy(), y.numpy(), alpha=2.0).numpy())


@pytest.mark.parametrize("name", NAMES)
def test_gradcheck_and_opcheck(tops, name):
    args = _inputs(name, requires_grad=True)
    assert torch.autograd.gradcheck(tops[name], tuple(args))
    torch.library.opcheck(tops[name], tuple(args))


def test_backward_matches_torch_reference(tops):
    x, w, b = _inputs("linear_gelu", requires_grad=True)
    tops["linear_gelu"](x, w, b).sum().backward()
    got = [t.grad.clone() for t in (x, w, b)]
    for t in (x, w, b):
        t.grad = None
    torch.nn.functional.gelu(x @ w + b).sum().backward()
    for g, t in zip(got, (x, w, b)):
        torch.testing.assert_close(g, t.grad, rtol=1e-10, atol=1e-12)


def test_fake_implementation_gives_shapes_and_dtypes(tops):
    x = torch.empty(6, 4, device="meta", dtype=torch.float32)
    w = torch.empty(4, 9, device="meta", dtype=torch.float32)
    b = torch.empty(9, device="meta", dtype=torch.float64)
    out = tops["linear_gelu"](x, w, b)
    assert out.device.type == "meta" and out.shape == (6, 9) and out.dtype == torch.float64
    e = tops["entropy"](x)
    assert e.shape == (6,) and e.dtype == torch.float32


def test_optional_input_and_every_attribute_type(clean_registry):
    @pyasc.op(name="tb_affine", attrs={"dtype": pyasc.Attr(pyasc.dtype, default=pyasc.float64)})
    def affine(x, b=None, dtype=pyasc.float64, scale=2.0, mode='a"b', twice=False, n=1):
        y = x.astype(dtype) * scale * n
        y = y * 2.0 if twice else y
        return y if b is None else y + b

    assert pt.schema(affine) == (
        '(Tensor x, Tensor? b=None, ScalarType? dtype=None, float scale=2.0, str mode="a\\"b", '
        "bool twice=False, int n=1) -> Tensor"
    )
    t = affine.to_torch(NS)
    x = torch.randn(3, dtype=torch.float64, requires_grad=True)
    b = torch.randn(3, dtype=torch.float64, requires_grad=True)
    torch.testing.assert_close(t(x), x * 2.0)
    torch.testing.assert_close(t(x, b, scale=3.0, twice=True, n=2), x * 12.0 + b)
    assert t(x, dtype=torch.float32).dtype == torch.float32
    assert torch.autograd.gradcheck(lambda x, b: t(x, b, scale=3.0), (x, b))
    assert torch.autograd.gradcheck(lambda x: t(x), (x,))
    torch.library.opcheck(t, (x,))
    torch.library.opcheck(t, (x, b), {"dtype": torch.float32, "mode": "q"})


def test_declared_backward_is_used(clean_registry):
    calls = []

    @pyasc.op(name="tb_square")
    def square(x):
        return x * x

    @square.setup_context
    def _(ctx, inputs, output):
        ctx.save_for_backward(inputs[0])

    @square.backward
    def _(ctx, g):
        calls.append(1)
        return g * 2.0 * ctx.saved_tensors[0]

    t = square.to_torch(NS)
    x = torch.randn(5, dtype=torch.float64, requires_grad=True)
    assert torch.autograd.gradcheck(t, (x,))
    assert calls
    torch.library.opcheck(t, (x,))


def test_result_that_aliases_an_input_is_copied(clean_registry):
    @pyasc.op(name="tb_ident")
    def ident(x):
        return x

    t = ident.to_torch(NS)
    x = torch.randn(3, dtype=torch.float64, requires_grad=True)
    out = t(x)
    assert out.data_ptr() != x.data_ptr()
    torch.testing.assert_close(out, x)
    torch.library.opcheck(t, (x,))


def test_zero_copy_both_ways():
    t = torch.arange(6, dtype=torch.float32).reshape(2, 3)
    p = pt.from_torch(t)
    t[0, 0] = 42.0
    assert p.numpy()[0, 0] == 42.0
    q = pyasc.ones((4,), dtype=pyasc.float64) * 3.0
    back = pt.to_torch(q)
    q[1] = 7.0
    assert back[1].item() == 7.0


def test_other_devices_are_refused():
    with pytest.raises(pyasc.UnsupportedError, match="meta.*host memory"):
        pt.from_torch(torch.empty(3, device="meta"))
    with pytest.raises(pyasc.DTypeError, match="complex32"):
        pt.from_torch(torch.zeros(2, dtype=torch.complex32))


def test_errors_reach_the_torch_caller(tops):
    with pytest.raises(pyasc.InvalidValueError, match="K=4"):
        tops["linear_gelu"](torch.zeros(2, 4, dtype=torch.float64),
                            torch.zeros(3, 5, dtype=torch.float64),
                            torch.zeros(5, dtype=torch.float64))


def test_registration_rules(ops, tops, clean_registry):
    assert ops["chain"].to_torch(NS) is tops["chain"]

    @pyasc.op(name="tb_chain", overwrite=True)
    def other(x):
        return x

    with pytest.raises(pyasc.InvalidValueError, match="another operator"):
        other.to_torch(NS)
    with pytest.raises(pyasc.InvalidValueError, match="namespace"):
        ops["chain"].to_torch("not a name")

    @pyasc.op(name="tb_two", outputs=("a", "b"))
    def two(x):
        return x, x

    with pytest.raises(pyasc.UnsupportedError, match="one output"):
        two.to_torch(NS)


# --- a @pyasc.jit kernel as an operator ------------------------------------------------

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[2] / "examples"))


def test_jit_kernel_operator_with_declared_outputs(clean_registry):
    from vadd import USE_CORE_NUM, vadd_kernel

    spec = pyasc.TensorSpec(dtypes=(pyasc.float32,), shape=("N",))

    @pyasc.op(name="tb_kernel_add", inputs={"x": spec, "y": spec}, outputs={"z": spec})
    def kernel_add(x, y):
        z = pyasc.empty_like(x)
        vadd_kernel[USE_CORE_NUM, pyasc.current_stream()](x, y, z, x.size // USE_CORE_NUM)
        return z

    @kernel_add.backward
    def _(ctx, g):
        return g, g

    t = kernel_add.to_torch(NS)
    x = torch.rand(2048, requires_grad=True)
    y = torch.rand(2048, requires_grad=True)
    out = t(x, y)
    torch.testing.assert_close(out, x + y, rtol=0, atol=0)
    out.sum().backward()
    assert torch.equal(x.grad, torch.ones(2048)) and torch.equal(y.grad, torch.ones(2048))
    meta = t(torch.empty(1024, device="meta"), torch.empty(1024, device="meta"))
    assert meta.shape == (1024,) and meta.dtype == torch.float32
    torch.library.opcheck(t, (x, y))

    # without a declared backward, nothing records the kernel: a clear error
    @pyasc.op(name="tb_kernel_add2", inputs={"x": spec, "y": spec}, outputs={"z": spec})
    def kernel_add2(x, y):
        return kernel_add.fn(x, y)

    out = kernel_add2.to_torch(NS)(x, y)
    with pytest.raises(pyasc.UnsupportedError, match="does not record"):
        out.sum().backward()


# --- torch.compile -------------------------------------------------------------------


@pytest.mark.slow
def test_compiled_model_trains_like_eager(tops):
    class Model(torch.nn.Module):
        def __init__(self):
            super().__init__()
            g = torch.Generator().manual_seed(0)
            self.w = torch.nn.Parameter(torch.randn(4, 5, generator=g, dtype=torch.float64) * 0.5)
            self.b = torch.nn.Parameter(torch.zeros(5, dtype=torch.float64))
            self.y = torch.nn.Parameter(torch.randn(5, generator=g, dtype=torch.float64) * 0.1)

        def forward(self, x):
            h = tops["linear_gelu"](x, self.w, self.b)
            h = tops["chain"](h, self.y, alpha=0.7)
            h = tops["my_custom_op"](h, h)
            return tops["entropy"](h).mean()

    def train(model, step):
        opt = torch.optim.SGD(model.parameters(), lr=0.1)
        x = torch.randn(8, 4, generator=torch.Generator().manual_seed(1), dtype=torch.float64)
        losses = []
        for _ in range(20):
            opt.zero_grad()
            loss = step(x)
            loss.backward()
            opt.step()
            losses.append(loss.item())
        return losses

    eager_model = Model()
    eager = train(eager_model, eager_model)
    compiled_model = Model()
    compiled = train(compiled_model, torch.compile(compiled_model, fullgraph=True))
    assert eager[-1] < eager[0]  # it learns
    np.testing.assert_allclose(compiled, eager, rtol=1e-12, atol=0)


def test_work_on_another_stream_is_complete_when_the_op_returns(clean_registry, stream_pair):
    side, _ = stream_pair

    @pyasc.op(name="tb_side_stream")
    def on_side(x):
        with pyasc.stream(side):
            return pyasc.sqrt(pyasc.exp(x) * 3.0 + 1.0)

    t = on_side.to_torch(NS)
    x = torch.rand(1 << 22, dtype=torch.float32)
    # float64 maths, not torch's float32 kernels: torch 2.13's first
    # multi-threaded exp in a process can differ by 6e-5 on its second thread
    expected = torch.from_numpy(
        np.sqrt(np.exp(x.numpy().astype(np.float64)) * 3.0 + 1.0).astype(np.float32))
    for _ in range(3):
        got = t(x).clone()  # read at once, before the side stream could catch up
        torch.testing.assert_close(got, expected)
