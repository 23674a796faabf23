/* The sparse matmul and square-transpose units of the cube runtime
 * (src/compiler/rt/cube_sparse.h) on spans: index unpacking, start index
 * and gaps, a 4:2 product against a dense mmad of the selected columns,
 * accumulation, the no-op of a zero size, and every error path. */
static const char *const asc_k_files[] = {"test_cube_sparse.py"};
#define ASC_K_CUBE 1 /* the cube unit of the runtime */
#include "../../src/compiler/asc_kernel_rt.h"
#include "asc_test.h"

static uint32_t rng_state = 777u;
static int rnd(int lo, int hi) {
  rng_state = rng_state * 1664525u + 1013904223u;
  return lo + (int)((rng_state >> 8) % (uint32_t)(hi - lo + 1));
}

/* load_data_with_sparse: values as load_data, 4 indices a byte, low bits first */
static void test_load_sparse_unpacks_indices(void **state) {
  (void)state;
  static char src[4 * 512], dst[2048];
  static uint8_t idx[4 * 128], didx[2048];
  for (size_t i = 0; i < sizeof src; i++) src[i] = (char)rnd(-128, 127);
  for (size_t i = 0; i < sizeof idx; i++) idx[i] = (uint8_t)rnd(0, 255);
  memset(didx, 0xFF, sizeof didx);
  asc_kc_span d = {dst, sizeof dst}, s = {src, sizeof src}, x = {(char *)idx, sizeof idx};
  /* fractals 1 and 2 to dst fractals 0 and 1: CANN's LoadDataWithSparse
   * moves consecutive fractals, its src_stride and dst_gap unused */
  asc_kc_load2d p = {1, 2, 2, 1, 0};
  asc_kc_err e;
  assert_int_equal(asc_kc_load_sparse(d, didx, s, x, &p, &e), 0);
  for (int f = 0; f < 2; f++)
    for (int b = 0; b < 512; b++) {
      int from = 1 + f, to = f;
      assert_int_equal(dst[to * 512 + b], src[from * 512 + b]);
      assert_int_equal(didx[to * 512 + b], (idx[from * 128 + b / 4] >> (2 * (b % 4))) & 3);
    }
  for (int b = 1024; b < 2048; b++) assert_int_equal(didx[b], 0xFF); /* not written */
  /* the docs' example: positions 1 2 0 1 are the byte 01 00 10 01 */
  idx[0] = 0x49;
  p = (asc_kc_load2d){0, 1, 0, 0, 0};
  assert_int_equal(asc_kc_load_sparse(d, didx, s, x, &p, &e), 0);
  assert_int_equal(didx[0], 1);
  assert_int_equal(didx[1], 2);
  assert_int_equal(didx[2], 0);
  assert_int_equal(didx[3], 1);
}

/* With every index pair (0, 1) (the second counts from the group's second
 * element), dense row d stands for A's column 4 * (d / 2) + 2 * (d % 2):
 * the sparse product equals a dense int8 mmad of those columns of A. */
static void test_mmad_sparse_matches_dense_mmad(void **state) {
  (void)state;
  enum { M = 32, N = 32, K = 128, KD = 64 };
  static char a[(M / 16) * (K / 32) * 512], asel[(M / 16) * (KD / 32) * 512];
  static char b[(KD / 32) * (N / 16) * 512], c[(M / 16) * (N / 16) * 1024], want[sizeof c];
  static uint8_t bidx[sizeof b];
  for (int m = 0; m < M; m++)
    for (int k = 0; k < K; k++) {
      char v = (char)rnd(-128, 127);
      a[((m / 16) * (K / 32) + k / 32) * 512 + (m % 16) * 32 + k % 32] = v;
      if (k % 4 == 0 || k % 4 == 2) {
        int d = k / 4 * 2 + (k % 4) / 2;
        asel[((m / 16) * (KD / 32) + d / 32) * 512 + (m % 16) * 32 + d % 32] = v;
      }
    }
  for (size_t i = 0; i < sizeof b; i++) {
    b[i] = (char)rnd(-128, 127);
    bidx[i] = (uint8_t)((i % 32) % 2); /* dense row i % 32 (mod 2): 0, 1, 0, 1 ... */
  }
  asc_kc_core core;
  asc_kc_err e;
  assert_int_equal(asc_kc_core_init(&core, &e), 0);
  core.portable = 1;
  asc_kc_span sa = {asel, sizeof asel}, sb = {b, sizeof b}, sw = {want, sizeof want},
              none = {NULL, 0};
  asc_kc_mmad dense = {M, N, KD, 1, 0};
  assert_int_equal(asc_kc_mmad_run(&core, sw, sa, sb, none, ASC_KC_S8, &dense, &e), 0);
  asc_kc_span sc = {c, sizeof c}, sfull = {a, sizeof a};
  asc_kc_mmad p = {M, N, K, 1, 0};
  assert_int_equal(asc_kc_mmad_sparse(&core, sc, sfull, sb, bidx, &p, &e), 0);
  assert_memory_equal(c, want, sizeof c);
  /* cmatrix_init_val false accumulates */
  p.init = 0;
  assert_int_equal(asc_kc_mmad_sparse(&core, sc, sfull, sb, bidx, &p, &e), 0);
  for (size_t i = 0; i < sizeof c; i += 4) {
    int32_t x, y;
    memcpy(&x, c + i, 4);
    memcpy(&y, want + i, 4);
    assert_int_equal(x, 2 * y);
  }
  /* a zero size does nothing, even without indices */
  memset(bidx, 0xFF, sizeof bidx);
  memcpy(c, want, sizeof c);
  p = (asc_kc_mmad){M, N, 0, 1, 0};
  assert_int_equal(asc_kc_mmad_sparse(&core, sc, sfull, sb, bidx, &p, &e), 0);
  assert_memory_equal(c, want, sizeof c);
  asc_kc_core_free(&core);
}

static void test_sparse_errors(void **state) {
  (void)state;
  static char buf[4096];
  static uint8_t idx[4096];
  memset(idx, 0, sizeof idx);
  asc_kc_span big = {buf, sizeof buf}, one = {buf, 512}, x = {(char *)idx, 128};
  asc_kc_err e;
  asc_kc_core core;
  assert_int_equal(asc_kc_core_init(&core, &e), 0);
  asc_kc_load2d p = {0, 1, 0, 0, 1};
  assert_int_equal(asc_kc_load_sparse(big, idx, big, x, &p, &e), -1);
  assert_non_null(strstr(e.msg, "if_transpose must be False"));
  p = (asc_kc_load2d){0, 256, 0, 0, 0};
  assert_int_equal(asc_kc_load_sparse(big, idx, big, x, &p, &e), -1);
  assert_non_null(strstr(e.msg, "LoadData2DParams out of range"));
  p = (asc_kc_load2d){1, 1, 0, 0, 0};
  assert_int_equal(asc_kc_load_sparse(big, idx, big, x, &p, &e), -1);
  assert_non_null(strstr(e.msg, "reads the indices of fractal 1 (bytes 128..255) past idx"));
  p = (asc_kc_load2d){0, 2, 1, 0, 0};
  x.n = 4096;
  assert_int_equal(asc_kc_load_sparse(one, idx, big, x, &p, &e), -1);
  assert_non_null(strstr(e.msg, "writes fractal 1 past dst (512 bytes)"));
  asc_kc_mmad m = {16, 16, 4096, 1, 0};
  assert_int_equal(asc_kc_mmad_sparse(&core, big, big, big, idx, &m, &e), -1);
  assert_non_null(strstr(e.msg, "m, n, k must lie in 0..4095"));
  m = (asc_kc_mmad){16, 16, 64, 1, 0};
  assert_int_equal(asc_kc_mmad_sparse(&core, big, one, big, idx, &m, &e), -1);
  assert_non_null(strstr(e.msg, "reads 1024 bytes of L0A"));
  m = (asc_kc_mmad){16, 32, 128, 1, 0}; /* 64 dense rows x 32 columns: 4 fractals */
  asc_kc_span two = {buf, 1024};
  assert_int_equal(asc_kc_mmad_sparse(&core, big, big, two, idx, &m, &e), -1);
  assert_non_null(strstr(e.msg, "reads 2048 bytes of L0B (64 dense rows, n=32)"));
  m = (asc_kc_mmad){32, 32, 32, 1, 0};
  assert_int_equal(asc_kc_mmad_sparse(&core, two, big, big, idx, &m, &e), -1);
  assert_non_null(strstr(e.msg, "writes 4096 bytes of L0C"));
  idx[5 * 32 + 3] = 0xFF; /* column 5, dense row 3 */
  m = (asc_kc_mmad){16, 16, 64, 1, 0};
  assert_int_equal(asc_kc_mmad_sparse(&core, big, big, big, idx, &m, &e), -1);
  assert_non_null(strstr(e.msg, "filter byte 163 (dense row 3, column 5) has no index"));
  asc_kc_core_free(&core);
}

/* load_data_with_transpose's squares: int8 32 x 32 from two stacked
 * fractals, float32 16 x 16 from two side by side; dst_gap, dst_frac_gap */
static void test_load_squares(void **state) {
  (void)state;
  static char src[2048], dst[8192];
  asc_kc_err e;
  for (int i = 0; i < 2048; i++) src[i] = (char)(i * 7 + i / 256);
  asc_kc_span s = {src, sizeof src}, d = {dst, sizeof dst};
  asc_kc_load2d p = {1, 1, 0, 0, 1}; /* square 1 */
  assert_int_equal(asc_kc_load_squares(d, s, ASC_KC_S8, &p, 2, &e), 0);
  for (int r = 0; r < 32; r++)
    for (int c = 0; c < 32; c++) {
      /* out (r, c) = in (c, r); rows 16.. of out go 3 fractals on */
      int at = (r < 16 ? r * 32 : 3 * 512 + (r - 16) * 32) + c;
      assert_int_equal(dst[at], src[1024 + c * 32 + r]);
    }
  float fs[512], fd[1024];
  for (int i = 0; i < 512; i++) fs[i] = (float)i;
  asc_kc_span s4 = {(char *)fs, sizeof fs}, d4 = {(char *)fd, sizeof fd};
  p = (asc_kc_load2d){0, 2, 1, 1, 1}; /* squares 0, 1: first halves 2 fractals apart */
  assert_int_equal(asc_kc_load_squares(d4, s4, ASC_KC_F32, &p, 0, &e), 0);
  for (int q = 0; q < 2; q++)
    for (int r = 0; r < 16; r++)
      for (int c = 0; c < 16; c++) {
        /* square (r, c) is fractal c / 8's (r, c % 8); it lands at out (c, r) */
        float want = fs[q * 256 + (c / 8) * 128 + r * 8 + c % 8];
        assert_true(fd[q * 256 + (r / 8) * 128 + c * 8 + r % 8] == want);
      }
  p = (asc_kc_load2d){0, 1, 0, 0, 1};
  asc_kc_span small = {dst, 1024};
  assert_int_equal(asc_kc_load_squares(small, s, ASC_KC_S8, &p, 1, &e), -1);
  assert_non_null(strstr(e.msg, "writes past dst (1024 bytes) in repeat 0"));
  p = (asc_kc_load2d){2, 1, 0, 0, 1};
  assert_int_equal(asc_kc_load_squares(d, s, ASC_KC_S8, &p, 0, &e), -1);
  assert_non_null(strstr(e.msg, "reads square 2 past src (2048 bytes)"));
  p = (asc_kc_load2d){0, 1, 0, 0, 1};
  assert_int_equal(asc_kc_load_squares(d, s, ASC_KC_S8, &p, 65536, &e), -1);
  assert_non_null(strstr(e.msg, "out of range"));
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_load_sparse_unpacks_indices),
      cmocka_unit_test(test_mmad_sparse_matches_dense_mmad),
      cmocka_unit_test(test_sparse_errors),
      cmocka_unit_test(test_load_squares),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
