/* AIPP, the AI core's image preprocessing (docs/kernel-reference-semantics.md, "AIPP"):
 * set_aipp_functions fills the AIC's registers (asc_kc_aipp, rt/cube.h);
 * load_image_to_local reads an image from global memory through them into
 * L1 (A1/B1) as crop -> channel swap -> colour-space conversion -> data-type
 * conversion -> padding -> channel padding, each pixel's channels padded to
 * C0 elements (32 bytes, or 4 channels) in a row-major H x W x C0 layout. */

/* AippInputFormat: PyAsc's values */
enum { ASC_KA_YUV420SP = 0, ASC_KA_XRGB8888 = 1, ASC_KA_RGB888 = 4, ASC_KA_YUV400 = 9 };
/* asc_kc_aipp.v: set_aipp_functions's scalar operands, in AippParams' order */
enum {
  ASC_KA_PAD_MODE = 0,
  ASC_KA_PAD_VAL = 1, /* 4 channels */
  ASC_KA_SWAP_RB = 5,
  ASC_KA_SWAP_UV = 6,
  ASC_KA_SWAP_AX = 7,
  ASC_KA_SINGLE = 8,
  ASC_KA_MEAN = 9, /* 3 channels each */
  ASC_KA_MIN = 12,
  ASC_KA_VAR = 15,
  ASC_KA_ROUND = 18,
  ASC_KA_CPAD_MODE = 19,
  ASC_KA_CPAD_VAL = 20,
  ASC_KA_CSC = 21,
  ASC_KA_MATRIX = 22, /* 3 x 3, row-major */
  ASC_KA_BIAS_IN = 31,
  ASC_KA_BIAS_OUT = 34,
  ASC_KA_NCONF = 37
};

#if defined(ASC_K_CUBE)
/* Bytes per pixel of the first plane. */
static int asc_ka_bpp(int format) {
  return format == ASC_KA_XRGB8888 ? 4 : format == ASC_KA_RGB888 ? 3 : 1;
}

/* A configuration value that must be a whole number in [lo, hi]. */
static int asc_ka_range(asc_k_ctx *k, double v, double lo, double hi, const char *what, int line) {
  if (!(v >= lo && v <= hi) || v != (double)(int64_t)v)
    return asc_k_fail(k, line, "set_aipp_functions: %s is %g, not an integer in [%g, %g]", what, v,
                      lo, hi);
  return 0;
}

/* set_aipp_functions(src0[, src1], format, config): dt the config's dtype. */
static int asc_k_cube_aipp_set(asc_k_ctx *k, asc_k_gt src0, asc_k_gt src1, int64_t format,
                               int64_t nsrc, int dt, const double *v, int n, int line)
    __attribute__((unused));
static int asc_k_cube_aipp_set(asc_k_ctx *k, asc_k_gt src0, asc_k_gt src1, int64_t format,
                               int64_t nsrc, int dt, const double *v, int n, int line) {
  static const char *const flags[] = {"is_swap_rb", "is_swap_uv", "is_swap_ax",
                                      "is_single_line_copy"};
  asc_kc_core *c = (asc_kc_core *)k->cube;
  asc_kc_span s[2];
  if (!c || n != ASC_KA_NCONF) return asc_k_fail(k, line, "set_aipp_functions: no AIC state");
  if (format != ASC_KA_YUV420SP && format != ASC_KA_XRGB8888 && format != ASC_KA_RGB888 &&
      format != ASC_KA_YUV400)
    return asc_k_fail(k, line, "set_aipp_functions: %lld is not an AippInputFormat",
                      (long long)format);
  if ((format == ASC_KA_YUV420SP) != (nsrc == 2))
    return asc_k_fail(k, line,
                      "set_aipp_functions: YUV420SP_U8 takes src0 and src1 (the UV "
                      "plane), the other formats src0 alone");
  if (asc_k_cube_gm(k, src0, 1, "set_aipp_functions", &s[0], line) ||
      asc_k_cube_gm(k, nsrc == 2 ? src1 : src0, 1, "set_aipp_functions", &s[1], line))
    return 1;
  /* the image planes' documented alignment in global memory */
  int64_t align = format == ASC_KA_YUV420SP ? 2 : format == ASC_KA_XRGB8888 ? 4 : 1;
  for (int i = 0; i < (int)nsrc; i++)
    if ((uintptr_t)s[i].p % (uintptr_t)align)
      return asc_k_fail(k, line,
                        "set_aipp_functions: src%d must be %lld-byte aligned for this "
                        "format",
                        i, (long long)align);
  if (asc_ka_range(k, v[ASC_KA_PAD_MODE], 0, 3, "padding_mode", line)) return 1;
  if (v[ASC_KA_PAD_MODE] >= 2)
    return asc_k_fail(k, line,
                      "set_aipp_functions: padding_mode %g (block copy) is not "
                      "simulated; modes 0 (constant) and 1 (row/column copy) are",
                      v[ASC_KA_PAD_MODE]);
  for (int i = 0; i < 4; i++)
    if (asc_ka_range(k, v[ASC_KA_SWAP_RB + i], 0, 1, flags[i], line)) return 1;
  for (int i = 0; i < 3; i++) {
    if (asc_ka_range(k, v[ASC_KA_MEAN + i], 0, 255, "dtc_mean", line)) return 1;
    if (asc_ka_range(k, v[ASC_KA_BIAS_IN + i], 0, 255, "csc_bias_in", line) ||
        asc_ka_range(k, v[ASC_KA_BIAS_OUT + i], 0, 255, "csc_bias_out", line))
      return 1;
    if (!isfinite(v[ASC_KA_MIN + i]) || !isfinite(v[ASC_KA_VAR + i]))
      return asc_k_fail(k, line, "set_aipp_functions: dtc_min and dtc_var must be finite");
  }
  for (int i = 0; i < 9; i++)
    if (asc_ka_range(k, v[ASC_KA_MATRIX + i], -32768, 32767, "a csc_matrix entry", line)) return 1;
  if (asc_ka_range(k, v[ASC_KA_ROUND], 0, 4294967295.0, "dtc_round_mode", line) ||
      asc_ka_range(k, v[ASC_KA_CPAD_MODE], 0, 1, "c_padding_mode", line) ||
      asc_ka_range(k, v[ASC_KA_CSC], 0, 1, "is_enable_csc", line))
    return 1;
  if (format == ASC_KA_YUV400 && v[ASC_KA_CSC] != 0)
    return asc_k_fail(k, line,
                      "set_aipp_functions: YUV400_U8 has one channel: no colour-space "
                      "conversion");
  for (int i = 0; i < 5; i++) {
    double p = i < 4 ? v[ASC_KA_PAD_VAL + i] : v[ASC_KA_CPAD_VAL];
    const char *what = i < 4 ? "a padding_value" : "c_padding_value";
    if (dt == ASC_K_DT_INT8 && asc_ka_range(k, p, -128, 127, what, line)) return 1;
    if (dt != ASC_K_DT_INT8 && !(fabs(p) <= 65504.0))
      return asc_k_fail(k, line, "set_aipp_functions: %s %g is not a finite float16", what, p);
  }
  c->aipp.set = 1;
  c->aipp.format = (int)format;
  c->aipp.nsrc = (int)nsrc;
  c->aipp.dtype = dt;
  c->aipp.src[0] = s[0];
  c->aipp.src[1] = s[1];
  memcpy(c->aipp.v, v, sizeof(double) * ASC_KA_NCONF);
  return 0;
}

/* The channels of image pixel (r, col) after the swaps, colour-space and
 * data-type conversion, as output values; returns the channel count. */
static int asc_ka_pixel(const asc_kc_aipp *a, int64_t r, int64_t col, int64_t w, double out[3]) {
  const unsigned char *p0 = (const unsigned char *)a->src[0].p;
  const double *v = a->v;
  int64_t px[4] = {0, 0, 0, 0};
  int ch = 3;
  if (a->format == ASC_KA_YUV420SP) {
    const unsigned char *uv = (const unsigned char *)a->src[1].p + (r / 2) * w + (col & ~1LL);
    px[0] = p0[r * w + col];
    px[1] = uv[v[ASC_KA_SWAP_UV] != 0];
    px[2] = uv[v[ASC_KA_SWAP_UV] == 0];
  } else if (a->format == ASC_KA_YUV400) {
    px[0] = p0[r * w + col];
    ch = 1;
  } else {
    int bpp = asc_ka_bpp(a->format);
    for (int i = 0; i < bpp; i++) px[i] = p0[(r * w + col) * bpp + i];
    if (a->format == ASC_KA_XRGB8888) {
      /* XRGB: R/B swap within RGB, AX moves X last; the 4th channel drops */
      int64_t t;
      if (v[ASC_KA_SWAP_RB] != 0) t = px[1], px[1] = px[3], px[3] = t;
      if (v[ASC_KA_SWAP_AX] != 0) t = px[0], px[0] = px[1], px[1] = px[2], px[2] = px[3], px[3] = t;
    } else if (v[ASC_KA_SWAP_RB] != 0) {
      int64_t t = px[0];
      px[0] = px[2], px[2] = t;
    }
  }
  if (ch == 3 && v[ASC_KA_CSC] != 0) {
    int64_t o[3];
    for (int i = 0; i < 3; i++) {
      int64_t acc = 0;
      for (int j = 0; j < 3; j++)
        acc += (int64_t)v[ASC_KA_MATRIX + 3 * i + j] * (px[j] - (int64_t)v[ASC_KA_BIAS_IN + j]);
      /* >> 8 rounds toward minus infinity, then the output bias; clipped to 8 bits */
      int64_t q = (acc >= 0 ? acc / 256 : -((-acc + 255) / 256)) + (int64_t)v[ASC_KA_BIAS_OUT + i];
      o[i] = q < 0 ? 0 : q > 255 ? 255 : q;
    }
    for (int i = 0; i < 3; i++) px[i] = o[i];
  }
  for (int i = 0; i < ch; i++) {
    double d = (double)(px[i] - (int64_t)v[ASC_KA_MEAN + i]);
    if (a->dtype == ASC_K_DT_INT8) {
      out[i] = d < -128 ? -128 : d > 127 ? 127 : d;
    } else { /* float16 per step: (pixel - mean - min) * var */
      float t = asc_k_h2f(asc_k_f2h((float)d));
      t = asc_k_h2f(asc_k_f2h(t - asc_k_h2f(asc_k_f2h((float)v[ASC_KA_MIN + i]))));
      out[i] = asc_k_h2f(asc_k_f2h(t * asc_k_h2f(asc_k_f2h((float)v[ASC_KA_VAR + i]))));
    }
  }
  return ch;
}

/* load_image_to_local(dst, LoadImageToLocalParams): p holds horiz_size,
 * vert_size, horiz_start_pos, vert_start_pos, src_horiz_size, top, bottom,
 * left and right padding; dt is dst's dtype. */
static int asc_k_cube_aipp_load(asc_k_ctx *k, asc_k_lt dst, int dt, const double *p, int n,
                                int line) __attribute__((unused));
static int asc_k_cube_aipp_load(asc_k_ctx *k, asc_k_lt dst, int dt, const double *p, int n,
                                int line) {
  static const char *const names[] = {"horiz_size",     "vert_size",      "horiz_start_pos",
                                      "vert_start_pos", "src_horiz_size", "top_pad_size",
                                      "bot_pad_size",   "left_pad_size",  "right_pad_size"};
  static const double lo[] = {2, 2, 0, 0, 2, 0, 0, 0, 0};
  static const double hi[] = {4095, 4095, 4095, 4095, 4095, 32, 32, 32, 32};
  asc_kc_core *c = (asc_kc_core *)k->cube;
  if (!c || n != 9) return asc_k_fail(k, line, "load_image_to_local: no AIC state");
  const asc_kc_aipp *a = &c->aipp;
  int64_t q[9];
  for (int i = 0; i < 9; i++) {
    if (!(p[i] >= lo[i] && p[i] <= hi[i]) || p[i] != (double)(int64_t)p[i])
      return asc_k_fail(k, line, "load_image_to_local: %s is %g, not in [%g, %g]", names[i], p[i],
                        lo[i], hi[i]);
    q[i] = (int64_t)p[i];
  }
  if (!a->set)
    return asc_k_fail(k, line,
                      "load_image_to_local: call set_aipp_functions first (the AIPP "
                      "registers are not set)");
  if (dt != a->dtype)
    return asc_k_fail(k, line,
                      "load_image_to_local: dst's dtype differs from the AippParams "
                      "dtype given to set_aipp_functions");
  int yuv = a->format == ASC_KA_YUV420SP;
  if (q[2] % 2 || (yuv && (q[3] % 2 || q[4] % 2)))
    return asc_k_fail(k, line, "load_image_to_local: horiz_start_pos must be even%s",
                      yuv ? ", and for YUV420SP_U8 vert_start_pos and src_horiz_size too" : "");
  if (q[2] + q[0] > q[4])
    return asc_k_fail(k, line,
                      "load_image_to_local: columns %lld..%lld lie outside the "
                      "%lld-pixel source width",
                      (long long)q[2], (long long)(q[2] + q[0] - 1), (long long)q[4]);
  if (a->v[ASC_KA_PAD_MODE] == 0 && (q[5] || q[6]))
    return asc_k_fail(k, line,
                      "load_image_to_local: constant padding (padding_mode 0) pads "
                      "left and right only; top/bot_pad_size must be 0");
  int64_t rows = a->v[ASC_KA_SINGLE] != 0 ? 1 : q[1], cols = q[0], w = q[4];
  int64_t last = (q[3] + rows - 1) * w + q[2] + cols; /* pixels up to the last one read */
  if (last > a->src[0].n / asc_ka_bpp(a->format) ||
      /* a pixel's U and V are the pair at its even column: the last pair
       * ends at the odd column at or after the crop's last one */
      (yuv && ((q[3] + rows - 1) / 2) * w + ((q[2] + cols - 1) | 1) + 1 > a->src[1].n))
    return asc_k_fail(k, line,
                      "load_image_to_local: rows %lld..%lld of the image lie outside "
                      "its global memory",
                      (long long)q[3], (long long)(q[3] + rows - 1));
  int es = dt == ASC_K_DT_INT8 ? 1 : 2;
  int64_t c0 = a->v[ASC_KA_CPAD_MODE] != 0 ? 4 : 32 / es;
  int64_t orows = q[5] + rows + q[6], ocols = q[7] + cols + q[8];
  int64_t bytes = orows * ocols * c0 * es;
  asc_kc_span d;
  if (asc_k_cube_local(k, dst, es, ASC_KC_M_L1, "load_image_to_local", "dst", &d, line)) return 1;
  if (bytes > d.n)
    return asc_k_fail(k, line,
                      "load_image_to_local: the padded image needs %lld bytes (%lld x "
                      "%lld pixels of %lld channels) but dst holds %lld",
                      (long long)bytes, (long long)orows, (long long)ocols, (long long)c0,
                      (long long)d.n);
  const double *v = a->v;
  for (int64_t r = 0; r < orows; r++)
    for (int64_t col = 0; col < ocols; col++) {
      int64_t ir = r - q[5], ic = col - q[7];
      int inside = ir >= 0 && ir < rows && ic >= 0 && ic < cols;
      double px[3] = {0, 0, 0}, val;
      int ch = a->format == ASC_KA_YUV400 ? 1 : 3;
      if (inside || v[ASC_KA_PAD_MODE] != 0) { /* mode 1: the nearest image pixel */
        ir = ir < 0 ? 0 : ir >= rows ? rows - 1 : ir;
        ic = ic < 0 ? 0 : ic >= cols ? cols - 1 : ic;
        asc_ka_pixel(a, q[3] + ir, q[2] + ic, w, px);
      } else {
        for (int i = 0; i < ch; i++) px[i] = v[ASC_KA_PAD_VAL + i];
      }
      char *o = d.p + (r * ocols + col) * c0 * es;
      for (int64_t i = 0; i < c0; i++) {
        val = i < ch ? px[i] : v[ASC_KA_CPAD_VAL];
        if (es == 1)
          o[i] = (char)(int8_t)val;
        else {
          uint16_t h = asc_k_f2h((float)val);
          memcpy(o + 2 * i, &h, 2);
        }
      }
    }
  return asc_k_cube_use(k, ASC_K_MTE2, d, 0, bytes, 1, "load_image_to_local", "dst", line);
}
#endif /* ASC_K_CUBE */
