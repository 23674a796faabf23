"""pyasc quickstart: a custom operator, tensors, and the runtime underneath.

The device is a simulated Ascend 910B-class AI-core chip on the host CPU:
device memory is host memory, streams run on host threads, kernels run block
by block with a private Unified Buffer each.
"""

import numpy as np

import pyasc


@pyasc.op
def my_custom_op(x: pyasc.Tensor, y: pyasc.Tensor) -> pyasc.Tensor:
    return (x + y) * 2.0


x = pyasc.Tensor(np.array([1.0, 2.0, 3.0]))
y = [4.0, 5.0, 6.0]
z = my_custom_op(x, y)
print(z.numpy())


def tensors() -> None:
    # from_numpy shares memory both ways; Tensor(...) copies.
    a = np.arange(6, dtype=np.float32).reshape(2, 3)
    t = pyasc.from_numpy(a)
    t[0, 0] = 100.0  # runs on the current stream: synchronise before NumPy reads
    pyasc.synchronize()
    print("from_numpy shares memory:", a[0, 0] == 100.0)
    # Broadcasting (2, 3) with (3,); a Python float next to float32 stays float32 (NEP 50).
    row = pyasc.Tensor(np.array([10.0, 20.0, 30.0], dtype=np.float32))
    print("broadcast:", repr(t * 0.5 + row))
    # Views: transposes and strided slices share storage, negative steps too.
    v = t.T[::-1]
    print("view of the transpose, reversed:", v.shape, v.strides, v.tolist())


def runtime() -> None:
    props = pyasc.get_device_properties()
    print(f"device 0: {props.name}, {props.ai_core_count} AI cores, "
          f"{props.ub_size // 1024} KiB Unified Buffer per core")

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

    stats = pyasc.memory.memory_stats()
    print(f"allocator: {stats['cache_hits']} cache hits, {stats['cache_misses']} misses")


if __name__ == "__main__":
    tensors()
    runtime()
