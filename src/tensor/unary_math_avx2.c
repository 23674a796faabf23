/* The vector maths for AVX2+FMA CPUs: SLEEF's 256-bit functions. This file
 * alone is compiled with -mavx2 -mfma; unary_math.c calls into it only
 * after checking the CPU. Functions that float32 computes in float64
 * (sigmoid, gelu, rsqrt) convert each half of the vector. */
#include <immintrin.h>
#include <math.h>
#include <sleef.h>
#include <string.h>

#include "unary_math.h"

/* Maps n values through V (a vector function of 8 floats or 4 doubles):
 * whole vectors from memory, the tail through a zero-padded vector, so
 * that every element goes through the same instructions. */
#define MAP_F32(NAME, V)                                                               \
  static void NAME##_f32(float *dst, const float *src, int64_t n) {                    \
    int64_t k = 0;                                                                     \
    for (; k + 8 <= n; k += 8) _mm256_storeu_ps(dst + k, V(_mm256_loadu_ps(src + k))); \
    if (k < n) {                                                                       \
      float t[8] = {0};                                                                \
      memcpy(t, src + k, (size_t)(n - k) * sizeof *t);                                 \
      _mm256_storeu_ps(t, V(_mm256_loadu_ps(t)));                                      \
      memcpy(dst + k, t, (size_t)(n - k) * sizeof *t);                                 \
    }                                                                                  \
  }
#define MAP_F64(NAME, V)                                                               \
  static void NAME##_f64(double *dst, const double *src, int64_t n) {                  \
    int64_t k = 0;                                                                     \
    for (; k + 4 <= n; k += 4) _mm256_storeu_pd(dst + k, V(_mm256_loadu_pd(src + k))); \
    if (k < n) {                                                                       \
      double t[4] = {0};                                                               \
      memcpy(t, src + k, (size_t)(n - k) * sizeof *t);                                 \
      _mm256_storeu_pd(t, V(_mm256_loadu_pd(t)));                                      \
      memcpy(dst + k, t, (size_t)(n - k) * sizeof *t);                                 \
    }                                                                                  \
  }
#define MAP(NAME, V32, V64) MAP_F32(NAME, V32) MAP_F64(NAME, V64)

/* A float32 vector through a float64 function, rounding once at the end. */
#define VIA_F64(NAME, V64)                                            \
  static inline __m256 NAME##_via_f64(__m256 x) {                     \
    __m256d lo = V64(_mm256_cvtps_pd(_mm256_castps256_ps128(x)));     \
    __m256d hi = V64(_mm256_cvtps_pd(_mm256_extractf128_ps(x, 1)));   \
    return _mm256_set_m128(_mm256_cvtpd_ps(hi), _mm256_cvtpd_ps(lo)); \
  }

static inline __m256d sign_mask(void) {
  return _mm256_set1_pd(-0.0);
}

/* As sigmoid_d in unary_math.c: exp(-|x|), then 1/(1+e) or e/(1+e). */
static inline __m256d sigmoid_v(__m256d x) {
  __m256d e = Sleef_expd4_u10avx2(_mm256_or_pd(x, sign_mask()));
  __m256d den = _mm256_add_pd(_mm256_set1_pd(1.0), e);
  __m256d pos = _mm256_div_pd(_mm256_set1_pd(1.0), den);
  __m256d neg = _mm256_div_pd(e, den);
  return _mm256_blendv_pd(neg, pos, _mm256_cmp_pd(x, _mm256_setzero_pd(), _CMP_GE_OQ));
}

/* As gelu_d in unary_math.c: both branches, blended. */
static inline __m256d gelu_v(__m256d x) {
  __m256d one = _mm256_set1_pd(1.0), c_hi = _mm256_set1_pd(ASC_LOG_INV_SQRT_2PI_HI);
  __m256d p = _mm256_mul_pd(x, x), pe = _mm256_fmsub_pd(x, x, p);
  __m256d a = _mm256_mul_pd(_mm256_set1_pd(-0.5), p);
  __m256d hi = _mm256_add_pd(a, c_hi), b = _mm256_sub_pd(hi, a);
  __m256d low = _mm256_add_pd(_mm256_sub_pd(a, _mm256_sub_pd(hi, b)), _mm256_sub_pd(c_hi, b));
  low = _mm256_fnmadd_pd(_mm256_set1_pd(0.5), pe,
                         _mm256_add_pd(low, _mm256_set1_pd(ASC_LOG_INV_SQRT_2PI_LO)));
  __m256d e = Sleef_expd4_u10avx2(hi);
  /* the asymptotic tail */
  __m256d u = _mm256_div_pd(one, p), s = _mm256_set1_pd(135135.0);
  static const double coef[] = {10395, 945, 105, 15, 3, 1, 1};
  for (int k = 0; k < 7; k++) s = _mm256_fnmadd_pd(u, s, _mm256_set1_pd(coef[k]));
  __m256d tail = _mm256_xor_pd(_mm256_mul_pd(e, _mm256_fmadd_pd(low, s, s)), sign_mask());
  /* erfc with the first-order correction */
  __m256d chi = _mm256_set1_pd(ASC_SQRT1_2_HI);
  __m256d t = _mm256_mul_pd(x, chi);
  __m256d t_lo = _mm256_fmadd_pd(x, _mm256_set1_pd(ASC_SQRT1_2_LO), _mm256_fmsub_pd(x, chi, t));
  __m256d c = _mm256_fmadd_pd(_mm256_mul_pd(t_lo, _mm256_set1_pd(M_2_SQRTPI * ASC_SQRT_2PI)), e,
                              Sleef_erfcd4_u15avx2(_mm256_xor_pd(t, sign_mask())));
  __m256d r = _mm256_mul_pd(_mm256_mul_pd(_mm256_set1_pd(0.5), x), c);
  r = _mm256_blendv_pd(r, tail, _mm256_cmp_pd(x, _mm256_set1_pd(-ASC_GELU_TAIL), _CMP_LT_OQ));
  /* beyond the limit, and NaN */
  __m256d limit = _mm256_set1_pd(ASC_GELU_LIMIT);
  __m256d inside = _mm256_and_pd(_mm256_cmp_pd(x, _mm256_xor_pd(limit, sign_mask()), _CMP_GT_OQ),
                                 _mm256_cmp_pd(x, limit, _CMP_LT_OQ));
  __m256d outside =
      _mm256_blendv_pd(x, sign_mask(), _mm256_cmp_pd(x, _mm256_setzero_pd(), _CMP_LT_OQ));
  return _mm256_blendv_pd(outside, r, inside);
}

/* log1p, with log(x) above SLEEF's range (only when a lane needs it). */
static inline __m256 log1p_vf(__m256 x) {
  __m256 r = Sleef_log1pf8_u10avx2(x);
  __m256 big = _mm256_cmp_ps(x, _mm256_set1_ps(ASC_LOG1P_BIG_F), _CMP_GT_OQ);
  return _mm256_movemask_ps(big) ? _mm256_blendv_ps(r, Sleef_logf8_u10avx2(x), big) : r;
}
static inline __m256d log1p_vd(__m256d x) {
  __m256d r = Sleef_log1pd4_u10avx2(x);
  __m256d big = _mm256_cmp_pd(x, _mm256_set1_pd(ASC_LOG1P_BIG_D), _CMP_GT_OQ);
  return _mm256_movemask_pd(big) ? _mm256_blendv_pd(r, Sleef_logd4_u10avx2(x), big) : r;
}

static inline __m256d rsqrt_v(__m256d x) {
  return _mm256_div_pd(_mm256_set1_pd(1.0), _mm256_sqrt_pd(x));
}

/* float32 gelu: plain float64 maths is accurate enough (see gelu_f). */
static inline __m256d gelu_f32_v(__m256d x) {
  __m256d r = _mm256_mul_pd(_mm256_mul_pd(_mm256_set1_pd(0.5), x),
                            Sleef_erfcd4_u15avx2(_mm256_mul_pd(x, _mm256_set1_pd(-M_SQRT1_2))));
  __m256d far = _mm256_cmp_pd(x, _mm256_set1_pd(-ASC_GELU_LIMIT), _CMP_LT_OQ);
  return _mm256_blendv_pd(r, sign_mask(), far);
}

#define ROUNDING(NAME, MODE)                             \
  static inline __m256 NAME##_vf(__m256 x) {             \
    return _mm256_round_ps(x, MODE | _MM_FROUND_NO_EXC); \
  }                                                      \
  static inline __m256d NAME##_vd(__m256d x) {           \
    return _mm256_round_pd(x, MODE | _MM_FROUND_NO_EXC); \
  }
ROUNDING(floor, _MM_FROUND_TO_NEG_INF)
ROUNDING(ceil, _MM_FROUND_TO_POS_INF)
ROUNDING(trunc, _MM_FROUND_TO_ZERO)
ROUNDING(rint, _MM_FROUND_TO_NEAREST_INT)

VIA_F64(sigmoid, sigmoid_v)
VIA_F64(gelu, gelu_f32_v)
VIA_F64(rsqrt, rsqrt_v)

MAP(exp, Sleef_expf8_u10avx2, Sleef_expd4_u10avx2)
MAP(exp2, Sleef_exp2f8_u10avx2, Sleef_exp2d4_u10avx2)
MAP(log, Sleef_logf8_u10avx2, Sleef_logd4_u10avx2)
MAP(log2, Sleef_log2f8_u10avx2, Sleef_log2d4_u10avx2)
MAP(log1p, log1p_vf, log1p_vd)
MAP(expm1, Sleef_expm1f8_u10avx2, Sleef_expm1d4_u10avx2)
MAP(sin, Sleef_sinf8_u10avx2, Sleef_sind4_u10avx2)
MAP(cos, Sleef_cosf8_u10avx2, Sleef_cosd4_u10avx2)
MAP(tan, Sleef_tanf8_u10avx2, Sleef_tand4_u10avx2)
MAP(tanh, Sleef_tanhf8_u10avx2, Sleef_tanhd4_u10avx2)
MAP(erf, Sleef_erff8_u10avx2, Sleef_erfd4_u10avx2)
MAP(sigmoid, sigmoid_via_f64, sigmoid_v)
MAP(gelu, gelu_via_f64, gelu_v)
MAP(rsqrt, rsqrt_via_f64, rsqrt_v)
MAP(sqrt, _mm256_sqrt_ps, _mm256_sqrt_pd)
MAP(floor, floor_vf, floor_vd)
MAP(ceil, ceil_vf, ceil_vd)
MAP(trunc, trunc_vf, trunc_vd)
MAP(rint, rint_vf, rint_vd)

const asc_vmath asc_vmath_avx2[ASC_VM_COUNT] = ASC_VMATH_TABLE;
