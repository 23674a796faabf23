"""Ascend C's SoftmaxFlashV3 on the simulated cores and its host sizes and tiling.

The reference is NumPy float64 of the algorithm CANN documents for SoftmaxFlashV3 (its header's
formulas) with the row mean taken as CANN's own test data for the softmaxflashv3 example takes
it: 64 lanes (the sums of the first 512 values' 8-blocks, then each later 64 values added lane
by lane), summed 8 lanes at a time into 8 piece means of k / 8 values each, and their mean; each
piece of the row shifted by (mean - piece mean) * alpha / (1 - alpha). The host side
(include/ascendc/tiling/softmax_tiling.h over libasc's asc_tiling_softmax_flash_v3*) gives
CANN's dav-2201 sizes: 5 blocks of float, the row twice and a 64-float unit a row."""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
import pytest

import pyasc
from host_program import printed_numbers, run_host_program

pytestmark = pytest.mark.skipif(shutil.which("c++") is None and shutil.which("g++") is None,
                                reason="no C++ compiler")

HOST = r"""
#include <cstdio>
#include <vector>
#include "tiling/tiling_api.h"

int main() {
  const ge::Shape shape(std::vector<int64_t>{2, 8, 1024});
  uint32_t most = 7, least = 7;
  AscendC::GetSoftMaxFlashV3MaxMinTmpSize(shape, 2, 4, most, least, true);
  std::printf("sizes %u %u\n", most, least);
  AscendC::tiling::SoftMaxTiling t;
  AscendC::SoftMaxFlashV3TilingFunc(shape, 2, 4, 3 * least + 5, t, true);
  std::printf("tiling %u %u %u %u %u %u\n", t.splitM, t.rangeM, t.tailM, t.reduceK,
              t.reduceSize, t.tailSplitSize);
  optiling::SoftMaxTiling op;
  AscendC::SoftMaxFlashV3TilingFunc(shape, 2, 4, 10 * least, op, false);
  std::printf("op %u %u %u\n", op.get_splitM(), op.get_rangeM(), op.get_tailM());
  // float data is refused: the sizes and the tiling are left as they were
  most = least = 7;
  AscendC::GetSoftMaxFlashV3MaxMinTmpSize(shape, 4, 4, most, least, true);
  std::printf("float %u %u\n", most, least);
  return 0;
}
"""


def test_host_sizes_and_tiling_follow_cann(tmp_path: Path) -> None:
    run = run_host_program(tmp_path, "flash3_host", HOST)
    got = printed_numbers(run)
    row = (5 * 8 + 2 * 1024 + 64) * 4
    assert got["sizes"] == [16 * row, row]
    # 3 rows a pass (not above 8: kept), 5 passes, 1 row left
    assert got["tiling"] == [3, 5, 1, 8, 3 * 8, 1024]
    # 10 rows fit: above 8, so whole 8s
    assert got["op"] == [8, 2, 0]
    assert got["float"] == [7, 7]
    assert "half" in run.stderr


KERNELS = r"""
#include "kernel_operator.h"
using namespace std;  // the scalar min below is the device compiler's, not std::min

constexpr uint32_t M = 4, K = 1024;

// which: 0 the first block, 1 a later one (loopCnt 2), 2 a later one with the outputs in the
// inputs' place (as CANN's example calls it), 3 the first block from the stack buffer
extern "C" __global__ __aicore__ void flash3(GM_ADDR x, GM_ADDR stats, GM_ADDR y, GM_ADDR out,
                                            GM_ADDR em, int32_t which, uint32_t k)
{
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> xb, sb, yb, ob, eb, tb;
    pipe.InitBuffer(xb, M * K * sizeof(half));
    pipe.InitBuffer(sb, 3 * M * 8 * sizeof(float));
    pipe.InitBuffer(yb, M * K * sizeof(half));
    pipe.InitBuffer(ob, 3 * M * 8 * sizeof(float));
    pipe.InitBuffer(eb, M * 16 * sizeof(half));
    pipe.InitBuffer(tb, (2 * K + 104) * sizeof(float));
    AscendC::GlobalTensor<half> xg, yg, eg;
    AscendC::GlobalTensor<float> sg, og;
    xg.SetGlobalBuffer((__gm__ half *)x, M * K);
    yg.SetGlobalBuffer((__gm__ half *)y, M * K);
    eg.SetGlobalBuffer((__gm__ half *)em, M * 16);
    sg.SetGlobalBuffer((__gm__ float *)stats, 3 * M * 8);
    og.SetGlobalBuffer((__gm__ float *)out, 3 * M * 8);
    AscendC::LocalTensor<half> src = xb.Get<half>(), dst = yb.Get<half>(), expMax = eb.Get<half>();
    AscendC::LocalTensor<float> in = sb.Get<float>(), o = ob.Get<float>();
    AscendC::LocalTensor<uint8_t> tmp = tb.Get<uint8_t>();
    AscendC::DataCopy(src, xg, M * K);
    AscendC::DataCopy(in, sg, 3 * M * 8);
    AscendC::Duplicate(expMax, half(0), M * 16);
    AscendC::PipeBarrier<PIPE_ALL>();
    const uint32_t rows = min(M, k);  // unqualified, beside using namespace std
    SoftMaxTiling tiling = {rows, K, rows * K, rows, 8, rows * 8, rows, K, rows * K, rows, 8,
                            rows * 8, 1, 0, 0, 0};
    AscendC::SoftMaxParams params = {rows, K, rows, k, which == 0 || which == 3 ? 1u : 2u, 8,
                                     0.9375f};
    AscendC::LocalTensor<float> inMean = in, inSum = in[M * 8], inMax = in[2 * M * 8];
    switch (which) {
    case 0:
        AscendC::SoftmaxFlashV3<half, float, false>(dst, o, o[M * 8], o[2 * M * 8], src, expMax,
                                                    inMean, inSum, inMax, tmp, tiling, params);
        break;
    case 1:
        AscendC::SoftmaxFlashV3<half, float, true>(dst, o, o[M * 8], o[2 * M * 8], src, expMax,
                                                   inMean, inSum, inMax, tmp, tiling, params);
        break;
    case 2:
        AscendC::SoftmaxFlashV3<half, float, true>(dst, inMean, inSum, inMax, src, expMax, inMean,
                                                   inSum, inMax, tmp, tiling, params);
        AscendC::DataCopy(o, in, 3 * M * 8);
        break;
    default:
        AscendC::SoftmaxFlashV3<half, float, false>(dst, o, o[M * 8], o[2 * M * 8], src, expMax,
                                                    inMean, inSum, inMax, tiling, params);
    }
    AscendC::PipeBarrier<PIPE_ALL>();
    AscendC::DataCopy(yg, dst, M * K);
    AscendC::DataCopy(og, o, 3 * M * 8);
    AscendC::DataCopy(eg, expMax, M * 16);
}
"""

M, K = 4, 1024
SCALE = 0.9375 / (1 - 0.9375)


def _run(which: int, x: np.ndarray, stats: np.ndarray, k: int = K, debug: bool = False):
    y = np.zeros((M, K), np.float16)
    out = np.zeros((3, M, 8), np.float32)
    em = np.zeros((M, 16), np.float16)
    pyasc.ascendc.load(KERNELS, "flash3", debug=debug)[1](
        x, stats, y, out, em, np.int32(which), np.uint32(k))
    return y, out, em


def _shifted(x: np.ndarray):
    """The rows shifted by their piece means, and the row means (CANN's test data's way)."""
    x = x.astype(np.float64)
    lanes = x[:, :512].reshape(M, 64, 8).sum(-1)
    for start in range(512, K, 64):
        lanes += x[:, start:start + 64]
    pieces = lanes.reshape(M, 8, 8).sum(-1) / (K // 8)
    mean = pieces.mean(-1, keepdims=True)
    shift = np.repeat((mean - pieces) * SCALE, K // 8, axis=1)
    return x - shift, mean[:, 0]


def _inputs(seed: int):
    rng = np.random.default_rng(seed)
    x = rng.uniform(0, 10, (M, K)).astype(np.float16)
    stats = np.stack([np.full((M, 8), v, np.float32) for v in (0.5, 0.75, 0.25)])
    return x, stats


@pytest.mark.parametrize("which", [0, 3])
def test_first_block_matches_the_documented_formulas(which):
    x, stats = _inputs(which)
    y, out, _ = _run(which, x, stats)
    xs, mean = _shifted(x)
    row_max = xs.max(-1)
    want = np.exp(xs - row_max[:, None])
    np.testing.assert_allclose(y.astype(np.float64), want, rtol=2e-3, atol=1e-4)
    np.testing.assert_allclose(out[0], np.repeat(mean[:, None], 8, 1), rtol=1e-5)
    np.testing.assert_allclose(out[1], np.repeat(want.sum(-1)[:, None], 8, 1), rtol=1e-4)
    np.testing.assert_allclose(out[2], np.repeat(row_max[:, None], 8, 1), rtol=1e-5)


def test_a_later_block_updates_mean_max_and_sum():
    x, stats = _inputs(5)
    in_mean, in_sum, in_max = (s[:, 0].astype(np.float64) for s in stats)
    y, out, em = _run(1, x, stats)
    xs, row_mean = _shifted(x)
    mean = (in_mean * (2 - 1) + row_mean) / 2
    shift_curr = (row_mean - mean) * SCALE
    shift_prev = (in_mean - mean) * SCALE
    new_max = np.maximum(xs.max(-1) + shift_curr, in_max + shift_prev)
    want = np.exp(xs - (new_max - shift_curr)[:, None])
    exp_max = np.exp(in_max - new_max + shift_prev)
    np.testing.assert_allclose(y.astype(np.float64), want, rtol=2e-3, atol=1e-4)
    np.testing.assert_allclose(out[0][:, 0], mean, rtol=1e-5)
    np.testing.assert_allclose(out[2][:, 0], new_max, rtol=1e-5)
    np.testing.assert_allclose(out[1][:, 0], exp_max * in_sum + want.sum(-1), rtol=1e-4)
    np.testing.assert_allclose(em.astype(np.float64), np.repeat(exp_max[:, None], 16, 1),
                               rtol=2e-3, atol=1e-7)


def test_outputs_in_the_inputs_place_read_what_each_step_wrote():
    # as on the NPU: the mean is written before shiftPrev reads inMean, so shiftPrev is 0, and
    # max before inMax is read, so expMax is 1 and the sum is the input sum plus the row's
    x, stats = _inputs(6)
    in_mean, in_sum = stats[0][:, 0].astype(np.float64), stats[1][:, 0].astype(np.float64)
    y, out, em = _run(2, x, stats)
    xs, row_mean = _shifted(x)
    want = np.exp(xs - xs.max(-1)[:, None])
    np.testing.assert_allclose(y.astype(np.float64), want, rtol=2e-3, atol=1e-4)
    np.testing.assert_allclose(out[0][:, 0], (in_mean + row_mean) / 2, rtol=1e-5)
    np.testing.assert_array_equal(em, np.float16(1))
    np.testing.assert_allclose(out[1][:, 0], in_sum + want.sum(-1), rtol=1e-4)


def test_a_row_below_512_fails_at_the_call():
    x, stats = _inputs(7)
    line = KERNELS[:KERNELS.index("case 0:")].count("\n") + 2
    for debug in (False, True):
        with pytest.raises(pyasc.KernelError, match=rf"<string>:{line}: SoftmaxFlashV3: .*512"):
            _run(0, x, stats, k=448, debug=debug)
