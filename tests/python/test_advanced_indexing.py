"""Advanced indexing on pyasc.Tensor (boolean masks, integer arrays, mixed
with basic indices), nonzero/argwhere/where, take/put/take_along_axis/
put_along_axis and add_at, each checked against NumPy's result for the same
key on the same data."""

from __future__ import annotations

import doctest
import operator

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import pyasc

A = np.arange(60, dtype=np.float32).reshape(3, 4, 5)

# (name, key on A): the key may hold NumPy arrays; see pyasc_key for the
# forms each is also tried in.
READ_KEYS = [
    ("list", ([1, 0],)),
    ("list-negative", ([-1, 0, -3],)),
    ("slice-then-list", (slice(None), [2, 0])),
    ("ndarray", (np.array([1, 0]),)),
    ("mask-3d", (A > 30,)),
    ("mask-2d", (A[:, :, 0] > 12,)),
    ("mask-after-slice", (slice(None), A[0, :, 0] > 6)),
    ("int-and-mask", (1, A[0] > 9)),
    ("two-lists", ([0, 1], [1, 0])),
    ("ellipsis-list", (Ellipsis, [0])),
    ("ellipsis-between", ([0], Ellipsis, [0])),
    ("int-slice-list (front)", (0, slice(None), [0, 1])),
    ("slice-int-list (in place)", (slice(None), 0, [0, 1])),
    ("none-between (front)", ([0], None, [0])),
    ("broadcast-2d", ([[0], [2]], [1, 3])),
    ("broadcast-with-slice", ([[0], [2]], slice(1, 3), [1, 3])),
    ("bool-true", (True,)),
    ("bool-false", (False,)),
    ("bool-scalar-between", (slice(None), True, [1])),
    ("int-bool", (0, True)),
    ("empty-list", ([],)),
    ("steps-and-lists", (slice(None, None, -1), [[0, 2], [1, 1]], slice(1, None, 2))),
    ("repeated", ([2, 2, 0, 2],)),
    ("all-axes", ([0, 2], [3, 1], [4, 0])),
    ("mask-empty", (A > 1000,)),
    ("list-of-bools", ([True, False, True],)),
    ("2d-list", ([[1, 0], [2, 2]],)),
    ("new-axis-then-list", (None, slice(None), [1])),
    # NumPy checks index arrays only where they broadcast to something
    ("out-of-range-broadcast-to-nothing", ([7], [])),
]


def check_same(got, ref, what=""):
    assert isinstance(got, pyasc.Tensor), what
    assert tuple(got.shape) == ref.shape, (what, got.shape, ref.shape)
    assert np.dtype(got.dtype.name) == ref.dtype, (what, got.dtype, ref.dtype)
    np.testing.assert_array_equal(got.numpy(), ref, err_msg=what)


def pyasc_key(key, form):
    """key with its arrays and lists as pyasc tensors, NumPy arrays or lists."""
    out = []
    for item in key:
        if isinstance(item, (list, np.ndarray)):
            arr = np.asarray(item)
            if arr.dtype == np.float64 and arr.size == 0:  # []
                arr = arr.astype(np.int64)
            if form == "tensor":
                item = pyasc.Tensor(arr)
            elif form == "numpy":
                item = arr
            else:
                item = arr.tolist()
        out.append(item)
    return tuple(out)


@pytest.mark.parametrize("form", ["tensor", "numpy", "list"])
@pytest.mark.parametrize("name,key", READ_KEYS, ids=[n for n, _ in READ_KEYS])
def test_read_matches_numpy(name, key, form):
    t = pyasc.Tensor(A)
    got = t[pyasc_key(key, form)]
    ref = A[key]
    check_same(got, ref, name)
    if ref.size:  # a copy, as NumPy's advanced indexing
        got[...] = -1
        check_same(t, A, "the source is unchanged")


@pytest.mark.parametrize("layout", ["transposed", "stepped", "reversed", "permuted-slice"])
@pytest.mark.parametrize("name,key", READ_KEYS[:16], ids=[n for n, _ in READ_KEYS[:16]])
def test_read_non_contiguous_sources(layout, name, key):
    """A view (transposed, stepped, reversed) as the indexed tensor: the
    same key on NumPy's same view."""
    base = np.arange(2 * 6 * 8 * 10, dtype=np.int32).reshape(6, 8, 10, 2)
    t_base = pyasc.Tensor(base)
    views = {
        "transposed": lambda x: x[..., 0].transpose(2, 1, 0)[:5, :4, :3].transpose(2, 1, 0),
        "stepped": lambda x: x[::2, ::2, ::2, 1][:, :4, :5],
        "reversed": lambda x: x[::-2, ::-2, ::-2, 0][:3, :4, :5],
        "permuted-slice": lambda x: x[1:4, 2:6, 3:8, 1],
    }
    ref_view = views[layout](base)
    view = views[layout](t_base)
    assert ref_view.shape == (3, 4, 5)
    assert not view.is_contiguous()
    # a mask as large as A becomes one as large as the view
    np_key = tuple(ref_view > 600 if isinstance(k, np.ndarray) and k.dtype == bool
                   and k.shape == A.shape else k for k in key)
    try:
        ref = ref_view[np_key]
    except IndexError:
        with pytest.raises(IndexError):
            view[pyasc_key(np_key, "tensor")]
        return
    check_same(view[pyasc_key(np_key, "tensor")], ref, f"{layout} {name}")


def test_basic_keys_still_give_views():
    a = np.arange(12.0).reshape(3, 4)
    t = pyasc.Tensor(a)
    v = t[np.int64(1), 1:3]  # a NumPy integer is a basic index
    v[...] = -5
    a[1, 1:3] = -5
    check_same(t, a)
    v = t[pyasc.Tensor(np.array(2))]  # 0-d integer tensor: a basic index, a view
    v[...] = 7
    a[2] = 7
    check_same(t, a)


INDEX_DTYPES = [np.int8, np.uint8, np.int16, np.uint16, np.int32, np.uint32, np.int64, np.uint64]


@pytest.mark.parametrize("idtype", INDEX_DTYPES)
def test_every_integer_index_dtype(idtype):
    a = np.arange(20.0).reshape(4, 5)
    idx = np.array([3, 0, 2, 2], dtype=idtype)
    t = pyasc.Tensor(a)
    check_same(t[pyasc.Tensor(idx)], a[idx])
    check_same(t[:, idx], a[:, idx])
    if np.issubdtype(idtype, np.signedinteger):
        neg = np.array([-1, -4], dtype=idtype)
        check_same(t[pyasc.Tensor(neg)], a[neg])


def test_strided_and_pending_index_tensors():
    """Index tensors that are views, or results of operations still queued
    on the stream, are read after that work."""
    a = np.arange(30.0).reshape(5, 6)
    t = pyasc.Tensor(a)
    idx = pyasc.Tensor(np.array([[0, 4], [1, 3], [2, 2]]))
    check_same(t[idx.T], a[np.array([[0, 4], [1, 3], [2, 2]]).T])
    check_same(t[idx[::-1, 1]], a[np.array([2, 3, 4])])
    rev = pyasc.arange(5)[::-1] * 1  # computed on the stream
    check_same(t[rev], a[np.arange(5)[::-1]])
    mask = (t % 4) == 1  # a mask computed on the stream
    check_same(t[mask], a[(a % 4) == 1])


ALL_DTYPES = ["bool", "int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64",
              "float16", "float32", "float64"]


@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_gather_and_scatter_every_dtype(dtype):
    rng = np.random.default_rng(1)
    a = (rng.integers(0, 50, size=(4, 6)) % (2 if dtype == "bool" else 50)).astype(dtype)
    t = pyasc.Tensor(a)
    check_same(t[[2, 0, 2]], a[[2, 0, 2]], dtype)
    check_same(t[:, [5, 1]], a[:, [5, 1]], dtype)
    mask = rng.random((4, 6)) < 0.5
    check_same(t[mask], a[mask], dtype)
    b = a.copy()
    t[mask] = a[0, 0]
    b[mask] = a[0, 0]
    check_same(t, b, dtype)
    t[[1, 3], 2:4] = a[:2, :2]
    b[[1, 3], 2:4] = a[:2, :2]
    check_same(t, b, dtype)


def test_bfloat16():
    a = np.arange(24, dtype=np.float32).reshape(4, 6) / 4
    t = pyasc.Tensor(a).astype(pyasc.bfloat16)
    got = t[t > 2.0]
    assert got.dtype == pyasc.bfloat16
    np.testing.assert_array_equal(got.astype(pyasc.float32).numpy(), a[a > 2.0])
    t[[0, 0, 1], [1, 1, 2]] = 9.5
    a[[0, 0, 1], [1, 1, 2]] = 9.5
    np.testing.assert_array_equal(t.astype(pyasc.float32).numpy(), a)
    pyasc.add_at(t, ([3, 3], [0, 0]), 1.0)
    np.add.at(a, ([3, 3], [0, 0]), 1.0)
    np.testing.assert_array_equal(t.astype(pyasc.float32).numpy(), a)


def test_assignment_broadcasts_the_value():
    a = np.arange(24, dtype=np.int64).reshape(2, 3, 4)
    t = pyasc.Tensor(a)
    b = a.copy()
    for key, value in [
        ((t > 20, ), 0),
        ((slice(None), [2, 0]), np.array([100, 101, 102, 103])),
        (([1, 0], [0, 2]), pyasc.Tensor(np.array([[7], [8]]))),
        ((Ellipsis, [3]), np.ones((1, 1, 1, 1), dtype=np.int64) * 5),  # leading 1s dropped
        ((0, slice(None), [1, 2]), 2.9),  # cast unsafely, as NumPy: 2
        (([True, False],), [[-1], [-2], [-3]]),
    ]:
        np_key = tuple(k.numpy() if isinstance(k, pyasc.Tensor) else k for k in key)
        np_value = value.numpy() if isinstance(value, pyasc.Tensor) else value
        b[np_key] = np_value
        t[key] = value
        check_same(t, b, repr(np_key))


def test_last_of_repeated_indices_wins():
    a = np.zeros(5)
    t = pyasc.Tensor(a)
    t[[1, 3, 1, 1]] = [1.0, 2.0, 3.0, 4.0]
    a[[1, 3, 1, 1]] = [1.0, 2.0, 3.0, 4.0]
    check_same(t, a)


def test_value_sharing_memory_with_the_target():
    a = np.arange(12.0).reshape(3, 4)
    t = pyasc.Tensor(a)
    t[[2, 0, 1]] = t[0]  # a view of the target
    a[[2, 0, 1]] = a[0].copy()
    check_same(t, a)
    t[:, [0, 1, 2, 3]] = t[:, ::-1]
    a[:, [0, 1, 2, 3]] = a[:, ::-1].copy()
    check_same(t, a)


def test_inplace_operators_on_selections():
    a = np.arange(-6.0, 6.0).reshape(3, 4)
    t = pyasc.Tensor(a)
    t[t > 0] += 1
    a[a > 0] += 1
    check_same(t, a)
    t[[0, 0, 2]] *= 2  # getitem, multiply, setitem: the repeat counts once
    a[[0, 0, 2]] *= 2
    check_same(t, a)
    t[:, [1, 3]] -= pyasc.Tensor(np.array([1.0, 2.0]))
    a[:, [1, 3]] -= np.array([1.0, 2.0])
    check_same(t, a)


def test_assignment_into_non_contiguous_views():
    base = np.arange(48.0).reshape(6, 8)
    t = pyasc.Tensor(base)
    a = base.copy()
    tv, av = t.T[::2, 1:], a.T[::2, 1:]
    tv[tv > 20] = -1
    av[av > 20] = -1
    tv[[0, 3], [4, 0]] = 99
    av[[0, 3], [4, 0]] = 99
    check_same(t, a)


def test_read_only_tensors_refuse_assignment():
    a = np.arange(4.0)
    a.flags.writeable = False
    t = pyasc.asarray(a)
    with pytest.raises(pyasc.Error):
        t[[0, 1]] = 1.0
    with pytest.raises(pyasc.Error):
        t[t > 1] = 0
    np.testing.assert_array_equal(a, np.arange(4.0))


def test_large_gather_and_scatter_use_parallel_blocks():
    rng = np.random.default_rng(2)
    a = rng.random((1 << 10, 1 << 9), dtype=np.float32)
    perm = rng.permutation(1 << 10)
    t = pyasc.Tensor(a)
    check_same(t[perm], a[perm])
    check_same(t[:, perm[:300] % 512], a[:, perm[:300] % 512])
    mask = a > 0.5
    check_same(t[mask], a[mask])
    t[mask] = 0.0
    a[mask] = 0.0
    check_same(t, a)
    dup = rng.integers(0, 1 << 10, size=1 << 14)  # many repeats: the last still wins
    vals = rng.random((1 << 14, 1 << 9), dtype=np.float32)
    t[dup] = vals
    a[dup] = vals
    check_same(t, a)
    rows = a[:100].copy()  # NumPy operands are read when the stream runs: not a
    t[perm[:100]] = rows
    a[perm[:100]] = rows
    check_same(t, a)


# --- errors -----------------------------------------------------------------------


def numpy_error(a, key):
    try:
        a[key]
    except Exception as exc:  # noqa: BLE001 - the type is what is compared
        return type(exc), str(exc)
    raise AssertionError(f"NumPy accepts {key!r}")


@pytest.mark.parametrize("key,message", [
    ((np.array([1.0]),), "arrays used as indices must be of integer (or boolean) type"),
    (([5],), "index 5 is out of bounds for axis 0 with size 3"),
    ((slice(None), [7]), "index 7 is out of bounds for axis 1 with size 4"),
    ((None, slice(None), [9]), "index 9 is out of bounds for axis 1 with size 4"),
    ((np.array([-4]),), "index -4 is out of bounds for axis 0 with size 3"),
    ((np.array([True, False]),), "boolean index did not match indexed array along axis 0; size "
                                 "of axis is 3 but size of corresponding boolean axis is 2"),
    (([0, 1], [0, 1, 2]), "shape mismatch: indexing arrays could not be broadcast together with "
                          "shapes (2,) (3,)"),
    (([0], [0], [0]), "too many indices for array: array is 2-dimensional, but 3 were indexed"),
    ((np.zeros((3, 4, 1), bool),), "too many indices for array: array is 2-dimensional, but 3 "
                                   "were indexed"),
    (([0], Ellipsis, [0], Ellipsis), "an index can only have a single ellipsis"),
    # an integer is checked even where the indices broadcast to nothing
    ((False, 5), "index 5 is out of bounds for axis 0 with size 3"),
    (([], 4), "index 4 is out of bounds for axis 1 with size 4"),
])
def test_errors_match_numpy(key, message):
    a = np.zeros((3, 4))
    t = pyasc.Tensor(a)
    np_type, np_message = numpy_error(a, key)
    assert issubclass(np_type, IndexError)
    assert message in np_message
    for form in ("tensor", "numpy"):
        with pytest.raises(IndexError) as info:
            t[pyasc_key(key, form)]
        assert message in str(info.value)
        with pytest.raises(IndexError):
            t[pyasc_key(key, form)] = 1.0
    check_same(t, a, "a failed assignment writes nothing")


@pytest.mark.parametrize("key", [1.5, "a", b"ab", ["a"], [0.5], object(),
                                 pyasc.Tensor(np.array([0.5]))])
def test_invalid_index_objects_raise_index_error(key):
    a = np.zeros(3)
    t = pyasc.Tensor(a)
    with pytest.raises(IndexError) as info:
        t[key]
    assert "only 0-d integer tensors" not in str(info.value)


def test_the_old_misleading_message_is_gone():
    t = pyasc.Tensor(np.arange(3))
    for key in (pyasc.Tensor(np.array([1, 0])), pyasc.Tensor(np.array([1.0]))):
        try:
            t[key]
        except IndexError as exc:
            assert "only 0-d integer tensors" not in str(exc)
            assert "not supported" not in str(exc)
    with pytest.raises(TypeError, match="only integer scalar tensors"):
        operator.index(pyasc.Tensor(np.array([1, 0])))


def test_value_that_does_not_broadcast():
    a = np.arange(6).reshape(2, 3)
    t = pyasc.Tensor(a)
    with pytest.raises(ValueError) as np_info:
        a[[0, 1]] = np.ones((3, 2), dtype=a.dtype)
    with pytest.raises(ValueError, match="shape mismatch: value array of shape \\(3, 2\\) could "
                       "not be broadcast to indexing result of shape \\(2, 3\\)"):
        t[[0, 1]] = np.ones((3, 2), dtype=np.int64)
    assert "could not be broadcast" in str(np_info.value)
    check_same(t, a)


# --- nonzero, argwhere, where ---------------------------------------------------------


@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_nonzero_argwhere_where(dtype):
    rng = np.random.default_rng(3)
    a = (rng.integers(0, 3, size=(3, 4, 2)) % 2).astype(dtype)
    for x in (a, a.transpose(2, 0, 1), a[::-1, ::2]):
        t = pyasc.Tensor(np.ascontiguousarray(x))
        view = pyasc.Tensor(a)
        view = view.transpose(2, 0, 1) if x.shape == (2, 3, 4) else view
        view = view[::-1, ::2] if x.shape == (3, 2, 2) else view
        for src in (t, view):
            got = pyasc.nonzero(src)
            ref = np.nonzero(x)
            assert len(got) == len(ref)
            for g, r in zip(got, ref):
                check_same(g, r.astype(np.int64))
            check_same(pyasc.argwhere(src), np.argwhere(x).astype(np.int64))
            for g, r in zip(pyasc.where(src), np.where(x)):
                check_same(g, r.astype(np.int64))
            for g, r in zip(src.nonzero(), x.nonzero()):
                check_same(g, r.astype(np.int64))


def test_nonzero_of_floats_counts_negative_zero_as_zero_and_nan_as_true():
    a = np.array([0.0, -0.0, np.nan, 1e-300, -np.inf], dtype=np.float64)
    for dtype in (np.float64, np.float32, np.float16):
        x = a.astype(dtype)
        check_same(pyasc.nonzero(pyasc.Tensor(x))[0], np.nonzero(x)[0].astype(np.int64))
    b = pyasc.Tensor(a.astype(np.float32)).astype(pyasc.bfloat16)
    check_same(pyasc.nonzero(b)[0], np.nonzero(a.astype(np.float32))[0].astype(np.int64))


def test_nonzero_of_0d_and_where_arguments():
    with pytest.raises(ValueError, match="0-d"):
        pyasc.nonzero(pyasc.Tensor(np.array(1.0)))
    for v in (0, 3):
        check_same(pyasc.argwhere(pyasc.Tensor(np.array(v))), np.argwhere(np.array(v)))
    with pytest.raises(ValueError, match="either both or neither"):
        pyasc.where(pyasc.Tensor(np.array([True])), 1.0)
    for g, r in zip(pyasc.where([[0, 2], [3, 0]]), np.where([[0, 2], [3, 0]])):
        check_same(g, r.astype(np.int64))
    empty = pyasc.nonzero(pyasc.zeros((2, 0)))
    assert [tuple(e.shape) for e in empty] == [(0,), (0,)]


# --- take, put, take_along_axis, put_along_axis, add_at ---------------------------------


@pytest.mark.parametrize("axis", [None, 0, 1, -1])
@pytest.mark.parametrize("mode", ["raise", "wrap", "clip"])
def test_take(axis, mode):
    a = np.arange(24.0).reshape(4, 6)
    t = pyasc.Tensor(a).T if axis == 1 else pyasc.Tensor(a)
    src = a.T if axis == 1 else a
    ind = np.array([[0, -1], [2, 3]]) if mode == "raise" else np.array([[0, 9], [-8, 3]])
    check_same(pyasc.take(t, ind, axis=axis, mode=mode), np.take(src, ind, axis=axis, mode=mode))
    check_same(pyasc.take(t, 2, axis=axis, mode=mode), np.take(src, 2, axis=axis, mode=mode))
    r = pyasc.take(t, 1, axis=axis)
    r[...] = -1  # a copy even for a scalar index
    check_same(t, src)


def test_take_errors():
    t = pyasc.Tensor(np.arange(6.0))
    with pytest.raises(IndexError, match="out of bounds"):
        pyasc.take(t, [6])
    with pytest.raises(IndexError, match="axis 2 is out of bounds"):
        pyasc.take(t, [0], axis=2)
    with pytest.raises(TypeError):
        pyasc.take(t, [0.5])
    with pytest.raises(ValueError):
        pyasc.take(t, [0], mode="bad")
    with pytest.raises(IndexError, match="empty"):
        pyasc.take(pyasc.zeros(0), [1], mode="wrap")


@pytest.mark.parametrize("contiguous", [True, False])
@pytest.mark.parametrize("mode", ["raise", "wrap", "clip"])
def test_put(contiguous, mode):
    base = np.arange(24, dtype=np.int32).reshape(4, 6)
    a = base.copy() if contiguous else base.copy().T
    t = pyasc.Tensor(base.copy()) if contiguous else pyasc.Tensor(base.copy()).T
    ind = [0, 5, -1, 7] if mode == "raise" else [0, 30, -30, 7]
    np.put(a, ind, [100, 200, 300], mode=mode)  # v repeats cyclically
    pyasc.put(t, ind, [100, 200, 300], mode=mode)
    check_same(t, a)
    np.put(a, [1, 1, 2], [7.9, 8.9, 9.9])
    pyasc.put(t, [1, 1, 2], [7.9, 8.9, 9.9])
    check_same(t, a)
    with pytest.raises(TypeError):
        pyasc.put(np.zeros(3), [0], 1)


@pytest.mark.parametrize("axis", [0, 1, -1, None])
def test_take_and_put_along_axis(axis):
    rng = np.random.default_rng(4)
    a = rng.random((4, 5))
    order = np.argsort(a, axis=axis)
    t = pyasc.Tensor(a)
    check_same(pyasc.take_along_axis(t, order, axis=axis),
               np.take_along_axis(a, order, axis=axis))
    if axis is not None:
        first = order[:1] if axis == 0 else order[:, :1]
        check_same(pyasc.take_along_axis(t, pyasc.Tensor(first), axis=axis),
                   np.take_along_axis(a, first, axis=axis))
        b = a.copy()
        np.put_along_axis(b, first, -1.0, axis=axis)
        pyasc.put_along_axis(t, first, -1.0, axis=axis)
        check_same(t, b)
    with pytest.raises(ValueError, match="same number of dimensions"):
        pyasc.take_along_axis(t, np.array([0]), axis=0)
    with pytest.raises(IndexError, match="integer"):
        pyasc.take_along_axis(t, np.zeros((1, 1)), axis=0)


@pytest.mark.parametrize("dtype", ["bool", "int8", "uint16", "int32", "int64", "float16",
                                   "float32", "float64"])
def test_add_at_matches_numpy(dtype):
    a = (np.arange(12) % (2 if dtype == "bool" else 7)).astype(dtype).reshape(3, 4)
    t = pyasc.Tensor(a)
    b = a.copy()
    value = True if dtype == "bool" else 3
    for key in [([0, 0, 2, 0],), (slice(None), [1, 1, 3]), ([0, 0], [1, 1]), (1, slice(None))]:
        np.add.at(b, key, value)
        pyasc.add_at(t, key, value)
        check_same(t, b, repr(key))
    with pytest.raises(TypeError, match="same_kind"):
        pyasc.add_at(pyasc.Tensor(np.zeros(3, np.int32)), [0], 1.5)
    with pytest.raises(TypeError):
        pyasc.add_at(np.zeros(3), [0], 1.0)


def test_numpy_functions_on_tensors_dispatch_here():
    a = np.arange(6.0).reshape(2, 3)
    t = pyasc.Tensor(a)
    for g, r in zip(np.nonzero(t), np.nonzero(a)):
        check_same(g, r.astype(np.int64))
    check_same(np.take(t, [1, 0]), np.take(a, [1, 0]))
    check_same(np.take_along_axis(t, np.array([[0], [2]]), axis=1),
               np.take_along_axis(a, np.array([[0], [2]]), axis=1))
    np.add.at(t, [0, 0, 1], 1.0)  # through __array_ufunc__
    np.add.at(a, [0, 0, 1], 1.0)
    check_same(t, a)


# --- autograd and operators -----------------------------------------------------------------


def test_gradient_of_advanced_indexing_adds_repeated_picks():
    a = np.arange(12.0).reshape(3, 4)
    w = np.arange(1.0, 5.0)
    x = pyasc.Tensor(a)

    def f(x):
        return pyasc.sum(x[[0, 0, 2]] * w)

    ref = np.zeros_like(a)
    np.add.at(ref, [0, 0, 2], np.broadcast_to(w, (3, 4)))
    check_same(pyasc.grad(f)(x), ref)
    # a mask: the gradient is 1 where it picked
    g = pyasc.grad(lambda x: pyasc.sum(x[x > 4.0] * 3.0))(x)
    check_same(g, np.where(a > 4.0, 3.0, 0.0))
    g = pyasc.grad(lambda x: pyasc.sum(x[:, [3, 3, 0]]))(x)
    ref = np.zeros_like(a)
    np.add.at(ref, (slice(None), [3, 3, 0]), 1.0)
    check_same(g, ref)


def test_gradient_through_nonzero_where_and_argwhere_indices():
    a = np.array([[-1.0, 2.0], [3.0, -4.0]])

    def f(x):
        i, j = pyasc.where(x > 0)
        picked = x[pyasc.nonzero(x < 0)]
        big = x[tuple(pyasc.argwhere(x > 2.5).T)]
        return pyasc.sum(x[i, j] * 2.0) + pyasc.sum(picked) + pyasc.sum(big * 5.0)

    ref = np.where(a > 0, 2.0, 0.0) + np.where(a < 0, 1.0, 0.0) + np.where(a > 2.5, 5.0, 0.0)
    check_same(pyasc.grad(f)(pyasc.Tensor(a)), ref)


def test_gradient_through_take_and_take_along_axis():
    rng = np.random.default_rng(5)
    a = rng.random((3, 5))
    labels = np.array([[1], [4], [1]])
    g = pyasc.grad(lambda x: pyasc.sum(pyasc.take_along_axis(x, labels, axis=1) * 3.0))(
        pyasc.Tensor(a))
    ref = np.zeros_like(a)
    np.put_along_axis(ref, labels, 3.0, axis=1)
    check_same(g, ref)
    g = pyasc.grad(lambda x: pyasc.sum(pyasc.take(x, [0, 0, 7], axis=None)))(pyasc.Tensor(a))
    ref = np.zeros(a.size)
    np.add.at(ref, [0, 0, 7], 1.0)
    check_same(g, ref.reshape(a.shape))


def test_operators_that_index_advanced():
    @pyasc.op
    def positive_doubled(x):
        return x[x > 0] * 2.0

    @pyasc.op
    def swap_columns(x):
        return x[:, [1, 0]] + 1.0

    a = np.array([[-1.0, 2.0], [3.0, -4.0]], dtype=np.float32)
    check_same(positive_doubled(a), a[a > 0] * 2.0)
    assert "runs eagerly" in str(positive_doubled.explain(a))
    check_same(swap_columns(a), a[:, [1, 0]] + 1.0)


# --- properties ---------------------------------------------------------------------


def _key_items(shape):
    ints = st.integers(-4, 4)
    int_arrays = st.lists(st.integers(-4, 4), min_size=0, max_size=4)
    nested = st.lists(st.lists(st.integers(-3, 3), min_size=2, max_size=2), min_size=1,
                      max_size=2)
    slices = st.builds(slice, st.one_of(st.none(), st.integers(-4, 4)),
                       st.one_of(st.none(), st.integers(-4, 4)),
                       st.one_of(st.none(), st.sampled_from([-2, -1, 1, 2])))
    return st.one_of(ints, int_arrays, nested, slices, st.just(None), st.just(Ellipsis),
                     st.booleans())


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(shape=st.lists(st.integers(1, 4), min_size=1, max_size=3).map(tuple),
       data=st.data())
def test_property_mixed_keys_match_numpy(shape, data):
    a = np.arange(int(np.prod(shape)), dtype=np.int32).reshape(shape)
    key = tuple(data.draw(st.lists(_key_items(shape), min_size=1, max_size=4)))
    if data.draw(st.booleans()):  # a mask on the leading axes
        k = data.draw(st.integers(1, len(shape)))
        mask = data.draw(st.lists(st.booleans(), min_size=int(np.prod(shape[:k])),
                                  max_size=int(np.prod(shape[:k]))))
        key = (np.array(mask).reshape(shape[:k]),) + key[1:]
    t = pyasc.Tensor(a)
    try:
        ref = a[key]
    except (IndexError, ValueError) as exc:
        with pytest.raises(type(exc) if isinstance(exc, IndexError) else (IndexError, ValueError)):
            t[key]
        return
    check_same(t[key], ref, repr(key))
    b = a.copy()
    b[key] = -1
    t[key] = -1
    check_same(t, b, f"{key!r} = -1")


def test_host_names_are_not_shadowed_by_kernel_builtins():
    """The kernel language's names are merged into pyasc after the host's:
    none of these may be replaced by a kernel-only builtin."""
    for name in ("take", "put", "take_along_axis", "put_along_axis"):
        assert getattr(pyasc, name) is getattr(pyasc.indexing, name), name
    for name in ("nonzero", "argwhere", "add_at", "where"):
        assert getattr(pyasc, name) is getattr(pyasc._C, name), name
    check_same(pyasc.take(np.arange(4), [3]), np.array([3]))  # works on the host


def test_docstring_examples():
    failures, tried = doctest.testmod(pyasc.indexing)
    assert tried >= 4 and failures == 0


def test_a_mask_axis_of_length_zero_stands_for_any_axis():
    # NumPy: it selects nothing whatever the indexed axis's length
    for shape, mask_shape in [((0, 1), (0, 0)), ((2, 3), (2, 0)), ((2, 1), (0, 1))]:
        a = np.zeros(shape)
        mask = np.zeros(mask_shape, bool)
        assert pyasc.asarray(a)[pyasc.asarray(mask)].shape == a[mask].shape
    with pytest.raises(IndexError, match="boolean index did not match"):
        pyasc.asarray(np.zeros((1, 3)))[pyasc.asarray(np.zeros((1, 2), bool))]
