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
import os
import types
from typing import Any

import numpy as np

from pyasc import _C
from pyasc import _fuse_kernel, _fuse_plan
from pyasc import trace as _trace

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

    def __init__(self, op: Any, call: Any, layout: tuple[Any, ...]) -> None:
        self.op = op
        self.layout = layout  # per input: ("arg", i) | ("kw", name) | ("default", value)
        self.attrs = dict(call.attrs)
        strong = [t.dtype for t in call.inputs.values() if t is not None]
        self.common = None
        if strong:
            from pyasc.op import _promote

            common = strong[0]
            for d in strong[1:]:
                common = _promote(common, d)
            self.common = common
        #: (where, at, name) of each input the signature passes (not None)
        self.present = [(w, a, n) for n, (w, a) in zip(op.inputs, layout)
                        if call.inputs[n] is not None]
        self.plan = self._plan(call)
        self.result: Any = None
        self.extra = 0
        self._compile()

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
                                  "operations run eagerly")
                    steps.append(step)
                    continue
                try:
                    step.kernel = _fuse_kernel.build(step, name, ub)
                except _C.Error as exc:
                    why = f"kernel not built ({type(exc).__name__}: {exc})"
                    steps += [_fuse_plan.Call(n, why) for n in step.nodes]
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
        program = self.program
        if program is None:
            return self.run(self.inputs_from(args, kwargs))
        slots: list[Any] = []
        for where, at, name in self.present:
            value = args[at] if where == "arg" else kwargs[at] if where == "kw" else at
            if type(value) is not _C.Tensor:
                value = self._convert(name, value)
            slots.append(value)
        if self.extra:
            slots += [None] * self.extra
        for step in program:
            step(slots)
        result = self.result
        if type(result) is int:
            return slots[result]
        return tuple(slots[i] for i in result)

    def _convert(self, name: str, value: Any) -> Any:
        t = type(value)
        if t is float or t is int or t is bool:
            return self.op._scalar_tensor(name, value, self.common)
        return _C.asarray(value)

    def run(self, inputs: dict[str, Any]) -> Any:
        """Runs the plan (or the function, eagerly) on prepared inputs."""
        program = self.program
        if program is None:
            args, kwargs = _trace._arguments(self.op, inputs, self.attrs)
            return self.op.fn(*args, **kwargs)
        slots: list[Any] = [t for t in inputs.values() if t is not None]
        slots.extend([None] * self.extra)
        for step in program:
            step(slots)
        result = self.result
        if isinstance(result, tuple):
            return tuple(slots[i] for i in result)
        return slots[result]

    def _compile(self) -> None:
        """Turns the plan into closures over numbered slots (graph inputs
        first, then each step's outputs), so that a call runs no planning."""
        plan = self.plan
        self.program: list[Any] | None = None
        if plan.fallback or plan.graph is None:
            return
        index: dict[int, int] = {id(v): i for i, v in enumerate(plan.graph.inputs)}

        def slot(value: _trace.Value) -> int:
            if id(value) not in index:
                index[id(value)] = len(index)
            return index[id(value)]

        program: list[Any] = []
        for step in plan.steps:
            if isinstance(step, _fuse_plan.Call):
                program.append(_call_step(step.node, slot))
            elif step.small:
                program += [_call_step(node, slot) for node in step.nodes]
            else:
                program.append(_kernel_step(step, slot))
        result = plan.result
        self.result = tuple(slot(r) for r in result) if isinstance(result, tuple) \
            else slot(result)
        self.extra = len(index) - len(plan.graph.inputs)
        self.program = program


def _call_step(node: _trace.Node, slot: Any) -> Any:
    run = _trace.OPS[node.op].run
    refs = [(True, slot(a)) if isinstance(a, _trace.Value) else (False, a) for a in node.inputs]
    attrs = dict(node.attrs)
    assert node.output is not None
    out = slot(node.output)

    def step(slots: list[Any]) -> None:
        slots[out] = run(*[slots[r] if is_slot else r for is_slot, r in refs], **attrs)

    return step


def _kernel_step(group: _fuse_plan.Group, slot: Any) -> Any:
    launch = group.kernel.native.launch
    ins = [slot(v) for v in group.inputs]
    expand = [i for i, kind in zip(ins, group.kinds) if kind == "expand"]
    full = [i for i, kind in zip(ins, group.kinds) if kind in ("full", "row")]
    outs = [(slot(n.output), n.dtype) for n in group.outputs]
    shape, n = group.shape, group.size
    blocks, blen = _fuse_kernel.grid(n, group.kernel.tile, group.kernel.align)
    empty, contiguous = _C.empty, _C.Tensor.contiguous

    def step(slots: list[Any]) -> None:
        for i in expand:
            slots[i] = contiguous(slots[i].expand(*shape))
        for i in full:
            if not slots[i].is_contiguous():
                slots[i] = contiguous(slots[i])
        args = [slots[i] for i in ins]
        for i, dtype in outs:
            args.append(empty(shape, dtype=dtype))
            slots[i] = args[-1]
        if n:
            try:
                launch(blocks, None, *args, n, blen)
            except _C.InvalidValueError:
                # Kernels may not receive read-only memory (lent by NumPy, DLPack,
                # bytes); eager operations read it in place. A private copy of
                # each input makes the launch, or raises the real error again.
                copies = [a.copy() for a in args[:len(ins)]]
                launch(blocks, None, *copies, *args[len(ins):], n, blen)

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
           "layout_of"]
