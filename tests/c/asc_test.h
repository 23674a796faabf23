/* Shared helpers for the libasc cmocka tests: status assertions, clocks,
 * gates (host tasks that hold a stream until the test opens them) and the
 * per-test teardown that shuts libasc down so leak checkers see nothing. */
#ifndef ASC_TEST_H
#define ASC_TEST_H

// clang-format off
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
// clang-format on

#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "asc/asc.h"

/* --- assertions ------------------------------------------------------------ */

#define assert_ok(expr)                                                              \
  do {                                                                               \
    asc_status st_ = (expr);                                                         \
    if (st_ != ASC_OK)                                                               \
      fail_msg("%s returned %s: %s", #expr, asc_status_name(st_), asc_last_error()); \
  } while (0)

#define assert_status(expr, want)                                                          \
  do {                                                                                     \
    asc_status st_ = (expr);                                                               \
    asc_status want_ = (want);                                                             \
    if (st_ != want_)                                                                      \
      fail_msg("%s returned %s, expected %s (message: '%s')", #expr, asc_status_name(st_), \
               asc_status_name(want_), asc_last_error());                                  \
  } while (0)

#define assert_contains(text, needle)                                            \
  do {                                                                           \
    const char *text_ = (text);                                                  \
    const char *needle_ = (needle);                                              \
    if (!text_ || !strstr(text_, needle_))                                       \
      fail_msg("'%s' does not contain '%s'", text_ ? text_ : "(null)", needle_); \
  } while (0)

#define assert_not_contains(text, needle)                                             \
  do {                                                                                \
    const char *text_ = (text);                                                       \
    const char *needle_ = (needle);                                                   \
    if (!text_ || strstr(text_, needle_))                                             \
      fail_msg("'%s' unexpectedly contains '%s'", text_ ? text_ : "(null)", needle_); \
  } while (0)

/* The call fails with `want` and leaves a message mentioning `needle`. */
#define assert_error(expr, want, needle)       \
  do {                                         \
    assert_status(expr, want);                 \
    assert_contains(asc_last_error(), needle); \
  } while (0)

/* --- environment and clocks ------------------------------------------------ */

static inline bool asc_test_under_valgrind(void) {
  const char *preload = getenv("LD_PRELOAD");
  return preload && (strstr(preload, "vgpreload") || strstr(preload, "valgrind"));
}

static inline double asc_test_now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static inline void asc_test_sleep_ms(double ms) {
  struct timespec ts = {.tv_sec = (time_t)(ms / 1000),
                        .tv_nsec = (long)((ms - (double)(time_t)(ms / 1000) * 1000) * 1e6)};
  while (nanosleep(&ts, &ts) != 0 && errno == EINTR) {
  }
}

/* Removes every variable libasc reads at init, so tests see the defaults. */
static inline void asc_test_clean_env(void) {
  static const char *const vars[] = {
      "PYASC_CPU_DEVICES", "PYASC_CPU_AI_CORES", "PYASC_CPU_CUBE_CORES",    "PYASC_CPU_UB_SIZE",
      "PYASC_CPU_L1_SIZE", "PYASC_CPU_L0A_SIZE", "PYASC_CPU_L0B_SIZE",      "PYASC_CPU_L0C_SIZE",
      "PYASC_CPU_MEMORY",  "PYASC_CPU_WORKERS",  "PYASC_NO_MEMORY_CACHING",
  };
  for (size_t i = 0; i < sizeof vars / sizeof vars[0]; i++) unsetenv(vars[i]);
}

/* --- gates: hold a stream until the test says so --------------------------- */

#define ASC_TEST_GATES 4
#define ASC_TEST_GATE_TIMEOUT_S 20

typedef struct asc_test_gate {
  pthread_mutex_t lock;
  pthread_cond_t cond;
  bool open;
  atomic_int passed; /* tasks that went through the gate */
} asc_test_gate;

/* Static so that a task still queued when an assertion fails never touches a
 * dead stack frame; the teardown opens them all before shutting down. */
static asc_test_gate asc_test_gates[ASC_TEST_GATES] __attribute__((unused)) = {
    {PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, false, 0},
    {PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, false, 0},
    {PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, false, 0},
    {PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, false, 0},
};

static inline asc_test_gate *asc_test_gate_get(int i) {
  return &asc_test_gates[i];
}

static inline void asc_test_gate_set(asc_test_gate *g, bool open) {
  pthread_mutex_lock(&g->lock);
  g->open = open;
  pthread_cond_broadcast(&g->cond);
  pthread_mutex_unlock(&g->lock);
}

static inline void asc_test_gate_open(asc_test_gate *g) {
  asc_test_gate_set(g, true);
}

static inline asc_status asc_test_gate_run(void *user) {
  asc_test_gate *g = user;
  struct timespec deadline;
  clock_gettime(CLOCK_REALTIME, &deadline);
  deadline.tv_sec += ASC_TEST_GATE_TIMEOUT_S;
  pthread_mutex_lock(&g->lock);
  int rc = 0;
  while (!g->open && rc != ETIMEDOUT) rc = pthread_cond_timedwait(&g->cond, &g->lock, &deadline);
  bool open = g->open;
  pthread_mutex_unlock(&g->lock);
  if (!open) return asc_error(ASC_ERR_DEVICE, "test gate was never opened");
  atomic_fetch_add(&g->passed, 1);
  return ASC_OK;
}

/* Enqueues a task that blocks `stream` until the gate opens. */
static inline asc_status asc_test_gate_enqueue(asc_stream_t stream, asc_test_gate *g) {
  asc_task task = {.run = asc_test_gate_run, .release = NULL, .user = g, .what = "test gate"};
  return asc_stream_enqueue(stream, &task);
}

static inline void asc_test_gates_reset(void) {
  for (int i = 0; i < ASC_TEST_GATES; i++) {
    asc_test_gate_set(&asc_test_gates[i], false);
    atomic_store(&asc_test_gates[i].passed, 0);
  }
}

/* --- fixtures ------------------------------------------------------------- */

static inline int asc_test_setup(void **state) {
  (void)state;
  asc_test_clean_env();
  asc_test_gates_reset();
  asc_clear_error();
  return 0;
}

/* Lets every queued gate through, then frees everything libasc created. */
static inline int asc_test_teardown(void **state) {
  (void)state;
  for (int i = 0; i < ASC_TEST_GATES; i++) asc_test_gate_open(&asc_test_gates[i]);
  asc_status st = asc_shutdown();
  asc_test_clean_env();
  asc_test_gates_reset();
  return st == ASC_OK ? 0 : -1;
}

#define ASC_TEST(f) cmocka_unit_test_setup_teardown(f, asc_test_setup, asc_test_teardown)

#endif
