"""Counting and announcing the NumPy functions pyasc lacks, which run in
NumPy on views of tensors (pyasc._numpy_protocol falls back to them)."""

from __future__ import annotations

import collections
import os
import threading
import warnings
from typing import Any, Callable


class NumPyFallbackWarning(UserWarning):
    """A NumPy function or ufunc method pyasc lacks ran in NumPy on views of
    the tensors' memory."""

    def __init__(self, message: str) -> None:
        super().__init__(message)


_fallback_lock = threading.Lock()
_fallbacks: collections.Counter[str] = collections.Counter()
_warn = [os.environ.get("PYASC_NUMPY_FALLBACK", "") == "warn"]


def numpy_fallbacks(reset: bool = False) -> dict[str, int]:
    """How often each NumPy function pyasc lacks ran in NumPy, by name.

    Parameters
    ----------
    reset : bool, optional
        If true, clear the counts after reading them.

    Returns
    -------
    dict of str to int
        The counts by NumPy name (``"einsum"``, ``"add.reduce"``).

    Examples
    --------
    >>> _ = pyasc.numpy_fallbacks(reset=True)
    >>> _ = np.add.reduce(pyasc.asarray([1.0, 2.0]))
    >>> pyasc.numpy_fallbacks()
    {'add.reduce': 1}
    """
    with _fallback_lock:
        counts = dict(_fallbacks)
        if reset:
            _fallbacks.clear()
    return counts


def warn_on_numpy_fallback(enabled: bool = True) -> None:
    """Turns on (or off) a warning each time NumPy runs a function pyasc lacks.

    ``PYASC_NUMPY_FALLBACK=warn`` in the environment turns it on at import.

    Parameters
    ----------
    enabled : bool, optional
        Whether to warn (NumPyFallbackWarning); True by default.

    Returns
    -------
    None
        The setting holds from now on, for every thread.

    Examples
    --------
    >>> import warnings
    >>> pyasc.warn_on_numpy_fallback()
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     _ = np.add.reduce(pyasc.asarray([1.0, 2.0]))
    >>> [w.category.__name__ for w in caught]
    ['NumPyFallbackWarning']
    >>> pyasc.warn_on_numpy_fallback(False)
    """
    _warn[0] = bool(enabled)


def fall_back(name: str, call: Callable[[], Any]) -> Any:
    """Counts (and, when asked, warns about) a fallback named name, then runs call."""
    with _fallback_lock:
        _fallbacks[name] += 1
    if _warn[0]:
        warnings.warn(f"numpy.{name} has no pyasc implementation: NumPy ran it on views of the "
                      "tensors' memory", NumPyFallbackWarning, stacklevel=4)
    return call()
