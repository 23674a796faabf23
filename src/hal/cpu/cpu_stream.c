/* cpu streams: one host thread per stream runs its tasks in FIFO order.
 * Events are markers in that order that record when the stream passed them. */
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cpu.h"

#define STREAM_ERROR_MAX 900
/* Polls before sleeping keep an idle stream's wake-up, and a synchronising
 * host thread's, in microseconds instead of a scheduler round trip. */
#define SPIN_POLLS 4000
/* ... but a synchronising thread spins at most this long (ns): on a busy
 * machine each sched_yield may give the core away for milliseconds, and a
 * wait sliced to look at Ctrl-C (binding/stream.c asc_py_wait) must not
 * spend its whole slice, and more, spinning. */
#define SPIN_MAX_NS 1000000

typedef struct task_node {
  asc_task task;
  uint64_t tick;
  bool always_run; /* ordering markers run even after a failure */
  struct task_node *next;
} task_node;

struct cpu_stream {
  atomic_int refs; /* the creator, events recorded on it, waits on it */
  int device;
  pthread_mutex_t lock;
  pthread_cond_t has_work;
  pthread_cond_t progress;
  task_node *head, *tail;
  uint64_t enqueued;                 /* tick of the newest task; guarded by lock */
  atomic_uint_fast64_t pending_tick; /* mirror of enqueued for lock-free polls */
  atomic_uint_fast64_t completed;    /* tick of the newest finished task */
  int sleepers;                      /* threads blocked on progress */
  bool worker_sleeping;
  bool accepting;
  bool joined;
  bool thread_alive; /* false in a forked child until work needs the thread */
  pthread_t thread;
  task_node *running;   /* the task the thread is running now */
  uint64_t inline_tick; /* a task running inline on another thread, or 0 */
  const char *inline_what;
  asc_status error; /* first failure not yet reported */
  char error_msg[STREAM_ERROR_MAX];
  uint64_t skipped;
  struct cpu_stream *reg_prev, *reg_next; /* all streams; guarded by registry_lock */
};

struct cpu_event {
  atomic_int refs; /* the creator and each marker in flight */
  pthread_mutex_t lock;
  cpu_stream *stream; /* NULL until recorded */
  uint64_t tick;
  uint64_t generation;                   /* bumps on every record; stale markers ignore */
  int64_t timestamp_ns;                  /* -1 until the marker ran */
  struct cpu_event *reg_prev, *reg_next; /* all events; guarded by registry_lock */
};

/* Every stream and event, so that fork() can take their locks and repair
 * them in the child. Lock order: registry_lock, event locks, stream locks. */
static pthread_mutex_t registry_lock = PTHREAD_MUTEX_INITIALIZER;
static cpu_stream *all_streams;
static struct cpu_event *all_events;

/* The stream whose task runs on this thread and that task's tick: waiting
 * for that stream's later work from inside the task would never end. */
static _Thread_local cpu_stream *running_on;
static _Thread_local uint64_t running_tick;

#define REGISTER(head, obj)               \
  do {                                    \
    pthread_mutex_lock(&registry_lock);   \
    (obj)->reg_prev = NULL;               \
    (obj)->reg_next = (head);             \
    if (head) (head)->reg_prev = (obj);   \
    (head) = (obj);                       \
    pthread_mutex_unlock(&registry_lock); \
  } while (0)
#define UNREGISTER(head, obj)                                         \
  do {                                                                \
    pthread_mutex_lock(&registry_lock);                               \
    if ((obj)->reg_prev)                                              \
      (obj)->reg_prev->reg_next = (obj)->reg_next;                    \
    else                                                              \
      (head) = (obj)->reg_next;                                       \
    if ((obj)->reg_next) (obj)->reg_next->reg_prev = (obj)->reg_prev; \
    pthread_mutex_unlock(&registry_lock);                             \
  } while (0)

/* Waiters time out against the monotonic clock. */
static void init_conds(cpu_stream *s) {
  pthread_condattr_t attr;
  pthread_condattr_init(&attr);
  pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
  pthread_cond_init(&s->has_work, NULL);
  pthread_cond_init(&s->progress, &attr);
  pthread_condattr_destroy(&attr);
}

static int64_t now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static inline void cpu_relax(void) {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#endif
}

/* Spinning only helps when the thread we wait for has a core: on a busy
 * machine, yield every few polls so that it can run. */
static inline void spin_pause(int i) {
  if ((i & 31) == 31)
    sched_yield();
  else
    cpu_relax();
}

static void stream_retain(cpu_stream *s) {
  atomic_fetch_add(&s->refs, 1);
}

static void stream_release(cpu_stream *s) {
  if (atomic_fetch_sub(&s->refs, 1) != 1) return;
  cpu_stream_shutdown(s);
  UNREGISTER(all_streams, s);
  pthread_mutex_destroy(&s->lock);
  pthread_cond_destroy(&s->has_work);
  pthread_cond_destroy(&s->progress);
  free(s);
}

int cpu_stream_device(const cpu_stream *stream) {
  return stream->device;
}

static void record_failure(cpu_stream *s, const task_node *node, asc_status st) {
  if (s->error != ASC_OK) return;
  s->error = st;
  snprintf(s->error_msg, sizeof s->error_msg, "%s failed: %s",
           node->task.what ? node->task.what : "task", asc_last_error());
}

/* Waits for work and returns the head of the queue, still queued; NULL when
 * the stream is shut down and drained. Called and returns with the lock held. */
static task_node *next_task(cpu_stream *s) {
  if (!s->head && s->accepting) {
    pthread_mutex_unlock(&s->lock);
    for (int i = 0; i < SPIN_POLLS; i++) {
      if (atomic_load_explicit(&s->pending_tick, memory_order_acquire) !=
          atomic_load_explicit(&s->completed, memory_order_relaxed))
        break;
      spin_pause(i);
    }
    pthread_mutex_lock(&s->lock);
  }
  while (!s->head && s->accepting) {
    s->worker_sleeping = true;
    pthread_cond_wait(&s->has_work, &s->lock);
    s->worker_sleeping = false;
  }
  return s->head;
}

/* Tells a task's owner that it did not complete (see asc_task.failed). */
static void task_failed(const asc_task *task, bool skipped) {
  if (task->failed) task->failed(task->user, skipped);
}

static void *stream_main(void *arg) {
  cpu_stream *s = arg;
  pthread_mutex_lock(&s->lock);
  task_node *node;
  while ((node = next_task(s))) {
    /* Work run inline by a launching thread precedes this task. */
    while (atomic_load_explicit(&s->completed, memory_order_acquire) + 1 < node->tick) {
      s->sleepers++;
      pthread_cond_wait(&s->progress, &s->lock);
      s->sleepers--;
    }
    /* Taken off the queue only now: a fork before this point leaves the
     * task queued for the child's thread (see at_fork_child). */
    s->head = node->next;
    if (!s->head) s->tail = NULL;
    s->running = node;
    bool skip = s->error != ASC_OK && !node->always_run;
    pthread_mutex_unlock(&s->lock);
    asc_status st = ASC_OK;
    if (!skip) {
      asc_clear_error();
      running_on = s;
      running_tick = node->tick;
      st = node->task.run(node->task.user);
      running_on = NULL;
    }
    if (skip || st != ASC_OK) task_failed(&node->task, skip);
    if (node->task.release) node->task.release(node->task.user);
    pthread_mutex_lock(&s->lock);
    s->running = NULL;
    if (st != ASC_OK) record_failure(s, node, st);
    if (skip) s->skipped++;
    atomic_store_explicit(&s->completed, node->tick, memory_order_release);
    if (s->sleepers) pthread_cond_broadcast(&s->progress);
    free(node);
  }
  pthread_mutex_unlock(&s->lock);
  return NULL;
}

bool cpu_stream_run_inline(void *stream, const asc_task *task) {
  cpu_stream *s = stream;
  pthread_mutex_lock(&s->lock);
  bool idle = s->accepting && !s->head && s->error == ASC_OK &&
              atomic_load_explicit(&s->completed, memory_order_acquire) == s->enqueued;
  if (!idle) {
    pthread_mutex_unlock(&s->lock);
    return false;
  }
  /* Take the next tick so that later work queues behind this task. */
  task_node node = {.task = *task, .tick = ++s->enqueued};
  atomic_store_explicit(&s->pending_tick, s->enqueued, memory_order_release);
  s->inline_tick = node.tick;
  s->inline_what = task->what;
  pthread_mutex_unlock(&s->lock);
  cpu_stream *outer_stream = running_on;
  uint64_t outer_tick = running_tick;
  running_on = s;
  running_tick = node.tick;
  asc_status st = task->run(task->user);
  running_on = outer_stream;
  running_tick = outer_tick;
  if (st != ASC_OK) task_failed(task, false);
  if (task->release) task->release(task->user);
  pthread_mutex_lock(&s->lock);
  s->inline_tick = 0;
  if (st != ASC_OK) record_failure(s, &node, st);
  atomic_store_explicit(&s->completed, node.tick, memory_order_release);
  if (s->sleepers) pthread_cond_broadcast(&s->progress);
  pthread_mutex_unlock(&s->lock);
  if (st != ASC_OK) asc_clear_error(); /* reported at synchronisation, like queued work */
  return true;
}

asc_status cpu_stream_create(int device, void **out) {
  cpu_stream *s = calloc(1, sizeof *s);
  if (!s) return asc_error(ASC_ERR_OUT_OF_MEMORY, "cannot allocate a stream");
  atomic_init(&s->refs, 1);
  s->device = device;
  pthread_mutex_init(&s->lock, NULL);
  init_conds(s);
  atomic_init(&s->pending_tick, 0);
  atomic_init(&s->completed, 0);
  s->accepting = true;
  if (pthread_create(&s->thread, NULL, stream_main, s) != 0) {
    pthread_mutex_destroy(&s->lock);
    pthread_cond_destroy(&s->has_work);
    pthread_cond_destroy(&s->progress);
    free(s);
    return asc_error(ASC_ERR_DEVICE, "cannot start a stream thread");
  }
  s->thread_alive = true;
  REGISTER(all_streams, s);
  *out = s;
  return ASC_OK;
}

/* Starts the stream's thread if it is not running (in a forked child, whose
 * threads did not survive the fork). The lock is held. */
static asc_status ensure_thread(cpu_stream *s) {
  if (s->thread_alive) return ASC_OK;
  if (pthread_create(&s->thread, NULL, stream_main, s) != 0)
    return asc_error(ASC_ERR_DEVICE, "cannot start a stream thread");
  s->thread_alive = true;
  return ASC_OK;
}

asc_status cpu_stream_shutdown(void *stream) {
  cpu_stream *s = stream;
  pthread_mutex_lock(&s->lock);
  if (s->joined) {
    pthread_mutex_unlock(&s->lock);
    return ASC_OK;
  }
  if (s->thread_alive && pthread_equal(s->thread, pthread_self())) {
    pthread_mutex_unlock(&s->lock);
    return asc_error(ASC_ERR_INVALID_VALUE, "a stream cannot be destroyed by its own task");
  }
  /* Queued work still runs (or at least releases what it holds). */
  if (s->head && ensure_thread(s)) asc_clear_error();
  s->accepting = false;
  s->joined = true;
  bool alive = s->thread_alive;
  pthread_cond_signal(&s->has_work);
  pthread_mutex_unlock(&s->lock);
  if (alive) pthread_join(s->thread, NULL);
  return ASC_OK;
}

void cpu_stream_free(void *stream) {
  stream_release(stream);
}

/* Appends a task; the lock must be held. Returns its tick or 0. */
static uint64_t push_locked(cpu_stream *s, task_node *node) {
  node->tick = ++s->enqueued;
  node->next = NULL;
  if (s->tail)
    s->tail->next = node;
  else
    s->head = node;
  s->tail = node;
  atomic_store_explicit(&s->pending_tick, s->enqueued, memory_order_release);
  if (s->worker_sleeping) pthread_cond_signal(&s->has_work);
  return node->tick;
}

static asc_status push(cpu_stream *s, const asc_task *task, bool always_run, uint64_t *tick) {
  task_node *node = malloc(sizeof *node);
  if (!node) return asc_error(ASC_ERR_OUT_OF_MEMORY, "cannot queue %s", task->what);
  node->task = *task;
  node->always_run = always_run;
  pthread_mutex_lock(&s->lock);
  asc_status st =
      s->accepting ? ensure_thread(s) : asc_error(ASC_ERR_INVALID_HANDLE, "stream is destroyed");
  if (st) {
    pthread_mutex_unlock(&s->lock);
    free(node);
    return st;
  }
  uint64_t t = push_locked(s, node);
  pthread_mutex_unlock(&s->lock);
  if (tick) *tick = t;
  return ASC_OK;
}

asc_status cpu_stream_enqueue(void *stream, const asc_task *task) {
  return push(stream, task, false, NULL);
}

bool cpu_stream_reached(void *stream, uint64_t tick) {
  cpu_stream *s = stream;
  return atomic_load_explicit(&s->completed, memory_order_acquire) >= tick;
}

uint64_t cpu_stream_tick(void *stream) {
  cpu_stream *s = stream;
  return atomic_load_explicit(&s->pending_tick, memory_order_acquire);
}

/* Blocks until the stream has finished the task with this tick, or for at
 * most timeout_ns (< 0: no limit; then ASC_ERR_NOT_READY). */
static asc_status wait_reached(cpu_stream *s, uint64_t tick, int64_t timeout_ns) {
  if (cpu_stream_reached(s, tick)) return ASC_OK;
  if (running_on == s && tick >= running_tick)
    return asc_error(ASC_ERR_INVALID_VALUE,
                     "a task running on a stream (a host function, say) cannot wait for that "
                     "stream's own work: it would wait for itself forever");
  if (timeout_ns != 0) {
    int64_t spin_end = now_ns() + SPIN_MAX_NS;
    for (int i = 0; i < SPIN_POLLS && !cpu_stream_reached(s, tick); i++) {
      spin_pause(i);
      if ((i & 31) == 31 && now_ns() > spin_end) break; /* after each sched_yield */
    }
  }
  if (cpu_stream_reached(s, tick)) return ASC_OK;
  if (timeout_ns == 0) return ASC_ERR_NOT_READY;
  struct timespec deadline = {0};
  if (timeout_ns > 0) {
    int64_t end = now_ns() + timeout_ns;
    deadline.tv_sec = (time_t)(end / 1000000000);
    deadline.tv_nsec = (long)(end % 1000000000);
  }
  pthread_mutex_lock(&s->lock);
  asc_status st = ensure_thread(s);
  s->sleepers++;
  while (!st && !cpu_stream_reached(s, tick)) {
    if (timeout_ns < 0)
      pthread_cond_wait(&s->progress, &s->lock);
    else if (pthread_cond_timedwait(&s->progress, &s->lock, &deadline) == ETIMEDOUT &&
             !cpu_stream_reached(s, tick))
      st = ASC_ERR_NOT_READY;
  }
  s->sleepers--;
  pthread_mutex_unlock(&s->lock);
  return st;
}

asc_status cpu_stream_synchronize(void *stream) {
  return cpu_stream_synchronize_for(stream, -1);
}

asc_status cpu_stream_synchronize_for(void *stream, int64_t timeout_ns) {
  cpu_stream *s = stream;
  asc_status st = wait_reached(s, cpu_stream_tick(s), timeout_ns);
  if (st) return st;
  pthread_mutex_lock(&s->lock);
  st = s->error;
  if (st != ASC_OK) {
    if (s->skipped)
      asc_error(st, "%s (%llu later task%s skipped)", s->error_msg, (unsigned long long)s->skipped,
                s->skipped == 1 ? "" : "s");
    else
      asc_error(st, "%s", s->error_msg);
    s->error = ASC_OK;
    s->skipped = 0;
  }
  pthread_mutex_unlock(&s->lock);
  return st;
}

bool cpu_stream_error_pending(void *stream) {
  cpu_stream *s = stream;
  pthread_mutex_lock(&s->lock);
  bool pending = s->error != ASC_OK;
  pthread_mutex_unlock(&s->lock);
  return pending;
}

asc_status cpu_stream_query(void *stream) {
  return cpu_stream_reached(stream, cpu_stream_tick(stream)) ? ASC_OK : ASC_ERR_NOT_READY;
}

/* --- events ------------------------------------------------------------- */

static void event_release(struct cpu_event *e) {
  if (atomic_fetch_sub(&e->refs, 1) != 1) return;
  UNREGISTER(all_events, e);
  if (e->stream) stream_release(e->stream);
  pthread_mutex_destroy(&e->lock);
  free(e);
}

asc_status cpu_event_create(void **out) {
  struct cpu_event *e = calloc(1, sizeof *e);
  if (!e) return asc_error(ASC_ERR_OUT_OF_MEMORY, "cannot allocate an event");
  atomic_init(&e->refs, 1);
  pthread_mutex_init(&e->lock, NULL);
  e->timestamp_ns = -1;
  REGISTER(all_events, e);
  *out = e;
  return ASC_OK;
}

void cpu_event_free(void *event) {
  event_release(event);
}

typedef struct marker {
  struct cpu_event *event;
  uint64_t generation;
} marker;

static asc_status run_marker(void *user) {
  marker *m = user;
  pthread_mutex_lock(&m->event->lock);
  if (m->event->generation == m->generation) m->event->timestamp_ns = now_ns();
  pthread_mutex_unlock(&m->event->lock);
  return ASC_OK;
}

static void release_marker(void *user) {
  marker *m = user;
  event_release(m->event);
  free(m);
}

asc_status cpu_event_record(void *event, void *stream) {
  struct cpu_event *e = event;
  cpu_stream *s = stream;
  marker *m = malloc(sizeof *m);
  if (!m) return asc_error(ASC_ERR_OUT_OF_MEMORY, "cannot record an event");
  atomic_fetch_add(&e->refs, 1);
  pthread_mutex_lock(&e->lock);
  m->event = e;
  m->generation = e->generation + 1;
  asc_task task = {.run = run_marker, .release = release_marker, .user = m, .what = "event record"};
  uint64_t tick;
  asc_status st = push(s, &task, true, &tick);
  cpu_stream *previous = NULL;
  if (st == ASC_OK) {
    e->generation++;
    stream_retain(s);
    previous = e->stream;
    e->stream = s;
    e->tick = tick;
    e->timestamp_ns = -1;
  }
  pthread_mutex_unlock(&e->lock);
  /* Outside the event's lock: the last release of a stream takes the
   * registry lock, which comes before event locks. */
  if (previous) stream_release(previous);
  if (st) release_marker(m);
  return st;
}

/* Snapshot of where an event points, with a reference to its stream. */
static cpu_stream *event_target(struct cpu_event *e, uint64_t *tick) {
  pthread_mutex_lock(&e->lock);
  cpu_stream *s = e->stream;
  if (s) stream_retain(s);
  *tick = e->tick;
  pthread_mutex_unlock(&e->lock);
  return s;
}

asc_status cpu_event_synchronize(void *event) {
  return cpu_event_synchronize_for(event, -1);
}

asc_status cpu_event_synchronize_for(void *event, int64_t timeout_ns) {
  uint64_t tick;
  cpu_stream *s = event_target(event, &tick);
  if (!s) return ASC_OK; /* never recorded: nothing to wait for */
  asc_status st = wait_reached(s, tick, timeout_ns);
  stream_release(s);
  return st;
}

asc_status cpu_event_query(void *event) {
  uint64_t tick;
  cpu_stream *s = event_target(event, &tick);
  if (!s) return ASC_OK;
  bool done = cpu_stream_reached(s, tick);
  stream_release(s);
  return done ? ASC_OK : ASC_ERR_NOT_READY;
}

static asc_status completed_time(struct cpu_event *e, const char *which, int64_t *out) {
  pthread_mutex_lock(&e->lock);
  bool recorded = e->stream != NULL;
  *out = e->timestamp_ns;
  pthread_mutex_unlock(&e->lock);
  if (!recorded)
    return asc_error(ASC_ERR_INVALID_VALUE, "elapsed time: the %s event was never recorded", which);
  if (*out < 0)
    return asc_error(ASC_ERR_NOT_READY, "elapsed time: the %s event has not completed yet", which);
  return ASC_OK;
}

asc_status cpu_event_elapsed_ms(void *start, void *end, double *out_ms) {
  int64_t t0, t1;
  asc_status st = completed_time(start, "start", &t0);
  if (!st) st = completed_time(end, "end", &t1);
  if (!st) *out_ms = (double)(t1 - t0) / 1e6;
  return st;
}

typedef struct event_wait {
  cpu_stream *target;
  uint64_t tick;
} event_wait;

static asc_status run_event_wait(void *user) {
  event_wait *w = user;
  return wait_reached(w->target, w->tick, -1);
}

static void release_event_wait(void *user) {
  event_wait *w = user;
  stream_release(w->target);
  free(w);
}

asc_status cpu_stream_wait_event(void *stream, void *event) {
  uint64_t tick;
  cpu_stream *target = event_target(event, &tick);
  if (!target) return ASC_OK;
  event_wait *w = malloc(sizeof *w);
  if (!w) {
    stream_release(target);
    return asc_error(ASC_ERR_OUT_OF_MEMORY, "cannot queue an event wait");
  }
  w->target = target;
  w->tick = tick;
  asc_task task = {
      .run = run_event_wait, .release = release_event_wait, .user = w, .what = "event wait"};
  asc_status st = push(stream, &task, true, NULL);
  if (st) release_event_wait(w);
  return st;
}

/* --- fork ----------------------------------------------------------------- */

void cpu_streams_at_fork(asc_fork_phase phase) {
  if (phase == ASC_FORK_PREPARE) {
    pthread_mutex_lock(&registry_lock);
    for (struct cpu_event *e = all_events; e; e = e->reg_next) pthread_mutex_lock(&e->lock);
    for (cpu_stream *s = all_streams; s; s = s->reg_next) pthread_mutex_lock(&s->lock);
    return;
  }
  for (cpu_stream *s = all_streams; s; s = s->reg_next) {
    if (phase == ASC_FORK_CHILD) {
      /* No thread survived: the queue waits for a new one (ensure_thread).
       * A task that was running cannot finish here; it fails like any
       * task, and the stream skips later work until that is reported. */
      uint64_t lost = s->running ? s->running->tick : s->inline_tick;
      if (lost) {
        const char *what = s->running ? s->running->task.what : s->inline_what;
        if (s->error == ASC_OK) {
          s->error = ASC_ERR_DEVICE;
          snprintf(s->error_msg, sizeof s->error_msg,
                   "%s was running in another thread when the process forked: it cannot finish "
                   "in the child process",
                   what ? what : "a task");
        } else {
          s->skipped++;
        }
        atomic_store(&s->completed, lost);
      }
      s->running = NULL; /* its node stays with the parent's thread */
      s->inline_tick = 0;
      s->thread_alive = false;
      s->worker_sleeping = false;
      s->sleepers = 0;
      init_conds(s); /* waiters of the parent's threads are gone */
    }
    pthread_mutex_unlock(&s->lock);
  }
  for (struct cpu_event *e = all_events; e; e = e->reg_next) pthread_mutex_unlock(&e->lock);
  pthread_mutex_unlock(&registry_lock);
}
