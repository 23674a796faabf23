/* Internal interface of the matmul tiling search (src/tiling/): the
 * decisions Ascend C's matmul_tiling makes for a 910B-class core, in three
 * stages, each in its own file:
 *
 *   split.c  how many cores along M, N (and K) and each core's share,
 *   l0.c     the base block (baseM, baseN, baseK) that L0A/L0B/L0C hold,
 *   l1.c     how many base blocks L1 holds (stepM/N/Ka/Kb, depthA1/B1).
 *
 * tiling.c resolves a context into a tl_job, runs the stages and writes
 * TCubeTiling. Sizes along M and N are counted in 16-row fractals ("m16",
 * "n16"), K in fractal widths of 32 bytes ("k16"), as the search does; the
 * docs (docs/host-tiling.md, "The algorithm") describe each rule. Only
 * split.c allocates, scratch space it frees before returning. */
#ifndef ASC_TILING_ALGO_H
#define ASC_TILING_ALGO_H

#include <stdbool.h>
#include <stdint.h>

#define TL_C0 16       /* rows of a fractal */
#define TL_C0_BYTES 32 /* bytes of a fractal row */
#define TL_FRACTAL_BYTES (TL_C0 * TL_C0_BYTES)

/* Everything the stages read: resolved once from the context. */
typedef struct tl_job {
  /* element bits of A, B, C, bias; A/B 4-byte (float) or 1-byte (int8) */
  int a_bits, b_bits, c_bits, bias_bytes;
  bool a_float, b_float, a_int8, b_int8;
  bool a_i4, b_i4; /* DT_INT4: CANN's int8 branches take it where they say so */
  bool a_trans, b_trans, a_nz, b_nz, c_nz, a_nd, b_nd;
  bool bias;
  int64_t l1, l0a, l0b, l0c, ub, bt;
  int64_t org_m, org_n, org_ka, org_kb;
  int64_t single_m, single_n, single_k; /* set_shape (-1: the original) */
  int64_t core_m, core_n, core_k;       /* set_single_shape (-1: unset) */
  int64_t fix_m, fix_n, fix_k;          /* set_fix_split (-1: unset) */
  int64_t block_dim;                    /* cores offered (set_dim) */
  bool split_k;
  bool sparse; /* B 4:2 structured sparse (set_sparse) */
  int traverse;
  /* derived */
  int64_t reduce;    /* elements of A in a 32-byte fractal row */
  bool single_shape; /* set_single_shape given: one core's shape fixed */
  int64_t nob;       /* cores the split may use (1 with single_shape) */
  int64_t db_l0a, db_l0b;
} tl_job;

/* The search's per-core share, in fractals, and cores along each axis. */
typedef struct tl_cores {
  int64_t m, n, k; /* a core's share in m16/n16/k16 units */
  int64_t m_dim, n_dim, k_dim;
} tl_cores;

/* Shape in fractal units, with the power-of-two stand-ins used for sizes
 * with few divisors. */
typedef struct tl_params {
  int64_t m32, n32, k32;
  int64_t m_mapped, n_mapped, k_mapped;
} tl_params;

/* L0 decision: fractals per base block and double buffering. */
typedef struct tl_l0 {
  int64_t m, n, k; /* baseM/16, baseN/16, baseK/reduce */
  int64_t db_a, db_b, db_c;
} tl_l0;

/* L1 decision, in the same units (k in k16 units). */
typedef struct tl_l1 {
  int64_t k_a, k_b, m_a, n_b, db_a, db_b;
} tl_l1;

/* The outcome of the multi-core split. When `direct` is set the split
 * also fixed the base block and the L1 depths (the 910B large/small M x N
 * split), else l0.c and l1.c decide them. */
typedef struct tl_split {
  tl_cores cores;
  bool direct;
  tl_l0 l0;
  tl_l1 l1;
} tl_split;

/* math helpers shared by the stages */
/* a * b, saturated at +-2^60 so that sizes near INT32_MAX cannot overflow
 * (the saturated value fits no buffer and a few more sums). */
int64_t asc_tiling_mul(int64_t a, int64_t b);
int64_t asc_tiling_ceil(int64_t a, int64_t b);
int64_t asc_tiling_align(int64_t a, int64_t b);
int64_t asc_tiling_map_shape(int64_t shape, bool round_up);
int64_t asc_tiling_best_single(int64_t ori, int64_t mapped, int64_t cores, bool is_k);
int64_t asc_tiling_single_k(const tl_job *j);
int64_t asc_tiling_single_m(const tl_job *j);
int64_t asc_tiling_single_n(const tl_job *j);

/* split.c: the multi-core split (false: out of memory); the multi-core
 * scenario of the search (0 general, 1 large M x N, 2 small M x N). */
bool asc_tiling_split(const tl_job *j, tl_params *p, tl_split *out);
int asc_tiling_scenario(const tl_job *j);
/* One core's shape from the split, as TCubeTiling's singleCoreM/N/K. */
void asc_tiling_single_shape(const tl_job *j, const tl_params *p, const tl_cores *c, int64_t *sm,
                             int64_t *sn, int64_t *sk);
/* Rounds ceil(org / factor) up to align when that still leaves factor
 * parts; false when it would not (the share is then left unaligned). */
bool asc_tiling_align_single(bool need, int64_t org, int64_t factor, int64_t align,
                             int64_t *single);

/* l0.c: the base block for a core's share; l0->m == 0 when none fits. */
void asc_tiling_l0(const tl_job *j, const tl_cores *c, tl_l0 *l0);
/* l0.c: with a sparse B, rounds baseK to a multiple of 64 elements (64 at
 * least) and drops the L0 double buffers the larger block no longer
 * leaves room for; no change otherwise. */
void asc_tiling_l0_sparse(const tl_job *j, tl_l0 *l0);

/* l1.c: the L1 factors for a core's share and base block. */
void asc_tiling_l1(const tl_job *j, const tl_cores *c, const tl_l0 *l0, tl_l1 *l1);

#endif
