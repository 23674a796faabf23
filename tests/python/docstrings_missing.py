"""The public functions of the tensor library whose docstrings lack a NumPy
section (tests/python/test_docstrings.py). The list only shrinks: document
a name (docs/contributing.md, "Docstrings") and take it off."""

MISSING: frozenset[str] = frozenset({
    "array_api.fft.fft",
    "array_api.fft.fftfreq",
    "array_api.fft.fftn",
    "array_api.fft.fftshift",
    "array_api.fft.hfft",
    "array_api.fft.ifft",
    "array_api.fft.ifftn",
    "array_api.fft.ifftshift",
    "array_api.fft.ihfft",
    "array_api.fft.irfft",
    "array_api.fft.irfftn",
    "array_api.fft.rfft",
    "array_api.fft.rfftfreq",
    "array_api.fft.rfftn",
    "autograd.op_vjp",
    "autotune",
    "profile",
})
