"""gather_mask (built-in patterns 1..7, pattern tensors, normal and counter
mode), get_gather_mask_remain_count, gatherb, the CMPMASK register
(set_cmp_mask, get_cmp_mask, the register forms of compare and select) and
the scalar bit operations against NumPy models, in plain and checked mode,
with their errors and their Ascend C forms (checked with g++)."""

from __future__ import annotations

import numpy as np
import pytest

import pyasc as asc
from kernel_api_helpers import CACHE, jit, launch, local, modes, store
from test_ascendc import assert_valid_cpp


N = 4096


# --- gather_mask ------------------------------------------------------------------------------

@jit
def gm_kernel(x: asc.GlobalAddress, p: asc.GlobalAddress, y: asc.GlobalAddress,
              r: asc.GlobalAddress, builtin: asc.ConstExpr[int], reduce: asc.ConstExpr[bool],
              mask: int, blk: int, repeat: int, rep0: int, rep1: int):
    src = local(x, 0, N)
    dst = local(y, 65536, N)
    params = asc.GatherMaskParams(blk, repeat, rep0, rep1)
    if builtin > 0:
        n = asc.gather_mask(dst, src, builtin, reduce, mask, params)
    else:
        pattern = local(p, 32768, 1024)
        n = asc.gather_mask(dst, src, pattern, reduce, mask, params,
                            asc.GatherMaskMode.DEFAULT)
    g = asc.GlobalTensor()
    g.set_global_buffer(r, 2)
    g.set_value(0, n)
    g.set_value(1, asc.get_gather_mask_remain_count())
    store(y, dst, N)


def builtin_bits(pattern, per):
    i = np.arange(per)
    return {1: i % 2 == 0, 2: i % 2 == 1, 3: i % 4 == 0, 4: i % 4 == 1, 5: i % 4 == 2,
            6: i % 4 == 3, 7: np.ones(per, bool)}[pattern]


def gm_model(x, pat, builtin, reduce, mask, blk, repeat, rep0, rep1):
    """CANN's GatherMask on Atlas A2: repeat_times repeats of 256 bytes, or in counter mode of
    `mask` elements each, the pattern's bits read on from each repeat's first (CANN's
    GatherMask page, configuration one, and its gather example's scenario 2)."""
    es = x.itemsize
    per, epb = (mask if reduce else 256 // es), 32 // es
    out = []
    for r in range(repeat):
        if builtin:
            bits = builtin_bits(builtin, per)
        else:
            start = r * rep1 * 32
            bits = np.unpackbits(pat.view(np.uint8)[start:start + -(-per // 8)],
                                 bitorder="little")
        for i in range(per):
            if bits[i]:
                out.append(x[(r * rep0 * 32 + i // epb * blk * 32) // es + i % epb])
    return np.array(out, x.dtype)


CASES = [  # builtin, reduce, mask, blk, repeat, rep0, rep1
    (1, False, 0, 1, 1, 8, 0), (2, False, 0, 1, 3, 8, 0), (3, False, 0, 1, 2, 8, 0),
    (4, False, 0, 1, 2, 8, 0), (5, False, 0, 1, 2, 8, 0), (6, False, 0, 1, 2, 8, 0),
    (7, False, 0, 1, 4, 8, 0), (7, False, 0, 1, 0, 8, 0), (1, False, 0, 0, 3, 0, 0),
    (2, False, 0, 2, 2, 16, 0), (7, True, 100, 1, 1, 8, 0), (1, True, 1, 1, 9, 8, 0),
    (0, False, 0, 1, 3, 8, 1), (0, False, 0, 1, 3, 8, 0), (0, True, 300, 1, 2, 8, 2), (0, True, 70, 1, 2, 4, 0), (0, True, 9, 1, 0, 8, 0),
    (0, False, 0, 1, 1, 8, 0), (3, False, 0, 1, 14, 8, 0),
]


@pytest.mark.parametrize("dtype, pdtype, case", [
    (d, p, c) for d, p in ((np.float32, np.int32), (np.float16, np.int16)) for c in CASES] + [
    (d, p, c) for d, p in ((np.int32, np.int32), (np.int16, np.int16)) for c in CASES[10:14]])
def test_gather_mask(dtype, pdtype, case):
    builtin, reduce, mask, blk, repeat, rep0, rep1 = case
    rng = np.random.default_rng(7)
    x = rng.integers(-1000, 1000, N).astype(dtype)
    pat = rng.integers(-30000, 30000, 1024).astype(pdtype)
    want = gm_model(x, pat, builtin, reduce, mask, blk, repeat, rep0, rep1)
    for kernel in modes(gm_kernel):
        y = np.full(N, 5, dtype)
        r = np.full(2, -1, np.int64)
        launch(kernel, x, pat, y, r, builtin, reduce, mask, blk, repeat, rep0, rep1)
        assert list(r) == [len(want), len(want)]
        np.testing.assert_array_equal(y[:len(want)], want)
        assert (y[len(want):] == 5).all()


def test_gather_mask_255_repeats():
    x = np.arange(N * 4, dtype=np.float16)[:N]
    pat = np.zeros(1024, np.int16)
    want = gm_model(x, pat, 7, False, 0, 1, 255, 0, 0)
    y = np.zeros(N, np.float16)
    r = np.zeros(2, np.int64)
    launch(gm_kernel, x, pat, y, r, 7, False, 0, 1, 255, 0, 0)
    assert r[0] == 255 * 128 and len(want) == 255 * 128
    # 255 * 128 elements do not fit the 4096-element dst: the UB past it is written
    np.testing.assert_array_equal(y, want[:N])


@pytest.mark.parametrize("builtin, reduce, mask, repeat, rep0, message", [
    (1, False, 0, 256, 8, "repeat_times 256 is outside \\[0, 255\\]"),
    (1, True, 0, 1, 8, "counter-mode mask 0 is outside"),
    (1, False, 0, 1, 70000, "strides must be in \\[0, 65535\\]"),
    (0, False, 0, 200, 8, "gather_mask"),  # the pattern tensor runs out (checked mode below)
])
def test_gather_mask_errors_name_the_line(builtin, reduce, mask, repeat, rep0, message):
    x = np.zeros(N, np.float32)
    kernel = modes(gm_kernel)[1]
    with pytest.raises(asc.KernelError, match=message) as info:
        launch(kernel, x, np.zeros(1024, np.int32), x.copy(), np.zeros(2, np.int64), builtin,
               reduce, mask, 1, repeat, rep0, 1 if builtin == 0 else 0)
    assert "test_api_gather_mask.py" in str(info.value)


def test_gather_mask_compile_errors():
    @jit
    def bad_pattern(x: asc.GlobalAddress):
        a = local(x, 0, 256)
        asc.gather_mask(a, a, 8, False, 0, asc.GatherMaskParams())

    with pytest.raises(asc.CompileError, match="built-in src1_pattern 8 is outside"):
        launch(bad_pattern, np.zeros(256, np.float32))

    @jit
    def bad_dtype(x: asc.GlobalAddress, p: asc.GlobalAddress):
        a = local(x, 0, 256)
        b = local(p, 2048, 256)
        asc.gather_mask(a, a, b, False, 0, asc.GatherMaskParams())

    with pytest.raises(asc.CompileError, match="src1_pattern .* must have 4-byte integer elements, not int16"):
        launch(bad_dtype, np.zeros(256, np.float32), np.zeros(256, np.int16))

    @jit
    def bad_params(x: asc.GlobalAddress):
        a = local(x, 0, 256)
        asc.gather_mask(a, a, 1, False, 0, asc.BrcbRepeatParams(1, 8))

    with pytest.raises(asc.CompileError, match="params must be a pyasc.GatherMaskParams"):
        launch(bad_params, np.zeros(256, np.float32))


def test_gather_mask_and_gatherb_need_32_byte_aligned_tensors():
    @jit
    def k(x: asc.GlobalAddress, o: asc.GlobalAddress, which: asc.ConstExpr[int]):
        a = local(x, 0, 256)
        off = local(o, 2048, 64)
        if which == 0:
            asc.gather_mask(a[128], a[4], 7, False, 0, asc.GatherMaskParams())
        elif which == 1:
            asc.gather_mask(a[132], a, 7, False, 0, asc.GatherMaskParams())
        else:
            asc.gatherb(a[128], a, off[1], 1, asc.GatherRepeatParams())

    for which, message in ((0, "src0 starts at UB byte 16"), (1, "dst starts at UB byte 528"),
                           (2, "gatherb: offset starts at UB byte 2052")):
        with pytest.raises(asc.KernelError, match=message):
            launch(k, np.zeros(256, np.float32), np.zeros(64, np.int32), which)


def test_gather_mask_leaves_the_mask_in_normal_mode():
    @jit
    def k(x: asc.GlobalAddress, y: asc.GlobalAddress):
        a = local(x, 0, 256)
        b = local(y, 2048, 256)
        asc.set_mask_count()
        asc.gather_mask(b, a, 7, True, 64, asc.GatherMaskParams())
        asc.adds(b, a, 1.0, [3, 0], 1, asc.UnaryRepeatParams())  # normal mode: 2 elements
        store(y, b, 256)

    for kernel in modes(k):
        x = np.arange(256, dtype=np.float32)
        y = np.zeros(256, np.float32)
        launch(kernel, x, y)
        assert list(y[:4]) == [1, 2, 2, 3]


# --- gatherb ----------------------------------------------------------------------------------

@jit
def gatherb_kernel(x: asc.GlobalAddress, o: asc.GlobalAddress, y: asc.GlobalAddress,
                   repeat: int, blk: int, rep: int):
    src = local(x, 0, N)
    off = local(o, 32768, 2048)
    dst = local(y, 65536, N)
    asc.gatherb(dst, src, off, repeat, asc.GatherRepeatParams(blk, rep))
    store(y, dst, N)


@pytest.mark.parametrize("dtype", [np.float32, np.float16, np.int16])
@pytest.mark.parametrize("repeat, blk, rep", [(1, 1, 8), (3, 1, 8), (2, 2, 16), (4, 0, 1),
                                              (2, 1, 0), (30, 1, 8)])
def test_gatherb(dtype, repeat, blk, rep):
    es = np.dtype(dtype).itemsize
    rng = np.random.default_rng(repeat)
    x = np.arange(N).astype(dtype)
    blocks = N * es // 32
    off = (rng.integers(0, blocks, 2048) * 32).astype(np.int32)
    per = 32 // es
    for kernel in modes(gatherb_kernel):
        y = np.full(N, 3, dtype)
        launch(kernel, x, off, y, repeat, blk, rep)
        want = np.full(N, 3, dtype)
        for r in range(repeat):
            for j in range(8):
                at = (r * rep + j * blk) * per
                want[at:at + per] = x[off[r * 8 + j] // es:off[r * 8 + j] // es + per]
        np.testing.assert_array_equal(y, want)


@pytest.mark.parametrize("repeat, offset, message", [
    (0, 0, "repeat_time 0 is outside \\[1, 255\\]"), (256, 0, "repeat_time 256"),
    (1, 16, "offset\\[0\\] = 16 is not a 32-byte block"),
    (1, N * 4, "is not a 32-byte block of the 4096-element src0")])
def test_gatherb_errors(repeat, offset, message):
    off = np.full(2048, offset, np.int32)
    with pytest.raises(asc.KernelError, match=message):
        launch(gatherb_kernel, np.zeros(N, np.float32), off, np.zeros(N, np.float32), repeat, 1,
               8)


# --- CMPMASK: compare and select register forms -------------------------------------------

@jit
def cmp_kernel(a: asc.GlobalAddress, b: asc.GlobalAddress, y: asc.GlobalAddress,
               m: asc.GlobalAddress, mode: asc.ConstExpr[int], list_mask: asc.ConstExpr[bool],
               mask: int, repeat: int, set_first: asc.ConstExpr[bool]):
    s0 = local(a, 0, 1024)
    s1 = local(b, 8192, 1024)
    bits = asc.LocalTensor(asc.int16, asc.TPosition.VECCALC, 16384, 64)
    asc.duplicate(bits, 0, 64)
    dst = local(y, 32768, 1024)
    if set_first:
        asc.set_cmp_mask(local(m, 20480, 16))
    elif list_mask:
        asc.compare(s0, s1, mode, [mask, 0], asc.BinaryRepeatParams())
    else:
        asc.compare(s0, s1, mode, mask, asc.BinaryRepeatParams(1, 1, 1, 8, 8, 8))
    asc.get_cmp_mask(bits)
    asc.select(dst, s0, s1, repeat, asc.BinaryRepeatParams(), asc.SELMODE.VSEL_CMPMASK_SPR)
    store(m, bits.reinterpret_cast(asc.int32), 8)
    store(y, dst, 1024)


CMP = {0: np.less, 1: np.greater, 2: np.equal, 3: np.less_equal, 4: np.greater_equal,
       5: np.not_equal}


@pytest.mark.parametrize("dtype", [np.float32, np.float16])
@pytest.mark.parametrize("mode, list_mask, mask", [(m, False, 64) for m in range(6)] + [
    (1, False, 5), (3, True, 0b1011), (4, True, (1 << 63) | 1)])
def test_compare_register_form_and_get_cmp_mask(dtype, mode, list_mask, mask):
    rng = np.random.default_rng(mode)
    a = rng.integers(-3, 3, 1024).astype(dtype)
    b = rng.integers(-3, 3, 1024).astype(dtype)
    per = 256 // np.dtype(dtype).itemsize
    if list_mask:
        on = np.array([(mask >> i) & 1 for i in range(64)] + [0] * (per - 64), bool)[:per]
    else:
        on = np.arange(per) < mask
    bits = CMP[mode](a[:per], b[:per]) & on
    for kernel in modes(cmp_kernel):
        y = np.zeros(1024, dtype)
        m = np.full(16, 7, np.int32)
        launch(kernel, a, b, y, m, mode, list_mask, mask if not list_mask or mask < 1 << 63
               else mask - (1 << 64), 2, False)
        assert (m[4:8] == 0).all() and (m[8:] == 7).all()
        got = np.unpackbits(m[:4].view(np.uint8), bitorder="little")[:per].astype(bool)
        want_bits = np.zeros(128, bool)
        want_bits[:per] = bits
        np.testing.assert_array_equal(got, want_bits[:per])
        # select: every repeat takes the same 128 bits (the 2-byte case) or the first 64
        sel = np.concatenate([want_bits[:per]] * 2)
        np.testing.assert_array_equal(y[:2 * per], np.where(sel, a[:2 * per], b[:2 * per]))


def test_set_cmp_mask_feeds_select():
    a = np.arange(1024, dtype=np.float16)
    b = -np.arange(1024, dtype=np.float16)
    m = np.zeros(16, np.int32)
    m[:4] = [0x0F0F0F0F, 0x00000001, 0, -1]
    m[4:] = 99
    for kernel in modes(cmp_kernel):
        y = np.zeros(1024, np.float16)
        mm = m.copy()
        launch(kernel, a, b, y, mm, 0, False, 64, 3, True)
        bits = np.unpackbits(m[:4].view(np.uint8), bitorder="little").astype(bool)
        np.testing.assert_array_equal(mm[:4], m[:4])  # get_cmp_mask reads back what was set
        assert (mm[4:8] == 0).all()
        sel = np.concatenate([bits] * 3)
        np.testing.assert_array_equal(y[:384], np.where(sel, a[:384], b[:384]))
        assert (y[384:] == 0).all()


def test_register_forms_errors():
    @jit
    def bad_mode(x: asc.GlobalAddress):
        a = local(x, 0, 256)
        asc.select(a, a, a, 1, asc.BinaryRepeatParams(), asc.SELMODE.VSEL_TENSOR_TENSOR_MODE)

    with pytest.raises(asc.CompileError, match="register form .* takes SELMODE.VSEL_CMPMASK_SPR"):
        launch(bad_mode, np.zeros(256, np.float32))

    @jit
    def small(x: asc.GlobalAddress):
        a = local(x, 0, 256)
        t = asc.LocalTensor(asc.float32, asc.TPosition.VECCALC, 4096, 16)
        asc.get_cmp_mask(t)

    with pytest.raises(asc.KernelError, match="get_cmp_mask: dst holds 64 bytes; it must hold"):
        launch(small, np.zeros(256, np.float32))


# --- scalars --------------------------------------------------------------------------------

@jit
def scalar_kernel(y: asc.GlobalAddress, v: int, f: float):
    g = asc.GlobalTensor()
    g.set_global_buffer(y, 9)
    g.set_value(0, asc.scalar_count_leading_zero(v))
    g.set_value(1, asc.scalar_get_count_of_value(v, 1))
    g.set_value(2, asc.scalar_get_count_of_value(v, 0))
    g.set_value(3, asc.scalar_get_sff_value(v, 1))
    g.set_value(4, asc.scalar_get_sff_value(value_in=v, count_value=0))
    g.set_value(5, asc.count_bits_cnt_same_as_sign_bit(v))
    g.set_value(6, asc.scalar_cast(f, asc.int32, asc.RoundMode.CAST_ROUND))
    g.set_value(7, asc.scalar_cast(f, asc.int32, asc.RoundMode.CAST_FLOOR))
    g.set_value(8, asc.scalar_count_leading_zero(0x0fffffffffffffff))


def bits_model(v, f):
    u = v & (1 << 64) - 1
    clz = 64 - u.bit_length()
    ones = bin(u).count("1")
    sff1 = (u & -u).bit_length() - 1 if u else -1
    inv = ~u & (1 << 64) - 1
    sff0 = (inv & -inv).bit_length() - 1 if inv else -1
    same = -1 if v in (0, -1) else (64 - ((~u if v < 0 else u) & (1 << 64) - 1).bit_length()) - 1
    rnd = int(np.sign(f) * np.floor(abs(np.float64(np.float32(f))) + 0.5))
    clamp = lambda n: max(-2**31, min(2**31 - 1, n))  # noqa: E731
    return [clz, ones, 64 - ones, sff1, sff0, same, clamp(rnd),
            clamp(int(np.floor(np.float32(f)))), 4]


@pytest.mark.parametrize("v", [0, 1, -1, 28, 0xffff, 0x0f00000000000000, -(1 << 63),
                               (1 << 63) - 1, -2, 1 << 40])
@pytest.mark.parametrize("f", [2.5, -2.5, 0.49999997, 3e9, -3e9, 7.0])
def test_scalar_bit_operations(v, f):
    for kernel in modes(scalar_kernel):
        y = np.zeros(9, np.int64)
        launch(kernel, y, v, f)
        assert list(y) == bits_model(v, f)


def test_scalar_cast_to_half_rounds_to_odd():
    @jit
    def k(y: asc.GlobalAddress, f: float):
        g = asc.GlobalTensor()
        g.set_global_buffer(y, 1)
        g.set_value(0, asc.scalar_cast(f, asc.float16, asc.RoundMode.CAST_ODD))

    # 1 + 2**-11 is halfway between two halfs: round to odd goes up to 1 + 2**-10
    for f, want in ((1 + 2 ** -11, 1 + 2 ** -10), (2.0, 2.0), (1 + 3 * 2 ** -12, 1 + 2 ** -10),
                    (70000.0, 65504.0)):
        y = np.zeros(1, np.float32)
        launch(k, y, f)
        assert y[0] == np.float32(want), f


@pytest.mark.parametrize("call, message", [
    ("asc.scalar_cast(1.5, asc.float16, asc.RoundMode.CAST_RINT)", "takes RoundMode.CAST_ODD"),
    ("asc.scalar_cast(1.5, asc.int32, asc.RoundMode.CAST_ODD)", "CAST_RINT, CAST_FLOOR"),
    ("asc.scalar_cast(1.5, asc.float32, asc.RoundMode.CAST_RINT)", "float16 or int32"),
    ("asc.scalar_get_count_of_value(3, 2)", "count_value must be 0 or 1"),
    ("asc.scalar_get_sff_value(3, n)", "count_value must be a compile-time int"),
    ("asc.scalar_count_leading_zero(1 << 64)", "does not fit in 64 bits"),
])
def test_scalar_errors(call, message):
    src = f"def k(y: asc.GlobalAddress, n: int):\n    x = {call}\n"
    namespace: dict = {"asc": asc}
    path = f"{CACHE}/scalar_error_kernel.py"
    with open(path, "w") as f:
        f.write(src)
    exec(compile(src, path, "exec"), namespace)
    with pytest.raises(asc.CompileError, match=message) as info:
        launch(jit(namespace["k"]), np.zeros(1, np.int64), 1)
    assert "scalar_error_kernel.py:2" in str(info.value)


# --- Ascend C -----------------------------------------------------------------------------

def test_ascendc_forms_compile():
    x = np.zeros(N, np.float16)
    for builtin in (0, 3):
        src = gm_kernel.ascendc(x, np.zeros(1024, np.int16), x.copy(), np.zeros(2, np.int64),
                                builtin, False, 0, 1, 2, 8, 0)
        assert "AscendC::GatherMask(" in src and "AscendC::GetGatherMaskRemainCount()" in src
        assert_valid_cpp(src)
    src = gatherb_kernel.ascendc(np.zeros(N, np.float32), np.zeros(2048, np.int32),
                                 np.zeros(N, np.float32), 2, 1, 8)
    assert "AscendC::Gatherb(" in src
    assert_valid_cpp(src)
    a = np.zeros(1024, np.float32)
    for list_mask, set_first in ((False, False), (True, False), (False, True)):
        src = cmp_kernel.ascendc(a, a.copy(), a.copy(), np.zeros(16, np.int32), 1, list_mask, 64,
                                 1, set_first)
        assert "AscendC::GetCmpMask(" in src and "VSEL_CMPMASK_SPR" in src
        assert_valid_cpp(src)
    src = scalar_kernel.ascendc(np.zeros(9, np.int64), 3, 1.5)
    for api in ("ScalarCountLeadingZero", "ScalarGetCountOfValue<1>", "ScalarGetSFFValue<0>",
                "CountBitsCntSameAsSignBit", "ScalarCast<float, int32_t"):
        assert f"AscendC::{api}" in src
    assert_valid_cpp(src)
