"""PyAsc's ``asc.lib.runtime`` mapped onto pyasc's runtime.

Streams are ``pyasc.Stream``, device memory is ``pyasc.DeviceBuffer``, and
device queries read the simulated device's properties. Names that only make
sense on a real NPU (device binaries, ACL profiling, cross-core control
addresses, raw argument blocks) raise ``pyasc.UnsupportedError`` saying so:
kernels are launched with ``kernel[core_num, stream](*args)``.
"""

from __future__ import annotations

import enum
import threading
from dataclasses import dataclass
from typing import Any, NoReturn, Optional

import pyasc
from pyasc import _C
from pyasc.language.jit import JITFunction

__all__ = [
    "CoreType", "DeviceInfoType", "DeviceModuleType", "Function", "Kernel", "Memory",
    "MemorySizes", "MsprofTaskType", "ProfilingCommandHandle", "Stream", "acl_finalize",
    "acl_init", "c2c_ctrl_addr", "call_print_interface", "check_device_handle",
    "copy_data_from_device", "copy_data_to_device", "create_stream", "current_device",
    "current_platform", "current_stream", "current_tick", "default_device", "destroy_stream",
    "device_count", "device_info", "free", "free_mem", "get_soc_version", "is_available",
    "is_initialized", "is_model", "launch_kernel", "magic_elf_value", "malloc", "memcpy",
    "msprof_task_type", "npu_utils", "register_device_binary_kernel", "register_function",
    "reset_device", "set_device", "set_pro_switch", "set_soc_version", "synchronize",
    "synchronize_device", "unregister_device_binary_kernel", "use_model", "use_npu",
]

#: A stream: pyasc's.
Stream = pyasc.Stream
#: Device memory: a block of pyasc's caching allocator.
Memory = pyasc.DeviceBuffer
#: A built kernel binary: pyasc's natively compiled kernel.
Kernel = _C.CompiledKernel
#: A launchable function: an ``@asc.jit`` kernel.
Function = JITFunction


class Platform(enum.Enum):
    """The Ascend SoC versions PyAsc targets."""

    Ascend910B1 = "Ascend910B1"
    Ascend910B2 = "Ascend910B2"
    Ascend910B2C = "Ascend910B2C"
    Ascend910B3 = "Ascend910B3"
    Ascend910B4 = "Ascend910B4"
    Ascend910B4_1 = "Ascend910B4-1"
    Ascend910_9362 = "Ascend910_9362"
    Ascend910_9372 = "Ascend910_9372"
    Ascend910_9381 = "Ascend910_9381"
    Ascend910_9382 = "Ascend910_9382"
    Ascend910_9391 = "Ascend910_9391"
    Ascend910_9392 = "Ascend910_9392"


class CoreType(enum.Enum):
    """Kinds of Ascend cores."""

    AiCore = "AiCore"
    VectorCore = "VectorCore"
    CubeCore = "CubeCore"
    AiCpu = "AiCpu"


class DeviceModuleType(enum.Enum):
    """Modules of a device that device_info can query."""

    RT_MODULE_TYPE_SYSTEM = 0
    RT_MODULE_TYPE_AICPU = 1
    RT_MODULE_TYPE_CCPU = 2
    RT_MODULE_TYPE_DCPU = 3
    RT_MODULE_TYPE_AICORE = 4
    RT_MODULE_TYPE_TSCPU = 5
    RT_MODULE_TYPE_PCIE = 6
    RT_MODULE_TYPE_VECTOR_CORE = 7
    RT_MODULE_TYPE_HOST_AICPU = 8


class DeviceInfoType(enum.Enum):
    """Facts device_info can report (the simulator knows the core counts)."""

    INFO_TYPE_ENV = 0
    INFO_TYPE_VERSION = 1
    INFO_TYPE_MASTERID = 2
    INFO_TYPE_CORE_NUM = 3
    INFO_TYPE_OS_SCHED = 4
    INFO_TYPE_IN_USED = 5
    INFO_TYPE_ERROR_MAP = 6
    INFO_TYPE_OCCUPY = 7
    INFO_TYPE_ID = 8
    INFO_TYPE_IP = 9
    INFO_TYPE_ENDIAN = 10
    INFO_TYPE_CUBE_NUM = 0x775A5A5A


class MsprofTaskType(enum.Enum):
    """Task kinds of the NPU profiler (msprof); no profiler here."""

    MSPROF_TASK_TYPE_AI_CORE = 0
    MSPROF_TASK_TYPE_AI_CPU = 1
    MSPROF_TASK_TYPE_AIV = 2
    MSPROF_TASK_TYPE_MIX_AIC = 4
    MSPROF_TASK_TYPE_MIX_AIV = 5
    MSPROF_TASK_TYPE_INVALID = 11


@dataclass(frozen=True)
class MemorySizes:
    """On-chip memory sizes of an AI core, in bytes."""

    l0a_size: int
    l0b_size: int
    l0c_size: int
    l1_size: int
    ub_size: int
    l2_size: int
    l2_page_num: int
    block_size: int
    bank_size: int
    bank_num: int
    burst_in_one_block: int
    bank_group_num: int


class ProfilingCommandHandle:
    """The NPU profiler's command block; set_pro_switch is unsupported here."""

    class Type(enum.Enum):
        """Profiler commands."""

        INIT = 0
        START = 1
        STOP = 2
        FINALIZE = 3
        MODEL_SUBSCRIBE = 4
        MODEL_UNSUBSCRIBE = 5

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        _unsupported("ProfilingCommandHandle", "the NPU profiler (msprof) does not exist here")


def _unsupported(name: str, why: str) -> NoReturn:
    raise pyasc.UnsupportedError(
        f"asc.lib.runtime.{name}: {why}; pyasc runs kernels on a simulated device, launched "
        "with kernel[core_num, stream](*args)")


class _State:
    """The backend and SoC version chosen with asc.runtime.config (shared by
    all threads, as in PyAsc)."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.model = True
        self.soc_version = Platform.Ascend910B1


_state = _State()


# --- backend and platform ----------------------------------------------------
def use_model(custom_lib_prefix: Optional[str] = None) -> None:
    """Selects the Model backend: the simulated device."""
    with _state.lock:
        _state.model = True


def use_npu(custom_lib_prefix: Optional[str] = None) -> None:
    """Selects the NPU backend: here also the simulated device."""
    with _state.lock:
        _state.model = False


def is_model() -> bool:
    """True after use_model (the default)."""
    return _state.model


def set_soc_version(soc_version: Platform) -> None:
    """Records the SoC version (a Platform or its value)."""
    platform = Platform(soc_version)
    with _state.lock:
        _state.soc_version = platform


def get_soc_version() -> Platform:
    """The recorded SoC version (Ascend910B1 unless set)."""
    return _state.soc_version


def current_platform() -> str:
    """The SoC version's name, e.g. "Ascend910B1"."""
    return _state.soc_version.value


def init_error() -> Optional[str]:
    """Why the runtime failed to initialise, or None."""
    return _C.init_error


def is_initialized() -> bool:
    """True when the runtime initialised (it does so at import)."""
    return _C.init_error is None


def is_available() -> bool:
    """True when kernels can run (the runtime initialised)."""
    return _C.init_error is None


def acl_init() -> None:
    """Nothing to do: the runtime initialises itself."""


def acl_finalize() -> None:
    """Nothing to do: work still queued is finished at exit."""


# --- devices -------------------------------------------------------------------
def default_device() -> int:
    """Device 0."""
    return 0


def device_count() -> int:
    """Number of devices."""
    return pyasc.device_count()


def check_device_handle(device_id: int) -> None:
    """Raises InvalidValueError unless device_id names a device."""
    if isinstance(device_id, bool) or not isinstance(device_id, int) or not (
            0 <= device_id < pyasc.device_count()):
        raise pyasc.InvalidValueError(
            f"device id must be an int in [0, {pyasc.device_count()}), not {device_id!r}")


def current_device() -> int:
    """The calling thread's current device."""
    return pyasc.current_device()


def set_device(device_id: int) -> None:
    """Makes device_id current for the calling thread."""
    check_device_handle(device_id)
    pyasc.set_device(device_id)


def reset_device(device_id: Optional[int] = None) -> None:
    """Waits for the device's work and releases its cached memory (live
    buffers stay valid: pyasc frees memory when its owner lets go)."""
    if device_id is not None:
        check_device_handle(device_id)
    pyasc.synchronize(device_id)
    pyasc.memory.empty_cache(device_id)


def synchronize_device() -> None:
    """Waits for every stream of the current device; raises its first
    asynchronous error."""
    pyasc.synchronize()


def device_info(module_type: DeviceModuleType, info_type: DeviceInfoType,
                device_id: Optional[int] = None) -> int:
    """Core counts of the simulated device: AI (cube) cores for
    RT_MODULE_TYPE_AICORE or INFO_TYPE_CUBE_NUM, vector cores for
    RT_MODULE_TYPE_VECTOR_CORE. Other queries are unsupported."""
    module_type, info_type = DeviceModuleType(module_type), DeviceInfoType(info_type)
    if device_id is not None:
        check_device_handle(device_id)
    props = pyasc.get_device_properties(device_id)
    if info_type is DeviceInfoType.INFO_TYPE_CUBE_NUM:
        return props.cube_core_count
    if info_type is DeviceInfoType.INFO_TYPE_CORE_NUM:
        if module_type is DeviceModuleType.RT_MODULE_TYPE_AICORE:
            return props.cube_core_count
        if module_type is DeviceModuleType.RT_MODULE_TYPE_VECTOR_CORE:
            return props.ai_core_count
    _unsupported("device_info", f"{module_type.name}/{info_type.name} has no meaning for the "
                 "simulated device (core counts of AICORE and VECTOR_CORE do)")


def current_tick() -> Optional[int]:
    """None: the simulator has no cycle counter (PyAsc's NPU answer)."""
    return None


# --- streams ---------------------------------------------------------------------
def current_stream(device_id: Optional[int] = None) -> Stream:
    """The calling thread's current stream on the device."""
    if device_id is not None:
        check_device_handle(device_id)
    return pyasc.current_stream(device_id)


def create_stream(priority: int = 0) -> Stream:
    """A new stream on the current device (streams have no priorities here)."""
    return pyasc.Stream()


def destroy_stream(stream_handle: Optional[Stream]) -> None:
    """Waits for the stream's work and destroys it (None: nothing)."""
    if stream_handle is not None:
        stream_handle.destroy()


def synchronize(stream_handle: Optional[Stream] = None, timeout: int = 0) -> None:
    """Waits for the stream (default: the current one) and raises its
    asynchronous error. The wait is complete: timeout is accepted and
    ignored, as simulated work always finishes."""
    (stream_handle or pyasc.current_stream()).synchronize()


# --- memory -----------------------------------------------------------------------
def malloc(size: int, memory_type: Any = None, policy: Any = None) -> Memory:
    """size bytes of device memory (memory types and policies do not apply)."""
    if size <= 0:
        raise pyasc.InvalidValueError(f"malloc: size must be > 0, got {size}")
    return pyasc.memory.alloc(size)


def free(mem_handle: Memory) -> None:
    """Returns memory from malloc to the allocator."""
    mem_handle.free()


def free_mem() -> None:
    """Waits for the device and releases the allocator's cached memory."""
    pyasc.synchronize()
    pyasc.memory.empty_cache()


def memcpy(mem_dst_handle: Any, dst_nbytes: int, mem_src_handle: Any, src_nbytes: int,
           kind: Any = None) -> None:
    """Copies src_nbytes bytes between DeviceBuffers and host buffers (NumPy
    arrays, bytearrays); the direction follows from the objects, so kind is
    not needed. Sizes must be > 0 and the data must fit dst_nbytes."""
    if dst_nbytes <= 0 or src_nbytes <= 0:
        raise pyasc.InvalidValueError("memcpy: src and dst sizes must be > 0")
    if src_nbytes > dst_nbytes:
        raise pyasc.InvalidValueError(
            f"memcpy: {src_nbytes} bytes do not fit a destination of {dst_nbytes}")
    pyasc.memory.memcpy(mem_dst_handle, mem_src_handle, src_nbytes)


def copy_data_to_device(src_mem_handle: Any, nbytes: int) -> Memory:
    """A new DeviceBuffer holding the first nbytes of a host buffer."""
    dst = malloc(nbytes)
    try:
        pyasc.memory.memcpy(dst, src_mem_handle, nbytes)
    except BaseException:
        dst.free()
        raise
    return dst


def copy_data_from_device(mem_dst_handle: Any, mem_src_handle: Memory, nbytes: int) -> None:
    """Copies nbytes of a DeviceBuffer into a host buffer."""
    pyasc.memory.memcpy(mem_dst_handle, mem_src_handle, nbytes)


# --- NPU-only ------------------------------------------------------------------------
def register_device_binary_kernel(kernel_binary: bytes, core_type_id: int) -> NoReturn:
    """Unsupported: NPU device binaries cannot run on the simulator."""
    _unsupported("register_device_binary_kernel", "NPU device binaries (ELF) cannot run here")


def unregister_device_binary_kernel(kernel_handle: Any) -> NoReturn:
    """Unsupported: no NPU device binaries here."""
    _unsupported("unregister_device_binary_kernel", "NPU device binaries (ELF) cannot run here")


def register_function(kernel_handle: Any, fn_name: str, mode: int) -> NoReturn:
    """Unsupported: functions of NPU device binaries."""
    _unsupported("register_function", "functions of NPU device binaries cannot run here")


def launch_kernel(fn_handle: Any, block_num: int, args: Any, num_args: Optional[int] = None,
                  sm_desc: Any = None, stream_handle: Any = None) -> NoReturn:
    """Unsupported: raw argument blocks of NPU binaries."""
    _unsupported("launch_kernel", "raw argument blocks of NPU binaries cannot be launched")


def magic_elf_value(core_type: CoreType) -> NoReturn:
    """Unsupported: ELF magic numbers of NPU device binaries."""
    _unsupported("magic_elf_value", "NPU device binaries (ELF) cannot run here")


def msprof_task_type(core_type: CoreType) -> NoReturn:
    """Unsupported: no NPU profiler."""
    _unsupported("msprof_task_type", "the NPU profiler (msprof) does not exist here")


def set_pro_switch(command_type: Any, device_id: Optional[int] = None,
                   conf: int = 0b11111) -> NoReturn:
    """Unsupported: no NPU profiler."""
    _unsupported("set_pro_switch", "the NPU profiler (msprof) does not exist here")


def npu_utils() -> NoReturn:
    """Unsupported: the NPU helper library (ACL, msprof) does not exist here."""
    _unsupported("npu_utils", "the NPU helper library (ACL, msprof) does not exist here")


def c2c_ctrl_addr() -> NoReturn:
    """Unsupported: no cross-core (FFTS) control address on the simulator."""
    _unsupported("c2c_ctrl_addr", "there is no cross-core (FFTS) control address")


def call_print_interface(*args: Any, **kwargs: Any) -> NoReturn:
    """Unsupported: kernels' printf and dump_tensor print directly here."""
    _unsupported("call_print_interface", "kernels' printf and dump_tensor print directly; there "
                 "is no device print buffer to read")
