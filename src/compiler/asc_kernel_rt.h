/* Runtime for kernels compiled for the simulated AI cores. Generated C
 * includes this text verbatim, so it depends on nothing but libc.
 *
 * A block runs with a private Unified Buffer (k->ub). GlobalTensors point
 * into argument memory and know how many bytes are left up to the end of
 * the argument; LocalTensors are byte offsets into the UB. Every API call
 * checks the ranges it touches and fails with a message naming the source
 * line instead of touching memory it does not own. The including source
 * defines asc_k_file, the kernel's Python file. */
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

typedef struct asc_k_ctx {
  char *ub;
  int64_t ub_size;
  int64_t block_idx;
  int64_t block_num;
  int status; /* 0 ok, 1 kernel error */
  char msg[480];
} asc_k_ctx;

typedef struct asc_k_arg {
  union {
    int64_t i;
    double f;
    char *p;
  } v;
  int64_t n; /* bytes of the argument's memory */
} asc_k_arg;

typedef struct asc_k_addr {
  char *ptr;
  int64_t avail; /* bytes from ptr to the end of the argument (may be < 0) */
} asc_k_addr;

typedef struct asc_k_gt {
  char *ptr;
  int64_t avail;
  int64_t size; /* elements given to set_global_buffer, -1 if none */
} asc_k_gt;

typedef struct asc_k_lt {
  int64_t off; /* bytes into the UB */
  int64_t len; /* elements */
} asc_k_lt;

typedef struct asc_k_pipe {
  int64_t cursor; /* next free UB byte */
} asc_k_pipe;

#define ASC_K_MAX_DEPTH 8
typedef struct asc_k_que {
  int depth;
  int nbuf;
  int64_t buf_len; /* bytes per buffer */
  int64_t buf_off[ASC_K_MAX_DEPTH];
  unsigned char state[ASC_K_MAX_DEPTH]; /* 0 free, 1 allocated, 2 queued, 3 dequeued */
  int ring[ASC_K_MAX_DEPTH];
  int head, count;
} asc_k_que;

typedef struct asc_k_tbuf {
  int64_t off, len; /* bytes */
} asc_k_tbuf;

static int asc_k_fail(asc_k_ctx *k, int line, const char *fmt, ...)
    __attribute__((format(printf, 3, 4), unused));
static int asc_k_fail(asc_k_ctx *k, int line, const char *fmt, ...) {
  int n = snprintf(k->msg, sizeof k->msg, "%s:%d: ", asc_k_file, line);
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(k->msg + n, sizeof k->msg - (size_t)n, fmt, ap);
  va_end(ap);
  k->status = 1;
  return 1;
}

/* --- float16 / bfloat16 ---------------------------------------------------- */
static inline float asc_k_h2f(uint16_t h) {
  uint32_t sign = (uint32_t)(h & 0x8000u) << 16, exp = (h >> 10) & 0x1fu, mant = h & 0x3ffu, u;
  float f;
  if (exp == 0x1f) u = sign | 0x7f800000u | (mant << 13);
  else if (exp == 0) {
    f = (float)mant * 5.9604644775390625e-8f;
    return sign ? -f : f;
  } else u = sign | ((exp + 112) << 23) | (mant << 13);
  memcpy(&f, &u, sizeof f);
  return f;
}
static inline uint16_t asc_k_f2h(float value) {
  uint32_t x;
  memcpy(&x, &value, sizeof x);
  uint32_t sign = (x >> 16) & 0x8000u, a = x & 0x7fffffffu;
  if (a > 0x7f800000u) {
    uint32_t nan = 0x7c00u + ((a & 0x7fffffu) >> 13);
    return (uint16_t)(sign | (nan == 0x7c00u ? nan + 1 : nan));
  }
  if (a >= 0x477ff000u) return (uint16_t)(sign | 0x7c00u);
  if (a < 0x38800000u) {
    float s;
    memcpy(&s, &a, sizeof s);
    return (uint16_t)(sign | (uint32_t)nearbyintf(s * 16777216.0f));
  }
  a += 0xfffu + ((a >> 13) & 1u);
  return (uint16_t)(sign | ((a - 0x38000000u) >> 13));
}

/* --- scalar arithmetic with Python semantics ----------------------------- */
static inline int asc_k_floordiv(asc_k_ctx *k, int64_t a, int64_t b, int64_t *r, int line) {
  if (b == 0) return asc_k_fail(k, line, "integer division or modulo by zero");
  if (b == -1) {
    *r = (int64_t)(0 - (uint64_t)a);
    return 0;
  }
  int64_t q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0))) q--;
  *r = q;
  return 0;
}
static inline int asc_k_mod(asc_k_ctx *k, int64_t a, int64_t b, int64_t *r, int line) {
  if (b == 0) return asc_k_fail(k, line, "integer division or modulo by zero");
  if (b == -1) {
    *r = 0;
    return 0;
  }
  int64_t m = a % b;
  if (m != 0 && ((m < 0) != (b < 0))) m += b;
  *r = m;
  return 0;
}
static inline double asc_k_fmod(double a, double b) {
  double m = fmod(a, b);
  if (m != 0 && ((b < 0) != (m < 0))) m += b;
  return m;
}
static inline int64_t asc_k_ipow(int64_t base, int64_t e) {
  uint64_t r = 1, b = (uint64_t)base;
  while (e > 0) {
    if (e & 1) r *= b;
    b *= b;
    e >>= 1;
  }
  return (int64_t)r;
}

/* --- global memory ----------------------------------------------------------- */
static inline asc_k_addr asc_k_addr_offset(asc_k_addr a, int64_t elements, int64_t size) {
  asc_k_addr r = {a.ptr + elements * size, a.avail - elements * size};
  return r;
}
static inline int asc_k_global_new(asc_k_ctx *k, asc_k_gt *g, asc_k_addr a, int64_t size,
                                   int64_t esize, int line) {
  if (a.avail < 0) return asc_k_fail(k, line, "set_global_buffer: address is past the end of its argument");
  if (size >= 0 && size * esize > a.avail)
    return asc_k_fail(k, line,
                      "set_global_buffer: %lld elements exceed the %lld bytes left in the argument",
                      (long long)size, (long long)a.avail);
  g->ptr = a.ptr;
  g->avail = a.avail;
  g->size = size;
  return 0;
}
static inline asc_k_gt asc_k_global_slice(asc_k_gt g, int64_t off, int64_t esize) {
  asc_k_gt r = {g.ptr + off * esize, g.avail - off * esize, g.size >= 0 ? g.size - off : -1};
  return r;
}
static inline int asc_k_gm_range(asc_k_ctx *k, const asc_k_gt *g, int64_t off, int64_t count,
                                 int64_t esize, const char *api, int line) {
  if (off < 0 || count < 0 || g->avail < 0 || (off + count) * esize > g->avail)
    return asc_k_fail(k, line,
                      "%s: global memory access of %lld elements at offset %lld is outside the "
                      "argument (%lld bytes left)",
                      api, (long long)count, (long long)off, (long long)g->avail);
  return 0;
}

/* --- the Unified Buffer ---------------------------------------------------- */
static inline int asc_k_ub_range(asc_k_ctx *k, asc_k_lt t, int64_t count, int64_t esize,
                                 const char *api, int line) {
  if (count < 0 || t.off < 0 || t.off + count * esize > k->ub_size)
    return asc_k_fail(k, line,
                      "%s: %lld elements at UB byte %lld overrun the %lld-byte Unified Buffer", api,
                      (long long)count, (long long)t.off, (long long)k->ub_size);
  return 0;
}
static inline asc_k_lt asc_k_local_new(int64_t addr, int64_t len) {
  asc_k_lt t = {addr, len};
  return t;
}
static inline asc_k_lt asc_k_local_slice(asc_k_lt t, int64_t off, int64_t esize) {
  asc_k_lt r = {t.off + off * esize, t.len - off};
  return r;
}

/* --- TPipe, TQue, TBuf --------------------------------------------------------- */
static inline int asc_k_pipe_take(asc_k_ctx *k, asc_k_pipe *p, int64_t bytes, int64_t *off,
                                  const char *api, int line) {
  int64_t aligned = (bytes + 31) / 32 * 32;
  if (bytes < 0 || p->cursor + aligned > k->ub_size)
    return asc_k_fail(k, line,
                      "%s: Unified Buffer overflow: %lld more bytes at byte %lld exceed the "
                      "%lld-byte UB",
                      api, (long long)aligned, (long long)p->cursor, (long long)k->ub_size);
  *off = p->cursor;
  p->cursor += aligned;
  return 0;
}
static inline int asc_k_init_buffer(asc_k_ctx *k, asc_k_pipe *p, asc_k_que *q, int64_t num,
                                    int64_t len, int line) {
  if (num < 1 || num > ASC_K_MAX_DEPTH)
    return asc_k_fail(k, line, "init_buffer: buffer count must be in [1, %d], got %lld",
                      ASC_K_MAX_DEPTH, (long long)num);
  q->nbuf = (int)num;
  q->buf_len = len;
  q->head = q->count = 0;
  for (int i = 0; i < q->nbuf; i++) {
    q->state[i] = 0;
    if (asc_k_pipe_take(k, p, len, &q->buf_off[i], "init_buffer", line)) return 1;
  }
  return 0;
}
static inline int asc_k_init_tbuf(asc_k_ctx *k, asc_k_pipe *p, asc_k_tbuf *b, int64_t len,
                                  int line) {
  b->len = len;
  return asc_k_pipe_take(k, p, len, &b->off, "init_buffer", line);
}
static inline int asc_k_alloc_tensor(asc_k_ctx *k, asc_k_que *q, asc_k_lt *t, int64_t esize,
                                     int line) {
  if (!q->nbuf) return asc_k_fail(k, line, "alloc_tensor: the queue has no buffers (call init_buffer)");
  for (int i = 0; i < q->nbuf; i++)
    if (q->state[i] == 0) {
      q->state[i] = 1;
      t->off = q->buf_off[i];
      t->len = q->buf_len / esize;
      return 0;
    }
  return asc_k_fail(k, line,
                    "alloc_tensor: all %d buffers of the queue are in use; free_tensor one first "
                    "(real hardware would hang here)",
                    q->nbuf);
}
static inline int asc_k_find_buffer(const asc_k_que *q, asc_k_lt t) {
  for (int i = 0; i < q->nbuf; i++)
    if (q->buf_off[i] == t.off) return i;
  return -1;
}
static inline int asc_k_enque(asc_k_ctx *k, asc_k_que *q, asc_k_lt t, int line) {
  int i = asc_k_find_buffer(q, t);
  if (i < 0 || q->state[i] != 1)
    return asc_k_fail(k, line, "enque: the tensor was not allocated from this queue (or was already enqueued)");
  if (q->count >= q->depth)
    return asc_k_fail(k, line, "enque: the queue already holds its depth of %d tensors", q->depth);
  q->state[i] = 2;
  q->ring[(q->head + q->count++) % ASC_K_MAX_DEPTH] = i;
  return 0;
}
static inline int asc_k_deque(asc_k_ctx *k, asc_k_que *q, asc_k_lt *t, int64_t esize, int line) {
  if (q->count == 0)
    return asc_k_fail(k, line, "deque on an empty queue (real hardware would hang here)");
  int i = q->ring[q->head];
  q->head = (q->head + 1) % ASC_K_MAX_DEPTH;
  q->count--;
  q->state[i] = 3;
  t->off = q->buf_off[i];
  t->len = q->buf_len / esize;
  return 0;
}
static inline int asc_k_free_tensor(asc_k_ctx *k, asc_k_que *q, asc_k_lt t, int line) {
  int i = asc_k_find_buffer(q, t);
  if (i < 0 || q->state[i] == 0 || q->state[i] == 2)
    return asc_k_fail(k, line,
                      "free_tensor: the tensor is not one this queue handed out (or it is "
                      "already free or still queued)");
  q->state[i] = 0;
  return 0;
}

/* --- data movement --------------------------------------------------------- */
static inline int asc_k_copy_gm_ub(asc_k_ctx *k, asc_k_lt dst, asc_k_gt src, int64_t count,
                                   int64_t esize, int line) {
  if (asc_k_gm_range(k, &src, 0, count, esize, "data_copy", line) ||
      asc_k_ub_range(k, dst, count, esize, "data_copy", line))
    return 1;
  memcpy(k->ub + dst.off, src.ptr, (size_t)(count * esize));
  return 0;
}
static inline int asc_k_copy_ub_gm(asc_k_ctx *k, asc_k_gt dst, asc_k_lt src, int64_t count,
                                   int64_t esize, int line) {
  if (asc_k_gm_range(k, &dst, 0, count, esize, "data_copy", line) ||
      asc_k_ub_range(k, src, count, esize, "data_copy", line))
    return 1;
  memcpy(dst.ptr, k->ub + src.off, (size_t)(count * esize));
  return 0;
}
static inline int asc_k_copy_ub_ub(asc_k_ctx *k, asc_k_lt dst, asc_k_lt src, int64_t count,
                                   int64_t esize, const char *api, int line) {
  if (asc_k_ub_range(k, dst, count, esize, api, line) ||
      asc_k_ub_range(k, src, count, esize, api, line))
    return 1;
  memmove(k->ub + dst.off, k->ub + src.off, (size_t)(count * esize));
  return 0;
}

/* --- element access ------------------------------------------------------ */
#define ASC_K_ACCESS(SUFFIX, T, LOAD, STORE, CT)                                                \
  static inline int asc_k_gget_##SUFFIX(asc_k_ctx *k, asc_k_gt g, int64_t i, CT *out, int line) { \
    if (asc_k_gm_range(k, &g, i, 1, (int64_t)sizeof(T), "get_value", line)) return 1;          \
    T v;                                                                                        \
    memcpy(&v, g.ptr + i * (int64_t)sizeof(T), sizeof v);                                       \
    *out = (CT)LOAD(v);                                                                         \
    return 0;                                                                                   \
  }                                                                                             \
  static inline int asc_k_gset_##SUFFIX(asc_k_ctx *k, asc_k_gt g, int64_t i, CT x, int line) {  \
    if (asc_k_gm_range(k, &g, i, 1, (int64_t)sizeof(T), "set_value", line)) return 1;          \
    T v = STORE(x);                                                                             \
    memcpy(g.ptr + i * (int64_t)sizeof(T), &v, sizeof v);                                       \
    return 0;                                                                                   \
  }                                                                                             \
  static inline int asc_k_lget_##SUFFIX(asc_k_ctx *k, asc_k_lt t, int64_t i, CT *out, int line) { \
    asc_k_lt at = {t.off + i * (int64_t)sizeof(T), 1};                                          \
    if (i < 0 || asc_k_ub_range(k, at, 1, (int64_t)sizeof(T), "get_value", line)) {            \
      if (!k->status) asc_k_fail(k, line, "get_value: negative index %lld", (long long)i);       \
      return 1;                                                                                 \
    }                                                                                           \
    T v;                                                                                        \
    memcpy(&v, k->ub + at.off, sizeof v);                                                       \
    *out = (CT)LOAD(v);                                                                         \
    return 0;                                                                                   \
  }                                                                                             \
  static inline int asc_k_lset_##SUFFIX(asc_k_ctx *k, asc_k_lt t, int64_t i, CT x, int line) {  \
    asc_k_lt at = {t.off + i * (int64_t)sizeof(T), 1};                                          \
    if (i < 0 || asc_k_ub_range(k, at, 1, (int64_t)sizeof(T), "set_value", line)) {            \
      if (!k->status) asc_k_fail(k, line, "set_value: negative index %lld", (long long)i);       \
      return 1;                                                                                 \
    }                                                                                           \
    T v = STORE(x);                                                                             \
    memcpy(k->ub + at.off, &v, sizeof v);                                                       \
    return 0;                                                                                   \
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

/* --- vector instructions --------------------------------------------------- */
/* float16 computes in float32 and rounds once per instruction, as the
 * hardware's vector unit does. */
#define ASC_K_VBINARY(NAME, SUFFIX, T, CT, LOAD, STORE, EXPR)                                    \
  static inline int asc_k_##NAME##_##SUFFIX(asc_k_ctx *k, asc_k_lt d, asc_k_lt a, asc_k_lt b,    \
                                            int64_t n, int line) {                               \
    if (asc_k_ub_range(k, d, n, (int64_t)sizeof(T), #NAME, line) ||                              \
        asc_k_ub_range(k, a, n, (int64_t)sizeof(T), #NAME, line) ||                              \
        asc_k_ub_range(k, b, n, (int64_t)sizeof(T), #NAME, line))                                \
      return 1;                                                                                  \
    T *o = (T *)(k->ub + d.off);                                                                 \
    const T *xs = (const T *)(k->ub + a.off), *ys = (const T *)(k->ub + b.off);                  \
    for (int64_t i = 0; i < n; i++) {                                                            \
      CT x = LOAD(xs[i]), y = LOAD(ys[i]);                                                       \
      o[i] = STORE(EXPR);                                                                        \
    }                                                                                            \
    return 0;                                                                                    \
  }
#define ASC_K_VSCALAR(NAME, SUFFIX, T, CT, LOAD, STORE, EXPR)                                    \
  static inline int asc_k_##NAME##_##SUFFIX(asc_k_ctx *k, asc_k_lt d, asc_k_lt a, double sv,     \
                                            int64_t n, int line) {                               \
    if (asc_k_ub_range(k, d, n, (int64_t)sizeof(T), #NAME, line) ||                              \
        asc_k_ub_range(k, a, n, (int64_t)sizeof(T), #NAME, line))                                \
      return 1;                                                                                  \
    T *o = (T *)(k->ub + d.off);                                                                 \
    const T *xs = (const T *)(k->ub + a.off);                                                    \
    const T st = STORE(sv); /* the scalar takes the tensor's type first */                       \
    const CT y = LOAD(st);                                                                       \
    for (int64_t i = 0; i < n; i++) {                                                            \
      CT x = LOAD(xs[i]);                                                                        \
      o[i] = STORE(EXPR);                                                                        \
    }                                                                                            \
    return 0;                                                                                    \
  }
#define ASC_K_VUNARY(NAME, SUFFIX, T, CT, LOAD, STORE, EXPR)                                     \
  static inline int asc_k_##NAME##_##SUFFIX(asc_k_ctx *k, asc_k_lt d, asc_k_lt a, int64_t n,     \
                                            int line) {                                          \
    if (asc_k_ub_range(k, d, n, (int64_t)sizeof(T), #NAME, line) ||                              \
        asc_k_ub_range(k, a, n, (int64_t)sizeof(T), #NAME, line))                                \
      return 1;                                                                                  \
    T *o = (T *)(k->ub + d.off);                                                                 \
    const T *xs = (const T *)(k->ub + a.off);                                                    \
    for (int64_t i = 0; i < n; i++) {                                                            \
      CT x = LOAD(xs[i]);                                                                        \
      o[i] = STORE(EXPR);                                                                        \
    }                                                                                            \
    return 0;                                                                                    \
  }

/* Integer vector arithmetic wraps, as the hardware does. */
#define ASC_K_WRAP(T, e) ((T)(uint64_t)(e))

#define ASC_K_FLOAT_FAMILY(SUFFIX, T, LOAD, STORE)                                               \
  ASC_K_VBINARY(add, SUFFIX, T, float, LOAD, STORE, x + y)                                        \
  ASC_K_VBINARY(sub, SUFFIX, T, float, LOAD, STORE, x - y)                                        \
  ASC_K_VBINARY(mul, SUFFIX, T, float, LOAD, STORE, x * y)                                        \
  ASC_K_VBINARY(div, SUFFIX, T, float, LOAD, STORE, x / y)                                        \
  ASC_K_VBINARY(max, SUFFIX, T, float, LOAD, STORE, x > y ? x : y)                                \
  ASC_K_VBINARY(min, SUFFIX, T, float, LOAD, STORE, x < y ? x : y)                                \
  ASC_K_VSCALAR(adds, SUFFIX, T, float, LOAD, STORE, x + y)                                       \
  ASC_K_VSCALAR(muls, SUFFIX, T, float, LOAD, STORE, x * y)                                       \
  ASC_K_VSCALAR(maxs, SUFFIX, T, float, LOAD, STORE, x > y ? x : y)                               \
  ASC_K_VSCALAR(mins, SUFFIX, T, float, LOAD, STORE, x < y ? x : y)                               \
  ASC_K_VUNARY(exp, SUFFIX, T, float, LOAD, STORE, expf(x))                                       \
  ASC_K_VUNARY(ln, SUFFIX, T, float, LOAD, STORE, logf(x))                                        \
  ASC_K_VUNARY(abs, SUFFIX, T, float, LOAD, STORE, fabsf(x))                                      \
  ASC_K_VUNARY(sqrt, SUFFIX, T, float, LOAD, STORE, sqrtf(x))                                     \
  ASC_K_VUNARY(rsqrt, SUFFIX, T, float, LOAD, STORE, 1.0f / sqrtf(x))                             \
  ASC_K_VUNARY(reciprocal, SUFFIX, T, float, LOAD, STORE, 1.0f / x)                               \
  ASC_K_VUNARY(relu, SUFFIX, T, float, LOAD, STORE, x > 0 ? x : 0.0f)

ASC_K_FLOAT_FAMILY(float16, uint16_t, ASC_K_H2F, ASC_K_F2H)
ASC_K_FLOAT_FAMILY(float32, float, ASC_K_ID, ASC_K_ID)

#define ASC_K_INT_FAMILY(SUFFIX, T)                                                              \
  ASC_K_VBINARY(add, SUFFIX, T, int64_t, ASC_K_ID, ASC_K_ID, ASC_K_WRAP(T, (uint64_t)x + (uint64_t)y)) \
  ASC_K_VBINARY(sub, SUFFIX, T, int64_t, ASC_K_ID, ASC_K_ID, ASC_K_WRAP(T, (uint64_t)x - (uint64_t)y)) \
  ASC_K_VBINARY(mul, SUFFIX, T, int64_t, ASC_K_ID, ASC_K_ID, ASC_K_WRAP(T, (uint64_t)x * (uint64_t)y)) \
  ASC_K_VBINARY(max, SUFFIX, T, int64_t, ASC_K_ID, ASC_K_ID, (T)(x > y ? x : y))                 \
  ASC_K_VBINARY(min, SUFFIX, T, int64_t, ASC_K_ID, ASC_K_ID, (T)(x < y ? x : y))                 \
  ASC_K_VSCALAR(adds, SUFFIX, T, int64_t, ASC_K_ID, (T), ASC_K_WRAP(T, (uint64_t)x + (uint64_t)y)) \
  ASC_K_VSCALAR(muls, SUFFIX, T, int64_t, ASC_K_ID, (T), ASC_K_WRAP(T, (uint64_t)x * (uint64_t)y)) \
  ASC_K_VSCALAR(maxs, SUFFIX, T, int64_t, ASC_K_ID, (T), (T)(x > y ? x : y))                     \
  ASC_K_VSCALAR(mins, SUFFIX, T, int64_t, ASC_K_ID, (T), (T)(x < y ? x : y))                     \
  ASC_K_VUNARY(abs, SUFFIX, T, int64_t, ASC_K_ID, ASC_K_ID, ASC_K_WRAP(T, x < 0 ? 0 - (uint64_t)x : (uint64_t)x)) \
  ASC_K_VUNARY(relu, SUFFIX, T, int64_t, ASC_K_ID, ASC_K_ID, (T)(x > 0 ? x : 0))

ASC_K_INT_FAMILY(int16, int16_t)
ASC_K_INT_FAMILY(int32, int32_t)

#define ASC_K_DUPLICATE(SUFFIX, T, STORE)                                                        \
  static inline int asc_k_duplicate_##SUFFIX(asc_k_ctx *k, asc_k_lt d, double v, int64_t n,      \
                                             int line) {                                         \
    if (asc_k_ub_range(k, d, n, (int64_t)sizeof(T), "duplicate", line)) return 1;                \
    T *o = (T *)(k->ub + d.off);                                                                 \
    const T x = STORE(v);                                                                        \
    for (int64_t i = 0; i < n; i++) o[i] = x;                                                    \
    return 0;                                                                                    \
  }
ASC_K_DUPLICATE(float16, uint16_t, ASC_K_F2H)
ASC_K_DUPLICATE(float32, float, (float))
ASC_K_DUPLICATE(int8, int8_t, (int8_t))
ASC_K_DUPLICATE(uint8, uint8_t, (uint8_t))
ASC_K_DUPLICATE(int16, int16_t, (int16_t))
ASC_K_DUPLICATE(int32, int32_t, (int32_t))
