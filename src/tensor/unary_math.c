/* The portable vector maths (SLEEF's scalar functions, one value at a time)
 * and the run-time choice of the implementation. */
#include "unary_math.h"

#include <math.h>
#include <pthread.h>
#include <sleef.h>
#include <stdlib.h>
#include <string.h>

#define MAP(NAME, F32, F64)                                           \
  static void NAME##_f32(float *dst, const float *src, int64_t n) {   \
    for (int64_t k = 0; k < n; k++) dst[k] = F32(src[k]);             \
  }                                                                   \
  static void NAME##_f64(double *dst, const double *src, int64_t n) { \
    for (int64_t k = 0; k < n; k++) dst[k] = F64(src[k]);             \
  }

/* sigmoid from exp(-|x|) <= 1, so that nothing overflows and the small
 * side keeps its relative accuracy. float32 goes through float64 and rounds
 * once. */
static inline double sigmoid_d(double x) {
  double e = Sleef_exp_u10(-fabs(x));
  return x >= 0 ? 1.0 / (1.0 + e) : e / (1.0 + e);
}
static inline float sigmoid_f(float x) {
  return (float)sigmoid_d(x);
}

/* erfc(t) * t * sqrt(pi) * exp(t^2) for t = -x/sqrt(2) >= ASC_GELU_TAIL /
 * sqrt(2), from the asymptotic series in u = 1/x^2 = 1/(2t^2); the next
 * term is below 1e-17 there. */
static inline double gelu_tail_series(double u) {
  return 1 - u * (1 - u * (3 - u * (15 - u * (105 - u * (945 - u * (10395 - u * 135135))))));
}

/* gelu = x/2 * erfc(-x/sqrt(2)): erfc avoids 1 + erf's cancellation for
 * x < 0, and the rounding of x/sqrt(2), which erfc's steep tail magnifies,
 * is added back to first order. Far out, the asymptotic series gives
 * -exp(-x^2/2) / sqrt(2 pi) * series, whose exponent (with the constant
 * folded in) is carried in double-double: e = exp(hi), times 1 + low. */
static inline double gelu_d(double x) {
  if (!(x > -ASC_GELU_LIMIT && x < ASC_GELU_LIMIT)) return x < 0 ? -0.0 : x;
  double p = x * x, pe = fma(x, x, -p), a = -0.5 * p;
  double hi = a + ASC_LOG_INV_SQRT_2PI_HI, b = hi - a;
  double low = (a - (hi - b)) + (ASC_LOG_INV_SQRT_2PI_HI - b) + ASC_LOG_INV_SQRT_2PI_LO - 0.5 * pe;
  double e = Sleef_exp_u10(hi); /* ~ exp(-x^2/2) / sqrt(2 pi) */
  if (x < -ASC_GELU_TAIL) {
    double s = gelu_tail_series(1 / p);
    return -e * fma(low, s, s);
  }
  double t = x * ASC_SQRT1_2_HI;
  double t_lo = fma(x, ASC_SQRT1_2_HI, -t) + x * ASC_SQRT1_2_LO;
  return 0.5 * x * (Sleef_erfc_u15(-t) + t_lo * (M_2_SQRTPI * ASC_SQRT_2PI) * e);
}
/* float32 needs neither refinement: float64's error is far below its ulp. */
static inline float gelu_f(float x) {
  double d = x;
  return x < -ASC_GELU_LIMIT ? -0.0f : (float)(0.5 * d * Sleef_erfc_u15(-d * M_SQRT1_2));
}

static inline float log1p_f(float x) {
  return x > ASC_LOG1P_BIG_F ? Sleef_logf_u10(x) : Sleef_log1pf_u10(x);
}
static inline double log1p_d(double x) {
  return x > ASC_LOG1P_BIG_D ? Sleef_log_u10(x) : Sleef_log1p_u10(x);
}

static inline double rsqrt_d(double x) {
  return 1.0 / sqrt(x);
}
static inline float rsqrt_f(float x) {
  return (float)rsqrt_d(x);
}

MAP(exp, Sleef_expf_u10, Sleef_exp_u10)
MAP(exp2, Sleef_exp2f_u10, Sleef_exp2_u10)
MAP(log, Sleef_logf_u10, Sleef_log_u10)
MAP(log2, Sleef_log2f_u10, Sleef_log2_u10)
MAP(log1p, log1p_f, log1p_d)
MAP(expm1, Sleef_expm1f_u10, Sleef_expm1_u10)
MAP(sin, Sleef_sinf_u10, Sleef_sin_u10)
MAP(cos, Sleef_cosf_u10, Sleef_cos_u10)
MAP(tan, Sleef_tanf_u10, Sleef_tan_u10)
MAP(tanh, Sleef_tanhf_u10, Sleef_tanh_u10)
MAP(erf, Sleef_erff_u10, Sleef_erf_u10)
MAP(sigmoid, sigmoid_f, sigmoid_d)
MAP(gelu, gelu_f, gelu_d)
MAP(rsqrt, rsqrt_f, rsqrt_d)
MAP(sqrt, sqrtf, sqrt)
MAP(floor, floorf, floor)
MAP(ceil, ceilf, ceil)
MAP(trunc, truncf, trunc)
MAP(rint, nearbyintf, nearbyint)

static const asc_vmath generic[ASC_VM_COUNT] = ASC_VMATH_TABLE;

static const asc_vmath *table = generic;
static const char *isa = "generic";
static pthread_once_t chosen = PTHREAD_ONCE_INIT;
#ifdef ASC_HAVE_AVX512
/* The AVX2 table with the AVX-512 float32 entries laid over it; written
 * once, under the pthread_once of choose(). */
static asc_vmath avx512_table[ASC_VM_COUNT];
#endif

static void choose(void) {
#ifdef ASC_HAVE_AVX2
  const char *env = getenv("PYASC_CPU_SIMD");
  if (env && !strcmp(env, "0")) return;
  /* The CPU test also checks that the OS saves the AVX registers. */
  __builtin_cpu_init();
  if (!__builtin_cpu_supports("avx2") || !__builtin_cpu_supports("fma")) return;
  table = asc_vmath_avx2;
  isa = "avx2";
#ifdef ASC_HAVE_AVX512
  if ((env && !strcmp(env, "avx2")) || !__builtin_cpu_supports("avx512f")) return;
  memcpy(avx512_table, asc_vmath_avx2, sizeof avx512_table);
  for (int fn = 0; fn < ASC_VM_COUNT; fn++)
    if (asc_vmath_avx512_f32[fn]) avx512_table[fn].f32 = asc_vmath_avx512_f32[fn];
  table = avx512_table;
  isa = "avx512f";
#endif
#endif
}

const asc_vmath *asc_vmath_get(asc_vmath_fn fn) {
  pthread_once(&chosen, choose);
  return &table[fn];
}

const char *asc_vmath_isa(void) {
  pthread_once(&chosen, choose);
  return isa;
}
