"""Operators over dtypes the kernel runtime does not compute in (int64,
float64): they run eagerly, with the same answers as eager and NumPy, and
explain() says why. bfloat16 chains fuse, computing in float32 and rounding
each result back as eager does (docs/op-compiler.md); the tests of that
are in test_op_fusion_bf16.py."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import pyasc


@pytest.fixture(autouse=True)
def launch_every_size(monkeypatch):
    monkeypatch.setenv("PYASC_OP_FUSE_MIN", "0")  # small groups would launch kernels too


@pyasc.op(name="fzd_mix", overwrite=True)
def mix(x, y):
    return (x + y) * x - y


@pytest.mark.parametrize("dtype", ["int64", "float64"])
def test_explain_names_the_missing_vector_form(dtype):
    x = pyasc.asarray(np.arange(1, 9, dtype=np.float32)).astype(dtype)
    text = mix.explain(x, x)
    assert "0 fused kernel" in text, text
    assert f"add on {dtype}: the kernel runtime has no {dtype} vector instructions" in text, text


def test_cast_from_a_dtype_without_vector_form_says_so():
    @pyasc.op(name="fzd_cast", overwrite=True)
    def cast(x):
        return x.astype(pyasc.float32) * 2.0

    x = pyasc.asarray(np.arange(4, dtype=np.float64))
    text = cast.explain(x)
    assert "astype: operand of float64: the kernel runtime has no float64" in text, text
    assert "kernel over [4]" in text, text  # the multiply after the cast still fuses
    np.testing.assert_array_equal(cast(x).numpy(), np.arange(4, dtype=np.float32) * 2)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from([np.int64, np.float64]), st.integers(0, 40), st.integers(0, 2**31))
def test_same_as_eager_and_numpy(dtype, n, seed):
    rng = np.random.default_rng(seed)
    a = rng.integers(-1000, 1000, n).astype(dtype)
    b = rng.integers(-1000, 1000, n).astype(dtype)
    got = mix(a, b).numpy()
    eager = mix.fn(pyasc.asarray(a), pyasc.asarray(b)).numpy()
    assert got.dtype == dtype
    np.testing.assert_array_equal(got, eager)
    np.testing.assert_array_equal(got, (a + b) * a - b)
