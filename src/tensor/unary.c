/* Unary element-wise operations, where and clip: dtype rules, loops and
 * the op drivers. Float maths runs through unary_math.h. */
#include <complex.h>
#include <math.h>

#include "asc/ops_unary.h"
#include "binary_loops.h"
#include "unary_math.h"

/* float16/bfloat16 sign operations work on the bits: exact, NaNs kept. */
#define LOAD_H(v) (v)
#define STORE_H(v) ((uint16_t)(v))

#define INT_LOOPS_U(NAME, EXPR, EXPR_U)                                                       \
  ASC_UNARY_LOOP(NAME##_INT8, int8_t, int8_t, int64_t, ASC_LOAD_I, ASC_STORE_I8, EXPR)        \
  ASC_UNARY_LOOP(NAME##_UINT8, uint8_t, uint8_t, int64_t, ASC_LOAD_I, ASC_STORE_U8, EXPR)     \
  ASC_UNARY_LOOP(NAME##_INT16, int16_t, int16_t, int64_t, ASC_LOAD_I, ASC_STORE_I16, EXPR)    \
  ASC_UNARY_LOOP(NAME##_INT32, int32_t, int32_t, int64_t, ASC_LOAD_I, ASC_STORE_I32, EXPR)    \
  ASC_UNARY_LOOP(NAME##_INT64, int64_t, int64_t, int64_t, ASC_LOAD_I, ASC_STORE_I64, EXPR)    \
  ASC_UNARY_LOOP(NAME##_UINT16, uint16_t, uint16_t, int64_t, ASC_LOAD_I, ASC_STORE_U16, EXPR) \
  ASC_UNARY_LOOP(NAME##_UINT32, uint32_t, uint32_t, int64_t, ASC_LOAD_I, ASC_STORE_U32, EXPR) \
  ASC_UNARY_LOOP(NAME##_UINT64, uint64_t, uint64_t, uint64_t, ASC_LOAD_U, ASC_STORE_U64, EXPR_U)
/* uint64 computes in uint64_t: the expressions for it leave out signs. */
#define INT_LOOPS(NAME, EXPR) INT_LOOPS_U(NAME, EXPR, EXPR)
#define BOOL_LOOP(NAME, EXPR) \
  ASC_UNARY_LOOP(NAME##_BOOL, asc_bool_t, asc_bool_t, int64_t, ASC_LOAD_I, ASC_STORE_BOOL, EXPR)
#define FLOAT_LOOPS(NAME, EXPR_F, EXPR_D)                                                        \
  ASC_UNARY_LOOP(NAME##_FLOAT16, uint16_t, uint16_t, float, ASC_LOAD_F16, ASC_STORE_F16, EXPR_F) \
  ASC_UNARY_LOOP(NAME##_BFLOAT16, uint16_t, uint16_t, float, ASC_LOAD_BF16, ASC_STORE_BF16,      \
                 EXPR_F)                                                                         \
  ASC_UNARY_LOOP(NAME##_FLOAT32, float, float, float, ASC_LOAD_ID, ASC_STORE_ID, EXPR_F)         \
  ASC_UNARY_LOOP(NAME##_FLOAT64, double, double, double, ASC_LOAD_ID, ASC_STORE_ID, EXPR_D)
/* Bit-level float loops: EXPR_H on the 16 bits, EXPR_F/EXPR_D on values. */
#define FLOAT_BITS_LOOPS(NAME, EXPR_H, EXPR_F, EXPR_D)                                   \
  ASC_UNARY_LOOP(NAME##_FLOAT16, uint16_t, uint16_t, uint32_t, LOAD_H, STORE_H, EXPR_H)  \
  ASC_UNARY_LOOP(NAME##_BFLOAT16, uint16_t, uint16_t, uint32_t, LOAD_H, STORE_H, EXPR_H) \
  ASC_UNARY_LOOP(NAME##_FLOAT32, float, float, float, ASC_LOAD_ID, ASC_STORE_ID, EXPR_F) \
  ASC_UNARY_LOOP(NAME##_FLOAT64, double, double, double, ASC_LOAD_ID, ASC_STORE_ID, EXPR_D)
/* Every dtype to bool. */
#define TO_BOOL_LOOPS(NAME, EXPR)                                                                 \
  BOOL_LOOP(NAME, EXPR)                                                                           \
  ASC_UNARY_LOOP(NAME##_INT8, int8_t, asc_bool_t, int64_t, ASC_LOAD_I, ASC_STORE_BOOL, EXPR)      \
  ASC_UNARY_LOOP(NAME##_UINT8, uint8_t, asc_bool_t, int64_t, ASC_LOAD_I, ASC_STORE_BOOL, EXPR)    \
  ASC_UNARY_LOOP(NAME##_INT16, int16_t, asc_bool_t, int64_t, ASC_LOAD_I, ASC_STORE_BOOL, EXPR)    \
  ASC_UNARY_LOOP(NAME##_INT32, int32_t, asc_bool_t, int64_t, ASC_LOAD_I, ASC_STORE_BOOL, EXPR)    \
  ASC_UNARY_LOOP(NAME##_INT64, int64_t, asc_bool_t, int64_t, ASC_LOAD_I, ASC_STORE_BOOL, EXPR)    \
  ASC_UNARY_LOOP(NAME##_UINT16, uint16_t, asc_bool_t, int64_t, ASC_LOAD_I, ASC_STORE_BOOL, EXPR)  \
  ASC_UNARY_LOOP(NAME##_UINT32, uint32_t, asc_bool_t, int64_t, ASC_LOAD_I, ASC_STORE_BOOL, EXPR)  \
  ASC_UNARY_LOOP(NAME##_UINT64, uint64_t, asc_bool_t, uint64_t, ASC_LOAD_U, ASC_STORE_BOOL, EXPR) \
  ASC_UNARY_LOOP(NAME##_FLOAT16, uint16_t, asc_bool_t, float, ASC_LOAD_F16, ASC_STORE_BOOL, EXPR) \
  ASC_UNARY_LOOP(NAME##_BFLOAT16, uint16_t, asc_bool_t, float, ASC_LOAD_BF16, ASC_STORE_BOOL,     \
                 EXPR)                                                                            \
  ASC_UNARY_LOOP(NAME##_FLOAT32, float, asc_bool_t, float, ASC_LOAD_ID, ASC_STORE_BOOL, EXPR)     \
  ASC_UNARY_LOOP(NAME##_FLOAT64, double, asc_bool_t, double, ASC_LOAD_ID, ASC_STORE_BOOL, EXPR)

/* NumPy's integer reciprocal is 1.0 / x cast back: 0 gives inf, which the
 * x86 conversion NumPy relies on turns into the "integer indefinite" value
 * (INT64_MIN for int64, else INT32_MIN truncated to the width). */
static inline int64_t reciprocal_i(int64_t x, int bits) {
  if (x == 0) return bits == 64 ? INT64_MIN : INT32_MIN;
  return x == 1 || x == -1 ? x : 0;
}

/* sign keeps NaN and gives +0 for either zero, as NumPy. */
#define SIGN(x) ((x) > 0 ? 1 : (x) < 0 ? -1 : (x) == 0 ? 0 : (x))
/* relu is NumPy's maximum(x, 0): NaN propagates, -0 becomes +0. */
#define RELU(x) ((x) > 0 || isnan(x) ? (x) : 0)

/* Sign changes. */
INT_LOOPS(negative, ASC_WRAP(0 - (uint64_t)x))
FLOAT_BITS_LOOPS(negative, x ^ 0x8000u, -x, -x)
INT_LOOPS(positive, x)
FLOAT_BITS_LOOPS(positive, x, x, x)
BOOL_LOOP(abs, x)
INT_LOOPS_U(abs, x < 0 ? ASC_WRAP(0 - (uint64_t)x) : x, x)
FLOAT_BITS_LOOPS(abs, x & 0x7fffu, fabsf(x), fabs(x))
INT_LOOPS_U(sign, SIGN(x), x > 0)
FLOAT_LOOPS(sign, SIGN(x), SIGN(x))
BOOL_LOOP(invert, !x)
INT_LOOPS(invert, ~x)
TO_BOOL_LOOPS(logical_not, x == 0)

/* Arithmetic. */
ASC_UNARY_LOOP(reciprocal_INT8, int8_t, int8_t, int64_t, ASC_LOAD_I, ASC_STORE_I8,
               reciprocal_i(x, 8))
ASC_UNARY_LOOP(reciprocal_UINT8, uint8_t, uint8_t, int64_t, ASC_LOAD_I, ASC_STORE_U8,
               reciprocal_i(x, 8))
ASC_UNARY_LOOP(reciprocal_INT16, int16_t, int16_t, int64_t, ASC_LOAD_I, ASC_STORE_I16,
               reciprocal_i(x, 16))
ASC_UNARY_LOOP(reciprocal_INT32, int32_t, int32_t, int64_t, ASC_LOAD_I, ASC_STORE_I32,
               reciprocal_i(x, 32))
ASC_UNARY_LOOP(reciprocal_INT64, int64_t, int64_t, int64_t, ASC_LOAD_I, ASC_STORE_I64,
               reciprocal_i(x, 64))
/* Unsigned: 1/0 = inf converts to 0 (x86 NumPy), so only 1 gives 1. */
ASC_UNARY_LOOP(reciprocal_UINT16, uint16_t, uint16_t, int64_t, ASC_LOAD_I, ASC_STORE_U16, x == 1)
ASC_UNARY_LOOP(reciprocal_UINT32, uint32_t, uint32_t, int64_t, ASC_LOAD_I, ASC_STORE_U32, x == 1)
ASC_UNARY_LOOP(reciprocal_UINT64, uint64_t, uint64_t, uint64_t, ASC_LOAD_U, ASC_STORE_U64, x == 1)
FLOAT_LOOPS(reciprocal, 1.0f / x, 1.0 / x)
BOOL_LOOP(relu, x)
INT_LOOPS_U(relu, x > 0 ? x : 0, x)
FLOAT_LOOPS(relu, RELU(x), RELU(x))

/* Float maths that SLEEF's table does not carry: libm, value by value. */
FLOAT_LOOPS(asin, asinf(x), asin(x))
FLOAT_LOOPS(acos, acosf(x), acos(x))
FLOAT_LOOPS(atan, atanf(x), atan(x))
FLOAT_LOOPS(sinh, sinhf(x), sinh(x))
FLOAT_LOOPS(cosh, coshf(x), cosh(x))
FLOAT_LOOPS(asinh, asinhf(x), asinh(x))
FLOAT_LOOPS(acosh, acoshf(x), acosh(x))
FLOAT_LOOPS(atanh, atanhf(x), atanh(x))
FLOAT_LOOPS(log10, log10f(x), log10(x))
INT_LOOPS(square, ASC_WRAP((uint64_t)x *(uint64_t)x))
FLOAT_LOOPS(square, x *x, x *x)
#define SIGNBIT_LOOPS(NAME)                                                               \
  ASC_UNARY_LOOP(NAME##_FLOAT16, uint16_t, asc_bool_t, uint32_t, LOAD_H, ASC_STORE_BOOL,  \
                 x & 0x8000u)                                                             \
  ASC_UNARY_LOOP(NAME##_BFLOAT16, uint16_t, asc_bool_t, uint32_t, LOAD_H, ASC_STORE_BOOL, \
                 x & 0x8000u)                                                             \
  ASC_UNARY_LOOP(NAME##_FLOAT32, float, asc_bool_t, float, ASC_LOAD_ID, ASC_STORE_BOOL,   \
                 signbit(x))                                                              \
  ASC_UNARY_LOOP(NAME##_FLOAT64, double, asc_bool_t, double, ASC_LOAD_ID, ASC_STORE_BOOL, \
                 signbit(x))
SIGNBIT_LOOPS(signbit)
#undef SIGNBIT_LOOPS

/* --- complex ---------------------------------------------------------------- */

/* Complex functions in float complex (complex64) and double complex
 * (complex128); EXPR_F and EXPR_D use x. */
#define COMPLEX_LOOPS(NAME, EXPR_F, EXPR_D)                                                        \
  ASC_UNARY_LOOP(NAME##_COMPLEX64, asc_c64_t, asc_c64_t, asc_c64_t, ASC_LOAD_ID, ASC_STORE_ID,     \
                 EXPR_F)                                                                           \
  ASC_UNARY_LOOP(NAME##_COMPLEX128, asc_c128_t, asc_c128_t, asc_c128_t, ASC_LOAD_ID, ASC_STORE_ID, \
                 EXPR_D)
/* Complex in, real out (the parts' dtype). */
#define COMPLEX_TO_REAL_LOOPS(NAME, EXPR_F, EXPR_D)                                                \
  ASC_UNARY_LOOP(NAME##_COMPLEX64, asc_c64_t, float, asc_c64_t, ASC_LOAD_ID, ASC_STORE_ID, EXPR_F) \
  ASC_UNARY_LOOP(NAME##_COMPLEX128, asc_c128_t, double, asc_c128_t, ASC_LOAD_ID, ASC_STORE_ID,     \
                 EXPR_D)
#define COMPLEX_TO_BOOL_LOOPS(NAME, EXPR)                                                          \
  ASC_UNARY_LOOP(NAME##_COMPLEX64, asc_c64_t, asc_bool_t, asc_c128_t, ASC_LOAD_ID, ASC_STORE_BOOL, \
                 EXPR)                                                                             \
  ASC_UNARY_LOOP(NAME##_COMPLEX128, asc_c128_t, asc_bool_t, asc_c128_t, ASC_LOAD_ID,               \
                 ASC_STORE_BOOL, EXPR)

/* x / |x|, 0 for 0 (the Array API's sign); NaN parts give NaN. */
static inline asc_c128_t csign_d(asc_c128_t x) {
  double a = cabs(x);
  if (isnan(creal(x)) || isnan(cimag(x))) return ASC_C128(NAN, NAN);
  if (a == 0) return ASC_C128(0, 0);
  if (isinf(a)) { /* an infinite part: the direction of the infinities */
    double re = isinf(creal(x)) ? copysign(1, creal(x)) : 0;
    double im = isinf(cimag(x)) ? copysign(1, cimag(x)) : 0;
    double n = sqrt(re * re + im * im);
    return ASC_C128(re / n, im / n);
  }
  return ASC_C128(creal(x) / a, cimag(x) / a);
}
static inline asc_c64_t csign_f(asc_c64_t x) {
  asc_c128_t r = csign_d(ASC_C128(crealf(x), cimagf(x)));
  return ASC_C64(creal(r), cimag(r));
}
/* expm1 keeps its accuracy near 0 in the real direction; infinities and
 * NaNs take cexp's special values, with the Array API's -1 + 0j for a real
 * part of -infinity, and an exact 0 gives +0 + 0j. */
static inline asc_c128_t cexpm1_d(asc_c128_t x) {
  double re = creal(x), im = cimag(x);
  if (!isfinite(re) || !isfinite(im)) {
    if (re == -INFINITY) return ASC_C128(-1, 0);
    asc_c128_t e = cexp(x);
    return ASC_C128(creal(e) - 1, cimag(e));
  }
  if (im == 0) return ASC_C128(expm1(re) + 0.0, im);
  /* exp(re) cos(im) - 1 = expm1(re) cos(im) - 2 sin(im/2)^2 */
  double s = sin(im / 2);
  return ASC_C128(expm1(re) * cos(im) - 2 * s * s, exp(re) * sin(im));
}
static inline asc_c64_t cexpm1_f(asc_c64_t x) {
  asc_c128_t r = cexpm1_d(ASC_C128(crealf(x), cimagf(x)));
  return ASC_C64(creal(r), cimag(r));
}
/* C99 gives tanh(+inf + iy) the sign of sin(2y) on its zero imaginary
 * part; the Array API asks for 1 + 0j when y > 0. */
static inline asc_c128_t ctanh_d(asc_c128_t x) {
  if (creal(x) == INFINITY && isfinite(cimag(x)) && cimag(x) > 0) return ASC_C128(1, 0);
  return ctanh(x);
}
static inline asc_c64_t ctanh_f(asc_c64_t x) {
  if (crealf(x) == INFINITY && isfinite(cimagf(x)) && cimagf(x) > 0) return ASC_C64(1, 0);
  return ctanhf(x);
}
static inline asc_c128_t clog1p_d(asc_c128_t x) {
  double re = creal(x), im = cimag(x);
  if (im == 0 && re >= -1) return ASC_C128(log1p(re), im);
  return clog(ASC_C128(1 + re, im));
}
static inline asc_c64_t clog1p_f(asc_c64_t x) {
  asc_c128_t r = clog1p_d(ASC_C128(crealf(x), cimagf(x)));
  return ASC_C64(creal(r), cimag(r));
}
/* Base 2 and 10 logarithms: clog scaled by the reciprocal logarithms. */
#define LOG2E 1.442695040888963407359924681001892137
#define LOG10E 0.434294481903251827651128918916605082
static inline asc_c128_t clogk_d(asc_c128_t x, double k) {
  asc_c128_t l = clog(x);
  return ASC_C128(creal(l) * k, cimag(l) * k);
}
static inline asc_c64_t clogk_f(asc_c64_t x, double k) {
  asc_c128_t l = clogk_d(ASC_C128(crealf(x), cimagf(x)), k);
  return ASC_C64(creal(l), cimag(l));
}
/* Each part rounded half to even, as NumPy's round and rint. */
#define CROUND_F(x) ASC_C64(nearbyintf(crealf(x)), nearbyintf(cimagf(x)))
#define CROUND_D(x) ASC_C128(nearbyint(creal(x)), nearbyint(cimag(x)))
#define CISNAN(x) (isnan(creal(x)) || isnan(cimag(x)))
#define CISINF(x) (isinf(creal(x)) || isinf(cimag(x)))
#define CISFINITE(x) (isfinite(creal(x)) && isfinite(cimag(x)))

COMPLEX_LOOPS(negative, -x, -x)
COMPLEX_LOOPS(positive, x, x)
COMPLEX_LOOPS(sign, csign_f(x), csign_d(x))
COMPLEX_LOOPS(reciprocal, ASC_C64(1, 0) / x, ASC_C128(1, 0) / x)
COMPLEX_LOOPS(square, x *x, x *x)
COMPLEX_LOOPS(conj, conjf(x), conj(x))
COMPLEX_LOOPS(exp, cexpf(x), cexp(x))
COMPLEX_LOOPS(exp2, cexpf(x *ASC_C64(0.693147180559945309417232121458176568, 0)),
              cexp(x *ASC_C128(0.693147180559945309417232121458176568, 0)))
COMPLEX_LOOPS(expm1, cexpm1_f(x), cexpm1_d(x))
COMPLEX_LOOPS(log, clogf(x), clog(x))
COMPLEX_LOOPS(log2, clogk_f(x, LOG2E), clogk_d(x, LOG2E))
COMPLEX_LOOPS(log10, clogk_f(x, LOG10E), clogk_d(x, LOG10E))
COMPLEX_LOOPS(log1p, clog1p_f(x), clog1p_d(x))
COMPLEX_LOOPS(sqrt, csqrtf(x), csqrt(x))
COMPLEX_LOOPS(sin, csinf(x), csin(x))
COMPLEX_LOOPS(cos, ccosf(x), ccos(x))
COMPLEX_LOOPS(tan, ctanf(x), ctan(x))
COMPLEX_LOOPS(sinh, csinhf(x), csinh(x))
COMPLEX_LOOPS(cosh, ccoshf(x), ccosh(x))
COMPLEX_LOOPS(tanh, ctanh_f(x), ctanh_d(x))
COMPLEX_LOOPS(asin, casinf(x), casin(x))
COMPLEX_LOOPS(acos, cacosf(x), cacos(x))
COMPLEX_LOOPS(atan, catanf(x), catan(x))
COMPLEX_LOOPS(asinh, casinhf(x), casinh(x))
COMPLEX_LOOPS(acosh, cacoshf(x), cacosh(x))
COMPLEX_LOOPS(atanh, catanhf(x), catanh(x))
COMPLEX_LOOPS(round, CROUND_F(x), CROUND_D(x))
COMPLEX_TO_REAL_LOOPS(abs, cabsf(x), cabs(x))
COMPLEX_TO_REAL_LOOPS(real, crealf(x), creal(x))
COMPLEX_TO_REAL_LOOPS(imag, cimagf(x), cimag(x))
COMPLEX_TO_BOOL_LOOPS(isnan, CISNAN(x))
COMPLEX_TO_BOOL_LOOPS(isinf, CISINF(x))
COMPLEX_TO_BOOL_LOOPS(isfinite, CISFINITE(x))
COMPLEX_TO_BOOL_LOOPS(logical_not, x == 0)

/* real and conj of real numbers are copies; imag of them is zeros. */
BOOL_LOOP(copy, x)
INT_LOOPS(copy, x)
FLOAT_BITS_LOOPS(copy, x, x, x)
#define ZERO(x) ((void)(x), 0)
BOOL_LOOP(zero, ZERO(x))
INT_LOOPS(zero, ZERO(x))
FLOAT_BITS_LOOPS(zero, ZERO(x), ZERO(x), ZERO(x))

/* Rounding integers: they are whole already (floats: unary_math.h). */
BOOL_LOOP(identity, x)
INT_LOOPS(identity, x)

/* Classification: integers are finite. */
TO_BOOL_LOOPS(isnan, isnan((double)x))
TO_BOOL_LOOPS(isinf, isinf((double)x))
TO_BOOL_LOOPS(isfinite, isfinite((double)x))

/* Float functions of unary_math.h (exp, sqrt, floor, ...): values gathered
 * into a buffer (converted from float16/bfloat16, or from strided memory)
 * go through the vector maths in chunks; contiguous float32/float64 go
 * straight through. Either way each value meets the same instructions. */
#define CHUNK 256
#define MATH_LOOP(NAME, IT, CT, FN, LOAD, STORE)                                         \
  static asc_status NAME(char *const *p, const int64_t *s, int64_t n, const void *ctx) { \
    const asc_vmath *m = ctx;                                                            \
    if (sizeof(IT) == sizeof(CT) && s[0] == (int64_t)sizeof(IT) && s[1] == s[0] &&       \
        ASC_ALIGNED(p[0], CT) && ASC_ALIGNED(p[1], CT)) {                                \
      m->FN((CT *)(void *)p[0], (const CT *)(const void *)p[1], n);                      \
      return ASC_OK;                                                                     \
    }                                                                                    \
    CT buf[CHUNK];                                                                       \
    for (int64_t k = 0; k < n; k += CHUNK) {                                             \
      int64_t c = n - k < CHUNK ? n - k : CHUNK;                                         \
      const char *a = p[1] + k * s[1];                                                   \
      char *o = p[0] + k * s[0];                                                         \
      for (int64_t j = 0; j < c; j++) {                                                  \
        IT v;                                                                            \
        memcpy(&v, a + j * s[1], sizeof v);                                              \
        buf[j] = LOAD(v);                                                                \
      }                                                                                  \
      m->FN(buf, buf, c);                                                                \
      for (int64_t j = 0; j < c; j++) {                                                  \
        IT r = STORE(buf[j]);                                                            \
        memcpy(o + j * s[0], &r, sizeof r);                                              \
      }                                                                                  \
    }                                                                                    \
    return ASC_OK;                                                                       \
  }
MATH_LOOP(math_FLOAT16, uint16_t, float, f32, ASC_LOAD_F16, ASC_STORE_F16)
MATH_LOOP(math_BFLOAT16, uint16_t, float, f32, ASC_LOAD_BF16, ASC_STORE_BF16)
MATH_LOOP(math_FLOAT32, float, float, f32, ASC_LOAD_ID, ASC_STORE_ID)
MATH_LOOP(math_FLOAT64, double, double, f64, ASC_LOAD_ID, ASC_STORE_ID)

/* Whole-number rounding of bools and integers: none. */
#define ROW_IDENTITY ASC_ROW_INTEGER(identity)

/* How an op's result dtype follows from its input's. */
typedef enum rule {
  RULE_SAME,        /* any dtype, kept */
  RULE_NUMERIC,     /* not bool; kept */
  RULE_INTEGER,     /* bool and integers; kept */
  RULE_FLOAT,       /* computed in asc_dtype_to_float */
  RULE_BOOL_RESULT, /* any dtype, bool result */
  RULE_RECIPROCAL,  /* bool computes as int8 */
  RULE_ROUND,       /* bool computes as float16 */
  RULE_FLOAT_TEST,  /* computed in asc_dtype_to_float, bool result */
} rule;

typedef struct op_info {
  const char *name;
  rule rule;
  int vmath;  /* for floats: an asc_vmath_fn, or -1 when the loops apply */
  bool parts; /* a complex input gives its parts' real dtype (abs, real, imag) */
  asc_ew_loop loops[ASC_DTYPE_COUNT]; /* complex ones too for the vmath ops */
} op_info;

#define PLAIN(NAME, RULE, ROW) \
  { .name = NAME, .rule = RULE, .vmath = -1, .loops = ROW }
#define PARTS(NAME, ROW) \
  { .name = NAME, .rule = RULE_SAME, .vmath = -1, .parts = true, .loops = ROW }
#define MATH(NAME, FN) \
  { .name = NAME, .rule = RULE_FLOAT, .vmath = FN }
#define MATH_C(NAME, FN, CNAME)                                                        \
  {                                                                                    \
    .name = NAME, .rule = RULE_FLOAT, .vmath = FN, .loops = { ASC_ROW_COMPLEX(CNAME) } \
  }
/* Real dtypes from the loops NAME, complex ones from CNAME. */
#define ROW_ALL_WITH(NAME, CNAME)                                                   \
  {                                                                                 \
    [ASC_BOOL] = NAME##_BOOL, ASC_ROW_INTEGER_ONLY(NAME), ASC_ROW_FLOAT_ONLY(NAME), \
    ASC_ROW_COMPLEX(CNAME)                                                          \
  }
#define ROUNDING(NAME, RULE, FN) \
  { .name = NAME, .rule = RULE, .vmath = FN, .loops = ROW_IDENTITY }

static const op_info ops[ASC_UNARY_OP_COUNT] = {
    [ASC_UNARY_NEGATIVE] = PLAIN("negative", RULE_NUMERIC, ASC_ROW_NUMERIC_C(negative)),
    [ASC_UNARY_POSITIVE] = PLAIN("positive", RULE_NUMERIC, ASC_ROW_NUMERIC_C(positive)),
    [ASC_UNARY_ABS] = PARTS("absolute", ASC_ROW_ALL_C(abs)),
    [ASC_UNARY_LOGICAL_NOT] = PLAIN("logical_not", RULE_BOOL_RESULT, ASC_ROW_ALL_C(logical_not)),
    [ASC_UNARY_INVERT] = PLAIN("invert", RULE_INTEGER, ASC_ROW_INTEGER(invert)),
    [ASC_UNARY_SIGN] = PLAIN("sign", RULE_NUMERIC, ASC_ROW_NUMERIC_C(sign)),
    [ASC_UNARY_EXP] = MATH_C("exp", ASC_VM_EXP, exp),
    [ASC_UNARY_EXP2] = MATH_C("exp2", ASC_VM_EXP2, exp2),
    [ASC_UNARY_LOG] = MATH_C("log", ASC_VM_LOG, log),
    [ASC_UNARY_LOG2] = MATH_C("log2", ASC_VM_LOG2, log2),
    [ASC_UNARY_LOG1P] = MATH_C("log1p", ASC_VM_LOG1P, log1p),
    [ASC_UNARY_EXPM1] = MATH_C("expm1", ASC_VM_EXPM1, expm1),
    [ASC_UNARY_SQRT] = MATH_C("sqrt", ASC_VM_SQRT, sqrt),
    [ASC_UNARY_RSQRT] = MATH("rsqrt", ASC_VM_RSQRT),
    [ASC_UNARY_RECIPROCAL] = PLAIN("reciprocal", RULE_RECIPROCAL, ASC_ROW_NUMERIC_C(reciprocal)),
    [ASC_UNARY_SIN] = MATH_C("sin", ASC_VM_SIN, sin),
    [ASC_UNARY_COS] = MATH_C("cos", ASC_VM_COS, cos),
    [ASC_UNARY_TAN] = MATH_C("tan", ASC_VM_TAN, tan),
    [ASC_UNARY_TANH] = MATH_C("tanh", ASC_VM_TANH, tanh),
    [ASC_UNARY_SIGMOID] = MATH("sigmoid", ASC_VM_SIGMOID),
    [ASC_UNARY_RELU] = PLAIN("relu", RULE_SAME, ASC_ROW_ALL(relu)),
    [ASC_UNARY_GELU] = MATH("gelu", ASC_VM_GELU),
    [ASC_UNARY_ERF] = MATH("erf", ASC_VM_ERF),
    [ASC_UNARY_FLOOR] = ROUNDING("floor", RULE_SAME, ASC_VM_FLOOR),
    [ASC_UNARY_CEIL] = ROUNDING("ceil", RULE_SAME, ASC_VM_CEIL),
    [ASC_UNARY_TRUNC] = ROUNDING("trunc", RULE_SAME, ASC_VM_TRUNC),
    [ASC_UNARY_ROUND] = {.name = "round",
                         .rule = RULE_ROUND,
                         .vmath = ASC_VM_RINT,
                         .loops = {[ASC_BOOL] = identity_BOOL,
                                   ASC_ROW_INTEGER_ONLY(identity),
                                   ASC_ROW_COMPLEX(round)}},
    [ASC_UNARY_RINT] = MATH_C("rint", ASC_VM_RINT, round),
    [ASC_UNARY_ISNAN] = PLAIN("isnan", RULE_BOOL_RESULT, ASC_ROW_ALL_C(isnan)),
    [ASC_UNARY_ISINF] = PLAIN("isinf", RULE_BOOL_RESULT, ASC_ROW_ALL_C(isinf)),
    [ASC_UNARY_ISFINITE] = PLAIN("isfinite", RULE_BOOL_RESULT, ASC_ROW_ALL_C(isfinite)),
    [ASC_UNARY_ASIN] = PLAIN("arcsin", RULE_FLOAT, ASC_ROW_FLOAT_C(asin)),
    [ASC_UNARY_ACOS] = PLAIN("arccos", RULE_FLOAT, ASC_ROW_FLOAT_C(acos)),
    [ASC_UNARY_ATAN] = PLAIN("arctan", RULE_FLOAT, ASC_ROW_FLOAT_C(atan)),
    [ASC_UNARY_SINH] = PLAIN("sinh", RULE_FLOAT, ASC_ROW_FLOAT_C(sinh)),
    [ASC_UNARY_COSH] = PLAIN("cosh", RULE_FLOAT, ASC_ROW_FLOAT_C(cosh)),
    [ASC_UNARY_ASINH] = PLAIN("arcsinh", RULE_FLOAT, ASC_ROW_FLOAT_C(asinh)),
    [ASC_UNARY_ACOSH] = PLAIN("arccosh", RULE_FLOAT, ASC_ROW_FLOAT_C(acosh)),
    [ASC_UNARY_ATANH] = PLAIN("arctanh", RULE_FLOAT, ASC_ROW_FLOAT_C(atanh)),
    [ASC_UNARY_LOG10] = PLAIN("log10", RULE_FLOAT, ASC_ROW_FLOAT_C(log10)),
    [ASC_UNARY_SQUARE] = PLAIN("square", RULE_RECIPROCAL, ASC_ROW_NUMERIC_C(square)),
    [ASC_UNARY_SIGNBIT] = PLAIN("signbit", RULE_FLOAT_TEST, {ASC_ROW_FLOAT_ONLY(signbit)}),
    [ASC_UNARY_CONJ] = PLAIN("conjugate", RULE_SAME, ROW_ALL_WITH(copy, conj)),
    [ASC_UNARY_REAL] = PARTS("real", ROW_ALL_WITH(copy, real)),
    [ASC_UNARY_IMAG] = PARTS("imag", ROW_ALL_WITH(zero, imag)),
};

static const asc_ew_loop math_loops[ASC_DTYPE_COUNT] = {
    [ASC_FLOAT16] = math_FLOAT16,
    [ASC_BFLOAT16] = math_BFLOAT16,
    [ASC_FLOAT32] = math_FLOAT32,
    [ASC_FLOAT64] = math_FLOAT64,
};

const char *asc_unary_isa(void) {
  return asc_vmath_isa();
}

const char *asc_unary_op_name(asc_unary_op op) {
  return (unsigned)op < ASC_UNARY_OP_COUNT ? ops[op].name : "unknown";
}

asc_status asc_unary_dtypes(asc_unary_op op, asc_dtype x, asc_dtype *compute, asc_dtype *result) {
  if ((unsigned)op >= ASC_UNARY_OP_COUNT)
    return asc_error(ASC_ERR_INVALID_VALUE, "unknown unary op %d", (int)op);
  if (!asc_dtype_valid(x)) return asc_error(ASC_ERR_TYPE, "invalid operand dtype");
  asc_dtype c = x, r = x;
  switch (ops[op].rule) {
    case RULE_NUMERIC:
      if (x == ASC_BOOL)
        return asc_error(ASC_ERR_TYPE, "%s is not supported for bool%s", ops[op].name,
                         op == ASC_UNARY_NEGATIVE ? ": use ~ or logical_not instead" : "");
      break;
    case RULE_INTEGER:
      if (asc_dtype_is_float(x) || asc_dtype_is_complex(x))
        return asc_error(ASC_ERR_TYPE, "%s is not supported for %s: only integers and bool",
                         ops[op].name, asc_dtype_name(x));
      break;
    case RULE_FLOAT:
      c = r = asc_dtype_to_float(x);
      break;
    case RULE_BOOL_RESULT:
      r = ASC_BOOL;
      break;
    case RULE_RECIPROCAL:
      if (x == ASC_BOOL) c = r = ASC_INT8;
      break;
    case RULE_ROUND:
      if (x == ASC_BOOL) c = r = ASC_FLOAT16;
      break;
    case RULE_FLOAT_TEST:
      c = asc_dtype_to_float(x);
      r = ASC_BOOL;
      break;
    case RULE_SAME:
      break;
  }
  if (asc_dtype_is_complex(x)) {
    if (!ops[op].loops[x])
      return asc_error(ASC_ERR_TYPE, "%s is not supported for %s", ops[op].name, asc_dtype_name(x));
    if (ops[op].parts) r = asc_dtype_to_real(x);
  }
  *compute = c;
  *result = r;
  return ASC_OK;
}

/* --- unary -------------------------------------------------------------- */

asc_status asc_unary_kernel(asc_unary_op op, asc_dtype x, asc_ew_kernel *kernel, asc_dtype *compute,
                            asc_dtype *result) {
  asc_status st = asc_unary_dtypes(op, x, compute, result);
  if (st) return st;
  *kernel = (asc_ew_kernel){.name = ops[op].name};
  if (ops[op].vmath >= 0 && asc_dtype_is_float(*compute)) {
    kernel->loop = math_loops[*compute];
    kernel->ctx = asc_vmath_get((asc_vmath_fn)ops[op].vmath);
    kernel->ctx_size = sizeof(asc_vmath);
  } else {
    kernel->loop = ops[op].loops[*compute];
  }
  if (!kernel->loop)
    return asc_error(ASC_ERR_INTERNAL, "%s: no loop for %s", ops[op].name,
                     asc_dtype_name(*compute));
  return ASC_OK;
}

asc_status asc_unary(asc_unary_op op, const asc_tensor *x, asc_tensor *out) {
  asc_dtype compute, result;
  asc_ew_kernel kernel;
  asc_status st = asc_tensor_check(x);
  if (!st) st = asc_unary_dtypes(op, x->dtype, &compute, &result);
  if (!st && out->storage) st = asc_ew_check_out(ops[op].name, 1, &x, result, out);
  if (!st) st = asc_unary_kernel(op, x->dtype, &kernel, &compute, &result);
  if (st) return st;
  return asc_ew_run(&kernel, 1, &x, &compute, result, out);
}

/* --- where -------------------------------------------------------------- */

/* Selection moves elements unchanged: one loop per element size. */
#define SELECT_LOOP(T)                                                                         \
  static asc_status select_##T(char *const *p, const int64_t *s, int64_t n, const void *ctx) { \
    (void)ctx;                                                                                 \
    const int64_t z = (int64_t)sizeof(T);                                                      \
    if (s[0] == z && s[1] == 1 && s[2] == z && s[3] == z && ASC_ALIGNED(p[0], T) &&            \
        ASC_ALIGNED(p[2], T) && ASC_ALIGNED(p[3], T)) {                                        \
      T *o = (T *)(void *)p[0];                                                                \
      const asc_bool_t *c = (const asc_bool_t *)p[1];                                          \
      const T *a = (const T *)(const void *)p[2], *b = (const T *)(const void *)p[3];          \
      for (int64_t k = 0; k < n; k++) o[k] = c[k] ? a[k] : b[k];                               \
      return ASC_OK;                                                                           \
    }                                                                                          \
    for (int64_t k = 0; k < n; k++) {                                                          \
      const char *src = p[1][k * s[1]] ? p[2] + k * s[2] : p[3] + k * s[3];                    \
      memcpy(p[0] + k * s[0], src, sizeof(T));                                                 \
    }                                                                                          \
    return ASC_OK;                                                                             \
  }
SELECT_LOOP(uint8_t)
SELECT_LOOP(uint16_t)
SELECT_LOOP(uint32_t)
SELECT_LOOP(uint64_t)
SELECT_LOOP(asc_c128_t)

static asc_ew_loop select_loop(size_t size) {
  switch (size) {
    case 1:
      return select_uint8_t;
    case 2:
      return select_uint16_t;
    case 4:
      return select_uint32_t;
    case 8:
      return select_uint64_t;
    default:
      return select_asc_c128_t;
  }
}

/* Validates the operands and a preset out before any work is queued. */
static asc_status check_operands(const char *name, int nin, const asc_tensor *const *inputs,
                                 asc_dtype result, const asc_tensor *out) {
  for (int k = 0; k < nin; k++) {
    asc_status st = asc_tensor_check(inputs[k]);
    if (st) return st;
  }
  if (result == ASC_DTYPE_COUNT) return asc_error(ASC_ERR_TYPE, "%s: invalid operand dtype", name);
  return out->storage ? asc_ew_check_out(name, nin, inputs, result, out) : ASC_OK;
}

asc_status asc_where_kernel(asc_dtype a, asc_dtype b, asc_ew_kernel *kernel, asc_dtype *result) {
  *result = asc_dtype_promote(a, b);
  if (*result == ASC_DTYPE_COUNT) return asc_error(ASC_ERR_TYPE, "where: invalid operand dtype");
  *kernel = (asc_ew_kernel){.loop = select_loop(asc_dtype_size(*result)), .name = "where"};
  return ASC_OK;
}

asc_status asc_where(const asc_tensor *cond, const asc_tensor *a, const asc_tensor *b,
                     asc_tensor *out) {
  const asc_tensor *operands[3] = {cond, a, b};
  asc_dtype result = asc_dtype_promote(a->dtype, b->dtype);
  asc_status st = check_operands("where", 3, operands, result, out);
  asc_ew_kernel kernel;
  if (!st) st = asc_where_kernel(a->dtype, b->dtype, &kernel, &result);
  if (st) return st;
  const asc_dtype dtypes[3] = {ASC_BOOL, result, result};
  return asc_ew_run(&kernel, 3, operands, dtypes, result, out);
}

/* --- clip --------------------------------------------------------------- */

/* NumPy's clip: min(max(x, lo), hi) where max and min return their first
 * operand when it is NaN, and otherwise prefer the bound, so that a NaN
 * bound gives NaN too. */
#define CLIP_MAX(a, b) (isnan(a) ? (a) : (a) > (b) ? (a) : (b))
#define CLIP_MIN(a, b) (isnan(a) ? (a) : (a) < (b) ? (a) : (b))
#define CLIP_MAX_I(a, b) ((a) > (b) ? (a) : (b))
#define CLIP_MIN_I(a, b) ((a) < (b) ? (a) : (b))

#define CLIP_LOOP(NAME, T, CT, LOAD, STORE, MAX, MIN)                                    \
  static asc_status NAME(char *const *p, const int64_t *s, int64_t n, const void *ctx) { \
    (void)ctx;                                                                           \
    const int64_t z = (int64_t)sizeof(T);                                                \
    if (s[0] == z && s[1] == z && s[2] == 0 && s[3] == 0 && ASC_ALIGNED(p[0], T) &&      \
        ASC_ALIGNED(p[1], T)) {                                                          \
      T *o = (T *)(void *)p[0];                                                          \
      const T *x = (const T *)(const void *)p[1];                                        \
      T lov, hiv;                                                                        \
      memcpy(&lov, p[2], sizeof lov);                                                    \
      memcpy(&hiv, p[3], sizeof hiv);                                                    \
      const CT lo = LOAD(lov), hi = LOAD(hiv);                                           \
      for (int64_t k = 0; k < n; k++) {                                                  \
        CT v = LOAD(x[k]), m = MAX(v, lo);                                               \
        o[k] = STORE(MIN(m, hi));                                                        \
      }                                                                                  \
      return ASC_OK;                                                                     \
    }                                                                                    \
    for (int64_t k = 0; k < n; k++) {                                                    \
      T xv, lov, hiv;                                                                    \
      memcpy(&xv, p[1] + k * s[1], sizeof xv);                                           \
      memcpy(&lov, p[2] + k * s[2], sizeof lov);                                         \
      memcpy(&hiv, p[3] + k * s[3], sizeof hiv);                                         \
      CT v = LOAD(xv), lo = LOAD(lov), hi = LOAD(hiv), m = MAX(v, lo);                   \
      T r = STORE(MIN(m, hi));                                                           \
      memcpy(p[0] + k * s[0], &r, sizeof r);                                             \
    }                                                                                    \
    return ASC_OK;                                                                       \
  }
CLIP_LOOP(clip_BOOL, asc_bool_t, int64_t, ASC_LOAD_I, ASC_STORE_BOOL, CLIP_MAX_I, CLIP_MIN_I)
CLIP_LOOP(clip_INT8, int8_t, int64_t, ASC_LOAD_I, ASC_STORE_I8, CLIP_MAX_I, CLIP_MIN_I)
CLIP_LOOP(clip_UINT8, uint8_t, int64_t, ASC_LOAD_I, ASC_STORE_U8, CLIP_MAX_I, CLIP_MIN_I)
CLIP_LOOP(clip_INT16, int16_t, int64_t, ASC_LOAD_I, ASC_STORE_I16, CLIP_MAX_I, CLIP_MIN_I)
CLIP_LOOP(clip_INT32, int32_t, int64_t, ASC_LOAD_I, ASC_STORE_I32, CLIP_MAX_I, CLIP_MIN_I)
CLIP_LOOP(clip_INT64, int64_t, int64_t, ASC_LOAD_I, ASC_STORE_I64, CLIP_MAX_I, CLIP_MIN_I)
CLIP_LOOP(clip_UINT16, uint16_t, int64_t, ASC_LOAD_I, ASC_STORE_U16, CLIP_MAX_I, CLIP_MIN_I)
CLIP_LOOP(clip_UINT32, uint32_t, int64_t, ASC_LOAD_I, ASC_STORE_U32, CLIP_MAX_I, CLIP_MIN_I)
CLIP_LOOP(clip_UINT64, uint64_t, uint64_t, ASC_LOAD_U, ASC_STORE_U64, CLIP_MAX_I, CLIP_MIN_I)
CLIP_LOOP(clip_FLOAT16, uint16_t, float, ASC_LOAD_F16, ASC_STORE_F16, CLIP_MAX, CLIP_MIN)
CLIP_LOOP(clip_BFLOAT16, uint16_t, float, ASC_LOAD_BF16, ASC_STORE_BF16, CLIP_MAX, CLIP_MIN)
CLIP_LOOP(clip_FLOAT32, float, float, ASC_LOAD_ID, ASC_STORE_ID, CLIP_MAX, CLIP_MIN)
CLIP_LOOP(clip_FLOAT64, double, double, ASC_LOAD_ID, ASC_STORE_ID, CLIP_MAX, CLIP_MIN)

static const asc_ew_loop clip_loops[ASC_DTYPE_COUNT] = ASC_ROW_ALL(clip);

asc_status asc_clip_kernel(asc_dtype x, asc_dtype lo, asc_dtype hi, asc_ew_kernel *kernel,
                           asc_dtype *result) {
  *result = asc_dtype_promote(asc_dtype_promote(x, lo), hi);
  if (*result == ASC_DTYPE_COUNT) return asc_error(ASC_ERR_TYPE, "clip: invalid operand dtype");
  if (asc_dtype_is_complex(*result))
    return asc_error(ASC_ERR_TYPE, "clip is not supported for %s: complex numbers have no order",
                     asc_dtype_name(*result));
  *kernel = (asc_ew_kernel){.loop = clip_loops[*result], .name = "clip"};
  return ASC_OK;
}

asc_status asc_clip(const asc_tensor *x, const asc_tensor *lo, const asc_tensor *hi,
                    asc_tensor *out) {
  /* One bound is NumPy's maximum or minimum, none its positive. */
  if (!lo && !hi) return asc_unary(ASC_UNARY_POSITIVE, x, out);
  if (!hi) return asc_binary(ASC_OP_MAXIMUM, x, lo, out);
  if (!lo) return asc_binary(ASC_OP_MINIMUM, x, hi, out);
  const asc_tensor *operands[3] = {x, lo, hi};
  asc_dtype result = asc_dtype_promote(asc_dtype_promote(x->dtype, lo->dtype), hi->dtype);
  asc_status st = check_operands("clip", 3, operands, result, out);
  asc_ew_kernel kernel;
  if (!st) st = asc_clip_kernel(x->dtype, lo->dtype, hi->dtype, &kernel, &result);
  if (st) return st;
  const asc_dtype dtypes[3] = {result, result, result};
  return asc_ew_run(&kernel, 3, operands, dtypes, result, out);
}
