"""Dtype codes: the number the IR and the C runtime give each dtype.

The order is ``asc_dtype``'s (include/asc/dtype.h); tests/python/test_tables.py
fails when the two disagree."""

from __future__ import annotations

#: dtype names in ``asc_dtype``'s order: a name's index is its code.
DTYPE_NAMES = ("bool", "int8", "uint8", "int16", "int32", "int64", "float16", "bfloat16",
               "float32", "float64", "uint16", "uint32", "uint64", "complex64", "complex128")

#: dtype name -> its code in the IR.
DTYPE_CODES = {name: code for code, name in enumerate(DTYPE_NAMES)}

__all__ = ["DTYPE_CODES", "DTYPE_NAMES"]
