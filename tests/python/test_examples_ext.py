"""examples/softmax.py and examples/leaky_relu_fp16.py: they run as scripts,
and their functions match NumPy on other shapes, in checked mode too, and
(leaky_relu_fp16) in every RoundMode bit for bit."""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import pyasc as asc
from kernel_cache import kernel_cache_dir

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"


@pytest.fixture(scope="module", autouse=True)
def cache_dir():
    """The kernel cache of this module (kernel_cache.py; the examples use the default
    cache, chosen by PYASC_CACHE_DIR)."""
    directory = kernel_cache_dir("pyasc-examples-ext-")
    saved = os.environ.get("PYASC_CACHE_DIR")
    os.environ["PYASC_CACHE_DIR"] = directory
    yield directory
    if saved is None:
        del os.environ["PYASC_CACHE_DIR"]
    else:
        os.environ["PYASC_CACHE_DIR"] = saved


_modules: dict[str, object] = {}


def example(name: str):
    if name not in _modules:
        spec = importlib.util.spec_from_file_location(f"pyasc_example_ext_{name}",
                                                      EXAMPLES / f"{name}.py")
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        _modules[name] = module
    return _modules[name]


@pytest.mark.parametrize("name, says", [("softmax", "softmax: matches NumPy"),
                                        ("leaky_relu_fp16", "leaky_relu_fp16: bit-exact")])
def test_runs_as_script(name, says):
    result = subprocess.run([sys.executable, str(EXAMPLES / f"{name}.py")], capture_output=True,
                            text=True, timeout=120, env=os.environ.copy())
    assert result.returncode == 0, result.stderr
    assert says in result.stdout


# --- softmax ------------------------------------------------------------------------------------


@pytest.mark.parametrize("shape", [(1, 1), (5, 8), (9, 7), (37, 300), (16, 1000), (3, 2048),
                                   (0, 4)])
def test_softmax_shapes(shape):
    """Rows that do not split evenly over blocks, row lengths that are not
    whole data blocks (data_copy_pad), a single element, no rows."""
    m = example("softmax")
    x = (np.random.default_rng(sum(shape)).standard_normal(shape) * 5).astype(np.float32)
    y = m.softmax(x)
    assert y.dtype == np.float32 and y.shape == x.shape
    np.testing.assert_allclose(y, m.reference(x), rtol=3e-6, atol=1e-12)
    if x.size:
        np.testing.assert_allclose(y.sum(axis=1), 1.0, rtol=1e-5)


def test_softmax_extreme_rows():
    """Large logits do not overflow (the row maximum is subtracted first);
    -inf entries give exact zeros; equal entries give equal shares."""
    m = example("softmax")
    x = np.array([[1000.0, 999.0, -1000.0, 0.0, 1000.0, 3.0, 5.0, 7.0, 9.0],
                  [-np.inf, 0.0, 0.0, 0.0, 0.0, -np.inf, 0.0, 0.0, 0.0],
                  [2.0] * 9], np.float32)
    y = m.softmax(x)
    np.testing.assert_allclose(y, m.reference(x), rtol=3e-6, atol=1e-30)
    assert y[1, 0] == 0 and y[1, 5] == 0
    assert np.all(y[2] == y[2, 0])


def test_softmax_checked_mode():
    """The kernel's synchronisation holds under checked mode (every UB
    access ordered between pipes)."""
    m = example("softmax")
    checked = asc.jit(m.softmax_kernel.fn, debug=True)
    x = np.random.default_rng(3).standard_normal((10, 77)).astype(np.float32)
    y = np.empty_like(x)
    checked[4](x, y, 10, 3, 77)
    asc.synchronize()
    np.testing.assert_allclose(y, m.reference(x), rtol=3e-6)


# --- leaky_relu_fp16 ----------------------------------------------------------------------------


def round_f32_to_f16(w: np.ndarray, mode: int) -> np.ndarray:
    """float32 -> float16 in RoundMode `mode`, from the two float16
    neighbours of each value (NumPy's conversion and nextafter)."""
    with np.errstate(over="ignore"):
        return _round_f32_to_f16(w, mode)


def _round_f32_to_f16(w: np.ndarray, mode: int) -> np.ndarray:
    r = w.astype(np.float16)
    wide, rw = w.astype(np.float64), r.astype(np.float64)
    below = np.where(rw > wide, np.nextafter(r, np.float16(-np.inf)), r)
    above = np.where(rw < wide, np.nextafter(r, np.float16(np.inf)), r)
    lo, hi = below.astype(np.float64), above.astype(np.float64)
    if mode in (0, 1):
        return r
    if mode == 2:
        return below
    if mode == 3:
        return above
    if mode == 4:
        tie = (wide - lo) == (hi - wide)
        away = np.where(wide > 0, above, below)
        return np.where(tie, away, r)
    if mode == 5:
        return np.where(wide > 0, below, above)
    odd_below = (below.view(np.uint16) & 1) == 1
    return np.where(lo == hi, r, np.where(odd_below, below, above))


@pytest.mark.parametrize("mode", list(asc.RoundMode), ids=lambda m: m.name)
def test_leaky_relu_every_round_mode(mode):
    """Bit-exact against float32 arithmetic rounded to float16 in the mode:
    products that land between float16 values, ties included."""
    m = example("leaky_relu_fp16")
    g = np.random.default_rng(int(mode))
    x = (g.standard_normal(m.CORE_NUM * 2048) * 100).astype(np.float16)
    x[:8] = [-1.0009765625, -0.0, 0.0, -65504, 65504, -6.1e-5, -3.0, 1.5]
    alpha = 0.1
    y = m.leaky_relu_fp16(x, alpha, mode, tile=512)
    w = x.astype(np.float32)
    wide = np.where(w >= 0, w, w * np.float32(alpha))
    expected = round_f32_to_f16(wide, int(mode))
    assert np.array_equal(y.view(np.uint16), expected.view(np.uint16))
    if mode == asc.RoundMode.CAST_RINT:
        assert np.array_equal(y.view(np.uint16), m.reference(x, alpha).view(np.uint16))


def test_leaky_relu_checked_mode():
    m = example("leaky_relu_fp16")
    checked = asc.jit(m.leaky_relu_kernel.fn, debug=True)
    x = np.random.default_rng(7).standard_normal(m.CORE_NUM * 1024).astype(np.float16)
    y = np.empty_like(x)
    checked[m.CORE_NUM](x, y, 1024, 0.25, 256, int(asc.RoundMode.CAST_RINT))
    asc.synchronize()
    assert np.array_equal(y.view(np.uint16), m.reference(x, 0.25).view(np.uint16))
