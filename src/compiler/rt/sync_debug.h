/* --- debugging ------------------------------------------------------------------------- */
/* dump_tensor: one line per call, "[block B] dump_tensor desc=D WHAT<dtype>,
 * N elements: [v0, v1, ...]"; floats print with enough digits to read
 * back exactly. Written in chunks so that blocks rarely interleave. */
/* Elements come from p (UB), or from g's argument if g is not NULL (read as
 * asc_k_gm_read does: zeros outside it). */
static inline int asc_k_dump(asc_k_ctx *k, int dt, const char *p, const asc_k_gt *g, int64_t desc,
                             int64_t n, const char *what, const char *dtname) {
  char buf[4096];
  size_t len =
      (size_t)snprintf(buf, sizeof buf,
                       "[block %lld] dump_tensor desc=%lld %s<%s>, %lld "
                       "elements: [",
                       (long long)k->block_idx, (long long)desc, what, dtname, (long long)n);
  int digits = dt == ASC_K_DT_FLOAT16 ? 5 : dt == ASC_K_DT_BFLOAT16 ? 4 : 9;
  for (int64_t i = 0; i < n; i++) {
    if (len > sizeof buf - 64) {
      fwrite(buf, 1, len, stdout);
      len = 0;
    }
    const char *sep = i ? ", " : "";
    char gm[8];
    const char *e = gm;
    if (g)
      asc_k_gm_read(g, asc_k_madd(g->lead, i, asc_k_dt_size(dt)), gm, asc_k_dt_size(dt));
    else
      e = p + i * asc_k_dt_size(dt);
    if (asc_k_dt_float(dt))
      len += (size_t)snprintf(buf + len, sizeof buf - len, "%s%.*g", sep, digits, asc_k_ld(dt, e));
    else
      len +=
          (size_t)snprintf(buf + len, sizeof buf - len, "%s%lld", sep, (long long)asc_k_ldi(dt, e));
  }
  len += (size_t)snprintf(buf + len, sizeof buf - len, "]\n");
  fwrite(buf, 1, len, stdout);
  fflush(stdout);
  return 0;
}
/* Debug reads: bounds (and extents in checked mode) but no pipe ordering. */
static inline int asc_k_dump_local(asc_k_ctx *k, int dt, asc_k_lt t, int64_t desc, int64_t n,
                                   const char *what, const char *dtname, int line) {
  if (n < 0) return asc_k_fail(k, line, "dump_tensor: negative dump_size %lld", (long long)n);
  if (asc_k_ub_range(k, t, n, asc_k_dt_size(dt), "dump_tensor", line)) return 1;
  return asc_k_dump(k, dt, k->ub + t.off, NULL, desc, n, what, dtname);
}
static inline int asc_k_dump_global(asc_k_ctx *k, int dt, asc_k_gt g, int64_t desc, int64_t n,
                                    const char *dtname, int line) {
  if (n < 0) return asc_k_fail(k, line, "dump_tensor: negative dump_size %lld", (long long)n);
  if (asc_k_gm_range(k, &g, 0, n, asc_k_dt_size(dt), "dump_tensor", line)) return 1;
  return asc_k_dump(k, dt, NULL, &g, desc, n, "GlobalTensor", dtname);
}
static inline int asc_k_trap(asc_k_ctx *k, int line) {
  return asc_k_fail(k, line, "trap(): the kernel stopped itself");
}
