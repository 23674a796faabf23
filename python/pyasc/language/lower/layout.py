"""Lowering of the layout APIs (PyAsc's signatures): transpose's
TransposeParamsExt form and trans_data_to_5hd with lists of LocalTensors.
IR rows: the "layout" block of src/compiler/api_table.def; runtime:
src/compiler/rt/layout.h."""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING, Any

from pyasc.language import layout
from pyasc.language.lower import vector as lower_vector
from pyasc.language.ir.args import bind, dtype_code, expect
from pyasc.language.ir.registry import lowers
from pyasc.language.ir.values import Val, describe
from pyasc.language.lower.vector import NOT_HANDLED, StructValue, _enum

if TYPE_CHECKING:
    from pyasc.language.codegen import CodeGenerator



def _struct(gen: CodeGenerator, node: ast.AST, value: Any, cls: type, what: str) -> StructValue:
    if not isinstance(value, StructValue) or value.struct is not cls:
        raise gen.error(node, f"{what} must be a pyasc.{cls.__name__}, not {describe(value)}")
    return value


def transpose_ext(gen: CodeGenerator, node: ast.Call, args: list, kwargs: dict) -> Any:
    """transpose's ext form (dst, src, shared_tmp_buffer, params)."""
    names = ("dst", "src", "shared_tmp_buffer", "params")
    dst, src, tmp, params = bind(gen, node, "transpose", names, args, kwargs)
    p = _struct(gen, node, params, layout.TransposeParamsExt, "transpose params")
    kind = _enum(gen, node, p.transpose_type, layout.TransposeType,
                 "TransposeParamsExt transpose_type")
    tensors = [expect(gen, node, t, ("local",), f"transpose {n}")
               for t, n in zip((dst, src, tmp), names)]
    return gen.op(node, "transpose.ext", tensors + [p.n_size, p.c_size, p.h_size, p.w_size],
                  (kind,))


def _tensor_list(gen: CodeGenerator, node: ast.AST, value: Any, what: str) -> list:
    if not isinstance(value, (list, tuple)) or len(value) != 16:
        raise gen.error(node, f"trans_data_to_5hd: {what} must be a list of 16 LocalTensors "
                              f"or addresses, or a uint64 LocalTensor of 16 addresses, not "
                              f"{describe(value)}")
    return [expect(gen, node, gen.read(node, v), ("local",), f"{what} entry")
            for v in value]


def _addr_dtype(gen: CodeGenerator, node: ast.AST, values: list, what: str) -> int:
    """The element dtype code of an address form, as PyAsc infers it: the
    dtype of the LocalTensor whose get_phy_addr gave an address."""
    dtypes = lower_vector.phy_addr_dtypes(gen)
    for v in values:
        if isinstance(v, Val) and v.id in dtypes:
            return dtype_code(gen, node, dtypes[v.id])
        if isinstance(v, Val) and gen.identity(v) in dtypes:  # a tensor of addresses
            return dtype_code(gen, node, dtypes[gen.identity(v)])
    raise gen.error(node, f"trans_data_to_5hd: cannot tell the element type of {what}: their "
                          f"addresses must come from LocalTensor.get_phy_addr (PyAsc infers it "
                          f"from there)")


def _is_addr_list(value: Any) -> bool:
    return isinstance(value, (list, tuple)) and any(
        isinstance(v, int) or isinstance(v, Val) and v.kind in ("int", "bool") for v in value)


@lowers("trans_data_to_5hd")
def _trans_5hd(gen: CodeGenerator, node: ast.Call, api: str, args: list, kwargs: dict) -> Any:
    dst, src, params = bind(gen, node, "trans_data_to_5hd",
                                   ("dst_list", "src_list", "params"), args, kwargs)
    p = _struct(gen, node, params, layout.TransDataTo5HDParams, "trans_data_to_5hd params")
    halves = []
    for name in ("dst_high_half", "src_high_half"):
        value = getattr(p, name)
        if not isinstance(value, (bool, int)) or isinstance(value, Val):
            raise gen.error(node, f"TransDataTo5HDParams {name} must be a compile-time bool")
        halves.append(int(bool(value)))
    tail = [p.repeat_times, p.dst_rep_stride, p.src_rep_stride]
    if isinstance(dst, Val) and dst.kind == "local":  # LocalTensor<uint64_t> of addresses
        src = expect(gen, node, src, ("local",), "trans_data_to_5hd src")
        code = _addr_dtype(gen, node, [dst, src], "the address tensors")
        return gen.op(node, "trans_data_to_5hd.addr_tensor", [dst, src] + tail,
                      tuple(halves) + (code,))
    if _is_addr_list(dst) or _is_addr_list(src):  # lists of 16 uint64 addresses
        addrs = []
        for value, what in ((dst, "dst_list"), (src, "src_list")):
            if not isinstance(value, (list, tuple)) or len(value) != 16:
                raise gen.error(node, f"trans_data_to_5hd: {what} must be a list of 16 "
                                      f"addresses, not {describe(value)}")
            for v in value:
                v = gen.read(node, v)
                gen.check_int(node, v, f"trans_data_to_5hd {what} address")
                addrs.append(v)
        code = _addr_dtype(gen, node, addrs, "the address lists")
        return gen.op(node, "trans_data_to_5hd.addrs", addrs + tail, tuple(halves) + (code,))
    return gen.op(node, "trans_data_to_5hd",
                  _tensor_list(gen, node, dst, "dst_list") +
                  _tensor_list(gen, node, src, "src_list") +
                  [p.repeat_times, p.dst_rep_stride, p.src_rep_stride], tuple(halves))


#: DataCopyEnhancedParams fields that change what a copy does, with their
#: plain-copy values (the rest only matter when these are set)
_ENHANCED_PLAIN = (("block_mode", layout.BlockMode.BLOCK_MODE_NORMAL), ("deq_scale", 0),
                   ("is_relu_in", False), ("pad_mode_in", 0))


def _data_copy_enhanced(gen: CodeGenerator, node: ast.Call, args: list, kwargs: dict) -> Any:
    """data_copy(dst, src, intri_params, enhanced_params): with the plain
    enhanced parameters it is the DataCopyParams copy (and is emitted as
    that); block modes, dequantisation, relu and padding move cube data,
    which the simulated core does not."""
    kwargs = {"intri_params" if k in ("params", "repeat_params") else k: v
              for k, v in kwargs.items()}
    dst, src, intri, enhanced = bind(gen, node, "data_copy",
                                            ("dst", "src", "intri_params", "enhanced_params"),
                                            args, kwargs)
    e = _struct(gen, node, enhanced, layout.DataCopyEnhancedParams, "data_copy enhanced_params")
    for name, plain in _ENHANCED_PLAIN:
        value = getattr(e, name)
        if isinstance(value, Val):
            raise gen.error(node, f"DataCopyEnhancedParams {name} must be a compile-time value")
        if int(value) != int(plain):
            raise gen.error(node, f"data_copy: DataCopyEnhancedParams {name}={value!r} is not "
                                  "simulated (it moves cube data); only the plain copy is")
    return lower_vector._data_copy_params(gen, node, [dst, src, intri], {})


_BILINEAR = ("dst", "src0", "src0_offset", "src1", "mask", "h_repeat", "repeat_mode",
             "dst_blk_stride", "v_r_offset", "v_repeat", "shared_tmp_buffer")


@lowers("bilinear_interpolation")
def _bilinear(gen: CodeGenerator, node: ast.Call, api: str, args: list,
              kwargs: dict) -> Any:
    values = bind(gen, node, "bilinear_interpolation", _BILINEAR, args, kwargs)
    named = dict(zip(_BILINEAR, values))
    tensors = {n: expect(gen, node, named[n], ("local",), f"bilinear_interpolation {n}")
               for n in ("dst", "src0", "src0_offset", "src1", "shared_tmp_buffer")}
    kind, words = lower_vector._mask(gen, node, named["mask"])
    return gen.op(node, "bilinear_interpolation",
                  [tensors["dst"], tensors["src0"], tensors["src0_offset"], tensors["src1"],
                   *words, named["h_repeat"], named["repeat_mode"], named["dst_blk_stride"],
                   named["v_r_offset"], named["v_repeat"], tensors["shared_tmp_buffer"]], (kind,))


def api_call(gen: CodeGenerator, node: ast.Call, api: str, args: list, kwargs: dict) -> Any:
    """data_copy's enhanced form (more than three arguments), or NOT_HANDLED."""
    if api == "data_copy" and len(args) + len(kwargs) > 3:
        return _data_copy_enhanced(gen, node, args, kwargs)
    return NOT_HANDLED
