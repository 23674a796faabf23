"""Pickling and copying: tensors (every dtype, views, 0-d, empty), ops by
reference and generators by state, in this process and across worker
processes: multiprocessing's spawn pool, joblib's and Dask's."""

from __future__ import annotations

import copy
import multiprocessing
import pickle

import dask
import joblib
import numpy as np
import pytest

import pyasc
from pickle_ops import draw, run_in_worker, scale_shift
from pyasc.op import unregister

DTYPES = ["bool", "int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64", "float16",
          "float32", "float64", "complex64", "complex128"]


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("protocol", [2, pickle.HIGHEST_PROTOCOL])
def test_tensor_round_trip(dtype, protocol):
    a = (np.arange(24) % 7).astype(dtype).reshape(2, 3, 4)
    t = pyasc.asarray(a)
    for src in (t, t[:, ::-1, ::2], t[1], t[0, 0, 0], t[:0]):
        back = pickle.loads(pickle.dumps(src, protocol=protocol))
        assert back.dtype == src.dtype and back.shape == src.shape
        np.testing.assert_array_equal(back.numpy(), src.numpy())
        assert back.data_ptr != src.data_ptr or src.size == 0


def test_bfloat16_and_views_pickle_compactly():
    b = pyasc.asarray(np.float32([1.5, -2.0, 3.25])).astype("bfloat16")
    back = pickle.loads(pickle.dumps(b))
    assert back.dtype == pyasc.bfloat16
    np.testing.assert_array_equal(back.numpy(raw=True), b.numpy(raw=True))
    big = pyasc.zeros((1000, 1000))
    column = big[:, :1]
    assert len(pickle.dumps(column)) < 20_000  # the 1000 values it shows, not the whole storage


def test_copies_are_independent():
    t = pyasc.asarray([1.0, 2.0])
    for dup in (copy.deepcopy(t), copy.copy(t)):
        dup[0] = 9.0
        assert t[0].item() == 1.0
    read_only = np.arange(3.0)
    read_only.flags.writeable = False
    back = pickle.loads(pickle.dumps(pyasc.asarray(read_only)))
    back[0] = 5.0  # a copy owns its memory
    assert read_only[0] == 0.0


def test_generator_state_travels():
    g = pyasc.Generator(11)
    g.random((5,))
    h = pickle.loads(pickle.dumps(g))
    np.testing.assert_array_equal(g.random((4,)).numpy(), h.random((4,)).numpy())
    d = copy.deepcopy(g)
    np.testing.assert_array_equal(g.standard_normal((2,)).numpy(), d.standard_normal((2,)).numpy())


def test_op_pickles_by_reference():
    assert pickle.loads(pickle.dumps(scale_shift)) is scale_shift

    @pyasc.op(name="pickle_test_local_op", overwrite=True)
    def local(x):
        return x - 1.0

    # a local function: found by its registered name
    assert pickle.loads(pickle.dumps(local)) is pyasc.get_op("pickle_test_local_op")
    unregister("pickle_test_local_op")
    with pytest.raises(pyasc.InvalidValueError, match="no operator named 'pickle_test_local_op'"):
        pickle.loads(pickle.dumps(local))


@pytest.mark.slow
def test_spawned_workers_run_pickled_ops_on_pickled_tensors():
    ctx = multiprocessing.get_context("spawn")
    a = np.arange(6.0).reshape(2, 3)
    jobs = [(scale_shift, pyasc.asarray(a)), (scale_shift, pyasc.asarray(a.T.copy())[::-1])]
    with ctx.Pool(1) as pool:
        results = pool.map(run_in_worker, jobs)
        numbers = pool.map(draw, [pyasc.Generator(7)])
    for (tensor_in, (result, name)) in zip((j[1] for j in jobs), results):
        assert name == "scale_shift" and isinstance(result, pyasc.Tensor)
        np.testing.assert_allclose(result.numpy(), tensor_in.numpy() * 2.0 + 1.0)
    np.testing.assert_array_equal(numbers[0].numpy(), pyasc.Generator(7).random((3,)).numpy())


def test_joblib_workers_run_a_pyasc_op():
    """joblib's default process pool (loky) pickles the op by reference and
    the tensors by value; each worker imports pyasc and runs the op."""
    inputs = [pyasc.asarray(np.arange(4.0) + k) for k in range(3)]
    results = joblib.Parallel(n_jobs=2)(joblib.delayed(run_in_worker)((scale_shift, t))
                                        for t in inputs)
    for t, (result, name) in zip(inputs, results):
        assert name == "scale_shift"
        np.testing.assert_array_equal(result.numpy(), t.numpy() * 2.0 + 1.0)


def test_dask_delayed_task_runs_a_pyasc_op_in_a_process():
    """A Dask delayed graph on its multiprocessing scheduler: the op and
    the tensor travel to a worker process and the result comes back."""
    t = pyasc.asarray(np.linspace(-1.0, 1.0, 5))
    task = dask.delayed(run_in_worker)((scale_shift, t))
    result, name = task.compute(scheduler="processes", num_workers=1)
    assert name == "scale_shift"
    np.testing.assert_array_equal(result.numpy(), t.numpy() * 2.0 + 1.0)

