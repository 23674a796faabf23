"""Lowering of transpose, gather, scatter and brcb (PyAsc's signatures;
their IR rows and runtime functions: src/compiler/api_table.def and
src/compiler/rt/vector.h)."""

from __future__ import annotations

import ast
from typing import Any

from pyasc.language import core
from pyasc.language.codegen import CodeGenerator
from pyasc.language.lowering_ext import NOT_HANDLED, StructValue


def _low():
    from pyasc.language import lowering

    return lowering


def _locals(gen: CodeGenerator, node: ast.Call, api: str, values: list, names: tuple) -> list:
    low = _low()
    return [low.expect(gen, node, v, ("local",), f"{api} {n}") for v, n in zip(values, names)]


def _transpose(gen: CodeGenerator, node: ast.Call, args: list, kwargs: dict) -> Any:
    if len(args) + len(kwargs) > 2:
        raise gen.error(node, "transpose: the TransposeParamsExt form (N,C,H,W <-> N,H,W,C) is "
                              "not supported; transpose(dst, src) transposes one 16x16 matrix")
    values = _low().bind(gen, node, "transpose", ("dst", "src"), args, kwargs)
    return gen.op(node, "transpose", _locals(gen, node, "transpose", values, ("dst", "src")))


def _gather_scatter(gen: CodeGenerator, node: ast.Call, api: str, args: list,
                    kwargs: dict) -> Any:
    which = "src" if api == "gather" else "dst"
    names = ("dst", "src", f"{which}_offset", f"{which}_base", "count")
    if len(args) + len(kwargs) > 5 or "mask" in kwargs:
        raise gen.error(node, f"{api}: the mask/repeat form is not supported; pass "
                              f"({', '.join(names)})")
    values = _low().bind(gen, node, api, names, args, kwargs)
    tensors = _locals(gen, node, api, values[:3], names[:3])
    return gen.op(node, api, tensors + values[3:])


def _brcb(gen: CodeGenerator, node: ast.Call, args: list, kwargs: dict) -> Any:
    kwargs = {"repeat_times" if k == "repeat_time" else k: v for k, v in kwargs.items()}
    values = _low().bind(gen, node, "brcb", ("dst", "src0", "repeat_times", "repeat_params"),
                         args, kwargs)
    params = values[3]
    if not isinstance(params, StructValue) or params.struct is not core.BrcbRepeatParams:
        raise gen.error(node, "brcb: repeat_params must be a BrcbRepeatParams")
    tensors = _locals(gen, node, "brcb", values[:2], ("dst", "src0"))
    return gen.op(node, "brcb", tensors + [values[2], params.dst_blk_stride,
                                           params.dst_rep_stride])


def api_call(gen: CodeGenerator, node: ast.Call, api: str, args: list, kwargs: dict) -> Any:
    """The IR of one of this module's APIs, or NOT_HANDLED."""
    if api == "transpose":
        return _transpose(gen, node, args, kwargs)
    if api in ("gather", "scatter"):
        return _gather_scatter(gen, node, api, args, kwargs)
    if api == "brcb":
        return _brcb(gen, node, args, kwargs)
    return NOT_HANDLED
