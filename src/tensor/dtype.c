/* dtype facts, float16/bfloat16 conversions, and NumPy 2 type promotion. */
#include <math.h>
#include <string.h>

#include "asc/dtype.h"
#include "half.h"

/* Kinds, for the predicates below: a table instead of value ranges, since
 * the unsigned integers past float64 break the enum's ordering. */
enum { K_BOOL, K_SIGNED, K_UNSIGNED, K_FLOAT, K_COMPLEX };

static const struct {
  const char *name;
  size_t size;
  int kind;
} dtype_info[ASC_DTYPE_COUNT] = {
    [ASC_BOOL] = {"bool", 1, K_BOOL},
    [ASC_INT8] = {"int8", 1, K_SIGNED},
    [ASC_UINT8] = {"uint8", 1, K_UNSIGNED},
    [ASC_INT16] = {"int16", 2, K_SIGNED},
    [ASC_INT32] = {"int32", 4, K_SIGNED},
    [ASC_INT64] = {"int64", 8, K_SIGNED},
    [ASC_FLOAT16] = {"float16", 2, K_FLOAT},
    [ASC_BFLOAT16] = {"bfloat16", 2, K_FLOAT},
    [ASC_FLOAT32] = {"float32", 4, K_FLOAT},
    [ASC_FLOAT64] = {"float64", 8, K_FLOAT},
    [ASC_UINT16] = {"uint16", 2, K_UNSIGNED},
    [ASC_UINT32] = {"uint32", 4, K_UNSIGNED},
    [ASC_UINT64] = {"uint64", 8, K_UNSIGNED},
    [ASC_COMPLEX64] = {"complex64", 8, K_COMPLEX},
    [ASC_COMPLEX128] = {"complex128", 16, K_COMPLEX},
};

bool asc_dtype_valid(asc_dtype dtype) {
  return (unsigned)dtype < ASC_DTYPE_COUNT;
}

size_t asc_dtype_size(asc_dtype dtype) {
  return asc_dtype_valid(dtype) ? dtype_info[dtype].size : 0;
}

const char *asc_dtype_name(asc_dtype dtype) {
  return asc_dtype_valid(dtype) ? dtype_info[dtype].name : "invalid";
}

asc_status asc_dtype_from_name(const char *name, asc_dtype *out) {
  for (int i = 0; i < ASC_DTYPE_COUNT; i++)
    if (name && !strcmp(name, dtype_info[i].name)) {
      *out = (asc_dtype)i;
      return ASC_OK;
    }
  return asc_error(ASC_ERR_TYPE, "unknown dtype '%s'", name ? name : "(null)");
}

static int kind_of(asc_dtype d) {
  return asc_dtype_valid(d) ? dtype_info[d].kind : -1;
}

bool asc_dtype_is_float(asc_dtype d) {
  return kind_of(d) == K_FLOAT;
}

bool asc_dtype_is_complex(asc_dtype d) {
  return kind_of(d) == K_COMPLEX;
}

bool asc_dtype_is_integer(asc_dtype d) {
  return kind_of(d) == K_SIGNED || kind_of(d) == K_UNSIGNED;
}

bool asc_dtype_is_signed(asc_dtype d) {
  return kind_of(d) == K_SIGNED || kind_of(d) == K_FLOAT || kind_of(d) == K_COMPLEX;
}

bool asc_dtype_is_unsigned(asc_dtype d) {
  return kind_of(d) == K_UNSIGNED;
}

/* NumPy 2's promotion table for these types. bfloat16 is not NumPy's; it
 * promotes like float16 would if float16 were bfloat16 (ml_dtypes rules):
 * with 8-bit integers it stays bfloat16, with float16 it becomes float32.
 * Unsigned with signed integers of the same width or wider widen to the
 * next signed type; uint64 with any signed integer gives float64 (NEP 50).
 * complex64 holds what float32 holds exactly (bool, 8- and 16-bit
 * integers, the 16- and 32-bit floats); anything wider gives complex128. */
static const asc_dtype promotion[ASC_DTYPE_COUNT][ASC_DTYPE_COUNT] = {
#define B ASC_BOOL
#define I8 ASC_INT8
#define U8 ASC_UINT8
#define I16 ASC_INT16
#define I32 ASC_INT32
#define I64 ASC_INT64
#define F16 ASC_FLOAT16
#define BF ASC_BFLOAT16
#define F32 ASC_FLOAT32
#define F64 ASC_FLOAT64
#define U16 ASC_UINT16
#define U32 ASC_UINT32
#define U64 ASC_UINT64
#define C64 ASC_COMPLEX64
#define C128 ASC_COMPLEX128
    /*        B    I8   U8   I16  I32  I64  F16  BF   F32  F64  U16  U32  U64  C64  C128 */
    /* B   */ {B, I8, U8, I16, I32, I64, F16, BF, F32, F64, U16, U32, U64, C64, C128},
    /* I8  */ {I8, I8, I16, I16, I32, I64, F16, BF, F32, F64, I32, I64, F64, C64, C128},
    /* U8  */ {U8, I16, U8, I16, I32, I64, F16, BF, F32, F64, U16, U32, U64, C64, C128},
    /* I16 */ {I16, I16, I16, I16, I32, I64, F32, F32, F32, F64, I32, I64, F64, C64, C128},
    /* I32 */ {I32, I32, I32, I32, I32, I64, F64, F64, F64, F64, I32, I64, F64, C128, C128},
    /* I64 */ {I64, I64, I64, I64, I64, I64, F64, F64, F64, F64, I64, I64, F64, C128, C128},
    /* F16 */ {F16, F16, F16, F32, F64, F64, F16, F32, F32, F64, F32, F64, F64, C64, C128},
    /* BF  */ {BF, BF, BF, F32, F64, F64, F32, BF, F32, F64, F32, F64, F64, C64, C128},
    /* F32 */ {F32, F32, F32, F32, F64, F64, F32, F32, F32, F64, F32, F64, F64, C64, C128},
    /* F64 */ {F64, F64, F64, F64, F64, F64, F64, F64, F64, F64, F64, F64, F64, C128, C128},
    /* U16 */ {U16, I32, U16, I32, I32, I64, F32, F32, F32, F64, U16, U32, U64, C64, C128},
    /* U32 */ {U32, I64, U32, I64, I64, I64, F64, F64, F64, F64, U32, U32, U64, C128, C128},
    /* U64 */ {U64, F64, U64, F64, F64, F64, F64, F64, F64, F64, U64, U64, U64, C128, C128},
    /* C64 */ {C64, C64, C64, C64, C128, C128, C64, C64, C64, C128, C64, C128, C128, C64, C128},
    /* C128*/
    {C128, C128, C128, C128, C128, C128, C128, C128, C128, C128, C128, C128, C128, C128, C128},
#undef B
#undef I8
#undef U8
#undef I16
#undef I32
#undef I64
#undef F16
#undef BF
#undef F32
#undef F64
#undef U16
#undef U32
#undef U64
#undef C64
#undef C128
};

asc_dtype asc_dtype_promote(asc_dtype a, asc_dtype b) {
  if (!asc_dtype_valid(a) || !asc_dtype_valid(b)) return ASC_DTYPE_COUNT;
  return promotion[a][b];
}

asc_dtype asc_dtype_weak_scalar(asc_dtype tensor_dtype, asc_scalar_kind kind) {
  switch (kind) {
    case ASC_SCALAR_BOOL:
      return tensor_dtype;
    case ASC_SCALAR_INT:
      return tensor_dtype == ASC_BOOL ? ASC_INT64 : tensor_dtype;
    case ASC_SCALAR_FLOAT:
      return asc_dtype_is_float(tensor_dtype) || asc_dtype_is_complex(tensor_dtype) ? tensor_dtype
                                                                                    : ASC_FLOAT64;
    case ASC_SCALAR_COMPLEX: /* a float tensor keeps its precision */
      return asc_dtype_is_complex(tensor_dtype) ? tensor_dtype
             : asc_dtype_is_float(tensor_dtype) ? asc_dtype_to_complex(tensor_dtype)
                                                : ASC_COMPLEX128;
  }
  return tensor_dtype;
}

asc_dtype asc_dtype_to_float(asc_dtype d) {
  switch (d) {
    case ASC_BOOL:
    case ASC_INT8:
    case ASC_UINT8:
      return ASC_FLOAT16;
    case ASC_INT16:
    case ASC_UINT16:
      return ASC_FLOAT32;
    case ASC_INT32:
    case ASC_INT64:
    case ASC_UINT32:
    case ASC_UINT64:
      return ASC_FLOAT64;
    default:
      return d;
  }
}

asc_dtype asc_dtype_to_real(asc_dtype d) {
  return d == ASC_COMPLEX64 ? ASC_FLOAT32 : d == ASC_COMPLEX128 ? ASC_FLOAT64 : d;
}

asc_dtype asc_dtype_to_complex(asc_dtype d) {
  if (asc_dtype_is_complex(d)) return d;
  if (!asc_dtype_is_float(d)) return ASC_DTYPE_COUNT;
  return d == ASC_FLOAT64 ? ASC_COMPLEX128 : ASC_COMPLEX64;
}

uint16_t asc_double_to_half(double value) {
  if (isnan(value)) { /* keep the top payload bits, as NumPy, but stay a NaN */
    uint64_t bits;
    memcpy(&bits, &value, sizeof bits);
    uint16_t nan = (uint16_t)(0x7c00u + ((bits & 0xfffffffffffffu) >> 42));
    return (uint16_t)((signbit(value) ? 0x8000u : 0) | (nan == 0x7c00u ? nan + 1 : nan));
  }
  double a = fabs(value);
  uint16_t sign = signbit(value) ? 0x8000u : 0;
  if (a >= 65520.0) return sign | 0x7c00u; /* halfway to the next binade rounds up */
  if (a < 6.103515625e-05)                 /* below the smallest normal: multiples of 2^-24 */
    return sign | (uint16_t)nearbyint(a * 16777216.0);
  int e;
  double m = frexp(a, &e);          /* a = m * 2^e, m in [0.5, 1) */
  double q = nearbyint(m * 2048.0); /* 11 significant bits */
  if (q == 2048.0) q = 1024.0, e++;
  return sign | (uint16_t)(((e + 14) << 10) | ((uint32_t)q - 1024));
}

uint16_t asc_float_to_half(float value) {
  return asc_f32_to_f16(value);
}
float asc_half_to_float(uint16_t bits) {
  return asc_f16_to_f32(bits);
}
uint16_t asc_float_to_bfloat(float value) {
  return asc_f32_to_bf16(value);
}
float asc_bfloat_to_float(uint16_t bits) {
  return asc_bf16_to_f32(bits);
}
