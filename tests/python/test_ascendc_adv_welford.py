"""Ascend C's WelfordUpdate and WelfordFinalize on the simulated cores, and their host sizes.

The kernel side (include/ascendc/kernel_operator/adv_welford.h) issues the vector API in the
order CANN's dav-2201 implementation does, so WelfordUpdate equals NumPy's float32 steps of
the formula CANN documents (mean' = mean + (x - mean) * nRec, var' = var + (x - mean) * (x -
mean')) bit for bit; WelfordFinalize is checked against float64 sums of its documented
formulas, and against the example on CANN's WelfordFinalize page (means and variances 0..31
with counts 4 and rRec 1/4096 give 0.484375 and 9.831062). The host side
(include/ascendc/tiling/welford_tiling.h over libasc's asc_tiling_welford_*) gives the sizes
CANN's layernorm and welfordfinalize tiling compute."""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
import pytest

import pyasc
from host_program import printed_numbers, run_host_program

pytestmark = pytest.mark.skipif(shutil.which("c++") is None and shutil.which("g++") is None,
                                reason="no C++ compiler")

# --- host sizes --------------------------------------------------------------------------------

HOST = r"""
#include <cstdio>
#include <vector>
#include "tiling/tiling_api.h"

static void sizes(const char *name, const std::vector<int64_t> &dims, uint32_t typeSize,
                  bool reuse, bool finalize) {
  uint32_t most = 7, least = 7;
  const ge::Shape shape(dims);
  if (finalize)
    AscendC::GetWelfordFinalizeMaxMinTmpSize(shape, typeSize, reuse, most, least);
  else
    AscendC::GetWelfordUpdateMaxMinTmpSize(shape, typeSize, 4, reuse, false, most, least);
  std::printf("%s %u %u\n", name, most, least);
}

int main() {
  sizes("update_float", {1, 64}, 4, false, false);
  sizes("update_half", {4, 100}, 2, false, false);
  sizes("update_reuse", {1, 1000}, 4, true, false);
  sizes("update_three_axes", {1, 8, 8}, 4, false, false);
  sizes("finalize_short", {64}, 4, false, true);
  sizes("finalize_long", {200}, 4, false, true);
  sizes("finalize_unaligned", {12}, 4, false, true);
  return 0;
}
"""


def test_host_sizes_follow_cann(tmp_path: Path) -> None:
    run = run_host_program(tmp_path, "welford_host", HOST)
    got = printed_numbers(run)
    # min: the float copies of one 256-byte repeat; max: that for every 64 elements
    assert got["update_float"] == [512, 512]
    assert got["update_half"] == [7 * 768, 768]  # 400 elements: 7 repeats
    assert got["update_reuse"] == [16 * 256, 256]  # 1000 elements: 16 repeats
    # four 64-float rows; past 64, two rows and two of abLength
    assert got["finalize_short"] == [1024, 1024]
    assert got["finalize_long"] == [(128 + 400) * 4, 1024]
    # refused as CANN's checks refuse them: the sizes left as they were
    assert got["update_three_axes"] == [7, 7]
    assert got["finalize_unaligned"] == [7, 7]
    assert "not 2" in run.stderr and "32-byte blocks" in run.stderr


# --- kernels -----------------------------------------------------------------------------------

KERNELS = r"""
#include "kernel_operator.h"

constexpr uint32_t N = 512;
static constexpr AscendC::WelfordUpdateConfig INPLACE = {true};

// which: 0 float, 1 float reusing x, 2 half, 3 float in place, 4 half in place, 5 float from the
// stack buffer; the outputs start as the values in out (to see what is left alone)
extern "C" __global__ __aicore__ void welford_update(GM_ADDR x, GM_ADDR stats, GM_ADDR out,
                                                    int32_t which, uint32_t ab, uint32_t n,
                                                    float nRec, uint32_t tmpBytes)
{
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> xb, sb, ob, tb;
    pipe.InitBuffer(xb, N * sizeof(float));
    pipe.InitBuffer(sb, 2 * N * sizeof(float));
    pipe.InitBuffer(ob, 2 * N * sizeof(float));
    pipe.InitBuffer(tb, tmpBytes);
    AscendC::GlobalTensor<float> xg, sg, og;
    xg.SetGlobalBuffer((__gm__ float *)x, N);
    sg.SetGlobalBuffer((__gm__ float *)stats, 2 * N);
    og.SetGlobalBuffer((__gm__ float *)out, 3 * N);
    AscendC::LocalTensor<float> xs = xb.Get<float>(), s = sb.Get<float>(), o = ob.Get<float>();
    AscendC::LocalTensor<half> xh = xs.ReinterpretCast<half>();
    AscendC::LocalTensor<uint8_t> tmp = tb.Get<uint8_t>();
    AscendC::DataCopy(xs, xg, N);
    AscendC::DataCopy(s, sg, 2 * N);
    AscendC::DataCopy(o, og, 2 * N);
    AscendC::PipeBarrier<PIPE_ALL>();
    AscendC::WelfordUpdateParam para = {1, ab, n, nRec};
    AscendC::LocalTensor<float> mean = o, var = o[N], inMean = s, inVar = s[N];
    switch (which) {
    case 0: AscendC::WelfordUpdate<float, float>(mean, var, inMean, inVar, xs, tmp, para); break;
    case 1:
        AscendC::WelfordUpdate<float, float, true>(mean, var, inMean, inVar, xs, tmp, para);
        break;
    case 2: AscendC::WelfordUpdate<half, float>(mean, var, inMean, inVar, xh, tmp, para); break;
    case 3:
        AscendC::WelfordUpdate<float, float, false, INPLACE>(mean, var, inMean, inVar, xs, tmp,
                                                             para);
        break;
    case 4:
        AscendC::WelfordUpdate<half, float, false, INPLACE>(mean, var, inMean, inVar, xh, tmp,
                                                            para);
        break;
    default: AscendC::WelfordUpdate<float, float>(mean, var, inMean, inVar, xs, para);
    }
    AscendC::PipeBarrier<PIPE_ALL>();
    AscendC::DataCopy(og, o, 2 * N);
    AscendC::DataCopy(og[2 * N], xs, N);
}

// which: 0 with counts, 1 without (head and tail weights from para), 2 with counts and the stack
// buffer; out: the mean's 8 floats, then the variance's
extern "C" __global__ __aicore__ void welford_finalize(GM_ADDR stats, GM_ADDR counts, GM_ADDR out,
                                                      int32_t which, uint32_t ab, uint32_t rn,
                                                      uint32_t head, uint32_t headLength,
                                                      uint32_t tail, uint32_t tailLength,
                                                      float abRec, float rRec, uint32_t tmpBytes)
{
    constexpr uint32_t M = 4608;
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> sb, cb, ob, tb;
    pipe.InitBuffer(sb, 2 * M * sizeof(float));
    pipe.InitBuffer(cb, M * sizeof(int32_t));
    pipe.InitBuffer(ob, 16 * sizeof(float));
    pipe.InitBuffer(tb, tmpBytes);
    AscendC::GlobalTensor<float> sg, og;
    AscendC::GlobalTensor<int32_t> cg;
    sg.SetGlobalBuffer((__gm__ float *)stats, 2 * M);
    cg.SetGlobalBuffer((__gm__ int32_t *)counts, M);
    og.SetGlobalBuffer((__gm__ float *)out, 16);
    AscendC::LocalTensor<float> s = sb.Get<float>(), o = ob.Get<float>();
    AscendC::LocalTensor<int32_t> c = cb.Get<int32_t>();
    AscendC::LocalTensor<uint8_t> tmp = tb.Get<uint8_t>();
    AscendC::DataCopy(s, sg, 2 * M);
    AscendC::DataCopy(c, cg, M);
    AscendC::DataCopy(o, og, 16);
    AscendC::PipeBarrier<PIPE_ALL>();
    AscendC::WelfordFinalizePara para = {rn, ab, head, headLength, tail, tailLength, abRec, rRec};
    AscendC::LocalTensor<float> mean = o, var = o[8];
    switch (which) {
    case 0: AscendC::WelfordFinalize<false>(mean, var, s, s[M], c, tmp, para); break;
    case 1: AscendC::WelfordFinalize(mean, var, s, s[M], tmp, para); break;
    default: AscendC::WelfordFinalize(mean, var, s, s[M], c, para);
    }
    AscendC::PipeBarrier<PIPE_ALL>();
    AscendC::DataCopy(og, o, 16);
}
"""

N = 512
M = 4608
LEFT = np.float32(-7.0)  # what the outputs hold before the call


def _update(which: int, x: np.ndarray, mean: np.ndarray, var: np.ndarray, ab: int, n: int,
            n_rec: float, tmp_bytes: int = 1536, debug: bool = False):
    xs = np.zeros(N, np.float32)
    if x.dtype == np.float16:
        xs.view(np.float16)[:x.size] = x
    else:
        xs[:x.size] = x
    stats = np.concatenate([mean, var]).astype(np.float32)
    out = np.full(3 * N, LEFT, np.float32)
    pyasc.ascendc.load(KERNELS, "welford_update", debug=debug)[1](
        xs, stats, out, np.int32(which), np.uint32(ab), np.uint32(n), np.float32(n_rec),
        np.uint32(tmp_bytes))
    return out[:N], out[N:2 * N], out[2 * N:]


def _update_reference(x, mean, var, n, n_rec):
    """NumPy's float32 steps of CANN's formula over the first n elements."""
    x = x.astype(np.float32)[:n]
    m, v = mean[:n], var[:n]
    d = x - m
    new_mean = d * np.float32(n_rec) + m
    return new_mean, d * (x - new_mean) + v


def _stats(seed: int):
    rng = np.random.default_rng(seed)
    return (rng.uniform(1, 100, N).astype(np.float32),
            rng.uniform(-600, 600, N).astype(np.float32),
            rng.uniform(0, 6000, N).astype(np.float32))


@pytest.mark.parametrize("which", [0, 1, 5])
@pytest.mark.parametrize("ab,n", [(64, 35), (512, 512), (256, 200)])
def test_update_float_is_numpy_float32_bit_for_bit(which, ab, n):
    x, mean, var = _stats(ab + n + which)
    n_rec = 1.0 / 9
    got_mean, got_var, got_x = _update(which, x, mean, var, ab, n, n_rec)
    want_mean, want_var = _update_reference(x, mean, var, n, n_rec)
    np.testing.assert_array_equal(got_mean[:n], want_mean)
    np.testing.assert_array_equal(got_var[:n], want_var)
    np.testing.assert_array_equal(got_mean[n:], LEFT)  # past abComputeLength: left alone
    np.testing.assert_array_equal(got_var[n:], LEFT)
    # reusing the source leaves x - mean in it, as the NPU's in-place Sub does
    want_x = x.copy()
    if which == 1:
        want_x[:n] = x[:n] - mean[:n]
    np.testing.assert_array_equal(got_x, want_x)


@pytest.mark.parametrize("ab,n", [(64, 35), (512, 300)])
def test_update_half_computes_in_float(ab, n):
    x, mean, var = _stats(7)
    xh = (x / 4).astype(np.float16)
    n_rec = 1.0 / 3
    # 768 bytes: one repeat a pass, so several passes
    got_mean, got_var, _ = _update(2, xh, mean, var, ab, n, n_rec, tmp_bytes=768)
    want_mean, want_var = _update_reference(xh.astype(np.float32), mean, var, n, n_rec)
    np.testing.assert_array_equal(got_mean[:n], want_mean)
    np.testing.assert_array_equal(got_var[:n], want_var)


@pytest.mark.parametrize("which,x_type", [(3, np.float32), (4, np.float16)])
def test_update_in_place_copies_the_rest_from_whole_blocks(which, x_type):
    x, mean, var = _stats(11)
    ab, n = 64, 35
    got_mean, got_var, _ = _update(which, x.astype(x_type), mean, var, ab, n, 0.125)
    want_mean, want_var = _update_reference(x.astype(x_type), mean, var, n, 0.125)
    np.testing.assert_array_equal(got_mean[:n], want_mean)
    np.testing.assert_array_equal(got_var[:n], want_var)
    # the 29 past abComputeLength rounded up to 32 (four blocks of 8 floats): from 32 on
    np.testing.assert_array_equal(got_mean[n:ab], mean[n:ab])
    np.testing.assert_array_equal(got_var[n:ab], var[n:ab])
    np.testing.assert_array_equal(got_mean[ab:], LEFT)


def _finalize(which: int, mean: np.ndarray, var: np.ndarray, counts: np.ndarray, ab: int,
              rn: int = 1, head: int = 0, head_length: int = 0, tail: int = 0,
              tail_length: int = 0, ab_rec: float = 0.0, r_rec: float = 1.0,
              tmp_bytes: int = 1024, debug: bool = False):
    stats = np.zeros(2 * M, np.float32)
    stats[:mean.size], stats[M:M + var.size] = mean, var
    c = np.zeros(M, np.int32)
    c[:counts.size] = counts
    out = np.full(16, LEFT, np.float32)
    pyasc.ascendc.load(KERNELS, "welford_finalize", debug=debug)[1](
        stats, c, out, np.int32(which), np.uint32(ab), np.uint32(rn), np.uint32(head),
        np.uint32(head_length), np.uint32(tail), np.uint32(tail_length), np.float32(ab_rec),
        np.float32(r_rec), np.uint32(tmp_bytes))
    return out[:8], out[8:]


def test_finalize_gives_the_example_on_canns_page():
    values = np.arange(32, dtype=np.float32)
    mean, var = _finalize(0, values, values, np.full(32, 4, np.int32), 32, r_rec=1 / 4096)
    np.testing.assert_allclose(mean, [0.484375] + [0] * 7, rtol=1e-6)
    np.testing.assert_allclose(var, [9.831062] + [0] * 7, rtol=1e-6)


def _weighted(mean, var, w, r_rec):
    mean, var, w = (np.asarray(a, np.float64) for a in (mean, var, w))
    total = (mean * w).sum() * r_rec
    return total, ((mean - total) ** 2 * w + var).sum() * r_rec


@pytest.mark.parametrize("ab,tmp_bytes", [(8, 1024), (200, 4096), (1024, 1024), (4480, 1024),
                                          (4608, 20000)])
def test_finalize_with_counts_sums_every_piece(ab, tmp_bytes):
    # 4480 in pieces of 64: 70 pieces, past the 64 partial sums one row holds
    rng = np.random.default_rng(ab)
    mean = rng.uniform(-5, 5, ab).astype(np.float32)
    var = rng.uniform(0, 50, ab).astype(np.float32)
    counts = rng.integers(1, 9, ab).astype(np.int32)
    r_rec = 1.0 / counts.sum()
    got_mean, got_var = _finalize(0, mean, var, counts, ab, r_rec=r_rec, tmp_bytes=tmp_bytes)
    want_mean, want_var = _weighted(mean, var, counts, r_rec)
    np.testing.assert_allclose(got_mean[0], want_mean, rtol=2e-5, atol=1e-6)
    np.testing.assert_allclose(got_var[0], want_var, rtol=2e-5)
    np.testing.assert_array_equal(got_mean[1:], 0)
    np.testing.assert_array_equal(got_var[1:], 0)


def test_finalize_without_counts_weighs_by_ab_rec_and_rn_length():
    rng = np.random.default_rng(3)
    ab, rn = 64, 5
    mean = rng.uniform(-5, 5, ab).astype(np.float32)
    var = rng.uniform(0, 50, ab).astype(np.float32)
    r_rec = 1.0 / (rn * ab)
    got_mean, got_var = _finalize(1, mean, var, np.zeros(0, np.int32), ab, rn=rn,
                                  head_length=ab, ab_rec=1.0 / ab, r_rec=r_rec)
    want_mean = mean.astype(np.float64).mean()
    want_var = ((mean - want_mean) ** 2 * rn + var).sum() * r_rec
    np.testing.assert_allclose(got_mean[0], want_mean, rtol=2e-5, atol=1e-6)
    np.testing.assert_allclose(got_var[0], want_var, rtol=2e-5)


def test_finalize_weighs_the_head_and_the_tail():
    rng = np.random.default_rng(4)
    ab, head_length, head, tail = 200, 72, 6, 2
    mean = rng.uniform(-5, 5, ab).astype(np.float32)
    var = rng.uniform(0, 50, ab).astype(np.float32)
    w = np.where(np.arange(ab) < head_length, head, tail)
    r_rec = 1.0 / w.sum()
    # 4096 bytes: pieces of 448, one piece; 1024: pieces of 64, the head ends inside the second
    for tmp_bytes in (4096, 1024):
        got_mean, got_var = _finalize(1, mean, var, np.zeros(0, np.int32), ab, rn=4, head=head,
                                      head_length=head_length, tail=tail,
                                      tail_length=ab - head_length, r_rec=r_rec,
                                      tmp_bytes=tmp_bytes)
        want_mean, want_var = _weighted(mean, var, w, r_rec)
        np.testing.assert_allclose(got_mean[0], want_mean, rtol=2e-5, atol=1e-6)
        np.testing.assert_allclose(got_var[0], want_var, rtol=2e-5)


def test_finalize_from_the_stack_buffer():
    values = np.arange(32, dtype=np.float32)
    mean, var = _finalize(2, values, values, np.full(32, 4, np.int32), 32, r_rec=1 / 4096)
    np.testing.assert_allclose([mean[0], var[0]], [0.484375, 9.831062], rtol=1e-6)


# --- errors ------------------------------------------------------------------------------------

def _line(marker: str) -> int:
    return KERNELS[:KERNELS.index(marker)].count("\n") + 1


@pytest.mark.parametrize("debug", [False, True])
def test_too_small_buffers_fail_in_both_modes(debug):
    x, mean, var = _stats(1)
    with pytest.raises(pyasc.KernelError,
                       match=rf"<string>:{_line('case 2:')}: WelfordUpdate: .*768 bytes"):
        _update(2, x.astype(np.float16), mean, var, 64, 35, 0.5, tmp_bytes=512, debug=debug)
    with pytest.raises(pyasc.KernelError,
                       match=rf"<string>:{_line('case 1: AscendC::WelfordFinalize')}: "
                             r"WelfordFinalize: .*1024 bytes"):
        _finalize(1, mean[:8], var[:8], np.zeros(0, np.int32), 8, head_length=8, ab_rec=0.125,
                  tmp_bytes=992, debug=debug)
    with pytest.raises(pyasc.KernelError, match=r"WelfordFinalize: abLength"):
        _finalize(0, mean[:8], var[:8], np.ones(12, np.int32), 12, head_length=12, debug=debug)


def test_checked_mode_reports_what_cann_asserts():
    x, mean, var = _stats(2)
    with pytest.raises(pyasc.KernelError,
                       match=rf"<string>:{_line('case 0: AscendC::WelfordUpdate')}: "
                             r"WelfordUpdate: abComputeLength"):
        _update(0, x, mean, var, 64, 65, 0.5, debug=True)
    with pytest.raises(pyasc.KernelError, match=r"WelfordUpdate: abLength must be a whole"):
        _update(0, x, mean, var, 60, 30, 0.5, debug=True)
    with pytest.raises(pyasc.KernelError, match=r"headCountLength \+ tailCountLength"):
        _finalize(1, mean[:64], var[:64], np.zeros(0, np.int32), 64, head_length=8,
                  ab_rec=1 / 64, debug=True)
    # the default mode computes on, as the device does: the extra element is updated too
    got_mean, _, _ = _update(0, x, mean, var, 64, 65, 0.5)
    np.testing.assert_array_equal(got_mean[:65], _update_reference(x, mean, var, 65, 0.5)[0])
