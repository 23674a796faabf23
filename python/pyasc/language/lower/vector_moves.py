"""Lowering of add_relu/sub_relu/fused_mul_add_relu, transpose, gather,
scatter and brcb, TPipe.init and the
TPipe event ids, and LocalTensor.get_phy_addr (PyAsc's signatures; their IR
rows: src/compiler/api_table.def; runtime: src/compiler/rt/vector.h and
rt/memory.h)."""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING, Any

from pyasc.language import core
from pyasc.language.lower import vector as lower_vector
from pyasc.language.ir.args import bind, expect
from pyasc.language.ir.values import Val
from pyasc.language.lower.vector import NOT_HANDLED, StructValue, _enum

if TYPE_CHECKING:
    from pyasc.language.codegen import CodeGenerator


#: binary ops with a relu, count and mask forms like lower_vector's binary ops
_RELU_BINARY = ("add_relu", "sub_relu", "fused_mul_add_relu")



def _locals(gen: CodeGenerator, node: ast.Call, api: str, values: list, names: tuple) -> list:
    return [expect(gen, node, v, ("local",), f"{api} {n}") for v, n in zip(values, names)]


def _transpose(gen: CodeGenerator, node: ast.Call, args: list, kwargs: dict) -> Any:
    values = bind(gen, node, "transpose", ("dst", "src"), args, kwargs)
    return gen.op(node, "transpose", _locals(gen, node, "transpose", values, ("dst", "src")))


def _gather_scatter(gen: CodeGenerator, node: ast.Call, api: str, args: list,
                    kwargs: dict) -> Any:
    which = "src" if api == "gather" else "dst"
    names = ("dst", "src", f"{which}_offset", f"{which}_base", "count")
    if len(args) + len(kwargs) > 5 or "mask" in kwargs:
        raise gen.error(node, f"{api}: the mask/repeat form is not supported; pass "
                              f"({', '.join(names)})")
    values = bind(gen, node, api, names, args, kwargs)
    tensors = _locals(gen, node, api, values[:3], names[:3])
    return gen.op(node, api, tensors + values[3:])


def _brcb(gen: CodeGenerator, node: ast.Call, args: list, kwargs: dict) -> Any:
    kwargs = {"repeat_times" if k == "repeat_time" else k: v for k, v in kwargs.items()}
    values = bind(gen, node, "brcb", ("dst", "src0", "repeat_times", "repeat_params"),
                         args, kwargs)
    params = values[3]
    if not isinstance(params, StructValue) or params.struct is not core.BrcbRepeatParams:
        raise gen.error(node, "brcb: repeat_params must be a BrcbRepeatParams")
    tensors = _locals(gen, node, "brcb", values[:2], ("dst", "src0"))
    return gen.op(node, "brcb", tensors + [values[2], params.dst_blk_stride,
                                           params.dst_rep_stride])


def api_call(gen: CodeGenerator, node: ast.Call, api: str, args: list, kwargs: dict) -> Any:
    """The IR of one of this module's APIs, or NOT_HANDLED."""
    if api == "transpose" and len(args) + len(kwargs) <= 2:  # the ext form: lower_layout
        return _transpose(gen, node, args, kwargs)
    if api in ("gather", "scatter"):
        return _gather_scatter(gen, node, api, args, kwargs)
    if api == "brcb":
        return _brcb(gen, node, args, kwargs)
    if api in _RELU_BINARY:
        return lower_vector._vector(gen, node, api, ("dst", "src0", "src1"), args, kwargs, True)
    return NOT_HANDLED


def _event(gen: CodeGenerator, node: ast.Call, value: Any, what: str) -> int:
    return _enum(gen, node, value, core.HardEvent, what)


def method(gen: CodeGenerator, node: ast.Call, obj: Val, name: str, args: list,
           kwargs: dict) -> Any:
    """The IR of one of this module's methods, or NOT_HANDLED."""
    kind = obj.kind
    if (kind, name) == ("pipe", "init"):
        bind(gen, node, "TPipe.init", (), args, kwargs)
        return gen.op(node, "pipe.init", [obj])
    if kind == "pipe" and name in ("alloc_event_id", "fetch_event_id"):
        (event,) = bind(gen, node, f"TPipe.{name}", ("event",), args, kwargs,
                            {"event": core.HardEvent.V_S})
        return gen.op(node, f"pipe.{name}", [obj],
                      (_event(gen, node, event, f"{name} event"),))
    if (kind, name) == ("pipe", "release_event_id"):
        ident, event = bind(gen, node, "TPipe.release_event_id", ("id", "event"), args,
                                kwargs, {"event": core.HardEvent.V_S})
        return gen.op(node, "pipe.release_event_id", [obj, ident],
                      (_event(gen, node, event, "release_event_id event"),))
    if (kind, name) == ("local", "get_phy_addr"):
        (offset,) = bind(gen, node, "LocalTensor.get_phy_addr", ("offset",), args, kwargs,
                             {"offset": 0})
        return gen.op(node, "local.get_phy_addr", [obj, offset])
    return NOT_HANDLED
