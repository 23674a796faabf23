"""Ascend C's system and static-memory APIs on the simulated cores
(include/ascendc/kernel_operator/sys.h), as CANN's examples use them:
InitSocState, EVENT_ID*, block_idx, LocalMemAllocator (the UB and the cube's
L1/L0A/L0B/L0C), IsSameType, DivCeil, ONE_BLK_SIZE, DisableDmaAtomic,
SetPadValue, Brcb, Read/WriteGmByPassDCache, printf and __NPU_ARCH__; each
kernel is our own, checked against NumPy."""

from __future__ import annotations

import shutil

import numpy as np
import pytest

import pyasc

pytestmark = pytest.mark.skipif(shutil.which("c++") is None and shutil.which("g++") is None,
                                reason="no C++ compiler")

# z = x + y on 4 blocks, a block's tiles placed by LocalMemAllocator and ordered by
# EVENT_ID0 flags; the block's offset from the device compiler's block_idx.
ADD_SRC = r"""
#include "kernel_operator.h"

constexpr uint32_t BLOCK = 512;
static_assert(AscendC::IsSameType<float, float>::value && !AscendC::IsSameType<float, half>::value);
static_assert(AscendC::DivCeil(BLOCK * sizeof(float), AscendC::ONE_BLK_SIZE) == 64);

extern "C" __global__ __aicore__ void add_alloc(GM_ADDR x, GM_ADDR y, GM_ADDR z)
{
    AscendC::InitSocState();
    AscendC::DisableDmaAtomic();
    AscendC::GlobalTensor<float> xGm, yGm, zGm;
    xGm.SetGlobalBuffer((__gm__ float *)x + block_idx * BLOCK, BLOCK);
    yGm.SetGlobalBuffer((__gm__ float *)y + block_idx * BLOCK, BLOCK);
    zGm.SetGlobalBuffer((__gm__ float *)z + block_idx * BLOCK, BLOCK);
    xGm.SetL2CacheHint(AscendC::CacheMode::CACHE_MODE_DISABLE);  // no L2 here: a hint only
    AscendC::LocalMemAllocator<AscendC::Hardware::UB> ub;
    AscendC::LocalTensor<float> xl = ub.Alloc<AscendC::TPosition::VECIN, float>(BLOCK);
    AscendC::LocalTensor<float> yl = ub.Alloc<float, BLOCK>();
    AscendC::LocalTensor<float> zl = ub.Alloc<float>(BLOCK);
    if (ub.GetCurAddr() != 3 * BLOCK * sizeof(float) || zl.GetPhyAddr() != 2 * BLOCK * sizeof(float))
        AscendC::Trap();
    AscendC::DataCopy(xl, xGm, BLOCK);
    AscendC::DataCopy(yl, yGm, BLOCK);
    AscendC::SetFlag<AscendC::HardEvent::MTE2_V>(EVENT_ID0);
    AscendC::WaitFlag<AscendC::HardEvent::MTE2_V>(EVENT_ID0);
    AscendC::Add(zl, xl, yl, BLOCK);
    AscendC::SetFlag<AscendC::HardEvent::V_MTE3>(EVENT_ID1);
    AscendC::WaitFlag<AscendC::HardEvent::V_MTE3>(EVENT_ID1);
    AscendC::DataCopy(zGm, zl, BLOCK);
}
"""


@pytest.mark.parametrize("debug", [False, True], ids=["plain", "checked"])
def test_local_mem_allocator_in_the_ub_with_event_ids_and_block_idx(debug):
    rng = np.random.default_rng(3)
    x, y = rng.standard_normal(4 * 512).astype(np.float32), rng.standard_normal(4 * 512).astype(np.float32)
    z = np.zeros_like(x)
    pyasc.ascendc.load(ADD_SRC, "add_alloc", debug=debug)[4](x, y, z)
    np.testing.assert_array_equal(z, x + y)


def test_a_missing_event_is_still_reported_in_checked_mode():
    source = ADD_SRC.replace("AscendC::WaitFlag<AscendC::HardEvent::MTE2_V>(EVENT_ID0);", "")
    kernel = pyasc.ascendc.load(source, "add_alloc", debug=True)
    x = np.ones(4 * 512, np.float32)
    with pytest.raises(pyasc.KernelError):
        kernel[4](x, x.copy(), np.zeros_like(x))


# C = A B (M x K by K x N, half in, float out) with every cube buffer laid out by a
# LocalMemAllocator: ND -> NZ into L1, L1 -> L0A/L0B, Mmad, Fixpipe to GM as ND.
CUBE_SRC = r"""
#include "kernel_operator.h"
using namespace AscendC;

constexpr uint32_t M = 32, N = 48, K = 32, FRACTAL = 16 * 16;

extern "C" __global__ __cube__ void mm_alloc(GM_ADDR a, GM_ADDR b, GM_ADDR c)
{
    InitSocState();
    GlobalTensor<half> aGm, bGm;
    GlobalTensor<float> cGm;
    aGm.SetGlobalBuffer((__gm__ half *)a, M * K);
    bGm.SetGlobalBuffer((__gm__ half *)b, K * N);
    cGm.SetGlobalBuffer((__gm__ float *)c, M * N);
    LocalMemAllocator<Hardware::L1> l1;
    LocalMemAllocator<Hardware::L0A> l0a;
    LocalMemAllocator<Hardware::L0B> l0b;
    LocalMemAllocator<Hardware::L0C> l0c;
    LocalTensor<half> a1 = l1.Alloc<TPosition::A1, half>(M * K);
    LocalTensor<half> b1 = l1.Alloc<TPosition::B1, half>(K * N);
    LocalTensor<half> a2 = l0a.Alloc<TPosition::A2, half>(M * K);
    LocalTensor<half> b2 = l0b.Alloc<half, K * N>();
    LocalTensor<float> co = l0c.Alloc<TPosition::CO1, float>(M * N);
    DataCopy(a1, aGm, Nd2NzParams(1, M, K, 0, K, M, 1, 0));
    DataCopy(b1, bGm, Nd2NzParams(1, K, N, 0, N, K, 1, 0));
    SetFlag<HardEvent::MTE2_MTE1>(EVENT_ID0);
    WaitFlag<HardEvent::MTE2_MTE1>(EVENT_ID0);
#if __NPU_ARCH__ == 2201
    for (uint32_t i = 0; i < M / 16; ++i)
        LoadData(a2[i * K * 16], a1[i * FRACTAL], LoadData2DParams(0, K / 16, M / 16, 0, 0, false, 0));
    for (uint32_t i = 0; i < K / 16; ++i)
        LoadData(b2[i * N * 16], b1[i * FRACTAL], LoadData2DParams(0, N / 16, K / 16, 0, 0, true, 0));
#endif
    SetFlag<HardEvent::MTE1_M>(EVENT_ID0);
    WaitFlag<HardEvent::MTE1_M>(EVENT_ID0);
    Mmad(co, a2, b2, MmadParams(M, N, K, 0, false, true));
    SetFlag<HardEvent::M_FIX>(EVENT_ID0);
    WaitFlag<HardEvent::M_FIX>(EVENT_ID0);
    Fixpipe(cGm, co, FixpipeParamsV220(N, M, M, N, false));
}
"""


@pytest.mark.parametrize("debug", [False, True], ids=["plain", "checked"])
def test_local_mem_allocator_in_the_cube_buffers_runs_a_matmul(debug):
    rng = np.random.default_rng(5)
    a = rng.integers(-4, 5, (32, 32)).astype(np.float16)
    b = rng.integers(-4, 5, (32, 48)).astype(np.float16)
    c = np.zeros((32, 48), np.float32)
    pyasc.ascendc.load(CUBE_SRC, "mm_alloc", debug=debug)[1](a, b, c)
    np.testing.assert_array_equal(c, a.astype(np.float64) @ b.astype(np.float64))


def test_a_static_tensor_past_l0a_fails_at_the_users_line():
    source = CUBE_SRC.replace("l0a.Alloc<TPosition::A2, half>(M * K);",
                              "l0a.Alloc<TPosition::A2, half>(40000);")
    line = next(i for i, text in enumerate(source.splitlines(), 1) if "(40000)" in text)
    kernel = pyasc.ascendc.load(source, "mm_alloc")
    with pytest.raises(pyasc.KernelError, match=rf"<string>:{line}:.*L0A"):
        kernel[1](np.zeros((32, 32), np.float16), np.zeros((32, 48), np.float16),
                  np.zeros((32, 48), np.float32))


# Brcb, SetPadValue with DataCopyPad, the GM accesses past the cache, printf and __NPU_ARCH__.
MISC_SRC = r"""
#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void misc(GM_ADDR src, GM_ADDR brcb, GM_ADDR rows, GM_ADDR padded,
                                           GM_ADDR scalars)
{
    InitSocState();
    GlobalTensor<float> srcGm, brcbGm, rowsGm, paddedGm;
    srcGm.SetGlobalBuffer((__gm__ float *)src, 16);
    brcbGm.SetGlobalBuffer((__gm__ float *)brcb, 128);
    rowsGm.SetGlobalBuffer((__gm__ float *)rows, 15);
    paddedGm.SetGlobalBuffer((__gm__ float *)padded, 24);
    LocalMemAllocator<> ub;
    LocalTensor<float> s = ub.Alloc<float, 16>();
    LocalTensor<float> d = ub.Alloc<float, 128>();
    LocalTensor<float> p = ub.Alloc<float, 24>();
    DataCopy(s, srcGm, 16);
    Duplicate(p, -1.0f, 24);
    PipeBarrier<PIPE_ALL>();
    Brcb(d, s, 2, {1, 8});
    SetPadValue(7.5f);
    DataCopyExtParams rowParams(3, 5 * sizeof(float), 0, 0, 0);
    DataCopyPad(p, rowsGm, rowParams, DataCopyPadExtParams<float>(false, 0, 0, 0.0f));
    PipeBarrier<PIPE_ALL>();
    DataCopy(brcbGm, d, 128);
    DataCopy(paddedGm, p, 24);
    __gm__ int32_t *sc = (__gm__ int32_t *)scalars;
    WriteGmByPassDCache(sc + 1, ReadGmByPassDCache(sc) * 3);
    WriteGmByPassDCache(sc + 2, (int32_t)__NPU_ARCH__);
    AscendC::printf("misc block %d of %d: %d\n", (int)GetBlockIdx(), (int)block_num, ReadGmByPassDCache(sc + 1));
}
"""


def test_brcb_set_pad_value_gm_scalars_and_printf(capfd):
    rng = np.random.default_rng(9)
    src = rng.standard_normal(16).astype(np.float32)
    rows = rng.standard_normal(15).astype(np.float32)
    brcb, padded = np.zeros(128, np.float32), np.zeros(24, np.float32)
    scalars = np.array([14, 0, 0], np.int32)
    pyasc.ascendc.load(MISC_SRC, "misc")[1](src, brcb, rows, padded, scalars)
    # each source element fills one 32-byte block (8 floats)
    np.testing.assert_array_equal(brcb, np.repeat(src, 8))
    # three 5-float rows, each starting on a 32-byte boundary; the rest of the block is the
    # pad value
    want = np.full((3, 8), 7.5, np.float32)
    want[:, :5] = rows.reshape(3, 5)
    np.testing.assert_array_equal(padded, want.reshape(-1))
    np.testing.assert_array_equal(scalars, [14, 42, 2201])
    assert "misc block 0 of 1: 42" in capfd.readouterr().out


def test_without_set_pad_value_the_row_tail_is_left_as_it_was():
    source = MISC_SRC.replace("SetPadValue(7.5f);", "")
    padded = np.zeros(24, np.float32)
    rows = np.arange(15, dtype=np.float32)
    pyasc.ascendc.load(source, "misc")[1](np.zeros(16, np.float32), np.zeros(128, np.float32), rows,
                                          padded, np.zeros(3, np.int32))
    want = np.full((3, 8), -1.0, np.float32)
    want[:, :5] = rows.reshape(3, 5)
    np.testing.assert_array_equal(padded, want.reshape(-1))


def test_a_gm_scalar_outside_every_argument_fails_in_checked_mode():
    source = MISC_SRC.replace("WriteGmByPassDCache(sc + 1,", "WriteGmByPassDCache(sc + 100000,")
    kernel = pyasc.ascendc.load(source, "misc", debug=True)
    with pytest.raises(pyasc.KernelError):
        kernel[1](np.zeros(16, np.float32), np.zeros(128, np.float32), np.zeros(15, np.float32),
                  np.zeros(24, np.float32), np.zeros(3, np.int32))


def test_data_copy_params_from_gm_into_l1_with_a_source_stride():
    # A arrives already in L1's NZ order, in two 1024-byte bursts with one 32-byte block of
    # padding between them in global memory (srcStride 1).
    source = CUBE_SRC.replace(
        "DataCopy(a1, aGm, Nd2NzParams(1, M, K, 0, K, M, 1, 0));",
        "DataCopy(a1, aGm, DataCopyParams(2, M * K * sizeof(half) / 64, 1, 0));").replace(
        "aGm.SetGlobalBuffer((__gm__ half *)a, M * K);",
        "aGm.SetGlobalBuffer((__gm__ half *)a, M * K + 16);")
    rng = np.random.default_rng(8)
    a = rng.integers(-4, 5, (32, 32)).astype(np.float16)
    b = rng.integers(-4, 5, (32, 48)).astype(np.float16)
    a_nz = a.reshape(32, 2, 16).transpose(1, 0, 2).reshape(-1)
    padded = np.concatenate([a_nz[:512], np.full(16, 99, np.float16), a_nz[512:]])
    c = np.zeros((32, 48), np.float32)
    pyasc.ascendc.load(source, "mm_alloc", debug=True)[1](padded, b, c)
    np.testing.assert_array_equal(c, a.astype(np.float64) @ b.astype(np.float64))


# Block 1 waits on block 0's flag (IBWait) before it reads what block 0 wrote.
IB_SRC = r"""
#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void ib_order(GM_ADDR data, GM_ADDR work)
{
    GlobalTensor<int32_t> dataGm, workGm;
    dataGm.SetGlobalBuffer((__gm__ int32_t *)data, 2);
    workGm.SetGlobalBuffer((__gm__ int32_t *)work, 256);
    LocalTensor<int32_t> ub(TPosition::VECCALC, 0, 64);
    if (GetBlockIdx() == 0) {
        dataGm.SetValue(0, 41);
        IBSet(workGm, ub, 0, 0);
    } else {
        IBWait(workGm, ub, 0, 0);
        dataGm.SetValue(1, dataGm.GetValue(0) + 1);
    }
}
"""


@pytest.mark.parametrize("debug", [False, True], ids=["plain", "checked"])
def test_ib_set_and_ib_wait_order_two_blocks(debug):
    data, work = np.zeros(2, np.int32), np.zeros(256, np.int32)
    pyasc.ascendc.load(IB_SRC, "ib_order", debug=debug)[2](data, work)
    np.testing.assert_array_equal(data, [41, 42])


def test_an_ib_wait_nobody_sets_is_reported():
    source = IB_SRC.replace("IBSet(workGm, ub, 0, 0);", "")
    with pytest.raises(pyasc.KernelError, match="ib_wait"):
        pyasc.ascendc.load(source, "ib_order")[2](np.zeros(2, np.int32), np.zeros(256, np.int32))


def test_load_data_3d_v2_moves_a_into_l0a_through_img2col(capfd):
    # A's NZ tile in L1 read as a 1 x M feature map of K channels with a 1 x 1 filter: img2col
    # gives A itself in L0A's order; DumpTensor prints the first row of C from L0C's output
    source = CUBE_SRC.replace(
        "    for (uint32_t i = 0; i < M / 16; ++i)\n"
        "        LoadData(a2[i * K * 16], a1[i * FRACTAL], LoadData2DParams(0, K / 16, M / 16, 0, 0, "
        "false, 0));\n",
        "    LoadData3DParamsV2<half> p;\n"
        "    p.l1H = 1; p.l1W = M; p.channelSize = K; p.kExtension = K; p.mExtension = M;\n"
        "    LoadData(a2, a1, p);\n").replace(
        "    Fixpipe(cGm, co, FixpipeParamsV220(N, M, M, N, false));",
        "    Fixpipe(cGm, co, FixpipeParamsV220(N, M, M, N, false));\n"
        "    PipeBarrier<PIPE_ALL>();\n    DumpTensor(cGm, 7, 3);")
    assert "LoadData3DParamsV2" in source and "DumpTensor" in source
    rng = np.random.default_rng(12)
    a = rng.integers(-4, 5, (32, 32)).astype(np.float16)
    b = rng.integers(-4, 5, (32, 48)).astype(np.float16)
    c = np.zeros((32, 48), np.float32)
    pyasc.ascendc.load(source, "mm_alloc", debug=True)[1](a, b, c)
    ref = a.astype(np.float64) @ b.astype(np.float64)
    np.testing.assert_array_equal(c, ref)
    out = capfd.readouterr().out
    assert "DumpTensor: block 0 desc=7 size=3: " + " ".join(f"{v:g}" for v in ref[0, :3]) in out


def test_dump_tensor_prints_l1_and_l0c_tensors(capfd):
    """CANN's DumpTensor takes UB, L1, L0C and GM tensors: A's NZ tile in L1
    starts with the start of A's first row, L0C's first fractal holds C's
    first 16 x 16 block row by row."""
    source = CUBE_SRC.replace(
        "    Fixpipe(cGm, co, FixpipeParamsV220(N, M, M, N, false));",
        "    Fixpipe(cGm, co, FixpipeParamsV220(N, M, M, N, false));\n"
        "    PipeBarrier<PIPE_ALL>();\n    DumpTensor(a1, 8, 4);\n    DumpTensor(co, 9, 70);")
    rng = np.random.default_rng(13)
    a = rng.integers(-4, 5, (32, 32)).astype(np.float16)
    b = rng.integers(-4, 5, (32, 48)).astype(np.float16)
    c = np.zeros((32, 48), np.float32)
    pyasc.ascendc.load(source, "mm_alloc", debug=True)[1](a, b, c)
    ref = a.astype(np.float64) @ b.astype(np.float64)
    out = capfd.readouterr().out
    assert "DumpTensor: block 0 desc=8 size=4: " + " ".join(f"{v:g}" for v in a[0, :4]) in out
    # 70 values: L0C's first 16 x 16 fractal row by row, past the 64 of one read
    first = ref[:16, :16].ravel()[:70]
    assert "DumpTensor: block 0 desc=9 size=70: " + " ".join(f"{v:g}" for v in first) in out


def test_dump_tensor_of_l0a_is_an_error():
    source = CUBE_SRC.replace(
        "    Fixpipe(cGm, co, FixpipeParamsV220(N, M, M, N, false));",
        "    Fixpipe(cGm, co, FixpipeParamsV220(N, M, M, N, false));\n    DumpTensor(a2, 8, 4);")
    z = np.zeros((32, 32), np.float16)
    with pytest.raises(pyasc.KernelError, match=r"DumpTensor: tensor must be a LocalTensor in L1 "
                                                r"\(A1/B1/C1\) or L0C \(CO1\)"):
        pyasc.ascendc.load(source, "mm_alloc", debug=True)[1](z, np.zeros((32, 48), np.float16),
                                                              np.zeros((32, 48), np.float32))


# DataCopyPad with DataCopyParams and DataCopyPadParams (the padding value as the element's
# bits): 3 rows of 5 floats, 6 apart in GM, each padded by 1 left and 2 right with 5.0 in the
# UB, then written back as 3 rows of 8 with DataCopyPad's UB -> GM form.
PAD_SRC = r"""
#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void pad_rows(GM_ADDR src, GM_ADDR dst)
{
    GlobalTensor<float> srcGm, dstGm;
    srcGm.SetGlobalBuffer((__gm__ float *)src, 18);
    dstGm.SetGlobalBuffer((__gm__ float *)dst, 24);
    LocalMemAllocator<> ub;
    LocalTensor<float> rows = ub.Alloc<float, 24>();
    DataCopyParams in(3, 5 * sizeof(float), sizeof(float), 0);
    DataCopyPad(rows, srcGm, in, DataCopyPadParams(true, 1, 2, 0x40a00000u));
    PipeBarrier<PIPE_ALL>();
    DataCopyPad(dstGm, rows, DataCopyParams(3, 8 * sizeof(float), 0, 0));
}
"""


@pytest.mark.parametrize("debug", [False, True], ids=["plain", "checked"])
def test_data_copy_pad_with_data_copy_params_and_pad_params(debug):
    src = np.arange(18, dtype=np.float32) + 1
    dst = np.zeros(24, np.float32)
    pyasc.ascendc.load(PAD_SRC, "pad_rows", debug=debug)[1](src, dst)
    want = np.full((3, 8), 5.0, np.float32)
    want[:, 1:6] = src.reshape(3, 6)[:, :5]
    np.testing.assert_array_equal(dst, want.reshape(-1))


# DataCopy with SliceInfo lists: from a 2 x 24 GM matrix, two 8-float bursts 8 apart in each
# row into 32 contiguous UB floats, then back to those places of another 2 x 24 matrix.
SLICE_SRC = r"""
#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void slices(GM_ADDR src, GM_ADDR packed, GM_ADDR back)
{
    GlobalTensor<float> srcGm, packedGm, backGm;
    srcGm.SetGlobalBuffer((__gm__ float *)src, 48);
    packedGm.SetGlobalBuffer((__gm__ float *)packed, 32);
    backGm.SetGlobalBuffer((__gm__ float *)back, 48);
    LocalTensor<float> ub(TPosition::VECIN, 0, 32);
    SliceInfo gm[K_MAX_DIM] = {{0, 23, 8, 1, 24}, {0, 1, 0, 1, 2}};
    SliceInfo local[K_MAX_DIM] = {{0, 15, 0, 1, 16}, {0, 1, 0, 1, 2}};
    DataCopy(ub, srcGm, local, gm, 2);
    PipeBarrier<PIPE_ALL>();
    DataCopy(packedGm, ub, 32);
    DataCopy(backGm, ub, gm, local, 2);
}
"""


@pytest.mark.parametrize("debug", [False, True], ids=["plain", "checked"])
def test_data_copy_with_slice_info_lists(debug):
    src = np.arange(48, dtype=np.float32)
    packed, back = np.zeros(32, np.float32), np.full(48, -1, np.float32)
    pyasc.ascendc.load(SLICE_SRC, "slices", debug=debug)[1](src, packed, back)
    picked = np.zeros(48, bool)
    for row in range(2):
        for start in (0, 16):
            picked[row * 24 + start:row * 24 + start + 8] = True
    np.testing.assert_array_equal(packed, src[picked])
    np.testing.assert_array_equal(back, np.where(picked, src, -1))
