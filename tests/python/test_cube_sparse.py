"""4:2 sparse matmul: load_data_with_sparse and mmad_with_sparse against a
NumPy model of the documented densification (every 4 K elements of a B
column keep their first 2 nonzeros, each with its 2-bit position, 4
positions a byte, the first in the low bits), exact int32 results over
random patterns, plain and checked mode, and their errors."""

from __future__ import annotations

import numpy as np
import pytest

import pyasc as asc
from kernel_api_helpers import CACHE
from test_ascendc import assert_valid_cpp


def _kernel(a: asc.GlobalAddress, bt: asc.GlobalAddress, idx: asc.GlobalAddress,
            c: asc.GlobalAddress, m: asc.ConstExpr[int], n: asc.ConstExpr[int],
            k: asc.ConstExpr[int], split: asc.ConstExpr[bool], sync: asc.ConstExpr[bool],
            init: asc.ConstExpr[bool]):
    """C (m x n, int32) = A (m x k) @ sparse B; bt is the dense B transposed
    (n x kd, kd = k / 2 rounded up to even), idx its indices in NZ order.
    split loads one fractal a call (start_index; CANN's
    LoadDataWithSparse moves consecutive fractals only); init False runs
    the mmad twice, accumulating."""
    kd = (k + 3) // 4 * 2
    m16 = (m + 15) // 16 * 16
    n16 = (n + 15) // 16 * 16
    k1 = (k + 31) // 32
    kd1 = (kd + 31) // 32
    m1 = m16 // 16
    n1 = n16 // 16
    nidx = kd1 * n1 * 128
    a_gm = asc.GlobalTensor()
    b_gm = asc.GlobalTensor()
    x_gm = asc.GlobalTensor()
    c_gm = asc.GlobalTensor()
    a_gm.set_global_buffer(a, m * k)
    b_gm.set_global_buffer(bt, n * kd)
    x_gm.set_global_buffer(idx, nidx)
    c_gm.set_global_buffer(c, m * n)
    pipe = asc.TPipe()
    q_a1 = asc.TQue(asc.TPosition.A1, 1)
    q_b1 = asc.TQue(asc.TPosition.B1, 1)
    q_x1 = asc.TQue(asc.TPosition.B1, 1)
    q_a2 = asc.TQue(asc.TPosition.A2, 1)
    q_b2 = asc.TQue(asc.TPosition.B2, 1)
    q_c = asc.TQue(asc.TPosition.CO1, 1)
    pipe.init_buffer(q_a1, 1, 16384)
    pipe.init_buffer(q_b1, 1, 16384)
    pipe.init_buffer(q_x1, 1, 4096)
    pipe.init_buffer(q_a2, 1, 16384)
    pipe.init_buffer(q_b2, 1, 16384)
    pipe.init_buffer(q_c, 1, 16384)
    a1 = q_a1.alloc_tensor(asc.int8)
    b1 = q_b1.alloc_tensor(asc.int8)
    x1 = q_x1.alloc_tensor(asc.uint8)
    asc.data_copy(a1, a_gm, asc.Nd2NzParams(1, m, k, 0, k, m16, 1, 0))
    asc.data_copy(b1, b_gm, asc.Nd2NzParams(1, n, kd, 0, kd, n16, 1, 0))
    asc.data_copy(x1, x_gm, asc.Nd2NzParams(1, 1, nidx, 0, nidx, 1, 1, 0))
    if sync:
        asc.set_flag(asc.HardEvent.MTE2_MTE1, 0)
        asc.wait_flag(asc.HardEvent.MTE2_MTE1, 0)
    a2 = q_a2.alloc_tensor(asc.int8)
    b2 = q_b2.alloc_tensor(asc.int8)
    for i in range(m1):
        asc.load_data(a2[i * k1 * 512:], a1, asc.LoadData2DParams(i, k1, m1, 0, 0, False))
    if split:
        for f in range(kd1 * n1):
            asc.load_data_with_sparse(b2[f * 512:], b1, x1, asc.LoadData2DParams(
                start_index=f, repeat_times=1))
    else:
        asc.load_data_with_sparse(dst=b2, src=b1, idx=x1,
                                  load_data_params=asc.LoadData2DParams(repeat_times=kd1 * n1,
                                                                       src_stride=1))
    if sync:
        asc.set_flag(asc.HardEvent.MTE1_M, 0)
        asc.wait_flag(asc.HardEvent.MTE1_M, 0)
    c1 = q_c.alloc_tensor(asc.int32)
    asc.mmad_with_sparse(c1, a2, b2, asc.MmadParams(m, n, k))
    if not init:
        asc.mmad_with_sparse(c1, a2, b2, asc.MmadParams(m, n, k, cmatrix_init_val=False))
    asc.set_flag(asc.HardEvent.M_FIX, 0)
    asc.wait_flag(asc.HardEvent.M_FIX, 0)
    asc.fixpipe(c_gm, c1, asc.FixpipeParamsV220(n, m, m16, n))


plain_kernel = asc.jit(_kernel, cache_dir=CACHE)
checked_kernel = asc.jit(_kernel, cache_dir=CACHE, debug=True)


# --- the NumPy model (from the docs) --------------------------------------------------------------

def densify(b: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Dense B (k/2 rows, k padded to 4) and its 2-bit indices: each group
    of 4 K elements of a column keeps its first 2 nonzeros; a group with
    fewer fills the rest with 0. CANN's MmadWithSparse encoding: the first
    index is a position among the group's first 3 elements, the second
    among its last 3 (position - 1), so a lone nonzero at position 3 goes
    second."""
    k, n = b.shape
    groups = (k + 3) // 4
    padded = np.zeros((groups * 4, n), b.dtype)
    padded[:k] = b
    dense = np.zeros((groups * 2, n), np.int8)
    index = np.zeros((groups * 2, n), np.uint8)
    for g in range(groups):
        for col in range(n):
            kept = [j for j in range(4) if padded[4 * g + j, col] != 0][:2]
            slots = [1] if kept == [3] else range(len(kept))
            for slot, j in zip(slots, kept):
                dense[2 * g + slot, col] = padded[4 * g + j, col]
                index[2 * g + slot, col] = j - slot
    return dense, index


def pack_index(index: np.ndarray) -> np.ndarray:
    """The indices of dense B (kd x n) in the order of B transposed in NZ
    (32-element column blocks of n16 rows), 4 to a byte, first in the low
    bits."""
    kd, n = index.shape
    n16, kd32 = -(-n // 16) * 16, -(-kd // 32) * 32
    nz = np.zeros((kd32 // 32, n16, 32), np.uint8)
    t = np.zeros((n16, kd32), np.uint8)
    t[:n, :kd] = index.T
    for blk in range(kd32 // 32):
        nz[blk] = t[:, blk * 32:(blk + 1) * 32]
    flat = nz.reshape(-1, 4).astype(np.uint32)
    return (flat[:, 0] | flat[:, 1] << 2 | flat[:, 2] << 4 | flat[:, 3] << 6).astype(np.uint8)


def first_two(b: np.ndarray) -> np.ndarray:
    """B with every nonzero after the first 2 of its group of 4 dropped."""
    out = b.copy()
    for g in range(0, b.shape[0], 4):
        for col in range(b.shape[1]):
            seen = 0
            for r in range(g, min(g + 4, b.shape[0])):
                if out[r, col] != 0:
                    seen += 1
                    if seen > 2:
                        out[r, col] = 0
    return out


def sparse_b(rng: np.random.Generator, k: int, n: int, dense: float) -> np.ndarray:
    """Random int8 B whose elements are nonzero with probability `dense`
    (0.5 and up gives many groups of 3 or 4 nonzeros)."""
    vals = rng.integers(-128, 128, (k, n)).astype(np.int8)
    vals[vals == 0] = 1
    return np.where(rng.random((k, n)) < dense, vals, 0).astype(np.int8)


def run(kernel, m: int, n: int, k: int, dense: float, seed: int, split=False, init=True,
        sync=True):
    rng = np.random.default_rng(seed)
    a = rng.integers(-128, 128, (m, k)).astype(np.int8)
    b = sparse_b(rng, k, n, dense)
    bd, index = densify(b)
    c = np.zeros((m, n), np.int32)
    kernel[1](a, np.ascontiguousarray(bd.T), pack_index(index), c, m, n, k, split, sync, init)
    asc.synchronize()
    want = a.astype(np.int64) @ first_two(b).astype(np.int64)
    return c, want * (1 if init else 2)


# --- results --------------------------------------------------------------------------------------

def test_model_densify_round_trip():
    """The model itself: at most 2 nonzeros a group densify and expand back."""
    b = np.array([[0], [5], [0], [-7], [3], [0], [0], [0], [1], [2], [4], [9]], np.int8)
    dense, index = densify(b)
    assert dense[:, 0].tolist() == [5, -7, 3, 0, 1, 2]
    assert index[:, 0].tolist() == [1, 2, 0, 0, 0, 0]  # the second counts from position 1
    assert first_two(b)[:, 0].tolist() == [0, 5, 0, -7, 3, 0, 0, 0, 1, 2, 0, 0]
    # the docs' example: positions 1 2 0 1 are the byte written 1 0 2 1 (low bits first)
    assert pack_index(np.array([[1], [2], [0], [1]] + [[0]] * 28, np.uint8))[0] == 0b01001001


@pytest.mark.parametrize("kernel", [plain_kernel, checked_kernel], ids=["plain", "checked"])
@pytest.mark.parametrize("m,n,k", [(16, 16, 64), (32, 48, 128), (20, 30, 72), (17, 5, 42)])
def test_sparse_matmul_exact(kernel, m, n, k):
    c, want = run(kernel, m, n, k, 0.45, seed=m * 1000 + n * 10 + k)
    np.testing.assert_array_equal(c, want)


@pytest.mark.parametrize("dense", [0.0, 0.3, 0.9, 1.0])
def test_more_than_two_nonzeros_use_the_first_two(dense):
    """3 or 4 nonzeros in a group: the docs use the first 2 (densify keeps
    them, the kernel must agree with A @ first_two(B))."""
    c, want = run(plain_kernel, 32, 32, 64, dense, seed=int(dense * 10))
    np.testing.assert_array_equal(c, want)
    if dense == 1.0:  # a dense B really differs from what is computed
        rng = np.random.default_rng(10)
        a = rng.integers(-128, 128, (32, 64)).astype(np.int8)
        b = sparse_b(rng, 64, 32, dense)
        assert not np.array_equal(a.astype(np.int64) @ b.astype(np.int64), c)


@pytest.mark.parametrize("kernel", [plain_kernel, checked_kernel], ids=["plain", "checked"])
def test_split_loads_and_accumulate(kernel):
    """start_index/src_stride/dst_gap place column blocks (with their
    indices) and cmatrix_init_val=False accumulates."""
    c, want = run(kernel, 32, 64, 128, 0.5, seed=3, split=True, init=False)
    np.testing.assert_array_equal(c, want)


def test_checked_mode_reports_missing_sync():
    with pytest.raises(asc.KernelError, match=r"test_cube_sparse\.py:\d+: .*missing "
                                              r"synchronisation"):
        run(checked_kernel, 16, 16, 64, 0.5, seed=1, sync=False)


def test_ascendc():
    src = plain_kernel.ascendc(np.zeros((16, 64), np.int8), np.zeros((16, 32), np.int8),
                               np.zeros(128, np.uint8), np.zeros((16, 16), np.int32),
                               16, 16, 64, False, True, True)
    assert "AscendC::LoadDataWithSparse(b2, b1, x1, AscendC::LoadData2DParams(" in src
    assert "AscendC::MmadWithSparse(c1, a2, b2, AscendC::MmadParams(16, 16, 64" in src
    assert "AscendC::LocalTensor<uint8_t> x1" in src
    assert_valid_cpp(src)


# --- errors ---------------------------------------------------------------------------------------

@asc.jit(cache_dir=CACHE)
def misuse_kernel(x: asc.GlobalAddress, which: asc.ConstExpr[int]):
    """One misuse of the sparse APIs per `which`."""
    x_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x, 512)
    pipe = asc.TPipe()
    q_b1 = asc.TQue(asc.TPosition.B1, 1)
    q_x1 = asc.TQue(asc.TPosition.B1, 1)
    q_a2 = asc.TQue(asc.TPosition.A2, 1)
    q_b2 = asc.TQue(asc.TPosition.B2, 1)
    q_c = asc.TQue(asc.TPosition.CO1, 1)
    pipe.init_buffer(q_b1, 1, 2048)
    pipe.init_buffer(q_x1, 1, 128)
    pipe.init_buffer(q_a2, 1, 2048)
    pipe.init_buffer(q_b2, 1, 2048)
    pipe.init_buffer(q_c, 1, 4096)
    b1 = q_b1.alloc_tensor(asc.int8)
    x1 = q_x1.alloc_tensor(asc.uint8)
    a2 = q_a2.alloc_tensor(asc.int8)
    b2 = q_b2.alloc_tensor(asc.int8)
    c1 = q_c.alloc_tensor(asc.int32)
    if which == 0:  # B2 holds dense data without indices
        asc.load_data(b2, b1, asc.LoadData2DParams(0, 1, 1, 0, 0, False))
        asc.mmad_with_sparse(c1, a2, b2, asc.MmadParams(16, 16, 64))
    if which == 1:  # two fractals need 256 index bytes; idx holds 128
        asc.load_data_with_sparse(b2, b1, x1, asc.LoadData2DParams(repeat_times=2, src_stride=1))
    if which == 2:
        asc.load_data_with_sparse(b2, b1, x1, asc.LoadData2DParams(repeat_times=1))
        asc.mmad_with_sparse(c1, a2, b2, asc.MmadParams(16, 16, 5000))
    if which == 3:  # the dense B of k=128 is 64 rows: 2 fractals deep, 1 left in filter
        asc.load_data_with_sparse(b2, b1, x1, asc.LoadData2DParams(repeat_times=1))
        asc.mmad_with_sparse(c1, a2, b2[1536:], asc.MmadParams(16, 16, 128))
    if which == 4:
        asc.load_data_with_sparse(b2, b1, x1, asc.LoadData2DParams(repeat_times=1,
                                                                   start_index=4))
    if which == 5:  # zero sizes: not executed, nothing read
        asc.mmad_with_sparse(c1, a2, b2, asc.MmadParams(0, 16, 64))
    if which == 6:  # dst must start on a 512-byte fractal
        asc.load_data_with_sparse(b2[100:], b1, x1, asc.LoadData2DParams(repeat_times=1))
    if which == 7:  # idx must start on a 32-byte block
        asc.load_data_with_sparse(b2, b1, x1[5:], asc.LoadData2DParams(repeat_times=1))


@pytest.mark.parametrize("which,pattern", [
    (0, r"mmad_with_sparse: filter byte 0 \(dense row 0, column 0\) has no index: load it "
        r"with load_data_with_sparse"),
    (1, r"load_data_with_sparse reads the indices of fractal 1 .* past idx \(128 bytes\)"),
    (2, r"mmad_with_sparse: MmadParams m, n, k must lie in 0\.\.4095 \(got 16, 16, 5000\)"),
    (3, r"mmad_with_sparse reads 1024 bytes of L0B .* but filter has 512"),
    (4, r"load_data_with_sparse reads fractal 4 past src \(2048 bytes\)"),
    (6, r"load_data_with_sparse: dst: L0B tensor at byte 100 is not aligned to 512 bytes"),
    (7, r"load_data_with_sparse: idx: L1 tensor at byte \d+ is not aligned to 32 bytes"),
])
def test_runtime_errors_name_the_line(which, pattern):
    """Checked mode; reads past a tensor but inside its buffer (1, 4) run
    in the default mode, as on the hardware (3 then meets L0B bytes no
    sparse load wrote)."""
    checked = asc.jit(misuse_kernel.fn, debug=True)
    with pytest.raises(asc.KernelError, match=r"test_cube_sparse\.py:\d+: " + pattern):
        checked[1](np.zeros(512, np.int8), which)
        asc.synchronize()
    if which in (1, 4):
        misuse_kernel[1](np.zeros(512, np.int8), which)
    else:
        with pytest.raises(asc.KernelError, match="has no index" if which == 3 else pattern):
            misuse_kernel[1](np.zeros(512, np.int8), which)
    asc.synchronize()


def test_zero_sizes_do_nothing():
    misuse_kernel[1](np.zeros(512, np.int8), 5)
    asc.synchronize()


@asc.jit(cache_dir=CACHE)
def compile_error_kernel(which: asc.ConstExpr[int]):
    """Misuses caught before the kernel runs."""
    pipe = asc.TPipe()
    q_b1 = asc.TQue(asc.TPosition.B1, 1)
    q_a2 = asc.TQue(asc.TPosition.A2, 1)
    q_b2 = asc.TQue(asc.TPosition.B2, 1)
    q_c = asc.TQue(asc.TPosition.CO1, 1)
    pipe.init_buffer(q_b1, 1, 2048)
    pipe.init_buffer(q_a2, 1, 2048)
    pipe.init_buffer(q_b2, 1, 2048)
    pipe.init_buffer(q_c, 1, 4096)
    b1 = q_b1.alloc_tensor(asc.int8)
    a2 = q_a2.alloc_tensor(asc.int8)
    b2 = q_b2.alloc_tensor(asc.int8)
    if which == 0:  # an int8 index
        asc.load_data_with_sparse(b2, b1, b1, asc.LoadData2DParams(repeat_times=1))
    if which == 1:  # dst at A2
        x1 = q_b1.alloc_tensor(asc.uint8)
        asc.load_data_with_sparse(a2, b1, x1, asc.LoadData2DParams(repeat_times=1))
    if which == 2:
        x1 = q_b1.alloc_tensor(asc.uint8)
        asc.load_data_with_sparse(b2, b1, x1, asc.LoadData2DParams(repeat_times=1,
                                                                   if_transpose=True))
    if which == 3:  # a float32 result
        c1 = q_c.alloc_tensor(asc.float32)
        asc.mmad_with_sparse(c1, a2, b2, asc.MmadParams(16, 16, 64))
    if which == 4:
        c1 = q_c.alloc_tensor(asc.int32)
        asc.mmad_with_sparse(c1, a2, b2, 16)


@pytest.mark.parametrize("which,pattern", [
    (0, r"dst and src must be int8 and idx uint8 \(got int8, int8, int8\)"),
    (1, r"operand 1 is a LocalTensor at TPosition\.A2; it must be at B2"),
    (2, r"load_data_with_sparse cannot transpose"),
    (3, r"mmad_with_sparse: dst must be int32 and fm, filter int8 \(got float32, int8, int8\)"),
    (4, r"mmad_with_sparse mmad_params must be a pyasc\.MmadParams"),
])
def test_compile_errors(which, pattern):
    with pytest.raises(asc.CompileError, match=pattern) as info:
        compile_error_kernel[1](which)
    assert "test_cube_sparse.py" in str(info.value)
