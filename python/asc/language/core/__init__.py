"""PyAsc's ``asc.language.core``: the kernel language's types, enums, dtypes
and parameter structures, served by pyasc (``pyasc.language.core`` and the
dtypes). Names of PyAsc's that pyasc does not implement are absent."""

from asc import _upstream_names
from asc._reexport import export
from asc.language.core import dtype, struct  # noqa: F401  (PyAsc's submodules)

__all__ = export(globals(), _upstream_names.CORE)
