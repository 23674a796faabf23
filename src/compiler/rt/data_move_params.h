/* --- data movement with parameters ------------------------------------------------------ */
/* data_copy(dst, src, DataCopyParams): block_count bursts of block_len
 * 32-byte blocks, src_stride/dst_stride blocks between bursts. dir: 0
 * GM->UB, 1 UB->GM, 2 UB->UB. */
static inline int asc_k_copy_params(asc_k_ctx *k, int dir, asc_k_lt lt_dst, asc_k_lt lt_src,
                                    asc_k_gt gt, int64_t bc, int64_t bl, int64_t ss, int64_t ds,
                                    int64_t es, int line) {
  if (bc < 0 || bl < 0 || ss < 0 || ds < 0)
    return asc_k_fail(k, line, "data_copy: DataCopyParams fields must not be negative");
  if (!bc || !bl) return 0;
  /* bursts start (bl + stride) blocks apart; a span is ASC_K_FAR if it overflows */
  int64_t src_step = asc_k_mul(asc_k_add(bl, ss), 32), dst_step = asc_k_mul(asc_k_add(bl, ds), 32),
          burst = asc_k_mul(bl, 32);
  int64_t src_span = asc_k_madd(burst, bc - 1, src_step),
          dst_span = asc_k_madd(burst, bc - 1, dst_step);
  int64_t src_n = src_span < 0 ? ASC_K_FAR : src_span / es,
          dst_n = dst_span < 0 ? ASC_K_FAR : dst_span / es;
  if (dir == 0) {
#if ASC_K_CHECKED
    if (src_n < 0 || asc_k_gm_range(k, &gt, 0, src_n, es, "data_copy", line) ||
        asc_k_chk_blocks(k, lt_dst, dst_n, es, line))
      return k->status ? 1
                       : asc_k_fail(k, line,
                                    "data_copy: global memory access outside the argument "
                                    "(the DataCopyParams span overflows)");
#endif
    if (asc_k_ub_use(k, ASC_K_MTE2, lt_dst, dst_n, es, ASC_K_WRITE, "data_copy", "dst", line))
      return 1;
  } else if (dir == 1) {
#if ASC_K_CHECKED
    if (dst_n < 0 || asc_k_gm_range(k, &gt, 0, dst_n, es, "data_copy", line) ||
        asc_k_chk_blocks(k, lt_src, src_n, es, line))
      return k->status ? 1
                       : asc_k_fail(k, line,
                                    "data_copy: global memory access outside the argument "
                                    "(the DataCopyParams span overflows)");
#endif
    if (asc_k_ub_use(k, ASC_K_MTE3, lt_src, src_n, es, ASC_K_READ, "data_copy", "src", line))
      return 1;
  } else if (asc_k_ub_use(k, ASC_K_V, lt_src, src_n, es, ASC_K_READ, "data_copy", "src", line) ||
             asc_k_ub_use(k, ASC_K_V, lt_dst, dst_n, es, ASC_K_WRITE, "data_copy", "dst", line)) {
    return 1;
  }
  /* The UB side's span passed its check, so its offsets fit; the GM side's
   * are checked per burst. */
  for (int64_t i = 0; i < bc; i++) {
    if (dir == 0)
      asc_k_gm_read(&gt, asc_k_madd(gt.lead, i, src_step), k->ub + lt_dst.off + i * dst_step,
                    burst);
    else if (dir == 1) {
      if (asc_k_gm_store(k, &gt, asc_k_madd(gt.lead, i, dst_step),
                         k->ub + lt_src.off + i * src_step, burst, es, "data_copy", line))
        return 1;
    } else
      memmove(k->ub + lt_dst.off + i * dst_step, k->ub + lt_src.off + i * src_step, (size_t)burst);
  }
  return 0;
}

#if ASC_K_CHECKED
/* data_copy_pad's checked-mode checks, the same both ways: the UB side
 * starts on a 32-byte boundary; the bc GM rows of bl bytes, gm_step
 * apart, lie inside the argument. */
static inline int asc_k_pad_ub_aligned(asc_k_ctx *k, asc_k_lt t, int line) {
  if (t.off % 32)
    return asc_k_fail(k, line,
                      "data_copy_pad: the LocalTensor starts at UB byte %lld, which is "
                      "not 32-byte aligned",
                      (long long)t.off);
  return 0;
}
static inline int asc_k_pad_gm_rows(asc_k_ctx *k, const asc_k_gt *g, int64_t bc, int64_t bl,
                                    int64_t gm_step, int64_t es, int line) {
  int64_t gm_span = asc_k_madd(bl, bc - 1, gm_step);
  if (gm_span < 0)
    return asc_k_fail(k, line,
                      "data_copy_pad: global memory access outside the argument (the "
                      "span overflows)");
  return asc_k_gm_range(k, g, 0, gm_span / es, es, "data_copy_pad", line);
}
#endif

/* data_copy_pad's byte counts: block_len whole elements; a GM stride (`what`) that is not is
 * run, as the MTE steps GM by bytes and one row uses none, but with rows after it the next row
 * starts mid-element, a slip checked mode reports. */
static inline int asc_k_pad_bytes(asc_k_ctx *k, int64_t bc, int64_t bl, int64_t gm_stride,
                                  int64_t es, const char *what, int line) {
  if (bl % es)
    return asc_k_fail(k, line,
                      "data_copy_pad: block_len (%lld) is bytes and must be whole %lld-byte "
                      "elements",
                      (long long)bl, (long long)es);
#if ASC_K_CHECKED
  if (bc > 1 && gm_stride % es)
    return asc_k_fail(k, line,
                      "data_copy_pad: %s (%lld) is bytes and is not whole %lld-byte elements: "
                      "the next row starts mid-element",
                      what, (long long)gm_stride, (long long)es);
#else
  (void)bc, (void)gm_stride, (void)what;
#endif
  return 0;
}

/* data_copy_pad GM->UB: block_count rows of block_len bytes; GM rows
 * src_stride bytes apart (after each row), UB rows start on 32-byte
 * boundaries, dst_stride blocks apart (after the row rounded up to 32
 * bytes). With is_pad, left/right_padding elements of padding_value
 * surround each row in UB; bytes up to the next boundary are untouched. */
static inline int asc_k_copy_pad_gm_ub(asc_k_ctx *k, int dt, asc_k_lt dst, asc_k_gt src, int64_t bc,
                                       int64_t bl, int64_t ss, int64_t ds, int is_pad, int64_t lp,
                                       int64_t rp, double pv, int line) {
  int64_t es = asc_k_dt_size(dt);
  if (bc < 0 || bl < 0 || ss < 0 || ds < 0 || lp < 0 || rp < 0)
    return asc_k_fail(k, line, "data_copy_pad: parameters must not be negative");
  if (asc_k_pad_bytes(k, bc, bl, ss, es, "src_stride", line)) return 1;
  if (!is_pad) lp = rp = 0;
  if (lp > 32 || rp > 32 || lp * es > 32 || rp * es > 32)
    return asc_k_fail(k, line, "data_copy_pad: padding of %lld/%lld elements exceeds 32 bytes",
                      (long long)lp, (long long)rp);
#if ASC_K_CHECKED
  if (asc_k_pad_ub_aligned(k, dst, line)) return 1;
#endif
  if (!bc) return 0;
  int64_t n = bl / es, row = asc_k_mul(asc_k_add(lp + rp, n), es);
  int64_t ub_stride = asc_k_add(asc_k_mul(asc_k_add(row, 31) / 32, 32), asc_k_mul(ds, 32));
  int64_t gm_step = asc_k_add(bl, ss), ub_span = asc_k_madd(row, bc - 1, ub_stride);
  if (row < 0 || ub_stride < 0) ub_span = ASC_K_FAR;
#if ASC_K_CHECKED
  if (asc_k_pad_gm_rows(k, &src, bc, bl, gm_step, es, line)) return 1;
#endif
  if (asc_k_ub_use(k, ASC_K_MTE2, dst, ub_span < 0 ? ASC_K_FAR : ub_span / es, es, ASC_K_WRITE,
                   "data_copy_pad", "dst", line))
    return 1;
  char pad[8];
  asc_k_cast_store(dt, pad, pv, 1);
  for (int64_t i = 0; i < bc; i++) {
    char *d = k->ub + dst.off + i * ub_stride;
    for (int64_t j = 0; j < lp; j++) memcpy(d + j * es, pad, (size_t)es);
    asc_k_gm_read(&src, asc_k_madd(src.lead, i, gm_step), d + lp * es, bl);
    for (int64_t j = 0; j < rp; j++) memcpy(d + (lp + n + j) * es, pad, (size_t)es);
    /* set_pad_value (rt/fwk.h): the rest of the row's last 32-byte block */
    for (int64_t j = row; k->fwk.pad_set && !is_pad && j + es <= (row + 31) / 32 * 32 &&
                          (d - k->ub) + j + es <= asc_k_ub_end(k);
         j += es)
      asc_k_cast_store(dt, d + j, k->fwk.pad_value, 1);
  }
  return 0;
}
/* data_copy_pad UB->GM: UB rows start on 32-byte boundaries, src_stride
 * blocks apart (after the rounded row); GM rows dst_stride bytes apart. */
static inline int asc_k_copy_pad_ub_gm(asc_k_ctx *k, int dt, asc_k_gt dst, asc_k_lt src, int64_t bc,
                                       int64_t bl, int64_t ss, int64_t ds, int line) {
  int64_t es = asc_k_dt_size(dt);
  if (bc < 0 || bl < 0 || ss < 0 || ds < 0)
    return asc_k_fail(k, line, "data_copy_pad: parameters must not be negative");
  if (asc_k_pad_bytes(k, bc, bl, ds, es, "dst_stride", line)) return 1;
#if ASC_K_CHECKED
  if (asc_k_pad_ub_aligned(k, src, line)) return 1;
#endif
  if (!bc) return 0;
  int64_t ub_stride = asc_k_add(asc_k_mul(asc_k_add(bl, 31) / 32, 32), asc_k_mul(ss, 32));
  int64_t gm_step = asc_k_add(bl, ds), ub_span = asc_k_madd(bl, bc - 1, ub_stride);
#if ASC_K_CHECKED
  if (asc_k_pad_gm_rows(k, &dst, bc, bl, gm_step, es, line)) return 1;
#endif
  if (asc_k_ub_use(k, ASC_K_MTE3, src, ub_span < 0 ? ASC_K_FAR : ub_span / es, es, ASC_K_READ,
                   "data_copy_pad", "src", line))
    return 1;
  for (int64_t i = 0; i < bc; i++)
    if (asc_k_gm_store(k, &dst, asc_k_madd(dst.lead, i, gm_step), k->ub + src.off + i * ub_stride,
                       bl, es, "data_copy_pad", line))
      return 1;
  return 0;
}
