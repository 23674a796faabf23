"""Lowering of the DEQSCALE register and the dequantising vector ops with
PyAsc's signatures: ``set_deq_scale`` (its scalar, scale/offset/sign and
``VdeqInfo`` forms), ``cast_deq``, ``add_deq_relu`` and fixpipe's
``set_fix_pipe_pre_quant_flag``. IR rows: the DEQSCALE block of
src/compiler/api_table.def; semantics: src/compiler/rt/deq.h."""

from __future__ import annotations

import ast
import enum
from typing import TYPE_CHECKING, Any

from pyasc.language import core
from pyasc.language.lower import vector as lower_vector
from pyasc.language.ir.args import bind, expect
from pyasc.language.ir.values import Val, describe
from pyasc.language.lower.vector import _flag, _is_mask_form, _mask, _normalise, _strides

if TYPE_CHECKING:
    from pyasc.language.codegen import CodeGenerator

NOT_HANDLED = object()

#: the APIs this module lowers (their KernelBuiltin names)
APIS = ("set_deq_scale", "cast_deq", "add_deq_relu", "set_fix_pipe_pre_quant_flag")


class DeqScale(enum.IntEnum):
    """Dequantisation modes (``DataCopyEnhancedParams.deq_scale``), PyAsc's
    values."""

    DEQ_NONE = 0
    DEQ = 1
    VDEQ = 2
    DEQ8 = 3
    VDEQ8 = 4
    DEQ16 = 5
    VDEQ16 = 6


class VdeqInfo(core.ParamStruct):
    """``set_deq_scale``'s vector form: 16 scales, 16 offsets (low 9 bits)
    and 16 sign modes, compile-time lists."""



def _vdeq_info(gen: CodeGenerator, node: ast.Call, args: list, kwargs: dict) -> Any:
    values = bind(gen, node, "VdeqInfo", ("vdeq_scale", "vdeq_offset", "vdeq_sign_mode"),
                         args, kwargs)
    for value, what in zip(values, ("vdeq_scale", "vdeq_offset", "vdeq_sign_mode")):
        if not isinstance(value, (list, tuple)) or len(value) != 16:
            raise gen.error(node, f"VdeqInfo {what} must be a list of 16 values, not "
                                  f"{describe(value)}")
    scales, offsets, signs = (list(v) for v in values)
    for s in scales:
        if isinstance(s, bool) or not isinstance(s, (int, float, Val)):
            raise gen.error(node, f"VdeqInfo vdeq_scale entries must be numbers, not {s!r}")
    for o in offsets:
        gen.check_int(node, o, "VdeqInfo vdeq_offset")
    bits = 0
    for j, s in enumerate(signs):
        bits |= _flag(gen, node, s, "VdeqInfo vdeq_sign_mode") << j
    return core.StructValue(VdeqInfo, {"vdeq_scale": scales, "vdeq_offset": offsets,
                                       "sign_bits": bits})


def _set_deq_scale(gen: CodeGenerator, node: ast.Call, args: list, kwargs: dict) -> Any:
    first = args[0] if args else kwargs.get("vdeq", kwargs.get("scale"))
    if isinstance(first, Val) and first.kind == "local" or "vdeq" in kwargs:
        vdeq, info = bind(gen, node, "set_deq_scale", ("vdeq", "vdeq_info"), args, kwargs)
        expect(gen, node, vdeq, ("local",), "set_deq_scale vdeq")
        if not isinstance(info, core.StructValue) or info.struct is not VdeqInfo:
            raise gen.error(node, f"set_deq_scale vdeq_info must be a pyasc.VdeqInfo, not "
                                  f"{describe(info)}")
        return gen.op(node, "set_deq_scale.vec",
                      [vdeq, *(float(s) if not isinstance(s, Val) else s
                               for s in info.vdeq_scale), *info.vdeq_offset, info.sign_bits])
    if len(args) + len(kwargs) <= 1:
        (scale,) = bind(gen, node, "set_deq_scale", ("scale",), args, kwargs)
        return gen.op(node, "set_deq_scale.half", [_number(gen, node, scale)])
    scale, offset, sign = bind(gen, node, "set_deq_scale", ("scale", "offset", "sign_mode"),
                                   args, kwargs)
    gen.check_int(node, offset, "set_deq_scale offset")
    return gen.op(node, "set_deq_scale", [_number(gen, node, scale), offset, sign])


def _number(gen: CodeGenerator, node: ast.AST, value: Any) -> Any:
    if isinstance(value, bool) or not (isinstance(value, (int, float)) or
                                       isinstance(value, Val) and value.kind in ("int", "float")):
        raise gen.error(node, f"set_deq_scale scale must be a number, not {describe(value)}")
    return float(value) if isinstance(value, int) else value


def _cast_deq(gen: CodeGenerator, node: ast.Call, args: list, kwargs: dict) -> Any:
    kwargs = _normalise(kwargs)
    flags = {"is_vec_deq": True, "half_block": True}
    if _is_mask_form(args, kwargs, 2):
        values = bind(gen, node, "cast_deq", ("dst", "src", "mask", "repeat_times",
                                                  "repeat_params", "is_set_mask", "is_vec_deq",
                                                  "half_block"),
                          args, kwargs, {"is_set_mask": True, **flags})
        dst, src = (expect(gen, node, v, ("local",), f"cast_deq {n}")
                    for v, n in zip(values[:2], ("dst", "src")))
        kind, words = _mask(gen, node, values[2])
        strides = _strides(gen, node, "cast_deq", values[4], False)
        return gen.op(node, "cast_deq.l0", [dst, src, *words, values[3], *strides],
                      (kind, _flag(gen, node, values[5], "cast_deq is_set_mask"),
                       _flag(gen, node, values[6], "cast_deq is_vec_deq"),
                       _flag(gen, node, values[7], "cast_deq half_block")))
    dst, src, count, vec, half = bind(gen, node, "cast_deq", ("dst", "src", "count",
                                                                  "is_vec_deq", "half_block"),
                                          args, kwargs, flags)
    dst, src = (expect(gen, node, v, ("local",), f"cast_deq {n}")
                for v, n in ((dst, "dst"), (src, "src")))
    return gen.op(node, "cast_deq", [dst, src, count],
                  (_flag(gen, node, vec, "cast_deq is_vec_deq"),
                   _flag(gen, node, half, "cast_deq half_block")))


def call(gen: CodeGenerator, node: ast.Call, func: Any, args: list, kwargs: dict) -> Any:
    """The IR of a call of VdeqInfo or one of APIS, or NOT_HANDLED."""
    if func is VdeqInfo:
        return _vdeq_info(gen, node, args, kwargs)
    if not isinstance(func, core.KernelBuiltin) or func.name not in APIS:
        return NOT_HANDLED
    api = func.name
    if api == "set_deq_scale":
        return _set_deq_scale(gen, node, args, kwargs)
    if api == "cast_deq":
        return _cast_deq(gen, node, args, kwargs)
    if api == "add_deq_relu":
        return lower_vector._vector(gen, node, api, ("dst", "src0", "src1"), args, kwargs, True)
    (config,) = bind(gen, node, api, ("config",), args, kwargs)
    gen.check_int(node, config, f"{api} config")
    if isinstance(config, int) and not -(1 << 63) <= config < 1 << 64:
        raise gen.error(node, f"{api} config {config} does not fit in 64 bits")
    if isinstance(config, int) and config >= 1 << 63:
        config -= 1 << 64
    return gen.op(node, api, [config])
