"""pyasc.transpose, copy, gather, pad, split, array_split, einsum, isclose and
allclose on host tensors against NumPy (torch's gather against
take_along_axis), and their errors. transpose, copy and gather are also
kernel APIs: the kernel tests (test_kernel_api*.py) call them in kernels."""

from __future__ import annotations

import numpy as np
import pytest

import pyasc

RNG = np.random.default_rng(20261204)


def N(t):
    return np.asarray(t)


@pytest.mark.parametrize("shape,axes", [((2, 3), None), ((2, 3, 4), (1, 0, 2)), ((5,), None),
                                        ((2, 3, 4), (2, 0, 1)), ((), None)])
def test_transpose_is_a_view_like_numpy(shape, axes):
    a = RNG.standard_normal(shape).astype(np.float32)
    t = pyasc.asarray(a)
    got = pyasc.transpose(t, axes)
    np.testing.assert_array_equal(N(got), np.transpose(a, axes))
    assert got.data_ptr == t.data_ptr
    with pytest.raises(pyasc.InvalidValueError):
        pyasc.transpose(pyasc.asarray(np.zeros((2, 3))), (0, 0))


def test_copy_is_independent():
    t = pyasc.asarray(np.arange(6).reshape(2, 3))[:, ::2]
    c = pyasc.copy(t)
    c[0, 0] = 99
    assert N(t)[0, 0] == 0 and c.is_contiguous()
    np.testing.assert_array_equal(N(pyasc.copy([1, 2])), [1, 2])


@pytest.mark.parametrize("dim", [0, 1, -1])
def test_gather_is_take_along_axis(dim):
    a = RNG.standard_normal((4, 5)).astype(np.float64)
    index = RNG.integers(0, a.shape[dim], (3, 5) if dim == 0 else (4, 2))
    got = pyasc.gather(pyasc.asarray(a), dim, pyasc.asarray(index))
    np.testing.assert_array_equal(N(got), np.take_along_axis(a, index, axis=dim))
    with pytest.raises(IndexError):
        pyasc.gather(pyasc.asarray(a), 0, pyasc.asarray(np.full((1, 5), 9)))


@pytest.mark.parametrize("mode", ["constant", "edge", "reflect", "symmetric", "wrap"])
@pytest.mark.parametrize("shape,width", [((5,), 2), ((5,), (1, 7)), ((3, 4), ((0, 2), (3, 1))),
                                         ((1, 4), ((2, 2), (0, 0))), ((2, 3, 2), 1),
                                         ((4,), (9, 12))])
def test_pad_matches_numpy(mode, shape, width):
    a = RNG.integers(-9, 9, shape).astype(np.int16)
    kwargs = {"constant_values": 5} if mode == "constant" else {}
    got = pyasc.pad(pyasc.asarray(a), width, mode, **kwargs)
    want = np.pad(a, width, mode, **kwargs)
    assert got.dtype == pyasc.int16
    np.testing.assert_array_equal(N(got), want)


def test_pad_errors():
    t = pyasc.asarray(np.zeros((2, 2)))
    with pytest.raises(ValueError, match="mode"):
        pyasc.pad(t, 1, "mean")
    with pytest.raises(ValueError, match="negative"):
        pyasc.pad(t, -1)
    with pytest.raises(ValueError, match="does not fit"):
        pyasc.pad(t, ((1, 1), (1, 1), (1, 1)))
    with pytest.raises(TypeError):
        pyasc.pad(t, 1.5)
    with pytest.raises(ValueError, match="empty axis"):
        pyasc.pad(pyasc.asarray(np.zeros((0, 2))), 1, "edge")


@pytest.mark.parametrize("how", [3, [1, 4], [0, 0, 6], [2, 1], [7]])
@pytest.mark.parametrize("axis", [0, -1])
def test_split_and_array_split_match_numpy(how, axis):
    a = RNG.standard_normal((6, 6))
    t = pyasc.asarray(a)
    for ours, theirs in ((pyasc.split, np.split), (pyasc.array_split, np.array_split)):
        got = ours(t, how, axis=axis)
        want = theirs(a, how, axis=axis)
        assert len(got) == len(want)
        for g, w in zip(got, want):
            np.testing.assert_array_equal(N(g), w)
            assert g.shape == w.shape


def test_split_errors():
    t = pyasc.asarray(np.arange(5))
    with pytest.raises(ValueError, match="equal division"):
        pyasc.split(t, 2)
    with pytest.raises(ValueError, match="larger than 0"):
        pyasc.array_split(t, 0)
    with pytest.raises(IndexError, match="out of bounds"):
        pyasc.split(t, 1, axis=1)
    assert [N(p).tolist() for p in pyasc.array_split(t, 2)] == [[0, 1, 2], [3, 4]]


def test_einsum_is_numpy_on_views():
    a = RNG.standard_normal((3, 4)).astype(np.float32)
    b = RNG.standard_normal((4, 5)).astype(np.float32)
    pyasc.numpy_fallbacks(reset=True)
    got = pyasc.einsum("ij,jk->ik", pyasc.asarray(a), pyasc.asarray(b))
    assert isinstance(got, pyasc.Tensor)
    np.testing.assert_allclose(N(got), np.einsum("ij,jk->ik", a, b), rtol=1e-6)
    np.testing.assert_array_equal(N(pyasc.einsum("ii", pyasc.asarray(np.eye(3)))), 3.0)
    assert pyasc.numpy_fallbacks()["einsum"] == 2


@pytest.mark.parametrize("dtype", ["float16", "float32", "float64", "int32", "complex64"])
@pytest.mark.parametrize("equal_nan", [False, True])
def test_isclose_and_allclose_match_numpy(dtype, equal_nan):
    a = RNG.standard_normal(40) * 10
    b = a + RNG.choice([0, 1e-9, 1e-6, 1e-3, 1], 40) * np.abs(a)
    if dtype.startswith("float") or dtype.startswith("complex"):
        a[:6] = [np.inf, -np.inf, np.nan, np.nan, np.inf, 1.0]
        b[:6] = [np.inf, np.inf, np.nan, 1.0, 1e308, np.nan]
    with np.errstate(over="ignore"):  # 1e308 is inf in the narrower types
        a, b = a.astype(dtype), b.astype(dtype)
    for rtol, atol in ((1e-5, 1e-8), (0.0, 0.5), (1e-2, 0.0)):
        want = np.isclose(a, b, rtol, atol, equal_nan)
        got = pyasc.isclose(pyasc.asarray(a), pyasc.asarray(b), rtol, atol, equal_nan)
        assert got.dtype == pyasc.bool_
        np.testing.assert_array_equal(N(got), want)
        assert pyasc.allclose(a, b, rtol, atol, equal_nan) == np.allclose(a, b, rtol, atol,
                                                                           equal_nan)
    np.testing.assert_array_equal(N(pyasc.isclose(pyasc.asarray(a[:4]), 1.0)),
                                  np.isclose(a[:4], 1.0))


def test_tensor_ravel_is_numpys():
    a = np.arange(12).reshape(3, 4)
    t = pyasc.asarray(a)
    assert t.ravel().data_ptr == t.data_ptr  # contiguous: a view
    np.testing.assert_array_equal(N(t.T.ravel()), a.T.ravel())
    np.testing.assert_array_equal(N(t[:, ::2].ravel()), a[:, ::2].ravel())
