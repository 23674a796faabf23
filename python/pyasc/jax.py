"""The JAX bridge: a ``@pyasc.op`` operator as a function of JAX arrays.

``my_op.to_jax()`` (or :func:`wrap`) returns ``f(*inputs, **attrs)`` that
works on JAX arrays, inside ``jax.jit`` too, and is differentiable with
``jax.grad``: a ``jax.custom_vjp`` whose forward and backward are
``jax.pure_callback`` calls into pyasc (the backward is
:func:`pyasc.autograd.op_vjp`: the declared one, or the derived one). jax
is imported only when a bridge is made.

Why a callback rather than an XLA FFI custom call: the operator's body is
Python, so a custom call would call back into Python anyway; the callback
costs one host round trip per call (``bench/framework.py`` measures it).
Arrays cross as NumPy arrays: pyasc shares their memory for its inputs
(zero copy); JAX copies the results into its own buffers. Attributes are
static (each distinct set is a separate function to JAX); result shapes
and dtypes come from recording the body in meta mode, as in the torch
bridge. Optional inputs (default ``None``) must be given.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import numpy as np

from pyasc import _C, autograd
from pyasc.trace import Graph, Value, _arguments

__all__ = ["wrap"]


def _pyasc_dtype(dtype: Any) -> _C.dtype:
    return _C.dtype(np.dtype(dtype).name)


def _host(t: Any) -> np.ndarray:
    _C.synchronize()  # every stream: the op may have used its own
    return np.asarray(_C.asarray(t).numpy())


def wrap(op: Any) -> Callable[..., Any]:
    """``op`` as a function of JAX arrays (see the module docstring)."""
    import jax


    names = list(op.inputs)

    def run(inputs: dict[str, Any], attrs: dict[str, Any]) -> Any:
        args, kwargs = _arguments(op, inputs, attrs)
        return op(*args, **kwargs)

    def result_type(arrays: tuple[Any, ...], attrs: dict[str, Any]) -> Any:
        graph = Graph(concrete=False)
        inputs = {n: graph.input(shape=tuple(a.shape), dtype=_pyasc_dtype(a.dtype))
                  for n, a in zip(names, arrays)}
        out = run(inputs, attrs)
        if not isinstance(out, Value):
            raise _C.UnsupportedError(f"{op.name}: the JAX bridge takes operators with one output")
        return jax.ShapeDtypeStruct(tuple(out.shape), np.dtype(_numpy_name(out.dtype)))

    @functools.lru_cache(maxsize=64)
    def build(attr_items: tuple[tuple[str, Any], ...]) -> Callable[..., Any]:
        attrs = dict(attr_items)

        def host_forward(*arrays: Any) -> np.ndarray:
            inputs = {n: _C.asarray(np.asarray(a)) for n, a in zip(names, arrays)}
            return _host(run(inputs, attrs))

        def host_backward(g: Any, out: Any, *arrays: Any) -> tuple[np.ndarray, ...]:
            inputs = {n: _C.asarray(np.asarray(a)) for n, a in zip(names, arrays)}
            cts = autograd.op_vjp(op, inputs, attrs, _C.asarray(np.asarray(out)),
                                  _C.asarray(np.asarray(g)))
            return tuple(np.zeros(a.shape, a.dtype) if c is None else
                         _host(c).astype(a.dtype, copy=False).reshape(a.shape)
                         for a, c in zip(arrays, cts))

        @jax.custom_vjp
        def f(*arrays: Any) -> Any:
            return jax.pure_callback(host_forward, result_type(arrays, attrs), *arrays)

        def f_fwd(*arrays: Any) -> tuple[Any, Any]:
            out = f(*arrays)
            return out, (arrays, out)

        def f_bwd(res: Any, g: Any) -> tuple[Any, ...]:
            arrays, out = res
            shapes = tuple(jax.ShapeDtypeStruct(a.shape, a.dtype) for a in arrays)
            cts = jax.pure_callback(host_backward, shapes, g, out, *arrays)
            return tuple(c if np.issubdtype(a.dtype, np.floating) else None
                         for a, c in zip(arrays, cts))

        f.defvjp(f_fwd, f_bwd)
        return f

    def call(*args: Any, **kwargs: Any) -> Any:
        try:
            bound = op.signature.bind(*args, **kwargs).arguments
        except TypeError as exc:
            raise _C.DTypeError(f"{op.name}: {exc}") from None
        attrs = {}
        for aname, attr in op.attrs.items():
            attrs[aname] = (attr.convert(op.name, aname, bound[aname]) if aname in bound
                            else attr.default)
        missing = [n for n in names if bound.get(n) is None]
        if missing:
            raise _C.InvalidValueError(f"{op.name}: the JAX bridge needs input '{missing[0]}'")
        arrays = [jax.numpy.asarray(bound[n]) for n in names]
        return build(tuple(sorted(attrs.items())))(*arrays)

    call.__name__ = op.name
    call.__doc__ = op.__doc__
    return call


def _numpy_name(d: _C.dtype) -> str:
    if d == _C.bfloat16:
        return "bfloat16"  # ml_dtypes, which JAX installs, registers it with NumPy
    return "bool" if d == _C.bool_ else d.name
