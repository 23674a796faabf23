"""The vector APIs' mask/repeat (level-0) forms and the APIs added with them,
against NumPy models of docs/kernel-reference.md's semantics: masks in normal
and counter mode (set by the call or held in the mask register), repeats,
block and repeat strides, data_copy with DataCopyParams, data_copy_pad,
and the debugging APIs (cast, compare/select and the reductions:
test_kernel_api_cast_reduce.py).

One kernel per API family and dtype: the API, the mask form and every
numeric parameter are run-time arguments (the API picked by a compile-time
dispatch), so each kernel compiles once and the cases only launch it.
float16 results are bit-exact: the vector unit computes in float32 and
rounds once per instruction, which the references do too.
"""


from __future__ import annotations

import tempfile

import numpy as np
import pytest

import pyasc as asc
from kernel_api_helpers import CACHE, jit
from vector_api_model import (UBB, V_BITS, V_CONT, V_COUNT, V_COUNTER, V_REG_BITS, V_REG_COUNTER,
                              V_REG_LEN, bits_equal, checked, element, launch, load, params,
                              selected, store, values)


# --- binary / scalar / unary families --------------------------------------------------------

BIN_F = (asc.add, asc.sub, asc.mul, asc.div, asc.max, asc.min, asc.fused_mul_add,
         asc.mul_add_dst)
BIN_I = (asc.add, asc.sub, asc.mul, asc.max, asc.min, asc.bitwise_and, asc.bitwise_or)
SCAL_F = (asc.adds, asc.muls, asc.maxs, asc.mins, asc.leaky_relu, asc.axpy)
SCAL_I = (asc.adds, asc.muls, asc.maxs, asc.mins, asc.shift_left, asc.shift_right)
UN_F = (asc.exp, asc.ln, asc.abs, asc.sqrt, asc.rsqrt, asc.reciprocal, asc.relu)
UN_I = (asc.abs, asc.bitwise_not)


@jit
def apply(fn, lead, m, rep, p, set_mask: asc.ConstExpr[int]):
    """fn(*lead, m, rep, p, set_mask): kernels take no *args."""
    if len(lead) == 3:
        fn(lead[0], lead[1], lead[2], m, rep, p, set_mask == 1)
    else:
        fn(lead[0], lead[1], m, rep, p, is_set_mask=set_mask == 1)


@jit
def run_variant(fn, lead, variant, m0, m1, rep, p):
    """fn(*lead, <mask form>) in the form `variant` selects."""
    dtype = lead[0].dtype
    if variant == 0:
        apply(fn, lead, m0, rep, p, 1)
    elif variant == 1:
        apply(fn, lead, [m0, m1], rep, p, 1)
    elif variant == 2:
        asc.set_mask_count()
        apply(fn, lead, m0, 7, p, 1)  # counter mode ignores repeat_times
        asc.set_mask_norm()
    elif variant == 3:
        asc.set_vector_mask(m1, m0, dtype=dtype, mode=asc.MaskMode.NORMAL)
        apply(fn, lead, 0, rep, p, 0)
        asc.reset_mask()
    elif variant == 4:
        asc.set_mask_count()
        asc.set_vector_mask(m0, dtype=dtype, mode=asc.MaskMode.COUNTER)
        apply(fn, lead, 0, rep, p, 0)
        asc.set_mask_norm()
        asc.reset_mask()
    elif variant == 5:
        if len(lead) == 3:
            fn(lead[0], lead[1], lead[2], m0)
        else:
            fn(lead[0], lead[1], m0)
    else:
        asc.set_vector_mask(m0, dtype=dtype, mode=asc.MaskMode.NORMAL)
        apply(fn, lead, 0, rep, p, 0)
        asc.reset_mask()


@jit
def dispatch(ops, k: asc.ConstExpr[int], which, lead, variant, m0, m1, rep, p):
    if k < len(ops):
        if which == k:
            run_variant(ops[k], lead, variant, m0, m1, rep, p)
        dispatch(ops, k + 1, which, lead, variant, m0, m1, rep, p)


@jit
def vector_kernel(x: asc.GlobalAddress, y: asc.GlobalAddress, z: asc.GlobalAddress,
                  prm: asc.GlobalAddress, s: float, family: asc.ConstExpr[int]):
    a = load(x, asc.TPosition.VECIN, 0)
    b = load(y, asc.TPosition.VECIN, UBB)
    c = load(z, asc.TPosition.VECOUT, 2 * UBB)
    g = params(prm)
    which = g.get_value(0)
    variant = g.get_value(1)
    m0 = g.get_value(2)
    m1 = g.get_value(3)
    rep = g.get_value(4)
    is_int = x.dtype == asc.int16
    if family == 0:
        p = asc.BinaryRepeatParams(g.get_value(5), g.get_value(6), g.get_value(7),
                                   g.get_value(8), g.get_value(9), g.get_value(10))
        dispatch(BIN_I if is_int else BIN_F, 0, which, (c, a, b), variant, m0, m1, rep, p)
    else:
        p = asc.UnaryRepeatParams(g.get_value(5), g.get_value(6), g.get_value(7),
                                  g.get_value(8))
        if family == 1:
            dispatch(SCAL_I if is_int else SCAL_F, 0, which, (c, a, s), variant, m0, m1, rep, p)
        else:
            dispatch(UN_I if is_int else UN_F, 0, which, (c, a), variant, m0, m1, rep, p)
    store(z, c)


def f32(a):
    return a.astype(np.float32)


def ref_binary(name, dtype, x, y, d):
    if dtype == np.int16:
        return {"add": lambda: x + y, "sub": lambda: x - y, "mul": lambda: x * y,
                "max": lambda: np.maximum(x, y), "min": lambda: np.minimum(x, y),
                "bitwise_and": lambda: x & y, "bitwise_or": lambda: x | y}[name]()
    return {"add": lambda: x + y, "sub": lambda: x - y, "mul": lambda: x * y,
            "div": lambda: x / y, "max": lambda: np.where(x > y, x, y),
            "min": lambda: np.where(x < y, x, y),
            # one instruction: float32 arithmetic, one rounding
            "fused_mul_add": lambda: (f32(x) * f32(d) + f32(y)).astype(dtype),
            "mul_add_dst": lambda: (f32(x) * f32(y) + f32(d)).astype(dtype)}[name]()


def ref_scalar(name, dtype, x, s, d):
    if dtype == np.int16:
        s = np.int16(s)
        bits = 16
        return {"adds": lambda: x + s, "muls": lambda: x * s, "maxs": lambda: np.maximum(x, s),
                "mins": lambda: np.minimum(x, s),
                "shift_left": lambda: (x << s if 0 <= s < bits else np.zeros_like(x)),
                "shift_right": lambda: (x >> s if 0 <= s < bits else
                                        np.where(x < 0, -1, 0).astype(x.dtype))}[name]()
    s = dtype(s)
    return {"adds": lambda: x + s, "muls": lambda: x * s, "maxs": lambda: np.where(x > s, x, s),
            "mins": lambda: np.where(x < s, x, s),
            "leaky_relu": lambda: np.where(x >= 0, x, x * s),
            "axpy": lambda: (f32(x) * np.float32(s) + f32(d)).astype(dtype)}[name]()


def ref_unary(name, dtype, x):
    with np.errstate(all="ignore"):
        if dtype == np.int16:
            return {"abs": lambda: np.abs(x), "bitwise_not": lambda: ~x}[name]()
        return {"exp": lambda: np.exp(x), "ln": lambda: np.log(x), "abs": lambda: np.abs(x),
                "sqrt": lambda: np.sqrt(x), "rsqrt": lambda: (1 / np.sqrt(f32(x))).astype(dtype),
                "reciprocal": lambda: (1 / f32(x)).astype(dtype),
                "relu": lambda: np.where(x > 0, x, dtype(0))}[name]()


#: (variant, m0, m1, repeat, strides) cases; strides are (blk..., rep...) in
#: BinaryRepeatParams order (dst, src0, src1) or UnaryRepeatParams (dst, src).
def cases(per_rep, binary):
    def st(b, r):
        return tuple(b) + tuple(r)
    d2, d3 = ((1, 1), (8, 8)), ((1, 1, 1), (8, 8, 8))
    default = st(*(d3 if binary else d2))
    wide = st((1, 2, 0), (8, 16, 1)) if binary else st((1, 2), (8, 16))
    gaps = st((2, 1, 3), (16, 8, 24)) if binary else st((2, 3), (16, 0))
    m1 = 0xF0F0_0000_0000_F00F if per_rep > 64 else 0
    return [
        ("continuous-full", V_CONT, per_rep, 0, 2, default),
        ("continuous-part", V_CONT, 37, 0, 3, wide),
        ("bits", V_BITS, 0x5555_0000_FFFF_0001, m1, 2, gaps),
        ("counter", V_COUNTER, per_rep + 22, 0, 0, wide),
        ("register-bits", V_REG_BITS, 0xFF00_00FF, 1 << 63 if per_rep > 64 else 0, 2, default),
        ("register-counter", V_REG_COUNTER, 2 * per_rep + 5, 0, 0, gaps),
        ("count", V_COUNT, 3 * per_rep - 9, 0, 0, default),
        ("register-length", V_REG_LEN, 11, 0, 3, wide),
        ("repeat-0", V_CONT, per_rep, 0, 0, default),
    ]


def run_vector(family, ops, op_index, dtype, variant, m0, m1, rep, strides, scalar=0.0,
               seed=0, kernel=None):
    n = UBB // np.dtype(dtype).itemsize
    positive = family == 2 and ops[op_index].__name__ in ("ln", "sqrt", "rsqrt")
    x = values(dtype, n, seed, positive)
    y = values(dtype, n, seed + 1)
    z = values(dtype, n, seed + 2)
    prm = np.zeros(16, np.uint64)  # mask words are uint64 bit patterns
    prm[:5] = [op_index, variant, m0 % (1 << 64), m1, rep]
    prm[5:5 + len(strides)] = strides
    out = z.copy()
    launch(kernel or vector_kernel, x, y, out, prm.view(np.int64), scalar, family)
    return x, y, z, out


def expected_vector(family, name, dtype, x, y, z, variant, m0, m1, rep, strides, scalar):
    es = np.dtype(dtype).itemsize
    r, idx = selected(256 // es, variant, m0, m1, rep)
    nops = 3 if family == 0 else 2
    blk, rep_s = strides[:nops], strides[nops:]
    at = [element(es, blk[j], rep_s[j], r, idx) for j in range(nops)]
    expected = z.copy()
    if family == 0:
        expected[at[0]] = ref_binary(name, dtype, x[at[1]], y[at[2]], z[at[0]])
    elif family == 1:
        expected[at[0]] = ref_scalar(name, dtype, x[at[1]], scalar, z[at[0]])
    else:
        expected[at[0]] = ref_unary(name, dtype, x[at[1]])
    return expected


FAMILIES = [(0, BIN_F, BIN_I), (1, SCAL_F, SCAL_I), (2, UN_F, UN_I)]


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.int16])
@pytest.mark.parametrize("family", [0, 1, 2], ids=["binary", "scalar", "unary"])
def test_vector_mask_forms(family, dtype):
    """Every op of the family in every mask form: continuous and bit masks,
    counter mode, the mask register (bits, length, count), repeats and
    block/repeat strides; unselected destination elements stay unchanged."""
    ops = FAMILIES[family][2 if dtype == np.int16 else 1]
    per_rep = 256 // np.dtype(dtype).itemsize
    for k, fn in enumerate(ops):
        name = fn.__name__
        for case, variant, m0, m1, rep, strides in cases(per_rep, family == 0):
            scalar = {"shift_left": 3, "shift_right": 2, "leaky_relu": 0.375}.get(name, -1.25)
            if dtype == np.int16 and name not in ("shift_left", "shift_right"):
                scalar = -7
            x, y, z, out = run_vector(family, ops, k, dtype, variant, m0, m1, rep, strides,
                                      scalar, seed=k)
            expected = expected_vector(family, name, dtype, x, y, z, variant, m0, m1, rep,
                                       strides, scalar)
            if name in ("exp", "ln"):  # libm vs NumPy's own exp/log: within an ulp
                np.testing.assert_allclose(out.astype(np.float64), expected.astype(np.float64),
                                           rtol=2 * np.finfo(dtype).eps, err_msg=f"{name} {case}")
            else:
                try:
                    bits_equal(out, expected)
                except AssertionError as exc:
                    raise AssertionError(f"{name} {case}: {exc}") from None


def test_vector_float16_rounds_once_per_instruction():
    """float16 mul in the mask form rounds like NumPy's float16 (bit-exact)
    on values whose products need rounding, including ties and overflow."""
    x = np.array([1.0009765625, 255.875, 300.0, -0.0001, 65504.0, 2.0] * 700, np.float16)[:4096]
    y = np.array([1.0009765625, 257.0, 300.0, 0.5, 2.0, -0.0] * 700, np.float16)[:4096]
    z = np.zeros(4096, np.float16)
    prm = np.zeros(16, np.int64)
    prm[:11] = [2, V_CONT, 128, 0, 32, 1, 1, 1, 8, 8, 8]  # mul over 32 repeats
    launch(vector_kernel, x, y, z, prm, 0.0, 0)
    with np.errstate(over="ignore"):
        bits_equal(z, x * y)


@pytest.mark.parametrize("shift", [0, 15, 16, -1])
def test_shift_out_of_range(shift):
    """Shift counts outside [0, bits): left gives 0, right the sign."""
    for k, name in ((4, "shift_left"), (5, "shift_right")):
        x, y, z, out = run_vector(1, SCAL_I, k, np.int16, V_COUNT, 4096, 0, 0, (1, 1, 8, 8),
                                  shift)
        bits_equal(out, ref_scalar(name, np.int16, x, shift, z))


@pytest.mark.parametrize("case", [
    ("repeat 256", V_CONT, 64, 0, 256), ("negative count", V_COUNTER, -5, 0, 1),
], ids=lambda c: c[0])
def test_vector_mask_errors(case):
    """Repeats and counts the hardware cannot take stop the kernel."""
    _, variant, m0, m1, rep = case
    with pytest.raises(asc.KernelError, match="add"):
        run_vector(0, BIN_F, 0, np.float32, variant, m0, m1, rep, (1, 1, 1, 8, 8, 8))


_vector_checked = checked(vector_kernel)


@pytest.mark.parametrize("case", [
    ("mask 0", V_CONT, 0, 0, 1, r"mask 0 is outside \[1, 64\]"),
    ("mask over a repeat", V_CONT, 65, 0, 1, r"mask 65 is outside \[1, 64\]"),
    ("bits beyond a 32-bit repeat", V_BITS, 1, 1, 1, "bits beyond element 64"),
    ("all bits of both words", V_BITS, (1 << 64) - 1, (1 << 64) - 1, 2,
     "bits beyond element 64"),
    ("no bits", V_BITS, 0, 0, 1, "selects no element"),
], ids=lambda c: c[0])
def test_vector_masks_beyond_a_repeat_are_tolerated_by_default(case):
    """As on the hardware, mask bits beyond a repeat's elements are ignored
    (a length beyond it selects the whole repeat, 0 selects nothing);
    checked mode reports them."""
    _, variant, m0, m1, rep, message = case
    strides = (1, 1, 1, 8, 8, 8)
    x, y, z, out = run_vector(0, BIN_F, 0, np.float32, variant, m0, m1, rep, strides)
    bits_equal(out, expected_vector(0, "add", np.float32, x, y, z, variant, m0, m1, rep, strides,
                                    0.0))
    with pytest.raises(asc.KernelError, match=rf"add: .*{message}"):
        run_vector(0, BIN_F, 0, np.float32, variant, m0, m1, rep, strides,
                   kernel=_vector_checked)


# --- axpy with a wider destination ----------------------------------------------------------


@jit
def axpy_mixed_kernel(x: asc.GlobalAddress, z: asc.GlobalAddress, s: float, mask: int,
                      rep: int):
    a = load(x, asc.TPosition.VECIN, 0)
    c = load(z, asc.TPosition.VECOUT, UBB)
    asc.axpy(c, a, s, 100)
    asc.axpy(c[512:], a[512:], s, mask, rep, asc.UnaryRepeatParams(1, 1, 8, 4))
    store(z, c)


def test_axpy_float16_into_float32():
    """float16 src and scalar accumulate into float32: per repeat 64
    elements (the float32 width), the source using 4 data blocks."""
    x = values(np.float16, 4096, 3)
    z = values(np.float32, 2048, 4)
    out = z.copy()
    launch(axpy_mixed_kernel, x, out, 0.625, 40, 3)
    s = np.float32(np.float16(0.625))
    expected = z.copy()
    expected[:100] = f32(x[:100]) * s + z[:100]
    r, idx = selected(64, V_CONT, 40, 0, 3)
    d = 512 + element(4, 1, 8, r, idx)
    src = 512 + element(2, 1, 4, r, idx)
    expected[d] = f32(x[src]) * s + z[d]
    bits_equal(out, expected)


# --- data_copy with DataCopyParams, data_copy_pad ----------------------------------------------


@jit
def copy_params_kernel(x: asc.GlobalAddress, z: asc.GlobalAddress, prm: asc.GlobalAddress):
    g = params(prm)
    n = UBB // x.dtype.sizeof()
    xg = asc.GlobalTensor()
    xg.set_global_buffer(x, n)
    zg = asc.GlobalTensor()
    zg.set_global_buffer(z, n)
    t = asc.LocalTensor(x.dtype, asc.TPosition.VECIN, 0, n)
    u = asc.LocalTensor(x.dtype, asc.TPosition.VECOUT, UBB, n)
    asc.duplicate(t, 0, n)
    asc.duplicate(u, 0, n)
    asc.data_copy(t, xg, asc.DataCopyParams(g.get_value(0), g.get_value(1), g.get_value(2),
                                            g.get_value(3)))
    asc.data_copy(u, t, repeat_params=asc.DataCopyParams(block_count=g.get_value(4),
                                                         block_len=g.get_value(5),
                                                         src_stride=g.get_value(6),
                                                         dst_stride=g.get_value(7)))
    asc.data_copy(zg, u, asc.DataCopyParams(g.get_value(8), g.get_value(9), g.get_value(10),
                                            g.get_value(11)))


def bursts(src, dst, count, length, src_stride, dst_stride, epb):
    for i in range(count):
        s = i * (length + src_stride) * epb
        d = i * (length + dst_stride) * epb
        dst[d:d + length * epb] = src[s:s + length * epb]


@pytest.mark.parametrize("dtype", [np.float32, np.int16])
@pytest.mark.parametrize("p", [(1, 4, 0, 0, 1, 4, 0, 0, 1, 4, 0, 0),
                               (3, 2, 1, 0, 3, 2, 0, 2, 2, 4, 0, 3),
                               (5, 1, 2, 3, 2, 9, 1, 1, 4, 3, 2, 0),
                               (0, 4, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0)])
def test_data_copy_params(dtype, p):
    """GM->UB, UB->UB and UB->GM bursts: block_count bursts of block_len
    32-byte blocks, strides in blocks between bursts."""
    n = UBB // np.dtype(dtype).itemsize
    epb = 32 // np.dtype(dtype).itemsize
    x = values(dtype, n, 5)
    z = values(dtype, n, 6)
    out = z.copy()
    launch(copy_params_kernel, x, out, np.array(p + (0,) * 4, np.int64))
    t = np.zeros(n, dtype)
    u = np.zeros(n, dtype)
    expected = z.copy()
    bursts(x, t, *p[0:4], epb)
    bursts(t, u, *p[4:8], epb)
    bursts(u, expected, *p[8:12], epb)
    bits_equal(out, expected)


@jit
def copy_pad_kernel(x: asc.GlobalAddress, z: asc.GlobalAddress, prm: asc.GlobalAddress,
                    pad: float, ext: asc.ConstExpr[int]):
    g = params(prm)
    n = UBB // x.dtype.sizeof()
    xg = asc.GlobalTensor()
    xg.set_global_buffer(x, n)
    zg = asc.GlobalTensor()
    zg.set_global_buffer(z, n)
    t = asc.LocalTensor(x.dtype, asc.TPosition.VECIN, 0, n)
    asc.duplicate(t, -1, n)
    if ext:
        cp = asc.DataCopyExtParams(g.get_value(0), g.get_value(1), g.get_value(2),
                                   g.get_value(3), 0)
        pp = asc.DataCopyPadExtParams(x.dtype, g.get_value(4) != 0, g.get_value(5),
                                      g.get_value(6), pad)
        asc.data_copy_pad(t, xg[g.get_value(10):], cp, pp)
    else:
        asc.data_copy_pad(t, xg[g.get_value(10):],
                          asc.DataCopyParams(g.get_value(0), g.get_value(1), g.get_value(2),
                                             g.get_value(3)),
                          asc.DataCopyPadParams(g.get_value(4) != 0, g.get_value(5),
                                                g.get_value(6), 0))
    asc.data_copy_pad(zg[g.get_value(11):], t,
                      asc.DataCopyParams(g.get_value(0), g.get_value(7), g.get_value(8),
                                         g.get_value(9)))


def pad_reference(x, z, p, pad, dtype):
    es = np.dtype(dtype).itemsize
    bc, bl, ss, ds, is_pad, lp, rp, bl2, ss2, ds2, xoff, zoff = p
    if not is_pad:
        lp = rp = 0
    n = UBB // es
    t = np.full(n, -1, dtype)
    row = (lp + bl // es + rp) * es
    ub_stride = (row + 31) // 32 * 32 + ds * 32
    for i in range(bc):
        d = i * ub_stride // es
        s = xoff + i * (bl + ss) // es
        t[d:d + lp] = pad
        t[d + lp:d + lp + bl // es] = x[s:s + bl // es]
        t[d + lp + bl // es:d + lp + bl // es + rp] = pad
    out = z.copy()
    ub_stride2 = (bl2 + 31) // 32 * 32 + ss2 * 32
    for i in range(bc):
        s = i * ub_stride2 // es
        d = zoff + i * (bl2 + ds2) // es
        out[d:d + bl2 // es] = t[s:s + bl2 // es]
    return out


@pytest.mark.parametrize("ext", [0, 1], ids=["DataCopyParams", "DataCopyExtParams"])
@pytest.mark.parametrize("p", [
    # bc, bl, ss, ds, is_pad, lp, rp, bl2, ss2, ds2, x offset, z offset (elements)
    (3, 20, 6, 0, 1, 2, 3, 20, 0, 2, 1, 3),
    (4, 2, 0, 1, 1, 0, 16, 14, 1, 0, 7, 0),
    (2, 62, 2, 2, 0, 5, 5, 30, 0, 4, 0, 5),
    (1, 64, 0, 0, 1, 16, 0, 96, 0, 0, 3, 1),
    (0, 20, 0, 0, 1, 1, 1, 20, 0, 0, 0, 0),
])
def test_data_copy_pad(ext, p):
    """Rows of any byte length between GM and UB: unaligned GM offsets and
    lengths, byte strides on GM, block strides on UB, padding both sides
    with the pad value (typed with DataCopyPadExtParams, 0 otherwise)."""
    dtype = np.float16
    x = values(dtype, UBB // 2, 7)
    z = values(dtype, UBB // 2, 8)
    out = z.copy()
    pad = 2.5 if ext else 0.0
    launch(copy_pad_kernel, x, out, np.array(p + (0,) * 4, np.int64), pad, ext)
    bits_equal(out, pad_reference(x, z, p, dtype(pad), dtype))


@pytest.mark.parametrize("p, message", [
    ((1, 3, 0, 0, 0, 0, 0, 4, 0, 0, 0, 0), "whole 2-byte elements"),
    ((1, 4, 0, 0, 1, 17, 0, 4, 0, 0, 0, 0), "exceeds 32 bytes"),
])
def test_data_copy_pad_errors(p, message):
    with pytest.raises(asc.KernelError, match=message):
        launch(copy_pad_kernel, values(np.float16, 4096), np.zeros(4096, np.float16),
               np.array(p + (0,) * 4, np.int64), 0.0, 1)


def test_data_copy_pad_byte_strides():
    """A GM stride that is not whole elements: one row uses no stride and copies as any other
    (CANN's examples pass {1, len, 1, 1, 0}); with more rows the MTE steps by bytes, so the next
    row starts mid-element, which checked mode reports."""
    x = values(np.float16, 4096, 9)
    one = (1, 8, 1, 0, 0, 0, 0, 8, 0, 3, 0, 0)
    z = np.zeros(4096, np.float16)
    launch(copy_pad_kernel, x, z, np.array(one + (0,) * 4, np.int64), 0.0, 1)
    bits_equal(z, np.concatenate([x[:4], np.zeros(4092, np.float16)]))
    two = (2, 8, 1, 0, 0, 0, 0, 8, 0, 0, 0, 0)
    z = np.zeros(4096, np.float16)
    launch(copy_pad_kernel, x, z, np.array(two + (0,) * 4, np.int64), 0.0, 1)
    second = x.view(np.uint8)[9:17].view(np.float16)  # 8 + 1 bytes on
    bits_equal(z[:4], x[:4])
    bits_equal(z[4:8], second)  # UB rows a block apart, GM rows back to back
    with pytest.raises(asc.KernelError, match=r"src_stride \(1\) .*mid-element"):
        launch(checked(copy_pad_kernel), x, z, np.array(two + (0,) * 4, np.int64), 0.0, 1)


def test_data_copy_pad_past_the_argument():
    """A row past the argument's end reads zeros there by default (the
    device reads unspecified values); checked mode reports it."""
    p = (1, 8194, 0, 0, 0, 0, 0, 4, 0, 0, 0, 0)  # 4097 float16 from a 4096-element x
    x = values(np.float16, 4096)
    z = np.zeros(4096, np.float16)
    launch(copy_pad_kernel, x, z, np.array(p + (0,) * 4, np.int64), 0.0, 1)
    bits_equal(z, np.concatenate([x[:2], np.zeros(4094, np.float16)]))
    with pytest.raises(asc.KernelError, match="data_copy_pad: .*outside the argument"):
        launch(checked(copy_pad_kernel), x, z, np.array(p + (0,) * 4, np.int64), 0.0, 1)


# --- mask register errors, debugging APIs ------------------------------------------------------


@jit
def mask_error_kernel(z: asc.GlobalAddress, which: int):
    c = load(z, asc.TPosition.VECOUT, 0)
    if which == 0:
        asc.set_vector_mask(1, 0, dtype=asc.float32, mode=asc.MaskMode.NORMAL)
    elif which == 1:
        asc.set_vector_mask(65, dtype=asc.float32, mode=asc.MaskMode.NORMAL)
    else:
        asc.set_vector_mask(1, 5, dtype=asc.float16, mode=asc.MaskMode.COUNTER)
    asc.adds(c, c, 1.0, 0, 1, asc.UnaryRepeatParams(), False)
    store(z, c)


@pytest.mark.parametrize("which, message", [(0, "mask_high must be 0 for 32-bit"),
                                            (1, "outside \\[0, 64\\]"),
                                            (2, "mask_high must be 0 in counter mode")])
def test_set_vector_mask_errors(which, message):
    """Bits beyond a repeat are ignored by default, as by the hardware: the
    adds touches no element (mask_high only), elements 0..63 (a length of
    65) and 0, 2 (mask_low 5); checked mode reports them."""
    z = np.zeros(2048, np.float32)
    launch(mask_error_kernel, z, which)
    expected = np.zeros(2048, np.float32)
    expected[[[], list(range(64)), [0, 2]][which]] = 1.0
    np.testing.assert_array_equal(z, expected)
    with pytest.raises(asc.KernelError, match=message):
        launch(checked(mask_error_kernel), np.zeros(2048, np.float32), which)


@jit
def debug_kernel(x: asc.GlobalAddress, z: asc.GlobalAddress, stop: int):
    a = load(x, asc.TPosition.VECIN, 0)
    g = asc.GlobalTensor()
    g.set_global_buffer(z, 8)
    g.set_value(0, asc.get_data_block_size_in_bytes())
    asc.dump_tensor(a, 7, 5)
    asc.dump_tensor(g, asc.get_block_idx(), 2)
    if stop == asc.get_block_idx():
        asc.trap()
    g.set_value(1, 1)


def test_dump_tensor_and_block_size(capfd):
    x = np.array([1.5, -2.25, 3e-8, 65504, 0.1] + [0] * 4091, np.float16)
    z = np.zeros(8, np.int32)
    launch(debug_kernel, x, z, -1)
    out = capfd.readouterr().out
    assert z[0] == 32 and z[1] == 1
    assert ("[block 0] dump_tensor desc=7 LocalTensor@VECIN<float16>, 5 elements: "
            "[1.5, -2.25, 5.9605e-08, 65504, 0.099976]") in out
    assert "[block 0] dump_tensor desc=0 GlobalTensor<int32>, 2 elements: [32, 0]" in out


def test_trap_stops_the_kernel():
    z = np.zeros(8, np.int32)
    with pytest.raises(asc.KernelError, match=r"test_kernel_api_ext.py:\d+: trap\(\)"):
        launch(debug_kernel, np.zeros(4096, np.float16), z, 0)
    assert z[1] == 0  # the block stopped before the store after trap()


# --- compile-time errors ---------------------------------------------------------------------


def compile_error(body: str, match: str):
    import textwrap
    src = "def k(x: asc.GlobalAddress):\n" + textwrap.indent(textwrap.dedent(body), "    ")
    scope = {"asc": asc}
    path = tempfile.mktemp(suffix=".py", dir=CACHE)
    with open(path, "w") as f:
        f.write("import pyasc as asc\n" + src)
    code = compile("import pyasc as asc\n" + src, path, "exec")
    exec(code, scope)
    kernel = jit(scope["k"])
    with pytest.raises(asc.CompileError, match=match):
        launch(kernel, np.zeros(2048, np.float32))


@pytest.mark.parametrize("body, match", [
    ("t = asc.LocalTensor(asc.float32, asc.TPosition.VECIN, 0, 64)\n"
     "asc.bitwise_and(t, t, t, 64)", "bitwise_and does not support float32"),
    ("t = asc.LocalTensor(asc.float32, asc.TPosition.VECIN, 0, 64)\n"
     "asc.cast(t, t, asc.CMPMODE.GT, 64)", "must be a pyasc.RoundMode member"),
    ("t = asc.LocalTensor(asc.float32, asc.TPosition.VECIN, 0, 64)\n"
     "m = asc.LocalTensor(asc.uint8, asc.TPosition.VECIN, 512, 64)\n"
     "asc.select(t, m, t, 1.0, asc.SELMODE.VSEL_CMPMASK_SPR, 64)", "scalar src1"),
    ("t = asc.LocalTensor(asc.float32, asc.TPosition.VECIN, 0, 64)\n"
     "asc.compare(t, t, t, asc.CMPMODE.LT, 64)", "does not support a float32 dst"),
    ("t = asc.LocalTensor(asc.float32, asc.TPosition.VECIN, 0, 64)\n"
     "asc.add(t, t, t, 64, 1, asc.UnaryRepeatParams())", "BinaryRepeatParams"),
    ("t = asc.LocalTensor(asc.float32, asc.TPosition.VECIN, 0, 64)\n"
     "asc.add(t, t, t, [1, 2, 3], 1, asc.BinaryRepeatParams())", "1 or 2 words"),
    ("t = asc.LocalTensor(asc.float32, asc.TPosition.VECIN, 0, 64)\n"
     "asc.set_vector_mask(4, dtype=asc.float32)", "keyword-only and required"),
    ("t = asc.LocalTensor(asc.int32, asc.TPosition.VECIN, 0, 64)\n"
     "asc.reduce_sum(t, t, t, 64)", "reduce_sum does not support int32"),
    ("t = asc.LocalTensor(asc.float32, asc.TPosition.A1, 0, 64)\n"
     "asc.exp(t, t, 64, 1, asc.UnaryRepeatParams())", "VECIN, VECOUT or VECCALC"),
    ("g = asc.GlobalTensor()\ng.set_global_buffer(x)\n"
     "asc.data_copy_pad(g, g, asc.DataCopyParams())", "one operand is a GlobalTensor"),
])
def test_compile_errors(body, match):
    compile_error(body, match)
