/* Binary element-wise operations: dtype rules, loops and the op driver. */
#include <complex.h>
#include <math.h>

#include "asc/ops.h"
#include "binary_loops.h"

static inline int64_t floor_div_i(int64_t x, int64_t y) {
  if (y == 0) return 0;
  if (y == -1) return ASC_WRAP(0 - (uint64_t)x);
  int64_t q = x / y;
  if ((x % y != 0) && ((x < 0) != (y < 0))) q--;
  return q;
}

static inline int64_t mod_i(int64_t x, int64_t y) {
  if (y == 0 || y == -1) return 0;
  int64_t r = x % y;
  if (r != 0 && ((r < 0) != (y < 0))) r += y;
  return r;
}

static inline int64_t shift_left_i(int64_t x, int64_t y, int bits) {
  return (y < 0 || y >= bits) ? 0 : ASC_WRAP((uint64_t)x << y);
}

static inline int64_t shift_right_i(int64_t x, int64_t y, int bits) {
  if (y < 0 || y >= bits) return x < 0 ? -1 : 0;
  return x >> y;
}

/* uint64's own forms: its values past 2^63 have no int64 counterpart. */
static inline uint64_t floor_div_u(uint64_t x, uint64_t y) {
  return y == 0 ? 0 : x / y;
}
static inline uint64_t mod_u(uint64_t x, uint64_t y) {
  return y == 0 ? 0 : x % y;
}
static inline uint64_t shift_left_u(uint64_t x, uint64_t y, int bits) {
  return y >= (uint64_t)bits ? 0 : x << y;
}
static inline uint64_t shift_right_u(uint64_t x, uint64_t y, int bits) {
  return y >= (uint64_t)bits ? 0 : x >> y;
}

/* NumPy's npy_divmod: floor division and modulo that agree with each
 * other and with Python for floats. One operand infinite, floor division
 * is the quotient itself (+-inf, or +-0), as the Array API says (NumPy
 * gives NaN and Python -1 for some of these). */
#define DEFINE_DIVMOD(T, SUFFIX)                      \
  static inline T floor_div_##SUFFIX(T a, T b) {      \
    if (b == 0) return a / b;                         \
    if (isinf(a) != isinf(b)) return a / b;           \
    T mod = fmod##SUFFIX(a, b);                       \
    T div = (a - mod) / b;                            \
    if (mod != 0 && ((b < 0) != (mod < 0))) div -= 1; \
    if (div == 0) return copysign##SUFFIX(0, a / b);  \
    T floordiv = floor##SUFFIX(div);                  \
    if (div - floordiv > (T)0.5) floordiv += 1;       \
    return floordiv;                                  \
  }                                                   \
  static inline T mod_##SUFFIX(T a, T b) {            \
    if (b == 0) return fmod##SUFFIX(a, b);            \
    T mod = fmod##SUFFIX(a, b);                       \
    if (mod != 0) {                                   \
      if ((b < 0) != (mod < 0)) mod += b;             \
    } else {                                          \
      mod = copysign##SUFFIX(0, b);                   \
    }                                                 \
    return mod;                                       \
  }                                                   \
  static inline T maximum_##SUFFIX(T x, T y) {        \
    return (x >= y || isnan(x)) ? x : y;              \
  }                                                   \
  static inline T minimum_##SUFFIX(T x, T y) {        \
    return (x <= y || isnan(x)) ? x : y;              \
  }
DEFINE_DIVMOD(double, )
DEFINE_DIVMOD(float, f)

/* Instantiates NAME_<dtype> for the integer dtypes: computed in int64_t,
 * uint64 in uint64_t with EXPR_U. Same-dtype results, or bool ones. */
#define INT_SAME_U(NAME, EXPR, EXPR_U)                                                         \
  ASC_BINARY_LOOP(NAME##_INT8, int8_t, int8_t, int64_t, ASC_LOAD_I, ASC_STORE_I8, EXPR)        \
  ASC_BINARY_LOOP(NAME##_UINT8, uint8_t, uint8_t, int64_t, ASC_LOAD_I, ASC_STORE_U8, EXPR)     \
  ASC_BINARY_LOOP(NAME##_INT16, int16_t, int16_t, int64_t, ASC_LOAD_I, ASC_STORE_I16, EXPR)    \
  ASC_BINARY_LOOP(NAME##_INT32, int32_t, int32_t, int64_t, ASC_LOAD_I, ASC_STORE_I32, EXPR)    \
  ASC_BINARY_LOOP(NAME##_INT64, int64_t, int64_t, int64_t, ASC_LOAD_I, ASC_STORE_I64, EXPR)    \
  ASC_BINARY_LOOP(NAME##_UINT16, uint16_t, uint16_t, int64_t, ASC_LOAD_I, ASC_STORE_U16, EXPR) \
  ASC_BINARY_LOOP(NAME##_UINT32, uint32_t, uint32_t, int64_t, ASC_LOAD_I, ASC_STORE_U32, EXPR) \
  ASC_BINARY_LOOP(NAME##_UINT64, uint64_t, uint64_t, uint64_t, ASC_LOAD_U, ASC_STORE_U64, EXPR_U)
#define INT_SAME(NAME, EXPR) INT_SAME_U(NAME, EXPR, EXPR)
#define INT_BOOL(NAME, EXPR)                                                                      \
  ASC_BINARY_LOOP(NAME##_INT8, int8_t, asc_bool_t, int64_t, ASC_LOAD_I, ASC_STORE_BOOL, EXPR)     \
  ASC_BINARY_LOOP(NAME##_UINT8, uint8_t, asc_bool_t, int64_t, ASC_LOAD_I, ASC_STORE_BOOL, EXPR)   \
  ASC_BINARY_LOOP(NAME##_INT16, int16_t, asc_bool_t, int64_t, ASC_LOAD_I, ASC_STORE_BOOL, EXPR)   \
  ASC_BINARY_LOOP(NAME##_INT32, int32_t, asc_bool_t, int64_t, ASC_LOAD_I, ASC_STORE_BOOL, EXPR)   \
  ASC_BINARY_LOOP(NAME##_INT64, int64_t, asc_bool_t, int64_t, ASC_LOAD_I, ASC_STORE_BOOL, EXPR)   \
  ASC_BINARY_LOOP(NAME##_UINT16, uint16_t, asc_bool_t, int64_t, ASC_LOAD_I, ASC_STORE_BOOL, EXPR) \
  ASC_BINARY_LOOP(NAME##_UINT32, uint32_t, asc_bool_t, int64_t, ASC_LOAD_I, ASC_STORE_BOOL, EXPR) \
  ASC_BINARY_LOOP(NAME##_UINT64, uint64_t, asc_bool_t, uint64_t, ASC_LOAD_U, ASC_STORE_BOOL, EXPR)
#define BOOL_LOOP(NAME, OT, STORE, EXPR) \
  ASC_BINARY_LOOP(NAME##_BOOL, asc_bool_t, OT, int64_t, ASC_LOAD_I, STORE, EXPR)

/* Floats: float16/bfloat16 compute in float32 and round once per op, as
 * NumPy does for float16. EXPR_F is the float expression, EXPR_D double's. */
#define FLOAT_SAME(NAME, EXPR_F, EXPR_D)                                                          \
  ASC_BINARY_LOOP(NAME##_FLOAT16, uint16_t, uint16_t, float, ASC_LOAD_F16, ASC_STORE_F16, EXPR_F) \
  ASC_BINARY_LOOP(NAME##_BFLOAT16, uint16_t, uint16_t, float, ASC_LOAD_BF16, ASC_STORE_BF16,      \
                  EXPR_F)                                                                         \
  ASC_BINARY_LOOP(NAME##_FLOAT32, float, float, float, ASC_LOAD_ID, ASC_STORE_ID, EXPR_F)         \
  ASC_BINARY_LOOP(NAME##_FLOAT64, double, double, double, ASC_LOAD_ID, ASC_STORE_ID, EXPR_D)
#define FLOAT_BOOL(NAME, EXPR)                                                                     \
  ASC_BINARY_LOOP(NAME##_FLOAT16, uint16_t, asc_bool_t, float, ASC_LOAD_F16, ASC_STORE_BOOL, EXPR) \
  ASC_BINARY_LOOP(NAME##_BFLOAT16, uint16_t, asc_bool_t, float, ASC_LOAD_BF16, ASC_STORE_BOOL,     \
                  EXPR)                                                                            \
  ASC_BINARY_LOOP(NAME##_FLOAT32, float, asc_bool_t, float, ASC_LOAD_ID, ASC_STORE_BOOL, EXPR)     \
  ASC_BINARY_LOOP(NAME##_FLOAT64, double, asc_bool_t, double, ASC_LOAD_ID, ASC_STORE_BOOL, EXPR)

/* complex64 computes in float complex, complex128 in double complex, with
 * C's Annex G multiplication and division (infinities stay infinite). */
#define COMPLEX_SAME(NAME, EXPR_F, EXPR_D)                                                      \
  ASC_BINARY_LOOP(NAME##_COMPLEX64, asc_c64_t, asc_c64_t, asc_c64_t, ASC_LOAD_ID, ASC_STORE_ID, \
                  EXPR_F)                                                                       \
  ASC_BINARY_LOOP(NAME##_COMPLEX128, asc_c128_t, asc_c128_t, asc_c128_t, ASC_LOAD_ID,           \
                  ASC_STORE_ID, EXPR_D)
#define COMPLEX_BOOL(NAME, EXPR)                                                                   \
  ASC_BINARY_LOOP(NAME##_COMPLEX64, asc_c64_t, asc_bool_t, asc_c64_t, ASC_LOAD_ID, ASC_STORE_BOOL, \
                  EXPR)                                                                            \
  ASC_BINARY_LOOP(NAME##_COMPLEX128, asc_c128_t, asc_bool_t, asc_c128_t, ASC_LOAD_ID,              \
                  ASC_STORE_BOOL, EXPR)

/* NumPy's complex power: x**0 is 1 (even for 0 and NaN bases), small whole
 * real exponents multiply out exactly, the rest is cpow. */
#define DEFINE_CPOW(T, SUFFIX, REAL, IMAG, MAKE)                          \
  static inline T cpow_##SUFFIX(T x, T y) {                               \
    if (REAL(y) == 0 && IMAG(y) == 0) return MAKE(1, 0);                  \
    if (IMAG(y) == 0 && REAL(y) == (int)REAL(y) && fabs(REAL(y)) < 100) { \
      int n = (int)REAL(y);                                               \
      T r = MAKE(1, 0), b = x;                                            \
      for (int e = n < 0 ? -n : n; e > 0; e >>= 1, b = b * b)             \
        if (e & 1) r = r * b;                                             \
      return n < 0 ? MAKE(1, 0) / r : r;                                  \
    }                                                                     \
    return cpow##SUFFIX(x, y);                                            \
  }
DEFINE_CPOW(asc_c64_t, f, crealf, cimagf, ASC_C64)
DEFINE_CPOW(asc_c128_t, , creal, cimag, ASC_C128)

/* Arithmetic. */
BOOL_LOOP(add, asc_bool_t, ASC_STORE_BOOL, x | y)
INT_SAME(add, ASC_WRAP((uint64_t)x + (uint64_t)y))
FLOAT_SAME(add, x + y, x + y)
INT_SAME(sub, ASC_WRAP((uint64_t)x - (uint64_t)y))
FLOAT_SAME(sub, x - y, x - y)
BOOL_LOOP(mul, asc_bool_t, ASC_STORE_BOOL, x &y)
INT_SAME(mul, ASC_WRAP((uint64_t)x *(uint64_t)y))
FLOAT_SAME(mul, x *y, x *y)
FLOAT_SAME(div, x / y, x / y)
INT_SAME_U(floor_div, floor_div_i(x, y), floor_div_u(x, y))
FLOAT_SAME(floor_div, floor_div_f(x, y), floor_div_(x, y))
INT_SAME_U(mod, mod_i(x, y), mod_u(x, y))
FLOAT_SAME(mod, mod_f(x, y), mod_(x, y))
FLOAT_SAME(pow, powf(x, y), pow(x, y))
BOOL_LOOP(maximum, asc_bool_t, ASC_STORE_BOOL, x | y)
INT_SAME(maximum, x > y ? x : y)
FLOAT_SAME(maximum, maximum_f(x, y), maximum_(x, y))
BOOL_LOOP(minimum, asc_bool_t, ASC_STORE_BOOL, x &y)
INT_SAME(minimum, x < y ? x : y)
FLOAT_SAME(minimum, minimum_f(x, y), minimum_(x, y))
COMPLEX_SAME(add, x + y, x + y)
COMPLEX_SAME(sub, x - y, x - y)
COMPLEX_SAME(mul, x *y, x *y)
COMPLEX_SAME(div, x / y, x / y)
COMPLEX_SAME(pow, cpow_f(x, y), cpow_(x, y))

/* Comparisons and logic: bool results. */
#define COMPARE(NAME, EXPR)                         \
  BOOL_LOOP(NAME, asc_bool_t, ASC_STORE_BOOL, EXPR) \
  INT_BOOL(NAME, EXPR)                              \
  FLOAT_BOOL(NAME, EXPR)
COMPARE(eq, x == y)
COMPARE(ne, x != y)
COMPARE(lt, x < y)
COMPARE(le, x <= y)
COMPARE(gt, x > y)
COMPARE(ge, x >= y)
COMPARE(logical_and, (x != 0) && (y != 0))
COMPARE(logical_or, (x != 0) || (y != 0))
COMPARE(logical_xor, (x != 0) != (y != 0))
COMPLEX_BOOL(eq, x == y)
COMPLEX_BOOL(ne, x != y)
COMPLEX_BOOL(logical_and, (x != 0) && (y != 0))
COMPLEX_BOOL(logical_or, (x != 0) || (y != 0))
COMPLEX_BOOL(logical_xor, (x != 0) != (y != 0))

/* Real float functions. logaddexp is NumPy's: equal arguments (infinities
 * included) give x + log 2, otherwise the larger plus log1p(exp(-|d|)). */
#define DEFINE_LOGADDEXP(T, SUFFIX, LN2)                  \
  static inline T logaddexp_##SUFFIX(T x, T y) {          \
    if (x == y) return x + LN2;                           \
    T d = x - y;                                          \
    if (d > 0) return x + log1p##SUFFIX(exp##SUFFIX(-d)); \
    if (d <= 0) return y + log1p##SUFFIX(exp##SUFFIX(d)); \
    return d; /* NaN */                                   \
  }
DEFINE_LOGADDEXP(double, , 0.693147180559945309417232121458176568)
DEFINE_LOGADDEXP(float, f, 0.693147180559945309417232121458176568f)
FLOAT_SAME(atan2, atan2f(x, y), atan2(x, y))
FLOAT_SAME(copysign, copysignf(x, y), copysign(x, y))
FLOAT_SAME(hypot, hypotf(x, y), hypot(x, y))
FLOAT_SAME(logaddexp, logaddexp_f(x, y), logaddexp_(x, y))

/* nextafter steps in the storage format: for float16 and bfloat16 one step
 * of their own 16 bits (sign and magnitude, so a step away from zero adds
 * one to the bits), not float32's. */
static inline uint16_t next_bits16(uint16_t xb, uint16_t yb, float x, float y) {
  if (isnan(x)) return xb;
  if (isnan(y)) return yb;
  if (x == y) return xb; /* NumPy's float16 keeps x (-0 towards 0 stays -0) */
  if (x == 0) return (uint16_t)((y < 0 ? 0x8000u : 0) | 1u);
  return (uint16_t)((x < y) == !(xb & 0x8000u) ? xb + 1 : xb - 1);
}
static inline uint16_t nextafter_f16(uint16_t x, uint16_t y) {
  return next_bits16(x, y, asc_f16_to_f32(x), asc_f16_to_f32(y));
}
static inline uint16_t nextafter_bf16(uint16_t x, uint16_t y) {
  return next_bits16(x, y, asc_bf16_to_f32(x), asc_bf16_to_f32(y));
}
#define LOAD_BITS(v) (v)
ASC_BINARY_LOOP(nextafter_FLOAT16, uint16_t, uint16_t, uint16_t, LOAD_BITS, LOAD_BITS,
                nextafter_f16(x, y))
ASC_BINARY_LOOP(nextafter_BFLOAT16, uint16_t, uint16_t, uint16_t, LOAD_BITS, LOAD_BITS,
                nextafter_bf16(x, y))
ASC_BINARY_LOOP(nextafter_FLOAT32, float, float, float, ASC_LOAD_ID, ASC_STORE_ID, nextafterf(x, y))
ASC_BINARY_LOOP(nextafter_FLOAT64, double, double, double, ASC_LOAD_ID, ASC_STORE_ID,
                nextafter(x, y))

/* Bits. */
BOOL_LOOP(bitwise_and, asc_bool_t, ASC_STORE_BOOL, x &y)
INT_SAME(bitwise_and, x &y)
BOOL_LOOP(bitwise_or, asc_bool_t, ASC_STORE_BOOL, x | y)
INT_SAME(bitwise_or, x | y)
BOOL_LOOP(bitwise_xor, asc_bool_t, ASC_STORE_BOOL, x ^ y)
INT_SAME(bitwise_xor, x ^ y)
#define SHIFTS(NAME, FN, FN_U)                                                                    \
  ASC_BINARY_LOOP(NAME##_INT8, int8_t, int8_t, int64_t, ASC_LOAD_I, ASC_STORE_I8, FN(x, y, 8))    \
  ASC_BINARY_LOOP(NAME##_UINT8, uint8_t, uint8_t, int64_t, ASC_LOAD_I, ASC_STORE_U8, FN(x, y, 8)) \
  ASC_BINARY_LOOP(NAME##_INT16, int16_t, int16_t, int64_t, ASC_LOAD_I, ASC_STORE_I16,             \
                  FN(x, y, 16))                                                                   \
  ASC_BINARY_LOOP(NAME##_INT32, int32_t, int32_t, int64_t, ASC_LOAD_I, ASC_STORE_I32,             \
                  FN(x, y, 32))                                                                   \
  ASC_BINARY_LOOP(NAME##_INT64, int64_t, int64_t, int64_t, ASC_LOAD_I, ASC_STORE_I64,             \
                  FN(x, y, 64))                                                                   \
  ASC_BINARY_LOOP(NAME##_UINT16, uint16_t, uint16_t, int64_t, ASC_LOAD_I, ASC_STORE_U16,          \
                  FN(x, y, 16))                                                                   \
  ASC_BINARY_LOOP(NAME##_UINT32, uint32_t, uint32_t, int64_t, ASC_LOAD_I, ASC_STORE_U32,          \
                  FN(x, y, 32))                                                                   \
  ASC_BINARY_LOOP(NAME##_UINT64, uint64_t, uint64_t, uint64_t, ASC_LOAD_U, ASC_STORE_U64,         \
                  FN_U(x, y, 64))
SHIFTS(left_shift, shift_left_i, shift_left_u)
SHIFTS(right_shift, shift_right_i, shift_right_u)

static inline bool is_negative(int64_t v) {
  return v < 0;
}

/* Integer powers: exponentiation by squaring, wrapping; a negative
 * exponent is an error, as in NumPy. */
static inline int64_t pow_i(int64_t base, uint64_t exp) {
  uint64_t result = 1, b = (uint64_t)base;
  while (exp > 0) {
    if (exp & 1) result *= b;
    b *= b;
    exp >>= 1;
  }
  return (int64_t)result;
}

#define POW_INT(SUFFIX, T, STORE, SIGNED)                                                        \
  static asc_status pow_##SUFFIX(char *const *p, const int64_t *s, int64_t n, const void *ctx) { \
    (void)ctx;                                                                                   \
    char *o = p[0];                                                                              \
    const char *a = p[1], *b = p[2];                                                             \
    for (int64_t k = 0; k < n; k++, o += s[0], a += s[1], b += s[2]) {                           \
      T x, y;                                                                                    \
      memcpy(&x, a, sizeof x);                                                                   \
      memcpy(&y, b, sizeof y);                                                                   \
      if (SIGNED && is_negative((int64_t)y))                                                     \
        return asc_error(ASC_ERR_INVALID_VALUE,                                                  \
                         "integers to negative integer powers are not allowed");                 \
      T r = STORE(pow_i((int64_t)x, (uint64_t)y));                                               \
      memcpy(o, &r, sizeof r);                                                                   \
    }                                                                                            \
    return ASC_OK;                                                                               \
  }
POW_INT(INT8, int8_t, ASC_STORE_I8, 1)
POW_INT(UINT8, uint8_t, ASC_STORE_U8, 0)
POW_INT(INT16, int16_t, ASC_STORE_I16, 1)
POW_INT(INT32, int32_t, ASC_STORE_I32, 1)
POW_INT(INT64, int64_t, ASC_STORE_I64, 1)
POW_INT(UINT16, uint16_t, ASC_STORE_U16, 0)
POW_INT(UINT32, uint32_t, ASC_STORE_U32, 0)
POW_INT(UINT64, uint64_t, ASC_STORE_U64, 0)

#define ROW_FLOAT(NAME) \
  { ASC_ROW_FLOAT_ONLY(NAME) }
#define ROW_INT_ONLY(NAME) \
  { ASC_ROW_INTEGER_ONLY(NAME) }

/* The loop for each op and compute dtype; NULL where the op does not apply. */
static const asc_ew_loop loops[ASC_BINARY_OP_COUNT][ASC_DTYPE_COUNT] = {
    [ASC_OP_ADD] = ASC_ROW_ALL_C(add),
    [ASC_OP_SUB] = ASC_ROW_NUMERIC_C(sub),
    [ASC_OP_MUL] = ASC_ROW_ALL_C(mul),
    [ASC_OP_DIV] = ASC_ROW_FLOAT_C(div),
    [ASC_OP_FLOOR_DIV] = ASC_ROW_NUMERIC(floor_div),
    [ASC_OP_MOD] = ASC_ROW_NUMERIC(mod),
    [ASC_OP_POW] = ASC_ROW_NUMERIC_C(pow),
    [ASC_OP_MAXIMUM] = ASC_ROW_ALL(maximum),
    [ASC_OP_MINIMUM] = ASC_ROW_ALL(minimum),
    [ASC_OP_EQ] = ASC_ROW_ALL_C(eq),
    [ASC_OP_NE] = ASC_ROW_ALL_C(ne),
    [ASC_OP_LT] = ASC_ROW_ALL(lt),
    [ASC_OP_LE] = ASC_ROW_ALL(le),
    [ASC_OP_GT] = ASC_ROW_ALL(gt),
    [ASC_OP_GE] = ASC_ROW_ALL(ge),
    [ASC_OP_LOGICAL_AND] = ASC_ROW_ALL_C(logical_and),
    [ASC_OP_LOGICAL_OR] = ASC_ROW_ALL_C(logical_or),
    [ASC_OP_LOGICAL_XOR] = ASC_ROW_ALL_C(logical_xor),
    [ASC_OP_BITWISE_AND] = ASC_ROW_INTEGER(bitwise_and),
    [ASC_OP_BITWISE_OR] = ASC_ROW_INTEGER(bitwise_or),
    [ASC_OP_BITWISE_XOR] = ASC_ROW_INTEGER(bitwise_xor),
    [ASC_OP_LEFT_SHIFT] = ROW_INT_ONLY(left_shift),
    [ASC_OP_RIGHT_SHIFT] = ROW_INT_ONLY(right_shift),
    [ASC_OP_ATAN2] = ROW_FLOAT(atan2),
    [ASC_OP_COPYSIGN] = ROW_FLOAT(copysign),
    [ASC_OP_HYPOT] = ROW_FLOAT(hypot),
    [ASC_OP_LOGADDEXP] = ROW_FLOAT(logaddexp),
    [ASC_OP_NEXTAFTER] = ROW_FLOAT(nextafter),
};

static const char *const op_names[ASC_BINARY_OP_COUNT] = {
    "add",         "subtract",   "multiply",      "true_divide", "floor_divide", "remainder",
    "power",       "maximum",    "minimum",       "equal",       "not_equal",    "less",
    "less_equal",  "greater",    "greater_equal", "logical_and", "logical_or",   "logical_xor",
    "bitwise_and", "bitwise_or", "bitwise_xor",   "left_shift",  "right_shift",  "arctan2",
    "copysign",    "hypot",      "logaddexp",     "nextafter",
};

const char *asc_binary_op_name(asc_binary_op op) {
  return (unsigned)op < ASC_BINARY_OP_COUNT ? op_names[op] : "unknown";
}

asc_status asc_binary_dtypes(asc_binary_op op, asc_dtype a, asc_dtype b, asc_dtype *compute,
                             asc_dtype *result) {
  if ((unsigned)op >= ASC_BINARY_OP_COUNT)
    return asc_error(ASC_ERR_INVALID_VALUE, "unknown binary op %d", (int)op);
  asc_dtype p = asc_dtype_promote(a, b);
  if (p == ASC_DTYPE_COUNT) return asc_error(ASC_ERR_TYPE, "invalid operand dtype");
  if (asc_dtype_is_complex(p) && !loops[op][p])
    return asc_error(ASC_ERR_TYPE, "%s is not supported for complex operands (%s and %s)",
                     op_names[op], asc_dtype_name(a), asc_dtype_name(b));
  switch (op) {
    case ASC_OP_SUB:
      if (p == ASC_BOOL)
        return asc_error(ASC_ERR_TYPE,
                         "boolean subtract is not supported: use ^ or logical_xor instead");
      break;
    case ASC_OP_DIV:
      if (!asc_dtype_is_float(p) && !asc_dtype_is_complex(p)) p = ASC_FLOAT64;
      break;
    case ASC_OP_ATAN2:
    case ASC_OP_COPYSIGN:
    case ASC_OP_HYPOT:
    case ASC_OP_LOGADDEXP:
    case ASC_OP_NEXTAFTER:
      p = asc_dtype_to_float(p);
      break;
    case ASC_OP_FLOOR_DIV:
    case ASC_OP_MOD:
    case ASC_OP_POW:
      if (p == ASC_BOOL) p = ASC_INT8;
      break;
    case ASC_OP_LEFT_SHIFT:
    case ASC_OP_RIGHT_SHIFT:
      if (p == ASC_BOOL) p = ASC_INT8;
      /* fall through */
    case ASC_OP_BITWISE_AND:
    case ASC_OP_BITWISE_OR:
    case ASC_OP_BITWISE_XOR:
      if (asc_dtype_is_float(p))
        return asc_error(ASC_ERR_TYPE, "%s is not supported for %s and %s operands", op_names[op],
                         asc_dtype_name(a), asc_dtype_name(b));
      break;
    default:
      break;
  }
  *compute = p;
  *result = op >= ASC_OP_EQ && op <= ASC_OP_LOGICAL_XOR ? ASC_BOOL : p;
  return ASC_OK;
}

asc_status asc_binary_kernel(asc_binary_op op, asc_dtype a, asc_dtype b, asc_ew_kernel *kernel,
                             asc_dtype *compute, asc_dtype *result) {
  asc_status st = asc_binary_dtypes(op, a, b, compute, result);
  if (st) return st;
  *kernel = (asc_ew_kernel){.loop = loops[op][*compute], .name = op_names[op]};
  return ASC_OK;
}

asc_status asc_binary(asc_binary_op op, const asc_tensor *a, const asc_tensor *b, asc_tensor *out) {
  asc_dtype compute, result;
  asc_ew_kernel kernel;
  asc_status st = asc_tensor_check(a);
  if (!st) st = asc_tensor_check(b);
  if (!st) st = asc_binary_kernel(op, a->dtype, b->dtype, &kernel, &compute, &result);
  const asc_tensor *operands[2] = {a, b};
  if (!st && out->storage) st = asc_ew_check_out(op_names[op], 2, operands, result, out);
  if (st) return st;
  const asc_dtype dtypes[2] = {compute, compute};
  return asc_ew_run(&kernel, 2, operands, dtypes, result, out);
}
