"""data_copy from L0C with DataCopyCO12DstParams (fixpipe's older form):
its quant_pre modes, the scale the scalar modes take from the pre-quant
flag register (set_fix_pipe_pre_quant_flag), relu_pre and the ND/NZ
output, against NumPy; its errors; its Ascend C form (checked with g++)."""

from __future__ import annotations

import struct
import sys
from pathlib import Path

import numpy as np
import pytest

import pyasc
import pyasc as asc

sys.path.insert(0, str(Path(__file__).resolve().parent))
from test_ascendc import assert_valid_cpp  # noqa: E402
from cube_helpers import cube_queues, gm_abc_sized, load_tile_32  # noqa: E402

Q = asc.QuantModes


@asc.jit
def co12_kernel(a: asc.GlobalAddress, b: asc.GlobalAddress, c: asc.GlobalAddress, flag: int,
                quant: asc.ConstExpr[int], relu: asc.ConstExpr[int], nd: asc.ConstExpr[bool],
                set_flag: asc.ConstExpr[bool]):
    """C (32 x 32) = A (32 x 32, fp16) @ B through L0C, out by data_copy."""
    a_gm, b_gm, c_gm = gm_abc_sized(a, b, c, 1024)
    pipe = asc.TPipe()
    q_a1, q_b1, q_a2, q_b2, q_c = cube_queues(pipe, 2048, 2048, 2048, 2048, 4096)
    a2, b2 = load_tile_32(a_gm, b_gm, q_a1, q_b1, q_a2, q_b2)
    c1 = q_c.alloc_tensor(asc.float32)
    asc.mmad(c1, a2, b2, asc.MmadParams(32, 32, 32))
    if set_flag:
        asc.set_fix_pipe_pre_quant_flag(flag)
    # NZ: dst_stride counts 32-byte blocks between column blocks (CANN's
    # DataCopyCO12DstParams), 32 rows x 16 x 4 bytes for float
    dst_stride = 32 if nd else 32 * 16 * 4 // 32
    asc.data_copy(c_gm, c1, asc.DataCopyCO12DstParams(32, 32, dst_stride, 32, quant, relu, False, nd))


def _bits(x: float) -> int:
    return struct.unpack("<I", struct.pack("<f", x))[0]


def _run(quant, dtype, scale=1.0, relu=0, nd=True, set_flag=True):
    rng = np.random.default_rng(11)
    a = (rng.integers(-8, 9, (32, 32)) / 4).astype(np.float16)
    b = (rng.integers(-8, 9, (32, 32)) / 8).astype(np.float16)
    c = np.zeros((32, 32), dtype)
    args = (a, b, c, _bits(scale) | (0xABCD << 40), int(quant), relu, nd, set_flag)
    co12_kernel[1](*args)
    return c, a.astype(np.float32) @ b.astype(np.float32), args


def test_no_quant_float32():
    c, ref, _ = _run(Q.NoQuant, np.float32)
    np.testing.assert_array_equal(c, ref)


def test_relu_pre():
    c, ref, _ = _run(Q.NoQuant, np.float32, relu=1)
    np.testing.assert_array_equal(c, np.maximum(ref, 0))
    assert (ref < 0).any()


def test_f322f16():
    c, ref, _ = _run(Q.F322F16, np.float16)
    np.testing.assert_array_equal(c, ref.astype(np.float16))


@pytest.mark.parametrize("scale", [0.5, 3.0])
def test_qf322b8_pre_scales_by_the_pre_quant_flag(scale):
    """The scale is the flag register's low 32 bits (the high bits are
    ignored), not a constant: two scales give two results."""
    c, ref, _ = _run(Q.QF322B8_PRE, np.int8, scale=scale)
    want = np.clip(np.rint(ref * np.float32(scale)), -128, 127).astype(np.int8)
    np.testing.assert_array_equal(c, want)
    assert (np.abs(ref * scale) > 1).any()


def test_nz_output():
    c, ref, _ = _run(Q.NoQuant, np.float32, nd=False)
    np.testing.assert_array_equal(c, ref.reshape(32, 2, 16).transpose(1, 0, 2).reshape(32, 32))


def test_scalar_quant_without_the_flag_is_an_error():
    with pytest.raises(pyasc.KernelError, match="set_fix_pipe_pre_quant_flag"):
        _run(Q.QF322B8_PRE, np.int8, set_flag=False)


def test_vector_quant_is_an_error():
    with pytest.raises(pyasc.KernelError, match="quant vector"):
        _run(Q.VQF322B8_PRE, np.int8)


def test_relu_pre_beyond_relu_is_an_error():
    with pytest.raises(pyasc.KernelError, match="relu_pre 2"):
        _run(Q.NoQuant, np.float32, relu=2)


def test_ascendc_form():
    _, _, args = _run(Q.QF322B8_PRE, np.int8, scale=0.5)
    src = co12_kernel.ascendc(*args)
    assert "DataCopyCO12DstParams(" in src and "QuantMode_t::QF322B8_PRE" in src
    assert "SetFixpipePreQuantFlag(" in src
    assert_valid_cpp(src)
