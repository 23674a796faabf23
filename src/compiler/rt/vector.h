/* --- vector instructions --------------------------------------------------- */
/* A one-source instruction's start: the Unified Buffer ranges it reads
 * (a) and writes (d), then o (dst) and xs (src) over them. */
#define ASC_K_VPROLOGUE1(NAME, T)                                                           \
  if (asc_k_ub_use(k, ASC_K_V, a, n, (int64_t)sizeof(T), ASC_K_READ, #NAME, "src", line) || \
      asc_k_ub_use(k, ASC_K_V, d, n, (int64_t)sizeof(T), ASC_K_WRITE, #NAME, "dst", line))  \
    return 1;                                                                               \
  T *o = (T *)(k->ub + d.off);                                                              \
  const T *xs = (const T *)(k->ub + a.off)
/* float16 computes in float32 and rounds once per instruction, as the
 * hardware's vector unit does. */
#define ASC_K_VBINARY(NAME, SUFFIX, T, CT, LOAD, STORE, EXPR)                                  \
  static inline int asc_k_##NAME##_##SUFFIX(asc_k_ctx *k, asc_k_lt d, asc_k_lt a, asc_k_lt b,  \
                                            int64_t n, int line) {                             \
    if (asc_k_ub_use(k, ASC_K_V, a, n, (int64_t)sizeof(T), ASC_K_READ, #NAME, "src0", line) || \
        asc_k_ub_use(k, ASC_K_V, b, n, (int64_t)sizeof(T), ASC_K_READ, #NAME, "src1", line) || \
        asc_k_ub_use(k, ASC_K_V, d, n, (int64_t)sizeof(T), ASC_K_WRITE, #NAME, "dst", line))   \
      return 1;                                                                                \
    T *o = (T *)(k->ub + d.off);                                                               \
    const T *xs = (const T *)(k->ub + a.off), *ys = (const T *)(k->ub + b.off);                \
    for (int64_t i = 0; i < n; i++) {                                                          \
      CT x = LOAD(xs[i]), y = LOAD(ys[i]);                                                     \
      o[i] = STORE(EXPR);                                                                      \
    }                                                                                          \
    return 0;                                                                                  \
  }
#define ASC_K_VSCALAR(NAME, SUFFIX, T, CT, LOAD, STORE, EXPR)                                \
  static inline int asc_k_##NAME##_##SUFFIX(asc_k_ctx *k, asc_k_lt d, asc_k_lt a, double sv, \
                                            int64_t n, int line) {                           \
    ASC_K_VPROLOGUE1(NAME, T);                                                               \
    const T st = STORE(sv); /* the scalar takes the tensor's type first */                   \
    const CT y = LOAD(st);                                                                   \
    for (int64_t i = 0; i < n; i++) {                                                        \
      CT x = LOAD(xs[i]);                                                                    \
      o[i] = STORE(EXPR);                                                                    \
    }                                                                                        \
    return 0;                                                                                \
  }
#define ASC_K_VUNARY(NAME, SUFFIX, T, CT, LOAD, STORE, EXPR)                                 \
  static inline int asc_k_##NAME##_##SUFFIX(asc_k_ctx *k, asc_k_lt d, asc_k_lt a, int64_t n, \
                                            int line) {                                      \
    ASC_K_VPROLOGUE1(NAME, T);                                                               \
    for (int64_t i = 0; i < n; i++) {                                                        \
      CT x = LOAD(xs[i]);                                                                    \
      o[i] = STORE(EXPR);                                                                    \
    }                                                                                        \
    return 0;                                                                                \
  }

/* A transcendental unary through rt/vmath.h (SLEEF's functions when the
 * launcher lends them); a partial overlap of dst and src keeps the
 * element order of the loops above. */
#define ASC_K_VMATH(NAME, SUFFIX, T, FN)                                                     \
  static inline int asc_k_##NAME##_##SUFFIX(asc_k_ctx *k, asc_k_lt d, asc_k_lt a, int64_t n, \
                                            int line) {                                      \
    ASC_K_VPROLOGUE1(NAME, T);                                                               \
    if (asc_k_vm_disjoint(d.off, a.off, n * (int64_t)sizeof(T))) {                           \
      asc_k_vm_##SUFFIX(k, FN, o, xs, n);                                                    \
      return 0;                                                                              \
    }                                                                                        \
    for (int64_t i = 0; i < n; i++) asc_k_vm_##SUFFIX(k, FN, o + i, xs + i, 1);              \
    return 0;                                                                                \
  }

/* Integer vector arithmetic wraps, as the hardware does. */
#define ASC_K_WRAP(T, e) ((T)(uint64_t)(e))

#define ASC_K_FLOAT_FAMILY(SUFFIX, T, LOAD, STORE)                    \
  ASC_K_VBINARY(add, SUFFIX, T, float, LOAD, STORE, x + y)            \
  ASC_K_VBINARY(sub, SUFFIX, T, float, LOAD, STORE, x - y)            \
  ASC_K_VBINARY(mul, SUFFIX, T, float, LOAD, STORE, x *y)             \
  ASC_K_VBINARY(div, SUFFIX, T, float, LOAD, STORE, x / y)            \
  ASC_K_VBINARY(max, SUFFIX, T, float, LOAD, STORE, x > y ? x : y)    \
  ASC_K_VBINARY(min, SUFFIX, T, float, LOAD, STORE, x < y ? x : y)    \
  ASC_K_VSCALAR(adds, SUFFIX, T, float, LOAD, STORE, x + y)           \
  ASC_K_VSCALAR(muls, SUFFIX, T, float, LOAD, STORE, x *y)            \
  ASC_K_VSCALAR(maxs, SUFFIX, T, float, LOAD, STORE, x > y ? x : y)   \
  ASC_K_VSCALAR(mins, SUFFIX, T, float, LOAD, STORE, x < y ? x : y)   \
  ASC_K_VMATH(exp, SUFFIX, T, ASC_K_VM_EXP)                           \
  ASC_K_VMATH(ln, SUFFIX, T, ASC_K_VM_LOG)                            \
  ASC_K_VUNARY(abs, SUFFIX, T, float, LOAD, STORE, fabsf(x))          \
  ASC_K_VMATH(sqrt, SUFFIX, T, ASC_K_VM_SQRT)                         \
  ASC_K_VUNARY(rsqrt, SUFFIX, T, float, LOAD, STORE, 1.0f / sqrtf(x)) \
  ASC_K_VUNARY(reciprocal, SUFFIX, T, float, LOAD, STORE, 1.0f / x)   \
  ASC_K_VUNARY(relu, SUFFIX, T, float, LOAD, STORE, x > 0 ? x : 0.0f)

ASC_K_FLOAT_FAMILY(float16, uint16_t, ASC_K_H2F, ASC_K_F2H)
ASC_K_FLOAT_FAMILY(float32, float, ASC_K_ID, ASC_K_ID)

#define ASC_K_INT_FAMILY(SUFFIX, T)                                                                \
  ASC_K_VBINARY(add, SUFFIX, T, int64_t, ASC_K_ID, ASC_K_ID,                                       \
                ASC_K_WRAP(T, (uint64_t)x + (uint64_t)y))                                          \
  ASC_K_VBINARY(sub, SUFFIX, T, int64_t, ASC_K_ID, ASC_K_ID,                                       \
                ASC_K_WRAP(T, (uint64_t)x - (uint64_t)y))                                          \
  ASC_K_VBINARY(mul, SUFFIX, T, int64_t, ASC_K_ID, ASC_K_ID,                                       \
                ASC_K_WRAP(T, (uint64_t)x *(uint64_t)y))                                           \
  ASC_K_VBINARY(max, SUFFIX, T, int64_t, ASC_K_ID, ASC_K_ID, (T)(x > y ? x : y))                   \
  ASC_K_VBINARY(min, SUFFIX, T, int64_t, ASC_K_ID, ASC_K_ID, (T)(x < y ? x : y))                   \
  ASC_K_VSCALAR(adds, SUFFIX, T, int64_t, ASC_K_ID, (T), ASC_K_WRAP(T, (uint64_t)x + (uint64_t)y)) \
  ASC_K_VSCALAR(muls, SUFFIX, T, int64_t, ASC_K_ID, (T), ASC_K_WRAP(T, (uint64_t)x *(uint64_t)y))  \
  ASC_K_VSCALAR(maxs, SUFFIX, T, int64_t, ASC_K_ID, (T), (T)(x > y ? x : y))                       \
  ASC_K_VSCALAR(mins, SUFFIX, T, int64_t, ASC_K_ID, (T), (T)(x < y ? x : y))                       \
  ASC_K_VUNARY(abs, SUFFIX, T, int64_t, ASC_K_ID, ASC_K_ID,                                        \
               ASC_K_WRAP(T, x < 0 ? 0 - (uint64_t)x : (uint64_t)x))                               \
  ASC_K_VUNARY(relu, SUFFIX, T, int64_t, ASC_K_ID, ASC_K_ID, (T)(x > 0 ? x : 0))

ASC_K_INT_FAMILY(int16, int16_t)
ASC_K_INT_FAMILY(int32, int32_t)

#define ASC_K_DUPLICATE(SUFFIX, T, STORE)                                                          \
  static inline int asc_k_duplicate_##SUFFIX(asc_k_ctx *k, asc_k_lt d, double v, int64_t n,        \
                                             int line) {                                           \
    if (asc_k_ub_use(k, ASC_K_V, d, n, (int64_t)sizeof(T), ASC_K_WRITE, "duplicate", "dst", line)) \
      return 1;                                                                                    \
    T *o = (T *)(k->ub + d.off);                                                                   \
    const T x = STORE(v);                                                                          \
    for (int64_t i = 0; i < n; i++) o[i] = x;                                                      \
    return 0;                                                                                      \
  }
ASC_K_DUPLICATE(float16, uint16_t, ASC_K_F2H)
ASC_K_DUPLICATE(float32, float, (float))
ASC_K_DUPLICATE(int8, int8_t, (int8_t))
ASC_K_DUPLICATE(uint8, uint8_t, (uint8_t))
ASC_K_DUPLICATE(int16, int16_t, (int16_t))
ASC_K_DUPLICATE(int32, int32_t, (int32_t))
/* Unsigned scalars wrap through int64 (a double past the range is C UB). */
#define ASC_K_TO_U16(v) ((uint16_t)(int64_t)(v))
#define ASC_K_TO_U32(v) ((uint32_t)(int64_t)(v))
ASC_K_DUPLICATE(uint16, uint16_t, ASC_K_TO_U16)
ASC_K_DUPLICATE(uint32, uint32_t, ASC_K_TO_U32)

/* --- API coverage: level-0 forms, cast, compare/select, reductions ---------------
 * The vector APIs' mask/repeat forms (docs/kernel-reference.md §0.4), the
 * APIs added with them, and the count forms of those that have no
 * per-dtype family above. One element-wise executor serves them all:
 * operand j's element idx of repeat r lives at
 *   off_j + (r * rep_j + (idx / (32 / size_j)) * blk_j) * 32 + (idx % (32 / size_j)) * size_j
 * and takes part iff the mask selects (r, idx). A count form is counter
 * mode with the count as mask and contiguous strides. Elements per repeat
 * are 256 bytes of the widest operand. Unselected destination elements are
 * left unchanged. Like the families above, float16/bfloat16 compute in
 * float32 and round once per instruction; integers wrap.
 * Checked mode: every operand's touched span goes through asc_k_ub_use
 * (sources first, then the destination) on the vector pipe. */
enum { /* asc_dtype's order */
       ASC_K_DT_BOOL,
       ASC_K_DT_INT8,
       ASC_K_DT_UINT8,
       ASC_K_DT_INT16,
       ASC_K_DT_INT32,
       ASC_K_DT_INT64,
       ASC_K_DT_FLOAT16,
       ASC_K_DT_BFLOAT16,
       ASC_K_DT_FLOAT32,
       ASC_K_DT_FLOAT64,
       ASC_K_DT_UINT16,
       ASC_K_DT_UINT32,
       ASC_K_DT_UINT64
};
static inline int64_t asc_k_dt_size(int dt) {
  static const unsigned char sizes[] = {1, 1, 1, 2, 4, 8, 2, 2, 4, 8, 2, 4, 8};
  return dt >= 0 && dt <= ASC_K_DT_UINT64 ? sizes[dt] : 1;
}
static inline int asc_k_dt_float(int dt) {
  return dt >= ASC_K_DT_FLOAT16 && dt <= ASC_K_DT_FLOAT64;
}

/* One element of dt at p as a double: a row per dtype, the C type stored
 * and how it widens (v: the loaded value). */
#define ASC_K_LD_CASE(DT, T, WIDENED) \
  case ASC_K_DT_##DT: {               \
    T v;                              \
    memcpy(&v, p, sizeof v);          \
    return WIDENED;                   \
  }
/* clang-format off */
static inline double asc_k_ld(int dt, const char *p) {
  switch (dt) {
    ASC_K_LD_CASE(INT8, int8_t, v)
    case ASC_K_DT_BOOL: /* falls into uint8 */
    ASC_K_LD_CASE(UINT8, uint8_t, v)
    ASC_K_LD_CASE(INT16, int16_t, v)
    ASC_K_LD_CASE(INT32, int32_t, v)
    ASC_K_LD_CASE(INT64, int64_t, (double)v)
    ASC_K_LD_CASE(UINT16, uint16_t, v)
    ASC_K_LD_CASE(UINT32, uint32_t, v)
    ASC_K_LD_CASE(UINT64, uint64_t, (double)v)
    ASC_K_LD_CASE(FLOAT16, uint16_t, asc_k_h2f(v))
    ASC_K_LD_CASE(BFLOAT16, uint16_t, asc_k_bf2f(v))
    ASC_K_LD_CASE(FLOAT32, float, v)
    default: {
      double v;
      memcpy(&v, p, 8);
      return v;
    }
  }
}
/* clang-format on */
#undef ASC_K_LD_CASE
static inline int64_t asc_k_ldi(int dt, const char *p) {
  if (dt == ASC_K_DT_INT64 || dt == ASC_K_DT_UINT64) { /* uint64: its bits */
    int64_t v;
    memcpy(&v, p, 8);
    return v;
  }
  return (int64_t)asc_k_ld(dt, p);
}
/* A float value rounded once to dt (exact when dt holds it). */
static inline void asc_k_stf(int dt, char *p, double x) {
  switch (dt) {
    case ASC_K_DT_FLOAT16: {
      uint16_t v = asc_k_f2h((float)x);
      memcpy(p, &v, 2);
      break;
    }
    case ASC_K_DT_BFLOAT16: {
      uint16_t v = asc_k_f2bf((float)x);
      memcpy(p, &v, 2);
      break;
    }
    case ASC_K_DT_FLOAT32: {
      float v = (float)x;
      memcpy(p, &v, 4);
      break;
    }
    case ASC_K_DT_FLOAT64:
      memcpy(p, &x, 8);
      break;
    default:
      break;
  }
}
/* x rounded once to float type dt, read back: a scalar as dt holds it. */
static inline float asc_k_as_dt(int dt, double x) {
  char b[8];
  asc_k_stf(dt, b, x);
  return (float)asc_k_ld(dt, b);
}
/* An integer wrapped to dt's width. */
static inline void asc_k_sti(int dt, char *p, int64_t x) {
  switch (dt) {
    case ASC_K_DT_INT8:
    case ASC_K_DT_UINT8:
    case ASC_K_DT_BOOL: {
      uint8_t v = (uint8_t)(uint64_t)x;
      memcpy(p, &v, 1);
      break;
    }
    case ASC_K_DT_INT16:
    case ASC_K_DT_UINT16: {
      uint16_t v = (uint16_t)(uint64_t)x;
      memcpy(p, &v, 2);
      break;
    }
    case ASC_K_DT_INT32:
    case ASC_K_DT_UINT32: {
      uint32_t v = (uint32_t)(uint64_t)x;
      memcpy(p, &v, 4);
      break;
    }
    case ASC_K_DT_INT64:
    case ASC_K_DT_UINT64:
      memcpy(p, &x, 8);
      break;
    default:
      asc_k_stf(dt, p, (double)x);
  }
}

/* --- the mask register ----------------------------------------------------------- */
static inline void asc_k_vm_init(asc_k_ctx *k) {
  k->vm.counter = 0;
  k->vm.m[0] = k->vm.m[1] = ~(uint64_t)0;
  memset(&k->sr, 0, sizeof k->sr);
}
static inline int asc_k_set_mask_mode(asc_k_ctx *k, int counter) {
  k->vm.counter = counter;
  return 0;
}
static inline int asc_k_reset_mask(asc_k_ctx *k) {
  k->vm.m[0] = k->vm.m[1] = ~(uint64_t)0;
  return 0;
}
/* Bits for the first n elements of a repeat. */
static inline void asc_k_mask_first(int64_t n, uint64_t m[2]) {
  m[0] = n >= 64 ? ~(uint64_t)0 : n <= 0 ? 0 : (((uint64_t)1 << n) - 1);
  m[1] = n >= 128 ? ~(uint64_t)0 : n <= 64 ? 0 : (((uint64_t)1 << (n - 64)) - 1);
}
/* set_vector_mask: form 0 (length) or 1 (mask_high, mask_low), MaskMode
 * NORMAL (0) or COUNTER (1); the register keeps bits, counter mode reads
 * its low word as the element count. */
static inline int asc_k_set_vector_mask(asc_k_ctx *k, int form, int dt, int mode, int64_t a,
                                        int64_t b, int line) {
  int64_t per_rep = 256 / asc_k_dt_size(dt);
  if (form == 0) {
    /* By default a length beyond a repeat selects the whole repeat, as the
     * hardware keeps only a repeat's bits; checked mode reports it. */
    if (mode == 0 && (ASC_K_CHECKED || a < 0) && (a < 0 || a > per_rep))
      return asc_k_fail(k, line,
                        "set_vector_mask: length %lld is outside [0, %lld] for %d-bit data",
                        (long long)a, (long long)per_rep, (int)(8 * asc_k_dt_size(dt)));
    if (a < 0) return asc_k_fail(k, line, "set_vector_mask: negative count %lld", (long long)a);
    if (mode == 0)
      asc_k_mask_first(a, k->vm.m);
    else
      k->vm.m[0] = (uint64_t)a, k->vm.m[1] = 0;
    return 0;
  }
  /* Bits beyond a repeat's elements are ignored (checked mode reports them). */
  if (ASC_K_CHECKED && a != 0 && (mode == 1 || per_rep <= 64))
    return asc_k_fail(k, line, "set_vector_mask: mask_high must be 0 %s (got %lld)",
                      mode == 1 ? "in counter mode" : "for 32-bit data", (long long)a);
  k->vm.m[0] = (uint64_t)b;
  k->vm.m[1] = mode == 1 || per_rep <= 64 ? 0 : (uint64_t)a;
  return 0;
}

/* Which (repeat, element) pairs an instruction touches. */
typedef struct asc_k_sel {
  int counter;
  int64_t count; /* counter mode: elements over the whole instruction */
  uint64_t m[2]; /* normal mode: per-repeat element bits */
  int64_t nrep, per_rep;
} asc_k_sel;

static inline int asc_k_sel_on(const asc_k_sel *s, int64_t r, int64_t idx) {
  if (s->counter) return r * s->per_rep + idx < s->count;
  return (int)((s->m[idx >> 6] >> (idx & 63)) & 1u);
}

/* kind 0: continuous mask m0; kind 1: bit list [m0, m1] (low word first);
 * kind 2: count form (m0 elements, contiguous). max_rep < 0: no limit. */
static inline int asc_k_sel_make(asc_k_ctx *k, asc_k_sel *s, int kind, uint64_t m0, uint64_t m1,
                                 int64_t repeat, int set_mask, int64_t per_rep, int64_t max_rep,
                                 const char *api, int line) {
  s->per_rep = per_rep;
  s->counter = kind == 2 || k->vm.counter;
  if (kind == 2) {
    if ((int64_t)m0 < 0) return asc_k_fail(k, line, "%s: negative count %lld", api, (long long)m0);
    s->count = (int64_t)m0;
  } else if (s->counter) {
    int64_t c = set_mask ? (int64_t)m0 : (int64_t)k->vm.m[0];
    if (c < 0)
      return asc_k_fail(k, line, "%s: negative counter-mode count %lld", api, (long long)c);
    s->count = c;
  }
  if (s->counter) {
    /* more elements than UB bytes cannot all be in range (and would take
     * ages to walk) */
    if (s->count > asc_k_ub_end(k)) {
      char note[96];
      return asc_k_fail(k, line, "%s: %lld elements exceed the %lld-byte Unified Buffer%s", api,
                        (long long)s->count, (long long)k->ub_size,
                        asc_k_reach_note(k, note, sizeof note));
    }
    s->nrep = s->count / per_rep + (s->count % per_rep != 0);
    s->m[0] = s->m[1] = ~(uint64_t)0;
    return 0;
  }
  if (repeat < 0 || (max_rep >= 0 && repeat > max_rep))
    return asc_k_fail(k, line, "%s: repeat times %lld is outside [0, %lld]", api, (long long)repeat,
                      (long long)max_rep);
  s->nrep = repeat;
  if (!set_mask) {
    s->m[0] = k->vm.m[0];
    s->m[1] = per_rep > 64 ? k->vm.m[1] : 0;
  } else if (kind == 0) {
    /* By default the hardware's reading: the mask is a uint64 and a length
     * beyond a repeat selects the whole repeat; 0 selects nothing. Checked
     * mode reports lengths outside [1, elements per repeat]. */
    if (ASC_K_CHECKED && ((int64_t)m0 < 1 || (int64_t)m0 > per_rep))
      return asc_k_fail(k, line, "%s: mask %lld is outside [1, %lld] for this data type", api,
                        (long long)(int64_t)m0, (long long)per_rep);
    asc_k_mask_first(m0 > (uint64_t)per_rep ? per_rep : (int64_t)m0, s->m);
  } else {
    /* Bits beyond a repeat's elements are ignored, as by the hardware;
     * checked mode reports them, and a mask that selects nothing. */
    uint64_t keep[2];
    asc_k_mask_first(per_rep, keep);
    if (ASC_K_CHECKED && ((m0 & ~keep[0]) || (m1 & ~keep[1])))
      return asc_k_fail(k, line, "%s: the mask list has bits beyond element %lld of a repeat", api,
                        (long long)per_rep);
    if (ASC_K_CHECKED && !m0 && !m1)
      return asc_k_fail(k, line, "%s: the mask selects no element", api);
    s->m[0] = m0 & keep[0];
    s->m[1] = m1 & keep[1];
  }
  return 0;
}

/* --- the element-wise executor ------------------------------------------------------ */
enum {
  ASC_K_VOP_add,
  ASC_K_VOP_sub,
  ASC_K_VOP_mul,
  ASC_K_VOP_div,
  ASC_K_VOP_max,
  ASC_K_VOP_min,
  ASC_K_VOP_bitwise_and,
  ASC_K_VOP_bitwise_or,
  ASC_K_VOP_fused_mul_add,
  ASC_K_VOP_mul_add_dst,
  ASC_K_VOP_adds,
  ASC_K_VOP_muls,
  ASC_K_VOP_maxs,
  ASC_K_VOP_mins,
  ASC_K_VOP_leaky_relu,
  ASC_K_VOP_shift_left,
  ASC_K_VOP_shift_right,
  ASC_K_VOP_axpy,
  ASC_K_VOP_exp,
  ASC_K_VOP_ln,
  ASC_K_VOP_abs,
  ASC_K_VOP_sqrt,
  ASC_K_VOP_rsqrt,
  ASC_K_VOP_reciprocal,
  ASC_K_VOP_relu,
  ASC_K_VOP_bitwise_not,
  ASC_K_VOP_cast,
  ASC_K_VOP_compare,
  ASC_K_VOP_compare_scalar,
  ASC_K_VOP_select,
  ASC_K_VOP_selects,
  ASC_K_VOP_copy,
  ASC_K_VOP_duplicate,
  ASC_K_VOP_add_relu, /* relu of the float32 result, one rounding */
  ASC_K_VOP_sub_relu,
  ASC_K_VOP_fused_mul_add_relu
};

static inline float asc_k_vf(int op, float x, float y, float d) {
  switch (op) {
    case ASC_K_VOP_add:
    case ASC_K_VOP_adds:
      return x + y;
    case ASC_K_VOP_sub:
      return x - y;
    case ASC_K_VOP_mul:
    case ASC_K_VOP_muls:
      return x * y;
    case ASC_K_VOP_div:
      return x / y;
    case ASC_K_VOP_max:
    case ASC_K_VOP_maxs:
      return x > y ? x : y;
    case ASC_K_VOP_min:
    case ASC_K_VOP_mins:
      return x < y ? x : y;
    case ASC_K_VOP_fused_mul_add: {
      float p = x * d;
      return p + y;
    }
    case ASC_K_VOP_mul_add_dst:
    case ASC_K_VOP_axpy: {
      float p = x * y;
      return p + d;
    }
    case ASC_K_VOP_leaky_relu:
      return x >= 0.0f ? x : x * y;
    case ASC_K_VOP_exp:
      return expf(x);
    case ASC_K_VOP_ln:
      return logf(x);
    case ASC_K_VOP_abs:
      return fabsf(x);
    case ASC_K_VOP_sqrt:
      return sqrtf(x);
    case ASC_K_VOP_rsqrt:
      return 1.0f / sqrtf(x);
    case ASC_K_VOP_reciprocal:
      return 1.0f / x;
    case ASC_K_VOP_relu:
      return x > 0 ? x : 0.0f;
    case ASC_K_VOP_add_relu:
      return x + y > 0 ? x + y : 0.0f;
    case ASC_K_VOP_sub_relu:
      return x - y > 0 ? x - y : 0.0f;
    case ASC_K_VOP_fused_mul_add_relu: {
      float p = x * d, q = p + y;
      return q > 0 ? q : 0.0f;
    }
    default:
      return x;
  }
}
/* Shifts by a count outside [0, bits) give 0 (left) or the sign (right);
 * right shifts of signed types are arithmetic. */
static inline int64_t asc_k_vi(int op, int64_t x, int64_t y, int64_t d, int bits) {
  (void)d;
  switch (op) {
    case ASC_K_VOP_add:
    case ASC_K_VOP_adds:
      return (int64_t)((uint64_t)x + (uint64_t)y);
    case ASC_K_VOP_sub:
      return (int64_t)((uint64_t)x - (uint64_t)y);
    case ASC_K_VOP_mul:
    case ASC_K_VOP_muls:
      return (int64_t)((uint64_t)x * (uint64_t)y);
    case ASC_K_VOP_max:
    case ASC_K_VOP_maxs:
      return x > y ? x : y;
    case ASC_K_VOP_min:
    case ASC_K_VOP_mins:
      return x < y ? x : y;
    case ASC_K_VOP_bitwise_and:
      return x & y;
    case ASC_K_VOP_bitwise_or:
      return x | y;
    case ASC_K_VOP_bitwise_not:
      return ~x;
    case ASC_K_VOP_abs:
      return x < 0 ? (int64_t)(0 - (uint64_t)x) : x;
    case ASC_K_VOP_relu:
      return x > 0 ? x : 0;
    case ASC_K_VOP_add_relu: { /* int16: the sum wraps as add's does, then relu */
      int64_t sum = (int64_t)((uint64_t)x + (uint64_t)y);
      if (bits < 64) sum = (int64_t)((uint64_t)sum << (64 - bits)) >> (64 - bits);
      return sum > 0 ? sum : 0;
    }
    case ASC_K_VOP_shift_left:
      return y < 0 || y >= bits ? 0 : (int64_t)((uint64_t)x << y);
    case ASC_K_VOP_shift_right:
      return y < 0 || y >= bits ? (x < 0 ? -1 : 0) : x >> y;
    default:
      return x;
  }
}

/* --- cast: RoundMode CAST_NONE 0, RINT 1, FLOOR 2, CEIL 3, ROUND 4, TRUNC 5, ODD 6 --- */
static inline double asc_k_round_int(double n, int mode) {
  switch (mode) {
    case 2:
      return floor(n);
    case 3:
      return ceil(n);
    case 4:
      return round(n); /* half away from zero */
    case 5:
      return trunc(n);
    case 6: { /* to odd: truncate, and make an inexact even result odd */
      double t = trunc(n);
      if (t != n && fmod(t, 2.0) == 0.0) t += n > 0 ? 1.0 : -1.0;
      return t;
    }
    default:
      return nearbyint(n); /* half to even; NONE rounds like RINT */
  }
}
/* x rounded to a binary format with `mant` fraction bits and normal
 * exponents [emin, emax]. Overflow goes to infinity when the mode rounds
 * that way (RINT, ROUND, NONE, CEIL up, FLOOR down), else to the largest
 * finite value. */
static inline double asc_k_round_fmt(double x, int mode, int mant, int emin, int emax) {
  if (x != x || x == 0 || isinf(x)) return x;
  int e;
  frexp(x, &e);
  e -= 1;
  if (e < emin) e = emin;
  double q = ldexp(1.0, e - mant);
  double r = asc_k_round_int(x / q, mode) * q;
  double maxv = ldexp(2.0 - ldexp(1.0, -mant), emax);
  if (fabs(r) > maxv) {
    int to_inf = mode <= 1 || mode == 4 || (mode == 3 && x > 0) || (mode == 2 && x < 0);
    r = to_inf ? copysign((double)INFINITY, x) : copysign(maxv, x);
  }
  return r == 0 ? copysign(0.0, x) : r;
}
/* Float -> integer saturates; NaN gives 0. Integer -> integer saturates. */
static inline void asc_k_cast_store(int dt, char *p, double x, int mode) {
  switch (dt) {
    case ASC_K_DT_FLOAT16:
      asc_k_stf(dt, p, asc_k_round_fmt(x, mode, 10, -14, 15));
      return;
    case ASC_K_DT_BFLOAT16:
      asc_k_stf(dt, p, asc_k_round_fmt(x, mode, 7, -126, 127));
      return;
    case ASC_K_DT_FLOAT32:
      asc_k_stf(dt, p, asc_k_round_fmt(x, mode, 23, -126, 127));
      return;
    case ASC_K_DT_FLOAT64:
      asc_k_stf(dt, p, x);
      return;
    default:
      break;
  }
  double lo = dt == ASC_K_DT_INT8    ? -128.0
              : dt == ASC_K_DT_INT16 ? -32768.0
              : dt == ASC_K_DT_INT32 ? -2147483648.0
              : dt == ASC_K_DT_INT64 ? -0x1p63
                                     : 0.0;
  double hi = dt == ASC_K_DT_INT8     ? 127.0
              : dt == ASC_K_DT_INT16  ? 32767.0
              : dt == ASC_K_DT_INT32  ? 2147483647.0
              : dt == ASC_K_DT_UINT16 ? 65535.0
              : dt == ASC_K_DT_UINT32 ? 4294967295.0
              : dt == ASC_K_DT_INT64  ? 0x1.fffffffffffffp62 /* the last double below 2^63 */
              : dt == ASC_K_DT_UINT64 ? 0x1.fffffffffffffp63
                                      : 255.0;
  double r = x != x ? 0.0 : asc_k_round_int(x, mode);
  r = r < lo ? lo : r > hi ? hi : r;
  /* uint64 past 2^63 has no int64 value: store its bits. */
  asc_k_sti(dt, p, dt == ASC_K_DT_UINT64 ? (int64_t)(uint64_t)r : (int64_t)r);
}

/* A scalar operand in dtype dt's values (the scalar takes the tensor's type). */
static inline double asc_k_scalar_as(int dt, double v) {
  char tmp[8];
  if (asc_k_dt_float(dt)) {
    asc_k_stf(dt, tmp, v);
  } else {
    double c = v != v ? 0.0 : v < -9.2e18 ? -9.2e18 : v > 9.2e18 ? 9.2e18 : v;
    asc_k_sti(dt, tmp, (int64_t)c);
  }
  return asc_k_ld(dt, tmp);
}

/* One instruction of the executor: dst t[0] and nsrc tensor sources. */
typedef struct asc_k_vargs {
  int op, mode; /* mode: RoundMode (cast), CMPMODE (compare), SELMODE (select) */
  int nsrc;
  int dt[3];
  asc_k_lt t[3];
  int64_t blk[3], rep[3]; /* strides in data blocks */
  double scalar;
  asc_k_lt sel; /* select's bit mask */
  int sel_dt;
  int kind; /* see asc_k_sel_make */
  int64_t m0, m1, repeat;
  int set_mask;
  const char *api;
} asc_k_vargs;

/* ASC_K_FAR if it overflows (asc_k_vspans rejects that before any access). */
static inline int64_t asc_k_vaddr(const asc_k_vargs *A, int j, int64_t r, int64_t idx) {
  int64_t es = asc_k_dt_size(A->dt[j]), epb = 32 / es;
  int64_t blocks = asc_k_add(asc_k_mul(r, A->rep[j]), asc_k_mul(idx / epb, A->blk[j]));
  return asc_k_add(asc_k_madd(A->t[j].off, blocks, 32), idx % epb * es);
}
static inline int asc_k_vop_reads_dst(int op) {
  return op == ASC_K_VOP_fused_mul_add || op == ASC_K_VOP_mul_add_dst || op == ASC_K_VOP_axpy ||
         op == ASC_K_VOP_fused_mul_add_relu;
}
static inline int asc_k_vop_bits_dst(int op) {
  return op == ASC_K_VOP_compare || op == ASC_K_VOP_compare_scalar;
}
static inline int asc_k_vop_cmp(int mode, double x, double y) {
  switch (mode) {
    case 0:
      return x < y;
    case 1:
      return x > y;
    case 2:
      return x == y;
    case 3:
      return x <= y;
    case 4:
      return x >= y;
    default:
      return x != y;
  }
}
static inline int asc_k_bit(const char *base, int64_t i) {
  return (base[i >> 3] >> (i & 7)) & 1;
}

/* Bounds (and in checked mode extents and hazards) of every touched span. */
static inline int asc_k_vspans(asc_k_ctx *k, const asc_k_vargs *A, const asc_k_sel *s, int line) {
  static const char *const names[] = {"dst", "src0", "src1"};
  int bits_dst = asc_k_vop_bits_dst(A->op),
      sel_tensor = A->op == ASC_K_VOP_select || A->op == ASC_K_VOP_selects;
  int64_t hi[3] = {0, 0, 0}, bit_hi = -1, sel_hi = -1;
  int any = 0;
  /* A count over contiguous operands (one block apart, a repeat = its
   * elements) touches [off, off + count * size) of each: no need to walk
   * every element, which a fused operator's casts would do per tile. */
  int contiguous = s->counter && !bits_dst && !sel_tensor;
  for (int j = 0; contiguous && j <= A->nsrc; j++)
    contiguous = A->blk[j] == 1 && A->rep[j] * 32 == s->per_rep * asc_k_dt_size(A->dt[j]);
  if (contiguous) {
    any = s->count > 0;
    for (int j = 0; any && j <= A->nsrc; j++) {
      int64_t es = asc_k_dt_size(A->dt[j]), end = asc_k_madd(A->t[j].off, s->count, es);
      if (asc_k_add(A->t[j].off, es) < 0)
        return asc_k_fail(k, line, "%s: %s's addresses (strides) leave the Unified Buffer", A->api,
                          names[j]);
      hi[j] = end > 0 ? end : 0;
    }
  }
  for (int64_t r = 0; !contiguous && r < s->nrep; r++)
    for (int64_t idx = 0; idx < s->per_rep; idx++) {
      if (!asc_k_sel_on(s, r, idx)) continue;
      any = 1;
      for (int j = 0; j <= A->nsrc; j++) {
        int64_t end = asc_k_add(asc_k_vaddr(A, j, r, idx), asc_k_dt_size(A->dt[j]));
        if (end < 0)
          return asc_k_fail(k, line, "%s: %s's addresses (strides) leave the Unified Buffer",
                            A->api, names[j]);
        if (end > hi[j]) hi[j] = end;
      }
      if (r * s->per_rep + idx > bit_hi) bit_hi = r * s->per_rep + idx;
      int64_t sb = A->mode == 0 ? idx : r * s->per_rep + idx;
      if (sb > sel_hi) sel_hi = sb;
    }
  if (!any) return 0;
  for (int j = 1; j <= A->nsrc; j++) {
    int64_t es = asc_k_dt_size(A->dt[j]);
    if (asc_k_ub_use(k, ASC_K_V, A->t[j], (hi[j] - A->t[j].off) / es, es, ASC_K_READ, A->api,
                     names[j], line))
      return 1;
  }
  if (sel_tensor) {
    int64_t es = asc_k_dt_size(A->sel_dt);
    if (asc_k_ub_use(k, ASC_K_V, A->sel, ((sel_hi >> 3) + es) / es, es, ASC_K_READ, A->api,
                     "sel_mask", line))
      return 1;
  }
  int64_t es = asc_k_dt_size(A->dt[0]);
  int64_t n = bits_dst ? ((bit_hi >> 3) + es) / es : (hi[0] - A->t[0].off) / es;
  if (asc_k_vop_reads_dst(A->op) &&
      asc_k_ub_use(k, ASC_K_V, A->t[0], n, es, ASC_K_READ, A->api, "dst", line))
    return 1;
  return asc_k_ub_use(k, ASC_K_V, A->t[0], n, es, ASC_K_WRITE, A->api, "dst", line);
}

/* The count form of cast between float32 and float16/bfloat16 in CAST_NONE
 * or CAST_RINT, source and destination apart: the bits of the element loop
 * in asc_k_vrun (both round half to even and overflow to infinity), without
 * its trip through double. The casts of fused operators (pyasc.op) take
 * it. 1 if it did the cast. */
static inline int asc_k_cast_fast(char *ub, const asc_k_vargs *A) {
  int dd = A->dt[0], ds = A->dt[1];
  int64_t n = A->m0, ed = asc_k_dt_size(dd), es = asc_k_dt_size(ds);
  int64_t d0 = A->t[0].off, s0 = A->t[1].off;
  if (A->mode > 1 || n <= 0 || !(d0 + n * ed <= s0 || s0 + n * es <= d0)) return 0;
  char *d = ub + d0;
  const char *src = ub + s0;
  /* One loop per pair, without branches, so that they vectorise. */
#define ASC_K_CAST_LOOP(ST, DT, CONVERT)                 \
  for (int64_t i = 0; i < n; i++) {                      \
    ST x;                                                \
    memcpy(&x, src + (int64_t)sizeof(ST) * i, sizeof x); \
    DT y = CONVERT;                                      \
    memcpy(d + (int64_t)sizeof(DT) * i, &y, sizeof y);   \
  }
  if (ds == ASC_K_DT_FLOAT32 && dd == ASC_K_DT_BFLOAT16) {
    /* asc_k_f2bf on the bits: round half to even, a quiet NaN kept */
    ASC_K_CAST_LOOP(uint32_t, uint16_t,
                    (x & 0x7fffffffu) > 0x7f800000u
                        ? (uint16_t)(((x >> 16) & 0x8000u) | 0x7fc0u)
                        : (uint16_t)((x + 0x7fffu + ((x >> 16) & 1u)) >> 16))
  } else if (ds == ASC_K_DT_BFLOAT16 && dd == ASC_K_DT_FLOAT32) {
    ASC_K_CAST_LOOP(uint16_t, uint32_t, (uint32_t)x << 16)
  } else if (ds == ASC_K_DT_FLOAT32 && dd == ASC_K_DT_FLOAT16) {
    ASC_K_CAST_LOOP(float, uint16_t, asc_k_f2h(x))
  } else if (ds == ASC_K_DT_FLOAT16 && dd == ASC_K_DT_FLOAT32) {
    ASC_K_CAST_LOOP(uint16_t, float, asc_k_h2f(x))
  } else {
    return 0;
  }
#undef ASC_K_CAST_LOOP
  return 1;
}

static inline int asc_k_vrun(asc_k_ctx *k, const asc_k_vargs *A, int line) {
  int bits_dst = asc_k_vop_bits_dst(A->op), reads_dst = asc_k_vop_reads_dst(A->op);
  int64_t widest = bits_dst ? 1 : asc_k_dt_size(A->dt[0]);
  for (int j = 1; j <= A->nsrc; j++)
    if (asc_k_dt_size(A->dt[j]) > widest) widest = asc_k_dt_size(A->dt[j]);
  for (int j = 0; j <= A->nsrc; j++)
    if (A->blk[j] < 0 || A->rep[j] < 0)
      return asc_k_fail(k, line, "%s: negative block or repeat stride", A->api);
  if (bits_dst && A->kind == 2 && asc_k_mul(A->m0, asc_k_dt_size(A->dt[1])) % 256)
    return asc_k_fail(k, line, "%s: %lld elements are not a multiple of 256 bytes", A->api,
                      (long long)A->m0);
  asc_k_sel s;
  int kind = A->kind, set_mask = A->set_mask, counter = k->vm.counter;
  uint64_t m0 = (uint64_t)A->m0;
  if (A->op == ASC_K_VOP_copy && counter && kind != 2) {
    /* Copy's counter mode counts elements per repeat; repeat_time applies */
    if (!set_mask) m0 = k->vm.m[0];
    kind = 0, set_mask = 1, k->vm.counter = 0;
  }
  int bad = asc_k_sel_make(k, &s, kind, m0, (uint64_t)A->m1, A->repeat, set_mask, 256 / widest, 255,
                           A->api, line);
  k->vm.counter = counter;
  if (bad || asc_k_vspans(k, A, &s, line)) return 1;
  if (A->op == ASC_K_VOP_cast && kind == 2 && asc_k_cast_fast(k->ub, A)) return 0;
  char *ub = k->ub;
  int dd = A->dt[0], ds = A->nsrc ? A->dt[1] : dd;
  int fl = asc_k_dt_float(dd), bits = (int)(8 * asc_k_dt_size(ds));
  double sc = asc_k_scalar_as(ds, A->scalar);
  char sc_raw[8];
  asc_k_stf(dd, sc_raw, sc);
  if (!asc_k_dt_float(dd)) asc_k_sti(dd, sc_raw, (int64_t)sc);
  int64_t es = asc_k_dt_size(dd);
  for (int64_t r = 0; r < s.nrep; r++)
    for (int64_t idx = 0; idx < s.per_rep; idx++) {
      if (!asc_k_sel_on(&s, r, idx)) continue;
      const char *pa = A->nsrc > 0 ? ub + asc_k_vaddr(A, 1, r, idx) : NULL;
      const char *pb = A->nsrc > 1 ? ub + asc_k_vaddr(A, 2, r, idx) : NULL;
      if (bits_dst) {
        int64_t bit = r * s.per_rep + idx;
        double y = pb ? asc_k_ld(ds, pb) : sc;
        char *byte = ub + A->t[0].off + (bit >> 3);
        if (asc_k_vop_cmp(A->mode, asc_k_ld(ds, pa), y))
          *byte = (char)(*byte | (1 << (bit & 7)));
        else
          *byte = (char)(*byte & ~(1 << (bit & 7)));
        continue;
      }
      char *pd = ub + asc_k_vaddr(A, 0, r, idx);
      if (A->op == ASC_K_VOP_select || A->op == ASC_K_VOP_selects) {
        int64_t sb = A->mode == 0 ? idx : r * s.per_rep + idx;
        const char *pick = asc_k_bit(ub + A->sel.off, sb) ? pa : pb ? pb : sc_raw;
        memmove(pd, pick, (size_t)es);
      } else if (A->op == ASC_K_VOP_copy) {
        memmove(pd, pa, (size_t)es); /* bits as they are */
      } else if (A->op == ASC_K_VOP_duplicate) {
        memmove(pd, sc_raw, (size_t)es);
      } else if (A->op == ASC_K_VOP_cast) {
        asc_k_cast_store(dd, pd, asc_k_ld(ds, pa), A->mode);
      } else if (fl) {
        float x = pa ? (float)asc_k_ld(ds, pa) : 0.0f;
        float y = pb ? (float)asc_k_ld(ds, pb) : (float)sc;
        float d = reads_dst ? (float)asc_k_ld(dd, pd) : 0.0f, r;
        /* exp and ln as the count forms compute them (rt/vmath.h) */
        if (A->op == ASC_K_VOP_exp || A->op == ASC_K_VOP_ln)
          asc_k_vm_float32(k, A->op == ASC_K_VOP_exp ? ASC_K_VM_EXP : ASC_K_VM_LOG, &r, &x, 1);
        else
          r = asc_k_vf(A->op, x, y, d);
        asc_k_stf(dd, pd, r);
      } else {
        int64_t x = pa ? asc_k_ldi(ds, pa) : 0, y = pb ? asc_k_ldi(ds, pb) : (int64_t)sc;
        int64_t d = reads_dst ? asc_k_ldi(dd, pd) : 0;
        asc_k_sti(dd, pd, asc_k_vi(A->op, x, y, d, bits));
      }
    }
  return 0;
}
