/* Reductions built from other operations.
 *
 * Complex tensors: sum and mean reduce the real view (each part on its
 * own, with the pairwise sums of the real kernels), prod multiplies halves
 * together until one element is left, any and all test x != 0.
 *
 * uint64's max, min, argmax and argmin: the kernels order integers as
 * int64, so the values go through the order-preserving map u ^ 2^63 (0 ->
 * INT64_MIN, 2^64 - 1 -> INT64_MAX) and back. */
#include <string.h>

#include "asc/ops.h"
#include "asc/ops_create.h"
#include "asc/ops_unary.h"
#include "reduce_internal.h"

/* The reduced axes as a list, for asc_reduce. */
static int axis_list(const asc_tensor *x, const bool *reduced, int *axes) {
  int n = 0;
  for (int d = 0; d < x->ndim; d++)
    if (reduced[d]) axes[n++] = d;
  return n;
}

static asc_status sum_or_mean(asc_reduce_op op, const asc_tensor *x, const int *axes, int naxes,
                              bool keepdims, asc_tensor *out) {
  asc_tensor parts = {0}, reduced = {0}, result = {0};
  asc_status st = asc_tensor_view_real(x, &parts);
  if (!st)
    st = asc_reduce(op, &parts, naxes, axes, keepdims, 0, asc_dtype_to_real(x->dtype), &reduced);
  if (!st) st = asc_tensor_view_complex(&reduced, &result);
  asc_tensor_release(&parts);
  asc_tensor_release(&reduced);
  return st ? st : asc_red_deliver(&result, out);
}

/* y is (rows, n) and contiguous: multiplies y[:, :h] by y[:, h:2h] into a
 * new (rows, h) tensor, and its first column by y[:, n-1] when n is odd. */
static asc_status halve(const asc_tensor *y, asc_tensor *next) {
  int64_t n = y->shape[1], h = n / 2;
  asc_tensor lo = {0}, hi = {0}, first = {0}, last = {0};
  asc_status st = asc_tensor_slice(y, 1, 0, 1, h, &lo);
  if (!st) st = asc_tensor_slice(y, 1, h, 1, h, &hi);
  if (!st) st = asc_binary(ASC_OP_MUL, &lo, &hi, next);
  if (!st && n % 2) {
    st = asc_tensor_slice(next, 1, 0, 1, 1, &first);
    if (!st) st = asc_tensor_slice(y, 1, n - 1, 1, 1, &last);
    if (!st) st = asc_binary(ASC_OP_MUL, &first, &last, &first);
  }
  asc_tensor_release(&lo);
  asc_tensor_release(&hi);
  asc_tensor_release(&first);
  asc_tensor_release(&last);
  return st;
}

static asc_status product(const asc_tensor *x, const bool *reduced, bool keepdims,
                          asc_tensor *out) {
  /* Kept axes first, then the reduced ones: rows of products. */
  int perm[ASC_MAX_DIMS], nk = 0, nr = 0, ndim = 0;
  int64_t rows = 1, n = 1, shape[ASC_MAX_DIMS];
  for (int d = 0; d < x->ndim; d++)
    if (!reduced[d]) perm[nk++] = d, rows *= x->shape[d];
  for (int d = 0; d < x->ndim; d++)
    if (reduced[d]) perm[nk + nr++] = d, n *= x->shape[d];
  for (int d = 0; d < x->ndim; d++)
    if (!reduced[d] || keepdims) shape[ndim++] = reduced[d] ? 1 : x->shape[d];
  asc_tensor permuted = {0}, y = {0}, result = {0};
  asc_status st = asc_tensor_permute(x, perm, &permuted);
  const int64_t matrix[2] = {rows, n};
  if (!st) st = asc_tensor_reshape(&permuted, 2, matrix, &y); /* copies when it must */
  asc_tensor_release(&permuted);
  while (!st && y.shape[1] > 1) {
    asc_tensor next = {0};
    st = halve(&y, &next);
    asc_tensor_release(&y);
    y = next;
  }
  if (!st && n == 0) {
    st = asc_tensor_empty(asc_tensor_device(x), x->dtype, ndim, shape, &result);
    if (!st) st = asc_fill_int(&result, 1);
  } else if (!st) {
    st = asc_tensor_reshape(&y, ndim, shape, &result);
  }
  asc_tensor_release(&y);
  if (st) {
    asc_tensor_release(&result);
    return st;
  }
  return asc_red_deliver(&result, out);
}

/* var (std) of complex x: |z - mean|^2 is (re - mean re)^2 + (im - mean
 * im)^2, so the variance is the real part's plus the imaginary part's, each
 * by the real kernels with the same ddof (and std its square root). */
static asc_status spread(asc_reduce_op op, const asc_tensor *x, const int *axes, int naxes,
                         bool keepdims, int ddof, asc_dtype result_dtype, asc_tensor *out) {
  asc_tensor parts = {0}, re = {0}, im = {0}, vre = {0}, vim = {0}, total = {0}, result = {0};
  asc_status st = asc_tensor_view_real(x, &parts);
  if (!st) st = asc_tensor_select(&parts, parts.ndim - 1, 0, &re);
  if (!st) st = asc_tensor_select(&parts, parts.ndim - 1, 1, &im);
  if (!st) st = asc_reduce(ASC_REDUCE_VAR, &re, naxes, axes, keepdims, ddof, result_dtype, &vre);
  if (!st) st = asc_reduce(ASC_REDUCE_VAR, &im, naxes, axes, keepdims, ddof, result_dtype, &vim);
  if (!st) st = asc_binary(ASC_OP_ADD, &vre, &vim, op == ASC_REDUCE_STD ? &total : &result);
  if (!st && op == ASC_REDUCE_STD) st = asc_unary(ASC_UNARY_SQRT, &total, &result);
  asc_tensor_release(&parts);
  asc_tensor_release(&re);
  asc_tensor_release(&im);
  asc_tensor_release(&vre);
  asc_tensor_release(&vim);
  asc_tensor_release(&total);
  return st ? st : asc_red_deliver(&result, out);
}

asc_status asc_reduce_complex(asc_reduce_op op, const asc_tensor *x, const bool *reduced,
                              bool keepdims, int ddof, asc_dtype result_dtype, asc_tensor *out) {
  int axes[ASC_MAX_DIMS];
  int naxes = axis_list(x, reduced, axes);
  if (op == ASC_REDUCE_VAR || op == ASC_REDUCE_STD)
    return spread(op, x, axes, naxes, keepdims, ddof, result_dtype, out);
  asc_tensor src = {0};
  asc_dtype want = op == ASC_REDUCE_ANY || op == ASC_REDUCE_ALL ? ASC_BOOL : result_dtype;
  asc_status st = want == x->dtype ? (asc_tensor_share(x, &src), ASC_OK) : asc_cast(x, want, &src);
  if (st) return st;
  if (want == ASC_BOOL)
    st = asc_reduce(op, &src, naxes, axes, keepdims, 0, ASC_DTYPE_COUNT, out);
  else if (op == ASC_REDUCE_PROD)
    st = product(&src, reduced, keepdims, out);
  else
    st = sum_or_mean(op, &src, axes, naxes, keepdims, out);
  asc_tensor_release(&src);
  return st;
}

/* x's bits with the top one flipped, reinterpreted between uint64 and
 * int64 (to_signed chooses the direction), into a new tensor. */
static asc_status flip_top_bit(const asc_tensor *x, bool to_signed, asc_tensor *out) {
  asc_tensor bits, top = {0};
  asc_tensor_share(x, &bits);
  bits.dtype = ASC_INT64;
  const int64_t sign = INT64_MIN;
  asc_status st = asc_tensor_scalar(asc_tensor_device(x), ASC_INT64, &sign, &top);
  if (!st) st = asc_binary(ASC_OP_BITWISE_XOR, &bits, &top, out);
  asc_tensor_release(&bits);
  asc_tensor_release(&top);
  if (!st && !to_signed) out->dtype = ASC_UINT64;
  return st;
}

asc_status asc_reduce_u64_order(asc_reduce_op op, const asc_tensor *x, const bool *reduced,
                                bool keepdims, asc_tensor *out) {
  int axes[ASC_MAX_DIMS];
  int naxes = axis_list(x, reduced, axes);
  asc_tensor ordered = {0}, result = {0}, back = {0};
  asc_status st = flip_top_bit(x, true, &ordered);
  /* every axis: NULL, the flattened form argmax and argmin take */
  const int *which = naxes == x->ndim ? NULL : axes;
  if (!st) st = asc_reduce(op, &ordered, naxes, which, keepdims, 0, ASC_DTYPE_COUNT, &result);
  asc_tensor_release(&ordered);
  if (st) return st;
  if (op == ASC_REDUCE_ARGMAX || op == ASC_REDUCE_ARGMIN) return asc_red_deliver(&result, out);
  st = flip_top_bit(&result, false, &back);
  asc_tensor_release(&result);
  return st ? st : asc_red_deliver(&back, out);
}
