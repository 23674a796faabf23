/* gather_mask, gatherb, the CMPMASK register (set_cmp_mask, get_cmp_mask
 * and the register forms of compare and select) and the scalar bit
 * operations. One function per API row (api_table.def), called as
 * fn(k, operands..., [attributes...,] element size of operand 0, [&result,]
 * line). */

/* The documented 32-byte alignment of an operand's UB start address. */
static inline int asc_k_align32(asc_k_ctx *k, asc_k_lt t, const char *api, const char *operand,
                                int line) {
  if (t.off % 32)
    return asc_k_fail(k, line, "%s: %s starts at UB byte %lld, which is not 32-byte aligned", api,
                      operand, (long long)t.off);
  return 0;
}

/* Bit idx of gather_mask's built-in pattern 1..7 (bit i selects element i
 * of a repeat): 1 even, 2 odd, 3..6 one of every four, 7 all. */
static inline int asc_k_gm_builtin(int64_t pattern, int64_t idx) {
  if (pattern == 7) return 1;
  if (pattern <= 2) return (int)(idx % 2 == pattern - 1);
  return (int)(idx % 4 == pattern - 3);
}

/* gather_mask(dst, src0, src1_pattern, reduce_mode, mask, src0_block_stride,
 * repeat_times, src0_repeat_stride, src1_repeat_stride): the selected
 * elements of src0 packed into dst; pattern 1..7 is built in, 0 reads the
 * pattern tensor (bit i of a repeat's pattern bits selects element i).
 * Normal mode: repeat_times repeats of 256 bytes; counter mode: repeat_times
 * repeats of `mask` elements each (the pattern's bits read on from the
 * repeat's first, past 256 bytes when mask is larger), as CANN documents for
 * Atlas A2 and its gather example's scenario 2 computes. Sets rsvdCnt and
 * leaves the mask in normal mode. */
static inline int asc_k_gather_mask_run(asc_k_ctx *k, asc_k_lt dst, asc_k_lt src0, asc_k_lt pat,
                                        int64_t pattern, int64_t reduce, int64_t mask, int64_t blk,
                                        int64_t repeat, int64_t rep0, int64_t rep1, int dt,
                                        int64_t *out, int line) {
  int64_t es = asc_k_dt_size(dt);
  const char *api = "gather_mask";
  int64_t per = 256 / es, epb = 32 / es, nrep;
  if (pattern < 0 || pattern > 7)
    return asc_k_fail(k, line, "%s: the built-in src1_pattern %lld is outside [1, 7]", api,
                      (long long)pattern);
  if (blk < 0 || blk > 65535 || rep0 < 0 || rep0 > 65535 || rep1 < 0 || rep1 > 65535)
    return asc_k_fail(k, line, "%s: GatherMaskParams strides must be in [0, 65535]", api);
  if (repeat < 0 || repeat > 255)
    return asc_k_fail(k, line, "%s: repeat_times %lld is outside [0, 255]", api, (long long)repeat);
  if (reduce) {
    if (mask < 1 || mask > UINT32_MAX)
      return asc_k_fail(k, line, "%s: the counter-mode mask %lld is outside [1, 2**32 - 1]", api,
                        (long long)mask);
    if (mask > asc_k_ub_end(k))
      return asc_k_fail(k, line, "%s: %lld elements a repeat exceed the Unified Buffer", api,
                        (long long)mask);
    per = mask;
  }
  nrep = repeat;
  const int64_t total = nrep * per;
  k->vm.counter = 0;
  *out = 0;
  k->sr.rsvd = 0;
  if (asc_k_align32(k, dst, api, "dst", line) || asc_k_align32(k, src0, api, "src0", line))
    return 1;
  if (!total) return 0;
  /* the furthest element of src0 and pattern byte read (factors < 2**16, per < 2**18: the UB's) */
  int64_t last = (nrep - 1) * rep0 * 32 + ((per - 1) / epb) * blk * 32 + (per - 1) % epb * es;
  if (asc_k_ub_use(k, ASC_K_V, src0, last / es + 1, es, ASC_K_READ, api, "src0", line)) return 1;
  if (!pattern &&
      asc_k_ub_use(k, ASC_K_V, pat, ((nrep - 1) * rep1 * 32 + (per + 7) / 8 + es - 1) / es, es,
                   ASC_K_READ, api, "src1_pattern", line))
    return 1;
  int64_t n = 0;
  for (int64_t r = 0; r < nrep; r++)
    for (int64_t i = 0; i < per; i++) {
      int on =
          pattern ? asc_k_gm_builtin(pattern, i) : asc_k_bit(k->ub + pat.off + r * rep1 * 32, i);
      if (on) n++;
    }
  if (n && asc_k_ub_use(k, ASC_K_V, dst, n, es, ASC_K_WRITE, api, "dst", line)) return 1;
  char *buf = malloc((size_t)(n * es) + 1);
  if (!buf) return asc_k_fail(k, line, "%s: out of host memory", api);
  n = 0;
  for (int64_t r = 0; r < nrep; r++)
    for (int64_t i = 0; i < per; i++) {
      int on =
          pattern ? asc_k_gm_builtin(pattern, i) : asc_k_bit(k->ub + pat.off + r * rep1 * 32, i);
      if (on)
        memcpy(buf + n++ * es, k->ub + src0.off + r * rep0 * 32 + i / epb * blk * 32 + i % epb * es,
               (size_t)es);
    }
  memcpy(k->ub + dst.off, buf, (size_t)(n * es));
  free(buf);
  *out = n;
  k->sr.rsvd = n;
  return 0;
}

static inline int asc_k_gather_mask(asc_k_ctx *k, asc_k_lt dst, asc_k_lt src0, asc_k_lt pat,
                                    int64_t reduce, int64_t mask, int64_t blk, int64_t repeat,
                                    int64_t rep0, int64_t rep1, int dt, int64_t *out, int line) {
  return asc_k_gather_mask_run(k, dst, src0, pat, 0, reduce, mask, blk, repeat, rep0, rep1, dt, out,
                               line);
}
static inline int asc_k_gather_mask_builtin(asc_k_ctx *k, asc_k_lt dst, asc_k_lt src0,
                                            int64_t pattern, int64_t reduce, int64_t mask,
                                            int64_t blk, int64_t repeat, int64_t rep0, int64_t rep1,
                                            int dt, int64_t *out, int line) {
  if (pattern < 1 || pattern > 7)
    return asc_k_fail(k, line, "gather_mask: the built-in src1_pattern %lld is outside [1, 7]",
                      (long long)pattern);
  asc_k_lt none = {0, 0};
  return asc_k_gather_mask_run(k, dst, src0, none, pattern, reduce, mask, blk, repeat, rep0, rep1,
                               dt, out, line);
}

static inline int asc_k_gather_mask_count(asc_k_ctx *k, int dt, int64_t *out, int line) {
  (void)line, (void)dt;
  *out = k->sr.rsvd;
  return 0;
}

/* gatherb(dst, src0, offset, repeat, dst_blk_stride, dst_rep_stride): block
 * j of repeat r of dst (at r * dst_rep_stride + j * dst_blk_stride blocks)
 * is the 32 bytes at byte offset[8r + j] of src0 (a multiple of 32). */
static inline int asc_k_gatherb(asc_k_ctx *k, asc_k_lt dst, asc_k_lt src0, asc_k_lt off,
                                int64_t repeat, int64_t blk, int64_t rep, int dt, int line) {
  int64_t es = asc_k_dt_size(dt);
  if (repeat < 1 || repeat > 255)
    return asc_k_fail(k, line, "gatherb: repeat_time %lld is outside [1, 255]", (long long)repeat);
  if (blk < 0 || blk > 65535 || rep < 0 || rep > 65535)
    return asc_k_fail(k, line, "gatherb: GatherRepeatParams strides must be in [0, 65535]");
  int64_t last = (repeat - 1) * rep + 7 * blk, per = 32 / es;
  if (asc_k_align32(k, dst, "gatherb", "dst", line) ||
      asc_k_align32(k, src0, "gatherb", "src0", line) ||
      asc_k_align32(k, off, "gatherb", "offset", line))
    return 1;
  if (asc_k_ub_use(k, ASC_K_V, off, 8 * repeat, 4, ASC_K_READ, "gatherb", "offset", line) ||
      asc_k_ub_use(k, ASC_K_V, dst, (last + 1) * per, es, ASC_K_WRITE, "gatherb", "dst", line))
    return 1;
  char *buf = malloc((size_t)(8 * repeat * 32));
  if (!buf) return asc_k_fail(k, line, "gatherb: out of host memory");
  for (int64_t i = 0; i < 8 * repeat; i++) {
    uint32_t o;
    memcpy(&o, k->ub + off.off + i * 4, 4);
    if (o % 32 || (int64_t)o / es + per > src0.len) {
      free(buf);
      return asc_k_fail(k, line,
                        "gatherb: offset[%lld] = %lld is not a 32-byte block of the %lld-element "
                        "src0",
                        (long long)i, (long long)o, (long long)src0.len);
    }
    if (asc_k_ub_use(k, ASC_K_V, asc_k_local_slice(src0, (int64_t)o / es, es), per, es, ASC_K_READ,
                     "gatherb", "src0", line)) {
      free(buf);
      return 1;
    }
    memcpy(buf + i * 32, k->ub + src0.off + o, 32);
  }
  for (int64_t r = 0; r < repeat; r++)
    for (int64_t j = 0; j < 8; j++)
      memcpy(k->ub + dst.off + (r * rep + j * blk) * 32, buf + (r * 8 + j) * 32, 32);
  free(buf);
  return 0;
}

/* set_cmp_mask: the 128-bit CMPMASK from the first 16 bytes of src;
 * get_cmp_mask: those bits into dst, which must hold 128 bytes. */
static inline int asc_k_set_cmp_mask(asc_k_ctx *k, asc_k_lt src, int dt, int line) {
  int64_t es = asc_k_dt_size(dt);
  if (asc_k_ub_use(k, ASC_K_V, src, 16 / es + (16 % es != 0), es, ASC_K_READ, "set_cmp_mask", "src",
                   line))
    return 1;
  memcpy(k->sr.cmp, k->ub + src.off, 16);
  return 0;
}
static inline int asc_k_get_cmp_mask(asc_k_ctx *k, asc_k_lt dst, int dt, int line) {
  int64_t es = asc_k_dt_size(dt);
  if (dst.len * es < 128)
    return asc_k_fail(k, line, "get_cmp_mask: dst holds %lld bytes; it must hold at least 128",
                      (long long)(dst.len * es));
  if (asc_k_ub_use(k, ASC_K_V, dst, 16 / es + (16 % es != 0), es, ASC_K_WRITE, "get_cmp_mask",
                   "dst", line))
    return 1;
  memcpy(k->ub + dst.off, k->sr.cmp, 16);
  return 0;
}

/* compare's register form: one repeat of src0 <cmp_mode> src1 into CMPMASK
 * (src0, src1, m0, m1, src0_blk_stride, src1_blk_stride) [mask kind,
 * is_set_mask, cmp_mode]; bits of masked-off elements are 0. */
static inline int asc_k_compare_reg(asc_k_ctx *k, asc_k_lt a, asc_k_lt b, int64_t m0, int64_t m1,
                                    int64_t dblk, int64_t blk0, int64_t blk1, int64_t drep,
                                    int64_t rep0, int64_t rep1, int64_t kind, int64_t set_mask,
                                    int64_t mode, int dt, int line) {
  (void)dblk, (void)drep, (void)rep0, (void)rep1; /* one repeat, no dst */
  asc_k_vargs A;
  memset(&A, 0, sizeof A);
  A.op = ASC_K_VOP_compare;
  A.nsrc = 2;
  A.dt[0] = A.dt[1] = A.dt[2] = dt;
  A.t[0] = A.t[1] = a;
  A.t[2] = b;
  A.blk[0] = A.blk[1] = blk0, A.blk[2] = blk1;
  A.api = "compare";
  if (blk0 < 0 || blk1 < 0 || blk0 > 255 || blk1 > 255)
    return asc_k_fail(k, line, "compare: block strides must be in [0, 255]");
  asc_k_sel s;
  int64_t es = asc_k_dt_size(dt);
  if (asc_k_sel_make(k, &s, (int)kind, (uint64_t)m0, (uint64_t)m1, 1, (int)set_mask, 256 / es, 1,
                     "compare", line))
    return 1;
  unsigned char bits[16] = {0};
  for (int64_t idx = 0; idx < s.per_rep && s.nrep > 0; idx++) {
    if (!asc_k_sel_on(&s, 0, idx)) continue;
    int64_t pa = asc_k_vaddr(&A, 1, 0, idx), pb = asc_k_vaddr(&A, 2, 0, idx);
    if (asc_k_ub_use(k, ASC_K_V, asc_k_local_slice(a, (pa - a.off) / es, es), 1, es, ASC_K_READ,
                     "compare", "src0", line) ||
        asc_k_ub_use(k, ASC_K_V, asc_k_local_slice(b, (pb - b.off) / es, es), 1, es, ASC_K_READ,
                     "compare", "src1", line))
      return 1;
    if (asc_k_vop_cmp((int)mode, asc_k_ld(dt, k->ub + pa), asc_k_ld(dt, k->ub + pb)))
      bits[idx >> 3] |= (unsigned char)(1u << (idx & 7));
  }
  memcpy(k->sr.cmp, bits, sizeof bits);
  return 0;
}

/* The Unified Buffer offsets p[0..n) of element idx of repeat r of
 * select's first n operands (dst, src0, src1), each counted as written
 * (dst) or read; 1 (reported) when one leaves the Unified Buffer. */
static inline int asc_k_sel_addrs(asc_k_ctx *k, const asc_k_vargs *A, int n, int64_t r, int64_t idx,
                                  int64_t es, int64_t *p, int line) {
  static const char *const names[] = {"dst", "src0", "src1"};
  for (int j = 0; j < n; j++) {
    p[j] = asc_k_vaddr(A, j, r, idx);
    if (p[j] < 0 ||
        asc_k_ub_use(k, ASC_K_V, asc_k_local_slice(A->t[j], (p[j] - A->t[j].off) / es, es), 1, es,
                     j ? ASC_K_READ : ASC_K_WRITE, "select", names[j], line))
      return p[j] < 0 ? asc_k_fail(k, line, "select: strides leave the Unified Buffer") : 1;
  }
  return 0;
}

/* select's register form (dst, src0, src1, repeat, 6 strides): element i of
 * every repeat is src0's where CMPMASK bit i is set, else src1's; the mask
 * register decides which elements are written. */
static inline int asc_k_select_reg(asc_k_ctx *k, asc_k_lt d, asc_k_lt a, asc_k_lt b, int64_t repeat,
                                   int64_t bd, int64_t b0, int64_t b1, int64_t rd, int64_t r0,
                                   int64_t r1, int64_t mode, int dt, int line) {
  (void)mode; /* VSEL_CMPMASK_SPR (the check) */
  asc_k_vargs A;
  memset(&A, 0, sizeof A);
  A.op = ASC_K_VOP_select;
  A.nsrc = 2;
  A.dt[0] = A.dt[1] = A.dt[2] = dt;
  A.t[0] = d, A.t[1] = a, A.t[2] = b;
  A.blk[0] = bd, A.blk[1] = b0, A.blk[2] = b1;
  A.rep[0] = rd, A.rep[1] = r0, A.rep[2] = r1;
  A.api = "select";
  for (int j = 0; j < 3; j++)
    if (A.blk[j] < 0 || A.rep[j] < 0)
      return asc_k_fail(k, line, "select: negative block or repeat stride");
  asc_k_sel s;
  int64_t es = asc_k_dt_size(dt);
  if (asc_k_sel_make(k, &s, 0, 0, 0, repeat, 0, 256 / es, 255, "select", line)) return 1;
  for (int64_t r = 0; r < s.nrep; r++)
    for (int64_t idx = 0; idx < s.per_rep; idx++) {
      if (!asc_k_sel_on(&s, r, idx)) continue;
      int64_t p[3];
      if (asc_k_sel_addrs(k, &A, 3, r, idx, es, p, line)) return 1;
      int on = (k->sr.cmp[(idx & 127) >> 3] >> (idx & 7)) & 1;
      memmove(k->ub + p[0], k->ub + (on ? p[1] : p[2]), (size_t)es);
    }
  return 0;
}

/* select's tensor-scalar register form (dst, sel_mask, src0, repeat, 6
 * strides), SELMODE.VSEL_TENSOR_SCALAR_MODE without a mask argument: the
 * scalar is the first element of CMPMASK (set_cmp_mask of a tensor holding
 * it); element i of repeat r is src0's where bit r * (256 / size) + i of
 * sel_mask is set (the repeats consume sel_mask's bits in turn), else the
 * scalar; the mask register decides which elements are written. mdt:
 * sel_mask's dtype. */
static inline int asc_k_select_reg_scalar(asc_k_ctx *k, asc_k_lt d, asc_k_lt m, asc_k_lt a,
                                          int64_t repeat, int64_t bd, int64_t b0, int64_t b1,
                                          int64_t rd, int64_t r0, int64_t r1, int dt, int mdt,
                                          int line) {
  (void)b1, (void)r1; /* no second tensor */
  asc_k_vargs A;
  memset(&A, 0, sizeof A);
  A.op = ASC_K_VOP_selects;
  A.nsrc = 1;
  A.dt[0] = A.dt[1] = dt;
  A.t[0] = d, A.t[1] = a;
  A.blk[0] = bd, A.blk[1] = b0;
  A.rep[0] = rd, A.rep[1] = r0;
  A.api = "select";
  for (int j = 0; j < 2; j++)
    if (A.blk[j] < 0 || A.rep[j] < 0)
      return asc_k_fail(k, line, "select: negative block or repeat stride");
  if (asc_k_align32(k, m, "select", "sel_mask", line)) return 1;
  asc_k_sel s;
  int64_t es = asc_k_dt_size(dt);
  if (asc_k_sel_make(k, &s, 0, 0, 0, repeat, 0, 256 / es, 255, "select", line)) return 1;
  char scalar[8];
  memcpy(scalar, k->sr.cmp, (size_t)es);
  /* the repeats read sel_mask's bits in turn: (nrep * per_rep) bits */
  asc_k_lt mb = asc_k_local_cast(m, asc_k_dt_size(mdt), 1);
  if (s.nrep > 0 && asc_k_ub_use(k, ASC_K_V, mb, (s.nrep * s.per_rep + 7) / 8, 1, ASC_K_READ,
                                 "select", "sel_mask", line))
    return 1;
  for (int64_t r = 0; r < s.nrep; r++)
    for (int64_t idx = 0; idx < s.per_rep; idx++) {
      if (!asc_k_sel_on(&s, r, idx)) continue;
      int64_t bit = r * s.per_rep + idx, p[2];
      if (asc_k_sel_addrs(k, &A, 2, r, idx, es, p, line)) return 1;
      memmove(k->ub + p[0], asc_k_bit(k->ub + m.off, bit) ? k->ub + p[1] : scalar, (size_t)es);
    }
  return 0;
}

/* --- scalar bit operations (uint64/int64 values) --- */
static inline int asc_k_clz64(uint64_t v) {
  int n = 0;
  for (uint64_t bit = (uint64_t)1 << 63; bit && !(v & bit); bit >>= 1) n++;
  return n;
}
static inline int asc_k_scalar_clz(asc_k_ctx *k, int64_t v, int dt, int64_t *out, int line) {
  int64_t es = asc_k_dt_size(dt);
  (void)k, (void)es, (void)line;
  *out = asc_k_clz64((uint64_t)v);
  return 0;
}
static inline int asc_k_scalar_count(asc_k_ctx *k, int64_t v, int64_t value, int dt, int64_t *out,
                                     int line) {
  int64_t es = asc_k_dt_size(dt);
  (void)k, (void)es, (void)line;
  int ones = 0;
  for (uint64_t u = (uint64_t)v; u; u &= u - 1) ones++;
  *out = value ? ones : 64 - ones;
  return 0;
}
static inline int asc_k_scalar_sff(asc_k_ctx *k, int64_t v, int64_t value, int dt, int64_t *out,
                                   int line) {
  int64_t es = asc_k_dt_size(dt);
  (void)k, (void)es, (void)line;
  *out = -1;
  for (int i = 0; i < 64; i++)
    if ((int)(((uint64_t)v >> i) & 1u) == (value != 0)) {
      *out = i;
      break;
    }
  return 0;
}
static inline int asc_k_scalar_sign_bits(asc_k_ctx *k, int64_t v, int dt, int64_t *out, int line) {
  int64_t es = asc_k_dt_size(dt);
  (void)k, (void)es, (void)line;
  *out = v == 0 || v == -1 ? -1 : asc_k_clz64((uint64_t)(v < 0 ? ~v : v)) - 1;
  return 0;
}
/* scalar_cast(value, dtype, round_mode): the float32 value cast as cast()
 * casts an element (float16 results are returned as their value). */
static inline int asc_k_scalar_cast(asc_k_ctx *k, double v, int64_t to, int64_t mode, int dt,
                                    double *out, int line) {
  (void)k, (void)dt, (void)line;
  char tmp[8];
  asc_k_cast_store((int)to, tmp, (double)(float)v, (int)mode);
  *out = asc_k_ld((int)to, tmp);
  return 0;
}
static inline int asc_k_scalar_cast_int(asc_k_ctx *k, double v, int64_t to, int64_t mode, int dt,
                                        int64_t *out, int line) {
  double r;
  asc_k_scalar_cast(k, v, to, mode, dt, &r, line);
  *out = (int64_t)r;
  return 0;
}
