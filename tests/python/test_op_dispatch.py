"""The C call path of @pyasc.op operators (pyasc._C.OpDispatch, the base
class of pyasc.op.Op): a cached signature runs from the C key lookup to
its entry without the Python miss handler; everything else (first calls,
bad arguments, arguments the C path cannot key) goes through it and gets
the same answers and errors as before."""

from __future__ import annotations

import sys
import threading

import numpy as np
import pytest

import pyasc
from pyasc import _C, _fuse_run


def _no_miss(op, monkeypatch):
    """Makes the Python miss handler of ``op`` raise: a call that still
    works ran on the C path alone."""

    def refuse(key, args, kwargs):
        raise AssertionError(f"Python path taken (key {key!r})")

    monkeypatch.setattr(op, "_dispatch_miss", refuse)


@pytest.fixture
def axpy():
    @pyasc.op(overwrite=True)
    def disp_axpy(x, y, alpha=2.0):
        return x * alpha + y

    yield disp_axpy
    sys.modules["pyasc.op"].unregister("disp_axpy")


def t(values, dtype=np.float32):
    return pyasc.asarray(np.asarray(values, dtype=dtype))


def test_op_is_an_op_dispatch(axpy):
    assert isinstance(axpy, _C.OpDispatch)


def test_cached_call_takes_the_c_path(axpy, monkeypatch):
    x, y = t([1, 2, 3]), t([10, 20, 30])
    first = axpy(x, y)
    assert len(axpy._dispatch_entries) == 1
    _no_miss(axpy, monkeypatch)
    np.testing.assert_array_equal(axpy(x, y).numpy(), first.numpy())
    np.testing.assert_array_equal(axpy(t([4, 5, 6]), y).numpy(), [18, 30, 42])
    with pytest.raises(AssertionError, match="Python path"):  # a new shape: a miss
        axpy(t([1, 2]), t([1, 2]))


def test_keyword_calls_are_cached_per_keyword_order(axpy, monkeypatch):
    x, y = t([1, 2]), t([3, 4])
    want = [5.0, 8.0]
    np.testing.assert_array_equal(axpy(x, y=y).numpy(), want)
    np.testing.assert_array_equal(axpy(y=y, x=x).numpy(), want)
    np.testing.assert_array_equal(axpy(x, y, alpha=3.0).numpy(), [6.0, 10.0])
    assert len(axpy._dispatch_entries) == 3
    _no_miss(axpy, monkeypatch)
    np.testing.assert_array_equal(axpy(x, y=y).numpy(), want)
    np.testing.assert_array_equal(axpy(y=y, x=x).numpy(), want)
    np.testing.assert_array_equal(axpy(x, y, alpha=3.0).numpy(), [6.0, 10.0])


def test_key_parts(axpy):
    x = t([1, 2, 3])
    k = axpy._call_key
    assert k((x, x), {}) == k((t([4, 5, 6]), x), {})  # values are not in the key
    assert k((x, x), {}) != k((x, t([1, 2, 3], np.float16)), {})  # dtype
    assert k((x, x), {}) != k((x, t([[1, 2, 3]])), {})  # shape
    assert k((x, 1.0), {}) == k((x, 2.5), {})  # a scalar input's value is not
    assert k((x, 1.0), {}) != k((x, 1), {})  # but its type is
    assert k((x, 1), {}) != k((x, True), {})
    assert k((x, x, 2.0), {}) != k((x, x, 3.0), {})  # attribute values are
    assert k((x, x, 2.0), {}) != k((x, x, 2), {})  # with their type
    assert k((x, x), {}) != k((x,), {"y": x})  # keywords
    a = np.ones(3, np.float32)
    assert k((a, a), {}) == k((np.zeros(3, np.float32), a), {})  # described by Python
    assert k((a, a), {}) != k((a, np.ones(3, np.float64)), {})


def test_scalar_inputs_keep_their_values(axpy, monkeypatch):
    x = t([1, 2])
    np.testing.assert_array_equal(axpy(x, 1.0).numpy(), [3.0, 5.0])
    _no_miss(axpy, monkeypatch)
    np.testing.assert_array_equal(axpy(x, -4.0).numpy(), [-2.0, 0.0])


def test_numpy_inputs_on_the_c_path(axpy, monkeypatch):
    a = np.array([1, 2], np.float32)
    axpy(a, a)
    _no_miss(axpy, monkeypatch)
    np.testing.assert_array_equal(axpy(a * 2, a).numpy(), [5.0, 10.0])


def test_bad_calls_raise_every_time_and_are_not_cached(axpy):
    x = t([1, 2])
    for _ in range(2):
        with pytest.raises(pyasc.DTypeError, match="unexpected keyword|no_such"):
            axpy(x, x, no_such=1)
        with pytest.raises(pyasc.DTypeError, match="too many|positional"):
            axpy(x, x, 1.0, 2.0)
        with pytest.raises(pyasc.DTypeError, match="multiple values"):
            axpy(x, x, x=x)
        with pytest.raises(pyasc.DTypeError, match="alpha"):  # unhashable attribute value
            axpy(x, x, alpha=[1.0])
        with pytest.raises(pyasc.DTypeError, match="alpha"):
            axpy(x, x, alpha="two")
        with pytest.raises(pyasc.DTypeError):  # more arguments than the C key holds
            axpy(*[x] * 40)
    assert axpy._dispatch_entries == {}
    assert axpy._specs == {}


def test_eager_signature_checks_outputs_each_call(monkeypatch):
    @pyasc.op(outputs={"out": pyasc.TensorSpec(dtypes=pyasc.float32)}, overwrite=True)
    def disp_branchy(x):
        if float(x.sum()) > 0:  # data-dependent: runs eagerly
            return x * 2
        return x.astype(pyasc.float16)

    x = t([1, 2])
    np.testing.assert_array_equal(disp_branchy(x).numpy(), [2.0, 4.0])
    assert "eager" in disp_branchy.explain(x).lower() or "data" in disp_branchy.explain(x)
    _no_miss(disp_branchy, monkeypatch)
    with pytest.raises(pyasc.DTypeError, match="float16"):
        disp_branchy(t([-1, -2]))


def test_eviction_keeps_the_tables_in_step(axpy, monkeypatch):
    monkeypatch.setattr(_fuse_run, "MAX_SIGNATURES", 2)
    for n in range(1, 6):
        x = t(np.arange(n))
        np.testing.assert_array_equal(axpy(x, x).numpy(), np.arange(n) * 3.0)
    assert len(axpy._specs) == 2
    assert list(axpy._dispatch_entries) == list(axpy._specs)


def test_threads_share_the_cache(axpy):
    x = t(np.arange(8))
    want = (np.arange(8) * 3.0).tolist()
    bad: list[object] = []

    def work() -> None:
        for _ in range(50):
            got = axpy(x, x).tolist()
            if got != want:
                bad.append(got)

    threads = [threading.Thread(target=work) for _ in range(4)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    assert not bad
    assert len(axpy._dispatch_entries) == 1


def test_dispatch_key_refuses_bad_arguments(axpy):
    with pytest.raises(TypeError, match="tuple"):
        axpy._dispatch_key([1], None)
    with pytest.raises(TypeError, match="tuple"):
        axpy._dispatch_key((1,), [])
    with pytest.raises(TypeError):
        axpy._dispatch_key((1,))
    assert axpy._dispatch_key((1, 2), None) is None  # a layout not registered yet


def test_bad_layout_roles_are_an_error_not_a_crash(axpy):
    axpy._dispatch_layouts[2] = b"i"  # does not fit a two-argument call
    with pytest.raises(SystemError, match="roles"):
        axpy(t([1]), t([1]))
    axpy._dispatch_layouts[2] = b"ii"
    np.testing.assert_array_equal(axpy(t([1]), t([1])).numpy(), [3.0])


def test_bare_op_dispatch_has_no_miss_handler():
    bare = _C.OpDispatch()
    with pytest.raises(AttributeError, match="_dispatch_miss"):
        bare(1)
    assert bare._dispatch_entries == {} and bare._dispatch_layouts == {}


def test_tensor_only_entry_is_the_body(axpy):
    x = t([1.0])
    axpy(x, x)
    (spec,) = axpy._specs.values()
    assert spec.flat_entry is spec.body
    axpy(x, 1.0)  # a scalar converts first: a generated entry
    assert any(s.flat_entry is not s.body for s in axpy._specs.values())


def test_an_op_and_its_compiled_signatures_are_collected():
    import gc
    import weakref

    @pyasc.op(name="disp_collected", overwrite=True)
    def disp_collected(x):
        return x * 2.0 + 1.0

    disp_collected(t([1.0, 2.0]))
    assert len(disp_collected._dispatch_entries) == 1
    ref = weakref.ref(disp_collected)
    sys.modules["pyasc.op"].unregister("disp_collected")
    del disp_collected
    gc.collect()
    assert ref() is None  # the entries' cycle back to the op is traversed


def test_copied_op_calls_and_keeps_its_own_tables(axpy):
    import copy

    x = t([1.0])
    axpy(x, x)
    twin = copy.copy(axpy)
    assert isinstance(twin, _C.OpDispatch)
    np.testing.assert_array_equal(twin(x, x).numpy(), [3.0])
    assert twin._dispatch_entries is not axpy._dispatch_entries
    assert len(twin._dispatch_entries) == 1  # the compiled signatures so far
    twin(t([1.0, 2.0]), t([1.0, 2.0]))
    assert len(twin._dispatch_entries) == 2 and len(axpy._dispatch_entries) == 1
