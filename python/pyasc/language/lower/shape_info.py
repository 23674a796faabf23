"""The ShapeInfo set on tensors in a kernel (``set_shape_info``): a
compile-time record of one kernel's code generation, which the lowerings
that read a tensor's shape (``get_shape_info``, ``adv.softmax`` with an
empty tiling) share."""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING, Any

from pyasc.language.ir.values import KernelArray, Val
from pyasc.language.lower.constructs import array_load

if TYPE_CHECKING:
    from pyasc.language.codegen import CodeGenerator


def shapes(gen: CodeGenerator) -> dict[tuple[str, int], Any]:
    """The ShapeInfo set on each tensor of gen's kernel, by :func:`key`."""
    known = gen.__dict__.get("_shape_info")
    if known is None:
        known = {}
        gen.__dict__["_shape_info"] = known
    return known


def key(gen: CodeGenerator, tensor: Val) -> tuple[str, int]:
    """What names tensor across reads (CodeGenerator.identity): a variable
    keeps its ShapeInfo when assigned again, until set_shape_info replaces
    it."""
    return gen.identity(tensor)


def shape_dims(gen: CodeGenerator, node: ast.AST, tensor: Val) -> list[Any] | None:
    """The dims of the ShapeInfo set on tensor (set_shape_info), as ints or
    IR values; None when none is set or its shape is not a list of dims."""
    info = shapes(gen).get(key(gen, tensor))
    shape = getattr(info, "shape", None)
    if isinstance(shape, KernelArray):
        return [array_load(gen, node, shape, i) for i in range(len(shape))]
    if isinstance(shape, (list, tuple)) and all(
            isinstance(d, Val) or isinstance(d, int) and not isinstance(d, bool) for d in shape):
        return list(shape)
    return None
