/* Reductions: dtype rules, axis checks, and the plan that turns a strided
 * view into kept and reduced axes, split into parallel blocks. */
#include <stdlib.h>
#include <string.h>

#include "asc/ops.h"
#include "reduce_internal.h"

/* As in the element-wise engine: below this many bytes read a reduction
 * runs as one block; above it, blocks of about BYTES_PER_BLOCK, at most
 * four per worker thread. */
#define PARALLEL_BYTES ((int64_t)1 << 20)
#define BYTES_PER_BLOCK ((int64_t)1 << 19)
/* A split reduction set is not cut finer than this many elements. */
#define MIN_SEGMENT 4096
/* Tiles of at least this many outputs (or a whole row of the kept axis)
 * when the outputs are split: narrower ones read too little per row. */
#define MIN_TILE_SPLIT 1024

static const char *const op_names[ASC_REDUCE_OP_COUNT] = {
    "sum", "prod", "mean", "max", "min", "argmax", "argmin", "any", "all", "var", "std"};

const char *asc_reduce_op_name(asc_reduce_op op) {
  return (unsigned)op < ASC_REDUCE_OP_COUNT ? op_names[op] : "unknown";
}

static bool takes_dtype(asc_reduce_op op) {
  return op == ASC_REDUCE_SUM || op == ASC_REDUCE_PROD || op == ASC_REDUCE_MEAN ||
         op == ASC_REDUCE_VAR || op == ASC_REDUCE_STD;
}

static bool is_arg(asc_reduce_op op) {
  return op == ASC_REDUCE_ARGMAX || op == ASC_REDUCE_ARGMIN;
}

asc_status asc_reduce_dtype(asc_reduce_op op, asc_dtype x, asc_dtype dtype, asc_dtype *result) {
  if ((unsigned)op >= ASC_REDUCE_OP_COUNT)
    return asc_error(ASC_ERR_INVALID_VALUE, "unknown reduction %d", (int)op);
  if (!asc_dtype_valid(x)) return asc_error(ASC_ERR_TYPE, "invalid dtype %d", (int)x);
  if (dtype != ASC_DTYPE_COUNT && !asc_dtype_valid(dtype))
    return asc_error(ASC_ERR_TYPE, "invalid dtype %d", (int)dtype);
  if (dtype != ASC_DTYPE_COUNT && !takes_dtype(op))
    return asc_error(ASC_ERR_TYPE, "%s does not take a dtype", op_names[op]);
  bool is_float = asc_dtype_is_float(x);
  if (asc_dtype_is_complex(x) || asc_dtype_is_complex(dtype)) {
    if (op == ASC_REDUCE_ANY || op == ASC_REDUCE_ALL) {
      *result = ASC_BOOL;
      return ASC_OK;
    }
    if ((op == ASC_REDUCE_VAR || op == ASC_REDUCE_STD) && asc_dtype_is_complex(x)) {
      /* NumPy: the spread of complex numbers is real (|z - mean|^2). */
      if (dtype != ASC_DTYPE_COUNT && !asc_dtype_is_float(dtype) && !asc_dtype_is_complex(dtype))
        return asc_error(ASC_ERR_TYPE, "%s takes a floating dtype, not %s", op_names[op],
                         asc_dtype_name(dtype));
      *result = asc_dtype_to_real(dtype != ASC_DTYPE_COUNT ? dtype : x);
      return ASC_OK;
    }
    if (op != ASC_REDUCE_SUM && op != ASC_REDUCE_PROD && op != ASC_REDUCE_MEAN)
      return asc_error(ASC_ERR_TYPE, "%s is not supported for %s", op_names[op],
                       asc_dtype_name(asc_dtype_is_complex(x) ? x : dtype));
    *result = dtype != ASC_DTYPE_COUNT ? dtype : x;
    if (!asc_dtype_is_complex(*result))
      return asc_error(ASC_ERR_TYPE, "%s of %s into %s would drop the imaginary part", op_names[op],
                       asc_dtype_name(x), asc_dtype_name(*result));
    return ASC_OK;
  }
  switch (op) {
    case ASC_REDUCE_SUM:
    case ASC_REDUCE_PROD:
      /* NumPy: unsigned integers sum in uint64, the others in int64. */
      *result = dtype != ASC_DTYPE_COUNT   ? dtype
                : is_float                 ? x
                : asc_dtype_is_unsigned(x) ? ASC_UINT64
                                           : ASC_INT64;
      return ASC_OK;
    case ASC_REDUCE_VAR:
    case ASC_REDUCE_STD:
      if (dtype != ASC_DTYPE_COUNT && !asc_dtype_is_float(dtype))
        return asc_error(ASC_ERR_TYPE, "%s: dtype must be a float dtype, not %s", op_names[op],
                         asc_dtype_name(dtype));
      /* fall through */
    case ASC_REDUCE_MEAN:
      *result = dtype != ASC_DTYPE_COUNT ? dtype : is_float ? x : ASC_FLOAT64;
      return ASC_OK;
    case ASC_REDUCE_ARGMAX:
    case ASC_REDUCE_ARGMIN:
      *result = ASC_INT64;
      return ASC_OK;
    case ASC_REDUCE_ANY:
    case ASC_REDUCE_ALL:
      *result = ASC_BOOL;
      return ASC_OK;
    default:
      *result = x;
      return ASC_OK;
  }
}

static asc_red_acc acc_for(asc_dtype dtype) {
  if (dtype == ASC_FLOAT64) return ASC_ACC_F64;
  return asc_dtype_is_float(dtype) ? ASC_ACC_F32 : ASC_ACC_I64;
}

/* Whether the input must be cast to the loop dtype before reducing: the
 * kernels load bool and integers into int64 and anything into float and
 * double exactly as a cast would, but not into narrower dtypes. */
static bool needs_cast(asc_dtype x, asc_dtype loop) {
  if (x == loop) return false;
  if (loop == ASC_BOOL || loop == ASC_FLOAT16 || loop == ASC_BFLOAT16) return true;
  return !asc_dtype_is_float(loop) && asc_dtype_is_float(x);
}

/* Marks the reduced axes; NULL axes reduce all of them. */
static asc_status parse_axes(asc_reduce_op op, const asc_tensor *x, int naxes, const int *axes,
                             bool *reduced) {
  memset(reduced, 0, ASC_MAX_DIMS * sizeof *reduced);
  if (!axes) {
    for (int d = 0; d < x->ndim; d++) reduced[d] = true;
    return ASC_OK;
  }
  if (naxes < 0 || naxes > ASC_MAX_DIMS)
    return asc_error(ASC_ERR_INVALID_VALUE, "%s: %d axes", op_names[op], naxes);
  if (is_arg(op) && naxes != 1)
    return asc_error(ASC_ERR_INVALID_VALUE, "%s takes one axis or none (all), not %d", op_names[op],
                     naxes);
  for (int k = 0; k < naxes; k++) {
    int axis = axes[k];
    if (axis < -x->ndim || axis >= x->ndim)
      return asc_error(ASC_ERR_INDEX, "axis %d is out of bounds for array of dimension %d", axis,
                       x->ndim);
    if (axis < 0) axis += x->ndim;
    if (reduced[axis]) return asc_error(ASC_ERR_INVALID_VALUE, "duplicate value in 'axis'");
    reduced[axis] = true;
  }
  return ASC_OK;
}

/* Drops length-1 axes and merges neighbours that are one run in memory;
 * an axis of length 0 makes the whole set one empty axis. */
static int coalesce(int n, int64_t *shape, int64_t *stride) {
  int m = 0;
  for (int d = 0; d < n; d++) {
    if (shape[d] == 0) {
      shape[0] = 0;
      stride[0] = 0;
      return 1;
    }
    if (shape[d] == 1) continue;
    if (m > 0 && stride[m - 1] == stride[d] * shape[d]) {
      shape[m - 1] *= shape[d];
      stride[m - 1] = stride[d];
      continue;
    }
    shape[m] = shape[d];
    stride[m++] = stride[d];
  }
  return m;
}

static int64_t abs64(int64_t v) {
  return v < 0 ? -v : v;
}

/* Reduced axes may be walked in any order except for argmax/argmin: make
 * every stride positive and put the smallest innermost. */
static void order_reduced(asc_red_args *a, int n, int64_t *shape, int64_t *stride) {
  for (int d = 0; d < n; d++)
    if (stride[d] < 0) {
      a->in += (shape[d] - 1) * stride[d];
      stride[d] = -stride[d];
    }
  for (int d = 1; d < n; d++)
    for (int e = d; e > 0 && stride[e - 1] < stride[e]; e--) {
      int64_t s = shape[e];
      shape[e] = shape[e - 1];
      shape[e - 1] = s;
      s = stride[e];
      stride[e] = stride[e - 1];
      stride[e - 1] = s;
    }
}

static void plan_axes(asc_red_args *a, const asc_tensor *x, const bool *reduced) {
  int64_t size = (int64_t)asc_dtype_size(x->dtype);
  a->in = asc_tensor_data(x);
  a->kdim = a->rdim = 0;
  for (int d = 0; d < x->ndim; d++) {
    if (reduced[d]) {
      a->rshape[a->rdim] = x->shape[d];
      a->rstride[a->rdim++] = x->strides[d] * size;
    } else {
      a->kshape[a->kdim] = x->shape[d];
      a->kstride[a->kdim++] = x->strides[d] * size;
    }
  }
  a->nout = asc_shape_numel(a->kdim, a->kshape);
  a->nred = asc_shape_numel(a->rdim, a->rshape);
  if (!is_arg(a->op)) order_reduced(a, a->rdim, a->rshape, a->rstride);
  a->kdim = coalesce(a->kdim, a->kshape, a->kstride);
  a->rdim = coalesce(a->rdim, a->rshape, a->rstride);
  if (a->rdim == 0) { /* one element per output */
    a->rdim = 1;
    a->rshape[0] = 1;
    a->rstride[0] = 0;
  }
  int last = a->kdim - 1;
  a->column =
      a->kdim > 0 && a->kshape[last] > 1 &&
      (abs64(a->kstride[last]) < abs64(a->rstride[a->rdim - 1]) || a->rshape[a->rdim - 1] < 16);
}

static int64_t ceil_div(int64_t a, int64_t b) {
  return (a + b - 1) / b;
}

/* Splits outputs into groups and, when there are too few outputs to keep
 * the workers busy, each reduction set into segments. */
static void plan_blocks(asc_red_args *a, int device) {
  a->groups = a->segments = 1;
  a->group_len = a->nout;
  a->seg_len = a->nred;
  int64_t bytes = a->nout * a->nred * (int64_t)asc_dtype_size(a->in_dtype);
  int64_t blocks = asc_parallel_blocks(bytes, PARALLEL_BYTES, BYTES_PER_BLOCK, device);
  if (blocks <= 1) return;
  int64_t klen = a->column ? a->kshape[a->kdim - 1] : 1;
  int64_t unit = klen < MIN_TILE_SPLIT ? klen : MIN_TILE_SPLIT;
  int64_t units = ceil_div(a->nout, unit);
  if (units >= blocks) {
    a->group_len = ceil_div(units, blocks) * unit;
  } else {
    a->group_len = unit;
    int64_t segments = blocks / units;
    a->seg_len = ceil_div(a->nred, segments);
    if (a->seg_len * unit < MIN_SEGMENT) a->seg_len = ceil_div(MIN_SEGMENT, unit);
    a->segments = (uint32_t)ceil_div(a->nred, a->seg_len);
  }
  a->groups = (uint32_t)ceil_div(a->nout, a->group_len);
}

/* Enqueues the reduction of src into the contiguous result. */
/* The result is storages[1] (see launch). */
static void reduce_failed(void *args, bool skipped) {
  asc_red_args *a = args;
  asc_storage_poison(a->storages[1], op_names[a->op], skipped);
}

static asc_status launch(asc_red_args *a, const asc_tensor *src, const asc_tensor *result) {
  asc_status valid = asc_tensor_check_input(src);
  if (valid) return valid;
  int device = asc_tensor_device(src);
  plan_blocks(a, device);
  a->out = asc_tensor_data(result);
  asc_storage *scratch = NULL;
  if (a->segments > 1) {
    size_t nbytes = (size_t)a->nout * a->segments * sizeof(asc_red_state);
    asc_status st = asc_storage_new(device, nbytes, ASC_STREAM_CURRENT, &scratch);
    if (st) return st;
    a->scratch = asc_storage_data(scratch);
  }
  asc_storage *refs[3] = {src->storage, result->storage, scratch};
  for (int k = 0; k < 3; k++) {
    a->storages[k] = refs[k];
    if (refs[k]) asc_storage_retain(refs[k]);
  }
  int64_t bytes = a->nout * a->nred * (int64_t)asc_dtype_size(a->in_dtype);
  asc_launch_desc desc = {.fn = asc_red_block,
                          .nblocks = a->groups * a->segments,
                          .args = a,
                          .args_size = sizeof *a,
                          .release = asc_red_release,
                          .failed = reduce_failed,
                          .name = op_names[a->op],
                          .flags = bytes <= ASC_INLINE_BYTES ? ASC_LAUNCH_INLINE_OK : 0};
  asc_status st = asc_launch_ex(ASC_STREAM_CURRENT, &desc);
  if (!st && scratch) {
    for (int k = 0; k < 3; k++) asc_storage_retain(refs[k]);
    desc.fn = asc_red_combine;
    desc.nblocks = 1;
    desc.flags = 0;
    st = asc_launch_ex(ASC_STREAM_CURRENT, &desc);
  }
  asc_storage_release(scratch);
  return st;
}

static void result_shape(const asc_tensor *x, const bool *reduced, bool keepdims, int *ndim,
                         int64_t *shape) {
  *ndim = 0;
  for (int d = 0; d < x->ndim; d++)
    if (!reduced[d])
      shape[(*ndim)++] = x->shape[d];
    else if (keepdims)
      shape[(*ndim)++] = 1;
}

static asc_status check_out(const asc_tensor *out, int ndim, const int64_t *shape) {
  asc_status st = asc_tensor_check(out);
  if (!st) st = asc_tensor_check_writable(out, "reduction");
  if (st) return st;
  if (out->ndim == ndim && !memcmp(out->shape, shape, (size_t)ndim * sizeof *shape)) return ASC_OK;
  char want[256], have[256];
  asc_format_shape(ndim, shape, want, sizeof want);
  asc_format_shape(out->ndim, out->shape, have, sizeof have);
  return asc_error(ASC_ERR_INVALID_VALUE, "output has shape %s but the result has shape %s", have,
                   want);
}

asc_status asc_red_deliver(asc_tensor *result, asc_tensor *out) {
  if (!out->storage) {
    *out = *result;
    return ASC_OK;
  }
  asc_status st = asc_copy(result, out);
  asc_tensor_release(result);
  return st;
}

asc_status asc_reduce(asc_reduce_op op, const asc_tensor *x, int naxes, const int *axes,
                      bool keepdims, int ddof, asc_dtype dtype, asc_tensor *out) {
  asc_dtype result_dtype;
  bool reduced[ASC_MAX_DIMS];
  asc_status st = asc_tensor_check(x);
  if (!st) st = asc_reduce_dtype(op, x->dtype, dtype, &result_dtype);
  if (!st) st = parse_axes(op, x, naxes, axes, reduced);
  if (st) return st;
  int ndim;
  int64_t shape[ASC_MAX_DIMS], nred = 1;
  result_shape(x, reduced, keepdims, &ndim, shape);
  for (int d = 0; d < x->ndim; d++)
    if (reduced[d]) nred *= x->shape[d];
  if (nred == 0 && (op == ASC_REDUCE_MAX || op == ASC_REDUCE_MIN))
    return asc_error(ASC_ERR_INVALID_VALUE,
                     "zero-size array to reduction operation %s which has no identity",
                     op == ASC_REDUCE_MAX ? "maximum" : "minimum");
  if (nred == 0 && is_arg(op))
    return asc_error(ASC_ERR_INVALID_VALUE, "attempt to get %s of an empty sequence", op_names[op]);
  if (out->storage && (st = check_out(out, ndim, shape))) return st;
  if (asc_dtype_is_complex(result_dtype) || asc_dtype_is_complex(x->dtype))
    return asc_reduce_complex(op, x, reduced, keepdims, ddof, result_dtype, out);
  /* The kernels order integers as int64: uint64 past 2^63 would not. */
  if (x->dtype == ASC_UINT64 && op >= ASC_REDUCE_MAX && op <= ASC_REDUCE_ARGMIN)
    return asc_reduce_u64_order(op, x, reduced, keepdims, out);

  asc_dtype loop = takes_dtype(op) ? result_dtype : x->dtype;
  asc_tensor src = {0}, result = {0};
  if (needs_cast(x->dtype, loop))
    st = asc_cast(x, loop, &src);
  else
    asc_tensor_share(x, &src);
  if (!st) st = asc_tensor_empty(asc_tensor_device(x), result_dtype, ndim, shape, &result);
  if (!st && asc_tensor_numel(&result) > 0) {
    asc_red_args a;
    memset(&a, 0, sizeof a);
    a.op = op;
    a.acc = acc_for(loop);
    a.in_dtype = src.dtype;
    a.out_dtype = result_dtype;
    a.ddof = ddof;
    plan_axes(&a, &src, reduced);
    st = launch(&a, &src, &result);
  }
  asc_tensor_release(&src);
  if (st) {
    asc_tensor_release(&result);
    return st;
  }
  return asc_red_deliver(&result, out);
}
