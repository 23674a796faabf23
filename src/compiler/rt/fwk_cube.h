/* --- init_const_value: fill a cube buffer (L1, L0A, L0B) with a value ---------
 * Included after rt/cube.h. dst is a LocalTensor of a TQue at A1/B1 (L1,
 * 32-byte blocks), A2 (L0A) or B2 (L0B) (512-byte blocks). With block_num
 * and dst_gap both 0 each of repeat_times (at most 255) repeats fills 512
 * bytes, one after the other; otherwise each of repeat_times (at most 32767)
 * repeats fills block_num blocks and skips dst_gap blocks. */
#if defined(ASC_K_CUBE)
static int asc_k_init_const_value(asc_k_ctx *k, asc_k_lt dst, int dt, int64_t repeat,
                                  int64_t blocks, int64_t gap, double value, int line)
    __attribute__((unused));
static int asc_k_init_const_value(asc_k_ctx *k, asc_k_lt dst, int dt, int64_t repeat,
                                  int64_t blocks, int64_t gap, double value, int line) {
  int64_t es = asc_k_dt_size(dt);
  asc_kc_span s;
  if (asc_k_cube_local(k, dst, es, ASC_KC_M_L1 | ASC_KC_M_L0AB, "init_const_value", "dst", &s,
                       line))
    return 1;
  int l1 = (dst.off >> ASC_KC_TAG_SHIFT) - 1 == ASC_KC_L1;
  int64_t block = l1 ? 32 : 512, byte = dst.off & (((int64_t)1 << ASC_KC_TAG_SHIFT) - 1);
  if (byte % block)
    return asc_k_fail(k, line,
                      "init_const_value: dst starts at byte %lld of its buffer, not "
                      "%lld-byte aligned",
                      (long long)byte, (long long)block);
  int simple = blocks == 0 && gap == 0;
  if (repeat < 0 || repeat > (simple ? 255 : 32767) || blocks < 0 || blocks > 32767 || gap < 0 ||
      gap > 32767)
    return asc_k_fail(k, line,
                      "init_const_value: repeat_times must be in [0, %d] and block_num, dst_gap "
                      "in [0, 32767] (got %lld, %lld, %lld)",
                      simple ? 255 : 32767, (long long)repeat, (long long)blocks, (long long)gap);
  int64_t run = simple ? 512 : blocks * block, step = simple ? 512 : (blocks + gap) * block;
  if (!repeat || !run) return 0;
  int64_t end = (repeat - 1) * step + run;
  if (end > s.n)
    return asc_k_fail(k, line,
                      "init_const_value: %lld repeats reach byte %lld but dst holds %lld bytes",
                      (long long)repeat, (long long)end, (long long)s.n);
  char v[8];
  asc_k_cast_store(dt, v, value, 1);
  for (int64_t r = 0; r < repeat; r++)
    for (int64_t i = 0; i + es <= run; i += es) memcpy(s.p + r * step + i, v, (size_t)es);
  return asc_k_cube_use(k, ASC_K_MTE2, s, 0, end, 1, "init_const_value", "dst", line);
}
#else
static inline int asc_k_init_const_value(asc_k_ctx *k, asc_k_lt dst, int dt, int64_t repeat,
                                         int64_t blocks, int64_t gap, double value, int line) {
  (void)dst, (void)dt, (void)repeat, (void)blocks, (void)gap, (void)value;
  return asc_k_fail(k, line,
                    "init_const_value: dst must be a LocalTensor of a TQue at A1, B1, A2 or B2 "
                    "(L1, L0A, L0B)");
}
#endif
