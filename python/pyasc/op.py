"""``@pyasc.op``: operators defined by a Python function over tensors.

An operator is a Python function whose inputs are :class:`pyasc.Tensor`
objects, wrapped in an :class:`Op` that knows what the inputs and parameters
may be::

    @pyasc.op(
        inputs={"x": pyasc.TensorSpec(dtypes=(pyasc.float32, pyasc.float64), shape=("M", "K")),
                "w": pyasc.TensorSpec(dtypes=(pyasc.float32, pyasc.float64), shape=("K", "N"))},
        attrs={"alpha": pyasc.Attr(float, default=1.0)},
    )
    def scaled(x, w, alpha):
        ...

Calling the operator converts its inputs to tensors (NumPy arrays and lists
with :func:`pyasc.asarray`, Python scalars as NEP 50 weak scalars), checks
them against the declared specs and converts the parameters. The first call
of each signature traces the function and compiles its element-wise chains
into kernels (``docs/op-compiler.md``, :meth:`Op.explain`); later calls of
that signature go straight to them, and what cannot be compiled runs the
function eagerly.

Operators are registered by name: ``pyasc.ops.<name>``, :func:`get_op`,
:func:`list_ops`. This module's name is also that of the decorator: after
``import pyasc``, ``pyasc.op`` is the decorator; the module is
``sys.modules["pyasc.op"]`` (``from pyasc.op import Op`` works).
"""

from __future__ import annotations

import dataclasses
import functools
import importlib
import inspect
import keyword
import operator
import sys
import threading
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, NoReturn, overload

import numpy as np

from pyasc import _C, _frameworks, _fuse_kernel, _fuse_plan, _fuse_run
from pyasc import jax as _jax_bridge
from pyasc import torch as _torch_bridge
from pyasc import trace as _trace
from pyasc._docs import with_parts
from pyasc._promotion import common_dtype, weak, zero
from pyasc.op_spec import _ATTR_TYPES, _KIND_RANK, REQUIRED, Attr, TensorSpec, _dtype_names, _dtype_rank

__all__ = [
    "REQUIRED",
    "Attr",
    "Op",
    "OpCall",
    "TensorSpec",
    "get_op",
    "list_ops",
    "op",
    "unregister",
]

# --- operators ----------------------------------------------------------------


@dataclass(frozen=True)
class OpCall:
    """One validated call: what the function will see.

    ``inputs`` maps input names to tensors (``None`` for an omitted optional
    input), ``attrs`` parameter names to converted values, and ``dims`` the
    symbolic sizes of the shape patterns to their values.
    """

    op: Op
    inputs: Mapping[str, _C.Tensor | None]
    attrs: Mapping[str, Any]
    dims: Mapping[str, int] = field(default_factory=dict)

    def arguments(self) -> tuple[list[Any], dict[str, Any]]:
        """Positional and keyword arguments for the function."""
        args: list[Any] = []
        kwargs: dict[str, Any] = {}
        for pname, param in self.op.signature.parameters.items():
            value = self.inputs[pname] if pname in self.inputs else self.attrs[pname]
            if param.kind is param.POSITIONAL_ONLY:
                args.append(value)
            else:
                kwargs[pname] = value
        return args, kwargs


# what Op.explain's and Op.ascendc's docstrings share: their parameters and
# the operator their examples build
_CALL_ARGS = """Parameters
----------
*args, **kwargs
    A call's arguments (only their dtypes, shapes and attribute
    values matter).

Returns
-------"""
_DOC_MIX = """>>> @pyasc.op(name="doc_mix", overwrite=True)
... def doc_mix(x, y):
...     return pyasc.exp(x) * y + x
>>> x = pyasc.ones(1 << 16, dtype=pyasc.float32)"""


class Op(_C.OpDispatch):
    """An operator: a Python function over tensors, with its specs as data.

    Made by :func:`pyasc.op`. Calling it validates the arguments (see
    :meth:`prepare`), runs the function (fused into kernels where it can),
    and checks the declared outputs. ``help()`` shows the function's name,
    signature and docstring; :meth:`describe` lists the specs.

    Parameters
    ----------
    fn : callable
        The Python function over tensors.
    name : str
        The registered name.
    inputs, attrs, outputs : dict
        :class:`TensorSpec` per input and output, :class:`Attr` per
        attribute, by parameter name.

    Attributes
    ----------
    name, fn, signature, inputs, attrs, outputs
        As given (``signature`` is ``inspect.signature(fn)``).

    Examples
    --------
    >>> @pyasc.op(name="doc_axpy", overwrite=True)
    ... def doc_axpy(x, y, alpha: float = 2.0):
    ...     return alpha * x + y
    >>> doc_axpy(pyasc.asarray([1.0, 2.0]), pyasc.asarray([3.0, 4.0])).tolist()
    [5.0, 8.0]
    >>> from pyasc.op import unregister
    >>> unregister("doc_axpy")
    """

    def __init__(
        self,
        fn: Callable[..., Any],
        name: str | None = None,
        inputs: Mapping[str, TensorSpec | None] | None = None,
        outputs: Mapping[str, TensorSpec | None] | Sequence[str] | None = None,
        attrs: Mapping[str, Attr] | None = None,
        backward: Callable[..., Any] | None = None,
        setup_context: Callable[..., Any] | None = None,
    ) -> None:
        if not callable(fn):
            raise _C.DTypeError(f"pyasc.op: expected a function, got {type(fn).__name__}")
        self.backward_fn: Callable[..., Any] | None = None
        self.setup_context_fn: Callable[..., Any] | None = None
        if backward is not None:
            self.backward(backward)
        if setup_context is not None:
            self.setup_context(setup_context)
        self.name = _check_name(name if name is not None else getattr(fn, "__name__", ""))
        self.fn = fn
        self.signature = inspect.signature(fn)
        self.inputs, self.attrs = self._classify(inputs or {}, attrs or {})
        self.outputs = _output_specs(self.name, outputs)
        functools.update_wrapper(self, fn)  # __doc__, __name__, __wrapped__: help() works
        self.__signature__ = self._call_signature()
        # the compiled signatures (pyasc._fuse_run): call key -> Specialization;
        # the C path's tables (_dispatch_entries, _dispatch_layouts) follow it
        self._specs: dict[Any, Any] = {}
        self._spec_lock = threading.Lock()


    def __reduce__(self) -> tuple[Any, ...]:
        """Pickles by reference: the module attribute that holds this op
        (a module-level @pyasc.op), else the registry name; the receiving
        process imports that module or must have registered the name."""
        module = getattr(self.fn, "__module__", None)
        qualname = getattr(self.fn, "__qualname__", "")
        return _rebuild_op, (module, qualname, self.name)
    def _call_signature(self) -> inspect.Signature:
        """The signature callers see: attribute defaults filled in."""
        params = [
            (
                p.replace(default=self.attrs[n].default)
                if n in self.attrs and not self.attrs[n].required
                else p
            )
            for n, p in self.signature.parameters.items()
        ]
        try:
            return self.signature.replace(parameters=params)
        except ValueError:  # a default would come before a required parameter
            return self.signature

    def _classify(
        self, inputs: Mapping[str, TensorSpec | None], attrs: Mapping[str, Attr]
    ) -> tuple[Mapping[str, TensorSpec], Mapping[str, Attr]]:
        """Sorts the parameters into inputs and attributes (see :func:`op`)."""
        params = self.signature.parameters
        for kind, given in (("input", inputs), ("attribute", attrs)):
            for key in given:
                if key not in params:
                    raise _C.InvalidValueError(
                        f"{self.name}: {kind} '{key}' is not a parameter of the function"
                    )
        both = sorted(set(inputs) & set(attrs))
        if both:
            raise _C.InvalidValueError(
                f"{self.name}: '{both[0]}' is declared as an input and as an attribute"
            )
        found_inputs: dict[str, TensorSpec] = {}
        found_attrs: dict[str, Attr] = {}
        for pname, param in params.items():
            if param.kind in (param.VAR_POSITIONAL, param.VAR_KEYWORD):
                raise _C.InvalidValueError(
                    f"{self.name}: variadic parameter '{pname}' is not supported"
                )
            if pname in attrs:
                spec = attrs[pname]
                if not isinstance(spec, Attr):
                    raise _C.DTypeError(f"{self.name}: attribute '{pname}' must be a pyasc.Attr")
                if spec.required and param.default is not param.empty:
                    spec = dataclasses.replace(spec, default=param.default)
                found_attrs[pname] = spec
            elif pname in inputs:
                found_inputs[pname] = _as_spec(self.name, pname, inputs[pname])
            elif param.default is not param.empty and param.default is not None:
                found_attrs[pname] = self._inferred_attr(pname, param.default)
            else:
                found_inputs[pname] = TensorSpec()
        return MappingProxyType(found_inputs), MappingProxyType(found_attrs)

    def _inferred_attr(self, pname: str, default: Any) -> Attr:
        kind = _C.dtype if isinstance(default, _C.dtype) else type(default)
        if kind not in _ATTR_TYPES:
            raise _C.InvalidValueError(
                f"{self.name}: parameter '{pname}' has a {type(default).__name__} default; "
                "declare it with attrs= or inputs="
            )
        return Attr(kind, default)

    def describe(self) -> str:
        """The operator's specs as text: inputs, attributes, outputs.

        Returns
        -------
        str
            One line per input, attribute and declared output.

        Examples
        --------
        >>> @pyasc.op(name="doc_scale", overwrite=True)
        ... def doc_scale(x, k: float = 2.0):
        ...     return x * k
        >>> print(doc_scale.describe())
        pyasc operator 'doc_scale'
        Inputs:
            x: any tensor
        Attributes:
            k: float = 2.0
        >>> from pyasc.op import unregister
        >>> unregister("doc_scale")
        """
        lines = [f"pyasc operator '{self.name}'", "Inputs:"]
        lines += [f"    {n}: {s.describe()}" for n, s in self.inputs.items()] or ["    (none)"]
        if self.attrs:
            lines += ["Attributes:"] + [f"    {n}: {a.describe()}" for n, a in self.attrs.items()]
        if self.outputs:
            lines += ["Outputs:"] + [f"    {n}: {s.describe()}" for n, s in self.outputs.items()]
        return "\n".join(lines)

    def __repr__(self) -> str:
        return f"<pyasc.op {self.name}{self.signature}>"

    def __copy__(self) -> Op:
        """A shallow copy: same function and specs, the compiled signatures
        so far, and its own cache tables from then on."""
        new = type(self).__new__(type(self))
        new.__dict__.update(self.__dict__)
        new._specs = dict(self._specs)
        new._spec_lock = threading.Lock()
        new._dispatch_entries.update(self._dispatch_entries)
        new._dispatch_layouts.update(self._dispatch_layouts)
        return new

    def __get__(self, obj: Any, objtype: Any = None) -> Op:
        # A (non-data) descriptor, so that help() documents an op as a
        # routine (name, signature, docstring) rather than as an object. It
        # binds nothing: an op stored on a class acts like a staticmethod.
        return self

    def prepare(self, *args: Any, **kwargs: Any) -> OpCall:
        """Binds and validates a call without running the function.

        Inputs become tensors: tensors as they are, NumPy arrays and other
        array-likes through :func:`pyasc.asarray` (shared when possible),
        Python scalars as NEP 50 weak scalars: 0-d tensors of the dtype they
        would take next to the promoted dtype of the tensor inputs (int8
        tensor and ``1`` -> int8; int tensor and ``1.0`` -> float64; no
        tensor inputs -> bool, int64, float64). If the input's spec does not
        allow that dtype, the scalar takes the first allowed dtype of its
        kind or higher (bool < integer < float). An input whose parameter
        defaults to ``None`` may be omitted or ``None``.

        Parameters
        ----------
        *args, **kwargs
            The call's arguments, as the function takes them.

        Returns
        -------
        OpCall
            The inputs as tensors, the attributes converted, the symbolic
            sizes bound.

        Raises
        ------
        DTypeError, InvalidValueError
            An input or attribute its spec does not allow.

        Examples
        --------
        >>> @pyasc.op(name="doc_mm", overwrite=True)
        ... def doc_mm(a, b, alpha: float = 1.0):
        ...     return pyasc.matmul(a, b) * alpha
        >>> call = doc_mm.prepare(np.ones((2, 3)), np.ones((3, 4)), alpha=2)
        >>> call.attrs["alpha"], call.inputs["a"].shape
        (2.0, (2, 3))
        >>> from pyasc.op import unregister
        >>> unregister("doc_mm")
        """
        try:  # partial: attributes may have defaults the function lacks
            given = self.signature.bind_partial(*args, **kwargs).arguments
        except TypeError as exc:
            raise _C.DTypeError(f"{self.name}: {exc}") from None
        params = self.signature.parameters
        for iname in self.inputs:
            if iname not in given and params[iname].default is params[iname].empty:
                raise _C.DTypeError(f"{self.name}: missing a required argument: '{iname}'")
        attrs = {}
        for aname, attr in self.attrs.items():
            if aname in given:
                attrs[aname] = attr.convert(self.name, aname, given[aname])
            elif attr.required:
                raise _C.DTypeError(f"{self.name}: missing a required argument: '{aname}'")
            else:
                attrs[aname] = attr.default
        tensors: dict[str, _C.Tensor | None] = {}
        scalars: dict[str, Any] = {}
        for iname in self.inputs:
            value = given.get(iname, params[iname].default)
            if value is None and params[iname].default is None:
                tensors[iname] = None
            elif isinstance(value, (bool, int, float)) and not isinstance(value, np.generic):
                scalars[iname] = value  # NumPy scalars are strong: asarray below
            else:
                tensors[iname] = self._as_tensor(f"input '{iname}'", value)
        if scalars:
            strong = [t.dtype for t in tensors.values() if t is not None]
            common = common_dtype(strong)
            for iname, value in scalars.items():
                tensors[iname] = self._scalar_tensor(iname, value, common)
        dims: dict[str, tuple[int, str]] = {}
        for iname, spec in self.inputs.items():
            t = tensors[iname]
            if t is not None:
                spec.check(self.name, f"input '{iname}'", t, dims)
        ordered = {iname: tensors[iname] for iname in self.inputs}
        sizes = MappingProxyType({k: v for k, (v, _) in dims.items()})
        return OpCall(self, MappingProxyType(ordered), MappingProxyType(attrs), sizes)

    def _as_tensor(self, role: str, value: Any) -> _C.Tensor:
        if isinstance(value, (_C.Tensor, _trace.Value)):  # Values: being recorded
            return value
        if isinstance(value, (str, bytes, dict, set)) or value is None:
            raise _C.DTypeError(
                f"{self.name}: {role} must be a Tensor, an array-like or a Python scalar, "
                f"not {type(value).__name__}"
            )
        try:
            return _C.asarray(value)
        except _C.Error as exc:
            raise type(exc)(f"{self.name}: {role}: {exc}") from exc
        except (TypeError, ValueError) as exc:
            raise _C.DTypeError(f"{self.name}: {role}: cannot convert to a tensor: {exc}") from exc

    def _scalar_tensor(
        self, iname: str, value: bool | int | float, common: _C.dtype | None
    ) -> _C.Tensor:
        kind = bool if isinstance(value, bool) else int if isinstance(value, int) else float
        if common is not None:
            dtype = weak(common, kind)
        else:
            dtype = {bool: _C.bool_, int: _C.int64, float: _C.float64}[kind]
        allowed = self.inputs[iname].dtypes
        if allowed is not None and dtype not in allowed:
            fitting = [d for d in allowed if _dtype_rank(d) >= _KIND_RANK[kind]]
            if not fitting:
                raise _C.DTypeError(
                    f"{self.name}: input '{iname}' is a Python {kind.__name__}, expected one of "
                    f"{_dtype_names(allowed)}"
                )
            dtype = fitting[0]
        t = zero(dtype)
        try:
            t[()] = value  # pyasc's own scalar rules: range checks, one rounding
        except OverflowError as exc:
            raise OverflowError(f"{self.name}: input '{iname}': {exc}") from None
        return t

    # Calling an Op runs pyasc._C.OpDispatch's C call path (its base class):
    # a known signature goes straight from the arguments to its entry; the
    # rest comes here.

    def _dispatch_miss(self, key: Any, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
        """A call the C path did not find: ``key`` is its signature key, or
        ``None`` when the C path could not make one (a call layout seen for
        the first time, an argument it cannot key)."""
        if key is None:
            key = self._call_key(args, kwargs)
        if key is not None:
            try:
                spec = self._specs.get(key)
            except TypeError:  # an unhashable attribute value: not cached
                spec = key = None
            if spec is not None:  # made by another thread meanwhile
                return spec.call(args, kwargs)
        _frameworks.refuse_autograd_inputs(self.name, (*args, *kwargs.values()))
        call = self.prepare(*args, **kwargs)
        graph = _trace._graph_of(list(call.inputs.values()))
        if graph is not None:  # called by a function pyasc.grad & co. are recording
            result = graph.record_op(self, dict(call.inputs), dict(call.attrs))
            return self._check_outputs(result, dict(call.dims))
        if key is not None:
            spec = self._specialization(call, args, kwargs)
            outputs = self._check_outputs(spec.run(dict(call.inputs)), dict(call.dims))
            with self._spec_lock:  # cached once its outputs passed their checks
                entries = self._dispatch_entries
                if len(self._specs) >= _fuse_run.MAX_SIGNATURES:
                    oldest = next(iter(self._specs))
                    self._specs.pop(oldest)
                    entries.pop(oldest, None)
                self._specs[key] = spec
                entries[key] = spec.flat_entry
            return outputs
        positional, keywords = call.arguments()
        result = self.fn(*positional, **keywords)
        outputs = self._check_outputs(result, dict(call.dims))
        return _frameworks.to_caller(outputs, args, kwargs)  # tf inputs: tf outputs

    @staticmethod
    def _dispatch_describe(value: Any) -> Any:
        """An input's part of the key when the C path has no record for its
        kind (an ndarray, say); ``None``: not cached."""
        return _fuse_run.describe_arg(value)

    def _call_key(self, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
        """The signature key of a call, from its arguments alone (made by the
        C path, ``_dispatch_key``); ``None`` when an argument is not of a
        kind the cache knows (framework tensors, recorded values, ...)."""
        where: Any = (len(args), tuple(kwargs)) if kwargs else len(args)
        layouts = self._dispatch_layouts
        if where not in layouts:
            layouts[where] = _fuse_run.roles_of(self, len(args), tuple(kwargs))
        return self._dispatch_key(args, kwargs)

    def _specialization(self, call: OpCall, args: tuple[Any, ...],
                        kwargs: dict[str, Any]) -> Any:
        """The compiled form of ``call``'s signature (traced, planned, built),
        from the cache when a call of that signature ran already."""
        key = self._call_key(args, kwargs)
        try:
            cached = None if key is None else self._specs.get(key)
        except TypeError:
            cached = None
        if cached is not None:
            return cached
        layout = _fuse_run.layout_of(self, len(args), tuple(kwargs))
        if layout is None:  # *args/**kwargs: explain() and ascendc() still plan it
            layout = (tuple(("default", None) for _ in self.inputs), ())
        types_ = {}
        for name, (where, at) in zip(self.inputs, layout[0]):
            if where != "default":
                types_[name] = type(args[at] if where == "arg" else kwargs[at])
        return _fuse_run.Specialization(self, call, layout[0], types_,
                                        (len(args), tuple(kwargs)))

    @with_parts(call_args=_CALL_ARGS, doc_mix=_DOC_MIX)
    def explain(self, *args: Any, **kwargs: Any) -> str:
        """What a call with these arguments compiles to, as text.

        Each fused kernel with the operations it computes, each operation
        run eagerly and why, or why the whole signature runs eagerly.
        Nothing is run; kernels are built (or found in the cache).

        <<call_args>>
        str
            The plan, one line per step.

        Examples
        --------
        <<doc_mix>>
        >>> print(doc_mix.explain(x, x).splitlines()[0])
        operator 'doc_mix': 1 fused kernel(s), 0 eager call(s)
        >>> from pyasc.op import unregister
        >>> unregister("doc_mix")
        """
        call = self.prepare(*args, **kwargs)
        return _fuse_plan.explain(self._specialization(call, args, kwargs).plan, self.name)

    @with_parts(call_args=_CALL_ARGS, doc_mix=_DOC_MIX)
    def ascendc(self, *args: Any, **kwargs: Any) -> str:
        """The Ascend C source of the fused kernels a call runs.

        One ``extern "C"`` kernel per fused group, for a real NPU.

        <<call_args>>
        str
            Ascend C (C++) source.

        Raises
        ------
        UnsupportedError
            When nothing fuses (with :meth:`explain`'s text).

        Examples
        --------
        <<doc_mix>>
        >>> "__aicore__" in doc_mix.ascendc(x, x)
        True
        >>> from pyasc.op import unregister
        >>> unregister("doc_mix")
        """
        call = self.prepare(*args, **kwargs)
        plan = self._specialization(call, args, kwargs).plan
        ub = _C.get_device_properties().ub_size
        sources = [_fuse_kernel.build(g, g.name, ub, compile_native=False).ascendc
                   if g.kernel is None else g.kernel.ascendc for g in plan.groups]
        if not sources:
            raise _C.UnsupportedError(
                f"{self.name}: no fused kernel for these arguments\n"
                + _fuse_plan.explain(plan, self.name))
        return "\n".join(sources)

    # --- autograd and framework bridges (pyasc.autograd, pyasc.torch, pyasc.jax)

    def backward(self, fn: Callable[..., Any]) -> Callable[..., Any]:
        """Declares the operator's backward (a decorator).

        ``fn(ctx, grad)`` returns one gradient per input (``None`` for
        none), a bare tensor when there is one input. ``ctx`` is a
        :class:`pyasc.autograd.BackwardContext`. Without one, the backward is
        derived from the recorded body.

        Parameters
        ----------
        fn : callable
            ``fn(ctx, grad)``.

        Returns
        -------
        callable
            ``fn`` itself.

        Examples
        --------
        >>> @pyasc.op(name="doc_cube", overwrite=True)
        ... def doc_cube(x):
        ...     return x * x * x
        >>> @doc_cube.setup_context
        ... def _(ctx, inputs, output):
        ...     ctx.save_for_backward(inputs[0])
        >>> @doc_cube.backward
        ... def _(ctx, grad):
        ...     (x,) = ctx.saved_tensors
        ...     return grad * 3.0 * x * x
        >>> pyasc.grad(lambda x: pyasc.sum(doc_cube(x)))(pyasc.asarray([1.0, 2.0])).tolist()
        [3.0, 12.0]
        >>> from pyasc.op import unregister
        >>> unregister("doc_cube")
        """
        if not callable(fn):
            raise _C.DTypeError(f"{self.name}: backward must be callable")
        self.backward_fn = fn
        return fn

    def setup_context(self, fn: Callable[..., Any]) -> Callable[..., Any]:
        """Declares what the backward keeps (a decorator, as torch's).

        ``fn(ctx, inputs, output)``, ``inputs`` being every parameter in
        signature order, calls ``ctx.save_for_backward(...)``; see
        :meth:`backward` for an example of both.

        Parameters
        ----------
        fn : callable
            ``fn(ctx, inputs, output)``.

        Returns
        -------
        callable
            ``fn`` itself.

        Examples
        --------
        >>> @pyasc.op(name="doc_keep", overwrite=True)
        ... def doc_keep(x):
        ...     return x * x
        >>> @doc_keep.setup_context
        ... def keep(ctx, inputs, output):
        ...     ctx.save_for_backward(inputs[0])
        >>> doc_keep.setup_context_fn is keep
        True
        >>> from pyasc.op import unregister
        >>> unregister("doc_keep")
        """
        if not callable(fn):
            raise _C.DTypeError(f"{self.name}: setup_context must be callable")
        self.setup_context_fn = fn
        return fn

    def to_torch(self, namespace: str = "pyasc") -> Any:
        """This operator as a ``torch.library`` custom op (see ``pyasc.torch``).

        Parameters
        ----------
        namespace : str
            The torch library namespace: the op is ``torch.ops.<namespace>.<name>``.

        Returns
        -------
        torch._ops.OpOverloadPacket
            A callable on torch tensors, with autograd and ``torch.compile``.

        Examples
        --------
        >>> import torch
        >>> @pyasc.op(name="doc_twice_t", overwrite=True)
        ... def doc_twice_t(x):
        ...     return x * 2.0
        >>> twice = doc_twice_t.to_torch("pyasc_doc")
        >>> twice(torch.ones(3)).tolist()
        [2.0, 2.0, 2.0]
        >>> from pyasc.op import unregister
        >>> unregister("doc_twice_t")
        """
        return _torch_bridge.register(self, namespace)

    def to_jax(self) -> Callable[..., Any]:
        """This operator as a function of JAX arrays (see ``pyasc.jax``).

        Returns
        -------
        callable
            A function of JAX arrays that runs the operator (through
            ``jax.pure_callback``), with its derivative.

        Examples
        --------
        >>> import jax.numpy as jnp
        >>> @pyasc.op(name="doc_twice_j", overwrite=True)
        ... def doc_twice_j(x):
        ...     return x * 2.0
        >>> [float(v) for v in doc_twice_j.to_jax()(jnp.ones(3))]
        [2.0, 2.0, 2.0]
        >>> from pyasc.op import unregister
        >>> unregister("doc_twice_j")
        """
        return _jax_bridge.wrap(self)

    def _check_outputs(self, result: Any, known: dict[str, int]) -> Any:
        if not self.outputs:
            return result
        values = result if isinstance(result, tuple) else (result,)
        if len(values) != len(self.outputs) or (len(self.outputs) > 1) != isinstance(result, tuple):
            raise _C.InvalidValueError(
                f"{self.name}: the function returned {_describe_result(result)}, expected "
                f"{len(self.outputs)} output(s): {', '.join(self.outputs)}"
            )
        dims = {k: (v, "the inputs") for k, v in known.items()}
        converted = []
        for (oname, spec), value in zip(self.outputs.items(), values):
            t = self._as_tensor(f"output '{oname}'", value)
            spec.check(self.name, f"output '{oname}'", t, dims)
            converted.append(t)
        return tuple(converted) if isinstance(result, tuple) else converted[0]


def _describe_result(result: Any) -> str:
    if isinstance(result, tuple):
        return f"a tuple of {len(result)}"
    return "None" if result is None else f"one {type(result).__name__}"


def _as_spec(opname: str, name: str, spec: TensorSpec | None) -> TensorSpec:
    if spec is None:
        return TensorSpec()
    if not isinstance(spec, TensorSpec):
        raise _C.DTypeError(f"{opname}: spec of '{name}' must be a pyasc.TensorSpec or None")
    return spec


def _output_specs(
    opname: str, outputs: Mapping[str, TensorSpec | None] | Sequence[str] | None
) -> Mapping[str, TensorSpec]:
    if outputs is None:
        return MappingProxyType({})
    if isinstance(outputs, str):
        outputs = (outputs,)
    pairs = outputs.items() if isinstance(outputs, Mapping) else ((o, None) for o in outputs)
    specs = {}
    for oname, spec in pairs:
        if not isinstance(oname, str) or not oname.isidentifier():
            raise _C.InvalidValueError(f"{opname}: output name {oname!r} is not an identifier")
        specs[oname] = _as_spec(opname, oname, spec)
    return MappingProxyType(specs)


# --- the registry ---------------------------------------------------------------

_registry: dict[str, Op] = {}
_lock = threading.Lock()


def _check_name(name: Any) -> str:
    usable = isinstance(name, str) and name.isidentifier() and not keyword.iskeyword(name)
    if not usable or name.startswith("_"):
        raise _C.InvalidValueError(
            f"pyasc.op: operator name {name!r} must be a Python identifier that does not start "
            "with '_' (pass name=... for lambdas)"
        )
    return name


def _register(new: Op, overwrite: bool) -> None:
    with _lock:
        if new.name in _registry and not overwrite:
            raise _C.InvalidValueError(
                f"pyasc.op: an operator named '{new.name}' is already registered; pass "
                "overwrite=True to replace it"
            )
        _registry[new.name] = new


def _rebuild_op(module: str | None, qualname: str, name: str) -> Op:
    """The op a pickle names: module.qualname when that is an Op (a
    module-level decorated function), else the registered op `name`."""
    if module and "<locals>" not in qualname:
        target: Any = sys.modules.get(module) or importlib.import_module(module)
        for part in qualname.split("."):
            target = getattr(target, part, None)
        if isinstance(target, Op):
            return target
    return get_op(name)


def get_op(name: str) -> Op:
    """The registered operator of a name.

    Parameters
    ----------
    name : str
        The operator's registry name.

    Returns
    -------
    Op
        The operator.

    Raises
    ------
    InvalidValueError
        If no operator of that name is registered.

    Examples
    --------
    >>> @pyasc.op(overwrite=True)
    ... def doc_twice(x):
    ...     return x * 2
    >>> pyasc.get_op("doc_twice") is doc_twice
    True
    >>> from pyasc.op import unregister
    >>> unregister("doc_twice")
    """
    with _lock:
        found = _registry.get(name)
    if found is None:
        raise _C.InvalidValueError(
            f"no operator named {name!r} is registered (see pyasc.list_ops())"
        )
    return found


def list_ops() -> list[str]:
    """The names of the registered operators.

    Returns
    -------
    list of str
        The names, sorted.

    Examples
    --------
    >>> @pyasc.op(overwrite=True)
    ... def doc_twice(x):
    ...     return x * 2
    >>> "doc_twice" in pyasc.list_ops()
    True
    >>> from pyasc.op import unregister
    >>> unregister("doc_twice")
    """
    with _lock:
        return sorted(_registry)


def unregister(name: str) -> None:
    """Removes operator ``name`` from the registry (its Op object keeps working)."""
    with _lock:
        if _registry.pop(name, None) is None:
            raise _C.InvalidValueError(f"no operator named {name!r} is registered")


@overload
def op(fn: Callable[..., Any], /) -> Op: ...


@overload
def op(
    *,
    name: str | None = None,
    inputs: Mapping[str, TensorSpec | None] | None = None,
    outputs: Mapping[str, TensorSpec | None] | Sequence[str] | None = None,
    attrs: Mapping[str, Attr] | None = None,
    overwrite: bool = False,
    backward: Callable[..., Any] | None = None,
    setup_context: Callable[..., Any] | None = None,
) -> Callable[[Callable[..., Any]], Op]: ...


def op(
    fn: Callable[..., Any] | None = None,
    /,
    *,
    name: str | None = None,
    inputs: Mapping[str, TensorSpec | None] | None = None,
    outputs: Mapping[str, TensorSpec | None] | Sequence[str] | None = None,
    attrs: Mapping[str, Attr] | None = None,
    overwrite: bool = False,
    backward: Callable[..., Any] | None = None,
    setup_context: Callable[..., Any] | None = None,
) -> Op | Callable[[Callable[..., Any]], Op]:
    """Defines and registers an operator: ``@pyasc.op`` or ``@pyasc.op(...)``.

    Parameters not named in ``inputs`` or ``attrs`` are sorted by the
    signature: one with a bool/int/float/str/pyasc.dtype default becomes an
    attribute of that type, one with a ``None`` default an optional input,
    and any other an input that accepts every tensor.

    Parameters
    ----------
    fn : callable, optional
        The operator's body, when used as ``@pyasc.op`` without arguments.
    name : str, optional
        The registry name (the function's ``__name__`` by default): a Python
        identifier not starting with ``_``.
    inputs : mapping of str to TensorSpec or None, optional
        Input name to :class:`TensorSpec` (``None``: any tensor).
    outputs : mapping of str to TensorSpec, or sequence of str, optional
        The outputs: the function then returns one tensor, or a tuple of one
        per name. Symbolic sizes bound by the inputs apply.
    attrs : mapping of str to Attr, optional
        Parameter name to :class:`Attr`; a function default fills in an
        ``Attr`` without one.
    overwrite : bool, optional
        Replace an operator of the same name instead of raising.
    backward, setup_context : callable, optional
        The operator's backward and what it saves (see :meth:`Op.backward`,
        :meth:`Op.setup_context`); without a backward, it is derived from
        the operations the body records.

    Returns
    -------
    Op or callable
        The registered operator; with keyword arguments only, a decorator
        that makes one.

    Raises
    ------
    InvalidValueError
        If the name is taken (without ``overwrite``) or not an identifier.

    Examples
    --------
    >>> @pyasc.op(overwrite=True)
    ... def doc_scaled_add(x, y, alpha: float = 1.0):
    ...     return x + alpha * y
    >>> doc_scaled_add(pyasc.asarray([1.0, 2.0]), pyasc.asarray([10.0, 20.0]), alpha=0.5)
    Tensor([ 6., 12.], dtype=float64)
    >>> from pyasc.op import unregister
    >>> unregister("doc_scaled_add")
    """

    def decorate(f: Callable[..., Any]) -> Op:
        new = Op(f, name=name, inputs=inputs, outputs=outputs, attrs=attrs, backward=backward,
                 setup_context=setup_context)
        _register(new, overwrite)
        return new

    return decorate if fn is None else decorate(fn)
