"""Reverse-mode differentiation over recorded pyasc operations.

:func:`vjp` and :func:`grad` follow JAX's conventions for functions of
pyasc tensors. They record the function with :mod:`pyasc.trace` (concrete
mode: the forward runs once, eagerly) and walk the graph backwards with
:data:`VJP`, one derivative rule per operation of :data:`pyasc.trace.OPS`.
A ``@pyasc.op`` operator with a declared backward is one node whose rule is
that backward; one without is recorded through its body.

Rules see the output cotangent and the node's concrete inputs; the engine
sums a cotangent back over broadcast dimensions and casts it to its
operand's dtype, so rules need not. Only floating-point values carry
cotangents; integer and bool results are constants.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from pyasc import _C
from pyasc._docs import with_parts
from pyasc.trace import Graph, Node, Value, _arguments, trace

__all__ = ["VJP", "BackwardContext", "grad", "op_vjp", "vjp", "value_and_grad"]


@dataclass
class _Rule:
    """What a derivative rule sees: the output cotangent ``g``, the node's
    inputs as tensors or constants (``args``), its output ``out``, its
    ``attrs``, and which inputs need a cotangent (``needs``)."""

    g: Any
    args: list[Any]
    out: Any
    attrs: dict[str, Any]
    needs: list[bool]
    node: Node


def _keep(r: _Rule, t: Any) -> Any:
    """``t`` (a reduction's result or cotangent) with the reduced axes kept as 1."""
    x = r.args[0]
    if r.attrs.get("keepdims") or r.attrs.get("axis") is None and t.ndim == x.ndim:
        return t
    axis = r.attrs.get("axis")
    axes = range(x.ndim) if axis is None else [axis] if isinstance(axis, int) else axis
    axes = sorted(a % x.ndim for a in axes)
    shape = list(t.shape)
    for a in axes:
        shape.insert(a, 1)
    return t.reshape(*shape)


def _count(r: _Rule) -> int:
    x = r.args[0]
    axis = r.attrs.get("axis")
    axes = range(x.ndim) if axis is None else [axis] if isinstance(axis, int) else axis
    return math.prod(x.shape[a] for a in axes)


def _extreme(r: _Rule) -> tuple[Any, ...]:
    # ties share the cotangent evenly (as JAX and torch's full reductions)
    x = r.args[0]
    mask = _C.equal(x, _keep(r, r.out)).astype(r.g.dtype)
    share = mask / _C.sum(mask, axis=r.attrs.get("axis"), keepdims=True)
    return (_keep(r, r.g) * share,)


def _moment(r: _Rule, std: bool) -> tuple[Any, ...]:
    x = r.args[0]
    axis = r.attrs.get("axis")
    centred = x - _C.mean(x, axis=axis, keepdims=True)
    scale = 2.0 / (_count(r) - r.attrs.get("ddof", 0))
    g = _keep(r, r.g)
    if std:  # d sqrt(v) = dv / (2 sqrt(v))
        g = g / (2.0 * _keep(r, r.out))
    return (g * centred * scale,)


def _matmul(r: _Rule) -> tuple[Any, ...]:
    # 1-d operands as NumPy does: a row (1, K) and a column (K, 1)
    a, b = r.args
    a2 = a.reshape(1, a.shape[0]) if a.ndim == 1 else a
    b2 = b.reshape(b.shape[0], 1) if b.ndim == 1 else b
    batch = _sum_shape(tuple(a2.shape[:-2]), tuple(b2.shape[:-2]))
    g = r.g.reshape(*batch, a2.shape[-2], b2.shape[-1])
    ga = gb = None
    if r.needs[0]:
        ga = g @ b2.swapaxes(-1, -2)
        ga = ga.reshape(*ga.shape[:-2], ga.shape[-1]) if a.ndim == 1 else ga
    if r.needs[1]:
        gb = a2.swapaxes(-1, -2) @ g
        gb = gb.reshape(*gb.shape[:-1]) if b.ndim == 1 else gb
    return ga, gb


def _sum_shape(a: tuple[int, ...], b: tuple[int, ...]) -> tuple[int, ...]:
    """The broadcast of two shapes."""
    n = max(len(a), len(b))
    a, b = (1,) * (n - len(a)) + a, (1,) * (n - len(b)) + b
    return tuple(x if y == 1 else y for x, y in zip(a, b))


def _getitem(r: _Rule) -> tuple[Any, ...]:
    x = r.args[0]
    full = _C.zeros(tuple(x.shape), dtype=r.g.dtype)
    # an element picked more than once (advanced indices) gets each gradient
    _C.add_at(full, r.attrs["index"], r.g)
    return (full,)


def _transpose(r: _Rule) -> tuple[Any, ...]:
    axes = r.attrs["axes"]
    if axes is None:
        return (r.g.transpose(),)
    inverse = [0] * len(axes)
    for i, a in enumerate(axes):
        inverse[a % len(axes)] = i
    return (r.g.transpose(*inverse),)


def _gelu(r: _Rule) -> tuple[Any, ...]:
    # pyasc's gelu is the exact one: x * Phi(x)
    x = r.args[0]
    cdf = 0.5 * (1.0 + _C.erf(x * (1.0 / math.sqrt(2.0))))
    pdf = _C.exp(-0.5 * x * x) * (1.0 / math.sqrt(2.0 * math.pi))
    return (r.g * (cdf + x * pdf),)


def _power(r: _Rule) -> tuple[Any, ...]:
    a, b = r.args
    ga = r.g * b * _C.power(a, b - 1) if r.needs[0] else None
    gb = r.g * r.out * _C.log(a) if r.needs[1] else None
    return ga, gb


def _maximum(r: _Rule, sign: float) -> tuple[Any, ...]:
    a, b = r.args
    wins = (a - b) * sign > 0
    tie = _C.equal(a, b)
    half = r.g * 0.5
    ga = _C.where(wins, r.g, _C.where(tie, half, 0.0))
    gb = _C.where(wins, 0.0, _C.where(tie, half, r.g))
    return ga, gb


def _clip(r: _Rule) -> tuple[Any, ...]:
    # clip is min(max(x, lo), hi), NumPy's order, so hi wins when lo > hi
    x, lo, hi = r.args
    raised = x if lo is None else _C.maximum(x, lo)
    above = _C.zeros(tuple(r.g.shape), dtype=_C.bool_) if hi is None else _C.greater(raised, hi)
    below = _C.zeros(tuple(r.g.shape), dtype=_C.bool_) if lo is None else _C.less(x, lo) & ~above
    inside = ~(above | below)
    return (_C.where(inside, r.g, 0.0), _C.where(below, r.g, 0.0) if r.needs[1] else None,
            _C.where(above, r.g, 0.0) if r.needs[2] else None)


def _op_node(r: _Rule) -> tuple[Any, ...]:
    op = r.attrs["op"]
    return op_vjp(op, dict(zip(op.inputs, r.args)), r.attrs["attrs"], r.out, r.g)


_LN2 = math.log(2.0)

#: op name -> rule(r) -> one cotangent per input (``None``: none). Operations
#: absent here (comparisons, floor, sign, ...) have zero derivatives.
VJP: dict[str, Callable[[_Rule], tuple[Any, ...]]] = {
    "add": lambda r: (r.g, r.g),
    "subtract": lambda r: (r.g, -r.g),
    "multiply": lambda r: (r.g * r.args[1], r.g * r.args[0]),
    "divide": lambda r: (r.g / r.args[1], -r.g * r.out / r.args[1]),
    "power": _power,
    "maximum": lambda r: _maximum(r, 1.0),
    "minimum": lambda r: _maximum(r, -1.0),
    "negative": lambda r: (-r.g,),
    "positive": lambda r: (r.g,),
    "abs": lambda r: (r.g * _C.sign(r.args[0]),),
    "exp": lambda r: (r.g * r.out,),
    "exp2": lambda r: (r.g * r.out * _LN2,),
    "expm1": lambda r: (r.g * (r.out + 1.0),),
    "log": lambda r: (r.g / r.args[0],),
    "log2": lambda r: (r.g / (r.args[0] * _LN2),),
    "log1p": lambda r: (r.g / (r.args[0] + 1.0),),
    "sqrt": lambda r: (r.g * 0.5 / r.out,),
    "rsqrt": lambda r: (r.g * -0.5 * r.out * r.out * r.out,),
    "sin": lambda r: (r.g * _C.cos(r.args[0]),),
    "cos": lambda r: (-r.g * _C.sin(r.args[0]),),
    "tan": lambda r: (r.g * (1.0 + r.out * r.out),),
    "tanh": lambda r: (r.g * (1.0 - r.out * r.out),),
    "sigmoid": lambda r: (r.g * r.out * (1.0 - r.out),),
    "relu": lambda r: (_C.where(r.args[0] > 0, r.g, 0.0),),
    "gelu": _gelu,
    "erf": lambda r: (r.g * _C.exp(-r.args[0] * r.args[0]) * (2.0 / math.sqrt(math.pi)),),
    "reciprocal": lambda r: (-r.g * r.out * r.out,),
    "where": lambda r: (None, _C.where(r.args[0], r.g, 0.0), _C.where(r.args[0], 0.0, r.g)),
    "clip": _clip,
    "sum": lambda r: (_keep(r, r.g),),
    "mean": lambda r: (_keep(r, r.g) * (1.0 / _count(r)),),
    "prod": lambda r: (_keep(r, r.g) * _keep(r, r.out) / r.args[0],),  # no zeros in x
    "var": lambda r: _moment(r, std=False),
    "std": lambda r: _moment(r, std=True),
    "max": _extreme,
    "min": _extreme,
    "softmax": lambda r: (r.out * (r.g - _C.sum(r.g * r.out, axis=r.attrs.get("axis", -1),
                                                 keepdims=True)),),
    "log_softmax": lambda r: (r.g - _C.exp(r.out) * _C.sum(r.g, axis=r.attrs.get("axis", -1),
                                                           keepdims=True),),
    "matmul": _matmul,
    "astype": lambda r: (r.g,),
    "reshape": lambda r: (r.g.reshape(*r.args[0].shape),),
    "transpose": _transpose,
    "expand": lambda r: (r.g,),
    "getitem": _getitem,
    "op": _op_node,
}


def _differentiable(x: Any) -> bool:
    return isinstance(x, (Value, _C.Tensor)) and x.dtype.is_floating_point


def _sum_to(g: Any, shape: tuple[int, ...]) -> Any:
    """``g`` summed over the dimensions broadcasting added to ``shape``, and
    broadcast over those a reduction removed."""
    if tuple(g.shape) == tuple(shape):
        return g
    lead = g.ndim - len(shape)
    if lead < 0:
        g = g.reshape(*((1,) * -lead), *g.shape)
        lead = 0
    axes = list(range(lead)) + [lead + i for i, d in enumerate(shape)
                                if d == 1 and g.shape[lead + i] != 1]
    if axes:
        g = _C.sum(g, axis=tuple(axes), keepdims=True)
    if lead:
        g = g.reshape(*g.shape[lead:])
    return g if tuple(g.shape) == tuple(shape) else g.expand(*shape)


def backward(graph: Graph, outputs: Sequence[Value], cotangents: Sequence[Any]) -> list[Any]:
    """Cotangents of ``graph.inputs`` (zeros where none flows) for the
    ``cotangents`` of ``outputs``."""
    grads: dict[int, Any] = {}
    for out, ct in zip(outputs, cotangents):
        if isinstance(out, Value) and out.graph is graph and _differentiable(out):
            ct = _C.asarray(ct).astype(out.dtype)
            grads[id(out)] = grads[id(out)] + ct if id(out) in grads else ct
    for node in reversed(graph.nodes):
        assert node.output is not None
        g = grads.pop(id(node.output), None)
        rule = VJP.get(node.op)
        if g is None or rule is None:
            continue
        needs = [isinstance(a, Value) and _differentiable(a) for a in node.inputs]
        if not any(needs):
            continue
        args = [a.data if isinstance(a, Value) else a for a in node.inputs]
        results = rule(_Rule(g, args, node.output.data, node.attrs, needs, node))
        for a, need, ga in zip(node.inputs, needs, results):
            if not need or ga is None:
                continue
            ga = _sum_to(_C.asarray(ga), tuple(a.shape))
            ga = ga if ga.dtype == a.dtype else ga.astype(a.dtype)
            grads[id(a)] = grads[id(a)] + ga if id(a) in grads else ga
    return [grads.get(id(v), _C.zeros(tuple(v.shape), dtype=v.dtype)) for v in graph.inputs]


# --- JAX-style entry points -------------------------------------------------------------


def _primal(x: Any, where: str) -> _C.Tensor:
    t = x if isinstance(x, _C.Tensor) else _C.asarray(x)
    if not t.dtype.is_floating_point:
        raise _C.DTypeError(
            f"{where}: differentiating needs floating-point inputs, got {t.dtype.name} "
            "(cast it with astype)"
        )
    return t


def vjp(fn: Callable[..., Any], *primals: Any) -> tuple[Any, Callable[..., tuple[Any, ...]]]:
    """``fn``'s value at ``primals`` and its vector-Jacobian product function.

    JAX's ``jax.vjp``: ``fn`` runs once, eagerly, while it is recorded.

    Parameters
    ----------
    fn : callable
        A function of pyasc tensors returning a tensor or a tuple of them.
    *primals : Tensor or array_like
        The arguments to evaluate ``fn`` at.

    Returns
    -------
    tuple
        ``(fn(*primals), vjp_fn)``: ``vjp_fn(cotangent)``, given a cotangent
        of the output's structure and shapes, returns a tuple of one
        cotangent per primal.

    Raises
    ------
    InvalidValueError
        From ``vjp_fn``, if the cotangent does not match the output.

    Examples
    --------
    >>> x = pyasc.asarray([1.0, 2.0, 3.0])
    >>> out, vjp_fn = pyasc.vjp(lambda x: pyasc.sin(x) * 2, x)
    >>> out
    Tensor([1.6829, 1.8186, 0.2822], dtype=float64)
    >>> vjp_fn(pyasc.ones(3))
    (Tensor([ 1.0806, -0.8323, -1.98  ], dtype=float64),)
    """
    tensors = [_primal(p, "pyasc.vjp") for p in primals]
    graph, result = trace(fn, *tensors)
    many = isinstance(result, tuple)
    outs = list(result) if many else [result]
    values = [o.data if isinstance(o, Value) else o for o in outs]

    def vjp_fn(cotangent: Any) -> tuple[Any, ...]:
        cts = list(cotangent) if many else [cotangent]
        if len(cts) != len(outs):
            raise _C.InvalidValueError(
                f"pyasc.vjp: {len(cts)} cotangent(s) for {len(outs)} output(s)"
            )
        for ct, o in zip(cts, values):
            if tuple(_C.asarray(ct).shape) != tuple(o.shape):
                raise _C.InvalidValueError(
                    f"pyasc.vjp: cotangent shape {tuple(_C.asarray(ct).shape)} does not match "
                    f"the output's {tuple(o.shape)}"
                )
        return tuple(backward(graph, outs, cts))

    return (tuple(values) if many else values[0]), vjp_fn


#: the Parameters of value_and_grad and grad, and their Returns' type
_GRAD_ARGS = """Parameters
----------
fn : callable
    A function of pyasc tensors returning a floating-point tensor of one
    element.
argnums : int or sequence of int, optional
    The arguments to differentiate with respect to (the first by
    default).

Returns
-------
callable"""


@with_parts(grad_args=_GRAD_ARGS)
def value_and_grad(fn: Callable[..., Any], argnums: int | Sequence[int] = 0) -> Callable[..., Any]:
    """A function returning ``fn``'s value and its gradient, as ``jax.value_and_grad``.

    <<grad_args>>
        A function of ``fn``'s arguments returning ``(value, gradient)``:
        one gradient for an int ``argnums``, a tuple of them for a sequence.

    Raises
    ------
    InvalidValueError
        From the returned function, if ``fn`` does not return a one-element
        floating-point tensor, or an ``argnums`` is out of range.

    Examples
    --------
    >>> f = lambda x: (x * x).sum()
    >>> value, g = pyasc.value_and_grad(f)(pyasc.asarray([1.0, 2.0, 3.0]))
    >>> value, g
    (Tensor(14., dtype=float64), Tensor([2., 4., 6.], dtype=float64))
    """
    single = isinstance(argnums, int)
    nums: tuple[int, ...] = (argnums,) if isinstance(argnums, int) else tuple(argnums)

    def run(*args: Any) -> tuple[Any, Any]:
        for n in nums:
            if not -len(args) <= n < len(args):
                raise _C.InvalidValueError(f"pyasc.grad: argnums {n} out of range for {len(args)} arguments")
        wanted = {n % len(args) for n in nums}

        def partial(*diff: Any) -> Any:
            full = list(args)
            for n, d in zip(sorted(wanted), diff):
                full[n] = d
            return fn(*full)

        out, pullback = vjp(partial, *[args[n] for n in sorted(wanted)])
        if not isinstance(out, _C.Tensor) or out.size != 1 or not out.dtype.is_floating_point:
            raise _C.InvalidValueError(
                "pyasc.grad: the function must return one floating-point tensor with one element"
            )
        cts = dict(zip(sorted(wanted), pullback(_C.ones(tuple(out.shape), dtype=out.dtype))))
        grads = tuple(cts[n % len(args)] for n in nums)
        return out, grads[0] if single else grads

    return run


@with_parts(grad_args=_GRAD_ARGS)
def grad(fn: Callable[..., Any], argnums: int | Sequence[int] = 0) -> Callable[..., Any]:
    """A function returning the gradient of ``fn``, as ``jax.grad``.

    <<grad_args>>
        A function of ``fn``'s arguments returning the gradient: one for an
        int ``argnums``, a tuple of them for a sequence.

    Raises
    ------
    InvalidValueError
        From the returned function, if ``fn`` does not return a one-element
        floating-point tensor.

    Examples
    --------
    >>> f = lambda x, y: (x * y).sum()
    >>> x, y = pyasc.asarray([1.0, 2.0]), pyasc.asarray([3.0, 4.0])
    >>> pyasc.grad(f)(x, y)
    Tensor([3., 4.], dtype=float64)
    >>> pyasc.grad(f, argnums=(0, 1))(x, y)
    (Tensor([3., 4.], dtype=float64), Tensor([1., 2.], dtype=float64))
    """
    both = value_and_grad(fn, argnums)
    return lambda *args: both(*args)[1]


# --- operators' backwards ------------------------------------------------------------


@dataclass
class BackwardContext:
    """What an operator's backward receives (torch's ``ctx``).

    Without a ``setup_context``, ``inputs`` (name -> tensor), ``attrs`` and
    ``output`` are filled in; a ``setup_context(ctx, inputs, output)`` saves
    what it chooses with :meth:`save_for_backward` and attributes of its own.
    """

    inputs: dict[str, Any] = field(default_factory=dict)
    attrs: dict[str, Any] = field(default_factory=dict)
    output: Any = None
    saved_tensors: tuple[Any, ...] = ()

    def save_for_backward(self, *tensors: Any) -> None:
        """Keeps tensors for the backward, as ``ctx.saved_tensors``."""
        self.saved_tensors = tensors


def op_vjp(op: Any, inputs: dict[str, Any], attrs: dict[str, Any], output: Any,
           cotangent: Any) -> tuple[Any, ...]:
    """The cotangents of an operator's inputs for one of its calls.

    The operator's declared backward, or the automatic one (the body
    recorded again from the inputs). The torch and JAX bridges use this.

    Parameters
    ----------
    op : Op
        The operator.
    inputs : dict of str to Tensor
        The call's tensor inputs by name.
    attrs : dict of str to object
        The call's attributes by name.
    output : Tensor or tuple of Tensor
        What ``op(**inputs, **attrs)`` returned.
    cotangent : Tensor or tuple of Tensor
        The cotangent of the output (one per output).

    Returns
    -------
    tuple of Tensor or None
        One cotangent per input, in ``inputs``' order (None for an input
        that takes none, such as an integer one).

    Raises
    ------
    InvalidValueError
        If a declared backward returns not one gradient per input.

    Examples
    --------
    >>> @pyasc.op(overwrite=True)
    ... def doc_square(x):
    ...     return x * x
    >>> x = pyasc.asarray([1.0, 2.0])
    >>> pyasc.autograd.op_vjp(doc_square, {"x": x}, {}, doc_square(x), pyasc.ones(2))
    (Tensor([2., 4.], dtype=float64),)
    >>> from pyasc.op import unregister
    >>> unregister("doc_square")
    """
    if op.backward_fn is not None:
        ctx = BackwardContext()
        if op.setup_context_fn is not None:
            params = [inputs[n] if n in inputs else attrs[n] for n in op.signature.parameters]
            op.setup_context_fn(ctx, tuple(params), output)
        else:
            ctx.inputs, ctx.attrs, ctx.output = dict(inputs), dict(attrs), output
        cts = cotangent if isinstance(cotangent, tuple) else (cotangent,)
        result = op.backward_fn(ctx, *cts)
        result = result if isinstance(result, tuple) else (result,)
        if len(result) != len(op.inputs):
            raise _C.InvalidValueError(
                f"{op.name}: the backward returned {len(result)} gradient(s), expected one per "
                f"input ({', '.join(op.inputs)})"
            )
        return tuple(None if g is None else _C.asarray(g) for g in result)
    names = [n for n, t in inputs.items() if t is not None and t.dtype.is_floating_point]

    def body(*diff: Any) -> Any:
        full = dict(inputs)
        full.update(zip(names, diff))
        args, kwargs = _arguments(op, full, attrs)
        return op(*args, **kwargs)

    _, pullback = vjp(body, *[inputs[n] for n in names])
    found = dict(zip(names, pullback(cotangent)))
    return tuple(found.get(n) for n in inputs)
