"""pyasc: Python-native operator programming for Ascend-style AI cores.

The runtime part of the API: devices, streams, events and device memory. The
work is done by libasc, the C core, through the ``pyasc._C`` extension; this
package only arranges its names.
"""

from pyasc import _C
from pyasc._C import (
    CompileError,
    DeviceBuffer,
    DeviceError,
    DeviceProperties,
    DTypeError,
    Error,
    Event,
    IndexOutOfRangeError,
    InternalError,
    InvalidHandleError,
    InvalidValueError,
    KernelError,
    OutOfMemoryError,
    Stream,
    UnsupportedError,
    configure_device,
    current_device,
    current_stream,
    default_stream,
    device_count,
    get_device_properties,
    set_device,
    set_stream,
    synchronize,
)
from pyasc import memory, testing
from pyasc.streams import stream

__version__: str = _C.libasc_version()

__all__ = [
    "CompileError",
    "DeviceBuffer",
    "DeviceError",
    "DeviceProperties",
    "DTypeError",
    "Error",
    "Event",
    "IndexOutOfRangeError",
    "InternalError",
    "InvalidHandleError",
    "InvalidValueError",
    "KernelError",
    "OutOfMemoryError",
    "Stream",
    "UnsupportedError",
    "configure_device",
    "current_device",
    "current_stream",
    "default_stream",
    "device_count",
    "get_device_properties",
    "memory",
    "set_device",
    "set_stream",
    "stream",
    "synchronize",
    "testing",
]
