/* Vector maths for the unary ops: each function maps n contiguous values
 * (dst may be src). Built on SLEEF: one implementation for any CPU (its
 * scalar functions) and one for x86-64 CPUs with AVX2 and FMA, chosen once
 * at run time. All are within 1 ulp for float32 (1.5-2 ulp for float64's
 * composite functions: sigmoid, gelu, rsqrt). */
#ifndef ASC_TENSOR_UNARY_MATH_H
#define ASC_TENSOR_UNARY_MATH_H

#include <stdint.h>

typedef enum asc_vmath_fn {
  ASC_VM_EXP,
  ASC_VM_EXP2,
  ASC_VM_LOG,
  ASC_VM_LOG2,
  ASC_VM_LOG1P,
  ASC_VM_EXPM1,
  ASC_VM_SIN,
  ASC_VM_COS,
  ASC_VM_TAN,
  ASC_VM_TANH,
  ASC_VM_ERF,
  ASC_VM_SIGMOID,
  ASC_VM_GELU,
  ASC_VM_RSQRT,
  ASC_VM_COUNT
} asc_vmath_fn;

typedef void (*asc_vmath_f32)(float *dst, const float *src, int64_t n);
typedef void (*asc_vmath_f64)(double *dst, const double *src, int64_t n);

typedef struct asc_vmath {
  asc_vmath_f32 f32;
  asc_vmath_f64 f64;
} asc_vmath;

/* The implementation of fn for this CPU. PYASC_CPU_SIMD=0 in the
 * environment forces the portable one (read at the first call). */
const asc_vmath *asc_vmath_get(asc_vmath_fn fn);
/* "avx2" or "generic": which implementation asc_vmath_get gives. */
const char *asc_vmath_isa(void);

/* x / sqrt(2) as hi + lo, for gelu's argument in float64. */
#define ASC_SQRT1_2_HI 0x1.6a09e667f3bcdp-1
#define ASC_SQRT1_2_LO (-0x1.bdd3413b26456p-55)
/* Beyond this |x|, gelu(x) is x (x > 0) or -0 (x < 0) in float64. */
#define ASC_GELU_LIMIT 40.0

#ifdef ASC_HAVE_AVX2
extern const asc_vmath asc_vmath_avx2[ASC_VM_COUNT];
#endif

#endif
