/* Filled tensors: fill, arange, linspace, eye, and the index-kernel launch
 * that computes elements from their flat index. */
#include <math.h>
#include <string.h>

#include "asc/ops_create.h"
#include "half.h"
#include "index_kernel.h"

/* Below this many bytes a kernel runs as one block (as in the element-wise
 * engine): splitting costs more than it saves. */
#define PARALLEL_BYTES ((int64_t)1 << 18)
#define BYTES_PER_BLOCK ((int64_t)1 << 17)

/* One element of any dtype, as bytes. */
typedef union element {
  uint8_t u8;
  int8_t i8;
  int16_t i16;
  int32_t i32;
  int64_t i64;
  uint16_t h;
  float f;
  double d;
  float c64[2]; /* complex64: real, imaginary */
  double c128[2];
  unsigned char bytes[16];
} element;

static void encode_int(asc_dtype dtype, int64_t v, element *e) {
  memset(e, 0, sizeof *e);
  switch (dtype) {
    case ASC_BOOL:
      e->u8 = v != 0;
      break;
    case ASC_INT8:
    case ASC_UINT8:
      e->u8 = (uint8_t)(uint64_t)v;
      break;
    case ASC_INT16:
    case ASC_UINT16:
      e->h = (uint16_t)(uint64_t)v;
      break;
    case ASC_INT32:
    case ASC_UINT32:
      e->i32 = (int32_t)(uint32_t)(uint64_t)v;
      break;
    case ASC_INT64:
    case ASC_UINT64:
      e->i64 = v;
      break;
    case ASC_FLOAT16:
      e->h = asc_double_to_half((double)v);
      break;
    case ASC_BFLOAT16:
      e->h = asc_f32_to_bf16((float)v);
      break;
    case ASC_FLOAT32:
      e->f = (float)v;
      break;
    case ASC_COMPLEX64:
      e->c64[0] = (float)v;
      break;
    case ASC_COMPLEX128:
      e->c128[0] = (double)v;
      break;
    default:
      e->d = (double)v;
      break;
  }
}

static void encode_double(asc_dtype dtype, double v, element *e) {
  memset(e, 0, sizeof *e);
  switch (dtype) {
    case ASC_BOOL:
      e->u8 = v != 0;
      break;
    case ASC_INT8:
    case ASC_UINT8:
    case ASC_INT16:
    case ASC_UINT16:
      encode_int(dtype, (int64_t)(uint32_t)asc_double_to_i32(v), e);
      break;
    case ASC_UINT32:
      encode_int(dtype, asc_double_to_u32(v), e);
      break;
    case ASC_UINT64:
      e->i64 = (int64_t)asc_double_to_u64(v);
      break;
    case ASC_INT32:
      e->i32 = asc_double_to_i32(v);
      break;
    case ASC_INT64:
      e->i64 = asc_double_to_i64(v);
      break;
    case ASC_FLOAT16:
      e->h = asc_double_to_half(v);
      break;
    case ASC_BFLOAT16:
      e->h = asc_f32_to_bf16((float)v);
      break;
    case ASC_FLOAT32:
      e->f = (float)v;
      break;
    case ASC_COMPLEX64:
      e->c64[0] = (float)v;
      break;
    case ASC_COMPLEX128:
      e->c128[0] = v;
      break;
    default:
      e->d = v;
      break;
  }
}

static int64_t decode_int(asc_dtype dtype, const element *e) {
  switch (dtype) {
    case ASC_BOOL:
    case ASC_UINT8:
      return e->u8;
    case ASC_INT8:
      return e->i8;
    case ASC_INT16:
      return e->i16;
    case ASC_UINT16:
      return e->h;
    case ASC_INT32:
      return e->i32;
    case ASC_UINT32:
      return (uint32_t)e->i32;
    default:
      return e->i64;
  }
}

/* --- fill ----------------------------------------------------------------- */

typedef struct fill_ctx {
  element value;
  int64_t size;
  bool zero;
} fill_ctx;

#define FILL_AS(T)                                                        \
  do {                                                                    \
    T v;                                                                  \
    memcpy(&v, c->value.bytes, sizeof v);                                 \
    if (s[0] == (int64_t)sizeof(T) && ASC_ALIGNED(p[0], T)) {             \
      T *o = (T *)p[0];                                                   \
      for (int64_t k = 0; k < n; k++) o[k] = v;                           \
    } else {                                                              \
      char *o = p[0];                                                     \
      for (int64_t k = 0; k < n; k++, o += s[0]) memcpy(o, &v, sizeof v); \
    }                                                                     \
  } while (0)

static asc_status fill_loop(char *const *p, const int64_t *s, int64_t n, const void *ctx) {
  const fill_ctx *c = ctx;
  if (c->zero && s[0] == c->size) {
    memset(p[0], 0, (size_t)(n * c->size));
    return ASC_OK;
  }
  switch (c->size) {
    case 1:
      FILL_AS(uint8_t);
      break;
    case 2:
      FILL_AS(uint16_t);
      break;
    case 4:
      FILL_AS(uint32_t);
      break;
    case 8:
      FILL_AS(uint64_t);
      break;
    default:
      FILL_AS(asc_c128_t);
      break;
  }
  return ASC_OK;
}

static asc_status fill_element(const asc_tensor *t, const element *value) {
  asc_status st = asc_tensor_check(t);
  if (!st) st = asc_tensor_check_writable(t, "fill");
  if (st) return st;
  fill_ctx c = {.value = *value, .size = (int64_t)asc_dtype_size(t->dtype)};
  static const element zero;
  c.zero = !memcmp(value->bytes, zero.bytes, sizeof zero.bytes);
  asc_ew_kernel kernel = {.loop = fill_loop, .ctx = &c, .ctx_size = sizeof c, .name = "fill"};
  return asc_ew_launch(&kernel, 0, NULL, t);
}

asc_status asc_fill(const asc_tensor *t, double value) {
  if (!t) return asc_error(ASC_ERR_INVALID_VALUE, "fill: NULL tensor");
  element e;
  encode_double(t->dtype, value, &e);
  return fill_element(t, &e);
}

asc_status asc_fill_int(const asc_tensor *t, int64_t value) {
  if (!t) return asc_error(ASC_ERR_INVALID_VALUE, "fill: NULL tensor");
  element e;
  encode_int(t->dtype, value, &e);
  return fill_element(t, &e);
}

/* --- index kernels -------------------------------------------------------- */

typedef struct index_args {
  asc_index_loop loop;
  char *data;
  int64_t total;
  int64_t chunk;
  int64_t elsize;
  asc_storage *storage;
  const char *name;
  _Alignas(16) unsigned char ctx[ASC_INDEX_CTX_MAX];
} index_args;

static asc_status index_block(const asc_block_ctx *block, const void *p) {
  const index_args *a = p;
  int64_t start = (int64_t)block->block_idx * a->chunk;
  int64_t end = start + a->chunk < a->total ? start + a->chunk : a->total;
  if (start >= end) return ASC_OK;
  return a->loop(a->data + start * a->elsize, start, end - start, a->ctx);
}

static void index_failed(void *p, bool skipped) {
  index_args *a = p;
  asc_storage_poison(a->storage, a->name, skipped);
}

static void index_release(void *p) {
  asc_storage_release(((index_args *)p)->storage);
}

asc_status asc_index_launch(const asc_index_kernel *kernel, const asc_tensor *out) {
  if (kernel->ctx_size > ASC_INDEX_CTX_MAX || !asc_tensor_is_contiguous(out) ||
      !asc_tensor_aligned(out)) /* index loops store through typed pointers */
    return asc_error(ASC_ERR_INTERNAL, "%s: bad index-kernel launch", kernel->name);
  asc_status st = asc_tensor_check_writable(out, kernel->name);
  if (st) return st;
  index_args a;
  memset(&a, 0, sizeof a);
  a.total = asc_tensor_numel(out);
  if (a.total == 0) return ASC_OK;
  a.loop = kernel->loop;
  a.data = asc_tensor_data(out);
  a.elsize = (int64_t)asc_dtype_size(out->dtype);
  memcpy(a.ctx, kernel->ctx, kernel->ctx_size);
  asc_storage_retain(out->storage);
  a.storage = out->storage;
  a.name = kernel->name;
  asc_launch_desc desc = {
      .fn = index_block,
      .nblocks = asc_split_blocks(a.total, a.total * a.elsize, PARALLEL_BYTES, BYTES_PER_BLOCK,
                                  asc_tensor_device(out), &a.chunk),
      .args = &a,
      .args_size = sizeof a,
      .release = index_release,
      .failed = index_failed,
      .name = kernel->name,
      .flags = a.total * a.elsize <= ASC_INLINE_BYTES ? ASC_LAUNCH_INLINE_OK : 0};
  return asc_launch_ex(ASC_STREAM_CURRENT, &desc);
}

/* Allocates a 1-d tensor of n elements and runs kernel over it. */
static asc_status make_1d(int device, asc_dtype dtype, int64_t n, const asc_index_kernel *kernel,
                          asc_tensor *out) {
  asc_tensor t;
  asc_status st = asc_tensor_empty(device, dtype, 1, &n, &t);
  if (st) return st;
  st = asc_index_launch(kernel, &t);
  return asc_tensor_hand_over(st, &t, out);
}

/* --- arange --------------------------------------------------------------- */

/* NumPy's arange stores the first two values and fills the rest from them:
 * x[i] = x[0] + i * (x[1] - x[0]) in the dtype's arithmetic (float16 in
 * float32). */
typedef struct arange_ctx {
  asc_dtype dtype;
  element first, second;
  int64_t istart, idelta;
  double dstart, ddelta;
  float fstart, fdelta;
} arange_ctx;

#define ARANGE_AS(T, EXPR)                                              \
  do {                                                                  \
    T *o = (T *)out;                                                    \
    for (int64_t k = 0; k < n; k++) {                                   \
      int64_t i = first + k;                                            \
      if (i < 2) {                                                      \
        memcpy(&o[k], i ? c->second.bytes : c->first.bytes, sizeof(T)); \
        continue;                                                       \
      }                                                                 \
      o[k] = EXPR;                                                      \
    }                                                                   \
  } while (0)

#define INT_AT(i) ((uint64_t)c->istart + (uint64_t)(i) * (uint64_t)c->idelta)

static asc_status arange_loop(char *out, int64_t first, int64_t n, const void *ctx) {
  const arange_ctx *c = ctx;
  switch (c->dtype) {
    case ASC_INT8:
    case ASC_UINT8:
    case ASC_BOOL: /* at most two elements: never computed */
      ARANGE_AS(uint8_t, (uint8_t)INT_AT(i));
      break;
    case ASC_INT16:
    case ASC_UINT16:
      ARANGE_AS(uint16_t, (uint16_t)INT_AT(i));
      break;
    case ASC_INT32:
    case ASC_UINT32:
      ARANGE_AS(uint32_t, (uint32_t)INT_AT(i));
      break;
    case ASC_INT64:
    case ASC_UINT64:
      ARANGE_AS(int64_t, (int64_t)INT_AT(i));
      break;
    case ASC_FLOAT16:
      ARANGE_AS(uint16_t, asc_f32_to_f16(c->fstart + (float)i * c->fdelta));
      break;
    case ASC_BFLOAT16:
      ARANGE_AS(uint16_t, asc_f32_to_bf16(c->fstart + (float)i * c->fdelta));
      break;
    case ASC_FLOAT32:
      ARANGE_AS(float, c->fstart + (float)i * c->fdelta);
      break;
    default:
      ARANGE_AS(double, c->dstart + (double)i * c->ddelta);
      break;
  }
  return ASC_OK;
}

static float element_float(asc_dtype dtype, const element *e) {
  switch (dtype) {
    case ASC_FLOAT16:
      return asc_f16_to_f32(e->h);
    case ASC_BFLOAT16:
      return asc_bf16_to_f32(e->h);
    default:
      return e->f;
  }
}

/* n elements from the two leading ones, already in dtype. */
static asc_status arange_fill(int device, asc_dtype dtype, const element *x0, const element *x1,
                              int64_t n, asc_tensor *out) {
  if (dtype == ASC_BOOL && n > 2)
    return asc_error(ASC_ERR_TYPE,
                     "arange() is only supported for booleans when the result has at most "
                     "length 2");
  arange_ctx c = {.dtype = dtype, .first = *x0, .second = *x1};
  if (asc_dtype_is_float(dtype) && dtype != ASC_FLOAT64) {
    c.fstart = element_float(dtype, x0);
    c.fdelta = element_float(dtype, x1) - c.fstart;
  } else if (dtype == ASC_FLOAT64) {
    c.dstart = x0->d;
    c.ddelta = x1->d - x0->d;
  } else {
    c.istart = decode_int(dtype, x0);
    c.idelta = (int64_t)((uint64_t)decode_int(dtype, x1) - (uint64_t)c.istart);
  }
  asc_index_kernel kernel = {
      .loop = arange_loop, .ctx = &c, .ctx_size = sizeof c, .name = "arange"};
  return make_1d(device, dtype, n, &kernel, out);
}

static asc_status check_dtype(asc_dtype dtype, const char *fn) {
  return asc_dtype_valid(dtype) ? ASC_OK
                                : asc_error(ASC_ERR_TYPE, "%s: invalid dtype %d", fn, (int)dtype);
}

/* arange is real-valued (NumPy's complex arange has no use the Array API
 * or PyTorch keeps). */
static asc_status check_arange_dtype(asc_dtype dtype) {
  asc_status st = check_dtype(dtype, "arange");
  if (!st && asc_dtype_is_complex(dtype))
    st = asc_error(ASC_ERR_TYPE, "arange: %s is not supported: arange makes real numbers",
                   asc_dtype_name(dtype));
  return st;
}

asc_status asc_arange_int(int device, asc_dtype dtype, int64_t start, int64_t stop, int64_t step,
                          asc_tensor *out) {
  asc_status st = check_arange_dtype(dtype);
  if (st) return st;
  if (step == 0) return asc_error(ASC_ERR_INVALID_VALUE, "arange: step must not be zero");
  uint64_t n = 0;
  if (step > 0 && stop > start)
    n = ((uint64_t)stop - (uint64_t)start - 1) / (uint64_t)step + 1;
  else if (step < 0 && start > stop)
    n = ((uint64_t)start - (uint64_t)stop - 1) / (0 - (uint64_t)step) + 1;
  if (n > (uint64_t)INT64_MAX)
    return asc_error(ASC_ERR_INVALID_VALUE, "arange: maximum allowed size exceeded");
  element x0, x1;
  encode_int(dtype, start, &x0);
  encode_int(dtype, (int64_t)((uint64_t)start + (uint64_t)step), &x1);
  return arange_fill(device, dtype, &x0, &x1, (int64_t)n, out);
}

asc_status asc_arange(int device, asc_dtype dtype, double start, double stop, double step,
                      asc_tensor *out) {
  asc_status st = check_arange_dtype(dtype);
  if (st) return st;
  if (step == 0) return asc_error(ASC_ERR_INVALID_VALUE, "arange: step must not be zero");
  double span = stop - start, ratio = span / step;
  double n = 0;
  if (span != 0 && ratio == 0) /* underflow: one element unless the ratio is -0 */
    n = signbit(ratio) ? 0 : 1;
  else if (span != 0)
    n = ceil(ratio);
  if (isnan(n)) return asc_error(ASC_ERR_INVALID_VALUE, "arange: cannot compute length");
  if (n >= 9223372036854775807.0)
    return asc_error(ASC_ERR_INVALID_VALUE, "arange: maximum allowed size exceeded");
  element x0, x1;
  encode_double(dtype, start, &x0);
  encode_double(dtype, start + step, &x1);
  return arange_fill(device, dtype, &x0, &x1, n > 0 ? (int64_t)n : 0, out);
}

/* --- linspace ------------------------------------------------------------- */

typedef struct linspace_ctx {
  asc_dtype dtype;
  double start, stop, delta, step, div;
  int64_t last; /* index that takes stop exactly, or -1 */
  bool divide;  /* step underflowed to 0: scale by delta / div instead */
} linspace_ctx;

static inline double linspace_at(const linspace_ctx *c, int64_t i) {
  if (i == c->last) return c->stop;
  if (c->divide) return (double)i / c->div * c->delta + c->start;
  return (double)i * c->step + c->start;
}

static asc_status linspace_loop(char *out, int64_t first, int64_t n, const void *ctx) {
  const linspace_ctx *c = ctx;
  if (c->dtype == ASC_FLOAT64) {
    for (int64_t k = 0; k < n; k++) ((double *)out)[k] = linspace_at(c, first + k);
    return ASC_OK;
  }
  int64_t size = (int64_t)asc_dtype_size(c->dtype);
  bool integer = !asc_dtype_is_float(c->dtype) && c->dtype != ASC_BOOL;
  for (int64_t k = 0; k < n; k++) {
    double v = linspace_at(c, first + k);
    element e;
    encode_double(c->dtype, integer ? floor(v) : v, &e);
    memcpy(out + k * size, e.bytes, (size_t)size);
  }
  return ASC_OK;
}

asc_status asc_linspace(int device, asc_dtype dtype, double start, double stop, int64_t num,
                        bool endpoint, asc_tensor *out) {
  asc_status st = check_dtype(dtype, "linspace");
  if (st) return st;
  if (num < 0)
    return asc_error(ASC_ERR_INVALID_VALUE, "Number of samples, %lld, must be non-negative.",
                     (long long)num);
  /* NumPy: y = arange(num) * (delta / div) + start, or with a zero step
   * (denormals) y = arange(num) / div * delta + start; no div: y * delta. */
  linspace_ctx c = {.dtype = dtype, .start = start, .stop = stop, .last = -1};
  c.delta = stop - start;
  c.div = (double)(endpoint ? num - 1 : num);
  if (c.div > 0) {
    c.step = c.delta / c.div;
    c.divide = c.step == 0;
  } else {
    c.step = c.delta;
  }
  if (endpoint && num > 1) c.last = num - 1;
  asc_index_kernel kernel = {
      .loop = linspace_loop, .ctx = &c, .ctx_size = sizeof c, .name = "linspace"};
  return make_1d(device, dtype, num, &kernel, out);
}

/* --- eye ------------------------------------------------------------------ */

typedef struct eye_ctx {
  int64_t cols, k, size;
  element one;
} eye_ctx;

/* Row by row: zeros, then the one diagonal element if the run holds it. */
static asc_status eye_loop(char *out, int64_t first, int64_t n, const void *ctx) {
  const eye_ctx *c = ctx;
  for (int64_t done = 0; done < n;) {
    int64_t row = (first + done) / c->cols, col = (first + done) % c->cols;
    int64_t run = c->cols - col < n - done ? c->cols - col : n - done;
    char *o = out + done * c->size;
    memset(o, 0, (size_t)(run * c->size));
    int64_t diag = row + c->k;
    if (diag >= col && diag < col + run)
      memcpy(o + (diag - col) * c->size, c->one.bytes, (size_t)c->size);
    done += run;
  }
  return ASC_OK;
}

asc_status asc_eye(int device, asc_dtype dtype, int64_t n, int64_t m, int64_t k, asc_tensor *out) {
  asc_status st = check_dtype(dtype, "eye");
  if (st) return st;
  if (n < 0 || m < 0)
    return asc_error(ASC_ERR_INVALID_VALUE, "negative dimensions are not allowed");
  int64_t shape[2] = {n, m};
  asc_tensor t;
  st = asc_tensor_empty(device, dtype, 2, shape, &t);
  if (st) return st;
  /* A diagonal outside the matrix: none of the rows meets it (and row + k
   * cannot overflow). */
  if (k > m || k < -n) k = m;
  eye_ctx c = {.cols = m, .k = k, .size = (int64_t)asc_dtype_size(dtype)};
  encode_int(dtype, 1, &c.one);
  asc_index_kernel kernel = {.loop = eye_loop, .ctx = &c, .ctx_size = sizeof c, .name = "eye"};
  st = asc_index_launch(&kernel, &t);
  return asc_tensor_hand_over(st, &t, out);
}
