"""int4b_t in Ascend C on the simulated cores (include/ascendc, src/compiler/rt/int4.h and
rt/cube_int4.h): kernels of our own against NumPy.

* Cast half -> int4b_t (the count form and the mask form with its strides), rounding by each
  RoundMode and saturating to [-8, 7], and back to half; DataCopy of packed elements;
* Mmad of int4b_t into int32: Nd2Nz into L1 (its parameters in bytes), LoadData2DParams into
  L0A/L0B, or LoadDataWithTranspose of 64 x 64 squares into L0B;
* misuse (an odd element offset, an odd count) fails at the user's line, in checked mode too.

Elements are packed two to a byte, element 2i in the low nibble of byte i.
"""

from __future__ import annotations

import shutil

import numpy as np
import pytest

import pyasc

pytestmark = pytest.mark.skipif(shutil.which("c++") is None and shutil.which("g++") is None,
                                reason="no C++ compiler")


def _pack(v: np.ndarray) -> np.ndarray:
    """Rows of int4 values (even length) as their bytes, low nibble first."""
    n = (v.astype(np.int16) & 15).astype(np.uint8)
    return (n[..., 0::2] | (n[..., 1::2] << 4)).astype(np.uint8)


def _unpack(b: np.ndarray) -> np.ndarray:
    lo = (b & 15).astype(np.int16)
    hi = (b >> 4).astype(np.int16)
    v = np.stack([lo, hi], axis=-1).reshape(*b.shape[:-1], -1)
    return np.where(v > 7, v - 16, v).astype(np.int8)


CAST_SRC = r"""
#include "kernel_operator.h"
using namespace AscendC;

constexpr int32_t N = 512;

extern "C" __global__ __aicore__ void cast_i4(GM_ADDR x, GM_ADDR y, GM_ADDR back, int32_t round)
{
    GlobalTensor<half> xGm, backGm;
    GlobalTensor<int4b_t> yGm;
    xGm.SetGlobalBuffer(reinterpret_cast<__gm__ half *>(x), N);
    yGm.SetGlobalBuffer(reinterpret_cast<__gm__ int4b_t *>(y), N);
    backGm.SetGlobalBuffer(reinterpret_cast<__gm__ half *>(back), N);
    LocalTensor<half> xl(TPosition::VECIN, 0, N);
    LocalTensor<int8_t> y8(TPosition::VECOUT, 2048, N / 2);
    LocalTensor<half> bl(TPosition::VECOUT, 4096, N);
    DataCopy(xl, xGm, N);
    PipeBarrier<PIPE_ALL>();
    LocalTensor<int4b_t> y4 = y8.ReinterpretCast<int4b_t>();
    // the first half with the count form, the second with the mask form: 2 repeats of
    // 128 elements, 8 source blocks and 2 destination blocks a repeat
    Cast(y4, xl, static_cast<RoundMode>(round), N / 2);
    Cast<int4b_t, half>(y4[N / 2], xl[N / 2], static_cast<RoundMode>(round), 128, 2,
                        {1, 1, 2, 8});
    Cast(bl, y4, RoundMode::CAST_NONE, N);
    PipeBarrier<PIPE_ALL>();
    DataCopy(yGm, y4, N);
    DataCopy(backGm, bl, N);
}
"""

# RoundMode's order in the header: CAST_NONE, RINT, FLOOR, CEIL, ROUND, TRUNC
ROUNDS = {1: np.rint, 2: np.floor, 3: np.ceil, 4: lambda v: np.trunc(v + np.copysign(0.5, v)),
          5: np.trunc}


@pytest.mark.parametrize("debug", [False, True], ids=["plain", "checked"])
@pytest.mark.parametrize("mode", sorted(ROUNDS))
def test_cast_half_to_int4_rounds_and_saturates(mode, debug):
    rng = np.random.default_rng(mode)
    # quarters and halves hit every rounding rule's ties; +-12 saturates
    x = (rng.integers(-48, 48, 512) / 4).astype(np.float16)
    y = np.zeros(256, np.uint8)
    back = np.zeros(512, np.float16)
    kernel = pyasc.ascendc.load(CAST_SRC, "cast_i4", debug=debug)
    kernel[1](x, y, back, np.int32(mode))
    want = np.clip(ROUNDS[mode](x.astype(np.float64)), -8, 7).astype(np.int8)
    np.testing.assert_array_equal(_unpack(y), want)
    np.testing.assert_array_equal(y, _pack(want))
    np.testing.assert_array_equal(back, want.astype(np.float16))


def test_odd_int4_offset_fails_in_checked_mode():
    source = CAST_SRC.replace("y4[N / 2], xl[N / 2]", "y4[N / 2 + 1], xl[N / 2]")
    kernel = pyasc.ascendc.load(source, "cast_i4", debug=True)
    with pytest.raises(pyasc.KernelError, match="offset 257 of int4b_t elements is odd"):
        kernel[1](np.zeros(512, np.float16), np.zeros(256, np.uint8), np.zeros(512, np.float16),
                  np.int32(1))


def test_odd_int4_count_fails_at_the_users_line():
    source = CAST_SRC.replace("DataCopy(yGm, y4, N);", "DataCopy(yGm, y4, N - 1);")
    kernel = pyasc.ascendc.load(source, "cast_i4")
    line = next(i for i, t in enumerate(source.splitlines(), 1) if "N - 1" in t)
    with pytest.raises(pyasc.KernelError,
                       match=rf"<string>:{line}: DataCopy: count 511 of int4b_t elements is odd"):
        kernel[1](np.zeros(512, np.float16), np.zeros(256, np.uint8), np.zeros(512, np.float16),
                  np.int32(1))


# C (M x N, int32) = A (M x K) @ B (K x N), int4b_t. A comes as M rows of K / 2 bytes; B as its
# transpose (N rows of K / 2 bytes, TRANS 0) or as itself (K rows of N / 2 bytes, TRANS 1).
MMAD_SRC = r"""
#include "kernel_operator.h"
using namespace AscendC;

constexpr uint32_t Align(uint32_t x, uint32_t a) { return (x + a - 1) / a * a; }
constexpr uint32_t M1 = Align(M, 16) / 16, N1 = Align(N, 16) / 16, K1 = Align(K, 64) / 64;
constexpr uint32_t FRACTAL = 16 * 64;  // elements of a 16 x 64 fractal (512 bytes)

extern "C" __global__ __aicore__ void mm_i4(GM_ADDR a, GM_ADDR b, GM_ADDR c)
{
    GlobalTensor<int4b_t> aGm, bGm;
    GlobalTensor<int32_t> cGm;
    aGm.SetGlobalBuffer(reinterpret_cast<__gm__ int4b_t *>(a), M * K);
    bGm.SetGlobalBuffer(reinterpret_cast<__gm__ int4b_t *>(b), K * N);
    cGm.SetGlobalBuffer(reinterpret_cast<__gm__ int32_t *>(c), M * N);
    LocalTensor<int4b_t> a1(TPosition::A1, 0, M1 * K1 * FRACTAL);
    LocalTensor<int4b_t> b1(TPosition::B1, 128 * 1024, Align(K, 64) * Align(N, 64));
    LocalTensor<int4b_t> a2(TPosition::A2, 0, M1 * K1 * FRACTAL);
    LocalTensor<int4b_t> b2(TPosition::B2, 0, K1 * Align(N, 64) * 64);
    LocalTensor<int32_t> c1(TPosition::CO1, 0, M1 * N1 * 256);
    // Nd2Nz counts bytes for 4-bit data: a row of K elements is K / 2 bytes
    DataCopy(a1, aGm, Nd2NzParams(1, M, K / 2, 0, K / 2, M1 * 16, 1, 0));
#if TRANS
    DataCopy(b1, bGm, Nd2NzParams(1, K, N / 2, 0, N / 2, K1 * 64, 1, 0));
#else
    DataCopy(b1, bGm, Nd2NzParams(1, N, K / 2, 0, K / 2, N1 * 16, 1, 0));
#endif
    PipeBarrier<PIPE_ALL>();
    for (uint32_t i = 0; i < M1; ++i) {
        LoadData(a2[i * K1 * FRACTAL], a1[i * FRACTAL], LoadData2DParams(0, K1, M1, 0, 0, false, 0));
    }
#if TRANS
    // square (k block q, n block j): four fractals of L1 from (j * K1 + q) * 4 fractals, into
    // L0B's fractals (q, 4 j .. 4 j + 3)
    for (uint32_t q = 0; q < K1; ++q) {
        LoadData2dTransposeParams p(q, Align(N, 64) / 64, K1, 3, 0, 0);
        LoadDataWithTranspose(b2[q * (Align(N, 64) / 16) * FRACTAL], b1, p);
    }
    constexpr uint32_t NM = Align(N, 64);
#else
    LoadData(b2, b1, LoadData2DParams(0, K1 * N1, 1, 0, 0, false, 0));
    constexpr uint32_t NM = N;
#endif
    PipeBarrier<PIPE_ALL>();
    Mmad(c1, a2, b2, MmadParams(M, NM, K, 0, false, true));
    PipeBarrier<PIPE_ALL>();
    Fixpipe(cGm, c1, FixpipeParamsV220(N, M, M1 * 16, N, false));
}
"""


@pytest.mark.parametrize("debug", [False, True], ids=["plain", "checked"])
@pytest.mark.parametrize("m,n,k,trans", [(40, 50, 70, 0), (16, 16, 64, 0), (33, 128, 130, 1),
                                         (32, 64, 64, 1)])
def test_int4_mmad_matches_integer_matmul(m, n, k, trans, debug):
    rng = np.random.default_rng(m * n + k)
    a = rng.integers(-8, 8, (m, k)).astype(np.int8)
    b = rng.integers(-8, 8, (k, n)).astype(np.int8)
    b_in = _pack(b) if trans else _pack(np.ascontiguousarray(b.T))
    c = np.zeros((m, n), np.int32)
    source = f"#define M {m}u\n#define N {n}u\n#define K {k}u\n#define TRANS {trans}\n" + MMAD_SRC
    kernel = pyasc.ascendc.load(source, "mm_i4", debug=debug)
    kernel[1](_pack(a), b_in, c)
    np.testing.assert_array_equal(c, a.astype(np.int64) @ b.astype(np.int64))


def test_int4_transposed_load_into_l0a_is_refused():
    """CANN's dav-2201 transposes b4 only on the way to L0B."""
    source = ("#define M 32u\n#define N 64u\n#define K 64u\n#define TRANS 1\n"
              + MMAD_SRC.replace("LoadDataWithTranspose(b2[", "LoadDataWithTranspose(a2["))
    kernel = pyasc.ascendc.load(source, "mm_i4")
    line = next(i for i, t in enumerate(source.splitlines(), 1) if "LoadDataWithTranspose(a2[" in t)
    with pytest.raises(pyasc.KernelError,
                       match=rf"<string>:{line}:.*int4b_t is transposed into L0B \(B2\) only"):
        kernel[1](np.zeros((32, 32), np.uint8), np.zeros((64, 32), np.uint8),
                  np.zeros((32, 64), np.int32))


ACCESS_SRC = r"""
#include "kernel_operator.h"
using namespace AscendC;

// y[i] = x[i] * -1 (saturated) element by element through SetValue/GetValue; sizes reports
// GetSize and GetLength of the tensor and of a slice, and the byte between two slices.
extern "C" __global__ __aicore__ void access_i4(GM_ADDR x, GM_ADDR y, GM_ADDR sizes)
{
    GlobalTensor<int4b_t> xGm, yGm;
    GlobalTensor<int32_t> sGm;
    xGm.SetGlobalBuffer(reinterpret_cast<__gm__ int4b_t *>(x), 64);
    yGm.SetGlobalBuffer(reinterpret_cast<__gm__ int4b_t *>(y), 64);
    sGm.SetGlobalBuffer(reinterpret_cast<__gm__ int32_t *>(sizes), 6);
    LocalTensor<int8_t> raw(TPosition::VECIN, 0, 64);
    LocalTensor<int4b_t> t = raw.ReinterpretCast<int4b_t>();
    DataCopy(t, xGm, 64);
    PipeBarrier<PIPE_ALL>();
    for (int32_t i = 0; i < 64; ++i) {
        int v = -static_cast<int>(t.GetValue(i));
        t.SetValue(i, int4b_t(v > 7 ? 7 : v));
    }
    PipeBarrier<PIPE_ALL>();
    DataCopy(yGm, t, 64);
    sGm.SetValue(0, t.GetSize());
    sGm.SetValue(1, t.GetLength());
    sGm.SetValue(2, t[32].GetSize());
    sGm.SetValue(3, t[32].GetLength());
    sGm.SetValue(4, static_cast<int32_t>(t[32].GetPhyAddr() - t.GetPhyAddr()));
    sGm.SetValue(5, static_cast<int32_t>(xGm.GetSize()));
}
"""


@pytest.mark.parametrize("debug", [False, True], ids=["plain", "checked"])
def test_int4_element_access_and_sizes(debug):
    rng = np.random.default_rng(5)
    x = rng.integers(-8, 8, 64).astype(np.int8)
    y = np.zeros(32, np.uint8)
    sizes = np.zeros(6, np.int32)
    kernel = pyasc.ascendc.load(ACCESS_SRC, "access_i4", debug=debug)
    kernel[1](_pack(x), y, sizes)
    np.testing.assert_array_equal(_unpack(y), np.minimum(-x.astype(np.int16), 7))
    # elements, bytes, a slice's elements and bytes, its byte offset, GM elements
    np.testing.assert_array_equal(sizes, [128, 64, 96, 48, 16, 64])
