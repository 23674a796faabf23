"""The Array API's element-wise functions: pyasc's own, under the
standard's names (the C functions take the standard's arguments)."""

from __future__ import annotations

from typing import Any

from pyasc import _C


def clip(x: _C.Tensor, /, min: Any = None, max: Any = None) -> _C.Tensor:  # noqa: A002
    """x limited to the interval [min, max], in x's dtype (the Array API's clip).

    Parameters
    ----------
    x : Tensor
        The input.
    min, max : scalar or Tensor, optional
        The bounds; None (the default) for no bound.

    Returns
    -------
    Tensor
        The clipped values.

    Examples
    --------
    >>> pyasc.array_api.clip(pyasc.asarray([-1, 5, 10]), 0, 6)
    Tensor([0, 5, 6], dtype=int64)
    """
    return _C.clip(x, min, max)

#: standard name -> pyasc's function, where the names differ
_RENAMED = {
    "bitwise_left_shift": _C.left_shift,
    "bitwise_right_shift": _C.right_shift,
    "pow": _C.power,
    "clip": clip,
}

#: names the standard and pyasc share
_SAME = (
    "abs", "acos", "acosh", "add", "asin", "asinh", "atan", "atan2", "atanh", "bitwise_and",
    "bitwise_invert", "bitwise_or", "bitwise_xor", "ceil", "conj", "copysign", "cos",
    "cosh", "divide", "equal", "exp", "expm1", "floor", "floor_divide", "greater",
    "greater_equal", "hypot", "imag", "isfinite", "isinf", "isnan", "less", "less_equal", "log",
    "log1p", "log2", "log10", "logaddexp", "logical_and", "logical_not", "logical_or",
    "logical_xor", "maximum", "minimum", "multiply", "negative", "nextafter", "not_equal",
    "positive", "real", "reciprocal", "remainder", "round", "sign", "signbit", "sin", "sinh",
    "square", "sqrt", "subtract", "tan", "tanh", "trunc",
)

FUNCTIONS = {**{name: getattr(_C, name) for name in _SAME}, **_RENAMED}
