/* Work along one axis of a tensor, row by row (sort.c, scan.c): a "row" is
 * the axis' elements at one position of the other axes. Inputs are read
 * through their strides; outputs are fresh C-contiguous tensors whose
 * length along the axis may differ from the input's. */
#ifndef ASC_TENSOR_AXIS_ROWS_H
#define ASC_TENSOR_AXIS_ROWS_H

#include "tensor_internal.h"

typedef struct asc_rows {
  int kdim;                                            /* the other axes */
  int64_t kshape[ASC_MAX_DIMS], kstride[ASC_MAX_DIMS]; /* input strides, bytes */
  int64_t len, step;                                   /* the axis: length, input byte stride */
  int64_t inner;                                       /* elements after the axis */
  int64_t rows;
} asc_rows;

static inline void asc_rows_init(asc_rows *r, const asc_tensor *x, int axis) {
  int64_t size = (int64_t)asc_dtype_size(x->dtype);
  r->kdim = 0;
  r->len = x->shape[axis];
  r->step = x->strides[axis] * size;
  r->inner = 1;
  for (int d = 0; d < x->ndim; d++) {
    if (d == axis) continue;
    r->kshape[r->kdim] = x->shape[d];
    r->kstride[r->kdim++] = x->strides[d] * size;
    if (d > axis) r->inner *= x->shape[d];
  }
  r->rows = asc_shape_numel(r->kdim, r->kshape);
}

/* The input's first element of row `row`. */
static inline const char *asc_rows_in(const asc_rows *r, const char *base, int64_t row) {
  for (int d = r->kdim - 1; d >= 0; d--) {
    base += (row % r->kshape[d]) * r->kstride[d];
    row /= r->kshape[d];
  }
  return base;
}

/* The first element of row `row` in a contiguous output whose axis has
 * out_len elements of `size` bytes; the row's stride is inner * size. */
static inline char *asc_rows_out(const asc_rows *r, char *base, int64_t row, int64_t out_len,
                                 int64_t size) {
  return base + ((row / r->inner) * out_len * r->inner + row % r->inner) * size;
}

/* The blocks for `rows` rows of work touching `bytes`: at least one row each. */
static inline uint32_t asc_rows_blocks(int64_t rows, int64_t bytes, int device,
                                       int64_t *rows_per_block) {
  int64_t want = asc_parallel_blocks(bytes, (int64_t)1 << 20, (int64_t)1 << 19, device);
  if (want > rows) want = rows;
  if (want < 1) want = 1;
  *rows_per_block = (rows + want - 1) / want;
  if (*rows_per_block < 1) *rows_per_block = 1;
  return (uint32_t)((rows + *rows_per_block - 1) / *rows_per_block);
}

#endif
