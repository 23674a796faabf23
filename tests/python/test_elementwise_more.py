"""The inverse and hyperbolic functions, log10, square, signbit and the
two-argument float functions (atan2, copysign, hypot, logaddexp,
nextafter), checked against NumPy value by value, special values
included."""

from __future__ import annotations

import numpy as np
import pytest

import pyasc

SPECIAL = [0.0, -0.0, 0.5, -0.5, 1.0, -1.0, 2.0, -3.5, 1e-30, 1e30, np.inf, -np.inf, np.nan]
FLOATS = [np.float16, np.float32, np.float64]


def tol(dtype):
    return {np.float16: 1e-3, np.float32: 2e-6, np.float64: 1e-14}[dtype]


@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize(
    "name", ["arcsin", "arccos", "arctan", "sinh", "cosh", "arcsinh", "arccosh", "arctanh", "log10",
             "square", "signbit"])
def test_unary_against_numpy(dtype, name):
    x = np.array(SPECIAL + list(np.linspace(-4, 4, 41)), dtype)
    with np.errstate(all="ignore"):
        want = getattr(np, name)(x)
    got = getattr(pyasc, name)(pyasc.asarray(x)).numpy()
    assert got.dtype == want.dtype
    np.testing.assert_allclose(got, want, rtol=tol(dtype), equal_nan=True)


@pytest.mark.parametrize("name", ["acos", "asin", "atan", "acosh", "asinh", "atanh"])
def test_array_api_names_are_the_same_functions(name):
    x = pyasc.asarray(np.array([0.25, 0.5, 1.5]))
    numpy_name = "arc" + name[1:]
    np.testing.assert_array_equal(getattr(pyasc, name)(x).numpy(), getattr(pyasc, numpy_name)(x).numpy())


@pytest.mark.parametrize("dtype", [np.int8, np.int16, np.int32, np.uint8, np.bool_])
def test_integer_inputs_follow_numpy_dtypes(dtype):
    x = np.array([0, 1, 1, 0], dtype)
    for name in ["arctan", "log10", "square", "signbit", "sinh"]:
        with np.errstate(all="ignore"):
            want = getattr(np, name)(x)
        got = getattr(pyasc, name)(pyasc.asarray(x)).numpy()
        assert got.dtype == want.dtype, name
        np.testing.assert_allclose(got, want, rtol=1e-3)


@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("name", ["arctan2", "copysign", "hypot", "logaddexp", "nextafter"])
def test_binary_against_numpy(dtype, name):
    values = np.array(SPECIAL, dtype)
    x, y = np.meshgrid(values, values)
    with np.errstate(all="ignore"):
        want = getattr(np, name)(x, y)
    got = getattr(pyasc, name)(pyasc.asarray(x), pyasc.asarray(y)).numpy()
    assert got.dtype == want.dtype
    if name == "nextafter":  # exact: one step of the dtype's own format
        np.testing.assert_array_equal(got.view(f"u{x.itemsize}"), want.view(f"u{x.itemsize}"))
    else:
        np.testing.assert_allclose(got, want, rtol=tol(dtype), equal_nan=True)


def test_nextafter_bfloat16_steps_in_bfloat16():
    x = pyasc.asarray(np.array([1.0, 0.0, -1.0], np.float32)).astype("bfloat16")
    up = pyasc.nextafter(x, pyasc.asarray(np.array([2.0, -1.0, 0.0], np.float32)).astype("bfloat16"))
    bits = up.numpy(raw=True)
    np.testing.assert_array_equal(bits, np.array([0x3F81, 0x8001, 0xBF7F], np.uint16))


def test_atan2_alias_and_errors():
    x = pyasc.asarray([1.0, -1.0])
    np.testing.assert_array_equal(pyasc.atan2(x, x).numpy(), pyasc.arctan2(x, x).numpy())
    with pytest.raises(pyasc.DTypeError, match="arctan2 is not supported for complex"):
        pyasc.atan2(pyasc.asarray([1j]), x)
