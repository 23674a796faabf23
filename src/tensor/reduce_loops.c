/* Conversion and summation loops of the reductions: strided elements of
 * any dtype into accumulator buffers and back, and pairwise sums. */
#include <math.h>
#include <string.h>

#include "half.h"
#include "reduce_internal.h"

/* X(NAME, storage type, load to a number) for every dtype. */
#define LOAD_SAME(v) (v)
#define RED_DTYPES(X)                    \
  X(BOOL, uint8_t, LOAD_SAME)            \
  X(INT8, int8_t, LOAD_SAME)             \
  X(UINT8, uint8_t, LOAD_SAME)           \
  X(INT16, int16_t, LOAD_SAME)           \
  X(INT32, int32_t, LOAD_SAME)           \
  X(INT64, int64_t, LOAD_SAME)           \
  X(FLOAT16, uint16_t, asc_f16_to_f32)   \
  X(BFLOAT16, uint16_t, asc_bf16_to_f32) \
  X(FLOAT32, float, LOAD_SAME)           \
  X(FLOAT64, double, LOAD_SAME)          \
  X(UINT16, uint16_t, LOAD_SAME)         \
  X(UINT32, uint32_t, LOAD_SAME)         \
  X(UINT64, uint64_t, LOAD_SAME)

/* Contiguous and strided conversion of one dtype into buf. */
#define GATHER_CASE(NAME, ST, LOAD)                            \
  case ASC_##NAME:                                             \
    if (stride == (int64_t)sizeof(ST) && ASC_ALIGNED(p, ST)) { \
      const ST *src = (const ST *)p;                           \
      for (int64_t k = 0; k < n; k++) buf[k] = LOAD(src[k]);   \
    } else {                                                   \
      for (int64_t k = 0; k < n; k++, p += stride) {           \
        ST v;                                                  \
        memcpy(&v, p, sizeof v);                               \
        buf[k] = LOAD(v);                                      \
      }                                                        \
    }                                                          \
    break;

#define DEFINE_GATHER(SUFFIX, ACC, SELF)                                                 \
  const ACC *asc_red_gather_##SUFFIX(ACC *buf, const char *p, int64_t stride, int64_t n, \
                                     asc_dtype dtype) {                                  \
    if (dtype == SELF && stride == (int64_t)sizeof(ACC) && ASC_ALIGNED(p, ACC))          \
      return (const ACC *)(const void *)p;                                               \
    switch (dtype) {                                                                     \
      RED_DTYPES(GATHER_CASE)                                                            \
      default:                                                                           \
        break;                                                                           \
    }                                                                                    \
    return buf;                                                                          \
  }
DEFINE_GATHER(f32, float, ASC_FLOAT32)
DEFINE_GATHER(f64, double, ASC_FLOAT64)

/* Integer buffers never see float dtypes (the planner casts first), so
 * their loads are exact. */
#define INT_GATHER_CASE(NAME, ST)                  \
  case ASC_##NAME:                                 \
    for (int64_t k = 0; k < n; k++, p += stride) { \
      ST v;                                        \
      memcpy(&v, p, sizeof v);                     \
      buf[k] = (int64_t)v;                         \
    }                                              \
    break;

const int64_t *asc_red_gather_i64(int64_t *buf, const char *p, int64_t stride, int64_t n,
                                  asc_dtype dtype) {
  if (dtype == ASC_INT64 && stride == (int64_t)sizeof(int64_t) && ASC_ALIGNED(p, int64_t))
    return (const int64_t *)(const void *)p;
  switch (dtype) {
    INT_GATHER_CASE(BOOL, uint8_t)
    INT_GATHER_CASE(INT8, int8_t)
    INT_GATHER_CASE(UINT8, uint8_t)
    INT_GATHER_CASE(INT16, int16_t)
    INT_GATHER_CASE(INT32, int32_t)
    INT_GATHER_CASE(INT64, int64_t)
    INT_GATHER_CASE(UINT16, uint16_t)
    INT_GATHER_CASE(UINT32, uint32_t)
    INT_GATHER_CASE(UINT64, uint64_t)
    default:
      memset(buf, 0, (size_t)n * sizeof *buf);
      break;
  }
  return buf;
}

#define SCATTER_CASE(NAME, ST, STORE)                          \
  case ASC_##NAME:                                             \
    if (stride == (int64_t)sizeof(ST) && ASC_ALIGNED(p, ST)) { \
      ST *dst = (ST *)(void *)p;                               \
      for (int64_t k = 0; k < n; k++) dst[k] = STORE(v[k]);    \
    } else {                                                   \
      for (int64_t k = 0; k < n; k++, p += stride) {           \
        ST r = STORE(v[k]);                                    \
        memcpy(p, &r, sizeof r);                               \
      }                                                        \
    }                                                          \
    break;
#define STORE_SAME(v) (v)

#define DEFINE_SCATTER(SUFFIX, ACC)                                               \
  void asc_red_scatter_##SUFFIX(char *p, int64_t stride, const ACC *v, int64_t n, \
                                asc_dtype dtype) {                                \
    switch (dtype) {                                                              \
      SCATTER_CASE(FLOAT16, uint16_t, asc_f32_to_f16)                             \
      SCATTER_CASE(BFLOAT16, uint16_t, asc_f32_to_bf16)                           \
      SCATTER_CASE(FLOAT32, float, (float))                                       \
      SCATTER_CASE(FLOAT64, double, STORE_SAME)                                   \
      default:                                                                    \
        break;                                                                    \
    }                                                                             \
  }
DEFINE_SCATTER(f32, float)
DEFINE_SCATTER(f64, double)

void asc_red_scatter_i64(char *p, int64_t stride, const int64_t *v, int64_t n, asc_dtype dtype) {
  for (int64_t k = 0; k < n; k++, p += stride) asc_red_put_i(dtype, p, v[k]);
}

/* NumPy's pairwise summation (numpy/_core/src/umath/loops_utils.h.src):
 * the same block sizes give the same rounding for contiguous data. The
 * short sum starts from -0.0 so that a sum of negative zeros stays -0.0. */
#define DEFINE_PAIRWISE(SUFFIX, ACC)                                                           \
  ACC asc_red_pairwise_##SUFFIX(const ACC *x, int64_t n) {                                     \
    if (n < 8) {                                                                               \
      ACC res = (ACC)-0.0;                                                                     \
      for (int64_t i = 0; i < n; i++) res += x[i];                                             \
      return res;                                                                              \
    }                                                                                          \
    if (n <= 128) {                                                                            \
      ACC r[8];                                                                                \
      for (int j = 0; j < 8; j++) r[j] = x[j];                                                 \
      int64_t i;                                                                               \
      for (i = 8; i < n - (n % 8); i += 8)                                                     \
        for (int j = 0; j < 8; j++) r[j] += x[i + j];                                          \
      ACC res = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]));             \
      for (; i < n; i++) res += x[i];                                                          \
      return res;                                                                              \
    }                                                                                          \
    int64_t half = n / 2;                                                                      \
    half -= half % 8;                                                                          \
    return asc_red_pairwise_##SUFFIX(x, half) + asc_red_pairwise_##SUFFIX(x + half, n - half); \
  }
DEFINE_PAIRWISE(f32, float)
DEFINE_PAIRWISE(f64, double)

#define PUT(T, value)          \
  do {                         \
    T r_ = (T)(value);         \
    memcpy(p, &r_, sizeof r_); \
  } while (0)

void asc_red_put_f(asc_dtype dtype, char *p, double v) {
  switch (dtype) {
    case ASC_BOOL:
      PUT(uint8_t, v != 0);
      break;
    case ASC_INT8:
    case ASC_UINT8:
      PUT(uint8_t, (uint32_t)asc_double_to_i32(v));
      break;
    case ASC_INT16:
    case ASC_UINT16:
      PUT(uint16_t, (uint32_t)asc_double_to_i32(v));
      break;
    case ASC_UINT32:
      PUT(uint32_t, asc_double_to_u32(v));
      break;
    case ASC_UINT64:
      PUT(uint64_t, asc_double_to_u64(v));
      break;
    case ASC_INT32:
      PUT(int32_t, asc_double_to_i32(v));
      break;
    case ASC_INT64:
      PUT(int64_t, asc_double_to_i64(v));
      break;
    case ASC_FLOAT16:
      PUT(uint16_t, asc_double_to_half(v));
      break;
    case ASC_BFLOAT16:
      PUT(uint16_t, asc_f32_to_bf16((float)v));
      break;
    case ASC_FLOAT32:
      PUT(float, v);
      break;
    default:
      PUT(double, v);
      break;
  }
}

void asc_red_put_i(asc_dtype dtype, char *p, int64_t v) {
  switch (dtype) {
    case ASC_BOOL:
      PUT(uint8_t, v != 0);
      break;
    case ASC_INT8:
    case ASC_UINT8:
      PUT(uint8_t, (uint64_t)v);
      break;
    case ASC_INT16:
    case ASC_UINT16:
      PUT(uint16_t, (uint64_t)v);
      break;
    case ASC_INT32:
    case ASC_UINT32:
      PUT(uint32_t, (uint64_t)v);
      break;
    case ASC_INT64:
    case ASC_UINT64:
      PUT(uint64_t, (uint64_t)v);
      break;
    default:
      asc_red_put_f(dtype, p, (double)v);
      break;
  }
}
