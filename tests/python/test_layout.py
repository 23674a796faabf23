"""transpose's TransposeParamsExt form and trans_data_to_5hd (rt/layout.h,
lowering_layout.py) against NumPy models, in plain and checked mode, with
their errors and Ascend C forms."""

from __future__ import annotations


import numpy as np
import pytest

import asc
import pyasc
from kernel_cache import kernel_cache_dir

CACHE = kernel_cache_dir("pyasc-layout-")

MODES = (False, True)  # plain, checked
B = 65536  # UB byte of the destination tensor; the source starts at 0
TT = pyasc.TransposeType


def jit(fn):
    return pyasc.jit(fn, cache_dir=CACHE)


def variant(kernel, checked):
    return pyasc.jit(kernel.fn, cache_dir=CACHE, debug=checked) if checked else kernel


# --- transpose(dst, src, tmp, TransposeParamsExt) -----------------------------------------


@jit
def k_transpose(x: pyasc.GlobalAddress, y: pyasc.GlobalAddress, n: pyasc.ConstExpr[int],
                c: pyasc.ConstExpr[int], h: pyasc.ConstExpr[int], w: pyasc.ConstExpr[int],
                kind: pyasc.ConstExpr[int], dst_at: pyasc.ConstExpr[int]):
    total = n * c * h * w
    g = pyasc.GlobalTensor()
    g.set_global_buffer(x)
    o = pyasc.GlobalTensor()
    o.set_global_buffer(y)
    a = pyasc.LocalTensor(x.dtype, pyasc.TPosition.VECIN, 0, total)
    b = pyasc.LocalTensor(x.dtype, pyasc.TPosition.VECOUT, dst_at, total)
    tmp = pyasc.LocalTensor(pyasc.uint8, pyasc.TPosition.VECCALC, 2 * B, 1024)
    pyasc.data_copy(a, g, total)
    pyasc.set_flag(pyasc.HardEvent.MTE2_V, 0)
    pyasc.wait_flag(pyasc.HardEvent.MTE2_V, 0)
    params = asc.TransposeParamsExt(n_size=n, c_size=c, h_size=h, w_size=w, transpose_type=kind)
    pyasc.transpose(b, a, tmp, params)
    pyasc.set_flag(pyasc.HardEvent.V_MTE3, 0)
    pyasc.wait_flag(pyasc.HardEvent.V_MTE3, 0)
    pyasc.data_copy(o, b, total)


def transpose_model(x: np.ndarray, n: int, c: int, h: int, w: int, kind: int) -> np.ndarray:
    if kind == TT.TRANSPOSE_ND2ND_B16:
        return x.reshape(h, w).T.ravel()
    if kind == TT.TRANSPOSE_NCHW2NHWC:
        return x.reshape(n, c, h, w).transpose(0, 2, 3, 1).ravel()
    return x.reshape(n, h, w, c).transpose(0, 3, 1, 2).ravel()


@pytest.mark.parametrize("checked", MODES)
@pytest.mark.parametrize("dtype, shape, kind", [
    (np.float16, (1, 16, 4, 4), TT.TRANSPOSE_NCHW2NHWC),
    (np.float16, (2, 32, 4, 8), TT.TRANSPOSE_NCHW2NHWC),
    (np.float32, (3, 8, 2, 4), TT.TRANSPOSE_NCHW2NHWC),
    (np.int32, (2, 8, 4, 2), TT.TRANSPOSE_NHWC2NCHW),
    (np.float16, (1, 16, 4, 4), TT.TRANSPOSE_NHWC2NCHW),
    (np.int16, (1, 1, 32, 48), TT.TRANSPOSE_ND2ND_B16),
    (np.float16, (1, 1, 16, 16), TT.TRANSPOSE_ND2ND_B16),
])
def test_transpose_ext_matches_numpy(checked, dtype, shape, kind):
    rng = np.random.default_rng(7)
    x = rng.integers(-1000, 1000, size=int(np.prod(shape))).astype(dtype)
    y = np.zeros_like(x)
    variant(k_transpose, checked)[1](x, y, *shape, kind, B)
    np.testing.assert_array_equal(y, transpose_model(x, *shape, kind))


def test_transpose_ext_nd2nd_may_work_in_place():
    x = np.arange(16 * 32, dtype=np.float16)
    y = np.zeros_like(x)
    k_transpose[1](x, y, 1, 1, 16, 32, TT.TRANSPOSE_ND2ND_B16, 0)
    np.testing.assert_array_equal(y, x.reshape(16, 32).T.ravel())


@pytest.mark.parametrize("dtype, shape, kind, dst_at, message", [
    (np.float16, (1, 8, 4, 4), TT.TRANSPOSE_NCHW2NHWC, B,
     r"c_size \(8\) and h_size \* w_size \(16\) must each fill whole 32-byte blocks"),
    (np.float16, (1, 16, 4, 4), TT.TRANSPOSE_NCHW2NHWC, 256,
     "src and dst overlap, which the NCHW/NHWC forms do not allow"),
    (np.int16, (1, 1, 16, 8), TT.TRANSPOSE_ND2ND_B16, B,
     "TRANSPOSE_ND2ND_B16 needs h_size and w_size multiples of 16, got 16 and 8"),
])
def test_transpose_ext_constraints_are_errors(dtype, shape, kind, dst_at, message):
    x = np.zeros(int(np.prod(shape)), dtype)
    with pytest.raises(pyasc.KernelError, match=r"test_layout.py:\d+: transpose: " + message):
        k_transpose[1](x, np.zeros_like(x), *shape, kind, dst_at)


def test_transpose_ext_kinds_and_dtypes_are_checked_at_compile_time():
    x = np.zeros(256, np.float32)
    with pytest.raises(pyasc.CompileError, match="TransposeType 1 is not a form of transpose"):
        k_transpose[1](x, x, 1, 1, 16, 16, TT.TRANSPOSE_NZ2ND_0213, B)
    with pytest.raises(pyasc.CompileError, match="transpose.ext does not support float32 tensors"):
        k_transpose[1](x, x, 1, 1, 16, 16, TT.TRANSPOSE_ND2ND_B16, B)


@jit
def k_transpose_bad_tmp(x: pyasc.GlobalAddress):
    a = pyasc.LocalTensor(pyasc.float16, pyasc.TPosition.VECIN, 0, 256)
    t = pyasc.LocalTensor(pyasc.float16, pyasc.TPosition.VECCALC, 1024, 256)
    pyasc.transpose(a, a, t, pyasc.TransposeParamsExt(1, 1, 16, 16))


def test_transpose_ext_tmp_buffer_is_uint8_and_params_default_to_nd2nd():
    with pytest.raises(pyasc.CompileError, match="does not support a float16 shared_tmp_buffer"):
        k_transpose_bad_tmp[1](np.zeros(4, np.float16))


# --- trans_data_to_5hd ---------------------------------------------------------------------


@jit
def k_5hd(x: pyasc.GlobalAddress, y: pyasc.GlobalAddress, d: pyasc.ConstExpr[tuple],
          s: pyasc.ConstExpr[tuple], halves: pyasc.ConstExpr[tuple], rep: pyasc.ConstExpr[int],
          dst_stride: pyasc.ConstExpr[int], src_stride: pyasc.ConstExpr[int],
          count: pyasc.ConstExpr[int]):
    g = pyasc.GlobalTensor()
    g.set_global_buffer(x)
    o = pyasc.GlobalTensor()
    o.set_global_buffer(y)
    a = pyasc.LocalTensor(x.dtype, pyasc.TPosition.VECIN, 0, count)
    b = pyasc.LocalTensor(x.dtype, pyasc.TPosition.VECOUT, B, count)
    pyasc.data_copy(a, g, count)
    pyasc.data_copy(b, o, count)
    pyasc.set_flag(pyasc.HardEvent.MTE2_V, 0)
    pyasc.wait_flag(pyasc.HardEvent.MTE2_V, 0)
    dst_list = [b[d[0]], b[d[1]], b[d[2]], b[d[3]], b[d[4]], b[d[5]], b[d[6]], b[d[7]],
                b[d[8]], b[d[9]], b[d[10]], b[d[11]], b[d[12]], b[d[13]], b[d[14]], b[d[15]]]
    src_list = [a[s[0]], a[s[1]], a[s[2]], a[s[3]], a[s[4]], a[s[5]], a[s[6]], a[s[7]],
                a[s[8]], a[s[9]], a[s[10]], a[s[11]], a[s[12]], a[s[13]], a[s[14]], a[s[15]]]
    params = asc.TransDataTo5HDParams(dst_high_half=halves[0], src_high_half=halves[1],
                                      repeat_times=rep, dst_rep_stride=dst_stride,
                                      src_rep_stride=src_stride)
    pyasc.trans_data_to_5hd(dst_list, src_list, params)
    pyasc.set_flag(pyasc.HardEvent.V_MTE3, 0)
    pyasc.wait_flag(pyasc.HardEvent.V_MTE3, 0)
    pyasc.data_copy(o, b, count)


def five_hd_model(x, y, d, s, halves, rep, dst_stride, src_stride):
    """Each repeat transposes the 16 source blocks as a matrix (NumPy's .T)
    into the 16 destination blocks."""
    es = x.itemsize
    src, dst = x.view(np.uint8), y.copy().view(np.uint8)
    for r in range(rep):
        sb = [src[i * es + r * src_stride * 32:][:32] for i in s]
        at = [j * es + r * dst_stride * 32 for j in d]
        if es == 1:
            lo, hi = (16, 32) if halves[1] else (0, 16)
            m = np.ascontiguousarray(np.stack([blk[lo:hi] for blk in sb]).T)  # 16 x 16 bytes
            for j, off in enumerate(at):
                start = off + (16 if halves[0] else 0)
                dst[start:start + 16] = m[j]
            continue
        m = np.ascontiguousarray(np.stack([blk.view(x.dtype) for blk in sb]).T)  # (32/es) x 16
        rows = m.reshape(16, 32 // es)  # a row of the transposed matrix may span two blocks
        for j, off in enumerate(at):
            dst[off:off + 32] = rows[j].view(np.uint8)
    return dst.view(x.dtype)


NCHW_D = tuple(range(0, 256, 16))  # dst block j at element 16 j


@pytest.mark.parametrize("checked", MODES)
@pytest.mark.parametrize("dtype, d, s, halves, rep, dst_stride, src_stride", [
    # NCHW (C=16, H*W=32) -> NC1HWC0: 16 channel rows, the two repeats walk H*W
    (np.float16, NCHW_D, tuple(range(0, 512, 32)), (False, False), 2, 16, 1),
    (np.int16, tuple(range(240, -1, -16)), tuple(range(0, 256, 16)), (False, False), 1, 0, 0),
    (np.float32, tuple(range(0, 128, 8)), tuple(range(0, 256, 16)), (False, False), 2, 16, 1),
    (np.int8, tuple(range(0, 512, 32)), tuple(range(0, 512, 32)), (True, False), 1, 0, 0),
    (np.int8, tuple(range(0, 512, 32)), tuple(range(0, 512, 32)), (False, True), 3, 16, 16),
    (np.float16, NCHW_D, tuple(range(0, 256, 16)), (False, False), 0, 16, 1),
])
def test_trans_data_to_5hd_matches_numpy(checked, dtype, d, s, halves, rep, dst_stride,
                                         src_stride):
    count = 4096 // np.dtype(dtype).itemsize
    x = (np.arange(count) % 251 - 120).astype(dtype)
    y = np.full(count, 7, dtype)
    want = five_hd_model(x, y, d, s, halves, rep, dst_stride, src_stride)
    variant(k_5hd, checked)[1](x, y, d, s, halves, rep, dst_stride, src_stride, count)
    np.testing.assert_array_equal(y, want)


@pytest.mark.parametrize("d, rep, message", [
    (NCHW_D, 256, r"repeat_times 256 is outside \[0, 255\]"),
    ((1,) + NCHW_D[1:], 1, r"dst_list\[0\] is not 32-byte aligned"),
    (NCHW_D, 100, r"a dst_list block accesses 16 elements .* but the LocalTensor holds only 0"),
])
def test_trans_data_to_5hd_errors_name_the_line(d, rep, message):
    x = np.zeros(2048, np.float16)
    with pytest.raises(pyasc.KernelError, match=r"test_layout.py:\d+: trans_data_to_5hd: "
                                                + message):
        variant(k_5hd, True)[1](x, x.copy(), d, NCHW_D, (False, False), rep, 16, 1, 2048)


@jit
def k_5hd_bad(which: pyasc.ConstExpr[int]):
    a = pyasc.LocalTensor(pyasc.float16, pyasc.TPosition.VECIN, 0, 256)
    c = pyasc.LocalTensor(pyasc.float32, pyasc.TPosition.VECIN, 1024, 256)
    p = pyasc.TransDataTo5HDParams()
    if which == 0:
        pyasc.trans_data_to_5hd([a, a, a, a, a, a, a, a, a, a, a, a, a, a, a, c],
                                [a, a, a, a, a, a, a, a, a, a, a, a, a, a, a, a], p)
    elif which == 1:
        pyasc.trans_data_to_5hd([0, 32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416,
                                 448, 480], [a, a, a, a, a, a, a, a, a, a, a, a, a, a, a, a], p)
    else:
        pyasc.trans_data_to_5hd([a, a], [a, a], p)


@pytest.mark.parametrize("which, message", [
    (0, r"dst_list\[15\] is float32 but dst_list\[0\] is float16"),
    (1, "trans_data_to_5hd src_list address must be an integer, not a LocalTensor"),
    (2, "dst_list must be a list of 16 LocalTensors"),
])
def test_trans_data_to_5hd_lists_are_checked_at_compile_time(which, message):
    with pytest.raises(pyasc.CompileError, match=message):
        k_5hd_bad[1](which)


def test_layout_ascend_c_forms():
    x = np.zeros(4096 // 2, np.float16)
    src = k_5hd.ascendc(x, x, NCHW_D, NCHW_D, (False, True), 2, 16, 1, 2048)
    assert "AscendC::LocalTensor<half> pyasc_dst[16] = {b[0], b[16]," in src
    assert ("AscendC::TransDataTo5HD<half>(pyasc_dst, pyasc_src, AscendC::TransDataTo5HDParams("
            "false, true, (uint8_t)2, (uint16_t)16, (uint16_t)1));") in src
    src = k_transpose.ascendc(x, x, 1, 16, 4, 4, TT.TRANSPOSE_NCHW2NHWC, B)
    assert ("AscendC::Transpose(b, a, tmp, AscendC::TransposeParamsExt{(uint16_t)1, (uint16_t)16,"
            " (uint16_t)4, (uint16_t)4, AscendC::TransposeType::TRANSPOSE_NCHW2NHWC});") in src


def test_layout_names_in_asc():
    assert asc.TransposeType.TRANSPOSE_NHWC2NCHW == 12 and asc.DataFormat.NC1HWC0 == 3
    assert asc.BlockMode.BLOCK_MODE_DEPTHWISE == 4
    assert asc.TransDataTo5HDParams is pyasc.TransDataTo5HDParams


# --- data_copy with DataCopyEnhancedParams -------------------------------------------------


@jit
def k_enhanced(x: pyasc.GlobalAddress, y: pyasc.GlobalAddress, relu: pyasc.ConstExpr[bool]):
    g = pyasc.GlobalTensor()
    g.set_global_buffer(x)
    o = pyasc.GlobalTensor()
    o.set_global_buffer(y)
    a = pyasc.LocalTensor(pyasc.float32, pyasc.TPosition.VECIN, 0, 64)
    plain = asc.DataCopyEnhancedParams(is_relu_in=relu)
    # 2 bursts of 1 block, one block apart in GM
    asc.data_copy(a, g, asc.DataCopyParams(2, 1, 1, 0), plain)
    pyasc.set_flag(pyasc.HardEvent.MTE2_MTE3, 0)
    pyasc.wait_flag(pyasc.HardEvent.MTE2_MTE3, 0)
    asc.data_copy(o, a, params=asc.DataCopyParams(1, 2, 0, 0),
                  enhanced_params=asc.DataCopyEnhancedParams())


@pytest.mark.parametrize("checked", MODES)
def test_data_copy_with_plain_enhanced_params_is_the_params_copy(checked):
    x = np.arange(32, dtype=np.float32) - 8
    y = np.zeros(16, np.float32)
    variant(k_enhanced, checked)[1](x, y, False)
    np.testing.assert_array_equal(y, np.concatenate([x[:8], x[16:24]]))
    assert "AscendC::DataCopy(a, g, AscendC::DataCopyParams(2, 1, 1, 0));" in \
        k_enhanced.ascendc(x, y, False)


def test_data_copy_enhanced_modes_of_cube_data_are_compile_errors():
    x = np.zeros(32, np.float32)
    with pytest.raises(pyasc.CompileError, match="is_relu_in=True is not simulated"):
        k_enhanced[1](x, x, True)


# --- bilinear_interpolation -------------------------------------------------------------------


@jit
def k_bilinear(x: pyasc.GlobalAddress, off: pyasc.GlobalAddress, w: pyasc.GlobalAddress,
               y: pyasc.GlobalAddress, mask: pyasc.ConstExpr, h_repeat: pyasc.ConstExpr[int],
               mode: pyasc.ConstExpr[bool], blk: pyasc.ConstExpr[int], v_off: pyasc.ConstExpr[int],
               v_repeat: pyasc.ConstExpr[int]):
    gx = pyasc.GlobalTensor()
    gx.set_global_buffer(x)
    go = pyasc.GlobalTensor()
    go.set_global_buffer(off)
    gw = pyasc.GlobalTensor()
    gw.set_global_buffer(w)
    gy = pyasc.GlobalTensor()
    gy.set_global_buffer(y)
    src0 = pyasc.LocalTensor(pyasc.float16, pyasc.TPosition.VECIN, 0, 1024)
    offs = pyasc.LocalTensor(pyasc.int32, pyasc.TPosition.VECIN, 4096, 256)
    src1 = pyasc.LocalTensor(pyasc.float16, pyasc.TPosition.VECIN, 8192, 256)
    dst = pyasc.LocalTensor(pyasc.float16, pyasc.TPosition.VECOUT, 16384, 2048)
    tmp = pyasc.LocalTensor(pyasc.uint8, pyasc.TPosition.VECCALC, 32768, 1024)
    pyasc.data_copy(src0, gx, 1024)
    pyasc.data_copy(offs, go, 256)
    pyasc.data_copy(src1, gw, 256)
    pyasc.data_copy(dst, gy, 2048)
    pyasc.set_flag(pyasc.HardEvent.MTE2_V, 0)
    pyasc.wait_flag(pyasc.HardEvent.MTE2_V, 0)
    pyasc.bilinear_interpolation(dst, src0, offs, src1, mask, h_repeat, mode, blk, v_off,
                                 v_repeat, tmp)
    pyasc.set_flag(pyasc.HardEvent.V_MTE3, 0)
    pyasc.wait_flag(pyasc.HardEvent.V_MTE3, 0)
    pyasc.data_copy(gy, dst, 2048)


def bilinear_model(x, off, w, y, mask, h_repeat, mode, blk, v_off, v_repeat):
    """Per vertical iteration, dst's 8 blocks are the sum over the
    horizontal iterations of src0 blocks times their weights (float16 after
    each multiply and add)."""
    out = y.copy()
    bits = np.zeros(128, bool)
    if isinstance(mask, int):
        bits[:mask] = True
    else:
        for word, w64 in enumerate(mask):
            bits[word * 64:(word + 1) * 64] = [(w64 >> i) & 1 for i in range(64)]
    blocks = x.reshape(-1, 16)
    for v in range(v_repeat):
        for h in range(h_repeat):
            it = v * h_repeat + h
            for b in range(8):
                src = blocks[off[it * 8 + b] // 32]
                weight = w[it * 8 + b] if mode else w[it]
                prod = (src * weight).astype(np.float16)
                at = v * v_off + b * blk * 16
                keep = bits[b * 16:(b + 1) * 16]
                acc = prod if h == 0 else (out[at:at + 16] + prod).astype(np.float16)
                out[at:at + 16] = np.where(keep, acc, out[at:at + 16])
    return out


@pytest.mark.parametrize("checked", MODES)
@pytest.mark.parametrize("mask, h_repeat, mode, blk, v_off, v_repeat", [
    (128, 2, False, 1, 128, 2),
    ((0xFFFF0000FFFF0000, 0x00FF00FF00FF00FF), 3, True, 2, 256, 3),  # bit words, low first
    (40, 1, True, 1, 128, 1),
    (128, 0, False, 1, 128, 4),
])
def test_bilinear_interpolation_matches_numpy(checked, mask, h_repeat, mode, blk, v_off, v_repeat):
    rng = np.random.default_rng(3)
    x = rng.uniform(-2, 2, 1024).astype(np.float16)
    off = (rng.integers(0, 64, 256) * 32).astype(np.int32)  # byte offsets of src0 blocks
    w = rng.uniform(-1, 1, 256).astype(np.float16)
    y = np.full(2048, 9, np.float16)
    want = bilinear_model(x, off, w, y, mask, h_repeat, mode, blk, v_off, v_repeat)
    variant(k_bilinear, checked)[1](x, off, w, y, mask, h_repeat, mode, blk, v_off, v_repeat)
    np.testing.assert_array_equal(y, want)


@pytest.mark.parametrize("off_value, mask, message", [
    (16, 128, r"src0_offset\[0\] = 16 is not the byte offset of a data block of src0"),
    (0, 129, r"mask 129 is outside \[1, 128\]"),
])
def test_bilinear_interpolation_errors_name_the_line(off_value, mask, message):
    off = np.full(256, off_value, np.int32)
    x = np.zeros(1024, np.float16)
    with pytest.raises(pyasc.KernelError, match=r"test_layout.py:\d+: bilinear_interpolation: "
                                                + message):
        k_bilinear[1](x, off, x[:256].copy(), np.zeros(2048, np.float16), mask, 1, False, 1,
                      128, 1)


def test_bilinear_interpolation_ascend_c():
    x = np.zeros(2048, np.float16)
    src = k_bilinear.ascendc(x, np.zeros(256, np.int32), x, x, (1, 2), 2, True, 1, 128, 2)
    assert "uint64_t pyasc_mask[2] = {1, 2};" in src
    assert ("AscendC::BilinearInterpolation(dst, src0, offs.ReinterpretCast<uint32_t>(), src1, "
            "pyasc_mask, (uint8_t)2, true, (uint16_t)1, (uint16_t)128, (uint8_t)2, tmp);") in src


# --- the static sync check sees everything these ops write ------------------------------------


@jit
def k_5hd_sync(x: pyasc.GlobalAddress, y: pyasc.GlobalAddress, synced: pyasc.ConstExpr[bool]):
    g = pyasc.GlobalTensor()
    g.set_global_buffer(x)
    o = pyasc.GlobalTensor()
    o.set_global_buffer(y)
    a = pyasc.LocalTensor(pyasc.float16, pyasc.TPosition.VECIN, 0, 256)
    b = pyasc.LocalTensor(pyasc.float16, pyasc.TPosition.VECOUT, 1024, 256)
    pyasc.data_copy(a, g, 256)
    pyasc.set_flag(pyasc.HardEvent.MTE2_V, 0)
    pyasc.wait_flag(pyasc.HardEvent.MTE2_V, 0)
    d = [b[0], b[16], b[32], b[48], b[64], b[80], b[96], b[112], b[128], b[144], b[160], b[176],
         b[192], b[208], b[224], b[240]]
    s = [a[0], a[16], a[32], a[48], a[64], a[80], a[96], a[112], a[128], a[144], a[160], a[176],
         a[192], a[208], a[224], a[240]]
    pyasc.trans_data_to_5hd(d, s, pyasc.TransDataTo5HDParams())
    if synced:
        pyasc.set_flag(pyasc.HardEvent.V_MTE3, 0)
        pyasc.wait_flag(pyasc.HardEvent.V_MTE3, 0)
    pyasc.data_copy(o, b[240], 16)  # only the last dst_list block


def test_sync_check_sees_trans_data_to_5hd_write_its_whole_dst_list():
    kernel = pyasc.jit(k_5hd_sync.fn, cache_dir=CACHE, verify_sync=True)
    x = np.arange(256, dtype=np.float16)
    y = np.zeros(16, np.float16)
    kernel[1](x, y, True)
    np.testing.assert_array_equal(y, x.reshape(16, 16).T[15])
    with pytest.raises(pyasc.CompileError, match="read-after-write.*trans_data_to_5hd"):
        kernel[1](x, y, False)
