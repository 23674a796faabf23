/* Cumulative sums and products along an axis (NumPy's cumsum/cumprod, the
 * Array API's cumulative_sum/cumulative_prod). The input is cast to the
 * result dtype first; each row then accumulates in that dtype, every step
 * rounded (floats) or wrapped (integers) to it as NumPy's add.accumulate
 * and multiply.accumulate do: the step is computed exactly in double (two
 * floats of at most 24 bits) or modulo 2**64, then stored and read back. */
#include <stdlib.h>
#include <string.h>

#include "asc/ops.h"
#include "asc/ops_sort.h"
#include "axis_rows.h"
#include "elem_key.h"

typedef struct scan_args {
  asc_dtype dtype;
  bool prod, initial;
  asc_rows r;
  int64_t out_len, rows_per_block;
  const char *in;
  char *out;
  asc_storage *storages[2]; /* out, in */
  bool kept;
  uint32_t whole;
} scan_args;

static asc_key step(asc_key_class cls, bool prod, asc_key acc, asc_key x) {
  switch (cls) {
    case ASC_KEY_INT:
    case ASC_KEY_UINT:
      acc.u = prod ? acc.u * x.u : acc.u + x.u;
      break;
    case ASC_KEY_REAL:
      acc.f = prod ? acc.f * x.f : acc.f + x.f;
      break;
    default:
      if (prod) {
        double re = acc.c.re * x.c.re - acc.c.im * x.c.im;
        double im = acc.c.re * x.c.im + acc.c.im * x.c.re;
        acc.c.re = re;
        acc.c.im = im;
      } else {
        acc.c.re += x.c.re;
        acc.c.im += x.c.im;
      }
      break;
  }
  return acc;
}

static asc_status scan_block(const asc_block_ctx *block, const void *args) {
  const scan_args *a = args;
  int64_t r0 = (int64_t)block->block_idx * a->rows_per_block, r1 = r0 + a->rows_per_block;
  if (r1 > a->r.rows) r1 = a->r.rows;
  int64_t size = (int64_t)asc_dtype_size(a->dtype), ostep = a->r.inner * size;
  asc_key_class cls = asc_key_class_of(a->dtype);
  asc_key identity;
  memset(&identity, 0, sizeof identity);
  if (a->prod) {
    if (cls == ASC_KEY_REAL)
      identity.f = 1;
    else if (cls == ASC_KEY_COMPLEX)
      identity.c.re = 1;
    else
      identity.u = 1;
  }
  for (int64_t row = r0; row < r1; row++) {
    const char *in = asc_rows_in(&a->r, a->in, row);
    char *out = asc_rows_out(&a->r, a->out, row, a->out_len, size);
    asc_key acc = identity;
    if (a->initial) {
      asc_key_store(a->dtype, out, acc);
      out += ostep;
    }
    for (int64_t i = 0; i < a->r.len; i++, out += ostep) {
      acc = step(cls, a->prod, acc, asc_key_load(a->dtype, in + i * a->r.step));
      asc_key_store(a->dtype, out, acc);
      acc = asc_key_load(a->dtype, out);
    }
  }
  return ASC_OK;
}

ASC_QUEUED_STORAGES(scan, scan_args, 2)

static void scan_failed(void *args, bool skipped) {
  scan_args *a = args;
  asc_storage_poison(a->storages[0], a->prod ? "cumulative_prod" : "cumulative_sum", skipped);
}

asc_dtype asc_cumulative_dtype(asc_dtype x) {
  if (x == ASC_BOOL || (asc_dtype_is_integer(x) && asc_dtype_is_signed(x))) return ASC_INT64;
  if (asc_dtype_is_unsigned(x)) return ASC_UINT64;
  return x;
}

asc_status asc_cumulative(const asc_tensor *x, int axis, bool prod, asc_dtype dtype,
                          bool include_initial, asc_tensor *out) {
  const char *name = prod ? "cumulative_prod" : "cumulative_sum";
  asc_status st = asc_tensor_check(x);
  if (st) return st;
  if (dtype == ASC_DTYPE_COUNT) dtype = asc_cumulative_dtype(x->dtype);
  if (!asc_dtype_valid(dtype)) return asc_error(ASC_ERR_TYPE, "%s: invalid dtype", name);
  if (axis < -x->ndim || axis >= x->ndim)
    return asc_error(ASC_ERR_INDEX, "%s: axis %d is out of bounds for array of dimension %d", name,
                     axis, x->ndim);
  if (axis < 0) axis += x->ndim;
  asc_tensor cast = {0}, result = {0};
  st = asc_cast(x, dtype, &cast);
  int64_t shape[ASC_MAX_DIMS];
  memcpy(shape, x->shape, sizeof shape);
  shape[axis] += include_initial;
  if (!st) st = asc_tensor_empty(asc_tensor_device(x), dtype, x->ndim, shape, &result);
  if (!st && asc_tensor_numel(&result) > 0) st = asc_tensor_check_input(&cast);
  if (!st && asc_tensor_numel(&result) > 0) {
    scan_args a;
    memset(&a, 0, sizeof a);
    a.dtype = dtype;
    a.prod = prod;
    a.initial = include_initial;
    asc_rows_init(&a.r, &cast, axis);
    a.out_len = shape[axis];
    a.in = asc_tensor_data(&cast);
    a.out = asc_tensor_data(&result);
    a.storages[0] = result.storage;
    a.storages[1] = cast.storage;
    int64_t bytes = asc_tensor_numel(&result) * (int64_t)asc_dtype_size(dtype) * 4;
    uint32_t blocks = asc_rows_blocks(a.r.rows, bytes, asc_tensor_device(x), &a.rows_per_block);
    st = ASC_QUEUED_LAUNCH(scan, &a, blocks, name, bytes);
  }
  asc_tensor_release(&cast);
  return asc_tensor_hand_over(st, &result, out);
}
