/* The GCC builtins the runtime uses, for TinyCC: the fast first tier of a
 * kernel's build (jit.c) compiles with tcc, which has no __atomic or
 * overflow builtins. Empty for every other compiler. Atomics follow x86-64
 * rules: aligned loads and stores of 4 and 8 bytes are atomic and ordered
 * (TSO), a sequentially consistent store adds a fence, and every
 * read-modify-write is a locked compare-and-swap. The SIMD paths of the
 * runtime test __GNUC__/__SSE2__, which tcc does not define, so tcc builds
 * the portable loops, whose results the SIMD paths match bit for bit. */
#ifdef __TINYC__
/* tcc says C99: glibc then hides C11's timespec_get */
#ifndef _ISOC11_SOURCE
#define _ISOC11_SOURCE 1
#endif
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define __ATOMIC_RELAXED 0
#define __ATOMIC_ACQUIRE 2
#define __ATOMIC_RELEASE 3
#define __ATOMIC_ACQ_REL 4
#define __ATOMIC_SEQ_CST 5
#define __builtin_expect(x, expected) (x)

/* A locked compare-and-swap of one N-byte word: on failure *expected
 * receives what p holds. R is the register constraint of the new value
 * ("q" for a byte: a register with a byte form). */
#define ASC_TCC_CAS(N, T, INSN, R)                                          \
  static inline int asc_tcc_cas##N(volatile T *p, T *expected, T desired) { \
    T prev = *expected;                                                     \
    unsigned char ok;                                                       \
    __asm__ __volatile__("lock; " INSN " %3, %1\n\tsete %0"                 \
                         : "=q"(ok), "+m"(*p), "+a"(prev)                   \
                         : R(desired)                                       \
                         : "memory", "cc");                                 \
    if (!ok) *expected = prev;                                              \
    return ok;                                                              \
  }
ASC_TCC_CAS(8, uint64_t, "cmpxchgq", "r")
ASC_TCC_CAS(4, uint32_t, "cmpxchgl", "r")
ASC_TCC_CAS(2, uint16_t, "cmpxchgw", "r")
ASC_TCC_CAS(1, uint8_t, "cmpxchgb", "q")
#undef ASC_TCC_CAS
/* Compare-and-swap of the n (1, 2, 4 or 8) bytes at p; on failure *expected
 * receives what p holds, as __atomic_compare_exchange_n does. */
static inline int asc_tcc_cas(void *p, void *expected, const void *desired, size_t n) {
  if (n == 8) {
    uint64_t d;
    memcpy(&d, desired, 8);
    return asc_tcc_cas8((volatile uint64_t *)p, (uint64_t *)expected, d);
  }
  if (n == 4) {
    uint32_t d;
    memcpy(&d, desired, 4);
    return asc_tcc_cas4((volatile uint32_t *)p, (uint32_t *)expected, d);
  }
  if (n == 2) {
    uint16_t d;
    memcpy(&d, desired, 2);
    return asc_tcc_cas2((volatile uint16_t *)p, (uint16_t *)expected, d);
  }
  uint8_t d;
  memcpy(&d, desired, 1);
  return asc_tcc_cas1((volatile uint8_t *)p, (uint8_t *)expected, d);
}
static inline void asc_tcc_fence(void) {
  __asm__ __volatile__("mfence" ::: "memory");
}
#define __atomic_load_n(p, order) (*(volatile __typeof__(*(p)) *)(p))
#define __atomic_store_n(p, v, order)        \
  do {                                       \
    *(volatile __typeof__(*(p)) *)(p) = (v); \
    asc_tcc_fence();                         \
  } while (0)
#define __atomic_compare_exchange_n(p, e, d, weak, success, failure) \
  ({                                                                 \
    __typeof__(*(p)) desired_ = (d);                                 \
    asc_tcc_cas((void *)(p), (void *)(e), &desired_, sizeof *(p));   \
  })
#define __atomic_add_fetch(p, v, order)                           \
  ({                                                              \
    __typeof__(*(p)) old_ = __atomic_load_n(p, 0), new_;          \
    do new_ = old_ + (v);                                         \
    while (!asc_tcc_cas((void *)(p), &old_, &new_, sizeof *(p))); \
    new_;                                                         \
  })

/* The runtime checks only int64_t arithmetic for overflow (rt/core.h). */
static inline int asc_tcc_add_i64(int64_t a, int64_t b, int64_t *r) {
  if ((b > 0 && a > INT64_MAX - b) || (b < 0 && a < INT64_MIN - b)) return 1;
  *r = a + b;
  return 0;
}
static inline int asc_tcc_sub_i64(int64_t a, int64_t b, int64_t *r) {
  if ((b < 0 && a > INT64_MAX + b) || (b > 0 && a < INT64_MIN + b)) return 1;
  *r = a - b;
  return 0;
}
static inline int asc_tcc_mul_i64(int64_t a, int64_t b, int64_t *r) {
  if (a == 0 || b == 0) {
    *r = 0;
    return 0;
  }
  if ((a == -1 && b == INT64_MIN) || (b == -1 && a == INT64_MIN)) return 1;
  if (a > 0 ? (b > 0 ? a > INT64_MAX / b : b < INT64_MIN / a)
            : (b > 0 ? a < INT64_MIN / b : a < INT64_MAX / b))
    return 1;
  *r = a * b;
  return 0;
}
#define __builtin_add_overflow(a, b, r) asc_tcc_add_i64((a), (b), (r))
#define __builtin_sub_overflow(a, b, r) asc_tcc_sub_i64((a), (b), (r))
#define __builtin_mul_overflow(a, b, r) asc_tcc_mul_i64((a), (b), (r))
#endif
