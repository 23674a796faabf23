"""Pickling and copying of pyasc objects, so that they cross process
boundaries (multiprocessing's spawn, joblib, Dask, Ray) and copy.deepcopy
works:

- a Tensor pickles as its dtype, shape, device and data; a view pickles
  as a compact copy of what it shows (NumPy's pickling of the shared
  memory, whose protocol-5 buffers travel out of band);
- a Generator pickles as its state (seed and counter), so the copy goes on
  with the same numbers;
- an Op (pyasc.op.Op.__reduce__) pickles by reference: the module and name
  that define it, or its registry name.
"""

from __future__ import annotations

import copyreg
from typing import Any

import numpy as np

from pyasc import _C


def rebuild_tensor(data: np.ndarray, dtype: str, device: int) -> _C.Tensor:
    """The tensor a pickle holds: data (bfloat16 travels as float32, which
    holds it exactly) copied into a new tensor on device, or on the current
    device when this process has fewer."""
    t = _C.Tensor(data, dtype)
    return t.to_device(device) if device < _C.device_count() else t


def _reduce_tensor(t: _C.Tensor) -> tuple[Any, ...]:
    device = int(str(t.device).split(":")[1])
    return rebuild_tensor, (t.numpy(), t.dtype.name, device)


def rebuild_generator(state: dict[str, Any]) -> _C.Generator:
    """A generator resumed at a pickled state."""
    g = _C.Generator(state["seed"])
    g.state = state
    return g


def _reduce_generator(g: _C.Generator) -> tuple[Any, ...]:
    return rebuild_generator, (g.state,)


copyreg.pickle(_C.Tensor, _reduce_tensor)
copyreg.pickle(_C.Generator, _reduce_generator)
