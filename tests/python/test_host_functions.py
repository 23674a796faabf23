"""The host functions a NumPy user reaches for, checked against NumPy on many
shapes, dtypes, axes and strided views: sort/argsort, searchsorted, the
unique family, cumulative sums and products, diff, count_nonzero, and the
manipulation functions (flip, roll, repeat, tile, tril/triu, moveaxis,
expand_dims, squeeze, broadcast_to/broadcast_arrays, unstack, meshgrid).
Descending sorts, which NumPy lacks, are checked against Python's stable
sorted() with NaN last."""

from __future__ import annotations

import math

import numpy as np
import pytest

import pyasc

RNG = np.random.default_rng(20261204)

REAL = ["bool", "int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64",
        "float16", "float32", "float64"]
ALL = REAL + ["complex64", "complex128"]
SHAPES = [(0,), (1,), (7,), (3, 5), (2, 0, 4), (4, 3, 6)]


def sample(shape, dtype, nan=True):
    """Values with many ties (stability matters), NaNs and signed zeros for floats."""
    dt = np.dtype(dtype)
    if dt == np.bool_:
        return RNG.integers(0, 2, shape).astype(bool)
    if dt.kind in "iu":
        info = np.iinfo(dt)
        lo, hi = max(info.min, -6), min(info.max, 6)
        a = RNG.integers(lo, hi + 1, shape).astype(dt)
        if a.size > 2:
            a.flat[0], a.flat[1] = info.max, info.min
        return a
    if dt.kind == "c":
        a = (RNG.integers(-3, 4, shape) + 1j * RNG.integers(-2, 3, shape)).astype(dt)
        if nan and a.size > 4:
            a.flat[0] = complex(np.nan, 1)
            a.flat[1] = complex(1, np.nan)
            a.flat[2] = complex(np.nan, np.nan)
            a.flat[3] = complex(0, np.nan)
        return a
    a = (RNG.integers(-4, 5, shape) / 2).astype(dt)
    if nan and a.size > 3:
        a.flat[0], a.flat[1], a.flat[2] = np.nan, -0.0, np.inf
    return a


def T(a):
    return pyasc.asarray(a)


def N(t):
    return np.asarray(t)


def axes_of(shape):
    return list(range(-len(shape), len(shape)))


# --- sort / argsort --------------------------------------------------------------------------


@pytest.mark.parametrize("dtype", ALL)
@pytest.mark.parametrize("shape", SHAPES)
def test_sort_and_argsort_match_numpy_stable(dtype, shape):
    a = sample(shape, dtype)
    for axis in axes_of(shape):
        ref_i = np.argsort(a, axis=axis, kind="stable")
        np.testing.assert_array_equal(N(pyasc.argsort(T(a), axis=axis)), ref_i)
        got = pyasc.sort(T(a), axis=axis)
        assert got.dtype == T(a).dtype and got.shape == a.shape
        np.testing.assert_array_equal(N(got), np.sort(a, axis=axis, kind="stable"))


@pytest.mark.parametrize("dtype", ["int16", "uint64", "float32", "float64", "complex128"])
def test_sort_of_strided_views(dtype):
    base = sample((6, 8, 5), dtype)
    views = [lambda x: x[::2, ::-1], lambda x: x.transpose(2, 0, 1), lambda x: x[1:, 3, ::-2]]
    for view in views:
        a = view(base)
        t = view(T(base)) if not isinstance(view(T(base)), np.ndarray) else None
        assert t is not None and not t.is_contiguous() or a.ndim == 1
        for axis in axes_of(a.shape):
            np.testing.assert_array_equal(N(pyasc.sort(t, axis=axis)),
                                          np.sort(a, axis=axis, kind="stable"))
            np.testing.assert_array_equal(N(pyasc.argsort(t, axis=axis)),
                                          np.argsort(a, axis=axis, kind="stable"))


def _desc_key(v):
    """Python's order for a descending, stable sort with NaN last."""
    if isinstance(v, complex):
        cls = 2 * math.isnan(v.real) + math.isnan(v.imag)
        return (cls, 0 if math.isnan(v.real) else -v.real, 0 if math.isnan(v.imag) else -v.imag)
    if isinstance(v, float):
        return (math.isnan(v), 0 if math.isnan(v) else -v)
    return (False, -v)


@pytest.mark.parametrize("dtype", ALL)
def test_descending_is_stable_with_nan_last(dtype):
    a = sample((5, 9), dtype)
    for axis in (0, 1):
        got = N(pyasc.argsort(T(a), axis=axis, descending=True))
        vals = N(pyasc.sort(T(a), axis=axis, descending=True))
        moved = np.moveaxis(a, axis, -1)
        ref = np.empty(moved.shape, dtype=np.int64)
        for idx in np.ndindex(moved.shape[:-1]):
            row = moved[idx].tolist()
            ref[idx] = sorted(range(len(row)), key=lambda i: _desc_key(row[i]))
        ref = np.moveaxis(ref, -1, axis)
        np.testing.assert_array_equal(got, ref)
        np.testing.assert_array_equal(vals, np.take_along_axis(a, ref, axis=axis))


def test_sort_bfloat16_as_float32():
    a = sample((4, 7), "float32")
    t = T(a).astype(pyasc.bfloat16)
    got = N(pyasc.sort(t, axis=0).astype(pyasc.float32))
    np.testing.assert_array_equal(got, np.sort(a, axis=0))


def test_sort_method_returns_a_new_tensor_and_keeps_x():
    a = sample((3, 6), "float64")
    t = T(a)
    s = t.sort()
    np.testing.assert_array_equal(N(s), np.sort(a))
    np.testing.assert_array_equal(N(t), a)
    np.testing.assert_array_equal(N(t.argsort(axis=0)), np.argsort(a, axis=0, kind="stable"))
    np.testing.assert_array_equal(N(t.sort(descending=True, stable=True)[:, :1].squeeze(1)),
                                  np.array([max(r[~np.isnan(r)]) for r in a]))


def test_sort_errors():
    with pytest.raises(pyasc.IndexOutOfRangeError):
        pyasc.sort(T(np.ones((2, 3))), axis=2)
    with pytest.raises(pyasc.IndexOutOfRangeError):
        pyasc.argsort(T(np.ones((2, 3))), axis=-3)
    with pytest.raises(pyasc.IndexOutOfRangeError):
        pyasc.sort(T(np.float32(1)))
    with pytest.raises(TypeError):
        pyasc.sort(T(np.ones(3)), axis=1.5)


def test_sort_large_parallel_rows():
    a = RNG.standard_normal((64, 4096)).astype(np.float32)
    np.testing.assert_array_equal(N(pyasc.sort(T(a))), np.sort(a))
    np.testing.assert_array_equal(N(pyasc.argsort(T(a), axis=0)), np.argsort(a, axis=0,
                                                                             kind="stable"))


# --- searchsorted --------------------------------------------------------------------------


@pytest.mark.parametrize("dtype", ["int8", "uint32", "int64", "float16", "float64", "complex64"])
@pytest.mark.parametrize("side", ["left", "right"])
def test_searchsorted_matches_numpy(dtype, side):
    a = np.sort(sample((11,), dtype))
    v = sample((3, 4), dtype)
    np.testing.assert_array_equal(N(pyasc.searchsorted(T(a), T(v), side=side)),
                                  np.searchsorted(a, v, side=side))
    unsorted = sample((9,), dtype)
    sorter = np.argsort(unsorted, kind="stable")
    np.testing.assert_array_equal(
        N(pyasc.searchsorted(T(unsorted), T(v), side=side, sorter=T(sorter))),
        np.searchsorted(unsorted, v, side=side, sorter=sorter))


def test_searchsorted_promotes_and_handles_empty():
    a = np.array([1, 3, 5], dtype=np.int32)
    v = np.array([2.5, 3.0, -1.0, np.nan])
    np.testing.assert_array_equal(N(pyasc.searchsorted(T(a), T(v))), np.searchsorted(a, v))
    np.testing.assert_array_equal(N(pyasc.searchsorted(T(a[:0]), T(v))),
                                  np.searchsorted(a[:0], v))
    assert pyasc.searchsorted(T(a), T(v[:0])).shape == (0,)


def test_searchsorted_errors():
    a = T(np.arange(4.0))
    with pytest.raises(pyasc.InvalidValueError):
        pyasc.searchsorted(a, T(np.ones(2)), side="middle")
    with pytest.raises(pyasc.InvalidValueError):
        pyasc.searchsorted(T(np.ones((2, 2))), T(np.ones(2)))
    with pytest.raises(pyasc.DTypeError):
        pyasc.searchsorted(a, T(np.ones(2)), sorter=T(np.ones(4)))
    with pytest.raises(pyasc.IndexOutOfRangeError):
        N(pyasc.searchsorted(a, T(np.ones(2)), sorter=T(np.array([0, 1, 2, 9]))))


# --- unique ----------------------------------------------------------------------------------


@pytest.mark.parametrize("dtype", ALL)
@pytest.mark.parametrize("shape", [(0,), (9,), (4, 6), (2, 3, 5)])
def test_unique_all_matches_numpy(dtype, shape):
    a = sample(shape, dtype, nan=False)
    # NumPy's unique_all may leave integers unsorted (the standard leaves the
    # order open); pyasc's is sorted, as np.unique's.
    values, indices, inverse, counts = np.unique(a, True, True, True, equal_nan=False)
    got = pyasc.unique_all(T(a))
    np.testing.assert_array_equal(N(got.values), values)
    np.testing.assert_array_equal(N(got.indices), indices)
    np.testing.assert_array_equal(N(got.inverse_indices), inverse)
    np.testing.assert_array_equal(N(got.counts), counts)
    got_values, got_counts = pyasc.unique_counts(T(a))
    np.testing.assert_array_equal(N(got_counts), counts)
    values, inverse = pyasc.unique_inverse(T(a))
    assert inverse.shape == a.shape
    np.testing.assert_array_equal(N(values)[N(inverse)], a)
    np.testing.assert_array_equal(N(pyasc.unique_values(T(a))), values)


@pytest.mark.parametrize("dtype", ALL)
@pytest.mark.parametrize("shape,axis", [((5, 4), 0), ((5, 4), 1), ((3, 4, 2), 1),
                                        ((3, 4, 2), -1), ((4, 0), 0), ((0, 3), 1)])
def test_unique_along_an_axis_matches_numpy(dtype, shape, axis):
    """Subarrays along axis, some repeated (and a strided view of them):
    lexicographic order, NaN rows distinct, -0.0 equal to 0.0, as np.unique.
    NumPy sorts float16 rows with a NaN first (its record comparison of
    float16 does not order NaN); pyasc keeps NaN last in every dtype, so
    float16 is compared here without NaN."""
    base = sample(shape, dtype, nan=dtype != "float16")
    n = shape[axis]
    picks = RNG.integers(0, max(n, 1), 2 * n) if n else np.zeros(0, np.int64)
    a = np.take(base, picks, axis=axis) if n else base
    for x in (a, np.flip(a, axis)):
        want = np.unique(x, True, True, True, axis=axis)
        got = pyasc.unique(T(x), True, True, True, axis=axis)
        for g, w in zip(got, want):
            assert N(g).shape == w.shape
            np.testing.assert_array_equal(N(g), w)


def test_unique_axis_out_of_range_is_an_index_error():
    with pytest.raises(IndexError, match="axis 2 is out of bounds"):
        pyasc.unique(T(np.zeros((2, 3))), axis=2)
    with pytest.raises(IndexError):
        pyasc.unique(T(np.float32(1.0)), axis=0)


@pytest.mark.parametrize("dtype", ["float16", "float64", "complex64"])
def test_unique_nans_are_distinct_and_signed_zeros_one(dtype):
    a = sample((4, 5), dtype)
    a.flat[5] = -0.0
    a.flat[6] = 0.0
    got = pyasc.unique_all(T(a))
    finite = ~np.isnan(a)
    ref = np.unique(a[finite])
    n_nan = int((~finite).sum())
    assert n_nan > 0
    assert N(got.values).size == ref.size + n_nan
    np.testing.assert_array_equal(N(got.values)[:ref.size], ref)
    np.testing.assert_array_equal(N(got.counts)[ref.size:], np.ones(n_nan))
    np.testing.assert_array_equal(N(got.counts)[:ref.size], np.unique_counts(a[finite]).counts
                                  if dtype != "complex64" else np.unique(a[finite],
                                                                         return_counts=True)[1])
    np.testing.assert_array_equal(N(got.values)[N(got.inverse_indices)], a)
    np.testing.assert_array_equal(np.sort(N(got.indices)[ref.size:]), np.flatnonzero(~finite))


@pytest.mark.parametrize("flags", [(False, False, False), (True, False, False),
                                   (False, True, False), (False, False, True),
                                   (True, True, True)])
@pytest.mark.parametrize("equal_nan", [True, False])
def test_unique_numpy_form(flags, equal_nan):
    a = sample((5, 6), "float32")
    a.flat[7] = np.nan
    ref = np.unique(a, *flags, equal_nan=equal_nan)
    got = pyasc.unique(T(a[:, ::-1].copy())[:, ::-1], *flags, equal_nan=equal_nan, sorted=True)
    if not any(flags):
        ref, got = (ref,), (got,)
    assert len(ref) == len(got)
    for k, (r, g) in enumerate(zip(ref, got)):
        if not equal_nan and k > 0 and flags[1] and k == 1 + flags[0]:
            # Which of the distinct NaNs gets which slot is NumPy's sort's choice.
            np.testing.assert_array_equal(N(got[0])[N(g)], a)
            continue
        np.testing.assert_array_equal(N(g), r)


def test_bfloat16_scans_and_sets_as_float32():
    a = (RNG.integers(-4, 5, (3, 8)) / 2).astype(np.float32)
    t = T(a).astype(pyasc.bfloat16)
    np.testing.assert_array_equal(N(pyasc.unique_values(t).astype(pyasc.float32)), np.unique(a))
    np.testing.assert_array_equal(N(pyasc.cumsum(t, axis=1).astype(pyasc.float32)),
                                  np.cumsum(a, axis=1))
    np.testing.assert_array_equal(N(pyasc.searchsorted(pyasc.sort(t.reshape(-1)), t)),
                                  np.searchsorted(np.sort(a.reshape(-1)), a))


def test_zero_d_and_empty_inputs():
    z = np.float64(2.5)
    np.testing.assert_array_equal(N(pyasc.cumsum(T(z))), np.cumsum(z))
    np.testing.assert_array_equal(N(pyasc.cumulative_prod(T(z), include_initial=True)),
                                  np.cumulative_prod(z.reshape(1), include_initial=True))
    assert int(N(pyasc.count_nonzero(T(z)))) == 1
    np.testing.assert_array_equal(N(pyasc.unique_values(T(z))), np.unique(z))
    e = np.zeros((0, 3), np.int32)
    assert N(pyasc.count_nonzero(T(e), axis=0)).tolist() == [0, 0, 0]
    np.testing.assert_array_equal(N(pyasc.diff(T(e), axis=0)), np.diff(e, axis=0))
    np.testing.assert_array_equal(N(pyasc.repeat(T(e), 3, axis=1)), np.repeat(e, 3, axis=1))
    np.testing.assert_array_equal(N(pyasc.tril(T(e))), np.tril(e))
    np.testing.assert_array_equal(N(pyasc.cumsum(T(e), axis=0)), np.cumsum(e, axis=0))
    np.testing.assert_array_equal(N(pyasc.unique(T(e), return_counts=True)[1]),
                                  np.unique(e, return_counts=True)[1])


# --- cumulative sums and products ---------------------------------------------------------------


@pytest.mark.parametrize("dtype", ALL)
@pytest.mark.parametrize("shape", [(0,), (6,), (3, 5), (2, 0, 3), (3, 4, 5)])
def test_cumsum_cumprod_match_numpy(dtype, shape):
    a = sample(shape, dtype, nan=False)
    tol = {"float16": 1e-2, "complex64": 1e-5, "float32": 1e-5}.get(dtype, 1e-12)
    for fn, ref_fn in ((pyasc.cumsum, np.cumsum), (pyasc.cumprod, np.cumprod)):
        ref = ref_fn(a)
        got = fn(T(a))
        assert str(got.dtype) == ref.dtype.name, (got.dtype, ref.dtype)
        np.testing.assert_allclose(N(got), ref, rtol=tol, atol=tol)
        for axis in axes_of(shape):
            np.testing.assert_allclose(N(fn(T(a), axis=axis)), ref_fn(a, axis=axis), rtol=tol,
                                       atol=tol)


@pytest.mark.parametrize("dtype", ["float32", "float16"])
def test_cumsum_rounds_each_step_as_numpy(dtype):
    a = RNG.standard_normal(3000).astype(dtype)
    np.testing.assert_array_equal(N(pyasc.cumsum(T(a))), np.cumsum(a))
    b = (1 + RNG.standard_normal(200) / 50).astype(dtype)
    np.testing.assert_array_equal(N(pyasc.cumprod(T(b))), np.cumprod(b))


def test_cumsum_integer_wraps_and_dtype_argument():
    a = np.array([2**62, 2**62, 2**62], dtype=np.int64)
    np.testing.assert_array_equal(N(pyasc.cumsum(T(a))), np.cumsum(a))
    b = np.array([100, 100, 100], dtype=np.int8)
    np.testing.assert_array_equal(N(pyasc.cumsum(T(b), dtype=pyasc.int8)), np.cumsum(b, dtype=np.int8))
    np.testing.assert_allclose(N(pyasc.cumsum(T(b), dtype="float32")), np.cumsum(b, dtype=np.float32))
    c = sample((3, 4), "float32", nan=False)[:, ::-1]
    assert T(sample((3, 4), "int16")).cumsum(axis=1).dtype == pyasc.int64
    assert T(sample((3, 4), "uint16")).cumprod().dtype == pyasc.uint64
    assert pyasc.cumsum(T(sample((3,), "bool"))).dtype == pyasc.int64
    np.testing.assert_allclose(N(pyasc.cumprod(T(c), axis=0, dtype=pyasc.float64)),
                               np.cumprod(c, axis=0, dtype=np.float64))


@pytest.mark.parametrize("dtype", ["int32", "uint8", "float64", "complex64"])
def test_cumulative_sum_prod_array_api(dtype):
    a = sample((3, 4), dtype, nan=False)
    for fn, ref in ((pyasc.cumulative_sum, np.cumulative_sum),
                    (pyasc.cumulative_prod, np.cumulative_prod)):
        for axis in (0, 1, -1):
            for initial in (False, True):
                np.testing.assert_allclose(
                    N(fn(T(a), axis=axis, include_initial=initial)),
                    ref(a, axis=axis, include_initial=initial), rtol=1e-5)
        one = a[1]
        np.testing.assert_allclose(N(fn(T(one), include_initial=True)),
                                   ref(one, include_initial=True), rtol=1e-5)
        with pytest.raises(pyasc.InvalidValueError):
            fn(T(a))
    with pytest.raises(pyasc.IndexOutOfRangeError):
        pyasc.cumulative_sum(T(a), axis=2)
    assert pyasc.cumulative_sum(T(a[:, :0]), axis=1, include_initial=True).shape == (3, 1)


# --- diff and count_nonzero ------------------------------------------------------------------


@pytest.mark.parametrize("dtype", ["bool", "int8", "uint16", "int64", "float32", "complex128"])
def test_diff_matches_numpy(dtype):
    a = sample((4, 6), dtype, nan=False)
    for axis in (0, 1, -1):
        for n in (0, 1, 2, 5, 7):
            np.testing.assert_array_equal(N(pyasc.diff(T(a), axis=axis, n=n)),
                                          np.diff(a, n=n, axis=axis))
    v = a[:, ::-2]
    np.testing.assert_array_equal(N(pyasc.diff(T(a)[:, ::-2])), np.diff(v))
    if dtype != "bool":
        np.testing.assert_array_equal(N(pyasc.diff(T(a), prepend=0, append=T(a[:, :2]))),
                                      np.diff(a, prepend=0, append=a[:, :2]))
    with pytest.raises(pyasc.InvalidValueError):
        pyasc.diff(T(a), n=-1)
    with pytest.raises(pyasc.InvalidValueError):
        pyasc.diff(T(np.float32(1)))
    with pytest.raises(pyasc.IndexOutOfRangeError):
        pyasc.diff(T(a), axis=2)


@pytest.mark.parametrize("dtype", ALL)
def test_count_nonzero_matches_numpy(dtype):
    a = sample((3, 4, 5), dtype)
    a.flat[::3] = 0
    assert int(N(pyasc.count_nonzero(T(a)))) == np.count_nonzero(a)
    for axis in (0, 2, (0, 1), (-1, 0)):
        for keepdims in (False, True):
            np.testing.assert_array_equal(
                N(pyasc.count_nonzero(T(a), axis=axis, keepdims=keepdims)),
                np.count_nonzero(a, axis=axis, keepdims=keepdims))


# --- manipulation ------------------------------------------------------------------------------


@pytest.mark.parametrize("dtype", ["bool", "int32", "uint64", "float16", "complex64"])
def test_flip_is_a_view(dtype):
    a = sample((3, 4, 5), dtype)
    t = T(a.copy())
    for axis in (None, 0, -1, (0, 2), (1,)):
        np.testing.assert_array_equal(N(pyasc.flip(t, axis=axis)), np.flip(a, axis=axis))
    np.testing.assert_array_equal(N(t.flip(1)), np.flip(a, 1))
    f = pyasc.flip(t)
    t[0, 0, 0] = a[1, 1, 1]
    assert N(f)[-1, -1, -1] == a[1, 1, 1]
    np.testing.assert_array_equal(N(pyasc.flip(T(a[:, :0]))), a[:, :0])
    with pytest.raises(pyasc.IndexOutOfRangeError):
        pyasc.flip(t, axis=3)
    with pytest.raises(pyasc.InvalidValueError):
        pyasc.flip(t, axis=(0, 0))


@pytest.mark.parametrize("dtype", ["int8", "float64", "complex128", "bool"])
def test_roll_matches_numpy(dtype):
    a = sample((3, 4, 5), dtype)
    cases = [(2, None), (-7, None), (1, 0), (13, -1), ((1, 2), (0, 2)), (3, (0, 1)),
             ((1, -1), 1), (0, 1), ((2,), (0, 1)), ((1, 2), None), ((), ()), (2, [1]),
             ((1, 1, 1), (2,))]
    for shift, axis in cases:
        np.testing.assert_array_equal(N(pyasc.roll(T(a), shift, axis=axis)),
                                      np.roll(a, shift, axis=axis))
    np.testing.assert_array_equal(N(pyasc.roll(T(a)[:, ::-1], 2, axis=1)),
                                  np.roll(a[:, ::-1], 2, axis=1))
    np.testing.assert_array_equal(N(pyasc.roll(T(a[:0]), 3)), np.roll(a[:0], 3))
    big = RNG.standard_normal((512, 1024)).astype(np.float32)
    np.testing.assert_array_equal(N(pyasc.roll(T(big), (5, -300), axis=(0, 1))),
                                  np.roll(big, (5, -300), axis=(0, 1)))
    np.testing.assert_array_equal(N(pyasc.cumsum(T(big), axis=0)), np.cumsum(big, axis=0))
    with pytest.raises(pyasc.IndexOutOfRangeError):
        pyasc.roll(T(a), 1, axis=5)
    with pytest.raises(pyasc.InvalidValueError):
        pyasc.roll(T(a), (1, 2), axis=(0, 1, 2))


@pytest.mark.parametrize("dtype", ["uint8", "int64", "float32", "complex64"])
def test_repeat_matches_numpy(dtype):
    a = sample((3, 4), dtype)
    for repeats, axis in [(2, None), (0, None), (3, 0), (2, -1), ([1, 0, 2], 0),
                          (np.array([2, 1, 0, 3]), 1)]:
        ref = np.repeat(a, repeats, axis=axis)
        arg = T(repeats) if isinstance(repeats, np.ndarray) else repeats
        np.testing.assert_array_equal(N(pyasc.repeat(T(a), arg, axis=axis)), ref)
    np.testing.assert_array_equal(N(T(a).T.repeat(2, axis=0)), np.repeat(a.T, 2, axis=0))
    mask = np.array([True, False, True])
    np.testing.assert_array_equal(N(pyasc.repeat(T(a), T(mask), axis=0)), np.repeat(a, mask, axis=0))
    with pytest.raises(pyasc.InvalidValueError):
        pyasc.repeat(T(a), -1)
    with pytest.raises(pyasc.InvalidValueError):
        pyasc.repeat(T(a), [1, 2], axis=0)
    with pytest.raises(pyasc.DTypeError):
        pyasc.repeat(T(a), T(np.array([1.0, 2.0, 1.0])), axis=0)
    with pytest.raises(pyasc.IndexOutOfRangeError):
        pyasc.repeat(T(a), 2, axis=2)


@pytest.mark.parametrize("dtype", ["bool", "int16", "float64"])
def test_tile_matches_numpy(dtype):
    a = sample((2, 3), dtype)
    for reps in (2, (2, 1), (1, 3), (2, 2, 2), (0, 2), (3,)):
        np.testing.assert_array_equal(N(pyasc.tile(T(a), reps)), np.tile(a, reps))
    np.testing.assert_array_equal(N(pyasc.tile(T(a)[:, ::-1], (2, 2))), np.tile(a[:, ::-1], (2, 2)))
    np.testing.assert_array_equal(N(pyasc.tile(T(a[:0]), (2, 3))), np.tile(a[:0], (2, 3)))
    with pytest.raises(pyasc.InvalidValueError):
        pyasc.tile(T(a), (-1, 2))
    # an empty result is made at once: a huge rep beside a 0 built an index of 2**31 entries
    # (16 GiB, about a minute) before
    for reps in ((2**31, 0), (0, 2**31)):
        assert pyasc.tile(T(a), reps).shape == tuple(n * r for n, r in zip(a.shape, reps))


@pytest.mark.parametrize("dtype", ["int32", "float32", "complex128", "bool"])
def test_tril_triu_match_numpy(dtype):
    a = sample((2, 4, 5), dtype)
    for k in (-5, -1, 0, 2, 9):
        np.testing.assert_array_equal(N(pyasc.tril(T(a), k=k)), np.tril(a, k=k))
        np.testing.assert_array_equal(N(pyasc.triu(T(a), k)), np.triu(a, k))
    np.testing.assert_array_equal(N(pyasc.tril(T(a)[0].T)), np.tril(a[0].T))
    with pytest.raises(pyasc.InvalidValueError):
        pyasc.tril(T(a[0, 0]))


def test_moveaxis_expand_dims_squeeze():
    a = sample((2, 1, 3, 1), "float32")
    t = T(a)
    for src, dst in ((0, -1), (-1, 0), ((0, 2), (3, 1)), ((1, 3, 0), (0, 1, 2))):
        np.testing.assert_array_equal(N(pyasc.moveaxis(t, src, dst)), np.moveaxis(a, src, dst))
    for axis in (0, -1, (0, 2), (-1, 1, 0)):
        np.testing.assert_array_equal(N(pyasc.expand_dims(t, axis)), np.expand_dims(a, axis))
    for axis in (None, 1, -1, (1, 3)):
        np.testing.assert_array_equal(N(pyasc.squeeze(t, axis)), np.squeeze(a, axis))
    np.testing.assert_array_equal(N(t.squeeze()), a.squeeze())
    assert pyasc.squeeze(t).shape == (2, 3)
    with pytest.raises(pyasc.InvalidValueError):
        pyasc.squeeze(t, 0)
    with pytest.raises(pyasc.IndexOutOfRangeError):
        pyasc.expand_dims(t, 5)
    with pytest.raises(pyasc.InvalidValueError):
        pyasc.expand_dims(t, (0, 0))
    with pytest.raises(pyasc.InvalidValueError):
        pyasc.moveaxis(t, (0, 1), 2)
    with pytest.raises(pyasc.InvalidValueError):
        pyasc.moveaxis(t, (0, 0), (1, 2))


def test_broadcast_unstack_meshgrid():
    a, b = sample((3, 1), "int32"), sample((4,), "float64")
    got = pyasc.broadcast_arrays(T(a), T(b), 2)
    ref = np.broadcast_arrays(a, b, 2)
    assert len(got) == 3
    for g, r in zip(got, ref):
        np.testing.assert_array_equal(N(g), r)
    np.testing.assert_array_equal(N(pyasc.broadcast_to(T(b), (2, 4))), np.broadcast_to(b, (2, 4)))
    with pytest.raises(pyasc.InvalidValueError):
        pyasc.broadcast_to(T(b), (3,))
    c = sample((3, 4, 2), "complex64")
    for axis in (0, 1, -1):
        parts = pyasc.unstack(T(c), axis=axis)
        assert isinstance(parts, tuple) and len(parts) == c.shape[axis]
        for k, p in enumerate(parts):
            np.testing.assert_array_equal(N(p), np.take(c, k, axis=axis))
    with pytest.raises(pyasc.IndexOutOfRangeError):
        pyasc.unstack(T(c), axis=3)
    x, y, z = np.arange(3), np.arange(4.0), np.arange(2, dtype=np.int8)
    for indexing in ("xy", "ij"):
        for args in ((x,), (x, y), (x, y, z)):
            got = pyasc.meshgrid(*[T(v) for v in args], indexing=indexing)
            ref = np.meshgrid(*args, indexing=indexing)
            assert len(got) == len(ref)
            for g, r in zip(got, ref):
                np.testing.assert_array_equal(N(g), r)
    with pytest.raises(pyasc.InvalidValueError):
        pyasc.meshgrid(T(x), indexing="yx")


@pytest.mark.parametrize("dtype", ALL)
def test_where_moves_every_dtype_whole(dtype):
    # tril/triu select through where: complex128 moves 16 bytes per element.
    a, b = sample((3, 4), dtype), sample((4,), dtype)
    c = RNG.integers(0, 2, (3, 4)).astype(bool)
    np.testing.assert_array_equal(N(pyasc.where(T(c), T(a), T(b))), np.where(c, a, b))
    np.testing.assert_array_equal(N(pyasc.where(T(c)[:, ::-1], T(a)[::-1], T(b[:1]))),
                                  np.where(c[:, ::-1], a[::-1], b[:1]))


@pytest.mark.parametrize("dtype", ["int16", "float64", "complex64"])
def test_strided_views_everywhere(dtype):
    base = sample((5, 6, 4), dtype, nan=False)
    a = base[::-2, 1::2].transpose(2, 0, 1)
    t = T(base)[::-2, 1::2].transpose(2, 0, 1)
    assert not t.is_contiguous()
    np.testing.assert_allclose(N(pyasc.cumsum(t, axis=1)), np.cumsum(a, axis=1), rtol=1e-5)
    np.testing.assert_allclose(N(pyasc.cumprod(t)), np.cumprod(a), rtol=1e-5)
    np.testing.assert_array_equal(N(pyasc.count_nonzero(t, axis=2)), np.count_nonzero(a, axis=2))
    np.testing.assert_array_equal(N(pyasc.diff(t, axis=1)), np.diff(a, axis=1))
    np.testing.assert_array_equal(N(pyasc.flip(t, 0)), np.flip(a, 0))
    np.testing.assert_array_equal(N(pyasc.repeat(t, [1, 0, 2], axis=1)),
                                  np.repeat(a, [1, 0, 2], axis=1))
    np.testing.assert_array_equal(N(pyasc.tile(t, 2)), np.tile(a, 2))
    np.testing.assert_array_equal(N(pyasc.triu(t, -1)), np.triu(a, -1))
    np.testing.assert_array_equal(N(pyasc.unique_values(t)), np.unique(a))
    np.testing.assert_array_equal(
        N(pyasc.searchsorted(pyasc.sort(t.reshape(-1)), t[:, ::-1])),
        np.searchsorted(np.sort(a.reshape(-1)), a[:, ::-1]))


def test_numpy_functions_forward_with_numpy_positional_order():
    a = sample((4, 5), "float32")
    t = T(a)
    np.testing.assert_array_equal(N(np.sort(t, 0, "quicksort")), np.sort(a, 0, kind="stable"))
    np.testing.assert_array_equal(N(np.argsort(t, kind="heapsort")),
                                  np.argsort(a, kind="stable"))
    np.testing.assert_array_equal(N(np.diff(t, 2, 0)), np.diff(a, 2, 0))
    np.testing.assert_array_equal(N(np.sort(t, axis=None)), np.sort(a, axis=None))
    np.testing.assert_array_equal(N(t.argsort(axis=None)), np.argsort(a, axis=None, kind="stable"))
    np.testing.assert_array_equal(N(np.cumsum(t, 1)), np.cumsum(a, 1))
    np.testing.assert_array_equal(N(np.roll(t, 3, 1)), np.roll(a, 3, 1))
    np.testing.assert_array_equal(N(np.repeat(t, 2, 0)), np.repeat(a, 2, 0))
    np.testing.assert_array_equal(N(np.flip(t, 1)), np.flip(a, 1))
    np.testing.assert_array_equal(N(np.tril(t, 1)), np.tril(a, 1))
    np.testing.assert_array_equal(N(np.count_nonzero(t, 0)), np.count_nonzero(a, 0))
    with pytest.raises(pyasc.UnsupportedError):
        pyasc.sort(t, order="f0")


def test_kernel_sort_builtin_still_resolves():
    from pyasc.language.builtins import SHARED_BUILTINS
    from pyasc.language.lower.core import shared_builtin

    assert shared_builtin(pyasc.sort) is SHARED_BUILTINS["sort"]
    assert shared_builtin(pyasc.argsort) is pyasc.argsort


def test_huge_repeats_fail_cleanly():
    # the host index of the result would exceed the device: an error, not an abort
    t = pyasc.arange(6.0).reshape(2, 3)
    with pytest.raises(pyasc.OutOfMemoryError, match="exceed the device"):
        t.repeat(2**31)
    with pytest.raises(pyasc.OutOfMemoryError, match="exceed the device"):
        pyasc.tile(t, (2**31, 2**20))
