"""add_relu_cast, sub_relu_cast, mul_cast (their dtype pairs, count and mask
forms, rounding and saturation) and repeat_reduce_sum against NumPy models,
in plain and checked mode, with their errors and their Ascend C forms
(checked with g++)."""

from __future__ import annotations

import numpy as np
import pytest

import pyasc as asc
from kernel_api_helpers import jit, launch, local, modes, store
from test_ascendc import assert_valid_cpp


N = 4096


@jit
def fc_kernel(a: asc.GlobalAddress, b: asc.GlobalAddress, y: asc.GlobalAddress,
              which: asc.ConstExpr[int], form: asc.ConstExpr[int], count: int, mask: int,
              repeat: int, dblk: int, sblk: int, drep: int, srep: int):
    s0 = local(a, 0, N)
    s1 = local(b, 32768, N)
    d = local(y, 65536, N)
    p = asc.BinaryRepeatParams(dblk, sblk, sblk, drep, srep, srep)
    if form == 0:
        if which == 0:
            asc.add_relu_cast(d, s0, s1, count)
        elif which == 1:
            asc.sub_relu_cast(d, s0, s1, count=count)
        else:
            asc.mul_cast(d, s0, s1, count)
    elif form == 1:
        if which == 0:
            asc.add_relu_cast(d, s0, s1, mask, repeat, p)
        elif which == 1:
            asc.sub_relu_cast(d, s0, s1, mask=mask, repeat_times=repeat, repeat_params=p)
        else:
            asc.mul_cast(d, s0, s1, mask, repeat, p)
    else:
        if which == 0:
            asc.add_relu_cast(d, s0, s1, [mask, 0], repeat, p)
        elif which == 1:
            asc.sub_relu_cast(d, s0, s1, [mask, 0], repeat, p, True)
        else:
            asc.mul_cast(d, s0, s1, [mask, 0], repeat, p)
    store(y, d, N)


def fc_model(which, x, z, dst_dtype):
    """One element: the sources' precision, relu, then rint and saturation."""
    src, dst = x.dtype, np.dtype(dst_dtype)
    with np.errstate(over="ignore", invalid="ignore"):
        if which == 2:
            v = np.float64(x) * np.float64(z)
        else:
            v = np.float64(x) + np.float64(z) if which == 0 else np.float64(x) - np.float64(z)
        if src.kind == "f":
            v = np.float64(src.type(v))  # rounded (to infinity past the range) in src's type
        if which != 2 and v < 0:
            v = 0.0
        if dst.kind == "f":
            return dst.type(v)
    if np.isnan(v):
        return dst.type(0)
    info = np.iinfo(dst)
    return dst.type(np.clip(np.rint(v), info.min, info.max))


def model(which, form, x, z, y0, count, mask, repeat, dblk, sblk, drep, srep):
    y = y0.copy()
    es, ed = x.itemsize, y.itemsize
    per = 256 // es
    if form == 0:
        for i in range(count):
            y[i] = fc_model(which, x[i], z[i], y.dtype)
        return y
    for r in range(repeat):
        for i in range(per):
            on = i < mask if form == 1 else (mask >> i) & 1 and i < 64
            if not on:
                continue
            si = (r * srep * 32 + i // (32 // es) * sblk * 32) // es + i % (32 // es)
            di = (r * drep * 32 + i // (32 // ed) * dblk * 32) // ed + i % (32 // ed)
            y[di] = fc_model(which, x[si], z[si], y.dtype)
    return y


PAIRS = [(0, np.float32, np.float16), (0, np.float16, np.int8), (0, np.int16, np.int8),
         (1, np.float32, np.float16), (1, np.float16, np.int8), (1, np.int16, np.int8),
         (2, np.float16, np.int8), (2, np.float16, np.uint8)]
SHAPES = [  # form, count, mask, repeat, dblk, sblk, drep, srep
    (0, 0, 0, 0, 1, 1, 0, 0), (0, 1, 0, 0, 1, 1, 0, 0), (0, 1000, 0, 0, 1, 1, 0, 0),
    (1, 0, 64, 3, 1, 1, 4, 8), (1, 0, 5, 2, 1, 1, 4, 8), (1, 0, 64, 0, 1, 1, 4, 8),
    (2, 0, 0b1011, 2, 1, 1, 4, 8), (1, 0, 64, 4, 1, 0, 2, 0), (1, 0, 64, 2, 0, 1, 0, 8),
]


@pytest.mark.parametrize("which, src, dst", PAIRS)
@pytest.mark.parametrize("shape", SHAPES)
def test_fused_casts(which, src, dst, shape):
    form, count, mask, repeat, dblk, sblk, drep, srep = shape
    rng = np.random.default_rng(count + mask)
    if np.dtype(src).kind == "f":
        x = (rng.standard_normal(N) * 300).astype(src)
        z = (rng.standard_normal(N) * 300).astype(src)
        x[:6] = [65504, -65504, 0.5, 1.5, 2.5, np.inf] if src == np.float16 else \
            [3e38, -3e38, 0.5, 1.5, 2.5, 1e-40]
        z[:6] = [65504, 1, 0, 0, 0, 0]
    else:
        x = rng.integers(-32768, 32767, N).astype(src)
        z = rng.integers(-32768, 32767, N).astype(src)
    for kernel in modes(fc_kernel):
        y = np.full(N, 9, dst)
        launch(kernel, x, z, y, which, form, count, mask, repeat, dblk, sblk, drep, srep)
        want = model(which, form, x, z, np.full(N, 9, dst), count, mask, repeat, dblk, sblk,
                     drep, srep)
        np.testing.assert_array_equal(y, want)


def test_fused_cast_255_repeats():
    x = np.ones(N, np.float32)
    y = np.zeros(N, np.float16)
    launch(fc_kernel, x, x, y, 0, 1, 0, 64, 255, 1, 1, 0, 0)  # strides 0: one block rewritten
    assert (y[:64] == 2).all() and (y[64:] == 0).all()


@pytest.mark.parametrize("which, src, dst, message", [
    (0, np.float32, np.int8, "float32 -> int8 is not one of its casts"),
    (2, np.float32, np.float16, "mul_cast: float32 -> float16 is not one of its casts"),
    (1, np.int32, np.int8, "does not support a int32 source"),
])
def test_fused_cast_dtype_errors(which, src, dst, message):
    with pytest.raises(asc.CompileError, match=message):
        launch(fc_kernel, np.zeros(N, src), np.zeros(N, src), np.zeros(N, dst), which, 0, 8, 0,
               0, 1, 1, 8, 8)


def test_fused_cast_repeat_range():
    x = np.zeros(N, np.float16)
    with pytest.raises(asc.KernelError, match="repeat times 256 is outside") as info:
        launch(fc_kernel, x, x, np.zeros(N, np.int8), 0, 1, 0, 8, 256, 1, 1, 8, 8)
    assert "test_api_fused_cast.py" in str(info.value)


# --- repeat_reduce_sum ------------------------------------------------------------------------

@jit
def rrs_kernel(x: asc.GlobalAddress, y: asc.GlobalAddress, repeat: int, mask: int,
               sblk: int, drep: int, srep: int):
    src = local(x, 0, N)
    dst = local(y, 32768, 1024)
    asc.repeat_reduce_sum(dst, src, repeat, mask, 0, sblk, drep, srep)
    store(y, dst, 1024)


def tree(v, half):
    v = list(v) + [None] * (len(v) and (1 << (len(v) - 1).bit_length()) - len(v))
    while len(v) > 1:
        nxt = []
        for a, b in zip(v[::2], v[1::2]):
            if a is None or b is None:
                nxt.append(a if b is None else b)
                continue
            s = np.float32(a) + np.float32(b)
            if half:
                with np.errstate(over="ignore"):
                    s = np.float32(np.clip(np.float16(s), -65504, 65504))
            nxt.append(s)
        v = nxt
    return v[0]


@pytest.mark.parametrize("dtype", [np.float32, np.float16])
@pytest.mark.parametrize("repeat, mask, sblk, drep, srep", [
    (0, 8, 1, 1, 8), (1, 1, 1, 1, 8), (3, 37, 1, 1, 8), (4, 64, 1, 2, 8), (2, 64, 0, 1, 0),
    (255, 16, 1, 1, 0)])
def test_repeat_reduce_sum(dtype, repeat, mask, sblk, drep, srep):
    half = dtype == np.float16
    rng = np.random.default_rng(repeat)
    x = rng.integers(-50, 50, N).astype(dtype)
    x[:4] = [60000, 60000, -30000, 100] if half else [1e30, 1e30, -3, 1]
    es, per = np.dtype(dtype).itemsize, 256 // np.dtype(dtype).itemsize
    for kernel in modes(rrs_kernel):
        y = np.full(1024, 7, dtype)
        launch(kernel, x, y, repeat, mask, sblk, drep, srep)
        want = np.full(1024, 7, dtype)
        for r in range(repeat):
            lanes = [x[(r * srep * 32 + i // (32 // es) * sblk * 32) // es + i % (32 // es)]
                     for i in range(mask)]
            lanes += [None] * (per - mask)
            want[r * drep] = tree(lanes, half)
        np.testing.assert_array_equal(y, want)


def test_repeat_reduce_sum_saturates_float16_pairs():
    x = np.zeros(N, np.float16)
    x[:4] = [60000, 60000, -30000, 100]
    y = np.zeros(1024, np.float16)
    launch(rrs_kernel, x, y, 1, 4, 1, 1, 8)
    # the docs' example: 60000 + 60000 saturates at 65504, -30000 + 100 = -29900 rounds to
    # -29904 in float16, and 65504 - 29904 = 35600
    assert y[0] == np.float16(35600)


@pytest.mark.parametrize("repeat, mask, message", [
    (1, 0, "mask 0 is outside \\[1, 64\\]"), (1, 65, "mask 65 is outside"),
    (256, 8, "repeat_time 256 is outside \\[0, 255\\]")])
def test_repeat_reduce_sum_errors(repeat, mask, message):
    with pytest.raises(asc.KernelError, match=message):
        launch(rrs_kernel, np.zeros(N, np.float32), np.zeros(1024, np.float32), repeat, mask, 1,
               1, 8)


def test_repeat_reduce_sum_needs_an_aligned_src():
    @jit
    def k(x: asc.GlobalAddress):
        a = local(x, 0, 256)
        asc.repeat_reduce_sum(a[128], a[1], 1, 8, 0, 1, 1, 8)

    with pytest.raises(asc.KernelError, match="src starts at UB byte 4, which is not 32-byte"):
        launch(k, np.zeros(256, np.float32))


def test_repeat_reduce_sum_has_no_bit_mask_form():
    @jit
    def bad(x: asc.GlobalAddress):
        a = local(x, 0, 256)
        asc.repeat_reduce_sum(a, a, 1, [1, 0], 0, 1, 1, 8)

    with pytest.raises(asc.CompileError, match="no bit-mask form"):
        launch(bad, np.zeros(256, np.float32))


# --- Ascend C -----------------------------------------------------------------------------

def test_ascendc_forms_compile():
    x = np.zeros(N, np.float16)
    for which, api in ((0, "AddReluCast"), (1, "SubReluCast"), (2, "MulCast")):
        for form in (0, 1, 2):
            src = fc_kernel.ascendc(x, x.copy(), np.zeros(N, np.int8), which, form, 64, 64, 2, 1,
                                    1, 4, 8)
            assert f"AscendC::{api}" in src
            assert_valid_cpp(src)
    src = rrs_kernel.ascendc(np.zeros(N, np.float32), np.zeros(1024, np.float32), 2, 64, 1, 1, 8)
    assert "AscendC::RepeatReduceSum<float, true>(" in src
    assert_valid_cpp(src)
