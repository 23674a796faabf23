/* Deterministic work for tests and benchmarks: a busy kernel and a failure. */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "runtime.h"

static double now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static asc_status spin_kernel(const asc_block_ctx *ctx, const void *args) {
  (void)ctx;
  double ms;
  memcpy(&ms, args, sizeof ms);
  double until = now_ms() + ms;
  volatile unsigned sink = 0;
  while (now_ms() < until)
    for (unsigned i = 0; i < 1000; i++) sink += i;
  (void)sink; /* clang: -Wunused-but-set-variable */
  return ASC_OK;
}

asc_status asc_testing_spin(asc_stream_t stream, double ms, uint32_t blocks) {
  if (!(ms >= 0 && ms <= 600000))
    return asc_error(ASC_ERR_INVALID_VALUE, "spin: ms must be in [0, 600000]");
  return asc_launch(stream, spin_kernel, blocks, &ms, sizeof ms);
}

typedef struct failure {
  asc_status status;
  char message[];
} failure;

static asc_status run_failure(void *user) {
  failure *f = user;
  return asc_error(f->status, "%s", f->message);
}

asc_status asc_testing_fail(asc_stream_t stream, asc_status status, const char *message) {
  if (status <= ASC_OK || status >= ASC_STATUS_COUNT || status == ASC_ERR_NOT_READY)
    return asc_error(ASC_ERR_INVALID_VALUE, "fail: %d is not an error status", (int)status);
  if (!message) message = "injected failure";
  size_t len = strlen(message);
  failure *f = malloc(sizeof *f + len + 1);
  if (!f) return asc_error(ASC_ERR_OUT_OF_MEMORY, "fail: cannot allocate");
  f->status = status;
  memcpy(f->message, message, len + 1);
  asc_task task = {.run = run_failure, .release = free, .user = f, .what = "test task"};
  asc_status st = asc_stream_enqueue(stream, &task);
  if (st) free(f);
  return st;
}
