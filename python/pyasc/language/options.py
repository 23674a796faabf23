"""The options of ``@pyasc.jit(...)`` (PyAsc's ``@asc.jit(...)``), grouped as
PyAsc groups them: code generation, compilation and launch.

The fields are PyAsc's, so its programs' options are accepted; what each
one means in the simulator is in the field's comment. An option name that
is none of these is a TypeError.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, fields
from typing import Any, Optional, Tuple


class KernelType(enum.Enum):
    """Which AI cores a kernel runs on (PyAsc's runtime.config.KernelType).
    The simulator runs vector and cube work on every block whatever the
    type; it is accepted so that programs naming one run unchanged."""

    AIV_ONLY = 0
    AIC_ONLY = 1
    MIX_AIV_HARD_SYNC = 2
    MIX_AIC_HARD_SYNC = 3
    MIX_AIV_1_0 = 4
    MIX_AIC_1_0 = 5
    MIX_AIC_1_1 = 6
    MIX_AIC_1_2 = 7


@dataclass
class CodegenOptions:
    """Front-end options. Both concern PyAsc's MLIR front end; here errors
    always carry the kernel's file:line and the IR is built on one thread."""

    capture_exceptions: bool = True
    ir_multithreading: bool = True


@dataclass
class CompileOptions:
    """Compilation options."""

    #: None: follow PYASC_DEBUG. True builds the checked variant (in PyAsc:
    #: device printing; printf and dump_tensor always print here).
    debug: Optional[bool] = None
    #: Accepted; errors keep their source lines.
    strip_loc: bool = False
    #: Checks pipe synchronisation statically at compile time.
    verify_sync: bool = False
    #: Prints the kernel's IR to stderr before it is built.
    print_ir_before_all: bool = False
    #: Accepted; the checks and folding passes always run (they are what
    #: turns mistakes into errors).
    run_passes: bool = True
    #: Accepted (see KernelType).
    kernel_type: Optional[KernelType] = None
    #: 0-3 or None: accepted; the host compiler's level is fixed.
    opt_level: Optional[int] = 3
    #: Accepted: pipes run in program order within a block in the
    #: simulator, which is what inserted synchronisation achieves.
    auto_sync: Optional[bool] = True
    auto_sync_log: Optional[str] = ""
    #: Accepted; flags of the NPU compiler have no meaning for the host one.
    bisheng_options: Optional[Tuple[str, ...]] = None
    #: Rebuilds on every launch instead of using the in-memory and disk caches.
    always_compile: bool = False
    #: Accepted; cube work runs on the same simulated block.
    matmul_cube_only: bool = False
    #: Adds the set_flag/wait_flag pairs the kernel lacks (the insert_sync
    #: pass); None, as in PyAsc: on exactly for kernels using LocalTensorAuto.
    insert_sync: Optional[bool] = None
    #: pyasc's own: the kernel cache directory (default PYASC_CACHE_DIR).
    cache_dir: Optional[str] = None


@dataclass(frozen=True)
class LaunchOptions:
    """``kernel[core_num, stream]``: blocks to run and the stream (None: the
    current one)."""

    core_num: int = 0
    stream: Any = None


def option_names() -> frozenset[str]:
    """Every option name of PyAsc's, launch ones included (a launch keyword
    with such a name that is no parameter is a misplaced option)."""
    return frozenset(f.name for cls in (CodegenOptions, CompileOptions, LaunchOptions)
                     for f in fields(cls))


def launch_option_names() -> frozenset[str]:
    """The options a launch takes as keywords, as PyAsc's launcher does:
    those of CodegenOptions and CompileOptions (``kernel[...](x, debug=True)``
    builds and runs as ``@jit(debug=True)`` would). LaunchOptions' fields
    are given in ``kernel[core_num, stream]``."""
    return frozenset(f.name for cls in (CodegenOptions, CompileOptions) for f in fields(cls))


def split_launch_options(params: Any, kwargs: dict[str, Any]
                         ) -> tuple[dict[str, Any], dict[str, Any]]:
    """kwargs split into (arguments, options): an option name that is no
    parameter of the kernel is an option; LaunchOptions' fields are a
    TypeError naming where they go."""
    misplaced = sorted({f.name for f in fields(LaunchOptions)} & set(kwargs) - set(params))
    if misplaced:
        raise TypeError(f"{', '.join(map(repr, misplaced))}: launch options go in "
                        "kernel[core_num, stream], not to the call")
    names = launch_option_names()
    options = {k: v for k, v in kwargs.items() if k in names and k not in params}
    return {k: v for k, v in kwargs.items() if k not in options}, options


def parse_options(fn_name: str, options: dict[str, Any]) -> tuple[CodegenOptions, CompileOptions]:
    """The options given to ``@jit(...)``, checked: an unknown name or a value
    of the wrong kind is a TypeError naming it."""
    codegen_names = {f.name for f in fields(CodegenOptions)}
    compile_names = {f.name for f in fields(CompileOptions)}
    unknown = sorted(set(options) - codegen_names - compile_names)
    if unknown:
        raise TypeError(f"@jit({fn_name}): unknown option{'s' if len(unknown) > 1 else ''} "
                        f"{', '.join(map(repr, unknown))}; the options are those of "
                        "CodegenOptions and CompileOptions")
    codegen = CodegenOptions(**{k: v for k, v in options.items() if k in codegen_names})
    compile_ = CompileOptions(**{k: v for k, v in options.items() if k in compile_names})
    if compile_.kernel_type is not None and not isinstance(compile_.kernel_type, KernelType):
        raise TypeError(f"@jit({fn_name}): kernel_type must be a KernelType or None, not "
                        f"{type(compile_.kernel_type).__name__}")
    level = compile_.opt_level
    if level is not None and (not isinstance(level, int) or isinstance(level, bool)
                              or not 0 <= level <= 3):
        raise TypeError(f"@jit({fn_name}): opt_level must be 0, 1, 2, 3 or None, not {level!r}")
    if compile_.bisheng_options is not None and (
            isinstance(compile_.bisheng_options, str)
            or not all(isinstance(o, str) for o in compile_.bisheng_options)):
        raise TypeError(f"@jit({fn_name}): bisheng_options must be a sequence of str")
    return codegen, compile_
