/* mmad with AVX-512 (included by cube_insn.h on x86-64 GCC/clang): the
 * same sums as the portable path, bit for bit, at the host's vector width.
 *
 * Why the results cannot change: every output element starts from the
 * same value (bias, zero or L0C's) and adds its k products in increasing
 * k, one product at a time, exactly as asc_kc_tile_scalar does; only the
 * grouping of independent elements into vectors and the order in which
 * output fractals are visited differ. A product of two fp16 values is
 * exact in fp32 (11 x 11 significant bits, exponents far inside fp32's
 * range), so a fused multiply-add rounds once where the portable
 * `c += a * b` rounds the (exact) product and then the sum: the same
 * result. bf16 and fp32 products can round (fp32 mantissas; bf16 products
 * below fp32's normal range), so they are multiplied and added as two
 * instructions, as the portable path does. AVX-512 BF16's dot product
 * pairs two products before adding them, which is a different sum: it is
 * not used. int8 products are summed in wrapping int32, which does not
 * depend on the order.
 *
 * Layout of the work: A is widened to m1 panels of kp x 16 (K-major: the
 * 16 rows' values for one k lie in one 64-byte line, each L0A fractal
 * transposed in registers) and B to n1 panels of kp x 16 (each L0B
 * fractal transposed likewise); each 16 x 16 L0C fractal is then
 * accumulated in place, 16 rows in 16 registers, over chunks of K small
 * enough that the A and B panels of a chunk stay in the L1 data cache.
 * K-major A lets every broadcast of a step address one pointer plus a
 * constant: with 16 row pointers the compiler ran out of registers and
 * reloaded them from the stack inside the loop. */
#define ASC_KC_T512 __attribute__((target("avx512f,avx512bw,avx512dq,avx512vl,avx2,fma,f16c")))

/* The AVX-512 subset this file uses (the target attribute's list). */
static int asc_kc_has_avx512(void) {
  return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
         __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("avx512vl") &&
         __builtin_cpu_supports("fma") && __builtin_cpu_supports("avx2");
}

/* 16 values of a 2-byte type (fp16 or bf16) widened to fp32, exactly. */
ASC_KC_T512 static inline __m512 asc_kc_w16_512(const char *src, asc_kc_type t) {
  __m256i h = _mm256_loadu_si256((const __m256i *)(const void *)src);
  if (t == ASC_KC_F16) return _mm512_cvtph_ps(h);
  return _mm512_castsi512_ps(_mm512_slli_epi32(_mm512_cvtepu16_epi32(h), 16));
}

/* Transposes the 16 x 16 floats r[0..15] (rows) in place: the classic
 * four rounds of unpack and shuffle, indices constant so that the array
 * stays in registers (always inlined: with two callers GCC called it, and
 * the array went through memory). */
ASC_KC_T512 static inline __attribute__((always_inline)) void asc_kc_tr16_512(__m512 *r) {
  __m512 t[16];
  for (int i = 0; i < 16; i += 2) {
    t[i] = _mm512_unpacklo_ps(r[i], r[i + 1]);
    t[i + 1] = _mm512_unpackhi_ps(r[i], r[i + 1]);
  }
  for (int i = 0; i < 16; i += 4) {
    r[i] = _mm512_shuffle_ps(t[i], t[i + 2], 0x44);
    r[i + 1] = _mm512_shuffle_ps(t[i], t[i + 2], 0xEE);
    r[i + 2] = _mm512_shuffle_ps(t[i + 1], t[i + 3], 0x44);
    r[i + 3] = _mm512_shuffle_ps(t[i + 1], t[i + 3], 0xEE);
  }
  for (int i = 0; i < 8; i++) {
    int b = (i / 4) * 8 + i % 4; /* rows b and b + 4 */
    t[b] = _mm512_shuffle_f32x4(r[b], r[b + 4], 0x88);
    t[b + 4] = _mm512_shuffle_f32x4(r[b], r[b + 4], 0xDD);
  }
  for (int i = 0; i < 8; i++) {
    r[i] = _mm512_shuffle_f32x4(t[i], t[i + 8], 0x88);
    r[i + 8] = _mm512_shuffle_f32x4(t[i], t[i + 8], 0xDD);
  }
}

/* A: fractal (i, j) row r, K element e -> wa[(i*kp + j*c0 + e)*16 + r]:
 * panel i, K-major (int8 widened to int32 bit patterns). */
ASC_KC_T512 static void asc_kc_widen_a512(float *wa, const char *a, asc_kc_type t, int64_t m1,
                                          int64_t k1, int64_t kp) {
  const int c0 = asc_kc_c0(t);
  for (int64_t i = 0; i < m1; i++)
    for (int64_t j = 0; j < k1; j++) {
      const char *f = a + (i * k1 + j) * ASC_KC_FRACTAL_BYTES;
      float *o = wa + (i * kp + j * c0) * 16;
      if (t == ASC_KC_F16 || t == ASC_KC_BF16) {
        __m512 r[16];
        for (int c = 0; c < 16; c++) r[c] = asc_kc_w16_512(f + c * ASC_KC_BLOCK_BYTES, t);
        asc_kc_tr16_512(r);
        for (int e = 0; e < 16; e++) _mm512_storeu_ps(o + e * 16, r[e]);
      } else if (t == ASC_KC_F32) {
        for (int r = 0; r < 16; r++)
          for (int e = 0; e < c0; e++) memcpy(o + e * 16 + r, f + (r * c0 + e) * 4, 4);
      } else {
        int32_t *io = (int32_t *)(void *)o;
        for (int r = 0; r < 16; r++)
          for (int e = 0; e < c0; e++) io[e * 16 + r] = (int8_t)f[r * c0 + e];
      }
    }
}

/* B: fractal (j, nb) row c (column nb*16 + c of B, a run along K) ->
 * panel nb, wb[nb][q][c]. 2-byte types transpose a widened fractal in
 * registers; fp32 (8 K values a row) and int8 (32) go element by element,
 * like the portable path. */
ASC_KC_T512 static void asc_kc_widen_b512(float *wb, const char *b, asc_kc_type t, int64_t n1,
                                          int64_t k1, int64_t kp) {
  const int c0 = asc_kc_c0(t);
  for (int64_t nb = 0; nb < n1; nb++)
    for (int64_t j = 0; j < k1; j++) {
      const char *f = b + (j * n1 + nb) * ASC_KC_FRACTAL_BYTES;
      float *o = wb + nb * kp * 16 + j * c0 * 16;
      if (t == ASC_KC_F16 || t == ASC_KC_BF16) {
        __m512 r[16];
        for (int c = 0; c < 16; c++) r[c] = asc_kc_w16_512(f + c * ASC_KC_BLOCK_BYTES, t);
        asc_kc_tr16_512(r);
        for (int q = 0; q < 16; q++) _mm512_storeu_ps(o + q * 16, r[q]);
      } else if (t == ASC_KC_F32) {
        for (int c = 0; c < 16; c++)
          for (int q = 0; q < c0; q++) memcpy(o + q * 16 + c, f + (c * c0 + q) * 4, 4);
      } else {
        int32_t *io = (int32_t *)(void *)o;
        for (int c = 0; c < 16; c++)
          for (int q = 0; q < c0; q++) io[q * 16 + c] = (int8_t)f[c * c0 + q];
      }
    }
}

/* Expands X(r) for the 16 rows of a fractal: the tile kernel names its
 * accumulators c0..c15 so that they live in registers at any -O. */
#define ASC_KC_ROWS16(X) \
  X(0) X(1) X(2) X(3) X(4) X(5) X(6) X(7) X(8) X(9) X(10) X(11) X(12) X(13) X(14) X(15)

/* How a tile's accumulators start: from L0C, or from one row value
 * (zero or the bias) for every row. */
typedef struct asc_kc_start512 {
  int from_c;
  __m512 row;
} asc_kc_start512;

/* The first `rows` (1..16) rows of an L0C fractal (ct, row-major 16 x 16)
 * += A panel (a, K-major) x B panel rows q in [0, k); columns where `cols`
 * has no bit keep what they held. fma: fused multiply-add (fp16, see
 * above). All 16 rows are computed whatever `rows` is (the panel's rows
 * past it hold whatever L0A held, and a fractal of L0C always has 16):
 * a row at a time would wait on each add's latency. */
ASC_KC_T512 static void asc_kc_tile16_512(float *ct, asc_kc_start512 st, __mmask16 cols,
                                          int64_t rows, const float *a, const float *bp, int64_t k,
                                          int fma) {
#define ASC_KC_LD(r) __m512 c##r = st.from_c ? _mm512_loadu_ps(ct + (r)*16) : st.row;
#define ASC_KC_FMA(r) c##r = _mm512_fmadd_ps(_mm512_set1_ps(aq[r]), b, c##r);
#define ASC_KC_MULADD(r) c##r = _mm512_add_ps(c##r, _mm512_mul_ps(_mm512_set1_ps(aq[r]), b));
#define ASC_KC_ST(r) \
  if ((r) < rows) _mm512_mask_storeu_ps(ct + (r)*16, cols, c##r);
  ASC_KC_ROWS16(ASC_KC_LD)
  if (fma)
    for (int64_t q = 0; q < k; q++) {
      const __m512 b = _mm512_loadu_ps(bp + q * 16);
      const float *aq = a + q * 16;
      ASC_KC_ROWS16(ASC_KC_FMA)
    }
  else
    for (int64_t q = 0; q < k; q++) {
      const __m512 b = _mm512_loadu_ps(bp + q * 16);
      const float *aq = a + q * 16;
      ASC_KC_ROWS16(ASC_KC_MULADD)
    }
  ASC_KC_ROWS16(ASC_KC_ST)
#undef ASC_KC_LD
#undef ASC_KC_FMA
#undef ASC_KC_MULADD
#undef ASC_KC_ST
}

/* int8: int32 rows of a fractal += A rows x B panel (wrapping, as
 * asc_kc_tile_int). */
ASC_KC_T512 static void asc_kc_tile_int512(int32_t *ct, asc_kc_start512 st, __mmask16 cols,
                                           const int32_t *a, int64_t rows, const int32_t *bp,
                                           int64_t k) {
  for (int64_t r = 0; r < rows; r++) {
    __m512i c =
        st.from_c ? _mm512_loadu_si512((const void *)(ct + r * 16)) : _mm512_castps_si512(st.row);
    for (int64_t q = 0; q < k; q++)
      c = _mm512_add_epi32(c, _mm512_mullo_epi32(_mm512_set1_epi32(a[q * 16 + r]),
                                                 _mm512_loadu_si512((const void *)(bp + q * 16))));
    _mm512_mask_storeu_epi32(ct + r * 16, cols, c);
  }
}

/* The accumulators' start for output column block nb in the first K
 * chunk: the bias (columns past n zero), zero, or L0C's old value. */
ASC_KC_T512 static asc_kc_start512 asc_kc_start_512(asc_kc_span bias, const asc_kc_mmad *p,
                                                    int64_t nb, __mmask16 cols) {
  asc_kc_start512 st = {0, _mm512_setzero_ps()};
  if (p->has_bias)
    st.row = _mm512_maskz_loadu_ps(cols, bias.p + nb * 64);
  else if (!p->init)
    st.from_c = 1;
  return st;
}

/* The compute of mmad_run after its checks: dst (L0C) = A (L0A) x B (L0B)
 * as asc_kc_mmad_run defines it. */
ASC_KC_T512 static void asc_kc_mmad512(asc_kc_core *core, asc_kc_span dst, asc_kc_span a,
                                       asc_kc_span b, asc_kc_span bias, asc_kc_type t,
                                       const asc_kc_mmad *p) {
  const int c0 = asc_kc_c0(t), isint = t == ASC_KC_S8, fma = t == ASC_KC_F16;
  const int64_t m1 = asc_kc_ceil16(p->m), n1 = asc_kc_ceil16(p->n), k1 = (p->k + c0 - 1) / c0;
  const int64_t kp = k1 * c0;
  float *wa = core->scr_a, *wb = core->scr_b;
  asc_kc_widen_a512(wa, a.p, t, m1, k1, kp);
  asc_kc_widen_b512(wb, b.p, t, n1, k1, kp);
  for (int64_t q0 = 0; q0 < p->k || q0 == 0; q0 += ASC_KC_KCHUNK) {
    const int64_t kc = p->k - q0 < ASC_KC_KCHUNK ? p->k - q0 : ASC_KC_KCHUNK;
    for (int64_t i = 0; i < m1; i++) {
      const int64_t rows = p->m - i * 16 < 16 ? p->m - i * 16 : 16;
      const float *apanel = wa + (i * kp + q0) * 16;
      for (int64_t nb = 0; nb < n1; nb++) {
        const int64_t ncols = p->n - nb * 16 < 16 ? p->n - nb * 16 : 16;
        const __mmask16 cols = (__mmask16)((1u << ncols) - 1u);
        float *ct = (float *)(void *)(dst.p + (nb * m1 + i) * 1024);
        const float *bp = wb + nb * kp * 16 + q0 * 16;
        asc_kc_start512 st = {1, _mm512_setzero_ps()};
        if (q0 == 0) st = asc_kc_start_512(bias, p, nb, cols);
        if (isint)
          asc_kc_tile_int512((int32_t *)(void *)ct, st, cols, (const int32_t *)(const void *)apanel,
                             rows, (const int32_t *)(const void *)bp, kc);
        else
          asc_kc_tile16_512(ct, st, cols, rows, apanel, bp, kc, fma);
      }
    }
  }
}
