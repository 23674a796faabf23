"""The Array API's creation functions: pyasc's, with the standard's
keywords (device=, copy=) and positional-only parameters."""

from __future__ import annotations

from typing import Any

import numpy as np

from pyasc import _C


def _on(t: _C.Tensor, device: Any) -> _C.Tensor:
    return t if device is None else t.to_device(device)


def asarray(obj: Any, /, *, dtype: Any = None, device: Any = None, copy: bool | None = None) -> _C.Tensor:
    """obj as a tensor: NumPy arrays, buffers and DLPack producers are
    shared when dtype allows (copy=None), always copied (copy=True), or
    never (copy=False: ValueError when a copy would be needed)."""
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
    """Evenly spaced values in [start, stop)."""
    return _on(_C.arange(start, stop, step, dtype=dtype), device)


def empty(shape: Any, *, dtype: Any = None, device: Any = None) -> _C.Tensor:
    """An uninitialised tensor."""
    return _on(_C.empty(shape, dtype), device)


def empty_like(x: _C.Tensor, /, *, dtype: Any = None, device: Any = None) -> _C.Tensor:
    """An uninitialised tensor of x's shape (and dtype)."""
    return _on(_C.empty_like(x, dtype), device)


def zeros(shape: Any, *, dtype: Any = None, device: Any = None) -> _C.Tensor:
    """A tensor of zeros."""
    return _on(_C.zeros(shape, dtype), device)


def zeros_like(x: _C.Tensor, /, *, dtype: Any = None, device: Any = None) -> _C.Tensor:
    """Zeros of x's shape (and dtype)."""
    return _on(_C.zeros_like(x, dtype), device)


def ones(shape: Any, *, dtype: Any = None, device: Any = None) -> _C.Tensor:
    """A tensor of ones."""
    return _on(_C.ones(shape, dtype), device)


def ones_like(x: _C.Tensor, /, *, dtype: Any = None, device: Any = None) -> _C.Tensor:
    """Ones of x's shape (and dtype)."""
    return _on(_C.ones_like(x, dtype), device)


def full(shape: Any, fill_value: Any, *, dtype: Any = None, device: Any = None) -> _C.Tensor:
    """A tensor of fill_value."""
    return _on(_C.full(shape, fill_value, dtype), device)


def full_like(x: _C.Tensor, /, fill_value: Any, *, dtype: Any = None,
              device: Any = None) -> _C.Tensor:
    """fill_value in x's shape (and dtype)."""
    return _on(_C.full_like(x, fill_value, dtype), device)


def eye(n_rows: int, n_cols: int | None = None, /, *, k: int = 0, dtype: Any = None,
        device: Any = None) -> _C.Tensor:
    """Ones on the k-th diagonal, zeros elsewhere."""
    return _on(_C.eye(n_rows, n_cols, k, dtype), device)


def linspace(start: Any, stop: Any, /, num: int, *, dtype: Any = None, device: Any = None,
             endpoint: bool = True) -> _C.Tensor:
    """num evenly spaced values from start to stop; complex ends space each
    part on its own."""
    if isinstance(start, complex) or isinstance(stop, complex):
        start, stop = complex(start), complex(stop)
        real = _C.linspace(start.real, stop.real, num, endpoint, _C.float64)
        imag = _C.linspace(start.imag, stop.imag, num, endpoint, _C.float64)
        result = real + imag * 1j
        return _on(result if dtype is None else result.astype(dtype), device)
    return _on(_C.linspace(start, stop, num, endpoint, dtype), device)


def from_dlpack(x: Any, /, *, device: Any = None, copy: bool | None = None) -> _C.Tensor:
    """A tensor sharing (or, copy=True, copying) a DLPack producer's memory."""
    return _C.from_dlpack(x, device=device, copy=copy)
