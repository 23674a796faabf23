/* Unary element-wise operations, where and clip, with NumPy 2 semantics.
 *
 * Result dtypes follow NumPy's ufuncs: maths on integers and bools gives the
 * float dtype asc_dtype_to_float names (int8 -> float16, int16 -> float32,
 * int32 -> float64); sign changes, abs, floor/ceil/trunc/round and relu keep
 * the dtype; the tests (isnan, ...) and logical_not give bool. float16 and
 * bfloat16 compute in float32 and round once. Functions with no NumPy ufunc
 * (rsqrt, sigmoid, gelu, erf) are float maths; relu keeps the dtype.
 *
 * Complex inputs (complex64 computes in float complex, complex128 in double
 * complex, with C99's Annex G special values): the arithmetic, exponential,
 * logarithmic, trigonometric and hyperbolic functions, sign (x / |x|),
 * round and rint (each part) keep the dtype; abs, real and imag give the
 * parts' real dtype; the tests give bool. Ordering and bit operations,
 * floor/ceil/trunc, relu, the activations and signbit refuse complex.
 *
 * Results go to *out as for asc_binary (asc/ops.h): when out->storage is
 * NULL a new tensor is allocated, otherwise out receives the result cast to
 * its dtype under the same_kind rule; out may overlap the inputs. */
#ifndef ASC_OPS_UNARY_H
#define ASC_OPS_UNARY_H

#include "asc/ops.h"
#include "asc/tensor.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum asc_unary_op {
  ASC_UNARY_NEGATIVE, /* not for bool, as in NumPy */
  ASC_UNARY_POSITIVE, /* a copy; not for bool */
  ASC_UNARY_ABS,
  ASC_UNARY_LOGICAL_NOT,
  ASC_UNARY_INVERT, /* bitwise not: integers and bool only */
  ASC_UNARY_SIGN,   /* -1, 0 or 1; NaN stays NaN; not for bool */
  ASC_UNARY_EXP,
  ASC_UNARY_EXP2,
  ASC_UNARY_LOG,
  ASC_UNARY_LOG2,
  ASC_UNARY_LOG1P,
  ASC_UNARY_EXPM1,
  ASC_UNARY_SQRT,
  ASC_UNARY_RSQRT,      /* 1 / sqrt(x) */
  ASC_UNARY_RECIPROCAL, /* 1 / x; integers truncate as NumPy's (1 / 0 as a cast of inf) */
  ASC_UNARY_SIN,
  ASC_UNARY_COS,
  ASC_UNARY_TAN,
  ASC_UNARY_TANH,
  ASC_UNARY_SIGMOID, /* 1 / (1 + exp(-x)) */
  ASC_UNARY_RELU,    /* NumPy maximum(x, 0): keeps the dtype, NaN propagates */
  ASC_UNARY_GELU,    /* exact form: x / 2 * (1 + erf(x / sqrt(2))) */
  ASC_UNARY_ERF,
  ASC_UNARY_FLOOR,
  ASC_UNARY_CEIL,
  ASC_UNARY_TRUNC,
  ASC_UNARY_ROUND, /* NumPy round(x): half to even; integers kept, bool to float16 */
  ASC_UNARY_RINT,  /* NumPy rint: the same on floats, float maths on integers */
  ASC_UNARY_ISNAN,
  ASC_UNARY_ISINF,
  ASC_UNARY_ISFINITE,
  ASC_UNARY_ASIN, /* inverse and hyperbolic functions: float maths */
  ASC_UNARY_ACOS,
  ASC_UNARY_ATAN,
  ASC_UNARY_SINH,
  ASC_UNARY_COSH,
  ASC_UNARY_ASINH,
  ASC_UNARY_ACOSH,
  ASC_UNARY_ATANH,
  ASC_UNARY_LOG10,
  ASC_UNARY_SQUARE,  /* x * x, keeping the dtype (bool computes as int8) */
  ASC_UNARY_SIGNBIT, /* the sign bit of real numbers, as bool (NaN's too) */
  ASC_UNARY_CONJ,    /* complex conjugate; real numbers are kept */
  ASC_UNARY_REAL,    /* the real part, in the real dtype of a complex input */
  ASC_UNARY_IMAG,    /* the imaginary part (zeros for real numbers) */
  ASC_UNARY_OP_COUNT
} asc_unary_op;

/* Static NumPy-style name ("negative", "exp", ...); "unknown" if invalid. */
const char *asc_unary_op_name(asc_unary_op op);
/* The dtype x is computed in and the dtype of the result, or ASC_ERR_TYPE
 * when the op does not apply to x (invert on floats, negative on bool). */
asc_status asc_unary_dtypes(asc_unary_op op, asc_dtype x, asc_dtype *compute, asc_dtype *result);
asc_status asc_unary(asc_unary_op op, const asc_tensor *x, asc_tensor *out);
/* The vector maths in use for exp, sin, ...: "avx2" (SLEEF's AVX2+FMA
 * functions) or "generic" (its portable scalar ones). Static. */
const char *asc_unary_isa(void);

/* NumPy where(cond, a, b): a where cond is true (non-zero), else b, with
 * the three broadcast together; the result has dtype promote(a, b). */
asc_status asc_where(const asc_tensor *cond, const asc_tensor *a, const asc_tensor *b,
                     asc_tensor *out);
/* NumPy clip(x, lo, hi): minimum(maximum(x, lo), hi) in the promoted dtype
 * of the three, NaN in any operand giving NaN. lo or hi may be NULL (no
 * bound): then it is maximum or minimum, and with neither, positive. */
asc_status asc_clip(const asc_tensor *x, const asc_tensor *lo, const asc_tensor *hi,
                    asc_tensor *out);

#ifdef __cplusplus
}
#endif
#endif
