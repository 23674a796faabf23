"""Lowering of TensorDesc and ListTensorDesc (PyAsc's signatures and
defaults). Both are compile-time objects in a kernel; each method becomes
an op that reads the list where it is used (the "tensor lists" block of
src/compiler/api_table.def; runtime src/compiler/rt/tensor_desc.h)."""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING, Any

from pyasc import _C
from pyasc.language import tensor_desc
from pyasc.language.ir.args import bind, dtype_code, expect
from pyasc.language.ir.values import Val, describe

if TYPE_CHECKING:
    from pyasc.language.codegen import CodeGenerator

NOT_HANDLED = object()

_ALL = 0xFFFFFFFF  # length / shape_size: not given


def _kernel_method(name: str) -> Any:
    """A method the front end lowers (call() below); it never runs."""

    def method(self: Any, *args: Any, **kwargs: Any) -> Any:
        raise TypeError(f"{type(self).__name__}.{name} is lowered by the kernel front end")

    method.__name__ = name
    return method


class ListDescValue:
    """A ListTensorDesc in a kernel: the list's address, length and shape_size."""

    kernel_compile_time = True  # a name may be bound to another one (codegen.assign)

    init = _kernel_method("init")
    get_size = _kernel_method("get_size")
    get_desc = _kernel_method("get_desc")
    get_data_ptr = _kernel_method("get_data_ptr")

    def __init__(self) -> None:
        self.data: Val | None = None
        self.length: Any = _ALL
        self.shape_size: Any = _ALL

    def source(self, gen: CodeGenerator, node: ast.AST, api: str) -> list:
        """The operands that locate the list. A list constructed without
        data (Ascend C's default) has a null data pointer: reading it stops
        the kernel at run time, where the device would read address 0."""
        data = self.data
        if data is None:
            data = gen.op(node, "td.unset_data_ptr", [], (dtype_code(gen, node, _C.uint64),))
        return [data, self.length, self.shape_size]


class TensorDescValue:
    """A TensorDesc in a kernel: its element dtype and, once
    ListTensorDesc.get_desc filled it, its list and index."""

    kernel_compile_time = True

    set_shape_addr = _kernel_method("set_shape_addr")
    get_dim = _kernel_method("get_dim")
    get_index = _kernel_method("get_index")
    get_shape = _kernel_method("get_shape")
    get_data_ptr = _kernel_method("get_data_ptr")
    get_data_obj = _kernel_method("get_data_obj")

    def __init__(self, dtype: Any) -> None:
        self.dtype = dtype
        self.list: list | None = None
        self.index: Any = None

    def source(self) -> list | None:
        """The operands that locate it (list and index), None while unfilled."""
        return None if self.list is None else self.list + [self.index]



def _init(gen: CodeGenerator, node: ast.Call, obj: ListDescValue, args: list, kwargs: dict,
          api: str) -> None:
    data, length, shape_size = bind(gen, node, api, ("data", "length", "shape_size"),
                                           args, kwargs, {"length": _ALL, "shape_size": _ALL})
    obj.data = expect(gen, node, data, ("addr",), f"{api} data")
    obj.length, obj.shape_size = length, shape_size
    gen.op(node, "ltd.init", obj.source(gen, node, api))


def _list_method(gen: CodeGenerator, node: ast.Call, obj: ListDescValue, name: str, args: list,
                 kwargs: dict) -> Any:
    api = f"ListTensorDesc.{name}"
    if name == "init":
        return _init(gen, node, obj, args, kwargs, api)
    if name == "get_size":
        bind(gen, node, api, (), args, kwargs)
        if obj.data is None:  # Ascend C's default ListTensorDesc holds no tensors
            return 0
        return gen.op(node, "ltd.get_size", obj.source(gen, node, api))
    if name == "get_desc":
        desc, index = bind(gen, node, api, ("desc", "index"), args, kwargs)
        if not isinstance(desc, TensorDescValue):
            raise gen.error(node, f"{api}: desc must be a TensorDesc, not {describe(desc)}")
        gen.op(node, "ltd.get_desc", obj.source(gen, node, api) + [index])
        desc.list, desc.index = obj.source(gen, node, api), index
        return None
    if name == "get_data_ptr":
        index, dtype = bind(gen, node, api, ("index", "dtype"), args, kwargs)
        return gen.op(node, "ltd.get_data_ptr", obj.source(gen, node, api) + [index],
                      (dtype_code(gen, node, dtype),))
    raise gen.error(node, f"ListTensorDesc has no method '{name}'")


def _desc_method(gen: CodeGenerator, node: ast.Call, obj: TensorDescValue, name: str,
                 args: list, kwargs: dict) -> Any:
    api = f"TensorDesc.{name}"
    if name == "set_shape_addr":
        # Ascend C's GetDesc copies shapes there; here get_shape reads the list itself
        (ptr,) = bind(gen, node, api, ("shape_ptr",), args, kwargs)
        if not isinstance(ptr, (int, Val)) or isinstance(ptr, Val) and ptr.kind != "int":
            raise gen.error(node, f"{api}: shape_ptr must be an int, not {describe(ptr)}")
        return None
    # a desc no get_desc filled is Ascend C's default one: dim and index 0,
    # no shape, a null data pointer
    source = obj.source()
    if name in ("get_dim", "get_index"):
        bind(gen, node, api, (), args, kwargs)
        return 0 if source is None else gen.op(node, f"td.{name}", source)
    if name == "get_shape":
        (offset,) = bind(gen, node, api, ("offset",), args, kwargs)
        gen.check_int(node, offset, f"{api} offset")
        if source is None:
            return gen.op(node, "td.unset_shape", [offset])
        return gen.op(node, "td.get_shape", source + [offset])
    if name in ("get_data_ptr", "get_data_obj"):
        bind(gen, node, api, (), args, kwargs)
        code = dtype_code(gen, node, obj.dtype)
        addr = gen.op(node, "td.unset_data_ptr", [], (code,)) if source is None else \
            gen.op(node, "td.get_data_ptr", source, (code,))
        return addr if name == "get_data_ptr" else gen.op(node, "global.new", [addr])
    raise gen.error(node, f"TensorDesc has no method '{name}'")


def call(gen: CodeGenerator, node: ast.Call, func: Any, args: list, kwargs: dict) -> Any:
    """The IR of a TensorDesc/ListTensorDesc construction or method, or NOT_HANDLED."""
    if func is tensor_desc.ListTensorDesc:
        obj = ListDescValue()
        if args or kwargs:
            _init(gen, node, obj, args, kwargs, "ListTensorDesc")
        return obj
    if func is tensor_desc.TensorDesc:
        (dtype,) = bind(gen, node, "TensorDesc", ("dtype",), args, kwargs,
                               {"dtype": _C.float32})
        dtype_code(gen, node, dtype)
        return TensorDescValue(dtype)
    owner = getattr(func, "__self__", None)
    if isinstance(owner, ListDescValue):
        return _list_method(gen, node, owner, func.__name__, args, kwargs)
    if isinstance(owner, TensorDescValue):
        return _desc_method(gen, node, owner, func.__name__, args, kwargs)
    return NOT_HANDLED
