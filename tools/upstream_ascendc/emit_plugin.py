"""pytest plugin for Huawei's PyAsc (its venv, import name ``asc``): each
kernel launch of a test writes the Ascend C that PyAsc's front end, MLIR
passes and translation make for it, instead of running (no CANN here), to
$UPA_OUT/<test id>/<kernel>.<n>.cpp, n counting the test's launches.
tools/upstream-ascendc.sh loads it with ``-p emit_plugin``."""

import inspect
import os
import re
import sys
import types

import torch

import asc.runtime.config as config
import asc.lib
import asc.lib.runtime as rt
from asc.runtime import jit as J, compiler as C

OUT = os.environ["UPA_OUT"]
state = {"dir": "", "n": 0}


def _test_dir(nodeid):
    """The folder of a test's files (its id made a file name)."""
    return os.path.join(OUT, re.sub(r"[^A-Za-z0-9_.-]", "_", nodeid))


def pytest_runtest_setup(item):
    state["dir"] = _test_dir(item.nodeid)
    state["n"] = 0


config.set_platform = lambda *a, **k: None
rt.current_stream = lambda *a, **k: None
for _name in ("synchronize", "set_device"):
    if hasattr(rt, _name):
        setattr(rt, _name, lambda *a, **k: None)


def _emit(self, *args, **kwargs):
    """JITFunction._run: the launch's specialisation through codegen, the
    passes and the translation, written out."""
    kwargs = J.merge_dict(self.default_options, kwargs)
    codegen = self.extract_kwargs(J.CodegenOptions, kwargs)
    compile_opts = self.extract_kwargs(J.CompileOptions, kwargs)
    bound = inspect.signature(self.fn).bind(*args, **kwargs).arguments
    runtime, constexprs = self.split_args(bound, J.get_annotations(self.fn))
    spec = J.Specialization({n: self.get_arg_type(v) for n, v in runtime.items()}, constexprs)
    module = self._run_codegen(spec, codegen)
    compiler = C.Compiler.__new__(C.Compiler)
    compiler.options, compiler.dump_dir, compiler.enable_debug = compile_opts, None, False
    compiler.platform = C.CompilePlatform.Ascend910B
    compiler.run_passes(module)
    os.makedirs(state["dir"], exist_ok=True)
    path = os.path.join(state["dir"], f"{self.fn.__name__}.{state['n']}.cpp")
    state["n"] += 1
    with open(path, "w") as f:
        f.write(compiler.run_translation(module))

J.JITFunction._run = _emit


def _on_cpu(factory):
    """A torch factory that makes on the CPU what a test asks of "npu":
    the emitted code does not depend on where the data is (no torch_npu
    here)."""

    def make(*args, **kwargs):
        if str(kwargs.get("device", "")).startswith("npu"):
            kwargs["device"] = "cpu"
        return factory(*args, **kwargs)

    return make


for _factory in ("randn", "randint", "rand", "zeros", "ones", "empty", "full", "tensor"):
    setattr(torch, _factory, _on_cpu(getattr(torch, _factory)))


class _NoTiling:
    """asc.lib.host's matmul tiling without CANN (which it needs): every call
    does nothing and get_tiling leaves the TCubeTiling as it is. The kernel
    reads its tiling at run time, so the values do not enter the code; the
    run with pyasc passes pyasc.host's."""

    def __init__(self, *args, **kwargs):
        pass

    def __getattr__(self, name):
        return lambda *args, **kwargs: 0


class _Names:
    """One of asc.lib.host's enums without CANN: any member, by its name."""

    def __getattr__(self, name):
        return name


class _Host(types.ModuleType):
    """asc.lib.host without CANN: its tiling classes do nothing, its enums
    give names, get_ascendc_platform gives None."""

    def __getattr__(self, name):
        if name.endswith("Tiling"):
            return _NoTiling
        if name == "get_ascendc_platform":
            return lambda *args, **kwargs: None
        return _Names()


sys.modules["asc.lib.host"] = _Host("asc.lib.host")
asc.lib.host = sys.modules["asc.lib.host"]
