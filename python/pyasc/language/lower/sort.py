"""Lowering of the sort family (sort32, sort, mrg_sort, mrg_sort4, rp_sort16,
proposal_concat/extract, get_sort_len/offset, get_mrg_sort_result),
gather_mask/gatherb, the CMPMASK register (set_cmp_mask, get_cmp_mask and the
register forms of compare and select) and the scalar bit operations, with
PyAsc's signatures. IR rows: src/compiler/api_table.def; runtime:
src/compiler/rt/sort.h and rt/mask_bits.h; semantics: docs/kernel-reference.md."""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING, Any

import pyasc
from pyasc.language import core
from pyasc.language.lower import vector as lower_vector
from pyasc.language.ir.args import bind, dtype_code, expect
from pyasc.language.ir.values import Val, describe
from pyasc.language.lower.vector import _enum, _flag, _mask, _normalise, _struct, _u64
from pyasc.language.sortgather import (GatherMaskMode, GatherMaskParams, GatherRepeatParams,
                                       MrgSort4Info, MrgSortSrcList)

if TYPE_CHECKING:
    from pyasc.language.codegen import CodeGenerator

NOT_HANDLED = object()

#: the APIs this module lowers (their KernelBuiltin names)
APIS = ("sort32", "sort", "mrg_sort", "mrg_sort4", "get_mrg_sort_result", "rp_sort16",
        "proposal_concat", "proposal_extract", "get_sort_len", "get_sort_offset", "gather_mask",
        "get_gather_mask_remain_count", "gatherb", "set_cmp_mask", "get_cmp_mask",
        "scalar_cast", "scalar_count_leading_zero", "scalar_get_count_of_value",
        "scalar_get_sff_value", "count_bits_cnt_same_as_sign_bit", "add_relu_cast",
        "sub_relu_cast", "mul_cast", "repeat_reduce_sum")



def _locals(gen: CodeGenerator, node: ast.AST, api: str, values: list, names: tuple) -> list:
    return [expect(gen, node, v, ("local",), f"{api} {n}") for v, n in zip(values, names)]


def _const_int(gen: CodeGenerator, node: ast.AST, value: Any, what: str) -> int:
    if isinstance(value, Val) or isinstance(value, bool) or not isinstance(value, int):
        raise gen.error(node, f"{what} must be a compile-time int, not {describe(value)}")
    return value


def _scalar_int(gen: CodeGenerator, node: ast.AST, value: Any, what: str) -> Any:
    """A uint64/int64 operand: Python ints as the int64 of their bits."""
    gen.check_int(node, value, what)
    if isinstance(value, Val):
        return value
    if not -(1 << 63) <= value < 1 << 64:
        raise gen.error(node, f"{what} {value} does not fit in 64 bits")
    return _u64(gen, node, value) if value >= 0 else value


# --- structs --------------------------------------------------------------------------------

def _src_list(gen: CodeGenerator, node: ast.Call, args: list, kwargs: dict) -> core.StructValue:
    if args and not isinstance(args[0], Val):  # PyAsc's leading dtype
        dtype_code(gen, node, args[0])
        args = args[1:]
    kwargs = {k: v for k, v in kwargs.items() if k != "dtype"}
    values = bind(gen, node, "MrgSortSrcList", ("src1", "src2", "src3", "src4"), args, kwargs,
                      {"src3": None, "src4": None})
    given = [v for v in values if v is not None]
    tensors = _locals(gen, node, "MrgSortSrcList", given,
                      tuple(f"src{i + 1}" for i in range(len(given))))
    if values[2] is None and values[3] is not None:
        raise gen.error(node, "MrgSortSrcList: src4 without src3")
    return core.StructValue(MrgSortSrcList, {"srcs": tensors})


def _sort_info(gen: CodeGenerator, node: ast.Call, args: list, kwargs: dict) -> core.StructValue:
    kwargs = {"if_exhausted_suspension" if k == "is_exhausted_suspension" else k: v
              for k, v in kwargs.items()}
    lengths, susp, valid, repeat = bind(
        gen, node, "MrgSort4Info", ("element_lengths", "if_exhausted_suspension", "valid_bit",
                                    "repeat_times"),
        args, kwargs, {"if_exhausted_suspension": False, "valid_bit": 15, "repeat_times": 1})
    return core.StructValue(MrgSort4Info, {
        "element_lengths": _lengths(gen, node, lengths, "MrgSort4Info element_lengths"),
        "if_exhausted_suspension": _flag(gen, node, susp,
                                         "MrgSort4Info if_exhausted_suspension"),
        "valid_bit": valid, "repeat_times": repeat})


def _lengths(gen: CodeGenerator, node: ast.AST, value: Any, what: str) -> list:
    if not isinstance(value, (list, tuple)) or not 1 <= len(value) <= 4:
        raise gen.error(node, f"{what} must be a list of up to 4 lengths, not {describe(value)}")
    for v in value:
        gen.check_int(node, v, what)
    return list(value) + [0] * (4 - len(value))


# --- sorting --------------------------------------------------------------------------------

def _merge(gen: CodeGenerator, node: ast.Call, api: str, args: list, kwargs: dict) -> Any:
    kwargs = {"sort_list" if k == "src" else k: v for k, v in kwargs.items()}
    info_form = api == "mrg_sort4" or len(args) + len(kwargs) == 3 or "params" in kwargs
    if info_form:
        dst, srcs, info = bind(gen, node, api, ("dst", "sort_list", "params"), args, kwargs)
        p = _struct(gen, node, info, (MrgSort4Info,), f"{api} params")
        lengths, valid, repeat = p.element_lengths, p.valid_bit, p.repeat_times
        susp = p.if_exhausted_suspension
    else:
        dst, srcs, lengths, _sorted, valid, repeat, susp = bind(
            gen, node, api, ("dst", "sort_list", "element_count_list", "sorted_num", "valid_bit",
                             "repeat_time", "is_exhausted_suspension"),
            args, kwargs, {"is_exhausted_suspension": False})
        lengths = _lengths(gen, node, lengths, f"{api} element_count_list")
        if not isinstance(_sorted, (list, tuple)):
            raise gen.error(node, f"{api} sorted_num must be a list (read the counts with "
                                  f"get_mrg_sort_result())")
        susp = _flag(gen, node, susp, f"{api} is_exhausted_suspension")
    (dst,) = _locals(gen, node, api, [dst], ("dst",))
    s = _struct(gen, node, srcs, (MrgSortSrcList,), f"{api} sort_list")
    tensors = list(s.srcs) + [s.srcs[0]] * (4 - len(s.srcs))  # unused queues: valid_bit says
    return gen.op(node, api, [dst] + tensors + lengths + [valid, repeat, bool(susp)])


def _sort_len(gen: CodeGenerator, node: ast.Call, api: str, args: list, kwargs: dict) -> Any:
    name = "elem_count" if api == "get_sort_len" else "elem_offset"
    value, dtype = bind(gen, node, api, (name, "dtype"), args, kwargs,
                               {"dtype": pyasc.float32})
    gen.check_int(node, value, f"{api} {name}")
    dtype_code(gen, node, dtype)  # a dtype, or an error naming the line
    if pyasc.dtype(dtype).name not in ("float16", "float32"):
        raise gen.error(node, f"{api}: the sort dtype must be float16 or float32, not "
                              f"{pyasc.dtype(dtype).name}")
    return gen.op(node, api, [value], (pyasc.dtype(dtype).itemsize,))


def _sorting(gen: CodeGenerator, node: ast.Call, api: str, args: list, kwargs: dict) -> Any:
    kwargs = {"repeat_time" if k == "repeat_times" else k: v for k, v in kwargs.items()}
    if api == "sort32":
        values = bind(gen, node, api, ("dst", "src0", "src1", "repeat_time"), args, kwargs)
        return gen.op(node, api, _locals(gen, node, api, values[:3], ("dst", "src0", "src1")) +
                      [values[3]])
    if api == "sort":
        values = bind(gen, node, api, ("dst", "concat", "index", "tmp", "repeat_time",
                                           "is_full_sort"), args, kwargs,
                          {"is_full_sort": False})
        tensors = _locals(gen, node, api, values[:4], ("dst", "concat", "index", "tmp"))
        return gen.op(node, api, tensors + [values[4]],
                      (_flag(gen, node, values[5], "sort is_full_sort"),))
    if api in ("mrg_sort", "mrg_sort4"):
        return _merge(gen, node, api, args, kwargs)
    if api == "get_mrg_sort_result":
        bind(gen, node, api, (), args, kwargs)
        return tuple(gen.op(node, api, [], (i,)) for i in range(4))
    if api == "rp_sort16":
        values = bind(gen, node, api, ("dst", "src", "repeat_time"), args, kwargs)
        return gen.op(node, api, _locals(gen, node, api, values[:2], ("dst", "src")) + [values[2]])
    if api in ("proposal_concat", "proposal_extract"):
        values = bind(gen, node, api, ("dst", "src", "repeat_time", "mode_number"), args,
                          kwargs)
        return gen.op(node, api, _locals(gen, node, api, values[:2], ("dst", "src")) + values[2:])
    return _sort_len(gen, node, api, args, kwargs)


# --- gather_mask, gatherb, CMPMASK --------------------------------------------------------

def _gather_mask(gen: CodeGenerator, node: ast.Call, args: list, kwargs: dict) -> Any:
    api = "gather_mask"
    dst, src0, pattern, reduce, mask, params, mode = bind(
        gen, node, api, ("dst", "src0", "src1_pattern", "reduce_mode", "mask", "params",
                         "gather_mask_mode"), args, kwargs,
        {"gather_mask_mode": GatherMaskMode.DEFAULT})
    _enum(gen, node, mode, GatherMaskMode, "gather_mask gather_mask_mode")
    tensors = _locals(gen, node, api, [dst, src0], ("dst", "src0"))
    p = _struct(gen, node, params, (GatherMaskParams,), "gather_mask params")
    gen.check_int(node, mask, "gather_mask mask")
    reduce = _flag(gen, node, reduce, "gather_mask reduce_mode")
    tail = [reduce, mask, p.src0_block_stride, p.repeat_times, p.src0_repeat_stride,
            p.src1_repeat_stride]
    if isinstance(pattern, Val) and pattern.kind == "local":
        return gen.op(node, api, tensors + [pattern] + tail)
    pattern = _const_int(gen, node, pattern, "gather_mask src1_pattern (built-in mode)")
    if not 1 <= pattern <= 7:
        raise gen.error(node, f"gather_mask: the built-in src1_pattern {pattern} is outside "
                              f"[1, 7]")
    return gen.op(node, "gather_mask.builtin", tensors + [pattern] + tail)


def _gatherb(gen: CodeGenerator, node: ast.Call, args: list, kwargs: dict) -> Any:
    kwargs = {"repeat_times" if k == "repeat_time" else k: v for k, v in kwargs.items()}
    values = bind(gen, node, "gatherb", ("dst", "src0", "offset", "repeat_times",
                                                "repeat_params"), args, kwargs)
    tensors = _locals(gen, node, "gatherb", values[:3], ("dst", "src0", "offset"))
    p = _struct(gen, node, values[4], (GatherRepeatParams,), "gatherb repeat_params")
    return gen.op(node, "gatherb", tensors + [values[3], p.dst_blk_stride, p.dst_rep_stride])


def _compare_reg(gen: CodeGenerator, node: ast.Call, args: list, kwargs: dict) -> Any:
    values = bind(gen, node, "compare", ("src0", "src1", "cmp_mode", "mask",
                                                "repeat_params", "is_set_mask"),
                         args, _normalise(kwargs), {"is_set_mask": True})
    tensors = _locals(gen, node, "compare", values[:2], ("src0", "src1"))
    mode = _enum(gen, node, values[2], core.CMPMODE, "compare cmp_mode")
    kind, words = _mask(gen, node, values[3])
    p = _struct(gen, node, values[4], (core.BinaryRepeatParams,), "compare repeat_params")
    strides = [p.dst_blk_stride, p.src0_blk_stride, p.src1_blk_stride, p.dst_rep_stride,
               p.src0_rep_stride, p.src1_rep_stride]
    return gen.op(node, "compare.reg", tensors + words + strides,
                  (kind, _flag(gen, node, values[5], "compare is_set_mask"), mode))


def _select_reg(gen: CodeGenerator, node: ast.Call, args: list, kwargs: dict) -> Any:
    values = bind(gen, node, "select", ("dst", "src0", "src1", "repeat_times",
                                               "repeat_params", "sel_mode"),
                         args, _normalise(kwargs))
    tensors = _locals(gen, node, "select", values[:3], ("dst", "src0", "src1"))
    mode = _enum(gen, node, values[5], core.SELMODE, "select sel_mode")
    p = _struct(gen, node, values[4], (core.BinaryRepeatParams,), "select repeat_params")
    strides = [p.dst_blk_stride, p.src0_blk_stride, p.src1_blk_stride, p.dst_rep_stride,
               p.src0_rep_stride, p.src1_rep_stride]
    return gen.op(node, "select.reg", tensors + [values[3]] + strides, (mode,))


def _is_local(value: Any) -> bool:
    return isinstance(value, Val) and value.kind == "local"


def _select_reg_scalar(gen: CodeGenerator, node: ast.Call, args: list, kwargs: dict) -> Any:
    """select(dst, sel_mask, src0, repeat_times, repeat_params): the
    tensor-scalar mode with its scalar in CMPMASK (set_cmp_mask)."""
    values = bind(gen, node, "select", ("dst", "sel_mask", "src0", "repeat_times",
                                        "repeat_params"), args, _normalise(kwargs))
    tensors = _locals(gen, node, "select", values[:3], ("dst", "sel_mask", "src0"))
    p = _struct(gen, node, values[4], (core.BinaryRepeatParams,), "select repeat_params")
    strides = [p.dst_blk_stride, p.src0_blk_stride, p.src1_blk_stride, p.dst_rep_stride,
               p.src0_rep_stride, p.src1_rep_stride]
    return gen.op(node, "select.reg_scalar", tensors + [values[3]] + strides)


def _register_form(api: str, args: list, kwargs: dict) -> str | None:
    """Which register form a compare/select call is, or None: compare(src0,
    src1, cmp_mode, mask, repeat_params[, is_set_mask]) ("compare"),
    select(dst, src0, src1, repeat_times, repeat_params, sel_mode) ("select")
    and select(dst, sel_mask, src0, repeat_times, repeat_params) ("scalar"),
    each with any trailing arguments by keyword, as PyAsc dispatches them."""
    kw = _normalise(kwargs)
    if api == "compare":
        tensors = [a for a in args if _is_local(a)] + \
            [v for k, v in kw.items() if k in ("src0", "src1") and _is_local(v)]
        return "compare" if "dst" not in kw and len(tensors) == 2 else None
    if any(k in kw for k in ("sel_mask", "src1", "mask", "count")) or len(args) < 3 or \
            not all(_is_local(a) for a in args[:3]):
        return None
    rest = list(args[3:])
    for name in ("repeat_times", "repeat_params", "sel_mode"):
        if name in kw:
            rest.append(kw[name])
    if len(rest) < 2 or _is_local(rest[0]) or not isinstance(rest[1], core.StructValue):
        return None
    has_mode = len(args) > 5 or "sel_mode" in kw
    return "select" if has_mode else "scalar"


def _repeat_reduce_sum(gen: CodeGenerator, node: ast.Call, args: list, kwargs: dict) -> Any:
    names = ("dst", "src", "repeat_time", "mask", "dst_blk_stride", "src_blk_stride",
             "dst_rep_stride", "src_rep_stride", "is_set_mask")
    values = bind(gen, node, "repeat_reduce_sum", names, args, kwargs,
                         {"is_set_mask": True})
    tensors = _locals(gen, node, "repeat_reduce_sum", values[:2], ("dst", "src"))
    if isinstance(values[3], (list, tuple)):
        raise gen.error(node, "repeat_reduce_sum: mask is an element count (no bit-mask form; "
                              "whole_reduce_sum has one)")
    gen.check_int(node, values[3], "repeat_reduce_sum mask")
    gen.check_int(node, values[4], "repeat_reduce_sum dst_blk_stride")  # ignored, as documented
    return gen.op(node, "repeat_reduce_sum",
                  tensors + [values[3], 0, values[2], values[6], values[5], values[7]],
                  (0, _flag(gen, node, values[8], "repeat_reduce_sum is_set_mask"), 0))


# --- scalars ---------------------------------------------------------------------------------

def _scalar(gen: CodeGenerator, node: ast.Call, api: str, args: list, kwargs: dict) -> Any:
    if api == "scalar_cast":
        value, dtype, mode = bind(gen, node, api, ("value_in", "dtype", "round_mode"), args,
                                      kwargs)
        if not isinstance(value, (int, float)) and not (isinstance(value, Val) and
                                                        value.kind in ("int", "float", "bool")):
            raise gen.error(node, f"scalar_cast value_in must be a number, not {describe(value)}")
        code = dtype_code(gen, node, dtype)
        rmode = _enum(gen, node, mode, core.RoundMode, "scalar_cast round_mode")
        name = "scalar_cast" if pyasc.dtype(dtype).name == "float16" else "scalar_cast.int"
        return gen.op(node, name, [float(value) if not isinstance(value, Val) else value],
                      (code, rmode))
    if api in ("scalar_get_count_of_value", "scalar_get_sff_value"):
        value, count = bind(gen, node, api, ("value_in", "count_value"), args, kwargs)
        return gen.op(node, api, [_scalar_int(gen, node, value, f"{api} value_in")],
                      (_const_int(gen, node, count, f"{api} count_value"),))
    (value,) = bind(gen, node, api, ("value_in",), args, kwargs)
    return gen.op(node, api, [_scalar_int(gen, node, value, f"{api} value_in")])


# The lowering of each register form _register_form names, and of the APIs
# whose arguments need one of their own.
_REGISTER_FORMS = {"compare": _compare_reg, "select": _select_reg, "scalar": _select_reg_scalar}
_OWN_LOWERING = {"gather_mask": _gather_mask, "gatherb": _gatherb,
                 "repeat_reduce_sum": _repeat_reduce_sum}


def call(gen: CodeGenerator, node: ast.Call, func: Any, args: list, kwargs: dict) -> Any:
    """The IR of one of this module's constructors or APIs, or NOT_HANDLED."""
    if func is MrgSortSrcList:
        return _src_list(gen, node, args, kwargs)
    if func is MrgSort4Info:
        return _sort_info(gen, node, args, kwargs)
    if not isinstance(func, core.KernelBuiltin):
        return NOT_HANDLED
    api = func.name
    form = _register_form(api, args, kwargs) if api in ("compare", "select") else None
    if form:
        return _REGISTER_FORMS[form](gen, node, args, kwargs)
    if api not in APIS:
        return NOT_HANDLED
    if api in _OWN_LOWERING:
        return _OWN_LOWERING[api](gen, node, args, kwargs)
    if api == "get_gather_mask_remain_count":
        bind(gen, node, api, (), args, kwargs)
        return gen.op(node, api, [])
    if api in ("set_cmp_mask", "get_cmp_mask"):
        name = "src" if api == "set_cmp_mask" else "dst"
        (tensor,) = bind(gen, node, api, (name,), args, kwargs)
        return gen.op(node, api, _locals(gen, node, api, [tensor], (name,)))
    if api in ("add_relu_cast", "sub_relu_cast", "mul_cast"):
        return lower_vector._vector(gen, node, api, ("dst", "src0", "src1"), args, kwargs, True)
    if api.startswith(("scalar_", "count_bits")):
        return _scalar(gen, node, api, args, kwargs)
    return _sorting(gen, node, api, args, kwargs)
