"""The fusion planner of the operator compiler (docs/op-compiler.md).

:func:`plan` reads a meta-mode :class:`pyasc.trace.Graph` of one operator
signature and splits it into steps, in program order: a :class:`Group` of
element-wise operations (with their casts, scalar operands and broadcast
inputs, and possibly a trailing reduction, :data:`REDUCTIONS`) that becomes
one kernel, or a :class:`Call` that runs one recorded operation eagerly
(matmul, other reductions, views, anything not fusible). Each
decision not to fuse carries its reason, for :meth:`pyasc.op.Op.explain`.

What fuses is a table (:data:`FUSIBLE`): an operation, the dtypes it fuses
in and the kernel instruction that computes it with the eager path's
rounding (float16 computes in float32 and rounds once per operation, as
both the element-wise engine and the kernel runtime do); comparisons, whose
bool results the kernel builds from a bit mask, are :data:`COMPARISONS`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from pyasc import _C
from pyasc import trace as _trace

F16, BF16, F32, I16, I32 = _C.float16, _C.bfloat16, _C.float32, _C.int16, _C.int32
FLOATS = frozenset({F16, F32})
INTS = frozenset({I16, I32})
#: bfloat16 arithmetic computes in float32 and casts each result back
#: (CAST_RINT), the rounding per operation of eager bfloat16 (the vector
#: unit has bfloat16 casts, not bfloat16 arithmetic)
VIA_F32 = frozenset({BF16})
ARITH = FLOATS | VIA_F32


@dataclass(frozen=True)
class Fusible:
    """One row of :data:`FUSIBLE`: the dtypes the operation fuses in and,
    when some dtypes cannot, why (shown by explain)."""

    dtypes: frozenset[Any]
    why_not: str = ""


#: operation -> the dtypes in which its kernel form matches eager.
FUSIBLE: dict[str, Fusible] = {
    "add": Fusible(ARITH | INTS),
    "subtract": Fusible(ARITH | INTS),
    "multiply": Fusible(ARITH | INTS),
    "divide": Fusible(ARITH),
    "negative": Fusible(ARITH | INTS),
    "positive": Fusible(ARITH | INTS),
    "abs": Fusible(ARITH | INTS),
    "exp": Fusible(ARITH),
    "log": Fusible(ARITH),
    # the adv maths family: SLEEF in the kernel runtime as in eager. sin, cos
    # and tan reduce a vector's lanes together; tiles start on multiples of
    # 16 elements and hold values of the group's shape, so their lanes are
    # eager's lanes
    "sin": Fusible(ARITH),
    "cos": Fusible(ARITH),
    "tan": Fusible(ARITH),
    "tanh": Fusible(ARITH),
    "erf": Fusible(ARITH),
    "sqrt": Fusible(ARITH),
    "reciprocal": Fusible(ARITH),
    # floats: compare and select, as the vector unit's max/min/relu drop NaN
    "maximum": Fusible(FLOATS | INTS),
    "minimum": Fusible(FLOATS | INTS),
    "relu": Fusible(FLOATS | INTS),
    "astype": Fusible(ARITH | INTS),
}

#: comparisons -> the kernel's CMPMODE (src0 <op> src1); the result is bool.
COMPARISONS = {"less": 0, "greater": 1, "equal": 2, "less_equal": 3, "greater_equal": 4,
               "not_equal": 5}
#: the same comparison with its operands swapped (a Python number first).
MIRRORED = {"less": "greater", "greater": "less", "less_equal": "greater_equal",
            "greater_equal": "less_equal", "equal": "equal", "not_equal": "not_equal"}

#: (from, to) conversions whose kernel cast rounds as eager's does.
CASTS = frozenset({(F16, F32), (F32, F16), (I16, I32), (I16, F32), (I32, F32), (BF16, F32),
                   (F32, BF16)})

#: dtypes the kernel runtime's vector instructions do not compute in
#: (src/compiler/rt/vector.h: float16, float32, int16, int32; bfloat16
#: through float32), and what explain() says about an operation in one: it
#: runs eagerly.
NO_VECTOR_FORM = {
    dt: (f"the kernel runtime has no {dt} vector instructions (they take float16, float32, "
         "int16 and int32)")
    for dt in ("int64", "float64")
}

#: trailing reductions a group may end in -> the result dtypes they fuse
#: in (the chain's value dtype) and, when some cannot, why (explain).
REDUCTIONS: dict[str, Fusible] = {
    # float32: each block accumulates its tiles lane by lane, then halves the
    # lanes; a different order than eager's pairwise sum (docs/op-compiler.md)
    "sum": Fusible(frozenset({F32}), "sum: NumPy's result dtype (int64 for integers, float16 "
                   "kept per operation) has no kernel form that matches eager exactly"),
    "mean": Fusible(frozenset({F32}), "mean: only float32 means fuse (integers give float64, "
                    "float16 rounds per operation)"),
    # float32: the vector unit's max/min drop NaNs, a second accumulator
    # brings them back; float16 lanes have no exact scalar form here
    "max": Fusible(INTS | {F32}, "float16 max: not fused (float32 and integers are)"),
    "min": Fusible(INTS | {F32}, "float16 min: not fused (float32 and integers are)"),
}

#: the largest number of Unified Buffer tiles one kernel may keep live.
MAX_SLOTS = 24


@dataclass(eq=False)
class Group:
    """Element-wise nodes computed by one kernel over ``shape``.

    ``inputs``: values from outside the group (graph inputs, results of
    other steps), each loaded either in full (``"full"``: same shape),
    as one scalar (``"scalar"``: one element), as a row repeated through
    each tile (``"row"``: the group's trailing dimensions), as a column
    whose values fill the tile's rows (``"column"``: the group's leading
    dimensions, see :func:`column_width`), one value per reduced row
    (``"segment"``: a group ending in a last-axis reduction, the input
    constant along each row, read once per row as a scalar; see
    :func:`segment_width`) or broadcast first (``"expand"``: materialised
    by one eager copy, then loaded in full).
    ``outputs``: the nodes whose values leave the group.
    """

    shape: tuple[int, ...]
    nodes: list[_trace.Node] = field(default_factory=list)
    inputs: list[_trace.Value] = field(default_factory=list)
    kinds: list[str] = field(default_factory=list)
    outputs: list[_trace.Node] = field(default_factory=list)
    kernel: Any = None  # the built kernel (pyasc._fuse_kernel.FusedKernel)
    name: str = ""  # the kernel's name
    small: str = ""  # non-empty: too small to launch; why its operations run eagerly
    #: a trailing reduction of one of the group's values, fused into the kernel
    reduce: _trace.Node | None = None
    #: "all" (every axis: per-block partials) or "last" (the last axis: one
    #: value per row, rows of ``width`` elements owned by blocks)
    reduce_mode: str = ""
    width: int = 0

    @property
    def size(self) -> int:
        """Elements of the group's shape."""
        return math.prod(self.shape)


@dataclass(eq=False)
class Call:
    """One recorded operation run eagerly, and why it was not fused."""

    node: _trace.Node
    why: str


@dataclass(eq=False)
class Plan:
    """The steps of one signature, or why it runs eagerly as a whole."""

    graph: _trace.Graph | None
    result: Any = None  # a Value, or a tuple of Values
    steps: list[Group | Call] = field(default_factory=list)
    fallback: str = ""  # non-empty: the whole signature runs eagerly
    #: lines explain() adds: how the run of the plan's small operations goes
    notes: list[str] = field(default_factory=list)

    @property
    def groups(self) -> list[Group]:
        """The fused groups, in order."""
        return [s for s in self.steps if isinstance(s, Group)]


def _scalar_const(a: Any) -> bool:
    return isinstance(a, (int, float)) and not isinstance(a, bool)


def _why_not_comparison(node: _trace.Node) -> str:
    values = [a for a in node.inputs if isinstance(a, _trace.Value)]
    if not values:
        return f"{node.op}: no tensor operand"
    dtype = values[0].dtype
    missing = NO_VECTOR_FORM.get(dtype.name)
    if missing:
        return f"{node.op} on {dtype.name}: {missing}"
    if dtype not in FLOATS | INTS:
        return f"{node.op} on {dtype.name}: no kernel form"
    if any(v.dtype != dtype for v in values):
        return f"{node.op}: operands of two dtypes (compared after promotion, not fused)"
    for a in node.inputs:
        if isinstance(a, _trace.Value):
            continue
        if not _scalar_const(a) or (isinstance(a, float) and dtype in INTS):
            return f"{node.op}: operand {a!r} promotes the comparison (not fused)"
    return ""


def _why_not_where(node: _trace.Node) -> str:
    cond, *picks = node.inputs
    dtype = node.dtype
    if not isinstance(cond, _trace.Value) or cond.dtype != _C.bool_:
        return "where: the condition is not a bool tensor"
    if tuple(cond.shape) != tuple(node.shape):
        return "where: the condition is broadcast (not fused)"
    if dtype not in FLOATS:
        missing = NO_VECTOR_FORM.get(dtype.name)
        return f"where on {dtype.name}: " + (missing or "select takes float16 and float32")
    for a in picks:
        if isinstance(a, _trace.Value) and a.dtype != dtype:
            return "where: operands of two dtypes (selected after promotion, not fused)"
        if not isinstance(a, _trace.Value) and not _scalar_const(a):
            return f"where: operand {a!r} is not a tensor or a Python number"
    return ""


def why_not_fusible(node: _trace.Node) -> str:
    """Why ``node`` cannot join a fused group ("" when it can)."""
    if node.op in COMPARISONS:
        return _why_not_comparison(node)
    if node.op == "where":
        return _why_not_where(node)
    row = FUSIBLE.get(node.op)
    if row is None:
        return f"{node.op}: runs as a library call (not an element-wise operation the fuser knows)"
    if node.dtype not in row.dtypes:
        missing = NO_VECTOR_FORM.get(node.dtype.name)
        if missing:
            return f"{node.op} on {node.dtype.name}: {missing}"
        return row.why_not or f"{node.op} on {node.dtype.name}: no kernel form with eager's rounding"
    values = [a for a in node.inputs if isinstance(a, _trace.Value)]
    if not values:
        return f"{node.op}: no tensor operand"
    for a in node.inputs:
        if isinstance(a, _trace.Value):
            missing = NO_VECTOR_FORM.get(a.dtype.name)
            if a.dtype != node.dtype and missing:
                return f"{node.op}: operand of {a.dtype.name}: {missing}"
            if a.dtype != node.dtype and (a.dtype, node.dtype) not in CASTS:
                return (f"{node.op}: converting {a.dtype.name} to {node.dtype.name} has no kernel "
                        "form with eager's rounding")
        elif not _scalar_const(a):
            return f"{node.op}: operand {a!r} is not a tensor or a Python number"
    if node.op == "astype" and node.attrs.get("dtype") is None:
        return "astype: no dtype"
    return ""


def _consumers(graph: _trace.Graph) -> dict[int, list[_trace.Node]]:
    users: dict[int, list[_trace.Node]] = {}
    for node in graph.nodes:
        for a in node.inputs:
            if isinstance(a, _trace.Value):
                users.setdefault(id(a), []).append(node)
    return users


def _results(result: Any) -> list[_trace.Value] | None:
    if isinstance(result, _trace.Value):
        return [result]
    if isinstance(result, tuple) and result and all(isinstance(r, _trace.Value) for r in result):
        return list(result)
    return None


def plan(graph: _trace.Graph, result: Any) -> Plan:
    """Splits ``graph`` into fused groups and eager calls (see the module)."""
    results = _results(result)
    if results is None:
        return Plan(graph, result, fallback="the operator does not return a tensor or a tuple "
                                            "of tensors")
    for node in graph.nodes:
        for a in node.inputs:
            if not isinstance(a, _trace.Value) and a is not None and not _scalar_const(a) \
                    and not isinstance(a, bool):
                return Plan(graph, result, fallback=f"{node.op}: operand of type "
                            f"{type(a).__name__} made outside the traced inputs (a constant "
                            "tensor) is not traced")
    out = Plan(graph, result)
    owner: dict[int, Group] = {}  # id(Value) -> its group
    current: Group | None = None
    users = _consumers(graph)
    escaping = {id(r) for r in results}
    for node in graph.nodes:
        if node.op in REDUCTIONS:
            why, mode = _why_not_reduction(node, current, owner, users, escaping)
            if not why and current is not None:
                current.reduce, current.reduce_mode = node, mode
                current.width = int(node.inputs[0].shape[-1]) if mode == "last" else 0
                current = None  # the reduction ends its group
                continue
            current = None
            out.steps.append(Call(node, why))
            continue
        why = why_not_fusible(node)
        if not why and not all(isinstance(d, int) for d in node.shape):
            why = f"{node.op}: symbolic shape"
        if why:
            current = None  # a kernel runs where its group starts: later nodes may need the call
            out.steps.append(Call(node, why))
            continue
        shape = tuple(node.shape)
        if current is None or current.shape != shape:
            current = Group(shape)
            out.steps.append(current)
        current.nodes.append(node)
        assert node.output is not None
        owner[id(node.output)] = current
    for group in out.groups:
        members = {id(n) for n in group.nodes}
        _collect_inputs(group, owner)
        for node in group.nodes:
            assert node.output is not None
            outside = [u for u in users.get(id(node.output), []) if id(u) not in members]
            if outside or id(node.output) in escaping:
                group.outputs.append(node)
    return out


def _reduce_axes(node: _trace.Node, ndim: int) -> str:
    """ "all", "last" or "" (other axes) for a reduction's ``axis``."""
    axis = node.attrs.get("axis")
    if axis is None:
        return "all"
    axes = axis if isinstance(axis, (tuple, list)) else (axis,)
    if not all(isinstance(a, int) and not isinstance(a, bool) and -ndim <= a < ndim
               for a in axes):
        return ""
    norm = {a % ndim for a in axes}
    if len(norm) != len(axes):
        return ""
    if norm == set(range(ndim)):
        return "all"
    return "last" if norm == {ndim - 1} else ""


def _why_not_reduction(node: _trace.Node, current: Group | None, owner: dict[int, Group],
                       users: dict[int, list[_trace.Node]], escaping: set[int]
                       ) -> tuple[str, str]:
    """Why a reduction cannot end ``current`` ("" when it can), and its mode."""
    src = node.inputs[0] if node.inputs else None
    if not isinstance(src, _trace.Value) or current is None or owner.get(id(src)) is not current:
        return (f"{node.op}: runs as a library call (its operand is not the result of a fused "
                "element-wise chain)"), ""
    row = REDUCTIONS[node.op]
    if node.dtype not in row.dtypes or src.dtype != node.dtype:
        missing = NO_VECTOR_FORM.get(node.dtype.name)
        return (f"{node.op} on {src.dtype.name}: " + missing if missing else row.why_not), ""
    for attr in ("dtype", "out"):
        if node.attrs.get(attr) is not None:
            return f"{node.op}: the {attr}= argument is not fused", ""
    if node.attrs.get("ddof"):
        return f"{node.op}: ddof is not fused", ""
    shape = tuple(src.shape)
    if not shape or math.prod(shape) == 0:
        return f"{node.op}: a 0-d or empty operand is not fused", ""
    mode = _reduce_axes(node, len(shape))
    if not mode:
        return f"{node.op}: only reductions over the last axis or all axes fuse", ""
    if len(shape) == 1:
        mode = "all"
    if mode == "last" and shape[-1] % ESCAPE_ROW_UNIT:
        for member in current.nodes:
            assert member.output is not None
            outside = [u for u in users.get(id(member.output), [])
                       if u is not node and u not in current.nodes]
            if outside or id(member.output) in escaping:
                return (f"{node.op}: a value of the chain is also used outside it and rows of "
                        f"{shape[-1]} elements are not a multiple of {ESCAPE_ROW_UNIT} (the "
                        "kernel writes it tile by tile, whole tiles within a row; the chain "
                        "fuses without the reduction)"), ""
    return "", mode


#: Rows of a last-axis reduction whose chain values also leave the kernel are
#: a multiple of this (elements): a tile written out then never reaches past
#: its row (the largest count unit: compare's 256-byte repeats of 2-byte
#: dtypes).
ESCAPE_ROW_UNIT = 128


def _collect_inputs(group: Group, owner: dict[int, Group]) -> None:
    _collect(group, owner)
    if group.reduce is not None:  # tiles start anywhere in a row: broadcast first
        group.kinds = ["segment" if k != "full" and k != "scalar" and _segment_ok(group, v)
                       else "expand" if k in ("row", "column") else k
                       for v, k in zip(group.inputs, group.kinds)]
    sizes = {math.prod(v.shape) for v, k in zip(group.inputs, group.kinds) if k == "row"}
    if len(sizes) > 1:  # tiles hold whole rows of one length only
        first = min(sizes)
        group.kinds = ["expand" if k == "row" and math.prod(v.shape) != first else k
                       for v, k in zip(group.inputs, group.kinds)]


#: operations that take a per-row value of a last-axis reduction's group as
#: a scalar operand (a tile filled with it): exact, whatever fills the tile
_SEGMENT_USERS = frozenset({"add", "subtract", "multiply", "divide"})


def _segment_ok(group: Group, value: _trace.Value) -> bool:
    """Whether an input of a last-axis reducing group is read as one value
    per row: constant along each row, read by arithmetic in its own dtype."""
    if group.reduce_mode != "last" or not segment_width(tuple(value.shape), group.shape):
        return False
    users = [n for n in group.nodes if any(a is value for a in n.inputs)]
    return all(n.op in _SEGMENT_USERS and n.dtype == value.dtype and n.dtype not in VIA_F32
               for n in users)


def segment_width(shape: tuple[int, ...], group: tuple[int, ...]) -> int:
    """For an input constant along the group's last axis (its leading
    dimensions the group's, trailing ones broadcast: ``(M, 1)`` next to
    ``(M, N)``): the elements each of its values covers, a multiple of the
    row length; 0 for any other shape (a scalar included)."""
    if len(shape) > len(group):
        return 0
    padded = (1,) * (len(group) - len(shape)) + shape
    keep = len(group)
    while keep and padded[keep - 1] == 1 and group[keep - 1] != 1:
        keep -= 1
    if keep in (0, len(group)) or padded[:keep] != group[:keep]:
        return 0
    return math.prod(group[keep:])


def _collect(group: Group, owner: dict[int, Group]) -> None:
    seen: set[int] = set()
    for node in group.nodes:
        for a in node.inputs:
            if isinstance(a, _trace.Value) and owner.get(id(a)) is not group and id(a) not in seen:
                seen.add(id(a))
                group.inputs.append(a)
                if tuple(a.shape) == group.shape:
                    group.kinds.append("full")
                elif math.prod(a.shape) == 1:
                    group.kinds.append("scalar")
                elif _is_row(tuple(a.shape), group.shape):
                    group.kinds.append("row")
                elif column_width(tuple(a.shape), group.shape):
                    group.kinds.append("column")
                else:
                    group.kinds.append("expand")


#: the longest row (elements) a kernel repeats through a tile.
MAX_ROW = 4096


def _is_row(shape: tuple[int, ...], group: tuple[int, ...]) -> bool:
    """Whether an input is the group's trailing dimensions (leading ones
    broadcast), whole 32-byte blocks long: the kernel then fills a tile with
    copies of it once per block (tiles start on row boundaries)."""
    trimmed = shape
    while trimmed and trimmed[0] == 1:
        trimmed = trimmed[1:]
    if not trimmed or len(trimmed) > len(group) or group[len(group) - len(trimmed):] != trimmed:
        return False
    size = math.prod(trimmed)
    return size % 16 == 0 and size <= MAX_ROW


def column_width(shape: tuple[int, ...], group: tuple[int, ...]) -> int:
    """For a column input (:func:`segment_width`'s shapes: ``(M, 1)`` next
    to ``(M, N)``): the elements each of its values covers, when that is
    whole 32-byte blocks (at most :data:`MAX_ROW`): the kernel then fills
    each tile row by row from it. 0 for any other shape."""
    width = segment_width(shape, group)
    return width if width % 16 == 0 and width <= MAX_ROW else 0


def explain(plan_: Plan, name: str) -> str:
    """The plan as text: each kernel with what it fused, each eager call and why."""
    if plan_.fallback:
        return f"operator '{name}': runs eagerly: {plan_.fallback}"
    lines = [f"operator '{name}': {len(plan_.groups)} fused kernel(s), "
             f"{sum(isinstance(s, Call) for s in plan_.steps)} eager call(s)"]
    for step in plan_.steps:
        if isinstance(step, Group):
            k = step.kernel
            where = "" if k is None else f" [{k.name}, {k.origin}]"
            if step.small:
                where = f" [{step.name}, not launched: {step.small}]"
            ops = ", ".join(f"{n.op}:{n.dtype.name}" for n in step.nodes)
            if step.reduce is not None:
                r = step.reduce
                how = ("over all axes: per-block partials combined by one eager step"
                       if step.reduce_mode == "all" else
                       f"over the last axis: one value per row of {step.width}, written by "
                       "the block that owns the row")
                ops += f", then {r.op}:{r.dtype.name} fused {how}"
            lines.append(f"  kernel over {list(step.shape)}{where}: {ops}")
            for v, kind in zip(step.inputs, step.kinds):
                if kind != "full":
                    what = {"scalar": "read as one scalar",
                            "row": "a row repeated through each tile (broadcast in the kernel)",
                            "column": "a column, each value filling its row of a tile "
                                      "(broadcast in the kernel)",
                            "segment": "one value per row, read once per row as a scalar"}.get(kind, f"broadcast to {list(step.shape)} by one eager copy first")
                    lines.append(f"    input {v.dtype.name}{list(v.shape)}: {what}")
        else:
            lines.append(f"  eager {step.node.op}: {step.why}")
    return "\n".join(lines + plan_.notes)
