"""How a lowering reads a call's arguments: binding them to names in
declared order, and checking that each is the kind of value it must be
(a tensor, a compile-time constant, a dtype)."""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING, Any

from pyasc import _C
from pyasc.language.ir.values import Val, describe
from pyasc.language.names.dtypes import DTYPE_CODES

if TYPE_CHECKING:
    from pyasc.language.codegen import CodeGenerator


def bind(gen: CodeGenerator, node: ast.Call, api: str, names: tuple[str, ...],
         args: list[Any], kwargs: dict[str, Any],
         defaults: dict[str, Any] | None = None) -> list[Any]:
    """Arguments in declared order, like Python's own binding."""
    defaults = defaults or {}
    if len(args) > len(names):
        raise gen.error(node, f"{api}() takes at most {len(names)} arguments ({len(args)} given)")
    values = dict(zip(names, args))
    for key, value in kwargs.items():
        if key not in names:
            raise gen.error(node, f"{api}() got an unexpected keyword argument '{key}'")
        if key in values:
            raise gen.error(node, f"{api}() got multiple values for argument '{key}'")
        values[key] = value
    missing = [n for n in names if n not in values and n not in defaults]
    if missing:
        raise gen.error(node, f"{api}() missing required argument '{missing[0]}' (signature: "
                              f"{api}({', '.join(names)}))")
    return [values.get(n, defaults.get(n)) for n in names]


def dtype_code(gen: CodeGenerator, node: ast.AST, value: Any) -> int:
    """The IR code of a dtype argument; an error naming the line when it is none."""
    try:
        name = _C.dtype(value).name
    except (TypeError, _C.Error):
        raise gen.error(node, f"expected a dtype such as pyasc.float32, got {describe(value)}") \
            from None
    if name.startswith("complex"):
        raise gen.error(node, f"{name} is a host tensor dtype: the AI core's vector and cube "
                              "units have no complex arithmetic")
    return DTYPE_CODES[name]


def constant(gen: CodeGenerator, node: ast.AST, value: Any, what: str) -> int:
    """value as a compile-time int; an error when it is a run-time value."""
    if isinstance(value, Val):
        raise gen.error(node, f"{what} must be a compile-time constant")
    return int(value)


def expect(gen: CodeGenerator, node: ast.AST, value: Any, kinds: tuple[str, ...], what: str) -> Val:
    """value, when it is an IR value of one of kinds; else an error naming what."""
    if not isinstance(value, Val) or value.kind not in kinds:
        names = " or ".join({"local": "a LocalTensor", "global": "a GlobalTensor",
                             "que": "a TQue", "tbuf": "a TBuf"}.get(k, k) for k in kinds)
        raise gen.error(node, f"{what} must be {names}, not {describe(value)}")
    return value


__all__ = ["bind", "constant", "dtype_code", "expect"]
