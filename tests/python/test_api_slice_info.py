"""data_copy with SliceInfo lists (GM -> UB gathers, UB -> GM scatters) of 1
to 3 dimensions against NumPy slicing, plain and checked mode; errors name
the line; the Ascend C compiles against kernel_operator.h."""

from __future__ import annotations

import numpy as np
import pytest

import pyasc as asc
from kernel_api_helpers import CACHE, jit
from test_ascendc import assert_valid_cpp

N = 512  # elements of the UB tile


@jit
def slice_kernel(x: asc.GlobalAddress, y: asc.GlobalAddress, cfg: asc.GlobalAddress,
                 dims: asc.ConstExpr[int], scatter: asc.ConstExpr[bool]):
    """gather (scatter False): x's slices (cfg[15:30]) into the UB as the
    contiguous slices cfg[0:15], then N elements to y; scatter: N elements
    of x into the UB (slices cfg[15:30]), then to y's slices cfg[0:15]."""
    xg = asc.GlobalTensor()
    xg.set_global_buffer(x)
    yg = asc.GlobalTensor()
    yg.set_global_buffer(y)
    c = asc.GlobalTensor()
    c.set_global_buffer(cfg, 30)
    t = asc.LocalTensor(x.dtype, asc.TPosition.VECCALC, 0, N)
    d0 = asc.SliceInfo(c.get_value(0), c.get_value(1), c.get_value(2), c.get_value(3),
                       c.get_value(4))
    d1 = asc.SliceInfo(c.get_value(5), c.get_value(6), c.get_value(7), c.get_value(8),
                       c.get_value(9))
    d2 = asc.SliceInfo(c.get_value(10), c.get_value(11), c.get_value(12), c.get_value(13),
                       c.get_value(14))
    s0 = asc.SliceInfo(c.get_value(15), c.get_value(16), c.get_value(17), c.get_value(18),
                       c.get_value(19))
    s1 = asc.SliceInfo(c.get_value(20), c.get_value(21), c.get_value(22), c.get_value(23),
                       c.get_value(24))
    s2 = asc.SliceInfo(start_index=c.get_value(25), end_index=c.get_value(26),
                       stride=c.get_value(27), burst_len=c.get_value(28),
                       shape_value=c.get_value(29))
    lists = ([d0, d1, d2], [s0, s1, s2])
    if scatter:
        asc.data_copy(t, xg, N)
        asc.pipe_barrier(asc.PipeID.PIPE_ALL)
        asc.data_copy(yg, t, lists[0], lists[1], dims)
    else:
        asc.duplicate(t, 0, N)
        asc.pipe_barrier(asc.PipeID.PIPE_ALL)
        asc.data_copy(t, xg, slice_list1=lists[0], slice_list2=lists[1], dim_value=dims)
        asc.pipe_barrier(asc.PipeID.PIPE_ALL)
        asc.data_copy(yg, t, N)


def select(shape: tuple, infos: list, burst: int) -> tuple:
    """NumPy index of the slices: dimension 0 (innermost, last axis) in
    bursts of `burst` elements, the others as start:end+1:stride+1."""
    index = []
    for d, (start, end, stride, _, _) in enumerate(infos):
        if d == 0:
            n0 = (end - start + 1 + stride) // (burst + stride)
            index.append(np.concatenate([np.arange(start + i * (burst + stride),
                                                   start + i * (burst + stride) + burst)
                                         for i in range(n0)]))
        else:
            index.append(np.arange(start, end + 1, stride + 1))
    return np.ix_(*index[::-1])


def contiguous(counts: list, burst: int) -> list:
    """SliceInfo fields of a dense layout holding the selected bursts."""
    infos = [(0, counts[0] * burst - 1, 0, None, counts[0] * burst)]
    return infos + [(0, n - 1, 0, 1, n) for n in counts[1:]]


CASES = [  # (src shape, innermost first), SliceInfo fields per dimension (burst_len in blocks)
    ((87,), [(16, 70, 7, 3, 87)]),
    ((40, 3), [(8, 39, 8, 1, 40), (0, 2, 1, 1, 3)]),
    ((24, 5, 4), [(0, 23, 0, 1, 24), (1, 4, 0, 1, 5), (0, 3, 2, 1, 4)]),
    ((64, 6, 3), [(5, 60, 3, 2, 64), (0, 5, 1, 1, 6), (1, 2, 0, 1, 3)]),
]


def _config(dst: list, src: list) -> np.ndarray:
    rows = [list(f) for f in dst] + [[0, 31, 0, 1, 32]] * (3 - len(dst))
    rows += [list(f) for f in src] + [[0, 31, 0, 1, 32]] * (3 - len(src))
    return np.array(rows, np.int32).reshape(-1)


def _counts(infos: list, burst: int) -> list:
    counts = []
    for d, (start, end, stride, _, _) in enumerate(infos):
        b = burst if d == 0 else 1
        counts.append((end - start + 1 + stride) // (b + stride))
    return counts


@pytest.mark.parametrize("debug", [False, True], ids=["plain", "checked"])
@pytest.mark.parametrize("dtype", [np.float32, np.float16])
@pytest.mark.parametrize("shape,src", CASES, ids=[f"{len(c[1])}d-{i}" for i, c in
                                                  enumerate(CASES)])
def test_gather_against_numpy(shape, src, dtype, debug):
    es = np.dtype(dtype).itemsize
    burst = src[0][3] * 32 // es
    counts = _counts(src, burst)
    dst = [(s, e, st, src[0][3] if b is None else b, sh)
           for s, e, st, b, sh in contiguous(counts, burst)]
    x = np.arange(np.prod(shape), dtype=np.float32).astype(dtype)
    y = np.zeros(N, dtype)
    kernel = asc.jit(slice_kernel.fn, cache_dir=CACHE, debug=True) if debug else slice_kernel
    kernel[1](x, y, _config(dst, src), len(shape), False)
    want = x.reshape(shape[::-1])[select(shape, src, burst)].reshape(-1)
    np.testing.assert_array_equal(y[:want.size], want)
    assert not np.any(y[want.size:])


@pytest.mark.parametrize("debug", [False, True], ids=["plain", "checked"])
@pytest.mark.parametrize("shape,dst", CASES[1:], ids=["2d", "3d", "3d-bursts"])
def test_scatter_against_numpy(shape, dst, debug):
    burst = dst[0][3] * 8
    counts = _counts(dst, burst)
    src = [(s, e, st, dst[0][3] if b is None else b, sh)
           for s, e, st, b, sh in contiguous(counts, burst)]
    x = np.arange(N, dtype=np.float32) + 1
    y = np.full(int(np.prod(shape)), -1.0, np.float32)
    kernel = asc.jit(slice_kernel.fn, cache_dir=CACHE, debug=True) if debug else slice_kernel
    kernel[1](x, y, _config(dst, src), len(shape), True)
    want = np.full(shape[::-1], -1.0, np.float32)
    sel = select(shape, dst, burst)
    want[sel] = x[:want[sel].size].reshape(want[sel].shape)
    np.testing.assert_array_equal(y, want.reshape(-1))


@pytest.mark.parametrize("src,dst,message", [
    ([(16, 20, 0, 1, 87)], [(0, 7, 0, 1, 8)], "a burst of 8 elements does not fit in elements "
                                               "16..20"),
    ([(0, 15, 0, 1, 16)], [(0, 7, 0, 1, 8)], "dimension 0 selects 1 bursts of 8 elements in dst "
                                             "but 2 of 8 in src"),
    ([(0, 15, 0, 1, 8)], [(0, 15, 0, 1, 16)], "slice_list2\\[0\\] = SliceInfo\\(0, 15, 0, 1, 8\\)"),
    ([(0, 7, 0, 1, 8), (0, 1, 0, 2, 2)], [(0, 7, 0, 1, 8), (0, 1, 0, 1, 2)],
     "burst_len >= 1 \\(1 beyond dimension 0\\)"),
])
def test_runtime_errors_name_the_line(src, dst, message):
    x = np.zeros(128, np.float32)
    with pytest.raises(asc.KernelError, match=message) as info:
        slice_kernel[1](x, np.zeros(N, np.float32), _config(dst, src), len(src), False)
    assert "test_api_slice_info.py:" in str(info.value)


@jit
def misuse_kernel(x: asc.GlobalAddress, case: asc.ConstExpr[int]):
    g = asc.GlobalTensor()
    g.set_global_buffer(x)
    t = asc.LocalTensor(asc.float32, asc.TPosition.VECCALC, 0, 64)
    s = [asc.SliceInfo(0, 7, 0, 1, 8)]
    if case == 0:
        asc.data_copy(t, t, s, s, 1)
    elif case == 1:
        asc.data_copy(t, g, s, s, 4)
    elif case == 2:
        asc.data_copy(t, g, s, [asc.DataCopyParams()], 1)
    elif case == 3:
        asc.data_copy(t, g, s, s, 2)
    elif case == 4:
        a1 = asc.LocalTensor(asc.float32, asc.TPosition.A1, 0, 64)
        asc.data_copy(a1, g, s, s, 1)
    else:
        asc.SliceInfo(0, 1.5)


@pytest.mark.parametrize("case,message", [
    (0, "copies between a GlobalTensor and a LocalTensor"),
    (1, "dim_value 4: pyasc simulates slice copies of 1 to 3 dimensions"),
    (2, "slice_list2 entries must be pyasc.SliceInfo"),
    (3, "slice_list1 must be a list of at least dim_value \\(2\\) SliceInfo"),
    (4, "it must be in the Unified Buffer"),
    (5, "SliceInfo end_index must be an integer"),
])
def test_compile_errors(case, message):
    with pytest.raises(asc.CompileError, match=message) as info:
        misuse_kernel[1](np.zeros(64, np.float32), case)
    assert "test_api_slice_info.py" in str(info.value)


@pytest.mark.parametrize("scatter", [False, True])
def test_ascendc_passes_gxx(scatter):
    src = slice_kernel.ascendc(np.zeros(64, np.float32), np.zeros(N, np.float32),
                               np.zeros(30, np.int32), 2, scatter)
    assert "AscendC::SliceInfo pyasc_dst_slices[2] = {AscendC::SliceInfo(" in src
    assert "pyasc_dst_slices, pyasc_src_slices, 2);" in src
    assert_valid_cpp(src)
