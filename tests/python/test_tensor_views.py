"""Tensor views against NumPy: reshape (a view or a copy as NumPy decides),
transpose/permute, expand and broadcasting, basic indexing and assignment
through views, contiguity. Where NumPy raises, pyasc raises the matching
error.
"""

from __future__ import annotations

import numpy as np
import pytest

import pyasc
from tensor_helpers import check_same


RESHAPES = [
    ((2, 3, 4), (slice(None),), (6, 4)),
    ((2, 3, 4), (slice(None),), (-1,)),
    ((2, 3, 4), (slice(None),), (4, -1, 2)),
    ((2, 3, 4), (slice(None), slice(None), slice(None, None, 2)), (6, 2)),
    ((2, 3, 4), (slice(None), slice(None), slice(None, None, 2)), (12,)),
    ((2, 3, 4), (slice(None, None, -1),), (2, 12)),
    ((6, 4), (slice(None), slice(1, 3)), (3, 2, 2)),
    ((6, 4), (slice(None), slice(1, 3)), (12,)),
    ((0, 3), (slice(None),), (3, 0)),
    ((1, 5, 1), (slice(None),), (5,)),
    ((), (Ellipsis,), (1, 1)),
]


def test_reshape_view_or_copy_like_numpy():
    for shape, index, new in RESHAPES:
        _reshape_case(shape, index, new)


def _reshape_case(shape, index, new):
    base = np.arange(int(np.prod(shape)), dtype=np.int32).reshape(shape)
    t = pyasc.from_numpy(base)
    v_np = base[index]
    v_t = t[index]
    r_np = v_np.reshape(new)
    r_t = v_t.reshape(*new) if new else v_t.reshape(())
    check_same(r_t, r_np, f"reshape {shape}{index} -> {new}")
    shares = np.shares_memory(r_np, base)
    if r_np.size:
        r_t[...] = -1  # writes reach the base exactly when NumPy's reshape is a view
        pyasc.synchronize()
        assert (base == -1).any() == shares
        if shares:
            assert r_t.strides == r_np.strides
    if not shares and r_np.size:
        with pytest.raises(pyasc.InvalidValueError, match="use reshape"):
            v_t.view(*new)


def test_reshape_errors():
    t = pyasc.Tensor(np.arange(6))
    with pytest.raises(
        pyasc.InvalidValueError, match="cannot reshape a tensor of 6 elements into 4"
    ):
        t.reshape(2, 2)
    with pytest.raises(pyasc.InvalidValueError, match="only specify one unknown dimension"):
        t.reshape(-1, -1)
    with pytest.raises(pyasc.InvalidValueError):
        t.reshape(4, -1)
    with pytest.raises(pyasc.InvalidValueError, match="negative dimension"):
        t.reshape(-2, -3)
    check_same(t, np.arange(6), "unchanged")


def test_transpose_permute_T():
    a = np.arange(24, dtype=np.float64).reshape(2, 3, 4)
    t = pyasc.from_numpy(a)
    check_same(t.T, a.T, ".T")
    assert t.T.strides == a.T.strides
    check_same(t.transpose(), a.transpose(), "transpose()")
    check_same(t.transpose(1, 0, 2), a.transpose(1, 0, 2), "transpose(axes)")
    check_same(t.permute(2, 0, 1), a.transpose(2, 0, 1), "permute")
    check_same(t.permute((-1, 0, 1)), a.transpose(-1, 0, 1), "permute tuple, negative axis")
    check_same(t.swapaxes(0, 2), a.swapaxes(0, 2), "swapaxes")
    check_same(pyasc.Tensor(5.0).T, np.array(5.0).T, "0-d .T")
    with pytest.raises(pyasc.InvalidValueError, match="repeated axis"):
        t.permute(0, 0, 1)
    with pytest.raises(pyasc.IndexOutOfRangeError, match="axis 3 is out of bounds"):
        t.permute(0, 1, 3)
    with pytest.raises(pyasc.InvalidValueError, match="axes don't match"):
        t.transpose(0, 1)
    t.T[0, 0, 0] = 99.0  # a view
    pyasc.synchronize()
    assert a[0, 0, 0] == 99.0


def test_expand_broadcast_to():
    a = np.arange(3, dtype=np.int16).reshape(3, 1)
    t = pyasc.from_numpy(a)
    for shape in [(3, 4), (2, 3, 4), (3, 1), (0, 3, 5)]:
        ref = np.broadcast_to(a, shape)
        check_same(t.expand(*shape), ref, f"expand {shape}")
        got = t.broadcast_to(shape).strides  # length-1 axes may have any stride
        assert [s for s, n in zip(got, shape) if n > 1] == [
            s for s, n in zip(ref.strides, shape) if n > 1
        ]
    with pytest.raises(
        pyasc.InvalidValueError, match="cannot broadcast shape \\(3, 1\\) to \\(4, 4\\)"
    ):
        t.expand(4, 4)
    with pytest.raises(pyasc.InvalidValueError):
        t.expand(3)


def _index_cases():
    return [
        (0,),
        (-1,),
        (slice(None),),
        (slice(1, None),),
        (slice(None, None, -1),),
        (slice(-2, None, -2),),
        (1, 2),
        (-1, slice(None, None, 2)),
        (Ellipsis, 1),
        (Ellipsis,),
        (None,),
        (None, 1, None),
        (slice(None), None, slice(3, 0, -1)),
        (1, Ellipsis, None),
        (slice(10, 20),),
        (slice(-100, 100, 3), -2, slice(None)),
        (Ellipsis, None, slice(None, None, -1)),
        (np.int64(1), np.int8(-1)),
        (),
    ]


def test_basic_indexing():
    for key in _index_cases():
        a = np.arange(60, dtype=np.float32).reshape(3, 4, 5)
        t = pyasc.from_numpy(a)
        ref = a[key]
        got = t[key]
        check_same(got, ref, f"t[{key!r}]")
        assert got.strides == ref.strides
        if ref.size:
            got[...] = -7  # a view: writes reach the base
            pyasc.synchronize()
            assert (a == -7).sum() == ref.size, key


def test_indexing_errors():
    a = np.arange(6).reshape(2, 3)
    t = pyasc.Tensor(a)
    for key, err in [
        (2, IndexError),
        ((0, 3), IndexError),
        ((0, 0, 0), IndexError),
        (1.0, IndexError),
        ((Ellipsis, Ellipsis), IndexError),
        ("a", IndexError),
        ([0, 2], IndexError),  # advanced indices are checked too
        (np.array([0.5]), IndexError),  # float arrays are no index (as NumPy)
    ]:
        with pytest.raises(err):
            t[key]
    with pytest.raises(
        pyasc.IndexOutOfRangeError, match="index 2 is out of bounds for axis 0 with size 2"
    ):
        t[2]
    with pytest.raises(ValueError, match="slice step cannot be zero"):
        a[::0]
    with pytest.raises(ValueError, match="slice step cannot be zero"):
        t[::0]
    with pytest.raises(pyasc.IndexOutOfRangeError):
        pyasc.Tensor(1.0)[0]
    check_same(t, a, "unchanged")


def test_assignment_through_views():
    a = np.arange(12).reshape(3, 4)
    t = pyasc.Tensor(a)
    t[1:, ::2] = 5
    a[1:, ::2] = 5
    check_same(t, a, "t[1:, ::2] = 5")
    t[0] = [10, 20, 30, 40]
    a[0] = [10, 20, 30, 40]
    t[:, -1] = pyasc.Tensor(np.array([7, 8, 9]))
    a[:, -1] = [7, 8, 9]
    t[...] = t[::-1]  # overlapping source and destination
    a[...] = a[::-1].copy()
    t[2, 1] = 2.9  # unsafe cast on assignment, as NumPy
    a[2, 1] = 2.9
    check_same(t, a, "assignments")
    with pytest.raises(pyasc.InvalidValueError, match="cannot broadcast"):
        t[0] = [1, 2]
    with pytest.raises(OverflowError):
        pyasc.Tensor(np.zeros(2, np.uint8))[0] = 256
    with pytest.raises(TypeError, match="cannot be deleted"):
        del t[0]
    with pytest.raises(TypeError, match="cannot assign"):
        t[0] = object()
    check_same(t, a, "unchanged after failed assignments")


def test_contiguous():
    a = np.arange(12, dtype=np.int64).reshape(3, 4)
    t = pyasc.from_numpy(a)
    c = t.contiguous()
    assert c.is_contiguous() and c.data_ptr == t.data_ptr  # shares: nothing to do
    v = t[:, ::-2]
    assert not v.is_contiguous()
    c = v.contiguous()
    assert c.is_contiguous() and c.strides == (16, 8)
    check_same(c, a[:, ::-2], "contiguous copy")
    c[0, 0] = -1
    pyasc.synchronize()
    assert a[0, 3] == 3  # a copy
    assert pyasc.Tensor(np.zeros((0, 3)))[:, ::2].is_contiguous()
