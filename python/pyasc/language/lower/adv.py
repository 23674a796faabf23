"""Lowering of the adv library (``pyasc.adv``): the maths family, softmax,
rmsnorm, quant, concat and extract, with PyAsc's signatures and defaults.

IR conventions (src/compiler/api_table.def, "adv library"): the tensors, the
scalars, then ``tmp_min`` (the smallest shared tmp buffer the API accepts,
from :mod:`pyasc.language.adv_host`) and last the tmp buffer if given;
softmax and rmsnorm pass their tiling's 12 fields in Ascend C's order;
exp's Taylor level is an attribute (a template argument in Ascend C).

Each handler is registered for its ``adv.<name>`` APIs with
:func:`pyasc.language.ir.registry.lowers` and picks its own form.
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING, Any

from pyasc.language import adv_host
from pyasc.language.adv_tiling import QuantConfig, RmsNormTiling, SoftmaxTiling
from pyasc.language.names.adv_math import UNARY
from pyasc.language.ir.args import bind, expect
from pyasc.language.ir.registry import lowers
from pyasc.language.ir.values import KernelStruct, Val, describe
from pyasc.language.lower.shape_info import shape_dims

if TYPE_CHECKING:
    from pyasc.language.codegen import CodeGenerator

APIS = UNARY + ("exp", "power", "xor", "axpy", "softmax", "rmsnorm", "quant", "concat",
                "extract")

_DTYPE_SIZE = {"float16": 2, "float32": 4, "int16": 2}



def _local(gen: CodeGenerator, node: ast.AST, value: Any, api: str, what: str) -> Val:
    return expect(gen, node, value, ("local",), f"adv.{api} {what}")


def _type_size(gen: CodeGenerator, node: ast.AST, val: Val, api: str) -> int:
    """Bytes per element of a float16/float32/int16 tensor; 4 for another,
    whose dtype the op's check then reports with the supported list."""
    return _DTYPE_SIZE.get(getattr(val.dtype, "name", ""), 4)


def _count(gen: CodeGenerator, node: ast.AST, count: Any, src: Val, api: str) -> Any:
    """count, or src's element count when it is None (Ascend C's form
    without calCount)."""
    if count is None:
        return gen.op(node, "local.get_size", [src])
    gen.check_int(node, count, f"adv.{api} count")
    return count


def _tmp(gen: CodeGenerator, node: ast.AST, tmp: Any, tmp_min: Any, api: str) -> list:
    if tmp is None:
        return [-1]
    return [tmp_min, _local(gen, node, tmp, api, "temp_buffer")]


def _reuse(gen: CodeGenerator, node: ast.AST, value: Any, what: str) -> None:
    if isinstance(value, Val):
        raise gen.error(node, f"{what} must be a compile-time constant")


def _fields(gen: CodeGenerator, node: ast.AST, tiling: Any, cls: type, api: str) -> list:
    if not isinstance(tiling, KernelStruct) or tiling.cls is not cls:
        raise gen.error(node, f"adv.{api}: tiling must be a {cls.__name__}, not "
                              f"{describe(tiling)}")
    return [gen.read(node, tiling.fields[name]) for name in cls.struct_fields]


def _linear(gen: CodeGenerator, node: ast.AST, x: Any, f: Any) -> Any:
    """f(x) for a host size formula f that is linear in x (a row's bytes as
    a function of its length), as a constant or as IR when x is a run-time
    tiling field, so that the kernel checks the host's own minimum."""
    if isinstance(x, bool) or not isinstance(x, (int, Val)):
        raise gen.error(node, f"a tiling field must be an integer, not {describe(x)}")
    if isinstance(x, int):
        return f(x) if x > 0 else 0
    slope, base = f(1) - f(0), f(0)
    return gen.op(node, "arith.add", [gen.op(node, "arith.mul", [x, slope]), base])


@lowers(*(f"adv.{n}" for n in UNARY + ("exp",)))
def _math(gen: CodeGenerator, node: ast.Call, name: str, args: list, kwargs: dict) -> Any:
    """The unary maths functions: (dst, src, count, temp_buffer, is_reuse_source),
    and exp's taylor_expand_level before temp_buffer."""
    api = name[4:]
    if api == "exp":
        dst, src, count, level, tmp, reuse = bind(
            gen, node, name, ("dst", "src", "count", "taylor_expand_level", "temp_buffer",
                              "is_reuse_source"), args, kwargs,
            {"temp_buffer": None, "is_reuse_source": False})
        if isinstance(level, Val) or not isinstance(level, int) or not 0 <= level <= 255:
            raise gen.error(node, "adv.exp: taylor_expand_level must be a constant int in "
                                  f"[0, 255], not {describe(level)}")
    else:
        dst, src, count, tmp, reuse = bind(
            gen, node, name, ("dst", "src", "count", "temp_buffer", "is_reuse_source"), args,
            kwargs, {"count": None, "temp_buffer": None, "is_reuse_source": False})
        level = 0
    _reuse(gen, node, reuse, f"{name} is_reuse_source")
    dst, src = _local(gen, node, dst, api, "dst"), _local(gen, node, src, api, "src")
    tmp_min = adv_host.math_min_tmp_size(api, _type_size(gen, node, src, api), bool(reuse))
    return gen.op(node, name, [dst, src, _count(gen, node, count, src, api)] +
                  _tmp(gen, node, tmp, tmp_min, api), (level,) if api == "exp" else ())


@lowers("adv.power", "adv.xor", "adv.axpy")
def _binary_math(gen: CodeGenerator, node: ast.Call, name: str, args: list,
                 kwargs: dict) -> Any:
    """power and xor: (dst, src0, src1, count, temp_buffer, is_reuse_source);
    axpy: (dst, src, scalar, count, temp_buffer, is_reuse_source)."""
    api = name[4:]
    first, second = ("src", "scalar") if api == "axpy" else ("src0", "src1")
    dst, a, b, count, tmp, reuse = bind(
        gen, node, name, ("dst", first, second, "count", "temp_buffer", "is_reuse_source"),
        args, kwargs, {"count": None, "temp_buffer": None, "is_reuse_source": False})
    _reuse(gen, node, reuse, f"{name} is_reuse_source")
    dst, a = _local(gen, node, dst, api, "dst"), _local(gen, node, a, api, first)
    if api != "axpy":
        b = _local(gen, node, b, api, second)
    tmp_min = adv_host.math_min_tmp_size(api, _type_size(gen, node, a, api))
    return gen.op(node, name, [dst, a, b, _count(gen, node, count, a, api)] +
                  _tmp(gen, node, tmp, tmp_min, api))


@lowers("adv.softmax")
def _softmax(gen: CodeGenerator, node: ast.Call, name: str, args: list, kwargs: dict) -> Any:
    """softmax over rows, with its SoftmaxTiling's fields."""
    api = name[4:]
    dst, s, m, src, tiling, tmp, reuse, basic, nz = bind(
        gen, node, name, ("dst", "sum", "max", "src", "tiling", "temp_buffer",
                          "reuse_source", "basic_block", "data_format_nz"), args, kwargs,
        {"temp_buffer": None, "reuse_source": False, "basic_block": False,
         "data_format_nz": False})
    for flag, what in ((reuse, "reuse_source"), (basic, "basic_block"),
                       (nz, "data_format_nz")):
        _reuse(gen, node, flag, f"adv.softmax {what}")
    if nz:
        raise gen.error(node, "adv.softmax: data_format_nz=True (the NZ fractal layout) is "
                              "not supported; pass ND rows")
    tensors = [_local(gen, node, t, api, w) for t, w in ((dst, "dst"), (s, "sum"),
                                                         (m, "max"), (src, "src"))]
    fields = _fields(gen, node, tiling, SoftmaxTiling, api)
    fields[0], fields[1] = _softmax_shape(gen, node, tensors[3], fields[0], fields[1])
    size = _type_size(gen, node, tensors[3], api)
    tmp_min = _linear(gen, node, fields[1], lambda k: adv_host.softmax_row_bytes(k, size)) \
        if tmp is not None else -1
    return gen.op(node, name, tensors + fields + _tmp(gen, node, tmp, tmp_min, api))


def _softmax_shape(gen: CodeGenerator, node: ast.AST, src: Val, rows: Any, cols: Any) -> tuple:
    """The (src_m, src_k) softmax normalises: the tiling's, or, for an
    empty tiling (both 0, a SoftmaxTiling() nobody filled), the shape set
    on src with set_shape_info (its last dim, and the product of the rest),
    as Ascend C's SoftMax tiles a call whose tiling was not computed."""
    dims = shape_dims(gen, node, src)
    if dims is None or len(dims) < 2:
        return rows, cols
    shape_rows: Any = dims[0]
    for dim in dims[1:-1]:
        shape_rows = gen.op(node, "arith.mul", [shape_rows, dim])
    if isinstance(rows, int) and isinstance(cols, int):
        return (shape_rows, dims[-1]) if rows == 0 and cols == 0 else (rows, cols)
    empty = gen.op(node, "arith.and", [gen.op(node, "arith.eq", [rows, 0]),
                                       gen.op(node, "arith.eq", [cols, 0])])
    return (gen.op(node, "arith.select", [empty, shape_rows, rows]),
            gen.op(node, "arith.select", [empty, dims[-1], cols]))


@lowers("adv.rmsnorm")
def _rmsnorm(gen: CodeGenerator, node: ast.Call, name: str, args: list, kwargs: dict) -> Any:
    """rmsnorm over rows, with its RmsNormTiling's fields."""
    api = name[4:]
    dst, src, gamma, eps, tiling, tmp, basic = bind(
        gen, node, name, ("dst", "src", "gamma", "epsilon", "tiling", "temp_buffer",
                          "basic_block"), args, kwargs,
        {"temp_buffer": None, "basic_block": False})
    _reuse(gen, node, basic, "adv.rmsnorm basic_block")
    tensors = [_local(gen, node, t, api, w) for t, w in ((dst, "dst"), (src, "src"),
                                                         (gamma, "gamma"))]
    fields = _fields(gen, node, tiling, RmsNormTiling, api)
    size = _type_size(gen, node, tensors[1], api)
    tmp_min = _linear(gen, node, fields[2], lambda h: adv_host.rms_norm_row_bytes(h, size)) \
        if tmp is not None else -1
    return gen.op(node, name, tensors + [eps] + fields + _tmp(gen, node, tmp, tmp_min, api))


@lowers("adv.quant")
def _quant(gen: CodeGenerator, node: ast.Call, name: str, args: list, kwargs: dict) -> Any:
    """per-tensor quantisation (a QuantConfig's counts must be 0)."""
    api = name[4:]
    dst, src, scale, offset, count, tmp, reuse, config = bind(
        gen, node, name, ("dst", "src", "scale", "offset", "count", "temp_buffer",
                          "reuse_source", "config"), args, kwargs,
        {"count": None, "temp_buffer": None, "reuse_source": False, "config": None})
    _reuse(gen, node, reuse, "adv.quant reuse_source")
    dst, src = _local(gen, node, dst, api, "dst"), _local(gen, node, src, api, "src")
    if config is not None:
        fields = _fields(gen, node, config, QuantConfig, api)
        if count is None and not (isinstance(fields[0], int) and fields[0] == 0):
            count = fields[0]
        for value, what in ((fields[1], "offset_count"), (fields[2], "scale_count")):
            if not isinstance(value, int) or value != 0:
                raise gen.error(node, f"adv.quant: QuantConfig.{what} must be 0: pyasc "
                                      "simulates per-tensor quantisation only")
    return gen.op(node, name, [dst, src, scale, offset, _count(gen, node, count, src, api)] +
                  _tmp(gen, node, tmp, adv_host.QUANT_MIN_TMP_SIZE, api))


@lowers("adv.concat")
def _concat(gen: CodeGenerator, node: ast.Call, name: str, args: list, kwargs: dict) -> Any:
    """concat (dst, src, tmp, repeat_time)."""
    api = name[4:]
    dst, src, tmp, repeat = bind(gen, node, name, ("dst", "src", "tmp", "repeat_time"), args,
                                 kwargs)
    gen.check_int(node, repeat, "adv.concat repeat_time")
    return gen.op(node, name, [_local(gen, node, dst, api, "dst"),
                               _local(gen, node, src, api, "src"),
                               _local(gen, node, tmp, api, "tmp"), repeat])


@lowers("adv.extract")
def _extract(gen: CodeGenerator, node: ast.Call, name: str, args: list, kwargs: dict) -> Any:
    """extract (dst_value, dst_index, src, repeat_time)."""
    api = name[4:]
    value, index, src, repeat = bind(gen, node, name, ("dst_value", "dst_index", "src",
                                                       "repeat_time"), args, kwargs)
    gen.check_int(node, repeat, "adv.extract repeat_time")
    return gen.op(node, name, [_local(gen, node, value, api, "dst_value"),
                               _local(gen, node, index, api, "dst_index"),
                               _local(gen, node, src, api, "src"), repeat])
