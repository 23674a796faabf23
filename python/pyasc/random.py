"""Seeded random tensors.

``Generator`` (from libasc) draws from the counter-based Philox4x32-10
generator: the same seed gives the same numbers whatever the device's thread
count (docs/random.md). ``rand``, ``randn`` and ``randint`` use a global
default generator, reseeded by ``manual_seed``.
"""

from __future__ import annotations

from typing import Any

from pyasc._C import Generator, Tensor, float64, int64

__all__ = [
    "Generator",
    "default_generator",
    "default_rng",
    "manual_seed",
    "rand",
    "randint",
    "randn",
]

_default = Generator()


def default_rng(seed: int | Generator | None = None) -> Generator:
    """A new Generator seeded with ``seed`` (None: from the OS); a Generator is returned as is."""
    if isinstance(seed, Generator):
        return seed
    return Generator(seed)


def manual_seed(seed: int) -> Generator:
    """Reseeds the global default generator used by rand, randn and randint; returns it."""
    global _default
    _default = Generator(seed)
    return _default


def default_generator() -> Generator:
    """The global default generator."""
    return _default


def _size(shape: tuple[Any, ...]) -> Any:
    # rand(2, 3) and rand((2, 3)) both mean shape (2, 3).
    if len(shape) == 1 and not isinstance(shape[0], int):
        return shape[0]
    return shape


def rand(*shape: Any, dtype: Any = float64, generator: Generator | None = None) -> Tensor:
    """Uniform numbers on [0, 1) of the given shape."""
    return (generator or _default).random(_size(shape), dtype=dtype)


def randn(*shape: Any, dtype: Any = float64, generator: Generator | None = None) -> Tensor:
    """Standard normal numbers of the given shape."""
    return (generator or _default).standard_normal(_size(shape), dtype=dtype)


def randint(low: int, high: int | None = None, size: Any = None, dtype: Any = int64,
            generator: Generator | None = None) -> Tensor:
    """Uniform integers in [low, high) ([0, low) without high)."""
    return (generator or _default).integers(low, high, size=size, dtype=dtype)
