"""Running a NumPy routine on pyasc tensors: LAPACK's (numpy.linalg) and
pocketfft's (numpy.fft) maintained implementations, on zero-copy views of
the tensors' host memory, with the results shared back as tensors."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from pyasc import _C


def as_numpy(x: Any) -> Any:
    """A NumPy view of a tensor (after its stream's work); other values as
    they are."""
    if isinstance(x, _C.Tensor):
        if x.dtype == _C.bfloat16 or x.dtype == _C.float16:
            raise _C.DTypeError(f"{x.dtype} is not supported here: convert to float32 first")
        return x.numpy()
    return x


def as_tensor(result: Any) -> Any:
    """NumPy results as tensors (sharing their memory); tuples and named
    tuples element by element."""
    if isinstance(result, (np.ndarray, np.generic)):
        return _C.asarray(np.asarray(result))  # 0-d stays 0-d
    if isinstance(result, tuple):
        items = [as_tensor(r) for r in result]
        return type(result)(*items) if hasattr(result, "_fields") else tuple(items)
    return result


def call(fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    """fn on NumPy views of the tensor arguments, with tensor results."""
    return as_tensor(fn(*[as_numpy(a) for a in args],
                        **{k: as_numpy(v) for k, v in kwargs.items()}))


def call_tensor(fn: Callable[..., Any], *args: Any, **kwargs: Any) -> _C.Tensor:
    """call for a routine with one array result: that result's tensor."""
    result: _C.Tensor = call(fn, *args, **kwargs)
    return result


def as_tensor_of(result: Any) -> _C.Tensor:
    """as_tensor for one array result."""
    tensor: _C.Tensor = as_tensor(result)
    return tensor
