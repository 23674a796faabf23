/* Matmul tiling, stage 3: how many base blocks L1 holds. See algo.h and
 * docs/host-tiling.md ("L1"). Four layouts are tried: A and B whole in
 * L1, A whole, B whole, neither; the one loading least from GM wins. */
#include "algo.h"

#include <limits.h>
#include <string.h>

#define MUL asc_tiling_mul

static int64_t min64(int64_t a, int64_t b) {
  return a < b ? a : b;
}
static int64_t max64(int64_t a, int64_t b) {
  return a > b ? a : b;
}

/* The L1 state the layouts refine; fields persist from one to the next. */
typedef struct l1_state {
  int64_t k_a, k_b, m_a, n_b, db_a, db_b;
  int64_t a_size, b_size, all_times, load;
  int64_t max_m, max_n, max_ka, max_kb;
  bool both_full, a_full, b_full;
  int64_t bias_times; /* bias rows kept per B block (0 without a bias) */
} l1_state;

typedef struct l1_ctx {
  const tl_job *j;
  const tl_cores *c;
  const tl_l0 *l0;
  int64_t ka_align, kb_align; /* K fractal-count alignment of A, B in L1 */
  int64_t bias_bytes;         /* 0 without a bias */
} l1_ctx;

static void set_factors(l1_state *s, int64_t ka, int64_t kb, int64_t ma, int64_t nb, int64_t da,
                        int64_t db) {
  s->k_a = ka, s->k_b = kb, s->m_a = ma, s->n_b = nb, s->db_a = da, s->db_b = db;
}

/* Products the reference computes in int32; 0 on overflow, as it does. */
static int64_t mul32(int64_t a, int64_t b, bool *ok) {
  if (!(a > 0 && b > 0) || a > INT32_MAX / b) {
    *ok = false;
    return 0;
  }
  return a * b;
}

/* Bytes of L1 the state takes (0 when a size overflows int32). */
static int64_t l1_size(const l1_ctx *x, const l1_state *s) {
  const tl_job *j = x->j;
  int64_t a_const =
      TL_FRACTAL_BYTES * s->db_a * ((j->a_float || (j->a_int8 && j->a_trans)) ? 2 : 1);
  /* a sparse B keeps half of its values and a 2-bit index per kept value
   * (an eighth of the dense bytes): 5/8 of a dense fractal */
  int64_t b_frac = j->sparse ? TL_FRACTAL_BYTES / 8 * 5 : TL_FRACTAL_BYTES;
  int64_t b_const = b_frac * s->db_b * ((j->b_float || (j->b_int8 && !j->b_trans)) ? 2 : 1);
  bool ok = true;
  int64_t a = mul32(mul32(mul32(s->m_a, x->l0->m, &ok), a_const, &ok),
                    asc_tiling_align(s->k_a, x->ka_align), &ok);
  if (!ok) return 0;
  int64_t b = mul32(mul32(mul32(s->n_b, x->l0->n, &ok), b_const, &ok),
                    asc_tiling_align(s->k_b, x->kb_align), &ok);
  if (!ok) return 0;
  int64_t bias = 0;
  if (s->bias_times > 0) {
    int64_t per = s->bias_times * TL_C0 * s->db_b * x->bias_bytes;
    bias = mul32(mul32(s->n_b, x->l0->n, &ok), per, &ok);
    if (!ok) return 0;
  }
  int64_t total = a + b + bias;
  return total > INT32_MAX ? INT32_MAX : total;
}

enum { AX_KA, AX_KB, AX_MA, AX_NB };

/* room / per, or 0 where a step found no blocks (per 0: an L1 too small for one block leaves a
 * K step of 0); the tiling's buffer checks then refuse the result. */
static int64_t per_room(int64_t room, int64_t per) {
  return per > 0 ? room / per : 0;
}

/* The most fractals along one axis that `room` bytes of L1 hold. */
static int64_t max_len(const l1_ctx *x, const l1_state *s, int64_t room, int64_t align, int axis) {
  const tl_l0 *l0 = x->l0;
  int64_t len = 1;
  if (axis == AX_KA) len = per_room(room, s->m_a * l0->m * s->db_a * TL_FRACTAL_BYTES);
  if (axis == AX_KB) len = per_room(room, s->n_b * l0->n * s->db_b * TL_FRACTAL_BYTES);
  len = align == 0 ? 0 : len / align * align;
  if (axis == AX_MA)
    len = per_room(room, asc_tiling_align(s->k_a, align) * l0->m * s->db_a * TL_FRACTAL_BYTES);
  if (axis == AX_NB)
    len = per_room(room, asc_tiling_align(s->k_b, align) * l0->n * s->db_b * TL_FRACTAL_BYTES +
                             s->bias_times * l0->n * TL_FRACTAL_BYTES);
  return len;
}

/* Lowers factor until it divides base (and is at most base). */
static void nearest_divisor(int64_t base, int64_t *factor) {
  while (*factor > base || (*factor > 0 && base % *factor != 0)) (*factor)--;
}

static void record(int64_t *row, const l1_state *s) {
  row[0] = s->k_a, row[1] = s->m_a, row[2] = s->db_a;
  row[3] = s->k_b, row[4] = s->n_b, row[5] = s->db_b, row[6] = s->load;
}

static void both_full(const l1_ctx *x, l1_state *s, int64_t res[4][7]) {
  const tl_l0 *l0 = x->l0;
  s->k_a = asc_tiling_ceil(s->k_a, l0->k) * l0->k;
  s->k_b = asc_tiling_ceil(s->k_b, l0->k) * l0->k;
  int64_t cur = l1_size(x, s);
  if (cur > 0 && cur <= x->j->l1) {
    s->both_full = true;
    s->load = x->c->m + x->c->n;
    record(res[0], s);
  }
}

/* One operand whole in L1 (w below: A when a, else B), the other (p)
 * in K steps of what is left. The two layouts mirror each other but
 * where the bias, which belongs to B, enters, and in the test for single
 * buffering, both as the reference has them. */
static void one_full(const l1_ctx *x, l1_state *s, bool a, int64_t res[7]) {
  const tl_job *j = x->j;
  const tl_cores *c = x->c;
  const tl_l0 *l0 = x->l0;
  int64_t *k_w = a ? &s->k_a : &s->k_b, *k_p = a ? &s->k_b : &s->k_a;
  int64_t *rows_w = a ? &s->m_a : &s->n_b, *rows_p = a ? &s->n_b : &s->m_a;
  int64_t *size_w = a ? &s->a_size : &s->b_size, *size_p = a ? &s->b_size : &s->a_size;
  int64_t *db_p = a ? &s->db_b : &s->db_a;
  const int64_t align_w = a ? x->ka_align : x->kb_align, align_p = a ? x->kb_align : x->ka_align;
  const int64_t base_w = a ? l0->m : l0->n, base_p = a ? l0->n : l0->m; /* L0 rows */
  const int64_t dim_w = a ? c->m : c->n, dim_p = a ? c->n : c->m;
  const int64_t max_k_p = a ? s->max_kb : s->max_ka, max_rows_p = a ? s->max_n : s->max_m;
  const int64_t rep_w = asc_tiling_ceil(dim_w, base_w), rep_p = asc_tiling_ceil(dim_p, base_p);
  *k_w = asc_tiling_ceil(*k_w, l0->k) * l0->k;
  int64_t cur = l1_size(x, s);
  if (!(cur > 0 && cur <= j->l1 && 0 < j->ub)) return;
  *(a ? &s->a_full : &s->b_full) = true;
  *size_w = MUL(MUL(max64(asc_tiling_align(c->k, align_w), asc_tiling_align(*k_w, align_w)),
                    max64(*rows_w * base_w, dim_w)),
                TL_FRACTAL_BYTES);
  *size_p = j->l1 - *size_w;
  *db_p = 2;
  if (l1_size(x, s) > j->l1) *db_p = 1;
  int64_t bias = s->bias_times * s->n_b * l0->n * TL_C0 * x->bias_bytes * s->db_b;
  *k_p = min64(max_len(x, s, *size_p - bias, align_p, a ? AX_KB : AX_KA), c->k);
  int64_t times = min64(*k_p / l0->k, max_k_p);
  nearest_divisor(s->all_times, &times);
  *k_p = times * l0->k;
  if (*k_p == c->k) {
    /* max_len charges the bias to each row of B; for A it comes off the room */
    *rows_p =
        min64(max_len(x, s, *size_p - (a ? 0 : bias), align_p, a ? AX_NB : AX_MA), max_rows_p);
    nearest_divisor(rep_p, rows_p);
  }
  bool invalid = *rows_p == 0 || *k_p == 0;
  int64_t w_repeat = *k_p == c->k ? 1 : rep_w;
  s->load = invalid ? INT32_MAX : dim_w + w_repeat * dim_p;
  bool p_once = a ? *rows_p * base_p == dim_p : *rows_p * base_p >= dim_p;
  if (*k_p == c->k && p_once) *db_p = 1;
  record(res, s);
}

/* Neither whole: first decide double buffering. */
static void neither_db(const l1_ctx *x, l1_state *s) {
  const tl_job *j = x->j;
  int64_t saved = s->k_b;
  s->k_b = 2; /* probe with two K fractals of B */
  if (l1_size(x, s) > j->l1) {
    s->db_b = 1;
    if (l1_size(x, s) > j->l1) s->db_a = 1;
  }
  s->k_b = x->c->k;
  bool both = x->c->m != x->l0->m && x->c->k > x->l0->k && l1_size(x, s) > j->l1;
  s->k_b = saved;
  if (both) {
    s->db_a = s->db_b = 2;
    if (l1_size(x, s) > j->l1) {
      s->db_b = 1;
      if (l1_size(x, s) > j->l1) s->db_a = 1;
    }
  }
}

/* Neither whole, K-major layouts (an A or B with K along rows): K steps for
 * the axis that holds less first. */
static void neither_k_nd(const l1_ctx *x, l1_state *s, int k_axis) {
  const tl_job *j = x->j;
  const tl_cores *c = x->c;
  const tl_l0 *l0 = x->l0;
  int64_t bias = s->bias_times * s->n_b * l0->n * TL_C0 * x->bias_bytes * s->db_b;
  int64_t av = j->a_int8 ? 32 : j->a_i4 ? 64 : 16;
  int64_t align_m = asc_tiling_ceil(s->m_a * TL_C0, av) * av;
  int64_t align_n = asc_tiling_ceil(s->n_b * TL_C0, av) * av;
  int64_t align_k = asc_tiling_ceil(l0->k * j->reduce, av) * av * j->a_bits / 8;
  bool b_wide = j->b_float || (j->a_trans && j->a_int8);
  bool b_int8_nd = !j->b_trans && (j->b_int8 || j->b_i4);
  if (k_axis == 1) {
    s->k_b = l0->k;
    if (b_wide)
      s->b_size = s->k_b * l0->n * TL_C0 * align_k * s->n_b * s->db_b;
    else if (b_int8_nd)
      s->b_size = s->k_b * l0->n * align_k * align_n * s->db_b;
    else
      s->b_size = s->k_b * s->n_b * l0->n * TL_FRACTAL_BYTES * s->db_b;
    s->a_size = j->l1 - s->b_size;
    int64_t factor = s->m_a * l0->m * TL_C0 * s->db_a * TL_C0_BYTES;
    s->k_a = factor == 0 ? c->k : min64((s->a_size - bias) / factor, c->k);
    int64_t times = max64(s->k_a / l0->k, 1);
    nearest_divisor(s->all_times, &times);
    s->k_a = times * l0->k;
    s->a_size = s->k_a * s->m_a * l0->m * TL_FRACTAL_BYTES * s->db_a;
    s->b_size = j->l1 - s->a_size;
    int64_t per;
    if (b_wide)
      per = s->n_b * l0->n * TL_C0 * s->db_b * align_k;
    else if (b_int8_nd)
      per = align_n * l0->n * s->db_b * align_k;
    else
      per = s->n_b * l0->n * TL_C0 * s->db_b * TL_C0_BYTES;
    s->k_b = min64((s->b_size - bias) / per, c->k);
    times = max64(min64(s->k_b / l0->k, s->max_kb), 1);
    nearest_divisor(s->all_times, &times);
    s->k_b = times * l0->k;
  } else {
    bool a_wide = (j->a_trans && j->a_float) || (!j->a_trans && j->a_int8);
    /* CANN's K of A takes int4 where its size of A does not */
    bool a_wide_k = a_wide || (!j->a_trans && j->a_i4);
    bool a_int8_t = j->a_trans && j->a_int8;
    s->k_a = l0->k;
    if (a_wide)
      s->a_size = s->k_a * s->m_a * l0->m * TL_C0 * align_k * s->db_a;
    else if (a_int8_t)
      s->a_size = s->k_a * align_m * l0->m * align_k * s->db_a;
    else
      s->a_size = s->k_a * s->m_a * l0->m * TL_FRACTAL_BYTES * s->db_a;
    s->b_size = j->l1 - s->a_size;
    s->k_b = min64((s->b_size - bias) / (s->n_b * l0->n * TL_C0 * s->db_b * TL_C0_BYTES), c->k);
    int64_t times = max64(s->k_b / l0->k, 1);
    nearest_divisor(s->all_times, &times);
    s->k_b = times * l0->k;
    s->b_size = s->k_b * s->n_b * l0->n * TL_FRACTAL_BYTES * s->db_b;
    s->a_size = j->l1 - s->b_size;
    if (a_wide_k) {
      int64_t factor = s->m_a * l0->m * TL_C0 * s->db_a * align_k;
      s->k_a = factor == 0 ? c->k : min64((s->a_size - bias) / factor, c->k);
    } else if (a_int8_t) {
      s->k_a = min64((s->a_size - bias) / (align_m * l0->m * s->db_a * align_k), c->k);
    } else {
      int64_t factor = s->m_a * l0->m * TL_C0 * s->db_a * TL_C0_BYTES;
      s->k_a = factor == 0 ? c->k : min64((s->a_size - bias) / factor, c->k);
    }
    times = max64(min64(s->k_a / l0->k, s->max_ka), 1);
    nearest_divisor(s->all_times, &times);
    s->k_a = times * l0->k;
  }
}

/* Neither whole, A transposed and B not: B's K whole if it fits. */
static void neither_k_nz(const l1_ctx *x, l1_state *s) {
  const tl_job *j = x->j;
  const tl_cores *c = x->c;
  const tl_l0 *l0 = x->l0;
  s->k_b = c->k;
  int64_t bias = s->bias_times * s->n_b * l0->n * TL_C0 * x->bias_bytes * s->db_b;
  int64_t cur = l1_size(x, s);
  if (cur > 0 && cur <= j->l1) {
    s->b_size = asc_tiling_align(c->k, x->kb_align) * s->n_b * l0->n * TL_FRACTAL_BYTES * s->db_b;
    s->a_size = j->l1 - s->b_size;
    s->k_a = min64(max_len(x, s, s->a_size - bias, x->ka_align, AX_KA), c->k);
    int64_t times = max64(min64(s->k_a / l0->k, s->max_ka), 1);
    nearest_divisor(s->all_times, &times);
    s->k_a = times * l0->k;
  } else {
    int64_t per_k =
        min64((j->l1 - bias) /
                  (l0->m * TL_FRACTAL_BYTES * s->db_a + TL_C0 * l0->n * TL_C0_BYTES * s->db_b) /
                  l0->k * l0->k,
              c->k);
    int64_t bias_factor = j->bias ? s->n_b * l0->n : 0;
    int64_t a_per = asc_tiling_align(per_k, x->ka_align),
            b_per = asc_tiling_align(per_k, x->kb_align);
    if (j->a_float) {
      int64_t amat = s->m_a * l0->m * a_per * s->db_a, bmat = s->n_b * l0->n * b_per * s->db_b;
      int64_t bias_l1 = bias_factor * TL_C0 * x->bias_bytes * s->db_b;
      if (!((amat + bmat) * TL_FRACTAL_BYTES + bias_l1 <= j->l1)) per_k -= 1;
    }
    int64_t times = min64(per_k / l0->k, max64(s->max_ka, s->max_kb));
    nearest_divisor(s->all_times, &times);
    times = min64(times, s->all_times);
    s->k_a = s->k_b = times * l0->k;
  }
}

static void neither_k(const l1_ctx *x, l1_state *s) {
  const tl_job *j = x->j;
  if (x->l0->k == x->c->k) return;
  int k_axis = 0;
  if (!j->a_trans && !j->b_trans) k_axis = 1;
  if (j->a_trans && j->b_trans) k_axis = 2;
  if (!j->a_trans && j->b_trans) k_axis = x->l0->m > x->l0->n ? 1 : 2;
  if (k_axis != 0)
    neither_k_nd(x, s, k_axis);
  else
    neither_k_nz(x, s);
  /* the larger K step must be a multiple of the smaller (and divide K) */
  if (s->k_b > 0 && s->k_a > s->k_b && s->k_a % s->k_b != 0)
    while (s->k_a > 0 && (s->k_a % s->k_b != 0 || (s->k_a != s->k_b && x->c->k % s->k_a != 0)))
      s->k_a--;
  if (s->k_a > 0 && s->k_a < s->k_b && s->k_b % s->k_a != 0)
    while (s->k_b > 0 && (s->k_b % s->k_a != 0 || (s->k_a != s->k_b && x->c->k % s->k_b != 0)))
      s->k_b--;
}

/* How many blocks along one axis (AX_MA or AX_NB) room holds: at least
 * one, at most max_blocks, lowered to a divisor of rep (the axis' blocks). */
static int64_t blocks_in(const l1_ctx *x, const l1_state *s, int64_t room, int64_t align, int axis,
                         int64_t max_blocks, int64_t rep) {
  int64_t n = max64(min64(min64(max_len(x, s, room, align, axis), max_blocks), rep), 1);
  nearest_divisor(rep, &n);
  return n;
}

/* Neither whole: with K settled, how many blocks along M and N. */
static void neither_mn(const l1_ctx *x, l1_state *s) {
  const tl_job *j = x->j;
  const tl_cores *c = x->c;
  const tl_l0 *l0 = x->l0;
  int64_t m_rep = asc_tiling_ceil(c->m, l0->m), n_rep = asc_tiling_ceil(c->n, l0->n);
  if (x->bias_bytes == 4 && s->bias_times > 0) s->bias_times++;
  int64_t bias = s->bias_times * s->n_b * l0->n * TL_C0 * 2 * s->db_b;
  l1_state mf = *s, nf = *s;
  /* M first: B one block, A as many as fit, then B in what is left */
  mf.b_size = asc_tiling_align(mf.k_b, x->kb_align) * l0->n * TL_FRACTAL_BYTES * mf.db_b;
  mf.a_size = j->l1 - mf.b_size;
  mf.m_a = blocks_in(x, &mf, mf.a_size - bias, x->ka_align, AX_MA, mf.max_m, m_rep);
  mf.a_size =
      MUL(MUL(asc_tiling_align(mf.k_a, x->ka_align), mf.m_a * l0->m), TL_FRACTAL_BYTES * mf.db_a);
  mf.b_size = j->l1 - mf.a_size;
  mf.n_b = blocks_in(x, &mf, mf.b_size - bias, x->kb_align, AX_NB, mf.max_n, n_rep);
  mf.load = c->m + c->n * asc_tiling_ceil(c->m, mf.m_a * l0->m);
  /* N first */
  nf.a_size = asc_tiling_align(nf.k_a, x->ka_align) * l0->m * TL_FRACTAL_BYTES * nf.db_a;
  nf.b_size = j->l1 - nf.a_size;
  nf.n_b = blocks_in(x, &nf, nf.b_size - bias, x->kb_align, AX_NB, nf.max_n, n_rep);
  nf.b_size =
      MUL(MUL(asc_tiling_align(c->k, x->kb_align), nf.n_b * l0->n), TL_FRACTAL_BYTES * nf.db_b);
  nf.a_size = j->l1 - nf.b_size;
  bias = MUL(bias, nf.n_b);
  nf.m_a = blocks_in(x, &nf, nf.a_size - bias, x->ka_align, AX_MA, nf.max_m, m_rep);
  nf.load = c->m * asc_tiling_ceil(c->n, nf.n_b * l0->n) + c->n;
  bool ka_whole = s->k_a >= c->k, kb_whole = s->k_b >= c->k;
  if (ka_whole && kb_whole) {
    *s = nf.load > mf.load ? mf : nf;
  } else if (ka_whole) {
    mf.n_b = 1;
    *s = mf;
  } else if (kb_whole) {
    nf.m_a = 1;
    *s = nf;
  } else {
    s->m_a = s->n_b = 1;
    s->load =
        c->m * asc_tiling_ceil(c->n, mf.n_b * l0->n) + c->n * asc_tiling_ceil(c->m, mf.m_a * l0->m);
  }
}

void asc_tiling_l1(const tl_job *j, const tl_cores *c, const tl_l0 *l0, tl_l1 *out) {
  l1_ctx x = {j, c, l0, 1, 1, j->bias ? j->bias_bytes : 0};
  if (j->a_float || j->b_float) {
    x.ka_align = j->a_trans ? 2 : 1;
    x.kb_align = (j->a_trans || !j->b_trans) ? 2 : 1;
  }
  int64_t res[4][7];
  memset(res, 0, sizeof res);
  l1_state s;
  memset(&s, 0, sizeof s);
  int64_t mte1_loop = 32 / ((l0->n == 1 ? 1 : l0->k) + (l0->k == 1 ? 1 : l0->m));
  s.all_times = asc_tiling_ceil(c->k, l0->k);
  s.max_m = asc_tiling_ceil(c->m, l0->m);
  s.max_n = asc_tiling_ceil(c->n, l0->n);
  s.max_ka = max64(mte1_loop, ((32 + l0->m - 1) / l0->m + l0->k - 1) / l0->k);
  s.max_kb = max64(mte1_loop, ((32 + l0->n - 1) / l0->n + l0->k - 1) / l0->k);
  s.bias_times = j->bias ? 1 : 0;
  set_factors(&s, c->k, c->k, s.max_m, s.max_n, 1, 1);
  both_full(&x, &s, res);
  set_factors(&s, c->k, l0->k, s.max_m, 1, 1, 1);
  one_full(&x, &s, true, res[1]);
  set_factors(&s, l0->k, c->k, 1, s.max_n, 1, 1);
  one_full(&x, &s, false, res[2]);
  res[3][6] = INT_MAX;
  set_factors(&s, l0->k, l0->k, 1, 1, 2, 2);
  neither_db(&x, &s);
  neither_k(&x, &s);
  neither_mn(&x, &s);
  record(res[3], &s);

  /* ND operands: a whole-K layout only counts when one step covers K */
  int64_t k16 = asc_tiling_ceil(asc_tiling_single_k(j), j->reduce);
  int64_t f_a1 = res[1][0] > 0 ? asc_tiling_ceil(k16, c->k_dim * res[1][0]) : 1;
  int64_t f_b2 = res[2][3] > 0 ? asc_tiling_ceil(k16, c->k_dim * res[2][3]) : 1;
  int64_t f_a0 = res[0][0] > 0 ? asc_tiling_ceil(k16, c->k_dim * res[0][0]) : 1;
  int64_t f_b0 = res[0][3] > 0 ? asc_tiling_ceil(k16, c->k_dim * res[0][3]) : 1;
  bool nd = j->a_nd && j->b_nd;
  bool use_a = nd ? (s.a_full && f_a1 == 1) : s.a_full;
  bool use_b = nd ? (s.b_full && f_b2 == 1) : s.b_full;
  bool use_both = nd ? (s.both_full && f_a0 == 1 && f_b0 == 1) : s.both_full;
  int64_t *best = res[3];
  int64_t best_load = best[6];
  if (use_a && (res[1][6] < best_load ||
                (res[1][6] == best_load && res[1][1] + res[1][4] >= best[1] + best[4]))) {
    best = res[1];
    best_load = best[6];
  }
  if (use_b && (res[2][6] < best_load ||
                (res[2][6] == best_load && res[2][1] + res[2][4] >= best[1] + best[4]))) {
    best = res[2];
    best_load = best[6];
  }
  if (use_both && (res[0][6] < best_load ||
                   (res[0][6] == best_load && res[0][1] + res[0][4] >= best[1] + best[4])))
    best = res[0];
  *out = (tl_l1){best[0], best[3], best[1], best[4], best[2], best[5]};
}
