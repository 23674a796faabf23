"""PyAsc's ``asc.lib.host``: host-side tiling (the matmul tilings and the
platform query), served by :mod:`pyasc.host`, whose tilings are computed in
libasc."""

from pyasc.host import *  # noqa: F401,F403
from pyasc.host import __all__ as _host_all

__all__ = list(_host_all)
