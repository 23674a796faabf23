"""The extension's tensor class under the name its stub section has.

pyasc/_C_tensor.pyi holds the types of `pyasc._C.Tensor` (kept apart from
pyasc/_C.pyi for its size); this module lets `mypy.stubtest` check that
section against the class itself. Import Tensor from pyasc.
"""

from pyasc._C import Tensor

__all__ = ["Tensor"]
