"""Hostile shapes, sizes, strides and memory for tensors.

Each test reproduces a defect that crashed the process, corrupted memory or
silently misread an argument: shape products that wrapped around, negative
broadcast sizes, axes truncated to C ints, read-only memory handed out
writable, and typed loads from unaligned NumPy views.
"""

from __future__ import annotations

import mmap
import struct
import tempfile

import numpy as np
import pytest

import pyasc
from pyasc import memory

HUGE = 6148914691236517206  # 3 * HUGE wraps to 2 in 64 bits


# --- shape and size overflow --------------------------------------------------------------------


@pytest.mark.parametrize("method", ["reshape", "view"])
def test_reshape_whose_product_wraps_is_refused(method):
    t = pyasc.zeros(2)
    with pytest.raises(pyasc.InvalidValueError, match="cannot reshape 2 elements"):
        getattr(t, method)(3, HUGE)
    with pytest.raises(pyasc.InvalidValueError):
        getattr(t, method)(2**62, 2**62, 2**62)
    with pytest.raises(pyasc.InvalidValueError):
        getattr(t, method)(-1, HUGE, 3)


@pytest.mark.parametrize("shape", [(), (1,), (2, 1)])
def test_broadcast_to_a_negative_size_is_refused(shape):
    t = pyasc.zeros(shape)
    if len(shape) <= 1:
        with pytest.raises(pyasc.InvalidValueError, match="negative dimension -3"):
            t.broadcast_to(-3)
    with pytest.raises(pyasc.InvalidValueError, match="negative dimension -3"):
        t.broadcast_to((-3,) + shape)
    with pytest.raises(pyasc.InvalidValueError, match="negative dimension"):
        t.expand((-1,) + shape)


def test_broadcast_to_a_huge_shape_is_refused():
    with pytest.raises(pyasc.OutOfMemoryError, match="too large"):
        pyasc.zeros(1).broadcast_to(2**62, 2**62)
    with pytest.raises(pyasc.OutOfMemoryError):
        pyasc.zeros(()).broadcast_to(0, 2**62, 2**62)


@pytest.mark.parametrize(
    "axes", [(2**32, 1), (1, 2**32), (2**32 + 1, 0), (-(2**32), 1), (2**31, 0)]
)
def test_transpose_axes_are_not_truncated(axes):
    t = pyasc.zeros((2, 3))
    with pytest.raises(pyasc.IndexOutOfRangeError, match="out of bounds"):
        t.transpose(*axes)
    with pytest.raises(pyasc.IndexOutOfRangeError):
        t.permute(axes)


def test_transpose_axes_beyond_64_bits_raise():
    with pytest.raises(OverflowError):
        pyasc.zeros((2, 3)).transpose(2**64, 1)


@pytest.mark.parametrize(
    "make",
    [
        lambda: pyasc.zeros((2**62,)),
        lambda: pyasc.empty((2**31, 2**31)),
        lambda: pyasc.ones((2**61, 4)),
        lambda: pyasc.full((2**40, 2**40, 0), 1.0),
        lambda: pyasc.empty((2**62, 2**62, 0)),
        lambda: pyasc.eye(2**32),
        lambda: pyasc.eye(2**62, 2**62),
        lambda: pyasc.linspace(0.0, 1.0, 2**62),
        lambda: pyasc.arange(0, 2**62),
    ],
)
def test_creation_with_a_huge_size_is_a_clear_error(make):
    with pytest.raises(pyasc.OutOfMemoryError, match="too large for memory"):
        make()


def test_arange_whose_length_exceeds_int64_is_refused():
    with pytest.raises(pyasc.InvalidValueError, match="maximum allowed size"):
        pyasc.arange(-(2**63), 2**63 - 1)
    with pytest.raises(pyasc.InvalidValueError, match="maximum allowed size"):
        pyasc.arange(2**63 - 1, -(2**63), -1)
    assert pyasc.arange(-(2**63), 2**63 - 1, 2**62).tolist() == list(
        range(-(2**63), 2**63 - 1, 2**62)
    )


def test_slices_with_huge_steps_and_indices():
    a = np.arange(10.0)
    t = pyasc.asarray(a.copy())
    for key in [slice(None, None, 2**62), slice(None, None, -(2**62)), slice(3, 4, 2**63 - 1),
                slice(-(2**63), 2**63 - 1, 2**61), slice(2**63 - 1, None, -(2**63))]:
        assert t[key].tolist() == a[key].tolist()
        assert t[key].strides == a[key].strides or a[key].size <= 1
    with pytest.raises(IndexError):
        t[2**63 - 1]
    with pytest.raises(IndexError):
        t[-(2**63)]


def test_empty_view_of_a_huge_shape_keeps_sizes_consistent():
    t = pyasc.zeros((0, 5))
    v = t.reshape(0, 2**20, 2**20)
    assert v.shape == (0, 2**20, 2**20) and v.size == 0 and v.nbytes == 0
    assert v.strides == (2**43, 2**23, 8)
    assert v.tolist() == []
    for method in (t.reshape, t.view):
        with pytest.raises(pyasc.OutOfMemoryError, match="too large"):
            method(0, 2**40, 2**20)  # 2**63 bytes if it were not empty


def test_dlpack_empty_tensor_with_byte_strides_beyond_int64_is_refused():
    from test_dlpack import Producer

    producer = Producer(np.zeros(4, dtype=np.float64), shape=(0, 2), strides=(2**61, 1))
    with pytest.raises(pyasc.InvalidValueError, match="overflows"):
        pyasc.from_dlpack(producer.capsule)


def test_dlpack_shape_too_large_for_memory_is_refused():
    from test_dlpack import Producer

    producer = Producer(np.zeros(4, dtype=np.float32), shape=(2**31, 2**31), strides=(0, 0))
    with pytest.raises(pyasc.OutOfMemoryError, match="too large"):
        pyasc.from_dlpack(producer.capsule)


def test_dlpack_byte_offset_beyond_the_address_space_is_refused():
    from test_dlpack import Producer

    producer = Producer(np.zeros(4, dtype=np.float32), byte_offset=2**64 - 8)
    with pytest.raises(pyasc.InvalidValueError, match="address space"):
        pyasc.from_dlpack(producer.capsule)


# --- unaligned NumPy memory ----------------------------------------------------------------------


def unaligned(dtype, n: int = 37) -> np.ndarray:
    """An array of n elements at an odd byte address."""
    raw = np.zeros(n * np.dtype(dtype).itemsize + 1, dtype=np.uint8)
    a = raw[1:].view(dtype)
    a[...] = np.arange(n) % 7
    assert not a.flags.aligned
    return a


@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.int64, np.int32, np.float16])
def test_unaligned_arrays_give_numpys_results(dtype):
    a = unaligned(dtype)
    t = pyasc.from_numpy(a)
    np.testing.assert_array_equal(t.astype(pyasc.float64).numpy(), a.astype(np.float64))
    np.testing.assert_array_equal((t + t).numpy(), a + a)
    np.testing.assert_array_equal((-t).numpy(), -a)
    np.testing.assert_allclose(float(pyasc.sum(t).item()), float(a.sum()), rtol=1e-3)
    np.testing.assert_array_equal(pyasc.maximum(t, t).numpy(), a)
    assert t[5].item() == a[5].item()
    m = pyasc.from_numpy(unaligned(dtype, 36).reshape(6, 6))
    np.testing.assert_allclose(pyasc.matmul(m, m).numpy(), m.numpy() @ m.numpy(), rtol=1e-2)


def test_unaligned_array_as_an_output():
    a = unaligned(np.float64, 8)
    t = pyasc.from_numpy(a)
    pyasc.add(pyasc.ones(8, dtype=pyasc.float64), 1.0, out=t)
    t.fill(3.0)
    t[2:4] = pyasc.arange(2.0)
    pyasc.synchronize()  # the host reads a directly
    np.testing.assert_array_equal(a, [3, 3, 0, 1, 3, 3, 3, 3])
    pyasc.sum(pyasc.ones((8, 2)), axis=1, out=t)
    pyasc.synchronize()
    np.testing.assert_array_equal(a, np.full(8, 2.0))


# --- read-only memory -----------------------------------------------------------------------------


def readonly_array() -> np.ndarray:
    a = np.arange(6, dtype=np.float64)
    a.flags.writeable = False
    return a


WRITES = {
    "iadd": lambda t: t.__iadd__(1),
    "imul": lambda t: t.__imul__(2),
    "fill": lambda t: t.fill(1.0),
    "setitem": lambda t: t.__setitem__(0, 5.0),
    "setitem_slice": lambda t: t.__setitem__(slice(1, 3), pyasc.zeros(2, dtype=t.dtype)),
    "out_binary": lambda t: pyasc.add(t, t, out=t),
    "out_unary": lambda t: pyasc.exp(t, out=t),
    "out_reduce": lambda t: pyasc.sum(pyasc.ones((t.shape[0], 2), dtype=t.dtype), axis=1, out=t),
    "out_clip": lambda t: pyasc.clip(t, 0, 1, out=t),
    "view_fill": lambda t: t[::2].fill(0.0),
    "reshaped_fill": lambda t: t.reshape(-1, 1).fill(0.0),
}


@pytest.mark.parametrize("write", WRITES.values(), ids=WRITES.keys())
@pytest.mark.parametrize("share", [pyasc.from_numpy, pyasc.asarray, pyasc.from_dlpack])
def test_writes_to_a_read_only_array_raise(write, share):
    a = readonly_array()
    t = share(a)
    with pytest.raises(pyasc.InvalidValueError, match="read-only memory") as info:
        write(t)
    assert isinstance(info.value, ValueError)
    pyasc.synchronize()
    np.testing.assert_array_equal(a, np.arange(6.0))


def test_writing_into_immutable_bytes_raises_and_leaves_them_alone():
    data = bytes([1, 2, 3])
    t = pyasc.asarray(data)
    with pytest.raises(pyasc.InvalidValueError, match="read-only memory"):
        t += 1
    with pytest.raises(pyasc.InvalidValueError, match="read-only memory"):
        t.fill(9)
    pyasc.synchronize()
    assert data == bytes([1, 2, 3])
    assert (t + 1).tolist() == [2, 3, 4]  # reading still works


def test_read_only_mmap_cannot_be_written():
    with tempfile.TemporaryFile() as f:
        f.write(np.arange(4, dtype=np.float32).tobytes())
        f.flush()
        m = mmap.mmap(f.fileno(), 16, prot=mmap.PROT_READ)
        for share in (pyasc.asarray, pyasc.from_numpy):
            t = share(np.frombuffer(m, dtype=np.float32))
            with pytest.raises(pyasc.InvalidValueError, match="read-only memory"):
                t.fill(1.0)  # wrote to a PROT_READ page: SIGSEGV
            with pytest.raises(pyasc.InvalidValueError, match="read-only memory"):
                t[1] = 7.0
            assert t.tolist() == [0.0, 1.0, 2.0, 3.0]
        t = pyasc.asarray(m)
        with pytest.raises(pyasc.InvalidValueError, match="read-only memory"):
            t += 1
        del t


def test_read_only_tensors_export_read_only():
    t = pyasc.from_numpy(readonly_array())
    assert memoryview(t).readonly
    with pytest.raises(TypeError, match="read-write"):
        struct.pack_into("d", t, 0, 1.0)  # asks for a writable buffer
    shared = pyasc.from_numpy(t)  # asks for a writable buffer, then takes a read-only one
    with pytest.raises(pyasc.InvalidValueError, match="read-only memory"):
        shared.fill(0.0)
    assert not t.numpy().flags.writeable
    assert not t[1:].numpy().flags.writeable
    assert not np.asarray(t).flags.writeable
    assert not np.from_dlpack(t).flags.writeable
    with pytest.raises(BufferError, match="legacy"):
        t.__dlpack__()  # a pre-1.0 capsule has no read-only flag
    t.__dlpack__(copy=True)  # a private copy may be written
    capsule = t.__dlpack__(max_version=(1, 0))
    again = pyasc.from_dlpack(capsule)
    with pytest.raises(pyasc.InvalidValueError, match="read-only memory"):
        again.fill(0.0)


def test_copies_of_read_only_tensors_are_writable():
    a = readonly_array()
    t = pyasc.from_numpy(a)
    for c in [t.copy(), t.astype(pyasc.float32), pyasc.Tensor(a), pyasc.asarray(a, dtype=pyasc.int32),
              pyasc.from_dlpack(a, copy=True), t + 0]:
        c.fill(1.0)
        assert c.numpy().flags.writeable
    np.testing.assert_array_equal(a, np.arange(6.0))


def test_writable_memory_is_still_shared_writable():
    a = np.arange(4.0)
    t = pyasc.from_numpy(a)
    t += 1
    t[0] = 9.0
    pyasc.synchronize()
    assert a.tolist() == [9.0, 2.0, 3.0, 4.0]
    assert not memoryview(t).readonly and t.numpy().flags.writeable
    b = bytearray(b"\x01\x02")
    u = pyasc.asarray(b)
    u += 1
    pyasc.synchronize()
    assert b == bytearray(b"\x02\x03")


@pyasc.jit
def k_touch(x: pyasc.GlobalAddress, n: pyasc.ConstExpr[int]):
    g = pyasc.GlobalTensor()
    g.set_global_buffer(x, n)


def test_read_only_kernel_argument_is_refused_at_launch():
    a = readonly_array()
    with pytest.raises(pyasc.InvalidValueError, match="kernel argument 0 is read-only memory"):
        k_touch[1](a, 6)
    with pytest.raises(pyasc.InvalidValueError, match="read-only memory"):
        k_touch[1](pyasc.from_numpy(a), 6)
    k_touch[1](a.copy(), 6)  # a writable copy is accepted
    pyasc.synchronize()


# --- found by test_fuzz_extension.py ---------------------------------------------------------------


def test_memcpy_refuses_python_object_buffers():
    """Raw bytes written over an object array's pointers crashed the process
    when the array was freed."""
    dst, src = np.array([object()]), np.array([2.5])
    with pytest.raises(TypeError, match="holds Python objects"):
        memory.memcpy(dst, src)
    with pytest.raises(TypeError, match="holds Python objects"):
        memory.memcpy(np.zeros(1), dst)
    assert isinstance(dst[0], object) and src[0] == 2.5
