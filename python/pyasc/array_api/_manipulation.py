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


def sum(x: _C.Tensor, /, *, axis: Any = None, dtype: Any = None,  # noqa: A001
        keepdims: bool = False) -> _C.Tensor:
    """The sum of the elements over the given axes.

    Parameters
    ----------
    x : Tensor
        The input.
    axis : None or int or sequence of int, optional
        The axes to reduce; None (the default) for all of them.
    dtype : dtype, optional
        The dtype to compute and return in.
    keepdims : bool, optional
        If true, the reduced axes stay with length 1.

    Returns
    -------
    Tensor
        The sums (see pyasc.sum for the dtypes).

    Examples
    --------
    >>> xp = pyasc.array_api
    >>> x = xp.asarray([[1, 2, 3], [4, 5, 6]])
    >>> xp.sum(x, axis=0)
    Tensor([5, 7, 9], dtype=int64)
    """
    return _C.sum(x, axis=_axis_args(axis), dtype=dtype, keepdims=keepdims)


def prod(x: _C.Tensor, /, *, axis: Any = None, dtype: Any = None,
         keepdims: bool = False) -> _C.Tensor:
    """The product of the elements over the given axes.

    Parameters
    ----------
    x : Tensor
        The input.
    axis : None or int or sequence of int, optional
        The axes to reduce; None (the default) for all of them.
    dtype : dtype, optional
        The dtype to compute and return in.
    keepdims : bool, optional
        If true, the reduced axes stay with length 1.

    Returns
    -------
    Tensor
        The products.

    Examples
    --------
    >>> xp = pyasc.array_api
    >>> x = xp.asarray([[1, 2, 3], [4, 5, 6]])
    >>> xp.prod(x, axis=1)
    Tensor([  6, 120], dtype=int64)
    """
    return _C.prod(x, axis=_axis_args(axis), dtype=dtype, keepdims=keepdims)


def mean(x: _C.Tensor, /, *, axis: Any = None, keepdims: bool = False) -> _C.Tensor:
    """The arithmetic mean over the given axes.

    Parameters
    ----------
    x : Tensor
        The input.
    axis : None or int or sequence of int, optional
        The axes to reduce; None (the default) for all of them.
    keepdims : bool, optional
        If true, the reduced axes stay with length 1.

    Returns
    -------
    Tensor
        The means.

    Examples
    --------
    >>> xp = pyasc.array_api
    >>> x = xp.asarray([[1, 2, 3], [4, 5, 6]])
    >>> xp.mean(xp.astype(x, xp.float64), axis=0)
    Tensor([2.5, 3.5, 4.5], dtype=float64)
    """
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
    """The variance over the given axes, divided by N - correction.

    Parameters
    ----------
    x : Tensor
        The input.
    axis : None or int or sequence of int, optional
        The axes to reduce; None (the default) for all of them.
    correction : int or float, optional
        Subtracted from the number of elements N in the divisor (0 by
        default; 1 for the unbiased variance).
    keepdims : bool, optional
        If true, the reduced axes stay with length 1.

    Returns
    -------
    Tensor
        The variances.

    Examples
    --------
    >>> x = pyasc.asarray([1.0, 2.0, 3.0, 4.0])
    >>> pyasc.array_api.var(x, correction=1)
    Tensor(1.6667, dtype=float64)
    """
    return _spread(_C.var, x, axis, correction, keepdims)


def std(x: _C.Tensor, /, *, axis: Any = None, correction: int | float = 0.0,
        keepdims: bool = False) -> _C.Tensor:
    """The standard deviation over the given axes, with divisor N - correction.

    Parameters
    ----------
    x : Tensor
        The input.
    axis : None or int or sequence of int, optional
        The axes to reduce; None (the default) for all of them.
    correction : int or float, optional
        Subtracted from the number of elements N in the divisor (0 by
        default; 1 for the unbiased variance).
    keepdims : bool, optional
        If true, the reduced axes stay with length 1.

    Returns
    -------
    Tensor
        The standard deviations.

    Examples
    --------
    >>> x = pyasc.asarray([1.0, 2.0, 3.0, 4.0])
    >>> pyasc.array_api.std(x, correction=1)
    Tensor(1.291, dtype=float64)
    """
    return _spread(_C.std, x, axis, correction, keepdims)


def max(x: _C.Tensor, /, *, axis: Any = None, keepdims: bool = False) -> _C.Tensor:  # noqa: A001
    """The maximum over the given axes.

    Parameters
    ----------
    x : Tensor
        The input.
    axis : None or int or sequence of int, optional
        The axes to reduce; None (the default) for all of them.
    keepdims : bool, optional
        If true, the reduced axes stay with length 1.

    Returns
    -------
    Tensor
        The maxima, in x's dtype; NaN propagates.

    Raises
    ------
    InvalidValueError
        If a reduction is over zero elements.

    Examples
    --------
    >>> xp = pyasc.array_api
    >>> x = xp.asarray([[1, 2, 3], [4, 5, 6]])
    >>> xp.max(x, axis=1)
    Tensor([3, 6], dtype=int64)
    """
    return _C.max(x, axis=_axis_args(axis), keepdims=keepdims)


def min(x: _C.Tensor, /, *, axis: Any = None, keepdims: bool = False) -> _C.Tensor:  # noqa: A001
    """The minimum over the given axes.

    Parameters
    ----------
    x : Tensor
        The input.
    axis : None or int or sequence of int, optional
        The axes to reduce; None (the default) for all of them.
    keepdims : bool, optional
        If true, the reduced axes stay with length 1.

    Returns
    -------
    Tensor
        The minima, in x's dtype; NaN propagates.

    Raises
    ------
    InvalidValueError
        If a reduction is over zero elements.

    Examples
    --------
    >>> xp = pyasc.array_api
    >>> x = xp.asarray([[1, 2, 3], [4, 5, 6]])
    >>> xp.min(x, axis=1)
    Tensor([1, 4], dtype=int64)
    """
    return _C.min(x, axis=_axis_args(axis), keepdims=keepdims)


def argmax(x: _C.Tensor, /, *, axis: int | None = None, keepdims: bool = False) -> _C.Tensor:
    """The index of the first maximum along an axis.

    Parameters
    ----------
    x : Tensor
        The input.
    axis : int or None, optional
        The axis to search; None (the default) for the flattened x.
    keepdims : bool, optional
        If true, axis stays with length 1.

    Returns
    -------
    Tensor
        int64 indices.

    Raises
    ------
    InvalidValueError
        If x has no elements.

    Examples
    --------
    >>> x = pyasc.asarray([[1, 5, 2], [7, 0, 3]])
    >>> pyasc.array_api.argmax(x), pyasc.array_api.argmax(x, axis=1)
    (Tensor(3, dtype=int64), Tensor([1, 0], dtype=int64))
    """
    return _C.argmax(x, axis=axis, keepdims=keepdims)


def argmin(x: _C.Tensor, /, *, axis: int | None = None, keepdims: bool = False) -> _C.Tensor:
    """The index of the first minimum along an axis.

    Parameters
    ----------
    x : Tensor
        The input.
    axis : int or None, optional
        The axis to search; None (the default) for the flattened x.
    keepdims : bool, optional
        If true, axis stays with length 1.

    Returns
    -------
    Tensor
        int64 indices.

    Raises
    ------
    InvalidValueError
        If x has no elements.

    Examples
    --------
    >>> x = pyasc.asarray([[1, 5, 2], [7, 0, 3]])
    >>> pyasc.array_api.argmin(x, axis=1)
    Tensor([0, 1], dtype=int64)
    """
    return _C.argmin(x, axis=axis, keepdims=keepdims)


def all(x: _C.Tensor, /, *, axis: Any = None, keepdims: bool = False) -> _C.Tensor:  # noqa: A001
    """Whether every element over the given axes is true.

    Parameters
    ----------
    x : Tensor
        The input.
    axis : None or int or sequence of int, optional
        The axes to reduce; None (the default) for all of them.
    keepdims : bool, optional
        If true, the reduced axes stay with length 1.

    Returns
    -------
    Tensor
        bool.

    Examples
    --------
    >>> xp = pyasc.array_api
    >>> x = xp.asarray([[1, 2, 3], [4, 5, 6]])
    >>> xp.all(x > 1, axis=1)
    Tensor([False,  True], dtype=bool)
    """
    return _C.all(x, axis=_axis_args(axis), keepdims=keepdims)


def any(x: _C.Tensor, /, *, axis: Any = None, keepdims: bool = False) -> _C.Tensor:  # noqa: A001
    """Whether some element over the given axes is true.

    Parameters
    ----------
    x : Tensor
        The input.
    axis : None or int or sequence of int, optional
        The axes to reduce; None (the default) for all of them.
    keepdims : bool, optional
        If true, the reduced axes stay with length 1.

    Returns
    -------
    Tensor
        bool.

    Examples
    --------
    >>> xp = pyasc.array_api
    >>> x = xp.asarray([[1, 2, 3], [4, 5, 6]])
    >>> xp.any(x > 5, axis=1)
    Tensor([False,  True], dtype=bool)
    """
    return _C.any(x, axis=_axis_args(axis), keepdims=keepdims)


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
    return _C.where(condition, x1, x2)


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
    return indexing.take(x, indices, axis=axis)


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
    return indexing.take_along_axis(x, indices, axis)


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
