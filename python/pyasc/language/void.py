"""``asc.void`` (``pyasc.language.core.void``): PyAsc's name for "no element type" (its IR's none type).

No tensor, scalar or API argument has it, in PyAsc or here: it exists so
that programs naming it import, and it answers PyAsc's DataType questions
(``is_void()`` is True; ``sizeof()`` raises ValueError, as PyAsc's does).
"""

from __future__ import annotations


class VoidType:
    """The type of ``asc.void``: a DataType-like object with no size."""

    name = "void"

    def __repr__(self) -> str:
        return "asc.void"

    def __str__(self) -> str:
        return self.name

    def is_void(self) -> bool:
        """Always True."""
        return True

    def is_int(self) -> bool:
        """Always False: void has no kind."""
        return False

    is_float = is_signed = is_unsigned = is_numeric = is_int

    def sizeof(self) -> int:
        """Raises ValueError: void has no bit width."""
        raise ValueError("DataType does not have a bitwidth: void")


#: The one instance.
void = VoidType()
