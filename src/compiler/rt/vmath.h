/* --- maths on arrays ---------------------------------------------------------- */
/* Transcendental functions of whole operands go through the table the
 * launcher lends (k->vmath: libasc's SLEEF functions, 1 ulp, vectorised
 * for the CPU, the same ones eager tensor operations use), so that a
 * kernel stays C that needs only libc and libm and still computes exp or
 * tanh at vector speed. Without a table (or an entry) the C library's
 * function serves, one value at a time. float16 computes in float32 and
 * rounds once per element, as the vector unit does. */
static inline float asc_k_vm_libm(int fn, float x) {
  switch (fn) {
    case ASC_K_VM_EXP:
      return expf(x);
    case ASC_K_VM_LOG:
      return logf(x);
    case ASC_K_VM_SQRT:
      return sqrtf(x);
    case ASC_K_VM_SIN:
      return sinf(x);
    case ASC_K_VM_COS:
      return cosf(x);
    case ASC_K_VM_TAN:
      return tanf(x);
    case ASC_K_VM_TANH:
      return tanhf(x);
    default:
      return erff(x);
  }
}

/* dst[i] = fn(src[i]) for n float32 values; dst is src or apart from it. */
static inline void asc_k_vm_float32(const asc_k_ctx *k, int fn, float *dst, const float *src,
                                    int64_t n) {
  asc_k_vmath_fn f = k->vmath && fn >= 0 && fn < ASC_K_VM_COUNT ? k->vmath[fn] : NULL;
  if (f && n > 0) {
    f(dst, src, n);
    return;
  }
  for (int64_t i = 0; i < n; i++) dst[i] = asc_k_vm_libm(fn, src[i]);
}

#define ASC_K_VM_CHUNK 256 /* float32 values converted at a time, on the stack */

/* float16 through float32, a chunk at a time. */
static inline void asc_k_vm_float16(const asc_k_ctx *k, int fn, uint16_t *dst, const uint16_t *src,
                                    int64_t n) {
  float buf[ASC_K_VM_CHUNK];
  for (int64_t i = 0; i < n; i += ASC_K_VM_CHUNK) {
    int64_t m = n - i < ASC_K_VM_CHUNK ? n - i : ASC_K_VM_CHUNK;
    for (int64_t j = 0; j < m; j++) buf[j] = asc_k_h2f(src[i + j]);
    asc_k_vm_float32(k, fn, buf, buf, m);
    for (int64_t j = 0; j < m; j++) dst[i + j] = asc_k_f2h(buf[j]);
  }
}

/* Whether byte ranges [a, a + n) and [b, b + n) are the same or apart: the
 * table's functions work a vector at a time, so a partial overlap keeps
 * the element-by-element loop. */
static inline int asc_k_vm_disjoint(int64_t a, int64_t b, int64_t n) {
  return a == b || a + n <= b || b + n <= a;
}
