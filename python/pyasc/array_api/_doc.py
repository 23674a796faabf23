"""NumPy-style docstrings built from their parts, for the families of
functions that share most of their text (pyasc.array_api's reductions,
transforms, decompositions...)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

#: a Parameters entry that many functions share
X_INPUT = "x : Tensor\n    The input.\n"
#: the Parameters entry of a vector product's axis
VECTOR_AXIS = "axis : int, optional\n    The axis of the vectors (the last by default).\n"


def numpy_doc(summary: str, parameters: str, returns: str, examples: str, raises: str = "",
              returns_type: str = "Tensor") -> str:
    """A docstring: the summary line, then the Parameters section's entries
    (unindented, each line ending in a newline), the Returns section (its
    type and the indented description), Raises (its entries, when given)
    and the Examples."""
    text = f"{summary}\n\nParameters\n----------\n{parameters}\nReturns\n-------\n{returns_type}\n"
    text += "".join(f"    {line}\n" if line else "\n" for line in returns.split("\n"))
    if raises:
        text += f"\nRaises\n------\n{raises}"
    return text + f"\nExamples\n--------\n{examples}"


def named(fn: Any, name: str, doc: str) -> None:
    """Gives a function that a factory built its public name and doc."""
    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = doc



_F = TypeVar("_F", bound=Callable[..., Any])


def documented(summary: str, parameters: str, returns: str, examples: str, raises: str = "",
               returns_type: str = "Tensor") -> Callable[[_F], _F]:
    """A decorator that gives a function the docstring numpy_doc builds
    from these parts."""
    def document(fn: _F) -> _F:
        fn.__doc__ = numpy_doc(summary, parameters, returns, examples, raises, returns_type)
        return fn
    return document
