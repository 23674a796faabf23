"""load_data_with_transpose (LoadData2dTransposeParams and V2) in a
one-tile matmul against NumPy, its errors and its Ascend C form."""

from __future__ import annotations

import numpy as np
import pytest

import pyasc as asc
from test_ascendc import assert_valid_cpp


@asc.jit
def tile_kernel(a: asc.GlobalAddress, b: asc.GlobalAddress, c: asc.GlobalAddress,
                v2: asc.ConstExpr[bool], dtype: asc.ConstExpr[int], src_frac_gap: asc.ConstExpr[int]):
    """C (32 x 32, float32) = A @ B, B's fractals transposed on their way
    from B1 to L0B by load_data_with_transpose."""
    a_gm = asc.GlobalTensor()
    b_gm = asc.GlobalTensor()
    c_gm = asc.GlobalTensor()
    a_gm.set_global_buffer(a, 1024)
    b_gm.set_global_buffer(b, 1024)
    c_gm.set_global_buffer(c, 1024)
    pipe = asc.TPipe()
    q_a1 = asc.TQue(asc.TPosition.A1, 1)
    q_b1 = asc.TQue(asc.TPosition.B1, 1)
    q_a2 = asc.TQue(asc.TPosition.A2, 1)
    q_b2 = asc.TQue(asc.TPosition.B2, 1)
    q_c = asc.TQue(asc.TPosition.CO1, 1)
    pipe.init_buffer(q_a1, 1, 4096)
    pipe.init_buffer(q_b1, 1, 4096)
    pipe.init_buffer(q_a2, 1, 4096)
    pipe.init_buffer(q_b2, 1, 4096)
    pipe.init_buffer(q_c, 1, 4096)
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


def test_load_data_with_transpose_int8_is_not_simulated():
    a, b = _inputs()
    with pytest.raises(asc.CompileError, match="load_data_with_transpose: int8 is not "
                                               "simulated") as info:
        tile_kernel[1](a, b, np.zeros((32, 32), np.float32), False, 1, 0)
    assert "test_cube_load_transpose.py" in str(info.value)


def test_load_data_with_transpose_src_frac_gap():
    a, b = _inputs()
    with pytest.raises(asc.CompileError, match="src_frac_gap must be 0"):
        tile_kernel[1](a, b, np.zeros((32, 32), np.float32), True, 0, 1)


def test_load_data_with_transpose_ascendc():
    a, b = _inputs()
    src = tile_kernel.ascendc(a, b, np.zeros((32, 32), np.float32), False, 0, 0)
    assert "AscendC::LoadDataWithTranspose(" in src
    assert "AscendC::LoadData2dTransposeParams(" in src
    assert_valid_cpp(src)
