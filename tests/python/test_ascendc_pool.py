"""Ascend C's memory-pool APIs on the simulated cores (include/ascendc/kernel_operator/pool.h):
TPipe::InitBufPool, TBufPool (InitBuffer, InitBufPool with and without a shared pool, Reset)
and a custom pool (EXTERN_IMPL_BUFPOOL, InitStartBufHandle/InitBufHandle). Each kernel is our
own, checked against NumPy and against the addresses Ascend C's documentation gives."""

from __future__ import annotations

import shutil

import numpy as np
import pytest

import pyasc

pytestmark = pytest.mark.skipif(shutil.which("c++") is None and shutil.which("g++") is None,
                                reason="no C++ compiler")

N = 256

# Phase 1 in pool1: z0 = x + y. Phase 2 in pool2, which shares pool1's bytes: z1 = x * y.
# Phase 3 in pool3, a sub-pool of pool0 after a 1 KiB TBuf: z2 = x - y. addr receives the
# UB byte address of each phase's first buffer, and of pool3's second buffer.
POOL_SRC = r"""
#include "kernel_operator.h"
using namespace AscendC;

constexpr uint32_t N = 256, BYTES = N * sizeof(float);

template <class Q>
__aicore__ inline void Run(Q &a, Q &b, TQue<TPosition::VECOUT, 1> &c, GlobalTensor<float> &x,
                           GlobalTensor<float> &y, GlobalTensor<float> &z, int op,
                           GlobalTensor<int32_t> &addr, int slot)
{
    LocalTensor<float> al = a.template AllocTensor<float>(), bl = b.template AllocTensor<float>();
    addr.SetValue(slot, (int32_t)al.GetPhyAddr());
    DataCopy(al, x, N);
    DataCopy(bl, y, N);
    a.EnQue(al);
    b.EnQue(bl);
    al = a.template DeQue<float>();
    bl = b.template DeQue<float>();
    LocalTensor<float> cl = c.AllocTensor<float>();
    if (op == 0) Add(cl, al, bl, N);
    else if (op == 1) Mul(cl, al, bl, N);
    else Sub(cl, al, bl, N);
    c.EnQue(cl);
    a.FreeTensor(al);
    b.FreeTensor(bl);
    cl = c.DeQue<float>();
    DataCopy(z, cl, N);
    c.FreeTensor(cl);
}

extern "C" __global__ __aicore__ void pools(GM_ADDR x, GM_ADDR y, GM_ADDR z, GM_ADDR addr)
{
    TPipe pipe;
    GlobalTensor<float> xg, yg, z0, z1, z2;
    GlobalTensor<int32_t> ag;
    xg.SetGlobalBuffer((__gm__ float *)x);
    yg.SetGlobalBuffer((__gm__ float *)y);
    z0.SetGlobalBuffer((__gm__ float *)z);
    z1.SetGlobalBuffer((__gm__ float *)z + N);
    z2.SetGlobalBuffer((__gm__ float *)z + 2 * N);
    ag.SetGlobalBuffer((__gm__ int32_t *)addr);
    TBuf<TPosition::VECCALC> first;
    pipe.InitBuffer(first, 96);  // 96 bytes: the pools start at 96
    TBufPool<TPosition::VECCALC> pool0, pool1, pool2;
    TBufPool<TPosition::VECCALC, 3> pool3;
    TQue<TPosition::VECIN, 1> a, b, a2, b2;
    TQue<TPosition::VECOUT, 1> c, c2;

    pipe.InitBufPool(pool1, 3 * BYTES);
    pipe.InitBufPool(pool2, 3 * BYTES, pool1);
    pool1.InitBuffer(a, 1, BYTES);
    pool1.InitBuffer(b, 1, BYTES);
    pool1.InitBuffer(c, 1, BYTES);
    Run(a, b, c, xg, yg, z0, 0, ag, 0);
    pool1.Reset();
    pool2.InitBuffer(a2, 1, BYTES);
    pool2.InitBuffer(b2, 1, BYTES);
    pool2.InitBuffer(c2, 1, BYTES);
    Run(a2, b2, c2, xg, yg, z1, 1, ag, 1);
    pool2.Reset();

    pipe.InitBufPool(pool0, 1024 + 3 * BYTES + 10);  // rounded up to 32 bytes
    TBuf<TPosition::VECCALC> pad;
    pool0.InitBuffer(pad, 1000);                     // 1024 bytes
    pool0.InitBufPool(pool3, 3 * BYTES);
    pool3.InitBuffer(a, 1, BYTES);
    pool3.InitBuffer(b, 1, BYTES);
    pool3.InitBuffer(c, 1, BYTES);
    LocalTensor<float> second = b.AllocTensor<float>();
    ag.SetValue(3, (int32_t)second.GetPhyAddr());
    b.FreeTensor(second);
    Run(a, b, c, xg, yg, z2, 2, ag, 2);
    pool3.Reset();
    pool0.Reset();
}
"""


@pytest.mark.parametrize("debug", [False, True], ids=["plain", "checked"])
def test_tbuf_pools_share_nest_and_reset(debug):
    rng = np.random.default_rng(5)
    x, y = rng.standard_normal(N).astype(np.float32), rng.standard_normal(N).astype(np.float32)
    z = np.zeros(3 * N, np.float32)
    addr = np.full(4, -1, np.int32)
    pyasc.ascendc.load(POOL_SRC, "pools", debug=debug)[1](x, y, z, addr)
    np.testing.assert_array_equal(z, np.concatenate([x + y, x * y, x - y]))
    byte_len = N * 4
    # pool1 and pool2 start after the 96-byte TBuf; pool0 after both (3 buffers), pool3
    # after pool0's 1024-byte TBuf
    pool0 = 96 + 3 * byte_len
    assert addr.tolist() == [96, 96, pool0 + 1024, pool0 + 1024 + byte_len]


# A custom pool that lays its blocks out backwards from the end of its memory (a layout
# TBufPool cannot make): z = x + y through two queues and a TBuf.
CUSTOM_SRC = r"""
#include "kernel_operator.h"
using namespace AscendC;

constexpr uint32_t N = 256, BYTES = N * sizeof(float);

class Backwards {
public:
    __aicore__ inline Backwards() { Init(); }
    template <class T>
    __aicore__ inline bool InitBuffer(T &que, uint8_t num, uint32_t len)
    {
        auto handle = GetBufHandle(GetCurBufSize());
        que.InitStartBufHandle(handle, num, len);
        for (uint8_t i = 0; i < num; i++) {
            end -= len;
            que.InitBufHandle(this, i, handle, end, len);
        }
        SetCurBufSize(GetCurBufSize() + num);
        return true;
    }
    template <TPosition pos>
    __aicore__ inline bool InitBuffer(TBuf<pos> &buf, uint32_t len)
    {
        auto handle = GetBufHandle(GetCurBufSize());
        end -= len;
        buf.InitStartBufHandle(handle, 1, len);
        buf.InitBufHandle(this, 0, handle, end, len);
        SetCurBufSize(GetCurBufSize() + 1);
        return true;
    }
    __aicore__ inline void Start(uint32_t bytes) { end = GetCurAddr() + bytes; }
    uint32_t end = 0;
    EXTERN_IMPL_BUFPOOL(Backwards, TPosition::VECCALC, 8);
};

extern "C" __global__ __aicore__ void custom(GM_ADDR x, GM_ADDR y, GM_ADDR z, GM_ADDR addr)
{
    TPipe pipe;
    GlobalTensor<float> xg, yg, zg;
    GlobalTensor<int32_t> ag;
    xg.SetGlobalBuffer((__gm__ float *)x);
    yg.SetGlobalBuffer((__gm__ float *)y);
    zg.SetGlobalBuffer((__gm__ float *)z);
    ag.SetGlobalBuffer((__gm__ int32_t *)addr);
    TBuf<TPosition::VECCALC> first;
    pipe.InitBuffer(first, 64);
    Backwards pool;
    pipe.InitBufPool(pool, 4 * BYTES);
    pool.Start(4 * BYTES);
    TQue<TPosition::VECIN, 2> a;
    TQue<TPosition::VECOUT, 1> c;
    TBuf<TPosition::VECCALC> yb;
    pool.InitBuffer(a, 2, BYTES);  // blocks at 64 + 3 BYTES and 64 + 2 BYTES
    pool.InitBuffer(yb, BYTES);    // 64 + BYTES
    pool.InitBuffer(c, 1, BYTES);  // 64
    ag.SetValue(0, pool.GetCurBufSize());
    LocalTensor<float> a0 = a.AllocTensor<float>(), a1 = a.AllocTensor<float>();
    LocalTensor<float> yl = yb.Get<float>();
    ag.SetValue(1, (int32_t)a0.GetPhyAddr());
    ag.SetValue(2, (int32_t)a1.GetPhyAddr());
    ag.SetValue(3, (int32_t)yl.GetPhyAddr());
    DataCopy(a0, xg, N);
    DataCopy(yl, yg, N);
    a.EnQue(a0);
    a.FreeTensor(a1);
    a0 = a.DeQue<float>();
    LocalTensor<float> cl = c.AllocTensor<float>();
    ag.SetValue(4, (int32_t)cl.GetPhyAddr());
    Add(cl, a0, yl, N);
    c.EnQue(cl);
    a.FreeTensor(a0);
    cl = c.DeQue<float>();
    DataCopy(zg, cl, N);
    c.FreeTensor(cl);
    pool.Reset();
    ag.SetValue(5, pool.GetCurBufSize());
    ag.SetValue(6, pool.GetCurAddr());
}
"""


@pytest.mark.parametrize("debug", [False, True], ids=["plain", "checked"])
def test_a_custom_pool_places_its_blocks_itself(debug):
    rng = np.random.default_rng(6)
    x, y = rng.standard_normal(N).astype(np.float32), rng.standard_normal(N).astype(np.float32)
    z = np.zeros(N, np.float32)
    addr = np.full(7, -1, np.int32)
    pyasc.ascendc.load(CUSTOM_SRC, "custom", debug=debug)[1](x, y, z, addr)
    np.testing.assert_array_equal(z, x + y)
    b = N * 4
    assert addr.tolist() == [4, 64 + 3 * b, 64 + 2 * b, 64 + b, 64, 0, 64]


def test_a_custom_block_outside_its_pool_fails_in_checked_mode():
    source = CUSTOM_SRC.replace("pool.Start(4 * BYTES);", "pool.Start(5 * BYTES);")
    x = np.ones(N, np.float32)
    with pytest.raises(pyasc.KernelError, match=r"<string>:\d+: InitBufHandle: .*leave the pool"):
        pyasc.ascendc.load(source, "custom", debug=True)[1](x, x.copy(), x.copy(),
                                                            np.zeros(7, np.int32))


def test_a_pool_overflow_and_too_many_buffers_are_reported():
    over = POOL_SRC.replace("pool1.InitBuffer(c, 1, BYTES);", "pool1.InitBuffer(c, 1, 2 * BYTES);")
    x = np.ones(N, np.float32)
    args = (x, x.copy(), np.zeros(3 * N, np.float32), np.zeros(4, np.int32))
    with pytest.raises(pyasc.KernelError, match="TBufPool overflow"):
        pyasc.ascendc.load(over, "pools", debug=True)[1](*args)
    # pool3 hands out at most 3 buffers, in either mode
    four = POOL_SRC.replace("pool3.InitBuffer(c, 1, BYTES);",
                            "pool3.InitBuffer(c, 1, BYTES);\n    pool3.InitBuffer(a2, 1, 32);")
    with pytest.raises(pyasc.KernelError, match="buf_id_size of 3 buffers"):
        pyasc.ascendc.load(four, "pools")[1](*args)
