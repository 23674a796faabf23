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
    """The one-dimensional discrete Fourier transform.

    Parameters
    ----------
    x : Tensor
        The input.
    n : int, optional
        The length of the transform along axis: x is cropped or zero-padded to
        it (x's length by default).
    axis : int, optional
        The axis to transform (the last by default).
    norm : {'backward', 'ortho', 'forward'}, optional
        Which direction is scaled by 1/n, as numpy.fft's ('backward' by
        default: the inverse).

    Returns
    -------
    Tensor
        The complex transform (complex64 for single precision input).

    Raises
    ------
    ValueError
        If norm is not one of those.

    Examples
    --------
    >>> f = pyasc.array_api.fft
    >>> x = pyasc.asarray([1.0, 2.0, 3.0, 4.0])
    >>> f.fft(x)
    Tensor([10.+0.j, -2.+2.j, -2.+0.j, -2.-2.j], dtype=complex128)
    """
    return call(np.fft.fft, x, n=n, axis=axis, norm=norm)


def ifft(x: _C.Tensor, /, *, n: int | None = None, axis: int = -1, norm: str = "backward") -> _C.Tensor:
    """The inverse of fft.

    Parameters
    ----------
    x : Tensor
        The input.
    n : int, optional
        The length of the transform along axis: x is cropped or zero-padded to
        it (x's length by default).
    axis : int, optional
        The axis to transform (the last by default).
    norm : {'backward', 'ortho', 'forward'}, optional
        Which direction is scaled by 1/n, as numpy.fft's ('backward' by
        default: the inverse).

    Returns
    -------
    Tensor
        The complex inverse transform.

    Raises
    ------
    ValueError
        If norm is not one of those.

    Examples
    --------
    >>> f = pyasc.array_api.fft
    >>> x = pyasc.asarray([1.0, 2.0, 3.0, 4.0])
    >>> pyasc.real(f.ifft(f.fft(x)))
    Tensor([1., 2., 3., 4.], dtype=float64)
    """
    return call(np.fft.ifft, x, n=n, axis=axis, norm=norm)


def fftn(x: _C.Tensor, /, *, s: _Shape = None, axes: _Axes = None, norm: str = "backward") -> _C.Tensor:
    """The n-dimensional discrete Fourier transform.

    Parameters
    ----------
    x : Tensor
        The input.
    s : sequence of int, optional
        The lengths of the transform along axes (x's by default).
    axes : sequence of int, optional
        The axes to transform (all by default).
    norm : {'backward', 'ortho', 'forward'}, optional
        Which direction is scaled, as numpy.fft's ('backward' by default).

    Returns
    -------
    Tensor
        The complex transform.

    Raises
    ------
    ValueError
        If norm is not one of those.

    Examples
    --------
    >>> f = pyasc.array_api.fft
    >>> m = pyasc.asarray([[1.0, 2.0], [3.0, 4.0]])
    >>> f.fftn(m)
    Tensor([[10.+0.j, -2.+0.j],
            [-4.+0.j,  0.+0.j]], dtype=complex128)
    """
    return call(np.fft.fftn, x, s=s, axes=axes, norm=norm)


def ifftn(x: _C.Tensor, /, *, s: _Shape = None, axes: _Axes = None, norm: str = "backward") -> _C.Tensor:
    """The inverse of fftn.

    Parameters
    ----------
    x : Tensor
        The input.
    s : sequence of int, optional
        The lengths of the transform along axes (x's by default).
    axes : sequence of int, optional
        The axes to transform (all by default).
    norm : {'backward', 'ortho', 'forward'}, optional
        Which direction is scaled, as numpy.fft's ('backward' by default).

    Returns
    -------
    Tensor
        The complex inverse transform.

    Raises
    ------
    ValueError
        If norm is not one of those.

    Examples
    --------
    >>> f = pyasc.array_api.fft
    >>> m = pyasc.asarray([[1.0, 2.0], [3.0, 4.0]])
    >>> pyasc.real(f.ifftn(f.fftn(m)))
    Tensor([[1., 2.],
            [3., 4.]], dtype=float64)
    """
    return call(np.fft.ifftn, x, s=s, axes=axes, norm=norm)


def rfft(x: _C.Tensor, /, *, n: int | None = None, axis: int = -1, norm: str = "backward") -> _C.Tensor:
    """The discrete Fourier transform of real input: the non-negative frequencies.

    Parameters
    ----------
    x : Tensor
        The input.
    n : int, optional
        The length of the transform along axis: x is cropped or zero-padded to
        it (x's length by default).
    axis : int, optional
        The axis to transform (the last by default).
    norm : {'backward', 'ortho', 'forward'}, optional
        Which direction is scaled by 1/n, as numpy.fft's ('backward' by
        default: the inverse).

    Returns
    -------
    Tensor
        The n // 2 + 1 complex coefficients.

    Raises
    ------
    ValueError
        If norm is not one of those.

    Examples
    --------
    >>> f = pyasc.array_api.fft
    >>> x = pyasc.asarray([1.0, 2.0, 3.0, 4.0])
    >>> f.rfft(x)
    Tensor([10.+0.j, -2.+2.j, -2.+0.j], dtype=complex128)
    """
    return call(np.fft.rfft, x, n=n, axis=axis, norm=norm)


def irfft(x: _C.Tensor, /, *, n: int | None = None, axis: int = -1, norm: str = "backward") -> _C.Tensor:
    """The inverse of rfft, a real result.

    Parameters
    ----------
    x : Tensor
        The input.
    n : int, optional
        The length of the transform along axis: x is cropped or zero-padded to
        it (2 * (x's length - 1) by default).
    axis : int, optional
        The axis to transform (the last by default).
    norm : {'backward', 'ortho', 'forward'}, optional
        Which direction is scaled by 1/n, as numpy.fft's ('backward' by
        default: the inverse).

    Returns
    -------
    Tensor
        The real signal.

    Raises
    ------
    ValueError
        If norm is not one of those.

    Examples
    --------
    >>> f = pyasc.array_api.fft
    >>> x = pyasc.asarray([1.0, 2.0, 3.0, 4.0])
    >>> f.irfft(f.rfft(x))
    Tensor([1., 2., 3., 4.], dtype=float64)
    """
    return call(np.fft.irfft, x, n=n, axis=axis, norm=norm)


def rfftn(x: _C.Tensor, /, *, s: _Shape = None, axes: _Axes = None, norm: str = "backward") -> _C.Tensor:
    """The n-dimensional discrete Fourier transform of real input.

    Parameters
    ----------
    x : Tensor
        The input.
    s : sequence of int, optional
        The lengths of the transform along axes (x's by default).
    axes : sequence of int, optional
        The axes to transform (all by default).
    norm : {'backward', 'ortho', 'forward'}, optional
        Which direction is scaled, as numpy.fft's ('backward' by default).

    Returns
    -------
    Tensor
        The complex transform, halved along the last axis.

    Raises
    ------
    ValueError
        If norm is not one of those.

    Examples
    --------
    >>> f = pyasc.array_api.fft
    >>> m = pyasc.asarray([[1.0, 2.0], [3.0, 4.0]])
    >>> f.rfftn(m)
    Tensor([[10.+0.j, -2.+0.j],
            [-4.+0.j,  0.+0.j]], dtype=complex128)
    """
    return call(np.fft.rfftn, x, s=s, axes=axes, norm=norm)


def irfftn(x: _C.Tensor, /, *, s: _Shape = None, axes: _Axes = None, norm: str = "backward") -> _C.Tensor:
    """The inverse of rfftn, a real result.

    Parameters
    ----------
    x : Tensor
        The input.
    s : sequence of int, optional
        The lengths of the transform along axes (x's by default).
    axes : sequence of int, optional
        The axes to transform (all by default).
    norm : {'backward', 'ortho', 'forward'}, optional
        Which direction is scaled, as numpy.fft's ('backward' by default).

    Returns
    -------
    Tensor
        The real signal.

    Raises
    ------
    ValueError
        If norm is not one of those.

    Examples
    --------
    >>> f = pyasc.array_api.fft
    >>> m = pyasc.asarray([[1.0, 2.0], [3.0, 4.0]])
    >>> f.irfftn(f.rfftn(m), s=(2, 2), axes=(0, 1))
    Tensor([[1., 2.],
            [3., 4.]], dtype=float64)
    """
    return call(np.fft.irfftn, x, s=s, axes=axes, norm=norm)


def hfft(x: _C.Tensor, /, *, n: int | None = None, axis: int = -1, norm: str = "backward") -> _C.Tensor:
    """The Fourier transform of a signal with Hermitian symmetry: a real spectrum.

    Parameters
    ----------
    x : Tensor
        The input.
    n : int, optional
        The length of the transform along axis: x is cropped or zero-padded to
        it (2 * (x's length - 1) by default).
    axis : int, optional
        The axis to transform (the last by default).
    norm : {'backward', 'ortho', 'forward'}, optional
        Which direction is scaled by 1/n, as numpy.fft's ('backward' by
        default: the inverse).

    Returns
    -------
    Tensor
        The real spectrum.

    Raises
    ------
    ValueError
        If norm is not one of those.

    Examples
    --------
    >>> pyasc.array_api.fft.hfft(pyasc.asarray([1.0, 2.0, 3.0]))
    Tensor([ 8., -2.,  0., -2.], dtype=float64)
    """
    return call(np.fft.hfft, x, n=n, axis=axis, norm=norm)


def ihfft(x: _C.Tensor, /, *, n: int | None = None, axis: int = -1, norm: str = "backward") -> _C.Tensor:
    """The inverse of hfft.

    Parameters
    ----------
    x : Tensor
        The input.
    n : int, optional
        The length of the transform along axis: x is cropped or zero-padded to
        it (x's length by default).
    axis : int, optional
        The axis to transform (the last by default).
    norm : {'backward', 'ortho', 'forward'}, optional
        Which direction is scaled by 1/n, as numpy.fft's ('backward' by
        default: the inverse).

    Returns
    -------
    Tensor
        The n // 2 + 1 complex coefficients of the Hermitian signal.

    Raises
    ------
    ValueError
        If norm is not one of those.

    Examples
    --------
    >>> f = pyasc.array_api.fft
    >>> pyasc.real(f.ihfft(f.hfft(pyasc.asarray([1.0, 2.0, 3.0]))))
    Tensor([1., 2., 3.], dtype=float64)
    """
    return call(np.fft.ihfft, x, n=n, axis=axis, norm=norm)


def _frequencies(values: Any, dtype: Any, device: Any) -> _C.Tensor:
    t = _C.asarray(values) if dtype is None else _C.asarray(values).astype(dtype)
    return t if device is None else t.to_device(device)


def fftfreq(n: int, /, *, d: float = 1.0, dtype: Any = None, device: Any = None) -> _C.Tensor:
    """The sample frequencies of fft's output.

    Parameters
    ----------
    n : int
        The transform's length.
    d : float, optional
        The sample spacing (1 by default).
    dtype : dtype, optional
        The element type (float64 by default).
    device : str or int, optional
        The device (the current one by default).

    Returns
    -------
    Tensor
        The n frequencies: 0, the positive ones, then the negative ones.

    Examples
    --------
    >>> pyasc.array_api.fft.fftfreq(4)
    Tensor([ 0.  ,  0.25, -0.5 , -0.25], dtype=float64)
    """
    return _frequencies(np.fft.fftfreq(n, d), dtype, device)


def rfftfreq(n: int, /, *, d: float = 1.0, dtype: Any = None, device: Any = None) -> _C.Tensor:
    """The sample frequencies of rfft's output.

    Parameters
    ----------
    n : int
        The transform's length.
    d : float, optional
        The sample spacing (1 by default).
    dtype : dtype, optional
        The element type (float64 by default).
    device : str or int, optional
        The device (the current one by default).

    Returns
    -------
    Tensor
        The n // 2 + 1 non-negative frequencies.

    Examples
    --------
    >>> pyasc.array_api.fft.rfftfreq(4)
    Tensor([0.  , 0.25, 0.5 ], dtype=float64)
    """
    return _frequencies(np.fft.rfftfreq(n, d), dtype, device)


def fftshift(x: _C.Tensor, /, *, axes: _Axes = None) -> _C.Tensor:
    """The zero frequency moved to the centre.

    Parameters
    ----------
    x : Tensor
        A spectrum, as fft gives it.
    axes : sequence of int, optional
        The axes to shift (all by default).

    Returns
    -------
    Tensor
        x rolled by half its length along axes.

    Examples
    --------
    >>> pyasc.array_api.fft.fftshift(pyasc.arange(5))
    Tensor([3, 4, 0, 1, 2], dtype=int64)
    """
    return call(np.fft.fftshift, x, axes=axes)


def ifftshift(x: _C.Tensor, /, *, axes: _Axes = None) -> _C.Tensor:
    """The inverse of fftshift.

    Parameters
    ----------
    x : Tensor
        A centred spectrum.
    axes : sequence of int, optional
        The axes to shift (all by default).

    Returns
    -------
    Tensor
        x rolled back.

    Examples
    --------
    >>> f = pyasc.array_api.fft
    >>> f.ifftshift(f.fftshift(pyasc.arange(5)))
    Tensor([0, 1, 2, 3, 4], dtype=int64)
    """
    return call(np.fft.ifftshift, x, axes=axes)


__all__ = ["fft", "ifft", "fftn", "ifftn", "rfft", "irfft", "rfftn", "irfftn", "hfft", "ihfft",
           "fftfreq", "rfftfreq", "fftshift", "ifftshift"]
