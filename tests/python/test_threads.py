"""Many Python threads using the runtime at once: no crash, no leak, right data."""

from __future__ import annotations

import gc
import queue
import random
import threading
import time

import numpy as np

import pyasc
from pyasc import memory, testing

THREADS = 8
SECONDS = 3.0


def test_hammer_runtime_from_many_threads():
    gc.collect()
    base = memory.memory_stats()
    shared_streams = [pyasc.Stream() for _ in range(3)]
    handoff: queue.Queue = queue.Queue()  # buffers freed by another thread
    errors: list[BaseException] = []
    counts = {"host_funcs_queued": 0, "ops": 0}
    host_funcs_run = []  # list.append is atomic under the GIL
    lock = threading.Lock()
    stop_at = time.monotonic() + SECONDS
    start = threading.Barrier(THREADS)

    def check_roundtrip(rng, stream):
        n = int(rng.integers(0, 64 * 1024))
        src = rng.integers(0, 256, n, dtype=np.uint8)
        buf = memory.alloc(n, stream=stream)
        if rng.random() < 0.5:
            memory.memcpy(buf, src, stream=stream, non_blocking=True)
            del src  # the copy keeps it alive
            src = None
        else:
            memory.memcpy(buf, src, stream=stream)
        out = np.empty(n, np.uint8)
        memory.memcpy(out, buf, stream=stream)  # blocking: ordered after the H2D
        if src is not None:
            assert np.array_equal(out, src)
        buf2 = memory.alloc(n, stream=stream)
        memory.memcpy(buf2, buf, stream=stream, non_blocking=True)  # D2D
        if n:
            memory.memset(buf2, 7, 1, stream=stream, non_blocking=True)
        back = np.empty(n, np.uint8)
        memory.memcpy(back, buf2, stream=stream)
        if n:
            assert back[0] == 7 and np.array_equal(back[1:], out[1:])
        buf.free()
        if rng.random() < 0.5:
            handoff.put(buf2)  # someone else frees it
        else:
            buf2.free()

    def worker(seed):
        rng = np.random.default_rng(seed)
        prng = random.Random(seed)
        try:
            start.wait(timeout=30)
            own = pyasc.Stream()
            while time.monotonic() < stop_at:
                op = prng.randrange(8)
                stream = prng.choice([own, None, *shared_streams])
                if op <= 2:
                    if stream is None:
                        check_roundtrip(rng, None)
                    else:
                        with pyasc.stream(stream):
                            assert pyasc.current_stream() == stream
                            check_roundtrip(rng, stream)
                elif op == 3:
                    testing.spin(0.2, blocks=prng.randint(1, 3), stream=stream)
                    target = stream or pyasc.current_stream()
                    target.launch_host_func(lambda: host_funcs_run.append(1))
                    with lock:
                        counts["host_funcs_queued"] += 1
                elif op == 4:
                    other = prng.choice(shared_streams)
                    e = pyasc.Event()
                    e.record(own)
                    other.wait_event(e)
                    e2 = other.record_event()
                    own.wait_event(e2)
                    if prng.random() < 0.3:
                        e2.synchronize()
                        assert e2.query() is True
                elif op == 5:
                    s = pyasc.Stream()
                    testing.spin(0.1, stream=s)
                    marks = []
                    s.launch_host_func(lambda: marks.append(1))
                    if prng.random() < 0.5:
                        s.destroy()
                    else:
                        s.synchronize()
                        del s
                    assert marks == [1]
                elif op == 6:
                    try:
                        buf = handoff.get_nowait()
                    except queue.Empty:
                        pass
                    else:
                        buf.free()
                    if prng.random() < 0.1:
                        memory.empty_cache()
                    stats = memory.memory_stats()
                    assert stats["reserved_bytes"] >= stats["allocated_bytes"] >= stats[
                        "requested_bytes"
                    ]
                else:
                    with memory.alloc(prng.randint(1, 4096), stream=own) as b:
                        view = np.frombuffer(b, np.uint8)
                        view[:] = 3
                        own.synchronize()
                        assert (view == 3).all()
                        del view
                    if prng.random() < 0.2:
                        pyasc.synchronize()
                with lock:
                    counts["ops"] += 1
            own.synchronize()
            own.destroy()
        except BaseException as exc:  # noqa: BLE001 - reported by the main thread
            errors.append(exc)

    threads = [threading.Thread(target=worker, args=(i,), name=f"hammer-{i}") for i in range(THREADS)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=SECONDS + 60)
    assert not any(t.is_alive() for t in threads), "a worker hung"
    assert not errors, repr(errors[:3])
    while not handoff.empty():
        handoff.get_nowait().free()
    pyasc.synchronize()
    for s in shared_streams:
        s.destroy()
    assert counts["ops"] > 8 * THREADS
    assert len(host_funcs_run) == counts["host_funcs_queued"]
    gc.collect()
    after = memory.memory_stats()
    assert after["allocated_bytes"] == base["allocated_bytes"]
    assert after["requested_bytes"] == base["requested_bytes"]
    assert after["active_blocks"] == base["active_blocks"]
    assert after["alloc_count"] - base["alloc_count"] == after["free_count"] - base["free_count"]
    assert after["alloc_count"] > base["alloc_count"]


def test_concurrent_synchronize_of_one_stream():
    s = pyasc.Stream()
    done = []
    testing.spin(50, stream=s)
    s.launch_host_func(lambda: done.append(1))
    seen = []

    def sync():
        s.synchronize()
        seen.append(list(done))

    threads = [threading.Thread(target=sync) for _ in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(10)
    assert seen == [[1]] * 6
    s.destroy()


def test_concurrent_failure_is_reported_once():
    s = pyasc.Stream()
    testing.spin(30, stream=s)
    testing.fail("once", stream=s)
    raised = []

    def sync():
        try:
            s.synchronize()
        except pyasc.DeviceError as exc:
            raised.append(str(exc))

    threads = [threading.Thread(target=sync) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(10)
    assert len(raised) == 1 and "once" in raised[0]
    s.destroy()


def test_host_funcs_from_many_threads_keep_per_thread_order():
    s = pyasc.Stream()
    log: list[tuple[int, int]] = []

    def producer(tid):
        for i in range(100):
            s.launch_host_func(lambda i=i: log.append((tid, i)))

    threads = [threading.Thread(target=producer, args=(t,)) for t in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    s.synchronize()
    assert len(log) == 400
    for tid in range(4):
        assert [i for t, i in log if t == tid] == list(range(100))
    s.destroy()


def test_stream_collected_in_another_thread():
    # The last reference to a busy stream dies in a worker thread: the stream
    # drains there and its host functions (which need the GIL) still run.
    results = []
    holder = [pyasc.Stream()]
    testing.spin(20, stream=holder[0])
    holder[0].launch_host_func(lambda: results.append("ran"))

    def drop():
        holder.clear()
        gc.collect()

    t = threading.Thread(target=drop)
    t.start()
    t.join(10)
    assert not t.is_alive()
    assert results == ["ran"]
