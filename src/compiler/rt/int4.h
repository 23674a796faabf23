/* 4-bit signed integers (Ascend C's int4b_t on dav-2201): two to a byte,
 * element 2i in the low nibble of byte i and 2i + 1 in the high nibble,
 * values -8..7 in two's complement.
 *
 * A LocalTensor of int4b_t keeps its byte offset in `off` and counts its
 * elements (nibbles) in `len`: it spans ceil(len / 2) bytes. The hardware
 * addresses bytes, so a tensor starts at an even element; an odd offset is
 * an error in both modes. The cube treats 4-bit data as bytes wherever the
 * documentation says so (Nd2Nz's parameters, LoadData2DParams' fractals of
 * 512 bytes); rt/cube_int4.h has the forms that see nibbles.
 *
 * Cast half -> int4b_t rounds by the RoundMode (CAST_NONE as CAST_RINT) and
 * saturates to [-8, 7] (NaN gives 0); int4b_t -> half is exact. A repeat of
 * the mask forms spans 128 elements: 8 blocks of 16 halves and 2 blocks of
 * 64 nibbles. */

/* The kernels' dtype code of int4b_t: past asc_dtype's values, since no
 * tensor of the library holds 4-bit elements. */
#define ASC_K_DT_INT4 16

enum { /* pyasc_sim.h's PYASC_SIM_I4_*, in its order: the int4b_t forms through vec_more */
       ASC_K_I4_NEW,
       ASC_K_I4_SLICE,
       ASC_K_I4_REINTERPRET,
       ASC_K_I4_GET,
       ASC_K_I4_SET,
       ASC_K_I4_CAST,
       ASC_K_I4_PHY_ADDR,
       ASC_K_I4_GM_OFFSET
};

static inline int asc_k_i4_get(const char *p, int64_t i) {
  unsigned b = (unsigned char)p[i >> 1];
  int v = (int)((i & 1) ? b >> 4 : b & 15u);
  return v >= 8 ? v - 16 : v;
}
static inline void asc_k_i4_put(char *p, int64_t i, int v) {
  unsigned b = (unsigned char)p[i >> 1], n = (unsigned)v & 15u;
  b = (i & 1) ? (b & 0x0Fu) | (n << 4) : (b & 0xF0u) | n;
  p[i >> 1] = (char)b;
}
/* x rounded by RoundMode `mode` and saturated to int4b_t's range. */
static inline int asc_k_i4_from(double x, int mode) {
  if (x != x) return 0;
  double r = asc_k_round_int(x, mode);
  return r < -8.0 ? -8 : r > 7.0 ? 7 : (int)r;
}
/* Bytes of n >= 0 elements. */
static inline int64_t asc_k_i4_bytes(int64_t n) {
  return n / 2 + (n & 1);
}
/* The bytes of an int4b_t tensor as a tensor of 1-byte elements. */
static inline asc_k_lt asc_k_i4_view(asc_k_lt t) {
  asc_k_lt r = {t.off, t.len < 0 ? t.len : asc_k_i4_bytes(t.len)};
  return r;
}
/* what: "offset" or "count"; the hardware moves and addresses whole bytes */
static inline int asc_k_i4_even(asc_k_ctx *k, int64_t n, const char *api, const char *what,
                                int line) {
  if (n & 1)
    return asc_k_fail(k, line,
                      "%s: %s %lld of int4b_t elements is odd (two elements share a byte, which "
                      "the hardware moves and addresses whole)",
                      api, what, (long long)n);
  return 0;
}
/* t[off:] of an int4b_t tensor. */
static inline int asc_k_i4_slice(asc_k_ctx *k, asc_k_lt t, int64_t off, asc_k_lt *r, int line) {
  if (off < 0) return asc_k_fail(k, line, "LocalTensor[]: negative offset %lld", (long long)off);
  if (asc_k_i4_even(k, off, "LocalTensor[]", "offset", line)) return 1;
  r->off = t.off + off / 2;
  r->len = asc_k_sub(t.len, off);
  return 0;
}
/* ReinterpretCast between element widths given in bits (4 for int4b_t):
 * the same bytes, counted in the new elements. */
static inline int asc_k_i4_reinterpret(asc_k_ctx *k, asc_k_lt t, int64_t from_bits, int64_t to_bits,
                                       asc_k_lt *r, int line) {
  if (from_bits <= 0 || to_bits <= 0 || from_bits % 4 || to_bits % 4)
    return asc_k_fail(k, line, "ReinterpretCast: element widths %lld and %lld bits",
                      (long long)from_bits, (long long)to_bits);
  int64_t bits = asc_k_mul(t.len, from_bits);
  r->off = t.off;
  r->len = bits == ASC_K_FAR || t.len < 0 ? t.len : bits / to_bits;
  return 0;
}
/* GetValue/SetValue of element i (UB only). */
static inline int asc_k_i4_access(asc_k_ctx *k, asc_k_lt t, int64_t i, int write, int64_t *v,
                                  int line) {
  const char *api = write ? "SetValue" : "GetValue";
  if (i < 0) return asc_k_fail(k, line, "%s: negative index %lld", api, (long long)i);
  if (asc_k_index_check(k, t, i, api, line)) return 1;
  asc_k_lt b = {t.off + i / 2, 1};
  if (asc_k_ub_use(k, ASC_K_S, b, 1, 1, write ? ASC_K_WRITE : ASC_K_READ, api, "tensor", line))
    return 1;
  if (write) {
    if (*v < -8 || *v > 7)
      return asc_k_fail(k, line, "SetValue: %lld does not fit int4b_t (-8..7)", (long long)*v);
    asc_k_i4_put(k->ub + t.off, i, (int)*v);
  } else {
    *v = asc_k_i4_get(k->ub + t.off, i);
  }
  return 0;
}

/* Cast between half and int4b_t: dt, st the dtype codes (one of them
 * ASC_K_DT_INT4, the other ASC_K_DT_FLOAT16). kind as asc_k_sel_make's
 * (2: the count form, m0 elements); st4: dstBlkStride, srcBlkStride,
 * dstRepStride, srcRepStride in 32-byte blocks (mask forms). */
static int asc_k_i4_cast(asc_k_ctx *k, asc_k_lt d, asc_k_lt s, int dt, int st, int round, int kind,
                         uint64_t m0, uint64_t m1, int64_t repeat, int set_mask, const int64_t *st4,
                         int line) __attribute__((unused));
static int asc_k_i4_cast(asc_k_ctx *k, asc_k_lt d, asc_k_lt s, int dt, int st, int round, int kind,
                         uint64_t m0, uint64_t m1, int64_t repeat, int set_mask, const int64_t *st4,
                         int line) {
  static const char api[] = "Cast";
  const int to4 = dt == ASC_K_DT_INT4;
  if (!((to4 && st == ASC_K_DT_FLOAT16) || (st == ASC_K_DT_INT4 && dt == ASC_K_DT_FLOAT16)))
    return asc_k_fail(k, line, "Cast: int4b_t converts from and to half only");
  if (!to4 && round != 0)
    return asc_k_fail(k, line, "Cast: int4b_t -> half takes RoundMode::CAST_NONE");
  if (round < 0 || round > 5)
    return asc_k_fail(k, line,
                      "Cast: half -> int4b_t takes CAST_NONE, RINT, FLOOR, CEIL, ROUND "
                      "or TRUNC");
  asc_k_sel sel;
  memset(&sel, 0, sizeof sel);
  int counter = k->vm.counter;
  if (asc_k_sel_make(k, &sel, kind, m0, m1, repeat, set_mask, 128, 255, api, line)) return 1;
  k->vm.counter = counter;
  if (kind == 2 || sel.counter) {
    if (sel.count & 1)
      return asc_k_fail(k, line, "Cast: %lld int4b_t elements: the count must be even",
                        (long long)sel.count);
  } else {
    /* two elements of a byte go together: adjacent mask bits must agree */
    for (int b = 0; b < 128; b += 2)
      if (asc_k_sel_on(&sel, 0, b) != asc_k_sel_on(&sel, 0, b + 1))
        return asc_k_fail(k, line,
                          "Cast: mask bits %d and %d differ: they select the two "
                          "int4b_t elements of one byte",
                          b, b + 1);
  }
  /* strides in bytes: the half operand's 32-byte blocks hold 16 elements, the
   * int4b_t operand's 64 */
  int64_t blk[2] = {32, 32}, rep[2] = {0, 0};
  if (kind != 2) {
    for (int j = 0; j < 4; j++)
      if (st4[j] < 0) return asc_k_fail(k, line, "Cast: negative block or repeat stride");
    blk[0] = st4[0] * 32, blk[1] = st4[1] * 32, rep[0] = st4[2] * 32, rep[1] = st4[3] * 32;
  } else {
    rep[0] = to4 ? 64 : 256, rep[1] = to4 ? 256 : 64;
  }
  const int64_t dbytes = d.len < 0 ? 0 : to4 ? asc_k_i4_bytes(d.len) : asc_k_mul(d.len, 2);
  const int64_t sbytes = s.len < 0 ? 0 : to4 ? asc_k_mul(s.len, 2) : asc_k_i4_bytes(s.len);
  /* first pass: the extent each operand touches, checked against its tensor */
  int64_t dmax = 0, smax = 0;
  for (int pass = 0; pass < 2; pass++) {
    for (int64_t r = 0; r < sel.nrep; r++)
      for (int64_t e = 0; e < 128; e++) {
        if (!asc_k_sel_on(&sel, r, e)) continue;
        /* byte of the half operand, nibble index of the int4b_t operand */
        const int64_t hb[2] = {r * rep[0] + (e / 16) * blk[0] + (e % 16) * 2,
                               r * rep[1] + (e / 16) * blk[1] + (e % 16) * 2};
        const int64_t nb[2] = {2 * (r * rep[0] + (e / 64) * blk[0]) + e % 64,
                               2 * (r * rep[1] + (e / 64) * blk[1]) + e % 64};
        const int64_t at_d = to4 ? nb[0] : hb[0], at_s = to4 ? hb[1] : nb[1];
        const int64_t end_d = to4 ? at_d / 2 + 1 : at_d + 2, end_s = to4 ? at_s + 2 : at_s / 2 + 1;
        if (!pass) {
          if (end_d > dmax) dmax = end_d;
          if (end_s > smax) smax = end_s;
          continue;
        }
        const char *sp = k->ub + s.off;
        char *dp = k->ub + d.off;
        if (to4) {
          uint16_t h;
          memcpy(&h, sp + at_s, 2);
          asc_k_i4_put(dp, at_d, asc_k_i4_from((double)asc_k_h2f(h), round));
        } else {
          uint16_t h = asc_k_f2h((float)asc_k_i4_get(sp, at_s));
          memcpy(dp + at_d, &h, 2);
        }
      }
    if (pass) break;
    if (dmax > dbytes || smax > sbytes)
      return asc_k_fail(k, line,
                        "Cast: the instruction reaches byte %lld of dst (%lld bytes) and %lld of "
                        "src (%lld bytes)",
                        (long long)dmax, (long long)dbytes, (long long)smax, (long long)sbytes);
    asc_k_lt sv = {s.off, smax}, dv = {d.off, dmax};
    if (asc_k_ub_use(k, ASC_K_V, sv, smax, 1, ASC_K_READ, api, "src", line) ||
        asc_k_ub_use(k, ASC_K_V, dv, dmax, 1, ASC_K_WRITE, api, "dst", line))
      return 1;
  }
  return 0;
}
