"""Device memory: allocation through the caching allocator, copies, statistics.

Every function is libasc's, exposed by ``pyasc._C``; see their docstrings.
"""

from pyasc._C import (
    DeviceBuffer,
    alloc,
    empty_cache,
    memcpy,
    memory_stats,
    memset,
    reset_peak_memory_stats,
    set_caching,
    set_memory_limit,
)

__all__ = [
    "DeviceBuffer",
    "alloc",
    "empty_cache",
    "memcpy",
    "memory_stats",
    "memset",
    "reset_peak_memory_stats",
    "set_caching",
    "set_memory_limit",
]
