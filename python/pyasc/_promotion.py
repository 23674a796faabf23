"""Dtype promotion facts, asked of the C core: the bottom of the operator
compiler (op.py, _fuse_run.py both use them)."""

from __future__ import annotations

import functools
from collections.abc import Iterable

from pyasc import _C


def zero(dtype: _C.dtype) -> _C.Tensor:
    """A 0-d zero of dtype."""
    return _C.Tensor(0, dtype=dtype)


@functools.lru_cache(maxsize=None)
def promote(a: _C.dtype, b: _C.dtype) -> _C.dtype:
    """pyasc's promotion of two dtypes (the C core's table, via an add)."""
    return (zero(a) + zero(b)).dtype


def common_dtype(dtypes: Iterable[_C.dtype]) -> _C.dtype | None:
    """The promotion of all of dtypes, None when there are none."""
    listed = list(dtypes)
    return functools.reduce(promote, listed) if listed else None


@functools.lru_cache(maxsize=None)
def weak(dtype: _C.dtype, kind: type) -> _C.dtype:
    """The dtype a Python scalar of ``kind`` takes next to ``dtype`` (NEP 50)."""
    result: _C.dtype = (zero(dtype) + kind(1)).dtype
    return result


__all__ = ["common_dtype", "promote", "weak", "zero"]
