"""The kernel cache the test modules build into.

`make test` points PYASC_CACHE_DIR at one directory for all of its runs
(plain and ASan+UBSan, every pytest-xdist worker): a kernel the suite
builds once is loaded from disk everywhere else. Run by hand without it,
each module gets a private directory, removed when the process exits.
"""

from __future__ import annotations

import atexit
import os
import shutil
import tempfile


def kernel_cache_dir(prefix: str) -> str:
    """PYASC_CACHE_DIR when set, else a fresh private directory (mode 0700)
    named after `prefix` and removed at exit."""
    shared = os.environ.get("PYASC_CACHE_DIR")
    if shared:
        return shared
    directory = tempfile.mkdtemp(prefix=prefix)
    atexit.register(shutil.rmtree, directory, True)
    return directory
