"""Module-level ops and functions for tests/python/test_pickle.py's spawned
workers (a child process imports this module to find them)."""

from __future__ import annotations

from typing import Any

import pyasc


@pyasc.op
def scale_shift(x: Any, alpha: float = 2.0) -> Any:
    """x * alpha + 1."""
    return x * alpha + 1.0


def run_in_worker(job: tuple[Any, Any]) -> Any:
    """Applies a pickled op to a pickled tensor in the worker; returns the
    result (a tensor, pickled back) and the worker's view of the op's name."""
    op, tensor = job
    return op(tensor), op.name


def draw(generator: pyasc.Generator) -> Any:
    """The next three numbers of a pickled generator."""
    return generator.random((3,))
