"""NumPy's index functions on pyasc tensors: ``take``, ``put``,
``take_along_axis`` and ``put_along_axis``.

Each builds an index key and lets the tensor's advanced indexing (in C,
``src/binding/tensor_index.c`` and ``src/tensor/advindex.c``) move the
elements: no Python loop runs per element. ``nonzero``, ``argwhere``,
``where(condition)`` and ``add_at`` are in ``pyasc._C``.
"""

from __future__ import annotations

from typing import Any

from pyasc import _C
from pyasc.trace import Value

_MODES = ("raise", "wrap", "clip")
_INTEGERS = (_C.int8, _C.uint8, _C.int16, _C.uint16, _C.int32, _C.uint32, _C.int64, _C.uint64)


def _axis(axis: int, ndim: int) -> int:
    """axis in [0, ndim), or IndexError as NumPy's AxisError."""
    if not -ndim <= axis < ndim:
        raise _C.IndexOutOfRangeError(
            f"axis {axis} is out of bounds for array of dimension {ndim}")
    return axis % ndim


def _source(a: Any) -> Any:
    """a as a tensor; a traced value stays one, so that gradients flow
    through the indexing (pyasc.grad of a function calling take)."""
    return a if isinstance(a, (_C.Tensor, Value)) else _C.asarray(a)


def _index_array(indices: Any) -> _C.Tensor:
    """indices as a tensor; a traced one by its value (no gradient)."""
    return _C.asarray(indices.numpy() if isinstance(indices, Value) else indices)


def _indices(indices: Any, what: str) -> _C.Tensor:
    """indices as an integer tensor (bools count as 0 and 1, as NumPy's take)."""
    ind = _index_array(indices)
    if ind.dtype == _C.bool_:
        return ind.astype(_C.int64)
    if ind.dtype not in _INTEGERS:
        raise _C.DTypeError(f"{what}: indices must be integers, not {ind.dtype}")
    return ind


def _apply_mode(ind: _C.Tensor, size: int, mode: str) -> _C.Tensor:
    """NumPy's out-of-range modes: 'raise' leaves the check to indexing."""
    if mode not in _MODES:
        raise _C.InvalidValueError(f"mode must be one of {_MODES}, not {mode!r}")
    if mode == "raise":
        return ind
    if size == 0:
        if ind.size:
            raise IndexError("cannot do a non-empty take from an empty axes.")
        return ind
    ind = ind.astype(_C.int64)
    return ind % size if mode == "wrap" else _C.clip(ind, 0, size - 1)


def take(a: Any, indices: Any, axis: int | None = None, *, mode: str = "raise") -> Any:
    """Elements of ``a`` at ``indices`` along ``axis`` (NumPy's ``take``).

    Parameters
    ----------
    a : array_like
        The source.
    indices : array_like of int
        The positions to take; negative ones count from the end.
    axis : int, optional
        The axis to take along; ``None`` (the default) takes from ``a``
        flattened.
    mode : {'raise', 'wrap', 'clip'}
        What an index out of range does: raise ``IndexError``, wrap around,
        or clip to the axis.

    Returns
    -------
    Tensor
        A new tensor of shape ``a.shape[:axis] + indices.shape +
        a.shape[axis + 1:]`` (a traced value inside ``pyasc.grad``, whose
        gradient adds back at the positions taken).

    Examples
    --------
    >>> import pyasc
    >>> pyasc.take(pyasc.arange(10, 15), [3, 0]).tolist()
    [13, 10]
    """
    x = _source(a)
    if axis is None:
        x, axis = x.reshape(-1), 0
    axis = _axis(axis, x.ndim)
    ind = _apply_mode(_indices(indices, "take"), x.shape[axis], mode)
    result = x[(slice(None),) * axis + (ind,)]
    # a 0-d index is a basic index, whose result is a view
    return result.copy() if ind.ndim == 0 and isinstance(result, _C.Tensor) else result


def put(a: _C.Tensor, ind: Any, v: Any, *, mode: str = "raise") -> None:
    """``a.flat[ind] = v`` in place (NumPy's ``put``).

    Parameters
    ----------
    a : Tensor
        The destination, indexed as if flattened in C order.
    ind : array_like of int
        Flat positions; negative ones count from the end.
    v : array_like
        The values, repeated cyclically when fewer than ``ind`` and cast to
        ``a``'s dtype; where a position repeats, the last value wins.
    mode : {'raise', 'wrap', 'clip'}
        As in :func:`take`.

    Returns
    -------
    None
        ``a`` is changed in place.

    Raises
    ------
    TypeError
        If ``a`` is not a pyasc.Tensor.
    DTypeError
        If ``ind`` is not integers.

    Examples
    --------
    >>> import pyasc
    >>> x = pyasc.zeros(4, dtype=pyasc.int32)
    >>> pyasc.put(x, [0, 2], [5, 6])
    >>> x.tolist()
    [5, 0, 6, 0]
    """
    if not isinstance(a, _C.Tensor):
        raise TypeError(f"put: a must be a pyasc.Tensor (it is changed in place), not "
                        f"{type(a).__name__}")
    flat_ind = _apply_mode(_indices(ind, "put").reshape(-1), a.size, mode)
    values = _C.asarray(v).reshape(-1)
    if flat_ind.size == 0 or values.size == 0:
        return
    if values.size != flat_ind.size:
        values = values[_C.arange(flat_ind.size) % values.size]
    if a.is_contiguous():
        a.reshape(-1)[flat_ind] = values  # a view of a
        return
    flat = a.flatten()
    flat[flat_ind] = values
    a[...] = flat.reshape(*a.shape)


def _along_axis_key(x: Any, ind: _C.Tensor, axis: int) -> tuple[Any, ...]:
    """The key x[key] == take_along_axis(x, ind, axis): ind on axis, each other
    axis indexed by its own positions, broadcast."""
    if ind.ndim != x.ndim:
        raise _C.InvalidValueError("`indices` and `arr` must have the same number of dimensions")
    key: list[Any] = []
    for d in range(x.ndim):
        if d == axis:
            key.append(ind)
            continue
        shape = [1] * x.ndim
        shape[d] = x.shape[d]
        key.append(_C.arange(x.shape[d]).reshape(*shape))
    return tuple(key)


def _along_axis(arr: Any, indices: Any, axis: int | None,
                what: str) -> tuple[Any, tuple[Any, ...]]:
    x = _source(arr)
    ind = _index_array(indices)
    if ind.dtype not in _INTEGERS:
        raise IndexError("`indices` must be an integer array")
    if axis is None:
        if ind.ndim != 1:
            raise _C.InvalidValueError("when axis=None, `indices` must have a single dimension.")
        x, axis = x.reshape(-1), 0
    return x, _along_axis_key(x, ind, _axis(axis, x.ndim))


def take_along_axis(arr: Any, indices: Any, axis: int | None = -1) -> Any:
    """Values of ``arr`` at ``indices`` along ``axis``, as after ``argsort``.

    NumPy's ``take_along_axis``: on the other axes, ``indices`` is matched
    with ``arr`` by position.

    Parameters
    ----------
    arr : array_like
        The source.
    indices : array_like of int
        As many axes as ``arr``; on the other axes its lengths broadcast
        with ``arr``'s.
    axis : int or None
        The axis to take along (default the last); ``None`` takes from
        ``arr`` flattened with 1-d ``indices``.

    Returns
    -------
    Tensor
        A new tensor of the broadcast shape.

    Examples
    --------
    >>> import numpy as np, pyasc
    >>> x = pyasc.Tensor(np.array([[10, 30, 20], [60, 40, 50]]))
    >>> pyasc.take_along_axis(x, [[0], [1]], axis=1).tolist()
    [[10], [40]]
    """
    x, key = _along_axis(arr, indices, axis, "take_along_axis")
    return x[key]


def put_along_axis(arr: _C.Tensor, indices: Any, values: Any, axis: int | None) -> None:
    """Sets ``arr``'s elements at ``indices`` along ``axis`` to ``values``, in place.

    The inverse of :func:`take_along_axis` (NumPy's ``put_along_axis``).

    Parameters
    ----------
    arr : Tensor
        The destination.
    indices : array_like of int
        As many axes as ``arr``; on the other axes its lengths broadcast
        with ``arr``'s.
    values : scalar or array_like
        The values, broadcast to the positions indexed.
    axis : int or None
        The axis to put along; ``None`` puts into ``arr`` flattened (which
        must then be contiguous) with 1-d ``indices``.

    Returns
    -------
    None
        ``arr`` is changed in place.

    Raises
    ------
    TypeError
        If ``arr`` is not a pyasc.Tensor.
    InvalidValueError
        If ``indices`` has not as many axes as ``arr``.

    Examples
    --------
    >>> import numpy as np, pyasc
    >>> x = pyasc.zeros((2, 2))
    >>> pyasc.put_along_axis(x, [[1], [0]], 5.0, axis=1)
    >>> x.tolist()
    [[0.0, 5.0], [5.0, 0.0]]
    """
    if not isinstance(arr, _C.Tensor):
        raise TypeError(f"put_along_axis: arr must be a pyasc.Tensor (it is changed in place), "
                        f"not {type(arr).__name__}")
    if axis is None:
        if not arr.is_contiguous():
            raise _C.InvalidValueError("put_along_axis with axis=None needs a contiguous arr")
        arr = arr.reshape(-1)
        axis = 0
    x, key = _along_axis(arr, indices, axis, "put_along_axis")
    x[key] = values
