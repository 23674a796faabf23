"""PyAsc's ``asc.language.core.dtype``: the dtypes by PyAsc's names and
``KnownTypes``, the class that holds them all (``KnownTypes.int32`` is
``asc.int32``). Every dtype is pyasc's own object; names pyasc lacks are
absent."""

from __future__ import annotations

from asc._reexport import export, kernel_language

#: PyAsc's dtype names, in its module's order
_DTYPES = ("void", "int8", "int16", "int32", "int64", "float16", "float32", "float64", "uint8",
           "uint16", "uint32", "uint64", "bfloat16", "bool_", "int_", "half", "float_", "double")

__all__ = export(globals(), ("DataType", *_DTYPES))


class KnownTypes:
    """The dtypes as attributes (PyAsc programs say ``KnownTypes as KT``,
    ``KT.int32``)."""


for _name in __all__:
    if _name != "DataType":
        setattr(KnownTypes, _name, globals()[_name])
del _name

__all__.append("KnownTypes")
