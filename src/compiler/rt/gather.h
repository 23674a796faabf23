/* The vector unit's element moves: transpose, gather, scatter and brcb.
 * One function per API row (api_table.def), called as
 * fn(k, operands..., element size of operand 0, line). */

/* transpose(dst, src): one 16x16 matrix of 2-byte elements, row-major;
 * dst may be src (the matrix is read whole before it is written). */
static inline int asc_k_transpose(asc_k_ctx *k, asc_k_lt dst, asc_k_lt src, int64_t es, int line) {
  if (es != 2) return asc_k_fail(k, line, "transpose: the 16x16 form takes 2-byte elements");
  if (asc_k_ub_use(k, ASC_K_V, src, 256, 2, ASC_K_READ, "transpose", "src", line) ||
      asc_k_ub_use(k, ASC_K_V, dst, 256, 2, ASC_K_WRITE, "transpose", "dst", line))
    return 1;
  unsigned char m[512];
  memcpy(m, k->ub + src.off, sizeof m);
  for (int i = 0; i < 16; i++)
    for (int j = 0; j < 16; j++)
      memcpy(k->ub + dst.off + (j * 16 + i) * 2, m + (i * 16 + j) * 2, 2);
  return 0;
}

/* Shared by gather's and scatter's forms: base must be a byte address of
 * an element in [0, 2**32). */
static inline int asc_k_gs_base(asc_k_ctx *k, const char *api, int64_t base, int64_t es, int line) {
  if (base < 0 || base > UINT32_MAX || base % es)
    return asc_k_fail(k, line,
                      "%s: the base address %lld must be a multiple of the element size (%lld) "
                      "in [0, 2**32)",
                      api, (long long)base, (long long)es);
  return 0;
}

/* Copies an element of es bytes between a place p among others (spread
 * out or in a structure) and its dense counterpart q: into p when to_p,
 * else out of it (gather/scatter, proposal_extract/concat). */
static inline void asc_k_move_elem(char *p, char *q, int64_t es, int to_p) {
  if (to_p)
    memmove(p, q, (size_t)es);
  else
    memmove(q, p, (size_t)es);
}

/* Moves one element between the dense operand (at byte dense_at) and the
 * spread one (at base + offset[i]): the spread one is written by scatter,
 * read by gather. */
static inline int asc_k_gs_move(asc_k_ctx *k, int scatter, asc_k_lt spread, asc_k_lt dense,
                                int64_t dense_at, asc_k_lt off, int64_t i, int64_t base, int64_t es,
                                const char *api, int line) {
  uint32_t o;
  memcpy(&o, k->ub + off.off + i * 4, 4);
  int64_t at = base + (int64_t)o;
  if (at % es || at / es >= spread.len)
    return asc_k_fail(k, line,
                      "%s: offset[%lld] = %lld (base %lld) is not an element of the %lld-element "
                      "%s",
                      api, (long long)i, (long long)o, (long long)base, (long long)spread.len,
                      scatter ? "dst" : "src");
  asc_k_move_elem(k->ub + spread.off + at, k->ub + dense.off + dense_at, es, scatter);
  return 0;
}

/* gather (scatter = 0): dst[i] = the element at byte base + offset[i] of src;
 * scatter (1): the element at byte base + offset[i] of dst = src[i]. The
 * offsets are unsigned 32-bit byte offsets; one that is not a multiple of
 * the element size or points past the spread tensor is an error. */
static inline int asc_k_gather_scatter(asc_k_ctx *k, int scatter, asc_k_lt dst, asc_k_lt src,
                                       asc_k_lt off, int64_t base, int64_t count, int64_t es,
                                       int line) {
  const char *api = scatter ? "scatter" : "gather";
  asc_k_lt spread = scatter ? dst : src, dense = scatter ? src : dst;
  if (count < 0 || count > UINT32_MAX)
    return asc_k_fail(k, line, "%s: count %lld is outside [0, 2**32)", api, (long long)count);
  if (asc_k_gs_base(k, api, base, es, line)) return 1;
  if (!count) return 0;
  if (asc_k_ub_use(k, ASC_K_V, off, count, 4, ASC_K_READ, api, "offset", line) ||
      asc_k_ub_use(k, ASC_K_V, dense, count, es, scatter ? ASC_K_READ : ASC_K_WRITE, api,
                   scatter ? "src" : "dst", line) ||
      asc_k_ub_use(k, ASC_K_V, spread, spread.len, es, scatter ? ASC_K_WRITE : ASC_K_READ, api,
                   scatter ? "dst" : "src", line))
    return 1;
  for (int64_t i = 0; i < count; i++)
    if (asc_k_gs_move(k, scatter, spread, dense, i * es, off, i, base, es, api, line)) return 1;
  return 0;
}
static inline int asc_k_gather(asc_k_ctx *k, asc_k_lt dst, asc_k_lt src, asc_k_lt off, int64_t base,
                               int64_t count, int64_t es, int line) {
  return asc_k_gather_scatter(k, 0, dst, src, off, base, count, es, line);
}
static inline int asc_k_scatter(asc_k_ctx *k, asc_k_lt dst, asc_k_lt src, asc_k_lt off,
                                int64_t base, int64_t count, int64_t es, int line) {
  return asc_k_gather_scatter(k, 1, dst, src, off, base, count, es, line);
}

/* The mask forms of gather and scatter (dst, src, offset, base, m0, m1,
 * repeat, rep_stride) [mask kind]: repeat r covers 256 bytes of the dense
 * operand (gather's dst, scatter's src), which starts at r * rep_stride
 * blocks; element i of repeat r, where the mask selects it, pairs with
 * offset[r * (256 / size) + i] (the offsets run on through the repeats). */
static inline int asc_k_gather_scatter_l0(asc_k_ctx *k, int scatter, asc_k_lt dst, asc_k_lt src,
                                          asc_k_lt off, int64_t base, int64_t m0, int64_t m1,
                                          int64_t repeat, int64_t rstride, int64_t kind, int dt,
                                          int line) {
  const char *api = scatter ? "scatter" : "gather";
  int64_t es = asc_k_dt_size(dt), per = 256 / es;
  asc_k_lt spread = scatter ? dst : src, dense = scatter ? src : dst;
  if (asc_k_gs_base(k, api, base, es, line)) return 1;
  if (rstride < 0 || rstride > (scatter ? 255 : 65535))
    return asc_k_fail(k, line, "%s: the repeat stride %lld is outside [0, %d]", api,
                      (long long)rstride, scatter ? 255 : 65535);
  asc_k_sel s;
  if (asc_k_sel_make(k, &s, (int)kind, (uint64_t)m0, (uint64_t)m1, repeat, 1, per, 255, api, line))
    return 1;
  if (s.nrep > 0 &&
      asc_k_ub_use(k, ASC_K_V, spread, spread.len, es, scatter ? ASC_K_WRITE : ASC_K_READ, api,
                   scatter ? "dst" : "src", line))
    return 1;
  for (int64_t r = 0; r < s.nrep; r++)
    for (int64_t idx = 0; idx < per; idx++) {
      if (!asc_k_sel_on(&s, r, idx)) continue;
      int64_t i = r * per + idx, at_dense = r * rstride * 32 / es + idx;
      if (asc_k_ub_use(k, ASC_K_V, asc_k_local_slice(off, i, 4), 1, 4, ASC_K_READ, api, "offset",
                       line) ||
          asc_k_ub_use(k, ASC_K_V, asc_k_local_slice(dense, at_dense, es), 1, es,
                       scatter ? ASC_K_READ : ASC_K_WRITE, api, scatter ? "src" : "dst", line))
        return 1;
      if (asc_k_gs_move(k, scatter, spread, dense, at_dense * es, off, i, base, es, api, line))
        return 1;
    }
  return 0;
}
static inline int asc_k_gather_l0(asc_k_ctx *k, asc_k_lt dst, asc_k_lt src, asc_k_lt off,
                                  int64_t base, int64_t m0, int64_t m1, int64_t repeat,
                                  int64_t rstride, int64_t kind, int dt, int line) {
  return asc_k_gather_scatter_l0(k, 0, dst, src, off, base, m0, m1, repeat, rstride, kind, dt,
                                 line);
}
static inline int asc_k_scatter_l0(asc_k_ctx *k, asc_k_lt dst, asc_k_lt src, asc_k_lt off,
                                   int64_t base, int64_t m0, int64_t m1, int64_t repeat,
                                   int64_t rstride, int64_t kind, int dt, int line) {
  return asc_k_gather_scatter_l0(k, 1, dst, src, off, base, m0, m1, repeat, rstride, kind, dt,
                                 line);
}

/* brcb(dst, src, repeat, BrcbRepeatParams(dst_blk_stride, dst_rep_stride)):
 * repeat r takes src[8r .. 8r+7] and fills data block j of dst (at
 * (r * dst_rep_stride + j * dst_blk_stride) blocks) with copies of element j. */
static inline int asc_k_brcb(asc_k_ctx *k, asc_k_lt dst, asc_k_lt src, int64_t repeat, int64_t blk,
                             int64_t rep, int64_t es, int line) {
  if (repeat < 0 || repeat > 255)
    return asc_k_fail(k, line, "brcb: repeat_time %lld is outside [0, 255]", (long long)repeat);
  if (blk < 0 || blk > 65535 || rep < 0 || rep > 65535)
    return asc_k_fail(k, line, "brcb: BrcbRepeatParams strides must be in [0, 65535]");
  if (!repeat) return 0;
  /* the furthest block touched, in 32-byte blocks (small: all factors < 2**16) */
  int64_t last = (repeat - 1) * rep + 7 * blk, per = 32 / es;
  unsigned char vals[8 * 255 * 8];
  if (asc_k_ub_use(k, ASC_K_V, src, 8 * repeat, es, ASC_K_READ, "brcb", "src", line)) return 1;
  memcpy(vals, k->ub + src.off, (size_t)(8 * repeat * es));
  if (asc_k_ub_use(k, ASC_K_V, dst, (last + 1) * per, es, ASC_K_WRITE, "brcb", "dst", line))
    return 1;
  for (int64_t r = 0; r < repeat; r++)
    for (int64_t j = 0; j < 8; j++) {
      char *block = k->ub + dst.off + (r * rep + j * blk) * 32;
      for (int64_t e = 0; e < per; e++) memcpy(block + e * es, vals + (r * 8 + j) * es, (size_t)es);
    }
  return 0;
}
