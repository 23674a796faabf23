/* The max or min of a contiguous float32/float64 piece, for reductions
 * and softmax (reduce_acc.h's piece_max/piece_min): AVX2 where the tensor
 * library's vector maths uses AVX2 or wider (asc_vmath_isa; so
 * PYASC_CPU_SIMD=0 makes it portable too), the portable loop otherwise.
 *
 * Both give the same answer. NaN is not compared: a vector max/min
 * returns its second operand when either is NaN, so the accumulators,
 * whose values are the second operand, skip it, and a separate mask
 * records that the piece held one (the caller then propagates it, as
 * NumPy does). Without NaN the result is the piece's largest (smallest)
 * value, whatever the order of comparison; only which of -0.0 and +0.0
 * comes out of a tie between them depends on the order, and NumPy leaves
 * that unspecified too (its own result depends on the position). */
#include <pthread.h>
#include <string.h>

#include "reduce_internal.h"
#include "unary_math.h"

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>
#define RED_X86 1
#else
#define RED_X86 0
#endif

/* The portable loops. */
ASC_RED_EXTREME_LOOP(scalar_max_f32, float, >)
ASC_RED_EXTREME_LOOP(scalar_min_f32, float, <)
ASC_RED_EXTREME_LOOP(scalar_max_f64, double, >)
ASC_RED_EXTREME_LOOP(scalar_min_f64, double, <)

#if RED_X86
/* AVX2: four accumulators of one register each (32 float32 or 16
 * float64 a turn), so that four comparisons are in flight; their lanes,
 * then the tail, go through the portable loop. V: the vector type, S:
 * the intrinsics' suffix (ps, pd), W: lanes per register, OP: max or min,
 * SCALAR: the portable loop of the same operation. Pieces shorter than
 * one turn go to the portable loop directly. */
#define AVX2_EXTREME(NAME, T, V, S, W, OP, SCALAR)                                  \
  __attribute__((target("avx2"))) static T NAME(const T *x, int64_t n, bool *nan) { \
    if (n < 4 * W) return SCALAR(x, n, nan);                                        \
    V acc[4], bad = _mm256_setzero_##S();                                           \
    for (int u = 0; u < 4; u++) acc[u] = _mm256_loadu_##S(x + u * W);               \
    int64_t k = 0;                                                                  \
    for (; k + 4 * W <= n; k += 4 * W)                                              \
      for (int u = 0; u < 4; u++) {                                                 \
        V v = _mm256_loadu_##S(x + k + u * W);                                      \
        acc[u] = _mm256_##OP##_##S(v, acc[u]);                                      \
        bad = _mm256_or_##S(bad, _mm256_cmp_##S(v, v, _CMP_UNORD_Q));               \
      }                                                                             \
    T lanes[4 * W + 4 * W];                                                         \
    bool tail_nan = false;                                                          \
    for (int u = 0; u < 4; u++) _mm256_storeu_##S(lanes + u * W, acc[u]);           \
    /* the tail (under one turn) joins the lanes in one portable pass */            \
    const int64_t tail = n - k;                                                     \
    memcpy(lanes + 4 * W, x + k, (size_t)tail * sizeof(T));                         \
    T r = SCALAR(lanes, 4 * W + tail, &tail_nan);                                   \
    *nan = tail_nan || _mm256_movemask_##S(bad) != 0;                               \
    return r;                                                                       \
  }
AVX2_EXTREME(avx2_max_f32, float, __m256, ps, 8, max, scalar_max_f32)
AVX2_EXTREME(avx2_min_f32, float, __m256, ps, 8, min, scalar_min_f32)
AVX2_EXTREME(avx2_max_f64, double, __m256d, pd, 4, max, scalar_max_f64)
AVX2_EXTREME(avx2_min_f64, double, __m256d, pd, 4, min, scalar_min_f64)
#undef AVX2_EXTREME
#endif

/* The loops in use, indexed by is_max: the portable ones, or AVX2 where
 * the vector maths uses AVX2 or wider (chosen once, on first use). */
static float (*extreme_f32[2])(const float *, int64_t, bool *) = {scalar_min_f32, scalar_max_f32};
static double (*extreme_f64[2])(const double *, int64_t, bool *) = {scalar_min_f64, scalar_max_f64};
static pthread_once_t chosen = PTHREAD_ONCE_INIT;
static void choose(void) {
#if RED_X86
  /* "avx2" or "avx512f": the CPU has AVX2 */
  if (strcmp(asc_vmath_isa(), "generic") != 0) {
    extreme_f32[0] = avx2_min_f32, extreme_f32[1] = avx2_max_f32;
    extreme_f64[0] = avx2_min_f64, extreme_f64[1] = avx2_max_f64;
  }
#endif
}

float asc_red_extreme_f32(const float *x, int64_t n, bool is_max, bool *nan) {
  pthread_once(&chosen, choose);
  return extreme_f32[is_max](x, n, nan);
}

double asc_red_extreme_f64(const double *x, int64_t n, bool is_max, bool *nan) {
  pthread_once(&chosen, choose);
  return extreme_f64[is_max](x, n, nan);
}
