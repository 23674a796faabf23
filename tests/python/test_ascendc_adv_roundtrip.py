"""The Ascend C header's adv library, dequantising and fused-cast forms, sorts,
scalar helpers and system registers (include/ascendc/kernel_operator/
adv_math.h, vector_fused.h, sys_more.h) run bit for bit like the Python
kernels they are emitted from: other test files' kernels, launched under the
round-trip hook (ascendc_roundtrip.py), which runs each launch's emitted
Ascend C through pyasc.ascendc.load first and compares every array; those
tests' own NumPy checks still apply. The status registers, whose Python
kernel also writes the clock, are compared field by field."""

from __future__ import annotations

import importlib
import shutil

import numpy as np
import pytest

import pyasc

pytestmark = pytest.mark.skipif(shutil.which("c++") is None and shutil.which("g++") is None,
                                reason="no C++ compiler")


def run_under_hook(calls: list[tuple[str, str, tuple]]) -> None:
    """Runs each (module, test, args) under the round-trip hook; every launch must
    have matched its Ascend C."""
    roundtrip = importlib.import_module("ascendc_roundtrip")
    hook = roundtrip.RoundTrip()
    hook.install()
    try:
        for module, test, args in calls:
            getattr(importlib.import_module(module), test)(*args)
    finally:
        hook.uninstall()
    assert not hook.mismatched and not hook.unsupported and not hook.no_form, hook.report()
    assert sum(hook.matched.values()) >= len(calls), hook.report()


def test_adv_maths_softmax_rmsnorm_quant_run_as_ascendc() -> None:
    run_under_hook([
        ("test_adv_math", "test_maths_family", (np.float32, False, 4096)),
        ("test_adv_math", "test_maths_family", (np.float16, True, 0)),
        ("test_adv_math", "test_exp_taylor_levels", (12, 1e-6)),
        ("test_adv_math", "test_power", (np.float32,)),
        ("test_adv_math", "test_xor_int16_bit_exact", ()),
        ("test_adv_math", "test_axpy", (np.float32, np.float16)),
        ("test_adv_math", "test_concat_and_extract", (np.uint32,)),
        ("test_adv_softmax", "test_softmax_against_numpy", (np.float32, np.float32, 2e-6, 8192)),
        ("test_adv_softmax", "test_rmsnorm_against_float64", (np.float16, 3e-3, 4096)),
        ("test_adv_softmax", "test_quant_against_numpy_model", (np.float16, 0)),
    ])


def test_deq_fused_casts_and_sorts_run_as_ascendc() -> None:
    run_under_hook([
        ("test_api_deq", "test_add_deq_relu", (1, 0, 7, 2, 8, 8)),
        ("test_api_deq", "test_cast_deq_int16", (True, True, True, 1, 0, 100, 3)),
        ("test_api_deq", "test_cast_deq_int16", (False, False, False, 0, 37, 0, 0)),
        ("test_api_deq", "test_set_deq_scale_vdeq_writes_the_tensor", ()),
        ("test_api_fused_cast", "test_fused_cast_255_repeats", ()),
        ("test_api_fused_cast", "test_repeat_reduce_sum", (np.float16, 3, 37, 1, 1, 8)),
        ("test_api_sort", "test_sort32_and_sort", (np.float32, 1, 3)),
        ("test_api_sort", "test_rp_sort16", (np.float16, 4)),
        ("test_api_sort", "test_proposal_concat_and_extract", (np.float32, 3, 5)),
        ("test_api_sort", "test_get_sort_len_and_offset", (100,)),
        ("test_api_gather_mask", "test_scalar_bit_operations", (-(1 << 63), -2.5)),
        ("test_api_gather_mask", "test_scalar_cast_to_half_rounds_to_odd", ()),
    ])


@pyasc.jit
def k_status(out: pyasc.GlobalAddress):
    o = pyasc.GlobalTensor()
    o.set_global_buffer(out)
    o.set_value(0, pyasc.get_icache_preload_status())
    o.set_value(1, pyasc.get_task_ratio())
    o.set_value(2, pyasc.get_program_counter())


@pytest.mark.parametrize("debug", [False, True], ids=["plain", "checked"])
def test_status_registers_as_ascendc(debug: bool) -> None:
    """GetICachePreloadStatus and GetTaskRatio read what the Python kernel
    reads; GetProgramCounter is the location of its call, the C++ line."""
    want = np.full(3, -1, np.int64)
    k_status[1](want)
    source = k_status.ascendc(want)
    got = np.full(3, -1, np.int64)
    pyasc.ascendc.load(source, "k_status", debug=debug)[1](got)
    np.testing.assert_array_equal(got[:2], want[:2])
    assert list(want[:2]) == [0, 1]  # the preloader idle; coupled mode
    pc_line = next(i for i, s in enumerate(source.splitlines(), 1) if "GetProgramCounter" in s)
    assert got[2] & 0xFFFFF == pc_line
    # GetTaskRation: the name CANN's quant_group_matmul example calls GetTaskRatio by
    assert "GetTaskRatio()" in source
    pyasc.ascendc.load(source.replace("GetTaskRatio()", "GetTaskRation()"), "k_status",
                       debug=debug)[1](got)
    assert got[1] == want[1]


MATHS_TMP_SRC = r"""
#include "kernel_operator.h"
using namespace AscendC;

// Function `which` of the maths family (MATH_FUNCTIONS' order) on 64 elements with a
// sharedTmpBuffer of `bytes` bytes.
extern "C" __global__ __aicore__ void maths_tmp(GM_ADDR x, int32_t which, int32_t bytes)
{
    LocalTensor<T> a(TPosition::VECCALC, 0, 64), b(TPosition::VECCALC, 256, 64);
    LocalTensor<uint8_t> tmp(TPosition::VECCALC, 512, bytes);
    switch (which) {
    CASES
    }
    (void)x;
}
"""


@pytest.mark.parametrize("ctype,size", [("float", 4), ("half", 2)])
def test_maths_tmp_minimum_is_the_host_querys(ctype, size):
    """A sharedTmpBuffer of the host query's minimum (adv_host.math_min_tmp_size)
    is enough for each maths function's Ascend C, 32 bytes less is an error
    naming it: the runtime's table agrees with MATH_TMP_FACTORS."""
    from pyasc.language import adv_host
    from pyasc.language.names.adv_math import MATH_FUNCTIONS

    names = {"exp": "Exp<T, 0>"}
    cases = "\n    ".join(
        f"case {i}: {names.get(f, f.capitalize())}(a, b, tmp, 64); break;"
        for i, f in enumerate(MATH_FUNCTIONS))
    source = MATHS_TMP_SRC.replace("CASES", cases).replace("LocalTensor<T>",
                                                           f"LocalTensor<{ctype}>")
    source = source.replace("Exp<T, 0>", f"Exp<{ctype}, 0>")
    kernel = pyasc.ascendc.load(source, "maths_tmp")
    x = np.zeros(1, np.float32)
    for i, f in enumerate(MATH_FUNCTIONS):
        least = adv_host.math_min_tmp_size(f, size)
        kernel[1](x, i, least)
        if least == 0:  # CANN's floor, frac and log on float need no buffer
            continue
        with pytest.raises(pyasc.KernelError, match=f"adv.{f}: .* needs at least {least}"):
            kernel[1](x, i, least - 32)
            pyasc.synchronize()
