"""The operators the autograd and framework-bridge tests share: the seed's
``my_custom_op`` and three of their own (an elementwise chain with an
attribute, a reduction, a matmul + bias + gelu). ``make_ops`` defines and
registers them; the caller unregisters them (``drop_ops``)."""

from __future__ import annotations

import numpy as np

import pyasc
from pyasc.op import Op, unregister

FLOATS = (pyasc.float32, pyasc.float64)


def make_ops(prefix: str) -> dict[str, Op]:
    """The four operators, registered as ``<prefix>_<name>``; name -> Op."""

    @pyasc.op(name=f"{prefix}_my_custom_op")
    def my_custom_op(x, y):
        return (x + y) * 2.0

    @pyasc.op(name=f"{prefix}_chain", attrs={"alpha": pyasc.Attr(float, default=0.5, min=0.0)})
    def chain(x, y, alpha=0.5):
        # y broadcasts over x's rows
        return pyasc.tanh(x * alpha + y) * pyasc.exp(-x * x) + pyasc.sigmoid(y) / (alpha + 1.0)

    @pyasc.op(name=f"{prefix}_entropy", inputs={"x": pyasc.TensorSpec(dtypes=FLOATS, ndim=2)})
    def entropy(x):
        # the entropy of each row's softmax: a reduction over the last axis
        return -pyasc.sum(pyasc.softmax(x, axis=-1) * pyasc.log_softmax(x, axis=-1), axis=-1)

    @pyasc.op(
        name=f"{prefix}_linear_gelu",
        inputs={
            "x": pyasc.TensorSpec(dtypes=FLOATS, shape=("M", "K")),
            "w": pyasc.TensorSpec(dtypes=FLOATS, shape=("K", "N")),
            "b": pyasc.TensorSpec(dtypes=FLOATS, shape=("N",)),
        },
    )
    def linear_gelu(x, w, b):
        return pyasc.gelu(x @ w + b)

    return {"my_custom_op": my_custom_op, "chain": chain, "entropy": entropy,
            "linear_gelu": linear_gelu}


def drop_ops(ops: dict[str, Op]) -> None:
    """Unregisters what make_ops registered."""
    for o in ops.values():
        unregister(o.name)


def sample_inputs(name: str, rng: np.random.Generator, dtype=np.float64) -> list[np.ndarray]:
    """Inputs for each operator, as NumPy arrays."""
    shapes = {"my_custom_op": [(3, 4), (3, 4)], "chain": [(3, 4), (4,)], "entropy": [(3, 5)],
              "linear_gelu": [(3, 4), (4, 5), (5,)]}
    return [rng.standard_normal(s).astype(dtype) for s in shapes[name]]


def numerical_grad(f, args: list[np.ndarray], i: int, eps: float = 1e-6) -> np.ndarray:
    """d sum(f(*args)) / d args[i] by central differences (float64)."""
    x = args[i]
    g = np.zeros_like(x)
    for idx in np.ndindex(x.shape):
        plus = [a.copy() for a in args]
        minus = [a.copy() for a in args]
        plus[i][idx] += eps
        minus[i][idx] -= eps
        g[idx] = (float(np.sum(f(*plus))) - float(np.sum(f(*minus)))) / (2 * eps)
    return g
