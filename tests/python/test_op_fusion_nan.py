"""Float maximum, minimum and relu in fused operators (docs/op-compiler.md):
built from compare and select so that NaN propagates and signed zeros come
out as eager and NumPy give them (maximum(-0.0, 0.0) is -0.0, relu(-0.0)
is +0.0), bit for bit, with scalars on either side and mixed dtypes."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import pyasc

SPECIALS = [0.0, -0.0, 1.0, -1.0, np.inf, -np.inf, np.nan, 2.5, -2.5, 1e-30, -1e-30, 65000.0]


@pytest.fixture(autouse=True)
def launch_every_size(monkeypatch):
    monkeypatch.setenv("PYASC_OP_FUSE_MIN", "0")  # small groups would launch kernels too


def np_maximum(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """NumPy's definition of maximum, ``a >= b or isnan(a) ? a : b``, written
    out: np.maximum's SIMD loops (float32 here) return either zero when
    both are zeros, its scalar loops (float16) the first."""
    a, b = np.broadcast_arrays(a, b)
    return np.where((a >= b) | np.isnan(a), a, b)


def np_minimum(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """As np_maximum: ``a <= b or isnan(a) ? a : b``."""
    a, b = np.broadcast_arrays(a, b)
    return np.where((a <= b) | np.isnan(a), a, b)


def np_relu(a: np.ndarray) -> np.ndarray:
    """NumPy's maximum(a, 0) but +0 for -0, the eager definition."""
    return np.where((a > 0) | np.isnan(a), a, np.zeros_like(a))


def same_bits(got: np.ndarray, want: np.ndarray) -> None:
    """Bit for bit but for NaN payloads (docs/op-compiler.md)."""
    assert got.dtype == want.dtype and got.shape == want.shape, (got.dtype, want.dtype)
    np.testing.assert_array_equal(np.isnan(got), np.isnan(want))
    keep = ~np.isnan(want)
    kind = {2: np.uint16, 4: np.uint32}[got.dtype.itemsize]
    np.testing.assert_array_equal(got[keep].view(kind), want[keep].view(kind))


def pairs(dtype: str) -> tuple[np.ndarray, np.ndarray]:
    """Every pair of special values."""
    a = np.array(SPECIALS, dtype)
    return np.repeat(a, len(a)), np.tile(a, len(a))


@pytest.mark.parametrize("dtype", ["float16", "float32"])
@pytest.mark.parametrize("name,ref", [("maximum", np_maximum), ("minimum", np_minimum)])
def test_tensor_pairs_of_specials(dtype, name, ref):
    fn = getattr(pyasc, name)

    @pyasc.op(name=f"fzn_{name}", overwrite=True)
    def body(x, y):
        return fn(x * 1.0, y)  # the multiply: the max/min reads a value of the kernel

    xa, ya = pairs(dtype)
    x, y = pyasc.asarray(xa), pyasc.asarray(ya)
    text = body.explain(x, y)
    assert "runs eagerly" not in text and f"{name}:{dtype}" in text, text
    got = body(x, y).numpy()
    same_bits(got, body.fn(x, y).numpy())
    with np.errstate(all="ignore"):
        same_bits(got, ref(xa * np.array(1.0, dtype), ya))


@pytest.mark.parametrize("dtype", ["float16", "float32"])
@pytest.mark.parametrize("name,ref", [("maximum", np_maximum), ("minimum", np_minimum)])
@pytest.mark.parametrize("c", [0.0, -0.0, 1.0, -np.inf, np.nan])
def test_python_number_on_either_side(dtype, name, ref, c):
    fn = getattr(pyasc, name)

    @pyasc.op(name=f"fzn_{name}_left", overwrite=True)
    def left(x):
        return fn(c, x * 1.0)

    @pyasc.op(name=f"fzn_{name}_right", overwrite=True)
    def right(x):
        return fn(x * 1.0, c)

    xa = np.array(SPECIALS * 11, dtype)  # 132 values: more than one 128-element count
    x = pyasc.asarray(xa)
    xs = xa * np.array(1.0, dtype)  # as the bodies' x * 1.0 (keeps -0.0)
    for op, want in ((left, ref(np.array(c, dtype), xs)), (right, ref(xs, np.array(c, dtype)))):
        assert "runs eagerly" not in op.explain(x)
        got = op(x).numpy()
        same_bits(got, op.fn(x).numpy())
        same_bits(got, want)


@pytest.mark.parametrize("dtype", ["float16", "float32"])
def test_relu_keeps_nan_and_makes_negative_zero_positive(dtype):
    @pyasc.op(name="fzn_relu", overwrite=True)
    def body(x):
        return pyasc.relu(x * 1.0) + 0.0

    xa = np.array(SPECIALS * 3, dtype)
    x = pyasc.asarray(xa)
    assert "relu:" + dtype in body.explain(x)
    got = body(x).numpy()
    same_bits(got, body.fn(x).numpy())
    same_bits(got, np_relu(xa) + np.array(0.0, dtype))
    assert not np.signbit(got[1])  # relu(-0.0) is +0.0


def test_mixed_dtypes_promote_before_the_comparison():
    @pyasc.op(name="fzn_mixed", overwrite=True)
    def body(h, f):
        return pyasc.maximum(h, f * 1.0) - pyasc.minimum(f, h)

    ha, fa = pairs("float16")[0], pairs("float32")[1]
    h, f = pyasc.asarray(ha), pyasc.asarray(fa)
    got = body(h, f).numpy()
    assert got.dtype == np.float32
    same_bits(got, body.fn(h, f).numpy())
    with np.errstate(all="ignore"):
        want = np_maximum(ha.astype(np.float32), fa) - np_minimum(fa, ha.astype(np.float32))
    same_bits(got, want)


def test_bfloat16_maximum_still_runs_eagerly_with_a_reason():
    @pyasc.op(name="fzn_bf16", overwrite=True)
    def body(x):
        return pyasc.maximum(x * 2.0, 1.0)

    x = pyasc.asarray(np.linspace(-1, 1, 64, dtype=np.float32)).astype("bfloat16")
    assert "maximum on bfloat16" in body.explain(x)
    np.testing.assert_array_equal(body(x).astype("float32").numpy(),
                                  body.fn(x).astype("float32").numpy())


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(["float16", "float32"]), st.integers(1, 700), st.integers(0, 2**31),
       st.floats(0, 0.5))
def test_random_values_with_nans(dtype, n, seed, nan_share):
    rng = np.random.default_rng(seed)
    xa = rng.standard_normal(n).astype(dtype)
    ya = rng.standard_normal(n).astype(dtype)
    xa[rng.random(n) < nan_share] = np.nan
    ya[rng.random(n) < nan_share] = -0.0

    @pyasc.op(name="fzn_random", overwrite=True)
    def body(x, y):
        return pyasc.relu(pyasc.maximum(x, y) - pyasc.minimum(y, 0.5))

    x, y = pyasc.asarray(xa), pyasc.asarray(ya)
    got = body(x, y).numpy()
    same_bits(got, body.fn(x, y).numpy())
    with np.errstate(all="ignore"):
        same_bits(got, np_relu(np_maximum(xa, ya) - np_minimum(ya, np.array(0.5, dtype))))
