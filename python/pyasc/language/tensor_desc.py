"""Tensor lists passed to a kernel by address (PyAsc's ``TensorDesc`` and
``ListTensorDesc``), and ``tensor_list``, which lays a list of tensors out
in memory the way they read it.

The layout, in int64 (uint64) words: word 0 is P, the byte offset of the
data pointers; then per tensor ``index << 32 | ndim`` followed by its shape;
from byte P one data pointer per tensor. Inside a kernel the two classes are
compile-time objects whose methods read that memory (lower_tensor_desc.py,
src/compiler/rt/tensor_desc.h). A data pointer reaches its tensor when the
tensor is a pyasc.Tensor (device memory) or an array passed to the same
launch; any other pointer has no memory behind it. A pyasc.Tensor's pointer
carries its allocation's generation in its top 16 bits: once that tensor is
freed the pointer reaches nothing, even if a new tensor got its memory
(checked mode reports the use after free)."""

from __future__ import annotations

from typing import Any, Sequence

import numpy as np

from pyasc import _C
from pyasc.language.core import KernelObject


class TensorDesc(KernelObject):
    """One tensor of a list: its dim, index, shape and data
    (``ListTensorDesc.get_desc`` fills it)."""


class ListTensorDesc(KernelObject):
    """A list of tensors laid out in global memory (see the module doc)."""


class TensorListArray(np.ndarray):
    """The int64 words of a tensor list; it keeps its tensors alive."""

    tensors: tuple[object, ...]


def _address(t: Any) -> tuple[int, tuple[int, ...]]:
    if isinstance(t, _C.Tensor):
        # tagged with its allocation, so that after the tensor is freed the
        # address no longer reaches the block's next owner (asc/mem.h)
        return _C._tagged_address(t.data_ptr), tuple(t.shape)
    if isinstance(t, np.ndarray):
        return t.__array_interface__["data"][0], t.shape
    raise TypeError(f"tensor_list takes pyasc.Tensor or numpy.ndarray items, not "
                    f"{type(t).__name__}")


def tensor_list(tensors: Sequence[Any]) -> TensorListArray:
    """The memory a kernel's ``ListTensorDesc`` reads for ``tensors``: pass
    it as a GlobalAddress argument. Items are pyasc.Tensors, or NumPy arrays
    that are also arguments of the launch (the kernel reaches no other
    memory). The result keeps the items alive; a copy of its words does
    not, and a pointer to a freed pyasc.Tensor reaches nothing."""
    items = [_address(t) for t in tensors]
    words: list[int] = []
    for i, (_, shape) in enumerate(items):
        words.append(i << 32 | len(shape))
        words.extend(int(d) for d in shape)
    header = 8 * (1 + len(words))
    blob = np.array([header] + words + [p for p, _ in items], dtype=np.uint64).view(np.int64)
    out = blob.view(TensorListArray)
    out.tensors = tuple(tensors)
    return out
