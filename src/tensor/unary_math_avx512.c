/* float32 vector maths for AVX-512F CPUs: SLEEF's 512-bit functions for the
 * exponentials, logarithms, tanh and erf. sin, cos and tan stay 256 bits
 * wide: SLEEF reduces a whole vector the slow, exact way when one lane is
 * large, so their last bit depends on the lanes beside it, and a wider
 * vector would change eager results. For the rest SLEEF's 512-bit and
 * 256-bit functions give the same bits for every float32 input but for
 * the payload of a NaN result (checked over all 2^32 inputs, and in
 * test_unary.py), so the choice changes speed, not numbers. This file
 * alone is compiled with -mavx512f; unary_math.c lays these over the AVX2
 * table only after checking the CPU. */
#include <immintrin.h>
#include <sleef.h>

#include "unary_math.h"

/* Maps n values through V, 16 at a time; the tail goes through a masked
 * load, whose lanes past n read as zero, as in the AVX2 table's tail. */
#define MAP16(NAME, V)                                                                   \
  static void NAME##_f32x16(float *dst, const float *src, int64_t n) {                   \
    int64_t k = 0;                                                                       \
    for (; k + 16 <= n; k += 16) _mm512_storeu_ps(dst + k, V(_mm512_loadu_ps(src + k))); \
    if (k < n) {                                                                         \
      __mmask16 m = (__mmask16)((1u << (n - k)) - 1u);                                   \
      _mm512_mask_storeu_ps(dst + k, m, V(_mm512_maskz_loadu_ps(m, src + k)));           \
    }                                                                                    \
  }

/* log1p, with log(x) above SLEEF's range (only when a lane needs it). */
static inline __m512 log1p_vf16(__m512 x) {
  __m512 r = Sleef_log1pf16_u10avx512f(x);
  __mmask16 big = _mm512_cmp_ps_mask(x, _mm512_set1_ps(ASC_LOG1P_BIG_F), _CMP_GT_OQ);
  return big ? _mm512_mask_blend_ps(big, r, Sleef_logf16_u10avx512f(x)) : r;
}

MAP16(exp, Sleef_expf16_u10avx512f)
MAP16(exp2, Sleef_exp2f16_u10avx512f)
MAP16(log, Sleef_logf16_u10avx512f)
MAP16(log2, Sleef_log2f16_u10avx512f)
MAP16(log1p, log1p_vf16)
MAP16(expm1, Sleef_expm1f16_u10avx512f)
MAP16(tanh, Sleef_tanhf16_u10avx512f)
MAP16(erf, Sleef_erff16_u10avx512f)

/* NULL where the AVX2 entry stays. */
const asc_vmath_f32 asc_vmath_avx512_f32[ASC_VM_COUNT] = {
    [ASC_VM_EXP] = exp_f32x16,   [ASC_VM_EXP2] = exp2_f32x16,   [ASC_VM_LOG] = log_f32x16,
    [ASC_VM_LOG2] = log2_f32x16, [ASC_VM_LOG1P] = log1p_f32x16, [ASC_VM_EXPM1] = expm1_f32x16,
    [ASC_VM_TANH] = tanh_f32x16, [ASC_VM_ERF] = erf_f32x16,
};
