"""Ascend C's SoftMax family on the simulated cores and its host tiling.

The host side (include/ascendc/tiling/softmax_tiling.h over libasc's
asc_tiling_softmax): ``GetSoftMax{,Flash,FlashV2,Grad}{Max,Min}TmpSize`` and the
``SoftMaxTilingFunc`` forms give the sizes and the 16 ``SoftMaxTiling`` members
CANN's asc-devkit computes for a 910B core (impl/adv_api/tiling/activation/
softmax_tiling.cpp), worked out here from its per-row formulas; Python's
``adv_host.softmax_tiling_func`` fills the same members. The kernel side
(include/ascendc/kernel_operator/adv_math.h): ``SoftMax`` with a
``SoftMaxShapeInfo``, ``LogSoftMax``, ``SoftmaxFlashV2``, ``SoftmaxGrad``, ``SoftmaxGradFront`` and
``AdjustSoftMaxRes`` against NumPy's float64 values of the formulas CANN
documents."""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
import pytest

import pyasc
from pyasc.language import adv_host
from pyasc.language.adv_tiling import SoftmaxTiling
from host_program import run_host_program

pytestmark = pytest.mark.skipif(shutil.which("c++") is None and shutil.which("g++") is None,
                                reason="no C++ compiler")

# --- host: sizes and tiling --------------------------------------------------------------------

HOST = r"""
#include <cstdio>
#include <vector>
#include "tiling/tiling_api.h"

static void sizes(const char *name, uint32_t most, uint32_t least) {
  std::printf("%s %u %u\n", name, most, least);
}

static void fields(const AscendC::tiling::SoftMaxTiling &t) {
  const uint32_t *v = &t.srcM;
  std::printf("tiling");
  for (size_t i = 0; i < sizeof t / sizeof t.srcM; i++) std::printf(" %u", v[i]);
  std::printf("\n");
}

int main() {
  const ge::Shape f(std::vector<int64_t>{4, 8, 1024}), h(std::vector<int64_t>{24, 1024});
  sizes("softmax", AscendC::GetSoftMaxMaxTmpSize(f, 4, false),
        AscendC::GetSoftMaxMinTmpSize(f, 4, false));
  sizes("softmax_half", AscendC::GetSoftMaxMaxTmpSize(h, 2, false),
        AscendC::GetSoftMaxMinTmpSize(h, 2, false));
  sizes("flash_update", AscendC::GetSoftMaxFlashMaxTmpSize(f, 4, true, false),
        AscendC::GetSoftMaxFlashMinTmpSize(f, 4, true, false));
  sizes("grad", AscendC::GetSoftMaxGradMaxTmpSize(f, 4, false, false),
        AscendC::GetSoftMaxGradMinTmpSize(f, 4, false, false));
  sizes("grad_front", AscendC::GetSoftMaxGradMaxTmpSize(f, 4, true, false),
        AscendC::GetSoftMaxGradMinTmpSize(f, 4, true, false));
  sizes("grad_half", AscendC::GetSoftMaxGradMaxTmpSize(h, 2, false, false),
        AscendC::GetSoftMaxGradMinTmpSize(h, 2, false, false));
  // 100 floats are not a whole number of 32-byte blocks: refused, 0
  sizes("unaligned", AscendC::GetSoftMaxMaxTmpSize(ge::Shape(std::vector<int64_t>{4, 100}), 4,
                                                   false), 7);
  AscendC::tiling::SoftMaxTiling t;
  AscendC::SoftMaxTilingFunc(f, 4, 3 * AscendC::GetSoftMaxMinTmpSize(f, 4, false) + 5, t);
  fields(t);
  // a basic-block shape: rows in whole 8s that divide 24, halved under 255 repeats
  AscendC::SoftMaxTilingFunc(h, 2, AscendC::GetSoftMaxMaxTmpSize(h, 2, false), t);
  fields(t);
  optiling::SoftMaxTiling op;
  AscendC::SoftMaxGradTilingFunc(f, 4, 40000, op, true);
  std::printf("grad_tiling %u %u %u %u %u\n", op.get_splitM(), op.get_rangeM(), op.get_tailM(),
              op.get_tailSplitSize(), op.get_tailReduceSize());
  std::printf("basic %d %d\n", AscendC::IsBasicBlockInSoftMax(t, 2),
              AscendC::IsBasicBlockInSoftMax(op, 4));
  sizes("v2_basic", AscendC::GetSoftMaxFlashV2MaxTmpSize(f, 4, 4, true, true),
        AscendC::GetSoftMaxFlashV2MinTmpSize(f, 4, 4, true, true));
  sizes("v2_half", AscendC::GetSoftMaxFlashV2MaxTmpSize(h, 2, 4, false),
        AscendC::GetSoftMaxFlashV2MinTmpSize(h, 2, 4, false));
  AscendC::tiling::SoftMaxTiling v2;
  AscendC::SoftMaxFlashV2TilingFunc(f, 4, 4, AscendC::GetSoftMaxFlashV2MinTmpSize(f, 4, 4, true, true),
                                    v2, true, true);
  fields(v2);
  // with the broadcast output, half rows a pass go in 16s: 10 rows in 2 passes are refused
  AscendC::SoftMaxFlashV2TilingFunc(h, 2, 4, 10 * 1104 * 4, v2, true, false, true);
  fields(v2);
  optiling::LogSoftMaxTiling lt;
  AscendC::LogSoftMaxTilingFunc(f, 4, 3 * AscendC::GetLogSoftMaxMinTmpSize(f, 4, false) + 5, lt);
  std::printf("log_tiling %u %u %u %u\n", lt.get_splitM(), lt.get_rangeM(), lt.get_tailM(),
              AscendC::GetLogSoftMaxMaxTmpSize(f, 4, false));
  // securec, which CANN's tiling headers bring: a copy past the destination clears it
  char buf[4] = {'x', 'x', 'x', 'x'};
  const int fits = memcpy_s(buf, sizeof buf, "ab", 2), past = memcpy_s(buf, sizeof buf, "abcdef", 6);
  const int cleared = buf[0];
  std::printf("securec %d %d %d %d\n", fits, past == ERANGE, cleared, memset_s(buf, 4, 1, 2));
  // a buffer below one row: refused, the tiling left as it was
  AscendC::SoftMaxTilingFunc(f, 4, 100, t);
  fields(t);
  return 0;
}
"""


def _row_words(kind: str, k: int, type_size: int, flag: bool = False) -> int:
    """CANN's float32 words a row on dav-2201: (elements per block, row, 64-word unit)."""
    epb = 32 // type_size
    if kind == "softmax":
        return epb + k + 64
    if kind == "flash":
        return 4 * epb + 2 * k if flag else epb + k + 64
    if type_size == 2:  # grad
        return 2 * epb + 3 * k + 64
    return epb + k + 64 if flag else 2 * epb + k + 64


def _tiling(m: int, k: int, type_size: int, split_m: int) -> list[int]:
    epb = 32 // type_size
    tail = m % split_m
    return [m, k, m * k, m, epb, m * epb, split_m, k, split_m * k, split_m, epb, split_m * epb,
            m // split_m, tail, tail * k, tail * epb]


def test_host_sizes_and_tiling_follow_cann(tmp_path: Path) -> None:
    run = run_host_program(tmp_path, "softmax_host", HOST)
    got = [line.split() for line in run.stdout.splitlines()]
    m, k = 32, 1024

    def row(kind, type_size=4, flag=False, rows=m, cols=k):
        words = _row_words(kind, cols, type_size, flag) * 4
        return [str(rows * words), str(words)]

    assert got[0] == ["softmax"] + row("softmax")
    assert got[1] == ["softmax_half"] + row("softmax", 2, rows=24, cols=1024)
    assert got[2] == ["flash_update"] + row("flash", flag=True)
    assert got[3] == ["grad"] + row("grad")
    assert got[4] == ["grad_front"] + row("grad", flag=True)
    assert got[5] == ["grad_half"] + row("grad", 2, rows=24, cols=1024)
    assert got[6] == ["unaligned", "0", "7"]
    # three rows fit; 3 is not above 8, so no rounding and no basic block
    assert got[7] == ["tiling"] + [str(v) for v in _tiling(m, k, 4, 3)]
    # all 24 rows fit and 24 divides 24, but 24 x 1024 >= 64 x 256: halved to 12, which is
    # under it
    assert got[8] == ["tiling"] + [str(v) for v in _tiling(24, 1024, 2, 12)]
    # grad front: 40000 / 4 / (8 + 1024 + 64) = 9 rows -> 8 (whole 8s below the rows), a basic
    # block shape (32 rows in 8s, k in 64s): 8 divides 32; 8 x 1024 < 16384
    assert got[9] == ["grad_tiling", "8", "4", "0", "0", "0"]
    # half, 1024 elements (>= 128, < 2048, in 64s), no tail: a basic block; the grad's
    # float rows too
    assert got[10] == ["basic", "1", "1"]
    # FlashV2 with a basic block (k in 64s): 8 rows of a block and 2 units (a 1024 row) at the
    # least; at the most rows halved from 32 while rows x k >= 64 x 256, i.e. 8
    assert got[11] == ["v2_basic", str(8 * (8 + 128) * 4), str(8 * (8 + 128) * 4)]
    # half data, float statistics: two blocks of floats, the row and a unit a row
    assert got[12] == ["v2_half", str(24 * (16 + 1024 + 64) * 4), str((16 + 1024 + 64) * 4)]
    assert got[13] == ["tiling"] + [str(v) for v in _tiling(m, k, 4, 8)]
    assert got[14] == got[13]
    assert "isFlashOutputBrc" in run.stderr
    # LogSoftMax's tiling and sizes are SoftMax's
    assert got[15] == ["log_tiling", "3", "10", "2", got[0][1]]
    assert got[16] == ["securec", "0", "1", "0", "0"]
    assert got[17] == got[8]
    assert "below one row" in run.stderr


def test_python_tiling_is_the_same_as_cpp():
    t = SoftmaxTiling()
    adv_host.softmax_tiling_func([4, 8, 1024], 4, 3 * adv_host.get_softmax_min_tmp_size(
        [4, 8, 1024], 4) + 5, t)
    assert [getattr(t, name) for name in SoftmaxTiling.struct_fields] == _tiling(32, 1024, 4, 3)
    assert adv_host.get_softmax_min_tmp_size([2, 64], 2) == _row_words("softmax", 64, 2) * 4
    assert adv_host.softmax_row_bytes(96, 4) == _row_words("softmax", 96, 4) * 4


@pytest.mark.parametrize("shape,size,match", [
    ([4, 60], 4, "multiple of 32 bytes"),
    ([4, 64], 3, "type_size"),
    ([4, 64], 4, "below one row"),
])
def test_python_tiling_refuses_what_cann_refuses(shape, size, match):
    with pytest.raises(ValueError, match=match):
        adv_host.softmax_tiling_func(shape, size, 16 if match == "below one row" else 1 << 20,
                                     SoftmaxTiling())


# --- kernels ---------------------------------------------------------------------------------

M, K = 16, 64

KERNELS = r"""
#include "kernel_operator.h"

constexpr uint32_t M = ROWS, K = COLS;

// which: 0 SoftMax over the shape info's first `rows` rows (the tiling's are M), 1 SoftmaxGrad,
// 2 SoftmaxGradFront into src, 3 SoftmaxGrad with isFront; 4 SoftMax then AdjustSoftMaxRes of
// the rows whose max is -FLT_MAX to 0.5 (out[0]: what it returned); 5 LogSoftMax; 6
// SoftmaxFlashV2 over two blocks
extern "C" __global__ __aicore__ void softmax_family(GM_ADDR a, GM_ADDR b, GM_ADDR y,
                                                    GM_ADDR stats, GM_ADDR out, int32_t which,
                                                    uint32_t rows)
{
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> ab, bb, sb, xb, eb, tb;
    pipe.InitBuffer(ab, M * K * sizeof(float));
    pipe.InitBuffer(bb, M * K * sizeof(float));
    pipe.InitBuffer(sb, M * 8 * sizeof(float));
    pipe.InitBuffer(xb, M * 8 * sizeof(float));
    pipe.InitBuffer(eb, M * 8 * sizeof(float));
    pipe.InitBuffer(tb, 16384);
    AscendC::GlobalTensor<float> ag, bg, yg, sg;
    AscendC::GlobalTensor<int32_t> og;
    ag.SetGlobalBuffer((__gm__ float *)a, M * K);
    bg.SetGlobalBuffer((__gm__ float *)b, M * K);
    yg.SetGlobalBuffer((__gm__ float *)y, M * K);
    sg.SetGlobalBuffer((__gm__ float *)stats, 3 * M * 8);
    og.SetGlobalBuffer((__gm__ int32_t *)out, 8);
    AscendC::LocalTensor<float> x = ab.Get<float>(), g = bb.Get<float>();
    AscendC::LocalTensor<float> sum = sb.Get<float>(), max = xb.Get<float>();
    AscendC::LocalTensor<float> expMax = eb.Get<float>();
    AscendC::Duplicate(expMax, 0.0f, M * 8);
    AscendC::LocalTensor<uint8_t> tmp = tb.Get<uint8_t>();
    AscendC::DataCopy(x, ag, M * K);
    AscendC::DataCopy(g, bg, M * K);
    AscendC::PipeBarrier<PIPE_ALL>();
    SoftMaxTiling tiling;
    tiling.srcM = M, tiling.srcK = K;
    AscendC::SoftMaxShapeInfo shape = {rows, K, rows, K};
    int32_t adjusted = -1;
    switch (which) {
    case 0: AscendC::SoftMax<float>(x, sum, max, x, tmp, tiling, shape); break;
    case 1: AscendC::SoftmaxGrad<float, false>(x, g, x, tmp, tiling, false, shape); break;
    case 2: AscendC::SoftmaxGradFront<float>(x, g, x, tmp, tiling, shape); break;
    case 3: AscendC::SoftmaxGrad<float>(x, g, x, tiling, true, shape); break;
    case 5: {
        LogSoftMaxTiling none;  // CANN's example passes one unfilled: the shape gives the rows
        AscendC::LogSoftMax<float>(x, sum, max, x, tmp, none, shape);
        break;
    }
    case 6: {  // each row's two halves: the first, then the second updating max and sum
        AscendC::SoftMaxShapeInfo half = {M, K / 2, M, K / 2};
        AscendC::LocalTensor<float> second = x[M * K / 2];
        AscendC::SoftmaxFlashV2<float, false>(x, sum, max, x, expMax, sum, max, tmp, tiling, half);
        AscendC::SoftmaxFlashV2<float, true>(second, sum, max, second, expMax, sum, max, tiling,
                                             half);
        break;
    }
    default:
        AscendC::SoftMax<float, false, true>(x, sum, max, x, tmp, tiling, shape);
        adjusted = AscendC::AdjustSoftMaxRes<float, float>(x, max, 0xFF7FFFFF, 0.5f, shape);
    }
    AscendC::PipeBarrier<PIPE_ALL>();
    AscendC::DataCopy(yg, x, M * K);
    AscendC::DataCopy(sg, sum, M * 8);
    AscendC::DataCopy(sg[M * 8], max, M * 8);
    AscendC::DataCopy(sg[2 * M * 8], expMax, M * 8);
    og.SetValue(0, adjusted);
}
""".replace("ROWS", str(M)).replace("COLS", str(K))


def _run(which: int, rows: int, a: np.ndarray, b: np.ndarray, debug: bool = False):
    y = np.zeros((M, K), np.float32)
    stats = np.zeros((3, M, 8), np.float32)
    out = np.zeros(8, np.int32)
    pyasc.ascendc.load(KERNELS, "softmax_family", debug=debug)[1](
        a, b, y, stats, out, np.int32(which), np.uint32(rows))
    return y, stats, out[0]


def _inputs(seed: int = 0):
    rng = np.random.default_rng(seed)
    return (rng.uniform(-3, 3, (M, K)).astype(np.float32),
            rng.uniform(-1, 1, (M, K)).astype(np.float32))


def test_softmax_takes_its_rows_from_the_shape_info():
    a, b = _inputs(1)
    rows = 5
    y, stats, _ = _run(0, rows, a, b)
    x = a[:rows].astype(np.float64)
    e = np.exp(x - x.max(-1, keepdims=True))
    np.testing.assert_allclose(y[:rows], e / e.sum(-1, keepdims=True), rtol=2e-6, atol=1e-7)
    np.testing.assert_array_equal(y[rows:], a[rows:])  # rows past the shape left alone
    np.testing.assert_allclose(stats[1, :rows], np.repeat(x.max(-1, keepdims=True), 8, 1))
    np.testing.assert_allclose(stats[0, :rows], np.repeat(e.sum(-1, keepdims=True), 8, 1),
                               rtol=2e-6)


def test_softmax_grad_and_front_match_numpy():
    a, b = _inputs(2)
    s = (b.astype(np.float64) * a).sum(-1, keepdims=True)
    y, _, _ = _run(1, M, a, b)
    np.testing.assert_allclose(y, (b - s) * a, rtol=1e-5, atol=1e-6)
    # the front form writes one 32-byte block of row sums a row over src's first M x 8
    for which in (2, 3):
        y, _, _ = _run(which, M, a, b)
        front = y.reshape(-1)[:M * 8].reshape(M, 8)
        np.testing.assert_allclose(front, np.repeat(s, 8, 1), rtol=1e-5, atol=1e-6)


def test_adjust_softmax_res_sets_the_rows_whose_max_matches():
    a, b = _inputs(3)
    lowest = np.finfo(np.float32).min  # the bits 0xFF7FFFFF
    a[[2, 9]] = lowest
    y, _, adjusted = _run(4, M, a, b)
    assert adjusted == 1
    np.testing.assert_array_equal(y[[2, 9]], 0.5)
    others = [r for r in range(M) if r not in (2, 9)]
    x = a[others].astype(np.float64)
    e = np.exp(x - x.max(-1, keepdims=True))
    np.testing.assert_allclose(y[others], e / e.sum(-1, keepdims=True), rtol=2e-6, atol=1e-7)
    _, _, adjusted = _run(4, M, *_inputs(4))
    assert adjusted == 0


def test_a_shape_past_the_tensors_fails_at_the_call():
    a, b = _inputs(5)
    line = KERNELS[:KERNELS.index("case 0:")].count("\n") + 1
    with pytest.raises(pyasc.KernelError, match=rf"<string>:{line}: softmax"):
        _run(0, 4 * M, a, b, debug=True)


def test_log_softmax_is_the_base_10_log_of_softmax():
    a, b = _inputs(6)
    y, stats, _ = _run(5, M, a, b)
    x = a.astype(np.float64)
    e = np.exp(x - x.max(-1, keepdims=True))
    np.testing.assert_allclose(y, np.log10(e / e.sum(-1, keepdims=True)), rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(stats[1], np.repeat(x.max(-1, keepdims=True), 8, 1))


def test_softmax_flash_v2_over_two_blocks_is_the_row_softmax():
    a, b = _inputs(7)
    a[3, :K // 2] += 20  # a row whose max stays in the first half; others move
    y, stats, _ = _run(6, M, a, b)
    first, second = a.reshape(-1)[:M * K // 2].reshape(M, K // 2), a.reshape(-1)[M * K // 2:]
    second = second.reshape(M, K // 2).astype(np.float64)
    m1 = first.astype(np.float64).max(-1, keepdims=True)
    m2 = np.maximum(m1, second.max(-1, keepdims=True))
    s1 = np.exp(first - m1).sum(-1, keepdims=True)
    total = np.exp(m1 - m2) * s1 + np.exp(second - m2).sum(-1, keepdims=True)
    np.testing.assert_allclose(stats[1], np.repeat(m2, 8, 1))
    np.testing.assert_allclose(stats[0], np.repeat(total, 8, 1), rtol=2e-6)
    np.testing.assert_allclose(stats[2], np.repeat(np.exp(m1 - m2), 8, 1), rtol=2e-6)
    out = y.reshape(-1)
    np.testing.assert_allclose(out[:M * K // 2].reshape(M, K // 2), np.exp(first - m1),
                               rtol=2e-6)
    np.testing.assert_allclose(out[M * K // 2:].reshape(M, K // 2), np.exp(second - m2),
                               rtol=2e-6)
