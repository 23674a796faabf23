"""DLPack exchange: Tensor.__dlpack__ / __dlpack_device__ and pyasc.from_dlpack.

Zero copy is proven by addresses (NumPy's .ctypes.data, PyTorch's and JAX's
buffer pointers against Tensor.data_ptr) and by writes that show on the other
side. A ctypes-made producer covers what real libraries never send (other
devices, unsupported dtypes, byte offsets, NULL strides, read-only flags) and
counts its deleter calls.
"""

from __future__ import annotations

import ctypes
import gc
import re
import sys

import jax
import jax.numpy as jnp
import numpy as np
import pytest
import torch
import torch.utils.dlpack

import pyasc
from pyasc import memory

# PyTorch and JAX leave hundreds of thousands of objects for the collector to
# walk: every gc.collect() (the leak check runs two per test) would take a
# tenth of a second. Nothing imported so far is garbage, so park it.
gc.freeze()

NUMPY_DTYPES = ["bool", "int8", "uint8", "int16", "int32", "int64", "float16", "float32", "float64"]
SHAPES = [(), (0,), (5,), (2, 3, 4), (3, 0, 2)]

KDLCPU, KDLCUDA = 1, 2
KDLINT, KDLUINT, KDLFLOAT, KDLBFLOAT, KDLCOMPLEX, KDLBOOL = 0, 1, 2, 4, 5, 6
READ_ONLY, IS_COPIED = 1, 2


def sample(dtype: str, shape: tuple[int, ...], seed: int = 0) -> np.ndarray:
    rng = np.random.default_rng(seed)
    if dtype == "bool":
        return rng.integers(0, 2, shape).astype(bool)
    if dtype.startswith(("int", "uint")):
        info = np.iinfo(dtype)
        return rng.integers(max(info.min, -1000), min(info.max, 1000), shape, dtype=dtype)
    return (rng.standard_normal(shape) * 10).astype(dtype)


def capsule_name(capsule: object) -> str:
    match = re.match(r'<capsule object "([^"]+)"', repr(capsule))
    assert match, repr(capsule)
    return match.group(1)


def allocated() -> int:
    pyasc.synchronize()
    gc.collect()
    return memory.memory_stats()["allocated_bytes"]


# --- the DLPack structures, to read our capsules and to build test producers ---


class DLDevice(ctypes.Structure):
    _fields_ = [("device_type", ctypes.c_int32), ("device_id", ctypes.c_int32)]


class DLDataType(ctypes.Structure):
    _fields_ = [("code", ctypes.c_uint8), ("bits", ctypes.c_uint8), ("lanes", ctypes.c_uint16)]


class DLTensor(ctypes.Structure):
    _fields_ = [
        ("data", ctypes.c_void_p),
        ("device", DLDevice),
        ("ndim", ctypes.c_int32),
        ("dtype", DLDataType),
        ("shape", ctypes.POINTER(ctypes.c_int64)),
        ("strides", ctypes.POINTER(ctypes.c_int64)),
        ("byte_offset", ctypes.c_uint64),
    ]


class DLPackVersion(ctypes.Structure):
    _fields_ = [("major", ctypes.c_uint32), ("minor", ctypes.c_uint32)]


DELETER = ctypes.CFUNCTYPE(None, ctypes.c_void_p)


class DLManagedTensor(ctypes.Structure):
    _fields_ = [("dl_tensor", DLTensor), ("manager_ctx", ctypes.c_void_p), ("deleter", DELETER)]


class DLManagedTensorVersioned(ctypes.Structure):
    _fields_ = [
        ("version", DLPackVersion),
        ("manager_ctx", ctypes.c_void_p),
        ("deleter", DELETER),
        ("flags", ctypes.c_uint64),
        ("dl_tensor", DLTensor),
    ]


_capsule_new = ctypes.pythonapi.PyCapsule_New
_capsule_new.restype = ctypes.py_object
_capsule_new.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_void_p]
_capsule_pointer = ctypes.pythonapi.PyCapsule_GetPointer
_capsule_pointer.restype = ctypes.c_void_p
_capsule_pointer.argtypes = [ctypes.py_object, ctypes.c_char_p]
# Capsules keep a pointer to their name: these must live as long as the module.
NAMES = {False: b"dltensor", True: b"dltensor_versioned"}


def read_capsule(capsule: object) -> DLManagedTensor | DLManagedTensorVersioned:
    """The structure inside a capsule: valid while the caller holds the capsule."""
    name = capsule_name(capsule)
    struct = DLManagedTensorVersioned if name.endswith("versioned") else DLManagedTensor
    return struct.from_address(_capsule_pointer(capsule, name.encode()))


class Producer:
    """A hand-made DLPack producer over a NumPy array's memory. The capsule
    has no destructor: an unconsumed one just goes away, and `deleted`
    counts the calls of the deleter by whoever consumed it."""

    def __init__(
        self,
        array: np.ndarray,
        *,
        versioned: bool = True,
        version: tuple[int, int] = (1, 0),
        device: tuple[int, int] = (KDLCPU, 0),
        dtype: tuple[int, int, int] | None = None,
        shape: tuple[int, ...] | None = None,
        strides: tuple[int, ...] | None = None,
        byte_offset: int = 0,
        flags: int = 0,
        data: int | None = None,
    ) -> None:
        self.array = array
        self.deleted = 0
        shape = array.shape if shape is None else shape
        ndim = len(shape)
        if dtype is None:
            kind = {"b": KDLBOOL, "i": KDLINT, "u": KDLUINT, "f": KDLFLOAT}[array.dtype.kind]
            dtype = (kind, array.itemsize * 8, 1)
        self.shape = (ctypes.c_int64 * max(ndim, 1))(*shape)
        self.strides = None if strides is None else (ctypes.c_int64 * max(ndim, 1))(*strides)
        self.deleter = DELETER(self._delete)
        struct = DLManagedTensorVersioned if versioned else DLManagedTensor
        self.managed = struct()
        dl = self.managed.dl_tensor
        dl.data = array.ctypes.data if data is None else data
        dl.device = DLDevice(*device)
        dl.ndim = ndim
        dl.dtype = DLDataType(*dtype)
        dl.shape = ctypes.cast(self.shape, ctypes.POINTER(ctypes.c_int64))
        if self.strides is not None:
            dl.strides = ctypes.cast(self.strides, ctypes.POINTER(ctypes.c_int64))
        dl.byte_offset = byte_offset
        self.managed.deleter = self.deleter
        if versioned:
            self.managed.version = DLPackVersion(*version)
            self.managed.flags = flags
        self.capsule = _capsule_new(ctypes.addressof(self.managed), NAMES[versioned], None)

    def _delete(self, address: int) -> None:
        assert address == ctypes.addressof(self.managed)
        self.deleted += 1


# --- export -----------------------------------------------------------------


@pytest.mark.parametrize("shape", SHAPES, ids=str)
@pytest.mark.parametrize("dtype", NUMPY_DTYPES)
def test_numpy_round_trip_shares_memory(dtype, shape):
    a = sample(dtype, shape)
    t = pyasc.Tensor(a)
    n = np.from_dlpack(t)
    assert n.dtype == a.dtype and n.shape == shape
    np.testing.assert_array_equal(n, a)
    back = pyasc.from_dlpack(n)
    assert back.dtype == t.dtype and back.shape == shape
    np.testing.assert_array_equal(back.numpy(), a)
    if a.size:
        assert n.ctypes.data == t.data_ptr == back.data_ptr


def test_writes_show_both_ways_with_numpy():
    t = pyasc.Tensor(np.arange(6, dtype=np.float32).reshape(2, 3))
    n = np.from_dlpack(t)
    n[0, 1] = 42
    assert t[0, 1].item() == 42
    t[1, 2] = -7
    t += 1  # asynchronous: visible once the stream has run it
    pyasc.synchronize()
    np.testing.assert_array_equal(n, [[1, 43, 3], [4, 5, -6]])
    a = np.zeros(4, dtype=np.int32)
    u = pyasc.from_dlpack(a)
    a[2] = 5
    assert u.numpy().tolist() == [0, 0, 5, 0]
    u[0] = 9
    pyasc.synchronize()
    assert a.tolist() == [9, 0, 5, 0]


def test_export_waits_for_pending_work():
    t = pyasc.Tensor(np.zeros(100_000, dtype=np.float64))
    t += 1.5  # enqueued; __dlpack__ must synchronise before NumPy reads
    n = np.from_dlpack(t)
    assert n.min() == n.max() == 1.5


@pytest.mark.parametrize(
    "view",
    [
        lambda t: t.T,
        lambda t: t[::2, ::-1],
        lambda t: t[1:, 1:3],
        lambda t: t[0:1, :].expand(4, 6),
        lambda t: t[2],
    ],
    ids=["T", "step-and-reverse", "slice", "broadcast", "select"],
)
def test_views_export_with_their_strides(view):
    base = pyasc.Tensor(np.arange(24, dtype=np.int64).reshape(4, 6))
    v = view(base)
    n = np.from_dlpack(v)
    assert n.strides == v.strides and n.shape == v.shape
    assert n.ctypes.data == v.data_ptr
    np.testing.assert_array_equal(n, v.numpy())
    capsule = v.__dlpack__(max_version=(1, 0))
    m = read_capsule(capsule).dl_tensor
    assert [m.strides[i] for i in range(v.ndim)] == [s // 8 for s in v.strides]
    assert m.byte_offset == 0 and m.data == v.data_ptr


def test_legacy_and_versioned_capsules():
    t = pyasc.Tensor(np.arange(6, dtype=np.float32).reshape(3, 2))
    for kwargs in ({}, {"max_version": None}, {"max_version": (0, 8)}):
        capsule = t.__dlpack__(**kwargs)
        assert capsule_name(capsule) == "dltensor"
        m = read_capsule(capsule)
        assert isinstance(m, DLManagedTensor)
    for version in ((1, 0), (1, 3), (2, 0)):
        capsule = t.__dlpack__(max_version=version)
        assert capsule_name(capsule) == "dltensor_versioned"
        m = read_capsule(capsule)
        assert (m.version.major, m.version.minor) == (1, 0)
        assert m.flags == 0
    dl = m.dl_tensor
    assert (dl.device.device_type, dl.device.device_id) == (KDLCPU, 0)
    assert (dl.dtype.code, dl.dtype.bits, dl.dtype.lanes) == (KDLFLOAT, 32, 1)
    assert dl.ndim == 2 and [dl.shape[0], dl.shape[1]] == [3, 2]
    assert [dl.strides[0], dl.strides[1]] == [2, 1]
    assert t.__dlpack_device__() == (KDLCPU, 0)


@pytest.mark.parametrize(
    "dtype, code, bits",
    [
        (pyasc.bool_, KDLBOOL, 8),
        (pyasc.int8, KDLINT, 8),
        (pyasc.uint8, KDLUINT, 8),
        (pyasc.int16, KDLINT, 16),
        (pyasc.int32, KDLINT, 32),
        (pyasc.int64, KDLINT, 64),
        (pyasc.float16, KDLFLOAT, 16),
        (pyasc.bfloat16, KDLBFLOAT, 16),
        (pyasc.float32, KDLFLOAT, 32),
        (pyasc.float64, KDLFLOAT, 64),
    ],
)
def test_exported_dtype_codes(dtype, code, bits):
    t = pyasc.Tensor(np.ones(3)).astype(dtype)
    capsule = t.__dlpack__(max_version=(1, 0))
    dl = read_capsule(capsule).dl_tensor
    assert (dl.dtype.code, dl.dtype.bits, dl.dtype.lanes) == (code, bits, 1)


def test_export_copy_flag():
    t = pyasc.Tensor(np.arange(5, dtype=np.int16))
    copied_capsule = t.__dlpack__(max_version=(1, 0), copy=True)
    copied = read_capsule(copied_capsule)
    assert copied.flags == IS_COPIED
    assert copied.dl_tensor.data != t.data_ptr
    shared_capsule = t.__dlpack__(max_version=(1, 0), copy=False)
    shared = read_capsule(shared_capsule)
    assert shared.flags == 0 and shared.dl_tensor.data == t.data_ptr
    n = np.from_dlpack(t, copy=True)
    assert n.ctypes.data != t.data_ptr
    n[0] = 100
    assert t[0].item() == 0
    np.testing.assert_array_equal(n, [100, 1, 2, 3, 4])


def test_export_argument_errors():
    t = pyasc.Tensor(np.arange(3.0))
    assert capsule_name(t.__dlpack__(dl_device=(KDLCPU, 0))) == "dltensor"
    assert capsule_name(t.__dlpack__(stream=-1)) == "dltensor"
    assert capsule_name(t.__dlpack__(stream=None)) == "dltensor"
    with pytest.raises(BufferError, match=r"\(2, 0\)"):
        t.__dlpack__(dl_device=(KDLCUDA, 0))
    with pytest.raises(BufferError):
        t.__dlpack__(dl_device=(KDLCPU, 1))
    with pytest.raises(BufferError):
        t.__dlpack__(dl_device=(3, 0))
    with pytest.raises(TypeError, match="dl_device"):
        t.__dlpack__(dl_device="cpu")
    with pytest.raises(pyasc.InvalidValueError, match="stream"):
        t.__dlpack__(stream=1)
    with pytest.raises(TypeError, match="max_version"):
        t.__dlpack__(max_version=1)
    with pytest.raises(TypeError, match="copy"):
        t.__dlpack__(copy="yes")
    with pytest.raises(TypeError, match="keyword"):
        t.__dlpack__(None)
    with pytest.raises(TypeError, match="unexpected keyword"):
        t.__dlpack__(device=None)


def test_unconsumed_capsule_releases_the_storage_once():
    before = allocated()
    t = pyasc.Tensor(np.zeros(10_000))
    held = allocated()
    assert held > before
    capsule = t.__dlpack__(max_version=(1, 0))
    del t
    assert allocated() == held  # the capsule keeps the storage
    del capsule
    assert allocated() == before


@pytest.mark.parametrize("consumer", ["numpy", "torch", "pyasc"])
def test_consumer_outlives_the_tensor(consumer):
    before = allocated()
    t = pyasc.Tensor(np.arange(10_000, dtype=np.float32))
    imported = {
        "numpy": np.from_dlpack,
        "torch": torch.from_dlpack,
        "pyasc": lambda x: pyasc.from_dlpack(x.__dlpack__()),
    }[consumer](t)
    held = allocated()
    del t
    assert allocated() == held
    values = imported.numpy() if consumer != "numpy" else imported
    np.testing.assert_array_equal(values, np.arange(10_000, dtype=np.float32))
    del imported, values
    assert allocated() == before


def test_jax_shares_memory_both_ways():
    t = pyasc.Tensor(np.arange(16, dtype=np.float32).reshape(4, 4))
    y = jnp.from_dlpack(t)
    assert y.unsafe_buffer_pointer() == t.data_ptr
    np.testing.assert_array_equal(np.asarray(y), t.numpy())
    x = jnp.arange(12, dtype=jnp.int32).reshape(3, 4) * 3
    p = pyasc.from_dlpack(x)
    assert p.data_ptr == x.unsafe_buffer_pointer()
    assert p.dtype == pyasc.int32
    np.testing.assert_array_equal(p.numpy(), np.asarray(x))
    xb = jnp.linspace(-2, 2, 9, dtype=jnp.bfloat16)
    pb = pyasc.from_dlpack(xb)
    assert pb.dtype == pyasc.bfloat16
    np.testing.assert_array_equal(pb.numpy(), np.asarray(xb, dtype=np.float32))
    assert jnp.array_equal(jnp.from_dlpack(pb), xb)
    del x
    gc.collect()
    np.testing.assert_array_equal(p.numpy(), np.arange(12).reshape(3, 4) * 3)
    assert jax.devices()[0].platform == "cpu"


# --- import: PyTorch ------------------------------------------------------------

TORCH_DTYPES = [
    (torch.bool, pyasc.bool_),
    (torch.int8, pyasc.int8),
    (torch.uint8, pyasc.uint8),
    (torch.int16, pyasc.int16),
    (torch.int32, pyasc.int32),
    (torch.int64, pyasc.int64),
    (torch.float16, pyasc.float16),
    (torch.bfloat16, pyasc.bfloat16),
    (torch.float32, pyasc.float32),
    (torch.float64, pyasc.float64),
]


def torch_sample(dtype: torch.dtype, shape: tuple[int, ...]) -> torch.Tensor:
    g = torch.Generator().manual_seed(1)
    if dtype == torch.bool:
        return torch.randint(0, 2, shape, generator=g).bool()
    if not dtype.is_floating_point:
        return torch.randint(0, 100, shape, generator=g).to(dtype)
    return (torch.randn(shape, generator=g) * 10).to(dtype)


def as_float64(x: torch.Tensor) -> np.ndarray:
    return x.to(torch.float64).numpy()


@pytest.mark.parametrize("torch_dtype, dtype", TORCH_DTYPES, ids=[str(d) for d, _ in TORCH_DTYPES])
def test_torch_round_trips(torch_dtype, dtype):
    x = torch_sample(torch_dtype, (3, 5))
    p = pyasc.from_dlpack(x)
    assert p.dtype == dtype and p.shape == (3, 5)
    assert p.data_ptr == x.data_ptr()
    np.testing.assert_array_equal(p.numpy().astype(np.float64), as_float64(x))
    for to_torch in (torch.from_dlpack, torch.utils.dlpack.from_dlpack):
        back = to_torch(p)
        assert back.dtype == torch_dtype and back.data_ptr() == x.data_ptr()
        assert torch.equal(back, x)
    legacy = pyasc.from_dlpack(torch.utils.dlpack.to_dlpack(x))
    assert legacy.dtype == dtype and legacy.data_ptr == x.data_ptr()
    capsule = p.__dlpack__()
    assert torch.equal(torch.utils.dlpack.from_dlpack(capsule), x)


def test_torch_writes_show_both_ways():
    x = torch.zeros(2, 3)
    p = pyasc.from_dlpack(x)
    x[1, 1] = 5
    assert p[1, 1].item() == 5
    p[0] += 2
    pyasc.synchronize()
    assert x.tolist() == [[2, 2, 2], [0, 5, 0]]
    y = torch.from_dlpack(p)
    y.mul_(10)
    assert p.numpy().tolist() == [[20, 20, 20], [0, 50, 0]]


@pytest.mark.parametrize(
    "view",
    [
        lambda x: x.T,
        lambda x: x[:, ::2],
        lambda x: x[1:, 2:5],
        lambda x: x[0].expand(3, 6),
        lambda x: x.permute(1, 0)[::3],
        lambda x: x[2, 3],
    ],
    ids=["T", "step", "slice", "expand", "permute-step", "0-d"],
)
@pytest.mark.parametrize("torch_dtype", [torch.float32, torch.bfloat16, torch.bool])
def test_torch_views(view, torch_dtype):
    x = torch_sample(torch_dtype, (4, 6))
    v = view(x)
    p = pyasc.from_dlpack(v)
    assert p.shape == tuple(v.shape)
    assert p.strides == tuple(s * v.element_size() for s in v.stride())
    assert p.data_ptr == v.data_ptr()
    np.testing.assert_array_equal(p.numpy().astype(np.float64), as_float64(v))
    assert torch.equal(torch.from_dlpack(p), v)
    np.testing.assert_array_equal((p + p).numpy().astype(np.float64), as_float64(v + v))


def test_torch_producer_outlives_nothing():
    x = torch.arange(1000, dtype=torch.float64)
    p = pyasc.from_dlpack(x)
    view = p[10:20]
    del x, p
    gc.collect()
    np.testing.assert_array_equal(view.numpy(), np.arange(10, 20, dtype=np.float64))


@pytest.mark.parametrize(
    "x",
    [
        torch.zeros(3, dtype=torch.complex32),
    ],
    ids=lambda x: str(x.dtype),
)
def test_torch_unsupported_dtypes(x):
    with pytest.raises(pyasc.DTypeError, match="no pyasc dtype"):
        pyasc.from_dlpack(x)


def test_torch_empty_tensors():
    for shape in [(0,), (2, 0, 3)]:
        x = torch.empty(shape)
        p = pyasc.from_dlpack(x)
        assert p.shape == shape and p.numpy().shape == shape
        assert torch.from_dlpack(p).shape == shape


# --- import: protocol details (hand-made producer) --------------------------------


def test_producer_deleter_runs_once_after_the_last_view():
    a = np.arange(12, dtype=np.float32)
    producer = Producer(a)
    t = pyasc.from_dlpack(producer.capsule)
    assert capsule_name(producer.capsule) == "used_dltensor_versioned"
    assert t.data_ptr == a.ctypes.data
    view = t[3:]
    del t
    gc.collect()
    assert producer.deleted == 0
    del view
    gc.collect()
    assert producer.deleted == 1
    del producer.capsule
    gc.collect()
    assert producer.deleted == 1


def test_deleter_runs_after_a_kernel_that_held_the_memory():
    a = np.arange(100_000, dtype=np.float64)
    producer = Producer(a, versioned=False)
    t = pyasc.from_dlpack(producer.capsule)
    assert capsule_name(producer.capsule) == "used_dltensor"
    u = t * 2  # the launch holds the storage until it has run
    del t
    pyasc.synchronize()
    gc.collect()
    assert producer.deleted == 1
    np.testing.assert_array_equal(u.numpy(), a * 2)


def test_capsule_can_be_consumed_once():
    producer = Producer(np.arange(3, dtype=np.int64))
    first = pyasc.from_dlpack(producer.capsule)
    with pytest.raises(pyasc.InvalidValueError, match="already consumed"):
        pyasc.from_dlpack(producer.capsule)
    t = pyasc.Tensor(np.arange(3.0))
    capsule = t.__dlpack__(max_version=(1, 0))
    np_first = pyasc.from_dlpack(capsule)
    with pytest.raises(ValueError, match="already consumed"):
        pyasc.from_dlpack(capsule)
    assert first.numpy().tolist() == [0, 1, 2] and np_first.numpy().tolist() == [0.0, 1.0, 2.0]
    del first
    gc.collect()
    assert producer.deleted == 1


def test_byte_offset_and_null_strides():
    a = np.arange(24, dtype=np.int32)
    producer = Producer(a, shape=(2, 3), byte_offset=2 * 4)
    t = pyasc.from_dlpack(producer.capsule)
    assert t.data_ptr == a.ctypes.data + 8
    assert t.strides == (12, 4)
    np.testing.assert_array_equal(t.numpy(), a[2:8].reshape(2, 3))
    producer = Producer(a, shape=(3, 2), strides=(-2, 5), byte_offset=16 * 4)
    t = pyasc.from_dlpack(producer.capsule)
    np.testing.assert_array_equal(t.numpy(), [[16, 21], [14, 19], [12, 17]])
    odd = np.arange(10, dtype=np.uint8)
    t = pyasc.from_dlpack(Producer(odd, shape=(3,), byte_offset=3).capsule)
    assert t.numpy().tolist() == [3, 4, 5]


def test_read_only_memory_is_shared():
    a = np.arange(6.0)
    a.flags.writeable = False
    t = pyasc.from_dlpack(a)  # NumPy marks it read-only; pyasc shares it as is
    assert t.data_ptr == a.ctypes.data
    np.testing.assert_array_equal(t.numpy(), a)
    b = np.broadcast_to(np.arange(3.0), (4, 3))
    u = pyasc.from_dlpack(b)
    assert u.strides == (0, 8) and u.data_ptr == b.ctypes.data
    np.testing.assert_array_equal(u.numpy(), b)
    producer = Producer(np.arange(4, dtype=np.int8), flags=READ_ONLY)
    v = pyasc.from_dlpack(producer.capsule)
    assert v.numpy().tolist() == [0, 1, 2, 3]
    c = pyasc.from_dlpack(a, copy=True)
    assert c.data_ptr != a.ctypes.data
    np.testing.assert_array_equal(c.numpy(), a)


def test_import_copy():
    a = np.arange(8, dtype=np.float32)
    producer = Producer(a)
    c = pyasc.from_dlpack(producer.capsule, copy=True)
    assert producer.deleted == 1  # the copy is ready: the original went back
    assert c.data_ptr != a.ctypes.data
    a[0] = 99
    assert c[0].item() == 0
    s = pyasc.from_dlpack(a, copy=False)
    assert s.data_ptr == a.ctypes.data
    t = pyasc.Tensor(np.arange(3))
    assert pyasc.from_dlpack(t).data_ptr == t.data_ptr
    assert pyasc.from_dlpack(t, copy=True).data_ptr != t.data_ptr
    x = torch.arange(4.0)
    assert pyasc.from_dlpack(x, copy=True).data_ptr != x.data_ptr()


def test_empty_with_null_data():
    producer = Producer(np.zeros(0, dtype=np.float32), shape=(4, 0), data=0)
    t = pyasc.from_dlpack(producer.capsule)
    assert t.shape == (4, 0) and t.numpy().shape == (4, 0)
    bad = Producer(np.zeros(1, dtype=np.float32), shape=(), data=0)
    with pytest.raises(pyasc.InvalidValueError, match="NULL"):
        pyasc.from_dlpack(bad.capsule)
    assert capsule_name(bad.capsule) == "dltensor_versioned"


@pytest.mark.parametrize(
    "kwargs, error, match",
    [
        ({"device": (KDLCUDA, 0)}, pyasc.UnsupportedError, r"DLPack device \(2, 0\) \(CUDA\)"),
        ({"device": (3, 0)}, pyasc.UnsupportedError, "host memory"),
        ({"dtype": (KDLCOMPLEX, 32, 1)}, pyasc.DTypeError, "complex, 32 bits"),
        ({"dtype": (KDLUINT, 4, 1)}, pyasc.DTypeError, "uint, 4 bits"),
        ({"dtype": (KDLUINT, 128, 1)}, pyasc.DTypeError, "no pyasc dtype"),
        ({"dtype": (KDLFLOAT, 8, 1)}, pyasc.DTypeError, "float, 8 bits"),
        ({"dtype": (10, 8, 1)}, pyasc.DTypeError, "code 10"),
        ({"dtype": (KDLFLOAT, 32, 4)}, pyasc.DTypeError, "4 lanes"),
        ({"version": (2, 0)}, BufferError, "version 2.0"),
        ({"shape": (-1,)}, pyasc.InvalidValueError, "negative"),
        ({"shape": (1,) * 17}, pyasc.InvalidValueError, "17 dimensions"),
        ({"shape": (2**40, 2**40), "strides": (2**40, 1)}, pyasc.InvalidValueError, "overflow"),
    ],
)
def test_import_errors_leave_the_capsule_unconsumed(kwargs, error, match):
    producer = Producer(np.zeros(4, dtype=np.float32), **kwargs)
    with pytest.raises(error, match=match):
        pyasc.from_dlpack(producer.capsule)
    assert capsule_name(producer.capsule) == "dltensor_versioned"
    assert producer.deleted == 0


def test_import_argument_errors():
    with pytest.raises(TypeError, match="__dlpack__"):
        pyasc.from_dlpack([1, 2, 3])
    with pytest.raises(TypeError, match="'dltensor' or 'dltensor_versioned'"):
        pyasc.from_dlpack(_capsule_new(id(object), b"other", None))
    with pytest.raises(TypeError, match="1 positional"):
        pyasc.from_dlpack(np.zeros(2), None)
    with pytest.raises(TypeError, match="copy"):
        pyasc.from_dlpack(np.zeros(2), copy=1)
    with pytest.raises(pyasc.InvalidValueError, match="device"):
        pyasc.from_dlpack(np.zeros(2), device="cpu:99")
    t = pyasc.from_dlpack(np.arange(2.0), device="cpu:0")
    assert t.device == "cpu:0"


class _OnCuda:
    calls = 0

    def __dlpack_device__(self):
        return (KDLCUDA, 1)

    def __dlpack__(self, **kwargs):
        _OnCuda.calls += 1
        raise AssertionError("must not be asked for a capsule")


class _Legacy:
    """A producer from before DLPack 1.0: __dlpack__ takes no max_version."""

    def __init__(self, array):
        self.array = array
        self.calls = []

    def __dlpack__(self, stream=None):
        self.calls.append(stream)
        return self.array.__dlpack__()


class _NotACapsule:
    def __dlpack__(self, **kwargs):
        return 42


def test_producers_of_every_kind():
    with pytest.raises(pyasc.UnsupportedError, match=r"_OnCuda lives on DLPack device \(2, 1\)"):
        pyasc.from_dlpack(_OnCuda())
    assert _OnCuda.calls == 0
    legacy = _Legacy(np.arange(4, dtype=np.int16))
    t = pyasc.from_dlpack(legacy)
    assert legacy.calls == [None] and t.data_ptr == legacy.array.ctypes.data
    assert t.numpy().tolist() == [0, 1, 2, 3]
    with pytest.raises(TypeError, match="returned int, not a capsule"):
        pyasc.from_dlpack(_NotACapsule())


def test_numpy_producer_reference_is_dropped_exactly_once():
    a = np.arange(50.0)
    base = sys.getrefcount(a)
    t = pyasc.from_dlpack(a)
    assert sys.getrefcount(a) == base + 1  # NumPy's manager holds the array
    v = t[::5]
    del t
    gc.collect()
    assert sys.getrefcount(a) == base + 1
    del v
    gc.collect()
    assert sys.getrefcount(a) == base
