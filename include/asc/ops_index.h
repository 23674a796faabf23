/* Advanced indexing with NumPy's rules: gathers and scatters through integer
 * index tensors, and the coordinates of nonzero elements.
 *
 * These functions read the index tensors (and nonzero's input) on the host
 * when called: the caller first waits for the work that writes them (the
 * Python binding synchronises the current stream). The gathers and scatters
 * are then queued on the current stream like any other operation. */
#ifndef ASC_OPS_INDEX_H
#define ASC_OPS_INDEX_H

#include "asc/tensor.h"

#ifdef __cplusplus
extern "C" {
#endif

/* One advanced index: a tensor of any integer dtype and any strides whose
 * values pick positions along `axis` of the indexed tensor. `label` is the
 * axis number an out-of-range message names (NumPy counts the axes of the
 * array before new axes were inserted). */
typedef struct asc_adv_index {
  const asc_tensor *index;
  int axis;
  int label;
} asc_adv_index;

/* The shape of x[key] for n advanced indices on distinct axes of x, in
 * ascending order; every other axis of x is taken whole. The indices
 * broadcast together to a shape B (ASC_ERR_INDEX naming their shapes if they
 * do not). With in_place the indexed axes must be adjacent and B takes their
 * place; otherwise B comes first and the other axes follow in order. */
asc_status asc_index_shape(const asc_tensor *x, int n, const asc_adv_index *idx, bool in_place,
                           int *ndim, int64_t *shape);

/* *out = x[key] as above, a new C-contiguous tensor (a copy). Negative
 * indices count from the end; an index out of range fails with ASC_ERR_INDEX
 * naming it, the axis and its size. The caller owns *out. */
asc_status asc_index_gather(const asc_tensor *x, int n, const asc_adv_index *idx, bool in_place,
                            asc_tensor *out);

/* Flags of asc_index_scatter. */
enum {
  /* x[key] += values, each repeated index adding its value (NumPy's
   * np.add.at); bool accumulates as logical or. */
  ASC_INDEX_ACCUMULATE = 1u,
  /* The caller knows that no element is indexed twice (the coordinates of
   * a mask): the scatter may run in parallel blocks. Should one be, which
   * value it gets is unspecified. */
  ASC_INDEX_UNIQUE = 2u,
};

/* x[key] = values: values broadcast to x[key]'s shape and are cast to x's
 * dtype (unsafe casting, as NumPy assignment). Where an element is indexed
 * more than once, the last assignment wins. flags: ASC_INDEX_*. */
asc_status asc_index_scatter(const asc_tensor *x, int n, const asc_adv_index *idx, bool in_place,
                             const asc_tensor *values, unsigned flags);

/* The coordinates of x's nonzero elements in C order, as a new (ndim,
 * count) int64 tensor in host memory, written before the return (NumPy's
 * nonzero is its rows, argwhere its transpose). x needs at least one axis.
 * The caller owns *out. */
asc_status asc_nonzero(const asc_tensor *x, asc_tensor *out);

#ifdef __cplusplus
}
#endif
#endif
