"""pyasc.matmul and the @ operator against NumPy's matmul.

float32/float64 results must lie within a rounding-error bound that grows
with the inner dimension K: |r - ref| <= c * eps * K * (|a| @ |b|).
float16/bfloat16 accumulate in float32, so they must equal the float32
product rounded once to the dtype, within one unit in the last place
(summation order may move a value across a rounding boundary). Integers and
bools are exact, including wrap-around.
"""

from __future__ import annotations

import numpy as np
import pytest

import pyasc
from pyasc import memory

SHAPES = [
    ((5,), (5,)),
    ((5,), (5, 3)),
    ((4, 5), (5,)),
    ((4, 5), (5, 3)),
    ((1, 5), (5, 1)),
    ((2, 4, 5), (5, 3)),
    ((5,), (2, 5, 3)),
    ((3, 4, 5), (5,)),
    ((2, 4, 5), (2, 5, 3)),
    ((2, 1, 4, 5), (3, 5, 3)),
    ((1, 4, 5), (3, 5, 6)),
    ((2, 3, 1, 5), (5, 7)),
]


def _rng():
    return np.random.default_rng(1234)


def _data(shape, dtype, rng):
    if dtype == "bool":
        return rng.random(shape) < 0.3
    if np.dtype(dtype).kind in "iu":
        info = np.iinfo(dtype)
        return rng.integers(info.min, info.max, size=shape, dtype=dtype, endpoint=True)
    return rng.uniform(-1, 1, size=shape).astype(dtype)


def _layout(arr, kind):
    """arr's values in a view of the given memory layout."""
    if kind == "c" or arr.ndim == 0:
        return arr
    if kind == "T":  # matrix axes stored transposed (column-major matrices)
        if arr.ndim == 1:
            return arr
        return np.ascontiguousarray(np.swapaxes(arr, -1, -2)).swapaxes(-1, -2)
    if kind == "pad":  # rows padded: a leading dimension above the row length
        big = np.zeros(arr.shape[:-1] + (arr.shape[-1] + 3,), arr.dtype)
        big[..., : arr.shape[-1]] = arr
        return big[..., : arr.shape[-1]]
    if kind == "step":  # every other column: no BLAS layout
        big = np.zeros(arr.shape[:-1] + (2 * arr.shape[-1],), arr.dtype)
        big[..., ::2] = arr
        return big[..., ::2]
    if kind == "neg":  # reversed rows (negative strides)
        axis = -2 if arr.ndim > 1 else -1
        flipped = np.ascontiguousarray(np.flip(arr, axis))
        return np.flip(flipped, axis)
    raise AssertionError(kind)


def _check_float(result, a, b, case=""):
    ref = np.matmul(a.astype(np.float64), b.astype(np.float64))
    bound = np.matmul(np.abs(a).astype(np.float64), np.abs(b).astype(np.float64))
    k = a.shape[-1]
    eps = np.finfo(result.dtype).eps
    err = np.abs(result.astype(np.float64) - ref)
    tiny = np.finfo(result.dtype).tiny
    assert np.all(err <= 2 * eps * max(k, 1) * bound + tiny), (case, err.max())


def _ordered_bits(bits, sign_bit):
    """Bit patterns as integers ordered like the values they encode."""
    bits = bits.astype(np.int64)
    return np.where(bits & sign_bit, -(bits & (sign_bit - 1)), bits)


def _round_bf16(x):
    u = np.asarray(x, np.float32).view(np.uint32).astype(np.uint64)
    u = ((u + 0x7FFF + ((u >> 16) & 1)) >> 16) << 16
    return u.astype(np.uint32).view(np.float32)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_float_vs_numpy(dtype):
    rng = _rng()
    for shapes in SHAPES:
        a, b = _data(shapes[0], dtype, rng), _data(shapes[1], dtype, rng)
        r = pyasc.matmul(pyasc.asarray(a), pyasc.asarray(b))
        ref = np.matmul(a, b)
        assert r.shape == ref.shape and r.dtype == ref.dtype, shapes
        _check_float(r.numpy(), a, b, shapes)


LAYOUTS = ["c", "T", "pad", "step", "neg"]


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("la", LAYOUTS)
def test_layouts(dtype, la):
    rng = _rng()
    for lb in LAYOUTS:
        for sa, sb in [((6, 7), (7, 5)), ((3, 6, 7), (3, 7, 5)), ((6, 7), (7,)), ((7,), (7, 5))]:
            a = _layout(_data(sa, dtype, rng), la)
            b = _layout(_data(sb, dtype, rng), lb)
            r = pyasc.from_numpy(a) @ pyasc.from_numpy(b)
            assert r.shape == np.matmul(a, b).shape
            _check_float(r.numpy(), a, b, (la, lb, sa, sb))


@pytest.mark.parametrize(
    "la,lb,copies",
    [("c", "c", 0), ("T", "T", 0), ("pad", "T", 0), ("step", "c", 1), ("neg", "neg", 2)],
)
def test_blas_reads_views_in_place(la, lb, copies):
    """Transposed and padded operands go to BLAS as they are: the only
    allocation is the result. Layouts BLAS cannot read are copied once."""
    rng = _rng()
    a = pyasc.from_numpy(_layout(_data((32, 48), "float32", rng), la))
    b = pyasc.from_numpy(_layout(_data((48, 16), "float32", rng), lb))
    pyasc.synchronize()
    before = memory.memory_stats()["alloc_count"]
    r = a @ b
    pyasc.synchronize()
    assert memory.memory_stats()["alloc_count"] - before == 1 + copies
    _check_float(r.numpy(), a.numpy(), b.numpy())


@pytest.mark.parametrize("dtype", ["float16", "bfloat16"])
def test_half_accumulates_in_float32(dtype):
    cases = [((6, 7), (7, 5)), ((2, 6, 7), (7, 5)), ((6, 7), (7,)), ((7,), (2, 7, 5))]
    for shapes in cases + [((40, 300), (300, 30))]:
        _check_half(dtype, shapes)


def _check_half(dtype, shapes):
    rng = _rng()
    a32 = rng.uniform(-4, 4, size=shapes[0]).astype(np.float32)
    b32 = rng.uniform(-4, 4, size=shapes[1]).astype(np.float32)
    a = pyasc.asarray(a32, dtype=dtype)
    b = pyasc.asarray(b32, dtype=dtype)
    r = a @ b
    assert r.dtype == getattr(pyasc, dtype)
    exact = np.matmul(a.numpy().astype(np.float32), b.numpy().astype(np.float32))
    if dtype == "float16":
        want = exact.astype(np.float16).view(np.uint16)
        got = r.numpy().view(np.uint16)
    else:
        want = (_round_bf16(exact).view(np.uint32) >> 16).astype(np.uint16)
        got = r.numpy(raw=True)
    dist = np.abs(_ordered_bits(got, 0x8000) - _ordered_bits(want, 0x8000))
    assert dist.max(initial=0) <= 1
    assert np.mean(dist == 0) > 0.9  # nearly all round the same way


def test_half_rounds_before_a_wider_out():
    a = pyasc.full((1, 3), 1.0009765625, dtype=pyasc.float16)  # 1 + 2**-10
    b = pyasc.full((3, 1), 1.0, dtype=pyasc.float16)
    out = pyasc.zeros((1, 1), dtype=pyasc.float32)
    pyasc.matmul(a, b, out=out)
    # 3.0029296875 in float32, a tie in float16: it rounds to even, 3.00390625 (as NumPy).
    want = np.zeros((1, 1), np.float32)
    np.matmul(np.full((1, 3), 1.0009765625, np.float16), np.ones((3, 1), np.float16), out=want)
    assert out.item() == want.item() == 3.00390625


def test_float16_overflow_rounds_to_inf():
    a = pyasc.full((1, 2), 300.0, dtype=pyasc.float16)
    b = pyasc.full((2, 1), 300.0, dtype=pyasc.float16)
    assert np.isinf((a @ b).numpy()).all()  # 180000 exceeds float16 but not float32


@pytest.mark.parametrize("dtype", ["int8", "uint8", "int16", "int32", "int64", "bool"])
def test_integers_exact(dtype):
    rng = _rng()
    for shapes in SHAPES:
        a, b = _data(shapes[0], dtype, rng), _data(shapes[1], dtype, rng)
        r = pyasc.asarray(a) @ pyasc.asarray(b)
        ref = np.matmul(a, b)
        assert r.dtype == ref.dtype and r.shape == ref.shape, shapes
        np.testing.assert_array_equal(r.numpy(), ref, err_msg=str(shapes))


def test_integer_views():
    rng = _rng()
    for la in LAYOUTS:
        a = _layout(_data((3, 6, 7), "int32", rng), la)
        b = _layout(_data((7, 5), "int64", rng), "T")
        r = pyasc.from_numpy(a) @ pyasc.from_numpy(b)
        np.testing.assert_array_equal(r.numpy(), np.matmul(a, b), err_msg=la)


def test_integer_wraps_like_numpy():
    a = np.full((2, 3), 2**40, np.int64)
    b = np.full((3, 2), 2**30, np.int64)
    r = (pyasc.asarray(a) @ pyasc.asarray(b)).numpy()
    np.testing.assert_array_equal(r, np.matmul(a, b))
    assert r[0, 0] == (3 * 2**70) % 2**64 - (2**64 if (3 * 2**70) % 2**64 >= 2**63 else 0)


def test_bool_is_or_of_ands():
    a = np.array([[True, False], [False, False]])
    b = np.array([[True, True], [False, True]])
    r = pyasc.asarray(a) @ pyasc.asarray(b)
    assert r.dtype == pyasc.bool_
    np.testing.assert_array_equal(r.numpy(), [[True, True], [False, False]])


def test_mixed_dtypes_promote():
    pairs = [("int8", "uint8"), ("int32", "float32"), ("bool", "int16")]
    pairs += [("float16", "float32"), ("bfloat16", "float16"), ("int64", "float64")]
    for da, db in pairs:
        _check_mixed(da, db)


def _check_mixed(da, db):
    rng = _rng()
    a32 = rng.integers(-3, 4, size=(3, 4)).astype(np.float32)
    b32 = rng.integers(-3, 4, size=(4, 2)).astype(np.float32)
    a = pyasc.asarray(a32, dtype=da)
    b = pyasc.asarray(b32, dtype=db)
    r = a @ b
    assert r.dtype == pyasc.add(a[:1, :1], b[:1, :1]).dtype  # the binary-op promotion
    f64 = np.float64
    want = np.matmul(a.numpy().astype(f64), b.numpy().astype(f64))
    np.testing.assert_allclose(r.numpy().astype(f64), want)


@pytest.mark.parametrize("dtype", ["float32", "int32", "float16"])
def test_zero_size(dtype):
    shapes = [((0, 5), (5, 3)), ((4, 5), (5, 0)), ((4, 0), (0, 3)), ((0,), (0,))]
    shapes += [((0, 2, 3), (3, 4)), ((2, 0), (0,)), ((3, 4, 0), (0, 2))]
    for sa, sb in shapes:
        a = np.ones(sa, dtype)
        b = np.ones(sb, dtype)
        r = pyasc.asarray(a) @ pyasc.asarray(b)
        ref = np.matmul(a, b)
        assert r.shape == ref.shape and r.dtype == ref.dtype, (sa, sb)
        np.testing.assert_array_equal(r.numpy(), ref, err_msg=str((sa, sb)))  # k == 0: zeros


def test_inner_product_is_0d():
    r = pyasc.matmul([1.0, 2.0, 3.0], [4.0, 5.0, 6.0])
    assert r.shape == () and r.item() == 32.0


def test_operator_forms_and_method():
    a = np.arange(6, dtype=np.float64).reshape(2, 3)
    b = np.arange(12, dtype=np.float64).reshape(3, 4)
    ta, tb = pyasc.asarray(a), pyasc.asarray(b)
    ref = a @ b
    np.testing.assert_array_equal((ta @ tb).numpy(), ref)
    np.testing.assert_array_equal((ta @ b.tolist()).numpy(), ref)  # list on the right
    np.testing.assert_array_equal((a.tolist() @ tb).numpy(), ref)  # __rmatmul__
    np.testing.assert_array_equal(ta.matmul(tb).numpy(), ref)
    np.testing.assert_array_equal(pyasc.matmul(a, b).numpy(), ref)  # two NumPy arrays


def test_out_argument():
    a = np.arange(6, dtype=np.float32).reshape(2, 3)
    b = np.arange(12, dtype=np.float32).reshape(3, 4)
    out = pyasc.zeros((2, 4), dtype=pyasc.float32)
    assert pyasc.matmul(a, b, out=out) is out
    np.testing.assert_array_equal(out.numpy(), a @ b)
    wide = pyasc.zeros((2, 4))  # float64 out for a float32 result: same_kind
    pyasc.matmul(a, b, out=wide)
    np.testing.assert_array_equal(wide.numpy(), a @ b)
    # A transposed out is no BLAS output layout: computed aside, then copied.
    backing = pyasc.zeros((4, 2), dtype=pyasc.float32)
    pyasc.matmul(a, b, out=backing.T)
    np.testing.assert_array_equal(backing.numpy(), (a @ b).T)
    ints = pyasc.zeros((2, 4), dtype=pyasc.int64)
    pyasc.matmul(a.astype(np.int64), b.astype(np.int64), out=ints.T.T)
    np.testing.assert_array_equal(ints.numpy(), (a @ b).astype(np.int64))


def test_out_is_written_directly():
    """A row-major out of the result dtype receives the product itself."""
    a = pyasc.ones((16, 8), dtype=pyasc.float32)
    b = pyasc.ones((8, 4), dtype=pyasc.float32)
    outs = [pyasc.zeros((16, 4), dtype="float32"), pyasc.zeros((16, 6), dtype="float32")[:, 1:5]]
    for out in outs:
        pyasc.synchronize()
        before = memory.memory_stats()["alloc_count"]
        pyasc.matmul(a, b, out=out)
        pyasc.synchronize()
        assert memory.memory_stats()["alloc_count"] == before
        np.testing.assert_array_equal(out.numpy(), np.full((16, 4), 8, np.float32))


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_stale_nan_in_new_memory_does_not_leak(dtype):
    """BLAS is called with beta = 0: the uninitialised result (a reused
    block that held NaNs) must not be read."""
    for shape_a, shape_b, size in [((64, 8), (8,), 64), ((8,), (8, 64), 64), ((8, 3), (3, 8), 64)]:
        stale = pyasc.full((size,), float("nan"), dtype=dtype)
        pyasc.synchronize()
        del stale  # its block goes back to the cache for the next allocation
        r = pyasc.ones(shape_a, dtype=dtype) @ pyasc.ones(shape_b, dtype=dtype)
        assert not np.isnan(r.numpy()).any()


def test_inplace_matmul():
    rng = _rng()
    a = rng.uniform(-1, 1, (3, 4))
    b = rng.uniform(-1, 1, (4, 4))
    t = pyasc.asarray(a.copy())
    alias = t
    t @= pyasc.asarray(b)
    assert t is alias  # written into its own memory
    _check_float(t.numpy(), a, b)
    # out overlapping an operand: the product is formed before out is written.
    sq = pyasc.asarray(b.copy())
    pyasc.matmul(sq, sq, out=sq)
    _check_float(sq.numpy(), b, b)
    with pytest.raises(pyasc.InvalidValueError):
        t @= pyasc.ones((4, 5))  # the result would change t's shape


def test_errors():
    t = pyasc.ones((2, 3))
    with pytest.raises(pyasc.InvalidValueError, match="operand 0 does not have enough dimensions"):
        pyasc.matmul(pyasc.asarray(np.float64(2.0)), t)
    with pytest.raises(pyasc.InvalidValueError, match="operand 1 does not have enough dimensions"):
        t @ 2.0  # noqa: B018
    with pytest.raises(pyasc.InvalidValueError, match="dimension 0.*size 2 is different from 3"):
        t @ pyasc.ones((2, 3))  # noqa: B018
    with pytest.raises(ValueError, match="mismatch in its core dimension"):
        pyasc.matmul(pyasc.ones(3), pyasc.ones(2))
    with pytest.raises(pyasc.InvalidValueError, match="broadcast"):
        pyasc.ones((2, 2, 3)) @ pyasc.ones((3, 3, 4))  # noqa: B018
    with pytest.raises(pyasc.InvalidValueError, match="output has shape"):
        pyasc.matmul(t, pyasc.ones((3, 4)), out=pyasc.zeros((2, 5)))
    with pytest.raises(pyasc.DTypeError, match="same_kind"):
        pyasc.matmul(t, pyasc.ones((3, 4)), out=pyasc.zeros((2, 4), dtype=pyasc.int64))
    with pytest.raises(TypeError):
        t @ "abc"  # noqa: B018
    with pytest.raises(TypeError, match="out must be a pyasc.Tensor"):
        pyasc.matmul(t, pyasc.ones((3, 4)), out=np.zeros((2, 4)))
    with pytest.raises(TypeError):
        pyasc.matmul(t)


def test_parallel_paths_match_one_thread():
    """Batched small products and large integer products are split into
    blocks; the split must not change the results."""
    rng = _rng()
    cases = [
        (_data((64, 24, 32), "float32", rng), _data((64, 32, 24), "float32", rng)),
        (_data((200, 150), "int32", rng), _data((150, 120), "int32", rng)),
        (_data((8, 40, 50), "int16", rng), _data((50, 30), "int16", rng)),
    ]
    props = pyasc.get_device_properties()
    try:
        results = {}
        for workers in (1, 2):
            pyasc.configure_device(worker_threads=workers)
            results[workers] = [(pyasc.asarray(a) @ pyasc.asarray(b)).numpy() for a, b in cases]
    finally:
        pyasc.configure_device(worker_threads=props.worker_threads)
    for (a, b), one, two in zip(cases, results[1], results[2]):
        if a.dtype.kind == "f":
            _check_float(two, a, b)
        else:
            np.testing.assert_array_equal(two, np.matmul(a, b))
        np.testing.assert_array_equal(one, two)


def test_large_float32_and_batched_fold():
    rng = _rng()
    a = _data((300, 257), "float32", rng)
    b = _data((257, 190), "float32", rng)
    _check_float((pyasc.asarray(a) @ pyasc.asarray(b)).numpy(), a, b)
    # (b, m, k) @ (k, n) folds into one (b*m, k) product; a batch-sliced a
    # cannot fold and runs per batch.
    c = _data((6, 5, 40), "float64", rng)
    d = _data((40, 30), "float64", rng)
    _check_float((pyasc.asarray(c) @ pyasc.asarray(d)).numpy(), c, d)
    cs = c[::2]
    _check_float((pyasc.from_numpy(cs) @ pyasc.asarray(d)).numpy(), cs, d)


def test_stream_order_without_sync():
    """The product reads its operands in stream order: results of earlier
    asynchronous work, and operands dropped before the kernel ran."""
    a = pyasc.ones((64, 64), dtype=pyasc.float32)
    b = a + a  # pending on the stream
    r = b @ (a * 3)
    del a, b
    np.testing.assert_array_equal(r.numpy(), np.full((64, 64), 2 * 3 * 64, np.float32))
