/* Reductions (sum, mean, max, argmax, var, ...) and softmax with NumPy 2
 * semantics. They read any strided view without copying it and run on the
 * current stream like every tensor operation.
 *
 * Results go to *out: when out->storage is NULL a new tensor is allocated
 * (the caller owns it); otherwise *out is an existing tensor of the result's
 * shape that receives the values cast to its dtype (NumPy's reductions cast
 * into out= unsafely).
 *
 * Result dtypes follow NumPy, with one difference: the sum and product of
 * uint8 are int64 (NumPy: uint64, which pyasc does not have).
 *   sum, prod    bool and integers -> int64; floats keep their dtype
 *   mean         bool and integers -> float64; floats keep their dtype
 *   var, std     as mean
 *   max, min     the input's dtype (NaN propagates)
 *   argmax/min   int64: the first extreme; a NaN counts as the extreme
 *   any, all     bool
 * `dtype` (sum, prod, mean, var, std only; ASC_DTYPE_COUNT = the default)
 * names the dtype the reduction computes and returns in, as NumPy's dtype=.
 *
 * Accuracy: float sums (sum, mean, var, softmax) are pairwise, as NumPy's;
 * float16 and bfloat16 accumulate in float32, float32 in float32 and
 * float64 in float64, and var/std take two passes (mean first).
 *
 * Empty reductions: sum 0, prod 1, any false, all true; mean, var and std
 * give NaN (NumPy also warns; pyasc does not); max, min, argmax and argmin
 * fail with ASC_ERR_INVALID_VALUE. */
#ifndef ASC_OPS_REDUCE_H
#define ASC_OPS_REDUCE_H

#include "asc/tensor.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum asc_reduce_op {
  ASC_REDUCE_SUM,
  ASC_REDUCE_PROD,
  ASC_REDUCE_MEAN,
  ASC_REDUCE_MAX,
  ASC_REDUCE_MIN,
  ASC_REDUCE_ARGMAX,
  ASC_REDUCE_ARGMIN,
  ASC_REDUCE_ANY,
  ASC_REDUCE_ALL,
  ASC_REDUCE_VAR,
  ASC_REDUCE_STD,
  ASC_REDUCE_OP_COUNT
} asc_reduce_op;

/* Static NumPy-style name ("sum", "argmax", ...). */
const char *asc_reduce_op_name(asc_reduce_op op);

/* The dtype op produces for input dtype x and requested dtype (or
 * ASC_DTYPE_COUNT); ASC_ERR_TYPE when dtype is not accepted (a dtype for
 * max/argmax/any/all, an integer dtype for var/std). */
asc_status asc_reduce_dtype(asc_reduce_op op, asc_dtype x, asc_dtype dtype, asc_dtype *result);

/* Reduces x over `axes` (naxes of them; negative counts from the end;
 * NULL = all). keepdims leaves the reduced axes as length 1. ddof is the
 * delta degrees of freedom of var/std (divisor max(n - ddof, 0)).
 * argmax/argmin take one axis, or NULL for the index into the flattened
 * tensor. An axis out of range is ASC_ERR_INDEX, a repeated one
 * ASC_ERR_INVALID_VALUE. */
asc_status asc_reduce(asc_reduce_op op, const asc_tensor *x, int naxes, const int *axes,
                      bool keepdims, int ddof, asc_dtype dtype, asc_tensor *out);

/* softmax (log = false) or log_softmax (log = true) along axis, computed
 * stably (the maximum is subtracted first). Float inputs keep their dtype;
 * bool and integers give the dtype NumPy's exp gives them
 * (asc_dtype_to_float). */
asc_status asc_softmax(const asc_tensor *x, int axis, bool log, asc_tensor *out);

#ifdef __cplusplus
}
#endif
#endif
