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


def _to_torch(t: _C.Tensor) -> Any:
    """A ``torch.Tensor`` sharing ``t``'s memory (read-only memory: a copy,
    since torch's DLPack import cannot mark a tensor read-only)."""
    torch = sys.modules["torch"]
    try:
        capsule = t.__dlpack__()
    except BufferError:
        capsule = t.__dlpack__(copy=True)
    return torch.from_dlpack(capsule)


def _to_jax(t: _C.Tensor) -> Any:
    """A JAX array with ``t``'s values (JAX arrays are immutable: JAX copies
    or shares as it decides)."""
    jnp = sys.modules["jax.numpy"] if "jax.numpy" in sys.modules else None
    if jnp is None:  # jaxlib without jax.numpy loaded cannot have made the input
        return t
    return jnp.from_dlpack(t.contiguous())


#: top-level package of an input's type -> converter of a result back to it.
CONVERTERS: dict[str, Callable[[_C.Tensor], Any]] = {
    "tensorflow": _to_tensorflow,
    "torch": _to_torch,
    "jaxlib": _to_jax,
    "jax": _to_jax,
}


def refuse_autograd_inputs(op_name: str, values: Iterable[Any]) -> None:
    """Raises TypeError for a torch tensor that requires grad: an operator's
    results carry no torch autograd history, so gradients would be silently
    lost; ``Op.to_torch()`` gives an operator torch can differentiate."""
    for value in values:
        if type(value).__module__.partition(".")[0] == "torch" and \
                getattr(value, "requires_grad", False) is True:
            raise TypeError(
                f"{op_name}: an input is a torch tensor that requires grad, and calling the "
                f"operator directly records no torch autograd history: use "
                f"{op_name}.to_torch() (a torch custom op with this operator's backward), or "
                "pass tensor.detach() to compute without gradients")


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
