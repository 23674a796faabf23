"""Indices, counts and slice offsets so large that offset * element size
overflows 64 bits. The runtime does all such arithmetic with overflow
checks (asc_kernel_rt.h, "size arithmetic") and forms pointers only after a
range check, so none of them touches memory outside the argument or the
Unified Buffer: global memory outside the argument reads as 0 and ignores
writes by default (as on the device), the Unified Buffer is always checked,
and checked mode reports every one of them at its line. Sentinel arrays
passed next to the argument must come back unchanged."""

from __future__ import annotations

import inspect

import numpy as np
import pytest

import pyasc as asc
from kernel_cache import kernel_cache_dir

CACHE = kernel_cache_dir("pyasc-kernel-overflow-")

#: i * 4 wraps to -4, to +4 (an element inside the argument) and to -2**63
HUGE = [2**63 - 1, 4611686018427387905, 2**61]


def lines(fn) -> dict[str, int]:
    """Line numbers of the `# [name]` markers in a kernel's source."""
    src, first = inspect.getsourcelines(fn)
    return {t.split("# [")[1].split("]")[0]: first + i for i, t in enumerate(src) if "# [" in t}


def gm_kernel(x: asc.GlobalAddress, z: asc.GlobalAddress, lo: asc.GlobalAddress,
              hi: asc.GlobalAddress, i: int, case: asc.ConstExpr[str]):
    g = asc.GlobalTensor()
    g.set_global_buffer(x, 64)
    zg = asc.GlobalTensor()
    zg.set_global_buffer(z, 8)
    t = asc.LocalTensor(x.dtype, asc.TPosition.VECIN, 0, 64)
    if case == "set_value":
        g.set_value(i, 7.0)  # [set_value]
    if case == "get_value":
        zg.set_value(0, g.get_value(i))  # [get_value]
    if case == "slice_read":
        asc.data_copy(t, g[i:], 8)  # [slice_read]
        asc.data_copy(zg, t, 8)
    if case == "slice_write":
        asc.duplicate(t, 7.0, 8)
        asc.data_copy(g[i:], t, 8)  # [slice_write]
    if case == "address":
        h = asc.GlobalTensor()
        h.set_global_buffer(x + i, 8)  # [address]
        asc.data_copy(t, h, 8)
        asc.data_copy(zg, t, 8)
    if case == "copy_in":
        asc.data_copy(t, g, i)  # [copy_in]
    if case == "copy_out":
        asc.data_copy(g, t, i)  # [copy_out]
    if case == "params":
        asc.data_copy(g, t, asc.DataCopyParams(2, 1, 0, i))  # [params]


def ub_kernel(x: asc.GlobalAddress, z: asc.GlobalAddress, lo: asc.GlobalAddress,
              hi: asc.GlobalAddress, i: int, case: asc.ConstExpr[str]):
    zg = asc.GlobalTensor()
    zg.set_global_buffer(z, 8)
    t = asc.LocalTensor(x.dtype, asc.TPosition.VECIN, 64, 64)
    asc.duplicate(t, 3.0, 64)
    if case == "local_set":
        t.set_value(i, 7.0)  # [local_set]
    if case == "local_get":
        zg.set_value(0, t.get_value(i))  # [local_get]
    if case == "local_slice":
        asc.duplicate(t[i:], 7.0, 8)  # [local_slice]
    if case == "counter":
        asc.set_mask_count()
        asc.adds(t, t, 1.0, i, 1, asc.UnaryRepeatParams())  # [counter]
        asc.set_mask_norm()
    asc.data_copy(zg, t, 8)


def tbuf_kernel(x: asc.GlobalAddress, z: asc.GlobalAddress, lo: asc.GlobalAddress,
                hi: asc.GlobalAddress, i: int, case: asc.ConstExpr[str]):
    zg = asc.GlobalTensor()
    zg.set_global_buffer(z, 8)
    pipe = asc.TPipe()
    buf = asc.TBuf(asc.TPosition.VECCALC)
    pipe.init_buffer(buf, 256)
    u = buf.get(x.dtype, i)  # [get]
    u.set_value(0, 5.0)
    zg.set_value(0, u.get_value(0))


KERNELS = {debug: {fn.__name__: asc.jit(fn, cache_dir=CACHE, debug=debug)
                   for fn in (gm_kernel, ub_kernel, tbuf_kernel)} for debug in (False, True)}


def run(kernel_name: str, case: str, i: int, debug: bool):
    """Launches with sentinels around x; returns (x, z) after checking that
    the sentinels are unchanged."""
    x = np.arange(64, dtype=np.float32)
    z = np.full(8, -1.0, np.float32)
    lo = np.full(256, 11.0, np.float32)
    hi = np.full(256, 13.0, np.float32)
    try:
        KERNELS[debug][kernel_name][1](x, z, lo, hi, i, case)
        asc.synchronize()
    finally:
        np.testing.assert_array_equal(lo, 11.0)
        np.testing.assert_array_equal(hi, 13.0)
    return x, z


def expect_error(kernel_name: str, case: str, i: int, debug: bool, words: str) -> None:
    """The launch fails at case's marked line; run() checks the sentinels."""
    fn = globals()[kernel_name]
    with pytest.raises(asc.KernelError) as info:
        run(kernel_name, case, i, debug)
    message = str(info.value)
    assert f"{inspect.getsourcefile(fn)}:{lines(fn)[case]}: " in message, message
    assert words in message, message


def device_still_works():
    x, z = run("gm_kernel", "get_value", 3, False)
    np.testing.assert_array_equal(z[:1], 3.0)


# --- global memory: tolerated by default (as on the device), reported in checked mode --------


@pytest.mark.parametrize("i", HUGE)
@pytest.mark.parametrize("case", ["set_value", "get_value", "slice_read", "slice_write",
                                  "address"])
def test_huge_global_offsets_stay_inside_the_argument(case, i):
    x, z = run("gm_kernel", case, i, False)
    np.testing.assert_array_equal(x, np.arange(64, dtype=np.float32))  # no write reached x
    if case in ("get_value", "slice_read", "address"):
        np.testing.assert_array_equal(z[:1], 0.0)  # read outside the argument: zeros
    expect_error("gm_kernel", case, i, True,
                 "set_global_buffer" if case == "address" else "outside the argument")
    device_still_works()


@pytest.mark.parametrize("i", [2**61 + 8, 2**62 + 16, 2**63 - 1])
@pytest.mark.parametrize("case", ["copy_in", "copy_out"])
def test_huge_copy_counts_fail_in_both_modes(case, i):
    """count * 4 wraps to a small size: the Unified Buffer check still sees
    the whole count."""
    for debug in (False, True):
        expect_error("gm_kernel", case, i, debug, "data_copy")
    device_still_works()


@pytest.mark.parametrize("i", [2**58, 2**61 - 1, 2**62])
def test_huge_data_copy_params_strides_drop_the_far_burst(i):
    """The second burst of DataCopyParams starts (1 + i) blocks on: past the
    argument, so it is dropped by default and reported in checked mode."""
    x, _ = run("gm_kernel", "params", i, False)
    np.testing.assert_array_equal(x[8:], np.arange(8, 64, dtype=np.float32))
    expect_error("gm_kernel", "params", i, True, "outside the argument")


# --- the Unified Buffer: always checked --------------------------------------------------------


@pytest.mark.parametrize("i", HUGE)
@pytest.mark.parametrize("case", ["local_set", "local_get", "local_slice", "counter"])
def test_huge_local_offsets_fail_in_both_modes(case, i):
    for debug in (False, True):
        expect_error("ub_kernel", case, i, debug, "")
    x, z = run("ub_kernel", "local_get", 2, False)
    np.testing.assert_array_equal(z, 3.0)


@pytest.mark.parametrize("i", [2**62 + 1, 2**63 - 1, 2**61])
def test_tbuf_get_with_a_huge_length(i):
    """TBuf.get's length is not checked on the device; checked mode compares
    length * size with the buffer without overflowing."""
    _, z = run("tbuf_kernel", "get", i, False)
    np.testing.assert_array_equal(z[:1], 5.0)
    expect_error("tbuf_kernel", "get", i, True, "TBuf.get: ")


# --- float scalars that no integer holds -------------------------------------------------------

from pyasc.language.struct import Field, Struct  # noqa: E402


class FloatParams(Struct):
    f = Field(asc.float64, default=0.0)


def float_to_int_kernel(p: FloatParams, x: float, out: asc.GlobalAddress):
    o = asc.GlobalTensor()
    o.set_global_buffer(out, 4)
    o.set_value(0, p.f)  # a float64 field stored to int64
    o.set_value(1, int(p.f))
    o.set_value(2, x)
    o.set_value(3, int(x))


float_to_int = asc.jit(float_to_int_kernel, cache_dir=CACHE)

I64 = np.iinfo(np.int64)


@pytest.mark.parametrize("checked", [False, True])
@pytest.mark.parametrize("value, want", [
    (1e300, I64.max), (-1e300, I64.min), (float("inf"), I64.max), (float("-inf"), I64.min),
    (float("nan"), 0), (2.0**63, I64.max), (-(2.0**63), I64.min), (-2.75, -2), (1e18, 10**18),
])
def test_a_float_stored_to_an_integer_saturates(checked, value, want):
    """Documented: truncate toward zero, saturate to int64, NaN gives 0 (as
    the vector Cast); a plain C cast out of range is undefined behaviour."""
    kernel = asc.jit(float_to_int_kernel, cache_dir=CACHE, debug=True) if checked else float_to_int
    out = np.full(4, 7, np.int64)
    kernel[1](FloatParams(f=value), value, out)
    assert out.tolist() == [want] * 4
    assert "asc_k_f2i(" in kernel.compile(FloatParams(f=value), value, out).c_source


def test_an_array_where_a_struct_is_expected_is_named():
    out = np.zeros(4, np.int64)
    with pytest.raises(TypeError, match="parameter 'p' is a FloatParams struct, not ndarray"):
        float_to_int[1](np.zeros(3), 1.0, out)
