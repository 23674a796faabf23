/* Matmul tiling, stage 1: spreading the matmul over cores. See algo.h and
 * docs/host-tiling.md ("Cores"). */
#include "algo.h"

#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

int64_t asc_tiling_mul(int64_t a, int64_t b) {
  const int64_t cap = (int64_t)1 << 60;
  int64_t r;
  if (__builtin_mul_overflow(a, b, &r) || r > cap || r < -cap)
    return (a < 0) != (b < 0) ? -cap : cap;
  return r;
}

int64_t asc_tiling_ceil(int64_t a, int64_t b) {
  return b == 0 ? 0 : (a + b - 1) / b;
}

int64_t asc_tiling_align(int64_t a, int64_t b) {
  return b == 0 ? 0 : asc_tiling_ceil(a, b) * b;
}

static int64_t min64(int64_t a, int64_t b) {
  return a < b ? a : b;
}

int64_t asc_tiling_single_m(const tl_job *j) {
  return j->single_m != -1 ? j->single_m : j->org_m;
}
int64_t asc_tiling_single_n(const tl_job *j) {
  return j->single_n != -1 ? j->single_n : j->org_n;
}
int64_t asc_tiling_single_k(const tl_job *j) {
  return j->single_k != -1 ? j->single_k : j->org_ka;
}

/* Sizes of 16 and up map to the power of two p with p < shape <= 2p,
 * capped at 1024 (doubled when round_up); smaller sizes stay. */
int64_t asc_tiling_map_shape(int64_t shape, bool round_up) {
  int64_t p = 16;
  if (shape < p) return shape;
  while (p < 1024 && !(p < shape && 2 * p >= shape)) p *= 2;
  return round_up ? 2 * p : p;
}

/* How many divisors `v` has in [lo, hi]. */
static int64_t count_divisors(int64_t v, int64_t lo, int64_t hi) {
  int64_t n = 0;
  for (int64_t i = lo; i <= hi && i <= v; i++)
    if (v % i == 0) n++;
  return n;
}

/* The largest divisor count among v's divisors in [lo, hi]. */
static int64_t layered_divisors(int64_t v, int64_t lo, int64_t hi) {
  int64_t best = 0;
  for (int64_t f = hi; f >= lo; f--) {
    if (v % f) continue;
    int64_t c = count_divisors(f, 1, f + 1);
    if (c >= best) best = c;
  }
  return best;
}

/* Whether a share of `dim` fractals divides well enough into L0/L1 steps. */
static bool enough_divisors(int64_t dim) {
  if (dim <= 8) return true;
  int64_t l0 = layered_divisors(dim, 1, 64), l1 = 0;
  if (dim > 128) l1 = layered_divisors(dim, 65, 128);
  return !(l0 <= 2 || (dim > 128 && l0 + l1 <= 4));
}

/* A core's share near ceil(ori / cores), walking towards the mapped size's
 * share until it has enough divisors. */
int64_t asc_tiling_best_single(int64_t ori, int64_t mapped, int64_t cores, bool is_k) {
  if (is_k) return asc_tiling_ceil(ori % cores == 0 ? ori : mapped, cores);
  if (cores == 1 && enough_divisors(ori)) return ori;
  int64_t best = asc_tiling_ceil(ori, cores), target = asc_tiling_ceil(mapped, cores);
  while (best != target) {
    if (enough_divisors(best)) return best;
    best += best < target ? 1 : -1;
  }
  return best;
}

bool asc_tiling_align_single(bool need, int64_t org, int64_t factor, int64_t align,
                             int64_t *single) {
  *single = asc_tiling_ceil(org, factor);
  if (!need || align == 0 || factor <= 1) return true;
  int64_t most = asc_tiling_ceil(org, factor - 1), aligned = asc_tiling_align(*single, align);
  if (aligned >= most) return false;
  *single = aligned;
  return true;
}

/* Elements of 256 bytes: the GM burst a core's slice is aligned to. */
static int64_t burst_elems(int bits) {
  return 256 * 8 / bits;
}

static bool need_output_align(const tl_job *j, int64_t m, int64_t n, int64_t k) {
  return n * m * 2 * j->c_bits > n * k * j->a_bits + m * k * j->b_bits;
}

int asc_tiling_scenario(const tl_job *j) {
  if (j->split_k || j->single_m != -1 || j->single_n != -1) return 0;
  const int64_t mn_limit = 26214; /* 80% of a 128 x 256 block */
  int64_t mn = j->org_m * j->org_n;
  if (j->org_m >= 128 && mn > mn_limit * j->nob) return 1;
  if (mn < mn_limit * j->nob) return 2;
  return 0;
}

/* ---- the general split: a search over divisor candidates ------------- */

typedef struct dim_state {
  int64_t m_f, n_f, k_f; /* chosen cores along M, N, K */
  int64_t min_load, core_use, loop_to_l0;
  bool big_package;
} dim_state;

/* Fractals loaded from GM for cores (fm, fn) when each core holds cm x cn
 * (x k) fractals; INT32-free approximation of the search's load model. */
static int64_t load_size(const tl_job *j, const tl_params *p, int64_t fm, int64_t fn, int64_t cm,
                         int64_t cn, int64_t ck, int64_t k_bytes) {
  int64_t total = INT64_MAX;
  const int64_t l1 = j->l1, ori_a = p->m32, ori_b = p->n32, amat = cm, bmat = cn;
  const int64_t n0 = min64(16, cn);
  const int64_t m0 = min64(16, n0 == 0 ? 0 : min64(cm, 128 / n0));
  const int64_t k0 = (m0 && n0) ? min64(min64(64 / m0, 64 / n0), ck) : ck;
  const int64_t frac = TL_FRACTAL_BYTES;
#define MUL asc_tiling_mul
#define TAKE(a_, b_)            \
  do {                          \
    int64_t t_ = (a_) + (b_);   \
    if (total > t_) total = t_; \
  } while (0)
  if (MUL(amat + n0 * 2, k_bytes) <= l1 || MUL(bmat + m0 * 2, k_bytes) <= l1 ||
      MUL(amat + bmat, k_bytes) <= l1) {
    TAKE(MUL(ori_a, fn), MUL(ori_b, fm));
    return total;
  }
  if (MUL(MUL(n0, k_bytes) + m0 * k0 * frac, 2) > l1 &&
      MUL(MUL(m0, k_bytes) + n0 * k0 * frac, 2) > l1) {
    TAKE(MUL(ori_a, asc_tiling_ceil(p->n32, n0)), MUL(ori_b, asc_tiling_ceil(p->m32, m0)));
    return total;
  }
  if (MUL(m0 + n0, MUL(k_bytes, 2)) <= l1) {
    int64_t m1 = asc_tiling_ceil(l1 - MUL(n0, MUL(k_bytes, 2)), MUL(k_bytes, 2 * m0)) * m0;
    int64_t n1 = asc_tiling_ceil(l1 - MUL(m0, MUL(k_bytes, 2)), MUL(k_bytes, 2 * n0)) * n0;
    int64_t m_first = MUL(ori_a, fn) + MUL(ori_b, asc_tiling_ceil(p->m32, m1));
    int64_t n_first = MUL(ori_b, fm) + MUL(ori_a, asc_tiling_ceil(p->n32, n1));
    if (m_first < n_first)
      TAKE(MUL(ori_a, fn), MUL(ori_b, asc_tiling_ceil(p->m32, m1)));
    else
      TAKE(MUL(ori_a, asc_tiling_ceil(p->n32, n1)), MUL(ori_b, fm));
    return total;
  }
  if (MUL(amat, k_bytes) + n0 * k0 * frac * 2 <= l1 ||
      MUL(m0, MUL(k_bytes, 2)) + n0 * k0 * frac * 2 <= l1)
    TAKE(MUL(ori_a, fn), MUL(ori_b, asc_tiling_ceil(p->m32, m0)));
  if (MUL(bmat, k_bytes) + m0 * k0 * frac * 2 <= l1 ||
      MUL(n0, MUL(k_bytes, 2)) + m0 * k0 * frac * 2 <= l1)
    TAKE(MUL(ori_b, fm), MUL(ori_a, asc_tiling_ceil(p->n32, n0)));
#undef TAKE
#undef MUL
  return total;
}

/* Base-block iterations a core needs with a small (<= 64 fractals) block. */
static int64_t loops_to_l0(int64_t cm, int64_t cn, int64_t ck) {
  int64_t n0 = min64(min64(16, cn), 64);
  int64_t m0 = n0 == 0 ? 0 : min64(min64(cm, 128 / n0), 64);
  n0 = m0 == 0 ? 0 : min64(min64(cn, 128 / m0), 64);
  m0 = n0 == 0 ? 0 : min64(min64(cm, 128 / n0), 64);
  int64_t k0 = (m0 && n0) ? min64(min64(64 / m0, 64 / n0), ck) : ck;
  return asc_tiling_mul(asc_tiling_mul(asc_tiling_ceil(cm, m0), asc_tiling_ceil(cn, n0)),
                        asc_tiling_ceil(ck, k0));
}

static void try_dims(const tl_job *j, const tl_params *p, int64_t fm, int64_t fn, int64_t fk,
                     dim_state *st) {
  int64_t cm = asc_tiling_ceil(p->m32, fm), cn = asc_tiling_ceil(p->n32, fn);
  int64_t ck = p->k32 / fk;
  int64_t k_bytes = p->k32 / fk * TL_C0 * 16 * 2;
  if (j->split_k && p->k_mapped != p->k32) {
    k_bytes = p->k_mapped / fk * 2 * TL_C0 * 16 * 2;
    ck = p->k_mapped / fk * 2;
  }
  int64_t load = load_size(j, p, fm, fn, cm, cn, ck, k_bytes);
  if (j->split_k) load = asc_tiling_mul(load, ck);
  /* big packages: a core's contiguous rows of ND data stay >= 16 fractals */
  int flag_kind;
  if (j->b_trans && !j->a_trans) {
    flag_kind = 0;
  } else {
    bool ok = true;
    if (!j->b_trans && p->n32 >= 16 && cn < 16) ok = false;
    if (j->a_trans && p->m32 >= 16 && cm < 16) ok = false;
    flag_kind = !st->big_package ? (ok ? 2 : 0) : (ok ? 0 : 1);
  }
  int64_t use = fm * fn * fk;
  int64_t loops = loops_to_l0(cm, cn, ck);
  bool by_cores =
      flag_kind == 0 && (loops < st->loop_to_l0 || (use > st->core_use && loops == st->loop_to_l0));
  bool by_load = !by_cores && use == st->core_use && load < st->min_load;
  bool by_shape =
      !by_cores && use == st->core_use && load == st->min_load && st->n_f * st->m_f < fm * fn;
  if ((flag_kind == 2 || by_cores || by_load || by_shape) && flag_kind != 1) {
    st->min_load = load;
    st->m_f = fm, st->n_f = fn, st->k_f = fk;
    st->core_use = use;
    st->loop_to_l0 = loops;
    st->big_package = (!j->b_trans ? cn >= 16 : true) && (j->a_trans ? cm >= 16 : true) && use > 1;
  }
}

/* Candidate core counts along an axis: 1..limit dividing the size, its
 * mapped size or the core count. */
static size_t axis_candidates(int64_t *out, int64_t ori, int64_t mapped, int64_t cores,
                              int64_t limit) {
  size_t n = 0;
  for (int64_t i = 1; i <= limit; i++)
    if (ori % i == 0 || mapped % i == 0 || cores % i == 0) out[n++] = i;
  return n;
}

static size_t add_candidate(int64_t *v, size_t n, int64_t x) {
  size_t i = 0;
  while (i < n && v[i] < x) i++;
  if (i < n && v[i] == x) return n;
  memmove(v + i + 1, v + i, (n - i) * sizeof *v);
  v[i] = x;
  return n + 1;
}

/* Tiny shapes: one fractal row/column block per core. */
static bool mini_shape(const tl_job *j, tl_params *p, tl_cores *c) {
  const int64_t l0c_frac = j->l0c / (TL_C0 * TL_C0) / 4, l0ab_frac = j->l0a / TL_FRACTAL_BYTES;
  bool special = false;
  if (p->n32 > 32) special = special || (j->split_k && (p->n_mapped & 31) != 0);
  if (p->m32 > 32) special = special || (j->split_k && (p->m_mapped & 31) != 0);
  if (!(p->n32 * p->m32 <= j->nob && p->m32 * p->k32 <= l0ab_frac && p->n32 * p->k32 <= l0ab_frac &&
        p->m32 * p->n32 <= l0c_frac && !special))
    return false;
  c->n_dim = p->n32 <= 32 ? 1 : p->n_mapped / 32;
  c->m_dim = p->m32 <= 32 ? 1 : p->m_mapped / 32;
  /* divisors of k32 around 1 (the starting kDim) */
  int64_t cand[2] = {0, 0};
  if (p->k32 == 1) {
    cand[0] = cand[1] = 1;
  } else {
    int cnt = 0;
    for (int64_t up = 2; up <= j->nob && up <= p->k32; up++)
      if (p->k32 % up == 0) {
        cand[cnt++] = up;
        break;
      }
    if (cnt < 2) cand[cnt++] = 1;
  }
  c->k_dim = (p->k32 <= 32 || !j->split_k) ? 1 : (cand[1] > 1 ? cand[1] : cand[0]);
  c->n = c->n_dim == 1 ? p->n32 : asc_tiling_ceil(p->n_mapped, c->n_dim);
  c->m = c->m_dim == 1 ? p->m32 : asc_tiling_ceil(p->m_mapped, c->m_dim);
  c->k = c->k_dim == 1 ? p->k32 : asc_tiling_ceil(p->k_mapped, c->k_dim);
  c->n_dim = asc_tiling_ceil(p->n32, c->n);
  c->m_dim = asc_tiling_ceil(p->m32, c->m);
  c->k_dim = asc_tiling_ceil(p->k32, c->k);
  return true;
}

static bool general_split(const tl_job *j, tl_params *p, tl_cores *c) {
  if (mini_shape(j, p, c)) return true;
  const int64_t nob = j->nob;
  /* candidates: at most nob per axis, plus two balanced points */
  int64_t *buf = malloc(3 * (size_t)(nob + 2) * sizeof *buf);
  if (!buf) return false;
  int64_t *mf = buf, *nf = buf + nob + 2, *kf = buf + 2 * (nob + 2);
  size_t nm = axis_candidates(mf, p->m32, p->m_mapped, nob, min64(nob, p->m32));
  size_t nn = axis_candidates(nf, p->n32, p->n_mapped, nob, min64(nob, p->n32));
  size_t nk;
  if (!j->split_k) {
    kf[0] = 1, nk = 1;
    p->k_mapped = p->k32;
  } else {
    nk = axis_candidates(kf, p->k32, p->k_mapped, nob, nob);
  }
  if (nob > 1) { /* the balanced point sqrt(m/n * cores) */
    float opt = sqrtf((float)p->m32 / (float)p->n32 * (float)nob);
    int64_t md = (int64_t)ceilf(opt), nd = (int64_t)ceilf((float)nob / opt);
    nm = add_candidate(mf, nm, md);
    nm = add_candidate(mf, nm, nd == 0 ? 1 : nob / nd);
    nn = add_candidate(nf, nn, nd);
    nn = add_candidate(nf, nn, md == 0 ? 1 : nob / md);
  }
  dim_state st = {1, 1, 1, INT64_MAX, 1, INT64_MAX, false};
  for (size_t in = 0; in < nn; in++) {
    if (nf[in] > nob || nf[in] <= 0) continue;
    for (size_t im = 0; im < nm; im++) {
      if (nf[in] * mf[im] > nob || mf[im] <= 0) continue;
      for (size_t ik = 0; ik < nk; ik++) {
        int64_t use = nf[in] * mf[im] * kf[ik];
        if (use > nob || use <= 0) continue;
        try_dims(j, p, mf[im], nf[in], kf[ik], &st);
      }
    }
  }
  free(buf);
  c->n = asc_tiling_ceil(p->n32, st.n_f);
  c->m = asc_tiling_ceil(p->m32, st.m_f);
  c->k = asc_tiling_ceil(p->k32, st.k_f);
  int64_t n = asc_tiling_best_single(p->n32, p->n_mapped, st.n_f, false);
  int64_t m = asc_tiling_best_single(p->m32, p->m_mapped, st.m_f, false);
  int64_t k = asc_tiling_best_single(p->k32, p->k_mapped, st.k_f, true);
  int64_t need =
      asc_tiling_ceil(p->n32, n) * asc_tiling_ceil(p->m32, m) * asc_tiling_ceil(p->k32, k);
  if (need <= nob && need > 0) c->n = n, c->m = m, c->k = k;
  c->n_dim = min64(asc_tiling_ceil(p->n32, c->n), nob);
  c->m_dim = min64(asc_tiling_ceil(p->m32, c->m), nob);
  c->k_dim = j->split_k ? min64(asc_tiling_ceil(p->k32, c->k), nob) : st.k_f;
  return true;
}

/* ---- the 910B split of large and small M x N shapes ------------------ */

typedef struct block3 {
  int64_t m, n, k;
} block3;

/* One candidate (mDim, nDim) with its modelled cost. */
typedef struct intensity {
  int64_t m_dim, n_dim;
  float cycles, ratio, band, memory;
  block3 base;
  bool small; /* ranked by memory traffic first */
} intensity;

static float block_cycles(const tl_job *j, int64_t bm, int64_t bn, int64_t bk) {
  return (float)(bm * bn * bk) / (float)(TL_C0 * TL_C0 * j->reduce);
}

static float block_traffic(const tl_job *j, int64_t bm, int64_t bn, int64_t bk, float ra,
                           float rb) {
  float a = ra * (float)bm * (float)bk * (float)j->a_bits / 8.0f;
  float b = rb * (float)bn * (float)bk * (float)j->b_bits / 8.0f;
  return a + b;
}

/* Cycles and bytes of a core's sm x sn output cut into base blocks, with
 * the tail blocks at their own sizes. */
static void core_cost(const tl_job *j, int64_t sm, int64_t sn, block3 b, float ratio, float ra,
                      float rb, float *cycles, float *memory) {
  int64_t main_m = sm / b.m, tail_m = sm % b.m, main_n = sn / b.n, tail_n = sn % b.n;
  float cy = 0, me = 0;
  if (main_m > 0 && main_n > 0) {
    float cnt = (float)(main_m * main_n);
    cy += block_cycles(j, b.m, b.n, b.k) * cnt;
    me += ratio * block_traffic(j, b.m, b.n, b.k, ra, rb) * cnt;
  }
  if (main_m > 0 && tail_n > 0) {
    cy += block_cycles(j, b.m, tail_n, b.k) * (float)main_m;
    me += ratio * block_traffic(j, b.m, tail_n, b.k, ra, rb) * (float)main_m;
  }
  if (tail_m > 0 && main_n > 0) {
    cy += block_cycles(j, tail_m, b.n, b.k) * (float)main_n;
    me += ratio * block_traffic(j, tail_m, b.n, b.k, ra, rb) * (float)main_n;
  }
  if (tail_m > 0 && tail_n > 0) {
    cy += block_cycles(j, tail_m, tail_n, b.k);
    me += ratio * block_traffic(j, tail_m, tail_n, b.k, ra, rb);
  }
  *cycles = cy, *memory = me;
}

static float band_ratio(int64_t nob, int64_t md, int64_t nd, block3 b) {
  return (float)((nob - md) * b.m + (nob - nd) * b.n) / (float)((b.m + b.n) * nob);
}

/* Column counts with a known GM bandwidth penalty for unaligned slices. */
static const struct {
  int64_t cols;
  float ratio;
} band_tab[] = {{128, 2.0f}, {192, 2.7f}, {256, 1.0f}, {320, 2.0f},
                {384, 1.5f}, {448, 1.7f}, {512, 1.0f}};

static bool band_aligned(int64_t shape) {
  for (size_t i = 0; i < sizeof band_tab / sizeof band_tab[0]; i++)
    if (shape % band_tab[i].cols == 0) return true;
  return false;
}

static float band_penalty(int64_t cols) {
  for (size_t i = 0; i < sizeof band_tab / sizeof band_tab[0]; i++)
    if (band_tab[i].cols == cols) return band_tab[i].ratio;
  return 4.0f;
}

/* Order of candidates: "a ranks before b". Large shapes: higher compute
 * intensity (cycles per byte), then about equal cycles -> higher band
 * ratio, then fewer cycles. Small shapes: less traffic (5%), then about
 * equal cycles -> higher band ratio, then higher intensity. */
static bool ranks_before(const intensity *a, const intensity *b) {
  if (a->small) {
    if (fabsf(b->memory - a->memory) > 0.05f * a->memory) return a->memory < b->memory;
    if (fabsf(a->cycles - b->cycles) < 0.01f * b->cycles) return a->band > b->band;
    return a->ratio > b->ratio;
  }
  if (fabsf(a->ratio - b->ratio) > 1.0e-4f) return a->ratio > b->ratio;
  if (fabsf(a->cycles - b->cycles) < 0.01f * b->cycles) return a->band > b->band;
  return a->cycles < b->cycles;
}

/* The candidate that the reference search's sort puts first. That order is
 * not a strict weak order, so the winner depends on the sort itself; this
 * is the introsort of GNU libstdc++ (median-of-three quicksort down to
 * 16-element runs, then insertion sort), which the reference uses. */
static void swap_i(intensity *a, intensity *b) {
  intensity t = *a;
  *a = *b;
  *b = t;
}

static void median_to_first(intensity *r, intensity *a, intensity *b, intensity *c) {
  if (ranks_before(a, b)) {
    if (ranks_before(b, c))
      swap_i(r, b);
    else if (ranks_before(a, c))
      swap_i(r, c);
    else
      swap_i(r, a);
  } else if (ranks_before(a, c)) {
    swap_i(r, a);
  } else if (ranks_before(b, c)) {
    swap_i(r, c);
  } else {
    swap_i(r, b);
  }
}

static intensity *partition(intensity *first, intensity *last, intensity *pivot) {
  for (;;) {
    while (ranks_before(first, pivot)) first++;
    last--;
    while (ranks_before(pivot, last)) last--;
    if (!(first < last)) return first;
    swap_i(first, last);
    first++;
  }
}

static void linear_insert(intensity *last) {
  intensity v = *last;
  intensity *next = last - 1;
  while (ranks_before(&v, next)) {
    *last = *next;
    last = next;
    next--;
  }
  *last = v;
}

static void insertion_sort(intensity *first, intensity *last) {
  if (first == last) return;
  for (intensity *i = first + 1; i != last; i++) {
    if (ranks_before(i, first)) {
      intensity v = *i;
      memmove(first + 1, first, (size_t)(i - first) * sizeof *first);
      *first = v;
    } else {
      linear_insert(i);
    }
  }
}

static void heap_sift(intensity *v, ptrdiff_t start, ptrdiff_t n) {
  ptrdiff_t root = start;
  for (;;) {
    ptrdiff_t child = 2 * root + 1;
    if (child >= n) return;
    if (child + 1 < n && ranks_before(&v[child], &v[child + 1])) child++;
    if (!ranks_before(&v[root], &v[child])) return;
    swap_i(&v[root], &v[child]);
    root = child;
  }
}

static void intro_loop(intensity *first, intensity *last, int depth) {
  while (last - first > 16) {
    if (depth == 0) { /* heap sort the rest */
      ptrdiff_t n = last - first;
      for (ptrdiff_t s = n / 2 - 1; s >= 0; s--) heap_sift(first, s, n);
      for (ptrdiff_t e = n - 1; e > 0; e--) {
        swap_i(&first[0], &first[e]);
        heap_sift(first, 0, e);
      }
      return;
    }
    depth--;
    intensity *mid = first + (last - first) / 2;
    median_to_first(first, first + 1, mid, last - 1);
    intensity *cut = partition(first + 1, last, first);
    intro_loop(cut, last, depth);
    last = cut;
  }
}

static void sort_candidates(intensity *v, size_t n) {
  if (n < 2) return;
  int lg = 0;
  while (((size_t)2 << lg) <= n) lg++;
  intro_loop(v, v + n, 2 * lg);
  if (n > 16) {
    insertion_sort(v, v + 16);
    for (intensity *i = v + 16; i != v + n; i++) linear_insert(i);
  } else {
    insertion_sort(v, v + n);
  }
}

/* The starting base block: 128 x 256 x (128 bytes of K), a fixed split
 * taking precedence; both operands transposed prefer 256 x 128. */
static block3 basic_block(const tl_job *j) {
  block3 b = {j->l0c == 262144 ? 256 : 128, 256, 128 * 8 / j->a_bits};
  if (j->fix_m != -1) b.m = j->fix_m;
  if (j->fix_n != -1) b.n = j->fix_n;
  if (j->a_trans && j->b_trans) {
    b.m = j->fix_m != -1 ? b.m : 256;
    b.n = j->fix_n != -1 ? b.n : 128;
  }
  return b;
}

/* Small shapes: the base block follows the core's share. */
static void shrink_block(const tl_job *j, int64_t sm, int64_t sn, block3 *b) {
  int64_t k32 = asc_tiling_align(j->org_ka, 32);
  if (k32 < b->k) b->k = k32;
  b->m = sm >= 128 ? 128 : asc_tiling_align(sm, 16);
  int64_t max_n = (b->k <= 32 && b->m <= 64) ? 384 : 256;
  b->n = sn >= max_n ? max_n : asc_tiling_align(sn, 16);
}

static intensity rate(const tl_job *j, int64_t md, int64_t nd, block3 *b, bool small) {
  int64_t a_align = burst_elems(j->a_bits), b_align = burst_elems(j->b_bits);
  bool a_need = j->a_trans && (small ? band_aligned(j->org_m) : j->org_m % a_align == 0);
  bool b_need = !j->b_trans && (small ? band_aligned(j->org_n) : j->org_n % b_align == 0);
  int64_t sm = 0, sn = 0;
  bool a_ok = asc_tiling_align_single(a_need, j->org_m, md, a_align, &sm);
  bool b_ok = asc_tiling_align_single(b_need, j->org_n, nd, b_align, &sn);
  intensity r = {md, nd, 0, 0, 0, 0, *b, small};
  float ratio = 1.0f, ra = 1.0f, rb = 1.0f;
  if (small) {
    shrink_block(j, sm, sn, b);
    r.base = *b;
    if (!a_ok) ra = band_penalty(sm);
    if (!b_ok) rb = band_penalty(sn);
    int64_t rate_cores = md * nd;
    if (sm < 32 && sn < 32 && rate_cores > 20) rate_cores = 20;
    if (rate_cores == 0) rate_cores = 1;
    ratio = (float)(md * nd) / (float)rate_cores;
  } else {
    ratio = (a_ok && b_ok) ? 1.0f : 2.0f;
  }
  r.band = band_ratio(j->nob, md, nd, *b);
  core_cost(j, sm, sn, *b, ratio, ra, rb, &r.cycles, &r.memory);
  r.ratio = r.memory > 0 ? r.cycles / r.memory : 0;
  return r;
}

static void finish_direct(const tl_job *j, const tl_params *p, block3 b, tl_split *out) {
  tl_cores *c = &out->cores;
  /* the per-core share (only singleCoreM/N/K, from the core counts, reach
   * the result on this path) */
  c->m = asc_tiling_ceil(p->m32, c->m_dim);
  c->n = asc_tiling_ceil(p->n32, c->n_dim);
  c->k = p->k32;
  c->k_dim = 1;
  /* L0: the block as chosen; double buffers for A and B */
  out->l0 = (tl_l0){b.m / TL_C0, b.n / TL_C0, b.k / j->reduce, 2, 2, 1};
  /* L1: as many K steps as half of L1 takes per operand */
  int64_t da = (j->l1 / 2 / b.m / b.k) * 8 / j->a_bits;
  int64_t db = ((j->l1 + 256) / 2 / b.n / b.k) * 8 / j->b_bits;
  int64_t bias = j->bias ? b.n * j->bias_bytes : 0;
  int64_t ha =
      j->a_float ? asc_tiling_align(b.m, 16)
                 : ((j->a_int8 || j->a_i4) && j->a_trans ? asc_tiling_align(b.m, j->reduce) : b.m);
  int64_t wa = (j->a_float && j->a_trans)             ? asc_tiling_align(b.k, 16)
               : (j->a_float || j->a_int8 || j->a_i4) ? asc_tiling_align(b.k, j->reduce)
                                                      : b.k;
  int64_t hb = (j->b_float && !j->b_trans) ? asc_tiling_align(b.k, 16)
               : j->b_int8 || j->b_i4      ? asc_tiling_align(b.k, 256 / j->b_bits)
                                           : b.k;
  int64_t b_c0 = 256 / j->b_bits; /* B's C0: 32 bytes of it */
  int64_t wb =
      (j->b_float || ((j->b_int8 || j->b_i4) && !j->b_trans)) ? asc_tiling_align(b.n, b_c0) : b.n;
  int64_t a_bytes = ha * wa * j->a_bits / 8, b_bytes = hb * wb * j->b_bits / 8;
  if (da * a_bytes + db * b_bytes > j->l1 - bias) {
    if (ha <= wb)
      da /= 2;
    else
      db /= 2;
  }
  int64_t ska = da / 2, skb = db / 2;
  /* keep a step's K bytes a multiple of 512 (or 256) when that is natural */
  int64_t *steps[2] = {&ska, &skb};
  for (int s = 0; s < 2; s++) {
    int64_t *sk = steps[s];
    if (*sk * b.k >= asc_tiling_single_k(j)) continue;
    int64_t row = b.k * j->a_bits / 8;
    int64_t unit = *sk * row > 512 ? 512 : (*sk * row > 256 ? 256 : 0);
    if (unit && (*sk * row) % unit != 0 && unit % row == 0)
      while ((*sk * row) % unit != 0 && *sk > 1) (*sk)--;
  }
  if (ska >= skb && skb != 0)
    ska = ska / skb * skb;
  else if (ska != 0)
    skb = skb / ska * ska;
  int64_t depth_a = ska * 2, depth_b = skb * 2;
  int64_t k_unit = b.k / j->reduce;
  out->l1 = (tl_l1){
      k_unit * ska, k_unit * skb, 1, 1, depth_a >= ska * 2 ? 2 : 1, depth_b >= skb * 2 ? 2 : 1};
  out->direct = true;
}

/* The divisors of v in ascending order into d (room for 2 * sqrt(v) + 2);
 * returns how many. */
static size_t divisors(int64_t v, int64_t *d) {
  size_t lo = 0, hi = 0;
  int64_t big[2048];
  for (int64_t f = 1; f * f <= v; f++) {
    if (v % f) continue;
    d[lo++] = f;
    if (f * f != v) big[hi++] = v / f;
  }
  while (hi > 0) d[lo++] = big[--hi];
  return lo;
}

/* Returns 1 when this split applies (out filled), 0 when the general
 * split decides, -1 when out of memory. */
static int direct_split(const tl_job *j, tl_params *p, tl_split *out) {
  int sc = asc_tiling_scenario(j);
  if (sc == 0) return 0;
  block3 b = basic_block(j);
  tl_cores *c = &out->cores;
  const int64_t nob = j->nob;
  int64_t d[4096];
  if (sc == 1) {
    size_t nd = divisors(nob, d);
    intensity *v = malloc(nd * sizeof *v);
    if (!v) return -1;
    for (size_t i = 0; i < nd; i++) v[i] = rate(j, d[i], nob / d[i], &b, false);
    sort_candidates(v, nd);
    c->m_dim = v[0].m_dim, c->n_dim = v[0].n_dim;
    free(v);
  } else {
    if (j->org_m <= 128 && j->org_n >= 128 * nob) {
      c->m_dim = 1, c->n_dim = nob;
      shrink_block(j, j->org_m, j->org_n / nob, &b);
    } else if (j->org_n <= 256 && j->org_m >= 128 * nob) {
      c->m_dim = nob, c->n_dim = 1;
      shrink_block(j, j->org_m / nob, j->org_n, &b);
    } else {
      size_t total = 0;
      for (int64_t i = nob; i >= 1; i--) total += divisors(i, d);
      intensity *v = malloc(total * sizeof *v);
      if (!v) return -1;
      size_t n = 0;
      for (int64_t i = nob; i >= 1; i--) {
        size_t nd = divisors(i, d);
        for (size_t f = 0; f < nd; f++) v[n++] = rate(j, d[f], i / d[f], &b, true);
      }
      sort_candidates(v, n);
      c->m_dim = v[0].m_dim, c->n_dim = v[0].n_dim;
      b = v[0].base;
      free(v);
    }
    int64_t tmp = 65536 / 2 * 8 / j->a_bits;
    int64_t bk = min64(tmp / b.m, tmp / b.n);
    int64_t c0 = j->reduce; /* A's C0 */
    b.k = min64(bk / c0 * c0, asc_tiling_align(j->org_ka, c0));
  }
  finish_direct(j, p, b, out);
  return 1;
}

bool asc_tiling_split(const tl_job *j, tl_params *p, tl_split *out) {
  memset(out, 0, sizeof *out);
  tl_cores *c = &out->cores;
  c->m_dim = c->n_dim = c->k_dim = 1;
  if (j->nob == 1) {
    c->m = asc_tiling_best_single(p->m32, p->m_mapped, 1, false);
    c->k = asc_tiling_best_single(p->k32, p->k_mapped, 1, false);
    c->n = asc_tiling_best_single(p->n32, p->n_mapped, 1, false);
    return true;
  }
  /* sizes with few divisors are searched as the next power of two below */
  if (j->split_k) {
    int64_t lo = count_divisors(p->k32, 1, 64), hi = count_divisors(p->k32, 65, 128);
    if ((p->k32 > 64 && lo <= 2) || (p->k32 > 128 && lo + hi <= 4))
      p->k_mapped = asc_tiling_map_shape(p->k32, false);
  } else {
    p->m_mapped = asc_tiling_map_shape(p->m32, false);
    p->n_mapped = asc_tiling_map_shape(p->n32, false);
  }
  int direct = direct_split(j, p, out);
  if (direct != 0) return direct > 0;
  return general_split(j, p, c);
}

void asc_tiling_single_shape(const tl_job *j, const tl_params *p, const tl_cores *c, int64_t *sm,
                             int64_t *sn, int64_t *sk) {
  *sm = asc_tiling_ceil(asc_tiling_single_m(j), c->m_dim);
  *sn = asc_tiling_ceil(asc_tiling_single_n(j), c->n_dim);
  *sk = asc_tiling_ceil(asc_tiling_single_k(j), c->k_dim);
  if (j->single_shape) {
    *sm = j->core_m != -1 ? j->core_m : asc_tiling_single_m(j);
    *sn = j->core_n != -1 ? j->core_n : asc_tiling_single_n(j);
    *sk = j->core_k != -1 ? j->core_k : asc_tiling_single_k(j);
  }
  if (j->nob > 1) {
    int sc = asc_tiling_scenario(j);
    bool need = sc != 0 || j->a_nz || j->b_nz;
    bool out_align = need_output_align(j, *sm, *sn, *sk);
    asc_tiling_align_single((need && (!j->b_trans || out_align)) || j->c_nz, p->n32 * TL_C0,
                            c->n_dim, burst_elems(j->b_bits), sn);
    asc_tiling_align_single((need && j->a_trans) || j->c_nz, p->m32 * TL_C0, c->m_dim,
                            burst_elems(j->a_bits), sm);
    if (j->split_k) *sk = asc_tiling_ceil(p->k32, c->k_dim) * j->reduce;
  }
}
