"""Reductions (sum, prod, mean, max, min, argmax, argmin, any, all, var, std)
and softmax / log_softmax, differentially against NumPy (or a float64
reference) over dtypes, shapes, axes, keepdims and strided views, plus the
parallel paths (split outputs, split reductions), accuracy, NaN handling and
the error paths."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import pyasc

DTYPES = ["bool", "int8", "uint8", "int16", "int32", "int64", "float16", "bfloat16", "float32", "float64",
          "uint16", "uint32"]
FLOATS = ["float16", "bfloat16", "float32", "float64"]
SHAPES = [(), (0,), (5,), (3, 4, 5), (2, 0, 3)]
AXES = [None, 0, -1, (0, 2), ()]
OPS = ["sum", "prod", "mean", "max", "min", "argmax", "argmin", "any", "all", "var", "std"]
EPS = {"float16": 2.0**-11, "bfloat16": 2.0**-8, "float32": 2.0**-24, "float64": 2.0**-53}


def sample(rng, shape, dtype: str, op: str) -> np.ndarray:
    """Values that keep every op meaningful: small integers for prod, some
    repeats for argmax ties, mostly-true bools so that all() varies."""
    if dtype == "bool":
        return rng.random(shape) < 0.8
    if dtype in FLOATS:
        if op == "prod":
            return rng.uniform(0.5, 1.5, shape).astype(np.float32)
        return (rng.standard_normal(shape) * 8).astype(np.float32)
    lo, hi = (-2, 3) if op == "prod" else (-40, 41)
    if dtype.startswith("uint"):
        lo, hi = 0, 3 if op == "prod" else 90
    return rng.integers(lo, hi, shape).astype(dtype)


def to_tensor(a: np.ndarray, dtype: str) -> pyasc.Tensor:
    return pyasc.Tensor(a, dtype=getattr(pyasc, "bool_" if dtype == "bool" else dtype))


def reference_input(t: pyasc.Tensor, a: np.ndarray, dtype: str) -> np.ndarray:
    """NumPy has no bfloat16: its reference computes on the exact float32
    values of the rounded tensor."""
    if dtype == "bfloat16":
        return t.numpy()
    return a.astype(dtype)


def numpy_call(op: str, a: np.ndarray, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return np.asarray(getattr(np, op)(a, **kwargs))


def expected_dtype(op: str, ref: np.ndarray, dtype: str) -> str:
    name = ref.dtype.name
    if dtype == "bfloat16" and name == "float32":
        return "bfloat16"
    return name


def tolerance(op: str, dtype: str, a: np.ndarray) -> tuple[float, float]:
    """(rtol, atol) for float results; atol scales with the magnitude summed."""
    if dtype not in FLOATS and op not in ("mean", "var", "std"):
        return 0.0, 0.0
    eps = EPS.get(dtype, EPS["float64"])
    if dtype == "float16" and op in ("var", "std", "prod"):
        eps = 2.0**-6  # NumPy computes these in float16 throughout, pyasc in float32
    scale = float(np.sum(np.abs(a.astype(np.float64)))) if a.size else 0.0
    rtol = 16 * eps
    return rtol, rtol * (1.0 + scale)


def check_result(op, got, ref, dtype, a):
    assert got.dtype.name == expected_dtype(op, ref, dtype)
    assert got.shape == ref.shape
    values = got.numpy()
    rtol, atol = tolerance(op, dtype, a)
    if rtol == 0.0 or op in ("max", "min", "argmax", "argmin", "any", "all"):
        np.testing.assert_array_equal(values, ref.astype(values.dtype))
    else:
        np.testing.assert_allclose(values.astype(np.float64), ref.astype(np.float64), rtol=rtol, atol=atol)


def check_same_error(excinfo_np: BaseException, call):
    """pyasc fails where NumPy does, with the matching builtin category."""
    if isinstance(excinfo_np, IndexError):  # numpy.exceptions.AxisError
        expected = IndexError
    elif isinstance(excinfo_np, TypeError):
        expected = TypeError
    else:
        expected = ValueError
    with pytest.raises(expected):
        call()


def run_case(op, t, a_ref, dtype, **kwargs):
    try:
        ref = numpy_call(op, a_ref, **kwargs)
    except (ValueError, TypeError, IndexError) as e:
        check_same_error(e, lambda: getattr(pyasc, op)(t, **kwargs))
        return
    check_result(op, getattr(pyasc, op)(t, **kwargs), ref, dtype, a_ref)


@pytest.mark.parametrize("op", OPS)
def test_matches_numpy_over_dtypes_shapes_axes_keepdims(op):
    for dtype in DTYPES:
        check_shapes_axes_keepdims(op, dtype, np.random.default_rng(DTYPES.index(dtype)))


def check_shapes_axes_keepdims(op, dtype, rng):
    for shape in SHAPES:
        a = sample(rng, shape, dtype, op)
        t = to_tensor(a, dtype)
        a_ref = reference_input(t, a, dtype)
        for axis in AXES:  # argmax/argmin reject the tuples (TypeError), as NumPy
            for keepdims in (False, True):
                try:
                    run_case(op, t, a_ref, dtype, axis=axis, keepdims=keepdims)
                except AssertionError as e:
                    raise AssertionError(f"{op} {dtype} shape={shape} axis={axis} keepdims={keepdims}: {e}") from e


def views(a: np.ndarray, t: pyasc.Tensor):
    """The same non-contiguous views of a NumPy array and of its tensor."""
    yield "strided+negative", a[::2, ::-1, 1::3], t[::2, ::-1, 1::3]
    yield "transposed", a.transpose(2, 0, 1), t.transpose(2, 0, 1)
    yield "negative 2-d", a[:, 3, ::-2], t[:, 3, ::-2]
    yield "reversed", a[::-1], t[::-1]
    yield "broadcast", np.broadcast_to(a[:, :1, :], (6, 4, 10)), t[:, :1, :].expand(6, 4, 10)


@pytest.mark.parametrize("op", OPS)
def test_matches_numpy_on_views(op):
    for dtype in DTYPES:
        check_views(op, dtype, np.random.default_rng(7))


def check_views(op, dtype, rng):
    a = sample(rng, (6, 8, 10), dtype, op)
    base = to_tensor(a, dtype)
    a = reference_input(base, a, dtype)
    for name, av, tv in views(a, base):
        assert tv.shape == av.shape
        axes = [None, 0, 1, -1] + ([] if op.startswith("arg") else [(0, 2), (1, 0)])
        for axis in axes:
            try:
                run_case(op, tv, av, dtype, axis=axis)
            except AssertionError as e:
                raise AssertionError(f"{op} {dtype} view={name} axis={axis}: {e}") from e


@pytest.fixture
def four_workers():
    """More worker threads, so that large reductions split into many blocks."""
    saved = pyasc.get_device_properties().worker_threads
    pyasc.configure_device(worker_threads=4)
    yield
    pyasc.configure_device(worker_threads=saved)


LARGE = [
    ("all, split reduction", (1 << 21,), None),
    ("column tiles, split outputs", (4096, 300), 0),
    ("rows, split outputs", (300, 4096), 1),
    ("few columns, split reduction", (1 << 19, 3), 0),
    ("middle axis", (64, 512, 33), 1),
    ("outer and inner axes", (96, 40, 256), (0, 2)),
]


def float64_reference(op: str, wide: np.ndarray, axis) -> np.ndarray:
    """op over axis with the reduced axes moved innermost and contiguous,
    where NumPy sums pairwise (its outer-axis sums are sequential)."""
    axes = tuple(range(wide.ndim)) if axis is None else (axis if isinstance(axis, tuple) else (axis,))
    kept = [d for d in range(wide.ndim) if d not in axes]
    moved = np.ascontiguousarray(wide.transpose(kept + list(axes)))
    flat = moved.reshape([wide.shape[d] for d in kept] + [-1])
    return numpy_call(op, flat, axis=-1)


@pytest.mark.parametrize("dtype", ["float32", "float64", "int32", "float16"])
def test_large_parallel_paths(four_workers, dtype):
    for name, shape, axis in LARGE:
        check_large(name, shape, axis, dtype)


def check_large(name, shape, axis, dtype):
    rng = np.random.default_rng(3)
    a = (rng.standard_normal(shape) * 4).astype(dtype)
    t = pyasc.Tensor(a)
    for op in ["sum", "mean", "max", "min", "argmax", "argmin", "var", "any", "all"]:
        if op.startswith("arg") and isinstance(axis, tuple):
            continue
        ref = numpy_call(op, a, axis=axis)
        got = getattr(pyasc, op)(t, axis=axis)
        assert got.dtype.name == ref.dtype.name
        if op in ("sum", "mean", "var"):
            # Against float64 (NumPy's own sums along an outer axis are
            # sequential, so less accurate than pyasc's).
            wide = a.astype(np.float64)
            exact = float64_reference(op, wide, axis)
            scale = {"sum": np.sum(np.abs(wide), axis=axis), "mean": np.mean(np.abs(wide), axis=axis)}.get(op)
            if scale is None:
                scale = np.mean(wide * wide, axis=axis)
            err = np.abs(got.numpy().astype(np.float64) - exact)
            bound = 32 * EPS["float64"] if dtype in ("float64", "int32") else 32 * EPS[dtype]
            assert np.all(err <= bound * (1 + scale)), f"{op} {name}: error {err.max()}"
        else:
            np.testing.assert_array_equal(got.numpy(), ref, err_msg=f"{op} {name}")


def test_float32_sum_of_a_million_ones_is_exact():
    t = pyasc.Tensor(np.ones(10**6, np.float32))
    assert float(pyasc.sum(t)) == 1e6
    assert float(pyasc.mean(t)) == 1.0
    m = pyasc.Tensor(np.ones((1000, 1000), np.float32))
    np.testing.assert_array_equal(m.sum(axis=0).numpy(), np.full(1000, 1000.0, np.float32))
    assert float(m.T.sum()) == 1e6


@pytest.mark.parametrize("workers", [1, 4])
@pytest.mark.parametrize(
    "shape,axis",
    [((10**6,), None), ((10**6, 2), 0), ((2, 10**6), 1), ((1000, 1000), None)],
)
def test_float32_sum_accuracy_against_float64(shape, axis, workers):
    """Pairwise float32 summation, in one block or split: within 4 ulp of
    the exact sum (a sequential float32 sum is off by hundreds, as NumPy's
    own sum along axis 0 of the (10**6, 2) array)."""
    saved = pyasc.get_device_properties().worker_threads
    pyasc.configure_device(worker_threads=workers)
    try:
        a = np.random.default_rng(11).random(shape, dtype=np.float32)
        exact = a.astype(np.float64).sum(axis=axis)
        got = pyasc.sum(pyasc.Tensor(a), axis=axis).numpy().astype(np.float64)
    finally:
        pyasc.configure_device(worker_threads=saved)
    err = np.max(np.abs(got - exact) / exact)
    assert err <= 4 * EPS["float32"], err / EPS["float32"]
    flat = a.reshape(-1)
    sequential = abs(float(np.cumsum(flat, dtype=np.float32)[-1]) - flat.astype(np.float64).sum())
    assert sequential / flat.astype(np.float64).sum() > 16 * EPS["float32"]  # the bound can fail


def test_float16_sums_accumulate_in_float32():
    ones = pyasc.Tensor(np.ones(30000, np.float16))
    assert float(pyasc.sum(ones)) == 30000.0  # a float16 accumulator would stop at 2048
    assert float(pyasc.mean(ones)) == 1.0
    assert pyasc.mean(ones).dtype == pyasc.float16
    assert float(pyasc.sum(pyasc.Tensor(np.ones(70000, np.float16)))) == np.inf  # as NumPy
    bf = pyasc.Tensor(np.ones(2560, np.float32), dtype=pyasc.bfloat16)
    assert float(pyasc.sum(bf)) == 2560.0  # a bfloat16 accumulator would stop at 256


def test_var_is_two_pass():
    rng = np.random.default_rng(5)
    a = 1e8 + rng.standard_normal(100000)
    for axis in (None, 0):
        got = float(pyasc.var(pyasc.Tensor(a), axis=axis))
        assert got == pytest.approx(np.var(a), rel=1e-9)
    b = (1e4 + rng.standard_normal((4000, 3))).astype(np.float32)
    np.testing.assert_allclose(pyasc.var(pyasc.Tensor(b), axis=0).numpy(), b.astype(np.float64).var(axis=0), rtol=1e-3)


@pytest.mark.parametrize("dtype", ["float16", "float32", "float64"])
def test_nan_propagation_and_nan_as_extreme(dtype):
    a = np.array([[1.0, np.nan, 3.0, np.nan], [5.0, 2.0, np.inf, -np.inf], [0.0, -1.0, np.nan, 7.0]], dtype)
    t = pyasc.Tensor(a)
    for op in OPS:
        for axis in (None, 0, 1):
            ref = numpy_call(op, a, axis=axis)
            got = getattr(pyasc, op)(t, axis=axis).numpy()
            np.testing.assert_array_equal(got.astype(ref.dtype) if op in ("any", "all") else got, ref, err_msg=f"{op} {axis}")
    assert int(pyasc.argmax(t)) == 1 and int(pyasc.argmin(t)) == 1  # the first NaN wins


def test_nan_in_split_reductions(four_workers):
    a = np.arange(3 << 20, dtype=np.float32)
    a[2_000_000] = np.nan
    a[2_500_000] = np.nan
    t = pyasc.Tensor(a)
    assert np.isnan(float(pyasc.max(t))) and np.isnan(float(pyasc.min(t)))
    assert int(pyasc.argmax(t)) == 2_000_000 and int(pyasc.argmin(t)) == 2_000_000
    cols = pyasc.Tensor(a.reshape(-1, 3))
    np.testing.assert_array_equal(pyasc.argmax(cols, axis=0).numpy(), np.argmax(a.reshape(-1, 3), axis=0))


@pytest.mark.parametrize("dtype", ["int8", "int64", "float32", "bool"])
def test_argmax_ties_take_the_first(dtype, four_workers):
    a = np.array([1, 3, 3, 0, 3, 0], dtype)
    assert int(pyasc.argmax(pyasc.Tensor(a))) == np.argmax(a)
    assert int(pyasc.argmin(pyasc.Tensor(a))) == np.argmin(a)
    flat = np.zeros(3 << 20, dtype)  # every element ties, across split segments
    assert int(pyasc.argmax(pyasc.Tensor(flat))) == 0 and int(pyasc.argmin(pyasc.Tensor(flat))) == 0
    m = np.array([[2, 5, 5], [5, 5, 2]], dtype)
    for axis in (None, 0, 1):
        np.testing.assert_array_equal(pyasc.argmax(pyasc.Tensor(m), axis=axis).numpy(), np.argmax(m, axis=axis))


def test_argmax_of_a_view_indexes_its_logical_order():
    a = np.arange(24.0).reshape(2, 3, 4)
    a[1, 0, 2] = 100.0
    t = pyasc.Tensor(a)
    for av, tv in [(a[::-1, :, ::-1], t[::-1, :, ::-1]), (a.transpose(2, 1, 0), t.transpose(2, 1, 0))]:
        assert int(pyasc.argmax(tv)) == np.argmax(av)
        for axis in range(3):
            np.testing.assert_array_equal(pyasc.argmax(tv, axis=axis).numpy(), np.argmax(av, axis=axis))
            np.testing.assert_array_equal(pyasc.argmin(tv, axis=axis).numpy(), np.argmin(av, axis=axis))


def test_dtype_argument():
    ints = pyasc.Tensor(np.array([100, 100, 100], np.int8))
    assert pyasc.sum(ints, dtype=pyasc.int8).dtype == pyasc.int8
    assert int(pyasc.sum(ints, dtype="int8")) == np.sum(np.array([100] * 3, np.int8), dtype=np.int8)
    cases = [
        ("sum", np.array([1.5, 1.5]), np.int64),
        ("sum", np.array([1, -1]), np.bool_),
        ("sum", np.array([0.1] * 7, np.float32), np.float16),
        ("sum", np.arange(10, dtype=np.int32), np.float32),
        ("prod", np.array([3, 5, 7], np.int16), np.int8),
        ("mean", np.array([1, 2], np.int8), np.int8),
        ("mean", np.arange(10, dtype=np.int64), np.float32),
        ("var", np.arange(10, dtype=np.float64), np.float32),
        ("std", np.arange(10, dtype=np.int32), np.float32),
    ]
    for op, a, dt in cases:
        ref = numpy_call(op, a, dtype=dt)
        got = getattr(pyasc, op)(pyasc.Tensor(a), dtype=dt)
        assert got.dtype.name == ref.dtype.name, (op, a.dtype, dt)
        np.testing.assert_allclose(got.numpy().astype(np.float64), ref.astype(np.float64), rtol=1e-3, err_msg=op)
    with pytest.raises(pyasc.DTypeError):
        pyasc.var(pyasc.Tensor(np.ones(3)), dtype=pyasc.int64)
    with pytest.raises(TypeError):
        pyasc.max(pyasc.Tensor(np.ones(3)), dtype=pyasc.float32)


def test_ddof():
    a = np.array([[1.0, 4.0, 2.0], [8.0, 8.0, 8.0]])
    t = pyasc.Tensor(a)
    for ddof in (-1, 0, 1, 2, 3, 4):
        for op in ("var", "std"):
            for axis in (None, 1):
                ref = numpy_call(op, a, axis=axis, ddof=ddof)
                np.testing.assert_allclose(getattr(pyasc, op)(t, axis=axis, ddof=ddof).numpy(), ref, rtol=1e-12)
    assert float(t.var(ddof=1)) == pytest.approx(np.var(a, ddof=1))
    with pytest.raises(TypeError):
        pyasc.var(t, ddof=1.5)  # pyasc takes integer ddof only
    with pytest.raises(TypeError):
        pyasc.var(t, ddof="1")


def test_empty_reductions():
    empty = pyasc.Tensor(np.zeros((0,), np.float32))
    assert float(pyasc.sum(empty)) == 0.0 and np.signbit(float(pyasc.sum(empty))) == False  # noqa: E712
    assert float(pyasc.prod(empty)) == 1.0
    assert bool(pyasc.any(empty)) is False and bool(pyasc.all(empty)) is True
    assert np.isnan(float(pyasc.mean(empty))) and np.isnan(float(pyasc.var(empty)))
    for op, name in (("max", "maximum"), ("min", "minimum"), ("amax", "maximum")):
        with pytest.raises(pyasc.InvalidValueError, match=f"zero-size array to reduction operation {name} which has no identity"):
            getattr(pyasc, op)(empty)
    for op in ("argmax", "argmin"):
        with pytest.raises(pyasc.InvalidValueError, match=f"attempt to get {op} of an empty sequence"):
            getattr(pyasc, op)(empty)
    # Reducing a non-empty axis of an empty tensor is fine; an empty axis is not.
    e2 = pyasc.Tensor(np.zeros((2, 0)))
    assert pyasc.max(e2, axis=0).shape == (0,)
    with pytest.raises(ValueError):
        pyasc.max(e2, axis=1)
    with pytest.raises(ValueError):
        pyasc.max(pyasc.Tensor(np.zeros((0, 0))), axis=0)  # as NumPy, even with no outputs


def test_axis_errors():
    t = pyasc.Tensor(np.ones((2, 3, 4)))
    for axis in (3, -4, (0, 5), 2**40):
        with pytest.raises(pyasc.IndexOutOfRangeError, match="out of bounds"):
            pyasc.sum(t, axis=axis)
    err = pytest.raises(IndexError, pyasc.mean, t, axis=7)
    assert "axis 7 is out of bounds for array of dimension 3" in str(err.value)
    for axis in ((0, 0), (1, -2)):
        with pytest.raises(pyasc.InvalidValueError, match="duplicate value in 'axis'"):
            pyasc.sum(t, axis=axis)
    for bad in (1.0, [0, 1], "0", True):
        with pytest.raises(TypeError):
            pyasc.sum(t, axis=bad)
    with pytest.raises(TypeError):
        pyasc.argmax(t, axis=(0, 1))
    with pytest.raises(pyasc.IndexOutOfRangeError):
        pyasc.argmax(t, axis=3)
    scalar = pyasc.Tensor(np.float64(2.5))  # NumPy lets axis=0 or -1 reduce a 0-d array
    assert float(pyasc.sum(scalar, axis=0)) == 2.5 and float(pyasc.max(scalar, axis=-1)) == 2.5
    with pytest.raises(IndexError):
        pyasc.sum(scalar, axis=1)
    with pytest.raises(IndexError):
        pyasc.sum(scalar, axis=(0,))


def test_out_argument():
    a = np.full((3, 4), 1.7)
    t = pyasc.Tensor(a)
    out = pyasc.Tensor(np.zeros(4, np.int64))
    assert pyasc.sum(t, axis=0, out=out) is out
    np.testing.assert_array_equal(out.numpy(), np.sum(a, axis=0, out=np.zeros(4, np.int64)))  # unsafe cast, as NumPy
    o2 = pyasc.Tensor(np.zeros((3, 1)))
    assert t.max(axis=1, keepdims=True, out=o2) is o2
    np.testing.assert_array_equal(o2.numpy(), a.max(axis=1, keepdims=True))
    idx = pyasc.Tensor(np.zeros(3, np.int64))
    pyasc.argmin(t, axis=1, out=idx)
    np.testing.assert_array_equal(idx.numpy(), np.zeros(3))
    with pytest.raises(pyasc.InvalidValueError, match="shape"):
        pyasc.sum(t, axis=0, out=pyasc.Tensor(np.zeros(3)))
    with pytest.raises(TypeError):
        pyasc.sum(t, out=np.zeros(()))
    sm = pyasc.Tensor(np.zeros((3, 4), np.float32))
    assert pyasc.softmax(t, out=sm) is sm
    np.testing.assert_allclose(sm.numpy(), np.full((3, 4), 0.25), rtol=1e-6)
    with pytest.raises(pyasc.InvalidValueError):
        pyasc.softmax(t, out=pyasc.Tensor(np.zeros((4, 3))))


def test_out_may_overlap_the_input():
    a = np.arange(12.0).reshape(3, 4)
    t = pyasc.Tensor(a)
    pyasc.sum(t, axis=0, keepdims=True, out=t[:1])
    np.testing.assert_array_equal(t.numpy()[0], a.sum(axis=0))
    np.testing.assert_array_equal(t.numpy()[1:], a[1:])
    pyasc.softmax(t, axis=0, out=t)
    expected = a.copy()
    expected[0] = a.sum(axis=0)
    np.testing.assert_allclose(t.numpy(), softmax_reference(expected, 0, False), rtol=1e-12)


def test_tiles_fall_back_to_the_heap_with_a_small_unified_buffer():
    saved = pyasc.get_device_properties().ub_size
    pyasc.configure_device(ub_size=1024)
    try:
        a = np.random.default_rng(2).standard_normal((300, 200))
        t = pyasc.Tensor(a)
        np.testing.assert_allclose(pyasc.sum(t, axis=0).numpy(), a.sum(axis=0), rtol=1e-12, atol=1e-12)
        np.testing.assert_array_equal(pyasc.argmax(t, axis=0).numpy(), a.argmax(axis=0))
        np.testing.assert_allclose(pyasc.std(t, axis=0).numpy(), a.std(axis=0), rtol=1e-12)
    finally:
        pyasc.configure_device(ub_size=saved)


def test_methods_aliases_and_array_likes():
    a = np.arange(24, dtype=np.float64).reshape(2, 3, 4)
    t = pyasc.Tensor(a)
    np.testing.assert_array_equal(t.sum(1, keepdims=True).numpy(), a.sum(1, keepdims=True))
    # Positional parameters follow NumPy's order.
    np.testing.assert_array_equal(pyasc.sum(t, 1, None, None, True).numpy(), np.sum(a, 1, None, None, True))
    assert t.sum(0, pyasc.float32).dtype == pyasc.float32
    np.testing.assert_allclose(pyasc.var(t, 0, None, None, 1).numpy(), np.var(a, 0, None, None, 1))
    np.testing.assert_array_equal(pyasc.max(t, 2, None, True).numpy(), np.max(a, 2, None, True))
    np.testing.assert_array_equal(pyasc.argmax(t, 2, None, True).numpy(), np.argmax(a, 2, None, keepdims=True))
    np.testing.assert_array_equal(t.max(axis=(0, 2)).numpy(), a.max(axis=(0, 2)))
    np.testing.assert_array_equal(t.argmin(axis=-1).numpy(), a.argmin(axis=-1))
    np.testing.assert_allclose(t.std(axis=0, ddof=1).numpy(), a.std(axis=0, ddof=1))
    assert t.any().dtype == pyasc.bool_ and bool(t.all()) is False
    np.testing.assert_allclose(t.softmax(0).numpy().sum(0), np.ones((3, 4)))
    np.testing.assert_allclose(np.exp(t.log_softmax().numpy()).sum(-1), np.ones((2, 3)))
    assert float(pyasc.amax(t)) == 23.0 and float(pyasc.amin(t)) == 0.0
    assert int(pyasc.sum([[1, 2], [3, 4]])) == 10
    np.testing.assert_array_equal(pyasc.prod(np.array([[1, 2], [3, 4]]), axis=1).numpy(), [2, 12])
    full = pyasc.sum(t)
    assert isinstance(full, pyasc.Tensor) and full.shape == ()
    with pytest.raises(TypeError):
        t.sum(0, None, None, False, None)  # too many positional arguments
    with pytest.raises(TypeError):
        pyasc.sum(t, axes=0)


def softmax_reference(a: np.ndarray, axis: int, log: bool) -> np.ndarray:
    x = a.astype(np.float64)
    shifted = x - np.max(x, axis=axis, keepdims=True)
    lse = np.log(np.sum(np.exp(shifted), axis=axis, keepdims=True))
    return shifted - lse if log else np.exp(shifted - lse)


@pytest.mark.parametrize("log", [False, True], ids=["softmax", "log_softmax"])
@pytest.mark.parametrize("dtype", FLOATS)
def test_softmax_matches_float64_reference(dtype, log):
    rng = np.random.default_rng(9)
    a = (rng.standard_normal((5, 6, 7)) * 3).astype(np.float32)
    t = to_tensor(a, dtype)
    a = reference_input(t, a, dtype)
    fn = pyasc.log_softmax if log else pyasc.softmax
    tol = 8 * EPS[dtype] * (8 if log else 1)
    for axis in (-1, 0, 1):
        for av, tv in [(a, t), (a[::-1, ::2, 1:], t[::-1, ::2, 1:]), (a.transpose(2, 0, 1), t.transpose(2, 0, 1))]:
            got = fn(tv, axis=axis)
            assert got.dtype.name == dtype and got.shape == av.shape
            ref = softmax_reference(av, axis, log)
            np.testing.assert_allclose(got.numpy().astype(np.float64), ref, rtol=tol, atol=tol)
            if not log:
                np.testing.assert_allclose(got.numpy().astype(np.float64).sum(axis=axis), 1.0, rtol=0, atol=4 * tol * av.shape[axis])


def test_softmax_is_stable_for_large_inputs():
    a = np.array([[1000.0, 1000.0, 0.0], [-1000.0, 0.0, 1000.0], [-1e4, -1e4, -1e4]])
    for dt in (np.float64, np.float32):
        t = pyasc.Tensor(a.astype(dt))
        ls = pyasc.log_softmax(t).numpy()
        sm = pyasc.softmax(t).numpy()
        assert np.all(np.isfinite(ls)) and np.all(np.isfinite(sm))
        np.testing.assert_allclose(ls, softmax_reference(a, -1, True), rtol=1e-6, atol=1e-6)
        np.testing.assert_allclose(sm, softmax_reference(a, -1, False), rtol=1e-6, atol=1e-30)
        assert ls[0, 0] == pytest.approx(-np.log(2.0)) and ls[0, 2] == pytest.approx(-1000 - np.log(2.0))


def test_softmax_dtypes_nan_empty_and_errors(four_workers):
    for dt in ("bool", "int8", "int16", "int64", "uint8"):
        a = np.arange(6).reshape(2, 3).astype(dt)
        got = pyasc.softmax(pyasc.Tensor(a))
        assert got.dtype.name == np.exp(a).dtype.name  # the dtype NumPy's exp gives
        np.testing.assert_allclose(got.numpy().astype(np.float64), softmax_reference(a, -1, False), rtol=2e-3)
    nan = pyasc.Tensor(np.array([[1.0, np.nan], [1.0, 2.0]]))
    out = pyasc.softmax(nan).numpy()
    assert np.all(np.isnan(out[0])) and np.allclose(out[1], softmax_reference(np.array([1.0, 2.0]), -1, False))
    assert pyasc.softmax(pyasc.Tensor(np.zeros((0, 3)))).shape == (0, 3)
    with pytest.raises(pyasc.IndexOutOfRangeError):
        pyasc.softmax(pyasc.Tensor(np.zeros((2, 3))), axis=2)
    with pytest.raises(IndexError):
        pyasc.log_softmax(pyasc.Tensor(np.float64(1.0)))
    with pytest.raises(TypeError):
        pyasc.softmax(pyasc.Tensor(np.zeros(3)), axis=None)
    big = np.random.default_rng(1).standard_normal((2048, 512)).astype(np.float32)  # many blocks
    np.testing.assert_allclose(pyasc.softmax(pyasc.Tensor(big)).numpy(), softmax_reference(big, -1, False), rtol=1e-5, atol=1e-9)


def test_reductions_run_in_stream_order():
    s = pyasc.Stream()
    try:
        with pyasc.stream(s):
            a = pyasc.Tensor(np.ones((512, 512), np.float32))
            b = a + a
            total = pyasc.sum(b, axis=0)
            m = pyasc.max(total)
            assert float(m) == 1024.0  # reading waits for the current stream: s
    finally:
        s.destroy()
