/* The DEQSCALE register and the vector unit's dequantising ops:
 * set_deq_scale, cast_deq, add_deq_relu, and fixpipe's pre-quant scalar
 * (set_fix_pipe_pre_quant_flag).
 *
 * set_deq_scale(scale) stores the scale rounded to float16 (Ascend C takes
 * a half); set_deq_scale(scale, offset, sign_mode) keeps a float32 scale and
 * the offset's low 9 bits, sign-extended; the vector form writes 16 groups
 * into a 128-byte uint64 tensor (fp32 bits in bits 0-31, offset in 37-45,
 * sign in 46) and loads them into the register.
 *
 * cast_deq: int16 -> int8/uint8 as rint(src * scale + offset) saturated to
 * int8 (sign mode) or uint8, each 32-byte source block giving 16 bytes in
 * the lower (half_block) or upper half of the same block of dst; with
 * is_vec_deq element i of a block uses group i. int32 -> float16 as
 * src * scale. add_deq_relu: float16(max((src0 + src1) * scale, 0)) from
 * int32 sources. A repeat spans 256 bytes of the sources. */

static inline int asc_k_set_deq_scale(asc_k_ctx *k, double scale, int64_t offset, int64_t sign,
                                      int dt, int line) {
  (void)dt, (void)line;
  k->sr.deq = (float)scale;
  k->sr.deq_off = (int32_t)((offset & 0xff) - (offset & 0x100)); /* 9-bit two's complement */
  k->sr.deq_sign = sign != 0;
  return 0;
}
/* set_deq_scale(scale): Ascend C's half scale, offset 0, signed */
static inline int asc_k_set_deq_scale_half(asc_k_ctx *k, double scale, int dt, int line) {
  char t[2];
  asc_k_stf(ASC_K_DT_FLOAT16, t, scale);
  return asc_k_set_deq_scale(k, asc_k_ld(ASC_K_DT_FLOAT16, t), 0, 1, dt, line);
}

/* set_deq_scale(vdeq, VdeqInfo): operands are 16 scales, 16 offsets and
 * the 16 sign modes as a bit mask (bit j: group j) */
static inline int asc_k_set_vdeq(asc_k_ctx *k, asc_k_lt t, const double *scale,
                                 const int64_t *offset, int64_t signs, int line) {
  if (t.off % 32)
    return asc_k_fail(k, line, "set_deq_scale: vdeq starts at UB byte %lld, not 32-byte aligned",
                      (long long)t.off);
  if (asc_k_ub_use(k, ASC_K_S, t, 16, 8, ASC_K_WRITE, "set_deq_scale", "vdeq", line)) return 1;
  for (int j = 0; j < 16; j++) {
    float f = (float)scale[j];
    uint32_t bits;
    memcpy(&bits, &f, 4);
    int32_t off = (int32_t)((offset[j] & 0xff) - (offset[j] & 0x100));
    int sg = (int)((signs >> j) & 1);
    uint64_t w = bits | (uint64_t)(off & 0x1ff) << 37 | (uint64_t)sg << 46;
    memcpy(k->ub + t.off + 8 * j, &w, 8);
    k->sr.vdeq[j] = f, k->sr.vdeq_off[j] = off, k->sr.vdeq_sign[j] = (unsigned char)sg;
  }
  return 0;
}

#define ASC_K_SET_VDEQ_ARGS                                                                  \
  double s0, double s1, double s2, double s3, double s4, double s5, double s6, double s7,    \
      double s8, double s9, double s10, double s11, double s12, double s13, double s14,      \
      double s15, int64_t o0, int64_t o1, int64_t o2, int64_t o3, int64_t o4, int64_t o5,    \
      int64_t o6, int64_t o7, int64_t o8, int64_t o9, int64_t o10, int64_t o11, int64_t o12, \
      int64_t o13, int64_t o14, int64_t o15, int64_t signs
static inline int asc_k_set_deq_scale_vec(asc_k_ctx *k, asc_k_lt t, ASC_K_SET_VDEQ_ARGS, int dt,
                                          int line) {
  const double s[16] = {s0, s1, s2, s3, s4, s5, s6, s7, s8, s9, s10, s11, s12, s13, s14, s15};
  const int64_t o[16] = {o0, o1, o2, o3, o4, o5, o6, o7, o8, o9, o10, o11, o12, o13, o14, o15};
  (void)dt;
  return asc_k_set_vdeq(k, t, s, o, signs, line);
}
#undef ASC_K_SET_VDEQ_ARGS

static inline int asc_k_deq_run(asc_k_ctx *k, const char *api, asc_k_lt d, asc_k_lt a,
                                const asc_k_lt *b, int kind, int64_t m0, int64_t m1, int64_t repeat,
                                const int64_t *blk, const int64_t *rep, int set_mask, int vec,
                                int half_block, int dd, int ds, int line) {
  asc_k_vargs A;
  memset(&A, 0, sizeof A);
  int nt = b ? 3 : 2;
  A.op = ASC_K_VOP_add; /* for the spans: dst written, sources read */
  A.nsrc = nt - 1;
  int narrow = ds == ASC_K_DT_INT16; /* int16 -> 8 bits: dst blocks mirror src blocks */
  A.dt[0] = narrow ? ds : dd, A.dt[1] = A.dt[2] = ds;
  A.t[0] = d, A.t[1] = a;
  if (b) A.t[2] = *b;
  A.api = api;
  int64_t es = asc_k_dt_size(ds), ed = asc_k_dt_size(A.dt[0]);
  if (asc_k_align32(k, d, api, "dst", line) || asc_k_align32(k, a, api, "src", line)) return 1;
  asc_k_sel s;
  if (asc_k_fused_select(k, &A, &s, nt, kind, m0, m1, repeat, blk, rep, set_mask, es, ed, line))
    return 1;
  for (int64_t r = 0; r < s.nrep; r++)
    for (int64_t idx = 0; idx < s.per_rep; idx++) {
      if (!asc_k_sel_on(&s, r, idx)) continue;
      double x = asc_k_ld(ds, k->ub + asc_k_vaddr(&A, 1, r, idx));
      int64_t o = asc_k_vaddr(&A, 0, r, idx);
      if (b) { /* add_deq_relu: the int32 sum in float32, scaled, relu */
        x += asc_k_ld(ds, k->ub + asc_k_vaddr(&A, 2, r, idx));
        float v = (float)x * k->sr.deq;
        asc_k_cast_store(dd, k->ub + o, v < 0 ? 0.0 : (double)v, 1);
      } else if (!narrow) { /* int32 -> float16 */
        asc_k_cast_store(dd, k->ub + o, (double)((float)x * k->sr.deq), 1);
      } else {
        int g = (int)(idx % 16);
        float sc = vec ? k->sr.vdeq[g] : k->sr.deq;
        int32_t off = vec ? k->sr.vdeq_off[g] : k->sr.deq_off;
        int sg = vec ? k->sr.vdeq_sign[g] : k->sr.deq_sign;
        double v = nearbyint((double)((float)x * sc) + off);
        double lo = sg ? -128.0 : 0.0, hi = sg ? 127.0 : 255.0;
        v = v < lo ? lo : v > hi ? hi : v;
        int64_t at = o - o % 32 + (half_block ? 0 : 16) + (o % 32) / 2;
        k->ub[at] = (char)(unsigned char)((int)v & 0xff);
      }
    }
  return 0;
}

/* set_fix_pipe_pre_quant_flag(config): read by data_copy L0C -> GM */
static inline int asc_k_set_fpq(asc_k_ctx *k, int64_t config, int dt, int line) {
  (void)dt, (void)line;
  k->sr.fpq = (uint64_t)config;
  return 0;
}

/* cast_deq(dst, src, count) [is_vec_deq, half_block] */
static inline int asc_k_cast_deq(asc_k_ctx *k, asc_k_lt d, asc_k_lt a, int64_t n, int64_t vec,
                                 int64_t half, int dd, int ds, int line) {
  return asc_k_deq_run(k, "cast_deq", d, a, NULL, 2, n, 0, 0, NULL, NULL, 1, (int)vec, (int)half,
                       dd, ds, line);
}
/* cast_deq(dst, src, m0, m1, repeat, 4 strides) [kind, is_set_mask, is_vec_deq, half_block] */
static inline int asc_k_cast_deq_l0(asc_k_ctx *k, asc_k_lt d, asc_k_lt a, int64_t m0, int64_t m1,
                                    int64_t repeat, int64_t bd, int64_t bs, int64_t rd, int64_t rs,
                                    int64_t kind, int64_t set_mask, int64_t vec, int64_t half,
                                    int dd, int ds, int line) {
  int64_t blk[2] = {bd, bs}, rep[2] = {rd, rs};
  return asc_k_deq_run(k, "cast_deq", d, a, NULL, (int)kind, m0, m1, repeat, blk, rep,
                       (int)set_mask, (int)vec, (int)half, dd, ds, line);
}
static inline int asc_k_add_deq_relu(asc_k_ctx *k, asc_k_lt d, asc_k_lt a, asc_k_lt b, int64_t n,
                                     int dd, int ds, int line) {
  return asc_k_deq_run(k, "add_deq_relu", d, a, &b, 2, n, 0, 0, NULL, NULL, 1, 0, 0, dd, ds, line);
}
static inline int asc_k_add_deq_relu_l0(asc_k_ctx *k, asc_k_lt d, asc_k_lt a, asc_k_lt b,
                                        int64_t m0, int64_t m1, int64_t repeat, int64_t bd,
                                        int64_t b0, int64_t b1, int64_t rd, int64_t r0, int64_t r1,
                                        int64_t kind, int64_t set_mask, int64_t mode, int dd,
                                        int ds, int line) {
  int64_t blk[3] = {bd, b0, b1}, rep[3] = {rd, r0, r1};
  (void)mode;
  return asc_k_deq_run(k, "add_deq_relu", d, a, &b, (int)kind, m0, m1, repeat, blk, rep,
                       (int)set_mask, 0, 0, dd, ds, line);
}
