"""The parameter structs and enum of the sort and gather_mask APIs
(lowered in pyasc.language.lower.sort)."""

from __future__ import annotations

import enum

from pyasc.language import core


class GatherMaskMode(enum.IntEnum):
    """Template mode of ``gather_mask``: only DEFAULT exists."""

    DEFAULT = 0


class GatherMaskParams(core.ParamStruct):
    """Strides of ``gather_mask``: src0's block and repeat strides, src1's
    repeat stride (32-byte blocks) and the repeat count."""


class GatherRepeatParams(core.ParamStruct):
    """Strides of ``gatherb``'s destination blocks (32-byte blocks)."""


class MrgSort4Info(core.KernelObject):
    """``mrg_sort``/``mrg_sort4`` parameters: the four queue lengths,
    whether to stop when a queue runs out, the valid-queue bits and the
    repeat count."""


class MrgSortSrcList(core.KernelObject):
    """The two to four sorted queues ``mrg_sort``/``mrg_sort4`` merge
    (PyAsc also accepts a leading dtype)."""


#: number-only structs, built by lower_vector.make_struct: fields and defaults
STRUCTS = {
    GatherMaskParams: (("src0_block_stride", 1), ("repeat_times", 1), ("src0_repeat_stride", 0),
                       ("src1_repeat_stride", 0)),
    GatherRepeatParams: (("dst_blk_stride", 1), ("dst_rep_stride", 8)),
}
