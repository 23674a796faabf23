"""Errors of a kernel's launch as its user reads them.

A CompileError raised while a launch builds its kernel unwinds through the
code generator's frames, which say nothing to the author of the kernel.
:func:`user_traceback` replaces them with one frame at the kernel's line
(``PYASC_TRACEBACK=full`` keeps them all, for those debugging pyasc).
:func:`arity_error` words a launch with missing or extra arguments as
Python does for a call, naming the parameters.
"""

from __future__ import annotations

import inspect
import linecache
import os
from types import TracebackType


def _kernel_frame(err: BaseException) -> TracebackType | None:
    """A traceback entry at the kernel's line (err.kernel_location, which
    codegen sets): a frame of code compiled with the kernel's file name and
    line, so that tracebacks show that line of the user's source. The
    statement is as wide as the line, so no caret marks a part of it."""
    location = getattr(err, "kernel_location", None)
    if location is None:
        return None
    file, line, function = location
    if not isinstance(line, int) or line < 1 or not str(function).isidentifier():
        return None
    text = linecache.getline(str(file), line)
    indent = len(text) - len(text.lstrip())
    width = max(len(text.strip()) - len("raise ()"), len("error"))
    if line == 1:
        indent = 0
    statement = " " * indent + "raise (" + "error".ljust(width) + ")"
    # An indented statement needs a block to sit in: an `if` on the line before.
    lines = ["\n"] * (line - 1)
    if indent:
        lines[-1] = "if 1:\n"
    try:
        code = compile("".join(lines) + statement, str(file), "exec").replace(co_name=function)
    except (SyntaxError, ValueError):  # a file name with NUL, say: no frame then
        return None
    err.with_traceback(None)  # raising adds to a traceback it already has
    try:
        exec(code, {"error": err})  # noqa: S102 (our own one statement)
    except BaseException as raised:  # noqa: BLE001 (it is err)
        tb = raised.__traceback__
        return tb.tb_next if tb is not None else None  # drop this function's own frame
    return None


def user_traceback(err: BaseException) -> BaseException:
    """err with its traceback cut to the kernel's line, unless
    PYASC_TRACEBACK=full. The caller raises what this returns."""
    if os.environ.get("PYASC_TRACEBACK", "") == "full":
        return err
    return err.with_traceback(_kernel_frame(err))


def arity_error(name: str, signature: inspect.Signature, count: int) -> TypeError:
    """The TypeError for a launch of kernel name with count positional
    arguments, which signature does not take: which are missing, or how
    many it takes."""
    params = list(signature.parameters)
    listed = ", ".join(params)
    if count < len(params):
        missing = params[count:]
        noun = "argument" if len(missing) == 1 else "arguments"
        names = ", ".join(repr(p) for p in missing)
        return TypeError(f"{name}() missing {len(missing)} required {noun}: {names} "
                         f"(the kernel is {name}({listed}))")
    were = "was" if count == 1 else "were"
    return TypeError(f"{name}() takes {len(params)} argument{'s' * (len(params) != 1)} "
                     f"({listed}) but {count} {were} given")
