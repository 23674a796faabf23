"""The tensor core against NumPy: binary operators, conversions,
properties and errors, plus hypothesis properties (views and basic
indexing: test_tensor_views.py).

NumPy 2 is the reference throughout. Results must agree in dtype and value
(NaNs equal to NaNs; float powers within a few ulps, since NumPy's SIMD pow
is not correctly rounded); where NumPy raises, pyasc must raise the matching
pyasc error, and leave its operands unchanged.
"""

from __future__ import annotations

import itertools
import operator

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import pyasc
from tensor_helpers import check_same

# NumPy's own warnings while it computes the references (casts that overflow
# or meet NaN, divisions by zero) are expected here.
pytestmark = [
    pytest.mark.filterwarnings("ignore:overflow encountered:RuntimeWarning"),
    pytest.mark.filterwarnings("ignore:invalid value encountered:RuntimeWarning"),
    pytest.mark.filterwarnings("ignore:divide by zero encountered:RuntimeWarning"),
]

DTYPES = ("bool", "int8", "uint8", "int16", "int32", "int64", "float16", "float32", "float64",
          "uint16", "uint32", "uint64")
INTS = ("int8", "uint8", "int16", "int32", "int64", "uint16", "uint32", "uint64")
FLOATS = ("float16", "float32", "float64")

BINARY = (
    "add",
    "subtract",
    "multiply",
    "divide",
    "floor_divide",
    "remainder",
    "power",
    "maximum",
    "minimum",
    "equal",
    "not_equal",
    "less",
    "less_equal",
    "greater",
    "greater_equal",
    "logical_and",
    "logical_or",
    "logical_xor",
    "bitwise_and",
    "bitwise_or",
    "bitwise_xor",
    "left_shift",
    "right_shift",
)
def standard_floor_divide(a, b):
    """NumPy's floor_divide with the Array API's special cases, which pyasc
    follows: with exactly one operand infinite (and a non-zero divisor) the
    result is the quotient a / b itself, +-inf or +-0 (NumPy gives NaN, or
    -1 as Python does)."""
    if isinstance(a, pyasc.Tensor) or isinstance(b, pyasc.Tensor):
        return operator.floordiv(a, b)
    r = np.floor_divide(a, b)
    if np.asarray(r).dtype.kind != "f":
        return r
    a_, b_ = np.asarray(a), np.asarray(b)
    one_infinite = (np.isinf(a_) != np.isinf(b_)) & (b_ != 0)
    return np.where(one_infinite, np.true_divide(a_, b_).astype(r.dtype), r)[()]


def standard_ifloordiv(a, b):
    """In-place standard_floor_divide (NumPy's casting checks first)."""
    if isinstance(a, pyasc.Tensor):
        return operator.ifloordiv(a, b)
    expected = standard_floor_divide(a, b)
    operator.ifloordiv(a, b)  # raises where NumPy cannot cast in place
    a[...] = expected
    return a


OPERATORS = {
    "add": operator.add,
    "subtract": operator.sub,
    "multiply": operator.mul,
    "divide": operator.truediv,
    "floor_divide": standard_floor_divide,
    "remainder": operator.mod,
    "power": operator.pow,
    "bitwise_and": operator.and_,
    "bitwise_or": operator.or_,
    "bitwise_xor": operator.xor,
    "left_shift": operator.lshift,
    "right_shift": operator.rshift,
    "equal": operator.eq,
    "not_equal": operator.ne,
    "less": operator.lt,
    "less_equal": operator.le,
    "greater": operator.gt,
    "greater_equal": operator.ge,
}
INPLACE = {
    "add": operator.iadd,
    "subtract": operator.isub,
    "multiply": operator.imul,
    "divide": operator.itruediv,
    "floor_divide": standard_ifloordiv,
    "remainder": operator.imod,
    "power": operator.ipow,
    "bitwise_and": operator.iand,
    "bitwise_or": operator.ior,
    "bitwise_xor": operator.ixor,
    "left_shift": operator.ilshift,
    "right_shift": operator.irshift,
}

# What a NumPy exception corresponds to in pyasc.
PYASC_ERROR = {
    TypeError: pyasc.DTypeError,
    ValueError: pyasc.InvalidValueError,
    OverflowError: OverflowError,
    IndexError: IndexError,
}


def values(dtype: str, shape, rng: np.random.Generator, op: str = "") -> np.ndarray:
    """Test data for op: small integers with zeros and negatives, extremes
    for integer types, specials (NaN, inf, -0.0) for floats; powers get
    exponents that neither error nor overflow in a way NumPy leaves undefined."""
    n = int(np.prod(shape, dtype=np.int64))
    if dtype == "bool":
        return rng.integers(0, 2, n).astype(bool).reshape(shape)
    if dtype in INTS:
        info = np.iinfo(dtype)
        lo, hi = (
            (0, 4) if op in ("power", "left_shift", "right_shift") else (max(info.min, -20), 21)
        )
        v = rng.integers(lo, hi, n).astype(dtype)
        if op not in ("power", "left_shift", "right_shift") and n >= 4:
            v[:4] = [info.min, info.max, 0, 1]
        return v.reshape(shape)
    v = (rng.normal(0, 8, n) if op != "power" else rng.uniform(0, 3, n)).astype(dtype)
    if op != "power" and n >= 6:
        v[:6] = [np.nan, np.inf, -np.inf, -0.0, 0.0, 2.5]
    return v.reshape(shape)


def numpy_call(fn):
    """(result, exception class) of a NumPy call, warnings silenced."""
    try:
        with np.errstate(all="ignore"):
            return fn(), None
    except (TypeError, ValueError, OverflowError, IndexError) as exc:
        return None, type(exc)


def expected_error(np_exc: type) -> type:
    for base, mapped in PYASC_ERROR.items():
        if issubclass(np_exc, base):
            return mapped
    raise AssertionError(f"unexpected NumPy error {np_exc}")


def compare_binary(op: str, a: np.ndarray, b: np.ndarray, ta, tb, what: str) -> None:
    reference = standard_floor_divide if op == "floor_divide" else getattr(np, op)
    ref, exc = numpy_call(lambda: reference(a, b))
    if exc is not None:
        with pytest.raises(expected_error(exc)):
            getattr(pyasc, op)(ta, tb)
        return
    check_same(getattr(pyasc, op)(ta, tb), ref, what, pow_tolerance=op == "power")


# --- binary operators: every dtype pair -------------------------------------------------


# Grouped so that each test runs a few thousand comparisons.
BINARY_GROUPS = {
    "arithmetic": ("add", "subtract", "multiply", "divide"),
    "division": ("floor_divide", "remainder", "power"),
    "extrema": ("maximum", "minimum"),
    "comparison": ("equal", "not_equal", "less", "less_equal", "greater", "greater_equal"),
    "logical": ("logical_and", "logical_or", "logical_xor"),
    "bits": ("bitwise_and", "bitwise_or", "bitwise_xor", "left_shift", "right_shift"),
}
assert sorted(itertools.chain(*BINARY_GROUPS.values())) == sorted(BINARY)


@pytest.mark.parametrize("group", sorted(BINARY_GROUPS))
def test_binary_all_dtype_pairs(group):
    rng = np.random.default_rng(len(group))
    for op, da, db in itertools.product(BINARY_GROUPS[group], DTYPES, DTYPES):
        a, b = values(da, (24,), rng, op), values(db, (24,), rng, op)
        compare_binary(op, a, b, pyasc.Tensor(a), pyasc.Tensor(b), f"{op}({da}, {db})")


def test_python_operators_match_functions():
    rng = np.random.default_rng(7)
    for op, dt in itertools.product(sorted(OPERATORS), ("int16", "float32", "bool")):
        a, b = values(dt, (3, 4), rng, op), values(dt, (4,), rng, op)
        ref, exc = numpy_call(lambda: OPERATORS[op](a, b))
        if exc is not None:
            with pytest.raises(expected_error(exc)):
                OPERATORS[op](pyasc.Tensor(a), pyasc.Tensor(b))
            continue
        check_same(
            OPERATORS[op](pyasc.Tensor(a), pyasc.Tensor(b)), ref, f"{op} {dt}", op == "power"
        )
        # Reflected forms with a list operand on the left.
        ref, _ = numpy_call(lambda: OPERATORS[op](np.array(b.tolist()), a))
        check_same(
            OPERATORS[op](b.tolist(), pyasc.Tensor(a)), ref, f"reflected {op} {dt}", op == "power"
        )


SHAPE_PAIRS = [
    ((), ()),
    ((), (3,)),
    ((4,), ()),
    ((0,), (0,)),
    ((0, 3), (3,)),
    ((2, 0), (1,)),
    ((5,), (5,)),
    ((2, 3), (3,)),
    ((2, 1, 4), (3, 1)),
    ((5, 1), (1, 6)),
    ((2, 3, 4, 5), (4, 1)),
    ((1,), (2, 2, 1, 3)),
]


def test_binary_shapes_and_broadcasting():
    rng = np.random.default_rng(11)
    ops = (
        "add",
        "subtract",
        "multiply",
        "divide",
        "floor_divide",
        "remainder",
        "power",
        "maximum",
        "less",
        "logical_xor",
        "bitwise_xor",
        "right_shift",
    )
    for op, (sa, sb), dt in itertools.product(ops, SHAPE_PAIRS, ("int32", "float32", "float16")):
        a, b = values(dt, sa, rng, op), values(dt, sb, rng, op)
        compare_binary(op, a, b, pyasc.Tensor(a), pyasc.Tensor(b), f"{op} {sa} {sb} {dt}")


def test_binary_shape_mismatch():
    a, b = pyasc.Tensor(np.ones((2, 3))), pyasc.Tensor(np.ones((4,)))
    with pytest.raises(ValueError):
        np.ones((2, 3)) + np.ones(4)
    with pytest.raises(
        pyasc.InvalidValueError,
        match=r"could not be broadcast together with shapes \(2, 3\) \(4,\)",
    ):
        a + b
    np.testing.assert_array_equal(a.numpy(), np.ones((2, 3)))
    np.testing.assert_array_equal(b.numpy(), np.ones(4))


def _views(base: np.ndarray):
    """(name, index) pairs giving non-contiguous views of a (6, 8) base."""
    return [
        ("contiguous", (slice(None), slice(None))),
        ("step", (slice(None, None, 2), slice(1, None, 2))),
        ("negative", (slice(None, None, -1), slice(None, None, -3))),
        ("column", (slice(1, 5), 3)),
        ("offset", (slice(2, 6), slice(2, 6))),
    ]


@pytest.mark.parametrize(
    "ops",
    [
        ("add", "subtract", "multiply", "divide", "maximum", "minimum"),
        ("floor_divide", "remainder", "greater_equal", "bitwise_and", "left_shift"),
    ],
)
def test_binary_noncontiguous_and_negative_strides(ops):
    rng = np.random.default_rng(13)
    for op, dt in itertools.product(ops, ("int8", "int64", "float32", "float64")):
        base_a, base_b = values(dt, (6, 8), rng, op), values(dt, (6, 8), rng, op)
        ta, tb = pyasc.from_numpy(base_a), pyasc.Tensor(base_b)  # shared and copied bases
        for (na, ia), (nb, ib) in itertools.product(_views(base_a), repeat=2):
            a, b = base_a[ia], base_b[ib]
            if a.ndim != b.ndim or a.shape != b.shape:
                b = base_b[ib][..., None] if b.ndim < a.ndim else b
                if np.broadcast_shapes is None:  # pragma: no cover
                    continue
                try:
                    np.broadcast_shapes(a.shape, b.shape)
                except ValueError:
                    continue
            tva, tvb = ta[ia], tb[ib] if b.ndim == base_b[ib].ndim else tb[ib][..., None]
            assert tva.strides == a.strides
            compare_binary(op, a, b, tva, tvb, f"{op} {dt} {na} x {nb}")
    for op in ops:  # transposed and broadcast (stride 0) operands
        a = values("float32", (4, 5), rng, op)
        b = values("float32", (5,), rng, op)
        t = pyasc.Tensor(a)
        compare_binary(op, a.T, a.T, t.T, t.T, f"{op} transposed")
        compare_binary(
            op,
            a.T,
            np.broadcast_to(b[:, None], (5, 4)),
            t.T,
            pyasc.Tensor(b)[:, None].expand(5, 4),
            f"{op} expanded",
        )


# --- integer edge cases -----------------------------------------------------------------


def test_integer_division_edge_cases():
    for dtype in INTS:
        _integer_division_edge_cases(dtype)


def _integer_division_edge_cases(dtype):
    info = np.iinfo(dtype)
    if info.min < 0:
        a = np.array([info.min, info.min, info.max, 7, -7, 7, -7, 5, 0, info.min, -1, 1], dtype)
        b = np.array([-1, 1, -1, 2, 2, -2, -2, 0, 0, 0, info.min, info.max], dtype)
    else:
        a = np.array([0, 255, 7, 5, 3, 255, 0], dtype)
        b = np.array([0, 0, 2, 3, 9, 255, 1], dtype)
    for op in ("floor_divide", "remainder"):
        compare_binary(op, a, b, pyasc.Tensor(a), pyasc.Tensor(b), f"{op} {dtype}")
    q, r = divmod(pyasc.Tensor(a), pyasc.Tensor(b))
    with np.errstate(all="ignore"):
        nq, nr = divmod(a, b)
    check_same(q, nq, "divmod q")
    check_same(r, nr, "divmod r")


def test_float_division_edge_cases():
    a = np.array([1.0, -1.0, 0.0, -0.0, np.inf, -np.inf, np.nan, 5.5, -5.5, 5.5, 1e308, 7.0])
    b = np.array([0.0, 0.0, 0.0, 1.0, 2.0, -np.inf, 1.0, -2.0, 2.0, np.inf, 1e-308, -0.0])
    for dt in FLOATS:
        x, y = a.astype(dt), b.astype(dt)
        for op in ("divide", "floor_divide", "remainder", "maximum", "minimum", "power"):
            compare_binary(op, x, y, pyasc.Tensor(x), pyasc.Tensor(y), f"{op} {dt}")


def test_shift_edge_cases():
    for dtype in INTS:
        _shift_edge_cases(dtype)


def _shift_edge_cases(dtype):
    bits = np.iinfo(dtype).bits
    s = np.array([0, 1, bits - 1, bits, bits + 1, 63, 64, 100], dtype=np.int64)
    s = s[s <= np.iinfo(dtype).max].astype(dtype)
    for x0 in (3, -5 if np.iinfo(dtype).min < 0 else 200, np.iinfo(dtype).max, np.iinfo(dtype).min):
        x = np.full(s.shape, x0, dtype)
        for op in ("left_shift", "right_shift"):
            compare_binary(op, x, s, pyasc.Tensor(x), pyasc.Tensor(s), f"{op} {dtype} {x0}")
    if np.iinfo(dtype).min < 0:  # negative shift counts: NumPy gives 0 (or -1 for >> of negatives)
        neg = np.array([-1, -8], dtype)
        for op in ("left_shift", "right_shift"):
            x = np.array([5, -5], dtype)
            compare_binary(op, x, neg, pyasc.Tensor(x), pyasc.Tensor(neg), f"{op} {dtype} negative")


def test_integer_power_wraps_like_numpy():
    for dtype in INTS:
        a = np.array([2, 3, -2 if not dtype.startswith("uint") else 2, 0, 1, 7], dtype)
        b = np.array([7, 5, 3, 0, 100, 0], dtype)
        compare_binary("power", a, b, pyasc.Tensor(a), pyasc.Tensor(b), f"power {dtype}")
        big = np.array([3], dtype)
        e = np.array([40], dtype)
        compare_binary(
            "power", big, e, pyasc.Tensor(big), pyasc.Tensor(e), f"power {dtype} overflow"
        )


def test_negative_integer_power_fails_at_synchronisation():
    with pytest.raises(ValueError, match="Integers to negative integer powers are not allowed"):
        np.array([2, 3], np.int32) ** np.array([1, -1], np.int32)
    readers = {
        "numpy": lambda t: t.numpy(),
        "tolist": lambda t: t.tolist(),
        "item": lambda t: t[1].item(),
        "asarray": np.asarray,
        "synchronize": lambda t: pyasc.synchronize(),
        "repr": repr,
        "str": str,
        "float": lambda t: float(t[1]),
    }
    for name, read in readers.items():
        t = pyasc.Tensor(np.array([2, 3], np.int32)) ** pyasc.Tensor(np.array([1, -1], np.int32))
        with pytest.raises(
            pyasc.InvalidValueError, match="integers to negative integer powers are not allowed"
        ):
            read(t)
        # Reported once: the stream works again afterwards.
        check_same(pyasc.Tensor([1, 2]) + 1, np.array([2, 3]), f"after the error ({name})")


def test_negative_power_scalar_and_numpy_ufunc_paths():
    t = pyasc.Tensor(np.array([2, 3]))
    later = np.add(t**-1, 1)  # queued after the failing power, skipped
    with pytest.raises(pyasc.InvalidValueError, match="negative integer powers"):
        np.array(later)  # NumPy tries the buffer protocol, then __array__
    with pytest.raises(pyasc.InvalidValueError):
        (t ** pyasc.Tensor(np.array([-2, 1]))).numpy()
    with pytest.raises(pyasc.InvalidValueError):
        memoryview(t**-2)


# --- in-place forms and out= ------------------------------------------------------------


@pytest.mark.parametrize(
    "ops",
    [
        ("add", "subtract", "multiply", "divide"),
        ("floor_divide", "remainder", "power"),
        ("bitwise_and", "bitwise_or", "bitwise_xor", "left_shift", "right_shift"),
    ],
)
def test_inplace_matches_numpy(ops):
    rng = np.random.default_rng(17)
    kinds = ("bool", "int8", "uint8", "int32", "float16", "float32", "float64")
    for op, da, db in itertools.product(ops, kinds, kinds):
        a, b = values(da, (3, 4), rng, op), values(db, (4,), rng, op)
        base = np.array(a)
        t = pyasc.from_numpy(base)
        with np.errstate(all="ignore"):
            try:
                INPLACE[op](a, b)
                exc = None
            except (TypeError, ValueError) as e:
                exc = type(e)
        if exc is not None:
            with pytest.raises(expected_error(exc)):
                INPLACE[op](t, pyasc.Tensor(b))
            pyasc.synchronize()
            np.testing.assert_array_equal(base, np.array(a), err_msg=f"{op} {da} {db} unchanged")
            continue
        same = t
        t = INPLACE[op](t, pyasc.Tensor(b))
        assert t is same  # in place: the same tensor object
        pyasc.synchronize()
        if op == "power" and a.dtype.kind == "f":
            np.testing.assert_allclose(base, a, rtol=4 * np.finfo(a.dtype).eps)
        else:
            np.testing.assert_array_equal(base, a, err_msg=f"{op} {da} {db}", strict=True)


def test_inplace_same_kind_errors_leave_values():
    t = pyasc.Tensor(np.arange(4, dtype=np.int32))
    for fn in (
        lambda: operator.iadd(t, 1.5),
        lambda: operator.itruediv(t, 2),
        lambda: operator.iadd(t, pyasc.Tensor(np.ones(4, np.float16))),
    ):
        with pytest.raises(pyasc.DTypeError, match="same_kind"):
            fn()
    u = pyasc.Tensor(np.arange(4, dtype=np.uint8))
    with pytest.raises(pyasc.DTypeError, match="cannot cast the int16 result to the uint8 output"):
        u += pyasc.Tensor(np.ones(4, np.int8))
    b = pyasc.Tensor([True, False])
    with pytest.raises(pyasc.DTypeError):
        b += 1
    with pytest.raises(
        pyasc.InvalidValueError,
        match="output has shape \\(4,\\) but the operands broadcast to \\(2, 4\\)",
    ):
        t += np.ones((2, 4), np.int32)
    check_same(t, np.arange(4, dtype=np.int32), "t unchanged")
    check_same(u, np.arange(4, dtype=np.uint8), "u unchanged")
    check_same(b, np.array([True, False]), "b unchanged")


def test_inplace_through_views():
    a = np.arange(24, dtype=np.float32).reshape(4, 6)
    t = pyasc.Tensor(a)
    view = t[1:, ::-2]
    view *= 10
    a[1:, ::-2] *= 10
    check_same(t, a, "through a negative-step view")
    col = t[:, 2]
    col += t[:, 3]  # reads another column of the same storage
    a[:, 2] += a[:, 3]
    check_same(t, a, "column += column")


def test_out_argument():
    rng = np.random.default_rng(19)
    a, b = values("float32", (3, 4), rng), values("float32", (4,), rng)
    out = pyasc.Tensor(np.zeros((3, 4), np.float64))
    res = pyasc.multiply(a, b, out=out)
    assert res is out
    check_same(out, np.multiply(a, b, out=np.zeros((3, 4), np.float64)), "out float64")
    # Overlapping out (shifted view of an input), as NumPy handles it.
    x = np.arange(10.0)
    t = pyasc.from_numpy(x)
    pyasc.add(t[:-1], t[1:], out=t[1:])
    pyasc.synchronize()
    y = np.arange(10.0)
    np.add(y[:-1], y[1:], out=y[1:])
    np.testing.assert_array_equal(x, y)
    x = np.arange(10.0)
    t = pyasc.from_numpy(x)
    pyasc.subtract(t[::-1], 1, out=t)
    pyasc.synchronize()
    y = np.arange(10.0)
    np.subtract(y[::-1], 1, out=y)
    np.testing.assert_array_equal(x, y)
    # Errors: wrong kind, wrong shape, not a tensor.
    o = pyasc.Tensor(np.zeros(3, np.int32))
    with pytest.raises(pyasc.DTypeError, match="same_kind"):
        pyasc.divide([1, 2, 3], [1, 2, 3], out=o)
    with pytest.raises(pyasc.InvalidValueError, match="output has shape"):
        pyasc.add([1, 2, 3], [1, 2, 3], out=pyasc.Tensor(np.zeros(4, np.int64)))
    with pytest.raises(TypeError, match="out must be a pyasc.Tensor"):
        pyasc.add([1], [2], out=np.zeros(1))
    check_same(o, np.zeros(3, np.int32), "out unchanged")
    comparison_out = pyasc.Tensor(np.zeros(3, np.int8))
    pyasc.less([1, 5, 3], [2, 2, 2], out=comparison_out)
    check_same(comparison_out, np.less([1, 5, 3], [2, 2, 2]).astype(np.int8), "bool into int8")


# --- NumPy exchange ---------------------------------------------------------------------


def test_from_numpy_and_asarray_share_both_ways():
    a = np.arange(6, dtype=np.float32).reshape(2, 3)[:, ::-1]
    t = pyasc.from_numpy(a)
    assert t.strides == a.strides and t.data_ptr == a.__array_interface__["data"][0]
    a[0, 0] = 50.0
    assert t[0, 0].item() == 50.0
    t[1, 2] = -4.0
    pyasc.synchronize()
    assert a[1, 2] == -4.0
    back = t.numpy()
    assert np.shares_memory(back, a) and back.strides == a.strides
    assert np.shares_memory(np.asarray(t), a)
    s = pyasc.asarray(a)
    assert s.data_ptr == t.data_ptr
    assert pyasc.asarray(t) is t
    assert pyasc.asarray(t, dtype=pyasc.float32) is t
    converted = pyasc.asarray(t, dtype=pyasc.float64)
    assert converted.dtype == pyasc.float64 and converted.data_ptr != t.data_ptr
    ro = np.arange(3.0)
    ro.flags.writeable = False
    check_same(pyasc.from_numpy(ro), ro, "read-only arrays can be shared")
    with pytest.raises(pyasc.DTypeError, match="from_numpy needs an array"):
        pyasc.from_numpy([1, 2, 3])


def test_tensor_constructor_copies():
    a = np.arange(4, dtype=np.int16)
    t = pyasc.Tensor(a)
    a[0] = 100
    assert t[0].item() == 0 and t.data_ptr != a.ctypes.data
    check_same(pyasc.Tensor([[1, 2], [3, 4]]), np.array([[1, 2], [3, 4]]), "nested lists")
    check_same(pyasc.Tensor(3.5), np.array(3.5), "Python float is 0-d float64")
    check_same(pyasc.Tensor(7), np.array(7), "Python int is 0-d int64")
    check_same(pyasc.Tensor(True), np.array(True), "Python bool")
    check_same(pyasc.Tensor([1, 2], dtype=pyasc.float16), np.array([1, 2], np.float16), "dtype=")
    check_same(
        pyasc.Tensor(np.arange(6).reshape(2, 3)[:, ::-1]),
        np.arange(6).reshape(2, 3)[:, ::-1],
        "views",
    )
    check_same(pyasc.Tensor(pyasc.Tensor([1.0])), np.array([1.0]), "from a tensor")
    check_same(pyasc.Tensor([]), np.array([]), "empty list is float64")


def test_unsupported_conversions():
    cases = [
        np.array([1 + 2j], np.clongdouble),
        np.array(["a"]),
        np.array([None, 1], dtype=object),
        np.array([1], "datetime64[s]"),
        [1, "a"],
        {"a": 1},
        [[1, 2], [3]],
        "text",
    ]
    for data in cases:
        with pytest.raises((pyasc.DTypeError, ValueError)):
            pyasc.Tensor(data)
        with pytest.raises((pyasc.DTypeError, ValueError)):
            pyasc.asarray(data)
    with pytest.raises(pyasc.DTypeError, match="unsupported element format 'Zg'"):
        pyasc.Tensor(np.array([1 + 2j], np.clongdouble))
    t = pyasc.Tensor([1.0, 2.0])
    with pytest.raises(TypeError):
        t + np.array([1 + 2j, 1], np.clongdouble)
    with pytest.raises(TypeError):
        t + "a"
    check_same(t, np.array([1.0, 2.0]), "unchanged")


def test_bad_dtype_arguments():
    t = pyasc.Tensor([1.0, 2.0])
    with pytest.raises(pyasc.DTypeError, match="cannot interpret"):
        t.astype("complex256")
    with pytest.raises(pyasc.DTypeError):
        pyasc.Tensor([1], dtype="uint128")
    with pytest.raises(
        pyasc.DTypeError, match="bitwise_and is not supported for float64 and float64"
    ):
        t & t
    with pytest.raises(pyasc.DTypeError, match="boolean subtract"):
        pyasc.Tensor([True]) - pyasc.Tensor([False])
    check_same(t, np.array([1.0, 2.0]), "unchanged")


# --- Python protocols and properties ----------------------------------------------------


def test_len_iter_bool_like_numpy():
    a = np.arange(6).reshape(3, 2)
    t = pyasc.Tensor(a)
    assert len(t) == 3
    rows = list(t)
    assert len(rows) == 3
    for row, ref in zip(rows, a):
        check_same(row, ref, "row")
    with pytest.raises(TypeError):
        len(pyasc.Tensor(1.0))
    with pytest.raises(TypeError):
        iter(pyasc.Tensor(1.0)).__next__()
    assert len(pyasc.Tensor(np.zeros((0, 4)))) == 0 and list(pyasc.Tensor(np.zeros((0, 4)))) == []
    assert bool(pyasc.Tensor([7])) is True and bool(pyasc.Tensor([[0.0]])) is False
    assert bool(pyasc.Tensor(np.array(np.nan))) is bool(np.array(np.nan))
    for data in ([1, 2], np.zeros((0,))):
        with pytest.raises(ValueError):
            bool(np.asarray(data))
        with pytest.raises(ValueError, match="ambiguous"):
            bool(pyasc.Tensor(data))
    assert int(pyasc.Tensor([[3]])) == 3 and float(pyasc.Tensor(2.5)) == 2.5
    with pytest.raises(TypeError):
        int(pyasc.Tensor([1, 2]))
    assert [10, 20, 30][pyasc.Tensor(np.int8(2))] == 30  # __index__
    with pytest.raises(TypeError):
        [1, 2][pyasc.Tensor(1.0)]


def test_repr_and_str():
    assert (
        repr(pyasc.Tensor(np.array([10.0, 14.0, 18.0]))) == "Tensor([10., 14., 18.], dtype=float64)"
    )
    assert repr(pyasc.Tensor(np.int8(5))) == "Tensor(5, dtype=int8)"
    assert repr(pyasc.Tensor([True, False])) == "Tensor([ True, False], dtype=bool)"
    assert repr(pyasc.Tensor(np.zeros((2, 0)))) == "Tensor([], shape=(2, 0), dtype=float64)"
    assert repr(pyasc.Tensor(np.zeros(0, np.int32))) == "Tensor([], dtype=int32)"
    a = np.arange(6, dtype=np.float32).reshape(2, 3) / 3
    text = np.array2string(a, separator=", ", prefix="Tensor(")
    assert repr(pyasc.Tensor(a)) == f"Tensor({text}, dtype=float32)"
    assert "\n       " in repr(pyasc.Tensor(a))  # continuation lines aligned under "Tensor("
    big = np.arange(5000)
    assert "..." in repr(pyasc.Tensor(big))
    for arr in (a, big, np.array(1.5, np.float16), np.zeros((2, 0))):
        assert str(pyasc.Tensor(arr)) == str(arr)


def test_properties_match_numpy():
    for dtype in DTYPES:
        _properties_case(dtype)


def _properties_case(dtype):
    base = np.zeros((4, 6, 5), dtype=dtype)
    for key in [
        (),
        (slice(None, None, -1), slice(1, None, 2)),
        (1, Ellipsis, None),
        (Ellipsis, 0),
        (0, 0, 0),
    ]:
        a = base[key]
        t = pyasc.from_numpy(base)[key]
        assert t.shape == a.shape and t.ndim == a.ndim and t.size == a.size
        assert t.strides == a.strides and t.itemsize == a.itemsize and t.nbytes == a.nbytes
        assert t.dtype == pyasc.dtype(dtype) and t.dtype == a.dtype
        assert t.T.shape == a.T.shape and t.T.strides == a.T.strides
    assert pyasc.Tensor(np.zeros(3, dtype)).device == "cpu:0"


def test_item_and_tolist():
    for dtype in DTYPES:
        _item_tolist_case(dtype)


def _item_tolist_case(dtype):
    rng = np.random.default_rng(23)
    a = values(dtype, (2, 3), rng)
    t = pyasc.Tensor(a)
    ref = a.tolist()
    got = t.tolist()
    assert len(got) == 2
    for r_row, g_row in zip(ref, got):
        for r, g in zip(r_row, g_row):
            assert type(g) is type(r)
            assert (g == r) or (g != g and r != r)
    item = t[1, 2].item()
    ref_item = a[1, 2].item()
    assert type(item) is type(ref_item) and (
        item == ref_item or (item != item and ref_item != ref_item)
    )
    assert pyasc.Tensor(a[:1, :1]).item() == a[:1, :1].item() or dtype.startswith("float")
    with pytest.raises(ValueError, match="size 1"):
        t.item()
    assert pyasc.Tensor(np.array(3, dtype)).tolist() == np.array(3, dtype).tolist()


# --- hypothesis properties --------------------------------------------------------------

HYPOTHESIS = settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])

dims = st.integers(min_value=0, max_value=4)
shapes = st.lists(dims, min_size=0, max_size=4).map(tuple)


def _broadcastable(draw_shape: tuple[int, ...], rng_bits: list[bool]) -> tuple[int, ...]:
    """A shape related to draw_shape: some dims replaced by 1, a suffix kept."""
    return tuple(1 if keep else d for d, keep in zip(draw_shape, rng_bits))


@HYPOTHESIS
@given(
    sa=shapes,
    sb=shapes,
    ones=st.lists(st.booleans(), min_size=4, max_size=4),
    related=st.booleans(),
    dtype=st.sampled_from(("int16", "float32", "float64")),
)
def test_property_broadcasting(sa, sb, ones, related, dtype):
    if related:  # make compatible shapes likely: b is a suffix of a with some dims set to 1
        sb = _broadcastable(sa[len(sa) - len(sb) :] if len(sb) <= len(sa) else sa, ones)
    a = np.arange(int(np.prod(sa)), dtype=dtype).reshape(sa)
    b = (np.arange(int(np.prod(sb)), dtype=dtype) * 3 - 5).reshape(sb)
    ref, exc = numpy_call(lambda: a * b - a)
    if exc is not None:
        with pytest.raises(pyasc.InvalidValueError):
            pyasc.Tensor(a) * pyasc.Tensor(b) - pyasc.Tensor(a)
        return
    check_same(pyasc.Tensor(a) * pyasc.Tensor(b) - pyasc.Tensor(a), ref, f"{sa} {sb}")


@HYPOTHESIS
@given(
    da=st.sampled_from(DTYPES),
    db=st.sampled_from(DTYPES),
    op=st.sampled_from(("add", "multiply", "maximum", "divide", "less", "floor_divide")),
)
def test_property_promotion(da, db, op):
    a = np.array([1, 0, 1], dtype=da)
    b = np.array([1, 1, 0], dtype=db)
    compare_binary(op, a, b, pyasc.Tensor(a), pyasc.Tensor(b), f"{op}({da}, {db})")


def _index_item(shape_len: int):
    ints = st.integers(min_value=-6, max_value=5)
    opt = st.one_of(st.none(), st.integers(min_value=-8, max_value=8))
    slices = st.builds(slice, opt, opt, st.one_of(st.none(), st.integers(-3, 3).filter(bool)))
    return st.one_of(ints, slices, st.just(None), st.just(Ellipsis))


@HYPOTHESIS
@given(
    shape=st.lists(st.integers(1, 5), min_size=0, max_size=4).map(tuple),
    key=st.lists(_index_item(4), min_size=0, max_size=5).map(tuple),
)
def test_property_basic_indexing(shape, key):
    a = np.arange(int(np.prod(shape)), dtype=np.int32).reshape(shape)
    t = pyasc.from_numpy(a)
    try:
        ref = a[key]
    except IndexError:
        with pytest.raises(IndexError):
            t[key]
        return
    got = t[key]
    check_same(got, ref, f"{shape}[{key!r}]")
    assert got.strides == ref.strides
