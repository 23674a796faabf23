"""A tour of the pyasc runtime on the embedded default device.

The device is a simulated Ascend 910B-class AI-core chip on the host CPU:
device memory is host memory, streams run on host threads, kernels run block
by block with a private Unified Buffer each.
"""

import numpy as np

import pyasc


def main() -> None:
    props = pyasc.get_device_properties()
    print(f"device 0: {props.name}, {props.ai_core_count} AI cores, "
          f"{props.ub_size // 1024} KiB Unified Buffer per core")

    # Device memory: copy a NumPy array in, fill part of it, copy it back.
    x = np.arange(8, dtype=np.float32)
    buf = pyasc.memory.alloc(x.nbytes)
    pyasc.memory.memcpy(buf, x)
    pyasc.memory.memset(buf, 0, 8, offset=16)
    y = np.empty_like(x)
    pyasc.memory.memcpy(y, buf)
    print("round trip through device memory:", y)

    # Two streams overlap; events time each one.
    s1, s2 = pyasc.Stream(), pyasc.Stream()
    start, end = pyasc.Event(), pyasc.Event()
    start.record(s1)
    pyasc.testing.spin(50, stream=s1)
    pyasc.testing.spin(50, stream=s2)
    s1.wait_event(s2.record_event())
    end.record(s1)
    end.synchronize()
    print(f"two 50 ms kernels on two streams took {start.elapsed_time(end):.1f} ms")

    # Work queued after a failure is skipped; the error surfaces at sync.
    pyasc.testing.fail("example failure", stream=s1)
    try:
        s1.synchronize()
    except pyasc.DeviceError as exc:
        print("deferred error reported at synchronize:", exc)

    buf.free()
    stats = pyasc.memory.memory_stats()
    print(f"allocator: {stats['cache_hits']} cache hits, {stats['cache_misses']} misses, "
          f"{stats['allocated_bytes']} bytes still allocated")


if __name__ == "__main__":
    main()
