"""Devices: count, properties, selection, configuration, synchronisation."""

from __future__ import annotations

import threading

import pytest

import pyasc
from pyasc import testing

KiB = 1024


def test_device_count_is_positive_int():
    n = pyasc.device_count()
    assert isinstance(n, int) and not isinstance(n, bool)
    assert n >= 1


def test_default_device_properties_are_the_910b_sim():
    p = pyasc.get_device_properties()
    assert isinstance(p, pyasc.DeviceProperties)
    assert p.name.startswith("Ascend910B-sim")
    assert p.backend == "cpu"
    assert p.ai_core_count == 48
    assert p.cube_core_count == 24
    assert p.ub_size == 192 * KiB
    assert p.l1_size == 512 * KiB
    assert p.l0a_size == 64 * KiB
    assert p.l0b_size == 64 * KiB
    assert p.l0c_size == 128 * KiB
    assert p.data_block_size == 32
    assert p.global_mem_size > 0
    assert p.worker_threads >= 1
    assert p.host_visible is True


def test_properties_by_index_match_current_and_are_a_struct_sequence():
    p0 = pyasc.get_device_properties(0)
    assert p0 == pyasc.get_device_properties()
    assert p0 == pyasc.get_device_properties(device=0)
    assert p0.__match_args__[:3] == ("name", "backend", "ai_core_count")
    assert len(p0) == 13
    assert p0[0] == p0.name
    with pytest.raises(AttributeError):
        p0.ub_size = 1  # read-only


@pytest.mark.parametrize("bad", [99, -1, 2**70])
def test_get_device_properties_of_missing_device(bad):
    with pytest.raises(pyasc.InvalidValueError) as info:
        pyasc.get_device_properties(bad)
    assert isinstance(info.value, ValueError)
    assert "does not exist" in str(info.value)
    assert info.value.status == "ASC_ERR_INVALID_VALUE"


@pytest.mark.parametrize("bad", ["x", 1.0, True, [0]])
def test_device_arguments_must_be_ints(bad):
    with pytest.raises(TypeError, match="device must be an int"):
        pyasc.get_device_properties(bad)
    with pytest.raises(TypeError, match="device must be an int"):
        pyasc.set_device(bad)


def test_set_device_and_current_device():
    assert pyasc.current_device() == 0
    pyasc.set_device(0)
    assert pyasc.current_device() == 0
    with pytest.raises(pyasc.InvalidValueError, match="device -1 does not exist"):
        pyasc.set_device(-1)
    with pytest.raises(pyasc.InvalidValueError):
        pyasc.set_device(pyasc.device_count())
    assert pyasc.current_device() == 0  # unchanged by the failures


def test_set_device_type_error_is_not_a_pyasc_error():
    with pytest.raises(TypeError) as info:
        pyasc.set_device("x")
    assert not isinstance(info.value, pyasc.Error)


def test_current_device_is_per_thread_default_zero():
    seen = []
    t = threading.Thread(target=lambda: seen.append(pyasc.current_device()))
    t.start()
    t.join()
    assert seen == [0]


def test_synchronize_waits_for_queued_work():
    s = pyasc.Stream()
    done = []
    testing.spin(30, stream=s)
    s.launch_host_func(lambda: done.append(1))
    assert s.query() is False
    pyasc.synchronize()
    assert done == [1]
    assert s.query() is True
    pyasc.synchronize(0)
    pyasc.synchronize(device=0)
    with pytest.raises(pyasc.InvalidValueError):
        pyasc.synchronize(5)
    s.destroy()


@pytest.fixture
def restore_props():
    saved = pyasc.get_device_properties()
    yield saved
    keys = ("ai_core_count", "cube_core_count", "worker_threads", "ub_size", "l1_size",
            "l0a_size", "l0b_size", "l0c_size", "global_mem_size")
    pyasc.configure_device(0, **{k: getattr(saved, k) for k in keys})
    assert pyasc.get_device_properties() == saved


def test_configure_device_changes_and_returns_properties(restore_props):
    out = pyasc.configure_device(ub_size=256 * KiB, ai_core_count=8)
    assert out.ub_size == 256 * KiB and out.ai_core_count == 8
    p = pyasc.get_device_properties()
    assert p.ub_size == 256 * KiB and p.ai_core_count == 8
    # Unmentioned fields, and the identity fields, keep their values.
    assert p.l1_size == restore_props.l1_size
    assert p.name == restore_props.name and p.backend == "cpu"
    out = pyasc.configure_device(0, l1_size=1024 * KiB)
    assert out.l1_size == 1024 * KiB and out.ub_size == 256 * KiB


def test_configure_device_accepts_device_keyword(restore_props):
    out = pyasc.configure_device(device=0, cube_core_count=12)
    assert out.cube_core_count == 12
    assert pyasc.get_device_properties(0).cube_core_count == 12


@pytest.mark.parametrize(
    "props, text",
    [
        ({"ub_size": 100}, "ub_size"),
        ({"ub_size": 0}, "ub_size"),
        ({"l0c_size": 2**31}, "l0c_size"),
        ({"ai_core_count": 0}, "ai_core_count"),
        ({"worker_threads": 5000}, "worker_threads"),
        ({"ai_core_count": -3}, "ai_core_count"),
        ({"ai_core_count": 2**40}, "ai_core_count"),
    ],
)
def test_configure_device_rejects_bad_values(restore_props, props, text):
    with pytest.raises(pyasc.InvalidValueError, match=text) as info:
        pyasc.configure_device(**props)
    assert isinstance(info.value, ValueError)
    assert info.value.status == "ASC_ERR_INVALID_VALUE"
    assert pyasc.get_device_properties() == restore_props  # nothing applied


def test_configure_device_is_all_or_nothing(restore_props):
    with pytest.raises(pyasc.InvalidValueError):
        pyasc.configure_device(ai_core_count=4, ub_size=100)
    assert pyasc.get_device_properties() == restore_props


@pytest.mark.parametrize(
    "props, text",
    [
        ({"bogus": 1}, "unexpected keyword argument 'bogus'"),
        ({"name": "x"}, "unexpected keyword argument 'name'"),
        ({"ub_size": "big"}, "ub_size must be an int"),
        ({"ub_size": 1.5}, "ub_size must be an int"),
        ({"ai_core_count": True}, "ai_core_count must be an int"),
    ],
)
def test_configure_device_type_errors(restore_props, props, text):
    with pytest.raises(TypeError, match=text):
        pyasc.configure_device(**props)
    assert pyasc.get_device_properties() == restore_props


def test_configured_properties_reach_kernels(restore_props):
    # A launch with more blocks than worker threads still runs every block.
    pyasc.configure_device(worker_threads=1)
    s = pyasc.Stream()
    e0, e1 = pyasc.Event(), pyasc.Event()
    e0.record(s)
    testing.spin(10, blocks=3, stream=s)
    e1.record(s)
    s.synchronize()
    # One worker thread: three 10 ms blocks run one after another.
    assert e0.elapsed_time(e1) >= 29
    s.destroy()


def test_multiple_devices_via_environment(run_python):
    code = r"""
import pyasc
from pyasc import memory
assert pyasc.device_count() == 3, pyasc.device_count()
assert pyasc.get_device_properties(2).name == "Ascend910B-sim:2"
assert pyasc.get_device_properties(1).ub_size == 64 * 1024
pyasc.set_device(2)
assert pyasc.current_device() == 2
s = pyasc.Stream()
assert s.device == 2
assert pyasc.current_stream().device == 2
b = memory.alloc(100)
assert b.device == 2
assert memory.memory_stats(2)["active_blocks"] == 1
assert memory.memory_stats(0)["active_blocks"] == 0
try:
    memory.alloc(10, device=0, stream=s)
except pyasc.InvalidValueError as e:
    assert "belongs to device 2" in str(e), e
else:
    raise AssertionError("alloc on a foreign stream did not fail")
b.free()
s.destroy()
print("OK")
"""
    r = run_python("-c", code, env_extra={"PYASC_CPU_DEVICES": "3", "PYASC_CPU_UB_SIZE": "64K"})
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == "OK"


def test_bad_environment_surfaces_as_error_on_use(run_python):
    code = r"""
import pyasc
from pyasc import _C
assert _C.init_error and "PYASC_CPU_UB_SIZE" in _C.init_error, _C.init_error
try:
    pyasc.device_count()
except pyasc.InvalidValueError as e:
    print("raised", e)
"""
    r = run_python("-c", code, env_extra={"PYASC_CPU_UB_SIZE": "lots"})
    assert r.returncode == 0, r.stderr
    assert "raised" in r.stdout and "PYASC_CPU_UB_SIZE" in r.stdout
