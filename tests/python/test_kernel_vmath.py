"""Transcendental maths in kernels (src/compiler/rt/vmath.h): exp, ln and
sqrt of the vector family and the adv maths functions go through the
SLEEF functions libasc lends each launch, the ones eager tensor operations
use, so kernels and eager give the same bits. The inputs cover edge values
(+-0, +-inf, NaN, negatives, overflow, subnormals) and a random body long
enough for libm and SLEEF to differ on some elements."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import pyasc
from kernel_api_helpers import jit

F16, F32 = np.float16, np.float32
EDGES = [0.0, -0.0, np.inf, -np.inf, np.nan, -1.0, 1.0, 88.7, 89.0, -104.0, 1e-40, 3e38, 0.5]


def _inputs(dtype, n=20000, seed=3):
    rng = np.random.default_rng(seed)
    body = rng.standard_normal(n) * 20
    with np.errstate(over="ignore"):  # 3e38 is inf in float16
        return np.concatenate([np.array(EDGES), body, np.abs(body) + 1e-3]).astype(dtype)


def _same_bits(got, want):
    """Equal element by element, NaN where the other has NaN (sign and payload aside)."""
    nan = np.isnan(want)
    assert np.array_equal(np.isnan(got), nan)
    kind = {2: np.uint16, 4: np.uint32}[got.dtype.itemsize]
    diff = np.flatnonzero(got[~nan].view(kind) != want[~nan].view(kind))
    assert diff.size == 0, (diff[:5], got[~nan][diff[:5]], want[~nan][diff[:5]])


@pytest.mark.parametrize("dtype", [F32, F16])
@pytest.mark.parametrize("fn", ["exp", "log", "sqrt"])
def test_fused_maths_equal_eager_bits(monkeypatch, fn, dtype):
    monkeypatch.setenv("PYASC_OP_FUSE_MIN", "0")
    f = getattr(pyasc, fn)

    @pyasc.op(name=f"vm_{fn}", overwrite=True)
    def op(x):
        return f(x) * 1.0

    x = _inputs(dtype)
    with np.errstate(all="ignore"):
        fused = op(x).numpy()
        eager = op.fn(pyasc.asarray(x)).numpy()
    assert f"fused_vm_{fn}" in op.explain(x)
    _same_bits(fused, eager)


ADV = ("exp", "log", "sin", "cos", "tan", "tanh", "erf")


@jit
def k_adv(x: pyasc.GlobalAddress, y: pyasc.GlobalAddress, n: pyasc.ConstExpr[int],
          fn: pyasc.ConstExpr, taylor: pyasc.ConstExpr[int]):
    gx = pyasc.GlobalTensor()
    gx.set_global_buffer(x, n)
    gy = pyasc.GlobalTensor()
    gy.set_global_buffer(y, n)
    a = pyasc.LocalTensorAuto(x.dtype, n)
    b = pyasc.LocalTensorAuto(x.dtype, n)
    pyasc.data_copy(a, gx, n)
    if taylor == 1:
        fn(b, a, n, 0)  # adv.exp's level 0: the plain exponential
    else:
        fn(b, a, n)
    pyasc.data_copy(gy, b, n)


@pytest.mark.parametrize("dtype", [F32, F16])
@pytest.mark.parametrize("name", ADV)
def test_adv_maths_equal_eager_bits(name, dtype):
    x = _inputs(dtype, n=1000)[:2048]
    n = x.size // 16 * 16
    x = x[:n]
    y = np.zeros_like(x)
    k_adv[1](x, y, n, getattr(pyasc.adv, name), int(name == "exp"))
    pyasc.synchronize()
    with np.errstate(all="ignore"):
        want = getattr(pyasc, name)(pyasc.asarray(x)).numpy()
    _same_bits(y, want)


@jit
def k_masked(x: pyasc.GlobalAddress, y: pyasc.GlobalAddress, n: pyasc.ConstExpr[int],
             fn: pyasc.ConstExpr):
    gx = pyasc.GlobalTensor()
    gx.set_global_buffer(x, n)
    gy = pyasc.GlobalTensor()
    gy.set_global_buffer(y, n)
    a = pyasc.LocalTensorAuto(x.dtype, n)
    b = pyasc.LocalTensorAuto(x.dtype, n)
    pyasc.data_copy(a, gx, n)
    fn(b, a, 64, n // 64, pyasc.UnaryRepeatParams())  # the mask and repeat form
    pyasc.data_copy(gy, b, n)


@pytest.mark.parametrize("name,eager", [("exp", "exp"), ("ln", "log")])
def test_mask_forms_equal_count_forms(name, eager):
    """The level-0 (mask, repeat) forms compute as the count forms: the same bits."""
    x = _inputs(F32, n=1000)[:1984]
    y = np.zeros_like(x)
    k_masked[1](x, y, x.size, getattr(pyasc, name))
    pyasc.synchronize()
    with np.errstate(all="ignore"):
        want = getattr(pyasc, eager)(pyasc.asarray(x)).numpy()
    _same_bits(y, want)


def test_portable_maths_follow_eager(tmp_path):
    """PYASC_CPU_SIMD=0 makes eager use SLEEF's portable functions: kernels
    get the same table, so they still give eager's bits."""
    code = textwrap.dedent("""
        import numpy as np, pyasc
        @pyasc.op(name="vm_portable")
        def op(x):
            return pyasc.exp(x) + pyasc.log(x)
        x = np.linspace(0.01, 80, 8192, dtype=np.float32)
        fused = op(x).numpy()
        eager = op.fn(pyasc.asarray(x)).numpy()
        assert "fused_vm_portable" in op.explain(x)
        print(np.array_equal(fused.view(np.uint32), eager.view(np.uint32)))
    """)
    env = dict(os.environ, PYASC_CPU_SIMD="0", PYASC_OP_FUSE_MIN="0",
               PYASC_CACHE_DIR=str(tmp_path))
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                         timeout=300)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["True"]
