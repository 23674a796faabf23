"""Every kernel launch checked against its own Ascend C (pyasc.ascendc).

``RoundTrip`` is a launch hook (pyasc.language.jit.set_launch_hook): each
launch of a @pyasc.jit kernel on NumPy arrays and scalars also builds the
kernel's emitted Ascend C with pyasc.ascendc.load, runs it on copies of the
arguments first, then runs the Python kernel on the real ones, and compares
every array bit for bit (and, when the Python kernel fails, that the Ascend
C failed too). Kernels with no Ascend C form, or whose Ascend C uses an API
kernel_operator.h does not have yet, are counted and launched as usual.

tools/ascendc_roundtrip.py runs test files under it and prints the counts;
test_ascendc_exec.py uses it on one kernel.
"""

from __future__ import annotations

import re
from collections import Counter
from typing import Any

import numpy as np

import pyasc
from pyasc.language import jit as _jit
from pyasc.language.struct import Struct

_NAME = re.compile(r'extern "C" __global__ __aicore__ void (\w+)\(')
_PARAMS = re.compile(r'extern "C" __global__ __aicore__ void \w+\(([^)]*)\)')
# a struct parameter: its bytes copied into a local of the struct's type
_STRUCT_COPY = re.compile(r'reinterpret_cast<uint8_t \*>\(&(\w+)\)\[i\] = (\w+)\[i\]')
_SCALARS = (int, float, bool, np.integer, np.floating, np.bool_)


def ascendc_arguments(source: str, runtime: tuple) -> list | None:
    """The Ascend C kernel's arguments for a launch's run-time ones: each
    struct, which the launch flattens into its fields, as its bytes (the
    emitted kernel takes a GM_ADDR and copies the struct out of it). None
    when a struct's type is unknown."""
    m = _PARAMS.search(source)
    params = [p.split()[-1] for p in m.group(1).split(",")] if m and m.group(1).strip() else []
    structs = {}
    for var, addr in _STRUCT_COPY.findall(source):
        decl = re.search(rf"^\s*(\w+) {var};", source, re.M)
        structs[addr] = decl.group(1) if decl else None
    classes = Struct.by_name()
    values = iter(runtime)
    out: list = []
    for p in params:
        if p in structs:
            cls = classes.get(structs[p] or "")
            if cls is None:
                return None
            out.append(np.frombuffer(cls.unflatten(values).pack(), np.uint8).copy())
        else:
            out.append(next(values, None))
    return out


class RoundTrip:
    """The launch hook and what it saw."""

    def __init__(self) -> None:
        self.matched: Counter[str] = Counter()
        self.mismatched: dict[str, str] = {}
        self.no_form: dict[str, str] = {}
        self.unsupported: dict[str, str] = {}
        self.other_args: Counter[str] = Counter()
        self._built: dict[tuple[str, bool], Any] = {}

    def install(self) -> None:
        _jit.set_launch_hook(self)

    def uninstall(self) -> None:
        _jit.set_launch_hook(None)

    def _kernel(self, source: str, checked: bool) -> Any:
        key = (source, checked)
        if key not in self._built:
            m = _NAME.search(source)
            if m is None:
                raise pyasc.CompileError("no kernel function in the Ascend C")
            self._built[key] = pyasc.ascendc.load(source, m.group(1), debug=checked)
        return self._built[key]

    def __call__(self, compiled: Any, name: str, runtime: tuple, core_num: int,
                 stream: Any) -> bool:
        if not all(isinstance(a, np.ndarray) or isinstance(a, _SCALARS) for a in runtime):
            self.other_args[name] += 1
            return False
        try:
            source = compiled.ascendc_source
        except pyasc.Error as exc:
            self.no_form.setdefault(name, str(exc).splitlines()[0][:200])
            return False
        checked = "#define ASC_K_CHECKED 1" in compiled.c_source
        try:
            cxx = self._kernel(source, checked)
        except pyasc.CompileError as exc:
            try:
                compiled.native.launch(core_num, stream, *runtime)
            except Exception:  # a form both refuse (the C++ at compile time): they agree
                self.matched[name] += 1
                raise
            lines = [ln for ln in str(exc).splitlines() if "error:" in ln]
            self.unsupported.setdefault(name, (lines[0] if lines else str(exc))[:300])
            return True
        copies = [a.copy() if isinstance(a, np.ndarray) else a for a in runtime]
        cxx_args = ascendc_arguments(source, tuple(copies))
        if cxx_args is None:
            self.other_args[name] += 1
            return False
        cxx_error: Exception | None = None
        try:
            cxx[core_num, stream](*cxx_args)
        except Exception as exc:  # noqa: BLE001 (compared with the Python kernel's)
            cxx_error = exc
        py_error: Exception | None = None
        try:
            compiled.native.launch(core_num, stream, *runtime)
        except Exception as exc:  # noqa: BLE001 (raised again below)
            py_error = exc
        if (py_error is None) != (cxx_error is None):
            self.mismatched.setdefault(
                name, f"Python kernel: {py_error!r:.200}; Ascend C: {cxx_error!r:.200}")
        elif py_error is None:
            for i, (a, b) in enumerate(zip(runtime, copies)):
                if isinstance(a, np.ndarray) and a.tobytes() != b.tobytes():
                    self.mismatched.setdefault(name, f"argument {i} differs")
                    break
            else:
                self.matched[name] += 1
        else:
            self.matched[name] += 1
        if py_error is not None:
            raise py_error
        return True

    def report(self) -> str:
        """The counts, and each kernel not verified with its reason."""
        out = [f"launches matched bit for bit: {sum(self.matched.values())} "
               f"({len(self.matched)} kernels)",
               f"kernels mismatched: {len(self.mismatched)}",
               f"kernels whose Ascend C the simulator's header cannot build yet: "
               f"{len(self.unsupported)}",
               f"kernels with no Ascend C form: {len(self.no_form)}",
               f"launches with other arguments (Structs, tensors): "
               f"{sum(self.other_args.values())}"]
        for title, table in (("MISMATCH", self.mismatched), ("UNSUPPORTED", self.unsupported),
                             ("NO FORM", self.no_form)):
            out += [f"  {title} {k}: {v}" for k, v in sorted(table.items())]
        return "\n".join(out)
