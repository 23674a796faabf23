"""The docstrings of the tensor library: their examples run, and their shape.

Every public function of the tensor library (pyasc's top-level functions
outside the kernel language, its classes (Tensor, Stream, Generator...) and
their methods, and the functions of the submodules in SUBMODULES) is to
have a NumPy-style docstring: a summary line, a Parameters section when it
takes parameters, a Returns section (not for a class) and an Examples
section. Those of the C functions are data in docs/docstrings
(docs/contributing.md, "Docstrings"); the Python functions keep theirs in
their source.

(a) Every example runs, as doctest runs it, with `pyasc` and `np` (NumPy)
    in its namespace and NumPy's print options at 4 decimals without
    scientific notation (precision=4, suppress=True), so that a float
    printed in an example does not hang on its last bits.
(b) Each name's docstring has the sections. The names still without them
    are listed in docstrings_missing.py, and the list must be exact: a name
    documented since is to be taken off it, so the list only shrinks.
"""

from __future__ import annotations

import doctest
import importlib
import inspect
import re
import types
from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest

import pyasc
from docstrings_missing import MISSING

# The public submodules of the tensor library. The kernel language
# (pyasc.language, its names re-exported at the top level, pyasc.adv) and
# the framework bridges (pyasc.torch, pyasc.jax, pyasc.npu, pyasc.ascendc)
# are not the tensor library.
SUBMODULES = ("random", "memory", "testing", "autograd", "array_api", "array_api.linalg",
              "array_api.fft")


def _functions_of(module: types.ModuleType) -> Iterator[tuple[str, Any]]:
    names = getattr(module, "__all__", None) or [n for n in dir(module) if not n.startswith("_")]
    for name in sorted(set(names)):
        obj = getattr(module, name)
        if callable(obj) and not isinstance(obj, type) and not name.startswith("__"):
            yield name, obj


def library_classes() -> list[type]:
    """pyasc's top-level classes outside the kernel language, but exceptions
    and warnings (whose docstrings say when they are raised)."""
    found = [getattr(pyasc, n) for n in sorted(pyasc.__all__)]
    return [c for c in found if isinstance(c, type) and not issubclass(c, BaseException)
            and not c.__module__.startswith("pyasc.language")]


def public_callables() -> dict[str, Any]:
    """Qualified name -> function; an object re-exported under several names
    (pyasc.exp is pyasc.array_api.exp) is checked once, under its first."""
    found: dict[str, Any] = {}
    seen: set[int] = set()

    def add(qualname: str, obj: Any) -> None:
        if id(obj) not in seen:
            seen.add(id(obj))
            found[qualname] = obj

    for name, obj in _functions_of(pyasc):
        if not (getattr(obj, "__module__", "") or "").startswith("pyasc.language"):
            add(name, obj)
    for cls in library_classes():
        add(cls.__name__, cls)
        for name, obj in sorted(vars(cls).items()):
            if not name.startswith("_") and isinstance(obj, (types.MethodDescriptorType,
                                                             types.FunctionType)):
                add(f"{cls.__name__}.{name}", obj)
    for sub in SUBMODULES:
        for name, obj in _functions_of(importlib.import_module(f"pyasc.{sub}")):
            add(f"{sub}.{name}", obj)
    return found


PUBLIC = public_callables()


def _section(doc: str, title: str) -> str | None:
    """The body of a NumPy-style section of doc, or None without one."""
    m = re.search(rf"^{title}\n-{{{len(title)}}}\n(.*?)(?=^\S[^\n]*\n-+\n|\Z)", doc, re.M | re.S)
    return m.group(1) if m else None


def _takes_parameters(obj: Any) -> bool:
    try:
        params = list(inspect.signature(obj).parameters)
    except (TypeError, ValueError):  # no signature: assume it takes some
        return True
    return bool([p for p in params if p != "self"])


def shape_problems(obj: Any) -> list[str]:
    """What a docstring lacks of the NumPy form; [] when it has it all."""
    doc = inspect.cleandoc(obj.__doc__ or "")
    problems = []
    summary = doc.split("\n", 1)[0]
    if not summary.endswith(".") or summary.startswith(f"{obj.__name__}("):  # not a signature
        problems.append("summary line")
    if _takes_parameters(obj) and not _section(doc, "Parameters"):
        problems.append("Parameters")
    if not isinstance(obj, type) and not _section(doc, "Returns"):  # a class returns itself
        problems.append("Returns")
    if ">>>" not in (_section(doc, "Examples") or ""):
        problems.append("Examples")
    return problems


def test_the_tensor_library_is_found() -> None:
    assert len(PUBLIC) > 300
    assert {"exp", "Tensor.exp", "rand", "random.default_rng", "array_api.linalg.inv", "Stream",
            "Stream.synchronize", "Generator.random"} <= set(PUBLIC)
    assert "copy_ubuf_to_gm" not in PUBLIC  # a kernel API
    assert "array_api.exp" not in PUBLIC  # it is pyasc.exp


def test_missing_list_is_exact() -> None:
    missing = {name for name, obj in PUBLIC.items() if shape_problems(obj)}
    documented_since = sorted(MISSING - missing)
    newly_missing = {name: shape_problems(PUBLIC[name]) for name in sorted(missing - MISSING)}
    assert not documented_since, f"documented now: take off docstrings_missing.py: {documented_since}"
    assert not newly_missing, f"docstrings without the NumPy sections: {newly_missing}"


WITH_EXAMPLES = sorted(name for name, obj in PUBLIC.items() if ">>>" in (obj.__doc__ or ""))


def test_most_of_the_common_functions_have_examples() -> None:
    """The commonly used families are documented (not left to the list)."""
    common = ["zeros", "arange", "asarray", "add", "multiply", "equal", "exp", "sqrt", "where",
              "clip", "sum", "mean", "max", "argmax", "concatenate", "Tensor.reshape",
              "Tensor.transpose", "take", "sort", "matmul", "array_api.linalg.inv", "Tensor.exp",
              "Tensor.sum", "Stream", "rand", "grad"]
    assert [name for name in common if name not in WITH_EXAMPLES] == []


@pytest.mark.parametrize("name", WITH_EXAMPLES)
def test_examples_run(name: str) -> None:
    obj = PUBLIC[name]
    parser = doctest.DocTestParser()
    test = parser.get_doctest(inspect.cleandoc(obj.__doc__), {"pyasc": pyasc, "np": np},
                              f"pyasc.{name}", None, 0)
    assert test.examples
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE,
                                   verbose=False)
    failures: list[str] = []

    def report(out: str) -> None:
        failures.append(out)

    with np.printoptions(precision=4, suppress=True):
        result = runner.run(test, out=report, clear_globs=True)
    assert result.failed == 0, "".join(failures)


def test_shape_check_sees_a_missing_section() -> None:
    """The check itself: a docstring without Returns or Examples fails it."""
    def documented(x: int) -> int:
        """Doubles x.

        Parameters
        ----------
        x : int
            A number.

        Returns
        -------
        int
            2 * x.

        Examples
        --------
        >>> 1
        1
        """
        return 2 * x

    def bare(x: int) -> int:
        """Doubles x."""
        return 2 * x

    assert shape_problems(documented) == []
    assert shape_problems(bare) == ["Parameters", "Returns", "Examples"]
