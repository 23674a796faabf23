"""The Array API's data types and data type functions over pyasc.dtype:
the dtype objects, iinfo/finfo, isdtype, result_type, can_cast, astype."""

from __future__ import annotations

import builtins
from dataclasses import dataclass
from typing import Any

import numpy as np

from pyasc import _C

bool = _C.bool_  # noqa: A001 - the standard's name
int8, int16, int32, int64 = _C.int8, _C.int16, _C.int32, _C.int64
uint8, uint16, uint32, uint64 = _C.uint8, _C.uint16, _C.uint32, _C.uint64
float32, float64 = _C.float32, _C.float64
complex64, complex128 = _C.complex64, _C.complex128

_SIGNED = (int8, int16, int32, int64)
_UNSIGNED = (uint8, uint16, uint32, uint64)
_REAL_FLOATING = (_C.float16, _C.bfloat16, float32, float64)
_COMPLEX = (complex64, complex128)

#: isdtype's kinds: the dtypes each name covers
KINDS: dict[str, tuple[_C.dtype, ...]] = {
    "bool": (bool,),
    "signed integer": _SIGNED,
    "unsigned integer": _UNSIGNED,
    "integral": _SIGNED + _UNSIGNED,
    "real floating": _REAL_FLOATING,
    "complex floating": _COMPLEX,
    "numeric": _SIGNED + _UNSIGNED + _REAL_FLOATING + _COMPLEX,
}


@dataclass(frozen=True)
class iinfo_object:  # noqa: N801 - the standard's name
    """Machine limits of an integer dtype."""

    bits: int
    max: int
    min: int
    dtype: _C.dtype


@dataclass(frozen=True)
class finfo_object:  # noqa: N801 - the standard's name
    """Machine limits of a floating dtype (a complex dtype's parts)."""

    bits: int
    eps: float
    max: float
    min: float
    smallest_normal: float
    dtype: _C.dtype


def _dtype_of(type: Any) -> _C.dtype:  # noqa: A002 - the standard's name
    return type.dtype if isinstance(type, _C.Tensor) else _C.dtype(type)


def iinfo(type: Any, /) -> iinfo_object:  # noqa: A002
    """Limits of an integer dtype (or of a tensor's dtype)."""
    d = _dtype_of(type)
    if d not in _SIGNED + _UNSIGNED:
        raise _C.DTypeError(f"iinfo needs an integer dtype, not {d}")
    bits = 8 * d.itemsize
    if d in _UNSIGNED:
        return iinfo_object(bits, 2**bits - 1, 0, d)
    return iinfo_object(bits, 2 ** (bits - 1) - 1, -(2 ** (bits - 1)), d)


def finfo(type: Any, /) -> finfo_object:  # noqa: A002
    """Limits of a floating dtype; of a complex dtype, those of its parts."""
    d = _dtype_of(type)
    real = {complex64: float32, complex128: float64}.get(d, d)
    if real not in _REAL_FLOATING:
        raise _C.DTypeError(f"finfo needs a floating dtype, not {d}")
    if real == _C.bfloat16:  # 8 exponent bits as float32, 7 stored mantissa bits
        big = (2 - 2.0**-7) * 2.0**127
        return finfo_object(16, 2.0**-7, big, -big, 2.0**-126, real)
    info = np.finfo(real.name)
    return finfo_object(info.bits, float(info.eps), float(info.max), float(info.min),
                        float(info.smallest_normal), real)


def isdtype(dtype: Any, kind: Any) -> builtins.bool:
    """Whether dtype is of kind: a kind name, a dtype, or a tuple of them."""
    d = _C.dtype(dtype)
    if isinstance(kind, tuple):
        return builtins.any(isdtype(d, k) for k in kind)
    if isinstance(kind, str):
        if kind not in KINDS:
            raise ValueError(f"unknown dtype kind {kind!r} (one of {', '.join(KINDS)})")
        return d in KINDS[kind]
    return d == _C.dtype(kind)


def _weak(result: _C.dtype, scalar: Any) -> _C.dtype:
    """The dtype a Python scalar leaves next to `result` (it is weak)."""
    if isinstance(scalar, builtins.bool):
        return result
    if isinstance(scalar, int):
        return int64 if result == bool else result
    if isinstance(scalar, float):
        return result if result in _REAL_FLOATING + _COMPLEX else float64
    if isinstance(scalar, complex):
        if result in _COMPLEX:
            return result
        return complex64 if result in (_C.float16, _C.bfloat16, float32) else complex128
    raise TypeError(f"result_type: {type(scalar).__name__} is neither an array, a dtype nor a "
                    "Python scalar")


def result_type(*arrays_and_dtypes: Any) -> _C.dtype:
    """The dtype type promotion gives its arguments (arrays, dtypes, and
    Python scalars, which are weak)."""
    strong = [a for a in arrays_and_dtypes if not isinstance(a, (int, float, complex))]
    if not strong:
        raise ValueError("result_type needs at least one array or dtype")
    result = _dtype_of(strong[0])
    for a in strong[1:]:
        result = _C.promote_types(result, _dtype_of(a))
    for a in arrays_and_dtypes:
        if isinstance(a, (int, float, complex)):
            result = _weak(result, a)
    return result


def can_cast(from_: Any, to: Any, /) -> builtins.bool:
    """Whether type promotion can turn from_ (a dtype or an array) into to."""
    source, target = _dtype_of(from_), _C.dtype(to)
    return _C.promote_types(source, target) == target


def astype(x: _C.Tensor, dtype: Any, /, *, copy: builtins.bool = True,
           device: Any = None) -> _C.Tensor:
    """x converted to dtype: a copy unless copy=False and nothing changes."""
    d = _C.dtype(dtype)
    result = x if (not copy and x.dtype == d) else x.astype(d)
    return result if device is None else result.to_device(device)
