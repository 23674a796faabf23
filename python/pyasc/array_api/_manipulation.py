"""The Array API's manipulation, statistical, searching and utility
functions that pyasc's C functions and Tensor methods cover, with the
standard's signatures."""

from __future__ import annotations

import builtins
from collections.abc import Sequence
from typing import Any

import numpy as np

from pyasc import _C, indexing


def broadcast_to(x: _C.Tensor, /, shape: Sequence[int]) -> _C.Tensor:
    """x broadcast to shape (a view)."""
    return x.broadcast_to(tuple(shape))


def concat(arrays: Sequence[_C.Tensor], /, *, axis: int | None = 0) -> _C.Tensor:
    """The arrays joined along axis (None: flattened first)."""
    if axis is None:
        return _C.concatenate([a.reshape(-1) for a in arrays], axis=0)
    return _C.concatenate(list(arrays), axis=axis)


def stack(arrays: Sequence[_C.Tensor], /, *, axis: int = 0) -> _C.Tensor:
    """The arrays joined along a new axis."""
    return _C.stack(list(arrays), axis=axis)


def permute_dims(x: _C.Tensor, /, axes: Sequence[int]) -> _C.Tensor:
    """x with its axes in the given order (a view)."""
    return x.permute(tuple(axes))


def reshape(x: _C.Tensor, /, shape: Sequence[int], *, copy: bool | None = None) -> _C.Tensor:
    """x with a new shape: a view when possible (copy=False: only a view)."""
    if copy is False:
        return x.view(tuple(shape))
    result = x.reshape(tuple(shape))
    return result.copy() if copy and result.data_ptr == x.data_ptr else result


def matrix_transpose(x: _C.Tensor, /) -> _C.Tensor:
    """x's last two axes swapped (a view)."""
    return x.mT


def _axis_args(axis: Any) -> Any:
    return tuple(axis) if isinstance(axis, list) else axis


def sum(x: _C.Tensor, /, *, axis: Any = None, dtype: Any = None,  # noqa: A001
        keepdims: bool = False) -> _C.Tensor:
    """The sum over axis."""
    return _C.sum(x, axis=_axis_args(axis), dtype=dtype, keepdims=keepdims)


def prod(x: _C.Tensor, /, *, axis: Any = None, dtype: Any = None,
         keepdims: bool = False) -> _C.Tensor:
    """The product over axis."""
    return _C.prod(x, axis=_axis_args(axis), dtype=dtype, keepdims=keepdims)


def mean(x: _C.Tensor, /, *, axis: Any = None, keepdims: bool = False) -> _C.Tensor:
    """The arithmetic mean over axis."""
    return _C.mean(x, axis=_axis_args(axis), keepdims=keepdims)


def _spread(fn: Any, x: _C.Tensor, axis: Any, correction: int | float,
            keepdims: bool) -> _C.Tensor:
    """var or std with divisor N - correction: whole corrections go to the C
    reduction as ddof, fractional ones rescale the ddof=0 variance."""
    axis = _axis_args(axis)
    if int(correction) == correction:
        return fn(x, axis=axis, ddof=int(correction), keepdims=keepdims)
    axes = range(x.ndim) if axis is None else ((axis,) if isinstance(axis, int) else axis)
    n = 1
    for a in axes:
        n *= x.shape[a]
    # N / (N - correction), inf (or NaN for N = 0) past the sample size, so
    # that the result is NumPy's: inf, or NaN for a zero variance
    with np.errstate(divide="ignore", invalid="ignore"):
        scale = float(np.float64(n) / np.float64(builtins.max(n - correction, 0)))
    variance = _C.var(x, axis=axis, keepdims=keepdims) * scale
    return _C.sqrt(variance) if fn is _C.std else variance


def var(x: _C.Tensor, /, *, axis: Any = None, correction: int | float = 0.0,
        keepdims: bool = False) -> _C.Tensor:
    """The variance over axis, divided by N - correction."""
    return _spread(_C.var, x, axis, correction, keepdims)


def std(x: _C.Tensor, /, *, axis: Any = None, correction: int | float = 0.0,
        keepdims: bool = False) -> _C.Tensor:
    """The standard deviation over axis, with N - correction."""
    return _spread(_C.std, x, axis, correction, keepdims)


def max(x: _C.Tensor, /, *, axis: Any = None, keepdims: bool = False) -> _C.Tensor:  # noqa: A001
    """The maximum over axis (NaN propagates)."""
    return _C.max(x, axis=_axis_args(axis), keepdims=keepdims)


def min(x: _C.Tensor, /, *, axis: Any = None, keepdims: bool = False) -> _C.Tensor:  # noqa: A001
    """The minimum over axis (NaN propagates)."""
    return _C.min(x, axis=_axis_args(axis), keepdims=keepdims)


def argmax(x: _C.Tensor, /, *, axis: int | None = None, keepdims: bool = False) -> _C.Tensor:
    """The index of the first maximum (over the flattened x when axis is None)."""
    return _C.argmax(x, axis=axis, keepdims=keepdims)


def argmin(x: _C.Tensor, /, *, axis: int | None = None, keepdims: bool = False) -> _C.Tensor:
    """The index of the first minimum."""
    return _C.argmin(x, axis=axis, keepdims=keepdims)


def all(x: _C.Tensor, /, *, axis: Any = None, keepdims: bool = False) -> _C.Tensor:  # noqa: A001
    """Whether every element over axis is true."""
    return _C.all(x, axis=_axis_args(axis), keepdims=keepdims)


def any(x: _C.Tensor, /, *, axis: Any = None, keepdims: bool = False) -> _C.Tensor:  # noqa: A001
    """Whether some element over axis is true."""
    return _C.any(x, axis=_axis_args(axis), keepdims=keepdims)


def where(condition: _C.Tensor, x1: Any, x2: Any, /) -> _C.Tensor:
    """x1 where condition holds, else x2 (broadcast together)."""
    return _C.where(condition, x1, x2)


def matmul(x1: _C.Tensor, x2: _C.Tensor, /) -> _C.Tensor:
    """The matrix product (NumPy's matmul rules)."""
    return _C.matmul(x1, x2)


def tensordot(x1: _C.Tensor, x2: _C.Tensor, /, *,
              axes: int | tuple[Sequence[int], Sequence[int]] = 2) -> _C.Tensor:
    """Sums of products over the given axes: the last `axes` of x1 with the
    first of x2, or the listed pairs."""
    if isinstance(axes, int):
        if axes < 0:
            raise ValueError("tensordot: axes must be non-negative")
        a_axes = list(range(x1.ndim - axes, x1.ndim))
        b_axes = list(range(axes))
    else:
        a_axes = [a % x1.ndim for a in axes[0]]
        b_axes = [b % x2.ndim for b in axes[1]]
    if len(a_axes) != len(b_axes):
        raise ValueError("tensordot: the two axis lists differ in length")
    a_free = [d for d in range(x1.ndim) if d not in a_axes]
    b_free = [d for d in range(x2.ndim) if d not in b_axes]
    k = 1
    for a, b in zip(a_axes, b_axes):
        if x1.shape[a] != x2.shape[b]:
            raise ValueError(f"tensordot: axis {a} of x1 ({x1.shape[a]}) does not match axis "
                             f"{b} of x2 ({x2.shape[b]})")
        k *= x1.shape[a]
    m = 1
    for d in a_free:
        m *= x1.shape[d]
    n = 1
    for d in b_free:
        n *= x2.shape[d]
    dtype = _C.promote_types(x1.dtype, x2.dtype)
    a = x1.astype(dtype).permute(tuple(a_free + a_axes)).reshape((m, k))
    b = x2.astype(dtype).permute(tuple(b_axes + b_free)).reshape((k, n))
    shape = tuple(x1.shape[d] for d in a_free) + tuple(x2.shape[d] for d in b_free)
    return _C.matmul(a, b).reshape(shape)


def vecdot(x1: _C.Tensor, x2: _C.Tensor, /, *, axis: int = -1) -> _C.Tensor:
    """sum(conj(x1) * x2) over axis, the other axes broadcast."""
    if x1.ndim == 0 or x2.ndim == 0 or x1.shape[axis] != x2.shape[axis]:
        raise ValueError("vecdot: both need the reduced axis, of the same length")
    dtype = _C.promote_types(x1.dtype, x2.dtype)
    return _C.sum(_C.multiply(_C.conj(x1), x2), axis=axis, dtype=dtype)


def take(x: _C.Tensor, indices: _C.Tensor, /, *, axis: int | None = None) -> _C.Tensor:
    """The elements of x at indices along axis (x must be 1-d when axis is None)."""
    if axis is None and x.ndim != 1:
        raise ValueError("take: axis may be omitted only for a 1-dimensional x")
    return indexing.take(x, indices, axis=axis)


def take_along_axis(x: _C.Tensor, indices: _C.Tensor, /, *, axis: int = -1) -> _C.Tensor:
    """x's elements picked by indices along axis (the other axes broadcast)."""
    return indexing.take_along_axis(x, indices, axis)


def nonzero(x: _C.Tensor, /) -> tuple[_C.Tensor, ...]:
    """The indices of x's non-zero elements, one int64 tensor per axis."""
    if x.ndim == 0:
        raise ValueError("nonzero is not defined for 0-d arrays")
    return _C.nonzero(x)


def broadcast_arrays(*arrays: _C.Tensor) -> list[_C.Tensor]:
    """The arrays broadcast against each other (views), as a list (the
    standard's type; pyasc.broadcast_arrays gives NumPy's tuple)."""
    return list(_C.broadcast_arrays(*arrays))


def meshgrid(*arrays: _C.Tensor, indexing: str = "xy") -> list[_C.Tensor]:
    """Coordinate grids from 1-d arrays, as a list (the standard's type)."""
    return list(_C.meshgrid(*arrays, indexing=indexing))
