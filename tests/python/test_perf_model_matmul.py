"""The timing model's Matmul API costs that depend on the Matmul's config
(docs/perf-model.md): the API's scalar set-up with a runtime or a constant
tiling, the unit flag's MMAD/FIXPIPE hand-over; and fused @pyasc.op kernels
under pyasc.profile."""

import numpy as np
import pytest

import pyasc as asc

from cube_helpers import gm_abc
from test_perf_model import MHZ, _mm_tiling

# docs/perf-model.md's table, restated
MM_INIT_US, MM_TILING_US = 1.886, 0.954
MM_ITER_US, MM_ITER_TILING_US = 0.299, 0.397
UNIT_BYTES = 512
CUBE_STARTUP = 20.0

RUNTIME, CONSTANT, MDL, MDL_UNIT = 0, 1, 2, 3


@asc.jit(matmul_cube_only=True)
def mm_config(a: asc.GlobalAddress, b: asc.GlobalAddress, c: asc.GlobalAddress,
              tiling: asc.adv.TCubeTiling, workspace: asc.GlobalAddress,
              config: asc.ConstExpr[int], m: asc.ConstExpr[int], n: asc.ConstExpr[int],
              k: asc.ConstExpr[int]) -> None:
    """C = A @ B^T on one core with the default config and a runtime tiling,
    the full constant tiling, or CFG_MDL with the unit flag off or on."""
    a_t = asc.adv.MatmulType(asc.TPosition.GM, asc.CubeFormat.ND, asc.float16, False)
    b_t = asc.adv.MatmulType(asc.TPosition.GM, asc.CubeFormat.ND, asc.float16, True)
    c_t = asc.adv.MatmulType(asc.TPosition.GM, asc.CubeFormat.ND, asc.float32)
    fixed = asc.adv.MatmulConfig(single_core_m=m, single_core_n=n, single_core_k=k, basic_m=128,
                                 basic_n=256, basic_k=64)
    static = asc.adv.get_matmul_api_tiling(fixed, 524288, a_t, b_t, c_t)
    mdl = asc.adv.get_mdl_config(en_unit_flag=config == MDL_UNIT)
    if asc.ascend_is_aic():
        a_gm, b_gm, c_gm = gm_abc(a, b, c)
        pipe = asc.TPipe()
        mm = asc.adv.Matmul(a_t, b_t, c_t, config=(mdl if config >= MDL else static)
                            if config >= CONSTANT else None)
        asc.adv.register_matmul(pipe, workspace, mm, tiling)
        mm.set_tensor_a(a_gm, False)
        mm.set_tensor_b(b_gm, True)
        mm.iterate_all(c_gm)
        mm.end()


def _run(config, m=128, n=512, k=64):
    rng = np.random.default_rng(4)
    a = rng.uniform(-1, 1, (m, k)).astype(np.float16)
    b = rng.uniform(-1, 1, (n, k)).astype(np.float16)
    c = np.zeros((m, n), np.float32)
    with asc.profile() as prof:
        mm_config[1, asc.current_stream()](a, b, c, _mm_tiling(1, m, n, k), np.zeros(1024, np.uint8),
                                           config, m, n, k)
    np.testing.assert_allclose(c, a.astype(np.float32) @ b.astype(np.float32).T, rtol=1e-3,
                               atol=1e-3)
    (blk,) = prof.launches[0].blocks
    return blk


def _spans(blk, pipe):
    return [(s, e) for p, s, e, _line in blk.spans if p == pipe]


def test_a_constant_tiling_spares_the_matmuls_scalar_set_up():
    """The first copy waits for the API's set-up and its first base block's
    work: (MM_INIT + MM_TILING + MM_ITER + MM_ITER_TILING) us with a runtime
    tiling, (MM_INIT + MM_ITER) us with a constant one; two blocks charge
    the scalar unit the per-block work twice. The pipes' work is the same."""
    runtime, constant = _run(RUNTIME), _run(CONSTANT)
    first = {name: _spans(blk, "mte2")[0][0] for name, blk in (("r", runtime), ("c", constant))}
    assert first["r"] - first["c"] == pytest.approx((MM_TILING_US + MM_ITER_TILING_US) * MHZ)
    assert first["c"] >= (MM_INIT_US + MM_ITER_US) * MHZ
    scalar = runtime.busy["scalar"] - constant.busy["scalar"]
    assert scalar == pytest.approx((MM_TILING_US + 2 * MM_ITER_TILING_US) * MHZ)
    for pipe in ("mac", "mte1", "mte2", "fixpipe"):
        assert runtime.busy[pipe] == pytest.approx(constant.busy[pipe], rel=1e-9), pipe
    assert constant.cycles < runtime.cycles


def test_the_unit_flag_lets_fixpipe_start_on_the_first_512_bytes():
    """Two base blocks of 128 x 256, one K step each. Without the unit flag
    FIXPIPE starts when the block's mmad ends; with it, once the mmad has
    made its first 512-byte unit of float32 results (the mmad's cycles over
    128 x 256 x 4 / 512 units), and the second block's mmad no longer waits
    for the first block's whole write."""
    mmad = CUBE_STARTUP + 8 * 16 * 4
    units = 128 * 256 * 4 / UNIT_BYTES
    off, on = _run(MDL), _run(MDL_UNIT)
    (m_off, _), (m_on, _) = _spans(off, "mac")[0], _spans(on, "mac")[0]
    assert _spans(off, "fixpipe")[0][0] == pytest.approx(m_off + mmad)
    assert _spans(on, "fixpipe")[0][0] == pytest.approx(m_on + mmad / units)
    # the second mmad: after FIXPIPE emptied L0C (off); with the flag, early
    # enough that it ends as FIXPIPE's last unit of the first block leaves
    fix_off, fix_on = _spans(off, "fixpipe")[0], _spans(on, "fixpipe")[0]
    second_off = [s for s, _e in _spans(off, "mac") if s >= fix_off[1] - 1e-6]
    assert second_off and second_off[0] == pytest.approx(fix_off[1])
    assert on.cycles < off.cycles
    for pipe in ("mac", "mte1", "mte2"):
        assert on.busy[pipe] == pytest.approx(off.busy[pipe], rel=1e-9), pipe
    assert fix_on[1] - fix_on[0] >= fix_off[1] - fix_off[0] - 1e-6


def test_mdl_configs_start_with_the_unit_flag_off():
    """As upstream's getters: GetMMConfig<CONFIG_MDL> starts from CFG_MDL
    (unit flag off), the special MDL and basic-block configs have it off,
    the norm and IBShare configs on."""
    adv = asc.adv
    assert not adv.get_mm_config(asc.MatmulConfigMode.CONFIG_MDL).en_unit_flag
    assert not adv.get_mm_config(asc.MatmulConfigMode.CONFIG_SPECIALMDL).en_unit_flag
    assert adv.get_mm_config(asc.MatmulConfigMode.CONFIG_NORM).en_unit_flag
    assert adv.get_mm_config().en_unit_flag
    assert not adv.get_mdl_config().en_unit_flag and adv.get_normal_config().en_unit_flag
    assert not adv.get_special_mdl_config().en_unit_flag
    assert not adv.get_basic_config(128, 256, 64).en_unit_flag
    assert adv.get_ib_share_norm_config().en_unit_flag


# --- fused @pyasc.op kernels ------------------------------------------------------

MTE_PORT, VEC_BYTES = 128.0, 256


def test_fused_op_kernels_are_profiled_like_jit_kernels():
    """A fused @pyasc.op kernel inside pyasc.profile runs its build with the
    timing model: one record per launch, named after the kernel, with its
    grid's blocks; each block reads both inputs' bytes through MTE2 (at most
    MTE_PORT a cycle), writes one output's through MTE3 and runs a multiply
    and an add over every element (a cycle per 256-byte repeat at least).
    Outside the block the op runs unprofiled, with the same result."""
    @asc.op(name="pf_fused_axpy", overwrite=True)
    def axpy(x, y):
        return x * 2.0 + y

    n = 1 << 17
    x = np.random.default_rng(5).standard_normal(n).astype(np.float16)
    y = np.random.default_rng(6).standard_normal(n).astype(np.float16)
    want = (x * np.float16(2) + y).astype(np.float16)
    assert "1 fused kernel" in axpy.explain(x, y)
    np.testing.assert_array_equal(axpy(x, y).numpy(), want)
    with asc.profile() as prof:
        got = axpy(x, y).numpy()
    np.testing.assert_array_equal(got, want)
    (rec,) = prof.launches
    assert rec.name.startswith("fused_pf_fused_axpy")
    assert rec.block_num == len(rec.blocks) > 1
    per_block = n / rec.block_num
    for blk in rec.blocks:
        assert blk.busy["mte2"] >= 2 * per_block * 2 / MTE_PORT * 0.99
        assert blk.busy["mte3"] >= per_block * 2 / MTE_PORT * 0.99
        assert blk.busy["vec"] >= 2 * per_block * 2 / VEC_BYTES * 0.99
    with asc.profile() as again:
        axpy(x, y)
    assert [b.cycles for b in again.launches[0].blocks] == [b.cycles for b in rec.blocks]
