"""dtypes: exhaustive float16/bfloat16 conversions, promotion, weak scalars.

References: NumPy 2 for float16 and for promotion; for bfloat16, which NumPy
lacks, a rounding written here in integer and float64 arithmetic, separately
from pyasc's bit tricks. Bits come back through numpy(raw=True) for
bfloat16 and through .view() of the NumPy export for the others.
"""

from __future__ import annotations

import itertools
import pathlib
import re

import numpy as np
import pytest

import pyasc

# NumPy's own warnings while it computes the references (casts that overflow
# or meet NaN, divisions by zero) are expected here.
pytestmark = [
    pytest.mark.filterwarnings("ignore:overflow encountered:RuntimeWarning"),
    pytest.mark.filterwarnings("ignore:invalid value encountered:RuntimeWarning"),
    pytest.mark.filterwarnings("ignore:divide by zero encountered:RuntimeWarning"),
]

ROOT = pathlib.Path(__file__).resolve().parents[2]

NUMPY_DTYPES = ("bool", "int8", "uint8", "int16", "int32", "int64", "float16", "float32", "float64",
                "uint16", "uint32", "uint64")
ALL_DTYPES = NUMPY_DTYPES[:7] + ("bfloat16",) + NUMPY_DTYPES[7:]
ALL_BITS16 = np.arange(1 << 16, dtype=np.uint32)
RNG_SEED = 20240611


def _to_pyasc(values: np.ndarray, dtype) -> np.ndarray:
    """values converted by pyasc (astype), exported to NumPy."""
    return pyasc.Tensor(values).astype(dtype).numpy()


def _nan_agrees(got_bits, ref_bits, got_nan, ref_nan, sign_bit, payload_mask):
    """NaN positions agree, with the same sign, and the same payload where
    the reference has the payload pyasc should have kept."""
    np.testing.assert_array_equal(got_nan, ref_nan)
    np.testing.assert_array_equal(got_bits[ref_nan] & sign_bit, ref_bits[ref_nan] & sign_bit)


# --- float16 ----------------------------------------------------------------------


def test_float16_to_float32_all_bit_patterns():
    h = ALL_BITS16.astype(np.uint16).view(np.float16)
    ref = h.astype(np.float32).view(np.uint32)
    got = _to_pyasc(h, pyasc.float32).view(np.uint32)
    nan = np.isnan(h)
    assert nan.sum() == 2 * 1023  # NaN patterns, both signs
    np.testing.assert_array_equal(got[~nan], ref[~nan])
    got_nan = np.isnan(got.view(np.float32))
    assert got_nan[nan].all()
    np.testing.assert_array_equal(got[nan] >> 31, ref[nan] >> 31)
    # Payload: where NumPy keeps the half payload (shifted up 13 bits), so must pyasc.
    kept = (ref & 0x7FFFFF) == ((h.view(np.uint16).astype(np.uint32) & 0x3FF) << 13)
    np.testing.assert_array_equal(got[nan & kept], ref[nan & kept])


def _float16_values() -> np.ndarray:
    return ALL_BITS16.astype(np.uint16).view(np.float16)


def _check_f32_to_f16(f: np.ndarray) -> None:
    ref = f.astype(np.float16).view(np.uint16)
    got = _to_pyasc(f, pyasc.float16).view(np.uint16)
    nan = np.isnan(f)
    np.testing.assert_array_equal(got[~nan], ref[~nan])
    got_nan = (got & 0x7C00 == 0x7C00) & (got & 0x3FF != 0)
    assert got_nan[nan].all()
    np.testing.assert_array_equal(got[nan] >> 15, ref[nan] >> 15)
    # NumPy keeps the top 10 payload bits (or 1 if they are all zero).
    fbits = f.view(np.uint32)
    top = (fbits >> 13) & 0x3FF
    expected = ((fbits >> 16) & 0x8000) | 0x7C00 | np.where(top == 0, 1, top)
    kept = ref.astype(np.uint32) == expected
    np.testing.assert_array_equal(got[nan & kept], ref[nan & kept])


def test_float32_to_float16_every_float16_value():
    f = _float16_values().astype(np.float32)
    _check_f32_to_f16(f)
    # Every value survives the round trip exactly (NaNs as NaNs).
    back = _to_pyasc(f, pyasc.float16).view(np.uint16)
    finite = ~np.isnan(f)
    np.testing.assert_array_equal(back[finite], ALL_BITS16[finite].astype(np.uint16))


def _float16_midpoints() -> np.ndarray:
    """Midpoints between adjacent non-negative float16 values (and 65504 to
    65536, the overflow threshold), both signs, plus their float32
    neighbours: ties to even and the first values that round away."""
    pos = np.arange(0, 0x7C00, dtype=np.uint16).view(np.float16).astype(np.float64)
    nxt = np.append(pos[1:], 65536.0)
    mid = ((pos + nxt) / 2).astype(np.float32)
    assert np.array_equal(mid.astype(np.float64), (pos + nxt) / 2)  # exact in float32
    around = np.concatenate(
        [mid, np.nextafter(mid, np.float32(0)), np.nextafter(mid, np.float32(np.inf))]
    )
    return np.concatenate([around, -around])


def test_float32_to_float16_midpoints_round_to_even():
    mids = _float16_midpoints()
    _check_f32_to_f16(mids)
    # Spot checks that the midpoints are what they claim.
    got = _to_pyasc(
        np.array([65520.0, 65519.996, 2.0**-25, 1.0 + 2.0**-11], np.float32), pyasc.float16
    )
    assert np.isinf(got[0]) and got[1] == 65504.0 and got[2] == 0.0 and got[3] == 1.0


def test_float32_to_float16_random_bit_patterns():
    rng = np.random.default_rng(RNG_SEED)
    bits = rng.integers(0, 1 << 32, size=1 << 20, dtype=np.uint64).astype(np.uint32)
    _check_f32_to_f16(bits.view(np.float32))
    # Concentrated on the float16 range, where rounding matters most.
    near = rng.integers(0x33000000, 0x47800000, size=1 << 19, dtype=np.uint64).astype(np.uint32)
    _check_f32_to_f16(np.concatenate([near, near | 0x80000000]).view(np.float32))


def test_float64_to_float16_rounds_once():
    mids = _float16_midpoints().astype(np.float64)
    tiny = np.abs(mids) * 2.0**-40  # below float32 resolution: a float32 step would tie
    values = np.concatenate([mids, mids + tiny, mids - tiny, [np.nan, -np.nan, np.inf, -np.inf]])
    ref = values.astype(np.float16).view(np.uint16)
    got = _to_pyasc(values, pyasc.float16).view(np.uint16)
    np.testing.assert_array_equal(got, ref)


# --- bfloat16 --------------------------------------------------------------------------


def bf16_reference(f: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """float32 -> bfloat16 bits by round to nearest, ties to even, computed
    on the values in float64: the two bfloat16 neighbours of each value are
    the truncation and the next pattern up, and the nearer one wins. Returns
    (bits, is_nan); NaN bits are left unspecified."""
    bits = f.view(np.uint32)
    sign = ((bits >> 16) & 0x8000).astype(np.uint16)
    mag = bits & 0x7FFFFFFF
    nan = mag > 0x7F800000
    lo = (mag >> 16).astype(np.uint32)  # rounds toward zero
    hi = lo + 1
    x = np.abs(f.astype(np.float64))
    with np.errstate(invalid="ignore", over="ignore"):
        lo_val = (lo << 16).view(np.float32).astype(np.float64)
        hi_val = np.where(hi == 0x7F80, 2.0**128, (hi << 16).view(np.float32).astype(np.float64))
        d_lo, d_hi = x - lo_val, hi_val - x
        up = (d_hi < d_lo) | ((d_hi == d_lo) & (lo & 1 == 1))
    up &= ~np.isinf(x) & ~nan
    return sign | np.where(up, hi, lo).astype(np.uint16), nan


def _check_f32_to_bf16(f: np.ndarray) -> None:
    ref, nan = bf16_reference(f)
    got = pyasc.Tensor(f).astype(pyasc.bfloat16).numpy(raw=True)
    assert got.dtype == np.uint16
    np.testing.assert_array_equal(got[~nan], ref[~nan])
    got_nan = (got & 0x7F80 == 0x7F80) & (got & 0x7F != 0)
    assert got_nan[nan].all()
    np.testing.assert_array_equal(got[nan] >> 15, ref[nan] >> 15)


def test_float32_to_bfloat16_every_value_and_midpoint():
    exact = (ALL_BITS16 << 16).view(np.float32)
    _check_f32_to_bf16(exact)
    mids = (ALL_BITS16 << 16 | 0x8000).view(np.float32)  # ties (or NaNs)
    _check_f32_to_bf16(mids)
    _check_f32_to_bf16((ALL_BITS16 << 16 | 0x7FFF).view(np.float32))
    _check_f32_to_bf16((ALL_BITS16 << 16 | 0x8001).view(np.float32))
    # Spot checks of the reference: ties go to the even pattern; the largest
    # finite value's upper midpoint overflows to infinity.
    ref, _ = bf16_reference(
        np.array([0x3F808000, 0x3F818000, 0x7F7F8000, 0x00008000], np.uint32).view(np.float32)
    )
    np.testing.assert_array_equal(ref, [0x3F80, 0x3F82, 0x7F80, 0x0000])


def test_float32_to_bfloat16_random_bit_patterns():
    rng = np.random.default_rng(RNG_SEED + 1)
    bits = rng.integers(0, 1 << 32, size=1 << 20, dtype=np.uint64).astype(np.uint32)
    _check_f32_to_bf16(bits.view(np.float32))


def _bfloat16_all_patterns() -> pyasc.Tensor:
    """A bfloat16 tensor holding all 65,536 bit patterns, written through
    the raw uint16 view that numpy(raw=True) shares with the tensor."""
    t = pyasc.Tensor(np.zeros(1 << 16, np.float32), dtype=pyasc.bfloat16)
    raw = t.numpy(raw=True)
    raw[:] = ALL_BITS16.astype(np.uint16)
    return t


def test_bfloat16_to_float32_is_exact_for_every_pattern():
    t = _bfloat16_all_patterns()
    np.testing.assert_array_equal(t.numpy(raw=True), ALL_BITS16.astype(np.uint16))
    expected = (ALL_BITS16 << 16).astype(np.uint32)
    np.testing.assert_array_equal(t.astype(pyasc.float32).numpy().view(np.uint32), expected)
    exported = t.numpy()
    assert exported.dtype == np.float32
    np.testing.assert_array_equal(exported.view(np.uint32), expected)
    # float64 holds every bfloat16 value exactly too (NaNs stay NaNs).
    wide = t.astype(pyasc.float64).numpy()
    as_f32 = expected.view(np.float32)
    finite = ~np.isnan(as_f32)
    np.testing.assert_array_equal(wide[finite], as_f32[finite].astype(np.float64))
    assert np.isnan(wide[~finite]).all()


def test_bfloat16_float16_conversions_round_once():
    t = _bfloat16_all_patterns()
    values = (ALL_BITS16 << 16).view(np.float32)
    ref = values.astype(np.float16).view(np.uint16)  # exact float32, one rounding
    got = t.astype(pyasc.float16).numpy().view(np.uint16)
    nan = np.isnan(values)
    np.testing.assert_array_equal(got[~nan], ref[~nan])
    assert np.isnan(got[nan].view(np.float16)).all()
    h = _float16_values()
    ref_bf, hnan = bf16_reference(h.astype(np.float32))
    got_bf = pyasc.Tensor(h).astype(pyasc.bfloat16).numpy(raw=True)
    np.testing.assert_array_equal(got_bf[~hnan], ref_bf[~hnan])


def test_float64_to_bfloat16_goes_through_float32():
    """pyasc's documented rule (as PyTorch and ml_dtypes): float64 rounds to
    float32 first, then to bfloat16."""
    rng = np.random.default_rng(RNG_SEED + 2)
    d = rng.normal(0, 1e3, 4096)
    d[:4] = [1.0 + 2.0**-8 + 2.0**-40, np.inf, -0.0, 3.0e38 * 1.2]
    ref, _ = bf16_reference(d.astype(np.float32))
    np.testing.assert_array_equal(pyasc.Tensor(d).astype(pyasc.bfloat16).numpy(raw=True), ref)


def test_bfloat16_arithmetic_rounds_once_from_float32():
    rng = np.random.default_rng(RNG_SEED + 3)
    a = rng.normal(0, 100, 4096).astype(np.float32)
    b = rng.normal(0, 100, 4096).astype(np.float32)
    ta = pyasc.Tensor(a, dtype=pyasc.bfloat16)
    tb = pyasc.Tensor(b, dtype=pyasc.bfloat16)
    fa, fb = ta.numpy(), tb.numpy()  # the bfloat16 values, exactly, as float32
    for op in (np.add, np.subtract, np.multiply, np.divide):
        ref, _ = bf16_reference(op(fa, fb))
        got = getattr(pyasc, op.__name__)(ta, tb)
        assert got.dtype == pyasc.bfloat16
        np.testing.assert_array_equal(got.numpy(raw=True), ref, err_msg=op.__name__)


def test_bfloat16_export_rules():
    t = pyasc.Tensor([1.0, -2.5, 3.0e38], dtype=pyasc.bfloat16)
    exported = t.numpy()
    assert exported.dtype == np.float32
    raw = t.numpy(raw=True)
    assert raw.dtype == np.uint16
    np.testing.assert_array_equal(raw, [0x3F80, 0xC020, 0x7F62])
    raw[0] = 0x4000  # the raw view shares the tensor's memory
    assert t[0].item() == 2.0
    assert np.asarray(t).dtype == np.float32
    with pytest.raises(BufferError, match="bfloat16"):
        memoryview(t)
    values = np.array([0x4000, 0xC020, 0x7F62], np.uint32) << 16
    text = np.array2string(values.view(np.float32), separator=", ", prefix="Tensor(")
    assert repr(t) == f"Tensor({text}, dtype=bfloat16)"
    assert repr(t).startswith("Tensor([ 2.0000000e+00, -2.5000000e+00,  3.0040553e+38]")


# --- casts between the NumPy dtypes --------------------------------------------------------


CAST_VALUES = np.array(
    [
        0.0,
        -0.0,
        1.0,
        -1.0,
        2.5,
        -2.5,
        127.9,
        -128.9,
        255.5,
        300.7,
        -300.7,
        65504.0,
        65520.0,
        65536.0,
        3e9,
        -3e9,
        1e20,
        -1e20,
        np.inf,
        -np.inf,
        np.nan,
        1e-8,
    ]
)


def test_astype_matches_numpy_for_every_pair():
    """Unsafe casts as NumPy's astype, including wrap-around of integers and
    NaN, infinite and out-of-range floats to integers."""
    for src in NUMPY_DTYPES:
        with np.errstate(all="ignore"):
            a = CAST_VALUES.astype(src)
        for dst in NUMPY_DTYPES:
            with np.errstate(all="ignore"):
                ref = a.astype(dst)
            got = pyasc.Tensor(a).astype(dst)
            assert got.dtype == pyasc.dtype(dst)
            values = got.numpy()
            if dst in ("uint32", "uint64") and np.dtype(src).kind == "f":
                # NaN and values outside (-2^31, 2^bits) are C's undefined
                # conversions: NumPy's own results differ between its SIMD
                # loop and its scalar tail. Compare the defined ones.
                with np.errstate(all="ignore"):
                    wide = a.astype(np.float64)
                    defined = (wide > -(2.0**31)) & (wide < 2.0 ** (8 * np.dtype(dst).itemsize))
                values, ref = values[defined], ref[defined]
            np.testing.assert_array_equal(values, ref, err_msg=f"{src} -> {dst}", strict=True)


def test_bfloat16_to_integers_matches_numpy_from_float32():
    t = _bfloat16_all_patterns()
    as_f32 = (ALL_BITS16 << 16).view(np.float32)
    for dst in ("bool", "int8", "uint8", "int16", "int32", "int64"):
        with np.errstate(all="ignore"):
            ref = as_f32.astype(dst)
        np.testing.assert_array_equal(t.astype(dst).numpy(), ref, err_msg=dst, strict=True)


# --- promotion --------------------------------------------------------------------------


def _zeros(dtype: str) -> pyasc.Tensor:
    return pyasc.Tensor(np.zeros(2), dtype=dtype)


def test_promotion_matches_numpy_result_type():
    for a, b in itertools.product(NUMPY_DTYPES, NUMPY_DTYPES):
        expected = np.result_type(np.dtype(a), np.dtype(b))
        got = (_zeros(a) + _zeros(b)).dtype
        assert got == pyasc.dtype(expected.name), f"{a} + {b}"
        # The same rule drives every arithmetic op that keeps the promoted dtype.
        assert pyasc.maximum(_zeros(a), _zeros(b)).dtype == got


BF16_RULE = {
    "bool": "bfloat16",
    "int8": "bfloat16",
    "uint8": "bfloat16",
    "int16": "float32",
    "int32": "float64",
    "int64": "float64",
    "float16": "float32",
    "bfloat16": "bfloat16",
    "float32": "float32",
    "float64": "float64",
    "uint16": "float32",
    "uint32": "float64",
    "uint64": "float64",
}


def test_bfloat16_promotion_rule():
    for other in ALL_DTYPES:
        assert (_zeros("bfloat16") + _zeros(other)).dtype == BF16_RULE[other], other
        assert (_zeros(other) + _zeros("bfloat16")).dtype == BF16_RULE[other], other


SHORT = {
    "b": "bool",
    "i8": "int8",
    "u8": "uint8",
    "i16": "int16",
    "i32": "int32",
    "i64": "int64",
    "f16": "float16",
    "bf16": "bfloat16",
    "f32": "float32",
    "f64": "float64",
    "u16": "uint16",
    "u32": "uint32",
    "u64": "uint64",
}


def _doc_table() -> dict[tuple[str, str], str]:
    text = (ROOT / "docs" / "dtypes.md").read_text()
    block = re.search(
        r"<!-- promotion-table:start -->(.*?)<!-- promotion-table:end -->", text, re.S
    )
    assert block, "docs/dtypes.md lacks the promotion-table markers"
    rows = [line for line in block.group(1).strip().splitlines() if line.startswith("|")]
    header = [c.strip() for c in rows[0].strip("|").split("|")][1:]
    table = {}
    for row in rows[2:]:
        cells = [c.strip() for c in row.strip("|").split("|")]
        left = SHORT[cells[0].strip("*")]
        for col, cell in zip(header, cells[1:]):
            table[left, SHORT[col]] = SHORT[cell]
    return table


def test_doc_promotion_table_matches_pyasc_and_numpy():
    table = _doc_table()
    assert len(table) == len(ALL_DTYPES) ** 2
    for a, b in itertools.product(ALL_DTYPES, ALL_DTYPES):
        assert table[a, b] == (_zeros(a) + _zeros(b)).dtype.name, f"doc row {a}, column {b}"
        if a != "bfloat16" and b != "bfloat16":
            assert table[a, b] == np.result_type(np.dtype(a), np.dtype(b)).name


def test_doc_dtype_list_names_every_dtype():
    text = (ROOT / "docs" / "dtypes.md").read_text()
    for name in ALL_DTYPES:
        assert f"`pyasc.{name if name != 'bool' else 'bool_'}`" in text


# --- weak Python scalars (NEP 50) -------------------------------------------------------

SCALARS = (
    True,
    False,
    0,
    1,
    -1,
    100,
    127,
    128,
    200,
    255,
    256,
    300,
    -129,
    40000,
    2**31,
    2**40,
    2**63 - 1,
    2**63,
    -(2**63),
    2**70,
    0.5,
    -1.5,
    1e10,
    1e300,
    -0.0,
    float("inf"),
)


def _numpy_outcome(fn):
    try:
        with np.errstate(all="ignore"):
            return fn(), None
    except OverflowError as exc:
        return None, exc


@pytest.mark.parametrize("dtype", NUMPY_DTYPES)
def test_weak_scalars_match_numpy(dtype):
    base = np.array([0, 1, 2], dtype=dtype)
    t = pyasc.Tensor(base)
    for scalar in SCALARS:
        for name, fn in (
            ("x + s", lambda x, s: x + s),
            ("s * x", lambda x, s: s * x),
            (
                "maximum",
                lambda x, s: np.maximum(x, s) if isinstance(x, np.ndarray) else pyasc.maximum(x, s),
            ),
        ):
            ref, ref_err = _numpy_outcome(lambda: fn(base, scalar))
            if ref_err is not None:
                with pytest.raises(OverflowError):
                    fn(t, scalar)
                continue
            got = fn(t, scalar)
            assert got.dtype == pyasc.dtype(ref.dtype.name), f"{dtype} {name} {scalar!r}"
            np.testing.assert_array_equal(got.numpy(), ref, err_msg=f"{dtype} {name} {scalar!r}")


def test_weak_scalar_examples_from_the_docs():
    assert (pyasc.Tensor(np.array([1], np.int8)) + 1).dtype == pyasc.int8
    assert (np.array([1], np.int8) + 1).dtype == np.int8
    for dt in (np.int8, np.uint8, np.int16, np.int32, np.int64):
        assert (pyasc.Tensor(np.array([1], dt)) + 1.0).dtype == pyasc.float64
        assert (np.array([1], dt) + 1.0).dtype == np.float64
    assert (pyasc.Tensor(np.array([1], np.float32)) + 1.0).dtype == pyasc.float32
    assert (np.array([1], np.float32) + 1.0).dtype == np.float32
    assert (pyasc.Tensor(np.array([1], np.float16)) * 2).dtype == pyasc.float16
    assert (pyasc.Tensor([True]) + 1).dtype == pyasc.int64
    assert (pyasc.Tensor([1.0], dtype=pyasc.bfloat16) + 1.0).dtype == pyasc.bfloat16
    with pytest.raises(OverflowError):
        np.array([1], np.uint8) + 300
    with pytest.raises(OverflowError, match="300 out of bounds for uint8"):
        pyasc.Tensor(np.array([1], np.uint8)) + 300
    # NumPy scalars are strong: they promote like arrays.
    assert (pyasc.Tensor(np.array([1], np.int8)) + np.int64(1)).dtype == pyasc.int64
    assert (pyasc.Tensor(np.array([1], np.float32)) + np.float64(1)).dtype == pyasc.float64


def test_comparisons_with_any_python_int_match_numpy():
    for dtype in ("int8", "uint8", "int16", "int32", "int64", "bool"):
        _comparisons_case(dtype)


def _comparisons_case(dtype):
    base = np.array([0, 1, 127], dtype=dtype) if dtype != "bool" else np.array([True, False])
    t = pyasc.Tensor(base)
    ops = ("__lt__", "__le__", "__eq__", "__ne__", "__gt__", "__ge__")
    for scalar in (
        -1,
        0,
        127,
        128,
        255,
        256,
        300,
        -129,
        2**31,
        2**63 - 1,
        2**63,
        -(2**63) - 1,
        2**70,
        -(2**70),
    ):
        for op in ops:
            ref, ref_err = _numpy_outcome(lambda: getattr(base, op)(scalar))
            if ref_err is not None:  # bool vs beyond int64: no dtype holds both
                with pytest.raises(OverflowError):
                    getattr(t, op)(scalar)
                continue
            got = getattr(t, op)(scalar)
            np.testing.assert_array_equal(got.numpy(), ref, err_msg=f"{dtype} {op} {scalar}")
        for fn in (np.logical_and, np.logical_or, np.logical_xor):
            ref, ref_err = _numpy_outcome(lambda: fn(base, scalar))
            if ref_err is None:
                got = getattr(pyasc, fn.__name__)(t, scalar)
                np.testing.assert_array_equal(
                    got.numpy(), ref, err_msg=f"{dtype} {fn.__name__} {scalar}"
                )
