"""PyAsc's ``asc.language.basic``: the basic Ascend C APIs (data movement,
vector instructions, synchronisation, ...) served by pyasc's kernel
language; names pyasc lacks are absent."""

from asc import _upstream_names
from asc._reexport import export

__all__ = export(globals(), _upstream_names.BASIC)
