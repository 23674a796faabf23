/* Part of ascendc_rt.c, included only from it: vec_more's tensor lists
 * (ListTensorDesc), GroupBarrier and InitOutput/Fill for Ascend C, each a
 * thin adapter over the runtime's functions (rt/tensor_desc.h, rt/system.h's
 * GM flags and waits, rt/fwk.h's GM store). */

/* ListTensorDesc and TensorDesc (rt/tensor_desc.h): v what, length, shapeSize, index, offset.
 * A data pointer comes back as the memory the runtime found behind it, 0 if none. */
static int sim_list_desc(asc_k_ctx *k, pyasc_sim_gt g, const int64_t *v, int64_t *out, int L) {
  asc_k_addr a = {g.base, g.n, g.lead}, r = {NULL, 0, 0};
  switch (v[0]) {
    case 0:
      return asc_k_ltd_init(k, a, v[1], v[2], L);
    case 1:
      return asc_k_ltd_get_size(k, out, a, v[1], v[2], L);
    case 2:
      return asc_k_td_get_dim(k, out, a, v[1], v[2], v[3], L);
    case 3:
      return asc_k_td_get_index(k, out, a, v[1], v[2], v[3], L);
    case 4:
      return asc_k_td_get_shape(k, out, a, v[1], v[2], v[3], v[4], L);
    case 6:
      return asc_k_ltd_get_desc(k, a, v[1], v[2], v[3], L);
    case 5:
      if (asc_k_ltd_get_data_ptr(k, &r, a, v[1], v[2], v[3], 0, L)) return 1;
      *out = r.base ? (int64_t)(intptr_t)(r.base + r.lead) : 0;
      return 0;
    default:
      return asc_k_fail(k, L, "ListTensorDesc: unknown query %lld", (long long)v[0]);
  }
}

/* GroupBarrier: waiter j's messages are the flag at byte 512 j of the
 * workspace (rt/system.h's flags), which every Arrive increments; the r-th
 * Wait of waiter j ends once r * arriveSize arrivals reached it. */
static int sim_group_barrier(asc_k_ctx *k, int wait, pyasc_sim_gt g, const int64_t *v, int L) {
  const char *api = wait ? "GroupBarrier::Wait" : "GroupBarrier::Arrive";
  const int64_t arrive = v[0], waiters = v[1], index = v[2];
  if (arrive < 1 || waiters < 1)
    return asc_k_fail(k, L, "%s: arriveSize and waitSize must be at least 1", api);
  if (index < 0 || index >= (wait ? waiters : arrive))
    return asc_k_fail(k, L, "%s: index %lld is outside [0, %lld)", api, (long long)index,
                      (long long)(wait ? waiters : arrive));
  asc_k_gt w = gt_in(g);
  if (wait) {
    int64_t want = asc_k_mul(v[3], arrive);
    if (want > INT32_MAX) return asc_k_fail(k, L, "%s: too many rounds", api);
    int32_t *flag = asc_k_sys_flag(k, &w, asc_k_mul(index, 16), api, L);
    return !flag || asc_k_sys_wait(k, flag, 1, (int32_t)want, -1, 0, index, v[3], api, L);
  }
  for (int64_t j = 0; j < waiters; j++) {
    int32_t *flag = asc_k_sys_flag(k, &w, asc_k_mul(j, 16), api, L);
    if (!flag) return 1;
    __atomic_add_fetch(flag, 1, __ATOMIC_SEQ_CST);
  }
  asc_k_sys_bump(k);
  return 0;
}

/* InitOutput/Fill: count elements of dt set to value, stored as a copy from
 * the UB stores them (the atomic mode applies). */
static int sim_gm_fill(asc_k_ctx *k, pyasc_sim_gt g, int dt, int64_t count, double value, int L) {
  int64_t es = asc_k_dt_size(dt);
  char chunk[256];
  if (es < 1 || es > 8) return asc_k_fail(k, L, "InitOutput: unknown dtype %d", dt);
  /* CANN's InitGlobalMemory fills from the UB: on a cube core (a __cube__
   * kernel's, or a mix kernel's AIC) it returns at once */
  if (k->core_kind == 1) return 0;
  asc_k_gt d = gt_in(g);
  if (asc_k_gm_range(k, &d, 0, count, es, "InitOutput", L)) return 1;
  for (int64_t i = 0; i < (int64_t)sizeof chunk / es; i++)
    asc_k_cast_store(dt, chunk + i * es, value, 1);
  for (int64_t i = 0; i < count; i += (int64_t)sizeof chunk / es) {
    int64_t n = count - i < (int64_t)sizeof chunk / es ? count - i : (int64_t)sizeof chunk / es;
    if (asc_k_gm_store(k, &d, asc_k_madd(d.lead, i, es), chunk, n * es, es, "InitOutput", L))
      return 1;
  }
  return 0;
}
