"""The cube unit's basic APIs in kernels: ``load_data`` (2D, transposed,
sparse), ``mmad`` (dense and 4:2 sparse),
``fixpipe`` and the ND<->NZ forms of ``data_copy`` (``Nd2NzParams``,
``Nz2NdParamsFull``, ``DataCopyCO12DstParams``), with PyAsc's names,
parameter structs and enums. The simulator's semantics and layouts are in
``src/compiler/rt/cube.h``; the IR ops are the ``cube.*`` rows of
``src/compiler/ir_ops.c``."""

from __future__ import annotations

import ast
import enum
import struct
from typing import TYPE_CHECKING, Any

from pyasc.language import core, img2col
from pyasc.language.matmul_enums import CO2Layout
from pyasc.language.ir.args import bind, constant, expect
from pyasc.language.ir.values import Val, describe

if TYPE_CHECKING:
    from pyasc.language.codegen import CodeGenerator

NOT_HANDLED = object()


class CubeFormat(enum.IntEnum):
    """Matrix layouts in the cube's buffers: row-major ND, fractal NZ."""

    ND = 0
    NZ = 1


class QuantModes(enum.IntEnum):
    """fixpipe's conversions of L0C results (PyAsc's values)."""

    NoQuant = 0
    F322F16 = 1
    F322BF16 = 2
    DEQF16 = 3
    VDEQF16 = 4
    QF322B8_PRE = 5
    VQF322B8_PRE = 6
    REQ8 = 7
    VREQ8 = 8


class FixpipeConfig(enum.IntEnum):
    """fixpipe's output layout: row-major (ND) or NZ."""

    cfg_row_major = 0
    cfg_nz = 1


class LoadData2DParams(core.ParamStruct):
    """``load_data``: repeat_times 512-byte fractals from start_index, src_stride
    fractals apart, written dst_gap fractals apart, each 16x16 fractal
    transposed when if_transpose."""


class LoadData2dTransposeParams(core.ParamStruct):
    """``load_data_with_transpose``: repeat_times squares from start_index,
    src_stride squares apart, written dst_gap 512-byte units apart; each
    square transposed (dst_frac_gap: 8- and 32-bit types only)."""


class LoadData2dTransposeParamsV2(core.ParamStruct):
    """``load_data_with_transpose``'s V2 parameters (src_frac_gap added)."""


class MmadParams(core.ParamStruct):
    """``mmad``: C (m x n) = A (m x k) @ B (k x n); cmatrix_init_val False
    accumulates into C."""


class FixpipeParamsV220(core.ParamStruct):
    """``fixpipe``: n_size x m_size from L0C (src_stride rows between its column
    blocks) to dst (dst_stride elements between rows), with quantisation and
    relu."""


class Nd2NzParams(core.ParamStruct):
    """``data_copy`` GM/UB (ND) -> L1 (NZ)."""


class Nz2NdParamsFull(core.ParamStruct):
    """``data_copy`` UB (NZ, C0 of 16) -> GM (ND)."""


class DataCopyCO12DstParams(core.ParamStruct):
    """``data_copy`` L0C -> GM/UB (fixpipe's older form)."""


#: Fields and defaults, in PyAsc's order.
STRUCTS = {
    LoadData2DParams: (("start_index", 0), ("repeat_times", 1), ("src_stride", 0), ("sid", 0),
                       ("dst_gap", 0), ("if_transpose", False), ("addr_mode", 0)),
    LoadData2dTransposeParams: (("start_index", 0), ("repeat_times", 0), ("src_stride", 0),
                                ("dst_gap", 0), ("dst_frac_gap", 0), ("addr_mode", 0)),
    LoadData2dTransposeParamsV2: (("start_index", 0), ("repeat_times", 0), ("src_stride", 0),
                                  ("dst_gap", 0), ("dst_frac_gap", 0), ("src_frac_gap", 0),
                                  ("addr_mode", 0)),
    MmadParams: (("m", 0), ("n", 0), ("k", 0), ("is_bias", False), ("fm_offset", 0),
                 ("en_ssparse", False), ("en_winograd_a", False), ("en_winograd_b", False),
                 ("unit_flag", 0), ("cmatrix_source", False), ("cmatrix_init_val", True)),
    FixpipeParamsV220: (("n_size", 0), ("m_size", 0), ("src_stride", 0), ("dst_stride", 0),
                        ("quant_pre", QuantModes.NoQuant), ("deq_scalar", 0), ("nd_num", 1),
                        ("src_nd_stride", 0), ("dst_nd_stride", 0), ("relu_en", False),
                        ("unit_flag", 0), ("is_channel_split", False)),
    Nd2NzParams: (("nd_num", None), ("n_value", None), ("d_value", None),
                  ("src_nd_matrix_stride", None), ("src_d_value", None),
                  ("dst_nz_c0_stride", None), ("dst_nz_n_stride", None),
                  ("dst_nz_matrix_stride", None)),
    Nz2NdParamsFull: (("nd_num", None), ("n_value", None), ("d_value", None),
                      ("src_nd_matrix_stride", None), ("src_n_stride", None),
                      ("dst_d_stride", None), ("dst_nd_matrix_stride", None)),
    DataCopyCO12DstParams: (("n_size", None), ("m_size", None), ("dst_stride", None),
                            ("src_stride", None), ("quant_pre", QuantModes.NoQuant),
                            ("relu_pre", 0), ("channel_split", False), ("nz2nd_en", False)),
}

ND2NZ_FIELDS = tuple(n for n, _ in STRUCTS[Nd2NzParams])
_NZ2ND_FIELDS = tuple(n for n, _ in STRUCTS[Nz2NdParamsFull])



def _struct(gen: CodeGenerator, node: ast.AST, value: Any, cls: type, what: str) -> Any:
    if not isinstance(value, core.StructValue) or value.struct is not cls:
        raise gen.error(node, f"{what} must be a pyasc.{cls.__name__}, not {describe(value)}")
    return value


def _const_flag(gen: CodeGenerator, node: ast.AST, value: Any, what: str) -> bool:
    if isinstance(value, Val):
        raise gen.error(node, f"{what} must be a compile-time bool")
    return bool(value)


def _load_data(gen: CodeGenerator, node: ast.Call, args: list, kwargs: dict) -> Any:
    dst, src, params = bind(gen, node, "load_data", ("dst", "src", "params"), args, kwargs)
    # the img2col and LoadData2DParamsV2 forms
    handled = img2col.load_data(gen, node, dst, src, params)
    if handled is not img2col.NOT_HANDLED:
        return handled
    expect(gen, node, dst, ("local",), "load_data dst")
    expect(gen, node, src, ("local", "global"), "load_data src")
    p = _struct(gen, node, params, LoadData2DParams, "load_data params")
    name = "cube.load_data.gm" if src.kind == "global" else "cube.load_data"
    return gen.op(node, name, [dst, src, p.start_index, p.repeat_times, p.src_stride, p.dst_gap,
                               p.if_transpose])


def _load_data_t(gen: CodeGenerator, node: ast.Call, args: list, kwargs: dict) -> Any:
    """load_data_with_transpose: a square is one fractal for 16-bit types and
    two for int8 and float32 (dst_frac_gap apart in dst)."""
    api = "load_data_with_transpose"
    dst, src, params = bind(gen, node, api, ("dst", "src", "params"), args, kwargs)
    expect(gen, node, dst, ("local",), f"{api} dst")
    expect(gen, node, src, ("local",), f"{api} src")
    if not isinstance(params, core.StructValue) or params.struct not in (
            LoadData2dTransposeParams, LoadData2dTransposeParamsV2):
        raise gen.error(node, f"{api} params must be a pyasc.LoadData2dTransposeParams or "
                              f"LoadData2dTransposeParamsV2, not {describe(params)}")
    gap = getattr(params, "src_frac_gap", 0)
    if isinstance(gap, Val) or gap != 0:
        raise gen.error(node, f"{api}: src_frac_gap must be 0 (a compile-time 0): the source's "
                              "fractals of a square are consecutive")
    return gen.op(node, "cube.load_data_t", [dst, src, params.start_index, params.repeat_times,
                                             params.src_stride, params.dst_gap,
                                             params.dst_frac_gap])


def _load_data_sparse(gen: CodeGenerator, node: ast.Call, args: list, kwargs: dict) -> Any:
    """load_data_with_sparse(dst, src, idx, load_data_params): B1 -> B2 with
    the 2-bit indices of the dense int8 fractals (rt/cube_sparse.h)."""
    api = "load_data_with_sparse"
    dst, src, idx, params = bind(gen, node, api, ("dst", "src", "idx", "load_data_params"),
                                     args, kwargs)
    for value, what in ((dst, "dst"), (src, "src"), (idx, "idx")):
        expect(gen, node, value, ("local",), f"{api} {what}")
    p = _struct(gen, node, params, LoadData2DParams, f"{api} load_data_params")
    if not isinstance(p.if_transpose, Val) and p.if_transpose:
        raise gen.error(node, f"{api} cannot transpose (if_transpose must be False)")
    return gen.op(node, "cube.load_sparse", [dst, src, idx, p.start_index, p.repeat_times,
                                             p.src_stride, p.dst_gap, p.if_transpose])


def _mmad_sparse(gen: CodeGenerator, node: ast.Call, args: list, kwargs: dict) -> Any:
    """mmad_with_sparse(dst, fm, filter, mmad_params): int8 A (m x k) at the
    positions B's indices pick, times the dense B, into int32 C."""
    api = "mmad_with_sparse"
    dst, fm, flt, params = bind(gen, node, api, ("dst", "fm", "filter", "mmad_params"),
                                    args, kwargs)
    for value, what in ((dst, "dst"), (fm, "fm"), (flt, "filter")):
        expect(gen, node, value, ("local",), f"{api} {what}")
    p = _struct(gen, node, params, MmadParams, f"{api} mmad_params")
    return gen.op(node, "cube.mmad_sparse", [dst, fm, flt, p.m, p.n, p.k, p.cmatrix_init_val])


def _mmad(gen: CodeGenerator, node: ast.Call, args: list, kwargs: dict) -> Any:
    if len(args) + len(kwargs) >= 5:
        dst, fm, flt, bias, params = bind(gen, node, "mmad",
                                              ("dst", "fm", "filter", "bias", "params"), args,
                                              kwargs)
        expect(gen, node, bias, ("local", "global"), "mmad bias")
    else:
        dst, fm, flt, params = bind(gen, node, "mmad", ("dst", "fm", "filter", "params"),
                                        args, kwargs)
        bias = None
    for value, what in ((dst, "dst"), (fm, "fm"), (flt, "filter")):
        expect(gen, node, value, ("local",), f"mmad {what}")
    p = _struct(gen, node, params, MmadParams, "mmad params")
    # the bias replaces C's old value: PyAsc's cmatrix_init_val then means
    # nothing; without a bias cmatrix_init_val=False accumulates
    if bias is not None:
        return gen.op(node, "cube.mmad.bias", [dst, fm, flt, bias, p.m, p.n, p.k, True])
    return gen.op(node, "cube.mmad", [dst, fm, flt, p.m, p.n, p.k, p.cmatrix_init_val])


def _quant(gen: CodeGenerator, node: ast.AST, value: Any) -> int:
    if isinstance(value, Val):
        raise gen.error(node, "quant_pre must be a compile-time QuantModes value")
    try:
        return int(QuantModes(int(value)))
    except (TypeError, ValueError):
        raise gen.error(node, f"quant_pre must be a pyasc.QuantModes, not {value!r}") from None


def _deq(value: Any) -> Any:
    """deq_scalar: PyAsc passes the float's bits as an integer (uint64 with
    the fp32 pattern in its low word); a Python float is taken as the scale."""
    if isinstance(value, int) and not isinstance(value, bool) and value > 0xFFFF:
        return struct.unpack("<f", struct.pack("<I", value & 0xFFFFFFFF))[0]
    return float(value) if isinstance(value, (int, float)) else value


def fixpipe_config(gen: CodeGenerator, node: ast.Call, args: list, kwargs: dict) -> Any:
    """FixpipeConfig(layout) in a kernel, as PyAsc builds it: CO2Layout.NZ
    is cfg_nz, CO2Layout.ROW_MAJOR cfg_row_major."""
    (layout,) = bind(gen, node, "FixpipeConfig", ("layout",), args, kwargs)
    if isinstance(layout, FixpipeConfig):
        return layout
    if not isinstance(layout, CO2Layout) or layout is CO2Layout.COLUMN_MAJOR:
        raise gen.error(node, f"FixpipeConfig: layout must be CO2Layout.NZ or "
                              f"CO2Layout.ROW_MAJOR, not {describe(layout)}")
    return FixpipeConfig.cfg_nz if layout is CO2Layout.NZ else FixpipeConfig.cfg_row_major


def _fixpipe(gen: CodeGenerator, node: ast.Call, args: list, kwargs: dict) -> Any:
    names = ("dst", "src", "params", "config")
    if "cbuf_workspace" in kwargs or len(args) > 2 and isinstance(args[2], Val):
        names = ("dst", "src", "cbuf_workspace", "params", "config")
    values = bind(gen, node, "fixpipe", names, args, kwargs,
                  {"config": FixpipeConfig.cfg_row_major})
    dst, src, params, config = values[0], values[1], values[-2], values[-1]
    expect(gen, node, dst, ("global", "local"), "fixpipe dst")
    expect(gen, node, src, ("local",), "fixpipe src")
    p = _struct(gen, node, params, FixpipeParamsV220, "fixpipe params")
    nz = constant(gen, node, config, "fixpipe config")
    operands = [dst, src, p.n_size, p.m_size, p.src_stride, p.dst_stride,
                _quant(gen, node, p.quant_pre), p.relu_en, _deq(p.deq_scalar), p.nd_num,
                p.src_nd_stride, p.dst_nd_stride]
    if len(names) == 5:  # the quant vector's workspace in L1 (read by the vector quant modes)
        operands.append(expect(gen, node, values[2], ("local",), "fixpipe cbuf_workspace"))
    split = _const_flag(gen, node, p.is_channel_split, "is_channel_split")
    # iattr: bit 0 an NZ output, bit 1 a channel-split one (float in 16 x 8 fractals)
    return gen.op(node, "cube.fixpipe", operands, ((1 if nz else 0) | (2 if split else 0),))


def data_copy(gen: CodeGenerator, node: ast.Call, dst: Any, src: Any, p: Any) -> Any:
    """data_copy with one of the cube's parameter structs, or NOT_HANDLED."""
    if p.struct is Nd2NzParams:
        expect(gen, node, dst, ("local",), "data_copy dst")
        expect(gen, node, src, ("local", "global"), "data_copy src")
        return gen.op(node, "cube.nd2nz", [dst, src, *(getattr(p, f) for f in ND2NZ_FIELDS)])
    if p.struct is Nz2NdParamsFull:
        if hasattr(p, "handle"):
            raise gen.error(node, "data_copy: this Nz2NdParamsFull was built with an 8th "
                                  "argument, which PyAsc takes as an IR handle in place of "
                                  "the 7 fields; build it with the 7 fields")
        expect(gen, node, dst, ("global",), "data_copy dst")
        expect(gen, node, src, ("local",), "data_copy src")
        return gen.op(node, "cube.nz2nd", [dst, src, *(getattr(p, f) for f in _NZ2ND_FIELDS)])
    if p.struct is DataCopyCO12DstParams:
        expect(gen, node, dst, ("global", "local"), "data_copy dst")
        expect(gen, node, src, ("local",), "data_copy src")
        nz = not _const_flag(gen, node, p.nz2nd_en, "nz2nd_en")
        if _const_flag(gen, node, p.channel_split, "channel_split"):
            raise gen.error(node, "data_copy: DataCopyCO12DstParams channel_split is not "
                                  "simulated (pass False)")
        gen.check_int(node, p.relu_pre, "DataCopyCO12DstParams relu_pre")
        # the scalar quant modes read set_fix_pipe_pre_quant_flag's scale when run
        return gen.op(node, "cube.co12", [dst, src, p.n_size, p.m_size, p.dst_stride,
                                          p.src_stride, p.relu_pre],
                      (_quant(gen, node, p.quant_pre), 1 if nz else 0))
    return NOT_HANDLED


#: the loads, mmad and fixpipe: one lowering each
_LOWERING = {"load_data": _load_data, "load_data_with_transpose": _load_data_t,
             "load_data_with_sparse": _load_data_sparse, "mmad_with_sparse": _mmad_sparse,
             "mmad": _mmad, "fixpipe": _fixpipe}
#: mmad's mode setters and their parameter's name
_MODE_APIS = {"set_hf32_mode": "hf32_mode", "set_hf32_trans_mode": "trans_mode",
              "set_mm_layout_transform": "mm_layout_mode"}


def api_call(gen: CodeGenerator, node: ast.Call, api: str, args: list, kwargs: dict) -> Any:
    """The IR of a cube API, or NOT_HANDLED."""
    if api in ("ascend_is_aic", "ascend_is_aiv"):
        # a compile-time answer when the launch has cores of one kind
        bind(gen, node, api, (), args, kwargs)
        mode = int(getattr(gen, "core_mode", 0))
        if mode in (1, 3):
            return (mode == 1) == (api == "ascend_is_aic")
        return gen.op(node, "core.is_aic" if api == "ascend_is_aic" else "core.is_aiv", [])
    if api in _MODE_APIS:  # mmad's mode registers: a bool each
        (flag,) = bind(gen, node, api, (_MODE_APIS[api],), args, kwargs)
        return gen.op(node, "cube." + api, [gen.to_ir(node, flag)])
    if api in ("get_sub_block_idx", "get_sub_block_num"):
        bind(gen, node, api, (), args, kwargs)
        return gen.op(node, "core.sub_block_" + api[-3:], [])
    if api in ("cross_core_set_flag", "cross_core_wait_flag"):
        flag, mode, pipe = bind(gen, node, api, ("flag_id", "mode_id", "pipe"), args, kwargs,
                                    {"mode_id": 0, "pipe": core.PipeID.PIPE_S})
        gen.check_int(node, flag, f"{api} flag_id")
        name = "cube.cross_wait" if api.endswith("wait_flag") else "cube.cross_set"
        return gen.op(node, name, [flag], (constant(gen, node, pipe, f"{api} pipe"),
                                           constant(gen, node, mode, f"{api} mode_id")))
    if api in img2col.APIS:  # the img2col loads' registers
        return img2col.api_call(gen, node, api, args, kwargs)
    if api in _LOWERING:
        return _LOWERING[api](gen, node, args, kwargs)
    return NOT_HANDLED
