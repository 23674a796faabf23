/* Host tiling of Ascend C's normalisation family (LayerNorm in both forms, LayerNormGrad,
 * LayerNormGradBeta, Normalize, DeepNorm): see include/asc/tiling.h.
 *
 * The numbers are those of CANN's asc-devkit for dav-2201
 * (impl/adv_api/tiling/normalization/): every API keeps float32 temporaries in its shared
 * buffer, a few whole-tensor (max) or whole-row (min) sized areas plus, for some, the rows'
 * statistics; the tiling cuts the rows into passes of as many rows as one area holds.
 * Everything is computed in int64 and refused past uint32, the fields' type, where CANN's
 * uint32 arithmetic would wrap. */
#include <stddef.h>
#include <string.h>

#include "asc/tiling.h"

enum { LN_BLOCK = 32, LN_FLOAT = 4, LN_FLOATS_PER_BLOCK = LN_BLOCK / LN_FLOAT };

static int64_t ln_round_up(int64_t n, int64_t unit) {
  return (n + unit - 1) / unit * unit;
}
static int64_t ln_min(int64_t a, int64_t b) {
  return a < b ? a : b;
}
static int64_t ln_max(int64_t a, int64_t b) {
  return a > b ? a : b;
}

/* What every function checks first: a type size of 2 or 4 and positive axes (n of them, names
 * for the message) whose product fits a uint32 element count. */
static asc_status ln_check(const char *api, int32_t type_size, const int64_t *axes,
                           const char *const *names, int n) {
  if (type_size != 2 && type_size != 4)
    return asc_error(ASC_ERR_INVALID_VALUE,
                     "%s tiling: typeSize must be 2 (half) or 4 (float), not %d", api,
                     (int)type_size);
  int64_t total = 1;
  for (int i = 0; i < n; i++) {
    if (axes[i] <= 0 || axes[i] > UINT32_MAX)
      return asc_error(ASC_ERR_INVALID_VALUE,
                       "%s tiling: the shape's %s (%lld) must be positive and fit a uint32", api,
                       names[i], (long long)axes[i]);
    if (total > UINT32_MAX / axes[i])
      return asc_error(ASC_ERR_INVALID_VALUE,
                       "%s tiling: the shape has more than 2^32 elements (its uint32 fields)", api);
    total *= axes[i];
  }
  return ASC_OK;
}

static asc_status ln_check_bsh(const char *api, int64_t b, int64_t s, int64_t h,
                               int32_t type_size) {
  static const char *const names[] = {"B", "S", "H"};
  const int64_t axes[] = {b, s, h};
  return ln_check(api, type_size, axes, names, 3);
}

/* The sizes into the outputs (either may be NULL), or an error past uint32. */
static asc_status ln_sizes(const char *api, int64_t most, int64_t least, uint32_t *max_bytes,
                           uint32_t *min_bytes) {
  if (most > UINT32_MAX || least > UINT32_MAX)
    return asc_error(ASC_ERR_INVALID_VALUE,
                     "%s tiling: the shape needs more than 4 GiB of tmp buffer", api);
  if (max_bytes) *max_bytes = (uint32_t)most;
  if (min_bytes) *min_bytes = (uint32_t)least;
  return ASC_OK;
}

static asc_status ln_null(const char *api) {
  return asc_error(ASC_ERR_INVALID_VALUE, "%s tiling: NULL output", api);
}

static asc_status ln_too_small(const char *api, uint32_t work_bytes, const char *query) {
  return asc_error(ASC_ERR_INVALID_VALUE,
                   "%s tiling: the tmp buffer's %u bytes do not hold one row's temporaries; give "
                   "it at least the minimum %s returns",
                   api, work_bytes, query);
}

/* --- LayerNorm [B, S, H] and DeepNorm: three (two when a float source is reused) areas of
 * float temporaries, plus float mean and variance for half data. ------------------------ */
static int64_t ln_areas(int32_t type_size, bool reuse) {
  return reuse && type_size == 4 ? 2 : 3;
}

static void ln_bsh_sizes(int64_t b, int64_t s, int64_t h, int32_t type_size, bool reuse,
                         int64_t *most, int64_t *least) {
  const int64_t stats = ln_round_up(b * s * LN_FLOAT, LN_BLOCK), n = ln_areas(type_size, reuse);
  *most = n * ln_round_up(b * s * h * LN_FLOAT, LN_BLOCK) + 2 * stats;
  *least = n * ln_round_up(h * LN_FLOAT, LN_BLOCK) + 2 * stats;
}

asc_status asc_tiling_layernorm_tmp_size(int64_t b, int64_t s, int64_t h, int32_t type_size,
                                         bool reuse, uint32_t *max_bytes, uint32_t *min_bytes) {
  asc_status st = ln_check_bsh("LayerNorm", b, s, h, type_size);
  if (st) return st;
  int64_t most = 0, least = 0;
  ln_bsh_sizes(b, s, h, type_size, reuse, &most, &least);
  return ln_sizes("LayerNorm", most, least, max_bytes, min_bytes);
}

/* The passes of LayerNorm's and DeepNorm's tiling; basic: DeepNorm's basic block (a pass in
 * whole 8-row blocks where the area holds one). */
static asc_status ln_bsh_tiling(const char *api, const char *query, int64_t b, int64_t s, int64_t h,
                                int64_t orig_h, uint32_t work_bytes, int32_t type_size, bool reuse,
                                bool basic, asc_layernorm_tiling *out) {
  const int64_t x_size = b * s * h, stats = b * s, n = ln_areas(type_size, reuse);
  const int64_t stat_size = ln_round_up(stats, LN_FLOATS_PER_BLOCK);
  const int64_t stat_total = type_size == 4 ? 0 : 2 * stat_size;
  const int64_t floats = work_bytes / LN_FLOAT;
  int64_t one = floats > stat_total ? (floats - stat_total) / n / h * h : 0;
  one = ln_min(one, x_size);
  if (basic && one / (8 * h) > 0) one = one / (8 * h) * (8 * h);
  if (one == 0) return ln_too_small(api, work_bytes, query);
  const int64_t tail = x_size % one;
  *out = (asc_layernorm_tiling){
      .bLength = (uint32_t)b,
      .sLength = (uint32_t)s,
      .hLength = (uint32_t)h,
      .originalHLength = (uint32_t)orig_h,
      .inputXSize = (uint32_t)x_size,
      .meanVarSize = (uint32_t)stats,
      .numberOfTmpBuf = (uint32_t)n,
      .meanTmpTensorPos = 0,
      .meanTmpTensorSize = (uint32_t)stat_size,
      .varianceTmpTensorPos = (uint32_t)stat_size,
      .varianceTmpTensorSize = (uint32_t)stat_size,
      .tmpBufSize = (uint32_t)floats,
      .oneTmpSize = (uint32_t)one,
      .firstTmpStartPos = (uint32_t)stat_total,
      .secondTmpStartPos = (uint32_t)(stat_total + one),
      .thirdTmpStartPos = (uint32_t)(stat_total + 2 * one),
      .loopRound = (uint32_t)(x_size / one),
      .inputRoundSize = (uint32_t)one,
      .inputTailSize = (uint32_t)tail,
      .inputTailPos = (uint32_t)(x_size - tail),
      .meanVarRoundSize = (uint32_t)(one / h),
      .meanVarTailSize = (uint32_t)(tail / h),
      .meanVarTailPos = (uint32_t)(stats - tail / h),
      .bshCurLength = (uint32_t)one,
      .bsCurLength = (uint32_t)(one / h),
      .lastDimValueBack = 1.0f / (float)orig_h,
  };
  return ASC_OK;
}

asc_status asc_tiling_layernorm(int64_t b, int64_t s, int64_t h, int64_t orig_h,
                                uint32_t work_bytes, int32_t type_size, bool reuse,
                                asc_layernorm_tiling *out) {
  if (!out) return ln_null("LayerNorm");
  asc_status st = ln_check_bsh("LayerNorm", b, s, h, type_size);
  if (st) return st;
  if (orig_h <= 0 || orig_h > h)
    return asc_error(ASC_ERR_INVALID_VALUE,
                     "LayerNorm tiling: the original H (%lld) must be in (0, H = %lld]",
                     (long long)orig_h, (long long)h);
  return ln_bsh_tiling("LayerNorm", "GetLayerNormMaxMinTmpSize", b, s, h, orig_h, work_bytes,
                       type_size, reuse, false, out);
}

/* --- Normalize and LayerNorm's separate form [A, R] ------------------------------------- */
static asc_status ln_check_ar(const char *api, int64_t a, int64_t r, int32_t type_size) {
  static const char *const names[] = {"A", "R"};
  const int64_t axes[] = {a, r};
  asc_status st = ln_check(api, type_size, axes, names, 2);
  if (st) return st;
  if (a > UINT32_MAX / ln_round_up(r, LN_BLOCK / type_size))
    return asc_error(ASC_ERR_INVALID_VALUE,
                     "%s tiling: the padded shape has more than 2^32 elements", api);
  return ASC_OK;
}

static asc_status ln_rstd_only(const char *api, bool compute_rstd, bool only_output) {
  if (!compute_rstd)
    return asc_error(ASC_ERR_INVALID_VALUE,
                     "%s tiling: isComputeRstd must be true on dav-2201 (it outputs rstd)", api);
  if (only_output)
    return asc_error(ASC_ERR_INVALID_VALUE, "%s tiling: isOnlyOutput must be false", api);
  return ASC_OK;
}

/* Normalize's: the most holds gamma, beta and two whole tensors (rows padded to 8); the least
 * the rstd, or two rows (four with float copies of half gamma and beta). */
static void ln_normalize_sizes(int64_t a, int64_t rwp, int32_t size_u, int64_t *most,
                               int64_t *least) {
  const int64_t row = ln_round_up(rwp * LN_FLOAT, LN_BLOCK);
  *most = 2 * row + 2 * ln_round_up(ln_round_up(a, 8) * rwp * LN_FLOAT, LN_BLOCK);
  *least = ln_max(ln_round_up(a * LN_FLOAT, LN_BLOCK), (size_u == 4 ? 2 : 4) * row);
}

asc_status asc_tiling_normalize_tmp_size(int64_t a, int64_t r, int32_t size_u, int32_t size_t_,
                                         bool compute_rstd, bool only_output, uint32_t *max_bytes,
                                         uint32_t *min_bytes) {
  asc_status st = ln_rstd_only("Normalize", compute_rstd, only_output);
  if (!st) st = ln_check_ar("Normalize", a, r, size_t_);
  if (st) return st;
  if (size_u != 2 && size_u != 4)
    return asc_error(ASC_ERR_INVALID_VALUE,
                     "Normalize tiling: typeSizeU must be 2 (half) or 4 (float), not %d",
                     (int)size_u);
  int64_t most = 0, least = 0;
  ln_normalize_sizes(a, ln_round_up(r, LN_BLOCK / size_t_), size_u, &most, &least);
  return ln_sizes("Normalize", most, least, max_bytes, min_bytes);
}

asc_status asc_tiling_layernorm_separate_tmp_size(int64_t a, int64_t r, int32_t type_size,
                                                  bool compute_rstd, bool only_output,
                                                  uint32_t *max_bytes, uint32_t *min_bytes) {
  asc_status st = ln_rstd_only("LayerNorm", compute_rstd, only_output);
  if (!st) st = ln_check_ar("LayerNorm", a, r, type_size);
  if (st) return st;
  const int64_t rwp = ln_round_up(r, LN_BLOCK / type_size);
  const int64_t stats = ln_round_up(a * LN_FLOAT, LN_BLOCK);
  int64_t most = 2 * ln_round_up(a * rwp * LN_FLOAT, LN_BLOCK) + stats;
  int64_t least = 2 * ln_round_up(rwp * LN_FLOAT, LN_BLOCK) + stats;
  int64_t norm_most = 0, norm_least = 0;
  ln_normalize_sizes(a, rwp, type_size, &norm_most, &norm_least);
  /* the variance stays beside Normalize's buffer: at least Normalize's and the variance */
  most = ln_max(most - stats, norm_most) + stats;
  least = ln_max(least - stats, norm_least) + stats;
  return ln_sizes("LayerNorm", most, least, max_bytes, min_bytes);
}

asc_status asc_tiling_layernorm_separate(int64_t a, int64_t r, uint32_t work_bytes,
                                         int32_t type_size, bool compute_rstd,
                                         asc_layernorm_separate_tiling *out) {
  if (!out) return ln_null("LayerNorm");
  asc_status st = ln_rstd_only("LayerNorm", compute_rstd, false);
  if (!st) st = ln_check_ar("LayerNorm", a, r, type_size);
  if (st) return st;
  const int64_t rwp = ln_round_up(r, LN_BLOCK / type_size), x_size = a * rwp;
  const int64_t var_size = ln_round_up(a, LN_FLOATS_PER_BLOCK), floats = work_bytes / LN_FLOAT;
  int64_t one = floats > var_size ? (floats - var_size) / 2 / rwp * rwp : 0;
  one = ln_min(one, x_size);
  if (one == 0) return ln_too_small("LayerNorm", work_bytes, "GetLayerNormMaxMinTmpSize");
  const int64_t tail = x_size % one;
  *out = (asc_layernorm_separate_tiling){
      .aLength = (uint32_t)a,
      .rLength = (uint32_t)r,
      .inputXSize = (uint32_t)x_size,
      .meanVarSize = (uint32_t)a,
      .numberOfTmpBuf = 2,
      .varianceTmpTensorPos = 0,
      .varianceTmpTensorSize = (uint32_t)var_size,
      .tmpBufSize = (uint32_t)floats,
      .oneTmpSize = (uint32_t)one,
      .firstTmpStartPos = (uint32_t)var_size,
      .secondTmpStartPos = (uint32_t)(var_size + one),
      .loopRound = (uint32_t)(x_size / one),
      .inputRoundSize = (uint32_t)one,
      .inputTailSize = (uint32_t)tail,
      .inputTailPos = (uint32_t)(x_size - tail),
      .meanVarRoundSize = (uint32_t)(one / rwp),
      .meanVarTailSize = (uint32_t)(tail / rwp),
      .meanVarTailPos = (uint32_t)(a - tail / rwp),
      .arCurLength = (uint32_t)one,
      .aCurLength = (uint32_t)(one / rwp),
      .rValueBack = 1.0f / (float)r,
  };
  return ASC_OK;
}

/* --- LayerNormGrad: 6 areas (4 reusing a float source, 9 for half data) of a pass's floats;
 * CANN sizes them from min(B*S*H, H*H) and max(...) elements of type_size bytes. ---------- */
static int64_t ln_grad_areas(int32_t type_size, bool reuse) {
  return type_size == 2 ? 9 : reuse ? 4 : 6;
}

static asc_status ln_check_grad(const char *api, int64_t b, int64_t s, int64_t h, int64_t orig_h,
                                int32_t type_size) {
  static const char *const names[] = {"B", "S", "H", "original H"};
  const int64_t axes[] = {b, s, h, orig_h};
  return ln_check(api, type_size, axes, names, 4);
}

asc_status asc_tiling_layernorm_grad_tmp_size(int64_t b, int64_t s, int64_t h, int32_t type_size,
                                              bool reuse, uint32_t *max_bytes,
                                              uint32_t *min_bytes) {
  asc_status st = ln_check_bsh("LayerNormGrad", b, s, h, type_size);
  if (st) return st;
  const int64_t x = b * s * h, hh = h * h, n = ln_grad_areas(type_size, reuse);
  return ln_sizes("LayerNormGrad", n * ln_max(x, hh) * type_size, n * ln_min(x, hh) * type_size,
                  max_bytes, min_bytes);
}

asc_status asc_tiling_layernorm_grad(int64_t b, int64_t s, int64_t h, int64_t orig_h,
                                     uint32_t work_bytes, int32_t type_size, bool reuse,
                                     asc_layernorm_grad_tiling *out) {
  if (!out) return ln_null("LayerNormGrad");
  asc_status st = ln_check_grad("LayerNormGrad", b, s, h, orig_h, type_size);
  if (st) return st;
  const int64_t x = b * s * h, n = ln_grad_areas(type_size, reuse);
  int64_t one = (int64_t)work_bytes / LN_FLOAT / n / h * h;
  if (one == 0) return ln_too_small("LayerNormGrad", work_bytes, "GetLayerNormGradMaxMinTmpSize");
  /* CANN rounds a pass's rows up to a block of the data type */
  const int64_t rows = ln_round_up(one / h, LN_BLOCK / type_size);
  one = rows * h;
  if (one * n > UINT32_MAX)
    return asc_error(ASC_ERR_INVALID_VALUE,
                     "LayerNormGrad tiling: the buffer's areas pass 2^32 elements");
  const bool no_x12 = reuse && type_size == 4;
  const int64_t x1 = no_x12 ? 0 : 3 * one, x2 = no_x12 ? 0 : 4 * one;
  const int64_t x3 = no_x12 ? 3 * one : 5 * one;
  const int64_t tmp = type_size == 2 ? x3 + one : 0;
  const float back = 1.0f / (float)orig_h, back2 = 2.0f / (float)orig_h;
  asc_layernorm_grad_tiling t = {
      .stackBufferSize = work_bytes,
      .bLength = (uint32_t)b,
      .sLength = (uint32_t)s,
      .hLength = (uint32_t)h,
      .originalHLength = (uint32_t)orig_h,
      .oneCalSize = (uint32_t)one,
      .nohCalSize = (uint32_t)rows,
      .loopNum = (uint32_t)(x / one),
      .tailSize = (uint32_t)(x % one),
      .nohTailSize = (uint32_t)(x % one / h),
      .tmpTensorBSHPos = 0,
      .pdVarTensorPos = (uint32_t)one,
      .pdMeanTensorPos = (uint32_t)(2 * one),
      .x1TensorPos = (uint32_t)x1,
      .x2TensorPos = (uint32_t)x2,
      .x3TensorPos = (uint32_t)x3,
      .tmpTensorPos = (uint32_t)tmp,
      .tmpTensor1Pos = (uint32_t)(tmp ? tmp + one : 0),
      .tmpTensor2Pos = (uint32_t)(tmp ? tmp + 2 * one : 0),
  };
  t.tmpTensorBSHSize = t.pdVarTensorSize = t.pdMeanTensorSize = t.x1TensorSize = (uint32_t)one;
  t.x2TensorSize = t.x3TensorSize = t.tmpTensorSize = t.tmpTensor1Size = (uint32_t)one;
  t.tmpTensor2Size = (uint32_t)one;
  memcpy(&t.lastDimValueBack, &back, sizeof back);
  memcpy(&t.lastDimValueBackMulTwo, &back2, sizeof back2);
  *out = t;
  return ASC_OK;
}

/* --- LayerNormGradBeta: a pass of float products (and for half data float copies of dy and
 * the two H-long sums). --------------------------------------------------------------- */
asc_status asc_tiling_layernorm_grad_beta_tmp_size(int64_t b, int64_t s, int64_t h,
                                                   int32_t type_size, uint32_t *max_bytes,
                                                   uint32_t *min_bytes) {
  asc_status st = ln_check_bsh("LayerNormGradBeta", b, s, h, type_size);
  if (st) return st;
  const int64_t n = type_size == 2 ? 4 : 2;
  return ln_sizes("LayerNormGradBeta", n * b * s * h * LN_FLOAT, n * h * LN_FLOAT, max_bytes,
                  min_bytes);
}

asc_status asc_tiling_layernorm_grad_beta(int64_t b, int64_t s, int64_t h, int64_t orig_h,
                                          uint32_t work_bytes, int32_t type_size,
                                          asc_layernorm_grad_beta_tiling *out) {
  if (!out) return ln_null("LayerNormGradBeta");
  asc_status st = ln_check_grad("LayerNormGradBeta", b, s, h, orig_h, type_size);
  if (st) return st;
  const int64_t floats = work_bytes / LN_FLOAT, bsh = b * s * h;
  const char *query = "GetLayerNormGradBetaMaxMinTmpSize";
  if (floats < 2 * h) return ln_too_small("LayerNormGradBeta", work_bytes, query);
  int64_t one = type_size == 2 ? (floats - 2 * h) / 2 : floats;
  one = ln_min(one / h * h, bsh);
  if (one == 0) return ln_too_small("LayerNormGradBeta", work_bytes, query);
  const int64_t tail = bsh % one;
  asc_layernorm_grad_beta_tiling t = {
      .stackBufferSize = (uint32_t)floats,
      .bLength = (uint32_t)b,
      .sLength = (uint32_t)s,
      .hLength = (uint32_t)h,
      .originalHLength = (uint32_t)orig_h,
      .bshLength = (uint32_t)bsh,
      .bsLength = (uint32_t)(b * s),
      .oneCalSize = (uint32_t)one,
      .numberOfTmpBuf = type_size == 2 ? 2 : 1,
      .loopRound = (uint32_t)(bsh / one),
      .inputTailSize = (uint32_t)tail,
      .inputTailPos = (uint32_t)(bsh - tail),
      .bsTailSize = (uint32_t)(tail / h),
      .bshCurLength = (uint32_t)one,
      .bsCurLength = (uint32_t)(one / h),
  };
  if (type_size == 2) {
    t.betaTempTensorPos = (uint32_t)h;
    t.inputDyTmpTensorPos = (uint32_t)(2 * h);
    t.resForGammaTmpTensorPos = (uint32_t)(2 * h + one);
  }
  *out = t;
  return ASC_OK;
}

/* --- DeepNorm [B, S, H]: LayerNorm's areas on alpha * x + gx ---------------------------- */
static asc_status dn_check(int64_t b, int64_t s, int64_t h, int32_t type_size, bool basic) {
  asc_status st = ln_check_bsh("DeepNorm", b, s, h, type_size);
  if (st) return st;
  if (h * type_size % LN_BLOCK)
    return asc_error(ASC_ERR_INVALID_VALUE,
                     "DeepNorm tiling: the last axis H (%lld elements of %d bytes) must be a "
                     "multiple of 32 bytes",
                     (long long)h, (int)type_size);
  if (h > 2040)
    return asc_error(ASC_ERR_INVALID_VALUE,
                     "DeepNorm tiling: the last axis H (%lld) can be at most 2040", (long long)h);
  if (basic && (h % 64 || b * s % 8))
    return asc_error(ASC_ERR_INVALID_VALUE,
                     "DeepNorm tiling: with isBasicBlock, H (%lld) must be a multiple of 64 and "
                     "B * S (%lld) of 8",
                     (long long)h, (long long)(b * s));
  return ASC_OK;
}

asc_status asc_tiling_deepnorm_tmp_size(int64_t b, int64_t s, int64_t h, int32_t type_size,
                                        bool reuse, bool basic, uint32_t *max_bytes,
                                        uint32_t *min_bytes) {
  asc_status st = dn_check(b, s, h, type_size, basic);
  if (st) return st;
  int64_t most = 0, least = 0;
  ln_bsh_sizes(b, s, h, type_size, reuse, &most, &least);
  return ln_sizes("DeepNorm", most, least, max_bytes, min_bytes);
}

asc_status asc_tiling_deepnorm(int64_t b, int64_t s, int64_t h, int64_t orig_b, int64_t orig_s,
                               int64_t orig_h, uint32_t work_bytes, int32_t type_size, bool reuse,
                               bool basic, asc_deepnorm_tiling *out) {
  if (!out) return ln_null("DeepNorm");
  asc_status st = dn_check(b, s, h, type_size, basic);
  if (st) return st;
  if (orig_b != b || orig_s != s)
    return asc_error(ASC_ERR_INVALID_VALUE,
                     "DeepNorm tiling: the original shape's B and S (%lld, %lld) must equal the "
                     "shape's (%lld, %lld)",
                     (long long)orig_b, (long long)orig_s, (long long)b, (long long)s);
  if (orig_h <= 0 || orig_h > h || (basic && orig_h != h))
    return asc_error(
        ASC_ERR_INVALID_VALUE, "DeepNorm tiling: the original H (%lld) must be in (0, H = %lld]%s",
        (long long)orig_h, (long long)h, basic ? " and equal H with isBasicBlock" : "");
  int64_t most = 0, least = 0;
  ln_bsh_sizes(b, s, h, type_size, reuse, &most, &least);
  if (work_bytes < least)
    return asc_error(ASC_ERR_INVALID_VALUE,
                     "DeepNorm tiling: the tmp buffer's %u bytes are below the minimum %lld "
                     "(GetDeepNormMaxMinTmpSize)",
                     work_bytes, (long long)least);
  return ln_bsh_tiling("DeepNorm", "GetDeepNormMaxMinTmpSize", b, s, h, orig_h, work_bytes,
                       type_size, reuse, basic, out);
}
