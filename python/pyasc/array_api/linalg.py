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
    """The Cholesky factor of a Hermitian positive-definite matrix.

    Parameters
    ----------
    x : Tensor
        A matrix, or a stack of them (the last two axes).
    upper : bool, optional
        Return the upper factor U = L^H instead of the lower L.

    Returns
    -------
    Tensor
        L with x = L @ L^H (or U with x = U^H @ U).

    Raises
    ------
    numpy.linalg.LinAlgError
        If a matrix is not positive definite.

    Examples
    --------
    >>> la = pyasc.array_api.linalg
    >>> a = pyasc.asarray([[4.0, 2.0], [2.0, 3.0]])
    >>> la.cholesky(a)
    Tensor([[2.    , 0.    ],
            [1.    , 1.4142]], dtype=float64)
    """
    lower = np.linalg.cholesky(as_numpy(x))
    return as_tensor(np.conj(np.swapaxes(lower, -1, -2)) if upper else lower)


def cross(x1: _C.Tensor, x2: _C.Tensor, /, *, axis: int = -1) -> _C.Tensor:
    """The cross product of 3-vectors along an axis.

    Parameters
    ----------
    x1, x2 : Tensor
        The vectors; the other axes broadcast.
    axis : int, optional
        The axis of the vectors (the last by default).

    Returns
    -------
    Tensor
        The cross products.

    Raises
    ------
    ValueError
        If axis does not have length 3 in both.

    Examples
    --------
    >>> la = pyasc.array_api.linalg
    >>> la.cross(pyasc.asarray([1, 0, 0]), pyasc.asarray([0, 1, 0]))
    Tensor([0, 0, 1], dtype=int64)
    """
    if x1.shape[axis] != 3 or x2.shape[axis] != 3:
        raise ValueError("cross: the axis must have length 3 in both")
    return call(np.cross, x1, x2, axis=axis)


def det(x: _C.Tensor, /) -> _C.Tensor:
    """The determinant of each matrix.

    Parameters
    ----------
    x : Tensor
        A matrix, or a stack of them (the last two axes).

    Returns
    -------
    Tensor
        The determinants.

    Examples
    --------
    >>> la = pyasc.array_api.linalg
    >>> a = pyasc.asarray([[4.0, 2.0], [2.0, 3.0]])
    >>> la.det(a)
    Tensor(8., dtype=float64)
    """
    return call(np.linalg.det, x)


def diagonal(x: _C.Tensor, /, *, offset: int = 0) -> _C.Tensor:
    """The diagonal of each matrix.

    Parameters
    ----------
    x : Tensor
        A matrix, or a stack of them (the last two axes).
    offset : int, optional
        The diagonal: 0 (the default) the main one, positive above it.

    Returns
    -------
    Tensor
        The diagonals, along the last axis.

    Examples
    --------
    >>> la = pyasc.array_api.linalg
    >>> a = pyasc.asarray([[4.0, 2.0], [2.0, 3.0]])
    >>> la.diagonal(a)
    Tensor([4., 3.], dtype=float64)
    """
    return call(np.diagonal, x, offset=offset, axis1=-2, axis2=-1)


def eigh(x: _C.Tensor, /) -> EighResult:
    """The eigenvalues and eigenvectors of Hermitian matrices.

    Parameters
    ----------
    x : Tensor
        A matrix, or a stack of them (the last two axes).

    Returns
    -------
    EighResult
        A named tuple (eigenvalues, eigenvectors): the eigenvalues ascending,
        the eigenvectors as columns.

    Raises
    ------
    numpy.linalg.LinAlgError
        If the computation does not converge.

    Examples
    --------
    >>> la = pyasc.array_api.linalg
    >>> a = pyasc.asarray([[4.0, 2.0], [2.0, 3.0]])
    >>> la.eigh(a).eigenvalues
    Tensor([1.4384, 5.5616], dtype=float64)
    """
    values, vectors = np.linalg.eigh(as_numpy(x))
    return EighResult(as_tensor(values), as_tensor(vectors))


def eigvalsh(x: _C.Tensor, /) -> _C.Tensor:
    """The eigenvalues of Hermitian matrices.

    Parameters
    ----------
    x : Tensor
        A matrix, or a stack of them (the last two axes).

    Returns
    -------
    Tensor
        The eigenvalues, ascending.

    Raises
    ------
    numpy.linalg.LinAlgError
        If the computation does not converge.

    Examples
    --------
    >>> la = pyasc.array_api.linalg
    >>> a = pyasc.asarray([[4.0, 2.0], [2.0, 3.0]])
    >>> la.eigvalsh(a)
    Tensor([1.4384, 5.5616], dtype=float64)
    """
    return call(np.linalg.eigvalsh, x)


def inv(x: _C.Tensor, /) -> _C.Tensor:
    """The inverse of each matrix.

    Parameters
    ----------
    x : Tensor
        A matrix, or a stack of them (the last two axes).

    Returns
    -------
    Tensor
        The inverses.

    Raises
    ------
    numpy.linalg.LinAlgError
        If a matrix is singular.

    Examples
    --------
    >>> la = pyasc.array_api.linalg
    >>> a = pyasc.asarray([[4.0, 2.0], [2.0, 3.0]])
    >>> la.inv(a)
    Tensor([[ 0.375, -0.25 ],
            [-0.25 ,  0.5  ]], dtype=float64)
    """
    return call(np.linalg.inv, x)


def matrix_norm(x: _C.Tensor, /, *, keepdims: bool = False,
                ord: int | float | str | None = "fro") -> _C.Tensor:  # noqa: A002
    """A norm of each matrix.

    Parameters
    ----------
    x : Tensor
        A matrix, or a stack of them (the last two axes).
    keepdims : bool, optional
        If true, the last two axes stay with length 1.
    ord : {'fro', 'nuc', 1, -1, 2, -2, inf, -inf}, optional
        Which norm, as numpy.linalg.norm's ord ('fro' by default).

    Returns
    -------
    Tensor
        The norms.

    Examples
    --------
    >>> la = pyasc.array_api.linalg
    >>> a = pyasc.asarray([[4.0, 2.0], [2.0, 3.0]])
    >>> la.matrix_norm(a)
    Tensor(5.7446, dtype=float64)
    """
    return call(np.linalg.norm, x, ord=ord, axis=(-2, -1), keepdims=keepdims)


def matrix_power(x: _C.Tensor, n: int, /) -> _C.Tensor:
    """A square matrix raised to an integer power.

    Parameters
    ----------
    x : Tensor
        A matrix, or a stack of them (the last two axes).
    n : int
        The power; a negative one raises the inverse.

    Returns
    -------
    Tensor
        x multiplied by itself n times (the identity for n = 0).

    Raises
    ------
    numpy.linalg.LinAlgError
        If a matrix is singular. (for n < 0).

    Examples
    --------
    >>> la = pyasc.array_api.linalg
    >>> a = pyasc.asarray([[4.0, 2.0], [2.0, 3.0]])
    >>> la.matrix_power(a, 2)
    Tensor([[20., 14.],
            [14., 13.]], dtype=float64)
    """
    return call(np.linalg.matrix_power, x, n)


def matrix_rank(x: _C.Tensor, /, *, rtol: Any = None) -> _C.Tensor:
    """The rank of each matrix.

    Parameters
    ----------
    x : Tensor
        A matrix, or a stack of them (the last two axes).
    rtol : float or Tensor, optional
        Singular values below rtol times the largest count as zero (by
        default, as numpy.linalg.matrix_rank).

    Returns
    -------
    Tensor
        int64 ranks.

    Examples
    --------
    >>> la = pyasc.array_api.linalg
    >>> la.matrix_rank(pyasc.asarray([[1.0, 2.0], [2.0, 4.0]]))
    Tensor(1, dtype=int64)
    """
    return call(np.linalg.matrix_rank, x, rtol=rtol)


def outer(x1: _C.Tensor, x2: _C.Tensor, /) -> _C.Tensor:
    """The outer product of two vectors.

    Parameters
    ----------
    x1, x2 : Tensor
        1-d.

    Returns
    -------
    Tensor
        The len(x1) x len(x2) matrix x1[i] * x2[j].

    Raises
    ------
    ValueError
        If an input is not 1-d.

    Examples
    --------
    >>> la = pyasc.array_api.linalg
    >>> la.outer(pyasc.asarray([1, 2]), pyasc.asarray([3, 4, 5])).tolist()
    [[3, 4, 5], [6, 8, 10]]
    """
    if x1.ndim != 1 or x2.ndim != 1:
        raise ValueError("outer: both inputs must be 1-dimensional")
    return _C.multiply(x1.reshape((-1, 1)), x2.reshape((1, -1)))


def pinv(x: _C.Tensor, /, *, rtol: Any = None) -> _C.Tensor:
    """The Moore-Penrose pseudo-inverse of each matrix.

    Parameters
    ----------
    x : Tensor
        A matrix, or a stack of them (the last two axes).
    rtol : float or Tensor, optional
        Singular values below rtol times the largest count as zero.

    Returns
    -------
    Tensor
        The pseudo-inverses.

    Examples
    --------
    >>> la = pyasc.array_api.linalg
    >>> la.pinv(pyasc.asarray([[1.0, 2.0], [2.0, 4.0]]))
    Tensor([[0.04, 0.08],
            [0.08, 0.16]], dtype=float64)
    """
    return call(np.linalg.pinv, x, rtol=rtol)


def qr(x: _C.Tensor, /, *, mode: str = "reduced") -> QRResult:
    """The QR factorisation of each matrix.

    Parameters
    ----------
    x : Tensor
        A matrix, or a stack of them (the last two axes).
    mode : {'reduced', 'complete'}, optional
        The shapes of Q and R, as numpy.linalg.qr's ('reduced' by default).

    Returns
    -------
    QRResult
        A named tuple (Q, R): Q with orthonormal columns, R upper triangular,
        x = Q @ R.

    Examples
    --------
    >>> la = pyasc.array_api.linalg
    >>> a = pyasc.asarray([[4.0, 2.0], [2.0, 3.0]])
    >>> q, r = la.qr(a)
    >>> la.matmul(q, r)
    Tensor([[4., 2.],
            [2., 3.]], dtype=float64)
    """
    q, r = np.linalg.qr(as_numpy(x), mode=mode)
    return QRResult(as_tensor(q), as_tensor(r))


def slogdet(x: _C.Tensor, /) -> SlogdetResult:
    """The sign and the natural log of the absolute determinant of each matrix.

    Parameters
    ----------
    x : Tensor
        A matrix, or a stack of them (the last two axes).

    Returns
    -------
    SlogdetResult
        A named tuple (sign, logabsdet): det = sign * exp(logabsdet).

    Examples
    --------
    >>> la = pyasc.array_api.linalg
    >>> a = pyasc.asarray([[4.0, 2.0], [2.0, 3.0]])
    >>> la.slogdet(a)
    SlogdetResult(sign=Tensor(1., dtype=float64), logabsdet=Tensor(2.0794, dtype=float64))
    """
    sign, logabs = np.linalg.slogdet(as_numpy(x))
    return SlogdetResult(as_tensor(sign), as_tensor(logabs))


def solve(x1: _C.Tensor, x2: _C.Tensor, /) -> _C.Tensor:
    """The solution X of the linear system x1 @ X = x2.

    Parameters
    ----------
    x1 : Tensor
        Square matrices, or a stack of them.
    x2 : Tensor
        The right-hand sides: a 1-d x2 is one vector.

    Returns
    -------
    Tensor
        X.

    Raises
    ------
    numpy.linalg.LinAlgError
        If a matrix is singular.

    Examples
    --------
    >>> la = pyasc.array_api.linalg
    >>> a = pyasc.asarray([[4.0, 2.0], [2.0, 3.0]])
    >>> la.solve(a, pyasc.asarray([8.0, 7.0]))
    Tensor([1.25, 1.5 ], dtype=float64)
    """
    a, b = as_numpy(x1), as_numpy(x2)
    if b.ndim == 1:
        return as_tensor(np.linalg.solve(a, b[:, None])[..., 0])
    return as_tensor(np.linalg.solve(a, b))


def svd(x: _C.Tensor, /, *, full_matrices: bool = True) -> SVDResult:
    """The singular value decomposition of each matrix.

    Parameters
    ----------
    x : Tensor
        A matrix, or a stack of them (the last two axes).
    full_matrices : bool, optional
        Whether U and Vh are square (True, the default) or reduced.

    Returns
    -------
    SVDResult
        A named tuple (U, S, Vh) with x = U @ diag(S) @ Vh, S descending.

    Raises
    ------
    numpy.linalg.LinAlgError
        If the computation does not converge.

    Examples
    --------
    >>> la = pyasc.array_api.linalg
    >>> a = pyasc.asarray([[4.0, 2.0], [2.0, 3.0]])
    >>> la.svd(a).S
    Tensor([5.5616, 1.4384], dtype=float64)
    """
    u, s, vh = np.linalg.svd(as_numpy(x), full_matrices=full_matrices)
    return SVDResult(as_tensor(u), as_tensor(s), as_tensor(vh))


def svdvals(x: _C.Tensor, /) -> _C.Tensor:
    """The singular values of each matrix.

    Parameters
    ----------
    x : Tensor
        A matrix, or a stack of them (the last two axes).

    Returns
    -------
    Tensor
        The singular values, descending.

    Examples
    --------
    >>> la = pyasc.array_api.linalg
    >>> a = pyasc.asarray([[4.0, 2.0], [2.0, 3.0]])
    >>> la.svdvals(a)
    Tensor([5.5616, 1.4384], dtype=float64)
    """
    return call(np.linalg.svd, x, compute_uv=False)


def trace(x: _C.Tensor, /, *, offset: int = 0, dtype: Any = None) -> _C.Tensor:
    """The sum of each matrix's diagonal.

    Parameters
    ----------
    x : Tensor
        A matrix, or a stack of them (the last two axes).
    offset : int, optional
        The diagonal: 0 (the default) the main one, positive above it.
    dtype : dtype, optional
        The dtype to sum in.

    Returns
    -------
    Tensor
        The traces.

    Examples
    --------
    >>> la = pyasc.array_api.linalg
    >>> a = pyasc.asarray([[4.0, 2.0], [2.0, 3.0]])
    >>> la.trace(a)
    Tensor(7., dtype=float64)
    """
    d = diagonal(x, offset=offset)
    return _C.sum(d, axis=-1, dtype=dtype)


def vector_norm(x: _C.Tensor, /, *, axis: int | Sequence[int] | None = None,
                keepdims: bool = False, ord: int | float = 2) -> _C.Tensor:  # noqa: A002
    """A vector norm over the given axes.

    Parameters
    ----------
    x : Tensor
        The input.
    axis : None or int or sequence of int, optional
        The axes that hold the vectors; None (the default) for all of them.
    keepdims : bool, optional
        If true, those axes stay with length 1.
    ord : int or float, optional
        Which norm (2, the Euclidean one, by default; inf for the maximum).

    Returns
    -------
    Tensor
        The norms.

    Examples
    --------
    >>> pyasc.array_api.linalg.vector_norm(pyasc.asarray([3.0, 4.0]))
    Tensor(5., dtype=float64)
    """
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
