"""Docstrings built from their parts, for the families of functions that
share most of their text (pyasc.array_api's reductions, transforms,
decompositions...), and text (examples, sections) that several
docstrings share: a docstring line ``<<name>>`` becomes the part ``name``
(with_parts), each of its lines indented as the marker was."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

_T = TypeVar("_T")
_F = TypeVar("_F", bound=Callable[..., Any])

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


def documented(summary: str, parameters: str, returns: str, examples: str, raises: str = "",
               returns_type: str = "Tensor") -> Callable[[_F], _F]:
    """A decorator that gives a function the docstring numpy_doc builds
    from these parts."""
    def document(fn: _F) -> _F:
        fn.__doc__ = numpy_doc(summary, parameters, returns, examples, raises, returns_type)
        return fn
    return document


def _fill_ones(params: str, length: str, copy: str) -> str:
    """The fill_ones kernel's example: ``params`` after n, a local tensor of
    ``length`` ones, copied out by the ``copy`` lines."""
    return (">>> @pyasc.jit\n"
            f"... def fill_ones(z: pyasc.GlobalAddress, n: pyasc.ConstExpr[int]{params}):\n"
            "...     zg = pyasc.GlobalTensor()\n"
            "...     zg.set_global_buffer(z, n)\n"
            f"...     c = pyasc.LocalTensor(z.dtype, pyasc.TPosition.VECOUT, 0, {length})\n"
            f"...     pyasc.duplicate(c, 1.0, {length})\n"
            "...     pyasc.set_flag(pyasc.HardEvent.V_MTE3, 0)\n"
            "...     pyasc.wait_flag(pyasc.HardEvent.V_MTE3, 0)\n" + copy)


#: a ``@pyasc.jit`` kernel that fills the n floats at z with ones
FILL_ONES = _fill_ones("", "n", "...     pyasc.data_copy(zg, c, n)")
#: fill_ones in tiles of a ``ConstExpr`` size, as a tuned kernel has them
FILL_ONES_TILED = _fill_ones(",\n...               tile: pyasc.ConstExpr[int]", "tile",
                             "...     for i in range(n // tile):\n"
                             "...         pyasc.data_copy(zg[i * tile:], c, tile)")


def with_parts(**parts: str) -> Callable[[_T], _T]:
    """A decorator that puts each part named in a line ``<<name>>`` of the
    function's or class's docstring in that line's place."""
    def insert(obj: _T) -> _T:
        lines = []
        for line in (obj.__doc__ or "").split("\n"):
            marker = line.strip()
            if marker.startswith("<<") and marker.endswith(">>"):
                indent = line[:len(line) - len(line.lstrip())]
                lines += [indent + part if part else "" for part in parts[marker[2:-2]].split("\n")]
            else:
                lines.append(line)
        obj.__doc__ = "\n".join(lines)
        return obj
    return insert
