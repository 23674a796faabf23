/* Element types, their conversions, and NumPy 2 type promotion. */
#ifndef ASC_DTYPE_H
#define ASC_DTYPE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "asc/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The first ten are ordered by kind (bool < integers < floats) and, within
 * a kind, by size. The wider unsigned integers and the complex types came
 * later and follow, so that the values of the others stay what they were
 * (tables indexed by dtype keep their rows, and kernels' dtype codes are
 * these values); code asks asc_dtype_is_* about kinds, never compares
 * values. */
typedef enum asc_dtype {
  ASC_BOOL,
  ASC_INT8,
  ASC_UINT8,
  ASC_INT16,
  ASC_INT32,
  ASC_INT64,
  ASC_FLOAT16,
  ASC_BFLOAT16,
  ASC_FLOAT32,
  ASC_FLOAT64,
  ASC_UINT16,
  ASC_UINT32,
  ASC_UINT64,
  ASC_COMPLEX64,  /* two float32: real, imaginary */
  ASC_COMPLEX128, /* two float64 */
  ASC_DTYPE_COUNT
} asc_dtype;

/* Kinds of Python scalars, which are "weak" under NEP 50: they adopt the
 * other operand's dtype unless their kind is higher. */
typedef enum asc_scalar_kind {
  ASC_SCALAR_BOOL,
  ASC_SCALAR_INT,
  ASC_SCALAR_FLOAT,
  ASC_SCALAR_COMPLEX
} asc_scalar_kind;

size_t asc_dtype_size(asc_dtype dtype);
/* "float32", "bfloat16", ...; "invalid" for an unknown value. Static. */
const char *asc_dtype_name(asc_dtype dtype);
asc_status asc_dtype_from_name(const char *name, asc_dtype *out);
bool asc_dtype_valid(asc_dtype dtype);
bool asc_dtype_is_float(asc_dtype dtype); /* real floating point; complex excluded */
bool asc_dtype_is_complex(asc_dtype dtype);
bool asc_dtype_is_integer(asc_dtype dtype);  /* bool excluded */
bool asc_dtype_is_signed(asc_dtype dtype);   /* floats and complex count as signed */
bool asc_dtype_is_unsigned(asc_dtype dtype); /* uint8 .. uint64 */

/* The dtype both operands convert to (NumPy 2 rules; bfloat16 as in
 * docs/dtypes.md). */
asc_dtype asc_dtype_promote(asc_dtype a, asc_dtype b);
/* The dtype a weak Python scalar of `kind` takes next to a tensor of
 * `dtype` (NEP 50): int with an integer tensor keeps the tensor's dtype, a
 * float with an integer tensor gives float64, and so on. */
asc_dtype asc_dtype_weak_scalar(asc_dtype tensor_dtype, asc_scalar_kind kind);
/* The float dtype that maths on `dtype` produces (NumPy: int8 -> float16,
 * int16 -> float32, int32 -> float64; floats keep theirs). */
asc_dtype asc_dtype_to_float(asc_dtype dtype);
/* The real dtype of a complex one's parts (complex64 -> float32); other
 * dtypes are returned as they are. */
asc_dtype asc_dtype_to_real(asc_dtype dtype);
/* The complex dtype whose parts have `dtype`'s precision (float16, bfloat16
 * and float32 -> complex64, float64 -> complex128); ASC_DTYPE_COUNT for a
 * dtype that is not a real float or complex. */
asc_dtype asc_dtype_to_complex(asc_dtype dtype);

/* IEEE binary16 and bfloat16 conversions: round to nearest even, NaN stays
 * NaN (quiet), infinities and subnormals exact. */
uint16_t asc_float_to_half(float value);
float asc_half_to_float(uint16_t bits);
uint16_t asc_float_to_bfloat(float value);
float asc_bfloat_to_float(uint16_t bits);
uint16_t asc_double_to_half(double value); /* rounds once, from double */

#ifdef __cplusplus
}
#endif
#endif
