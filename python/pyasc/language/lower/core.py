"""How each callable a kernel may use becomes IR: the Ascend C APIs, the
methods of GlobalTensor/LocalTensor/TPipe/TQue/TBuf, constructors, device
functions, and the few Python builtins that work on run-time scalars."""

from __future__ import annotations

import ast
import builtins
import re
import types
from typing import TYPE_CHECKING, Any

import numpy as np

import pyasc
from pyasc import _C
from pyasc.language import aipp, core, cube, deq, matmul, slice_copy
from pyasc.language.lower import adv as lower_adv  # noqa: F401  (registers its lowerings)
from pyasc.language.lower import constructs as lower_constructs
from pyasc.language.lower import fwk as lower_fwk
from pyasc.language.lower import layout as lower_layout
from pyasc.language.lower import sort as lower_sort
from pyasc.language.lower import system as lower_system  # noqa: F401  (registers its lowerings)
from pyasc.language.lower import tensor_desc as lower_tensor_desc
from pyasc.language.lower import vector as lower_vector
from pyasc.language.lower import vector_moves as lower_vector_moves
from pyasc.language.builtins import KERNEL_ONLY, SHARED_BUILTINS, SHARED_NAMES
from pyasc.language.ir.args import bind, constant, dtype_code, expect
from pyasc.language.ir.registry import lowering_for
from pyasc.language.ir.values import (PURE_FUNCTIONS, BoundMethod, PendingGlobal, Val, describe,
                                      enum_types)

if TYPE_CHECKING:
    from pyasc.language.codegen import CodeGenerator

_BINARY = ("add", "sub", "mul", "div", "max", "min")
_SCALAR = ("adds", "muls", "maxs", "mins")
_UNARY = ("exp", "ln", "abs", "sqrt", "rsqrt", "reciprocal", "relu")


def call(gen: CodeGenerator, node: ast.Call, func: Any, args: list, kwargs: dict) -> Any:
    """Lowers one call (see the module docstring)."""
    if isinstance(func, BoundMethod):
        handled = lower_fwk.method(gen, node, func, args, kwargs)
        if handled is not lower_fwk.NOT_HANDLED:
            return handled
        handled = lower_constructs.method(gen, node, func, args, kwargs)
        if handled is not lower_constructs.NOT_HANDLED:
            return handled
        return method(gen, node, func, args, kwargs)
    if isinstance(func, core.KernelFunction):
        return gen.inline(node, func, args, kwargs)
    if isinstance(func, Val) and func.kind in ("local", "global"):
        # t(i): Ascend C's operator() reads element i, as get_value(i)
        if len(args) + len(kwargs) != 1 or kwargs and "index" not in kwargs:
            raise gen.error(node, f"{describe(func)}(index) takes one element index")
        return method(gen, node, BoundMethod(func, "get_value", node), args, kwargs)
    # pyasc.sort and the like are eager operations; in kernels they mean the builtin.
    func = shared_builtin(func)
    # Calls of objects each lowering module knows (TensorDesc/ListTensorDesc,
    # fwk/core classes, upstream's names, adv.Matmul, sort/gather_mask), in
    # this order; the first that does not answer its NOT_HANDLED lowers it.
    for module in (lower_tensor_desc, lower_fwk, lower_constructs, matmul, lower_sort, deq,
                   aipp, slice_copy):
        handled = module.call(gen, node, func, args, kwargs)
        if handled is not module.NOT_HANDLED:
            return handled
    if func is cube.FixpipeConfig:
        return cube.fixpipe_config(gen, node, args, kwargs)
    api = api_name(func)
    if api is not None:
        return api_call(gen, node, api, args, kwargs)
    if func is core.GlobalTensor:
        if args or kwargs:
            raise gen.error(node, "GlobalTensor() takes no arguments: call set_global_buffer")
        return PendingGlobal()
    if func is core.LocalTensor:
        return local_tensor(gen, node, args, kwargs)
    if func is core.TPipe:
        if gen.has_pipe:
            raise gen.error(node, "a kernel has exactly one TPipe; pass it to device functions")
        if gen.auto_sync:
            raise gen.error(node, "create the TPipe before the first LocalTensorAuto: those "
                                  "then take their buffers from it, as in PyAsc")
        gen.has_pipe = True
        gen.pipe = gen.op(node, "pipe.new", [])
        return gen.pipe
    if func is core.TQue:
        pos, depth = bind(gen, node, "TQue", ("pos", "depth"), args, kwargs,
                          {"pos": core.TPosition.VECIN, "depth": 1})
        return gen.op(node, "que.new", [], (constant(gen, node, pos, "TQue position"),
                                             constant(gen, node, depth, "TQue depth")))
    if func is core.TBuf:
        (pos,) = bind(gen, node, "TBuf", ("pos",), args, kwargs, {"pos": core.TPosition.VECCALC})
        return gen.op(node, "tbuf.new", [], (constant(gen, node, pos, "TBuf position"),))
    if isinstance(func, type) and issubclass(func, core.ParamStruct):
        return lower_vector.make_struct(gen, node, func, args, kwargs)
    if func is builtins.range:
        raise gen.error(node, "range() can only be used as a for loop's iterable")
    if func is builtins.print:
        return printf(gen, node, None, args)
    runtime = [a for a in list(args) + list(kwargs.values()) if isinstance(a, Val)]
    if not runtime and isinstance(func, type) and issubclass(func, (np.integer, np.floating)):
        # np.float16(2.2) and the like on compile-time numbers: the value
        # rounded to that type, as a Python number
        if len(args) != 1 or kwargs or isinstance(args[0], bool) or \
                not isinstance(args[0], (int, float, np.number)):
            raise gen.error(node, f"numpy.{func.__name__}() in a kernel takes one "
                                  f"compile-time number")
        try:
            return func(args[0]).item()
        except (OverflowError, ValueError) as exc:
            raise gen.error(node, f"numpy.{func.__name__}({args[0]!r}): {exc}") from None
    if runtime:
        return scalar_builtin(gen, node, func, args, kwargs)
    # methods of dtypes (x.dtype.sizeof()) only: any other builtin (open, exec...)
    # would run arbitrary host code at compile time
    if func in PURE_FUNCTIONS or isinstance(getattr(func, "__self__", None), pyasc.dtype) or \
            func in enum_types() or isinstance(func, type) and issubclass(func, enum_types()):
        try:
            return func(*args, **kwargs)
        except Exception as exc:
            raise gen.error(node, f"{type(exc).__name__}: {exc}") from None
    raise gen.error(node, f"cannot call {describe(func)} inside a kernel: call @pyasc.jit "
                          "functions and pyasc APIs")


def shared_builtin(func: Any) -> Any:
    """The kernel builtin a shared name's eager operation stands for, else func."""
    for name, builtin in SHARED_BUILTINS.items():
        if getattr(pyasc, name, None) is func:
            return builtin
    return func


def api_name(func: Any) -> str | None:
    """The Ascend C API a callable stands for inside kernels, if any."""
    if isinstance(func, core.KernelBuiltin):
        return func.name
    for name in SHARED_NAMES:
        if getattr(pyasc, name, None) is func:
            return name
    return None


def scalar_builtin(gen: CodeGenerator, node: ast.Call, func: Any, args: list, kwargs: dict) -> Any:
    if kwargs:
        raise gen.error(node, f"{describe(func)} takes no keywords in kernels")
    if func in (builtins.min, builtins.max) and len(args) >= 2:
        result = args[0]
        for a in args[1:]:
            result = gen.op(node, f"arith.{func.__name__}", [result, a])
        return result
    if func is builtins.int and len(args) == 1:
        return gen.op(node, "arith.to_int", args)
    if func is builtins.float and len(args) == 1:
        return gen.op(node, "arith.to_float", args)
    if func is builtins.bool and len(args) == 1:
        return gen.condition(node, args[0])
    if func is builtins.abs and len(args) == 1:
        neg = gen.op(node, "arith.neg", args)
        return gen.op(node, "arith.select", [gen.op(node, "arith.lt", [args[0], 0]), neg, args[0]])
    hint = ""
    if isinstance(func, types.FunctionType):  # the user's own helper, undecorated
        hint = " (decorate it with @pyasc.jit to call it from a kernel)"
    raise gen.error(node, f"{describe(func)} cannot take run-time values in a kernel{hint}")


def local_tensor(gen: CodeGenerator, node: ast.Call, args: list, kwargs: dict) -> Val:
    dtype, pos, addr, tile = bind(gen, node, "LocalTensor", ("dtype", "pos", "addr", "tile_size"),
                                  args, kwargs, {"pos": core.TPosition.VECIN, "addr": 0,
                                                 "tile_size": 0})
    code = dtype_code(gen, node, dtype)
    position = constant(gen, node, pos, "LocalTensor position")
    gen.check_int(node, addr, "LocalTensor addr")
    gen.check_int(node, tile, "LocalTensor tile_size")
    return gen.op(node, "local.new", [addr, tile], (code, position))


def api_call(gen: CodeGenerator, node: ast.Call, api: str, args: list, kwargs: dict) -> Any:
    handler = lowering_for(api)
    if handler is not None:
        return handler(gen, node, api, args, kwargs)
    if api.startswith("adv."):
        raise gen.error(node, f"pyasc.{api} is not available in kernels")
    # Each API-lowering module handles its own rows, in this order; the
    # first that does not answer NOT_HANDLED lowers the call.
    handled = lower_vector.NOT_HANDLED
    for module in (lower_vector, lower_layout):
        handled = module.api_call(gen, node, api, args, kwargs)
        if handled is not lower_vector.NOT_HANDLED:
            break
    if handled is not lower_vector.NOT_HANDLED:
        return handled
    if api in ("get_block_idx", "get_block_num"):
        bind(gen, node, api, (), args, kwargs)
        return gen.op(node, api, [])
    if api == "data_copy":
        dst, src, count = bind(gen, node, api, ("dst", "src", "count"), args, kwargs)
        expect(gen, node, dst, ("global", "local"), "data_copy dst")
        expect(gen, node, src, ("global", "local"), "data_copy src")
        return gen.op(node, api, [dst, src, count])
    if api == "copy":
        dst, src, count = bind(gen, node, api, ("dst", "src", "count"), args, kwargs)
        return gen.op(node, api, [expect(gen, node, dst, ("local",), "copy dst"),
                                  expect(gen, node, src, ("local",), "copy src"), count])
    if api == "duplicate":
        dst, scalar, count = bind(gen, node, api, ("dst", "scalar", "count"), args, kwargs)
        return gen.op(node, api, [expect(gen, node, dst, ("local",), "duplicate dst"), scalar,
                                  count])
    if api in _BINARY:
        dst, a, b, count = bind(gen, node, api, ("dst", "src0", "src1", "count"), args, kwargs)
        return gen.op(node, api, [expect(gen, node, t, ("local",), f"{api} {name}")
                                  for t, name in ((dst, "dst"), (a, "src0"), (b, "src1"))] +
                      [count])
    if api in _SCALAR:
        dst, src, scalar, count = bind(gen, node, api, ("dst", "src", "scalar", "count"), args,
                                       kwargs)
        return gen.op(node, api, [expect(gen, node, dst, ("local",), f"{api} dst"),
                                  expect(gen, node, src, ("local",), f"{api} src"), scalar, count])
    if api in _UNARY:
        dst, src, count = bind(gen, node, api, ("dst", "src", "count"), args, kwargs)
        return gen.op(node, api, [expect(gen, node, dst, ("local",), f"{api} dst"),
                                  expect(gen, node, src, ("local",), f"{api} src"), count])
    if api in ("set_flag", "wait_flag"):
        event, event_id = bind(gen, node, api, ("event", "event_id"), args, kwargs,
                               {"event_id": 0})
        if not isinstance(event, core.HardEvent):
            raise gen.error(node, f"{api}: event must be a pyasc.HardEvent member")
        return gen.op(node, api, [event_id], (int(event),))
    if api == "pipe_barrier":
        (pipe,) = bind(gen, node, api, ("pipe",), args, kwargs)
        # a PipeID member, or its value as a compile-time int (pipe_t's numbers)
        valid = {int(p) for p in core.PipeID}
        if not isinstance(pipe, core.PipeID) and not (
                isinstance(pipe, int) and not isinstance(pipe, bool) and pipe in valid):
            raise gen.error(node, f"pipe_barrier: pipe must be a pyasc.PipeID member (or its "
                                  f"value {min(valid)}..{max(valid)}), not {describe(pipe)}")
        pipe = core.PipeID(pipe)
        return gen.op(node, api, [], (int(pipe),))
    if api == "printf":
        if not args or not isinstance(args[0], str):
            raise gen.error(node, "printf needs a format string first")
        return printf(gen, node, args[0], args[1:])
    raise gen.error(node, f"pyasc.{api} is not available in kernels")


def printf(gen: CodeGenerator, node: ast.Call, fmt: str | None, args: list) -> None:
    """printf, or print() turned into a printf with one conversion per value."""
    values = []
    if fmt is None:
        parts = []
        for a in args:
            if isinstance(a, Val):
                if a.kind not in ("int", "float", "bool"):
                    raise gen.error(node, f"print() cannot show a {describe(a)[2:]}")
                parts.append("%g" if a.kind == "float" else "%d")
                values.append(a)
            else:
                parts.append(str(a).replace("%", "%%"))
        fmt = " ".join(parts) + "\n"
    else:
        fmt, values = splice_strings(gen, node, fmt, args)
    gen.op(node, "printf", values, (), fmt)
    return None


_CONVERSION = re.compile(r"%%|%[-+ #0-9.]*[hlLqjzt]*([a-zA-Z]?)")


def splice_strings(gen: CodeGenerator, node: ast.Call, fmt: str, args: list) -> tuple[str, list]:
    """Matches printf's conversions with its arguments: a str argument is
    spliced into the format in place of its %s at compile time (as PyAsc
    does); numbers stay run-time values. Counts must agree, since C's printf
    would read arguments that are not there."""
    pieces, values, pos, index = [], [], 0, 0
    for match in _CONVERSION.finditer(fmt):
        if match.group(0) == "%%":
            continue
        if index == len(args):
            raise gen.error(node, f"printf: the format has more conversions than the "
                                  f"{len(args)} arguments given")
        a, conv = args[index], match.group(1)
        index += 1
        if isinstance(a, str):
            if conv != "s":
                raise gen.error(node, f"printf: the str argument {a!r} needs a %s conversion, "
                                      f"not {match.group(0)!r}")
            pieces += [fmt[pos:match.start()], a.replace("%", "%%")]
            pos = match.end()
            continue
        if isinstance(a, Val) and a.kind == "addr":
            # a GM address: %s prints the string there (as Ascend C's printf), %p the pointer
            if conv not in ("s", "p"):
                raise gen.error(node, f"printf: a GlobalAddress needs %s (its string) or %p, "
                                      f"not {match.group(0)!r}")
            values.append(a)
            continue
        if not isinstance(a, (Val, bool, int, float)) or isinstance(a, Val) and \
                a.kind not in ("int", "float", "bool"):
            raise gen.error(node, f"printf arguments must be numbers, str or GlobalAddress, not "
                                  f"{describe(a)}")
        if conv in ("s", ""):
            raise gen.error(node, f"printf: {match.group(0)!r} needs a str argument known at "
                                  "compile time; use %d or %f for numbers")
        values.append(a)
    if index != len(args):
        raise gen.error(node, f"printf: {len(args)} arguments given but the format has only "
                              f"{index} conversions")
    return "".join(pieces) + fmt[pos:], values


def method(gen: CodeGenerator, node: ast.Call, bound: BoundMethod, args: list, kwargs: dict) -> Any:
    obj, name = bound.obj, bound.name
    if name == "set_global_buffer" and (isinstance(obj, PendingGlobal) or
                                        isinstance(obj, Val) and obj.kind == "global"):
        addr, length = bind(gen, node, name, ("gm_addr", "buffer_size"), args, kwargs,
                            {"buffer_size": None})
        expect(gen, node, addr, ("addr",), "set_global_buffer address")
        if isinstance(obj, Val) and obj.dtype != addr.dtype:
            raise gen.error(node, f"set_global_buffer: this GlobalTensor holds {obj.dtype} and "
                                  f"cannot be given a {addr.dtype} address")
        operands = [addr] if length is None else [addr, length]
        tensor = gen.op(node, "global.new", operands)
        if not isinstance(bound.node, ast.Name):
            raise gen.error(node, "call set_global_buffer on a variable")
        gen.assign(node, bound.node, tensor)
        return None
    if isinstance(obj, PendingGlobal):
        raise gen.error(node, f"GlobalTensor.{name}: call set_global_buffer first")
    kind = obj.kind
    table = {
        ("global", "get_value"): ("global.get_value", ("index",)),
        ("global", "set_value"): ("global.set_value", ("index", "value")),
        ("global", "get_size"): ("global.get_size", ()),
        ("local", "get_value"): ("local.get_value", ("index",)),
        ("local", "set_value"): ("local.set_value", ("index", "value")),
        ("local", "get_size"): ("local.get_size", ()),
        ("local", "get_length"): ("local.get_length", ()),
        ("pipe", "destroy"): ("pipe.destroy", ()),
        ("pipe", "reset"): ("pipe.reset", ()),
        ("que", "enque"): ("que.enque", ("tensor",)),
        ("que", "free_tensor"): ("que.free_tensor", ("tensor",)),
        ("que", "has_tensor_in_que"): ("que.has_tensor_in_que", ()),
        ("que", "vacant_in_que"): ("que.vacant_in_que", ()),
    }
    if (kind, name) == ("que", "enque") and args and isinstance(args[0], Val):
        lower_constructs.que_dtype(gen, node, obj, name, args[0].dtype)
    if (kind, name) == ("que", "enque") and len(args) + len(kwargs) > 1:
        # TQueBind.enque(tensor, src_user_pos, dst_user_pos): the positions
        # pick the hardware events; the simulator orders the buffer the same
        tensor, src, dst = bind(gen, node, name, ("tensor", "src_user_pos", "dst_user_pos"),
                                args, kwargs)
        _user_positions(gen, node, name, src, dst)
        return gen.op(node, "que.enque", [obj, tensor])
    if (kind, name) in table:
        op, names = table[(kind, name)]
        values = bind(gen, node, name, names, args, kwargs)
        if (kind, name) == ("local", "set_value") and isinstance(values[1], Val):
            dtypes = lower_vector.phy_addr_dtypes(gen)
            address = gen.source_of(values[1])
            if address in dtypes:  # an address tensor for trans_data_to_5hd
                dtypes[gen.identity(obj)] = dtypes[address]
        return gen.op(node, op, [obj] + values)
    if kind == "local" and name == "get_position":
        bind(gen, node, name, (), args, kwargs)
        return core.TPosition(obj.position)
    if kind == "local" and name == "reinterpret_cast":
        (dtype,) = bind(gen, node, name, ("dtype",), args, kwargs)
        return gen.op(node, "local.reinterpret_cast", [obj], (dtype_code(gen, node, dtype),))
    if kind == "que" and name in ("alloc_tensor", "deque"):
        return _que_take(gen, node, obj, name, args, kwargs)
    if kind == "pipe" and name == "init_buffer":
        if args and isinstance(args[0], Val) and args[0].kind == "tbuf" or \
                isinstance(kwargs.get("buf"), Val):
            if "len" in kwargs and "num" not in kwargs:  # TBufPool.init_buffer(buf=, len=)
                kwargs = {("num" if k == "len" else k): v for k, v in kwargs.items()}
            buf, length = bind(gen, node, name, ("buf", "num"), args, kwargs)
            return gen.op(node, "pipe.init_tbuf", [obj, buf, length])
        que, num, length = bind(gen, node, name, ("que", "num", "len"), args, kwargs)
        expect(gen, node, que, ("que",), "init_buffer que")
        return gen.op(node, "pipe.init_buffer", [obj, que, num, length])
    if kind == "tbuf" and name == "alloc_tensor":  # the whole buffer, as TBuf.get(dtype)
        (dtype,) = bind(gen, node, name, ("dtype",), args, kwargs)
        return gen.op(node, "tbuf.alloc_tensor", [obj], (dtype_code(gen, node, dtype),))
    if kind == "tbuf" and name == "free_tensor":
        (tensor,) = bind(gen, node, name, ("tensor",), args, kwargs)
        return gen.op(node, "tbuf.free_tensor", [obj, expect(gen, node, tensor, ("local",),
                                                            "free_tensor tensor")])
    if kind == "tbuf" and name == "get":
        dtype, length = bind(gen, node, name, ("dtype", "len"), args, kwargs, {"len": None})
        operands = [obj] if not length else [obj, length]
        return gen.op(node, "tbuf.get", operands, (dtype_code(gen, node, dtype),))
    if kind == "tbuf" and name == "get_with_offset":
        if args and not isinstance(args[0], (Val, int)):  # the docs' dtype-first order
            args = list(args[1:]) + [args[0]]
        size, offset, dtype = bind(gen, node, name, ("size", "buf_offset", "dtype"), args, kwargs)
        return gen.op(node, "tbuf.get_with_offset", [obj, size, offset],
                      (dtype_code(gen, node, dtype),))
    handled = lower_vector_moves.method(gen, node, obj, name, args, kwargs)
    if handled is not lower_vector.NOT_HANDLED:
        return handled
    raise gen.error(node, f"{describe(obj)} has no method '{name}' in kernels")


def _user_positions(gen: CodeGenerator, node: ast.Call, name: str, src: Any, dst: Any) -> None:
    for value, what in ((src, "src_user_pos"), (dst, "dst_user_pos")):
        position = constant(gen, node, value, f"{name} {what}")
        if not isinstance(position, int) or isinstance(position, bool) or \
                position not in set(core.TPosition):
            raise gen.error(node, f"{name}: {what} must be a pyasc.TPosition member, not "
                                  f"{describe(value)}")


def _que_take(gen: CodeGenerator, node: ast.Call, que: Val, name: str, args: list,
              kwargs: dict) -> Any:
    """alloc_tensor/deque: ``(dtype)`` returns the tensor; the in-place form
    ``(tensor)`` (a depth-0 queue's): alloc_tensor makes that variable the
    new tensor, as Ascend C's out parameter does, deque only orders it (the
    queue keeps no addresses); ``deque(dtype, src_user_pos, dst_user_pos)``
    names the positions whose events order it."""
    first = args[0] if args else kwargs.get("tensor", kwargs.get("dtype"))
    if isinstance(first, Val) and first.kind == "local":
        (tensor,) = bind(gen, node, name, ("tensor",), args, kwargs)
        target = node.args[0] if node.args else \
            next(k.value for k in node.keywords if k.arg == "tensor")
        dtype = pyasc.dtype(tensor.dtype)
        lower_constructs.que_dtype(gen, node, que, name, dtype)
        operands = [que, tensor] if name == "deque" else [que]
        result = gen.op(node, f"que.{name}.inplace", operands, (dtype_code(gen, node, dtype),))
        # alloc_tensor fills the variable; deque leaves the tensor as it is
        if name == "alloc_tensor" and isinstance(target, ast.Name):
            gen.assign(node, target, result)
        return None
    if name == "deque" and len(args) + len(kwargs) > 1:
        dtype, src, dst = bind(gen, node, name, ("dtype", "src_user_pos", "dst_user_pos"),
                               args, kwargs)
        _user_positions(gen, node, name, src, dst)
    else:
        (dtype,) = bind(gen, node, name, ("dtype",), args, kwargs)
    code = dtype_code(gen, node, dtype)
    lower_constructs.que_dtype(gen, node, que, name, pyasc.dtype(dtype))
    return gen.op(node, f"que.{name}", [que], (code,))


__all__ = ["call", "KERNEL_ONLY"]
_ = _C  # the builder lives there
