"""The Array API's FFT extension: pocketfft through numpy.fft (single
precision kept, as NumPy 2 does), on zero-copy views of the tensors."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Protocol

import numpy as np

from pyasc import _C
from pyasc._docs import X_INPUT, named, numpy_doc
from pyasc.array_api._numpy_backed import call_tensor

_Axes = Sequence[int] | None
_Shape = Sequence[int] | None


class _Transform(Protocol):
    """A one-dimensional transform: fft's signature."""

    def __call__(self, x: _C.Tensor, /, *, n: int | None = None, axis: int = -1,
                 norm: str = "backward") -> _C.Tensor: ...


class _TransformN(Protocol):
    """An n-dimensional transform: fftn's signature."""

    def __call__(self, x: _C.Tensor, /, *, s: _Shape = None, axes: _Axes = None,
                 norm: str = "backward") -> _C.Tensor: ...


class _Frequencies(Protocol):
    """fftfreq's signature."""

    def __call__(self, n: int, /, *, d: float = 1.0, dtype: Any = None,
                 device: Any = None) -> _C.Tensor: ...


class _Shift(Protocol):
    """fftshift's signature."""

    def __call__(self, x: _C.Tensor, /, *, axes: _Axes = None) -> _C.Tensor: ...


# the docstrings' Parameters entries (the 1-D transforms' with n's default
# length filled in) and what the transforms raise
_NORM = "norm : {'backward', 'ortho', 'forward'}, optional\n    Which direction is scaled"
_NORM_RAISES = "ValueError\n    If norm is not one of those.\n"
_PARAMS_1D = X_INPUT + """n : int, optional
    The length of the transform along axis: x is cropped or zero-padded to
    it ({length} by default).
axis : int, optional
    The axis to transform (the last by default).
""" + _NORM + """ by 1/n, as numpy.fft's ('backward' by
    default: the inverse).
"""
_PARAMS_ND = X_INPUT + """s : sequence of int, optional
    The lengths of the transform along axes (x's by default).
axes : sequence of int, optional
    The axes to transform (all by default).
""" + _NORM + ", as numpy.fft's ('backward' by default).\n"
_PARAMS_FREQ = """n : int
    The transform's length.
d : float, optional
    The sample spacing (1 by default).
dtype : dtype, optional
    The element type (float64 by default).
device : str or int, optional
    The device (the current one by default).
"""
_AXES_SHIFT = "axes : sequence of int, optional\n    The axes to shift (all by default).\n"

# the examples' first lines
_F = ">>> f = pyasc.array_api.fft\n"
_X = _F + ">>> x = pyasc.asarray([1.0, 2.0, 3.0, 4.0])\n"
_M = _F + ">>> m = pyasc.asarray([[1.0, 2.0], [3.0, 4.0]])\n"


def _transform(np_fn: Callable[..., Any], summary: str, length: str, returns: str,
               examples: str) -> _Transform:
    def transform(x: _C.Tensor, /, *, n: int | None = None, axis: int = -1,
                  norm: str = "backward") -> _C.Tensor:
        return call_tensor(np_fn, x, n=n, axis=axis, norm=norm)
    named(transform, np_fn.__name__, numpy_doc(summary, _PARAMS_1D.replace("{length}", length),
                                               returns, examples, _NORM_RAISES))
    return transform


def _transform_n(np_fn: Callable[..., Any], summary: str, returns: str,
                 examples: str) -> _TransformN:
    def transform(x: _C.Tensor, /, *, s: _Shape = None, axes: _Axes = None,
                  norm: str = "backward") -> _C.Tensor:
        return call_tensor(np_fn, x, s=s, axes=axes, norm=norm)
    named(transform, np_fn.__name__, numpy_doc(summary, _PARAMS_ND, returns, examples,
                                               _NORM_RAISES))
    return transform


def _frequencies(np_fn: Callable[..., Any], summary: str, returns: str,
                 examples: str) -> _Frequencies:
    def frequencies(n: int, /, *, d: float = 1.0, dtype: Any = None,
                    device: Any = None) -> _C.Tensor:
        t: _C.Tensor = _C.asarray(np_fn(n, d))
        t = t if dtype is None else t.astype(dtype)
        return t if device is None else t.to_device(device)
    named(frequencies, np_fn.__name__, numpy_doc(summary, _PARAMS_FREQ, returns, examples))
    return frequencies


def _shift(np_fn: Callable[..., Any], summary: str, x: str, returns: str,
           examples: str) -> _Shift:
    def shift(x: _C.Tensor, /, *, axes: _Axes = None) -> _C.Tensor:
        return call_tensor(np_fn, x, axes=axes)
    named(shift, np_fn.__name__, numpy_doc(summary, f"x : Tensor\n    {x}\n" + _AXES_SHIFT,
                                           returns, examples))
    return shift


fft = _transform(
    np.fft.fft, "The one-dimensional discrete Fourier transform.", "x's length",
    "The complex transform (complex64 for single precision input).",
    _X + ">>> f.fft(x)\nTensor([10.+0.j, -2.+2.j, -2.+0.j, -2.-2.j], dtype=complex128)")
ifft = _transform(
    np.fft.ifft, "The inverse of fft.", "x's length", "The complex inverse transform.",
    _X + ">>> pyasc.real(f.ifft(f.fft(x)))\nTensor([1., 2., 3., 4.], dtype=float64)")
fftn = _transform_n(
    np.fft.fftn, "The n-dimensional discrete Fourier transform.", "The complex transform.",
    _M + ">>> f.fftn(m)\nTensor([[10.+0.j, -2.+0.j],\n        [-4.+0.j,  0.+0.j]], dtype=complex128)")
ifftn = _transform_n(
    np.fft.ifftn, "The inverse of fftn.", "The complex inverse transform.",
    _M + ">>> pyasc.real(f.ifftn(f.fftn(m)))\nTensor([[1., 2.],\n        [3., 4.]], dtype=float64)")
rfft = _transform(
    np.fft.rfft, "The discrete Fourier transform of real input: the non-negative frequencies.",
    "x's length", "The n // 2 + 1 complex coefficients.",
    _X + ">>> f.rfft(x)\nTensor([10.+0.j, -2.+2.j, -2.+0.j], dtype=complex128)")
irfft = _transform(
    np.fft.irfft, "The inverse of rfft, a real result.", "2 * (x's length - 1)", "The real signal.",
    _X + ">>> f.irfft(f.rfft(x))\nTensor([1., 2., 3., 4.], dtype=float64)")
rfftn = _transform_n(
    np.fft.rfftn, "The n-dimensional discrete Fourier transform of real input.",
    "The complex transform, halved along the last axis.",
    _M + ">>> f.rfftn(m)\nTensor([[10.+0.j, -2.+0.j],\n        [-4.+0.j,  0.+0.j]], dtype=complex128)")
irfftn = _transform_n(
    np.fft.irfftn, "The inverse of rfftn, a real result.", "The real signal.",
    _M + ">>> f.irfftn(f.rfftn(m), s=(2, 2), axes=(0, 1))\n"
    "Tensor([[1., 2.],\n        [3., 4.]], dtype=float64)")
hfft = _transform(
    np.fft.hfft, "The Fourier transform of a signal with Hermitian symmetry: a real spectrum.",
    "2 * (x's length - 1)", "The real spectrum.",
    ">>> pyasc.array_api.fft.hfft(pyasc.asarray([1.0, 2.0, 3.0]))\n"
    "Tensor([ 8., -2.,  0., -2.], dtype=float64)")
ihfft = _transform(
    np.fft.ihfft, "The inverse of hfft.", "x's length",
    "The n // 2 + 1 complex coefficients of the Hermitian signal.",
    _F + ">>> pyasc.real(f.ihfft(f.hfft(pyasc.asarray([1.0, 2.0, 3.0]))))\n"
    "Tensor([1., 2., 3.], dtype=float64)")
fftfreq = _frequencies(
    np.fft.fftfreq, "The sample frequencies of fft's output.",
    "The n frequencies: 0, the positive ones, then the negative ones.",
    ">>> pyasc.array_api.fft.fftfreq(4)\nTensor([ 0.  ,  0.25, -0.5 , -0.25], dtype=float64)")
rfftfreq = _frequencies(
    np.fft.rfftfreq, "The sample frequencies of rfft's output.",
    "The n // 2 + 1 non-negative frequencies.",
    ">>> pyasc.array_api.fft.rfftfreq(4)\nTensor([0.  , 0.25, 0.5 ], dtype=float64)")
fftshift = _shift(
    np.fft.fftshift, "The zero frequency moved to the centre.", "A spectrum, as fft gives it.",
    "x rolled by half its length along axes.",
    ">>> pyasc.array_api.fft.fftshift(pyasc.arange(5))\nTensor([3, 4, 0, 1, 2], dtype=int64)")
ifftshift = _shift(
    np.fft.ifftshift, "The inverse of fftshift.", "A centred spectrum.", "x rolled back.",
    _F + ">>> f.ifftshift(f.fftshift(pyasc.arange(5)))\nTensor([0, 1, 2, 3, 4], dtype=int64)")

__all__ = ["fft", "ifft", "fftn", "ifftn", "rfft", "irfft", "rfftn", "irfftn", "hfft", "ihfft",
           "fftfreq", "rfftfreq", "fftshift", "ifftshift"]
