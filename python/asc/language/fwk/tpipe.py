"""PyAsc's ``asc.language.fwk.tpipe``, the module that defines its TPipe
framework classes (``from asc.language.fwk.tpipe import TQueBind``): the
same pyasc objects as ``asc.language.fwk``."""

from asc import _upstream_names
from asc._reexport import export

__all__ = export(globals(), _upstream_names.FWK)
