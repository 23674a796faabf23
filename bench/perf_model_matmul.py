"""The timing model (docs/perf-model.md) against CANN's published msprof
figures for its matmul_high_performance example (Atlas A2, C = A @ B^T,
8192 x 8192 x 8192 half, B stored transposed, no bias, cases 0-8).

Each case is our own PyAsc kernel on asc.adv.Matmul with the example's
algorithm: its core split (1 core; 24 cores as 2 x 12 or 4 x 6), base
blocks (64 x 64 x 64, then 128 x 256 x 64), L1 depths and steps (normal
template: one base block per load; MDL: depth_a1 4 / step_ka 2, then
depth_a1 16 / step_ka 8, depth_b1 8 / step_kb 4) and, from case 6, the
L2-sized split of A's rows into two halves, each its own iterate_all.

Prints: case, modelled Task Duration, published, ratio, then per case the
modelled and published aic_mac / mte1 / mte2 / fixpipe / scalar times.

Representative runs (the full problem is 1.1e12 multiply-adds, too much
for the host): every case simulates block 0 only. The launch still has
the case's block count, so the cores' shares of the bandwidth and the L2
are the case's; the other blocks return at once, and block 0, which has a
full part (case 2's last column of blocks is 679 wide, not 683), is the
slowest. The multi-core cases run all of block 0's part. The single-core
cases run --sub-m of the 8192 rows and the first N window of one base_n
(256; case 0: 64) columns, and are scaled by the windows and rows they
leave out: their Matmul walks C window by window (ORDER_M: for each N
window all of M), each window the same work; the bench prints the ratio
of the estimates from two windows and from one of case 1 as the check
(1.00 when the windows cost the same). The Matmul's set-up before its
first copy is paid once and is not scaled. Results are checked against
NumPy.

Usage: python bench/perf_model_matmul.py [--cases 0,1,...] [--sub-m N]
"""

import argparse
import time

import numpy as np

import pyasc as asc

from cube_gm import gm_abc  # bench/cube_gm.py

M = N = K = 8192
MHZ = 1850.0
# msprof op on Atlas A2, from the example's README: Task Duration, then
# aic_mac, aic_mte1, aic_mte2, aic_fixpipe, aic_scalar times (us)
PUBLISHED = {
    0: (759363.98, 141699.459, 162104.184, 582515.828, 34303.063, 508787.509),
    1: (249467.08, 81477.188, 52003.703, 195613.432, 11313.746, 63608.818),
    2: (12541.22, 3462.802, 2260.551, 10177.798, 875.439, 2987.47),
    3: (12283.84, 3394.884, 2166.824, 8616.671, 488.829, 2656.33),
    4: (5039.86, 3116.472, 2332.914, 4051.458, 44.749, 2073.97),
    5: (4156.76, 3352.087, 2750.454, 3778.555, 47.853, 1464.492),
    6: (4088.36, 3254.31, 2680.849, 3625.42, 47.398, 1753.463),
    7: (4053.44, 3163.682, 2609.617, 3513.806, 45.76, 968.616),
    8: (4012.44, 3076.396, 2533.512, 3435.584, 272.576, 1026.069),
}
# msprof's aicore_time (us): the mean over the cores of their time, where
# Task Duration waits for the slowest (case 3's last column of cores has
# 512 columns to the others' 1536)
AICORE = {0: 759363.46, 1: 249466.54, 2: 12537.56, 3: 10870.96, 4: 4487.89, 5: 3925.61,
          6: 3786.26, 7: 3665.12, 8: 3559.06}
PIPES = ("mac", "mte1", "mte2", "fixpipe", "scalar")


# the Matmul's config, as the example's kernels pick it: Ascend C's default
# (CFG_NORM, unit flag on), CFG_MDL (unit flag off), CFG_MDL with the
# constant tiling of the single-core shape and base block, and that with the
# unit flag on
NORM_CFG, MDL_CFG, CONST_CFG, UNIT_CFG = 0, 1, 2, 3


class Case:
    """One case's launch and tiling: blocks, the M x N core split, the
    single-core shape, the base block, L1 depths and steps, A's halves."""

    def __init__(self, blocks, m_split, sm, sn, base, l1=(1, 1, 1, 1), halves=1, config=NORM_CFG,
                 note=""):
        self.blocks, self.m_split, self.sm, self.sn = blocks, m_split, sm, sn
        self.bm, self.bn, self.bk = base
        self.depth_a1, self.depth_b1, self.step_ka, self.step_kb = l1
        self.halves, self.config, self.note = halves, config, note


NORMAL = (1, 1, 1, 1)
MDL = (4, 4, 2, 2)  # the example's auto-tiled MDL case: depth_a1 4 in ping-pong pairs
MDL_L1 = (16, 8, 8, 4)  # set_depthA1(16), set_stepKa(8); depth_b1 8, step_kb 4
BASE = (128, 256, 64)
CASES = {
    0: Case(1, 1, M, N, (64, 64, 64), NORMAL, note="one core, 64^3 base blocks"),
    1: Case(1, 1, M, N, BASE, NORMAL, note="one core, 128x256x64"),
    2: Case(24, 2, 4096, 683, BASE, NORMAL, note="24 cores, 2 x 12"),
    3: Case(24, 4, 2048, 1536, BASE, NORMAL, note="24 cores, 4 x 6"),
    4: Case(24, 4, 2048, 1536, BASE, MDL, config=MDL_CFG, note="+ MDL template"),
    5: Case(24, 4, 2048, 1536, BASE, MDL_L1, config=MDL_CFG, note="+ L1 depth 16, step_ka 8"),
    6: Case(24, 4, 1024, 1536, BASE, MDL_L1, halves=2, config=MDL_CFG,
            note="+ A in two L2-sized halves"),
    7: Case(24, 4, 1024, 1536, BASE, MDL_L1, halves=2, config=CONST_CFG,
            note="+ constant tiling"),
    8: Case(24, 4, 1024, 1536, BASE, MDL_L1, halves=2, config=UNIT_CFG, note="+ unit flag"),
}


@asc.jit(matmul_cube_only=True)
def matmul_kernel(a: asc.GlobalAddress, b: asc.GlobalAddress, c: asc.GlobalAddress,
                  tiling: asc.adv.TCubeTiling, workspace: asc.GlobalAddress, sub_m: int,
                  sub_n: int, m_split: asc.ConstExpr[int], halves: asc.ConstExpr[int],
                  config: asc.ConstExpr[int], sm: asc.ConstExpr[int],
                  sn: asc.ConstExpr[int], tail: int, tail_n: int) -> None:
    """C = A @ B^T: block i takes rows (i % m_split) and columns (i //
    m_split) of the core grid; only block 0 works (of its part, sub_m rows
    of each half and sub_n columns: see the module's docstring), and block
    `tail` (0: none), which takes all of its part (tail_n columns). config:
    NORM_CFG, MDL_CFG, CONST_CFG or UNIT_CFG (sm x sn: the constant
    single-core shape of one half)."""
    a_t = asc.adv.MatmulType(asc.TPosition.GM, asc.CubeFormat.ND, asc.float16, False)
    b_t = asc.adv.MatmulType(asc.TPosition.GM, asc.CubeFormat.ND, asc.float16, True)
    c_t = asc.adv.MatmulType(asc.TPosition.GM, asc.CubeFormat.ND, asc.float16)
    mdl = asc.adv.get_mdl_config()
    fixed = asc.adv.MatmulConfig(do_norm=False, do_multi_data_load=True, single_core_m=sm,
                                 single_core_n=sn, single_core_k=8192, basic_m=128,
                                 basic_n=256, basic_k=64, en_unit_flag=config == UNIT_CFG)
    static = asc.adv.get_matmul_api_tiling(fixed, 524288, a_t, b_t, c_t)
    if asc.ascend_is_aic():
        idx = asc.get_block_idx()
        m_idx = idx % m_split
        n_idx = idx // m_split
        a_gm, b_gm, c_gm = gm_abc(a, b, c)
        pipe = asc.TPipe()
        mm = asc.adv.Matmul(a_t, b_t, c_t, config=(static if config >= CONST_CFG else mdl)
                            if config >= MDL_CFG else None)
        asc.adv.register_matmul(pipe, workspace, mm, tiling)
        if idx == 0 or idx == tail:
            rows = sub_m
            cols = sub_n
            if idx != 0:
                rows = tiling.single_core_m
                cols = tail_n
            for h in range(halves):  # A's rows in halves: each half's B reads hit the L2
                row = m_idx * tiling.single_core_m + h * (tiling.m // halves)
                col = n_idx * tiling.single_core_n
                mm.set_tensor_a(a_gm[row * tiling.k_a:], False)
                mm.set_tensor_b(b_gm[col * tiling.k_b:], True)
                mm.set_tail(rows, cols, tiling.k_a)
                mm.iterate_all(c_gm[row * tiling.n + col:])
            mm.end()
        asc.pipe_barrier(asc.PipeID.PIPE_ALL)


def make_tiling(case: Case) -> asc.adv.TCubeTiling:
    """The case's TCubeTiling, filled by hand as the example's host code
    sets it (SetDim, SetSingleShape, SetFixSplit, depths and steps)."""
    t = asc.adv.TCubeTiling()
    t.used_core_num = case.blocks
    t.m, t.n, t.k_a, t.k_b = M, N, K, K
    t.single_core_m, t.single_core_n, t.single_core_k = case.sm, case.sn, K
    t.base_m, t.base_n, t.base_k = case.bm, case.bn, case.bk
    t.depth_a1, t.depth_b1 = case.depth_a1, case.depth_b1
    t.step_k_a, t.step_k_b = case.step_ka, case.step_kb
    t.step_m = t.step_n = 1
    t.iterate_order = 0  # ORDER_M
    t.db_l0a = t.db_l0b = 2
    t.db_l0c = 1
    return t


def run_case(num: int, a: np.ndarray, b: np.ndarray, sub_m: int, windows: int = 1):
    """Block 0's modelled cycles and busy cycles per pipe, with the factor
    that scales them to the whole of block 0's part (single-core cases:
    sub_m rows and `windows` N windows of it), and the mean over the
    launch's blocks of the cycles and the busy cycles (msprof's aicore time
    and pipe times): the blocks of the core grid's last column, which has
    fewer columns, simulated by its last block, the others as block 0.
    Checks C."""
    case = CASES[num]
    single = case.blocks == 1
    rows = min(sub_m, case.sm) if single else case.sm
    cols = min(windows * case.bn, case.sn) if single else case.sn
    n_split = case.blocks // case.m_split
    tail = 0 if single else case.blocks - 1
    tail_n = N - (n_split - 1) * case.sn
    c = np.zeros((M, N), np.float16)
    workspace = np.zeros(1024, np.uint8)
    with asc.profile() as prof:
        matmul_kernel[case.blocks, asc.current_stream()](a, b, c, make_tiling(case), workspace,
                                                         rows, cols, case.m_split, case.halves,
                                                         case.config, case.sm, case.sn, tail,
                                                         tail_n)
    parts = [(0, 0, rows, cols)]
    if tail:
        parts.append(((case.m_split - 1) * case.sm, (n_split - 1) * case.sn, case.sm, tail_n))
    for r0, c0, nr, nc in parts:
        for h in range(case.halves):
            h0 = r0 + h * (M // case.halves)
            want = a[h0:h0 + nr].astype(np.float32) @ b[c0:c0 + nc].astype(np.float32).T
            np.testing.assert_allclose(c[h0:h0 + nr, c0:c0 + nc].astype(np.float32), want,
                                       rtol=2e-2, atol=0.25, err_msg=f"case {num}: wrong result")
    rec = prof.launches[0]
    blk = next(b for b in rec.blocks if b.block_idx == 0)
    scale = (case.sm / rows) * (case.sn / cols)
    # the Matmul's set-up before its first copy happens once, whatever part
    # of the problem runs: only what follows it scales
    head = min(start for pipe, start, _end, _line in blk.spans if pipe == "mte2")
    cycles = head + (blk.cycles - head) * scale
    mean_cycles, mean_busy = cycles, {p: v * scale for p, v in blk.busy.items()}
    if tail:
        last = next(b for b in rec.blocks if b.block_idx == tail)
        mean_cycles = (cycles * (n_split - 1) + last.cycles) / n_split
        mean_busy = {p: (v * (n_split - 1) + last.busy[p]) / n_split
                     for p, v in mean_busy.items()}
    return cycles, mean_cycles, mean_busy, rec.task_duration_us - rec.cycles / MHZ


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", default=",".join(map(str, CASES)))
    parser.add_argument("--sub-m", type=int, default=256, help="rows simulated, cases 0 and 1")
    parser.add_argument("--check", type=int, default=1, help="case of the linearity check")
    ns = parser.parse_args()
    rng = np.random.default_rng(0)
    a = rng.uniform(-1, 1, (M, K)).astype(np.float16)
    b = rng.uniform(-1, 1, (N, K)).astype(np.float16)  # B^T: N x K
    print(f"{'case':>4}  {'modelled us':>12}  {'published us':>12}  {'ratio':>6}  "
          f"{'aicore us, modelled / published':>31}  host s  what")
    pipes = {}
    for num in map(int, ns.cases.split(",")):
        t0 = time.perf_counter()
        cycles, mean_cycles, mean_busy, launch_us = run_case(num, a, b, ns.sub_m)
        us = cycles / MHZ + launch_us
        pub = PUBLISHED[num]
        pipes[num] = {p: mean_busy[p] / MHZ for p in PIPES}
        core = mean_cycles / MHZ
        print(f"{num:>4}  {us:12.1f}  {pub[0]:12.1f}  {us / pub[0]:6.3f}  "
              f"{core:9.1f} / {AICORE[num]:9.1f} = {core / AICORE[num]:5.3f}  "
              f"{time.perf_counter() - t0:6.1f}  {CASES[num].note}")
    print("\nper pipe (us, means over the cores), modelled / published:")
    print(f"{'case':>4}  " + "  ".join(f"{p:>19}" for p in PIPES))
    for num, mod in pipes.items():
        pub = dict(zip(PIPES, PUBLISHED[num][1:]))
        print(f"{num:>4}  " + "  ".join(f"{mod[p]:9.1f}/{pub[p]:9.1f}" for p in PIPES))
    if ns.check in CASES and CASES[ns.check].blocks == 1:
        one = run_case(ns.check, a, b, ns.sub_m, 1)
        two = run_case(ns.check, a, b, ns.sub_m, 2)
        print(f"\nlinearity, case {ns.check}: the whole part's cycles scaled from 2 windows / "
              f"from 1 window = {two[0] / one[0]:.3f}")


if __name__ == "__main__":
    main()
