/* --- fwk/core: the atomic store mode, TBufPool, TQue queries, LocalTensor and
 * GlobalTensor setters, user tags, set_pad_value ---------------------------------
 * The atomic store mode (set_atomic_add/max/min/type/none, set_store_atomic_config)
 * is a register of the block's core: while its type is not ATOMIC_NONE, every
 * UB -> GM copy (data_copy, data_copy with DataCopyParams, data_copy_pad)
 * combines each element with what global memory holds instead of overwriting
 * it. Blocks run concurrently on host threads and may target the same
 * elements, so each element is combined by a compare-and-swap loop: the
 * result is as if the blocks' updates came one at a time, in some order.
 * float16/bfloat16 combine in float and round once, as the hardware's
 * accumulator does. */

/* AtomicDtype -> its element size in bytes (0: ATOMIC_NONE or unknown). */
static inline int64_t asc_k_atomic_size(int type) {
  static const int8_t sizes[] = {0, 4, 2, 2, 4, 1, 2};
  return type >= 0 && type < (int)sizeof sizes ? sizes[type] : 0;
}
static inline const char *asc_k_atomic_name(int type) {
  static const char *const names[] = {"none",  "float32", "float16", "int16",
                                      "int32", "int8",    "bfloat16"};
  return type >= 0 && type < 7 ? names[type] : "?";
}
/* set_atomic_*: type is the AtomicDtype, op 0 sum / 1 max / 2 min, -1 keeps the op. */
static inline void asc_k_atomic_set(asc_k_ctx *k, int type, int op) {
  k->fwk.atomic_type = type;
  if (op >= 0) k->fwk.atomic_op = op;
}

static inline uint16_t asc_k_atomic_f2bf(float f) {
  uint32_t u;
  memcpy(&u, &f, sizeof u);
  if ((u & 0x7fffffffu) > 0x7f800000u) return (uint16_t)((u >> 16) | 0x40u); /* quiet NaN */
  u += 0x7fffu + ((u >> 16) & 1u);                                           /* to nearest even */
  return (uint16_t)(u >> 16);
}
static inline float asc_k_atomic_bf2f(uint16_t b) {
  uint32_t u = (uint32_t)b << 16;
  float f;
  memcpy(&f, &u, sizeof f);
  return f;
}
static inline float asc_k_atomic_fop(int op, float a, float b) {
  return op == 1 ? fmaxf(a, b) : op == 2 ? fminf(a, b) : a + b;
}
static inline int64_t asc_k_atomic_iop(int op, int64_t a, int64_t b) {
  return op == 1 ? (a > b ? a : b) : op == 2 ? (a < b ? a : b) : a + b;
}

/* Combines the element at p (global memory, aligned) with the value at s
 * (UB) under the mode (type, op), atomically. The integer sums wrap. */
#define ASC_K_ATOMIC_CAS(UT, NEXT)                                                                \
  do {                                                                                            \
    UT *p_ = (UT *)(void *)p, old_ = __atomic_load_n(p_, __ATOMIC_RELAXED), new_, v_;             \
    memcpy(&v_, s, sizeof v_);                                                                    \
    do new_ = NEXT;                                                                               \
    while (!__atomic_compare_exchange_n(p_, &old_, new_, 1, __ATOMIC_RELAXED, __ATOMIC_RELAXED)); \
  } while (0)
static inline float asc_k_atomic_u2f(uint32_t u) {
  float f;
  memcpy(&f, &u, sizeof f);
  return f;
}
static inline uint32_t asc_k_atomic_f2u(float f) {
  uint32_t u;
  memcpy(&u, &f, sizeof u);
  return u;
}
static inline void asc_k_atomic_elem(int type, int op, char *p, const char *s) {
  switch (type) {
    case 1:
      ASC_K_ATOMIC_CAS(uint32_t, asc_k_atomic_f2u(asc_k_atomic_fop(op, asc_k_atomic_u2f(old_),
                                                                   asc_k_atomic_u2f(v_))));
      break;
    case 2:
      ASC_K_ATOMIC_CAS(uint16_t, asc_k_f2h(asc_k_atomic_fop(op, asc_k_h2f(old_), asc_k_h2f(v_))));
      break;
    case 3:
      ASC_K_ATOMIC_CAS(uint16_t, (uint16_t)asc_k_atomic_iop(op, (int16_t)old_, (int16_t)v_));
      break;
    case 4:
      ASC_K_ATOMIC_CAS(uint32_t, (uint32_t)asc_k_atomic_iop(op, (int32_t)old_, (int32_t)v_));
      break;
    case 5:
      ASC_K_ATOMIC_CAS(uint8_t, (uint8_t)asc_k_atomic_iop(op, (int8_t)old_, (int8_t)v_));
      break;
    case 6:
      ASC_K_ATOMIC_CAS(uint16_t, asc_k_atomic_f2bf(asc_k_atomic_fop(op, asc_k_atomic_bf2f(old_),
                                                                    asc_k_atomic_bf2f(v_))));
      break;
    default:
      break;
  }
}
#undef ASC_K_ATOMIC_CAS

/* A UB -> GM store of `bytes` at byte `at` of g's argument, of esize-byte
 * elements: a plain write (clipped to the argument), or under the atomic
 * mode an element-wise atomic combine, whose element type must be the
 * data's. */
static inline int asc_k_gm_store(asc_k_ctx *k, const asc_k_gt *g, int64_t at, const char *src,
                                 int64_t bytes, int64_t esize, const char *api, int line) {
  int type = k->fwk.atomic_type;
  if (!type) {
    asc_k_gm_write(g, at, src, bytes);
    return 0;
  }
  int64_t es = asc_k_atomic_size(type), lo, hi;
  if (es != esize)
    return asc_k_fail(k, line,
                      "%s: the atomic mode combines %s elements but the data has %lld-byte "
                      "elements (set the atomic dtype of the data)",
                      api, asc_k_atomic_name(type), (long long)esize);
  if (!asc_k_gm_clip(g, at, bytes, &lo, &hi)) return 0;
  if ((lo - at) % es || (uintptr_t)(g->base + lo) % (uintptr_t)es)
    return asc_k_fail(k, line,
                      "%s: atomic store to a global address not aligned to its %lld-byte "
                      "elements",
                      api, (long long)es);
  for (int64_t i = lo; i + es <= hi; i += es)
    asc_k_atomic_elem(type, k->fwk.atomic_op, g->base + i, src + (i - at));
  return 0;
}

/* --- TBufPool: a TPipe-like range [base, end) of the UB -------------------------
 * pool is 1 for a TBufPool that no init_buf_pool gave memory yet (as Ascend
 * C's constructor leaves it: start 0, length 0), 2 once one did. The device
 * does not check a pool's bounds: an init_buffer or init_buf_pool beyond
 * them, a re-initialised pool and a shared pool longer than the one it
 * shares are errors in checked mode and otherwise take the memory as the
 * device does (the UB's own bounds always hold). */
static inline int asc_k_buf_pool_init(asc_k_ctx *k, asc_k_pipe *parent, asc_k_pipe *pool,
                                      int64_t len, asc_k_pipe *share, int line) {
#if ASC_K_CHECKED
  if (pool->pool == 2)
    return asc_k_fail(k, line, "init_buf_pool: this TBufPool already has its memory");
#endif
  if (len < 0) return asc_k_fail(k, line, "init_buf_pool: negative length %lld", (long long)len);
  int64_t aligned = asc_k_mul(asc_k_add(len, 31) / 32, 32);
  if (share) {
#if ASC_K_CHECKED
    if (aligned > share->end - share->base)
      return asc_k_fail(k, line,
                        "init_buf_pool: %lld bytes exceed the %lld bytes of share_buf (a "
                        "shared pool may not be longer than the pool it reuses)",
                        (long long)aligned, (long long)(share->end - share->base));
#endif
    /* the shared pool takes share_buf's start and length */
    pool->base = share->base;
    pool->end = share->end;
  } else if (asc_k_pipe_take(k, parent, len, &pool->base, "init_buf_pool", line)) {
    return 1;
  } else {
    pool->end = pool->base + aligned;
  }
  pool->pool = 2;
  pool->cursor = pool->base;
  return 0;
}
/* TBufPool.reset: the pool's queues end their hand-overs (their buffers stay,
 * their contents may be rewritten by a pool that shares the memory). */
static inline void asc_k_buf_pool_reset(asc_k_ctx *k, asc_k_pipe *p) {
  for (int j = 0; j < p->nques; j++) {
    asc_k_que *q = p->ques[j];
    q->head = q->count = 0;
    for (int i = 0; i < q->nbuf; i++) {
      q->state[i] = 0;
      q->via[i] = NULL;
    }
  }
#if ASC_K_CHECKED
  /* its buffers may now be handed out again through a pool sharing them */
  struct asc_k_chk *c = k->chk;
  int n = 0;
  for (int i = 0; i < c->nallocs; i++)
    if (c->allocs[i].kind == ASC_K_ALLOC_LOCAL || c->allocs[i].lo < p->base ||
        c->allocs[i].hi > p->end)
      c->allocs[n++] = c->allocs[i];
  c->nallocs = n;
#else
  (void)k;
#endif
}
/* TQue.has_idle_buffer: a buffer alloc_tensor could hand out. */
static inline int asc_k_que_idle(const asc_k_que *q) {
  for (int i = 0; i < q->nbuf; i++)
    if (q->state[i] == 0) return 1;
  return 0;
}

/* --- LocalTensor / GlobalTensor setters ----------------------------------------- */
/* set_size (n elements) and set_buffer_len (n bytes): the same address. */
static inline int asc_k_local_resize(asc_k_ctx *k, asc_k_lt t, int64_t n, int bytes, int64_t es,
                                     asc_k_lt *r, int line) {
  const char *api = bytes ? "set_buffer_len" : "set_size";
  if (n < 0) return asc_k_fail(k, line, "%s: negative length %lld", api, (long long)n);
  if (bytes && n % es)
    return asc_k_fail(k, line, "set_buffer_len: %lld bytes are not whole %lld-byte elements",
                      (long long)n, (long long)es);
  r->off = t.off;
  r->len = bytes ? n / es : n;
  return asc_k_local_check(k, *r, es, line);
}
/* set_addr_with_offset(src, offset): src's address plus offset of src's
 * elements, as far as src reaches. */
static inline int asc_k_local_with_offset(asc_k_ctx *k, asc_k_lt src, int64_t off, int64_t src_es,
                                          int64_t es, asc_k_lt *r, int line) {
  if (off < 0 || off > src.len)
    return asc_k_fail(k, line,
                      "set_addr_with_offset: offset %lld is outside the source tensor's %lld "
                      "elements",
                      (long long)off, (long long)src.len);
  r->off = asc_k_madd(src.off, off, src_es);
  r->len = asc_k_mul(src.len - off, src_es) / es;
  return 0;
}
/* User tags belong to the buffer at a UB address (a tensor handed through
 * queues keeps its tag); an untagged buffer reads 0. */
static inline int asc_k_set_user_tag(asc_k_ctx *k, asc_k_lt t, int64_t tag, int line) {
  asc_k_fwk *f = &k->fwk;
  int i = 0;
  while (i < f->ntags && f->tag_off[i] != t.off) i++;
  if (i == ASC_K_MAX_TAGS)
    return asc_k_fail(k, line, "set_user_tag: more than %d tagged buffers", ASC_K_MAX_TAGS);
  if (tag < INT32_MIN || tag > INT32_MAX)
    return asc_k_fail(k, line, "set_user_tag: tag %lld is not an int32", (long long)tag);
  if (i == f->ntags) f->ntags++;
  f->tag_off[i] = t.off;
  f->tag_val[i] = tag;
  return 0;
}
static inline int64_t asc_k_get_user_tag(const asc_k_ctx *k, asc_k_lt t) {
  for (int i = 0; i < k->fwk.ntags; i++)
    if (k->fwk.tag_off[i] == t.off) return k->fwk.tag_val[i];
  return 0;
}
/* GlobalTensor.get_phy_addr(offset): the address of element offset. */
static inline int asc_k_global_phy_addr(asc_k_ctx *k, asc_k_gt g, int64_t off, int64_t es,
                                        asc_k_addr *r, int line) {
  if (off < 0) return asc_k_fail(k, line, "get_phy_addr: negative offset %lld", (long long)off);
  r->base = g.base;
  r->n = g.n;
  r->lead = asc_k_madd(g.lead, off, es);
  return 0;
}
/* set_pad_value: what data_copy_pad GM -> UB writes after each row up to
 * its 32-byte boundary (without it those bytes are left as they were). */
static inline void asc_k_set_pad_value(asc_k_ctx *k, double v) {
  k->fwk.pad_set = 1;
  k->fwk.pad_value = v;
}

/* --- sync_all's soft form (the meeting itself: rt/wait.h) ---------------------- */
static inline int asc_k_sync_all_soft(asc_k_ctx *k, asc_k_gt gm, asc_k_lt ub, int64_t used,
                                      int line) {
  int64_t need = asc_k_mul(k->block_num, 8); /* int32 elements: 32 bytes a core */
  if (gm.size >= 0 && asc_k_global_size(gm) < need)
    return asc_k_fail(k, line,
                      "sync_all: gm_workspace holds %lld int32 elements; %lld blocks need %lld "
                      "(32 bytes each)",
                      (long long)asc_k_global_size(gm), (long long)k->block_num, (long long)need);
  if (ub.len < need)
    return asc_k_fail(k, line,
                      "sync_all: ub_workspace holds %lld int32 elements; %lld blocks need %lld "
                      "(32 bytes each)",
                      (long long)ub.len, (long long)k->block_num, (long long)need);
  return asc_k_sync_all(k, used, line);
}
