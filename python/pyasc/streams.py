"""The ``with pyasc.stream(s):`` context manager."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

from pyasc import _C


@contextlib.contextmanager
def stream(s: _C.Stream | None) -> Iterator[_C.Stream | None]:
    """Makes ``s`` the calling thread's current stream inside a ``with`` block.

    Work issued without an explicit stream goes to ``s``; the previous current
    stream of ``s``'s device is restored on exit. ``None`` leaves the current
    stream as it is, as in PyTorch.

    Parameters
    ----------
    s : Stream or None
        The stream to make current.

    Returns
    -------
    contextmanager
        A context manager whose ``with`` block runs with ``s`` current; it
        yields ``s``.

    Examples
    --------
    >>> s = pyasc.Stream()
    >>> with pyasc.stream(s):
    ...     y = pyasc.exp(pyasc.zeros(2))
    ...     pyasc.current_stream() == s
    True
    >>> s.synchronize()
    >>> y.tolist()
    [1.0, 1.0]
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
