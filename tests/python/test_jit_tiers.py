"""Tiered kernel builds (src/compiler/jit.c, "tiers"; docs/architecture.md).

A new kernel is first built by TinyCC and runs at once; the optimising build
replaces it in the background and goes to the disk cache. Each test runs
programs in fresh processes with their own empty caches:
- every kernel of a varied set (vector maths and SLEEF, float16 casts and
  rounding modes, softmax, the cube unit with int8 and float16, Matmul with a
  fused epilogue, atomics of 1-, 2- and 4-byte types, fused operators) gives
  the same bits from TinyCC's build (PYASC_JIT_TIERS=first) as from the
  system compiler's (PYASC_JIT_TIERS=0);
- with the tiers on, a kernel runs before the optimising build ends, then on
  it, and the next process finds it in the cache.
"""

from __future__ import annotations

import hashlib
import json
import os
import pathlib
import shutil
import subprocess
import sys
import textwrap

import numpy as np
import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.skipif(shutil.which("tcc") is None,
                                reason="TinyCC (tcc) is not on PATH; `make deps` installs it")

# Runs a varied set of kernels and saves every result in argv[1] (an .npz).
_PROGRAMS = textwrap.dedent(r"""
    import sys
    import numpy as np
    sys.path.insert(0, sys.argv[2])  # examples/
    import pyasc
    import pyasc as asc
    from matmul_basic import matmul_basic
    from matmul_leakyrelu import make_tiling, matmul_leakyrelu
    from leaky_relu_fp16 import leaky_relu_fp16
    from softmax import softmax
    from scale_relu import scale_relu

    rng = np.random.default_rng(7)
    out = {}
    x = rng.standard_normal(8 * 2048).astype(np.float32)
    out["scale_relu"] = scale_relu(x, 1.7, -0.3)
    for mode in (asc.RoundMode.CAST_RINT, asc.RoundMode.CAST_ODD):
        out[f"leaky_{int(mode)}"] = leaky_relu_fp16((x * 300).astype(np.float16), 0.1, mode)
    out["softmax"] = softmax(rng.standard_normal((32, 256)).astype(np.float32))
    a = rng.standard_normal((64, 96)).astype(np.float16)
    b = rng.standard_normal((96, 48)).astype(np.float16)
    out["matmul_f16"] = matmul_basic(a, b)
    ai = rng.integers(-128, 128, (32, 64)).astype(np.int8)
    bi = rng.integers(-128, 128, (64, 32)).astype(np.int8)
    out["matmul_i8"] = matmul_basic(ai, bi)
    bias = rng.standard_normal(256).astype(np.float32)
    out["matmul_leakyrelu"] = matmul_leakyrelu(
        rng.standard_normal((512, 64)).astype(np.float16),
        rng.standard_normal((64, 256)).astype(np.float16), bias, 0.01, make_tiling(512, 256, 64))

    @asc.jit
    def atomic_add(x: asc.GlobalAddress, y: asc.GlobalAddress, kind: asc.ConstExpr[int],
                   n: asc.ConstExpr[int]):
        g = asc.GlobalTensor()
        g.set_global_buffer(x + asc.get_block_idx() * n, n)
        t = asc.LocalTensor(x.dtype, asc.TPosition.VECOUT, 0, n)
        asc.data_copy(t, g, n)
        asc.set_flag(asc.HardEvent.MTE2_MTE3, 0)
        asc.wait_flag(asc.HardEvent.MTE2_MTE3, 0)
        gy = asc.GlobalTensor()
        gy.set_global_buffer(y, n)
        asc.set_store_atomic_config(asc.AtomicDtype(kind), asc.AtomicOp.ATOMIC_SUM)
        asc.data_copy(gy, t, n)
        asc.set_atomic_none()

    for dt, kind in ((np.int8, asc.AtomicDtype.ATOMIC_S8), (np.int16, asc.AtomicDtype.ATOMIC_S16),
                     (np.float16, asc.AtomicDtype.ATOMIC_F16),
                     (np.float32, asc.AtomicDtype.ATOMIC_F32)):
        src = rng.integers(-3, 4, 16 * 64).astype(dt)
        acc = np.ones(64, dt)
        atomic_add[16](src, acc, int(kind), 64)
        out[f"atomic_{np.dtype(dt).name}"] = acc

    @pyasc.op
    def mix(x, y):
        return pyasc.exp(x) * y + pyasc.sigmoid(x) - pyasc.tanh(y)

    xs, ys = (pyasc.Tensor(rng.standard_normal(1 << 14).astype(np.float32)) for _ in range(2))
    out["op_mix"] = mix(xs, ys).numpy()
    xh = pyasc.Tensor(rng.standard_normal(1 << 14).astype(np.float16))
    out["op_half"] = mix(xh, xh).numpy()
    np.savez(sys.argv[1], **out)
""")

# One kernel launched twice around the optimising build, then a report.
_SWAP = textwrap.dedent(r"""
    import json, sys, time
    import numpy as np
    import pyasc as asc
    from pyasc import _C

    @asc.jit
    def triple(x: asc.GlobalAddress, z: asc.GlobalAddress, n: asc.ConstExpr[int]):
        xg = asc.GlobalTensor()
        zg = asc.GlobalTensor()
        xg.set_global_buffer(x + asc.get_block_idx() * n, n)
        zg.set_global_buffer(z + asc.get_block_idx() * n, n)
        t = asc.LocalTensor(x.dtype, asc.TPosition.VECCALC, 0, n)
        asc.data_copy(t, xg, n)
        asc.muls(t, t, 3.0, n)
        asc.data_copy(zg, t, n)

    n = int(sys.argv[2]) if len(sys.argv) > 2 else 64
    x = np.arange(4 * n, dtype=np.float32)
    z = np.zeros_like(x)
    compiled = triple.compile(x, z, n)
    tiers = [compiled.native.tier]
    triple[4](x, z, n)
    tiers.append(compiled.native.tier)
    first = bool((z == 3 * x).all())
    _C.jit_wait_tiers()
    tiers.append(compiled.native.tier)
    z[:] = 0
    triple[4](x, z, n)
    print(json.dumps({"hit": compiled.cache_hit, "first": first, "tiers": tiers,
                      "after": bool((z == 3 * x).all()),
                      "entries": sorted(f.rsplit(".", 1)[1] for f in __import__("os").listdir(sys.argv[1])
                                        if f.startswith("triple"))}))
""")


def _run(script: str, tiers: str, cache: pathlib.Path, *args: str, **env_extra: str) -> str:
    """Runs script (from a file: kernels need their source) in a fresh
    process on cache with PYASC_JIT_TIERS=tiers; its standard output."""
    cache.mkdir(mode=0o700, exist_ok=True)
    # one file per script: its path is in the kernel's source, so in the cache key
    path = cache.parent / f"program-{hashlib.sha256(script.encode()).hexdigest()[:12]}.py"
    path.write_text(script)
    env = dict(os.environ, PYASC_JIT_TIERS=tiers, PYASC_CACHE_DIR=str(cache),
               PYTHONPATH=os.pathsep.join(sys.path))
    env.pop("PYASC_CC", None)
    env.update(env_extra)
    done = subprocess.run([sys.executable, str(path), *args], env=env, capture_output=True,
                          text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    return done.stdout


def _so_files(cache: pathlib.Path) -> list[str]:
    return [p.name for p in cache.iterdir() if p.suffix == ".so"]


def test_first_tier_gives_the_optimised_builds_bits(tmp_path: pathlib.Path) -> None:
    results = {}
    for tiers in ("first", "0"):
        cache = tmp_path / f"cache-{tiers}"
        npz = tmp_path / f"{tiers}.npz"
        _run(_PROGRAMS, tiers, cache, str(npz), str(ROOT / "examples"))
        results[tiers] = dict(np.load(npz))
        # the first tier alone publishes nothing: those kernels were TinyCC's
        assert (_so_files(cache) == []) == (tiers == "first")
    first, optimised = results["first"], results["0"]
    assert first.keys() == optimised.keys() and len(first) == 13
    for name in first:
        assert first[name].dtype == optimised[name].dtype, name
        assert first[name].tobytes() == optimised[name].tobytes(), name


def test_the_optimising_build_replaces_the_first_and_reaches_the_cache(
        tmp_path: pathlib.Path) -> None:
    cache = tmp_path / "cache"
    report = json.loads(_run(_SWAP, "1", cache, str(cache)).splitlines()[-1])
    # the build and the first launch are TinyCC's; after the wait, cc's runs
    assert report["tiers"][0] == 1 and report["tiers"][2] == 2
    assert {k: v for k, v in report.items() if k != "tiers"} == {
        "hit": False, "first": True, "after": True, "entries": ["so", "sum"]}
    again = json.loads(_run(_SWAP, "1", cache, str(cache)).splitlines()[-1])
    assert again["hit"] is True and again["first"] and again["after"]
    assert again["tiers"] == [2, 2, 2]


def test_a_large_launch_waits_for_the_optimising_build(tmp_path: pathlib.Path) -> None:
    """Over PYASC_JIT_TIER1_BYTES of arguments, the first launch already
    runs the optimising build (the first tier's loops are much slower)."""
    cache = tmp_path / "cache"
    report = json.loads(_run(_SWAP, "1", cache, str(cache), "4096",
                             PYASC_JIT_TIER1_BYTES="65536").splitlines()[-1])
    assert report["tiers"] == [1, 2, 2] and report["first"] and report["after"]


def test_a_cube_kernel_builds_in_one_tier(tmp_path: pathlib.Path) -> None:
    script = textwrap.dedent('''
        import sys
        import numpy as np
        sys.path.insert(0, sys.argv[1])
        from matmul_basic import matmul_basic, matmul_basic_kernel
        a = np.ones((32, 32), np.float16)
        assert (matmul_basic(a, a) == 32).all()
        print(sorted({k.native.tier for k in matmul_basic_kernel._cache.values()}))
    ''')
    out = _run(script, "1", tmp_path / "cache", str(ROOT / "examples"))
    assert out.splitlines()[-1] == "[2]"


def test_an_explicit_compiler_builds_in_one_tier(tmp_path: pathlib.Path) -> None:
    """PYASC_CC picks the one compiler: the kernel is on disk when the
    launch returns, before any wait."""
    cache = tmp_path / "cache"
    script = _SWAP.replace("_C.jit_wait_tiers()", "assert len([f for f in __import__('os')"
                           ".listdir(sys.argv[1]) if f.endswith('.so')]) == 1")
    report = json.loads(_run(script, "1", cache, str(cache), PYASC_CC="cc").splitlines()[-1])
    assert report["after"] is True and report["entries"] == ["so", "sum"]
