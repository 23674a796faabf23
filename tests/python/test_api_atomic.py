"""The atomic store mode (set_atomic_add/max/min/type/none,
set_store_atomic_config, get_store_atomic_config) against NumPy models: many
blocks, which run concurrently on host threads, combine into the same global
memory, in plain and checked mode; its errors; its Ascend C form."""

from __future__ import annotations

import numpy as np
import pytest

import pyasc as asc
from kernel_api_helpers import CACHE, jit

from test_ascendc import assert_valid_cpp


N = 256  # elements each block adds


def modes(kernel):
    """The kernel, then its checked-mode variant."""
    return (kernel, asc.jit(kernel.fn, cache_dir=CACHE, debug=True))


@jit
def load(x: asc.GlobalAddress, n: asc.ConstExpr[int]):
    """Block b's n elements of x in the UB."""
    g = asc.GlobalTensor()
    g.set_global_buffer(x + asc.get_block_idx() * n, n)
    t = asc.LocalTensor(x.dtype, asc.TPosition.VECOUT, 0, n)
    asc.data_copy(t, g, n)
    asc.set_flag(asc.HardEvent.MTE2_MTE3, 0)
    asc.wait_flag(asc.HardEvent.MTE2_MTE3, 0)
    return t


@jit
def atomic_kernel(x: asc.GlobalAddress, y: asc.GlobalAddress, mode: asc.ConstExpr[int],
                  n: asc.ConstExpr[int]):
    """Each block combines its slice of x into y: mode 0 add, 1 max, 2 min,
    3 add with the DataCopyParams form, 4 add with data_copy_pad."""
    t = load(x, n)
    gy = asc.GlobalTensor()
    gy.set_global_buffer(y, n)
    if mode == 1:
        asc.set_atomic_max(x.dtype)
    elif mode == 2:
        asc.set_atomic_min(x.dtype)
    else:
        asc.set_atomic_add(x.dtype)
    if mode == 3:
        blocks = n * x.dtype.sizeof() // 32
        asc.data_copy(gy, t, asc.DataCopyParams(1, blocks, 0, 0))
    elif mode == 4:
        asc.data_copy_pad(gy, t, asc.DataCopyExtParams(1, n * x.dtype.sizeof(), 0, 0, 0))
    else:
        asc.data_copy(gy, t, n)
    asc.set_atomic_none()


def test_many_blocks_add_into_one_output_float32():
    """48 blocks at once add into the same 256 floats: the NumPy sum (integer
    values, so that any order of the additions gives it exactly)."""
    rng = np.random.default_rng(1)
    blocks = 48
    x = rng.integers(-1000, 1000, blocks * N).astype(np.float32)
    for kernel in modes(atomic_kernel):
        y = np.full(N, 5, np.float32)  # the mode adds to what memory holds
        kernel[blocks](x, y, 0, N)
        np.testing.assert_array_equal(y, 5 + x.reshape(blocks, N).sum(0))


@pytest.mark.parametrize("mode", [0, 3, 4], ids=["data_copy", "params", "pad"])
@pytest.mark.parametrize("dtype", [np.int32, np.float16])
def test_add_every_copy_form(dtype, mode):
    rng = np.random.default_rng(2)
    blocks = 20
    x = rng.integers(-8, 8, blocks * N).astype(dtype)
    for kernel in modes(atomic_kernel):
        y = np.ones(N, dtype)
        kernel[blocks](x, y, mode, N)
        np.testing.assert_array_equal(y, (1 + x.reshape(blocks, N).astype(np.int64).sum(0))
                                      .astype(dtype))


def test_float16_sums_round_once_per_addition():
    """Each addition rounds to float16: 2048 + 1 stays 2048."""
    x = np.ones(4 * N, np.float16)
    y = np.full(N, 2048, np.float16)
    atomic_kernel[4](x, y, 0, N)
    np.testing.assert_array_equal(y, np.full(N, 2048, np.float16))


@pytest.mark.parametrize("mode,reduce", [(1, np.maximum), (2, np.minimum)], ids=["max", "min"])
@pytest.mark.parametrize("dtype", [np.float32, np.int32, np.float16])
def test_max_and_min(dtype, mode, reduce):
    rng = np.random.default_rng(3)
    blocks = 24
    x = (rng.standard_normal(blocks * N) * 100).astype(dtype)
    for kernel in modes(atomic_kernel):
        y = (rng.standard_normal(N) * 100).astype(dtype)
        want = reduce(y, reduce.reduce(x.reshape(blocks, N), axis=0))
        kernel[blocks](x, y, mode, N)
        np.testing.assert_array_equal(y, want)


@jit
def config_kernel(x: asc.GlobalAddress, y: asc.GlobalAddress, info: asc.GlobalAddress,
                  kind: asc.ConstExpr[int], n: asc.ConstExpr[int]):
    """set_store_atomic_config with AtomicDtype `kind`, then the register read back
    into info[0:2]; set_atomic_type after set_atomic_max keeps max (info[2:4])."""
    t = load(x, n)
    gy = asc.GlobalTensor()
    gy.set_global_buffer(y, n)
    gi = asc.GlobalTensor()
    gi.set_global_buffer(info, 4)
    asc.set_store_atomic_config(asc.AtomicDtype(kind), asc.AtomicOp.ATOMIC_SUM)
    kind_now, op_now = asc.get_store_atomic_config()
    asc.data_copy(gy, t, n)
    asc.set_atomic_max(asc.float32)
    asc.set_atomic_type(asc.int32)
    k2, o2 = asc.get_store_atomic_config()
    asc.set_atomic_none()
    if asc.get_block_idx() == 0:
        gi.set_value(0, kind_now)
        gi.set_value(1, op_now)
        gi.set_value(2, k2)
        gi.set_value(3, o2)


def bf16_bits(values):
    """float32 values rounded to bfloat16 (nearest even), as int16 bit patterns."""
    u = np.asarray(values, np.float32).view(np.uint32).astype(np.uint64)
    return ((u + 0x7FFF + ((u >> 16) & 1)) >> 16).astype(np.uint16).view(np.int16)


def bf16_values(bits):
    return (bits.view(np.uint16).astype(np.uint32) << 16).view(np.float32)


@pytest.mark.parametrize("kind,dtype", [(asc.AtomicDtype.ATOMIC_S16, np.int16),
                                        (asc.AtomicDtype.ATOMIC_S8, np.int8),
                                        (asc.AtomicDtype.ATOMIC_S32, np.int32)])
def test_store_atomic_config_integer_types(kind, dtype):
    rng = np.random.default_rng(4)
    blocks = 8
    x = rng.integers(-10, 10, blocks * N).astype(dtype)
    for kernel in modes(config_kernel):
        y = np.zeros(N, dtype)
        info = np.zeros(4, np.int32)
        kernel[blocks](x, y, info, int(kind), N)
        np.testing.assert_array_equal(y, x.reshape(blocks, N).astype(np.int64).sum(0)
                                      .astype(dtype))
        assert info.tolist() == [int(kind), 0, int(asc.AtomicDtype.ATOMIC_S32), 1]


def test_store_atomic_config_bfloat16_rounds_each_sum():
    """bfloat16 sums in float and rounds to nearest even after each addition."""
    blocks = 4
    x = bf16_bits(np.full(blocks * N, 1.0))
    for kernel in modes(config_kernel):
        y = bf16_bits(np.full(N, 256.0))  # 256 + 1 is a tie: stays 256 in bfloat16
        info = np.zeros(4, np.int32)
        kernel[blocks](x, y, info, int(asc.AtomicDtype.ATOMIC_BF16), N)
        np.testing.assert_array_equal(bf16_values(y), np.full(N, 256.0, np.float32))
    y = bf16_bits(np.full(N, 1.5))
    config_kernel[blocks](bf16_bits(np.full(blocks * N, 0.25)), y, np.zeros(4, np.int32),
                          int(asc.AtomicDtype.ATOMIC_BF16), N)
    np.testing.assert_array_equal(bf16_values(y), np.full(N, 2.5, np.float32))


@jit
def none_kernel(x: asc.GlobalAddress, y: asc.GlobalAddress, n: asc.ConstExpr[int]):
    """set_atomic_none before the copy: the copy overwrites."""
    t = load(x, n)
    gy = asc.GlobalTensor()
    gy.set_global_buffer(y, n)
    asc.set_atomic_add(asc.float32)
    asc.set_atomic_none()
    asc.data_copy(gy, t, n)


def test_set_atomic_none_restores_overwriting():
    x = np.arange(N, dtype=np.float32)
    for kernel in modes(none_kernel):
        y = np.full(N, 7, np.float32)
        kernel[1](x, y, N)
        np.testing.assert_array_equal(y, x)


@jit
def mismatch_kernel(x: asc.GlobalAddress, y: asc.GlobalAddress, n: asc.ConstExpr[int]):
    t = load(x, n)
    gy = asc.GlobalTensor()
    gy.set_global_buffer(y, n)
    asc.set_atomic_add(asc.float32)
    asc.data_copy(gy, t, n)


def test_atomic_dtype_must_match_the_data():
    x = np.zeros(N, np.float16)
    for kernel in modes(mismatch_kernel):
        with pytest.raises(asc.KernelError, match="atomic mode combines float32 elements but the "
                                                  "data has 2-byte elements") as info:
            kernel[1](x, np.zeros(N, np.float16), N)
        assert "test_api_atomic.py" in str(info.value)


def test_documented_dtypes_only():
    @jit
    def bad(y: asc.GlobalAddress):
        asc.set_atomic_add(asc.int8)

    with pytest.raises(asc.CompileError, match="set_atomic_add: dtype must be float16, float32 "
                                               "or int32, not int8") as info:
        bad[1](np.zeros(8, np.int8))
    assert "asc.set_atomic_add(asc.int8)" in str(info.value)


def test_store_atomic_config_takes_the_enums():
    @jit
    def bad(y: asc.GlobalAddress):
        asc.set_store_atomic_config(9, asc.AtomicOp.ATOMIC_SUM)

    with pytest.raises(asc.CompileError, match="9 is not a pyasc.AtomicDtype value"):
        bad[1](np.zeros(8, np.int8))


def test_host_enums_have_the_register_values():
    assert [int(m) for m in asc.AtomicDtype] == list(range(7))
    assert int(asc.AtomicOp.ATOMIC_SUM) == 0
    import asc as upstream  # PyAsc's layout serves the same objects

    assert upstream.AtomicDtype is asc.AtomicDtype and upstream.set_atomic_add is asc.set_atomic_add


def test_ascendc_form():
    x = np.zeros(N, np.float32)
    src = atomic_kernel.ascendc(x, x, 1, N)
    assert "AscendC::SetAtomicMax<float>();" in src
    assert "AscendC::SetAtomicNone();" in src
    assert_valid_cpp(src)
    src = config_kernel.ascendc(np.zeros(N, np.int16), np.zeros(N, np.int16),
                                np.zeros(4, np.int32), 3, N)
    assert ("AscendC::SetStoreAtomicConfig<AscendC::AtomicDtype::ATOMIC_S16, "
            "AscendC::AtomicOp::ATOMIC_SUM>();") in src
    assert "AscendC::SetAtomicType<int32_t>();" in src
    assert "AscendC::GetStoreAtomicConfig(" in src
    assert_valid_cpp(src)
