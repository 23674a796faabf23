"""@pyasc.op: definition, registry, argument conversion and validation.

NumPy is the reference for the values operators compute; the validation
tests check the exception class and that the message names the operator,
the argument and the rule.
"""

from __future__ import annotations

import inspect
import pathlib
import pydoc
import sys

import numpy as np
import pytest

import pyasc
from pyasc.op import REQUIRED, Op, OpCall, unregister

ROOT = pathlib.Path(__file__).resolve().parents[2]


@pytest.fixture(autouse=True)
def clean_registry():
    """Operators a test registers are removed afterwards."""
    before = set(pyasc.list_ops())
    yield
    for name in set(pyasc.list_ops()) - before:
        unregister(name)


# --- the seed example ---------------------------------------------------------


def test_seed_example_in_process():
    @pyasc.op
    def my_custom_op(x, y):
        return (x + y) * 2.0

    x = pyasc.Tensor(np.array([1.0, 2.0, 3.0]))
    y = [4.0, 5.0, 6.0]
    z = my_custom_op(x, y)
    expected = (np.array([1.0, 2.0, 3.0]) + np.array(y)) * 2.0
    assert isinstance(z, pyasc.Tensor)
    assert z.dtype == pyasc.float64
    np.testing.assert_array_equal(z.numpy(), expected)
    np.testing.assert_array_equal(z.numpy(), [10.0, 14.0, 18.0])
    assert repr(z) == "Tensor([10., 14., 18.], dtype=float64)"


def test_quickstart_prints_the_computed_value(run_python):
    proc = run_python(str(ROOT / "examples" / "quickstart.py"), timeout=120)
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    expected = (np.array([1.0, 2.0, 3.0]) + np.array([4.0, 5.0, 6.0])) * 2
    assert lines[0] == str(expected)
    assert "from_numpy shares memory: True" in proc.stdout
    assert "deferred error reported at synchronize" in proc.stdout


# --- decorator forms and the registry -------------------------------------------


def test_bare_decorator_registers_under_function_name():
    @pyasc.op
    def twice(x):
        """Doubles x."""
        return x * 2

    assert isinstance(twice, Op)
    assert pyasc.ops.twice is twice
    assert pyasc.get_op("twice") is twice
    assert "twice" in pyasc.list_ops()
    assert "twice" in dir(pyasc.ops)
    assert pyasc.list_ops() == sorted(pyasc.list_ops())
    np.testing.assert_array_equal(pyasc.ops.twice(np.arange(3)).numpy(), np.arange(3) * 2)


def test_called_decorator_with_name():
    @pyasc.op()
    def plain(x):
        return x

    @pyasc.op(name="renamed_op")
    def original(x):
        return x + 1

    assert pyasc.ops.plain is plain
    assert pyasc.get_op("renamed_op") is original
    assert original.name == "renamed_op"
    assert "original" not in pyasc.list_ops()
    np.testing.assert_array_equal(pyasc.ops.renamed_op([1, 2]).numpy(), [2, 3])


def test_duplicate_name_is_an_error_unless_overwrite():
    @pyasc.op
    def dup_op(x):
        return x + 1

    with pytest.raises(pyasc.InvalidValueError, match="'dup_op' is already registered"):

        @pyasc.op(name="dup_op")
        def other(x):
            return x + 2

    assert pyasc.ops.dup_op is dup_op  # the failed definition changed nothing

    @pyasc.op(name="dup_op", overwrite=True)
    def replacement(x):
        return x + 3

    assert pyasc.ops.dup_op is replacement
    np.testing.assert_array_equal(pyasc.ops.dup_op([1]).numpy(), [4])


def test_unknown_names():
    with pytest.raises(AttributeError, match="no operator 'no_such_op'"):
        pyasc.ops.no_such_op  # noqa: B018
    with pytest.raises(pyasc.InvalidValueError, match="no_such_op"):
        pyasc.get_op("no_such_op")
    assert not hasattr(pyasc.ops, "no_such_op")
    with pytest.raises(pyasc.InvalidValueError):
        unregister("no_such_op")


def test_unregister_keeps_the_op_object_working():
    @pyasc.op
    def short_lived(x):
        return x - 1

    unregister("short_lived")
    assert "short_lived" not in pyasc.list_ops()
    np.testing.assert_array_equal(short_lived([5]).numpy(), [4])


@pytest.mark.parametrize("name", ["", "1abc", "has space", "_private", "class", "a-b", 3])
def test_bad_names(name):
    with pytest.raises(pyasc.InvalidValueError, match="identifier"):
        pyasc.op(name=name)(lambda x: x)


def test_lambda_needs_a_name():
    with pytest.raises(pyasc.InvalidValueError, match="lambda"):
        pyasc.op(lambda x: x)
    add_one = pyasc.op(name="add_one_lambda")(lambda x: x + 1)
    np.testing.assert_array_equal(add_one([1, 2]).numpy(), [2, 3])


def test_not_callable():
    with pytest.raises(pyasc.DTypeError, match="expected a function"):
        pyasc.op(42)


def test_pyasc_op_is_the_decorator_and_module_is_reachable():
    assert callable(pyasc.op)
    assert inspect.isfunction(pyasc.op)
    assert sys.modules["pyasc.op"].Op is Op
    assert isinstance(pyasc.ops, type(sys))


# --- help, wrapper attributes, introspection --------------------------------------


def test_help_shows_the_docstring_and_signature():
    @pyasc.op(attrs={"alpha": pyasc.Attr(float, default=0.5)})
    def documented(x, y, alpha):
        """Blends x and y.

        The result is x * alpha + y * (1 - alpha).
        """
        return x * alpha + y * (1 - alpha)

    assert documented.__doc__ == documented.fn.__doc__
    assert documented.__name__ == "documented"
    assert documented.__wrapped__ is documented.fn
    assert str(inspect.signature(documented)) == "(x, y, alpha=0.5)"
    text = pydoc.render_doc(pyasc.ops.documented, renderer=pydoc.plaintext)
    assert "Blends x and y." in text
    assert "x * alpha + y * (1 - alpha)" in text
    assert "documented(x, y, alpha=0.5)" in text
    summary = documented.describe()
    assert "alpha: float = 0.5" in summary and "x: any tensor" in summary


def test_specs_are_data():
    xs = pyasc.TensorSpec(dtypes=(pyasc.float32, "float64"), shape=("M", "K"))
    ws = pyasc.TensorSpec(dtypes=np.float32, shape=("K", "N"))

    @pyasc.op(
        inputs={"x": xs, "w": ws},
        outputs={"y": pyasc.TensorSpec(shape=("M", "N"))},
        attrs={"scale": pyasc.Attr(float, default=1.0), "mode": pyasc.Attr(str, "fast")},
    )
    def linear(x, w, bias=None, scale=1.0, mode="fast", relu=False):
        return x

    assert list(linear.inputs) == ["x", "w", "bias"]
    assert list(linear.attrs) == ["scale", "mode", "relu"]
    assert list(linear.outputs) == ["y"]
    assert linear.inputs["x"].dtypes == (pyasc.float32, pyasc.float64)
    assert linear.inputs["w"].dtypes == (pyasc.float32,)
    assert linear.inputs["x"].shape == ("M", "K")
    assert linear.inputs["bias"] == pyasc.TensorSpec()
    assert linear.attrs["relu"] == pyasc.Attr(bool, False)
    assert linear.fn.__name__ == "linear"
    assert list(linear.signature.parameters) == ["x", "w", "bias", "scale", "mode", "relu"]
    assert linear.attrs["scale"].default == 1.0 and not linear.attrs["scale"].required
    with pytest.raises(TypeError):
        linear.inputs["z"] = pyasc.TensorSpec()  # read-only mappings


def test_prepare_validates_without_running():
    calls = []

    @pyasc.op(inputs={"a": pyasc.TensorSpec(shape=("N",))}, attrs={"k": pyasc.Attr(int, 2)})
    def counted(a, b, k):
        calls.append(1)
        return a * k + b

    call = counted.prepare([1.0, 2.0], 3.0, k=np.int16(4))
    assert isinstance(call, OpCall) and calls == []
    assert set(call.inputs) == {"a", "b"}
    assert all(isinstance(t, pyasc.Tensor) for t in call.inputs.values())
    assert call.inputs["b"].dtype == pyasc.float64 and call.inputs["b"].ndim == 0
    assert call.attrs == {"k": 4} and type(call.attrs["k"]) is int
    assert call.dims == {"N": 2}
    np.testing.assert_array_equal(counted([1.0, 2.0], 3.0, k=4).numpy(), [7.0, 11.0])
    assert calls == [1]


# --- input conversion ---------------------------------------------------------------


def test_function_sees_only_tensors():
    seen = []

    @pyasc.op
    def record(a, b, c, d, e):
        seen.extend((a, b, c, d, e))
        return a

    t = pyasc.Tensor([1.0])
    record(t, np.array([1, 2], np.int16), [[1, 2]], 3, np.float32(2.5))
    assert all(isinstance(v, pyasc.Tensor) for v in seen)
    assert seen[0] is t
    assert [v.dtype for v in seen[1:]] == [pyasc.int16, pyasc.int64, pyasc.float64, pyasc.float32]
    assert seen[4].ndim == 0 and seen[4].item() == 2.5


def test_numpy_inputs_are_shared_not_copied():
    @pyasc.op
    def fill(a):
        a[...] = 7
        return a

    arr = np.zeros(4, np.int32)
    out = fill(arr)
    pyasc.synchronize()
    np.testing.assert_array_equal(arr, [7, 7, 7, 7])
    assert out.data_ptr == arr.ctypes.data


@pytest.mark.parametrize(
    "dtype, scalar, expected",
    [
        (np.int8, 1, pyasc.int8),
        (np.int8, 1.0, pyasc.float64),
        (np.uint8, True, pyasc.uint8),
        (np.bool_, 1, pyasc.int64),
        (np.float32, 1.0, pyasc.float32),
        (np.float16, 3, pyasc.float16),
        (np.int32, 2.5, pyasc.float64),
    ],
)
def test_python_scalars_are_weak(dtype, scalar, expected):
    @pyasc.op
    def combine(x, s):
        return x + s

    call = combine.prepare(np.ones(3, dtype), scalar)
    assert call.inputs["s"].dtype == expected
    assert call.inputs["s"].item() == scalar
    result = combine(np.ones(3, dtype), scalar)
    reference = np.ones(3, dtype) + scalar  # NumPy 2's weak-scalar rule
    assert result.dtype == pyasc.dtype(reference.dtype)
    np.testing.assert_array_equal(result.numpy(), reference)


def test_scalars_alone_take_default_dtypes():
    @pyasc.op
    def three(a, b, c):
        return a

    call = three.prepare(True, 7, 0.25)
    assert [t.dtype for t in call.inputs.values()] == [pyasc.bool_, pyasc.int64, pyasc.float64]
    assert [t.item() for t in call.inputs.values()] == [True, 7, 0.25]


def test_weak_scalar_relative_to_promoted_tensors():
    @pyasc.op
    def three(a, b, s):
        return a

    call = three.prepare(np.ones(2, np.int8), np.ones(2, np.float16), 2)
    assert call.inputs["s"].dtype == pyasc.float16


def test_scalar_out_of_range_overflows_like_numpy():
    @pyasc.op
    def addu8(x, s):
        return x + s

    with pytest.raises(OverflowError):
        np.ones(2, np.uint8) + 300
    with pytest.raises(OverflowError, match="addu8: input 's'"):
        addu8(np.ones(2, np.uint8), 300)
    with pytest.raises(OverflowError):
        addu8(np.ones(2, np.int8), -129)
    np.testing.assert_array_equal(addu8(np.ones(2, np.int8), -128).numpy(), [-127, -127])


def test_scalar_takes_an_allowed_dtype_of_its_kind():
    spec = pyasc.TensorSpec(dtypes=(pyasc.float32, pyasc.float64))

    @pyasc.op(inputs={"s": spec})
    def only_float(s):
        return s

    assert only_float(2).dtype == pyasc.float32
    assert only_float(2.0).dtype == pyasc.float64  # the weak dtype is allowed
    assert only_float(True).dtype == pyasc.float32

    @pyasc.op(inputs={"s": pyasc.TensorSpec(dtypes=pyasc.int32)})
    def only_int(s):
        return s

    assert only_int(5).dtype == pyasc.int32 and only_int(5).item() == 5
    with pytest.raises(
        pyasc.DTypeError, match="only_int: input 's' is a Python float, expected one of int32"
    ):
        only_int(5.0)
    with pytest.raises(OverflowError):
        only_int(2**40)


def test_optional_inputs():
    @pyasc.op
    def maybe_bias(x, bias=None):
        return x if bias is None else x + bias

    np.testing.assert_array_equal(maybe_bias([1, 2]).numpy(), [1, 2])
    np.testing.assert_array_equal(maybe_bias([1, 2], None).numpy(), [1, 2])
    np.testing.assert_array_equal(maybe_bias([1, 2], bias=[10, 20]).numpy(), [11, 22])
    call = maybe_bias.prepare([1])
    assert call.inputs["bias"] is None


@pytest.mark.parametrize(
    "value, error, fragment",
    [
        ("text", pyasc.DTypeError, "must be a Tensor, an array-like or a Python scalar, not str"),
        ({"a": 1}, pyasc.DTypeError, "not dict"),
        (np.array([None, 1], dtype=object), pyasc.DTypeError, "unsupported element format"),
        (np.array([1], "datetime64[s]"), pyasc.DTypeError, "cannot convert to a tensor"),
    ],
)
def test_unconvertible_inputs(value, error, fragment):
    @pyasc.op
    def ident(x):
        return x

    with pytest.raises(error, match="ident: input 'x'") as info:
        ident(value)
    assert fragment in str(info.value)


def test_call_signature_errors():
    @pyasc.op
    def two(a, b):
        return a + b

    with pytest.raises(pyasc.DTypeError, match="two: missing a required argument: 'b'"):
        two([1])
    with pytest.raises(TypeError, match="two: too many positional arguments"):
        two([1], [2], [3])
    with pytest.raises(pyasc.DTypeError, match="two: .*unexpected keyword argument 'c'"):
        two([1], [2], c=3)


def test_positional_only_and_keyword_only():
    @pyasc.op
    def mixed(a, /, b, *, c):
        return a * 100 + b * 10 + c

    np.testing.assert_array_equal(mixed([1], [2], c=[3]).numpy(), [123])
    with pytest.raises(pyasc.DTypeError):
        mixed(a=[1], b=[2], c=[3])


def test_variadic_parameters_are_rejected():
    with pytest.raises(pyasc.InvalidValueError, match="variadic parameter 'rest'"):

        @pyasc.op
        def variadic(x, *rest):
            return x


def test_on_a_class_acts_like_a_staticmethod():
    class Model:
        @pyasc.op(name="method_op", inputs={"x": None})
        def forward(x):
            return x * 3

    assert Model.forward is pyasc.ops.method_op
    assert Model().forward is pyasc.ops.method_op
    np.testing.assert_array_equal(Model().forward([1, 2]).numpy(), [3, 6])


# --- input specs ----------------------------------------------------------------------


def _float_op():
    spec = pyasc.TensorSpec(dtypes=(pyasc.float32, pyasc.float64), ndim=2)

    @pyasc.op(name="my_op", inputs={"x": spec}, overwrite=True)
    def my_op(x):
        return x * 2

    return my_op


def test_dtype_rule_message():
    my_op = _float_op()
    with pytest.raises(pyasc.DTypeError) as info:
        my_op(np.zeros((2, 2), np.int32))
    assert str(info.value) == "my_op: input 'x' has dtype int32, expected one of float32, float64"
    assert isinstance(info.value, TypeError) and isinstance(info.value, pyasc.Error)
    for dt in (np.float32, np.float64):
        out = my_op(np.ones((2, 3), dt))
        assert out.dtype == pyasc.dtype(dt)
        np.testing.assert_array_equal(out.numpy(), np.full((2, 3), 2, dt))


def test_bfloat16_dtype_spec():
    @pyasc.op(inputs={"x": pyasc.TensorSpec(dtypes=pyasc.bfloat16)})
    def bf_only(x):
        return x + x

    t = pyasc.Tensor([1.5, 2.0], dtype=pyasc.bfloat16)
    np.testing.assert_array_equal(bf_only(t).numpy(), [3.0, 4.0])
    with pytest.raises(pyasc.DTypeError, match="dtype float32, expected one of bfloat16"):
        bf_only(np.ones(2, np.float32))


def test_ndim_rule_message():
    my_op = _float_op()
    with pytest.raises(pyasc.InvalidValueError) as info:
        my_op(np.zeros(3))
    assert str(info.value) == "my_op: input 'x' has 1 dimensions, expected 2"
    assert isinstance(info.value, ValueError)

    @pyasc.op(inputs={"x": pyasc.TensorSpec(ndim=(0, 1))})
    def low(x):
        return x

    low(1.0)
    low([1.0])
    with pytest.raises(
        pyasc.InvalidValueError, match="low: input 'x' has 2 dimensions, expected one of 0, 1"
    ):
        low([[1.0]])


def _matmul_op():
    @pyasc.op(
        name="matmul_like",
        inputs={
            "a": pyasc.TensorSpec(shape=("M", "K")),
            "b": pyasc.TensorSpec(shape=("K", "N")),
        },
        outputs={"c": pyasc.TensorSpec(shape=("M", "N"))},
        overwrite=True,
    )
    def matmul_like(a, b):
        return pyasc.asarray(np.asarray(a) @ np.asarray(b))

    return matmul_like


def test_symbolic_dims_agree_across_inputs():
    mm = _matmul_op()
    a, b = np.arange(6.0).reshape(2, 3), np.arange(12.0).reshape(3, 4)
    np.testing.assert_array_equal(mm(a, b).numpy(), a @ b)
    assert mm.prepare(a, b).dims == {"M": 2, "K": 3, "N": 4}
    with pytest.raises(pyasc.InvalidValueError) as info:
        mm(a, np.zeros((4, 4)))
    msg = str(info.value)
    assert (
        msg
        == "matmul_like: input 'b' has shape (4, 4), expected (K, N): K=3 (from input 'a'), got 4"
    )
    with pytest.raises(
        pyasc.InvalidValueError,
        match="input 'a' has shape \\(6,\\), expected \\(M, K\\): 2 dimensions",
    ):
        mm(np.zeros(6), b)


def test_repeated_symbol_in_one_input():
    @pyasc.op(inputs={"m": pyasc.TensorSpec(shape=("N", "N"))})
    def square(m):
        return m

    square(np.zeros((3, 3)))
    with pytest.raises(pyasc.InvalidValueError, match="N=2 \\(from input 'm'\\), got 3"):
        square(np.zeros((2, 3)))


def test_fixed_any_and_ellipsis_dims():
    @pyasc.op(
        inputs={
            "x": pyasc.TensorSpec(shape=(..., None, 4)),
            "y": pyasc.TensorSpec(shape=("...", "C")),
        }
    )
    def pattern(x, y):
        return x

    pattern(np.zeros((5, 4)), np.zeros(7))
    pattern(np.zeros((2, 3, 5, 4)), np.zeros((1, 1, 2)))
    with pytest.raises(
        pyasc.InvalidValueError, match="expected \\(\\.\\.\\., \\?, 4\\): size 4 where it has 3"
    ):
        pattern(np.zeros((5, 3)), np.zeros(7))
    with pytest.raises(pyasc.InvalidValueError, match="at least 2 dimensions"):
        pattern(np.zeros(4), np.zeros(7))
    with pytest.raises(pyasc.InvalidValueError, match="input 'y'.*at least 1 dimensions"):
        pattern(np.zeros((1, 4)), 3.0)


def test_empty_and_zero_d_inputs():
    @pyasc.op(inputs={"x": pyasc.TensorSpec(shape=("N", 0))})
    def empty_cols(x):
        return x + 1

    out = empty_cols(np.zeros((3, 0)))
    assert out.shape == (3, 0)

    @pyasc.op(inputs={"x": pyasc.TensorSpec(shape=())})
    def scalar_only(x):
        return x * 2

    assert scalar_only(np.float32(1.5)).item() == 3.0
    with pytest.raises(pyasc.InvalidValueError, match="0 dimensions"):
        scalar_only([1.0])


def test_inputs_unchanged_after_failed_validation():
    my_op = _float_op()
    arr = np.arange(4, dtype=np.int64).reshape(2, 2)
    t = pyasc.from_numpy(arr)
    with pytest.raises(pyasc.DTypeError):
        my_op(t)
    np.testing.assert_array_equal(t.numpy(), [[0, 1], [2, 3]])
    assert t.dtype == pyasc.int64 and t.shape == (2, 2)


# --- attributes -----------------------------------------------------------------------


def test_attr_conversion_and_defaults():
    @pyasc.op(
        attrs={
            "alpha": pyasc.Attr(float, default=1.0),
            "n": pyasc.Attr(int, default=1, min=0, max=8),
            "flag": pyasc.Attr(bool, default=False),
            "mode": pyasc.Attr(str, default="sum", choices=("sum", "max")),
            "out_dtype": pyasc.Attr(pyasc.dtype, default="float32"),
        }
    )
    def attrs_op(x, alpha, n, flag, mode, out_dtype):
        return x

    call = attrs_op.prepare([1])
    assert call.attrs == {
        "alpha": 1.0,
        "n": 1,
        "flag": False,
        "mode": "sum",
        "out_dtype": pyasc.float32,
    }
    call = attrs_op.prepare(
        [1], alpha=2, n=np.int64(3), flag=np.bool_(True), mode="max", out_dtype=np.float16
    )
    assert type(call.attrs["alpha"]) is float and call.attrs["alpha"] == 2.0
    assert type(call.attrs["n"]) is int and call.attrs["n"] == 3
    assert call.attrs["flag"] is True
    assert call.attrs["out_dtype"] == pyasc.float16 and isinstance(
        call.attrs["out_dtype"], pyasc.dtype
    )
    assert (
        str(inspect.signature(attrs_op))
        == "(x, alpha=1.0, n=1, flag=False, mode='sum', out_dtype=pyasc.float32)"
    )


@pytest.mark.parametrize(
    "kwargs, error, message",
    [
        (
            {"alpha": "x"},
            pyasc.DTypeError,
            "attrs_bad: attribute 'alpha' expects float, got str 'x'",
        ),
        (
            {"alpha": True},
            pyasc.DTypeError,
            "attrs_bad: attribute 'alpha' expects float, got bool True",
        ),
        ({"n": 1.0}, pyasc.DTypeError, "attrs_bad: attribute 'n' expects int, got float 1.0"),
        ({"n": False}, pyasc.DTypeError, "attrs_bad: attribute 'n' expects int, got bool False"),
        ({"n": 9}, pyasc.InvalidValueError, "attrs_bad: attribute 'n' is 9, above the maximum 8"),
        ({"n": -1}, pyasc.InvalidValueError, "attrs_bad: attribute 'n' is -1, below the minimum 0"),
        ({"flag": 1}, pyasc.DTypeError, "attrs_bad: attribute 'flag' expects bool, got int 1"),
        (
            {"mode": "avg"},
            pyasc.InvalidValueError,
            "attrs_bad: attribute 'mode' is 'avg', expected one of 'sum', 'max'",
        ),
        ({"mode": 3}, pyasc.DTypeError, "attrs_bad: attribute 'mode' expects str, got int 3"),
        (
            {"out_dtype": "complex256"},
            pyasc.DTypeError,
            "attrs_bad: attribute 'out_dtype' expects pyasc.dtype",
        ),
    ],
)
def test_attr_errors(kwargs, error, message):
    @pyasc.op(
        attrs={
            "alpha": pyasc.Attr(float, default=1.0),
            "n": pyasc.Attr(int, default=1, min=0, max=8),
            "flag": pyasc.Attr(bool, default=False),
            "mode": pyasc.Attr(str, default="sum", choices=("sum", "max")),
            "out_dtype": pyasc.Attr(pyasc.dtype, default="float32"),
        }
    )
    def attrs_bad(x, alpha, n, flag, mode, out_dtype):
        raise AssertionError("must not run")

    with pytest.raises(error) as info:
        attrs_bad([1.0], **kwargs)
    assert str(info.value).startswith(message)


def test_required_attr():
    @pyasc.op(attrs={"k": pyasc.Attr(int)})
    def needs_k(x, k):
        return x * k

    assert needs_k.attrs["k"].required and needs_k.attrs["k"].default is REQUIRED
    with pytest.raises(pyasc.DTypeError, match="needs_k: missing a required argument: 'k'"):
        needs_k([1])
    np.testing.assert_array_equal(needs_k([1, 2], 3).numpy(), [3, 6])


def test_attr_defaults_from_the_function():
    @pyasc.op(attrs={"k": pyasc.Attr(int)})
    def default_k(x, k=5):
        return x * k

    assert default_k.attrs["k"].default == 5
    np.testing.assert_array_equal(default_k([1]).numpy(), [5])


def test_inferred_attrs_and_unsupported_defaults():
    @pyasc.op
    def inferred(x, scale=2.0, times=1, name="n", dt=pyasc.int8):
        return x * scale

    assert {k: a.type for k, a in inferred.attrs.items()} == {
        "scale": float,
        "times": int,
        "name": str,
        "dt": pyasc.dtype,
    }
    with pytest.raises(pyasc.DTypeError, match="attribute 'times' expects int"):
        inferred([1], times=1.5)
    with pytest.raises(pyasc.InvalidValueError, match="parameter 'shape' has a tuple default"):

        @pyasc.op
        def tuple_default(x, shape=(1, 2)):
            return x


def test_attr_and_spec_definition_errors():
    with pytest.raises(pyasc.DTypeError, match="Attr: type must be"):
        pyasc.Attr(list)
    with pytest.raises(pyasc.DTypeError, match="expects int"):
        pyasc.Attr(int, default="x")
    with pytest.raises(pyasc.InvalidValueError, match="min/max"):
        pyasc.Attr(str, min=1)
    with pytest.raises(pyasc.InvalidValueError, match="ndim"):
        pyasc.TensorSpec(ndim=-1)
    with pytest.raises(pyasc.InvalidValueError, match="at most one"):
        pyasc.TensorSpec(shape=(..., "N", ...))
    with pytest.raises(pyasc.InvalidValueError, match="has 2 dimensions but ndim is 3"):
        pyasc.TensorSpec(shape=("M", "N"), ndim=3)
    with pytest.raises(pyasc.InvalidValueError, match="shape entry"):
        pyasc.TensorSpec(shape=(1.5,))
    with pytest.raises(pyasc.InvalidValueError, match="shape must be a sequence"):
        pyasc.TensorSpec(shape="MN")
    with pytest.raises(pyasc.DTypeError, match="cannot interpret"):
        pyasc.TensorSpec(dtypes=("float128",))
    with pytest.raises(pyasc.InvalidValueError, match="input 'zz' is not a parameter"):
        pyasc.op(name="zz_op", inputs={"zz": None})(lambda x: x)
    with pytest.raises(
        pyasc.InvalidValueError, match="'x' is declared as an input and as an attribute"
    ):
        pyasc.op(name="both", inputs={"x": None}, attrs={"x": pyasc.Attr(int)})(lambda x: x)
    with pytest.raises(pyasc.DTypeError, match="must be a pyasc.Attr"):
        pyasc.op(name="wrong_attr", attrs={"x": int})(lambda x: x)
    with pytest.raises(pyasc.DTypeError, match="must be a pyasc.TensorSpec"):
        pyasc.op(name="wrong_spec", inputs={"x": "float32"})(lambda x: x)
    assert "both" not in pyasc.list_ops() and "wrong_attr" not in pyasc.list_ops()


# --- outputs ----------------------------------------------------------------------------


def test_output_specs():
    mm = _matmul_op()

    @pyasc.op(
        inputs={"a": pyasc.TensorSpec(shape=("M", "K"))},
        outputs={"c": pyasc.TensorSpec(dtypes=pyasc.float64, shape=("M", "M"))},
    )
    def wrong_shape(a):
        return a

    with pytest.raises(
        pyasc.InvalidValueError,
        match=(
            "wrong_shape: output 'c' has shape \\(2, 3\\), expected \\(M, M\\): M=2 \\(from the"
            " inputs\\), got 3"
        ),
    ):
        wrong_shape(np.zeros((2, 3)))

    @pyasc.op(outputs={"c": pyasc.TensorSpec(dtypes=pyasc.float32)})
    def wrong_dtype(a):
        return a

    with pytest.raises(
        pyasc.DTypeError, match="wrong_dtype: output 'c' has dtype float64, expected one of float32"
    ):
        wrong_dtype([1.0])
    assert isinstance(mm(np.ones((1, 2)), np.ones((2, 1))), pyasc.Tensor)


def test_multiple_outputs_and_conversion():
    @pyasc.op(outputs=("q", "r"))
    def divmod_op(a, b):
        return a // b, np.asarray(a) % np.asarray(b)

    q, r = divmod_op(np.array([7, -7]), np.array([2, 2]))
    assert isinstance(r, pyasc.Tensor)  # NumPy results become tensors
    np.testing.assert_array_equal(q.numpy(), [3, -4])
    np.testing.assert_array_equal(r.numpy(), [1, 1])

    @pyasc.op(outputs=("q", "r"))
    def one_output(a):
        return a

    with pytest.raises(
        pyasc.InvalidValueError,
        match="one_output: the function returned one Tensor, expected 2 output\\(s\\): q, r",
    ):
        one_output([1])

    @pyasc.op(outputs="y")
    def returns_none(a):
        return None

    with pytest.raises(pyasc.DTypeError, match="returns_none: output 'y' must be a Tensor"):
        returns_none([1])


def test_undeclared_outputs_pass_through():
    @pyasc.op
    def pair(a):
        return a, 5

    out = pair([1])
    assert isinstance(out, tuple) and out[1] == 5
