/* 4:2 structured-sparse matmul (load_data_with_sparse, mmad_with_sparse)
 * and load_data_with_transpose's two-fractal squares (int8, float32).
 * Included after rt/cube.h, whose spans, buffers and checks it uses.
 *
 * Sparse model (PyAsc/Ascend C docs): the host densifies a sparse B (K x N)
 * whose every 4 consecutive K elements of a column hold at most 2 nonzeros
 * (more: only the first 2 count) into a dense B of K/2 rows, keeping for
 * each kept value a 2-bit index: the first value's position in the group's
 * first 3 elements, the second's in its last 3 (position - 1). The index
 * bytes hold 4 positions each, the first in the low two bits (the docs'
 * "reverse order": positions 1 2 0 1 are the byte written 1 0 2 1).
 *   load_data_with_sparse copies dense fractals B1 -> B2 like load_data and
 *   reads 128 index bytes with each 512-byte fractal: fractal f's indices
 *   start at byte f * 128 of idx. The simulator keeps each L0B byte's index
 *   in the core's l0b_idx shadow (0xFF: loaded by something else).
 *   mmad_with_sparse: C (m x n) = A (m x k, L0A as for mmad) @ B, with B's
 *   dense row d (0 <= d < 2 * ceil(k / 4), L0B as for mmad with K = that
 *   row count) standing for sparse row 4 * (d / 2) + index + d % 2; A's columns at
 *   or past k count as zero. */
#if defined(ASC_K_CUBE) && !defined(ASC_RT_CUBE_SPARSE_H)
#define ASC_RT_CUBE_SPARSE_H

/* LoadDataWithSparse(dst B2, src B1, idx B1, LoadData2DParams) on spans;
 * didx: the index shadow of dst's first byte. */
static int asc_kc_load_sparse(asc_kc_span dst, uint8_t *didx, asc_kc_span src, asc_kc_span idx,
                              const asc_kc_load2d *p, asc_kc_err *e) {
  if (p->if_transpose)
    return asc_kc_fail(e, "load_data_with_sparse cannot transpose (if_transpose must be False)");
  if (asc_kc_load2d_check(p, e)) return -1;
  /* consecutive fractals from start_index on: CANN's LoadDataWithSparse
   * leaves src_stride and dst_gap unused */
  for (int64_t i = 0; i < p->repeat_times; i++) {
    int64_t f = p->start_index + i;
    int64_t s = f * ASC_KC_FRACTAL_BYTES, d = i * ASC_KC_FRACTAL_BYTES;
    if (!asc_kc_in(s, ASC_KC_FRACTAL_BYTES, src.n))
      return asc_kc_fail(e, "load_data_with_sparse reads fractal %lld past src (%lld bytes)",
                         (long long)f, (long long)src.n);
    if (!asc_kc_in(f * 128, 128, idx.n))
      return asc_kc_fail(e,
                         "load_data_with_sparse reads the indices of fractal %lld (bytes %lld.."
                         "%lld) past idx (%lld bytes)",
                         (long long)f, (long long)(f * 128), (long long)(f * 128 + 127),
                         (long long)idx.n);
    if (!asc_kc_in(d, ASC_KC_FRACTAL_BYTES, dst.n))
      return asc_kc_fail(e, "load_data_with_sparse writes fractal %lld past dst (%lld bytes)",
                         (long long)i, (long long)dst.n);
    memmove(dst.p + d, src.p + s, ASC_KC_FRACTAL_BYTES);
    const uint8_t *ib = (const uint8_t *)idx.p + f * 128;
    for (int b = 0; b < ASC_KC_FRACTAL_BYTES; b++)
      didx[d + b] = (uint8_t)((ib[b / 4] >> (2 * (b % 4))) & 3u);
  }
  return 0;
}

/* MmadWithSparse(dst L0C int32, fm L0A int8, filter L0B int8 dense) on
 * spans; bidx: the index shadow of filter's first byte. A is widened into
 * the core's scratch column by column (k x m, so that a column of C is a
 * run of multiply-adds the compiler vectorises), C is built in scratch as
 * n x m, then written to L0C's fractals. */
static int asc_kc_mmad_sparse(asc_kc_core *core, asc_kc_span dst, asc_kc_span a, asc_kc_span b,
                              const uint8_t *bidx, const asc_kc_mmad *p, asc_kc_err *e) {
  if (p->m < 0 || p->n < 0 || p->k < 0 || p->m > 4095 || p->n > 4095 || p->k > 4095)
    return asc_kc_fail(e,
                       "mmad_with_sparse: MmadParams m, n, k must lie in 0..4095 (got %lld, %lld, "
                       "%lld)",
                       (long long)p->m, (long long)p->n, (long long)p->k);
  if (!p->m || !p->n || !p->k) return 0; /* the docs: not executed */
  const int64_t kd = (p->k + 3) / 4 * 2; /* dense rows of B */
  const int64_t m1 = asc_kc_ceil16(p->m), n1 = asc_kc_ceil16(p->n), k1 = (p->k + 31) / 32,
                kd1 = (kd + 31) / 32, mp = m1 * 16;
  if (m1 * k1 * ASC_KC_FRACTAL_BYTES > a.n)
    return asc_kc_fail(e,
                       "mmad_with_sparse reads %lld bytes of L0A (m=%lld, k=%lld) but fm has %lld",
                       (long long)(m1 * k1 * ASC_KC_FRACTAL_BYTES), (long long)p->m,
                       (long long)p->k, (long long)a.n);
  if (kd1 * n1 * ASC_KC_FRACTAL_BYTES > b.n)
    return asc_kc_fail(e,
                       "mmad_with_sparse reads %lld bytes of L0B (%lld dense rows, n=%lld) but "
                       "filter has %lld",
                       (long long)(kd1 * n1 * ASC_KC_FRACTAL_BYTES), (long long)kd, (long long)p->n,
                       (long long)b.n);
  if (m1 * n1 * 1024 > dst.n)
    return asc_kc_fail(
        e, "mmad_with_sparse writes %lld bytes of L0C (m=%lld, n=%lld) but dst has %lld",
        (long long)(m1 * n1 * 1024), (long long)p->m, (long long)p->n, (long long)dst.n);
  /* the scratch holds what L0A and L0C can: A's elements and C's as int32 */
  if (m1 * k1 * ASC_KC_FRACTAL_BYTES > ASC_KC_L0A_SIZE || mp * p->n > ASC_KC_L0B_SIZE)
    return asc_kc_fail(e, "mmad_with_sparse's operands exceed L0A/L0C");
  for (int64_t n = 0; n < p->n; n++)
    for (int64_t d = 0; d < kd; d++) {
      int64_t at = ((d / 32) * n1 + n / 16) * ASC_KC_FRACTAL_BYTES + (n % 16) * 32 + d % 32;
      if (bidx[at] > 3)
        return asc_kc_fail(e,
                           "mmad_with_sparse: filter byte %lld (dense row %lld, column %lld) has "
                           "no index: load it with load_data_with_sparse",
                           (long long)at, (long long)d, (long long)n);
    }
  int32_t *acol = (int32_t *)(void *)core->scr_a;   /* [k1 * 32][mp] */
  uint32_t *ccol = (uint32_t *)(void *)core->scr_b; /* [n][mp]: int32 wrap-around kept defined */
  for (int64_t i = 0; i < m1; i++)
    for (int64_t j = 0; j < k1; j++) {
      const signed char *f = (const signed char *)a.p + (i * k1 + j) * ASC_KC_FRACTAL_BYTES;
      for (int r = 0; r < 16; r++)
        for (int q = 0; q < 32; q++) acol[(j * 32 + q) * mp + i * 16 + r] = f[r * 32 + q];
    }
  for (int64_t n = 0; n < p->n; n++) {
    uint32_t *cn = ccol + n * mp;
    for (int64_t m = 0; m < p->m; m++) {
      int32_t old = 0;
      if (!p->init)
        memcpy(&old, dst.p + (((n / 16) * m1 + m / 16) * 256 + (m % 16) * 16 + n % 16) * 4, 4);
      cn[m] = (uint32_t)old;
    }
    for (int64_t d = 0; d < kd; d++) {
      int64_t bat = ((d / 32) * n1 + n / 16) * ASC_KC_FRACTAL_BYTES + (n % 16) * 32 + d % 32;
      /* the first index is a position in the group's first 3, the second
       * in its last 3 (CANN's MmadWithSparse) */
      int64_t col = 4 * (d / 2) + bidx[bat] + d % 2;
      uint32_t bv = (uint32_t)(int32_t)(signed char)b.p[bat];
      if (col >= p->k || !bv) continue; /* A's columns past k count as zero */
      const int32_t *ac = acol + col * mp;
      for (int64_t m = 0; m < p->m; m++) cn[m] += (uint32_t)ac[m] * bv;
    }
    for (int64_t m = 0; m < p->m; m++) {
      int32_t out = (int32_t)cn[m];
      memcpy(dst.p + (((n / 16) * m1 + m / 16) * 256 + (m % 16) * 16 + n % 16) * 4, &out, 4);
    }
  }
  return 0;
}

/* The index shadow of a span in L0B. */
static uint8_t *asc_kc_l0b_idx(asc_kc_core *c, asc_kc_span s) {
  return c->l0b_idx + (s.p - c->mem[ASC_KC_L0B]);
}

/* load_data_with_sparse(dst B2 int8, src B1 int8, idx B1 uint8, LoadData2DParams) */
static int asc_k_cube_load_sparse(asc_k_ctx *k, asc_k_lt dst, asc_k_lt src, asc_k_lt idx,
                                  int64_t start, int64_t repeat, int64_t src_stride,
                                  int64_t dst_gap, int transpose, int line) __attribute__((unused));
static int asc_k_cube_load_sparse(asc_k_ctx *k, asc_k_lt dst, asc_k_lt src, asc_k_lt idx,
                                  int64_t start, int64_t repeat, int64_t src_stride,
                                  int64_t dst_gap, int transpose, int line) {
  static const char api[] = "load_data_with_sparse";
  asc_kc_span d, s, x;
  asc_kc_err e;
  if (asc_k_cube_local(k, dst, 1, 1u << ASC_KC_L0B, api, "dst", &d, line) ||
      asc_k_cube_local(k, src, 1, ASC_KC_M_L1, api, "src", &s, line) ||
      asc_k_cube_local(k, idx, 1, ASC_KC_M_L1, api, "idx", &x, line))
    return 1;
  asc_kc_load2d p = {start, repeat, src_stride, dst_gap, transpose};
  if (asc_kc_load_sparse(d, asc_kc_l0b_idx((asc_kc_core *)k->cube, d), s, x, &p, &e))
    return asc_k_fail(k, line, "%s", e.msg);
  if (repeat > 0) { /* consecutive fractals (asc_kc_load_sparse) */
    if (asc_k_cube_use(k, ASC_K_MTE1, s, start * 512, repeat * 512, 0, api, "src", line) ||
        asc_k_cube_use(k, ASC_K_MTE1, x, start * 128, repeat * 128, 0, api, "idx", line) ||
        asc_k_cube_use(k, ASC_K_MTE1, d, 0, repeat * 512, 1, api, "dst", line))
      return 1;
  }
  return 0;
}

/* mmad_with_sparse(dst CO1 int32, fm A2 int8, filter B2 int8, MmadParams) */
static int asc_k_cube_mmad_sparse(asc_k_ctx *k, asc_k_lt dst, asc_k_lt a, asc_k_lt b, int64_t m,
                                  int64_t n, int64_t kk, int init, int line)
    __attribute__((unused));
static int asc_k_cube_mmad_sparse(asc_k_ctx *k, asc_k_lt dst, asc_k_lt a, asc_k_lt b, int64_t m,
                                  int64_t n, int64_t kk, int init, int line) {
  static const char api[] = "mmad_with_sparse";
  asc_kc_span sd, sa, sb;
  asc_kc_err e;
  if (asc_k_cube_local(k, dst, 4, ASC_KC_M_L0C, api, "dst", &sd, line) ||
      asc_k_cube_local(k, a, 1, 1u << ASC_KC_L0A, api, "fm", &sa, line) ||
      asc_k_cube_local(k, b, 1, 1u << ASC_KC_L0B, api, "filter", &sb, line))
    return 1;
  asc_kc_mmad p = {m, n, kk, init, 0};
  asc_kc_core *core = (asc_kc_core *)k->cube;
  if (asc_kc_mmad_sparse(core, sd, sa, sb, asc_kc_l0b_idx(core, sb), &p, &e))
    return asc_k_fail(k, line, "%s", e.msg);
  if (!m || !n || !kk) return 0;
  const int64_t m1 = asc_kc_ceil16(m), n1 = asc_kc_ceil16(n), k1 = (kk + 31) / 32,
                kd1 = ((kk + 3) / 4 * 2 + 31) / 32;
  if (asc_k_cube_use(k, ASC_K_M, sa, 0, m1 * k1 * 512, 0, api, "fm", line) ||
      asc_k_cube_use(k, ASC_K_M, sb, 0, kd1 * n1 * 512, 0, api, "filter", line) ||
      asc_k_cube_use(k, ASC_K_M, sd, 0, m1 * n1 * 1024, 1, api, "dst", line))
    return 1;
  return 0;
}

/* LoadData2dTransposeParams' ranges (the 16-bit fields and an 8-bit
 * repeat), shared by every element type's transposed load. */
static int asc_kc_transpose_params(const asc_kc_load2d *p, int64_t frac_gap, asc_kc_err *e) {
  if (p->start_index < 0 || p->start_index > 65535 || p->repeat_times < 0 ||
      p->repeat_times > 255 || p->src_stride < 0 || p->src_stride > 65535 || p->dst_gap < 0 ||
      p->dst_gap > 65535 || frac_gap < 0 || frac_gap > 65535)
    return asc_kc_fail(e,
                       "LoadData2dTransposeParams out of range (start_index %lld, repeat_times "
                       "%lld, src_stride %lld, dst_gap %lld, dst_frac_gap %lld)",
                       (long long)p->start_index, (long long)p->repeat_times,
                       (long long)p->src_stride, (long long)p->dst_gap, (long long)frac_gap);
  return 0;
}
/* load_data_with_transpose: 16-bit types transpose single 16 x 16 fractals
 * (load_data with if_transpose); int8 joins two consecutive 16 x 32
 * fractals into a 32 x 32 square, float32 two consecutive 16 x 8 fractals
 * side by side into a 16 x 16 square. Square start_index + i * src_stride
 * (units of 1024 bytes) is transposed and split back into two fractals:
 * the first at i * (1 + dst_gap) * 512 bytes of dst, the second
 * (1 + dst_frac_gap) fractals after it. */
static int asc_kc_load_squares(asc_kc_span dst, asc_kc_span src, asc_kc_type t,
                               const asc_kc_load2d *p, int64_t frac_gap, asc_kc_err *e) {
  if (asc_kc_transpose_params(p, frac_gap, e)) return -1;
  for (int64_t i = 0; i < p->repeat_times; i++) {
    int64_t sq = p->start_index + i * p->src_stride, s = sq * 1024;
    int64_t d0 = i * (1 + p->dst_gap) * ASC_KC_FRACTAL_BYTES,
            d1 = d0 + (1 + frac_gap) * ASC_KC_FRACTAL_BYTES;
    if (!asc_kc_in(s, 1024, src.n))
      return asc_kc_fail(e, "load_data_with_transpose reads square %lld past src (%lld bytes)",
                         (long long)sq, (long long)src.n);
    if (!asc_kc_in(d0, ASC_KC_FRACTAL_BYTES, dst.n) || !asc_kc_in(d1, ASC_KC_FRACTAL_BYTES, dst.n))
      return asc_kc_fail(e, "load_data_with_transpose writes past dst (%lld bytes) in repeat %lld",
                         (long long)dst.n, (long long)i);
    char in[1024], out[1024];
    memcpy(in, src.p + s, sizeof in);
    if (t == ASC_KC_S8) { /* in: 32 x 32 rows of 32 bytes; out = in^T */
      for (int r = 0; r < 32; r++)
        for (int c = 0; c < 32; c++) out[c * 32 + r] = in[r * 32 + c];
    } else { /* float32: square (r, c) is fractal c / 8's (r, c % 8) */
      for (int r = 0; r < 16; r++)
        for (int c = 0; c < 16; c++)
          /* out square (c, r) lies in fractal r / 8 at row c, column r % 8 */
          memcpy(out + ((r / 8) * 128 + c * 8 + r % 8) * 4,
                 in + ((c / 8) * 128 + r * 8 + c % 8) * 4, 4);
    }
    memmove(dst.p + d0, out, ASC_KC_FRACTAL_BYTES);
    memmove(dst.p + d1, out + ASC_KC_FRACTAL_BYTES, ASC_KC_FRACTAL_BYTES);
  }
  return 0;
}

/* load_data_with_transpose(dst A2/B2, src A1/B1, t, start, repeat, src_stride, dst_gap,
 * dst_frac_gap) */
static int asc_k_cube_load_t(asc_k_ctx *k, asc_k_lt dst, asc_k_lt src, int t, int64_t start,
                             int64_t repeat, int64_t src_stride, int64_t dst_gap, int64_t frac_gap,
                             int line) __attribute__((unused));
static int asc_k_cube_load_t(asc_k_ctx *k, asc_k_lt dst, asc_k_lt src, int t, int64_t start,
                             int64_t repeat, int64_t src_stride, int64_t dst_gap, int64_t frac_gap,
                             int line) {
  static const char api[] = "load_data_with_transpose";
  if (t != ASC_KC_S8 && t != ASC_KC_F32)
    return asc_k_cube_load_l1(k, dst, src, t, start, repeat, src_stride, dst_gap, 1, line);
  asc_kc_span d, s;
  asc_kc_err e;
  int es = asc_kc_esize((asc_kc_type)t);
  if (asc_k_cube_local(k, dst, es, ASC_KC_M_L0AB, api, "dst", &d, line) ||
      asc_k_cube_local(k, src, es, ASC_KC_M_L1, api, "src", &s, line))
    return 1;
  asc_kc_load2d p = {start, repeat, src_stride, dst_gap, 1};
  if (asc_kc_load_squares(d, s, (asc_kc_type)t, &p, frac_gap, &e))
    return asc_k_fail(k, line, "%s", e.msg);
  asc_kc_core *core = (asc_kc_core *)k->cube;
  for (int64_t i = 0; i < repeat; i++) {
    int64_t d0 = i * (1 + dst_gap) * 512, d1 = d0 + (1 + frac_gap) * 512;
    if (d.p >= core->mem[ASC_KC_L0B] && d.p < core->mem[ASC_KC_L0B] + ASC_KC_L0B_SIZE) {
      memset(asc_kc_l0b_idx(core, d) + d0, 0xFF, 512);
      memset(asc_kc_l0b_idx(core, d) + d1, 0xFF, 512);
    }
    if (asc_k_cube_use(k, ASC_K_MTE1, s, (start + i * src_stride) * 1024, 1024, 0, api, "src",
                       line) ||
        asc_k_cube_use(k, ASC_K_MTE1, d, d0, 512, 1, api, "dst", line) ||
        asc_k_cube_use(k, ASC_K_MTE1, d, d1, 512, 1, api, "dst", line))
      return 1;
  }
  return 0;
}

#endif
