"""Where the first call of a new @pyasc.op signature spends its time, and
the fused kernels' throughput, for comparing kernel compiler settings.

The first call runs in fresh interpreters, each with an empty kernel cache
(median of ``--runs``), then once more in a fresh interpreter on that cache.
With TinyCC on PATH the first call is the first tier's build (PYASC_JIT_TIERS,
docs/architecture.md); set PYASC_JIT_TIERS=0 to time the system compiler alone. Its phases: ``pyasc._C.jit_build`` (the compiler
run, the cache files and dlopen; timed by wrapping it) and the rest (trace,
plan, IR, C emission, the run itself); and the compiler alone, timed by
compiling the kernel source the call dumped (PYASC_DUMP_PATH) with the
flags jit.c uses. The throughput rows time 16M float32 ``(x + y) * 2.0`` and
``exp(x) * y + x`` (best of 7, synchronised) against NumPy in the same run.
Usage: PYTHONPATH=build/dev/stage python bench/first_call.py [--runs N] [--cc-flags "..."]
"""

from __future__ import annotations

import argparse
import os
import shlex
import statistics
import subprocess
import sys
import tempfile
import time
from typing import Callable

import numpy as np

import pyasc

_FIRST = """
import time, numpy as np
import pyasc
from pyasc import _C
spent = {"jit_build": 0.0}
_build = _C.jit_build
def _timed_build(*a, **k):  # the compiler run, the disk cache and dlopen
    t = time.perf_counter()
    try:
        return _build(*a, **k)
    finally:
        spent["jit_build"] += time.perf_counter() - t
_C.jit_build = _timed_build
@pyasc.op
def axpy2(x, y):
    return (x + y) * 2.0
x = pyasc.Tensor(np.ones(1 << 20, np.float32))  # above PYASC_OP_FUSE_MIN: a kernel
t0 = time.perf_counter()
axpy2(x, x); pyasc.synchronize()
print(f"{(time.perf_counter() - t0) * 1e3:.2f} {spent['jit_build'] * 1e3:.2f}")
"""

# The flags of src/compiler/jit.c (cc_flags, and -mavx2 where the CPU has AVX2),
# passed by --cc-flags when they change.
_DEFAULT_FLAGS = "-std=c11 -O1 -ftree-vectorize -pipe -fPIC -shared -fno-strict-aliasing " \
                 "-ffp-contract=off" + (" -mavx2" if pyasc._C._vector_isa() != "generic" else "")


def first_calls(runs: int) -> tuple[list[float], list[float], list[float], str]:
    """First-call and jit_build times (ms) of ``runs`` fresh processes, the
    first call of a second fresh process on each one's cache (the optimised
    build, published when the first exited), and one dumped kernel source."""
    times, builds, cached, source = [], [], [], ""
    for _ in range(runs):
        with tempfile.TemporaryDirectory() as tmp:
            cache, dump = os.path.join(tmp, "cache"), os.path.join(tmp, "dump")
            os.mkdir(cache, 0o700)
            env = dict(os.environ, PYASC_CACHE_DIR=cache, PYASC_DUMP_PATH=dump)
            out = subprocess.run([sys.executable, "-c", _FIRST], env=env, capture_output=True,
                                 text=True, check=True, timeout=300)
            total, build = out.stdout.split()[-2:]
            times.append(float(total))
            builds.append(float(build))
            again = subprocess.run([sys.executable, "-c", _FIRST], env=env, capture_output=True,
                                   text=True, check=True, timeout=300)
            cached.append(float(again.stdout.split()[-2]))
            c_files = [f for f in os.listdir(dump) if f.endswith(".c")]
            with open(os.path.join(dump, c_files[0]), encoding="utf-8") as f:
                source = f.read()
    return times, builds, cached, source


def compile_times(source: str, flags: list[str], runs: int) -> list[float]:
    """Wall times (ms) of the system compiler building ``source`` as jit.c does."""
    cc = os.environ.get("PYASC_CC", "cc")
    times = []
    with tempfile.TemporaryDirectory() as tmp:
        c_path, so_path = os.path.join(tmp, "k.c"), os.path.join(tmp, "k.so")
        with open(c_path, "w", encoding="utf-8") as f:
            f.write(source)
        for _ in range(runs):
            t0 = time.perf_counter()
            subprocess.run([cc, *flags, "-o", so_path, c_path, "-lm"], check=True)
            times.append((time.perf_counter() - t0) * 1e3)
    return times


def throughput() -> None:
    # the operators and the timer of the full bench (run from bench/, beside it)
    from op_fusion import axpy2, best, expmix, synced

    n = 16 * 1024 * 1024
    rng = np.random.default_rng(0)
    xa, ya = rng.random(n, dtype=np.float32), rng.random(n, dtype=np.float32)
    x, y = pyasc.Tensor(xa), pyasc.Tensor(ya)

    def best_ms(fn: Callable[[], object]) -> float:
        fn()  # the first call builds or warms up
        pyasc._C.jit_wait_tiers()  # time the optimised build, not TinyCC's
        return best(fn, repeats=7) * 1e3

    for title, op, np_fn in (("(x + y) * 2.0", axpy2, lambda: (xa + ya) * np.float32(2.0)),
                             ("exp(x) * y + x", expmix, lambda: np.exp(xa) * ya + xa)):
        fused = best_ms(synced(lambda: op(x, y)))
        numpy_ms = best_ms(np_fn)
        print(f"{title:<16} fused {fused:7.2f} ms   NumPy {numpy_ms:7.2f} ms   "
              f"NumPy/fused {numpy_ms / fused:4.2f}x")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--cc-flags", default=_DEFAULT_FLAGS)
    parser.add_argument("--no-throughput", action="store_true")
    args = parser.parse_args()
    print(f"load: {os.getloadavg()[0]:.2f} {os.getloadavg()[1]:.2f} {os.getloadavg()[2]:.2f}")
    first, builds, cached, source = first_calls(args.runs)
    cc = compile_times(source, shlex.split(args.cc_flags), args.runs)
    med = statistics.median
    print(f"first call (fresh process, empty cache): median {med(first):.1f} ms "
          f"{sorted(round(t) for t in first)}")
    print(f"  jit_build (compiler, cache files, dlopen): median {med(builds):.1f} ms; "
          f"trace, plan, IR, C emission and the run: "
          f"{med([t - b for t, b in zip(first, builds)]):.1f} ms")
    print(f"  the compiler alone, outside pyasc ({args.cc_flags}): median {med(cc):.1f} ms")
    print(f"first call of a fresh process on that cache: median {med(cached):.1f} ms "
          f"{sorted(round(t) for t in cached)}")
    if not args.no_throughput:
        throughput()


if __name__ == "__main__":
    main()
