/* Joining tensors: concatenate along an axis and stack along a new one. */
#include <stdlib.h>
#include <string.h>

#include "asc/ops.h"
#include "asc/ops_create.h"
#include "tensor_internal.h"

static asc_status normalize_axis(int *axis, int ndim) {
  if (*axis < -ndim || *axis >= ndim)
    return asc_error(ASC_ERR_INDEX, "axis %d is out of bounds for array of dimension %d", *axis,
                     ndim);
  if (*axis < 0) *axis += ndim;
  return ASC_OK;
}

/* The joined shape and the promoted dtype; NumPy's messages on mismatch. */
static asc_status joined_shape(int n, const asc_tensor *const *xs, int axis, int64_t *shape,
                               asc_dtype *dtype) {
  const asc_tensor *x0 = xs[0];
  memcpy(shape, x0->shape, (size_t)x0->ndim * sizeof *shape);
  *dtype = x0->dtype;
  for (int i = 1; i < n; i++) {
    const asc_tensor *x = xs[i];
    if (x->ndim != x0->ndim)
      return asc_error(ASC_ERR_INVALID_VALUE,
                       "all the input arrays must have same number of dimensions, but the array "
                       "at index 0 has %d dimension(s) and the array at index %d has %d "
                       "dimension(s)",
                       x0->ndim, i, x->ndim);
    for (int d = 0; d < x0->ndim; d++)
      if (d != axis && x->shape[d] != x0->shape[d])
        return asc_error(ASC_ERR_INVALID_VALUE,
                         "all the input array dimensions except for the concatenation axis must "
                         "match exactly, but along dimension %d, the array at index 0 has size "
                         "%lld and the array at index %d has size %lld",
                         d, (long long)x0->shape[d], i, (long long)x->shape[d]);
    if (x->shape[axis] > INT64_MAX - shape[axis])
      return asc_error(ASC_ERR_OUT_OF_MEMORY, "concatenate: the result is too large");
    shape[axis] += x->shape[axis];
    *dtype = asc_dtype_promote(*dtype, x->dtype);
  }
  return ASC_OK;
}

static asc_status check_out(const asc_tensor *out, asc_dtype dtype, int ndim,
                            const int64_t *shape) {
  asc_status st = asc_check_out_dtype("concatenate", dtype, out);
  if (st) return st;
  if (out->ndim != ndim || memcmp(out->shape, shape, (size_t)ndim * sizeof *shape)) {
    char want[256], have[256];
    asc_format_shape(ndim, shape, want, sizeof want);
    asc_format_shape(out->ndim, out->shape, have, sizeof have);
    return asc_error(ASC_ERR_INVALID_VALUE,
                     "Output array is the wrong shape: the result has shape %s, out has %s", want,
                     have);
  }
  return ASC_OK;
}

/* Copies each input into its slice of target along axis. */
static asc_status copy_parts(int n, const asc_tensor *const *xs, int axis,
                             const asc_tensor *target) {
  int64_t start = 0;
  for (int i = 0; i < n; i++) {
    asc_tensor part;
    int64_t len = xs[i]->shape[axis];
    asc_status st = asc_tensor_slice(target, axis, start, 1, len, &part);
    if (!st) st = asc_copy(xs[i], &part);
    asc_tensor_release(&part);
    if (st) return st;
    start += len;
  }
  return ASC_OK;
}

asc_status asc_concatenate(int n, const asc_tensor *const *xs, int axis, asc_tensor *out) {
  if (n <= 0 || !xs)
    return asc_error(ASC_ERR_INVALID_VALUE, "need at least one array to concatenate");
  for (int i = 0; i < n; i++) {
    asc_status st = asc_tensor_check(xs[i]);
    if (st) return st;
  }
  int ndim = xs[0]->ndim;
  if (ndim == 0)
    return asc_error(ASC_ERR_INVALID_VALUE, "zero-dimensional arrays cannot be concatenated");
  asc_status st = normalize_axis(&axis, ndim);
  int64_t shape[ASC_MAX_DIMS];
  asc_dtype dtype;
  if (!st) st = joined_shape(n, xs, axis, shape, &dtype);
  bool preset = out->storage != NULL;
  if (!st && preset) st = check_out(out, dtype, ndim, shape);
  if (st) return st;
  /* Straight into out unless an input shares its memory: then a part
   * written early could clobber an input read later. */
  bool direct = preset;
  for (int i = 0; i < n && direct; i++) direct = !asc_tensors_overlap(xs[i], out);
  asc_tensor target = {0};
  if (direct)
    asc_tensor_share(out, &target);
  else
    st = asc_tensor_empty(preset ? asc_tensor_device(out) : asc_tensor_device(xs[0]),
                          preset ? out->dtype : dtype, ndim, shape, &target);
  if (!st) st = copy_parts(n, xs, axis, &target);
  if (!st && preset && !direct) st = asc_copy(&target, out);
  if (st || preset)
    asc_tensor_release(&target);
  else
    *out = target;
  return st;
}

asc_status asc_stack(int n, const asc_tensor *const *xs, int axis, asc_tensor *out) {
  if (n <= 0 || !xs) return asc_error(ASC_ERR_INVALID_VALUE, "need at least one array to stack");
  for (int i = 0; i < n; i++) {
    asc_status st = asc_tensor_check(xs[i]);
    if (st) return st;
  }
  const asc_tensor *x0 = xs[0];
  for (int i = 1; i < n; i++)
    if (xs[i]->ndim != x0->ndim ||
        memcmp(xs[i]->shape, x0->shape, (size_t)x0->ndim * sizeof *x0->shape))
      return asc_error(ASC_ERR_INVALID_VALUE, "all input arrays must have the same shape");
  if (x0->ndim >= ASC_MAX_DIMS)
    return asc_error(ASC_ERR_INVALID_VALUE, "stack: at most %d dimensions", ASC_MAX_DIMS);
  asc_status st = normalize_axis(&axis, x0->ndim + 1);
  if (st) return st;
  asc_tensor *views = calloc((size_t)n, sizeof *views);
  const asc_tensor **ptrs = calloc((size_t)n, sizeof *ptrs);
  if (!views || !ptrs) st = asc_error(ASC_ERR_OUT_OF_MEMORY, "stack: out of host memory");
  int made = 0;
  for (; !st && made < n; made++) {
    st = asc_tensor_unsqueeze(xs[made], axis, &views[made]);
    ptrs[made] = &views[made];
  }
  if (!st) st = asc_concatenate(n, ptrs, axis, out);
  for (int i = 0; i < made; i++) asc_tensor_release(&views[i]);
  free(views);
  free(ptrs);
  return st;
}
