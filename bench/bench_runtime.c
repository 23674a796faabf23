/* Runtime latencies measured from C; prints "name nanoseconds" lines that
 * bench/runtime.py folds into its table. */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "asc/asc.h"

static double now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static int check(asc_status st, const char *what) {
  if (st == ASC_OK) return 0;
  fprintf(stderr, "%s failed: %s\n", what, asc_last_error());
  exit(1);
}

static double alloc_free_ns(int iterations, size_t nbytes) {
  void *p;
  double t0 = now_ns();
  for (int i = 0; i < iterations; i++) {
    check(asc_mem_alloc(0, nbytes, ASC_STREAM_CURRENT, &p), "alloc");
    check(asc_mem_free(p), "free");
  }
  return (now_ns() - t0) / iterations;
}

static double malloc_free_ns(int iterations, size_t nbytes) {
  double t0 = now_ns();
  for (int i = 0; i < iterations; i++) {
    void *volatile p = aligned_alloc(64, nbytes);
    free(p);
  }
  return (now_ns() - t0) / iterations;
}

static asc_status nothing(void *user) {
  (void)user;
  return ASC_OK;
}

static double round_trip_ns(int iterations) {
  asc_task task = {.run = nothing, .what = "empty task"};
  double best = 1e18;
  for (int i = 0; i < iterations; i++) {
    double t0 = now_ns();
    check(asc_stream_enqueue(ASC_STREAM_CURRENT, &task), "enqueue");
    check(asc_stream_synchronize(ASC_STREAM_CURRENT), "synchronize");
    double t = now_ns() - t0;
    if (t < best) best = t;
  }
  (void)best;
  double t0 = now_ns();
  for (int i = 0; i < iterations; i++) {
    check(asc_stream_enqueue(ASC_STREAM_CURRENT, &task), "enqueue");
    check(asc_stream_synchronize(ASC_STREAM_CURRENT), "synchronize");
  }
  return (now_ns() - t0) / iterations;
}

int main(int argc, char **argv) {
  int iterations = argc > 1 ? atoi(argv[1]) : 200000;
  size_t nbytes = 4096;
  check(asc_init(), "init");
  alloc_free_ns(1000, nbytes); /* warm the cache */
  printf("c_cached_alloc_free %.1f\n", alloc_free_ns(iterations, nbytes));
  check(asc_mem_set_caching(0, false), "set_caching");
  printf("c_uncached_alloc_free %.1f\n", alloc_free_ns(iterations / 10, nbytes));
  check(asc_mem_set_caching(0, true), "set_caching");
  printf("c_malloc_free %.1f\n", malloc_free_ns(iterations, nbytes));
  printf("c_empty_task_round_trip %.1f\n",
         round_trip_ns(iterations / 20 > 100 ? iterations / 20 : 100));
  check(asc_shutdown(), "shutdown");
  return 0;
}
