/* --- layout (api_table.def "layout") ----------------------------------------------------
 * transpose's TransposeParamsExt form and trans_data_to_5hd, on the
 * vector pipe. Both read what they transpose before writing it. */

/* TransposeType values (PyAsc's TransposeType) this form takes. */
enum { ASC_K_TR_ND2ND_B16 = 10, ASC_K_TR_NCHW2NHWC = 11, ASC_K_TR_NHWC2NCHW = 12 };

/* transpose(dst, src, tmp, TransposeParamsExt): ND2ND_B16 turns an [h, w]
 * matrix of 2-byte elements (h, w multiples of 16) into [w, h];
 * NCHW2NHWC/NHWC2NCHW permute [n, c, h, w] <-> [n, h, w, c], with c and
 * h * w whole 32-byte blocks. The temporary buffer is the hardware's
 * scratch: it must lie in the UB and is left with unspecified bytes (here:
 * unchanged). src and dst may coincide only for ND2ND_B16. */
static inline int asc_k_transpose_ext(asc_k_ctx *k, asc_k_lt dst, asc_k_lt src, asc_k_lt tmp,
                                      int64_t n, int64_t c, int64_t h, int64_t w, int64_t type,
                                      int64_t es, int line) {
  const char *api = "transpose";
  if (n < 0 || c < 0 || h < 0 || w < 0 || n > 65535 || c > 65535 || h > 65535 || w > 65535)
    return asc_k_fail(k, line, "%s: n_size, c_size, h_size and w_size must be in [0, 65535]", api);
  int64_t rows, cols, batch = 1;
  if (type == ASC_K_TR_ND2ND_B16) {
    if (es != 2) return asc_k_fail(k, line, "%s: TRANSPOSE_ND2ND_B16 takes 2-byte elements", api);
    if (h % 16 || w % 16)
      return asc_k_fail(k, line,
                        "%s: TRANSPOSE_ND2ND_B16 needs h_size and w_size multiples of 16"
                        ", got %lld and %lld",
                        api, (long long)h, (long long)w);
    rows = h, cols = w;
  } else {
    int64_t hw = asc_k_mul(h, w);
    if (asc_k_mul(c, es) % 32 || asc_k_mul(hw, es) % 32)
      return asc_k_fail(k, line,
                        "%s: c_size (%lld) and h_size * w_size (%lld) must each fill whole "
                        "32-byte blocks of %lld-byte elements",
                        api, (long long)c, (long long)hw, (long long)es);
    /* NCHW -> NHWC: each image is a [c, hw] matrix to transpose */
    rows = type == ASC_K_TR_NCHW2NHWC ? c : hw;
    cols = type == ASC_K_TR_NCHW2NHWC ? hw : c;
    batch = n;
  }
  int64_t per = asc_k_mul(rows, cols), total = asc_k_mul(per, batch);
  if (asc_k_ub_use(k, ASC_K_V, src, total, es, ASC_K_READ, api, "src", line) ||
      asc_k_ub_use(k, ASC_K_V, dst, total, es, ASC_K_WRITE, api, "dst", line) ||
      asc_k_ub_range(k, tmp, 0, 1, api, line))
    return 1;
  int64_t bytes = asc_k_mul(total, es);
  if (type != ASC_K_TR_ND2ND_B16 && bytes > 0 && dst.off < src.off + bytes &&
      src.off < dst.off + bytes)
    return asc_k_fail(k, line, "%s: src and dst overlap, which the NCHW/NHWC forms do not allow",
                      api);
  if (!bytes) return 0;
  char *copy = malloc((size_t)bytes);
  if (!copy) return asc_k_fail(k, line, "%s: out of host memory", api);
  memcpy(copy, k->ub + src.off, (size_t)bytes);
  for (int64_t b = 0; b < batch; b++)
    for (int64_t i = 0; i < rows; i++)
      for (int64_t j = 0; j < cols; j++)
        memcpy(k->ub + dst.off + ((b * per) + j * rows + i) * es,
               copy + ((b * per) + i * cols + j) * es, (size_t)es);
  free(copy);
  return 0;
}

/* trans_data_to_5hd: per repeat r, 16 source and 16 destination 32-byte
 * blocks (list entry i at its tensor's address + r * stride blocks) hold a
 * matrix that is transposed. 2-byte elements: dst block j element i = src
 * block i element j. 4-byte: the 16 x 8 source matrix becomes 8 rows of 16,
 * row j in dst blocks 2j and 2j + 1. 1-byte: each source block's low or
 * high 16 bytes (src_high_half) form a 16 x 16 matrix whose rows land in the
 * low or high half of each destination block (dst_high_half). */
static inline int asc_k_trans_5hd(asc_k_ctx *k, const asc_k_lt *dst, const asc_k_lt *src,
                                  int64_t dst_high, int64_t src_high, int64_t repeat,
                                  int64_t dst_stride, int64_t src_stride, int64_t es, int line) {
  const char *api = "trans_data_to_5hd";
  if (repeat < 0 || repeat > 255)
    return asc_k_fail(k, line, "%s: repeat_times %lld is outside [0, 255]", api, (long long)repeat);
  if (dst_stride < 0 || dst_stride > 65535 || src_stride < 0 || src_stride > 65535)
    return asc_k_fail(k, line, "%s: dst_rep_stride and src_rep_stride must be in [0, 65535]", api);
  for (int64_t r = 0; r < repeat; r++) {
    unsigned char in[16][32], out[16][32];
    for (int i = 0; i < 16; i++) {
      /* block r of the entry: checked mode holds it to the entry's extent */
      asc_k_lt s = asc_k_local_slice(src[i], r * src_stride * 32 / es, es);
      if (s.off % 32) return asc_k_fail(k, line, "%s: src_list[%d] is not 32-byte aligned", api, i);
      if (asc_k_ub_use(k, ASC_K_V, s, 32 / es, es, ASC_K_READ, api, "a src_list block", line))
        return 1;
      memcpy(in[i], k->ub + s.off, 32);
    }
    for (int j = 0; j < 16; j++) {
      asc_k_lt d = asc_k_local_slice(dst[j], r * dst_stride * 32 / es, es);
      if (d.off % 32) return asc_k_fail(k, line, "%s: dst_list[%d] is not 32-byte aligned", api, j);
      if (asc_k_ub_use(k, ASC_K_V, d, 32 / es, es, ASC_K_WRITE, api, "a dst_list block", line))
        return 1;
      memcpy(out[j], k->ub + d.off, 32); /* 1-byte: the other half stays */
    }
    for (int j = 0; j < 16; j++)
      for (int i = 0; i < 16; i++) {
        if (es == 2) {
          memcpy(&out[j][i * 2], &in[i][j * 2], 2);
        } else if (es == 4) { /* row j/2 of 16, half j%2 of it */
          int row = j / 2, col = (j % 2) * 8 + i % 8;
          if (i < 8) memcpy(&out[j][i * 4], &in[col][row * 4], 4);
        } else {
          out[j][(dst_high ? 16 : 0) + i] = in[i][(src_high ? 16 : 0) + j];
        }
      }
    for (int j = 0; j < 16; j++)
      memcpy(k->ub + asc_k_madd(dst[j].off, r * dst_stride, 32), out[j], 32);
  }
  return 0;
}

/* trans_data_to_5hd's address forms: 16 destination and 16 source UB byte
 * addresses (as get_phy_addr gives them), each taken as a tensor from that
 * address to the end of the UB; es: the element size the addresses' tensors
 * had. */
static inline int asc_k_trans_5hd_at(asc_k_ctx *k, const int64_t *addr, int64_t dst_high,
                                     int64_t src_high, int64_t repeat, int64_t dst_stride,
                                     int64_t src_stride, int64_t es, int line) {
  asc_k_lt t[32];
  for (int i = 0; i < 32; i++) {
    int64_t end = asc_k_ub_end(k);
    if (addr[i] < 0 || addr[i] >= end) {
      char note[96];
      return asc_k_fail(k, line,
                        "trans_data_to_5hd: %s address %d (%lld) is outside the %lld-byte "
                        "Unified Buffer%s",
                        i < 16 ? "dst" : "src", i % 16, (long long)addr[i], (long long)k->ub_size,
                        asc_k_reach_note(k, note, sizeof note));
    }
    t[i].off = addr[i];
    t[i].len = (end - addr[i]) / es;
  }
  return asc_k_trans_5hd(k, t, t + 16, dst_high, src_high, repeat, dst_stride, src_stride, es,
                         line);
}
static inline int asc_k_trans_5hd_addr_tensor(asc_k_ctx *k, asc_k_lt d, asc_k_lt s, int64_t repeat,
                                              int64_t dst_stride, int64_t src_stride,
                                              int64_t dst_high, int64_t src_high, int64_t es,
                                              int line) {
  int64_t addr[32];
  if (asc_k_ub_use(k, ASC_K_V, d, 16, 8, ASC_K_READ, "trans_data_to_5hd", "dst address tensor",
                   line) ||
      asc_k_ub_use(k, ASC_K_V, s, 16, 8, ASC_K_READ, "trans_data_to_5hd", "src address tensor",
                   line))
    return 1;
  for (int i = 0; i < 16; i++) {
    uint64_t a, b;
    memcpy(&a, k->ub + d.off + i * 8, 8);
    memcpy(&b, k->ub + s.off + i * 8, 8);
    addr[i] = a > (uint64_t)INT64_MAX ? -1 : (int64_t)a;
    addr[16 + i] = b > (uint64_t)INT64_MAX ? -1 : (int64_t)b;
  }
  return asc_k_trans_5hd_at(k, addr, dst_high, src_high, repeat, dst_stride, src_stride, es, line);
}

/* bilinear_interpolation (float16): vertical iteration v writes 8 data
 * blocks from dst + v * v_r_offset elements, block b at b * dst_blk_stride
 * blocks; its h_repeat horizontal iterations i each read 8 byte offsets of
 * src0 blocks from src0_offset (the i-th group of 8, counted across all
 * iterations) and multiply block b by src1[i] (repeat_mode false) or
 * src1[8 i + b] (true); the first horizontal iteration writes the products,
 * the later ones add theirs (each multiply and add rounds to float16).
 * Elements the mask leaves out keep their value. */
static inline int asc_k_bilinear(asc_k_ctx *k, asc_k_lt dst, asc_k_lt src0, asc_k_lt off,
                                 asc_k_lt src1, int64_t m0, int64_t m1, int64_t h_repeat,
                                 int64_t repeat_mode, int64_t blk_stride, int64_t v_offset,
                                 int64_t v_repeat, asc_k_lt tmp, int64_t kind, int line) {
  const char *api = "bilinear_interpolation";
  if (h_repeat < 0 || h_repeat > 255 || v_repeat < 0 || v_repeat > 255)
    return asc_k_fail(k, line, "%s: h_repeat and v_repeat must be in [0, 255]", api);
  if (blk_stride < 0 || blk_stride > 65535 || v_offset < 0 || v_offset > 65535)
    return asc_k_fail(k, line, "%s: dst_blk_stride and v_r_offset must be in [0, 65535]", api);
  uint64_t bits[2] = {(uint64_t)m0, (uint64_t)m1};
  if (kind == 0) {
    if (m0 < 1 || m0 > 128)
      return asc_k_fail(k, line, "%s: mask %lld is outside [1, 128] for 16-bit data", api,
                        (long long)m0);
    asc_k_mask_first(m0, bits);
  }
  int64_t iters = h_repeat * v_repeat, per = repeat_mode ? 8 : 1;
  if (asc_k_ub_use(k, ASC_K_V, off, iters * 8, 4, ASC_K_READ, api, "src0_offset", line) ||
      asc_k_ub_use(k, ASC_K_V, src1, iters * per, 2, ASC_K_READ, api, "src1", line) ||
      asc_k_ub_range(k, tmp, 0, 1, api, line))
    return 1;
  for (int64_t v = 0; v < v_repeat; v++)
    for (int64_t h = 0; h < h_repeat; h++) {
      int64_t it = v * h_repeat + h;
      for (int b = 0; b < 8; b++) {
        uint32_t at;
        memcpy(&at, k->ub + off.off + (it * 8 + b) * 4, 4);
        if (at % 32 || (int64_t)at + 32 > asc_k_mul(src0.len, 2))
          return asc_k_fail(k, line,
                            "%s: src0_offset[%lld] = %u is not the byte offset of a data block of "
                            "src0 (%lld bytes)",
                            api, (long long)(it * 8 + b), (unsigned)at,
                            (long long)asc_k_mul(src0.len, 2));
        asc_k_lt s = asc_k_local_slice(src0, at / 2, 2);
        asc_k_lt d = asc_k_local_slice(dst, v * v_offset + b * blk_stride * 16, 2);
        if (asc_k_ub_use(k, ASC_K_V, s, 16, 2, ASC_K_READ, api, "src0", line) ||
            asc_k_ub_use(k, ASC_K_V, d, 16, 2, ASC_K_WRITE, api, "dst", line))
          return 1;
        uint16_t sc;
        memcpy(&sc, k->ub + src1.off + (it * per + (repeat_mode ? b : 0)) * 2, 2);
        for (int e = 0; e < 16; e++) {
          int bit = b * 16 + e;
          if (!((bits[bit / 64] >> (bit % 64)) & 1)) continue;
          uint16_t x, y;
          memcpy(&x, k->ub + s.off + e * 2, 2);
          float p = asc_k_h2f(asc_k_f2h(asc_k_h2f(x) * asc_k_h2f(sc)));
          if (h) {
            memcpy(&y, k->ub + d.off + e * 2, 2);
            p = asc_k_h2f(y) + p;
          }
          uint16_t r = asc_k_f2h(p);
          memcpy(k->ub + d.off + e * 2, &r, 2);
        }
      }
    }
  return 0;
}
