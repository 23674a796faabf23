"""The cube unit's basic APIs in kernels (load_data, mmad, fixpipe, the
ND<->NZ data_copy forms) against NumPy, and their errors.

fp16/bf16 inputs accumulate in float32: with inputs that are small dyadic
numbers every product and partial sum is exact, so results must equal
NumPy's float32 product exactly; random normal inputs are compared with a
bound that grows with K. int8 -> int32 is exact."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

import pyasc as asc

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "examples"))
from matmul_basic import matmul_basic  # noqa: E402
from cube_helpers import cube_queues, gm_abc_sized, load_tile_32  # noqa: E402

SHAPES = [(16, 16, 16), (1, 1, 1), (17, 33, 15), (130, 129, 70), (64, 300, 128), (5, 7, 200)]


def _dyadic(rng, shape, scale):
    return (rng.integers(-8, 9, shape) / scale).astype(np.float16)


@pytest.mark.parametrize("m,n,k", SHAPES)
@pytest.mark.parametrize("cores", [1, 3])
def test_fp16_exact(m, n, k, cores):
    rng = np.random.default_rng(m * 1000 + n + k)
    a, b = _dyadic(rng, (m, k), 4), _dyadic(rng, (k, n), 8)
    c = matmul_basic(a, b, cores=cores)
    assert c.dtype == np.float32
    np.testing.assert_array_equal(c, a.astype(np.float32) @ b.astype(np.float32))


def test_fp16_random_normal():
    rng = np.random.default_rng(1)
    m, n, k = 200, 150, 300
    a = rng.standard_normal((m, k)).astype(np.float16)
    b = rng.standard_normal((k, n)).astype(np.float16)
    c = matmul_basic(a, b, cores=5)
    a32, b32 = a.astype(np.float32), b.astype(np.float32)
    bound = 4 * np.finfo(np.float32).eps * k * (np.abs(a32) @ np.abs(b32))
    assert np.all(np.abs(c - a32 @ b32) <= bound)


def test_fp16_output_fp16():
    rng = np.random.default_rng(2)
    a, b = _dyadic(rng, (40, 64), 4), _dyadic(rng, (64, 48), 8)
    c = matmul_basic(a, b, out_dtype=np.float16)
    assert c.dtype == np.float16
    np.testing.assert_array_equal(c, (a.astype(np.float32) @ b.astype(np.float32)).astype(np.float16))


@pytest.mark.parametrize("m,n,k", [(32, 32, 32), (33, 17, 100), (100, 130, 64)])
def test_int8_exact(m, n, k):
    rng = np.random.default_rng(3)
    a = rng.integers(-128, 128, (m, k), dtype=np.int8)
    b = rng.integers(-128, 128, (k, n), dtype=np.int8)
    c = matmul_basic(a, b, cores=2)
    np.testing.assert_array_equal(c, a.astype(np.int32) @ b.astype(np.int32))


# --- single-tile kernels: bias, relu, NZ output, errors ----------------------


@asc.jit
def tile_kernel(a: asc.GlobalAddress, b: asc.GlobalAddress, bias: asc.GlobalAddress,
                c: asc.GlobalAddress, relu: asc.ConstExpr[bool], use_bias: asc.ConstExpr[bool],
                nz: asc.ConstExpr[int]):
    """C (32 x 32, float32) = A (32 x 32) @ B (+ bias) with one load each."""
    a_gm, b_gm, c_gm = gm_abc_sized(a, b, c, 1024)
    bias_gm = asc.GlobalTensor()
    bias_gm.set_global_buffer(bias, 32)
    pipe = asc.TPipe()
    q_a1, q_b1, q_a2, q_b2, q_c = cube_queues(pipe, 2048, 2048, 2048, 2048, 4096)
    a2, b2 = load_tile_32(a_gm, b_gm, q_a1, q_b1, q_a2, q_b2)
    c1 = q_c.alloc_tensor(asc.float32)
    if use_bias:
        asc.mmad(c1, a2, b2, bias_gm, asc.MmadParams(32, 32, 32))
    else:
        asc.mmad(c1, a2, b2, asc.MmadParams(32, 32, 32))
    # dst_stride: elements per row (ND) or 32-byte blocks between NZ column
    # blocks (32 rows of 16 floats: 64 blocks)
    asc.fixpipe(c_gm, c1, asc.FixpipeParamsV220(32, 32, 32, 64 if nz else 32, relu_en=relu), nz)


def _tile(relu=False, use_bias=False, nz=0):
    rng = np.random.default_rng(4)
    a, b = _dyadic(rng, (32, 32), 4), _dyadic(rng, (32, 32), 8)
    bias = (rng.integers(-16, 16, 32) / 2).astype(np.float32)
    c = np.zeros((32, 32), np.float32)
    tile_kernel[1](a, b, bias, c, relu, use_bias, nz)
    ref = a.astype(np.float32) @ b.astype(np.float32)
    if use_bias:
        ref = ref + bias
    if relu:
        ref = np.maximum(ref, 0)
    return c, ref


def test_bias_and_relu():
    c, ref = _tile(relu=True, use_bias=True)
    np.testing.assert_array_equal(c, ref)
    assert (ref == 0).any() and (ref > 0).any()


def test_nz_output():
    c, ref = _tile(nz=1)
    # NZ with C0 = 16 columns: column block j holds rows x 16
    nz = ref.reshape(32, 2, 16).transpose(1, 0, 2).reshape(32, 32)
    np.testing.assert_array_equal(c, nz)


@asc.jit
def overrun_kernel(a: asc.GlobalAddress, c: asc.GlobalAddress, big: asc.ConstExpr[int]):
    pipe = asc.TPipe()
    q = asc.TQue(asc.TPosition.A2, 1)
    q2 = asc.TQue(asc.TPosition.A2, 1)
    pipe.init_buffer(q, 1, 32768)
    pipe.init_buffer(q2, 1, big)


def test_l0a_capacity_names_line():
    a = np.zeros(16, np.float16)
    overrun_kernel[1](a, a, 32768)  # exactly L0A
    with pytest.raises(asc.KernelError, match=r"test_cube\.py:\d+: init_buffer: L0A overflow"):
        overrun_kernel[1](a, a, 32768 + 32)
    with pytest.raises(asc.KernelError, match=r"test_cube\.py:\d+: init_buffer: .* 65536-byte L0A"):
        overrun_kernel[1](a, a, 65536 + 32)


@asc.jit
def misuse_kernel(a: asc.GlobalAddress, which: asc.ConstExpr[int]):
    a_gm = asc.GlobalTensor()
    a_gm.set_global_buffer(a, 4096)
    pipe = asc.TPipe()
    q_a1 = asc.TQue(asc.TPosition.A1, 1)
    q_a2 = asc.TQue(asc.TPosition.A2, 1)
    q_b2 = asc.TQue(asc.TPosition.B2, 1)
    q_c = asc.TQue(asc.TPosition.CO1, 1)
    pipe.init_buffer(q_a1, 1, 4096)
    pipe.init_buffer(q_a2, 1, 1024)
    pipe.init_buffer(q_b2, 1, 4096)
    pipe.init_buffer(q_c, 1, 4096)
    a1 = q_a1.alloc_tensor(asc.float16)
    a2 = q_a2.alloc_tensor(asc.float16)
    b2 = q_b2.alloc_tensor(asc.float16)
    c1 = q_c.alloc_tensor(asc.float32)
    if which == 0:  # 4 fractals into a 2-fractal L0A tensor
        asc.load_data(a2, a1, asc.LoadData2DParams(0, 4, 1, 0, 0, False))
    if which == 1:  # a tensor 32 bytes into L0A: not fractal-aligned
        asc.load_data(a2[16:], a1, asc.LoadData2DParams(0, 1, 1, 0, 0, False))
    if which == 2:  # mmad reads more of L0A than the tensor holds
        asc.mmad(c1, a2, b2, asc.MmadParams(64, 16, 16))


@pytest.mark.parametrize("which,pattern", [
    (0, r"load_data writes fractal 2 past its destination"),
    (1, r"not aligned to 512 bytes"),
    (2, r"mmad reads 2048 bytes of L0A"),
])
def test_runtime_errors_name_the_line(which, pattern):
    """Checked mode holds a cube instruction to its tensors; alignment is
    checked in both modes."""
    a = np.zeros(4096, np.float16)
    checked = asc.jit(misuse_kernel.fn, debug=True)
    with pytest.raises(asc.KernelError, match=r"test_cube\.py:\d+: .*" + pattern):
        checked[1](a, which)
    if which == 1:
        with pytest.raises(asc.KernelError, match=pattern):
            misuse_kernel[1](a, which)


@pytest.mark.parametrize("which", [0, 2])
def test_default_mode_bounds_cube_operands_by_their_buffer(which):
    """The hardware bounds a load or an mmad by L0A/L0B/L0C, not by the
    tensor: the default mode runs past a tensor that its buffer holds
    (CANN's mmad example writes 64 columns into an L0C tensor of 48)."""
    misuse_kernel[1](np.zeros(4096, np.float16), which)
    asc.synchronize()


@asc.jit
def wrong_position_kernel(a: asc.GlobalAddress):
    pipe = asc.TPipe()
    q = asc.TQue(asc.TPosition.VECIN, 1)
    q_c = asc.TQue(asc.TPosition.CO1, 1)
    pipe.init_buffer(q, 1, 1024)
    pipe.init_buffer(q_c, 1, 1024)
    x = q.alloc_tensor(asc.float16)
    c1 = q_c.alloc_tensor(asc.float32)
    asc.mmad(c1, x, x, asc.MmadParams(16, 16, 16))


def test_positions_checked_at_run_time():
    """PyAsc compiles any positions for mmad; checked mode reports the
    misplaced operand when it runs (test_upstream_forms_basic.py checks
    that default mode takes the address in L0A as the hardware does)."""
    a = np.zeros(16, np.float16)
    checked = asc.jit(wrong_position_kernel.fn, debug=True)
    with pytest.raises(asc.KernelError, match=r"mmad: fm must be a LocalTensor in L0A \(A2\)"):
        checked[1](a)
        asc.synchronize()


@asc.jit
def nd2nz_into_ub_kernel(a: asc.GlobalAddress):
    pipe = asc.TPipe()
    q = asc.TQue(asc.TPosition.VECIN, 1)
    pipe.init_buffer(q, 1, 1024)
    x = q.alloc_tensor(asc.float16)
    g = asc.GlobalTensor()
    g.set_global_buffer(a, 256)
    asc.data_copy(x, g, intri_params=asc.Nd2NzParams(1, 16, 16, 0, 16, 16, 1, 0))
    asc.data_copy(x, x, intri_params=asc.Nd2NzParams(1, 16, 16, 0, 16, 16, 1, 0))


def test_nd2nz_positions_checked_at_run_time():
    """PyAsc compiles data_copy with Nd2NzParams between any positions
    (its unit tests copy VECIN -> VECIN): default mode runs it, taking the
    destination's address in L1 as the hardware does; checked mode reports
    the misplaced destination when it runs."""
    a = np.arange(256, dtype=np.float16)
    nd2nz_into_ub_kernel[1](a)
    asc.synchronize()
    checked = asc.jit(nd2nz_into_ub_kernel.fn, debug=True)
    with pytest.raises(asc.KernelError, match=r"data_copy: dst must be a LocalTensor in L1"):
        checked[1](a)
        asc.synchronize()


@asc.jit
def wrong_dtype_kernel(a: asc.GlobalAddress):
    pipe = asc.TPipe()
    q_a = asc.TQue(asc.TPosition.A2, 1)
    q_b = asc.TQue(asc.TPosition.B2, 1)
    q_c = asc.TQue(asc.TPosition.CO1, 1)
    pipe.init_buffer(q_a, 1, 1024)
    pipe.init_buffer(q_b, 1, 1024)
    pipe.init_buffer(q_c, 1, 1024)
    x = q_a.alloc_tensor(asc.float16)
    y = q_b.alloc_tensor(asc.float16)
    c1 = q_c.alloc_tensor(asc.float16)
    asc.mmad(c1, x, y, asc.MmadParams(16, 16, 16))


def test_mmad_dst_dtype_checked():
    """PyAsc compiles a float16 dst; the cube refuses it when it runs."""
    a = np.zeros(16, np.float16)
    with pytest.raises(asc.KernelError, match=r"test_cube\.py:\d+: .*dst float32"):
        wrong_dtype_kernel[1](a)
        asc.synchronize()


@asc.jit
def big_l1_kernel(a: asc.GlobalAddress, size: asc.ConstExpr[int]):
    pipe = asc.TPipe()
    q = asc.TQue(asc.TPosition.A1, 1)
    pipe.init_buffer(q, 1, size)


def test_cube_buffers_do_not_count_against_ub():
    # 384 KiB fit L1 (512 KiB) but not the 192 KiB Unified Buffer
    a = np.zeros(16, np.float16)
    big_l1_kernel[1](a, 384 * 1024)
    with pytest.raises(asc.KernelError, match="512 KiB|524288-byte L1"):
        big_l1_kernel[1](a, 600 * 1024)


# --- checked mode: missing synchronisation on the cube's pipes ----------------


@asc.jit(debug=True)
def sync_kernel(a: asc.GlobalAddress, c: asc.GlobalAddress, mode: asc.ConstExpr[int]):
    """load_data (MTE1) -> mmad (M) -> fixpipe (FIX), ordered by queues
    (mode 0), by flags (mode 1), or not at all (2: MTE1->M, 3: M->FIX)."""
    a_gm = asc.GlobalTensor()
    c_gm = asc.GlobalTensor()
    a_gm.set_global_buffer(a, 256)
    c_gm.set_global_buffer(c, 256)
    pipe = asc.TPipe()
    q_a1 = asc.TQue(asc.TPosition.A1, 1)
    q_a2 = asc.TQue(asc.TPosition.A2, 1)
    q_b2 = asc.TQue(asc.TPosition.B2, 1)
    q_c = asc.TQue(asc.TPosition.CO1, 1)
    pipe.init_buffer(q_a1, 1, 512)
    pipe.init_buffer(q_a2, 1, 512)
    pipe.init_buffer(q_b2, 1, 512)
    pipe.init_buffer(q_c, 1, 1024)
    a1 = q_a1.alloc_tensor(asc.float16)
    asc.data_copy(a1, a_gm, asc.Nd2NzParams(1, 16, 16, 0, 16, 16, 1, 0))
    q_a1.enque(a1)
    a1 = q_a1.deque(asc.float16)
    a2 = q_a2.alloc_tensor(asc.float16)
    b2 = q_b2.alloc_tensor(asc.float16)
    asc.load_data(a2, a1, asc.LoadData2DParams(0, 1, 1, 0, 0, False))
    asc.load_data(b2, a1, asc.LoadData2DParams(0, 1, 1, 0, 0, True))
    if mode == 0:
        q_a2.enque(a2)
        q_b2.enque(b2)
        a2 = q_a2.deque(asc.float16)
        b2 = q_b2.deque(asc.float16)
    if mode == 1 or mode == 3:
        asc.set_flag(asc.HardEvent.MTE1_M, 0)
        asc.wait_flag(asc.HardEvent.MTE1_M, 0)
    c1 = q_c.alloc_tensor(asc.float32)
    asc.mmad(c1, a2, b2, asc.MmadParams(16, 16, 16))
    if mode == 0:
        q_c.enque(c1)
        c1 = q_c.deque(asc.float32)
    if mode == 1 or mode == 2:
        asc.set_flag(asc.HardEvent.M_FIX, 0)
        asc.wait_flag(asc.HardEvent.M_FIX, 0)
    asc.fixpipe(c_gm, c1, asc.FixpipeParamsV220(16, 16, 16, 16))


@pytest.mark.parametrize("mode", [0, 1])
def test_checked_mode_accepts_ordered_cube_pipes(mode):
    rng = np.random.default_rng(10)
    a = _dyadic(rng, (16, 16), 4)
    c = np.zeros((16, 16), np.float32)
    sync_kernel[1](a, c, mode)
    a32 = a.astype(np.float32)
    np.testing.assert_array_equal(c, a32 @ a32)


@pytest.mark.parametrize("mode,pattern", [
    (2, r"mmad: missing synchronisation \(read-after-write\): fm reads L0A bytes \[0, 512\) on "
        r"pipe M, but load_data at line \d+ wrote .* on pipe MTE1 .*HardEvent\.MTE1_M"),
    (3, r"fixpipe: missing synchronisation \(read-after-write\): src reads L0C .* on pipe FIX, "
        r"but mmad at line \d+ wrote .* on pipe M .*HardEvent\.M_FIX"),
])
def test_checked_mode_reports_missing_cube_sync(mode, pattern):
    a = np.zeros((16, 16), np.float16)
    c = np.zeros((16, 16), np.float32)
    with pytest.raises(asc.KernelError, match=r"test_cube\.py:\d+: " + pattern):
        sync_kernel[1](a, c, mode)


@asc.jit
def cross_kernel(a: asc.GlobalAddress, sets: asc.ConstExpr[int], waits: asc.ConstExpr[int]):
    for i in asc.static_range(sets):
        asc.cross_core_set_flag(3, 2, asc.PipeID.PIPE_FIX)
    for i in asc.static_range(waits):
        asc.cross_core_wait_flag(3, 2, asc.PipeID.PIPE_MTE2)


def test_cross_core_flags():
    a = np.zeros(16, np.float32)
    cross_kernel[2](a, 2, 2)  # each AIV's two sets reach the AIC, the AIC's two each AIV
    with pytest.raises(asc.KernelError, match=r"test_cube\.py:\d+: cross_core_wait_flag: flag 3 "
                                              r"\(mode 2\) is never set.*would hang"):
        cross_kernel[1](a, 1, 2)
    with pytest.raises(asc.KernelError, match="set 16 times without a wait"):
        cross_kernel[1](a, 16, 0)
    src = cross_kernel.ascendc(a, 1, 1)
    assert "AscendC::CrossCoreSetFlag<2, PIPE_FIX>(3)" in src
    assert "AscendC::CrossCoreWaitFlag<2, PIPE_MTE2>(3)" in src
