"""Creation functions (empty, zeros, ones, full and _like, arange, linspace,
eye) and joining (concatenate, stack) against NumPy as the reference.

Values must match NumPy exactly: arange and linspace follow NumPy's formulas
(arange fills x[0] + i * (x[1] - x[0]) in the dtype's arithmetic; linspace
computes in float64 with an exact endpoint).
"""

from __future__ import annotations

import numpy as np
import pytest

import pyasc

DTYPES = ["bool", "int8", "uint8", "int16", "int32", "int64", "float16", "float32", "float64"]
ALL_DTYPES = DTYPES + ["bfloat16"]


def _np(t):
    """A tensor's values as NumPy (bfloat16 as float32)."""
    return t.numpy()


def _same(t, ref, case=""):
    ref = np.asarray(ref)
    assert t.shape == ref.shape, case
    assert t.dtype == ref.dtype, (case, t.dtype, ref.dtype)
    np.testing.assert_array_equal(_np(t), ref, err_msg=str(case))
    # Bit-exact for floats (signed zeros, NaN payloads aside).
    if ref.dtype.kind == "f":
        assert np.array_equal(np.signbit(_np(t)), np.signbit(ref)), case


# --- empty / zeros / ones / full --------------------------------------------------


@pytest.mark.parametrize("dtype", DTYPES)
def test_zeros_ones_empty(dtype):
    for shape in [(), 0, 5, (0,), (2, 3), [2, 3, 4], (1, 0, 3)]:
        _same(pyasc.zeros(shape, dtype=dtype), np.zeros(shape, dtype), shape)
        _same(pyasc.ones(shape, dtype), np.ones(shape, dtype), shape)
        e = pyasc.empty(shape, dtype=dtype)
        assert e.shape == np.empty(shape).shape
        assert e.dtype == getattr(pyasc, "bool_" if dtype == "bool" else dtype)


def test_default_dtype_is_float64():
    for fn in (pyasc.zeros, pyasc.ones, pyasc.empty):
        assert fn(3).dtype == pyasc.float64
    assert pyasc.eye(2).dtype == pyasc.float64
    assert pyasc.linspace(0, 1).dtype == pyasc.float64


def test_bfloat16_fills():
    assert np.array_equal(pyasc.ones((2, 2), pyasc.bfloat16).numpy(), np.ones((2, 2), np.float32))
    t = pyasc.full(3, 1.00390625, dtype="bfloat16")  # halfway: rounds to even (1.0)
    assert t.numpy(raw=True).tolist() == [0x3F80] * 3
    assert pyasc.full(2, 3.0, dtype="bfloat16").numpy().tolist() == [3.0, 3.0]


FULL_CASES = [
    (7, None),
    (True, None),
    (2.5, None),
    (-3, "int8"),
    (255, "uint8"),
    (2.7, "int64"),
    (-2.7, "int32"),
    (1e10, "float32"),
    (70000.0, "float16"),
    (float("nan"), "float64"),
    (float("-inf"), "float16"),
    (-0.0, "float32"),
    (5, "bool"),
    (0.0, "bool"),
    (2**62, "float64"),
    (2**63 - 1, "int64"),
    (3, "float16"),
    (np.float32(1.5), None),
    (np.int16(-4), None),
]


@pytest.mark.filterwarnings("ignore:overflow encountered in cast:RuntimeWarning")  # NumPy's ref
def test_full_scalars():
    for value, dtype in FULL_CASES:
        ref = np.full((2, 3), value, dtype=dtype)
        _same(pyasc.full((2, 3), value, dtype=dtype), ref, (value, dtype))


def test_full_array_values_broadcast():
    _same(pyasc.full((2, 3), [1, 2, 3]), np.full((2, 3), [1, 2, 3]))
    column = np.array([[1.5], [2.5]], np.float32)
    _same(pyasc.full((2, 3), column), np.full((2, 3), column))
    _same(pyasc.full((4,), pyasc.asarray(np.int8(3))), np.full((4,), np.int8(3)))
    _same(pyasc.full((2, 2), [1, 2], dtype="float16"), np.full((2, 2), [1, 2], dtype=np.float16))
    with pytest.raises(pyasc.InvalidValueError):
        pyasc.full((2, 3), [1, 2])


def test_full_integer_overflow_like_numpy():
    with pytest.raises(OverflowError, match="out of bounds for int8"):
        pyasc.full(2, 300, dtype="int8")
    with pytest.raises(OverflowError, match="out of bounds for uint8"):
        pyasc.full(2, -1, dtype="uint8")
    with pytest.raises(OverflowError):
        pyasc.full(2, 2**63)  # int64 by default
    assert pyasc.full(1, 2**70, dtype="float64").item() == float(2**70)


def test_large_fill_runs_in_parallel_blocks():
    t = pyasc.full((1000, 700), 3.25)
    _same(t, np.full((1000, 700), 3.25))
    z = pyasc.zeros((513, 1031), dtype="int16")
    assert not np.any(z.numpy())


def test_tensor_fill_on_views():
    base = np.arange(24, dtype=np.float32).reshape(4, 6)
    t = pyasc.from_numpy(base)
    t[:, ::2].fill(-1)  # strided view of shared memory
    ref = np.arange(24, dtype=np.float32).reshape(4, 6)
    ref[:, ::2] = -1
    np.testing.assert_array_equal(t.numpy(), ref)
    t[::-1, 1].fill(2.5)
    ref[::-1, 1] = 2.5
    np.testing.assert_array_equal(t.numpy(), ref)
    i8 = pyasc.zeros(3, dtype="int8")
    with pytest.raises(OverflowError):
        i8.fill(300)
    i8.fill(2.7)
    assert i8.tolist() == [2, 2, 2]


@pytest.mark.parametrize("fn", ["zeros_like", "ones_like", "empty_like"])
def test_like(fn):
    src = np.arange(12, dtype=np.int16).reshape(3, 4)[:, ::2]
    for x in (src, pyasc.from_numpy(src), src.tolist()):
        for dtype in (None, "float32", "bfloat16"):
            t = getattr(pyasc, fn)(x, dtype=dtype)
            ref = getattr(np, fn)(np.asarray(x), dtype=None if dtype == "bfloat16" else dtype)
            assert t.shape == ref.shape
            if dtype == "bfloat16":
                assert t.dtype == pyasc.bfloat16
                ref = ref.astype(np.float32)
            else:
                assert t.dtype == ref.dtype
            if fn != "empty_like":
                np.testing.assert_array_equal(t.numpy(), ref)
    _same(pyasc.full_like(src, 7), np.full_like(src, 7))
    _same(pyasc.full_like(src, 2.5, dtype="float64"), np.full_like(src, 2.5, dtype=np.float64))
    _same(pyasc.full_like(pyasc.ones(3, dtype="uint8"), 9), np.full_like(np.ones(3, np.uint8), 9))


def test_shape_errors():
    with pytest.raises(pyasc.InvalidValueError, match="negative dimensions"):
        pyasc.zeros(-1)
    with pytest.raises(ValueError):
        pyasc.ones((2, -3))
    with pytest.raises(TypeError):
        pyasc.zeros((2, "a"))
    with pytest.raises(TypeError):
        pyasc.zeros(2.5)
    with pytest.raises(pyasc.DTypeError):
        pyasc.zeros(3, dtype="complex256")
    with pytest.raises(pyasc.InvalidValueError):
        pyasc.zeros((1,) * 17)
    with pytest.raises(TypeError):
        pyasc.full((2,))  # fill_value missing
    with pytest.raises(pyasc.OutOfMemoryError):
        pyasc.empty((2**40, 2**30))


# --- arange --------------------------------------------------------------------------

ARANGE_CASES = [
    (5,),
    (0,),
    (-3,),
    (2, 9),
    (9, 2),
    (2, 20, 3),
    (20, 2, -3),
    (-7, 7, 2),
    (0.0, 1.0, 0.1),
    (0.1, 10.3, 0.7),
    (1.5,),
    (-2.5, 2.5, 0.5),
    (10.0, -1.0, -0.3),
    (0, 1, 0.25),
    (3, 7.5),
    (1e-300, 1e-299, 1e-301),
]


def test_arange():
    for args in ARANGE_CASES:
        _same(pyasc.arange(*args), np.arange(*args), args)


@pytest.mark.parametrize(
    "dtype", ["int8", "uint8", "int16", "int32", "float16", "float32", "float64", "bfloat16"]
)
def test_arange_dtypes(dtype):
    for args in [(10,), (2, 40, 3), (0.1, 10.3, 0.7), (0.5, 11.5, 1.1), (0, 5, 0.5)]:
        _check_arange(args, dtype)


def _check_arange(args, dtype):
    t = pyasc.arange(*args, dtype=dtype)
    if dtype == "bfloat16":
        # NumPy has no bfloat16: as its float16 fill, from the first two
        # values rounded to the dtype, in float32, rounded per element.
        start, stop, step = (0, *args, 1)[-3:] if len(args) == 1 else (*args, 1)[:3]
        n = len(np.arange(*args))
        x0 = _round_bf16(np.float32(start))
        delta = _round_bf16(np.float32(start + step)) - x0
        ref = _round_bf16(x0 + np.arange(n, dtype=np.float32) * delta)
        ref[1:2] = _round_bf16(np.float32(start + step))
        assert t.dtype == pyasc.bfloat16 and t.shape == ref.shape
        np.testing.assert_array_equal(t.numpy(), ref, err_msg=str(args))
        return
    _same(t, np.arange(*args, dtype=dtype), args)


def _round_bf16(x):
    u = np.asarray(x, np.float32).view(np.uint32).astype(np.uint64)
    u = ((u + 0x7FFF + ((u >> 16) & 1)) >> 16) << 16
    return u.astype(np.uint32).view(np.float32)


def test_arange_negative_floats_to_integers():
    _same(pyasc.arange(-5.5, 5.5, 1.1, dtype="int16"), np.arange(-5.5, 5.5, 1.1, dtype=np.int16))
    _same(pyasc.arange(-3.7, 3, 0.9, dtype="int8"), np.arange(-3.7, 3, 0.9, dtype=np.int8))


def test_arange_keywords_and_big():
    _same(pyasc.arange(start=2, stop=11, step=2), np.arange(2, 11, 2))
    _same(pyasc.arange(2, dtype="bool"), np.arange(2, dtype=bool))
    _same(pyasc.arange(np.int32(4)), np.arange(np.int32(4)))
    _same(pyasc.arange(np.float32(2.5)), np.arange(np.float32(2.5)))
    n = 1_000_003
    _same(pyasc.arange(n), np.arange(n))  # parallel blocks
    _same(pyasc.arange(-1.0, 1.0, 2.0 / n), np.arange(-1.0, 1.0, 2.0 / n))
    _same(pyasc.arange(300, dtype="int8"), np.arange(300).astype(np.int8))  # wraps as NumPy's fill


def test_arange_errors():
    with pytest.raises(pyasc.InvalidValueError, match="step"):
        pyasc.arange(0, 10, 0)
    with pytest.raises(pyasc.InvalidValueError, match="step"):
        pyasc.arange(0.0, 1.0, 0.0)
    with pytest.raises(pyasc.InvalidValueError, match="cannot compute length"):
        pyasc.arange(0, float("nan"))
    with pytest.raises(pyasc.InvalidValueError):
        pyasc.arange(0, float("inf"))
    with pytest.raises(pyasc.InvalidValueError, match="maximum allowed size"):
        pyasc.arange(0.0, 1.0, 1e-20)
    with pytest.raises(pyasc.OutOfMemoryError):
        pyasc.arange(0.0, 1.0, 1e-15)
    with pytest.raises(TypeError, match="at most length 2"):
        pyasc.arange(3, dtype="bool")
    with pytest.raises(TypeError):
        pyasc.arange("a")
    with pytest.raises(TypeError):
        pyasc.arange()


# --- linspace ------------------------------------------------------------------------


LINSPACE_CASES = [
    ((0, 1), {}),
    ((0, 1, 5), {}),
    ((-3.5, 7.25, 11), {}),
    ((1, 0, 7), {}),
    ((0, 1, 5), {"endpoint": False}),
    ((2, 3, 1), {}),
    ((2, 3, 1), {"endpoint": False}),
    ((2, 3, 0), {}),
    ((0, 1e-320, 5), {}),
    ((0.1, 0.7, 9), {}),
    ((5, 1, 5), {"dtype": "int64"}),
    ((-2.5, 2.5, 6), {"dtype": "int32"}),
    ((0, 10, 7), {"dtype": "float32"}),
    ((0, 10, 7), {"dtype": "float16"}),
    ((0, 255, 13), {"dtype": "uint8"}),
    ((1, 1, 4), {}),
    ((0, 1, 200_001), {}),
]


def test_linspace():
    for args, kwargs in LINSPACE_CASES:
        _same(pyasc.linspace(*args, **kwargs), np.linspace(*args, **kwargs), (args, kwargs))


def test_linspace_errors():
    with pytest.raises(pyasc.InvalidValueError, match="must be non-negative"):
        pyasc.linspace(0, 1, -1)
    with pytest.raises(TypeError):
        pyasc.linspace(0, 1, 2.5)
    with pytest.raises(TypeError):
        pyasc.linspace("a", 1)


# --- eye -----------------------------------------------------------------------------


@pytest.mark.parametrize("dtype", ["float64", "int8", "bool", "float16"])
def test_eye(dtype):
    cases = [(3, None, 0), (4, 6, 1), (6, 4, -2), (5, 5, 7), (5, 5, -9), (0, 3, 0), (3, 0, 0)]
    for n, m, k in cases + [(1, 1, 0), (700, 600, 3)]:
        _same(pyasc.eye(n, m, k, dtype=dtype), np.eye(n, m, k, dtype=dtype), (n, m, k))


def test_eye_keywords_and_errors():
    _same(pyasc.eye(3, k=-1), np.eye(3, k=-1))
    _same(pyasc.eye(2, M=3, k=2**62), np.eye(2, 3, k=5))  # no diagonal inside
    _same(pyasc.eye(2, M=3, k=-(2**62)), np.eye(2, 3, k=-5))
    assert pyasc.eye(2, dtype="bfloat16").numpy().tolist() == [[1, 0], [0, 1]]
    with pytest.raises(pyasc.InvalidValueError, match="negative dimensions"):
        pyasc.eye(-1)
    with pytest.raises(TypeError):
        pyasc.eye(2.0)


# --- concatenate / stack -----------------------------------------------------------


def _parts(rng):
    a = rng.integers(-50, 50, (2, 3, 4)).astype(np.float32)
    b = rng.integers(-50, 50, (2, 5, 4)).astype(np.int8)
    c = np.arange(40, dtype=np.int16).reshape(2, 5, 4)[:, ::-1, ::1]  # negative stride
    return a, b, c


def test_concatenate_axes_and_promotion():
    rng = np.random.default_rng(0)
    a, b, c = _parts(rng)
    _same(pyasc.concatenate([a, b, c], axis=1), np.concatenate([a, b, c], axis=1))
    _same(pyasc.concatenate([pyasc.from_numpy(b), c], axis=-2), np.concatenate([b, c], axis=-2))
    _same(pyasc.concatenate((b, c)), np.concatenate((b, c)))
    x, y = a[:, :, :2], a[:, :, 2:]
    _same(pyasc.concatenate([x, y, x], axis=2), np.concatenate([x, y, x], axis=2))
    _same(pyasc.concatenate([a, b], axis=None), np.concatenate([a, b], axis=None))
    _same(pyasc.concatenate([[1, 2], [3.5]]), np.concatenate([[1, 2], [3.5]]))
    for parts in [
        [np.array([True]), np.array([2], np.int32)],
        [np.ones(2, np.int8), np.ones(2, np.float16)],
        [np.zeros((0, 3)), np.ones((2, 3)), np.zeros((0, 3))],
    ]:
        _same(pyasc.concatenate(parts), np.concatenate(parts), [p.dtype for p in parts])
    _same(pyasc.concatenate([a]), np.concatenate([a]))
    bf = pyasc.concatenate([pyasc.ones(2, "bfloat16"), pyasc.zeros(1, "bfloat16")])
    assert bf.dtype == pyasc.bfloat16 and bf.numpy().tolist() == [1, 1, 0]
    big = [rng.random((300, 257)) for _ in range(3)]
    _same(pyasc.concatenate(big, axis=1), np.concatenate(big, axis=1))


def test_concatenate_out_and_dtype():
    a = np.arange(6, dtype=np.float32).reshape(2, 3)
    b = np.arange(3, dtype=np.float32).reshape(1, 3)
    out = pyasc.zeros((3, 3))
    assert pyasc.concatenate([a, b], out=out) is out
    _same(out, np.concatenate([a, b]).astype(np.float64))
    _same(pyasc.concatenate([a, b], dtype="float16"), np.concatenate([a, b], dtype=np.float16))
    # out overlapping the inputs: every input is read before out is written.
    t = pyasc.asarray(np.arange(6, dtype=np.int64))
    pyasc.concatenate([t[3:], t[:3]], out=t)
    assert t.tolist() == [3, 4, 5, 0, 1, 2]
    with pytest.raises(pyasc.DTypeError, match="same_kind"):
        pyasc.concatenate([a, b], out=pyasc.zeros((3, 3), dtype="int64"))
    with pytest.raises(pyasc.DTypeError, match="same_kind"):
        pyasc.concatenate([a, b], dtype="int32")
    with pytest.raises(pyasc.InvalidValueError, match="wrong shape"):
        pyasc.concatenate([a, b], out=pyasc.zeros((3, 4)))
    with pytest.raises(TypeError, match="both"):
        pyasc.concatenate([a, b], out=out, dtype="float64")
    with pytest.raises(TypeError):
        pyasc.concatenate([a, b], out=np.zeros((3, 3)))


def test_concatenate_errors():
    with pytest.raises(pyasc.InvalidValueError, match="need at least one array"):
        pyasc.concatenate([])
    with pytest.raises(pyasc.InvalidValueError, match="zero-dimensional"):
        pyasc.concatenate([1.0, 2.0])
    with pytest.raises(pyasc.InvalidValueError, match="same number of dimensions"):
        pyasc.concatenate([np.ones((2, 3)), np.ones(2)])
    msg = "along dimension 1, the array at index 0 has size 3 and the array at index 1 has size 4"
    with pytest.raises(pyasc.InvalidValueError, match=msg):
        pyasc.concatenate([np.ones((2, 3)), np.ones((2, 4))])
    with pytest.raises(pyasc.IndexOutOfRangeError, match="axis 2 is out of bounds"):
        pyasc.concatenate([np.ones((2, 3))], axis=2)
    with pytest.raises(TypeError):
        pyasc.concatenate(5)


def test_stack():
    rng = np.random.default_rng(1)
    parts = [rng.random((2, 3, 4)), rng.integers(0, 9, (2, 3, 4))]
    parts.append(np.ones((4, 3, 2), np.float32).transpose(2, 1, 0))  # strided
    for axis in [0, 1, 2, 3, -1, -4]:
        _same(pyasc.stack(parts, axis=axis), np.stack(parts, axis=axis), axis)


def test_stack_forms_and_errors():
    _same(pyasc.stack([[1, 2], [3, 4]]), np.stack([[1, 2], [3, 4]]))
    _same(pyasc.stack([1, 2, 3]), np.stack([1, 2, 3]))  # 0-d parts
    empty = [np.ones((0, 2)), np.ones((0, 2))]
    _same(pyasc.stack(empty, axis=1), np.stack(empty, axis=1))
    out = pyasc.zeros((2, 2), dtype="int32")
    assert pyasc.stack([[1, 2], [3, 4]], out=out) is out
    assert out.tolist() == [[1, 2], [3, 4]]
    with pytest.raises(pyasc.InvalidValueError, match="need at least one array to stack"):
        pyasc.stack([])
    with pytest.raises(pyasc.InvalidValueError, match="same shape"):
        pyasc.stack([np.ones((2, 3)), np.ones((2, 4))])
    with pytest.raises(pyasc.IndexOutOfRangeError, match="axis 2 is out of bounds for array"):
        pyasc.stack([np.ones(2)], axis=2)
