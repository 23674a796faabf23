"""Work still queued when the interpreter exits is finished, not dropped.

Launches whose arrays are all pyasc Tensors run asynchronously; a program may
exit before they complete. The exit handler waits for every stream (so the
work completes and memory shared with other libraries is handed back while
the interpreter still runs) and prints any asynchronous error that nobody
collected, so that no error is lost. It cannot change the exit status: an
error printed here leaves the status the program chose.
"""

from __future__ import annotations

import atexit
import sys

from pyasc import _C


def finish_at_exit() -> None:
    """Waits for all streams of all devices; reports pending errors on stderr."""
    for message in _C._finish_pending():
        print(f"pyasc: an asynchronous kernel error was never collected before exit: {message}",
              file=sys.stderr, flush=True)


atexit.register(finish_at_exit)
