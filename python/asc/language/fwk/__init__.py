"""PyAsc's ``asc.language.fwk``: the TPipe framework (TPipe, TQue, TBuf, ...)
served by pyasc's kernel language; names pyasc lacks are absent."""

from asc import _upstream_names
from asc._reexport import export
from asc.language.fwk import tpipe  # noqa: F401  (PyAsc's submodule)

__all__ = export(globals(), _upstream_names.FWK)
