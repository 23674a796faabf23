"""Lowering of PyAsc's core constructs beyond the Ascend C APIs: user
Structs built in kernels, ``LocalTensorAuto`` (UB allocated by the front
end, pipes synchronised for the user), ``asc.array``, ``asc.property``,
``ceildiv`` and ``DataType``. lower_core.call asks here first."""

from __future__ import annotations

import ast
import math
from typing import TYPE_CHECKING, Any

from pyasc import _C
from pyasc.language import constructs, core
from pyasc.language import struct as user_struct
from pyasc.language.ir.args import bind, dtype_code
from pyasc.language.ir.values import BoundMethod, KernelArray, KernelStruct, Val, Var, describe

if TYPE_CHECKING:
    from pyasc.language.codegen import CodeGenerator

NOT_HANDLED = object()

_UB_ALIGN = 32


def call(gen: CodeGenerator, node: ast.Call, func: Any, args: list, kwargs: dict) -> Any:
    """The construct func stands for, or NOT_HANDLED."""
    if isinstance(func, type) and issubclass(func, user_struct.Struct) and \
            func is not user_struct.Struct:
        return make_struct(gen, node, func, args, kwargs)
    if func is constructs.LocalTensorAuto:
        return local_tensor_auto(gen, node, args, kwargs)
    if func is constructs.array:
        return make_array(gen, node, args, kwargs)
    if func is constructs.property:
        if len(args) != 1 or kwargs or not isinstance(args[0], constructs.Property):
            raise gen.error(node, "property() takes one property constant such as "
                                  "asc.TOTAL_L1_SIZE")
        if args[0] is constructs.TOTAL_UB_SIZE:
            return gen.ub_size  # the size this build is specialised for
        return constructs.property(args[0])
    if func is constructs.ceildiv:
        if kwargs or len(args) != 2:
            raise gen.error(node, "ceildiv(x, y) takes two integers")
        return ceildiv(gen, node, args[0], args[1])
    if func is constructs.DataType:
        try:
            return constructs.DataType(*args, **kwargs)
        except TypeError as exc:
            raise gen.error(node, str(exc)) from None
    if func is constructs.static_assert:
        test, message = bind(gen, node, "static_assert", ("test", "message"), args, kwargs,
                                  {"message": None})
        if isinstance(test, Val):
            raise gen.error(node, "static_assert needs a compile-time condition; for run-time "
                                  "values use an if")
        try:
            constructs.static_assert(bool(test) if isinstance(test, (int, float)) else test,
                                     message)
        except (AssertionError, TypeError) as exc:
            raise gen.error(node, f"{type(exc).__name__}: {exc}") from None
        return None
    if func is constructs.number:
        value, dtype = bind(gen, node, "number", ("value", "dtype"), args, kwargs)
        return number(gen, node, value, dtype)
    if func in (constructs.range, constructs.static_range):
        raise gen.error(node, f"{func.__name__}() can only be used as a for loop's iterable")
    return NOT_HANDLED



def number(gen: CodeGenerator, node: ast.AST, value: Any, dtype: Any) -> Any:
    """value as a scalar of dtype: a float for float dtypes, else an int
    (a constant wraps to the dtype's width)."""
    dtype_code(gen, node, dtype)
    dtype = _C.dtype(dtype)
    if not isinstance(value, (Val, bool, int, float)) or \
            isinstance(value, Val) and value.kind not in ("int", "float", "bool"):
        raise gen.error(node, f"number(): the value must be a number, not {describe(value)}")
    if dtype.is_floating_point:
        return float(value) if not isinstance(value, Val) else \
            gen.op(node, "arith.to_float", [value])
    if not isinstance(value, Val):
        if dtype.name == "bool":
            return bool(value)
        return user_struct.wrap_value(dtype.name, int(value), "number()")
    return value if value.kind == "int" else gen.op(node, "arith.to_int", [value])


def method(gen: CodeGenerator, node: ast.Call, bound: BoundMethod, args: list,
           kwargs: dict) -> Any:
    """Methods of run-time scalars (``n.ceildiv(m)``), or NOT_HANDLED."""
    obj = bound.obj
    integer = isinstance(obj, Val) and obj.kind in ("int", "bool") or \
        isinstance(obj, int) and not isinstance(obj, bool)
    if integer and bound.name == "ceildiv":
        if kwargs or len(args) != 1:
            raise gen.error(node, "ceildiv(other) takes one integer")
        return ceildiv(gen, node, obj, args[0])
    return NOT_HANDLED


def ceildiv(gen: CodeGenerator, node: ast.AST, x: Any, y: Any) -> Any:
    """(x + y - 1) // y, folded when both are known."""
    for v in (x, y):
        gen.check_int(node, v, "a ceildiv operand")
    if not isinstance(x, Val) and not isinstance(y, Val):
        if y == 0:
            raise gen.error(node, "ZeroDivisionError: ceildiv by zero")
        return constructs.ceildiv(x, y)
    total = gen.op(node, "arith.sub", [gen.op(node, "arith.add", [x, y]), 1])
    return gen.op(node, "arith.floordiv", [total, y])


# --- structs -----------------------------------------------------------------------------


def host_struct(value: user_struct.Struct) -> KernelStruct:
    """A host Struct's values as a kernel struct (all compile-time)."""
    fields = {n: host_struct(getattr(value, n)) if isinstance(f, user_struct.StructField)
              else getattr(value, n) for n, f in type(value).struct_fields.items()}
    return KernelStruct(type(value), fields)


def make_struct(gen: CodeGenerator, node: ast.Call, cls: type, args: list,
                kwargs: dict) -> KernelStruct:
    """``Tiling(block_length=n)`` in a kernel: fields by keyword, defaults
    for the rest; a class with ``struct_positional`` (PyAsc's own structs
    whose constructors list the fields) also takes them by position."""
    if args:
        names = list(cls.struct_fields)
        if not getattr(cls, "struct_positional", False):
            raise gen.error(node, f"{cls.__name__}() takes its fields by keyword")
        if len(args) > len(names):
            raise gen.error(node, f"{cls.__name__}() takes at most {len(names)} fields "
                                  f"({len(args)} given)")
        for name in names[:len(args)]:
            if name in kwargs:
                raise gen.error(node, f"{cls.__name__}() got multiple values for '{name}'")
        kwargs = {**dict(zip(names, args)), **kwargs}
    fields: dict[str, Any] = {}
    for name in kwargs:
        if name not in cls.struct_fields:
            raise gen.error(node, f"{cls.__name__} does not have a field '{name}'")
    for name, f in cls.struct_fields.items():
        what = f"{cls.__name__}.{name}"
        if isinstance(f, user_struct.StructField):
            value = kwargs.get(name)
            if value is None:
                value = host_struct(f.default if f.default is not None else f.struct_cls())
            elif isinstance(value, user_struct.Struct):
                value = host_struct(value)
            if not isinstance(value, KernelStruct) or value.cls is not f.struct_cls:
                raise gen.error(node, f"{what} holds a {f.struct_cls.__name__}, not "
                                      f"{describe(value)}")
            fields[name] = value
        elif name in kwargs:
            fields[name] = gen.field_value(node, f, kwargs[name], what)
        elif f.default is user_struct.missing:
            raise gen.error(node, f"{cls.__name__} does not have a default value for '{name}'")
        else:
            fields[name] = f.convert(f.default, what)
    result = KernelStruct(cls, fields)
    gen.struct_slots(node, cls.__name__.lower(), result)  # fields the body assigns
    return result


# --- LocalTensorAuto ---------------------------------------------------------------------


def local_tensor_auto(gen: CodeGenerator, node: ast.Call, args: list, kwargs: dict) -> Val:
    """A LocalTensor at the next free, 32-byte aligned UB offset: each call
    site owns its space for the whole kernel (a site in a loop reuses it).
    The offset is gen.auto_ub bytes past gen.auto_base (a run-time value once
    a run-time length has been placed, else 0)."""
    dtype, shape = bind(gen, node, "LocalTensorAuto", ("dtype", "shape"), args, kwargs)
    code = dtype_code(gen, node, dtype)
    itemsize = _C.dtype(dtype).itemsize
    dims = [gen.read(node, d) for d in (shape if isinstance(shape, (tuple, list)) else [shape])]
    for d in dims:
        gen.check_int(node, d, "a LocalTensorAuto dimension")
    gen.auto_sync = True
    if gen.pipe is not None:
        return _auto_from_pipe(gen, node, code, itemsize, dims)
    base = gen.auto_base
    if all(not isinstance(d, Val) for d in dims):
        length = math.prod(dims)
        if length <= 0:
            raise gen.error(node, f"LocalTensorAuto: the length must be positive, got {length}")
        nbytes = -(-length * itemsize // _UB_ALIGN) * _UB_ALIGN
        if gen.auto_ub + nbytes > gen.ub_size:
            raise gen.error(node, f"LocalTensorAuto: the kernel's automatic tensors need "
                                  f"{gen.auto_ub + nbytes} bytes, more than the Unified "
                                  f"Buffer's {gen.ub_size}")
        addr = gen.auto_ub if base is None else gen.op(node, "arith.add", [base, gen.auto_ub])
        gen.auto_ub += nbytes
        return gen.op(node, "local.new", [addr, length], (code, int(core.TPosition.VECCALC)))
    if gen.rt_depth:
        raise gen.error(node, "LocalTensorAuto: a length known only at run time can only be "
                              "placed outside run-time if/for/while bodies (its end is where "
                              "the next automatic tensor starts); use a compile-time length "
                              "here")
    length: Any = dims[0]
    for d in dims[1:]:
        length = gen.op(node, "arith.mul", [length, d])
    addr = gen.auto_ub if base is None else gen.op(node, "arith.add", [base, gen.auto_ub])
    tensor = gen.op(node, "local.new", [addr, length], (code, int(core.TPosition.VECCALC)))
    # the next tensor starts after this one, rounded up to 32 bytes
    nbytes = gen.op(node, "arith.mul", [length, itemsize])
    rounded = gen.op(node, "arith.mul", [ceildiv(gen, node, nbytes, _UB_ALIGN), _UB_ALIGN])
    gen.auto_base = gen.op(node, "arith.add", [addr, rounded])
    gen.auto_ub = 0
    return tensor


def _auto_from_pipe(gen: CodeGenerator, node: ast.Call, code: int, itemsize: int,
                    dims: list) -> Val:
    """LocalTensorAuto in a kernel with a TPipe, as PyAsc materialises it: a
    VECCALC TBuf of the tensor's bytes initialised from the pipe, and its
    tensor. Inside run-time loops and branches the site takes its buffer
    from the pipe the first time it runs and reuses it after (PyAsc hoists
    the buffer out of the loop); a later, longer length than the first is
    an error at run time."""
    length: Any = math.prod(d for d in dims if not isinstance(d, Val))
    for d in dims:
        if isinstance(d, Val):
            length = gen.op(node, "arith.mul", [length, d])
    if not isinstance(length, Val) and length <= 0:
        raise gen.error(node, f"LocalTensorAuto: the length must be positive, got {length}")
    nbytes = length * itemsize if not isinstance(length, Val) else \
        gen.op(node, "arith.mul", [length, itemsize])
    if not gen.rt_depth:
        buf = gen.op(node, "tbuf.new", [], (int(core.TPosition.VECCALC),))
        gen.op(node, "pipe.init_tbuf", [gen.pipe, buf, nbytes])
        return gen.op(node, "tbuf.get", [buf, length], (code,))
    # Both slots are declared at the kernel's top, zeroed: the site's buffer
    # and whether it was taken.
    slot = gen.ir(node, gen.builder.var, "LocalTensorAuto buffer",
                  ("tbuf", None, int(core.TPosition.VECCALC), 0))
    taken = gen.ir(node, gen.builder.var, "LocalTensorAuto buffer taken", ("int",))
    first = gen.op(node, "arith.eq", [gen.to_ir(node, Var(taken, "int")), 0])
    gen.ir(node, gen.builder.if_begin, first.id)
    buf = gen.op(node, "tbuf.new", [], (int(core.TPosition.VECCALC),))
    gen.op(node, "pipe.init_tbuf", [gen.pipe, buf, nbytes])
    gen.ir(node, gen.builder.store, slot, buf.id)
    gen.ir(node, gen.builder.store, taken, gen.to_ir(node, 1).id)
    gen.ir(node, gen.builder.if_end)
    return gen.op(node, "tbuf.get", [gen.to_ir(node, Var(slot, "tbuf")), length], (code,))


# --- arrays --------------------------------------------------------------------------------


def make_array(gen: CodeGenerator, node: ast.Call, args: list, kwargs: dict) -> KernelArray:
    """``asc.array(dtype, length, fill_value=None)`` or ``(dtype, values)``."""
    dtype, spec, fill = bind(gen, node, "array", ("dtype", "length_or_values",
                                                           "fill_value"), args, kwargs,
                                      {"fill_value": None})
    dtype_code(gen, node, dtype)
    dtype = _C.dtype(dtype)
    kind = "float" if dtype.is_floating_point else "int"
    if isinstance(spec, (tuple, list)):
        if fill is not None:
            raise gen.error(node, "array(): fill_value cannot be given with initial values")
        values = list(spec)
    elif isinstance(spec, int) and not isinstance(spec, bool):
        values = [0 if fill is None else fill] * spec
    else:
        raise gen.error(node, f"array(): the length must be a compile-time int or a tuple of "
                              f"values, not {describe(spec)}")
    if not 1 <= len(values) <= 1024:
        raise gen.error(node, f"array(): the length must be in [1, 1024], got {len(values)}")
    slots = []
    for v in values:
        if not isinstance(v, (Val, bool, int, float)):
            raise gen.error(node, f"array(): elements must be numbers, not {describe(v)}")
        if kind == "int" and (isinstance(v, float) or isinstance(v, Val) and v.kind == "float"):
            raise gen.error(node, f"array(): a {dtype} array holds integers, got a float")
        vid = gen.ir(node, gen.builder.var, "array", (kind,))
        gen.ir(node, gen.builder.store, vid, gen.to_ir(node, v).id)
        slots.append(Var(vid, kind))
    return KernelArray(dtype, slots)


def _index(gen: CodeGenerator, node: ast.AST, arr: KernelArray, index: Any) -> Any:
    index = gen.read(node, index)
    gen.check_int(node, index, "an array index")
    if not isinstance(index, Val) and not -len(arr) <= index < len(arr):
        raise gen.error(node, f"array index {index} is out of range for length {len(arr)}")
    return index


def array_load(gen: CodeGenerator, node: ast.AST, arr: KernelArray, index: Any) -> Val:
    index = _index(gen, node, arr, index)
    if not isinstance(index, Val):
        return gen.to_ir(node, arr.slots[index])
    result = gen.to_ir(node, arr.slots[0])
    for k, slot in enumerate(arr.slots[1:], 1):
        hit = gen.op(node, "arith.eq", [index, k])
        result = gen.op(node, "arith.select", [hit, gen.to_ir(node, slot), result])
    return result


def array_store(gen: CodeGenerator, node: ast.AST, arr: KernelArray, index: Any,
                value: Any) -> None:
    index = _index(gen, node, arr, index)
    value = gen.to_ir(node, gen.read(node, value))
    if not isinstance(index, Val):
        gen.ir(node, gen.builder.store, arr.slots[index].id, value.id)
        return
    for k, slot in enumerate(arr.slots):
        gen.ir(node, gen.builder.if_begin, gen.op(node, "arith.eq", [index, k]).id)
        gen.ir(node, gen.builder.store, slot.id, value.id)
        gen.ir(node, gen.builder.if_end)


# --- type safety ----------------------------------------------------------------------------


def que_dtype(gen: CodeGenerator, node: ast.AST, que: Val, name: str, dtype: Any) -> None:
    """A TQue hands back what was put in: deque(dtype) must name the dtype of
    the tensors alloc_tensor/enque gave the queue, or the kernel would read
    their bytes as another type."""
    if dtype is None:
        return
    held = gen.que_dtypes.get(que.id)
    if name == "deque" and held is not None and held[0] != dtype:
        raise gen.error(node, f"deque({dtype}): the queue holds {held[0]} tensors "
                              f"({held[1]}); dequeuing them as {dtype} would reinterpret "
                              "their bytes")
    if name != "deque":
        line = node.lineno + gen.scope.source.first_line - 1
        gen.que_dtypes[que.id] = (dtype, f"{name} at line {line}")
