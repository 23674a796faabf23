"""Kernels on uint16/uint32 tensors (data_copy, duplicate, bitwise ops,
shifts, get/set_value) against NumPy, the dtype checks that refuse them
where Ascend C does, and their Ascend C spelling (uint16_t, uint32_t)."""

from __future__ import annotations

import numpy as np
import pytest

import pyasc as asc

N = 256


@asc.jit
def bits_kernel(x: asc.GlobalAddress, y: asc.GlobalAddress, z: asc.GlobalAddress, n: int,
                op: asc.ConstExpr[int]) -> None:
    x_gm = asc.GlobalTensor()
    y_gm = asc.GlobalTensor()
    z_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x, n)
    y_gm.set_global_buffer(y, n)
    z_gm.set_global_buffer(z, n)
    dt = x.dtype
    a = asc.LocalTensor(dt, asc.TPosition.VECIN, 0, n)
    b = asc.LocalTensor(dt, asc.TPosition.VECIN, n * dt.sizeof(), n)
    c = asc.LocalTensor(dt, asc.TPosition.VECOUT, 2 * n * dt.sizeof(), n)
    asc.data_copy(a, x_gm, n)
    asc.data_copy(b, y_gm, n)
    asc.set_flag(asc.HardEvent.MTE2_V, 0)
    asc.wait_flag(asc.HardEvent.MTE2_V, 0)
    if op == 0:
        asc.bitwise_and(c, a, b, n)
    elif op == 1:
        asc.bitwise_or(c, a, b, n)
    elif op == 2:
        asc.bitwise_not(c, a, n)
    elif op == 3:
        asc.shift_right(c, a, 3, n)
    elif op == 4:
        asc.shift_left(c, a, 5, n)
    elif op == 5:
        asc.duplicate(c, 40000, n)
    else:
        asc.data_copy(c, a, n)
    asc.set_flag(asc.HardEvent.V_MTE3, 0)
    asc.wait_flag(asc.HardEvent.V_MTE3, 0)
    asc.data_copy(z_gm, c, n)


def _expected(op: int, x: np.ndarray, y: np.ndarray) -> np.ndarray:
    return [x & y, x | y, ~x, x >> 3, x << 5, np.full_like(x, 40000), x][op]


@pytest.mark.parametrize("dtype", [np.uint16, np.uint32])
@pytest.mark.parametrize("op", range(7))
def test_unsigned_vector_ops_match_numpy(dtype, op):
    rng = np.random.default_rng(op)
    top = np.iinfo(dtype).max
    x = rng.integers(0, top, N, dtype=dtype, endpoint=True)
    x[:2] = (top, top - 1)  # values past the signed type's range
    y = rng.integers(0, top, N, dtype=dtype, endpoint=True)
    z = np.zeros_like(x)
    bits_kernel[1, asc.current_stream()](x, y, z, N, op)
    np.testing.assert_array_equal(z, _expected(op, x, y))


@asc.jit
def value_kernel(x: asc.GlobalAddress, z: asc.GlobalAddress) -> None:
    x_gm = asc.GlobalTensor()
    z_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x, 4)
    z_gm.set_global_buffer(z, 4)
    z_gm.set_value(0, x_gm.get_value(1))
    z_gm.set_value(1, x_gm.get_value(0) + 1)
    z_gm.set_value(2, 4000000000)
    z_gm.set_value(3, x_gm.get_value(3))


def test_get_set_value_keep_uint32_values_past_2_31():
    x = np.array([4294967294, 3000000000, 0, 2**31], np.uint32)
    z = np.zeros(4, np.uint32)
    value_kernel[1, asc.current_stream()](x, z)
    np.testing.assert_array_equal(z, [3000000000, 4294967295, 4000000000, 2**31])


def test_float_only_apis_refuse_unsigned_tensors():
    @asc.jit
    def exp_kernel(x: asc.GlobalAddress, n: int) -> None:
        a = asc.LocalTensor(x.dtype, asc.TPosition.VECIN, 0, n)
        asc.exp(a, a, n)

    with pytest.raises(asc.CompileError, match="exp does not support uint16 tensors"):
        exp_kernel[1, asc.current_stream()](np.zeros(N, np.uint16), N)


def test_ascendc_spells_unsigned_types():
    for dtype, name in ((np.uint16, "uint16_t"), (np.uint32, "uint32_t")):
        x = np.zeros(N, dtype)
        src = bits_kernel.ascendc(x, x, x, N, 0)
        assert f"GlobalTensor<{name}>" in src or f"LocalTensor<{name}>" in src, src[:2000]


@asc.jit
def gather_u32_kernel(x: asc.GlobalAddress, off: asc.GlobalAddress, y: asc.GlobalAddress,
                      n: int) -> None:
    x_gm = asc.GlobalTensor()
    o_gm = asc.GlobalTensor()
    y_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x, n)
    o_gm.set_global_buffer(off, n)
    y_gm.set_global_buffer(y, n)
    src = asc.LocalTensor(x.dtype, asc.TPosition.VECIN, 0, n)
    o = asc.LocalTensor(off.dtype, asc.TPosition.VECIN, 4 * n, n)
    dst = asc.LocalTensor(x.dtype, asc.TPosition.VECOUT, 8 * n, n)
    asc.data_copy(src, x_gm, n)
    asc.data_copy(o, o_gm, n)
    asc.set_flag(asc.HardEvent.MTE2_V, 0)
    asc.wait_flag(asc.HardEvent.MTE2_V, 0)
    asc.gather(dst, src, o, 0, n)
    asc.set_flag(asc.HardEvent.V_MTE3, 0)
    asc.wait_flag(asc.HardEvent.V_MTE3, 0)
    asc.data_copy(y_gm, dst, n)


def test_gather_takes_uint32_offsets_as_ascend_c():
    rng = np.random.default_rng(1)
    x = rng.standard_normal(N).astype(np.float32)
    idx = rng.integers(0, N, N)
    y = np.zeros_like(x)
    gather_u32_kernel[1, asc.current_stream()](x, (idx * 4).astype(np.uint32), y, N)
    np.testing.assert_array_equal(y, x[idx])
    with pytest.raises(asc.CompileError, match="does not support a uint16 offset tensor"):
        gather_u32_kernel[1, asc.current_stream()](x, np.zeros(N, np.uint16), y, N)
