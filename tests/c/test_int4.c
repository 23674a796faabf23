/* int4b_t in the kernel runtime (src/compiler/rt/int4.h, rt/cube_int4.h):
 * nibble packing, Cast half <-> int4b_t (rounding, saturation, masks and
 * strides), the s4 x s4 -> s32 Mmad and LoadDataWithTranspose's 64 x 64
 * squares, against plain integer arithmetic; and their error paths. */
static const char *const asc_k_files[] = {"test_int4.py"};
#define ASC_K_CUBE 1
#include <math.h>

#include "../../src/compiler/asc_kernel_rt.h"
#include "asc_test.h"

static uint32_t rng = 777u;
static int rnd(int lo, int hi) {
  rng = rng * 1664525u + 1013904223u;
  return lo + (int)((rng >> 8) % (uint32_t)(hi - lo + 1));
}

/* The reference packing: element 2i in the low nibble of byte i. */
static int ref_get(const unsigned char *p, int64_t i) {
  int v = (i & 1) ? p[i / 2] >> 4 : p[i / 2] & 15;
  return v > 7 ? v - 16 : v;
}
static void ref_put(unsigned char *p, int64_t i, int v) {
  unsigned n = (unsigned)(v + 16) % 16u;
  p[i / 2] = (unsigned char)((i & 1) ? (p[i / 2] & 0x0F) | (n << 4) : (p[i / 2] & 0xF0) | n);
}

/* RoundMode on a value that is a multiple of 1/1024 (every half in
 * [-16, 16] is): integer arithmetic on the scaled value. */
static int ref_round(double x, int mode) {
  const int64_t s = (int64_t)(x * 1024.0); /* exact */
  int64_t fl = s >= 0 ? s / 1024 : -((-s + 1023) / 1024), frac = s - fl * 1024, r;
  switch (mode) {
    case 2: /* FLOOR */
      r = fl;
      break;
    case 3: /* CEIL */
      r = fl + (frac != 0);
      break;
    case 4: /* ROUND: half away from zero */
      r = frac > 512 || (frac == 512 && s > 0) ? fl + 1 : fl;
      break;
    case 5: /* TRUNC */
      r = s >= 0 ? fl : fl + (frac != 0);
      break;
    default: /* NONE, RINT: half to even */
      r = frac > 512 || (frac == 512 && (fl & 1)) ? fl + 1 : fl;
  }
  return r < -8 ? -8 : r > 7 ? 7 : (int)r;
}

static void test_nibbles(void **state) {
  (void)state;
  unsigned char a[8] = {0}, b[8] = {0};
  for (int i = 0; i < 16; i++) {
    asc_k_i4_put((char *)a, i, i - 8);
    ref_put(b, i, i - 8);
  }
  assert_memory_equal(a, b, sizeof a);
  for (int i = 0; i < 16; i++) assert_int_equal(asc_k_i4_get((const char *)a, i), i - 8);
  /* the documentation's example: 6 and 7 make the byte 0x76 */
  char c = 0;
  asc_k_i4_put(&c, 0, 6);
  asc_k_i4_put(&c, 1, 7);
  assert_int_equal((unsigned char)c, 0x76);
  assert_int_equal(asc_k_i4_bytes(0), 0);
  assert_int_equal(asc_k_i4_bytes(7), 4);
}

static void test_round_saturate(void **state) {
  (void)state;
  for (int mode = 0; mode <= 5; mode++)
    for (int s = -16 * 64; s <= 16 * 64; s++) {
      double x = s / 64.0;
      if (asc_k_i4_from(x, mode) != ref_round(x, mode))
        fail_msg("mode %d, x %g: got %d, want %d", mode, x, asc_k_i4_from(x, mode),
                 ref_round(x, mode));
    }
  assert_int_equal(asc_k_i4_from(INFINITY, 1), 7);
  assert_int_equal(asc_k_i4_from(-INFINITY, 1), -8);
  assert_int_equal(asc_k_i4_from(NAN, 1), 0);
}

static asc_k_ctx k;
static char ub[4096];
static void ctx_reset(void) {
  memset(&k, 0, sizeof k);
  memset(ub, 0, sizeof ub);
  k.ub = ub;
  k.ub_size = sizeof ub;
  k.ub_reach = sizeof ub;
}

/* Cast half -> int4b_t: the count form, then the mask form with block and
 * repeat strides, then int4b_t -> half. */
static void test_cast(void **state) {
  (void)state;
  ctx_reset();
  enum { N = 512 };
  double x[N];
  for (int i = 0; i < N; i++) {
    x[i] = rnd(-12 * 64, 12 * 64) / 64.0;
    uint16_t h = asc_k_f2h((float)x[i]);
    memcpy(ub + 2 * i, &h, 2);
  }
  asc_k_lt src = {0, N}, dst = {2048, N};
  const int64_t none[4] = {0, 0, 0, 0};
  if (asc_k_i4_cast(&k, dst, src, ASC_K_DT_INT4, ASC_K_DT_FLOAT16, 3, 2, N, 0, 0, 1, none, 1))
    fail_msg("%s", k.msg);
  unsigned char want[N / 2] = {0};
  for (int i = 0; i < N; i++) ref_put(want, i, ref_round(x[i], 3));
  assert_memory_equal(ub + 2048, want, N / 2);

  /* mask 128, 4 repeats, {dstBlk 1, srcBlk 1, dstRep 2, srcRep 8}: the same */
  memset(ub + 2048, 0, N / 2);
  const int64_t st[4] = {1, 1, 2, 8};
  assert_int_equal(
      asc_k_i4_cast(&k, dst, src, ASC_K_DT_INT4, ASC_K_DT_FLOAT16, 3, 0, 128, 0, 4, 1, st, 1), 0);
  assert_memory_equal(ub + 2048, want, N / 2);

  /* the first 64 elements of each of 2 repeats, the destination repeats 4
   * blocks apart: the other nibbles keep their 0x5 */
  memset(ub + 2048, 0x55, N / 2);
  const int64_t st2[4] = {1, 1, 4, 8};
  assert_int_equal(asc_k_i4_cast(&k, dst, src, ASC_K_DT_INT4, ASC_K_DT_FLOAT16, 5, 1, ~(uint64_t)0,
                                 0, 2, 1, st2, 1),
                   0);
  unsigned char want2[N / 2];
  memset(want2, 0x55, sizeof want2);
  for (int r = 0; r < 2; r++)
    for (int e = 0; e < 64; e++) ref_put(want2, r * 256 + e, ref_round(x[r * 128 + e], 5));
  assert_memory_equal(ub + 2048, want2, N / 2);

  /* int4b_t -> half: exact */
  asc_k_lt back = {3072, N / 2};
  assert_int_equal(
      asc_k_i4_cast(&k, back, dst, ASC_K_DT_FLOAT16, ASC_K_DT_INT4, 0, 2, N / 2, 0, 0, 1, none, 1),
      0);
  for (int i = 0; i < N / 2; i++) {
    uint16_t h;
    memcpy(&h, ub + 3072 + 2 * i, 2);
    assert_true(asc_k_h2f(h) == (float)ref_get(want2, i));
  }
}

static void test_cast_errors(void **state) {
  (void)state;
  ctx_reset();
  asc_k_lt src = {0, 256}, dst = {2048, 256};
  const int64_t none[4] = {0, 0, 0, 0};
  assert_int_equal(
      asc_k_i4_cast(&k, dst, src, ASC_K_DT_INT4, ASC_K_DT_FLOAT16, 1, 2, 255, 0, 0, 1, none, 1), 1);
  assert_non_null(strstr(k.msg, "the count must be even"));
  assert_int_equal(
      asc_k_i4_cast(&k, dst, src, ASC_K_DT_INT4, ASC_K_DT_FLOAT16, 1, 0, 127, 0, 1, 1, none, 1), 1);
  assert_non_null(strstr(k.msg, "mask bits 126 and 127 differ"));
  assert_int_equal(
      asc_k_i4_cast(&k, dst, src, ASC_K_DT_INT4, ASC_K_DT_FLOAT32, 1, 2, 2, 0, 0, 1, none, 1), 1);
  assert_non_null(strstr(k.msg, "from and to half only"));
  assert_int_equal(
      asc_k_i4_cast(&k, src, dst, ASC_K_DT_FLOAT16, ASC_K_DT_INT4, 3, 2, 2, 0, 0, 1, none, 1), 1);
  assert_non_null(strstr(k.msg, "CAST_NONE"));
  /* 256 elements of dst are 128 bytes: 512 do not fit */
  assert_int_equal(
      asc_k_i4_cast(&k, dst, src, ASC_K_DT_INT4, ASC_K_DT_FLOAT16, 1, 2, 512, 0, 0, 1, none, 1), 1);
  assert_non_null(strstr(k.msg, "reaches byte"));
  asc_k_lt r;
  assert_int_equal(asc_k_i4_slice(&k, dst, 3, &r, 1), 1);
  assert_non_null(strstr(k.msg, "offset 3 of int4b_t elements is odd"));
  assert_int_equal(asc_k_i4_slice(&k, dst, 64, &r, 1), 0);
  assert_int_equal(r.off, 2048 + 32);
  assert_int_equal(r.len, 192);
  assert_int_equal(asc_k_i4_reinterpret(&k, dst, 4, 8, &r, 1), 0);
  assert_int_equal(r.len, 128);
  assert_int_equal(asc_k_i4_reinterpret(&k, r, 8, 4, &r, 1), 0);
  assert_int_equal(r.len, 256);
}

/* Mmad of int4b_t against C = A @ B in plain integers: A and B are laid out
 * in L0A (ZZ, 16 x 64 fractals) and L0B (ZN) here from their definitions. */
static void mmad_case(int64_t m, int64_t n, int64_t kk, int bias) {
  const int64_t m1 = (m + 15) / 16, n1 = (n + 15) / 16, k1 = (kk + 63) / 64;
  int *a = calloc((size_t)(m * kk), sizeof *a), *b = calloc((size_t)(kk * n), sizeof *b);
  unsigned char *l0a = calloc((size_t)(m1 * k1 * 512), 1),
                *l0b = calloc((size_t)(k1 * n1 * 512), 1);
  char *l0c = calloc((size_t)(m1 * n1 * 1024), 1);
  int32_t *bv = calloc((size_t)n + 1, sizeof *bv);
  assert_true(a && b && l0a && l0b && l0c && bv);
  for (int64_t i = 0; i < m; i++)
    for (int64_t q = 0; q < kk; q++) {
      a[i * kk + q] = rnd(-8, 7);
      ref_put(l0a + ((i / 16) * k1 + q / 64) * 512, (i % 16) * 64 + q % 64, a[i * kk + q]);
    }
  for (int64_t q = 0; q < kk; q++)
    for (int64_t j = 0; j < n; j++) {
      b[q * n + j] = rnd(-8, 7);
      ref_put(l0b + ((q / 64) * n1 + j / 16) * 512, (j % 16) * 64 + q % 64, b[q * n + j]);
    }
  for (int64_t j = 0; j < n; j++) bv[j] = rnd(-1000, 1000);
  asc_kc_span sc = {l0c, m1 * n1 * 1024}, sa = {(char *)l0a, m1 * k1 * 512},
              sb = {(char *)l0b, k1 * n1 * 512}, sbias = {(char *)bv, n * 4};
  asc_kc_mmad p = {m, n, kk, 1, bias};
  asc_kc_err e;
  assert_int_equal(asc_kc_mmad_s4(sc, sa, sb, sbias, &p, &e), 0);
  /* accumulate a second time: C = 2 A B (+ bias once) */
  p.init = 0, p.has_bias = 0;
  assert_int_equal(asc_kc_mmad_s4(sc, sa, sb, sbias, &p, &e), 0);
  for (int64_t i = 0; i < m; i++)
    for (int64_t j = 0; j < n; j++) {
      int64_t want = bias ? bv[j] : 0;
      for (int64_t q = 0; q < kk; q++) want += 2 * a[i * kk + q] * b[q * n + j];
      int32_t got;
      memcpy(&got, l0c + ((j / 16) * m1 + i / 16) * 1024 + ((i % 16) * 16 + j % 16) * 4, 4);
      if (got != want)
        fail_msg("m %lld n %lld k %lld: C[%lld][%lld] = %d, want %lld", (long long)m, (long long)n,
                 (long long)kk, (long long)i, (long long)j, got, (long long)want);
    }
  free(a), free(b), free(l0a), free(l0b), free(l0c), free(bv);
}

static void test_mmad_s4(void **state) {
  (void)state;
  mmad_case(40, 50, 70, 0);
  mmad_case(30, 40, 70, 1);
  mmad_case(1, 16, 64, 0);
  mmad_case(17, 33, 200, 1);
  char buf[2048] = {0};
  asc_kc_span s = {buf, 512}, c = {buf, 1024};
  asc_kc_mmad p = {16, 16, 65, 1, 0}; /* k 65: two fractals along k, one given */
  asc_kc_err e;
  assert_int_equal(asc_kc_mmad_s4(c, s, s, s, &p, &e), -1);
  assert_non_null(strstr(e.msg, "mmad reads 1024 bytes of L0A"));
  p.k = 4096;
  assert_int_equal(asc_kc_mmad_s4(c, s, s, s, &p, &e), -1);
  assert_non_null(strstr(e.msg, "must lie in 0..4095"));
}

/* LoadDataWithTranspose: square i (4 fractals of 16 x 64 from
 * (start + i * srcStride) * 2048 bytes) lands transposed as 4 fractals. */
static void test_load_squares_s4(void **state) {
  (void)state;
  unsigned char src[3 * 2048], dst[16 * 512];
  for (size_t i = 0; i < sizeof src; i++) src[i] = (unsigned char)rnd(0, 255);
  memset(dst, 0xAA, sizeof dst);
  asc_kc_span d = {(char *)dst, sizeof dst}, s = {(char *)src, sizeof src};
  /* start 1, 2 repeats 1 square apart, repeats 8 fractals apart, fractals 2 apart */
  asc_kc_load2d p = {1, 2, 1, 7, 1};
  asc_kc_err e;
  assert_int_equal(asc_kc_load_squares_s4(d, s, &p, 1, &e), 0);
  for (int i = 0; i < 2; i++)
    for (int f = 0; f < 4; f++) {
      const unsigned char *fr = dst + i * 8 * 512 + f * 2 * 512;
      for (int r = 0; r < 16; r++)
        for (int c = 0; c < 64; c++) {
          /* out row 16 f + r, column c: the square's element (c, 16 f + r) */
          int want = ref_get(src + (1 + i) * 2048, (int64_t)c * 64 + 16 * f + r);
          assert_int_equal(ref_get(fr, r * 64 + c), want);
        }
    }
  /* the fractals between stay as they were */
  assert_int_equal(dst[512], 0xAA);
  assert_int_equal(dst[8 * 512 + 512], 0xAA);
  p.start_index = 2; /* repeat 1 reads square 3: past the source */
  assert_int_equal(asc_kc_load_squares_s4(d, s, &p, 1, &e), -1);
  assert_non_null(strstr(e.msg, "reads square 3 past src"));
  p.start_index = 0, p.dst_gap = 20;
  assert_int_equal(asc_kc_load_squares_s4(d, s, &p, 1, &e), -1);
  assert_non_null(strstr(e.msg, "writes past dst"));
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_nibbles), cmocka_unit_test(test_round_saturate),
      cmocka_unit_test(test_cast),    cmocka_unit_test(test_cast_errors),
      cmocka_unit_test(test_mmad_s4), cmocka_unit_test(test_load_squares_s4),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
