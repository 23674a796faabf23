/* Shape manipulation with NumPy semantics: views where NumPy gives views
 * (flip, squeeze, expand_dims, moveaxis), fresh contiguous tensors
 * otherwise, made on the current stream. Axis arguments may be negative
 * (counted from the end); an axis out of range is ASC_ERR_INDEX, a repeated
 * one ASC_ERR_INVALID_VALUE. Every *out is the caller's. */
#ifndef ASC_OPS_MANIP_H
#define ASC_OPS_MANIP_H

#include "asc/tensor.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Normalises axes[0..naxes) against ndim in place; checks range and
 * repeats. `what` (static) names the function in messages. */
asc_status asc_normalize_axes(const char *what, int ndim, int naxes, int *axes);

/* A view reversing the given axes (axes NULL: every axis). */
asc_status asc_flip(const asc_tensor *x, int naxes, const int *axes, asc_tensor *out);
/* A view without the given length-1 axes (axes NULL: every length-1 axis). */
asc_status asc_squeeze(const asc_tensor *x, int naxes, const int *axes, asc_tensor *out);
/* A view with length-1 axes inserted at positions axes (of the result). */
asc_status asc_expand_dims(const asc_tensor *x, int naxes, const int *axes, asc_tensor *out);
/* A view moving axes src[k] to positions dst[k], the others keeping order. */
asc_status asc_moveaxis(const asc_tensor *x, int n, const int *src, const int *dst,
                        asc_tensor *out);

/* out = x taken at positions index[0..n) along axis (NumPy take with a 1-d
 * int64 index tensor; negative indices count from the end); out's axis has
 * index's length. An index out of range fails with ASC_ERR_INDEX when the
 * work runs. */
asc_status asc_take_axis(const asc_tensor *x, int axis, const asc_tensor *index, asc_tensor *out);
/* NumPy roll: x shifted by shifts[k] along axes[k] (repeated axes add up);
 * naxes 0 rolls the flattened tensor by shifts[0] and keeps x's shape. */
asc_status asc_roll(const asc_tensor *x, int naxes, const int64_t *shifts, const int *axes,
                    asc_tensor *out);
/* NumPy repeat along axis, or of the flattened tensor when flatten:
 * repeats[0..nrep) non-negative, nrep 1 (every element) or the axis'
 * length. */
asc_status asc_repeat(const asc_tensor *x, int nrep, const int64_t *repeats, bool flatten, int axis,
                      asc_tensor *out);
/* NumPy tile: reps[0..nreps) non-negative. */
asc_status asc_tile(const asc_tensor *x, int nreps, const int64_t *reps, asc_tensor *out);
/* NumPy tril (upper = false) and triu over the last two axes, diagonal k. */
asc_status asc_tri_mask(const asc_tensor *x, int64_t k, bool upper, asc_tensor *out);
/* NumPy diff: n-th discrete difference along axis after joining prepend
 * and append (each NULL, or broadcast to x's shape with that axis of its
 * own length); bool differences are not_equal. */
asc_status asc_diff(const asc_tensor *x, int axis, int n, const asc_tensor *prepend,
                    const asc_tensor *append, asc_tensor *out);
/* NumPy count_nonzero over axes (NULL: all), an int64 result. */
asc_status asc_count_nonzero(const asc_tensor *x, int naxes, const int *axes, bool keepdims,
                             asc_tensor *out);

#ifdef __cplusplus
}
#endif
#endif
