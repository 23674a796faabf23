/* --- waits on other blocks and cores: one deadlock detector -------------------
 * Every wait a core can be in until another block or core acts (sync_all,
 * ib_set/ib_wait, wait_pre_block, cross-core flags of every mode) runs
 * asc_k_wait: the core publishes what it waits for and at which line, then
 * looks at its condition in turns, yielding its thread, then sleeping in
 * slices of at most 20 ms that any change that may end a wait cuts short.
 * Each turn polls for cancellation and the watchdog (rt/core.h), so Ctrl-C
 * and PYASC_KERNEL_TIMEOUT_MS end every wait.
 *
 * A deadlock is settled when every live core of the launch waits and has
 * found its condition unsatisfied since the last change (seen == epoch),
 * and no other block can start (all have started, or every worker thread
 * runs one). A change is made first, then the epoch is bumped, and the
 * changing core is not waiting in between, so a wait that is about to end
 * is never taken for a deadlock. The first core to see it writes one report
 * listing every waiting core, its wait and its line; every waiting core
 * then fails with it (real hardware would hang). */

enum { ASC_K_CORE_IDLE, ASC_K_CORE_RUN, ASC_K_CORE_WAIT, ASC_K_CORE_DONE };
enum { ASC_K_W_SYNC_ALL = 1, ASC_K_W_IB_SET, ASC_K_W_IB_WAIT, ASC_K_W_PRE_BLOCK, ASC_K_W_CROSS };

typedef struct asc_k_wait asc_k_wait;
struct asc_k_wait {
  int kind; /* ASC_K_W_* */
  const char *api;
  int line;
  int64_t a, b; /* what it waits for, shown by asc_k_wait_name */
  /* 0: the wait ends now (having taken what it waited for); 1: not yet;
   * -1: it never can, and k failed saying why */
  int (*test)(asc_k_ctx *k, asc_k_wait *w);
  void *p; /* the test's data */
  int64_t want, awaited;
  int mode;
};

/* After a change that can end a wait: waiters look again. */
static inline void asc_k_wait_bump(asc_k_launch *L) {
  if (!L) return;
  __atomic_add_fetch(&L->epoch, 1, __ATOMIC_SEQ_CST);
  if (__atomic_load_n(&L->sleepers, __ATOMIC_SEQ_CST) && L->wake) L->wake(L);
}

/* What a wait is for (wdesc's low byte, wa, wb), as a report shows it. */
static inline void asc_k_wait_name(char *buf, size_t size, int64_t kind, int64_t a, int64_t b) {
  switch (kind & 255) {
    case ASC_K_W_SYNC_ALL:
      snprintf(buf, size, "sync_all");
      break;
    case ASC_K_W_IB_SET:
      snprintf(buf, size, "ib_set of block %lld's flag of event %lld (still set)", (long long)a,
               (long long)b);
      break;
    case ASC_K_W_IB_WAIT:
      snprintf(buf, size, "ib_wait for block %lld's flag of event %lld", (long long)a,
               (long long)b);
      break;
    case ASC_K_W_PRE_BLOCK:
      snprintf(buf, size, "wait_pre_block for block %lld (round %lld)", (long long)a, (long long)b);
      break;
    case ASC_K_W_CROSS:
      snprintf(buf, size, "cross_core_wait_flag(%lld, mode %lld)", (long long)a, (long long)b);
      break;
    default:
      snprintf(buf, size, "a wait");
      break;
  }
}

/* Core c (0: a block's only core or its AIC, 1 and 2 its AIVs) of block b
 * under the name the kernel knows it by (GetBlockIdx()). */
static inline int64_t asc_k_wait_core(int64_t slot, int tag) {
  return tag >= 2 ? 2 * (slot / 3) + (tag - 2) : slot / 3;
}

/* Appends the waiting cores to out: runs of cores of one kind with
 * consecutive numbers waiting for the same thing at one line are merged. */
static inline void asc_k_wait_list(asc_k_launch *L, char *out, size_t size) {
  size_t at = strlen(out);
  int64_t omitted = 0, items = 0, n = 3 * L->nblocks;
  for (int pass = 0; pass < 2; pass++) { /* blocks and AICs first, then AIVs */
    int64_t slot = pass == 0 ? 0 : 1;
    while (slot < n) {
      int64_t next = pass == 0 ? slot + 3 : (slot % 3 == 1 ? slot + 1 : slot + 2);
      if (__atomic_load_n(&L->cstate[slot], __ATOMIC_SEQ_CST) != ASC_K_CORE_WAIT) {
        slot = next;
        continue;
      }
      int64_t desc = __atomic_load_n(&L->wdesc[slot], __ATOMIC_SEQ_CST);
      int64_t kind = desc & 0xffff, line = desc >> 16;
      int64_t a = __atomic_load_n(&L->wa[slot], __ATOMIC_SEQ_CST);
      int64_t b = __atomic_load_n(&L->wb[slot], __ATOMIC_SEQ_CST);
      int tag = (int)(kind >> 8) & 3;
      int64_t first = asc_k_wait_core(slot, tag), last = first;
      for (;;) { /* extend the run */
        int64_t s = next;
        next = pass == 0 ? s + 3 : (s % 3 == 1 ? s + 1 : s + 2);
        if (s >= n || __atomic_load_n(&L->cstate[s], __ATOMIC_SEQ_CST) != ASC_K_CORE_WAIT ||
            (__atomic_load_n(&L->wdesc[s], __ATOMIC_SEQ_CST) & ~(int64_t)0xff00) !=
                (desc & ~(int64_t)0xff00) ||
            __atomic_load_n(&L->wa[s], __ATOMIC_SEQ_CST) != a ||
            __atomic_load_n(&L->wb[s], __ATOMIC_SEQ_CST) != b) {
          next = s;
          break;
        }
        last++;
      }
      slot = next;
      static const char *const kinds[] = {"block", "AIC", "AIV", "AIV"};
      char what[96], item[192];
      asc_k_wait_name(what, sizeof what, kind, a, b);
      if (first == last)
        snprintf(item, sizeof item, "%s%s %lld in %s (line %d)", items ? "; " : "", kinds[tag & 3],
                 (long long)first, what, ASC_K_LINE(line));
      else
        snprintf(item, sizeof item, "%s%ss %lld-%lld in %s (line %d)", items ? "; " : "",
                 kinds[tag & 3], (long long)first, (long long)last, what, ASC_K_LINE(line));
      size_t len = strlen(item);
      if (omitted || at + len + 24 >= size) {
        omitted += last - first + 1;
        continue;
      }
      memcpy(out + at, item, len + 1);
      at += len;
      items++;
    }
  }
  if (omitted) snprintf(out + at, size - at, "; %lld more waiting", (long long)omitted);
}

/* Whether the launch is deadlocked (see above); started and running count
 * its blocks. */
static inline int asc_k_wait_settled(asc_k_launch *L, int64_t *started, int64_t *running) {
  int64_t epoch = __atomic_load_n(&L->epoch, __ATOMIC_SEQ_CST);
  *started = *running = 0;
  for (int64_t i = 0; i < L->nblocks; i++) {
    int st = __atomic_load_n(&L->state[i], __ATOMIC_SEQ_CST);
    *started += st != 0;
    if (st != 1) continue;
    (*running)++;
    int waits = 0; /* a running block none of whose cores waits is about to end */
    for (int64_t s = 3 * i; s < 3 * i + 3; s++) {
      int cs = __atomic_load_n(&L->cstate[s], __ATOMIC_SEQ_CST);
      if (cs == ASC_K_CORE_RUN) return 0;
      if (cs == ASC_K_CORE_WAIT) {
        if (__atomic_load_n(&L->seen[s], __ATOMIC_SEQ_CST) != epoch) return 0;
        waits = 1;
      }
    }
    if (!waits) return 0;
  }
  if (*started < L->nblocks && *running < L->capacity) return 0;
  return __atomic_load_n(&L->epoch, __ATOMIC_SEQ_CST) == epoch;
}

/* The report of a settled deadlock, written once into L->report. */
static inline void asc_k_wait_report(asc_k_launch *L, int64_t started, int64_t running, int mixed) {
  if (started < L->nblocks)
    snprintf(L->report, ASC_K_REPORT_MAX,
             "all %lld running blocks wait while only %lld of %lld have started (%d run at "
             "once): inter-block synchronisation needs the blocks it waits for running; "
             "launch at most %d blocks. Waiting: ",
             (long long)running, (long long)started, (long long)L->nblocks, L->capacity,
             L->capacity);
  else
    snprintf(L->report, ASC_K_REPORT_MAX,
             "every running %s waits and no wait can end (the device would hang): ",
             mixed ? "core" : "block");
  asc_k_wait_list(L, L->report, ASC_K_REPORT_MAX);
}

/* Waits until w->test passes; 0, or 1 with k failed. */
static inline int asc_k_wait_for(asc_k_ctx *k, asc_k_wait *w) {
  int r = w->test(k, w);
  if (r <= 0) return r < 0;
  asc_k_launch *L = k->sys.launch;
  const int64_t me = k->sys.slot;
  if (!L || me < 0 || me >= 3 * L->nblocks)
    return asc_k_fail(k, w->line, "%s: internal error: the wait has no launch state", w->api);
  const int tag = k->mixed ? (int)(me % 3) + 1 : 0;
  /* kind, core tag, line (file index << 20 | line: 32 bits) */
  __atomic_store_n(&L->wdesc[me],
                   (int64_t)w->kind | (int64_t)tag << 8 | (int64_t)(uint32_t)w->line << 16,
                   __ATOMIC_SEQ_CST);
  __atomic_store_n(&L->wa[me], w->a, __ATOMIC_SEQ_CST);
  __atomic_store_n(&L->wb[me], w->b, __ATOMIC_SEQ_CST);
  __atomic_store_n(&L->cstate[me], ASC_K_CORE_WAIT, __ATOMIC_SEQ_CST);
  int rc = 0;
  for (unsigned spins = 0;; spins++) {
    int64_t epoch = __atomic_load_n(&L->epoch, __ATOMIC_SEQ_CST), started, running;
    if (__atomic_load_n(&L->report_ready, __ATOMIC_SEQ_CST)) {
      rc = asc_k_fail(k, w->line, "%s: deadlock: %.600s", w->api, L->report);
      break;
    }
    if ((r = w->test(k, w)) <= 0) {
      rc = r < 0;
      break;
    }
    __atomic_store_n(&L->seen[me], epoch, __ATOMIC_SEQ_CST);
    if (__atomic_load_n(&L->failed, __ATOMIC_SEQ_CST)) {
      int quote = __atomic_load_n(&L->why_ready, __ATOMIC_SEQ_CST) == 2;
      rc = asc_k_fail(k, w->line, "%s: another block failed %s (%.400s)", w->api,
                      w->kind == ASC_K_W_SYNC_ALL ? "before reaching it" : "while this one waited",
                      quote ? L->why : "no message");
      break;
    }
    if (asc_k_wait_settled(L, &started, &running)) {
      int zero = 0;
      if (__atomic_compare_exchange_n(&L->deadlock, &zero, 1, 0, __ATOMIC_SEQ_CST,
                                      __ATOMIC_SEQ_CST)) {
        asc_k_wait_report(L, started, running, k->mixed);
        __atomic_store_n(&L->report_ready, 1, __ATOMIC_SEQ_CST);
        asc_k_wait_bump(L);
        continue; /* the report is read at the top */
      }
    }
    if ((rc = asc_k_poll_slow(k, w->line, w->api))) break; /* Ctrl-C, the watchdog */
    if (spins < 64 || !L->sleep) {
      if (L->pause) L->pause(spins);
    } else {
      L->sleep(L, epoch);
    }
  }
  __atomic_store_n(&L->seen[me], 0, __ATOMIC_SEQ_CST);
  __atomic_store_n(&L->cstate[me], ASC_K_CORE_RUN, __ATOMIC_SEQ_CST);
  return rc;
}

/* --- sync_all: every block of the launch meets here ------------------------------
 * A kernel that calls it runs each block on a thread of its own (the launch
 * refuses more blocks than cores, as the hardware would hang). A core's
 * r-th sync_all ends when r * n arrivals were counted, n the cores that
 * meet: the launch's blocks, or in a mixed kernel every core of the
 * caller's kind (AIVs meet AIVs, AICs AICs). used_cores other than 0 (all)
 * or the block count is not simulated. The soft form's workspaces are
 * checked as documented (int32, core count * 32 bytes) but hold no flags
 * here. */
static inline int asc_k_sync_test(asc_k_ctx *k, asc_k_wait *w) {
  asc_k_launch *L = k->sys.launch;
  int64_t *arrivals = &L->sync_arrivals[w->mode];
  if (__atomic_load_n(arrivals, __ATOMIC_SEQ_CST) >= w->want) return 0;
  /* a core that finished never arrives again (it arrived before it ended,
   * so its arrivals are counted by the time its end is seen) */
  int done = 0;
  for (int64_t b = 0; b < L->nblocks && !done; b++)
    for (int c = 0; c < 3 && !done; c++)
      if (!k->mixed ? c == 0 : w->mode ? c == 0 : c != 0)
        done = __atomic_load_n(&L->cstate[3 * b + c], __ATOMIC_SEQ_CST) == ASC_K_CORE_DONE;
  if (!done || __atomic_load_n(arrivals, __ATOMIC_SEQ_CST) >= w->want) return !done ? 1 : 0;
  if (__atomic_load_n(&L->failed, __ATOMIC_SEQ_CST)) return 1; /* reported as a failure */
  asc_k_fail(k, w->line,
             "sync_all: a block finished without reaching this sync_all (every block must call "
             "it as often; real hardware would hang)");
  return -1;
}
static inline int asc_k_sync_all(asc_k_ctx *k, int64_t used, int line) {
  if (used < 0 || used > k->block_num)
    return asc_k_fail(k, line, "sync_all: used_cores %lld is outside [0, %lld] (the block count)",
                      (long long)used, (long long)k->block_num);
  if (used != 0 && used != k->block_num)
    return asc_k_fail(k, line,
                      "sync_all: used_cores %lld: only all %lld blocks of the launch can meet "
                      "(used_cores 0) on the simulator",
                      (long long)used, (long long)k->block_num);
  if (k->block_num == 1) return 0;
  asc_k_launch *L = k->sys.launch;
  if (!k->all_live || !L) /* the launcher knows from asc_kernel_all_live (emit_c.c) */
    return asc_k_fail(k, line, "sync_all: internal error: the blocks were not launched together");
  const int aic = k->mixed && k->core_kind == 1;
  const int64_t n = k->mixed && !aic ? 2 * L->nblocks : L->nblocks;
  asc_k_wait w = {.kind = ASC_K_W_SYNC_ALL,
                  .api = "sync_all",
                  .line = line,
                  .test = asc_k_sync_test,
                  .want = asc_k_mul(++k->sys.syncs, n),
                  .mode = aic};
  if (w.want < 0) return asc_k_fail(k, line, "sync_all: too many calls");
  __atomic_add_fetch(&L->sync_arrivals[aic], 1, __ATOMIC_SEQ_CST);
  asc_k_wait_bump(L);
  return asc_k_wait_for(k, &w);
}
