/* --- the kernel's view ---------------------------------------------------
 * Generated kernels that use the cube get an asc_kc_core per block run
 * (asc_k_cube_begin/end around the body, k->cube). LocalTensors at the
 * cube's positions keep byte offsets tagged with their buffer,
 * ((buffer + 1) << 40) + byte: every Unified Buffer check rejects them, so
 * a vector instruction can never touch the cube's buffers, and the calls
 * below accept nothing else. */
#define ASC_KC_TAG_SHIFT 40
#define ASC_KC_TAG(buf, byte) ((((int64_t)(buf) + 1) << ASC_KC_TAG_SHIFT) + (byte))

static int asc_k_cube_begin(asc_k_ctx *k) __attribute__((unused));
static int asc_k_cube_begin(asc_k_ctx *k) {
  asc_kc_err e;
  int fresh;
  asc_kc_core *c =
      (asc_kc_core *)asc_kp_take(k->sys.launch, ASC_KP_CUBE, sizeof *c, asc_kc_core_fini, &fresh);
  if (!c) return asc_k_fail(k, 0, "the cube's buffers: out of host memory");
  if (!fresh) {
    asc_kc_core_reuse(c);
  } else if (asc_kc_core_init(c, &e)) {
    asc_kp_drop(c);
    return asc_k_fail(k, 0, "the cube's buffers: out of host memory");
  }
  k->cube = c;
  return 0;
}
static void asc_k_cube_end(asc_k_ctx *k) __attribute__((unused));
static void asc_k_cube_end(asc_k_ctx *k) {
  asc_kp_give(k->sys.launch, k->cube);
  k->cube = NULL;
}

/* TPipe.init_buffer for a TQue at a cube position (buf): buffers aligned
 * as load_data/mmad need them, and an error when the buffer is full. */
static int asc_k_cube_init_buffer(asc_k_ctx *k, asc_k_pipe *p, asc_k_que *q, int64_t num,
                                  int64_t len, int buf, int line) __attribute__((unused));
static int asc_k_cube_init_buffer(asc_k_ctx *k, asc_k_pipe *p, asc_k_que *q, int64_t num,
                                  int64_t len, int buf, int line) {
  static const char *const names[ASC_KC_NBUF] = {"L1", "L0A", "L0B", "L0C"};
  static const int64_t align[ASC_KC_NBUF] = {32, 512, 512, 1024};
  asc_kc_core *c = (asc_kc_core *)k->cube;
  if (!c || buf < 0 || buf >= ASC_KC_NBUF)
    return asc_k_fail(k, line, "init_buffer: no cube buffer here");
  if (num < 1 || num > ASC_K_MAX_DEPTH)
    return asc_k_fail(k, line, "init_buffer: buffer count must be in [1, %d], got %lld",
                      ASC_K_MAX_DEPTH, (long long)num);
  if (len < 0 || len > c->size[buf])
    return asc_k_fail(k, line, "init_buffer: %lld bytes do not fit the %lld-byte %s",
                      (long long)len, (long long)c->size[buf], names[buf]);
  if (asc_k_que_attach(k, p, q, num, len, line)) return 1;
  int64_t step = (len + align[buf] - 1) / align[buf] * align[buf];
  for (int i = 0; i < q->nbuf; i++) {
    q->state[i] = 0;
    q->via[i] = NULL;
    if (step > c->size[buf] - c->cursor[buf])
      return asc_k_fail(
          k, line, "init_buffer: %s overflow: %lld more bytes at byte %lld exceed the %lld-byte %s",
          names[buf], (long long)step, (long long)c->cursor[buf], (long long)c->size[buf],
          names[buf]);
    q->buf_off[i] = ASC_KC_TAG(buf, c->cursor[buf]);
    c->cursor[buf] += step;
#if ASC_K_CHECKED
    memset(q->chk_vc[i], 0, sizeof q->chk_vc[i]);
#endif
  }
  return 0;
}

/* The span of a cube LocalTensor: its buffer from its byte to the end of
 * the tensor (len elements of esize), checked against the buffer it must
 * be in (mask: bit per asc_kc_buf allowed). The hardware bounds an
 * instruction by the buffer, not by the tensor: in the default mode the
 * span runs to the buffer's end, and only checked mode holds it to the
 * tensor (CANN's mmad example writes 64 columns into an L0C tensor sized
 * for 48). */
static int asc_k_cube_local(asc_k_ctx *k, asc_k_lt t, int64_t esize, unsigned mask, const char *api,
                            const char *operand, asc_kc_span *s, int line) {
  static const char *const names[ASC_KC_NBUF] = {"L1 (A1/B1/C1)", "L0A (A2)", "L0B (B2)",
                                                 "L0C (CO1)"};
  asc_kc_core *c = (asc_kc_core *)k->cube;
  int64_t buf = (t.off >> ASC_KC_TAG_SHIFT) - 1,
          byte = t.off & (((int64_t)1 << ASC_KC_TAG_SHIFT) - 1);
  asc_kc_err e;
#if !ASC_K_CHECKED
  /* A tensor at another position (PyAsc compiles that): the instruction
   * takes its address as one in the buffer it works on, as the hardware
   * does; checked mode reports it. */
  if (c && t.off >= 0 && (buf < 0 || buf >= ASC_KC_NBUF || !(mask & (1u << buf))) && mask) {
    int want = 0;
    while (!(mask & (1u << want))) want++;
    buf = want;
    byte = t.off & (((int64_t)1 << ASC_KC_TAG_SHIFT) - 1);
  }
#endif
  if (!c || t.off < 0 || buf < 0 || buf >= ASC_KC_NBUF || !(mask & (1u << buf))) {
    char want[96] = "";
    size_t n = 0;
    for (int b = 0; b < ASC_KC_NBUF; b++)
      if (mask & (1u << b))
        n += (size_t)snprintf(want + n, sizeof want - n, "%s%s", n ? " or " : "", names[b]);
    return asc_k_fail(k, line, "%s: %s must be a LocalTensor in %s", api, operand, want);
  }
  if (asc_kc_span_at(c, (asc_kc_buf)buf, byte, s, &e))
    return asc_k_fail(k, line, "%s: %s: %s", api, operand, e.msg);
#if ASC_K_CHECKED
  int64_t bytes = t.len < 0 ? 0 : asc_k_mul(t.len, esize);
  if (bytes >= 0 && bytes < s->n) s->n = bytes;
#else
  (void)esize;
#endif
  return 0;
}
/* A Unified Buffer LocalTensor as a span (fixpipe to UB, Nd2Nz from UB). */
static int asc_k_cube_ub(asc_k_ctx *k, asc_k_lt t, int64_t esize, const char *api, asc_kc_span *s,
                         int line) {
  int64_t bytes = t.len < 0 ? -1 : asc_k_mul(t.len, esize);
  int64_t end = asc_k_ub_end(k);
  if (t.off < 0 || t.off > end || bytes < 0 || bytes > end - t.off)
    return asc_k_fail(k, line, "%s: the LocalTensor must lie in the Unified Buffer", api);
  s->p = k->ub + t.off;
  s->n = bytes;
  return 0;
}
/* A GlobalTensor as the span from it to its argument's end (the cube's
 * transfers never leave their argument, in either mode). */
static int asc_k_cube_gm(asc_k_ctx *k, asc_k_gt g, int64_t esize, const char *api, asc_kc_span *s,
                         int line) {
  if (g.lead == ASC_K_FAR || g.lead < 0 || g.lead > g.n)
    return asc_k_fail(k, line, "%s: the GlobalTensor lies outside its argument", api);
  s->p = g.base + g.lead;
  s->n = g.n - g.lead;
  if (g.size >= 0) {
    int64_t left = asc_k_mul(asc_k_sub(g.size, g.skip), esize);
    if (left >= 0 && left < s->n) s->n = left;
  }
  return 0;
}

/* Checked mode: an access of `pipe` to bytes [from, from + bytes) of a span
 * in the AIC's buffers or the UB, recorded in the checker's shadow (the
 * cube's buffers lie after the UB there, L1 first), so that an access on
 * another pipe that nothing orders after it is reported with both lines. */
static int asc_k_cube_use(asc_k_ctx *k, int pipe, asc_kc_span s, int64_t from, int64_t bytes,
                          int write, const char *api, const char *operand, int line) {
#if ASC_K_CHECKED
  asc_kc_core *c = (asc_kc_core *)k->cube;
  int64_t at = -1, base = k->ub_size;
  if (s.p >= k->ub && s.p < k->ub + k->ub_size) at = s.p - k->ub;
  for (int b = 0; c && at < 0 && b < ASC_KC_NBUF; b++) {
    if (s.p >= c->mem[b] && s.p < c->mem[b] + c->size[b]) at = base + (s.p - c->mem[b]);
    base += c->size[b];
  }
  if (at < 0 || bytes <= 0) return 0; /* global memory: not tracked */
  if (from < 0 || from > s.n) return 0;
  if (bytes > s.n - from) bytes = s.n - from;
  return asc_k_chk_hazard(k, pipe, at + from, bytes, write, api, operand, line);
#else
  (void)k, (void)pipe, (void)s, (void)from, (void)bytes, (void)write, (void)api, (void)operand,
      (void)line;
  return 0;
#endif
}
_Static_assert(ASC_KC_L1_SIZE + ASC_KC_L0A_SIZE + ASC_KC_L0B_SIZE + ASC_KC_L0C_SIZE == 768 * 1024,
               "the checker's shadow (rt/core.h ASC_K_CUBE_SHADOW) covers the AIC's buffers");

#define ASC_KC_M_L1 (1u << ASC_KC_L1)
#define ASC_KC_M_L0AB ((1u << ASC_KC_L0A) | (1u << ASC_KC_L0B))
#define ASC_KC_M_L0C (1u << ASC_KC_L0C)

/* load_data(dst L0A/L0B, src L1 or GM, LoadData2DParams) */
static int asc_k_cube_load_data(asc_k_ctx *k, asc_k_lt dst, asc_kc_span src, int t, int64_t start,
                                int64_t repeat, int64_t src_stride, int64_t dst_gap, int transpose,
                                int from_gm, int line) {
  asc_kc_span d;
  asc_kc_err e;
  if (asc_k_cube_local(k, dst, asc_kc_esize((asc_kc_type)t), ASC_KC_M_L0AB, "load_data", "dst", &d,
                       line))
    return 1;
  asc_kc_load2d p = {start, repeat, src_stride, dst_gap, transpose};
  if (asc_kc_load_data_2d(d, src, (asc_kc_type)t, &p, &e)) return asc_k_fail(k, line, "%s", e.msg);
  asc_kc_core *core = (asc_kc_core *)k->cube;
  if (d.p >= core->mem[ASC_KC_L0B] && d.p < core->mem[ASC_KC_L0B] + ASC_KC_L0B_SIZE)
    for (int64_t i = 0; i < repeat; i++) /* dense data now: mmad_with_sparse has no index */
      memset(core->l0b_idx + (d.p - core->mem[ASC_KC_L0B]) + i * (1 + dst_gap) * 512, 0xFF, 512);
  if (repeat > 0) {
    int pipe = from_gm ? ASC_K_MTE2 : ASC_K_MTE1;
    if ((!from_gm &&
         asc_k_cube_use(k, pipe, src, start * 512, ((repeat - 1) * src_stride + 1) * 512, 0,
                        "load_data", "src", line)) ||
        asc_k_cube_use(k, pipe, d, 0, ((repeat - 1) * (1 + dst_gap) + 1) * 512, 1, "load_data",
                       "dst", line))
      return 1;
  }
  return 0;
}
static int asc_k_cube_load_l1(asc_k_ctx *k, asc_k_lt dst, asc_k_lt src, int t, int64_t start,
                              int64_t repeat, int64_t src_stride, int64_t dst_gap, int transpose,
                              int line) __attribute__((unused));
static int asc_k_cube_load_l1(asc_k_ctx *k, asc_k_lt dst, asc_k_lt src, int t, int64_t start,
                              int64_t repeat, int64_t src_stride, int64_t dst_gap, int transpose,
                              int line) {
  asc_kc_span s;
  if (asc_k_cube_local(k, src, asc_kc_esize((asc_kc_type)t), ASC_KC_M_L1, "load_data", "src", &s,
                       line))
    return 1;
  return asc_k_cube_load_data(k, dst, s, t, start, repeat, src_stride, dst_gap, transpose, 0, line);
}
static int asc_k_cube_load_gm(asc_k_ctx *k, asc_k_lt dst, asc_k_gt src, int t, int64_t start,
                              int64_t repeat, int64_t src_stride, int64_t dst_gap, int transpose,
                              int line) __attribute__((unused));
static int asc_k_cube_load_gm(asc_k_ctx *k, asc_k_lt dst, asc_k_gt src, int t, int64_t start,
                              int64_t repeat, int64_t src_stride, int64_t dst_gap, int transpose,
                              int line) {
  asc_kc_span s;
  if (asc_k_cube_gm(k, src, asc_kc_esize((asc_kc_type)t), "load_data", &s, line)) return 1;
  return asc_k_cube_load_data(k, dst, s, t, start, repeat, src_stride, dst_gap, transpose, 1, line);
}

/* mmad(dst L0C, fm L0A, filter L0B[, bias], MmadParams); t: the inputs' type */
static int asc_k_cube_mmad(asc_k_ctx *k, asc_k_lt dst, asc_k_lt a, asc_k_lt b, const asc_k_lt *bias,
                           asc_k_gt *bias_gm, int t, int64_t m, int64_t n, int64_t kk, int init,
                           int line) __attribute__((unused));
static int asc_k_cube_mmad(asc_k_ctx *k, asc_k_lt dst, asc_k_lt a, asc_k_lt b, const asc_k_lt *bias,
                           asc_k_gt *bias_gm, int t, int64_t m, int64_t n, int64_t kk, int init,
                           int line) {
  asc_kc_span sd, sa, sb, sbias = {NULL, 0};
  asc_kc_err e;
  int es = asc_kc_esize((asc_kc_type)t);
  if (asc_k_cube_local(k, dst, 4, ASC_KC_M_L0C, "mmad", "dst", &sd, line) ||
      asc_k_cube_local(k, a, es, 1u << ASC_KC_L0A, "mmad", "fm", &sa, line) ||
      asc_k_cube_local(k, b, es, 1u << ASC_KC_L0B, "mmad", "filter", &sb, line))
    return 1;
  if (bias && asc_k_cube_local(k, *bias, 4, ASC_KC_M_L1, "mmad", "bias", &sbias, line)) return 1;
  if (bias_gm && asc_k_cube_gm(k, *bias_gm, 4, "mmad", &sbias, line)) return 1;
  /* init's bit 1: Ascend C's kDirectionAlign (the Python API has none) */
  asc_kc_mmad p = {m, n, kk, init & 3, bias || bias_gm};
  const int64_t c0 = asc_kc_c0((asc_kc_type)t), m1 = asc_kc_ceil16(m), n1 = asc_kc_ceil16(n),
                k1 = (kk + c0 - 1) / c0;
  asc_kc_span ra = sa;
  char *gemv = NULL;
  const int is_gemv = m == 1 && kk > 0 && kk <= 4095;
  if (is_gemv) {
    /* GEMV (CANN's Mmad with m = 1): A's k elements lie one after another
     * in L0A; the multiply takes them as row 0 of its fractals */
    if (sa.n < kk * es)
      return asc_k_fail(k, line, "mmad (GEMV, m = 1) reads %lld bytes of L0A but fm has %lld",
                        (long long)(kk * es), (long long)sa.n);
    gemv = (char *)calloc((size_t)(k1 * 512), 1); /* k1 <= 4095 */
    if (!gemv) return asc_k_fail(k, line, "mmad: out of host memory");
    for (int64_t j = 0; j < k1; j++)
      memcpy(gemv + j * 512, sa.p + j * c0 * es,
             (size_t)((kk - j * c0 < c0 ? kk - j * c0 : c0) * es));
    ra.p = gemv, ra.n = k1 * 512;
  }
  int rc = asc_kc_mmad_run((asc_kc_core *)k->cube, sd, ra, sb, sbias, (asc_kc_type)t, &p, &e);
  free(gemv);
  if (rc) return asc_k_fail(k, line, "%s", e.msg);
  if (asc_k_cube_use(k, ASC_K_M, sa, 0, is_gemv ? kk * es : m1 * k1 * 512, 0, "mmad", "fm", line) ||
      asc_k_cube_use(k, ASC_K_M, sb, 0, k1 * n1 * 512, 0, "mmad", "filter", line) ||
      (bias && asc_k_cube_use(k, ASC_K_M, sbias, 0, n * 4, 0, "mmad", "bias", line)) ||
      asc_k_cube_use(k, ASC_K_M, sd, 0, m1 * n1 * 1024, 1, "mmad", "dst", line))
    return 1;
  return 0;
}

/* fixpipe(dst GM or UB, src L0C, FixpipeParamsV220[, quant vector in L1]);
 * nz: bit 0 an NZ output, bit 1 isChannelSplit (a float one in 16 x 8
 * fractals); nd: nd_num, src_nd_stride, dst_nd_stride (NULL: one matrix) */
static int asc_k_cube_fixpipe(asc_k_ctx *k, asc_kc_span d, asc_k_lt src, const asc_k_lt *qv, int dt,
                              int st, int64_t n_size, int64_t m_size, int64_t src_stride,
                              int64_t dst_stride, int64_t quant, int relu, double deq, int nz,
                              const int64_t *nd, int line) {
  asc_kc_span s, sq = {NULL, 0};
  asc_kc_err e;
  if (asc_k_cube_local(k, src, 4, ASC_KC_M_L0C, "fixpipe", "src", &s, line)) return 1;
  if (qv && asc_k_cube_local(k, *qv, 8, ASC_KC_M_L1, "fixpipe", "the quant vector", &sq, line))
    return 1;
  if (quant < 0 || quant > ASC_KC_VREQ8)
    return asc_k_fail(k, line, "fixpipe: unknown QuantModes value %lld", (long long)quant);
  asc_kc_fixpipe p = {n_size,     m_size, src_stride, dst_stride,   (asc_kc_quant)quant,
                      (float)deq, relu,   nz & 1,     (nz >> 1) & 1};
  asc_kc_fixpipe_nds nds = {1, 0, 0};
  if (nd) nds = (asc_kc_fixpipe_nds){nd[0], nd[1], nd[2]};
  /* CANN's cbufWorkspace is a LocalTensor<uint64_t>: one uint64 per channel,
   * the scale a float32's bits in its low word (the rest: offset, sign...).
   * The fixpipe reads the vector into its own buffer (L1 -> FB) before it
   * writes, so a dst over the vector in L1 does not change the scales: take
   * the scales out first, as packed floats for asc_kc_fixpipe_run. */
  float *scales = NULL;
  if (qv && (quant == ASC_KC_VDEQF16 || quant == ASC_KC_VQF322B8_PRE || quant == ASC_KC_VREQ8)) {
    if (n_size < 0 || n_size > 65535)
      return asc_k_fail(k, line, "fixpipe: n_size %lld is out of range", (long long)n_size);
    if (n_size * 8 > sq.n)
      return asc_k_fail(k, line,
                        "fixpipe's quant vector has %lld uint64 scales, n_size %lld needs one a "
                        "channel",
                        (long long)(sq.n / 8), (long long)n_size);
    scales = malloc((size_t)(n_size ? n_size : 1) * sizeof *scales);
    if (!scales) return asc_k_fail(k, line, "fixpipe: out of memory");
    for (int64_t j = 0; j < n_size; j++) {
      uint32_t bits;
      memcpy(&bits, sq.p + j * 8, 4); /* the low half of a little-endian uint64 */
      memcpy(&scales[j], &bits, 4);
    }
    sq.p = (char *)scales, sq.n = n_size * 4;
  }
  int rc = asc_kc_fixpipe_nd_run(d, s, sq, (asc_kc_type)dt, (asc_kc_type)st, &p, &nds, &e);
  free(scales);
  if (rc) return asc_k_fail(k, line, "%s", e.msg);
  /* the matrices ran, so their counts and strides are in range */
  int64_t last = !(nz & 1) && nds.nd_num > 1 ? (nds.nd_num - 1) * nds.src_nd_stride * 1024 : 0;
  if (asc_k_cube_use(k, ASC_K_FIX, s, 0, last + asc_kc_ceil16(n_size) * src_stride * 64, 0,
                     "fixpipe", "src", line) ||
      asc_k_cube_use(k, ASC_K_FIX, d, 0, d.n, 1, "fixpipe", "dst", line))
    return 1;
  return 0;
}
static int asc_k_cube_fixpipe_gm(asc_k_ctx *k, asc_k_gt dst, asc_k_lt src, const asc_k_lt *qv,
                                 int dt, int st, int64_t n_size, int64_t m_size, int64_t src_stride,
                                 int64_t dst_stride, int64_t quant, int relu, double deq, int nz,
                                 const int64_t *nd, int line) __attribute__((unused));
static int asc_k_cube_fixpipe_gm(asc_k_ctx *k, asc_k_gt dst, asc_k_lt src, const asc_k_lt *qv,
                                 int dt, int st, int64_t n_size, int64_t m_size, int64_t src_stride,
                                 int64_t dst_stride, int64_t quant, int relu, double deq, int nz,
                                 const int64_t *nd, int line) {
  asc_kc_span d;
  if (asc_k_cube_gm(k, dst, asc_kc_esize((asc_kc_type)dt), "fixpipe", &d, line)) return 1;
  return asc_k_cube_fixpipe(k, d, src, qv, dt, st, n_size, m_size, src_stride, dst_stride, quant,
                            relu, deq, nz, nd, line);
}
static int asc_k_cube_fixpipe_ub(asc_k_ctx *k, asc_k_lt dst, asc_k_lt src, const asc_k_lt *qv,
                                 int dt, int st, int64_t n_size, int64_t m_size, int64_t src_stride,
                                 int64_t dst_stride, int64_t quant, int relu, double deq, int nz,
                                 const int64_t *nd, int line) __attribute__((unused));
static int asc_k_cube_fixpipe_ub(asc_k_ctx *k, asc_k_lt dst, asc_k_lt src, const asc_k_lt *qv,
                                 int dt, int st, int64_t n_size, int64_t m_size, int64_t src_stride,
                                 int64_t dst_stride, int64_t quant, int relu, double deq, int nz,
                                 const int64_t *nd, int line) {
  asc_kc_span d;
  if (asc_k_cube_ub(k, dst, asc_kc_esize((asc_kc_type)dt), "fixpipe", &d, line)) return 1;
  return asc_k_cube_fixpipe(k, d, src, qv, dt, st, n_size, m_size, src_stride, dst_stride, quant,
                            relu, deq, nz, nd, line);
}

/* data_copy(dst GM/UB, src L0C, DataCopyCO12DstParams): fixpipe's older
 * form. Its scalar quant modes (DEQF16, QF322B8_PRE, REQ8) scale by the
 * pre-quant flag register (set_fix_pipe_pre_quant_flag: a float32's bits
 * in the low 32 bits), as the device does; reluPre 1 is a plain relu. */
static int asc_k_cube_co12(asc_k_ctx *k, asc_kc_span d, asc_k_lt src, int dt, int st,
                           int64_t n_size, int64_t m_size, int64_t dst_stride, int64_t src_stride,
                           int64_t relu_pre, int64_t quant, int nz, int line) {
  float scale = 1.0f;
  if (relu_pre < 0 || relu_pre > 1)
    return asc_k_fail(k, line,
                      "data_copy: DataCopyCO12DstParams relu_pre %lld is not simulated (0 none, "
                      "1 relu)",
                      (long long)relu_pre);
  if (quant == ASC_KC_VDEQF16 || quant == ASC_KC_VQF322B8_PRE || quant == ASC_KC_VREQ8)
    return asc_k_fail(k, line,
                      "data_copy: the vector quant modes need a quant vector: use fixpipe with "
                      "one (DataCopyCO12DstParams has none)");
  if (quant == ASC_KC_DEQF16 || quant == ASC_KC_QF322B8_PRE || quant == ASC_KC_REQ8) {
    const uint32_t bits = (uint32_t)(k->sr.fpq & 0xffffffffu);
    memcpy(&scale, &bits, sizeof scale);
    if (scale == 0.0f || scale != scale)
      return asc_k_fail(k, line,
                        "data_copy: quant mode %lld scales by the pre-quant flag, which holds no "
                        "scale (set_fix_pipe_pre_quant_flag(a float32's bits) first)",
                        (long long)quant);
  }
  return asc_k_cube_fixpipe(k, d, src, NULL, dt, st, n_size, m_size, src_stride, dst_stride, quant,
                            (int)relu_pre, scale, nz, NULL, line);
}
static int asc_k_cube_co12_gm(asc_k_ctx *k, asc_k_gt dst, asc_k_lt src, int dt, int st,
                              int64_t n_size, int64_t m_size, int64_t dst_stride,
                              int64_t src_stride, int64_t relu_pre, int64_t quant, int nz, int line)
    __attribute__((unused));
static int asc_k_cube_co12_gm(asc_k_ctx *k, asc_k_gt dst, asc_k_lt src, int dt, int st,
                              int64_t n_size, int64_t m_size, int64_t dst_stride,
                              int64_t src_stride, int64_t relu_pre, int64_t quant, int nz,
                              int line) {
  asc_kc_span d;
  if (asc_k_cube_gm(k, dst, asc_kc_esize((asc_kc_type)dt), "data_copy", &d, line)) return 1;
  return asc_k_cube_co12(k, d, src, dt, st, n_size, m_size, dst_stride, src_stride, relu_pre, quant,
                         nz, line);
}
static int asc_k_cube_co12_ub(asc_k_ctx *k, asc_k_lt dst, asc_k_lt src, int dt, int st,
                              int64_t n_size, int64_t m_size, int64_t dst_stride,
                              int64_t src_stride, int64_t relu_pre, int64_t quant, int nz, int line)
    __attribute__((unused));
static int asc_k_cube_co12_ub(asc_k_ctx *k, asc_k_lt dst, asc_k_lt src, int dt, int st,
                              int64_t n_size, int64_t m_size, int64_t dst_stride,
                              int64_t src_stride, int64_t relu_pre, int64_t quant, int nz,
                              int line) {
  asc_kc_span d;
  if (asc_k_cube_ub(k, dst, asc_kc_esize((asc_kc_type)dt), "data_copy", &d, line)) return 1;
  return asc_k_cube_co12(k, d, src, dt, st, n_size, m_size, dst_stride, src_stride, relu_pre, quant,
                         nz, line);
}

/* data_copy(dst L1, src GM or UB, Nd2NzParams) */
static int asc_k_cube_nd2nz(asc_k_ctx *k, asc_k_lt dst, asc_kc_span s, int t, const int64_t *v,
                            int line) {
  asc_kc_span d;
  asc_kc_err e;
  if (asc_k_cube_local(k, dst, asc_kc_esize((asc_kc_type)t), ASC_KC_M_L1, "data_copy", "dst", &d,
                       line))
    return 1;
  asc_kc_nd2nz p = {v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7]};
  if (asc_kc_nd2nz_copy(d, s, (asc_kc_type)t, &p, &e))
    return asc_k_fail(k, line, "data_copy: %s", e.msg);
  if (asc_k_cube_use(k, ASC_K_MTE2, s, 0, s.n, 0, "data_copy", "src", line) ||
      asc_k_cube_use(k, ASC_K_MTE2, d, 0, d.n, 1, "data_copy", "dst", line))
    return 1;
  return 0;
}
static int asc_k_cube_nd2nz_gm(asc_k_ctx *k, asc_k_lt dst, asc_k_gt src, int t, const int64_t *v,
                               int line) __attribute__((unused));
static int asc_k_cube_nd2nz_gm(asc_k_ctx *k, asc_k_lt dst, asc_k_gt src, int t, const int64_t *v,
                               int line) {
  asc_kc_span s;
  if (asc_k_cube_gm(k, src, asc_kc_esize((asc_kc_type)t), "data_copy", &s, line)) return 1;
#if !ASC_K_CHECKED
  /* Rows past the source's end: the device reads whatever follows it in
   * global memory (CANN's load_data_l12l0 scenario 14 cuts a [k, m] matrix
   * into ndNum matrices of 16 rows, the last past row k, rows its Mmad never
   * uses). Plain mode reads the bytes past the argument as zeros, as its
   * other global memory reads do (asc_k_gm_read); checked mode reports the
   * read. */
  const int64_t es = asc_kc_esize((asc_kc_type)t);
  if (es > 0 && v[0] > 0 && v[0] <= 65535 && v[1] > 0 && v[1] <= 16384 && v[2] >= 0 &&
      v[2] <= 65535 && v[3] >= 0 && v[3] <= 65535 && v[4] >= 0 && v[4] <= 65535) {
    const int64_t need = ((v[0] - 1) * v[3] + (v[1] - 1) * v[4] + v[2]) * es;
    if (need > s.n && need <= ((int64_t)64 << 20)) {
      char *padded = calloc((size_t)need, 1);
      if (!padded) return asc_k_fail(k, line, "data_copy: out of memory");
      /* up to the argument's end, past set_global_buffer's size too (as
       * asc_k_gm_read in plain mode) */
      int64_t have = src.n - src.lead < need ? src.n - src.lead : need;
      if (have > 0) memcpy(padded, s.p, (size_t)have);
      asc_kc_span ps = {padded, need};
      int rc = asc_k_cube_nd2nz(k, dst, ps, t, v, line);
      free(padded);
      return rc;
    }
  }
#endif
  return asc_k_cube_nd2nz(k, dst, s, t, v, line);
}
static int asc_k_cube_nd2nz_ub(asc_k_ctx *k, asc_k_lt dst, asc_k_lt src, int t, const int64_t *v,
                               int line) __attribute__((unused));
static int asc_k_cube_nd2nz_ub(asc_k_ctx *k, asc_k_lt dst, asc_k_lt src, int t, const int64_t *v,
                               int line) {
  asc_kc_span s;
  if (asc_k_cube_ub(k, src, asc_kc_esize((asc_kc_type)t), "data_copy", &s, line)) return 1;
  return asc_k_cube_nd2nz(k, dst, s, t, v, line);
}
/* data_copy_pad(dst L1, src UB, DataCopyExtParams c, Nd2NzParams v), as CANN
 * implements it on A2: through global memory. The UB's c[0] bursts of c[1]
 * bytes (each starting on a 32-byte block, c[2] blocks between them) go to a
 * workspace c[3] bytes apart, which the Nd2Nz copy then reads (ndNum 1).
 * Bytes of the workspace no burst wrote read as zero. */
#define ASC_K_ND2NZ_PAD_MAX ((int64_t)1 << 28) /* workspace bytes */
static int asc_k_cube_nd2nz_pad(asc_k_ctx *k, asc_k_lt dst, asc_k_lt src, int t, const int64_t *c,
                                const int64_t *v, int line) __attribute__((unused));
static int asc_k_cube_nd2nz_pad(asc_k_ctx *k, asc_k_lt dst, asc_k_lt src, int t, const int64_t *c,
                                const int64_t *v, int line) {
  int64_t esize = asc_kc_esize((asc_kc_type)t);
  asc_kc_span s;
  if (asc_k_cube_ub(k, src, esize, "data_copy_pad", &s, line)) return 1;
  if (c[0] < 1 || c[0] > 4095 || c[1] < 1 || c[1] > 2097151 || c[1] % esize || c[2] < 0 ||
      c[2] > UINT32_MAX || c[3] < 0 || c[3] > UINT32_MAX)
    return asc_k_fail(k, line,
                      "data_copy_pad: blockCount must be in [1, 4095], blockLen in [1, 2097151] "
                      "bytes and a multiple of the element size, the strides in [0, 2^32) (got "
                      "%lld, %lld, %lld, %lld)",
                      (long long)c[0], (long long)c[1], (long long)c[2], (long long)c[3]);
  if (v[0] != 1)
    return asc_k_fail(k, line, "data_copy_pad: the UB -> L1 form takes ndNum 1 (got %lld)",
                      (long long)v[0]);
  int64_t src_step = (c[1] + 31) / 32 * 32 + c[2] * 32, dst_step = c[1] + c[3];
  int64_t read = asc_k_add(asc_k_mul(c[0] - 1, src_step), c[1]);
  if (read < 0 || read > s.n)
    return asc_k_fail(k, line, "data_copy_pad: the bursts read past the source LocalTensor");
  int64_t bytes = asc_k_add(asc_k_mul(c[0] - 1, dst_step), c[1]);
  int64_t rows = asc_k_add(asc_k_mul(v[1] - 1, v[4]), v[2]); /* what Nd2Nz reads, in elements */
  if (v[1] > 0 && rows > 0 && asc_k_mul(rows, esize) > bytes) bytes = asc_k_mul(rows, esize);
  if (bytes < 0 || bytes > ASC_K_ND2NZ_PAD_MAX)
    return asc_k_fail(k, line, "data_copy_pad: the workspace would exceed %lld bytes",
                      (long long)ASC_K_ND2NZ_PAD_MAX);
  if (asc_k_cube_use(k, ASC_K_MTE3, s, 0, read, 0, "data_copy_pad", "src", line)) return 1;
  char *ws = (char *)calloc((size_t)bytes, 1);
  if (!ws) return asc_k_fail(k, line, "data_copy_pad: out of memory for the workspace");
  for (int64_t i = 0; i < c[0]; i++) memcpy(ws + i * dst_step, s.p + i * src_step, (size_t)c[1]);
  asc_kc_span w = {ws, bytes};
  int failed = asc_k_cube_nd2nz(k, dst, w, t, v, line);
  free(ws);
  return failed;
}
/* data_copy(dst GM, src UB (NZ), Nz2NdParamsFull) */
static int asc_k_cube_nz2nd(asc_k_ctx *k, asc_k_gt dst, asc_k_lt src, int t, const int64_t *v,
                            int line) __attribute__((unused));
static int asc_k_cube_nz2nd(asc_k_ctx *k, asc_k_gt dst, asc_k_lt src, int t, const int64_t *v,
                            int line) {
  asc_kc_span s, d;
  asc_kc_err e;
  int es = asc_kc_esize((asc_kc_type)t);
  if (asc_k_cube_ub(k, src, es, "data_copy", &s, line) ||
      asc_k_cube_gm(k, dst, es, "data_copy", &d, line))
    return 1;
  asc_kc_nz2nd p = {v[0], v[1], v[2], v[3], v[4], v[5], v[6]};
  if (asc_kc_nz2nd_copy(d, s, (asc_kc_type)t, &p, &e))
    return asc_k_fail(k, line, "data_copy: %s", e.msg);
  if (asc_k_cube_use(k, ASC_K_MTE3, s, 0, s.n, 0, "data_copy", "src", line)) return 1;
  return 0;
}
