"""NumPy's manipulation functions that pyasc composes from its C operations:
transpose, copy, gather (torch's), pad, split and array_split, and einsum
(NumPy's own, on views of the tensors' memory).

transpose, copy and gather are also kernel APIs: inside ``@pyasc.jit`` a
call of these names lowers to the Ascend C instruction
(pyasc.language.builtins.SHARED_NAMES); outside, they act on host tensors."""

from __future__ import annotations

import operator
from collections.abc import Sequence
from typing import Any

import numpy as np

from pyasc import _C, _fallback, indexing


def _tensor(a: Any) -> _C.Tensor:
    return a if isinstance(a, _C.Tensor) else _C.asarray(a)


def _axis(axis: int, ndim: int, fname: str) -> int:
    if not -ndim <= axis < ndim:
        raise IndexError(f"{fname}: axis {axis} is out of bounds for array of dimension {ndim}")
    return axis + ndim if axis < 0 else axis


def transpose(a: Any, axes: Sequence[int] | None = None) -> _C.Tensor:
    """The axes of ``a`` permuted (NumPy's ``transpose``; a view).

    Parameters
    ----------
    a : Tensor or array_like
    axes : sequence of int, optional
        The new order of the axes; reversed when omitted.

    Returns
    -------
    Tensor
        A view of ``a``'s memory.

    Raises
    ------
    pyasc.InvalidValueError
        ``axes`` is not a permutation of ``range(a.ndim)``.

    Examples
    --------
    >>> x = pyasc.arange(6).reshape(2, 3)
    >>> pyasc.transpose(x).tolist()
    [[0, 3], [1, 4], [2, 5]]
    """
    t = _tensor(a)
    order = tuple(reversed(range(t.ndim))) if axes is None else tuple(axes)
    return t.permute(order)


def copy(a: Any) -> _C.Tensor:
    """A contiguous copy of ``a`` (NumPy's ``copy``).

    Parameters
    ----------
    a : Tensor or array_like

    Returns
    -------
    Tensor
        New memory, of ``a``'s dtype and shape.

    Examples
    --------
    >>> x = pyasc.arange(3)
    >>> y = pyasc.copy(x)
    >>> y[0] = 7
    >>> x.tolist(), y.tolist()
    ([0, 1, 2], [7, 1, 2])
    """
    return _tensor(a).copy()


def gather(input: Any, dim: int, index: Any) -> Any:  # noqa: A002 (torch's name)
    """Elements of ``input`` picked along ``dim`` by ``index`` (torch's gather).

    NumPy's ``take_along_axis``: ``out[i][j] = input[index[i][j]][j]`` for
    ``dim=0``.

    Parameters
    ----------
    input : Tensor or array_like
    dim : int
        The axis to pick along.
    index : integer Tensor or array_like
        As many dimensions as ``input``; it broadcasts against ``input`` in
        the other axes.

    Returns
    -------
    Tensor
        ``index``'s shape.

    Raises
    ------
    IndexError
        An index outside ``input``'s axis, or ``dim`` out of range.

    Examples
    --------
    >>> x = pyasc.asarray([[1, 2], [3, 4]])
    >>> pyasc.gather(x, 1, pyasc.asarray([[0, 0], [1, 0]])).tolist()
    [[1, 1], [4, 3]]
    """
    return indexing.take_along_axis(input, index, axis=dim)


_PAD_MODES = ("constant", "edge", "reflect", "symmetric", "wrap")


def _pad_widths(pad_width: Any, ndim: int) -> list[tuple[int, int]]:
    """NumPy's pad_width forms (int, (n,), (before, after), one pair per
    axis) as one non-negative pair per axis."""
    arr = np.asarray(pad_width)
    if arr.dtype.kind not in "iu":
        raise TypeError("pad: pad_width must be integers")
    try:
        pairs = np.broadcast_to(arr, (ndim, 2))
    except ValueError:
        raise ValueError(f"pad: pad_width {pad_width!r} does not fit {ndim} axes") from None
    if (pairs < 0).any():
        raise ValueError("pad: pad_width must not be negative")
    return [(int(b), int(e)) for b, e in pairs]


def _source_index(n: int, before: int, after: int, mode: str) -> np.ndarray:
    """For each position of a padded axis, the position of ``n`` it copies."""
    pos = np.arange(-before, n + after)
    if mode == "edge":
        return np.clip(pos, 0, n - 1)
    if mode == "wrap":
        return pos % n
    if mode == "symmetric":  # ... 1 0 | 0 1 ... n-1 | n-1 n-2 ...
        period = 2 * n
        p = pos % period
        return np.where(p < n, p, period - 1 - p)
    period = 2 * (n - 1)  # reflect: ... 2 1 | 0 1 ... n-1 | n-2 ...
    if period == 0:
        return np.zeros_like(pos)
    p = pos % period
    return np.where(p < n, p, period - p)


def pad(array: Any, pad_width: Any, mode: str = "constant", *,
        constant_values: float | int | bool = 0) -> _C.Tensor:
    """``array`` padded on each side of each axis (NumPy's ``pad``).

    Parameters
    ----------
    array : Tensor or array_like
    pad_width : int or sequence
        ``n``, ``(before, after)``, or one ``(before, after)`` per axis.
    mode : {"constant", "edge", "reflect", "symmetric", "wrap"}
        What the new elements hold: ``constant_values``, the edge value, a
        mirror of the axis without or with its edge, or the axis repeated.
    constant_values : scalar
        The value of ``mode="constant"``'s new elements.

    Returns
    -------
    Tensor
        A new tensor of ``array``'s dtype.

    Raises
    ------
    ValueError
        An unknown mode, negative widths, or a mode other than constant on
        an empty axis that is padded.

    Examples
    --------
    >>> pyasc.pad(pyasc.asarray([1, 2, 3]), (2, 1)).tolist()
    [0, 0, 1, 2, 3, 0]
    >>> pyasc.pad(pyasc.asarray([1, 2, 3]), 2, mode="reflect").tolist()
    [3, 2, 1, 2, 3, 2, 1]
    """
    if mode not in _PAD_MODES:
        raise ValueError(f"pad: mode {mode!r} is not one of {', '.join(_PAD_MODES)}")
    t = _tensor(array)
    widths = _pad_widths(pad_width, t.ndim)
    if mode == "constant":
        shape = tuple(n + b + e for n, (b, e) in zip(t.shape, widths))
        out = _C.full(shape, constant_values, dtype=t.dtype)
        out[tuple(slice(b, b + n) for n, (b, _) in zip(t.shape, widths))] = t
        return out
    out = t
    for axis, (n, (b, e)) in enumerate(zip(t.shape, widths)):
        if not b and not e:
            continue
        if n == 0:
            raise ValueError(f"pad: mode {mode!r} cannot pad an empty axis ({axis})")
        index = _C.asarray(_source_index(n, b, e, mode))
        out = indexing.take(out, index, axis=axis)
    return out if out is not t else t.copy()


def _split_points(n: int, indices_or_sections: Any, equal: bool, fname: str) -> list[int]:
    if isinstance(indices_or_sections, (int, np.integer)):
        sections = operator.index(indices_or_sections)
        if sections <= 0:
            raise ValueError(f"{fname}: number sections must be larger than 0")
        if equal and n % sections:
            raise ValueError("array split does not result in an equal division")
        size, extra = divmod(n, sections)
        points, at = [], 0
        for i in range(sections - 1):
            at += size + (i < extra)
            points.append(at)
        return points
    return [operator.index(i) for i in indices_or_sections]


def _split(ary: Any, indices_or_sections: Any, axis: int, equal: bool,
           fname: str) -> list[_C.Tensor]:
    t = _tensor(ary)
    ax = _axis(axis, t.ndim, fname)
    n = t.shape[ax]
    bounds = [0, *_split_points(n, indices_or_sections, equal, fname), n]
    head = (slice(None),) * ax
    return [t[head + (slice(lo, max(lo, hi)),)] for lo, hi in zip(bounds, bounds[1:])]


def split(ary: Any, indices_or_sections: Any, axis: int = 0) -> list[_C.Tensor]:
    """Views of ``ary`` cut along ``axis`` (NumPy's ``split``).

    Parameters
    ----------
    ary : Tensor or array_like
    indices_or_sections : int or sequence of int
        A number of equal parts, or the positions to cut at.
    axis : int

    Returns
    -------
    list of Tensor
        Views of ``ary``'s memory.

    Raises
    ------
    ValueError
        A number of parts that does not divide the axis.

    Examples
    --------
    >>> [p.tolist() for p in pyasc.split(pyasc.arange(6), 3)]
    [[0, 1], [2, 3], [4, 5]]
    >>> [p.tolist() for p in pyasc.split(pyasc.arange(5), [1, 3])]
    [[0], [1, 2], [3, 4]]
    """
    return _split(ary, indices_or_sections, axis, True, "split")


def array_split(ary: Any, indices_or_sections: Any, axis: int = 0) -> list[_C.Tensor]:
    """Views of ``ary`` cut along ``axis`` into nearly equal parts.

    As :func:`split`, but a number of parts need not divide the axis: the
    first parts are one longer (NumPy's ``array_split``).

    Parameters
    ----------
    ary : Tensor or array_like
    indices_or_sections : int or sequence of int
        A number of parts, or the positions to cut at.
    axis : int

    Returns
    -------
    list of Tensor
        Views of ``ary``'s memory.

    Examples
    --------
    >>> [p.tolist() for p in pyasc.array_split(pyasc.arange(5), 3)]
    [[0, 1], [2, 3], [4]]
    """
    return _split(ary, indices_or_sections, axis, False, "array_split")


def einsum(subscripts: str, *operands: Any, **kwargs: Any) -> _C.Tensor:
    """Einstein summation over the operands (NumPy's ``einsum``).

    pyasc runs it in NumPy on views of the tensors' memory and counts it as
    a NumPy fallback (:func:`pyasc.numpy_fallbacks`).

    Parameters
    ----------
    subscripts : str
        NumPy's subscripts, e.g. ``"ij,jk->ik"``.
    *operands : Tensor or array_like
    **kwargs
        NumPy's keywords (``optimize``, ``dtype``...).

    Returns
    -------
    Tensor

    Examples
    --------
    >>> a = pyasc.arange(6, dtype=pyasc.float32).reshape(2, 3)
    >>> pyasc.einsum("ij->j", a).tolist()
    [3.0, 5.0, 7.0]
    """
    views = [np.asarray(o) for o in operands]
    result = _fallback.fall_back("einsum", lambda: np.einsum(subscripts, *views, **kwargs))
    return _C.asarray(np.ascontiguousarray(result))


def isclose(a: Any, b: Any, rtol: float = 1e-05, atol: float = 1e-08,
            equal_nan: bool = False) -> _C.Tensor:
    """Element-wise ``|a - b| <= atol + rtol * |b|`` (NumPy's ``isclose``).

    Infinities are close only to themselves, NaN to nothing unless
    ``equal_nan``. Integers and booleans compare as float64.

    Parameters
    ----------
    a, b : Tensor, array_like or scalar
        Broadcast against each other.
    rtol, atol : float
        The relative and absolute tolerances.
    equal_nan : bool
        Whether two NaNs are close.

    Returns
    -------
    Tensor
        bool, of the broadcast shape.

    Examples
    --------
    >>> pyasc.isclose(pyasc.asarray([1.0, 1e-9, float("nan")]), 0.0).tolist()
    [False, True, False]
    """
    x, y = _tensor(a), _tensor(b)
    dtype = _C.promote_types(x.dtype, y.dtype)
    if not (dtype.is_floating_point or dtype.name.startswith("complex")):
        dtype = _C.float64
    x, y = x.astype(dtype), y.astype(dtype)
    finite = _C.logical_and(_C.isfinite(x), _C.isfinite(y))
    close = _C.less_equal(_C.abs(_C.subtract(x, y)), atol + rtol * _C.abs(y))
    result = _C.where(finite, close, _C.equal(x, y))
    if equal_nan:
        result = _C.logical_or(result, _C.logical_and(_C.isnan(x), _C.isnan(y)))
    return result


def allclose(a: Any, b: Any, rtol: float = 1e-05, atol: float = 1e-08,
             equal_nan: bool = False) -> bool:
    """Whether every element pair is close (NumPy's ``allclose``).

    See :func:`isclose`.

    Parameters
    ----------
    a, b : Tensor, array_like or scalar
    rtol, atol : float
    equal_nan : bool

    Returns
    -------
    bool

    Examples
    --------
    >>> pyasc.allclose(pyasc.asarray([1.0, 2.0]), [1.0, 2.0 + 1e-9])
    True
    """
    return bool(_C.all(isclose(a, b, rtol, atol, equal_nan)))
