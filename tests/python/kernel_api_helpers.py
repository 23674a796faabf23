"""What the kernel-API test files share: the kernel cache (kernel_cache.py), the plain
and checked-mode variants of a kernel, a synchronous launch, and the two
device functions that move n elements between global memory and the UB."""

from __future__ import annotations

from typing import Any

import pyasc as asc
from kernel_cache import kernel_cache_dir

CACHE = kernel_cache_dir("pyasc-api-tests-")


def jit(fn: Any) -> Any:
    """``asc.jit`` into the tests' private cache."""
    return asc.jit(fn, cache_dir=CACHE)


def modes(kernel: Any) -> tuple[Any, Any]:
    """The kernel, then its checked-mode variant."""
    return (kernel, asc.jit(kernel.fn, cache_dir=CACHE, debug=True))


def launch(kernel: Any, *args: Any) -> None:
    """One block, waited for."""
    kernel[1](*args)
    asc.synchronize()


@jit
def local(addr: asc.GlobalAddress, at: asc.ConstExpr[int], n: asc.ConstExpr[int]):
    """n elements of addr copied into the UB at byte `at`."""
    g = asc.GlobalTensor()
    g.set_global_buffer(addr, n)
    t = asc.LocalTensor(addr.dtype, asc.TPosition.VECCALC, at, n)
    asc.data_copy(t, g, n)
    asc.set_flag(asc.HardEvent.MTE2_V, 0)
    asc.wait_flag(asc.HardEvent.MTE2_V, 0)
    return t


@jit
def store(addr: asc.GlobalAddress, t, n: asc.ConstExpr[int]):
    """n elements of t copied to addr, after the vector pipe."""
    g = asc.GlobalTensor()
    g.set_global_buffer(addr, n)
    asc.set_flag(asc.HardEvent.V_MTE3, 0)
    asc.wait_flag(asc.HardEvent.V_MTE3, 0)
    asc.data_copy(g, t, n)
