"""pyasc as an Array API namespace (the 2024.12 standard).

``t.__array_namespace__()`` returns this module; libraries written against
the standard (SciPy, scikit-learn, array-api-compat users) take pyasc
tensors through it. The functions are pyasc's own C functions under the
standard's names and signatures; linalg and fft run LAPACK and pocketfft
through NumPy on zero-copy views (docs/array-api.md lists what differs)."""

from __future__ import annotations

import math

from pyasc import _C
from pyasc.array_api import fft, linalg
from pyasc.array_api._creation import (
    arange, asarray, empty, empty_like, eye, from_dlpack, full, full_like, linspace, ones,
    ones_like, zeros, zeros_like)
from pyasc.array_api._dtypes import (
    astype, bool, can_cast, complex64, complex128, finfo, float32, float64, iinfo, int8, int16,
    int32, int64, isdtype, result_type, uint8, uint16, uint32, uint64)
from pyasc.array_api._elementwise import FUNCTIONS as _ELEMENTWISE
from pyasc.array_api._info import __array_namespace_info__
from pyasc.array_api._manipulation import (
    all, any, argmax, argmin, broadcast_arrays, broadcast_to, concat, matmul, matrix_transpose, max,
    mean, meshgrid, min, nonzero, permute_dims, prod, reshape, stack, std, sum, take,
    take_along_axis, tensordot, var, vecdot, where)

__array_api_version__ = "2024.12"

e = math.e
inf = math.inf
nan = math.nan
pi = math.pi
newaxis = None

#: pyasc's C functions that take the standard's arguments as they are
_DIRECT = {name: getattr(_C, name) for name in (
    "argsort", "count_nonzero", "cumulative_prod", "cumulative_sum", "diff",
    "expand_dims", "flip", "moveaxis", "repeat", "roll", "searchsorted", "sort",
    "squeeze", "tile", "tril", "triu", "unique_all", "unique_counts", "unique_inverse",
    "unique_values", "unstack")}

globals().update(_ELEMENTWISE)
globals().update(_DIRECT)

__all__ = sorted(
    ["__array_api_version__", "__array_namespace_info__", "e", "inf", "nan", "pi", "newaxis",
     "fft", "linalg", "arange", "asarray", "empty", "empty_like", "eye", "from_dlpack", "full",
     "full_like", "linspace", "ones", "ones_like", "zeros", "zeros_like", "astype", "bool",
     "can_cast", "complex64", "complex128", "finfo", "float32", "float64", "iinfo", "int8",
     "int16", "int32", "int64", "isdtype", "result_type", "uint8", "uint16", "uint32", "uint64",
     "all", "any", "argmax", "argmin", "broadcast_to", "concat", "matmul", "matrix_transpose",
     "max", "mean", "min", "permute_dims", "prod", "reshape", "stack", "std", "sum", "tensordot",
     "var", "vecdot", "where", "nonzero", "take", "take_along_axis", "broadcast_arrays", "meshgrid", *_ELEMENTWISE, *_DIRECT])
