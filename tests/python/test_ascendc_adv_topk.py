"""Ascend C's TopK (the merge-sort algorithm of dav-2201) on the simulated cores, and its host tiling.

The kernel side (include/ascendc/kernel_operator/adv_topk.h) issues Sort32, MrgSort and
GatherMask in the order CANN's implementation does; the NPU's sorts are stable (of equal scores
the earlier element comes first) and isLargest false sorts the negated row, so each row's k
values and indices equal NumPy's stable argsort of the padded row (descending keys for the
largest), the indices srcIndexLocal's with isInitIndex. TOPK_NORMAL writes row j's values at j *
k_pad (8 floats or 16 halves) and its indices at j * kpad_index (8), a row whose finish flag is
set getting n for all k indices; TOPK_NSMALL packs them at j * k. The host side
(include/ascendc/tiling/topk_tiling.h over libasc's asc_tiling_topk*) gives the sizes and the
TopkTiling CANN's topk_tiling_impl.cpp computes for dav-2201, worked out here by hand."""

from __future__ import annotations

import shutil
import struct
from pathlib import Path

import numpy as np
import pytest

import pyasc
from host_program import printed_numbers, run_host_program

pytestmark = pytest.mark.skipif(shutil.which("c++") is None and shutil.which("g++") is None,
                                reason="no C++ compiler")

# TopkTiling's members in CANN's order, with their struct formats
FIELDS = [
    ("tmpLocalSize", "i"), ("allDataSize", "i"), ("innerDataSize", "i"), ("sortRepeat", "I"),
    ("mrgSortRepeat", "i"), ("kAlignFourBytes", "i"), ("kAlignTwoBytes", "i"),
    ("maskOffset", "i"), ("maskVreducev2FourBytes", "i"), ("maskVreducev2TwoBytes", "i"),
    ("mrgSortSrc1offset", "i"), ("mrgSortSrc2offset", "i"), ("mrgSortSrc3offset", "i"),
    ("mrgSortTwoQueueSrc1Offset", "i"), ("mrgFourQueueTailPara1", "i"),
    ("mrgFourQueueTailPara2", "i"), ("srcIndexOffset", "i"), ("copyUbToUbBlockCount", "I"),
    ("topkMrgSrc1MaskSizeOffset", "i"), ("topkNSmallSrcIndexOffset", "i"),
    ("vreduceValMask0", "I"), ("vreduceValMask1", "I"), ("vreduceIdxMask0", "I"),
    ("vreduceIdxMask1", "I")] + [(f"vreducehalfValMask{i}", "H") for i in range(8)]
FORMAT = "<" + "".join(f for _, f in FIELDS)
assert struct.calcsize(FORMAT) == 112


def _pattern(unit: str, count: int) -> int:
    """count copies of a bit string, the last copy in the lowest bits (CANN's masks)."""
    return int(unit * count, 2) if count > 0 else 0


def tiling_ref(inner: int, outter: int, k: int, ts: int, init: bool, nsmall: bool,
               largest: bool) -> dict[str, int]:
    """CANN's TopKTilingFunc for dav-2201 (SetTopkNormalVal / SetTopkNSmallVal), by hand."""
    t = dict.fromkeys((name for name, _ in FIELDS), 0)
    t["allDataSize"] = inner * outter
    t["kAlignFourBytes"] = (k + 7) // 8 * 8
    if not nsmall:
        k16 = (k + 15) // 16 * 16
        t.update(tmpLocalSize=4 * inner, innerDataSize=2 * inner, copyUbToUbBlockCount=inner // 4,
                 sortRepeat=inner // 32, mrgSortRepeat=inner // 4, kAlignTwoBytes=k16,
                 maskOffset=outter * t["kAlignFourBytes"], maskVreducev2FourBytes=2 * k,
                 maskVreducev2TwoBytes=4 * k, mrgSortSrc1offset=2, mrgSortSrc2offset=4,
                 mrgSortSrc3offset=6, mrgSortTwoQueueSrc1Offset=2,
                 mrgFourQueueTailPara1=2 * inner, mrgFourQueueTailPara2=4 // ts)
        if ts == 2:
            t.update(tmpLocalSize=8 * inner, maskOffset=outter * k16, innerDataSize=4 * inner,
                     mrgSortSrc1offset=4, mrgSortSrc2offset=8, mrgSortSrc3offset=12,
                     mrgSortTwoQueueSrc1Offset=4)
        if not init:
            t.update(tmpLocalSize=5 * inner, srcIndexOffset=4 * inner)
            if ts == 2:
                t.update(tmpLocalSize=10 * inner, srcIndexOffset=8 * inner)
        return t
    data = inner * outter * (8 // ts)
    mask_at = data + (0 if largest else inner * outter)
    t.update(innerDataSize=data, maskOffset=outter * k, topkMrgSrc1MaskSizeOffset=mask_at,
             tmpLocalSize=mask_at + 64 // ts)
    if not init:
        t.update(topkNSmallSrcIndexOffset=mask_at + 64 // ts,
                 tmpLocalSize=mask_at + 64 // ts + inner * outter * 4 // ts)
    if k < 17:
        t["vreduceIdxMask0"] = _pattern("10", k)
    else:
        t["vreduceIdxMask0"], t["vreduceIdxMask1"] = 0xAAAAAAAA, _pattern("10", k - 16)
    if ts == 4:
        if k < 17:
            t["vreduceValMask0"] = _pattern("01", k)
        else:
            t["vreduceValMask0"], t["vreduceValMask1"] = 0x55555555, _pattern("01", k - 16)
    else:
        for i in range(8):
            t[f"vreducehalfValMask{i}"] = _pattern("0001", min(4, k - 4 * i))
    return t


def tmp_bytes_ref(inner: int, outter: int, init: bool, nsmall: bool, largest: bool) -> int:
    """CANN's GetTopKMaxMinTmpSize for dav-2201 (GetTopKMaxMinTmpSize220)."""
    if not nsmall:
        return 16 * inner + (0 if init else 4 * inner)
    io = inner * outter
    return io * 8 + 64 + (0 if largest else io * 4) + (0 if init else io * 4)


# --- host sizes and tiling ---------------------------------------------------------------------

HOST = r"""
#include <cstdio>
#include <cstring>
#include "tiling/tiling_api.h"

static void print(const char *name, const AscendC::tiling::TopkTiling &t) {
  const uint32_t *w = reinterpret_cast<const uint32_t *>(&t);
  std::printf("%s", name);
  for (size_t i = 0; i < sizeof(t) / 4; ++i) std::printf(" %u", w[i]);
  std::printf("\n");
}

static void one(const char *name, int32_t inner, int32_t outter, int32_t k, uint32_t ts,
                bool init, AscendC::TopKMode mode, bool largest) {
  auto *platform = platform_ascendc::PlatformAscendCManager::GetInstance();
  uint32_t most = 7, least = 7;
  bool ok = AscendC::GetTopKMaxMinTmpSize(*platform, inner, outter, false, init, mode, largest,
                                          ts, most, least);
  std::printf("%s_size %d %u %u\n", name, ok, most, least);
  AscendC::tiling::TopkTiling t;
  t.tmpLocalSize = -7;
  ok = AscendC::TopKTilingFunc(*platform, inner, outter, k, ts, init, mode, largest, t);
  std::printf("%s_ok %d\n", name, ok);
  print(name, t);
  // the optiling class saves the same bytes
  optiling::TopkTiling op;
  AscendC::TopKTilingFunc(*platform, inner, outter, k, ts, init, mode, largest, op);
  AscendC::tiling::TopkTiling saved;
  saved.tmpLocalSize = -7;
  if (op.GetDataSize() == sizeof(saved)) op.SaveToBuffer(&saved, sizeof(saved));
  std::printf("%s_same %d\n", name, std::memcmp(&saved, &t, sizeof(t)) == 0);
}

int main() {
  using M = AscendC::TopKMode;
  one("example", 32, 2, 1, 4, false, M::TOPK_NORMAL, false);
  one("normal_half", 4096, 2, 37, 2, true, M::TOPK_NORMAL, true);
  one("normal_half_gen", 160, 3, 20, 2, false, M::TOPK_NORMAL, false);
  one("normal_float_init", 96, 5, 9, 4, true, M::TOPK_NORMAL, true);
  one("small_float", 32, 4, 20, 4, false, M::TOPK_NSMALL, false);
  one("small_float_largest", 32, 3, 5, 4, true, M::TOPK_NSMALL, true);
  one("small_half", 32, 6, 27, 2, false, M::TOPK_NSMALL, true);
  one("small_half_smallest", 32, 2, 3, 2, true, M::TOPK_NSMALL, false);
  // refused: the sizes and the tiling left as they were
  one("bad_inner", 48, 2, 1, 4, false, M::TOPK_NORMAL, true);
  one("bad_small_inner", 64, 2, 1, 4, false, M::TOPK_NSMALL, true);
  one("bad_k", 32, 2, 33, 4, false, M::TOPK_NORMAL, true);
  one("bad_type", 32, 2, 1, 8, false, M::TOPK_NORMAL, true);
  one("bad_outter", 32, 0, 1, 4, false, M::TOPK_NORMAL, true);
  one("bad_ub", 4096, 48, 1, 4, false, M::TOPK_NORMAL, true);
  return 0;
}
"""

HOST_CASES = {
    "example": (32, 2, 1, 4, False, False, False),
    "normal_half": (4096, 2, 37, 2, True, False, True),
    "normal_half_gen": (160, 3, 20, 2, False, False, False),
    "normal_float_init": (96, 5, 9, 4, True, False, True),
    "small_float": (32, 4, 20, 4, False, True, False),
    "small_float_largest": (32, 3, 5, 4, True, True, True),
    "small_half": (32, 6, 27, 2, False, True, True),
    "small_half_smallest": (32, 2, 3, 2, True, True, False),
}


def _words(t: dict[str, int]) -> list[int]:
    raw = struct.pack(FORMAT, *(t[name] & (0xFFFF if f == "H" else 0xFFFFFFFF)
                                for name, f in FIELDS))
    return list(struct.unpack(f"<{len(raw) // 4}I", raw))


def test_host_sizes_and_tiling_follow_cann(tmp_path: Path) -> None:
    run = run_host_program(tmp_path, "topk_host", HOST)
    got = printed_numbers(run)
    for name, (inner, outter, k, ts, init, nsmall, largest) in HOST_CASES.items():
        size = tmp_bytes_ref(inner, outter, init, nsmall, largest)
        assert got[f"{name}_size"] == [1, size, size], name
        assert got[f"{name}_ok"] == [1], name
        assert got[name] == _words(tiling_ref(inner, outter, k, ts, init, nsmall, largest)), name
        assert got[f"{name}_same"] == [1], name
    # a few numbers worked out from CANN's code directly
    assert got["example_size"] == [1, 640, 640]  # (16 + 4) * 32
    ex = dict(zip((n for n, _ in FIELDS), struct.unpack(FORMAT, struct.pack(
        "<28I", *got["example"]))))
    assert (ex["tmpLocalSize"], ex["innerDataSize"], ex["srcIndexOffset"], ex["maskOffset"],
            ex["copyUbToUbBlockCount"]) == (160, 64, 128, 16, 8)
    assert got["small_half_size"] == [1, 2368, 2368]  # 192 * (8 + 4) + 64
    sh = dict(zip((n for n, _ in FIELDS), struct.unpack(FORMAT, struct.pack(
        "<28I", *got["small_half"]))))
    # k = 27: six full groups of 0b0001 patterns, then 3; indices 16 then 11 odd bits
    assert [sh[f"vreducehalfValMask{i}"] for i in range(8)] == [0x1111] * 6 + [0x0111, 0]
    assert (sh["vreduceIdxMask0"], sh["vreduceIdxMask1"]) == (0xAAAAAAAA, 0x2AAAAA)
    for bad in ("bad_inner", "bad_small_inner", "bad_k", "bad_type", "bad_outter", "bad_ub"):
        assert got[f"{bad}_ok"] == [0], bad
        assert got[bad][0] == 0xFFFFFFF9 and not any(got[bad][1:]), bad  # left as it was
        if bad != "bad_k":
            assert got[f"{bad}_size"] == [0, 7, 7], bad
    for reason in ("multiple of 32", "must be 32", "k (33) must be in [1, 32]", "type size 8",
                   "outter axis (0)", "exceeds the UB"):
        assert reason in run.stderr, reason


# --- kernels -----------------------------------------------------------------------------------

KERNELS = r"""
#include "kernel_operator.h"

constexpr uint32_t SRC = 8192, OUT = 4096;
using Mode = AscendC::TopKMode;

template <typename T, bool init, bool fin, Mode mode, bool stack>
__aicore__ inline void run(GM_ADDR x, GM_ADDR idx, GM_ADDR finish, GM_ADDR tiling, GM_ADDR outv,
                           GM_ADDR outi, int32_t k, int32_t outter, int32_t inner, int32_t n,
                           int32_t largest, uint32_t tmpBytes)
{
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> xb, ib, fb, vb, jb, tb;
    pipe.InitBuffer(xb, SRC * sizeof(T));
    pipe.InitBuffer(ib, SRC * sizeof(int32_t));
    pipe.InitBuffer(fb, 64);
    pipe.InitBuffer(vb, OUT * sizeof(T));
    pipe.InitBuffer(jb, OUT * sizeof(int32_t));
    if (!stack) pipe.InitBuffer(tb, tmpBytes);
    AscendC::GlobalTensor<T> xg, vg;
    AscendC::GlobalTensor<int32_t> ig, jg;
    AscendC::GlobalTensor<uint8_t> fg;
    xg.SetGlobalBuffer((__gm__ T *)x, SRC);
    ig.SetGlobalBuffer((__gm__ int32_t *)idx, SRC);
    fg.SetGlobalBuffer((__gm__ uint8_t *)finish, 64);
    vg.SetGlobalBuffer((__gm__ T *)outv, OUT);
    jg.SetGlobalBuffer((__gm__ int32_t *)outi, OUT);
    TopkTiling t;
    auto *words = reinterpret_cast<__gm__ uint32_t *>(tiling);
    for (uint32_t i = 0; i < sizeof(t) / 4; ++i) reinterpret_cast<uint32_t *>(&t)[i] = words[i];
    AscendC::LocalTensor<T> xs = xb.Get<T>(), v = vb.Get<T>();
    AscendC::LocalTensor<int32_t> is = ib.Get<int32_t>(), j = jb.Get<int32_t>();
    AscendC::LocalTensor<uint8_t> fs = fb.Get<uint8_t>();
    AscendC::DataCopy(xs, xg, SRC);
    AscendC::DataCopy(is, ig, SRC);
    AscendC::DataCopy(fs, fg, 64);
    AscendC::DataCopy(v, vg, OUT);
    AscendC::DataCopy(j, jg, OUT);
    AscendC::PipeBarrier<PIPE_ALL>();
    AscendC::TopKInfo info;
    info.outter = outter;
    info.inner = inner;
    info.n = n;
    AscendC::LocalTensor<bool> fl = fs.ReinterpretCast<bool>();
    if constexpr (stack) {
        AscendC::TopK<T, init, fin, false, mode>(v, j, xs, is, fl, k, t, info, largest != 0);  // STACK
    } else {
        AscendC::LocalTensor<uint8_t> tmp = tb.Get<uint8_t>();
        AscendC::TopK<T, init, fin, false, mode>(v, j, xs, is, fl, tmp, k, t, info, largest != 0);  // TMP
    }
    AscendC::PipeBarrier<PIPE_ALL>();
    AscendC::DataCopy(vg, v, OUT);
    AscendC::DataCopy(jg, j, OUT);
}

// variant: 1 isInitIndex, 2 isHasfinish, 4 TOPK_NSMALL, 8 the stack buffer
#define TOPK_KERNEL(NAME, T)                                                                   \
    extern "C" __global__ __aicore__ void NAME(GM_ADDR x, GM_ADDR idx, GM_ADDR finish,         \
                                               GM_ADDR tiling, GM_ADDR outv, GM_ADDR outi,     \
                                               int32_t variant, int32_t k, int32_t outter,     \
                                               int32_t inner, int32_t n, int32_t largest,      \
                                               uint32_t tmpBytes)                              \
    {                                                                                          \
        switch (variant) {                                                                     \
        case 0: run<T, false, false, Mode::TOPK_NORMAL, false>(x, idx, finish, tiling, outv, outi, k, outter, inner, n, largest, tmpBytes); break; \
        case 1: run<T, true, false, Mode::TOPK_NORMAL, false>(x, idx, finish, tiling, outv, outi, k, outter, inner, n, largest, tmpBytes); break; \
        case 2: run<T, false, true, Mode::TOPK_NORMAL, false>(x, idx, finish, tiling, outv, outi, k, outter, inner, n, largest, tmpBytes); break; \
        case 3: run<T, true, true, Mode::TOPK_NORMAL, false>(x, idx, finish, tiling, outv, outi, k, outter, inner, n, largest, tmpBytes); break; \
        case 4: run<T, false, false, Mode::TOPK_NSMALL, false>(x, idx, finish, tiling, outv, outi, k, outter, inner, n, largest, tmpBytes); break; \
        case 5: run<T, true, false, Mode::TOPK_NSMALL, false>(x, idx, finish, tiling, outv, outi, k, outter, inner, n, largest, tmpBytes); break; \
        case 6: run<T, false, true, Mode::TOPK_NSMALL, false>(x, idx, finish, tiling, outv, outi, k, outter, inner, n, largest, tmpBytes); break; \
        case 8: run<T, false, false, Mode::TOPK_NORMAL, true>(x, idx, finish, tiling, outv, outi, k, outter, inner, n, largest, tmpBytes); break; \
        case 12: run<T, false, false, Mode::TOPK_NSMALL, true>(x, idx, finish, tiling, outv, outi, k, outter, inner, n, largest, tmpBytes); break; \
        default: break;                                                                        \
        }                                                                                      \
    }
TOPK_KERNEL(topk_float, float)
TOPK_KERNEL(topk_half, half)
"""

SRC, OUT = 8192, 4096
LEFT = 7  # what the outputs hold before the call


def _topk(dtype, variant: int, x: np.ndarray, k: int, *, n: int | None = None,
          largest: bool = True, index: np.ndarray | None = None,
          finish: np.ndarray | None = None, tmp_bytes: int | None = None,
          tiling: dict[str, int] | None = None, debug: bool = False):
    """x: outter rows of inner (already padded); returns the raw value and index outputs."""
    outter, inner = x.shape
    init, nsmall = bool(variant & 1), bool(variant & 4)
    ts = np.dtype(dtype).itemsize
    if tiling is None:
        tiling = tiling_ref(inner, outter, k, ts, init, nsmall, largest)
    if tmp_bytes is None:
        tmp_bytes = (tmp_bytes_ref(inner, outter, init, nsmall, largest) + 31) // 32 * 32
    xs = np.zeros(SRC, dtype)
    xs[:x.size] = x.ravel()
    idx = np.zeros(SRC, np.int32)
    if index is not None:
        idx[:index.size] = index.ravel()
    fin = np.zeros(64, np.uint8)
    if finish is not None:
        fin[:finish.size] = finish
    raw = np.frombuffer(struct.pack(FORMAT, *(tiling[name] & (0xFFFF if f == "H" else 0xFFFFFFFF)
                                              for name, f in FIELDS)), np.uint8).copy()
    outv = np.full(OUT, LEFT, dtype)
    outi = np.full(OUT, LEFT, np.int32)
    name = "topk_float" if dtype == np.float32 else "topk_half"
    pyasc.ascendc.load(KERNELS, name, debug=debug)[1](
        xs, idx, fin, raw, outv, outi, np.int32(variant), np.int32(k), np.int32(outter),
        np.int32(inner), np.int32(inner if n is None else n), np.int32(largest),
        np.uint32(tmp_bytes))
    return outv, outi


def _reference(x: np.ndarray, k: int, largest: bool):
    """NumPy's stable sort of each padded row: of equal values the earlier index first."""
    keys = -x.astype(np.float64) if largest else x.astype(np.float64)
    order = np.argsort(keys, axis=1, kind="stable")[:, :k]
    return np.take_along_axis(x, order, axis=1), order


def _rows(dtype, outter: int, inner: int, n: int, largest: bool, seed: int, ties: bool = False):
    rng = np.random.default_rng(seed)
    if ties:  # few distinct values: the tie order shows
        x = rng.integers(-6, 7, (outter, inner)).astype(dtype)
    else:
        x = rng.uniform(-1000, 1000, (outter, inner)).astype(dtype)
    info = np.finfo(dtype)
    x[:, n:] = info.min if largest else info.max  # the padding CANN's page asks for
    return x


def _check_normal(dtype, x, k, largest, outv, outi, index_map=None, finish=None, n=None):
    outter, inner = x.shape
    kv = (k + 7) // 8 * 8 if dtype == np.float32 else (k + 15) // 16 * 16
    ki = (k + 7) // 8 * 8
    want_v, want_i = _reference(x, k, largest)
    if index_map is not None:
        want_i = index_map[want_i]
    if finish is not None:
        want_i = np.where(finish[:, None].astype(bool), n, want_i)
    v = outv[:outter * kv].reshape(outter, kv)
    i = outi[:outter * ki].reshape(outter, ki)
    np.testing.assert_array_equal(v[:, :k], want_v)
    np.testing.assert_array_equal(i[:, :k], want_i)
    # the padding of each row is left alone, the values' negated with the rest for the smallest
    left = dtype(LEFT) if largest else -dtype(LEFT)
    np.testing.assert_array_equal(v[:, k:], left)
    np.testing.assert_array_equal(i[:, k:], LEFT)
    np.testing.assert_array_equal(outv[outter * kv:], dtype(LEFT))
    np.testing.assert_array_equal(outi[outter * ki:], LEFT)


@pytest.mark.parametrize("dtype", [np.float32, np.float16])
@pytest.mark.parametrize("largest", [True, False])
@pytest.mark.parametrize("outter,inner,n,k", [
    (2, 32, 32, 1),        # the example's shape
    (3, 64, 50, 7),        # two Sort32 lists, one two-way merge
    (2, 128, 128, 17),     # one four-way merge
    (1, 608, 600, 40),     # four-way levels then lists of 512, 32, 32, 32 merged two at a time
    (2, 2048, 2000, 100),  # three four-way levels
])
def test_normal_mode_is_numpys_stable_topk(dtype, largest, outter, inner, n, k):
    x = _rows(dtype, outter, inner, n, largest, seed=inner + k, ties=inner <= 128)
    outv, outi = _topk(dtype, 0, x, k, n=n, largest=largest)
    _check_normal(dtype, x, k, largest, outv, outi)


def test_normal_mode_row_of_4096_floats():
    x = _rows(np.float32, 1, 4096, 4096, True, seed=5, ties=True)
    outv, outi = _topk(np.float32, 0, x, 64)
    _check_normal(np.float32, x, 64, True, outv, outi)


@pytest.mark.parametrize("dtype", [np.float32, np.float16])
@pytest.mark.parametrize("largest", [True, False])
def test_normal_mode_given_indices_and_finish_flags(dtype, largest):
    outter, inner, n, k = 4, 96, 90, 10
    x = _rows(dtype, outter, inner, n, largest, seed=9, ties=True)
    index = 1000 + 3 * np.arange(inner, dtype=np.int32)
    finish = np.array([1, 0, 0, 1], np.uint8)
    # given indices (one row shared by all rows)
    outv, outi = _topk(dtype, 1, x, k, n=n, largest=largest, index=index)
    _check_normal(dtype, x, k, largest, outv, outi, index_map=index)
    # finish flags: the flagged rows' indices become n, their values stay
    outv, outi = _topk(dtype, 2, x, k, n=n, largest=largest, finish=finish)
    _check_normal(dtype, x, k, largest, outv, outi, finish=finish, n=n)
    outv, outi = _topk(dtype, 3, x, k, n=n, largest=largest, index=index, finish=finish)
    _check_normal(dtype, x, k, largest, outv, outi, index_map=index, finish=finish, n=n)


def _check_small(dtype, x, k, largest, outv, outi, index=None):
    outter = x.shape[0]
    want_v, want_i = _reference(x, k, largest)
    if index is not None:
        want_i = np.take_along_axis(index, want_i, axis=1)
    np.testing.assert_array_equal(outv[:outter * k].reshape(outter, k), want_v)
    np.testing.assert_array_equal(outi[:outter * k].reshape(outter, k), want_i)
    np.testing.assert_array_equal(outv[outter * k:], dtype(LEFT))
    np.testing.assert_array_equal(outi[outter * k:], LEFT)


@pytest.mark.parametrize("dtype", [np.float32, np.float16])
@pytest.mark.parametrize("largest", [True, False])
@pytest.mark.parametrize("outter,n,k", [(1, 32, 1), (4, 30, 5), (7, 32, 16), (3, 25, 17),
                                        (2, 32, 32)])
def test_small_mode_packs_each_rows_topk(dtype, largest, outter, n, k):
    x = _rows(dtype, outter, 32, n, largest, seed=outter * 40 + k, ties=k % 2 == 1)
    outv, outi = _topk(dtype, 4, x, k, n=n, largest=largest)
    _check_small(dtype, x, k, largest, outv, outi)
    # given indices: one row of them per source row
    index = (np.arange(outter * 32, dtype=np.int32) * 5 + 11).reshape(outter, 32)
    outv, outi = _topk(dtype, 5, x, k, n=n, largest=largest, index=index)
    _check_small(dtype, x, k, largest, outv, outi, index=index)


@pytest.mark.parametrize("largest", [True, False])
def test_stack_buffer_forms(largest):
    x = _rows(np.float32, 3, 64, 64, largest, seed=2, ties=True)
    outv, outi = _topk(np.float32, 8, x, 9, largest=largest)
    _check_normal(np.float32, x, 9, largest, outv, outi)
    x = _rows(np.float32, 3, 32, 32, largest, seed=3, ties=True)
    outv, outi = _topk(np.float32, 12, x, 4, largest=largest)
    _check_small(np.float32, x, 4, largest, outv, outi)


# --- errors ------------------------------------------------------------------------------------

def _line(marker: str) -> int:
    return KERNELS[:KERNELS.index(marker)].count("\n") + 1


@pytest.mark.parametrize("debug", [False, True])
def test_too_small_tmp_buffer_or_empty_tiling_fail_in_both_modes(debug):
    x = _rows(np.float32, 2, 64, 64, True, seed=1)
    need = tmp_bytes_ref(64, 2, False, False, True)
    with pytest.raises(pyasc.KernelError,
                       match=rf"<string>:{_line('// TMP')}: TopK: the shared tmp buffer"):
        _topk(np.float32, 0, x, 3, tmp_bytes=need - 32, debug=debug)
    x = _rows(np.float16, 2, 32, 32, False, seed=1)
    # for half CANN's size counts the negated copy as floats: the kernel needs the tiling's
    # tmpLocalSize halves (960 bytes of the 1088)
    need = 2 * tiling_ref(32, 2, 3, 2, False, True, False)["tmpLocalSize"]
    assert need == 960 and tmp_bytes_ref(32, 2, False, True, False) == 1088
    _topk(np.float16, 4, x, 3, largest=False, tmp_bytes=need, debug=debug)
    with pytest.raises(pyasc.KernelError,
                       match=rf"<string>:{_line('// TMP')}: TopK: the shared tmp buffer"):
        _topk(np.float16, 4, x, 3, largest=False, tmp_bytes=need - 32, debug=debug)
    empty = dict.fromkeys((name for name, _ in FIELDS), 0)
    with pytest.raises(pyasc.KernelError, match=r"TopK: the tiling is empty"):
        _topk(np.float32, 0, x.astype(np.float32), 3, tiling=empty, debug=debug)


def test_checked_mode_reports_what_cann_asserts():
    x = _rows(np.float32, 2, 64, 64, True, seed=4)
    with pytest.raises(pyasc.KernelError,
                       match=rf"<string>:{_line('// TMP')}: TopK: k must be in"):
        _topk(np.float32, 0, x, 3, n=2, debug=True)
    with pytest.raises(pyasc.KernelError, match=r"TopK: topKInfo.n must be in"):
        _topk(np.float32, 0, x, 3, n=65, debug=True)
    small = _rows(np.float32, 2, 32, 32, True, seed=4)
    with pytest.raises(pyasc.KernelError, match=r"isHasfinish must be false in TOPK_NSMALL"):
        _topk(np.float32, 6, small, 3, debug=True)
    # the default mode computes on, as the device does: k past n still sorts the padded row
    outv, outi = _topk(np.float32, 0, x, 3, n=2)
    _check_normal(np.float32, x, 3, True, outv, outi)


@pytest.mark.parametrize("dtype", [np.float32, np.float16])
def test_checked_mode_runs_the_valid_calls_clean(dtype):
    # checked mode follows every operand and event: the valid calls pass through it unchanged
    x = _rows(dtype, 2, 608, 600, False, seed=6, ties=True)
    finish = np.array([0, 1], np.uint8)
    outv, outi = _topk(dtype, 2, x, 40, n=600, largest=False, finish=finish, debug=True)
    _check_normal(dtype, x, 40, False, outv, outi, finish=finish, n=600)
    x = _rows(dtype, 5, 32, 28, True, seed=7, ties=True)
    outv, outi = _topk(dtype, 4, x, 19, n=28, debug=True)
    _check_small(dtype, x, 19, True, outv, outi)
    outv, outi = _topk(dtype, 12 if dtype == np.float32 else 4, x, 3, n=28, debug=True)
    _check_small(dtype, x, 3, True, outv, outi)
