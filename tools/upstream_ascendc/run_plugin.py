"""pytest plugin for pyasc: each @asc.jit launch of a test runs, instead
of pyasc's own build of the kernel, the Ascend C that Huawei's PyAsc made
for that launch (emit_plugin.py wrote it to $UPA_OUT/<test id>/<kernel>.<n>.cpp),
built with pyasc.ascendc.load; the test's own checks then judge it. A
launch with no such file runs as usual and is counted."""

from __future__ import annotations

import json
import os
import re
from typing import Any

import numpy as np

import pyasc
from pyasc.language import jit as _jit
from pyasc.language.struct import Struct

OUT = os.environ["UPA_OUT"]
_SIGNATURE = re.compile(r'extern "C"\s+__global__\s+__aicore__\s+void\s+(\w+)\s*\(([^)]*)\)')
_state: dict[str, Any] = {"dir": "", "n": 0, "used": 0, "missing": 0}
_kernels: dict[str, Any] = {}
_results: dict[str, dict[str, Any]] = {}


def _test_dir(nodeid: str) -> str:
    return os.path.join(OUT, re.sub(r"[^A-Za-z0-9_.-]", "_", nodeid))


def _kernel(path: str) -> tuple[Any, list[str]]:
    """The built kernel of a file and its parameters' types."""
    if path not in _kernels:
        with open(path, encoding="utf-8") as f:
            source = f.read()
        m = _SIGNATURE.search(source)
        if m is None:
            raise RuntimeError(f"{path}: no kernel function")
        types = [p.rsplit(None, 1)[0] for p in m.group(2).split(",") if p.strip()]
        _kernels[path] = (pyasc.ascendc.load(path, m.group(1)), types)
    return _kernels[path]


def _arguments(runtime: list, types: list[str]) -> list:
    """PyAsc's kernel arguments for a launch's run-time ones (a struct,
    which the launch flattens into its fields, as the address of its
    bytes), then the FFTS address."""
    classes = Struct.by_name()
    values = iter(runtime)
    out: list = []
    for t in types[:-1]:
        name = re.sub(r"^__gm__\s+|\s*\*$", "", t.strip())
        if name in classes:
            out.append(np.frombuffer(classes[name].unflatten(values).pack(), np.uint8).copy())
        else:
            out.append(next(values))
    if next(values, None) is not None:
        raise RuntimeError(f"the launch gives more arguments than the kernel's {types}")
    return out + [np.zeros(1, np.uint64)]


def _hook(kernel: Any, name: str, runtime: list, core_num: Any, stream: Any) -> bool:
    path = os.path.join(_state["dir"], f"{name}.{_state['n']}.cpp")
    _state["n"] += 1
    if not os.path.exists(path):
        _state["missing"] += 1
        return False
    built, types = _kernel(path)
    built[core_num, stream](*_arguments(runtime, types))
    _state["used"] += 1
    return True


def pytest_runtest_setup(item: Any) -> None:
    _state.update(nodeid=item.nodeid, dir=_test_dir(item.nodeid), n=0, used=0, missing=0)
    _jit.set_launch_hook(_hook)


def pytest_runtest_logreport(report: Any) -> None:
    # where the test ran (pytest-xdist's controller only relays reports)
    if report.nodeid != _state.get("nodeid"):
        return
    if report.when == "call" or report.outcome != "passed":
        entry = _results.setdefault(report.nodeid, {})
        entry.update(outcome=report.outcome if report.when == "call" else f"{report.when} error",
                     used=_state["used"], missing=_state["missing"])
        if report.outcome == "failed":
            crash = getattr(report.longrepr, "reprcrash", None)
            why = crash.message if crash else str(report.longrepr).strip().splitlines()[-1]
            entry["why"] = why.splitlines()[0][:300]


def pytest_sessionfinish(session: Any) -> None:
    _jit.set_launch_hook(None)
    with open(os.path.join(OUT, f"results.{os.getpid()}.json"), "w", encoding="utf-8") as f:
        json.dump(_results, f, indent=1)
