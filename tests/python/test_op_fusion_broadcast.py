"""Column inputs broadcast in the fused kernel (docs/op-compiler.md): an
input of the group's leading dimensions, ones after them ((M, 1) next to
(M, N)), whose values each fill whole 32-byte blocks of a tile. Fused
against eager and NumPy; other broadcasts keep their eager copy."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import pyasc
from pyasc import _fuse_plan

IN_KERNEL = "a column, each value filling its row of a tile (broadcast in the kernel)"


@pytest.fixture(autouse=True)
def launch_every_size(monkeypatch):
    monkeypatch.setenv("PYASC_OP_FUSE_MIN", "0")


@pyasc.op(name="fzb_scale", overwrite=True)
def scale(x, c):
    return (x + c) * c - 1


def _data(shape, dtype, seed):
    rng = np.random.default_rng(seed)
    if np.dtype(dtype).kind == "f":
        return (rng.standard_normal(shape) * 4).astype(dtype)
    return rng.integers(-300, 300, shape).astype(dtype)


def _check(op, *arrays, numpy_result):
    got = op(*arrays).numpy()
    eager = op.fn(*[pyasc.asarray(a) for a in arrays]).numpy()
    assert got.dtype == eager.dtype and got.shape == eager.shape
    np.testing.assert_array_equal(got, eager)
    np.testing.assert_array_equal(got, numpy_result)


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.int16, np.int32])
@pytest.mark.parametrize("shape,col", [((7, 32), (7, 1)), ((3, 5, 16), (3, 5, 1)),
                                       ((3, 5, 16), (3, 1, 1)), ((1, 6, 48), (6, 1)),
                                       ((1000, 48), (1000, 1))])
def test_column_broadcast_in_the_kernel(dtype, shape, col):
    x, c = _data(shape, dtype, 1), _data(col, dtype, 2)
    _check(scale, x, c, numpy_result=(x + c) * c - dtype(1))
    text = scale.explain(x, c)
    assert IN_KERNEL in text and "0 eager call" in text, text


@pytest.mark.parametrize("shape,col", [((7, 20), (7, 1)),  # 20 elements: not whole blocks
                                       ((2, 5, 16), (5, 1)),  # a leading broadcast too
                                       ((4, 16), (4,))])  # NumPy: a row of 4 against 16
def test_other_broadcasts_keep_the_eager_copy(shape, col):
    x, c = _data(shape, np.float32, 3), _data(col, np.float32, 4)
    if col == (4,):
        with pytest.raises(pyasc.Error):
            scale(x, c)
        return
    _check(scale, x, c, numpy_result=(x + c) * c - np.float32(1))
    assert "by one eager copy first" in scale.explain(x, c)


def test_column_and_row_in_one_kernel():
    @pyasc.op(name="fzb_outer", overwrite=True)
    def outer(x, row, col):
        return x * row + col

    x = _data((40, 32), np.float32, 5)
    row, col = _data((32,), np.float32, 6), _data((40, 1), np.float32, 7)
    _check(outer, x, row, col, numpy_result=x * row + col)
    text = outer.explain(x, row, col)
    assert IN_KERNEL in text and "a row repeated" in text, text


def test_column_width():
    assert _fuse_plan.column_width((8, 1), (8, 32)) == 32
    assert _fuse_plan.column_width((2, 1, 1), (2, 3, 16)) == 48
    assert _fuse_plan.column_width((8, 1), (8, 24)) == 0  # not whole 32-byte blocks
    assert _fuse_plan.column_width((8, 1), (8, 8192)) == 0  # longer than a tile may repeat
    assert _fuse_plan.column_width((1, 1), (3, 16)) == 0  # a leading broadcast
    assert _fuse_plan.column_width((8, 16), (8, 16)) == 0  # not a broadcast
    assert _fuse_plan.column_width((3, 8, 1), (8, 16)) == 0  # more dimensions than the group


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.integers(1, 9), min_size=1, max_size=2), st.integers(1, 4),
       st.integers(1, 3), st.sampled_from([np.float32, np.int32, np.float16]),
       st.integers(0, 2**31))
def test_random_columns_fused_eager_numpy(lead, blocks, ones, dtype, seed):
    width = 16 * blocks
    trail = [width] if ones == 1 else [2, width // 2] if width % 2 == 0 and ones == 2 else [width]
    shape = tuple(lead) + tuple(trail)
    col = tuple(lead) + (1,) * len(trail)
    x, c = _data(shape, dtype, seed), _data(col, dtype, seed + 1)
    _check(scale, x, c, numpy_result=(x + c) * c - dtype(1))
