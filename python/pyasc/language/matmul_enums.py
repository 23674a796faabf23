"""PyAsc's Matmul configuration enums (``asc.MatmulConfigMode``,
``asc.ScheduleType``, ``asc.IterateOrder``, ``asc.IterateMode``,
``asc.BatchMode``, ``asc.LayoutMode``, ``asc.CO2Layout``) with upstream's
values, so that programs that name them compile. The simulated Matmul runs
its normal schedule whatever they select."""

from __future__ import annotations

import enum


class MatmulConfigMode(enum.IntEnum):
    """Which Matmul template a MatmulConfig describes."""

    CONFIG_NORM = 1
    CONFIG_MDL = 2
    CONFIG_SPECIALMDL = 3
    CONFIG_IBSHARE = 4


class ScheduleType(enum.IntEnum):
    """How K is walked: inner products (K innermost) or outer products."""

    INNER_PRODUCT = 0
    OUTER_PRODUCT = 1


class IterateOrder(enum.IntEnum):
    """Which of M and N the base blocks advance along first."""

    ORDER_M = 0
    ORDER_N = 1
    UNDEF = 2


class IterateMode(enum.IntFlag):
    """The iterate forms a Matmul object may use (bits)."""

    ITERATE_MODE_NORMAL = 0b00000001
    ITERATE_MODE_ALL = 0b00000010
    ITERATE_MODE_BATCH = 0b00000100
    ITERATE_MODE_N_BATCH = 0b00001000
    ITERATE_MODE_DEFAULT = 0b11111111


class BatchMode(enum.IntEnum):
    """How a batch matmul's operands fit L1."""

    NONE = 0
    BATCH_LESS_THAN_L1 = 1
    BATCH_LARGE_THAN_L1 = 2
    SINGLE_LARGE_THAN_L1 = 3


class LayoutMode(enum.IntEnum):
    """Batch layouts of A/B/C (MatmulType's layout)."""

    NONE = 0
    NORMAL = 1
    BSNGD = 2
    SBNGD = 3
    BNGS1S2 = 4


class CO2Layout(enum.IntEnum):
    """Layout of results leaving L0C."""

    NZ = 0
    ROW_MAJOR = 1
    COLUMN_MAJOR = 2


__all__ = ["BatchMode", "CO2Layout", "IterateMode", "IterateOrder", "LayoutMode",
           "MatmulConfigMode", "ScheduleType"]
