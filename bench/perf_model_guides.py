"""The timing model (docs/perf-model.md) against the two Matmul tuning
cases of CANN's Ascend C guide that publish a before and an after on one
kernel (cannmirror/asc-devkit, docs/zh/guide/.../Matmul性能调优案例):

- "Tiling全量常量化" (constant tiling): C = A B, A 128 x 64, B 64 x 30720
  half (ND, not transposed), C float; 24 cores of 128 x 1280, base block
  128 x 256 x 64, step_ka = step_kb = 4, depth_a1 = depth_b1 = 8; the
  default config with a runtime TCubeTiling, then with the full constant
  tiling. Published: the slowest core's aic_time 10.62 -> 7.87 us, and the
  first MTE2 instruction at 3.536 -> 2.185 us.
- "UnitFlag": the same product on 20 cores of 128 x 1536, MDL, unit flag
  off, then on. Published: the slowest core's aic_time 37.39 -> 34.66 us
  (-7.3%), on a chip of 20 cores whose clock and bandwidth the guide does
  not give, so only the change is compared.

The model's MM_INIT and MM_ITER figures are read from the first case's
published numbers (docs/perf-model.md), so that case shows them at work
rather than checks them; the unit flag case checks the hand-over.

Usage: python bench/perf_model_guides.py
"""

import numpy as np

import pyasc as asc

from cube_gm import gm_abc  # bench/cube_gm.py

M, N, K = 128, 30720, 64
MHZ = 1850.0
RUNTIME, CONSTANT, MDL, MDL_UNIT = 0, 1, 2, 3


@asc.jit(matmul_cube_only=True)
def guide_kernel(a: asc.GlobalAddress, b: asc.GlobalAddress, c: asc.GlobalAddress,
                 tiling: asc.adv.TCubeTiling, workspace: asc.GlobalAddress,
                 config: asc.ConstExpr[int], sn: asc.ConstExpr[int]) -> None:
    """C = A B: block i takes columns i * sn of B and C, all of A."""
    a_t = asc.adv.MatmulType(asc.TPosition.GM, asc.CubeFormat.ND, asc.float16)
    b_t = asc.adv.MatmulType(asc.TPosition.GM, asc.CubeFormat.ND, asc.float16)
    c_t = asc.adv.MatmulType(asc.TPosition.GM, asc.CubeFormat.ND, asc.float32)
    fixed = asc.adv.MatmulConfig(single_core_m=128, single_core_n=sn, single_core_k=64,
                                 basic_m=128, basic_n=256, basic_k=64)
    static = asc.adv.get_matmul_api_tiling(fixed, 524288, a_t, b_t, c_t)
    mdl = asc.adv.get_mdl_config(en_unit_flag=config == MDL_UNIT)
    if asc.ascend_is_aic():
        col = asc.get_block_idx() * sn
        a_gm, b_gm, c_gm = gm_abc(a, b, c)
        pipe = asc.TPipe()
        mm = asc.adv.Matmul(a_t, b_t, c_t, config=(mdl if config >= MDL else static)
                            if config >= CONSTANT else None)
        asc.adv.register_matmul(pipe, workspace, mm, tiling)
        mm.set_tensor_a(a_gm[0:], False)
        mm.set_tensor_b(b_gm[col:], False)
        mm.iterate_all(c_gm[col:])
        mm.end()


def run(config: int, blocks: int) -> tuple[float, float]:
    """The slowest block's modelled time (us) and block 0's first MTE2
    instruction (us); checks C."""
    sn = N // blocks
    rng = np.random.default_rng(1)
    a = rng.uniform(-1, 1, (M, K)).astype(np.float16)
    b = rng.uniform(-1, 1, (K, N)).astype(np.float16)
    c = np.zeros((M, N), np.float32)
    t = asc.adv.TCubeTiling()
    t.used_core_num = blocks
    t.m, t.n, t.k_a, t.k_b = M, N, K, K
    t.single_core_m, t.single_core_n, t.single_core_k = M, sn, K
    t.base_m, t.base_n, t.base_k = 128, 256, 64
    t.depth_a1, t.depth_b1, t.step_k_a, t.step_k_b = 8, 8, 4, 4
    t.step_m = t.step_n = 1
    t.db_l0a = t.db_l0b = 2
    t.db_l0c = 1
    with asc.profile() as prof:
        guide_kernel[blocks, asc.current_stream()](a, b, c, t, np.zeros(1024, np.uint8), config,
                                                   sn)
    np.testing.assert_allclose(c, a.astype(np.float32) @ b.astype(np.float32), rtol=1e-3,
                               atol=1e-3)
    rec = prof.launches[0]
    blk = next(x for x in rec.blocks if x.block_idx == 0)
    first = min(s for pipe, s, _e, _l in blk.spans if pipe == "mte2")
    return rec.cycles / MHZ, first / MHZ


def main() -> None:
    print("constant tiling (24 cores): aic_time us and first MTE2 us, modelled / published")
    before, after = run(RUNTIME, 24), run(CONSTANT, 24)
    print(f"  runtime tiling   {before[0]:6.2f} / 10.62   {before[1]:6.3f} / 3.536")
    print(f"  constant tiling  {after[0]:6.2f} /  7.87   {after[1]:6.3f} / 2.185")
    print(f"  change           {after[0] / before[0] - 1:+6.1%} / -25.9%")
    off, on = run(MDL, 20), run(MDL_UNIT, 20)
    print("unit flag (20 cores, MDL): aic_time us, modelled (published on another chip)")
    print(f"  off              {off[0]:6.2f}   (37.39)")
    print(f"  on               {on[0]:6.2f}   (34.66)")
    print(f"  change           {on[0] / off[0] - 1:+6.1%} / -7.3%")


if __name__ == "__main__":
    main()
