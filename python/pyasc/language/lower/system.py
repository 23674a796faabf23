"""Lowering of the system and hardware APIs (PyAsc's signatures and
defaults): the system counter, program counter and time stamps, cache and
profiling controls, the workspace and HCCL context registers, and
inter-block synchronisation (ib_set/ib_wait, notify_next_block/
wait_pre_block). IR rows: the "system and hardware" block of
src/compiler/api_table.def; runtime: src/compiler/rt/system.h. Each handler is
registered by name (:func:`pyasc.language.ir.registry.lowers`)."""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING, Any

from pyasc.language import system
from pyasc.language.ir.args import bind, expect
from pyasc.language.ir.registry import lowers
from pyasc.language.ir.values import Val, describe
from pyasc.language.lower.vector import StructValue, _enum

if TYPE_CHECKING:
    from pyasc.language.codegen import CodeGenerator

#: APIs without arguments that return an int or a GlobalAddress
_NULLARY = ("get_system_cycle", "get_program_counter", "get_icache_preload_status",
            "get_task_ratio", "get_sys_workspace", "metrics_prof_start", "metrics_prof_stop",
            "init_soc_state")
#: (gm_workspace, ub_workspace) APIs
_BLOCK_PAIR = ("notify_next_block", "wait_pre_block")


def _int(gen: CodeGenerator, node: ast.AST, value: Any, what: str) -> Any:
    if isinstance(value, bool) or not (isinstance(value, int) or
                                       isinstance(value, Val) and value.kind in ("int", "bool")):
        raise gen.error(node, f"{what} must be an int, not {describe(value)}")
    return value


def _const_index(gen: CodeGenerator, node: ast.AST, value: Any, api: str) -> int:
    """The communication domain of the HCCL context APIs: a template
    argument in Ascend C, so a compile-time 0 or 1."""
    if isinstance(value, Val) or isinstance(value, bool) or not isinstance(value, int):
        raise gen.error(node, f"{api}: index must be a compile-time int (0 or 1), not "
                              f"{describe(value)}")
    if value not in (0, 1):
        raise gen.error(node, f"{api}: index must be 0 or 1 (two communication domains), "
                              f"got {value}")
    return value


@lowers("ib_set", "ib_wait")
def _ib(gen: CodeGenerator, node: ast.Call, api: str, args: list, kwargs: dict) -> Any:
    gm, ub, block, event, aiv_only = bind(
        gen, node, api, ("gm_workspace", "ub_workspace", "block_idx", "event_id", "is_aiv_only"),
        args, kwargs, {"is_aiv_only": True})
    if not isinstance(aiv_only, bool):
        raise gen.error(node, f"{api}: is_aiv_only must be a compile-time bool")
    if not aiv_only:
        raise gen.error(node, f"{api}: is_aiv_only=False (mixed AIC/AIV block numbering) is not "
                              "simulated; the vector cores synchronise with is_aiv_only=True")
    return gen.op(node, api, [expect(gen, node, gm, ("global",), f"{api} gm_workspace"),
                              expect(gen, node, ub, ("local",), f"{api} ub_workspace"),
                              _int(gen, node, block, f"{api} block_idx"),
                              _int(gen, node, event, f"{api} event_id")], (1,))


@lowers("data_cache_clean_and_invalid")
def _dcci(gen: CodeGenerator, node: ast.Call, api: str, args: list, kwargs: dict) -> Any:
    api = "data_cache_clean_and_invalid"
    # the two documented forms: (entire_type, dcci_dst, dst) and (entire_type, dst)
    if len(args) == 2 and "dst" not in kwargs and "dcci_dst" not in kwargs:
        args = [args[0], system.DcciDst.CACHELINE_OUT, args[1]]
    entire, dcci, dst = bind(gen, node, api, ("entire_type", "dcci_dst", "dst"), args, kwargs,
                                 {"dcci_dst": system.DcciDst.CACHELINE_OUT})
    attrs = (_enum(gen, node, entire, system.CacheLine, f"{api} entire_type"),
             _enum(gen, node, dcci, system.DcciDst, f"{api} dcci_dst"))
    return gen.op(node, api, [expect(gen, node, dst, ("global", "local"), f"{api} dst")],
                  attrs)


@lowers("check_local_memory_ia")
def _check_ia(gen: CodeGenerator, node: ast.Call, api: str, args: list, kwargs: dict) -> Any:
    (params,) = bind(gen, node, "check_local_memory_ia", ("check_params",), args, kwargs)
    if not isinstance(params, StructValue) or params.struct is not system.CheckLocalMemoryIAParam:
        raise gen.error(node, "check_local_memory_ia: check_params must be a "
                              f"CheckLocalMemoryIAParam, not {describe(params)}")
    names = [n for n, _ in system.STRUCTS[system.CheckLocalMemoryIAParam]]
    return gen.op(node, "check_local_memory_ia", [getattr(params, n) for n in names])


@lowers(*_NULLARY)
def _nullary(gen: CodeGenerator, node: ast.Call, api: str, args: list, kwargs: dict) -> Any:
    bind(gen, node, api, (), args, kwargs)
    return gen.op(node, api, [])


@lowers("print_time_stamp")
def _print_time_stamp(gen: CodeGenerator, node: ast.Call, api: str, args: list,
                      kwargs: dict) -> Any:
    (desc,) = bind(gen, node, api, ("desc_id",), args, kwargs)
    return gen.op(node, api, [_int(gen, node, desc, "print_time_stamp desc_id")])


@lowers("data_sync_barrier")
def _data_sync_barrier(gen: CodeGenerator, node: ast.Call, api: str, args: list,
                       kwargs: dict) -> Any:
    (kind,) = bind(gen, node, api, ("arg0",), args, kwargs)
    return gen.op(node, api, [], (_enum(gen, node, kind, system.MemDsbT,
                                        "data_sync_barrier arg0"),))


@lowers("data_cache_preload")
def _data_cache_preload(gen: CodeGenerator, node: ast.Call, api: str, args: list,
                        kwargs: dict) -> Any:
    src, offset = bind(gen, node, api, ("src", "cache_offset"), args, kwargs)
    return gen.op(node, api, [expect(gen, node, src, ("global",), f"{api} src"),
                              _int(gen, node, offset, f"{api} cache_offset")])


@lowers("icache_preload")
def _icache_preload(gen: CodeGenerator, node: ast.Call, api: str, args: list, kwargs: dict) -> Any:
    (length,) = bind(gen, node, api, ("pre_fetch_len",), args, kwargs)
    return gen.op(node, api, [_int(gen, node, length, f"{api} pre_fetch_len")])


@lowers("dump_acc_chk_point")
def _dump_acc_chk_point(gen: CodeGenerator, node: ast.Call, api: str, args: list,
                        kwargs: dict) -> Any:
    tensor, index, off, size = bind(gen, node, api,
                                        ("tensor", "index", "count_off", "dump_size"),
                                        args, kwargs)
    return gen.op(node, api, [expect(gen, node, tensor, ("global", "local"),
                                         f"{api} tensor"),
                              _int(gen, node, index, f"{api} index"),
                              _int(gen, node, off, f"{api} count_off"),
                              _int(gen, node, size, f"{api} dump_size")])


@lowers("set_sys_workspace")
def _set_sys_workspace(gen: CodeGenerator, node: ast.Call, api: str, args: list,
                       kwargs: dict) -> Any:
    (ws,) = bind(gen, node, api, ("workspace",), args, kwargs)
    return gen.op(node, api, [expect(gen, node, ws, ("addr",), f"{api} workspace")])


@lowers("get_arch_version")
def _get_arch_version(gen: CodeGenerator, node: ast.Call, api: str, args: list,
                      kwargs: dict) -> Any:
    (version,) = bind(gen, node, api, ("core_version",), args, kwargs)
    return gen.op(node, api, [_int(gen, node, version, f"{api} core_version")])


@lowers("get_hccl_context")
def _get_hccl_context(gen: CodeGenerator, node: ast.Call, api: str, args: list,
                      kwargs: dict) -> Any:
    (index,) = bind(gen, node, api, ("index",), args, kwargs)
    return gen.op(node, api, [], (_const_index(gen, node, index, api),))


@lowers("set_hccl_context")
def _set_hccl_context(gen: CodeGenerator, node: ast.Call, api: str, args: list,
                      kwargs: dict) -> Any:
    index, context = bind(gen, node, api, ("index", "context"), args, kwargs)
    return gen.op(node, api, [expect(gen, node, context, ("addr",), f"{api} context")],
                  (_const_index(gen, node, index, api),))


@lowers(*_BLOCK_PAIR)
def _block_pair(gen: CodeGenerator, node: ast.Call, api: str, args: list, kwargs: dict) -> Any:
    gm, ub = bind(gen, node, api, ("gm_workspace", "ub_workspace"), args, kwargs)
    return gen.op(node, api, [expect(gen, node, gm, ("global",), f"{api} gm_workspace"),
                              expect(gen, node, ub, ("local",), f"{api} ub_workspace")])
