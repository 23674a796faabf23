"""Lowering of the vector APIs' mask/repeat ("level-0") forms and of the APIs
added with them: cast, compare/select, reductions, mask control, data_copy
with DataCopyParams, data_copy_pad, dump_tensor, trap and the parameter
structs. Signatures follow docs/kernel-reference.md (PyAsc's names and
defaults); lower_core.api_call asks here first.

IR conventions (src/compiler/ir_ops.c): an ``<api>.l0`` op takes the tensors,
the scalar if any, the mask as two words (m0, m1), repeat_times and the
strides (block strides, then repeat strides), with the attributes
(mask kind: 0 int / 1 list, is_set_mask, mode)."""

from __future__ import annotations

import ast
import enum
from typing import TYPE_CHECKING, Any

from pyasc.language import core, cube, img2col, layout, sortgather, system
from pyasc.language.ir.args import bind, dtype_code, expect
from pyasc.language.ir.values import Val, describe

if TYPE_CHECKING:
    from pyasc.language.codegen import CodeGenerator

NOT_HANDLED = object()

DATA_BLOCK_BYTES = 32

_BINARY = ("add", "sub", "mul", "div", "max", "min", "bitwise_and", "bitwise_or",
           "fused_mul_add", "mul_add_dst")
_SCALAR = ("adds", "muls", "maxs", "mins", "leaky_relu", "shift_left", "shift_right", "axpy")
_UNARY = ("exp", "ln", "abs", "sqrt", "rsqrt", "reciprocal", "relu", "bitwise_not")
#: count forms that lower/core.py already handles (without is_set_mask)
_OLD_COUNT = ("add", "sub", "mul", "div", "max", "min", "adds", "muls", "maxs", "mins", "exp",
              "ln", "abs", "sqrt", "rsqrt", "reciprocal", "relu")
_KEYWORD_ALIASES = {"params": "repeat_params", "repeat_time": "repeat_times"}

_STRUCTS = {
    core.BinaryRepeatParams: (("dst_blk_stride", 1), ("src0_blk_stride", 1),
                              ("src1_blk_stride", 1), ("dst_rep_stride", 8),
                              ("src0_rep_stride", 8), ("src1_rep_stride", 8)),
    core.UnaryRepeatParams: (("dst_blk_stride", 1), ("src_blk_stride", 1), ("dst_rep_stride", 8),
                             ("src_rep_stride", 8)),
    core.CopyRepeatParams: (("dst_stride", 0), ("src_stride", 0), ("dst_repeat_size", 0),
                            ("src_repeat_size", 0)),
    core.BrcbRepeatParams: (("dst_blk_stride", 1), ("dst_rep_stride", 8)),
    core.DataCopyParams: (("block_count", 1), ("block_len", 0), ("src_stride", 0),
                          ("dst_stride", 0)),
    core.DataCopyExtParams: (("block_count", 1), ("block_len", 0), ("src_stride", 0),
                             ("dst_stride", 0), ("rsv", 0)),
    core.DataCopyPadParams: (("is_pad", False), ("left_padding", 0), ("right_padding", 0),
                             ("padding_value", 0)),
    core.DataCopyPadExtParams: (("dtype", None), ("is_pad", False), ("left_padding", 0),
                                ("right_padding", 0), ("padding_value", 0)),
    core.ShapeInfo: (("shape", None), ("original_shape", None), ("data_format", None)),
}


_STRUCTS.update(cube.STRUCTS)  # cube unit
_STRUCTS.update(img2col.STRUCTS)  # cube unit: img2col loads
_STRUCTS.update(system.STRUCTS)  # system and hardware (lower_system)
_STRUCTS.update(layout.STRUCTS)  # layout (lower_layout)
_STRUCTS.update(sortgather.STRUCTS)  # sort and gather_mask

StructValue = core.StructValue



def phy_addr_dtypes(gen: CodeGenerator) -> dict:
    """IR value id -> the dtype of the LocalTensor whose get_phy_addr it is
    (and, for a uint64 LocalTensor that set_value stored such an address
    in, that tensor's CodeGenerator.identity -> the same dtype):
    trans_data_to_5hd's address forms take their element type from it, as
    PyAsc does."""
    return gen.__dict__.setdefault("_phy_addr_dtypes", {})


def make_struct(gen: CodeGenerator, node: ast.Call, cls: type, args: list, kwargs: dict) -> Any:
    fields = _STRUCTS[cls]
    names = tuple(n for n, _ in fields)
    if cls is cube.Nz2NdParamsFull and len(args) == len(names) + 1:
        # PyAsc's constructor takes an IR handle after the 7 fields and then
        # ignores them: such a struct is accepted but carries no values, and
        # an API given it says so (cube.data_copy)
        value = make_struct(gen, node, cls, list(args[:-1]), kwargs)
        value.handle = args[-1]
        return value
    values = bind(gen, node, cls.__name__, names, args, kwargs,
                         {n: d for n, d in fields if not (cls is core.DataCopyPadExtParams and
                                                         n == "dtype")})
    for name, value in zip(names, values):
        if name in ("dtype", "shape", "original_shape", "data_format", "pad_list"):
            continue
        if not isinstance(value, (bool, int, float)) and not (isinstance(value, Val) and
                                                             value.kind in ("int", "bool",
                                                                            "float")):
            raise gen.error(node, f"{cls.__name__}: {name} must be a number, not "
                                  f"{describe(value)}")
    return StructValue(cls, dict(zip(names, values)))


def _struct(gen: CodeGenerator, node: ast.AST, value: Any, kinds: tuple, what: str) -> StructValue:
    if not isinstance(value, StructValue) or value.struct not in kinds:
        names = " or ".join(f"pyasc.{k.__name__}" for k in kinds)
        raise gen.error(node, f"{what} must be a {names}, not {describe(value)}")
    return value


def _normalise(kwargs: dict) -> dict:
    return {_KEYWORD_ALIASES.get(k, k): v for k, v in kwargs.items()}


def _u64(gen: CodeGenerator, node: ast.AST, word: Any) -> Any:
    """A mask word: Python ints as int64 bit patterns of their uint64 value."""
    if isinstance(word, Val):
        return word
    if isinstance(word, bool) or not isinstance(word, int) or not 0 <= word < 1 << 64:
        raise gen.error(node, f"mask words must be ints in [0, 2**64), not {word!r}")
    return word - (1 << 64) if word >= 1 << 63 else word


def _mask(gen: CodeGenerator, node: ast.AST, mask: Any) -> tuple[int, list]:
    """(kind, [m0, m1]): kind 0 for a continuous mask, 1 for a bit list."""
    if isinstance(mask, (list, tuple)):
        if not 1 <= len(mask) <= 2:
            raise gen.error(node, f"a bit-mask list has 1 or 2 words (low word first), got "
                                  f"{len(mask)}")
        words = [_u64(gen, node, w) for w in mask]
        return 1, words + [0] * (2 - len(words))
    gen.check_int(node, mask, "mask")
    return 0, [mask, 0]


def _flag(gen: CodeGenerator, node: ast.AST, value: Any, what: str) -> int:
    if isinstance(value, Val):
        raise gen.error(node, f"{what} must be a compile-time bool")
    return 1 if value else 0


def _enum(gen: CodeGenerator, node: ast.AST, value: Any, cls: type, what: str) -> int:
    if isinstance(value, Val) or isinstance(value, bool) or not isinstance(value, int) or \
            isinstance(value, enum.Enum) and not isinstance(value, cls):
        raise gen.error(node, f"{what} must be a pyasc.{cls.__name__} member, not "
                              f"{describe(value)}")
    try:
        return int(cls(value))
    except ValueError:
        raise gen.error(node, f"{what}: {value!r} is not a pyasc.{cls.__name__} value") from None


def _locals(gen: CodeGenerator, node: ast.AST, api: str, pairs) -> list:
    return [expect(gen, node, t, ("local",), f"{api} {name}") for t, name in pairs]


def _is_mask_form(args: list, kwargs: dict, nfixed: int) -> bool:
    """Whether a vector call uses a mask form: after the nfixed leading
    arguments, the count form has (count[, is_set_mask])."""
    if any(k in kwargs for k in ("mask", "repeat_times", "repeat_params")):
        return True
    tail = args[nfixed:]
    return len(tail) >= 3 or bool(tail) and isinstance(tail[0], (list, tuple))


def _strides(gen: CodeGenerator, node: ast.AST, api: str, params: Any, binary: bool) -> list:
    if binary:
        p = _struct(gen, node, params, (core.BinaryRepeatParams,), f"{api} repeat_params")
        return [p.dst_blk_stride, p.src0_blk_stride, p.src1_blk_stride, p.dst_rep_stride,
                p.src0_rep_stride, p.src1_rep_stride]
    p = _struct(gen, node, params, (core.UnaryRepeatParams, core.BinaryRepeatParams),
                f"{api} repeat_params")
    if p.struct is core.BinaryRepeatParams:  # compare_scalar's docs example
        return [p.dst_blk_stride, p.src0_blk_stride, p.dst_rep_stride, p.src0_rep_stride]
    return [p.dst_blk_stride, p.src_blk_stride, p.dst_rep_stride, p.src_rep_stride]


def _vector(gen: CodeGenerator, node: ast.Call, api: str, lead: tuple, args: list, kwargs: dict,
            binary_params: bool, mode: int | None = None, tensors: int | None = None) -> Any:
    """A vector API with leading arguments `lead` (tensors, scalar, mode),
    in its count or mask form. The first `tensors` leads are LocalTensors."""
    kwargs = _normalise(kwargs)
    ntensors = len(lead) if tensors is None else tensors
    if _is_mask_form(args, kwargs, len(lead)):
        values = bind(gen, node, api, lead + ("mask", "repeat_times", "repeat_params",
                                                  "is_set_mask"), args, kwargs,
                          {"is_set_mask": True})
        head = values[:len(lead)]
        mask, repeat, params, set_mask = values[len(lead):]
        kind, words = _mask(gen, node, mask)
        operands = _locals(gen, node, api, zip(head[:ntensors], lead)) + head[ntensors:]
        strides = _strides(gen, node, api, params, binary_params)
        return gen.op(node, f"{api}.l0", operands + words + [repeat] + strides,
                      (kind, _flag(gen, node, set_mask, f"{api} is_set_mask"),
                       mode if mode is not None else 0))
    if api in _OLD_COUNT and len(args) <= len(lead) + 1 and "is_set_mask" not in kwargs:
        return NOT_HANDLED
    values = bind(gen, node, api, lead + ("count", "is_set_mask"), args, kwargs,
                      {"is_set_mask": True})
    head, count = values[:len(lead)], values[len(lead)]
    operands = _locals(gen, node, api, zip(head[:ntensors], lead)) + head[ntensors:]
    return gen.op(node, api, operands + [count], () if mode is None else (mode,))


def _split_mode(lead_values: list, index: int) -> list:
    return lead_values[:index] + lead_values[index + 1:]


def _vector_with_mode(gen: CodeGenerator, node: ast.Call, api: str, ir_name: str, lead: tuple,
                      mode_index: int, enum_cls: type, args: list, kwargs: dict,
                      binary_params: bool, ntensors: int) -> Any:
    """cast / compare / compare_scalar / select: a mode argument among the
    leads, an attribute in the IR."""
    kwargs = _normalise(kwargs)
    mask_form = _is_mask_form(args, kwargs, len(lead))
    tail = ("mask", "repeat_times", "repeat_params", "is_set_mask") if mask_form else \
        ("count", "is_set_mask")
    values = bind(gen, node, api, lead + tail, args, kwargs, {"is_set_mask": True})
    head = values[:len(lead)]
    mode = _enum(gen, node, head[mode_index], enum_cls, f"{api} {lead[mode_index]}")
    head = _split_mode(head, mode_index)
    names = _split_mode(list(lead), mode_index)
    operands = _locals(gen, node, api, zip(head[:ntensors], names)) + head[ntensors:]
    if not mask_form:
        return gen.op(node, ir_name, operands + [values[len(lead)]], (mode,))
    mask, repeat, params, set_mask = values[len(lead):]
    kind, words = _mask(gen, node, mask)
    strides = _strides(gen, node, api, params, binary_params)
    return gen.op(node, f"{ir_name}.l0", operands + words + [repeat] + strides,
                  (kind, _flag(gen, node, set_mask, f"{api} is_set_mask"), mode))


def _select(gen: CodeGenerator, node: ast.Call, args: list, kwargs: dict) -> Any:
    lead = ("dst", "sel_mask", "src0", "src1", "sel_mode")
    src1 = args[3] if len(args) > 3 else kwargs.get("src1")
    if len(args) < 5 and "sel_mode" not in kwargs:
        raise gen.error(node, "select: the arguments match none of its forms: (dst, sel_mask, "
                              "src0, src1, sel_mode, count | mask, repeat_times, repeat_params), "
                              "(dst, src0, src1, repeat_times, repeat_params, sel_mode) or "
                              "(dst, sel_mask, src0, repeat_times, repeat_params)")
    scalar = not (isinstance(src1, Val) and src1.kind == "local")
    return _vector_with_mode(gen, node, "select", "selects" if scalar else "select", lead, 4,
                             core.SELMODE, args, kwargs, True, 3 if scalar else 4)


def _reduce(gen: CodeGenerator, node: ast.Call, api: str, args: list, kwargs: dict) -> Any:
    lead = ("dst", "src", "shared_tmp_buffer")
    is_sum = api == "reduce_sum"
    mask_form = any(k in kwargs for k in ("mask", "repeat_time", "src_rep_stride")) or \
        len(args) >= 6 or len(args) > 3 and isinstance(args[3], (list, tuple))
    tail = ("mask", "repeat_time", "src_rep_stride") if mask_form else ("count",)
    # reduce_sum: the docs' examples pass cal_index, which it ignores
    values = bind(gen, node, api, lead + tail + ("cal_index",), args, kwargs,
                      {"cal_index": False})
    tensors = _locals(gen, node, api, zip(values[:3], lead))
    cal = 0 if is_sum else _flag(gen, node, values[-1], f"{api} cal_index")
    if not mask_form:
        return gen.op(node, api, tensors + [values[3]], (cal,))
    kind, words = _mask(gen, node, values[3])
    return gen.op(node, f"{api}.l0", tensors + words + [values[4], values[5]], (kind, cal))


def _repeat_reduce(gen: CodeGenerator, node: ast.Call, api: str, args: list,
                   kwargs: dict) -> Any:
    """whole_reduce_*, block_reduce_*, pair_reduce_sum."""
    strides = ("dst_rep_stride", "src_blk_stride", "src_rep_stride")
    defaults: dict = {"is_set_mask": True}
    if api.startswith("whole"):
        names = ("dst", "src", "mask", "repeat_time") + strides
        if api.endswith("sum"):
            names += ("is_set_mask",)
        else:
            names += ("order", "is_set_mask")
            defaults["order"] = core.ReduceOrder.ORDER_VALUE_INDEX
    elif api.startswith("block"):
        names = ("dst", "src", "repeat", "mask") + strides
    else:
        names = ("dst", "src", "repeat_time", "mask") + strides + ("is_set_mask",)
    values = dict(zip(names, bind(gen, node, api, names, args, kwargs, defaults)))
    tensors = _locals(gen, node, api, ((values["dst"], "dst"), (values["src"], "src")))
    kind, words = _mask(gen, node, values["mask"])
    repeat = values.get("repeat_time", values.get("repeat"))
    order = _enum(gen, node, values["order"], core.ReduceOrder, f"{api} order") \
        if "order" in values else 0
    set_mask = _flag(gen, node, values.get("is_set_mask", True), f"{api} is_set_mask")
    return gen.op(node, api, tensors + words + [repeat] + [values[s] for s in strides],
                  (kind, set_mask, order))


def _set_vector_mask(gen: CodeGenerator, node: ast.Call, args: list, kwargs: dict) -> Any:
    kw = dict(kwargs)
    if "dtype" not in kw or "mode" not in kw:
        raise gen.error(node, "set_vector_mask: dtype= and mode= are keyword-only and required")
    dtype, mode = kw.pop("dtype"), kw.pop("mode")
    names = ("length",) if len(args) + len(kw) == 1 else ("mask_high", "mask_low")
    values = bind(gen, node, "set_vector_mask", names, args, kw)
    if len(values) == 1:
        operands, form = [values[0], 0], 0
    else:
        operands, form = [_u64(gen, node, v) for v in values], 1
    return gen.op(node, "set_vector_mask", operands,
                  (dtype_code(gen, node, dtype),
                   _enum(gen, node, mode, core.MaskMode, "set_vector_mask mode"), form))


def _data_copy_params(gen: CodeGenerator, node: ast.Call, args: list, kwargs: dict) -> Any:
    kwargs = {"repeat_params" if k in ("params", "intri_params") else k: v
              for k, v in kwargs.items()}
    dst, src, params = bind(gen, node, "data_copy", ("dst", "src", "repeat_params"), args,
                                kwargs)
    expect(gen, node, dst, ("global", "local"), "data_copy dst")
    expect(gen, node, src, ("global", "local"), "data_copy src")
    p = _struct(gen, node, params, (core.DataCopyParams,), "data_copy repeat_params")
    return gen.op(node, "data_copy.params", [dst, src, p.block_count, p.block_len, p.src_stride,
                                             p.dst_stride])


def _data_copy_pad_nd2nz(gen: CodeGenerator, node: ast.Call, args: list, kwargs: dict) -> Any:
    """data_copy_pad(dst, src, data_copy_params, nd2nz_params): UB -> L1
    (VECIN/VECOUT -> TSCM) with the ND -> NZ conversion, through a workspace
    in GM as CANN does it; positions are checked at run time."""
    dst, src, params, nd2nz = bind(gen, node, "data_copy_pad",
                                   ("dst", "src", "data_copy_params", "nd2nz_params"), args,
                                   kwargs)
    expect(gen, node, dst, ("local",), "data_copy_pad dst")
    expect(gen, node, src, ("local",), "data_copy_pad src")
    p = _struct(gen, node, params, (core.DataCopyParams, core.DataCopyExtParams),
                "data_copy_pad data_copy_params")
    z = _struct(gen, node, nd2nz, (cube.Nd2NzParams,), "data_copy_pad nd2nz_params")
    return gen.op(node, "cube.nd2nz_pad", [dst, src, p.block_count, p.block_len, p.src_stride,
                                           p.dst_stride,
                                           *(getattr(z, f) for f in cube.ND2NZ_FIELDS)])


def _data_copy_pad(gen: CodeGenerator, node: ast.Call, args: list, kwargs: dict) -> Any:
    if "nd2nz_params" in kwargs or len(args) > 3 and isinstance(args[3], StructValue) and \
            args[3].struct is cube.Nd2NzParams:
        return _data_copy_pad_nd2nz(gen, node, args, kwargs)
    dst, src, params, pad = bind(gen, node, "data_copy_pad",
                                     ("dst", "src", "data_copy_params", "pad_params"), args,
                                     kwargs, {"pad_params": None})
    expect(gen, node, dst, ("global", "local"), "data_copy_pad dst")
    expect(gen, node, src, ("global", "local"), "data_copy_pad src")
    p = _struct(gen, node, params, (core.DataCopyParams, core.DataCopyExtParams),
                "data_copy_pad data_copy_params")
    operands = [dst, src, p.block_count, p.block_len, p.src_stride, p.dst_stride]
    if pad is not None:
        if dst.kind != "local":
            raise gen.error(node, "data_copy_pad: pad_params apply to GM->UB copies only")
        q = _struct(gen, node, pad, (core.DataCopyPadParams, core.DataCopyPadExtParams),
                    "data_copy_pad pad_params")
        operands += [q.is_pad, q.left_padding, q.right_padding, q.padding_value]
    return gen.op(node, "data_copy_pad", operands)


def _copy(gen: CodeGenerator, node: ast.Call, args: list, kwargs: dict) -> Any:
    """copy(dst, src, mask, repeat_time, repeat_params, is_set_mask=True):
    PyAsc's form, strides from a CopyRepeatParams."""
    values = bind(gen, node, "copy", ("dst", "src", "mask", "repeat_times",
                                             "repeat_params", "is_set_mask"),
                         args, _normalise(kwargs), {"is_set_mask": True})
    tensors = _locals(gen, node, "copy", zip(values[:2], ("dst", "src")))
    kind, words = _mask(gen, node, values[2])
    p = _struct(gen, node, values[4], (core.CopyRepeatParams,), "copy repeat_params")
    strides = [p.dst_stride, p.src_stride, p.dst_repeat_size, p.src_repeat_size]
    return gen.op(node, "copy.l0", tensors + words + [values[3]] + strides,
                  (kind, _flag(gen, node, values[5], "copy is_set_mask"), 0))


def _duplicate(gen: CodeGenerator, node: ast.Call, args: list, kwargs: dict) -> Any:
    """duplicate(dst, scalar, mask, repeat_times, dst_block_stride,
    dst_repeat_stride, is_set_mask=True)."""
    values = bind(gen, node, "duplicate", ("dst", "scalar", "mask", "repeat_times",
                                                  "dst_block_stride", "dst_repeat_stride",
                                                  "is_set_mask"),
                         args, _normalise(kwargs), {"is_set_mask": True})
    (dst,) = _locals(gen, node, "duplicate", ((values[0], "dst"),))
    kind, words = _mask(gen, node, values[2])
    return gen.op(node, "duplicate.l0", [dst, values[1]] + words + values[3:6],
                  (kind, _flag(gen, node, values[6], "duplicate is_set_mask"), 0))


def api_call(gen: CodeGenerator, node: ast.Call, api: str, args: list, kwargs: dict) -> Any:
    """The IR of one of this module's APIs, or NOT_HANDLED."""
    handled = cube.api_call(gen, node, api, args, kwargs)  # cube unit
    if handled is not cube.NOT_HANDLED:
        return handled
    if api == "copy" and _is_mask_form(args, _normalise(kwargs), 2):
        return _copy(gen, node, args, kwargs)
    if api == "duplicate" and _is_mask_form(args, _normalise(kwargs), 2):
        return _duplicate(gen, node, args, kwargs)
    if api in _BINARY:
        return _vector(gen, node, api, ("dst", "src0", "src1"), args, kwargs, True)
    if api in _SCALAR:
        return _vector(gen, node, api, ("dst", "src", "scalar"), args, kwargs, False, tensors=2)
    if api in _UNARY:
        return _vector(gen, node, api, ("dst", "src"), args, kwargs, False)
    if api == "cast":
        return _vector_with_mode(gen, node, api, api, ("dst", "src", "round_mode"), 2,
                                 core.RoundMode, args, kwargs, False, 2)
    if api == "compare":
        return _vector_with_mode(gen, node, api, api, ("dst", "src0", "src1", "cmp_mode"), 3,
                                 core.CMPMODE, args, kwargs, True, 3)
    if api == "compare_scalar":
        return _vector_with_mode(gen, node, api, api,
                                 ("dst", "src0", "src1_scalar", "cmp_mode"), 3, core.CMPMODE,
                                 args, kwargs, False, 2)
    if api == "select":
        return _select(gen, node, args, kwargs)
    if api in ("reduce_sum", "reduce_max", "reduce_min"):
        return _reduce(gen, node, api, args, kwargs)
    if api.startswith(("whole_reduce_", "block_reduce_")) or api == "pair_reduce_sum":
        return _repeat_reduce(gen, node, api, args, kwargs)
    if api in ("set_mask_count", "set_mask_norm", "reset_mask", "trap"):
        bind(gen, node, api, (), args, kwargs)
        return gen.op(node, api, [])
    if api == "set_vector_mask":
        return _set_vector_mask(gen, node, args, kwargs)
    if api == "get_data_block_size_in_bytes":
        bind(gen, node, api, (), args, kwargs)
        return DATA_BLOCK_BYTES
    if api == "data_copy":
        if len(args) + len(kwargs) > 3:  # the enhanced form: lower_layout
            return NOT_HANDLED
        third = args[2] if len(args) > 2 else kwargs.get(
            "repeat_params", kwargs.get("params", kwargs.get("intri_params")))
        if isinstance(third, StructValue) and third.struct in cube.STRUCTS:  # cube unit
            dst = args[0] if args else kwargs.get("dst")
            src = args[1] if len(args) > 1 else kwargs.get("src")
            return cube.data_copy(gen, node, dst, src, third)
        if isinstance(third, StructValue):
            return _data_copy_params(gen, node, args, kwargs)
        return NOT_HANDLED
    if api == "data_copy_pad":
        return _data_copy_pad(gen, node, args, kwargs)
    if api == "dump_tensor":
        tensor, desc, size, shape = bind(gen, node, api, ("tensor", "desc", "dump_size",
                                                              "shape_info"), args, kwargs,
                                             {"shape_info": None})
        expect(gen, node, tensor, ("global", "local"), "dump_tensor tensor")
        if shape is not None:
            _struct(gen, node, shape, (core.ShapeInfo,), "dump_tensor shape_info")
        return gen.op(node, api, [tensor, desc, size])
    return NOT_HANDLED
