"""Hostile parameters through Ascend C's kernel_operator.h (pyasc.ascendc.load).

One C++ kernel takes an operation number and four int32 parameters at run
time, so one build serves every draw: DataCopy in its count and
DataCopyParams forms both ways, Add and Muls (mask/repeat form) on offsets
into a TBuf. Hypothesis draws the parameters, hostile ones included
(negative, past the buffers, int32 and uint16 extremes). Every launch, in
checked and default mode, must end in a KernelError or a result, never a
crash; memory beside the output is never written; checked mode names the
C++ line of the call it refuses; where checked mode accepts a launch,
default mode gives the same bits, and the copies give what NumPy says.
Bounded here (40 draws); pytest's --examples-scale=N draws N times as many.
"""

from __future__ import annotations

import shutil

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import pyasc

pytestmark = pytest.mark.skipif(shutil.which("c++") is None and shutil.which("g++") is None,
                                reason="no C++ compiler for Ascend C")

SOURCE = r"""#include "kernel_operator.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void fz(GM_ADDR x, GM_ADDR z, int32_t op, int32_t a, int32_t b,
                                         int32_t c, int32_t d)
{
    GlobalTensor<float> xGm, zGm;
    xGm.SetGlobalBuffer((__gm__ float *)x, 256);
    zGm.SetGlobalBuffer((__gm__ float *)z, 256);
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 2048);
    LocalTensor<float> t = buf.Get<float>();
    Duplicate(t, 0.0f, 512);
    PipeBarrier<PIPE_ALL>();
    if (op == 0) DataCopy(t[a], xGm[b], c);                                        // op0
    if (op == 1) DataCopy(t, xGm, DataCopyParams(a, b, c, d));                      // op1
    if (op == 2) Add(t[a], t[b], t[c], d);                                          // op2
    if (op == 3) Muls(t[a], t[b], 2.0f, (uint64_t)c, d, UnaryRepeatParams(1, 1, 8, 8)); // op3
    if (op == 4) DataCopy(zGm[a], t[b], c);                                         // op4
    if (op == 5) DataCopy(zGm, t, DataCopyParams(a, b, c, d));                      // op5
    PipeBarrier<PIPE_ALL>();
    if (op < 4) DataCopy(zGm, t, 256);
}
"""

LINES = {op: n for n, text in enumerate(SOURCE.splitlines(), 1)
         for op in range(6) if f"// op{op}" in text}
GUARD = 16
SENTINEL = np.float32(-777.0)

_kernels: dict[bool, object] = {}


def _kernel(debug: bool):
    """The fuzz kernel, built once per mode."""
    if debug not in _kernels:
        _kernels[debug] = pyasc.ascendc.load(SOURCE, "fz", debug=debug)
    return _kernels[debug]


def _run(debug: bool, op: int, params: tuple[int, int, int, int]):
    """Launches once; returns (output, error text or None) and checks the guards."""
    x = np.arange(256, dtype=np.float32) + 1
    zbig = np.full(256 + 2 * GUARD, SENTINEL, np.float32)
    z = zbig[GUARD:GUARD + 256]
    z[:] = -1
    try:
        _kernel(debug)[1](x, z, op, *params)
        error = None
    except pyasc.KernelError as e:
        error = str(e)
    assert (zbig[:GUARD] == SENTINEL).all() and (zbig[GUARD + 256:] == SENTINEL).all(), \
        "a write landed beside the output"
    np.testing.assert_array_equal(x, np.arange(256, dtype=np.float32) + 1)
    return z.copy(), error


HOSTILE = st.one_of(st.integers(-8, 600),
                    st.sampled_from([-2**31, -1, 0, 7, 8, 255, 256, 65535, 65536, 2**31 - 1]))


@settings(max_examples=40, deadline=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(op=st.integers(0, 5), params=st.tuples(HOSTILE, HOSTILE, HOSTILE, HOSTILE))
def test_hostile_parameters_end_in_an_error_at_the_line_or_a_consistent_result(op, params):
    checked, checked_error = _run(True, op, params)
    plain, plain_error = _run(False, op, params)
    if checked_error is not None:
        assert f"<string>:{LINES[op]}:" in checked_error, checked_error
        return
    # What checked mode accepts, the default mode runs to the same bits.
    assert plain_error is None, plain_error
    np.testing.assert_array_equal(plain, checked)


def _copy_in_model(a: int, b: int, c: int) -> np.ndarray:
    """DataCopy(t[a], xGm[b], c) then t[0:256] out: whole 32-byte blocks only."""
    t = np.zeros(512, np.float32)
    n = c // 8 * 8
    t[a:a + n] = np.arange(256, dtype=np.float32)[b:b + n] + 1
    return t[:256]


@pytest.mark.parametrize("a,b,c", [(0, 0, 256), (8, 16, 64), (256, 0, 256), (64, 200, 56),
                                   (0, 0, 13)])
def test_in_range_copies_match_numpy(a, b, c):
    for debug in (False, True):
        out, error = _run(debug, 0, (a, b, c, 0))
        if debug and c % 8:
            assert error is not None and f"<string>:{LINES[0]}:" in error
            continue
        assert error is None, error
        np.testing.assert_array_equal(out, _copy_in_model(a, b, c))


def test_copy_out_past_the_global_tensor_is_refused_in_checked_mode():
    _, error = _run(True, 4, (248, 0, 64, 0))
    assert error is not None and f"<string>:{LINES[4]}:" in error, error
