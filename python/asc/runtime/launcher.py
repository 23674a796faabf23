"""PyAsc's ``asc.runtime.launcher``: the object every kernel launch passes
through.

PyAsc's own tests replace ``Launcher.run`` (``unittest.mock.patch(
"asc.runtime.launcher.Launcher.run", return_value=None)``) so that a launch
compiles its kernel and runs nothing. pyasc launches built kernels from C
without running Python; so that such a replacement sees every launch, the
class tells pyasc when ``run`` is replaced or restored, and while it is
replaced each launch builds its kernel (raising every CompileError) and
calls ``Launcher(LaunchOptions(core_num, stream)).run(kernel, name, args)``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pyasc.language import jit as _jit


@dataclass(frozen=True)
class LaunchOptions:
    """Where a launch runs: its core (block) count and stream (None: the
    current stream)."""

    core_num: int = 0
    stream: Any = None


class _RunWatcher(type):
    """Tells pyasc whether ``run`` is the class's own whenever it is set or
    deleted on the class (which is how ``unittest.mock.patch`` replaces and
    restores it)."""

    def __setattr__(cls, name: str, value: Any) -> None:
        super().__setattr__(name, value)
        if name == "run":
            _route_launches(cls)

    def __delattr__(cls, name: str) -> None:
        super().__delattr__(name)
        if name == "run":
            _route_launches(cls)


class Launcher(metaclass=_RunWatcher):
    """Runs one built kernel with the options of one launch."""

    def __init__(self, options: LaunchOptions) -> None:
        self.options = options

    def run(self, kernel: Any, function_name: str, user_args: Any) -> None:
        """Launches `kernel` (a built specialisation) on ``options.core_num``
        blocks of ``options.stream`` with its run-time arguments
        `user_args` (constexprs left out, structs flattened)."""
        del function_name  # the kernel knows its name; kept for PyAsc's signature
        kernel.native.launch(self.options.core_num, self.options.stream, *user_args)


_OWN_RUN = Launcher.__dict__["run"]


def _hooked_launch(kernel: Any, name: str, args: list, core_num: Any, stream: Any) -> bool:
    """Hands the launch to ``Launcher.run`` while it is replaced; once it is
    the class's own again, routes launches back to the fast path and
    returns False, so that pyasc launches (and remembers) this one itself."""
    if Launcher.__dict__.get("run") is _OWN_RUN:
        _jit.set_launch_hook(None)
        return False
    Launcher(LaunchOptions(core_num, stream)).run(kernel, name, tuple(args))
    return True


def _route_launches(cls: type) -> None:
    """Launches go through ``Launcher.run`` while it is not the class's own
    method, and through pyasc's fast path otherwise."""
    own = cls.__dict__.get("run") is _OWN_RUN
    _jit.set_launch_hook(None if own else _hooked_launch)
