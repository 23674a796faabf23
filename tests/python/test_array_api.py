"""pyasc.array_api, the Array API namespace: what the standard asks of it,
checked against NumPy (which implements the same standard) and the
standard's own rules. The conformance suite itself runs from
tools/array-api-tests.sh."""

from __future__ import annotations

import math

import numpy as np
import pytest

import pyasc

xp = pyasc.asarray([1.0]).__array_namespace__()


def test_namespace_and_version():
    assert xp is pyasc.array_api
    assert xp.__array_api_version__ == "2024.12"
    assert pyasc.asarray([1]).__array_namespace__(api_version="2023.12") is xp
    with pytest.raises(pyasc.InvalidValueError, match="unsupported Array API version"):
        pyasc.asarray([1]).__array_namespace__(api_version="1999.01")
    assert (xp.e, xp.pi, xp.newaxis) == (math.e, math.pi, None)
    assert math.isinf(xp.inf) and math.isnan(xp.nan)


@pytest.mark.parametrize("name", ["int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64"])
def test_iinfo_matches_numpy(name):
    ours, theirs = xp.iinfo(getattr(xp, name)), np.iinfo(name)
    assert (ours.bits, ours.min, ours.max) == (theirs.bits, theirs.min, theirs.max)
    assert ours.dtype == getattr(xp, name)
    assert xp.iinfo(xp.asarray(np.zeros(1, name))).max == theirs.max


@pytest.mark.parametrize("name, real", [("float32", "float32"), ("float64", "float64"),
                                        ("complex64", "float32"), ("complex128", "float64")])
def test_finfo_matches_numpy(name, real):
    ours, theirs = xp.finfo(getattr(xp, name)), np.finfo(name)
    assert (ours.bits, ours.eps, ours.max, ours.min, ours.smallest_normal) == (
        theirs.bits, theirs.eps, theirs.max, theirs.min, theirs.smallest_normal)
    assert ours.dtype == getattr(xp, real)


def test_finfo_bfloat16_from_its_format():
    info = xp.finfo(pyasc.bfloat16)
    one = pyasc.asarray(np.float32([1.0])).astype("bfloat16")
    assert pyasc.nextafter(one, one * 2).astype("float64").item() - 1.0 == info.eps
    with pytest.raises(pyasc.DTypeError):
        xp.finfo(xp.int32)
    with pytest.raises(pyasc.DTypeError):
        xp.iinfo(xp.float32)


def test_isdtype_kinds():
    assert xp.isdtype(xp.int8, "signed integer") and not xp.isdtype(xp.uint8, "signed integer")
    assert xp.isdtype(xp.uint64, "integral") and xp.isdtype(xp.complex64, "numeric")
    assert xp.isdtype(xp.float32, ("bool", "real floating"))
    assert xp.isdtype(xp.float32, xp.float32) and not xp.isdtype(xp.float32, xp.float64)
    with pytest.raises(ValueError, match="unknown dtype kind"):
        xp.isdtype(xp.float32, "floaty")


@pytest.mark.parametrize("a, b", [("int8", "uint8"), ("int32", "float32"), ("uint16", "int16"),
                                  ("float32", "complex64"), ("float64", "complex64"),
                                  ("bool", "int8"), ("uint32", "int64")])
def test_result_type_and_can_cast_follow_promotion(a, b):
    assert xp.result_type(getattr(xp, a), getattr(xp, b)).name == np.result_type(a, b).name
    assert xp.can_cast(getattr(xp, a), getattr(xp, b)) == (np.result_type(a, b).name == b)
    assert xp.result_type(xp.int8, 1) == xp.int8  # Python scalars are weak
    assert xp.result_type(xp.float32, 1j) == xp.complex64
    with pytest.raises(ValueError):
        xp.result_type(1, 2.0)


def test_asarray_copy_semantics():
    a = np.arange(4.0)
    shared = xp.asarray(a, copy=False)
    a[0] = 9.0
    assert shared[0].item() == 9.0
    copied = xp.asarray(a, copy=True)
    a[1] = 7.0
    assert copied[1].item() == 1.0
    with pytest.raises(ValueError, match="without a copy"):
        xp.asarray([1.0, 2.0], copy=False)
    with pytest.raises(ValueError, match="without a copy"):
        xp.asarray(a, dtype=xp.float32, copy=False)
    assert xp.astype(shared, xp.float64, copy=False) is shared


def test_device_and_info():
    info = xp.__array_namespace_info__()
    x = xp.ones((2,), device=info.default_device())
    assert x.device == info.default_device() and x.device in info.devices()
    assert x.to_device(x.device) is x
    assert info.default_dtypes()["real floating"] == xp.float64
    assert set(info.dtypes(kind="complex floating")) == {"complex64", "complex128"}
    assert info.capabilities()["boolean indexing"] is True


def test_standard_signatures_and_results():
    rng = np.random.default_rng(3)
    a = rng.standard_normal((3, 4))
    x = xp.asarray(a)
    np.testing.assert_allclose(xp.std(x, axis=0, correction=1).numpy(), a.std(axis=0, ddof=1))
    np.testing.assert_allclose(xp.var(x, axis=1, correction=0.5).numpy(), a.var(axis=1, ddof=0.5))
    with np.errstate(all="ignore"):
        np.testing.assert_array_equal(xp.var(xp.zeros((2, 3)), axis=0, correction=2.5).numpy(),
                                      np.zeros((2, 3)).var(axis=0, ddof=2.5))
        np.testing.assert_array_equal(xp.var(x, axis=0, correction=3.5).numpy(),
                                      a.var(axis=0, ddof=3.5))
    np.testing.assert_allclose(xp.concat([x, x], axis=None).numpy(), np.concatenate([a.ravel()] * 2))
    np.testing.assert_array_equal(xp.permute_dims(x, (1, 0)).numpy(), a.T)
    np.testing.assert_array_equal(xp.matrix_transpose(x).numpy(), a.T)
    np.testing.assert_allclose(xp.pow(x, 2).numpy(), a**2)
    np.testing.assert_allclose(xp.tensordot(x, x.mT, axes=1).numpy(), np.tensordot(a, a.T, axes=1))
    np.testing.assert_allclose(xp.tensordot(x, x, axes=([0, 1], [0, 1])).numpy(),
                               np.tensordot(a, a, axes=([0, 1], [0, 1])))
    np.testing.assert_allclose(xp.vecdot(x, x).numpy(), np.vecdot(a, a))
    np.testing.assert_allclose(xp.linspace(0, 1 + 2j, 5).numpy(), np.linspace(0, 1 + 2j, 5))
    with pytest.raises(pyasc.InvalidValueError):
        xp.reshape(x.mT, (12,), copy=False)


def test_linalg_against_numpy():
    rng = np.random.default_rng(4)
    m = rng.standard_normal((2, 4, 4))
    spd = m @ np.swapaxes(m, -1, -2) + 4 * np.eye(4)
    x, s = xp.asarray(m), xp.asarray(spd)
    np.testing.assert_allclose(xp.linalg.inv(x).numpy(), np.linalg.inv(m), rtol=1e-10)
    np.testing.assert_allclose(xp.linalg.det(x).numpy(), np.linalg.det(m), rtol=1e-10)
    lower = xp.linalg.cholesky(s).numpy()
    np.testing.assert_allclose(lower @ np.swapaxes(lower, -1, -2), spd, rtol=1e-10)
    upper = xp.linalg.cholesky(s, upper=True).numpy()
    np.testing.assert_allclose(np.swapaxes(upper, -1, -2) @ upper, spd, rtol=1e-10)
    w, v = xp.linalg.eigh(s)
    np.testing.assert_allclose((xp.asarray(spd) @ v).numpy(), (v * w[..., None, :]).numpy(), atol=1e-9)
    u, sv, vh = xp.linalg.svd(x, full_matrices=False)
    np.testing.assert_allclose(((u * sv[..., None, :]) @ vh).numpy(), m, atol=1e-10)
    b = rng.standard_normal(4)
    np.testing.assert_allclose(xp.linalg.solve(x[0], xp.asarray(b)).numpy(), np.linalg.solve(m[0], b))
    np.testing.assert_allclose(xp.linalg.vector_norm(x, axis=(1, 2), keepdims=True).numpy(),
                               np.linalg.norm(m.reshape(2, -1), axis=1).reshape(2, 1, 1))
    np.testing.assert_allclose(xp.linalg.trace(x).numpy(), np.trace(m, axis1=-2, axis2=-1))
    np.testing.assert_allclose(xp.linalg.outer(x[0, 0], x[0, 1]).numpy(), np.outer(m[0, 0], m[0, 1]))
    with pytest.raises(pyasc.DTypeError, match="float16 is not supported"):
        xp.linalg.inv(x.astype("float16"))


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.complex64, np.complex128])
def test_fft_against_numpy(dtype):
    rng = np.random.default_rng(5)
    a = rng.standard_normal((4, 6)).astype(dtype)
    x = xp.asarray(a)
    for name in ["fft", "ifft", "fftn", "ifftn"]:
        got = getattr(xp.fft, name)(x).numpy()
        want = getattr(np.fft, name)(a)
        assert got.dtype == want.dtype
        np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-4)
    if not np.iscomplexobj(a):
        np.testing.assert_allclose(xp.fft.irfft(xp.fft.rfft(x), n=6).numpy(), a, rtol=1e-4, atol=1e-5)
    np.testing.assert_array_equal(xp.fft.fftfreq(5, d=0.5).numpy(), np.fft.fftfreq(5, 0.5))
    np.testing.assert_array_equal(xp.fft.fftshift(x).numpy(), np.fft.fftshift(a))
