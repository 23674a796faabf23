"""Docstrings of pyasc.memory's functions (src/binding/memory.c): device
memory through the caching allocator, copies and statistics.

Each entry names its parameters, what it returns and an example that
undoes what it changes (the cache's settings are the process's).
tools/gen_docstrings.py renders them; docs/contributing.md ("Docstrings")
describes the fields.
"""

_device = ("device", "int or str, optional",
           "A device index, 'cpu' or 'cpu:N'; None (the default) for the current\ndevice.")
_stream = ("stream", "Stream, optional", "The stream to queue on (the current one by default).")
_nonblocking = ("non_blocking", "bool, optional",
                "If true, return once the work is queued rather than done.")
_NO_DEVICE = ("InvalidValueError", "If the device does not exist.")
B = ">>> from pyasc import memory\n>>> buf = memory.alloc(4)\n"

ENTRIES = [
    {"name": "alloc", "summary": "Allocates device memory through the caching allocator.",
     "params": [("nbytes", "int", "The size in bytes."), _device,
                ("stream", "Stream, optional",
                 "The stream that will use the memory (the current one by default):\n"
                 "a freed block is reused at once on its own stream only.")],
     "returns": ("DeviceBuffer", "The memory, freed when the buffer is collected or free()d."),
     "raises": [("InvalidValueError", "If nbytes is negative."),
                ("OutOfMemoryError", "If the device (or its memory limit) has no room.")],
     "example": B + ">>> buf.nbytes\n4\n>>> buf.free()"},
    {"name": "memcpy", "summary": "Copies bytes between device buffers and host buffers.",
     "details": "The direction follows from the arguments: a DeviceBuffer or any object\n"
                "with the buffer protocol on either side.",
     "params": [("dst, src", "DeviceBuffer or buffer", "The destination and the source."),
                ("nbytes", "int, optional", "How many bytes (by default all of src after\n"
                                            "src_offset)."),
                ("dst_offset, src_offset", "int, optional", "Byte offsets (0 by default)."),
                _stream, _nonblocking],
     "returns": ("None", "When the copy is done (queued, if non_blocking)."),
     "raises": [("InvalidValueError", "If the bytes do not fit either side.")],
     "example": (B + ">>> memory.memcpy(buf, np.arange(4, dtype=np.uint8))\n"
                 ">>> out = np.zeros(4, dtype=np.uint8)\n>>> memory.memcpy(out, buf)\n"
                 ">>> out\narray([0, 1, 2, 3], dtype=uint8)")},
    {"name": "memset", "summary": "Fills device memory with a byte value.",
     "params": [("dst", "DeviceBuffer", "The memory."), ("value", "int", "The byte, 0 to 255."),
                ("nbytes", "int, optional", "How many bytes (by default the rest after\noffset)."),
                ("offset", "int, optional", "The first byte (0 by default)."), _stream,
                _nonblocking],
     "returns": ("None", "When the memory is filled (queued, if non_blocking)."),
     "raises": [("InvalidValueError", "If the range is outside dst.")],
     "example": (B + ">>> memory.memset(buf, 7)\n>>> out = bytearray(4)\n"
                 ">>> memory.memcpy(out, buf)\n>>> out\nbytearray(b'\\x07\\x07\\x07\\x07')")},
    {"name": "memory_stats", "summary": "The caching allocator's counters for a device.",
     "params": [_device],
     "returns": ("dict", "Counters by name: allocated_bytes, reserved_bytes, their peaks,\n"
                         "cache_hits, cache_misses, active_blocks, limit_bytes..."),
     "raises": [_NO_DEVICE],
     "example": (">>> stats = pyasc.memory.memory_stats()\n"
                 ">>> stats['peak_allocated_bytes'] >= stats['allocated_bytes']\nTrue")},
    {"name": "empty_cache", "summary": "Returns the cached blocks no stream still uses to the "
                                       "device.",
     "params": [_device], "returns": ("None", "When they are returned."), "raises": [_NO_DEVICE],
     "example": (">>> pyasc.synchronize()\n>>> pyasc.memory.empty_cache()\n"
                 ">>> pyasc.memory.memory_stats()['cached_blocks']\n0")},
    {"name": "reset_peak_memory_stats", "summary": "Resets the peak counters to the current "
                                                   "values.",
     "params": [_device], "returns": ("None", "The peaks now equal the current values."),
     "raises": [_NO_DEVICE],
     "example": (">>> from pyasc import memory\n>>> memory.reset_peak_memory_stats()\n"
                 ">>> s = memory.memory_stats()\n"
                 ">>> s['peak_allocated_bytes'] == s['allocated_bytes']\nTrue")},
    {"name": "set_memory_limit", "summary": "Caps the device memory the allocator may reserve.",
     "params": [("nbytes", "int or None", "The cap in bytes; None for no cap."), _device],
     "returns": ("None", "Allocations beyond the cap raise OutOfMemoryError from now on."),
     "raises": [_NO_DEVICE],
     "example": (">>> from pyasc import memory\n>>> memory.set_memory_limit(1 << 40)\n"
                 ">>> memory.memory_stats()['limit_bytes'] == 1 << 40\nTrue\n"
                 ">>> memory.set_memory_limit(None)")},
    {"name": "set_caching", "summary": "Turns the allocator's cache on or off.",
     "details": "PYASC_NO_MEMORY_CACHING=1 in the environment starts with it off.",
     "params": [("enabled", "bool", "Whether freed blocks are kept for reuse."), _device],
     "returns": ("None", "The setting holds from now on."), "raises": [_NO_DEVICE],
     "example": (">>> from pyasc import memory\n>>> was = memory.memory_stats()['caching_enabled']\n"
                 ">>> memory.set_caching(False)\n>>> memory.memory_stats()['caching_enabled']\n"
                 "False\n>>> memory.set_caching(bool(was))")},
]
