"""Streams: FIFO order, overlap, host functions, current stream, lifetime."""

from __future__ import annotations

import gc
import threading
import time
import weakref

import pytest

import pyasc
from pyasc import testing


def test_fifo_order_on_one_stream(stream_pair):
    s, _ = stream_pair
    order: list[int] = []
    for i in range(6):
        # A long spin before the even steps: if the queue did not keep FIFO
        # order, a later host function would overtake the slow one.
        if i % 2 == 0:
            testing.spin(15 - 2 * i, stream=s)
        s.launch_host_func(lambda i=i: order.append(i))
    s.synchronize()
    assert order == list(range(6))


def test_fifo_order_of_many_host_functions():
    s = pyasc.Stream()
    order: list[int] = []
    for i in range(200):
        s.launch_host_func(lambda i=i: order.append(i))
        if i == 100:
            testing.spin(5, stream=s)
    s.synchronize()
    assert order == list(range(200))
    s.destroy()


def test_work_is_asynchronous(stream_pair):
    s, _ = stream_pair
    done = threading.Event()
    testing.spin(60, stream=s)
    s.launch_host_func(done.set)
    # The launch returned while the spin is still running.
    assert not done.is_set()
    assert s.query() is False
    s.synchronize()
    assert done.is_set()
    assert s.query() is True


def test_two_streams_overlap(stream_pair):
    s1, s2 = stream_pair
    a0, a1, b0, b1 = (pyasc.Event() for _ in range(4))
    a0.record(s1)
    testing.spin(100, stream=s1)
    a1.record(s1)
    b0.record(s2)
    testing.spin(100, stream=s2)
    b1.record(s2)
    a1.synchronize()
    b1.synchronize()
    # Each spin lasted its 100 ms, and the two intervals intersect.
    assert a0.elapsed_time(a1) >= 99
    assert b0.elapsed_time(b1) >= 99
    assert a0.elapsed_time(b0) < a0.elapsed_time(a1)
    assert b0.elapsed_time(a0) < b0.elapsed_time(b1)
    # The proof of overlap does not read a clock (a loaded machine delays
    # any start): each stream's task waits for the other's, which only
    # succeeds when both run at the same time.
    meet = threading.Barrier(2, timeout=10)
    met = []
    for s in (s1, s2):
        s.launch_host_func(lambda: met.append(meet.wait()))
    s1.synchronize()
    s2.synchronize()
    assert sorted(met) == [0, 1]


def test_same_stream_does_not_overlap(stream_pair):
    s, _ = stream_pair
    e0, e1, e2 = pyasc.Event(), pyasc.Event(), pyasc.Event()
    e0.record(s)
    testing.spin(40, stream=s)
    e1.record(s)
    testing.spin(40, stream=s)
    e2.record(s)
    s.synchronize()
    assert e0.elapsed_time(e1) >= 39
    assert e1.elapsed_time(e2) >= 39
    assert e0.elapsed_time(e2) >= 79


def test_multi_block_spin_runs_all_blocks(stream_pair):
    s, _ = stream_pair
    workers = pyasc.get_device_properties().worker_threads
    e0, e1 = pyasc.Event(), pyasc.Event()
    e0.record(s)
    testing.spin(10, blocks=2 * workers + 1, stream=s)
    e1.record(s)
    s.synchronize()
    # Waves of `workers` blocks: at least three waves of 10 ms.
    assert e0.elapsed_time(e1) >= 29


def test_host_func_runs_off_the_calling_thread(stream_pair):
    s, _ = stream_pair
    where = []
    s.launch_host_func(lambda: where.append(threading.get_ident()))
    s.synchronize()
    assert len(where) == 1 and where[0] != threading.get_ident()


def test_host_func_receives_no_arguments_and_result_is_ignored(stream_pair):
    s, _ = stream_pair
    calls = []

    def fn(*args, **kwargs):
        calls.append((args, kwargs))
        return 42

    assert s.launch_host_func(fn) is None
    s.synchronize()
    assert calls == [((), {})]


def test_launch_host_func_needs_a_callable(stream_pair):
    s, _ = stream_pair
    with pytest.raises(TypeError, match="callable"):
        s.launch_host_func(5)


def test_host_func_is_released_after_running(stream_pair):
    s, _ = stream_pair

    class Probe:
        def __call__(self):
            pass

    probe = Probe()
    ref = weakref.ref(probe)
    s.launch_host_func(probe)
    del probe
    s.synchronize()
    gc.collect()
    assert ref() is None


def test_default_stream_identity():
    d = pyasc.default_stream()
    assert d.is_default is True
    assert d == pyasc.default_stream()
    assert hash(d) == hash(pyasc.default_stream())
    assert d.device == 0
    assert d.handle != 0
    assert pyasc.current_stream() == d
    assert "default" in repr(d)
    assert pyasc.default_stream(0) == d


def test_new_streams_are_distinct_and_hashable(stream_pair):
    s1, s2 = stream_pair
    assert s1 != s2 and not (s1 == s2)
    assert s1 == s1
    assert s1 != pyasc.default_stream()
    assert not s1.is_default
    assert len({s1, s2, pyasc.default_stream(), s1}) == 3
    assert s1.handle != s2.handle
    assert (s1 == "stream") is False


def test_stream_device_argument():
    s = pyasc.Stream(0)
    assert s.device == 0
    s.destroy()
    s = pyasc.Stream(device=0)
    s.destroy()
    with pytest.raises(pyasc.InvalidValueError):
        pyasc.Stream(7)
    with pytest.raises(TypeError):
        pyasc.Stream("0")


def test_destroyed_stream_raises_invalid_handle():
    s = pyasc.Stream()
    s.launch_host_func(lambda: None)
    s.destroy()
    assert s.handle == 0
    assert "destroyed" in repr(s)
    calls = [
        s.synchronize,
        s.query,
        s.destroy,
        lambda: s.wait_event(pyasc.Event()),
        lambda: s.record_event(),
        lambda: s.launch_host_func(lambda: None),
        lambda: testing.spin(1, stream=s),
        lambda: pyasc.Event().record(s),
        lambda: pyasc.set_stream(s),
        lambda: pyasc.memory.alloc(16, stream=s),
    ]
    for call in calls:
        with pytest.raises(pyasc.InvalidHandleError) as info:
            call()
        assert isinstance(info.value, ValueError)
        assert "destroyed" in str(info.value)
        assert info.value.status == "ASC_ERR_INVALID_HANDLE"


def test_destroy_waits_for_queued_work():
    s = pyasc.Stream()
    done = []
    testing.spin(30, stream=s)
    s.launch_host_func(lambda: done.append(True))
    s.destroy()
    assert done == [True]


def test_default_stream_cannot_be_destroyed():
    d = pyasc.default_stream()
    with pytest.raises(pyasc.InvalidValueError, match="default stream cannot be destroyed") as info:
        d.destroy()
    assert isinstance(info.value, ValueError)
    # Still usable.
    d.synchronize()
    assert d.query() is True


def test_collected_stream_is_destroyed_and_its_work_completes():
    done = []
    s = pyasc.Stream()
    handle = s.handle
    testing.spin(20, stream=s)
    s.launch_host_func(lambda: done.append(1))
    del s
    gc.collect()
    assert done == [1]
    # The handle is dead: a new Stream gets a different one even if the
    # slot is reused (generation check).
    s2 = pyasc.Stream()
    assert s2.handle != handle
    s2.destroy()


def test_stream_destroy_from_its_own_host_func_is_an_error():
    s = pyasc.Stream()
    outcome = []

    def destroy_self():
        try:
            s.destroy()
        except pyasc.Error as exc:
            outcome.append(exc)
        else:
            outcome.append(None)

    s.launch_host_func(destroy_self)
    s.launch_host_func(lambda: outcome.append("after"))
    # The stream is still usable: its own task could not destroy it.
    s.synchronize()
    assert len(outcome) == 2, outcome
    assert isinstance(outcome[0], pyasc.InvalidValueError), outcome
    assert "own task" in str(outcome[0])
    assert outcome[1] == "after"
    assert s.handle != 0
    testing.spin(1, stream=s)
    s.synchronize()
    s.destroy()
    assert s.handle == 0


def test_stream_can_be_destroyed_from_another_streams_host_func(stream_pair):
    s1, _ = stream_pair
    victim = pyasc.Stream()
    testing.spin(20, stream=victim)
    result = []

    def destroy_other():
        victim.destroy()
        result.append(victim.handle)

    s1.launch_host_func(destroy_other)
    s1.synchronize()
    assert result == [0]


# --- current stream ------------------------------------------------------


def test_with_stream_sets_and_restores(stream_pair):
    s1, s2 = stream_pair
    d = pyasc.default_stream()
    assert pyasc.current_stream() == d
    with pyasc.stream(s1) as entered:
        assert entered is s1
        assert pyasc.current_stream() == s1
        with pyasc.stream(s2):
            assert pyasc.current_stream() == s2
            with pyasc.stream(None) as none:
                assert none is None
                assert pyasc.current_stream() == s2
            assert pyasc.current_stream() == s2
        assert pyasc.current_stream() == s1
    assert pyasc.current_stream() == d


def test_with_stream_restores_on_exception(stream_pair):
    s1, _ = stream_pair
    with pytest.raises(KeyError):
        with pyasc.stream(s1):
            raise KeyError("x")
    assert pyasc.current_stream() == pyasc.default_stream()


def test_work_without_a_stream_goes_to_the_current_stream(stream_pair):
    s1, s2 = stream_pair
    order = []
    with pyasc.stream(s1):
        testing.spin(150)  # on s1
        s1.launch_host_func(lambda: order.append("s1"))
        e = pyasc.Event()
        e.record()  # on s1, behind the spin
    s2.launch_host_func(lambda: order.append("s2"))
    s2.synchronize()
    # s2 did not wait for s1's spin, and the default stream has no work.
    assert order == ["s2"]
    assert pyasc.default_stream().query() is True
    assert s1.query() is False
    assert e.query() is False
    e.synchronize()
    assert order == ["s2", "s1"]


def test_set_stream_directly(stream_pair):
    s1, _ = stream_pair
    pyasc.set_stream(s1)
    try:
        assert pyasc.current_stream() == s1
        assert pyasc.current_stream() is s1
    finally:
        pyasc.set_stream(pyasc.default_stream())
    assert pyasc.current_stream() == pyasc.default_stream()
    with pytest.raises(TypeError):
        pyasc.set_stream(None)
    with pytest.raises(TypeError):
        pyasc.set_stream("s")


def test_current_stream_keeps_the_stream_alive():
    s = pyasc.Stream()
    handle = s.handle
    pyasc.set_stream(s)
    del s
    gc.collect()
    cur = pyasc.current_stream()
    try:
        # The only reference is the thread's current-stream slot: the stream
        # was not collected (and destroyed) behind the runtime's back.
        assert cur.handle == handle
        testing.spin(1)
        cur.synchronize()
    finally:
        pyasc.set_stream(pyasc.default_stream())
    cur.destroy()


def test_current_stream_is_per_thread(stream_pair):
    s1, s2 = stream_pair
    barrier = threading.Barrier(2)
    seen: dict[str, list] = {"a": [], "b": []}
    errors = []

    def worker(name, s):
        try:
            seen[name].append(pyasc.current_stream() == pyasc.default_stream())
            with pyasc.stream(s):
                barrier.wait(timeout=10)
                seen[name].append(pyasc.current_stream() == s)
                barrier.wait(timeout=10)
            seen[name].append(pyasc.current_stream() == pyasc.default_stream())
        except Exception as exc:  # pragma: no cover - reported below
            errors.append(exc)

    with pyasc.stream(s1):
        threads = [threading.Thread(target=worker, args=("a", s1)),
                   threading.Thread(target=worker, args=("b", s2))]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        # The main thread's current stream was not touched by the workers.
        assert pyasc.current_stream() == s1
    assert not errors, errors
    assert seen == {"a": [True, True, True], "b": [True, True, True]}


def test_spin_argument_checks(stream_pair):
    s, _ = stream_pair
    with pytest.raises(pyasc.InvalidValueError, match="ms must be"):
        testing.spin(-1, stream=s)
    with pytest.raises(pyasc.InvalidValueError, match="ms must be"):
        testing.spin(float("nan"), stream=s)
    with pytest.raises(pyasc.InvalidValueError, match="blocks"):
        testing.spin(1, blocks=0, stream=s)
    with pytest.raises(TypeError):
        testing.spin("1", stream=s)
    with pytest.raises(TypeError, match="pyasc.Stream"):
        testing.spin(1, stream=3)


def test_interpreter_exit_with_pending_work(run_python):
    # A script that ends without synchronising, with kernels, host functions
    # and a non-blocking copy (holding a host view) still queued, exits
    # cleanly instead of crashing or hanging in the stream threads.
    code = r"""
import numpy as np
import pyasc
from pyasc import memory, testing
s = pyasc.Stream()
testing.spin(100, stream=s)
s.launch_host_func(lambda: None)
x = np.ones(1000)
b = memory.alloc(x.nbytes)
testing.spin(100)
memory.memcpy(b, x, non_blocking=True)
pyasc.default_stream().launch_host_func(lambda: None)
print("exiting")
"""
    r = run_python("-c", code, timeout=60)
    assert r.returncode == 0, r.stderr[-3000:]
    assert r.stdout.strip() == "exiting"
