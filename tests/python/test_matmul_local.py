"""asc.adv.Matmul with A, B or the bias in local positions: a LocalTensor
in the Unified Buffer (VECIN/VECOUT/VECCALC, ND or NZ) or in L1 (A1/B1,
Ascend C's TSCM, NZ) given to set_tensor_a/set_tensor_b/set_bias, read by
the Matmul where a GlobalTensor would be; results against NumPy, the
Ascend C it emits, and the errors of wrong positions, sizes and
alignment."""

from __future__ import annotations

import numpy as np
import pytest

import asc
import pyasc

from cube_helpers import gm_abc, plain_tiling, ref_matmul, to_nz, workspace

GM, VECIN, VECOUT, VECCALC, A1 = (int(asc.TPosition.GM), int(asc.TPosition.VECIN),
                                  int(asc.TPosition.VECOUT), int(asc.TPosition.VECCALC),
                                  int(asc.TPosition.A1))
ND, NZ = int(asc.CubeFormat.ND), int(asc.CubeFormat.NZ)


@asc.jit
def stage_ub(pipe, src_gm, pos: asc.ConstExpr[int], count: asc.ConstExpr[int],
             room: asc.ConstExpr[int], skip: asc.ConstExpr[int]):
    """count elements of src_gm copied into a UB queue at pos (room bytes),
    returned as a LocalTensor starting skip elements in (the copy starts at
    the 32-byte boundary at or below it: a misaligned skip's tensor)."""
    que = asc.TQue(pos, 1)
    pipe.init_buffer(que, 1, room)
    t = que.alloc_tensor(src_gm.dtype)
    asc.data_copy(t[skip // 16 * 16:], src_gm, count=count)
    que.enque(t)
    return que.deque(src_gm.dtype)[skip:]


@asc.jit
def stage_l1(pipe, src_gm, rows: asc.ConstExpr[int], cols: asc.ConstExpr[int]):
    """A rows x cols ND float16 matrix in GM into an A1 (L1) queue as NZ."""
    que = asc.TQue(asc.TPosition.A1, 1)
    pipe.init_buffer(que, 1, (rows + 15) // 16 * 16 * ((cols + 15) // 16 * 16) * 2)
    t = que.alloc_tensor(src_gm.dtype)
    r16 = (rows + 15) // 16 * 16
    asc.data_copy(t, src_gm, asc.Nd2NzParams(1, rows, cols, 0, cols, r16, 1, 0))
    que.enque(t)
    return que.deque(src_gm.dtype)


@asc.jit
def local_kernel(a: asc.GlobalAddress, b: asc.GlobalAddress, c: asc.GlobalAddress,
                 bias: asc.GlobalAddress, tiling: asc.adv.TCubeTiling, ws: asc.GlobalAddress,
                 a_pos: asc.ConstExpr[int], b_pos: asc.ConstExpr[int],
                 a_fmt: asc.ConstExpr[int], b_fmt: asc.ConstExpr[int],
                 ta: asc.ConstExpr[bool], tb: asc.ConstExpr[bool],
                 a_len: asc.ConstExpr[int], b_len: asc.ConstExpr[int],
                 a_rows: asc.ConstExpr[int], a_cols: asc.ConstExpr[int],
                 bias_pos: asc.ConstExpr[int], n: asc.ConstExpr[int],
                 skip: asc.ConstExpr[int]):
    """C = op(A) @ op(B) (+ bias) with A/B staged at a_pos/b_pos (GM:
    read in place; UB: copied whole, a_len/b_len elements, A starting
    `skip` elements into its buffer; A1: A, a_rows x a_cols ND, to NZ)."""
    a_gm, b_gm, c_gm = gm_abc(a, b, c)
    bias_gm = asc.GlobalTensor()
    bias_gm.set_global_buffer(bias)
    pipe = asc.TPipe()
    if asc.get_block_idx() == 0:
        mm = asc.adv.Matmul(
            a=asc.adv.MatmulType(a_pos, a_fmt, a_gm.dtype, ta),
            b=asc.adv.MatmulType(b_pos, b_fmt, b_gm.dtype, tb),
            c=asc.adv.MatmulType(asc.TPosition.GM, asc.CubeFormat.ND, c_gm.dtype),
            bias=asc.adv.MatmulType(bias_pos, asc.CubeFormat.ND, asc.float32),
        )
        if a_pos == A1:
            a_in = stage_l1(pipe, a_gm, a_rows, a_cols)
        elif a_pos != GM:
            a_in = stage_ub(pipe, a_gm, a_pos, a_len, a_len * 2 + 64, skip)
        else:
            a_in = a_gm
        if b_pos != GM:
            b_in = stage_ub(pipe, b_gm, b_pos, b_len, b_len * 2 + 64, 0)
        else:
            b_in = b_gm
        asc.adv.register_matmul(pipe, ws, mm, tiling)
        mm.set_tensor_a(a_in, ta)
        mm.set_tensor_b(b_in, tb)
        if bias_pos != GM:
            mm.set_bias(stage_ub(pipe, bias_gm, bias_pos, n, n * 4, 0))
        else:
            mm.set_bias(bias_gm)
        mm.iterate_all(c_gm)
        mm.end()


def _ints(rng, shape):
    return rng.integers(-4, 5, shape).astype(np.float16)


def _run(m, n, k, a_pos=GM, b_pos=GM, a_nz=False, b_nz=False, ta=False, tb=False,
         bias_pos=GM, seed=0, a_len=None, skip=0):
    """The kernel's C and NumPy's A @ B + bias for one case, and its args."""
    rng = np.random.default_rng(seed)
    a, b = _ints(rng, (m, k)), _ints(rng, (k, n))
    bias = rng.integers(-9, 9, n).astype(np.float32)
    sa = np.ascontiguousarray(a.T) if ta else a  # stored A: k x m when transposed
    sb = np.ascontiguousarray(b.T) if tb else b
    ga = to_nz(sa) if a_nz and a_pos != A1 else sa.reshape(-1)
    gb = to_nz(sb) if b_nz else sb.reshape(-1)
    tiling = plain_tiling(m, n, k, bias=True)
    c = np.zeros((m, n), np.float32)
    args = (ga, gb, c, bias, tiling, workspace(), a_pos, b_pos, NZ if a_nz else ND,
            NZ if b_nz else ND, ta, tb, ga.size if a_len is None else a_len, gb.size,
            sa.shape[0], sa.shape[1], bias_pos, n, skip)
    local_kernel[1](*args)
    return c, ref_matmul(a, b) + bias, args


CASES = {
    "a_ub_nd": dict(a_pos=VECIN),
    "a_ub_nz": dict(a_pos=VECOUT, a_nz=True),
    "b_ub_nd": dict(b_pos=VECCALC),
    "b_ub_nz": dict(b_pos=VECIN, b_nz=True),
    "both_ub": dict(a_pos=VECOUT, b_pos=VECOUT),
    "both_ub_transposed": dict(a_pos=VECIN, b_pos=VECIN, ta=True, tb=True),
    "a_ub_nz_transposed": dict(a_pos=VECCALC, a_nz=True, ta=True),
    "a_l1_nz": dict(a_pos=A1, a_nz=True),
    "a_l1_b_ub": dict(a_pos=A1, a_nz=True, b_pos=VECIN, b_nz=True),
    "bias_ub": dict(a_pos=VECIN, b_pos=VECIN, bias_pos=VECCALC),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_local_operands_equal_numpy(case):
    # 40 x 48 x 72: M, N and K are no multiples of the 32/64-wide base blocks (tails)
    c, ref, _ = _run(40, 48, 72, **CASES[case])
    np.testing.assert_array_equal(c, ref)


def test_ub_tensor_at_an_offset_in_its_buffer():
    c, ref, _ = _run(40, 48, 72, a_pos=VECIN, skip=32)
    np.testing.assert_array_equal(c, ref)


def test_ascendc_names_the_positions():
    _, _, args = _run(32, 32, 32, a_pos=VECOUT, b_pos=VECIN, bias_pos=VECCALC)
    src = local_kernel.ascendc(*args)
    assert "MatmulType<AscendC::TPosition::VECOUT, CubeFormat::ND, half" in src
    assert "MatmulType<AscendC::TPosition::VECIN, CubeFormat::ND, half" in src
    assert "MatmulType<AscendC::TPosition::VECCALC, CubeFormat::ND, float>>" in src
    assert ".SetTensorA(" in src and ".SetBias(" in src
    _, _, args = _run(32, 32, 32, a_pos=A1, a_nz=True)
    src = local_kernel.ascendc(*args)
    assert "MatmulType<AscendC::TPosition::TSCM, CubeFormat::NZ, half" in src


def test_ub_tensor_too_small_for_the_org_shape_is_an_error():
    with pytest.raises(pyasc.KernelError,
                       match=r"test_matmul_local\.py:\d+: Matmul\.set_tensor_a: "
                             r"the LocalTensor holds \d+ bytes; A .* needs 5760"):
        _run(40, 48, 72, a_pos=VECIN, a_len=2560)


def test_misaligned_ub_tensor_is_an_error():
    with pytest.raises(pyasc.KernelError, match=r"set_tensor_a: .*not 32-byte aligned"):
        _run(40, 48, 72, a_pos=VECIN, skip=8)


@asc.jit
def wrong_kind_kernel(a: asc.GlobalAddress, which: asc.ConstExpr[int]):
    a_gm = asc.GlobalTensor()
    a_gm.set_global_buffer(a)
    pos = asc.TPosition.VECIN if which == 0 else asc.TPosition.GM
    mm = asc.adv.Matmul(a=asc.adv.MatmulType(pos, asc.CubeFormat.ND, asc.float16),
                        b=asc.adv.MatmulType(asc.TPosition.GM, asc.CubeFormat.ND, asc.float16),
                        c=asc.adv.MatmulType(asc.TPosition.GM, asc.CubeFormat.ND, asc.float32))
    if which == 0:
        mm.set_tensor_a(a_gm)
    else:
        pipe = asc.TPipe()
        mm.set_tensor_a(stage_ub(pipe, a_gm, VECIN, 256, 512, 0))


def test_set_tensor_takes_the_kind_its_position_says():
    a = np.zeros(256, np.float16)
    with pytest.raises(pyasc.CompileError, match=r"test_matmul_local\.py:\d+.*set_tensor_a: its "
                                                 r"MatmulType's position TPosition\.VECIN takes "
                                                 r"a LocalTensor"):
        wrong_kind_kernel[1](a, 0)
    with pytest.raises(pyasc.CompileError, match=r"position TPosition\.GM takes a GlobalTensor"):
        wrong_kind_kernel[1](a, 1)


@asc.jit
def bad_position_kernel(pa: asc.ConstExpr[int], fa: asc.ConstExpr[int], pb: asc.ConstExpr[int]):
    mm = asc.adv.Matmul(a=asc.adv.MatmulType(pa, fa, asc.float16),
                        b=asc.adv.MatmulType(asc.TPosition.GM, asc.CubeFormat.ND, asc.float16),
                        c=asc.adv.MatmulType(asc.TPosition.GM, asc.CubeFormat.ND, asc.float32),
                        bias=asc.adv.MatmulType(pb, asc.CubeFormat.ND, asc.float32))


def test_positions_matmul_does_not_take_are_errors():
    with pytest.raises(pyasc.CompileError, match=r"a's MatmulType position TPosition\.CO1 is not "
                                                 r"one it takes"):
        bad_position_kernel[1](int(asc.TPosition.CO1), NZ, GM)
    with pytest.raises(pyasc.CompileError, match=r"a in L1 \(TPosition\.A1, Ascend C's TSCM\) "
                                                 r"must be CubeFormat\.NZ"):
        bad_position_kernel[1](A1, ND, GM)
    with pytest.raises(pyasc.CompileError, match=r"bias's MatmulType position TPosition\.A1"):
        bad_position_kernel[1](GM, ND, A1)


def test_ub_operand_in_l1_position_is_an_error():
    # A's MatmulType says L1 (A1) but the tensor is a UB one: checked mode says where it must
    # be; default mode takes its address in L1, as the hardware does (no error)
    checked = asc.jit(mismatch_kernel.fn, debug=True)
    with pytest.raises(pyasc.KernelError, match=r"set_tensor_a: A must be a LocalTensor in L1"):
        checked[1](np.zeros(256, np.float16), plain_tiling(16, 16, 16), workspace())
    _run_mismatch()


@asc.jit
def mismatch_kernel(a: asc.GlobalAddress, tiling: asc.adv.TCubeTiling, ws: asc.GlobalAddress):
    a_gm = asc.GlobalTensor()
    a_gm.set_global_buffer(a)
    pipe = asc.TPipe()
    if asc.get_block_idx() == 0:
        mm = asc.adv.Matmul(a=asc.adv.MatmulType(asc.TPosition.A1, asc.CubeFormat.NZ, asc.float16),
                            b=asc.adv.MatmulType(asc.TPosition.GM, asc.CubeFormat.ND, asc.float16),
                            c=asc.adv.MatmulType(asc.TPosition.GM, asc.CubeFormat.ND, asc.float32))
        a_ub = stage_ub(pipe, a_gm, VECIN, 256, 512, 0)
        asc.adv.register_matmul(pipe, ws, mm, tiling)
        mm.set_tensor_a(a_ub)


def _run_mismatch():
    mismatch_kernel[1](np.zeros(256, np.float16), plain_tiling(16, 16, 16), workspace())


@pytest.mark.parametrize("case", ["both_ub_transposed", "a_l1_b_ub", "bias_ub"])
def test_ascendc_is_valid_cpp(case):
    from test_ascendc import gxx

    _, _, args = _run(32, 32, 32, **CASES[case])
    proc = gxx(local_kernel.ascendc(*args), "-Wno-unused-variable", "-Wno-unused-parameter")
    assert proc.returncode == 0 and "warning" not in proc.stderr, proc.stderr


@asc.jit(matmul_cube_only=True)
def cube_only_kernel(a: asc.GlobalAddress, b: asc.GlobalAddress, c: asc.GlobalAddress,
                     tiling: asc.adv.TCubeTiling, ws: asc.GlobalAddress,
                     m: asc.ConstExpr[int], k: asc.ConstExpr[int], a_pos: asc.ConstExpr[int],
                     fmt: asc.ConstExpr[int]):
    """C = A @ B on the AIC alone, A placed by the kernel at a_pos (A1: NZ)."""
    if asc.ascend_is_aic():
        a_gm, b_gm, c_gm = gm_abc(a, b, c)
        pipe = asc.TPipe()
        mm = asc.adv.Matmul(a=asc.adv.MatmulType(a_pos, fmt, a_gm.dtype),
                            b=asc.adv.MatmulType(asc.TPosition.GM, asc.CubeFormat.ND, b_gm.dtype),
                            c=asc.adv.MatmulType(asc.TPosition.GM, asc.CubeFormat.ND, c_gm.dtype))
        if a_pos == A1:
            a_in = stage_l1(pipe, a_gm, m, k)
        else:
            a_in = stage_ub(pipe, a_gm, a_pos, m * k, m * k * 2, 0)
        asc.adv.register_matmul(pipe, ws, mm, tiling)
        mm.set_tensor_a(a_in)
        mm.set_tensor_b(b_gm)
        mm.iterate_all(c_gm)
        mm.end()


def _cube_only(a_pos):
    m, n, k = 40, 48, 72
    rng = np.random.default_rng(5)
    a, b = _ints(rng, (m, k)), _ints(rng, (k, n))
    c = np.zeros((m, n), np.float32)
    cube_only_kernel[1](a, b, c, plain_tiling(m, n, k), workspace(), m, k, a_pos,
                        NZ if a_pos == A1 else ND)
    return c, ref_matmul(a, b)


def test_cube_only_kernel_reads_a_from_l1():
    c, ref = _cube_only(A1)
    np.testing.assert_array_equal(c, ref)


def test_cube_only_kernel_has_no_ub_operand():
    with pytest.raises(pyasc.CompileError, match=r"test_matmul_local\.py:\d+.*Matmul: a in the "
                                                 r"Unified Buffer needs an AIV: a cube-only"):
        _cube_only(VECIN)


@asc.jit
def vector_then_cube_kernel(a: asc.GlobalAddress, b: asc.GlobalAddress, c: asc.GlobalAddress,
                            tiling: asc.adv.TCubeTiling, ws: asc.GlobalAddress,
                            count: asc.ConstExpr[int], dtype_ok: asc.ConstExpr[bool]):
    """The AIV scales A by 2 from VECIN into VECOUT, and the Matmul reads
    its VECOUT result: C = 2A @ B (dtype_ok False: a float32 tensor)."""
    a_gm, b_gm, c_gm = gm_abc(a, b, c)
    pipe = asc.TPipe()
    if asc.get_block_idx() == 0:
        mm = asc.adv.Matmul(
            a=asc.adv.MatmulType(asc.TPosition.VECOUT, asc.CubeFormat.ND, a_gm.dtype),
            b=asc.adv.MatmulType(asc.TPosition.GM, asc.CubeFormat.ND, b_gm.dtype),
            c=asc.adv.MatmulType(asc.TPosition.GM, asc.CubeFormat.ND, c_gm.dtype))
        a_in = stage_ub(pipe, a_gm, VECIN, count, count * 2, 0)
        out_q = asc.TQue(asc.TPosition.VECOUT, 1)
        pipe.init_buffer(out_q, 1, count * 4)
        if dtype_ok:
            out = out_q.alloc_tensor(a_gm.dtype)
            asc.muls(out, a_in, 2.0, count)
            out_q.enque(out)
            scaled = out_q.deque(a_gm.dtype)
        else:
            scaled = out_q.alloc_tensor(asc.float32)
        asc.adv.register_matmul(pipe, ws, mm, tiling)
        mm.set_tensor_a(scaled)
        mm.set_tensor_b(b_gm)
        mm.iterate_all(c_gm)
        mm.end()


def _vector_then_cube(dtype_ok):
    m, n, k = 40, 48, 72
    rng = np.random.default_rng(6)
    a, b = _ints(rng, (m, k)), _ints(rng, (k, n))
    c = np.zeros((m, n), np.float32)
    vector_then_cube_kernel[1](a, b, c, plain_tiling(m, n, k), workspace(), m * k, dtype_ok)
    return c, ref_matmul(2 * a, b)


def test_vector_result_in_vecout_feeds_the_matmul():
    c, ref = _vector_then_cube(True)
    np.testing.assert_array_equal(c, ref)


def test_local_tensor_of_another_dtype_is_an_error():
    with pytest.raises(pyasc.KernelError, match=r"test_matmul_local\.py:\d+: Matmul\.set_tensor_a: "
                                                r"the LocalTensor's dtype is not the MatmulType's"):
        _vector_then_cube(False)


@asc.jit
def misused_local_a_kernel(a: asc.GlobalAddress, c: asc.GlobalAddress,
                           tiling: asc.adv.TCubeTiling, ws: asc.GlobalAddress,
                           batch: asc.ConstExpr[bool]):
    """A (16 x 16) in the UB, then either set_org_shape makes K 32 (A no
    longer holds it) or iterate_batch walks GM strides only (batch)."""
    a_gm, b_gm, c_gm = gm_abc(a, a, c)
    pipe = asc.TPipe()
    if asc.get_block_idx() == 0:
        mm = asc.adv.Matmul(a=asc.adv.MatmulType(asc.TPosition.VECIN, asc.CubeFormat.ND,
                                                 asc.float16),
                            b=asc.adv.MatmulType(asc.TPosition.GM, asc.CubeFormat.ND, asc.float16),
                            c=asc.adv.MatmulType(asc.TPosition.GM, asc.CubeFormat.ND, asc.float32))
        a_ub = stage_ub(pipe, a_gm, VECIN, 256, 512, 0)
        asc.adv.register_matmul(pipe, ws, mm, tiling)
        mm.set_tensor_a(a_ub)
        mm.set_tensor_b(b_gm)
        if batch:
            mm.iterate_batch(c_gm, 1, 1, False)
        else:
            mm.set_org_shape(16, 16, 32)
            mm.iterate_all(c_gm)


def test_org_shape_grown_past_the_local_tensor_is_an_error():
    a = np.zeros(1024, np.float16)
    with pytest.raises(pyasc.KernelError,
                       match=r"test_matmul_local\.py:\d+: Matmul: A's LocalTensor "
                             r"holds 512 bytes; .* needs 1024"):
        misused_local_a_kernel[1](a, np.zeros(256, np.float32), plain_tiling(16, 16, 16),
                                  workspace(), False)


def test_iterate_batch_with_a_local_operand_is_an_error():
    with pytest.raises(pyasc.KernelError,
                       match=r"test_matmul_local\.py:\d+: Matmul\.iterate_batch: "
                             r"A and B must be GlobalTensors"):
        misused_local_a_kernel[1](np.zeros(1024, np.float16), np.zeros(256, np.float32),
                                  plain_tiling(16, 16, 16), workspace(), True)


@asc.jit
def nd2nz_pad_kernel(a: asc.GlobalAddress, b: asc.GlobalAddress, c: asc.GlobalAddress,
                     tiling: asc.adv.TCubeTiling, ws: asc.GlobalAddress,
                     rows: asc.ConstExpr[int], cols: asc.ConstExpr[int],
                     ub_gap: asc.ConstExpr[int], gm_gap: asc.ConstExpr[int]):
    """C = A @ B with A (rows x cols ND float16, cols a multiple of 16) put
    in the UB with ub_gap 32-byte blocks after each row, then into A1 as NZ
    by data_copy_pad's UB -> L1 form (its GM stage gm_gap bytes per row)."""
    a_gm, b_gm, c_gm = gm_abc(a, b, c)
    pipe = asc.TPipe()
    if asc.get_block_idx() == 0:
        row_blocks = cols * 2 // 32
        ub = asc.TQue(asc.TPosition.VECIN, 1)
        pipe.init_buffer(ub, 1, rows * (row_blocks + ub_gap) * 32)
        staged = ub.alloc_tensor(a_gm.dtype)
        asc.data_copy(staged, a_gm, asc.DataCopyParams(rows, row_blocks, 0, ub_gap))
        ub.enque(staged)
        staged = ub.deque(a_gm.dtype)
        r16 = (rows + 15) // 16 * 16
        l1 = asc.TQue(asc.TPosition.A1, 1)
        pipe.init_buffer(l1, 1, r16 * cols * 2)
        a_l1 = l1.alloc_tensor(a_gm.dtype)
        asc.data_copy_pad(a_l1, staged, asc.DataCopyExtParams(rows, cols * 2, ub_gap, gm_gap, 0),
                          asc.Nd2NzParams(1, rows, cols, 0, (cols * 2 + gm_gap) // 2, r16, 1, 0))
        l1.enque(a_l1)
        a_in = l1.deque(a_gm.dtype)
        mm = asc.adv.Matmul(
            a=asc.adv.MatmulType(asc.TPosition.A1, asc.CubeFormat.NZ, a_gm.dtype),
            b=asc.adv.MatmulType(asc.TPosition.GM, asc.CubeFormat.ND, b_gm.dtype),
            c=asc.adv.MatmulType(asc.TPosition.GM, asc.CubeFormat.ND, c_gm.dtype),
        )
        asc.adv.register_matmul(pipe, ws, mm, tiling)
        mm.set_tensor_a(a_in)
        mm.set_tensor_b(b_gm)
        mm.iterate_all(c_gm)
        mm.end()


@pytest.mark.parametrize("ub_gap, gm_gap", [(0, 0), (1, 32), (2, 6)])
def test_data_copy_pad_ub_to_l1_equals_numpy(ub_gap, gm_gap):
    """data_copy_pad(L1, UB, DataCopyExtParams, Nd2NzParams) as CANN documents
    it: the UB's bursts through a GM workspace, then ND -> NZ into L1; the
    Matmul reading that A gives NumPy's A @ B (40 rows: a tail in M)."""
    m, n, k = 40, 48, 64
    rng = np.random.default_rng(ub_gap * 7 + gm_gap)
    a, b = _ints(rng, (m, k)), _ints(rng, (k, n))
    c = np.zeros((m, n), np.float32)
    nd2nz_pad_kernel[1](a.reshape(-1), b.reshape(-1), c, plain_tiling(m, n, k), workspace(),
                        m, k, ub_gap, gm_gap)
    np.testing.assert_array_equal(c, ref_matmul(a, b))


@asc.jit
def nd2nz_pad_misuse_kernel(a: asc.GlobalAddress, count: int, nd_num: int,
                            dst_pos: asc.ConstExpr[int]):
    """data_copy_pad's UB -> L1 form from a 256-element UB tensor: count
    bursts of 64 bytes, ndNum nd_num, the destination at dst_pos."""
    pipe = asc.TPipe()
    ub = asc.TQue(asc.TPosition.VECIN, 1)
    pipe.init_buffer(ub, 1, 512)
    src = ub.alloc_tensor(asc.float16)
    dst_que = asc.TQue(dst_pos, 1)
    pipe.init_buffer(dst_que, 1, 4096)
    dst = dst_que.alloc_tensor(asc.float16)
    asc.data_copy_pad(dst, src, asc.DataCopyExtParams(count, 64, 0, 0, 0),
                      asc.Nd2NzParams(nd_num, count, 32, 0, 32, 16, 1, 0))


@pytest.mark.parametrize("count, nd_num, match", [
    (9, 1, r"data_copy_pad: the bursts read past the source LocalTensor"),
    (2, 2, r"data_copy_pad: the UB -> L1 form takes ndNum 1 \(got 2\)"),
    (0, 1, r"data_copy_pad: blockCount must be in \[1, 4095\]"),
])
def test_data_copy_pad_ub_to_l1_errors(count, nd_num, match):
    """Bad parameters stop the kernel with an error at the call's line."""
    with pytest.raises(pyasc.KernelError, match=match):
        nd2nz_pad_misuse_kernel[1](np.zeros(16, np.float16), count, nd_num, A1)
        pyasc.synchronize()


def test_data_copy_pad_ub_to_l1_position_checked_at_run_time():
    """A destination outside L1 compiles (as in PyAsc) and runs in default
    mode; checked mode reports it."""
    nd2nz_pad_misuse_kernel[1](np.zeros(16, np.float16), 2, 1, VECOUT)
    pyasc.synchronize()
    checked = asc.jit(nd2nz_pad_misuse_kernel.fn, debug=True)
    with pytest.raises(pyasc.KernelError, match=r"data_copy: dst must be a LocalTensor in L1"):
        checked[1](np.zeros(16, np.float16), 2, 1, VECOUT)
        pyasc.synchronize()
