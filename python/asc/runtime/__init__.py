"""PyAsc's ``asc.runtime``: ``asc.runtime.config`` selects the backend."""

from asc.runtime import config  # noqa: F401
