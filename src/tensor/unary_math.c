/* The portable vector maths (SLEEF's scalar functions, one value at a time)
 * and the run-time choice of the implementation. */
#include "unary_math.h"

#include <math.h>
#include <pthread.h>
#include <sleef.h>
#include <stdlib.h>
#include <string.h>

#define MAP(NAME, F32, F64)                                                \
  static void NAME##_f32(float *dst, const float *src, int64_t n) {        \
    for (int64_t k = 0; k < n; k++) dst[k] = F32(src[k]);                  \
  }                                                                        \
  static void NAME##_f64(double *dst, const double *src, int64_t n) {      \
    for (int64_t k = 0; k < n; k++) dst[k] = F64(src[k]);                  \
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

/* gelu = x/2 * erfc(-x/sqrt(2)): erfc avoids 1 + erf's cancellation for
 * x < 0, and the rounding of x/sqrt(2), which erfc's steep tail magnifies,
 * is added back to first order. */
static inline double gelu_d(double x) {
  if (!(x > -ASC_GELU_LIMIT && x < ASC_GELU_LIMIT)) return x < 0 ? -0.0 : x;
  double hi = x * ASC_SQRT1_2_HI;
  double lo = fma(x, ASC_SQRT1_2_HI, -hi) + x * ASC_SQRT1_2_LO;
  double c = Sleef_erfc_u15(-hi) + lo * M_2_SQRTPI * Sleef_exp_u10(-hi * hi);
  return 0.5 * x * c;
}
static inline float gelu_f(float x) {
  return (float)gelu_d(x);
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
MAP(log1p, Sleef_log1pf_u10, Sleef_log1p_u10)
MAP(expm1, Sleef_expm1f_u10, Sleef_expm1_u10)
MAP(sin, Sleef_sinf_u10, Sleef_sin_u10)
MAP(cos, Sleef_cosf_u10, Sleef_cos_u10)
MAP(tan, Sleef_tanf_u10, Sleef_tan_u10)
MAP(tanh, Sleef_tanhf_u10, Sleef_tanh_u10)
MAP(erf, Sleef_erff_u10, Sleef_erf_u10)
MAP(sigmoid, sigmoid_f, sigmoid_d)
MAP(gelu, gelu_f, gelu_d)
MAP(rsqrt, rsqrt_f, rsqrt_d)

#define ENTRY(NAME) {NAME##_f32, NAME##_f64}
static const asc_vmath generic[ASC_VM_COUNT] = {
    [ASC_VM_EXP] = ENTRY(exp),         [ASC_VM_EXP2] = ENTRY(exp2),
    [ASC_VM_LOG] = ENTRY(log),         [ASC_VM_LOG2] = ENTRY(log2),
    [ASC_VM_LOG1P] = ENTRY(log1p),     [ASC_VM_EXPM1] = ENTRY(expm1),
    [ASC_VM_SIN] = ENTRY(sin),         [ASC_VM_COS] = ENTRY(cos),
    [ASC_VM_TAN] = ENTRY(tan),         [ASC_VM_TANH] = ENTRY(tanh),
    [ASC_VM_ERF] = ENTRY(erf),         [ASC_VM_SIGMOID] = ENTRY(sigmoid),
    [ASC_VM_GELU] = ENTRY(gelu),       [ASC_VM_RSQRT] = ENTRY(rsqrt),
};

static const asc_vmath *table = generic;
static const char *isa = "generic";
static pthread_once_t chosen = PTHREAD_ONCE_INIT;

static void choose(void) {
#ifdef ASC_HAVE_AVX2
  const char *env = getenv("PYASC_CPU_SIMD");
  if (env && !strcmp(env, "0")) return;
  /* The CPU test also checks that the OS saves the AVX registers. */
  __builtin_cpu_init();
  if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) {
    table = asc_vmath_avx2;
    isa = "avx2";
  }
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
