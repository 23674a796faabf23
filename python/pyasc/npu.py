"""torch's ``"npu"`` device over pyasc's simulated chip, where Huawei's
torch_npu is absent.

PyAsc's programs make their tensors with ``device="npu"``, which torch_npu
provides on a real NPU. Here torch's PrivateUse1 backend is renamed to
``"npu"`` and served by the optional extension ``pyasc._npu_device`` (built
where torch is present): npu tensors live in pyasc's device memory, so
kernels take them without a copy, and torch's CPU kernels compute on them
(pyasc's device memory is host memory). ``torch.npu`` is this module's
:class:`NpuModule`, whose streams are pyasc's.

The registration runs at ``import pyasc`` when torch is already loaded, else
when torch is first imported (an import hook): ``import pyasc`` itself never
imports torch. Where torch_npu is installed, or another backend already took
PrivateUse1, nothing is registered.
"""

from __future__ import annotations

import importlib
import importlib.machinery
import importlib.util
import sys
import types
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, cast

if TYPE_CHECKING:
    import importlib.abc

from pyasc import _C, memory, streams

__all__ = ["NpuModule", "install", "registered"]

_state: dict[str, bool] = {"registered": False}


def registered() -> bool:
    """Whether torch's ``"npu"`` device is pyasc's in this process."""
    return _state["registered"]


def _index(device: Any) -> int | None:
    """A device index from an int, ``"npu:N"`` or a ``torch.device``."""
    if device is None:
        return None
    if isinstance(device, int):
        return device
    if isinstance(device, str):
        _, _, tail = device.partition(":")
        return int(tail) if tail else None
    index = getattr(device, "index", None)  # a torch.device
    return index if isinstance(index, int) else None


class NpuModule(types.ModuleType):
    """``torch.npu``: the device module of pyasc's simulated device, laid out
    like ``torch.cuda`` (and torch_npu's ``torch.npu``)."""

    Stream = _C.Stream

    def __init__(self) -> None:
        super().__init__("torch.npu", "pyasc's simulated NPU as torch's npu device.")

    @staticmethod
    def is_available() -> bool:
        """True: the simulated device is always there."""
        return True

    @staticmethod
    def is_initialized() -> bool:
        """True once registered."""
        return registered()

    @staticmethod
    def device_count() -> int:
        """Simulated devices (pyasc.device_count())."""
        return int(_C.device_count())

    @staticmethod
    def current_device() -> int:
        """The calling thread's device index."""
        return int(_C.current_device())

    @staticmethod
    def set_device(device: Any) -> None:
        """Makes ``device`` (an index, ``"npu:N"`` or a torch.device) current."""
        index = _index(device)
        _C.set_device(0 if index is None else index)

    @staticmethod
    def current_stream(device: Any = None) -> _C.Stream:
        """pyasc's current stream of ``device`` (a pyasc.Stream)."""
        return _C.current_stream(_index(device))

    @staticmethod
    def default_stream(device: Any = None) -> _C.Stream:
        """pyasc's default stream of ``device``."""
        return _C.default_stream(_index(device))

    @staticmethod
    def set_stream(stream: _C.Stream) -> None:
        """Makes ``stream`` the calling thread's current stream."""
        _C.set_stream(stream)

    stream = staticmethod(streams.stream)

    @staticmethod
    def synchronize(device: Any = None) -> None:
        """Waits for all work queued on ``device``'s streams."""
        _C.synchronize(_index(device))

    @staticmethod
    def memory_allocated(device: Any = None) -> int:
        """Bytes of live device memory (pyasc.memory.memory_stats)."""
        return int(memory.memory_stats(_index(device))["allocated_bytes"])

    @staticmethod
    def empty_cache() -> None:
        """Returns cached device memory (pyasc.memory.empty_cache)."""
        memory.empty_cache()

    # npu tensors draw their random numbers from torch's CPU generator: the
    # device's generator state is that one's (torch.random.fork_rng saves it).
    @staticmethod
    def manual_seed(seed: int) -> None:
        """Seeds torch's CPU generator, which npu tensors draw from."""
        sys.modules["torch"].default_generator.manual_seed(seed)

    manual_seed_all = manual_seed

    @staticmethod
    def get_rng_state(device: Any = None) -> Any:
        """torch's CPU generator state (a uint8 CPU tensor)."""
        del device
        return sys.modules["torch"].get_rng_state()

    @staticmethod
    def set_rng_state(state: Any, device: Any = None) -> None:
        """Restores a state from :meth:`get_rng_state`."""
        del device
        sys.modules["torch"].set_rng_state(state)

    @staticmethod
    def _is_in_bad_fork() -> bool:
        return False


def _host_view(obj: Any) -> Any:
    """pyasc's array importer (pyasc._C._set_array_importer): a CPU tensor over
    an npu tensor's memory, which kernels then take without a copy; None for
    anything else."""
    torch = sys.modules.get("torch")
    if torch is None or not isinstance(obj, torch.Tensor) or obj.device.type != "npu":
        return None
    return torch.ops.pyasc_npu.host_view(obj.detach())


def _torch_npu_installed() -> bool:
    return "torch_npu" in sys.modules or importlib.util.find_spec("torch_npu") is not None


def _register() -> None:
    """Registers the device now that torch is loaded."""
    import torch
    from torch.utils import backend_registration

    if _state["registered"] or _torch_npu_installed():
        return
    if torch._C._get_privateuse1_backend_name() not in ("privateuseone", "npu"):
        return  # another backend owns PrivateUse1
    try:
        extension = importlib.import_module("pyasc._npu_device")
    except ImportError:  # built without torch: no npu device
        return
    extension.install(_C._ext_api)
    _C._set_array_importer(_host_view)
    if torch._C._get_privateuse1_backend_name() != "npu":
        backend_registration.rename_privateuse1_backend("npu")
    if not hasattr(torch, "npu"):
        torch._register_device_module("npu", NpuModule())  # type: ignore[no-untyped-call]
    if not hasattr(torch.Tensor, "npu"):
        backend_registration.generate_methods_for_privateuse1_backend(
            for_tensor=True, for_module=True, for_storage=True)
    _state["registered"] = True


class _RegisterAfterImport:
    """Runs torch's own loader, then registers the device (a loader by
    protocol: importlib.abc would cost every ``import pyasc``)."""

    def __init__(self, loader: Any) -> None:
        self.loader = loader

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> types.ModuleType | None:
        module: types.ModuleType | None = self.loader.create_module(spec)
        return module

    def __getattr__(self, name: str) -> Any:  # get_source, is_package, ...: torch's loader's
        return getattr(self.loader, name)

    def exec_module(self, module: types.ModuleType) -> None:
        # torch's own loader again, once torch no longer needs this one
        try:
            self.loader.exec_module(module)
        finally:
            module.__loader__ = self.loader
            if module.__spec__ is not None:
                module.__spec__.loader = self.loader
        _register()


class _TorchImportHook:
    """Finds ``torch`` as the other finders would, with a loader that
    registers the npu device once torch has loaded; then steps aside."""

    def find_spec(self, fullname: str, path: Sequence[str] | None,
                  target: types.ModuleType | None = None) -> importlib.machinery.ModuleSpec | None:
        if fullname != "torch":
            return None
        _remove_hook()
        spec = importlib.util.find_spec(fullname)
        if spec is not None and spec.loader is not None:
            spec.loader = cast("importlib.abc.Loader", _RegisterAfterImport(spec.loader))
        return spec


def _remove_hook() -> None:
    sys.meta_path[:] = [f for f in sys.meta_path if not isinstance(f, _TorchImportHook)]


def install() -> None:
    """Registers the npu device now if torch is loaded, else when it is."""
    if "torch" in sys.modules:
        _register()
    elif not any(isinstance(f, _TorchImportHook) for f in sys.meta_path):
        sys.meta_path.insert(0, _TorchImportHook())
