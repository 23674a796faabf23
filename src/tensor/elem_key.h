/* One element of any dtype as a comparable key (sort.c, scan.c): integers
 * as int64 or uint64, real floats as double, complex as two doubles. */
#ifndef ASC_TENSOR_ELEM_KEY_H
#define ASC_TENSOR_ELEM_KEY_H

#include <math.h>
#include <string.h>

#include "asc/dtype.h"

typedef union asc_key {
  int64_t i;  /* bool, signed integers, uint8..uint32 */
  uint64_t u; /* uint64 */
  double f;   /* real floats */
  struct {
    double re, im;
  } c; /* complex */
} asc_key;

typedef enum asc_key_class {
  ASC_KEY_INT,
  ASC_KEY_UINT,
  ASC_KEY_REAL,
  ASC_KEY_COMPLEX
} asc_key_class;

static inline asc_key_class asc_key_class_of(asc_dtype d) {
  if (d == ASC_UINT64) return ASC_KEY_UINT;
  if (asc_dtype_is_complex(d)) return ASC_KEY_COMPLEX;
  if (asc_dtype_is_float(d)) return ASC_KEY_REAL;
  return ASC_KEY_INT;
}

#define ASC_KEY_LOAD_AS(T, p)    \
  __extension__({                \
    T v_;                        \
    memcpy(&v_, (p), sizeof v_); \
    v_;                          \
  })

/* The element at p (any alignment) as a key of its class. */
static inline asc_key asc_key_load(asc_dtype d, const char *p) {
  asc_key k;
  k.c.im = 0;
  switch (d) {
    case ASC_BOOL:
      k.i = *(const unsigned char *)p != 0;
      break;
    case ASC_INT8:
      k.i = *(const int8_t *)p;
      break;
    case ASC_UINT8:
      k.i = *(const uint8_t *)p;
      break;
    case ASC_INT16:
      k.i = ASC_KEY_LOAD_AS(int16_t, p);
      break;
    case ASC_UINT16:
      k.i = ASC_KEY_LOAD_AS(uint16_t, p);
      break;
    case ASC_INT32:
      k.i = ASC_KEY_LOAD_AS(int32_t, p);
      break;
    case ASC_UINT32:
      k.i = ASC_KEY_LOAD_AS(uint32_t, p);
      break;
    case ASC_INT64:
      k.i = ASC_KEY_LOAD_AS(int64_t, p);
      break;
    case ASC_UINT64:
      k.u = ASC_KEY_LOAD_AS(uint64_t, p);
      break;
    case ASC_FLOAT16:
      k.f = asc_half_to_float(ASC_KEY_LOAD_AS(uint16_t, p));
      break;
    case ASC_BFLOAT16:
      k.f = asc_bfloat_to_float(ASC_KEY_LOAD_AS(uint16_t, p));
      break;
    case ASC_FLOAT32:
      k.f = ASC_KEY_LOAD_AS(float, p);
      break;
    case ASC_FLOAT64:
      k.f = ASC_KEY_LOAD_AS(double, p);
      break;
    case ASC_COMPLEX64:
      k.c.re = ASC_KEY_LOAD_AS(float, p);
      k.c.im = ASC_KEY_LOAD_AS(float, p + 4);
      break;
    case ASC_COMPLEX128:
      k.c.re = ASC_KEY_LOAD_AS(double, p);
      k.c.im = ASC_KEY_LOAD_AS(double, p + 8);
      break;
    default:
      k.i = 0;
      break;
  }
  return k;
}

/* Stores a key of d's class at p (any alignment), rounding or wrapping to d
 * as a C cast does (integers wrap modulo 2**bits; bool is k != 0). */
static inline void asc_key_store(asc_dtype d, char *p, asc_key k) {
  switch (d) {
    case ASC_BOOL:
      *(unsigned char *)p = k.i != 0;
      break;
    case ASC_INT8:
    case ASC_UINT8:
      *(uint8_t *)p = (uint8_t)k.u;
      break;
    case ASC_INT16:
    case ASC_UINT16: {
      uint16_t v = (uint16_t)k.u;
      memcpy(p, &v, 2);
      break;
    }
    case ASC_INT32:
    case ASC_UINT32: {
      uint32_t v = (uint32_t)k.u;
      memcpy(p, &v, 4);
      break;
    }
    case ASC_INT64:
    case ASC_UINT64:
      memcpy(p, &k.u, 8);
      break;
    case ASC_FLOAT16: {
      uint16_t v = asc_double_to_half(k.f);
      memcpy(p, &v, 2);
      break;
    }
    case ASC_BFLOAT16: {
      uint16_t v = asc_float_to_bfloat((float)k.f);
      memcpy(p, &v, 2);
      break;
    }
    case ASC_FLOAT32: {
      float v = (float)k.f;
      memcpy(p, &v, 4);
      break;
    }
    case ASC_FLOAT64:
      memcpy(p, &k.f, 8);
      break;
    case ASC_COMPLEX64: {
      float v[2] = {(float)k.c.re, (float)k.c.im};
      memcpy(p, v, 8);
      break;
    }
    case ASC_COMPLEX128:
      memcpy(p, &k.c, 16);
      break;
    default:
      break;
  }
}

/* NumPy's order of complex NaN placements: R+Rj, R+nanj, nan+Rj, nan+nanj. */
static inline int asc_key_nan_class(asc_key k) {
  return 2 * (k.c.re != k.c.re) + (k.c.im != k.c.im);
}

/* a sorts before b in cls (ascending, or descending with NaNs still last). */
static inline bool asc_key_less(asc_key_class cls, asc_key a, asc_key b, bool desc) {
  switch (cls) {
    case ASC_KEY_INT:
      return desc ? a.i > b.i : a.i < b.i;
    case ASC_KEY_UINT:
      return desc ? a.u > b.u : a.u < b.u;
    case ASC_KEY_REAL:
      if (a.f != a.f) return false;
      if (b.f != b.f) return true;
      return desc ? a.f > b.f : a.f < b.f;
    default: {
      int ca = asc_key_nan_class(a), cb = asc_key_nan_class(b);
      if (ca != cb) return ca < cb;
      bool re_nan = a.c.re != a.c.re, im_nan = a.c.im != a.c.im;
      if (!re_nan && a.c.re != b.c.re) return desc ? a.c.re > b.c.re : a.c.re < b.c.re;
      if (!im_nan && a.c.im != b.c.im) return desc ? a.c.im > b.c.im : a.c.im < b.c.im;
      return false;
    }
  }
}

#endif
