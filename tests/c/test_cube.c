/* The cube unit's runtime (src/compiler/rt/cube.h): ND -> NZ into L1,
 * load_data into L0A/L0B (B transposed per fractal), mmad and fixpipe,
 * against a double-precision reference; core groups (rt/mix.h); and every
 * error path. */
static const char *const asc_k_files[] = {"test_cube.py"};
#define ASC_K_CUBE 1 /* the cube unit of the runtime */
#define ASC_K_MIX 1  /* core groups */
#include <sched.h>

#include "../../src/compiler/asc_kernel_rt.h"
#include "../../src/compiler/rt/cube.h"
#include "asc_test.h"

typedef struct mm_case {
  int64_t m, n, k;
  asc_kc_type t;
  int bias, twice;
} mm_case;

static uint32_t rng_state = 12345u;
static int small_int(int lo, int hi) {
  rng_state = rng_state * 1664525u + 1013904223u;
  return lo + (int)((rng_state >> 8) % (uint32_t)(hi - lo + 1));
}

/* Runs C = A @ B (+ bias) for one base block through L1, L0A/L0B and L0C
 * as a kernel would, leaving C (m x n, fp32 or int32) in `out`. */
static int run_block(asc_kc_core *core, const mm_case *c, const char *a, const char *b,
                     const char *bias, char *out, asc_kc_err *e) {
  const int es = asc_kc_esize(c->t), c0 = asc_kc_c0(c->t);
  const int64_t m1 = asc_kc_ceil16(c->m), n1 = asc_kc_ceil16(c->n), k1 = (c->k + c0 - 1) / c0;
  asc_kc_span l1a, l1b, l0a, l0b, l0c, gm_a = {(char *)a, c->m * c->k * es},
                                       gm_b = {(char *)b, c->k * c->n * es};
  if (asc_kc_span_at(core, ASC_KC_L1, 0, &l1a, e) ||
      asc_kc_span_at(core, ASC_KC_L1, 256 * 1024, &l1b, e) ||
      asc_kc_span_at(core, ASC_KC_L0A, 0, &l0a, e) ||
      asc_kc_span_at(core, ASC_KC_L0B, 0, &l0b, e) || asc_kc_span_at(core, ASC_KC_L0C, 0, &l0c, e))
    return -1;
  memset(l1a.p, 0, 256 * 1024);
  memset(l1b.p, 0, 256 * 1024);
  /* A (m x k) to L1 as NZ with C0 along k */
  asc_kc_nd2nz pa = {1, c->m, c->k, 0, c->k, m1 * 16, 1, 0};
  if (asc_kc_nd2nz_copy(l1a, gm_a, c->t, &pa, e)) return -1;
  for (int64_t i = 0; i < m1; i++) {
    asc_kc_load2d p = {i, k1, m1, 0, 0};
    asc_kc_span d = {l0a.p + i * k1 * 512, l0a.n - i * k1 * 512};
    if (asc_kc_load_data_2d(d, l1a, c->t, &p, e)) return -1;
  }
  if (es == 2) {
    /* B (k x n) to L1 as NZ (C0 along n), each fractal transposed into L0B */
    asc_kc_nd2nz pb = {1, c->k, c->n, 0, c->n, k1 * 16, 1, 0};
    if (asc_kc_nd2nz_copy(l1b, gm_b, c->t, &pb, e)) return -1;
    for (int64_t j = 0; j < k1; j++) {
      asc_kc_load2d p = {j, n1, k1, 0, 1};
      asc_kc_span d = {l0b.p + j * n1 * 512, l0b.n - j * n1 * 512};
      if (asc_kc_load_data_2d(d, l1b, c->t, &p, e)) return -1;
    }
  } else {
    /* int8: B^T (n x k) in L1 as NZ (C0 along k): its fractals are L0B's */
    char *bt = malloc((size_t)(c->n * c->k));
    for (int64_t q = 0; q < c->k; q++)
      for (int64_t j = 0; j < c->n; j++) bt[j * c->k + q] = b[q * c->n + j];
    asc_kc_span gm_bt = {bt, c->n * c->k};
    asc_kc_nd2nz pb = {1, c->n, c->k, 0, c->k, n1 * 16, 1, 0};
    int rc = asc_kc_nd2nz_copy(l1b, gm_bt, c->t, &pb, e);
    free(bt);
    if (rc) return -1;
    for (int64_t j = 0; j < k1; j++) {
      asc_kc_load2d p = {j * n1, n1, 1, 0, 0};
      asc_kc_span d = {l0b.p + j * n1 * 512, l0b.n - j * n1 * 512};
      if (asc_kc_load_data_2d(d, l1b, c->t, &p, e)) return -1;
    }
  }
  asc_kc_span sb = {(char *)bias, bias ? c->n * 4 : 0};
  asc_kc_mmad mp = {c->m, c->n, c->k, 1, c->bias};
  if (asc_kc_mmad_run(core, l0c, l0a, l0b, sb, c->t, &mp, e)) return -1;
  if (c->twice) {
    mp.init = 0;
    mp.has_bias = 0;
    if (asc_kc_mmad_run(core, l0c, l0a, l0b, sb, c->t, &mp, e)) return -1;
  }
  asc_kc_type ct = c->t == ASC_KC_S8 ? ASC_KC_S32 : ASC_KC_F32;
  asc_kc_fixpipe fp = {c->n, c->m, m1 * 16, c->n, ASC_KC_NO_QUANT, 1.0f, 0, 0, 0};
  asc_kc_span o = {out, c->m * c->n * 4}, none = {NULL, 0};
  return asc_kc_fixpipe_run(o, l0c, none, ct, ct, &fp, e);
}

static void check_case(const mm_case *c, int portable) {
  asc_kc_core core;
  asc_kc_err e = {{0}};
  assert_int_equal(asc_kc_core_init(&core, &e), 0);
  core.portable = portable;
  const int es = asc_kc_esize(c->t);
  char *a = malloc((size_t)(c->m * c->k * es)), *b = malloc((size_t)(c->k * c->n * es));
  float *bias = malloc((size_t)(c->n * 4) + 4);
  char *out = malloc((size_t)(c->m * c->n * 4));
  double *va = malloc(sizeof(double) * (size_t)(c->m * c->k)),
         *vb = malloc(sizeof(double) * (size_t)(c->k * c->n));
  for (int64_t i = 0; i < c->m * c->k; i++) {
    int v = small_int(-8, 8);
    va[i] = v;
    if (c->t == ASC_KC_S8) {
      v = small_int(-128, 127);
      va[i] = v;
      a[i] = (char)v;
    } else {
      uint16_t h = c->t == ASC_KC_F16 ? asc_k_f2h((float)v / 4) : asc_k_f2bf((float)v / 4);
      va[i] = (double)v / 4;
      memcpy(a + 2 * i, &h, 2);
    }
  }
  for (int64_t i = 0; i < c->k * c->n; i++) {
    int v = c->t == ASC_KC_S8 ? small_int(-128, 127) : small_int(-8, 8);
    if (c->t == ASC_KC_S8) {
      vb[i] = v;
      b[i] = (char)v;
    } else {
      uint16_t h = c->t == ASC_KC_F16 ? asc_k_f2h((float)v / 8) : asc_k_f2bf((float)v / 8);
      vb[i] = (double)v / 8;
      memcpy(b + 2 * i, &h, 2);
    }
  }
  for (int64_t j = 0; j < c->n; j++) {
    if (c->t == ASC_KC_S8) {
      int32_t v = small_int(-1000, 1000);
      memcpy(bias + j, &v, 4);
    } else {
      bias[j] = (float)small_int(-16, 16) / 2;
    }
  }
  int rc = run_block(&core, c, a, b, c->bias ? (const char *)bias : NULL, out, &e);
  if (rc) fail_msg("%s", e.msg);
  /* Products of these small dyadic values and their sums are exact in fp32,
   * so fp16/bf16 must match exactly too. */
  for (int64_t i = 0; i < c->m; i++)
    for (int64_t j = 0; j < c->n; j++) {
      double ref = 0;
      for (int64_t q = 0; q < c->k; q++) ref += va[i * c->k + q] * vb[q * c->n + j];
      if (c->twice) ref *= 2;
      if (c->bias) {
        if (c->t == ASC_KC_S8) {
          int32_t bv;
          memcpy(&bv, bias + j, 4);
          ref += bv;
        } else {
          ref += bias[j];
        }
      }
      double got;
      if (c->t == ASC_KC_S8) {
        int32_t v;
        memcpy(&v, out + (i * c->n + j) * 4, 4);
        got = v;
      } else {
        float v;
        memcpy(&v, out + (i * c->n + j) * 4, 4);
        got = v;
      }
      if (got != ref)
        fail_msg("m=%lld n=%lld k=%lld type %d: C[%lld][%lld] = %g, expected %g", (long long)c->m,
                 (long long)c->n, (long long)c->k, (int)c->t, (long long)i, (long long)j, got, ref);
    }
  free(a);
  free(b);
  free(bias);
  free(out);
  free(va);
  free(vb);
  asc_kc_core_free(&core);
}

static void test_matmul_shapes(void **state) {
  (void)state;
  static const int64_t shapes[][3] = {{16, 16, 16}, {1, 1, 1},     {17, 33, 15},   {32, 48, 64},
                                      {5, 100, 31}, {64, 64, 128}, {128, 128, 64}, {31, 7, 129}};
  asc_kc_type types[] = {ASC_KC_F16, ASC_KC_BF16, ASC_KC_S8};
  for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++)
    for (int ti = 0; ti < 3; ti++)
      for (int flags = 0; flags < 3; flags++) {
        mm_case c = {shapes[s][0], shapes[s][1], shapes[s][2], types[ti], flags == 1, flags == 2};
        check_case(&c, 0);
        check_case(&c, 1);
      }
}

static void test_fixpipe_convert(void **state) {
  (void)state;
  /* one 16 x 16 L0C fractal of fp32 to fp16 (ND), bf16 with relu, NZ out */
  float l0c[256];
  for (int i = 0; i < 256; i++) l0c[i] = (float)(i - 128) / 3.0f;
  asc_kc_span src = {(char *)l0c, sizeof l0c}, none = {NULL, 0};
  uint16_t out[256];
  asc_kc_span dst = {(char *)out, sizeof out};
  asc_kc_err e = {{0}};
  asc_kc_fixpipe p = {16, 16, 16, 16, ASC_KC_F322F16, 1.0f, 0, 0, 0};
  assert_int_equal(asc_kc_fixpipe_run(dst, src, none, ASC_KC_F16, ASC_KC_F32, &p, &e), 0);
  for (int i = 0; i < 256; i++) assert_int_equal(out[i], asc_k_f2h(l0c[i]));
  p.quant = ASC_KC_F322BF16;
  p.relu_en = 1;
  assert_int_equal(asc_kc_fixpipe_run(dst, src, none, ASC_KC_BF16, ASC_KC_F32, &p, &e), 0);
  for (int i = 0; i < 256; i++) assert_int_equal(out[i], asc_k_f2bf(l0c[i] < 0 ? 0.0f : l0c[i]));
  /* int32 -> fp16 with a per-column scale (VDEQF16) */
  int32_t il0c[256];
  float scales[16];
  for (int i = 0; i < 256; i++) il0c[i] = i - 100;
  for (int j = 0; j < 16; j++) scales[j] = (float)(j + 1) / 4;
  asc_kc_span isrc = {(char *)il0c, sizeof il0c}, qv = {(char *)scales, sizeof scales};
  p.quant = ASC_KC_VDEQF16;
  p.relu_en = 0;
  assert_int_equal(asc_kc_fixpipe_run(dst, isrc, qv, ASC_KC_F16, ASC_KC_S32, &p, &e), 0);
  for (int i = 0; i < 256; i++)
    assert_int_equal(out[i], asc_k_f2h((float)il0c[i] * scales[i % 16]));
  /* REQ8 saturates */
  int8_t o8[256];
  asc_kc_span d8 = {(char *)o8, sizeof o8};
  p.quant = ASC_KC_REQ8;
  p.deq_scalar = 2.0f;
  assert_int_equal(asc_kc_fixpipe_run(d8, isrc, none, ASC_KC_S8, ASC_KC_S32, &p, &e), 0);
  for (int i = 0; i < 256; i++) {
    int v = 2 * il0c[i];
    assert_int_equal(o8[i], v > 127 ? 127 : v < -128 ? -128 : v);
  }
}

static void test_fixpipe_nd_matrices(void **state) {
  (void)state;
  /* three 16 x 16 fp32 matrices in L0C, two fractals apart (a gap
   * between), to ND rows 260 elements apart (4 between them untouched) */
  float l0c[5 * 256], out[2 * 260 + 256];
  for (int i = 0; i < 5 * 256; i++) l0c[i] = (float)i;
  for (int i = 0; i < 2 * 260 + 256; i++) out[i] = -1.0f;
  asc_kc_span src = {(char *)l0c, sizeof l0c}, none = {NULL, 0}, dst = {(char *)out, sizeof out};
  asc_kc_err e = {{0}};
  asc_kc_fixpipe p = {16, 16, 16, 16, ASC_KC_NO_QUANT, 1.0f, 0, 0, 0};
  asc_kc_fixpipe_nds nd = {3, 2, 260};
  assert_int_equal(asc_kc_fixpipe_nd_run(dst, src, none, ASC_KC_F32, ASC_KC_F32, &p, &nd, &e), 0);
  for (int m = 0; m < 3; m++) {
    for (int i = 0; i < 256; i++) assert_true(out[m * 260 + i] == (float)(m * 512 + i));
    for (int i = 256; i < 260 && m < 2; i++) assert_true(out[m * 260 + i] == -1.0f);
  }
  /* none: nothing written; one too many: the fourth starts past dst */
  nd.nd_num = 0;
  for (int i = 0; i < 256; i++) out[i] = -1.0f;
  assert_int_equal(asc_kc_fixpipe_nd_run(dst, src, none, ASC_KC_F32, ASC_KC_F32, &p, &nd, &e), 0);
  assert_true(out[0] == -1.0f);
  nd = (asc_kc_fixpipe_nds){4, 1, 260};
  assert_int_equal(asc_kc_fixpipe_nd_run(dst, src, none, ASC_KC_F32, ASC_KC_F32, &p, &nd, &e), -1);
  assert_non_null(strstr(e.msg, "ND matrix 3 starts past its destination"));
  nd = (asc_kc_fixpipe_nds){2, 513, 260};
  assert_int_equal(asc_kc_fixpipe_nd_run(dst, src, none, ASC_KC_F32, ASC_KC_F32, &p, &nd, &e), -1);
  assert_non_null(strstr(e.msg, "src_nd_stride 513: [0, 512]"));
}

static void test_load_transpose(void **state) {
  (void)state;
  uint16_t src[512], dst[512];
  for (int i = 0; i < 512; i++) src[i] = (uint16_t)i;
  asc_kc_span s = {(char *)src, sizeof src}, d = {(char *)dst, sizeof dst};
  asc_kc_err e = {{0}};
  /* fractal 1 to destination fractal 0, transposed */
  asc_kc_load2d p = {1, 1, 0, 0, 1};
  assert_int_equal(asc_kc_load_data_2d(d, s, ASC_KC_F16, &p, &e), 0);
  for (int r = 0; r < 16; r++)
    for (int c = 0; c < 16; c++) assert_int_equal(dst[c * 16 + r], src[256 + r * 16 + c]);
}

static void test_errors(void **state) {
  (void)state;
  asc_kc_core core;
  asc_kc_err e = {{0}};
  asc_kc_span sp, none = {NULL, 0};
  assert_int_equal(asc_kc_core_init(&core, &e), 0);
  /* misaligned and out-of-buffer tensors */
  assert_int_equal(asc_kc_span_at(&core, ASC_KC_L0A, 32, &sp, &e), -1);
  assert_non_null(strstr(e.msg, "not aligned"));
  assert_int_equal(asc_kc_span_at(&core, ASC_KC_L0C, ASC_KC_L0C_SIZE, &sp, &e), -1);
  assert_non_null(strstr(e.msg, "outside L0C"));
  assert_int_equal(asc_kc_span_at(&core, ASC_KC_L1, 32, &sp, &e), 0);
  /* L0A overrun: 128 x 512 fp16 needs 128 KiB */
  asc_kc_span a, b, c;
  assert_int_equal(asc_kc_span_at(&core, ASC_KC_L0A, 0, &a, &e), 0);
  assert_int_equal(asc_kc_span_at(&core, ASC_KC_L0B, 0, &b, &e), 0);
  assert_int_equal(asc_kc_span_at(&core, ASC_KC_L0C, 0, &c, &e), 0);
  asc_kc_mmad mp = {128, 16, 512, 1, 0};
  assert_int_equal(asc_kc_mmad_run(&core, c, a, b, none, ASC_KC_F16, &mp, &e), -1);
  assert_non_null(strstr(e.msg, "L0A"));
  /* L0C overrun: 256 x 256 fp32 is 256 KiB */
  asc_kc_mmad mc = {256, 256, 16, 1, 0};
  assert_int_equal(asc_kc_mmad_run(&core, c, a, b, none, ASC_KC_F16, &mc, &e), -1);
  assert_non_null(strstr(e.msg, "L0C"));
  /* a bias that is too short; int32 inputs (fp32 ones are mmad's float form) */
  asc_kc_mmad mb = {16, 32, 16, 1, 1};
  float bias[16] = {0};
  asc_kc_span sb = {(char *)bias, sizeof bias};
  assert_int_equal(asc_kc_mmad_run(&core, c, a, b, sb, ASC_KC_F16, &mb, &e), -1);
  assert_non_null(strstr(e.msg, "bias"));
  assert_int_equal(asc_kc_mmad_run(&core, c, a, b, none, ASC_KC_S32, &mp, &e), -1);
  /* load_data past its source, int8 transpose, bad repeat */
  asc_kc_span small = {a.p, 512};
  asc_kc_load2d lp = {1, 1, 0, 0, 0};
  assert_int_equal(asc_kc_load_data_2d(b, small, ASC_KC_F16, &lp, &e), -1);
  assert_non_null(strstr(e.msg, "past its source"));
  lp.start_index = 0;
  lp.if_transpose = 1;
  assert_int_equal(asc_kc_load_data_2d(b, small, ASC_KC_S8, &lp, &e), -1);
  lp.if_transpose = 0;
  lp.repeat_times = 256;
  assert_int_equal(asc_kc_load_data_2d(b, a, ASC_KC_F16, &lp, &e), -1);
  /* fixpipe: wrong quant for the types, short destination, unaligned stride */
  char out[64];
  asc_kc_span so = {out, sizeof out};
  asc_kc_fixpipe fp = {16, 16, 16, 16, ASC_KC_NO_QUANT, 1.0f, 0, 0, 0};
  assert_int_equal(asc_kc_fixpipe_run(so, c, none, ASC_KC_F16, ASC_KC_F32, &fp, &e), -1);
  assert_non_null(strstr(e.msg, "quant mode"));
  assert_int_equal(asc_kc_fixpipe_run(so, c, none, ASC_KC_F32, ASC_KC_F32, &fp, &e), -1);
  assert_non_null(strstr(e.msg, "past its destination"));
  fp.src_stride = 20;
  assert_int_equal(asc_kc_fixpipe_run(so, c, none, ASC_KC_F32, ASC_KC_F32, &fp, &e), -1);
  fp.src_stride = 16;
  fp.quant = ASC_KC_VDEQF16;
  assert_int_equal(asc_kc_fixpipe_run(so, c, none, ASC_KC_F16, ASC_KC_S32, &fp, &e), -1);
  assert_non_null(strstr(e.msg, "quant vector"));
  /* Nd2Nz: a source row past the source, a destination too small */
  char gm[64];
  asc_kc_span sg = {gm, sizeof gm};
  asc_kc_nd2nz np = {1, 2, 32, 0, 32, 16, 1, 0};
  assert_int_equal(asc_kc_nd2nz_copy(c, sg, ASC_KC_F16, &np, &e), -1);
  assert_non_null(strstr(e.msg, "source"));
  np.n_value = 1;
  assert_int_equal(asc_kc_nd2nz_copy(so, sg, ASC_KC_F16, &np, &e), -1);
  assert_non_null(strstr(e.msg, "destination"));
  np.src_d_value = 8;
  assert_int_equal(asc_kc_nd2nz_copy(so, sg, ASC_KC_F16, &np, &e), -1);
  assert_non_null(strstr(e.msg, "out of range"));
  asc_kc_nz2nd zp = {1, 1, 16, 0, 0, 16, 0};
  assert_int_equal(asc_kc_nz2nd_copy(so, sg, ASC_KC_F16, &zp, &e), -1);
  asc_kc_core_free(&core);
}

static void test_nz2nd_round_trip(void **state) {
  (void)state;
  /* 20 x 40 fp16: ND -> NZ (C0 16, rows16 32) -> ND */
  uint16_t nd[20 * 40], nz[3 * 32 * 16], back[20 * 40];
  for (int i = 0; i < 20 * 40; i++) nd[i] = (uint16_t)(i * 7);
  memset(nz, 0, sizeof nz);
  asc_kc_err e = {{0}};
  asc_kc_span snd = {(char *)nd, sizeof nd}, snz = {(char *)nz, sizeof nz},
              sb = {(char *)back, sizeof back};
  asc_kc_nd2nz p = {1, 20, 40, 0, 40, 32, 1, 0};
  assert_int_equal(asc_kc_nd2nz_copy(snz, snd, ASC_KC_F16, &p, &e), 0);
  assert_int_equal(nz[(2 * 32 + 19) * 16 + 7], nd[19 * 40 + 39]);
  asc_kc_nz2nd q = {1, 20, 40, 0, 32, 40, 0};
  assert_int_equal(asc_kc_nz2nd_copy(sb, snz, ASC_KC_F16, &q, &e), 0);
  assert_memory_equal(nd, back, sizeof nd);
}

/* A group of rt/mix.h: each core records where it runs, then the AIC and
 * the AIVs hand a flag each way (mode 2); `hang` makes the AIC wait for a
 * flag no AIV sets. */
static int group_core(asc_k_ctx *k, const asc_k_arg *args) {
  int64_t *rec = (int64_t *)(void *)args[0].v.p;
  int hang = (int)args[1].v.i;
  int me = k->core_kind ? 0 : 1 + (int)k->sub_block_idx;
  rec[me * 3] = k->block_idx;
  rec[me * 3 + 1] = k->sub_block_num;
  rec[me * 3 + 2] = k->block_num;
  if (k->core_kind == 1) {
    if (asc_k_mix_cross(k, 1, 0, 2, 7)) return 1;
    return asc_k_mix_cross(k, hang ? 3 : 2, 1, 2, 8);
  }
  if (asc_k_mix_cross(k, 1, 1, 2, 9)) return 1;
  return asc_k_mix_cross(k, 2, 0, 2, 10);
}

/* The launch state a launcher gives blocks (jit_launch.c): every wait of
 * the runtime goes through it (rt/wait.h). Waits here end by themselves or
 * fail, so the services only yield and poll. */
static int64_t group_clock_ns(void) {
  return 0;
}
static void group_pause(unsigned spins) {
  (void)spins;
  sched_yield();
}
static void group_sleep(asc_k_launch *launch, int64_t epoch) {
  (void)launch, (void)epoch;
  sched_yield();
}
static void group_wake(asc_k_launch *launch) {
  (void)launch;
}
typedef struct group_launch {
  asc_k_launch l;
  int64_t words[4][3 * 24];
  unsigned char cstate[3 * 24], state[24];
  char report[ASC_K_REPORT_MAX], why[ASC_K_WHY_MAX];
} group_launch;
static void group_launch_init(group_launch *g, asc_k_ctx *k) {
  memset(g, 0, sizeof *g);
  g->l.nblocks = 24;
  g->l.capacity = 24;
  g->l.epoch = 1;
  g->l.seen = g->words[0], g->l.wdesc = g->words[1], g->l.wa = g->words[2], g->l.wb = g->words[3];
  g->l.cstate = g->cstate, g->l.state = g->state;
  g->l.report = g->report, g->l.why = g->why;
  g->l.clock_ns = group_clock_ns, g->l.pause = group_pause;
  g->l.sleep = group_sleep, g->l.wake = group_wake;
  k->sys.launch = &g->l;
  k->sys.slot = 3 * (int64_t)k->block_idx;
}

/* What the launcher does when a launch ends (jit_launch.c jit_release):
 * frees the launch-wide objects the blocks made. */
static void group_launch_end(group_launch *g) {
  if (g->l.board_free) g->l.board_free(g->l.board);
  if (g->l.pool_free) g->l.pool_free(g->l.pool);
  g->l.board_free = g->l.pool_free = NULL;
}

static void test_group(void **state) {
  (void)state;
  static group_launch launch;
  static char ub[256];
  int64_t rec[9] = {0};
  asc_k_arg args[2];
  args[0].v.p = (char *)rec;
  args[0].n = sizeof rec;
  args[1].v.i = 0;
  args[1].n = 0;
  asc_k_ctx k;
  memset(&k, 0, sizeof k);
  k.ub = ub;
  k.ub_size = sizeof ub;
  k.block_idx = 5;
  k.block_num = 24;
  group_launch_init(&launch, &k);
  assert_int_equal(asc_k_group_run(&k, args, group_core, 1, 0), 0);
  /* AIC: the group; AIV s: 2 * group + s; block_num: the groups */
  int64_t want[9] = {5, 1, 24, 10, 2, 24, 11, 2, 24};
  assert_memory_equal(rec, want, sizeof want);
  /* the AIC's and the second AIV's Unified Buffers came from the
   * launch's pool, and a later block of the launch gets the same two
   * back (rt/pool.h) */
  asc_kp_pool *pool = (asc_kp_pool *)launch.l.pool;
  assert_non_null(pool);
  assert_non_null(pool->idle);
  assert_non_null(pool->idle->next);
  assert_null(pool->idle->next->next);
  const asc_kp_item *a = pool->idle, *b = pool->idle->next;
  k.block_idx = 6;
  assert_int_equal(asc_k_group_run(&k, args, group_core, 1, 0), 0);
  assert_true((pool->idle == a && pool->idle->next == b) ||
              (pool->idle == b && pool->idle->next == a));
  assert_null(pool->idle->next->next);
  group_launch_end(&launch);
  k.block_idx = 5;
  args[1].v.i = 1;
  group_launch_init(&launch, &k);
  assert_int_equal(asc_k_group_run(&k, args, group_core, 1, 0), 1);
  group_launch_end(&launch);
  assert_non_null(strstr(k.msg,
                         "test_cube.py:8: cross_core_wait_flag: flag 3 (mode 2) is never "
                         "set"));
  assert_non_null(strstr(k.msg, "(on the AIC)"));
  /* one core of one kind: mode 2 means nothing there */
  memset(&k, 0, sizeof k);
  k.ub = ub;
  k.ub_size = sizeof ub;
  k.block_num = 1;
  args[1].v.i = 0;
  assert_int_equal(asc_k_group_run(&k, args, group_core, 0, 1), 1);
  assert_non_null(strstr(k.msg, "mode 2 synchronises a group's AIC with its AIVs"));
}

/* MmadParams::kDirectionAlign (init's bit 1): float A's rows of fractals lie
 * ceil(k / 16) * 2 fractals apart in L0A and only the first ceil(k / 8) of
 * each are read; the fractal after them holds values that must not count. */
static void test_k_direction_align(void **state) {
  (void)state;
  enum { M = 32, N = 16, K = 20, AK1 = 4, K1 = 3 };
  asc_kc_core core;
  asc_kc_err e = {{0}};
  assert_int_equal(asc_kc_core_init(&core, &e), 0);
  static float a[2 * AK1 * 128], b[K1 * 128], c[M * N * 2], out[M * N];
  double want[M * N] = {0};
  for (int r = 0; r < M; r++)
    for (int q = 0; q < AK1 * 8; q++) /* fractal (r / 16, q / 8), 16 x 8 inside */
      a[((r / 16) * AK1 + q / 8) * 128 + (r % 16) * 8 + q % 8] =
          q < K ? (float)((r * 7 + q * 3) % 9 - 4) : 1000.0f;
  for (int q = 0; q < K1 * 8; q++) /* fractal (q / 8, 0): row n, column q % 8 */
    for (int n = 0; n < N; n++)
      b[(q / 8) * 128 + n * 8 + q % 8] = q < K ? (float)((q * 5 + n) % 7 - 3) : 0.0f;
  for (int r = 0; r < M; r++)
    for (int n = 0; n < N; n++)
      for (int q = 0; q < K; q++)
        want[r * N + n] += (double)a[((r / 16) * AK1 + q / 8) * 128 + (r % 16) * 8 + q % 8] *
                           b[(q / 8) * 128 + n * 8 + q % 8];
  asc_kc_span sa = {(char *)a, sizeof a}, sb = {(char *)b, sizeof b}, sc = {(char *)c, sizeof c},
              none = {NULL, 0}, so = {(char *)out, sizeof out};
  asc_kc_mmad mp = {M, N, K, 1 | 2, 0};
  assert_int_equal(asc_kc_mmad_run(&core, sc, sa, sb, none, ASC_KC_F32, &mp, &e), 0);
  asc_kc_fixpipe fp = {N, M, M, N, ASC_KC_NO_QUANT, 1.0f, 0, 0, 0};
  assert_int_equal(asc_kc_fixpipe_run(so, sc, none, ASC_KC_F32, ASC_KC_F32, &fp, &e), 0);
  for (int i = 0; i < M * N; i++) assert_true(out[i] == (float)want[i]);
  /* without the flag the second row of fractals is read from fractal 3 */
  mp.init = 1;
  assert_int_equal(asc_kc_mmad_run(&core, sc, sa, sb, none, ASC_KC_F32, &mp, &e), 0);
  assert_int_equal(asc_kc_fixpipe_run(so, sc, none, ASC_KC_F32, ASC_KC_F32, &fp, &e), 0);
  int differ = 0;
  for (int i = 16 * N; i < M * N; i++) differ += out[i] != (float)want[i];
  assert_true(differ > 0);
  asc_kc_core_free(&core);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_matmul_shapes),     cmocka_unit_test(test_fixpipe_convert),
      cmocka_unit_test(test_load_transpose),    cmocka_unit_test(test_errors),
      cmocka_unit_test(test_nz2nd_round_trip),  cmocka_unit_test(test_group),
      cmocka_unit_test(test_k_direction_align), cmocka_unit_test(test_fixpipe_nd_matrices),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
