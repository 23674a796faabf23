"""The public functions of the tensor library whose docstrings lack a NumPy
section (tests/python/test_docstrings.py). The list only shrinks: document
a name (docs/contributing.md, "Docstrings") and take it off."""

MISSING: frozenset[str] = frozenset({
    # kernel tools: an example needs a @pyasc.jit kernel built, which this
    # fast test does not (docs/kernel-language.md runs them)
    "autotune",
    "profile",
})
