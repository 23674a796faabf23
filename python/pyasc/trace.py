"""Recording what a function does with pyasc tensors: a graph of operations.

:func:`trace` calls a function with :class:`Value` stand-ins for its tensor
arguments and records every pyasc operation applied to them as a
:class:`Node` (operation name, inputs, attributes, output dtype and shape)
of a :class:`Graph`. Autograd (``pyasc.autograd``) walks that graph
backwards; a tracing compiler can read the same graph.

A graph is recorded in one of two modes:

- concrete (``Graph(concrete=True)``): each operation also runs eagerly,
  so every Value holds its tensor and Python code may look at values
  (``float(v)``, ``if v.item() > 0``); the graph is then that of these
  values.
- meta: Values hold only a shape and a dtype. Shapes follow each
  operation's shape rule (plain Python arithmetic, so symbolic sizes such
  as torch's ``SymInt`` pass through); dtypes come from running the
  operation on one-element stand-ins, which keeps pyasc's promotion rules
  in one place (the C core).

How calls are seen: operators and methods of a Value record themselves.
Module functions (``pyasc.exp(v)``) are C functions that cannot see a
Value, so :func:`traceable` runs a copy of the function whose globals are
looked up through a substitute: ``pyasc`` (the module under any name) and
recordable pyasc functions (``from pyasc import exp``) become recording
ones; functions of the same module and of the closure are copied the same
way. A Value that
reaches anything else (a helper in another module, NumPy) raises
:class:`pyasc.UnsupportedError` instead of silently dropping out of the
graph.
"""

from __future__ import annotations

import functools
import math
import sys
import types
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from pyasc import _C

__all__ = ["OPS", "Graph", "Node", "OpDef", "Value", "trace", "traceable"]


# --- shape rules (meta mode) ------------------------------------------------------


def _broadcast(*shapes: tuple[Any, ...]) -> tuple[Any, ...]:
    ndim = max((len(s) for s in shapes), default=0)
    out = []
    for i in range(ndim):
        size: Any = 1
        for s in shapes:
            d = s[i - ndim + len(s)] if i - ndim + len(s) >= 0 else 1
            if d != 1:
                if size != 1 and size != d:
                    raise _C.InvalidValueError(f"shapes {shapes} cannot be broadcast together")
                size = d
        out.append(size)
    return tuple(out)


def _norm_axes(axis: Any, ndim: int) -> tuple[int, ...]:
    if axis is None:
        return tuple(range(ndim))
    axes = (axis,) if isinstance(axis, int) else tuple(axis)
    return tuple(sorted(a % ndim if ndim else a for a in axes))


def _elementwise_shape(shapes: list[tuple[Any, ...]], attrs: dict[str, Any]) -> tuple[Any, ...]:
    return _broadcast(*shapes)


def _reduce_shape(shapes: list[tuple[Any, ...]], attrs: dict[str, Any]) -> tuple[Any, ...]:
    (shape,) = shapes
    axes = _norm_axes(attrs.get("axis"), len(shape))
    if attrs.get("keepdims"):
        return tuple(1 if i in axes else d for i, d in enumerate(shape))
    return tuple(d for i, d in enumerate(shape) if i not in axes)


def _same_shape(shapes: list[tuple[Any, ...]], attrs: dict[str, Any]) -> tuple[Any, ...]:
    return shapes[0]


def _matmul_shape(shapes: list[tuple[Any, ...]], attrs: dict[str, Any]) -> tuple[Any, ...]:
    a, b = shapes
    a2 = (1, *a) if len(a) == 1 else a
    b2 = (*b, 1) if len(b) == 1 else b
    batch = _broadcast(a2[:-2], b2[:-2])
    out = (*batch, a2[-2], b2[-1])
    if len(a) == 1:
        out = out[:-2] + out[-1:]
    if len(b) == 1:
        out = out[:-1]
    return out


def _reshape_shape(shapes: list[tuple[Any, ...]], attrs: dict[str, Any]) -> tuple[Any, ...]:
    new = list(attrs["shape"])
    if -1 in new:
        known = math.prod(d for d in new if d != -1)
        new[new.index(-1)] = math.prod(shapes[0]) // known
    return tuple(new)


def _transpose_shape(shapes: list[tuple[Any, ...]], attrs: dict[str, Any]) -> tuple[Any, ...]:
    shape = shapes[0]
    axes = attrs["axes"] or tuple(reversed(range(len(shape))))
    return tuple(shape[a] for a in axes)


def _expand_shape(shapes: list[tuple[Any, ...]], attrs: dict[str, Any]) -> tuple[Any, ...]:
    return _broadcast(shapes[0], tuple(attrs["shape"]))


def _getitem_shape(shapes: list[tuple[Any, ...]], attrs: dict[str, Any]) -> tuple[Any, ...]:
    if not all(isinstance(d, int) for d in shapes[0]):
        raise _C.UnsupportedError("pyasc.trace: indexing needs concrete sizes in meta mode")
    stand_in = _C.zeros((), dtype=_C.float32).expand(*shapes[0])  # zero strides: no memory
    return tuple(stand_in[attrs["index"]].shape)


# --- the table of recordable operations ---------------------------------------------


@dataclass(frozen=True)
class OpDef:
    """A recordable pyasc operation.

    ``operands`` is how many leading arguments are tensors (or scalars);
    ``params`` names the further parameters in positional order (``out`` is
    refused while tracing); ``run(*operands, **attrs)`` computes it eagerly;
    ``shape`` is its meta-mode shape rule; ``keeps_dtype``: the result has
    the first operand's dtype (views), so no stand-in run is needed.
    """

    name: str
    operands: int
    params: tuple[str, ...]
    run: Callable[..., Any]
    shape: Callable[[list[tuple[Any, ...]], dict[str, Any]], tuple[Any, ...]]
    keeps_dtype: bool = False


def _fn(name: str) -> Callable[..., Any]:
    fn: Callable[..., Any] = getattr(_C, name)
    return fn


_BINARY = ("add", "subtract", "multiply", "divide", "power", "maximum", "minimum",
           "equal", "not_equal", "greater", "greater_equal", "less", "less_equal",
           "logical_and", "logical_or", "floor_divide", "remainder")
_UNARY = ("negative", "positive", "abs", "exp", "exp2", "expm1", "log", "log2", "log1p",
          "sqrt", "rsqrt", "sin", "cos", "tan", "tanh", "sigmoid", "relu", "gelu", "erf",
          "reciprocal", "sign", "floor", "ceil", "round", "rint", "trunc", "isnan",
          "isinf", "isfinite", "logical_not")
_REDUCE = {"sum": ("axis", "dtype", "out", "keepdims"),
           "prod": ("axis", "dtype", "out", "keepdims"),
           "mean": ("axis", "dtype", "out", "ddof", "keepdims"),
           "var": ("axis", "dtype", "out", "ddof", "keepdims"),
           "std": ("axis", "dtype", "out", "ddof", "keepdims"),
           "max": ("axis", "out", "keepdims"),
           "min": ("axis", "out", "keepdims")}


def _build_table() -> dict[str, OpDef]:
    table: dict[str, OpDef] = {}
    for name in _BINARY:
        table[name] = OpDef(name, 2, ("out",), _fn(name), _elementwise_shape)
    for name in _UNARY:
        table[name] = OpDef(name, 1, ("out",), _fn(name), _elementwise_shape)
    for name, params in _REDUCE.items():
        table[name] = OpDef(name, 1, params, _fn(name), _reduce_shape)
    for name in ("softmax", "log_softmax"):
        table[name] = OpDef(name, 1, ("axis", "out"), _fn(name), _same_shape)
    table["where"] = OpDef("where", 3, ("out",), _C.where, _elementwise_shape)
    table["clip"] = OpDef("clip", 3, ("out",), _C.clip, _elementwise_shape)
    table["matmul"] = OpDef("matmul", 2, ("out",), _C.matmul, _matmul_shape)
    table["astype"] = OpDef("astype", 1, ("dtype",), lambda x, dtype: x.astype(dtype),
                            _same_shape)
    table["reshape"] = OpDef("reshape", 1, ("shape",), lambda x, shape: x.reshape(*shape),
                             _reshape_shape, keeps_dtype=True)
    table["transpose"] = OpDef("transpose", 1, ("axes",),
                               lambda x, axes: x.transpose(*(axes or ())), _transpose_shape,
                               keeps_dtype=True)
    table["expand"] = OpDef("expand", 1, ("shape",), lambda x, shape: x.expand(*shape),
                            _expand_shape, keeps_dtype=True)
    # creation from a tensor's shape: constants of the graph (zero derivative)
    for name in ("zeros_like", "ones_like", "empty_like"):
        table[name] = OpDef(name, 1, ("dtype",), _fn(name), _same_shape)
    table["full_like"] = OpDef("full_like", 1, ("fill_value", "dtype"), _C.full_like,
                               _same_shape)
    table["getitem"] = OpDef("getitem", 1, ("index",), lambda x, index: x[index],
                             _getitem_shape, keeps_dtype=True)
    return table


#: name -> OpDef: every operation a graph can hold (besides ``"op"``, a call
#: of a ``@pyasc.op`` operator with its own backward).
OPS: dict[str, OpDef] = _build_table()

# pyasc names that are spelt differently in the table.
_ALIASES = {"absolute": "abs", "amax": "max", "amin": "min", "broadcast_to": "expand",
            "permute": "transpose", "pow": "power"}


# --- graph --------------------------------------------------------------------------


@dataclass(eq=False)
class Node:
    """One recorded operation: ``op`` names a row of :data:`OPS` (or is
    ``"op"``); ``inputs`` holds Values and constants (Python scalars,
    ``None``); ``attrs`` the other parameters; ``output`` its result."""

    op: str
    inputs: tuple[Any, ...]
    attrs: dict[str, Any]
    output: Value | None = None

    @property
    def dtype(self) -> _C.dtype:
        """The output's dtype."""
        assert self.output is not None
        return self.output.dtype

    @property
    def shape(self) -> tuple[Any, ...]:
        """The output's shape."""
        assert self.output is not None
        return self.output.shape


@dataclass(eq=False)
class Graph:
    """Recorded operations in program order, with the graph's inputs."""

    concrete: bool = True
    inputs: list[Value] = field(default_factory=list)
    nodes: list[Node] = field(default_factory=list)

    def input(self, tensor: Any = None, shape: Sequence[Any] = (), dtype: Any = None) -> Value:
        """A new graph input: a tensor (concrete mode) or a shape and dtype."""
        if self.concrete:
            t = tensor if isinstance(tensor, _C.Tensor) else _C.asarray(tensor)
            v = Value(self, None, tuple(t.shape), t.dtype, t)
        else:
            v = Value(self, None, tuple(shape), _C.dtype(dtype), None)
        self.inputs.append(v)
        return v

    def record(self, name: str, args: Sequence[Any], attrs: dict[str, Any]) -> Value:
        """Records (and in concrete mode runs) operation ``name`` of :data:`OPS`."""
        opdef = OPS[name]
        for a in args:
            if isinstance(a, Value) and a.graph is not self:
                raise _C.UnsupportedError("pyasc.trace: a value of another trace was used here")
        if self.concrete:
            data = opdef.run(*[_data(a) for a in args], **attrs)
            out = Value(self, None, tuple(data.shape), data.dtype, data)
        else:
            shapes = [a.shape if isinstance(a, Value) else () for a in args if a is not None]
            shape = opdef.shape(shapes, attrs)
            dtype = args[0].dtype if opdef.keeps_dtype else _meta_dtype(opdef, args, attrs)
            out = Value(self, None, tuple(shape), dtype, None)
        node = Node(name, tuple(args), dict(attrs), out)
        out.node = node
        self.nodes.append(node)
        return out

    def record_op(self, op: Any, inputs: dict[str, Any], attrs: dict[str, Any]) -> Any:
        """Records a call of ``@pyasc.op`` operator ``op`` whose inputs hold
        Values of this graph: one ``"op"`` node when the operator declares a
        backward (concrete mode, one output), else its body, recorded."""
        if op.backward_fn is not None and self.concrete and len(op.outputs) <= 1:
            args, kwargs = _arguments(op, {n: _data(v) for n, v in inputs.items()}, attrs)
            data = op(*args, **kwargs)
            if isinstance(data, _C.Tensor):
                out = Value(self, None, tuple(data.shape), data.dtype, data)
                node = Node("op", tuple(inputs.values()), {"op": op, "attrs": dict(attrs)}, out)
                out.node = node
                self.nodes.append(node)
                return out
        args, kwargs = _arguments(op, inputs, attrs)
        return traceable(op.fn)(*args, **kwargs)

    def __str__(self) -> str:
        ids = {id(v): f"%{i}" for i, v in enumerate(self.inputs)}
        lines = [f"graph({', '.join(ids.values())}):"]
        for node in self.nodes:
            assert node.output is not None
            ids[id(node.output)] = f"%{len(ids)}"
            args = ", ".join(ids.get(id(a), repr(a)) if isinstance(a, Value) else repr(a)
                             for a in node.inputs)
            attrs = "".join(f", {k}={v!r}" for k, v in node.attrs.items() if k != "op")
            if node.op == "op":
                attrs = f", op={node.attrs['op'].name}{attrs}"
            lines.append(f"  {ids[id(node.output)]} = {node.op}({args}{attrs})"
                         f" : {node.dtype.name}{list(node.shape)}")
        return "\n".join(lines)


def _arguments(op: Any, inputs: dict[str, Any], attrs: dict[str, Any]) -> tuple[list[Any], dict[str, Any]]:
    args: list[Any] = []
    kwargs: dict[str, Any] = {}
    for pname, param in op.signature.parameters.items():
        value = inputs[pname] if pname in inputs else attrs[pname]
        if param.kind is param.POSITIONAL_ONLY:
            args.append(value)
        else:
            kwargs[pname] = value
    return args, kwargs


def _data(a: Any) -> Any:
    return a.data if isinstance(a, Value) else a


def _meta_dtype(opdef: OpDef, args: Sequence[Any], attrs: dict[str, Any]) -> _C.dtype:
    """The result dtype, from the C core's own rules run on one-element tensors."""
    stand_ins = [_C.zeros((1,) * len(a.shape), dtype=a.dtype) if isinstance(a, Value) else a
                 for a in args]
    dtype: _C.dtype = opdef.run(*stand_ins, **attrs).dtype
    return dtype


def _bind(opdef: OpDef, args: tuple[Any, ...], kwargs: dict[str, Any]) -> tuple[list[Any], dict[str, Any]]:
    """Splits a call into operands and parameters, as the C function would."""
    names = [f"x{i}" for i in range(opdef.operands)] + list(opdef.params)
    if len(args) > len(names):
        raise _C.DTypeError(f"{opdef.name}: takes at most {len(names)} arguments")
    bound = dict(zip(names, args))
    for k, v in kwargs.items():
        if k not in opdef.params or k in bound:
            raise _C.DTypeError(f"{opdef.name}: unexpected or repeated argument '{k}'")
        bound[k] = v
    if bound.pop("out", None) is not None:
        raise _C.UnsupportedError(f"{opdef.name}: out= cannot be recorded while tracing")
    operands = [bound.pop(f"x{i}", None) for i in range(opdef.operands)]
    return operands, bound


# --- the stand-in value --------------------------------------------------------------


def _recorder(name: str, fallback: Callable[..., Any] | None = None) -> Callable[..., Any]:
    """A function that records ``name`` when a Value is among its operands, and
    calls ``fallback`` (the C function) otherwise."""
    opdef = OPS[name]

    def call(*args: Any, **kwargs: Any) -> Any:
        graph = _graph_of(args)
        if name == "where" and len(args) + len(kwargs) == 1:
            # where(condition) is nonzero: integer indices, by value
            return _by_value(_C.nonzero)(*args, **kwargs)
        if graph is None:
            if fallback is None:
                return opdef.run(*args, **kwargs)
            return fallback(*args, **kwargs)
        operands, attrs = _bind(opdef, args, kwargs)
        return graph.record(name, operands, attrs)

    call.__name__ = name
    call.__doc__ = f"Recording form of pyasc.{name}."
    return call


def _graph_of(args: Sequence[Any]) -> Graph | None:
    for a in args:
        if isinstance(a, Value):
            return a.graph
    return None


class Value:
    """A tensor as a traced function sees it: shape, dtype, the node that made
    it (``None`` for a graph input), and its tensor in concrete mode.

    Operators, indexing and the tensor methods of :data:`OPS` record
    themselves; ``float()``, ``bool()``, ``item()`` and ``numpy()`` read the
    concrete value.
    """

    __array_priority__ = 1000  # NumPy defers binary operators to us

    def __init__(self, graph: Graph, node: Node | None, shape: tuple[Any, ...],
                 dtype: _C.dtype, data: Any) -> None:
        self.graph = graph
        self.node = node
        self.shape = shape
        self.dtype = dtype
        self.data = data

    @property
    def ndim(self) -> int:
        """The number of dimensions."""
        return len(self.shape)

    @property
    def size(self) -> Any:
        """The number of elements."""
        return math.prod(self.shape)

    @property
    def T(self) -> Value:
        """The transposed view."""
        return self.graph.record("transpose", [self], {"axes": None})

    def __repr__(self) -> str:
        return f"<pyasc.trace.Value {self.dtype.name}{list(self.shape)}>"

    def _concrete(self, what: str) -> Any:
        if self.data is None:
            raise _C.UnsupportedError(
                f"pyasc.trace: {what} needs a concrete value, and this trace records shapes only"
            )
        return self.data

    def __float__(self) -> float:
        return float(self._concrete("float()"))

    def __int__(self) -> int:
        return int(self._concrete("int()"))

    def __bool__(self) -> bool:
        return bool(self._concrete("bool()"))

    def __index__(self) -> int:
        index: int = self._concrete("an index").__index__()
        return index

    def item(self) -> Any:
        """The only element as a Python scalar (concrete mode)."""
        return self._concrete("item()").item()

    def numpy(self) -> Any:
        """The value as a NumPy array (concrete mode); leaves the graph."""
        return self._concrete("numpy()").numpy()

    def __array__(self, *args: Any, **kwargs: Any) -> Any:
        raise _C.UnsupportedError(
            "pyasc.trace: a traced tensor reached a function that does not record operations "
            "(only pyasc operations, tensor methods and operators are recorded; call pyasc "
            "functions through the pyasc module in the traced function, or declare a "
            "backward for the operator)"
        )

    # views and casts
    def reshape(self, *shape: Any) -> Value:
        """Recorded reshape."""
        if len(shape) == 1 and isinstance(shape[0], (tuple, list)):
            shape = tuple(shape[0])
        return self.graph.record("reshape", [self], {"shape": tuple(shape)})

    view = reshape

    def transpose(self, *axes: Any) -> Value:
        """Recorded transpose (a permutation; none reverses the axes)."""
        if len(axes) == 1 and isinstance(axes[0], (tuple, list)):
            axes = tuple(axes[0])
        return self.graph.record("transpose", [self], {"axes": tuple(axes) or None})

    permute = transpose

    def expand(self, *shape: Any) -> Value:
        """Recorded broadcast view."""
        if len(shape) == 1 and isinstance(shape[0], (tuple, list)):
            shape = tuple(shape[0])
        return self.graph.record("expand", [self], {"shape": tuple(shape)})

    broadcast_to = expand

    def astype(self, dtype: Any) -> Value:
        """Recorded cast."""
        return self.graph.record("astype", [self], {"dtype": _C.dtype(dtype)})

    def to(self, dtype: Any) -> Value:
        """Recorded cast (``to(dtype)`` only)."""
        return self.astype(dtype)

    def __len__(self) -> int:
        if not self.shape:
            raise TypeError("len() of a 0-d tensor")
        return int(self.shape[0])

    def __getitem__(self, index: Any) -> Value:
        return self.graph.record("getitem", [self], {"index": _concrete_key(index)})

    def __getattr__(self, name: str) -> Any:
        # tensor methods of the table: v.exp(), v.sum(axis=0), ...
        target = _ALIASES.get(name, name)
        if target in OPS and not name.startswith("_"):
            return functools.partial(_RECORDERS[target], self)
        raise AttributeError(f"pyasc.trace.Value has no attribute {name!r}")

    __hash__ = object.__hash__


def _concrete_key(index: Any) -> Any:
    """An index key with its traced tensors (masks, integer arrays) replaced
    by their values: an index carries no gradient, and the result's shape
    depends on its values, which a trace of shapes only does not have."""
    if isinstance(index, Value):
        return index._concrete("indexing by a traced tensor")
    if isinstance(index, tuple):
        return tuple(_concrete_key(item) for item in index)
    return index


_RECORDERS = {name: _recorder(name) for name in OPS}


def _binary_dunders() -> None:
    pairs = {"add": "add", "sub": "subtract", "mul": "multiply", "truediv": "divide",
             "pow": "power", "matmul": "matmul", "floordiv": "floor_divide", "mod": "remainder"}
    for dunder, name in pairs.items():
        rec = _RECORDERS[name]
        setattr(Value, f"__{dunder}__", lambda self, other, rec=rec: rec(self, other))
        setattr(Value, f"__r{dunder}__", lambda self, other, rec=rec: rec(other, self))
    compares = {"eq": "equal", "ne": "not_equal", "lt": "less", "le": "less_equal",
                "gt": "greater", "ge": "greater_equal"}
    for dunder, name in compares.items():
        rec = _recorder(name)
        setattr(Value, f"__{dunder}__", lambda self, other, rec=rec: rec(self, other))
    for dunder, name in {"neg": "negative", "pos": "positive", "abs": "abs"}.items():
        rec = _recorder(name)
        setattr(Value, f"__{dunder}__", lambda self, rec=rec: rec(self))


_binary_dunders()


# --- running a function with recording names ------------------------------------------


class _Namespace(types.ModuleType):
    """The ``pyasc`` module as a traced function sees it: recordable
    functions record, every other name is the module's own."""

    def __init__(self, module: types.ModuleType) -> None:
        super().__init__(module.__name__, module.__doc__)
        self._module = module

    def __getattr__(self, name: str) -> Any:
        real = getattr(self._module, name)
        return _RECORDING.get(id(real), real)


def _by_value(fn: Callable[..., Any]) -> Callable[..., Any]:
    """fn called with its traced arguments' values: for functions whose
    results are integer indices (no gradient) whose shapes depend on those
    values (nonzero, argwhere)."""

    def call(*args: Any, **kwargs: Any) -> Any:
        args = tuple(a._concrete(f"pyasc.{fn.__name__}") if isinstance(a, Value) else a
                     for a in args)
        kwargs = {k: v._concrete(f"pyasc.{fn.__name__}") if isinstance(v, Value) else v
                  for k, v in kwargs.items()}
        return fn(*args, **kwargs)

    call.__name__ = fn.__name__
    call.__doc__ = f"pyasc.{fn.__name__} of traced values, by value."
    return call


def _recordable_functions() -> dict[int, Callable[..., Any]]:
    """id of each pyasc C function the table records -> its recording form."""
    found: dict[int, Callable[..., Any]] = {id(f): _by_value(f) for f in (_C.nonzero, _C.argwhere)}
    for name in list(OPS) + list(_ALIASES):
        real = getattr(_C, name, None)
        if callable(real):
            found[id(real)] = _recorder(_ALIASES.get(name, name), real)
    return found


_RECORDING = _recordable_functions()


def traceable(fn: Callable[..., Any]) -> Callable[..., Any]:
    """A copy of ``fn`` that sees recording pyasc functions (see the module
    docstring); ``fn`` itself is untouched. Other callables are returned as
    they are."""
    if not isinstance(fn, types.FunctionType):
        return fn
    return _Rewriter().function(fn)


class _Globals(dict[str, Any]):
    """A function's globals as the traced copy sees them: looked up in the
    module's own dict at each use (so later rebinding is seen and nothing is
    copied), with recording substitutes. CPython reads a non-exact dict's
    globals through ``__getitem__``; a miss falls back to the builtins."""

    def __init__(self, rewriter: _Rewriter, original: dict[str, Any]) -> None:
        super().__init__()
        self._rewriter = rewriter
        self._original = original

    def __getitem__(self, name: str) -> Any:
        return self._rewriter.value(self._original[name], self._original)


class _Rewriter:
    """Copies functions with substituted globals and closures (one per trace)."""

    def __init__(self) -> None:
        pyasc = sys.modules["pyasc"]  # the package, imported before anything is traced
        self._pyasc = pyasc
        self._namespace = _Namespace(pyasc)
        self._globals: dict[int, _Globals] = {}
        self._functions: dict[int, types.FunctionType] = {}

    def value(self, v: Any, module_globals: dict[str, Any] | None) -> Any:
        if v is self._pyasc:
            return self._namespace
        recording = _RECORDING.get(id(v))
        if recording is not None:
            return recording
        if isinstance(v, types.FunctionType) and (
            module_globals is None or v.__globals__ is module_globals
        ):
            return self.function(v)
        return v

    def function(self, fn: types.FunctionType) -> types.FunctionType:
        done = self._functions.get(id(fn))
        if done is not None:
            return done
        new_globals = self._globals.get(id(fn.__globals__))
        if new_globals is None:
            new_globals = self._globals[id(fn.__globals__)] = _Globals(self, fn.__globals__)
        closure = None
        if fn.__closure__:
            closure = tuple(types.CellType() for _ in fn.__closure__)
        copy = types.FunctionType(fn.__code__, new_globals, fn.__name__, fn.__defaults__, closure)
        copy.__kwdefaults__ = fn.__kwdefaults__
        self._functions[id(fn)] = copy
        if fn.__closure__ and closure:
            for old, new in zip(fn.__closure__, closure):
                try:
                    new.cell_contents = self.value(old.cell_contents, None)
                except ValueError:  # an empty cell: a name not bound yet
                    pass
        return copy


def trace(fn: Callable[..., Any], *args: Any, concrete: bool = True) -> tuple[Graph, Any]:
    """Calls ``fn(*args)`` with Values for its tensor arguments (Tensors, or
    Values of a new graph already) and returns ``(graph, result)``."""
    graph = Graph(concrete=concrete)
    values = [a if isinstance(a, Value) else graph.input(a) for a in args]
    return graph, traceable(fn)(*values)
