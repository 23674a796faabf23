"""The cube's SIMD paths inside kernels (rt/cube_mmad256.h, cube_mmad512.h,
cube_fixpipe_nd.h) against its portable path: the same hand-written
basic-API matmul (examples/matmul_basic.py) on random fp16, bf16 and int8
inputs of odd shapes gives the same bytes in this process and in one with
PYASC_CPU_SIMD=0, where every mmad and fixpipe is portable. So does
asc.adv.Matmul (examples/matmul_mix.py, matmul_cube_only.py with a bias),
which with AVX-512 reads row-major operands without its L1/L0 copies
(rt/cube_matmul.h asc_k_mm_direct) and portably makes every copy. The
inputs are not dyadic: products and sums round, so a changed order of the
fp32 additions would show. tests/c/test_cube_simd.c compares the mmad
itself, fp32 inputs included."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import numpy as np

import pyasc

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
sys.path.insert(0, str(EXAMPLES))
import matmul_cube_only  # noqa: E402
import matmul_mix  # noqa: E402
from matmul_basic import matmul_basic  # noqa: E402

import asc.lib.host as host  # noqa: E402

CASES = (("float16", (37, 45, 83), "float32"), ("float16", (20, 33, 150), "float16"),
         ("int8", (19, 40, 70), None), ("bfloat16", (25, 17, 49), "float32"))


def make_inputs() -> list[tuple[np.ndarray, np.ndarray]]:
    """Every case's A and B (fp16/bf16 cases as float32 before rounding)."""
    rng = np.random.default_rng(7)
    inputs = []
    for dtype, (m, n, k), _ in CASES:
        if dtype == "int8":
            inputs.append((rng.integers(-128, 128, (m, k)).astype(np.int8),
                           rng.integers(-128, 128, (k, n)).astype(np.int8)))
        else:
            inputs.append((rng.standard_normal((m, k)).astype(np.float32) * 3,
                           rng.standard_normal((k, n)).astype(np.float32) / 3))
    return inputs


def run_cases() -> list[np.ndarray]:
    """Every case's result."""
    outs = []
    for (dtype, _, out), (a, b) in zip(CASES, make_inputs()):
        if dtype == "int8":
            outs.append(matmul_basic(a, b, cores=2))
        elif dtype == "bfloat16":
            ta, tb = pyasc.Tensor(a, dtype=pyasc.bfloat16), pyasc.Tensor(b, dtype=pyasc.bfloat16)
            outs.append(np.asarray(matmul_basic(ta, tb, out_dtype=out, cores=2)))
        else:
            outs.append(matmul_basic(a.astype(np.float16), b.astype(np.float16), out_dtype=out,
                                     cores=2))
    return outs


# asc.adv.Matmul: dtype, (m, n, k), cores; shapes with tails in M, N and K
ADV_CASES = (("float16", (100, 70, 300), 4), ("float32", (33, 50, 90), 6),
             ("bfloat16", (61, 45, 129), 3))


def run_adv_cases() -> list[np.ndarray]:
    """asc.adv.Matmul's results on ADV_CASES, then one with a bias."""
    rng = np.random.default_rng(11)
    types = {"float16": host.DataType.DT_FLOAT16, "float32": host.DataType.DT_FLOAT,
             "bfloat16": host.DataType.DT_BF16}
    outs = []
    for dtype, (m, n, k), cores in ADV_CASES:
        a = rng.standard_normal((m, k)).astype(np.float32) * 3
        b = rng.standard_normal((k, n)).astype(np.float32) / 3
        tiling = matmul_mix.make_tiling(m, n, k, cores=cores, in_type=types[dtype])
        if dtype == "bfloat16":
            a, b = pyasc.Tensor(a, dtype=pyasc.bfloat16), pyasc.Tensor(b, dtype=pyasc.bfloat16)
        else:
            a, b = a.astype(dtype), b.astype(dtype)
        outs.append(np.asarray(matmul_mix.matmul(a, b, tiling)))
    m, n, k = 75, 90, 140
    a = (rng.standard_normal((m, k)) * 3).astype(np.float16)
    b = (rng.standard_normal((k, n)) / 3).astype(np.float16)
    bias = rng.standard_normal(n).astype(np.float32)
    tiling = matmul_cube_only.make_tiling(m, n, k, cores=5, bias=True)
    outs.append(matmul_cube_only.matmul(a, b, bias, tiling))
    return outs


CHILD = (
    "import sys, numpy as np\n"
    "sys.path.insert(0, sys.argv[2])\n"
    "import test_cube_simd as t\n"
    "np.savez(sys.argv[1], *t.run_cases())\n"
    "np.savez(sys.argv[3], *t.run_adv_cases())\n"
)


def test_kernel_matmul_matches_portable(tmp_path):
    here = run_cases()
    adv_here = run_adv_cases()
    path, adv_path = tmp_path / "portable.npz", tmp_path / "adv_portable.npz"
    env = dict(os.environ, PYASC_CPU_SIMD="0")
    r = subprocess.run([sys.executable, "-c", CHILD, str(path), str(Path(__file__).parent),
                        str(adv_path)], env=env, capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    with np.load(adv_path) as portable:
        for i, mine in enumerate(adv_here):
            assert mine.tobytes() == portable[f"arr_{i}"].tobytes(), i
    # and they are the matmuls: the float32 case next to float64's product
    rng = np.random.default_rng(11)
    rng.standard_normal((100, 300)), rng.standard_normal((300, 70))  # the fp16 case's draws
    a = rng.standard_normal((33, 90)).astype(np.float32) * 3
    b = rng.standard_normal((90, 50)).astype(np.float32) / 3
    np.testing.assert_allclose(adv_here[1], a.astype(np.float64) @ b, rtol=1e-5, atol=1e-4)
    with np.load(path) as portable:
        theirs = [portable[f"arr_{i}"] for i in range(len(CASES))]
    for (dtype, shape, _), mine, ref in zip(CASES, here, theirs):
        assert mine.dtype == ref.dtype and mine.shape == ref.shape, (dtype, shape)
        assert mine.tobytes() == ref.tobytes(), (dtype, shape)
    # and they are the matmuls: the fp16 case next to float64's product
    a, b = make_inputs()[0]
    ref = a.astype(np.float16).astype(np.float64) @ b.astype(np.float16).astype(np.float64)
    np.testing.assert_allclose(here[0], ref, rtol=1e-4, atol=1e-3)
