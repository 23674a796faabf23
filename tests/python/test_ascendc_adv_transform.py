"""Ascend C's tensor transforms on the simulated core and their host tiling.

The host side (include/ascendc/tiling/pad_tiling.h and confusion_transpose_tiling.h over
libasc's asc_tiling_pad / asc_tiling_unpad / asc_tiling_confusion_transpose):
``GetPadMaxMinTmpSize``, ``PadTilingFunc``, ``GetUnPadMaxMinTmpSize``, ``UnPadTilingFunc``,
``GetTransposeMaxMinTmpSize`` and ``GetTransposeTilingInfo`` give the numbers CANN's asc-devkit
computes (impl/adv_api/tiling/pad/pad_tiling_impl.cpp,
impl/adv_api/tiling/transpose/confusion_transpose_tiling_impl.cpp), worked out by hand here. The
kernel side (include/ascendc/kernel_operator/adv_transform.h): ``Pad``, ``UnPad`` and
``ConfusionTranspose`` / ``Transpose`` with a ``TransposeType`` (types 1 to 7, dav-2201's) against
NumPy's padding, slicing and transposes, bit for bit."""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
import pytest

import pyasc
from host_program import printed_numbers, run_host_program

pytestmark = pytest.mark.skipif(shutil.which("c++") is None and shutil.which("g++") is None,
                                reason="no C++ compiler")

# --- host: sizes and tiling --------------------------------------------------------------------

HOST = r"""
#include <cstdio>
#include <vector>
#include "tiling/tiling_api.h"

template <typename S>
static void words(const char *name, const S &t) {
  const uint32_t *v = reinterpret_cast<const uint32_t *>(&t);
  std::printf("%s", name);
  for (size_t i = 0; i < sizeof t / sizeof(uint32_t); i++) std::printf(" %u", v[i]);
  std::printf("\n");
}

int main() {
  uint32_t most = 7, least = 7;
  const ge::Shape pad(std::vector<int64_t>{16, 31});
  AscendC::GetPadMaxMinTmpSize(pad, 4, most, least);
  std::printf("pad_sizes %u %u\n", most, least);
  AscendC::tiling::PadTiling p;
  AscendC::PadTilingFunc(pad, pad, least, 4, p);
  words("pad", p);
  optiling::PadTiling op;  // the optiling class writes the kernel struct's bytes
  AscendC::PadTilingFunc(pad, pad, least, 4, op);
  AscendC::tiling::PadTiling back;
  op.SaveToBuffer(&back, sizeof back);
  words("pad_op", back);
  // half 16 x 16 with 14 valid columns, no tmp buffer
  AscendC::PadTilingFunc(ge::Shape(std::vector<int64_t>{16, 16}),
                         ge::Shape(std::vector<int64_t>{16, 14}), 0, 2, p);
  words("pad_aligned", p);
  const auto plat = platform_ascendc::PlatformAscendCManager::GetInstance();
  AscendC::GetUnPadMaxMinTmpSize(*plat, ge::Shape(std::vector<int64_t>{320, 64}), 2, most, least);
  std::printf("unpad_sizes %u %u\n", most, least);
  AscendC::tiling::UnPadTiling u;
  AscendC::UnPadTilingFunc(ge::Shape(std::vector<int64_t>{320, 64}), 2048, 2, u);
  words("unpad", u);
  const ge::Shape bnsh(std::vector<int64_t>{1, 2, 64, 32});
  AscendC::GetTransposeMaxMinTmpSize(bnsh, 2, 1, most, least);
  std::printf("t1_sizes %u %u\n", most, least);
  ConfusionTransposeTiling t;
  AscendC::GetTransposeTilingInfo(bnsh, least, 2, 1, t);
  words("t1", t);
  optiling::ConfusionTransposeTiling ot;
  AscendC::GetConfusionTransposeTilingInfo(ge::Shape(std::vector<int64_t>{32, 48}), 0, 4, 7, ot);
  ot.SaveToBuffer(&t, sizeof t);
  words("t7", t);
  AscendC::GetConfusionTransposeMaxMinTmpSize(ge::Shape(std::vector<int64_t>{2, 4, 32, 16}), 4, 4,
                                              most, least);
  std::printf("t4_sizes %u %u\n", most, least);
  // refused: the sizes 0, the tiling left as it was, the reason on stderr
  AscendC::GetPadMaxMinTmpSize(ge::Shape(std::vector<int64_t>{4, 4, 4}), 4, most, least);
  std::printf("pad_3d %u %u\n", most, least);
  AscendC::GetTransposeTilingInfo(bnsh, 0, 2, 9, t);
  words("t9", t);
  AscendC::GetTransposeTilingInfo(bnsh, 100, 2, 1, t);
  words("t1_small", t);
  return 0;
}
"""


def test_host_sizes_and_tiling_follow_cann(tmp_path: Path) -> None:
    run = run_host_program(tmp_path, "transform_host", HOST)
    got = printed_numbers(run)
    # 16 x 31 floats: 496 elements in whole 16s, 16 x 8 elements x 2 buffers x 4 bytes each
    assert got["pad_sizes"] == [496 * 64, 1024]
    # width 31 - 8 = 23 before the last block, 124 bytes = 3 whole blocks, 255 rows a pass:
    # 0 passes and 16 rows; 1024 bytes: one 16-row block a buffer (128 floats), width 31 = one
    # 16-piece and 15 (16 aligned), 496 = 31 x 16 broadcast pieces, 254-repeat Brcb of 16 / 8
    assert got["pad"] == [16, 31, 31, 23, 3, 255, 0, 16, 7905, 23, 1, 16, 128, 16, 1, 15, 16, 16,
                          31, 0, 254, 0, 2, 0, 0, 0]
    assert got["pad_op"] == got["pad"]
    assert got["pad_aligned"] == [16, 16, 14, 0, 1, 255, 0, 16, 255 * 16, 0] + [0] * 16
    assert got["unpad_sizes"] == [0, 0]  # dav-2201 needs none
    assert got["unpad"] == [320, 64, 2, 32, 512, 32, 2, 32]
    # [B, N, S, H/N] = [1, 2, 64, 32] half: 64 x 16 x 2 bytes at most, one 16 x 16 tile least
    assert got["t1_sizes"] == [2048, 512]
    assert got["t1"] == [16, 1, 2, 32, 64, 2, 256, 16, 1024, 4, 0, 2048, 4096, 64, 32, 4096, 0, 0]
    # [32, 48] floats: 8 a block, 2 row tiles, 32 blocks a stride, 6 blocks a row
    assert got["t7"] == [8, 32, 48, 2, 32, 6] + [0] * 12
    assert got["t4_sizes"] == [2048, 2048]
    assert got["pad_3d"] == [0, 0]
    assert got["t9"] == got["t7"]
    assert got["t1_small"] == got["t7"]
    assert "transposeType 9" in run.stderr and "16 x 16" in run.stderr
    assert "GetPadMaxMinTmpSize" in run.stderr


# --- kernels ---------------------------------------------------------------------------------

KERNELS = r"""
#include "kernel_operator.h"

// which: 0 Pad into dst, 1 Pad in place, 2 UnPad, 3 Transpose (a: the type), 4 the
// ConfusionTranspose name with a tmp buffer; the tiling's 32-bit words from GM. a, b: leftPad and
// rightPad (or a the type), c: padValue.
template <typename T>
__aicore__ inline void Run(GM_ADDR src, GM_ADDR dst, GM_ADDR tiling, int32_t which,
                           uint32_t nsrc, uint32_t ndst, uint32_t a, uint32_t b, int32_t c)
{
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> sb, db, tb;
    pipe.InitBuffer(sb, 64 * 1024);
    pipe.InitBuffer(db, 64 * 1024);
    pipe.InitBuffer(tb, 4096);
    AscendC::GlobalTensor<T> sg, dg;
    AscendC::GlobalTensor<uint32_t> tg;
    sg.SetGlobalBuffer((__gm__ T *)src, nsrc);
    dg.SetGlobalBuffer((__gm__ T *)dst, ndst);
    tg.SetGlobalBuffer((__gm__ uint32_t *)tiling, 32);
    AscendC::LocalTensor<T> x = sb.Get<T>(), y = db.Get<T>();
    AscendC::LocalTensor<uint8_t> tmp = tb.Get<uint8_t>();
    AscendC::DataCopy(x, sg, nsrc);
    AscendC::DataCopy(y, dg, ndst);
    AscendC::PipeBarrier<PIPE_ALL>();
    uint32_t words[32];
    for (int i = 0; i < 32; i++) words[i] = tg.GetValue(i);
    AscendC::PadParams pad{static_cast<uint16_t>(a), static_cast<uint16_t>(b), c};
    AscendC::UnPadParams unpad{static_cast<uint16_t>(a), static_cast<uint16_t>(b)};
    AscendC::tiling::PadTiling pt;
    AscendC::tiling::UnPadTiling ut;
    ConfusionTransposeTiling ct;
    std::memcpy(&pt, words, sizeof pt);
    std::memcpy(&ut, words, sizeof ut);
    std::memcpy(&ct, words, sizeof ct);
    const auto type = static_cast<AscendC::TransposeType>(a);
    switch (which) {
    case 0: AscendC::Pad(y, x, pad, tmp, pt); break;
    case 1: AscendC::Pad(x, x, pad, pt); AscendC::DataCopy(y, x, ndst); break;
    case 2: AscendC::UnPad(y, x, unpad, ut); break;
    case 3: AscendC::Transpose(y, x, type, ct); break;
    default: AscendC::ConfusionTranspose(y, x, tmp, type, ct);
    }
    AscendC::PipeBarrier<PIPE_ALL>();
    AscendC::DataCopy(dg, y, ndst);
}

#define KERNEL(name, T)                                                                      \
    extern "C" __global__ __aicore__ void name(GM_ADDR src, GM_ADDR dst, GM_ADDR tiling,     \
                                               int32_t which, uint32_t nsrc, uint32_t ndst,  \
                                               uint32_t a, uint32_t b, int32_t c)            \
    {                                                                                        \
        Run<T>(src, dst, tiling, which, nsrc, ndst, a, b, c);                                \
    }
KERNEL(transform_float, float)
KERNEL(transform_half, half)
KERNEL(transform_int16, int16_t)
KERNEL(transform_uint16, uint16_t)
KERNEL(transform_int32, int32_t)
KERNEL(transform_uint32, uint32_t)
"""

NAMES = {np.float32: "float", np.float16: "half", np.int16: "int16", np.uint16: "uint16",
         np.int32: "int32", np.uint32: "uint32"}


def _blocks(a: np.ndarray) -> np.ndarray:
    """a flattened and padded with zeros to whole 32-byte blocks."""
    flat = a.reshape(-1)
    per = 32 // flat.itemsize
    return np.concatenate([flat, np.zeros((-flat.size) % per, flat.dtype)])


def _run(dtype, which: int, src: np.ndarray, ndst: int, tiling: list[int], a: int = 0,
         b: int = 0, c: int = 0, debug: bool = False) -> np.ndarray:
    x = _blocks(src.astype(dtype))
    y = _blocks(np.full(ndst, 77, dtype))
    words = np.zeros(32, np.uint32)
    words[:len(tiling)] = tiling
    pyasc.ascendc.load(KERNELS, f"transform_{NAMES[dtype]}", debug=debug)[1](
        x, y, words, np.int32(which), np.uint32(x.size), np.uint32(y.size), np.uint32(a),
        np.uint32(b), np.int32(c))
    return y[:ndst]


def _values(dtype, shape) -> np.ndarray:
    n = int(np.prod(shape))
    rng = np.random.default_rng(n)
    if np.issubdtype(dtype, np.floating):
        return rng.uniform(-100, 100, shape).astype(dtype)
    info = np.iinfo(dtype)
    return rng.integers(info.min, info.max, shape, dtype=dtype, endpoint=True)


def _pad_tiling(h: int, w: int, ori_w: int, ts: int, blocks: int = 1) -> list[int]:
    """PadTiling's first fields the kernel reads, and a tmp split of `blocks` 16-row blocks."""
    return [h, w, ori_w, 0, 0, 0, 0, 0, 0, 0, blocks]


@pytest.mark.parametrize("dtype,h,w,left,right", [
    (np.float32, 16, 31, 0, 1),  # CANN's example
    (np.float16, 16, 15, 0, 1),  # CANN's documented one
    (np.float32, 5, 13, 2, 1),
    (np.int16, 4, 20, 3, 9),
    (np.uint32, 3, 1, 7, 0),
    (np.int32, 8, 30, 0, 2),
    (np.uint16, 2, 33, 15, 0),
])
def test_pad_unaligned_rows_match_numpy(dtype, h, w, left, right):
    src = _values(dtype, (h, w))
    ts = np.dtype(dtype).itemsize
    value = 321
    want = np.pad(src, ((0, 0), (left, right)), constant_values=value).astype(dtype)
    out = _run(dtype, 0, src, want.size, _pad_tiling(h, w, w, ts), left, right, value)
    np.testing.assert_array_equal(out.reshape(want.shape), want)
    # in place (dst the source's tensor)
    out = _run(dtype, 1, src, want.size, _pad_tiling(h, w, w, ts), left, right, value)
    np.testing.assert_array_equal(out.reshape(want.shape), want)


@pytest.mark.parametrize("dtype,h,w,ori_w,right", [
    (np.float16, 16, 16, 14, 2),  # CANN's scenario 2: the last two columns redundant
    (np.float32, 300, 16, 13, 2),  # over 255 rows: two Duplicate passes
    (np.int32, 3, 8, 5, 3),
    (np.int16, 4, 32, 17, 1),
    (np.float32, 2, 24, 24, 0),
])
def test_pad_aligned_sets_the_redundant_columns(dtype, h, w, ori_w, right):
    src = _values(dtype, (h, w))
    want = src.copy()
    want[:, ori_w:ori_w + right] = np.array(-5).astype(dtype)
    out = _run(dtype, 0, src, src.size, _pad_tiling(h, w, ori_w, np.dtype(dtype).itemsize, 0),
               0, right, -5)
    np.testing.assert_array_equal(out.reshape(h, w), want)


def test_pad_value_is_cast_to_the_type():
    src = _values(np.float16, (2, 15))
    out = _run(np.float16, 0, src, 32, _pad_tiling(2, 15, 15, 2), 0, 1, 70001)
    assert out[15] == out[31] == np.inf  # past half's range (65504): a cast's inf


@pytest.mark.parametrize("dtype,h,w,right", [
    (np.float32, 8, 8, 1),  # CANN's example
    (np.float16, 16, 16, 1),
    (np.int32, 5, 24, 7),
    (np.uint16, 3, 48, 15),
    (np.int16, 2, 16, 0),
])
def test_unpad_matches_slicing(dtype, h, w, right):
    src = _values(dtype, (h, w))
    want = src[:, :w - right]
    out = _run(dtype, 2, src, want.size, [h, w], 0, right)
    np.testing.assert_array_equal(out.reshape(want.shape), want)


def _nz(m: np.ndarray) -> np.ndarray:
    """NZ of the last two axes (R x C, both multiples of 16): [..., C/16, R, 16]."""
    *lead, r, c = m.shape
    return m.reshape(*lead, r, c // 16, 16).swapaxes(-3, -2)


def _ct_tiling(kind: int, b: int, n: int, s: int, hn: int, ts: int) -> list[int]:
    """The params the kernel reads (param0: elements a block), as CANN lays them out."""
    p = [0] * 18
    p[0], p[1], p[2], p[3] = 32 // ts, b, n, hn
    if kind in (1, 2):
        p[4] = s
    elif kind == 3:
        p[9] = s
    else:
        p[6] = s // 16
    return p


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.int16, np.uint32])
@pytest.mark.parametrize("kind", [1, 2, 3, 4, 5, 6])
@pytest.mark.parametrize("b,n,s,hn", [(1, 2, 64, 32), (2, 3, 16, 16), (1, 16, 16, 32)])
def test_nz_transposes_match_numpy(dtype, kind, b, n, s, hn):
    h = n * hn
    nd = _values(dtype, (b, n, s, hn))  # the [B, N, S, H/N] tensor
    bsh = nd.transpose(0, 2, 1, 3).reshape(b, s, h)  # its [B, S, H] view
    src = _nz(bsh) if kind in (3, 4) else _nz(nd)
    want = {
        1: nd.transpose(0, 2, 1, 3),
        2: _nz(nd.transpose(0, 2, 1, 3)),  # [B, S] NZ of N x H/N
        3: _nz(nd),
        4: nd,
        5: bsh,
        6: _nz(bsh),
    }[kind]
    tiling = _ct_tiling(kind, b, n, s, hn, np.dtype(dtype).itemsize)
    out = _run(dtype, 3 if kind % 2 else 4, src, want.size, tiling, kind)
    np.testing.assert_array_equal(out, want.reshape(-1))


@pytest.mark.parametrize("dtype,h,w", [(np.float16, 16, 16), (np.float32, 32, 48),
                                       (np.int32, 48, 16), (np.uint16, 16, 64)])
def test_nd2nd_only_is_the_2d_transpose(dtype, h, w):
    src = _values(dtype, (h, w))
    tiling = [32 // np.dtype(dtype).itemsize, h, w]
    out = _run(dtype, 3, src, src.size, tiling, 7)
    np.testing.assert_array_equal(out.reshape(w, h), src.T)


def _line(marker: str) -> int:
    return KERNELS[:KERNELS.index(marker)].count("\n") + 1


@pytest.mark.parametrize("which,tiling,a,b,match", [
    (0, _pad_tiling(4, 13, 13, 4), 0, 1, "leftPad \\+ rightPad must be 3, not 1"),
    (0, _pad_tiling(4, 13, 13, 4, 0), 0, 3, "stackBufferSize was 0"),
    (0, _pad_tiling(4, 16, 12, 4), 1, 1, "leftPad must be 0"),
    (0, _pad_tiling(4, 16, 12, 4), 0, 5, "last 32-byte block"),
    (0, [0] * 11, 0, 1, "PadTilingFunc"),
    (2, [4, 13], 0, 1, "must be 32-byte aligned"),
    (2, [4, 16], 1, 1, "leftPad must be 0"),
    (2, [4, 16], 0, 8, "under one 32-byte block"),
    (3, [8, 16, 16] + [0] * 15, 9, 0, "TransposeType 9"),
    (3, [16, 16, 16] + [0] * 15, 7, 0, "for 2-byte elements"),
    (3, [8, 16, 24] + [0] * 15, 7, 0, "multiples of 16"),
    (3, _ct_tiling(4, 1, 2, 16, 24, 4), 4, 0, "H/N a multiple of 16"),
    (3, _ct_tiling(5, 1, 2, 16, 16, 4)[:6] + [0] * 12, 5, 0, "GetTransposeTilingInfo"),
    (3, _ct_tiling(1, 1, 4096, 16, 16, 4), 1, 0, "src holds"),
])
def test_refused_shapes_fail_at_the_call(which, tiling, a, b, match):
    line = _line({0: "case 0:", 2: "case 2:", 3: "case 3:"}[which])
    with pytest.raises(pyasc.KernelError, match=rf"<string>:{line}: .*{match}"):
        _run(np.float32, which, np.zeros(64, np.float32), 64, tiling, a, b, debug=True)
