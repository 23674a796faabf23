"""inspect.signature on every public callable of pyasc, and signatures that
say what the callables accept.

The C functions and methods carry text signatures (src/binding, ASC_DOC).
Beyond their presence this checks, for every function and method of the
extension, that each keyword the signature names is accepted, that a
positional-only parameter is refused as a keyword, and that one positional
argument too many is refused; and, for a sample, that a call spelt with all
of the signature's keywords works and that its defaults are the real ones.
(`make typecheck` checks python/pyasc/_C.pyi against these signatures.)
"""

from __future__ import annotations

import ast
import inspect
import pathlib
import types
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np
import pytest

import pyasc
from pyasc import _C, memory
from pyasc.language.builtins import KERNEL_ONLY

ROOT = pathlib.Path(__file__).resolve().parents[2]
P = inspect.Parameter

# Classes whose methods the extension defines (in its method tables).
EXTENSION_CLASSES = [_C.Tensor, _C.dtype, _C.Stream, _C.Event, _C.Generator, _C.DeviceBuffer,
                     _C.IRBuilder, _C.KernelDispatcher, _C.CompiledKernel, _C.OpDispatch,
                     _C.OpProgram]
# The kernel compiler's classes build IR: calling their methods with made-up
# arguments is not harmless, so only their signatures' presence is checked.
COMPILER_CLASSES = {_C.IRBuilder, _C.KernelDispatcher, _C.CompiledKernel}


def public_callables() -> list[tuple[str, Any]]:
    names = sorted({*pyasc.__all__, *(n for n in dir(pyasc) if not n.startswith("_"))})
    found = [(n, getattr(pyasc, n)) for n in names]
    return [(n, o) for n, o in found if callable(o) and not isinstance(o, types.ModuleType)]


def extension_methods() -> list[tuple[type, str]]:
    """(class, name) of every method the extension's tables define."""
    return [(cls, name) for cls in EXTENSION_CLASSES for name, obj in vars(cls).items()
            if isinstance(obj, types.MethodDescriptorType)]


def extension_functions() -> list[str]:
    return sorted(n for n in dir(_C) if isinstance(getattr(_C, n), types.BuiltinFunctionType))


@pytest.mark.parametrize("name,obj", public_callables(), ids=lambda v: v if isinstance(v, str) else "")
def test_every_public_callable_has_a_signature(name, obj):
    inspect.signature(obj)


@pytest.mark.parametrize("cls,name", extension_methods(),
                         ids=lambda v: v.__name__ if isinstance(v, type) else v)
def test_every_extension_method_has_a_signature(cls, name):
    sig = inspect.signature(getattr(cls, name))
    assert next(iter(sig.parameters)) == "self"


@pytest.mark.parametrize("name", extension_functions())
def test_every_extension_function_has_a_signature(name):
    fn = getattr(_C, name)
    sig = inspect.signature(fn)
    assert fn.__text_signature__ is not None
    # the doc is what follows the signature (a section's underline is no separator)
    assert "\n--\n" not in (fn.__doc__ or "") and not (fn.__doc__ or "").startswith(f"{name}(")
    assert "$" not in str(sig)


def test_classes_and_errors_have_signatures():
    assert str(inspect.signature(pyasc.Tensor)) == "(data, dtype=None)"
    assert str(inspect.signature(pyasc.dtype)) == "(dtype)"
    assert str(inspect.signature(pyasc.Stream)) == "(device=None)"
    assert str(inspect.signature(pyasc.Event)) == "(enable_timing=True)"
    assert str(inspect.signature(pyasc.Generator)) == "(seed=None)"
    for err in (pyasc.Error, pyasc.KernelError, pyasc.InvalidValueError):
        assert str(inspect.signature(err)) == "(*args)"
        assert err.__doc__ and not err.__doc__.startswith(err.__name__)  # plain text
    assert pyasc.KernelError("boom", 2).args == ("boom", 2)


# --- the signatures against the argument parsers ----------------------------------------


def bound_callables() -> Iterator[tuple[str, Callable[..., Any]]]:
    """Every extension function, and every method bound to a live object."""
    for name in extension_functions():
        if not name.startswith("_testing"):
            yield name, getattr(_C, name)
    live = {_C.Tensor: _C.ones(3), _C.dtype: _C.float32, _C.Stream: _C.Stream(),
            _C.Event: _C.Event(), _C.Generator: _C.Generator(1),
            _C.OpDispatch: _C.OpDispatch()}
    for cls, name in extension_methods():
        if cls in live:
            yield f"{cls.__name__}.{name}", getattr(live[cls], name)


BOUND = dict(bound_callables())
SENTINEL = object()


def refuses_keyword(exc: BaseException, keyword: str) -> bool:
    text = str(exc)
    return ("unexpected keyword" in text or "takes no keyword" in text
            or f"'{keyword}' is an invalid keyword" in text)


@pytest.mark.parametrize("name", sorted(BOUND))
def test_signature_keywords_are_accepted(name):
    fn = BOUND[name]
    params = inspect.signature(fn).parameters.values()
    for p in params:
        if p.kind in (P.POSITIONAL_OR_KEYWORD, P.KEYWORD_ONLY):
            try:
                fn(**{p.name: SENTINEL})
            except Exception as exc:  # any failure but an unknown keyword
                assert not refuses_keyword(exc, p.name), f"{name}: {p.name}: {exc}"
        elif p.kind is P.POSITIONAL_ONLY and not any(q.kind is P.VAR_KEYWORD for q in params):
            with pytest.raises(TypeError) as info:
                fn(**{p.name: SENTINEL})
            assert refuses_keyword(info.value, p.name) or "missing" in str(info.value), \
                f"{name}: {p.name}: {info.value}"
    if not any(p.kind is P.VAR_KEYWORD for p in params):
        with pytest.raises(TypeError):
            fn(no_such_keyword=SENTINEL)


@pytest.mark.parametrize("name", sorted(BOUND))
def test_signature_counts_positionals(name):
    fn = BOUND[name]
    params = inspect.signature(fn).parameters.values()
    if any(p.kind is P.VAR_POSITIONAL for p in params):
        return
    most = sum(p.kind in (P.POSITIONAL_ONLY, P.POSITIONAL_OR_KEYWORD) for p in params)
    with pytest.raises(TypeError, match="argument|takes"):
        fn(*[SENTINEL] * (most + 1))
    required = [p for p in params if p.default is P.empty and p.kind is not P.VAR_KEYWORD]
    if required:
        with pytest.raises(TypeError, match="missing|argument|takes"):
            fn()


def a(values: Any, dtype: Any = "float32") -> pyasc.Tensor:
    return pyasc.asarray(np.asarray(values, dtype=dtype))


# (callable, every parameter of its signature by keyword): each must work.
# clip's NumPy spellings (a_min/a_max, min/max) are aliases of lo/hi: naming
# one bound twice, even as None, is an error, so its samples leave them out.
CLIP_ALIASES = {"a_min", "a_max", "min", "max"}
SAMPLES: list[tuple[Callable[..., Any], dict[str, Any]]] = [
    (pyasc.add, {"x": a([1, 2]), "y": a([3, 4]), "out": None}),
    (pyasc.exp, {"x": a([0, 1]), "out": None}),
    (pyasc.round, {"x": a([1.26, 2.5]), "decimals": 0, "out": None}),
    (pyasc.sum, {"x": a([[1, 2], [3, 4]]), "axis": 0, "dtype": None, "out": None,
                 "keepdims": False}),
    (pyasc.var, {"x": a([1, 2, 4]), "axis": None, "dtype": None, "out": None, "ddof": 0,
                 "keepdims": False}),
    (pyasc.argmax, {"x": a([1, 5, 2]), "axis": None, "out": None, "keepdims": False}),
    (pyasc.softmax, {"x": a([1, 2]), "axis": -1, "out": None}),
    (pyasc.clip, {"x": a([-1, 2]), "lo": 0, "hi": 1, "out": None}),
    (pyasc.where, {"condition": a([1, 0], "bool"), "x": a([1, 2]), "y": a([3, 4])}),
    (pyasc.matmul, {"x1": a([[1, 2]]), "x2": a([[3], [4]]), "out": None}),
    (pyasc.full, {"shape": (2,), "fill_value": 3, "dtype": None}),
    (pyasc.zeros, {"shape": (2, 1), "dtype": None}),
    (pyasc.ones_like, {"x": a([1, 2]), "dtype": None}),
    (pyasc.arange, {"start": 1, "stop": 7, "step": 2, "dtype": None}),
    (pyasc.linspace, {"start": 0, "stop": 1, "num": 5, "endpoint": True, "dtype": None}),
    (pyasc.eye, {"N": 2, "M": None, "k": 0, "dtype": None}),
    (pyasc.concatenate, {"arrays": [a([1]), a([2])], "axis": 0, "out": None, "dtype": None}),
    (pyasc.stack, {"arrays": [a([1]), a([2])], "axis": 0, "out": None, "dtype": None}),
    (pyasc.asarray, {"data": [1, 2], "dtype": None}),
    (pyasc.from_dlpack, {"x": np.arange(3.0), "device": None, "copy": None}),
    (pyasc.get_device_properties, {"device": None}),
    (pyasc.current_stream, {"device": None}),
    (memory.memory_stats, {"device": None}),
    (a([[1, 2], [3, 4]]).sum, {"axis": 1, "dtype": None, "out": None, "keepdims": False}),
    (a([1.26]).round, {"decimals": 0, "out": None}),
    (a([1, 2]).to, {"target": None, "dtype": None, "device": None}),
    (a([1, 2]).matmul, {"other": a([3, 4]), "out": None}),
    (a([-1, 2]).clip, {"lo": 0, "hi": None, "out": None}),
    (pyasc.Generator(3).integers, {"low": 0, "high": 9, "size": (4,), "dtype": None,
                                   "endpoint": False}),
    (pyasc.Generator(3).random, {"size": (2,), "dtype": None}),
]


def same(x: Any, y: Any) -> bool:
    if isinstance(x, pyasc.Tensor):
        return isinstance(y, pyasc.Tensor) and x.dtype == y.dtype and x.tolist() == y.tolist()
    return bool(x == y)


@pytest.mark.parametrize("fn,kwargs", SAMPLES, ids=lambda v: getattr(v, "__name__", ""))
def test_sample_calls_by_signature_keywords(fn, kwargs):
    sig = inspect.signature(fn)
    left_out = CLIP_ALIASES if fn.__name__ == "clip" else set()
    assert set(kwargs) == set(sig.parameters) - left_out, "the sample names every parameter"
    result = fn(**kwargs)
    # The defaults the signature states are the ones the function uses:
    # leaving out every parameter that has one gives the same result.
    required = {k: v for k, v in kwargs.items() if sig.parameters[k].default is P.empty}
    explicit = {**required, **{k: sig.parameters[k].default for k in kwargs
                               if sig.parameters[k].default is not P.empty}}
    if isinstance(getattr(fn, "__self__", None), pyasc.Generator):
        return  # a generator's numbers move on with each call
    assert same(fn(**required), fn(**explicit))
    assert result is not None


def test_memory_functions_by_keyword():
    with memory.alloc(nbytes=64, device=None, stream=None) as buf:
        memory.memset(dst=buf, value=7, nbytes=None, offset=0, stream=None, non_blocking=False)
        host = bytearray(64)
        memory.memcpy(dst=host, src=buf, nbytes=None, dst_offset=0, src_offset=0, stream=None,
                      non_blocking=False)
        assert host == bytearray([7] * 64)


def test_stream_and_event_by_keyword():
    s = pyasc.Stream(device=None)
    e = s.record_event(event=None)
    e.wait(stream=s)
    e.record(stream=None)
    e.synchronize()
    s.destroy()


# --- the stubs --------------------------------------------------------------------------


def test_kernel_builtins_stub_lists_every_kernel_only_api():
    stub = ast.parse((ROOT / "python/pyasc/language/_kernel_builtins.pyi").read_text())
    declared = {n.target.id for n in stub.body if isinstance(n, ast.AnnAssign)}
    assert declared == set(KERNEL_ONLY)
    # `import *` of the stub (pyasc/__init__.py) takes __all__ where there is
    # one: a stale list hid load_data/mmad/fixpipe from the type checker.
    listed = [ast.literal_eval(n.value) for n in stub.body if isinstance(n, ast.Assign)
              and any(isinstance(t, ast.Name) and t.id == "__all__" for t in n.targets)]
    assert all(set(names) == declared for names in listed)


def test_extension_stub_names_every_public_name():
    stub = ast.parse((ROOT / "python/pyasc/_C.pyi").read_text())
    top = {n.name for n in stub.body if isinstance(n, (ast.FunctionDef, ast.ClassDef))}
    top |= {n.target.id for n in stub.body if isinstance(n, ast.AnnAssign)}
    # The Tensor class has its own section, re-exported by _C.pyi.
    if any(isinstance(n, ast.ImportFrom) and n.module == "pyasc._C_tensor"
           and [(a.name, a.asname) for a in n.names] == [("Tensor", "Tensor")] for n in stub.body):
        top.add("Tensor")
    runtime = {n for n in dir(_C) if not n.startswith("__")}
    assert runtime - top == set()
    tensor_stub = ast.parse((ROOT / "python/pyasc/_C_tensor.pyi").read_text())
    tensor = next(n for n in tensor_stub.body if isinstance(n, ast.ClassDef) and n.name == "Tensor")
    methods = {n.name for n in tensor.body if isinstance(n, ast.FunctionDef)}
    public = {n for n in vars(_C.Tensor) if not n.startswith("_")}
    assert public - methods == set()
