"""The values a kernel's code generator works with: IR values (:class:`Val`),
variable slots, and the compile-time objects that stand for a GlobalTensor
without memory, a user Struct, an array, or a method not yet called. Also
how each is described in error messages."""

from __future__ import annotations

import ast
import builtins
import difflib
import math
import types
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from pyasc.language import core

#: the kinds of scalar IR values.
SCALAR_KINDS = ("int", "float", "bool")


@dataclass(frozen=True)
class Val:
    """An IR value with its type."""

    id: int
    kind: str
    dtype: Any
    position: int
    depth: int


@dataclass
class Var:
    """A Python name bound to an IR variable slot (assigned more than once,
    or inside a loop or branch)."""

    id: int
    kind: str


class PendingGlobal:
    """``asc.GlobalTensor()`` before ``set_global_buffer`` gives it memory."""


class KernelStruct:
    """A user Struct inside a kernel: each field's value (a constant, an IR
    value, a variable slot, or a nested KernelStruct). A compile-time object,
    so a name may be rebound to one in loops and branches."""

    def __init__(self, cls: type, fields: dict[str, Any]) -> None:
        self.cls = cls
        self.fields = fields


class KernelArray:
    """``asc.array(...)`` inside a kernel: one variable slot per element."""

    def __init__(self, dtype: Any, slots: list[Any]) -> None:
        self.dtype = dtype
        self.slots = slots

    def __len__(self) -> int:
        return len(self.slots)


class BoundMethod:
    """``obj.method`` on an IR object, until it is called."""

    def __init__(self, obj: Any, name: str, node: ast.AST) -> None:
        self.obj = obj
        self.name = name
        self.node = node


def is_int(value: Any) -> bool:
    """Whether value is an integer: a Python int or an int/bool IR value."""
    if isinstance(value, Val):
        return value.kind in ("int", "bool")
    return isinstance(value, int)


#: IR kinds -> the kernel-language type names messages use.
def enum_types() -> tuple[type, ...]:
    """The kernel language's enums a kernel may call or pass as constants."""
    return (core.TPosition, core.HardEvent, core.PipeID)


KIND_NAMES = {"int": "int", "float": "float", "bool": "bool", "addr": "GlobalAddress",
               "global": "GlobalTensor", "local": "LocalTensor", "pipe": "TPipe", "que": "TQue",
               "tbuf": "TBuf"}


def kind_name(v: Val) -> str:
    """The kernel-language type of an IR value, for messages."""
    return KIND_NAMES.get(v.kind, v.kind)


def describe(value: Any) -> str:
    """A short description of a value for error messages."""
    if isinstance(value, Val):
        return f"a {kind_name(value)}"
    if isinstance(value, Var):
        return f"a {KIND_NAMES.get(value.kind, value.kind)} variable"
    if isinstance(value, PendingGlobal):
        return "a GlobalTensor without memory (call set_global_buffer first)"
    if isinstance(value, KernelStruct):
        return f"a {value.cls.__name__} struct"
    if isinstance(value, KernelArray):
        return f"an array of {len(value)} {value.dtype}"
    if isinstance(value, types.ModuleType):
        return f"module {value.__name__!r}"
    if callable(value):
        return f"function {getattr(value, '__name__', value)!r}"
    return f"{type(value).__name__} {value!r}"


def did_you_mean(name: str, candidates: Iterable[str]) -> str:
    """'; did you mean 'x'?' for the candidate closest to a misspelt name,
    or '' when none is close."""
    public = [c for c in candidates if isinstance(c, str) and not c.startswith("_")]
    close = difflib.get_close_matches(name, public, n=1, cutoff=0.75)
    return f"; did you mean '{close[0]}'?" if close else ""


#: Python functions a kernel may call on compile-time values.
PURE_FUNCTIONS = {builtins.min, builtins.max, builtins.abs, builtins.int, builtins.float,
                  builtins.bool, builtins.len, builtins.round, builtins.divmod, builtins.pow} | {
    getattr(math, n) for n in dir(math) if callable(getattr(math, n))}

__all__ = ["KIND_NAMES", "PURE_FUNCTIONS", "SCALAR_KINDS", "BoundMethod", "KernelArray",
           "KernelStruct", "PendingGlobal", "Val", "Var", "describe", "enum_types", "is_int",
           "kind_name"]
