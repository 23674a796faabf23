/* data_copy with SliceInfo lists (docs/kernel-reference-semantics.md, "SliceInfo"):
 * each of `dims` dimensions (innermost first) is (start, end, stride,
 * burst_len, shape). Dimension 0 takes bursts of burst_len 32-byte blocks,
 * the others single indices; consecutive bursts lie stride elements (or
 * indices) apart, and a burst is taken only if it ends by `end`. A
 * dimension's index steps by the product of the inner dimensions' shapes.
 * dst and src must select the same number of bursts per dimension; burst
 * j of src goes to burst j of dst, each a checked data_copy. */
enum { ASC_KS_MAX_DIMS = 3 };

/* The bursts of one side: counts per dimension, burst elements, element
 * strides; 0, or a failure naming `which` (slice_list1 is dst's). */
static int asc_ks_plan(asc_k_ctx *k, const int64_t *s, int dims, int64_t es, const char *which,
                       int64_t n[ASC_KS_MAX_DIMS], int64_t step[ASC_KS_MAX_DIMS],
                       int64_t mult[ASC_KS_MAX_DIMS], int64_t *burst, int line) {
  int64_t m = 1;
  for (int d = 0; d < dims; d++) {
    const int64_t *f = s + 5 * d;
    int64_t start = f[0], end = f[1], stride = f[2], blen = f[3], shape = f[4];
    int64_t b = d == 0 ? asc_k_mul(blen, 32) / es : 1;
    if (start < 0 || end < start || stride < 0 || shape <= end || blen < 1 ||
        (d > 0 && blen != 1) || b == ASC_K_FAR / es)
      return asc_k_fail(k, line,
                        "data_copy: %s[%d] = SliceInfo(%lld, %lld, %lld, %lld, %lld) needs 0 <= "
                        "start_index <= end_index < shape_value, stride >= 0 and burst_len >= 1 "
                        "(1 beyond dimension 0)",
                        which, d, (long long)start, (long long)end, (long long)stride,
                        (long long)blen, (long long)shape);
    n[d] = (end - start + 1 + stride) / (b + stride);
    if (n[d] < 1)
      return asc_k_fail(k, line,
                        "data_copy: %s[%d]: a burst of %lld elements does not fit in "
                        "elements %lld..%lld",
                        which, d, (long long)b, (long long)start, (long long)end);
    step[d] = asc_k_mul(b + stride, m);
    mult[d] = m;
    m = asc_k_mul(m, shape);
    if (d == 0) *burst = b;
  }
  return 0;
}

/* The element offset of burst j (row-major over the dimensions, dimension
 * 0 fastest). */
static int64_t asc_ks_offset(const int64_t *s, int dims, const int64_t *n, const int64_t *step,
                             const int64_t *mult, int64_t j) {
  int64_t off = 0;
  for (int d = 0; d < dims; d++) {
    int64_t i = j % n[d];
    j /= n[d];
    off = asc_k_add(off, asc_k_add(asc_k_mul(s[5 * d], mult[d]), asc_k_mul(i, step[d])));
  }
  return off;
}

/* dir 0: GM -> UB (dst local), 1: UB -> GM; s holds dst's dims then src's */
static int asc_ks_copy(asc_k_ctx *k, asc_k_lt lt, asc_k_gt gt, int dir, int dims, int64_t es,
                       const int64_t *s, int line) {
  int64_t n[2][ASC_KS_MAX_DIMS], step[2][ASC_KS_MAX_DIMS], mult[2][ASC_KS_MAX_DIMS], burst[2];
  if (dims < 1 || dims > ASC_KS_MAX_DIMS)
    return asc_k_fail(k, line, "data_copy: %d SliceInfo dimensions (1 to %d are simulated)", dims,
                      ASC_KS_MAX_DIMS);
  for (int side = 0; side < 2; side++)
    if (asc_ks_plan(k, s + side * 5 * dims, dims, es, side ? "slice_list2" : "slice_list1", n[side],
                    step[side], mult[side], &burst[side], line))
      return 1;
  int64_t total = 1;
  for (int d = 0; d < dims; d++) {
    if (n[0][d] != n[1][d] || (d == 0 && burst[0] != burst[1]))
      return asc_k_fail(k, line,
                        "data_copy: dimension %d selects %lld bursts of %lld elements "
                        "in dst but %lld of %lld in src",
                        d, (long long)n[0][d], (long long)(d ? 1 : burst[0]), (long long)n[1][d],
                        (long long)(d ? 1 : burst[1]));
    total = asc_k_mul(total, n[0][d]);
  }
  for (int64_t j = 0; j < total; j++) {
    int64_t od = asc_ks_offset(s, dims, n[0], step[0], mult[0], j),
            os = asc_ks_offset(s + 5 * dims, dims, n[1], step[1], mult[1], j);
    int64_t lo = dir == 0 ? od : os, go = dir == 0 ? os : od;
    asc_k_lt l = asc_k_local_slice(lt, lo, es);
    asc_k_gt g = asc_k_global_slice(gt, go, es);
    if (dir == 0 ? asc_k_copy_gm_ub(k, l, g, burst[0], es, line)
                 : asc_k_copy_ub_gm(k, g, l, burst[0], es, line))
      return 1;
  }
  return 0;
}
static int asc_k_copy_slice_gm_ub(asc_k_ctx *k, asc_k_lt dst, asc_k_gt src, int dims, int64_t es,
                                  const int64_t *s, int line) __attribute__((unused));
static int asc_k_copy_slice_gm_ub(asc_k_ctx *k, asc_k_lt dst, asc_k_gt src, int dims, int64_t es,
                                  const int64_t *s, int line) {
  return asc_ks_copy(k, dst, src, 0, dims, es, s, line);
}
static int asc_k_copy_slice_ub_gm(asc_k_ctx *k, asc_k_gt dst, asc_k_lt src, int dims, int64_t es,
                                  const int64_t *s, int line) __attribute__((unused));
static int asc_k_copy_slice_ub_gm(asc_k_ctx *k, asc_k_gt dst, asc_k_lt src, int dims, int64_t es,
                                  const int64_t *s, int line) {
  return asc_ks_copy(k, src, dst, 1, dims, es, s, line);
}
