"""The Array API's linear algebra extension. Factorisations and solvers
run LAPACK through numpy.linalg on zero-copy views of the tensors (host
memory, synchronously); products and norms use pyasc's own functions."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, NamedTuple, Protocol

import numpy as np

from pyasc import _C
from pyasc.array_api._manipulation import matmul, matrix_transpose, tensordot, vecdot
from pyasc._docs import VECTOR_AXIS, X_INPUT, documented, named, numpy_doc
from pyasc.array_api._numpy_backed import as_numpy, as_tensor_of, call_tensor


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


# the docstrings' shared parts
_MATRIX = "x : Tensor\n    A matrix, or a stack of them (the last two axes).\n"
_OFFSET = "offset : int, optional\n    The diagonal: 0 (the default) the main one, positive above it.\n"
_SINGULAR = "numpy.linalg.LinAlgError\n    If a matrix is singular.\n"
_NO_CONVERGENCE = "numpy.linalg.LinAlgError\n    If the computation does not converge.\n"
_LA = ">>> la = pyasc.array_api.linalg\n"
_A = _LA + ">>> a = pyasc.asarray([[4.0, 2.0], [2.0, 3.0]])\n"


def _per_matrix(name: str, np_fn: Callable[..., Any], summary: str, returns: str, examples: str,
                raises: str = "", **kwargs: Any) -> Callable[[_C.Tensor], _C.Tensor]:
    """The function `name` of x alone, np_fn(x, **kwargs) per matrix."""
    def per_matrix(x: _C.Tensor, /) -> _C.Tensor:
        return call_tensor(np_fn, x, **kwargs)
    named(per_matrix, name, numpy_doc(summary, _MATRIX, returns, examples, raises))
    return per_matrix


class _SingularCut(Protocol):
    """matrix_rank's signature."""

    def __call__(self, x: _C.Tensor, /, *, rtol: Any = None) -> _C.Tensor: ...


def _singular_cut(np_fn: Callable[..., Any], summary: str, default: str, returns: str,
                  output: str) -> _SingularCut:
    """np_fn(x, rtol=rtol) per matrix, for a function that counts small
    singular values as zero; default says what rtol's is, output is the
    example's (over a matrix of rank 1)."""
    def per_matrix(x: _C.Tensor, /, *, rtol: Any = None) -> _C.Tensor:
        return call_tensor(np_fn, x, rtol=rtol)
    name = np_fn.__name__
    named(per_matrix, name, numpy_doc(
        summary, _MATRIX + "rtol : float or Tensor, optional\n    Singular values below rtol "
        f"times the largest count as zero{default}.\n", returns,
        _LA + f">>> la.{name}(pyasc.asarray([[1.0, 2.0], [2.0, 4.0]]))\n{output}"))
    return per_matrix


@documented("The Cholesky factor of a Hermitian positive-definite matrix.",
            _MATRIX + "upper : bool, optional\n    Return the upper factor U = L^H instead of the "
            "lower L.\n", "L with x = L @ L^H (or U with x = U^H @ U).",
            _A + ">>> la.cholesky(a)\nTensor([[2.    , 0.    ],\n        [1.    , 1.4142]], "
            "dtype=float64)",
            "numpy.linalg.LinAlgError\n    If a matrix is not positive definite.\n")
def cholesky(x: _C.Tensor, /, *, upper: bool = False) -> _C.Tensor:
    lower = np.linalg.cholesky(as_numpy(x))
    return as_tensor_of(np.conj(np.swapaxes(lower, -1, -2)) if upper else lower)


@documented("The cross product of 3-vectors along an axis.",
            "x1, x2 : Tensor\n    The vectors; the other axes broadcast.\n" + VECTOR_AXIS,
            "The cross products.",
            _LA + ">>> la.cross(pyasc.asarray([1, 0, 0]), pyasc.asarray([0, 1, 0]))\n"
            "Tensor([0, 0, 1], dtype=int64)",
            "ValueError\n    If axis does not have length 3 in both.\n")
def cross(x1: _C.Tensor, x2: _C.Tensor, /, *, axis: int = -1) -> _C.Tensor:
    if x1.shape[axis] != 3 or x2.shape[axis] != 3:
        raise ValueError("cross: the axis must have length 3 in both")
    return call_tensor(np.cross, x1, x2, axis=axis)


det = _per_matrix("det", np.linalg.det, "The determinant of each matrix.", "The determinants.",
                  _A + ">>> la.det(a)\nTensor(8., dtype=float64)")


@documented("The diagonal of each matrix.", _MATRIX + _OFFSET,
            "The diagonals, along the last axis.",
            _A + ">>> la.diagonal(a)\nTensor([4., 3.], dtype=float64)")
def diagonal(x: _C.Tensor, /, *, offset: int = 0) -> _C.Tensor:
    return call_tensor(np.diagonal, x, offset=offset, axis1=-2, axis2=-1)


@documented("The eigenvalues and eigenvectors of Hermitian matrices.", _MATRIX,
            "A named tuple (eigenvalues, eigenvectors): the eigenvalues ascending,\n"
            "the eigenvectors as columns.",
            _A + ">>> la.eigh(a).eigenvalues\nTensor([1.4384, 5.5616], dtype=float64)",
            _NO_CONVERGENCE, "EighResult")
def eigh(x: _C.Tensor, /) -> EighResult:
    values, vectors = np.linalg.eigh(as_numpy(x))
    return EighResult(as_tensor_of(values), as_tensor_of(vectors))


eigvalsh = _per_matrix(
    "eigvalsh", np.linalg.eigvalsh, "The eigenvalues of Hermitian matrices.",
    "The eigenvalues, ascending.",
    _A + ">>> la.eigvalsh(a)\nTensor([1.4384, 5.5616], dtype=float64)", _NO_CONVERGENCE)
inv = _per_matrix(
    "inv", np.linalg.inv, "The inverse of each matrix.", "The inverses.",
    _A + ">>> la.inv(a)\nTensor([[ 0.375, -0.25 ],\n        [-0.25 ,  0.5  ]], dtype=float64)",
    _SINGULAR)


@documented("A norm of each matrix.",
            _MATRIX + "keepdims : bool, optional\n    If true, the last two axes stay with length 1.\n"
            "ord : {'fro', 'nuc', 1, -1, 2, -2, inf, -inf}, optional\n"
            "    Which norm, as numpy.linalg.norm's ord ('fro' by default).\n",
            "The norms.", _A + ">>> la.matrix_norm(a)\nTensor(5.7446, dtype=float64)")
def matrix_norm(x: _C.Tensor, /, *, keepdims: bool = False,
                ord: int | float | str | None = "fro") -> _C.Tensor:  # noqa: A002
    return call_tensor(np.linalg.norm, x, ord=ord, axis=(-2, -1), keepdims=keepdims)


@documented("A square matrix raised to an integer power.",
            _MATRIX + "n : int\n    The power; a negative one raises the inverse.\n",
            "x multiplied by itself n times (the identity for n = 0).",
            _A + ">>> la.matrix_power(a, 2)\nTensor([[20., 14.],\n        [14., 13.]], dtype=float64)",
            "numpy.linalg.LinAlgError\n    If a matrix is singular. (for n < 0).\n")
def matrix_power(x: _C.Tensor, n: int, /) -> _C.Tensor:
    return call_tensor(np.linalg.matrix_power, x, n)


matrix_rank = _singular_cut(np.linalg.matrix_rank, "The rank of each matrix.",
                           " (by\n    default, as numpy.linalg.matrix_rank)", "int64 ranks.",
                           "Tensor(1, dtype=int64)")


@documented("The outer product of two vectors.", "x1, x2 : Tensor\n    1-d.\n",
            "The len(x1) x len(x2) matrix x1[i] * x2[j].",
            _LA + ">>> la.outer(pyasc.asarray([1, 2]), pyasc.asarray([3, 4, 5])).tolist()\n"
            "[[3, 4, 5], [6, 8, 10]]",
            "ValueError\n    If an input is not 1-d.\n")
def outer(x1: _C.Tensor, x2: _C.Tensor, /) -> _C.Tensor:
    if x1.ndim != 1 or x2.ndim != 1:
        raise ValueError("outer: both inputs must be 1-dimensional")
    return _C.multiply(x1.reshape((-1, 1)), x2.reshape((1, -1)))


pinv = _singular_cut(np.linalg.pinv, "The Moore-Penrose pseudo-inverse of each matrix.", "",
                    "The pseudo-inverses.",
                    "Tensor([[0.04, 0.08],\n        [0.08, 0.16]], dtype=float64)")


@documented("The QR factorisation of each matrix.",
            _MATRIX + "mode : {'reduced', 'complete'}, optional\n"
            "    The shapes of Q and R, as numpy.linalg.qr's ('reduced' by default).\n",
            "A named tuple (Q, R): Q with orthonormal columns, R upper triangular,\nx = Q @ R.",
            _A + ">>> q, r = la.qr(a)\n>>> la.matmul(q, r)\n"
            "Tensor([[4., 2.],\n        [2., 3.]], dtype=float64)", returns_type="QRResult")
def qr(x: _C.Tensor, /, *, mode: str = "reduced") -> QRResult:
    shapes: Any = mode  # numpy's stubs want a literal
    q, r = np.linalg.qr(as_numpy(x), mode=shapes)
    return QRResult(as_tensor_of(q), as_tensor_of(r))


@documented("The sign and the natural log of the absolute determinant of each matrix.", _MATRIX,
            "A named tuple (sign, logabsdet): det = sign * exp(logabsdet).",
            _A + ">>> la.slogdet(a)\nSlogdetResult(sign=Tensor(1., dtype=float64), "
            "logabsdet=Tensor(2.0794, dtype=float64))", returns_type="SlogdetResult")
def slogdet(x: _C.Tensor, /) -> SlogdetResult:
    sign, logabs = np.linalg.slogdet(as_numpy(x))
    return SlogdetResult(as_tensor_of(sign), as_tensor_of(logabs))


@documented("The solution X of the linear system x1 @ X = x2.",
            "x1 : Tensor\n    Square matrices, or a stack of them.\n"
            "x2 : Tensor\n    The right-hand sides: a 1-d x2 is one vector.\n", "X.",
            _A + ">>> la.solve(a, pyasc.asarray([8.0, 7.0]))\nTensor([1.25, 1.5 ], dtype=float64)",
            _SINGULAR)
def solve(x1: _C.Tensor, x2: _C.Tensor, /) -> _C.Tensor:
    a, b = as_numpy(x1), as_numpy(x2)
    if b.ndim == 1:
        return as_tensor_of(np.linalg.solve(a, b[:, None])[..., 0])
    return as_tensor_of(np.linalg.solve(a, b))


@documented("The singular value decomposition of each matrix.",
            _MATRIX + "full_matrices : bool, optional\n"
            "    Whether U and Vh are square (True, the default) or reduced.\n",
            "A named tuple (U, S, Vh) with x = U @ diag(S) @ Vh, S descending.",
            _A + ">>> la.svd(a).S\nTensor([5.5616, 1.4384], dtype=float64)",
            _NO_CONVERGENCE, "SVDResult")
def svd(x: _C.Tensor, /, *, full_matrices: bool = True) -> SVDResult:
    u, s, vh = np.linalg.svd(as_numpy(x), full_matrices=full_matrices)
    return SVDResult(as_tensor_of(u), as_tensor_of(s), as_tensor_of(vh))


svdvals = _per_matrix(
    "svdvals", np.linalg.svd, "The singular values of each matrix.",
    "The singular values, descending.",
    _A + ">>> la.svdvals(a)\nTensor([5.5616, 1.4384], dtype=float64)", compute_uv=False)


@documented("The sum of each matrix's diagonal.",
            _MATRIX + _OFFSET + "dtype : dtype, optional\n    The dtype to sum in.\n",
            "The traces.", _A + ">>> la.trace(a)\nTensor(7., dtype=float64)")
def trace(x: _C.Tensor, /, *, offset: int = 0, dtype: Any = None) -> _C.Tensor:
    d = diagonal(x, offset=offset)
    return _C.sum(d, axis=-1, dtype=dtype)


@documented("A vector norm over the given axes.",
            X_INPUT + "axis : None or int or sequence of int, optional\n"
            "    The axes that hold the vectors; None (the default) for all of them.\n"
            "keepdims : bool, optional\n    If true, those axes stay with length 1.\n"
            "ord : int or float, optional\n"
            "    Which norm (2, the Euclidean one, by default; inf for the maximum).\n",
            "The norms.",
            ">>> pyasc.array_api.linalg.vector_norm(pyasc.asarray([3.0, 4.0]))\n"
            "Tensor(5., dtype=float64)")
def vector_norm(x: _C.Tensor, /, *, axis: int | Sequence[int] | None = None,
                keepdims: bool = False, ord: int | float = 2) -> _C.Tensor:  # noqa: A002
    a = as_numpy(x)
    axes = tuple(range(a.ndim)) if axis is None else (tuple(axis) if not isinstance(axis, int)
                                                     else (axis,))
    moved = np.moveaxis(a, axes, tuple(range(-len(axes), 0)))
    flat = moved.reshape(moved.shape[:moved.ndim - len(axes)] + (-1,))
    norm = np.linalg.norm(flat, ord=ord, axis=-1)
    if keepdims:
        shape = [1 if d in [ax % max(a.ndim, 1) for ax in axes] else n for d, n in enumerate(a.shape)]
        norm = np.reshape(norm, shape)
    return as_tensor_of(norm)


__all__ = ["cholesky", "cross", "det", "diagonal", "eigh", "eigvalsh", "inv", "matmul",
           "matrix_norm", "matrix_power", "matrix_rank", "matrix_transpose", "outer", "pinv", "qr",
           "slogdet", "solve", "svd", "svdvals", "tensordot", "trace", "vecdot", "vector_norm"]
