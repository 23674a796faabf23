"""Kernel-language types and constants: what a kernel's annotations, enums
and constructors refer to. Inside a kernel these names are recognised by the
front end (pyasc.language.codegen); outside one they only describe."""

from __future__ import annotations

import enum
from typing import Any, Generic, TypeVar

T = TypeVar("T")


class TPosition(enum.IntEnum):
    """Logical memory positions (Ascend C ``TPosition``), with PyAsc's values."""

    GM = 0
    A1 = 1
    A2 = 2
    B1 = 3
    B2 = 4
    C1 = 5
    C2 = 6
    CO1 = 7
    CO2 = 8
    VECIN = 9
    VECOUT = 10
    VECCALC = 11


class HardEvent(enum.IntEnum):
    """Synchronisation events between pipes, named SOURCE_DESTINATION."""

    MTE2_MTE1 = 0
    MTE1_MTE2 = 1
    MTE1_M = 2
    M_MTE1 = 3
    MTE2_V = 4
    V_MTE2 = 5
    MTE3_V = 6
    V_MTE3 = 7
    M_V = 8
    V_M = 9
    V_V = 10
    MTE3_MTE1 = 11
    MTE1_MTE3 = 12
    MTE1_V = 13
    MTE2_M = 14
    M_MTE2 = 15
    V_MTE1 = 16
    M_FIX = 17
    FIX_M = 18
    MTE3_MTE2 = 19
    MTE2_MTE3 = 20
    S_V = 21
    V_S = 22
    S_MTE2 = 23
    MTE2_S = 24
    S_MTE3 = 25
    MTE3_S = 26
    MTE2_FIX = 27
    FIX_MTE2 = 28
    FIX_S = 29
    M_S = 30
    FIX_MTE3 = 31


class PipeID(enum.IntEnum):
    """Hardware pipes (Ascend C ``pipe_t``), for ``pipe_barrier``."""

    PIPE_S = 0
    PIPE_V = 1
    PIPE_M = 2
    PIPE_MTE1 = 3
    PIPE_MTE2 = 4
    PIPE_MTE3 = 5
    PIPE_ALL = 6
    PIPE_MTE4 = 7
    PIPE_MTE5 = 8
    PIPE_V2 = 9
    PIPE_FIX = 10


class GlobalAddress:
    """Annotation of a kernel parameter pointing to global memory.

    The launch passes a pyasc.Tensor, numpy.ndarray or torch.Tensor (zero
    copy); inside the kernel ``x.dtype`` is its element type and ``x + n``
    advances by n elements.
    """


class ConstExpr(Generic[T]):
    """``ConstExpr[int]``: a parameter folded at compile time; the kernel is
    specialised per value."""


class KernelObject:
    """Base of the kernel-language classes: constructing one outside a
    kernel is an error, since they only exist on the device."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        raise TypeError(
            f"pyasc.{type(self).__name__} can only be created inside a @pyasc.jit kernel"
        )


class GlobalTensor(KernelObject):
    """A typed view of global memory (Ascend C ``GlobalTensor``)."""


class LocalTensor(KernelObject):
    """A typed range of the Unified Buffer (Ascend C ``LocalTensor``)."""


class TPipe(KernelObject):
    """The on-chip memory manager of a kernel (Ascend C ``TPipe``)."""


class TQue(KernelObject):
    """A queue of LocalTensors at a position, with a depth (Ascend C ``TQue``)."""


class TBuf(KernelObject):
    """An un-queued scratch buffer (Ascend C ``TBuf``)."""


class KernelBuiltin:
    """An Ascend C API that exists only inside kernels, e.g. ``data_copy``."""

    def __init__(self, name: str, doc: str) -> None:
        self.name = name
        self.__name__ = name
        self.__doc__ = doc

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        raise TypeError(f"pyasc.{self.name} can only be called inside a @pyasc.jit kernel")

    def __repr__(self) -> str:
        return f"<pyasc kernel builtin {self.name}>"
