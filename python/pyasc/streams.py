"""The ``with pyasc.stream(s):`` context manager."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

from pyasc import _C


@contextlib.contextmanager
def stream(s: _C.Stream | None) -> Iterator[_C.Stream | None]:
    """Make ``s`` the calling thread's current stream inside the block.

    Work issued without an explicit stream goes to ``s``; the previous current
    stream of ``s``'s device is restored on exit. ``None`` leaves the current
    stream as it is, as in PyTorch.
    """
    if s is None:
        yield None
        return
    previous = _C.current_stream(s.device)
    _C.set_stream(s)
    try:
        yield s
    finally:
        _C.set_stream(previous)
