"""init_const_value with InitConstValueParams: fills L1, L0A and L0B
tensors, checked through the cube (A @ B of filled matrices, against
NumPy), in plain and checked mode; its errors name the line."""

from __future__ import annotations

import numpy as np
import pytest

import pyasc as asc
from kernel_api_helpers import CACHE, jit

from test_ascendc import assert_valid_cpp


@jit
def fill_kernel(c: asc.GlobalAddress, via_l1: asc.ConstExpr[int], va: asc.ConstExpr[float],
                vb: asc.ConstExpr[float]):
    """C (32 x 32 float32) = A @ B, A and B (float16) filled by
    init_const_value: A in L0A directly (value va), or in L1 (zeros, then
    va in bytes [0, 256) and [512, 768): rows 0-7 and 16-23 of its first 16
    columns) moved to L0A by load_data; B in L0B (value vb)."""
    c_gm = asc.GlobalTensor()
    c_gm.set_global_buffer(c, 1024)
    pipe = asc.TPipe()
    q_a1 = asc.TQue(asc.TPosition.A1, 1)
    q_a2 = asc.TQue(asc.TPosition.A2, 1)
    q_b2 = asc.TQue(asc.TPosition.B2, 1)
    q_c = asc.TQue(asc.TPosition.CO1, 1)
    pipe.init_buffer(q_a1, 1, 2048)
    pipe.init_buffer(q_a2, 1, 2048)
    pipe.init_buffer(q_b2, 1, 2048)
    pipe.init_buffer(q_c, 1, 4096)
    a2 = q_a2.alloc_tensor(asc.float16)
    b2 = q_b2.alloc_tensor(asc.float16)
    if via_l1 == 1:
        a1 = q_a1.alloc_tensor(asc.float16)
        asc.init_const_value(a1, asc.InitConstValueParams(4, init_value=0.0))
        asc.init_const_value(dst=a1, init_const_value_params=asc.InitConstValueParams(
            repeat_times=2, block_num=8, dst_gap=8, init_value=va))
        asc.pipe_barrier(asc.PipeID.PIPE_ALL)
        for i in range(2):
            asc.load_data(a2[i * 512:], a1, asc.LoadData2DParams(i, 2, 2, 0, 0, False))
    else:
        asc.init_const_value(a2, asc.InitConstValueParams(4, 0, 0, va))
    asc.init_const_value(b2, asc.InitConstValueParams(repeat_times=1, block_num=4, dst_gap=0,
                                                      init_value=vb))
    asc.pipe_barrier(asc.PipeID.PIPE_ALL)
    c1 = q_c.alloc_tensor(asc.float32)
    asc.mmad(c1, a2, b2, asc.MmadParams(32, 32, 32))
    asc.pipe_barrier(asc.PipeID.PIPE_ALL)
    asc.fixpipe(c_gm, c1, asc.FixpipeParamsV220(32, 32, 32, 32), 0)


@pytest.mark.parametrize("debug", [False, True], ids=["plain", "checked"])
def test_fill_l0a_and_l0b(debug):
    kernel = asc.jit(fill_kernel.fn, cache_dir=CACHE, debug=debug)
    c = np.zeros(1024, np.float32)
    kernel[1](c, 0, 1.5, 0.5)
    np.testing.assert_array_equal(c, np.full(1024, 32 * 1.5 * 0.5, np.float32))


@pytest.mark.parametrize("debug", [False, True], ids=["plain", "checked"])
def test_fill_l1_with_blocks_and_gaps(debug):
    kernel = asc.jit(fill_kernel.fn, cache_dir=CACHE, debug=debug)
    c = np.zeros(1024, np.float32)
    kernel[1](c, 1, 2.0, 1.0)
    a = np.zeros((32, 32), np.float32)
    a[0:8, 0:16] = 2.0
    a[16:24, 0:16] = 2.0
    np.testing.assert_array_equal(c.reshape(32, 32), a @ np.ones((32, 32), np.float32))


@jit
def error_kernel(c: asc.GlobalAddress, case: asc.ConstExpr[int]):
    pipe = asc.TPipe()
    q_a1 = asc.TQue(asc.TPosition.A1, 1)
    q_a2 = asc.TQue(asc.TPosition.A2, 1)
    pipe.init_buffer(q_a1, 1, 1024)
    pipe.init_buffer(q_a2, 1, 1024)
    a1 = q_a1.alloc_tensor(asc.float32)
    a2 = q_a2.alloc_tensor(asc.float32)
    if case == 0:
        asc.init_const_value(a1, asc.InitConstValueParams(3, 0, 0, 1.0))  # 1536 bytes
    elif case == 1:
        asc.init_const_value(a1, asc.InitConstValueParams(256, 0, 0, 1.0))
    elif case == 2:
        asc.init_const_value(a2[8:], asc.InitConstValueParams(1, 0, 0, 1.0))
    else:
        asc.init_const_value(a1, asc.InitConstValueParams(1, 1, 40000, 1.0))


@pytest.mark.parametrize("case,message", [
    (1, "repeat_times must be in \\[0, 255\\]"),
    (2, "L0A tensor at byte 32 is not aligned to 512 bytes"),
    (3, "block_num, dst_gap in \\[0, 32767\\]"),
])
def test_runtime_errors_name_the_line(case, message):
    with pytest.raises(asc.KernelError, match=message) as info:
        error_kernel[1](np.zeros(8, np.float32), case)
    assert "test_api_init_const.py" in str(info.value)


def test_filling_past_its_tensor_is_reported_in_checked_mode():
    """Three repeats into a 1 KiB L1 tensor: the hardware fills on into L1,
    so the default mode does; checked mode holds it to the tensor."""
    checked = asc.jit(error_kernel.fn, cache_dir=CACHE, debug=True)
    with pytest.raises(asc.KernelError, match="3 repeats reach byte 1536 but dst holds 1024 "
                                              "bytes") as info:
        checked[1](np.zeros(8, np.float32), 0)
    assert "test_api_init_const.py" in str(info.value)
    error_kernel[1](np.zeros(8, np.float32), 0)
    asc.synchronize()


@jit
def position_kernel(c: asc.GlobalAddress, case: asc.ConstExpr[int]):
    t = asc.LocalTensor(asc.float32, asc.TPosition.VECIN, 0, 64)
    if case == 0:
        asc.init_const_value(t, asc.InitConstValueParams(1, 0, 0, 1.0))
    else:
        asc.init_const_value(t, asc.DataCopyParams())


@pytest.mark.parametrize("case,message", [
    (0, "dst must be at TPosition A1, B1, A2 or B2, not VECIN"),
    (2, "init_const_value_params must be a pyasc.InitConstValueParams"),
])
def test_compile_errors(case, message):
    with pytest.raises(asc.CompileError, match=message):
        position_kernel[1](np.zeros(8, np.float32), case)


def test_ascendc_form():
    src = fill_kernel.ascendc(np.zeros(1024, np.float32), 1, 2.0, 1.0)
    assert "AscendC::InitConstValue(a1, AscendC::InitConstValueParams<half>(2, 8, 8, " in src
    assert_valid_cpp(src)
