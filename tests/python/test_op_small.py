"""Small operators in one C call (docs/op-compiler.md, "Small operators"):
below PYASC_OP_FUSE_MIN a compiled signature runs its element-wise
operations as one pyasc._C.OpProgram, whose results must be those of the
eager operations bit for bit (same dtypes, shapes and bytes, NaN payloads
included), and those of NumPy where NumPy computes the same way."""

from __future__ import annotations

import numpy as np
import pytest

import pyasc
from pyasc import _C

DTYPES = ["float16", "bfloat16", "float32", "float64", "int32"]

#: special values of the float inputs: NaN, infinities, signed zeros, huge
SPECIAL = np.array([np.nan, np.inf, -np.inf, 0.0, -0.0, 1e30, -3.5, 0.25, 2.0, -1.0,
                    7.0, 1e-30, 65504.0, -0.5, 3.0, 1.5], np.float64)


def make_op(fn):
    """fn as an operator (replacing an earlier one of its name)."""
    return pyasc.op(name="small_op", overwrite=True)(fn)


def tensor(a: np.ndarray, dtype: str) -> pyasc.Tensor:
    with np.errstate(over="ignore"):  # 1e30 becomes inf in float16, as intended
        if dtype == "bfloat16":
            return pyasc.asarray(np.asarray(a, np.float32)).astype("bfloat16")
        return pyasc.asarray(np.asarray(a).astype(dtype))


def inputs(dtype: str, shape=(4, 4), seed=0):
    rng = np.random.default_rng(seed)
    n = int(np.prod(shape))
    if dtype == "int32":
        a = rng.integers(-50, 50, n).reshape(shape)
        b = rng.integers(1, 9, n).reshape(shape)
    else:
        a = np.resize(SPECIAL, n).reshape(shape)
        b = rng.standard_normal(n).reshape(shape) * 4
    return tensor(a, dtype), tensor(b, dtype)


def raw(t: pyasc.Tensor) -> tuple:
    arr = t.numpy(raw=True) if t.dtype == pyasc.bfloat16 else t.numpy()
    return (str(t.dtype), tuple(t.shape), np.ascontiguousarray(arr).tobytes())


def same(a, b) -> None:
    """a and b are equal bit for bit (a tensor each, or tuples of them)."""
    if isinstance(a, tuple):
        assert isinstance(b, tuple) and len(a) == len(b)
        for x, y in zip(a, b):
            same(x, y)
        return
    assert raw(a) == raw(b)


def check(fn, *args) -> pyasc.op:
    """fn as an operator: its program runs (explain says so) and gives the
    eager body's results."""
    op = make_op(fn)
    expected = fn(*args)
    same(op(*args), expected)
    same(op(*args), expected)  # the cached call
    assert "in one C call" in op.explain(*args), op.explain(*args)
    return op


# --- every operation programs take, in every dtype ----------------------------------

BINARY = ["add", "subtract", "multiply", "divide", "power", "maximum", "minimum", "equal",
          "not_equal", "less", "less_equal", "greater", "greater_equal", "logical_and",
          "logical_or", "floor_divide", "remainder"]
UNARY = ["negative", "positive", "abs", "exp", "exp2", "expm1", "log", "log2", "log1p", "sqrt",
         "rsqrt", "sin", "cos", "tan", "tanh", "sigmoid", "relu", "gelu", "erf", "reciprocal",
         "sign", "floor", "ceil", "round", "rint", "trunc", "isnan", "isinf", "isfinite",
         "logical_not"]


@pytest.mark.parametrize("name,dtype", [(n, d) for n in BINARY for d in DTYPES
                                        if (n, d) != ("power", "int32")])  # test_integer_power
def test_binary_operations_equal_eager(name, dtype):
    f = getattr(pyasc, name)

    def body(x, y):
        return f(f(x, y), y)  # two operations: the first's result is read in C

    x, y = inputs(dtype)
    check(body, x, y)


def test_integer_power():
    x, y = inputs("int32")
    check(lambda a, b: pyasc.power(a, b) + a, x, pyasc.abs(y))


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("name", UNARY)
def test_unary_operations_equal_eager(name, dtype):
    f = getattr(pyasc, name)
    x, _ = inputs(dtype)
    body = lambda a: f(a) * 3  # noqa: E731
    try:
        f(x)
    except pyasc.Error as exc:  # eager refuses this dtype: so does the operator
        with pytest.raises(type(exc)):
            make_op(body)(x)
        return
    check(body, x)


@pytest.mark.parametrize("dtype", DTYPES)
def test_chain_with_scalars_and_casts(dtype):
    def body(x, y):
        z = (x + y) * 2.0 - x / (y + 0.5)
        return pyasc.maximum(z, 1) + abs(-y), z.astype(pyasc.float32)

    x, y = inputs(dtype, seed=3)
    check(body, x, y)


@pytest.mark.parametrize("left,right", [("float16", "float32"), ("bfloat16", "float32"),
                                        ("int32", "float32"), ("int32", "float64"),
                                        ("float16", "int32")])
def test_promotion_between_dtypes(left, right):
    x, _ = inputs(left)
    _, y = inputs(right)
    check(lambda a, b: (a * b + a) - 1.5, x, y)


# --- broadcasting and scalars --------------------------------------------------------


@pytest.mark.parametrize("shape", [(4,), (3, 1), (1, 4), (), (1, 1)])
def test_broadcast_inputs(shape):
    x, _ = inputs("float32", (3, 4))
    b = tensor(np.arange(1, 1 + int(np.prod(shape))).reshape(shape) * 0.5, "float32")
    check(lambda a, c: (a + c) * c - a, x, b)


def test_python_number_inputs():
    x, _ = inputs("float16")
    op = check(lambda a, s: a * s + s, x, 2.5)
    same(op(x, 0.1), x * 0.1 + 0.1)


def test_comparison_with_out_of_range_int():
    x = tensor(np.arange(-8, 8), "int32")
    check(lambda a: (a + 1) < 2**40, x)


def test_matches_numpy_rounding():
    """An independent reference: NumPy float16 and float32 round each
    operation once, as pyasc does."""
    rng = np.random.default_rng(7)
    for dtype in (np.float16, np.float32):
        a, b = (rng.standard_normal(16) * 10).astype(dtype), rng.standard_normal(16).astype(dtype)
        op = make_op(lambda x, y: (x + y) * 2.0 - x * y / (y - 3.0))
        got = op(pyasc.asarray(a), pyasc.asarray(b)).numpy()
        want = (a + b) * dtype(2.0) - a * b / (b - dtype(3.0))
        assert got.dtype == want.dtype
        np.testing.assert_array_equal(got, want)


def check_whole(fn, *args) -> None:
    """check(fn, *args), with every operation of fn in the one program."""
    text = check(fn, *args).explain(*args)
    assert text.count("in one C call") == 1 and "small operations over" in text, text
    assert "eager (" not in text, text


@pytest.mark.parametrize("dtype", DTYPES)
def test_where_and_clip_equal_eager(dtype):
    """where and clip inside a program: NaN operands and NaN bounds (NumPy
    propagates both), Python numbers, one bound, condition of another
    dtype."""
    x, y = inputs(dtype)
    check_whole(lambda a, b: pyasc.where(a > b, a, b) * 2 + a, x, y)
    check_whole(lambda a, b: pyasc.where(a, b, a - b), x, y)  # the condition is cast to bool
    check_whole(lambda a, b: pyasc.where(a < 1, a, 3) + b, x, y)
    check_whole(lambda a, b: pyasc.where(b > 0, 7, -1) * a, x, y)
    check_whole(lambda a, b: pyasc.clip(a + b, -2, 5) - a, x, y)
    check_whole(lambda a, b: pyasc.clip(a, b, b + 4) * 2, x, y)  # tensor bounds, NaN in some
    check_whole(lambda a, b: pyasc.clip(a, None, 1) + pyasc.clip(b, -1, None), x, y)
    check_whole(lambda a, b: pyasc.clip(a, 2.5, 0.5) - b, x, y)  # lo > hi: hi wins, as NumPy


def test_where_and_clip_match_numpy():
    """An independent reference: NumPy's where and clip on float32 with
    NaNs in the values and in the bounds, and on integers with a Python
    int bound beyond their range (NumPy drops it)."""
    a = np.array([np.nan, -np.inf, np.inf, -0.0, 0.0, 1.5, -3.0, 9.0] * 2, np.float32)
    b = np.array([1.0, np.nan, 2.0, -5.0, np.nan, 0.5, 4.0, -1.0] * 2, np.float32)
    op = make_op(lambda x, y: (pyasc.clip(x * 1.0, y, 3.0), pyasc.where(x > y, x, y + 1.0)))
    got = op(pyasc.asarray(a), pyasc.asarray(b))
    assert op.explain(pyasc.asarray(a), pyasc.asarray(b)).count("in one C call") == 1
    np.testing.assert_array_equal(got[0].numpy(), np.clip(a * np.float32(1.0), b, np.float32(3.0)))
    np.testing.assert_array_equal(got[1].numpy(), np.where(a > b, a, b + np.float32(1.0)))
    u = np.arange(0, 250, 16, dtype=np.uint8)
    op = make_op(lambda x: pyasc.clip(x + 1, -5, 300) * 1 + pyasc.clip(x, 3, 200))
    want = np.clip(u + 1, -5, 300) * 1 + np.clip(u, 3, 200)
    got = op(pyasc.asarray(u))
    assert op.explain(pyasc.asarray(u)).count("in one C call") == 1
    assert str(got.dtype) == str(want.dtype)
    np.testing.assert_array_equal(got.numpy(), want)


# --- structure: outputs, eager neighbours, fallbacks ---------------------------------


def test_several_outputs_and_eager_neighbours():
    def body(x, y):
        u = x * y + 1.0
        s = u.sum()  # an eager call reads u
        v = pyasc.exp(u) - s
        return u, v

    x, y = inputs("float32")
    op = check(body, x, y)
    assert op.explain(x, y).count("in one C call") == 2


def test_operations_programs_do_not_take_split_them():
    def body(x, y):
        return pyasc.softmax(x * 2.0, axis=-1) + y  # softmax runs eagerly between two programs

    x, y = inputs("float32")
    op = check(body, x, y)
    assert op.explain(x, y).count("in one C call") == 2


def test_entry_is_the_program():
    op = make_op(lambda x, y: (x + y) * 2.0)
    x, y = inputs("float32")
    op(x, y)
    entries = list(op._dispatch_entries.values())
    assert len(entries) == 1 and isinstance(entries[0], _C.OpProgram)
    assert entries[0].instructions == 2


def test_views_and_arrays_run_the_fallback():
    op = make_op(lambda x, y: pyasc.sin(x) * y + 1.0)
    base = tensor(np.resize(SPECIAL, 32) * 1e5, "float32")
    x, y = base[::2], tensor(np.arange(16.0), "float32")
    assert not x.is_contiguous()
    same(op(x, y), pyasc.sin(x) * y + 1.0)
    xa = np.resize(SPECIAL, 16).astype(np.float32)
    same(op(xa, y), pyasc.sin(pyasc.asarray(xa)) * y + 1.0)
    same(op(x.contiguous(), y), pyasc.sin(x.contiguous()) * y + 1.0)


def test_queued_behind_other_work():
    big = pyasc.ones((1 << 22,), dtype=pyasc.float32)
    op = make_op(lambda x, y: x * y - 2.0)
    x, y = inputs("float32")
    op(x, y)
    for _ in range(3):
        big = big + 1.0  # the stream is busy: the program is queued behind
        got = op(x, y)
    pyasc.synchronize()
    same(got, x * y - 2.0)
    assert float(big[0]) == 4.0


def test_off_and_above_the_threshold(monkeypatch):
    x, y = inputs("float32")
    monkeypatch.setenv("PYASC_OP_PROGRAM", "0")
    op = make_op(lambda a, b: a + b * 3.0)
    same(op(x, y), x + y * 3.0)
    assert "in one C call" not in op.explain(x, y)
    monkeypatch.setenv("PYASC_OP_PROGRAM", "1")
    monkeypatch.setenv("PYASC_OP_FUSE_MIN", "16")  # 16 elements are not below it
    op = make_op(lambda a, b: a + b * 3.0)
    same(op(x, y), x + y * 3.0)
    assert "in one C call" not in op.explain(x, y)


def test_errors_as_eager():
    x = tensor(np.arange(4), "int32")
    y = tensor(np.array([1, -1, 2, 3]), "int32")
    op = make_op(lambda a, b: (a + 1) ** b)
    with pytest.raises(pyasc.Error, match="negative integer powers"):
        op(x, y)
        pyasc.synchronize()
    pyasc.synchronize()


# --- the C type's own checks -----------------------------------------------------------


def test_op_program_refuses_bad_descriptions():
    f32 = pyasc.float32
    fallback = lambda *a: None  # noqa: E731
    with pytest.raises(pyasc.UnsupportedError, match="not an operation"):
        _C.OpProgram((4,), [(f32, (4,))], [("matmul", (0, 0), None)], [1], fallback)
    with pytest.raises(ValueError, match="no such value"):
        _C.OpProgram((4,), [(f32, (4,))], [("add", (0, 5), None)], [1], fallback)
    with pytest.raises(ValueError, match="outputs"):
        _C.OpProgram((4,), [(f32, (4,))], [("add", (0, 0), None)], [], fallback)
    with pytest.raises(pyasc.Error, match="broadcast"):
        _C.OpProgram((4,), [(f32, (5,))], [("add", (0, 0), None)], [1], fallback)
    with pytest.raises(pyasc.UnsupportedError, match="operand"):
        _C.OpProgram((4,), [(f32, (4,))], [("add", (0, ("a",)), None)], [1], fallback)
    assert _C.OpProgram.covers("add") and _C.OpProgram.covers("astype")
    assert not _C.OpProgram.covers("matmul")


def test_op_program_called_directly():
    f32 = pyasc.float32
    calls = []

    def fallback(*args):
        calls.append(args)
        return "eager"

    prog = _C.OpProgram((4,), [(f32, (4,)), (f32, ())],
                        [("add", (0, 1), None), ("multiply", (2, (2.0,)), None)], [2, 3],
                        fallback)
    x = pyasc.asarray(np.array([1, 2, 3, 4], np.float32))
    s = pyasc.asarray(np.array(0.5, np.float32))
    u, v = prog(x, s)
    np.testing.assert_array_equal(u.numpy(), [1.5, 2.5, 3.5, 4.5])
    np.testing.assert_array_equal(v.numpy(), [3, 5, 7, 9])
    assert not calls
    assert prog(x, x[:1]) == "eager" and prog(x, 1.0) == "eager"  # another shape, a number
    assert prog(x.astype(pyasc.float64), s) == "eager"  # another dtype
    assert len(calls) == 3
