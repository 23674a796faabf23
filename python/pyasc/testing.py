"""Deterministic device work for tests and benchmarks.

Like ``torch.cuda._sleep``, these enqueue real work on a stream: a kernel that
keeps its blocks busy, or a task that fails, to exercise overlap, ordering and
deferred error reporting.
"""

from __future__ import annotations

from pyasc import _C


def spin(ms: float, blocks: int = 1, stream: _C.Stream | None = None) -> None:
    """Launch a kernel whose ``blocks`` blocks each keep a core busy for ``ms``."""
    _C._testing_spin(ms, blocks, stream)


def fail(message: str, stream: _C.Stream | None = None, kernel: bool = False) -> None:
    """Enqueue a task that fails with ``message``.

    The failure surfaces at the stream's next synchronisation as
    ``pyasc.DeviceError`` (``pyasc.KernelError`` with ``kernel=True``).
    """
    _C._testing_fail(message, stream, kernel)


__all__ = ["fail", "spin"]
