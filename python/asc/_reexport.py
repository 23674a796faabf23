"""Picks pyasc's kernel-language objects by PyAsc's names, so that every
``asc`` module is a view of pyasc and never a second implementation."""

from __future__ import annotations

from typing import Any, Iterable

import pyasc
from pyasc.language import builtins, core

#: PyAsc's spellings of dtypes that pyasc names otherwise.
_DTYPE_ALIASES = {"half": "float16", "float_": "float32", "double": "float64", "int_": "int32"}


def _is_kernel_language(name: str, value: Any) -> bool:
    """True for objects of the kernel language: its types, enums, builtins
    and constants, the eager operations that kernels resolve to vector
    instructions, and dtypes (not pyasc's other eager functions)."""
    if name in builtins.SHARED_NAMES:
        return True
    if isinstance(value, (int, pyasc.dtype, core.KernelBuiltin)):
        return True
    module = getattr(value, "__module__", None) or ""
    return module.startswith("pyasc.language")


def kernel_language() -> dict[str, Any]:
    """Every kernel-language object pyasc exports, by name: pyasc's top
    level first, then pyasc.language.core; PyAsc's dtype spellings and
    ``DataType`` (pyasc's dtype class) where pyasc has no such name."""
    names: dict[str, Any] = {}
    for source in (vars(pyasc), vars(core)):
        for name, value in source.items():
            if not name.startswith("_") and _is_kernel_language(name, value):
                names.setdefault(name, value)
    for alias, name in _DTYPE_ALIASES.items():
        names.setdefault(alias, getattr(pyasc, name))
    names.setdefault("DataType", pyasc.dtype)
    names["jit"] = pyasc.jit
    return names


def export(namespace: dict[str, Any], wanted: Iterable[str],
           available: dict[str, Any] | None = None) -> list[str]:
    """Puts the objects of ``wanted`` names that pyasc has into namespace;
    returns the names put there, for ``__all__``."""
    available = kernel_language() if available is None else available
    present = [name for name in wanted if name in available]
    namespace.update({name: available[name] for name in present})
    return present
