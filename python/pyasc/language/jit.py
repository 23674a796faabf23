"""``@pyasc.jit``: specialise a kernel per argument types, build it (IR in
libasc -> C -> native code, cached in memory and on disk) and launch it
with ``kernel[core_num](*args)`` or ``kernel[core_num, stream](*args)``."""

from __future__ import annotations

import inspect
import os
import threading
from typing import Any, Callable

import pyasc
from pyasc import _C
from pyasc.language import core


def _is_constexpr(annotation: Any) -> bool:
    return annotation is core.ConstExpr or getattr(annotation, "__origin__", None) is core.ConstExpr


def _dtype_of(value: Any) -> Any:
    """The pyasc dtype of an array-like argument (pyasc, NumPy, PyTorch)."""
    dtype = value.dtype
    try:
        return pyasc.dtype(dtype)
    except (TypeError, pyasc.Error):
        return pyasc.dtype(str(dtype).replace("torch.", ""))


class CompiledKernel:
    """One specialisation: its IR text, C source and native kernel."""

    def __init__(self, name: str, ir_text: str, c_source: str, native: Any, cache_hit: bool,
                 signature: str) -> None:
        self.name = name
        self.ir_text = ir_text
        self.c_source = c_source
        self.native = native
        self.cache_hit = cache_hit
        self.signature = signature


class JITFunction:
    """A kernel (or device function) written in the PyAsc language."""

    def __init__(self, fn: Callable, **options: Any) -> None:
        self.fn = fn
        self.__name__ = fn.__name__
        self.__doc__ = fn.__doc__
        self.__wrapped__ = fn
        self.options = options
        self.params = list(inspect.signature(fn).parameters.values())
        self.constexpr = [_is_constexpr(p.annotation) for p in self.params]
        self._cache: dict[tuple, CompiledKernel] = {}
        self._lock = threading.Lock()

    def __repr__(self) -> str:
        return f"<pyasc.jit kernel {self.fn.__qualname__}>"

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        raise TypeError(f"launch a kernel with {self.__name__}[core_num](...) or "
                        f"{self.__name__}[core_num, stream](...); device functions are called "
                        "from kernels")

    def __getitem__(self, grid: Any) -> "Launcher":
        if isinstance(grid, tuple):
            if len(grid) != 2:
                raise TypeError("kernel[core_num] or kernel[core_num, stream]")
            return Launcher(self, grid[0], grid[1])
        return Launcher(self, grid, None)

    # --- specialisation --------------------------------------------------------
    def _key(self, args: tuple) -> tuple:
        """The specialisation key: cheap to compute on every launch (dtype
        objects of NumPy, PyTorch and pyasc all hash)."""
        key = []
        for value, const in zip(args, self.constexpr):
            if const:
                key.append(("c", value))
            elif isinstance(value, (bool, int, float)):
                key.append(type(value))
            else:
                key.append((type(value), value.dtype))
        return tuple(key)

    def _specs(self, args: tuple) -> tuple[list, str]:
        specs, signature = [], ""
        for value, const in zip(args, self.constexpr):
            if const:
                specs.append(("const", value))
            elif isinstance(value, bool):
                specs.append(("bool", None))
                signature += "b"
            elif isinstance(value, int):
                specs.append(("int", None))
                signature += "i"
            elif isinstance(value, float):
                specs.append(("float", None))
                signature += "f"
            elif hasattr(value, "dtype"):
                specs.append(("addr", _dtype_of(value)))
                signature += "a"
            else:
                raise TypeError(f"{self.__name__}: cannot pass {type(value).__name__} to a "
                                "kernel (tensors, arrays, int, float, bool)")
        return specs, signature

    def compile(self, *args: Any) -> CompiledKernel:
        """Builds (or fetches) the specialisation for these arguments."""
        if len(args) != len(self.params):
            raise TypeError(f"{self.__name__}() takes {len(self.params)} arguments, "
                            f"got {len(args)}")
        key = self._key(args)
        compiled = self._cache.get(key)
        if compiled is not None and not self.options.get("always_compile"):
            return compiled
        with self._lock:
            compiled = self._cache.get(key)
            if compiled is None or self.options.get("always_compile"):
                compiled = self._build(args)
                self._cache[key] = compiled
        return compiled

    def _build(self, args: tuple) -> CompiledKernel:
        from pyasc.language.codegen import CodeGenerator

        specs, signature = self._specs(args)
        ub_size = pyasc.get_device_properties().ub_size
        builder = CodeGenerator(self.fn, specs, ub_size).compile()
        ir_text = builder.text()
        source = builder.emit_c()
        dump = os.environ.get("PYASC_DUMP_PATH")
        if dump:
            os.makedirs(dump, mode=0o700, exist_ok=True)
            with open(os.path.join(dump, f"{self.__name__}.ir"), "w", encoding="utf-8") as f:
                f.write(ir_text)
        native, hit = _C.jit_build(source, self.__name__, signature,
                                   cache_dir=self.options.get("cache_dir"),
                                   always_compile=bool(self.options.get("always_compile")))
        return CompiledKernel(self.__name__, ir_text, source, native, hit, signature)

    def launch(self, core_num: int, stream: Any, args: tuple) -> None:
        compiled = self.compile(*args)
        runtime = [a for a, const in zip(args, self.constexpr) if not const]
        compiled.native.launch(core_num, stream, *runtime)


class Launcher:
    """``kernel[core_num, stream]``: calling it launches asynchronously."""

    __slots__ = ("kernel", "core_num", "stream")

    def __init__(self, kernel: JITFunction, core_num: Any, stream: Any) -> None:
        if not isinstance(core_num, int) or isinstance(core_num, bool):
            raise TypeError(f"core_num must be an int, not {type(core_num).__name__}")
        self.kernel = kernel
        self.core_num = core_num
        self.stream = stream

    def __call__(self, *args: Any) -> None:
        self.kernel.launch(self.core_num, self.stream, args)


def jit(fn: Callable | None = None, **options: Any) -> Any:
    """Marks a kernel (or a device function called from kernels).

    ``@pyasc.jit`` or ``@pyasc.jit(always_compile=True, cache_dir=...)``.
    """
    if fn is None:
        return lambda f: JITFunction(f, **options)
    return JITFunction(fn, **options)
