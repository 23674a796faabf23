"""bfloat16 chains in fused operators (docs/op-compiler.md): the kernel
computes each operation in float32 and casts the result back (CAST_RINT),
so that fused results equal eager ones bit for bit, and equal a NumPy
float32 computation rounded to bfloat16 after every operation (exact
arithmetic) or lie within one bfloat16 ulp of it (exp, log)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import pyasc


@pytest.fixture(autouse=True)
def launch_every_size(monkeypatch):
    monkeypatch.setenv("PYASC_OP_FUSE_MIN", "0")  # small groups would launch kernels too


def round_bf16(a: np.ndarray) -> np.ndarray:
    """float32 -> bfloat16 (round half to even, NaN kept), as float32 values:
    the reference's rounding, written from the format, not from pyasc."""
    u = np.asarray(a, np.float32).view(np.uint32).astype(np.uint64)
    r = ((u + 0x7FFF + ((u >> 16) & 1)) >> 16) << 16
    out = (r & 0xFFFFFFFF).astype(np.uint32).view(np.float32)
    return np.where(np.isnan(a), np.float32(np.nan), out)


def bf16(a: np.ndarray) -> pyasc.Tensor:
    """A bfloat16 tensor of float32 values (rounded once)."""
    return pyasc.asarray(np.asarray(a, np.float32)).astype("bfloat16")


def values(t: pyasc.Tensor) -> np.ndarray:
    return t.astype("float32").numpy()


# --- random chains: fused == eager == NumPy rounded per operation ----------------

EXACT = {
    "add": (2, lambda a, b: a + b),
    "sub": (2, lambda a, b: a - b),
    "mul": (2, lambda a, b: a * b),
    "div": (2, lambda a, b: a / b),
    "neg": (1, lambda a: -a),
    "abs": (1, abs),
}


@st.composite
def _chains(draw):
    steps = []
    for _ in range(draw(st.integers(1, 6))):
        name = draw(st.sampled_from(sorted(EXACT)))
        arity = EXACT[name][0]
        # operands: earlier values by index, or a Python number
        picks = [draw(st.one_of(st.integers(0, 9), st.sampled_from([0.5, 3.0, -1.25, 0.1])))
                 for _ in range(arity)]
        steps.append((name, picks))
    return steps


def _run(steps, x, y, ops, round_each):
    vals = [x, y]
    for name, picks in steps:
        args = [vals[p % len(vals)] if isinstance(p, int) else p for p in picks]
        if not any(not isinstance(a, float) for a in args):
            args[0] = vals[-1]  # every operation takes a tensor
        r = ops[name](*args)
        vals.append(round_each(r))
    return vals[-1]


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_chains(), st.integers(1, 3000), st.integers(0, 2**31))
def test_random_chains_match_eager_and_numpy(steps, n, seed):
    rng = np.random.default_rng(seed)
    xa = round_bf16((rng.standard_normal(n) * 8).astype(np.float32))
    ya = round_bf16((rng.standard_normal(n) * 8).astype(np.float32))

    def body(x, y):
        return _run(steps, x, y, {k: f for k, (_, f) in EXACT.items()}, lambda r: r)

    op = pyasc.op(name="fzbf_chain", overwrite=True)(body)
    x, y = bf16(xa), bf16(ya)
    fused = op(x, y)
    assert fused.dtype == pyasc.bfloat16
    text = op.explain(x, y)
    assert "fused kernel" in text and "runs eagerly" not in text, text
    eager = op.fn(x, y)
    np.testing.assert_array_equal(values(fused), values(eager))

    def ref_op(f):
        # a Python number meets a bfloat16 tensor as a bfloat16 value (NEP 50)
        return lambda *a: f(*[round_bf16(np.float32(v)) if isinstance(v, float) else v
                              for v in a])

    with np.errstate(all="ignore"):
        ref = _run(steps, xa, ya, {k: ref_op(f) for k, (_, f) in EXACT.items()}, round_bf16)
    np.testing.assert_array_equal(values(fused), ref)


@pytest.mark.parametrize("fn,ref", [("exp", np.exp), ("log", np.log), ("sqrt", np.sqrt),
                                    ("reciprocal", lambda a: 1 / a)])
def test_unary_maths(fn, ref):
    rng = np.random.default_rng(3)
    xa = round_bf16(np.abs(rng.standard_normal(5000).astype(np.float32)) * 10 + 1e-3)

    @pyasc.op(name=f"fzbf_{fn}", overwrite=True)
    def body(x):
        return getattr(pyasc, fn)(x * 0.5) + 1.0

    x = bf16(xa)
    fused = values(body(x))
    np.testing.assert_array_equal(fused, values(body.fn(x)))
    with np.errstate(all="ignore"):
        want = round_bf16(round_bf16(ref(round_bf16(xa * np.float32(0.5))).astype(np.float32))
                          + np.float32(1.0))
    ulps = np.abs(fused.view(np.int32) - want.view(np.int32)) >> 16
    # exp/log: SLEEF and NumPy's float32 functions may round apart by one
    # float32 ulp, which can move the bfloat16 result by one ulp
    assert ulps.max() <= (0 if fn in ("sqrt", "reciprocal") else 1), ulps.max()


def test_casts_between_bfloat16_and_float32_fuse():
    @pyasc.op(name="fzbf_casts", overwrite=True)
    def body(x, y):
        wide = x.astype(pyasc.float32) * y  # bfloat16 -> float32 inside the kernel
        return (wide + 1.0).astype(pyasc.bfloat16) * 3.0

    rng = np.random.default_rng(5)
    xa = round_bf16(rng.standard_normal(777).astype(np.float32))
    ya = rng.standard_normal(777).astype(np.float32)
    x, y = bf16(xa), pyasc.asarray(ya)
    text = body.explain(x, y)
    assert "1 fused kernel(s), 0 eager call(s)" in text, text
    got = body(x, y)
    assert got.dtype == pyasc.bfloat16
    np.testing.assert_array_equal(values(got), values(body.fn(x, y)))
    want = round_bf16(round_bf16(xa * ya + np.float32(1.0)) * np.float32(3.0))
    np.testing.assert_array_equal(values(got), want)


def test_mixed_bfloat16_and_float32_promote_to_float32():
    @pyasc.op(name="fzbf_mixed", overwrite=True)
    def body(x, y):
        return x * y - x

    rng = np.random.default_rng(9)
    xa = round_bf16(rng.standard_normal(1000).astype(np.float32))
    ya = rng.standard_normal(1000).astype(np.float32)
    got = body(bf16(xa), pyasc.asarray(ya))
    assert got.dtype == pyasc.float32
    np.testing.assert_array_equal(got.numpy(), xa * ya - xa)
    assert "runs eagerly" not in body.explain(bf16(xa), pyasc.asarray(ya))


def test_specials_overflow_nan_and_signed_zero():
    xa = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, 3.3e38, -3.3e38, 1e-40, -1e-40, 1.0],
                  np.float32)

    @pyasc.op(name="fzbf_specials", overwrite=True)
    def body(x):
        return (x * 2.0 + x) / 3.0 - x

    x = bf16(xa)
    got, eager = values(body(x)), values(body.fn(x))
    np.testing.assert_array_equal(np.isnan(got), np.isnan(eager))
    keep = ~np.isnan(eager)
    np.testing.assert_array_equal(got[keep].view(np.uint32), eager[keep].view(np.uint32))
    assert np.isinf(got[5]) and got[5] > 0  # 3.3e38 * 2 overflows bfloat16 as float32 does


def test_comparisons_and_reductions_on_bfloat16_still_run_eagerly_with_a_reason():
    @pyasc.op(name="fzbf_cmp", overwrite=True)
    def body(x):
        return (x + 1.0) > 0.5, (x * 2.0).sum()

    x = bf16(np.linspace(-2, 2, 64, dtype=np.float32))
    text = body.explain(x)
    assert "greater on bfloat16: no kernel form" in text, text
    assert "sum" in text and "fused kernel" in text, text
    (c, s), (ce, se) = body(x), body.fn(x)
    np.testing.assert_array_equal(c.numpy(), ce.numpy())
    np.testing.assert_array_equal(values(s), values(se))


def test_ascendc_of_a_bfloat16_chain_casts_each_result():
    @pyasc.op(name="fzbf_ascendc", overwrite=True)
    def body(x, y):
        return x * y + x

    x = bf16(np.ones(4096, np.float32))
    text = body.ascendc(x, x)
    assert "bfloat16_t" in text, text
    assert text.count("AscendC::Cast(") >= 2, text  # in to float32, and back per operation
