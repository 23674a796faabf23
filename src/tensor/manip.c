/* Shape manipulation: flip, squeeze, expand_dims, moveaxis (views), and
 * take along an axis with the functions built on it (roll, repeat, tile),
 * tril/triu, diff and count_nonzero. */
#include <stdlib.h>
#include <string.h>

#include "../core/checked.h"
#include "asc/ops.h"
#include "asc/ops_create.h"
#include "asc/ops_manip.h"
#include "asc/ops_reduce.h"
#include "asc/ops_unary.h"
#include "asc/runtime.h"
#include "tensor_internal.h"

asc_status asc_host_tensor(int device, asc_dtype dtype, int ndim, const int64_t *shape,
                           asc_tensor *out, void **data) {
  size_t nbytes;
  asc_status st = asc_check_shape(ndim, shape, dtype, &nbytes);
  if (st) return st;
  /* Never more than the device holds: such an index could only serve a
   * result that cannot be allocated, and asking the host for it would
   * exhaust the process (or abort it under a sanitizer). */
  asc_device_props props;
  if (asc_device_get_props(device, &props) == ASC_OK && nbytes > props.global_mem_size)
    return asc_error(ASC_ERR_OUT_OF_MEMORY,
                     "out of memory: %zu bytes of indices exceed the device's %zu bytes", nbytes,
                     props.global_mem_size);
  void *mem = malloc(nbytes ? nbytes : 1);
  if (!mem) return asc_error(ASC_ERR_OUT_OF_MEMORY, "out of host memory (%zu bytes)", nbytes);
  asc_storage *s;
  st = asc_storage_wrap(device, mem, nbytes, free, mem, &s);
  if (st) {
    free(mem);
    return st;
  }
  memset(out, 0, sizeof *out);
  out->storage = s;
  out->dtype = dtype;
  out->ndim = ndim;
  if (ndim) memcpy(out->shape, shape, (size_t)ndim * sizeof *shape);
  asc_contiguous_strides(ndim, shape, out->strides);
  *data = mem;
  return ASC_OK;
}

asc_status asc_normalize_axes(const char *what, int ndim, int naxes, int *axes) {
  bool seen[ASC_MAX_DIMS] = {false};
  for (int k = 0; k < naxes; k++) {
    if (axes[k] < -ndim || axes[k] >= ndim)
      return asc_error(ASC_ERR_INDEX, "%s: axis %d is out of bounds for array of dimension %d",
                       what, axes[k], ndim);
    if (axes[k] < 0) axes[k] += ndim;
    if (seen[axes[k]]) return asc_error(ASC_ERR_INVALID_VALUE, "%s: repeated axis", what);
    seen[axes[k]] = true;
  }
  return ASC_OK;
}

/* axes[0..naxes) normalised into a mask; NULL axes: all of them. */
static asc_status axis_mask(const char *what, int ndim, int naxes, const int *axes, bool *mask) {
  if (naxes > ASC_MAX_DIMS) return asc_error(ASC_ERR_INVALID_VALUE, "%s: too many axes", what);
  int norm[ASC_MAX_DIMS];
  for (int d = 0; d < ndim; d++) mask[d] = axes == NULL;
  if (!axes) return ASC_OK;
  memcpy(norm, axes, (size_t)naxes * sizeof *axes);
  asc_status st = asc_normalize_axes(what, ndim, naxes, norm);
  for (int k = 0; !st && k < naxes; k++) mask[norm[k]] = true;
  return st;
}

/* x checked, axes[0..naxes) as a mask over x's axes, and *v a view sharing
 * x's storage (the caller releases it); nothing is held on an error. */
static asc_status masked_view(const char *what, const asc_tensor *x, int naxes, const int *axes,
                              bool *mask, asc_tensor *v) {
  asc_status st = asc_tensor_check(x);
  if (!st) st = axis_mask(what, x->ndim, naxes, axes, mask);
  if (!st) asc_tensor_share(x, v);
  return st;
}

/* --- views ------------------------------------------------------------------ */

/* One view step along axis d of a view. */
typedef asc_status (*axis_view)(const asc_tensor *cur, int d, asc_tensor *next);

/* cur (which this takes over) viewed again by step along each axis d < ndim
 * of mask, in order; *out takes the last view (the caller releases it).
 * Nothing is held on an error. */
static asc_status view_masked(asc_tensor cur, int ndim, const bool *mask, axis_view step,
                              asc_tensor *out) {
  asc_status st = ASC_OK;
  for (int d = 0; d < ndim && !st; d++) {
    if (!mask[d]) continue;
    asc_tensor next;
    st = step(&cur, d, &next);
    asc_tensor_release(&cur);
    cur = next;
  }
  if (!st) *out = cur;
  return st;
}

/* cur reversed along d: a negative step from its last element. */
static asc_status flip_axis(const asc_tensor *cur, int d, asc_tensor *next) {
  return asc_tensor_slice(cur, d, cur->shape[d] - 1, -1, cur->shape[d], next);
}

asc_status asc_flip(const asc_tensor *x, int naxes, const int *axes, asc_tensor *out) {
  bool mask[ASC_MAX_DIMS];
  asc_tensor cur;
  asc_status st = masked_view("flip", x, naxes, axes, mask, &cur);
  if (st) return st;
  for (int d = 0; d < x->ndim; d++) mask[d] = mask[d] && x->shape[d] > 1;
  return view_masked(cur, x->ndim, mask, flip_axis, out);
}

asc_status asc_squeeze(const asc_tensor *x, int naxes, const int *axes, asc_tensor *out) {
  bool mask[ASC_MAX_DIMS];
  asc_tensor v;
  asc_status st = masked_view("squeeze", x, naxes, axes, mask, &v);
  if (st) return st;
  v.ndim = 0;
  for (int d = 0; d < x->ndim; d++) {
    if (mask[d] && x->shape[d] == 1) continue;
    if (mask[d] && axes) {
      asc_tensor_release(&v);
      return asc_error(ASC_ERR_INVALID_VALUE,
                       "squeeze: cannot select an axis to squeeze out which has size not equal "
                       "to one (axis %d has %lld)",
                       d, (long long)x->shape[d]);
    }
    v.shape[v.ndim] = x->shape[d];
    v.strides[v.ndim++] = x->strides[d];
  }
  for (int d = v.ndim; d < ASC_MAX_DIMS; d++) v.shape[d] = v.strides[d] = 0;
  *out = v;
  return ASC_OK;
}

asc_status asc_expand_dims(const asc_tensor *x, int naxes, const int *axes, asc_tensor *out) {
  asc_status st = asc_tensor_check(x);
  if (st) return st;
  int ndim = x->ndim + naxes;
  if (naxes < 0 || ndim > ASC_MAX_DIMS)
    return asc_error(ASC_ERR_INVALID_VALUE, "expand_dims: at most %d dimensions", ASC_MAX_DIMS);
  bool mask[ASC_MAX_DIMS];
  st = axis_mask("expand_dims", ndim, naxes, axes, mask);
  if (st) return st;
  asc_tensor cur;
  asc_tensor_share(x, &cur);
  return view_masked(cur, ndim, mask, asc_tensor_unsqueeze, out);
}

asc_status asc_moveaxis(const asc_tensor *x, int n, const int *src, const int *dst,
                        asc_tensor *out) {
  asc_status st = asc_tensor_check(x);
  if (st) return st;
  if (n < 0 || n > x->ndim)
    return asc_error(ASC_ERR_INVALID_VALUE,
                     "moveaxis: source and destination arguments must have the same number of "
                     "elements, at most the tensor's %d",
                     x->ndim);
  int s[ASC_MAX_DIMS], t[ASC_MAX_DIMS];
  memcpy(s, src, (size_t)n * sizeof *s);
  memcpy(t, dst, (size_t)n * sizeof *t);
  st = asc_normalize_axes("moveaxis source", x->ndim, n, s);
  if (!st) st = asc_normalize_axes("moveaxis destination", x->ndim, n, t);
  if (st) return st;
  /* NumPy's order: the other axes in order, then each source inserted at
   * its destination, by increasing destination. */
  int order[ASC_MAX_DIMS], m = 0;
  bool moved[ASC_MAX_DIMS] = {false}, taken[ASC_MAX_DIMS] = {false};
  for (int k = 0; k < n; k++) moved[s[k]] = true;
  int perm[ASC_MAX_DIMS];
  for (int k = 0; k < n; k++) {
    perm[t[k]] = s[k];
    taken[t[k]] = true;
  }
  for (int d = 0; d < x->ndim; d++)
    if (!moved[d]) order[m++] = d;
  m = 0;
  for (int d = 0; d < x->ndim; d++)
    if (!taken[d]) perm[d] = order[m++];
  return asc_tensor_permute(x, perm, out);
}

/* --- take along an axis ----------------------------------------------------- */

typedef struct take_ctx {
  int64_t step; /* bytes between x's elements along the axis */
  int64_t len;  /* the axis' length */
  int64_t size; /* bytes per element */
} take_ctx;

/* ptrs: out, x at index 0 of the axis (stride 0 along it), the index. */
static asc_status take_loop(char *const *ptrs, const int64_t *strides, int64_t n, const void *p) {
  const take_ctx *c = p;
  char *out = ptrs[0];
  const char *x = ptrs[1], *ix = ptrs[2];
  for (int64_t i = 0; i < n; i++) {
    int64_t j;
    memcpy(&j, ix + i * strides[2], sizeof j);
    if (j < 0) j += c->len;
    if (j < 0 || j >= c->len)
      return asc_error(ASC_ERR_INDEX, "index %lld is out of bounds for an axis of size %lld",
                       (long long)(j < 0 ? j - c->len : j), (long long)c->len);
    memcpy(out + i * strides[0], x + i * strides[1] + j * c->step, (size_t)c->size);
  }
  return ASC_OK;
}

asc_status asc_take_axis(const asc_tensor *x, int axis, const asc_tensor *index, asc_tensor *out) {
  asc_status st = asc_tensor_check(x);
  if (!st) st = asc_tensor_check(index);
  if (st) return st;
  if (index->ndim != 1 || index->dtype != ASC_INT64)
    return asc_error(ASC_ERR_INTERNAL, "take_axis: the index must be a 1-d int64 tensor");
  int ax = axis;
  st = asc_normalize_axes("take", x->ndim, 1, &ax);
  if (st) return st;
  int64_t n = index->shape[0], len = x->shape[ax];
  if (n > 0 && len == 0) return asc_error(ASC_ERR_INDEX, "cannot take from an empty axis");
  int64_t shape[ASC_MAX_DIMS];
  memcpy(shape, x->shape, sizeof shape);
  shape[ax] = n;
  asc_tensor result = {0}, base = {0}, xb = {0}, ix = {0};
  st = asc_tensor_empty(asc_tensor_device(x), x->dtype, x->ndim, shape, &result);
  if (!st && asc_tensor_numel(&result) > 0) {
    int64_t ishape[ASC_MAX_DIMS];
    for (int d = 0; d < x->ndim; d++) ishape[d] = d == ax ? n : 1;
    st = asc_tensor_slice(x, ax, 0, 1, 1, &base);
    if (!st) st = asc_tensor_expand(&base, x->ndim, shape, &xb);
    if (!st) st = asc_tensor_view(index, x->ndim, ishape, &ix);
    if (!st) {
      take_ctx c = {.step = x->strides[ax] * (int64_t)asc_dtype_size(x->dtype),
                    .len = len,
                    .size = (int64_t)asc_dtype_size(x->dtype)};
      asc_ew_kernel k = {.loop = take_loop, .ctx = &c, .ctx_size = sizeof c, .name = "take"};
      const asc_tensor *ins[2] = {&xb, &ix};
      st = asc_ew_launch(&k, 2, ins, &result);
    }
  }
  asc_tensor_release(&base);
  asc_tensor_release(&xb);
  asc_tensor_release(&ix);
  return asc_tensor_hand_over(st, &result, out);
}

/* A fresh 1-d int64 host tensor of n elements: *data to fill. */
static asc_status index_tensor(const asc_tensor *x, int64_t n, asc_tensor *out, int64_t **data) {
  void *mem;
  asc_status st = asc_host_tensor(asc_tensor_device(x), ASC_INT64, 1, &n, out, &mem);
  *data = mem;
  return st;
}

/* x itself (shared) or x flattened (a view or a copy). */
static asc_status flat(const asc_tensor *x, asc_tensor *out) {
  int64_t all = -1;
  return asc_tensor_reshape(x, 1, &all, out);
}

/* A contiguous copy of x. */
static asc_status fresh_copy(const asc_tensor *x, asc_tensor *out) {
  asc_status st = asc_tensor_empty(asc_tensor_device(x), x->dtype, x->ndim, x->shape, out);
  if (!st) st = asc_copy(x, out);
  if (st) asc_tensor_release(out);
  return st;
}

/* x taken along axis with index[j] = (j * mul) % len + ... built by fill. */
static asc_status roll_axis(const asc_tensor *x, int axis, int64_t shift, asc_tensor *out) {
  int64_t len = x->shape[axis], *ix;
  asc_tensor index = {0};
  asc_status st = index_tensor(x, len, &index, &ix);
  if (st) return st;
  int64_t s = ((shift % len) + len) % len;
  for (int64_t j = 0; j < len; j++) ix[j] = (j - s + len) % len;
  st = asc_take_axis(x, axis, &index, out);
  asc_tensor_release(&index);
  return st;
}

asc_status asc_roll(const asc_tensor *x, int naxes, const int64_t *shifts, const int *axes,
                    asc_tensor *out) {
  asc_status st = asc_tensor_check(x);
  if (st) return st;
  if (naxes == 0) {
    asc_tensor f = {0}, r = {0};
    st = flat(x, &f);
    if (!st && f.shape[0] > 0)
      st = roll_axis(&f, 0, shifts[0], &r);
    else if (!st)
      st = fresh_copy(&f, &r);
    if (!st) st = asc_tensor_reshape(&r, x->ndim, x->shape, out);
    asc_tensor_release(&f);
    asc_tensor_release(&r);
    return st;
  }
  /* Shifts on one axis add up, modulo its length. */
  int64_t total[ASC_MAX_DIMS] = {0};
  for (int k = 0; k < naxes; k++) {
    int a = axes[k];
    st = asc_normalize_axes("roll", x->ndim, 1, &a);
    if (st) return st;
    int64_t len = x->shape[a];
    if (len > 0) total[a] = (total[a] + shifts[k] % len) % len;
  }
  asc_tensor cur = {0};
  st = fresh_copy(x, &cur);
  for (int d = 0; !st && d < x->ndim; d++) {
    if (total[d] == 0) continue;
    asc_tensor next = {0};
    st = roll_axis(&cur, d, total[d], &next);
    asc_tensor_release(&cur);
    cur = next;
  }
  if (st) return st;
  *out = cur;
  return ASC_OK;
}

asc_status asc_repeat(const asc_tensor *x, int nrep, const int64_t *repeats, bool flatten, int axis,
                      asc_tensor *out) {
  asc_status st = asc_tensor_check(x);
  if (st) return st;
  asc_tensor src = {0};
  if (flatten) {
    st = flat(x, &src);
    axis = 0;
  } else {
    st = asc_normalize_axes("repeat", x->ndim, 1, &axis);
    if (!st) asc_tensor_share(x, &src);
  }
  if (st) return st;
  int64_t len = src.shape[axis], total = 0;
  if (nrep != 1 && nrep != len)
    st = asc_error(ASC_ERR_INVALID_VALUE,
                   "repeat: operands could not be broadcast together with shape (%lld,) (%d,)",
                   (long long)len, nrep);
  for (int k = 0; !st && k < nrep; k++)
    if (repeats[k] < 0)
      st = asc_error(ASC_ERR_INVALID_VALUE, "repeat: negative dimensions are not allowed");
  for (int64_t j = 0; !st && j < len; j++)
    if (asc_add_overflow_i64(total, repeats[nrep == 1 ? 0 : j], &total))
      st = asc_error(ASC_ERR_OUT_OF_MEMORY, "repeat: the result is too large");
  asc_tensor index = {0};
  int64_t *ix = NULL;
  if (!st) st = index_tensor(x, total, &index, &ix);
  for (int64_t j = 0, o = 0; !st && j < len; j++)
    for (int64_t r = repeats[nrep == 1 ? 0 : j]; r > 0; r--) ix[o++] = j;
  if (!st) st = asc_take_axis(&src, axis, &index, out);
  asc_tensor_release(&index);
  asc_tensor_release(&src);
  return st;
}

asc_status asc_tile(const asc_tensor *x, int nreps, const int64_t *reps, asc_tensor *out) {
  asc_status st = asc_tensor_check(x);
  if (st) return st;
  int ndim = nreps > x->ndim ? nreps : x->ndim;
  if (nreps < 0 || ndim > ASC_MAX_DIMS)
    return asc_error(ASC_ERR_INVALID_VALUE, "tile: at most %d dimensions", ASC_MAX_DIMS);
  int64_t shape[ASC_MAX_DIMS], r[ASC_MAX_DIMS], out_shape[ASC_MAX_DIMS];
  for (int d = 0; d < ndim; d++) {
    int xd = d - (ndim - x->ndim), rd = d - (ndim - nreps);
    shape[d] = xd >= 0 ? x->shape[xd] : 1;
    r[d] = rd >= 0 ? reps[rd] : 1;
    if (r[d] < 0)
      return asc_error(ASC_ERR_INVALID_VALUE, "tile: negative dimensions are not allowed");
    if (asc_mul_overflow_i64(shape[d], r[d], &out_shape[d]))
      return asc_error(ASC_ERR_OUT_OF_MEMORY, "tile: the result is too large");
  }
  st = asc_check_shape(ndim, out_shape, x->dtype, NULL);
  if (st) return st;
  /* an empty result has nothing to gather: a rep of 2^31 beside a 0 must not build an index of
   * 2^31 entries */
  for (int d = 0; d < ndim; d++)
    if (out_shape[d] == 0)
      return asc_tensor_empty(asc_tensor_device(x), x->dtype, ndim, out_shape, out);
  asc_tensor cur = {0}, shaped = {0};
  st = asc_tensor_reshape(x, ndim, shape, &shaped);
  if (!st) st = fresh_copy(&shaped, &cur);
  asc_tensor_release(&shaped);
  for (int d = 0; !st && d < ndim; d++) {
    if (r[d] == 1) continue;
    int64_t len = shape[d], *ix;
    asc_tensor index = {0}, next = {0};
    st = index_tensor(x, out_shape[d], &index, &ix);
    for (int64_t j = 0; !st && j < out_shape[d]; j++) ix[j] = j % len;
    if (!st && len == 0) {
      /* Tiling an empty axis leaves it empty. */
      asc_tensor_release(&index);
      continue;
    }
    if (!st) st = asc_take_axis(&cur, d, &index, &next);
    asc_tensor_release(&index);
    asc_tensor_release(&cur);
    cur = next;
  }
  return asc_tensor_hand_over(st, &cur, out);
}

asc_status asc_tri_mask(const asc_tensor *x, int64_t k, bool upper, asc_tensor *out) {
  const char *name = upper ? "triu" : "tril";
  asc_status st = asc_tensor_check(x);
  if (st) return st;
  if (x->ndim < 2)
    return asc_error(ASC_ERR_INVALID_VALUE, "%s: the input must have at least 2 dimensions, not %d",
                     name, x->ndim);
  int64_t n = x->shape[x->ndim - 2], m = x->shape[x->ndim - 1], mshape[2] = {n, m};
  asc_tensor mask = {0}, zero = {0};
  void *mem;
  st = asc_host_tensor(asc_tensor_device(x), ASC_BOOL, 2, mshape, &mask, &mem);
  unsigned char *keep = mem;
  for (int64_t i = 0; !st && i < n; i++)
    for (int64_t j = 0; j < m; j++) keep[i * m + j] = upper ? j - i >= k : j - i <= k;
  unsigned char bytes[16] = {0};
  if (!st) st = asc_tensor_scalar(asc_tensor_device(x), x->dtype, bytes, &zero);
  if (!st) st = asc_where(&mask, x, &zero, out);
  asc_tensor_release(&mask);
  asc_tensor_release(&zero);
  return st;
}

/* t as it joins x along axis in diff: a 0-d value broadcast to x's shape
 * with a length-1 axis, else t itself. */
static asc_status diff_part(const asc_tensor *x, int axis, const asc_tensor *t, asc_tensor *out) {
  if (t->ndim != 0) {
    asc_tensor_share(t, out);
    return ASC_OK;
  }
  int64_t shape[ASC_MAX_DIMS];
  memcpy(shape, x->shape, sizeof shape);
  shape[axis] = 1;
  return asc_tensor_expand(t, x->ndim, shape, out);
}

asc_status asc_diff(const asc_tensor *x, int axis, int n, const asc_tensor *prepend,
                    const asc_tensor *append, asc_tensor *out) {
  asc_status st = asc_tensor_check(x);
  if (st) return st;
  if (n < 0)
    return asc_error(ASC_ERR_INVALID_VALUE, "diff: order must be non-negative but got %d", n);
  if (x->ndim == 0)
    return asc_error(ASC_ERR_INVALID_VALUE, "diff requires input that is at least one dimensional");
  st = asc_normalize_axes("diff", x->ndim, 1, &axis);
  if (st) return st;
  if (n == 0) {
    asc_tensor_share(x, out);
    return ASC_OK;
  }
  asc_tensor parts[3] = {{0}}, cur = {0};
  const asc_tensor *ptrs[3];
  int np = 0;
  if (prepend) st = diff_part(x, axis, prepend, &parts[np]), ptrs[np] = &parts[np], np++;
  asc_tensor_share(x, &parts[np]);
  ptrs[np] = &parts[np];
  np++;
  if (!st && append) st = diff_part(x, axis, append, &parts[np]), ptrs[np] = &parts[np], np++;
  if (!st && np > 1)
    st = asc_concatenate(np, ptrs, axis, &cur);
  else if (!st)
    asc_tensor_share(x, &cur);
  for (int k = 0; k < np; k++) asc_tensor_release(&parts[k]);
  for (int i = 0; !st && i < n; i++) {
    int64_t len = cur.shape[axis], m = len > 0 ? len - 1 : 0;
    asc_tensor hi = {0}, lo = {0}, next = {0};
    st = asc_tensor_slice(&cur, axis, 1, 1, m, &hi);
    if (!st) st = asc_tensor_slice(&cur, axis, 0, 1, m, &lo);
    if (!st) st = asc_binary(cur.dtype == ASC_BOOL ? ASC_OP_NE : ASC_OP_SUB, &hi, &lo, &next);
    asc_tensor_release(&hi);
    asc_tensor_release(&lo);
    asc_tensor_release(&cur);
    cur = next;
  }
  return asc_tensor_hand_over(st, &cur, out);
}

asc_status asc_count_nonzero(const asc_tensor *x, int naxes, const int *axes, bool keepdims,
                             asc_tensor *out) {
  asc_status st = asc_tensor_check(x);
  if (st) return st;
  unsigned char bytes[16] = {0};
  asc_tensor zero = {0}, nz = {0};
  st = asc_tensor_scalar(asc_tensor_device(x), x->dtype, bytes, &zero);
  if (!st) st = asc_binary(ASC_OP_NE, x, &zero, &nz);
  if (!st) st = asc_reduce(ASC_REDUCE_SUM, &nz, naxes, axes, keepdims, 0, ASC_INT64, out);
  asc_tensor_release(&zero);
  asc_tensor_release(&nz);
  return st;
}
