/* Advanced indexing: the indices are checked and turned into element
 * offsets on the host, then one launch on the current stream moves the
 * elements. A result row is one position of the broadcast index shape B
 * (with one position of the axes before B when B stays in place); each row
 * moves the block of the axes after B. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/checked.h"
#include "asc/ops.h"
#include "asc/ops_index.h"
#include "half.h"
#include "tensor_internal.h"

#define PARALLEL_BYTES ((int64_t)1 << 20)
#define BYTES_PER_BLOCK ((int64_t)1 << 19)

/* --- walking a strided tensor on the host ---------------------------------- */

typedef struct walker {
  int ndim;
  int64_t shape[ASC_MAX_DIMS];
  int64_t strides[ASC_MAX_DIMS]; /* bytes */
  int64_t pos[ASC_MAX_DIMS];
  const char *p;
} walker;

/* A walker over `shape` from base with element strides `strides`. Axes of
 * length 1 get stride 0, so that no stride is ever multiplied past a
 * valid view's span. */
static asc_status walker_init(walker *w, const char *base, int ndim, const int64_t *shape,
                              const int64_t *strides, int64_t elsize) {
  w->ndim = ndim;
  w->p = base;
  for (int d = 0; d < ndim; d++) {
    w->shape[d] = shape[d];
    w->pos[d] = 0;
    if (asc_mul_overflow_i64(shape[d] == 1 ? 0 : strides[d], elsize, &w->strides[d]))
      return asc_error(ASC_ERR_INVALID_VALUE, "index: a tensor's byte strides overflow");
  }
  return ASC_OK;
}

/* Steps to the next element in C order. */
static void walker_next(walker *w) {
  for (int d = w->ndim - 1; d >= 0; d--) {
    w->p += w->strides[d];
    if (++w->pos[d] < w->shape[d]) return;
    w->p -= w->strides[d] * w->shape[d];
    w->pos[d] = 0;
  }
}

/* An index element as int64; uint64 values wrap as NumPy's cast to intp.
 * A row per dtype: the C type its element is stored as. */
#define READ_INDEX_CASE(DT, T) \
  case DT: {                   \
    T v;                       \
    memcpy(&v, p, sizeof v);   \
    return (int64_t)v;         \
  }
static int64_t read_index(asc_dtype dtype, const char *p) {
  switch (dtype) {
    READ_INDEX_CASE(ASC_INT8, int8_t)
    READ_INDEX_CASE(ASC_UINT8, uint8_t)
    READ_INDEX_CASE(ASC_INT16, int16_t)
    READ_INDEX_CASE(ASC_UINT16, uint16_t)
    READ_INDEX_CASE(ASC_INT32, int32_t)
    READ_INDEX_CASE(ASC_UINT32, uint32_t)
    default: /* int64, uint64 */
      READ_INDEX_CASE(ASC_INT64, int64_t)
  }
}
#undef READ_INDEX_CASE

/* How an element is tested for truth: by its bits, except that a float's
 * -0.0 is false (and NaN true). */
typedef enum truth_kind {
  T_U8,
  T_U16,
  T_H16,
  T_U32,
  T_F32,
  T_U64,
  T_F64,
  T_C64,
  T_C128
} truth_kind;

static truth_kind truth_kind_of(asc_dtype dtype) {
  switch (dtype) {
    case ASC_FLOAT16:
    case ASC_BFLOAT16:
      return T_H16;
    case ASC_FLOAT32:
      return T_F32;
    case ASC_FLOAT64:
      return T_F64;
    case ASC_COMPLEX64:
      return T_C64;
    case ASC_COMPLEX128:
      return T_C128;
    default:
      break;
  }
  size_t size = asc_dtype_size(dtype);
  return size == 1 ? T_U8 : size == 2 ? T_U16 : size == 4 ? T_U32 : T_U64;
}

#define SCAN_AS(T, TEST)                           \
  for (int64_t i = 0; i < len; i++, p += stride) { \
    T v;                                           \
    memcpy(&v, p, sizeof v);                       \
    if (TEST) {                                    \
      if (found) found[n] = i;                     \
      n++;                                         \
    }                                              \
  }

/* The positions i < len of the true elements of the run at p (stride in
 * bytes) go to found (if not NULL), in order; returns their count. */
static int64_t scan_run(truth_kind kind, const char *p, int64_t stride, int64_t len,
                        int64_t *found) {
  int64_t n = 0;
  switch (kind) {
    case T_U8:
      SCAN_AS(uint8_t, v != 0)
      break;
    case T_U16:
      SCAN_AS(uint16_t, v != 0)
      break;
    case T_H16:
      SCAN_AS(uint16_t, (v & 0x7fffu) != 0)
      break;
    case T_U32:
      SCAN_AS(uint32_t, v != 0)
      break;
    case T_F32:
      SCAN_AS(float, v != 0.0f)
      break;
    case T_U64:
      SCAN_AS(uint64_t, v != 0)
      break;
    case T_F64:
      SCAN_AS(double, v != 0.0)
      break;
    case T_C64: /* either part */
      SCAN_AS(asc_c64_t, v != 0)
      break;
    case T_C128:
      SCAN_AS(asc_c128_t, v != 0)
      break;
  }
  return n;
}

/* --- the layout of x[key] ----------------------------------------------------- */

typedef struct layout {
  int nb; /* B, the indices' broadcast shape */
  int64_t bshape[ASC_MAX_DIMS];
  int npre; /* the whole axes before B in the result, and after it */
  int64_t pre_shape[ASC_MAX_DIMS], pre_strides[ASC_MAX_DIMS];
  int npost;
  int64_t post_shape[ASC_MAX_DIMS], post_strides[ASC_MAX_DIMS]; /* x's element strides */
  int ndim;
  int64_t shape[ASC_MAX_DIMS];
} layout;

static asc_status check_key(const asc_tensor *x, int n, const asc_adv_index *idx, bool in_place) {
  if (n < 1 || n > x->ndim || !idx)
    return asc_error(ASC_ERR_INVALID_VALUE, "index: %d advanced indices for a %d-d tensor", n,
                     x->ndim);
  for (int k = 0; k < n; k++) {
    int axis = idx[k].axis;
    if (axis < 0 || axis >= x->ndim || (k && axis <= idx[k - 1].axis) ||
        (in_place && k && axis != idx[k - 1].axis + 1))
      return asc_error(ASC_ERR_INVALID_VALUE, "index: bad axis %d for advanced index %d", axis, k);
    const asc_tensor *t = idx[k].index;
    if (!t) return asc_error(ASC_ERR_INVALID_VALUE, "index: advanced index %d is NULL", k);
    if (!asc_dtype_is_integer(t->dtype))
      return asc_error(ASC_ERR_INDEX,
                       "arrays used as indices must be of integer (or boolean) type, not %s",
                       asc_dtype_name(t->dtype));
    asc_status st = asc_tensor_check(t);
    if (!st) st = asc_tensor_check_valid(t);
    if (st) return st;
  }
  return ASC_OK;
}

static asc_status broadcast_indices(int n, const asc_adv_index *idx, layout *L) {
  L->nb = 0;
  for (int k = 0; k < n; k++) {
    int64_t so_far[ASC_MAX_DIMS];
    memcpy(so_far, L->bshape, sizeof so_far);
    const asc_tensor *t = idx[k].index;
    if (asc_broadcast_shapes(L->nb, so_far, t->ndim, t->shape, &L->nb, L->bshape)) {
      asc_clear_error();
      char msg[1024] =
          "shape mismatch: indexing arrays could not be broadcast together with shapes";
      for (int j = 0; j < n; j++) {
        char s[256];
        size_t used = strlen(msg);
        asc_format_shape(idx[j].index->ndim, idx[j].index->shape, s, sizeof s);
        snprintf(msg + used, sizeof msg - used, " %s", s);
      }
      return asc_error(ASC_ERR_INDEX, "%s", msg);
    }
  }
  return ASC_OK;
}

/* Fills L for x[key]: check_key, the broadcast of the indices, the axes
 * before and after B and the result's shape. */
static asc_status make_layout(const asc_tensor *x, int n, const asc_adv_index *idx, bool in_place,
                              layout *L) {
  memset(L, 0, sizeof *L);
  asc_status st = check_key(x, n, idx, in_place);
  if (!st) st = broadcast_indices(n, idx, L);
  if (st) return st;
  int first = idx[0].axis;
  for (int d = 0, k = 0; d < x->ndim; d++) {
    if (k < n && idx[k].axis == d) {
      k++;
    } else if (in_place && d < first) {
      L->pre_shape[L->npre] = x->shape[d];
      L->pre_strides[L->npre++] = x->strides[d];
    } else {
      L->post_shape[L->npost] = x->shape[d];
      L->post_strides[L->npost++] = x->strides[d];
    }
  }
  int total = L->npre + L->nb + L->npost;
  if (total > ASC_MAX_DIMS)
    return asc_error(ASC_ERR_INVALID_VALUE,
                     "index: the result would have %d dimensions (at most %d)", total,
                     ASC_MAX_DIMS);
  for (int d = 0; d < L->npre; d++) L->shape[L->ndim++] = L->pre_shape[d];
  for (int d = 0; d < L->nb; d++) L->shape[L->ndim++] = L->bshape[d];
  for (int d = 0; d < L->npost; d++) L->shape[L->ndim++] = L->post_shape[d];
  return asc_check_shape(L->ndim, L->shape, x->dtype, NULL);
}

asc_status asc_index_shape(const asc_tensor *x, int n, const asc_adv_index *idx, bool in_place,
                           int *ndim, int64_t *shape) {
  layout L;
  asc_status st = make_layout(x, n, idx, in_place, &L);
  if (st) return st;
  *ndim = L.ndim;
  memcpy(shape, L.shape, (size_t)L.ndim * sizeof *shape);
  return ASC_OK;
}

/* Every index within [-size, size) of its axis, as NumPy checks them: all
 * of them when B is not empty (even if the result is, through an empty
 * axis of x), none when it is. Each index tensor's own elements: a
 * non-empty broadcast repeats each of them. */
static asc_status check_bounds(const asc_tensor *x, int n, const asc_adv_index *idx,
                               const layout *L) {
  if (asc_shape_numel(L->nb, L->bshape) == 0) return ASC_OK;
  for (int k = 0; k < n; k++) {
    const asc_tensor *t = idx[k].index;
    int64_t count = asc_tensor_numel(t), size = x->shape[idx[k].axis];
    if (count == 0) continue;
    walker w;
    asc_status st = walker_init(&w, asc_tensor_data(t), t->ndim, t->shape, t->strides,
                                (int64_t)asc_dtype_size(t->dtype));
    if (st) return st;
    for (int64_t i = 0; i < count; i++, walker_next(&w)) {
      int64_t v = read_index(t->dtype, w.p);
      if (v < -size || v >= size)
        return asc_error(ASC_ERR_INDEX, "index %lld is out of bounds for axis %d with size %lld",
                         (long long)v, idx[k].label, (long long)size);
    }
  }
  return ASC_OK;
}

/* offsets[b], for each position b of B in C order: the element offset from
 * x's first element of the position the indices pick. Checked indices only.
 * The caller frees *offsets. */
static asc_status make_offsets(const asc_tensor *x, int n, const asc_adv_index *idx,
                               const layout *L, int64_t **offsets) {
  size_t bytes;
  asc_status st = asc_check_shape(L->nb, L->bshape, ASC_INT64, &bytes);
  if (st) return st;
  int64_t count = asc_shape_numel(L->nb, L->bshape);
  int64_t *off = malloc(bytes ? bytes : 1);
  if (!off)
    return asc_error(ASC_ERR_OUT_OF_MEMORY, "index: out of host memory for %lld offsets",
                     (long long)count);
  memset(off, 0, bytes);
  /* One index tensor at a time, a tight loop when it is a contiguous int64
   * run over all of B (nonzero's rows, most lists). */
  for (int k = 0; k < n && !st; k++) {
    const asc_tensor *t = idx[k].index;
    int64_t size = x->shape[idx[k].axis], stride = x->strides[idx[k].axis];
    if (t->dtype == ASC_INT64 && t->ndim == L->nb && asc_tensor_is_contiguous(t) &&
        !memcmp(t->shape, L->bshape, (size_t)L->nb * sizeof *t->shape) &&
        ASC_ALIGNED(asc_tensor_data(t), int64_t)) {
      const int64_t *v = asc_tensor_data(t);
      for (int64_t b = 0; b < count; b++) off[b] += (v[b] < 0 ? v[b] + size : v[b]) * stride;
      continue;
    }
    int64_t strides[ASC_MAX_DIMS];
    walker w;
    st = asc_expand_strides(t, L->nb, L->bshape, strides);
    if (!st)
      st = walker_init(&w, asc_tensor_data(t), L->nb, L->bshape, strides,
                       (int64_t)asc_dtype_size(t->dtype));
    for (int64_t b = 0; !st && b < count; b++, walker_next(&w)) {
      int64_t v = read_index(t->dtype, w.p);
      off[b] += (v < 0 ? v + size : v) * stride; /* within x's checked span */
    }
  }
  if (st) {
    free(off);
    return st;
  }
  *offsets = off;
  return ASC_OK;
}

/* --- the moves -------------------------------------------------------------------- */

typedef struct move_args {
  char *x;                  /* x's first element */
  char *flat;               /* the C-contiguous side: the gather's result, the scatter's values */
  int64_t flat_step;        /* its bytes per element: elsize, or 0 for one value everywhere */
  int64_t *offsets;         /* owned: freed by release */
  asc_storage *storages[2]; /* x's and flat's, one reference each */
  int written;              /* which of them the move writes */
  int64_t elsize;
  asc_dtype dtype;
  bool scatter, accumulate;
  int64_t nb;        /* positions of B */
  int64_t units;     /* what blocks split: rows, or for a serial scatter positions before B */
  int64_t unit_rows; /* rows per unit: 1, or all of B */
  int64_t chunk;
  int npre;
  int64_t pre_shape[ASC_MAX_DIMS], pre_strides[ASC_MAX_DIMS]; /* bytes */
  int npost;
  int64_t post_shape[ASC_MAX_DIMS], post_strides[ASC_MAX_DIMS]; /* bytes, coalesced */
  int64_t post_n;
  const char *name;
} move_args;

static inline void move_element(char *dst, const char *src, int64_t elsize) {
  switch (elsize) {
    case 1:
      memcpy(dst, src, 1);
      break;
    case 2:
      memcpy(dst, src, 2);
      break;
    case 4:
      memcpy(dst, src, 4);
      break;
    case 8:
      memcpy(dst, src, 8);
      break;
    default: /* complex128 */
      memcpy(dst, src, 16);
      break;
  }
}

#define ADD_AS(T)              \
  do {                         \
    T a, b;                    \
    memcpy(&a, dst, sizeof a); \
    memcpy(&b, src, sizeof b); \
    a = (T)(a + b);            \
    memcpy(dst, &a, sizeof a); \
  } while (0)

/* *dst += *src in dtype: integers wrap, float16 and bfloat16 round once
 * from float32 (as NumPy), bool is logical or. */
static void add_element(asc_dtype dtype, char *dst, const char *src) {
  switch (dtype) {
    case ASC_BOOL:
      *dst = (char)(*dst || *src);
      break;
    case ASC_INT8:
    case ASC_UINT8:
      ADD_AS(uint8_t);
      break;
    case ASC_INT16:
    case ASC_UINT16:
      ADD_AS(uint16_t);
      break;
    case ASC_INT32:
    case ASC_UINT32:
      ADD_AS(uint32_t);
      break;
    case ASC_INT64:
    case ASC_UINT64:
      ADD_AS(uint64_t);
      break;
    case ASC_FLOAT32:
      ADD_AS(float);
      break;
    case ASC_FLOAT64:
      ADD_AS(double);
      break;
    case ASC_COMPLEX64:
      ADD_AS(asc_c64_t);
      break;
    case ASC_COMPLEX128:
      ADD_AS(asc_c128_t);
      break;
    case ASC_FLOAT16:
    case ASC_BFLOAT16: {
      uint16_t a, b;
      memcpy(&a, dst, sizeof a);
      memcpy(&b, src, sizeof b);
      bool half = dtype == ASC_FLOAT16;
      float sum =
          half ? asc_f16_to_f32(a) + asc_f16_to_f32(b) : asc_bf16_to_f32(a) + asc_bf16_to_f32(b);
      a = half ? asc_f32_to_f16(sum) : asc_f32_to_bf16(sum);
      memcpy(dst, &a, sizeof a);
      break;
    }
    default:
      break;
  }
}

/* Moves `len` elements between x (stride xs bytes) and the flat side. */
static void move_run(const move_args *a, char *xp, char *fp, int64_t len, int64_t xs) {
  int64_t es = a->elsize;
  if (!a->accumulate && xs == es && a->flat_step == es) {
    if (a->scatter)
      memcpy(xp, fp, (size_t)(len * es));
    else
      memcpy(fp, xp, (size_t)(len * es));
    return;
  }
  for (int64_t i = 0; i < len; i++, xp += xs, fp += a->flat_step) {
    if (a->accumulate)
      add_element(a->dtype, xp, fp);
    else if (a->scatter)
      move_element(xp, fp, es);
    else
      move_element(fp, xp, es);
  }
}

/* One row: the block of the axes after B. */
static void move_row(const move_args *a, char *xp, char *fp) {
  if (a->npost == 0) {
    move_run(a, xp, fp, 1, a->elsize);
    return;
  }
  int last = a->npost - 1;
  int64_t len = a->post_shape[last], xs = a->post_strides[last];
  int64_t pos[ASC_MAX_DIMS] = {0};
  for (;;) {
    move_run(a, xp, fp, len, xs);
    fp += len * a->flat_step;
    int d = last - 1;
    for (; d >= 0; d--) {
      xp += a->post_strides[d];
      if (++pos[d] < a->post_shape[d]) break;
      xp -= a->post_strides[d] * a->post_shape[d];
      pos[d] = 0;
    }
    if (d < 0) return;
  }
}

/* x's byte offset of position `pre` (flat, C order) of the axes before B. */
static int64_t pre_offset(const move_args *a, int64_t pre) {
  int64_t off = 0;
  for (int d = a->npre - 1; d >= 0; d--) {
    off += (pre % a->pre_shape[d]) * a->pre_strides[d];
    pre /= a->pre_shape[d];
  }
  return off;
}

#define MOVE_POINTS(T)                                                                  \
  for (int64_t i = 0; i < n; i++) {                                                     \
    if (scatter)                                                                        \
      memcpy(xb + off[i] * (int64_t)sizeof(T), fp + i * step, sizeof(T));               \
    else                                                                                \
      memcpy(fp + i * (int64_t)sizeof(T), xb + off[i] * (int64_t)sizeof(T), sizeof(T)); \
  }

/* n rows of one element each: the common case of indices on every axis
 * (x[mask] with a mask as large as x). */
static void move_points(const move_args *a, char *xb, const int64_t *off, char *fp, int64_t n) {
  bool scatter = a->scatter;
  int64_t step = a->flat_step;
  switch (a->elsize) {
    case 1:
      MOVE_POINTS(uint8_t)
      break;
    case 2:
      MOVE_POINTS(uint16_t)
      break;
    case 4:
      MOVE_POINTS(uint32_t)
      break;
    case 8:
      MOVE_POINTS(uint64_t)
      break;
    default:
      MOVE_POINTS(asc_c128_t)
      break;
  }
}

static asc_status move_block(const asc_block_ctx *block, const void *p) {
  const move_args *a = p;
  int64_t start = (int64_t)block->block_idx * a->chunk;
  int64_t end = start + a->chunk < a->units ? start + a->chunk : a->units;
  if (start >= end) return ASC_OK;
  int64_t r0 = start * a->unit_rows, r1 = end * a->unit_rows;
  int64_t row_bytes = a->post_n * a->flat_step, q = r0 / a->nb, b = r0 % a->nb;
  bool points = a->npost == 0 && !a->accumulate;
  for (int64_t row = r0; row < r1; q++, b = 0) {
    /* the rows of one position before B */
    int64_t run = a->nb - b < r1 - row ? a->nb - b : r1 - row;
    char *xb = a->x + pre_offset(a, q), *fp = a->flat + row * row_bytes;
    if (points)
      move_points(a, xb, a->offsets + b, fp, run);
    else
      for (int64_t i = 0; i < run; i++)
        move_row(a, xb + a->offsets[b + i] * a->elsize, fp + i * row_bytes);
    row += run;
  }
  return ASC_OK;
}

static void move_failed(void *p, bool skipped) {
  move_args *a = p;
  asc_storage_poison(a->storages[a->written], a->name, skipped);
}

static void move_release(void *p) {
  move_args *a = p;
  free(a->offsets);
  asc_storage_release(a->storages[0]);
  asc_storage_release(a->storages[1]);
}

/* Drops length-1 axes after B and merges neighbours contiguous in x. */
static void coalesce_post(move_args *a, const layout *L) {
  int n = 0;
  a->post_n = 1;
  for (int d = 0; d < L->npost; d++) {
    int64_t len = L->post_shape[d], stride = L->post_strides[d] * a->elsize;
    a->post_n *= len;
    if (len == 1) continue;
    if (n > 0 && a->post_strides[n - 1] == stride * len) {
      a->post_shape[n - 1] *= len;
      a->post_strides[n - 1] = stride;
      continue;
    }
    a->post_shape[n] = len;
    a->post_strides[n++] = stride;
  }
  a->npost = n;
}

/* Queues the move between x and flat (C-contiguous, of the layout's shape);
 * takes over offsets whatever happens. */
static asc_status launch_move(const asc_tensor *x, const asc_tensor *flat, const layout *L,
                              int64_t *offsets, bool scatter, unsigned flags) {
  move_args a;
  memset(&a, 0, sizeof a);
  bool accumulate = flags & ASC_INDEX_ACCUMULATE;
  a.x = asc_tensor_data(x);
  a.flat = asc_tensor_data(flat);
  a.offsets = offsets;
  a.elsize = (int64_t)asc_dtype_size(x->dtype);
  a.dtype = x->dtype;
  a.scatter = scatter;
  a.accumulate = accumulate;
  a.written = scatter ? 0 : 1;
  a.name = scatter ? "index assignment" : "index";
  a.nb = asc_shape_numel(L->nb, L->bshape);
  a.npre = L->npre;
  int64_t npre_total = 1;
  bool broadcast = false; /* x has an axis of stride 0: writes would collide */
  for (int d = 0; d < L->npre; d++) {
    a.pre_shape[d] = L->pre_shape[d];
    a.pre_strides[d] = L->pre_strides[d] * a.elsize;
    npre_total *= L->pre_shape[d];
    broadcast |= L->pre_strides[d] == 0 && L->pre_shape[d] > 1;
  }
  coalesce_post(&a, L);
  a.flat_step = scatter && asc_tensor_numel(flat) == 1 ? 0 : a.elsize;
  /* A scatter that may meet a position twice runs each position before B
   * through all of B in order, so that the last of repeated indices wins. */
  bool serial = scatter && !(flags & ASC_INDEX_UNIQUE);
  a.unit_rows = serial ? a.nb : 1;
  a.units = serial ? npre_total : npre_total * a.nb;
  int64_t bytes = 2 * asc_shape_numel(L->ndim, L->shape) * a.elsize;
  uint32_t nblocks = asc_split_blocks(a.units, bytes, PARALLEL_BYTES, BYTES_PER_BLOCK,
                                      asc_tensor_device(x), &a.chunk);
  if (scatter && broadcast) {
    nblocks = 1;
    a.chunk = a.units;
  }
  asc_storage_retain(x->storage);
  asc_storage_retain(flat->storage);
  a.storages[0] = x->storage;
  a.storages[1] = flat->storage;
  asc_launch_desc desc = {.fn = move_block,
                          .nblocks = nblocks,
                          .args = &a,
                          .args_size = sizeof a,
                          .release = move_release,
                          .failed = move_failed,
                          .name = a.name,
                          .flags = bytes <= ASC_INLINE_BYTES ? ASC_LAUNCH_INLINE_OK : 0};
  return asc_launch_ex(ASC_STREAM_CURRENT, &desc);
}

/* The checks both directions share, then the offsets (NULL when the result
 * is empty). */
static asc_status prepare(const asc_tensor *x, int n, const asc_adv_index *idx, bool in_place,
                          layout *L, int64_t **offsets) {
  *offsets = NULL;
  asc_status st = asc_tensor_check(x);
  if (!st) st = asc_tensor_check_input(x);
  if (!st) st = make_layout(x, n, idx, in_place, L);
  if (!st) st = check_bounds(x, n, idx, L);
  if (!st && asc_shape_numel(L->ndim, L->shape) > 0) st = make_offsets(x, n, idx, L, offsets);
  return st;
}

asc_status asc_index_gather(const asc_tensor *x, int n, const asc_adv_index *idx, bool in_place,
                            asc_tensor *out) {
  layout L;
  int64_t *offsets;
  asc_status st = prepare(x, n, idx, in_place, &L, &offsets);
  if (st) return st;
  asc_tensor result;
  st = asc_tensor_empty(asc_tensor_device(x), x->dtype, L.ndim, L.shape, &result);
  if (st) {
    free(offsets);
    return st;
  }
  if (offsets) st = launch_move(x, &result, &L, offsets, false, 0);
  return asc_tensor_hand_over(st, &result, out);
}

asc_status asc_index_scatter(const asc_tensor *x, int n, const asc_adv_index *idx, bool in_place,
                             const asc_tensor *values, unsigned flags) {
  asc_status st = asc_tensor_check_writable(x, "index assignment");
  if (!st) st = asc_tensor_check(values);
  if (st) return st;
  layout L;
  int64_t *offsets;
  st = prepare(x, n, idx, in_place, &L, &offsets);
  if (st) return st;
  /* NumPy drops the value's leading length-1 axes beyond the result's. */
  asc_tensor v = *values;
  int lead = 0;
  while (v.ndim - lead > L.ndim && v.shape[lead] == 1) lead++;
  v.ndim -= lead;
  memmove(v.shape, v.shape + lead, (size_t)v.ndim * sizeof *v.shape);
  memmove(v.strides, v.strides + lead, (size_t)v.ndim * sizeof *v.strides);
  bool fits = v.ndim <= L.ndim;
  for (int d = 0; d < v.ndim && fits; d++) {
    int64_t want = L.shape[L.ndim - v.ndim + d];
    fits = v.shape[d] == want || v.shape[d] == 1;
  }
  if (!fits) {
    char have[256], want[256];
    asc_format_shape(values->ndim, values->shape, have, sizeof have);
    asc_format_shape(L.ndim, L.shape, want, sizeof want);
    free(offsets);
    return asc_error(ASC_ERR_INVALID_VALUE,
                     "shape mismatch: value array of shape %s could not be broadcast to indexing "
                     "result of shape %s",
                     have, want);
  }
  if (!offsets) return ASC_OK; /* nothing to write */
  /* The values, broadcast and cast, in a fresh contiguous tensor (they may
   * share memory with x); one value stays one element. */
  bool one = asc_tensor_numel(&v) == 1;
  if (one) v.ndim = 0; /* the same element, as a 0-d view */
  asc_tensor flat;
  st = asc_tensor_empty(asc_tensor_device(x), x->dtype, one ? 0 : L.ndim, L.shape, &flat);
  if (!st) {
    st = asc_copy(&v, &flat);
    if (!st) {
      st = launch_move(x, &flat, &L, offsets, true, flags);
      offsets = NULL; /* launch_move took it over */
    }
    asc_tensor_release(&flat);
  }
  free(offsets);
  return st;
}

/* Counts x's true elements, or with data (ndim * count int64) records
 * their coordinates: runs along the last axis, the others walked. */
static int64_t scan_nonzero(const asc_tensor *x, int64_t *data, int64_t count, int64_t *found) {
  int last = x->ndim - 1;
  int64_t es = (int64_t)asc_dtype_size(x->dtype), len = x->shape[last];
  int64_t stride = x->strides[last] * es, outer = asc_tensor_numel(x) / len, j = 0;
  truth_kind kind = truth_kind_of(x->dtype);
  walker w;
  walker_init(&w, asc_tensor_data(x), last, x->shape, x->strides, es); /* checked by the caller */
  for (int64_t o = 0; o < outer; o++, walker_next(&w)) {
    int64_t n = scan_run(kind, w.p, stride, len, data ? found : NULL);
    if (data)
      for (int64_t f = 0; f < n; f++, j++) {
        for (int d = 0; d < last; d++) data[d * count + j] = w.pos[d];
        data[last * count + j] = found[f];
      }
    else
      j += n;
  }
  return j;
}

asc_status asc_nonzero(const asc_tensor *x, asc_tensor *out) {
  asc_status st = asc_tensor_check(x);
  if (!st) st = asc_tensor_check_valid(x);
  if (st) return st;
  if (x->ndim == 0)
    return asc_error(ASC_ERR_INVALID_VALUE,
                     "nonzero of a 0-d tensor is not allowed: use x.reshape(1) (as NumPy 2)");
  int64_t total = asc_tensor_numel(x), count = 0;
  walker probe; /* the strides' byte products, checked once */
  st = walker_init(&probe, asc_tensor_data(x), x->ndim, x->shape, x->strides,
                   (int64_t)asc_dtype_size(x->dtype));
  if (st) return st;
  if (total) count = scan_nonzero(x, NULL, 0, NULL);
  int64_t shape[2] = {x->ndim, count};
  void *mem;
  st = asc_host_tensor(asc_tensor_device(x), ASC_INT64, 2, shape, out, &mem);
  if (st || !count) return st;
  int64_t *found = malloc((size_t)x->shape[x->ndim - 1] * sizeof *found);
  if (!found) {
    asc_tensor_release(out);
    return asc_error(ASC_ERR_OUT_OF_MEMORY, "nonzero: out of host memory");
  }
  scan_nonzero(x, mem, count, found);
  free(found);
  return ASC_OK;
}
