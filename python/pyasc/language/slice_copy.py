"""``data_copy`` with ``SliceInfo`` lists (PyAsc's
``data_copy(dst, src, slice_list1, slice_list2, dim_value)``): the slices of
a multi-dimensional tensor between global memory and the Unified Buffer.
IR row ``data_copy.slice`` of src/compiler/api_table.def; semantics in
src/compiler/rt/slice_copy.h (docs/kernel-reference-semantics.md, "SliceInfo")."""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING, Any

from pyasc.language import core
from pyasc.language.ir.args import bind, expect
from pyasc.language.ir.values import Val, describe

if TYPE_CHECKING:
    from pyasc.language.codegen import CodeGenerator

NOT_HANDLED = object()

#: the most dimensions a slice copy simulates (the IR op's operand limit)
MAX_DIMS = 3


class SliceInfo(core.ParamStruct):
    """One dimension of a slice copy: elements start_index..end_index taken
    in bursts (burst_len 32-byte blocks in dimension 0, one index in the
    others), stride elements apart; shape_value is the dimension's length."""


#: Fields and defaults, in PyAsc's order (end_index and burst_len default
#: to one 32-byte block, as upstream's ONE_BLK_SIZE)
FIELDS = (("start_index", 0), ("end_index", 31), ("stride", 0), ("burst_len", 32),
          ("shape_value", 0))



def _slice_info(gen: CodeGenerator, node: ast.Call, args: list, kwargs: dict) -> Any:
    names = tuple(n for n, _ in FIELDS)
    values = bind(gen, node, "SliceInfo", names, args, kwargs, dict(FIELDS))
    for name, value in zip(names, values):
        gen.check_int(node, value, f"SliceInfo {name}")
    return core.StructValue(SliceInfo, dict(zip(names, values)))


def _is_slice_form(args: list, kwargs: dict) -> bool:
    third = args[2] if len(args) > 2 else kwargs.get("slice_list1")
    return isinstance(third, (list, tuple))


def _data_copy(gen: CodeGenerator, node: ast.Call, args: list, kwargs: dict) -> Any:
    dst, src, dst_list, src_list, dims = bind(
        gen, node, "data_copy", ("dst", "src", "slice_list1", "slice_list2", "dim_value"), args,
        kwargs, {"dim_value": 1})
    expect(gen, node, dst, ("global", "local"), "data_copy dst")
    expect(gen, node, src, ("global", "local"), "data_copy src")
    if (dst.kind == "local") == (src.kind == "local"):
        raise gen.error(node, "data_copy with SliceInfo lists copies between a GlobalTensor and "
                              "a LocalTensor")
    if isinstance(dims, Val) or isinstance(dims, bool) or not isinstance(dims, int):
        raise gen.error(node, f"data_copy dim_value must be a compile-time int, not "
                              f"{describe(dims)}")
    if not 1 <= dims <= MAX_DIMS:
        raise gen.error(node, f"data_copy dim_value {dims}: pyasc simulates slice copies of 1 to "
                              f"{MAX_DIMS} dimensions")
    fields = []
    for what, lst in (("slice_list1", dst_list), ("slice_list2", src_list)):
        if not isinstance(lst, (list, tuple)) or len(lst) < dims:
            raise gen.error(node, f"data_copy {what} must be a list of at least dim_value "
                                  f"({dims}) SliceInfo, not {describe(lst)}")
        for info in lst[:dims]:
            if not isinstance(info, core.StructValue) or info.struct is not SliceInfo:
                raise gen.error(node, f"data_copy {what} entries must be pyasc.SliceInfo, not "
                                      f"{describe(info)}")
            fields.extend(getattr(info, n) for n, _ in FIELDS)
    return gen.op(node, "data_copy.slice", [dst, src, *fields], (dims,))


def call(gen: CodeGenerator, node: ast.Call, func: Any, args: list, kwargs: dict) -> Any:
    """The IR of SliceInfo(...) or of data_copy's SliceInfo form, or
    NOT_HANDLED."""
    if func is SliceInfo:
        return _slice_info(gen, node, args, kwargs)
    if isinstance(func, core.KernelBuiltin) and func.name == "data_copy" and \
            _is_slice_form(args, kwargs):
        return _data_copy(gen, node, args, kwargs)
    return NOT_HANDLED
