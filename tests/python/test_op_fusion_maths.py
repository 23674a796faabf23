"""sin, cos, tan, tanh and erf in fused operators (docs/op-compiler.md): the
kernel runs Ascend C's Sin/Cos/Tan/Tanh/Erf, which the kernel runtime
computes with eager's SLEEF functions, so fused results equal eager ones
bit for bit in float16, bfloat16 and float32 (also where a vector mixes
small and huge trig arguments, which SLEEF reduces together), and lie
within one ulp of float64 maths rounded to the dtype."""

from __future__ import annotations

import math

import numpy as np
import pytest
from test_ascendc import assert_valid_cpp

import pyasc

FUNCTIONS = {"sin": np.sin, "cos": np.cos, "tan": np.tan, "tanh": np.tanh,
             "erf": np.vectorize(math.erf, otypes=[np.float64])}


@pytest.fixture(autouse=True)
def launch_every_size(monkeypatch):
    monkeypatch.setenv("PYASC_OP_FUSE_MIN", "0")  # small groups would launch kernels too


def inputs(dtype: str, n: int = 6001, seed: int = 0) -> np.ndarray:
    """float32 values of the dtype's grid: mostly small, one in ten huge
    (trig's slow reduction for its whole vector), and the edge values."""
    rng = np.random.default_rng(seed)
    a = rng.standard_normal(n) * np.where(rng.random(n) < 0.1, 3e3, 3.0)
    a[:8] = [0.0, -0.0, np.inf, -np.inf, np.nan, 1e-6, -7.5, 10.0]
    return pyasc.asarray(a.astype(np.float32)).astype(dtype).astype("float32").numpy()


def ulps(got: np.ndarray, want: np.ndarray, dtype: str) -> np.ndarray:
    """Distance in units in the last place of dtype (NaN vs NaN: 0)."""
    bits = {"float16": 16, "bfloat16": 16, "float32": 32}[dtype]
    if dtype == "float16":
        g, w = got.astype(np.float16).view(np.int16), want.astype(np.float16).view(np.int16)
    else:  # bfloat16 values are float32 values with 16 low zero bits
        g, w = got.view(np.int32) >> (32 - bits), want.view(np.int32) >> (32 - bits)
    g, w = g.astype(np.int64), w.astype(np.int64)
    sign = 1 << (bits - 1)
    g = np.where(g < 0, -(g + sign), g)
    w = np.where(w < 0, -(w + sign), w)
    return np.where(np.isnan(got) & np.isnan(want), 0, np.abs(g - w))


def rounded(values: np.ndarray, dtype: str) -> np.ndarray:
    """float64 values rounded once to dtype (as float32 values)."""
    return pyasc.asarray(values).astype(dtype).astype("float32").numpy()


@pytest.mark.parametrize("dtype", ["float32", "float16", "bfloat16"])
@pytest.mark.parametrize("name", sorted(FUNCTIONS))
def test_same_as_eager_and_within_one_ulp(name, dtype):
    fn = getattr(pyasc, name)

    @pyasc.op(name=f"fzm_{name}", overwrite=True)
    def body(x):
        return fn(x * 1.0)

    xa = inputs(dtype)
    x = pyasc.asarray(xa).astype(dtype)
    text = body.explain(x)
    assert "runs eagerly" not in text and f"{name}:{dtype}" in text, text
    got = body(x).astype("float32").numpy()
    eager = body.fn(x).astype("float32").numpy()
    np.testing.assert_array_equal(np.isnan(got), np.isnan(eager))
    keep = ~np.isnan(eager)
    np.testing.assert_array_equal(got[keep].view(np.uint32), eager[keep].view(np.uint32))
    with np.errstate(all="ignore"):
        want = rounded(FUNCTIONS[name](xa.astype(np.float64)), dtype)
    assert ulps(got, want, dtype).max() <= 1


def test_in_a_chain_with_row_and_column_broadcasts():
    @pyasc.op(name="fzm_chain", overwrite=True)
    def body(x, row, col):
        return pyasc.tanh(x * row) + pyasc.sin(x + col) * pyasc.erf(x)

    rng = np.random.default_rng(4)
    x = rng.standard_normal((96, 64)).astype(np.float32) * 50
    row = rng.standard_normal(64).astype(np.float32)
    col = (rng.standard_normal((96, 1)) * 1e3).astype(np.float32)
    text = body.explain(x, row, col)
    assert "1 fused kernel(s), 0 eager call(s)" in text, text
    got = body(x, row, col).numpy()
    eager = body.fn(pyasc.asarray(x), pyasc.asarray(row), pyasc.asarray(col)).numpy()
    np.testing.assert_array_equal(got, eager)


def test_ascendc_names_the_adv_maths_and_is_valid_cpp():
    @pyasc.op(name="fzm_cpp", overwrite=True)
    def body(x):
        return pyasc.tanh(x) * pyasc.cos(x) + pyasc.erf(x)

    src = body.ascendc(np.ones(4096, np.float32))
    assert "AscendC::Tanh(" in src and "AscendC::Cos(" in src and "AscendC::Erf(" in src, src
    assert_valid_cpp(src)
