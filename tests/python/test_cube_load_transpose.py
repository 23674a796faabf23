"""load_data_with_transpose (LoadData2dTransposeParams and V2) in one-tile
matmuls against NumPy: float16 fractals, int8 and float32 two-fractal
squares (dst_gap, dst_frac_gap), its errors and its Ascend C form."""

from __future__ import annotations

import numpy as np
import pytest

import pyasc as asc
from cube_helpers import cube_queues, gm_abc_sized
from test_ascendc import assert_valid_cpp


@asc.jit
def tile_kernel(a: asc.GlobalAddress, b: asc.GlobalAddress, c: asc.GlobalAddress,
                v2: asc.ConstExpr[bool], dtype: asc.ConstExpr[int], src_frac_gap: asc.ConstExpr[int]):
    """C (32 x 32, float32) = A @ B, B's fractals transposed on their way
    from B1 to L0B by load_data_with_transpose."""
    a_gm, b_gm, c_gm = gm_abc_sized(a, b, c, 1024)
    pipe = asc.TPipe()
    q_a1, q_b1, q_a2, q_b2, q_c = cube_queues(pipe, 4096, 4096, 4096, 4096, 4096)
    a1 = q_a1.alloc_tensor(asc.float16)
    a2 = q_a2.alloc_tensor(asc.float16)
    asc.data_copy(a1, a_gm, asc.Nd2NzParams(1, 32, 32, 0, 32, 32, 1, 0))
    for i in range(2):
        asc.load_data(a2[i * 512:], a1, asc.LoadData2DParams(i, 2, 2, 0, 0, False))
    if dtype == 0:
        b1 = q_b1.alloc_tensor(asc.float16)
        b2 = q_b2.alloc_tensor(asc.float16)
        asc.data_copy(b1, b_gm, asc.Nd2NzParams(1, 32, 32, 0, 32, 32, 1, 0))
    else:
        b1 = q_b1.alloc_tensor(asc.int8)
        b2 = q_b2.alloc_tensor(asc.int8)
    for i in range(2):
        if v2:
            asc.load_data_with_transpose(b2[i * 512:], b1, asc.LoadData2dTransposeParamsV2(
                start_index=i, repeat_times=2, src_stride=2, src_frac_gap=src_frac_gap))
        else:
            asc.load_data_with_transpose(b2[i * 512:], b1,
                                         asc.LoadData2dTransposeParams(i, 2, 2, 0, 0, 0))
    c1 = q_c.alloc_tensor(asc.float32)
    asc.mmad(c1, a2, b2, asc.MmadParams(32, 32, 32))
    asc.fixpipe(c_gm, c1, asc.FixpipeParamsV220(32, 32, 32, 32))


def _inputs():
    rng = np.random.default_rng(7)
    a = (rng.integers(-8, 9, (32, 32)) / 4).astype(np.float16)
    b = (rng.integers(-8, 9, (32, 32)) / 8).astype(np.float16)
    return a, b


@pytest.mark.parametrize("v2", [False, True])
def test_load_data_with_transpose_matmul(v2):
    a, b = _inputs()
    c = np.zeros((32, 32), np.float32)
    tile_kernel[1](a, b, c, v2, 0, 0)
    np.testing.assert_array_equal(c, a.astype(np.float32) @ b.astype(np.float32))


@asc.jit
def square_kernel(a: asc.GlobalAddress, b: asc.GlobalAddress, c: asc.GlobalAddress,
                  m: asc.ConstExpr[int], k: asc.ConstExpr[int], n: asc.ConstExpr[int],
                  f32: asc.ConstExpr[bool], v2: asc.ConstExpr[bool]):
    """C (m x n) = A (m x k) @ B (k x n), B reaching L0B through
    load_data_with_transpose's two-fractal squares: int8 (32 x 32 squares
    of a column block, int32 C) or float32 (16 x 16 squares side by side,
    dst_frac_gap placing their second halves, float32 C)."""
    dt = asc.float32 if f32 else asc.int8
    c0 = 8 if f32 else 32
    a_gm = asc.GlobalTensor()
    b_gm = asc.GlobalTensor()
    c_gm = asc.GlobalTensor()
    a_gm.set_global_buffer(a, m * k)
    b_gm.set_global_buffer(b, k * n)
    c_gm.set_global_buffer(c, m * n)
    pipe = asc.TPipe()
    q_a1, q_b1, q_a2, q_b2, q_c = cube_queues(pipe, 8192, 16384, 8192, 16384, 16384)
    a1 = q_a1.alloc_tensor(dt)
    b1 = q_b1.alloc_tensor(dt)
    a2 = q_a2.alloc_tensor(dt)
    b2 = q_b2.alloc_tensor(dt)
    asc.data_copy(a1, a_gm, asc.Nd2NzParams(1, m, k, 0, k, m, 1, 0))
    asc.data_copy(b1, b_gm, asc.Nd2NzParams(1, k, n, 0, n, k, 1, 0))
    k1 = k // c0
    for i in range(m // 16):
        asc.load_data(a2[i * k1 * (512 // (4 if f32 else 1)):], a1,
                      asc.LoadData2DParams(i, k1, m // 16, 0, 0, False))
    n1 = n // 16
    if f32:  # square s is B's columns 16s..16s+15; its halves go to L0B fractals s and n1 + s
        if v2:
            asc.load_data_with_transpose(b2, b1, asc.LoadData2dTransposeParamsV2(
                0, n1, 1, 0, n1 - 1, 0, 0))
        else:
            asc.load_data_with_transpose(b2, b1, asc.LoadData2dTransposeParams(
                start_index=0, repeat_times=n1, src_stride=1, dst_gap=0, dst_frac_gap=n1 - 1))
    else:  # column block nb: squares kb to L0B fractals kb * n1 + 2nb and the next one
        for nb in range(n // 32):
            asc.load_data_with_transpose(b2[nb * 1024:], b1, asc.LoadData2dTransposeParams(
                nb * (k // 32), k // 32, 1, n1 - 1, 0, 0))
    c1 = q_c.alloc_tensor(asc.float32 if f32 else asc.int32)
    asc.mmad(c1, a2, b2, asc.MmadParams(m, n, k))
    asc.fixpipe(c_gm, c1, asc.FixpipeParamsV220(n, m, m, n))


@pytest.mark.parametrize("m,k,n", [(32, 32, 32), (32, 64, 32), (16, 32, 64), (16, 96, 96)])
def test_load_data_with_transpose_int8(m, k, n):
    rng = np.random.default_rng(k + n)
    a = rng.integers(-128, 128, (m, k)).astype(np.int8)
    b = rng.integers(-128, 128, (k, n)).astype(np.int8)
    c = np.zeros((m, n), np.int32)
    square_kernel[1](a, b, c, m, k, n, False, False)
    asc.synchronize()
    np.testing.assert_array_equal(c, a.astype(np.int64) @ b.astype(np.int64))


@pytest.mark.parametrize("n,v2", [(16, False), (32, False), (48, True)])
def test_load_data_with_transpose_float32(n, v2):
    rng = np.random.default_rng(n)
    a = (rng.integers(-64, 65, (16, 16)) / 8).astype(np.float32)
    b = (rng.integers(-64, 65, (16, n)) / 16).astype(np.float32)
    c = np.zeros((16, n), np.float32)
    square_kernel[1](a, b, c, 16, 16, n, True, v2)
    asc.synchronize()
    np.testing.assert_array_equal(c, a @ b)


@asc.jit
def bad_square_kernel(which: asc.ConstExpr[int]):
    """load_data_with_transpose misused: a square past src (0), int32 (1)."""
    pipe = asc.TPipe()
    q_b1 = asc.TQue(asc.TPosition.B1, 1)
    q_b2 = asc.TQue(asc.TPosition.B2, 1)
    pipe.init_buffer(q_b1, 1, 2048)
    pipe.init_buffer(q_b2, 1, 4096)
    if which == 0:
        b1 = q_b1.alloc_tensor(asc.int8)
        b2 = q_b2.alloc_tensor(asc.int8)
        asc.load_data_with_transpose(b2, b1, asc.LoadData2dTransposeParams(1, 2, 1, 0, 0, 0))
    if which == 1:
        b1 = q_b1.alloc_tensor(asc.int32)
        b2 = q_b2.alloc_tensor(asc.int32)
        asc.load_data_with_transpose(b2, b1, asc.LoadData2dTransposeParams(0, 1, 1, 0, 0, 0))
    if which == 2:  # the second fractal of the square lands past dst
        b1 = q_b1.alloc_tensor(asc.float32)
        b2 = q_b2.alloc_tensor(asc.float32)
        asc.load_data_with_transpose(b2, b1, asc.LoadData2dTransposeParams(0, 1, 1, 0, 7, 0))


def test_load_data_with_transpose_square_past_src_names_line():
    with pytest.raises(asc.KernelError, match=r"test_cube_load_transpose\.py:\d+: "
                                              r"load_data_with_transpose reads square 2 past src "
                                              r"\(2048 bytes\)"):
        asc.jit(bad_square_kernel.fn, debug=True)[1](0)
        asc.synchronize()


def test_load_data_with_transpose_frac_gap_past_dst_names_line():
    with pytest.raises(asc.KernelError, match=r"test_cube_load_transpose\.py:\d+: "
                                              r"load_data_with_transpose writes past dst "
                                              r"\(4096 bytes\) in repeat 0"):
        asc.jit(bad_square_kernel.fn, debug=True)[1](2)
        asc.synchronize()


@pytest.mark.parametrize("which", [0, 2])
def test_load_data_with_transpose_past_its_tensors_runs_in_default_mode(which):
    """Past src or dst but inside L1 and L0B: the hardware moves the bytes,
    so the default mode does; checked mode reports it (above)."""
    bad_square_kernel[1](which)
    asc.synchronize()


def test_load_data_with_transpose_int32_is_refused():
    with pytest.raises(asc.CompileError, match=r"load_data_with_transpose: dst and src must both "
                                               r"be float16, bfloat16, float32 or int8 \(got "
                                               r"int32 and int32\)") as info:
        bad_square_kernel[1](1)
    assert "test_cube_load_transpose.py" in str(info.value)


def test_load_data_with_transpose_src_frac_gap():
    a, b = _inputs()
    with pytest.raises(asc.CompileError, match="src_frac_gap must be 0"):
        tile_kernel[1](a, b, np.zeros((32, 32), np.float32), True, 0, 1)


def test_load_data_with_transpose_ascendc_squares():
    src = square_kernel.ascendc(np.zeros((16, 16), np.float32), np.zeros((16, 32), np.float32),
                                np.zeros((16, 32), np.float32), 16, 16, 32, True, False)
    assert "AscendC::LoadDataWithTranspose(b2, b1, AscendC::LoadData2dTransposeParams(0, 2, 1, " \
           "0, 1, 0))" in src
    assert_valid_cpp(src)


def test_load_data_with_transpose_ascendc():
    a, b = _inputs()
    src = tile_kernel.ascendc(a, b, np.zeros((32, 32), np.float32), False, 0, 0)
    assert "AscendC::LoadDataWithTranspose(" in src
    assert "AscendC::LoadData2dTransposeParams(" in src
    assert_valid_cpp(src)
