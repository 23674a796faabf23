/* Inline float16/bfloat16 conversions for element loops (round to nearest
 * even; NaN stays NaN; infinities and subnormals exact), and NumPy's float
 * to integer conversions. */
#ifndef ASC_TENSOR_HALF_H
#define ASC_TENSOR_HALF_H

#include <math.h>
#include <stdint.h>
#include <string.h>

static inline uint32_t asc_f32_bits(float f) {
  uint32_t u;
  memcpy(&u, &f, sizeof u);
  return u;
}

static inline float asc_bits_f32(uint32_t u) {
  float f;
  memcpy(&f, &u, sizeof f);
  return f;
}

static inline uint16_t asc_f32_to_f16(float value) {
  uint32_t x = asc_f32_bits(value);
  uint32_t sign = (x >> 16) & 0x8000u;
  uint32_t abs = x & 0x7fffffffu;
  if (abs > 0x7f800000u) { /* NaN: keep the top payload bits (as NumPy), but stay a NaN */
    uint32_t nan = 0x7c00u + ((abs & 0x7fffffu) >> 13);
    return (uint16_t)(sign | (nan == 0x7c00u ? nan + 1 : nan));
  }
  if (abs >= 0x477ff000u) return (uint16_t)(sign | 0x7c00u); /* overflow rounds to inf */
  if (abs < 0x38800000u) {
    /* Subnormal half (or zero): scale by 2^24 and round once in float. */
    float scaled = asc_bits_f32(abs) * 16777216.0f; /* exact: only the exponent changes */
    uint32_t q = (uint32_t)nearbyintf(scaled);      /* default rounding: to nearest even */
    return (uint16_t)(sign | q);
  }
  /* Normal: drop 13 mantissa bits with round-to-nearest-even. */
  uint32_t mant_odd = (abs >> 13) & 1u;
  abs += 0xfffu + mant_odd;
  return (uint16_t)(sign | ((abs - 0x38000000u) >> 13));
}

static inline float asc_f16_to_f32(uint16_t h) {
  uint32_t sign = (uint32_t)(h & 0x8000u) << 16;
  uint32_t exp = (h >> 10) & 0x1fu;
  uint32_t mant = h & 0x3ffu;
  if (exp == 0x1f) return asc_bits_f32(sign | 0x7f800000u | (mant << 13)); /* inf, NaN */
  if (exp == 0) {
    float f = (float)mant * 5.9604644775390625e-8f; /* mant * 2^-24, exact */
    return sign ? -f : f;
  }
  return asc_bits_f32(sign | ((exp + 112) << 23) | (mant << 13));
}

static inline uint16_t asc_f32_to_bf16(float value) {
  uint32_t x = asc_f32_bits(value);
  if ((x & 0x7fffffffu) > 0x7f800000u) return (uint16_t)(((x >> 16) & 0x8000u) | 0x7fc0u); /* NaN */
  x += 0x7fffu + ((x >> 16) & 1u);
  return (uint16_t)(x >> 16);
}

static inline float asc_bf16_to_f32(uint16_t bits) {
  return asc_bits_f32((uint32_t)bits << 16);
}

/* Float to integer where C is undefined (NaN, out of range): the x86
 * "integer indefinite" value, which is what NumPy yields there. Narrow
 * integers go through int32 and wrap, as NumPy's casts do. */
static inline int64_t asc_double_to_i64(double v) {
  if (!(v >= -9223372036854775808.0 && v < 9223372036854775808.0)) return INT64_MIN;
  return (int64_t)v;
}
static inline int32_t asc_double_to_i32(double v) {
  if (!(v > -2147483649.0 && v < 2147483648.0)) return INT32_MIN;
  return (int32_t)v;
}
/* Unsigned conversions as x86 compilers emit them (and NumPy shows): below
 * 2^(bits-1) through the signed conversion, above it offset by 2^(bits-1),
 * so NaN, -inf and very negative values give 2^(bits-1), +inf and values
 * past the top give 0, and small negative ones wrap. */
static inline uint64_t asc_double_to_u64(double v) {
  if (v >= 0x1p63) return (uint64_t)asc_double_to_i64(v - 0x1p63) ^ (UINT64_C(1) << 63);
  return (uint64_t)asc_double_to_i64(v);
}
static inline uint32_t asc_double_to_u32(double v) {
  if (v >= 0x1p31) return (uint32_t)asc_double_to_i32(v - 0x1p31) ^ (UINT32_C(1) << 31);
  return (uint32_t)asc_double_to_i32(v);
}

#endif
