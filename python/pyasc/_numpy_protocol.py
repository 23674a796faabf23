"""NumPy's dispatch protocols for pyasc.Tensor.

``Tensor.__array_ufunc__`` (NEP 13) and ``Tensor.__array_function__`` (NEP 18)
are C methods that forward here. A NumPy ufunc or function called with pyasc
tensors runs the pyasc function of the same name, found when it is called (so
operations added to pyasc later are picked up), and returns tensors:
``np.add(t, t)``, ``np.add(ndarray, t)``, ``ndarray + t``, ``np.sin(t)``,
``np.concatenate([t, t])``.

Anything pyasc has no function for (``np.einsum``, ``np.allclose``,
``np.add.reduce``, ...) falls back to NumPy: NumPy runs on zero-copy views
of the tensors' memory (after their streams' work) and its results come
back as NumPy documents them, NumPy arrays and scalars. Each fallback is
counted (``pyasc.numpy_fallbacks()``); with ``PYASC_NUMPY_FALLBACK=warn``
or ``pyasc.warn_on_numpy_fallback()`` each one also warns (pyasc._fallback). Other array types in
the call (a cupy array, ...) still get their turn through NotImplemented.
"""

from __future__ import annotations

import numbers
import types
from typing import Any, Callable

import numpy as np

import pyasc
from pyasc._fallback import fall_back
from pyasc.language.core import KernelBuiltin

def _as_numpy(x: Any) -> Any:
    """Tensors in x (also inside lists, tuples and dicts) as NumPy views."""
    if isinstance(x, pyasc.Tensor):
        return x.numpy()
    if isinstance(x, (list, tuple)):
        converted = [_as_numpy(item) for item in x]
        return type(x)(converted) if type(x) in (list, tuple) else converted
    if isinstance(x, dict):
        return {k: _as_numpy(v) for k, v in x.items()}
    return x


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


# NumPy functions that are Tensor views in pyasc (a tensor's own methods).
_VIEWS: dict[str, Callable[..., Any]] = {
    "reshape": lambda a, shape=None, order="C", **kw: (
        a.reshape(kw.get("newshape", shape)) if order == "C" else NotImplemented),
    "transpose": lambda a, axes=None: a.T if axes is None else a.permute(tuple(axes)),
    "ravel": lambda a, order="C": a.reshape(-1) if order == "C" else NotImplemented,
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

    Plain calls with one output run pyasc's function (out= a single
    pyasc.Tensor), as does ``np.add.at`` on a tensor (``pyasc.add_at``); the
    rest (ufunc.reduce, .accumulate, .outer, two outputs, ufuncs pyasc lacks)
    falls back to NumPy.
    """
    del tensor  # one of the inputs (or out); nothing else to learn from it
    if (method == "at" and ufunc is np.add and len(inputs) == 3 and not kwargs
            and isinstance(inputs[0], pyasc.Tensor)):
        pyasc.add_at(*inputs)  # np.add.at(a, indices, b): in place, returns None
        return None
    if not all(_is_operand(x) for x in inputs) or not all(
            _is_operand(o) for o in kwargs.get("out", ()) or ()):
        return NotImplemented  # another array type's turn
    result = _pyasc_ufunc(ufunc, method, inputs, dict(kwargs))
    if result is not NotImplemented:
        return result
    name = ufunc.__name__ if method == "__call__" else f"{ufunc.__name__}.{method}"
    return fall_back(name, lambda: getattr(ufunc, method)(*_as_numpy(inputs),
                                                           **_as_numpy(kwargs)))


def _pyasc_ufunc(ufunc: np.ufunc, method: str, inputs: tuple[Any, ...],
                 kwargs: dict[str, Any]) -> Any:
    """The call as a pyasc function, or NotImplemented when pyasc has none."""
    if method != "__call__" or ufunc.nout != 1:
        return NotImplemented
    out = kwargs.pop("out", None)
    if out is not None:
        if len(out) != 1 or not isinstance(out[0], pyasc.Tensor):
            return NotImplemented
        out = out[0]
    if not all(_neutral(key, value) for key, value in kwargs.items()):
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
    """func(*args, **kwargs) as the pyasc function of the same name, or in
    NumPy on views of the tensors when pyasc has none."""
    del tensor
    if not all(issubclass(t, pyasc.Tensor) or t is np.ndarray for t in types_):
        return NotImplemented
    namespace = _namespace(getattr(func, "__module__", None) or "")
    fn = _lookup(namespace, func.__name__) if namespace is not None else None
    if fn is not None:
        return fn(*args, **kwargs)
    if namespace is pyasc and func.__name__ in _VIEWS and args and isinstance(args[0], pyasc.Tensor):
        result = _VIEWS[func.__name__](*args, **kwargs)
        if result is not NotImplemented:
            return result
    implementation = getattr(func, "_implementation", func)
    return fall_back(func.__name__, lambda: implementation(*_as_numpy(args), **_as_numpy(kwargs)))
