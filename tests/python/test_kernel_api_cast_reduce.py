"""cast with every RoundMode, compare/compare_scalar/select and the
reductions, in their count and mask/repeat (level-0) forms, against NumPy
models of docs/kernel-reference.md's semantics (the other level-0 APIs:
test_kernel_api_ext.py).

One kernel per API family and dtype: the API, the mask form and every
numeric parameter are run-time arguments, so each kernel compiles once and
the cases only launch it. float16 results are bit-exact: the vector unit
computes in float32 and rounds once per instruction, which the references
do too.
"""

from __future__ import annotations

import numpy as np
import pytest

import pyasc as asc
from kernel_api_helpers import jit
from vector_api_model import (UBB, V_BITS, V_CONT, V_COUNT, bits_equal, element, launch, load,
                              params, rng, selected, signed, store, values)


# --- cast -------------------------------------------------------------------------------------

CAST_DTYPES = (asc.float16, asc.bfloat16, asc.float32, asc.int8, asc.int16, asc.int32)
CAST_NAMES = ("float16", "bfloat16", "float32", "int8", "int16", "int32")
MODES = (asc.RoundMode.CAST_NONE, asc.RoundMode.CAST_RINT, asc.RoundMode.CAST_FLOOR,
         asc.RoundMode.CAST_CEIL, asc.RoundMode.CAST_ROUND, asc.RoundMode.CAST_TRUNC,
         asc.RoundMode.CAST_ODD)


@jit
def cast_modes(d, s, mode, n, k: asc.ConstExpr[int]):
    if k < len(MODES):
        if mode == k:
            asc.cast(d, s, MODES[k], n)
        cast_modes(d, s, mode, n, k + 1)


@jit
def cast_dsts(b, a, sel, mode, n, i: asc.ConstExpr[int], j: asc.ConstExpr[int]):
    if j < len(CAST_DTYPES):
        if i != j:
            if sel == i * 6 + j:
                cast_modes(b.reinterpret_cast(CAST_DTYPES[j]), a.reinterpret_cast(CAST_DTYPES[i]),
                           mode, n, 0)
        cast_dsts(b, a, sel, mode, n, i, j + 1)


@jit
def cast_pairs(b, a, sel, mode, n, i: asc.ConstExpr[int]):
    if i < len(CAST_DTYPES):
        cast_dsts(b, a, sel, mode, n, i, 0)
        cast_pairs(b, a, sel, mode, n, i + 1)


@jit
def cast_kernel(x: asc.GlobalAddress, z: asc.GlobalAddress, sel: int, mode: int, n: int):
    a = load(x, asc.TPosition.VECIN, 0)
    b = load(z, asc.TPosition.VECOUT, UBB)
    cast_pairs(b, a, sel, mode, n, 0)
    store(z, b)


def to_bits(name, values64):
    """float64 values (exactly representable) as the dtype's storage."""
    if name == "bfloat16":
        return (values64.astype(np.float32).view(np.uint32) >> 16).astype(np.uint16)
    return values64.astype(np.dtype(name))


def from_bits(name, raw):
    if name == "bfloat16":
        return (raw.astype(np.uint32) << 16).view(np.float32).astype(np.float64)
    return raw.astype(np.float64)


def neighbours(name, x):
    """The target grid values just below and above each float64 x (exact)."""
    if name == "bfloat16":
        f = x.astype(np.float32)
        u = f.view(np.uint32) & 0xFFFF0000
        base = u.view(np.float32).astype(np.float64)
        cands = [base]
        for step in (-1, 1):
            w = (u.astype(np.int64) + step * 0x10000) & 0xFFFFFFFF
            cands.append(w.astype(np.uint32).view(np.float32).astype(np.float64))
        cands.append(np.full_like(x, np.inf))
        cands.append(np.full_like(x, -np.inf))
        bf_max = float(np.uint32(0x7F7F0000).view(np.float32))
        cands += [np.full_like(x, bf_max), np.full_like(x, -bf_max)]
    else:
        t = np.dtype(name).type
        r = x.astype(t).astype(np.float64)
        up = np.nextafter(x.astype(t), t(np.inf)).astype(np.float64)
        down = np.nextafter(x.astype(t), t(-np.inf)).astype(np.float64)
        cands = [r, up, down]
    c = np.stack(cands)
    with np.errstate(invalid="ignore"):
        lo = np.where(c <= x, c, -np.inf).max(axis=0)
        hi = np.where(c >= x, c, np.inf).min(axis=0)
    return lo, hi


def odd(name, v):
    raw = to_bits(name, np.array([v]))
    return int(raw.view(f"u{raw.itemsize}")[0]) & 1


ULP_AT_MAX = {"float16": 32.0, "bfloat16": 2.0 ** 120, "float32": 2.0 ** 104}


def nearest(name, mode, v, a, b):
    """RINT (ties to even) or ROUND (ties away) between neighbours a <= v <= b;
    past the largest finite value by half an ulp or more: infinity."""
    if np.isinf(a) or np.isinf(b):
        fin = b if np.isinf(a) else a
        return np.copysign(np.inf, v) if abs(v) >= abs(fin) + ULP_AT_MAX[name] / 2 else fin
    if v - a != b - v:
        return a if v - a < b - v else b
    if mode == 4:
        return b if v > 0 else a
    return b if odd(name, a) else a


def cast_reference(src_name, dst_name, mode, x):
    """Element-wise reference of cast (float64 x exact), as dst storage."""
    mode = 1 if mode == 0 else mode
    out = []
    if dst_name.startswith("int"):
        lo_i, hi_i = np.iinfo(np.dtype(dst_name)).min, np.iinfo(np.dtype(dst_name)).max
        for v in x:
            if np.isnan(v):
                out.append(0)
                continue
            if mode == 1:
                r = np.rint(v)
            elif mode == 2:
                r = np.floor(v)
            elif mode == 3:
                r = np.ceil(v)
            elif mode == 4:
                r = np.sign(v) * np.floor(abs(v) + 0.5)
            elif mode == 5:
                r = np.trunc(v)
            else:
                r = np.trunc(v)
                if r != v and r % 2 == 0:
                    r += np.sign(v)
            out.append(int(min(max(r, lo_i), hi_i)))
        return np.array(out, dtype=np.dtype(dst_name))
    lo, hi = neighbours(dst_name, x)
    for v, a, b in zip(x, lo, hi):
        if np.isnan(v) or np.isinf(v) or a == b:
            out.append(v)
            continue
        if mode in (1, 4):
            out.append(nearest(dst_name, mode, v, a, b))
        elif mode == 2:
            out.append(a)
        elif mode == 3:
            out.append(b)
        elif mode == 5:
            out.append(a if v > 0 else b)
        else:  # to odd; never to infinity
            if np.isinf(a):
                out.append(b)
            elif np.isinf(b):
                out.append(a)
            else:
                out.append(a if odd(dst_name, a) else b)
    return to_bits(dst_name, np.array(out, dtype=np.float64))


def cast_inputs(name):
    """Edge values of a source dtype: ties of every target, negatives,
    signed zeros, subnormals, NaN/inf and out-of-range values."""
    v = [0.0, -0.0, 0.5, -0.5, 1.5, -1.5, 2.5, -2.5, 0.49999997, 1.0000001, -3.7, 3.3,
         127.5, 128.5, -128.5, -129.5, 255.5, 32767.5, -32768.5, 40000.0, -40000.0, 65504.0,
         65519.0, 65520.0, -65520.0, 70000.0, 2049.0, 2051.0, 4097.0, 1e-5, -6e-8, 3e-8,
         1e10, -1e10, 2.147483647e9, -2.1474837e9, 16777217.0, 1.00390625, 1.01171875,
         np.nan, np.inf, -np.inf]
    # midpoints of the float16 and bfloat16 grids around assorted values
    h = np.array([1.0, 3.0, 1000.0, -7.0, 0.1, 6.1e-5], np.float16)
    v += list((h.astype(np.float64) + np.nextafter(h, np.float16(np.inf)).astype(np.float64))
              / 2)
    b = np.array([1.0, -3.0, 1e30, 0.3], np.float32).view(np.uint32) & 0xFFFF0000
    b = b.view(np.float32).astype(np.float64)
    v += list(b + 2.0 ** (np.floor(np.log2(np.abs(b))) - 8))
    x = np.array(v, np.float64)
    if name.startswith("int"):
        info = np.iinfo(np.dtype(name))
        x = np.concatenate([np.array([info.min, info.max, info.min + 1, -1, 1, 2049, 2051,
                                      4097, 16777217, 16777219, 70000, -70000], np.float64),
                            np.trunc(x[np.isfinite(x)])])
        return x[(x >= info.min) & (x <= info.max)] + 0.0  # integers have no -0
    if name == "bfloat16":
        return from_bits(name, to_bits(name, x))  # exactly representable inputs only
    t = np.dtype(name).type
    return x.astype(t).astype(np.float64)


@pytest.mark.parametrize("src", CAST_NAMES)
def test_cast_every_pair_and_round_mode(src):
    """cast between float16/bfloat16/float32/int8/int16/int32 in every
    RoundMode, against an independent reference: the target grid's
    neighbours of each exact source value (NumPy's conversions and
    nextafter), ties, negatives, NaN/inf, overflow and saturation."""
    with np.errstate(over="ignore", invalid="ignore"):
        check_casts_from(src)


def check_casts_from(src):
    x = cast_inputs(src)
    n = x.size
    si = CAST_NAMES.index(src)
    raw = to_bits(src, x)
    buf = np.zeros(UBB, np.uint8)
    buf[:raw.nbytes] = raw.view(np.uint8)
    for di, dst in enumerate(CAST_NAMES):
        if di == si:
            continue
        sel = si * 6 + di
        for mode in range(7):
            out = np.full(UBB, 0xA5, np.uint8)
            launch(cast_kernel, buf, out, sel, mode, n)
            size = 2 if dst == "bfloat16" else np.dtype(dst).itemsize
            got = out[:n * size].view(f"u{size}" if dst == "bfloat16" else np.dtype(dst))
            expected = cast_reference(src, dst, mode, x)
            assert (out[n * size:] == 0xA5).all(), f"{src}->{dst}: wrote past the count"
            try:
                bits_equal(got, expected)
            except AssertionError as exc:
                raise AssertionError(f"{src}->{dst} {MODES[mode].name}: {exc}") from None


@jit
def cast_mask_kernel(x: asc.GlobalAddress, z: asc.GlobalAddress, w: asc.GlobalAddress,
                     mask: int, rep: int):
    a = load(x, asc.TPosition.VECIN, 0)
    b = load(z, asc.TPosition.VECOUT, UBB)
    c = load(w, asc.TPosition.VECOUT, 2 * UBB)
    # narrowing: 64 elements per repeat (the float32 width), float16 dst 4 blocks
    asc.cast(b, a, asc.RoundMode.CAST_ROUND, mask, rep, asc.UnaryRepeatParams(1, 2, 4, 16))
    # widening back, bit mask
    asc.cast(c, b, asc.RoundMode.CAST_NONE, [0xF0F0_F0F0_0F0F_0F0F], rep,
             asc.UnaryRepeatParams(1, 1, 8, 4))
    store(z, b)
    store(w, c)


def test_cast_mask_form():
    x = values(np.float32, 2048, 9) * np.float32(1000.3)
    z = values(np.float16, 4096, 10)
    w = values(np.float32, 2048, 11)
    zo, wo = z.copy(), w.copy()
    launch(cast_mask_kernel, x, zo, wo, 45, 3)
    r, idx = selected(64, V_CONT, 45, 0, 3)
    ez = z.copy()
    d, s = element(2, 1, 4, r, idx), element(4, 2, 16, r, idx)
    ez[d] = cast_reference("float32", "float16", 4, x[s].astype(np.float64))
    bits_equal(zo, ez)
    r, idx = selected(64, V_BITS, 0xF0F0_F0F0_0F0F_0F0F, 0, 3)
    ew = w.copy()
    d, s = element(4, 1, 8, r, idx), element(2, 1, 4, r, idx)
    ew[d] = ez[s].astype(np.float32)
    bits_equal(wo, ew)


# --- compare, compare_scalar, select ----------------------------------------------------------

CMP = (asc.CMPMODE.LT, asc.CMPMODE.GT, asc.CMPMODE.EQ, asc.CMPMODE.LE, asc.CMPMODE.GE,
       asc.CMPMODE.NE)
NP_CMP = (np.less, np.greater, np.equal, np.less_equal, np.greater_equal, np.not_equal)


@jit
def compare_modes(c, a, b, s, form, mode, n, m0, m1, rep, k: asc.ConstExpr[int]):
    if k < len(CMP):
        if mode == k:
            if form == 0:
                asc.compare(c, a, b, CMP[k], n)
            elif form == 1:
                asc.compare(c, a, b, CMP[k], m0, rep, asc.BinaryRepeatParams(1, 2, 1, 8, 16, 8))
            elif form == 2:
                asc.compare(c, a, b, CMP[k], [m0, m1], rep, asc.BinaryRepeatParams())
            elif form == 3:
                asc.compare_scalar(c, a, s, CMP[k], n)
            else:
                asc.compare_scalar(c, a, s, CMP[k], m0, rep, asc.UnaryRepeatParams(1, 1, 8, 4))
        compare_modes(c, a, b, s, form, mode, n, m0, m1, rep, k + 1)


@jit
def compare_kernel(x: asc.GlobalAddress, y: asc.GlobalAddress, z: asc.GlobalAddress, s: float,
                   form: int, mode: int, n: int, m0: int, m1: int, rep: int):
    a = load(x, asc.TPosition.VECIN, 0)
    b = load(y, asc.TPosition.VECIN, UBB)
    c = load(z, asc.TPosition.VECOUT, 2 * UBB)
    compare_modes(c, a, b, s, form, mode, n, m0, m1, rep, 0)
    store(z, c)


def cmp_inputs(dtype, seed):
    n = UBB // np.dtype(dtype).itemsize
    if np.issubdtype(dtype, np.integer):
        return rng(seed).integers(-3, 4, n).astype(dtype)
    x = rng(seed).integers(-3, 4, n).astype(dtype) / dtype(2)
    x[5::97] = np.nan
    x[7::89] = np.inf
    return x


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.int32])
def test_compare(dtype):
    """One bit per element (LSB first) for every CMPMODE, in the count form
    (whole 256-byte repeats), continuous and bit masks with strides, and
    against a scalar; NaN compares unequal."""
    es = np.dtype(dtype).itemsize
    per_rep = 256 // es
    x, y = cmp_inputs(dtype, 1), cmp_inputs(dtype, 2)
    s = 0.5 if dtype != np.int32 else 1.0
    m1 = 0xFFFF_0000_0000_0001 if per_rep > 64 else 0
    for mode in range(6):
        for form, m0, rep in ((0, 0, 0), (1, 29, 3), (2, 0x8000_0000_FFFF_000F, 2), (3, 0, 0),
                              (4, per_rep, 4)):
            z = rng(mode).integers(0, 256, UBB, dtype=np.uint8)
            out = z.copy()
            n = 5 * per_rep
            launch(compare_kernel, x, y, out, s, form, mode, n, signed(m0), signed(m1), rep)
            bits = np.unpackbits(z, bitorder="little")
            with np.errstate(invalid="ignore"):
                if form in (0, 3):
                    other = y[:n] if form == 0 else dtype(s)
                    bits[:n] = NP_CMP[mode](x[:n], other)
                else:
                    variant = V_BITS if form == 2 else V_CONT
                    r, idx = selected(per_rep, variant, m0, m1, rep)
                    src0 = element(es, 2 if form == 1 else 1, 16 if form == 1 else 8, r, idx)
                    if form == 4:
                        src0 = element(es, 1, 4, r, idx)
                        other = dtype(s)
                    else:
                        other = y[element(es, 1, 8, r, idx)]
                    bits[r * per_rep + idx] = NP_CMP[mode](x[src0], other)
            expected = np.packbits(bits, bitorder="little")
            try:
                bits_equal(out, expected)
            except AssertionError as exc:
                raise AssertionError(f"{CMP[mode].name} form {form}: {exc}") from None


def test_compare_count_must_fill_repeats():
    with pytest.raises(asc.KernelError, match="multiple of 256 bytes"):
        launch(compare_kernel, cmp_inputs(np.float32, 1), cmp_inputs(np.float32, 2),
               np.zeros(UBB, np.uint8), 0.0, 0, 0, 60, 0, 0, 0)


@jit
def select_kernel(x: asc.GlobalAddress, y: asc.GlobalAddress, z: asc.GlobalAddress,
                  w: asc.GlobalAddress, s: float, form: int, n: int, m0: int, rep: int):
    a = load(x, asc.TPosition.VECIN, 0)
    b = load(y, asc.TPosition.VECIN, UBB)
    c = load(z, asc.TPosition.VECOUT, 2 * UBB)
    m = load(w, asc.TPosition.VECIN, 3 * UBB)
    p = asc.BinaryRepeatParams(1, 1, 2, 8, 8, 16)
    if form == 0:
        asc.select(c, m, a, b, asc.SELMODE.VSEL_CMPMASK_SPR, n)
    elif form == 1:
        asc.select(c, m, a, s, asc.SELMODE.VSEL_TENSOR_SCALAR_MODE, n)
    elif form == 2:
        asc.select(c, m, a, b, asc.SELMODE.VSEL_TENSOR_TENSOR_MODE, n)
    elif form == 3:
        asc.select(c, m, a, b, asc.SelMode.VSEL_CMPMASK_SPR, m0, rep, p)
    elif form == 4:
        asc.select(c, m, a, s, asc.SELMODE.VSEL_TENSOR_SCALAR_MODE, m0, rep, p)
    else:
        asc.select(c, m, a, b, asc.SELMODE.VSEL_TENSOR_TENSOR_MODE, [m0, 0], rep, p)
    store(z, c)


@pytest.mark.parametrize("dtype", [np.float16, np.float32])
def test_select(dtype):
    """dst = src0 where the mask bit is 1, else src1 (a tensor, or the
    scalar in mode 1). Mode 0 reads the same per-repeat bits every repeat;
    modes 1 and 2 read one bit per element throughout."""
    es = np.dtype(dtype).itemsize
    per_rep = 256 // es
    n = UBB // es
    x, y = values(dtype, n, 12), values(dtype, n, 13)
    mask = rng(14).integers(0, 256, UBB, dtype=np.uint8)
    mbits = np.unpackbits(mask, bitorder="little")
    for form, count, m0, rep in ((0, 3 * per_rep + 7, 0, 0), (1, 200, 0, 0), (2, 333, 0, 0),
                                 (3, 0, 50, 3), (4, 0, per_rep, 2), (5, 0, 0xF0F0_0F0F, 4)):
        z = values(dtype, n, 15)
        out = z.copy()
        launch(select_kernel, x, y, out, mask, -0.75, form, count, m0, rep)
        expected = z.copy()
        if form < 3:
            i = np.arange(count)
            bit = mbits[i % per_rep] if form == 0 else mbits[i]
            other = dtype(-0.75) if form == 1 else y[i]
            expected[i] = np.where(bit == 1, x[i], other)
        else:
            variant = V_BITS if form == 5 else V_CONT
            r, idx = selected(per_rep, variant, m0, 0, rep)
            d, s0 = element(es, 1, 8, r, idx), element(es, 1, 8, r, idx)
            bit = mbits[idx] if form == 3 else mbits[r * per_rep + idx]
            other = dtype(-0.75) if form == 4 else y[element(es, 2, 16, r, idx)]
            expected[d] = np.where(bit == 1, x[s0], other)
        try:
            bits_equal(out, expected)
        except AssertionError as exc:
            raise AssertionError(f"form {form}: {exc}") from None


# --- reductions -------------------------------------------------------------------------------

ORDERS = (asc.ReduceOrder.ORDER_VALUE_INDEX, asc.ReduceOrder.ORDER_INDEX_VALUE,
          asc.ReduceOrder.ORDER_ONLY_VALUE, asc.ReduceOrder.ORDER_ONLY_INDEX)


@jit
def whole_orders(fn, c, a, m0, rep, dst_rep, src_blk, src_rep, order, k: asc.ConstExpr[int]):
    if k < len(ORDERS):
        if order == k:
            fn(c, a, m0, rep, dst_rep, src_blk, src_rep, ORDERS[k])
        whole_orders(fn, c, a, m0, rep, dst_rep, src_blk, src_rep, order, k + 1)


@jit
def reduce_kernel(x: asc.GlobalAddress, z: asc.GlobalAddress, prm: asc.GlobalAddress):
    a = load(x, asc.TPosition.VECIN, 0)
    c = load(z, asc.TPosition.VECOUT, UBB)
    tmp = asc.LocalTensor(x.dtype, asc.TPosition.VECCALC, 2 * UBB, 256)
    g = params(prm)
    which = g.get_value(0)
    n = g.get_value(1)
    m0 = g.get_value(2)
    m1 = g.get_value(3)
    rep = g.get_value(4)
    dst_rep = g.get_value(5)
    src_blk = g.get_value(6)
    src_rep = g.get_value(7)
    order = g.get_value(8)
    if which == 0:
        asc.reduce_sum(c, a, tmp, n)
    elif which == 1:
        asc.reduce_max(c, a, tmp, n, True)
    elif which == 2:
        asc.reduce_min(c, a, tmp, n, cal_index=True)
    elif which == 3:
        asc.reduce_sum(c, a, tmp, m0, rep, src_rep)
    elif which == 4:
        asc.reduce_max(c, a, tmp, [m0, m1], rep, src_rep, True)
    elif which == 5:
        asc.reduce_min(c, a, tmp, m0, rep, src_rep, cal_index=False)
    elif which == 6:
        asc.whole_reduce_sum(c, a, m0, rep, dst_rep, src_blk, src_rep)
    elif which == 7:
        whole_orders(asc.whole_reduce_max, c, a, m0, rep, dst_rep, src_blk, src_rep, order, 0)
    elif which == 8:
        whole_orders(asc.whole_reduce_min, c, a, [m0, m1], rep, dst_rep, src_blk, src_rep,
                     order, 0)
    elif which == 9:
        asc.block_reduce_sum(c, a, rep, m0, dst_rep, src_blk, src_rep)
    elif which == 10:
        asc.block_reduce_max(c, a, rep, [m0, m1], dst_rep, src_blk, src_rep)
    elif which == 11:
        asc.block_reduce_min(c, a, rep, m0, dst_rep, src_blk, src_rep)
    else:
        asc.pair_reduce_sum(c, a, rep, m0, dst_rep, src_blk, src_rep)
    store(z, c)


def rsum(dtype, a, b):
    s = np.float32(a) + np.float32(b)
    if dtype == np.float16:
        s = np.float32(np.float16(s))
        s = np.float32(min(max(s, -65504.0), 65504.0)) if not np.isnan(s) else s
    return s


def tree(dtype, lanes, on):
    lanes, on = list(lanes), list(on)
    while len(lanes) > 1:
        nl, no = [], []
        for i in range(0, len(lanes), 2):
            a, b, oa, ob = lanes[i], lanes[i + 1], on[i], on[i + 1]
            nl.append(rsum(dtype, a, b) if oa and ob else a if oa else b)
            no.append(oa or ob)
        lanes, on = nl, no
    return lanes[0], on[0]


def extreme(what, vals):
    best, at = None, -1
    for i, v in enumerate(vals):
        if best is None or (np.isnan(v) and not np.isnan(best)) or \
                (not np.isnan(best) and not np.isnan(v) and (v > best if what == 1 else v < best)):
            best, at = v, i
    return best, at


def index_bits(dtype, i):
    return np.array([i], np.uint16 if dtype == np.float16 else np.uint32).view(dtype)[0]


def reduce_reference(dtype, x, z, p):
    which, n, m0, m1, rep, dst_rep, src_blk, src_rep, order = p
    es = np.dtype(dtype).itemsize
    per_rep, epb = 256 // es, 32 // es
    out = z.copy()
    if which <= 5:
        counted = which <= 2
        what = which % 3
        if counted:
            r, idx = selected(per_rep, V_COUNT, n, 0, 0)
            at = r * per_rep + idx
        else:
            r, idx = selected(per_rep, V_BITS if which == 4 else V_CONT, m0, m1, rep)
            at = element(es, 1, src_rep, r, idx)
        if what == 0:
            parts = []
            for rr in np.unique(r):
                lanes = np.zeros(per_rep, np.float32)
                on = np.zeros(per_rep, bool)
                sel = r == rr
                lanes[idx[sel]] = x[at[sel]]
                on[idx[sel]] = True
                parts.append(tree(dtype, lanes, on)[0])
            if counted:
                acc = parts[0]
                for v in parts[1:]:
                    acc = rsum(dtype, acc, v)
            else:
                size = 1 << max(0, (len(parts) - 1).bit_length())
                acc = tree(dtype, parts + [0.0] * (size - len(parts)),
                           [True] * len(parts) + [False] * (size - len(parts)))[0]
            out[0] = dtype(acc)
        else:
            best, k = extreme(what, x[at])
            out[0] = best
            if which in (1, 2, 4):
                out[1] = index_bits(dtype, at[k])
        return out
    shape = 0 if which <= 8 else 1 if which <= 11 else 2
    what = 0 if which in (6, 9, 12) else 1 if which in (7, 10) else 2
    variant = V_BITS if which in (8, 10) else V_CONT
    r, idx = selected(per_rep, variant, m0, m1, rep)
    gsize = per_rep if shape == 0 else epb if shape == 1 else 2
    ngroups = per_rep // gsize
    width = 1
    if shape == 0 and what:
        width = 2 if order < 2 else 1 if order == 2 else 4 // es
    unit = width if shape == 0 else ngroups
    for rr in range(rep):
        for gg in range(ngroups):
            sel = (r == rr) & (idx // gsize == gg)
            if not sel.any():
                continue
            lanes_idx = idx[sel]
            vals = x[element(es, src_blk, src_rep, r[sel], lanes_idx)]
            base = rr * dst_rep * unit + gg * width
            if what == 0:
                lanes = np.zeros(gsize, np.float32)
                on = np.zeros(gsize, bool)
                lanes[lanes_idx - gg * gsize] = vals
                on[lanes_idx - gg * gsize] = True
                out[base] = dtype(tree(dtype, lanes, on)[0])
                continue
            best, k = extreme(what, vals)
            at = lanes_idx[k]
            if shape != 0 or order == 2:
                out[base] = best
            elif order == 0:
                out[base], out[base + 1] = best, index_bits(dtype, at)
            elif order == 1:
                out[base], out[base + 1] = index_bits(dtype, at), best
            else:
                out[base:base + width] = np.array([at], np.uint32).view(dtype)
    return out


REDUCE_CASES = [
    # which, n, m0, m1, rep, dst_rep, src_blk, src_rep, order
    (0, 1000, 0, 0, 0, 0, 0, 0, 0), (0, 2048, 0, 0, 0, 0, 0, 0, 0), (0, 7, 0, 0, 0, 0, 0, 0, 0),
    (1, 1000, 0, 0, 0, 0, 0, 0, 0), (2, 333, 0, 0, 0, 0, 0, 0, 0),
    (3, 0, 50, 0, 5, 0, 0, 8, 0), (3, 0, 64, 0, 11, 0, 0, 4, 0),
    (4, 0, 0x0F0F_F0F0_1234_8001, 0x8000_0000_0000_0001, 3, 0, 0, 16, 0),
    (5, 0, 33, 0, 6, 0, 0, 8, 0),
    (6, 0, 61, 0, 5, 1, 1, 8, 0), (6, 0, 64, 0, 4, 3, 2, 16, 0),
    (7, 0, 40, 0, 3, 1, 1, 8, 0), (7, 0, 40, 0, 3, 2, 1, 8, 1), (7, 0, 64, 0, 3, 1, 2, 16, 2),
    (7, 0, 17, 0, 4, 1, 1, 8, 3),
    (8, 0, 0x00FF_0000_0000_F00F, 0x1, 3, 1, 1, 8, 0), (8, 0, 0xFFFF, 0, 2, 3, 1, 8, 3),
    (9, 0, 37, 0, 3, 1, 1, 8, 0), (9, 0, 64, 0, 2, 2, 2, 16, 0),
    (10, 0, 0xF0F0_0F0F_AAAA_5555, 0, 3, 1, 1, 8, 0), (11, 0, 64, 0, 2, 1, 1, 8, 0),
    (12, 0, 45, 0, 3, 1, 1, 8, 0), (12, 0, 64, 0, 2, 2, 1, 16, 0),
]


@pytest.mark.parametrize("dtype", [np.float16, np.float32])
def test_reductions(dtype):
    """reduce_sum/max/min (count and mask forms, with the index),
    whole_reduce_* with every ReduceOrder, block_reduce_*, pair_reduce_sum:
    the documented summation trees, bit-exact in float16."""
    n = UBB // np.dtype(dtype).itemsize
    x = values(dtype, n, 16) * dtype(30)
    x[100] = x[700] = dtype(110.5)  # a tied maximum: the first index wins
    for p in REDUCE_CASES:
        p = list(p)
        if dtype == np.float32 and p[3]:
            p[3] = 0
        if dtype == np.float32:
            p[2] &= (1 << 64) - 1 if p[0] not in (3, 5, 6, 7, 9, 11, 12) else 0xFFFF
            p[2] = min(p[2], 64) if p[0] in (3, 5, 6, 7, 9, 11, 12) else p[2]
        z = values(dtype, n, 17)
        out = z.copy()
        prm = np.zeros(16, np.uint64)
        prm[:9] = p
        launch(reduce_kernel, x, out, prm.view(np.int64))
        expected = reduce_reference(dtype, x, z, p)
        try:
            bits_equal(out, expected)
        except AssertionError as exc:
            raise AssertionError(f"case {p}: {exc}") from None


def test_reduce_sum_float16_saturates_and_order_matters():
    """float16 partial sums saturate at 65504 instead of overflowing, and
    repeat results add in sequence (count form) — a tree would differ."""
    x = np.full(4096, 1000.0, np.float16)
    z = np.zeros(4096, np.float16)
    prm = np.zeros(16, np.int64)
    prm[:2] = [0, 4096]
    launch(reduce_kernel, x, z, prm)
    assert z[0] == np.float16(65504)
    x = np.zeros(4096, np.float16)
    x[0], x[128], x[256] = 2048, 1, 1  # (2048 + 1) + 1 = 2048 in sequence; 2048 + (1+1) = 2050
    prm[:2] = [0, 384]
    launch(reduce_kernel, x, z, prm)
    assert z[0] == np.float16(2048)
