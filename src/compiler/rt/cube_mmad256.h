/* mmad with AVX2, FMA and F16C (included by cube_insn.h on x86-64
 * GCC/clang): the AVX-512 path's plan (cube_mmad512.h, which says why the
 * sums are the portable path's bit for bit) at 8 lanes. A 16-column row
 * of a fractal is two registers; a tile is 4 rows (8 accumulators, with
 * the two B registers and a broadcast 11 of the 16). */
#define ASC_KC_T256 __attribute__((target("avx2,fma,f16c")))

/* K per chunk (both paths): 16 A rows and a 16-column B panel of 128
 * floats each are 16 KiB, half of a typical 32 KiB L1 data cache. */
#define ASC_KC_KCHUNK 128

/* 8 values of a 2-byte type (fp16 or bf16) widened to fp32, exactly. */
ASC_KC_T256 static inline __m256 asc_kc_w8_256(const char *src, asc_kc_type t) {
  __m128i h = _mm_loadu_si128((const __m128i *)(const void *)src);
  if (t == ASC_KC_F16) return _mm256_cvtph_ps(h);
  return _mm256_castsi256_ps(_mm256_slli_epi32(_mm256_cvtepu16_epi32(h), 16));
}

/* A: fractal (i, j) row r -> wa[(i*16 + r) * kp + j*c0 ...] (int8 as
 * int32 bit patterns), as asc_kc_widen_scalar lays it out. */
ASC_KC_T256 static void asc_kc_widen_a256(float *wa, const char *a, asc_kc_type t, int64_t m1,
                                          int64_t k1, int64_t kp) {
  const int c0 = asc_kc_c0(t);
  for (int64_t i = 0; i < m1; i++)
    for (int64_t j = 0; j < k1; j++)
      for (int r = 0; r < 16; r++) {
        const char *s = a + (i * k1 + j) * ASC_KC_FRACTAL_BYTES + r * ASC_KC_BLOCK_BYTES;
        float *o = wa + (i * 16 + r) * kp + j * c0;
        if (t == ASC_KC_F16 || t == ASC_KC_BF16) {
          _mm256_storeu_ps(o, asc_kc_w8_256(s, t));
          _mm256_storeu_ps(o + 8, asc_kc_w8_256(s + 16, t));
        } else if (t == ASC_KC_F32) {
          memcpy(o, s, ASC_KC_BLOCK_BYTES);
        } else {
          for (int h = 0; h < 4; h++)
            _mm256_storeu_si256(
                (__m256i *)(void *)(o + 8 * h),
                _mm256_cvtepi8_epi32(_mm_loadl_epi64((const __m128i *)(const void *)(s + 8 * h))));
        }
      }
}

/* Transposes the 8 x 8 floats r[0..7] (rows) in place. */
ASC_KC_T256 static inline void asc_kc_tr8_256(__m256 *r) {
  __m256 t[8], u[8];
  for (int i = 0; i < 8; i += 2) {
    t[i] = _mm256_unpacklo_ps(r[i], r[i + 1]);
    t[i + 1] = _mm256_unpackhi_ps(r[i], r[i + 1]);
  }
  for (int i = 0; i < 8; i += 4) {
    u[i] = _mm256_shuffle_ps(t[i], t[i + 2], 0x44);
    u[i + 1] = _mm256_shuffle_ps(t[i], t[i + 2], 0xEE);
    u[i + 2] = _mm256_shuffle_ps(t[i + 1], t[i + 3], 0x44);
    u[i + 3] = _mm256_shuffle_ps(t[i + 1], t[i + 3], 0xEE);
  }
  for (int i = 0; i < 4; i++) {
    r[i] = _mm256_permute2f128_ps(u[i], u[i + 4], 0x20);
    r[i + 4] = _mm256_permute2f128_ps(u[i], u[i + 4], 0x31);
  }
}

/* One 16 x 16 fractal of a 2-byte type (row c: 16 K values of column c)
 * to 16 panel rows of 16 floats (row q: column values at K = q): four
 * 8 x 8 transposes of the widened quarters. */
ASC_KC_T256 static void asc_kc_tr_fractal256(float *o, const char *f, asc_kc_type t) {
  for (int qh = 0; qh < 2; qh++)     /* K half: q in [8 qh, 8 qh + 8) */
    for (int ch = 0; ch < 2; ch++) { /* column half */
      __m256 r[8];
      for (int c = 0; c < 8; c++)
        r[c] = asc_kc_w8_256(f + (ch * 8 + c) * ASC_KC_BLOCK_BYTES + qh * 16, t);
      asc_kc_tr8_256(r);
      for (int q = 0; q < 8; q++) _mm256_storeu_ps(o + (qh * 8 + q) * 16 + ch * 8, r[q]);
    }
}

/* How a tile's accumulators start: from L0C, or from one row value (zero
 * or the bias, lo and hi 8 columns) for every row. */
typedef struct asc_kc_start256 {
  int from_c;
  __m256 lo, hi;
} asc_kc_start256;

/* Where a row of 16 columns is written: all of it, or the first `cols`
 * (the mask's lanes; a fractal's columns past n keep what they held). */
typedef struct asc_kc_cols256 {
  int all;
  __m256i lo, hi;
} asc_kc_cols256;

ASC_KC_T256 static inline void asc_kc_store_row256(float *row, asc_kc_cols256 m, __m256 lo,
                                                   __m256 hi) {
  if (m.all) {
    _mm256_storeu_ps(row, lo);
    _mm256_storeu_ps(row + 8, hi);
  } else {
    _mm256_maskstore_ps(row, m.lo, lo);
    _mm256_maskstore_ps(row + 8, m.hi, hi);
  }
}

/* 4 rows of an L0C fractal (ct, 16 floats a row) += A rows (lda apart) x
 * B panel rows q in [0, k), of which the first `keep` are stored. fma:
 * fused multiply-add (fp16 inputs). A fractal's last rows past m are
 * computed from L0A's padding rows and dropped: four rows at full speed
 * cost less than one or two on their own, whose few sums wait on each
 * other. */
ASC_KC_T256 static void asc_kc_tile4_256(float *ct, asc_kc_start256 st, asc_kc_cols256 cm,
                                         const float *a, int64_t lda, const float *bp, int64_t k,
                                         int fma, int keep) {
#define ASC_KC_ROWS4(X) X(0) X(1) X(2) X(3)
#define ASC_KC_LD(r)                                              \
  __m256 l##r = st.from_c ? _mm256_loadu_ps(ct + (r)*16) : st.lo; \
  __m256 h##r = st.from_c ? _mm256_loadu_ps(ct + (r)*16 + 8) : st.hi;
#define ASC_KC_FMA(r)                       \
  x = _mm256_broadcast_ss(a + (r)*lda + q); \
  l##r = _mm256_fmadd_ps(x, b0, l##r);      \
  h##r = _mm256_fmadd_ps(x, b1, h##r);
#define ASC_KC_MULADD(r)                            \
  x = _mm256_broadcast_ss(a + (r)*lda + q);         \
  l##r = _mm256_add_ps(l##r, _mm256_mul_ps(x, b0)); \
  h##r = _mm256_add_ps(h##r, _mm256_mul_ps(x, b1));
#define ASC_KC_ST(r) \
  if ((r) < keep) asc_kc_store_row256(ct + (r)*16, cm, l##r, h##r);
  ASC_KC_ROWS4(ASC_KC_LD)
  if (fma)
    for (int64_t q = 0; q < k; q++) {
      const __m256 b0 = _mm256_loadu_ps(bp + q * 16), b1 = _mm256_loadu_ps(bp + q * 16 + 8);
      __m256 x;
      ASC_KC_ROWS4(ASC_KC_FMA)
    }
  else
    for (int64_t q = 0; q < k; q++) {
      const __m256 b0 = _mm256_loadu_ps(bp + q * 16), b1 = _mm256_loadu_ps(bp + q * 16 + 8);
      __m256 x;
      ASC_KC_ROWS4(ASC_KC_MULADD)
    }
  ASC_KC_ROWS4(ASC_KC_ST)
#undef ASC_KC_ROWS4
#undef ASC_KC_LD
#undef ASC_KC_FMA
#undef ASC_KC_MULADD
#undef ASC_KC_ST
}

/* int8: one int32 row += A row x B panel (wrapping, as asc_kc_tile_int). */
ASC_KC_T256 static void asc_kc_tile_int256(int32_t *ct, asc_kc_start256 st, asc_kc_cols256 cm,
                                           const int32_t *a, const int32_t *bp, int64_t k) {
  __m256i lo = st.from_c ? _mm256_loadu_si256((const __m256i *)(const void *)ct)
                         : _mm256_castps_si256(st.lo),
          hi = st.from_c ? _mm256_loadu_si256((const __m256i *)(const void *)(ct + 8))
                         : _mm256_castps_si256(st.hi);
  for (int64_t q = 0; q < k; q++) {
    const __m256i x = _mm256_set1_epi32(a[q]);
    lo = _mm256_add_epi32(
        lo,
        _mm256_mullo_epi32(x, _mm256_loadu_si256((const __m256i *)(const void *)(bp + q * 16))));
    hi = _mm256_add_epi32(
        hi, _mm256_mullo_epi32(
                x, _mm256_loadu_si256((const __m256i *)(const void *)(bp + q * 16 + 8))));
  }
  asc_kc_store_row256((float *)(void *)ct, cm, _mm256_castsi256_ps(lo), _mm256_castsi256_ps(hi));
}

/* The column mask of output block nb, and its accumulators' start in the
 * first K chunk: the bias (columns past n zero), zero, or L0C's value. */
ASC_KC_T256 static void asc_kc_block_setup256(asc_kc_span bias, const asc_kc_mmad *p, int64_t nb,
                                              asc_kc_cols256 *cm, asc_kc_start256 *st) {
  const int64_t ncols = p->n - nb * 16 < 16 ? p->n - nb * 16 : 16;
  const __m256i lane = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
  cm->all = ncols == 16;
  cm->lo = _mm256_cmpgt_epi32(_mm256_set1_epi32((int)ncols), lane);
  cm->hi = _mm256_cmpgt_epi32(_mm256_set1_epi32((int)ncols - 8), lane);
  st->from_c = !p->has_bias && !p->init;
  st->lo = st->hi = _mm256_setzero_ps();
  if (p->has_bias) {
    st->lo = _mm256_maskload_ps((const float *)(const void *)(bias.p + nb * 64), cm->lo);
    st->hi = _mm256_maskload_ps((const float *)(const void *)(bias.p + nb * 64 + 32), cm->hi);
  }
}

/* The rows of one L0C fractal for K chunk [q0, q0 + kc). */
ASC_KC_T256 static void asc_kc_fractal256(float *ct, asc_kc_start256 st, asc_kc_cols256 cm,
                                          const float *arow, int64_t kp, int64_t rows,
                                          const float *bp, int64_t kc, int isint, int fma) {
  if (!isint) {
    for (int64_t r = 0; r < rows; r += 4) /* rows <= 16: the last group stays in the fractal */
      asc_kc_tile4_256(ct + r * 16, st, cm, arow + r * kp, kp, bp, kc, fma,
                       (int)(rows - r < 4 ? rows - r : 4));
    return;
  }
  for (int64_t r = 0; r < rows; r++)
    asc_kc_tile_int256((int32_t *)(void *)(ct + r * 16), st, cm,
                       (const int32_t *)(const void *)(arow + r * kp),
                       (const int32_t *)(const void *)bp, kc);
}

/* L0C's output fractals (dst, p->m x p->n) += A x B over k values of K,
 * as asc_kc_tiles512 (the same arguments). */
ASC_KC_T256 static void asc_kc_tiles256(asc_kc_span dst, asc_kc_span bias, const asc_kc_mmad *p,
                                        asc_kc_type t, int first, const float *wa, int64_t lda,
                                        const float *wb, int64_t ldb, int64_t k) {
  const int isint = t == ASC_KC_S8, fma = t == ASC_KC_F16;
  const int64_t m1 = asc_kc_ceil16(p->m), n1 = asc_kc_ceil16(p->n);
  for (int64_t nb = 0; nb < n1; nb++) {
    asc_kc_cols256 cm;
    asc_kc_start256 st;
    asc_kc_block_setup256(bias, p, nb, &cm, &st);
    if (!first) st.from_c = 1;
    for (int64_t i = 0; i < m1; i++) {
      const int64_t rows = p->m - i * 16 < 16 ? p->m - i * 16 : 16;
      asc_kc_fractal256((float *)(void *)(dst.p + (nb * m1 + i) * 1024), st, cm, wa + i * 16 * lda,
                        lda, rows, wb + nb * ldb * 16, k, isint, fma);
    }
  }
}

static const asc_kc_simd asc_kc_simd256 = {asc_kc_widen_a256, asc_kc_tr_fractal256,
                                           asc_kc_tiles256};
