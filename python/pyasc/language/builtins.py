"""The kernel-only Ascend C APIs, and which pyasc names a kernel may call.

Some API names are also eager tensor operations outside kernels
(``pyasc.add``, ``pyasc.exp``, ``pyasc.max``...): inside a kernel the front
end resolves those objects to the vector instruction of the same name."""

from __future__ import annotations

from pyasc.language.core import KernelBuiltin

_DOCS = {
    "get_block_idx": "get_block_idx() -> int: index of the running block (AI core).",
    "get_block_num": "get_block_num() -> int: number of blocks in the launch.",
    "data_copy": "data_copy(dst, src, count): copy count elements GM<->UB or UB<->UB.",
    "copy": "copy(dst, src, count): vector copy between LocalTensors.",
    "duplicate": "duplicate(dst, scalar, count): fill count elements with a scalar.",
    "sub": "sub(dst, src0, src1, count): dst = src0 - src1.",
    "mul": "mul(dst, src0, src1, count): dst = src0 * src1.",
    "div": "div(dst, src0, src1, count): dst = src0 / src1.",
    "adds": "adds(dst, src, scalar, count): dst = src + scalar.",
    "muls": "muls(dst, src, scalar, count): dst = src * scalar.",
    "maxs": "maxs(dst, src, scalar, count): dst = max(src, scalar).",
    "mins": "mins(dst, src, scalar, count): dst = min(src, scalar).",
    "ln": "ln(dst, src, count): natural logarithm.",
    "set_flag": "set_flag(event, event_id=0): signal a HardEvent between pipes.",
    "wait_flag": "wait_flag(event, event_id=0): wait for a HardEvent.",
    "pipe_barrier": "pipe_barrier(pipe): order all earlier work on a pipe.",
    "printf": "printf(format, *args): print from the device.",
}

#: API names that are also eager pyasc operations outside kernels.
SHARED_NAMES = ("add", "max", "min", "exp", "abs", "sqrt", "rsqrt", "reciprocal", "relu")

#: Builtins created for kernel-only names (and for shared names that have
#: no eager operation).
KERNEL_ONLY = {name: KernelBuiltin(name, doc) for name, doc in _DOCS.items()}


def shared_builtin(name: str) -> KernelBuiltin:
    """A kernel builtin for a shared name with no eager operation."""
    return KernelBuiltin(name, f"{name}: vector instruction inside @pyasc.jit kernels.")
