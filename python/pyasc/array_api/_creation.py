"""The Array API's creation functions: pyasc's, with the standard's
keywords (device=, copy=) and positional-only parameters."""

from __future__ import annotations

from typing import Any, Protocol

import numpy as np

from pyasc import _C
from pyasc._docs import documented, named, numpy_doc


def _on(t: _C.Tensor, device: Any) -> _C.Tensor:
    return t if device is None else t.to_device(device)


def asarray(obj: Any, /, *, dtype: Any = None, device: Any = None, copy: bool | None = None) -> _C.Tensor:
    """obj as a tensor, the Array API's asarray.

    Parameters
    ----------
    obj : Tensor or array_like
        A tensor, a NumPy array, a buffer, a DLPack producer, a Python scalar
        or a (nested) sequence.
    dtype : dtype, optional
        The element type; obj's by default.
    device : str or int, optional
        The device ('cpu', 'cpu:N' or an index); the current one by default.
    copy : bool or None, optional
        None (the default) shares obj's memory when the dtype allows, True
        always copies, False never does.

    Returns
    -------
    Tensor
        The tensor: obj's memory, or a copy.

    Raises
    ------
    ValueError
        If copy is False and obj cannot be used without a copy.

    Examples
    --------
    >>> xp = pyasc.array_api
    >>> a = np.array([1.0, 2.0])
    >>> t = xp.asarray(a)
    >>> a[0] = 9
    >>> t
    Tensor([9., 2.], dtype=float64)
    >>> xp.asarray([1, 2], dtype=xp.float32)
    Tensor([1., 2.], dtype=float32)
    """
    if copy is True:
        return _on(_C.Tensor(obj, dtype), device)
    t = _C.asarray(obj, dtype)
    if copy is False and not _shares(obj, t):
        raise ValueError("asarray(copy=False): the input cannot be used without a copy")
    return _on(t, device)


def _shares(obj: Any, t: _C.Tensor) -> bool:
    """Whether t uses obj's memory (so asarray made no copy)."""
    if t.size == 0:
        return True
    if isinstance(obj, _C.Tensor):
        return obj.data_ptr == t.data_ptr
    if isinstance(obj, (np.ndarray, memoryview, bytearray)):
        return int(np.asarray(obj).__array_interface__["data"][0]) == t.data_ptr
    return hasattr(obj, "__dlpack__")  # from_dlpack shares or raises


def arange(start: Any, /, stop: Any = None, step: Any = 1, *, dtype: Any = None,
           device: Any = None) -> _C.Tensor:
    """Evenly spaced values in the half-open interval [start, stop).

    Parameters
    ----------
    start : number
        The first value; the end, when stop is not given (then from 0).
    stop : number, optional
        The end of the interval, not included.
    step : number, optional
        The spacing (1 by default).
    dtype : dtype, optional
        int64 for integer arguments, else float64, by default.
    device : str or int, optional
        The device ('cpu', 'cpu:N' or an index); the current one by default.

    Returns
    -------
    Tensor
        The values.

    Raises
    ------
    InvalidValueError
        If step is 0.

    Examples
    --------
    >>> pyasc.array_api.arange(3)
    Tensor([0, 1, 2], dtype=int64)
    """
    return _on(_C.arange(start, stop, step, dtype=dtype), device)


class _New(Protocol):
    """zeros's signature."""

    def __call__(self, shape: Any, *, dtype: Any = None, device: Any = None) -> _C.Tensor: ...


class _NewLike(Protocol):
    """zeros_like's signature."""

    def __call__(self, x: _C.Tensor, /, *, dtype: Any = None, device: Any = None) -> _C.Tensor: ...


# the docstrings' shared Parameters entries
_SHAPE = "shape : int or tuple of int\n    The shape of the new tensor.\n"
_LIKE = "x : Tensor\n    The tensor whose shape (and dtype) the new one takes.\n"
_FILL = "fill_value : scalar\n    The value of every element.\n"
_DTYPE = "dtype : dtype, optional\n    The element type; "
_DEVICE = "device : str or int, optional\n" \
          "    The device ('cpu', 'cpu:N' or an index); the current one by default.\n"
_DEFAULT_DTYPE = _DTYPE + "float64 by default.\n" + _DEVICE
_LIKE_DTYPE = _DTYPE + "x's by default.\n" + _DEVICE


def _new(fn: Any, summary: str, returns: str, examples: str) -> _New:
    def new(shape: Any, *, dtype: Any = None, device: Any = None) -> _C.Tensor:
        return _on(fn(shape, dtype), device)
    named(new, fn.__name__, numpy_doc(summary, _SHAPE + _DEFAULT_DTYPE, returns, examples))
    return new


def _new_like(fn: Any, summary: str, returns: str, examples: str) -> _NewLike:
    def new_like(x: _C.Tensor, /, *, dtype: Any = None, device: Any = None) -> _C.Tensor:
        return _on(fn(x, dtype), device)
    named(new_like, fn.__name__, numpy_doc(summary, _LIKE + _LIKE_DTYPE, returns, examples))
    return new_like


_UNSET = "The tensor; its elements are whatever the memory held."
empty = _new(_C.empty, "A new tensor whose elements are not initialised.", _UNSET,
             ">>> pyasc.array_api.empty((2, 3)).shape\n(2, 3)")
empty_like = _new_like(_C.empty_like, "A new tensor of x's shape and dtype, not initialised.",
                       _UNSET, ">>> pyasc.array_api.empty_like(pyasc.zeros(2)).shape\n(2,)")
zeros = _new(_C.zeros, "A new tensor of zeros.", "The zeros.",
             '>>> pyasc.array_api.zeros(2, device="cpu")\nTensor([0., 0.], dtype=float64)')
zeros_like = _new_like(_C.zeros_like, "A new tensor of zeros with x's shape and dtype.",
                       "The zeros.", ">>> pyasc.array_api.zeros_like(pyasc.asarray([1, 2]))\n"
                       "Tensor([0, 0], dtype=int64)")
ones = _new(_C.ones, "A new tensor of ones.", "The ones.",
            ">>> pyasc.array_api.ones(2, dtype=pyasc.array_api.int32)\n"
            "Tensor([1, 1], dtype=int32)")
ones_like = _new_like(_C.ones_like, "A new tensor of ones with x's shape and dtype.", "The ones.",
                      ">>> pyasc.array_api.ones_like(pyasc.asarray([1, 2]))\n"
                      "Tensor([1, 1], dtype=int64)")


@documented("A new tensor filled with fill_value.",
            _SHAPE + _FILL + _DTYPE + "fill_value's by default (bool, int64, float64 or\n"
            "    complex128).\n" + _DEVICE, "The tensor.",
            ">>> pyasc.array_api.full(2, 7)\nTensor([7, 7], dtype=int64)")
def full(shape: Any, fill_value: Any, *, dtype: Any = None, device: Any = None) -> _C.Tensor:
    return _on(_C.full(shape, fill_value, dtype), device)


@documented("A new tensor of fill_value with x's shape and dtype.", _LIKE + _FILL + _LIKE_DTYPE,
            "The tensor.",
            ">>> pyasc.array_api.full_like(pyasc.zeros(2), 3.5)\nTensor([3.5, 3.5], dtype=float64)")
def full_like(x: _C.Tensor, /, fill_value: Any, *, dtype: Any = None,
              device: Any = None) -> _C.Tensor:
    return _on(_C.full_like(x, fill_value, dtype), device)


def eye(n_rows: int, n_cols: int | None = None, /, *, k: int = 0, dtype: Any = None,
        device: Any = None) -> _C.Tensor:
    """A matrix with ones on the k-th diagonal and zeros elsewhere.

    Parameters
    ----------
    n_rows : int
        The number of rows.
    n_cols : int, optional
        The number of columns (n_rows by default).
    k : int, optional
        The diagonal: 0 the main one, positive above it, negative below.
    dtype : dtype, optional
        The element type; float64 by default.
    device : str or int, optional
        The device ('cpu', 'cpu:N' or an index); the current one by default.

    Returns
    -------
    Tensor
        The n_rows x n_cols matrix.

    Examples
    --------
    >>> pyasc.array_api.eye(2, 3, k=1).tolist()
    [[0.0, 1.0, 0.0], [0.0, 0.0, 1.0]]
    """
    return _on(_C.eye(n_rows, n_cols, k, dtype), device)


def linspace(start: Any, stop: Any, /, num: int, *, dtype: Any = None, device: Any = None,
             endpoint: bool = True) -> _C.Tensor:
    """num evenly spaced values from start to stop.

    Parameters
    ----------
    start, stop : number
        The ends; complex ends space the real and imaginary parts each on
        its own.
    num : int
        How many values.
    dtype : dtype, optional
        The element type; float64 by default.
    device : str or int, optional
        The device ('cpu', 'cpu:N' or an index); the current one by default.
    endpoint : bool, optional
        Whether stop is the last value (True by default).

    Returns
    -------
    Tensor
        The values.

    Raises
    ------
    InvalidValueError
        If num is negative.

    Examples
    --------
    >>> pyasc.array_api.linspace(0, 1, 5)
    Tensor([0.  , 0.25, 0.5 , 0.75, 1.  ], dtype=float64)
    """
    if isinstance(start, complex) or isinstance(stop, complex):
        start, stop = complex(start), complex(stop)
        real = _C.linspace(start.real, stop.real, num, endpoint, _C.float64)
        imag = _C.linspace(start.imag, stop.imag, num, endpoint, _C.float64)
        result = real + imag * 1j
        return _on(result if dtype is None else result.astype(dtype), device)
    return _on(_C.linspace(start, stop, num, endpoint, dtype), device)


def from_dlpack(x: Any, /, *, device: Any = None, copy: bool | None = None) -> _C.Tensor:
    """A tensor sharing a DLPack producer's memory.

    Parameters
    ----------
    x : object
        An object with __dlpack__ (NumPy, PyTorch, JAX...) or a DLPack capsule.
    device : str or int, optional
        The device ('cpu', 'cpu:N' or an index); the current one by default.
    copy : bool or None, optional
        True for a private copy instead of shared memory.

    Returns
    -------
    Tensor
        The tensor over x's memory (or a copy).

    Raises
    ------
    UnsupportedError
        If the memory is not host memory.

    Examples
    --------
    >>> pyasc.array_api.from_dlpack(np.array([1, 2], dtype=np.int32))
    Tensor([1, 2], dtype=int32)
    """
    return _C.from_dlpack(x, device=device, copy=copy)
