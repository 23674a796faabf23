"""``python -m pyasc cache info|clear``: the on-disk kernel cache."""

from __future__ import annotations

import glob
import os

from pyasc import _C

# What libasc writes there: <kernel>-<hash>.so/.sum (.c from older versions) and
# temporaries: files, and a build's directory holding these two files.
_PATTERNS = ("*-*.so", "*-*.sum", "*-*.c", "*.tmp-*")
_BUILD_FILES = ("kernel.c", "kernel.so")


def cache_files(directory: str) -> list[str]:
    """The cache's own files in directory (nothing else is touched)."""
    files: set[str] = set()
    for pattern in _PATTERNS:
        files.update(glob.glob(os.path.join(directory, pattern)))
    return sorted(files)


def info() -> str:
    """The cache directory, its kernel count, size and size limit."""
    directory = _C.jit_cache_dir()
    limit = _C.jit_cache_limit()
    limit_text = (f"{limit} bytes (PYASC_CACHE_MAX_BYTES)" if limit
                  else "none (PYASC_CACHE_MAX_BYTES=0)")
    if not os.path.isdir(directory):
        return f"kernel cache: {directory} (empty: not created yet)\n  limit: {limit_text}"
    files = cache_files(directory)
    kernels = [f for f in files if f.endswith(".so")]
    size = sum(os.path.getsize(f) for f in files)
    return (f"kernel cache: {directory}\n  kernels: {len(kernels)}\n  size: {size} bytes\n"
            f"  limit: {limit_text}")


def _remove(path: str) -> None:
    """Removes a cache file, or a build directory with the files a build
    puts there (a directory holding anything else stays)."""
    if not os.path.isdir(path) or os.path.islink(path):
        os.remove(path)
        return
    for name in _BUILD_FILES:
        try:
            os.remove(os.path.join(path, name))
        except FileNotFoundError:
            pass
    try:
        os.rmdir(path)
    except OSError:
        pass


def clear() -> str:
    """Deletes the cache's files; returns what was done."""
    directory = _C.jit_cache_dir()
    files = cache_files(directory) if os.path.isdir(directory) else []
    for f in files:
        _remove(f)
    return f"kernel cache: removed {len(files)} files from {directory}"
