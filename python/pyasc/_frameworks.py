"""Results in the caller's framework: an operator (``@pyasc.op``) called on
another framework's tensors returns that framework's tensors.

The table maps the top-level package of an input's type to the function that
turns a pyasc :class:`~pyasc.Tensor` back into that framework's tensor. Keys
are package names, not types, so that nothing here imports a framework: a
framework's tensor can only reach an operator once the framework is loaded.
The exchange is DLPack, so memory is shared wherever the framework allows.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from pyasc import _C


def _to_tensorflow(t: _C.Tensor) -> Any:
    """A ``tf.Tensor`` sharing ``t``'s memory. TensorFlow takes only
    C-contiguous DLPack tensors, and only legacy capsules, which cannot mark
    memory read-only: other tensors are copied first."""
    tf = sys.modules["tensorflow"]
    t = t.contiguous()
    try:
        capsule = t.__dlpack__()
    except BufferError:  # read-only memory: hand TensorFlow a private copy
        capsule = t.__dlpack__(copy=True)
    return tf.experimental.dlpack.from_dlpack(capsule)


#: top-level package of an input's type -> converter of a result back to it.
CONVERTERS: dict[str, Callable[[_C.Tensor], Any]] = {
    "tensorflow": _to_tensorflow,
}


def converter_for(values: Iterable[Any]) -> Callable[[_C.Tensor], Any] | None:
    """The converter for the first of ``values`` that comes from a framework
    in :data:`CONVERTERS`, or ``None`` when none does."""
    for value in values:
        converter = CONVERTERS.get(type(value).__module__.partition(".")[0])
        if converter is not None:
            return converter
    return None


def to_caller(result: Any, args: tuple[Any, ...], kwargs: Mapping[str, Any]) -> Any:
    """``result`` (a tensor, or a tuple that holds tensors) converted to the
    framework of the operator's inputs ``args``/``kwargs``; unchanged when no
    input comes from a framework in :data:`CONVERTERS`."""
    converter = converter_for((*args, *kwargs.values()))
    if converter is None:
        return result
    if isinstance(result, _C.Tensor):
        return converter(result)
    if isinstance(result, tuple):
        return tuple(converter(r) if isinstance(r, _C.Tensor) else r for r in result)
    return result
