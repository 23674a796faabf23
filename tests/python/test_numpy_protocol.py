"""NumPy's dispatch protocols on pyasc.Tensor: __array_ufunc__ (NEP 13) and
__array_function__ (NEP 18) run pyasc functions and return tensors; what
pyasc has no function for raises TypeError (NotImplemented)."""

from __future__ import annotations

import types

import numpy as np
import pytest

import pyasc
from pyasc.language.core import KernelBuiltin

BINARY = [
    "add",
    "subtract",
    "multiply",
    "true_divide",
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
]
DTYPES = ["bool", "uint8", "int16", "int64", "float32", "float64"]


def operands(dtype: str) -> tuple[np.ndarray, np.ndarray]:
    """(3, 4) and (4,) arrays valid for every binary op: b is positive and
    small (divisors, exponents, shift counts)."""
    rng = np.random.default_rng(3)
    if dtype == "bool":
        return rng.integers(0, 2, (3, 4)).astype(bool), np.array([True, True, False, True])
    a = rng.integers(0, 20, (3, 4)) if dtype != "int16" else rng.integers(-20, 20, (3, 4))
    b = np.array([1, 2, 3, 1])
    if dtype.startswith("float"):
        a = a + rng.random((3, 4))
        b = b + 0.5
    return a.astype(dtype), b.astype(dtype)


def numpy_result(ufunc: np.ufunc, *args: object) -> np.ndarray | type[TypeError]:
    try:
        with np.errstate(all="ignore"):
            return np.asarray(ufunc(*args))
    except TypeError:
        return TypeError


def check(result: object, expected: np.ndarray) -> None:
    assert isinstance(result, pyasc.Tensor)
    got = result.numpy()
    assert got.dtype == expected.dtype and got.shape == expected.shape
    np.testing.assert_allclose(got, expected, rtol=1e-6, equal_nan=True)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("name", BINARY)
def test_binary_ufuncs_run_pyasc(name, dtype):
    ufunc = getattr(np, name)
    a, b = operands(dtype)
    expected = numpy_result(ufunc, a, b)
    ta, tb = pyasc.Tensor(a), pyasc.Tensor(b)
    if expected is TypeError:  # NumPy has no loop for the dtype: neither has pyasc
        with pytest.raises(TypeError):
            ufunc(ta, tb)
        return
    check(ufunc(ta, tb), expected)
    check(ufunc(a, tb), expected)  # a NumPy array operand still gives a tensor
    check(ufunc(ta, b), expected)
    at = pyasc.Tensor(np.ascontiguousarray(a.T)).T  # a strided view
    check(ufunc(at, tb), expected)


def test_operators_with_ndarrays_give_tensors():
    a = np.arange(6.0).reshape(2, 3)
    t = pyasc.Tensor(np.full(3, 2.0))
    check(a + t, a + 2)
    check(a * t, a * 2)
    check(a - t, a - 2)
    check(a ** t, a**2)
    check(a == t, a == 2)
    check(a < t, a < 2)
    check(t / a[1], 2 / a[1])


def test_scalars_and_lists():
    t = pyasc.Tensor(np.arange(4, dtype=np.int16))
    check(np.add(t, 3), np.arange(4, dtype=np.int16) + 3)  # weak Python int keeps int16
    check(np.multiply(2.5, t), 2.5 * np.arange(4, dtype=np.int16))
    check(np.add(t, np.int64(1)), np.arange(4, dtype=np.int16) + np.int64(1))  # strong
    check(np.add([1, 2, 3, 4], t), np.array([1, 2, 3, 4]) + np.arange(4, dtype=np.int16))
    check(np.subtract(t, [[1], [2]]), np.arange(4, dtype=np.int16) - np.array([[1], [2]]))


def test_zero_dim_and_empty():
    z = pyasc.Tensor(np.float32(1.5))
    check(np.add(z, z), np.asarray(np.float32(3.0)))
    e = pyasc.Tensor(np.zeros((0, 3), dtype=np.float64))
    check(np.multiply(e, pyasc.Tensor(np.ones(3))), np.zeros((0, 3)))


def test_out_argument():
    a = np.arange(6, dtype=np.float32).reshape(2, 3)
    t = pyasc.Tensor(a)
    out = pyasc.Tensor(np.zeros((2, 3), dtype=np.float32))
    assert np.add(t, t, out=out) is out
    np.testing.assert_array_equal(out.numpy(), a + a)
    assert np.multiply(t, a, out=(out,)) is out
    np.testing.assert_array_equal(out.numpy(), a * a)
    wide = pyasc.Tensor(np.zeros((2, 3), dtype=np.float64))  # same_kind: float32 -> float64
    assert np.subtract(t, 1, out=wide) is wide
    np.testing.assert_array_equal(wide.numpy(), a - 1)
    ints = pyasc.Tensor(np.zeros((2, 3), dtype=np.int32))
    with pytest.raises(TypeError):  # float into int is not same_kind, as in NumPy
        np.add(t, t, out=ints)
    # a NumPy array as out: NumPy writes it (a counted fallback)
    before = pyasc.numpy_fallbacks().get("add", 0)
    out = np.zeros((2, 3), dtype=np.float32)
    assert np.add(t, t, out=out) is out
    np.testing.assert_array_equal(out, 2 * t.numpy())
    assert pyasc.numpy_fallbacks()["add"] == before + 1


@pytest.mark.parametrize(
    "kwargs",
    [{"where": np.array([True, False, True])}, {"dtype": np.float64}, {"casting": "unsafe"}, {"order": "C"}],
    ids=["where", "dtype", "casting", "order"],
)
def test_ufunc_keywords_pyasc_lacks_run_in_numpy(kwargs):
    a = np.arange(3, dtype=np.float32)
    t = pyasc.Tensor(a)
    got = np.add(t, t, **kwargs)
    assert not isinstance(got, pyasc.Tensor)
    chosen = kwargs.get("where", True)  # where= leaves the other places unset
    np.testing.assert_array_equal(np.where(chosen, got, 0), np.where(chosen, np.add(a, a, **kwargs), 0))


def test_neutral_ufunc_keywords_are_accepted():
    t = pyasc.Tensor(np.ones(3, dtype=np.float32))
    r = np.add(t, t, where=True, casting="same_kind", dtype=None, order="K", subok=True)
    check(r, np.full(3, 2.0, dtype=np.float32))


@pytest.mark.parametrize(
    "name, call",
    [
        ("add.reduce", lambda t: np.add.reduce(t)),
        ("add.accumulate", lambda t: np.add.accumulate(t)),
        ("multiply.outer", lambda t: np.multiply.outer(t, t)),
        ("add.reduceat", lambda t: np.add.reduceat(t, [0, 1])),
        ("divmod", lambda t: np.divmod(t, t)),  # two outputs
        ("<lambda> (vectorized)", lambda t: np.frompyfunc(lambda x: x * 2, 1, 1)(t)),
        ("kron", lambda t: np.kron(t, t)),
        ("trapezoid", lambda t: np.trapezoid(t)),
        ("gradient", lambda t: np.gradient(t)),
        ("polyval", lambda t: np.polyval(t, 2.0)),
    ],
)
def test_what_pyasc_lacks_runs_in_numpy(name, call):
    a = np.arange(1.0, 4.0)
    t = pyasc.from_numpy(a)
    pyasc.numpy_fallbacks(reset=True)
    got, want = call(t), call(a)
    assert not isinstance(got, pyasc.Tensor)  # NumPy's results, as NumPy documents them
    if isinstance(want, tuple):
        for g, w in zip(got, want):
            np.testing.assert_array_equal(g, w)
    else:
        np.testing.assert_array_equal(np.asarray(got, dtype=object), np.asarray(want, dtype=object))
    counts = pyasc.numpy_fallbacks()
    assert sum(counts.values()) >= 1, counts


def test_fallbacks_warn_when_asked_and_write_through_out():
    t = pyasc.from_numpy(np.arange(4.0))
    pyasc.warn_on_numpy_fallback(True)
    try:
        with pytest.warns(pyasc.NumPyFallbackWarning, match="numpy.add.accumulate"):
            np.add.accumulate(t)
    finally:
        pyasc.warn_on_numpy_fallback(False)
    out = pyasc.zeros(4)
    np.cumsum(np.arange(4.0), out=out.numpy())
    np.add.accumulate(t, out=(out,))  # out= a tensor: NumPy writes its memory
    np.testing.assert_array_equal(out.numpy(), np.cumsum(np.arange(4.0)))
    assert pyasc.numpy_fallbacks(reset=True).get("add.accumulate", 0) >= 2
    assert pyasc.numpy_fallbacks() == {}


def test_numpy_functions_pyasc_has_run_in_pyasc():
    """np.isclose/np.allclose/np.einsum/np.pad/np.split on tensors take
    pyasc's functions (pyasc results; einsum is still NumPy's work)."""
    t = pyasc.from_numpy(np.arange(1.0, 4.0))
    close = np.isclose(t, t + 1e-12)
    assert isinstance(close, pyasc.Tensor) and close.tolist() == [True] * 3
    assert np.allclose(t, t + 1e-12) is True
    assert isinstance(np.pad(t, 1), pyasc.Tensor)
    assert all(isinstance(p, pyasc.Tensor) for p in np.split(t, 3))
    pyasc.numpy_fallbacks(reset=True)
    assert isinstance(np.einsum("i,i->", t, t), pyasc.Tensor)
    assert pyasc.numpy_fallbacks() == {"einsum": 1}


def test_numpy_errors_pass_through_the_fallback():
    t = pyasc.from_numpy(np.arange(1.0, 4.0))
    with pytest.raises(TypeError):
        np.add(t, np.datetime64(1, "s"))
    with pytest.raises(ValueError):
        np.einsum("ij->", t)


def test_numpy_dtype_and_membership():
    assert np.dtype(pyasc.float32) == np.float32
    assert np.dtype(pyasc.complex128) == np.complex128
    with pytest.raises(TypeError):
        np.dtype(pyasc.bfloat16)
    t = pyasc.asarray([1.0, 3.0])
    assert 3.0 in t and 3 in t and 2.0 not in t
    assert (1 + 0j) in pyasc.asarray(np.array([1 + 0j, 2j]))


class Foreign:
    """Another array type that implements both protocols."""

    def __array_ufunc__(self, ufunc, method, *inputs, **kwargs):
        return ("foreign ufunc", ufunc.__name__)

    def __array_function__(self, func, types_, args, kwargs):
        return ("foreign function", func.__name__)


def test_other_array_types_get_their_turn():
    t = pyasc.Tensor(np.ones(2))
    assert np.add(t, Foreign()) == ("foreign ufunc", "add")
    assert np.add(Foreign(), t) == ("foreign ufunc", "add")
    assert np.concatenate([t, Foreign()]) == ("foreign function", "concatenate")


def test_unary_ufuncs_follow_pyasc():
    """Every one-input NumPy ufunc that pyasc has a function for runs it."""
    assert hasattr(pyasc, "sin")
    x = np.linspace(0.1, 0.9, 7)
    t = pyasc.Tensor(x)
    ran = []
    for name in dir(np):
        ufunc = getattr(np, name)
        if not isinstance(ufunc, np.ufunc) or ufunc.nin != 1 or ufunc.nout != 1:
            continue
        if not eager(getattr(pyasc, ufunc.__name__, None)) or ufunc.__name__ in ran:
            continue
        expected = numpy_result(ufunc, x)
        if expected is TypeError:
            with pytest.raises(TypeError):
                ufunc(t)
        else:
            check(ufunc(t), expected)
        ran.append(ufunc.__name__)
    assert "sin" in ran
    s = pyasc.Tensor(np.linspace(-3, 3, 11, dtype=np.float32))
    check(np.sin(s), np.sin(np.linspace(-3, 3, 11, dtype=np.float32)))
    out = pyasc.Tensor(np.zeros(11, dtype=np.float32))
    assert np.sin(s, out=out) is out
    np.testing.assert_allclose(out.numpy(), np.sin(s.numpy()), rtol=1e-6)


# --- __array_function__ ---------------------------------------------------------


def test_functions_forward_to_pyasc(monkeypatch):
    calls = []

    def concatenate(*args, **kwargs):
        calls.append((args, kwargs))
        return "from pyasc"

    monkeypatch.setattr(pyasc, "concatenate", concatenate, raising=False)
    t = pyasc.Tensor(np.ones((2, 2)))
    a = np.zeros((2, 2))
    assert np.concatenate([t, a], axis=1) == "from pyasc"
    ((args, kwargs),) = calls
    assert args[0][0] is t and args[0][1] is a and kwargs == {"axis": 1}
    assert np.concat((t, t)) == "from pyasc"  # NumPy's alias of concatenate


def test_functions_pyasc_lacks_run_in_numpy(monkeypatch):
    t = pyasc.Tensor(np.ones(3))
    for stand_in in (None, 5, pyasc.Tensor):  # missing, not a function, a class
        if stand_in is None:
            monkeypatch.delattr(pyasc, "concatenate", raising=False)
        else:
            monkeypatch.setattr(pyasc, "concatenate", stand_in, raising=False)
        got = np.concatenate([t, t])
        assert type(got) is np.ndarray and got.tolist() == [1.0] * 6


def test_function_aliases_and_submodules(monkeypatch):
    t = pyasc.Tensor(np.arange(4.0))
    monkeypatch.delattr(pyasc, "amax", raising=False)
    monkeypatch.setattr(pyasc, "max", lambda x, **kw: ("max", kw), raising=False)
    assert np.amax(t, axis=0) == ("max", {"axis": 0})
    monkeypatch.delattr(pyasc, "linalg", raising=False)
    assert np.linalg.norm(t) == np.linalg.norm(np.arange(4.0))  # NumPy's, on a view
    linalg = types.ModuleType("pyasc.linalg")
    linalg.norm = lambda x: "norm"
    monkeypatch.setattr(pyasc, "linalg", linalg, raising=False)
    assert np.linalg.norm(t) == "norm"


def eager(fn: object) -> bool:
    """An eager pyasc operation (kernel-language builtins only work in @pyasc.jit)."""
    return callable(fn) and not isinstance(fn, (type, KernelBuiltin))


def test_kernel_builtins_are_not_eager_operations(monkeypatch):
    monkeypatch.setattr(pyasc, "concatenate", KernelBuiltin("concatenate", "kernel only"))
    monkeypatch.setattr(pyasc, "sin", KernelBuiltin("sin", "kernel only"))
    t = pyasc.Tensor(np.ones(3))
    assert type(np.concatenate([t, t])) is np.ndarray  # NumPy's, not the kernel builtin
    assert type(np.sin(t)) is np.ndarray


def _case_args(name: str) -> tuple[tuple, dict]:
    x = np.arange(12, dtype=np.float32).reshape(3, 4) / 4
    return {
        "concatenate": (([x, x],), {"axis": 1}),
        "stack": (([x, x],), {}),
        "sum": ((x,), {"axis": 0}),
        "mean": ((x,), {}),
        "max": ((x,), {"axis": 1}),
        "where": ((x > 1, x, -x), {}),
        "clip": ((x, 0.5, 2.0), {}),
        "round": ((x * 3,), {}),
        "matmul": ((x, x.T), {}),
        "reshape": ((x, (4, 3)), {}),
        "transpose": ((x,), {}),
    }[name]


def _to_tensors(value: object) -> object:
    if isinstance(value, np.ndarray):
        return pyasc.Tensor(value)
    if isinstance(value, list):
        return [_to_tensors(v) for v in value]
    return value


@pytest.mark.parametrize(
    "name", ["concatenate", "stack", "sum", "mean", "max", "where", "clip", "round", "matmul", "reshape", "transpose"]
)
def test_numpy_functions_on_tensors(name):
    """pyasc's function (or, for reshape and transpose, the tensor's view)
    runs and matches NumPy, returning a tensor."""
    args, kwargs = _case_args(name)
    expected = np.asarray(getattr(np, name)(*args, **kwargs))
    targs = tuple(_to_tensors(a) for a in args)
    pyasc.numpy_fallbacks(reset=True)
    result = getattr(np, name)(*targs, **kwargs)
    assert pyasc.numpy_fallbacks() == {}
    assert isinstance(result, pyasc.Tensor)
    np.testing.assert_allclose(result.numpy(), expected, rtol=1e-6)


def test_conversions_still_give_ndarrays():
    t = pyasc.Tensor(np.arange(3, dtype=np.int32))
    for convert in (np.asarray, np.array, np.asanyarray, np.ascontiguousarray):
        a = convert(t)
        assert type(a) is np.ndarray and a.tolist() == [0, 1, 2]
    np.testing.assert_array_equal(t, [0, 1, 2])
    assert pyasc.Tensor.__array_priority__ > 0.0
