"""PopStackBuffer (include/ascendc/kernel_operator/adv_math.h, the runtime's pool op STACK): the
Unified Buffer past the current TPipe's buffers, from the first 32-byte boundary after them to
the end of the 910B's 192 KiB UB, as CANN's adv library takes its temporary space; no TPipe, or
none left, is an error at the call."""

from __future__ import annotations

import shutil

import numpy as np
import pytest

import pyasc

pytestmark = pytest.mark.skipif(shutil.which("c++") is None and shutil.which("g++") is None,
                                reason="no C++ compiler")

UB_BYTES = 192 * 1024

SRC = r"""
#include "kernel_operator.h"

// taken bytes of TBuf, then the stack's first byte and size; the stack's last float written
// and read back through GM
extern "C" __global__ __aicore__ void stack(GM_ADDR out, uint32_t taken)
{
    AscendC::GlobalTensor<float> o;
    o.SetGlobalBuffer((__gm__ float *)out, 8);
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, taken);
    AscendC::LocalTensor<float> s;
    bool ok = AscendC::PopStackBuffer<float, AscendC::TPosition::LCM>(s);  // the pop line
    o.SetValue(0, ok ? 1.0f : 0.0f);
    o.SetValue(1, static_cast<float>(s.GetSize()));
    s.SetValue(s.GetSize() - 1, 2.5f);
    AscendC::PipeBarrier<PIPE_ALL>();
    o.SetValue(2, s.GetValue(s.GetSize() - 1));
}

extern "C" __global__ __aicore__ void no_pipe(GM_ADDR out)
{
    AscendC::LocalTensor<uint8_t> s;
    AscendC::PopStackBuffer<uint8_t, AscendC::TPosition::LCM>(s);  // the lone pop
    (void)out;
}
"""


@pytest.mark.parametrize("taken", [1000, 4096])
def test_the_stack_is_the_ub_past_the_pipe(taken):
    out = np.zeros(8, np.float32)
    pyasc.ascendc.load(SRC, "stack")[1](out, np.uint32(taken))
    start = -(-taken // 32) * 32
    assert list(out[:3]) == [1.0, (UB_BYTES - start) // 4, 2.5]


@pytest.mark.parametrize("kernel,args,message", [
    ("stack", (np.uint32(UB_BYTES),), "the pop line"),
    ("no_pipe", (), "the lone pop"),
])
def test_no_stack_is_an_error_at_the_call(kernel, args, message):
    line = SRC[:SRC.index(message)].count("\n") + 1
    with pytest.raises(pyasc.KernelError, match=rf"<string>:{line}: PopStackBuffer: "):
        pyasc.ascendc.load(SRC, kernel)[1](np.zeros(8, np.float32), *args)
