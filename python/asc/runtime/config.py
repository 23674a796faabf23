"""PyAsc's ``asc.runtime.config``: backend and platform selection.

Both backends, ``Model`` (PyAsc's CA model simulator) and ``NPU``, select
pyasc's simulated device: the kernels, results and errors are the same.
The platform is recorded (``asc.lib.runtime.get_soc_version``); the device
keeps its properties (change them with ``pyasc.configure_device``).
"""

from __future__ import annotations

import enum
from typing import Optional, Union

from pyasc.language.options import KernelType

from asc.lib import runtime as rt
from asc.lib.runtime import Platform

__all__ = ["Backend", "KernelType", "Platform", "set_platform"]


class Backend(enum.Enum):
    """Where kernels run: both values select the simulated device."""

    Model = "Model"
    NPU = "NPU"


def set_platform(backend: Union[Backend, str], soc_version: Optional[Platform] = None,
                 device_id: Optional[int] = None, check: bool = True) -> None:
    """Selects the backend (a Backend or its name; anything else is a
    ValueError), records the platform (default Ascend910B1, or the one
    already recorded for NPU) and, if given, makes device_id current. With
    check, a runtime that failed to initialise raises RuntimeError."""
    backend = Backend(backend)
    if soc_version is not None:
        soc_version = Platform(soc_version)
    if backend is Backend.Model:
        rt.use_model()
    else:
        rt.use_npu()
    rt.set_soc_version(soc_version or (Platform.Ascend910B1 if backend is Backend.Model
                                       else rt.get_soc_version()))
    if device_id is not None:
        rt.set_device(device_id)
    if check and not rt.is_available():
        raise RuntimeError(f"the pyasc runtime is not available: {rt.init_error()}")
