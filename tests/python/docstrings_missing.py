"""The public functions of the tensor library whose docstrings lack a NumPy
section (tests/python/test_docstrings.py). The list only shrinks: document
a name (docs/contributing.md, "Docstrings") and take it off."""

MISSING: frozenset[str] = frozenset()
