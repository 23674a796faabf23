"""The PyTorch bridge: a ``@pyasc.op`` operator as a ``torch.library`` op.

``my_op.to_torch(namespace="pyasc")`` (or :func:`register`) defines
``torch.ops.<namespace>.<name>`` with a schema built from the operator's
TensorSpecs and Attrs, a fake implementation, and an autograd formula, and
returns it. torch is imported only when a bridge is made: importing pyasc
(or this module) does not import torch.

- Data: torch CPU tensors are pyasc device tensors (the simulated device's
  global memory is host memory), so inputs and results cross through
  DLPack without copies. Tensors on another torch device raise
  :class:`pyasc.UnsupportedError`: pyasc cannot read their memory.
- Streams: the op waits for the device's streams (the body may use its
  own) before it returns, as any torch CPU op is complete when it returns.
- Fake implementation: the body recorded in meta mode (shapes, which may be
  symbolic, and dtypes only; nothing runs); a body that launches
  ``@pyasc.jit`` kernels cannot be recorded, and then the declared output
  specs give the shapes (their symbolic sizes bound by the inputs) and
  dtypes (the spec's one dtype, else the first input's).
- Autograd: the backward is a second op, ``<name>_backward``, which runs
  :func:`pyasc.autograd.op_vjp` (the declared backward, or the derived
  one), so that torch.compile sees it as one opaque call as well.
"""

from __future__ import annotations

import functools
import threading
from typing import Any

from pyasc import _C, autograd
from pyasc.trace import Graph, Value, _arguments
from pyasc.language.names.dtypes import DTYPE_NAMES

__all__ = ["from_torch", "register", "to_torch"]

_lock = threading.Lock()
_registered: dict[tuple[str, str], tuple[Any, Any]] = {}

_SCHEMA_TYPES = {bool: "bool", int: "int", float: "float", str: "str", _C.dtype: "ScalarType"}


def from_torch(t: Any) -> _C.Tensor:
    """A pyasc tensor sharing a torch CPU tensor's memory."""
    if t.device.type != "cpu":
        raise _C.UnsupportedError(
            f"pyasc: a torch tensor on {t.device} cannot be shared: pyasc's device is the simulated "
            "AI core, whose global memory is host memory (use .cpu())"
        )
    if t.dtype not in _torch_dtypes():
        raise _C.DTypeError(f"pyasc: torch dtype {t.dtype} has no pyasc equivalent")
    return _C.from_dlpack(t.detach())


def to_torch(t: _C.Tensor) -> Any:
    """A torch CPU tensor sharing a pyasc tensor's memory (after its work is done)."""
    import torch

    _C.synchronize()  # every stream: the op may have used its own
    return torch.from_dlpack(t)


@functools.lru_cache(maxsize=1)
def _torch_dtypes() -> dict[Any, _C.dtype]:
    import torch

    # torch >= 2.3 has uint16, uint32 and uint64
    return {getattr(torch, n): _C.dtype(n) for n in DTYPE_NAMES if hasattr(torch, n)}


def _torch_dtype(d: _C.dtype) -> Any:
    import torch

    return getattr(torch, "bool" if d == _C.bool_ else d.name)


def _default_text(value: Any) -> str:
    if isinstance(value, str):
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    return repr(value)


def schema(op: Any) -> str:
    """The torch schema of ``op``'s forward: inputs as ``Tensor`` (``Tensor?``
    when optional), attributes by type with their defaults."""
    params = []
    for pname, param in op.signature.parameters.items():
        if pname in op.inputs:
            optional = param.default is None
            params.append(f"Tensor? {pname}=None" if optional else f"Tensor {pname}")
        else:
            attr = op.attrs[pname]
            text = f"{_SCHEMA_TYPES[attr.type]} {pname}"
            if attr.type is _C.dtype and not attr.required:
                text = f"ScalarType? {pname}=None"  # None: the Attr's default
            elif not attr.required:
                text += f"={_default_text(attr.default)}"
            params.append(text)
    if len(op.outputs) > 1:
        raise _C.UnsupportedError(f"{op.name}: the torch bridge takes operators with one output")
    return f"({', '.join(params)}) -> Tensor"


def _full(op: Any, args: tuple[Any, ...], kwargs: dict[str, Any]) -> list[Any]:
    """Every parameter's value in signature order: torch passes only those given."""
    values = list(args)
    for pname in list(op.signature.parameters)[len(args):]:
        if pname in kwargs:
            values.append(kwargs[pname])
        elif pname in op.attrs and op.attrs[pname].type is not _C.dtype:
            values.append(op.attrs[pname].default)
        else:
            values.append(None)  # an omitted optional input
    return values


def _split(op: Any, args: Any) -> tuple[dict[str, Any], dict[str, Any]]:
    """torch arguments (all, schema order) -> pyasc inputs and attributes."""
    dtypes = None
    inputs: dict[str, Any] = {}
    attrs: dict[str, Any] = {}
    for pname, value in zip(op.signature.parameters, args):
        if pname in op.inputs:
            inputs[pname] = None if value is None else from_torch(value)
        elif op.attrs[pname].type is _C.dtype:
            dtypes = dtypes or _torch_dtypes()
            attrs[pname] = op.attrs[pname].default if value is None else dtypes[value]
        else:
            attrs[pname] = value
    return inputs, attrs


def _call(op: Any, inputs: dict[str, Any], attrs: dict[str, Any]) -> Any:
    args, kwargs = _arguments(op, inputs, attrs)
    return op(*args, **kwargs)


def _unaliased(out: Any, inputs: tuple[Any, ...]) -> Any:
    # torch forbids a custom op's result from aliasing its inputs
    lo, hi = out.data_ptr(), out.data_ptr() + out.numel() * out.element_size()
    for t in inputs:
        if t is None or t.numel() == 0 or out.numel() == 0:
            continue
        tlo = t.data_ptr()
        thi = tlo + t.untyped_storage().nbytes()
        if lo < thi and tlo < hi:
            return out.clone()
    return out


def _meta_outputs(op: Any, args: Any) -> Any:
    """The fake result: the body recorded in meta mode, else the output specs."""
    graph = Graph(concrete=False)
    inputs: dict[str, Any] = {}
    attrs: dict[str, Any] = {}
    dtypes = _torch_dtypes()
    first = None
    for pname, value in zip(op.signature.parameters, args):
        if pname in op.inputs:
            if value is not None:
                first = first if first is not None else value
                inputs[pname] = graph.input(shape=tuple(value.shape), dtype=dtypes[value.dtype])
            else:
                inputs[pname] = None
        else:
            if op.attrs[pname].type is not _C.dtype:
                attrs[pname] = value
            else:
                attrs[pname] = op.attrs[pname].default if value is None else dtypes[value]
    try:
        out = _call(op, inputs, attrs)
    except (_C.UnsupportedError, _C.DTypeError, TypeError):
        out = None
    if isinstance(out, Value):
        shape, dtype = out.shape, out.dtype
    else:
        shape, dtype = _declared_output(op, inputs, first, dtypes)
    return first.new_empty(tuple(shape), dtype=_torch_dtype(dtype)) if first is not None else \
        _empty(shape, dtype)


def _empty(shape: Any, dtype: _C.dtype) -> Any:
    import torch

    return torch.empty(tuple(shape), dtype=_torch_dtype(dtype))


def _declared_output(op: Any, inputs: dict[str, Any], first: Any,
                     dtypes: dict[Any, _C.dtype]) -> tuple[tuple[Any, ...], _C.dtype]:
    if len(op.outputs) != 1:
        raise _C.UnsupportedError(
            f"{op.name}: its body cannot be recorded (it runs something other than pyasc "
            "operations), so the torch bridge needs declared outputs with a shape pattern"
        )
    (spec,) = op.outputs.values()
    dims: dict[str, Any] = {}
    for pname, v in inputs.items():
        in_spec = op.inputs[pname]
        if v is None or in_spec.shape is None or Ellipsis in in_spec.shape:
            continue
        for want, have in zip(in_spec.shape, v.shape):
            if isinstance(want, str):
                dims.setdefault(want, have)
    if spec.shape is None or Ellipsis in spec.shape or None in spec.shape or any(
        isinstance(d, str) and d not in dims for d in spec.shape
    ):
        raise _C.UnsupportedError(
            f"{op.name}: the output's shape pattern must be made of sizes and names bound by "
            "the inputs for the torch bridge's fake implementation"
        )
    shape = tuple(dims[d] if isinstance(d, str) else d for d in spec.shape)
    if spec.dtypes is not None and len(spec.dtypes) == 1:
        dtype = spec.dtypes[0]
    elif first is not None:
        dtype = dtypes[first.dtype]
    else:
        raise _C.UnsupportedError(f"{op.name}: declare the output's dtype for the torch bridge")
    return shape, dtype


def register(op: Any, namespace: str = "pyasc") -> Any:
    """Registers ``op`` as ``torch.ops.<namespace>.<op.name>`` (once; again
    returns the same op) and returns it. See the module docstring."""
    import torch

    if not isinstance(namespace, str) or not namespace.isidentifier():
        raise _C.InvalidValueError(f"to_torch: namespace {namespace!r} is not an identifier")
    key = (namespace, op.name)
    with _lock:
        found = _registered.get(key)
        if found is not None:
            if found[0] is not op:
                raise _C.InvalidValueError(
                    f"to_torch: {namespace}::{op.name} is already registered for another operator"
                )
            return found[1]
        forward = _define_forward(torch, op, namespace)
        _define_autograd(torch, op, namespace, forward)
        _registered[key] = (op, forward)
        return forward


def _define_forward(torch: Any, op: Any, namespace: str) -> Any:
    names = list(op.signature.parameters)

    def forward_impl(*given: Any, **kwargs: Any) -> Any:
        args = _full(op, given, kwargs)
        inputs, attrs = _split(op, args)
        out = _call(op, inputs, attrs)
        tensors = tuple(a for n, a in zip(names, args) if n in op.inputs)
        return _unaliased(to_torch(_C.asarray(out)), tensors)

    forward = torch.library.custom_op(f"{namespace}::{op.name}", forward_impl, mutates_args=(),
                                      schema=schema(op))
    forward.register_fake(lambda *args, **kwargs: _meta_outputs(op, _full(op, args, kwargs)))
    return forward


def _define_autograd(torch: Any, op: Any, namespace: str, forward: Any) -> None:
    names = list(op.signature.parameters)
    params = schema(op)[1:].split(") -> ")[0]
    grad_schema = f"(Tensor grad, Tensor output{', ' if params else ''}{params}) -> Tensor[]"

    def backward_impl(grad: Any, output: Any, *args: Any, **kwargs: Any) -> list[Any]:
        inputs, attrs = _split(op, _full(op, args, kwargs))
        cts = autograd.op_vjp(op, inputs, attrs, from_torch(output), from_torch(grad))
        result = []
        for (pname, x), g in zip(inputs.items(), cts):
            if g is None:
                g = _C.zeros(tuple(x.shape) if x is not None else (0,),
                             dtype=x.dtype if x is not None else _C.float32)
            result.append(to_torch(_C.asarray(g)).clone())
        return result

    backward_op = torch.library.custom_op(f"{namespace}::{op.name}_backward", backward_impl,
                                          mutates_args=(), schema=grad_schema)

    def backward_fake(grad: Any, output: Any, *args: Any, **kwargs: Any) -> list[Any]:
        return [torch.empty_like(a) if a is not None else grad.new_empty((0,))
                for n, a in zip(names, _full(op, args, kwargs)) if n in op.inputs]

    backward_op.register_fake(backward_fake)

    def setup_context(ctx: Any, inputs: tuple[Any, ...], output: Any) -> None:
        inputs = tuple(_full(op, inputs, {}))
        tensors = [a for n, a in zip(names, inputs) if n in op.inputs and a is not None]
        ctx.save_for_backward(output, *tensors)
        # attributes as they are; tensors by their place among the saved ones
        ctx.args = [None if n in op.inputs else a for n, a in zip(names, inputs)]
        ctx.present = [n in op.inputs and a is not None for n, a in zip(names, inputs)]

    def backward(ctx: Any, grad: Any) -> tuple[Any, ...]:
        output, *tensors = ctx.saved_tensors
        saved = iter(tensors)
        args = [next(saved) if present else a for present, a in zip(ctx.present, ctx.args)]
        ctx.args = args
        grads = iter(backward_op(grad.contiguous(), output, *args))
        result: list[Any] = []
        for pname, a in zip(names, ctx.args):
            if pname not in op.inputs:
                result.append(None)
                continue
            g = next(grads)
            result.append(g if a is not None and a.dtype.is_floating_point else None)
        return tuple(result)

    forward.register_autograd(backward, setup_context=setup_context)

