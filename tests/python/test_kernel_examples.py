"""The examples: they run as scripts, their functions give NumPy's results on
other sizes and dtypes, and their kernels' IR matches the golden files in
tests/python/golden/ exactly.

To regenerate the golden files after an intended IR change:
    PYASC_UPDATE_GOLDEN=1 python3 -m pytest tests/python/test_kernel_examples.py
"""

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
GOLDEN = Path(__file__).resolve().parent / "golden"


@pytest.fixture(scope="module")
def cache_dir():
    """One kernel cache for this module's processes (kernel_cache.py); the examples'
    kernels use the default cache, chosen by PYASC_CACHE_DIR."""
    directory = kernel_cache_dir("pyasc-kernel-examples-")
    saved = os.environ.get("PYASC_CACHE_DIR")
    os.environ["PYASC_CACHE_DIR"] = directory
    yield directory
    if saved is None:
        del os.environ["PYASC_CACHE_DIR"]
    else:
        os.environ["PYASC_CACHE_DIR"] = saved


_modules: dict[str, object] = {}


def example(name: str):
    """examples/<name>.py imported as a module (once)."""
    if name not in _modules:
        spec = importlib.util.spec_from_file_location(f"pyasc_example_{name}",
                                                      EXAMPLES / f"{name}.py")
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        _modules[name] = module
    return _modules[name]


# --- as scripts -------------------------------------------------------------------------------


@pytest.mark.parametrize("name,expected", [
    ("vadd", "vadd: max |z - (x + y)| = 0.0"),
    ("vadd_framework", "vadd_framework: max |z - (x + y)| = 0.0"),
    ("scale_relu", "scale_relu: bit-exact with NumPy float16 on 32768 elements"),
])
def test_example_runs_as_a_script(name, expected, cache_dir):
    proc = subprocess.run([sys.executable, str(EXAMPLES / f"{name}.py")], capture_output=True,
                          text=True, env=dict(os.environ), cwd=str(EXAMPLES), timeout=120,
                          check=False)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip().splitlines()[-1] == expected


# --- their functions on other inputs ----------------------------------------------------------


@pytest.mark.parametrize("size,dtype", [(8 * 16 * 8, np.float32), (8 * 16 * 32, np.float32),
                                        (8 * 16 * 16, np.float16), (8 * 16 * 8, np.int32)])
def test_vadd(size, dtype, cache_dir):
    g = np.random.default_rng(size)
    x = (g.standard_normal(size) * 100).astype(dtype)
    y = (g.standard_normal(size) * 100).astype(dtype)
    np.testing.assert_array_equal(example("vadd").vadd(x, y), x + y)


@pytest.mark.parametrize("core_num,tile,tiles", [(4, 256, 3), (8, 128, 2), (1, 512, 1)])
def test_vadd_framework_numpy(core_num, tile, tiles, cache_dir):
    size = core_num * tile * tiles
    g = np.random.default_rng(tile)
    x = g.random(size, dtype=np.float32)
    y = g.random(size, dtype=np.float32)
    z = example("vadd_framework").vadd(x, y, core_num=core_num, tile_length=tile)
    asc.synchronize()
    np.testing.assert_array_equal(z, x + y)


def test_vadd_framework_pyasc_tensors(cache_dir):
    x = np.linspace(-1, 1, 4 * 256, dtype=np.float32)
    y = np.linspace(3, 5, 4 * 256, dtype=np.float32)
    z = example("vadd_framework").vadd(asc.asarray(x), asc.asarray(y), core_num=4,
                                       tile_length=256)
    assert isinstance(z, asc.Tensor)
    np.testing.assert_array_equal(z.numpy(), x + y)


@pytest.mark.parametrize("scale,bias,tile,size", [(1.5, 0.25, 1024, 8 * 2048),
                                                  (-0.7, 3.0, 512, 8 * 512 * 3),
                                                  (2.0, -1.0, 256, 8 * 256)])
def test_scale_relu(scale, bias, tile, size, cache_dir):
    mod = example("scale_relu")
    x = (np.random.default_rng(size).standard_normal(size) * 8).astype(np.float16)
    z = mod.scale_relu(x, scale, bias, tile=tile)
    expected = mod.reference(x, scale, bias)
    assert z.dtype == np.float16
    np.testing.assert_array_equal(z.view(np.uint16), expected.view(np.uint16))


# --- golden IR --------------------------------------------------------------------------------


def golden_cases():
    f32 = np.zeros(8 * 2048, np.float32)
    f16 = np.zeros(8 * 4096, np.float16)
    return {
        "vadd": lambda: example("vadd").vadd_kernel.compile(f32, f32, f32, 2048),
        "vadd_framework": lambda: example("vadd_framework").vadd_kernel.compile(
            f32, f32, f32, 4 * 2048, 2048),
        "scale_relu": lambda: example("scale_relu").scale_relu_kernel.compile(
            f16, f16, 4096, 1.5, 0.25, 1024),
    }


def normalised(text: str) -> str:
    """The IR prints @line:col locations only; should a path ever appear,
    it must not tie the golden files to one checkout."""
    return text.replace(str(EXAMPLES), "<examples>")


@pytest.mark.parametrize("name", ["vadd", "vadd_framework", "scale_relu"])
def test_golden_ir(name, cache_dir):
    text = normalised(golden_cases()[name]().ir_text)
    path = GOLDEN / f"{name}.ir"
    if os.environ.get("PYASC_UPDATE_GOLDEN"):
        GOLDEN.mkdir(exist_ok=True)
        path.write_text(text)
    assert path.exists(), f"{path} is missing: run with PYASC_UPDATE_GOLDEN=1 to create it"
    assert text == path.read_text(), f"the IR of examples/{name}.py changed; if intended, " \
                                     "regenerate with PYASC_UPDATE_GOLDEN=1"


def test_golden_ir_is_stable_across_compiles(cache_dir):
    """Two compiles of one specialisation (fresh JITFunctions) print alike."""
    mod = example("vadd")
    f32 = np.zeros(8 * 2048, np.float32)
    first = mod.vadd_kernel.compile(f32, f32, f32, 2048).ir_text
    second = asc.jit(mod.vadd_kernel.fn).compile(f32, f32, f32, 2048)
    assert second.ir_text == first
    assert second.cache_hit is True  # the same C as well: found on disk
