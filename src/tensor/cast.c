/* dtype conversion loops (every pair of dtypes) and the copy/cast ops. */
#include <complex.h>
#include <math.h>
#include <stdbool.h>
#include <string.h>

#include "asc/ops.h"
#include "half.h"
#include "tensor_internal.h"

/* Integers convert through int64 and floats through double; each load and
 * store below is exact or rounds once, as a direct C cast would. */
typedef uint8_t bool_t;

/* One conversion helper per row: its name, the type it takes (v), the
 * type it gives and the expression giving it. */
#define CONV_FN(NAME, FROM, TO, EXPR) \
  static inline TO NAME(FROM v) {     \
    return EXPR;                      \
  }

CONV_FN(load_i_BOOL, bool_t, int64_t, v != 0)
CONV_FN(load_i_INT8, int8_t, int64_t, v)
CONV_FN(load_i_UINT8, uint8_t, int64_t, v)
CONV_FN(load_i_INT16, int16_t, int64_t, v)
CONV_FN(load_i_INT32, int32_t, int64_t, v)
CONV_FN(load_i_INT64, int64_t, int64_t, v)
CONV_FN(load_i_UINT16, uint16_t, int64_t, v)
CONV_FN(load_i_UINT32, uint32_t, int64_t, v)
/* uint64 loads as its own kind, u: its values past 2^63 convert to floats
 * as unsigned numbers; to integers it wraps like any integer. */
CONV_FN(load_u_UINT64, uint64_t, uint64_t, v)
CONV_FN(load_f_FLOAT16, uint16_t, double, asc_f16_to_f32(v))
CONV_FN(load_f_BFLOAT16, uint16_t, double, asc_bf16_to_f32(v))
CONV_FN(load_f_FLOAT32, float, double, v)
CONV_FN(load_f_FLOAT64, double, double, v)

CONV_FN(store_i_BOOL, int64_t, bool_t, v != 0)
CONV_FN(store_i_INT8, int64_t, int8_t, (int8_t)(uint8_t)(uint64_t)v)
CONV_FN(store_i_UINT8, int64_t, uint8_t, (uint8_t)(uint64_t)v)
CONV_FN(store_i_INT16, int64_t, int16_t, (int16_t)(uint16_t)(uint64_t)v)
CONV_FN(store_i_INT32, int64_t, int32_t, (int32_t)(uint32_t)(uint64_t)v)
CONV_FN(store_i_INT64, int64_t, int64_t, v)
CONV_FN(store_i_UINT16, int64_t, uint16_t, (uint16_t)(uint64_t)v)
CONV_FN(store_i_UINT32, int64_t, uint32_t, (uint32_t)(uint64_t)v)
CONV_FN(store_i_UINT64, int64_t, uint64_t, (uint64_t)v)
CONV_FN(store_i_FLOAT16, int64_t, uint16_t, asc_double_to_half((double)v))
CONV_FN(store_i_BFLOAT16, int64_t, uint16_t, asc_f32_to_bf16((float)v))
CONV_FN(store_i_FLOAT32, int64_t, float, (float)v)
CONV_FN(store_i_FLOAT64, int64_t, double, (double)v)

CONV_FN(store_f_BOOL, double, bool_t, v != 0)
CONV_FN(store_f_INT8, double, int8_t, (int8_t)(uint8_t)(uint32_t)asc_double_to_i32(v))
CONV_FN(store_f_UINT8, double, uint8_t, (uint8_t)(uint32_t)asc_double_to_i32(v))
CONV_FN(store_f_INT16, double, int16_t, (int16_t)(uint16_t)(uint32_t)asc_double_to_i32(v))
CONV_FN(store_f_INT32, double, int32_t, asc_double_to_i32(v))
CONV_FN(store_f_INT64, double, int64_t, asc_double_to_i64(v))
CONV_FN(store_f_UINT16, double, uint16_t, (uint16_t)(uint32_t)asc_double_to_i32(v))
CONV_FN(store_f_UINT32, double, uint32_t, asc_double_to_u32(v))
CONV_FN(store_f_UINT64, double, uint64_t, asc_double_to_u64(v))
CONV_FN(store_f_FLOAT16, double, uint16_t, asc_double_to_half(v))
CONV_FN(store_f_BFLOAT16, double, uint16_t, asc_f32_to_bf16((float)v))
CONV_FN(store_f_FLOAT32, double, float, (float)v)
CONV_FN(store_f_FLOAT64, double, double, v)

/* To complex, the value becomes the real part. */
CONV_FN(store_i_COMPLEX64, int64_t, asc_c64_t, ASC_C64((float)v, 0.0f))
CONV_FN(store_i_COMPLEX128, int64_t, asc_c128_t, ASC_C128((double)v, 0.0))
CONV_FN(store_f_COMPLEX64, double, asc_c64_t, ASC_C64((float)v, 0.0f))
CONV_FN(store_f_COMPLEX128, double, asc_c128_t, ASC_C128(v, 0.0))
CONV_FN(store_u_COMPLEX64, uint64_t, asc_c64_t, ASC_C64((float)v, 0.0f))
CONV_FN(store_u_COMPLEX128, uint64_t, asc_c128_t, ASC_C128((double)v, 0.0))

/* From complex, through complex double: to a real dtype the imaginary part
 * is dropped (NumPy's cast, which warns; the Array API leaves it to the
 * library), to bool either part counts. */
CONV_FN(load_c_COMPLEX64, asc_c64_t, asc_c128_t, ASC_C128(crealf(v), cimagf(v)))
CONV_FN(load_c_COMPLEX128, asc_c128_t, asc_c128_t, v)
CONV_FN(store_c_BOOL, asc_c128_t, bool_t, creal(v) != 0 || cimag(v) != 0)
#define STORE_C_REAL(DST, DT)                    \
  static inline DT store_c_##DST(asc_c128_t v) { \
    return store_f_##DST(creal(v));              \
  }
STORE_C_REAL(INT8, int8_t)
STORE_C_REAL(UINT8, uint8_t)
STORE_C_REAL(INT16, int16_t)
STORE_C_REAL(INT32, int32_t)
STORE_C_REAL(INT64, int64_t)
STORE_C_REAL(FLOAT16, uint16_t)
STORE_C_REAL(BFLOAT16, uint16_t)
STORE_C_REAL(FLOAT32, float)
STORE_C_REAL(FLOAT64, double)
STORE_C_REAL(UINT16, uint16_t)
STORE_C_REAL(UINT32, uint32_t)
STORE_C_REAL(UINT64, uint64_t)
CONV_FN(store_c_COMPLEX64, asc_c128_t, asc_c64_t, ASC_C64((float)creal(v), (float)cimag(v)))
CONV_FN(store_c_COMPLEX128, asc_c128_t, asc_c128_t, v)

/* uint64 to each dtype: integers wrap, floats take the unsigned value. */
#define STORE_U_INT(DST, DT)                   \
  static inline DT store_u_##DST(uint64_t v) { \
    return store_i_##DST((int64_t)v);          \
  }
STORE_U_INT(BOOL, bool_t)
STORE_U_INT(INT8, int8_t)
STORE_U_INT(UINT8, uint8_t)
STORE_U_INT(INT16, int16_t)
STORE_U_INT(INT32, int32_t)
STORE_U_INT(INT64, int64_t)
STORE_U_INT(UINT16, uint16_t)
STORE_U_INT(UINT32, uint32_t)
STORE_U_INT(UINT64, uint64_t)
CONV_FN(store_u_FLOAT16, uint64_t, uint16_t, asc_double_to_half((double)v))
CONV_FN(store_u_BFLOAT16, uint64_t, uint16_t, asc_f32_to_bf16((float)v))
CONV_FN(store_u_FLOAT32, uint64_t, float, (float)v)
CONV_FN(store_u_FLOAT64, uint64_t, double, (double)v)

/* X(NAME, C type, kind letter: i = through int64, u = through uint64,
 * f = through double, c = through complex double) */
#define ASC_DTYPES(X)        \
  X(BOOL, bool_t, i)         \
  X(INT8, int8_t, i)         \
  X(UINT8, uint8_t, i)       \
  X(INT16, int16_t, i)       \
  X(INT32, int32_t, i)       \
  X(INT64, int64_t, i)       \
  X(FLOAT16, uint16_t, f)    \
  X(BFLOAT16, uint16_t, f)   \
  X(FLOAT32, float, f)       \
  X(FLOAT64, double, f)      \
  X(UINT16, uint16_t, i)     \
  X(UINT32, uint32_t, i)     \
  X(UINT64, uint64_t, u)     \
  X(COMPLEX64, asc_c64_t, c) \
  X(COMPLEX128, asc_c128_t, c)

/* A conversion loop: CONVERT(value of ST) gives a DT. */
#define CONVERT_LOOP(NAME, ST, DT, CONVERT)                                                    \
  static asc_status NAME(char *const *p, const int64_t *s, int64_t n, const void *ctx) {       \
    (void)ctx;                                                                                 \
    if (s[0] == (int64_t)sizeof(DT) && s[1] == (int64_t)sizeof(ST) && ASC_ALIGNED(p[0], DT) && \
        ASC_ALIGNED(p[1], ST)) {                                                               \
      DT *restrict o = (DT *)p[0];                                                             \
      const ST *restrict x = (const ST *)p[1];                                                 \
      for (int64_t k = 0; k < n; k++) o[k] = CONVERT(x[k]);                                    \
      return ASC_OK;                                                                           \
    }                                                                                          \
    char *o = p[0];                                                                            \
    const char *x = p[1];                                                                      \
    for (int64_t k = 0; k < n; k++, o += s[0], x += s[1]) {                                    \
      ST v;                                                                                    \
      memcpy(&v, x, sizeof v);                                                                 \
      DT r = CONVERT(v);                                                                       \
      memcpy(o, &r, sizeof r);                                                                 \
    }                                                                                          \
    return ASC_OK;                                                                             \
  }
#define CAST_LOOP(SRC, ST, SK, DST, DT)              \
  static inline DT convert_##SRC##_##DST(ST v) {     \
    return store_##SK##_##DST(load_##SK##_##SRC(v)); \
  }                                                  \
  CONVERT_LOOP(cast_##SRC##_##DST, ST, DT, convert_##SRC##_##DST)

#define CAST_FROM(SRC, ST, SK)                 \
  CAST_LOOP(SRC, ST, SK, BOOL, bool_t)         \
  CAST_LOOP(SRC, ST, SK, INT8, int8_t)         \
  CAST_LOOP(SRC, ST, SK, UINT8, uint8_t)       \
  CAST_LOOP(SRC, ST, SK, INT16, int16_t)       \
  CAST_LOOP(SRC, ST, SK, INT32, int32_t)       \
  CAST_LOOP(SRC, ST, SK, INT64, int64_t)       \
  CAST_LOOP(SRC, ST, SK, FLOAT16, uint16_t)    \
  CAST_LOOP(SRC, ST, SK, BFLOAT16, uint16_t)   \
  CAST_LOOP(SRC, ST, SK, FLOAT32, float)       \
  CAST_LOOP(SRC, ST, SK, FLOAT64, double)      \
  CAST_LOOP(SRC, ST, SK, UINT16, uint16_t)     \
  CAST_LOOP(SRC, ST, SK, UINT32, uint32_t)     \
  CAST_LOOP(SRC, ST, SK, UINT64, uint64_t)     \
  CAST_LOOP(SRC, ST, SK, COMPLEX64, asc_c64_t) \
  CAST_LOOP(SRC, ST, SK, COMPLEX128, asc_c128_t)

ASC_DTYPES(CAST_FROM)

#define CAST_ROW_ENTRY(SRC, DST) cast_##SRC##_##DST
#define CAST_ROW(SRC, ST, SK)                                      \
  [ASC_##SRC] = {[ASC_BOOL] = CAST_ROW_ENTRY(SRC, BOOL),           \
                 [ASC_INT8] = CAST_ROW_ENTRY(SRC, INT8),           \
                 [ASC_UINT8] = CAST_ROW_ENTRY(SRC, UINT8),         \
                 [ASC_INT16] = CAST_ROW_ENTRY(SRC, INT16),         \
                 [ASC_INT32] = CAST_ROW_ENTRY(SRC, INT32),         \
                 [ASC_INT64] = CAST_ROW_ENTRY(SRC, INT64),         \
                 [ASC_FLOAT16] = CAST_ROW_ENTRY(SRC, FLOAT16),     \
                 [ASC_BFLOAT16] = CAST_ROW_ENTRY(SRC, BFLOAT16),   \
                 [ASC_FLOAT32] = CAST_ROW_ENTRY(SRC, FLOAT32),     \
                 [ASC_FLOAT64] = CAST_ROW_ENTRY(SRC, FLOAT64),     \
                 [ASC_UINT16] = CAST_ROW_ENTRY(SRC, UINT16),       \
                 [ASC_UINT32] = CAST_ROW_ENTRY(SRC, UINT32),       \
                 [ASC_UINT64] = CAST_ROW_ENTRY(SRC, UINT64),       \
                 [ASC_COMPLEX64] = CAST_ROW_ENTRY(SRC, COMPLEX64), \
                 [ASC_COMPLEX128] = CAST_ROW_ENTRY(SRC, COMPLEX128)},

static const asc_ew_loop cast_loops[ASC_DTYPE_COUNT][ASC_DTYPE_COUNT] = {ASC_DTYPES(CAST_ROW)};

/* Same-dtype copies are byte copies: one loop per element size. */
#define COPY_LOOP(T)                                                                         \
  static asc_status copy_##T(char *const *p, const int64_t *s, int64_t n, const void *ctx) { \
    (void)ctx;                                                                               \
    if (s[0] == (int64_t)sizeof(T) && s[1] == (int64_t)sizeof(T)) {                          \
      memmove(p[0], p[1], (size_t)n * sizeof(T));                                            \
      return ASC_OK;                                                                         \
    }                                                                                        \
    char *o = p[0];                                                                          \
    const char *x = p[1];                                                                    \
    for (int64_t k = 0; k < n; k++, o += s[0], x += s[1]) memcpy(o, x, sizeof(T));           \
    return ASC_OK;                                                                           \
  }
COPY_LOOP(uint8_t)
COPY_LOOP(uint16_t)
COPY_LOOP(uint32_t)
COPY_LOOP(uint64_t)
COPY_LOOP(asc_c128_t)

static asc_ew_loop copy_loop(size_t size) {
  switch (size) {
    case 1:
      return copy_uint8_t;
    case 2:
      return copy_uint16_t;
    case 4:
      return copy_uint32_t;
    case 8:
      return copy_uint64_t;
    default:
      return copy_asc_c128_t;
  }
}

/* float32 <-> float16 and bfloat16 -> float32 convert directly: a step
 * through double would quiet signalling NaNs, whose payload NumPy keeps. */
CONVERT_LOOP(float32_to_float16, float, uint16_t, asc_f32_to_f16)
CONVERT_LOOP(float16_to_float32, uint16_t, float, asc_f16_to_f32)
CONVERT_LOOP(bfloat16_to_float32, uint16_t, float, asc_bf16_to_f32)
/* NumPy's float16 -> uint32 is a scalar C cast, which x86 compilers make a
 * 64-bit signed conversion, truncated (float32 and float64 take SIMD loops
 * that behave like asc_double_to_u32 out of range). */
static inline uint32_t half_to_u32(uint16_t h) {
  return (uint32_t)(uint64_t)asc_double_to_i64(asc_f16_to_f32(h));
}
CONVERT_LOOP(float16_to_uint32, uint16_t, uint32_t, half_to_u32)

static asc_ew_loop convert_loop(asc_dtype from, asc_dtype to) {
  if (from == to) return copy_loop(asc_dtype_size(from));
  if (from == ASC_FLOAT32 && to == ASC_FLOAT16) return float32_to_float16;
  if (from == ASC_FLOAT16 && to == ASC_FLOAT32) return float16_to_float32;
  if (from == ASC_BFLOAT16 && to == ASC_FLOAT32) return bfloat16_to_float32;
  if (from == ASC_FLOAT16 && to == ASC_UINT32) return float16_to_uint32;
  return cast_loops[from][to];
}

asc_ew_loop asc_cast_loop(asc_dtype from, asc_dtype to) {
  return asc_dtype_valid(from) && asc_dtype_valid(to) ? convert_loop(from, to) : NULL;
}

static asc_status launch_convert(const asc_tensor *src, const asc_tensor *dst) {
  asc_ew_kernel kernel = {.loop = convert_loop(src->dtype, dst->dtype),
                          .name = src->dtype == dst->dtype ? "copy" : "cast"};
  const asc_tensor *inputs[1] = {src};
  return asc_ew_launch(&kernel, 1, inputs, dst);
}

asc_status asc_copy(const asc_tensor *src, const asc_tensor *dst) {
  asc_status st = asc_tensor_check(src);
  if (!st) st = asc_tensor_check(dst);
  if (!st) st = asc_tensor_check_writable(dst, "copy");
  if (st) return st;
  asc_tensor expanded;
  st = asc_tensor_expand(src, dst->ndim, dst->shape, &expanded);
  if (st) return st;
  asc_tensor_release(&expanded);
  if (!asc_tensors_overlap(src, dst)) return launch_convert(src, dst);
  /* Overlapping views (a[1:] = a[:-1]): go through a private copy. */
  asc_tensor tmp = {0};
  st = asc_cast(src, src->dtype, &tmp);
  if (!st) st = launch_convert(&tmp, dst);
  asc_tensor_release(&tmp);
  return st;
}

asc_status asc_cast(const asc_tensor *x, asc_dtype dtype, asc_tensor *out) {
  asc_status st = asc_tensor_check(x);
  if (st) return st;
  if (!asc_dtype_valid(dtype)) return asc_error(ASC_ERR_TYPE, "invalid dtype %d", (int)dtype);
  if (out->storage) {
    if (out->dtype != dtype)
      return asc_error(ASC_ERR_TYPE, "cast to %s into a %s output", asc_dtype_name(dtype),
                       asc_dtype_name(out->dtype));
    return asc_copy(x, out);
  }
  st = asc_tensor_empty(asc_tensor_device(x), dtype, x->ndim, x->shape, out);
  if (st) return st;
  st = launch_convert(x, out);
  if (st) asc_tensor_release(out);
  return st;
}

asc_status asc_tensor_contiguous(const asc_tensor *t, asc_tensor *out) {
  if (asc_tensor_is_contiguous(t)) {
    asc_tensor_share(t, out);
    return ASC_OK;
  }
  asc_tensor result = {0};
  asc_status st = asc_cast(t, t->dtype, &result);
  if (st == ASC_OK) *out = result;
  return st;
}

static int kind_rank(asc_dtype d) {
  if (asc_dtype_is_complex(d)) return 4;
  return d == ASC_BOOL ? 0 : asc_dtype_is_float(d) ? 3 : asc_dtype_is_signed(d) ? 2 : 1;
}

bool asc_can_cast_same_kind(asc_dtype from, asc_dtype to) {
  if (from == to) return true;
  int kf = kind_rank(from), kt = kind_rank(to);
  return kf <= kt;
}
