"""asc.adv.Matmul forms PyAsc's front end accepts: Matmul(...,
matmul_config=...), set_tensor_a/b(scalar), set_org_shape's fifth argument
(C's row length), iterate_all's sync/wait/fake_msg arguments and a
LocalTensor C, get_tensor_c(gm, optional_tensor=local), the GlobalTensor
that get_batch_tensor_c returns, set_workspace(address, size),
set_self_define_data/set_user_def_info with a GlobalAddress, set_hf32
outside cube-only kernels and get_matmul_api_tiling of an open config:
each run on the simulator against NumPy."""

from __future__ import annotations

import numpy as np
import pytest

import asc
import pyasc

from cube_helpers import gm_abc, plain_tiling, ref_matmul, workspace
from test_ascendc import assert_valid_cpp


@asc.jit(matmul_cube_only=True)
def forms_kernel(a: asc.GlobalAddress, b: asc.GlobalAddress, c: asc.GlobalAddress,
                 tiling: asc.adv.TCubeTiling, ws: asc.GlobalAddress, form: asc.ConstExpr[int],
                 m: asc.ConstExpr[int], n: asc.ConstExpr[int], k: asc.ConstExpr[int],
                 kc: asc.ConstExpr[int]):
    a_gm, b_gm, c_gm = gm_abc(a, b, c)
    pipe = asc.TPipe()
    a_t = asc.adv.MatmulType(asc.TPosition.GM, asc.CubeFormat.ND, a_gm.dtype)
    b_t = asc.adv.MatmulType(asc.TPosition.GM, asc.CubeFormat.ND, b_gm.dtype)
    c_t = asc.adv.MatmulType(asc.TPosition.GM, asc.CubeFormat.ND, c_gm.dtype)
    # a config that fixes no shape: its static tiling has no constant field
    cfg = asc.adv.MatmulConfig(do_norm=False, iterate_mode=asc.IterateMode.ITERATE_MODE_DEFAULT,
                               single_core_mn=0, schedule_type=asc.ScheduleType.INNER_PRODUCT)
    static = asc.adv.get_matmul_api_tiling(mm_cfg=cfg, l1_size=524288, a_type=a_t,
                                           b_type=b_t, c_type=c_t, bias_type=c_t)
    mm = asc.adv.Matmul(a_t, b_t, c_t, matmul_config=static if form == 4 else cfg)
    asc.adv.register_matmul(pipe, ws, mm, tiling)
    mm.set_self_define_data(a)  # callback data: no callback, no effect
    mm.set_user_def_info(a)
    mm.set_tensor_a(a_gm)
    mm.set_tensor_b(b_gm)
    if form == 1:
        mm.set_tensor_a(3)  # every element of A is 3
    if form == 2:
        mm.set_tensor_b(-2.0)
    if form == 3:
        mm.set_org_shape(m, n, k, k, kc)  # C's rows are kc elements long
    mm.iterate_all(c_gm, en_atomic=0, en_sequential_write=False, wait_iterate_all=True,
                   fake_msg=False, sync=False)
    mm.wait_iterate_all()
    mm.end()


def _forms(form: int, kc: int = 0):
    m, n, k = 40, 24, 48
    rng = np.random.default_rng(form)
    a = rng.integers(-4, 5, (m, k)).astype(np.float16)
    b = rng.integers(-4, 5, (k, n)).astype(np.float16)
    c = np.full((m, kc or n), 7, np.float32)
    args = (a, b, c, plain_tiling(m, n, k), workspace(), form, m, n, k, kc)
    forms_kernel[1](*args)
    return a, b, c, args


@pytest.mark.parametrize("form", [0, 1, 2, 4])
def test_config_and_scalar_operands(form):
    a, b, c, args = _forms(form)
    if form == 1:
        a = np.full_like(a, 3)
    if form == 2:
        b = np.full_like(b, -2)
    np.testing.assert_array_equal(c, ref_matmul(a, b))
    src = forms_kernel.ascendc(*args)
    assert "SetSelfDefineData(reinterpret_cast<uint64_t>((__gm__ half *)a))" in src
    assert "SetUserDefInfo(reinterpret_cast<uint64_t>((__gm__ half *)a))" in src
    if form in (1, 2):
        assert ("SetTensorA(3)" if form == 1 else "SetTensorB(") in src
    assert_valid_cpp(src)


def test_org_kc_is_cs_row_length():
    kc = 40
    a, b, c, args = _forms(3, kc)
    ref = np.full((a.shape[0], kc), 7, np.float32)
    ref[:, :b.shape[1]] = ref_matmul(a, b)
    np.testing.assert_array_equal(c, ref)  # the columns past N are left alone
    src = forms_kernel.ascendc(*args)
    assert "SetOrgShape(40, 24, 48, 48, 40)" in src
    assert_valid_cpp(src)


@asc.jit(matmul_cube_only=True)
def kc_error_kernel(a: asc.GlobalAddress, b: asc.GlobalAddress, c: asc.GlobalAddress,
                    tiling: asc.adv.TCubeTiling, ws: asc.GlobalAddress):
    a_gm, b_gm, c_gm = gm_abc(a, b, c)
    pipe = asc.TPipe()
    t = asc.adv.MatmulType(asc.TPosition.GM, asc.CubeFormat.ND, asc.float16)
    mm = asc.adv.Matmul(t, t, asc.adv.MatmulType(asc.TPosition.GM, asc.CubeFormat.ND,
                                                 asc.float32))
    asc.adv.register_matmul(pipe, ws, mm, tiling)
    mm.set_org_shape(16, 16, 16, 16, 8)


def test_org_kc_shorter_than_n_is_an_error():
    x = np.zeros(256, np.float16)
    with pytest.raises(pyasc.KernelError, match="org_kc 8 .* is shorter than N 16"):
        kc_error_kernel[1](x, x, np.zeros(256, np.float32), plain_tiling(16, 16, 16),
                           workspace())


@asc.jit
def ub_kernel(a: asc.GlobalAddress, b: asc.GlobalAddress, c: asc.GlobalAddress,
              c2: asc.GlobalAddress, tiling: asc.adv.TCubeTiling, ws: asc.GlobalAddress,
              m: asc.ConstExpr[int], n: asc.ConstExpr[int], form: asc.ConstExpr[int]):
    """form 0: iterate_all into a LocalTensor, copied out to c; form 1:
    get_tensor_c(c, optional_tensor=block) for the one block, the block
    copied out to c2."""
    a_gm, b_gm, c_gm = gm_abc(a, b, c)
    c2_gm = asc.GlobalTensor()
    c2_gm.set_global_buffer(c2)
    pipe = asc.TPipe()
    que = asc.TQue(asc.TPosition.VECIN, 1)
    pipe.init_buffer(que, 1, m * n * 4)
    if asc.get_block_idx() == 0:
        mm = asc.adv.Matmul(asc.adv.MatmulType(asc.TPosition.GM, asc.CubeFormat.ND, a_gm.dtype),
                            asc.adv.MatmulType(asc.TPosition.GM, asc.CubeFormat.ND, b_gm.dtype),
                            asc.adv.MatmulType(asc.TPosition.GM, asc.CubeFormat.ND, c_gm.dtype))
        asc.adv.register_matmul(pipe, ws, mm, tiling)
        mm.set_hf32(True)  # float16 operands: HF32 leaves them as they are
        mm.set_tensor_a(a_gm)
        mm.set_tensor_b(b_gm)
        out = que.alloc_tensor(c_gm.dtype)
        if form == 0:
            mm.iterate_all(out)
            que.enque(out)
            out = que.deque(c_gm.dtype)
            asc.data_copy(c_gm, out, m * n)
        else:
            with mm.iterate():
                mm.get_tensor_c(tensor=c_gm, optional_tensor=out)
            que.enque(out)
            out = que.deque(c_gm.dtype)
            asc.data_copy(c2_gm, out, m * n)
        que.free_tensor(out)
        mm.end()


@pytest.mark.parametrize("form", [0, 1])
def test_c_into_a_local_tensor(form):
    m, n, k = 16, 16, 32  # one base block
    rng = np.random.default_rng(9 + form)
    a = rng.integers(-4, 5, (m, k)).astype(np.float16)
    b = rng.integers(-4, 5, (k, n)).astype(np.float16)
    c = np.zeros((m, n), np.float32)
    c2 = np.zeros((m, n), np.float32)
    args = (a, b, c, c2, plain_tiling(m, n, k), workspace(), m, n, form)
    ub_kernel[1](*args)
    np.testing.assert_array_equal(c, ref_matmul(a, b))
    if form == 1:
        np.testing.assert_array_equal(c2, ref_matmul(a, b))


@asc.jit(matmul_cube_only=True)
def batch_gm_kernel(a: asc.GlobalAddress, b: asc.GlobalAddress, c: asc.GlobalAddress,
                    tiling: asc.adv.TCubeTiling, ws: asc.GlobalAddress, ws_bytes: int,
                    loops: asc.ConstExpr[int], batch: asc.ConstExpr[int],
                    reads: asc.ConstExpr[int]):
    """iterate_n_batch into a workspace given as (address, size); each
    loop's results read through the GlobalTensor get_batch_tensor_c returns."""
    a_gm, b_gm, c_gm = gm_abc(a, b, c)
    pipe = asc.TPipe()
    que = asc.TQue(asc.TPosition.VECOUT, 1)
    size = batch * tiling.m * tiling.n
    pipe.init_buffer(que=que, num=1, len=size * 4)
    t = asc.adv.MatmulType(asc.TPosition.GM, asc.CubeFormat.ND, a_gm.dtype)
    mm = asc.adv.Matmul(t, t, asc.adv.MatmulType(asc.TPosition.GM, asc.CubeFormat.ND,
                                                 c_gm.dtype))
    asc.adv.register_matmul(pipe, ws, mm, tiling)
    mm.set_workspace(ws, ws_bytes)
    mm.set_tensor_a(a_gm)
    mm.set_tensor_b(b_gm)
    mm.iterate_n_batch(loops, batch, batch, False, 0, 0, 0, False, True)
    for i in range(reads):
        res = mm.get_batch_tensor_c(batch, batch, False, False)
        out = que.alloc_tensor(c_gm.dtype)
        asc.data_copy(out, res, size)
        que.enque(out)
        out = que.deque(c_gm.dtype)
        asc.data_copy(c_gm[i * size:], out, count=size)
        que.free_tensor(out)
    mm.end()


def test_get_batch_tensor_c_returns_the_results_in_gm():
    loops, batch, m, n, k = 3, 2, 32, 16, 32
    rng = np.random.default_rng(3)
    a = rng.integers(-4, 5, (loops * batch, m, k)).astype(np.float16)
    b = rng.integers(-4, 5, (loops * batch, k, n)).astype(np.float16)
    c = np.zeros((loops * batch, m, n), np.float32)
    ws = np.zeros(loops * batch * m * n * 4, np.uint8)
    args = (a, b, c, plain_tiling(m, n, k), ws, ws.nbytes, loops, batch, loops)
    batch_gm_kernel[1](*args)
    np.testing.assert_array_equal(c, ref_matmul(a, b))
    with pytest.raises(pyasc.KernelError, match="no more results"):
        batch_gm_kernel[1](*args[:-1], loops + 1)  # one read past the results
    src = batch_gm_kernel.ascendc(*args)
    assert "GetBatchTensorC<false>(" in src
    assert_valid_cpp(src)
