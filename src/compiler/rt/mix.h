/* Core groups of the simulated 910B: a mixed (cube + vector) kernel's
 * launch of N blocks runs N groups of one AIC and two AIVs, as the device
 * does under MIX mode. Each core of a group is its own thread with its own
 * context (Unified Buffer, checked-mode state, cube buffers), so the
 * cross-core flags synchronise them for real: a wait blocks until the
 * cores it listens to have set the flag.
 *
 * What a core sees (Ascend C's rules): on the AIC, GetBlockIdx() is the
 * group's index; on an AIV it is 2 * group + GetSubBlockIdx() (0 or 1);
 * GetBlockNum() is the number of groups on both; GetSubBlockNum() is 2 on
 * an AIV and 1 on the AIC. A kernel of one core kind runs one core per
 * block, whose flags form a group of one.
 *
 * Flag modes (CrossCoreSetFlag<mode>): 0 synchronises every core of the
 * same kind in the launch, 1 the two AIVs of a group, 2 the AIC with its
 * two AIVs (an AIC's set releases a wait on each AIV; the AIC's wait needs
 * a set from both). Every flag is a counter per receiving core: a wait
 * consumes one set from each core it listens to. Mode 0 over more than one
 * block needs every block running at once: such a kernel is launched
 * all-live (emit_c.c, jit.c: more blocks than the device's cores, or
 * groups than its AIC, are an InvalidValueError), and its mode-0 flags
 * live on the launch's board (asc_km_board), shared by every core.
 *
 * A wait that can never be released (every other core of the group waits
 * for something that cannot come, or has finished) is a KernelError at
 * its line: the device would hang there. Every wait is rt/wait.h's, whose
 * detector also sees deadlocks across groups and wait kinds. Only kernels
 * that use the flags or core kinds define ASC_K_MIX (emit_c.c). */
#if defined(ASC_K_MIX) && !defined(ASC_RT_MIX_H)
#define ASC_RT_MIX_H

#include <pthread.h>

#define ASC_KM_FLAGS 16 /* flag ids 0..15 (Ascend C documents 0..10 for users) */
#define ASC_KM_MAX_PENDING 15
#define ASC_KM_CORES 3 /* a group: core 0 the AIC, 1 and 2 the AIVs */

typedef int (*asc_km_run_fn)(asc_k_ctx *k, const asc_k_arg *args);

/* Mode-0 flags of an all-live launch of more than one block: per core
 * kind (0 AIV, 1 AIC) and core of that kind (its GetBlockIdx()), the sets
 * made and waits passed per flag. A wait of core c passes when every core
 * of its kind has set the flag more often than c has waited on it. */
typedef struct asc_km_board {
  pthread_mutex_t mu;
  int64_t n[2];                /* cores of each kind */
  int64_t *sets[2], *waits[2]; /* n[kind] x ASC_KM_FLAGS each */
  unsigned char *done[2];      /* core finished */
  int failed;                  /* a core failed: waiters give up */
  char why[256];               /* the first failed core's message */
} asc_km_board;

static void asc_km_board_free(void *p) {
  asc_km_board *b = (asc_km_board *)p;
  if (!b) return;
  pthread_mutex_destroy(&b->mu);
  for (int i = 0; i < 2; i++) free(b->sets[i]), free(b->waits[i]), free(b->done[i]);
  free(b);
}
/* The launch's board, made by whichever core comes first (NULL: out of
 * memory). n_aiv and n_aic are the core counts of the launch. */
static asc_km_board *asc_km_board_get(asc_k_launch *s, int64_t n_aiv, int64_t n_aic) {
  asc_km_board *b = (asc_km_board *)__atomic_load_n(&s->board, __ATOMIC_ACQUIRE);
  if (b) return b;
  b = (asc_km_board *)calloc(1, sizeof *b);
  if (!b) return NULL;
  pthread_mutex_init(&b->mu, NULL);
  b->n[0] = n_aiv, b->n[1] = n_aic;
  for (int i = 0; i < 2; i++) {
    size_t cores = (size_t)(b->n[i] > 0 ? b->n[i] : 1); /* <= 2 * 65535 */
    b->sets[i] = (int64_t *)calloc(cores * ASC_KM_FLAGS, sizeof(int64_t));
    b->waits[i] = (int64_t *)calloc(cores * ASC_KM_FLAGS, sizeof(int64_t));
    b->done[i] = (unsigned char *)calloc(cores, 1);
    if (!b->sets[i] || !b->waits[i] || !b->done[i]) {
      asc_km_board_free(b);
      return NULL;
    }
  }
  return (asc_km_board *)asc_k_launch_publish(&s->board, &s->board_free, b, asc_km_board_free);
}

typedef struct asc_km_group {
  pthread_mutex_t mu;
  int mixed;  /* 1: AIC + 2 AIVs; 0: one core of one kind */
  int ncores; /* 3 or 1 */
  int64_t nblocks;
  /* per core, mode and flag: sets made and waits passed */
  int64_t sets[ASC_KM_CORES][3][ASC_KM_FLAGS];
  int64_t waits[ASC_KM_CORES][3][ASC_KM_FLAGS];
  int done[ASC_KM_CORES];
  int waiting[ASC_KM_CORES]; /* 1 + mode * ASC_KM_FLAGS + flag, 0 if running */
  int failed;                /* a core failed: others give up their waits */
  int first_fail;            /* the core that failed first, -1 */
  asc_km_board *board;       /* mode 0 over more than one block, else NULL */
} asc_km_group;

/* The group core a context runs as (index into the arrays above). */
static inline int asc_km_self(const asc_k_ctx *k) {
  const asc_km_group *g = (const asc_km_group *)k->group;
  if (!g->mixed) return 0;
  return k->core_kind == 1 ? 0 : 1 + (int)k->sub_block_idx;
}

/* The cores whose sets release a wait of core `me` in mode `mode`; their
 * count, or 0 if the mode means nothing for that core. */
static int asc_km_sources(const asc_km_group *g, int me, int mode, int *src) {
  if (!g->mixed) {
    if (mode != 0) return 0;
    src[0] = 0;
    return 1;
  }
  if ((mode == 0 && me == 0) || (mode == 2 && me != 0)) {
    src[0] = 0;
    return 1;
  }
  if (mode == 1 && me == 0) return 0;
  src[0] = 1, src[1] = 2;
  return 2;
}

/* The mode of an Ascend C wait: on A2 (dav-2201) CrossCoreWaitFlag's modeId
 * has no effect, a wait takes one from its core's counter of the flag,
 * whichever mode's sets raised it. */
#define ASC_KM_ANY 3

/* The group's mode (0..2) whose sets now release a wait of core c on flag,
 * or -1; ASC_KM_ANY looks at every mode the group keeps (mode 0 lives on
 * the board when there is one). */
static int asc_km_ready_mode(const asc_km_group *g, int c, int mode, int flag) {
  int src[2];
  for (int m = mode == ASC_KM_ANY ? 0 : mode; m <= (mode == ASC_KM_ANY ? 2 : mode); m++) {
    if (mode == ASC_KM_ANY && m == 0 && g->board) continue;
    int n = asc_km_sources(g, c, m, src), ok = n > 0;
    for (int i = 0; i < n && ok; i++)
      if (g->sets[src[i]][m][flag] <= g->waits[c][m][flag]) ok = 0;
    if (ok) return m;
  }
  return -1;
}
/* Whether core c's wait on (mode, flag) can pass now. */
static int asc_km_ready(const asc_km_group *g, int c, int mode, int flag) {
  return asc_km_ready_mode(g, c, mode, flag) >= 0;
}

static const char *asc_km_core_name(const asc_km_group *g, int c) {
  static const char *const names[ASC_KM_CORES] = {"the AIC", "AIV 0", "AIV 1"};
  return g->mixed ? names[c] : "this core";
}

/* A mode-0 wait of flag w->a by core w->awaited of kind w->mode on the
 * launch's board w->p: passes when every core of its kind has set the flag
 * more often than this one has waited on it. Deadlocks: rt/wait.h. */
/* With b->mu held: a core of `kind` that has set flag f no more often than
 * core me of that kind has waited on it, or -1 when me's wait may pass. */
static int64_t asc_km_board_missing(const asc_km_board *b, int kind, int64_t me, int f) {
  const int64_t have = b->waits[kind][me * ASC_KM_FLAGS + f];
  for (int64_t s = 0; s < b->n[kind]; s++)
    if (b->sets[kind][s * ASC_KM_FLAGS + f] <= have) return s;
  return -1;
}

static int asc_km_board_test(asc_k_ctx *k, asc_k_wait *w) {
  asc_km_board *b = (asc_km_board *)w->p;
  const int kind = w->mode, f = (int)w->a;
  const int64_t me = w->awaited;
  int64_t *waits = b->waits[kind];
  pthread_mutex_lock(&b->mu);
  const int64_t missing = asc_km_board_missing(b, kind, me, f);
  if (missing < 0) {
    waits[me * ASC_KM_FLAGS + f]++;
    pthread_mutex_unlock(&b->mu);
    return 0;
  }
  if (b->failed) {
    char why[sizeof b->why];
    memcpy(why, b->why, sizeof why);
    pthread_mutex_unlock(&b->mu);
    asc_k_fail(k, w->line, "cross_core_wait_flag: flag %d (mode 0): another core failed (%.200s)",
               f, why);
    return -1;
  }
  if (b->done[kind][missing]) {
    pthread_mutex_unlock(&b->mu);
    asc_k_fail(k, w->line,
               "cross_core_wait_flag: flag %d (mode 0) is never set: %s %lld finished "
               "without setting it (the device would hang here)",
               f, kind ? "AIC" : "AIV", (long long)missing);
    return -1;
  }
  pthread_mutex_unlock(&b->mu);
  return 1;
}

/* A mode-0 set or wait of flag f on the launch's board. */
static int asc_km_board_cross(asc_k_ctx *k, asc_km_board *b, int f, int wait, int line) {
  if (!b)
    return asc_k_fail(k, line,
                      "%s: mode 0 over %lld blocks: internal error: the blocks were not "
                      "launched together",
                      wait ? "cross_core_wait_flag" : "cross_core_set_flag",
                      (long long)k->block_num);
  const int kind = k->core_kind == 1;
  const int64_t me = k->block_idx, n = b->n[kind];
  if (me < 0 || me >= n)
    return asc_k_fail(k, line, "cross_core flags: internal error: core %lld of %lld", (long long)me,
                      (long long)n);
  if (wait) {
    asc_k_wait w = {.kind = ASC_K_W_CROSS,
                    .api = "cross_core_wait_flag",
                    .line = line,
                    .a = f,
                    .b = 0,
                    .test = asc_km_board_test,
                    .p = b,
                    .awaited = me,
                    .mode = kind};
    return asc_k_wait_for(k, &w);
  }
  int64_t *sets = b->sets[kind], *waits = b->waits[kind];
  pthread_mutex_lock(&b->mu);
  for (int64_t r = 0; r < n; r++)
    if (sets[me * ASC_KM_FLAGS + f] - waits[r * ASC_KM_FLAGS + f] >= ASC_KM_MAX_PENDING) {
      pthread_mutex_unlock(&b->mu);
      return asc_k_fail(k, line,
                        "cross_core_set_flag: flag %d set 16 times without a wait (the "
                        "counter holds 15)",
                        f);
    }
  sets[me * ASC_KM_FLAGS + f]++;
  pthread_mutex_unlock(&b->mu);
  asc_k_wait_bump(k->sys.launch);
  return 0;
}

/* A mode-1 or mode-2 wait of core w->awaited on flag w->a within its
 * group w->p. A wait that every other core of the group leaves unreleased
 * (finished, or waiting for what cannot come) fails at once; the group's
 * cores waiting on other blocks are the launch's detector's (rt/wait.h). */
static int asc_km_group_test(asc_k_ctx *k, asc_k_wait *w) {
  asc_km_group *g = (asc_km_group *)w->p;
  const int me = (int)w->awaited, m = (int)w->b, f = (int)w->a;
  pthread_mutex_lock(&g->mu);
  const int from = asc_km_ready_mode(g, me, m, f); /* the mode whose sets pass it */
  if (from >= 0) {
    g->waits[me][from][f]++;
    g->waiting[me] = 0;
    pthread_mutex_unlock(&g->mu);
    return 0;
  }
  int stuck = 1; /* every other core is finished or waits for what cannot come */
  for (int c = 0; c < g->ncores && stuck; c++) {
    if (c == me || g->done[c]) continue;
    int wc = g->waiting[c] - 1;
    if (wc < 0 || asc_km_ready(g, c, wc / ASC_KM_FLAGS, wc % ASC_KM_FLAGS)) stuck = 0;
  }
  if (stuck || g->failed) {
    g->waiting[me] = 0;
    int failed = g->failed;
    pthread_mutex_unlock(&g->mu);
    if (failed && !stuck)
      asc_k_fail(k, w->line, "cross_core_wait_flag: flag %d: another core of the group failed", f);
    else
      asc_k_fail(k, w->line,
                 "cross_core_wait_flag: flag %d (%s %d) is never set: every other core of "
                 "the group has finished or waits too (the device would hang here)",
                 f, m == ASC_KM_ANY ? "any mode: A2's waits ignore theirs, mode_id" : "mode", m);
    return -1;
  }
  g->waiting[me] = 1 + m * ASC_KM_FLAGS + f;
  pthread_mutex_unlock(&g->mu);
  return 1;
}

/* An Ascend C wait of core w->awaited on flag w->a (ASC_KM_ANY): passes on
 * a set of any mode that reaches this core, from its group or, for mode 0
 * over several blocks, from the launch's board. Without a board, a wait the
 * group leaves unreleased fails as asc_km_group_test's do; with one, other
 * blocks may still set the flag, so rt/wait.h's detector judges. */
static int asc_km_any_test(asc_k_ctx *k, asc_k_wait *w) {
  asc_km_group *g = (asc_km_group *)w->p;
  asc_km_board *b = g->board;
  const int me = (int)w->awaited, f = (int)w->a;
  if (!b) return asc_km_group_test(k, w);
  pthread_mutex_lock(&g->mu);
  const int m = asc_km_ready_mode(g, me, ASC_KM_ANY, f);
  if (m >= 0) {
    g->waits[me][m][f]++;
    g->waiting[me] = 0;
    pthread_mutex_unlock(&g->mu);
    return 0;
  }
  const int kind = k->core_kind == 1;
  const int64_t idx = k->block_idx;
  int passed = 0, failed = g->failed;
  pthread_mutex_lock(&b->mu);
  if (idx >= 0 && idx < b->n[kind] && asc_km_board_missing(b, kind, idx, f) < 0) {
    b->waits[kind][idx * ASC_KM_FLAGS + f]++;
    passed = 1;
  }
  failed = failed || b->failed;
  pthread_mutex_unlock(&b->mu);
  g->waiting[me] = passed ? 0 : 1 + ASC_KM_ANY * ASC_KM_FLAGS + f;
  pthread_mutex_unlock(&g->mu);
  if (passed) return 0;
  if (failed) {
    asc_k_fail(k, w->line, "cross_core_wait_flag: flag %d: another core failed", f);
    return -1;
  }
  return 1;
}

/* Core me of g waits until test finds flag f of mode m set; a wait of its
 * own kind, so that a deadlock report names the flag and mode. */
static int asc_km_cross_wait(asc_k_ctx *k, asc_km_group *g, int me, int f, int m,
                             int (*test)(asc_k_ctx *k, asc_k_wait *w), const char *api, int line) {
  asc_k_wait w = {.kind = ASC_K_W_CROSS,
                  .api = api,
                  .line = line,
                  .a = f,
                  .b = m,
                  .test = test,
                  .p = g,
                  .awaited = me};
  return asc_k_wait_for(k, &w);
}

/* cross_core_set_flag / cross_core_wait_flag (mode_id `mode`; a wait's
 * ASC_KM_ANY: Ascend C's A2 wait, whose mode has no effect). */
static int asc_k_mix_cross(asc_k_ctx *k, int64_t id, int wait, int64_t mode, int line)
    __attribute__((unused));
static int asc_k_mix_cross(asc_k_ctx *k, int64_t id, int wait, int64_t mode, int line) {
  const char *api = wait ? "cross_core_wait_flag" : "cross_core_set_flag";
  asc_km_group *g = (asc_km_group *)k->group;
  if (!g) return asc_k_fail(k, line, "%s: no core group here", api);
  if (id < 0 || id >= ASC_KM_FLAGS)
    return asc_k_fail(k, line, "%s: flag_id must be in [0, %d], got %lld", api, ASC_KM_FLAGS - 1,
                      (long long)id);
  if ((mode < 0 || mode > 2) && !(wait && mode == ASC_KM_ANY))
    return asc_k_fail(k, line, "%s: mode_id must be 0, 1 or 2, got %lld", api, (long long)mode);
  int me = asc_km_self(k), m = (int)mode, f = (int)id, src[2];
  if (m == ASC_KM_ANY) return asc_km_cross_wait(k, g, me, f, m, asc_km_any_test, api, line);
  if (!asc_km_sources(g, me, m, src))
    return asc_k_fail(k, line, "%s: mode %d synchronises %s, which %s kernel does not have on %s",
                      api, m, m == 1 ? "the two AIVs of a group" : "a group's AIC with its AIVs",
                      g->mixed ? "a mixed" : "a single-kind", asc_km_core_name(g, me));
  if (m == 0 && g->nblocks > 1) return asc_km_board_cross(k, g->board, f, wait, line);
  if (wait) return asc_km_cross_wait(k, g, me, f, m, asc_km_group_test, api, line);
  pthread_mutex_lock(&g->mu);
  /* the receivers' counters hold at most 15 sets not yet waited for */
  for (int r = 0; r < g->ncores; r++) {
    int n = asc_km_sources(g, r, m, src);
    for (int i = 0; i < n; i++)
      if (src[i] == me && g->sets[me][m][f] - g->waits[r][m][f] >= ASC_KM_MAX_PENDING) {
        pthread_mutex_unlock(&g->mu);
        return asc_k_fail(k, line,
                          "cross_core_set_flag: flag %d set 16 times without a wait (the "
                          "counter holds 15)",
                          f);
      }
  }
  g->sets[me][m][f]++;
  pthread_mutex_unlock(&g->mu);
  asc_k_wait_bump(k->sys.launch);
  return 0;
}

typedef struct asc_km_core {
  asc_k_ctx k;
  const asc_k_arg *args;
  asc_km_run_fn run;
  asc_km_group *g;
  int index;
  int rc;
} asc_km_core;

static void asc_km_finish(asc_km_core *c) {
  asc_km_group *g = c->g;
  asc_km_board *b = g->board;
  if (b) { /* the launch's other groups stop waiting for this core */
    const int kind = c->k.core_kind == 1;
    pthread_mutex_lock(&b->mu);
    if (c->k.block_idx >= 0 && c->k.block_idx < b->n[kind]) b->done[kind][c->k.block_idx] = 1;
    if (c->rc && !b->failed)
      snprintf(b->why, sizeof b->why, "%s %lld: %.200s", kind ? "AIC" : "AIV",
               (long long)c->k.block_idx, c->k.msg);
    if (c->rc) b->failed = 1;
    pthread_mutex_unlock(&b->mu);
  }
  pthread_mutex_lock(&g->mu);
  g->done[c->index] = 1;
  if (c->rc) {
    if (!g->failed) g->first_fail = c->index;
    g->failed = 1;
  }
  pthread_mutex_unlock(&g->mu);
  asc_k_launch *L = c->k.sys.launch; /* waiters on this core look again */
  if (L && c->k.sys.slot >= 0 && c->k.sys.slot < 3 * L->nblocks)
    __atomic_store_n(&L->cstate[c->k.sys.slot], ASC_K_CORE_DONE, __ATOMIC_SEQ_CST);
  asc_k_wait_bump(L);
}

static void *asc_km_thread(void *p) {
  asc_km_core *c = (asc_km_core *)p;
  c->rc = c->run(&c->k, c->args);
  asc_km_finish(c);
  return NULL;
}

/* Runs block k of a launch: one core of kind `kind` (0 AIV, 1 AIC), or
 * with mixed != 0 a group of an AIC and two AIVs, each on its own thread
 * (AIV 0 on the caller's, with the caller's Unified Buffer). The first
 * core to fail gives the block's error, naming the core. */
static int asc_k_group_run(asc_k_ctx *k, const asc_k_arg *args, asc_km_run_fn run, int mixed,
                           int kind) __attribute__((unused));
static int asc_k_group_run(asc_k_ctx *k, const asc_k_arg *args, asc_km_run_fn run, int mixed,
                           int kind) {
  asc_km_group *g = (asc_km_group *)calloc(1, sizeof *g);
  asc_km_core *cs = (asc_km_core *)calloc(ASC_KM_CORES, sizeof *cs);
  char *ubs[ASC_KM_CORES] = {NULL, NULL, NULL};
  if (!g || !cs) {
    free(g), free(cs);
    return asc_k_fail(k, 0, "the core group: out of host memory");
  }
  pthread_mutex_init(&g->mu, NULL);
  g->mixed = mixed;
  g->ncores = mixed ? ASC_KM_CORES : 1;
  g->nblocks = k->block_num;
  g->first_fail = -1;
  int rc = 0;
  if (k->block_num > 1 && k->all_live && k->sys.launch) { /* all-live: mode 0 may be used */
    g->board = asc_km_board_get(k->sys.launch,
                                mixed  ? 2 * k->block_num
                                : kind ? 0
                                       : k->block_num,
                                mixed || kind ? k->block_num : 0);
    if (!g->board) rc = asc_k_fail(k, 0, "the launch's cross-core flags: out of host memory");
  }
  for (int i = 0; i < g->ncores; i++) {
    asc_km_core *c = &cs[i];
    c->k = *k;
    c->k.status = 0;
    c->k.msg[0] = '\0';
    c->k.chk = NULL;
    c->k.cube = NULL;
    c->k.group = g;
    c->k.mixed = mixed;
    c->args = args;
    c->run = run;
    c->g = g;
    c->index = i;
    c->k.sys.slot = k->sys.slot + i;
    if (!mixed) {
      c->k.core_kind = kind;
      c->k.sub_block_idx = 0;
      c->k.sub_block_num = 1;
      continue;
    }
    c->k.core_kind = i == 0 ? 1 : 0;
    c->k.sub_block_idx = i == 0 ? 0 : i - 1;
    c->k.sub_block_num = i == 0 ? 1 : 2;
    c->k.block_idx = i == 0 ? k->block_idx : 2 * k->block_idx + (i - 1);
    if (i != 1) { /* AIV 0 keeps the caller's Unified Buffer */
      ubs[i] = (char *)asc_kp_take(k->sys.launch, ASC_KP_UB,
                                   (size_t)(k->ub_reach > 0 ? k->ub_reach : 1), NULL, NULL);
      if (!ubs[i]) rc = asc_k_fail(k, 0, "the core group's Unified Buffers: out of host memory");
      c->k.ub = ubs[i];
    }
  }
  if (!rc && !mixed) {
    cs[0].rc = run(&cs[0].k, args);
    asc_km_finish(&cs[0]);
  } else if (!rc) {
    pthread_t th[ASC_KM_CORES];
    int started[ASC_KM_CORES] = {0, 0, 0};
    asc_k_launch *L = k->sys.launch; /* the AIVs run too (the AIC's slot is the block's) */
    for (int i = 1; L && i < ASC_KM_CORES; i++)
      if (k->sys.slot + i < 3 * L->nblocks)
        __atomic_store_n(&L->cstate[k->sys.slot + i], ASC_K_CORE_RUN, __ATOMIC_SEQ_CST);
    for (int i = 0; i < ASC_KM_CORES; i += 2) {
      started[i] = pthread_create(&th[i], NULL, asc_km_thread, &cs[i]) == 0;
      if (!started[i]) {
        cs[i].rc = asc_k_fail(&cs[i].k, 0, "cannot start a thread for %s", asc_km_core_name(g, i));
        asc_km_finish(&cs[i]);
      }
    }
    asc_km_thread(&cs[1]);
    for (int i = 0; i < ASC_KM_CORES; i += 2)
      if (started[i]) pthread_join(th[i], NULL);
  }
  if (rc && g->board) { /* no core of this block runs: the others must not wait for it */
    pthread_mutex_lock(&g->board->mu);
    g->board->failed = 1;
    pthread_mutex_unlock(&g->board->mu);
    asc_k_wait_bump(k->sys.launch);
  }
  if (!rc && g->first_fail >= 0) {
    const asc_km_core *c = &cs[g->first_fail];
    if (mixed)
      snprintf(k->msg, sizeof k->msg, "%.700s (on %s)", c->k.msg, asc_km_core_name(g, c->index));
    else
      memcpy(k->msg, c->k.msg, sizeof k->msg);
    k->status = 1;
    rc = 1;
  }
  for (int i = 0; i < ASC_KM_CORES; i++) asc_kp_give(k->sys.launch, ubs[i]);
  pthread_mutex_destroy(&g->mu);
  free(cs);
  free(g);
  return rc;
}

#endif /* ASC_K_MIX && !ASC_RT_MIX_H */
