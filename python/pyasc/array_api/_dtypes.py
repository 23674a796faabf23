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
    """The limits of an integer dtype.

    Parameters
    ----------
    type : dtype or Tensor
        An integer dtype, or a tensor of one.

    Returns
    -------
    iinfo_object
        ``bits``, ``max``, ``min`` and ``dtype``.

    Raises
    ------
    DTypeError
        If the dtype is not an integer dtype.

    Examples
    --------
    >>> pyasc.array_api.iinfo(pyasc.int8)
    iinfo_object(bits=8, max=127, min=-128, dtype=pyasc.int8)
    """
    d = _dtype_of(type)
    if d not in _SIGNED + _UNSIGNED:
        raise _C.DTypeError(f"iinfo needs an integer dtype, not {d}")
    bits = 8 * d.itemsize
    if d in _UNSIGNED:
        return iinfo_object(bits, 2**bits - 1, 0, d)
    return iinfo_object(bits, 2 ** (bits - 1) - 1, -(2 ** (bits - 1)), d)


def finfo(type: Any, /) -> finfo_object:  # noqa: A002
    """The limits of a floating dtype; of a complex dtype, those of its parts.

    Parameters
    ----------
    type : dtype or Tensor
        A floating or complex dtype, or a tensor of one.

    Returns
    -------
    finfo_object
        ``bits``, ``eps``, ``max``, ``min``, ``smallest_normal`` and ``dtype``.

    Raises
    ------
    DTypeError
        If the dtype is neither floating nor complex.

    Examples
    --------
    >>> pyasc.array_api.finfo(pyasc.float32).eps
    1.1920928955078125e-07
    >>> pyasc.array_api.finfo(pyasc.complex128).bits
    64
    """
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
    """Whether a dtype is of a kind, as the Array API's isdtype.

    Parameters
    ----------
    dtype : dtype
        The dtype.
    kind : str or dtype or tuple
        A kind name ('bool', 'signed integer', 'unsigned integer',
        'integral', 'real floating', 'complex floating', 'numeric'), a
        dtype, or a tuple of them (any matches).

    Returns
    -------
    bool
        Whether it is.

    Raises
    ------
    ValueError
        If a kind name is not one of those.

    Examples
    --------
    >>> xp = pyasc.array_api
    >>> xp.isdtype(xp.float32, "real floating")
    True
    >>> xp.isdtype(xp.int8, ("bool", "unsigned integer"))
    False
    """
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
    """The dtype type promotion gives its arguments.

    Parameters
    ----------
    *arrays_and_dtypes : Tensor or dtype or scalar
        Arrays, dtypes and Python scalars; a scalar is weak: it takes the
        others' kind unless it needs a higher one.

    Returns
    -------
    dtype
        The promoted dtype.

    Examples
    --------
    >>> xp = pyasc.array_api
    >>> xp.result_type(xp.int8, xp.int16)
    pyasc.int16
    >>> xp.result_type(pyasc.zeros(2, dtype=xp.float32), 1.0)
    pyasc.float32
    """
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
    """Whether type promotion can turn one dtype into another.

    Parameters
    ----------
    from_ : dtype or Tensor
        The source dtype, or a tensor of it.
    to : dtype
        The target dtype.

    Returns
    -------
    bool
        Whether promoting from_ with to gives to.

    Examples
    --------
    >>> xp = pyasc.array_api
    >>> xp.can_cast(xp.int8, xp.int16), xp.can_cast(xp.float64, xp.float32)
    (True, False)
    """
    source, target = _dtype_of(from_), _C.dtype(to)
    return _C.promote_types(source, target) == target


def astype(x: _C.Tensor, dtype: Any, /, *, copy: builtins.bool = True,
           device: Any = None) -> _C.Tensor:
    """x converted to a dtype.

    Parameters
    ----------
    x : Tensor
        The tensor.
    dtype : dtype
        The new dtype.
    copy : bool, optional
        False returns x itself when the dtype (and device) is already right;
        True (the default) always copies.
    device : str or int, optional
        The device of the result; x's by default.

    Returns
    -------
    Tensor
        The converted tensor (floats to integers truncate).

    Examples
    --------
    >>> xp = pyasc.array_api
    >>> xp.astype(pyasc.asarray([1.5, 2.5]), xp.int32)
    Tensor([1, 2], dtype=int32)
    """
    d = _C.dtype(dtype)
    result = x if (not copy and x.dtype == d) else x.astype(d)
    return result if device is None else result.to_device(device)
