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
 * Layout of the work: A is widened row by row as L0A holds it (each
 * fractal row's K values in one line, rows kp apart: no transpose) and B
 * to n1 panels of kp x 16 (each L0B fractal transposed in registers); a
 * step of the tile kernel takes 8 rows of A and two output fractals side
 * by side, so that its 16 fused multiply-adds read two B lines and 8
 * broadcasts (16 accumulators + 17 loads a step left the loads the
 * bottleneck). K is cut in chunks small enough that the A rows and B
 * panels of a chunk stay in the L1 data cache. */
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
 * stays in registers (always inlined, and every loop unrolled: the kernel
 * build's -O1 unrolls none by itself, and the arrays went through the
 * stack). */
ASC_KC_T512 static inline __attribute__((always_inline)) void asc_kc_tr16_512(__m512 *r) {
  __m512 t[16];
#pragma GCC unroll 16
  for (int i = 0; i < 16; i += 2) {
    t[i] = _mm512_unpacklo_ps(r[i], r[i + 1]);
    t[i + 1] = _mm512_unpackhi_ps(r[i], r[i + 1]);
  }
#pragma GCC unroll 16
  for (int i = 0; i < 16; i += 4) {
    r[i] = _mm512_shuffle_ps(t[i], t[i + 2], 0x44);
    r[i + 1] = _mm512_shuffle_ps(t[i], t[i + 2], 0xEE);
    r[i + 2] = _mm512_shuffle_ps(t[i + 1], t[i + 3], 0x44);
    r[i + 3] = _mm512_shuffle_ps(t[i + 1], t[i + 3], 0xEE);
  }
#pragma GCC unroll 16
  for (int i = 0; i < 8; i++) {
    int b = (i / 4) * 8 + i % 4; /* rows b and b + 4 */
    t[b] = _mm512_shuffle_f32x4(r[b], r[b + 4], 0x88);
    t[b + 4] = _mm512_shuffle_f32x4(r[b], r[b + 4], 0xDD);
  }
#pragma GCC unroll 16
  for (int i = 0; i < 8; i++) {
    r[i] = _mm512_shuffle_f32x4(t[i], t[i + 8], 0x88);
    r[i + 8] = _mm512_shuffle_f32x4(t[i], t[i + 8], 0xDD);
  }
}

/* A: fractal (i, j) row r, K element e -> wa[(i*16 + r)*kp + j*c0 + e]
 * (int8 widened to int32 bit patterns), the portable path's layout. */
ASC_KC_T512 static void asc_kc_widen_a512(float *wa, const char *a, asc_kc_type t, int64_t m1,
                                          int64_t k1, int64_t kp) {
  const int c0 = asc_kc_c0(t);
  for (int64_t i = 0; i < m1; i++)
    for (int64_t j = 0; j < k1; j++) {
      const char *f = a + (i * k1 + j) * ASC_KC_FRACTAL_BYTES;
      float *o = wa + i * 16 * kp + j * c0;
      if (t == ASC_KC_F16 || t == ASC_KC_BF16)
        for (int r = 0; r < 16; r++)
          _mm512_storeu_ps(o + r * kp, asc_kc_w16_512(f + r * ASC_KC_BLOCK_BYTES, t));
      else if (t == ASC_KC_F32)
        for (int r = 0; r < 16; r++) memcpy(o + r * kp, f + r * ASC_KC_BLOCK_BYTES, 32);
      else
        for (int r = 0; r < 32; r++) /* two halves of a row of 32 */
          _mm512_storeu_si512(
              (void *)(o + r / 2 * kp + r % 2 * 16),
              _mm512_cvtepi8_epi32(_mm_loadu_si128((const __m128i *)(const void *)(f + r * 16))));
    }
}

/* One 16 x 16 fractal of a 2-byte type (row c: 16 K values of column c)
 * to 16 panel rows of 16 floats (row q: column values at K = q),
 * transposed in registers. */
ASC_KC_T512 static void asc_kc_tr_fractal512(float *o, const char *f, asc_kc_type t) {
  __m512 r[16];
#pragma GCC unroll 16
  for (int c = 0; c < 16; c++) r[c] = asc_kc_w16_512(f + c * ASC_KC_BLOCK_BYTES, t);
  asc_kc_tr16_512(r);
#pragma GCC unroll 16
  for (int q = 0; q < 16; q++) _mm512_storeu_ps(o + q * 16, r[q]);
}

/* Expands X(r) for the 8 rows of a tile: the tile kernel names its
 * accumulators c<r>_<panel> so that they live in registers at any -O. */
#define ASC_KC_ROWS8(X) X(0) X(1) X(2) X(3) X(4) X(5) X(6) X(7)

/* How a tile's accumulators start: from L0C, or from one row value
 * (zero or the bias) for every row. */
typedef struct asc_kc_start512 {
  int from_c;
  __m512 row;
} asc_kc_start512;

/* One output fractal of a tile: its first row in L0C (row-major 16 x 16),
 * its start, its columns (a bit each: the others keep what they held)
 * and its B panel at the chunk's first K (kp x 16, K-major). */
typedef struct asc_kc_out512 {
  float *ct;
  asc_kc_start512 st;
  __mmask16 cols;
  const float *bp;
} asc_kc_out512;

/* `rows` (1..8) rows of one or two output fractals (o[0], and o[1] when
 * two) += 8 rows of A (a: row 0 at K q0, rows lda apart) x B rows q in
 * [0, k). fma: fused multiply-add (fp16, see above). All 8 rows are
 * computed whatever `rows` is (A's rows past it hold whatever L0A held):
 * a row at a time would wait on each add's latency. Always inlined with a
 * constant `two`, so each form keeps its accumulators in registers. */
ASC_KC_T512 static inline __attribute__((always_inline)) void asc_kc_tile8_512(
    const asc_kc_out512 *o, int two, int64_t rows, const float *a, int64_t lda, int64_t k,
    int fma) {
#define ASC_KC_ROW(r) const float *a##r = a + (r)*lda;
#define ASC_KC_LD(r)                                                                         \
  __m512 c##r##_0 = o[0].st.from_c ? _mm512_loadu_ps(o[0].ct + (r)*16) : o[0].st.row;        \
  __m512 c##r##_1 = two ? (o[1].st.from_c ? _mm512_loadu_ps(o[1].ct + (r)*16) : o[1].st.row) \
                        : _mm512_setzero_ps();
#define ASC_KC_FMA(r)                                     \
  {                                                       \
    const __m512 x = _mm512_set1_ps(a##r[q]);             \
    c##r##_0 = _mm512_fmadd_ps(x, b0, c##r##_0);          \
    if (two) c##r##_1 = _mm512_fmadd_ps(x, b1, c##r##_1); \
  }
#define ASC_KC_MULADD(r)                                               \
  {                                                                    \
    const __m512 x = _mm512_set1_ps(a##r[q]);                          \
    c##r##_0 = _mm512_add_ps(c##r##_0, _mm512_mul_ps(x, b0));          \
    if (two) c##r##_1 = _mm512_add_ps(c##r##_1, _mm512_mul_ps(x, b1)); \
  }
#define ASC_KC_ST(r)                                                       \
  if ((r) < rows) {                                                        \
    _mm512_mask_storeu_ps(o[0].ct + (r)*16, o[0].cols, c##r##_0);          \
    if (two) _mm512_mask_storeu_ps(o[1].ct + (r)*16, o[1].cols, c##r##_1); \
  }
  ASC_KC_ROWS8(ASC_KC_ROW)
  ASC_KC_ROWS8(ASC_KC_LD)
  const float *bp0 = o[0].bp, *bp1 = two ? o[1].bp : o[0].bp;
  if (fma)
    for (int64_t q = 0; q < k; q++) {
      const __m512 b0 = _mm512_loadu_ps(bp0 + q * 16), b1 = _mm512_loadu_ps(bp1 + q * 16);
      ASC_KC_ROWS8(ASC_KC_FMA)
    }
  else
    for (int64_t q = 0; q < k; q++) {
      const __m512 b0 = _mm512_loadu_ps(bp0 + q * 16), b1 = _mm512_loadu_ps(bp1 + q * 16);
      ASC_KC_ROWS8(ASC_KC_MULADD)
    }
  ASC_KC_ROWS8(ASC_KC_ST)
#undef ASC_KC_ROW
#undef ASC_KC_LD
#undef ASC_KC_FMA
#undef ASC_KC_MULADD
#undef ASC_KC_ST
}

/* The two forms of the tile kernel, each with its accumulators in
 * registers. */
ASC_KC_T512 static void asc_kc_tile8x2_512(const asc_kc_out512 *o, int64_t rows, const float *a,
                                           int64_t lda, int64_t k, int fma) {
  asc_kc_tile8_512(o, 1, rows, a, lda, k, fma);
}
ASC_KC_T512 static void asc_kc_tile8x1_512(const asc_kc_out512 *o, int64_t rows, const float *a,
                                           int64_t lda, int64_t k, int fma) {
  asc_kc_tile8_512(o, 0, rows, a, lda, k, fma);
}

/* int8: int32 rows of a fractal += A rows (lda apart) x B panel
 * (wrapping, as asc_kc_tile_int). */
ASC_KC_T512 static void asc_kc_tile_int512(const asc_kc_out512 *o, const int32_t *a, int64_t lda,
                                           int64_t rows, int64_t k) {
  int32_t *ct = (int32_t *)(void *)o->ct;
  const int32_t *bp = (const int32_t *)(const void *)o->bp;
  for (int64_t r = 0; r < rows; r++) {
    __m512i c = o->st.from_c ? _mm512_loadu_si512((const void *)(ct + r * 16))
                             : _mm512_castps_si512(o->st.row);
    for (int64_t q = 0; q < k; q++)
      c = _mm512_add_epi32(c, _mm512_mullo_epi32(_mm512_set1_epi32(a[r * lda + q]),
                                                 _mm512_loadu_si512((const void *)(bp + q * 16))));
    _mm512_mask_storeu_epi32(ct + r * 16, o->cols, c);
  }
}

/* Output fractal (i, nb): where it lies in L0C, how its accumulators
 * start (first: the bias, columns past n zero, or zero, as p says; else,
 * and when p accumulates, L0C's old value) and its B panel bp. */
ASC_KC_T512 static asc_kc_out512 asc_kc_out_512(asc_kc_span dst, asc_kc_span bias,
                                                const asc_kc_mmad *p, int first, const float *bp,
                                                int64_t m1, int64_t i, int64_t nb) {
  const int64_t ncols = p->n - nb * 16 < 16 ? p->n - nb * 16 : 16;
  asc_kc_out512 o = {(float *)(void *)(dst.p + (nb * m1 + i) * 1024),
                     {1, _mm512_setzero_ps()},
                     (__mmask16)((1u << ncols) - 1u),
                     bp};
  if (first && p->has_bias)
    o.st.from_c = 0, o.st.row = _mm512_maskz_loadu_ps(o.cols, bias.p + nb * 64);
  else if (first && p->init)
    o.st.from_c = 0;
  return o;
}

/* L0C's output fractals (dst, p->m x p->n) += A x B over k values of K:
 * A's rows in wa (lda apart; all 16 of each fractal readable), B's panel
 * nb at wb + nb * ldb * 16 (K-major, 16 columns); first: the
 * accumulators start as p says (the first K chunk of an mmad). */
ASC_KC_T512 static void asc_kc_tiles512(asc_kc_span dst, asc_kc_span bias, const asc_kc_mmad *p,
                                        asc_kc_type t, int first, const float *wa, int64_t lda,
                                        const float *wb, int64_t ldb, int64_t k) {
  const int fma = t == ASC_KC_F16;
  const int64_t m1 = asc_kc_ceil16(p->m), n1 = asc_kc_ceil16(p->n);
  for (int64_t i = 0; i < m1; i++) {
    const int64_t rows = p->m - i * 16 < 16 ? p->m - i * 16 : 16;
    if (t == ASC_KC_S8) {
      for (int64_t nb = 0; nb < n1; nb++) {
        const asc_kc_out512 o = asc_kc_out_512(dst, bias, p, first, wb + nb * ldb * 16, m1, i, nb);
        asc_kc_tile_int512(&o, (const int32_t *)(const void *)(wa + i * 16 * lda), lda, rows, k);
      }
      continue;
    }
    /* rows past m are not stored: a half of the fractal with none of them
     * is not computed */
    for (int64_t h = 0; h < 16 && h < rows; h += 8) {
      const float *arows = wa + (i * 16 + h) * lda;
      const int64_t hrows = rows - h < 8 ? rows - h : 8;
      asc_kc_out512 o[2];
      int64_t nb = 0;
      for (; nb < n1; nb += 2) {
        for (int x = 0; x < 2 && nb + x < n1; x++) {
          o[x] = asc_kc_out_512(dst, bias, p, first, wb + (nb + x) * ldb * 16, m1, i, nb + x);
          o[x].ct += h * 16;
        }
        if (nb + 1 < n1)
          asc_kc_tile8x2_512(o, hrows, arows, lda, k, fma);
        else
          asc_kc_tile8x1_512(o, hrows, arows, lda, k, fma);
      }
    }
  }
}

static const asc_kc_simd asc_kc_simd512 = {asc_kc_widen_a512, asc_kc_tr_fractal512,
                                           asc_kc_tiles512};

/* n (0..16) values of a float type from src, widened to fp32 (the lanes
 * past n zero; masked lanes are not read). */
ASC_KC_T512 static inline __m512 asc_kc_wn_512(const char *src, asc_kc_type t, int64_t n) {
  const __mmask16 m = (__mmask16)(n >= 16 ? 0xFFFFu : (1u << n) - 1u);
  if (t == ASC_KC_F32) return _mm512_maskz_loadu_ps(m, src);
  __m256i h = _mm256_maskz_loadu_epi16(m, src);
  if (t == ASC_KC_F16) return _mm512_cvtph_ps(h);
  return _mm512_castsi512_ps(_mm512_slli_epi32(_mm512_cvtepu16_epi32(h), 16));
}

/* What a chain of mmads over K computes (the first as p says, each later
 * one accumulating; fp32 partial sums pass through L0C exactly), with A
 * and B read straight from row-major operands: a is A's element (0, 0),
 * rows lda elements apart; b is B's (0, 0), its K rows ldb apart (both
 * in bounds for p->m x p->k and p->k x p->n: the caller checks). A float
 * type only (F16, BF16, F32). Used by asc.adv.Matmul, whose L1 and L0A/L0B
 * copies no one else reads: the same sums without them. */
ASC_KC_T512 static void asc_kc_mmad512_nd(asc_kc_core *core, asc_kc_span dst, const char *a,
                                          int64_t lda, const char *b, int64_t ldb, asc_kc_span bias,
                                          asc_kc_type t, const asc_kc_mmad *p) {
  const int es = asc_kc_esize(t);
  const int64_t m16 = asc_kc_ceil16(p->m) * 16, n1 = asc_kc_ceil16(p->n);
  /* a chunk of K whose widened rows and panels fit the scratch buffers */
  int64_t kch = ASC_KC_KCHUNK;
  if (kch > ASC_KC_L0A_SIZE / m16) kch = ASC_KC_L0A_SIZE / m16;
  if (kch > ASC_KC_L0B_SIZE / (n1 * 16)) kch = ASC_KC_L0B_SIZE / (n1 * 16);
  float *wa = core->scr_a, *wb = core->scr_b;
  for (int64_t q0 = 0; q0 < p->k || q0 == 0; q0 += kch) {
    const int64_t kc = p->k - q0 < kch ? p->k - q0 : kch;
    for (int64_t r = 0; r < m16; r++)
      for (int64_t q = 0; q < kc; q += 16) {
        const __m512 v = r < p->m ? asc_kc_wn_512(a + (r * lda + q0 + q) * es, t, kc - q)
                                  : _mm512_setzero_ps(); /* rows past m: finite, unused */
        _mm512_mask_storeu_ps(wa + r * kc + q,
                              (__mmask16)(kc - q >= 16 ? 0xFFFFu : (1u << (kc - q)) - 1u), v);
      }
    for (int64_t nb = 0; nb < n1; nb++)
      for (int64_t q = 0; q < kc; q++)
        _mm512_storeu_ps(wb + (nb * kc + q) * 16,
                         asc_kc_wn_512(b + ((q0 + q) * ldb + nb * 16) * es, t, p->n - nb * 16));
    asc_kc_tiles512(dst, bias, p, t, q0 == 0, wa, kc, wb, kc, kc);
  }
}
