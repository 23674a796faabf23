/* --- system and hardware (api_table.def "system and hardware") -----------------------
 * The simulated core has no data or instruction cache, no profiler and no
 * HCCL: cache maintenance, preloads and profiling marks check their
 * arguments and change nothing a program can observe. What a program can
 * observe is real: the system counter (the host's monotonic clock at the
 * 50 MHz rate GetSystemCycle documents), the workspace and HCCL context
 * registers of a block, and inter-block synchronisation through flags in
 * global memory, which really waits for the other blocks. */
#include <time.h>

/* The launcher's monotonic clock (C11's timespec_get, which may step, when a
 * block runs without one) at 50 MHz. */
static inline int64_t asc_k_sys_cycles(const asc_k_ctx *k) {
  if (k->sys.launch && k->sys.launch->clock_ns) return k->sys.launch->clock_ns() / 20;
  struct timespec ts;
  timespec_get(&ts, TIME_UTC);
  return (int64_t)ts.tv_sec * 50000000 + (int64_t)ts.tv_nsec / 20;
}
static inline int asc_k_get_system_cycle(asc_k_ctx *k, int64_t *r, int line) {
  (void)line;
  *r = asc_k_sys_cycles(k);
  return 0;
}
/* The simulated core executes the kernel's source: its program counter is
 * the source location (file index << 20 | line) of the call. */
static inline int asc_k_get_program_counter(asc_k_ctx *k, int64_t *r, int line) {
  (void)k;
  *r = (int64_t)(unsigned)line;
  return 0;
}
static inline int asc_k_print_time_stamp(asc_k_ctx *k, int64_t desc_id, int line) {
  if (desc_id < 0 || desc_id > 0xffffffffLL)
    return asc_k_fail(k, line, "print_time_stamp: desc_id %lld is not a uint32",
                      (long long)desc_id);
  printf("[block %lld] time_stamp desc_id=%lld rsv=0 time_stamp=%lld pc_ptr=%#x entry=0\n",
         (long long)k->block_idx, (long long)desc_id, (long long)asc_k_sys_cycles(k),
         (unsigned)line);
  fflush(stdout);
  return 0;
}
static inline int asc_k_get_icache_preload_status(asc_k_ctx *k, int64_t *r, int line) {
  (void)k, (void)line;
  *r = 0; /* idle: there is no instruction cache to fill */
  return 0;
}
/* The vector cores a cube core's group has, as an AIV sees it (CANN: 2 in a mixed kernel's
 * group of an AIC and two AIVs); 1 on an AIC and in coupled mode (one vector core per AI core). */
static inline int asc_k_get_task_ratio(asc_k_ctx *k, int64_t *r, int line) {
  (void)line;
  *r = k->mixed && k->core_kind != 1 ? k->sub_block_num : 1;
  return 0;
}
/* InitSocState: the global state a previous kernel may leave behind; here
 * the vector mask register and its mode. */
static inline int asc_k_init_soc_state(asc_k_ctx *k, int line) {
  (void)line;
  asc_k_vm_init(k);
  return 0;
}
static inline int asc_k_data_cache_preload(asc_k_ctx *k, asc_k_gt g, int64_t offset, int line) {
  (void)g;
  if (offset < 0)
    return asc_k_fail(k, line, "data_cache_preload: negative cache_offset %lld", (long long)offset);
  return 0;
}
static inline int asc_k_icache_preload(asc_k_ctx *k, int64_t len, int line) {
  if (len < 0)
    return asc_k_fail(k, line, "icache_preload: negative pre_fetch_len %lld", (long long)len);
  return 0;
}
/* CheckLocalMemoryIA: the register's fields are range-checked as the
 * hardware's field widths require (enable_bit 2 bits, addresses 16 bits of
 * 32-byte units, start before end when enabled). An enabled register traps
 * the chosen accesses to its range (asc_k_ia_trap, rt/memory.h); is_enable
 * False clears it. */
static inline int asc_k_check_local_memory_ia(asc_k_ctx *k, int64_t enable_bit, int64_t start,
                                              int64_t end, int sr, int sw, int vr, int vw, int mr,
                                              int mw, int enable, int line) {
  if (enable_bit < 0 || enable_bit > 3)
    return asc_k_fail(k, line, "check_local_memory_ia: enable_bit %lld is outside [0, 3]",
                      (long long)enable_bit);
  if (start < 0 || start > 65535 || end < 0 || end > 65535)
    return asc_k_fail(k, line,
                      "check_local_memory_ia: start_addr %lld and end_addr %lld must be in "
                      "[0, 65535] (32-byte units)",
                      (long long)start, (long long)end);
  if (enable && start >= end)
    return asc_k_fail(k, line,
                      "check_local_memory_ia: the range (start_addr, end_addr] = (%lld, %lld] "
                      "is empty",
                      (long long)start, (long long)end);
  /* (start, end] in 32-byte blocks: the blocks after start up to end */
  int r = (int)enable_bit;
  k->sys.ia_flags[r] = enable ? (unsigned char)((sr != 0) | (sw != 0) << 1 | (vr != 0) << 2 |
                                                (vw != 0) << 3 | (mr != 0) << 4 | (mw != 0) << 5)
                              : 0;
  k->sys.ia_lo[r] = (start + 1) * 32;
  k->sys.ia_hi[r] = (end + 1) * 32;
  k->sys.ia_on = k->sys.ia_flags[0] | k->sys.ia_flags[1] | k->sys.ia_flags[2] | k->sys.ia_flags[3];
  return 0;
}
/* dump_acc_chk_point: dump_size elements from element count_off. */
static inline int asc_k_dump_acc_chk_point(asc_k_ctx *k, int dt, int global, asc_k_lt t, asc_k_gt g,
                                           int64_t index, int64_t off, int64_t n,
                                           const char *dtname, int line) {
  if (off < 0 || n < 0)
    return asc_k_fail(k, line, "dump_acc_chk_point: negative count_off or dump_size");
  if (global) {
    if (asc_k_gm_range(k, &g, off, n, asc_k_dt_size(dt), "dump_acc_chk_point", line)) return 1;
    asc_k_gt at = asc_k_global_slice(g, off, asc_k_dt_size(dt));
    return asc_k_dump(k, dt, NULL, &at, index, n, "GlobalTensor", dtname);
  }
  asc_k_lt at = asc_k_local_slice(t, off, asc_k_dt_size(dt));
  if (asc_k_ub_range(k, at, n, asc_k_dt_size(dt), "dump_acc_chk_point", line)) return 1;
  return asc_k_dump(k, dt, k->ub + at.off, NULL, index, n, "LocalTensor", dtname);
}
/* --- system registers: workspace and HCCL context addresses ---------------- */
static inline int asc_k_set_sys_workspace(asc_k_ctx *k, asc_k_addr a, int line) {
  (void)line;
  k->sys.ws_base = a.base, k->sys.ws_n = a.n, k->sys.ws_lead = a.lead;
  return 0;
}
/* Before set_sys_workspace the register holds no memory: accesses through
 * it read zeros and drop writes (checked mode reports them). */
static inline int asc_k_get_sys_workspace(asc_k_ctx *k, asc_k_addr *r, int line) {
  (void)line;
  r->base = k->sys.ws_base, r->n = k->sys.ws_n, r->lead = k->sys.ws_lead;
  return 0;
}
static inline int asc_k_set_hccl_context(asc_k_ctx *k, asc_k_addr a, int64_t i, int line) {
  if (i < 0 || i > 1)
    return asc_k_fail(k, line, "set_hccl_context: index %lld is not 0 or 1", (long long)i);
  k->sys.hccl_base[i] = a.base, k->sys.hccl_n[i] = a.n, k->sys.hccl_lead[i] = a.lead;
  return 0;
}
static inline int asc_k_get_hccl_context(asc_k_ctx *k, asc_k_addr *r, int64_t i, int line) {
  if (i < 0 || i > 1)
    return asc_k_fail(k, line, "get_hccl_context: index %lld is not 0 or 1", (long long)i);
  r->base = k->sys.hccl_base[i], r->n = k->sys.hccl_n[i], r->lead = k->sys.hccl_lead[i];
  return 0;
}
/* --- inter-block synchronisation through flags in global memory -----------
 * A flag is the first int32 of a 32-byte slot of the GM workspace, read and
 * written atomically. A block that waits looks at it (yielding its thread,
 * then sleeping until a change: rt/wait.h) until it is as wanted. Blocks
 * run on a pool of worker threads in index order, so a wait can also never
 * end: when every running block waits and no other block can start (all
 * have started, or every thread runs a waiting block), or the awaited
 * block has finished or another has failed, the wait fails naming the
 * deadlock instead of hanging, as the hardware would hang when a launch
 * has more blocks than cores. */
static inline int32_t *asc_k_sys_flag(asc_k_ctx *k, const asc_k_gt *g, int64_t slot,
                                      const char *api, int line) {
  int64_t at = asc_k_madd(g->lead, slot, 32);
  if (slot < 0 || !asc_k_span_in(at, 32, g->n)) {
    asc_k_fail(k, line,
               "%s: the flag's 32-byte slot %lld is outside the GM workspace (%lld bytes from "
               "this view)",
               api, (long long)slot, (long long)asc_k_sub(g->n, g->lead));
    return NULL;
  }
  if ((uintptr_t)(g->base + at) % 4) {
    asc_k_fail(k, line, "%s: the GM workspace is not 4-byte aligned", api);
    return NULL;
  }
  return (int32_t *)(void *)(g->base + at);
}
/* Mirrors the flag's slot into the UB workspace, as the hardware's copy does. */
static inline int asc_k_sys_ub(asc_k_ctx *k, asc_k_lt ub, int32_t value, const char *api,
                               int line) {
  if (asc_k_ub_range(k, ub, 8, 4, api, line)) return 1;
  int32_t slot[8] = {value, 0, 0, 0, 0, 0, 0, 0};
  memcpy(k->ub + ub.off, slot, sizeof slot);
  return 0;
}
/* After a flag write: waiters look again (rt/wait.h). */
static inline void asc_k_sys_bump(asc_k_ctx *k) {
  asc_k_wait_bump(k->sys.launch);
}
/* mode 0: until *flag == want; mode 1: until *flag >= want. awaited: the
 * block expected to change the flag, -1 if any: its end without the change
 * ends the wait with an error. */
#define ASC_K_SYS_OK(v) (w->mode ? (v) >= w->want : (v) == w->want)
static inline int asc_k_sys_test(asc_k_ctx *k, asc_k_wait *w) {
  int32_t *flag = (int32_t *)w->p;
  if (ASC_K_SYS_OK(__atomic_load_n(flag, __ATOMIC_SEQ_CST))) return 0;
  asc_k_launch *L = k->sys.launch;
  if (L && w->awaited >= 0 && w->awaited < L->nblocks && w->awaited != k->block_idx &&
      __atomic_load_n(&L->state[w->awaited], __ATOMIC_SEQ_CST) == 2 &&
      !__atomic_load_n(&L->failed, __ATOMIC_SEQ_CST) &&
      !ASC_K_SYS_OK(__atomic_load_n(flag, __ATOMIC_SEQ_CST))) {
    asc_k_fail(k, w->line,
               "%s: deadlock: block %lld finished without setting the flag this block waits "
               "for",
               w->api, (long long)w->awaited);
    return -1;
  }
  return 1;
}
#undef ASC_K_SYS_OK
static inline int asc_k_sys_wait(asc_k_ctx *k, int32_t *flag, int mode, int32_t want,
                                 int64_t awaited, int kind, int64_t a, int64_t b, const char *api,
                                 int line) {
  asc_k_wait w = {.kind = kind,
                  .api = api,
                  .line = line,
                  .a = a,
                  .b = b,
                  .test = asc_k_sys_test,
                  .p = flag,
                  .want = want,
                  .awaited = awaited,
                  .mode = mode};
  int r = asc_k_sys_test(k, &w);
  if (r <= 0) return r < 0;
  if (!k->sys.launch || k->sys.launch->nblocks <= 1)
    return asc_k_fail(k, line,
                      "%s: deadlock: the launch has one block, so no other block can "
                      "change the flag it waits for",
                      api);
  return asc_k_wait_for(k, &w);
}
static inline int asc_k_ib_check(asc_k_ctx *k, int64_t block, int64_t event, const char *api,
                                 int line) {
  if (block < 0 || block >= k->block_num)
    return asc_k_fail(k, line, "%s: block_idx %lld is outside [0, %lld)", api, (long long)block,
                      (long long)k->block_num);
  if (event < 0) return asc_k_fail(k, line, "%s: negative event_id %lld", api, (long long)event);
  return 0;
}
/* IBSet: waits until block_idx's flag of event_id is clear, then sets it.
 * The slot is (block_num * event_id + block_idx). */
static inline int asc_k_ib_set(asc_k_ctx *k, asc_k_gt g, asc_k_lt ub, int64_t block, int64_t event,
                               int64_t aiv_only, int line) {
  (void)aiv_only; /* the lowering accepts is_aiv_only=True only */
  if (asc_k_ib_check(k, block, event, "ib_set", line)) return 1;
  int32_t *flag = asc_k_sys_flag(k, &g, asc_k_madd(block, k->block_num, event), "ib_set", line);
  if (!flag || asc_k_sys_wait(k, flag, 0, 0, -1, ASC_K_W_IB_SET, block, event, "ib_set", line))
    return 1;
  __atomic_store_n(flag, 1, __ATOMIC_SEQ_CST);
  asc_k_sys_bump(k);
  return asc_k_sys_ub(k, ub, 1, "ib_set", line);
}
/* IBWait: waits until block_idx's flag of event_id is set, then clears it. */
static inline int asc_k_ib_wait(asc_k_ctx *k, asc_k_gt g, asc_k_lt ub, int64_t block, int64_t event,
                                int64_t aiv_only, int line) {
  (void)aiv_only; /* the lowering accepts is_aiv_only=True only */
  if (asc_k_ib_check(k, block, event, "ib_wait", line)) return 1;
  int32_t *flag = asc_k_sys_flag(k, &g, asc_k_madd(block, k->block_num, event), "ib_wait", line);
  if (!flag || asc_k_sys_wait(k, flag, 0, 1, block, ASC_K_W_IB_WAIT, block, event, "ib_wait", line))
    return 1;
  __atomic_store_n(flag, 0, __ATOMIC_SEQ_CST);
  asc_k_sys_bump(k);
  return asc_k_sys_ub(k, ub, 0, "ib_wait", line);
}
/* notify_next_block / wait_pre_block: slot b counts the notifications
 * block b received. Round r (the r-th wait_pre_block of a block) of block
 * b > 0 waits for r of them; block 0 starts the first round at once and
 * waits for the last block's notification before each later one. */
static inline int asc_k_notify_next_block(asc_k_ctx *k, asc_k_gt g, asc_k_lt ub, int line) {
  int64_t next = (k->block_idx + 1) % k->block_num;
  int32_t *flag = asc_k_sys_flag(k, &g, next, "notify_next_block", line);
  if (!flag) return 1;
  int32_t v = __atomic_add_fetch(flag, 1, __ATOMIC_SEQ_CST);
  asc_k_sys_bump(k);
  return asc_k_sys_ub(k, ub, v, "notify_next_block", line);
}
static inline int asc_k_wait_pre_block(asc_k_ctx *k, asc_k_gt g, asc_k_lt ub, int line) {
  int64_t b = k->block_idx, round = ++k->sys.pre_waits;
  int32_t *flag = asc_k_sys_flag(k, &g, b, "wait_pre_block", line);
  if (!flag) return 1;
  int64_t want = b == 0 ? round - 1 : round;
  if (want > INT32_MAX) return asc_k_fail(k, line, "wait_pre_block: too many rounds");
  int64_t prev = (b + k->block_num - 1) % k->block_num;
  if (asc_k_sys_wait(k, flag, 1, (int32_t)want, prev, ASC_K_W_PRE_BLOCK, prev, round,
                     "wait_pre_block", line))
    return 1;
  return asc_k_sys_ub(k, ub, __atomic_load_n(flag, __ATOMIC_SEQ_CST), "wait_pre_block", line);
}
