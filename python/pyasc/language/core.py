"""Kernel-language types and constants: what a kernel's annotations, enums
and constructors refer to. Inside a kernel these names are recognised by the
front end (pyasc.language.codegen); outside one they only describe."""

from __future__ import annotations

import enum
import re
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from pyasc.language.void import void  # noqa: F401  (PyAsc's asc.void)

if TYPE_CHECKING:
    from typing import Annotated, TypeAlias

    from pyasc import _C

T = TypeVar("T")


class TPosition(enum.IntEnum):
    """Logical memory positions (Ascend C ``TPosition``), with PyAsc's values.
    Kernels place queues, buffers and tensors in GM..VECCALC; the host's
    matmul tiling (:mod:`pyasc.host`) also names LCM..MAX."""

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
    LCM = 11
    SPM = 12
    SHM = 12
    TSCM = 13
    MAX = 14


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

    if TYPE_CHECKING:  # the kernel view, for type checkers
        dtype: _C.dtype

        def __add__(self, elements: int) -> GlobalAddress: ...


if TYPE_CHECKING:
    # To a type checker ``ConstExpr[int]`` is an int, as the kernel uses it.
    ConstExpr: TypeAlias = Annotated[T, "ConstExpr"]
else:

    class ConstExpr(Generic[T]):
        """``ConstExpr[int]``: a parameter folded at compile time; the kernel is
        specialised per value."""


def is_constexpr(annotation: Any) -> bool:
    """Whether a parameter annotation is ``ConstExpr`` (or a string naming it)."""
    if isinstance(annotation, str):  # a module with `from __future__ import annotations`
        return re.fullmatch(r"(\w+\.)*ConstExpr(\[.*\])?", annotation.strip()) is not None
    return annotation is ConstExpr or getattr(annotation, "__origin__", None) is ConstExpr


class KernelFunction:
    """Marker base of ``@pyasc.jit`` functions (:class:`pyasc.language.jit.JITFunction`):
    the code generator recognises a call of one by this class, below it."""


class KernelObject:
    """Base of the kernel-language classes: constructing one outside a
    kernel is an error, since they only exist on the device."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        raise TypeError(
            f"pyasc.{type(self).__name__} can only be created inside a @pyasc.jit kernel"
        )


class GlobalTensor(KernelObject):
    """A typed view of global memory (Ascend C ``GlobalTensor``)."""

    if TYPE_CHECKING:  # the kernel view (pyasc.language.lower.core.method)
        dtype: _C.dtype

        def set_global_buffer(self, gm_addr: GlobalAddress, buffer_size: int | None = None
                              ) -> None: ...
        def get_value(self, index: int) -> float: ...
        def set_value(self, index: int, value: float) -> None: ...
        def get_size(self) -> int: ...
        def __getitem__(self, index: int | slice) -> GlobalTensor: ...


class LocalTensor(KernelObject):
    """A typed range of the Unified Buffer (Ascend C ``LocalTensor``)."""

    if TYPE_CHECKING:  # the kernel view (pyasc.language.lower.core.method)
        dtype: _C.dtype

        def get_value(self, index: int) -> float: ...
        def set_value(self, index: int, value: float) -> None: ...
        def get_size(self) -> int: ...
        def get_length(self) -> int: ...
        def get_position(self) -> TPosition: ...
        def reinterpret_cast(self, dtype: _C.dtype) -> LocalTensor: ...
        def __getitem__(self, index: int | slice) -> LocalTensor: ...


class TPipe(KernelObject):
    """The on-chip memory manager of a kernel (Ascend C ``TPipe``)."""

    if TYPE_CHECKING:  # the kernel methods (pyasc.language.lower.core.method)
        def init_buffer(self, que: TQue | TBuf, num: int, len: int = ...) -> None: ...
        def destroy(self) -> None: ...
        def reset(self) -> None: ...


class TQue(KernelObject):
    """A queue of LocalTensors at a position, with a depth (Ascend C ``TQue``)."""

    if TYPE_CHECKING:  # the kernel methods (pyasc.language.lower.core.method)
        def alloc_tensor(self, dtype: _C.dtype) -> LocalTensor: ...
        def enque(self, tensor: LocalTensor) -> None: ...
        def deque(self, dtype: _C.dtype) -> LocalTensor: ...
        def free_tensor(self, tensor: LocalTensor) -> None: ...
        def has_tensor_in_que(self) -> bool: ...
        def vacant_in_que(self) -> bool: ...


class TBuf(KernelObject):
    """An un-queued scratch buffer (Ascend C ``TBuf``)."""

    if TYPE_CHECKING:  # the kernel methods (pyasc.language.lower.core.method)
        def get(self, dtype: _C.dtype, len: int | None = None) -> LocalTensor: ...
        def get_with_offset(self, size: int, buf_offset: int, dtype: _C.dtype) -> LocalTensor: ...


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


# --- API coverage: the enums and parameter structs of the vector APIs ----------------------


class RoundMode(enum.IntEnum):
    """Rounding of ``cast``: NONE rounds like RINT where precision is lost,
    RINT half to even, ROUND half away from zero, ODD to odd."""

    CAST_NONE = 0
    CAST_RINT = 1
    CAST_FLOOR = 2
    CAST_CEIL = 3
    CAST_ROUND = 4
    CAST_TRUNC = 5
    CAST_ODD = 6


class CMPMODE(enum.IntEnum):
    """Comparisons of ``compare``/``compare_scalar``: src0 <op> src1."""

    LT = 0
    GT = 1
    EQ = 2
    LE = 3
    GE = 4
    NE = 5


class SELMODE(enum.IntEnum):
    """Modes of ``select`` (PyAsc also names the enum ``SelMode``)."""

    VSEL_CMPMASK_SPR = 0
    VSEL_TENSOR_SCALAR_MODE = 1
    VSEL_TENSOR_TENSOR_MODE = 2


SelMode = SELMODE


class MaskMode(enum.IntEnum):
    """How ``set_vector_mask`` reads its value: per-repeat bits or a count."""

    NORMAL = 0
    COUNTER = 1


class ReduceOrder(enum.IntEnum):
    """What ``whole_reduce_max/min`` write per repeat."""

    ORDER_VALUE_INDEX = 0
    ORDER_INDEX_VALUE = 1
    ORDER_ONLY_VALUE = 2
    ORDER_ONLY_INDEX = 3


class ParamStruct(KernelObject):
    """A parameter struct (``BinaryRepeatParams``, ``DataCopyParams``...):
    built inside kernels, its fields read by the APIs it is passed to."""


class BinaryRepeatParams(ParamStruct):
    """Strides in 32-byte data blocks of the binary ops' mask forms."""


class UnaryRepeatParams(ParamStruct):
    """Strides in 32-byte data blocks of the unary/scalar ops' mask forms."""


class CopyRepeatParams(ParamStruct):
    """Strides of ``copy``'s mask form: block strides and repeat sizes in
    32-byte data blocks."""


class BrcbRepeatParams(ParamStruct):
    """Strides of ``brcb``: between the 8 blocks of a repeat and between
    repeats, in 32-byte data blocks."""


class DataCopyParams(ParamStruct):
    """``block_count`` bursts of ``block_len``, with gaps (units per API)."""


class DataCopyExtParams(ParamStruct):
    """The wide-range ``DataCopyParams`` of ``data_copy_pad``."""


class DataCopyPadParams(ParamStruct):
    """GM->UB padding of ``data_copy_pad``."""


class DataCopyPadExtParams(ParamStruct):
    """GM->UB padding of ``data_copy_pad`` with a typed value."""


class ShapeInfo(ParamStruct):
    """Shape information for ``dump_tensor`` (accepted, not used)."""


class StructValue:
    """A parameter struct inside a kernel (what ``asc.DataCopyParams(...)``
    evaluates to): its fields are compile-time values or run-time IR values,
    read by the API it is passed to. A compile-time object, so a name may be
    rebound to one in loops and branches."""

    def __init__(self, cls: type, fields: dict[str, Any]) -> None:
        self.struct = cls
        self.__dict__.update(fields)
        self.fields = tuple(fields)

    def __repr__(self) -> str:
        inner = ", ".join(f"{f}={getattr(self, f)!r}" for f in self.fields)
        return f"{self.struct.__name__}({inner})"
