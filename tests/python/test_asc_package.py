"""``import asc``: PyAsc's package layout serving pyasc's own objects."""

from __future__ import annotations

import importlib
import os

import numpy as np
import pytest

import asc
import asc.language.core.struct
import asc.lib.runtime as rt
import asc.runtime.config as config
import pyasc
import pyasc.language.struct
from asc import _upstream_names
from pyasc.language import options

# PyAsc 1.1.1's public names (lists of names, one a line).
REFERENCE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "reference")
SUBMODULES = ["asc", "asc.language", "asc.language.core", "asc.language.core.struct",
              "asc.language.fwk", "asc.language.basic", "asc.language.adv", "asc.runtime",
              "asc.runtime.config", "asc.lib", "asc.lib.runtime", "asc.lib.host"]
# Names in PyAsc 1.1.1's top level that are artefacts of its __all__ (two
# names run together by a missing comma) or an imported helper.
UPSTREAM_ARTEFACTS = {"arrayTBuf", "get_tpipe_ptrdata_sync_barrier", "lan_all"}


def _reference(name: str) -> list[str]:
    path = os.path.join(REFERENCE, name)
    with open(path, encoding="utf-8") as f:
        return [line.strip() for line in f if line.strip() and not line.startswith("#")]


@pytest.mark.parametrize("name", SUBMODULES)
def test_every_submodule_imports_and_lists_what_it_has(name):
    module = importlib.import_module(name)
    assert module.__doc__
    for attr in getattr(module, "__all__", []):
        assert hasattr(module, attr), f"{name}.__all__ names missing {attr}"


def _pyasc_object(name: str):
    """The pyasc object an asc kernel-language name must be."""
    aliases = {"half": "float16", "float_": "float32", "double": "float64", "int_": "int32",
               "DataType": "dtype"}
    if hasattr(pyasc, name):
        return getattr(pyasc, name)
    if hasattr(pyasc.language.core, name):
        return getattr(pyasc.language.core, name)
    return getattr(pyasc, aliases[name])


@pytest.mark.parametrize("module_name", ["asc", "asc.language", "asc.language.core",
                                         "asc.language.fwk", "asc.language.basic"])
def test_kernel_language_names_are_pyascs_objects(module_name):
    module = importlib.import_module(module_name)
    exported = [n for n in module.__all__ if n not in ("CodegenOptions", "CompileOptions",
                                                       "LaunchOptions")]
    assert exported
    for name in exported:
        assert getattr(module, name) is _pyasc_object(name), name


def test_identities():
    assert asc.jit is pyasc.jit
    for name in ("GlobalAddress", "GlobalTensor", "LocalTensor", "TPipe", "TQue", "TBuf",
                 "TPosition", "HardEvent", "data_copy", "add", "set_flag", "wait_flag",
                 "get_block_idx", "float32"):
        assert getattr(asc, name) is getattr(pyasc, name), name
    assert asc.language.fwk.TPipe is pyasc.TPipe
    assert asc.language.basic.data_copy is pyasc.data_copy
    assert asc.language.core.GlobalTensor is pyasc.GlobalTensor
    assert asc.CodegenOptions is options.CodegenOptions
    assert asc.CompileOptions is options.CompileOptions
    assert asc.LaunchOptions is options.LaunchOptions
    assert config.KernelType is options.KernelType
    assert rt.Stream is pyasc.Stream and rt.Memory is pyasc.DeviceBuffer


def test_struct_module_serves_pyascs_struct():
    names = pyasc.language.struct.__all__
    assert asc.language.core.struct.__all__ == names
    for name in names:
        assert getattr(asc.language.core.struct, name) is getattr(pyasc.language.struct, name)


def test_eager_only_functions_are_not_kernel_language():
    from asc._reexport import _is_kernel_language, kernel_language

    # pyasc.round and pyasc.asarray are eager array functions, not Ascend C APIs;
    # pyasc.add is both (kernels resolve it to the vector instruction).
    assert not _is_kernel_language("round", pyasc.round)
    assert not _is_kernel_language("asarray", pyasc.asarray)
    assert _is_kernel_language("add", pyasc.add)
    names = kernel_language()
    assert "round" not in names and "asarray" not in names
    assert names["data_copy"] is pyasc.data_copy and names["half"] is pyasc.float16


def test_adv_holds_only_upstream_adv_names():
    assert set(asc.language.adv.__all__) <= set(_upstream_names.ADV)
    if importlib.util.find_spec("pyasc.language.adv") is None:
        assert asc.language.adv.__all__ == []


def test_top_level_reference_coverage(capsys):
    names = [n for n in _reference("asc-toplevel-names.txt") if n not in UPSTREAM_ARTEFACTS]
    tables = set(_upstream_names.CORE + _upstream_names.FWK + _upstream_names.BASIC)
    # Every reference name is in this package's tables, so none can be dropped.
    assert set(names) - tables == {"CodegenOptions", "CompileOptions", "LaunchOptions", "jit"}
    present = [n for n in names if hasattr(asc, n)]
    missing = [n for n in names if not hasattr(asc, n)]
    with capsys.disabled():
        print(f"\nasc top level: {len(present)} of {len(names)} PyAsc names; missing: "
              f"{' '.join(missing)}")
    for name in ("jit", "GlobalAddress", "GlobalTensor", "LocalTensor", "TPipe", "TQue",
                 "TBuf", "TPosition", "HardEvent", "data_copy", "add", "set_flag",
                 "wait_flag", "get_block_idx", "CodegenOptions", "CompileOptions",
                 "LaunchOptions", "ConstExpr", "float32"):
        assert name in present, name


def test_lib_runtime_reference_names_all_exist():
    names = _reference("asc-lib-runtime-names.txt")
    assert [n for n in names if not hasattr(rt, n)] == []
    assert sorted(rt.__all__) == sorted(names)


def test_runtime_streams_and_devices():
    s = rt.create_stream()
    try:
        assert isinstance(s, pyasc.Stream)
        rt.synchronize(s)
    finally:
        rt.destroy_stream(s)
    rt.destroy_stream(None)
    assert rt.current_stream() == pyasc.current_stream()
    assert rt.current_device() == 0 == rt.default_device()
    assert rt.device_count() == pyasc.device_count()
    props = pyasc.get_device_properties()
    assert rt.device_info(rt.DeviceModuleType.RT_MODULE_TYPE_AICORE,
                          rt.DeviceInfoType.INFO_TYPE_CORE_NUM) == props.cube_core_count
    assert rt.device_info(rt.DeviceModuleType.RT_MODULE_TYPE_VECTOR_CORE,
                          rt.DeviceInfoType.INFO_TYPE_CORE_NUM) == props.ai_core_count
    with pytest.raises(pyasc.UnsupportedError, match="device_info"):
        rt.device_info(rt.DeviceModuleType.RT_MODULE_TYPE_SYSTEM,
                       rt.DeviceInfoType.INFO_TYPE_ENV)
    with pytest.raises(pyasc.InvalidValueError):
        rt.check_device_handle(rt.device_count())
    with pytest.raises(pyasc.InvalidValueError):
        rt.set_device(-1)
    rt.set_device(0)
    rt.synchronize_device()
    rt.reset_device()
    assert rt.is_available() and rt.is_initialized()
    assert rt.current_tick() is None


def test_runtime_synchronize_raises_a_pending_error():
    s = rt.create_stream()
    try:
        pyasc.testing.fail("pending", stream=s)
        with pytest.raises(pyasc.Error, match="pending"):
            rt.synchronize(s)
    finally:
        rt.destroy_stream(s)


def test_runtime_memory_round_trip():
    host = np.arange(64, dtype=np.float32)
    mem = rt.copy_data_to_device(host, host.nbytes)
    try:
        assert isinstance(mem, pyasc.DeviceBuffer) and mem.nbytes >= host.nbytes
        back = np.zeros_like(host)
        rt.copy_data_from_device(back, mem, host.nbytes)
        assert np.array_equal(back, host)
        other = rt.malloc(host.nbytes)
        try:
            rt.memcpy(other, host.nbytes, mem, host.nbytes)
            back[:] = 0
            rt.memcpy(back, back.nbytes, other, host.nbytes)
            assert np.array_equal(back, host)
            with pytest.raises(pyasc.InvalidValueError, match="do not fit"):
                rt.memcpy(other, 4, mem, 8)
            with pytest.raises(pyasc.InvalidValueError, match="> 0"):
                rt.memcpy(other, 0, mem, 8)
        finally:
            rt.free(other)
    finally:
        rt.free(mem)
    with pytest.raises(pyasc.InvalidValueError, match="size must be > 0"):
        rt.malloc(0)
    rt.free_mem()


@pytest.mark.parametrize("call", [
    lambda: rt.register_device_binary_kernel(b"\x7fELF", 0),
    lambda: rt.unregister_device_binary_kernel(None),
    lambda: rt.register_function(None, "k", 0),
    lambda: rt.launch_kernel(None, 1, []),
    lambda: rt.magic_elf_value(rt.CoreType.AiCore),
    lambda: rt.msprof_task_type(rt.CoreType.AiCore),
    lambda: rt.set_pro_switch(rt.ProfilingCommandHandle.Type.START),
    lambda: rt.npu_utils(),
    lambda: rt.c2c_ctrl_addr(),
    lambda: rt.call_print_interface(None, 0, None, "k"),
    lambda: rt.ProfilingCommandHandle(),
])
def test_npu_only_runtime_names_say_why_they_are_unsupported(call):
    with pytest.raises(pyasc.UnsupportedError, match="simulated device"):
        call()


def test_config_backends_and_platforms():
    assert {b.value for b in config.Backend} == {"Model", "NPU"}
    assert len(config.Platform) == 12
    assert config.Platform("Ascend910B4-1") is config.Platform.Ascend910B4_1
    assert len(config.KernelType) == 8
    try:
        config.set_platform("NPU", config.Platform.Ascend910B3, device_id=0)
        assert not rt.is_model() and rt.get_soc_version() is config.Platform.Ascend910B3
        assert rt.current_platform() == "Ascend910B3"
        config.set_platform(config.Backend.Model)
        assert rt.is_model() and rt.get_soc_version() is config.Platform.Ascend910B1
        with pytest.raises(ValueError):
            config.set_platform("GPU")
        with pytest.raises(ValueError):
            config.set_platform("Model", "Ascend310")
        with pytest.raises(pyasc.InvalidValueError):
            config.set_platform("Model", device_id=99)
    finally:
        config.set_platform("Model")
    import pyasc.host as pyasc_host
    assert asc.lib.host.MatmulApiTiling is pyasc_host.MatmulApiTiling
    assert asc.lib.host.get_ascendc_platform is pyasc_host.get_ascendc_platform
    assert asc.adv.TCubeTiling is pyasc.language.adv_tiling.TCubeTiling


def test_upstream_tutorial_example_runs(run_python):
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    result = run_python(os.path.join(root, "examples", "add_asc.py"), "-r", "Model")
    assert result.returncode == 0, result.stderr
    assert "Sample add run success" in result.stdout + result.stderr
