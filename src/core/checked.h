/* Checked integer arithmetic for sizes, offsets, shapes and strides.
 *
 * The one place where libasc and the binding do arithmetic on numbers a user
 * (or a foreign DLPack / buffer producer) chose: every helper reports an
 * overflow instead of wrapping, so a hostile shape becomes an error rather
 * than a small wrong size and an out-of-bounds access. Each returns true on
 * overflow; *out then holds the wrapped value, which callers must not use. */
#ifndef ASC_CORE_CHECKED_H
#define ASC_CORE_CHECKED_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

static inline bool asc_add_overflow_i64(int64_t a, int64_t b, int64_t *out) {
  return __builtin_add_overflow(a, b, out);
}

static inline bool asc_sub_overflow_i64(int64_t a, int64_t b, int64_t *out) {
  return __builtin_sub_overflow(a, b, out);
}

static inline bool asc_mul_overflow_i64(int64_t a, int64_t b, int64_t *out) {
  return __builtin_mul_overflow(a, b, out);
}

static inline bool asc_add_overflow_size(size_t a, size_t b, size_t *out) {
  return __builtin_add_overflow(a, b, out);
}

static inline bool asc_mul_overflow_size(size_t a, size_t b, size_t *out) {
  return __builtin_mul_overflow(a, b, out);
}

/* base + off for an address and a signed byte offset. */
static inline bool asc_offset_overflow_uptr(uintptr_t base, int64_t off, uintptr_t *out) {
  return off < 0 ? __builtin_sub_overflow(base, (uint64_t)0 - (uint64_t)off, out)
                 : __builtin_add_overflow(base, (uint64_t)off, out);
}

/* Narrowing of a user's 64-bit value to int: true if it does not fit. */
static inline bool asc_narrow_overflow_int(int64_t v, int *out) {
  return __builtin_add_overflow(v, 0, out);
}

/* The lowest and highest element a view of `ndim` axes reaches, relative to
 * its first element, in units of its strides: (shape[i] - 1) * strides[i]
 * summed by sign. Only for a view with no empty axis. True on overflow. */
static inline bool asc_span_overflow(int ndim, const int64_t *shape, const int64_t *strides,
                                     int64_t *lo, int64_t *hi) {
  *lo = *hi = 0;
  for (int i = 0; i < ndim; i++) {
    int64_t span;
    if (asc_sub_overflow_i64(shape[i], 1, &span) || asc_mul_overflow_i64(span, strides[i], &span))
      return true;
    if (asc_add_overflow_i64(span < 0 ? *lo : *hi, span, span < 0 ? lo : hi)) return true;
  }
  return false;
}

#endif
