"""The Array API's FFT extension: pocketfft through numpy.fft (single
precision kept, as NumPy 2 does), on zero-copy views of the tensors."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from pyasc import _C
from pyasc.array_api._numpy_backed import call

_Axes = Sequence[int] | None
_Shape = Sequence[int] | None


def fft(x: _C.Tensor, /, *, n: int | None = None, axis: int = -1, norm: str = "backward") -> _C.Tensor:
    """The one-dimensional discrete Fourier transform."""
    return call(np.fft.fft, x, n=n, axis=axis, norm=norm)


def ifft(x: _C.Tensor, /, *, n: int | None = None, axis: int = -1, norm: str = "backward") -> _C.Tensor:
    """The inverse of fft."""
    return call(np.fft.ifft, x, n=n, axis=axis, norm=norm)


def fftn(x: _C.Tensor, /, *, s: _Shape = None, axes: _Axes = None, norm: str = "backward") -> _C.Tensor:
    """The n-dimensional discrete Fourier transform."""
    return call(np.fft.fftn, x, s=s, axes=axes, norm=norm)


def ifftn(x: _C.Tensor, /, *, s: _Shape = None, axes: _Axes = None, norm: str = "backward") -> _C.Tensor:
    """The inverse of fftn."""
    return call(np.fft.ifftn, x, s=s, axes=axes, norm=norm)


def rfft(x: _C.Tensor, /, *, n: int | None = None, axis: int = -1, norm: str = "backward") -> _C.Tensor:
    """fft of real input: the non-negative frequencies."""
    return call(np.fft.rfft, x, n=n, axis=axis, norm=norm)


def irfft(x: _C.Tensor, /, *, n: int | None = None, axis: int = -1, norm: str = "backward") -> _C.Tensor:
    """The inverse of rfft (a real result)."""
    return call(np.fft.irfft, x, n=n, axis=axis, norm=norm)


def rfftn(x: _C.Tensor, /, *, s: _Shape = None, axes: _Axes = None, norm: str = "backward") -> _C.Tensor:
    """fftn of real input."""
    return call(np.fft.rfftn, x, s=s, axes=axes, norm=norm)


def irfftn(x: _C.Tensor, /, *, s: _Shape = None, axes: _Axes = None, norm: str = "backward") -> _C.Tensor:
    """The inverse of rfftn."""
    return call(np.fft.irfftn, x, s=s, axes=axes, norm=norm)


def hfft(x: _C.Tensor, /, *, n: int | None = None, axis: int = -1, norm: str = "backward") -> _C.Tensor:
    """The FFT of a signal with Hermitian symmetry (a real spectrum)."""
    return call(np.fft.hfft, x, n=n, axis=axis, norm=norm)


def ihfft(x: _C.Tensor, /, *, n: int | None = None, axis: int = -1, norm: str = "backward") -> _C.Tensor:
    """The inverse of hfft."""
    return call(np.fft.ihfft, x, n=n, axis=axis, norm=norm)


def _frequencies(values: Any, dtype: Any, device: Any) -> _C.Tensor:
    t = _C.asarray(values) if dtype is None else _C.asarray(values).astype(dtype)
    return t if device is None else t.to_device(device)


def fftfreq(n: int, /, *, d: float = 1.0, dtype: Any = None, device: Any = None) -> _C.Tensor:
    """The sample frequencies of fft's output."""
    return _frequencies(np.fft.fftfreq(n, d), dtype, device)


def rfftfreq(n: int, /, *, d: float = 1.0, dtype: Any = None, device: Any = None) -> _C.Tensor:
    """The sample frequencies of rfft's output."""
    return _frequencies(np.fft.rfftfreq(n, d), dtype, device)


def fftshift(x: _C.Tensor, /, *, axes: _Axes = None) -> _C.Tensor:
    """The zero frequency moved to the centre."""
    return call(np.fft.fftshift, x, axes=axes)


def ifftshift(x: _C.Tensor, /, *, axes: _Axes = None) -> _C.Tensor:
    """The inverse of fftshift."""
    return call(np.fft.ifftshift, x, axes=axes)


__all__ = ["fft", "ifft", "fftn", "ifftn", "rfft", "irfft", "rfftn", "irfftn", "hfft", "ihfft",
           "fftfreq", "rfftfreq", "fftshift", "ifftshift"]
