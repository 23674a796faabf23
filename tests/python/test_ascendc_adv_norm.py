"""Ascend C's normalisation family on the simulated cores and its host tiling.

The host side (include/ascendc/tiling/layernorm_tiling.h over libasc's
asc_tiling_layernorm* / asc_tiling_deepnorm*): the ``Get*MaxMinTmpSize`` and
``Get*TilingInfo`` functions of LayerNorm (both forms), Normalize, LayerNormGrad,
LayerNormGradBeta and DeepNorm give the sizes and struct members CANN's asc-devkit
computes for a 910B core (impl/adv_api/tiling/normalization/), the numbers below worked
out by hand from its formulas. The kernel side (include/ascendc/kernel_operator/adv_norm.h)
runs with those tilings against NumPy's float64 values of the formulas CANN documents."""

from __future__ import annotations

import shutil
import struct

import numpy as np
import pytest

import pyasc
from host_program import run_host_program

pytestmark = pytest.mark.skipif(shutil.which("c++") is None and shutil.which("g++") is None,
                                reason="no C++ compiler")

# --- host: sizes and tilings -------------------------------------------------------------------

HOST = r"""
#include <cstdio>
#include <cstring>
#include <vector>
#include "tiling/tiling_api.h"

static ge::Shape S(std::vector<int64_t> d) { return ge::Shape(d); }

// a struct's members as 32-bit words (the floats as their bits)
template <typename T>
static void words(const char *name, const T &t) {
  uint32_t w[sizeof(T) / 4];
  std::memcpy(w, &t, sizeof w);
  std::printf("%s", name);
  for (uint32_t v : w) std::printf(" %u", v);
  std::printf("\n");
}
static void sizes(const char *name, uint32_t most, uint32_t least) {
  std::printf("%s %u %u\n", name, most, least);
}

int main() {
  uint32_t mx = 7, mn = 7;
  // LayerNorm [B, S, H, originalH]
  AscendC::GetLayerNormMaxMinTmpSize(S({2, 32, 16, 16}), 4, false, mx, mn);
  sizes("ln_sizes", mx, mn);
  LayerNormTiling ln;
  AscendC::GetLayerNormNDTilingInfo(S({2, 32, 16, 16}), mn, 4, false, ln);
  words("ln", ln);
  AscendC::GetLayerNormMaxMinTmpSize(S({4, 8, 32, 30}), 2, true, mx, mn);
  sizes("ln_half_sizes", mx, mn);
  optiling::LayerNormTiling lnh;
  AscendC::GetLayerNormNDTilingInfo(S({4, 8, 32, 30}), 2000, 2, true, lnh);
  std::vector<uint8_t> buf(lnh.GetDataSize());
  lnh.SaveToBuffer(buf.data(), buf.size());
  LayerNormTiling lnhk;
  std::memcpy(&lnhk, buf.data(), sizeof lnhk);
  words("ln_half", lnhk);
  // LayerNorm [A, R] and Normalize
  AscendC::GetLayerNormMaxMinTmpSize(S({32, 32}), 4, false, true, false, mx, mn);
  sizes("sep_sizes", mx, mn);
  AscendC::tiling::LayerNormSeparateTiling sep;
  AscendC::GetLayerNormNDTilingInfo(S({32, 32}), mn, 4, false, true, sep);
  words("sep", sep);
  AscendC::GetLayerNormMaxMinTmpSize(S({5, 20}), 2, false, true, false, mx, mn);
  sizes("sep_half_sizes", mx, mn);
  AscendC::GetNormalizeMaxMinTmpSize(S({32, 32}), 4, 4, false, true, false, mx, mn);
  sizes("normalize_sizes", mx, mn);
  AscendC::GetNormalizeMaxMinTmpSize(S({5, 20}), 2, 2, false, true, false, mx, mn);
  sizes("normalize_half_sizes", mx, mn);
  // LayerNormGrad, LayerNormGradBeta
  AscendC::GetLayerNormGradMaxMinTmpSize(S({2, 32, 16, 16}), 4, false, mx, mn);
  sizes("grad_sizes", mx, mn);
  LayerNormGradTiling gr;
  AscendC::GetLayerNormGradNDTilingInfo(S({2, 32, 16, 16}), mn, 4, false, gr);
  words("grad", gr);
  AscendC::GetLayerNormGradMaxMinTmpSize(S({2, 32, 16, 16}), 4, true, mx, mn);
  sizes("grad_reuse_sizes", mx, mn);
  AscendC::GetLayerNormGradMaxMinTmpSize(S({1, 4, 16, 16}), 2, false, mx, mn);
  sizes("grad_half_sizes", mx, mn);
  LayerNormGradTiling grh;
  AscendC::GetLayerNormGradNDTilingInfo(S({1, 4, 16, 16}), mx, 2, false, grh);
  words("grad_half", grh);
  AscendC::GetLayerNormGradNDTilingInfo(S({1, 16, 16, 16}), 9216, 2, false, grh);
  words("grad_half_fits", grh);
  AscendC::GetLayerNormGradBetaMaxMinTmpSize(S({2, 32, 16, 16}), 4, false, mx, mn);
  sizes("beta_sizes", mx, mn);
  LayerNormGradBetaTiling gb;
  AscendC::GetLayerNormGradBetaNDTilingInfo(S({2, 32, 16, 16}), 6144, 4, false, gb);
  words("beta", gb);
  AscendC::GetLayerNormGradBetaNDTilingInfo(S({1, 8, 16, 16}), 1000, 2, false, gb);
  words("beta_half", gb);
  // DeepNorm [B, S, H]
  bool ok = AscendC::GetDeepNormMaxMinTmpSize(S({4, 16, 64}), 4, false, true, mx, mn);
  std::printf("deep_sizes %d %u %u\n", ok, mx, mn);
  AscendC::tiling::DeepNormTiling dn;
  ok = AscendC::GetDeepNormTilingInfo(S({4, 16, 64}), S({4, 16, 64}), mn, 4, false, true, dn);
  std::printf("deep_ok %d\n", ok);
  words("deep", dn);
  ok = AscendC::GetDeepNormTilingInfo(S({2, 8, 64}), S({2, 8, 60}), 3000, 2, false, false, dn);
  std::printf("deep_half_ok %d\n", ok);
  words("deep_half", dn);
  // refused: 0 sizes, false, the tiling left as it was (with the reason on stderr)
  mx = mn = 7;
  ok = AscendC::GetDeepNormMaxMinTmpSize(S({4, 16, 32}), 4, false, true, mx, mn);
  std::printf("deep_basic_32 %d %u %u\n", ok, mx, mn);
  ok = AscendC::GetDeepNormTilingInfo(S({4, 16, 64}), S({4, 16, 64}), 100, 4, false, true, dn);
  std::printf("deep_small %d\n", ok);
  words("deep_unchanged", dn);
  AscendC::GetLayerNormMaxMinTmpSize(S({2, 32, 16}), 4, false, mx, mn);
  sizes("ln_three_dims", mx, mn);
  AscendC::GetLayerNormNDTilingInfo(S({2, 32, 16, 16}), 100, 4, false, ln);
  words("ln_unchanged", ln);
  AscendC::GetLayerNormMaxMinTmpSize(S({32, 32}), 4, false, false, false, mx, mn);
  sizes("sep_no_rstd", mx, mn);
  AscendC::GetLayerNormGradMaxMinTmpSize(S({2, 32, 16, 16}), 8, false, mx, mn);
  sizes("grad_type8", mx, mn);
  return 0;
}
"""


def _bits(x: float) -> int:
    return struct.unpack("<I", struct.pack("<f", x))[0]


@pytest.fixture(scope="module")
def host(tmp_path_factory) -> tuple[dict[str, list[int]], str]:
    tmp = tmp_path_factory.mktemp("norm_host")
    run = run_host_program(tmp, "norm_host", HOST)
    got = {}
    for line in run.stdout.splitlines():
        name, *values = line.split()
        got[name] = [int(v) for v in values]
    return got, run.stderr


def _layernorm_fields(b, s, h, orig_h, floats, one, stat_total, n=3, stat_size=None):
    """LayerNormTiling's 26 members for a pass of `one` elements (CANN's formulas)."""
    x, bs = b * s * h, b * s
    stat_size = stat_size if stat_size is not None else (bs + 7) // 8 * 8
    tail = x % one
    return [b, s, h, orig_h, x, bs, n, 0, stat_size, stat_size, stat_size, floats, one,
            stat_total, stat_total + one, stat_total + 2 * one, x // one, one, tail, x - tail,
            one // h, tail // h, bs - tail // h, one, one // h, _bits(1.0 / orig_h)]


def test_layernorm_sizes_and_tiling_follow_cann(host):
    got, _ = host
    # max: 3 areas of B*S*H floats (4096 bytes) + mean and variance (64 floats, 256 bytes each);
    # min: 3 rows (64 bytes) + the same statistics
    assert got["ln_sizes"] == [3 * 4096 + 2 * 256, 3 * 64 + 2 * 256]
    # 704 bytes = 176 floats, float data keeps its statistics in the outputs: 176 / 3 = 58
    # floats an area, whole rows of 16: 48 (3 rows a pass), 21 passes and a tail of 16
    assert got["ln"] == _layernorm_fields(2, 32, 16, 16, 176, 48, 0)
    # half data (isReuseSource does nothing for it): 3 areas of 1024 floats, statistics 32
    # floats (128 bytes); min 3 rows of 32 floats
    assert got["ln_half_sizes"] == [3 * 4096 + 2 * 128, 3 * 128 + 2 * 128]
    # 2000 bytes = 500 floats, less the float mean and variance (2 x 32): 436 / 3 = 145 -> 128
    # (4 rows of 32); through optiling's SaveToBuffer into the kernel struct
    assert got["ln_half"] == _layernorm_fields(4, 8, 32, 30, 500, 128, 64)


def test_layernorm_separate_and_normalize_sizes_follow_cann(host):
    got, _ = host
    # LayerNorm [32, 32] float: its own 2 x 4096 + 128 (max), 2 x 128 + 128 (min), raised to
    # Normalize's plus the variance: Normalize's max 2 x 128 (gamma, beta) + 2 x 32 x 32 x 4,
    # min max(A floats, 2 rows) = 256
    assert got["normalize_sizes"] == [2 * 128 + 2 * 4096, 256]
    assert got["sep_sizes"] == [2 * 128 + 2 * 4096 + 128, 256 + 128]
    # 384 bytes = 96 floats: the variance's 32, then 2 areas of 32 (a row a pass)
    rb = _bits(1.0 / 32)
    assert got["sep"] == [32, 32, 0, 0, 0, 0, 1024, 32, 2, 0, 32, 96, 32, 32, 64, 0, 32, 32, 0,
                          1024, 1, 0, 32, 32, 1, rb]
    # half [5, 20]: rows padded to 32; Normalize (half gamma): max 2 x 128 + 2 x 8 x 32 x 4,
    # min max(32, 4 rows of 128) = 512; LayerNorm's own max 2 x 640 + 32, min 2 x 128 + 32
    assert got["normalize_half_sizes"] == [256 + 2048, 512]
    assert got["sep_half_sizes"] == [256 + 2048 + 32, 512 + 32]


def test_layernorm_grad_and_beta_tiling_follow_cann(host):
    got, _ = host
    # 6 float areas of max(B*S*H, H*H) = 1024 / min(...) = 256 elements, times typeSize
    assert got["grad_sizes"] == [6 * 1024 * 4, 6 * 256 * 4]
    assert got["grad_reuse_sizes"] == [4 * 1024 * 4, 4 * 256 * 4]
    # 6144 bytes / 4 / 6 areas = 256 floats: 16 rows (already in 8s), 4 passes
    one = 256
    assert got["grad"] == [6144, 2, 32, 16, 16, one, 16, 4, 0, 0, 0, one, one, one, 2 * one, one,
                           3 * one, one, 4 * one, one, 5 * one, one, 0, one, 0, one, 0, one,
                           _bits(1 / 16), _bits(2 / 16)]
    # half: 9 areas of typeSize-sized elements (CANN's formula): 9 x 256 x 2, 9 x 64 x 2
    assert got["grad_half_sizes"] == [9 * 256 * 2, 9 * 64 * 2]
    # with 4608 bytes: 128 floats an area, 8 rows rounded up to a block of halves (16): 256
    # floats an area, 9 of them past the buffer, as CANN's tiling has it (the kernel refuses)
    g = got["grad_half"]
    assert g[5:10] == [256, 16, 0, 64, 4]
    assert g[22] == 6 * 256 and g[26] == 8 * 256  # tmpTensorPos, tmpTensor2Pos
    # 9216 bytes: 256 floats, 16 rows, one pass
    assert got["grad_half_fits"][5:10] == [256, 16, 1, 0, 0]
    # GradBeta: 2 float copies of B*S*H (max) or of H (min)
    assert got["beta_sizes"] == [2 * 4096, 2 * 64]
    # 6144 bytes = 1536 floats (stackBufferSize counts floats), whole rows, at most B*S*H
    assert got["beta"] == [1536, 2, 32, 16, 16, 1024, 64, 1024, 1, 1, 0, 1024, 0, 1024, 64, 0,
                           0, 0, 0, 0]
    # half, 1000 bytes = 250 floats: (250 - 2 x 16) / 2 = 109 -> 96 (6 rows), 1 pass and a tail
    # of 32; gamma's and beta's sums, then dy's and resForGamma's float copies
    assert got["beta_half"] == [250, 1, 8, 16, 16, 128, 8, 96, 2, 1, 32, 96, 2, 96, 6, 0, 16,
                                32, 128, 0]


def test_deepnorm_tiling_follows_cann(host):
    got, _ = host
    # 3 areas of B*S*H floats (16384 bytes) + 2 x 64 floats; min 3 rows (256 bytes) + 2 x 256
    assert got["deep_sizes"] == [1, 3 * 16384 + 512, 3 * 256 + 512]
    assert got["deep_ok"] == [1]
    # 1280 bytes = 320 floats: 106 -> 64 (a row; under 8 rows the basic block changes nothing)
    assert got["deep"] == _layernorm_fields(4, 16, 64, 64, 320, 64, 0)
    # half, originalH 60 (not a basic block): 750 floats - 2 x 16 = 718 / 3 = 239 -> 192
    assert got["deep_half_ok"] == [1]
    assert got["deep_half"] == _layernorm_fields(2, 8, 64, 60, 750, 192, 32)


def test_host_refusals_leave_zeros_and_say_why(host):
    got, err = host
    assert got["deep_basic_32"] == [0, 7, 7]
    assert "multiple of 64" in err
    assert got["deep_small"] == [0]
    assert got["deep_unchanged"] == got["deep_half"]
    assert "below the minimum" in err
    assert got["ln_three_dims"] == [0, 0]
    assert "the shape has 3 dims, it takes 4" in err
    assert got["ln_unchanged"] == got["ln"]
    assert "do not hold one row" in err
    assert got["sep_no_rstd"] == [0, 0]
    assert "isComputeRstd must be true" in err
    assert got["grad_type8"] == [0, 0]
    assert "typeSize must be 2 (half) or 4 (float), not 8" in err


# --- kernels ---------------------------------------------------------------------------------

KERNEL = r"""
#include "kernel_operator.h"

constexpr uint32_t ROWS = NROWS, H = NH, N = ROWS * H;
using T = DTYPE;

// which: 0 LayerNorm [B, S, H] with a sharedTmpBuffer of tmpBytes, 1 the same from the stack,
// 2 DeepNorm (alpha 0.75, gx), 3 LayerNorm [A, R] (mean and rstd out; R = rLength), 4
// LayerNormGrad (dy = gx, variance and mean from mv), 5 LayerNormGradBeta (resForGamma = x,
// dy = gx; sums into y's and y2's first H), 6 DeepNorm with a basic block, 7 Normalize without
// beta (mean and variance read from fstats, rstd written after them; R = rLength)
extern "C" __global__ __aicore__ void norm(GM_ADDR x, GM_ADDR gx, GM_ADDR gamma, GM_ADDR beta,
                                           GM_ADDR mv, GM_ADDR y, GM_ADDR y2, GM_ADDR stats,
                                           GM_ADDR fstats, GM_ADDR tilingGm, int32_t which,
                                           uint32_t tmpBytes, uint32_t rLength, float epsilon)
{
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> xb, gb, gab, beb, mvb, yb, y2b, sb, fsb, tb;
    pipe.InitBuffer(xb, N * sizeof(T));
    pipe.InitBuffer(gb, N * sizeof(T));
    pipe.InitBuffer(gab, H * sizeof(T));
    pipe.InitBuffer(beb, H * sizeof(T));
    pipe.InitBuffer(mvb, 2 * ROWS * sizeof(T) + 64);
    pipe.InitBuffer(yb, N * sizeof(T));
    pipe.InitBuffer(y2b, N * sizeof(T));
    pipe.InitBuffer(sb, 2 * ROWS * sizeof(T) + 64);
    pipe.InitBuffer(fsb, 3 * ROWS * sizeof(float) + 64);
    if (which != 1) pipe.InitBuffer(tb, tmpBytes);
    AscendC::GlobalTensor<T> xg, gxg, gag, beg, mvg, yg, y2g, sg;
    AscendC::GlobalTensor<float> fsg;
    AscendC::GlobalTensor<uint32_t> tg;
    xg.SetGlobalBuffer((__gm__ T *)x, N);
    gxg.SetGlobalBuffer((__gm__ T *)gx, N);
    gag.SetGlobalBuffer((__gm__ T *)gamma, H);
    beg.SetGlobalBuffer((__gm__ T *)beta, H);
    mvg.SetGlobalBuffer((__gm__ T *)mv, 2 * ROWS);
    yg.SetGlobalBuffer((__gm__ T *)y, N);
    y2g.SetGlobalBuffer((__gm__ T *)y2, N);
    sg.SetGlobalBuffer((__gm__ T *)stats, 2 * ROWS);
    fsg.SetGlobalBuffer((__gm__ float *)fstats, 3 * ROWS);
    tg.SetGlobalBuffer((__gm__ uint32_t *)tilingGm, 32);
    uint32_t words[32];
    for (int i = 0; i < 32; ++i) words[i] = tg.GetValue(i);
    AscendC::LocalTensor<T> xl = xb.Get<T>(), gxl = gb.Get<T>(), gal = gab.Get<T>();
    AscendC::LocalTensor<T> bel = beb.Get<T>(), mvl = mvb.Get<T>(), yl = yb.Get<T>();
    AscendC::LocalTensor<T> y2l = y2b.Get<T>(), sl = sb.Get<T>();
    AscendC::LocalTensor<float> fsl = fsb.Get<float>();
    AscendC::DataCopy(xl, xg, N);
    AscendC::DataCopy(gxl, gxg, N);
    AscendC::DataCopy(gal, gag, H);
    AscendC::DataCopy(bel, beg, H);
    AscendC::DataCopy(mvl, mvg, 2 * ROWS);
    AscendC::DataCopy(fsl, fsg, 3 * ROWS);
    AscendC::PipeBarrier<PIPE_ALL>();
    AscendC::LocalTensor<uint8_t> tmp;
    if (which != 1) tmp = tb.Get<uint8_t>();
    const T eps = static_cast<T>(epsilon);
    switch (which) {
    case 0:
    case 1: {
        LayerNormTiling t;
        std::memcpy(&t, words, sizeof t);
        if (which == 0)
            AscendC::LayerNorm<T>(yl, sl, sl[ROWS], xl, gal, bel, tmp, eps, t);
        else
            AscendC::LayerNorm<T>(yl, sl, sl[ROWS], xl, gal, bel, eps, t);
        break;
    }
    case 2:
    case 6: {
        DeepNormTiling t;
        std::memcpy(&t, words, sizeof t);
        if (which == 2)
            AscendC::DeepNorm<T>(yl, sl, sl[ROWS], xl, gxl, bel, gal, tmp, static_cast<T>(0.75f),
                                 eps, t);
        else
            AscendC::DeepNorm<T, false, true>(yl, sl, sl[ROWS], xl, gxl, bel, gal, tmp,
                                              static_cast<T>(0.75f), eps, t);
        break;
    }
    case 3: {
        AscendC::tiling::LayerNormSeparateTiling t;
        std::memcpy(&t, words, sizeof t);
        AscendC::LayerNormPara para = {ROWS, rLength, H};
        AscendC::LayerNorm<T, T>(yl, fsl, fsl[ROWS], xl, gal, bel, epsilon, tmp, para, t);
        break;
    }
    case 4: {
        LayerNormGradTiling t;
        std::memcpy(&t, words, sizeof t);
        AscendC::LayerNormGrad<T>(yl, y2l, gxl, xl, mvl[ROWS], mvl, gal, tmp, eps, t);
        break;
    }
    case 7: {
        AscendC::NormalizePara para = {ROWS, rLength, H};
        AscendC::Normalize<T, T, false, AscendC::NLCFG_NOBETA>(yl, fsl[2 * ROWS], fsl, fsl[ROWS],
                                                              xl, gal, bel, tmp, epsilon, para);
        break;
    }
    default: {
        LayerNormGradBetaTiling t;
        std::memcpy(&t, words, sizeof t);
        AscendC::LayerNormGradBeta<T>(yl, y2l, xl, gxl, tmp, t);
    }
    }
    AscendC::PipeBarrier<PIPE_ALL>();
    AscendC::DataCopy(yg, yl, N);
    AscendC::DataCopy(y2g, y2l, N);
    AscendC::DataCopy(sg, sl, 2 * ROWS);
    AscendC::DataCopy(fsg, fsl, 3 * ROWS);
}
"""


def _kernel(rows: int, h: int, dtype: str):
    src = KERNEL.replace("NROWS", str(rows)).replace("NH", str(h)).replace("DTYPE", dtype)
    return src


def _run(which, rows, h, dtype, words, tmp_bytes, x, gx=None, gamma=None, beta=None, mv=None,
         r_length=0, epsilon=1e-5, debug=True, fstats=None):
    """The kernel in checked mode (unless debug is False): the vector API's checks and the
    synchronisation checker see every instruction the APIs issue."""
    npt = np.float32 if dtype == "float" else np.float16
    z = np.zeros((rows, h), npt)
    gx = z if gx is None else gx
    gamma = np.ones(h, npt) if gamma is None else gamma
    beta = np.zeros(h, npt) if beta is None else beta
    mv = np.zeros(2 * rows, npt) if mv is None else mv
    y, y2 = np.zeros((rows, h), npt), np.zeros((rows, h), npt)
    stats = np.zeros(2 * rows, npt)
    fstats = np.zeros(3 * rows, np.float32) if fstats is None else fstats.astype(np.float32)
    tiling = np.zeros(32, np.uint32)
    tiling[:len(words)] = words
    pyasc.ascendc.load(_kernel(rows, h, dtype), "norm", debug=debug)[1](
        x.astype(npt), gx.astype(npt), gamma.astype(npt), beta.astype(npt), mv.astype(npt), y, y2,
        stats, fstats, tiling, np.int32(which), np.uint32(tmp_bytes), np.uint32(r_length),
        np.float32(epsilon))
    return y, y2, stats, fstats


def _ref_layernorm(x, gamma, beta, eps, count=None):
    x = x.astype(np.float64)
    count = x.shape[-1] if count is None else count
    xs = x[:, :count]
    mean = xs.mean(-1)
    var = ((xs - mean[:, None]) ** 2).mean(-1)
    rstd = 1 / np.sqrt(var + eps)
    y = (xs - mean[:, None]) * rstd[:, None] * gamma[:count] + beta[:count]
    return y, mean, var, rstd


def _inputs(rows, h, seed, scale=10.0):
    rng = np.random.default_rng(seed)
    return (rng.uniform(-scale, scale, (rows, h)), rng.uniform(-scale, scale, (rows, h)),
            rng.uniform(-2, 2, h), rng.uniform(-2, 2, h))


@pytest.mark.parametrize("dtype,which,debug", [("float", 0, True), ("float", 0, False),
                                               ("float", 1, True), ("half", 0, True)])
def test_layernorm_matches_numpy(host, dtype, which, debug):
    got, _ = host
    if dtype == "float":  # [2, 32, 16]: 21 passes of 3 rows and a tail row
        rows, h, words, tmp = 64, 16, got["ln"], 704
        tol = dict(rtol=2e-5, atol=2e-5)
    else:  # [4, 8, 32], originalH 30 stored as 32: 8 passes of 4 rows, statistics in float
        rows, h, words, tmp = 32, 32, got["ln_half"], 2016
        tol = dict(rtol=4e-3, atol=4e-3)
    x, _, gamma, beta = _inputs(rows, h, 1)
    if dtype == "half":
        # CANN's LayerNorm reduces the stored H scaled by 1 / originalH: equal H here
        words = list(words)
        words[3] = h
        words[-1] = _bits(1.0 / h)
        x, gamma, beta = x.astype(np.float16), gamma.astype(np.float16), beta.astype(np.float16)
    y, _, stats, _ = _run(which, rows, h, dtype, words, tmp, x, gamma=gamma, beta=beta,
                          epsilon=1e-4, debug=debug)
    ry, mean, var, _ = _ref_layernorm(x, gamma.astype(np.float64), beta.astype(np.float64), 1e-4)
    np.testing.assert_allclose(y, ry, **tol)
    np.testing.assert_allclose(stats[:rows], mean, **tol)
    np.testing.assert_allclose(stats[rows:], var, rtol=tol["rtol"], atol=tol["atol"] * 10)


@pytest.mark.parametrize("dtype", ["float", "half"])
def test_layernorm_separate_form_matches_numpy(host, dtype):
    got, _ = host
    rows, h = 32, 32
    x, _, gamma, beta = _inputs(rows, h, 2)
    words = got["sep"]
    r = h
    if dtype == "half":
        x, gamma, beta = x.astype(np.float16), gamma.astype(np.float16), beta.astype(np.float16)
    y, _, _, fstats = _run(3, rows, h, dtype, words, 384 if dtype == "float" else 4096, x,
                           gamma=gamma, beta=beta, r_length=r, epsilon=1e-4)
    ry, mean, _, rstd = _ref_layernorm(x, gamma.astype(np.float64), beta.astype(np.float64), 1e-4)
    tol = dict(rtol=2e-5, atol=2e-5) if dtype == "float" else dict(rtol=4e-3, atol=4e-3)
    np.testing.assert_allclose(y, ry, **tol)
    np.testing.assert_allclose(fstats[:rows], mean, rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(fstats[rows:2 * rows], rstd, rtol=1e-4)


@pytest.mark.parametrize("dtype", ["float", "half"])
def test_normalize_without_beta_matches_numpy(dtype):
    rows, h = 16, 32
    x, _, gamma, beta = _inputs(rows, h, 11)
    rng = np.random.default_rng(12)
    mean, var = rng.uniform(-1, 1, rows), rng.uniform(0.5, 4, rows)
    if dtype == "half":
        x, gamma = x.astype(np.float16), gamma.astype(np.float16)
    fstats = np.concatenate([mean, var, np.zeros(rows)]).astype(np.float32)
    # 1 KiB: 256 floats, 4 rows of 2 x 32 a pass (half gamma: its float copy too, 3 rows)
    y, _, _, out = _run(7, rows, h, dtype, [], 1024, x, gamma=gamma, beta=beta, r_length=h,
                        epsilon=1e-3, fstats=fstats)
    m64, v64 = fstats[:rows].astype(np.float64), fstats[rows:2 * rows].astype(np.float64)
    rstd = 1 / np.sqrt(v64 + 1e-3)
    ref = (x.astype(np.float64) - m64[:, None]) * rstd[:, None] * gamma.astype(np.float64)
    tol = dict(rtol=2e-5, atol=2e-5) if dtype == "float" else dict(rtol=4e-3, atol=4e-3)
    np.testing.assert_allclose(y, ref, **tol)  # no beta added
    np.testing.assert_allclose(out[2 * rows:], rstd, rtol=1e-5)
    np.testing.assert_array_equal(out[:2 * rows], fstats[:2 * rows])  # its inputs untouched


def test_layernorm_separate_form_pads_rows(host):
    # [8, 20] float stored as rows of 24: the padding is left out of mean and variance
    got, _ = host
    rows, h, r = 8, 24, 20
    x, _, gamma, beta = _inputs(rows, h, 3)
    # the tiling for [8, 20], float: rows padded to 24, a 2 KiB buffer: (512 - 8) / 2 = 252 ->
    # 240 (all 8 rows, one pass)
    words = [8, 20, 0, 0, 0, 0, 192, 8, 2, 0, 8, 512, 192, 8, 200, 0, 1, 192, 0, 192, 8, 0, 8,
             192, 8, _bits(1 / 20)]
    y, _, _, fstats = _run(3, rows, h, "float", words, 2048, x, gamma=gamma, beta=beta,
                           r_length=r, epsilon=1e-4)
    ry, mean, _, rstd = _ref_layernorm(x, gamma, beta, 1e-4, count=r)
    np.testing.assert_allclose(y[:, :r], ry, rtol=2e-5, atol=2e-5)
    np.testing.assert_allclose(fstats[:rows], mean, rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(fstats[rows:2 * rows], rstd, rtol=1e-4)


@pytest.mark.parametrize("dtype,which", [("float", 6), ("float", 2), ("half", 2)])
def test_deepnorm_matches_numpy(host, dtype, which):
    got, _ = host
    if dtype == "float":  # [4, 16, 64], 64 passes of a row
        rows, h, words, tmp, count = 64, 64, got["deep"], 1280, 64
        tol = dict(rtol=2e-5, atol=2e-5)
    else:  # [2, 8, 64], originalH 60: 5 passes of 3 rows and a tail row
        rows, h, words, tmp, count = 16, 64, got["deep_half"], 3008, 60
        tol = dict(rtol=4e-3, atol=4e-3)
    x, gx, gamma, beta = _inputs(rows, h, 4)
    if dtype == "half":
        x, gx = x.astype(np.float16), gx.astype(np.float16)
        gamma, beta = gamma.astype(np.float16), beta.astype(np.float16)
    y, _, stats, _ = _run(which, rows, h, dtype, words, tmp, x, gx=gx, gamma=gamma, beta=beta,
                          epsilon=1e-3)
    x1 = 0.75 * x.astype(np.float64) + gx.astype(np.float64)
    ry, mean, var, _ = _ref_layernorm(x1, gamma.astype(np.float64), beta.astype(np.float64), 1e-3,
                                      count=count)
    np.testing.assert_allclose(y[:, :count], ry, **tol)
    np.testing.assert_allclose(stats[:rows], mean, **tol)
    np.testing.assert_allclose(stats[rows:], var, rtol=tol["rtol"], atol=tol["atol"] * 10)


def _ref_grad(x, dy, gamma, eps, mean=None, var=None):
    """LayerNormGrad's formulas (CANN's example's gen_data), from the given statistics."""
    x, dy, gamma = (a.astype(np.float64) for a in (x, dy, gamma))
    h = x.shape[-1]
    mean = x.mean(-1, keepdims=True) if mean is None else mean.astype(np.float64)[:, None]
    var = ((x - mean) ** 2).mean(-1, keepdims=True) if var is None else var.astype(
        np.float64)[:, None]
    xm = x - mean
    rstd = 1 / np.sqrt(var + eps)
    pd_xl = dy * gamma
    pd_var = np.sum(-0.5 * pd_xl * xm * (var + eps) ** -1.5, -1, keepdims=True)
    pd_mean = np.sum(-pd_xl * rstd, -1, keepdims=True) + pd_var / h * np.sum(-2 * xm, -1,
                                                                             keepdims=True)
    pd_x = pd_mean / h + pd_var * 2 / h * xm + pd_xl * rstd
    return pd_x, xm * rstd, mean[:, 0], var[:, 0]


@pytest.mark.parametrize("dtype", ["float", "half"])
def test_layernorm_grad_matches_numpy(host, dtype):
    got, _ = host
    if dtype == "float":  # [2, 32, 16]: 4 passes of 16 rows
        rows, h, words, tmp = 64, 16, got["grad"], 6144
        tol = dict(rtol=1e-4, atol=1e-4)
    else:  # [1, 16, 16]: one pass
        rows, h, words, tmp = 16, 16, got["grad_half_fits"], 9216
        tol = dict(rtol=2e-2, atol=2e-2)
    x, dy, gamma, _ = _inputs(rows, h, 5, scale=3.0)
    if dtype == "half":
        x, dy, gamma = x.astype(np.float16), dy.astype(np.float16), gamma.astype(np.float16)
    _, _, mean, var = _ref_grad(x, dy, gamma, 1e-4)
    mv = np.concatenate([mean, var]).astype(np.float32 if dtype == "float" else np.float16)
    pd_x, res, _, _ = _ref_grad(x, dy, gamma, 1e-4, mv[:rows], mv[rows:])
    y, y2, _, _ = _run(4, rows, h, dtype, words, tmp, x, gx=dy, gamma=gamma, mv=mv, epsilon=1e-4)
    np.testing.assert_allclose(y, pd_x, **tol)
    np.testing.assert_allclose(y2, res, **tol)


@pytest.mark.parametrize("dtype", ["float", "half"])
def test_layernorm_grad_beta_matches_numpy(host, dtype):
    got, _ = host
    if dtype == "float":  # one pass of 64 rows
        rows, h, words, tmp = 64, 16, got["beta"], 6144
        tol = dict(rtol=1e-5, atol=1e-4)
    else:  # a pass of 6 rows and a tail of 2
        rows, h, words, tmp = 8, 16, got["beta_half"], 1024
        tol = dict(rtol=4e-3, atol=1e-2)
    res, dy, _, _ = _inputs(rows, h, 6, scale=2.0)
    if dtype == "half":
        res, dy = res.astype(np.float16), dy.astype(np.float16)
    y, y2, _, _ = _run(5, rows, h, dtype, words, tmp, res, gx=dy)
    r64, d64 = res.astype(np.float64), dy.astype(np.float64)
    np.testing.assert_allclose(y[0], (r64 * d64).sum(0), **tol)
    np.testing.assert_allclose(y2[0], d64.sum(0), **tol)


def test_an_unfilled_tiling_fails_at_the_call():
    x, _, _, _ = _inputs(64, 16, 7)
    line = KERNEL[:KERNEL.index("AscendC::LayerNorm<T>(yl, sl, sl[ROWS], xl, gal, bel, tmp")]
    line = line.count("\n") + 1
    with pytest.raises(pyasc.KernelError, match=rf"<string>:{line}: LayerNorm: .*oneTmpSize"):
        _run(0, 64, 16, "float", [0] * 26, 704, x, debug=True)


def test_cann_half_grad_tiling_past_its_buffer_is_refused(host):
    # CANN's tiling for half [1, 4, 16, 16] with GetLayerNormGradMaxMinTmpSize's max rounds the
    # rows up past the buffer: the kernel says so instead of writing past it
    got, _ = host
    x, dy, gamma, _ = _inputs(16, 16, 8)
    with pytest.raises(pyasc.KernelError, match="LayerNormGrad: the sharedTmpBuffer holds 4608"):
        _run(4, 16, 16, "half", got["grad_half"], 4608, x.astype(np.float16),
             gx=dy.astype(np.float16), gamma=gamma.astype(np.float16), debug=True)


def test_layernorm_separate_refuses_a_buffer_below_its_tiling(host):
    got, _ = host
    x, _, gamma, beta = _inputs(32, 32, 9)
    # the separate form's tiling with 96 floats, run with a 160-byte buffer: below the tiling's
    with pytest.raises(pyasc.KernelError, match="LayerNorm: the sharedTmpBuffer holds 160"):
        _run(3, 32, 32, "float", got["sep"], 160, x, gamma=gamma, beta=beta, r_length=32,
             debug=True)


def test_deepnorm_basic_block_checks_the_tiling(host):
    got, _ = host
    x, gx, gamma, beta = _inputs(16, 64, 10)
    # DeepNorm<..., isBasicBlock> with the originalH 60 tiling: refused at the call
    with pytest.raises(pyasc.KernelError, match="DeepNorm: isBasicBlock needs"):
        _run(6, 16, 64, "half", got["deep_half"], 3000, x.astype(np.float16),
             gx=gx.astype(np.float16), gamma=gamma.astype(np.float16),
             beta=beta.astype(np.float16), debug=True)
