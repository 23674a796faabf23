"""Shared fixtures of the pyasc Python suite.

Every test runs under `no_leaks`: afterwards the device is synchronised, the
memory limit and caching are reset, and the allocator must hold exactly as
many live bytes and blocks as before the test. A test that leaks a
DeviceBuffer, or leaves a deferred device error behind, fails here.

`--sample-params=K` keeps every test but only every K-th case of each
parametrized one (its first always), and a K-th of each property test's
examples (hypothesis' max_examples): `make test`'s ASan+UBSan pass reaches
the same C paths with a fraction of the cases, and the plain pass runs them
all. The cases left out are reported as deselected.
"""

from __future__ import annotations

import gc
import os
import subprocess
import sys
from typing import Any

import hypothesis
import pytest

import pyasc
from pyasc import memory

# Kernels build with the system compiler alone: tests that look at the cache
# or count builds must not race an optimising build running behind a first,
# TinyCC tier. test_jit_tiers.py tests the tiers (an explicit setting wins).
os.environ.setdefault("PYASC_JIT_TIERS", "0")


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--sample-params", type=int, default=1, metavar="K",
                     help="run every K-th case of each parametrized test (default: all)")
    parser.addoption("--examples-scale", type=int, default=1, metavar="N",
                     help="draw N times each property test's hypothesis examples: the "
                          "fuzz tests' longer runs (default: 1, the bounded run)")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Keeps the first and every K-th case of each parametrized test under
    --sample-params=K (in collection order, so every worker agrees)."""
    _scale_examples(items, config.getoption("--examples-scale"))
    k = config.getoption("--sample-params")
    if k <= 1:
        return
    seen: dict[str, int] = {}
    kept, dropped = [], []
    for item in items:
        if not hasattr(item, "callspec"):
            kept.append(item)
            continue
        key = item.nodeid.split("[", 1)[0]
        index = seen.get(key, 0)
        seen[key] = index + 1
        (kept if index % k == 0 else dropped).append(item)
    if dropped:
        config.hook.pytest_deselected(items=dropped)
        items[:] = kept
    _sample_examples(items, k)


def _property_tests(items: list[pytest.Item]) -> list[Any]:
    """Each hypothesis test among items, once."""
    tests: dict[int, Any] = {}
    for item in items:
        test = getattr(item, "obj", None)
        if getattr(test, "_hypothesis_internal_use_settings", None) is not None:
            tests.setdefault(id(test), test)
    return list(tests.values())


def _scale_examples(items: list[pytest.Item], n: int) -> None:
    """Draws n times each property test's examples (--examples-scale)."""
    if n <= 1:
        return
    for test in _property_tests(items):
        current = test._hypothesis_internal_use_settings
        test._hypothesis_internal_use_settings = hypothesis.settings(
            current, max_examples=current.max_examples * n)


def _sample_examples(items: list[pytest.Item], k: int) -> None:
    """Runs a k-th of each property test's examples (at least 10): the
    examples hypothesis draws first are the small, boundary ones, which
    reach the C paths that the rest repeat."""
    for test in _property_tests(items):
        current = test._hypothesis_internal_use_settings
        examples = max(10, current.max_examples // k)
        test._hypothesis_internal_use_settings = hypothesis.settings(current, max_examples=examples)


def _live() -> tuple[int, int, int]:
    stats = memory.memory_stats()
    return stats["allocated_bytes"], stats["requested_bytes"], stats["active_blocks"]


@pytest.fixture(autouse=True)
def no_leaks():
    """Fails the test if it leaves device memory allocated or an error pending."""
    pyasc.synchronize()
    gc.collect()
    # What survives is older than the test: frozen, the collection after the
    # test looks only at what the test made (a full one costs 50-300 ms once
    # torch, JAX and TensorFlow are loaded, twice a test).
    gc.freeze()
    before = _live()
    yield
    gc.collect()
    try:
        pyasc.synchronize()
    finally:
        memory.set_memory_limit(None)
        memory.set_caching(True)
    after = _live()
    assert after == before, f"device memory leaked: (allocated, requested, blocks) {before} -> {after}"
    # Nothing the test did may leave the current stream pointing elsewhere.
    assert pyasc.current_stream() == pyasc.default_stream()


@pytest.fixture
def stream_pair():
    """Two fresh streams, destroyed after the test."""
    s1, s2 = pyasc.Stream(), pyasc.Stream()
    yield s1, s2
    for s in (s1, s2):
        if s.handle:
            s.destroy()


@pytest.fixture
def run_python():
    """Runs `python3 args...` in a subprocess with this process's environment
    (PYTHONPATH, and LD_PRELOAD under the sanitizers); returns the
    CompletedProcess."""

    def run(*args: str, env_extra: dict[str, str] | None = None, timeout: float = 60):
        env = dict(os.environ)
        if env_extra:
            env.update(env_extra)
        return subprocess.run(
            [sys.executable, *args],
            capture_output=True,
            text=True,
            env=env,
            timeout=timeout,
            check=False,
        )

    return run
