/* Kernel launch on the cpu device: logical blocks run as simulated AI cores
 * on the launching stream's thread plus a per-device pool of helper threads,
 * each block with a private Unified Buffer arena. N blocks > threads run in
 * waves, as on hardware with more blocks than cores. */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cpu.h"

#define KERNEL_ERROR_MAX 900
#define MAX_ARGS_SIZE ((size_t)1 << 20)

typedef struct cpu_job {
  asc_kernel_fn fn;
  void *args;
  uint32_t nblocks;
  int max_helpers;
  bool all_live; /* ASC_LAUNCH_ALL_LIVE */
  int device;
  asc_device_props props;
  atomic_uint next_block;
  atomic_bool cancelled;
  atomic_int helpers_in; /* helpers currently running blocks of this job */
  bool linked;           /* still in the pool's job list; guarded by pool lock */
  pthread_mutex_t lock;
  pthread_cond_t helpers_done;
  asc_status error;
  char error_msg[KERNEL_ERROR_MAX];
  struct cpu_job *next;
} cpu_job;

struct cpu_pool {
  pthread_mutex_t lock;
  pthread_cond_t work;
  cpu_job *jobs;
  pthread_t *threads;
  int nthreads;
  bool stopping;
};

/* One Unified Buffer arena per thread, reused by every block it runs and
 * freed when the thread exits. Arenas are listed so that a forked child can
 * free those of the threads that did not come with it. */
typedef struct arena_header {
  struct arena_header *next, *prev;
  pthread_t owner;
} arena_header;
#define ARENA_HEADER 64 /* keeps the arena 64-byte aligned */
_Static_assert(sizeof(arena_header) <= ARENA_HEADER, "arena header too large");

static pthread_key_t arena_key;
static pthread_once_t arena_once = PTHREAD_ONCE_INIT;
static pthread_mutex_t arenas_lock = PTHREAD_MUTEX_INITIALIZER;
static arena_header *arenas;
static _Thread_local void *arena;
static _Thread_local size_t arena_size;

static void unlink_arena(arena_header *h) {
  if (h->prev)
    h->prev->next = h->next;
  else
    arenas = h->next;
  if (h->next) h->next->prev = h->prev;
}

static void arena_free(void *p) {
  if (!p) return;
  arena_header *h = (arena_header *)((char *)p - ARENA_HEADER);
  pthread_mutex_lock(&arenas_lock);
  unlink_arena(h);
  pthread_mutex_unlock(&arenas_lock);
  free(h);
}
static void arena_key_init(void) {
  pthread_key_create(&arena_key, arena_free);
}

static void *thread_arena(size_t size) {
  if (arena_size >= size) return arena;
  pthread_once(&arena_once, arena_key_init);
  /* aligned_alloc wants a multiple of the alignment; ub_size is only a
   * multiple of the 32-byte data block (and at most 1 GiB). */
  arena_header *h = aligned_alloc(64, ARENA_HEADER + ((size + 63) & ~(size_t)63));
  if (!h) return NULL;
  h->owner = pthread_self();
  h->prev = NULL;
  pthread_mutex_lock(&arenas_lock);
  h->next = arenas;
  if (arenas) arenas->prev = h;
  arenas = h;
  pthread_mutex_unlock(&arenas_lock);
  arena_free(arena);
  arena = (char *)h + ARENA_HEADER;
  arena_size = size;
  pthread_setspecific(arena_key, arena);
  return arena;
}

void cpu_arenas_at_fork(asc_fork_phase phase) {
  if (phase == ASC_FORK_PREPARE) {
    pthread_mutex_lock(&arenas_lock);
    return;
  }
  if (phase == ASC_FORK_CHILD) {
    for (arena_header *h = arenas, *next; h; h = next) {
      next = h->next;
      if (pthread_equal(h->owner, pthread_self())) continue;
      unlink_arena(h);
      free(h);
    }
  }
  pthread_mutex_unlock(&arenas_lock);
}

static void fail_job(cpu_job *job, uint32_t block, asc_status st) {
  pthread_mutex_lock(&job->lock);
  if (job->error == ASC_OK) {
    job->error = st;
    snprintf(job->error_msg, sizeof job->error_msg, "block %u of %u: %s", block, job->nblocks,
             asc_last_error());
  }
  pthread_mutex_unlock(&job->lock);
  atomic_store(&job->cancelled, true);
}

/* Claims and runs blocks until none are left. */
static void run_blocks(cpu_job *job) {
  /* the arena covers default mode's UB reach (asc_ub_reach): a kernel may
   * use bytes past the physical UB as the NPU lets it */
  size_t reach = asc_ub_reach(job->props.ub_size);
  void *ub = thread_arena(reach);
  uint32_t idx;
  while ((idx = atomic_fetch_add(&job->next_block, 1)) < job->nblocks) {
    if (atomic_load(&job->cancelled)) continue;
    if (!ub) {
      fail_job(job, idx,
               asc_error(ASC_ERR_OUT_OF_MEMORY, "cannot allocate a %zu-byte UB arena", reach));
      continue;
    }
    asc_block_ctx ctx = {.block_idx = idx,
                         .block_num = job->nblocks,
                         .device = job->device,
                         .ub = ub,
                         .ub_size = job->props.ub_size,
                         .ub_reach = reach,
                         .props = &job->props};
    asc_clear_error();
    asc_status st = job->fn(&ctx, job->args);
    if (st) fail_job(job, idx, st);
  }
}

static void unlink_job(cpu_pool *pool, cpu_job *job) {
  if (!job->linked) return;
  for (cpu_job **p = &pool->jobs; *p; p = &(*p)->next)
    if (*p == job) {
      *p = job->next;
      break;
    }
  job->linked = false;
}

static void *helper_main(void *arg) {
  cpu_pool *pool = arg;
  pthread_mutex_lock(&pool->lock);
  for (;;) {
    cpu_job *job = pool->jobs;
    while (job && (atomic_load(&job->next_block) >= job->nblocks ||
                   atomic_load(&job->helpers_in) >= job->max_helpers)) {
      cpu_job *next = job->next;
      if (atomic_load(&job->next_block) >= job->nblocks) unlink_job(pool, job);
      job = next;
    }
    if (!job) {
      if (pool->stopping) break;
      pthread_cond_wait(&pool->work, &pool->lock);
      continue;
    }
    atomic_fetch_add(&job->helpers_in, 1);
    pthread_mutex_unlock(&pool->lock);
    run_blocks(job);
    pthread_mutex_lock(&job->lock);
    if (atomic_fetch_sub(&job->helpers_in, 1) == 1) pthread_cond_signal(&job->helpers_done);
    pthread_mutex_unlock(&job->lock);
    pthread_mutex_lock(&pool->lock);
  }
  pthread_mutex_unlock(&pool->lock);
  return NULL;
}

asc_status cpu_pool_create(cpu_pool **out) {
  cpu_pool *pool = calloc(1, sizeof *pool);
  if (!pool) return asc_error(ASC_ERR_OUT_OF_MEMORY, "cannot allocate a worker pool");
  pthread_mutex_init(&pool->lock, NULL);
  pthread_cond_init(&pool->work, NULL);
  *out = pool;
  return ASC_OK;
}

/* Grows the pool to at least n helper threads; the pool lock is held. */
static void grow_pool(cpu_pool *pool, int n) {
  if (n <= pool->nthreads) return;
  pthread_t *threads = realloc(pool->threads, (size_t)n * sizeof *threads);
  if (!threads) return; /* fewer helpers only means less parallelism */
  pool->threads = threads;
  while (pool->nthreads < n &&
         pthread_create(&threads[pool->nthreads], NULL, helper_main, pool) == 0)
    pool->nthreads++;
}

void cpu_pool_destroy(cpu_pool *pool) {
  pthread_mutex_lock(&pool->lock);
  pool->stopping = true;
  pthread_cond_broadcast(&pool->work);
  pthread_mutex_unlock(&pool->lock);
  for (int i = 0; i < pool->nthreads; i++) pthread_join(pool->threads[i], NULL);
  free(pool->threads);
  pthread_mutex_destroy(&pool->lock);
  pthread_cond_destroy(&pool->work);
  free(pool);
}

void cpu_pool_at_fork(cpu_pool *pool, asc_fork_phase phase) {
  if (phase == ASC_FORK_PREPARE) {
    pthread_mutex_lock(&pool->lock);
  } else if (phase == ASC_FORK_PARENT) {
    pthread_mutex_unlock(&pool->lock);
  } else {
    /* Its helpers and their jobs stayed in the parent: nothing to join. */
    free(pool->threads);
    free(pool);
  }
}

static void run_job_parallel(cpu_pool *pool, cpu_job *job) {
  pthread_mutex_lock(&pool->lock);
  grow_pool(pool, job->max_helpers);
  job->linked = true;
  job->next = NULL;
  cpu_job **tail = &pool->jobs;
  while (*tail) tail = &(*tail)->next;
  *tail = job;
  pthread_cond_broadcast(&pool->work);
  pthread_mutex_unlock(&pool->lock);

  run_blocks(job);

  pthread_mutex_lock(&pool->lock);
  unlink_job(pool, job); /* no helper can join after this */
  pthread_mutex_unlock(&pool->lock);
  pthread_mutex_lock(&job->lock);
  while (atomic_load(&job->helpers_in) > 0) pthread_cond_wait(&job->helpers_done, &job->lock);
  pthread_mutex_unlock(&job->lock);
}

typedef struct launch_task {
  cpu_job job;
  void (*release)(void *args);
  void (*failed)(void *args, bool skipped);
  const char *name;
  _Alignas(16) unsigned char args[]; /* the argument block, copied at enqueue */
} launch_task;

/* ASC_LAUNCH_ALL_LIVE: a thread per block besides this one, held at a gate
 * until all exist, so that no block starts unless every block can. */
typedef struct live_gate {
  cpu_job *job;
  pthread_mutex_t lock;
  pthread_cond_t open_cond;
  bool open;
} live_gate;

static void *live_main(void *arg) {
  live_gate *g = arg;
  pthread_mutex_lock(&g->lock);
  while (!g->open) pthread_cond_wait(&g->open_cond, &g->lock);
  pthread_mutex_unlock(&g->lock);
  run_blocks(g->job);
  return NULL;
}

static void run_job_all_live(cpu_job *job) {
  live_gate g = {.job = job, .open = false};
  pthread_mutex_init(&g.lock, NULL);
  pthread_cond_init(&g.open_cond, NULL);
  uint32_t n = job->nblocks - 1, started = 0;
  pthread_t *threads = calloc(n, sizeof *threads);
  while (threads && started < n && pthread_create(&threads[started], NULL, live_main, &g) == 0)
    started++;
  if (started < n) {
    fail_job(job, 0,
             asc_error(ASC_ERR_OUT_OF_MEMORY,
                       "cannot start a thread for each of the %u blocks that synchronise with "
                       "each other (sync_all)",
                       job->nblocks));
  }
  pthread_mutex_lock(&g.lock);
  g.open = true;
  pthread_cond_broadcast(&g.open_cond);
  pthread_mutex_unlock(&g.lock);
  run_blocks(job);
  for (uint32_t i = 0; i < started; i++) pthread_join(threads[i], NULL);
  free(threads);
  pthread_mutex_destroy(&g.lock);
  pthread_cond_destroy(&g.open_cond);
}

/* Runs a job's blocks on this thread, with the device's helpers when it
 * has several; the job's own failure is left in job->error. */
static asc_status run_job(cpu_job *job) {
  cpu_pool *pool = NULL;
  if (job->all_live && job->nblocks > 1) {
    run_job_all_live(job);
  } else if (job->nblocks > 1 && job->max_helpers > 0) {
    asc_status st = cpu_device_pool(job->device, &pool);
    if (st) return st;
  }
  if (job->all_live && job->nblocks > 1)
    ; /* ran above */
  else if (pool)
    run_job_parallel(pool, job);
  else
    run_blocks(job);
  return ASC_OK;
}

static asc_status job_status(const cpu_job *job, const char *name) {
  if (!job->error) return ASC_OK;
  return asc_error(job->error, "%s%s%s", name ? name : "", name ? ": " : "", job->error_msg);
}

static asc_status run_launch(void *user) {
  launch_task *t = user;
  asc_status st = run_job(&t->job);
  return st ? st : job_status(&t->job, t->name);
}

static void launch_failed(void *user, bool skipped) {
  launch_task *t = user;
  if (t->failed) t->failed(t->args, skipped);
}

static void release_launch(void *user) {
  launch_task *t = user;
  if (t->release) t->release(t->args);
  pthread_mutex_destroy(&t->job.lock);
  pthread_cond_destroy(&t->job.helpers_done);
  free(t);
}

/* A one-block launch run on the launching thread (see ASC_LAUNCH_INLINE_OK):
 * the caller's argument block stays valid for the whole call. */
typedef struct inline_launch {
  cpu_job job;
  const asc_launch_desc *desc;
} inline_launch;

static asc_status run_inline(void *user) {
  inline_launch *l = user;
  asc_status st = run_job(&l->job);
  return st ? st : job_status(&l->job, l->desc->name);
}

static void inline_failed(void *user, bool skipped) {
  inline_launch *l = user;
  if (l->desc->failed) l->desc->failed((void *)l->desc->args, skipped);
}

static void release_inline(void *user) {
  inline_launch *l = user;
  if (l->desc->release) l->desc->release((void *)l->desc->args);
}

static bool try_inline(void *stream, const asc_launch_desc *launch) {
  inline_launch l;
  /* error_msg is written before error is set: it needs no clearing. */
  memset(&l.job, 0, offsetof(cpu_job, error_msg));
  l.job.next = NULL;
  if (cpu_device_props(cpu_stream_device(stream), &l.job.props)) {
    asc_clear_error();
    return false;
  }
  l.desc = launch;
  l.job.device = cpu_stream_device(stream);
  l.job.fn = launch->fn;
  l.job.args = (void *)launch->args;
  l.job.nblocks = launch->nblocks;
  l.job.max_helpers = l.job.props.worker_threads - 1;
  atomic_init(&l.job.next_block, 0);
  atomic_init(&l.job.cancelled, false);
  atomic_init(&l.job.helpers_in, 0);
  pthread_mutex_init(&l.job.lock, NULL);
  if (launch->nblocks > 1) pthread_cond_init(&l.job.helpers_done, NULL);
  asc_task task = {.run = run_inline,
                   .release = release_inline,
                   .failed = inline_failed,
                   .user = &l,
                   .what = "kernel launch"};
  bool ran = cpu_stream_run_inline(stream, &task);
  if (launch->nblocks > 1) pthread_cond_destroy(&l.job.helpers_done);
  pthread_mutex_destroy(&l.job.lock);
  return ran;
}

asc_status cpu_launch(void *stream, const asc_launch_desc *launch) {
  asc_status st = ASC_OK;
  /* Blocks that meet (ALL_LIVE) need a thread each: never inline. */
  bool may_inline = !(launch->flags & ASC_LAUNCH_ALL_LIVE) &&
                    ((launch->nblocks == 1 && (launch->flags & ASC_LAUNCH_INLINE_OK)) ||
                     (launch->nblocks >= 1 && (launch->flags & ASC_LAUNCH_CALLER_WAITS)));
  if (launch->fn && may_inline && (launch->args || !launch->args_size) &&
      launch->args_size <= MAX_ARGS_SIZE && try_inline(stream, launch))
    return ASC_OK;
  if (!launch->fn)
    st = asc_error(ASC_ERR_INVALID_VALUE, "launch: kernel entry point is NULL");
  else if (launch->nblocks == 0)
    st = asc_error(ASC_ERR_INVALID_VALUE, "launch: block count must be >= 1");
  else if (launch->args_size && !launch->args)
    st = asc_error(ASC_ERR_INVALID_VALUE, "launch: args is NULL");
  else if (launch->args_size > MAX_ARGS_SIZE)
    st = asc_error(ASC_ERR_INVALID_VALUE, "launch: argument block of %zu bytes exceeds 1 MiB",
                   launch->args_size);
  launch_task *t = st ? NULL : calloc(1, sizeof *t + launch->args_size);
  if (!st && !t) st = asc_error(ASC_ERR_OUT_OF_MEMORY, "launch: cannot queue the kernel");
  if (!st) st = cpu_device_props(cpu_stream_device(stream), &t->job.props);
  if (!st && (launch->flags & ASC_LAUNCH_ALL_LIVE) &&
      launch->nblocks > (uint32_t)t->job.props.ai_core_count)
    st = asc_error(ASC_ERR_INVALID_VALUE,
                   "launch: the %u blocks synchronise with each other (sync_all), so all must "
                   "run at once, but the device has %d cores (real hardware would hang)",
                   launch->nblocks, t->job.props.ai_core_count);
  if (st) {
    free(t);
    /* The caller's copy stands in for ours: release still runs once. */
    if (launch->release) launch->release((void *)launch->args);
    return st;
  }
  if (launch->args_size) memcpy(t->args, launch->args, launch->args_size);
  if (launch->keep) launch->keep(t->args);
  t->release = launch->release;
  t->failed = launch->failed;
  t->name = launch->name;
  t->job.device = cpu_stream_device(stream);
  t->job.fn = launch->fn;
  t->job.args = t->args;
  t->job.nblocks = launch->nblocks;
  t->job.max_helpers = t->job.props.worker_threads - 1;
  t->job.all_live = (launch->flags & ASC_LAUNCH_ALL_LIVE) != 0;
  atomic_init(&t->job.next_block, 0);
  atomic_init(&t->job.cancelled, false);
  atomic_init(&t->job.helpers_in, 0);
  pthread_mutex_init(&t->job.lock, NULL);
  pthread_cond_init(&t->job.helpers_done, NULL);
  asc_task task = {.run = run_launch,
                   .release = release_launch,
                   .failed = launch_failed,
                   .user = t,
                   .what = "kernel launch"};
  st = cpu_stream_enqueue(stream, &task);
  if (st) release_launch(t);
  return st;
}
