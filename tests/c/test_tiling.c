/* Host matmul tiling (asc/tiling.h): hand-traced tilings, a sweep that
 * checks every buffer bound, and errors. Uses hand-made device properties,
 * so no device is needed. */
#include "asc_test.h"

static asc_device_props props_910b(void) {
  asc_device_props p;
  memset(&p, 0, sizeof p);
  p.cube_core_count = 24;
  p.ai_core_count = 48;
  p.ub_size = 192 * 1024;
  p.l1_size = 512 * 1024;
  p.l0a_size = p.l0b_size = 64 * 1024;
  p.l0c_size = 128 * 1024;
  return p;
}

static void init(asc_tiling_ctx *ctx, asc_tiling_kind kind) {
  asc_device_props p = props_910b();
  assert_ok(asc_tiling_init(ctx, kind, &p));
}

/* float16 inputs, float32 output (the defaults are float32 throughout). */
static void set_fp16(asc_tiling_ctx *ctx) {
  assert_ok(asc_tiling_set_type(ctx, ASC_TILING_A, 0, 0, ASC_TILING_DT_FLOAT16, false));
  assert_ok(asc_tiling_set_type(ctx, ASC_TILING_B, 0, 0, ASC_TILING_DT_FLOAT16, false));
  assert_ok(asc_tiling_set_type(ctx, ASC_TILING_C, 0, 0, ASC_TILING_DT_FLOAT, false));
}

/* One fractal each way (traced by hand in tests/python/test_tiling_cann.py,
 * case C2): every L1 layout loads two fractals, A and B whole wins. */
static void test_one_fractal(void **state) {
  (void)state;
  asc_tiling_ctx ctx;
  asc_tcube_tiling t;
  init(&ctx, ASC_TILING_SINGLE_CORE);
  set_fp16(&ctx);
  assert_ok(asc_tiling_set_shape(&ctx, 16, 16, 16));
  assert_ok(asc_tiling_matmul_get(&ctx, &t));
  assert_int_equal(t.baseM, 16);
  assert_int_equal(t.baseN, 16);
  assert_int_equal(t.baseK, 16);
  assert_int_equal(t.depthA1, 1);
  assert_int_equal(t.depthB1, 1);
  assert_int_equal(t.shareL1Size, 1024);
  assert_int_equal(t.usedCoreNum, 1);
  assert_true(ctx.has_result);
}

/* 1024^3 over 8 cores, only the original shape set: the 910B split of
 * large outputs (case A1 of test_tiling_cann.py): 4 x 2 cores, base
 * 128 x 256 x 64, 16 and 8 K blocks of A and B filling L1. */
static void test_square_1024(void **state) {
  (void)state;
  asc_tiling_ctx ctx;
  asc_tcube_tiling t;
  init(&ctx, ASC_TILING_MULTI_CORE);
  set_fp16(&ctx);
  assert_ok(asc_tiling_set_dim(&ctx, 8));
  assert_ok(asc_tiling_set_org_shape(&ctx, 1024, 1024, 1024, -1));
  assert_ok(asc_tiling_matmul_get(&ctx, &t));
  assert_int_equal(t.usedCoreNum, 8);
  assert_int_equal(t.singleCoreM, 256);
  assert_int_equal(t.singleCoreN, 512);
  assert_int_equal(t.baseM, 128);
  assert_int_equal(t.baseN, 256);
  assert_int_equal(t.baseK, 64);
  assert_int_equal(t.depthA1, 16);
  assert_int_equal(t.depthB1, 8);
  assert_int_equal(t.shareL1Size, 512 * 1024);
  assert_int_equal(t.shareL0CSize, 128 * 256 * 4);
}

/* Every shape on a grid, single and multi-core, every input type, with
 * set_shape (the general core search), with only the original shape (the
 * 910B large/small output splits) and with K split over cores: each tiling
 * fits every buffer and its per-core tiles cover the output. */
static void test_sweep_fits_every_buffer(void **state) {
  (void)state;
  const int32_t types[][3] = {{ASC_TILING_DT_FLOAT16, ASC_TILING_DT_FLOAT, 2},
                              {ASC_TILING_DT_BF16, ASC_TILING_DT_FLOAT, 2},
                              {ASC_TILING_DT_FLOAT, ASC_TILING_DT_FLOAT, 4},
                              {ASC_TILING_DT_INT8, ASC_TILING_DT_INT32, 1}};
  const int64_t dims[] = {1, 17, 100, 255, 1000, 3001};
  for (int mode = 0; mode < 3; mode++)
    for (size_t ti = 0; ti < 4; ti++)
      for (size_t i = 0; i < 6; i++)
        for (size_t j = 0; j < 6; j++)
          for (size_t l = 0; l < 6; l++)
            for (int dim = 1; dim <= 24; dim += 23) {
              asc_tiling_ctx ctx;
              asc_tcube_tiling t;
              init(&ctx, ASC_TILING_MULTI_CORE);
              int32_t dt = types[ti][0], size = types[ti][2];
              int32_t bias_dt =
                  dt == ASC_TILING_DT_INT8 ? ASC_TILING_DT_INT32 : ASC_TILING_DT_FLOAT;
              assert_ok(asc_tiling_set_type(&ctx, ASC_TILING_A, 0, 0, dt, l % 2));
              assert_ok(asc_tiling_set_type(&ctx, ASC_TILING_B, 0, 0, dt, j % 2));
              assert_ok(asc_tiling_set_type(&ctx, ASC_TILING_C, 0, 0, types[ti][1], false));
              assert_ok(asc_tiling_set_type(&ctx, ASC_TILING_BIAS, 0, 0, bias_dt, false));
              assert_ok(asc_tiling_enable_bias(&ctx, i % 2));
              assert_ok(asc_tiling_set_dim(&ctx, dim));
              assert_ok(asc_tiling_set_org_shape(&ctx, dims[i], dims[j], dims[l], -1));
              if (mode != 1) assert_ok(asc_tiling_set_shape(&ctx, dims[i], dims[j], dims[l]));
              assert_ok(asc_tiling_enable_split_k(&ctx, mode == 2));
              assert_ok(asc_tiling_matmul_get(&ctx, &t));
              int64_t k_align = 32 / size;
              assert_int_equal(t.baseM % 16, 0);
              assert_int_equal(t.baseN % 16, 0);
              assert_int_equal(t.baseK % k_align, 0);
              assert_true((int64_t)t.baseM * t.baseK * size * t.dbL0A <= 64 * 1024);
              assert_true((int64_t)t.baseN * t.baseK * size * t.dbL0B <= 64 * 1024);
              assert_true((int64_t)t.baseM * t.baseN * 4 * t.dbL0C <= 128 * 1024);
              int64_t l1 = (int64_t)t.depthA1 * t.baseM * t.baseK * size +
                           (int64_t)t.depthB1 * t.baseN * t.baseK * size +
                           (t.isBias ? (int64_t)t.baseN * 4 : 0);
              assert_int_equal(l1, t.shareL1Size);
              assert_true(l1 <= 512 * 1024);
              int64_t mc = (dims[i] + t.singleCoreM - 1) / t.singleCoreM;
              int64_t nc = (dims[j] + t.singleCoreN - 1) / t.singleCoreN;
              int64_t kc = (dims[l] + t.singleCoreK - 1) / t.singleCoreK;
              /* the small-output split may count more cores than blocks
               * (one per 16 rows or columns of a tiny output) */
              if (mode == 1)
                assert_true(mc * nc * kc <= t.usedCoreNum);
              else
                assert_int_equal(mc * nc * kc, t.usedCoreNum);
              assert_true(t.usedCoreNum <= dim);
              if (mode != 2) assert_int_equal(t.singleCoreK, dims[l]);
            }
}

/* Sparse B: every tiling found has baseK a multiple of 64, keeps an L0
 * buffer double only where two blocks fit its half, and stays within L1
 * (the search may refuse a shape, as Ascend C's does: then an error). */
static void test_sparse_sweep(void **state) {
  (void)state;
  const int32_t types[][3] = {{ASC_TILING_DT_FLOAT16, ASC_TILING_DT_FLOAT, 2},
                              {ASC_TILING_DT_FLOAT, ASC_TILING_DT_FLOAT, 4},
                              {ASC_TILING_DT_INT8, ASC_TILING_DT_INT32, 1}};
  const int64_t dims[] = {16, 100, 1000, 3001};
  int found = 0, refused = 0;
  for (size_t ti = 0; ti < 3; ti++)
    for (size_t i = 0; i < 4; i++)
      for (size_t j = 0; j < 4; j++)
        for (size_t l = 0; l < 4; l++)
          for (int mode = 0; mode < 2; mode++) {
            asc_tiling_ctx ctx;
            asc_tcube_tiling t;
            init(&ctx, ASC_TILING_MULTI_CORE);
            int32_t dt = types[ti][0], size = types[ti][2];
            assert_ok(asc_tiling_set_type(&ctx, ASC_TILING_A, 0, 0, dt, false));
            assert_ok(asc_tiling_set_type(&ctx, ASC_TILING_B, 0, 0, dt, (i + j) % 2));
            assert_ok(asc_tiling_set_type(&ctx, ASC_TILING_C, 0, 0, types[ti][1], false));
            assert_ok(asc_tiling_set_dim(&ctx, 8));
            assert_ok(asc_tiling_set_org_shape(&ctx, dims[i], dims[j], dims[l], -1));
            if (mode) assert_ok(asc_tiling_set_shape(&ctx, dims[i], dims[j], dims[l]));
            assert_ok(asc_tiling_set_sparse(&ctx, true));
            asc_status st = asc_tiling_matmul_get(&ctx, &t);
            if (st != ASC_OK) {
              assert_int_equal(st, ASC_ERR_INVALID_VALUE);
              refused++;
              continue;
            }
            found++;
            assert_true(t.baseK >= 64);
            assert_int_equal(t.baseK % 64, 0);
            if (t.dbL0A == 2) assert_true((int64_t)t.baseM * t.baseK * size <= 32 * 1024);
            if (t.dbL0B == 2) assert_true((int64_t)t.baseN * t.baseK * size <= 32 * 1024);
            assert_true((int64_t)t.baseM * t.baseN * 4 * t.dbL0C <= 128 * 1024);
            assert_true(t.shareL1Size <= 512 * 1024);
          }
  assert_true(found > 3 * refused);
  /* the flag is checked like every setter */
  assert_error(asc_tiling_set_sparse(NULL, true), ASC_ERR_INVALID_VALUE, "NULL");
}

static void test_errors(void **state) {
  (void)state;
  asc_tiling_ctx ctx;
  asc_tcube_tiling t;
  asc_device_props p = props_910b();
  assert_error(asc_tiling_init(NULL, ASC_TILING_SINGLE_CORE, &p), ASC_ERR_INVALID_VALUE, "NULL");
  assert_error(asc_tiling_init(&ctx, (asc_tiling_kind)7, &p), ASC_ERR_INVALID_VALUE, "kind");
  init(&ctx, ASC_TILING_SINGLE_CORE);
  assert_error(asc_tiling_matmul_get(&ctx, &t), ASC_ERR_INVALID_VALUE, "no shape");
  assert_error(asc_tiling_set_shape(&ctx, 0, 1, 1), ASC_ERR_INVALID_VALUE, "M=0");
  assert_error(asc_tiling_set_shape(&ctx, 1, 1, (int64_t)1 << 31), ASC_ERR_INVALID_VALUE, "int32");
  assert_error(asc_tiling_set_type(&ctx, ASC_TILING_A, 0, 0, 11, false), ASC_ERR_TYPE,
               "DataType 11");
  assert_error(asc_tiling_set_buffer_space(&ctx, 1 << 30, -1, -1, -1), ASC_ERR_INVALID_VALUE,
               "l1_size");
  assert_error(asc_tiling_set_dim(&ctx, 65536), ASC_ERR_INVALID_VALUE, "65535");
  assert_ok(asc_tiling_set_shape(&ctx, 64, 64, 64));
  assert_ok(asc_tiling_set_buffer_space(&ctx, 100, -1, -1, -1));
  memset(&t, 0x5a, sizeof t);
  assert_error(asc_tiling_matmul_get(&ctx, &t), ASC_ERR_INVALID_VALUE, "L1");
  assert_int_equal(t.baseM, 0x5a5a5a5a); /* untouched on failure */
  assert_error(asc_tiling_matmul_get(&ctx, NULL), ASC_ERR_INVALID_VALUE, "NULL");
}

/* Sizes near INT32_MAX saturate instead of overflowing. */
static void test_int32_extremes(void **state) {
  (void)state;
  const int64_t big = INT32_MAX;
  asc_tiling_ctx ctx;
  asc_tcube_tiling t;
  init(&ctx, ASC_TILING_MULTI_CORE);
  assert_ok(asc_tiling_set_shape(&ctx, big, big, big));
  assert_ok(asc_tiling_set_dim(&ctx, 65535));
  assert_ok(asc_tiling_enable_bias(&ctx, true));
  assert_ok(asc_tiling_matmul_get(&ctx, &t));
  assert_true(t.usedCoreNum <= 65535);
  assert_ok(asc_tiling_set_fix_split(&ctx, big - 15, big - 15, big));
  assert_error(asc_tiling_matmul_get(&ctx, &t), ASC_ERR_INVALID_VALUE, "L0A");
  assert_ok(asc_tiling_set_fix_split(&ctx, -1, -1, -1));
  /* a fixed per-core shape: usedCoreNum is the cores offered */
  assert_ok(asc_tiling_set_single_shape(&ctx, 1, 1, 1));
  assert_ok(asc_tiling_matmul_get(&ctx, &t));
  assert_int_equal(t.usedCoreNum, 65535);
  init(&ctx, ASC_TILING_BATCH);
  assert_ok(asc_tiling_set_batch_info(&ctx, big, big, big, big, big));
  assert_ok(asc_tiling_matmul_get(&ctx, &t));
  assert_int_equal(t.singleBatchM, 1);
  assert_int_equal(t.singleBatchN, 1);
}

/* The SoftMax family: CANN's per-row words (a block, the row, 64) and the rows a pass; what
 * its checks refuse. */
static void test_softmax(void **state) {
  (void)state;
  uint32_t most = 0, least = 0;
  assert_ok(asc_tiling_softmax_tmp_size(ASC_SOFTMAX, 10, 64, 4, false, &most, &least));
  assert_int_equal(least, (8 + 64 + 64) * 4);
  assert_int_equal(most, 10 * least);
  uint32_t grad = 0;
  assert_ok(asc_tiling_softmax_tmp_size(ASC_SOFTMAX_GRAD, 1, 64, 2, false, NULL, &grad));
  assert_int_equal(grad, (2 * 16 + 3 * 64 + 64) * 4);
  asc_softmax_tiling t;
  assert_ok(asc_tiling_softmax(ASC_SOFTMAX, 10, 64, 4, 4 * least + 3, false, &t));
  assert_int_equal(t.splitM, 4); /* 4 rows fit; not above 8, kept */
  assert_int_equal(t.rangeM, 2);
  assert_int_equal(t.tailM, 2);
  assert_int_equal(t.tailReduceSize, 2 * 8);
  asc_softmax_tiling before = t;
  assert_error(asc_tiling_softmax(ASC_SOFTMAX, 10, 64, 4, 100, false, &t), ASC_ERR_INVALID_VALUE,
               "below one row");
  assert_memory_equal(&t, &before, sizeof t);
  assert_error(asc_tiling_softmax(ASC_SOFTMAX, 10, 60, 4, 1 << 20, false, &t),
               ASC_ERR_INVALID_VALUE, "multiple of 32 bytes");
  assert_error(asc_tiling_softmax(ASC_SOFTMAX, 0, 64, 4, 1 << 20, false, &t), ASC_ERR_INVALID_VALUE,
               "positive");
  assert_error(asc_tiling_softmax(ASC_SOFTMAX, 10, 64, 8, 1 << 20, false, &t),
               ASC_ERR_INVALID_VALUE, "dataTypeSize");
  assert_error(asc_tiling_softmax((asc_softmax_kind)7, 10, 64, 4, 1 << 20, false, &t),
               ASC_ERR_INVALID_VALUE, "unknown kind");
  assert_error(asc_tiling_softmax(ASC_SOFTMAX, 1 << 20, 1 << 13, 4, 1 << 20, false, &t),
               ASC_ERR_INVALID_VALUE, "uint32");
  assert_error(asc_tiling_softmax_tmp_size(ASC_SOFTMAX, 1 << 20, 1 << 10, 4, false, &most, NULL),
               ASC_ERR_INVALID_VALUE, "4 GiB");
  assert_error(asc_tiling_softmax(ASC_SOFTMAX, 10, 64, 4, 1 << 20, false, NULL),
               ASC_ERR_INVALID_VALUE, "NULL");
}

/* The Welford APIs' shared buffers: WelfordUpdate's float copies of a 256-byte repeat (3 for
 * half, 2 for float, 1 reusing the source) a pass, at most every element at once;
 * WelfordFinalize's four 64-float rows, or two rows and two abLength ones. */
static void test_welford(void **state) {
  (void)state;
  uint32_t most = 0, least = 0;
  assert_ok(asc_tiling_welford_update_tmp_size(1, 64, 4, false, &most, &least));
  assert_int_equal(least, 512);
  assert_int_equal(most, 512);
  assert_ok(asc_tiling_welford_update_tmp_size(4, 100, 2, false, &most, &least));
  assert_int_equal(least, 768);
  assert_int_equal(most, 7 * 768); /* 400 elements: 7 repeats of 64 */
  assert_ok(asc_tiling_welford_update_tmp_size(1, 65, 4, true, NULL, &least));
  assert_int_equal(least, 256);
  assert_ok(asc_tiling_welford_finalize_tmp_size(64, &most, &least));
  assert_int_equal(least, 1024);
  assert_int_equal(most, 1024);
  assert_ok(asc_tiling_welford_finalize_tmp_size(200, &most, NULL));
  assert_int_equal(most, (128 + 400) * 4);
  most = 7;
  assert_error(asc_tiling_welford_update_tmp_size(1, 64, 8, false, &most, &least),
               ASC_ERR_INVALID_VALUE, "half or float");
  assert_error(asc_tiling_welford_update_tmp_size(0, 64, 4, false, &most, &least),
               ASC_ERR_INVALID_VALUE, "positive");
  assert_error(asc_tiling_welford_update_tmp_size(1LL << 31, 1LL << 31, 4, false, &most, &least),
               ASC_ERR_INVALID_VALUE, "4 GiB");
  assert_error(asc_tiling_welford_finalize_tmp_size(12, &most, &least), ASC_ERR_INVALID_VALUE,
               "32-byte blocks");
  assert_error(asc_tiling_welford_finalize_tmp_size(1LL << 40, &most, &least),
               ASC_ERR_INVALID_VALUE, "32-byte blocks");
  assert_error(asc_tiling_welford_finalize_tmp_size((1LL << 31) + 8, &most, &least),
               ASC_ERR_INVALID_VALUE, "uint32");
  assert_int_equal(most, 7); /* untouched on every error */
}

/* Pad, UnPad and ConfusionTranspose: numbers worked by hand from CANN's
 * pad_tiling_impl.cpp and confusion_transpose_tiling_impl.cpp. */
static void test_pad_unpad(void **state) {
  (void)state;
  uint32_t most = 0, least = 0;
  /* 16 x 31 floats: 496 elements in 16-row passes of 64 bytes a row */
  assert_ok(asc_tiling_pad_tmp_size(16, 31, 4, &most, &least));
  assert_int_equal(most, 496 * 64);
  assert_int_equal(least, 1024);
  asc_pad_tiling t;
  assert_ok(asc_tiling_pad(16, 31, 16, 31, 1024, 4, &t));
  const uint32_t want[26] = {16, 31, 31, 23, 3,  255, 0, 16,  7905, 23, 1, 16, 128,
                             16, 1,  15, 16, 16, 31,  0, 254, 0,    2,  0, 0,  0};
  assert_int_equal(sizeof t, sizeof want);
  assert_memory_equal(&t, want, sizeof want);
  /* no tmp buffer: the aligned case's fields only (a 16 x 16 half row: one block) */
  assert_ok(asc_tiling_pad(300, 16, 300, 15, 0, 2, &t));
  assert_int_equal(t.widthWithoutLastBlock, 0);
  assert_int_equal(t.heightFractal, 1);
  assert_int_equal(t.heightFractalTail, 45);
  assert_int_equal(t.tailBlockOffset, 255 * 16);
  assert_int_equal(t.tmpBuffer1BlockNum, 0);
  asc_pad_tiling before = t;
  assert_error(asc_tiling_pad(16, 31, 16, 31, 100, 4, &t), ASC_ERR_INVALID_VALUE, "minimum");
  assert_error(asc_tiling_pad(16, 31, 17, 31, 0, 4, &t), ASC_ERR_INVALID_VALUE, "original");
  assert_error(asc_tiling_pad(16, 31, 16, 31, 0, 8, &t), ASC_ERR_INVALID_VALUE, "typeSize");
  assert_error(asc_tiling_pad(0, 31, 1, 1, 0, 4, &t), ASC_ERR_INVALID_VALUE, "positive");
  assert_error(asc_tiling_pad(1 << 20, 1 << 13, 1, 1, 0, 4, &t), ASC_ERR_INVALID_VALUE, "uint32");
  assert_memory_equal(&t, &before, sizeof t);
  assert_error(asc_tiling_pad(16, 31, 16, 31, 0, 4, NULL), ASC_ERR_INVALID_VALUE, "NULL");
  assert_error(asc_tiling_pad_tmp_size(1 << 16, 1 << 15, 4, &most, NULL), ASC_ERR_INVALID_VALUE,
               "4 GiB");

  assert_ok(asc_tiling_unpad_tmp_size(8, 8, 4, &most, &least));
  assert_int_equal(most + least, 0);
  asc_unpad_tiling u;
  assert_ok(asc_tiling_unpad(8, 8, 0, 4, &u));
  const uint32_t shape_only[8] = {8, 8, 0, 0, 0, 0, 0, 0};
  assert_memory_equal(&u, shape_only, sizeof u);
  /* 2048 bytes of half: 2 blocks, 32-element pieces; 64 is two whole ones */
  assert_ok(asc_tiling_unpad(320, 64, 2048, 2, &u));
  const uint32_t split[8] = {320, 64, 2, 32, 512, 32, 2, 32};
  assert_memory_equal(&u, split, sizeof u);
  assert_ok(asc_tiling_unpad(320, 70, 2048, 2, &u));
  assert_int_equal(u.widthFractal, 3);
  assert_int_equal(u.widthFractalTail, 6);
  assert_error(asc_tiling_unpad(8, 8, 1000, 4, &u), ASC_ERR_INVALID_VALUE, "minimum");
  assert_error(asc_tiling_unpad(8, -1, 0, 4, &u), ASC_ERR_INVALID_VALUE, "positive");
}

static void test_confusion_transpose(void **state) {
  (void)state;
  uint32_t most = 0, least = 0;
  const int64_t bnsh[4] = {1, 2, 64, 32};
  assert_ok(asc_tiling_confusion_transpose_tmp_size(bnsh, 4, 2, 1, &most, &least));
  assert_int_equal(most, 64 * 16 * 2);
  assert_int_equal(least, 512);
  asc_confusion_transpose_tiling t;
  assert_ok(asc_tiling_confusion_transpose(bnsh, 4, 512, 2, 1, &t));
  const uint32_t t1[18] = {16, 1, 2, 32, 64, 2, 256, 16, 1024, 4, 0, 2048, 4096, 64, 32, 4096};
  assert_memory_equal(&t, t1, sizeof t1);
  const int64_t f[4] = {2, 4, 32, 16};
  assert_ok(asc_tiling_confusion_transpose(f, 4, 0, 4, 3, &t));
  const uint32_t t3[18] = {8, 2, 4, 16, 2, 64, 4, 2, 32 * 2, 32, 1, 16, 0, 512, 4, 2048, 2048};
  assert_memory_equal(&t, t3, sizeof t3);
  assert_ok(asc_tiling_confusion_transpose(f, 4, 0, 4, 4, &t));
  const uint32_t t4[18] = {8, 2, 4, 16, 64, 4, 2, 1, 16, 0, 512, 4, 512, 256, 128, 2048, 2048, 2};
  assert_memory_equal(&t, t4, sizeof t4);
  assert_ok(asc_tiling_confusion_transpose(f, 4, 0, 2, 5, &t));
  const uint32_t t5[18] = {16, 2, 4, 16, 64, 4, 2, 1, 64, 512, 1024, 1024, 2048, 2048, 1};
  assert_memory_equal(&t, t5, sizeof t5);
  assert_ok(asc_tiling_confusion_transpose_tmp_size(f, 4, 4, 6, &most, &least));
  assert_int_equal(most, 2048);
  assert_int_equal(least, 2048);
  const int64_t hw[2] = {32, 48};
  assert_ok(asc_tiling_confusion_transpose(hw, 2, 0, 4, 7, &t));
  const uint32_t t7[18] = {8, 32, 48, 2, 32, 6};
  assert_memory_equal(&t, t7, sizeof t7);
  assert_ok(asc_tiling_confusion_transpose_tmp_size(hw, 2, 4, 7, &most, &least));
  assert_int_equal(most + least, 0);
  const int64_t nhw[3] = {2, 3, 4};
  assert_ok(asc_tiling_confusion_transpose(nhw, 2, 0, 1, 13, &t));
  const uint32_t t13[18] = {1, 2, 3};
  assert_memory_equal(&t, t13, sizeof t13);
  assert_ok(asc_tiling_confusion_transpose(nhw, 3, 0, 2, 15, &t));
  const uint32_t t15[18] = {2, 3, 4};
  assert_memory_equal(&t, t15, sizeof t15);
  asc_confusion_transpose_tiling before = t;
  assert_error(asc_tiling_confusion_transpose(bnsh, 4, 511, 2, 1, &t), ASC_ERR_INVALID_VALUE,
               "16 x 16");
  assert_error(asc_tiling_confusion_transpose(bnsh, 4, 0, 2, 8, &t), ASC_ERR_INVALID_VALUE,
               "transposeType 8");
  assert_error(asc_tiling_confusion_transpose(bnsh, 3, 0, 2, 3, &t), ASC_ERR_INVALID_VALUE,
               "4 dims");
  assert_error(asc_tiling_confusion_transpose(bnsh, 4, 0, 1, 3, &t), ASC_ERR_INVALID_VALUE,
               "typeSize");
  const int64_t zero[4] = {1, 0, 16, 16};
  assert_error(asc_tiling_confusion_transpose(zero, 4, 0, 2, 3, &t), ASC_ERR_INVALID_VALUE,
               "positive");
  const int64_t huge[4] = {1 << 20, 1 << 10, 1 << 10, 16};
  assert_error(asc_tiling_confusion_transpose(huge, 4, 0, 2, 4, &t), ASC_ERR_INVALID_VALUE,
               "uint32");
  assert_memory_equal(&t, &before, sizeof t);
  assert_error(asc_tiling_confusion_transpose(NULL, 4, 0, 2, 3, &t), ASC_ERR_INVALID_VALUE, "dims");
  assert_error(asc_tiling_confusion_transpose(bnsh, 4, 0, 2, 3, NULL), ASC_ERR_INVALID_VALUE,
               "NULL");
}

static void test_field_table_covers_the_struct(void **state) {
  (void)state;
  assert_int_equal(asc_tiling_tcube_field_count * sizeof(int32_t), sizeof(asc_tcube_tiling));
  for (size_t i = 0; i < asc_tiling_tcube_field_count; i++)
    assert_int_equal(asc_tiling_tcube_fields[i].offset, i * sizeof(int32_t));
}

/* The normalisation family's sizes and tilings, worked out from CANN's dav-2201 formulas. */
static void test_layernorm(void **state) {
  (void)state;
  uint32_t most = 0, least = 0;
  /* [2, 32, 16] float: 3 areas of 4096 bytes (or of a 64-byte row) and 2 x 256 of statistics */
  assert_ok(asc_tiling_layernorm_tmp_size(2, 32, 16, 4, false, &most, &least));
  assert_int_equal(most, 3 * 4096 + 512);
  assert_int_equal(least, 3 * 64 + 512);
  assert_ok(asc_tiling_layernorm_tmp_size(2, 32, 16, 4, true, &most, NULL));
  assert_int_equal(most, 2 * 4096 + 512); /* a reused float source is one of the areas */
  asc_layernorm_tiling t;
  assert_ok(asc_tiling_layernorm(2, 32, 16, 16, least, 4, false, &t));
  /* 176 floats / 3 = 58 -> 48 (whole rows): 21 passes and a tail row */
  assert_int_equal(t.oneTmpSize, 48);
  assert_int_equal(t.loopRound, 21);
  assert_int_equal(t.inputTailSize, 16);
  assert_int_equal(t.meanVarTailPos, 63);
  assert_int_equal(t.thirdTmpStartPos, 96);
  asc_layernorm_tiling before = t;
  assert_error(asc_tiling_layernorm(2, 32, 16, 16, 100, 4, false, &t), ASC_ERR_INVALID_VALUE,
               "do not hold one row");
  assert_memory_equal(&t, &before, sizeof t);
  assert_error(asc_tiling_layernorm(2, 32, 16, 17, 704, 4, false, &t), ASC_ERR_INVALID_VALUE,
               "original H");
  assert_error(asc_tiling_layernorm_tmp_size(2, 0, 16, 4, false, &most, &least),
               ASC_ERR_INVALID_VALUE, "S (0)");
  assert_error(asc_tiling_layernorm_tmp_size(2, 32, 16, 8, false, &most, &least),
               ASC_ERR_INVALID_VALUE, "typeSize");
  assert_error(asc_tiling_layernorm_tmp_size(1 << 20, 1 << 10, 1 << 10, 4, false, &most, &least),
               ASC_ERR_INVALID_VALUE, "2^32");
  assert_error(asc_tiling_layernorm(2, 32, 16, 16, 704, 4, false, NULL), ASC_ERR_INVALID_VALUE,
               "NULL");

  /* [A, R] = [32, 32] float: raised to Normalize's 2 x 128 + 2 x 4096 (max), 256 (min) */
  assert_ok(asc_tiling_normalize_tmp_size(32, 32, 4, 4, true, false, &most, &least));
  assert_int_equal(most, 2 * 128 + 2 * 4096);
  assert_int_equal(least, 256);
  assert_ok(asc_tiling_layernorm_separate_tmp_size(32, 32, 4, true, false, &most, &least));
  assert_int_equal(most, 2 * 128 + 2 * 4096 + 128);
  assert_int_equal(least, 384);
  asc_layernorm_separate_tiling sep;
  assert_ok(asc_tiling_layernorm_separate(32, 32, least, 4, true, &sep));
  assert_int_equal(sep.oneTmpSize, 32);
  assert_int_equal(sep.loopRound, 32);
  assert_int_equal(sep.firstTmpStartPos, 32);
  assert_true(sep.rValueBack == 1.0f / 32);
  assert_error(asc_tiling_layernorm_separate_tmp_size(32, 32, 4, false, false, &most, &least),
               ASC_ERR_INVALID_VALUE, "isComputeRstd");
  assert_error(asc_tiling_normalize_tmp_size(32, 32, 4, 4, true, true, &most, &least),
               ASC_ERR_INVALID_VALUE, "isOnlyOutput");

  /* LayerNormGrad [2, 32, 16] float: 6 areas; 6144 bytes = 256 floats an area (16 rows) */
  assert_ok(asc_tiling_layernorm_grad_tmp_size(2, 32, 16, 4, false, &most, &least));
  assert_int_equal(most, 6 * 1024 * 4);
  assert_int_equal(least, 6 * 256 * 4);
  asc_layernorm_grad_tiling g;
  assert_ok(asc_tiling_layernorm_grad(2, 32, 16, 16, least, 4, false, &g));
  assert_int_equal(g.oneCalSize, 256);
  assert_int_equal(g.loopNum, 4);
  assert_int_equal(g.x3TensorPos, 5 * 256);
  float back;
  memcpy(&back, &g.lastDimValueBack, sizeof back);
  assert_true(back == 1.0f / 16);
  assert_error(asc_tiling_layernorm_grad(2, 32, 16, 16, 100, 4, false, &g), ASC_ERR_INVALID_VALUE,
               "do not hold one row");
  /* LayerNormGradBeta half: (250 - 32) / 2 = 109 -> 96 floats a pass, a tail of 32 */
  asc_layernorm_grad_beta_tiling gb;
  assert_ok(asc_tiling_layernorm_grad_beta(1, 8, 16, 16, 1000, 2, &gb));
  assert_int_equal(gb.oneCalSize, 96);
  assert_int_equal(gb.inputTailSize, 32);
  assert_int_equal(gb.resForGammaTmpTensorPos, 128);
  assert_error(asc_tiling_layernorm_grad_beta(1, 8, 16, 16, 100, 2, &gb), ASC_ERR_INVALID_VALUE,
               "do not hold one row");

  /* DeepNorm [4, 16, 64] float basic: min 3 x 256 + 2 x 256; a pass of one row */
  assert_ok(asc_tiling_deepnorm_tmp_size(4, 16, 64, 4, false, true, &most, &least));
  assert_int_equal(least, 1280);
  asc_deepnorm_tiling d;
  assert_ok(asc_tiling_deepnorm(4, 16, 64, 4, 16, 64, least, 4, false, true, &d));
  assert_int_equal(d.oneTmpSize, 64);
  assert_int_equal(d.loopRound, 64);
  /* a basic block with 8 rows' room: whole 8-row blocks */
  assert_ok(asc_tiling_deepnorm(4, 16, 64, 4, 16, 64, 10 * 64 * 4 * 3, 4, false, true, &d));
  assert_int_equal(d.oneTmpSize, 8 * 64);
  assert_error(asc_tiling_deepnorm_tmp_size(4, 16, 32, 4, false, true, &most, &least),
               ASC_ERR_INVALID_VALUE, "multiple of 64");
  assert_error(asc_tiling_deepnorm_tmp_size(4, 16, 2048, 4, false, false, &most, &least),
               ASC_ERR_INVALID_VALUE, "at most 2040");
  assert_error(asc_tiling_deepnorm_tmp_size(4, 16, 20, 4, false, false, &most, &least),
               ASC_ERR_INVALID_VALUE, "32 bytes");
  assert_error(asc_tiling_deepnorm(4, 16, 64, 4, 16, 64, 1000, 4, false, true, &d),
               ASC_ERR_INVALID_VALUE, "below the minimum");
  assert_error(asc_tiling_deepnorm(4, 16, 64, 4, 8, 64, 1280, 4, false, true, &d),
               ASC_ERR_INVALID_VALUE, "B and S");
  assert_error(asc_tiling_deepnorm(4, 16, 64, 4, 16, 60, 1280, 4, false, true, &d),
               ASC_ERR_INVALID_VALUE, "isBasicBlock");
}

/* TopK's sizes and tilings, worked out from CANN's dav-2201 tiling. */
static void test_topk(void **state) {
  (void)state;
  const uint64_t ub = 192 * 1024;
  uint32_t most = 0, least = 0;
  /* the example: 2 rows of 32 floats, k 1, smallest, indices generated: (16 + 4) * 32 bytes */
  assert_ok(asc_tiling_topk_tmp_size(32, 2, 0, ASC_TOPK_NORMAL, 0, 4, ub, &most, &least));
  assert_int_equal(most, 640);
  assert_int_equal(least, 640);
  asc_topk_tiling t;
  assert_ok(asc_tiling_topk(32, 2, 1, 4, 0, ASC_TOPK_NORMAL, 0, ub, &t));
  const int32_t normal[24] = {160, 64, 64, 1, 8,   8, 16, 16, 2, 4, 2, 4,
                              6,   2,  64, 1, 128, 8, 0,  0,  0, 0, 0, 0};
  assert_int_equal(sizeof t, sizeof normal + 8 * sizeof(uint16_t));
  assert_memory_equal(&t, normal, sizeof normal);
  /* half, given indices: the sort elements' halves of 4 halves each, 16-aligned k */
  assert_ok(asc_tiling_topk(4096, 2, 37, 2, 1, ASC_TOPK_NORMAL, 1, ub, &t));
  assert_int_equal(t.tmpLocalSize, 8 * 4096);
  assert_int_equal(t.innerDataSize, 4 * 4096);
  assert_int_equal(t.maskOffset, 2 * 48);
  assert_int_equal(t.kAlignFourBytes, 40);
  assert_int_equal(t.mrgSortSrc3offset, 12);
  assert_int_equal(t.mrgFourQueueTailPara2, 2);
  assert_int_equal(t.srcIndexOffset, 0);
  /* NSMALL, half, k 27 of 6 rows, largest: six full 0b0001 groups, then three */
  assert_ok(asc_tiling_topk_tmp_size(32, 6, 0, ASC_TOPK_NSMALL, 1, 2, ub, &most, NULL));
  assert_int_equal(most, 192 * 8 + 64 + 192 * 4);
  assert_ok(asc_tiling_topk(32, 6, 27, 2, 0, ASC_TOPK_NSMALL, 1, ub, &t));
  assert_int_equal(t.innerDataSize, 768);
  assert_int_equal(t.maskOffset, 162);
  assert_int_equal(t.topkMrgSrc1MaskSizeOffset, 768);
  assert_int_equal(t.topkNSmallSrcIndexOffset, 800);
  assert_int_equal(t.tmpLocalSize, 800 + 384);
  assert_int_equal(t.vreduceIdxMask0, 0xAAAAAAAAu);
  assert_int_equal(t.vreduceIdxMask1, 0x2AAAAAu);
  assert_int_equal(t.vreduceValMask0, 0);
  const uint16_t halves[8] = {0x1111, 0x1111, 0x1111, 0x1111, 0x1111, 0x1111, 0x0111, 0};
  assert_memory_equal(&t.vreducehalfValMask0, halves, sizeof halves);
  /* NSMALL, float, k 5 of 3 rows, smallest, given indices: the negated copy before the masks */
  assert_ok(asc_tiling_topk_tmp_size(32, 3, 1, ASC_TOPK_NSMALL, 0, 4, ub, &most, &least));
  assert_int_equal(least, 96 * 8 + 64 + 96 * 4);
  assert_ok(asc_tiling_topk(32, 3, 5, 4, 1, ASC_TOPK_NSMALL, 0, ub, &t));
  assert_int_equal(t.topkMrgSrc1MaskSizeOffset, 192 + 96);
  assert_int_equal(t.tmpLocalSize, 192 + 96 + 16);
  assert_int_equal(t.vreduceValMask0, 0x155);
  assert_int_equal(t.vreduceIdxMask0, 0x2AA);
  /* refused: the outputs untouched */
  asc_topk_tiling before = t;
  most = least = 7;
  assert_error(asc_tiling_topk(48, 2, 1, 4, 0, ASC_TOPK_NORMAL, 1, ub, &t), ASC_ERR_INVALID_VALUE,
               "multiple of 32");
  assert_error(asc_tiling_topk(64, 2, 1, 4, 0, ASC_TOPK_NSMALL, 1, ub, &t), ASC_ERR_INVALID_VALUE,
               "must be 32");
  assert_error(asc_tiling_topk(32, 2, 0, 4, 0, ASC_TOPK_NORMAL, 1, ub, &t), ASC_ERR_INVALID_VALUE,
               "k (0)");
  assert_error(asc_tiling_topk(32, 2, 33, 4, 0, ASC_TOPK_NORMAL, 1, ub, &t), ASC_ERR_INVALID_VALUE,
               "[1, 32]");
  assert_error(asc_tiling_topk(32, 2, 1, 8, 0, ASC_TOPK_NORMAL, 1, ub, &t), ASC_ERR_INVALID_VALUE,
               "type size 8");
  assert_error(asc_tiling_topk(32, 0, 1, 4, 0, ASC_TOPK_NORMAL, 1, ub, &t), ASC_ERR_INVALID_VALUE,
               "outter");
  assert_error(asc_tiling_topk(32, 2, 1, 4, 0, 2, 1, ub, &t), ASC_ERR_INVALID_VALUE, "mode 2");
  assert_error(asc_tiling_topk(4096, 48, 1, 4, 0, ASC_TOPK_NORMAL, 1, ub, &t),
               ASC_ERR_INVALID_VALUE, "exceeds the UB");
  assert_error(asc_tiling_topk(INT64_MAX / 2, INT64_MAX / 2, 1, 4, 0, ASC_TOPK_NORMAL, 1, ub, &t),
               ASC_ERR_INVALID_VALUE, "multiple of 32");
  assert_error(asc_tiling_topk(1 << 30, 1 << 30, 1, 4, 0, ASC_TOPK_NORMAL, 1, UINT64_MAX, &t),
               ASC_ERR_INVALID_VALUE, "exceeds the UB");
  assert_memory_equal(&t, &before, sizeof t);
  assert_error(asc_tiling_topk(32, 2, 1, 4, 0, ASC_TOPK_NORMAL, 1, ub, NULL), ASC_ERR_INVALID_VALUE,
               "NULL");
  assert_error(asc_tiling_topk_tmp_size(-32, 2, 0, ASC_TOPK_NORMAL, 1, 2, ub, &most, &least),
               ASC_ERR_INVALID_VALUE, "multiple of 32");
  assert_int_equal(most, 7);
  assert_int_equal(least, 7);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_one_fractal),
      cmocka_unit_test(test_square_1024),
      cmocka_unit_test(test_sweep_fits_every_buffer),
      cmocka_unit_test(test_sparse_sweep),
      cmocka_unit_test(test_errors),
      cmocka_unit_test(test_int32_extremes),
      cmocka_unit_test(test_field_table_covers_the_struct),
      cmocka_unit_test(test_softmax),
      cmocka_unit_test(test_welford),
      cmocka_unit_test(test_pad_unpad),
      cmocka_unit_test(test_confusion_transpose),
      cmocka_unit_test(test_layernorm),
      cmocka_unit_test(test_topk),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
