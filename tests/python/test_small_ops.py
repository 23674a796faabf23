"""The fast paths of small calls keep their semantics: a small tensor
operation (run on the calling thread when its stream is idle), a Python
scalar operand (a 0-d tensor outside the allocator) and a synchronous kernel
launch on NumPy arrays (run on the calling thread, all blocks) stay in stream
order, report their errors as before and are safe from several threads."""

from __future__ import annotations

import threading
import weakref

import numpy as np
import pytest

import pyasc
from pyasc import testing

BLOCKS = 8
N = 64


@pyasc.jit
def add_blocks(x: pyasc.GlobalAddress, y: pyasc.GlobalAddress, z: pyasc.GlobalAddress, n: int):
    off = pyasc.get_block_idx() * n
    xg, yg, zg = pyasc.GlobalTensor(), pyasc.GlobalTensor(), pyasc.GlobalTensor()
    xg.set_global_buffer(x + off, n)
    yg.set_global_buffer(y + off, n)
    zg.set_global_buffer(z + off, n)
    xl = pyasc.LocalTensor(x.dtype, pyasc.TPosition.VECIN, 0, n)
    yl = pyasc.LocalTensor(x.dtype, pyasc.TPosition.VECIN, n * 4, n)
    pyasc.data_copy(xl, xg, n)
    pyasc.data_copy(yl, yg, n)
    pyasc.set_flag(pyasc.HardEvent.MTE2_V, 0)
    pyasc.wait_flag(pyasc.HardEvent.MTE2_V, 0)
    pyasc.add(xl, xl, yl, n)
    pyasc.set_flag(pyasc.HardEvent.V_MTE3, 0)
    pyasc.wait_flag(pyasc.HardEvent.V_MTE3, 0)
    pyasc.data_copy(zg, xl, n)


@pyasc.jit
def trap_in_block(x: pyasc.GlobalAddress, bad_block: int):
    if pyasc.get_block_idx() == bad_block:
        pyasc.trap()


@pytest.fixture
def stream():
    s = pyasc.Stream()
    yield s
    s.destroy()


# --- ordering ----------------------------------------------------------------


@pytest.mark.parametrize("op", [
    lambda t: t.__iadd__(1.0),
    lambda t: pyasc.exp(t, out=t),
    lambda t: pyasc.add(t, t, out=t),
])
def test_small_op_waits_for_queued_work_on_its_stream(stream, op):
    host = np.ones(16, np.float32)
    t = pyasc.from_numpy(host)  # shares host: a write shows without a sync
    with pyasc.stream(stream):
        testing.spin(200, stream=stream)  # the stream is busy for 200 ms
        op(t)
        assert (host == 1).all(), "a small op ran before the work queued ahead of it"
        stream.synchronize()
    assert (host > 1).all()


def test_small_ops_chain_behind_queued_work(stream):
    with pyasc.stream(stream):
        big = pyasc.ones(1 << 20, pyasc.float32)
        total = big.sum()  # large: queued on the stream's thread
        small = (total + 1.0) * 2.0  # small: must follow it, not overtake it
        part = pyasc.full((16,), 3.0, pyasc.float32).sum()  # a small reduction after it
        assert small.item() == ((1 << 20) + 1.0) * 2.0
        assert part.item() == 48.0


def test_small_reduction_and_fill_waits_for_queued_work(stream):
    host = np.ones(16, np.float32)
    t = pyasc.from_numpy(host)
    with pyasc.stream(stream):
        testing.spin(200, stream=stream)
        total = t.sum()
        t.fill(5.0)
        assert host.sum() == 16.0
        assert total.item() == 16.0  # read before the fill: stream order
    assert host.sum() == 80.0


# --- errors ------------------------------------------------------------------


def test_failure_of_a_small_op_is_reported_at_synchronize(stream):
    with pyasc.stream(stream):
        x = pyasc.Tensor(np.full(4, 2, np.int32))
        y = pyasc.Tensor(np.full(4, -1, np.int32))
        r = x**y  # runs inline and fails: kept for the next synchronisation
        after = x + x  # the stream holds an error: queued and skipped
        with pytest.raises(pyasc.Error, match="negative integer powers"):
            stream.synchronize()
        stream.synchronize()  # reported once
        with pytest.raises(pyasc.DeviceError, match="power"):
            r.numpy()
        with pytest.raises(pyasc.DeviceError, match="skipped"):
            after.numpy()
        assert (x + x).numpy().tolist() == [4, 4, 4, 4]  # the stream is usable again


def test_scalar_operand_errors_and_types_are_unchanged():
    u8 = pyasc.Tensor(np.arange(4, dtype=np.uint8))
    with pytest.raises(OverflowError, match="300"):
        u8 + 300
    assert (u8 + 3).dtype == pyasc.uint8  # weak Python int
    assert (u8 + 3.5).dtype == pyasc.float64  # weak Python float next to an integer dtype
    assert (u8 < 300).numpy().all()  # exact comparison with an int beyond the dtype
    f32 = pyasc.Tensor(np.ones(4, np.float32))
    assert (f32 * 2.0).dtype == pyasc.float32
    assert (2.0 - f32).numpy().tolist() == [1.0] * 4


def test_tensor_made_from_scalars_is_an_ordinary_tensor():
    r = pyasc.add(1, 2)  # both scalars: the first becomes a 0-d tensor
    assert r.shape == () and r.item() == 3
    r += 1  # written in place
    assert r.item() == 4
    assert np.asarray(r).tolist() == 4
    ref = weakref.ref(r)
    del r
    assert ref() is None  # freed at once: Tensors are not left to the cyclic GC


# --- threads -----------------------------------------------------------------


@pytest.mark.parametrize("shared", [False, True], ids=["default-stream", "shared-stream"])
def test_two_threads_doing_small_ops_on_one_stream(shared):
    s = pyasc.Stream() if shared else None
    results: dict[int, np.ndarray] = {}
    errors: list[BaseException] = []
    start = threading.Barrier(2)

    def worker(k: int) -> None:
        try:
            with pyasc.stream(s):
                start.wait()
                a = pyasc.full((16,), float(k), pyasc.float32)
                for i in range(500):
                    a = a + 1.0
                    if k == 1 and i % 100 == 0:  # interleave queued work on the same stream
                        pyasc.ones(1 << 18, pyasc.float32).sum()
                results[k] = (a * 2.0).numpy()
        except BaseException as e:  # noqa: BLE001 - reported by the test thread
            errors.append(e)

    threads = [threading.Thread(target=worker, args=(k,)) for k in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    if s is not None:
        s.destroy()
    assert not errors
    for k in range(2):
        assert results[k].tolist() == [2.0 * (k + 500)] * 16


# --- synchronous kernel launches on NumPy arrays ------------------------------


def _operands(i: int):
    x = np.full(BLOCKS * N, float(i), np.float32)
    y = np.arange(BLOCKS * N, dtype=np.float32)
    return x, y, np.zeros_like(x)


def test_numpy_launch_runs_every_block(stream):
    x, y, z = _operands(2)
    add_blocks[BLOCKS, stream](x, y, z, N)
    assert np.array_equal(z, x + y)


def test_numpy_launch_after_async_tensor_work_on_its_stream(stream):
    x, y, z = _operands(4)
    host = np.zeros(16, np.float32)
    t = pyasc.from_numpy(host)
    with pyasc.stream(stream):
        testing.spin(100, stream=stream)
        t += 1.0  # queued behind the spin
        add_blocks[BLOCKS, stream](x, y, z, N)  # waits for both, then runs
        assert host.all()
        assert np.array_equal(z, x + y)


def test_numpy_launch_error_after_an_earlier_async_failure(stream):
    t = pyasc.zeros(8, pyasc.float32)
    x = np.zeros(8, np.float32)
    trap_in_block[BLOCKS, stream](t, 1)  # asynchronous: fails on the stream
    with pytest.raises(pyasc.KernelError, match="trap"):
        trap_in_block[BLOCKS, stream](x, BLOCKS)  # synchronous: reports the pending failure
    trap_in_block[BLOCKS, stream](x, BLOCKS)  # reported once: the stream is usable


def test_numpy_launches_from_two_threads_on_one_stream(stream):
    errors: list[BaseException] = []
    wrong = [0, 0]

    def worker(k: int) -> None:
        try:
            for i in range(50):
                x, y, z = _operands(10 * k + i)
                add_blocks[BLOCKS, stream](x, y, z, N)
                wrong[k] += not np.array_equal(z, x + y)
        except BaseException as e:  # noqa: BLE001 - reported by the test thread
            errors.append(e)

    threads = [threading.Thread(target=worker, args=(k,)) for k in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    assert wrong == [0, 0]


# --- kernel[core_num, stream] in C ---------------------------------------------


def test_launch_of_a_built_kernel_runs_no_python(stream, monkeypatch):
    x, y, z = _operands(5)
    add_blocks[BLOCKS, stream](x, y, z, N)  # built and remembered
    slow_path: list[tuple] = []
    launch = add_blocks.launch
    monkeypatch.setattr(add_blocks, "launch", lambda *a: slow_path.append(a) or launch(*a))
    launcher = add_blocks[BLOCKS, stream]
    assert (launcher.kernel, launcher.core_num, launcher.stream) == (add_blocks, BLOCKS, stream)
    launcher(x, y, z, N)
    assert slow_path == []
    x16, y16, z16 = (a.astype(np.float16) for a in (x, y, z))
    launcher(x16, y16, z16, N)  # a new signature: Python builds it
    assert len(slow_path) == 1
    assert np.array_equal(z16, x16 + y16)
    launcher(z=z, y=y, x=x, n=N)  # keywords are bound by name
    assert np.array_equal(z, x + y)


def test_launch_argument_errors_are_unchanged():
    x, y, z = _operands(6)
    with pytest.raises(TypeError, match="core_num must be an int"):
        add_blocks[True]
    with pytest.raises(TypeError, match="core_num"):
        add_blocks[1, None, 2]
    with pytest.raises(TypeError):
        add_blocks[BLOCKS](x, y, z, N, 1)  # one too many
    with pytest.raises(TypeError):
        add_blocks[BLOCKS](x, y, z, N, bogus=1)
    with pytest.raises(TypeError):
        add_blocks[BLOCKS]()
