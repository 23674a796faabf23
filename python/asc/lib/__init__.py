"""PyAsc's ``asc.lib``: the runtime (``asc.lib.runtime``) and host-side
libraries (``asc.lib.host``)."""

from asc.lib import host, runtime  # noqa: F401
