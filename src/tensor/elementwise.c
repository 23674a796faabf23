/* The element-wise engine: broadcasts the operands to the output's shape,
 * merges dimensions that are contiguous in every operand, and runs an inner
 * loop over runs of the innermost dimension, split into blocks that the
 * device runs in parallel. */
#include <string.h>

#include "tensor_internal.h"

/* Below this many bytes touched an operation runs as one block: splitting
 * costs more than it saves. */
#define PARALLEL_BYTES ((int64_t)1 << 20)
#define BYTES_PER_BLOCK ((int64_t)1 << 19)
#define CHUNK_ALIGN 256
/* Up to this many bytes an operation may run on the calling thread when its
 * stream is idle: handing it to the stream's thread would cost more. */
#define INLINE_BYTES ((int64_t)1 << 16)

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
  asc_storage *storages[ASC_EW_MAX_OPERANDS];
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

static void ew_release(void *p) {
  ew_args *a = p;
  for (int k = 0; k < a->nops; k++) asc_storage_release(a->storages[k]);
}

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

static uint32_t plan_blocks(ew_args *a, int64_t bytes, int device) {
  a->chunk = a->total;
  if (bytes < PARALLEL_BYTES) return 1;
  asc_device_props props;
  int workers = asc_device_get_props(device, &props) == ASC_OK ? props.worker_threads : 1;
  if (workers <= 1) return 1;
  int64_t blocks = bytes / BYTES_PER_BLOCK;
  if (blocks > 4 * (int64_t)workers) blocks = 4 * (int64_t)workers;
  int64_t chunk = (a->total + blocks - 1) / blocks;
  chunk = (chunk + CHUNK_ALIGN - 1) / CHUNK_ALIGN * CHUNK_ALIGN;
  a->chunk = chunk;
  return (uint32_t)((a->total + chunk - 1) / chunk);
}

asc_status asc_ew_launch(const asc_ew_kernel *kernel, int nin, const asc_tensor *const *inputs,
                         const asc_tensor *out) {
  if (nin < 0 || nin + 1 > ASC_EW_MAX_OPERANDS || kernel->ctx_size > ASC_EW_CTX_MAX)
    return asc_error(ASC_ERR_INTERNAL, "%s: bad element-wise launch", kernel->name);
  int64_t total = asc_tensor_numel(out);
  if (total == 0) return ASC_OK;
  ew_args a;
  memset(&a, 0, sizeof a);
  a.loop = kernel->loop;
  a.name = kernel->name;
  a.nops = nin + 1;
  a.ndim = out->ndim;
  a.total = total;
  memcpy(a.shape, out->shape, sizeof a.shape);
  if (kernel->ctx_size) memcpy(a.ctx, kernel->ctx, kernel->ctx_size);
  int64_t bytes = 0;
  for (int k = 0; k < a.nops; k++) {
    const asc_tensor *t = k == 0 ? out : inputs[k - 1];
    asc_tensor view;
    asc_status st = asc_tensor_expand(t, out->ndim, out->shape, &view);
    if (st) {
      for (int j = 0; j < k; j++) asc_storage_release(a.storages[j]);
      return st;
    }
    int64_t size = (int64_t)asc_dtype_size(t->dtype);
    for (int d = 0; d < out->ndim; d++) a.strides[k][d] = view.strides[d] * size;
    a.base[k] = asc_tensor_data(&view);
    a.storages[k] = view.storage; /* the expand's reference moves here */
    bytes += size * (t == out ? total : asc_tensor_numel(t));
  }
  coalesce(&a);
  uint32_t nblocks = plan_blocks(&a, bytes, asc_tensor_device(out));
  asc_launch_desc desc = {.fn = ew_block,
                          .nblocks = nblocks,
                          .args = &a,
                          .args_size = sizeof a,
                          .release = ew_release,
                          .name = kernel->name,
                          .flags = bytes <= INLINE_BYTES ? ASC_LAUNCH_INLINE_OK : 0};
  return asc_launch_ex(ASC_STREAM_CURRENT, &desc);
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

static void element_range(const asc_tensor *t, int64_t *lo, int64_t *hi) {
  int64_t size = (int64_t)asc_dtype_size(t->dtype);
  *lo = *hi = t->offset * size;
  for (int i = 0; i < t->ndim; i++) {
    int64_t span = (t->shape[i] - 1) * t->strides[i] * size;
    if (span < 0)
      *lo += span;
    else
      *hi += span;
  }
  *hi += size;
}

bool asc_tensors_overlap(const asc_tensor *a, const asc_tensor *b) {
  if (a->storage != b->storage || !asc_tensor_numel(a) || !asc_tensor_numel(b)) return false;
  int64_t alo, ahi, blo, bhi;
  element_range(a, &alo, &ahi);
  element_range(b, &blo, &bhi);
  return alo < bhi && blo < ahi;
}
