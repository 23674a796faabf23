/* Storage and tensor views: shape and stride arithmetic, no element work. */
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/checked.h"
#include "asc/mem.h"
#include "asc/tensor.h"
#include "tensor_internal.h"

struct asc_storage {
  atomic_int refs; /* holders of the data: tensors, work that needs it whole */
  /* holders of this record: one for all of refs together, plus queued work
   * that holds only the record (asc_storage_retain_queued) */
  atomic_int records;
  int device;
  void *data;
  size_t nbytes;
  void (*release)(void *ctx); /* NULL: data came from asc_mem_alloc */
  void *ctx;
  /* 0, or POISON_* once an operation writing it did not complete; `poisoner`
   * names it and is published before the state. */
  atomic_int poison;
  const char *_Atomic poisoner;
  bool readonly; /* set before the storage is shared, never cleared */
};

enum { POISON_FAILED = 1, POISON_SKIPPED = 2 };

asc_status asc_storage_new(int device, size_t nbytes, asc_stream_t stream, asc_storage **out) {
  asc_storage *s = malloc(sizeof *s);
  if (!s) return asc_error(ASC_ERR_OUT_OF_MEMORY, "cannot allocate a storage record");
  asc_status st = asc_mem_alloc(device, nbytes, stream, &s->data);
  if (st) {
    free(s);
    return st;
  }
  atomic_init(&s->refs, 1);
  atomic_init(&s->records, 1);
  s->device = device;
  s->nbytes = nbytes;
  s->release = NULL;
  s->ctx = NULL;
  atomic_init(&s->poison, 0);
  atomic_init(&s->poisoner, NULL);
  s->readonly = false;
  *out = s;
  return ASC_OK;
}

asc_status asc_storage_wrap(int device, void *data, size_t nbytes, void (*release)(void *ctx),
                            void *ctx, asc_storage **out) {
  if (!data && nbytes) return asc_error(ASC_ERR_INVALID_VALUE, "storage: NULL data");
  if (!release) return asc_error(ASC_ERR_INVALID_VALUE, "storage: wrapped memory needs release");
  asc_storage *s = malloc(sizeof *s);
  if (!s) return asc_error(ASC_ERR_OUT_OF_MEMORY, "cannot allocate a storage record");
  atomic_init(&s->refs, 1);
  atomic_init(&s->records, 1);
  s->device = device;
  s->data = data;
  s->nbytes = nbytes;
  s->release = release;
  s->ctx = ctx;
  atomic_init(&s->poison, 0);
  atomic_init(&s->poisoner, NULL);
  s->readonly = false;
  *out = s;
  return ASC_OK;
}

void asc_storage_retain(asc_storage *s) {
  atomic_fetch_add_explicit(&s->refs, 1, memory_order_relaxed);
}

static void release_record(asc_storage *s) {
  if (atomic_fetch_sub_explicit(&s->records, 1, memory_order_acq_rel) == 1) free(s);
}

void asc_storage_release(asc_storage *s) {
  if (!s || atomic_fetch_sub_explicit(&s->refs, 1, memory_order_acq_rel) != 1) return;
  if (s->release)
    s->release(s->ctx);
  else if (asc_mem_free(s->data))
    asc_clear_error(); /* after asc_shutdown: nothing to free */
  release_record(s);
}

bool asc_storage_retain_queued(asc_storage *s, asc_stream_t stream) {
  if (!s->release && s->data && asc_mem_record_stream(s->data, stream) == ASC_OK) {
    atomic_fetch_add_explicit(&s->records, 1, memory_order_relaxed);
    return false;
  }
  asc_clear_error(); /* borrowed memory, or no room to record: hold it whole */
  asc_storage_retain(s);
  return true;
}

void asc_storage_release_queued(asc_storage *s, bool whole) {
  if (!s) return;
  if (whole)
    asc_storage_release(s);
  else
    release_record(s);
}

uint32_t asc_storages_retain_queued(asc_storage *const *s, int n, asc_stream_t stream) {
  uint32_t whole = 0;
  for (int k = 0; k < n && k < 32; k++)
    if (s[k] && asc_storage_retain_queued(s[k], stream)) whole |= 1u << k;
  return whole;
}

void asc_storages_release_queued(asc_storage *const *s, int n, uint32_t whole) {
  for (int k = 0; k < n && k < 32; k++) asc_storage_release_queued(s[k], (whole >> k) & 1u);
}

void *asc_storage_data(const asc_storage *s) {
  return s->data;
}
size_t asc_storage_nbytes(const asc_storage *s) {
  return s->nbytes;
}
int asc_storage_device(const asc_storage *s) {
  return s->device;
}

void asc_storage_poison(asc_storage *s, const char *what, bool skipped) {
  if (!s || atomic_load_explicit(&s->poison, memory_order_acquire)) return;
  const char *none = NULL;
  if (!atomic_compare_exchange_strong(&s->poisoner, &none, what ? what : "an operation")) return;
  atomic_store_explicit(&s->poison, skipped ? POISON_SKIPPED : POISON_FAILED, memory_order_release);
}

asc_status asc_storage_check_valid(const asc_storage *s) {
  int poison = s ? atomic_load_explicit(&s->poison, memory_order_acquire) : 0;
  if (!poison) return ASC_OK;
  const char *what = atomic_load_explicit(&s->poisoner, memory_order_relaxed);
  if (poison == POISON_SKIPPED)
    return asc_error(ASC_ERR_DEVICE,
                     "this tensor holds no valid data: the operation that would have produced it "
                     "(%s) was skipped after an earlier error on its stream",
                     what);
  return asc_error(ASC_ERR_DEVICE,
                   "this tensor holds no valid data: the operation that would have produced it "
                   "(%s) failed",
                   what);
}

asc_status asc_tensor_check_valid(const asc_tensor *t) {
  return asc_storage_check_valid(t->storage);
}

asc_status asc_tensor_check_input(const asc_tensor *t) {
  if (!t->storage || !atomic_load_explicit(&t->storage->poison, memory_order_acquire))
    return ASC_OK;
  bool pending = false;
  if (asc_stream_error_pending(ASC_STREAM_CURRENT, &pending) == ASC_OK && pending) return ASC_OK;
  return asc_tensor_check_valid(t);
}

void asc_storage_set_readonly(asc_storage *s) {
  s->readonly = true;
}

bool asc_storage_readonly(const asc_storage *s) {
  return s && s->readonly;
}

asc_status asc_tensor_check_writable(const asc_tensor *t, const char *what) {
  if (t && asc_storage_readonly(t->storage))
    return asc_error(ASC_ERR_INVALID_VALUE,
                     "%s: the destination is read-only memory (shared from a read-only buffer, "
                     "NumPy array or DLPack tensor); copy it first (e.g. .copy())",
                     what);
  return ASC_OK;
}

/* --- tensors ------------------------------------------------------------ */

/* Shapes that passed asc_check_shape never saturate: their element count
 * is below 2^62. Saturating keeps an unchecked shape from wrapping to a
 * small, plausible count. */
int64_t asc_shape_numel(int ndim, const int64_t *shape) {
  int64_t n = 1;
  for (int i = 0; i < ndim; i++)
    if (shape[i] == 0) return 0;
  for (int i = 0; i < ndim; i++)
    if (asc_mul_overflow_i64(n, shape[i], &n)) return INT64_MAX;
  return n;
}

void asc_contiguous_strides(int ndim, const int64_t *shape, int64_t *strides) {
  int64_t stride = 1;
  for (int i = ndim - 1; i >= 0; i--) {
    strides[i] = stride;
    if (asc_mul_overflow_i64(stride, shape[i] > 1 ? shape[i] : 1, &stride)) stride = INT64_MAX;
  }
}

asc_status asc_check_shape(int ndim, const int64_t *shape, asc_dtype dtype, size_t *nbytes) {
  if (!asc_dtype_valid(dtype)) return asc_error(ASC_ERR_TYPE, "invalid dtype %d", (int)dtype);
  if (ndim < 0 || ndim > ASC_MAX_DIMS)
    return asc_error(ASC_ERR_INVALID_VALUE, "%d dimensions: at most %d are supported", ndim,
                     ASC_MAX_DIMS);
  /* As NumPy: the non-empty axes must fit even when another axis is empty,
   * so that contiguous strides and byte sizes of any view stay in range. */
  int64_t total = (int64_t)asc_dtype_size(dtype);
  bool empty = false;
  for (int i = 0; i < ndim; i++) {
    if (shape[i] < 0)
      return asc_error(ASC_ERR_INVALID_VALUE, "negative dimension %lld in a shape",
                       (long long)shape[i]);
    if (shape[i] == 0)
      empty = true;
    else if (asc_mul_overflow_i64(total, shape[i], &total) || total > ASC_MAX_TENSOR_BYTES) {
      char text[256];
      asc_format_shape(ndim, shape, text, sizeof text);
      return asc_error(ASC_ERR_OUT_OF_MEMORY, "shape %s is too large for memory", text);
    }
  }
  if (nbytes) *nbytes = empty ? 0 : (size_t)total;
  return ASC_OK;
}

asc_status asc_tensor_empty(int device, asc_dtype dtype, int ndim, const int64_t *shape,
                            asc_tensor *out) {
  size_t nbytes;
  asc_status st = asc_check_shape(ndim, shape, dtype, &nbytes);
  if (st) return st;
  asc_storage *storage;
  st = asc_storage_new(device, nbytes, ASC_STREAM_CURRENT, &storage);
  if (st) return st;
  memset(out, 0, sizeof *out);
  out->storage = storage;
  out->dtype = dtype;
  out->ndim = ndim;
  if (ndim) memcpy(out->shape, shape, (size_t)ndim * sizeof *shape); /* 0-d: shape may be NULL */
  asc_contiguous_strides(ndim, shape, out->strides);
  return ASC_OK;
}

/* The release of a scalar's storage: its element goes with the record. */
static void scalar_release(void *ctx) {
  (void)ctx;
}

asc_status asc_tensor_scalar(int device, asc_dtype dtype, const void *value, asc_tensor *out) {
  if (!asc_dtype_valid(dtype)) return asc_error(ASC_ERR_TYPE, "invalid dtype %d", (int)dtype);
  int count;
  asc_status st = asc_device_count(&count);
  if (st) return st;
  if (device < 0 || device >= count)
    return asc_error(ASC_ERR_INVALID_VALUE, "device %d does not exist (%d device%s)", device, count,
                     count == 1 ? "" : "s");
  /* The element follows the record, aligned for any dtype. */
  enum { ELEMENT_AT = (sizeof(asc_storage) + 15) / 16 * 16, ELEMENT_MAX = 16 };
  size_t size = asc_dtype_size(dtype);
  if (size > ELEMENT_MAX) return asc_error(ASC_ERR_INTERNAL, "scalar of %zu bytes", size);
  asc_storage *s = malloc(ELEMENT_AT + ELEMENT_MAX);
  if (!s) return asc_error(ASC_ERR_OUT_OF_MEMORY, "cannot allocate a scalar");
  atomic_init(&s->refs, 1);
  atomic_init(&s->records, 1);
  s->device = device;
  s->data = (char *)s + ELEMENT_AT;
  s->nbytes = size;
  s->release = scalar_release;
  s->ctx = NULL;
  atomic_init(&s->poison, 0);
  atomic_init(&s->poisoner, NULL);
  s->readonly = false;
  memcpy(s->data, value, size);
  memset(out, 0, sizeof *out);
  out->storage = s;
  out->dtype = dtype;
  return ASC_OK;
}

void asc_tensor_release(asc_tensor *t) {
  if (!t) return;
  asc_storage_release(t->storage);
  t->storage = NULL;
}

void asc_tensor_share(const asc_tensor *t, asc_tensor *out) {
  if (t->storage) asc_storage_retain(t->storage);
  if (out != t) *out = *t;
}

int64_t asc_tensor_numel(const asc_tensor *t) {
  return asc_shape_numel(t->ndim, t->shape);
}

int asc_tensor_device(const asc_tensor *t) {
  return t->storage ? t->storage->device : 0;
}

void *asc_tensor_data(const asc_tensor *t) {
  return (char *)t->storage->data + t->offset * (int64_t)asc_dtype_size(t->dtype);
}

bool asc_tensor_is_contiguous(const asc_tensor *t) {
  if (asc_tensor_numel(t) == 0) return true; /* as NumPy: no element to misplace */
  int64_t expected = 1;
  for (int i = t->ndim - 1; i >= 0; i--) {
    if (t->shape[i] == 1) continue;
    if (t->strides[i] != expected) return false;
    expected *= t->shape[i];
  }
  return true;
}

asc_status asc_tensor_check(const asc_tensor *t) {
  if (!t || !t->storage) return asc_error(ASC_ERR_INVALID_VALUE, "tensor has no storage");
  asc_status st = asc_check_shape(t->ndim, t->shape, t->dtype, NULL);
  if (st || asc_tensor_numel(t) == 0) return st;
  int64_t lo, hi;
  int64_t elements = (int64_t)(t->storage->nbytes / asc_dtype_size(t->dtype));
  if (asc_span_overflow(t->ndim, t->shape, t->strides, &lo, &hi) ||
      asc_add_overflow_i64(lo, t->offset, &lo) || asc_add_overflow_i64(hi, t->offset, &hi))
    return asc_error(ASC_ERR_INDEX, "view's strides reach beyond any %lld-element storage",
                     (long long)elements);
  if (lo < 0 || hi >= elements)
    return asc_error(ASC_ERR_INDEX, "view reaches elements [%lld, %lld] of a %lld-element storage",
                     (long long)lo, (long long)hi, (long long)elements);
  return ASC_OK;
}

/* --- views ---------------------------------------------------------------- */

static asc_status check_axis(const asc_tensor *t, int *axis, int extra) {
  int n = t->ndim + extra;
  if (*axis < -n || *axis >= n)
    return asc_error(ASC_ERR_INDEX, "axis %d is out of bounds for a %d-d tensor", *axis, t->ndim);
  if (*axis < 0) *axis += n;
  return ASC_OK;
}

/* Resolves one -1 and checks that the element count is unchanged. */
static asc_status resolve_shape(const asc_tensor *t, int ndim, const int64_t *shape,
                                int64_t *resolved) {
  if (ndim < 0 || ndim > ASC_MAX_DIMS)
    return asc_error(ASC_ERR_INVALID_VALUE, "reshape to %d dimensions: at most %d", ndim,
                     ASC_MAX_DIMS);
  int infer = -1;
  int64_t known = 1;
  for (int i = 0; i < ndim; i++) {
    resolved[i] = shape[i];
    if (shape[i] == -1) {
      if (infer >= 0)
        return asc_error(ASC_ERR_INVALID_VALUE, "can only specify one unknown dimension");
      infer = i;
    } else if (shape[i] < 0) {
      return asc_error(ASC_ERR_INVALID_VALUE, "negative dimension %lld in reshape",
                       (long long)shape[i]);
    } else if (asc_mul_overflow_i64(known, shape[i], &known)) {
      char text[256];
      asc_format_shape(ndim, shape, text, sizeof text);
      return asc_error(ASC_ERR_INVALID_VALUE, "cannot reshape %lld elements into shape %s",
                       (long long)asc_tensor_numel(t), text);
    }
  }
  int64_t numel = asc_tensor_numel(t);
  if (infer >= 0) {
    if (known == 0 || numel % known)
      return asc_error(ASC_ERR_INVALID_VALUE, "cannot reshape %lld elements with a -1 over %lld",
                       (long long)numel, (long long)known);
    resolved[infer] = numel / known;
  } else if (known != numel) {
    return asc_error(ASC_ERR_INVALID_VALUE, "cannot reshape a tensor of %lld elements into %lld",
                     (long long)numel, (long long)known);
  }
  /* An empty tensor takes any shape with a 0: its other axes must still fit. */
  return asc_check_shape(ndim, resolved, t->dtype, NULL);
}

/* NumPy's attempt_nocopy_reshape: groups of old axes that are contiguous
 * with each other map onto groups of new axes. Returns false if impossible. */
static bool view_strides(const asc_tensor *t, int ndim, const int64_t *shape, int64_t *strides) {
  int64_t old_shape[ASC_MAX_DIMS], old_strides[ASC_MAX_DIMS];
  int old_n = 0;
  for (int i = 0; i < t->ndim; i++)
    if (t->shape[i] != 1) {
      old_shape[old_n] = t->shape[i];
      old_strides[old_n++] = t->strides[i];
    }
  if (asc_tensor_numel(t) == 0) {
    asc_contiguous_strides(ndim, shape, strides);
    return true;
  }
  int oi = 0, oj = 1, ni = 0, nj = 1;
  while (ni < ndim && oi < old_n) {
    int64_t np = shape[ni], op = old_shape[oi];
    while (np != op) {
      if (np < op)
        np *= shape[nj++];
      else
        op *= old_shape[oj++];
    }
    for (int k = oi; k < oj - 1; k++) {
      int64_t next;
      if (asc_mul_overflow_i64(old_shape[k + 1], old_strides[k + 1], &next) ||
          old_strides[k] != next)
        return false;
    }
    strides[nj - 1] = old_strides[oj - 1];
    for (int k = nj - 1; k > ni; k--)
      if (asc_mul_overflow_i64(strides[k], shape[k], &strides[k - 1])) return false;
    ni = nj++;
    oi = oj++;
  }
  int64_t last = ni > 0 ? strides[ni - 1] : 1;
  for (int k = ni; k < ndim; k++) strides[k] = last; /* trailing 1s */
  return true;
}

static void set_view(const asc_tensor *t, int ndim, const int64_t *shape, const int64_t *strides,
                     int64_t offset, asc_tensor *out) {
  asc_tensor v;
  v.storage = t->storage;
  v.dtype = t->dtype;
  v.ndim = ndim;
  memcpy(v.shape, shape, (size_t)ndim * sizeof *shape);
  memcpy(v.strides, strides, (size_t)ndim * sizeof *strides);
  v.offset = offset;
  if (v.storage) asc_storage_retain(v.storage);
  *out = v;
}

asc_status asc_tensor_view(const asc_tensor *t, int ndim, const int64_t *shape, asc_tensor *out) {
  int64_t resolved[ASC_MAX_DIMS], strides[ASC_MAX_DIMS];
  asc_status st = resolve_shape(t, ndim, shape, resolved);
  if (st) return st;
  if (!view_strides(t, ndim, resolved, strides))
    return asc_error(ASC_ERR_INVALID_VALUE,
                     "cannot view this non-contiguous tensor with the new shape; use reshape");
  set_view(t, ndim, resolved, strides, t->offset, out);
  return ASC_OK;
}

asc_status asc_tensor_reshape(const asc_tensor *t, int ndim, const int64_t *shape,
                              asc_tensor *out) {
  int64_t resolved[ASC_MAX_DIMS], strides[ASC_MAX_DIMS];
  asc_status st = resolve_shape(t, ndim, shape, resolved);
  if (st) return st;
  if (view_strides(t, ndim, resolved, strides)) {
    set_view(t, ndim, resolved, strides, t->offset, out);
    return ASC_OK;
  }
  asc_tensor copy;
  st = asc_tensor_contiguous(t, &copy);
  if (st) return st;
  asc_contiguous_strides(ndim, resolved, strides);
  set_view(&copy, ndim, resolved, strides, copy.offset, out);
  asc_tensor_release(&copy);
  return ASC_OK;
}

asc_status asc_tensor_permute(const asc_tensor *t, const int *axes, asc_tensor *out) {
  int64_t shape[ASC_MAX_DIMS], strides[ASC_MAX_DIMS];
  bool seen[ASC_MAX_DIMS] = {false};
  for (int i = 0; i < t->ndim; i++) {
    int axis = axes ? axes[i] : t->ndim - 1 - i;
    asc_status st = check_axis(t, &axis, 0);
    if (st) return st;
    if (seen[axis]) return asc_error(ASC_ERR_INVALID_VALUE, "repeated axis %d in transpose", axis);
    seen[axis] = true;
    shape[i] = t->shape[axis];
    strides[i] = t->strides[axis];
  }
  set_view(t, t->ndim, shape, strides, t->offset, out);
  return ASC_OK;
}

asc_status asc_tensor_transpose(const asc_tensor *t, int axis0, int axis1, asc_tensor *out) {
  asc_status st = check_axis(t, &axis0, 0);
  if (!st) st = check_axis(t, &axis1, 0);
  if (st) return st;
  int axes[ASC_MAX_DIMS];
  for (int i = 0; i < t->ndim; i++) axes[i] = i;
  axes[axis0] = axis1;
  axes[axis1] = axis0;
  return asc_tensor_permute(t, axes, out);
}

asc_status asc_broadcast_shapes(int na, const int64_t *a, int nb, const int64_t *b, int *nout,
                                int64_t *out) {
  int n = na > nb ? na : nb;
  if (n > ASC_MAX_DIMS) return asc_error(ASC_ERR_INVALID_VALUE, "too many dimensions");
  for (int i = 0; i < n; i++) {
    int64_t da = i < n - na ? 1 : a[i - (n - na)];
    int64_t db = i < n - nb ? 1 : b[i - (n - nb)];
    if (da != db && da != 1 && db != 1) {
      char sa[256], sb[256];
      asc_format_shape(na, a, sa, sizeof sa);
      asc_format_shape(nb, b, sb, sizeof sb);
      return asc_error(ASC_ERR_INVALID_VALUE,
                       "operands could not be broadcast together with shapes %s %s", sa, sb);
    }
    out[i] = da == 1 ? db : da;
  }
  *nout = n;
  return ASC_OK;
}

asc_status asc_expand_strides(const asc_tensor *t, int ndim, const int64_t *shape,
                              int64_t *strides) {
  if (ndim < t->ndim || ndim > ASC_MAX_DIMS) {
    char s[256];
    asc_format_shape(ndim, shape, s, sizeof s);
    return asc_error(ASC_ERR_INVALID_VALUE, "cannot broadcast a %d-d tensor to shape %s", t->ndim,
                     s);
  }
  int lead = ndim - t->ndim;
  for (int i = 0; i < ndim; i++) {
    if (i < lead) {
      strides[i] = 0;
      continue;
    }
    int64_t have = t->shape[i - lead];
    if (have == shape[i]) {
      strides[i] = t->strides[i - lead];
    } else if (have == 1) {
      strides[i] = 0;
    } else {
      char from[256], to[256];
      asc_format_shape(t->ndim, t->shape, from, sizeof from);
      asc_format_shape(ndim, shape, to, sizeof to);
      return asc_error(ASC_ERR_INVALID_VALUE, "cannot broadcast shape %s to %s", from, to);
    }
  }
  return ASC_OK;
}

asc_status asc_tensor_expand(const asc_tensor *t, int ndim, const int64_t *shape, asc_tensor *out) {
  int64_t strides[ASC_MAX_DIMS];
  asc_status st = ndim >= t->ndim && ndim <= ASC_MAX_DIMS
                      ? asc_check_shape(ndim, shape, t->dtype, NULL)
                      : ASC_OK;
  if (!st) st = asc_expand_strides(t, ndim, shape, strides);
  if (st) return st;
  set_view(t, ndim, shape, strides, t->offset, out);
  return ASC_OK;
}

asc_status asc_tensor_slice(const asc_tensor *t, int axis, int64_t start, int64_t step,
                            int64_t length, asc_tensor *out) {
  asc_status st = check_axis(t, &axis, 0);
  if (st) return st;
  if (step == 0) return asc_error(ASC_ERR_INVALID_VALUE, "slice step cannot be zero");
  int64_t extent = t->shape[axis], last = start, offset = t->offset, stride = t->strides[axis];
  if (length < 0 ||
      (length > 0 &&
       (start < 0 || start >= extent || asc_mul_overflow_i64(length - 1, step, &last) ||
        asc_add_overflow_i64(last, start, &last) || last < 0 || last >= extent)))
    return asc_error(ASC_ERR_INDEX, "slice is outside an axis of length %lld", (long long)extent);
  /* As NumPy, the stride is scaled by the step, except for an empty slice.
   * Longer slices have |step| < extent, so their stride stays inside the
   * view; for one element the next one's place does not matter, and a huge
   * step keeps the old stride rather than overflow it (or its byte form). */
  int64_t scaled, bytes;
  if (length > 1 && asc_mul_overflow_i64(stride, step, &stride))
    return asc_error(ASC_ERR_INDEX, "slice step %lld overflows the stride", (long long)step);
  if (length == 1 && !asc_mul_overflow_i64(stride, step, &scaled) &&
      !asc_mul_overflow_i64(scaled, (int64_t)asc_dtype_size(t->dtype), &bytes))
    stride = scaled;
  if (length > 0) {
    int64_t skip;
    if (asc_mul_overflow_i64(start, t->strides[axis], &skip) ||
        asc_add_overflow_i64(offset, skip, &offset))
      return asc_error(ASC_ERR_INDEX, "slice start %lld overflows the offset", (long long)start);
  }
  int64_t shape[ASC_MAX_DIMS], strides[ASC_MAX_DIMS];
  memcpy(shape, t->shape, sizeof shape);
  memcpy(strides, t->strides, sizeof strides);
  shape[axis] = length;
  strides[axis] = stride;
  set_view(t, t->ndim, shape, strides, offset, out);
  return ASC_OK;
}

asc_status asc_tensor_select(const asc_tensor *t, int axis, int64_t index, asc_tensor *out) {
  asc_status st = check_axis(t, &axis, 0);
  if (st) return st;
  int64_t extent = t->shape[axis];
  if (index < -extent || index >= extent)
    return asc_error(ASC_ERR_INDEX, "index %lld is out of bounds for axis %d with size %lld",
                     (long long)index, axis, (long long)extent);
  if (index < 0) index += extent;
  int64_t offset;
  if (asc_mul_overflow_i64(index, t->strides[axis], &offset) ||
      asc_add_overflow_i64(offset, t->offset, &offset))
    return asc_error(ASC_ERR_INDEX, "index %lld overflows the view's offset", (long long)index);
  int64_t shape[ASC_MAX_DIMS], strides[ASC_MAX_DIMS];
  int n = 0;
  for (int i = 0; i < t->ndim; i++)
    if (i != axis) {
      shape[n] = t->shape[i];
      strides[n++] = t->strides[i];
    }
  set_view(t, n, shape, strides, offset, out);
  return ASC_OK;
}

asc_status asc_tensor_unsqueeze(const asc_tensor *t, int axis, asc_tensor *out) {
  if (t->ndim >= ASC_MAX_DIMS)
    return asc_error(ASC_ERR_INVALID_VALUE, "at most %d dimensions", ASC_MAX_DIMS);
  asc_status st = check_axis(t, &axis, 1);
  if (st) return st;
  int64_t shape[ASC_MAX_DIMS], strides[ASC_MAX_DIMS];
  for (int i = 0, j = 0; i <= t->ndim; i++) {
    if (i == axis) {
      shape[i] = 1;
      strides[i] = 0;
    } else {
      shape[i] = t->shape[j];
      strides[i] = t->strides[j++];
    }
  }
  set_view(t, t->ndim + 1, shape, strides, t->offset, out);
  return ASC_OK;
}

asc_status asc_tensor_view_real(const asc_tensor *t, asc_tensor *out) {
  if (!asc_dtype_is_complex(t->dtype))
    return asc_error(ASC_ERR_TYPE, "a real view needs a complex tensor, not %s",
                     asc_dtype_name(t->dtype));
  if (t->ndim >= ASC_MAX_DIMS)
    return asc_error(ASC_ERR_INVALID_VALUE, "at most %d dimensions", ASC_MAX_DIMS);
  /* Strides and offset double: a valid view's byte extent is unchanged. */
  int64_t shape[ASC_MAX_DIMS], strides[ASC_MAX_DIMS];
  for (int i = 0; i < t->ndim; i++) {
    shape[i] = t->shape[i];
    strides[i] = 2 * t->strides[i];
  }
  shape[t->ndim] = 2;
  strides[t->ndim] = 1;
  set_view(t, t->ndim + 1, shape, strides, 2 * t->offset, out);
  out->dtype = asc_dtype_to_real(t->dtype);
  return ASC_OK;
}

asc_status asc_tensor_view_complex(const asc_tensor *t, asc_tensor *out) {
  if (t->dtype != ASC_FLOAT32 && t->dtype != ASC_FLOAT64)
    return asc_error(ASC_ERR_TYPE, "a complex view needs float32 or float64, not %s",
                     asc_dtype_name(t->dtype));
  int n = t->ndim - 1;
  bool ok = n >= 0 && t->shape[n] == 2 && t->strides[n] == 1 && t->offset % 2 == 0;
  for (int i = 0; ok && i < n; i++) ok = t->strides[i] % 2 == 0 || t->shape[i] == 1;
  if (!ok)
    return asc_error(ASC_ERR_INVALID_VALUE,
                     "a complex view needs a last axis of 2 with stride 1 and even strides");
  int64_t strides[ASC_MAX_DIMS];
  for (int i = 0; i < n; i++) strides[i] = t->shape[i] == 1 ? 0 : t->strides[i] / 2;
  set_view(t, n, t->shape, strides, t->offset / 2, out);
  out->dtype = t->dtype == ASC_FLOAT32 ? ASC_COMPLEX64 : ASC_COMPLEX128;
  return ASC_OK;
}

void asc_format_shape(int ndim, const int64_t *shape, char *buf, size_t size) {
  size_t used = (size_t)snprintf(buf, size, "(");
  for (int i = 0; i < ndim && used < size; i++)
    used += (size_t)snprintf(buf + used, size - used, i ? ", %lld" : "%lld", (long long)shape[i]);
  if (used < size) snprintf(buf + used, size - used, ndim == 1 ? ",)" : ")");
}
