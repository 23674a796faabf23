"""The Array API's linear algebra extension. Factorisations and solvers
run LAPACK through numpy.linalg on zero-copy views of the tensors (host
memory, synchronously); products and norms use pyasc's own functions."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple

import numpy as np

from pyasc import _C
from pyasc.array_api._manipulation import matmul, matrix_transpose, tensordot, vecdot
from pyasc.array_api._numpy_backed import as_numpy, as_tensor, call


class EighResult(NamedTuple):
    """eigh's result: eigenvalues (ascending) and eigenvectors."""

    eigenvalues: _C.Tensor
    eigenvectors: _C.Tensor


class QRResult(NamedTuple):
    """qr's result."""

    Q: _C.Tensor
    R: _C.Tensor


class SlogdetResult(NamedTuple):
    """slogdet's result: the sign and log of |det|."""

    sign: _C.Tensor
    logabsdet: _C.Tensor


class SVDResult(NamedTuple):
    """svd's result: x = U @ diag(S) @ Vh."""

    U: _C.Tensor
    S: _C.Tensor
    Vh: _C.Tensor


def cholesky(x: _C.Tensor, /, *, upper: bool = False) -> _C.Tensor:
    """The Cholesky factor L (x = L @ L^H), or U = L^H with upper=True."""
    lower = np.linalg.cholesky(as_numpy(x))
    return as_tensor(np.conj(np.swapaxes(lower, -1, -2)) if upper else lower)


def cross(x1: _C.Tensor, x2: _C.Tensor, /, *, axis: int = -1) -> _C.Tensor:
    """The cross product of 3-vectors along axis."""
    if x1.shape[axis] != 3 or x2.shape[axis] != 3:
        raise ValueError("cross: the axis must have length 3 in both")
    return call(np.cross, x1, x2, axis=axis)


def det(x: _C.Tensor, /) -> _C.Tensor:
    """The determinant of each matrix."""
    return call(np.linalg.det, x)


def diagonal(x: _C.Tensor, /, *, offset: int = 0) -> _C.Tensor:
    """The diagonal of each matrix (the last two axes)."""
    return call(np.diagonal, x, offset=offset, axis1=-2, axis2=-1)


def eigh(x: _C.Tensor, /) -> EighResult:
    """Eigenvalues and eigenvectors of Hermitian matrices."""
    values, vectors = np.linalg.eigh(as_numpy(x))
    return EighResult(as_tensor(values), as_tensor(vectors))


def eigvalsh(x: _C.Tensor, /) -> _C.Tensor:
    """Eigenvalues of Hermitian matrices, ascending."""
    return call(np.linalg.eigvalsh, x)


def inv(x: _C.Tensor, /) -> _C.Tensor:
    """The inverse of each matrix."""
    return call(np.linalg.inv, x)


def matrix_norm(x: _C.Tensor, /, *, keepdims: bool = False,
                ord: int | float | str | None = "fro") -> _C.Tensor:  # noqa: A002
    """A matrix norm over the last two axes."""
    return call(np.linalg.norm, x, ord=ord, axis=(-2, -1), keepdims=keepdims)


def matrix_power(x: _C.Tensor, n: int, /) -> _C.Tensor:
    """x multiplied by itself n times (the inverse's powers for n < 0)."""
    return call(np.linalg.matrix_power, x, n)


def matrix_rank(x: _C.Tensor, /, *, rtol: Any = None) -> _C.Tensor:
    """The number of singular values above rtol * the largest."""
    return call(np.linalg.matrix_rank, x, rtol=rtol)


def outer(x1: _C.Tensor, x2: _C.Tensor, /) -> _C.Tensor:
    """The outer product of two vectors."""
    if x1.ndim != 1 or x2.ndim != 1:
        raise ValueError("outer: both inputs must be 1-dimensional")
    return _C.multiply(x1.reshape((-1, 1)), x2.reshape((1, -1)))


def pinv(x: _C.Tensor, /, *, rtol: Any = None) -> _C.Tensor:
    """The Moore-Penrose pseudo-inverse."""
    return call(np.linalg.pinv, x, rtol=rtol)


def qr(x: _C.Tensor, /, *, mode: str = "reduced") -> QRResult:
    """The QR factorisation ('reduced' or 'complete')."""
    q, r = np.linalg.qr(as_numpy(x), mode=mode)
    return QRResult(as_tensor(q), as_tensor(r))


def slogdet(x: _C.Tensor, /) -> SlogdetResult:
    """The sign and the natural log of the absolute determinant."""
    sign, logabs = np.linalg.slogdet(as_numpy(x))
    return SlogdetResult(as_tensor(sign), as_tensor(logabs))


def solve(x1: _C.Tensor, x2: _C.Tensor, /) -> _C.Tensor:
    """X with x1 @ X = x2; a 1-d x2 is one right-hand side."""
    a, b = as_numpy(x1), as_numpy(x2)
    if b.ndim == 1:
        return as_tensor(np.linalg.solve(a, b[:, None])[..., 0])
    return as_tensor(np.linalg.solve(a, b))


def svd(x: _C.Tensor, /, *, full_matrices: bool = True) -> SVDResult:
    """The singular value decomposition."""
    u, s, vh = np.linalg.svd(as_numpy(x), full_matrices=full_matrices)
    return SVDResult(as_tensor(u), as_tensor(s), as_tensor(vh))


def svdvals(x: _C.Tensor, /) -> _C.Tensor:
    """The singular values, descending."""
    return call(np.linalg.svd, x, compute_uv=False)


def trace(x: _C.Tensor, /, *, offset: int = 0, dtype: Any = None) -> _C.Tensor:
    """The sum of each matrix's diagonal."""
    d = diagonal(x, offset=offset)
    return _C.sum(d, axis=-1, dtype=dtype)


def vector_norm(x: _C.Tensor, /, *, axis: int | Sequence[int] | None = None,
                keepdims: bool = False, ord: int | float = 2) -> _C.Tensor:  # noqa: A002
    """A vector norm over axis (all axes when None)."""
    a = as_numpy(x)
    axes = tuple(range(a.ndim)) if axis is None else (tuple(axis) if not isinstance(axis, int)
                                                     else (axis,))
    moved = np.moveaxis(a, axes, tuple(range(-len(axes), 0)))
    flat = moved.reshape(moved.shape[:moved.ndim - len(axes)] + (-1,))
    norm = np.linalg.norm(flat, ord=ord, axis=-1)
    if keepdims:
        shape = [1 if d in [ax % max(a.ndim, 1) for ax in axes] else n for d, n in enumerate(a.shape)]
        norm = np.reshape(norm, shape)
    return as_tensor(norm)


__all__ = ["cholesky", "cross", "det", "diagonal", "eigh", "eigvalsh", "inv", "matmul",
           "matrix_norm", "matrix_power", "matrix_rank", "matrix_transpose", "outer", "pinv", "qr",
           "slogdet", "solve", "svd", "svdvals", "tensordot", "trace", "vecdot", "vector_norm"]
