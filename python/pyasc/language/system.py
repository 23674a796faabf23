"""The enums and parameter struct of PyAsc's system and hardware APIs
(``data_sync_barrier``, ``data_cache_clean_and_invalid``,
``check_local_memory_ia``...), with PyAsc's values. Their lowering is
pyasc.language.lower.system; their runtime src/compiler/rt/system.h."""

from __future__ import annotations

import enum

from pyasc.language.core import ParamStruct


class MemDsbT(enum.IntEnum):
    """The memory accesses ``data_sync_barrier`` waits for."""

    ALL = 0
    DDR = 1
    UB = 2
    SEQ = 3


class CacheLine(enum.IntEnum):
    """What ``data_cache_clean_and_invalid`` flushes: one line or the whole cache."""

    SINGLE_CACHE_LINE = 0
    ENTIRE_DATA_CACHE = 1


class DcciDst(enum.IntEnum):
    """The memory ``data_cache_clean_and_invalid`` keeps the data cache coherent with."""

    CACHELINE_ALL = 0
    CACHELINE_UB = 1
    CACHELINE_OUT = 2
    CACHELINE_ATOMIC = 3


class CacheMode(enum.IntEnum):
    """L2 cache modes of global memory accesses."""

    CACHE_MODE_NORMAL = 0
    CACHE_MODE_DISABLE = 1
    CACHE_MODE_LAST = 2
    CACHE_MODE_PERSISTENT = 4


class CacheRwMode(enum.IntEnum):
    """Read, write or both, for cache hints."""

    READ = 1
    WRITE = 2
    RW = 3


class Hardware(enum.IntEnum):
    """The memories of an AI core."""

    GM = 0
    UB = 1
    L1 = 2
    L0A = 3
    L0B = 4
    L0C = 5
    BIAS = 6
    FIXBUF = 7
    MAX = 8


class CheckLocalMemoryIAParam(ParamStruct):
    """The UB access check register of ``check_local_memory_ia``: a range
    (start_addr, end_addr] in 32-byte units and the accesses to trap."""


#: fields and defaults of the structs above, for the kernel front end
STRUCTS = {
    CheckLocalMemoryIAParam: (("enable_bit", 0), ("start_addr", 0), ("end_addr", 0),
                              ("is_scalar_read", False), ("is_scalar_write", False),
                              ("is_vector_read", False), ("is_vector_write", False),
                              ("is_mte_read", False), ("is_mte_write", False),
                              ("is_enable", False)),
}
