"""asc.adv.Matmul on the simulated cube against NumPy: the tutorials'
kernels (examples/matmul_*.py) over shapes with tails, every core count,
transposes, bias, the with-form iterate into the Unified Buffer, NZ
inputs, and the errors of a bad tiling or call order.

Inputs are small integers in fp16, so float32 accumulation is exact and
results must equal NumPy's float32 product exactly."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import asc
import pyasc

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "examples"))
import matmul_cube_only  # noqa: E402
import matmul_leakyrelu  # noqa: E402
import matmul_mix  # noqa: E402
from cube_helpers import gm_abc, ref_matmul, to_nz  # noqa: E402


def _ints(rng, shape, dtype=np.float16):
    return rng.integers(-5, 5, shape).astype(dtype)


@pytest.mark.parametrize("m,n,k", [(16, 16, 16), (1, 1, 1), (100, 130, 70), (300, 500, 200),
                                   (33, 700, 129)])
@pytest.mark.parametrize("trans_a,trans_b", [(False, False), (True, False), (False, True),
                                             (True, True)])
def test_mix_shapes_and_transposes(m, n, k, trans_a, trans_b):
    rng = np.random.default_rng(m + n + k)
    a, b = _ints(rng, (m, k)), _ints(rng, (k, n))
    tiling = matmul_mix.make_tiling(m, n, k, cores=8, trans_a=trans_a, trans_b=trans_b)
    a_in = np.ascontiguousarray(a.T) if trans_a else a
    b_in = np.ascontiguousarray(b.T) if trans_b else b
    c = matmul_mix.matmul(a_in, b_in, tiling, trans_a, trans_b)
    np.testing.assert_array_equal(c, ref_matmul(a, b))


@pytest.mark.parametrize("cores", [1, 2, 3, 5, 8, 13, 24])
def test_cube_only_every_core_count_with_bias(cores):
    m, n, k = 200, 300, 96
    rng = np.random.default_rng(cores)
    a, b = _ints(rng, (m, k)), _ints(rng, (k, n))
    bias = rng.integers(-5, 5, n).astype(np.float32)
    tiling = matmul_cube_only.make_tiling(m, n, k, cores=cores, bias=True)
    assert 1 <= tiling.used_core_num <= cores
    c = matmul_cube_only.matmul(a, b, bias, tiling)
    np.testing.assert_array_equal(c, ref_matmul(a, b) + bias)


def test_cube_only_without_bias_ignores_bias_memory():
    m, n, k = 64, 64, 64
    rng = np.random.default_rng(5)
    a, b = _ints(rng, (m, k)), _ints(rng, (k, n))
    tiling = matmul_cube_only.make_tiling(m, n, k, cores=4, bias=False)
    c = matmul_cube_only.matmul(a, b, np.full(n, 100, np.float32), tiling)
    np.testing.assert_array_equal(c, ref_matmul(a, b))


def test_leakyrelu_with_form():
    m, n, k = 512, 512, 128
    rng = np.random.default_rng(6)
    a, b = _ints(rng, (m, k)), _ints(rng, (k, n))
    bias = rng.integers(-5, 5, n).astype(np.float32)
    c = matmul_leakyrelu.matmul_leakyrelu(a, b, bias, 0.25, matmul_leakyrelu.make_tiling(m, n, k))
    x = ref_matmul(a, b) + bias
    np.testing.assert_array_equal(c, np.where(x >= 0, x, x * np.float32(0.25)))


# Shapes and core counts (set_dim) whose tiling the tutorial's kernel can
# run: an even number of AIVs, each core's share a whole number of 256 x
# 128 blocks; K has tails.
@pytest.mark.parametrize("m,n,k,cores,used", [
    (512, 512, 100, 4, 4), (512, 512, 100, 5, 4), (2048, 1024, 300, 8, 8),
    (2048, 1024, 300, 9, 8), (2048, 1024, 300, 19, 16), (1536, 768, 64, 6, 6),
    (1536, 768, 64, 20, 18)])
def test_leakyrelu_core_counts_and_k_tails(m, n, k, cores, used):
    rng = np.random.default_rng(cores)
    a, b = _ints(rng, (m, k)), _ints(rng, (k, n))
    bias = rng.integers(-5, 5, n).astype(np.float32)
    tiling = matmul_leakyrelu.make_tiling(m, n, k, cores=cores)
    assert tiling.used_core_num == used
    assert (tiling.base_m, tiling.base_n) == (256, 128)
    assert m % tiling.single_core_m == 0 and tiling.single_core_m % 256 == 0
    assert n % tiling.single_core_n == 0 and tiling.single_core_n % 128 == 0
    c = matmul_leakyrelu.matmul_leakyrelu(a, b, bias, 0.25, tiling)
    x = ref_matmul(a, b) + bias
    np.testing.assert_array_equal(c, np.where(x >= 0, x, x * np.float32(0.25)))


@asc.jit
def nz_kernel(a: asc.GlobalAddress, b: asc.GlobalAddress, c: asc.GlobalAddress,
              tiling: asc.adv.TCubeTiling, ws: asc.GlobalAddress, out_nz: asc.ConstExpr[int]):
    a_gm, b_gm, c_gm = gm_abc(a, b, c)
    pipe = asc.TPipe()
    fmt = asc.CubeFormat.NZ if out_nz else asc.CubeFormat.ND
    mm = asc.adv.Matmul(a=asc.adv.MatmulType(asc.TPosition.GM, asc.CubeFormat.NZ, a_gm.dtype),
                        b=asc.adv.MatmulType(asc.TPosition.GM, asc.CubeFormat.NZ, b_gm.dtype),
                        c=asc.adv.MatmulType(asc.TPosition.GM, fmt, c_gm.dtype))
    asc.adv.register_matmul(pipe, ws, mm, tiling)
    mm.set_tensor_a(a_gm)
    mm.set_tensor_b(b_gm)
    mm.iterate_all(c_gm)
    mm.end()


@pytest.mark.parametrize("out_nz", [0, 1])
def test_nz_inputs_and_output(out_nz):
    m, n, k = 40, 48, 72
    rng = np.random.default_rng(7)
    a, b = _ints(rng, (m, k)), _ints(rng, (k, n))
    tiling = matmul_mix.make_tiling(m, n, k, cores=1)
    ref = ref_matmul(a, b)
    c = np.zeros(to_nz(ref).size if out_nz else m * n, np.float32)
    nz_kernel[1](to_nz(a), to_nz(b), c, tiling, np.zeros(16, np.uint8), out_nz)
    np.testing.assert_array_equal(c, to_nz(ref) if out_nz else ref.reshape(-1))



@asc.jit
def channel_split_kernel(a: asc.GlobalAddress, b: asc.GlobalAddress, c: asc.GlobalAddress,
                         tiling: asc.adv.TCubeTiling, ws: asc.GlobalAddress,
                         split: asc.ConstExpr[bool]):
    a_gm, b_gm, c_gm = gm_abc(a, b, c)
    mm = asc.adv.Matmul(
        a=asc.adv.MatmulType(asc.TPosition.GM, asc.CubeFormat.ND, a_gm.dtype),
        b=asc.adv.MatmulType(asc.TPosition.GM, asc.CubeFormat.ND, b_gm.dtype),
        c=asc.adv.MatmulType(asc.TPosition.GM, asc.CubeFormat.NZ, c_gm.dtype),
        config=asc.adv.get_mm_config(asc.MatmulConfigMode.CONFIG_NORM,
                                     asc.adv.MatmulFuncParams(is_enable_channel_split=split)))
    asc.adv.register_matmul(asc.TPipe(), ws, mm, tiling)
    mm.set_tensor_a(a_gm)
    mm.set_tensor_b(b_gm)
    mm.iterate_all(c_gm)
    mm.end()


@pytest.mark.parametrize("split", [False, True])
def test_channel_split_writes_a_float_nz_c_in_16_by_8_fractals(split):
    """MatmulConfig's is_enable_channel_split (CANN's matmul_channelsplit_output): a float NZ
    C in column blocks of 8 (32 bytes) rather than 16."""
    m, n, k = 40, 72, 32
    rng = np.random.default_rng(9)
    a, b = _ints(rng, (m, k)), _ints(rng, (k, n))
    tiling = matmul_mix.make_tiling(m, n, k, cores=1)
    want = to_nz(ref_matmul(a, b), 8 if split else 16)
    c = np.zeros(want.size, np.float32)
    channel_split_kernel[1](a, b, c, tiling, np.zeros(16, np.uint8), split)
    np.testing.assert_array_equal(c, want)

@asc.jit
def fp16_out_kernel(a: asc.GlobalAddress, b: asc.GlobalAddress, c: asc.GlobalAddress,
                    tiling: asc.adv.TCubeTiling, ws: asc.GlobalAddress):
    a_gm, b_gm, c_gm = gm_abc(a, b, c)
    pipe = asc.TPipe()
    mm = asc.adv.Matmul(a=asc.adv.MatmulType(asc.TPosition.GM, asc.CubeFormat.ND, a_gm.dtype),
                        b=asc.adv.MatmulType(asc.TPosition.GM, asc.CubeFormat.ND, b_gm.dtype),
                        c=asc.adv.MatmulType(asc.TPosition.GM, asc.CubeFormat.ND, c_gm.dtype))
    asc.adv.register_matmul(pipe, ws, mm)
    mm.init(tiling)
    mm.set_tensor_a(a_gm)
    mm.set_tensor_b(b_gm)
    mm.set_org_shape(tiling.m, tiling.n, tiling.k_a)
    mm.set_single_shape(tiling.m, tiling.n, tiling.k_a)
    with mm.iterate() as count:
        mm.get_tensor_c(c_gm)
    mm.end()


def test_fp16_output_and_single_shape():
    m, n, k = 130, 70, 50
    rng = np.random.default_rng(8)
    a, b = _ints(rng, (m, k)), _ints(rng, (k, n))
    tiling = matmul_mix.make_tiling(m, n, k, cores=1)
    tiling.single_core_m, tiling.single_core_n = 16, 16  # set_single_shape must override
    c = np.zeros((m, n), np.float16)
    fp16_out_kernel[1](a, b, c, tiling, np.zeros(16, np.uint8))
    np.testing.assert_array_equal(c, (ref_matmul(a, b)).astype(np.float16))


def test_tiling_too_big_for_l0c_is_an_error():
    m = n = k = 256
    rng = np.random.default_rng(9)
    a, b = _ints(rng, (m, k)), _ints(rng, (k, n))
    tiling = matmul_mix.make_tiling(m, n, k, cores=1)
    tiling.base_m, tiling.base_n = 256, 256  # 256 KiB of float32: twice L0C
    with pytest.raises(pyasc.KernelError, match=r"matmul_mix\.py:\d+: Matmul: .*L0C"):
        matmul_mix.matmul(a, b, tiling)


def test_empty_tiling_is_an_error():
    a = np.zeros((16, 16), np.float16)
    tiling = asc.adv.TCubeTiling(m=16, n=16, k_a=16, k_b=16, used_core_num=1, single_core_m=16,
                                 single_core_n=16, single_core_k=16)
    with pytest.raises(pyasc.KernelError, match="no valid base block"):
        matmul_mix.matmul(a, a, tiling)


@asc.jit
def no_tensor_kernel(c: asc.GlobalAddress, tiling: asc.adv.TCubeTiling, ws: asc.GlobalAddress):
    c_gm = asc.GlobalTensor()
    c_gm.set_global_buffer(c)
    pipe = asc.TPipe()
    mm = asc.adv.Matmul(a=asc.adv.MatmulType(asc.TPosition.GM, asc.CubeFormat.ND, asc.float16),
                        b=asc.adv.MatmulType(asc.TPosition.GM, asc.CubeFormat.ND, asc.float16),
                        c=asc.adv.MatmulType(asc.TPosition.GM, asc.CubeFormat.ND, c_gm.dtype))
    asc.adv.register_matmul(pipe, ws, mm, tiling)
    mm.iterate_all(c_gm)


def test_iterate_without_tensors_is_an_error():
    c = np.zeros((16, 16), np.float32)
    tiling = matmul_mix.make_tiling(16, 16, 16, cores=1)
    with pytest.raises(pyasc.KernelError, match="set_tensor_a and set_tensor_b first"):
        no_tensor_kernel[1](c, tiling, np.zeros(16, np.uint8))


@asc.jit
def bad_type_kernel(c: asc.GlobalAddress):
    mm = asc.adv.Matmul(a=1, b=2, c=3)


def test_matmul_needs_matmul_types():
    with pytest.raises(pyasc.CompileError, match="a must be an asc.adv.MatmulType"):
        bad_type_kernel[1](np.zeros(4, np.float32))


@settings(max_examples=12, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow])
@given(m=st.integers(1, 300), n=st.integers(1, 300), k=st.integers(1, 300),
       cores=st.integers(1, 24), trans_a=st.booleans(), trans_b=st.booleans())
def test_property_host_tiling_fits_and_result_equals_numpy(m, n, k, cores, trans_a, trans_b):
    """Any shape and core count: the host tiling's base block fits L0A, L0B
    and L0C (the kernel's Matmul would report it otherwise) and the result
    is NumPy's."""
    tiling = matmul_mix.make_tiling(m, n, k, cores=cores, trans_a=trans_a, trans_b=trans_b)
    assert 1 <= tiling.used_core_num <= cores
    c0 = 16
    m16, n16 = -(-tiling.base_m // 16) * 16, -(-tiling.base_n // 16) * 16
    kc = -(-tiling.base_k // c0) * c0
    assert m16 * kc * 2 <= 64 * 1024 and n16 * kc * 2 <= 64 * 1024
    assert m16 * n16 * 4 <= 128 * 1024
    rng = np.random.default_rng(m * 7 + n * 5 + k)
    a, b = _ints(rng, (m, k)), _ints(rng, (k, n))
    a_in = np.ascontiguousarray(a.T) if trans_a else a
    b_in = np.ascontiguousarray(b.T) if trans_b else b
    c = matmul_mix.matmul(a_in, b_in, tiling, trans_a, trans_b)
    np.testing.assert_array_equal(c, ref_matmul(a, b))
