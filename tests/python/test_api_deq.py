"""set_deq_scale (its three forms), cast_deq, add_deq_relu and
set_fix_pipe_pre_quant_flag against NumPy models, in plain and checked
mode, with their errors and their Ascend C forms (checked with g++)."""

from __future__ import annotations

import numpy as np
import pytest

import pyasc as asc
from kernel_api_helpers import jit, launch, local, modes, store
from test_ascendc import assert_valid_cpp


N = 2048


def f16(x):
    return np.float32(np.float16(x))


# --- add_deq_relu -----------------------------------------------------------------------------

@jit
def adr_kernel(a: asc.GlobalAddress, b: asc.GlobalAddress, y: asc.GlobalAddress,
               form: asc.ConstExpr[int], scale: float, count: int, mask: int, repeat: int,
               drep: int, srep: int):
    s0 = local(a, 0, N)
    s1 = local(b, 16384, N)
    d = local(y, 32768, N)
    asc.set_deq_scale(scale)
    if form == 0:
        asc.add_deq_relu(d, s0, s1, count)
    elif form == 1:
        asc.add_deq_relu(d, s0, s1, mask=mask, repeat_times=repeat,
                         repeat_params=asc.BinaryRepeatParams(1, 1, 1, drep, srep, srep))
    else:
        asc.add_deq_relu(d, s0, s1, [mask, 0], repeat,
                         asc.BinaryRepeatParams(1, 1, 1, drep, srep, srep))
    store(y, d, N)


def adr_one(x, z, scale):
    v = np.float32(np.float32(np.int64(x) + np.int64(z)) * f16(scale))
    with np.errstate(over="ignore"):  # past float16's range: inf, as the cast
        return np.float16(max(v, np.float32(0)))


@pytest.mark.parametrize("form, count, mask, repeat, drep, srep", [
    (0, 0, 0, 0, 0, 0), (0, 1, 0, 0, 0, 0), (0, 1000, 0, 0, 0, 0),
    (1, 0, 64, 3, 4, 8), (1, 0, 7, 2, 8, 8), (1, 0, 64, 0, 4, 8), (2, 0, 0b1101, 2, 4, 8)])
def test_add_deq_relu(form, count, mask, repeat, drep, srep):
    rng = np.random.default_rng(count + mask)
    x = rng.integers(-40000, 40000, N).astype(np.int32)
    z = rng.integers(-40000, 40000, N).astype(np.int32)
    x[:3] = [2**31 - 1, -2**31, 70000]
    z[:3] = [0, 0, 70000]
    scale = 0.1
    want = np.full(N, 9, np.float16)
    if form == 0:
        for i in range(count):
            want[i] = adr_one(x[i], z[i], scale)
    else:
        for r in range(repeat):
            for i in range(64):
                if (i < mask) if form == 1 else (mask >> i) & 1:
                    si, di = r * srep * 8 + i, r * drep * 16 + i
                    want[di] = adr_one(x[si], z[si], scale)
    for kernel in modes(adr_kernel):
        y = np.full(N, 9, np.float16)
        launch(kernel, x, z, y, form, scale, count, mask, repeat, drep, srep)
        np.testing.assert_array_equal(y, want)


def test_add_deq_relu_dtype_errors():
    with pytest.raises(asc.CompileError, match="add_deq_relu does not support a float32 dst"):
        launch(adr_kernel, np.zeros(N, np.int32), np.zeros(N, np.int32),
               np.zeros(N, np.float32), 0, 1.0, 8, 0, 0, 0, 0)
    with pytest.raises(asc.CompileError, match="add_deq_relu does not support a int16 source"):
        launch(adr_kernel, np.zeros(N, np.int16), np.zeros(N, np.int16),
               np.zeros(N, np.float16), 0, 1.0, 8, 0, 0, 0, 0)


def test_add_deq_relu_repeat_range_names_the_line():
    x = np.zeros(N, np.int32)
    with pytest.raises(asc.KernelError, match="repeat times 256 is outside") as info:
        launch(adr_kernel, x, x, np.zeros(N, np.float16), 1, 1.0, 0, 64, 256, 4, 8)
    assert "test_api_deq.py" in str(info.value)


# --- cast_deq ---------------------------------------------------------------------------------

VSCALE = [0.5 * i - 2 for i in range(16)]
VOFFSET = [i * 37 - 256 for i in range(16)]
VSIGN = [i % 3 != 0 for i in range(16)]


@jit
def cd_kernel(a: asc.GlobalAddress, y: asc.GlobalAddress, form: asc.ConstExpr[int],
              vec: asc.ConstExpr[bool], half: asc.ConstExpr[bool], scale: float, offset: int,
              sign: asc.ConstExpr[bool], count: int, mask: int, repeat: int):
    s = local(a, 0, N)
    d = local(y, 16384, N)
    v = asc.LocalTensor(asc.uint64, asc.TPosition.VECCALC, 32768, 16)
    if vec:
        asc.set_deq_scale(v, asc.VdeqInfo(VSCALE, VOFFSET, VSIGN))
    else:
        asc.set_deq_scale(scale, offset, sign)
    if form == 0:
        asc.cast_deq(d, s, count, is_vec_deq=vec, half_block=half)
    else:
        asc.cast_deq(d, s, mask, repeat, asc.UnaryRepeatParams(1, 1, 8, 8), True, vec, half)
    store(y, d, N)


def deq8(x, scale, offset, sign):
    v = np.rint(np.float64(np.float32(np.float32(x) * np.float32(scale))) + offset)
    lo, hi = (-128, 127) if sign else (0, 255)
    return np.uint8(np.int64(np.clip(v, lo, hi)) & 0xFF)


def sext9(o):
    o &= 0x1FF
    return o - 512 if o & 0x100 else o


@pytest.mark.parametrize("vec", [False, True])
@pytest.mark.parametrize("half", [False, True])
@pytest.mark.parametrize("sign", [False, True])
@pytest.mark.parametrize("form, count, mask, repeat", [
    (0, 0, 0, 0), (0, 37, 0, 0), (0, 1000, 0, 0), (1, 0, 100, 3), (1, 0, 128, 0)])
def test_cast_deq_int16(vec, half, sign, form, count, mask, repeat):
    rng = np.random.default_rng(count + mask)
    x = rng.integers(-32768, 32767, N).astype(np.int16)
    x[:4] = [0, 1, -1, 300]
    scale, offset = 0.37, 300  # offset's low 9 bits: 300 - 512 = -212
    want = np.full(N, 9, np.uint8)
    on = range(count) if form == 0 else \
        [r * 128 + i for r in range(repeat) for i in range(mask)]
    for i in on:
        g = i % 16
        if vec:
            s, o, sg = VSCALE[g], sext9(VOFFSET[g]), VSIGN[g]
        else:
            s, o, sg = scale, sext9(offset), sign
        want[i // 16 * 32 + (0 if half else 16) + g] = deq8(x[i], s, o, sg)
    for kernel in modes(cd_kernel):
        y = np.full(N, 9, np.int8 if sign else np.uint8)
        launch(kernel, x, y, form, vec, half, scale, offset, sign, count, mask, repeat)
        np.testing.assert_array_equal(y.view(np.uint8), want)


@pytest.mark.parametrize("form, count, mask, repeat", [(0, 999, 0, 0), (1, 0, 40, 3)])
def test_cast_deq_int32_to_float16(form, count, mask, repeat):
    rng = np.random.default_rng(5)
    x = rng.integers(-10**6, 10**6, N).astype(np.int32)
    want = np.full(N, 9, np.float16)
    # (src, dst) indices; a repeat's dst stride of 8 blocks is 128 float16s
    on = [(i, i) for i in range(count)] if form == 0 else \
        [(r * 64 + i, r * 128 + i) for r in range(repeat) for i in range(mask)]
    for si, di in on:
        want[di] = np.float16(np.float32(x[si]) * np.float32(0.001))
    for kernel in modes(cd_kernel):
        y = np.full(N, 9, np.float16)
        launch(kernel, x, y, form, False, True, 0.001, 0, True, count, mask, repeat)
        np.testing.assert_array_equal(y, want)


def test_cast_deq_dtype_error():
    with pytest.raises(asc.CompileError, match="cast_deq: int32 -> int8 is not one of its casts"):
        launch(cd_kernel, np.zeros(N, np.int32), np.zeros(N, np.int8), 0, False, True, 1.0, 0,
               True, 8, 0, 0)


def test_set_deq_scale_vdeq_info_needs_16_entries():
    @jit
    def bad(y: asc.GlobalAddress):
        v = asc.LocalTensor(asc.uint64, asc.TPosition.VECCALC, 0, 16)
        asc.set_deq_scale(v, asc.VdeqInfo([1.0] * 15, [0] * 16, [True] * 16))

    with pytest.raises(asc.CompileError, match="vdeq_scale must be a list of 16 values") as info:
        launch(bad, np.zeros(16, np.uint64))
    assert "test_api_deq.py" in str(info.value)


def test_set_deq_scale_vdeq_writes_the_tensor():
    @jit
    def k(y: asc.GlobalAddress):
        v = asc.LocalTensor(asc.uint64, asc.TPosition.VECCALC, 0, 16)
        asc.set_deq_scale(v, asc.VdeqInfo([1.5] * 16, [-1] * 16, [True] * 16))
        store(y, v, 16)

    y = np.zeros(16, np.uint64)
    launch(k, y)
    want = np.uint64(np.float32(1.5).view(np.uint32)) | np.uint64(0x1FF << 37) | np.uint64(1 << 46)
    assert (y == want).all()


# --- set_fix_pipe_pre_quant_flag and Ascend C -------------------------------------------------

def test_ascendc_forms_compile():
    x = np.zeros(N, np.int32)
    for form in (0, 1, 2):
        src = adr_kernel.ascendc(x, x.copy(), np.zeros(N, np.float16), form, 0.5, 64, 64, 2, 4,
                                 8)
        assert "AscendC::AddDeqRelu" in src and "AscendC::SetDeqScale((half)" in src
        assert_valid_cpp(src)
    for vec in (False, True):
        for form in (0, 1):
            src = cd_kernel.ascendc(np.zeros(N, np.int16), np.zeros(N, np.int8), form, vec, False,
                                    0.5, 3, True, 64, 64, 2)
            assert "AscendC::CastDeq<int8_t, int16_t" in src
            assert ("AscendC::VdeqInfo(" in src) == vec
            assert_valid_cpp(src)

    @jit
    def fpq(y: asc.GlobalAddress):
        asc.set_fix_pipe_pre_quant_flag(11)

    src = fpq.ascendc(np.zeros(8, np.float32))
    assert "AscendC::SetFixpipePreQuantFlag((uint64_t)11)" in src
    assert_valid_cpp(src)
    launch(fpq, np.zeros(8, np.float32))
