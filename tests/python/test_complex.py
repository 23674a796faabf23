"""complex64 and complex128 in the tensor library, checked against NumPy:
creation, conversion, arithmetic, the unary functions, reductions, matmul,
DLPack and torch round trips, and the refusals (ordering, kernels)."""

from __future__ import annotations

import numpy as np
import pytest

import pyasc

RNG = np.random.default_rng(20261203)
CDTYPES = [np.complex64, np.complex128]


def sample(shape, dtype):
    real = RNG.standard_normal(shape)
    imag = RNG.standard_normal(shape)
    return (real + 1j * imag).astype(dtype)


def close(dtype):
    return {"rtol": 2e-5, "atol": 1e-5} if dtype == np.complex64 else {"rtol": 1e-12, "atol": 1e-12}


@pytest.mark.parametrize("dtype", CDTYPES)
def test_round_trip_and_attributes(dtype):
    a = sample((3, 4), dtype)
    t = pyasc.asarray(a)
    assert t.dtype == pyasc.dtype(np.dtype(dtype).name)
    np.testing.assert_array_equal(t.numpy(), a)
    np.testing.assert_array_equal(np.asarray(t), a)
    assert t[1, 2].item() == complex(a[1, 2])
    assert t.tolist() == a.tolist()
    assert "j" in repr(t)


def test_creation_and_dtypes():
    assert pyasc.complex64.itemsize == 8 and pyasc.complex128.itemsize == 16
    assert pyasc.dtype(complex) == pyasc.complex128
    assert pyasc.dtype(np.complex64) == pyasc.complex64
    np.testing.assert_array_equal(pyasc.zeros((2, 3), dtype=pyasc.complex64).numpy(),
                                  np.zeros((2, 3), np.complex64))
    np.testing.assert_array_equal(pyasc.ones(3, dtype=pyasc.complex128).numpy(), np.ones(3, complex))
    full = pyasc.full((2,), 1 - 2j)
    assert full.dtype == pyasc.complex128
    np.testing.assert_array_equal(full.numpy(), np.full(2, 1 - 2j))
    np.testing.assert_array_equal(pyasc.eye(3, dtype=pyasc.complex64).numpy(), np.eye(3, dtype=np.complex64))
    np.testing.assert_array_equal(pyasc.Tensor([1 + 2j, 3]).numpy(), np.array([1 + 2j, 3]))
    with pytest.raises(pyasc.DTypeError, match="arange makes real numbers"):
        pyasc.arange(3, dtype=pyasc.complex64)


@pytest.mark.parametrize(
    "a, b",
    [
        (np.float32, np.complex64), (np.float64, np.complex64), (np.int16, np.complex64),
        (np.int32, np.complex64), (np.uint8, np.complex128), (np.complex64, np.complex128),
        (np.bool_, np.complex64), (np.float16, np.complex64),
    ],
)
def test_promotion_matches_numpy(a, b):
    x = pyasc.asarray(np.ones(2, a))
    y = pyasc.asarray(np.ones(2, b))
    assert (x + y).dtype.name == np.result_type(a, b).name


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64, np.int8, np.int64])
def test_python_complex_scalars_are_weak(dtype):
    x = np.ones(3, dtype)
    assert (pyasc.asarray(x) * 1j).dtype.name == (x * 1j).dtype.name


@pytest.mark.parametrize("dtype", CDTYPES)
def test_casts(dtype):
    a = sample((5,), dtype)
    for to in [np.complex64, np.complex128, np.bool_]:
        np.testing.assert_array_equal(pyasc.asarray(a).astype(np.dtype(to).name).numpy(), a.astype(to))
    for src in [np.float32, np.int16, np.float16, np.uint64]:
        x = np.arange(5).astype(src)
        np.testing.assert_array_equal(pyasc.asarray(x).astype(np.dtype(dtype).name).numpy(), x.astype(dtype))
    # to a real dtype the imaginary part goes, as NumPy's cast (which warns)
    with np.errstate(all="ignore"), pytest.warns(np.exceptions.ComplexWarning):
        expected = a.astype(np.float64)
    np.testing.assert_array_equal(pyasc.asarray(a).astype("float64").numpy(), expected)


@pytest.mark.parametrize("dtype", CDTYPES)
@pytest.mark.parametrize("name", ["add", "subtract", "multiply", "divide", "power", "equal", "not_equal",
                                  "logical_and", "logical_or", "logical_xor"])
def test_binary(dtype, name):
    a, b = sample((4, 3), dtype), sample((3,), dtype)
    b[0] = a[0, 0]  # an equal pair for the comparisons
    got = getattr(pyasc, name)(pyasc.asarray(a), pyasc.asarray(b)).numpy()
    want = getattr(np, name)(a, b)
    assert got.dtype == want.dtype
    np.testing.assert_allclose(got, want, **close(dtype))


def test_power_special_exponents():
    a = np.array([0j, 2 + 1j, np.nan + 0j, -1.5 + 0.5j])
    for e in [0, 1, 2, 3, -1, -2, 0.5]:
        got = pyasc.power(pyasc.asarray(a), e).numpy()
        with np.errstate(all="ignore"):
            want = np.power(a, e)
        np.testing.assert_allclose(got, want, rtol=1e-12, equal_nan=True)


UNARY = ["negative", "positive", "abs", "sign", "exp", "exp2", "expm1", "log", "log2", "log10", "log1p",
         "sqrt", "sin", "cos", "tan", "sinh", "cosh", "tanh", "arcsin", "arccos", "arctan", "arcsinh",
         "arccosh", "arctanh", "reciprocal", "square", "conj", "rint", "round", "isnan", "isinf",
         "isfinite", "logical_not", "real", "imag"]


@pytest.mark.parametrize("dtype", CDTYPES)
@pytest.mark.parametrize("name", UNARY)
def test_unary(dtype, name):
    a = sample((50,), dtype) * 2
    got = getattr(pyasc, name)(pyasc.asarray(a)).numpy()
    want = getattr(np, name)(a)
    assert got.dtype == want.dtype, (got.dtype, want.dtype)
    np.testing.assert_allclose(got, want, **close(dtype))


def test_special_values_follow_c99_annex_g():
    inf, nan = np.inf, np.nan
    z = np.array([complex(inf, 0), complex(-inf, inf), complex(0, nan), complex(nan, 0), 0j, -0j])
    t = pyasc.asarray(z)
    with np.errstate(all="ignore"):
        for name in ["exp", "log", "sqrt", "isnan", "isinf", "isfinite"]:
            np.testing.assert_array_equal(getattr(pyasc, name)(t).numpy(), getattr(np, name)(z), err_msg=name)
    # the Array API's sign: x / |x|, 0 for 0, NaN for NaN
    s = pyasc.sign(t).numpy()
    assert s[4] == 0 and np.isnan(s[3])


@pytest.mark.parametrize("dtype", CDTYPES)
@pytest.mark.parametrize("axis", [None, 0, 1, (0, 2), -1])
@pytest.mark.parametrize("keepdims", [False, True])
def test_reductions(dtype, axis, keepdims):
    a = sample((3, 5, 4), dtype)
    t = pyasc.asarray(a)
    for name in ["sum", "mean", "prod"]:
        got = getattr(pyasc, name)(t, axis=axis, keepdims=keepdims).numpy()
        want = getattr(np, name)(a, axis=axis, keepdims=keepdims)
        assert got.shape == want.shape and got.dtype == want.dtype
        np.testing.assert_allclose(got, want, rtol=1e-4 if dtype == np.complex64 else 1e-11)
    assert pyasc.any(t, axis=axis).numpy().tolist() == np.any(a, axis=axis).tolist()


@pytest.mark.parametrize("dtype", CDTYPES)
@pytest.mark.parametrize("axis, ddof", [(None, 0), (0, 1), ((0, 2), 0), (-1, 2)])
@pytest.mark.parametrize("keepdims", [False, True])
def test_var_and_std_are_real(dtype, axis, ddof, keepdims):
    """The spread of complex numbers, mean |z - mean(z)|^2, in the real
    dtype, against NumPy computed in complex128."""
    a = sample((3, 5, 4), dtype)
    t = pyasc.asarray(a)
    for name in ["var", "std"]:
        got = getattr(pyasc, name)(t, axis=axis, ddof=ddof, keepdims=keepdims).numpy()
        want = getattr(np, name)(a.astype(np.complex128), axis=axis, ddof=ddof, keepdims=keepdims)
        assert got.shape == want.shape
        assert got.dtype == (np.float32 if dtype == np.complex64 else np.float64)
        np.testing.assert_allclose(got, want, rtol=1e-5 if dtype == np.complex64 else 1e-12)
    with pytest.raises(pyasc.DTypeError, match="floating dtype"):
        pyasc.var(t, dtype=pyasc.int32)


def test_reduction_edges():
    empty = pyasc.asarray(np.zeros((0, 3), complex))
    np.testing.assert_array_equal(pyasc.prod(empty, axis=0).numpy(), np.ones(3, complex))
    np.testing.assert_array_equal(pyasc.sum(empty, axis=0).numpy(), np.zeros(3, complex))
    t = pyasc.asarray(np.arange(4.0))
    assert pyasc.sum(t, dtype=pyasc.complex128).item() == 6 + 0j
    strided = sample((6, 8), np.complex128)[::2, ::3]
    np.testing.assert_allclose(pyasc.sum(pyasc.asarray(strided), axis=1).numpy(), strided.sum(axis=1))
    np.testing.assert_allclose(pyasc.prod(pyasc.asarray(strided)).numpy(), strided.prod())
    with pytest.raises(pyasc.DTypeError, match="drop the imaginary part"):
        pyasc.sum(pyasc.asarray(np.ones(2, complex)), dtype=pyasc.float64)


@pytest.mark.parametrize("dtype", CDTYPES)
def test_matmul(dtype):
    a, b = sample((2, 3, 4), dtype), sample((4, 5), dtype)
    np.testing.assert_allclose((pyasc.asarray(a) @ pyasc.asarray(b)).numpy(), a @ b, **close(dtype))
    np.testing.assert_allclose((pyasc.asarray(a) @ pyasc.asarray(b[:, 0])).numpy(), a @ b[:, 0],
                               **close(dtype))
    at = pyasc.asarray(a).transpose(0, 2, 1)
    np.testing.assert_allclose((at @ pyasc.asarray(a)).numpy(), a.transpose(0, 2, 1) @ a, **close(dtype))
    mixed = pyasc.asarray(np.ones((4, 2), np.float32)) if dtype == np.complex64 else None
    if mixed is not None:
        assert (pyasc.asarray(a) @ mixed).dtype == pyasc.complex64


@pytest.mark.parametrize(
    "call, fragment",
    [
        (lambda t: t < t, "less is not supported for complex"),
        (lambda t: pyasc.maximum(t, t), "maximum is not supported for complex"),
        (lambda t: pyasc.floor_divide(t, t), "floor_divide is not supported for complex"),
        (lambda t: pyasc.max(t), "max is not supported for complex128"),
        (lambda t: pyasc.argmax(t), "argmax is not supported for complex128"),
        (lambda t: pyasc.floor(t), "floor is not supported for complex128"),
        (lambda t: pyasc.signbit(t), "signbit is not supported for complex128"),
        (lambda t: ~t, "invert is not supported for complex128"),
        (lambda t: pyasc.relu(t), "relu is not supported for complex128"),
    ],
)
def test_what_complex_does_not_have_is_refused(call, fragment):
    t = pyasc.asarray(np.array([1 + 1j, 2]))
    with pytest.raises(pyasc.DTypeError, match=fragment):
        call(t)


def test_numpy_protocols_take_complex():
    t = pyasc.asarray([1.0, 4.0])
    r = np.add(t, 1j)
    assert isinstance(r, pyasc.Tensor) and r.dtype == pyasc.complex128
    np.testing.assert_array_equal(r.numpy(), np.array([1.0, 4.0]) + 1j)
    r = np.multiply(t, np.complex64(2j))
    assert r.dtype == pyasc.complex128  # np.complex64 is a strong scalar


def test_dlpack_and_torch():
    torch = pytest.importorskip("torch")
    import pyasc.torch as pt

    for tdt in [torch.complex64, torch.complex128]:
        src = torch.tensor([1 + 2j, -3j], dtype=tdt)
        t = pyasc.from_dlpack(src)
        np.testing.assert_array_equal(t.numpy(), src.numpy())
        back = torch.from_dlpack(t)
        assert back.dtype == tdt and torch.equal(back, src)
        assert pt.from_torch(src).dtype.name == str(tdt).split(".")[1]


def test_real_views_round_trip():
    a = sample((3, 4), np.complex128)
    t = pyasc.asarray(a)[:, ::2]
    np.testing.assert_array_equal(pyasc.real(t).numpy(), a[:, ::2].real)
    np.testing.assert_array_equal(pyasc.imag(t).numpy(), a[:, ::2].imag)
    np.testing.assert_array_equal(pyasc.imag(pyasc.asarray([1.0, 2.0])).numpy(), [0.0, 0.0])


def test_kernels_refuse_complex(tmp_path):
    source = tmp_path / "complex_kernel.py"
    source.write_text(
        "import pyasc\n\n"
        "@pyasc.jit\n"
        "def k(x: pyasc.GlobalAddress):\n"
        "    t = pyasc.LocalTensor(pyasc.complex64, pyasc.TPosition.VECIN, 0, 16)\n"
    )
    import importlib.util

    spec = importlib.util.spec_from_file_location("complex_kernel", source)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    with pytest.raises(pyasc.CompileError, match="argument 'x' is a complex64 array"):
        module.k[1](np.zeros(4, np.complex64))
    with pytest.raises(pyasc.CompileError, match="no complex arithmetic"):
        module.k[1](np.zeros(8, np.float32))  # the GlobalTensor's dtype


def test_where_moves_whole_complex_elements():
    a = np.array([1 + 2j, 3 - 4j, 5j])
    b = np.array([-1j, 6, 7 + 7j])
    cond = np.array([True, False, True])
    got = pyasc.where(pyasc.asarray(cond), pyasc.asarray(a), pyasc.asarray(b)).numpy()
    np.testing.assert_array_equal(got, np.where(cond, a, b))
    got = pyasc.where(pyasc.asarray(cond), pyasc.asarray(a.astype(np.complex64)), 0).numpy()
    np.testing.assert_array_equal(got, np.where(cond, a.astype(np.complex64), 0))


def test_clip_refuses_complex():
    t = pyasc.asarray(np.array([1 + 1j]))
    with pytest.raises(pyasc.DTypeError, match="complex numbers have no order"):
        pyasc.clip(t, pyasc.asarray(np.zeros((2, 2), np.int64)), 0.5)


def test_attributes_real_imag_mT():
    a = np.array([[1 + 2j, 3j], [4, 5 - 1j]])
    t = pyasc.asarray(a)
    view = t.real
    view[0, 0] = 7.0  # a view, as NumPy's
    a[0, 0] = 7 + 2j
    np.testing.assert_array_equal(t.numpy(), a)
    np.testing.assert_array_equal(t.imag.numpy(), a.imag)
    np.testing.assert_array_equal(t.mT.numpy(), a.T)
    assert complex(t[1, 1]) == 5 - 1j
    real = pyasc.asarray([1.0, 2.0])
    assert real.real is real
    np.testing.assert_array_equal(real.imag.numpy(), [0.0, 0.0])
    with pytest.raises(pyasc.InvalidValueError, match="mT needs at least 2"):
        real.mT


@pytest.mark.parametrize("dtype", CDTYPES)
def test_advanced_indexing_moves_whole_elements(dtype):
    a = sample((4, 3), dtype)
    t = pyasc.asarray(a.copy())
    np.testing.assert_array_equal(t[[2, 0]].numpy(), a[[2, 0]])
    mask = a.real > 0
    np.testing.assert_array_equal(t[pyasc.asarray(mask)].numpy(), a[mask])
    np.testing.assert_array_equal(pyasc.take(t, [5, 1]).numpy(), np.take(a, [5, 1]))
    t[[0, 3], 1] = 9j
    a[[0, 3], 1] = 9j
    np.testing.assert_array_equal(t.numpy(), a)
    z = np.array([0j, 1j, 0, 2 + 0j], dtype)
    assert pyasc.nonzero(pyasc.asarray(z))[0].tolist() == np.nonzero(z)[0].tolist()
    acc = pyasc.zeros(3, dtype=np.dtype(dtype).name)
    pyasc.add_at(acc, pyasc.asarray([0, 0, 2]), pyasc.asarray(np.array([1j, 2, 3], dtype)))
    np.testing.assert_array_equal(acc.numpy(), np.array([2 + 1j, 0, 3], dtype))
