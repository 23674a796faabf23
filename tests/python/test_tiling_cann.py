"""The host matmul tiling decides as Ascend C's matmul_tiling does (910B-class core).

Every expected row below was worked out by hand by following the rules of Ascend C's
published tiling search (cannmirror/asc-devkit, impl/adv_api/tiling/matmul) on the simulated
910B: L1 512 KiB, L0A/L0B 64 KiB, L0C 128 KiB, UB 192 KiB, BiasTable 1 KiB. The comment of each
row names the rules that give its values; docs/host-tiling.md ("The algorithm") states them.

Abbreviations in the comments:
  m16/n16/k16   sizes in fractals (16 rows; K in 32-byte widths: 16 fp16, 8 fp32, 32 int8)
  SPLIT_MN      multi-core, only set_org_shape, M >= 128 and M*N > 26214*dim: the base block is
                128 x 256 x (128 bytes of K) (fix split first; both operands transposed: 256 x 128),
                (mDim, nDim) runs over the factor pairs of dim, ranked by compute intensity
                (cycles / GM bytes, ties within 1e-4), then by cycles (ties within 1%) the larger
                band ratio ((dim-mDim)*baseM + (dim-nDim)*baseN) / ((baseM+baseN)*dim)
  SMALL_MN      multi-core, only set_org_shape, M*N < 26214*dim: M <= 128 and N >= 128*dim -> 1 x dim;
                N <= 256 and M >= 128*dim -> dim x 1; the base follows the core's share
  L1 split      depthA1 = 2*stepKa, depthB1 = 2*stepKb with stepK* = (L1/2 / block) / 2; A's depth is
                halved first when A and B fill L1 to the byte and a bias row must fit too
  general       set_shape or one core: L0 factor search (load, then MTE1/MAD cycles), then the L1
                layouts (A and B whole, A whole, B whole, neither), least GM load wins
"""

from __future__ import annotations

import pytest

import pyasc as asc
import pyasc.host as host
from pyasc.language.adv_tiling import TCubeTiling

DT = host.DataType
POS = host.TPosition
FMT = host.CubeFormat

FIELDS = ("used_core_num", "single_core_m", "single_core_n", "single_core_k", "base_m", "base_n",
          "base_k", "depth_a1", "depth_b1", "step_m", "step_n", "step_k_a", "step_k_b",
          "iterate_order", "db_l0a", "db_l0b", "db_l0c", "share_l1_size", "share_l0c_size",
          "share_ub_size", "is_bias", "trans_length")

OUT = {DT.DT_FLOAT16: DT.DT_FLOAT, DT.DT_BF16: DT.DT_FLOAT, DT.DT_FLOAT: DT.DT_FLOAT,
       DT.DT_INT8: DT.DT_INT32}


def build(*, m, n, k, dtype=DT.DT_FLOAT16, dim=None, shape=False, bias=None, fix=None,
          trans=(False, False), c_pos=POS.GM, traverse=None, sparse=False):
    """A tiling context set up as a kernel's host code would."""
    cls = host.MatmulApiTiling if dim is None else host.MultiCoreMatmulTiling
    t = cls(host.get_ascendc_platform())
    t.set_a_type(POS.GM, FMT.ND, dtype, trans[0])
    t.set_b_type(POS.GM, FMT.ND, dtype, trans[1])
    t.set_c_type(c_pos, FMT.ND, OUT[dtype])
    if bias is not None:
        t.set_bias_type(POS.GM, FMT.ND, bias)
        t.enable_bias(True)
    if dim is not None:
        t.set_dim(dim)
    t.set_org_shape(m, n, k)
    if shape:
        t.set_shape(m, n, k)
    if fix is not None:
        t.set_fix_split(*fix)
    if traverse is not None:
        t.set_traverse(traverse)
    t.set_buffer_space(-1, -1, -1)
    if sparse:
        assert t.set_sparse(True) == 0
    return t


def row(used, sc, base, depth, steps, order, l1, l0c, bias=0, db=(2, 2, 1)):
    return dict(zip(FIELDS, (used, *sc, *base, *depth, *steps, order, *db, l1, l0c, 0, bias, 0)))


CASES = [
    # A1 fp16 1024^3 dim 8. SPLIT_MN: pairs (2,4) (4,2) (8,1) tie on intensity 1/96 and cycles
    # (2048), (1,8) lower (a 128-wide N tail); band 0.667 for (4,2) wins. singleCoreN
    # ceil(1024/2)=512 already a multiple of 128. L1 split: A (512K/2/128/64)/2=16 -> stepKa 8,
    # B 8 -> stepKb 4; 16*16K + 8*32K = 512K exactly fits. K steps cover 512 < 1024 -> order 0.
    ("A1", dict(m=1024, n=1024, k=1024, dim=8),
     row(8, (256, 512, 1024), (128, 256, 64), (16, 8), (1, 1, 8, 4), 0, 524288, 131072)),
    # A2 = A1 with a float bias: 512K no longer fits next to a 1 KiB bias row, A's depth halves
    # (baseM 128 <= baseN 256) -> stepKa = stepKb = 4; share L1 adds baseN*4.
    ("A2", dict(m=1024, n=1024, k=1024, dim=8, bias=DT.DT_FLOAT),
     row(8, (256, 512, 1024), (128, 256, 64), (8, 8), (1, 1, 4, 4), 0,
         8 * 16384 + 8 * 32768 + 1024, 131072, bias=1)),
    # A3 fp16 1024^3 dim 4: all three pairs tie on intensity and cycles; band (2,2) 0.5 =
    # (4,1) 0.5 > (1,4) 0.25; insertion order keeps (2,2) first. L1 as A1.
    ("A3", dict(m=1024, n=1024, k=1024, dim=4),
     row(4, (512, 512, 1024), (128, 256, 64), (16, 8), (1, 1, 8, 4), 0, 524288, 131072)),
    # A4 fp32 1024^3 dim 8: baseK 128 bytes = 32; same ranking as A1 -> (4,2). L1: A
    # (512K/2/128/32)*8/32 = 16, B 8 -> steps 8, 4; depthB1 check for float B: (16*4096 +
    # 8192*8)*4 = 512K, not above L1.
    ("A4", dict(m=1024, n=1024, k=1024, dim=8, dtype=DT.DT_FLOAT),
     row(8, (256, 512, 1024), (128, 256, 32), (16, 8), (1, 1, 8, 4), 0, 524288, 131072)),
    # A5 int8 1024^3 dim 8: baseK 128; (1,8) cannot align 128 to 256 -> memory doubled; (4,2)
    # wins as in A1. L1: 16 and 8 -> steps 8 (8*128 = K: not trimmed), 4. A's K whole (1024),
    # B's not -> order 1 (N first).
    ("A5", dict(m=1024, n=1024, k=1024, dim=8, dtype=DT.DT_INT8),
     row(8, (256, 512, 1024), (128, 256, 128), (16, 8), (1, 1, 8, 4), 1, 524288, 131072)),
    # A6 bf16 with a bf16 bias: as A1 (16-bit), bias row 256*2 = 512 bytes halves A's depth.
    ("A6", dict(m=1024, n=1024, k=1024, dim=8, dtype=DT.DT_BF16, bias=DT.DT_BF16),
     row(8, (256, 512, 1024), (128, 256, 64), (8, 8), (1, 1, 4, 4), 0,
         8 * 16384 + 8 * 32768 + 512, 131072, bias=1)),
    # A7 fp16 2048x512x256 dim 8: (1,8) unaligned 64-wide N (x2 memory), (2,4) a 128 tail,
    # (4,2) and (8,1) tie; band 0.667 vs 0.583 -> (4,2): 512 x 256. Steps reach K (8*64 >= 256,
    # not trimmed). Both K whole: A loads 512 + 256*4 > B loads 256 + 512*1 -> order 0.
    ("A7", dict(m=2048, n=512, k=256, dim=8),
     row(8, (512, 256, 256), (128, 256, 64), (16, 8), (1, 1, 8, 4), 0, 524288, 131072)),
    # A8 fp16 1000x1000x512 dim 2 (tails): (1,2) and (2,1) have equal cycles 7812.5 and bytes
    # 768000; band 0.333 for (2,1). singleCoreM = ceil(63*16 / 2) = 504, singleCoreN the whole
    # aligned N 1008 (nDim 1). A's K whole (8*64 = 512), B's not -> order 1.
    ("A8", dict(m=1000, n=1000, k=512, dim=2),
     row(2, (504, 1008, 512), (128, 256, 64), (16, 8), (1, 1, 8, 4), 1, 524288, 131072)),
    # A9 fp16 1024^3 dim 8, A and B transposed: base 256 x 128; (1,8) (2,4) (4,2) tie, (8,1) a
    # 128 M tail; band (2,4) 0.667 wins: singleCoreM 512 (aligned to 128), N 256. L1: A
    # (512K/2/256/64)/2 = 8 -> stepKa 4, B 16 -> stepKb 8.
    ("A9", dict(m=1024, n=1024, k=1024, dim=8, trans=(True, True)),
     row(8, (512, 256, 1024), (256, 128, 64), (8, 16), (1, 1, 4, 8), 0, 524288, 131072)),
    # A10 fp16 1024^3 dim 8 with set_fix_split(64, 128): every pair has 16 blocks of equal
    # intensity; band (4,2) 0.667 best. L1: A 32 -> stepKa 16 (16*64 = K), B 16 -> stepKb 8.
    # A's K whole -> order 1.
    ("A10", dict(m=1024, n=1024, k=1024, dim=8, fix=(64, 128, -1)),
     row(8, (256, 512, 1024), (64, 128, 64), (32, 16), (1, 1, 16, 8), 1, 524288, 32768)),
    # A11 = A4 with a float bias: A's depth halves -> steps 4, 4; depthB1 check (8*4096 +
    # 8192*8)*4 <= 512K keeps 8.
    ("A11", dict(m=1024, n=1024, k=1024, dim=8, dtype=DT.DT_FLOAT, bias=DT.DT_FLOAT),
     row(8, (256, 512, 1024), (128, 256, 32), (8, 8), (1, 1, 4, 4), 0,
         8 * 128 * 32 * 4 + 8 * 256 * 32 * 4 + 1024, 131072, bias=1)),
    # A12 = A5 with an int32 bias: A's depth halves -> steps 4, 4 (4*128 = 512 bytes, kept);
    # neither K whole -> order 0.
    ("A12", dict(m=1024, n=1024, k=1024, dim=8, dtype=DT.DT_INT8, bias=DT.DT_INT32),
     row(8, (256, 512, 1024), (128, 256, 128), (8, 8), (1, 1, 4, 4), 0,
         8 * 128 * 128 + 8 * 256 * 128 + 1024, 131072, bias=1)),
    # A13 fp32 1024^3 dim 4: as A3 -> (2,2); L1 as A4.
    ("A13", dict(m=1024, n=1024, k=1024, dim=4, dtype=DT.DT_FLOAT),
     row(4, (512, 512, 1024), (128, 256, 32), (16, 8), (1, 1, 8, 4), 0, 524288, 131072)),
    # A14 fp16 1024^3 dim 2: (1,2) and (2,1) tie; band 0.333 > 0.167 -> (2,1). L1 as A1.
    ("A14", dict(m=1024, n=1024, k=1024, dim=2),
     row(2, (512, 1024, 1024), (128, 256, 64), (16, 8), (1, 1, 8, 4), 0, 524288, 131072)),
    # A15 fp16 2048x2048x512 dim 16: (2,8) (4,4) (8,2) (16,1) tie; band 0.75 for (4,4) and (8,2),
    # insertion keeps (4,4). A's K whole (8*64 = 512) -> order 1.
    ("A15", dict(m=2048, n=2048, k=512, dim=16),
     row(16, (512, 512, 512), (128, 256, 64), (16, 8), (1, 1, 8, 4), 1, 524288, 131072)),
    # A16 fp16 1536x1024x256 dim 3: (1,3) needs 384-wide slices with a 128 tail (intensity
    # 0.009375), (3,1) has none (1/96) -> (3,1). Both K whole: A loads 512 + 1024*4 > B loads
    # 1024 + 512*4 -> order 0.
    ("A16", dict(m=1536, n=1024, k=256, dim=3),
     row(3, (512, 1024, 256), (128, 256, 64), (16, 8), (1, 1, 8, 4), 0, 524288, 131072)),
    # A18 fp16 1024^3 dim 8, set_fix_split(128, 128), float bias: all pairs 8 blocks; band
    # (2,4) = (4,2) = 0.625, insertion keeps (2,4): 512 x 256. L1: A 16, B 16, a bias row of
    # 512 bytes halves A -> stepKa 4, stepKb 8.
    ("A18", dict(m=1024, n=1024, k=1024, dim=8, fix=(128, 128, -1), bias=DT.DT_FLOAT),
     row(8, (512, 256, 1024), (128, 128, 64), (8, 16), (1, 1, 4, 8), 0,
         8 * 128 * 64 * 2 + 16 * 128 * 64 * 2 + 512, 65536, bias=1)),
    # A19 = A1 with C in the Unified Buffer (VECCALC): a 910B-class core does not count UB
    # for C (shareUbSize 0, transLength 0); the tiling is A1's.
    ("A19", dict(m=1024, n=1024, k=1024, dim=8, c_pos=POS.VECCALC),
     row(8, (256, 512, 1024), (128, 256, 64), (16, 8), (1, 1, 8, 4), 0, 524288, 131072)),
    # A20 = A1 with set_traverse(FIRSTN): iterateOrder is the traversal minus one (1).
    ("A20", dict(m=1024, n=1024, k=1024, dim=8, traverse=host.MatrixTraverse.FIRSTN),
     row(8, (256, 512, 1024), (128, 256, 64), (16, 8), (1, 1, 8, 4), 1, 524288, 131072)),
    # B1 fp16 64x2048x256 dim 8: SMALL_MN 1 x 8; base follows the share 64 x 256, baseK
    # min(16384/64, 16384/256) = 64. L1: A (512K/2/64/64)/2 = 32 -> stepKa 16, B 8 -> 4. Both K
    # whole, loads equal (320) -> order 0.
    ("B1", dict(m=64, n=2048, k=256, dim=8),
     row(8, (64, 256, 256), (64, 256, 64), (32, 8), (1, 1, 16, 4), 0, 524288, 65536)),
    # B2 fp16 2048x64x128 dim 8: SMALL_MN 8 x 1; share 256 x 64 -> base 128 x 64, baseK
    # min(128, 256, K 128) = 128. L1: A 8 -> 4, B 16 -> 8. Both K whole: A loads 256 + 64*2 >
    # B loads 64 + 256 -> order 0.
    ("B2", dict(m=2048, n=64, k=128, dim=8),
     row(8, (256, 64, 128), (128, 64, 128), (8, 16), (1, 1, 4, 8), 0, 524288, 32768)),
    # B3 = B1 in fp32: baseK 32 keeps baseN 256 (share 256 < 384); baseK min(128, 32) = 32.
    # L1 A 32 -> 16, B 8 -> 4. A's K whole (16*32 = 512), B's not (128) -> order 1.
    ("B3", dict(m=64, n=2048, k=256, dim=8, dtype=DT.DT_FLOAT),
     row(8, (64, 256, 256), (64, 256, 32), (32, 8), (1, 1, 16, 4), 1, 524288, 65536)),
    # B4 fp16 256x256x64 dim 4: SMALL_MN, neither direct case; of the 8 (mDim, nDim) pairs
    # of 4, 3, 2, 1 cores (2,2) moves least (32 KiB; next 40 KiB): base 128 x 128 x 64.
    ("B4", dict(m=256, n=256, k=64, dim=4),
     row(4, (128, 128, 64), (128, 128, 64), (16, 16), (1, 1, 8, 8), 0, 524288, 65536)),
    # B5 = B1 with a float bias: A's depth halves -> stepKa 8, stepKb 4.
    ("B5", dict(m=64, n=2048, k=256, dim=8, bias=DT.DT_FLOAT),
     row(8, (64, 256, 256), (64, 256, 64), (16, 8), (1, 1, 8, 4), 0,
         16 * 64 * 64 * 2 + 8 * 256 * 64 * 2 + 1024, 65536, bias=1)),
    # B6 fp16 32x4096x128 dim 16: SMALL_MN 1 x 16, base 32 x 256 x 64; singleCoreN 256. L1: A
    # (512K/2/32/64)/2 = 64 -> stepKa 32, B 4. Both K whole, equal loads -> order 0.
    ("B6", dict(m=32, n=4096, k=128, dim=16),
     row(16, (32, 256, 128), (32, 256, 64), (64, 8), (1, 1, 32, 4), 0, 524288, 32768)),
    # B7 = B2 in bf16 with a bf16 bias (64*2 bytes): baseM 128 > baseN 64, so B's depth
    # halves -> stepKa = stepKb = 4.
    ("B7", dict(m=2048, n=64, k=128, dim=8, dtype=DT.DT_BF16, bias=DT.DT_BF16),
     row(8, (256, 64, 128), (128, 64, 128), (8, 8), (1, 1, 4, 4), 0,
         8 * 128 * 128 * 2 + 8 * 64 * 128 * 2 + 128, 32768, bias=1)),
    # C1 tutorial 05: set_shape -> the general split over 2 cores (m16 64, n16 40, k16 16):
    # candidates (m,n) in order (1,1), (2,1), (1,2); while no "big package" is held, each
    # candidate whose per-core N stays >= 16 fractals replaces the last: (2,1) (which is one);
    # then (1,2) has more L0 loops (64 vs 48) at equal core use: kept. singleCoreM 1024/2.
    # L0: the fixed 16 x 8 fractals, k0 = 4 (k0 = 8 exceeds 64 fractals of L0A). L1: A whole
    # (K 16 fractals, 2 blocks of M), B one K step -> equal load 112 with the "neither"
    # layout, more blocks -> A whole: stepKa 4, stepM 2, depthA1 8; stepKb 1 double-buffered.
    ("C1", dict(m=1024, n=640, k=256, dim=2, shape=True, bias=DT.DT_FLOAT, fix=(256, 128, -1),
                c_pos=POS.VECCALC, traverse=host.MatrixTraverse.FIRSTM),
     row(2, (512, 640, 256), (256, 128, 64), (8, 2), (2, 1, 4, 1), 0,
         8 * 256 * 64 * 2 + 2 * 128 * 64 * 2 + 128 * 4, 131072, bias=1)),
    # C2 one core fp16 16^3: one fractal each way; every layout loads 2 fractals and the last
    # of the equal ones (A and B whole, single-buffered) wins.
    ("C2", dict(m=16, n=16, k=16, shape=True),
     row(1, (16, 16, 16), (16, 16, 16), (1, 1), (1, 1, 1, 1), 0, 1024, 1024)),
    # C3 = C2 with a float bias: the same choice, L1 adds one 16-float row.
    ("C3", dict(m=16, n=16, k=16, shape=True, bias=DT.DT_FLOAT),
     row(1, (16, 16, 16), (16, 16, 16), (1, 1), (1, 1, 1, 1), 0, 1024 + 64, 1024, bias=1)),
    # C4 one core fp16 32^3: L0 2 x 2 x 2 fractals (largest MAD at equal load); A and B whole.
    ("C4", dict(m=32, n=32, k=32, shape=True),
     row(1, (32, 32, 32), (32, 32, 32), (1, 1), (1, 1, 1, 1), 0, 4096, 4096)),
    # C6 = C4 on MultiCoreMatmulTiling with set_dim(1): one core takes the one-core path.
    ("C6", dict(m=32, n=32, k=32, shape=True, dim=1),
     row(1, (32, 32, 32), (32, 32, 32), (1, 1), (1, 1, 1, 1), 0, 4096, 4096)),
    # C7 one core fp16 1024^3: share 64 x 64 x 64 fractals. L0: M-major 16 x 8 and 16 x 4
    # leave baseN under 16 fractals of a 64-fractal N (rejected); 8 x 16 x k4 (load 768,
    # MAD 512 > MTE1 320) is the first kept and nothing beats it; the N-major pass finds the
    # same. L1: no layout holds A or B whole; neither: A takes 56 -> 8 (a divisor of the 16 K
    # steps, x4 = 32 fractals), B 16 -> capped at 2 steps (8 fractals); M first and N first do
    # not apply with neither K whole: stepM = stepN = 1, double buffers on.
    ("C7", dict(m=1024, n=1024, k=1024, shape=True),
     row(1, (1024, 1024, 1024), (128, 256, 64), (16, 4), (1, 1, 8, 2), 0,
         16 * 128 * 64 * 2 + 4 * 256 * 64 * 2, 131072)),
    # C8 = C7 with A transposed (B not): the same base; neither layout with K along A's rows:
    # B's K whole does not fit, so one K step for both: (512K / (8*512*2 + 16*512*2)) = 21 ->
    # 20 fractals -> 5 steps capped at 2 -> 8 fractals each: stepKa = stepKb = 2.
    ("C8", dict(m=1024, n=1024, k=1024, shape=True, trans=(True, False)),
     row(1, (1024, 1024, 1024), (128, 256, 64), (4, 4), (1, 1, 2, 2), 0,
         4 * 128 * 64 * 2 + 4 * 256 * 64 * 2, 131072)),
    # C9 fp16 512x1024x512 on 24 cores with set_shape (tutorial 04's shape, no bias): the
    # general core search (m16 32, n16 64): (1,1) and (2,1) by the big-package rule, then more
    # cores at equal or fewer L0 loops: (3,1) (4,1) (8,1) (16,1) (24,1), (4,2) (8,2) (12,2),
    # (8,3) by lower load (608 < 768), (4,4) with 8 loops, (6,4) with 24 cores; N slices under
    # 16 fractals (nDim >= 6) never replace a big package. 6 x 4: singleCoreM ceil(512/6) = 86.
    # L0 6 x 16 x 4 fractals (load 22); L1: A and B whole (load 22, ties go to the last).
    ("C9", dict(m=512, n=1024, k=512, shape=True, dim=24),
     row(24, (86, 256, 512), (96, 256, 64), (8, 8), (1, 1, 8, 8), 0,
         8 * 96 * 64 * 2 + 8 * 256 * 64 * 2, 98304)),
    # C5 one core fp32 32^3: k16 = 4 fractals of 8; L0 2 x 2 x 4 (K whole); A and B whole.
    ("C5", dict(m=32, n=32, k=32, shape=True, dtype=DT.DT_FLOAT),
     row(1, (32, 32, 32), (32, 32, 32), (1, 1), (1, 1, 1, 1), 0, 8192, 4096)),
    # U1 PyAsc's generalization/adv/test_matmul.py as written there: fp32 1024x512x256 (M, N,
    # K), set_dim(16), set_shape, a float bias, C in VECCALC, FIRSTM. set_shape -> general
    # split (m16 64, n16 32, k16 32 of 8). Candidates M {1,2,4,8,16} + {6,5} around
    # sqrt(64/32*16) = 5.66, N {1,2,4,8,16} + {3,2}. N outer: nDim 1: (1,1), (2,1) by the
    # big-package rule (N share 32 >= 16), then fewer L0 loops or more cores at equal loops:
    # (4,1) 32 loops, (5,1) (6,1) 32, (8,1) 16, (16,1) 16; nDim 2: (8,2) 8 loops < 16 at 16
    # cores; nDim >= 3 leaves N shares under 16 fractals and never replaces a big package.
    # Shares m 8, n 16, k 32 fractals. L0: Ascend C keeps L0C single-buffered (its default),
    # so only the dbL0C = 1 combination runs (L0C 128 fractals, BiasTable 16 fractals of N).
    # M-major: m0 8, n0 {16, 8}, k0 {8, 4, 2} (k0 8 overflows 64 fractals of L0B with n0 16):
    # 8 x 16 x 4 is first (load 8 + 16 = 24, MAD 512 > MTE1 64 + 256); 8 x 16 x 2 and 8 x 8
    # x k (load 32) do not beat it; m0 4 loads 40. N-major finds the same 8 x 16 x 4: base
    # 128 x 256 x 32. L1 (float: 1 KiB per K fractal of 16 rows, B's K even): A and B whole
    # 256K + 512K > L1; A whole: 256K + 16 x 4 x 1K + 1K bias fits, B gets (512K - 128K -
    # 2K bias) / 16K = 23 -> 22 fractals -> 5 steps capped at max(32/12, ...) = 2 (divides 8)
    # -> kBL1 8, double-buffered; load 8 + 16 = 24. B whole overflows L1. Neither loads 24
    # too with one block each of M and N; at equal load and blocks held A whole wins (its one
    # step covers K). stepKa 8, depthA1 8, stepKb 2, depthB1 4 (float B check: (8*4096 +
    # 8192*4)*4 <= 512K).
    # Shares ceil(1024/8) x ceil(512/2); no burst alignment off the direct split. On a 910B
    # Ascend C counts no UB for C in VECCALC (shareUbSize 0), so base 128 x 256 stands: that
    # test's VECOUT queue of two base_m*base_n float32 buffers (256 KiB) exceeds the 192 KiB
    # UB with Ascend C's own tiling.
    ("U1", dict(m=1024, n=512, k=256, dim=16, shape=True, dtype=DT.DT_FLOAT, bias=DT.DT_FLOAT,
                c_pos=POS.VECCALC, traverse=host.MatrixTraverse.FIRSTM),
     row(16, (128, 256, 256), (128, 256, 32), (8, 4), (1, 1, 8, 2), 0,
         8 * 128 * 32 * 4 + 4 * 256 * 32 * 4 + 256 * 4, 131072, bias=1)),
    # U2 = U1 without set_shape or traversal: SPLIT_MN (524288 > 26214*16). Base 128 x 256 x
    # 32; per pair (mDim, nDim) cycles 512 each, bytes: (8,2) one block 48K (intensity
    # 0.0104), (4,4) 64K, (16,1) 80K, (2,8) 96K, (1,16) x2 (its 32-wide N slices cannot
    # align to 64) -> (8,2). L1 split as A11: A 16 -> halved by the bias row to 8, B 8 ->
    # steps 4, 4 (4*32*4 = 512 bytes: kept); depths 8, 8 (float B check 384K <= 512K).
    # singleCoreN 256 is 64-aligned. Neither K whole (4*32 < 256) -> order 0.
    ("U2", dict(m=1024, n=512, k=256, dim=16, dtype=DT.DT_FLOAT, bias=DT.DT_FLOAT,
                c_pos=POS.VECCALC),
     row(16, (128, 256, 256), (128, 256, 32), (8, 8), (1, 1, 4, 4), 0,
         8 * 128 * 32 * 4 + 8 * 256 * 32 * 4 + 256 * 4, 131072, bias=1)),
    # Sparse B (set_sparse(True)): after the L0 choice baseK becomes a multiple of 64 (64 at
    # least, else rounded down) and an L0 buffer that two such blocks overflow loses its
    # double buffer; the L1 layouts size B at 5/8 of a dense fractal (half the values plus an
    # index of 1/8). The direct 910B split keeps the L1 steps of its unrounded block (stepK is
    # then ceil(K fractals of L1 / new baseK fractals)); shareL1Size still counts B dense.
    # S1 = A5 sparse: baseK 128 is a multiple of 64; A 128*128 and B 256*128 bytes fit half of
    # L0A/L0B -> unchanged, A5's row.
    ("S1", dict(m=1024, n=1024, k=1024, dim=8, dtype=DT.DT_INT8, sparse=True),
     row(8, (256, 512, 1024), (128, 256, 128), (16, 8), (1, 1, 8, 4), 1, 524288, 131072)),
    # S2 = A4 sparse: baseK 32 -> 64 (8 fractals). L0A 128*64*4 = 32K fits half (db 2); L0B
    # 256*64*4 = 64K does not -> dbL0B 1. L1 of A4: A 8 steps of 4 fractals (32), B 4 of 4
    # (16) -> stepKa 32/8 = 4, stepKb 16/8 = 2; depthA1 4*2 = 8, depthB1 2*2 = 4 (float B
    # check: (8*128*64 + 4*256*64)*4 = 512K, not above L1). share 8*128*64*4 + 4*256*64*4.
    # Neither K whole (4*64 < 1024) -> order 0.
    ("S2", dict(m=1024, n=1024, k=1024, dim=8, dtype=DT.DT_FLOAT, sparse=True),
     row(8, (256, 512, 1024), (128, 256, 64), (8, 4), (1, 1, 4, 2), 0, 524288, 131072,
         db=(2, 1, 1))),
    # S3 fp16 2048x64x96 dim 8 sparse: SMALL_MN 8 x 1, base 128 x 64 as B2, baseK min(128,
    # align(96, 16)) = 96 -> rounded down to 64 (4 fractals). L1 from the 96-wide block: A
    # (512K/2/128/96)*8/16 = 10, B ((512K+256)/2/64/96)*8/16 = 21; 10*24K + 21*12K fits ->
    # stepKa 5, stepKb 10 (multiple of 5): 30 and 60 fractals of 6. Rounded: stepKa
    # ceil(30/4) = 8, stepKb 15; depths 16, 30. L0 16K, 8K, 32K fit half. share 16*128*64*2 +
    # 30*64*64*2. Both K whole; A-first loads 256 + 64*2 > 64 + 256 -> order 0.
    ("S3", dict(m=2048, n=64, k=96, dim=8, sparse=True),
     row(8, (256, 64, 96), (128, 64, 64), (16, 30), (1, 1, 8, 15), 0,
         16 * 128 * 64 * 2 + 30 * 64 * 64 * 2, 32768)),
    # S4 one core int8 16x256x1024 sparse (share 1 x 16 x 32 fractals): L0 A fits L0A whole
    # (load 17 for every block); baseN under 16 fractals is refused for a 16-fractal N, L0B
    # 32K holds 64 fractals -> k 4: 16 x 256 x 128 (a multiple of 64). L1: int8 ND B counts
    # twice: dense A and B whole = 16K + 16*1024*32 = 528K > L1, sparse 16K + 16*640*32 =
    # 336K fits; B whole fits likewise. A whole: room for 31 K fractals of B -> 7 steps,
    # capped at 6 -> 4 (divides 8): load 17. B whole: A's K whole (room for 256), load 17. Equal
    # loads and blocks: the later layout wins -> A and B whole: stepKa = stepKb = 8, single
    # buffers, depths 8, 8 (dense: A whole, stepKb 4 double-buffered -> depthB1 8, order 1).
    # Both K whole, 16 + 256 = 256 + 16 -> order 0.
    ("S4", dict(m=16, n=256, k=1024, shape=True, dtype=DT.DT_INT8, sparse=True),
     row(1, (16, 256, 1024), (16, 256, 128), (8, 8), (1, 1, 8, 8), 0,
         8 * 16 * 128 + 8 * 256 * 128, 16384)),
]


@pytest.mark.parametrize("name,args,expected", CASES, ids=[c[0] for c in CASES])
def test_tiling_matches_ascend_c(name, args, expected):
    t = build(**args)
    r = TCubeTiling()
    assert t.get_tiling(r) == 0
    got = {f: getattr(r, f) for f in FIELDS}
    assert got == expected
    m, n, k = args["m"], args["n"], args["k"]
    assert (r.m, r.n, r.k_a, r.k_b) == (m, n, k, k)
    # Ascend C leaves the batch fields at one for a plain matmul
    assert (r.batch_m, r.batch_n, r.single_batch_m, r.single_batch_n) == (1, 1, 1, 1)


def test_table_covers_the_required_mix():
    dtypes = {c[1].get("dtype", DT.DT_FLOAT16) for c in CASES}
    dims = {c[1].get("dim", 1) for c in CASES}
    assert len(CASES) >= 30
    assert dtypes == {DT.DT_FLOAT16, DT.DT_BF16, DT.DT_FLOAT, DT.DT_INT8}
    assert {1, 2, 3, 4, 8, 16} <= dims
    assert any("bias" in c[1] for c in CASES) and any("fix" in c[1] for c in CASES)


@pytest.mark.parametrize("args,match", [
    # a bias with baseN above 256: the BiasTable check of the search fails (-1)
    (dict(m=1024, n=1024, k=1024, dim=8, bias=DT.DT_FLOAT, fix=(-1, 512, -1)), "BiasTable"),
    # 512 x 512 float accumulators do not fit L0C (-1)
    (dict(m=1024, n=1024, k=1024, fix=(512, 512, -1)), r"L0C \(baseM\*baseN\*4\*dbL0C\)"),
    # a fixed baseM of 8 fractals on a 4-fractal share: no L0 candidate (-1)
    (dict(m=64, n=64, k=64, shape=True, fix=(128, -1, -1)), "no base block fits"),
    # sparse int8 16x512x1024 with B transposed (share 1 x 32 x 32 fractals, base 16 x 256 x
    # 128): A and B whole fit the L1 model at 5/8 (16K + 32*320*32 = 336K) and win, but the
    # final check counts B dense: 8*16*128 + 16*256*128 = 528K > 512K (-1); dense it tiles.
    (dict(m=16, n=512, k=1024, shape=True, dtype=DT.DT_INT8, trans=(False, True), sparse=True),
     "more L1 or L0C than the buffer space"),
])
def test_where_ascend_c_returns_minus_one_we_raise(args, match):
    t = build(**args)
    out = TCubeTiling(base_m=7)
    with pytest.raises(asc.InvalidValueError, match=match):
        t.get_tiling(out)
    assert out.base_m == 7  # untouched


def test_sparse_refusal_is_the_sparse_l1_model():
    """The sparse -1 case above tiles when B is dense: the 5/8 L1 model is what changes it."""
    args = dict(m=16, n=512, k=1024, shape=True, dtype=DT.DT_INT8, trans=(False, True))
    r = TCubeTiling()
    assert build(**args).get_tiling(r) == 0
    assert r.share_l1_size <= 512 * 1024
    with pytest.raises(asc.InvalidValueError):
        build(**args, sparse=True).get_tiling(TCubeTiling())


def test_sparse_direct_split_that_overflows_l1_is_refused():
    """fp16 16x16x1000 on 8 cores: the direct split picks baseK 1008 (63 fractals) and 4 K
    steps of it (252 fractals) per operand, double-buffered. Sparse, baseK rounds down to 960
    (60 fractals): ceil(252/60) = 5 steps, depth 10 each, 2 * 10 * 16 * 960 * 2 bytes > L1.
    Ascend C returns that tiling unchecked; we raise. With set_shape the general split tiles."""
    args = dict(m=16, n=16, k=1000, dim=8)
    dense = TCubeTiling()
    assert build(**args).get_tiling(dense) == 0
    assert (dense.base_k, dense.step_k_a, dense.depth_a1) == (1008, 4, 8)
    steps = -(-dense.step_k_a * dense.base_k // 960)
    assert 2 * (2 * steps) * 16 * 960 * 2 > 512 * 1024
    with pytest.raises(asc.InvalidValueError, match=r"sparse B: baseK .* \(960\)"):
        build(**args, sparse=True).get_tiling(TCubeTiling())
    r = TCubeTiling()
    assert build(**args, sparse=True, shape=True).get_tiling(r) == 0
    assert r.base_k % 64 == 0 and r.share_l1_size <= 512 * 1024
