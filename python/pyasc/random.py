"""Seeded random tensors.

``Generator`` (from libasc) draws from the counter-based Philox4x32-10
generator: the same seed gives the same numbers whatever the device's thread
count (docs/random.md). ``rand``, ``randn`` and ``randint`` use a global
default generator, reseeded by ``manual_seed``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

from pyasc._C import Generator, Tensor, float64, int64
from pyasc._docs import named, numpy_doc

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
    """A new Generator seeded with ``seed``, as NumPy's ``default_rng``.

    Parameters
    ----------
    seed : int or Generator or None, optional
        The seed; None (the default) seeds from the OS, and a Generator is
        returned as it is.

    Returns
    -------
    Generator
        The generator.

    Examples
    --------
    >>> a = pyasc.random.default_rng(7).random(3)
    >>> b = pyasc.random.default_rng(7).random(3)
    >>> bool((a == b).all())
    True
    """
    if isinstance(seed, Generator):
        return seed
    return Generator(seed)


def manual_seed(seed: int) -> Generator:
    """Reseeds the global default generator that rand, randn and randint use.

    Parameters
    ----------
    seed : int
        The seed: the same seed gives the same numbers (docs/random.md).

    Returns
    -------
    Generator
        The new default generator.

    Examples
    --------
    >>> pyasc.manual_seed(0)
    Generator(Philox4x32-10, seed=0)
    >>> a = pyasc.rand(3)
    >>> _ = pyasc.manual_seed(0)
    >>> bool((pyasc.rand(3) == a).all())
    True
    """
    global _default
    _default = Generator(seed)
    return _default


def default_generator() -> Generator:
    """The global default generator, which rand, randn and randint use.

    Returns
    -------
    Generator
        The generator manual_seed last made (one seeded from the OS at
        first).

    Examples
    --------
    >>> g = pyasc.manual_seed(3)
    >>> pyasc.random.default_generator() is g
    True
    """
    return _default


def _size(shape: tuple[Any, ...]) -> Any:
    # rand(2, 3) and rand((2, 3)) both mean shape (2, 3).
    if len(shape) == 1 and not isinstance(shape[0], int):
        return shape[0]
    return shape


class _Sampler(Protocol):
    """rand's signature."""

    def __call__(self, *shape: Any, dtype: Any = float64,
                 generator: Generator | None = None) -> Tensor: ...


_GENERATOR = "generator : Generator, optional\n" \
             "    The generator to draw from; the global default one by default.\n"


def _sampler(name: str, draw: Callable[..., Tensor], summary: str, returns: str,
             examples: str) -> _Sampler:
    """The function `name`: draw(generator, shape, dtype=dtype)."""
    def sample(*shape: Any, dtype: Any = float64, generator: Generator | None = None) -> Tensor:
        return draw(generator or _default, _size(shape), dtype=dtype)
    named(sample, name, numpy_doc(
        summary, "*shape : int or tuple of int\n    The shape, as separate ints or one tuple.\n"
        "dtype : dtype, optional\n    float64 (the default) or float32.\n" + _GENERATOR, returns,
        ">>> _ = pyasc.manual_seed(0)\n" + examples,
        "DTypeError\n    If dtype is not float32 or float64.\n"
        "InvalidValueError\n    If a dimension is negative.\n"))
    return sample


rand = _sampler("rand", Generator.random, "Uniform random numbers on [0, 1) of the given shape.",
                "The numbers.",
                ">>> x = pyasc.rand(2, 3)\n>>> x.shape, x.dtype\n((2, 3), pyasc.float64)\n"
                ">>> bool(((x >= 0) & (x < 1)).all())\nTrue")
randn = _sampler("randn", Generator.standard_normal,
                 "Random numbers from the standard normal distribution, of the given shape.",
                 "The numbers, of mean 0 and variance 1.",
                 ">>> x = pyasc.randn((1000,), dtype=pyasc.float32)\n"
                 ">>> x.dtype, abs(float(x.mean())) < 0.2, 0.8 < float(x.std()) < 1.2\n"
                 "(pyasc.float32, True, True)")


def randint(low: int, high: int | None = None, size: Any = None, dtype: Any = int64,
            generator: Generator | None = None) -> Tensor:
    """Uniform random integers in [low, high).

    Parameters
    ----------
    low : int
        The lowest value; or, without high, the end: the values are then in
        [0, low).
    high : int, optional
        One above the highest value.
    size : int or tuple of int, optional
        The shape; None (the default) for one value, as a 0-d tensor.
    dtype : dtype, optional
        An integer dtype, int64 by default.
    generator : Generator, optional
        The generator to draw from; the global default one by default.

    Returns
    -------
    Tensor
        The integers.

    Raises
    ------
    InvalidValueError
        If low >= high.

    Examples
    --------
    >>> _ = pyasc.manual_seed(0)
    >>> x = pyasc.randint(5, size=(4,))
    >>> x.shape, x.dtype
    ((4,), pyasc.int64)
    >>> bool(((x >= 0) & (x < 5)).all())
    True
    """
    return (generator or _default).integers(low, high, size=size, dtype=dtype)
