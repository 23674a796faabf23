"""The public functions of the tensor library whose docstrings lack a NumPy
section (tests/python/test_docstrings.py). The list only shrinks: document
a name (docs/contributing.md, "Docstrings") and take it off."""

MISSING: frozenset[str] = frozenset({
    # the operator compiler's classes: python/pyasc/op.py is at the size
    # limit, to be split before their docstrings grow
    "Attr",
    "Attr.convert",
    "Attr.describe",
    "Op",
    "Op.ascendc",
    "Op.backward",
    "Op.describe",
    "Op.explain",
    "Op.prepare",
    "Op.setup_context",
    "Op.to_jax",
    "Op.to_torch",
    "TensorSpec",
    "TensorSpec.check",
    "TensorSpec.describe",
    "TensorSpec.pattern_text",
})
