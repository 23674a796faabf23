/* --- global memory -----------------------------------------------------------
 * A GM access outside its argument is no error by default, as on the device:
 * a read there returns unspecified values (zeros here, deterministically) and
 * a write there is dropped, so that host memory beyond the argument is never
 * touched. Checked mode reports such an access as the bug it is, and also one
 * that leaves the length given to set_global_buffer. */
static inline asc_k_addr asc_k_addr_offset(asc_k_addr a, int64_t elements, int64_t size) {
  a.lead = asc_k_madd(a.lead, elements, size);
  return a;
}
/* printf's %s of a GM address: its bytes up to a NUL into buf (n bytes,
 * NUL-terminated; longer strings are cut), never reading outside the
 * argument; checked mode reports an address outside it or a string that
 * runs to the argument's end without a NUL. */
static inline int asc_k_addr_str(asc_k_ctx *k, asc_k_addr a, char *buf, size_t n, int line) {
  buf[0] = 0;
  if (a.lead == ASC_K_FAR || a.lead < 0 || a.lead > a.n) {
#if ASC_K_CHECKED
    return asc_k_fail(k, line, "printf: the %%s address is outside its argument");
#else
    (void)k, (void)line;
    return 0;
#endif
  }
  size_t i = 0;
  const char *p = a.base + a.lead;
  int64_t left = a.n - a.lead;
  while ((int64_t)i < left && p[i] && i + 1 < n) {
    buf[i] = p[i];
    i++;
  }
  buf[i] = 0;
#if ASC_K_CHECKED
  if ((int64_t)i == left)
    return asc_k_fail(k, line,
                      "printf: the %%s string at this address has no NUL before the end of its "
                      "argument");
#endif
  (void)k, (void)line;
  return 0;
}
static inline int asc_k_global_new(asc_k_ctx *k, asc_k_gt *g, asc_k_addr a, int64_t size,
                                   int64_t esize, int line) {
#if ASC_K_CHECKED
  if (a.lead == ASC_K_FAR || a.lead > a.n)
    return asc_k_fail(k, line, "set_global_buffer: address is past the end of its argument");
  if (a.lead < 0)
    return asc_k_fail(k, line,
                      "set_global_buffer: address is %lld bytes before the start of its argument",
                      (long long)-a.lead);
  int64_t bytes = asc_k_mul(size, esize);
  if (size >= 0 && (bytes < 0 || bytes > a.n - a.lead))
    return asc_k_fail(k, line,
                      "set_global_buffer: %lld elements exceed the %lld bytes left in the argument",
                      (long long)size, (long long)(a.n - a.lead));
#else
  (void)k, (void)esize, (void)line;
#endif
  g->base = a.base;
  g->n = a.n;
  g->lead = a.lead;
  g->size = size < 0 ? -1 : size;
  g->skip = 0;
  return 0;
}
static inline asc_k_gt asc_k_global_slice(asc_k_gt g, int64_t off, int64_t esize) {
  g.lead = asc_k_madd(g.lead, off, esize);
  g.skip = asc_k_add(g.skip, off);
  return g;
}
/* get_size: the elements from this view to set_global_buffer's end. */
static inline int64_t asc_k_global_size(asc_k_gt g) {
  if (g.size < 0) return 0;
  int64_t left = asc_k_sub(g.size, g.skip);
  return left < 0 ? 0 : left;
}
/* The checks before an access of count elements at element offset off of
 * g: a negative count always fails; checked mode also fails outside the
 * argument and outside set_global_buffer's length. */
static inline int asc_k_gm_range(asc_k_ctx *k, const asc_k_gt *g, int64_t off, int64_t count,
                                 int64_t esize, const char *api, int line) {
  if (count < 0)
    return asc_k_fail(k, line, "%s: negative element count %lld", api, (long long)count);
#if ASC_K_CHECKED
  if (!asc_k_span_in(asc_k_madd(g->lead, off, esize), asc_k_mul(count, esize), g->n))
    return asc_k_fail(k, line,
                      "%s: global memory access of %lld elements at offset %lld is outside the "
                      "argument (%lld bytes left)",
                      api, (long long)count, (long long)off, (long long)asc_k_sub(g->n, g->lead));
  int64_t first = asc_k_add(g->skip, off), end = asc_k_add(first, count);
  if (g->size >= 0 && (first < 0 || end < 0 || end > g->size))
    return asc_k_fail(k, line,
                      "%s: global memory elements [%lld, %lld) are outside the %lld elements "
                      "bound by set_global_buffer (this view starts at element %lld of them)",
                      api, (long long)first, (long long)end, (long long)g->size,
                      (long long)g->skip);
#else
  (void)g, (void)off, (void)esize;
#endif
  return 0;
}
/* The part of bytes [at, at + bytes) of g's argument inside it, as
 * [*lo, *hi); 0 if none. bytes is at most a UB span. */
static inline int asc_k_gm_clip(const asc_k_gt *g, int64_t at, int64_t bytes, int64_t *lo,
                                int64_t *hi) {
  int64_t end = asc_k_add(at, bytes);
  if (at == ASC_K_FAR || end == ASC_K_FAR || at >= g->n || end <= 0 || bytes <= 0) return 0;
  *lo = at < 0 ? 0 : at;
  *hi = end > g->n ? g->n : end;
  return 1;
}
/* Reads bytes [at, at + bytes) of the argument (at counted from its start)
 * into dst; bytes outside it read as zeros. */
static inline void asc_k_gm_read(const asc_k_gt *g, int64_t at, char *dst, int64_t bytes) {
  int64_t lo, hi;
  if (!asc_k_gm_clip(g, at, bytes, &lo, &hi)) {
    if (bytes > 0) memset(dst, 0, (size_t)bytes);
    return;
  }
  memset(dst, 0, (size_t)(lo - at));
  memcpy(dst + (lo - at), g->base + lo, (size_t)(hi - lo));
  memset(dst + (hi - at), 0, (size_t)(at + bytes - hi));
}
static inline void asc_k_store_gm(char *dst, const char *src, size_t n);
/* Writes src to bytes [at, at + bytes) of the argument; what falls
 * outside it is dropped. */
static inline void asc_k_gm_write(const asc_k_gt *g, int64_t at, const char *src, int64_t bytes) {
  int64_t lo, hi;
  if (asc_k_gm_clip(g, at, bytes, &lo, &hi))
    asc_k_store_gm(g->base + lo, src + (lo - at), (size_t)(hi - lo));
}

/* One element's write (SetValue): clipped as asc_k_gm_write, a plain copy
 * (the streaming stores are for tiles; compilers also warn about their
 * 16-byte loads next to a 1-byte object). */
static inline void asc_k_gm_put(const asc_k_gt *g, int64_t at, const char *src, int64_t bytes) {
  int64_t lo, hi;
  if (asc_k_gm_clip(g, at, bytes, &lo, &hi))
    memcpy(g->base + lo, src + (lo - at), (size_t)(hi - lo));
}

/* --- the Unified Buffer ---------------------------------------------------- */
static inline int asc_k_ub_range(asc_k_ctx *k, asc_k_lt t, int64_t count, int64_t esize,
                                 const char *api, int line) {
#if ASC_K_CHECKED
  if (count >= 0 && asc_k_chk_extent(k, t, count, esize, api, "an operand", line)) return 1;
#endif
  if (count < 0 || !asc_k_span_in(t.off, asc_k_mul(count, esize), asc_k_ub_end(k))) {
    char note[96];
    return asc_k_fail(k, line,
                      "%s: %lld elements at UB byte %lld overrun the %lld-byte Unified Buffer%s",
                      api, (long long)count, (long long)t.off, (long long)k->ub_size,
                      asc_k_reach_note(k, note, sizeof note));
  }
  return 0;
}
/* An access check_local_memory_ia (rt/system.h) traps, as the hardware's
 * exception: scalar (S), vector (V) and MTE pipes, read or write. */
static inline int asc_k_ia_trap(asc_k_ctx *k, int pipe, asc_k_lt t, int64_t count, int64_t esize,
                                int write, const char *api, int line) {
  int cls = pipe == ASC_K_S                            ? 0
            : pipe == ASC_K_V                          ? 1
            : pipe == ASC_K_MTE2 || pipe == ASC_K_MTE3 ? 2
                                                       : -1;
  if (cls < 0) return 0;
  int bit = 1 << (cls * 2 + (write ? 1 : 0));
  int64_t lo = t.off, hi = asc_k_add(lo, asc_k_mul(count, esize));
  for (int r = 0; r < 4; r++)
    if ((k->sys.ia_flags[r] & bit) && lo < k->sys.ia_hi[r] && hi > k->sys.ia_lo[r])
      return asc_k_fail(
          k, line,
          "%s: a %s %s of UB bytes [%lld, %lld) is inside the range check_local_memory_ia "
          "register %d watches (bytes [%lld, %lld))",
          api,
          cls == 0   ? "scalar"
          : cls == 1 ? "vector"
                     : "MTE",
          write ? "write" : "read", (long long)lo, (long long)hi, r, (long long)k->sys.ia_lo[r],
          (long long)k->sys.ia_hi[r]);
  return 0;
}
/* An instruction on `pipe` reading or writing count elements of t; see
 * "checked mode" above. */
static inline int asc_k_ub_use(asc_k_ctx *k, int pipe, asc_k_lt t, int64_t count, int64_t esize,
                               int write, const char *api, const char *operand, int line) {
  if (k->sys.ia_on && count > 0 && asc_k_ia_trap(k, pipe, t, count, esize, write, api, line))
    return 1;
#if ASC_K_CHECKED
  if (count >= 0 && asc_k_chk_extent(k, t, count, esize, api, operand, line)) return 1;
  if (asc_k_ub_range(k, t, count, esize, api, line)) return 1;
  return asc_k_chk_hazard(k, pipe, t.off, count * esize, write, api, operand, line);
#else
  (void)pipe, (void)write, (void)operand;
  return asc_k_ub_range(k, t, count, esize, api, line);
#endif
}
/* get_value/set_value: index i inside the tensor (checked mode). */
static inline int asc_k_index_check(asc_k_ctx *k, asc_k_lt t, int64_t i, const char *api,
                                    int line) {
#if ASC_K_CHECKED
  if (i >= t.len)
    return asc_k_fail(k, line, "%s: index %lld is outside the LocalTensor's %lld elements", api,
                      (long long)i, (long long)(t.len > 0 ? t.len : 0));
#else
  (void)k, (void)t, (void)i, (void)api, (void)line;
#endif
  return 0;
}
static inline asc_k_lt asc_k_local_new(int64_t addr, int64_t len) {
  asc_k_lt t = {addr, len};
  return t;
}
static inline int asc_k_local_check(asc_k_ctx *k, asc_k_lt t, int64_t esize, int line) {
  int64_t end = asc_k_ub_end(k);
  if (t.off < 0 || t.len < 0 || t.off > end || t.len > (end - t.off) / esize) {
    char note[96];
    return asc_k_fail(k, line,
                      "LocalTensor: %lld elements at UB byte %lld fall outside the %lld-byte "
                      "Unified Buffer%s",
                      (long long)t.len, (long long)t.off, (long long)k->ub_size,
                      asc_k_reach_note(k, note, sizeof note));
  }
  return 0;
}
static inline asc_k_lt asc_k_local_slice(asc_k_lt t, int64_t off, int64_t esize) {
  asc_k_lt r = {asc_k_madd(t.off, off, esize), asc_k_sub(t.len, off)};
  return r;
}
/* reinterpret_cast: the same bytes as elements of another size. */
static inline asc_k_lt asc_k_local_cast(asc_k_lt t, int64_t from, int64_t to) {
  int64_t bytes = asc_k_mul(t.len, from);
  asc_k_lt r = {t.off, bytes == ASC_K_FAR ? ASC_K_FAR : bytes / to};
  return r;
}

/* --- TPipe, TQue, TBuf --------------------------------------------------------- */
static inline int asc_k_pipe_take(asc_k_ctx *k, asc_k_pipe *p, int64_t bytes, int64_t *off,
                                  const char *api, int line) {
  int64_t aligned = asc_k_mul(asc_k_add(bytes, 31) / 32, 32);
  if (p->max_bufs && p->bufs >= p->max_bufs)
    return asc_k_fail(k, line, "%s: the TBufPool already hands out its buf_id_size of %d buffers",
                      api, p->max_bufs);
#if ASC_K_CHECKED /* the device does not check a pool's bounds (rt/fwk.h) */
  if (p->pool && (bytes < 0 || !asc_k_span_in(p->cursor - p->base, aligned, p->end - p->base)))
    return asc_k_fail(k, line,
                      "%s: TBufPool overflow: %lld more bytes at byte %lld exceed the pool's "
                      "bytes [%lld, %lld)%s",
                      api, (long long)aligned, (long long)p->cursor, (long long)p->base,
                      (long long)p->end,
                      p->pool == 1 ? " (no init_buf_pool gave this TBufPool memory)" : "");
#endif
  if (bytes < 0 || !asc_k_span_in(p->cursor, aligned, asc_k_ub_end(k))) {
    char note[96];
    return asc_k_fail(k, line,
                      "%s: Unified Buffer overflow: %lld more bytes at byte %lld exceed the "
                      "%lld-byte UB%s",
                      api, (long long)aligned, (long long)p->cursor, (long long)k->ub_size,
                      asc_k_reach_note(k, note, sizeof note));
  }
  *off = p->cursor;
  p->cursor += aligned;
  p->bufs++;
  return 0;
}
/* TPipe.reset/destroy: the pipe's buffers are gone. */
static inline void asc_k_pipe_reset(asc_k_pipe *p) {
  p->cursor = p->base;
  p->bufs = 0;
  p->nques = 0;
  memset(p->event_ids, 0, sizeof p->event_ids);
}

/* TPipe.alloc_event_id/fetch_event_id/release_event_id: 8 event ids per
 * HardEvent. alloc takes the lowest free id, fetch names it without taking
 * it, release frees an allocated one; running out, or releasing an id that
 * is not allocated, is an error naming the line. */
#define ASC_K_EVENT_IDS 8
static inline int asc_k_event_id(asc_k_ctx *k, asc_k_pipe *p, int64_t ev, int take, int64_t *id,
                                 int line) {
  const char *api = take ? "alloc_event_id" : "fetch_event_id";
  if (ev < 0 || ev >= (int64_t)sizeof p->event_ids)
    return asc_k_fail(k, line, "%s: unknown HardEvent %lld", api, (long long)ev);
  for (int i = 0; i < ASC_K_EVENT_IDS; i++)
    if (!(p->event_ids[ev] >> i & 1)) {
      if (take) p->event_ids[ev] = (uint8_t)(p->event_ids[ev] | 1u << i);
      *id = i;
      return 0;
    }
  return asc_k_fail(k, line, "%s: all %d event ids of this HardEvent are allocated", api,
                    ASC_K_EVENT_IDS);
}
static inline int asc_k_alloc_event_id(asc_k_ctx *k, asc_k_pipe *p, int64_t ev, int64_t *id,
                                       int line) {
  return asc_k_event_id(k, p, ev, 1, id, line);
}
static inline int asc_k_fetch_event_id(asc_k_ctx *k, asc_k_pipe *p, int64_t ev, int64_t *id,
                                       int line) {
  return asc_k_event_id(k, p, ev, 0, id, line);
}
static inline int asc_k_release_event_id(asc_k_ctx *k, asc_k_pipe *p, int64_t ev, int64_t id,
                                         int line) {
  if (ev < 0 || ev >= (int64_t)sizeof p->event_ids || id < 0 || id >= ASC_K_EVENT_IDS ||
      !(p->event_ids[ev] >> id & 1))
    return asc_k_fail(k, line, "release_event_id: event id %lld is not allocated", (long long)id);
  p->event_ids[ev] = (uint8_t)(p->event_ids[ev] & ~(1u << id));
  return 0;
}
/* init_buffer's part shared by Unified Buffer and cube queues: the pipe
 * learns the queue (once) and the queue its pipe, count and length, empty. */
static inline int asc_k_que_attach(asc_k_ctx *k, asc_k_pipe *p, asc_k_que *q, int64_t num,
                                   int64_t len, int line) {
  int known = 0;
  for (int j = 0; j < p->nques; j++) known |= p->ques[j] == q;
  if (!known) {
    if (p->nques == ASC_K_MAX_QUES)
      return asc_k_fail(k, line, "init_buffer: more than %d queues in one TPipe", ASC_K_MAX_QUES);
    p->ques[p->nques++] = q;
  }
  q->pipe = p;
  q->nbuf = (int)num;
  q->buf_len = len;
  q->head = q->count = 0;
  return 0;
}
static inline int asc_k_init_buffer(asc_k_ctx *k, asc_k_pipe *p, asc_k_que *q, int64_t num,
                                    int64_t len, int line) {
  if (num < 1 || num > ASC_K_MAX_DEPTH)
    return asc_k_fail(k, line, "init_buffer: buffer count must be in [1, %d], got %lld",
                      ASC_K_MAX_DEPTH, (long long)num);
  if (asc_k_que_attach(k, p, q, num, len, line)) return 1;
  for (int i = 0; i < q->nbuf; i++) {
    q->state[i] = 0;
    q->via[i] = NULL;
    if (asc_k_pipe_take(k, p, len, &q->buf_off[i], "init_buffer", line)) return 1;
#if ASC_K_CHECKED
    memset(q->chk_vc[i], 0, sizeof q->chk_vc[i]);
    if (asc_k_chk_alloc(k, q->buf_off[i], p->cursor, ASC_K_ALLOC_QUE, "init_buffer", line))
      return 1;
#endif
  }
  return 0;
}
static inline int asc_k_init_tbuf(asc_k_ctx *k, asc_k_pipe *p, asc_k_tbuf *b, int64_t len,
                                  int line) {
  b->len = len;
#if ASC_K_CHECKED
  if (asc_k_pipe_take(k, p, len, &b->off, "init_buffer", line)) return 1;
  return asc_k_chk_alloc(k, b->off, p->cursor, ASC_K_ALLOC_TBUF, "init_buffer", line);
#else
  return asc_k_pipe_take(k, p, len, &b->off, "init_buffer", line);
#endif
}
/* TBuf.get(dtype[, len]) (len < 0: the whole buffer), get_with_offset and
 * alloc_tensor (the whole buffer; its free_tensor does nothing). */
static inline int asc_k_tbuf_get(asc_k_ctx *k, const asc_k_tbuf *b, int64_t len, int64_t esize,
                                 asc_k_lt *t, int line) {
  t->off = b->off;
  t->len = len < 0 ? b->len / esize : len;
#if ASC_K_CHECKED
  int64_t bytes = asc_k_mul(len, esize);
  if (len >= 0 && (bytes < 0 || bytes > b->len))
    return asc_k_fail(k, line, "TBuf.get: %lld elements exceed the %lld-byte buffer",
                      (long long)len, (long long)b->len);
#else
  (void)k, (void)line;
#endif
  return 0;
}
static inline int asc_k_tbuf_get_with_offset(asc_k_ctx *k, const asc_k_tbuf *b, int64_t size,
                                             int64_t offset, int64_t esize, asc_k_lt *t, int line) {
  t->off = asc_k_add(b->off, offset);
  t->len = size;
#if ASC_K_CHECKED
  int64_t end = asc_k_madd(offset, size, esize);
  if (offset < 0 || offset % 32 || size < 0 || end < 0 || end > b->len)
    return asc_k_fail(k, line,
                      "TBuf.get_with_offset: %lld elements at byte %lld leave the %lld-byte "
                      "buffer (the offset must be a multiple of 32)",
                      (long long)size, (long long)offset, (long long)b->len);
#else
  (void)k, (void)esize, (void)line;
#endif
  return 0;
}
static inline int asc_k_alloc_tensor(asc_k_ctx *k, asc_k_que *q, asc_k_lt *t, int64_t esize,
                                     int line) {
  if (!q->nbuf)
    return asc_k_fail(k, line, "alloc_tensor: the queue has no buffers (call init_buffer)");
  for (int i = 0; i < q->nbuf; i++)
    if (q->state[i] == 0) {
      q->state[i] = 1;
      q->via[i] = NULL;
      t->off = q->buf_off[i];
      t->len = q->buf_len / esize;
#if ASC_K_CHECKED
      asc_k_chk_learn_all(k, q->chk_vc[i]);
#endif
      return 0;
    }
  return asc_k_fail(k, line,
                    "alloc_tensor: all %d buffers of the queue are in use; free_tensor one first "
                    "(real hardware would hang here)",
                    q->nbuf);
}
/* The queue's buffer that holds t's address: t may be a slice of it or
 * moved inside it (SetAddrWithOffset), as Ascend C enqueues and frees a
 * tensor by its buffer's handle, which both keep. */
static inline int asc_k_find_buffer(const asc_k_que *q, asc_k_lt t) {
  const int64_t len = q->buf_len > 0 ? q->buf_len : 1;
  for (int i = 0; i < q->nbuf; i++)
    if (t.off >= q->buf_off[i] && t.off - q->buf_off[i] < len) return i;
  return -1;
}
/* The queue buffer at t's address: this queue's, else another queue's of
 * the pipe (a tensor dequeued from one queue may be enqueued into another,
 * as the hardware's queues pass addresses). */
static inline asc_k_qent asc_k_locate(asc_k_que *q, asc_k_lt t) {
  asc_k_qent e = {q, asc_k_find_buffer(q, t)};
  for (int j = 0; e.i < 0 && q->pipe && j < q->pipe->nques; j++) {
    e.owner = q->pipe->ques[j];
    e.i = asc_k_find_buffer(e.owner, t);
  }
  return e;
}
static inline int asc_k_enque(asc_k_ctx *k, asc_k_que *q, asc_k_lt t, int line) {
  asc_k_qent e = asc_k_locate(q, t);
  if (e.i < 0)
    return asc_k_fail(k, line,
                      "enque: the tensor is not a TQue buffer (enque takes tensors from "
                      "alloc_tensor or deque)");
  unsigned char st = e.owner->state[e.i];
  if (st == 0 || st == 2)
    return asc_k_fail(k, line, "enque: the tensor's buffer is %s",
                      st == 2 ? "already enqueued" : "free (free_tensor came before enque)");
  if (q->count >= q->depth)
    return asc_k_fail(k, line, "enque: the queue already holds its depth of %d tensors", q->depth);
  e.owner->state[e.i] = 2;
  q->ring[(q->head + q->count++) % ASC_K_MAX_DEPTH] = e;
#if ASC_K_CHECKED
  asc_k_chk_snapshot(k, e.owner->chk_vc[e.i]);
#endif
  return 0;
}
static inline int asc_k_deque(asc_k_ctx *k, asc_k_que *q, asc_k_lt *t, int64_t esize, int line) {
  if (q->count == 0)
    return asc_k_fail(k, line, "deque on an empty queue (real hardware would hang here)");
  asc_k_qent e = q->ring[q->head];
  q->head = (q->head + 1) % ASC_K_MAX_DEPTH;
  q->count--;
  e.owner->state[e.i] = 3;
  e.owner->via[e.i] = q;
  t->off = e.owner->buf_off[e.i];
  t->len = e.owner->buf_len / esize;
#if ASC_K_CHECKED
  asc_k_chk_learn_all(k, e.owner->chk_vc[e.i]);
#endif
  return 0;
}
/* deque(tensor), the in-place form of a depth-0 queue: the queue keeps no
 * addresses, so the tensor keeps its buffer; the deque orders the buffer
 * enqueued with it (its entry leaves the queue). A tensor that is not
 * queued here takes the oldest entry's ordering, which checked mode
 * reports (on the device the tensor would not be the enqueued one). */
static inline int asc_k_deque_inplace(asc_k_ctx *k, asc_k_que *q, asc_k_lt t, asc_k_lt *r,
                                      int line) {
  if (q->count == 0)
    return asc_k_fail(k, line, "deque on an empty queue (real hardware would hang here)");
  asc_k_qent want = asc_k_locate(q, t);
  int at = 0;
  while (at < q->count) {
    asc_k_qent e = q->ring[(q->head + at) % ASC_K_MAX_DEPTH];
    if (want.i >= 0 && e.owner == want.owner && e.i == want.i) break;
    at++;
  }
#if ASC_K_CHECKED
  if (at == q->count)
    return asc_k_fail(k, line,
                      "deque(tensor): the tensor is not one enqueued in this queue (an in-place "
                      "deque leaves the tensor as it is)");
#endif
  if (at == q->count) at = 0;
  asc_k_qent e = q->ring[(q->head + at) % ASC_K_MAX_DEPTH];
  for (int j = at; j > 0; j--) /* close the gap: the entries before it move up */
    q->ring[(q->head + j) % ASC_K_MAX_DEPTH] = q->ring[(q->head + j - 1) % ASC_K_MAX_DEPTH];
  q->head = (q->head + 1) % ASC_K_MAX_DEPTH;
  q->count--;
  e.owner->state[e.i] = 3;
  e.owner->via[e.i] = q;
#if ASC_K_CHECKED
  asc_k_chk_learn_all(k, e.owner->chk_vc[e.i]);
#endif
  *r = t;
  return 0;
}
/* free_tensor through the queue that owns the buffer or the one it was
 * dequeued from; through any other queue of the pipe the buffer is freed
 * too (as on the device) but checked mode reports it. */
static inline int asc_k_free_tensor(asc_k_ctx *k, asc_k_que *q, asc_k_lt t, int line) {
  asc_k_qent e = asc_k_locate(q, t);
  unsigned char st = e.i < 0 ? 0 : e.owner->state[e.i];
  if (e.i < 0 || st == 0 || st == 2 || (ASC_K_CHECKED && e.owner != q && e.owner->via[e.i] != q))
    return asc_k_fail(k, line,
                      "free_tensor: the tensor is not one this queue handed out (or it is "
                      "already free or still queued)");
  e.owner->state[e.i] = 0;
  e.owner->via[e.i] = NULL;
#if ASC_K_CHECKED
  asc_k_chk_snapshot(k, e.owner->chk_vc[e.i]);
#endif
  return 0;
}

/* LocalTensor.get_phy_addr(offset): the UB byte address of element offset
 * (as the hardware's address: bytes from the UB's start). */
static inline int asc_k_local_phy_addr(asc_k_ctx *k, asc_k_lt t, int64_t offset, int64_t es,
                                       int64_t *out, int line) {
  int64_t at = asc_k_madd(t.off, offset, es);
  if (offset < 0 || at < 0 || at > asc_k_ub_end(k))
    return asc_k_fail(k, line, "get_phy_addr: offset %lld is outside the Unified Buffer",
                      (long long)offset);
  *out = at;
  return 0;
}
