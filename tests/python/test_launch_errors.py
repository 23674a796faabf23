"""Errors a kernel's author can act on: a CompileError's traceback ends at
the kernel's line (pyasc's own frames hidden unless PYASC_TRACEBACK=full),
misspelt names get a suggestion, a launch with missing or extra arguments
names them, and a plain Python helper called with run-time values is told
to take @pyasc.jit.

Expected lines come from inspect, never from hard-coded numbers.
"""

from __future__ import annotations

import inspect
import os
import traceback

import numpy as np
import pytest

import pyasc as asc
from kernel_api_helpers import jit

X = np.zeros(256, np.float32)
LANGUAGE_DIR = os.path.dirname(inspect.getsourcefile(asc.jit))  # pyasc/language


def marked_line(fn) -> int:
    lines, first = inspect.getsourcelines(fn.fn)
    return first + next(i for i, text in enumerate(lines) if "# ERR" in text)


@jit
def k_misspelt_api(x: asc.GlobalAddress):
    t = asc.LocalTensor(asc.float32, asc.TPosition.VECIN, 0, 64)
    asc.dupliate(t, 1.0, 64)  # ERR


@jit
def k_misspelt_name(x: asc.GlobalAddress, count: int):
    g = asc.GlobalTensor()
    g.set_global_buffer(x, cuont)  # ERR  # noqa: F821


@jit
def k_far_name(x: asc.GlobalAddress):
    n = zzzqqq + 1  # ERR  # noqa: F821


def undecorated(v):
    return v


@jit
def k_undecorated_helper(x: asc.GlobalAddress, n: int):
    undecorated(n)  # ERR


@jit
def k_three(x: asc.GlobalAddress, y: asc.GlobalAddress, n: int):
    g = asc.GlobalTensor()
    g.set_global_buffer(x, n)


def launch_error(kernel, *args) -> BaseException:
    with pytest.raises(BaseException) as info:
        kernel[1](*args)
    return info.value


def test_did_you_mean_for_an_attribute_of_pyasc():
    err = launch_error(k_misspelt_api, X)
    assert isinstance(err, asc.CompileError)
    assert "module 'pyasc' has no attribute 'dupliate'; did you mean 'duplicate'?" in str(err)


def test_did_you_mean_for_a_local_name():
    err = launch_error(k_misspelt_name, X, 8)
    assert "name 'cuont' is not defined" in str(err)
    assert "did you mean 'count'?" in str(err)


def test_no_suggestion_when_nothing_is_close():
    err = launch_error(k_far_name, X)
    assert "name 'zzzqqq' is not defined" in str(err)
    assert "did you mean" not in str(err)


def test_undecorated_helper_is_told_to_take_jit():
    err = launch_error(k_undecorated_helper, X, 3)
    assert "function 'undecorated' cannot take run-time values in a kernel" in str(err)
    assert "@pyasc.jit" in str(err)


def test_traceback_ends_at_the_kernel_line(monkeypatch):
    monkeypatch.delenv("PYASC_TRACEBACK", raising=False)
    err = launch_error(k_misspelt_api, X)
    frames = traceback.extract_tb(err.__traceback__)
    last = frames[-1]
    assert (last.filename, last.lineno, last.name) == (__file__, marked_line(k_misspelt_api),
                                                       "k_misspelt_api")
    assert last.line.strip() == "asc.dupliate(t, 1.0, 64)  # ERR"
    # No frame of the code generator or the lowerings: at most the launch's own.
    ours = [f for f in frames if f.filename.startswith(LANGUAGE_DIR)]
    assert len(ours) <= 1, [f"{f.filename}:{f.lineno}" for f in ours]


def test_traceback_of_compile_and_ascendc_ends_at_the_kernel_line(monkeypatch):
    monkeypatch.delenv("PYASC_TRACEBACK", raising=False)
    for build in (k_misspelt_name.compile, k_misspelt_name.ascendc):
        with pytest.raises(asc.CompileError) as info:
            build(X, 8)
        last = traceback.extract_tb(info.value.__traceback__)[-1]
        assert (last.filename, last.lineno) == (__file__, marked_line(k_misspelt_name))


def test_full_traceback_on_request(monkeypatch):
    monkeypatch.setenv("PYASC_TRACEBACK", "full")
    err = launch_error(k_misspelt_api, X)
    files = {f.filename for f in traceback.extract_tb(err.__traceback__)}
    assert any(f.endswith(os.path.join("language", "codegen.py")) for f in files)


def test_missing_arguments_are_named():
    err = launch_error(k_three, X)
    assert isinstance(err, TypeError)
    assert str(err) == ("k_three() missing 2 required arguments: 'y', 'n' "
                        "(the kernel is k_three(x, y, n))")
    err = launch_error(k_three, X, X)
    assert str(err).startswith("k_three() missing 1 required argument: 'n'")


def test_extra_arguments_are_counted():
    err = launch_error(k_three, X, X, 4, 5)
    assert str(err) == "k_three() takes 3 arguments (x, y, n) but 4 were given"


def test_arity_errors_from_compile_and_ascendc():
    with pytest.raises(TypeError, match=r"missing 1 required argument: 'n'"):
        k_three.compile(X, X)
    with pytest.raises(TypeError, match=r"takes 3 arguments \(x, y, n\) but 4 were given"):
        k_three.ascendc(X, X, 1, 2)


@jit
def k_const(x: asc.GlobalAddress, n: asc.ConstExpr[int]):
    g = asc.GlobalTensor()
    g.set_global_buffer(x, n)


@pytest.mark.parametrize("bad", [np.zeros(3), [1, 2]], ids=["array", "list"])
def test_an_unhashable_constexpr_argument_is_named(bad):
    """The C fast path leaves it to the Python path, which names the
    parameter; the same through compile()."""
    for call in (lambda: k_const[1](X, bad), lambda: k_const.compile(X, bad)):
        with pytest.raises(TypeError, match=r"k_const\(\): ConstExpr parameter 'n' takes a "
                                            r"compile-time value .* not (ndarray|list)"):
            call()
