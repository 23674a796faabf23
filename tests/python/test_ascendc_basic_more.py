"""More of Ascend C's basic APIs on the simulated cores, each through the runtime: the
special register of ReduceSum (GetReduceRepeatSumSpr, GetAccVal), GroupBarrier, InitOutput and
Fill, the fixpipe's SetFixPipeConfig and SetFixpipeNz2ndFlag. Each kernel is our own, checked
against NumPy."""

from __future__ import annotations

import shutil

import numpy as np
import pytest

import pyasc
from test_ascendc_sys import CUBE_SRC

pytestmark = pytest.mark.skipif(shutil.which("c++") is None and shutil.which("g++") is None,
                                reason="no C++ compiler")

# out[0]: the register before any ReduceSum; out[1], out[2]: dst[0] and the register after a
# count-form ReduceSum of n elements; out[3]: the register after a mask-form ReduceSum, which
# does not set it; out[4]: GetAccVal.
SPR_SRC = r"""
#include "kernel_operator.h"
using namespace AscendC;

template <typename T>
__aicore__ inline void Spr(GM_ADDR x, GM_ADDR out, uint32_t n)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> sb, db, wb;
    pipe.InitBuffer(sb, 4096 * sizeof(T));
    pipe.InitBuffer(db, 64 * sizeof(T));
    pipe.InitBuffer(wb, 4096 * sizeof(T));
    GlobalTensor<T> xg;
    GlobalTensor<float> og;
    xg.SetGlobalBuffer((__gm__ T *)x);
    og.SetGlobalBuffer((__gm__ float *)out);
    LocalTensor<T> s = sb.Get<T>(), d = db.Get<T>(), w = wb.Get<T>();
    og.SetValue(0, (float)GetReduceRepeatSumSpr<T>());
    DataCopy(s, xg, 4096);
    SetFlag<HardEvent::MTE2_V>(EVENT_ID0);
    WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);
    ReduceSum<T>(d, s, w, n);
    SetFlag<HardEvent::V_S>(EVENT_ID0);
    WaitFlag<HardEvent::V_S>(EVENT_ID0);
    og.SetValue(1, (float)d.GetValue(0));
    og.SetValue(2, (float)GetReduceRepeatSumSpr<T>());
    SetFlag<HardEvent::S_V>(EVENT_ID0);
    WaitFlag<HardEvent::S_V>(EVENT_ID0);
    ReduceSum<T>(d, s, w, 32, 1, 8);
    SetFlag<HardEvent::V_S>(EVENT_ID1);
    WaitFlag<HardEvent::V_S>(EVENT_ID1);
    og.SetValue(3, (float)GetReduceRepeatSumSpr<T>());
    og.SetValue(4, (float)GetAccVal<T>());
}

extern "C" __global__ __aicore__ void spr_half(GM_ADDR x, GM_ADDR out, uint32_t n) { Spr<half>(x, out, n); }
extern "C" __global__ __aicore__ void spr_float(GM_ADDR x, GM_ADDR out, uint32_t n) { Spr<float>(x, out, n); }
"""


@pytest.mark.parametrize("debug", [False, True], ids=["plain", "checked"])
@pytest.mark.parametrize("dtype,n", [(np.float16, 300), (np.float32, 4000), (np.float32, 7)])
def test_reduce_sum_leaves_its_sum_in_the_register(dtype, n, debug):
    rng = np.random.default_rng(n)
    x = rng.uniform(-1, 1, 4096).astype(dtype)
    out = np.full(5, np.nan, np.float32)
    name = "spr_half" if dtype == np.float16 else "spr_float"
    pyasc.ascendc.load(SPR_SRC, name, debug=debug)[1](x, out, n)
    assert out[0] == 0
    assert out[1] == out[2] == out[3] == out[4]  # the count form's sum, kept past the mask form
    tol = 2e-2 if dtype == np.float16 else 1e-4
    np.testing.assert_allclose(out[2], x[:n].astype(np.float64).sum(), rtol=tol, atol=tol)


# GroupBarrier: blocks 0..2 arrive, blocks 3..7 wait, two rounds. Before each Arrive an arriver
# adds its round's value into out[0] (atomically); after each Wait a waiter copies out[0] into
# its slot: every arrival of the round is visible to it. InitOutput clears out first, Fill
# with the atomic add adds 5 to out[16..24) on block 0.
GROUP_SRC = r"""
#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void group(GM_ADDR ws, GM_ADDR out, GM_ADDR seen, GM_ADDR h)
{
    GroupBarrier<PipeMode::MTE3_MODE> bar(ws, 3, 5);
    GlobalTensor<int32_t> og, sg;
    GlobalTensor<half> hg;
    og.SetGlobalBuffer((__gm__ int32_t *)out, 64);
    sg.SetGlobalBuffer((__gm__ int32_t *)seen);
    hg.SetGlobalBuffer((__gm__ half *)h);
    if (GetBlockIdx() == 0) {
        InitOutput<int32_t>(og, 24, 0);
        InitOutput<half>(hg, 40, half(1.5f));
        AscendC::SetAtomicAdd<int32_t>();
        GlobalTensor<int32_t> tail = og[16];
        Fill<int32_t>(tail, 8, 5);
        AscendC::SetAtomicNone();
        sg.SetValue(16, (int32_t)bar.GetWorkspaceLen());
    }
    SyncAll();
    TPipe pipe;
    TBuf<TPosition::VECCALC> b;
    pipe.InitBuffer(b, 32);
    LocalTensor<int32_t> t = b.Get<int32_t>();
    int64_t id = GetBlockIdx();
    for (int round = 1; round <= 2; round++) {
        if (id < 3) {
            Duplicate(t, (int32_t)(round * 10 + id), 8);
            SetFlag<HardEvent::V_MTE3>(EVENT_ID0);
            WaitFlag<HardEvent::V_MTE3>(EVENT_ID0);
            SetAtomicAdd<int32_t>();
            DataCopy(og, t, 8);
            SetAtomicNone();
            PipeBarrier<PIPE_ALL>();
            bar.Arrive(id);
        } else {
            bar.Wait(id - 3);
            sg.SetValue((id - 3) * 2 + round - 1, og.GetValue(0));
        }
        SyncAll();
    }
}
"""


@pytest.mark.parametrize("debug", [False, True], ids=["plain", "checked"])
def test_group_barrier_rounds_and_init_output(debug):
    ws = np.zeros(5 * 512 // 4, np.int32)
    out = np.full(64, 7, np.int32)
    seen = np.full(17, -1, np.int32)
    h = np.zeros(48, np.float16)
    pyasc.ascendc.load(GROUP_SRC, "group", debug=debug)[8](ws, out, seen, h)
    round1 = sum(10 + i for i in range(3))
    round2 = round1 + sum(20 + i for i in range(3))
    assert seen[:10].tolist() == [round1, round2] * 5
    assert seen[16] == 5 * 512
    assert out[0] == round2 and (out[8:16] == 0).all() and (out[16:24] == 5).all()
    assert (out[24:] == 7).all()
    assert (h[:40] == 1.5).all() and (h[40:] == 0).all()
    # every waiter's messages: one per arrival per round
    assert ws.reshape(5, 128)[:, 0].tolist() == [6] * 5


def test_a_group_barrier_nobody_arrives_at_is_a_deadlock_at_its_line():
    source = GROUP_SRC.replace("bar.Arrive(id);", "")
    with pytest.raises(pyasc.KernelError, match=r"<string>:\d+: .*deadlock"):
        pyasc.ascendc.load(source, "group")[8](np.zeros(640, np.int32), np.zeros(64, np.int32),
                                               np.zeros(17, np.int32), np.zeros(48, np.float16))


def _unit_flag_source() -> str:
    """test_ascendc_sys's matmul with MmadParams/FixpipeParamsV220 unit flags and
    SetFixPipeConfig clearing them, and the NZ -> ND register for one matrix."""
    source = CUBE_SRC.replace("Mmad(co, a2, b2, MmadParams(M, N, K, 0, false, true));",
                              "Mmad(co, a2, b2, MmadParams(M, N, K, 3, false, true));")
    return source.replace(
        "Fixpipe(cGm, co, FixpipeParamsV220(N, M, M, N, false));",
        "SetFixpipeNz2ndFlag(1, 0, 0);\n"
        "    FixpipeParamsV220 fp(N, M, M, N, false);\n"
        "    fp.unitFlag = 3;\n"
        "    Fixpipe(cGm, co, fp);\n"
        "    SetFixPipeConfig<float>(co, true);")


@pytest.mark.parametrize("debug", [False, True], ids=["plain", "checked"])
def test_unit_flags_and_set_fix_pipe_config_leave_the_matmul_as_it_was(debug):
    rng = np.random.default_rng(8)
    a = rng.integers(-4, 5, (32, 32)).astype(np.float16)
    b = rng.integers(-4, 5, (32, 48)).astype(np.float16)
    c = np.zeros((32, 48), np.float32)
    pyasc.ascendc.load(_unit_flag_source(), "mm_alloc", debug=debug)[1](a, b, c)
    np.testing.assert_array_equal(c, a.astype(np.float64) @ b.astype(np.float64))


@pytest.mark.parametrize("form,message", [
    ("SetFixpipeNz2ndFlag(2, 1, 1);", "ndNum other than 1 is not simulated yet"),
    ("LocalTensor<uint64_t> fb(TPosition::C2PIPE2GM, 0, 16);", "fixpipe buffer"),
])
def test_what_the_fixpipe_lacks_fails_at_the_users_line(form, message):
    source = _unit_flag_source().replace("SetFixpipeNz2ndFlag(1, 0, 0);", form)
    line = next(i for i, text in enumerate(source.splitlines(), 1) if form in text)
    with pytest.raises(pyasc.KernelError, match=rf"<string>:{line}: .*{message}"):
        pyasc.ascendc.load(source, "mm_alloc")[1](np.zeros((32, 32), np.float16),
                                                  np.zeros((32, 48), np.float16),
                                                  np.zeros((32, 48), np.float32))


def _l1_source() -> str:
    """test_ascendc_sys's matmul with its result through L1: Fixpipe (NZ, float32 -> half)
    from L0C into a C1 tensor, then DataCopy from L1 straight to GM."""
    source = CUBE_SRC.replace("GlobalTensor<float> cGm;", "GlobalTensor<half> cGm;")
    source = source.replace("cGm.SetGlobalBuffer((__gm__ float *)c, M * N);",
                            "cGm.SetGlobalBuffer((__gm__ half *)c, M * N);")
    return source.replace(
        "Fixpipe(cGm, co, FixpipeParamsV220(N, M, M, N, false));",
        "LocalTensor<half> c1 = l1.Alloc<TPosition::C1, half>(M * N);\n"
        "    FixpipeParamsV220 fp(N, M, M, M * 16 * sizeof(half) / 32, false);\n"
        "    fp.quantPre = QuantMode_t::F322F16;\n"
        "    Fixpipe<half, float, CFG_NZ>(c1, co, fp);\n"
        "    SetFlag<HardEvent::FIX_MTE3>(EVENT_ID0);\n"
        "    WaitFlag<HardEvent::FIX_MTE3>(EVENT_ID0);\n"
        "    DataCopy(cGm, c1, DataCopyParams(1, M * N * sizeof(half) / 32, 0, 0));")


@pytest.mark.parametrize("debug", [False, True], ids=["plain", "checked"])
def test_fixpipe_into_l1_and_data_copy_from_l1_to_gm(debug):
    rng = np.random.default_rng(9)
    a = rng.integers(-4, 5, (32, 32)).astype(np.float16)
    b = rng.integers(-4, 5, (32, 48)).astype(np.float16)
    c = np.zeros(32 * 48, np.float16)
    pyasc.ascendc.load(_l1_source(), "mm_alloc", debug=debug)[1](a, b, c)
    want = (a.astype(np.float64) @ b.astype(np.float64)).astype(np.float16)
    # NZ: 16-column fractals one after the other, each M rows of 16
    np.testing.assert_array_equal(c, want.reshape(32, 3, 16).transpose(1, 0, 2).ravel())


def test_an_l1_copy_past_its_tensor_fails_at_the_users_line():
    source = _l1_source().replace("DataCopyParams(1, M * N * sizeof(half) / 32, 0, 0)",
                                  "DataCopyParams(2, M * N * sizeof(half) / 32, 0, 0)")
    line = next(i for i, text in enumerate(source.splitlines(), 1) if "DataCopyParams(2" in text)
    with pytest.raises(pyasc.KernelError, match=rf"<string>:{line}: data_copy: burst 1 lies past"):
        pyasc.ascendc.load(source, "mm_alloc")[1](np.zeros((32, 32), np.float16),
                                                  np.zeros((32, 48), np.float16),
                                                  np.zeros(2 * 32 * 48, np.float16))


@pytest.mark.parametrize("debug", [False, True], ids=["plain", "checked"])
def test_fill_on_a_cube_core_returns_at_once(debug):
    """CANN's Fill (InitGlobalMemory) fills from the UB, which a cube core lacks: on the AIC
    it returns at once (CANN's matmul_splitk Fills C in a __cube__ kernel, then adds to it
    atomically from every block)."""
    fixpipe = "Fixpipe(cGm, co, FixpipeParamsV220(N, M, M, N, false));"
    source = "#define ASCENDC_CUBE_ONLY\n" + CUBE_SRC.replace(
        fixpipe, fixpipe + "\n    PipeBarrier<PIPE_ALL>();\n    Fill<float>(cGm, 16, 9.0f);")
    assert "Fill<float>" in source
    rng = np.random.default_rng(9)
    a = rng.integers(-4, 5, (32, 32)).astype(np.float16)
    b = rng.integers(-4, 5, (32, 48)).astype(np.float16)
    c = np.zeros((32, 48), np.float32)
    pyasc.ascendc.load(source, "mm_alloc", debug=debug)[1](a, b, c)
    np.testing.assert_array_equal(c, a.astype(np.float64) @ b.astype(np.float64))
    c[:] = 0  # on a vector core the same Fill writes
    pyasc.ascendc.load(source.replace("#define ASCENDC_CUBE_ONLY\n", ""), "mm_alloc",
                       debug=debug)[1](a, b, c)
    assert (c.reshape(-1)[:16] == 9).all()


OPERATOR_SRC = r"""
#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void ops(GM_ADDR x, GM_ADDR y, GM_ADDR out, GM_ADDR bits)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> b0, b1, b2, b3, b4;
    pipe.InitBuffer(b0, 64 * sizeof(float));
    pipe.InitBuffer(b1, 64 * sizeof(float));
    pipe.InitBuffer(b2, 4 * 64 * sizeof(float));
    pipe.InitBuffer(b3, 2 * 64 * sizeof(int16_t));
    pipe.InitBuffer(b4, 2 * 64 * sizeof(int16_t));
    GlobalTensor<float> xg, yg, og;
    GlobalTensor<int16_t> bg;
    xg.SetGlobalBuffer((__gm__ float *)x);
    yg.SetGlobalBuffer((__gm__ float *)y);
    og.SetGlobalBuffer((__gm__ float *)out);
    bg.SetGlobalBuffer((__gm__ int16_t *)bits);
    LocalTensor<float> a = b0.Get<float>(), b = b1.Get<float>(), r = b2.Get<float>();
    LocalTensor<int16_t> i = b3.Get<int16_t>(), o = b4.Get<int16_t>();
    DataCopy(a, xg, 64);
    DataCopy(b, yg, 64);
    DataCopy(i, bg, 128);
    SetFlag<HardEvent::MTE2_V>(EVENT_ID0);
    WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);
    LocalTensor<float> sum = r[0], diff = r[64], prod = r[128], quot = r[192];
    sum.SetSize(64), diff.SetSize(64), prod.SetSize(64), quot.SetSize(64);
    sum = a + b;
    diff = a - b;
    prod = a * b;
    quot = a / b;
    LocalTensor<int16_t> ored = o[0], anded = o[64];
    ored.SetSize(64), anded.SetSize(64);
    LocalTensor<int16_t> j = i[64];
    i.SetSize(64);
    ored = i | j;
    anded = i & j;
    SetFlag<HardEvent::V_MTE3>(EVENT_ID0);
    WaitFlag<HardEvent::V_MTE3>(EVENT_ID0);
    DataCopy(og, r, 256);
    DataCopy(bg[128], o, 128);
}
"""


@pytest.mark.parametrize("debug", [False, True], ids=["plain", "checked"])
def test_local_tensor_operators_run_over_the_whole_destination(debug):
    """LocalTensor's +, -, *, /, |, & (Ascend C's symbol overloads, CANN's
    matmul_partial_output sums partial blocks with +): the binary count form over
    dst.GetSize() elements, run by the assignment."""
    rng = np.random.default_rng(23)
    x = rng.uniform(-4, 4, 64).astype(np.float32)
    y = rng.uniform(1, 4, 64).astype(np.float32)
    bits = np.zeros(256, np.int16)
    bits[:128] = rng.integers(-2000, 2000, 128)
    out = np.zeros(256, np.float32)
    pyasc.ascendc.load(OPERATOR_SRC, "ops", debug=debug)[1](x, y, out, bits)
    np.testing.assert_array_equal(out.reshape(4, 64), [x + y, x - y, x * y, x / y])
    i, j = bits[:64], bits[64:128]
    np.testing.assert_array_equal(bits[128:192], i | j)
    np.testing.assert_array_equal(bits[192:], i & j)
