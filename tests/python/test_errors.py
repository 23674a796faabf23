"""The error model: the exception hierarchy, `.status`, deferred device errors."""

from __future__ import annotations

import numpy as np
import pytest

import pyasc
from pyasc import memory, testing

HIERARCHY = [
    # (class, status, builtin it also derives from, pyasc parent besides Error)
    (pyasc.InvalidValueError, "ASC_ERR_INVALID_VALUE", ValueError, None),
    (pyasc.InvalidHandleError, "ASC_ERR_INVALID_HANDLE", ValueError, None),
    (pyasc.OutOfMemoryError, "ASC_ERR_OUT_OF_MEMORY", MemoryError, None),
    (pyasc.DeviceError, "ASC_ERR_DEVICE", RuntimeError, None),
    (pyasc.KernelError, "ASC_ERR_KERNEL", RuntimeError, pyasc.DeviceError),
    (pyasc.DTypeError, "ASC_ERR_TYPE", TypeError, None),
    (pyasc.IndexOutOfRangeError, "ASC_ERR_INDEX", IndexError, None),
    (pyasc.UnsupportedError, "ASC_ERR_UNSUPPORTED", RuntimeError, None),
    (pyasc.CompileError, "ASC_ERR_COMPILE", None, None),
    (pyasc.InternalError, "ASC_ERR_INTERNAL", RuntimeError, None),
]


@pytest.mark.parametrize("cls, status, builtin, parent", HIERARCHY, ids=lambda v: getattr(v, "__name__", v))
def test_exception_hierarchy(cls, status, builtin, parent):
    assert issubclass(cls, pyasc.Error)
    assert issubclass(cls, Exception)
    assert cls.__module__ == "pyasc"
    assert cls.__doc__
    if builtin is not None:
        assert issubclass(cls, builtin)
    if parent is not None:
        assert issubclass(cls, parent)
    # Exactly the documented builtin: no accidental extra ones.
    builtins = {ValueError, MemoryError, RuntimeError, TypeError, IndexError}
    expected = {builtin} if builtin else set()
    assert {b for b in builtins if issubclass(cls, b)} == expected
    assert getattr(pyasc, cls.__name__) is cls
    assert cls.__name__ in pyasc.__all__


def test_error_root():
    assert issubclass(pyasc.Error, Exception)
    assert not issubclass(pyasc.Error, (ValueError, RuntimeError))
    assert pyasc.Error.__module__ == "pyasc"


def test_raised_errors_carry_status_and_message():
    cases = [
        (lambda: pyasc.get_device_properties(99), pyasc.InvalidValueError, "ASC_ERR_INVALID_VALUE",
         "device 99 does not exist"),
        (lambda: memory.alloc(2**62), pyasc.OutOfMemoryError, "ASC_ERR_OUT_OF_MEMORY",
         "out of memory"),
        (lambda: pyasc.default_stream().destroy(), pyasc.InvalidValueError,
         "ASC_ERR_INVALID_VALUE", "default stream"),
    ]
    for call, cls, status, text in cases:
        with pytest.raises(cls) as info:
            call()
        exc = info.value
        assert type(exc) is cls
        assert exc.status == status
        assert text in str(exc)
        assert exc.args and exc.args[0] == str(exc)


def test_invalid_value_cases():
    cases = [
        lambda: pyasc.set_device(-1),
        lambda: pyasc.get_device_properties(99),
        lambda: pyasc.synchronize(99),
        lambda: pyasc.Stream(99),
        lambda: pyasc.default_stream(99),
        lambda: pyasc.current_stream(99),
        lambda: memory.alloc(-1),
        lambda: memory.set_memory_limit(-5),
        lambda: pyasc.configure_device(ub_size=100),
        lambda: pyasc.default_stream().destroy(),
        lambda: pyasc.Event().elapsed_time(pyasc.Event()),
        lambda: testing.spin(-5),
    ]
    for call in cases:
        with pytest.raises(pyasc.InvalidValueError) as info:
            call()
        assert isinstance(info.value, ValueError)
        assert info.value.status == "ASC_ERR_INVALID_VALUE"
        assert len(str(info.value)) > 10


def test_type_errors_are_plain_type_errors():
    cases = [
        lambda: pyasc.set_device("x"),
        lambda: memory.alloc("x"),
        lambda: pyasc.configure_device(bogus=1),
        lambda: memory.memcpy(b"read-only", memory.alloc(4)),
        lambda: pyasc.Stream().wait_event(None),
        lambda: testing.fail(3),
    ]
    for call in cases:
        with pytest.raises(TypeError) as info:
            call()
        assert not isinstance(info.value, pyasc.Error)
        assert str(info.value)


# --- deferred errors ---------------------------------------------------------


def test_failure_surfaces_at_next_synchronize_and_skips_later_work(stream_pair):
    s, _ = stream_pair
    ran = []
    s.launch_host_func(lambda: ran.append("before"))
    testing.fail("boom", stream=s)
    s.launch_host_func(lambda: ran.append("after"))
    testing.spin(1, stream=s)
    # Enqueueing itself does not raise.
    with pytest.raises(pyasc.DeviceError) as info:
        s.synchronize()
    exc = info.value
    assert type(exc) is pyasc.DeviceError
    assert isinstance(exc, RuntimeError)
    assert exc.status == "ASC_ERR_DEVICE"
    assert "boom" in str(exc)
    assert "2 later tasks skipped" in str(exc)
    assert ran == ["before"]
    # Reported once: the next synchronisation is clean and the stream works.
    s.synchronize()
    s.launch_host_func(lambda: ran.append("later"))
    s.synchronize()
    assert ran == ["before", "later"]


def test_failure_on_default_stream_reported_by_device_synchronize():
    testing.fail("boom")
    with pytest.raises(pyasc.DeviceError, match="boom"):
        pyasc.synchronize()
    pyasc.synchronize()  # clean now


def test_other_streams_are_unaffected(stream_pair):
    bad, good = stream_pair
    ran = []
    testing.fail("boom", stream=bad)
    good.launch_host_func(lambda: ran.append("good"))
    testing.spin(5, stream=good)
    good.synchronize()
    assert ran == ["good"]
    with pytest.raises(pyasc.DeviceError, match="boom"):
        bad.synchronize()
    bad.synchronize()


def test_kernel_failure_is_a_kernel_error(stream_pair):
    s, _ = stream_pair
    testing.fail("kernel went wrong", stream=s, kernel=True)
    with pytest.raises(pyasc.KernelError) as info:
        s.synchronize()
    exc = info.value
    assert isinstance(exc, pyasc.DeviceError) and isinstance(exc, RuntimeError)
    assert exc.status == "ASC_ERR_KERNEL"
    assert "kernel went wrong" in str(exc)
    s.synchronize()


def test_only_the_first_failure_is_reported(stream_pair):
    s, _ = stream_pair
    testing.fail("first", stream=s)
    testing.fail("second", stream=s, kernel=True)
    with pytest.raises(pyasc.DeviceError) as info:
        s.synchronize()
    assert type(info.value) is pyasc.DeviceError
    assert "first" in str(info.value) and "second" not in str(info.value)
    s.synchronize()


def test_failed_host_function_becomes_device_error(stream_pair):
    s, _ = stream_pair
    ran = []

    def bad():
        raise ValueError("not a good value")

    s.launch_host_func(bad)
    s.launch_host_func(lambda: ran.append("skipped?"))
    with pytest.raises(pyasc.DeviceError) as info:
        s.synchronize()
    text = str(info.value)
    assert "ValueError" in text and "not a good value" in text
    assert info.value.status == "ASC_ERR_DEVICE"
    assert ran == []
    s.synchronize()


def test_error_waits_for_event_synchronize_not_event(stream_pair):
    s, _ = stream_pair
    testing.fail("boom", stream=s)
    e = s.record_event()
    e.synchronize()  # markers still run after a failure; events report no errors
    assert e.query() is True
    with pytest.raises(pyasc.DeviceError, match="boom"):
        s.synchronize()


def test_timing_still_works_after_a_failure(stream_pair):
    s, _ = stream_pair
    testing.fail("boom", stream=s)
    start, end = s.record_event(), pyasc.Event()
    testing.spin(20, stream=s)  # skipped
    end.record(s)
    end.synchronize()
    assert 0 <= start.elapsed_time(end) < 19
    with pytest.raises(pyasc.DeviceError):
        s.synchronize()


def test_blocking_copy_reports_pending_error_of_current_stream():
    buf = memory.alloc(8)
    testing.fail("boom before copy")
    out = np.zeros(8, np.uint8)
    with pytest.raises(pyasc.DeviceError, match="boom before copy"):
        memory.memcpy(out, buf)
    memory.memcpy(out, buf)  # reported once
    buf.free()


def test_fail_argument_checks():
    with pytest.raises(TypeError):
        testing.fail(b"bytes")
    with pytest.raises(TypeError):
        testing.fail()


def test_error_message_with_non_ascii_text(stream_pair):
    s, _ = stream_pair
    testing.fail("défaillance ✗", stream=s)
    with pytest.raises(pyasc.DeviceError, match="défaillance ✗"):
        s.synchronize()


def test_long_error_message_is_truncated_not_overflowing(stream_pair):
    s, _ = stream_pair
    testing.fail("x" * 5000, stream=s)
    with pytest.raises(pyasc.DeviceError) as info:
        s.synchronize()
    assert 100 < len(str(info.value)) < 2000
