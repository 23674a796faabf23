/* The cube with 4-bit signed integers (int4b_t, rt/int4.h), as dav-2201
 * runs them.
 *
 * A fractal of int4b_t is 16 x 64 elements (512 bytes, C0 = 64): in L0A
 * (ZZ) element (r, c) of fractal (r / 16, c / 64) at nibble
 * (r % 16) * 64 + c % 64; in L0B (ZN) element (k, n) of fractal
 * (k / 64, n / 16) at nibble (n % 16) * 64 + k % 64. Mmad multiplies them
 * into int32 in L0C (s4 x s4 -> s32).
 *
 * What moves whole bytes is the int8 form on the same bytes: Nd2Nz (its
 * parameters counted in bytes, as the documentation says for b4),
 * LoadData2DParams (fractals of 512 bytes, no transpose), and the img2col
 * load into L0A (channelSize, kExtension and kStartPt count elements: half
 * as many bytes). LoadDataWithTranspose into L0B joins four consecutive
 * 16 x 64 fractals into a 64 x 64 square (2048 bytes, the unit of
 * startIndex and srcStride), transposes it and writes its four fractals
 * from i * (1 + dstGap) * 512 bytes on, (1 + dstFracGap) fractals apart
 * (the int8 form's convention). */
#if defined(ASC_K_CUBE) && !defined(ASC_RT_CUBE_INT4_H)
#define ASC_RT_CUBE_INT4_H

/* Mmad of int4b_t: C (int32, L0C) = A (L0A) @ B (L0B) [+ C, or bias[n]],
 * on the m x n part of C's fractals (asc_kc_mmad's meaning of init and
 * has_bias). */
static int asc_kc_mmad_s4(asc_kc_span dst, asc_kc_span a, asc_kc_span b, asc_kc_span bias,
                          const asc_kc_mmad *p, asc_kc_err *e) __attribute__((unused));
static int asc_kc_mmad_s4(asc_kc_span dst, asc_kc_span a, asc_kc_span b, asc_kc_span bias,
                          const asc_kc_mmad *p, asc_kc_err *e) {
  if (asc_kc_mmad_extents(dst, a, b, bias, p, 64, e)) return -1; /* 64 nibbles a fractal row */
  const int64_t m1 = asc_kc_ceil16(p->m), n1 = asc_kc_ceil16(p->n), k1 = (p->k + 63) / 64;
  for (int64_t i = 0; i < p->m; i++)
    for (int64_t j = 0; j < p->n; j++) {
      char *c = dst.p + ((j / 16) * m1 + i / 16) * 1024 + ((i % 16) * 16 + j % 16) * 4;
      int32_t acc = 0;
      if (p->has_bias)
        memcpy(&acc, bias.p + j * 4, 4);
      else if (!(p->init & 1))
        memcpy(&acc, c, 4);
      /* |products| <= 64 and k <= 4095: the sum stays far inside int32 */
      for (int64_t q = 0; q < p->k; q++) {
        const char *fa = a.p + ((i / 16) * k1 + q / 64) * ASC_KC_FRACTAL_BYTES;
        const char *fb = b.p + ((q / 64) * n1 + j / 16) * ASC_KC_FRACTAL_BYTES;
        acc += asc_k_i4_get(fa, (i % 16) * 64 + q % 64) * asc_k_i4_get(fb, (j % 16) * 64 + q % 64);
      }
      memcpy(c, &acc, 4);
    }
  return 0;
}

/* LoadDataWithTranspose of int4b_t (see the top of this file). */
static int asc_kc_load_squares_s4(asc_kc_span dst, asc_kc_span src, const asc_kc_load2d *p,
                                  int64_t frac_gap, asc_kc_err *e) __attribute__((unused));
static int asc_kc_load_squares_s4(asc_kc_span dst, asc_kc_span src, const asc_kc_load2d *p,
                                  int64_t frac_gap, asc_kc_err *e) {
  if (asc_kc_transpose_params(p, frac_gap, e)) return -1;
  for (int64_t i = 0; i < p->repeat_times; i++) {
    const int64_t sq = p->start_index + i * p->src_stride, s = sq * 2048;
    const int64_t d0 = i * (1 + p->dst_gap) * ASC_KC_FRACTAL_BYTES,
                  step = (1 + frac_gap) * ASC_KC_FRACTAL_BYTES;
    if (!asc_kc_in(s, 2048, src.n))
      return asc_kc_fail(e, "load_data_with_transpose reads square %lld past src (%lld bytes)",
                         (long long)sq, (long long)src.n);
    if (!asc_kc_in(d0 + 3 * step, ASC_KC_FRACTAL_BYTES, dst.n))
      return asc_kc_fail(e, "load_data_with_transpose writes past dst (%lld bytes) in repeat %lld",
                         (long long)dst.n, (long long)i);
    char in[2048], out[2048];
    memcpy(in, src.p + s, sizeof in);
    for (int r = 0; r < 64; r++)
      for (int c = 0; c < 64; c++) asc_k_i4_put(out, c * 64 + r, asc_k_i4_get(in, r * 64 + c));
    for (int f = 0; f < 4; f++)
      memmove(dst.p + d0 + f * step, out + f * ASC_KC_FRACTAL_BYTES, ASC_KC_FRACTAL_BYTES);
  }
  return 0;
}

/* --- the kernel's view: int4b_t tensors (len in elements) ----------------- */

/* The cube buffer a tagged tensor lies in, -1 for none. */
static inline int asc_k_i4_buf(asc_k_lt t) {
  return t.off < 0 ? -1 : (int)((t.off >> ASC_KC_TAG_SHIFT) - 1);
}

/* LoadData with LoadData2DParams: the int8 form on the bytes. */
static int asc_k_cube_i4_load(asc_k_ctx *k, asc_k_lt dst, asc_k_lt src, asc_k_gt g, int gm,
                              int64_t start, int64_t repeat, int64_t src_stride, int64_t dst_gap,
                              int transpose, int line) __attribute__((unused));
static int asc_k_cube_i4_load(asc_k_ctx *k, asc_k_lt dst, asc_k_lt src, asc_k_gt g, int gm,
                              int64_t start, int64_t repeat, int64_t src_stride, int64_t dst_gap,
                              int transpose, int line) {
  if (transpose)
    return asc_k_fail(k, line, "LoadData: int4b_t fractals are not transposed (ifTranspose)");
  return gm ? asc_k_cube_load_gm(k, asc_k_i4_view(dst), g, ASC_KC_S8, start, repeat, src_stride,
                                 dst_gap, 0, line)
            : asc_k_cube_load_l1(k, asc_k_i4_view(dst), asc_k_i4_view(src), ASC_KC_S8, start,
                                 repeat, src_stride, dst_gap, 0, line);
}

/* Mmad with int4b_t fm and filter into int32 (bias: int32 in L1). */
static int asc_k_cube_i4_mmad(asc_k_ctx *k, asc_k_lt dst, asc_k_lt a, asc_k_lt b,
                              const asc_k_lt *bias, int64_t m, int64_t n, int64_t kk, int init,
                              int line) __attribute__((unused));
static int asc_k_cube_i4_mmad(asc_k_ctx *k, asc_k_lt dst, asc_k_lt a, asc_k_lt b,
                              const asc_k_lt *bias, int64_t m, int64_t n, int64_t kk, int init,
                              int line) {
  asc_kc_span sd, sa, sb, sbias = {NULL, 0};
  asc_kc_err e;
  if (asc_k_cube_local(k, dst, 4, ASC_KC_M_L0C, "mmad", "dst", &sd, line) ||
      asc_k_cube_local(k, asc_k_i4_view(a), 1, 1u << ASC_KC_L0A, "mmad", "fm", &sa, line) ||
      asc_k_cube_local(k, asc_k_i4_view(b), 1, 1u << ASC_KC_L0B, "mmad", "filter", &sb, line))
    return 1;
  if (bias && asc_k_cube_local(k, *bias, 4, ASC_KC_M_L1, "mmad", "bias", &sbias, line)) return 1;
  asc_kc_mmad p = {m, n, kk, init & 1, bias != NULL};
  if (asc_kc_mmad_s4(sd, sa, sb, sbias, &p, &e)) return asc_k_fail(k, line, "%s", e.msg);
  const int64_t m1 = asc_kc_ceil16(m), n1 = asc_kc_ceil16(n), k1 = (kk + 63) / 64;
  if (asc_k_cube_use(k, ASC_K_M, sa, 0, m1 * k1 * 512, 0, "mmad", "fm", line) ||
      asc_k_cube_use(k, ASC_K_M, sb, 0, k1 * n1 * 512, 0, "mmad", "filter", line) ||
      (bias && asc_k_cube_use(k, ASC_K_M, sbias, 0, n * 4, 0, "mmad", "bias", line)) ||
      asc_k_cube_use(k, ASC_K_M, sd, 0, m1 * n1 * 1024, 1, "mmad", "dst", line))
    return 1;
  return 0;
}

/* LoadDataWithTranspose(dst L0B, src L1) of int4b_t. */
static int asc_k_cube_i4_load_t(asc_k_ctx *k, asc_k_lt dst, asc_k_lt src, int64_t start,
                                int64_t repeat, int64_t src_stride, int64_t dst_gap,
                                int64_t frac_gap, int line) __attribute__((unused));
static int asc_k_cube_i4_load_t(asc_k_ctx *k, asc_k_lt dst, asc_k_lt src, int64_t start,
                                int64_t repeat, int64_t src_stride, int64_t dst_gap,
                                int64_t frac_gap, int line) {
  static const char api[] = "load_data_with_transpose";
  asc_kc_span d, s;
  asc_kc_err e;
  if (asc_k_i4_buf(dst) == ASC_KC_L0A)
    return asc_k_fail(k, line, "%s: int4b_t is transposed into L0B (B2) only", api);
  if (asc_k_cube_local(k, asc_k_i4_view(dst), 1, 1u << ASC_KC_L0B, api, "dst", &d, line) ||
      asc_k_cube_local(k, asc_k_i4_view(src), 1, ASC_KC_M_L1, api, "src", &s, line))
    return 1;
  asc_kc_load2d p = {start, repeat, src_stride, dst_gap, 1};
  if (asc_kc_load_squares_s4(d, s, &p, frac_gap, &e)) return asc_k_fail(k, line, "%s", e.msg);
  asc_kc_core *core = (asc_kc_core *)k->cube;
  for (int64_t i = 0; i < repeat; i++) {
    const int64_t d0 = i * (1 + dst_gap) * 512, step = (1 + frac_gap) * 512;
    if (asc_k_cube_use(k, ASC_K_MTE1, s, (start + i * src_stride) * 2048, 2048, 0, api, "src",
                       line))
      return 1;
    for (int f = 0; f < 4; f++) {
      memset(asc_kc_l0b_idx(core, d) + d0 + f * step, 0xFF, 512); /* dense data: no index */
      if (asc_k_cube_use(k, ASC_K_MTE1, d, d0 + f * step, 512, 1, api, "dst", line)) return 1;
    }
  }
  return 0;
}

/* LoadData with LoadData3DParamsV2 of int4b_t (v as asc_k_load3d_v2's):
 * the int8 load on the bytes, into L0A only. */
static int asc_k_cube_i4_load3d(asc_k_ctx *k, asc_k_lt dst, asc_k_lt src, const int64_t *v,
                                double pad, int line) __attribute__((unused));
static int asc_k_cube_i4_load3d(asc_k_ctx *k, asc_k_lt dst, asc_k_lt src, const int64_t *v,
                                double pad, int line) {
  static const char api[] = "LoadData (LoadData3DParamsV2)";
  /* v: padList[4], l1H, l1W, channelSize, kExtension, mExtension, kStartPt, mStartPt, strideW,
   * strideH, filterW, filterH, dilationFilterW, dilationFilterH, enTranspose, ... */
  int64_t w[21];
  memcpy(w, v, sizeof w);
  if (asc_k_i4_buf(dst) != ASC_KC_L0A)
    return asc_k_fail(k, line, "%s: int4b_t is loaded into L0A (A2) only", api);
  if (w[17]) return asc_k_fail(k, line, "%s: int4b_t is not transposed (enTranspose)", api);
  if ((w[6] & 1) || (w[7] & 1) || (w[9] & 1))
    return asc_k_fail(k, line,
                      "%s: int4b_t's channelSize %lld, kExtension %lld and kStartPt %lld must be "
                      "even (whole bytes)",
                      api, (long long)w[6], (long long)w[7], (long long)w[9]);
  w[6] /= 2, w[7] /= 2, w[9] /= 2;
  return asc_k_load3d_v2(k, asc_k_i4_view(dst), asc_k_i4_view(src), ASC_KC_S8, ASC_K_DT_INT8, w,
                         pad, line);
}

#endif /* ASC_K_CUBE && !ASC_RT_CUBE_INT4_H */
