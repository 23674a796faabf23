"""Small element-wise operations of a compiled signature in one call into C
(docs/op-compiler.md, "Small operators").

Below ``PYASC_OP_FUSE_MIN`` elements a kernel launch costs more than the
work, and one eager call per operation costs more than both. Consecutive
recorded element-wise operations of one output shape and fewer elements
than that (a group too small to launch, or eager calls in dtypes the
kernels do not fuse) become a :class:`Segment`, run by one
``pyasc._C.OpProgram``: the operations compiled once per signature into the
inner loops eager runs, in C (``src/tensor/program.c``), so its results are
eager's bit for bit. Which operations and dtypes a program takes is C's
decision (``OpProgram.covers`` and the program's construction); a segment
the program refuses runs its operations eagerly, and a call whose inputs
the program does not take (a view that is not contiguous) runs the
segment's eager function, the program's ``fallback``.
"""

from __future__ import annotations

import math
import os
from dataclasses import dataclass, field
from typing import Any, Callable

from pyasc import _C
from pyasc import _fuse_plan
from pyasc import trace as _trace


@dataclass(eq=False)
class Segment:
    """Consecutive small element-wise operations of one output ``shape``:
    ``inputs`` the values they read from outside, ``outputs`` the nodes
    whose values leave the segment; ``program`` the OpProgram, or ``None``
    with the reason in ``why`` (its operations then run eagerly)."""

    shape: tuple[int, ...]
    nodes: list[_trace.Node] = field(default_factory=list)
    inputs: list[_trace.Value] = field(default_factory=list)
    outputs: list[_trace.Node] = field(default_factory=list)
    program: Any = None
    why: str = ""


def enabled() -> bool:
    """Whether small operations run as programs (``PYASC_OP_PROGRAM``,
    default on; read when a signature is created)."""
    return os.environ.get("PYASC_OP_PROGRAM", "1") not in ("0", "")


def _fits(node: _trace.Node, limit: int) -> bool:
    """Whether ``node`` may join a segment: an operation programs run, of a
    concrete shape of fewer than ``limit`` elements."""
    shape = node.shape
    if not all(isinstance(d, int) for d in shape) or math.prod(shape) >= limit:
        return False
    attrs = {k: v for k, v in node.attrs.items() if v is not None}
    if node.op == "astype":
        return set(attrs) == {"dtype"}
    opdef = _trace.OPS.get(node.op)
    return not attrs and opdef is not None and opdef.shape is _trace.OPS["add"].shape and \
        bool(_C.OpProgram.covers(node.op))


def segments(plan: _fuse_plan.Plan, limit: int) -> list[Any]:
    """The plan's steps with its small element-wise operations gathered
    into Segments (groups too small to launch give up their nodes, a
    trailing reduction included, which runs as an eager call)."""
    steps: list[Any] = []
    current: Segment | None = None
    limit = limit if enabled() else 0
    for step in plan.steps:
        if isinstance(step, _fuse_plan.Group) and not step.small:
            steps.append(step)
            current = None
            continue
        if isinstance(step, _fuse_plan.Call):
            nodes = [step.node]
        else:
            nodes = step.nodes + ([step.reduce] if step.reduce is not None else [])
        for node in nodes:
            if not _fits(node, limit):
                steps.append(step if isinstance(step, _fuse_plan.Call) else
                             _fuse_plan.Call(node, step.small))
                current = None
            elif current is not None and current.shape == tuple(node.shape):
                current.nodes.append(node)
            else:
                current = Segment(tuple(node.shape), [node])
                steps.append(current)
    _collect(plan, [s for s in steps if isinstance(s, Segment)])
    return steps


def _collect(plan: _fuse_plan.Plan, segs: list[Segment]) -> None:
    assert plan.graph is not None
    users: dict[int, list[_trace.Node]] = {}
    for node in plan.graph.nodes:
        for a in node.inputs:
            if isinstance(a, _trace.Value):
                users.setdefault(id(a), []).append(node)
    result = plan.result if isinstance(plan.result, tuple) else (plan.result,)
    escaping = {id(r) for r in result}
    for seg in segs:
        members = {id(n) for n in seg.nodes}
        made = {id(n.output) for n in seg.nodes}
        seen: set[int] = set()
        for node in seg.nodes:
            for a in node.inputs:
                if isinstance(a, _trace.Value) and id(a) not in made and id(a) not in seen:
                    seen.add(id(a))
                    seg.inputs.append(a)
            outside = [u for u in users.get(id(node.output), []) if id(u) not in members]
            if outside or id(node.output) in escaping:
                seg.outputs.append(node)


def fallback_source(seg: Segment, fname: str, name_of: Callable[[Any], str]) -> str:
    """The text of a function of the segment's inputs that runs its
    operations eagerly and returns its outputs (one, or a tuple); the
    operations and constants are named by ``name_of``."""
    local = {id(v): f"a{i}" for i, v in enumerate(seg.inputs)}
    lines = [f"def {fname}({', '.join(local.values())}):"]
    for node in seg.nodes:
        args = [local[id(a)] if isinstance(a, _trace.Value) else name_of(a) for a in node.inputs]
        if node.attrs:
            args.append(f"**{name_of(dict(node.attrs))}")
        assert node.output is not None
        local[id(node.output)] = f"t{len(local)}"
        lines.append(f"    {local[id(node.output)]} = "
                     f"{name_of(_trace.OPS[node.op].run)}({', '.join(args)})")
    outs = [local[id(n.output)] for n in seg.outputs]
    lines.append(f"    return {outs[0]}" if len(outs) == 1 else
                 f"    return ({''.join(o + ', ' for o in outs)})")
    return "\n".join(lines) + "\n"


def build(seg: Segment, fallback: Any) -> None:
    """Makes the segment's program (``seg.program``), or says why not."""
    index = {id(v): i for i, v in enumerate(seg.inputs)}
    nodes = []
    for node in seg.nodes:
        ops = tuple(index[id(a)] if isinstance(a, _trace.Value) else (a,) for a in node.inputs)
        nodes.append((node.op, ops, node.attrs.get("dtype")))
        index[id(node.output)] = len(index)
    try:
        seg.program = _C.OpProgram(seg.shape, [(v.dtype, tuple(v.shape)) for v in seg.inputs],
                                   nodes, [index[id(n.output)] for n in seg.outputs], fallback,
                                   len(seg.outputs) == 1)
    except (_C.Error, TypeError, ValueError) as exc:
        seg.why = f"{type(exc).__name__}: {exc}"


def describe(seg: Segment) -> str:
    """One line of explain() for a segment."""
    ops = ", ".join(f"{n.op}:{n.dtype.name}" for n in seg.nodes)
    if seg.program is None:
        return f"  small operations over {list(seg.shape)}, eager ({seg.why}): {ops}"
    return (f"  small operations over {list(seg.shape)} in one C call "
            f"({seg.program.instructions} instructions): {ops}")


__all__ = ["Segment", "build", "describe", "enabled", "fallback_source", "segments"]
