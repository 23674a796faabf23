"""AIPP, the AI core's image preprocessing, with PyAsc's names:
``set_aipp_functions`` (one image plane, or YUV420SP's Y and UV planes),
``load_image_to_local`` and their parameter structs. The IR rows are the
AIPP block of src/compiler/api_table.def; the semantics (crop, channel swap,
colour-space and data-type conversion, padding, channel padding) are
src/compiler/rt/aipp.h, described in docs/kernel-reference-semantics.md ("AIPP")."""

from __future__ import annotations

import ast
import enum
from typing import TYPE_CHECKING, Any

from pyasc import _C
from pyasc.language import core
from pyasc.language.ir.args import bind, dtype_code, expect
from pyasc.language.ir.values import Val, describe

if TYPE_CHECKING:
    from pyasc.language.codegen import CodeGenerator

NOT_HANDLED = object()

#: the APIs this module lowers (their KernelBuiltin names)
APIS = ("set_aipp_functions", "load_image_to_local")


class AippInputFormat(enum.IntEnum):
    """Image formats ``set_aipp_functions`` reads (PyAsc's values)."""

    YUV420SP_U8 = 0
    XRGB8888_U8 = 1
    RGB888_U8 = 4
    YUV400_U8 = 9


class AippPaddingParams(core.ParamStruct):
    """Padding of the loaded image: mode 0 a constant per channel (left and
    right only), mode 1 a copy of the nearest row or column."""


class AippSwapParams(core.ParamStruct):
    """Channel swaps: R/B (RGB888, XRGB8888), U/V (YUV420SP), X moved last
    (XRGB8888)."""


class AippSingleLineParams(core.ParamStruct):
    """Single-line mode: only the first row of the crop is loaded."""


class AippDataTypeConvParams(core.ParamStruct):
    """Data-type conversion per channel: int8 ``pixel - mean``, float16
    ``(pixel - mean - min) * var``."""


class AippChannelPaddingParams(core.ParamStruct):
    """Channel padding: mode 0 to 32 bytes per pixel, mode 1 to 4 channels,
    with ``c_padding_value``."""


class AippColorSpaceConvParams(core.ParamStruct):
    """Colour-space conversion: ``((M @ (pixel - bias_in)) >> 8) + bias_out``,
    clipped to [0, 255]."""


class AippParams(core.ParamStruct):
    """``set_aipp_functions``' configuration: the output dtype (int8 or
    float16) and one struct of each kind (defaults where None)."""


class LoadImageToLocalParams(core.ParamStruct):
    """``load_image_to_local``: the crop (sizes and start in pixels), the
    source width and the padding of each side."""


#: Fields and defaults, in PyAsc's order.
STRUCTS: dict[type, tuple[tuple[str, Any], ...]] = {
    AippPaddingParams: (("padding_mode", 0), ("padding_value_ch0", 0), ("padding_value_ch1", 0),
                        ("padding_value_ch2", 0), ("padding_value_ch3", 0)),
    AippSwapParams: (("is_swap_rb", False), ("is_swap_uv", False), ("is_swap_ax", False)),
    AippSingleLineParams: (("is_single_line_copy", False),),
    AippDataTypeConvParams: tuple((f"dtc_{k}_ch{c}", d) for k, d in (("mean", 0), ("min", 0.0),
                                                                      ("var", 1.0))
                                  for c in range(3)) + (("dtc_round_mode", 0),),
    AippChannelPaddingParams: (("c_padding_mode", 0), ("c_padding_value", 0)),
    AippColorSpaceConvParams: (("is_enable_csc", False),) +
    tuple((f"csc_matrix_r{r}_c{c}", 0) for r in range(3) for c in range(3)) +
    tuple((f"csc_bias_{k}_{c}", 0) for k in ("in", "out") for c in range(3)),
    LoadImageToLocalParams: (("horiz_size", 2), ("vert_size", 2), ("horiz_start_pos", 0),
                             ("vert_start_pos", 0), ("src_horiz_size", 2), ("top_pad_size", 0),
                             ("bot_pad_size", 0), ("left_pad_size", 0), ("right_pad_size", 0),
                             ("sid", 0)),
}

#: AippParams' members, in the order of set_aipp_functions' scalar operands
_MEMBERS = (("padding_params", AippPaddingParams), ("swap_params", AippSwapParams),
            ("single_line_params", AippSingleLineParams), ("dtc_params", AippDataTypeConvParams),
            ("c_padding_params", AippChannelPaddingParams),
            ("csc_params", AippColorSpaceConvParams))



def _struct(gen: CodeGenerator, node: ast.Call, cls: type, args: list, kwargs: dict) -> Any:
    fields = STRUCTS[cls]
    names = tuple(n for n, _ in fields)
    values = bind(gen, node, cls.__name__, names, args, kwargs, dict(fields))
    for name, value in zip(names, values):
        if not isinstance(value, (bool, int, float)) and not (
                isinstance(value, Val) and value.kind in ("int", "bool", "float")):
            raise gen.error(node, f"{cls.__name__}: {name} must be a number, not "
                                  f"{describe(value)}")
    return core.StructValue(cls, dict(zip(names, values)))


def _params(gen: CodeGenerator, node: ast.Call, args: list, kwargs: dict) -> Any:
    names = ("dtype",) + tuple(n for n, _ in _MEMBERS)
    values = bind(gen, node, "AippParams", names, args, kwargs,
                         {n: None for n, _ in _MEMBERS})
    dtype = values[0]
    try:
        dt = _C.dtype(dtype)
    except (TypeError, _C.Error):
        dt = None
    if isinstance(dtype, Val) or dt not in (_C.int8, _C.float16):
        raise gen.error(node, f"AippParams dtype must be pyasc.int8 or pyasc.float16, not "
                              f"{describe(dtype)}")
    fields: dict[str, Any] = {"dtype": dt}
    for (name, cls), value in zip(_MEMBERS, values[1:]):
        if value is None:
            value = core.StructValue(cls, dict(STRUCTS[cls]))
        if not isinstance(value, core.StructValue) or value.struct is not cls:
            raise gen.error(node, f"AippParams {name} must be a pyasc.{cls.__name__}, not "
                                  f"{describe(value)}")
        fields[name] = value
    return core.StructValue(AippParams, fields)


def _set_aipp_functions(gen: CodeGenerator, node: ast.Call, args: list, kwargs: dict) -> Any:
    two = len(args) == 4 or "src1" in kwargs
    names = ("src0", "src1", "input_format", "config") if two else \
        ("src0", "input_format", "config")
    values = dict(zip(names, bind(gen, node, "set_aipp_functions", names, args, kwargs)))
    src0 = expect(gen, node, values["src0"], ("global",), "set_aipp_functions src0")
    src1 = expect(gen, node, values["src1"], ("global",), "set_aipp_functions src1") \
        if two else src0
    fmt = values["input_format"]
    if isinstance(fmt, Val) or isinstance(fmt, bool) or not isinstance(fmt, int) or \
            fmt not in AippInputFormat._value2member_map_:
        raise gen.error(node, f"set_aipp_functions input_format must be a pyasc.AippInputFormat, "
                              f"not {describe(fmt)}")
    if (fmt == AippInputFormat.YUV420SP_U8) != two:
        raise gen.error(node, "set_aipp_functions: YUV420SP_U8 takes src0 and src1 (its UV "
                              "plane); the other formats take src0 alone")
    config = values["config"]
    if not isinstance(config, core.StructValue) or config.struct is not AippParams:
        raise gen.error(node, f"set_aipp_functions config must be a pyasc.AippParams, not "
                              f"{describe(config)}")
    scalars = [getattr(getattr(config, name), field)
               for name, cls in _MEMBERS for field, _ in STRUCTS[cls]]
    return gen.op(node, "cube.aipp_set", [src0, src1, *scalars],
                  (int(fmt), 2 if two else 1, dtype_code(gen, node, config.dtype)))


def _load_image_to_local(gen: CodeGenerator, node: ast.Call, args: list, kwargs: dict) -> Any:
    dst, params = bind(gen, node, "load_image_to_local", ("dst", "load_data_params"),
                           args, kwargs)
    expect(gen, node, dst, ("local",), "load_image_to_local dst")
    if not isinstance(params, core.StructValue) or params.struct is not LoadImageToLocalParams:
        raise gen.error(node, f"load_image_to_local load_data_params must be a "
                              f"pyasc.LoadImageToLocalParams, not {describe(params)}")
    values = [getattr(params, n) for n, _ in STRUCTS[LoadImageToLocalParams]]
    for (name, _), value in zip(STRUCTS[LoadImageToLocalParams], values):
        gen.check_int(node, value, f"LoadImageToLocalParams {name}")
    # sid is reserved (upstream: "use the default"): checked, not simulated
    return gen.op(node, "cube.aipp_load", [dst, *values[:9]])


def call(gen: CodeGenerator, node: ast.Call, func: Any, args: list, kwargs: dict) -> Any:
    """The IR of a call of an AIPP struct or one of APIS, or NOT_HANDLED."""
    if func is AippParams:
        return _params(gen, node, args, kwargs)
    if isinstance(func, type) and func in STRUCTS:
        return _struct(gen, node, func, args, kwargs)
    if not isinstance(func, core.KernelBuiltin) or func.name not in APIS:
        return NOT_HANDLED
    if func.name == "set_aipp_functions":
        return _set_aipp_functions(gen, node, args, kwargs)
    return _load_image_to_local(gen, node, args, kwargs)
