"""uint16, uint32 and uint64 beyond the NumPy differential suites (which
run every op and cast over them, tests/python/test_dtypes.py and friends):
values past the signed range, weak Python ints up to 2^64 - 1, reductions,
interop round trips (NumPy, buffer protocol, DLPack, torch) and asc.void."""

from __future__ import annotations

import numpy as np
import pytest

import asc
import pyasc

UNSIGNED = ("uint16", "uint32", "uint64")
TOP64 = 2**64 - 1


@pytest.mark.parametrize("name", UNSIGNED)
def test_dtype_objects(name):
    d = getattr(pyasc, name)
    assert d == pyasc.dtype(name) == pyasc.dtype(np.dtype(name)) == pyasc.dtype(getattr(np, name))
    assert d.itemsize == np.dtype(name).itemsize and not d.is_floating_point
    assert getattr(asc, name) is d


def test_uint64_past_int64_matches_numpy():
    a = np.array([TOP64, 2**63, 2**63 - 1, 7, 0], np.uint64)
    b = np.array([3, 2**63 + 5, 2, TOP64, 1], np.uint64)
    ta, tb = pyasc.asarray(a), pyasc.asarray(b)
    with np.errstate(all="ignore"):
        for op in ("add", "subtract", "multiply", "floor_divide", "remainder", "maximum",
                   "minimum", "less", "greater_equal", "bitwise_xor", "right_shift"):
            got = getattr(pyasc, op)(ta, tb).numpy()
            np.testing.assert_array_equal(got, getattr(np, op)(a, b), err_msg=op, strict=True)
    np.testing.assert_array_equal((ta // 3).numpy(), a // 3, strict=True)
    np.testing.assert_array_equal(ta.astype(pyasc.float64).numpy(), a.astype(np.float64))
    assert ta[0].item() == TOP64 and isinstance(ta[0].item(), int)


def test_weak_python_ints_cover_the_whole_uint64_range():
    t = pyasc.asarray(np.array([1, 2**63], np.uint64))
    assert (t + TOP64).dtype == pyasc.uint64
    np.testing.assert_array_equal((t + TOP64).numpy(), np.array([1, 2**63], np.uint64) + TOP64)
    np.testing.assert_array_equal((t == 2**63).numpy(), [False, True])
    np.testing.assert_array_equal((t < -1).numpy(), [False, False])  # exact, as NumPy 2
    for bad in (-1, 2**64):
        with pytest.raises(OverflowError, match="out of bounds for uint64"):
            t + bad
    with pytest.raises(OverflowError, match="70000 out of bounds for uint16"):
        pyasc.asarray(np.zeros(2, np.uint16)) + 70000


def test_reductions():
    a = np.array([[65535, 3], [65535, 9]], np.uint16)
    t = pyasc.asarray(a)
    assert pyasc.sum(t).dtype == pyasc.uint64 == np.sum(a).dtype
    np.testing.assert_array_equal(pyasc.sum(t, axis=0).numpy(), np.sum(a, axis=0), strict=True)
    assert pyasc.max(pyasc.asarray(a.astype(np.uint32))).item() == 65535
    big = pyasc.asarray(np.array([2**63, 1], np.uint64))
    assert pyasc.sum(big).item() == 2**63 + 1
    # the order statistics of uint64 past 2^63 (the kernels order int64)
    wide = np.array([[3, 2**63 + 5, 7], [2**64 - 1, 0, 2**63]], np.uint64)
    tw = pyasc.asarray(wide)
    for name in ("max", "min", "argmax", "argmin"):
        for axis in (None, 0, 1):
            for keepdims in (False, True):
                got = getattr(pyasc, name)(tw, axis=axis, keepdims=keepdims).numpy()
                want = getattr(np, name)(wide, axis=axis, keepdims=keepdims)
                np.testing.assert_array_equal(got, want, strict=True, err_msg=f"{name} {axis}")


@pytest.mark.parametrize("name", UNSIGNED)
def test_interop_round_trips(name):
    top = np.iinfo(name).max
    a = np.array([0, 1, top, top // 2 + 1], name)
    t = pyasc.asarray(a)
    assert t.dtype == getattr(pyasc, name)
    np.testing.assert_array_equal(t.numpy(), a, strict=True)
    np.testing.assert_array_equal(np.asarray(memoryview(t)), a, strict=True)
    np.testing.assert_array_equal(pyasc.Tensor(memoryview(a)).numpy(), a, strict=True)
    np.testing.assert_array_equal(np.from_dlpack(t), a, strict=True)
    np.testing.assert_array_equal(pyasc.from_dlpack(a).numpy(), a, strict=True)


@pytest.mark.parametrize("name", UNSIGNED)
def test_torch_round_trip(name):
    torch = pytest.importorskip("torch")
    x = torch.tensor([0, 1, 2, 40000], dtype=getattr(torch, name))
    t = pyasc.from_dlpack(x)
    assert t.dtype == getattr(pyasc, name)
    np.testing.assert_array_equal(t.numpy(), [0, 1, 2, 40000])
    back = torch.from_dlpack(t)
    assert back.dtype == x.dtype and back.tolist() == x.tolist()


def test_random_integers_in_unsigned_dtypes():
    v = pyasc.random.default_rng(3).integers(0, 60000, (1000,), dtype=pyasc.uint16)
    assert v.dtype == pyasc.uint16
    n = v.numpy()
    assert n.min() >= 0 and n.max() < 60000 and n.max() > 32767


def test_asc_void():
    assert asc.void is asc.language.core.void and str(asc.void) == "void"
    assert asc.void.is_void() and not asc.void.is_int() and not asc.void.is_float()
    with pytest.raises(ValueError, match="bitwidth"):
        asc.void.sizeof()
