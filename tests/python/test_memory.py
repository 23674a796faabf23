"""Device memory: the caching allocator, DeviceBuffer, copies, fills, stats."""

from __future__ import annotations

import gc
import sys
import time

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import pyasc
from pyasc import memory, testing

KiB = 1024
MiB = 1024 * KiB

STAT_KEYS = {
    "allocated_bytes", "requested_bytes", "reserved_bytes", "peak_allocated_bytes",
    "peak_reserved_bytes", "active_blocks", "cached_blocks", "alloc_count", "free_count",
    "cache_hits", "cache_misses", "backend_allocs", "backend_frees", "oom_count", "limit_bytes",
    "caching_enabled",
}


def class_size(n: int) -> int:
    """The allocator's size class for an n-byte request (see mem_cache.c)."""
    if n <= 64:
        return 64
    octave = (n - 1).bit_length() - 1
    step = 1 << (octave - 2)
    return -(-n // step) * step


def delta(before: dict, after: dict) -> dict:
    return {k: after[k] - before[k] for k in before if not isinstance(before[k], bool)}


# --- DeviceBuffer ----------------------------------------------------------


def test_alloc_returns_a_device_buffer():
    before = memory.memory_stats()
    buf = memory.alloc(1000)
    assert isinstance(buf, pyasc.DeviceBuffer) and isinstance(buf, memory.DeviceBuffer)
    assert buf.nbytes == 1000 and len(buf) == 1000
    assert buf.device == 0
    assert buf.freed is False
    assert isinstance(buf.ptr, int) and buf.ptr % 64 == 0 and buf.ptr != 0
    assert "nbytes=1000" in repr(buf)
    d = delta(before, memory.memory_stats())
    assert d["allocated_bytes"] == class_size(1000) == 1024
    assert d["requested_bytes"] == 1000
    assert d["active_blocks"] == 1
    assert d["alloc_count"] == 1
    buf.free()
    assert buf.freed is True
    assert "freed" in repr(buf)
    d = delta(before, memory.memory_stats())
    assert d["allocated_bytes"] == 0 and d["requested_bytes"] == 0 and d["active_blocks"] == 0
    assert d["free_count"] == 1


def test_free_is_idempotent_and_freed_buffer_raises():
    buf = memory.alloc(64)
    buf.free()
    buf.free()  # no error, no double free
    assert memory.memory_stats()["free_count"] >= 1
    host = np.zeros(64, np.uint8)
    calls = [
        lambda: buf.ptr,
        lambda: memory.memcpy(buf, host),
        lambda: memory.memcpy(host, buf),
        lambda: memory.memset(buf, 0),
        lambda: buf.record_stream(pyasc.default_stream()),
        lambda: np.frombuffer(buf, np.uint8),
        lambda: memoryview(buf),
    ]
    for call in calls:
        with pytest.raises(pyasc.InvalidHandleError, match="freed") as info:
            call()
        assert isinstance(info.value, ValueError)
        assert info.value.status == "ASC_ERR_INVALID_HANDLE"
    # Properties that need no memory still work.
    assert buf.nbytes == 64 and buf.device == 0 and len(buf) == 64


def test_context_manager_frees_on_exit():
    before = memory.memory_stats()["active_blocks"]
    with memory.alloc(256) as buf:
        assert memory.memory_stats()["active_blocks"] == before + 1
        memory.memset(buf, 7)
    assert buf.freed
    assert memory.memory_stats()["active_blocks"] == before
    with pytest.raises(RuntimeError):
        with memory.alloc(256) as buf2:
            raise RuntimeError("inside")
    assert buf2.freed


def test_collected_buffer_is_freed():
    before = memory.memory_stats()
    buf = memory.alloc(4096)
    del buf
    gc.collect()
    d = delta(before, memory.memory_stats())
    assert d["active_blocks"] == 0 and d["free_count"] == 1


def test_zero_byte_allocation():
    buf = memory.alloc(0)
    assert buf.nbytes == 0 and len(buf) == 0
    assert memory.memory_stats()["allocated_bytes"] >= 64
    memory.memcpy(buf, np.zeros(0, np.uint8))
    memory.memcpy(np.zeros(0, np.uint8), buf)
    memory.memset(buf, 1)
    assert np.frombuffer(buf, np.uint8).size == 0
    buf.free()


def test_live_buffers_do_not_overlap():
    bufs = [memory.alloc(n) for n in (1, 64, 65, 100, 1000, 4096, 5000)]
    spans = sorted((b.ptr, b.ptr + b.nbytes) for b in bufs)
    for (_, end), (start, _) in zip(spans, spans[1:]):
        assert end <= start
    for b in bufs:
        b.free()


@pytest.mark.parametrize(
    "arg, exc, text",
    [
        (-1, pyasc.InvalidValueError, "nbytes must be in"),
        (2**64, pyasc.InvalidValueError, "nbytes must be in"),
        ("x", TypeError, "nbytes must be an int"),
        (1.5, TypeError, "nbytes must be an int"),
        (None, TypeError, "nbytes must be an int"),
    ],
)
def test_alloc_argument_errors(arg, exc, text):
    with pytest.raises(exc, match=text) as info:
        memory.alloc(arg)
    if issubclass(exc, pyasc.Error):
        assert isinstance(info.value, ValueError)
        assert info.value.status == "ASC_ERR_INVALID_VALUE"
    else:
        assert not isinstance(info.value, pyasc.Error)


def test_alloc_device_and_stream_arguments():
    with pytest.raises(pyasc.InvalidValueError, match="does not exist"):
        memory.alloc(16, device=3)
    with pytest.raises(TypeError):
        memory.alloc(16, stream="s")
    with pytest.raises(TypeError):
        memory.alloc()
    with pytest.raises(TypeError, match="unexpected keyword"):
        memory.alloc(16, size=3)
    s = pyasc.Stream()
    buf = memory.alloc(16, device=0, stream=s)
    buf.free()
    s.destroy()


@pytest.mark.parametrize("nbytes", [2**62, 2**62 + 1, 2**63 - 1])
def test_alloc_beyond_any_device_is_out_of_memory(nbytes):
    before = memory.memory_stats()
    with pytest.raises(pyasc.OutOfMemoryError, match="out of memory|beyond any device") as info:
        memory.alloc(nbytes)
    assert isinstance(info.value, MemoryError)
    assert info.value.status == "ASC_ERR_OUT_OF_MEMORY"
    after = memory.memory_stats()
    assert after["allocated_bytes"] == before["allocated_bytes"]
    # Nothing was reserved for it (idle cached blocks may have been returned
    # to the backend while trying).
    assert after["reserved_bytes"] <= before["reserved_bytes"]
    assert after["active_blocks"] == before["active_blocks"]
    # The process goes on normally.
    with memory.alloc(128) as buf:
        memory.memset(buf, 1)


# --- the caching allocator ------------------------------------------------


def test_freed_block_is_reused_from_the_cache():
    memory.empty_cache()
    first = memory.alloc(3000)
    ptr = first.ptr
    first.free()
    s0 = memory.memory_stats()
    assert s0["cached_blocks"] >= 1
    second = memory.alloc(3000)
    s1 = memory.memory_stats()
    assert second.ptr == ptr
    assert s1["cache_hits"] == s0["cache_hits"] + 1
    assert s1["backend_allocs"] == s0["backend_allocs"]
    assert s1["cache_misses"] == s0["cache_misses"]
    assert s1["cached_blocks"] == s0["cached_blocks"] - 1
    second.free()
    # Any size of the same class reuses it too.
    assert class_size(2900) == class_size(3000)
    third = memory.alloc(2900)
    assert third.ptr == ptr
    assert memory.memory_stats()["backend_allocs"] == s0["backend_allocs"]
    third.free()


def test_different_size_class_is_a_miss():
    memory.empty_cache()
    a = memory.alloc(3000)
    a.free()
    s0 = memory.memory_stats()
    b = memory.alloc(7000)
    s1 = memory.memory_stats()
    assert s1["cache_misses"] == s0["cache_misses"] + 1
    assert s1["backend_allocs"] == s0["backend_allocs"] + 1
    b.free()


def test_empty_cache_returns_idle_blocks():
    a = memory.alloc(10000)
    a.free()
    s0 = memory.memory_stats()
    assert s0["cached_blocks"] >= 1
    memory.empty_cache()
    s1 = memory.memory_stats()
    assert s1["cached_blocks"] == 0
    assert s1["reserved_bytes"] == s1["allocated_bytes"]
    assert s1["backend_frees"] >= s0["backend_frees"] + 1


def test_reserved_is_live_plus_cached_and_peaks_track():
    memory.empty_cache()
    memory.reset_peak_memory_stats()
    s0 = memory.memory_stats()
    a, b = memory.alloc(1 * MiB), memory.alloc(2 * MiB)
    s1 = memory.memory_stats()
    assert s1["allocated_bytes"] - s0["allocated_bytes"] == 3 * MiB
    assert s1["reserved_bytes"] - s0["reserved_bytes"] == 3 * MiB
    assert s1["peak_allocated_bytes"] >= s1["allocated_bytes"]
    b.free()
    s2 = memory.memory_stats()
    assert s2["allocated_bytes"] == s1["allocated_bytes"] - 2 * MiB
    assert s2["reserved_bytes"] == s1["reserved_bytes"]  # cached, still held
    assert s2["peak_allocated_bytes"] == s1["allocated_bytes"]
    memory.reset_peak_memory_stats()
    s3 = memory.memory_stats()
    assert s3["peak_allocated_bytes"] == s3["allocated_bytes"]
    assert s3["peak_reserved_bytes"] == s3["reserved_bytes"]
    a.free()


def test_caching_can_be_disabled():
    memory.empty_cache()
    memory.set_caching(False)
    assert memory.memory_stats()["caching_enabled"] is False
    s0 = memory.memory_stats()
    a = memory.alloc(5000)
    a.free()
    b = memory.alloc(5000)
    b.free()
    s1 = memory.memory_stats()
    assert s1["cache_hits"] == s0["cache_hits"]
    assert s1["backend_allocs"] == s0["backend_allocs"] + 2
    assert s1["backend_frees"] == s0["backend_frees"] + 2
    assert s1["cached_blocks"] == 0
    memory.set_caching(True)
    assert memory.memory_stats()["caching_enabled"] is True


def test_disabling_caching_releases_the_cache():
    a = memory.alloc(5000)
    a.free()
    assert memory.memory_stats()["cached_blocks"] >= 1
    memory.set_caching(False)
    assert memory.memory_stats()["cached_blocks"] == 0


def test_no_caching_environment_variable(run_python):
    code = "from pyasc import memory; print(memory.memory_stats()['caching_enabled'])"
    r = run_python("-c", code, env_extra={"PYASC_NO_MEMORY_CACHING": "1"})
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == "False"


def test_stream_aware_reuse(stream_pair):
    a, b = stream_pair
    memory.empty_cache()
    nbytes = 12345
    buf = memory.alloc(nbytes, stream=a)
    ptr = buf.ptr
    testing.spin(100, stream=a)  # work on a that may still use buf
    buf.free()
    # b must not get the block while a's work before the free is pending.
    on_b = memory.alloc(nbytes, stream=b)
    assert on_b.ptr != ptr
    assert a.query() is False  # the spin was still running: not a timing fluke
    # a's own later work is ordered after the free: a reuses it at once.
    on_a = memory.alloc(nbytes, stream=a)
    assert on_a.ptr == ptr
    on_a.free()
    on_b.free()
    # Once a has passed the free, b may take the block.
    a.synchronize()
    got = [memory.alloc(nbytes, stream=b) for _ in range(2)]
    assert ptr in {g.ptr for g in got}
    for g in got:
        g.free()


def test_record_stream_delays_reuse(stream_pair):
    a, b = stream_pair
    memory.empty_cache()
    nbytes = 23456
    buf = memory.alloc(nbytes, stream=a)
    ptr = buf.ptr
    buf.record_stream(b)
    testing.spin(100, stream=b)
    buf.free()
    # a allocated it, but b, which recorded it, has not passed the free.
    other = memory.alloc(nbytes, stream=a)
    assert other.ptr != ptr
    assert b.query() is False
    other.free()
    b.synchronize()
    again = [memory.alloc(nbytes, stream=a) for _ in range(2)]
    assert ptr in {g.ptr for g in again}
    for g in again:
        g.free()


def test_async_copy_on_another_stream_delays_reuse(stream_pair):
    a, b = stream_pair
    memory.empty_cache()
    nbytes = 34567
    buf = memory.alloc(nbytes, stream=a)
    ptr = buf.ptr
    host = np.ones(nbytes, np.uint8)
    testing.spin(100, stream=b)
    memory.memcpy(buf, host, stream=b, non_blocking=True)  # records b on the block
    buf.free()
    other = memory.alloc(nbytes, stream=a)
    assert other.ptr != ptr
    assert b.query() is False
    other.free()
    b.synchronize()


def test_record_stream_argument_checks():
    buf = memory.alloc(64)
    buf.record_stream(None)  # None: the current stream
    buf.record_stream(pyasc.default_stream())  # recording twice is harmless
    with pytest.raises(TypeError, match="pyasc.Stream"):
        buf.record_stream("s")
    buf.free()


# --- memory limit ---------------------------------------------------------


def test_memory_limit_raises_out_of_memory_and_leaks_nothing():
    memory.empty_cache()
    s0 = memory.memory_stats()
    base = s0["reserved_bytes"]
    memory.set_memory_limit(base + 1 * MiB)
    assert memory.memory_stats()["limit_bytes"] == base + 1 * MiB
    a = memory.alloc(512 * KiB)
    s1 = memory.memory_stats()
    with pytest.raises(pyasc.OutOfMemoryError) as info:
        memory.alloc(768 * KiB)
    exc = info.value
    assert isinstance(exc, MemoryError) and isinstance(exc, pyasc.Error)
    assert exc.status == "ASC_ERR_OUT_OF_MEMORY"
    assert "memory limit" in str(exc) and str(base + 1 * MiB) in str(exc)
    s2 = memory.memory_stats()
    assert s2["oom_count"] == s1["oom_count"] + 1
    for key in ("allocated_bytes", "requested_bytes", "reserved_bytes", "active_blocks",
                "backend_allocs"):
        assert s2[key] == s1[key], key
    # Under the limit everything still works.
    with memory.alloc(256 * KiB) as small:
        memory.memset(small, 3)
    a.free()
    memory.set_memory_limit(None)
    assert memory.memory_stats()["limit_bytes"] == 0
    big = memory.alloc(2 * MiB)
    big.free()


def test_memory_limit_releases_cached_blocks_when_needed():
    memory.empty_cache()
    base = memory.memory_stats()["reserved_bytes"]
    memory.set_memory_limit(base + 1 * MiB)
    a = memory.alloc(512 * KiB)
    a.free()  # cached: still reserved
    s0 = memory.memory_stats()
    assert s0["reserved_bytes"] == base + 512 * KiB
    b = memory.alloc(768 * KiB)  # fits only once the cached block is returned
    s1 = memory.memory_stats()
    assert s1["backend_frees"] == s0["backend_frees"] + 1
    assert s1["cached_blocks"] == s0["cached_blocks"] - 1
    assert s1["reserved_bytes"] == base + 768 * KiB
    assert s1["oom_count"] == s0["oom_count"]
    b.free()


def test_lowering_the_limit_releases_cache():
    memory.empty_cache()
    a = memory.alloc(1 * MiB)
    a.free()
    base = memory.memory_stats()["allocated_bytes"]
    memory.set_memory_limit(base + 512 * KiB)
    s = memory.memory_stats()
    assert s["cached_blocks"] == 0
    assert s["reserved_bytes"] == s["allocated_bytes"]


def test_limit_does_not_release_blocks_in_use_by_pending_work(stream_pair):
    a, _ = stream_pair
    memory.empty_cache()
    base = memory.memory_stats()["reserved_bytes"]
    memory.set_memory_limit(base + 1 * MiB)
    buf = memory.alloc(768 * KiB, stream=a)
    testing.spin(80, stream=a)
    buf.free()  # a may still use it: cannot go back to the backend
    with pytest.raises(pyasc.OutOfMemoryError):
        memory.alloc(512 * KiB, device=0, stream=pyasc.default_stream())
    a.synchronize()
    ok = memory.alloc(512 * KiB, stream=pyasc.default_stream())
    ok.free()


@pytest.mark.parametrize(
    "arg, exc",
    [(-5, pyasc.InvalidValueError), (0, pyasc.InvalidValueError), (2**64, pyasc.InvalidValueError),
     ("x", TypeError), (1.0, TypeError)],
)
def test_set_memory_limit_argument_errors(arg, exc):
    with pytest.raises(exc) as info:
        memory.set_memory_limit(arg)
    if exc is pyasc.InvalidValueError:
        assert isinstance(info.value, ValueError)
        assert "positive" in str(info.value)
    assert memory.memory_stats()["limit_bytes"] == 0


# --- copies -----------------------------------------------------------------


def test_memcpy_host_to_device_to_host():
    x = np.arange(1024, dtype=np.float32)
    buf = memory.alloc(x.nbytes)
    assert memory.memcpy(buf, x) is None
    y = np.zeros_like(x)
    memory.memcpy(y, buf)
    np.testing.assert_array_equal(y, x)
    buf.free()


def test_memcpy_device_to_device():
    x = np.random.default_rng(0).integers(0, 2**31, 500, dtype=np.int64)
    a, b = memory.alloc(x.nbytes), memory.alloc(x.nbytes)
    memory.memcpy(a, x)
    memory.memcpy(b, a)
    y = np.empty_like(x)
    memory.memcpy(y, b)
    np.testing.assert_array_equal(y, x)
    a.free()
    b.free()


def test_memcpy_with_offsets_and_sizes():
    x = np.arange(64, dtype=np.uint8)
    buf = memory.alloc(128)
    memory.memset(buf, 0xEE)
    memory.memcpy(buf, x, 16, dst_offset=100, src_offset=8)  # x[8:24] -> buf[100:116]
    out = np.zeros(128, np.uint8)
    memory.memcpy(out, buf)
    expected = np.full(128, 0xEE, np.uint8)
    expected[100:116] = x[8:24]
    np.testing.assert_array_equal(out, expected)
    # Device to host with offsets on both sides; nbytes defaults to the
    # rest of the source.
    part = np.zeros(40, np.uint8)
    memory.memcpy(part, buf, dst_offset=12, src_offset=100)
    np.testing.assert_array_equal(part[12:28], x[8:24])
    np.testing.assert_array_equal(part[28:], np.full(12, 0xEE, np.uint8))
    np.testing.assert_array_equal(part[:12], 0)
    # Device to device inside one buffer (overlapping: memmove semantics).
    memory.memcpy(buf, buf, 16, dst_offset=104, src_offset=100)
    memory.memcpy(out, buf)
    np.testing.assert_array_equal(out[104:120], x[8:24])
    buf.free()


def test_memcpy_bytes_and_bytearray_hosts():
    buf = memory.alloc(5)
    memory.memcpy(buf, b"hello")  # read-only host source is fine
    out = bytearray(5)
    memory.memcpy(out, buf)
    assert out == b"hello"
    memory.memcpy(out, memoryview(b"HELLO"), 2)  # host to host
    assert out == b"HEllo"
    buf.free()


def test_memcpy_to_read_only_host_is_a_type_error():
    buf = memory.alloc(8)
    memory.memset(buf, 1)
    with pytest.raises(TypeError, match="writable") as info:
        memory.memcpy(b"12345678", buf)
    assert not isinstance(info.value, pyasc.Error)
    ro = np.zeros(8, np.uint8)
    ro.flags.writeable = False
    with pytest.raises(TypeError, match="writable"):
        memory.memcpy(ro, buf)
    buf.free()


def test_memcpy_non_buffer_and_non_contiguous_are_type_errors():
    buf = memory.alloc(64)
    with pytest.raises(TypeError, match="contiguous buffer"):
        memory.memcpy(buf, "a string")
    with pytest.raises(TypeError, match="contiguous buffer"):
        memory.memcpy(buf, np.zeros(128, np.uint8)[::2])
    with pytest.raises(TypeError):
        memory.memcpy(buf, np.zeros(64, np.uint8), "8")
    with pytest.raises(TypeError, match="stream"):
        memory.memcpy(buf, np.zeros(64, np.uint8), stream=1)
    buf.free()


@pytest.mark.parametrize(
    "kwargs, text",
    [
        ({"nbytes": 65}, "do not fit"),
        ({"nbytes": -1}, "nbytes must be >= 0"),
        ({"dst_offset": 65}, "dst offset 65 is outside"),
        ({"dst_offset": -1}, "dst offset -1 is outside"),
        ({"src_offset": 200}, "src offset 200 is outside"),
        ({"dst_offset": 60, "nbytes": 8}, "do not fit"),
        ({"src_offset": 30, "nbytes": 40}, "do not fit"),
    ],
)
def test_memcpy_size_and_offset_errors(kwargs, text):
    buf = memory.alloc(64)
    host = np.zeros(64, np.uint8)
    with pytest.raises(pyasc.InvalidValueError, match=text) as info:
        memory.memcpy(buf, host, **kwargs)
    assert isinstance(info.value, ValueError)
    assert info.value.status == "ASC_ERR_INVALID_VALUE"
    buf.free()


def test_memcpy_default_size_must_fit():
    small, big = memory.alloc(16), np.zeros(32, np.uint8)
    with pytest.raises(pyasc.InvalidValueError, match="32 bytes do not fit"):
        memory.memcpy(small, big)
    memory.memcpy(big, small)  # 16 bytes into 32: fine
    small.free()


def test_memcpy_from_a_view_of_device_memory_is_rejected():
    buf = memory.alloc(64)
    view = np.frombuffer(buf, np.uint8)
    host = np.zeros(64, np.uint8)
    with pytest.raises(pyasc.InvalidValueError, match="device memory"):
        memory.memcpy(host, view)
    del view
    buf.free()


def test_non_blocking_copy_keeps_the_host_source_alive(stream_pair):
    s, _ = stream_pair
    x = np.arange(1 << 16, dtype=np.int32)
    expected = x.copy()
    buf = memory.alloc(x.nbytes)
    testing.spin(80, stream=s)
    memory.memcpy(buf, x, stream=s, non_blocking=True)
    assert s.query() is False  # still queued behind the spin
    del x
    gc.collect()
    # Scribble over freshly allocated host memory, which would reuse the
    # source's pages had it been freed.
    junk = [np.full(1 << 16, -1, np.int32) for _ in range(4)]
    s.synchronize()
    out = np.frombuffer(buf, np.int32).copy()
    np.testing.assert_array_equal(out, expected)
    del junk
    buf.free()


def test_non_blocking_copy_holds_a_reference_until_done(stream_pair):
    s, _ = stream_pair
    x = np.arange(100, dtype=np.float64)
    buf = memory.alloc(x.nbytes)
    refs = sys.getrefcount(x)
    testing.spin(50, stream=s)
    memory.memcpy(buf, x, stream=s, non_blocking=True)
    assert sys.getrefcount(x) > refs
    s.synchronize()
    deadline = time.monotonic() + 5
    while sys.getrefcount(x) > refs and time.monotonic() < deadline:
        time.sleep(0.001)  # the release runs right after the task
    assert sys.getrefcount(x) == refs
    buf.free()


def test_non_blocking_device_to_host_lands_at_synchronize(stream_pair):
    s, _ = stream_pair
    x = np.arange(256, dtype=np.uint16)
    buf = memory.alloc(x.nbytes)
    memory.memcpy(buf, x)
    out = np.zeros_like(x)
    testing.spin(80, stream=s)
    memory.memcpy(out, buf, stream=s, non_blocking=True)
    assert not out.any()  # queued behind the spin: not written yet
    s.synchronize()
    np.testing.assert_array_equal(out, x)
    buf.free()


def test_non_blocking_on_the_current_stream(stream_pair):
    s, _ = stream_pair
    x = np.arange(32, dtype=np.uint8)
    buf = memory.alloc(32)
    with pyasc.stream(s):
        testing.spin(50)
        memory.memcpy(buf, x, non_blocking=True)
        memory.memset(buf, 9, 4, offset=0, non_blocking=True)
    assert s.query() is False
    s.synchronize()
    expected = x.copy()
    expected[:4] = 9
    np.testing.assert_array_equal(np.frombuffer(buf, np.uint8), expected)
    buf.free()


def test_blocking_copy_with_stream_waits_for_that_stream(stream_pair):
    s, _ = stream_pair
    buf = memory.alloc(16)
    memory.memset(buf, 0)
    memory.memset(buf, 5, stream=s, non_blocking=False)  # queued on s and waited for
    out = np.zeros(16, np.uint8)
    testing.spin(50, stream=s)
    memory.memset(buf, 6, stream=s, non_blocking=True)
    memory.memcpy(out, buf, stream=s)  # ordered after the memset, and waited for
    assert s.query() is True
    np.testing.assert_array_equal(out, 6)
    buf.free()


def test_blocking_copy_waits_for_the_current_stream():
    buf = memory.alloc(8)
    memory.memset(buf, 0)
    testing.spin(50)  # default stream
    memory.memset(buf, 0xAB, non_blocking=True)
    out = np.zeros(8, np.uint8)
    memory.memcpy(out, buf)  # synchronous: sees the queued memset
    np.testing.assert_array_equal(out, 0xAB)
    buf.free()


def test_memset():
    buf = memory.alloc(100)
    memory.memset(buf, 0x5A)
    view = np.frombuffer(buf, np.uint8)
    np.testing.assert_array_equal(view, 0x5A)
    memory.memset(buf, 0, 10, offset=20)
    assert (view[20:30] == 0).all()
    assert (view[:20] == 0x5A).all() and (view[30:] == 0x5A).all()
    memory.memset(buf, 255, offset=90)
    assert (view[90:] == 255).all() and view[89] == 0x5A
    del view
    buf.free()


@pytest.mark.parametrize(
    "args, kwargs, exc, text",
    [
        ((300,), {}, pyasc.InvalidValueError, r"value must be a byte in \[0, 255\], got 300"),
        ((-1,), {}, pyasc.InvalidValueError, "value must be a byte"),
        ((1, 101), {}, pyasc.InvalidValueError, "nbytes 101 is outside"),
        ((1, -2), {}, pyasc.InvalidValueError, "nbytes -2 is outside"),
        ((1,), {"offset": 101}, pyasc.InvalidValueError, "memset: dst offset 101 is outside"),
        ((1, 10), {"offset": 95}, pyasc.InvalidValueError, "nbytes 10 is outside"),
        (("a",), {}, TypeError, None),
    ],
)
def test_memset_errors(args, kwargs, exc, text):
    buf = memory.alloc(100)
    memory.memset(buf, 1)
    with pytest.raises(exc, match=text) as info:
        memory.memset(buf, *args, **kwargs)
    if exc is pyasc.InvalidValueError:
        assert isinstance(info.value, ValueError)
    np.testing.assert_array_equal(np.frombuffer(buf, np.uint8), 1)  # untouched
    buf.free()


def test_memset_needs_a_device_buffer():
    with pytest.raises(TypeError, match="DeviceBuffer"):
        memory.memset(bytearray(8), 0)


# --- zero-copy views ------------------------------------------------------


def test_frombuffer_is_a_zero_copy_view():
    buf = memory.alloc(64 * 4)
    view = np.frombuffer(buf, np.float32)
    assert view.shape == (64,)
    assert view.ctypes.data == buf.ptr
    assert view.flags.writeable
    x = np.linspace(0, 1, 64, dtype=np.float32)
    memory.memcpy(buf, x)  # a later copy is visible through the view
    np.testing.assert_array_equal(view, x)
    view[:] = 42.0  # writes through the view reach device memory
    out = np.zeros(64, np.float32)
    memory.memcpy(out, buf)
    np.testing.assert_array_equal(out, 42.0)
    mv = memoryview(buf)
    assert mv.nbytes == 256 and not mv.readonly
    mv.release()
    del view
    buf.free()


def test_free_while_a_view_exists_is_refused():
    buf = memory.alloc(32)
    view = np.frombuffer(buf, np.uint8)
    with pytest.raises(pyasc.InvalidValueError, match=r"1 view\(s\)") as info:
        buf.free()
    assert isinstance(info.value, ValueError)
    assert buf.freed is False
    view[0] = 1  # still valid memory
    second = memoryview(buf)
    with pytest.raises(pyasc.InvalidValueError, match=r"2 view\(s\)"):
        buf.free()
    second.release()
    del view
    buf.free()
    assert buf.freed


def test_with_block_exit_refuses_while_a_view_exists():
    with pytest.raises(pyasc.InvalidValueError):
        with memory.alloc(32) as buf:
            view = np.frombuffer(buf, np.uint8)
    assert not buf.freed
    del view
    buf.free()


def test_free_while_another_thread_copies_is_refused(run_python):
    # A synchronous copy runs without the GIL; freeing its buffer from another
    # thread meanwhile must be refused rather than unmap memory mid-copy.
    # In a subprocess: before the fix this crashed the interpreter.
    code = r"""
import threading, time
import numpy as np
import pyasc
from pyasc import memory
memory.set_caching(False)
N = 64 << 20
host = np.ones(N, np.uint8)
outcomes = []
for i in range(4):
    buf = memory.alloc(N)
    started = threading.Event()
    def copier():
        started.set()
        try:
            for _ in range(4):
                memory.memcpy(host, buf)
                memory.memset(buf, 1)
        except pyasc.InvalidHandleError:
            pass  # freed between two copies: refused cleanly
    t = threading.Thread(target=copier)
    t.start()
    started.wait()
    time.sleep(0.002)
    try:
        buf.free()
        outcomes.append("freed")
    except pyasc.InvalidValueError as e:
        assert "another thread" in str(e), e
        outcomes.append("busy")
    t.join()
    buf.free()
print("OK", outcomes)
"""
    r = run_python("-c", code, timeout=120)
    assert r.returncode == 0, (r.returncode, r.stderr[-3000:])
    assert r.stdout.startswith("OK")


# --- statistics -----------------------------------------------------------


def test_memory_stats_shape():
    s = memory.memory_stats()
    assert set(s) == STAT_KEYS
    for k, v in s.items():
        if k == "caching_enabled":
            assert v is True
        else:
            assert isinstance(v, int) and v >= 0, k
    assert s == memory.memory_stats(0) == memory.memory_stats(device=0)
    with pytest.raises(pyasc.InvalidValueError):
        memory.memory_stats(9)
    with pytest.raises(pyasc.InvalidValueError):
        memory.empty_cache(9)
    with pytest.raises(TypeError):
        memory.reset_peak_memory_stats("0")


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    st.lists(
        st.one_of(
            st.tuples(st.just("alloc"), st.integers(0, 300_000)),
            st.tuples(st.just("free"), st.integers(0, 1000)),
        ),
        max_size=40,
    ),
    st.booleans(),
)
def test_random_alloc_free_sequences_keep_stats_consistent(ops, caching):
    memory.set_caching(caching)
    base = memory.memory_stats()
    live: list[pyasc.DeviceBuffer] = []
    try:
        for op, n in ops:
            if op == "alloc":
                b = memory.alloc(n)
                assert b.ptr % 64 == 0
                live.append(b)
            elif live:
                live.pop(n % len(live)).free()
            s = memory.memory_stats()
            allocated = s["allocated_bytes"] - base["allocated_bytes"]
            requested = s["requested_bytes"] - base["requested_bytes"]
            assert allocated == sum(class_size(b.nbytes) for b in live)
            assert requested == sum(b.nbytes for b in live)
            assert allocated >= requested
            assert s["active_blocks"] - base["active_blocks"] == len(live)
            assert s["reserved_bytes"] >= s["allocated_bytes"]
            assert s["peak_allocated_bytes"] >= s["allocated_bytes"]
            assert s["alloc_count"] - s["free_count"] == s["active_blocks"]
            assert s["cache_hits"] + s["cache_misses"] == s["alloc_count"] + s["oom_count"]
            if not caching:
                assert s["cached_blocks"] == 0
            spans = sorted((b.ptr, b.ptr + max(b.nbytes, 1)) for b in live)
            assert all(e <= s2 for (_, e), (s2, _) in zip(spans, spans[1:]))
    finally:
        for b in live:
            b.free()
        memory.set_caching(True)


# --- queued operations hold their operands stream-ordered ---------------------

BIG = (512, 1024)  # 2 MiB of float32: a launch that is queued, not run inline


@pytest.mark.parametrize("op", ["exp", "softmax", "matmul"])
def test_a_loop_of_dropped_results_reuses_one_block(op, stream_pair):
    """Results dropped while their launches are queued go back to the cache
    at once for the stream's next allocation: memory stays bounded however
    far the host runs ahead (before, each queued result held its block)."""
    s, _ = stream_pair
    fn = {"exp": pyasc.exp, "softmax": lambda t: pyasc.softmax(t, axis=-1),
          "matmul": lambda t: t[:, :512] @ t[:, :512].T}[op]
    with pyasc.stream(s):
        x = pyasc.asarray(np.random.default_rng(0).standard_normal(BIG).astype(np.float32))
        fn(x)
        s.synchronize()
        before = memory.memory_stats()
        testing.spin(50, stream=s)  # the loop below queues behind this
        for _ in range(40):
            fn(x)
        assert s.query() is False  # still queued: the reuse did not wait for the work
        kept = fn(x)
        s.synchronize()
    after = memory.memory_stats()
    grown = after["peak_reserved_bytes"] - before["peak_reserved_bytes"]
    assert grown <= 2 * x.nbytes, grown  # not 40 results' worth
    want = {"exp": np.exp, "softmax": None, "matmul": None}[op]
    if want is not None:
        np.testing.assert_allclose(kept.numpy(), want(x.numpy()), rtol=2e-6)


def test_a_reused_block_is_written_only_after_the_queued_reader(stream_pair):
    """a's block goes back to the cache while b = a + 1 is still queued and
    reads it; c's allocation takes the block, and c's launch runs after b's,
    so b sees a's values."""
    s, _ = stream_pair
    xa = np.random.default_rng(1).standard_normal(BIG).astype(np.float32)
    with pyasc.stream(s):
        x = pyasc.asarray(xa)
        s.synchronize()
        testing.spin(50, stream=s)
        a = pyasc.exp(x)
        a_ptr = a.data_ptr
        b = a + 1.0
        del a
        c = x * 3.0  # the same size class: takes a's block
        assert c.data_ptr == a_ptr
        assert s.query() is False
        s.synchronize()
    np.testing.assert_allclose(b.numpy(), np.exp(xa) + np.float32(1.0), rtol=2e-6)
    np.testing.assert_array_equal(c.numpy(), xa * np.float32(3.0))


def test_a_block_read_by_another_streams_queued_launch_is_not_reused_early(stream_pair):
    """a is allocated on stream s1 and read by a launch queued on s2 (its
    stream is recorded on the block): dropped, the block must not go to s1's
    next allocation before s2 has passed the read."""
    s1, s2 = stream_pair
    xa = np.random.default_rng(2).standard_normal(BIG).astype(np.float32)
    with pyasc.stream(s1):
        a = pyasc.asarray(xa) * 1.0  # memory of the allocator, on s1
        s1.synchronize()
    a_ptr = a.data_ptr
    with pyasc.stream(s2):
        testing.spin(50, stream=s2)
        b = a * 2.0  # queued on s2 behind the spin, reading a
    del a
    with pyasc.stream(s1):
        c = pyasc.zeros(BIG, dtype=pyasc.float32)
        assert c.data_ptr != a_ptr
        assert s2.query() is False
    s2.synchronize()
    np.testing.assert_array_equal(b.numpy(), xa * np.float32(2.0))
