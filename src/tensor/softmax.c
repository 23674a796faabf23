/* softmax and log_softmax along one axis: per row, the maximum, then the
 * sum of exp(x - max), then the results, so that no exp overflows. */
#include <math.h>
#include <string.h>

#include "asc/ops.h"
#include "reduce_internal.h"
#include "unary_math.h"

#define PARALLEL_BYTES ((int64_t)1 << 20)
#define BYTES_PER_BLOCK ((int64_t)1 << 19)

typedef struct softmax_args {
  bool log;
  asc_dtype in_dtype, out_dtype;
  int kdim;
  int64_t kshape[ASC_MAX_DIMS], kstride[ASC_MAX_DIMS]; /* bytes, input */
  int64_t len, step;                                   /* the axis: length, input byte stride */
  int64_t inner;                                       /* output elements after the axis */
  int64_t rows, rows_per_block;
  const char *in;
  char *out;
  asc_storage *storages[2]; /* held only when kept (queued) */
  bool kept;
  uint32_t whole;
} softmax_args;

static const char *row_base(const softmax_args *a, int64_t row) {
  const char *p = a->in;
  for (int d = a->kdim - 1; d >= 0; d--) {
    p += (row % a->kshape[d]) * a->kstride[d];
    row /= a->kshape[d];
  }
  return p;
}

/* One row in accumulator type ACC, with the vector exp of this CPU (the one
 * pyasc.exp uses). A row with a NaN is all NaN. */
#define DEFINE_ROW(SUF, ACC, DTYPE)                                                              \
  static ACC row_max_##SUF(const softmax_args *a, const char *in, ACC *buf) {                    \
    ACC max = -INFINITY;                                                                         \
    bool any_nan = false;                                                                        \
    int64_t m;                                                                                   \
    for (int64_t k = 0; k < a->len; k += m) {                                                    \
      m = a->len - k < ASC_RED_BUF ? a->len - k : ASC_RED_BUF;                                   \
      const ACC *x = asc_red_gather_##SUF(buf, in + k * a->step, a->step, m, a->in_dtype);       \
      bool nan;                                                                                  \
      ACC piece = asc_red_piece_max_##SUF(x, m, &nan);                                           \
      max = piece > max ? piece : max;                                                           \
      any_nan |= nan;                                                                            \
    }                                                                                            \
    return any_nan ? (ACC)NAN : max;                                                             \
  }                                                                                              \
  /* buf[0, m) = exp(x - max); x may be buf. */                                                  \
  static void shifted_exp_##SUF(asc_vmath_##SUF exp_v, ACC *buf, const ACC *x, int64_t m,        \
                                ACC max) {                                                       \
    for (int64_t j = 0; j < m; j++) buf[j] = x[j] - max;                                         \
    exp_v(buf, buf, m);                                                                          \
  }                                                                                              \
  static void row_##SUF(const softmax_args *a, asc_vmath_##SUF exp_v, const char *in, char *out, \
                        int64_t ostride) {                                                       \
    ACC buf[ASC_RED_BUF];                                                                        \
    ACC max = row_max_##SUF(a, in, buf);                                                         \
    /* A contiguous output of type ACC keeps the exps, which are then only scaled. */            \
    ACC *kept = !a->log && a->out_dtype == DTYPE && ostride == (int64_t)sizeof(ACC)              \
                    ? (ACC *)(void *)out                                                         \
                    : NULL;                                                                      \
    double sum = 0;                                                                              \
    int64_t m;                                                                                   \
    for (int64_t k = 0; k < a->len; k += m) {                                                    \
      m = a->len - k < ASC_RED_BUF ? a->len - k : ASC_RED_BUF;                                   \
      const ACC *x = asc_red_gather_##SUF(buf, in + k * a->step, a->step, m, a->in_dtype);       \
      shifted_exp_##SUF(exp_v, buf, x, m, max);                                                  \
      sum += (double)asc_red_pairwise_##SUF(buf, m);                                             \
      if (kept) memcpy(kept + k, buf, (size_t)m * sizeof *buf);                                  \
    }                                                                                            \
    ACC scale = (ACC)(1.0 / sum), shift = (ACC)log(sum);                                         \
    if (kept) {                                                                                  \
      for (int64_t j = 0; j < a->len; j++) kept[j] *= scale;                                     \
      return;                                                                                    \
    }                                                                                            \
    for (int64_t k = 0; k < a->len; k += m) {                                                    \
      m = a->len - k < ASC_RED_BUF ? a->len - k : ASC_RED_BUF;                                   \
      const ACC *x = asc_red_gather_##SUF(buf, in + k * a->step, a->step, m, a->in_dtype);       \
      if (a->log) {                                                                              \
        for (int64_t j = 0; j < m; j++) buf[j] = (x[j] - max) - shift;                           \
      } else {                                                                                   \
        shifted_exp_##SUF(exp_v, buf, x, m, max);                                                \
        for (int64_t j = 0; j < m; j++) buf[j] *= scale;                                         \
      }                                                                                          \
      asc_red_scatter_##SUF(out + k * ostride, ostride, buf, m, a->out_dtype);                   \
    }                                                                                            \
  }
DEFINE_ROW(f32, float, ASC_FLOAT32)
DEFINE_ROW(f64, double, ASC_FLOAT64)

static asc_status softmax_block(const asc_block_ctx *block, const void *args) {
  const softmax_args *a = args;
  int64_t size = (int64_t)asc_dtype_size(a->out_dtype);
  int64_t r0 = (int64_t)block->block_idx * a->rows_per_block, r1 = r0 + a->rows_per_block;
  if (r1 > a->rows) r1 = a->rows;
  const asc_vmath *exp_v = asc_vmath_get(ASC_VM_EXP);
  for (int64_t r = r0; r < r1; r++) {
    char *out = a->out + ((r / a->inner) * a->len * a->inner + r % a->inner) * size;
    if (a->out_dtype == ASC_FLOAT64)
      row_f64(a, exp_v->f64, row_base(a, r), out, a->inner * size);
    else
      row_f32(a, exp_v->f32, row_base(a, r), out, a->inner * size);
  }
  return ASC_OK;
}

ASC_QUEUED_STORAGES(softmax, softmax_args, 2)

static void softmax_failed(void *args, bool skipped) {
  softmax_args *a = args;
  asc_storage_poison(a->storages[1], a->log ? "log_softmax" : "softmax", skipped);
}

static asc_status launch(softmax_args *a, const asc_tensor *x, const asc_tensor *result) {
  asc_status valid = asc_tensor_check_input(x);
  if (valid) return valid;
  int64_t bytes = asc_tensor_numel(x) * (int64_t)asc_dtype_size(x->dtype);
  int64_t want = asc_parallel_blocks(bytes, PARALLEL_BYTES, BYTES_PER_BLOCK, asc_tensor_device(x));
  uint32_t blocks = (uint32_t)(want < a->rows ? want : a->rows);
  a->rows_per_block = (a->rows + blocks - 1) / blocks;
  blocks = (uint32_t)((a->rows + a->rows_per_block - 1) / a->rows_per_block);
  a->storages[0] = x->storage;
  a->storages[1] = result->storage;
  a->kept = false;
  return ASC_QUEUED_LAUNCH(softmax, a, blocks, a->log ? "log_softmax" : "softmax", bytes);
}

asc_status asc_softmax(const asc_tensor *x, int axis, bool log, asc_tensor *out) {
  const char *name = log ? "log_softmax" : "softmax";
  asc_status st = asc_tensor_check(x);
  if (st) return st;
  if (axis < -x->ndim || axis >= x->ndim)
    return asc_error(ASC_ERR_INDEX, "%s: axis %d is out of bounds for array of dimension %d", name,
                     axis, x->ndim);
  if (axis < 0) axis += x->ndim;
  if (out->storage) {
    st = asc_tensor_check(out);
    if (!st) st = asc_tensor_check_writable(out, name);
    if (st) return st;
    if (out->ndim != x->ndim || memcmp(out->shape, x->shape, (size_t)x->ndim * sizeof *x->shape))
      return asc_error(ASC_ERR_INVALID_VALUE, "%s: the output's shape differs from the input's",
                       name);
  }
  asc_tensor result = {0};
  st = asc_tensor_empty(asc_tensor_device(x), asc_dtype_to_float(x->dtype), x->ndim, x->shape,
                        &result);
  if (st) return st;
  if (asc_tensor_numel(x) > 0) {
    softmax_args a;
    memset(&a, 0, sizeof a);
    int64_t size = (int64_t)asc_dtype_size(x->dtype);
    a.log = log;
    a.in_dtype = x->dtype;
    a.out_dtype = result.dtype;
    a.in = asc_tensor_data(x);
    a.out = asc_tensor_data(&result);
    a.len = x->shape[axis];
    a.step = x->strides[axis] * size;
    a.inner = 1;
    for (int d = 0; d < x->ndim; d++) {
      if (d == axis) continue;
      a.kshape[a.kdim] = x->shape[d];
      a.kstride[a.kdim++] = x->strides[d] * size;
      if (d > axis) a.inner *= x->shape[d];
    }
    a.rows = asc_shape_numel(a.kdim, a.kshape);
    st = launch(&a, x, &result);
  }
  if (!st && out->storage) {
    st = asc_copy(&result, out);
    asc_tensor_release(&result);
  } else if (!st) {
    *out = result;
  } else {
    asc_tensor_release(&result);
  }
  return st;
}
