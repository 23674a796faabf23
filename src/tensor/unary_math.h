/* Vector maths for the unary ops: each function maps n contiguous values
 * (dst may be src). Built on SLEEF: one implementation for any CPU (its
 * scalar functions) and one for x86-64 CPUs with AVX2 and FMA, chosen once
 * at run time. All are within 1 ulp in float32 and 2 ulp in float64
 * (measured in tests/python/test_unary.py); sqrt and the roundings are
 * exact. */
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
  /* exact: the vector forms only make them fast */
  ASC_VM_SQRT,
  ASC_VM_FLOOR,
  ASC_VM_CEIL,
  ASC_VM_TRUNC,
  ASC_VM_RINT,
  ASC_VM_COUNT
} asc_vmath_fn;

typedef void (*asc_vmath_f32)(float *dst, const float *src, int64_t n);
typedef void (*asc_vmath_f64)(double *dst, const double *src, int64_t n);

typedef struct asc_vmath {
  asc_vmath_f32 f32;
  asc_vmath_f64 f64;
} asc_vmath;

/* An implementation's table, from its functions NAME_f32 and NAME_f64 for
 * each operation (unary_math.c's and unary_math_avx2.c's MAP). */
#define ASC_VM_ENTRY(NAME) \
  { NAME##_f32, NAME##_f64 }
#define ASC_VMATH_TABLE                                                         \
  {                                                                             \
    [ASC_VM_EXP] = ASC_VM_ENTRY(exp), [ASC_VM_EXP2] = ASC_VM_ENTRY(exp2),       \
    [ASC_VM_LOG] = ASC_VM_ENTRY(log), [ASC_VM_LOG2] = ASC_VM_ENTRY(log2),       \
    [ASC_VM_LOG1P] = ASC_VM_ENTRY(log1p), [ASC_VM_EXPM1] = ASC_VM_ENTRY(expm1), \
    [ASC_VM_SIN] = ASC_VM_ENTRY(sin), [ASC_VM_COS] = ASC_VM_ENTRY(cos),         \
    [ASC_VM_TAN] = ASC_VM_ENTRY(tan), [ASC_VM_TANH] = ASC_VM_ENTRY(tanh),       \
    [ASC_VM_ERF] = ASC_VM_ENTRY(erf), [ASC_VM_SIGMOID] = ASC_VM_ENTRY(sigmoid), \
    [ASC_VM_GELU] = ASC_VM_ENTRY(gelu), [ASC_VM_RSQRT] = ASC_VM_ENTRY(rsqrt),   \
    [ASC_VM_SQRT] = ASC_VM_ENTRY(sqrt), [ASC_VM_FLOOR] = ASC_VM_ENTRY(floor),   \
    [ASC_VM_CEIL] = ASC_VM_ENTRY(ceil), [ASC_VM_TRUNC] = ASC_VM_ENTRY(trunc),   \
    [ASC_VM_RINT] = ASC_VM_ENTRY(rint),                                         \
  }

/* The implementation of fn for this CPU. PYASC_CPU_SIMD in the environment
 * caps the choice (read at the first call): 0 forces the portable one, avx2
 * stops short of AVX-512. */
const asc_vmath *asc_vmath_get(asc_vmath_fn fn);
/* "avx512f", "avx2" or "generic": which implementation asc_vmath_get gives. */
const char *asc_vmath_isa(void);

/* x / sqrt(2) as hi + lo, for gelu's argument in float64. */
#define ASC_SQRT1_2_HI 0x1.6a09e667f3bcdp-1
#define ASC_SQRT1_2_LO (-0x1.bdd3413b26456p-55)
/* Beyond this |x|, gelu(x) is x (x > 0) or -0 (x < 0) in float64. */
#define ASC_GELU_LIMIT 40.0
/* Below -ASC_GELU_TAIL, gelu uses erfc's asymptotic series instead: its
 * results are tiny, down to subnormal, where erfc's absolute rounding,
 * multiplied by x/2, would cost many ulps. */
#define ASC_GELU_TAIL 30.0
/* log(1/sqrt(2 pi)) as hi + lo, and sqrt(2 pi). */
#define ASC_LOG_INV_SQRT_2PI_HI (-0x1.d67f1c864beb5p-1)
#define ASC_LOG_INV_SQRT_2PI_LO 0x1.65b5a1b7ff5dfp-55
#define ASC_SQRT_2PI 0x1.40d931ff62706p+1
/* SLEEF's log1p gives inf from about 1e38 (float) and 1e307 (double) on;
 * above these log(x) is log1p(x) to the last bit. */
#define ASC_LOG1P_BIG_F 1e30f
#define ASC_LOG1P_BIG_D 1e300

#ifdef ASC_HAVE_AVX2
extern const asc_vmath asc_vmath_avx2[ASC_VM_COUNT];
#endif
#ifdef ASC_HAVE_AVX512
/* float32 entries for AVX-512F CPUs, laid over asc_vmath_avx2; NULL where
 * the AVX2 one stays. */
extern const asc_vmath_f32 asc_vmath_avx512_f32[ASC_VM_COUNT];
#endif

#endif
