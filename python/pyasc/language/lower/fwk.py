"""Lowering of the atomic store modes, TQueBind, TBufPool, get_tpipe_ptr,
the TQue queries, LocalMemAllocator, the LocalTensor/GlobalTensor setters
and getters (size, buffer length, address with offset, user tag, shape
info, physical address, L2 cache hint), get_shape_size and set_pad_value
(PyAsc's signatures; IR rows: src/compiler/api_table.def, "fwk/core" block;
runtime: src/compiler/rt/fwk.h)."""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING, Any

import pyasc
from pyasc.language import core, fwk_core
from pyasc.language.ir.args import bind, dtype_code, expect
from pyasc.language.ir.registry import lowers
from pyasc.language.ir.values import BoundMethod, Val, describe
from pyasc.language.lower.shape_info import key as shape_key
from pyasc.language.lower.shape_info import shapes
from pyasc.language.lower.vector import _STRUCTS, NOT_HANDLED, _enum, _struct

if TYPE_CHECKING:
    from pyasc.language.codegen import CodeGenerator

_STRUCTS.update(fwk_core.STRUCTS)  # InitConstValueParams(...) in kernels

#: dtype name -> AtomicDtype of the set_atomic_* APIs (their documented dtypes)
_ATOMIC_DTYPES = {"float32": fwk_core.AtomicDtype.ATOMIC_F32,
                  "float16": fwk_core.AtomicDtype.ATOMIC_F16,
                  "int32": fwk_core.AtomicDtype.ATOMIC_S32}
#: set_atomic_* -> the register's operation (-1: keep it)
_ATOMIC_OPS = {"set_atomic_add": 0, "set_atomic_max": 1, "set_atomic_min": 2,
               "set_atomic_type": -1}
_VECTOR_POSITIONS = (core.TPosition.VECIN, core.TPosition.VECOUT, core.TPosition.VECCALC)
#: TBufPool: how many buffers it may hand out at most (buf_id_size)
_MAX_BUF_IDS = 16
_BLOCK = 32
_ENUMS = (fwk_core.AtomicDtype, fwk_core.AtomicOp, fwk_core.CacheMode, fwk_core.CacheRwMode,
          fwk_core.DataFormat, fwk_core.pad_t)



def _state(gen: CodeGenerator) -> dict:
    """This module's compile-time state of one kernel: the TBufPools (their
    IR value ids)."""
    state = gen.__dict__.get("_fwk_state")
    if state is None:
        state = {"pools": set()}
        gen.__dict__["_fwk_state"] = state
    return state


class _Allocator:
    """``LocalMemAllocator()`` inside a kernel: the next free UB byte (a
    compile-time int, or an IR value once a run-time size was allocated)."""

    def __init__(self) -> None:
        self.cursor: Any = 0

    def alloc(self, *args: Any, **kwargs: Any) -> Any:
        """Lowered by ``call`` (this object only exists in kernels)."""
        raise TypeError("LocalMemAllocator.alloc can only be called inside a kernel")

    def get_cur_addr(self) -> Any:
        """Lowered by ``call``."""
        raise TypeError("LocalMemAllocator.get_cur_addr can only be called inside a kernel")


# --- atomics ---------------------------------------------------------------------------------

@lowers("set_atomic_add", "set_atomic_max", "set_atomic_min", "set_atomic_none", "set_atomic_type",
        "set_store_atomic_config", "get_store_atomic_config")
def _atomic(gen: CodeGenerator, node: ast.Call, api: str, args: list, kwargs: dict) -> Any:
    if api == "set_atomic_none":
        bind(gen, node, api, (), args, kwargs)
        return gen.op(node, "atomic.none", [], (0, 0, 0))
    if api == "set_store_atomic_config":
        kind, op = bind(gen, node, api, ("atomic_type", "atomic_op"), args, kwargs)
        return gen.op(node, "atomic.config", [],
                      (0, _enum(gen, node, kind, fwk_core.AtomicDtype, f"{api} atomic_type"),
                       _enum(gen, node, op, fwk_core.AtomicOp, f"{api} atomic_op")))
    if api == "get_store_atomic_config":
        bind(gen, node, api, (), args, kwargs)
        return (gen.op(node, "atomic.get_type", []), gen.op(node, "atomic.get_op", []))
    (dtype,) = bind(gen, node, api, ("dtype",), args, kwargs)
    code = dtype_code(gen, node, dtype)
    name = pyasc.dtype(dtype).name
    if name not in _ATOMIC_DTYPES:
        raise gen.error(node, f"{api}: dtype must be float16, float32 or int32, not {name} "
                              "(other types: set_store_atomic_config)")
    return gen.op(node, f"atomic.{api[len('set_atomic_'):]}", [],
                  (code, int(_ATOMIC_DTYPES[name]), _ATOMIC_OPS[api]))


# --- shape info ------------------------------------------------------------------------------

def _shape_size(gen: CodeGenerator, node: ast.Call, info: Any) -> Any:
    info = _struct(gen, node, info, (core.ShapeInfo,), "get_shape_size shape_info")
    shape = info.shape
    if shape is None:
        return 0
    if isinstance(shape, Val) or not isinstance(shape, (list, tuple)):
        raise gen.error(node, f"get_shape_size: the ShapeInfo's shape must be a list of dims, "
                              f"not {describe(shape)}")
    size: Any = 1
    for dim in shape:
        gen.check_int(node, dim, "a ShapeInfo dim")
        size = size * dim if not isinstance(dim, Val) and not isinstance(size, Val) else \
            gen.op(node, "arith.mul", [size, dim])
    return size


@lowers("set_pad_value")
def _set_pad_value(gen: CodeGenerator, node: ast.Call, api: str, args: list,
                   kwargs: dict) -> Any:
    value, pos = bind(gen, node, "set_pad_value", ("padding_value", "pos"), args, kwargs,
                             {"pos": None})
    if pos is not None and pos not in (core.TPosition.VECIN, core.TPosition.VECOUT):
        raise gen.error(node, "set_pad_value: pos must be TPosition.VECIN, TPosition.VECOUT or "
                              f"left out (TPosition.MAX), not {describe(pos)}")
    if not isinstance(value, (int, float)) and not (isinstance(value, Val) and
                                                    value.kind in ("int", "float", "bool")):
        raise gen.error(node, f"set_pad_value: padding_value must be a number, not "
                              f"{describe(value)}")
    return gen.op(node, "pad.set", [value])


@lowers("sync_all")
def _sync_all(gen: CodeGenerator, node: ast.Call, api: str, args: list,
              kwargs: dict) -> Any:
    soft = bool(args) and isinstance(args[0], Val) or "gm_workspace" in kwargs
    if not soft:
        (aiv,) = bind(gen, node, "sync_all", ("is_aiv_only",), args, kwargs,
                          {"is_aiv_only": True})
        return gen.op(node, "sync_all", [], (_flag(gen, node, aiv),))
    gm, ub, used, aiv = bind(gen, node, "sync_all", ("gm_workspace", "ub_workspace",
                                                         "used_cores", "is_aiv_only"),
                                 args, kwargs, {"used_cores": 0, "is_aiv_only": True})
    gm = expect(gen, node, gm, ("global",), "sync_all gm_workspace")
    ub = expect(gen, node, ub, ("local",), "sync_all ub_workspace")
    gen.check_int(node, used, "sync_all used_cores")
    if not _flag(gen, node, aiv):
        raise gen.error(node, "sync_all: the soft (workspace) form only synchronises vector cores "
                              "(is_aiv_only must be True)")
    return gen.op(node, "sync_all.soft", [gm, ub, used], (1,))


def _flag(gen: CodeGenerator, node: ast.AST, value: Any) -> int:
    if isinstance(value, Val) or not isinstance(value, (bool, int)):
        raise gen.error(node, f"sync_all: is_aiv_only must be a compile-time bool, not "
                              f"{describe(value)}")
    return 1 if value else 0


#: init_const_value's dtypes (Ascend C: half, bfloat16_t, float, int16_t, int32_t)
_CONST_DTYPES = ("float16", "bfloat16", "float32", "int16", "int32")


@lowers("init_const_value")
def _init_const_value(gen: CodeGenerator, node: ast.Call, api: str, args: list,
                      kwargs: dict) -> Any:
    dst, params = bind(gen, node, "init_const_value", ("dst", "init_const_value_params"),
                           args, kwargs)
    dst = expect(gen, node, dst, ("local",), "init_const_value dst")
    params = _struct(gen, node, params, (fwk_core.InitConstValueParams,),
                     "init_const_value init_const_value_params")
    if dst.position not in (core.TPosition.A1, core.TPosition.B1, core.TPosition.A2,
                            core.TPosition.B2):
        raise gen.error(node, f"init_const_value: dst must be at TPosition A1, B1, A2 or B2, not "
                              f"{core.TPosition(dst.position).name}")
    if pyasc.dtype(dst.dtype).name not in _CONST_DTYPES:
        raise gen.error(node, f"init_const_value: dst must be {', '.join(_CONST_DTYPES)}, not "
                              f"{pyasc.dtype(dst.dtype).name}")
    for name in ("repeat_times", "block_num", "dst_gap"):
        gen.check_int(node, getattr(params, name), f"InitConstValueParams {name}")
    return gen.op(node, "init_const_value", [dst, params.repeat_times, params.block_num,
                                             params.dst_gap, params.init_value])


@lowers("get_tpipe_ptr")
def _get_tpipe_ptr(gen: CodeGenerator, node: ast.Call, api: str, args: list, kwargs: dict) -> Any:
    bind(gen, node, api, (), args, kwargs)
    if not gen.has_pipe:
        raise gen.error(node, "get_tpipe_ptr: the kernel has no TPipe yet (create one with "
                              "pyasc.TPipe() first)")
    return gen.op(node, "pipe.get", [])


@lowers("get_shape_size")
def _get_shape_size(gen: CodeGenerator, node: ast.Call, api: str, args: list,
                    kwargs: dict) -> Any:
    (info,) = bind(gen, node, api, ("shape_info",), args, kwargs)
    return _shape_size(gen, node, info)


# --- constructors ----------------------------------------------------------------------------

def _position(gen: CodeGenerator, node: ast.AST, value: Any, what: str) -> core.TPosition:
    if isinstance(value, Val) or not isinstance(value, int) or isinstance(value, bool):
        raise gen.error(node, f"{what} must be a pyasc.TPosition member, not {describe(value)}")
    try:
        return core.TPosition(value)
    except ValueError:
        raise gen.error(node, f"{what}: {value!r} is not a TPosition") from None


def _que_bind(gen: CodeGenerator, node: ast.Call, args: list, kwargs: dict) -> Val:
    src, dst, depth, mask = bind(gen, node, "TQueBind", ("src", "dst", "depth", "mask"), args,
                                 kwargs, {"src": core.TPosition.VECIN,
                                          "dst": core.TPosition.VECIN, "depth": 1, "mask": 0})
    src = _position(gen, node, src, "TQueBind src")
    dst = _position(gen, node, dst, "TQueBind dst")
    gm = core.TPosition.GM
    if src == gm and dst == gm:
        raise gen.error(node, "TQueBind: at most one end may be TPosition.GM")
    for end in (src, dst):
        if end != gm and end not in _VECTOR_POSITIONS:
            raise gen.error(node, f"TQueBind: the local end must be VECIN, VECOUT or VECCALC, "
                                  f"not {end.name}")
    # the buffers live at the local end (the source's when both are local)
    local = src if src != gm else dst
    if isinstance(depth, Val) or isinstance(depth, bool) or not isinstance(depth, int) or \
            not 0 <= depth <= 8:
        raise gen.error(node, f"TQueBind: depth must be a constant in [0, 8] (0: the in-place "
                              f"queue), not {describe(depth)}")
    if isinstance(mask, Val) or isinstance(mask, bool) or not isinstance(mask, int):
        raise gen.error(node, f"TQueBind: mask must be a constant int, not {describe(mask)}")
    return gen.op(node, "quebind.new", [], (int(local), depth, int(src), int(dst)))


def _buf_pool(gen: CodeGenerator, node: ast.Call, args: list, kwargs: dict) -> Val:
    pos, ids = bind(gen, node, "TBufPool", ("pos", "buf_id_size"), args, kwargs,
                           {"pos": core.TPosition.VECCALC, "buf_id_size": 4})
    pos = _position(gen, node, pos, "TBufPool pos")
    if pos not in _VECTOR_POSITIONS:
        raise gen.error(node, f"TBufPool: pos must be VECIN, VECOUT or VECCALC on the simulated "
                              f"vector core, not {pos.name}")
    if isinstance(ids, Val) or isinstance(ids, bool) or not isinstance(ids, int) or \
            not 1 <= ids <= _MAX_BUF_IDS:
        raise gen.error(node, f"TBufPool: buf_id_size must be a constant in [1, {_MAX_BUF_IDS}],"
                              f" not {describe(ids)}")
    pool = gen.op(node, "bufpool.new", [], (int(pos), ids))
    _state(gen)["pools"].add(pool.id)
    return pool


def _alloc(gen: CodeGenerator, node: ast.Call, allocator: _Allocator, args: list,
           kwargs: dict) -> Val:
    pos, dtype, tile = bind(gen, node, "LocalMemAllocator.alloc",
                                ("pos", "data_type", "tile_size"), args, kwargs)
    pos = _position(gen, node, pos, "LocalMemAllocator.alloc pos")
    if pos not in _VECTOR_POSITIONS:
        raise gen.error(node, f"LocalMemAllocator.alloc: pos must be in the Unified Buffer "
                              f"(VECIN, VECOUT or VECCALC), not {pos.name}")
    code = dtype_code(gen, node, dtype)
    gen.check_int(node, tile, "LocalMemAllocator.alloc tile_size")
    size = pyasc.dtype(dtype).itemsize
    start = allocator.cursor
    tensor = gen.op(node, "local.new", [start, tile], (code, int(pos)))
    if isinstance(tile, Val) or isinstance(start, Val):
        nbytes = gen.op(node, "arith.mul", [tile, size])
        blocks = gen.op(node, "arith.floordiv", [gen.op(node, "arith.add", [nbytes, _BLOCK - 1]),
                                                 _BLOCK])
        allocator.cursor = gen.op(node, "arith.add", [start, gen.op(node, "arith.mul",
                                                                     [blocks, _BLOCK])])
    else:
        if tile < 0:
            raise gen.error(node, f"LocalMemAllocator.alloc: tile_size must not be negative, "
                                  f"got {tile}")
        allocator.cursor = start + (tile * size + _BLOCK - 1) // _BLOCK * _BLOCK
    return tensor


def call(gen: CodeGenerator, node: ast.Call, func: Any, args: list, kwargs: dict) -> Any:
    """Constructors and LocalMemAllocator's methods, or NOT_HANDLED."""
    if func is fwk_core.TQueBind:
        return _que_bind(gen, node, args, kwargs)
    if func is fwk_core.TBufPool:
        return _buf_pool(gen, node, args, kwargs)
    if func is fwk_core.LocalMemAllocator:
        hard = bind(gen, node, "LocalMemAllocator", ("hard",), args, kwargs,
                           {"hard": None})[0]
        if hard is not None and int(getattr(hard, "value", -1)) != 0 and \
                getattr(hard, "name", "") != "UB":
            raise gen.error(node, "LocalMemAllocator: only the Unified Buffer (Hardware.UB) is "
                                  "simulated")
        if gen.has_pipe:
            raise gen.error(node, "LocalMemAllocator cannot be mixed with a TPipe (static "
                                  "tensor programming allocates the Unified Buffer itself)")
        return _Allocator()
    if func in _ENUMS:  # AtomicDtype(kind) of a compile-time kind
        if any(isinstance(a, Val) for a in list(args) + list(kwargs.values())):
            raise gen.error(node, f"{func.__name__}(...) needs compile-time arguments")
        try:
            return func(*args, **kwargs)
        except (TypeError, ValueError) as exc:
            raise gen.error(node, f"{func.__name__}: {exc}") from None
    owner = getattr(func, "__self__", None)
    if isinstance(owner, _Allocator):
        if func.__name__ == "alloc":
            return _alloc(gen, node, owner, args, kwargs)
        bind(gen, node, "LocalMemAllocator.get_cur_addr", (), args, kwargs)
        return owner.cursor
    return NOT_HANDLED


# --- methods ---------------------------------------------------------------------------------

def _rebind(gen: CodeGenerator, node: ast.Call, bound: BoundMethod, value: Val, api: str) -> None:
    """Setters change the tensor the variable names (IR values are immutable)."""
    if not isinstance(bound.node, ast.Name):
        raise gen.error(node, f"call {api} on a variable")
    gen.assign(node, bound.node, value)


def _local_method(gen: CodeGenerator, node: ast.Call, bound: BoundMethod, args: list,
                  kwargs: dict) -> Any:
    obj, name = bound.obj, bound.name
    api = f"LocalTensor.{name}"
    if name in ("set_size", "set_buffer_len"):
        key = "size" if name == "set_size" else "data_len"
        (value,) = bind(gen, node, api, (key,), args, kwargs,
                            {"size": 0} if name == "set_size" else None)
        gen.check_int(node, value, f"{api} {key}")
        _rebind(gen, node, bound, gen.op(node, f"local.{name}", [obj, value]), api)
        return None
    if name == "set_addr_with_offset":
        src, offset = bind(gen, node, api, ("src", "offset"), args, kwargs)
        src = expect(gen, node, src, ("local",), f"{api} src")
        gen.check_int(node, offset, f"{api} offset")
        _rebind(gen, node, bound, gen.op(node, "local.set_addr_with_offset", [obj, src, offset]),
                api)
        return None
    if name == "set_user_tag":
        (tag,) = bind(gen, node, api, ("tag",), args, kwargs, {"tag": 0})
        gen.check_int(node, tag, f"{api} tag")
        return gen.op(node, "local.set_user_tag", [obj, tag])
    if name == "get_user_tag":
        bind(gen, node, api, (), args, kwargs)
        return gen.op(node, "local.get_user_tag", [obj])
    return NOT_HANDLED


def _shape_method(gen: CodeGenerator, node: ast.Call, obj: Val, name: str, args: list,
                  kwargs: dict) -> Any:
    what = "LocalTensor" if obj.kind == "local" else "GlobalTensor"
    known = shapes(gen)
    if name == "set_shape_info":
        (info,) = bind(gen, node, f"{what}.{name}", ("shape_info",), args, kwargs)
        known[shape_key(gen, obj)] = _struct(gen, node, info, (core.ShapeInfo,), f"{what}.{name} shape_info")
        return None
    bind(gen, node, f"{what}.{name}", (), args, kwargs)
    if shape_key(gen, obj) not in known:
        # Ascend C's default ShapeInfo (no dims; get_shape_size gives 0), as PyAsc has it
        return core.StructValue(core.ShapeInfo, {"shape": None, "original_shape": None,
                                                 "data_format": None})
    return known[shape_key(gen, obj)]


def _l2_cache_hint(gen: CodeGenerator, node: ast.Call, obj: Val, args: list,
                   kwargs: dict) -> None:
    mode, rw = bind(gen, node, "GlobalTensor.set_l2_cache_hint", ("mode", "rw_mode"),
                           args, kwargs, {"mode": fwk_core.CacheMode.CACHE_MODE_NORMAL,
                                          "rw_mode": fwk_core.CacheRwMode.RW})
    for value, cls, what in ((mode, fwk_core.CacheMode, "mode"),
                             (rw, fwk_core.CacheRwMode, "rw_mode")):
        # by name and value: another module's enum of the same name is the same thing
        ok = not isinstance(value, (Val, bool)) and isinstance(value, int) and \
            type(value).__name__ in (cls.__name__, "int") and value in set(cls)
        if not ok:
            raise gen.error(node, f"set_l2_cache_hint: {what} must be a pyasc.{cls.__name__} "
                                  f"member, not {describe(value)}")
    # only the timing model reads it (pyasc.profile, docs/perf-model.md)
    return gen.op(node, "global.set_l2_cache_hint", [obj], (int(mode), int(rw)))


def method(gen: CodeGenerator, node: ast.Call, bound: BoundMethod, args: list,
           kwargs: dict) -> Any:
    """The IR of one of this module's methods, or NOT_HANDLED."""
    obj, name = bound.obj, bound.name
    if not isinstance(obj, Val):
        return NOT_HANDLED
    kind = obj.kind
    if kind == "local":
        handled = _local_method(gen, node, bound, args, kwargs)
        if handled is not NOT_HANDLED:
            return handled
    if kind in ("local", "global") and name in ("set_shape_info", "get_shape_info"):
        return _shape_method(gen, node, obj, name, args, kwargs)
    if kind == "global" and name == "get_phy_addr":
        (offset,) = bind(gen, node, "GlobalTensor.get_phy_addr", ("offset",), args, kwargs,
                             {"offset": 0})
        gen.check_int(node, offset, "GlobalTensor.get_phy_addr offset")
        return gen.op(node, "global.get_phy_addr", [obj, offset])
    if kind == "global" and name == "set_l2_cache_hint":
        return _l2_cache_hint(gen, node, obj, args, kwargs)
    if kind == "que" and name in ("get_tensor_count_in_que", "has_idle_buffer", "free_all_event"):
        bind(gen, node, f"TQue.{name}", (), args, kwargs)
        return gen.op(node, f"que.{name}", [obj])
    if kind == "pipe" and name == "init_buf_pool":
        pool, length, share = bind(gen, node, "init_buf_pool", ("buf_pool", "len",
                                                                    "share_buf"),
                                       args, kwargs, {"len": 0, "share_buf": None})
        pools = _state(gen)["pools"]
        for value, what in ((pool, "buf_pool"), (share, "share_buf")):
            if value is not None and not (isinstance(value, Val) and value.id in pools):
                raise gen.error(node, f"init_buf_pool: {what} must be a TBufPool, not "
                                      f"{describe(value)}")
        if pool is share:
            raise gen.error(node, "init_buf_pool: a pool cannot share its own memory")
        gen.check_int(node, length, "init_buf_pool len")
        operands = [obj, pool, length] + ([share] if share is not None else [])
        return gen.op(node, "bufpool.init", operands)
    if kind == "pipe" and name == "reset" and obj.id in _state(gen)["pools"]:
        bind(gen, node, "TBufPool.reset", (), args, kwargs)
        return gen.op(node, "bufpool.reset", [obj])
    if kind == "pipe" and name == "destroy" and obj.id in _state(gen)["pools"]:
        raise gen.error(node, "TBufPool has no method 'destroy' (reset it)")
    return NOT_HANDLED


