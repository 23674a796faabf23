"""The cube unit's img2col loads in kernels: ``load_data`` with
``LoadData3DParamsV1``, ``LoadData3DParamsV2`` and ``LoadData3DParamsV2Pro``
(A1/B1 -> A2/B2), their registers (``set_load_data_boundary``,
``set_load_data_padding_value``, ``set_load_data_repeat`` with
``LoadDataRepeatParam``), and ``load_data`` with ``LoadData2DParamsV2``.
The semantics are in ``src/compiler/rt/img2col.h``; the IR ops are the
img2col block of ``src/compiler/api_table.def``."""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING, Any

from pyasc.language import core
from pyasc.language.ir.args import bind, expect
from pyasc.language.ir.values import Val, describe

if TYPE_CHECKING:
    from pyasc.language.codegen import CodeGenerator

NOT_HANDLED = object()


class LoadData3DParamsV1(core.ParamStruct):
    """img2col, one 16 x C0 fractal per repeat: the window from (left_top_h,
    left_top_w), filter point (fetch_filter_h, fetch_filter_w) of channel
    block c1_index; repeat_mode 0 walks the filter, 1 the windows."""


class LoadData3DParamsV2(core.ParamStruct):
    """img2col of the m_extension x k_extension block at (m_start_pt,
    k_start_pt) of a feature map's convolution matrix."""


class LoadData3DParamsV2Pro(core.ParamStruct):
    """LoadData3DParamsV2 with its fields packed in ext_config and
    filter_config; the feature map's shape and padding come from the
    registers the last V1/V2 load set."""


class LoadData2DParamsV2(core.ParamStruct):
    """``load_data``: m_step x k_step fractals from (m_start_position,
    k_start_position) of an NZ matrix, with strides."""


class LoadDataRepeatParam(core.ParamStruct):
    """``set_load_data_repeat``: how many times V2 loads repeat, how far
    apart, along M (mode 0) or K (mode 1)."""


_PADS = ("pad_list", (0, 0, 0, 0))
#: Fields and defaults, in PyAsc's order.
STRUCTS = {
    LoadData3DParamsV1: (_PADS, ("l1_h", 1), ("l1_w", 1), ("c1_index", 0), ("fetch_filter_w", 0),
                         ("fetch_filter_h", 0), ("left_top_w", 0), ("left_top_h", 0),
                         ("stride_w", 1), ("stride_h", 1), ("filter_w", 1), ("filter_h", 1),
                         ("dilation_filter_w", 1), ("dilation_filter_h", 1), ("jump_stride", 1),
                         ("repeat_mode", 0), ("repeat_time", 1), ("c_size", 0), ("pad_value", 0)),
    LoadData3DParamsV2: (_PADS, ("l1_h", 1), ("l1_w", 1), ("channel_size", 1), ("k_extension", 1),
                         ("m_extension", 1), ("k_start_pt", 0), ("m_start_pt", 0), ("stride_w", 1),
                         ("stride_h", 1), ("filter_w", 1), ("filter_h", 1),
                         ("dilation_filter_w", 1), ("dilation_filter_h", 1),
                         ("en_transpose", False), ("pad_value", 0), ("filter_size_w", False),
                         ("filter_size_h", False), ("f_matrix_ctrl", False)),
    LoadData3DParamsV2Pro: (("channel_size", 0), ("en_transpose", False), ("en_small_k", False),
                            ("filter_size_w", False), ("filter_size_h", False),
                            ("f_matrix_ctrl", False), ("ext_config", 0),
                            ("filter_config", 0x10101010101)),
    LoadData2DParamsV2: (("m_start_position", 0), ("k_start_position", 0), ("m_step", 0),
                         ("k_step", 0), ("src_stride", 0), ("dst_stride", 0),
                         ("if_transpose", False), ("sid", 0)),
    LoadDataRepeatParam: (("repeat_time", 1), ("repeat_stride", 0), ("repeat_mode", 0)),
}

#: the load_data forms this module lowers: struct -> IR op
LOADS = (LoadData3DParamsV1, LoadData3DParamsV2, LoadData3DParamsV2Pro, LoadData2DParamsV2)
APIS = ("set_load_data_boundary", "set_load_data_padding_value", "set_load_data_repeat")



def _fields(p: Any) -> list:
    """The struct's fields in order, pad_list spread into its four values."""
    out: list = []
    for name in p.fields:
        value = getattr(p, name)
        if name == "pad_list":
            out.extend(value)
        else:
            out.append(value)
    return out


def _pads(gen: CodeGenerator, node: ast.AST, p: Any) -> None:
    pads = getattr(p, "pad_list", None)
    if pads is None:
        return
    if not isinstance(pads, (list, tuple)) or len(pads) != 4:
        raise gen.error(node, f"{p.struct.__name__}: pad_list must be a list of 4 ints "
                              f"[left, right, top, bottom], not {describe(pads)}")
    for v in pads:
        gen.check_int(node, v, "pad_list values")


def _u64(gen: CodeGenerator, node: ast.AST, value: Any, what: str) -> Any:
    """A packed uint64 config as the int64 of the same bits."""
    if isinstance(value, Val):
        return value
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < 1 << 64:
        raise gen.error(node, f"{what} must be an int in [0, 2**64), not {value!r}")
    return value - (1 << 64) if value >= 1 << 63 else value


def load_data(gen: CodeGenerator, node: ast.Call, dst: Any, src: Any, p: Any) -> Any:
    """load_data with one of this module's structs (p), or NOT_HANDLED."""
    if not isinstance(p, core.StructValue) or p.struct not in LOADS:
        return NOT_HANDLED
    expect(gen, node, dst, ("local",), "load_data dst")
    _pads(gen, node, p)
    if p.struct is LoadData2DParamsV2:
        expect(gen, node, src, ("local", "global"), "load_data src")
        name = "cube.load2d_v2.gm" if src.kind == "global" else "cube.load2d_v2"
        return gen.op(node, name, [dst, src, *_fields(p)])
    expect(gen, node, src, ("local",), "load_data src")
    if p.struct is LoadData3DParamsV2Pro:
        f = _fields(p)
        f[6] = _u64(gen, node, f[6], "LoadData3DParamsV2Pro ext_config")
        f[7] = _u64(gen, node, f[7], "LoadData3DParamsV2Pro filter_config")
        return gen.op(node, "cube.load3d_v2pro", [dst, src, *f])
    name = "cube.load3d_v1" if p.struct is LoadData3DParamsV1 else "cube.load3d_v2"
    return gen.op(node, name, [dst, src, *_fields(p)])


def api_call(gen: CodeGenerator, node: ast.Call, api: str, args: list, kwargs: dict) -> Any:
    """The IR of a load-data register API, or NOT_HANDLED."""
    if api == "set_load_data_boundary":
        (value,) = bind(gen, node, api, ("boundary",), args, kwargs)
        gen.check_int(node, value, f"{api} boundary")
        return gen.op(node, "cube.set_l3d_boundary", [value])
    if api == "set_load_data_padding_value":
        (value,) = bind(gen, node, api, ("pad_value",), args, kwargs)
        if not isinstance(value, (int, float)) and not (isinstance(value, Val) and
                                                        value.kind in ("int", "bool", "float")):
            raise gen.error(node, f"{api}: pad_value must be a number, not {describe(value)}")
        return gen.op(node, "cube.set_l3d_pad", [value])
    if api == "set_load_data_repeat":
        (param,) = bind(gen, node, api, ("param",), args, kwargs)
        if not isinstance(param, core.StructValue) or param.struct is not LoadDataRepeatParam:
            raise gen.error(node, f"{api} param must be a pyasc.LoadDataRepeatParam, not "
                                  f"{describe(param)}")
        return gen.op(node, "cube.set_l3d_repeat", _fields(param))
    return NOT_HANDLED
