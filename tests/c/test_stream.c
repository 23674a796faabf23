/* Streams: FIFO host tasks, query/synchronize, concurrency between streams,
 * deferred errors, destruction and the per-thread current stream. */
#include "asc_test.h"

#include <sys/wait.h>
#include <unistd.h>

/* --- host tasks used below ------------------------------------------------ */

enum { MAX_TASKS = 256 };

typedef struct order_log {
  atomic_int next;     /* sequence counter shared by the tasks */
  int seq[MAX_TASKS];  /* seq[i]: when task i ran, -1 if it never did */
  atomic_int released; /* release callbacks run */
} order_log;

typedef struct order_task {
  order_log *log;
  int index;
} order_task;

static order_log g_log;
static order_task g_tasks[MAX_TASKS];

static asc_status record_order(void *user) {
  order_task *t = user;
  t->log->seq[t->index] = atomic_fetch_add(&t->log->next, 1);
  return ASC_OK;
}

static void count_release(void *user) {
  order_task *t = user;
  atomic_fetch_add(&t->log->released, 1);
}

static void reset_log(void) {
  atomic_store(&g_log.next, 0);
  atomic_store(&g_log.released, 0);
  for (int i = 0; i < MAX_TASKS; i++) {
    g_log.seq[i] = -1;
    g_tasks[i] = (order_task){&g_log, i};
  }
}

static asc_status enqueue_ordered(asc_stream_t s, int index) {
  asc_task task = {.run = record_order,
                   .release = count_release,
                   .user = &g_tasks[index],
                   .what = "ordered task"};
  return asc_stream_enqueue(s, &task);
}

/* Sleeps, then sets a flag: work that is slow enough that a caller which does
 * not wait for it would see the flag still clear. */
typedef struct slow_flag {
  double ms;
  atomic_int flag;
} slow_flag;

static slow_flag g_slow[4];

static asc_status sleep_then_set(void *user) {
  slow_flag *f = user;
  asc_test_sleep_ms(f->ms);
  atomic_store(&f->flag, 1);
  return ASC_OK;
}

static asc_status enqueue_slow(asc_stream_t s, slow_flag *f, double ms) {
  f->ms = ms;
  atomic_store(&f->flag, 0);
  asc_task task = {.run = sleep_then_set, .user = f, .what = "slow task"};
  return asc_stream_enqueue(s, &task);
}

/* Rendezvous: each side announces itself and waits (bounded) for the other,
 * which can only succeed when the two run at the same time. */
typedef struct rendezvous {
  atomic_int arrived;
  atomic_int met; /* sides that saw the other one */
} rendezvous;

static rendezvous g_meet;

static asc_status meet(void *user) {
  rendezvous *r = user;
  atomic_fetch_add(&r->arrived, 1);
  double deadline = asc_test_now_ms() + 10000;
  while (atomic_load(&r->arrived) < 2 && asc_test_now_ms() < deadline) asc_test_sleep_ms(0.2);
  if (atomic_load(&r->arrived) < 2) return asc_error(ASC_ERR_DEVICE, "rendezvous timed out");
  atomic_fetch_add(&r->met, 1);
  return ASC_OK;
}

/* Records which thread ran it. */
static pthread_t g_ran_on[4];

static asc_status note_thread(void *user) {
  *(pthread_t *)user = pthread_self();
  return ASC_OK;
}

static asc_status enqueue_note(asc_stream_t s, pthread_t *where) {
  asc_task task = {.run = note_thread, .user = where, .what = "note thread"};
  return asc_stream_enqueue(s, &task);
}

/* --- tests ------------------------------------------------------------------ */

static void test_host_tasks_run_in_fifo_order(void **state) {
  (void)state;
  reset_log();
  asc_stream_t s;
  assert_ok(asc_stream_create(0, &s));
  /* Hold the stream so that all tasks are queued before any runs. */
  assert_ok(asc_test_gate_enqueue(s, asc_test_gate_get(0)));
  enum { N = 200 };
  for (int i = 0; i < N; i++) assert_ok(enqueue_ordered(s, i));
  asc_test_gate_open(asc_test_gate_get(0));
  assert_ok(asc_stream_synchronize(s));
  for (int i = 0; i < N; i++) assert_int_equal(g_log.seq[i], i);
  assert_int_equal(atomic_load(&g_log.released), N);
  assert_ok(asc_stream_destroy(s));
}

static void test_fifo_order_holds_without_a_gate(void **state) {
  (void)state;
  reset_log();
  asc_stream_t s;
  assert_ok(asc_stream_create(0, &s));
  enum { N = 150 };
  for (int i = 0; i < N; i++) {
    assert_ok(enqueue_ordered(s, i));
    if (i % 37 == 0) assert_ok(asc_testing_spin(s, 0.2, 1)); /* interleave launches */
  }
  assert_ok(asc_stream_synchronize(s));
  for (int i = 0; i < N; i++) assert_int_equal(g_log.seq[i], i);
  assert_int_equal(atomic_load(&g_log.released), N);
}

static void test_query_reports_not_ready_while_a_spin_runs(void **state) {
  (void)state;
  asc_stream_t s;
  assert_ok(asc_stream_create(0, &s));
  assert_ok(asc_stream_query(s)); /* idle */
  assert_ok(asc_testing_spin(s, 100, 1));
  assert_status(asc_stream_query(s), ASC_ERR_NOT_READY);
  assert_ok(asc_stream_synchronize(s));
  assert_ok(asc_stream_query(s));
}

static void test_query_is_not_ready_until_a_gate_opens(void **state) {
  (void)state;
  asc_stream_t s;
  assert_ok(asc_stream_create(0, &s));
  asc_test_gate *g = asc_test_gate_get(0);
  assert_ok(asc_test_gate_enqueue(s, g));
  for (int i = 0; i < 5; i++) {
    assert_status(asc_stream_query(s), ASC_ERR_NOT_READY);
    asc_test_sleep_ms(2);
  }
  asc_test_gate_open(g);
  assert_ok(asc_stream_synchronize(s));
  assert_ok(asc_stream_query(s));
  assert_int_equal(atomic_load(&g->passed), 1);
}

static void test_synchronize_waits_for_queued_work(void **state) {
  (void)state;
  asc_stream_t s;
  assert_ok(asc_stream_create(0, &s));
  assert_ok(enqueue_slow(s, &g_slow[0], 40));
  assert_ok(enqueue_slow(s, &g_slow[1], 10));
  assert_ok(asc_stream_synchronize(s));
  assert_int_equal(atomic_load(&g_slow[0].flag), 1);
  assert_int_equal(atomic_load(&g_slow[1].flag), 1);
}

static void test_two_streams_run_host_tasks_concurrently(void **state) {
  (void)state;
  asc_stream_t a, b;
  assert_ok(asc_stream_create(0, &a));
  assert_ok(asc_stream_create(0, &b));
  atomic_store(&g_meet.arrived, 0);
  atomic_store(&g_meet.met, 0);
  asc_task task = {.run = meet, .user = &g_meet, .what = "rendezvous"};
  assert_ok(asc_stream_enqueue(a, &task));
  assert_ok(asc_stream_enqueue(b, &task));
  assert_ok(asc_stream_synchronize(a)); /* fails if b never ran alongside */
  assert_ok(asc_stream_synchronize(b));
  assert_int_equal(atomic_load(&g_meet.met), 2);
}

/* A kernel block that meets the other stream's block (the rendezvous). */
static asc_status meet_kernel(const asc_block_ctx *ctx, const void *args) {
  (void)ctx;
  rendezvous *r;
  memcpy(&r, args, sizeof r);
  return meet(r);
}

static void test_two_streams_overlap_their_kernels(void **state) {
  (void)state;
  if (asc_test_under_valgrind()) skip(); /* valgrind runs one thread at a time */
  asc_stream_t a, b;
  assert_ok(asc_stream_create(0, &a));
  assert_ok(asc_stream_create(0, &b));
  atomic_store(&g_meet.arrived, 0);
  atomic_store(&g_meet.met, 0);
  rendezvous *r = &g_meet;
  assert_ok(asc_launch(a, meet_kernel, 1, &r, sizeof r));
  assert_ok(asc_launch(b, meet_kernel, 1, &r, sizeof r));
  assert_ok(asc_stream_synchronize(a)); /* fails if b's kernel never ran alongside */
  assert_ok(asc_stream_synchronize(b));
  assert_int_equal(atomic_load(&g_meet.met), 2);
}

static void test_deferred_error_skips_later_tasks_and_is_reported_once(void **state) {
  (void)state;
  reset_log();
  asc_stream_t s;
  assert_ok(asc_stream_create(0, &s));
  assert_ok(enqueue_ordered(s, 0));
  assert_ok(asc_testing_fail(s, ASC_ERR_DEVICE, "injected boom"));
  assert_ok(enqueue_ordered(s, 1));
  assert_ok(asc_testing_spin(s, 1, 2));
  assert_ok(enqueue_ordered(s, 2));

  /* Query does not report errors; it only says whether work is pending. */
  while (asc_stream_query(s) == ASC_ERR_NOT_READY) asc_test_sleep_ms(1);
  assert_ok(asc_stream_query(s));

  asc_clear_error();
  assert_error(asc_stream_synchronize(s), ASC_ERR_DEVICE, "injected boom");
  assert_int_equal(asc_last_status(), ASC_ERR_DEVICE);
  assert_contains(asc_last_error(), "test task");             /* which task failed */
  assert_contains(asc_last_error(), "3 later tasks skipped"); /* 2 tasks + 1 launch */
  assert_int_equal(g_log.seq[0], 0);
  assert_int_equal(g_log.seq[1], -1);
  assert_int_equal(g_log.seq[2], -1);
  /* Skipped tasks are still released. */
  assert_int_equal(atomic_load(&g_log.released), 3);

  /* Reported once: the next synchronize is clean, and the stream works. */
  assert_ok(asc_stream_synchronize(s));
  assert_ok(enqueue_ordered(s, 3));
  assert_ok(asc_stream_synchronize(s));
  assert_int_equal(g_log.seq[3], 1);
}

static void test_deferred_error_without_skips_says_nothing_about_skips(void **state) {
  (void)state;
  asc_stream_t s;
  assert_ok(asc_stream_create(0, &s));
  assert_ok(asc_testing_fail(s, ASC_ERR_INDEX, "only failure"));
  assert_error(asc_stream_synchronize(s), ASC_ERR_INDEX, "only failure");
  assert_not_contains(asc_last_error(), "skipped");

  assert_ok(asc_testing_fail(s, ASC_ERR_TYPE, "first"));
  assert_ok(asc_testing_fail(s, ASC_ERR_INTERNAL, "second"));
  /* The first failure wins; the second task is skipped, not run. */
  assert_error(asc_stream_synchronize(s), ASC_ERR_TYPE, "first");
  assert_not_contains(asc_last_error(), "second");
  assert_contains(asc_last_error(), "1 later task skipped");
}

static void test_deferred_error_does_not_poison_other_streams(void **state) {
  (void)state;
  reset_log();
  asc_stream_t a, b;
  assert_ok(asc_stream_create(0, &a));
  assert_ok(asc_stream_create(0, &b));
  assert_ok(asc_testing_fail(a, ASC_ERR_KERNEL, "a failed"));
  assert_ok(asc_stream_synchronize(b));
  for (int i = 0; i < 5; i++) assert_ok(enqueue_ordered(b, i));
  assert_ok(asc_stream_synchronize(b));
  for (int i = 0; i < 5; i++) assert_int_equal(g_log.seq[i], i);
  assert_error(asc_stream_synchronize(a), ASC_ERR_KERNEL, "a failed");
  assert_ok(asc_stream_synchronize(b));
}

static void test_testing_fail_rejects_non_error_statuses(void **state) {
  (void)state;
  asc_stream_t s;
  assert_ok(asc_stream_create(0, &s));
  assert_status(asc_testing_fail(s, ASC_OK, "x"), ASC_ERR_INVALID_VALUE);
  assert_status(asc_testing_fail(s, ASC_ERR_NOT_READY, "x"), ASC_ERR_INVALID_VALUE);
  assert_status(asc_testing_fail(s, ASC_STATUS_COUNT, "x"), ASC_ERR_INVALID_VALUE);
  assert_status(asc_testing_spin(s, -1, 1), ASC_ERR_INVALID_VALUE);
  assert_ok(asc_stream_synchronize(s)); /* nothing was queued */
}

static void test_destroyed_stream_handle_is_invalid(void **state) {
  (void)state;
  asc_stream_t s;
  assert_ok(asc_stream_create(0, &s));
  assert_ok(asc_testing_spin(s, 1, 1));
  assert_ok(asc_stream_destroy(s));
  asc_task task = {.run = record_order, .user = &g_tasks[0], .what = "x"};
  assert_error(asc_stream_synchronize(s), ASC_ERR_INVALID_HANDLE, "stream");
  assert_status(asc_stream_enqueue(s, &task), ASC_ERR_INVALID_HANDLE);
  assert_status(asc_stream_destroy(s), ASC_ERR_INVALID_HANDLE);
  assert_status(asc_stream_query(s), ASC_ERR_INVALID_HANDLE);
  assert_status(asc_stream_set_current(s), ASC_ERR_INVALID_HANDLE);
  assert_status(asc_testing_spin(s, 1, 1), ASC_ERR_INVALID_HANDLE);
  int dev;
  assert_status(asc_stream_device(s, &dev), ASC_ERR_INVALID_HANDLE);

  /* A new stream gets a different handle; the old one stays dead. */
  asc_stream_t t;
  assert_ok(asc_stream_create(0, &t));
  assert_true(t != s);
  assert_status(asc_stream_synchronize(s), ASC_ERR_INVALID_HANDLE);
  assert_ok(asc_stream_synchronize(t));
}

static void test_made_up_stream_handles_are_invalid(void **state) {
  (void)state;
  const asc_stream_t bad[] = {1, 12345, UINT64_MAX, (asc_stream_t)0x45 << 56 | 1};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    assert_status(asc_stream_synchronize(bad[i]), ASC_ERR_INVALID_HANDLE);
    assert_status(asc_stream_query(bad[i]), ASC_ERR_INVALID_HANDLE);
    assert_status(asc_stream_destroy(bad[i]), ASC_ERR_INVALID_HANDLE);
  }
}

static void test_default_stream_cannot_be_destroyed(void **state) {
  (void)state;
  asc_stream_t d, d2;
  assert_ok(asc_stream_default(0, &d));
  assert_ok(asc_stream_default(0, &d2));
  assert_true(d != ASC_STREAM_CURRENT);
  assert_true(d == d2); /* one default stream per device */
  assert_error(asc_stream_destroy(d), ASC_ERR_INVALID_VALUE, "default");
  assert_ok(asc_testing_spin(d, 1, 1));
  assert_ok(asc_stream_synchronize(d));
  /* ASC_STREAM_CURRENT names it too, and cannot destroy it either. */
  assert_status(asc_stream_destroy(ASC_STREAM_CURRENT), ASC_ERR_INVALID_VALUE);
  assert_ok(asc_stream_synchronize(ASC_STREAM_CURRENT));
}

static void test_destroy_waits_for_queued_work(void **state) {
  (void)state;
  asc_stream_t s;
  assert_ok(asc_stream_create(0, &s));
  assert_ok(enqueue_slow(s, &g_slow[0], 50));
  assert_ok(enqueue_slow(s, &g_slow[1], 20));
  assert_ok(asc_stream_destroy(s));
  assert_int_equal(atomic_load(&g_slow[0].flag), 1);
  assert_int_equal(atomic_load(&g_slow[1].flag), 1);
}

typedef struct self_destroy {
  asc_stream_t stream;
  asc_status status;
} self_destroy;

static self_destroy g_self;

static asc_status destroy_own_stream(void *user) {
  self_destroy *d = user;
  d->status = asc_stream_destroy(d->stream);
  return ASC_OK;
}

static void test_destroy_from_own_task_fails_and_keeps_the_stream(void **state) {
  (void)state;
  asc_stream_t s;
  assert_ok(asc_stream_create(0, &s));
  g_self = (self_destroy){s, ASC_OK};
  asc_task task = {.run = destroy_own_stream, .user = &g_self, .what = "self destroy"};
  assert_ok(asc_stream_enqueue(s, &task));
  assert_ok(asc_stream_synchronize(s));
  assert_int_equal(g_self.status, ASC_ERR_INVALID_VALUE);
  /* The same handle still works. */
  reset_log();
  assert_ok(enqueue_ordered(s, 0));
  assert_ok(asc_stream_synchronize(s));
  assert_int_equal(g_log.seq[0], 0);
  assert_ok(asc_stream_destroy(s));
}

typedef struct current_view {
  asc_stream_t current;
  asc_stream_t deflt;
  pthread_t ran_on;
  asc_status st;
} current_view;

static void *look_at_current(void *arg) {
  current_view *v = arg;
  v->st = asc_stream_current(0, &v->current);
  if (!v->st) v->st = asc_stream_default(0, &v->deflt);
  if (!v->st) v->st = enqueue_note(ASC_STREAM_CURRENT, &v->ran_on);
  if (!v->st) v->st = asc_stream_synchronize(ASC_STREAM_CURRENT);
  return NULL;
}

static void test_current_stream_is_per_thread(void **state) {
  (void)state;
  asc_stream_t deflt, s, cur;
  assert_ok(asc_stream_default(0, &deflt));
  assert_ok(asc_stream_current(0, &cur));
  assert_true(cur == deflt); /* the default unless set */

  assert_ok(asc_stream_create(0, &s));
  assert_ok(asc_stream_set_current(s));
  assert_ok(asc_stream_current(0, &cur));
  assert_true(cur == s);

  /* ASC_STREAM_CURRENT now reaches s: compare the thread that runs it. */
  assert_ok(enqueue_note(s, &g_ran_on[0]));
  assert_ok(enqueue_note(ASC_STREAM_CURRENT, &g_ran_on[1]));
  assert_ok(enqueue_note(deflt, &g_ran_on[2]));
  assert_ok(asc_stream_synchronize(s));
  assert_ok(asc_stream_synchronize(deflt));
  assert_true(pthread_equal(g_ran_on[0], g_ran_on[1]));
  assert_false(pthread_equal(g_ran_on[0], g_ran_on[2]));
  int dev = -1;
  assert_ok(asc_stream_device(ASC_STREAM_CURRENT, &dev));
  assert_int_equal(dev, 0);

  /* Another thread still has the default stream as its current one. */
  current_view v;
  memset(&v, 0, sizeof v);
  pthread_t th;
  assert_int_equal(pthread_create(&th, NULL, look_at_current, &v), 0);
  assert_int_equal(pthread_join(th, NULL), 0);
  assert_int_equal(v.st, ASC_OK);
  assert_true(v.current == deflt);
  assert_true(v.deflt == deflt);
  assert_true(pthread_equal(v.ran_on, g_ran_on[2]));

  /* Setting the default back restores the original behaviour. */
  assert_ok(asc_stream_set_current(deflt));
  assert_ok(asc_stream_current(0, &cur));
  assert_true(cur == deflt);
  assert_status(asc_stream_set_current(987654321), ASC_ERR_INVALID_HANDLE);
  assert_ok(asc_stream_current(0, &cur));
  assert_true(cur == deflt);
}

static void test_current_stream_resets_after_shutdown_and_init(void **state) {
  (void)state;
  asc_stream_t s;
  assert_ok(asc_stream_create(0, &s));
  assert_ok(asc_stream_set_current(s));
  assert_ok(asc_shutdown());
  assert_ok(asc_init());
  /* Handles from before the shutdown are dead, even when a new stream lands
   * in the same slot, and the current stream is the new default again. */
  asc_stream_t t, deflt, cur;
  assert_ok(asc_stream_create(0, &t));
  assert_status(asc_stream_synchronize(s), ASC_ERR_INVALID_HANDLE);
  assert_ok(asc_stream_default(0, &deflt));
  assert_ok(asc_stream_current(0, &cur));
  assert_true(cur == deflt);
  assert_ok(asc_testing_spin(ASC_STREAM_CURRENT, 0, 1));
  assert_ok(asc_stream_synchronize(ASC_STREAM_CURRENT));
}

enum { RACERS = 4 };
static pthread_barrier_t g_race;

typedef struct default_race {
  asc_stream_t got;
  asc_status st;
} default_race;

static void *grab_default(void *arg) {
  default_race *r = arg;
  pthread_barrier_wait(&g_race);
  r->st = asc_stream_default(0, &r->got);
  return NULL;
}

static void test_default_stream_is_created_once_under_concurrent_first_use(void **state) {
  (void)state;
  default_race r[RACERS];
  pthread_t th[RACERS];
  assert_int_equal(pthread_barrier_init(&g_race, NULL, RACERS), 0);
  for (int i = 0; i < RACERS; i++) {
    r[i] = (default_race){0, ASC_ERR_INTERNAL};
    assert_int_equal(pthread_create(&th[i], NULL, grab_default, &r[i]), 0);
  }
  for (int i = 0; i < RACERS; i++) assert_int_equal(pthread_join(th[i], NULL), 0);
  pthread_barrier_destroy(&g_race);
  asc_stream_t mine;
  assert_ok(asc_stream_default(0, &mine));
  for (int i = 0; i < RACERS; i++) {
    assert_int_equal(r[i].st, ASC_OK);
    assert_true(r[i].got == mine);
  }
}

static void test_device_synchronize_waits_for_all_streams(void **state) {
  (void)state;
  asc_stream_t a, b, c;
  assert_ok(asc_stream_create(0, &a));
  assert_ok(asc_stream_create(0, &b));
  assert_ok(asc_stream_default(0, &c));
  assert_ok(enqueue_slow(a, &g_slow[0], 40));
  assert_ok(enqueue_slow(b, &g_slow[1], 30));
  assert_ok(enqueue_slow(c, &g_slow[2], 20));
  assert_ok(asc_device_synchronize(0));
  for (int i = 0; i < 3; i++) assert_int_equal(atomic_load(&g_slow[i].flag), 1);
  assert_ok(asc_stream_query(a));
  assert_ok(asc_stream_query(b));
  assert_ok(asc_stream_query(c));
}

static void test_device_synchronize_reports_a_deferred_error(void **state) {
  (void)state;
  asc_stream_t a, b;
  assert_ok(asc_stream_create(0, &a));
  assert_ok(asc_stream_create(0, &b));
  assert_ok(enqueue_slow(a, &g_slow[0], 30));
  assert_ok(asc_testing_fail(b, ASC_ERR_DEVICE, "device-wide boom"));
  assert_error(asc_device_synchronize(0), ASC_ERR_DEVICE, "device-wide boom");
  assert_int_equal(atomic_load(&g_slow[0].flag), 1); /* still waited for a */
  assert_ok(asc_device_synchronize(0));              /* reported once */
  assert_ok(asc_stream_synchronize(b));
}

static void test_enqueue_without_a_task_fails_cleanly(void **state) {
  (void)state;
  asc_stream_t s;
  assert_ok(asc_stream_create(0, &s));
  assert_status(asc_stream_enqueue(s, NULL), ASC_ERR_INVALID_VALUE);
  asc_task no_run = {.run = NULL, .release = count_release, .user = &g_tasks[0], .what = "x"};
  reset_log();
  assert_error(asc_stream_enqueue(s, &no_run), ASC_ERR_INVALID_VALUE, "run");
  assert_status(asc_stream_enqueue(ASC_STREAM_CURRENT, NULL), ASC_ERR_INVALID_VALUE);
  assert_ok(asc_stream_synchronize(s));
  assert_ok(asc_stream_query(s));
}

static void test_streams_report_their_device(void **state) {
  (void)state;
  setenv("PYASC_CPU_DEVICES", "2", 1);
  assert_ok(asc_shutdown());
  asc_stream_t s0, s1, d1;
  assert_ok(asc_stream_create(0, &s0));
  assert_ok(asc_stream_create(1, &s1));
  assert_ok(asc_stream_default(1, &d1));
  int dev = -1;
  assert_ok(asc_stream_device(s0, &dev));
  assert_int_equal(dev, 0);
  assert_ok(asc_stream_device(s1, &dev));
  assert_int_equal(dev, 1);
  assert_ok(asc_stream_device(d1, &dev));
  assert_int_equal(dev, 1);
  /* The current stream is per device. */
  assert_ok(asc_stream_set_current(s1));
  asc_stream_t cur0, cur1, d0;
  assert_ok(asc_stream_current(0, &cur0));
  assert_ok(asc_stream_current(1, &cur1));
  assert_ok(asc_stream_default(0, &d0));
  assert_true(cur0 == d0);
  assert_true(cur1 == s1);
  assert_ok(asc_stream_set_current(d1));
}

/* --- hardening: timed waits, self-waits, failure hooks, fork -------------- */

static void test_synchronize_for_times_out_and_keeps_the_error(void **state) {
  (void)state;
  asc_stream_t s;
  asc_event_t e;
  assert_ok(asc_stream_create(0, &s));
  assert_ok(asc_event_create(&e));
  asc_test_gate *g = asc_test_gate_get(0);
  assert_ok(asc_test_gate_enqueue(s, g));
  assert_ok(asc_testing_fail(s, ASC_ERR_DEVICE, "kept for later"));
  assert_ok(asc_event_record(e, s));
  assert_status(asc_stream_synchronize_for(s, 0), ASC_ERR_NOT_READY);
  assert_status(asc_stream_synchronize_for(s, 5 * 1000000), ASC_ERR_NOT_READY);
  assert_status(asc_event_synchronize_for(e, 5 * 1000000), ASC_ERR_NOT_READY);
  assert_status(asc_device_synchronize_for(0, 5 * 1000000), ASC_ERR_NOT_READY);
  asc_test_gate_open(g);
  /* The wait that finishes reports the failure the timed-out ones left. */
  assert_error(asc_stream_synchronize_for(s, 10000 * 1000000LL), ASC_ERR_DEVICE, "kept for later");
  assert_ok(asc_event_synchronize_for(e, -1));
  assert_ok(asc_device_synchronize_for(0, -1));
  assert_ok(asc_event_destroy(e));
  assert_ok(asc_stream_destroy(s));
}

typedef struct self_wait {
  asc_stream_t stream;
  asc_status stream_st, device_st;
  char message[256];
} self_wait;

static self_wait g_self_wait;

static asc_status wait_for_own_stream(void *user) {
  self_wait *w = user;
  w->stream_st = asc_stream_synchronize(w->stream);
  snprintf(w->message, sizeof w->message, "%s", asc_last_error());
  w->device_st = asc_device_synchronize(0);
  return ASC_OK;
}

static void test_task_waiting_for_its_own_stream_fails_instead_of_hanging(void **state) {
  (void)state;
  asc_stream_t s;
  assert_ok(asc_stream_create(0, &s));
  g_self_wait = (self_wait){.stream = s};
  asc_task task = {.run = wait_for_own_stream, .user = &g_self_wait, .what = "self wait"};
  assert_ok(asc_stream_enqueue(s, &task));
  assert_ok(asc_stream_synchronize(s));
  assert_int_equal(g_self_wait.stream_st, ASC_ERR_INVALID_VALUE);
  assert_contains(g_self_wait.message, "wait for itself");
  assert_int_equal(g_self_wait.device_st, ASC_ERR_INVALID_VALUE);
  assert_ok(asc_stream_destroy(s));
}

static atomic_int g_failed_calls, g_skipped_calls;

static asc_status run_ok(void *user) {
  (void)user;
  return ASC_OK;
}

static asc_status run_fail(void *user) {
  (void)user;
  return asc_error(ASC_ERR_DEVICE, "planned failure");
}

static void note_failed(void *user, bool skipped) {
  (void)user;
  atomic_fetch_add(skipped ? &g_skipped_calls : &g_failed_calls, 1);
}

static void test_failed_hook_runs_for_failed_and_skipped_tasks_only(void **state) {
  (void)state;
  asc_stream_t s;
  assert_ok(asc_stream_create(0, &s));
  atomic_store(&g_failed_calls, 0);
  atomic_store(&g_skipped_calls, 0);
  asc_task ok = {.run = run_ok, .failed = note_failed, .what = "ok task"};
  asc_task bad = {.run = run_fail, .failed = note_failed, .what = "bad task"};
  assert_ok(asc_stream_enqueue(s, &ok));
  assert_ok(asc_stream_synchronize(s));
  assert_int_equal(atomic_load(&g_failed_calls) + atomic_load(&g_skipped_calls), 0);
  assert_ok(asc_stream_enqueue(s, &bad));
  assert_ok(asc_stream_enqueue(s, &ok));
  assert_ok(asc_stream_enqueue(s, &ok));
  assert_error(asc_stream_synchronize(s), ASC_ERR_DEVICE, "planned failure");
  assert_int_equal(atomic_load(&g_failed_calls), 1);
  assert_int_equal(atomic_load(&g_skipped_calls), 2);
  assert_ok(asc_stream_destroy(s));
}

static void test_forked_child_gets_a_working_runtime(void **state) {
  (void)state;
  asc_stream_t s;
  assert_ok(asc_stream_create(0, &s));
  reset_log();
  assert_ok(enqueue_ordered(s, 0));
  assert_ok(asc_testing_spin(s, 1, 8)); /* the helper pool exists now */
  assert_ok(asc_stream_synchronize(s));
  void *p;
  assert_ok(asc_mem_alloc(0, 64, s, &p));
  memset(p, 7, 64);
  fflush(NULL);
  pid_t pid = fork();
  if (pid == 0) {
    alarm(20); /* a hang ends the child instead of the test run */
    int ok = ((unsigned char *)p)[63] == 7;
    ok = ok && enqueue_ordered(s, 1) == ASC_OK && asc_testing_spin(s, 1, 8) == ASC_OK;
    ok = ok && asc_stream_synchronize(s) == ASC_OK && g_log.seq[1] == 1;
    asc_stream_t s2;
    ok = ok && asc_stream_create(0, &s2) == ASC_OK && asc_testing_spin(s2, 1, 4) == ASC_OK;
    ok = ok && asc_device_synchronize(0) == ASC_OK && asc_stream_destroy(s2) == ASC_OK;
    ok = ok && asc_mem_free(p) == ASC_OK;
    _exit(ok ? 0 : 1);
  }
  assert_true(pid > 0);
  int status = 0;
  assert_int_equal(waitpid(pid, &status, 0), pid);
  assert_true(WIFEXITED(status));
  assert_int_equal(WEXITSTATUS(status), 0);
  assert_ok(asc_mem_free(p));
  assert_ok(asc_stream_destroy(s));
}

int main(void) {
  const struct CMUnitTest tests[] = {
      ASC_TEST(test_host_tasks_run_in_fifo_order),
      ASC_TEST(test_fifo_order_holds_without_a_gate),
      ASC_TEST(test_query_reports_not_ready_while_a_spin_runs),
      ASC_TEST(test_query_is_not_ready_until_a_gate_opens),
      ASC_TEST(test_synchronize_waits_for_queued_work),
      ASC_TEST(test_two_streams_run_host_tasks_concurrently),
      ASC_TEST(test_two_streams_overlap_their_kernels),
      ASC_TEST(test_deferred_error_skips_later_tasks_and_is_reported_once),
      ASC_TEST(test_deferred_error_without_skips_says_nothing_about_skips),
      ASC_TEST(test_deferred_error_does_not_poison_other_streams),
      ASC_TEST(test_testing_fail_rejects_non_error_statuses),
      ASC_TEST(test_destroyed_stream_handle_is_invalid),
      ASC_TEST(test_made_up_stream_handles_are_invalid),
      ASC_TEST(test_default_stream_cannot_be_destroyed),
      ASC_TEST(test_destroy_waits_for_queued_work),
      ASC_TEST(test_destroy_from_own_task_fails_and_keeps_the_stream),
      ASC_TEST(test_current_stream_is_per_thread),
      ASC_TEST(test_current_stream_resets_after_shutdown_and_init),
      ASC_TEST(test_default_stream_is_created_once_under_concurrent_first_use),
      ASC_TEST(test_device_synchronize_waits_for_all_streams),
      ASC_TEST(test_device_synchronize_reports_a_deferred_error),
      ASC_TEST(test_enqueue_without_a_task_fails_cleanly),
      ASC_TEST(test_streams_report_their_device),
      ASC_TEST(test_synchronize_for_times_out_and_keeps_the_error),
      ASC_TEST(test_task_waiting_for_its_own_stream_fails_instead_of_hanging),
      ASC_TEST(test_failed_hook_runs_for_failed_and_skipped_tasks_only),
      ASC_TEST(test_forked_child_gets_a_working_runtime),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
