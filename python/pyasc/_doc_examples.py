"""Example code that several docstrings share, and the decorator that puts
it in their place: a docstring line ``<<name>>`` becomes the example
``name``, each of its lines indented as the marker was."""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

_T = TypeVar("_T")


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


def with_examples(**examples: str) -> Callable[[_T], _T]:
    """A decorator that puts each example named in a line ``<<name>>`` of
    the function's or class's docstring in that line's place."""
    def insert(obj: _T) -> _T:
        lines = []
        for line in (obj.__doc__ or "").split("\n"):
            marker = line.strip()
            if marker.startswith("<<") and marker.endswith(">>"):
                indent = line[:len(line) - len(line.lstrip())]
                lines += [indent + part for part in examples[marker[2:-2]].split("\n")]
            else:
                lines.append(line)
        obj.__doc__ = "\n".join(lines)
        return obj
    return insert
