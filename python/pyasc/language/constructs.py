"""More of PyAsc's core names: ``range``/``static_range``, ``property`` with
the chip's memory-size constants, ``ceildiv``, ``DataType``, the dtype
spellings ``half``/``float_``/``int_``/``double``, ``LocalTensorAuto`` and
``array``. Inside kernels the front end (pyasc.language.codegen and pyasc.language.lower)
recognises them; outside, ``ceildiv``, ``DataType`` and the constants work
on the host too."""

from __future__ import annotations

import builtins as _py
from dataclasses import dataclass
from typing import Any

from pyasc import _C
from pyasc.language.core import KernelBuiltin, KernelObject


class range:  # noqa: A001  (PyAsc's name)
    """``asc.range(stop)`` / ``(start, stop[, step])``: a run-time loop in a
    kernel, like the builtin ``range``."""

    def __init__(self, *args: Any) -> None:
        if not 1 <= len(args) <= 3:
            raise ValueError(f"range expects from 1 to 3 arguments, got {len(args)}")
        self.args = args


class static_range(range):
    """``asc.static_range(...)``: a loop unrolled at compile time; its bounds
    must be compile-time integers and the loop variable is one too."""


@dataclass(frozen=True)
class Property:
    """A constant of the AI core that ``asc.property(prop)`` reads; ``attr``
    names the device property it comes from, less ``reserved`` bytes."""

    name: str
    attr: str | None
    value: int | None = None
    reserved: int = 0


#: PyAsc's property constants (Ascend C's ``AscendC::TOTAL_L1_SIZE``...);
#: sizes come from the current device's properties (the simulated 910B: UB
#: 192 KiB, L1 512 KiB, L0A/L0B 64 KiB, L0C 128 KiB). TOTAL_L1_SIZE is L1
#: less the 128 bytes CANN's Matmul server keeps (KFC_L1_RESERVER_SIZE), as
#: CANN's headers define it for the 910B.
KFC_L1_RESERVER_SIZE = 128
TOTAL_UB_SIZE = Property("TOTAL_UB_SIZE", "ub_size")
TOTAL_L1_SIZE = Property("TOTAL_L1_SIZE", "l1_size", reserved=KFC_L1_RESERVER_SIZE)
TOTAL_L0A_SIZE = Property("TOTAL_L0A_SIZE", "l0a_size")
TOTAL_L0B_SIZE = Property("TOTAL_L0B_SIZE", "l0b_size")
TOTAL_L0C_SIZE = Property("TOTAL_L0C_SIZE", "l0c_size")
ONE_BLK_SIZE = Property("ONE_BLK_SIZE", "data_block_size")
DEFAULT_C0_SIZE = Property("DEFAULT_C0_SIZE", None, 32)

PROPERTIES = (TOTAL_UB_SIZE, TOTAL_L1_SIZE, TOTAL_L0A_SIZE, TOTAL_L0B_SIZE, TOTAL_L0C_SIZE,
              ONE_BLK_SIZE, DEFAULT_C0_SIZE)


def property(prop: Property) -> int:  # noqa: A001  (PyAsc's name)
    """The value of a property constant (an int known at compile time)."""
    if not isinstance(prop, Property):
        raise TypeError(f"property() takes one of pyasc's property constants such as "
                        f"pyasc.TOTAL_L1_SIZE, not {prop!r}")
    if prop.attr is None:
        return int(prop.value)  # type: ignore[arg-type]
    return int(getattr(_C.get_device_properties(), prop.attr)) - prop.reserved


def ceildiv(x: int, y: int) -> int:
    """``(x + y - 1) // y``: how many y-sized pieces cover x (host and kernel)."""
    return (x + y - 1) // y


#: PyAsc's dtype spellings and the pyasc dtypes they name.
DTYPE_ALIASES = {"half": "float16", "float_": "float32", "int_": "int32", "double": "float64",
                 "bool_": "bool"}


class _DataTypeMeta(type):
    def __instancecheck__(cls, obj: Any) -> bool:
        return isinstance(obj, _C.dtype)


class DataType(metaclass=_DataTypeMeta):
    """``asc.DataType("int32")``: the kernel dtype of that name (a pyasc
    dtype; PyAsc's spellings ``half``, ``float_``, ``int_``, ``double`` are
    accepted)."""

    def __new__(cls, name: str) -> Any:  # type: ignore[misc]
        if not isinstance(name, str):
            raise TypeError(f"DataType() takes a dtype name, not {name!r}")
        canonical = DTYPE_ALIASES.get(name, name)
        try:
            return _C.dtype(canonical)
        except (TypeError, ValueError, _C.Error):
            raise TypeError(f"unknown dtype name {name!r}") from None


half = _C.float16
float_ = _C.float32
int_ = _C.int32
double = _C.float64


def static_assert(test: bool, message: str | None = None) -> None:
    """A compile-time assertion: AssertionError (a CompileError at the line
    inside kernels) when test is false; test must be a compile-time bool."""
    if not isinstance(test, bool):
        raise TypeError(f"static_assert needs a compile-time bool, got {type(test).__name__}")
    if not test:
        raise AssertionError(message if message is not None else "static_assert failed")


number = KernelBuiltin("number", "number(value, dtype): value as a scalar of dtype (int or "
                                 "float by the dtype's kind)")


class LocalTensorAuto(KernelObject):
    """``LocalTensorAuto(dtype, length)``: a LocalTensor whose Unified Buffer
    space is allocated automatically (no TPipe/TQue); kernels that use it get
    their pipes synchronised automatically, as PyAsc's insert_sync does."""


array = KernelBuiltin(
    "array", "array(dtype, length, fill_value=None) or array(dtype, values): a small "
             "compile-time-sized array of scalars in a kernel, indexed with []")

_ = _py  # the builtins stay reachable under a private name
