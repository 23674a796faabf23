"""Lowering of add_relu/sub_relu/fused_mul_add_relu, transpose, gather,
scatter and brcb, TPipe.init and the
TPipe event ids, and LocalTensor.get_phy_addr (PyAsc's signatures; their IR
rows: src/compiler/api_table.def; runtime: src/compiler/rt/vector.h and
rt/memory.h). The APIs' handlers are registered by name
(:func:`pyasc.language.ir.registry.lowers`); the methods are asked by
lower/core's method()."""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING, Any

from pyasc.language import core
from pyasc.language.lower import layout as lower_layout
from pyasc.language.lower import vector as lower_vector
from pyasc.language.ir.args import bind, expect
from pyasc.language.ir.registry import lowers
from pyasc.language.ir.values import Val
from pyasc.language.lower.vector import NOT_HANDLED, StructValue, _enum, _mask

if TYPE_CHECKING:
    from pyasc.language.codegen import CodeGenerator


#: binary ops with a relu, count and mask forms like lower_vector's binary ops
_RELU_BINARY = ("add_relu", "sub_relu", "fused_mul_add_relu")



def _locals(gen: CodeGenerator, node: ast.Call, api: str, values: list, names: tuple) -> list:
    return [expect(gen, node, v, ("local",), f"{api} {n}") for v, n in zip(values, names)]


def _transpose(gen: CodeGenerator, node: ast.Call, args: list, kwargs: dict) -> Any:
    values = bind(gen, node, "transpose", ("dst", "src"), args, kwargs)
    return gen.op(node, "transpose", _locals(gen, node, "transpose", values, ("dst", "src")))


@lowers("gather", "scatter")
def _gather_scatter(gen: CodeGenerator, node: ast.Call, api: str, args: list,
                    kwargs: dict) -> Any:
    which = "src" if api == "gather" else "dst"
    names = ("dst", "src", f"{which}_offset", f"{which}_base", "count")
    if len(args) + len(kwargs) > 5 or "mask" in kwargs:
        # mask forms: (..., base, mask | [mask words], repeat_times, dst/src_rep_stride)
        stride = "dst_rep_stride" if api == "gather" else "src_rep_stride"
        kwargs = {"repeat_times" if k == "repeat_time" else k: v for k, v in kwargs.items()}
        values = bind(gen, node, api, names[:4] + ("mask", "repeat_times", stride), args,
                      kwargs)
        tensors = _locals(gen, node, api, values[:3], names[:3])
        kind, words = _mask(gen, node, values[4])
        gen.check_int(node, values[5], f"{api} repeat_times")
        gen.check_int(node, values[6], f"{api} {stride}")
        return gen.op(node, f"{api}.l0", tensors + [values[3]] + words + values[5:], (kind,))
    values = bind(gen, node, api, names, args, kwargs)
    tensors = _locals(gen, node, api, values[:3], names[:3])
    return gen.op(node, api, tensors + values[3:])


@lowers("brcb")
def _brcb(gen: CodeGenerator, node: ast.Call, api: str, args: list, kwargs: dict) -> Any:
    kwargs = {"repeat_times" if k == "repeat_time" else k: v for k, v in kwargs.items()}
    values = bind(gen, node, "brcb", ("dst", "src0", "repeat_times", "repeat_params"),
                         args, kwargs)
    params = values[3]
    if not isinstance(params, StructValue) or params.struct is not core.BrcbRepeatParams:
        raise gen.error(node, "brcb: repeat_params must be a BrcbRepeatParams")
    tensors = _locals(gen, node, "brcb", values[:2], ("dst", "src0"))
    return gen.op(node, "brcb", tensors + [values[2], params.dst_blk_stride,
                                           params.dst_rep_stride])


@lowers("transpose")
def _transpose_forms(gen: CodeGenerator, node: ast.Call, api: str, args: list,
                     kwargs: dict) -> Any:
    """transpose: (dst, src) transposes one 16x16 block; with more arguments,
    the ext form (lower/layout.py)."""
    if len(args) + len(kwargs) <= 2:
        return _transpose(gen, node, args, kwargs)
    return lower_layout.transpose_ext(gen, node, args, kwargs)


@lowers(*_RELU_BINARY)
def _relu_binary(gen: CodeGenerator, node: ast.Call, api: str, args: list, kwargs: dict) -> Any:
    return lower_vector._vector(gen, node, api, ("dst", "src0", "src1"), args, kwargs, True)


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
        addr = gen.op(node, "local.get_phy_addr", [obj, offset])
        # the tensor's dtype, for trans_data_to_5hd's address forms (PyAsc
        # takes their element type from where the addresses came from)
        if isinstance(addr, Val):
            lower_vector.phy_addr_dtypes(gen)[addr.id] = obj.dtype
        return addr
    return NOT_HANDLED

