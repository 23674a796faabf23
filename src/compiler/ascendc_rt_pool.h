/* Part of ascendc_rt.c, included only from it: TBufPool and custom pools
 * (EXTERN_IMPL_BUFPOOL) for Ascend C. A pool is the runtime's TPipe with its
 * pool fields set (rt/fwk.h), the object a Python kernel's TBufPool is: its
 * InitBuffer is TPipe's init_buffer on it, its InitBufPool and Reset are
 * asc_k_buf_pool_init and asc_k_buf_pool_reset. A custom pool places its
 * queues' buffers itself (TQue::InitBufHandle); the buffer joins the pool
 * as init_buffer's would, at the address the pool chose. */

/* A custom pool's buffer [addr, addr + len) of the UB: the device does not
 * check it; checked mode requires it inside the pool (as asc_k_pipe_take
 * does for TBufPool) and not overlapping a live allocation. */
static int sim_pool_span(asc_k_ctx *k, const asc_k_pipe *p, int64_t addr, int64_t len,
                         const char *api, int L) {
  if (addr < 0 || len < 0 || !asc_k_span_in(addr, len, asc_k_ub_end(k)))
    return asc_k_fail(k, L, "%s: %lld bytes at UB byte %lld leave the %lld-byte Unified Buffer",
                      api, (long long)len, (long long)addr, (long long)k->ub_size);
#if ASC_K_CHECKED
  if (p->pool != 2) return asc_k_fail(k, L, "%s: no InitBufPool gave this pool memory", api);
  if (addr < p->base || len > p->end - addr)
    return asc_k_fail(k, L,
                      "%s: %lld bytes at UB byte %lld leave the pool's bytes [%lld, %lld) "
                      "(TPipe::InitBufPool's length)",
                      api, (long long)len, (long long)addr, (long long)p->base, (long long)p->end);
#else
  (void)p;
#endif
  return 0;
}

/* InitBufHandle for a TQue: buffer index of num, each len bytes. */
static int sim_pool_que_buf(asc_k_ctx *k, asc_k_pipe *p, asc_k_que *q, const int64_t *v, int L) {
  const int64_t num = v[0], i = v[1], addr = v[2], len = v[3];
  if (num < 1 || num > ASC_K_MAX_DEPTH || i < 0 || i >= num)
    return asc_k_fail(k, L,
                      "InitBufHandle: buffer %lld of %lld (InitStartBufHandle's num must be in "
                      "[1, %d] and the index below it)",
                      (long long)i, (long long)num, ASC_K_MAX_DEPTH);
  if (sim_pool_span(k, p, addr, len, "InitBufHandle", L)) return 1;
  /* the first buffer attaches the queue to the pool (its hand-overs end at Reset) */
  if (i == 0 && asc_k_que_attach(k, p, q, num, len, L)) return 1;
  if (q->pipe != p || q->nbuf != num)
    return asc_k_fail(k, L, "InitBufHandle: buffer %lld before buffer 0 of this queue",
                      (long long)i);
  q->buf_off[i] = addr;
  q->state[i] = 0;
  q->via[i] = NULL;
#if ASC_K_CHECKED
  memset(q->chk_vc[i], 0, sizeof q->chk_vc[i]);
  return asc_k_chk_alloc(k, addr, addr + asc_k_mul(asc_k_add(len, 31) / 32, 32), ASC_K_ALLOC_QUE,
                         "InitBufHandle", L);
#else
  return 0;
#endif
}

static int sim_pool_more(void *kv, int op, void *pool, void *other, void *obj, const int64_t *v,
                         int64_t *out, const char *file, int line) {
  asc_k_ctx *k = kv;
  asc_k_pipe *p = pool;
  int L = at(file, line);
  switch (op) {
    case PYASC_SIM_POOL_NEW:
      if (v[0] < 1 || v[0] > 16)
        return asc_k_fail(k, L, "TBufPool: bufIDSize %lld is outside [1, 16]", (long long)v[0]);
      memset(p, 0, sizeof *p);
      p->pool = 1; /* no memory until InitBufPool (rt/fwk.h) */
      p->max_bufs = (int)v[0];
      return 0;
    case PYASC_SIM_POOL_INIT:
      if (asc_k_buf_pool_init(k, other, p, v[0], obj, L)) return 1;
      *out = p->base;
      return 0;
    case PYASC_SIM_POOL_RESET:
      asc_k_buf_pool_reset(k, p);
      return 0;
    case PYASC_SIM_POOL_QUE_BUF:
      return sim_pool_que_buf(k, p, obj, v, L);
    case PYASC_SIM_POOL_TBUF_BUF: {
      asc_k_tbuf *b = obj;
      if (sim_pool_span(k, p, v[0], v[1], "InitBufHandle", L)) return 1;
      b->off = v[0];
      b->len = v[1];
#if ASC_K_CHECKED
      return asc_k_chk_alloc(k, v[0], v[0] + asc_k_mul(asc_k_add(v[1], 31) / 32, 32),
                             ASC_K_ALLOC_TBUF, "InitBufHandle", L);
#else
      return 0;
#endif
    }
    case PYASC_SIM_POOL_STACK: { /* PopStackBuffer: the Unified Buffer past the pipe's buffers */
      int64_t start = asc_k_mul(asc_k_add(p->cursor, 31) / 32, 32);
      int64_t end = p->pool ? p->end : k->ub_size;
      if (start >= end)
        return asc_k_fail(k, L,
                          "PopStackBuffer: the TPipe's buffers use the Unified Buffer up to byte "
                          "%lld of %lld: none is left",
                          (long long)p->cursor, (long long)end);
      out[0] = start;
      out[1] = end - start;
      return 0;
    }
    default:
      return asc_k_fail(k, L, "unknown pool form %d", op);
  }
}
