/* Host-side matmul tiling: see include/asc/tiling.h and docs/host-tiling.md.
 *
 * Every size here is computed in int64 from int32 inputs, so products of two
 * or three dimensions and an element size cannot overflow; buffer limits are
 * at most INT32_MAX, so anything compared against them fits the int32
 * TCubeTiling fields. */
#include "asc/tiling.h"

#include "../core/checked.h"
#include "algo.h"

#include <limits.h>
#include <stdio.h>
#include <string.h>

#define FIELD(py, c) \
  { py, #c, offsetof(asc_tcube_tiling, c) }
const asc_tcube_field asc_tiling_tcube_fields[] = {
    FIELD("used_core_num", usedCoreNum),
    FIELD("m", M),
    FIELD("n", N),
    FIELD("k_a", Ka),
    FIELD("k_b", Kb),
    FIELD("single_core_m", singleCoreM),
    FIELD("single_core_n", singleCoreN),
    FIELD("single_core_k", singleCoreK),
    FIELD("base_m", baseM),
    FIELD("base_n", baseN),
    FIELD("base_k", baseK),
    FIELD("depth_a1", depthA1),
    FIELD("depth_b1", depthB1),
    FIELD("step_m", stepM),
    FIELD("step_n", stepN),
    FIELD("is_bias", isBias),
    FIELD("trans_length", transLength),
    FIELD("iterate_order", iterateOrder),
    FIELD("share_mode", shareMode),
    FIELD("share_l1_size", shareL1Size),
    FIELD("share_l0c_size", shareL0CSize),
    FIELD("share_ub_size", shareUbSize),
    FIELD("batch_m", batchM),
    FIELD("batch_n", batchN),
    FIELD("single_batch_m", singleBatchM),
    FIELD("single_batch_n", singleBatchN),
    FIELD("step_k_a", stepKa),
    FIELD("step_k_b", stepKb),
    FIELD("depth_a_l1_cache_ub", depthAL1CacheUB),
    FIELD("depth_b_l1_cache_ub", depthBL1CacheUB),
    FIELD("db_l0a", dbL0A),
    FIELD("db_l0b", dbL0B),
    FIELD("db_l0c", dbL0C),
    FIELD("a_layout_info_b", ALayoutInfoB),
    FIELD("a_layout_info_s", ALayoutInfoS),
    FIELD("a_layout_info_n", ALayoutInfoN),
    FIELD("a_layout_info_g", ALayoutInfoG),
    FIELD("a_layout_info_d", ALayoutInfoD),
    FIELD("b_layout_info_b", BLayoutInfoB),
    FIELD("b_layout_info_s", BLayoutInfoS),
    FIELD("b_layout_info_n", BLayoutInfoN),
    FIELD("b_layout_info_g", BLayoutInfoG),
    FIELD("b_layout_info_d", BLayoutInfoD),
    FIELD("c_layout_info_b", CLayoutInfoB),
    FIELD("c_layout_info_s1", CLayoutInfoS1),
    FIELD("c_layout_info_n", CLayoutInfoN),
    FIELD("c_layout_info_g", CLayoutInfoG),
    FIELD("c_layout_info_s2", CLayoutInfoS2),
    FIELD("batch_num", BatchNum),
};
const size_t asc_tiling_tcube_field_count =
    sizeof asc_tiling_tcube_fields / sizeof asc_tiling_tcube_fields[0];

/* The element types the cube unit takes, with their sizes in bits. */
static const struct {
  int32_t dtype;
  const char *name;
  int bits;
} dtypes[] = {
    {ASC_TILING_DT_FLOAT, "DT_FLOAT", 32}, {ASC_TILING_DT_FLOAT16, "DT_FLOAT16", 16},
    {ASC_TILING_DT_BF16, "DT_BF16", 16},   {ASC_TILING_DT_INT8, "DT_INT8", 8},
    {ASC_TILING_DT_INT32, "DT_INT32", 32}, {ASC_TILING_DT_INT4, "DT_INT4", 4},
};

/* For each input type (A = B), the output and bias types a Matmul supports;
 * -1 ends a list. int8 outputs int32, or float16/int8 through (de)quantisation. */
static const struct {
  int32_t in;
  int32_t c[3];
  int32_t bias[2];
} combos[] = {
    {ASC_TILING_DT_FLOAT16,
     {ASC_TILING_DT_FLOAT16, ASC_TILING_DT_FLOAT, -1},
     {ASC_TILING_DT_FLOAT16, ASC_TILING_DT_FLOAT}},
    {ASC_TILING_DT_BF16,
     {ASC_TILING_DT_BF16, ASC_TILING_DT_FLOAT, -1},
     {ASC_TILING_DT_BF16, ASC_TILING_DT_FLOAT}},
    {ASC_TILING_DT_FLOAT, {ASC_TILING_DT_FLOAT, -1, -1}, {ASC_TILING_DT_FLOAT, -1}},
    {ASC_TILING_DT_INT8,
     {ASC_TILING_DT_INT32, ASC_TILING_DT_FLOAT16, ASC_TILING_DT_INT8},
     {ASC_TILING_DT_INT32, -1}},
    {ASC_TILING_DT_INT4,
     {ASC_TILING_DT_INT32, ASC_TILING_DT_FLOAT16, -1},
     {ASC_TILING_DT_INT32, -1}},
};

static const char *const operand_names[] = {"A", "B", "C", "bias"};

int asc_tiling_dtype_bits(int32_t dtype) {
  for (size_t i = 0; i < sizeof dtypes / sizeof dtypes[0]; i++)
    if (dtypes[i].dtype == dtype) return dtypes[i].bits;
  return 0;
}

int asc_tiling_dtype_size(int32_t dtype) {
  return asc_tiling_dtype_bits(dtype) / 8;
}

static const char *dtype_name(int32_t dtype) {
  for (size_t i = 0; i < sizeof dtypes / sizeof dtypes[0]; i++)
    if (dtypes[i].dtype == dtype) return dtypes[i].name;
  return "?";
}

static int64_t ceil_div(int64_t a, int64_t b) {
  return (a + b - 1) / b;
}
static int64_t align_up(int64_t a, int64_t b) {
  return ceil_div(a, b) * b;
}
static int64_t min64(int64_t a, int64_t b) {
  return a < b ? a : b;
}

/* Products of user sizes saturate: anything near INT64_MAX fits no buffer
 * (all of which are at most INT32_MAX bytes). Operands are non-negative. */
static int64_t smul(int64_t a, int64_t b) {
  int64_t r;
  return asc_mul_overflow_i64(a, b, &r) ? INT64_MAX : r;
}
static int64_t sadd(int64_t a, int64_t b) {
  int64_t r;
  return asc_add_overflow_i64(a, b, &r) ? INT64_MAX : r;
}

static int64_t clamp_size(size_t v) {
  return v > INT32_MAX ? INT32_MAX : (int64_t)v;
}

asc_status asc_tiling_init(asc_tiling_ctx *ctx, asc_tiling_kind kind,
                           const asc_device_props *props) {
  if (!ctx || !props) return asc_error(ASC_ERR_INVALID_VALUE, "tiling: NULL argument");
  if (kind != ASC_TILING_SINGLE_CORE && kind != ASC_TILING_MULTI_CORE && kind != ASC_TILING_BATCH)
    return asc_error(ASC_ERR_INVALID_VALUE, "tiling: unknown kind %d", (int)kind);
  memset(ctx, 0, sizeof *ctx);
  ctx->kind = kind;
  ctx->hw = (asc_tiling_hw){
      .l1_size = clamp_size(props->l1_size),
      .l0a_size = clamp_size(props->l0a_size),
      .l0b_size = clamp_size(props->l0b_size),
      .l0c_size = clamp_size(props->l0c_size),
      .ub_size = clamp_size(props->ub_size),
      .bt_size = ASC_TILING_BT_SIZE,
      .cube_core_count = props->cube_core_count,
      .vector_core_count = props->ai_core_count,
  };
  /* Ascend C's default for every operand: float32 in GM, ND */
  ctx->a = ctx->b = ctx->c = ctx->bias =
      (asc_tiling_operand){ASC_TILING_POS_GM, ASC_TILING_FMT_ND, ASC_TILING_DT_FLOAT, false};
  ctx->org_m = ctx->org_n = ctx->org_ka = ctx->org_kb = -1;
  ctx->m = ctx->n = ctx->k = -1;
  ctx->single_m = ctx->single_n = ctx->single_k = -1;
  ctx->dim = 1;
  ctx->base_m = ctx->base_n = ctx->base_k = -1;
  for (int i = 0; i < 3; i++) {
    ctx->max_base[i] = ctx->min_base[i] = -1;
    ctx->align_split[i] = ctx->single_max[i] = ctx->single_min[i] = -1;
  }
  ctx->l1_size = ctx->l0c_size = ctx->ub_size = ctx->bt_size = -1;
  ctx->traverse = ASC_TILING_TRAVERSE_NOSET;
  ctx->db_a = ctx->db_b = true;
  ctx->batch_num = -1;
  return ASC_OK;
}

/* A dimension: 1..INT32_MAX (TCubeTiling's fields are int32). */
static asc_status check_dim(const char *what, int64_t v, int32_t *out) {
  if (v < 1 || v > INT32_MAX)
    return asc_error(ASC_ERR_INVALID_VALUE,
                     "tiling: %s=%lld must be in [1, 2147483647] (TCubeTiling fields are int32)",
                     what, (long long)v);
  *out = (int32_t)v;
  return ASC_OK;
}

/* Like check_dim, but -1 means "not set". */
static asc_status check_opt_dim(const char *what, int64_t v, int32_t *out) {
  if (v == -1) {
    *out = -1;
    return ASC_OK;
  }
  return check_dim(what, v, out);
}

#define TRY(expr)                  \
  do {                             \
    asc_status st_ = (expr);       \
    if (st_ != ASC_OK) return st_; \
  } while (0)

static asc_status check_ctx(const asc_tiling_ctx *ctx) {
  return ctx ? ASC_OK : asc_error(ASC_ERR_INVALID_VALUE, "tiling: NULL context");
}

asc_status asc_tiling_set_type(asc_tiling_ctx *ctx, asc_tiling_operand_id which, int32_t pos,
                               int32_t format, int32_t dtype, bool trans) {
  TRY(check_ctx(ctx));
  if (which < ASC_TILING_A || which > ASC_TILING_BIAS)
    return asc_error(ASC_ERR_INVALID_VALUE, "tiling: unknown operand %d", (int)which);
  const char *name = operand_names[which];
  if (asc_tiling_dtype_bits(dtype) == 0)
    return asc_error(ASC_ERR_TYPE,
                     "tiling: %s: DataType %d is not a cube-unit type (DT_FLOAT16, DT_BF16, "
                     "DT_FLOAT, DT_INT8, DT_INT4, DT_INT32)",
                     name, (int)dtype);
  if (pos == ASC_TILING_POS_TSCM)
    return asc_error(ASC_ERR_UNSUPPORTED, "tiling: %s in TPosition.TSCM is not supported", name);
  if (pos != ASC_TILING_POS_GM && pos != ASC_TILING_POS_VECIN && pos != ASC_TILING_POS_VECOUT &&
      pos != ASC_TILING_POS_VECCALC)
    return asc_error(ASC_ERR_INVALID_VALUE,
                     "tiling: %s cannot be in TPosition %d (GM, VECIN, VECOUT or VECCALC)", name,
                     (int)pos);
  /* A GEMV's A is a VECTOR; Ascend C's search treats it as it treats any A that is not ND (its
   * VECTOR-only rule is for MX types, which the 910B has not) */
  bool matrix_format = format == ASC_TILING_FMT_ND || format == ASC_TILING_FMT_NZ ||
                       format == ASC_TILING_FMT_ND_ALIGN ||
                       (which == ASC_TILING_A && format == ASC_TILING_FMT_VECTOR);
  if (which == ASC_TILING_BIAS ? format != ASC_TILING_FMT_ND : !matrix_format)
    return asc_error(ASC_ERR_UNSUPPORTED, "tiling: %s in CubeFormat %d is not supported (%s)", name,
                     (int)format,
                     which == ASC_TILING_BIAS ? "ND"
                     : which == ASC_TILING_A  ? "ND, NZ, ND_ALIGN or VECTOR"
                                              : "ND, NZ or ND_ALIGN");
  asc_tiling_operand *op[] = {&ctx->a, &ctx->b, &ctx->c, &ctx->bias};
  *op[which] = (asc_tiling_operand){pos, format, dtype, which <= ASC_TILING_B && trans};
  ctx->has_result = false;
  return ASC_OK;
}

asc_status asc_tiling_set_org_shape(asc_tiling_ctx *ctx, int64_t m, int64_t n, int64_t ka,
                                    int64_t kb) {
  TRY(check_ctx(ctx));
  int32_t v[4] = {0};
  TRY(check_dim("org M", m, &v[0]));
  TRY(check_dim("org N", n, &v[1]));
  TRY(check_dim("org Ka", ka, &v[2]));
  TRY(check_dim("org Kb", kb < 0 ? ka : kb, &v[3]));
  ctx->org_m = v[0], ctx->org_n = v[1], ctx->org_ka = v[2], ctx->org_kb = v[3];
  ctx->has_result = false;
  return ASC_OK;
}

/* -1 for an axis takes the original shape's (Ascend C's SetShape(-1, -1, K)) */
asc_status asc_tiling_set_shape(asc_tiling_ctx *ctx, int64_t m, int64_t n, int64_t k) {
  TRY(check_ctx(ctx));
  int32_t v[3] = {0};
  TRY(check_opt_dim("M", m, &v[0]));
  TRY(check_opt_dim("N", n, &v[1]));
  TRY(check_opt_dim("K", k, &v[2]));
  ctx->m = v[0], ctx->n = v[1], ctx->k = v[2];
  ctx->has_result = false;
  return ASC_OK;
}

asc_status asc_tiling_set_single_shape(asc_tiling_ctx *ctx, int64_t m, int64_t n, int64_t k) {
  TRY(check_ctx(ctx));
  int32_t v[3] = {0};
  TRY(check_opt_dim("singleCoreM", m, &v[0]));
  TRY(check_opt_dim("singleCoreN", n, &v[1]));
  TRY(check_opt_dim("singleCoreK", k, &v[2]));
  ctx->single_m = v[0], ctx->single_n = v[1], ctx->single_k = v[2];
  ctx->has_result = false;
  return ASC_OK;
}

asc_status asc_tiling_set_dim(asc_tiling_ctx *ctx, int64_t dim) {
  TRY(check_ctx(ctx));
  int32_t v = 0;
  TRY(check_dim("dim", dim, &v));
  if (v > 65535)
    return asc_error(ASC_ERR_INVALID_VALUE,
                     "tiling: dim=%d exceeds 65535, the most blocks a launch can have", v);
  ctx->dim = v;
  ctx->has_result = false;
  return ASC_OK;
}

asc_status asc_tiling_set_fix_split(asc_tiling_ctx *ctx, int64_t base_m, int64_t base_n,
                                    int64_t base_k) {
  TRY(check_ctx(ctx));
  int32_t v[3] = {0};
  TRY(check_opt_dim("baseM", base_m, &v[0]));
  TRY(check_opt_dim("baseN", base_n, &v[1]));
  TRY(check_opt_dim("baseK", base_k, &v[2]));
  ctx->base_m = v[0], ctx->base_n = v[1], ctx->base_k = v[2];
  ctx->has_result = false;
  return ASC_OK;
}

asc_status asc_tiling_set_align_split(asc_tiling_ctx *ctx, int64_t align_m, int64_t align_n,
                                      int64_t align_k) {
  TRY(check_ctx(ctx));
  int32_t v[3] = {0};
  TRY(check_opt_dim("align_m", align_m, &v[0]));
  TRY(check_opt_dim("align_n", align_n, &v[1]));
  TRY(check_opt_dim("align_k", align_k, &v[2]));
  for (int i = 0; i < 3; i++) ctx->align_split[i] = v[i];
  ctx->has_result = false;
  return ASC_OK;
}

asc_status asc_tiling_enable_split_k(asc_tiling_ctx *ctx, bool flag) {
  TRY(check_ctx(ctx));
  ctx->split_k = flag;
  ctx->has_result = false;
  return ASC_OK;
}

asc_status asc_tiling_set_sparse(asc_tiling_ctx *ctx, bool flag) {
  TRY(check_ctx(ctx));
  ctx->sparse = flag;
  ctx->has_result = false;
  return ASC_OK;
}

/* Checks max[3] / min[3] pairs named names[0..5]; fills v[6]. */
static asc_status check_ranges(const char *const names[6], const int64_t max[3],
                               const int64_t min[3], int32_t v[6]) {
  for (int i = 0; i < 6; i++) TRY(check_opt_dim(names[i], i < 3 ? max[i] : min[i - 3], &v[i]));
  for (int i = 0; i < 3; i++)
    if (v[i] != -1 && v[i + 3] != -1 && v[i] < v[i + 3])
      return asc_error(ASC_ERR_INVALID_VALUE, "tiling: %s=%d is below %s=%d", names[i], v[i],
                       names[i + 3], v[i + 3]);
  return ASC_OK;
}

asc_status asc_tiling_set_single_range(asc_tiling_ctx *ctx, const int64_t max_single[3],
                                       const int64_t min_single[3]) {
  TRY(check_ctx(ctx));
  static const char *const names[] = {"max_m", "max_n", "max_k", "min_m", "min_n", "min_k"};
  int32_t v[6] = {0};
  TRY(check_ranges(names, max_single, min_single, v));
  for (int i = 0; i < 3; i++) ctx->single_max[i] = v[i], ctx->single_min[i] = v[i + 3];
  ctx->has_result = false;
  return ASC_OK;
}

asc_status asc_tiling_set_split_range(asc_tiling_ctx *ctx, const int64_t max_base[3],
                                      const int64_t min_base[3]) {
  TRY(check_ctx(ctx));
  static const char *const names[] = {"max_base_m", "max_base_n", "max_base_k",
                                      "min_base_m", "min_base_n", "min_base_k"};
  int32_t v[6] = {0};
  TRY(check_ranges(names, max_base, min_base, v));
  for (int i = 0; i < 3; i++) ctx->max_base[i] = v[i], ctx->min_base[i] = v[i + 3];
  ctx->has_result = false;
  return ASC_OK;
}

asc_status asc_tiling_set_buffer_space(asc_tiling_ctx *ctx, int64_t l1, int64_t l0c, int64_t ub,
                                       int64_t bt) {
  TRY(check_ctx(ctx));
  const struct {
    const char *name;
    int64_t value, device;
    int64_t *dst;
  } sizes[] = {
      {"l1_size", l1, ctx->hw.l1_size, &ctx->l1_size},
      {"l0_c_size", l0c, ctx->hw.l0c_size, &ctx->l0c_size},
      {"ub_size", ub, ctx->hw.ub_size, &ctx->ub_size},
      {"bt_size", bt, ctx->hw.bt_size, &ctx->bt_size},
  };
  for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
    if (sizes[i].value == -1) continue;
    if (sizes[i].value < 1 || sizes[i].value > sizes[i].device)
      return asc_error(ASC_ERR_INVALID_VALUE,
                       "tiling: %s=%lld must be -1 (the device's) or in [1, %lld] (the device's "
                       "size)",
                       sizes[i].name, (long long)sizes[i].value, (long long)sizes[i].device);
  }
  for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) *sizes[i].dst = sizes[i].value;
  ctx->has_result = false;
  return ASC_OK;
}

asc_status asc_tiling_set_traverse(asc_tiling_ctx *ctx, int32_t traverse) {
  TRY(check_ctx(ctx));
  if (traverse < ASC_TILING_TRAVERSE_NOSET || traverse > ASC_TILING_TRAVERSE_FIRSTN)
    return asc_error(ASC_ERR_INVALID_VALUE, "tiling: unknown MatrixTraverse %d", (int)traverse);
  ctx->traverse = traverse;
  ctx->has_result = false;
  return ASC_OK;
}

asc_status asc_tiling_enable_bias(asc_tiling_ctx *ctx, bool enable) {
  TRY(check_ctx(ctx));
  ctx->bias_enabled = enable;
  ctx->has_result = false;
  return ASC_OK;
}

asc_status asc_tiling_set_double_buffer(asc_tiling_ctx *ctx, bool a, bool b, bool c, bool bias) {
  TRY(check_ctx(ctx));
  ctx->db_a = a, ctx->db_b = b, ctx->db_c = c, ctx->db_bias = bias;
  ctx->has_result = false;
  return ASC_OK;
}

asc_status asc_tiling_set_layout(asc_tiling_ctx *ctx, int which, const int64_t values[5]) {
  TRY(check_ctx(ctx));
  if (which < 0 || which > 2)
    return asc_error(ASC_ERR_INVALID_VALUE, "tiling: layout of operand %d (0 A, 1 B, 2 C)", which);
  for (int i = 0; i < 5; i++)
    if (values[i] < 0 || values[i] > INT32_MAX)
      return asc_error(ASC_ERR_INVALID_VALUE,
                       "tiling: %s layout axis %d = %lld must be in [0, 2147483647]",
                       operand_names[which], i, (long long)values[i]);
  for (int i = 0; i < 5; i++) ctx->layout[which][i] = (int32_t)values[i];
  ctx->has_result = false;
  return ASC_OK;
}

asc_status asc_tiling_set_batch_num(asc_tiling_ctx *ctx, int64_t batch) {
  TRY(check_ctx(ctx));
  int32_t v = 0;
  TRY(check_dim("batch", batch, &v));
  ctx->batch_num = v;
  ctx->has_result = false;
  return ASC_OK;
}

asc_status asc_tiling_set_batch_info(asc_tiling_ctx *ctx, int64_t batch_a, int64_t batch_b,
                                     int64_t m, int64_t n, int64_t k) {
  TRY(check_ctx(ctx));
  int32_t v[5] = {0};
  TRY(check_dim("batch_a", batch_a, &v[0]));
  TRY(check_dim("batch_b", batch_b, &v[1]));
  TRY(check_dim("M", m, &v[2]));
  TRY(check_dim("N", n, &v[3]));
  TRY(check_dim("K", k, &v[4]));
  ctx->batch_a = v[0], ctx->batch_b = v[1];
  ctx->m = ctx->org_m = v[2], ctx->n = ctx->org_n = v[3];
  ctx->k = ctx->org_ka = ctx->org_kb = v[4];
  ctx->has_result = false;
  return ASC_OK;
}

/* ---- the algorithm ------------------------------------------------------ */

static asc_status check_types(const asc_tiling_ctx *ctx) {
  if (ctx->a.dtype != ctx->b.dtype)
    return asc_error(ASC_ERR_TYPE,
                     "tiling: A is %s but B is %s: the cube unit multiplies equal input types",
                     dtype_name(ctx->a.dtype), dtype_name(ctx->b.dtype));
  for (size_t i = 0; i < sizeof combos / sizeof combos[0]; i++) {
    if (combos[i].in != ctx->a.dtype) continue;
    bool c_ok = false, bias_ok = !ctx->bias_enabled;
    for (int j = 0; j < 3; j++) c_ok |= combos[i].c[j] == ctx->c.dtype;
    for (int j = 0; j < 2; j++) bias_ok |= combos[i].bias[j] == ctx->bias.dtype;
    if (!c_ok)
      return asc_error(ASC_ERR_TYPE, "tiling: %s inputs cannot produce a %s C",
                       dtype_name(ctx->a.dtype), dtype_name(ctx->c.dtype));
    if (!bias_ok)
      return asc_error(ASC_ERR_TYPE, "tiling: %s inputs cannot take a %s bias",
                       dtype_name(ctx->a.dtype), dtype_name(ctx->bias.dtype));
    return ASC_OK;
  }
  return asc_error(ASC_ERR_TYPE, "tiling: the cube unit does not multiply %s inputs",
                   dtype_name(ctx->a.dtype));
}

/* A buffer limit as the search sees it: set_buffer_space sizes are rounded
 * down to 32 bytes. */
static int64_t limit_of(int64_t set, int64_t device) {
  return set > 0 ? set - set % 32 : device;
}

/* Resolves the context into the search's inputs, checking what the search
 * cannot check itself. */
static asc_status resolve(const asc_tiling_ctx *ctx, tl_job *j) {
  memset(j, 0, sizeof *j);
  const asc_tiling_hw *hw = &ctx->hw;
  if (hw->l1_size <= 0 || hw->l0a_size <= 0 || hw->l0b_size <= 0 || hw->l0c_size <= 0 ||
      hw->ub_size <= 0 || hw->bt_size <= 0 || ctx->dim < 1)
    return asc_error(ASC_ERR_INVALID_VALUE,
                     "tiling: the context is not initialised or its device has an empty buffer "
                     "(L1 %lld, L0A %lld, L0B %lld, L0C %lld, UB %lld bytes)",
                     (long long)hw->l1_size, (long long)hw->l0a_size, (long long)hw->l0b_size,
                     (long long)hw->l0c_size, (long long)hw->ub_size);
  if (ctx->org_m < 0 && ctx->m < 0 && ctx->n < 0 && ctx->k < 0)
    return asc_error(ASC_ERR_INVALID_VALUE, "tiling: no shape: call set_shape or set_org_shape");
  if (ctx->org_m < 0 && (ctx->m < 0 || ctx->n < 0 || ctx->k < 0))
    return asc_error(ASC_ERR_INVALID_VALUE,
                     "tiling: set_shape's -1 takes the original shape's axis: call set_org_shape");
  TRY(check_types(ctx));
  if (ctx->org_m > 0) {
    j->org_m = ctx->org_m, j->org_n = ctx->org_n, j->org_ka = ctx->org_ka, j->org_kb = ctx->org_kb;
  } else {
    j->org_m = ctx->m, j->org_n = ctx->n, j->org_ka = j->org_kb = ctx->k;
  }
  j->single_m = ctx->m, j->single_n = ctx->n, j->single_k = ctx->k;
  int64_t m = asc_tiling_single_m(j), n = asc_tiling_single_n(j), k = asc_tiling_single_k(j);
  if ((ctx->m > 0 || ctx->n > 0 || ctx->k > 0) &&
      (m > j->org_m || n > j->org_n || k > min64(j->org_ka, j->org_kb)))
    return asc_error(ASC_ERR_INVALID_VALUE,
                     "tiling: shape (%lld, %lld, %lld) exceeds the original shape (M=%lld, "
                     "N=%lld, Ka=%lld, Kb=%lld)",
                     (long long)m, (long long)n, (long long)k, (long long)j->org_m,
                     (long long)j->org_n, (long long)j->org_ka, (long long)j->org_kb);
  const int ba = asc_tiling_dtype_bits(ctx->a.dtype), bb = asc_tiling_dtype_bits(ctx->b.dtype);
  j->a_bits = ba, j->b_bits = bb;
  j->c_bits = asc_tiling_dtype_bits(ctx->c.dtype);
  j->bias_bytes = asc_tiling_dtype_size(ctx->bias.dtype);
  j->a_float = ctx->a.dtype == ASC_TILING_DT_FLOAT,
  j->b_float = ctx->b.dtype == ASC_TILING_DT_FLOAT;
  j->a_int8 = ba == 8, j->b_int8 = bb == 8;
  j->a_i4 = ba == 4, j->b_i4 = bb == 4;
  j->a_trans = ctx->a.trans, j->b_trans = ctx->b.trans;
  j->a_nz = ctx->a.format == ASC_TILING_FMT_NZ, j->b_nz = ctx->b.format == ASC_TILING_FMT_NZ;
  j->c_nz = ctx->c.format == ASC_TILING_FMT_NZ;
  j->a_nd = ctx->a.format == ASC_TILING_FMT_ND, j->b_nd = ctx->b.format == ASC_TILING_FMT_ND;
  if (j->a_nz && (m % 16 || k % (256 / ba)))
    return asc_error(ASC_ERR_INVALID_VALUE,
                     "tiling: an NZ A needs M a multiple of 16 and K of %d (M=%lld, K=%lld)",
                     256 / ba, (long long)m, (long long)k);
  if (j->b_nz && (n % 16 || k % (256 / bb)))
    return asc_error(ASC_ERR_INVALID_VALUE,
                     "tiling: an NZ B needs N a multiple of 16 and K of %d (N=%lld, K=%lld)",
                     256 / bb, (long long)n, (long long)k);
  j->bias = ctx->bias_enabled;
  j->l1 = limit_of(ctx->l1_size, hw->l1_size);
  j->l0a = hw->l0a_size, j->l0b = hw->l0b_size;
  j->l0c = limit_of(ctx->l0c_size, hw->l0c_size);
  j->ub = limit_of(ctx->ub_size, hw->ub_size);
  j->bt = ctx->bt_size > 0 ? ctx->bt_size : hw->bt_size;
  j->core_m = j->core_n = j->core_k = -1;
  if (ctx->kind == ASC_TILING_MULTI_CORE) {
    j->core_m = ctx->single_m, j->core_n = ctx->single_n, j->core_k = ctx->single_k;
    j->block_dim = ctx->dim;
    j->split_k = ctx->split_k;
  } else {
    j->block_dim = 1;
  }
  j->fix_m = ctx->base_m, j->fix_n = ctx->base_n, j->fix_k = ctx->base_k;
  j->traverse = ctx->traverse;
  j->sparse = ctx->sparse;
  j->reduce = 256 / ba; /* A's C0: 32 bytes of it */
  j->single_shape = j->core_m != -1 || j->core_n != -1 || j->core_k != -1;
  if (j->single_shape && (j->core_m > m || j->core_n > n || j->core_k > k))
    return asc_error(ASC_ERR_INVALID_VALUE,
                     "tiling: single-core shape (%lld, %lld, %lld) exceeds the shape (%lld, %lld, "
                     "%lld)",
                     (long long)j->core_m, (long long)j->core_n, (long long)j->core_k, (long long)m,
                     (long long)n, (long long)k);
  j->nob = j->single_shape ? 1 : j->block_dim;
  return ASC_OK;
}

/* Fixed base sizes must be whole fractals and fit L0 next to each other;
 * with a bias, baseN at most 256 (the BiasTable). */
static asc_status check_fixed(const tl_job *j) {
  const char *bad = NULL;
  if (j->fix_m != -1 && j->fix_m % 16)
    bad = "baseM must be a multiple of 16";
  else if (j->fix_n != -1 && j->fix_n % 16)
    bad = "baseN must be a multiple of 16";
  else if (j->fix_m != -1 && j->fix_k != -1 &&
           smul(smul(j->fix_m, j->fix_k), j->a_bits) / 8 > j->l0a)
    bad = "L0A (baseM*baseK*sizeof(A)) is too small";
  else if (j->fix_k != -1 && j->fix_n != -1 &&
           smul(smul(j->fix_k, j->fix_n), j->b_bits) / 8 > j->l0b)
    bad = "L0B (baseN*baseK*sizeof(B)) is too small";
  else if (j->fix_m != -1 && j->fix_n != -1 && smul(smul(j->fix_m, j->fix_n), 4) > j->l0c)
    bad = "L0C (baseM*baseN*4*dbL0C) is too small";
  else if (j->bias && j->fix_n > 256)
    bad = "with a bias baseN may be at most 256 (the BiasTable holds 256 float32)";
  else if (j->fix_m != -1 && (j->fix_m * 32 > j->l0a || (j->fix_n == -1 && j->fix_m * 64 > j->l0c)))
    bad = "L0A (baseM*32 bytes) or L0C (baseM*16*4) is too small";
  else if (j->fix_n != -1 && (j->fix_n * 32 > j->l0b || (j->fix_m == -1 && j->fix_n * 64 > j->l0c)))
    bad = "L0B (baseN*32 bytes) or L0C (baseN*16*4) is too small";
  if (bad)
    return asc_error(ASC_ERR_INVALID_VALUE, "tiling: set_fix_split(%lld, %lld, %lld): %s",
                     (long long)j->fix_m, (long long)j->fix_n, (long long)j->fix_k, bad);
  return ASC_OK;
}

/* Which loop runs inside: 0 M first (N outer), 1 N first. */
static int32_t iterate_order(const tl_job *j, const tl_l0 *l0, const tl_l1 *l1, int64_t sm,
                             int64_t sn, int64_t sk) {
  if (j->traverse != ASC_TILING_TRAVERSE_NOSET) return j->traverse - 1;
  bool a_whole = !((float)sk / (float)(l1->k_a * j->reduce) > 1.0f);
  bool b_whole = !((float)sk / (float)(l1->k_b * j->reduce) > 1.0f);
  if (!a_whole && !b_whole) return 0;
  if (a_whole && !b_whole) return 1;
  if (!a_whole && b_whole) return 0;
  int64_t m_loop = asc_tiling_ceil(sm, l1->m_a * l0->m * 16);
  int64_t n_loop = asc_tiling_ceil(sn, l1->n_b * l0->n * 16);
  return sm + sn * m_loop < sn + sm * n_loop ? 1 : 0;
}

/* float32 B: depthB1 shrinks when K rounded to 16 would overflow L1. The
 * products wrap at 16 bits, as the reference computes them. */
static int64_t depth_b1(const tl_job *j, const asc_tcube_tiling *t, int64_t depth) {
  if (!j->b_float) return depth;
  uint16_t k16 = (uint16_t)(asc_tiling_ceil(t->baseK, 16) * 16);
  uint16_t kn = (uint16_t)(k16 * t->baseN);
  uint16_t km = (uint16_t)(t->baseK * t->baseM);
  if (j->a_trans && j->a_float) km = (uint16_t)(k16 * t->baseM);
  if (((int64_t)t->depthA1 * km + (int64_t)kn * depth) * 4 > j->l1 && kn != 0) {
    depth = (int64_t)t->baseN * t->baseK * depth / kn;
    if (depth < 1) depth = 1;
  }
  return depth;
}

asc_status asc_tiling_matmul_get(asc_tiling_ctx *ctx, asc_tcube_tiling *out) {
  TRY(check_ctx(ctx));
  if (!out) return asc_error(ASC_ERR_INVALID_VALUE, "tiling: NULL output");
  tl_job j;
  TRY(resolve(ctx, &j));
  TRY(check_fixed(&j));
  /* L0A/L0B double buffering unless a fixed block fills half of it */
  j.db_l0a = j.fix_m != -1 && j.fix_m * 32 > j.l0a / 2 ? 1 : 2;
  j.db_l0b = j.fix_n != -1 && j.fix_n * 32 > j.l0b / 2 ? 1 : 2;

  /* the share in fractals */
  int64_t rm = asc_tiling_single_m(&j), rn = asc_tiling_single_n(&j), rk = asc_tiling_single_k(&j);
  if (j.single_shape) {
    rm = j.core_m != -1 ? j.core_m : rm;
    rn = j.core_n != -1 ? j.core_n : rn;
    rk = j.core_k != -1 ? j.core_k : rk;
  }
  tl_params p;
  p.m32 = asc_tiling_ceil(rm, 16), p.n32 = asc_tiling_ceil(rn, 16);
  p.k32 = asc_tiling_ceil(rk, j.reduce);
  p.m_mapped = asc_tiling_map_shape(p.m32, true);
  p.n_mapped = asc_tiling_map_shape(p.n32, true);
  p.k_mapped = asc_tiling_map_shape(p.k32, true);

  tl_split sp;
  if (!asc_tiling_split(&j, &p, &sp))
    return asc_error(ASC_ERR_OUT_OF_MEMORY, "tiling: out of memory splitting over %lld cores",
                     (long long)j.nob);
  tl_l0 l0 = sp.l0;
  tl_l1 l1 = sp.l1;
  if (sp.direct) {
    /* L1 keeps the steps chosen for the block before the sparse rounding */
    asc_tiling_l0_sparse(&j, &l0);
  } else {
    asc_tiling_l0(&j, &sp.cores, &l0);
    asc_tiling_l0_sparse(&j, &l0);
    if (l0.m == 0 || l0.n == 0 || l0.k == 0) {
      if (j.fix_m != -1 || j.fix_n != -1)
        return asc_error(ASC_ERR_INVALID_VALUE,
                         "tiling: no base block fits: the fixed split (baseM=%lld, baseN=%lld) "
                         "exceeds a core's share (%lld x %lld, aligned to 16) or its L0/L1 room",
                         (long long)j.fix_m, (long long)j.fix_n, (long long)p.m32 * 16,
                         (long long)p.n32 * 16);
      return asc_error(ASC_ERR_INVALID_VALUE,
                       "tiling: no base block fits the buffers (L1 %lld, L0A %lld, L0B %lld, L0C "
                       "%lld bytes)",
                       (long long)j.l1, (long long)j.l0a, (long long)j.l0b, (long long)j.l0c);
    }
    asc_tiling_l1(&j, &sp.cores, &l0, &l1);
  }

  int64_t sm, sn, sk;
  asc_tiling_single_shape(&j, &p, &sp.cores, &sm, &sn, &sk);
  /* a share rounded up to whole fractals past INT32_MAX keeps the exact size */
  if (sm > INT32_MAX) sm = asc_tiling_ceil(asc_tiling_single_m(&j), sp.cores.m_dim);
  if (sn > INT32_MAX) sn = asc_tiling_ceil(asc_tiling_single_n(&j), sp.cores.n_dim);
  int64_t used = j.single_shape ? j.block_dim : sp.cores.m_dim * sp.cores.n_dim * sp.cores.k_dim;
  if (sm < 1 || sn < 1 || sk < 1 || sm > INT32_MAX || sn > INT32_MAX || sk > INT32_MAX)
    return asc_error(ASC_ERR_INVALID_VALUE,
                     "tiling: the per-core shape (%lld, %lld, %lld) is not a valid int32 shape",
                     (long long)sm, (long long)sn, (long long)sk);

  asc_tcube_tiling t;
  memset(&t, 0, sizeof t);
  t.usedCoreNum = (int32_t)used;
  t.M = (int32_t)j.org_m, t.N = (int32_t)j.org_n, t.Ka = (int32_t)j.org_ka,
  t.Kb = (int32_t)j.org_kb;
  t.singleCoreM = (int32_t)sm, t.singleCoreN = (int32_t)sn, t.singleCoreK = (int32_t)sk;
  t.baseM = (int32_t)(l0.m * 16), t.baseN = (int32_t)(l0.n * 16);
  t.baseK = (int32_t)(l0.k * j.reduce);
  t.iterateOrder = iterate_order(&j, &l0, &l1, sm, sn, sk);
  int64_t step_ka = asc_tiling_ceil(l1.k_a, l0.k), step_kb = asc_tiling_ceil(l1.k_b, l0.k);
  t.depthA1 = (int32_t)(step_ka * l1.m_a * l1.db_a);
  int64_t db1 = depth_b1(&j, &t, step_kb * l1.n_b * l1.db_b);
  t.depthB1 = (int32_t)db1;
  int64_t n_b = min64(l1.n_b, db1);
  t.stepM = (int32_t)l1.m_a, t.stepN = (int32_t)n_b;
  t.stepKa = (int32_t)step_ka, t.stepKb = (int32_t)step_kb;
  if (j.b_float && t.baseK == 8) { /* one 8-wide K step of float B per block */
    t.stepKb = 1;
    t.depthB1 = (int32_t)(n_b * l1.db_b);
  }
  t.isBias = j.bias;
  t.dbL0A = (int32_t)l0.db_a, t.dbL0B = (int32_t)l0.db_b, t.dbL0C = (int32_t)l0.db_c;
  t.transLength = 0, t.shareMode = 0;
  t.shareL1Size = (int32_t)(t.depthA1 * (int64_t)t.baseM * t.baseK * j.a_bits / 8 +
                            t.depthB1 * (int64_t)t.baseN * t.baseK * j.b_bits / 8 +
                            (j.bias ? (int64_t)t.baseN * j.bias_bytes : 0));
  t.shareL0CSize = t.baseM * t.baseN * 4;
  t.shareUbSize = 0;
  int32_t *layout[15] = {
      &t.ALayoutInfoB, &t.ALayoutInfoS,  &t.ALayoutInfoN, &t.ALayoutInfoG, &t.ALayoutInfoD,
      &t.BLayoutInfoB, &t.BLayoutInfoS,  &t.BLayoutInfoN, &t.BLayoutInfoG, &t.BLayoutInfoD,
      &t.CLayoutInfoB, &t.CLayoutInfoS1, &t.CLayoutInfoN, &t.CLayoutInfoG, &t.CLayoutInfoS2,
  };
  for (int i = 0; i < 15; i++) *layout[i] = ctx->layout[i / 5][i % 5];
  t.batchM = t.batchN = t.singleBatchM = t.singleBatchN = 1;
  if (ctx->batch_a > 0) {
    t.batchM = ctx->batch_a, t.batchN = ctx->batch_b;
    /* Batches whose whole single-core A and B blocks fit L1 together. */
    int64_t a_bytes = smul(smul(align_up(sm, 16), align_up(sk, j.reduce)), j.a_bits / 8);
    int64_t b_bytes = smul(smul(align_up(sn, 16), align_up(sk, j.reduce)), j.b_bits / 8);
    int64_t sbm = ctx->batch_a, sbn = ctx->batch_b;
    while ((sbm > 1 || sbn > 1) && sadd(smul(sbm, a_bytes), smul(sbn, b_bytes)) > j.l1) {
      if (sbm >= sbn)
        sbm = (sbm + 1) / 2;
      else
        sbn = (sbn + 1) / 2;
    }
    t.singleBatchM = (int32_t)sbm, t.singleBatchN = (int32_t)sbn;
  }
  if (ctx->batch_num > 0)
    t.BatchNum = ctx->batch_num;
  else if (ctx->kind == ASC_TILING_BATCH && ctx->batch_a > 0)
    t.BatchNum = ctx->batch_a > ctx->batch_b ? ctx->batch_a : ctx->batch_b;

  /* The direct 910B split keeps the L1 steps of its block; rounding a
   * sparse baseK changes the steps' size and can overflow L1. Ascend C
   * returns such a tiling unchecked; it cannot run, so it is refused. */
  if (sp.direct && j.sparse && t.shareL1Size > j.l1)
    return asc_error(ASC_ERR_INVALID_VALUE,
                     "tiling: sparse B: baseK rounded to a multiple of 64 (%d) leaves the "
                     "multi-core split's L1 steps (depthA1 %d, depthB1 %d) needing %d bytes of "
                     "L1 (%lld); set_shape makes the general split, which checks L1",
                     t.baseK, t.depthA1, t.depthB1, t.shareL1Size, (long long)j.l1);
  /* the final checks of the reference search (its direct 910B split skips
   * them) */
  if (!sp.direct) {
    const char *bad = NULL;
    if (t.stepM == 0 || t.stepN == 0 || t.depthA1 == 0 || t.depthB1 == 0)
      bad = "a zero L1 step or depth";
    else if (t.stepM > t.depthA1 || t.stepN > t.depthB1)
      bad = "stepM/stepN above depthA1/depthB1";
    else if (t.shareL1Size > j.l1 || t.shareL0CSize > j.l0c)
      bad = "more L1 or L0C than the buffer space";
    if (bad)
      return asc_error(ASC_ERR_INVALID_VALUE,
                       "tiling: no tiling fits: base (%d, %d, %d) leaves %s (L1 %lld, L0C %lld "
                       "bytes)",
                       t.baseM, t.baseN, t.baseK, bad, (long long)j.l1, (long long)j.l0c);
  }
  ctx->result = t;
  ctx->has_result = true;
  ctx->m_dim = (int32_t)asc_tiling_ceil(asc_tiling_single_m(&j), sm);
  ctx->n_dim = (int32_t)asc_tiling_ceil(asc_tiling_single_n(&j), sn);
  *out = t;
  return ASC_OK;
}
