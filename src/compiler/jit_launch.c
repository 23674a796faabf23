/* Launches a loaded kernel (jit.c builds and loads it) over blocks on a
 * stream: the blocks' meeting point for sync_all, the vector maths table,
 * argument lookup for the kernel's pointer checks, cancellation. */
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "asc/mem.h"
#include "asc/tensor.h"
#include "jit_cache.h"
#include "jit_internal.h"

void jit_set_live(asc_jit_kernel *k, const int *live) {
  k->all_live = live != NULL;
  k->mode0 = live && *live >= 2 && *live <= 4 ? *live : 0;
}

asc_status asc_jit_host_kernel(const char *name, int (*entry)(void *, const void *),
                               const char *params, int all_live, const void **table, bool checked,
                               bool cube, asc_jit_kernel **out) {
  if (!name || !entry || !table || !out)
    return asc_error(ASC_ERR_INVALID_VALUE, "asc_jit_host_kernel: NULL argument");
  if (params && strnlen(params, 65) > 64)
    return asc_error(ASC_ERR_INVALID_VALUE, "kernel %.80s: more than 64 parameters", name);
  asc_jit_kernel *k = calloc(1, sizeof *k);
  char *name_copy = jit_format("%s", name);
  if (!k || !name_copy) {
    free(k);
    free(name_copy);
    return asc_error(ASC_ERR_OUT_OF_MEMORY, "kernel %.80s: out of memory", name);
  }
  atomic_init(&k->refs, 1);
  jit_set_live(k, all_live ? &all_live : NULL);
  k->params = params;
  k->print_failure = true;
  entry_fn e; /* the signature a loaded kernel's entry has too (jit.c load) */
  memcpy(&e, &entry, sizeof e);
  k->entry = e;
  k->name = name_copy;
  /* One slot a program: every launch stores the table of its mode. */
  __atomic_store_n(table, (const void *)jit_ascendc_table(checked, cube), __ATOMIC_SEQ_CST);
  *out = k;
  return ASC_OK;
}

/* --- launching ------------------------------------------------------------------ */

#define JIT_MAX_ARGS 64

typedef struct jit_launch {
  asc_jit_kernel *kernel;
  bool all_live;        /* every block runs at once (sync_all, mode-0 flags) */
  asc_k_launch *shared; /* what the blocks share (rt/system.h), in a jit_shared freed at release */
  int nargs;
  int nkeep;
  asc_storage *keep[JIT_MAX_ARGS];
  asc_k_arg args[JIT_MAX_ARGS];
} jit_launch;

/* A launch's asc_k_launch and what only the launcher knows: the caller's
 * cancellation (asc_jit_cancel) and the thread that launched. */
typedef struct jit_shared {
  asc_k_launch k; /* first: the blocks see only this */
  /* where waiting cores sleep (asc_k_launch.sleep, .wake) */
  pthread_mutex_t sleep_lock;
  pthread_cond_t sleep_cond;
  asc_jit_cancel *cancel;
  pthread_t caller;
  int64_t next_check_ns; /* read and written by the caller's thread only */
  /* A launch without a caller's cancellation (an asynchronous one): its own
   * flag, and its place in the list asc_jit_cancel_running walks. */
  int own_cancel;
  struct jit_shared *prev, *next;
} jit_shared;

/* The launches that own their flag, while they exist (from just before
 * they are queued to their release). */
static pthread_mutex_t running_lock = PTHREAD_MUTEX_INITIALIZER;
static jit_shared *running;
static pthread_once_t running_atfork_once = PTHREAD_ONCE_INIT;
static void running_take(void) {
  pthread_mutex_lock(&running_lock);
}
static void running_give(void) {
  pthread_mutex_unlock(&running_lock);
}
/* A fork while another thread holds the lock would leave it held in the
 * child: the handlers hold it across the fork instead. */
static void running_register_atfork(void) {
  pthread_atfork(running_take, running_give, running_give);
}

static void running_add(jit_shared *js) {
  pthread_once(&running_atfork_once, running_register_atfork);
  running_take();
  js->prev = NULL;
  js->next = running;
  if (running) running->prev = js;
  running = js;
  running_give();
}

static void running_remove(jit_shared *js) {
  running_take();
  if (js->prev)
    js->prev->next = js->next;
  else
    running = js->next;
  if (js->next) js->next->prev = js->prev;
  running_give();
}

int asc_jit_cancel_running(void) {
  int n = 0;
  running_take();
  for (jit_shared *js = running; js; js = js->next, n++)
    __atomic_store_n(&js->own_cancel, 1, __ATOMIC_SEQ_CST);
  running_give();
  return n;
}

/* The POSIX services a launch lends its blocks (asc_k_launch). */
static int64_t jit_clock_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}
/* A waiting core's first turns yield its thread (then it sleeps: jit_sleep). */
static void jit_pause(unsigned spins) {
  (void)spins;
  sched_yield();
}

/* A waiting core sleeps until a change may end its wait (the epoch moves
 * from the one it saw) or for 20 ms, after which it polls for cancellation
 * and the watchdog. A changer bumps the epoch, then wakes the sleepers if
 * there are any: a sleeper counts itself before it looks at the epoch, so
 * one of the two always sees the other (both sequentially consistent). */
#define JIT_SLEEP_NS 20000000
static void jit_sleep(asc_k_launch *launch, int64_t epoch) {
  jit_shared *s = (jit_shared *)(void *)launch;
  pthread_mutex_lock(&s->sleep_lock);
  __atomic_add_fetch(&launch->sleepers, 1, __ATOMIC_SEQ_CST);
  if (__atomic_load_n(&launch->epoch, __ATOMIC_SEQ_CST) == epoch) {
    struct timespec until;
    clock_gettime(CLOCK_MONOTONIC, &until);
    until.tv_nsec += JIT_SLEEP_NS;
    if (until.tv_nsec >= 1000000000) until.tv_sec++, until.tv_nsec -= 1000000000;
    pthread_cond_timedwait(&s->sleep_cond, &s->sleep_lock, &until);
  }
  __atomic_sub_fetch(&launch->sleepers, 1, __ATOMIC_SEQ_CST);
  pthread_mutex_unlock(&s->sleep_lock);
}
static void jit_wake(asc_k_launch *launch) {
  jit_shared *s = (jit_shared *)(void *)launch;
  pthread_mutex_lock(&s->sleep_lock);
  pthread_cond_broadcast(&s->sleep_cond);
  pthread_mutex_unlock(&s->sleep_lock);
}

/* The maths table blocks get (rt/vmath.h): libasc's SLEEF functions for
 * this CPU, the ones eager tensor operations use. Filled once, then only
 * read. */
static asc_k_vmath_fn jit_vmath_table[ASC_K_VM_COUNT];
static pthread_once_t jit_vmath_once = PTHREAD_ONCE_INIT;
static void jit_vmath_fill(void) {
  static const asc_vmath_fn of[ASC_K_VM_COUNT] = {
      [ASC_K_VM_EXP] = ASC_VM_EXP,   [ASC_K_VM_LOG] = ASC_VM_LOG, [ASC_K_VM_SQRT] = ASC_VM_SQRT,
      [ASC_K_VM_SIN] = ASC_VM_SIN,   [ASC_K_VM_COS] = ASC_VM_COS, [ASC_K_VM_TAN] = ASC_VM_TAN,
      [ASC_K_VM_TANH] = ASC_VM_TANH, [ASC_K_VM_ERF] = ASC_VM_ERF,
  };
  for (int i = 0; i < ASC_K_VM_COUNT; i++) jit_vmath_table[i] = asc_vmath_get(of[i])->f32;
}
static const asc_k_vmath_fn *jit_vmath(void) {
  pthread_once(&jit_vmath_once, jit_vmath_fill);
  return jit_vmath_table;
}

/* asc_k_launch.check: on the launching thread, every 20 ms at most, asks
 * the caller's check (Python's signal handlers, binding/ir.c); elsewhere
 * the flag it sets is enough. */
#define JIT_CHECK_NS 20000000
static int jit_check(asc_k_launch *launch) {
  jit_shared *s = (jit_shared *)(void *)launch;
  if (!pthread_equal(pthread_self(), s->caller)) return 0;
  int64_t now = jit_clock_ns();
  if (now < s->next_check_ns) return 0;
  s->next_check_ns = now + JIT_CHECK_NS;
  if (s->cancel->check(s->cancel->user)) __atomic_store_n(&s->cancel->flag, 1, __ATOMIC_SEQ_CST);
  return __atomic_load_n(&s->cancel->flag, __ATOMIC_SEQ_CST);
}

/* A tensor list's data pointer (tagged by pyasc.tensor_list, asc/mem.h):
 * the live device allocation holding it, or what it was. */
static int jit_lookup(uint64_t ptr, char **base, int64_t *n) {
  asc_mem_range r;
  asc_mem_resolution how = asc_mem_resolve(ptr, &r);
  if (how == ASC_MEM_FREED) return -1;
  if (how != ASC_MEM_LIVE) return 0;
  *base = r.base;
  *n = (int64_t)r.nbytes;
  return 1;
}

static asc_status jit_block(const asc_block_ctx *block, const void *p) {
  const jit_launch *l = p;
  asc_k_ctx k;
  /* every field starts zeroed: the runtime tests k.chk (checked mode's
   * state) in plain kernels too, where only a checked entry sets it */
  memset(&k, 0, sizeof k);
  k.ub = block->ub;
  k.ub_size = (int64_t)block->ub_size;
  k.ub_reach = (int64_t)(block->ub_reach > block->ub_size ? block->ub_reach : block->ub_size);
  k.block_idx = block->block_idx;
  k.block_num = block->block_num;
  k.status = 0;
  k.cube = NULL;
  k.core_kind = 0; /* an AIV unless the kernel's entry says otherwise (rt/mix.h) */
  k.mixed = 0;
  k.sub_block_idx = 0;
  k.sub_block_num = 1;
  k.group = NULL;
  k.fwk.atomic_type = k.fwk.atomic_op = k.fwk.pad_set = k.fwk.ntags = 0;
  k.all_live = l->all_live;
  k.msg[0] = '\0';
  k.vmath = jit_vmath();
  k.ticks = 0;
  k.t0 = l->shared && l->shared->timeout_ns ? jit_clock_ns() : 0;
  memset(&k.sys, 0, sizeof k.sys);
  k.sys.args = l->args;
  k.sys.nargs = l->nargs;
  asc_k_launch *s = l->shared;
  k.sys.launch = s;
  k.sys.slot = 3 * (int64_t)block->block_idx;
  if (s) {
    if (__atomic_load_n(&s->capacity, __ATOMIC_SEQ_CST) <=
        0) { /* the first block learns the device's thread count */
      int cap = block->props && block->props->worker_threads > 0 ? block->props->worker_threads : 1;
      if (l->all_live) cap = (int)s->nblocks; /* all run at once (ALL_LIVE) */
      __atomic_store_n(&s->capacity, cap < s->nblocks ? cap : (int)s->nblocks, __ATOMIC_SEQ_CST);
    }
    __atomic_add_fetch(&s->running, 1, __ATOMIC_SEQ_CST);
    __atomic_store_n(&s->cstate[k.sys.slot], ASC_K_CORE_RUN, __ATOMIC_SEQ_CST);
    __atomic_store_n(&s->state[block->block_idx], 1, __ATOMIC_SEQ_CST);
  }
  /* The launch adds the kernel's name and the block index. */
  int rc = l->kernel->entry(&k, l->args);
  if (s) {
    int none = 0; /* the first failure's message, for the waits it ends */
    if (rc && __atomic_compare_exchange_n(&s->why_ready, &none, 1, 0, __ATOMIC_SEQ_CST,
                                          __ATOMIC_SEQ_CST)) {
      /* a long message keeps its head: why holds ASC_K_WHY_MAX bytes */
      snprintf(s->why, ASC_K_WHY_MAX, "block %u: %.380s", block->block_idx, k.msg);
      if (l->kernel->print_failure)
        fprintf(stderr, "pyasc: kernel %s failed: %s\n", l->kernel->name, s->why);
      __atomic_store_n(&s->why_ready, 2, __ATOMIC_SEQ_CST);
    }
    if (rc) __atomic_store_n(&s->failed, 1, __ATOMIC_SEQ_CST);
    __atomic_store_n(&s->state[block->block_idx], 2, __ATOMIC_SEQ_CST);
    __atomic_store_n(&s->cstate[k.sys.slot], ASC_K_CORE_DONE, __ATOMIC_SEQ_CST);
    __atomic_sub_fetch(&s->running, 1, __ATOMIC_SEQ_CST);
    __atomic_add_fetch(&s->epoch, 1, __ATOMIC_SEQ_CST);
    if (__atomic_load_n(&s->sleepers, __ATOMIC_SEQ_CST)) jit_wake(s);
  }
  if (rc) return asc_error(ASC_ERR_KERNEL, "%s", k.msg);
  return ASC_OK;
}

static void jit_release(void *p) {
  jit_launch *l = p;
  /* the board's and the pool's frees live in the kernel's library, released below */
  if (l->shared && l->shared->board_free) l->shared->board_free(l->shared->board);
  if (l->shared && l->shared->pool_free) l->shared->pool_free(l->shared->pool);
  jit_shared *js = (jit_shared *)(void *)l->shared;
  if (js && !js->cancel) running_remove(js);
  if (js) {
    pthread_cond_destroy(&js->sleep_cond);
    pthread_mutex_destroy(&js->sleep_lock);
  }
  free(l->shared);
  for (int i = 0; i < l->nkeep; i++) asc_storage_release(l->keep[i]);
  asc_jit_release(l->kernel);
}

asc_status asc_jit_launch(asc_jit_kernel *k, asc_stream_t stream, uint32_t nblocks,
                          const asc_jit_arg *args, int nargs, void *const *keep, int nkeep) {
  return asc_jit_launch_cancellable(k, stream, nblocks, args, nargs, keep, nkeep, 0, NULL);
}

asc_status asc_jit_launch_ex(asc_jit_kernel *k, asc_stream_t stream, uint32_t nblocks,
                             const asc_jit_arg *args, int nargs, void *const *keep, int nkeep,
                             uint32_t flags) {
  return asc_jit_launch_cancellable(k, stream, nblocks, args, nargs, keep, nkeep, flags, NULL);
}

asc_status asc_jit_launch_cancellable(asc_jit_kernel *k, asc_stream_t stream, uint32_t nblocks,
                                      const asc_jit_arg *args, int nargs, void *const *keep,
                                      int nkeep, uint32_t flags, asc_jit_cancel *cancel) {
  uint64_t timeout_ms;
  asc_status limit = jit_env_limit("PYASC_KERNEL_TIMEOUT_MS", 0, &timeout_ms);
  if (limit) return limit;
  if (nargs < 0 || nargs > JIT_MAX_ARGS || nkeep < 0 || nkeep > JIT_MAX_ARGS)
    return asc_error(ASC_ERR_INVALID_VALUE, "launch: at most %d arguments", JIT_MAX_ARGS);
  if (nblocks == 0 || nblocks > 65535)
    return asc_error(ASC_ERR_INVALID_VALUE, "launch: the core count must be in [1, 65535], got %u",
                     nblocks);
  if (k->mode0 && nblocks > 1) { /* every block live at once, on cores of its kind */
    static const char *const what[] = {"groups", "AIV cores", "AIC cores"};
    int dev = 0;
    asc_device_props props;
    asc_status st = asc_stream_device(stream, &dev);
    if (!st) st = asc_device_get_props(dev, &props);
    if (st) return st;
    const int have = k->mode0 == 3 ? props.ai_core_count : props.cube_core_count;
    if (nblocks > (uint32_t)have)
      return asc_error(ASC_ERR_INVALID_VALUE,
                       "launch: the %u %s synchronise with each other (mode-0 cross-core "
                       "flags), so all must run at once, but the device has %d %s (real "
                       "hardware would hang)",
                       nblocks, what[k->mode0 - 2], have,
                       k->mode0 == 3 ? "AIV cores" : "AIC cores");
  }
  /* Every argument is what the kernel says it is: only an address's length
   * is kept (a scalar's is 0 whatever the caller left there), so the
   * runtime's pointer resolution (rt/tensor_desc.h asc_k_resolve) never
   * mistakes a number for memory the launch was given. */
  if (nargs && !k->params)
    return asc_error(ASC_ERR_INVALID_VALUE,
                     "launch: kernel %s does not declare its parameters (asc_kernel_params), "
                     "so it takes no arguments",
                     k->name);
  if (k->params && strlen(k->params) != (size_t)nargs)
    return asc_error(ASC_ERR_INVALID_VALUE, "launch: kernel %s takes %zu arguments, got %d",
                     k->name, strlen(k->params), nargs);
  for (int i = 0; i < nargs; i++)
    if (k->params[i] == 'a' && (args[i].n < 0 || (!args[i].v.p && args[i].n)))
      return asc_error(ASC_ERR_INVALID_VALUE,
                       "launch: argument %d of kernel %s is an address of %lld bytes at %p", i,
                       k->name, (long long)args[i].n, args[i].v.p);
  jit_tier_before_launch(k, args, nargs);
  jit_launch l;
  /* One allocation: the shared state, per core (3 a block) 4 int64 and a
   * state byte, per block a state byte, all zeroed, then the report and
   * message buffers, written before they are read (nblocks <= 65535, so
   * the size cannot overflow). */
  const size_t cores = 3 * (size_t)nblocks;
  const size_t zeroed = sizeof(jit_shared) + cores * 4 * sizeof(int64_t) + cores + nblocks;
  jit_shared *js = malloc(zeroed + ASC_K_REPORT_MAX + ASC_K_WHY_MAX);
  if (!js) return asc_error(ASC_ERR_OUT_OF_MEMORY, "launch: out of memory");
  memset(js, 0, zeroed);
  l.shared = &js->k;
  l.shared->nblocks = nblocks;
  l.shared->epoch = 1;
  l.shared->seen = (int64_t *)(void *)(js + 1);
  l.shared->wdesc = l.shared->seen + cores;
  l.shared->wa = l.shared->wdesc + cores;
  l.shared->wb = l.shared->wa + cores;
  l.shared->cstate = (unsigned char *)(l.shared->wb + cores);
  l.shared->state = l.shared->cstate + cores;
  l.shared->report = (char *)l.shared->state + nblocks;
  l.shared->why = l.shared->report + ASC_K_REPORT_MAX;
  l.shared->clock_ns = jit_clock_ns;
  l.shared->pause = jit_pause;
  l.shared->sleep = jit_sleep;
  l.shared->wake = jit_wake;
  l.shared->lookup = jit_lookup;
  l.shared->cancel = cancel ? &cancel->flag : &js->own_cancel;
  l.shared->timeout_ns =
      timeout_ms > (uint64_t)INT64_MAX / 1000000 ? INT64_MAX : (int64_t)timeout_ms * 1000000;
  if (cancel && cancel->check) {
    js->cancel = cancel;
    js->caller = pthread_self();
    js->next_check_ns = jit_clock_ns() + JIT_CHECK_NS;
    l.shared->check = jit_check;
  }
  pthread_mutex_init(&js->sleep_lock, NULL);
  pthread_condattr_t attr;
  pthread_condattr_init(&attr);
  pthread_condattr_setclock(&attr, CLOCK_MONOTONIC); /* the clock jit_sleep reads */
  pthread_cond_init(&js->sleep_cond, &attr);
  pthread_condattr_destroy(&attr);
  l.nargs = nargs;
  l.kernel = k;
  l.all_live = (k->all_live || k->mode0) && nblocks > 1;
  l.nkeep = nkeep;
  if (nargs) memcpy(l.args, args, (size_t)nargs * sizeof *args); /* args may be NULL */
  for (int i = 0; i < nargs; i++)
    if (k->params[i] != 'a') l.args[i].n = 0;
  for (int i = 0; i < nkeep; i++) {
    l.keep[i] = keep[i];
    asc_storage_retain(l.keep[i]);
  }
  asc_jit_retain(k);
  size_t size = offsetof(jit_launch, args) + (size_t)nargs * sizeof(asc_k_arg);
  asc_launch_desc desc = {.fn = jit_block,
                          .nblocks = nblocks,
                          .args = &l,
                          .args_size = size,
                          .release = jit_release,
                          .name = k->name,
                          .flags = flags | (l.all_live ? ASC_LAUNCH_ALL_LIVE : 0)};
  if (!cancel) running_add(js); /* removed by jit_release, which every launch gets */
  return asc_launch_ex(stream, &desc);
}

/* A profiled kernel's records (asc_jit_build_profiled): reset before a launch, read after. */
asc_status asc_jit_profile_reset(asc_jit_kernel *k, int64_t n) {
  if (!k->pf_reset)
    return asc_error(ASC_ERR_INVALID_VALUE, "kernel %s was not built with profiling", k->name);
  if (n < 1 || n > 3 * 65535)
    return asc_error(ASC_ERR_INVALID_VALUE, "profile: %lld records", (long long)n);
  if (k->pf_reset(n))
    return asc_error(ASC_ERR_OUT_OF_MEMORY, "profile: no memory for %lld records", (long long)n);
  return ASC_OK;
}

asc_status asc_jit_profile_records(const asc_jit_kernel *k, const asc_pf_record **out, int64_t *n) {
  if (!k->pf_records)
    return asc_error(ASC_ERR_INVALID_VALUE, "kernel %s was not built with profiling", k->name);
  *out = k->pf_records(n);
  return ASC_OK;
}
