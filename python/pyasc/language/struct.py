"""User structs as kernel parameters (PyAsc's ``asc.language.core.struct``).

Placeholder so that ``asc.language.core.struct`` imports: the front end's
implementation (Struct, Field) replaces this file when it is merged."""

__all__: list[str] = []
