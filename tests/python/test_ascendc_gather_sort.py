"""Ascend C's gathers, sorts, transposes and the newer reduction names on the
simulated cores (include/ascendc/kernel_operator/gather_sort.h): Gather,
GatherMask (a pattern tensor and a built-in pattern), Sort32, MrgSort,
Transpose (16 x 16), Compares, ReduceRepeat, ReduceDataBlock and
ReducePairElem, in kernels of our own checked against NumPy."""

from __future__ import annotations

import shutil

import numpy as np
import pytest

import pyasc

pytestmark = pytest.mark.skipif(shutil.which("c++") is None and shutil.which("g++") is None,
                                reason="no C++ compiler")

SRC = r"""
#include "kernel_operator.h"
using namespace AscendC;

// x: 64 floats; offs: 64 byte offsets; bits: 2 pattern words; idx: 64 indices; h: 256 halves.
// Out: gathered (64), packed (64) and its count, every-other (32) and its count, sorted
// (2 x 32 (score, index) pairs), merged (64 pairs), ht (256), cmp (8 bytes), sums (sum, max),
// blocks (16), pairs (32).
extern "C" __global__ __aicore__ void forms(GM_ADDR x, GM_ADDR offs, GM_ADDR bits, GM_ADDR idx,
                                            GM_ADDR h, GM_ADDR gathered, GM_ADDR packed,
                                            GM_ADDR evens, GM_ADDR counts, GM_ADDR sorted,
                                            GM_ADDR merged, GM_ADDR ht, GM_ADDR cmp, GM_ADDR sums,
                                            GM_ADDR blocks, GM_ADDR pairs)
{
    GlobalTensor<float> xG, gatheredG, packedG, evensG, sortedG, mergedG, sumsG, blocksG, pairsG;
    GlobalTensor<uint32_t> offsG, bitsG, idxG;
    GlobalTensor<half> hG, htG;
    GlobalTensor<uint8_t> cmpG;
    GlobalTensor<int32_t> countsG;
    xG.SetGlobalBuffer((__gm__ float *)x, 64);
    offsG.SetGlobalBuffer((__gm__ uint32_t *)offs, 64);
    bitsG.SetGlobalBuffer((__gm__ uint32_t *)bits, 8);
    idxG.SetGlobalBuffer((__gm__ uint32_t *)idx, 64);
    hG.SetGlobalBuffer((__gm__ half *)h, 256);
    gatheredG.SetGlobalBuffer((__gm__ float *)gathered, 64);
    packedG.SetGlobalBuffer((__gm__ float *)packed, 64);
    evensG.SetGlobalBuffer((__gm__ float *)evens, 32);
    countsG.SetGlobalBuffer((__gm__ int32_t *)counts, 2);
    sortedG.SetGlobalBuffer((__gm__ float *)sorted, 128);
    mergedG.SetGlobalBuffer((__gm__ float *)merged, 128);
    htG.SetGlobalBuffer((__gm__ half *)ht, 256);
    cmpG.SetGlobalBuffer((__gm__ uint8_t *)cmp, 32);
    sumsG.SetGlobalBuffer((__gm__ float *)sums, 16);
    blocksG.SetGlobalBuffer((__gm__ float *)blocks, 16);
    pairsG.SetGlobalBuffer((__gm__ float *)pairs, 32);

    LocalMemAllocator<> ub;
    LocalTensor<float> xl = ub.Alloc<float, 64>();
    LocalTensor<uint32_t> offl = ub.Alloc<uint32_t, 64>();
    LocalTensor<uint32_t> bitl = ub.Alloc<uint32_t, 8>();
    LocalTensor<uint32_t> idxl = ub.Alloc<uint32_t, 64>();
    LocalTensor<half> hl = ub.Alloc<half, 256>();
    LocalTensor<float> g = ub.Alloc<float, 64>();
    LocalTensor<float> p = ub.Alloc<float, 64>();
    LocalTensor<float> e = ub.Alloc<float, 64>();
    LocalTensor<float> s = ub.Alloc<float, 128>();
    LocalTensor<float> m = ub.Alloc<float, 128>();
    LocalTensor<half> t = ub.Alloc<half, 256>();
    LocalTensor<uint8_t> c = ub.Alloc<uint8_t, 32>();
    LocalTensor<float> r = ub.Alloc<float, 16>();
    LocalTensor<float> b = ub.Alloc<float, 16>();
    LocalTensor<float> pr = ub.Alloc<float, 32>();
    DataCopy(xl, xG, 64);
    DataCopy(offl, offsG, 64);
    DataCopy(bitl, bitsG, 8);
    DataCopy(idxl, idxG, 64);
    DataCopy(hl, hG, 256);
    PipeBarrier<PIPE_ALL>();

    Gather(g, xl, offl, (uint32_t)0, 64);
    uint64_t n0 = 0, n1 = 0;
    GatherMask(p, xl, bitl, false, 0, {1, 1, 8, 0}, n0);
    GatherMask(e, xl, (uint8_t)1, false, 0, {1, 1, 8, 0}, n1);
    Sort32<float>(s, xl, idxl, 2);
    PipeBarrier<PIPE_V>();
    MrgSortSrcList<float> list(s, s[64], s[64], s[64]);
    uint16_t lens[4] = {32, 32, 0, 0};
    MrgSort4Info info(lens, false, 0b0011, 1);
    MrgSort<float>(m, list, info);
    Transpose<half>(t, hl);
    Compares(c, xl, 0.0f, CMPMODE::GT, 64);
    ReduceRepeat<ReduceType::SUM, float, float>(r, xl, 64, 1, 1, 1, 8);
    ReduceRepeat<ReduceType::MAX, float, float>(r[8], xl[32], 32, 1, 1, 1, 8,
                                                ReduceOrder::ORDER_ONLY_VALUE);
    ReduceDataBlock<ReduceType::SUM, float, float>(b, xl, 64, 1, 1, 1, 8);
    ReducePairElem<ReduceType::SUM, float, float>(pr, xl, 64, 1, 1, 1, 8);
    PipeBarrier<PIPE_ALL>();
    countsG.SetValue(0, (int32_t)n0);
    countsG.SetValue(1, (int32_t)n1);
    DataCopy(gatheredG, g, 64);
    DataCopy(packedG, p, 64);
    DataCopy(evensG, e, 32);
    DataCopy(sortedG, s, 128);
    DataCopy(mergedG, m, 128);
    DataCopy(htG, t, 256);
    DataCopy(cmpG, c, 32);
    DataCopy(sumsG, r, 16);
    DataCopy(blocksG, b, 16);
    DataCopy(pairsG, pr, 32);
}
"""


def _pairs(scores: np.ndarray, indices: np.ndarray) -> np.ndarray:
    """(score, index) pairs as the sort writes them, descending by score
    (a stable order for equal scores: the inputs here have none)."""
    order = np.argsort(-scores, kind="stable")
    out = np.empty((scores.size, 2), np.float32)
    out[:, 0] = scores[order]
    out[:, 1] = indices[order].view(np.float32)
    return out.reshape(-1)


@pytest.mark.parametrize("debug", [False, True], ids=["plain", "checked"])
def test_gather_sort_transpose_and_reductions_match_numpy(debug):
    rng = np.random.default_rng(21)
    x = rng.permutation(64).astype(np.float32) - 31.5  # distinct scores, half of them positive
    perm = rng.permutation(64)
    offs = (perm * 4).astype(np.uint32)
    bits = np.zeros(8, np.uint32)
    bits[:2] = rng.integers(0, 2**32, 2, dtype=np.uint64).astype(np.uint32)
    idx = np.arange(100, 164, dtype=np.uint32)
    h = rng.standard_normal(256).astype(np.float16)
    outs = dict(gathered=np.zeros(64, np.float32), packed=np.zeros(64, np.float32),
                evens=np.zeros(32, np.float32), counts=np.zeros(2, np.int32),
                sorted=np.zeros(128, np.float32), merged=np.zeros(128, np.float32),
                ht=np.zeros(256, np.float16), cmp=np.zeros(32, np.uint8),
                sums=np.zeros(16, np.float32), blocks=np.zeros(16, np.float32),
                pairs=np.zeros(32, np.float32))
    kernel = pyasc.ascendc.load(SRC, "forms", debug=debug)
    kernel[1](x, offs, bits, idx, h, *outs.values())

    np.testing.assert_array_equal(outs["gathered"], x[perm])
    selected = np.unpackbits(bits[:2].view(np.uint8), bitorder="little").astype(bool)
    n = int(selected.sum())
    assert outs["counts"][0] == n
    np.testing.assert_array_equal(outs["packed"][:n], x[selected])
    assert outs["counts"][1] == 32
    np.testing.assert_array_equal(outs["evens"], x[0::2])
    np.testing.assert_array_equal(outs["sorted"][:64], _pairs(x[:32], idx[:32]))
    np.testing.assert_array_equal(outs["sorted"][64:], _pairs(x[32:], idx[32:]))
    np.testing.assert_array_equal(outs["merged"], _pairs(x, idx))
    np.testing.assert_array_equal(outs["ht"], h.reshape(16, 16).T.reshape(-1))
    np.testing.assert_array_equal(np.unpackbits(outs["cmp"][:8], bitorder="little").astype(bool),
                                  x > 0)
    # multiples of 0.5 below 2**10: every order of summation is exact
    assert outs["sums"][0] == x.sum(dtype=np.float64)
    assert outs["sums"][8] == x[32:].max()
    np.testing.assert_array_equal(outs["blocks"][:8], x.reshape(8, 8).sum(axis=1))
    np.testing.assert_array_equal(outs["pairs"], x.reshape(32, 2).sum(axis=1))


def test_a_gather_offset_outside_src_fails_at_the_users_line():
    kernel = pyasc.ascendc.load(SRC, "forms")
    line = next(i for i, text in enumerate(SRC.splitlines(), 1) if "Gather(g, xl" in text)
    offs = np.full(64, 64 * 4, np.uint32)  # one past the last element
    args = [np.zeros(64, np.float32), offs, np.zeros(8, np.uint32), np.zeros(64, np.uint32),
            np.zeros(256, np.float16), np.zeros(64, np.float32), np.zeros(64, np.float32),
            np.zeros(32, np.float32), np.zeros(2, np.int32), np.zeros(128, np.float32),
            np.zeros(128, np.float32), np.zeros(256, np.float16), np.zeros(32, np.uint8),
            np.zeros(16, np.float32), np.zeros(16, np.float32), np.zeros(32, np.float32)]
    with pytest.raises(pyasc.KernelError, match=rf"<string>:{line}:.*gather"):
        kernel[1](*args)


INDEX_SRC = r"""
#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void vec_index(GM_ADDR f, GM_ADDR h, GM_ADDR i)
{
    GlobalTensor<float> fG;
    GlobalTensor<half> hG;
    GlobalTensor<int32_t> iG;
    fG.SetGlobalBuffer((__gm__ float *)f, 64);
    hG.SetGlobalBuffer((__gm__ half *)h, 128);
    iG.SetGlobalBuffer((__gm__ int32_t *)i, 64);
    LocalMemAllocator<> ub;
    LocalTensor<float> fl = ub.Alloc<float, 64>();
    LocalTensor<half> hl = ub.Alloc<half, 128>();
    LocalTensor<int32_t> il = ub.Alloc<int32_t, 64>();
    CreateVecIndex(fl, -2.5f, 64);
    CreateVecIndex(hl, (half)2040, 128);
    Duplicate(il, (int32_t)99, 64);
    PipeBarrier<PIPE_V>();
    CreateVecIndex(il, (int32_t)-7, 60);
    PipeBarrier<PIPE_ALL>();
    DataCopy(fG, fl, 64);
    DataCopy(hG, hl, 128);
    DataCopy(iG, il, 64);
}
"""


@pytest.mark.parametrize("debug", [False, True], ids=["plain", "checked"])
def test_create_vec_index_matches_numpy_arange(debug):
    f, h = np.zeros(64, np.float32), np.zeros(128, np.float16)
    i = np.zeros(64, np.int32)
    pyasc.ascendc.load(INDEX_SRC, "vec_index", debug=debug)[1](f, h, i)
    np.testing.assert_array_equal(f, np.arange(64, dtype=np.float64) - 2.5)
    # past 2048 half has a spacing of 2: each value rounds to even as a cast does
    np.testing.assert_array_equal(h, (2040 + np.arange(128, dtype=np.float64)).astype(np.float16))
    np.testing.assert_array_equal(i[:60], np.arange(-7, 53))
    np.testing.assert_array_equal(i[60:], 99)  # only count elements are written
