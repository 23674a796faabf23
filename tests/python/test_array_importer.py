"""pyasc._C._set_array_importer: the hook through which pyasc shares memory
that neither the buffer protocol nor DLPack exports (torch's npu tensors)."""

from __future__ import annotations

import numpy as np
import pytest

import pyasc
from pyasc import _C


class Opaque:
    """Neither a buffer nor a DLPack producer: only the importer can share it."""

    def __init__(self, array: np.ndarray) -> None:
        self.array = array


@pytest.fixture
def importer():
    seen = []

    def view(obj):
        seen.append(type(obj))
        return obj.array if isinstance(obj, Opaque) else None

    previous = _C._set_array_importer(view)
    yield seen
    assert _C._set_array_importer(previous) is view


def test_importer_shares_memory(importer):
    a = np.arange(12, dtype=np.float32).reshape(3, 4)
    t = pyasc.asarray(Opaque(a))
    assert t.data_ptr == a.ctypes.data
    a[1, 2] = -5
    np.testing.assert_array_equal(t.numpy(), a)
    assert importer == [Opaque]


def test_importer_declining_leaves_numpys_conversion(importer):
    t = pyasc.asarray([[1.5, 2.5]])
    np.testing.assert_array_equal(t.numpy(), np.array([[1.5, 2.5]]))
    assert importer == [list]
    with pytest.raises(BufferError, match="DLPack"):
        pyasc.asarray(Opaque(np.array(["a"])))  # a view DLPack cannot share: its error


def test_importer_errors_reach_the_caller():
    def broken(obj):
        raise ValueError("importer failed")

    previous = _C._set_array_importer(broken)
    try:
        with pytest.raises(ValueError, match="importer failed"):
            pyasc.asarray(Opaque(np.zeros(2)))
    finally:
        _C._set_array_importer(previous)


def test_importer_must_be_callable():
    with pytest.raises(TypeError, match="callable"):
        _C._set_array_importer(3)
