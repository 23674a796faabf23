"""``@pyasc.jit``: specialise a kernel per argument types, build it (IR in
libasc -> C -> native code, cached in memory and on disk) and launch it
with ``kernel[core_num](*args)`` or ``kernel[core_num, stream](*args)``
(keyword arguments bind by parameter name, as in a Python call).

A launch whose array arguments are all pyasc Tensors is asynchronous: it
completes in stream order and its error is raised by the next
synchronisation (or printed at exit). Any other array (NumPy, PyTorch, a
DLPack producer) is memory the caller reads right after the call, so, as in
PyAsc, that launch is complete, and its error raised, when the call returns.
With DRY_RUN set to a non-empty value (PyAsc's switch), kernels are built
but not launched."""

from __future__ import annotations

import importlib
import inspect
import os
import threading
from types import ModuleType
from typing import Any, Callable, Generic, ParamSpec, TypeVar, overload

from pyasc import _C
from pyasc.language import core
from pyasc.language.launch_errors import arity_error, user_traceback
from pyasc.language.struct import Struct

from pyasc.language.options import (KernelType, option_names, parse_options,
                                     split_launch_options)

_KIND_LETTERS = {"int": "i", "float": "f", "bool": "b"}


def _dtype_of(value: Any) -> Any:
    """The pyasc dtype of an array-like argument (pyasc, NumPy, PyTorch)."""
    dtype = value.dtype
    try:
        return _C.dtype(dtype)
    except (TypeError, _C.Error):
        return _C.dtype(str(dtype).replace("torch.", ""))


def _runtime_args(args: tuple, constexpr: list) -> list:
    """The launch's run-time arguments: constexprs dropped, each Struct
    flattened into its scalar fields (already wrapped to their C types)."""
    out: list = []
    for value, const in zip(args, constexpr):
        if const:
            continue
        if isinstance(value, Struct):
            out.extend(value.flatten())
        else:
            out.append(value)
    return out


class MockTensor:
    """A placeholder for a global-memory argument of this dtype, as PyAsc's
    ``asc.runtime.jit.MockTensor``: a kernel compiles for it (no shape, no
    data), so a launch hook (see ``set_launch_hook``) can build a kernel
    without any memory. Launching with one for real is an error."""

    def __init__(self, dtype: Any) -> None:
        self.dtype = dtype


class MockValue:
    """A placeholder for a scalar argument of this dtype (an integer,
    floating or bool dtype), as PyAsc's ``asc.runtime.jit.MockValue``."""

    def __init__(self, dtype: Any) -> None:
        self.dtype = dtype


def _mock_value_kind(value: MockValue) -> str:
    """The scalar kind ("bool", "int" or "float") a MockValue stands for."""
    dtype = _C.dtype(value.dtype)
    if dtype == _C.dtype("bool"):
        return "bool"
    return "float" if dtype.is_floating_point else "int"


LaunchHook = Callable[["CompiledKernel", str, list, Any, Any], bool]
_launch_hook: LaunchHook | None = None
# Where profiled launches report: (kernel name, core_num, block records).
ProfileSink = Callable[[str, int, list], None]
_profile_sink: ProfileSink | None = None
_profile_lock = threading.Lock()


def set_profile_sink(sink: ProfileSink | None) -> None:
    """Builds every later launch with the timing model (docs/perf-model.md)
    and hands its block records, once it is complete, to ``sink(name,
    core_num, records)``; None restores normal launches. ``pyasc.profile``
    installs one."""
    global _profile_sink
    _profile_sink = sink
    _C.set_launch_hooked(sink is not None or _launch_hook is not None)


def set_launch_hook(hook: LaunchHook | None) -> None:
    """Sends every launch, built as usual, to ``hook(kernel, name,
    runtime_args, core_num, stream)``, which returns True when it took the
    launch (False: launch as usual); None restores the normal launch (and
    its C fast path). ``asc.runtime.launcher``
    installs one while its ``Launcher.run`` is replaced, as PyAsc's tests
    replace it to compile without launching."""
    global _launch_hook
    _launch_hook = hook
    _C.set_launch_hooked(hook is not None or _profile_sink is not None)


class CompiledKernel:
    """One specialisation: its IR text, C source, Ascend C source and native
    kernel."""

    def __init__(self, name: str, ir_text: str, c_source: str, native: Any, cache_hit: bool,
                 signature: str, ascendc: str | None = None,
                 ascendc_error: Exception | None = None) -> None:
        self.name = name
        self.ir_text = ir_text
        self.c_source = c_source
        self.native = native
        self.cache_hit = cache_hit
        self.signature = signature
        self._ascendc = ascendc
        self._ascendc_error = ascendc_error

    @property
    def ascendc_source(self) -> str:
        """The Ascend C (C++) source for a real NPU. Raises UnsupportedError,
        at the offending line, when the kernel uses an op with no Ascend C
        form (the simulator still runs it)."""
        if self._ascendc is None:
            raise self._ascendc_error or _C.UnsupportedError("no Ascend C source")
        return self._ascendc


def _builder() -> ModuleType:
    """The module that builds kernels (:mod:`pyasc.language.build`), imported at
    the first build, so that ``import pyasc`` does not load the code generator."""
    return importlib.import_module("pyasc.language.build")


P = ParamSpec("P")
R = TypeVar("R")


class JITFunction(core.KernelFunction, Generic[P, R]):
    """A kernel (or device function) written in the PyAsc language.

    Generic in the function's parameters and result, so that a type checker
    checks a device function's calls from kernels against its signature."""

    def __init__(self, fn: Callable[P, R], **options: Any) -> None:
        self.fn = fn
        self.__name__ = fn.__name__
        self.__doc__ = fn.__doc__
        self.__wrapped__ = fn
        self.codegen_options, self.compile_options = parse_options(fn.__name__, options)
        self.options = options
        self._signature = inspect.signature(fn)
        self.params = list(self._signature.parameters.values())
        self._has_defaults = any(p.default is not p.empty for p in self.params)
        self.constexpr = [core.is_constexpr(p.annotation) for p in self.params]
        self._cache: dict[tuple, CompiledKernel] = {}
        debug = options.get("debug")
        self._dispatch = _C.KernelDispatcher(self.constexpr,
                                             None if debug is None else bool(debug))
        self._lock = threading.Lock()
        self._variants: dict[str, JITFunction[P, R]] = {}

    def with_options(self, **options: Any) -> "JITFunction[P, R]":
        """This kernel with launch-time options over its ``@jit`` ones (as
        PyAsc's launcher merges them); each option set keeps its own builds.
        An unknown option or a bad value is a TypeError, as at ``@jit``."""
        merged = {**self.options, **options}
        key = repr(sorted(merged.items(), key=lambda kv: kv[0]))
        with self._lock:
            variant = self._variants.get(key)
            if variant is None:
                variant = self._variants[key] = JITFunction(self.fn, **merged)
        return variant

    def __repr__(self) -> str:
        return f"<pyasc.jit kernel {self.fn.__qualname__}>"

    def __call__(self, *args: P.args, **kwargs: P.kwargs) -> R:
        raise TypeError(f"launch a kernel with {self.__name__}[core_num](...) or "
                        f"{self.__name__}[core_num, stream](...); device functions are called "
                        "from kernels")

    def bind(self, args: tuple, kwargs: dict[str, Any]) -> tuple:
        """The arguments in parameter order, keywords bound by name and
        defaults filled in; missing, unknown or repeated ones are a TypeError
        as in a Python call."""
        try:
            bound = self._signature.bind(*args, **kwargs)
        except TypeError as exc:
            if set(kwargs) & option_names() - set(self._signature.parameters):
                raise TypeError(f"{self.__name__}: options go to @jit(...), not to the launch: "
                                f"{exc}") from None
            raise TypeError(f"{self.__name__}(): {exc}") from None
        bound.apply_defaults()
        return tuple(bound.arguments.values())

    def __getitem__(self, grid: Any) -> "Launcher":
        if isinstance(grid, tuple):  # LaunchOptions(*grid), as PyAsc's
            if not 1 <= len(grid) <= 2:
                raise TypeError("kernel[core_num] or kernel[core_num, stream]")
            stream = grid[1] if len(grid) == 2 else None
            return Launcher(self, self._dispatch, grid[0], stream, self._has_defaults)
        return Launcher(self, self._dispatch, grid, None, self._has_defaults)

    # --- specialisation --------------------------------------------------------
    def _key(self, args: tuple) -> tuple:
        """The specialisation key: cheap to compute on every launch (dtype
        objects of NumPy, PyTorch and pyasc all hash)."""
        key = []
        for value, const in zip(args, self.constexpr):
            if const:
                key.append(("c", value))
            elif isinstance(value, (bool, int, float, Struct)):
                key.append(type(value))
            else:
                key.append((type(value), getattr(value, "dtype", None)))  # None: _specs refuses
        return tuple(key)

    def _constexpr_error(self, args: tuple) -> TypeError:
        """The TypeError for a ConstExpr argument that cannot key a
        specialisation (an array, a list): a compile-time value it must be."""
        for param, value, const in zip(self.params, args, self.constexpr):
            try:
                hash(value if const else None)
            except TypeError:
                return TypeError(
                    f"{self.__name__}(): ConstExpr parameter {param.name!r} takes a compile-time "
                    f"value (an int, float, bool, str, dtype or a tuple of them), not "
                    f"{type(value).__name__}: each value builds its own kernel")
        return TypeError(f"{self.__name__}(): an argument cannot key a kernel specialisation")

    def _struct_annotation(self, index: int) -> type | None:
        """The Struct class parameter index is annotated with, if any (a
        string annotation is looked up in the kernel's module)."""
        ann = self.params[index].annotation
        if isinstance(ann, str):
            ann = self.fn.__globals__.get(ann)
        return ann if isinstance(ann, type) and issubclass(ann, Struct) else None

    def _specs(self, args: tuple) -> tuple[list, str]:
        specs, signature = [], ""
        for index, (value, const) in enumerate(zip(args, self.constexpr)):
            struct = None if const else self._struct_annotation(index)
            if struct is not None and not isinstance(value, struct):
                raise TypeError(f"{self.__name__}: parameter {self.params[index].name!r} is a "
                                f"{struct.__name__} struct, not {type(value).__name__} (pass "
                                f"{struct.__name__}(...))")
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
            elif isinstance(value, Struct):
                specs.append(("struct", type(value)))
                signature += "".join(_KIND_LETTERS[f.kind] for _, f in value.leaves())
            elif isinstance(value, MockValue):
                kind = _mock_value_kind(value)
                specs.append((kind, None))
                signature += kind[0]
            elif hasattr(value, "dtype"):
                specs.append(("addr", _dtype_of(value)))
                signature += "a"
            else:
                raise TypeError(f"{self.__name__}: cannot pass {type(value).__name__} to a "
                                "kernel (tensors, arrays, int, float, bool)")
        return specs, signature

    def compile(self, *args: Any, **kwargs: Any) -> CompiledKernel:
        """Builds (or fetches) the specialisation for these arguments."""
        try:
            return self._compile(self._bound(args, kwargs), False)
        except _C.CompileError as err:
            raise user_traceback(err) from err.__cause__

    def _bound(self, args: tuple, kwargs: dict[str, Any]) -> tuple:
        """The arguments as one per parameter, in order (keywords and
        defaults bound); a TypeError naming what is missing or extra."""
        if kwargs or self._has_defaults:
            args = self.bind(args, kwargs)
        if len(args) != len(self.params):
            raise arity_error(self.__name__, self._signature, len(args))
        return args

    def _compile(self, args: tuple, profiled: bool) -> CompiledKernel:
        """The specialisation for these (bound) arguments; profiled builds
        carry the timing model (docs/perf-model.md) and are cached apart."""
        checked = self.checked_mode()
        # The UB budget is checked at compile time: a resized UB needs a new build.
        key = self._key(args) + (checked, _C.get_device_properties().ub_size)
        if profiled:
            key += ("profiled",)
        try:
            compiled = self._cache.get(key)
        except TypeError:  # an unhashable ConstExpr value: say which
            raise self._constexpr_error(args) from None
        if compiled is not None and not self.options.get("always_compile"):
            return compiled
        with self._lock:
            compiled = self._cache.get(key)
            if compiled is None or self.options.get("always_compile"):
                specs, signature = self._specs(args)
                compiled = _builder().build(self, specs, signature, checked, profiled)
                self._cache[key] = compiled
        return compiled

    def checked_mode(self) -> bool:
        """Whether launches build the checked variant: the ``debug`` option
        if given, else the environment's PYASC_DEBUG (read at every launch,
        so setting it takes effect on the next one)."""
        debug = self.options.get("debug")
        if debug is not None:
            return bool(debug)
        return os.environ.get("PYASC_DEBUG", "0") not in ("", "0")


    def ascendc(self, *args: Any, **kwargs: Any) -> str:
        """The Ascend C (C++) source of the kernel specialised for these
        arguments (the same as a launch's), to build with the CANN toolkit
        for a real NPU. Needs the IR only: nothing is compiled or run.
        Raises UnsupportedError, at the offending line, for an op with no
        Ascend C form. Also written to $PYASC_DUMP_PATH/<name>.ascendc.cpp
        when that is set."""
        args = self._bound(args, kwargs)
        compiled = self._cache.get(self._key(args))
        if compiled is not None:
            return compiled.ascendc_source
        specs, _ = self._specs(args)
        try:
            return _builder().ascendc_source(self, specs)
        except _C.CompileError as err:
            raise user_traceback(err) from err.__cause__

    def launch(self, core_num: int, stream: Any, args: tuple) -> None:
        """Launches; kernels already built for these argument types go
        through the C fast path without running Python code."""
        if self._dispatch.launch(core_num, stream, *args):  # never under DRY_RUN or a hook
            return
        try:
            self._launch_slow(core_num, stream, args)
        except _C.CompileError as err:
            raise user_traceback(err) from err.__cause__

    def _launch_slow(self, core_num: int, stream: Any, args: tuple) -> None:
        """A launch that may build: hooks, DRY_RUN, then the build and the
        fast path's entry for next time."""
        hook = _launch_hook
        # the fast path follows the hook and the profiler, whatever befell
        _C.set_launch_hooked(hook is not None or _profile_sink is not None)
        if hook is not None and hook(self.compile(*args), self.__name__,
                                     _runtime_args(args, self.constexpr), core_num, stream):
            return
        if os.environ.get("DRY_RUN"):  # PyAsc's switch: build, do not launch
            self.compile(*args)
            return
        if _profile_sink is not None:  # pyasc.profile: the build with the timing model
            self._launch_profiled(core_num, stream, args, _profile_sink)
            return
        compiled = self.compile(*args)
        if not self.options.get("always_compile"):
            self._dispatch.insert(args, compiled.native)
        runtime = _runtime_args(args, self.constexpr)
        compiled.native.launch(core_num, stream, *runtime)

    def _launch_profiled(self, core_num: int, stream: Any, args: tuple,
                         sink: ProfileSink) -> None:
        """A launch of the profiled build: its blocks' records go to sink
        once the launch is complete."""
        compiled = self._compile(args, True)
        native = compiled.native
        with _profile_lock:  # a kernel keeps one set of records
            native.profile_reset(3 * int(core_num))  # a mixed kernel's groups: 3 cores each
            native.launch(core_num, stream, *_runtime_args(args, self.constexpr))
            if stream is None:
                _C.current_stream().synchronize()
            else:
                stream.synchronize()
            records = native.profile_records()
        sink(self.__name__, int(core_num), records)

    def launch_with_keywords(self, core_num: int, stream: Any, args: tuple,
                             kwargs: dict[str, Any]) -> None:
        """A launch with keyword arguments: CodegenOptions/CompileOptions
        fields among them select a variant built with those options (for
        this launch only); the rest bind to parameters by name."""
        kernel = self
        kwargs, options = split_launch_options(self._signature.parameters, kwargs)
        if options:
            kernel = self.with_options(**options)
        kernel.launch(core_num, stream, kernel.bind(args, kwargs))


# ``kernel[core_num, stream]``: calling it launches (see the module's
# docstring for when the call waits). In C, so that launching a built
# kernel runs no Python code; it calls back bind() for defaults,
# launch_with_keywords() for keyword arguments (options among them) and
# launch() when no built kernel fits.
Launcher = _C.KernelLauncher


@overload
def jit(fn: Callable[P, R], **options: Any) -> JITFunction[P, R]: ...


@overload
def jit(fn: None = None, **options: Any) -> Callable[[Callable[P, R]], JITFunction[P, R]]: ...


def jit(fn: Callable[P, R] | None = None, **options: Any
        ) -> JITFunction[P, R] | Callable[[Callable[P, R]], JITFunction[P, R]]:
    """Marks a kernel (or a device function called from kernels).

    ``@pyasc.jit`` or ``@pyasc.jit(always_compile=True, cache_dir=...)``; the
    options are the fields of CodegenOptions and CompileOptions
    (pyasc.language.options), an unknown one is a TypeError.
    ``debug=True`` (or PYASC_DEBUG=1 in the environment) builds the checked
    variant, which stops with a KernelError on out-of-extent accesses,
    misaligned copies, overlapping UB allocations and missing
    synchronisation between pipes; ``verify_sync=True`` checks the
    synchronisation statically at compile time (CompileError).
    """
    if fn is None:
        return lambda f: JITFunction(f, **options)
    return JITFunction(fn, **options)
