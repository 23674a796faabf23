/* Buffer sizes of a 910B-class AIC (bytes). */
#define ASC_KC_L1_SIZE (512 * 1024)
#define ASC_KC_L0A_SIZE (64 * 1024)
#define ASC_KC_L0B_SIZE (64 * 1024)
#define ASC_KC_L0C_SIZE (128 * 1024)
#define ASC_KC_FRACTAL_BYTES 512
#define ASC_KC_BLOCK_BYTES 32

/* The AIC's buffers, in the order of PyAsc's TPositions that live there. */
typedef enum asc_kc_buf {
  ASC_KC_L1 = 0, /* A1, B1, C1 */
  ASC_KC_L0A,    /* A2 */
  ASC_KC_L0B,    /* B2 */
  ASC_KC_L0C,    /* CO1 */
  ASC_KC_NBUF
} asc_kc_buf;

/* Element types the cube reads and writes. */
typedef enum asc_kc_type {
  ASC_KC_F16 = 0,
  ASC_KC_BF16,
  ASC_KC_S8,
  ASC_KC_F32,
  ASC_KC_S32,
} asc_kc_type;

/* PyAsc's QuantModes, in its order. */
typedef enum asc_kc_quant {
  ASC_KC_NO_QUANT = 0,
  ASC_KC_F322F16,
  ASC_KC_F322BF16,
  ASC_KC_DEQF16,
  ASC_KC_VDEQF16,
  ASC_KC_QF322B8_PRE,
  ASC_KC_VQF322B8_PRE,
  ASC_KC_REQ8,
  ASC_KC_VREQ8,
} asc_kc_quant;

typedef struct asc_kc_err {
  char msg[256];
} asc_kc_err;

typedef struct asc_kc_span {
  char *p;
  int64_t n; /* bytes from p that may be touched */
} asc_kc_span;

/* set_aipp_functions's registers of an AIC (read by rt/aipp.h): the image
 * planes, input format, output dtype and the scalars of its AippParams. */
typedef struct asc_kc_aipp {
  int set, format, nsrc, dtype;
  asc_kc_span src[2];
  double v[40];
} asc_kc_aipp;

/* One AIC: its buffers and the mmad's scratch (owned; asc_kc_core_free). */
typedef struct asc_kc_core {
  char *mem[ASC_KC_NBUF];
  int64_t size[ASC_KC_NBUF];
  float *scr_a, *scr_b;        /* L0A/L0B contents widened to 32 bits */
  uint8_t *l0b_idx;            /* per L0B byte: its 2-bit sparse index, 0xFF none (cube_sparse.h) */
  int portable;                /* 1: no SIMD paths (tests compare both) */
  int simd;                    /* the widest mmad path: asc_kc_simd_level */
  int64_t cursor[ASC_KC_NBUF]; /* next free byte of each buffer (TPipe.init_buffer) */
  /* the img2col loads' registers (rt/img2col.h); all zero is their reset state */
  int64_t l3d_boundary, l3d_repeat[3], l3d_fmatrix[2][6];
  int l3d_repeat_set, l3d_fmatrix_set[2];
  double l3d_pad;
  asc_kc_aipp aipp; /* zeroed: no set_aipp_functions yet */
} asc_kc_core;

static int asc_kc_fail(asc_kc_err *e, const char *fmt, ...)
    __attribute__((format(printf, 2, 3), unused));
static int asc_kc_fail(asc_kc_err *e, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(e->msg, sizeof e->msg, fmt, ap);
  va_end(ap);
  return -1;
}

static inline int asc_kc_esize(asc_kc_type t) {
  return t == ASC_KC_S8 ? 1 : (t == ASC_KC_F32 || t == ASC_KC_S32) ? 4 : 2;
}
/* Elements of one 32-byte block: a fractal's row. */
static inline int asc_kc_c0(asc_kc_type t) {
  return ASC_KC_BLOCK_BYTES / asc_kc_esize(t);
}
static inline int64_t asc_kc_ceil16(int64_t x) {
  return (x + 15) / 16;
}

static void asc_kc_core_free(asc_kc_core *c) __attribute__((unused));
static void asc_kc_core_free(asc_kc_core *c) {
  for (int i = 0; i < ASC_KC_NBUF; i++) {
    free(c->mem[i]);
    c->mem[i] = NULL;
  }
  free(c->scr_a);
  free(c->scr_b);
  free(c->l0b_idx);
  c->scr_a = c->scr_b = NULL;
  c->l0b_idx = NULL;
}

/* asc_kc_core_free for a pooled core (rt/pool.h's fini). */
static void asc_kc_core_fini(void *c) __attribute__((unused));
static void asc_kc_core_fini(void *c) {
  asc_kc_core_free((asc_kc_core *)c);
}

/* A core of an earlier block for a new one: its buffers keep what they
 * hold (as an AIC's on the NPU), its allocations and registers start
 * over. */
static void asc_kc_core_reuse(asc_kc_core *c) __attribute__((unused));
static void asc_kc_core_reuse(asc_kc_core *c) {
  const asc_kc_core kept = *c;
  memset(c, 0, sizeof *c);
  memcpy(c->mem, kept.mem, sizeof c->mem);
  memcpy(c->size, kept.size, sizeof c->size);
  c->scr_a = kept.scr_a, c->scr_b = kept.scr_b, c->l0b_idx = kept.l0b_idx;
  c->portable = kept.portable, c->simd = kept.simd;
}

static int asc_kc_simd_level(void);

/* Allocates the buffers (zeroed) and scratch; 0, or -1 with c left empty. */
static int asc_kc_core_init(asc_kc_core *c, asc_kc_err *e) __attribute__((unused));
static int asc_kc_core_init(asc_kc_core *c, asc_kc_err *e) {
  static const int64_t sizes[ASC_KC_NBUF] = {ASC_KC_L1_SIZE, ASC_KC_L0A_SIZE, ASC_KC_L0B_SIZE,
                                             ASC_KC_L0C_SIZE};
  memset(c, 0, sizeof *c);
  c->simd = asc_kc_simd_level();
  c->portable = c->simd == 0;
  for (int i = 0; i < ASC_KC_NBUF; i++) {
    c->size[i] = sizes[i];
    c->mem[i] = (char *)calloc((size_t)sizes[i], 1);
  }
  /* an int8 L0A holds its size in elements, each widened to 4 bytes; B is
   * kept with its columns padded to 16 */
  c->scr_a = (float *)malloc((size_t)ASC_KC_L0A_SIZE * 4);
  c->scr_b = (float *)malloc((size_t)ASC_KC_L0B_SIZE * 4);
  c->l0b_idx = (uint8_t *)malloc((size_t)ASC_KC_L0B_SIZE);
  if (c->l0b_idx) memset(c->l0b_idx, 0xFF, (size_t)ASC_KC_L0B_SIZE);
  for (int i = 0; i < ASC_KC_NBUF; i++)
    if (!c->mem[i]) c->scr_a = (free(c->scr_a), (float *)NULL);
  if (!c->scr_a || !c->scr_b || !c->l0b_idx) {
    asc_kc_core_free(c);
    return asc_kc_fail(e, "out of host memory for the cube's buffers");
  }
  return 0;
}

/* The span of buffer `b` from byte `off` to its end, checking alignment to
 * `align` bytes (32 for L1, 512 for L0A/L0B, 1024 for L0C: one fractal). */
static int asc_kc_span_at(const asc_kc_core *c, asc_kc_buf b, int64_t off, asc_kc_span *s,
                          asc_kc_err *e) __attribute__((unused));
static int asc_kc_span_at(const asc_kc_core *c, asc_kc_buf b, int64_t off, asc_kc_span *s,
                          asc_kc_err *e) {
  static const char *const names[ASC_KC_NBUF] = {"L1", "L0A", "L0B", "L0C"};
  static const int64_t align[ASC_KC_NBUF] = {32, 512, 512, 1024};
  s->p = NULL;
  s->n = 0;
  if (off < 0 || off >= c->size[b])
    return asc_kc_fail(e, "offset %lld is outside %s (%lld bytes)", (long long)off, names[b],
                       (long long)c->size[b]);
  if (off % align[b])
    return asc_kc_fail(e, "%s tensor at byte %lld is not aligned to %lld bytes (a fractal)",
                       names[b], (long long)off, (long long)align[b]);
  s->p = c->mem[b] + off;
  s->n = c->size[b] - off;
  return 0;
}

/* Checks that [off, off + len) lies in a span of n bytes (no overflow:
 * every operand is below 2^40 where callers form it). */
static inline int asc_kc_in(int64_t off, int64_t len, int64_t n) {
  return off >= 0 && len >= 0 && off + len <= n;
}

/* --- ND <-> NZ ------------------------------------------------------------ */

/* PyAsc's Nd2NzParams (counts in elements unless said). */
typedef struct asc_kc_nd2nz {
  int64_t nd_num, n_value, d_value;
  int64_t src_nd_matrix_stride; /* elements between source matrices */
  int64_t src_d_value;          /* elements between source rows */
  int64_t dst_nz_c0_stride;     /* 32-byte blocks between column blocks (rows16) */
  int64_t dst_nz_n_stride;      /* 32-byte blocks between rows (1) */
  int64_t dst_nz_matrix_stride; /* elements between destination matrices */
} asc_kc_nd2nz;

/* Whether a row of Nd2Nz (its column blocks at d0 + b * dc, dc >= 0, the
 * last one `n % c0` elements or whole) lies in dst's n bytes: the last
 * whole block and the last block reach furthest. */
static inline int asc_kc_nd2nz_row_fits(int64_t d0, int64_t dc, int64_t n_el, int c0, int es,
                                        int64_t n) {
  const int64_t blocks = (n_el + c0 - 1) / c0, whole = n_el / c0;
  if (d0 < 0 || blocks == 0) return d0 >= 0;
  if (whole && !asc_kc_in(d0 + (whole - 1) * dc, (int64_t)c0 * es, n)) return 0;
  return asc_kc_in(d0 + (blocks - 1) * dc, (n_el - (blocks - 1) * c0) * es, n);
}

/* One checked row of Nd2Nz: whole blocks are 32-byte copies, which the
 * compiler makes two moves where a copy of variable size is a call. */
static inline void asc_kc_nd2nz_row(char *d, int64_t dc, const char *s, int64_t n_el, int c0,
                                    int es) {
  int64_t c = 0;
  for (; c + c0 <= n_el; c += c0, d += dc) memcpy(d, s + c * es, ASC_KC_BLOCK_BYTES);
  if (c < n_el) memcpy(d, s + c * es, (size_t)((n_el - c) * es));
}

/* DataCopy(dst NZ, src ND, Nd2NzParams): GM or UB to L1. */
static int asc_kc_nd2nz_copy(asc_kc_span dst, asc_kc_span src, asc_kc_type t, const asc_kc_nd2nz *p,
                             asc_kc_err *e) __attribute__((unused));
static int asc_kc_nd2nz_copy(asc_kc_span dst, asc_kc_span src, asc_kc_type t, const asc_kc_nd2nz *p,
                             asc_kc_err *e) {
  const int es = asc_kc_esize(t), c0 = asc_kc_c0(t);
  if (p->nd_num < 0 || p->n_value < 0 || p->d_value < 0 || p->nd_num > 65535 ||
      p->n_value > 16384 || p->d_value > 65535 || p->src_d_value < p->d_value ||
      p->src_d_value > 65535 || p->dst_nz_c0_stride < 0 || p->dst_nz_c0_stride > 65535 ||
      p->dst_nz_n_stride < 0 || p->dst_nz_n_stride > 65535 || p->src_nd_matrix_stride < 0 ||
      p->src_nd_matrix_stride > 65535 || p->dst_nz_matrix_stride < 0 ||
      p->dst_nz_matrix_stride > 65535)
    return asc_kc_fail(
        e, "Nd2NzParams out of range (nd_num %lld, n_value %lld, d_value %lld, src_d_value %lld)",
        (long long)p->nd_num, (long long)p->n_value, (long long)p->d_value,
        (long long)p->src_d_value);
  for (int64_t m = 0; m < p->nd_num; m++)
    for (int64_t r = 0; r < p->n_value; r++) {
      int64_t s = (m * p->src_nd_matrix_stride + r * p->src_d_value) * es;
      if (!asc_kc_in(s, p->d_value * es, src.n))
        return asc_kc_fail(e, "Nd2Nz reads %lld bytes from byte %lld of a %lld-byte source",
                           (long long)(p->d_value * es), (long long)s, (long long)src.n);
      const int64_t d0 = (m * p->dst_nz_matrix_stride + r * p->dst_nz_n_stride * c0) * es,
                    dc = p->dst_nz_c0_stride * c0 * es; /* bytes between column blocks */
      if (asc_kc_nd2nz_row_fits(d0, dc, p->d_value, c0, es, dst.n)) {
        asc_kc_nd2nz_row(dst.p + d0, dc, src.p + s, p->d_value, c0, es);
        continue;
      }
      for (int64_t c = 0; c < p->d_value; c += c0) {
        int64_t run = p->d_value - c < c0 ? p->d_value - c : c0;
        int64_t d = d0 + (c / c0) * dc;
        if (!asc_kc_in(d, run * es, dst.n))
          return asc_kc_fail(e, "Nd2Nz writes past its destination (byte %lld of %lld)",
                             (long long)(d + run * es), (long long)dst.n);
        memcpy(dst.p + d, src.p + s + c * es, (size_t)(run * es));
      }
    }
  return 0;
}

/* PyAsc's Nz2NdParamsFull: NZ with C0 = 16 elements (UB) to ND. */
typedef struct asc_kc_nz2nd {
  int64_t nd_num, n_value, d_value;
  int64_t src_nd_matrix_stride; /* fractals (256 elements) between source matrices */
  int64_t src_n_stride;         /* rows between source column blocks (rows16) */
  int64_t dst_d_stride;         /* elements between destination rows */
  int64_t dst_nd_matrix_stride; /* elements between destination matrices */
} asc_kc_nz2nd;

static int asc_kc_nz2nd_copy(asc_kc_span dst, asc_kc_span src, asc_kc_type t, const asc_kc_nz2nd *p,
                             asc_kc_err *e) __attribute__((unused));
static int asc_kc_nz2nd_copy(asc_kc_span dst, asc_kc_span src, asc_kc_type t, const asc_kc_nz2nd *p,
                             asc_kc_err *e) {
  const int es = asc_kc_esize(t);
  if (p->nd_num < 0 || p->n_value < 0 || p->d_value < 0 || p->nd_num > 65535 || p->n_value > 8192 ||
      p->d_value > 65535 || p->src_n_stride < p->n_value || p->src_n_stride > 65535 ||
      p->dst_d_stride < p->d_value || p->dst_d_stride > 65535 || p->src_nd_matrix_stride < 0 ||
      p->src_nd_matrix_stride > 65535 || p->dst_nd_matrix_stride < 0 ||
      p->dst_nd_matrix_stride > 65535)
    return asc_kc_fail(
        e, "Nz2NdParamsFull out of range (n_value %lld, d_value %lld, src_n_stride %lld)",
        (long long)p->n_value, (long long)p->d_value, (long long)p->src_n_stride);
  for (int64_t m = 0; m < p->nd_num; m++)
    for (int64_t r = 0; r < p->n_value; r++)
      for (int64_t c = 0; c < p->d_value; c += 16) {
        int64_t run = p->d_value - c < 16 ? p->d_value - c : 16;
        int64_t s =
            (m * p->src_nd_matrix_stride * 256 + ((c / 16) * p->src_n_stride + r) * 16) * es;
        int64_t d = (m * p->dst_nd_matrix_stride + r * p->dst_d_stride + c) * es;
        if (!asc_kc_in(s, run * es, src.n) || !asc_kc_in(d, run * es, dst.n))
          return asc_kc_fail(e, "Nz2Nd touches bytes outside its %s",
                             asc_kc_in(s, run * es, src.n) ? "destination" : "source");
        memcpy(dst.p + d, src.p + s, (size_t)(run * es));
      }
  return 0;
}

/* --- load_data (2D) ------------------------------------------------------- */

#if ASC_KC_X86
/* 8 x 8 2-byte elements: row i of the source (8 elements at s + i * ss
 * bytes) becomes column i of the destination (rows d + j * ds): SSE2's
 * three rounds of interleaving (load_data's transpose, Matmul's
 * transposed gather). */
static inline void asc_kc_tr8x8_u16(char *d, int64_t ds, const char *s, int64_t ss) {
  __m128i a[8], b[8];
  for (int i = 0; i < 8; i++) a[i] = _mm_loadu_si128((const __m128i *)(const void *)(s + i * ss));
  for (int i = 0; i < 4; i++) {
    b[2 * i] = _mm_unpacklo_epi16(a[2 * i], a[2 * i + 1]);
    b[2 * i + 1] = _mm_unpackhi_epi16(a[2 * i], a[2 * i + 1]);
  }
  for (int i = 0; i < 2; i++)
    for (int h = 0; h < 2; h++) {
      a[4 * i + 2 * h] = _mm_unpacklo_epi32(b[4 * i + h], b[4 * i + h + 2]);
      a[4 * i + 2 * h + 1] = _mm_unpackhi_epi32(b[4 * i + h], b[4 * i + h + 2]);
    }
  /* a[0..3]: rows 0-3 x columns {0,1}, {2,3}, {4,5}, {6,7}; a[4..7]: rows 4-7 */
  for (int j = 0; j < 4; j++) {
    _mm_storeu_si128((__m128i *)(void *)(d + (2 * j) * ds), _mm_unpacklo_epi64(a[j], a[j + 4]));
    _mm_storeu_si128((__m128i *)(void *)(d + (2 * j + 1) * ds), _mm_unpackhi_epi64(a[j], a[j + 4]));
  }
}
#endif

/* Transposes one 16 x 16 fractal of 2-byte elements from s to d (which
 * may be the same fractal: the source is read whole first). */
static inline void asc_kc_tr16_u16(char *d, const char *s) {
  uint16_t f[256];
  memcpy(f, s, sizeof f);
#if ASC_KC_X86
  const char *fp = (const char *)f;
  for (int bi = 0; bi < 16; bi += 8) /* block (bi, bj) of the source goes to (bj, bi) */
    for (int bj = 0; bj < 16; bj += 8)
      asc_kc_tr8x8_u16(d + (bj * 16 + bi) * 2, 32, fp + (bi * 16 + bj) * 2, 32);
#else
  uint16_t *o = (uint16_t *)(void *)d;
  for (int r = 0; r < 16; r++)
    for (int c = 0; c < 16; c++) o[c * 16 + r] = f[r * 16 + c];
#endif
}

/* PyAsc's LoadData2DParams. Copies repeat_times fractals: source fractal
 * start_index + i * src_stride to destination fractal i * (1 + dst_gap),
 * each 16 x 16 fractal transposed when if_transpose (2-byte types only). */
typedef struct asc_kc_load2d {
  int64_t start_index, repeat_times, src_stride, dst_gap;
  int if_transpose;
} asc_kc_load2d;

/* LoadData2DParams' fields within their hardware widths (load_data and
 * load_data_with_sparse alike). */
static int asc_kc_load2d_check(const asc_kc_load2d *p, asc_kc_err *e) __attribute__((unused));
static int asc_kc_load2d_check(const asc_kc_load2d *p, asc_kc_err *e) {
  if (p->start_index < 0 || p->start_index > 65535 || p->repeat_times < 0 ||
      p->repeat_times > 255 || p->src_stride < 0 || p->src_stride > 65535 || p->dst_gap < 0 ||
      p->dst_gap > 65535)
    return asc_kc_fail(e,
                       "LoadData2DParams out of range (start_index %lld, repeat_times %lld, "
                       "src_stride %lld, dst_gap %lld)",
                       (long long)p->start_index, (long long)p->repeat_times,
                       (long long)p->src_stride, (long long)p->dst_gap);
  return 0;
}

static int asc_kc_load_data_2d(asc_kc_span dst, asc_kc_span src, asc_kc_type t,
                               const asc_kc_load2d *p, asc_kc_err *e) __attribute__((unused));
static int asc_kc_load_data_2d(asc_kc_span dst, asc_kc_span src, asc_kc_type t,
                               const asc_kc_load2d *p, asc_kc_err *e) {
  if (asc_kc_load2d_check(p, e)) return -1;
  if (p->if_transpose && asc_kc_esize(t) != 2)
    return asc_kc_fail(e, "load_data transposes 16 x 16 fractals of 2-byte types only");
  for (int64_t i = 0; i < p->repeat_times; i++) {
    int64_t s = (p->start_index + i * p->src_stride) * ASC_KC_FRACTAL_BYTES;
    int64_t d = i * (1 + p->dst_gap) * ASC_KC_FRACTAL_BYTES;
    if (!asc_kc_in(s, ASC_KC_FRACTAL_BYTES, src.n))
      return asc_kc_fail(e, "load_data reads fractal %lld past its source (%lld bytes)",
                         (long long)(p->start_index + i * p->src_stride), (long long)src.n);
    if (!asc_kc_in(d, ASC_KC_FRACTAL_BYTES, dst.n))
      return asc_kc_fail(e, "load_data writes fractal %lld past its destination (%lld bytes)",
                         (long long)(i * (1 + p->dst_gap)), (long long)dst.n);
    if (!p->if_transpose) {
      memmove(dst.p + d, src.p + s, ASC_KC_FRACTAL_BYTES);
    } else {
      asc_kc_tr16_u16(dst.p + d, src.p + s);
    }
  }
  return 0;
}

/* --- mmad ----------------------------------------------------------------- */

/* PyAsc's MmadParams as the simulator uses them: C (m x n) = A (m x k) @
 * B (k x n), plus C (init == 0: accumulate), plus bias[n] when has_bias
 * (the bias replaces C's old value, as cmatrix_source does). */
typedef struct asc_kc_mmad {
  int64_t m, n, k;
  /* init's bit 1: MmadParams::kDirectionAlign, float A's rows of fractals
   * in L0A hold ceil(k / 16) * 16 columns (as a transposing img2col load
   * writes them), of which the first ceil(k / 8) fractals are read */
  int init, has_bias;
} asc_kc_mmad;

/* Widens L0A to row-major m x k floats, and L0B to N1 panels of k x 16
 * floats (columns past n zero). Integers are widened as int32 bit
 * patterns stored in the float slots (see asc_kc_mm_int). */
static void asc_kc_widen_scalar(void *out, const char *src, asc_kc_type t, int64_t cnt) {
  float *dst = (float *)out;
  if (t == ASC_KC_F16) {
    for (int64_t i = 0; i < cnt; i++) {
      uint16_t h;
      memcpy(&h, src + 2 * i, 2);
      dst[i] = asc_k_h2f(h);
    }
  } else if (t == ASC_KC_BF16) {
    for (int64_t i = 0; i < cnt; i++) {
      uint16_t h;
      memcpy(&h, src + 2 * i, 2);
      dst[i] = asc_k_bf2f(h);
    }
  } else if (t == ASC_KC_F32) {
    memcpy(dst, src, (size_t)cnt * 4);
  } else {
    int32_t *idst = (int32_t *)out;
    for (int64_t i = 0; i < cnt; i++) idst[i] = (int8_t)src[i];
  }
}

#if ASC_KC_X86
/* AVX2, FMA and F16C (CPUID leaf 1 ECX bit 29; not every compiler's
 * __builtin_cpu_supports knows "f16c"). */
static int asc_kc_has_avx2(void) {
  unsigned ax, bx, cx, dx;
  if (!__builtin_cpu_supports("avx2") || !__builtin_cpu_supports("fma")) return 0;
  if (!__get_cpuid(1, &ax, &bx, &cx, &dx)) return 0;
  return (cx >> 29) & 1u;
}

/* A SIMD path of mmad (cube_mmad256.h, cube_mmad512.h; the latter says why
 * their sums are the portable path's bit for bit): its widening of A (the
 * portable path's layout), its transpose of a 2-byte fractal for B's
 * panels (asc_kc_widen_b_simd) and its product of one chunk of K
 * (asc_kc_tiles512 says how). */
typedef struct asc_kc_simd {
  void (*widen_a)(float *wa, const char *a, asc_kc_type t, int64_t m1, int64_t k1, int64_t kp);
  void (*tr16)(float *o, const char *f, asc_kc_type t);
  void (*tiles)(asc_kc_span dst, asc_kc_span bias, const asc_kc_mmad *p, asc_kc_type t, int first,
                const float *wa, int64_t lda, const float *wb, int64_t ldb, int64_t k);
} asc_kc_simd;

/* B for the SIMD paths: fractal (j, nb) row c (column nb*16 + c of B, a
 * run along K) -> panel nb, wb[nb][q][c]. tr16 widens and transposes a
 * 2-byte fractal with the path's registers; fp32 (8 K values a row) and
 * int8 (32) go element by element, like the portable path. */
static void asc_kc_widen_b_simd(float *wb, const char *b, asc_kc_type t, int64_t n1, int64_t k1,
                                int64_t kp, void (*tr16)(float *o, const char *f, asc_kc_type t)) {
  const int c0 = asc_kc_c0(t);
  for (int64_t nb = 0; nb < n1; nb++)
    for (int64_t j = 0; j < k1; j++) {
      const char *f = b + (j * n1 + nb) * ASC_KC_FRACTAL_BYTES;
      float *o = wb + nb * kp * 16 + j * c0 * 16;
      if (t == ASC_KC_F16 || t == ASC_KC_BF16) {
        tr16(o, f, t);
      } else if (t == ASC_KC_F32) {
        for (int c = 0; c < 16; c++)
          for (int q = 0; q < c0; q++) memcpy(o + q * 16 + c, f + (c * c0 + q) * 4, 4);
      } else {
        int32_t *io = (int32_t *)(void *)o;
        for (int c = 0; c < 16; c++)
          for (int q = 0; q < c0; q++) io[q * 16 + c] = (int8_t)f[c * c0 + q];
      }
    }
}

#include "cube_mmad256.h" /* mmad with AVX2 */
#include "cube_mmad512.h" /* mmad with AVX-512 */
#endif

/* The widest mmad path this CPU runs: 2 AVX-512, 1 AVX2 (with FMA and
 * F16C), 0 portable. PYASC_CPU_SIMD caps it as it caps the tensor
 * library's vector maths: 0 portable, avx2 at most AVX2. */
static int asc_kc_simd_level(void) {
  const char *env = getenv("PYASC_CPU_SIMD");
  if (env && !strcmp(env, "0")) return 0;
#if ASC_KC_X86
  /* What the CPU has is asked once: CPUID traps to the hypervisor in a
   * virtual machine, microseconds a query, and every core init and
   * fixpipe asks. -1: not asked yet (a race only asks twice). */
  static int cpu_level = -1;
  int level = __atomic_load_n(&cpu_level, __ATOMIC_RELAXED);
  if (level < 0) {
    __builtin_cpu_init();
    level = !asc_kc_has_avx2() ? 0 : !asc_kc_has_avx512() ? 1 : 2;
    __atomic_store_n(&cpu_level, level, __ATOMIC_RELAXED);
  }
  if (level == 2 && env && !strcmp(env, "avx2")) return 1;
  return level;
#else
  return 0;
#endif
}

static void asc_kc_tile_scalar(float *ct, const float *a, int64_t lda, int64_t rows,
                               const float *bp, int64_t k) {
  for (int64_t r = 0; r < rows; r++)
    for (int64_t q = 0; q < k; q++) {
      float x = a[r * lda + q];
      for (int j = 0; j < 16; j++) ct[r * 16 + j] += x * bp[q * 16 + j];
    }
}

static void asc_kc_tile_int(int32_t *ct, const int32_t *a, int64_t lda, int64_t rows,
                            const int32_t *bp, int64_t k) {
  for (int64_t r = 0; r < rows; r++)
    for (int64_t q = 0; q < k; q++) {
      /* int8 x int8 products summed in int32 cannot overflow for k < 2^17;
       * unsigned arithmetic keeps larger k defined (wrapping as int32) */
      uint32_t x = (uint32_t)a[r * lda + q];
      for (int j = 0; j < 16; j++)
        ct[r * 16 + j] = (int32_t)((uint32_t)ct[r * 16 + j] + x * (uint32_t)bp[q * 16 + j]);
    }
}

/* MmadParams' range and the bytes of its operands: m x k1 fractals of A,
 * k1 x n of B (k1: K in fractal rows of the input type), m x n of C, n
 * floats of bias. Shared by every Mmad form. */
static int asc_kc_mmad_extents(asc_kc_span dst, asc_kc_span a, asc_kc_span b, asc_kc_span bias,
                               const asc_kc_mmad *p, int64_t c0, asc_kc_err *e)
    __attribute__((unused));
static int asc_kc_mmad_extents(asc_kc_span dst, asc_kc_span a, asc_kc_span b, asc_kc_span bias,
                               const asc_kc_mmad *p, int64_t c0, asc_kc_err *e) {
  if (p->m < 0 || p->n < 0 || p->k < 0 || p->m > 4095 || p->n > 4095 || p->k > 4095)
    return asc_kc_fail(e, "MmadParams m, n, k must lie in 0..4095 (got %lld, %lld, %lld)",
                       (long long)p->m, (long long)p->n, (long long)p->k);
  const int64_t m1 = asc_kc_ceil16(p->m), n1 = asc_kc_ceil16(p->n), k1 = (p->k + c0 - 1) / c0;
  if (m1 * k1 * ASC_KC_FRACTAL_BYTES > a.n)
    return asc_kc_fail(e, "mmad reads %lld bytes of L0A (m=%lld, k=%lld) but the tensor has %lld",
                       (long long)(m1 * k1 * ASC_KC_FRACTAL_BYTES), (long long)p->m,
                       (long long)p->k, (long long)a.n);
  if (k1 * n1 * ASC_KC_FRACTAL_BYTES > b.n)
    return asc_kc_fail(e, "mmad reads %lld bytes of L0B (k=%lld, n=%lld) but the tensor has %lld",
                       (long long)(k1 * n1 * ASC_KC_FRACTAL_BYTES), (long long)p->k,
                       (long long)p->n, (long long)b.n);
  if (m1 * n1 * 1024 > dst.n)
    return asc_kc_fail(e, "mmad writes %lld bytes of L0C (m=%lld, n=%lld) but the tensor has %lld",
                       (long long)(m1 * n1 * 1024), (long long)p->m, (long long)p->n,
                       (long long)dst.n);
  if (p->has_bias && p->n * 4 > bias.n)
    return asc_kc_fail(e, "mmad's bias has %lld bytes, n=%lld needs %lld", (long long)bias.n,
                       (long long)p->n, (long long)(p->n * 4));
  return 0;
}

/* Mmad(dst L0C, fm L0A, filter L0B[, bias], params). `ct` is dst's type:
 * fp32 for fp16/bf16 inputs, int32 for int8. */
static int asc_kc_mmad_run(asc_kc_core *core, asc_kc_span dst, asc_kc_span a, asc_kc_span b,
                           asc_kc_span bias, asc_kc_type t, const asc_kc_mmad *p, asc_kc_err *e)
    __attribute__((unused));
static int asc_kc_mmad_run(asc_kc_core *core, asc_kc_span dst, asc_kc_span a, asc_kc_span b,
                           asc_kc_span bias, asc_kc_type t, const asc_kc_mmad *p, asc_kc_err *e) {
  if (t == ASC_KC_S32) return asc_kc_fail(e, "mmad takes fp16, bf16, fp32 or int8 inputs");
  const int c0 = asc_kc_c0(t), es = asc_kc_esize(t);
  if (asc_kc_mmad_extents(dst, a, b, bias, p, c0, e)) return -1;
  const int64_t m1 = asc_kc_ceil16(p->m), n1 = asc_kc_ceil16(p->n), k1 = (p->k + c0 - 1) / c0;
  const int64_t kp = k1 * c0;
  if (m1 * 16 * kp > ASC_KC_L0A_SIZE || k1 * c0 * n1 * 16 > ASC_KC_L0B_SIZE)
    return asc_kc_fail(e, "mmad's operands exceed L0A/L0B");
  const int64_t ak1 = p->init & 2 && t == ASC_KC_F32 ? (p->k + 15) / 16 * 2 : k1;
  if (p->init & 2) { /* the multiply reads A packed: its rows of fractals k1 apart */
    if (m1 * ak1 * ASC_KC_FRACTAL_BYTES > a.n)
      return asc_kc_fail(e,
                         "mmad reads %lld bytes of L0A (m=%lld, k=%lld aligned to 16) but the "
                         "tensor has %lld",
                         (long long)(m1 * ak1 * ASC_KC_FRACTAL_BYTES), (long long)p->m,
                         (long long)p->k, (long long)a.n);
    /* m1 * k1 fractals fit L0A (checked above) */
    char *packed = (char *)malloc((size_t)(m1 * k1 * ASC_KC_FRACTAL_BYTES) + 1);
    if (!packed) return asc_kc_fail(e, "mmad: out of host memory");
    for (int64_t i = 0; i < m1; i++)
      memcpy(packed + i * k1 * ASC_KC_FRACTAL_BYTES, a.p + i * ak1 * ASC_KC_FRACTAL_BYTES,
             (size_t)(k1 * ASC_KC_FRACTAL_BYTES));
    asc_kc_mmad q = *p;
    q.init &= 1;
    asc_kc_span pa = {packed, m1 * k1 * ASC_KC_FRACTAL_BYTES};
    int rc = asc_kc_mmad_run(core, dst, pa, b, bias, t, &q, e);
    free(packed);
    return rc;
  }
  float *wa = core->scr_a, *wb = core->scr_b;
#if ASC_KC_X86
  const asc_kc_simd *simd = core->portable    ? NULL
                            : core->simd >= 2 ? &asc_kc_simd512
                            : core->simd == 1 ? &asc_kc_simd256
                                              : NULL;
  if (simd) {
    simd->widen_a(wa, a.p, t, m1, k1, kp);
    asc_kc_widen_b_simd(wb, b.p, t, n1, k1, kp, simd->tr16);
    for (int64_t q0 = 0; q0 < p->k || q0 == 0; q0 += ASC_KC_KCHUNK) {
      const int64_t kc = p->k - q0 < ASC_KC_KCHUNK ? p->k - q0 : ASC_KC_KCHUNK;
      simd->tiles(dst, bias, p, t, q0 == 0, wa + q0, kp, wb + q0 * 16, kp, kc);
    }
    return 0;
  }
#endif
  /* A: fractal (i, j) row r -> wa[(i*16 + r) * kp + j*c0 ...] */
  for (int64_t i = 0; i < m1; i++)
    for (int64_t j = 0; j < k1; j++) {
      const char *f = a.p + (i * k1 + j) * ASC_KC_FRACTAL_BYTES;
      for (int r = 0; r < 16; r++)
        asc_kc_widen_scalar(wa + (i * 16 + r) * kp + j * c0, f + r * c0 * es, t, c0);
    }
  /* B: fractal (j, nb) row c (column nb*16+c of B) -> panel nb, wb[nb][q][c] */
  for (int64_t nb = 0; nb < n1; nb++)
    for (int64_t j = 0; j < k1; j++) {
      const char *f = b.p + (j * n1 + nb) * ASC_KC_FRACTAL_BYTES;
      union {
        float f[32];
        int32_t i[32];
      } run;
      for (int c = 0; c < 16; c++) {
        asc_kc_widen_scalar(run.f, f + c * c0 * es, t, c0);
        size_t at = (size_t)(nb * kp * 16 + j * c0 * 16);
        if (t == ASC_KC_S8)
          for (int q = 0; q < c0; q++)
            ((int32_t *)(void *)wb)[at + (size_t)q * 16 + (size_t)c] = run.i[q];
        else
          for (int q = 0; q < c0; q++) wb[at + (size_t)q * 16 + (size_t)c] = run.f[q];
      }
    }
  const int isint = t == ASC_KC_S8;
  for (int64_t i = 0; i < m1; i++) {
    int64_t rows = p->m - i * 16 < 16 ? p->m - i * 16 : 16;
    for (int64_t nb = 0; nb < n1; nb++) {
      char *cf = dst.p + (nb * m1 + i) * 1024;
      union {
        float f[256];
        int32_t i[256];
      } cu;
      float *ct = cu.f;
      int64_t cols = p->n - nb * 16 < 16 ? p->n - nb * 16 : 16;
      if (p->has_bias) {
        for (int r = 0; r < 16; r++)
          for (int c = 0; c < 16; c++)
            memcpy(ct + r * 16 + c, c < cols ? bias.p + (nb * 16 + c) * 4 : "\0\0\0", 4);
      } else if (p->init) {
        memset(&cu, 0, sizeof cu);
      } else {
        memcpy(cu.f, cf, sizeof cu);
      }
      const float *arow = wa + i * 16 * kp, *bp = wb + nb * kp * 16;
      if (isint)
        asc_kc_tile_int(cu.i, (const int32_t *)(const void *)arow, kp, rows,
                        (const int32_t *)(const void *)bp, p->k);
      else
        asc_kc_tile_scalar(ct, arow, kp, rows, bp, p->k);
      /* only the m x n part is the result; the rest of the fractal keeps
       * what it held */
      for (int64_t r = 0; r < rows; r++) memcpy(cf + r * 64, cu.f + r * 16, (size_t)cols * 4);
    }
  }
  return 0;
}

/* --- fixpipe -------------------------------------------------------------- */

/* PyAsc's FixpipeParamsV220 (the fields the simulator gives meaning). */
typedef struct asc_kc_fixpipe {
  int64_t n_size, m_size;
  int64_t src_stride; /* rows between L0C's column blocks (a multiple of 16) */
  int64_t dst_stride; /* ND: elements between rows; NZ: 32-byte blocks between column blocks */
  asc_kc_quant quant;
  float deq_scalar;
  int relu_en;
  int nz_out;        /* FixpipeConfig: 0 row-major (ND), 1 NZ */
  int channel_split; /* an NZ float output in 16 x 8 fractals (isChannelSplit) */
} asc_kc_fixpipe;

#include "cube_fixpipe_nd.h" /* its fp32 -> ND fp32/fp16/bf16 form, row by row */

/* The fixpipe's multiplier keeps 10 of float32's 23 mantissa bits (CANN's
 * Fixpipe and SetQuantScalar: the low 13 bits are cleared), so 0.1f scales
 * by 0.0999756. */
static inline float asc_kc_quant_scale(float scale) {
  uint32_t bits;
  memcpy(&bits, &scale, 4);
  bits &= 0xFFFFE000u;
  memcpy(&scale, &bits, 4);
  return scale;
}

/* The column block of an NZ output of dt: 32 bytes of int8 or of a channel-split
 * float, else 16 elements. */
static inline int64_t asc_kc_nz_c0(asc_kc_type dt, int channel_split) {
  return dt == ASC_KC_S8 ? 32 : channel_split && dt == ASC_KC_F32 ? 8 : 16;
}

/* Fixpipe(dst GM/UB, src L0C[, quant vector], params): src is fp32 or
 * int32 (`st`), dst is `dt`; `qv` holds n_size fp32 scales for the vector
 * quant modes. */
static int asc_kc_fixpipe_run(asc_kc_span dst, asc_kc_span src, asc_kc_span qv, asc_kc_type dt,
                              asc_kc_type st, const asc_kc_fixpipe *p, asc_kc_err *e)
    __attribute__((unused));
static int asc_kc_fixpipe_run(asc_kc_span dst, asc_kc_span src, asc_kc_span qv, asc_kc_type dt,
                              asc_kc_type st, const asc_kc_fixpipe *p, asc_kc_err *e) {
  if (p->n_size < 0 || p->m_size < 0 || p->n_size > 65535 || p->m_size > 65535 ||
      p->src_stride < p->m_size || p->src_stride % 16 || p->src_stride > 65535 ||
      p->dst_stride < 0 || p->dst_stride > 0xffffffffLL)
    return asc_kc_fail(e,
                       "FixpipeParamsV220 out of range (n_size %lld, m_size %lld, src_stride %lld: "
                       "a multiple of 16, at least m_size)",
                       (long long)p->n_size, (long long)p->m_size, (long long)p->src_stride);
  if (!p->nz_out && p->dst_stride < p->n_size)
    return asc_kc_fail(e, "fixpipe's dst_stride %lld is below n_size %lld",
                       (long long)p->dst_stride, (long long)p->n_size);
  const int des = asc_kc_esize(dt);
  const int64_t dc0 = asc_kc_nz_c0(dt, p->channel_split);
  /* CANN's FixpipeParamsV220: an NZ destination's column blocks lie
   * dst_stride 32-byte blocks apart, whatever the element size (a float
   * row of 16 is two of them) */
  if (p->nz_out && p->dst_stride * 32 < p->m_size * dc0 * des)
    return asc_kc_fail(e,
                       "fixpipe's NZ dst_stride %lld (32-byte blocks) is below m_size %lld rows "
                       "of %lld bytes",
                       (long long)p->dst_stride, (long long)p->m_size, (long long)(dc0 * des));
  /* which conversions each quant mode allows */
  int ok;
  switch (p->quant) {
    case ASC_KC_NO_QUANT:
      ok = dt == st;
      break;
    case ASC_KC_F322F16:
      ok = st == ASC_KC_F32 && dt == ASC_KC_F16;
      break;
    case ASC_KC_F322BF16:
      ok = st == ASC_KC_F32 && dt == ASC_KC_BF16;
      break;
    case ASC_KC_DEQF16:
    case ASC_KC_VDEQF16:
      ok = st == ASC_KC_S32 && dt == ASC_KC_F16;
      break;
    case ASC_KC_QF322B8_PRE:
    case ASC_KC_VQF322B8_PRE:
      ok = st == ASC_KC_F32 && dt == ASC_KC_S8;
      break;
    case ASC_KC_REQ8:
    case ASC_KC_VREQ8:
      ok = st == ASC_KC_S32 && dt == ASC_KC_S8;
      break;
    default:
      ok = 0;
  }
  if (!ok)
    return asc_kc_fail(e, "fixpipe: quant mode %d does not convert between these types",
                       (int)p->quant);
  int vec =
      p->quant == ASC_KC_VDEQF16 || p->quant == ASC_KC_VQF322B8_PRE || p->quant == ASC_KC_VREQ8;
  if (vec && p->n_size * 4 > qv.n)
    return asc_kc_fail(e, "fixpipe's quant vector has %lld bytes, n_size %lld needs %lld",
                       (long long)qv.n, (long long)p->n_size, (long long)(p->n_size * 4));
  if (asc_kc_fixpipe_nd(dst, src, dt, st, p)) return 0;
  const int64_t n16 = (p->n_size + 15) / 16;
  for (int64_t m = 0; m < p->m_size; m++)
    for (int64_t n = 0; n < p->n_size; n++) {
      int64_t s = (((n / 16) * p->src_stride + m) * 16 + n % 16) * 4;
      int64_t d = (m * p->dst_stride + n) * des;
      if (p->nz_out) {
        /* int8 merges pairs of 16-column fractals into 16 x 32 ones; with an
         * odd count of them the last stays 16 wide (Int8 Channel Merge) */
        int64_t cb = n / dc0, w = dc0, ni = n % dc0;
        if (dc0 == 32 && n16 % 2 && n >= (n16 - 1) * 16)
          cb = (n16 - 1) / 2, w = 16, ni = n - (n16 - 1) * 16;
        d = cb * p->dst_stride * 32 + (m * w + ni) * des;
      }
      if (!asc_kc_in(s, 4, src.n))
        return asc_kc_fail(e, "fixpipe reads past its L0C tensor (%lld bytes)", (long long)src.n);
      if (!asc_kc_in(d, des, dst.n))
        return asc_kc_fail(e, "fixpipe writes past its destination (%lld bytes)", (long long)dst.n);
      float f;
      int32_t iv;
      memcpy(&f, src.p + s, 4);
      memcpy(&iv, src.p + s, 4);
      float scale = p->deq_scalar;
      if (vec) memcpy(&scale, qv.p + n * 4, 4);
      scale = asc_kc_quant_scale(scale);
      if (st == ASC_KC_S32 && p->quant != ASC_KC_NO_QUANT)
        f = (float)iv * scale;
      else if (p->quant == ASC_KC_QF322B8_PRE || p->quant == ASC_KC_VQF322B8_PRE)
        f *= scale;
      if (p->relu_en) {
        if (st == ASC_KC_S32 && p->quant == ASC_KC_NO_QUANT)
          iv = iv < 0 ? 0 : iv;
        else
          f = f < 0 ? 0.0f : f;
      }
      char *o = dst.p + d;
      if (dt == ASC_KC_F32) {
        memcpy(o, &f, 4);
      } else if (dt == ASC_KC_S32) {
        memcpy(o, &iv, 4);
      } else if (dt == ASC_KC_F16) {
        uint16_t h = asc_k_f2h(f);
        memcpy(o, &h, 2);
      } else if (dt == ASC_KC_BF16) {
        uint16_t h = asc_k_f2bf(f);
        memcpy(o, &h, 2);
      } else {
        float r = nearbyintf(f);
        int8_t v = (int8_t)(r != r ? 0 : r > 127 ? 127 : r < -128 ? -128 : r);
        memcpy(o, &v, 1);
      }
    }
  return 0;
}

/* FixpipeParamsV220's ndNum matrices (CANN: NZ2ND of several L0C
 * matrices): matrix i is read src_nd_stride fractals (16 x 16 x 4 bytes)
 * and written dst_nd_stride elements after matrix i - 1; 0 matrices write
 * nothing. The fields belong to the ND output: an NZ one moves one matrix. */
typedef struct asc_kc_fixpipe_nds {
  int64_t nd_num, src_nd_stride, dst_nd_stride;
} asc_kc_fixpipe_nds;

static int asc_kc_fixpipe_nd_run(asc_kc_span dst, asc_kc_span src, asc_kc_span qv, asc_kc_type dt,
                                 asc_kc_type st, const asc_kc_fixpipe *p,
                                 const asc_kc_fixpipe_nds *nd, asc_kc_err *e)
    __attribute__((unused));
static int asc_kc_fixpipe_nd_run(asc_kc_span dst, asc_kc_span src, asc_kc_span qv, asc_kc_type dt,
                                 asc_kc_type st, const asc_kc_fixpipe *p,
                                 const asc_kc_fixpipe_nds *nd, asc_kc_err *e) {
  if (p->nz_out) return asc_kc_fixpipe_run(dst, src, qv, dt, st, p, e);
  if (nd->nd_num < 0 || nd->nd_num > 65535 || nd->src_nd_stride < 0 || nd->src_nd_stride > 512 ||
      nd->dst_nd_stride < 0 || nd->dst_nd_stride > 65535)
    return asc_kc_fail(e,
                       "FixpipeParamsV220 out of range (nd_num %lld: [0, 65535], src_nd_stride "
                       "%lld: [0, 512], dst_nd_stride %lld: [0, 65535])",
                       (long long)nd->nd_num, (long long)nd->src_nd_stride,
                       (long long)nd->dst_nd_stride);
  const int64_t des = asc_kc_esize(dt);
  for (int64_t i = 0; i < nd->nd_num; i++) {
    /* at most 65535 * 512 * 1024 and 65535 * 65535 * 4 bytes: no overflow */
    const int64_t so = i * nd->src_nd_stride * 1024, dof = i * nd->dst_nd_stride * des;
    if (so >= src.n || dof >= dst.n)
      return asc_kc_fail(e, "fixpipe's ND matrix %lld starts past its %s (byte %lld of %lld)",
                         (long long)i, so >= src.n ? "L0C tensor" : "destination",
                         (long long)(so >= src.n ? so : dof),
                         (long long)(so >= src.n ? src.n : dst.n));
    asc_kc_span s = {src.p + so, src.n - so}, d = {dst.p + dof, dst.n - dof};
    if (asc_kc_fixpipe_run(d, s, qv, dt, st, p, e)) return -1;
  }
  return 0;
}
