/* --- adv maths (pyasc.adv) -----------------------------------------------------------
 * The high-level APIs of Ascend C's adv library on the simulated vector unit:
 * the element-wise maths family, softmax, rmsnorm, quant, concat/extract.
 * As on the NPU, float16 data is computed in float32 and rounded once when
 * stored. A sharedTmpBuffer (a uint8 LocalTensor) is optional; when given it
 * must hold at least the minimum the host query returns (pyasc.adv's
 * get_*_max_min_tmp_size): the lowering passes that minimum as tmp_min, and
 * the buffer counts as written by the vector pipe in checked mode, because
 * the NPU's implementation scribbles over it. tmp_min < 0: no buffer. */

enum {
  ASC_K_ADV_ACOS,
  ASC_K_ADV_ACOSH,
  ASC_K_ADV_ASIN,
  ASC_K_ADV_ASINH,
  ASC_K_ADV_ATAN,
  ASC_K_ADV_ATANH,
  ASC_K_ADV_CEIL,
  ASC_K_ADV_COS,
  ASC_K_ADV_COSH,
  ASC_K_ADV_DIGAMMA,
  ASC_K_ADV_ERF,
  ASC_K_ADV_ERFC,
  ASC_K_ADV_EXP,
  ASC_K_ADV_FLOOR,
  ASC_K_ADV_FRAC,
  ASC_K_ADV_LGAMMA,
  ASC_K_ADV_LOG,
  ASC_K_ADV_ROUND,
  ASC_K_ADV_SIGN,
  ASC_K_ADV_SIN,
  ASC_K_ADV_SINH,
  ASC_K_ADV_TAN,
  ASC_K_ADV_TANH,
  ASC_K_ADV_TRUNC
};

/* log|Gamma(x)| in double: Lanczos (g = 7, n = 9) with the reflection formula
 * for x < 0.5. libm's lgamma writes the global signgam, which kernels running
 * on several threads must not share. */
static inline double asc_k_adv_lgamma(double x) {
  static const double c[9] = {0.99999999999980993,  676.5203681218851,     -1259.1392167224028,
                              771.32342877765313,   -176.61502916214059,   12.507343278686905,
                              -0.13857109526572012, 9.9843695780195716e-6, 1.5056327351493116e-7};
  const double pi = 3.14159265358979323846;
  if (isnan(x)) return x;
  if (isinf(x)) return INFINITY;
  if (x <= 0 && x == floor(x)) return INFINITY; /* poles */
  if (x < 0.5) {
    double s = sin(pi * x);
    return log(pi / fabs(s)) - asc_k_adv_lgamma(1.0 - x);
  }
  if (x > 1e7) return (x - 0.5) * log(x) - x + 0.91893853320467274178 + 1.0 / (12.0 * x);
  x -= 1.0;
  double a = c[0], t = x + 7.5;
  for (int i = 1; i < 9; i++) a += c[i] / (x + (double)i);
  return 0.91893853320467274178 + (x + 0.5) * log(t) - t + log(a);
}

/* psi(x) in double: reflection for x < 0, recurrence up to 6, then the
 * asymptotic series. NaN at the poles (0 and the negative integers). */
static inline double asc_k_adv_digamma(double x) {
  const double pi = 3.14159265358979323846;
  if (isnan(x) || x == -INFINITY) return NAN;
  if (x == INFINITY) return INFINITY;
  if (x <= 0 && x == floor(x)) return NAN;
  double r = 0;
  if (x < 0) {
    r = -pi / tan(pi * x);
    x = 1.0 - x;
  }
  while (x < 6) r -= 1.0 / x, x += 1.0;
  double f = 1.0 / (x * x);
  return r + log(x) - 0.5 / x -
         f * (1.0 / 12 - f * (1.0 / 120 - f * (1.0 / 252 - f * (1.0 / 240 - f * (1.0 / 132)))));
}

/* exp with Ascend C's taylorExpandLevel: level 0 is the plain exponential;
 * level n splits x into integer and fraction and sums n Taylor terms of the
 * fraction, as the NPU does (fewer terms, less precision). */
static inline float asc_k_adv_exp(float x, int64_t level) {
  if (level <= 0 || isnan(x) || isinf(x)) return expf(x);
  float i = floorf(x), f = x - i, term = 1.0f, sum = 1.0f;
  for (int64_t n = 1; n <= level; n++) term = term * f / (float)n, sum += term;
  return expf(i) * sum;
}

static inline float asc_k_adv_fn(int fn, float x, int64_t level) {
  switch (fn) {
    case ASC_K_ADV_ACOS:
      return acosf(x);
    case ASC_K_ADV_ACOSH:
      return acoshf(x);
    case ASC_K_ADV_ASIN:
      return asinf(x);
    case ASC_K_ADV_ASINH:
      return asinhf(x);
    case ASC_K_ADV_ATAN:
      return atanf(x);
    case ASC_K_ADV_ATANH:
      return atanhf(x);
    case ASC_K_ADV_CEIL:
      return ceilf(x);
    case ASC_K_ADV_COS:
      return cosf(x);
    case ASC_K_ADV_COSH:
      return coshf(x);
    case ASC_K_ADV_DIGAMMA:
      return (float)asc_k_adv_digamma(x);
    case ASC_K_ADV_ERF:
      return erff(x);
    case ASC_K_ADV_ERFC:
      return erfcf(x);
    case ASC_K_ADV_EXP:
      return asc_k_adv_exp(x, level);
    case ASC_K_ADV_FLOOR:
      return floorf(x);
    case ASC_K_ADV_FRAC:
      return isinf(x) ? 0.0f : x - truncf(x);
    case ASC_K_ADV_LGAMMA:
      return (float)asc_k_adv_lgamma(x);
    case ASC_K_ADV_LOG:
      return logf(x);
    case ASC_K_ADV_ROUND:
      return rintf(x); /* half to even, the default rounding mode */
    case ASC_K_ADV_SIGN:
      return x > 0 ? 1.0f : x < 0 ? -1.0f : x; /* keeps 0, -0 and NaN */
    case ASC_K_ADV_SIN:
      return sinf(x);
    case ASC_K_ADV_SINH:
      return sinhf(x);
    case ASC_K_ADV_TAN:
      return tanf(x);
    case ASC_K_ADV_TANH:
      return tanhf(x);
    default:
      return truncf(x);
  }
}

/* The shared tmp buffer: at least tmp_min bytes, and written. */
static inline int asc_k_adv_tmp(asc_k_ctx *k, asc_k_lt tmp, int64_t tmp_min, const char *api,
                                int line) {
  if (tmp_min < 0) return 0;
  if (tmp.len < tmp_min)
    return asc_k_fail(k, line,
                      "%s: the shared tmp buffer holds %lld bytes but needs at least %lld (ask "
                      "the host's get_*_max_min_tmp_size)",
                      api, (long long)tmp.len, (long long)tmp_min);
  return asc_k_ub_use(k, ASC_K_V, tmp, tmp_min, 1, ASC_K_WRITE, api, "temp_buffer", line);
}

static inline int asc_k_adv_count(asc_k_ctx *k, int64_t n, const char *api, int line) {
  if (n < 0) return asc_k_fail(k, line, "%s: count %lld is negative", api, (long long)n);
  return 0;
}

/* The rt/vmath.h function of an adv maths function, or -1. */
static inline int asc_k_adv_vm(int fn, int64_t level) {
  switch (fn) {
    case ASC_K_ADV_EXP:
      return level <= 0 ? ASC_K_VM_EXP : -1;
    case ASC_K_ADV_LOG:
      return ASC_K_VM_LOG;
    case ASC_K_ADV_SIN:
      return ASC_K_VM_SIN;
    case ASC_K_ADV_COS:
      return ASC_K_VM_COS;
    case ASC_K_ADV_TAN:
      return ASC_K_VM_TAN;
    case ASC_K_ADV_TANH:
      return ASC_K_VM_TANH;
    case ASC_K_ADV_ERF:
      return ASC_K_VM_ERF;
    default:
      return -1;
  }
}

/* dst[i] = f(src[i]) for the maths family (float16, float32). */
static inline int asc_k_adv_unary(asc_k_ctx *k, int fn, int dt, asc_k_lt d, asc_k_lt s, int64_t n,
                                  int64_t level, asc_k_lt tmp, int64_t tmp_min, const char *api,
                                  int line) {
  int64_t es = asc_k_dt_size(dt);
  if (asc_k_adv_count(k, n, api, line) ||
      asc_k_ub_use(k, ASC_K_V, s, n, es, ASC_K_READ, api, "src", line) ||
      asc_k_adv_tmp(k, tmp, tmp_min, api, line) ||
      asc_k_ub_use(k, ASC_K_V, d, n, es, ASC_K_WRITE, api, "dst", line))
    return 1;
  char *o = k->ub + d.off;
  const char *x = k->ub + s.off;
  int vm = asc_k_adv_vm(fn, level);
  if (vm >= 0 && asc_k_vm_disjoint(d.off, s.off, n * es)) { /* a chunk at a time */
    float buf[ASC_K_VM_CHUNK];
    for (int64_t i = 0; i < n; i += ASC_K_VM_CHUNK) {
      int64_t m = n - i < ASC_K_VM_CHUNK ? n - i : ASC_K_VM_CHUNK;
      for (int64_t j = 0; j < m; j++) buf[j] = (float)asc_k_ld(dt, x + (i + j) * es);
      asc_k_vm_float32(k, vm, buf, buf, m);
      for (int64_t j = 0; j < m; j++) asc_k_stf(dt, o + (i + j) * es, buf[j]);
    }
    return 0;
  }
  for (int64_t i = 0; i < n; i++)
    asc_k_stf(dt, o + i * es, asc_k_adv_fn(fn, (float)asc_k_ld(dt, x + i * es), level));
  return 0;
}

/* power (float) and xor (int16): dst[i] = a[i] op b[i]. */
static inline int asc_k_adv_binary(asc_k_ctx *k, int is_xor, int dt, asc_k_lt d, asc_k_lt a,
                                   asc_k_lt b, int64_t n, asc_k_lt tmp, int64_t tmp_min,
                                   const char *api, int line) {
  int64_t es = asc_k_dt_size(dt);
  if (asc_k_adv_count(k, n, api, line) ||
      asc_k_ub_use(k, ASC_K_V, a, n, es, ASC_K_READ, api, "src0", line) ||
      asc_k_ub_use(k, ASC_K_V, b, n, es, ASC_K_READ, api, "src1", line) ||
      asc_k_adv_tmp(k, tmp, tmp_min, api, line) ||
      asc_k_ub_use(k, ASC_K_V, d, n, es, ASC_K_WRITE, api, "dst", line))
    return 1;
  char *o = k->ub + d.off;
  const char *x = k->ub + a.off, *y = k->ub + b.off;
  for (int64_t i = 0; i < n; i++) {
    if (is_xor)
      asc_k_sti(dt, o + i * es, asc_k_ldi(dt, x + i * es) ^ asc_k_ldi(dt, y + i * es));
    else
      asc_k_stf(dt, o + i * es,
                powf((float)asc_k_ld(dt, x + i * es), (float)asc_k_ld(dt, y + i * es)));
  }
  return 0;
}

/* power with a scalar operand, the base (scalar_base) or the exponent: Ascend C's
 * Power(dst, scalar, tensor) and Power(dst, tensor, scalar). The scalar takes the
 * tensor's type first, as its C++ parameter does. */
static inline int asc_k_adv_power_scalar(asc_k_ctx *k, int dt, asc_k_lt d, asc_k_lt t,
                                         double scalar, int scalar_base, int64_t n, asc_k_lt tmp,
                                         int64_t tmp_min, const char *api, int line) {
  int64_t es = asc_k_dt_size(dt);
  float c = asc_k_as_dt(dt, scalar);
  if (asc_k_adv_count(k, n, api, line) ||
      asc_k_ub_use(k, ASC_K_V, t, n, es, ASC_K_READ, api, scalar_base ? "src1" : "src0", line) ||
      asc_k_adv_tmp(k, tmp, tmp_min, api, line) ||
      asc_k_ub_use(k, ASC_K_V, d, n, es, ASC_K_WRITE, api, "dst", line))
    return 1;
  char *o = k->ub + d.off;
  const char *x = k->ub + t.off;
  for (int64_t i = 0; i < n; i++) {
    float v = (float)asc_k_ld(dt, x + i * es);
    asc_k_stf(dt, o + i * es, scalar_base ? powf(c, v) : powf(v, c));
  }
  return 0;
}

/* The adv library's element-wise forms that only Ascend C calls (its activation, clamp,
 * fmod and index APIs): GELU (the tanh form), SIGMOID, SILU, SWISH (x * sigmoid(c x)),
 * CLAMP_MIN and CLAMP_MAX (by c; NaN stays NaN), GEGLU (a * gelu(b)), FMOD (of a by b),
 * SWIGLU (a * swish(b) by c), ARANGE (c0 + i * c1, no source). half is computed in float,
 * as on the NPU. */
enum {
  ASC_K_ADV_EW_GELU,
  ASC_K_ADV_EW_SIGMOID,
  ASC_K_ADV_EW_SILU,
  ASC_K_ADV_EW_SWISH,
  ASC_K_ADV_EW_CLAMP_MIN,
  ASC_K_ADV_EW_CLAMP_MAX,
  ASC_K_ADV_EW_GEGLU,
  ASC_K_ADV_EW_FMOD,
  ASC_K_ADV_EW_SWIGLU,
  ASC_K_ADV_EW_ARANGE
};
static inline float asc_k_adv_gelu(float x) {
  return x / (1.0f + expf(-1.5957691216057308f * (x + 0.044715f * x * x * x)));
}
static inline float asc_k_adv_ew_fn(int fn, float a, float b, float c) {
  switch (fn) {
    case ASC_K_ADV_EW_GELU:
      return asc_k_adv_gelu(a);
    case ASC_K_ADV_EW_SIGMOID:
      return 1.0f / (1.0f + expf(-a));
    case ASC_K_ADV_EW_SILU:
      return a / (1.0f + expf(-a));
    case ASC_K_ADV_EW_SWISH:
      return a / (1.0f + expf(-c * a));
    case ASC_K_ADV_EW_CLAMP_MIN:
      return a < c ? c : a;
    case ASC_K_ADV_EW_CLAMP_MAX:
      return a > c ? c : a;
    case ASC_K_ADV_EW_GEGLU:
      return a * asc_k_adv_gelu(b);
    case ASC_K_ADV_EW_SWIGLU:
      return a * (b / (1.0f + expf(-c * b)));
    default:
      return fmodf(a, b);
  }
}
/* a and b: the sources (b for GEGLU, FMOD and SWIGLU only; none for ARANGE); c0, c1: the
 * scalars, which take dt first as their C++ parameters do. */
static inline int asc_k_adv_elementwise(asc_k_ctx *k, int fn, int dt, asc_k_lt d, asc_k_lt a,
                                        asc_k_lt b, double c0, double c1, int64_t n, asc_k_lt tmp,
                                        int64_t tmp_min, const char *api, int line) {
  int64_t es = asc_k_dt_size(dt);
  int sources = fn == ASC_K_ADV_EW_ARANGE ? 0 : fn >= ASC_K_ADV_EW_GEGLU ? 2 : 1;
  int integral = dt != ASC_K_DT_FLOAT16 && dt != ASC_K_DT_FLOAT32;
  if (asc_k_adv_count(k, n, api, line) ||
      (sources > 0 &&
       asc_k_ub_use(k, ASC_K_V, a, n, es, ASC_K_READ, api, sources > 1 ? "src0" : "src", line)) ||
      (sources > 1 && asc_k_ub_use(k, ASC_K_V, b, n, es, ASC_K_READ, api, "src1", line)) ||
      asc_k_adv_tmp(k, tmp, tmp_min, api, line) ||
      asc_k_ub_use(k, ASC_K_V, d, n, es, ASC_K_WRITE, api, "dst", line))
    return 1;
  char *o = k->ub + d.off;
  if (fn == ASC_K_ADV_EW_ARANGE) {
    for (int64_t i = 0; i < n; i++) {
      if (integral)
        asc_k_sti(dt, o + i * es, (int64_t)c0 + i * (int64_t)c1);
      else
        asc_k_stf(dt, o + i * es, (float)c0 + (float)i * (float)c1);
    }
    return 0;
  }
  if (integral) return asc_k_fail(k, line, "%s: takes half or float tensors", api);
  float c = asc_k_as_dt(dt, c0);
  const char *x = k->ub + a.off, *y = k->ub + b.off;
  for (int64_t i = 0; i < n; i++) {
    float av = (float)asc_k_ld(dt, x + i * es);
    float bv = sources > 1 ? (float)asc_k_ld(dt, y + i * es) : 0.0f;
    asc_k_stf(dt, o + i * es, asc_k_adv_ew_fn(fn, av, bv, c));
  }
  return 0;
}

/* CumSum over an outter x inner tile (half, float): the running sums along the last axis
 * (last_axis) or down the first, added in float32 and rounded once, as the NPU's adds of
 * (transposed, for the last axis) rows in float do; last_row: last also gets the result's
 * last row. dst may be src. */
static inline int asc_k_adv_cumsum(asc_k_ctx *k, int dt, asc_k_lt d, asc_k_lt last, asc_k_lt s,
                                   int64_t outter, int64_t inner, int last_axis, int last_row,
                                   int line) {
  const char *api = "CumSum";
  int64_t es = asc_k_dt_size(dt), n = asc_k_mul(outter, inner);
  if (dt != ASC_K_DT_FLOAT16 && dt != ASC_K_DT_FLOAT32)
    return asc_k_fail(k, line, "%s: takes half or float tensors", api);
  if (outter < 0 || inner < 0 || n < 0)
    return asc_k_fail(k, line, "%s: a %lld x %lld tile", api, (long long)outter, (long long)inner);
  if (asc_k_ub_use(k, ASC_K_V, s, n, es, ASC_K_READ, api, "src", line) ||
      asc_k_ub_use(k, ASC_K_V, d, n, es, ASC_K_WRITE, api, "dst", line) ||
      (last_row && outter > 0 &&
       asc_k_ub_use(k, ASC_K_V, last, inner, es, ASC_K_WRITE, api, "lastRow", line)))
    return 1;
  char *o = k->ub + d.off;
  const char *x = k->ub + s.off;
  int64_t lines = last_axis ? outter : inner, along = last_axis ? inner : outter;
  int64_t step = last_axis ? 1 : inner, next = last_axis ? inner : 1;
  for (int64_t a = 0; a < lines; a++) {
    float acc = 0.0f;
    for (int64_t b = 0; b < along; b++) {
      int64_t at = (a * next + b * step) * es;
      acc += (float)asc_k_ld(dt, x + at);
      asc_k_stf(dt, o + at, acc);
    }
  }
  if (last_row && outter > 0)
    memmove(k->ub + last.off, o + (outter - 1) * inner * es, (size_t)(inner * es));
  return 0;
}

/* Broadcast of a rows x cols tile along axis: axis 0 repeats src's one row (sr 1, sc cols),
 * axis 1 src's one column (sr rows, sc 1). es: the element's bytes. */
static inline int asc_k_adv_broadcast(asc_k_ctx *k, int64_t es, asc_k_lt d, asc_k_lt s,
                                      int64_t rows, int64_t cols, int64_t sr, int64_t sc,
                                      int64_t axis, int line) {
  const char *api = "Broadcast";
  int fits = axis == 0 ? sr == 1 && sc == cols : axis == 1 && sr == rows && sc == 1;
  if (!fits || rows < 0 || cols < 0)
    return asc_k_fail(k, line,
                      "%s: a source of %lld x %lld does not broadcast to %lld x %lld along axis "
                      "%lld",
                      api, (long long)sr, (long long)sc, (long long)rows, (long long)cols,
                      (long long)axis);
  if (asc_k_ub_use(k, ASC_K_V, s, asc_k_mul(sr, sc), es, ASC_K_READ, api, "src", line) ||
      asc_k_ub_use(k, ASC_K_V, d, asc_k_mul(rows, cols), es, ASC_K_WRITE, api, "dst", line))
    return 1;
  char *o = k->ub + d.off;
  const char *x = k->ub + s.off;
  for (int64_t r = 0; r < rows; r++)
    for (int64_t c = 0; c < cols; c++)
      memcpy(o + (r * cols + c) * es, x + (axis == 0 ? c : r) * es, (size_t)es);
  return 0;
}

/* AscendDequant: dst[r][c] = src[r][c] * scale[c] for the first count of each of m rows of n
 * int32s, in float, rounded once to dst's type (half, bfloat16, float). A uint64 scale holds
 * its float in its low 32 bits. Single-row mode takes {1, k * count, count} as k rows of count
 * when count fills whole 32-byte blocks of dst, as CANN's does. */
static inline int asc_k_adv_dequant(asc_k_ctx *k, int ddt, int sdt, asc_k_lt d, asc_k_lt s,
                                    asc_k_lt scale, int64_t m, int64_t n, int64_t count,
                                    int single_row, int line) {
  const char *api = "AscendDequant";
  int64_t des = asc_k_dt_size(ddt), ses = asc_k_dt_size(sdt);
  if (single_row && m == 1 && count > 0 && count * des % 32 == 0 && n % count == 0)
    m = n / count, n = count;
  if (m < 0 || n < 0 || count < 0 || count > n)
    return asc_k_fail(k, line, "%s: {m %lld, n %lld, calCount %lld}: calCount must be in [0, n]",
                      api, (long long)m, (long long)n, (long long)count);
  if (asc_k_ub_use(k, ASC_K_V, s, asc_k_mul(m, n), 4, ASC_K_READ, api, "src", line) ||
      asc_k_ub_use(k, ASC_K_V, scale, count, ses, ASC_K_READ, api, "deqScale", line) ||
      asc_k_ub_use(k, ASC_K_V, d, asc_k_mul(m, n), des, ASC_K_WRITE, api, "dst", line))
    return 1;
  char *o = k->ub + d.off;
  const char *x = k->ub + s.off, *f = k->ub + scale.off;
  for (int64_t c = 0; c < count; c++) {
    float sc;
    if (sdt == ASC_K_DT_UINT64)
      memcpy(&sc, f + c * 8, 4); /* the low half (little-endian) */
    else
      sc = (float)asc_k_ld(sdt, f + c * ses);
    for (int64_t r = 0; r < m; r++) {
      int32_t v;
      memcpy(&v, x + (r * n + c) * 4, 4);
      asc_k_stf(ddt, o + (r * n + c) * des, (float)v * sc);
    }
  }
  return 0;
}

/* Select with a mask of bytes (or wider elements): rows of src_last elements; mask rows of
 * mask_last (at least src_last) elements of type mdt. An element whose mask is not zero takes
 * the second operand, one whose mask is zero the first: the scalar is the second when
 * scalar_first is 0 (Select(dst, tensor, scalar, ...)), the first otherwise. */
static inline int asc_k_adv_select(asc_k_ctx *k, int dt, int mdt, asc_k_lt d, asc_k_lt t,
                                   double scalar, int scalar_first, asc_k_lt mask, int64_t rows,
                                   int64_t src_last, int64_t mask_last, int line) {
  const char *api = "Select";
  int64_t es = asc_k_dt_size(dt), ms = asc_k_dt_size(mdt), n = asc_k_mul(rows, src_last);
  if (rows < 0 || src_last < 0 || mask_last < src_last || n < 0)
    return asc_k_fail(k, line,
                      "%s: firstAxis %lld, srcLastAxis %lld, maskLastAxis %lld: the mask's rows "
                      "must be at least the source's",
                      api, (long long)rows, (long long)src_last, (long long)mask_last);
  if (asc_k_ub_use(k, ASC_K_V, t, n, es, ASC_K_READ, api, "src", line) ||
      asc_k_ub_use(k, ASC_K_V, mask, asc_k_mul(rows, mask_last), ms, ASC_K_READ, api, "mask",
                   line) ||
      asc_k_ub_use(k, ASC_K_V, d, n, es, ASC_K_WRITE, api, "dst", line))
    return 1;
  char sv[8];
  asc_k_stf(dt, sv, scalar);
  char *o = k->ub + d.off;
  const char *x = k->ub + t.off, *m = k->ub + mask.off;
  for (int64_t r = 0; r < rows; r++)
    for (int64_t c = 0; c < src_last; c++) {
      int set = asc_k_ld(mdt, m + (r * mask_last + c) * ms) != 0;
      const char *from = set != scalar_first ? sv : x + (r * src_last + c) * es;
      memmove(o + (r * src_last + c) * es, from, (size_t)es);
    }
  return 0;
}

/* axpy: dst[i] += src[i] * scalar, in float32; the scalar takes src's type
 * first. dst may be float32 with a float16 src. */
static inline int asc_k_adv_axpy(asc_k_ctx *k, int ddt, int sdt, asc_k_lt d, asc_k_lt s,
                                 double scalar, int64_t n, asc_k_lt tmp, int64_t tmp_min,
                                 const char *api, int line) {
  int64_t des = asc_k_dt_size(ddt), ses = asc_k_dt_size(sdt);
  float a = asc_k_as_dt(sdt, scalar);
  if (asc_k_adv_count(k, n, api, line) ||
      asc_k_ub_use(k, ASC_K_V, s, n, ses, ASC_K_READ, api, "src", line) ||
      asc_k_ub_use(k, ASC_K_V, d, n, des, ASC_K_READ, api, "dst", line) ||
      asc_k_adv_tmp(k, tmp, tmp_min, api, line) ||
      asc_k_ub_use(k, ASC_K_V, d, n, des, ASC_K_WRITE, api, "dst", line))
    return 1;
  char *o = k->ub + d.off;
  const char *x = k->ub + s.off;
  for (int64_t i = 0; i < n; i++)
    asc_k_stf(ddt, o + i * des,
              (float)asc_k_ld(ddt, o + i * des) + (float)asc_k_ld(sdt, x + i * ses) * a);
  return 0;
}

/* softmax over the last axis of an m x kk row-major tile. sum and max hold
 * one 32-byte block per row (the row's value repeated), as Ascend C's
 * SoftMax writes them. float16 is computed in float32. log10_of: Ascend C's
 * LogSoftMax, whose dst is the base-10 logarithm of the softmax. */
static inline int asc_k_adv_softmax_as(asc_k_ctx *k, int dt, int sdt, asc_k_lt d, asc_k_lt sum,
                                       asc_k_lt mx, asc_k_lt s, int64_t m, int64_t kk, asc_k_lt tmp,
                                       int64_t tmp_min, int log10_of, int line) {
  const char *api = log10_of ? "LogSoftMax" : "softmax";
  if (m < 0 || kk <= 0)
    return asc_k_fail(
        k, line,
        "softmax: the tiling's shape %lld x %lld is empty or negative (fill it on the host "
        "with softmax_tiling_func)",
        (long long)m, (long long)kk);
  int64_t es = asc_k_dt_size(dt), ses = asc_k_dt_size(sdt), blk = 32 / ses;
  int64_t n = asc_k_mul(m, kk), nb = asc_k_mul(m, blk);
  if (n < 0 || nb < 0) return asc_k_fail(k, line, "softmax: the tiling's shape overflows");
  if (asc_k_ub_use(k, ASC_K_V, s, n, es, ASC_K_READ, api, "src", line) ||
      asc_k_adv_tmp(k, tmp, tmp_min, api, line) ||
      asc_k_ub_use(k, ASC_K_V, mx, nb, ses, ASC_K_WRITE, api, "max", line) ||
      asc_k_ub_use(k, ASC_K_V, sum, nb, ses, ASC_K_WRITE, api, "sum", line) ||
      asc_k_ub_use(k, ASC_K_V, d, n, es, ASC_K_WRITE, api, "dst", line))
    return 1;
  char *o = k->ub + d.off, *ms = k->ub + mx.off, *ss = k->ub + sum.off;
  const char *x = k->ub + s.off;
  for (int64_t r = 0; r < m; r++) {
    const char *row = x + r * kk * es;
    float big = -INFINITY;
    for (int64_t j = 0; j < kk; j++) {
      float v = (float)asc_k_ld(dt, row + j * es);
      if (v > big || isnan(v)) big = v;
    }
    /* dst may alias src (upstream's tests do this): exp goes through dst */
    char *orow = o + r * kk * es;
    asc_k_lanesum lanes = {.n = 0};
    for (int64_t j = 0; j < kk; j++) {
      float e = expf((float)asc_k_ld(dt, row + j * es) - big);
      asc_k_lanesum_push(&lanes, e);
      if (dt == ASC_K_DT_FLOAT32) asc_k_stf(dt, orow + j * es, e);
    }
    float total = asc_k_lanesum_end(&lanes);
    for (int64_t j = 0; j < kk; j++) {
      float e = dt == ASC_K_DT_FLOAT32 ? (float)asc_k_ld(dt, orow + j * es)
                                       : expf((float)asc_k_ld(dt, row + j * es) - big);
      asc_k_stf(dt, orow + j * es, log10_of ? log10f(e / total) : e / total);
    }
    for (int64_t j = 0; j < blk; j++) {
      asc_k_stf(sdt, ms + (r * blk + j) * ses, big);
      asc_k_stf(sdt, ss + (r * blk + j) * ses, total);
    }
  }
  return 0;
}
static inline int asc_k_adv_softmax(asc_k_ctx *k, int dt, int sdt, asc_k_lt d, asc_k_lt sum,
                                    asc_k_lt mx, asc_k_lt s, int64_t m, int64_t kk, asc_k_lt tmp,
                                    int64_t tmp_min, int line) {
  return asc_k_adv_softmax_as(k, dt, sdt, d, sum, mx, s, m, kk, tmp, tmp_min, 0, line);
}

/* Ascend C's AscendAntiQuant on dav-2201: dst = scale * (src + offset), per channel (scale and
 * offset tensors of `groups` rows by cols; rows / groups source rows share one, or transposed,
 * cols / groups source columns), or per tensor (the scalars sc_v and off_v, sc null). half
 * output rounds to half after the cast, the add and the multiply, as the vector unit does them
 * in half; bfloat16 output computes in float32 and rounds once. off.len 0: no offset. */
static inline int asc_k_adv_antiquant(asc_k_ctx *k, int sdt, int ddt, asc_k_lt d, asc_k_lt s,
                                      asc_k_lt off, asc_k_lt sc, int per_tensor, double off_v,
                                      double sc_v, int64_t rows, int64_t cols, int64_t groups,
                                      int transpose, int line) {
  const char *api = "AscendAntiQuant";
  int64_t along = transpose ? cols : rows;
  if (rows <= 0 || cols <= 0 || (!per_tensor && (groups <= 0 || along % groups)))
    return asc_k_fail(k, line,
                      "AscendAntiQuant: %lld x %lld elements do not split into %lld groups of "
                      "the offset and scale",
                      (long long)rows, (long long)cols, (long long)groups);
  int64_t es = asc_k_dt_size(ddt), n = asc_k_mul(rows, cols);
  int64_t np = per_tensor ? 0 : asc_k_mul(groups, transpose ? rows : cols), group = along / groups;
  if (n < 0 || np < 0) return asc_k_fail(k, line, "AscendAntiQuant: the shape overflows");
  if (asc_k_ub_use(k, ASC_K_V, s, n, asc_k_dt_size(sdt), ASC_K_READ, api, "src", line) ||
      (!per_tensor && asc_k_ub_use(k, ASC_K_V, sc, np, es, ASC_K_READ, api, "scale", line)) ||
      (!per_tensor && off.len &&
       asc_k_ub_use(k, ASC_K_V, off, np, es, ASC_K_READ, api, "offset", line)) ||
      asc_k_ub_use(k, ASC_K_V, d, n, es, ASC_K_WRITE, api, "dst", line))
    return 1;
  const int half = ddt == ASC_K_DT_FLOAT16;
  for (int64_t i = 0; i < rows; i++)
    for (int64_t j = 0; j < cols; j++) {
      int64_t at = transpose ? i * groups + j / group : (i / group) * cols + j;
      float o = per_tensor ? (float)off_v
                : off.len  ? (float)asc_k_ld(ddt, k->ub + off.off + at * es)
                           : 0.0f;
      float c = per_tensor ? (float)sc_v : (float)asc_k_ld(ddt, k->ub + sc.off + at * es);
      float v = (float)asc_k_ld(sdt, k->ub + s.off + (i * cols + j) * asc_k_dt_size(sdt));
      if (half) {
        v = asc_k_h2f(asc_k_f2h(asc_k_h2f(asc_k_f2h(v)) + asc_k_h2f(asc_k_f2h(o))));
        v = v * asc_k_h2f(asc_k_f2h(c));
      } else {
        v = (v + o) * c;
      }
      asc_k_stf(ddt, k->ub + d.off + (i * cols + j) * es, v);
    }
  return 0;
}

/* Ascend C's DropOut over rows of src_last elements: an element stays, times 1/keep_prob in the
 * element type, where its mask entry is set (a byte a row element, or with bits an LSB-first
 * bit), else it is 0. Mask rows start mask_last bytes apart (the byte modes' misaligned mask
 * and the bit modes' padded one). */
static inline int asc_k_adv_dropout(asc_k_ctx *k, int dt, asc_k_lt d, asc_k_lt s, asc_k_lt mask,
                                    int64_t rows, int64_t src_last, int64_t mask_last, int bits,
                                    double keep_prob, asc_k_lt tmp, int64_t tmp_min, int line) {
  const char *api = "DropOut";
  int64_t need = bits ? (src_last + 7) / 8 : src_last;
  if (rows < 0 || src_last < 0 || mask_last < need)
    return asc_k_fail(k, line,
                      "DropOut: the shape (%lld rows of %lld, mask rows of %lld bytes) does not "
                      "fit",
                      (long long)rows, (long long)src_last, (long long)mask_last);
#if ASC_K_CHECKED
  if (!(keep_prob > 0 && keep_prob < 1))
    return asc_k_fail(k, line, "DropOut: keepProb %g is outside (0, 1)", keep_prob);
#endif
  int64_t es = asc_k_dt_size(dt), n = asc_k_mul(rows, src_last), nm = asc_k_mul(rows, mask_last);
  if (n < 0 || nm < 0) return asc_k_fail(k, line, "DropOut: the shape overflows");
  if (asc_k_ub_use(k, ASC_K_V, s, n, es, ASC_K_READ, api, "srcLocal", line) ||
      asc_k_ub_use(k, ASC_K_V, mask, nm, 1, ASC_K_READ, api, "maskLocal", line) ||
      asc_k_adv_tmp(k, tmp, tmp_min, api, line) ||
      asc_k_ub_use(k, ASC_K_V, d, n, es, ASC_K_WRITE, api, "dstLocal", line))
    return 1;
  /* the scale as the Muls that applies it holds it: in the element type */
  char scale_at[8];
  asc_k_stf(dt, scale_at, (float)(1.0f / (float)keep_prob));
  const float scale = (float)asc_k_ld(dt, scale_at);
  const unsigned char *mk = (const unsigned char *)k->ub + mask.off;
  for (int64_t r = 0; r < rows; r++)
    for (int64_t j = 0; j < src_last; j++) {
      const unsigned char *m = mk + r * mask_last;
      int keep = bits ? (m[j / 8] >> (j % 8)) & 1 : m[j] != 0;
      int64_t at = (r * src_last + j) * es;
      float v = keep ? (float)asc_k_ld(dt, k->ub + s.off + at) * scale : 0.0f;
      asc_k_stf(dt, k->ub + d.off + at, v);
    }
  return 0;
}

/* Ascend C's adv ReduceMax / ReduceMin (most: 1 max, 0 min) over a [first, last] tensor whose
 * rows start `stride` elements apart (last rounded up to 32 bytes when the source is padded):
 * along the last axis (AR: dst holds first values) or the first (RA: last values). A NaN wins,
 * as the vector unit's max and min pass it on. */
static inline int asc_k_adv_reduce2(asc_k_ctx *k, int dt, int most, asc_k_lt d, asc_k_lt s,
                                    int64_t first, int64_t last, int ra, int64_t stride,
                                    asc_k_lt tmp, int64_t tmp_min, int line) {
  const char *api = most ? "ReduceMax" : "ReduceMin";
  if (first <= 0 || last <= 0 || stride < last)
    return asc_k_fail(k, line, "%s: the shape {%lld, %lld} must be positive", api, (long long)first,
                      (long long)last);
  int64_t es = asc_k_dt_size(dt), n = asc_k_mul(first - 1, stride), nd = ra ? last : first;
  if (n < 0 || (n = n + last) < 0) return asc_k_fail(k, line, "%s: the shape overflows", api);
  if (asc_k_ub_use(k, ASC_K_V, s, n, es, ASC_K_READ, api, "srcTensor", line) ||
      asc_k_adv_tmp(k, tmp, tmp_min, api, line) ||
      asc_k_ub_use(k, ASC_K_V, d, nd, es, ASC_K_WRITE, api, "dstTensor", line))
    return 1;
  const char *x = k->ub + s.off;
  int64_t outer = ra ? last : first, inner = ra ? first : last;
  for (int64_t o = 0; o < outer; o++) {
    float best = 0;
    for (int64_t i = 0; i < inner; i++) {
      int64_t at = ra ? i * stride + o : o * stride + i;
      float v = (float)asc_k_ld(dt, x + at * es);
      if (i == 0 || (best == best && (v != v || (most ? v > best : v < best)))) best = v;
    }
    asc_k_stf(dt, k->ub + d.off + o * es, best);
  }
  return 0;
}

/* Ascend C's SoftmaxFlashV2 over m rows of kk (FlashAttention-2's online softmax): max = the
 * row's max (with update, the larger of it and in_max), dst = exp(src - max) and sum its row
 * sum (with update, plus exp_max * in_sum, exp_max = exp(in_max - max)). max, sum, in_max and
 * in_sum hold a 32-byte block a row of sdt, exp_max one of dt; the inputs are read before the
 * outputs, which may be the same tensors, are written. In float32. */
static inline int asc_k_adv_softmax_flash2(asc_k_ctx *k, int dt, int sdt, asc_k_lt d, asc_k_lt sum,
                                           asc_k_lt mx, asc_k_lt s, asc_k_lt emax, asc_k_lt isum,
                                           asc_k_lt imax, int64_t m, int64_t kk, int update,
                                           asc_k_lt tmp, int64_t tmp_min, int line) {
  const char *api = "SoftmaxFlashV2";
  if (m < 0 || kk <= 0)
    return asc_k_fail(k, line, "SoftmaxFlashV2: the shape %lld x %lld is empty or negative",
                      (long long)m, (long long)kk);
  int64_t es = asc_k_dt_size(dt), ses = asc_k_dt_size(sdt), blk = 32 / ses, eblk = 32 / es;
  int64_t n = asc_k_mul(m, kk), nb = asc_k_mul(m, blk), ne = asc_k_mul(m, eblk);
  if (n < 0 || nb < 0 || ne < 0) return asc_k_fail(k, line, "SoftmaxFlashV2: the shape overflows");
  if (asc_k_ub_use(k, ASC_K_V, s, n, es, ASC_K_READ, api, "srcTensor", line) ||
      (update &&
       (asc_k_ub_use(k, ASC_K_V, imax, nb, ses, ASC_K_READ, api, "inMaxTensor", line) ||
        asc_k_ub_use(k, ASC_K_V, isum, nb, ses, ASC_K_READ, api, "inExpSumTensor", line))) ||
      asc_k_adv_tmp(k, tmp, tmp_min, api, line) ||
      asc_k_ub_use(k, ASC_K_V, d, n, es, ASC_K_WRITE, api, "dstTensor", line) ||
      asc_k_ub_use(k, ASC_K_V, mx, nb, ses, ASC_K_WRITE, api, "maxTensor", line) ||
      asc_k_ub_use(k, ASC_K_V, sum, nb, ses, ASC_K_WRITE, api, "expSumTensor", line) ||
      (update && asc_k_ub_use(k, ASC_K_V, emax, ne, es, ASC_K_WRITE, api, "expMaxTensor", line)))
    return 1;
  char *ub = k->ub;
  for (int64_t r = 0; r < m; r++) {
    const int64_t row = s.off + r * kk * es, orow = d.off + r * kk * es;
    float big = -INFINITY, in_max = 0, in_sum = 0;
    for (int64_t j = 0; j < kk; j++) {
      float v = (float)asc_k_ld(dt, ub + row + j * es);
      if (v > big || isnan(v)) big = v;
    }
    if (update) {
      in_max = (float)asc_k_ld(sdt, ub + imax.off + r * blk * ses);
      in_sum = (float)asc_k_ld(sdt, ub + isum.off + r * blk * ses);
      if (in_max > big || isnan(in_max)) big = in_max;
    }
    asc_k_lanesum lanes = {.n = 0};
    for (int64_t j = 0; j < kk; j++) {
      float e = expf((float)asc_k_ld(dt, ub + row + j * es) - big);
      asc_k_stf(dt, ub + orow + j * es, e);
      asc_k_lanesum_push(&lanes, (float)asc_k_ld(dt, ub + orow + j * es));
    }
    float total = asc_k_lanesum_end(&lanes);
    if (update) {
      float scale = expf(in_max - big);
      total += scale * in_sum;
      for (int64_t j = 0; j < eblk; j++) asc_k_stf(dt, ub + emax.off + (r * eblk + j) * es, scale);
    }
    for (int64_t j = 0; j < blk; j++) {
      asc_k_stf(sdt, ub + mx.off + (r * blk + j) * ses, big);
      asc_k_stf(sdt, ub + sum.off + (r * blk + j) * ses, total);
    }
  }
  return 0;
}

/* Ascend C's SoftmaxGrad over m rows of kk: s = the row's sum of grad * src (summed as the
 * library reduces, asc_k_lanesum), then
 * dst = (grad - s) * src, or with front (SoftmaxGradFront) dst gets s in one 32-byte block a
 * row. In float32; dst may be src or grad (a block r never reaches past row r). */
static inline int asc_k_adv_softmax_grad(asc_k_ctx *k, int dt, asc_k_lt d, asc_k_lt grad,
                                         asc_k_lt s, int64_t m, int64_t kk, int front, asc_k_lt tmp,
                                         int64_t tmp_min, int line) {
  const char *api = front ? "SoftmaxGradFront" : "SoftmaxGrad";
  if (m < 0 || kk <= 0)
    return asc_k_fail(k, line, "%s: the shape %lld x %lld is empty or negative", api, (long long)m,
                      (long long)kk);
  int64_t es = asc_k_dt_size(dt), blk = 32 / es;
  int64_t n = asc_k_mul(m, kk), nd = front ? asc_k_mul(m, blk) : n;
  if (n < 0 || nd < 0) return asc_k_fail(k, line, "%s: the shape overflows", api);
  if (asc_k_ub_use(k, ASC_K_V, s, n, es, ASC_K_READ, api, "srcTensor", line) ||
      asc_k_ub_use(k, ASC_K_V, grad, n, es, ASC_K_READ, api, "gradTensor", line) ||
      asc_k_adv_tmp(k, tmp, tmp_min, api, line) ||
      asc_k_ub_use(k, ASC_K_V, d, nd, es, ASC_K_WRITE, api, "dstTensor", line))
    return 1;
  char *o = k->ub + d.off;
  const char *x = k->ub + s.off, *g = k->ub + grad.off;
  for (int64_t r = 0; r < m; r++) {
    asc_k_lanesum lanes = {.n = 0};
    for (int64_t j = 0; j < kk; j++)
      asc_k_lanesum_push(&lanes, (float)asc_k_ld(dt, g + (r * kk + j) * es) *
                                     (float)asc_k_ld(dt, x + (r * kk + j) * es));
    float sum = asc_k_lanesum_end(&lanes);
    if (front) {
      for (int64_t j = 0; j < blk; j++) asc_k_stf(dt, o + (r * blk + j) * es, sum);
      continue;
    }
    for (int64_t j = 0; j < kk; j++) {
      int64_t at = (r * kk + j) * es;
      float gv = (float)asc_k_ld(dt, g + at), sv = (float)asc_k_ld(dt, x + at);
      asc_k_stf(dt, o + at, (gv - sum) * sv);
    }
  }
  return 0;
}

/* Ascend C's AdjustSoftMaxRes: each of the m rows of res (kk elements) whose max has the bits
 * `from` (max's first element of the row's 32-byte block; with step_each, one element a row)
 * becomes `to`. *hit: whether any row did. */
static inline int asc_k_adv_softmax_adjust(asc_k_ctx *k, int rdt, int mdt, asc_k_lt res,
                                           asc_k_lt mx, uint32_t from, double to, int64_t m,
                                           int64_t kk, int step_each, int64_t *hit, int line) {
  const char *api = "AdjustSoftMaxRes";
  if (m < 0 || kk < 0)
    return asc_k_fail(k, line, "AdjustSoftMaxRes: the shape %lld x %lld is negative", (long long)m,
                      (long long)kk);
  int64_t es = asc_k_dt_size(rdt), ms = asc_k_dt_size(mdt), step = step_each ? 1 : 32 / ms;
  int64_t n = asc_k_mul(m, kk), nm = asc_k_mul(m, step);
  if (n < 0 || nm < 0) return asc_k_fail(k, line, "AdjustSoftMaxRes: the shape overflows");
  if (asc_k_ub_use(k, ASC_K_V, mx, nm, ms, ASC_K_READ, api, "maxTensor", line) ||
      asc_k_ub_use(k, ASC_K_V, res, n, es, ASC_K_READ, api, "softMaxRes", line) ||
      asc_k_ub_use(k, ASC_K_V, res, n, es, ASC_K_WRITE, api, "softMaxRes", line))
    return 1;
  *hit = 0;
  for (int64_t r = 0; r < m; r++) {
    uint32_t bits = 0;
    const char *at = k->ub + mx.off + r * step * ms;
    if (ms == 4) {
      memcpy(&bits, at, 4);
    } else {
      uint16_t h;
      memcpy(&h, at, 2);
      bits = h;
    }
    if (bits != from) continue;
    *hit = 1;
    for (int64_t j = 0; j < kk; j++) asc_k_stf(rdt, k->ub + res.off + (r * kk + j) * es, to);
  }
  return 0;
}

/* rmsnorm over the last axis (h, of which the first orig_h are data) of rows
 * rows: dst = src / sqrt(sum(src^2) * recip + eps) * gamma, in float32. */
static inline int asc_k_adv_rmsnorm(asc_k_ctx *k, int dt, asc_k_lt d, asc_k_lt s, asc_k_lt g,
                                    double eps, int64_t rows, int64_t h, double recip, asc_k_lt tmp,
                                    int64_t tmp_min, int line) {
  const char *api = "rmsnorm";
  if (rows < 0 || h <= 0)
    return asc_k_fail(
        k, line,
        "rmsnorm: the tiling's shape %lld rows x %lld is empty or negative (fill it on "
        "the host with get_rms_norm_tiling_info)",
        (long long)rows, (long long)h);
  int64_t es = asc_k_dt_size(dt), n = asc_k_mul(rows, h);
  if (n < 0) return asc_k_fail(k, line, "rmsnorm: the tiling's shape overflows");
  if (asc_k_ub_use(k, ASC_K_V, s, n, es, ASC_K_READ, api, "src", line) ||
      asc_k_ub_use(k, ASC_K_V, g, h, es, ASC_K_READ, api, "gamma", line) ||
      asc_k_adv_tmp(k, tmp, tmp_min, api, line) ||
      asc_k_ub_use(k, ASC_K_V, d, n, es, ASC_K_WRITE, api, "dst", line))
    return 1;
  char *o = k->ub + d.off;
  const char *x = k->ub + s.off, *gm = k->ub + g.off;
  for (int64_t r = 0; r < rows; r++) {
    float sq = 0;
    for (int64_t j = 0; j < h; j++) {
      float v = (float)asc_k_ld(dt, x + (r * h + j) * es);
      sq += v * v;
    }
    float scale = 1.0f / sqrtf(sq * (float)recip + (float)eps);
    for (int64_t j = 0; j < h; j++)
      asc_k_stf(
          dt, o + (r * h + j) * es,
          (float)asc_k_ld(dt, x + (r * h + j) * es) * scale * (float)asc_k_ld(dt, gm + j * es));
  }
  return 0;
}

/* AscendQuant per tensor: int8 = saturate(rint(src * scale + offset)) in half arithmetic,
 * each step rounded to half. */
static inline int asc_k_adv_quant(asc_k_ctx *k, int sdt, asc_k_lt d, asc_k_lt s, double scale,
                                  double offset, int64_t n, asc_k_lt tmp, int64_t tmp_min,
                                  int line) {
  const char *api = "quant";
  int64_t es = asc_k_dt_size(sdt);
  if (asc_k_adv_count(k, n, api, line) ||
      asc_k_ub_use(k, ASC_K_V, s, n, es, ASC_K_READ, api, "src", line) ||
      asc_k_adv_tmp(k, tmp, tmp_min, api, line) ||
      asc_k_ub_use(k, ASC_K_V, d, n, 1, ASC_K_WRITE, api, "dst", line))
    return 1;
  /* dav-2201 works in half whatever the source: float data is cast to half first, the scale
   * and offset too, and each step rounds to half (CANN's ascend_quant_pre_impl.h) */
  const int hdt = ASC_K_DT_FLOAT16;
  float sc = asc_k_as_dt(hdt, scale), of = asc_k_as_dt(hdt, offset);
  const char *x = k->ub + s.off;
  signed char *o = (signed char *)(k->ub + d.off);
  for (int64_t i = 0; i < n; i++) {
    float h = asc_k_as_dt(hdt, asc_k_ld(sdt, x + i * es));
    h = asc_k_as_dt(hdt, h * sc);
    float v = rintf(asc_k_as_dt(hdt, h + of));
    o[i] = isnan(v) ? 0 : v >= 127.0f ? 127 : v <= -128.0f ? -128 : (signed char)v;
  }
  return 0;
}

/* concat (the Atlas A2 form): the sort input is the scores themselves,
 * 16 per repeat; extract: the sorted 8-byte (score, uint32 index) pairs,
 * 32 per repeat, split into values and indices. */
static inline int asc_k_adv_concat(asc_k_ctx *k, int dt, asc_k_lt d, asc_k_lt s, asc_k_lt tmp,
                                   int64_t repeat, int line) {
  if (repeat < 0 || repeat > 255)
    return asc_k_fail(k, line, "concat: repeat_time %lld is outside [0, 255]", (long long)repeat);
  int64_t es = asc_k_dt_size(dt), n = repeat * 16;
  (void)tmp;
  if (asc_k_ub_use(k, ASC_K_V, s, n, es, ASC_K_READ, "concat", "src", line) ||
      asc_k_ub_use(k, ASC_K_V, d, n, es, ASC_K_WRITE, "concat", "dst", line))
    return 1;
  memmove(k->ub + d.off, k->ub + s.off, (size_t)(n * es));
  return 0;
}

static inline int asc_k_adv_extract(asc_k_ctx *k, int dt, asc_k_lt dv, asc_k_lt di, asc_k_lt s,
                                    int64_t repeat, int line) {
  if (repeat < 0 || repeat > 255)
    return asc_k_fail(k, line, "extract: repeat_time %lld is outside [0, 255]", (long long)repeat);
  int64_t es = asc_k_dt_size(dt), n = repeat * 32;
  if (asc_k_ub_use(k, ASC_K_V, s, n * 8 / es, es, ASC_K_READ, "extract", "src", line) ||
      asc_k_ub_use(k, ASC_K_V, dv, n, es, ASC_K_WRITE, "extract", "dst_value", line) ||
      asc_k_ub_use(k, ASC_K_V, di, n, 4, ASC_K_WRITE, "extract", "dst_index", line))
    return 1;
  const char *x = k->ub + s.off;
  for (int64_t i = 0; i < n; i++) {
    char pair[8];
    memcpy(pair, x + i * 8, 8); /* the destinations may overlap the source */
    memcpy(k->ub + dv.off + i * es, pair, (size_t)es);
    memcpy(k->ub + di.off + i * 4, pair + 4, 4);
  }
  return 0;
}
