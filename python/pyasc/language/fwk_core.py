"""PyAsc's framework and core names beyond TPipe/TQue/TBuf: the atomic
store modes (``set_atomic_add`` ... ``set_store_atomic_config``), ``TQueBind``,
``TBufPool``, ``get_tpipe_ptr``, ``LocalMemAllocator``, ``get_shape_size``,
``set_pad_value`` and their enums. Inside kernels the front end lowers them
(pyasc.language.lower.fwk); outside they only name things."""

from __future__ import annotations

import enum
from typing import TYPE_CHECKING

from pyasc.language.core import KernelObject, ParamStruct
from pyasc.language.layout import DataFormat
from pyasc.language.system import CacheMode, CacheRwMode

if TYPE_CHECKING:
    from pyasc import _C
    from pyasc.language.core import LocalTensor


class AtomicDtype(enum.IntEnum):
    """The element type of the atomic store mode (``set_store_atomic_config``);
    ATOMIC_NONE turns it off. Values are the hardware register's."""

    ATOMIC_NONE = 0
    ATOMIC_F32 = 1
    ATOMIC_F16 = 2
    ATOMIC_S16 = 3
    ATOMIC_S32 = 4
    ATOMIC_S8 = 5
    ATOMIC_BF16 = 6


class AtomicOp(enum.IntEnum):
    """The operation of the atomic store mode. The documented register value
    is SUM; ``set_atomic_max``/``set_atomic_min`` read back as 1 and 2."""

    ATOMIC_SUM = 0


class pad_t(enum.IntEnum):  # noqa: N801  (PyAsc's name)
    """Padding modes of Ascend C's image instructions (named for PyAsc
    programs; no pyasc API takes one yet)."""

    PAD_NONE = 0
    PAD_MODE1 = 1
    PAD_MODE2 = 2
    PAD_MODE3 = 3
    PAD_MODE4 = 4
    PAD_MODE5 = 5
    PAD_MODE6 = 6
    PAD_MODE7 = 7
    PAD_MODE8 = 8


class InitConstValueParams(ParamStruct):
    """``init_const_value``'s parameters: repeat_times, block_num, dst_gap
    (blocks) and init_value; with block_num and dst_gap 0 each repeat fills
    512 bytes."""


class TQueBind(KernelObject):
    """A queue that binds a source and a destination position
    (``TQueBind(src, dst, depth)``); one end is GM, and the buffers live at
    the other. Its methods are TQue's."""


class TBufPool(KernelObject):
    """A sub-pool of the Unified Buffer (``TPipe.init_buf_pool``) from which
    queues and TBufs take their buffers."""

    if TYPE_CHECKING:  # the kernel methods (pyasc.language.lower.fwk)
        def init_buffer(self, que: object, num: int = 0, len: int = 0) -> None: ...
        def init_buf_pool(self, buf_pool: TBufPool, len: int = 0,
                          share_buf: TBufPool | None = None) -> None: ...
        def reset(self) -> None: ...


class LocalMemAllocator(KernelObject):
    """Hands out consecutive 32-byte aligned LocalTensors of the Unified
    Buffer from address 0 (static tensor programming, without a TPipe)."""

    if TYPE_CHECKING:
        def alloc(self, pos: int, data_type: _C.dtype, tile_size: int) -> LocalTensor: ...
        def get_cur_addr(self) -> int: ...


#: The kernel-only APIs of this module (pyasc.language.builtins adds them to KERNEL_ONLY).
DOCS = {
    "set_atomic_add": "set_atomic_add(dtype): later UB->GM copies add into global memory.",
    "set_atomic_max": "set_atomic_max(dtype): later UB->GM copies keep the maximum.",
    "set_atomic_min": "set_atomic_min(dtype): later UB->GM copies keep the minimum.",
    "set_atomic_none": "set_atomic_none(): UB->GM copies overwrite again.",
    "set_atomic_type": "set_atomic_type(dtype): the element type of the atomic mode.",
    "set_store_atomic_config": "set_store_atomic_config(atomic_type, atomic_op): set the "
                               "atomic mode register (AtomicDtype, AtomicOp).",
    "get_store_atomic_config": "get_store_atomic_config() -> (atomic_type, atomic_op).",
    "get_tpipe_ptr": "get_tpipe_ptr() -> TPipe: the kernel's TPipe.",
    "init_const_value": "init_const_value(dst, init_const_value_params): fill an L1/L0A/L0B "
                        "tensor with a value.",
    "sync_all": "sync_all(is_aiv_only=True) or sync_all(gm_workspace, ub_workspace, "
                "used_cores=0, is_aiv_only=True): every block of the launch waits for all.",
    "get_shape_size": "get_shape_size(shape_info) -> int: the product of the shape's dims.",
    "set_pad_value": "set_pad_value(padding_value, pos=TPosition.MAX): the value data_copy_pad "
                     "writes into the bytes after each row up to its 32-byte boundary.",
}

#: The classes and enums this module gives pyasc's top level.
NAMES = ("AtomicDtype", "AtomicOp", "pad_t",
         "InitConstValueParams", "TQueBind", "TBufPool", "LocalMemAllocator")

#: The parameter structs' fields and defaults (pyasc.language.lower.vector.make_struct).
STRUCTS = {InitConstValueParams: (("repeat_times", 0), ("block_num", 0), ("dst_gap", 0),
                                  ("init_value", 0))}
