/* Element-wise tensor operations with NumPy semantics: broadcasting, NumPy 2
 * type promotion, any strides. Results go to *out: when out->storage is NULL
 * a new tensor is allocated (the caller owns it); otherwise *out is an
 * existing tensor of the broadcast shape that receives the result, cast to
 * its dtype under NumPy's same_kind rule (out= and in-place forms). */
#ifndef ASC_OPS_H
#define ASC_OPS_H

#include "asc/tensor.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum asc_binary_op {
  ASC_OP_ADD,
  ASC_OP_SUB,
  ASC_OP_MUL,
  ASC_OP_DIV, /* true division */
  ASC_OP_FLOOR_DIV,
  ASC_OP_MOD, /* Python's %: the result takes the divisor's sign */
  ASC_OP_POW,
  ASC_OP_MAXIMUM, /* NaN-propagating */
  ASC_OP_MINIMUM,
  ASC_OP_EQ,
  ASC_OP_NE,
  ASC_OP_LT,
  ASC_OP_LE,
  ASC_OP_GT,
  ASC_OP_GE,
  ASC_OP_LOGICAL_AND,
  ASC_OP_LOGICAL_OR,
  ASC_OP_LOGICAL_XOR,
  ASC_OP_BITWISE_AND,
  ASC_OP_BITWISE_OR,
  ASC_OP_BITWISE_XOR,
  ASC_OP_LEFT_SHIFT,
  ASC_OP_RIGHT_SHIFT,
  /* Real float functions (integers compute in asc_dtype_to_float). */
  ASC_OP_ATAN2,
  ASC_OP_COPYSIGN,
  ASC_OP_HYPOT,
  ASC_OP_LOGADDEXP, /* log(exp(x) + exp(y)) without overflow */
  ASC_OP_NEXTAFTER, /* the next value of x's dtype towards y */
  ASC_BINARY_OP_COUNT
} asc_binary_op;

/* Static NumPy-style name ("add", "floor_divide", ...). */
const char *asc_binary_op_name(asc_binary_op op);
/* The dtype a and b are computed in and the dtype of the result, or
 * ASC_ERR_TYPE when the op does not apply to them (bitwise on floats). */
asc_status asc_binary_dtypes(asc_binary_op op, asc_dtype a, asc_dtype b, asc_dtype *compute,
                             asc_dtype *result);
asc_status asc_binary(asc_binary_op op, const asc_tensor *a, const asc_tensor *b, asc_tensor *out);

/* Converts to dtype (C casts, with NumPy's results where C leaves them
 * undefined: NaN or out-of-range floats to integers). */
asc_status asc_cast(const asc_tensor *x, asc_dtype dtype, asc_tensor *out);
/* dst[...] = src: broadcasts src to dst's shape and casts to dst's dtype
 * (unsafe casting, as NumPy assignment). Overlapping operands are safe. */
asc_status asc_copy(const asc_tensor *src, const asc_tensor *dst);
/* May a value of `from` be stored in `to` under NumPy's same_kind rule? */
bool asc_can_cast_same_kind(asc_dtype from, asc_dtype to);

#ifdef __cplusplus
}
#endif
#endif
