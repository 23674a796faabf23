/* --- data movement --------------------------------------------------------- */
/* The count form of data_copy moves whole 32-byte data blocks only: on the
 * hardware a count that is not a whole number of blocks is rounded down
 * (the partial block is not moved and no error is raised). Checked mode
 * reports such a count (asc_k_chk_blocks); default mode does as the MTE
 * does. Returns the elements of the whole blocks of `count`. */
static inline int64_t asc_k_whole_blocks(int64_t count, int64_t esize) {
  if (count <= 0 || esize <= 0) return count;
  return asc_k_mul(count, esize) / 32 * 32 / esize; /* whole 32-byte data blocks */
}
static inline int asc_k_copy_gm_ub(asc_k_ctx *k, asc_k_lt dst, asc_k_gt src, int64_t count,
                                   int64_t esize, int line) {
  if (asc_k_gm_range(k, &src, 0, count, esize, "data_copy", line)) return 1;
#if ASC_K_CHECKED
  if (asc_k_chk_blocks(k, dst, count, esize, line)) return 1;
#else
  count = asc_k_whole_blocks(count, esize);
#endif
  if (asc_k_ub_use(k, ASC_K_MTE2, dst, count, esize, ASC_K_WRITE, "data_copy", "dst", line))
    return 1;
  asc_k_gm_read(&src, src.lead, k->ub + dst.off, count * esize);
  return 0;
}
/* UB -> GM copies of whole tiles bypass the cache (streaming stores), as
 * the hardware's MTE3 writes global memory without reading it first. */
#if defined(__x86_64__) && defined(__SSE2__)
#include <emmintrin.h>
static inline void asc_k_store_gm(char *dst, const char *src, size_t n) {
  size_t head = (16 - ((uintptr_t)dst & 15)) & 15;
  if (n < 4096 || head > n) {
    memcpy(dst, src, n);
    return;
  }
  memcpy(dst, src, head);
  size_t i = head;
  for (; i + 64 <= n; i += 64) { /* a cache line a turn, unrolled by hand (kernels build at -O2) */
    __m128i a = _mm_loadu_si128((const __m128i *)(src + i)),
            b = _mm_loadu_si128((const __m128i *)(src + i + 16)),
            c = _mm_loadu_si128((const __m128i *)(src + i + 32)),
            d = _mm_loadu_si128((const __m128i *)(src + i + 48));
    _mm_stream_si128((__m128i *)(dst + i), a);
    _mm_stream_si128((__m128i *)(dst + i + 16), b);
    _mm_stream_si128((__m128i *)(dst + i + 32), c);
    _mm_stream_si128((__m128i *)(dst + i + 48), d);
  }
  _mm_sfence();
  memcpy(dst + i, src + i, n - i);
}
#else
static inline void asc_k_store_gm(char *dst, const char *src, size_t n) {
  memcpy(dst, src, n);
}
#endif

static inline int asc_k_copy_ub_gm(asc_k_ctx *k, asc_k_gt dst, asc_k_lt src, int64_t count,
                                   int64_t esize, int line) {
  if (asc_k_gm_range(k, &dst, 0, count, esize, "data_copy", line)) return 1;
#if ASC_K_CHECKED
  if (asc_k_chk_blocks(k, src, count, esize, line)) return 1;
#else
  count = asc_k_whole_blocks(count, esize);
#endif
  if (asc_k_ub_use(k, ASC_K_MTE3, src, count, esize, ASC_K_READ, "data_copy", "src", line))
    return 1;
  return asc_k_gm_store(k, &dst, dst.lead, k->ub + src.off, count * esize, esize, "data_copy",
                        line);
}
static inline int asc_k_copy_ub_ub(asc_k_ctx *k, asc_k_lt dst, asc_k_lt src, int64_t count,
                                   int64_t esize, const char *api, int line) {
  /* UB -> UB runs on the vector unit (MTE1 feeds the cube from L1). */
  if (asc_k_ub_use(k, ASC_K_V, src, count, esize, ASC_K_READ, api, "src", line) ||
      asc_k_ub_use(k, ASC_K_V, dst, count, esize, ASC_K_WRITE, api, "dst", line))
    return 1;
  memmove(k->ub + dst.off, k->ub + src.off, (size_t)(count * esize));
  return 0;
}

/* --- element access ------------------------------------------------------ */
#define ASC_K_ACCESS(SUFFIX, T, LOAD, STORE, CT)                                                  \
  static inline int asc_k_gget_##SUFFIX(asc_k_ctx *k, asc_k_gt g, int64_t i, CT *out, int line) { \
    if (asc_k_gm_range(k, &g, i, 1, (int64_t)sizeof(T), "get_value", line)) return 1;             \
    T v;                                                                                          \
    asc_k_gm_read(&g, asc_k_madd(g.lead, i, (int64_t)sizeof(T)), (char *)&v, (int64_t)sizeof v);  \
    *out = (CT)LOAD(v);                                                                           \
    return 0;                                                                                     \
  }                                                                                               \
  static inline int asc_k_gset_##SUFFIX(asc_k_ctx *k, asc_k_gt g, int64_t i, CT x, int line) {    \
    if (asc_k_gm_range(k, &g, i, 1, (int64_t)sizeof(T), "set_value", line)) return 1;             \
    T v = STORE(x);                                                                               \
    asc_k_gm_put(&g, asc_k_madd(g.lead, i, (int64_t)sizeof(T)), (const char *)&v,                 \
                 (int64_t)sizeof v);                                                              \
    return 0;                                                                                     \
  }                                                                                               \
  static inline int asc_k_lget_##SUFFIX(asc_k_ctx *k, asc_k_lt t, int64_t i, CT *out, int line) { \
    asc_k_lt at = {asc_k_madd(t.off, i, (int64_t)sizeof(T)), asc_k_sub(t.len, i)};                \
    if (i < 0 || asc_k_index_check(k, t, i, "get_value", line) ||                                 \
        asc_k_ub_use(k, ASC_K_S, at, 1, (int64_t)sizeof(T), ASC_K_READ, "get_value",              \
                     "the element", line)) {                                                      \
      if (!k->status) asc_k_fail(k, line, "get_value: negative index %lld", (long long)i);        \
      return 1;                                                                                   \
    }                                                                                             \
    T v;                                                                                          \
    memcpy(&v, k->ub + at.off, sizeof v);                                                         \
    *out = (CT)LOAD(v);                                                                           \
    return 0;                                                                                     \
  }                                                                                               \
  static inline int asc_k_lset_##SUFFIX(asc_k_ctx *k, asc_k_lt t, int64_t i, CT x, int line) {    \
    asc_k_lt at = {asc_k_madd(t.off, i, (int64_t)sizeof(T)), asc_k_sub(t.len, i)};                \
    if (i < 0 || asc_k_index_check(k, t, i, "set_value", line) ||                                 \
        asc_k_ub_use(k, ASC_K_S, at, 1, (int64_t)sizeof(T), ASC_K_WRITE, "set_value",             \
                     "the element", line)) {                                                      \
      if (!k->status) asc_k_fail(k, line, "set_value: negative index %lld", (long long)i);        \
      return 1;                                                                                   \
    }                                                                                             \
    T v = STORE(x);                                                                               \
    memcpy(k->ub + at.off, &v, sizeof v);                                                         \
    return 0;                                                                                     \
  }

#define ASC_K_ID(x) (x)
#define ASC_K_H2F(x) asc_k_h2f(x)
#define ASC_K_F2H(x) asc_k_f2h((float)(x))
#define ASC_K_BF2F(x) ((float)0 + asc_k_bf2f(x))
static inline float asc_k_bf2f(uint16_t b) {
  uint32_t u = (uint32_t)b << 16;
  float f;
  memcpy(&f, &u, sizeof f);
  return f;
}
static inline uint16_t asc_k_f2bf(float x) {
  uint32_t u;
  memcpy(&u, &x, sizeof u);
  if ((u & 0x7fffffffu) > 0x7f800000u) return (uint16_t)(((u >> 16) & 0x8000u) | 0x7fc0u);
  u += 0x7fffu + ((u >> 16) & 1u);
  return (uint16_t)(u >> 16);
}
#define ASC_K_F2BF(x) asc_k_f2bf((float)(x))

ASC_K_ACCESS(float16, uint16_t, ASC_K_H2F, ASC_K_F2H, double)
ASC_K_ACCESS(bfloat16, uint16_t, asc_k_bf2f, ASC_K_F2BF, double)
ASC_K_ACCESS(float32, float, ASC_K_ID, (float), double)
ASC_K_ACCESS(float64, double, ASC_K_ID, (double), double)
ASC_K_ACCESS(int8, int8_t, ASC_K_ID, (int8_t), int64_t)
ASC_K_ACCESS(uint8, uint8_t, ASC_K_ID, (uint8_t), int64_t)
ASC_K_ACCESS(int16, int16_t, ASC_K_ID, (int16_t), int64_t)
ASC_K_ACCESS(int32, int32_t, ASC_K_ID, (int32_t), int64_t)
ASC_K_ACCESS(int64, int64_t, ASC_K_ID, (int64_t), int64_t)
ASC_K_ACCESS(bool, uint8_t, ASC_K_ID, (uint8_t) !!, int64_t)
ASC_K_ACCESS(uint16, uint16_t, ASC_K_ID, (uint16_t), int64_t)
ASC_K_ACCESS(uint32, uint32_t, ASC_K_ID, (uint32_t), int64_t)
ASC_K_ACCESS(uint64, uint64_t, ASC_K_ID, (uint64_t), int64_t) /* scalars hold its bits */
