/* --- reductions (float16, float32) ----------------------------------------------------
 * Sums add adjacent pairs level by level (a binary tree over the lanes of a
 * repeat or data block; an absent lane passes its partner up unchanged).
 * float16 partial sums round to float16 and saturate at +-65504. Max/min
 * take the first extreme value in lane order; a NaN wins over numbers. */
static inline float asc_k_rsum(int dt, float a, float b) {
  float s = a + b;
  if (dt == ASC_K_DT_FLOAT16) {
    s = asc_k_h2f(asc_k_f2h(s));
    if (s > 65504.0f)
      s = 65504.0f;
    else if (s < -65504.0f)
      s = -65504.0f;
  }
  return s;
}
/* Tree sum of v[0..n), n a power of two; on[i] says lane i takes part. */
static inline int asc_k_tree_sum(int dt, float *v, unsigned char *on, int64_t n, float *out) {
  for (int64_t w = n; w > 1; w /= 2)
    for (int64_t i = 0; i < w / 2; i++) {
      int a = on[2 * i], b = on[2 * i + 1];
      v[i] = a && b ? asc_k_rsum(dt, v[2 * i], v[2 * i + 1]) : a ? v[2 * i] : v[2 * i + 1];
      on[i] = (unsigned char)(a || b);
    }
  *out = v[0];
  return on[0];
}
static inline int asc_k_better(int what, float v, float best) {
  if (v != v) return best == best;
  return what == 1 ? v > best : v < best;
}
/* A sequence summed as the same tree, without storing it: a stack of
 * partial sums by level. */
typedef struct asc_k_seqtree {
  float v[64];
  int level[64];
  int n;
} asc_k_seqtree;
static inline void asc_k_seqtree_push(int dt, asc_k_seqtree *t, float x) {
  int lv = 0;
  while (t->n && t->level[t->n - 1] == lv) {
    x = asc_k_rsum(dt, t->v[--t->n], x);
    lv++;
  }
  t->v[t->n] = x;
  t->level[t->n++] = lv;
}
static inline float asc_k_seqtree_end(int dt, asc_k_seqtree *t) {
  float x = t->v[--t->n];
  while (t->n) x = asc_k_rsum(dt, t->v[--t->n], x);
  return x;
}
/* A row's sum as the adv library's float32 reductions make it: one 256-byte repeat's 64 lanes
 * add the row's later repeats lane by lane, then the lanes sum as a tree. */
typedef struct asc_k_lanesum {
  float v[64];
  unsigned char on[64];
  int64_t n;
} asc_k_lanesum;
static inline void asc_k_lanesum_push(asc_k_lanesum *t, float x) {
  int64_t lane = t->n++ % 64;
  if (t->n <= 64) {
    t->v[lane] = x;
    t->on[lane] = 1;
  } else {
    t->v[lane] += x;
  }
}
static inline float asc_k_lanesum_end(asc_k_lanesum *t) {
  float out = 0;
  for (int64_t i = t->n; i < 64; i++) t->on[i] = 0, t->v[i] = 0;
  return asc_k_tree_sum(ASC_K_DT_FLOAT32, t->v, t->on, 64, &out) ? out : 0.0f;
}
static inline void asc_k_store_index(int dt, char *p, int64_t index) {
  if (dt == ASC_K_DT_FLOAT16) {
    uint16_t v = (uint16_t)index;
    memcpy(p, &v, 2);
  } else {
    uint32_t v = (uint32_t)index;
    memcpy(p, &v, 4);
  }
}

/* reduce_sum/max/min (what 0/1/2). kind 2: the count form over m0
 * elements, repeats of 256 bytes summed in sequence; kind 0/1: mask
 * forms, repeat r at src + r * src_rep_stride data blocks, repeat results
 * summed as a tree. dst[0] = value; with cal_index (max/min) dst[1] holds
 * the value's element index in src in dst's dtype bits. */
static inline int asc_k_reduce(asc_k_ctx *k, int what, int dt, asc_k_lt dst, asc_k_lt src, int kind,
                               int64_t m0, int64_t m1, int64_t repeat, int64_t src_rep,
                               int cal_index, const char *api, int line) {
  int64_t es = asc_k_dt_size(dt), per_rep = 256 / es;
  asc_k_sel s;
  int counter = k->vm.counter; /* these APIs program the mask themselves */
  k->vm.counter = 0;
  int bad =
      asc_k_sel_make(k, &s, kind, (uint64_t)m0, (uint64_t)m1, repeat, 1, per_rep, -1, api, line);
  k->vm.counter = counter;
  if (bad) return 1;
  if (kind == 2) src_rep = 8;
  if (src_rep < 0) return asc_k_fail(k, line, "%s: negative src_rep_stride", api);
  int64_t hi = 0;
  for (int64_t r = 0; r < s.nrep; r++)
    for (int64_t idx = per_rep - 1; idx >= 0; idx--)
      if (asc_k_sel_on(&s, r, idx)) {
        int64_t bytes = asc_k_mul(r, asc_k_mul(src_rep, 32));
        if (bytes < 0) return asc_k_fail(k, line, "%s: src_rep_stride leaves the UB", api);
        int64_t end = bytes / es + idx + 1;
        if (end > hi) hi = end;
        break;
      }
  if (hi == 0) return asc_k_fail(k, line, "%s: no element to reduce", api);
  int nout = cal_index && what ? 2 : 1;
  if (asc_k_ub_use(k, ASC_K_V, src, hi, es, ASC_K_READ, api, "src", line) ||
      asc_k_ub_use(k, ASC_K_V, dst, nout, es, ASC_K_WRITE, api, "dst", line))
    return 1;
  const char *base = k->ub + src.off;
  float acc = 0.0f, lanes[128];
  unsigned char on[128];
  int64_t best_at = -1;
  asc_k_seqtree tree;
  tree.n = 0;
  for (int64_t r = 0; r < s.nrep; r++) {
    for (int64_t idx = 0; idx < per_rep; idx++) {
      int64_t at = asc_k_mul(r, asc_k_mul(src_rep, 32)) / es + idx; /* checked above if on */
      on[idx] = (unsigned char)asc_k_sel_on(&s, r, idx);
      lanes[idx] = on[idx] ? (float)asc_k_ld(dt, base + at * es) : 0.0f;
      if (what && on[idx] && (best_at < 0 || asc_k_better(what, lanes[idx], acc)))
        acc = lanes[idx], best_at = at;
    }
    float rv;
    if (what || !asc_k_tree_sum(dt, lanes, on, per_rep, &rv)) continue;
    if (kind != 2)
      asc_k_seqtree_push(dt, &tree, rv);
    else
      acc = r == 0 ? rv : asc_k_rsum(dt, acc, rv);
  }
  if (!what && kind != 2) acc = asc_k_seqtree_end(dt, &tree);
  char *out = k->ub + dst.off;
  asc_k_stf(dt, out, acc);
  if (nout == 2) asc_k_store_index(dt, out + es, best_at);
  return 0;
}

/* whole_reduce (shape 0), block_reduce (1), pair_reduce_sum (2). */
typedef struct asc_k_rargs {
  int what, shape, dt, order; /* order: ReduceOrder, whole_reduce_max/min */
  asc_k_lt dst, src;
  int kind;
  int64_t m0, m1, repeat, dst_rep, src_blk, src_rep;
  int set_mask;
  const char *api;
} asc_k_rargs;

static inline int asc_k_rrun(asc_k_ctx *k, const asc_k_rargs *R, int line) {
  int dt = R->dt;
  int64_t es = asc_k_dt_size(dt), epb = 32 / es, per_rep = 256 / es;
  asc_k_sel s;
  if (asc_k_sel_make(k, &s, R->kind, (uint64_t)R->m0, (uint64_t)R->m1, R->repeat, R->set_mask,
                     per_rep, 255, R->api, line))
    return 1;
  if (R->dst_rep < 0 || R->src_blk < 0 || R->src_rep < 0)
    return asc_k_fail(k, line, "%s: negative stride", R->api);
  int64_t gsize = R->shape == 0 ? per_rep : R->shape == 1 ? epb : 2, ngroups = per_rep / gsize;
  /* dst elements per result and per dst_rep_stride unit */
  int64_t width = 1, unit = R->shape == 0 ? 1 : ngroups;
  if (R->shape == 0 && R->what) width = R->order < 2 ? 2 : R->order == 2 ? 1 : 4 / es;
  if (R->shape == 0) unit = width;
  int64_t src_hi = 0, dst_hi = 0;
  for (int64_t r = 0; r < s.nrep; r++)
    for (int64_t idx = 0; idx < per_rep; idx++) {
      if (!asc_k_sel_on(&s, r, idx)) continue;
      int64_t blocks = asc_k_add(asc_k_mul(r, R->src_rep), asc_k_mul(idx / epb, R->src_blk));
      int64_t a = asc_k_mul(blocks, 32), d = asc_k_mul(asc_k_mul(r, R->dst_rep), unit);
      if (a < 0 || d < 0) return asc_k_fail(k, line, "%s: the strides leave the UB", R->api);
      a = a / es + idx % epb + 1;
      d += (idx / gsize) * width + width;
      if (a > src_hi) src_hi = a;
      if (d > dst_hi) dst_hi = d;
    }
  if (!src_hi) return 0;
  if (asc_k_ub_use(k, ASC_K_V, R->src, src_hi, es, ASC_K_READ, R->api, "src", line) ||
      asc_k_ub_use(k, ASC_K_V, R->dst, dst_hi, es, ASC_K_WRITE, R->api, "dst", line))
    return 1;
  const char *base = k->ub + R->src.off;
  for (int64_t r = 0; r < s.nrep; r++)
    for (int64_t g = 0; g < ngroups; g++) {
      float lanes[128], best = 0.0f;
      unsigned char on[128];
      int64_t best_at = -1;
      for (int64_t i = 0; i < gsize; i++) {
        int64_t idx = g * gsize + i;
        /* checked above if on */
        int64_t a =
            asc_k_mul(asc_k_add(asc_k_mul(r, R->src_rep), asc_k_mul(idx / epb, R->src_blk)), 32) /
                es +
            idx % epb;
        on[i] = (unsigned char)asc_k_sel_on(&s, r, idx);
        lanes[i] = on[i] ? (float)asc_k_ld(dt, base + a * es) : 0.0f;
        if (R->what && on[i] && (best_at < 0 || asc_k_better(R->what, lanes[i], best)))
          best = lanes[i], best_at = idx;
      }
      if (!R->what && !asc_k_tree_sum(dt, lanes, on, gsize, &best)) continue;
      if (R->what && best_at < 0) continue;
      char *out =
          k->ub + R->dst.off + asc_k_madd(asc_k_mul(asc_k_mul(r, R->dst_rep), unit), g, width) * es;
      if (!R->what || R->shape != 0 || R->order == 2)
        asc_k_stf(dt, out, best);
      else if (R->order == 0)
        asc_k_stf(dt, out, best), asc_k_store_index(dt, out + es, best_at);
      else if (R->order == 1)
        asc_k_store_index(dt, out, best_at), asc_k_stf(dt, out + es, best);
      else {
        uint32_t v = (uint32_t)best_at;
        memcpy(out, &v, 4);
      }
    }
  return 0;
}
