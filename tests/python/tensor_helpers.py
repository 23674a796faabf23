"""Assertions shared by the tensor library's tests."""

from __future__ import annotations

import numpy as np

import pyasc


def check_same(got, ref, what="", pow_tolerance=False) -> None:
    """got (a pyasc.Tensor) equals ref (a NumPy array or scalar) in dtype,
    shape and value."""
    assert isinstance(got, pyasc.Tensor), what
    ref = np.asarray(ref)
    assert got.dtype == pyasc.dtype(ref.dtype.name), f"{what}: dtype {got.dtype} != {ref.dtype}"
    assert got.shape == ref.shape, f"{what}: shape {got.shape} != {ref.shape}"
    out = got.numpy()
    if pow_tolerance and ref.dtype.kind == "f":
        np.testing.assert_allclose(out, ref, rtol=4 * np.finfo(ref.dtype).eps, atol=0, err_msg=what)
    else:
        np.testing.assert_array_equal(out, ref, err_msg=what, strict=True)
