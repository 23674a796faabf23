"""NumPy's dispatch protocols for pyasc.Tensor.

``Tensor.__array_ufunc__`` (NEP 13) and ``Tensor.__array_function__`` (NEP 18)
are C methods that forward here. A NumPy ufunc or function called with pyasc
tensors runs the pyasc function of the same name, found when it is called (so
operations added to pyasc later are picked up), and returns tensors:
``np.add(t, t)``, ``np.add(ndarray, t)``, ``ndarray + t``, ``np.sin(t)``,
``np.concatenate([t, t])``. Anything pyasc has no function for returns
NotImplemented, and NumPy raises TypeError: convert explicitly with
``t.numpy()`` to use NumPy's implementation instead.
"""

from __future__ import annotations

import numbers
import types
from typing import Any, Callable

import numpy as np

import pyasc
from pyasc.language.core import KernelBuiltin

# NumPy names whose pyasc function may be spelt differently (tried second).
_ALIASES = {
    "absolute": "abs",
    "amax": "max",
    "amin": "min",
    "around": "round",
    "arccos": "acos",
    "arccosh": "acosh",
    "arcsin": "asin",
    "arcsinh": "asinh",
    "arctan": "atan",
    "arctan2": "atan2",
    "arctanh": "atanh",
    "concat": "concatenate",
    "negative": "neg",
    "permute_dims": "transpose",
    "true_divide": "divide",
}

# Ufunc keywords NumPy passes on only when the caller gave them; these values
# change nothing, any other value is something pyasc does not do.
_NEUTRAL_UFUNC_KWARGS = {
    "casting": "same_kind",
    "order": "K",
    "dtype": None,
    "subok": True,
    "signature": None,
}


def _lookup(namespace: Any, name: str) -> Callable[..., Any] | None:
    """The eager pyasc function for a NumPy name: not a class, and not a
    kernel-language builtin that only works inside @pyasc.jit."""
    for candidate in (name, _ALIASES.get(name)):
        fn = getattr(namespace, candidate, None) if candidate else None
        if callable(fn) and not isinstance(fn, (type, KernelBuiltin)):
            return fn
    return None


def _is_operand(x: Any) -> bool:
    """What pyasc functions take as an argument: tensors, plain NumPy arrays,
    real scalars and (nested) sequences. Other array types that implement
    the protocols get their turn through NotImplemented."""
    if isinstance(x, pyasc.Tensor) or type(x) is np.ndarray:
        return True
    if isinstance(x, np.generic):
        return isinstance(x, (np.bool_, np.integer, np.floating, np.complexfloating))
    if isinstance(x, (list, tuple)):
        return all(_is_operand(item) for item in x)
    return isinstance(x, numbers.Complex)


def _neutral(key: str, value: Any) -> bool:
    if key == "where":
        return value is True
    if key not in _NEUTRAL_UFUNC_KWARGS:
        return False
    expected = _NEUTRAL_UFUNC_KWARGS[key]
    if isinstance(expected, str):
        return isinstance(value, str) and value == expected
    return value is expected


def array_ufunc(
    tensor: pyasc.Tensor, ufunc: np.ufunc, method: str, *inputs: Any, **kwargs: Any
) -> Any:
    """ufunc(*inputs, out=(tensor,)) as the pyasc function of the ufunc's name.

    Only plain calls with one output are forwarded (not ufunc.reduce,
    .accumulate, .outer, ...), with out= a single pyasc.Tensor, and
    ``np.add.at`` on a tensor (``pyasc.add_at``).
    """
    del tensor  # one of the inputs (or out); nothing else to learn from it
    if (method == "at" and ufunc is np.add and len(inputs) == 3 and not kwargs
            and isinstance(inputs[0], pyasc.Tensor)):
        pyasc.add_at(*inputs)  # np.add.at(a, indices, b): in place, returns None
        return None
    if method != "__call__" or ufunc.nout != 1:
        return NotImplemented
    out = kwargs.pop("out", None)
    if out is not None:
        if len(out) != 1 or not isinstance(out[0], pyasc.Tensor):
            return NotImplemented
        out = out[0]
    if not all(_neutral(key, value) for key, value in kwargs.items()):
        return NotImplemented
    if not all(_is_operand(x) for x in inputs):
        return NotImplemented
    fn = _lookup(pyasc, ufunc.__name__)
    if fn is None:
        return NotImplemented
    return fn(*inputs) if out is None else fn(*inputs, out=out)


def _namespace(module: str) -> Any:
    """pyasc's counterpart of a NumPy module: numpy -> pyasc, numpy.linalg ->
    pyasc.linalg (when pyasc has it)."""
    parts = module.split(".")
    if parts[0] != "numpy":
        return None
    namespace: Any = pyasc
    for part in parts[1:]:
        namespace = getattr(namespace, part, None)
        if not isinstance(namespace, types.ModuleType):
            return None
    return namespace


def array_function(
    tensor: pyasc.Tensor,
    func: Callable[..., Any],
    types_: tuple[type, ...],
    args: tuple[Any, ...],
    kwargs: dict[str, Any],
) -> Any:
    """func(*args, **kwargs) as the pyasc function of the same name."""
    del tensor
    if not all(issubclass(t, pyasc.Tensor) or t is np.ndarray for t in types_):
        return NotImplemented
    namespace = _namespace(getattr(func, "__module__", None) or "")
    fn = _lookup(namespace, func.__name__) if namespace is not None else None
    if fn is None:
        return NotImplemented
    return fn(*args, **kwargs)
