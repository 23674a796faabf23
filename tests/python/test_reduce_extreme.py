"""Eager max/min over contiguous runs (src/tensor/reduce_extreme.c: AVX2 on
CPUs with it, the portable loop under PYASC_CPU_SIMD=0) against NumPy:
lengths around the vector body (32 float32, 16 float64 a turn) and its
tail, NaN at every kind of position (first, in the body, in the tail,
last, several), signed zeros, infinities, every dtype, reductions along
the last axis and over all of it, and empty reductions."""

from __future__ import annotations

import os
import subprocess
import sys

import numpy as np
import pytest

import pyasc

FLOATS = ["float16", "bfloat16", "float32", "float64"]
INTS = ["bool", "int8", "uint8", "int16", "uint16", "int32", "uint32", "int64"]
LENGTHS = [1, 7, 8, 15, 16, 17, 31, 32, 33, 63, 64, 65, 100, 511, 512, 513, 1000, 4099]


def make(a: np.ndarray, dtype: str) -> tuple[pyasc.Tensor, np.ndarray]:
    """The tensor and the exact values NumPy reduces (bfloat16 rounded)."""
    t = pyasc.Tensor(a, dtype=getattr(pyasc, "bool_" if dtype == "bool" else dtype))
    return t, (t.numpy() if dtype == "bfloat16" else a.astype(dtype))


def same(got: np.ndarray, want: np.ndarray) -> bool:
    """Equal values with NaN where NumPy has NaN (-0.0 == +0.0)."""
    got = np.asarray(got, dtype=np.float64)
    want = np.asarray(want, dtype=np.float64)
    return got.shape == want.shape and bool(np.all((got == want) | (np.isnan(got) & np.isnan(want))))


@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("op", ["max", "min"])
def test_lengths_without_nan(dtype, op):
    rng = np.random.default_rng(1)
    for n in LENGTHS:
        t, ref = make((rng.standard_normal(n) * 100).astype(np.float32), dtype)
        assert same(getattr(pyasc, op)(t).numpy(), getattr(np, op)(ref)), (n, dtype, op)


@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("op", ["max", "min"])
def test_nan_anywhere_gives_nan(dtype, op):
    rng = np.random.default_rng(2)
    for n in [1, 9, 33, 65, 130, 1000]:
        # first, second register, last of the body, tail, last, and two
        for where in sorted({0, 9 % n, (n // 32) * 32 - 1 if n >= 32 else 0, n - 2 if n > 1 else 0,
                             n - 1}):
            a = (rng.standard_normal(n) * 10).astype(np.float32)
            a[where] = np.nan
            t, ref = make(a, dtype)
            got = getattr(pyasc, op)(t).numpy()
            assert np.isnan(getattr(np, op)(ref)) and np.isnan(got), (n, where, dtype, op)
        a = np.arange(n, dtype=np.float32)
        t, ref = make(a, dtype)
        assert same(getattr(pyasc, op)(t).numpy(), getattr(np, op)(ref))  # no NaN: a number


@pytest.mark.parametrize("op", ["max", "min"])
def test_nan_per_row(op):
    """Along the last axis each row is its own slice: only rows with a NaN
    give NaN."""
    rng = np.random.default_rng(3)
    a = rng.standard_normal((6, 77)).astype(np.float32)
    a[1, 0] = np.nan
    a[3, 70] = np.nan
    a[4, 40] = np.nan
    a[4, 41] = np.nan
    got = getattr(pyasc, op)(pyasc.Tensor(a), axis=-1).numpy()
    want = getattr(np, op)(a, axis=-1)
    assert same(got, want)
    assert np.isnan(got).tolist() == [False, True, False, True, True, False]


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_signed_zeros_and_infinities(dtype):
    for n in [5, 40, 100]:
        neg = np.full(n, -0.0, dtype)
        pos = np.zeros(n, dtype)
        for op in ["max", "min"]:
            # a slice of one zero keeps its sign
            assert np.signbit(getattr(pyasc, op)(pyasc.Tensor(neg)).numpy())
            assert not np.signbit(getattr(pyasc, op)(pyasc.Tensor(pos)).numpy())
        mixed = neg.copy()
        mixed[n // 2] = 0.0
        assert pyasc.max(pyasc.Tensor(mixed)).numpy() == np.max(mixed) == 0.0
        a = np.linspace(-5, 5, n).astype(dtype)
        a[1] = np.inf
        a[n - 2] = -np.inf
        assert pyasc.max(pyasc.Tensor(a)).numpy() == np.inf
        assert pyasc.min(pyasc.Tensor(a)).numpy() == -np.inf


@pytest.mark.parametrize("dtype", INTS)
@pytest.mark.parametrize("op", ["max", "min"])
def test_integer_dtypes(dtype, op):
    rng = np.random.default_rng(4)
    for n in [1, 33, 513]:
        a = rng.integers(0, 2, n).astype(bool) if dtype == "bool" else \
            rng.integers(np.iinfo(dtype).min, np.iinfo(dtype).max, n, dtype=dtype, endpoint=True)
        t, ref = make(a, dtype)
        got = getattr(pyasc, op)(t).numpy()
        assert got.dtype == getattr(np, op)(ref).dtype and got == getattr(np, op)(ref)


@pytest.mark.parametrize("op", ["max", "min"])
def test_empty_axis_is_an_error(op):
    name = "maximum" if op == "max" else "minimum"
    for shape, axis in [((0,), None), ((3, 0), -1), ((3, 0), None)]:
        with pytest.raises(pyasc.InvalidValueError, match=f"zero-size array to reduction operation {name}"):
            getattr(pyasc, op)(pyasc.Tensor(np.zeros(shape, np.float32)), axis=axis)
    # an empty kept axis is fine: no output to fill
    got = getattr(pyasc, op)(pyasc.Tensor(np.zeros((0, 3), np.float32)), axis=-1).numpy()
    assert got.shape == (0,)


def test_portable_path_agrees():
    """PYASC_CPU_SIMD=0 selects the portable loop in a fresh process: the
    same values and NaNs as NumPy there too."""
    code = (
        "import numpy as np, pyasc\n"
        "from pyasc import _C\n"
        "assert _C._vector_isa() == 'generic'\n"
        "rng = np.random.default_rng(5)\n"
        "a = rng.standard_normal((9, 101)).astype(np.float32); a[2, 99] = np.nan; a[5, 3] = np.nan\n"
        "for op in ('max', 'min'):\n"
        "    got = getattr(pyasc, op)(pyasc.Tensor(a), axis=-1).numpy()\n"
        "    want = getattr(np, op)(a, axis=-1)\n"
        "    assert np.array_equal(got, want, equal_nan=True), (op, got, want)\n"
        "print('ok')\n"
    )
    env = dict(os.environ, PYASC_CPU_SIMD="0")
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=60)
    assert out.returncode == 0 and out.stdout.strip() == "ok", out.stderr
