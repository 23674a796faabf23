"""Events: recording, timing, querying, and ordering work across streams."""

from __future__ import annotations

import gc
import threading

import pytest

import pyasc
from pyasc import testing


def test_elapsed_time_around_a_spin(stream_pair):
    s, _ = stream_pair
    start, end = pyasc.Event(), pyasc.Event(enable_timing=True)
    start.record(s)
    testing.spin(30, stream=s)
    end.record(s)
    end.synchronize()
    ms = start.elapsed_time(end)
    assert isinstance(ms, float)
    assert 29 <= ms < 300, ms
    # Reversed order gives the negative interval.
    assert end.elapsed_time(start) == pytest.approx(-ms)


def test_elapsed_time_on_the_current_stream():
    start, end = pyasc.Event(), pyasc.Event()
    start.record()
    testing.spin(20)
    end.record()
    pyasc.default_stream().synchronize()
    assert 19 <= start.elapsed_time(end) < 300


def test_query_and_synchronize(stream_pair):
    s, _ = stream_pair
    e = pyasc.Event()
    assert e.query() is True  # never recorded: nothing to wait for
    e.synchronize()  # returns at once
    testing.spin(80, stream=s)
    e.record(s)
    assert e.query() is False
    e.synchronize()
    assert e.query() is True
    assert s.query() is True


def test_rerecord_moves_the_event(stream_pair):
    s, _ = stream_pair
    start, end = pyasc.Event(), pyasc.Event()
    start.record(s)
    end.record(s)
    s.synchronize()
    assert start.elapsed_time(end) < 29
    # Recording again replaces the earlier point.
    start.record(s)
    testing.spin(30, stream=s)
    end.record(s)
    end.synchronize()
    assert 29 <= start.elapsed_time(end) < 300


def test_record_event_returns_a_new_recorded_event(stream_pair):
    s, _ = stream_pair
    testing.spin(50, stream=s)
    e = s.record_event()
    assert isinstance(e, pyasc.Event)
    assert e.query() is False
    mine = pyasc.Event()
    assert s.record_event(mine) is mine
    assert s.record_event(event=None) is not mine
    mine.synchronize()
    assert e.query() is True


def test_cross_stream_wait_orders_work(stream_pair):
    a, b = stream_pair
    log: list[str] = []
    testing.spin(50, stream=a)
    a.launch_host_func(lambda: log.append("a"))
    e = pyasc.Event()
    e.record(a)
    e.wait(b)
    b.launch_host_func(lambda: log.append("b saw " + ",".join(log)))
    b.synchronize()
    assert log == ["a", "b saw a"]


def test_cross_stream_wait_event_method(stream_pair):
    a, b = stream_pair
    log: list[str] = []
    testing.spin(50, stream=a)
    a.launch_host_func(lambda: log.append("a"))
    b.wait_event(a.record_event())
    b.launch_host_func(lambda: log.append("b saw " + ",".join(log)))
    b.synchronize()
    assert log == ["a", "b saw a"]
    # b waited for a, so a's work is done when b's is.
    assert a.query() is True


def test_without_a_wait_streams_do_not_order(stream_pair):
    # The control for the two tests above: without the wait, b runs first.
    a, b = stream_pair
    log: list[str] = []
    testing.spin(100, stream=a)
    a.launch_host_func(lambda: log.append("a"))
    b.launch_host_func(lambda: log.append("b"))
    b.synchronize()
    assert log == ["b"]
    a.synchronize()
    assert log == ["b", "a"]


def test_wait_defaults_to_the_current_stream(stream_pair):
    a, b = stream_pair
    log: list[str] = []
    testing.spin(50, stream=a)
    a.launch_host_func(lambda: log.append("a"))
    e = a.record_event()
    with pyasc.stream(b):
        e.wait()
    b.launch_host_func(lambda: log.append("b"))
    b.synchronize()
    assert log == ["a", "b"]


def test_wait_on_unrecorded_event_is_a_no_op(stream_pair):
    a, _ = stream_pair
    a.wait_event(pyasc.Event())
    a.synchronize()


def test_wait_captures_the_record_point_at_call_time(stream_pair):
    a, b = stream_pair
    log: list[str] = []
    e = pyasc.Event()
    e.record(a)  # a is idle here
    b.wait_event(e)
    testing.spin(100, stream=a)  # queued after the recorded point
    e.record(a)  # re-recorded later: must not affect b's earlier wait
    b.launch_host_func(lambda: log.append("b"))
    b.synchronize()
    assert log == ["b"]
    assert a.query() is False


def test_elapsed_time_on_unrecorded_event():
    a, b = pyasc.Event(), pyasc.Event()
    b.record()
    b.synchronize()
    with pytest.raises(pyasc.InvalidValueError, match="never recorded") as info:
        a.elapsed_time(b)
    assert isinstance(info.value, ValueError)
    assert info.value.status == "ASC_ERR_INVALID_VALUE"
    with pytest.raises(pyasc.InvalidValueError, match="end event was never recorded"):
        b.elapsed_time(a)


def test_elapsed_time_on_pending_event(stream_pair):
    s, _ = stream_pair
    start, end = pyasc.Event(), pyasc.Event()
    start.record(s)
    testing.spin(80, stream=s)
    end.record(s)
    with pytest.raises(pyasc.InvalidValueError, match="not completed"):
        start.elapsed_time(end)
    end.synchronize()
    assert start.elapsed_time(end) >= 79


def test_elapsed_time_needs_an_event():
    e = pyasc.Event()
    with pytest.raises(TypeError, match="pyasc.Event"):
        e.elapsed_time(3)
    with pytest.raises(TypeError, match="pyasc.Event"):
        pyasc.default_stream().wait_event("e")


def test_destroyed_event_raises_invalid_handle(stream_pair):
    s, _ = stream_pair
    e = pyasc.Event()
    e.record(s)
    e.destroy()
    assert "destroyed" in repr(e)
    other = pyasc.Event()
    other.record(s)
    s.synchronize()
    calls = [
        e.record,
        e.synchronize,
        e.query,
        e.destroy,
        e.wait,
        lambda: e.elapsed_time(other),
        lambda: other.elapsed_time(e),
        lambda: s.wait_event(e),
        lambda: s.record_event(e),
    ]
    for call in calls:
        with pytest.raises(pyasc.InvalidHandleError, match="destroyed") as info:
            call()
        assert isinstance(info.value, ValueError)
        assert info.value.status == "ASC_ERR_INVALID_HANDLE"


def test_event_destroyed_while_pending_is_safe(stream_pair):
    s, _ = stream_pair
    e = pyasc.Event()
    testing.spin(30, stream=s)
    e.record(s)
    e.destroy()  # the marker still in the queue must not touch freed memory
    s.synchronize()


def test_collected_event_while_pending_is_safe(stream_pair):
    a, b = stream_pair
    testing.spin(30, stream=a)
    b.wait_event(a.record_event())  # the event object is dropped at once
    gc.collect()
    log = []
    b.launch_host_func(lambda: log.append(a.query()))
    b.synchronize()
    assert log == [True]


def test_events_outlive_their_stream():
    s = pyasc.Stream()
    e0, e1 = pyasc.Event(), pyasc.Event()
    e0.record(s)
    testing.spin(30, stream=s)
    e1.record(s)
    s.destroy()  # drains: both markers ran
    assert e1.query() is True
    assert 29 <= e0.elapsed_time(e1) < 300
    e1.synchronize()


def test_event_repr_and_init():
    e = pyasc.Event()
    assert repr(e).startswith("<pyasc.Event handle=0x")
    assert "%" not in repr(e)
    with pytest.raises(TypeError):
        pyasc.Event(foo=1)


def test_event_synchronize_from_another_thread(stream_pair):
    s, _ = stream_pair
    e = pyasc.Event()
    testing.spin(50, stream=s)
    e.record(s)
    seen = []
    t = threading.Thread(target=lambda: (e.synchronize(), seen.append(s.query())))
    t.start()
    t.join(10)
    assert seen == [True]
