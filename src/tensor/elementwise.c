/* The element-wise engine: broadcasts the operands to the output's shape,
 * merges dimensions that are contiguous in every operand, and runs an inner
 * loop over runs of the innermost dimension, split into blocks that the
 * device runs in parallel. */
#include <string.h>

#include "../core/checked.h"
#include "asc/ops.h"
#include "tensor_internal.h"

/* Below this many bytes touched an operation runs as one block: splitting
 * costs more than it saves. */
#define PARALLEL_BYTES ((int64_t)1 << 20)
#define BYTES_PER_BLOCK ((int64_t)1 << 19)
#define CHUNK_ALIGN 256

typedef struct ew_args {
  asc_ew_loop loop;
  const char *name;
  int nops;
  int ndim;
  int64_t total;
  int64_t chunk;
  int64_t shape[ASC_MAX_DIMS];
  int64_t strides[ASC_EW_MAX_OPERANDS][ASC_MAX_DIMS]; /* bytes */
  char *base[ASC_EW_MAX_OPERANDS];
  asc_storage *storages[ASC_EW_MAX_OPERANDS]; /* held only when kept */
  bool kept;
  uint32_t whole; /* bit k: storages[k] held whole (asc_storages_retain_queued) */
  _Alignas(16) unsigned char ctx[ASC_EW_CTX_MAX];
} ew_args;

static asc_status ew_block(const asc_block_ctx *block, const void *p) {
  const ew_args *a = p;
  int64_t start = (int64_t)block->block_idx * a->chunk;
  int64_t end = start + a->chunk < a->total ? start + a->chunk : a->total;
  if (start >= end) return ASC_OK;
  int last = a->ndim - 1;
  int64_t idx[ASC_MAX_DIMS];
  char *ptrs[ASC_EW_MAX_OPERANDS];
  int64_t inner[ASC_EW_MAX_OPERANDS];
  int64_t rem = start;
  for (int d = last; d >= 0; d--) {
    idx[d] = rem % a->shape[d];
    rem /= a->shape[d];
  }
  for (int k = 0; k < a->nops; k++) {
    ptrs[k] = a->base[k];
    for (int d = 0; d <= last; d++) ptrs[k] += idx[d] * a->strides[k][d];
    inner[k] = a->strides[k][last];
  }
  for (int64_t pos = start;;) {
    int64_t run = a->shape[last] - idx[last];
    if (run > end - pos) run = end - pos;
    asc_status st = a->loop(ptrs, inner, run, a->ctx);
    if (st) return st;
    pos += run;
    if (pos >= end) return ASC_OK;
    idx[last] += run;
    for (int k = 0; k < a->nops; k++) ptrs[k] += run * inner[k];
    for (int d = last; d > 0 && idx[d] == a->shape[d]; d--) {
      idx[d] = 0;
      idx[d - 1]++;
      for (int k = 0; k < a->nops; k++)
        ptrs[k] += a->strides[k][d - 1] - a->shape[d] * a->strides[k][d];
    }
  }
}

static void ew_failed(void *p, bool skipped) {
  ew_args *a = p;
  asc_storage_poison(a->storages[0], a->name, skipped);
}

/* A queued launch (asc_launch_desc.keep) holds its operands' storages,
 * stream-ordered: a result dropped while its launch is queued goes back to
 * the cache for the stream's next allocation, as in a loop of large
 * operations. One run on the calling thread borrows the caller's, which
 * saves two atomic operations per operand on small tensor operations. */
ASC_QUEUED_STORAGES(ew, ew_args, a->nops)

/* Drops length-1 dimensions and merges neighbours that are contiguous in
 * every operand, so that inner loops run as long as possible. */
static void coalesce(ew_args *a) {
  int n = 0;
  for (int d = 0; d < a->ndim; d++) {
    if (a->shape[d] == 1) continue;
    if (n > 0) {
      bool mergeable = true;
      for (int k = 0; k < a->nops && mergeable; k++)
        mergeable = a->strides[k][n - 1] == a->strides[k][d] * a->shape[d];
      if (mergeable) {
        a->shape[n - 1] *= a->shape[d];
        for (int k = 0; k < a->nops; k++) a->strides[k][n - 1] = a->strides[k][d];
        continue;
      }
    }
    a->shape[n] = a->shape[d];
    for (int k = 0; k < a->nops; k++) a->strides[k][n] = a->strides[k][d];
    n++;
  }
  if (n == 0) {
    a->shape[0] = 1;
    for (int k = 0; k < a->nops; k++) a->strides[k][0] = 0;
    n = 1;
  }
  a->ndim = n;
}

int64_t asc_parallel_blocks(int64_t bytes, int64_t parallel_bytes, int64_t bytes_per_block,
                            int device) {
  if (bytes < parallel_bytes) return 1;
  asc_device_props props;
  int workers = asc_device_get_props(device, &props) == ASC_OK ? props.worker_threads : 1;
  if (workers <= 1) return 1;
  int64_t blocks = bytes / bytes_per_block;
  return blocks > 4 * (int64_t)workers ? 4 * (int64_t)workers : blocks;
}

uint32_t asc_split_blocks(int64_t total, int64_t bytes, int64_t parallel_bytes,
                          int64_t bytes_per_block, int device, int64_t *chunk) {
  int64_t blocks = asc_parallel_blocks(bytes, parallel_bytes, bytes_per_block, device);
  *chunk = total;
  if (blocks <= 1) return 1;
  int64_t c = (total + blocks - 1) / blocks;
  *chunk = (c + CHUNK_ALIGN - 1) / CHUNK_ALIGN * CHUNK_ALIGN;
  return (uint32_t)((total + *chunk - 1) / *chunk);
}

asc_status asc_ew_launch(const asc_ew_kernel *kernel, int nin, const asc_tensor *const *inputs,
                         const asc_tensor *out) {
  if (nin < 0 || nin + 1 > ASC_EW_MAX_OPERANDS || kernel->ctx_size > ASC_EW_CTX_MAX)
    return asc_error(ASC_ERR_INTERNAL, "%s: bad element-wise launch", kernel->name);
  asc_status st = asc_tensor_check_writable(out, kernel->name);
  if (st) return st;
  int64_t total = asc_tensor_numel(out);
  if (total == 0) return ASC_OK;
  for (int k = 0; k < nin; k++) {
    asc_status st = asc_tensor_check_input(inputs[k]);
    if (st) return st;
  }
  ew_args a;
  memset(&a, 0, sizeof a);
  a.loop = kernel->loop;
  a.name = kernel->name;
  a.nops = nin + 1;
  a.ndim = out->ndim;
  a.total = total;
  memcpy(a.shape, out->shape, sizeof a.shape);
  if (kernel->ctx_size) memcpy(a.ctx, kernel->ctx, kernel->ctx_size);
  /* out's shape once; each operand then only needs its broadcast strides. */
  st = asc_check_shape(out->ndim, out->shape, out->dtype, NULL);
  if (st) return st;
  int64_t bytes = 0;
  for (int k = 0; k < a.nops; k++) {
    const asc_tensor *t = k == 0 ? out : inputs[k - 1];
    int64_t strides[ASC_MAX_DIMS];
    st = asc_expand_strides(t, out->ndim, out->shape, strides);
    int64_t size = (int64_t)asc_dtype_size(t->dtype), touched;
    bool overflow = asc_mul_overflow_i64(size, t == out ? total : asc_tensor_numel(t), &touched) ||
                    asc_add_overflow_i64(bytes, touched, &bytes);
    for (int d = 0; !st && d < out->ndim; d++)
      overflow |= asc_mul_overflow_i64(strides[d], size, &a.strides[k][d]);
    if (!st && overflow)
      st = asc_error(ASC_ERR_INVALID_VALUE, "%s: an operand's byte strides overflow", kernel->name);
    if (st) return st;
    a.base[k] = asc_tensor_data(t);
    a.storages[k] = t->storage;
  }
  coalesce(&a);
  uint32_t nblocks = asc_split_blocks(a.total, bytes, PARALLEL_BYTES, BYTES_PER_BLOCK,
                                      asc_tensor_device(out), &a.chunk);
  return ASC_QUEUED_LAUNCH(ew, &a, nblocks, kernel->name, bytes);
}

asc_status asc_ew_prepare_out(int nin, const asc_tensor *const *inputs, asc_dtype dtype,
                              asc_tensor *out, bool *allocated) {
  int ndim = 0;
  int64_t shape[ASC_MAX_DIMS];
  for (int k = 0; k < nin; k++) {
    int64_t so_far[ASC_MAX_DIMS];
    memcpy(so_far, shape, (size_t)ndim * sizeof *shape);
    asc_status st =
        asc_broadcast_shapes(ndim, so_far, inputs[k]->ndim, inputs[k]->shape, &ndim, shape);
    if (st) return st;
  }
  *allocated = false;
  if (!out->storage) {
    *allocated = true;
    return asc_tensor_empty(nin ? asc_tensor_device(inputs[0]) : asc_device_current(), dtype, ndim,
                            shape, out);
  }
  bool same = out->ndim == ndim && !memcmp(out->shape, shape, (size_t)ndim * sizeof *shape);
  if (!same) {
    char want[256], have[256];
    asc_format_shape(ndim, shape, want, sizeof want);
    asc_format_shape(out->ndim, out->shape, have, sizeof have);
    return asc_error(ASC_ERR_INVALID_VALUE, "output has shape %s but the operands broadcast to %s",
                     have, want);
  }
  return ASC_OK;
}

/* Byte range [lo, hi) of a non-empty view; false if it overflows (a view
 * that asc_tensor_check would refuse). */
static bool element_range(const asc_tensor *t, int64_t *lo, int64_t *hi) {
  int64_t size = (int64_t)asc_dtype_size(t->dtype);
  return !asc_span_overflow(t->ndim, t->shape, t->strides, lo, hi) &&
         !asc_add_overflow_i64(*lo, t->offset, lo) && !asc_add_overflow_i64(*hi, t->offset, hi) &&
         !asc_mul_overflow_i64(*lo, size, lo) && !asc_add_overflow_i64(*hi, 1, hi) &&
         !asc_mul_overflow_i64(*hi, size, hi);
}

bool asc_tensors_overlap(const asc_tensor *a, const asc_tensor *b) {
  if (a->storage != b->storage || !asc_tensor_numel(a) || !asc_tensor_numel(b)) return false;
  int64_t alo, ahi, blo, bhi;
  /* Unknowable ranges count as overlapping: callers then copy, which is safe. */
  if (!element_range(a, &alo, &ahi) || !element_range(b, &blo, &bhi)) return true;
  return alo < bhi && blo < ahi;
}

/* --- the out= convention of asc/ops.h ------------------------------------ */

asc_status asc_check_out_dtype(const char *name, asc_dtype result, const asc_tensor *out) {
  asc_status st = asc_tensor_check_writable(out, name);
  if (st) return st;
  if (!asc_can_cast_same_kind(result, out->dtype))
    return asc_error(ASC_ERR_TYPE, "%s: cannot cast the %s result to the %s output (same_kind)",
                     name, asc_dtype_name(result), asc_dtype_name(out->dtype));
  return asc_tensor_check(out);
}

asc_status asc_ew_check_out(const char *name, int nin, const asc_tensor *const *inputs,
                            asc_dtype result, const asc_tensor *out) {
  asc_status st = asc_check_out_dtype(name, result, out);
  if (st) return st;
  asc_tensor target;
  asc_tensor_share(out, &target);
  bool allocated;
  st = asc_ew_prepare_out(nin, inputs, result, &target, &allocated);
  asc_tensor_release(&target);
  return st;
}

/* x itself if it has dtype already (borrowed), else a cast of it in
 * *converted, which the caller releases. */
static asc_status as_dtype(const asc_tensor *x, asc_dtype dtype, asc_tensor *converted,
                           const asc_tensor **input) {
  *input = x;
  if (x->dtype == dtype) return ASC_OK;
  asc_tensor fresh = {0};
  asc_status st = asc_cast(x, dtype, &fresh);
  if (!st) {
    *converted = fresh;
    *input = converted;
  }
  return st;
}

/* Writing straight into out is safe when each input is exactly out's view
 * (in place, a += b) or shares no memory with it. */
static bool safe_destination(const asc_tensor *out, int nin, const asc_tensor *const *inputs) {
  for (int k = 0; k < nin; k++) {
    const asc_tensor *x = inputs[k];
    bool identical = x->storage == out->storage && x->offset == out->offset &&
                     x->dtype == out->dtype && x->ndim == out->ndim &&
                     !memcmp(x->shape, out->shape, (size_t)x->ndim * sizeof *x->shape) &&
                     !memcmp(x->strides, out->strides, (size_t)x->ndim * sizeof *x->strides);
    if (!identical && asc_tensors_overlap(x, out)) return false;
  }
  return true;
}

asc_status asc_ew_run(const asc_ew_kernel *kernel, int nin, const asc_tensor *const *operands,
                      const asc_dtype *dtypes, asc_dtype result, asc_tensor *out) {
  enum { MAX_IN = ASC_EW_MAX_OPERANDS - 1 };
  if (nin < 0 || nin > MAX_IN)
    return asc_error(ASC_ERR_INTERNAL, "%s: bad element-wise launch", kernel->name);
  bool preset = out->storage != NULL, allocated, direct = false;
  /* Only storage marks a tensor as held: no need to zero the whole structs. */
  asc_tensor target, converted[MAX_IN];
  target.storage = NULL;
  for (int k = 0; k < MAX_IN; k++) converted[k].storage = NULL;
  const asc_tensor *inputs[MAX_IN];
  /* A fresh result first, so that a broadcast error queues no casts. */
  asc_status st = preset ? ASC_OK : asc_ew_prepare_out(nin, operands, result, &target, &allocated);
  for (int k = 0; k < nin; k++) {
    inputs[k] = operands[k];
    if (!st) st = as_dtype(operands[k], dtypes[k], &converted[k], &inputs[k]);
  }
  /* Straight into out when it is safe, else through a fresh result. */
  if (!st && preset) {
    direct = out->dtype == result && safe_destination(out, nin, inputs);
    if (direct)
      asc_tensor_share(out, &target);
    else
      st = asc_ew_prepare_out(nin, inputs, result, &target, &allocated);
  }
  if (!st) st = asc_ew_launch(kernel, nin, inputs, &target);
  if (!st && preset && !direct) st = asc_copy(&target, out);
  for (int k = 0; k < nin; k++) asc_tensor_release(&converted[k]);
  if (st || preset)
    asc_tensor_release(&target);
  else
    *out = target;
  return st;
}
