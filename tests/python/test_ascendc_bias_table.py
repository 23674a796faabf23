"""The bias table (TPosition::C2) in Ascend C on the simulated cores: DataCopy from C1 with
DataCopyParams (blockLen and dstStride in 64-byte blocks on dav-2201) and Mmad starting C from
it, with the bias tensor given or, with cmatrixSource, without it; against NumPy.

C2 shares L1 in the simulator (docs/ascendc.md), so a C2 tensor at byte b is L1's byte b.
"""

from __future__ import annotations

import shutil

import numpy as np
import pytest

import pyasc

pytestmark = pytest.mark.skipif(shutil.which("c++") is None and shutil.which("g++") is None,
                                reason="no C++ compiler")

# C (M x N, int32) = A (M x K, int8) @ B (K x N) + bias, B given as its transpose (N x K).
SRC = r"""
#include "kernel_operator.h"
using namespace AscendC;

constexpr uint32_t M = 32, N = 48, K = 64, FRACTAL = 512;
constexpr uint32_t M1 = M / 16, N1 = N / 16, K1 = K / 32, BIAS_BYTES = N * 4;

extern "C" __global__ __aicore__ void mm_bias(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c)
{
    GlobalTensor<int8_t> aGm, bGm;
    GlobalTensor<int32_t> biasGm, cGm;
    aGm.SetGlobalBuffer(reinterpret_cast<__gm__ int8_t *>(a), M * K);
    bGm.SetGlobalBuffer(reinterpret_cast<__gm__ int8_t *>(b), K * N);
    biasGm.SetGlobalBuffer(reinterpret_cast<__gm__ int32_t *>(bias), N);
    cGm.SetGlobalBuffer(reinterpret_cast<__gm__ int32_t *>(c), M * N);
    LocalTensor<int8_t> a1(TPosition::A1, 4096, M * K), b1(TPosition::B1, 8192, N * K);
    LocalTensor<int32_t> bias1(TPosition::C1, 16384, N);
    LocalTensor<int32_t> bias2(TPosition::C2, 0, N);
    LocalTensor<int8_t> a2(TPosition::A2, 0, M * K);
    LocalTensor<int8_t> b2(TPosition::B2, 0, K * N);
    LocalTensor<int32_t> c1(TPosition::CO1, 0, M * N);
    DataCopy(a1, aGm, Nd2NzParams(1, M, K, 0, K, M, 1, 0));
    DataCopy(b1, bGm, Nd2NzParams(1, N, K, 0, K, N, 1, 0));
    DataCopy(bias1, biasGm, Nd2NzParams(1, 1, N, 0, N, 1, 1, 0));
    PipeBarrier<PIPE_ALL>();
    for (uint32_t i = 0; i < M1; ++i) {
        LoadData(a2[i * K1 * FRACTAL], a1[i * FRACTAL], LoadData2DParams(0, K1, M1, 0, 0, false, 0));
    }
    LoadData(b2, b1, LoadData2DParams(0, K1 * N1, 1, 0, 0, false, 0));
    DataCopy(bias2, bias1, DataCopyParams(1, BIAS_BYTES / 64, 0, 0));
    PipeBarrier<PIPE_ALL>();
    MmadParams p(M, N, K, 0, false, false);
#if FROM_TABLE
    p.cmatrixSource = true;  // C starts from the bias table, no bias tensor given
    Mmad(c1, a2, b2, p);
#else
    Mmad(c1, a2, b2, bias2, p);
#endif
    PipeBarrier<PIPE_ALL>();
    Fixpipe(cGm, c1, FixpipeParamsV220(N, M, M, N, false));
}
"""


@pytest.mark.parametrize("debug", [False, True], ids=["plain", "checked"])
@pytest.mark.parametrize("from_table", [0, 1])
def test_mmad_starts_from_the_bias_table(from_table, debug):
    rng = np.random.default_rng(3 + from_table)
    a = rng.integers(-100, 100, (32, 64)).astype(np.int8)
    b = rng.integers(-100, 100, (64, 48)).astype(np.int8)
    bias = rng.integers(-10**6, 10**6, 48).astype(np.int32)
    c = np.zeros((32, 48), np.int32)
    kernel = pyasc.ascendc.load(f"#define FROM_TABLE {from_table}\n" + SRC, "mm_bias", debug=debug)
    kernel[1](a, np.ascontiguousarray(b.T), bias, c)
    np.testing.assert_array_equal(c, a.astype(np.int64) @ b.astype(np.int64) + bias)


def test_a_copy_past_the_bias_table_fails_at_the_users_line():
    # 192 bytes from byte 896 end at byte 1088
    source = "#define FROM_TABLE 1\n" + SRC.replace(
        "LocalTensor<int32_t> bias2(TPosition::C2, 0, N);",
        "LocalTensor<int32_t> bias2(TPosition::C2, 896, N);")
    kernel = pyasc.ascendc.load(source, "mm_bias")
    line = next(i for i, t in enumerate(source.splitlines(), 1) if "DataCopy(bias2, bias1" in t)
    with pytest.raises(pyasc.KernelError,
                       match=rf"<string>:{line}:.*ends at byte 1088 of the 1 KB bias table"):
        kernel[1](np.zeros((32, 64), np.int8), np.zeros((48, 64), np.int8), np.zeros(48, np.int32),
                  np.zeros((32, 48), np.int32))
