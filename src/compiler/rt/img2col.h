/* The img2col loads of the cube unit (load_data with LoadData3DParamsV1,
 * LoadData3DParamsV2 and LoadData3DParamsV2Pro), their registers
 * (set_load_data_boundary, set_load_data_padding_value,
 * set_load_data_repeat) and load_data with LoadData2DParamsV2.
 * Included after rt/cube.h; only cube kernels (ASC_K_CUBE) carry it.
 *
 * The feature map lies in L1 as 5HD without N: [C1][H][W][C0] (C0 = 32
 * bytes of elements). The img2col matrix of a convolution has one row per
 * output position m = ho * Wo + wo (raster order) and one column per
 * (c1, kh, kw, c0), k = ((c1 * Kh + kh) * Kw + kw) * C0 + c0, the order of
 * the weights' fractal_Z layout, so that convolution is this matrix times
 * the weights. Its element (m, k) is the feature map at row
 * ho * stride_h - pad_top + kh * dilation_h and column
 * wo * stride_w - pad_left + kw * dilation_w, or the padding value where
 * that lies outside the map (or c1 * C0 + c0 >= the channel count).
 *   Wo = (W + pad_left + pad_right - dilation_w * (Kw - 1) - 1) / stride_w + 1
 * and Ho likewise.
 *
 * V2 writes rows [m_start, m_start + m_extension) x columns [k_start,
 * k_start + k_extension) of it: to L0A in its ZZ layout (fractals of 16
 * rows x C0, row-major), to L0B as B (K = the block's rows, N its
 * columns: the output gradient x img2col product of a weight gradient)
 * in L0B's ZN layout, which transposes each fractal (CANN's "automatic
 * transpose" into L0B; 2- and 4-byte types only); en_transpose writes the
 * block transposed into L0A (kext rows of mext, each fractal and its place:
 * 2- and 4-byte types; L0B ignores it). V1 writes
 * repeat_time fractals of 16 positions x C0 channels (of c1_index, at
 * filter point (fetch_filter_h, fetch_filter_w)), the first window at
 * (left_top_h, left_top_w), jump_stride fractals apart: repeat_mode 0 moves
 * the filter point on (along K), 1 the 16 positions (along M).
 *
 * Registers (per AIC, reset when a block starts): V1 and V2 set the
 * FMATRIX (l1_h, l1_w, pads; V2's f_matrix_ctrl picks the B copy) and the
 * padding value from their parameters, V2Pro reads them (its pad value is
 * set_load_data_padding_value's). set_load_data_repeat repeats V2/V2Pro
 * loads: mode 0 moves m_start by 16 * repeat_stride rows, mode 1 k_start by
 * C0 * repeat_stride columns; iteration i writes after the i - 1 before it.
 * set_load_data_boundary (V1: 32-byte units, V2: bytes; 0 none) wraps
 * reads at or past that byte of L1 to its start.
 *
 * V2Pro packs V2's fields: ext_config = m_start << 48 | k_start << 32 |
 * m_extension << 16 | k_extension; filter_config = one byte each, from the
 * low byte: stride_w, stride_h, filter_w, filter_h, dilation_w,
 * dilation_h (its default 0x10101010101 is all ones). */
#ifndef ASC_RT_IMG2COL_H
#define ASC_RT_IMG2COL_H
#if defined(ASC_K_CUBE)

/* A load's window: the FMATRIX plus the filter walk. */
typedef struct asc_kc_geom {
  int64_t h, w, pad[4]; /* l1_h, l1_w; pad left, right, top, bottom */
  int64_t sw, sh, kw, kh, dw, dh;
} asc_kc_geom;

/* Where a load reads and writes, and how it pads. */
typedef struct asc_kc_l3d_io {
  asc_kc_core *core;
  asc_kc_span dst, src;
  int64_t dst_room; /* bytes a load may write from dst on (see asc_k_l3d_io) */
  int64_t src_l1;   /* src's byte in L1 (the boundary counts from L1's start) */
  int64_t boundary; /* bytes; 0: none */
  asc_kc_type t;
  char pad[8];       /* the padding value as one element */
  int64_t max_read;  /* bytes of src read, from its start (checked mode) */
  int64_t max_write; /* bytes of dst a V2 load wrote to, from its start */
} asc_kc_l3d_io;

static int asc_kc_geom_check(const asc_kc_geom *g, int64_t *ho, int64_t *wo, asc_kc_err *e) {
  for (int i = 0; i < 4; i++)
    if (g->pad[i] < 0 || g->pad[i] > 255)
      return asc_kc_fail(e, "pad_list values must be in [0, 255], got %lld", (long long)g->pad[i]);
  if (g->h < 1 || g->h > 32767 || g->w < 1 || g->w > 32767)
    return asc_kc_fail(e, "l1_h and l1_w must be in [1, 32767], got %lld and %lld", (long long)g->h,
                       (long long)g->w);
  if (g->sw < 1 || g->sw > 63 || g->sh < 1 || g->sh > 63)
    return asc_kc_fail(e, "stride_w and stride_h must be in [1, 63], got %lld and %lld",
                       (long long)g->sw, (long long)g->sh);
  if (g->kw < 1 || g->kw > 511 || g->kh < 1 || g->kh > 511)
    return asc_kc_fail(e, "filter_w and filter_h must be in [1, 511], got %lld and %lld",
                       (long long)g->kw, (long long)g->kh);
  if (g->dw < 1 || g->dw > 255 || g->dh < 1 || g->dh > 255)
    return asc_kc_fail(e,
                       "dilation_filter_w and dilation_filter_h must be in [1, 255], got %lld "
                       "and %lld",
                       (long long)g->dw, (long long)g->dh);
  int64_t ew = g->w + g->pad[0] + g->pad[1] - g->dw * (g->kw - 1) - 1,
          eh = g->h + g->pad[2] + g->pad[3] - g->dh * (g->kh - 1) - 1;
  if (ew < 0 || eh < 0)
    return asc_kc_fail(e,
                       "the dilated %lld x %lld filter does not fit the padded %lld x %lld "
                       "feature map",
                       (long long)g->kh, (long long)g->kw,
                       (long long)(g->h + g->pad[2] + g->pad[3]),
                       (long long)(g->w + g->pad[0] + g->pad[1]));
  *wo = ew / g->sw + 1;
  *ho = eh / g->sh + 1;
  return 0;
}

/* Copies the feature map's element (c1, ih, iw, c0) to out, or the padding
 * value where that lies outside the map. */
static int asc_kc_l3d_fetch(asc_kc_l3d_io *io, const asc_kc_geom *g, int64_t c1, int64_t ih,
                            int64_t iw, int64_t c0, char *out, asc_kc_err *e) {
  int es = asc_kc_esize(io->t), cz = asc_kc_c0(io->t);
  if (ih < 0 || ih >= g->h || iw < 0 || iw >= g->w) {
    memcpy(out, io->pad, (size_t)es);
    return 0;
  }
  int64_t byte = (((c1 * g->h + ih) * g->w + iw) * cz + c0) * es;
  if (io->boundary) {
    int64_t at = (io->src_l1 + byte) % io->boundary;
    memcpy(out, io->core->mem[ASC_KC_L1] + at, (size_t)es);
    if (at - io->src_l1 + es > io->max_read) io->max_read = at - io->src_l1 + es;
    return 0;
  }
  if (!asc_kc_in(byte, es, io->src.n))
    return asc_kc_fail(e,
                       "img2col reads element (c1 %lld, h %lld, w %lld) at byte %lld past its "
                       "source (%lld bytes)",
                       (long long)c1, (long long)ih, (long long)iw, (long long)byte,
                       (long long)io->src.n);
  memcpy(out, io->src.p + byte, (size_t)es);
  if (byte + es > io->max_read) io->max_read = byte + es;
  return 0;
}

/* The boundary register in bytes for a load (unit 32 for V1, 1 for V2). */
static int asc_kc_l3d_boundary(asc_kc_l3d_io *io, int64_t unit, asc_kc_err *e) {
  int64_t b = io->core->l3d_boundary, min = unit == 32 ? 16 : 1024;
  io->boundary = 0;
  if (!b) return 0;
  if (b < min || b * unit > io->core->size[ASC_KC_L1])
    return asc_kc_fail(e,
                       "the load data boundary %lld must be 0 or in [%lld, %lld] for this load "
                       "(units of %lld bytes)",
                       (long long)b, (long long)min, (long long)(io->core->size[ASC_KC_L1] / unit),
                       (long long)unit);
  io->boundary = b * unit;
  if (io->src_l1 >= io->boundary)
    return asc_kc_fail(e, "src starts at L1 byte %lld, past the load data boundary (%lld bytes)",
                       (long long)io->src_l1, (long long)io->boundary);
  return 0;
}

/* V2: rows [m0, m0 + mext) x columns [k0, k0 + kext) of the img2col matrix
 * of a feature map with c channels to dst (to_b: L0B's layout) from
 * element `at` on. */
static int asc_kc_l3d_v2_block(asc_kc_l3d_io *io, const asc_kc_geom *g, int64_t c, int64_t m0,
                               int64_t k0, int64_t mext, int64_t kext, int to_b, int transpose,
                               int64_t at, asc_kc_err *e) {
  int es = asc_kc_esize(io->t);
  int64_t cz = asc_kc_c0(io->t), ho, wo;
  if (asc_kc_geom_check(g, &ho, &wo, e)) return -1;
  /* L0B: fractals of 16 columns (N) x C0 rows (K), n1 of them a row of
   * K; 4-byte blocks of 8 columns leave the second half of their last
   * fractal unwritten (CANN's "virtual" columns of the square transpose) */
  int64_t n1 = (kext + 15) / 16;
  int64_t bytes = mext * kext * es, base = at * es;
  if (transpose) /* to the last element the transposed layout writes */
    bytes = ((((kext - 1) / 16) * (mext / cz) + (mext - 1) / cz) * 16 * cz +
             ((kext - 1) % 16) * cz + cz) *
            es;
  else if (to_b)
    bytes =
        ((((mext - 1) / cz) * n1 + (kext - 1) / 16) * 16 * cz + ((kext - 1) % 16) * cz + cz) * es;
  if (!asc_kc_in(base, bytes, io->dst_room))
    return asc_kc_fail(e,
                       "img2col writes %lld bytes from byte %lld past its destination (%lld "
                       "bytes)",
                       (long long)bytes, (long long)base, (long long)io->dst_room);
  if (base + bytes > io->max_write) io->max_write = base + bytes;
  int64_t k1 = kext / cz, per_c1 = g->kh * g->kw * cz;
  char v[8];
  for (int64_t i = 0; i < mext; i++) {
    int64_t m = m0 + i, oh = m / wo, ow = m % wo;
    for (int64_t j = 0; j < kext; j++) {
      int64_t kk = k0 + j, c1 = kk / per_c1, r = kk % per_c1, fh = r / (g->kw * cz),
              fw = (r / cz) % g->kw, c0 = kk % cz;
      if (c1 * cz + c0 >= c) {
        memcpy(v, io->pad, (size_t)es);
      } else if (asc_kc_l3d_fetch(io, g, c1, oh * g->sh - g->pad[2] + fh * g->dh,
                                  ow * g->sw - g->pad[0] + fw * g->dw, c0, v, e)) {
        return -1;
      }
      int64_t frac = (i / 16) * k1 + j / cz, in = (i % 16) * cz + j % cz;
      if (transpose) /* L0A holds the block transposed: kext rows, mext columns */
        frac = (j / 16) * (mext / cz) + i / cz, in = (j % 16) * cz + i % cz;
      else if (to_b) /* L0B holds the block as B (K = its rows), each fractal transposed */
        frac = (i / cz) * n1 + j / 16, in = (j % 16) * cz + i % cz;
      memcpy(io->dst.p + base + (frac * 16 * cz + in) * es, v, (size_t)es);
    }
  }
  return 0;
}

/* A V2 load with the repeat register: c channels, the extents and starts. */
static int asc_kc_l3d_v2(asc_kc_l3d_io *io, const asc_kc_geom *g, int64_t c, int64_t kext,
                         int64_t mext, int64_t k0, int64_t m0, int to_b, int transpose,
                         asc_kc_err *e) {
  int64_t cz = asc_kc_c0(io->t);
  if (c < 1 || c > 65535 || c % cz)
    return asc_kc_fail(e,
                       "channel_size must be a multiple of %lld (32 bytes) in [%lld, 65535], "
                       "got %lld",
                       (long long)cz, (long long)cz, (long long)c);
  if (kext < 1 || kext > 65535 || mext < 1 || mext > 65535 || k0 < 0 || k0 > 65535 || m0 < 0 ||
      m0 > 65535)
    return asc_kc_fail(e,
                       "k_extension and m_extension must be in [1, 65535] and k_start_pt, "
                       "m_start_pt in [0, 65535] (got %lld, %lld, %lld, %lld)",
                       (long long)kext, (long long)mext, (long long)k0, (long long)m0);
  if (kext % cz || k0 % cz || mext % 16)
    return asc_kc_fail(e,
                       "k_extension and k_start_pt must be multiples of %lld (32 bytes) and "
                       "m_extension a multiple of 16 (got %lld, %lld, %lld)",
                       (long long)cz, (long long)kext, (long long)k0, (long long)mext);
  /* en_transpose: 2- and 4-byte types into L0A; L0B ignores it (CANN's
   * LoadData 3D v2 on A2) */
  if (to_b) transpose = 0;
  if (to_b && asc_kc_esize(io->t) == 1)
    return asc_kc_fail(e, "img2col into L0B takes 2- and 4-byte types (no 1-byte types on A2)");
  if (transpose && asc_kc_esize(io->t) == 1)
    return asc_kc_fail(e, "en_transpose transposes 2- and 4-byte types only");
  if (asc_kc_l3d_boundary(io, 1, e)) return -1;
  asc_kc_core *core = io->core;
  int64_t times = core->l3d_repeat_set ? core->l3d_repeat[0] : 1,
          stride = core->l3d_repeat_set ? core->l3d_repeat[1] : 0,
          mode = core->l3d_repeat_set ? core->l3d_repeat[2] : 0;
  for (int64_t r = 0; r < times; r++) {
    int64_t mr = mode ? m0 : m0 + r * stride * 16, kr = mode ? k0 + r * stride * cz : k0;
    if (asc_kc_l3d_v2_block(io, g, c, mr, kr, mext, kext, to_b, transpose, r * mext * kext, e))
      return -1;
  }
  return 0;
}

/* V1: repeat_time fractals; walk: jump_stride, repeat_mode, repeat_time,
 * c_size, c1_index, fetch_filter_w/h, left_top_w/h. */
typedef struct asc_kc_l3d_v1p {
  int64_t c1, fw, fh, left_w, left_h, jump, mode, times, c_size;
} asc_kc_l3d_v1p;

static int asc_kc_l3d_v1(asc_kc_l3d_io *io, const asc_kc_geom *g, const asc_kc_l3d_v1p *p,
                         asc_kc_err *e) {
  int es = asc_kc_esize(io->t);
  int64_t cz = asc_kc_c0(io->t), ho, wo;
  if (asc_kc_geom_check(g, &ho, &wo, e)) return -1;
  if (p->c1 < 0 || p->c1 > 4095 || p->fw < 0 || p->fw > 254 || p->fh < 0 || p->fh > 254)
    return asc_kc_fail(e,
                       "c1_index must be in [0, 4095] and fetch_filter_w/h in [0, 254] (got "
                       "%lld, %lld, %lld)",
                       (long long)p->c1, (long long)p->fw, (long long)p->fh);
  if (p->left_w < -255 || p->left_w > 32767 || p->left_h < -255 || p->left_h > 32767)
    return asc_kc_fail(e, "left_top_w and left_top_h must be in [-255, 32767], got %lld and %lld",
                       (long long)p->left_w, (long long)p->left_h);
  if (p->jump < 1 || p->jump > 127 || p->mode < 0 || p->mode > 1 || p->times < 1 ||
      p->times > 255 || p->c_size < 0 || p->c_size > 1)
    return asc_kc_fail(e,
                       "jump_stride must be in [1, 127], repeat_mode in [0, 1], repeat_time "
                       "in [1, 255] and c_size in [0, 1] (got %lld, %lld, %lld, %lld)",
                       (long long)p->jump, (long long)p->mode, (long long)p->times,
                       (long long)p->c_size);
  if (p->c_size) return asc_kc_fail(e, "c_size 1 (4-channel maps) is not simulated; c_size 0 is");
  if (p->fw >= g->kw || p->fh >= g->kh)
    return asc_kc_fail(e, "fetch_filter (%lld, %lld) lies outside the %lld x %lld filter",
                       (long long)p->fh, (long long)p->fw, (long long)g->kh, (long long)g->kw);
  if (asc_kc_l3d_boundary(io, 32, e)) return -1;
  int64_t last = ((p->times - 1) * p->jump + 1) * ASC_KC_FRACTAL_BYTES;
  if (!asc_kc_in(0, last, io->dst.n))
    return asc_kc_fail(e, "img2col writes %lld bytes past its destination (%lld bytes)",
                       (long long)last, (long long)io->dst.n);
  int64_t c1 = p->c1, fw = p->fw, fh = p->fh, h = p->left_h, w = p->left_w;
  int64_t right = g->w - 1 + g->pad[1] - g->dw * (g->kw - 1); /* the last window column */
  for (int64_t r = 0; r < p->times; r++) {
    int64_t wh = h, ww = w;
    char *f = io->dst.p + r * p->jump * ASC_KC_FRACTAL_BYTES;
    for (int i = 0; i < 16; i++) {
      for (int64_t c0 = 0; c0 < cz; c0++)
        if (asc_kc_l3d_fetch(io, g, c1, wh + fh * g->dh, ww + fw * g->dw, c0,
                             f + (i * cz + c0) * es, e))
          return -1;
      ww += g->sw;
      if (ww > right) ww = -g->pad[0], wh += g->sh;
    }
    if (p->mode) { /* the next 16 windows */
      h = wh, w = ww;
    } else if (++fw == g->kw) { /* the next filter point */
      fw = 0;
      if (++fh == g->kh) fh = 0, c1++;
    }
  }
  return 0;
}

/* --- the kernel's view -------------------------------------------------- */

/* The span of load's src in L1, its dst in L0A/L0B, the pad value. */
static int asc_k_l3d_io(asc_k_ctx *k, asc_k_lt dst, asc_k_lt src, int t, int dt, double pad,
                        const char *api, asc_kc_l3d_io *io, int *to_b, int line) {
  int es = asc_kc_esize((asc_kc_type)t);
  memset(io, 0, sizeof *io);
  io->core = (asc_kc_core *)k->cube;
  io->t = (asc_kc_type)t;
  if (asc_k_cube_local(k, dst, es, ASC_KC_M_L0AB, api, "dst", &io->dst, line) ||
      asc_k_cube_local(k, src, es, ASC_KC_M_L1, api, "src", &io->src, line))
    return 1;
  io->src_l1 = io->src.p - io->core->mem[ASC_KC_L1];
  io->dst_room = io->dst.n;
#if !ASC_K_CHECKED
  /* A load's footprint is whole 16-row fractals of L0, where CANN's own
   * examples size a float L0B tensor by the data (n aligned to 8, not
   * 16): outside checked mode the write may run on to the buffer's end, as
   * on the hardware; checked mode reports it past the tensor. */
  for (int b = ASC_KC_L0A; b <= ASC_KC_L0B; b++) {
    char *end = io->core->mem[b] + io->core->size[b];
    if (io->dst.p >= io->core->mem[b] && io->dst.p < end) io->dst_room = end - io->dst.p;
  }
#endif
  *to_b = (dst.off >> ASC_KC_TAG_SHIFT) - 1 == ASC_KC_L0B;
  asc_k_cast_store(dt, io->pad, pad, 1);
  return 0;
}
/* Records the load's accesses (checked mode) after it ran. */
static int asc_k_l3d_done(asc_k_ctx *k, asc_kc_l3d_io *io, int64_t written, const char *api,
                          int line) {
  if (io->max_read > 0 &&
      asc_k_cube_use(k, ASC_K_MTE1, io->src, 0, io->max_read, 0, api, "src", line))
    return 1;
  return written > 0 && asc_k_cube_use(k, ASC_K_MTE1, io->dst, 0, written, 1, api, "dst", line);
}
/* What V1 and V2 loads share: the operands (asc_k_l3d_io), the filter's
 * range and the window from a[], where both keep pad_list[4], l1_h, l1_w
 * at 0..5, stride_w/h at 11..12, filter_w/h at 13..14 (plus kw_add and
 * kh_add) and dilation_filter_w/h at 15..16. */
static int asc_k_l3d_open(asc_k_ctx *k, asc_k_lt dst, asc_k_lt src, int t, int dt, const int64_t *a,
                          int64_t kw_add, int64_t kh_add, double pad, const char *api,
                          asc_kc_l3d_io *io, int *to_b, asc_kc_geom *g, int line) {
  if (asc_k_l3d_io(k, dst, src, t, dt, pad, api, io, to_b, line)) return 1;
  if (a[13] < 1 || a[13] > 255 || a[14] < 1 || a[14] > 255)
    return asc_k_fail(k, line, "%s: filter_w and filter_h must be in [1, 255], got %lld and %lld",
                      api, (long long)a[13], (long long)a[14]);
  *g = (asc_kc_geom){a[4],           a[5],  {a[0], a[1], a[2], a[3]},
                     a[11],          a[12], a[13] + kw_add,
                     a[14] + kh_add, a[15], a[16]};
  return 0;
}
static void asc_k_l3d_set_fmatrix(asc_kc_core *c, int which, const asc_kc_geom *g) {
  int64_t *f = c->l3d_fmatrix[which];
  f[0] = g->h, f[1] = g->w;
  for (int i = 0; i < 4; i++) f[2 + i] = g->pad[i];
  c->l3d_fmatrix_set[which] = 1;
}

/* load_data(dst A2/B2, src A1/B1, LoadData3DParamsV2): a[] holds pad_list[4],
 * l1_h, l1_w, channel_size, k_extension, m_extension, k_start_pt,
 * m_start_pt, stride_w/h, filter_w/h, dilation_filter_w/h, en_transpose,
 * filter_size_w/h, f_matrix_ctrl (21 values). */
static int asc_k_load3d_v2(asc_k_ctx *k, asc_k_lt dst, asc_k_lt src, int t, int dt,
                           const int64_t *a, double pad, int line) __attribute__((unused));
static int asc_k_load3d_v2(asc_k_ctx *k, asc_k_lt dst, asc_k_lt src, int t, int dt,
                           const int64_t *a, double pad, int line) {
  asc_kc_l3d_io io;
  asc_kc_err e;
  int to_b;
  asc_kc_geom g;
  const char *api = "load_data (LoadData3DParamsV2)";
  /* filter_size_w/h add 256 to the filter's width/height */
  if (asc_k_l3d_open(k, dst, src, t, dt, a, 256 * !!a[18], 256 * !!a[19], pad, api, &io, &to_b, &g,
                     line))
    return 1;
  int64_t ho, wo;
  if (asc_kc_geom_check(&g, &ho, &wo, &e)) return asc_k_fail(k, line, "%s: %s", api, e.msg);
  asc_kc_core *c = io.core;
  asc_k_l3d_set_fmatrix(c, a[20] ? 1 : 0, &g);
  c->l3d_pad = pad;
  if (asc_kc_l3d_v2(&io, &g, a[6], a[7], a[8], a[9], a[10], to_b, (int)a[17], &e))
    return asc_k_fail(k, line, "%s: %s", api, e.msg);
  return asc_k_l3d_done(k, &io, io.max_write, api, line);
}

/* load_data(dst A2/B2, src A1/B1, LoadData3DParamsV2Pro): the FMATRIX and
 * padding registers, and the packed configs (see the top of this file). */
static int asc_k_load3d_v2pro(asc_k_ctx *k, asc_k_lt dst, asc_k_lt src, int t, int dt,
                              int64_t channel, int transpose, int small_k, int fsw, int fsh,
                              int fmc, int64_t ext, int64_t filter, int line)
    __attribute__((unused));
static int asc_k_load3d_v2pro(asc_k_ctx *k, asc_k_lt dst, asc_k_lt src, int t, int dt,
                              int64_t channel, int transpose, int small_k, int fsw, int fsh,
                              int fmc, int64_t ext, int64_t filter, int line) {
  asc_kc_l3d_io io;
  asc_kc_err e;
  int to_b;
  const char *api = "load_data (LoadData3DParamsV2Pro)";
  asc_kc_core *c = (asc_kc_core *)k->cube;
  if (asc_k_l3d_io(k, dst, src, t, dt, c ? c->l3d_pad : 0.0, api, &io, &to_b, line)) return 1;
  if (small_k) return asc_k_fail(k, line, "%s: en_small_k is not simulated", api);
  int w = fmc ? 1 : 0;
  if (!c->l3d_fmatrix_set[w])
    return asc_k_fail(k, line,
                      "%s: FMATRIX%s is not set: a load_data with "
                      "LoadData3DParamsV2 (f_matrix_ctrl %s) or V1 sets it",
                      api, w ? "_B" : "", w ? "True" : "False");
  const int64_t *f = c->l3d_fmatrix[w];
  uint64_t x = (uint64_t)ext, y = (uint64_t)filter;
  asc_kc_geom g = {f[0],
                   f[1],
                   {f[2], f[3], f[4], f[5]},
                   (int64_t)(y & 0xFF),
                   (int64_t)(y >> 8 & 0xFF),
                   (int64_t)(y >> 16 & 0xFF) + 256 * !!fsw,
                   (int64_t)(y >> 24 & 0xFF) + 256 * !!fsh,
                   (int64_t)(y >> 32 & 0xFF),
                   (int64_t)(y >> 40 & 0xFF)};
  int64_t kext = (int64_t)(x & 0xFFFF), mext = (int64_t)(x >> 16 & 0xFFFF),
          k0 = (int64_t)(x >> 32 & 0xFFFF), m0 = (int64_t)(x >> 48 & 0xFFFF);
  if (asc_kc_l3d_v2(&io, &g, channel, kext, mext, k0, m0, to_b, transpose, &e))
    return asc_k_fail(k, line, "%s: %s", api, e.msg);
  return asc_k_l3d_done(k, &io, io.max_write, api, line);
}

/* load_data(dst A2/B2, src A1/B1, LoadData3DParamsV1): a[] holds pad_list[4],
 * l1_h, l1_w, c1_index, fetch_filter_w/h, left_top_w/h, stride_w/h,
 * filter_w/h, dilation_filter_w/h, jump_stride, repeat_mode, repeat_time,
 * c_size (21 values). */
static int asc_k_load3d_v1(asc_k_ctx *k, asc_k_lt dst, asc_k_lt src, int t, int dt,
                           const int64_t *a, double pad, int line) __attribute__((unused));
static int asc_k_load3d_v1(asc_k_ctx *k, asc_k_lt dst, asc_k_lt src, int t, int dt,
                           const int64_t *a, double pad, int line) {
  asc_kc_l3d_io io;
  asc_kc_err e;
  int to_b;
  asc_kc_geom g;
  const char *api = "load_data (LoadData3DParamsV1)";
  if (asc_k_l3d_open(k, dst, src, t, dt, a, 0, 0, pad, api, &io, &to_b, &g, line)) return 1;
  asc_kc_l3d_v1p p = {a[6], a[7], a[8], a[9], a[10], a[17], a[18], a[19], a[20]};
  asc_k_l3d_set_fmatrix(io.core, 0, &g);
  io.core->l3d_pad = pad;
  if (asc_kc_l3d_v1(&io, &g, &p, &e)) return asc_k_fail(k, line, "%s: %s", api, e.msg);
  return asc_k_l3d_done(k, &io, ((p.times - 1) * p.jump + 1) * ASC_KC_FRACTAL_BYTES, api, line);
}

/* set_load_data_boundary / set_load_data_padding_value / set_load_data_repeat */
static int asc_k_l3d_set_boundary(asc_k_ctx *k, int64_t b, int line) __attribute__((unused));
static int asc_k_l3d_set_boundary(asc_k_ctx *k, int64_t b, int line) {
  if (b < 0 || b > 0xFFFFFFFFLL)
    return asc_k_fail(k, line,
                      "set_load_data_boundary: the boundary must be in [0, 2**32), got "
                      "%lld",
                      (long long)b);
  ((asc_kc_core *)k->cube)->l3d_boundary = b;
  return 0;
}
static int asc_k_l3d_set_pad(asc_k_ctx *k, double v, int line) __attribute__((unused));
static int asc_k_l3d_set_pad(asc_k_ctx *k, double v, int line) {
  (void)line;
  ((asc_kc_core *)k->cube)->l3d_pad = v;
  return 0;
}
static int asc_k_l3d_set_repeat(asc_k_ctx *k, int64_t times, int64_t stride, int64_t mode, int line)
    __attribute__((unused));
static int asc_k_l3d_set_repeat(asc_k_ctx *k, int64_t times, int64_t stride, int64_t mode,
                                int line) {
  if (times < 0 || times > 255 || stride < 0 || stride > 65535 || mode < 0 || mode > 1)
    return asc_k_fail(k, line,
                      "set_load_data_repeat: repeat_time must be in [0, 255], "
                      "repeat_stride in [0, 65535] and repeat_mode in [0, 1] (got %lld, %lld, "
                      "%lld)",
                      (long long)times, (long long)stride, (long long)mode);
  asc_kc_core *c = (asc_kc_core *)k->cube;
  c->l3d_repeat[0] = times, c->l3d_repeat[1] = stride, c->l3d_repeat[2] = mode;
  c->l3d_repeat_set = 1;
  return 0;
}

/* load_data(dst, src, LoadData2DParamsV2): the source is an NZ matrix of
 * fractals (16 rows x C0, 512 bytes), fractal (m, k) at index
 * k * src_stride + m; the m_step x k_step fractals from (m_start_position,
 * k_start_position) go to L0A/L0B row-major (fractal (i, j) at
 * i * dst_stride + j, dst_stride 0 meaning k_step) and to L1 column-major,
 * NZ again (j * dst_stride + i, 0 meaning m_step); if_transpose transposes
 * each 16 x 16 fractal (2-byte types). */
static int asc_k_load2d_v2(asc_k_ctx *k, asc_k_lt dst, asc_kc_span src, int from_gm, int t,
                           int64_t m0, int64_t k0, int64_t ms, int64_t ks, int64_t sstride,
                           int64_t dstride, int transpose, int64_t sid, int line) {
  const char *api = "load_data (LoadData2DParamsV2)";
  asc_kc_span d;
  if (asc_k_cube_local(k, dst, asc_kc_esize((asc_kc_type)t),
                       from_gm ? ASC_KC_M_L1 | ASC_KC_M_L0AB : ASC_KC_M_L0AB, api, "dst", &d, line))
    return 1;
  if (m0 < 0 || m0 > 65535 || k0 < 0 || k0 > 65535 || ms < 0 || ms > 65535 || ks < 0 ||
      ks > 65535 || dstride < 0 || dstride > 65535 || sid < 0 || sid > 255 ||
      sstride < -2147483648LL || sstride > 2147483647LL)
    return asc_k_fail(k, line,
                      "%s: m/k_start_position, m/k_step and dst_stride must be in [0, 65535], "
                      "src_stride in [-2**31, 2**31) and sid in [0, 255] (got %lld, %lld, %lld, "
                      "%lld, %lld, %lld, %lld)",
                      api, (long long)m0, (long long)k0, (long long)ms, (long long)ks,
                      (long long)dstride, (long long)sstride, (long long)sid);
  if (transpose && asc_kc_esize((asc_kc_type)t) != 2)
    return asc_k_fail(k, line, "%s: if_transpose transposes 16 x 16 fractals of 2-byte types only",
                      api);
  int to_l1 = (dst.off >> ASC_KC_TAG_SHIFT) - 1 == ASC_KC_L1;
  if (!dstride) dstride = to_l1 ? ms : ks;
  const int64_t F = ASC_KC_FRACTAL_BYTES;
  int64_t hi_s = 0, hi_d = 0;
  for (int64_t i = 0; i < ms; i++)
    for (int64_t j = 0; j < ks; j++) {
      int64_t s = ((k0 + j) * sstride + m0 + i) * F,
              o = (to_l1 ? j * dstride + i : i * dstride + j) * F;
      if (!asc_kc_in(s, F, src.n))
        return asc_k_fail(k, line,
                          "%s: fractal (%lld, %lld) at byte %lld lies outside its "
                          "source (%lld bytes)",
                          api, (long long)(m0 + i), (long long)(k0 + j), (long long)s,
                          (long long)src.n);
      if (!asc_kc_in(o, F, d.n))
        return asc_k_fail(k, line,
                          "%s: fractal (%lld, %lld) of the step lands at byte %lld, past "
                          "its destination (%lld bytes)",
                          api, (long long)i, (long long)j, (long long)o, (long long)d.n);
      if (!transpose) {
        memmove(d.p + o, src.p + s, (size_t)F);
      } else {
        uint16_t f[256];
        memcpy(f, src.p + s, sizeof f);
        uint16_t *out = (uint16_t *)(void *)(d.p + o);
        for (int r = 0; r < 16; r++)
          for (int c = 0; c < 16; c++) out[c * 16 + r] = f[r * 16 + c];
      }
      if (s + F > hi_s) hi_s = s + F;
      if (o + F > hi_d) hi_d = o + F;
    }
  int pipe = from_gm ? ASC_K_MTE2 : ASC_K_MTE1;
  if (!from_gm && hi_s && asc_k_cube_use(k, pipe, src, 0, hi_s, 0, api, "src", line)) return 1;
  return hi_d && asc_k_cube_use(k, pipe, d, 0, hi_d, 1, api, "dst", line);
}
static int asc_k_load2d_v2_l1(asc_k_ctx *k, asc_k_lt dst, asc_k_lt src, int t, int64_t m0,
                              int64_t k0, int64_t ms, int64_t ks, int64_t sstride, int64_t dstride,
                              int transpose, int64_t sid, int line) __attribute__((unused));
static int asc_k_load2d_v2_l1(asc_k_ctx *k, asc_k_lt dst, asc_k_lt src, int t, int64_t m0,
                              int64_t k0, int64_t ms, int64_t ks, int64_t sstride, int64_t dstride,
                              int transpose, int64_t sid, int line) {
  asc_kc_span s;
  if (asc_k_cube_local(k, src, asc_kc_esize((asc_kc_type)t), ASC_KC_M_L1,
                       "load_data (LoadData2DParamsV2)", "src", &s, line))
    return 1;
  return asc_k_load2d_v2(k, dst, s, 0, t, m0, k0, ms, ks, sstride, dstride, transpose, sid, line);
}
static int asc_k_load2d_v2_gm(asc_k_ctx *k, asc_k_lt dst, asc_k_gt src, int t, int64_t m0,
                              int64_t k0, int64_t ms, int64_t ks, int64_t sstride, int64_t dstride,
                              int transpose, int64_t sid, int line) __attribute__((unused));
static int asc_k_load2d_v2_gm(asc_k_ctx *k, asc_k_lt dst, asc_k_gt src, int t, int64_t m0,
                              int64_t k0, int64_t ms, int64_t ks, int64_t sstride, int64_t dstride,
                              int transpose, int64_t sid, int line) {
  asc_kc_span s;
  if (asc_k_cube_gm(k, src, asc_kc_esize((asc_kc_type)t), "load_data (LoadData2DParamsV2)", &s,
                    line))
    return 1;
  return asc_k_load2d_v2(k, dst, s, 1, t, m0, k0, ms, ks, sstride, dstride, transpose, sid, line);
}

#endif /* ASC_K_CUBE */
#endif /* ASC_RT_IMG2COL_H */
