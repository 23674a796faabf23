"""One compiled signature of an operator: trace, plan, kernels, and the
call path that runs them (docs/op-compiler.md).

:func:`specialize` traces an operator's body in meta mode for one prepared
call (shapes and dtypes only), plans it (``pyasc._fuse_plan``) and builds
each fused group's kernel (``pyasc._fuse_kernel``). A :class:`Specialization`
then runs a call of that signature: kernels for the groups, the eager
operation for each other step. Anything the tracer or a kernel build
refuses makes that part (or the whole signature) eager, with the reason
kept for :meth:`pyasc.op.Op.explain`.

The per-call cache key (:func:`call_key`) is computed from the arguments
alone: each tensor's dtype and shape, the type of each Python-number input
and the value of each attribute. Everything that depends only on those
(spec checks, attribute conversion, the weak-scalar dtypes, the output
checks) is done once, on the call that made the specialization.
"""

from __future__ import annotations

import dis
import functools
import os
import types
from typing import Any

import numpy as np

from pyasc import _C
from pyasc import _fuse_kernel, _fuse_plan, _fuse_small
from pyasc import trace as _trace
from pyasc._promotion import common_dtype
from pyasc.language import jit as _jit

#: signatures kept per operator before the oldest is dropped.
MAX_SIGNATURES = 256


def enabled() -> bool:
    """Whether new signatures are compiled (``PYASC_OP_COMPILE``, default on)."""
    return os.environ.get("PYASC_OP_COMPILE", "1") not in ("0", "")


def fuse_min() -> int:
    """Groups of fewer elements run their operations eagerly
    (``PYASC_OP_FUSE_MIN``, default 4096): small eager operations run on the
    calling thread, a kernel launch goes through the stream's thread."""
    try:
        return max(0, int(os.environ.get("PYASC_OP_FUSE_MIN", "4096")))
    except ValueError:
        return 4096


def _inplace(code: types.CodeType) -> str:
    """The first in-place operator (``+=``...) in ``code`` or its nested
    functions: on a tensor it writes the caller's memory, which a trace
    cannot reproduce."""
    for ins in dis.get_instructions(code):
        if ins.opname == "BINARY_OP" and ins.argrepr.endswith("=") or ins.opname.startswith(
                "INPLACE_"):
            return ins.argrepr or ins.opname
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            found = _inplace(const)
            if found:
                return found
    return ""


class Specialization:
    """An operator's plan for one signature, and its cached call data."""

    def __init__(self, op: Any, call: Any, layout: tuple[Any, ...],
                 types_: dict[str, type] | None = None,
                 given: tuple[int, tuple[str, ...]] = (0, ())) -> None:
        self.op = op
        self.layout = layout  # per input: ("arg", i) | ("kw", name) | ("default", value)
        # the call's positional count and keyword names: an entry takes the
        # arguments as one flat list, positional ones then keyword values
        self.nargs, self.kwnames = given
        self.attrs = dict(call.attrs)
        self.dims = dict(call.dims)  # symbolic sizes: fixed by the input shapes
        kinds = types_ or {}
        # the dtype weak scalars are promoted against: that of the inputs
        # that are not Python numbers (as prepare() computes it)
        strong = [t.dtype for n, t in call.inputs.items()
                  if t is not None and kinds.get(n) not in (bool, int, float)]
        self.common = common_dtype(strong)
        #: (where, at, name) of each input the signature passes (not None)
        self.present = [(w, a, n) for n, (w, a) in zip(op.inputs, layout)
                        if call.inputs[n] is not None]
        self.plan = self._plan(call)
        self._compile(types_ or {})

    # --- building ---------------------------------------------------------------
    def _plan(self, call: Any) -> _fuse_plan.Plan:
        op = self.op
        if not enabled():
            return _fuse_plan.Plan(None, fallback="compilation is off (PYASC_OP_COMPILE=0)")
        fn = op.fn
        code = getattr(fn, "__code__", None)
        if not isinstance(fn, types.FunctionType) or code is None:
            return _fuse_plan.Plan(None, fallback="the operator is not a Python function")
        found = _inplace(code)
        if found:
            return _fuse_plan.Plan(None, fallback=f"in-place operator '{found}' writes its "
                                                  "operand's memory")
        graph = _trace.Graph(concrete=False)
        values: dict[str, Any] = {}
        for name, t in call.inputs.items():
            values[name] = None if t is None else graph.input(shape=tuple(t.shape),
                                                              dtype=t.dtype)
        args, kwargs = _trace._arguments(op, values, dict(call.attrs))
        try:
            result = _trace.traceable(fn)(*args, **kwargs)
        except Exception as exc:  # noqa: BLE001 - the eager call raises it again, as it should
            return _fuse_plan.Plan(graph, fallback=f"tracing stopped: {type(exc).__name__}: "
                                                   f"{exc}")
        plan = _fuse_plan.plan(graph, result)
        if not plan.fallback:
            self._build(plan)
        return plan

    def _build(self, plan: _fuse_plan.Plan) -> None:
        ub = int(_C.get_device_properties().ub_size)
        steps: list[Any] = []
        for index, step in enumerate(plan.steps):
            if isinstance(step, _fuse_plan.Group):
                name = step.name = _fuse_kernel.kernel_name(self.op.name, index)
                least = fuse_min()
                if step.size < least:  # a launch would cost more than the work
                    step.small = (f"{step.size} elements < PYASC_OP_FUSE_MIN={least}: its "
                                  "operations run on the calling thread (small operations)")
                    steps.append(step)
                    continue
                try:
                    step.kernel = _fuse_kernel.build(step, name, ub)
                except _C.Error as exc:
                    why = f"kernel not built ({type(exc).__name__}: {exc})"
                    steps += [_fuse_plan.Call(n, why) for n in step.nodes]
                    if step.reduce is not None:
                        steps.append(_fuse_plan.Call(step.reduce, why))
                    continue
            steps.append(step)
        plan.steps = steps

    # --- running ------------------------------------------------------------------
    def inputs_from(self, args: tuple[Any, ...], kwargs: dict[str, Any]) -> dict[str, Any]:
        """The call's inputs as tensors (the cheap path: no checks, since the
        key fixed every dtype and shape)."""
        op = self.op
        out: dict[str, Any] = {}
        for name, (where, at) in zip(op.inputs, self.layout):
            value = args[at] if where == "arg" else kwargs[at] if where == "kw" else at
            t = type(value)
            if t is _C.Tensor or value is None:
                out[name] = value
            elif t is float or t is int or t is bool:
                out[name] = op._scalar_tensor(name, value, self.common)
            else:
                out[name] = _C.asarray(value)
        return out

    def call(self, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
        """Runs a call of this signature from its arguments (the cached path:
        the key fixed every dtype and shape, so nothing is checked again)."""
        return self.flat_entry(*args, *kwargs.values())

    def _eager_entry(self, *flat: Any) -> Any:
        # Run eagerly, the body's outputs may depend on the values: checked each time.
        args, kwargs = flat[:self.nargs], dict(zip(self.kwnames, flat[self.nargs:]))
        result = self.run(self.inputs_from(args, kwargs))
        return self.op._check_outputs(result, dict(self.dims)) if self.op.outputs else result

    def run(self, inputs: dict[str, Any]) -> Any:
        """Runs the plan (or the function, eagerly) on prepared inputs."""
        if self.body is None:
            args, kwargs = _trace._arguments(self.op, inputs, self.attrs)
            return self.op.fn(*args, **kwargs)
        return self.body(*[t for t in inputs.values() if t is not None])

    def _compile(self, types_: dict[str, type]) -> None:
        """Turns the plan into one straight-line Python function over the
        call's tensors (``body``) and one that takes a call's arguments
        (``entry``), so that a cached call runs no planning. The source
        holds only names made here; operations, kernels and constants are
        objects of its namespace."""
        plan = self.plan
        self.body: Any = None
        #: the call's arguments, flat -> its outputs (the C path calls it)
        self.flat_entry: Any = self._eager_entry
        if plan.fallback or plan.graph is None:
            return
        names: dict[int, str] = {id(v): f"v{i}" for i, v in enumerate(plan.graph.inputs)}
        namespace: dict[str, Any] = {}

        def name_of(value: Any) -> str:
            if isinstance(value, _trace.Value):
                return names[id(value)]
            key = f"_c{len(namespace)}"
            namespace[key] = value
            return key

        def define(value: _trace.Value) -> str:
            names[id(value)] = f"v{len(names)}"
            return names[id(value)]

        params = list(names.values())
        lines = [f"def _body({', '.join(params)}):"]

        def call_line(node: _trace.Node) -> str:
            fn = name_of(_trace.OPS[node.op].run)
            args = [name_of(a) for a in node.inputs]
            if node.attrs:
                args.append(f"**{name_of(dict(node.attrs))}")
            assert node.output is not None
            return f"    {define(node.output)} = {fn}({', '.join(args)})"

        def segment_lines(seg: _fuse_small.Segment) -> list[str]:
            if not seg.outputs:  # nothing reads it: it computes nothing
                return []
            fname = f"_s{len(namespace)}"
            source = _fuse_small.fallback_source(seg, fname, name_of)
            exec(compile(source, f"<pyasc.op {self.op.name} small>", "exec"), namespace)
            _fuse_small.build(seg, namespace[fname])
            plan.notes.append(_fuse_small.describe(seg))
            if seg.program is None:
                return [call_line(node) for node in seg.nodes]
            run = f"{name_of(seg.program)}({', '.join(name_of(v) for v in seg.inputs)})"
            if len(seg.outputs) == 1:  # the program returns its one output itself
                return [f"    {define(seg.outputs[0].output)} = {run}"]  # type: ignore[arg-type]
            outs = "".join(f"{define(n.output)}, " for n in seg.outputs)  # type: ignore[arg-type]
            return [f"    {outs}= {run}"]

        steps = _fuse_small.segments(plan, fuse_min())
        plan.notes = []
        for step in steps:
            if isinstance(step, _fuse_small.Segment):
                lines += segment_lines(step)
            elif isinstance(step, _fuse_plan.Call):
                lines.append(call_line(step.node))
            elif step.reduce is not None:
                fn = name_of(_reduce_step(step))
                ins = ", ".join(name_of(v) for v in step.inputs)
                outs = "".join(f"{define(n.output)}, " for n in step.outputs)
                lines.append(f"    {outs}{define(step.reduce.output)}"
                             f"{', ' if outs else ''}= {fn}({ins})")
            elif step.outputs:  # a group nothing reads computes nothing
                fn = name_of(_kernel_step(step))
                ins = ", ".join(name_of(v) for v in step.inputs)
                outs = "".join(f"{define(n.output)}, " for n in step.outputs)
                lines.append(f"    {outs}= {fn}({ins})")
        result = plan.result
        if isinstance(result, tuple):
            lines.append(f"    return ({''.join(name_of(r) + ', ' for r in result)})")
        else:
            lines.append(f"    return {name_of(result)}")
        nflat = self.nargs + len(self.kwnames)
        flat = [f"a{i}" for i in range(nflat)]
        entry = [f"def _entry({', '.join(flat)}):"]
        sources = []
        for where, at, iname in self.present:
            source = (flat[at] if where == "arg" else flat[self.nargs + self.kwnames.index(at)]
                      if where == "kw" else name_of(at))
            if types_.get(iname) is not _C.Tensor:
                source = f"{name_of(functools.partial(self._convert, iname))}({source})"
            sources.append(source)
        entry.append(f"    return _body({', '.join(sources)})")
        code = "\n".join(lines) + "\n" + "\n".join(entry) + "\n"
        exec(compile(code, f"<pyasc.op {self.op.name} compiled>", "exec"), namespace)
        self.body = _direct(plan, steps) or namespace["_body"]
        # tensors only, in parameter order, nothing else given: the body is the entry
        self.flat_entry = self.body if sources == flat else namespace["_entry"]
        self.source = code

    def _convert(self, name: str, value: Any) -> Any:
        t = type(value)
        if t is _C.Tensor or value is None:
            return value
        if t is float or t is int or t is bool:
            return self.op._scalar_tensor(name, value, self.common)
        return _C.asarray(value)


def _direct(plan: _fuse_plan.Plan, steps: list[Any]) -> Any:
    """The program of a body that is one program over the inputs in order,
    returning its outputs in order: the body itself, so that a cached call
    runs no Python (``None`` for any other body)."""
    if len(steps) != 1 or not isinstance(steps[0], _fuse_small.Segment):
        return None
    seg = steps[0]
    assert plan.graph is not None
    if seg.program is None or [id(v) for v in seg.inputs] != [id(v) for v in plan.graph.inputs]:
        return None
    made = [id(n.output) for n in seg.outputs]
    result = plan.result
    if isinstance(result, _trace.Value) and made == [id(result)] or \
            isinstance(result, tuple) and len(result) > 1 and made == [id(r) for r in result]:
        return seg.program
    return None


def _launch(kernel: _fuse_kernel.FusedKernel, blocks: int, args: list[Any]) -> None:
    """One launch of a group's kernel; inside ``pyasc.profile``, of its
    build with the timing model, its blocks' records going to the profile
    as a jit kernel's do (the launch waits for the stream then)."""
    sink = _jit._profile_sink
    if sink is None:
        kernel.native.launch(blocks, None, *args)
        return
    native = kernel.profiled()
    with _jit._profile_lock:
        native.profile_reset(blocks)
        native.launch(blocks, None, *args)
        _C.current_stream().synchronize()
        records = native.profile_records()
    sink(kernel.name, blocks, records)


def _kernel_step(group: _fuse_plan.Group) -> Any:
    """The launch of a group's kernel: a function of its inputs that returns
    its outputs (new tensors)."""
    kernel = group.kernel
    kinds = tuple(group.kinds)
    dense = tuple(k != "expand" and k != "scalar" for k in kinds)
    outs = [n.dtype for n in group.outputs]
    shape, n = group.shape, group.size
    blocks, blen = _fuse_kernel.grid(n, group.kernel.tile, group.kernel.align)
    empty, contiguous = _C.empty, _C.Tensor.contiguous
    simple = all(dense)

    def step(*ins: Any) -> tuple[Any, ...]:
        if simple:
            args = [t if t.is_contiguous() else contiguous(t) for t in ins]
        else:
            args = [contiguous(t.expand(*shape)) if k == "expand" else
                    contiguous(t) if d and not t.is_contiguous() else t
                    for t, k, d in zip(ins, kinds, dense)]
        results = tuple(empty(shape, dtype=dtype) for dtype in outs)
        if n:
            try:
                _launch(kernel, blocks, [*args, *results, n, blen])
            except _C.InvalidValueError:
                # Kernels may not receive read-only memory (lent by NumPy, DLPack,
                # bytes); eager operations read it in place. A private copy of
                # each input makes the launch, or raises the real error again.
                _launch(kernel, blocks, [*[a.copy() for a in args], *results, n, blen])
        return results

    return step


def _reduce_step(group: _fuse_plan.Group) -> Any:
    """The launch of a reducing group's kernel: a function of its inputs
    that returns the reduction's result, after the chain's values that leave
    the kernel (new tensors) when there are any. A last-axis kernel writes
    one value per row; an all-axes kernel one partial per block, combined
    here by one eager reduction of those few values (a mean divides once, as
    eager's)."""
    kernel = group.kernel
    kinds = tuple(group.kinds)
    red = group.reduce
    assert red is not None
    shape, n = group.shape, group.size
    out_shape = tuple(red.shape)
    dtype = red.dtype
    mean = red.op == "mean"
    combine = _trace.OPS["sum" if mean else red.op].run
    divide = _trace.OPS["divide"].run
    if group.reduce_mode == "last":
        blocks, blen = _fuse_kernel.grid(n, group.kernel.tile, group.width)
        seg, count, width = group.width, n // group.width, float(group.width)
    else:
        blocks, blen = _fuse_kernel.grid(n, group.kernel.tile, group.kernel.align)
        seg, count, width = blen, blocks, float(n)
    empty, contiguous = _C.empty, _C.Tensor.contiguous
    chain_outs = [node.dtype for node in group.outputs]

    def step(*ins: Any) -> Any:
        args = [contiguous(t.expand(*shape)) if k == "expand" else
                t if k == "scalar" or t.is_contiguous() else contiguous(t)
                for t, k in zip(ins, kinds)]
        results = [empty(shape, dtype=d) for d in chain_outs]
        out = empty((count,), dtype=dtype)
        try:
            _launch(kernel, blocks, [*args, *results, out, n, blen, seg])
        except _C.InvalidValueError:
            # read-only memory (see _kernel_step): private copies, or the real error
            _launch(kernel, blocks, [*[a.copy() for a in args], *results, out, n, blen, seg])
        if group.reduce_mode == "all":
            out = combine(out)
        if mean:
            out = divide(out, width)
        out = out if tuple(out.shape) == out_shape else out.reshape(*out_shape)
        return (*results, out) if results else out

    return step


def layout_of(op: Any, nargs: int, kwnames: tuple[str, ...]) -> tuple[Any, ...] | None:
    """Where each input and attribute of ``op`` comes from in a call with
    ``nargs`` positional arguments and keywords ``kwnames`` (``None`` when
    the signature has ``*args``/``**kwargs``)."""
    params = list(op.signature.parameters.values())
    if any(p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD) for p in params):
        return None
    where: dict[str, tuple[str, Any]] = {}
    for i, p in enumerate(params):
        if i < nargs:
            where[p.name] = ("arg", i)
        elif p.name in kwnames:
            where[p.name] = ("kw", p.name)
        else:
            where[p.name] = ("default", p.default if p.default is not p.empty else None)
    return tuple(where[n] for n in op.inputs), tuple(where[n] for n in op.attrs)


def roles_of(op: Any, nargs: int, kwnames: tuple[str, ...]) -> bytes:
    """The role of each argument of a call with ``nargs`` positional
    arguments and keywords ``kwnames``, for the C call path
    (``pyasc._C.OpDispatch``): ``i`` an input, ``a`` an attribute, ``x`` an
    argument that does not bind (the uncached path raises its error)."""
    params = list(op.signature.parameters)
    roles = []
    for i in range(nargs):
        roles.append("x" if i >= len(params) else "i" if params[i] in op.inputs else "a")
    for name in kwnames:
        bad = name not in op.signature.parameters or params.index(name) < nargs
        roles.append("x" if bad else "i" if name in op.inputs else "a")
    return "".join(roles).encode()


def describe_arg(value: Any) -> Any:
    """An input's part of the key: ``None`` when it cannot be cached."""
    t = type(value)
    if t is _C.Tensor:
        return (value.dtype, value.shape)
    if t is float or t is int or t is bool or value is None:
        return t
    if t is np.ndarray:
        return (t, value.dtype, value.shape)
    return None


__all__ = ["MAX_SIGNATURES", "Specialization", "describe_arg", "enabled", "fuse_min",
           "layout_of", "roles_of"]
