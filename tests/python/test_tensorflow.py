"""TensorFlow interop: DLPack both ways, and ``@pyasc.op`` on ``tf.Tensor``s.

TensorFlow (the ``tensorflow-cpu`` wheel pinned in requirements-dev.txt) is
imported by the first test that needs it, not at collection, so the rest of
the suite never pays for it. Zero copy is proven by writes that show on the
other side (TensorFlow offers no public data pointer). The module is skipped
only when TensorFlow is not installed at all: a broken install fails loudly.
"""

from __future__ import annotations

import gc
import importlib.util
import os
import subprocess
import sys
import textwrap
from types import ModuleType

import numpy as np
import pytest

import pyasc
from pyasc import _frameworks
from pyasc.op import unregister

if importlib.util.find_spec("tensorflow") is None:
    pytest.skip("tensorflow is not installed (see requirements-dev.txt)", allow_module_level=True)

DTYPES = ["bool_", "int8", "uint8", "int16", "int32", "int64", "float16", "bfloat16", "float32",
          "float64"]


@pytest.fixture(scope="module")
def tf() -> ModuleType:
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")  # no start-up banner in test output
    import tensorflow

    # TensorFlow leaves a large object graph; nothing in it is garbage, so the
    # per-test leak check's gc.collect() need not walk it again.
    gc.freeze()
    return tensorflow


def tf_from_pyasc(tf: ModuleType, t: pyasc.Tensor) -> object:
    return tf.experimental.dlpack.from_dlpack(t.__dlpack__())


# --- DLPack, TensorFlow -> pyasc ------------------------------------------


def test_from_dlpack_shares_tensorflow_memory(tf):
    x = tf.constant(np.arange(6, dtype=np.float32).reshape(2, 3))
    t = pyasc.from_dlpack(x)
    assert t.shape == (2, 3) and t.dtype == pyasc.float32
    np.testing.assert_array_equal(t.numpy(), x.numpy())
    t[1, 2] = 100.0
    assert x.numpy()[1, 2] == 100.0  # the write shows in TensorFlow: one buffer


def test_from_dlpack_accepts_tensorflow_capsule(tf):
    x = tf.constant([1, 2, 3], dtype=tf.int32)
    t = pyasc.from_dlpack(tf.experimental.dlpack.to_dlpack(x))
    t[0] = 9
    assert x.numpy().tolist() == [9, 2, 3]


def test_tensorflow_memory_outlives_its_tensor(tf):
    x = tf.constant(np.arange(1000, dtype=np.float64))
    t = pyasc.from_dlpack(x)
    del x
    gc.collect()
    assert float(t.sum()) == 499500.0


@pytest.mark.parametrize("shape", [(), (0,), (0, 3), (2, 3, 4)])
def test_from_dlpack_shapes(tf, shape):
    x = tf.ones(shape, dtype=tf.float32)
    t = pyasc.from_dlpack(x)
    assert t.shape == shape
    np.testing.assert_array_equal(t.numpy(), np.ones(shape, np.float32))


def test_from_dlpack_of_a_transposed_tensorflow_tensor(tf):
    x = tf.transpose(tf.constant(np.arange(6, dtype=np.int64).reshape(2, 3)))
    np.testing.assert_array_equal(pyasc.from_dlpack(x).numpy(), np.arange(6).reshape(2, 3).T)


def test_from_dlpack_rejects_a_variable_with_a_clear_error(tf):
    # tf.Variable has no __dlpack__; tf.convert_to_tensor gives a tensor that does.
    v = tf.Variable([1.0, 2.0])
    with pytest.raises(TypeError, match="__dlpack__"):
        pyasc.from_dlpack(v)
    assert pyasc.from_dlpack(tf.convert_to_tensor(v)).tolist() == [1.0, 2.0]


def test_asarray_of_tensorflow_shares_read_only_and_reads_bfloat16(tf):
    x = tf.constant([1.0, 2.0])
    t = pyasc.asarray(x)  # the buffer protocol: shared, and read-only as TensorFlow means
    assert t.data_ptr == pyasc.from_dlpack(x).data_ptr
    with pytest.raises(pyasc.InvalidValueError, match="read-only"):
        t[0] = 5.0
    # PEP 3118 buffers cannot say bfloat16: asarray falls back to DLPack.
    b = pyasc.asarray(tf.constant([1.5, -2.0], dtype=tf.bfloat16))
    assert b.dtype == pyasc.bfloat16 and b.tolist() == [1.5, -2.0]


def test_string_tensors_are_refused_without_crashing():
    # TensorFlow aborts the process when a string tensor is exported by DLPack:
    # pyasc must not ask it to (its buffer, of format 'O', says enough). Run
    # apart so that a regression fails this test rather than the whole suite.
    code = textwrap.dedent("""
        import tensorflow as tf, pyasc
        x = tf.constant(["a", "b"])
        for convert in (pyasc.asarray, pyasc.op(name="tf_strings")(lambda x: x)):
            try:
                convert(x)
            except pyasc.DTypeError as exc:
                print("DTypeError", exc)
    """)
    env = {**os.environ, "TF_CPP_MIN_LOG_LEVEL": "3"}
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env,
                         timeout=300)
    assert run.returncode == 0, run.stderr[-2000:]
    assert run.stdout.count("DTypeError") == 2, run.stdout


# --- DLPack, pyasc -> TensorFlow ------------------------------------------


def test_tensorflow_shares_pyasc_memory(tf):
    t = pyasc.arange(6, dtype=pyasc.float32).reshape(2, 3)
    y = tf_from_pyasc(tf, t)
    assert y.shape == (2, 3) and y.dtype == tf.float32
    t[0, 0] = 7.0
    assert y.numpy()[0, 0] == 7.0  # TensorFlow reads pyasc's buffer
    del t
    gc.collect()
    assert y.numpy().tolist() == [[7.0, 1.0, 2.0], [3.0, 4.0, 5.0]]  # and keeps it alive


@pytest.mark.parametrize("dtype", DTYPES)
def test_round_trip_every_dtype(tf, dtype):
    t = pyasc.arange(5, dtype=pyasc.float32).astype(dtype)
    y = tf_from_pyasc(tf, t)
    assert y.dtype.name == ("bool" if dtype == "bool_" else dtype)
    back = pyasc.from_dlpack(y)
    assert back.dtype == pyasc.dtype(dtype)
    assert back.tolist() == t.tolist()


def test_tensorflow_refuses_strided_pyasc_tensors(tf):
    # TensorFlow imports only C-contiguous DLPack tensors; .contiguous() first.
    t = pyasc.arange(6, dtype=pyasc.float32).reshape(2, 3).T
    with pytest.raises(tf.errors.InvalidArgumentError, match="strides"):
        tf_from_pyasc(tf, t)
    np.testing.assert_array_equal(tf_from_pyasc(tf, t.contiguous()).numpy(), t.numpy())


# --- @pyasc.op on tf.Tensor ----------------------------------------------


@pytest.fixture
def ops():
    names: list[str] = []

    def define(fn, **kw):
        op = pyasc.op(name=f"tftest_{fn.__name__}", overwrite=True, **kw)(fn)
        names.append(op.name)
        return op

    yield define
    for name in names:
        unregister(name)


def test_op_on_tensorflow_tensors_returns_tensorflow_tensors(tf, ops):
    def scale_add(x, y, alpha: float = 2.0):
        return x * alpha + y

    op = ops(scale_add)
    x = tf.constant([1.0, 2.0, 3.0])
    y = tf.constant([10.0, 20.0, 30.0])
    out = op(x, y, alpha=3.0)
    assert isinstance(out, tf.Tensor)
    assert out.dtype == tf.float32
    np.testing.assert_allclose(out.numpy(), [13.0, 26.0, 39.0])
    # Keyword inputs count too.
    assert isinstance(op(x=x, y=y), tf.Tensor)


def test_op_output_shares_memory_with_tensorflow(tf, ops):
    kept = []

    def keep(x):
        r = x + 1
        kept.append(r)
        return r

    out = ops(keep)(tf.constant([1.0, 2.0]))
    kept[0][0] = 42.0  # the pyasc result and the tf.Tensor are one buffer
    assert out.numpy().tolist() == [42.0, 3.0]


def test_op_tuple_outputs_with_tensorflow(tf, ops):
    def split(x):
        return x.max(), x.argmax()

    op = ops(split, outputs=("value", "index"))
    value, index = op(tf.constant([3, 9, 4], dtype=tf.int32))
    assert isinstance(value, tf.Tensor) and isinstance(index, tf.Tensor)
    assert int(value) == 9 and int(index) == 1
    assert index.dtype == tf.int64


def test_op_mixed_inputs_follow_the_tensorflow_one(tf, ops):
    def add(x, y):
        return x + y

    op = ops(add)
    out = op(np.array([1, 2], dtype=np.int32), tf.constant([3, 4], dtype=tf.int32))
    assert isinstance(out, tf.Tensor)
    assert out.numpy().tolist() == [4, 6]
    plain = op(np.array([1, 2]), np.array([3, 4]))
    assert isinstance(plain, pyasc.Tensor)  # no framework input: pyasc out


def test_op_strided_and_read_only_results_convert(tf, ops):
    def transposed(x):
        return x.T  # a strided view, which TensorFlow cannot import as is

    def same(x):
        return x  # the input itself: TensorFlow's memory, shared read-only

    x = tf.constant(np.arange(6, dtype=np.float32).reshape(2, 3))
    out = ops(transposed)(x)
    assert isinstance(out, tf.Tensor)
    np.testing.assert_array_equal(out.numpy(), x.numpy().T)
    out = ops(same)(x)
    assert isinstance(out, tf.Tensor)
    np.testing.assert_array_equal(out.numpy(), x.numpy())


def test_op_bfloat16_result(tf, ops):
    def halve(x):
        return x * 0.5

    out = ops(halve)(tf.constant([1.0, 3.0], dtype=tf.bfloat16))
    assert isinstance(out, tf.Tensor) and out.dtype == tf.bfloat16
    assert out.numpy().astype(np.float32).tolist() == [0.5, 1.5]


def test_op_errors_stay_pyasc_errors(tf, ops):
    def need_float(x):
        return x

    op = ops(need_float, inputs={"x": pyasc.TensorSpec(dtypes=(pyasc.float32,))})
    with pytest.raises(pyasc.DTypeError, match="need_float: input 'x' has dtype int32"):
        op(tf.constant([1], dtype=tf.int32))


def test_converter_table_is_keyed_by_package(tf):
    x = tf.constant([1.0])
    assert _frameworks.converter_for([1, np.ones(1), x]) is _frameworks.CONVERTERS["tensorflow"]
    assert _frameworks.converter_for([1, np.ones(1), pyasc.ones(1)]) is None
    t = pyasc.ones(2)
    # Results that hold no tensor are left as they are.
    assert _frameworks.to_caller("text", (x,), {}) == "text"
    mixed = _frameworks.to_caller((t, 3), (x,), {})
    assert isinstance(mixed[0], tf.Tensor) and mixed[1] == 3


# --- the four operators the framework bridges share --------------------------


@pytest.mark.parametrize("name", ["my_custom_op", "chain", "entropy", "linear_gelu"])
def test_shared_operators_round_trip_tensorflow(tf, name):
    from framework_ops import drop_ops, make_ops, sample_inputs

    shared = make_ops("tf_round_trip")
    try:
        arrays = sample_inputs(name, np.random.default_rng(7))
        expected = np.asarray(shared[name](*arrays).numpy())  # the same op on NumPy inputs
        out = shared[name](*[tf.constant(a) for a in arrays])
        assert isinstance(out, tf.Tensor)
        assert out.dtype == tf.float64
        np.testing.assert_array_equal(out.numpy(), expected)
    finally:
        drop_ops(shared)
