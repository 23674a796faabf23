/* Loop templates shared by the element-wise operation files. Each template
 * expands to one inner loop (see asc_ew_loop) with fast paths for
 * contiguous operands and for a broadcast scalar operand, which the compiler
 * vectorises, and a generic strided path. */
#ifndef ASC_TENSOR_BINARY_LOOPS_H
#define ASC_TENSOR_BINARY_LOOPS_H

#include <string.h>

#include "half.h"
#include "tensor_internal.h"

typedef uint8_t asc_bool_t;

/* Loads and stores between storage types and compute types. */
#define ASC_LOAD_ID(v) (v)
#define ASC_STORE_ID(v) (v)
#define ASC_LOAD_F16(v) asc_f16_to_f32(v)
#define ASC_STORE_F16(v) asc_f32_to_f16(v)
#define ASC_LOAD_BF16(v) asc_bf16_to_f32(v)
#define ASC_STORE_BF16(v) asc_f32_to_bf16(v)
#define ASC_STORE_BOOL(v) ((asc_bool_t)((v) != 0))
/* Integers compute in int64_t, wrapping through uint64_t as NumPy's
 * fixed-width arithmetic does (negative(-128) is -128 in int8), and store
 * back truncated. */
#define ASC_LOAD_I(v) ((int64_t)(v))
#define ASC_WRAP(expr) ((int64_t)(uint64_t)(expr))
#define ASC_STORE_I8(v) ((int8_t)(uint8_t)(uint64_t)(v))
#define ASC_STORE_U8(v) ((uint8_t)(uint64_t)(v))
#define ASC_STORE_I16(v) ((int16_t)(uint16_t)(uint64_t)(v))
#define ASC_STORE_I32(v) ((int32_t)(uint32_t)(uint64_t)(v))
#define ASC_STORE_I64(v) ((int64_t)(v))
#define ASC_STORE_U16(v) ((uint16_t)(uint64_t)(v))
#define ASC_STORE_U32(v) ((uint32_t)(uint64_t)(v))
/* uint64 computes in uint64_t (comparisons, division and shifts are
 * unsigned there); the narrower unsigned types fit int64_t exactly. */
#define ASC_LOAD_U(v) ((uint64_t)(v))
#define ASC_STORE_U64(v) ((uint64_t)(v))

/* Two inputs of storage type IT computed as CT; EXPR uses x and y. */
#define ASC_BINARY_LOOP(NAME, IT, OT, CT, LOAD, STORE, EXPR)                                 \
  static asc_status NAME(char *const *p, const int64_t *s, int64_t n, const void *ctx) {     \
    (void)ctx;                                                                               \
    const int64_t is = (int64_t)sizeof(IT), os = (int64_t)sizeof(OT);                        \
    const bool al = ASC_ALIGNED(p[0], OT) && ASC_ALIGNED(p[1], IT) && ASC_ALIGNED(p[2], IT); \
    if (al && s[0] == os && s[1] == is && s[2] == is) {                                      \
      OT *o = (OT *)p[0];                                                                    \
      const IT *a = (const IT *)p[1], *b = (const IT *)p[2];                                 \
      for (int64_t k = 0; k < n; k++) {                                                      \
        CT x = LOAD(a[k]), y = LOAD(b[k]);                                                   \
        o[k] = STORE(EXPR);                                                                  \
      }                                                                                      \
    } else if (al && s[0] == os && s[1] == is && s[2] == 0) {                                \
      OT *o = (OT *)p[0];                                                                    \
      const IT *a = (const IT *)p[1];                                                        \
      IT bv;                                                                                 \
      memcpy(&bv, p[2], sizeof bv);                                                          \
      const CT y = LOAD(bv);                                                                 \
      for (int64_t k = 0; k < n; k++) {                                                      \
        CT x = LOAD(a[k]);                                                                   \
        o[k] = STORE(EXPR);                                                                  \
      }                                                                                      \
    } else if (al && s[0] == os && s[1] == 0 && s[2] == is) {                                \
      OT *o = (OT *)p[0];                                                                    \
      const IT *b = (const IT *)p[2];                                                        \
      IT av;                                                                                 \
      memcpy(&av, p[1], sizeof av);                                                          \
      const CT x = LOAD(av);                                                                 \
      for (int64_t k = 0; k < n; k++) {                                                      \
        CT y = LOAD(b[k]);                                                                   \
        o[k] = STORE(EXPR);                                                                  \
      }                                                                                      \
    } else {                                                                                 \
      char *o = p[0];                                                                        \
      const char *a = p[1], *b = p[2];                                                       \
      for (int64_t k = 0; k < n; k++, o += s[0], a += s[1], b += s[2]) {                     \
        IT av, bv;                                                                           \
        memcpy(&av, a, sizeof av);                                                           \
        memcpy(&bv, b, sizeof bv);                                                           \
        CT x = LOAD(av), y = LOAD(bv);                                                       \
        OT r = STORE(EXPR);                                                                  \
        memcpy(o, &r, sizeof r);                                                             \
      }                                                                                      \
    }                                                                                        \
    return ASC_OK;                                                                           \
  }

/* One input of storage type IT computed as CT; EXPR uses x. */
#define ASC_UNARY_LOOP(NAME, IT, OT, CT, LOAD, STORE, EXPR)                                    \
  static asc_status NAME(char *const *p, const int64_t *s, int64_t n, const void *ctx) {       \
    (void)ctx;                                                                                 \
    if (s[0] == (int64_t)sizeof(OT) && s[1] == (int64_t)sizeof(IT) && ASC_ALIGNED(p[0], OT) && \
        ASC_ALIGNED(p[1], IT)) {                                                               \
      OT *o = (OT *)p[0];                                                                      \
      const IT *a = (const IT *)p[1];                                                          \
      for (int64_t k = 0; k < n; k++) {                                                        \
        CT x = LOAD(a[k]);                                                                     \
        o[k] = STORE(EXPR);                                                                    \
      }                                                                                        \
    } else {                                                                                   \
      char *o = p[0];                                                                          \
      const char *a = p[1];                                                                    \
      for (int64_t k = 0; k < n; k++, o += s[0], a += s[1]) {                                  \
        IT av;                                                                                 \
        memcpy(&av, a, sizeof av);                                                             \
        CT x = LOAD(av);                                                                       \
        OT r = STORE(EXPR);                                                                    \
        memcpy(o, &r, sizeof r);                                                               \
      }                                                                                        \
    }                                                                                          \
    return ASC_OK;                                                                             \
  }

/* Rows of per-dtype loop tables (index: asc_dtype) for loops NAME_<dtype>;
 * NULL where a dtype has none. Designated, since the enum is not in kind
 * order. */
#define ASC_ROW_UNSIGNED_WIDE(NAME) \
  [ASC_UINT16] = NAME##_UINT16, [ASC_UINT32] = NAME##_UINT32, [ASC_UINT64] = NAME##_UINT64
#define ASC_ROW_INTEGER_ONLY(NAME)                                                  \
  [ASC_INT8] = NAME##_INT8, [ASC_UINT8] = NAME##_UINT8, [ASC_INT16] = NAME##_INT16, \
  [ASC_INT32] = NAME##_INT32, [ASC_INT64] = NAME##_INT64, ASC_ROW_UNSIGNED_WIDE(NAME)
#define ASC_ROW_FLOAT_ONLY(NAME)                                    \
  [ASC_FLOAT16] = NAME##_FLOAT16, [ASC_BFLOAT16] = NAME##_BFLOAT16, \
  [ASC_FLOAT32] = NAME##_FLOAT32, [ASC_FLOAT64] = NAME##_FLOAT64
#define ASC_ROW_ALL(NAME) \
  { [ASC_BOOL] = NAME##_BOOL, ASC_ROW_INTEGER_ONLY(NAME), ASC_ROW_FLOAT_ONLY(NAME) }
#define ASC_ROW_NUMERIC(NAME) \
  { ASC_ROW_INTEGER_ONLY(NAME), ASC_ROW_FLOAT_ONLY(NAME) }
#define ASC_ROW_INTEGER(NAME) \
  { [ASC_BOOL] = NAME##_BOOL, ASC_ROW_INTEGER_ONLY(NAME) }
/* The complex loops NAME_COMPLEX64/128, alone or after the real rows. */
#define ASC_ROW_COMPLEX(NAME) \
  [ASC_COMPLEX64] = NAME##_COMPLEX64, [ASC_COMPLEX128] = NAME##_COMPLEX128
#define ASC_ROW_ALL_C(NAME)                                                         \
  {                                                                                 \
    [ASC_BOOL] = NAME##_BOOL, ASC_ROW_INTEGER_ONLY(NAME), ASC_ROW_FLOAT_ONLY(NAME), \
    ASC_ROW_COMPLEX(NAME)                                                           \
  }
#define ASC_ROW_NUMERIC_C(NAME) \
  { ASC_ROW_INTEGER_ONLY(NAME), ASC_ROW_FLOAT_ONLY(NAME), ASC_ROW_COMPLEX(NAME) }
#define ASC_ROW_FLOAT_C(NAME) \
  { ASC_ROW_FLOAT_ONLY(NAME), ASC_ROW_COMPLEX(NAME) }

#endif
