"""The Array API's manipulation, statistical, searching and utility
functions that pyasc's C functions and Tensor methods cover, with the
standard's signatures."""

from __future__ import annotations

import builtins
from collections.abc import Sequence
from typing import Any, Protocol

import numpy as np

from pyasc import _C, indexing
from pyasc._docs import X_INPUT, named, numpy_doc


def broadcast_to(x: _C.Tensor, /, shape: Sequence[int]) -> _C.Tensor:
    """x broadcast to a shape.

    Parameters
    ----------
    x : Tensor
        The input.
    shape : sequence of int
        The shape, by the broadcasting rules.

    Returns
    -------
    Tensor
        A read-only view of x.

    Raises
    ------
    InvalidValueError
        If x does not broadcast to shape.

    Examples
    --------
    >>> pyasc.array_api.broadcast_to(pyasc.asarray([1, 2]), (2, 2)).tolist()
    [[1, 2], [1, 2]]
    """
    return x.broadcast_to(tuple(shape))


def concat(arrays: Sequence[_C.Tensor], /, *, axis: int | None = 0) -> _C.Tensor:
    """Joins tensors along an existing axis.

    Parameters
    ----------
    arrays : sequence of Tensor
        The tensors, of one shape but along axis.
    axis : int or None, optional
        The axis (0 by default); None joins the flattened tensors.

    Returns
    -------
    Tensor
        The joined tensor.

    Raises
    ------
    InvalidValueError
        If the shapes differ but along axis.

    Examples
    --------
    >>> xp = pyasc.array_api
    >>> x = xp.asarray([[1, 2, 3], [4, 5, 6]])
    >>> xp.concat([x, x], axis=1).tolist()
    [[1, 2, 3, 1, 2, 3], [4, 5, 6, 4, 5, 6]]
    """
    if axis is None:
        return _C.concatenate([a.reshape(-1) for a in arrays], axis=0)
    return _C.concatenate(list(arrays), axis=axis)


def stack(arrays: Sequence[_C.Tensor], /, *, axis: int = 0) -> _C.Tensor:
    """Joins tensors of one shape along a new axis.

    Parameters
    ----------
    arrays : sequence of Tensor
        The tensors.
    axis : int, optional
        The new axis's position in the result (0 by default).

    Returns
    -------
    Tensor
        The stacked tensor.

    Raises
    ------
    InvalidValueError
        If the shapes differ.

    Examples
    --------
    >>> xp = pyasc.array_api
    >>> xp.stack([xp.asarray([1, 2]), xp.asarray([3, 4])]).tolist()
    [[1, 2], [3, 4]]
    """
    return _C.stack(list(arrays), axis=axis)


def permute_dims(x: _C.Tensor, /, axes: Sequence[int]) -> _C.Tensor:
    """x with its axes in a new order.

    Parameters
    ----------
    x : Tensor
        The input.
    axes : sequence of int
        The new order: a permutation of x's axes.

    Returns
    -------
    Tensor
        A view of x.

    Raises
    ------
    InvalidValueError
        If axes is not a permutation of x's axes.

    Examples
    --------
    >>> pyasc.array_api.permute_dims(pyasc.zeros((2, 3, 4)), (2, 0, 1)).shape
    (4, 2, 3)
    """
    return x.permute(tuple(axes))


def reshape(x: _C.Tensor, /, shape: Sequence[int], *, copy: bool | None = None) -> _C.Tensor:
    """x with a new shape.

    Parameters
    ----------
    x : Tensor
        The input.
    shape : sequence of int
        The new shape; one length may be -1, worked out from the others.
    copy : bool or None, optional
        None (the default): a view when the strides allow, else a copy;
        True: always a copy; False: only a view.

    Returns
    -------
    Tensor
        The reshaped tensor.

    Raises
    ------
    InvalidValueError
        If the shape does not hold as many elements, or copy is False and
        no view is possible.

    Examples
    --------
    >>> pyasc.array_api.reshape(pyasc.arange(6), (2, 3)).tolist()
    [[0, 1, 2], [3, 4, 5]]
    """
    if copy is False:
        return x.view(tuple(shape))
    result = x.reshape(tuple(shape))
    return result.copy() if copy and result.data_ptr == x.data_ptr else result


def matrix_transpose(x: _C.Tensor, /) -> _C.Tensor:
    """x with its last two axes swapped.

    Parameters
    ----------
    x : Tensor
        At least 2-d.

    Returns
    -------
    Tensor
        A view of x.

    Examples
    --------
    >>> xp = pyasc.array_api
    >>> x = xp.asarray([[1, 2, 3], [4, 5, 6]])
    >>> xp.matrix_transpose(x).tolist()
    [[1, 4], [2, 5], [3, 6]]
    """
    return x.mT


def _axis_args(axis: Any) -> Any:
    return tuple(axis) if isinstance(axis, list) else axis


class _Reduction(Protocol):
    """mean's signature."""

    def __call__(self, x: _C.Tensor, /, *, axis: Any = None,
                 keepdims: bool = False) -> _C.Tensor: ...


class _TypedReduction(Protocol):
    """sum's signature."""

    def __call__(self, x: _C.Tensor, /, *, axis: Any = None, dtype: Any = None,
                 keepdims: bool = False) -> _C.Tensor: ...


class _Spread(Protocol):
    """var's signature."""

    def __call__(self, x: _C.Tensor, /, *, axis: Any = None, correction: int | float = 0.0,
                 keepdims: bool = False) -> _C.Tensor: ...


class _Search(Protocol):
    """argmax's signature."""

    def __call__(self, x: _C.Tensor, /, *, axis: int | None = None,
                 keepdims: bool = False) -> _C.Tensor: ...


# the reductions' Parameters entries and examples' first lines
_AXES = "axis : None or int or sequence of int, optional\n" \
        "    The axes to reduce; None (the default) for all of them.\n"
_KEEPDIMS = "keepdims : bool, optional\n    If true, the reduced axes stay with length 1.\n"
_DTYPE = "dtype : dtype, optional\n    The dtype to compute and return in.\n"
_CORRECTION = """correction : int or float, optional
    Subtracted from the number of elements N in the divisor (0 by
    default; 1 for the unbiased variance).
"""
_SEARCH_AXIS = """axis : int or None, optional
    The axis to search; None (the default) for the flattened x.
keepdims : bool, optional
    If true, axis stays with length 1.
"""
_XP = ">>> xp = pyasc.array_api\n>>> x = xp.asarray([[1, 2, 3], [4, 5, 6]])\n"
_EMPTY = "InvalidValueError\n    If a reduction is over zero elements.\n"


def _reduction(fn: Any, summary: str, returns: str, examples: str,
               raises: str = "") -> _Reduction:
    def reduction(x: _C.Tensor, /, *, axis: Any = None, keepdims: bool = False) -> _C.Tensor:
        result: _C.Tensor = fn(x, axis=_axis_args(axis), keepdims=keepdims)
        return result
    named(reduction, fn.__name__, numpy_doc(summary, X_INPUT + _AXES + _KEEPDIMS, returns,
                                            examples, raises))
    return reduction


def _typed_reduction(fn: Any, summary: str, returns: str, examples: str) -> _TypedReduction:
    def reduction(x: _C.Tensor, /, *, axis: Any = None, dtype: Any = None,
                  keepdims: bool = False) -> _C.Tensor:
        result: _C.Tensor = fn(x, axis=_axis_args(axis), dtype=dtype, keepdims=keepdims)
        return result
    named(reduction, fn.__name__, numpy_doc(summary, X_INPUT + _AXES + _DTYPE + _KEEPDIMS,
                                            returns, examples))
    return reduction


def _spread(fn: Any, summary: str, returns: str, examples: str) -> _Spread:
    """var or std with divisor N - correction: whole corrections go to the C
    reduction as ddof, fractional ones rescale the ddof=0 variance."""
    def spread(x: _C.Tensor, /, *, axis: Any = None, correction: int | float = 0.0,
               keepdims: bool = False) -> _C.Tensor:
        axis = _axis_args(axis)
        if int(correction) == correction:
            result: _C.Tensor = fn(x, axis=axis, ddof=int(correction), keepdims=keepdims)
            return result
        axes = range(x.ndim) if axis is None else ((axis,) if isinstance(axis, int) else axis)
        n = 1
        for a in axes:
            n *= x.shape[a]
        # N / (N - correction), inf (or NaN for N = 0) past the sample size,
        # so that the result is NumPy's: inf, or NaN for a zero variance
        with np.errstate(divide="ignore", invalid="ignore"):
            scale = float(np.float64(n) / np.float64(builtins.max(n - correction, 0)))
        variance = _C.var(x, axis=axis, keepdims=keepdims) * scale
        return _C.sqrt(variance) if fn is _C.std else variance
    named(spread, fn.__name__, numpy_doc(summary, X_INPUT + _AXES + _CORRECTION + _KEEPDIMS,
                                         returns, examples))
    return spread


def _search(fn: Any, summary: str, examples: str) -> _Search:
    def search(x: _C.Tensor, /, *, axis: int | None = None, keepdims: bool = False) -> _C.Tensor:
        result: _C.Tensor = fn(x, axis=axis, keepdims=keepdims)
        return result
    named(search, fn.__name__, numpy_doc(summary, X_INPUT + _SEARCH_AXIS, "int64 indices.",
                                         examples, "InvalidValueError\n    If x has no elements.\n"))
    return search


sum = _typed_reduction(  # noqa: A001
    _C.sum, "The sum of the elements over the given axes.",
    "The sums (see pyasc.sum for the dtypes).",
    _XP + ">>> xp.sum(x, axis=0)\nTensor([5, 7, 9], dtype=int64)")
prod = _typed_reduction(
    _C.prod, "The product of the elements over the given axes.", "The products.",
    _XP + ">>> xp.prod(x, axis=1)\nTensor([  6, 120], dtype=int64)")
mean = _reduction(
    _C.mean, "The arithmetic mean over the given axes.", "The means.",
    _XP + ">>> xp.mean(xp.astype(x, xp.float64), axis=0)\nTensor([2.5, 3.5, 4.5], dtype=float64)")
var = _spread(
    _C.var, "The variance over the given axes, divided by N - correction.", "The variances.",
    ">>> x = pyasc.asarray([1.0, 2.0, 3.0, 4.0])\n>>> pyasc.array_api.var(x, correction=1)\n"
    "Tensor(1.6667, dtype=float64)")
std = _spread(
    _C.std, "The standard deviation over the given axes, with divisor N - correction.",
    "The standard deviations.",
    ">>> x = pyasc.asarray([1.0, 2.0, 3.0, 4.0])\n>>> pyasc.array_api.std(x, correction=1)\n"
    "Tensor(1.291, dtype=float64)")
max = _reduction(  # noqa: A001
    _C.max, "The maximum over the given axes.", "The maxima, in x's dtype; NaN propagates.",
    _XP + ">>> xp.max(x, axis=1)\nTensor([3, 6], dtype=int64)", _EMPTY)
min = _reduction(  # noqa: A001
    _C.min, "The minimum over the given axes.", "The minima, in x's dtype; NaN propagates.",
    _XP + ">>> xp.min(x, axis=1)\nTensor([1, 4], dtype=int64)", _EMPTY)
argmax = _search(
    _C.argmax, "The index of the first maximum along an axis.",
    ">>> x = pyasc.asarray([[1, 5, 2], [7, 0, 3]])\n"
    ">>> pyasc.array_api.argmax(x), pyasc.array_api.argmax(x, axis=1)\n"
    "(Tensor(3, dtype=int64), Tensor([1, 0], dtype=int64))")
argmin = _search(
    _C.argmin, "The index of the first minimum along an axis.",
    ">>> x = pyasc.asarray([[1, 5, 2], [7, 0, 3]])\n>>> pyasc.array_api.argmin(x, axis=1)\n"
    "Tensor([0, 1], dtype=int64)")
all = _reduction(  # noqa: A001
    _C.all, "Whether every element over the given axes is true.", "bool.",
    _XP + ">>> xp.all(x > 1, axis=1)\nTensor([False,  True], dtype=bool)")
any = _reduction(  # noqa: A001
    _C.any, "Whether some element over the given axes is true.", "bool.",
    _XP + ">>> xp.any(x > 5, axis=1)\nTensor([False,  True], dtype=bool)")


def where(condition: _C.Tensor, x1: Any, x2: Any, /) -> _C.Tensor:
    """Elements of x1 where condition holds, else of x2.

    Parameters
    ----------
    condition : Tensor
        bool (or tested for truth), broadcast with x1 and x2.
    x1, x2 : Tensor or scalar
        The values to choose from; their dtypes promote together.

    Returns
    -------
    Tensor
        The chosen values, of the broadcast shape.

    Examples
    --------
    >>> c = pyasc.asarray([True, False])
    >>> pyasc.array_api.where(c, pyasc.asarray([1, 2]), 0)
    Tensor([1, 0], dtype=int64)
    """
    result: _C.Tensor = _C.where(condition, x1, x2)
    return result


def matmul(x1: _C.Tensor, x2: _C.Tensor, /) -> _C.Tensor:
    """The matrix product of two tensors, as pyasc.matmul.

    Parameters
    ----------
    x1, x2 : Tensor
        The operands, each at least 1-d.

    Returns
    -------
    Tensor
        The product.

    Raises
    ------
    InvalidValueError
        If the inner lengths differ.

    Examples
    --------
    >>> a = pyasc.asarray([[1, 2], [3, 4]])
    >>> pyasc.array_api.matmul(a, a).tolist()
    [[7, 10], [15, 22]]
    """
    return _C.matmul(x1, x2)


def tensordot(x1: _C.Tensor, x2: _C.Tensor, /, *,
              axes: int | tuple[Sequence[int], Sequence[int]] = 2) -> _C.Tensor:
    """Sums of products over the given axes of two tensors.

    Parameters
    ----------
    x1, x2 : Tensor
        The operands.
    axes : int or pair of sequences of int, optional
        An int n pairs the last n axes of x1 with the first n of x2 (2 by
        default); a pair of sequences lists the axes to pair.

    Returns
    -------
    Tensor
        The free axes of x1, then those of x2.

    Raises
    ------
    ValueError
        If axes is negative, the lists differ in length, or paired axes differ
        in length.

    Examples
    --------
    >>> a, b = pyasc.arange(6).reshape(2, 3), pyasc.arange(12).reshape(3, 4)
    >>> pyasc.array_api.tensordot(a, b, axes=1).tolist()
    [[20, 23, 26, 29], [56, 68, 80, 92]]
    """
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
    for i, j in zip(a_axes, b_axes):
        if x1.shape[i] != x2.shape[j]:
            raise ValueError(f"tensordot: axis {i} of x1 ({x1.shape[i]}) does not match axis "
                             f"{j} of x2 ({x2.shape[j]})")
        k *= x1.shape[i]
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
    """The dot product of vectors along an axis, sum(conj(x1) * x2).

    Parameters
    ----------
    x1, x2 : Tensor
        The operands; the other axes broadcast.
    axis : int, optional
        The axis of the vectors (the last by default).

    Returns
    -------
    Tensor
        The dot products.

    Raises
    ------
    ValueError
        If an operand is 0-d or their axis lengths differ.

    Examples
    --------
    >>> xp = pyasc.array_api
    >>> xp.vecdot(xp.asarray([1, 2, 3]), xp.asarray([4, 5, 6]))
    Tensor(32, dtype=int64)
    """
    if x1.ndim == 0 or x2.ndim == 0 or x1.shape[axis] != x2.shape[axis]:
        raise ValueError("vecdot: both need the reduced axis, of the same length")
    dtype = _C.promote_types(x1.dtype, x2.dtype)
    return _C.sum(_C.multiply(_C.conj(x1), x2), axis=axis, dtype=dtype)


def take(x: _C.Tensor, indices: _C.Tensor, /, *, axis: int | None = None) -> _C.Tensor:
    """The elements of x at indices along an axis.

    Parameters
    ----------
    x : Tensor
        The source.
    indices : Tensor
        Integer positions.
    axis : int, optional
        The axis; it may be left out only for 1-d x.

    Returns
    -------
    Tensor
        The elements taken.

    Raises
    ------
    ValueError
        If axis is left out for x that is not 1-d.

    Examples
    --------
    >>> xp = pyasc.array_api
    >>> xp.take(xp.asarray([10, 20, 30]), xp.asarray([2, 0]))
    Tensor([30, 10], dtype=int64)
    """
    if axis is None and x.ndim != 1:
        raise ValueError("take: axis may be omitted only for a 1-dimensional x")
    result: _C.Tensor = indexing.take(x, indices, axis=axis)
    return result


def take_along_axis(x: _C.Tensor, indices: _C.Tensor, /, *, axis: int = -1) -> _C.Tensor:
    """The elements of x picked by indices along an axis, as after argsort.

    Parameters
    ----------
    x : Tensor
        The source.
    indices : Tensor
        Integer positions, as many axes as x; the other axes broadcast.
    axis : int, optional
        The axis (the last by default).

    Returns
    -------
    Tensor
        The elements picked.

    Examples
    --------
    >>> xp = pyasc.array_api
    >>> x = xp.asarray([[10, 30, 20], [60, 40, 50]])
    >>> xp.take_along_axis(x, xp.argsort(x), axis=1).tolist()
    [[10, 20, 30], [40, 50, 60]]
    """
    result: _C.Tensor = indexing.take_along_axis(x, indices, axis)
    return result


def nonzero(x: _C.Tensor, /) -> tuple[_C.Tensor, ...]:
    """The indices of x's non-zero elements, one tensor per axis.

    Parameters
    ----------
    x : Tensor
        At least 1-d.

    Returns
    -------
    tuple of Tensor
        x.ndim int64 tensors.

    Raises
    ------
    ValueError
        If x is 0-d.

    Examples
    --------
    >>> pyasc.array_api.nonzero(pyasc.asarray([0, 3, 0, 4]))
    (Tensor([1, 3], dtype=int64),)
    """
    if x.ndim == 0:
        raise ValueError("nonzero is not defined for 0-d arrays")
    return _C.nonzero(x)


def broadcast_arrays(*arrays: _C.Tensor) -> list[_C.Tensor]:
    """The arrays broadcast against each other.

    Parameters
    ----------
    *arrays : Tensor
        The inputs.

    Returns
    -------
    list of Tensor
        Views of the arrays, of their common shape (a list, the standard's
        type; pyasc.broadcast_arrays gives a tuple).

    Raises
    ------
    InvalidValueError
        If the shapes do not broadcast together.

    Examples
    --------
    >>> a, b = pyasc.array_api.broadcast_arrays(pyasc.asarray([[1], [2]]), pyasc.asarray([3, 4]))
    >>> a.tolist(), b.tolist()
    ([[1, 1], [2, 2]], [[3, 4], [3, 4]])
    """
    return list(_C.broadcast_arrays(*arrays))


def meshgrid(*arrays: _C.Tensor, indexing: str = "xy") -> list[_C.Tensor]:
    """Coordinate grids from 1-d arrays.

    Parameters
    ----------
    *arrays : Tensor
        The coordinate vectors.
    indexing : {'xy', 'ij'}, optional
        'xy' (the default) swaps the first two axes of the grids.

    Returns
    -------
    list of Tensor
        One grid per input (a list, the standard's type).

    Raises
    ------
    InvalidValueError
        If indexing is neither 'xy' nor 'ij'.

    Examples
    --------
    >>> X, Y = pyasc.array_api.meshgrid(pyasc.asarray([1, 2]), pyasc.asarray([5, 6, 7]))
    >>> X.shape, Y.tolist()
    ((3, 2), [[5, 5], [6, 6], [7, 7]])
    """
    return list(_C.meshgrid(*arrays, indexing=indexing))
