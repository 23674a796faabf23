"""Ascend C kernels on the simulated AI cores.

``pyasc.ascendc.load(source_or_path, kernel_name)`` compiles Ascend C (C++17
against pyasc's ``kernel_operator.h``, ``include/ascendc``) with the system
C++ compiler and returns a kernel launched like a ``@pyasc.jit`` one::

    k = pyasc.ascendc.load("vadd.cpp", "vadd_custom")
    k[8](x, y, z, n)          # NumPy/torch/pyasc arrays, ints, floats
    k[4](a, b, c, tiling, ws) # a struct (asc.adv.TCubeTiling) as its bytes

The kernel's calls run pyasc's C kernel runtime, the one Python kernels
use; ``debug=True`` (or ``PYASC_DEBUG=1``) builds its checked mode, and a
launch inside ``pyasc.profile()`` runs the runtime's profiled table and
records its modelled time (docs/perf-model.md). Building
and caching happen in C (``_C.ascendc_build``); docs/ascendc.md has the
details.
"""

from __future__ import annotations

import os
from typing import Any

import numpy as np

from pyasc import _C
from pyasc.language import jit as _jit
from pyasc.language.struct import Struct

__all__ = ["AscendCKernel", "load"]

_SUFFIXES = (".cpp", ".cc", ".cxx", ".asc", ".h", ".hpp")


def _is_path(source_or_path: str | os.PathLike[str]) -> bool:
    """Whether the argument names a file rather than holding source text."""
    if isinstance(source_or_path, os.PathLike):
        return True
    text = source_or_path
    return ("\n" not in text and "{" not in text and
            (text.endswith(_SUFFIXES) or os.path.isfile(text)))


class _Launch:
    """``kernel[block_num]`` or ``kernel[block_num, stream]``: calling it
    launches the kernel over block_num blocks."""

    __slots__ = ("_kernel", "_blocks", "_stream")

    def __init__(self, kernel: AscendCKernel, blocks: int, stream: Any) -> None:
        self._kernel = kernel
        self._blocks = blocks
        self._stream = stream

    def __call__(self, *args: Any) -> None:
        runtime = [_argument(a) for a in args]
        sink = _jit._profile_sink
        if sink is not None:  # pyasc.profile: the runtime's profiled table
            native = self._kernel.native(False, profiled=True)
            with _jit._profile_lock:  # one set of records per table
                native.profile_reset(3 * self._blocks)  # a mixed kernel's groups: 3 cores each
                native.launch(self._blocks, self._stream, *runtime)
                if self._stream is None:
                    _C.current_stream().synchronize()
                else:
                    self._stream.synchronize()
                records = native.profile_records()
            sink(self._kernel.__name__, self._blocks, records)
            return
        native = self._kernel.native(self._kernel.checked_mode())
        native.launch(self._blocks, self._stream, *runtime)


def _argument(value: Any) -> Any:
    """A launch argument as the launcher takes it: a struct (a tiling such
    as ``asc.adv.TCubeTiling``) becomes its bytes, for a ``__gm__`` pointer
    parameter (``__gm__ TCubeTiling *``, ``GM_ADDR``), as PyAsc passes one."""
    if isinstance(value, Struct):
        return np.frombuffer(value.pack(), np.uint8).copy()
    return value


class AscendCKernel:
    """An Ascend C kernel built for the simulated cores (see :func:`load`)."""

    def __init__(self, source: str, file: str, name: str, debug: bool | None) -> None:
        self.source = source
        self.file = file
        self.__name__ = name
        self.debug = debug
        self._native: dict[tuple[bool, bool], Any] = {}

    def checked_mode(self) -> bool:
        """The ``debug`` given to :func:`load`, else ``PYASC_DEBUG`` (read at
        every launch, as for ``@pyasc.jit`` kernels)."""
        if self.debug is not None:
            return self.debug
        return os.environ.get("PYASC_DEBUG", "0") not in ("", "0")

    def native(self, checked: bool, profiled: bool = False) -> Any:
        """The built kernel (a ``_C.CompiledKernel``) of one mode, built
        (or found in the kernel cache) on first use; ``profiled``: the build
        that runs the timing model (``pyasc.profile``, never checked)."""
        key = (checked and not profiled, profiled)
        native = self._native.get(key)
        if native is None:
            native, _ = _C.ascendc_build(self.source, self.__name__, self.file, key[0],
                                         profiled=profiled)
            self._native[key] = native
        return native

    def __getitem__(self, key: int | tuple[int, Any]) -> _Launch:
        if isinstance(key, tuple):
            if len(key) != 2:
                raise TypeError("kernel[block_num] or kernel[block_num, stream]")
            blocks, stream = key
        else:
            blocks, stream = key, None
        if not isinstance(blocks, int) or isinstance(blocks, bool):
            raise TypeError(f"block_num must be an int, not {type(blocks).__name__}")
        return _Launch(self, blocks, stream)

    def __repr__(self) -> str:
        return f"<Ascend C kernel {self.__name__} from {self.file}>"


def load(source_or_path: str | os.PathLike[str], kernel_name: str, *,
         debug: bool | None = None) -> AscendCKernel:
    """Builds the Ascend C kernel function ``kernel_name`` of a source text or
    file for the simulated cores and returns it, launched as
    ``kernel[block_num](args...)`` (or ``kernel[block_num, stream]``).

    Compiler errors raise :class:`pyasc.CompileError` naming the file (or
    ``<string>``) and line of the source; a kernel name that is not a C++
    identifier or not in the source raises :class:`pyasc.InvalidValueError`.
    ``debug`` selects checked mode (default: ``PYASC_DEBUG``)."""
    if not isinstance(kernel_name, str):
        raise TypeError(f"kernel_name must be a str, not {type(kernel_name).__name__}")
    if not isinstance(source_or_path, (str, os.PathLike)):
        raise TypeError("source_or_path must be Ascend C source text or a path, not "
                        f"{type(source_or_path).__name__}")
    if _is_path(source_or_path):
        file = os.fspath(source_or_path)
        with open(file, encoding="utf-8") as f:
            source = f.read()
    else:
        file, source = "<string>", str(source_or_path)
    kernel = AscendCKernel(source, file, kernel_name, debug)
    kernel.native(kernel.checked_mode())  # compile errors now, not at the first launch
    return kernel
