/* Host-side matmul tiling: see include/asc/tiling.h and docs/host-tiling.md.
 *
 * Every size here is computed in int64 from int32 inputs, so products of two
 * or three dimensions and an element size cannot overflow; buffer limits are
 * at most INT32_MAX, so anything compared against them fits the int32
 * TCubeTiling fields. */
#include "asc/tiling.h"

#include "../core/checked.h"

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

/* The element types the cube unit takes, with their sizes. */
static const struct {
  int32_t dtype;
  const char *name;
  int size;
} dtypes[] = {
    {ASC_TILING_DT_FLOAT, "DT_FLOAT", 4}, {ASC_TILING_DT_FLOAT16, "DT_FLOAT16", 2},
    {ASC_TILING_DT_BF16, "DT_BF16", 2},   {ASC_TILING_DT_INT8, "DT_INT8", 1},
    {ASC_TILING_DT_INT32, "DT_INT32", 4},
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
};

static const char *const operand_names[] = {"A", "B", "C", "bias"};

int asc_tiling_dtype_size(int32_t dtype) {
  for (size_t i = 0; i < sizeof dtypes / sizeof dtypes[0]; i++)
    if (dtypes[i].dtype == dtype) return dtypes[i].size;
  return 0;
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
  ctx->a = ctx->b =
      (asc_tiling_operand){ASC_TILING_POS_GM, ASC_TILING_FMT_ND, ASC_TILING_DT_FLOAT16, false};
  ctx->c = ctx->bias =
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
  if (asc_tiling_dtype_size(dtype) == 0)
    return asc_error(ASC_ERR_TYPE,
                     "tiling: %s: DataType %d is not a cube-unit type (DT_FLOAT16, DT_BF16, "
                     "DT_FLOAT, DT_INT8, DT_INT32)",
                     name, (int)dtype);
  if (pos == ASC_TILING_POS_TSCM)
    return asc_error(ASC_ERR_UNSUPPORTED, "tiling: %s in TPosition.TSCM is not supported", name);
  if (pos != ASC_TILING_POS_GM && pos != ASC_TILING_POS_VECIN && pos != ASC_TILING_POS_VECOUT &&
      pos != ASC_TILING_POS_VECCALC)
    return asc_error(ASC_ERR_INVALID_VALUE,
                     "tiling: %s cannot be in TPosition %d (GM, VECIN, VECOUT or VECCALC)", name,
                     (int)pos);
  bool matrix_format = format == ASC_TILING_FMT_ND || format == ASC_TILING_FMT_NZ ||
                       format == ASC_TILING_FMT_ND_ALIGN;
  if (which == ASC_TILING_BIAS ? format != ASC_TILING_FMT_ND : !matrix_format)
    return asc_error(ASC_ERR_UNSUPPORTED, "tiling: %s in CubeFormat %d is not supported (%s)", name,
                     (int)format, which == ASC_TILING_BIAS ? "ND" : "ND, NZ or ND_ALIGN");
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

asc_status asc_tiling_set_shape(asc_tiling_ctx *ctx, int64_t m, int64_t n, int64_t k) {
  TRY(check_ctx(ctx));
  int32_t v[3] = {0};
  TRY(check_dim("M", m, &v[0]));
  TRY(check_dim("N", n, &v[1]));
  TRY(check_dim("K", k, &v[2]));
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

/* Everything the search needs, resolved from a context. */
typedef struct problem {
  int64_t M, N, Ka, Kb, m, n, k;
  int64_t sa, sb, sc, sbias; /* element sizes */
  int64_t m_align, n_align, k_align;
  int64_t l1, l0a, l0b, l0c, ub, bt;
  bool bias, c_in_ub;
  int db_a, db_b, db_c; /* 1 or 2 */
  int64_t fix[3], max_base[3], min_base[3];
} problem;

static bool in_ub(int32_t pos) {
  return pos != ASC_TILING_POS_GM;
}

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

static asc_status resolve(const asc_tiling_ctx *ctx, problem *p) {
  memset(p, 0, sizeof *p);
  const asc_tiling_hw *hw = &ctx->hw;
  if (hw->l1_size <= 0 || hw->l0a_size <= 0 || hw->l0b_size <= 0 || hw->l0c_size <= 0 ||
      hw->ub_size <= 0 || hw->bt_size <= 0 || ctx->dim < 1)
    return asc_error(ASC_ERR_INVALID_VALUE,
                     "tiling: the context is not initialised or its device has an empty buffer "
                     "(L1 %lld, L0A %lld, L0B %lld, L0C %lld, UB %lld bytes)",
                     (long long)hw->l1_size, (long long)hw->l0a_size, (long long)hw->l0b_size,
                     (long long)hw->l0c_size, (long long)hw->ub_size);
  if (ctx->org_m < 0 && ctx->m < 0)
    return asc_error(ASC_ERR_INVALID_VALUE, "tiling: no shape: call set_shape or set_org_shape");
  TRY(check_types(ctx));
  if (ctx->org_m > 0) {
    p->M = ctx->org_m, p->N = ctx->org_n, p->Ka = ctx->org_ka, p->Kb = ctx->org_kb;
  } else {
    p->M = ctx->m, p->N = ctx->n, p->Ka = p->Kb = ctx->k;
  }
  if (ctx->m > 0) {
    p->m = ctx->m, p->n = ctx->n, p->k = ctx->k;
  } else {
    p->m = p->M, p->n = p->N, p->k = min64(p->Ka, p->Kb);
  }
  if (p->m > p->M || p->n > p->N || p->k > min64(p->Ka, p->Kb))
    return asc_error(ASC_ERR_INVALID_VALUE,
                     "tiling: shape (%lld, %lld, %lld) exceeds the original shape (M=%lld, "
                     "N=%lld, Ka=%lld, Kb=%lld)",
                     (long long)p->m, (long long)p->n, (long long)p->k, (long long)p->M,
                     (long long)p->N, (long long)p->Ka, (long long)p->Kb);
  p->sa = asc_tiling_dtype_size(ctx->a.dtype);
  p->sb = asc_tiling_dtype_size(ctx->b.dtype);
  p->sc = asc_tiling_dtype_size(ctx->c.dtype);
  p->sbias = asc_tiling_dtype_size(ctx->bias.dtype);
  /* A fractal is 16 rows of 32 bytes; K steps by 16 elements at least so
   * that every base size is a multiple of 16. int8 transposed into the
   * fractal needs 32 on the other side as well. */
  bool int8 = p->sa == 1;
  p->k_align = p->sa == 1 ? 32 : 16;
  p->m_align = int8 && ctx->a.trans ? 32 : 16;
  p->n_align = int8 && !ctx->b.trans ? 32 : 16;
  if (ctx->a.format == ASC_TILING_FMT_NZ && (p->m % 16 || p->k % (32 / p->sa)))
    return asc_error(ASC_ERR_INVALID_VALUE,
                     "tiling: an NZ A needs M a multiple of 16 and K of %lld (M=%lld, K=%lld)",
                     (long long)(32 / p->sa), (long long)p->m, (long long)p->k);
  if (ctx->b.format == ASC_TILING_FMT_NZ && (p->n % 16 || p->k % (32 / p->sb)))
    return asc_error(ASC_ERR_INVALID_VALUE,
                     "tiling: an NZ B needs N a multiple of 16 and K of %lld (N=%lld, K=%lld)",
                     (long long)(32 / p->sb), (long long)p->n, (long long)p->k);
  p->l1 = ctx->l1_size > 0 ? ctx->l1_size : ctx->hw.l1_size;
  p->l0a = ctx->hw.l0a_size;
  p->l0b = ctx->hw.l0b_size;
  p->l0c = ctx->l0c_size > 0 ? ctx->l0c_size : ctx->hw.l0c_size;
  p->ub = ctx->ub_size > 0 ? ctx->ub_size : ctx->hw.ub_size;
  p->bt = ctx->bt_size > 0 ? ctx->bt_size : ctx->hw.bt_size;
  p->bias = ctx->bias_enabled;
  p->c_in_ub = in_ub(ctx->c.pos);
  p->db_a = ctx->db_a ? 2 : 1;
  p->db_b = ctx->db_b ? 2 : 1;
  p->db_c = ctx->db_c ? 2 : 1;
  p->fix[0] = ctx->base_m, p->fix[1] = ctx->base_n, p->fix[2] = ctx->base_k;
  for (int i = 0; i < 3; i++) p->max_base[i] = ctx->max_base[i], p->min_base[i] = ctx->min_base[i];
  return ASC_OK;
}

/* Bytes a base block takes in each buffer. A fixed split need not be
 * aligned: the cube unit pads it to whole fractals, so sizes round up. */
typedef struct footprint {
  int64_t l0a, l0b, l0c, block_a, block_b, bias_row, ub, bt;
} footprint;

static footprint footprint_of(const problem *p, int64_t bm, int64_t bn, int64_t bk) {
  int64_t am = align_up(bm, p->m_align), an = align_up(bn, p->n_align),
          ak = align_up(bk, p->k_align);
  footprint f;
  f.block_a = smul(smul(am, ak), p->sa);
  f.block_b = smul(smul(an, ak), p->sb);
  f.l0a = smul(f.block_a, p->db_a);
  f.l0b = smul(f.block_b, p->db_b);
  f.l0c = smul(smul(am, an), 4 * p->db_c); /* the accumulator is 32-bit */
  f.bias_row = p->bias ? an * p->sbias : 0;
  f.bt = p->bias ? an * 4 : 0;
  f.ub = p->c_in_ub ? smul(smul(am, an), p->sc) : 0;
  return f;
}

/* Whether one base block fits every buffer (with one A and one B block in
 * L1); if not, why (when why is not NULL). */
static bool fits(const problem *p, int64_t bm, int64_t bn, int64_t bk, char *why, size_t n) {
  footprint f = footprint_of(p, bm, bn, bk);
  const struct {
    const char *what;
    int64_t used, limit;
  } checks[] = {
      {"L0A (baseM*baseK*sizeof(A)*dbL0A)", f.l0a, p->l0a},
      {"L0B (baseN*baseK*sizeof(B)*dbL0B)", f.l0b, p->l0b},
      {"L0C (baseM*baseN*4*dbL0C)", f.l0c, p->l0c},
      {"L1 (one A block, one B block and a bias row)", sadd(sadd(f.block_a, f.block_b), f.bias_row),
       p->l1},
      {"the BiasTable (baseN*4)", f.bt, p->bt},
      {"the Unified Buffer (baseM*baseN*sizeof(C))", f.ub, p->ub},
  };
  for (size_t i = 0; i < sizeof checks / sizeof checks[0]; i++) {
    if (checks[i].used <= checks[i].limit) continue;
    if (why)
      snprintf(why, n, "base (%lld, %lld, %lld) needs %lld bytes of %s, which has %lld",
               (long long)bm, (long long)bn, (long long)bk, (long long)checks[i].used,
               checks[i].what, (long long)checks[i].limit);
    return false;
  }
  return true;
}

/* Estimated cycles of one core's matmul of sm x sn x sk with this base:
 * cube work including padding (a 16x16x16 fractal product per cycle), L1
 * to L0 traffic (~256 bytes per cycle), and a fixed cost per iteration. */
static double base_cost(const problem *p, int64_t sm, int64_t sn, int64_t sk, int64_t bm,
                        int64_t bn, int64_t bk) {
  double tm = (double)ceil_div(sm, bm), tn = (double)ceil_div(sn, bn),
         tk = (double)ceil_div(sk, bk);
  double iters = tm * tn * tk;
  double cube = iters * (double)bm * (double)bn * (double)bk / 4096.0;
  double loads = iters * (double)(bm * bk * p->sa + bn * bk * p->sb) / 256.0;
  return cube + loads + 32.0 * iters;
}

/* The largest aligned baseK (>= the minimum) that fits next to bm x bn,
 * balanced so that K splits into near-equal steps; 0 if none. */
static int64_t pick_base_k(const problem *p, int64_t sk, int64_t bm, int64_t bn) {
  int64_t ka = p->k_align;
  int64_t am = align_up(bm, p->m_align), an = align_up(bn, p->n_align);
  int64_t limit = align_up(sk, ka);
  limit = min64(limit, p->l0a / (am * p->sa * p->db_a));
  limit = min64(limit, p->l0b / (an * p->sb * p->db_b));
  int64_t bias_row = p->bias ? an * p->sbias : 0;
  if (p->l1 <= bias_row) return 0;
  limit = min64(limit, (p->l1 - bias_row) / (am * p->sa + an * p->sb));
  if (p->max_base[2] > 0) limit = min64(limit, p->max_base[2]);
  limit = limit / ka * ka;
  int64_t lo = p->min_base[2] > 0 ? align_up(p->min_base[2], ka) : ka;
  if (limit < lo) return 0;
  int64_t bk = align_up(ceil_div(sk, ceil_div(sk, limit)), ka);
  return bk < lo ? lo : bk;
}

typedef struct base_choice {
  int64_t bm, bn, bk;
} base_choice;

/* Candidates along one axis: the fixed value, or aligned sizes in range. */
static void axis_range(const problem *p, int axis, int64_t single, int64_t align, int64_t *lo,
                       int64_t *hi, int64_t *step) {
  if (p->fix[axis] > 0) {
    *lo = *hi = p->fix[axis];
    *step = 1;
    return;
  }
  *step = align;
  *lo = p->min_base[axis] > 0 ? align_up(p->min_base[axis], align) : align;
  *hi = align_up(single, align);
  if (p->max_base[axis] > 0) *hi = min64(*hi, p->max_base[axis] / align * align);
  if (*hi > 4096) *hi = 4096; /* L0C holds far less than 4096 x 16 x 4 bytes */
}

static asc_status choose_base(const problem *p, int64_t sm, int64_t sn, int64_t sk,
                              base_choice *out) {
  int64_t mlo, mhi, mstep, nlo, nhi, nstep;
  axis_range(p, 0, sm, p->m_align, &mlo, &mhi, &mstep);
  axis_range(p, 1, sn, p->n_align, &nlo, &nhi, &nstep);
  bool found = false;
  double best = 0;
  for (int64_t bm = mlo; bm <= mhi; bm += mstep) {
    for (int64_t bn = nlo; bn <= nhi; bn += nstep) {
      int64_t bk = p->fix[2] > 0 ? p->fix[2] : pick_base_k(p, sk, bm, bn);
      if (bk == 0 || !fits(p, bm, bn, bk, NULL, 0)) continue;
      double cost = base_cost(p, sm, sn, sk, bm, bn, bk);
      if (!found || cost < best) {
        found = true, best = cost;
        *out = (base_choice){bm, bn, bk};
      }
    }
  }
  if (found) return ASC_OK;
  if (mlo > mhi || nlo > nhi)
    return asc_error(ASC_ERR_INVALID_VALUE,
                     "tiling: the split range leaves no base size (baseM in [%lld, %lld], baseN "
                     "in [%lld, %lld])",
                     (long long)mlo, (long long)mhi, (long long)nlo, (long long)nhi);
  char why[256];
  int64_t bk = p->fix[2] > 0
                   ? p->fix[2]
                   : (p->min_base[2] > 0 ? align_up(p->min_base[2], p->k_align) : p->k_align);
  if (fits(p, mlo, nlo, bk, why, sizeof why))
    snprintf(why, sizeof why, "no baseK in the split range fits next to baseM=%lld, baseN=%lld",
             (long long)mlo, (long long)nlo);
  return asc_error(ASC_ERR_INVALID_VALUE, "tiling: no tiling fits the buffers: %s", why);
}

/* How many base blocks L1 holds: steps along K (equal for A and B), then
 * along M and N once K is whole, with double buffering where it fits. */
typedef struct steps {
  int64_t step_m, step_n, step_k, db_a1, db_b1, l1_used;
} steps;

static int64_t l1_use(const footprint *f, const steps *s) {
  return sadd(sadd(smul(smul(s->db_a1 * s->step_m, s->step_k), f->block_a),
                   smul(smul(s->db_b1 * s->step_n, s->step_k), f->block_b)),
              smul(s->step_n, f->bias_row));
}

static steps choose_steps(const problem *p, int64_t sm, int64_t sn, int64_t sk,
                          const base_choice *b, int traverse) {
  footprint f = footprint_of(p, b->bm, b->bn, b->bk);
  int64_t tm = ceil_div(sm, b->bm), tn = ceil_div(sn, b->bn), tk = ceil_div(sk, b->bk);
  steps s = {1, 1, 1, p->db_a, p->db_b, 0};
  if (l1_use(&f, &s) > p->l1) s.db_a1 = s.db_b1 = 1; /* fits() guaranteed single buffers */
  while (s.step_k < tk) {
    steps t = s;
    t.step_k++;
    if (l1_use(&f, &t) > p->l1) break;
    s = t;
  }
  if (s.step_k == tk) {
    /* K is resident: cache more blocks along the axis the traversal walks
     * (FIRSTN walks N; otherwise M), then along the other. */
    bool n_first = traverse == ASC_TILING_TRAVERSE_FIRSTN;
    for (int pass = 0; pass < 2; pass++) {
      bool grow_n = (pass == 0) == n_first;
      for (;;) {
        steps t = s;
        if (grow_n ? t.step_n >= tn : t.step_m >= tm) break;
        if (grow_n)
          t.step_n++;
        else
          t.step_m++;
        if (l1_use(&f, &t) > p->l1) break;
        s = t;
      }
    }
  }
  s.l1_used = l1_use(&f, &s);
  return s;
}

/* Multi-core: the per-core shape. Cores along M and N (and K once
 * enable_multi_core_split_k allows) are chosen to minimise the slower of a
 * core's cube work and its GM reads. */
static bool single_ok(const asc_tiling_ctx *ctx, int axis, int64_t v, int64_t whole) {
  if (v == whole) return true; /* one core along the axis: no range applies */
  return (ctx->single_max[axis] < 0 || v <= ctx->single_max[axis]) &&
         (ctx->single_min[axis] < 0 || v >= ctx->single_min[axis]);
}

static asc_status choose_split(const asc_tiling_ctx *ctx, const problem *p, int64_t dim,
                               int64_t *sm, int64_t *sn, int64_t *sk, int64_t *m_dim,
                               int64_t *n_dim, int64_t *k_dim) {
  int64_t am = ctx->align_split[0] > 0 ? ctx->align_split[0] : 16;
  int64_t an = ctx->align_split[1] > 0 ? ctx->align_split[1] : 16;
  int64_t ak = ctx->align_split[2] > 0 ? align_up(ctx->align_split[2], p->k_align) : p->k_align;
  bool found = false;
  double best = 0;
  /* More than one core per 16 rows or columns (or K_align of K) cannot help. */
  int64_t m_max = ceil_div(p->m, 16), n_max = ceil_div(p->n, 16);
  int64_t k_max = ctx->split_k ? ceil_div(p->k, p->k_align) : 1;
  for (int64_t kd = 1; kd <= dim && kd <= k_max; kd++) {
    int64_t ck = kd == 1 ? p->k : align_up(ceil_div(p->k, kd), ak);
    if (ck >= p->k) ck = p->k;
    if (kd > 1 && ck == p->k) continue;
    if (!single_ok(ctx, 2, ck, p->k)) continue;
    const int64_t real_k = ceil_div(p->k, ck), k16 = align_up(ck, 16);
    for (int64_t md = 1; md * kd <= dim && md <= m_max; md++) {
      for (int64_t nd = 1; md * nd * kd <= dim && nd <= n_max; nd++) {
        int64_t cm = align_up(ceil_div(p->m, md), am), cn = align_up(ceil_div(p->n, nd), an);
        if (cm >= p->m) cm = p->m;
        if (cn >= p->n) cn = p->n;
        if (!single_ok(ctx, 0, cm, p->m) || !single_ok(ctx, 1, cn, p->n)) continue;
        int64_t real_m = ceil_div(p->m, cm), real_n = ceil_div(p->n, cn);
        /* a core's cube work and GM reads grow with its K; a split K adds
         * an atomic read-modify-write of its C block */
        double m16 = (double)align_up(cm, 16), n16 = (double)align_up(cn, 16);
        double work = m16 * n16 * (double)k16;
        double reads = 128.0 * (m16 + n16) * (double)k16 + (real_k > 1 ? 64.0 * m16 * n16 : 0);
        double cost = work > reads ? work : reads;
        /* equal cost: fewer cores */
        if (!found || cost < best ||
            (cost == best && real_m * real_n * real_k < (*m_dim) * (*n_dim) * (*k_dim))) {
          found = true, best = cost;
          *sm = cm, *sn = cn, *sk = ck, *m_dim = real_m, *n_dim = real_n, *k_dim = real_k;
        }
      }
    }
  }
  if (!found)
    return asc_error(ASC_ERR_INVALID_VALUE,
                     "tiling: no split of M=%lld, N=%lld over %lld cores meets the single-core "
                     "range and alignment",
                     (long long)p->m, (long long)p->n, (long long)dim);
  return ASC_OK;
}

asc_status asc_tiling_matmul_get(asc_tiling_ctx *ctx, asc_tcube_tiling *out) {
  TRY(check_ctx(ctx));
  if (!out) return asc_error(ASC_ERR_INVALID_VALUE, "tiling: NULL output");
  problem p;
  TRY(resolve(ctx, &p));
  int64_t sm = p.m, sn = p.n, sk = p.k, m_dim = 1, n_dim = 1, k_dim = 1;
  if (ctx->kind == ASC_TILING_MULTI_CORE) {
    if (ctx->single_m > 0 || ctx->single_n > 0 || ctx->single_k > 0) {
      sm = ctx->single_m > 0 ? ctx->single_m : p.m;
      sn = ctx->single_n > 0 ? ctx->single_n : p.n;
      sk = ctx->single_k > 0 ? ctx->single_k : p.k;
      if (sm > p.m || sn > p.n || sk > p.k)
        return asc_error(ASC_ERR_INVALID_VALUE,
                         "tiling: single-core shape (%lld, %lld, %lld) exceeds the shape (%lld, "
                         "%lld, %lld)",
                         (long long)sm, (long long)sn, (long long)sk, (long long)p.m,
                         (long long)p.n, (long long)p.k);
      m_dim = ceil_div(p.m, sm), n_dim = ceil_div(p.n, sn), k_dim = ceil_div(p.k, sk);
    } else {
      TRY(choose_split(ctx, &p, ctx->dim, &sm, &sn, &sk, &m_dim, &n_dim, &k_dim));
    }
  }
  int64_t used;
  if (asc_mul_overflow_i64(m_dim, n_dim, &used) || asc_mul_overflow_i64(used, k_dim, &used) ||
      used > INT32_MAX)
    return asc_error(ASC_ERR_INVALID_VALUE, "tiling: %lld per-core blocks do not fit an int32",
                     (long long)used);
  base_choice b = {0, 0, 0};
  TRY(choose_base(&p, sm, sn, sk, &b));
  steps s = choose_steps(&p, sm, sn, sk, &b, ctx->traverse);
  footprint f = footprint_of(&p, b.bm, b.bn, b.bk);

  asc_tcube_tiling t;
  memset(&t, 0, sizeof t);
  t.usedCoreNum = (int32_t)used;
  t.M = (int32_t)p.M, t.N = (int32_t)p.N, t.Ka = (int32_t)p.Ka, t.Kb = (int32_t)p.Kb;
  t.singleCoreM = (int32_t)sm, t.singleCoreN = (int32_t)sn, t.singleCoreK = (int32_t)sk;
  t.baseM = (int32_t)b.bm, t.baseN = (int32_t)b.bn, t.baseK = (int32_t)b.bk;
  t.stepM = (int32_t)s.step_m, t.stepN = (int32_t)s.step_n;
  t.stepKa = t.stepKb = (int32_t)s.step_k;
  t.depthA1 = (int32_t)(s.step_m * s.step_k * s.db_a1);
  t.depthB1 = (int32_t)(s.step_n * s.step_k * s.db_b1);
  t.isBias = p.bias;
  t.iterateOrder = ctx->traverse == ASC_TILING_TRAVERSE_FIRSTN;
  t.shareL1Size = (int32_t)s.l1_used;
  t.shareL0CSize = (int32_t)f.l0c;
  t.shareUbSize = (int32_t)f.ub;
  t.dbL0A = p.db_a, t.dbL0B = p.db_b, t.dbL0C = p.db_c;
  int32_t *layout[15] = {
      &t.ALayoutInfoB, &t.ALayoutInfoS,  &t.ALayoutInfoN, &t.ALayoutInfoG, &t.ALayoutInfoD,
      &t.BLayoutInfoB, &t.BLayoutInfoS,  &t.BLayoutInfoN, &t.BLayoutInfoG, &t.BLayoutInfoD,
      &t.CLayoutInfoB, &t.CLayoutInfoS1, &t.CLayoutInfoN, &t.CLayoutInfoG, &t.CLayoutInfoS2,
  };
  for (int i = 0; i < 15; i++) *layout[i] = ctx->layout[i / 5][i % 5];
  if (ctx->batch_a > 0) {
    t.batchM = ctx->batch_a, t.batchN = ctx->batch_b;
    /* Batches whose whole single-core A and B blocks fit L1 together. */
    int64_t a_bytes = smul(smul(align_up(sm, 16), align_up(sk, p.k_align)), p.sa);
    int64_t b_bytes = smul(smul(align_up(sn, 16), align_up(sk, p.k_align)), p.sb);
    int64_t sbm = ctx->batch_a, sbn = ctx->batch_b;
    while ((sbm > 1 || sbn > 1) && sadd(smul(sbm, a_bytes), smul(sbn, b_bytes)) > p.l1) {
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

  /* The search only returns fitting tilings; say so loudly if not. */
  if (f.l0a > p.l0a || f.l0b > p.l0b || f.l0c > p.l0c || s.l1_used > p.l1 || f.bt > p.bt ||
      f.ub > p.ub)
    return asc_error(ASC_ERR_INTERNAL, "tiling: chose a tiling that overflows a buffer");
  ctx->result = t;
  ctx->has_result = true;
  ctx->m_dim = (int32_t)m_dim, ctx->n_dim = (int32_t)n_dim;
  *out = t;
  return ASC_OK;
}
