/* Sorting, searching, set and scan operations with NumPy / Array API
 * semantics, on any strided view and every dtype, on the current stream.
 *
 * The order is NumPy's: NaN sorts after every other value; complex values
 * sort lexicographically by real then imaginary part, with NaN parts placed
 * as NumPy does ([R + Rj, R + nanj, nan + Rj, nan + nanj]); -0.0 equals 0.0.
 * Every sort is stable. */
#ifndef ASC_OPS_SORT_H
#define ASC_OPS_SORT_H

#include "asc/tensor.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Sorts x along axis (negative counts from the end). values (x's dtype)
 * and indices (int64, the argsort) are fresh contiguous tensors of x's
 * shape the caller owns; either pointer may be NULL when not wanted.
 * descending orders by decreasing value, equal elements keeping their
 * order, NaN still last. */
asc_status asc_sort(const asc_tensor *x, int axis, bool descending, asc_tensor *values,
                    asc_tensor *indices);

/* NumPy searchsorted: for each element of v, the index into the 1-d sorted
 * tensor a (sorted by the int64 permutation `sorter` when not NULL) where it
 * would be inserted: the first such index (right = false) or the last. Both
 * compare in their promoted dtype. *out: a fresh int64 tensor of v's shape. */
asc_status asc_searchsorted(const asc_tensor *a, const asc_tensor *v, bool right,
                            const asc_tensor *sorter, asc_tensor *out);

/* The host part of unique: `sorted` is a 1-d contiguous tensor sorted by
 * asc_sort and `perm` its int64 permutation, both already waited for (the
 * host reads them). Groups equal neighbours (NaNs are distinct unless
 * equal_nan; then every value with a NaN is one group) and makes fresh
 * tensors the caller owns, each pointer may be NULL: values (the sorted
 * unique values), first (int64: the index of each one's first occurrence),
 * inverse (int64, perm's length: the group of each input element) and
 * counts (int64). */
asc_status asc_unique_sorted(const asc_tensor *sorted, const asc_tensor *perm, bool equal_nan,
                             asc_tensor *values, asc_tensor *first, asc_tensor *inverse,
                             asc_tensor *counts);

/* The host part of unique along an axis: `rows` is a contiguous 2-d tensor,
 * already waited for, whose rows are the subarrays along that axis. Rows
 * sort lexicographically in the element order above, stably; rows are equal
 * when every element is == (a row with a NaN equals no other, as NumPy).
 * Fresh tensors the caller owns, each pointer may be NULL: values (the
 * unique rows, groups x row length), first, inverse (one per row) and
 * counts (int64), as in asc_unique_sorted. */
asc_status asc_unique_rows(const asc_tensor *rows, asc_tensor *values, asc_tensor *first,
                           asc_tensor *inverse, asc_tensor *counts);

/* The dtype NumPy's cumsum/cumprod give x without dtype=: bool and signed
 * integers int64, unsigned integers uint64, floats and complex their own. */
asc_dtype asc_cumulative_dtype(asc_dtype x);
/* Cumulative sum (prod = false) or product along axis, computed in dtype
 * (ASC_DTYPE_COUNT: asc_cumulative_dtype), each step rounded to it as
 * NumPy's accumulate does. include_initial puts the identity (0 or 1) first,
 * making the axis one longer. *out: a fresh contiguous tensor. */
asc_status asc_cumulative(const asc_tensor *x, int axis, bool prod, asc_dtype dtype,
                          bool include_initial, asc_tensor *out);

#ifdef __cplusplus
}
#endif
#endif
