"""asc.adv.Matmul's calls beyond the normal schedule: disable_bias, the
waits and async_get_tensor_c of a synchronous simulator, set_workspace,
set_hf32, and the Matmul configuration enums."""

from __future__ import annotations

import numpy as np
import pytest

import asc
import pyasc

from cube_helpers import (gm_abc, gm_matmul, gm_matmul_bias, gm_tiler, plain_tiling,
                          ref_matmul, square_matmul, take_tiling, workspace)


@asc.jit(matmul_cube_only=True)
def bias_kernel(a: asc.GlobalAddress, b: asc.GlobalAddress, c: asc.GlobalAddress,
                bias: asc.GlobalAddress, tiling: asc.adv.TCubeTiling,
                workspace: asc.GlobalAddress, disable: asc.ConstExpr[bool],
                hf32: asc.ConstExpr[bool]):
    a_gm, b_gm, c_gm = gm_abc(a, b, c)
    bias_gm = asc.GlobalTensor()
    ws_gm = asc.GlobalTensor()
    bias_gm.set_global_buffer(bias)
    ws_gm.set_global_buffer(workspace)
    pipe = asc.TPipe()
    mm = gm_matmul_bias(pipe, workspace, tiling, a_gm, b_gm, c_gm, bias_gm)
    mm.set_workspace(ws_gm)
    if hf32:
        mm.set_hf32(True, 0)
    mm.set_tensor_a(a_gm)
    mm.set_tensor_b(b_gm)
    mm.set_bias(bias_gm)
    if disable:
        mm.disable_bias()
    mm.iterate_all(c_gm)
    mm.wait_iterate_all()
    mm.end()


def _run(disable: bool, hf32: bool = False):
    m, n, k = 48, 40, 64
    rng = np.random.default_rng(3)
    a = rng.integers(-4, 5, (m, k)).astype(np.float16)
    b = rng.integers(-4, 5, (k, n)).astype(np.float16)
    bias = rng.integers(-9, 9, n).astype(np.float32)
    tiling = plain_tiling(m, n, k, bias=True)
    c = np.zeros((m, n), np.float32)
    args = (a, b, c, bias, tiling, workspace(), disable, hf32)
    bias_kernel[1](*args)
    ref = ref_matmul(a, b)
    return c, ref, bias, args


def test_disable_bias_drops_the_bias():
    c, ref, bias, _ = _run(disable=False)
    np.testing.assert_array_equal(c, ref + bias)
    c, ref, _, args = _run(disable=True, hf32=True)
    np.testing.assert_array_equal(c, ref)  # fp16 inputs: HF32 changes nothing
    src = bias_kernel.ascendc(*args)
    for call in ("DisableBias()", "WaitIterateAll()", "SetWorkspace(", "SetHF32(true, 0)"):
        assert call in src


@asc.jit
def async_kernel(a: asc.GlobalAddress, b: asc.GlobalAddress, c: asc.GlobalAddress,
                 tiling: asc.adv.TCubeTiling, workspace: asc.GlobalAddress):
    a_gm, b_gm, c_gm = gm_abc(a, b, c)
    pipe = asc.TPipe()
    que = asc.TQue(asc.TPosition.VECOUT, 1)
    pipe.init_buffer(que=que, num=1, len=tiling.base_m * tiling.base_n * 4)
    mm = asc.adv.Matmul(
        a=asc.adv.MatmulType(asc.TPosition.GM, asc.CubeFormat.ND, a_gm.dtype),
        b=asc.adv.MatmulType(asc.TPosition.GM, asc.CubeFormat.ND, b_gm.dtype),
        c=asc.adv.MatmulType(asc.TPosition.VECCALC, asc.CubeFormat.ND, c_gm.dtype),
    )
    asc.adv.register_matmul(pipe, workspace, mm, tiling)
    if asc.get_block_idx() == 0:
        mm.set_tensor_a(a_gm)
        mm.set_tensor_b(b_gm)
        with mm.iterate() as count:
            out = que.alloc_tensor(c.dtype)
            mm.async_get_tensor_c(out)
            mm.wait_get_tensor_c()
            que.enque(out)
            out = que.deque(c.dtype)
            asc.data_copy(c_gm[count * tiling.base_m * tiling.base_n:], out,
                          count=tiling.base_m * tiling.base_n)
            que.free_tensor(out)
        mm.end()


def test_async_get_tensor_c_is_get_tensor_c():
    m, n, k = 64, 32, 32
    rng = np.random.default_rng(4)
    a = rng.integers(-4, 5, (m, k)).astype(np.float16)
    b = rng.integers(-4, 5, (k, n)).astype(np.float16)
    tiling = plain_tiling(m, n, k)
    c = np.zeros(m * n, np.float32)
    async_kernel[1](a, b, c, tiling, workspace())
    ref = ref_matmul(a, b)
    bm, bn = tiling.base_m, tiling.base_n
    blocks = c.reshape(-1, bm, bn)
    got = np.zeros((m, n), np.float32)
    rounds_m = m // bm
    for i, blk in enumerate(blocks):
        r, q = i % rounds_m, i // rounds_m
        got[r * bm:(r + 1) * bm, q * bn:(q + 1) * bn] = blk
    np.testing.assert_array_equal(got, ref)


@asc.jit
def hf32_mix_kernel(a: asc.GlobalAddress, tiling: asc.adv.TCubeTiling):
    a_gm = asc.GlobalTensor()
    a_gm.set_global_buffer(a)
    mm = square_matmul(a_gm)
    mm.init(tiling)
    mm.set_hf32(True)


def test_set_hf32_outside_cube_only_kernels():
    """PyAsc takes set_hf32 in any kernel; the simulated Matmul's float16
    operands are not float32, which HF32 would round."""
    tiling = plain_tiling(16, 16, 16)
    a = np.zeros(256, np.float16)
    hf32_mix_kernel[1](a, tiling)
    assert "SetHF32(true, 0)" in hf32_mix_kernel.ascendc(a, tiling)


def test_matmul_enums_have_upstream_values():
    assert asc.MatmulConfigMode.CONFIG_MDL == 2 and asc.ScheduleType.OUTER_PRODUCT == 1
    assert asc.IterateOrder.ORDER_N == 1 and asc.IterateMode.ITERATE_MODE_ALL == 2
    assert asc.BatchMode.SINGLE_LARGE_THAN_L1 == 3 and asc.LayoutMode.BNGS1S2 == 4
    assert asc.CO2Layout.COLUMN_MAJOR == 2 and asc.CO2Layout is pyasc.CO2Layout


@asc.jit
def modes_kernel(out: asc.GlobalAddress, on: asc.ConstExpr[bool]):
    g = asc.GlobalTensor()
    g.set_global_buffer(out)
    asc.set_hf32_mode(on)
    asc.set_hf32_trans_mode(trans_mode=on)
    asc.set_mm_layout_transform(mm_layout_mode=not on)
    g.set_value(0, 7)


@asc.jit
def bad_mode_kernel(out: asc.GlobalAddress):
    asc.set_hf32_mode()


def test_mmad_mode_setters():
    out = np.zeros(8, np.int32)
    modes_kernel[1](out, True)
    assert out[0] == 7
    src = modes_kernel.ascendc(out, True)
    for call in ("AscendC::SetHF32Mode(true)", "AscendC::SetHF32TransMode(true)",
                 "AscendC::SetMMLayoutTransform(false)"):
        assert call in src
    with pytest.raises(pyasc.CompileError, match=r"test_matmul_more\.py:\d+"):
        bad_mode_kernel[1](out)


def test_matmul_configs_follow_upstream():
    adv = asc.adv
    assert adv.get_normal_config().do_norm and adv.get_normal_config().iterate_order == 0
    mdl = adv.get_mdl_config(do_mte2_preload=1)
    assert mdl.do_multi_data_load and not mdl.do_norm and mdl.do_mte2_preload == 1
    assert adv.get_special_mdl_config().do_special_mdl
    basic = adv.get_basic_config(128, 256, 64)
    assert (basic.do_basic_block, basic.basic_m, basic.basic_n, basic.basic_k) == (True, 128, 256,
                                                                                    64)
    sb = adv.get_special_basic_config(64, 64, 64, 128, 128, 128, 2, 2)
    assert sb.do_special_basic_block and (sb.step_m, sb.step_n) == (2, 2)
    assert adv.get_ib_share_norm_config(is_double_cache=True).enable_double_cache == 1
    cfg = adv.get_mm_config(asc.MatmulConfigMode.CONFIG_MDL,
                            adv.MatmulShapeParams(128, 128, 64, 64, 64, 32),
                            adv.MatmulBatchParams(True, asc.BatchMode.BATCH_LARGE_THAN_L1),
                            adv.MatmulFuncParams(iterate_order=asc.IterateOrder.ORDER_N),
                            adv.MatmulQuantParams(is_per_tensor=True))
    assert cfg.do_multi_data_load and cfg.single_core_m == 128 and cfg.basic_k == 32
    assert cfg.is_n_batch and cfg.batch_mode == 2 and cfg.iterate_order == 1 and cfg.is_per_tensor
    with pytest.raises(ValueError, match="batch_mode must be in"):
        adv.get_mm_config(adv.MatmulBatchParams(batch_mode=0))
    with pytest.raises(TypeError, match="unexpected int"):
        adv.get_mm_config(3)


@asc.jit
def config_kernel(a: asc.GlobalAddress, b: asc.GlobalAddress, c: asc.GlobalAddress,
                  tiling: asc.adv.TCubeTiling, workspace: asc.GlobalAddress):
    a_gm, b_gm, c_gm = gm_abc(a, b, c)
    mm = asc.adv.Matmul(
        a=asc.adv.MatmulType(asc.TPosition.GM, asc.CubeFormat.ND, a_gm.dtype),
        b=asc.adv.MatmulType(asc.TPosition.GM, asc.CubeFormat.ND, b_gm.dtype),
        c=asc.adv.MatmulType(asc.TPosition.GM, asc.CubeFormat.ND, c_gm.dtype),
        config=asc.adv.get_mm_config(asc.MatmulConfigMode.CONFIG_MDL,
                                     asc.adv.MatmulFuncParams(enable_reuse=False)),
    )
    asc.adv.register_matmul(asc.TPipe(), workspace, mm, tiling)
    if asc.get_block_idx() == 0:
        mm.set_tensor_a(a_gm)
        mm.set_tensor_b(b_gm)
        mm.iterate_all(c_gm)
        mm.end()


@asc.jit
def bad_config_kernel(a: asc.GlobalAddress, n: int):
    cfg = asc.adv.get_basic_config(n, 16, 16)


def test_a_kernel_takes_a_config():
    m, n, k = 32, 48, 32
    rng = np.random.default_rng(6)
    a = rng.integers(-4, 5, (m, k)).astype(np.float16)
    b = rng.integers(-4, 5, (k, n)).astype(np.float16)
    tiling = plain_tiling(m, n, k)
    c = np.zeros((m, n), np.float32)
    config_kernel[1](a, b, c, tiling, workspace())
    np.testing.assert_array_equal(c, ref_matmul(a, b))
    with pytest.raises(pyasc.CompileError, match=r"get_basic_config: arguments must be "
                                                 r"compile-time constants"):
        bad_config_kernel[1](a, 16)


def _two_full_l0c(a: asc.GlobalAddress, b: asc.GlobalAddress, c: asc.GlobalAddress,
                  c2: asc.GlobalAddress, tiling: asc.adv.TCubeTiling,
                  workspace: asc.GlobalAddress):
    a_gm, b_gm, c_gm = gm_abc(a, b, c)
    c2_gm = asc.GlobalTensor()
    c2_gm.set_global_buffer(c2)
    pipe = asc.TPipe()
    first = gm_matmul(pipe, workspace, tiling, a_gm, b_gm, c_gm)
    second = gm_matmul(pipe, workspace, tiling, a_gm, b_gm, c2_gm)
    first.set_tensor_a(a_gm)
    first.set_tensor_b(b_gm)
    first.iterate_all(c_gm)
    first.end()
    second.set_tensor_a(a_gm)
    second.set_tensor_b(b_gm)
    second.iterate_all(c2_gm)
    second.end()


def test_matmul_objects_past_l0c_overlap_as_on_the_device():
    """Two Matmul objects whose base block each fills L0C (256 x 128 floats; CANN's
    matmul_a2b2_share): the device's TPipe hands the second an address past the buffer, and
    used one after the other they work; checked mode reports it."""
    m, n, k = 256, 128, 64
    tiler = gm_tiler(m, n, k)
    tiler.set_fix_split(256, 128, -1)
    tiling = take_tiling(tiler)
    assert (tiling.base_m, tiling.base_n) == (256, 128)
    rng = np.random.default_rng(17)
    a = rng.integers(-4, 5, (m, k)).astype(np.float16)
    b = rng.integers(-4, 5, (k, n)).astype(np.float16)
    c, c2 = np.zeros((m, n), np.float32), np.zeros((m, n), np.float32)
    asc.jit(_two_full_l0c, matmul_cube_only=True)[1](a, b, c, c2, tiling, workspace())
    np.testing.assert_array_equal(c, ref_matmul(a, b))
    np.testing.assert_array_equal(c2, ref_matmul(a, b))
    with pytest.raises(pyasc.KernelError, match="does not fit the 0 bytes left of the "
                                                "131072-byte L0C"):
        asc.jit(_two_full_l0c, matmul_cube_only=True, debug=True)[1](a, b, c, c2, tiling,
                                                                     workspace())
