/* add_relu_cast, sub_relu_cast, mul_cast and repeat_reduce_sum.
 *
 * The fused casts compute src0 <op> src1 in the sources' precision (a
 * float16 result rounded to float16, integers exactly), apply relu
 * (add_relu_cast, sub_relu_cast), and store into the narrower dst as cast()
 * stores with CAST_RINT: float32 -> float16, float16 -> int8/uint8, int16 ->
 * int8, saturating integers. A repeat spans 256 bytes of the sources; the
 * count form is contiguous. Functions are called as fn(k, operands...,
 * [attributes...,] dst dtype, src dtype, line) (emit_c_sort.h, ce_sg2). */

enum { ASC_K_FC_ADD_RELU, ASC_K_FC_SUB_RELU, ASC_K_FC_MUL };

/* The part of a fused cast's or a DEQ operation's set-up they share: the
 * strides of A's nt operands (given, or contiguous blocks and repeats of 8
 * blocks of the sources' es-byte elements, ed for dst), the selection of
 * elements and the check of the spans. Neither advances the mask counter. */
static inline int asc_k_fused_select(asc_k_ctx *k, asc_k_vargs *A, asc_k_sel *s, int nt, int kind,
                                     int64_t m0, int64_t m1, int64_t repeat, const int64_t *blk,
                                     const int64_t *rep, int set_mask, int64_t es, int64_t ed,
                                     int line) {
  for (int j = 0; j < nt; j++) {
    A->blk[j] = blk ? blk[j] : 1;
    A->rep[j] = rep ? rep[j] : 8 * (j ? es : ed) / es;
    if (A->blk[j] < 0 || A->rep[j] < 0)
      return asc_k_fail(k, line, "%s: negative block or repeat stride", A->api);
  }
  int counter = k->vm.counter;
  int bad = asc_k_sel_make(k, s, kind, (uint64_t)m0, (uint64_t)m1, repeat, set_mask, 256 / es, 255,
                           A->api, line);
  k->vm.counter = counter;
  return bad || asc_k_vspans(k, A, s, line);
}

static inline int asc_k_fcast_run(asc_k_ctx *k, int op, const char *api, asc_k_lt d, asc_k_lt a,
                                  asc_k_lt b, int kind, int64_t m0, int64_t m1, int64_t repeat,
                                  const int64_t *blk, const int64_t *rep, int set_mask, int dd,
                                  int ds, int line) {
  asc_k_vargs A;
  memset(&A, 0, sizeof A);
  A.op = ASC_K_VOP_add; /* for the spans: dst written, two sources read */
  A.nsrc = 2;
  A.dt[0] = dd, A.dt[1] = A.dt[2] = ds;
  A.t[0] = d, A.t[1] = a, A.t[2] = b;
  A.api = api;
  int64_t es = asc_k_dt_size(ds), ed = asc_k_dt_size(dd);
  asc_k_sel s;
  if (asc_k_fused_select(k, &A, &s, 3, kind, m0, m1, repeat, blk, rep, set_mask, es, ed, line))
    return 1;
  int fl = asc_k_dt_float(ds);
  for (int64_t r = 0; r < s.nrep; r++)
    for (int64_t idx = 0; idx < s.per_rep; idx++) {
      if (!asc_k_sel_on(&s, r, idx)) continue;
      double x = asc_k_ld(ds, k->ub + asc_k_vaddr(&A, 1, r, idx));
      double y = asc_k_ld(ds, k->ub + asc_k_vaddr(&A, 2, r, idx));
      double v = op == ASC_K_FC_ADD_RELU ? x + y : op == ASC_K_FC_SUB_RELU ? x - y : x * y;
      if (fl) {
        char t[8];
        asc_k_stf(ds, t, (double)(float)v); /* rounded to the sources' type */
        v = asc_k_ld(ds, t);
      }
      if (op != ASC_K_FC_MUL && v < 0) v = 0;
      asc_k_cast_store(dd, k->ub + asc_k_vaddr(&A, 0, r, idx), v, 1);
    }
  return 0;
}

#define ASC_K_FCAST(NAME, OP)                                                                   \
  static inline int asc_k_##NAME(asc_k_ctx *k, asc_k_lt d, asc_k_lt a, asc_k_lt b, int64_t n,   \
                                 int dd, int ds, int line) {                                    \
    return asc_k_fcast_run(k, OP, #NAME, d, a, b, 2, n, 0, 0, NULL, NULL, 1, dd, ds, line);     \
  }                                                                                             \
  static inline int asc_k_##NAME##_l0(                                                          \
      asc_k_ctx *k, asc_k_lt d, asc_k_lt a, asc_k_lt b, int64_t m0, int64_t m1, int64_t repeat, \
      int64_t bd, int64_t b0, int64_t b1, int64_t rd, int64_t r0, int64_t r1, int64_t kind,     \
      int64_t set_mask, int64_t mode, int dd, int ds, int line) {                               \
    int64_t blk[3] = {bd, b0, b1}, rep[3] = {rd, r0, r1};                                       \
    (void)mode;                                                                                 \
    return asc_k_fcast_run(k, OP, #NAME, d, a, b, (int)kind, m0, m1, repeat, blk, rep,          \
                           (int)set_mask, dd, ds, line);                                        \
  }
ASC_K_FCAST(add_relu_cast, ASC_K_FC_ADD_RELU)
ASC_K_FCAST(sub_relu_cast, ASC_K_FC_SUB_RELU)
ASC_K_FCAST(mul_cast, ASC_K_FC_MUL)
#undef ASC_K_FCAST

/* repeat_reduce_sum (dst, src, mask, 0, repeat, dst_rep_stride,
 * src_blk_stride, src_rep_stride) [0, is_set_mask, 0]: whole_reduce_sum
 * with a continuous mask, which must be in [1, elements per repeat]. */
static inline int asc_k_repeat_reduce_sum(asc_k_ctx *k, asc_k_lt dst, asc_k_lt src, int64_t mask,
                                          int64_t m1, int64_t repeat, int64_t dst_rep,
                                          int64_t src_blk, int64_t src_rep, int64_t kind,
                                          int64_t set_mask, int64_t order, int dt, int ds,
                                          int line) {
  (void)m1, (void)kind, (void)order, (void)ds;
  int64_t per = 256 / asc_k_dt_size(dt);
  if (repeat < 0 || repeat > 255)
    return asc_k_fail(k, line, "repeat_reduce_sum: repeat_time %lld is outside [0, 255]",
                      (long long)repeat);
  if (set_mask && (mask < 1 || mask > per))
    return asc_k_fail(k, line, "repeat_reduce_sum: mask %lld is outside [1, %lld]", (long long)mask,
                      (long long)per);
  if (asc_k_align32(k, src, "repeat_reduce_sum", "src", line)) return 1;
  asc_k_rargs R;
  memset(&R, 0, sizeof R);
  R.what = 0, R.shape = 0, R.dt = dt, R.order = 0;
  R.dst = dst, R.src = src, R.kind = 0, R.set_mask = (int)set_mask;
  R.m0 = mask, R.repeat = repeat, R.dst_rep = dst_rep, R.src_blk = src_blk, R.src_rep = src_rep;
  R.api = "repeat_reduce_sum";
  return asc_k_rrun(k, &R, line);
}
