/* fixpipe's most common form, fp32 L0C to a row-major (ND) fp32, fp16 or
 * bf16 matrix (NO_QUANT, F322F16, F322BF16, with or without relu), row by
 * row once the first and last element show that every access is in range
 * (included by cube_insn.h; asc_kc_fixpipe_run keeps the general walk and
 * its errors). With AVX2 and F16C, fp16 is converted 8 values at a time:
 * the instruction rounds to nearest even like asc_k_f2h, and only a NaN
 * converts differently (it sets the quiet bit), so 8 values holding a NaN
 * take the scalar conversion. */

#if ASC_KC_X86
/* 16 L0C values (one fractal row) to fp16, relu as `f < 0 ? 0 : f`
 * (which keeps -0.0 and NaN, as the general walk). */
__attribute__((target("avx2,f16c"))) static void asc_kc_fix16_f16c(char *d, const float *s,
                                                                   int64_t n, int relu) {
  for (int64_t h = 0; h + 8 <= n; h += 8) {
    __m256 v = _mm256_loadu_ps(s + h);
    if (relu)
      v = _mm256_blendv_ps(v, _mm256_setzero_ps(),
                           _mm256_cmp_ps(v, _mm256_setzero_ps(), _CMP_LT_OQ));
    if (_mm256_movemask_ps(_mm256_cmp_ps(v, v, _CMP_UNORD_Q))) {
      for (int j = 0; j < 8; j++) {
        uint16_t x = asc_k_f2h(relu && s[h + j] < 0 ? 0.0f : s[h + j]);
        memcpy(d + (h + j) * 2, &x, 2);
      }
      continue;
    }
    _mm_storeu_si128((__m128i *)(void *)(d + h * 2), _mm256_cvtps_ph(v, _MM_FROUND_TO_NEAREST_INT));
  }
  for (int64_t j = n / 8 * 8; j < n; j++) {
    uint16_t x = asc_k_f2h(relu && s[j] < 0 ? 0.0f : s[j]);
    memcpy(d + j * 2, &x, 2);
  }
}
#endif

/* Up to 16 values of one fractal row to dt, as the general walk does. */
static void asc_kc_fix16(char *d, const float *s, int64_t n, asc_kc_type dt, int relu, int simd) {
#if ASC_KC_X86
  if (simd && dt == ASC_KC_F16) {
    asc_kc_fix16_f16c(d, s, n, relu);
    return;
  }
#endif
  (void)simd;
  if (dt == ASC_KC_F32 && !relu) { /* the bits as they are, NaNs included */
    memcpy(d, s, (size_t)n * 4);
    return;
  }
  for (int64_t j = 0; j < n; j++) {
    float f = relu && s[j] < 0 ? 0.0f : s[j];
    if (dt == ASC_KC_F32) {
      memcpy(d + j * 4, &f, 4);
    } else {
      uint16_t x = dt == ASC_KC_F16 ? asc_k_f2h(f) : asc_k_f2bf(f);
      memcpy(d + j * 2, &x, 2);
    }
  }
}

/* The fast form when it applies and fits: 1 (done), else 0 (nothing
 * written; the general walk runs). Offsets grow with m and n (src_stride
 * >= m_size, dst_stride >= n_size), so the last element bounds them. */
static int asc_kc_fixpipe_nd(asc_kc_span dst, asc_kc_span src, asc_kc_type dt, asc_kc_type st,
                             const asc_kc_fixpipe *p) {
  const int conv = (p->quant == ASC_KC_NO_QUANT && dt == ASC_KC_F32) ||
                   (p->quant == ASC_KC_F322F16 && dt == ASC_KC_F16) ||
                   (p->quant == ASC_KC_F322BF16 && dt == ASC_KC_BF16);
  if (st != ASC_KC_F32 || p->nz_out || !conv || p->m_size <= 0 || p->n_size <= 0) return 0;
  const int des = asc_kc_esize(dt);
  const int64_t ln = p->n_size - 1, lm = p->m_size - 1;
  if (!asc_kc_in((((ln / 16) * p->src_stride + lm) * 16 + ln % 16) * 4, 4, src.n) ||
      !asc_kc_in((lm * p->dst_stride + ln) * des, des, dst.n))
    return 0;
  const int simd = asc_kc_simd_level() >= 1;
  for (int64_t m = 0; m < p->m_size; m++)
    for (int64_t nb = 0; nb * 16 < p->n_size; nb++) {
      const int64_t cols = p->n_size - nb * 16 < 16 ? p->n_size - nb * 16 : 16;
      const float *s = (const float *)(const void *)(src.p + ((nb * p->src_stride + m) * 16) * 4);
      asc_kc_fix16(dst.p + (m * p->dst_stride + nb * 16) * des, s, cols, dt, p->relu_en, simd);
    }
  return 1;
}
