"""The lowerings' registry: each kernel API name has one handler, found by
name. A lowering module registers its handlers with :func:`lowers`; the
handler picks its own form from the arguments. Registering a name twice is
an error, so that no name is answered by whichever module is asked first."""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING, Any, Callable

if TYPE_CHECKING:
    from pyasc.language.codegen import CodeGenerator

#: a lowering: (code generator, call node, API name, arguments, keywords) -> its value
Handler = Callable[["CodeGenerator", ast.Call, str, "list[Any]", "dict[str, Any]"], Any]

_HANDLERS: dict[str, Handler] = {}


class DuplicateLowering(RuntimeError):
    """A name registered by two handlers."""


def lowers(*names: str) -> Callable[[Handler], Handler]:
    """A decorator: registers the function as the lowering of each of names."""
    def register(handler: Handler) -> Handler:
        for name in names:
            other = _HANDLERS.get(name)
            if other is not None:
                raise DuplicateLowering(
                    f"{name} is lowered twice: by {other.__module__}.{other.__qualname__} "
                    f"and {handler.__module__}.{handler.__qualname__}")
            _HANDLERS[name] = handler
        return handler
    return register


def lowering_for(name: str) -> Handler | None:
    """The handler registered for name, if any."""
    return _HANDLERS.get(name)


def registered() -> dict[str, Handler]:
    """A copy of the registry: name -> handler."""
    return dict(_HANDLERS)


__all__ = ["DuplicateLowering", "Handler", "lowering_for", "lowers", "registered"]
