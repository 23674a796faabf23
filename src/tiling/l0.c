/* Matmul tiling, stage 2: the base block held in L0A/L0B/L0C. See algo.h
 * and docs/host-tiling.md ("Base block"). */
#include "algo.h"

#include <limits.h>
#include <stdlib.h>

static int64_t min64(int64_t a, int64_t b) {
  return a < b ? a : b;
}
static int64_t max64(int64_t a, int64_t b) {
  return a > b ? a : b;
}

/* The largest power of two <= v (1 at least, 4096 at most). */
static int64_t pow2_floor(int64_t v) {
  int64_t p = 1;
  while (p < 4096 && p * 2 <= v) p *= 2;
  return p;
}

/* Up to two divisors of dim near base: the first above it (up to
 * max_num), then those at or below it, largest first. */
static void near_divisors(int64_t res[2], int64_t base, int64_t dim, int64_t max_num) {
  if (dim == 1) {
    res[0] = res[1] = 1;
    return;
  }
  res[0] = res[1] = 0;
  int cnt = 0;
  for (int64_t up = base + 1; up <= max_num && up <= dim; up++)
    if (dim % up == 0) {
      res[cnt++] = up;
      break;
    }
  for (int64_t down = base; down >= 1 && cnt < 2; down--)
    if (dim % down == 0) res[cnt++] = down;
}

/* Sorts four candidates descending and drops repeats; returns the count. */
static int uniq_desc(int64_t v[4]) {
  for (int a = 1; a < 4; a++)
    for (int b = a; b > 0 && v[b] > v[b - 1]; b--) {
      int64_t t = v[b];
      v[b] = v[b - 1];
      v[b - 1] = t;
    }
  int n = 1;
  for (int a = 1; a < 4; a++)
    if (v[a] != v[n - 1]) v[n++] = v[a];
  return n;
}

/* The best block found so far and the limits of the search. */
typedef struct l0_search {
  int64_t max_mk, max_nk, max_mn, axis, axis_num, axis_pnt, max_n;
  int64_t db_a, db_b, db_c;
  /* best so far */
  int64_t m, k, n, load, mul, mte1_loop, mte1_cycles;
  float l0c_use;
  bool by_mte1;
} l0_search;

/* GM loads, in fractals, of a core's share with an m x n x k block. */
static int64_t load_of(const tl_job *j, const tl_cores *c, int64_t m, int64_t n, int64_t k) {
  bool a_full = asc_tiling_mul(asc_tiling_mul(c->m, c->k), TL_FRACTAL_BYTES) <= j->l0a;
  bool b_full = asc_tiling_mul(asc_tiling_mul(c->n, c->k), TL_FRACTAL_BYTES) <= j->l0b;
  if (a_full || b_full) return c->m + c->n;
  if (k >= c->k)
    return min64(c->n + asc_tiling_ceil(c->n, n) * c->m, c->m + asc_tiling_ceil(c->m, m) * c->n);
  return asc_tiling_ceil(c->m, m) * c->n + asc_tiling_ceil(c->n, n) * c->m;
}

/* Whether fp32 NZ data needs an even K fractal count. */
static bool even_k_needed(const tl_job *j) {
  return (j->a_float && j->a_nz && j->a_trans) || (j->b_float && j->b_nz && !j->b_trans);
}

static void consider(const tl_job *j, const tl_cores *c, l0_search *s, int64_t k0, int64_t major,
                     int64_t minor) {
  if (k0 == 0) return;
  int64_t m = s->axis == 0 ? major : minor, n = s->axis == 0 ? minor : major;
  float use = (float)((double)(m * n * s->db_c * TL_C0 * TL_C0 * 4) * 1.0 / (double)j->l0c);
  int64_t mte1 =
      max64(6, m * k0 * TL_FRACTAL_BYTES / 256) + max64(6, k0 * n * TL_FRACTAL_BYTES / 128);
  int64_t mad = m * k0 * n;
  int64_t load = load_of(j, c, m, n, k0);
  int64_t loop = (n != 1 ? k0 : 1) + (k0 != 1 ? m : 1);
  bool c1 = s->m == 0;
  bool c2 = load < s->load || (mte1 < mad && !s->by_mte1);
  bool c3 = load == s->load && mad > s->mul && (float)mad * use >= (float)s->mul * s->l0c_use;
  bool c4 = mad == s->mul && load == s->load && loop < s->mte1_loop;
  bool c5 = (mte1 < mad && s->by_mte1) || !s->by_mte1;
  int64_t bias_len = j->bias ? n * TL_C0 * j->bias_bytes : 0;
  bool c6 = m * k0 * TL_FRACTAL_BYTES + n * k0 * TL_FRACTAL_BYTES + bias_len <= j->l1;
  int64_t last_reduce = (j->a_float || j->b_float) ? 8 : 16;
  bool c7 = j->fix_n != -1 || !(c->n >= last_reduce && n < last_reduce);
  bool c8 = !even_k_needed(j) || k0 % 2 == 0;
  if ((c1 || c2 || c3 || c4) && c5 && c6 && c7 && c8) {
    s->m = m, s->k = k0, s->n = n;
    s->load = load, s->l0c_use = use, s->mul = mad, s->mte1_cycles = mte1, s->mte1_loop = loop;
    s->by_mte1 = s->by_mte1 || mte1 < mad;
  }
}

/* Candidates for one axis: a fixed split, or divisors near the preferred
 * point of the size and of its power-of-two floor. */
static int axis_factors(int64_t out[4], int64_t fixed, int64_t pnt, int64_t dim, int64_t num,
                        bool even) {
  out[0] = out[1] = out[2] = out[3] = 0;
  if (fixed != -1) {
    out[0] = asc_tiling_ceil(fixed, TL_C0);
  } else {
    int64_t two[2];
    near_divisors(two, pnt, dim, num);
    out[0] = two[0], out[1] = two[1];
    near_divisors(two, pnt, pow2_floor(dim), num);
    out[2] = two[0], out[3] = two[1];
    if (even)
      for (int i = 0; i < 4; i++) out[i] = asc_tiling_align(out[i], 2);
  }
  return uniq_desc(out);
}

static void search(const tl_job *j, const tl_cores *c, l0_search *s) {
  int64_t b_align = j->b_int8 || j->b_i4 ? 2 : 1;
  int64_t major_dim = c->m, minor_dim = asc_tiling_align(c->n, b_align);
  int64_t major_k = s->max_mk, minor_k = s->max_nk;
  if (s->axis != 0) {
    major_dim = asc_tiling_align(c->n, b_align), minor_dim = c->m;
    major_k = s->max_nk, minor_k = s->max_mk;
  }
  bool bias_bt = j->bias; /* the bias goes through the BiasTable */
  int64_t major_fix = s->axis != 0 ? j->fix_n : j->fix_m;
  int64_t minor_fix = s->axis != 0 ? j->fix_m : j->fix_n;
  int64_t pnt = s->axis_pnt, num = s->axis_num;
  if (s->axis != 0 && bias_bt) pnt = min64(pnt, s->max_n), num = min64(num, s->max_n);
  int64_t majors[4];
  int nmaj =
      axis_factors(majors, major_fix, pnt, major_dim, num, s->axis != 0 && (j->b_int8 || j->b_i4));
  for (int a = 0; a < nmaj; a++) {
    int64_t major = majors[a];
    if (major == 0 || major > s->max_mn || major > major_k || major > major_dim) continue;
    int64_t minor_max = min64(s->max_mn / major, minor_k);
    int64_t mpnt = minor_max, mnum = minor_max;
    if (s->axis == 0 && bias_bt) mpnt = mnum = min64(minor_max, s->max_n);
    int64_t minors[4];
    int nmin = axis_factors(minors, minor_fix, mpnt, minor_dim, mnum,
                            s->axis == 0 && (j->b_int8 || j->b_i4));
    for (int b = 0; b < nmin; b++) {
      int64_t minor = minors[b];
      if (minor == 0 || minor * major > s->max_mn || minor > minor_k || minor > minor_dim ||
          minor > major_k)
        continue;
      /* with a bias, baseN stays within 64 fractals */
      int64_t n_frac = s->axis != 0 ? major : minor;
      if (n_frac > 64 && bias_bt) continue;
      int64_t k_max = min64(major_k / major, minor_k / minor);
      int64_t ks[4] = {0, 0, 0, 0}, two[2];
      near_divisors(two, k_max, c->k, k_max);
      ks[0] = two[0], ks[1] = two[1];
      near_divisors(two, k_max, pow2_floor(c->k), s->axis_num);
      ks[2] = two[0], ks[3] = two[1];
      int nk = uniq_desc(ks);
      for (int e = 0; e < nk; e++) {
        int64_t k0 = ks[e];
        if (k0 == 0 || minor * k0 > minor_k || major * k0 > major_k) continue;
        if (even_k_needed(j) && k0 == 1) k0 = 2;
        int64_t m = s->axis == 0 ? major : minor, n = s->axis == 0 ? minor : major;
        if (j->a_float) {
          int64_t la = (j->a_trans ? asc_tiling_align(k0, 2) : k0) * TL_FRACTAL_BYTES * m * 2;
          int64_t lb =
              (j->a_trans || !j->b_trans ? asc_tiling_align(k0, 2) : k0) * TL_FRACTAL_BYTES * n * 2;
          if (la > j->l0a || lb > j->l0b) continue;
        } else if (j->a_int8 || j->a_i4) {
          int64_t la = k0 * TL_FRACTAL_BYTES * (j->a_trans ? asc_tiling_align(m, 2) : m) * 2;
          int64_t lb = k0 * TL_FRACTAL_BYTES * (j->b_trans ? n : asc_tiling_align(n, 2)) * 2;
          if (la > j->l0a || lb > j->l0b) continue;
        }
        consider(j, c, s, k0, major, minor);
      }
    }
  }
}

void asc_tiling_l0(const tl_job *j, const tl_cores *c, tl_l0 *l0) {
  /* L0C single-buffered: the search below runs with dbL0C = 1 */
  const int64_t mn_max = j->l0c / (TL_C0 * TL_C0) / 4;
  const int64_t max_n = j->bt / TL_C0 / 4;
  const int64_t left = min64(j->l1, j->l0a / j->db_l0a);
  const int64_t right = min64(j->l1, j->l0b / j->db_l0b);
  int64_t fm = 0, fk = 0, fn = 0;
  for (int axis = 0; axis < 2; axis++) {
    l0_search s = {left / TL_FRACTAL_BYTES,
                   right / TL_FRACTAL_BYTES,
                   mn_max,
                   axis,
                   64,
                   11,
                   j->bias ? max_n : 64,
                   j->db_l0a,
                   j->db_l0b,
                   1,
                   0,
                   0,
                   0,
                   INT_MAX,
                   0,
                   INT_MAX,
                   0,
                   0.0f,
                   false};
    search(j, c, &s);
    /* the later axis' result replaces the earlier one when it found one */
    if (s.m != 0 && s.k != 0 && s.n != 0) fm = s.m, fk = s.k, fn = s.n;
  }
  *l0 = (tl_l0){fm, fn, fk, j->db_l0a, j->db_l0b, 1};
}

void asc_tiling_l0_sparse(const tl_job *j, tl_l0 *l0) {
  if (!j->sparse) return;
  /* the sparse load (load_data_with_sparse) moves K in steps of 64 */
  const int64_t step = 64;
  int64_t base_k = l0->k * j->reduce;
  base_k = base_k <= step ? step : base_k / step * step;
  l0->k = base_k / j->reduce;
  /* a buffer stays double only while two blocks fit it; none is turned on */
  int64_t base_m = l0->m * TL_C0, base_n = l0->n * TL_C0;
  if (base_m * base_k * j->a_bits / 8 > j->l0a / 2) l0->db_a = 1;
  if (base_n * base_k * j->b_bits / 8 > j->l0b / 2) l0->db_b = 1;
  if (base_m * base_n * 4 > j->l0c / 2) l0->db_c = 1;
}
