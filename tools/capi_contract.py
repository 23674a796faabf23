"""The C-API contract of pyasc._C: every function, constructor, method and
property of the extension, called with arguments of the wrong type (and a
few right types with wrong values), must return or raise an ordinary
exception. It must never crash the process and never raise SystemError (a C
function that returned a value with an error set, or NULL without one).

Run it alone (``PYTHONPATH=build/dev/stage python tools/capi_contract.py``)
or through tests/python/test_capi_contract.py, which ``make test`` runs. It
prints one line per call with PYASC_CONTRACT_TRACE=1, to find the call that
crashed the process, and exits 1 listing every call that broke the contract.
Calls change global state (devices, limits, streams): run it in a process
of its own.
"""

from __future__ import annotations

import os
import sys
import tempfile
from typing import Any, Callable

import numpy as np

import pyasc
from pyasc import _C, memory

TRACE = os.environ.get("PYASC_CONTRACT_TRACE") == "1"


class BadIndex:
    """An int-like whose conversion fails."""

    def __index__(self) -> int:
        raise ValueError("no index")


class BadBool:
    """An object whose truth value fails."""

    def __bool__(self) -> bool:
        raise ValueError("no truth value")


class BadStr(str):
    """A str subclass whose methods fail (only its type is a str)."""

    def __hash__(self) -> int:
        raise ValueError("no hash")

    def __eq__(self, other: object) -> bool:
        raise ValueError("no comparison")


# Wrong types first; then right types with values a C function might not
# expect. The ndarray of three elements has no truth value.
BAD: list[Any] = [None, "x", b"ab", 1.5, 2**70, -1, object(), np.zeros(3), [], (), {},
                  BadIndex(), BadBool(), BadStr("s"), float("nan"), 0, "", [None]]

# Functions whose calls leave the process unable to continue: none today.
SKIP: dict[str, str] = {}

# How to make an instance of each type of the extension whose methods are
# called; exceptions' types are only constructed.
TINY_KERNEL = "int asc_kernel_entry(void *k, void *a) { (void)k; (void)a; return 0; }\n"


# One private cache for the run, removed when the process ends: a directory
# a call would leave thousands of them behind in /tmp.
_KERNEL_CACHE = tempfile.TemporaryDirectory(prefix="pyasc-contract-")


def compiled_kernel() -> Any:
    """A CompiledKernel of no parameters, built into the run's private cache."""
    return _C.jit_build(TINY_KERNEL, "contract", "", cache_dir=_KERNEL_CACHE.name)[0]


def kernel_launcher() -> Any:
    """A KernelLauncher over a dispatcher that knows no kernel."""
    return _C.KernelLauncher(lambda *a: None, _C.KernelDispatcher([]), 1, None, False)


FACTORIES: dict[str, Callable[[], Any]] = {
    "BatchMatmulTiling": lambda: _C.BatchMatmulTiling(),
    "CompiledKernel": compiled_kernel,
    "DeviceBuffer": lambda: _C.alloc(64),
    "DeviceProperties": lambda: _C.get_device_properties(),
    "Event": lambda: _C.Event(),
    "Generator": lambda: _C.Generator(),
    "IRBuilder": lambda: _C.IRBuilder("k", "k.py"),
    "KernelDispatcher": lambda: _C.KernelDispatcher([False, False]),
    "KernelLauncher": kernel_launcher,
    "MatmulApiTiling": lambda: _C.MatmulApiTiling(),
    "MatmulApiTilingBase": lambda: _C.MatmulApiTiling(),
    "MultiCoreMatmulTiling": lambda: _C.MultiCoreMatmulTiling(),
    "OpDispatch": lambda: _C.OpDispatch(),
    # x + x over 4 float32 elements (value 0 the input, 1 the sum)
    "OpProgram": lambda: _C.OpProgram((4,), [(pyasc.float32, (4,))], [("add", (0, 0), None)],
                                      [1], lambda *args: None),
    "PlatformAscendC": lambda: _C.get_ascendc_platform(),
    "Stream": lambda: _C.Stream(),
    "Tensor": lambda: pyasc.arange(6.0).reshape(2, 3),
    "UniqueAllResult": lambda: _C.unique_all(pyasc.arange(3.0)),
    "UniqueCountsResult": lambda: _C.unique_counts(pyasc.arange(3.0)),
    "UniqueInverseResult": lambda: _C.unique_inverse(pyasc.arange(3.0)),
    "dtype": lambda: pyasc.float32,
}


def types() -> list[str]:
    """The extension's types, exceptions included."""
    return sorted(n for n in dir(_C) if isinstance(getattr(_C, n), type))


def functions() -> list[str]:
    """The extension's module-level functions."""
    return sorted(n for n in dir(_C) if not n.startswith("__") and n not in types()
                  and callable(getattr(_C, n)))


def members(cls: type) -> tuple[list[str], list[str]]:
    """(methods, properties) that cls itself defines (not object's)."""
    methods, props = [], []
    for name, value in vars(cls).items():
        if name.startswith("__") and name not in ("__call__", "__getitem__", "__setitem__",
                                                  "__array__", "__dlpack__",
                                                  "__dlpack_device__"):
            continue
        kind = type(value).__name__
        if kind in ("getset_descriptor", "member_descriptor", "property"):
            props.append(name)
        elif callable(value) or kind in ("method_descriptor", "wrapper_descriptor"):
            methods.append(name)
    return sorted(methods), sorted(props)


def argument_lists(most: int = 4) -> list[tuple[Any, ...]]:
    """0 to `most` arguments: each bad value alone in every position, and
    runs of consecutive bad values."""
    out: list[tuple[Any, ...]] = [()]
    for n in range(1, most + 1):
        for j in range(len(BAD)):
            out.append(tuple(BAD[(j + k) % len(BAD)] for k in range(n)))
            out.append((BAD[j],) * n)
    return out


class Contract:
    """Runs calls and records the ones that break the contract."""

    def __init__(self) -> None:
        self.calls = 0
        self.broken: list[str] = []

    def call(self, what: str, fn: Callable[..., Any], args: tuple[Any, ...],
             kwargs: dict[str, Any] | None = None) -> None:
        """fn(*args, **kwargs) must return or raise an ordinary exception."""
        self.calls += 1
        if TRACE:
            print(f"CALL {what} {[type(a).__name__ for a in args]} {list(kwargs or {})}",
                  file=sys.stderr, flush=True)
        try:
            fn(*args, **(kwargs or {}))
        except SystemError as exc:
            self.broken.append(f"{what}({', '.join(type(a).__name__ for a in args)}"
                               f"{', **' + str(list(kwargs)) if kwargs else ''}): {exc!r} "
                               f"(cause {exc.__cause__!r})")
        except BaseException as exc:  # noqa: BLE001 - any ordinary error is an answer
            if isinstance(exc, (KeyboardInterrupt, SystemExit)):
                raise
        self.settle()

    @staticmethod
    def settle() -> None:
        """Reports (and so clears) a deferred device error a call left."""
        try:
            _C.synchronize()
        except Exception:  # noqa: BLE001
            pass

    def target(self, what: str, fn: Callable[..., Any]) -> None:
        """Every argument list, and a bogus keyword with each bad value."""
        for args in argument_lists():
            self.call(what, fn, args)
        for value in BAD:
            self.call(what, fn, (), {"bogus": value})
            self.call(what, fn, (value,), {"stream": value})


def run() -> Contract:
    """Calls everything; returns the record."""
    memory.set_memory_limit(64 << 20)  # a valid but huge size fails fast
    c = Contract()
    for name in functions():
        if name not in SKIP:
            c.target(f"_C.{name}", getattr(_C, name))
    for name in types():
        cls = getattr(_C, name)
        c.target(f"_C.{name}", cls)
        if issubclass(cls, BaseException):
            continue
        methods, props = members(cls)
        for m in methods:
            # a fresh instance per method: destroy() and free() must not
            # spoil the calls of the others
            c.target(f"_C.{name}.{m}", lambda *a, m=m, **k: getattr(FACTORIES[name](), m)(*a, **k))
        for p in props:
            obj = FACTORIES[name]()
            c.call(f"_C.{name}.{p}", getattr, (obj, p))
            for value in BAD:
                c.call(f"_C.{name}.{p} =", setattr, (obj, p, value))
            c.call(f"del _C.{name}.{p}", delattr, (obj, p))
    return c


def missing_factories() -> list[str]:
    """Types with methods or properties but no way to make an instance."""
    out = []
    for name in types():
        cls = getattr(_C, name)
        if not issubclass(cls, BaseException) and any(members(cls)) and name not in FACTORIES:
            out.append(name)
    return out


def main() -> int:
    missing = missing_factories()
    if missing:
        print(f"no factory for {missing}: add one to FACTORIES", file=sys.stderr)
        return 1
    c = run()
    print(f"{c.calls} calls, {len(c.broken)} broke the contract")
    for line in c.broken:
        print(line)
    return 1 if c.broken else 0


if __name__ == "__main__":
    sys.exit(main())
