"""Builds a kernel: the code generator's IR (:mod:`pyasc.language.codegen`),
its C and Ascend C, and the native code. Loaded by :mod:`pyasc.language.jit`
at a kernel's first build, so that ``import pyasc`` does not load the code
generator."""

from __future__ import annotations

import sys
from typing import Any

import pyasc
from pyasc import _C
from pyasc.language.codegen import CodeGenerator
from pyasc.language.jit import CompiledKernel, JITFunction
from pyasc.language.options import KernelType


def _raise(exc: Exception) -> None:
    raise exc


def _core_mode(options: dict) -> int:
    """The launch's core kind when the options fix it: 1 AIC (cube) cores
    alone (matmul_cube_only, kernel_type AIC_ONLY or MIX_AIC_1_0), 2 groups
    of one AIC and two AIVs (MIX_AIC_1_2), 3 AIV cores alone (AIV_ONLY,
    MIX_AIV_1_0); 0 leaves it to the kernel: a launch of groups if it asks
    for the core kind, uses the cross-core flags or a Matmul (rt/mix.h),
    else one core per block."""
    kind = options.get("kernel_type")
    if options.get("matmul_cube_only") or kind in (KernelType.AIC_ONLY, KernelType.MIX_AIC_1_0):
        return 1
    if kind is KernelType.MIX_AIC_1_2:
        return 2
    if kind in (KernelType.AIV_ONLY, KernelType.MIX_AIV_1_0):
        return 3
    return 0


def _emit_ascendc(gen: Any, builder: Any) -> str:
    """builder's Ascend C source; errors name the kernel's source line."""
    try:
        return builder.emit_ascendc()
    except _C.Error as exc:
        try:
            gen.ir(gen.scope.node, _raise, exc)  # locates "line N: ..." in the source
        except _C.Error as located:
            raise type(exc)(str(located)) from None
        raise


def _dump(name: str, ir_text: str, ascendc: str | None) -> None:
    """Writes <name>.ir and <name>.ascendc.cpp under $PYASC_DUMP_PATH, if set.

    libasc writes them as it writes the .c file beside them (asc_jit_dump):
    only the name's [A-Za-z0-9_] form names a file, the directory must be
    the user's own, and a link or FIFO planted in it is refused."""
    if _C.write_dump(name, ".ir", ir_text) and ascendc is not None:
        _C.write_dump(name, ".ascendc.cpp", ascendc)


def _generate(kernel: JITFunction, specs: list) -> tuple[CodeGenerator, _C.IRBuilder]:
    """The kernel's code generator and IR for these argument specs, after the
    insert_sync pass when the option says so (unset, as in PyAsc, it runs for
    kernels that use LocalTensorAuto)."""
    gen = CodeGenerator(kernel.fn, specs, pyasc.get_device_properties().ub_size)
    gen.core_mode = _core_mode(kernel.options)
    builder = gen.compile()
    insert = kernel.options.get("insert_sync")
    if gen.auto_sync if insert is None else insert:
        gen.ir(gen.scope.node, builder.insert_sync)
    return gen, builder


def build(kernel: JITFunction, specs: list, signature: str, checked: bool,
          profiled: bool = False) -> CompiledKernel:
    """One specialisation of kernel: IR, C (with run-time checks when checked,
    with the timing model's accounting when profiled), Ascend C when the
    kernel has one, and the native build (cached on disk)."""
    gen, builder = _generate(kernel, specs)
    if kernel.options.get("verify_sync"):
        gen.ir(gen.scope.node, builder.check_sync)  # a CompileError at the later line
    ir_text = builder.text()
    if kernel.options.get("print_ir_before_all"):
        print(ir_text, file=sys.stderr, flush=True)
    source = builder.emit_c(checked=checked, profiled=profiled)
    ascendc, ascendc_error = None, None
    try:
        ascendc = _emit_ascendc(gen, builder)
    except _C.Error as exc:  # the simulator can still run it
        ascendc_error = exc
    _dump(kernel.__name__, ir_text, ascendc)
    native, hit = _C.jit_build(source, kernel.__name__, signature,
                               cache_dir=kernel.options.get("cache_dir"),
                               always_compile=bool(kernel.options.get("always_compile")))
    return CompiledKernel(kernel.__name__, ir_text, source, native, hit, signature,
                          ascendc, ascendc_error)


def ascendc_source(kernel: JITFunction, specs: list) -> str:
    """The Ascend C source of kernel for these argument specs (the IR only:
    nothing is compiled)."""
    gen, builder = _generate(kernel, specs)
    source = _emit_ascendc(gen, builder)
    _dump(kernel.__name__, builder.text(), source)
    return source


__all__ = ["ascendc_source", "build"]
