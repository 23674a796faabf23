/* Kernel launch on the cpu device: blocks, waves, Unified Buffer arenas,
 * argument copies, failures and ordering (asc_launch, asc_launch_ex). */
#include <sched.h>

#include "asc_test.h"

enum { MAX_BLOCKS = 1000 };

/* What every block saw; reset before each launch. */
static atomic_int g_runs[MAX_BLOCKS];
static atomic_int g_bad_ctx; /* blocks whose context was inconsistent */
static atomic_int g_total;

typedef struct count_args {
  uint32_t nblocks;
  size_t ub_size; /* expected, 0: do not touch the UB */
} count_args;

static void reset_counts(void) {
  for (int i = 0; i < MAX_BLOCKS; i++) atomic_store(&g_runs[i], 0);
  atomic_store(&g_bad_ctx, 0);
  atomic_store(&g_total, 0);
}

static asc_status count_kernel(const asc_block_ctx *ctx, const void *args) {
  const count_args *a = args;
  bool ok = ctx->block_num == a->nblocks && ctx->block_idx < ctx->block_num && ctx->device == 0 &&
            ctx->props && ctx->ub_size == ctx->props->ub_size;
  if (ctx->block_idx < MAX_BLOCKS) atomic_fetch_add(&g_runs[ctx->block_idx], 1);
  if (a->ub_size) {
    ok = ok && ctx->ub && ctx->ub_size == a->ub_size && (uintptr_t)ctx->ub % 32 == 0;
    if (ctx->ub) {
      /* The whole arena is writable and private to this block. */
      unsigned char tag = (unsigned char)(ctx->block_idx * 7 + 1);
      memset(ctx->ub, tag, ctx->ub_size);
      sched_yield(); /* give a block sharing the arena the chance to clobber it */
      const unsigned char *ub = ctx->ub;
      for (size_t i = 0; i < ctx->ub_size; i += 61) ok = ok && ub[i] == tag;
      ok = ok && ub[ctx->ub_size - 1] == tag;
    }
  }
  if (!ok) atomic_fetch_add(&g_bad_ctx, 1);
  atomic_fetch_add(&g_total, 1);
  return ASC_OK;
}

static void assert_each_block_ran_once(uint32_t n) {
  for (uint32_t i = 0; i < n; i++)
    if (atomic_load(&g_runs[i]) != 1)
      fail_msg("block %u of %u ran %d times", i, n, atomic_load(&g_runs[i]));
  assert_int_equal(atomic_load(&g_total), n);
  assert_int_equal(atomic_load(&g_bad_ctx), 0);
}

static asc_stream_t new_stream(void) {
  asc_stream_t s;
  assert_ok(asc_stream_create(0, &s));
  return s;
}

static void set_workers(int n) {
  asc_device_props p;
  assert_ok(asc_device_get_props(0, &p));
  p.worker_threads = n;
  assert_ok(asc_device_set_props(0, &p));
}

static void test_every_block_runs_exactly_once(void **state) {
  (void)state;
  const uint32_t counts[] = {1, 2, 7, 48, 1000};
  asc_stream_t s = new_stream();
  for (size_t c = 0; c < sizeof counts / sizeof counts[0]; c++) {
    reset_counts();
    count_args a = {.nblocks = counts[c], .ub_size = 0};
    assert_ok(asc_launch(s, count_kernel, counts[c], &a, sizeof a));
    assert_ok(asc_stream_synchronize(s));
    assert_each_block_ran_once(counts[c]);
  }
}

static void test_more_blocks_than_workers_run_in_waves(void **state) {
  (void)state;
  set_workers(3);
  asc_stream_t s = new_stream();
  reset_counts();
  count_args a = {.nblocks = 500, .ub_size = 0};
  assert_ok(asc_launch(s, count_kernel, 500, &a, sizeof a));
  assert_ok(asc_stream_synchronize(s));
  assert_each_block_ran_once(500);
}

static void test_each_block_gets_a_full_private_unified_buffer(void **state) {
  (void)state;
  set_workers(4);
  asc_device_props p;
  assert_ok(asc_device_get_props(0, &p));
  assert_int_equal(p.ub_size, 192 * 1024);
  reset_counts();
  count_args a = {.nblocks = 24, .ub_size = p.ub_size};
  assert_ok(asc_launch(ASC_STREAM_CURRENT, count_kernel, 24, &a, sizeof a));
  assert_ok(asc_stream_synchronize(ASC_STREAM_CURRENT));
  assert_each_block_ran_once(24);
}

static void test_unified_buffer_follows_the_configured_size(void **state) {
  (void)state;
  /* Sizes that are multiples of 32 but not of 64, and a large one. */
  const size_t sizes[] = {96, 32 * 1001, 1 << 20, 64 * 1024};
  asc_stream_t s = new_stream();
  for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
    asc_device_props p;
    assert_ok(asc_device_get_props(0, &p));
    p.ub_size = sizes[i];
    p.worker_threads = 2;
    assert_ok(asc_device_set_props(0, &p));
    reset_counts();
    count_args a = {.nblocks = 6, .ub_size = sizes[i]};
    assert_ok(asc_launch(s, count_kernel, 6, &a, sizeof a));
    assert_ok(asc_stream_synchronize(s));
    assert_each_block_ran_once(6);
  }
}

typedef struct ub_record {
  size_t ub_size;
} ub_record;

static ub_record g_ub_seen;

static asc_status record_ub_kernel(const asc_block_ctx *ctx, const void *args) {
  (void)args;
  g_ub_seen.ub_size = ctx->ub_size;
  return ASC_OK;
}

static void test_queued_launch_keeps_the_props_it_was_launched_with(void **state) {
  (void)state;
  asc_stream_t s = new_stream();
  asc_test_gate *g = asc_test_gate_get(0);
  assert_ok(asc_test_gate_enqueue(s, g));
  assert_ok(asc_launch(s, record_ub_kernel, 1, NULL, 0));
  asc_device_props p;
  assert_ok(asc_device_get_props(0, &p));
  p.ub_size = 64 * 1024;
  assert_ok(asc_device_set_props(0, &p));
  asc_test_gate_open(g);
  assert_ok(asc_stream_synchronize(s));
  assert_int_equal(g_ub_seen.ub_size, 192 * 1024);
  assert_ok(asc_launch(s, record_ub_kernel, 1, NULL, 0));
  assert_ok(asc_stream_synchronize(s));
  assert_int_equal(g_ub_seen.ub_size, 64 * 1024);
}

typedef struct value_args {
  int value;
  int *out;
} value_args;

static int g_values[8];

static asc_status store_value_kernel(const asc_block_ctx *ctx, const void *args) {
  const value_args *a = args;
  a->out[ctx->block_idx] = a->value;
  return ASC_OK;
}

static void test_args_are_copied_at_launch(void **state) {
  (void)state;
  asc_stream_t s = new_stream();
  asc_test_gate *g = asc_test_gate_get(0);
  memset(g_values, 0, sizeof g_values);
  assert_ok(asc_test_gate_enqueue(s, g)); /* nothing runs before we mutate */
  value_args *a = malloc(sizeof *a);
  assert_non_null(a);
  a->value = 7;
  a->out = g_values;
  assert_ok(asc_launch(s, store_value_kernel, 4, a, sizeof *a));
  a->value = 99; /* the caller may reuse its struct at once */
  assert_ok(asc_launch(s, store_value_kernel, 2, a, sizeof *a));
  a->value = -1;
  free(a); /* or free it */
  asc_test_gate_open(g);
  assert_ok(asc_stream_synchronize(s));
  assert_int_equal(g_values[0], 99);
  assert_int_equal(g_values[1], 99);
  assert_int_equal(g_values[2], 7);
  assert_int_equal(g_values[3], 7);
  assert_int_equal(g_values[4], 0);
}

enum { BIG_ARGS = 64 * 1024 };
static atomic_int g_big_ok;

static asc_status check_big_args_kernel(const asc_block_ctx *ctx, const void *args) {
  (void)ctx;
  const unsigned char *a = args;
  bool ok = true;
  for (size_t i = 0; i < BIG_ARGS; i++) ok = ok && a[i] == (unsigned char)(i * 13 + 5);
  if (ok) atomic_fetch_add(&g_big_ok, 1);
  return ASC_OK;
}

static void test_large_argument_blocks_are_copied_and_oversized_ones_rejected(void **state) {
  (void)state;
  unsigned char *big = malloc((1 << 20) + 1);
  assert_non_null(big);
  for (size_t i = 0; i < BIG_ARGS; i++) big[i] = (unsigned char)(i * 13 + 5);
  atomic_store(&g_big_ok, 0);
  asc_stream_t s = new_stream();
  assert_ok(asc_launch(s, check_big_args_kernel, 3, big, BIG_ARGS));
  memset(big, 0, BIG_ARGS);
  assert_ok(asc_stream_synchronize(s));
  assert_int_equal(atomic_load(&g_big_ok), 3);
  assert_ok(asc_launch(s, check_big_args_kernel, 1, big, 1 << 20)); /* exactly 1 MiB is fine */
  assert_error(asc_launch(s, check_big_args_kernel, 1, big, (1 << 20) + 1), ASC_ERR_INVALID_VALUE,
               "1 MiB");
  assert_ok(asc_stream_synchronize(s));
  free(big);
}

static atomic_int g_ran_blocks;

static asc_status fail_one_block_kernel(const asc_block_ctx *ctx, const void *args) {
  uint32_t bad;
  memcpy(&bad, args, sizeof bad);
  atomic_fetch_add(&g_ran_blocks, 1);
  if (ctx->block_idx == bad) return asc_error(ASC_ERR_KERNEL, "bad input in block %u", bad);
  return ASC_OK;
}

static void test_failing_block_is_reported_with_its_index(void **state) {
  (void)state;
  asc_stream_t s = new_stream();
  uint32_t bad = 37;
  atomic_store(&g_ran_blocks, 0);
  assert_ok(asc_launch(s, fail_one_block_kernel, 48, &bad, sizeof bad));
  asc_clear_error();
  assert_error(asc_stream_synchronize(s), ASC_ERR_KERNEL, "block 37");
  assert_contains(asc_last_error(), "bad input in block 37");
  assert_true(atomic_load(&g_ran_blocks) >= 1);
  assert_true(atomic_load(&g_ran_blocks) <= 48);
  /* Reported once; the stream runs later launches normally. */
  assert_ok(asc_stream_synchronize(s));
  reset_counts();
  count_args a = {.nblocks = 5, .ub_size = 0};
  assert_ok(asc_launch(s, count_kernel, 5, &a, sizeof a));
  assert_ok(asc_stream_synchronize(s));
  assert_each_block_ran_once(5);
}

static void test_failing_block_cancels_unstarted_blocks_and_later_work(void **state) {
  (void)state;
  set_workers(1); /* blocks run one after another, in order */
  asc_stream_t s = new_stream();
  uint32_t bad = 5;
  atomic_store(&g_ran_blocks, 0);
  reset_counts();
  assert_ok(asc_launch(s, fail_one_block_kernel, 100, &bad, sizeof bad));
  count_args a = {.nblocks = 3, .ub_size = 0};
  assert_ok(asc_launch(s, count_kernel, 3, &a, sizeof a)); /* skipped */
  assert_error(asc_stream_synchronize(s), ASC_ERR_KERNEL, "block 5 of 100");
  assert_contains(asc_last_error(), "1 later task skipped");
  assert_int_equal(atomic_load(&g_ran_blocks), 6); /* blocks 0..5, then cancelled */
  assert_int_equal(atomic_load(&g_total), 0);
}

static void test_invalid_launches_are_rejected(void **state) {
  (void)state;
  asc_stream_t s = new_stream();
  count_args a = {.nblocks = 1, .ub_size = 0};
  reset_counts();
  assert_error(asc_launch(s, NULL, 1, &a, sizeof a), ASC_ERR_INVALID_VALUE, "NULL");
  assert_error(asc_launch(s, count_kernel, 0, &a, sizeof a), ASC_ERR_INVALID_VALUE, "block count");
  assert_error(asc_launch(s, count_kernel, 1, NULL, sizeof a), ASC_ERR_INVALID_VALUE, "args");
  assert_status(asc_launch(123456, count_kernel, 1, &a, sizeof a), ASC_ERR_INVALID_HANDLE);
  assert_ok(asc_stream_synchronize(s)); /* nothing was queued, no deferred error */
  assert_int_equal(atomic_load(&g_total), 0);
  assert_ok(asc_stream_destroy(s));
  assert_status(asc_launch(s, count_kernel, 1, &a, sizeof a), ASC_ERR_INVALID_HANDLE);
}

static asc_status no_args_kernel(const asc_block_ctx *ctx, const void *args) {
  (void)args;
  atomic_fetch_add(&g_runs[ctx->block_idx], 1);
  atomic_fetch_add(&g_total, 1);
  return ASC_OK;
}

static void test_launch_without_args(void **state) {
  (void)state;
  reset_counts();
  assert_ok(asc_launch(ASC_STREAM_CURRENT, no_args_kernel, 3, NULL, 0));
  assert_ok(asc_stream_synchronize(ASC_STREAM_CURRENT));
  assert_each_block_ran_once(3);
}

/* out[i] = 2 * in[i] + block_idx over chunks of CHUNK elements. */
enum { CHUNK = 64, NCHUNKS = 16, ELEMS = CHUNK * NCHUNKS };

typedef struct scale_args {
  const int32_t *in;
  int32_t *out;
} scale_args;

static asc_status scale_kernel(const asc_block_ctx *ctx, const void *args) {
  const scale_args *a = args;
  for (uint32_t i = ctx->block_idx * CHUNK; i < (ctx->block_idx + 1) * CHUNK; i++)
    a->out[i] = 2 * a->in[i] + (int32_t)ctx->block_idx;
  return ASC_OK;
}

static int32_t g_host_in[ELEMS], g_host_out[ELEMS];

static void test_launch_is_ordered_with_async_copies_on_the_stream(void **state) {
  (void)state;
  asc_stream_t s = new_stream();
  int32_t *din = NULL, *dout = NULL;
  assert_ok(asc_mem_alloc(0, sizeof g_host_in, s, (void **)&din));
  assert_ok(asc_mem_alloc(0, sizeof g_host_out, s, (void **)&dout));
  memset(din, 0, sizeof g_host_in);
  memset(dout, 0xff, sizeof g_host_out);
  for (int i = 0; i < ELEMS; i++) g_host_in[i] = i * 3 - 100;
  memset(g_host_out, 0, sizeof g_host_out);

  asc_test_gate *g = asc_test_gate_get(0);
  assert_ok(asc_test_gate_enqueue(s, g)); /* queue everything before anything runs */
  assert_ok(asc_memcpy_async(din, g_host_in, sizeof g_host_in, ASC_MEMCPY_HOST_TO_DEVICE, s));
  scale_args a = {din, dout};
  assert_ok(asc_launch(s, scale_kernel, NCHUNKS, &a, sizeof a));
  assert_ok(asc_memcpy_async(g_host_out, dout, sizeof g_host_out, ASC_MEMCPY_DEVICE_TO_HOST, s));
  /* A second round reuses the input after the first launch read it. */
  assert_ok(asc_memset_async(din, 0, sizeof g_host_in, s));
  assert_ok(asc_launch(s, scale_kernel, NCHUNKS, &a, sizeof a));
  asc_test_gate_open(g);
  assert_ok(asc_stream_synchronize(s));
  for (int i = 0; i < ELEMS; i++)
    if (g_host_out[i] != 2 * (i * 3 - 100) + i / CHUNK)
      fail_msg("out[%d] = %d, expected %d", i, g_host_out[i], 2 * (i * 3 - 100) + i / CHUNK);
  for (int i = 0; i < ELEMS; i++) assert_int_equal(dout[i], i / CHUNK);
  assert_ok(asc_mem_free(din));
  assert_ok(asc_mem_free(dout));
}

/* Every block of a launch arrives, then waits (bounded) for all the others:
 * only possible when that many blocks run at once. */
static atomic_int g_arrived;
static atomic_int g_met;

static asc_status barrier_kernel(const asc_block_ctx *ctx, const void *args) {
  (void)args;
  atomic_fetch_add(&g_arrived, 1);
  double deadline = asc_test_now_ms() + 10000;
  while (atomic_load(&g_arrived) < (int)ctx->block_num && asc_test_now_ms() < deadline)
    asc_test_sleep_ms(0.2);
  if (atomic_load(&g_arrived) < (int)ctx->block_num)
    return asc_error(ASC_ERR_KERNEL, "only %d of %u blocks ran concurrently",
                     atomic_load(&g_arrived), ctx->block_num);
  atomic_fetch_add(&g_met, 1);
  return ASC_OK;
}

static pthread_t g_threads[MAX_BLOCKS];

static asc_status thread_kernel(const asc_block_ctx *ctx, const void *args) {
  (void)args;
  g_threads[ctx->block_idx] = pthread_self();
  atomic_fetch_add(&g_runs[ctx->block_idx], 1);
  atomic_fetch_add(&g_total, 1);
  return ASC_OK;
}

static void test_worker_thread_count_can_be_changed(void **state) {
  (void)state;
  asc_stream_t s = new_stream();

  set_workers(1); /* one thread runs every block */
  reset_counts();
  assert_ok(asc_launch(s, thread_kernel, 100, NULL, 0));
  assert_ok(asc_stream_synchronize(s));
  assert_each_block_ran_once(100);
  for (int i = 1; i < 100; i++) assert_true(pthread_equal(g_threads[i], g_threads[0]));

  set_workers(4); /* four blocks run at once */
  atomic_store(&g_arrived, 0);
  atomic_store(&g_met, 0);
  assert_ok(asc_launch(s, barrier_kernel, 4, NULL, 0));
  assert_ok(asc_stream_synchronize(s));
  assert_int_equal(atomic_load(&g_met), 4);
  reset_counts();
  assert_ok(asc_launch(s, thread_kernel, 100, NULL, 0));
  assert_ok(asc_stream_synchronize(s));
  assert_each_block_ran_once(100);

  set_workers(1); /* and back: one thread again */
  reset_counts();
  assert_ok(asc_launch(s, thread_kernel, 50, NULL, 0));
  assert_ok(asc_stream_synchronize(s));
  assert_each_block_ran_once(50);
  for (int i = 1; i < 50; i++) assert_true(pthread_equal(g_threads[i], g_threads[0]));
}

static void test_launches_on_two_streams_share_the_worker_pool(void **state) {
  (void)state;
  set_workers(3);
  asc_stream_t a = new_stream(), b = new_stream();
  reset_counts();
  count_args ca = {.nblocks = 400, .ub_size = 0};
  for (int i = 0; i < 3; i++) {
    assert_ok(asc_launch(a, thread_kernel, 200, NULL, 0));
    assert_ok(asc_launch(b, no_args_kernel, 200, NULL, 0));
    assert_ok(asc_stream_synchronize(a));
    assert_ok(asc_stream_synchronize(b));
  }
  for (int i = 0; i < 200; i++) assert_int_equal(atomic_load(&g_runs[i]), 6);
  assert_int_equal(atomic_load(&g_total), 1200);
  reset_counts();
  assert_ok(asc_launch(a, count_kernel, 400, &ca, sizeof ca));
  assert_ok(asc_launch(b, count_kernel, 400, &ca, sizeof ca));
  assert_ok(asc_device_synchronize(0));
  for (int i = 0; i < 400; i++) assert_int_equal(atomic_load(&g_runs[i]), 2);
  assert_int_equal(atomic_load(&g_bad_ctx), 0);
}

typedef struct device_seen {
  atomic_int device;
  atomic_size_t ub_size;
  atomic_int blocks;
} device_seen;

static device_seen g_seen;

static asc_status device_kernel(const asc_block_ctx *ctx, const void *args) {
  (void)args;
  atomic_store(&g_seen.device, ctx->device);
  atomic_store(&g_seen.ub_size, ctx->ub_size);
  memset(ctx->ub, 1, ctx->ub_size);
  atomic_fetch_add(&g_seen.blocks, 1);
  return ASC_OK;
}

static void test_launch_uses_the_streams_device_and_its_props(void **state) {
  (void)state;
  setenv("PYASC_CPU_DEVICES", "2", 1);
  assert_ok(asc_shutdown());
  asc_device_props p;
  assert_ok(asc_device_get_props(1, &p));
  p.ub_size = 32 * 1024;
  p.worker_threads = 2;
  assert_ok(asc_device_set_props(1, &p));
  asc_stream_t s0, s1;
  assert_ok(asc_stream_create(0, &s0));
  assert_ok(asc_stream_create(1, &s1));

  atomic_store(&g_seen.blocks, 0);
  assert_ok(asc_launch(s1, device_kernel, 9, NULL, 0));
  assert_ok(asc_stream_synchronize(s1));
  assert_int_equal(atomic_load(&g_seen.device), 1);
  assert_int_equal(atomic_load(&g_seen.ub_size), 32 * 1024);
  assert_int_equal(atomic_load(&g_seen.blocks), 9);

  atomic_store(&g_seen.blocks, 0);
  assert_ok(asc_launch(s0, device_kernel, 9, NULL, 0));
  assert_ok(asc_stream_synchronize(s0));
  assert_int_equal(atomic_load(&g_seen.device), 0);
  assert_int_equal(atomic_load(&g_seen.ub_size), 192 * 1024);
  assert_int_equal(atomic_load(&g_seen.blocks), 9);
}

/* asc_launch_ex: the release callback and the kernel name. */
static atomic_int g_released;
static int g_release_arg;

static void release_args(void *args) {
  memcpy(&g_release_arg, args, sizeof g_release_arg);
  atomic_fetch_add(&g_released, 1);
}

static asc_status fail_kernel(const asc_block_ctx *ctx, const void *args) {
  (void)ctx, (void)args;
  return asc_error(ASC_ERR_KERNEL, "deliberate");
}

static void test_launch_ex_releases_its_args_exactly_once(void **state) {
  (void)state;
  asc_stream_t s = new_stream();
  int arg = 41;
  asc_launch_desc d = {.fn = no_args_kernel,
                       .nblocks = 2,
                       .args = &arg,
                       .args_size = sizeof arg,
                       .release = release_args,
                       .name = "adder"};
  reset_counts();
  atomic_store(&g_released, 0);
  assert_ok(asc_launch_ex(s, &d));
  arg = 0; /* released with the launch's own copy */
  assert_ok(asc_stream_synchronize(s));
  assert_int_equal(atomic_load(&g_released), 1);
  assert_int_equal(g_release_arg, 41);
  assert_each_block_ran_once(2);

  /* Skipped after a failure: released anyway. */
  atomic_store(&g_released, 0);
  assert_ok(asc_testing_fail(s, ASC_ERR_DEVICE, "earlier"));
  arg = 5;
  assert_ok(asc_launch_ex(s, &d));
  assert_status(asc_stream_synchronize(s), ASC_ERR_DEVICE);
  assert_int_equal(atomic_load(&g_released), 1);

  /* Rejected launches and bad streams release too. */
  atomic_store(&g_released, 0);
  asc_launch_desc bad = d;
  bad.nblocks = 0;
  assert_status(asc_launch_ex(s, &bad), ASC_ERR_INVALID_VALUE);
  assert_status(asc_launch_ex(999, &d), ASC_ERR_INVALID_HANDLE);
  assert_int_equal(atomic_load(&g_released), 2);
  assert_status(asc_launch_ex(s, NULL), ASC_ERR_INVALID_VALUE);

  /* The name prefixes a kernel failure. */
  asc_launch_desc named = {.fn = fail_kernel, .nblocks = 1, .name = "my_kernel"};
  assert_ok(asc_launch_ex(s, &named));
  assert_error(asc_stream_synchronize(s), ASC_ERR_KERNEL, "my_kernel");
  assert_contains(asc_last_error(), "block 0");
  assert_contains(asc_last_error(), "deliberate");
}

/* --- inline launches (ASC_LAUNCH_INLINE_OK) ------------------------------- */

static pthread_t g_ran_on;
static atomic_int g_order; /* 1: the spin task finished, then the kernel ran */

static asc_status where_kernel(const asc_block_ctx *ctx, const void *args) {
  (void)ctx, (void)args;
  g_ran_on = pthread_self();
  return ASC_OK;
}

static asc_status mark_done(void *user) {
  (void)user;
  atomic_store(&g_order, 1);
  return ASC_OK;
}

static asc_status order_kernel(const asc_block_ctx *ctx, const void *args) {
  (void)ctx, (void)args;
  g_ran_on = pthread_self();
  /* Work queued before this launch must be complete. */
  return atomic_load(&g_order) == 1 ? ASC_OK : asc_error(ASC_ERR_KERNEL, "ran out of order");
}

static void test_inline_launch_runs_on_the_caller_only_when_the_stream_is_idle(void **state) {
  (void)state;
  asc_stream_t s = new_stream();
  int arg = 7;
  asc_launch_desc d = {.fn = where_kernel,
                       .nblocks = 1,
                       .args = &arg,
                       .args_size = sizeof arg,
                       .release = release_args,
                       .flags = ASC_LAUNCH_INLINE_OK};
  atomic_store(&g_released, 0);
  assert_ok(asc_stream_synchronize(s));
  assert_ok(asc_launch_ex(s, &d));
  /* Idle stream: done on this thread before the call returned. */
  assert_true(pthread_equal(g_ran_on, pthread_self()));
  assert_int_equal(atomic_load(&g_released), 1);
  assert_int_equal(g_release_arg, 7);
  assert_ok(asc_stream_query(s));

  /* Busy stream: queued behind the earlier work, run by the stream. */
  atomic_store(&g_order, 0);
  asc_task done = {.run = mark_done, .what = "mark"};
  assert_ok(asc_testing_spin(s, 30, 1));
  assert_ok(asc_stream_enqueue(s, &done));
  asc_launch_desc ordered = {.fn = order_kernel, .nblocks = 1, .flags = ASC_LAUNCH_INLINE_OK};
  assert_ok(asc_launch_ex(s, &ordered));
  assert_ok(asc_stream_synchronize(s));
  assert_false(pthread_equal(g_ran_on, pthread_self()));
}

static void test_inline_launch_failure_is_reported_at_synchronisation(void **state) {
  (void)state;
  asc_stream_t s = new_stream();
  asc_launch_desc d = {
      .fn = fail_kernel, .nblocks = 1, .name = "inline_k", .flags = ASC_LAUNCH_INLINE_OK};
  assert_ok(asc_launch_ex(s, &d));
  assert_error(asc_stream_synchronize(s), ASC_ERR_KERNEL, "inline_k");
  assert_ok(asc_stream_synchronize(s));
}

/* --- launches the caller waits for (ASC_LAUNCH_CALLER_WAITS) ------------- */

static void test_caller_waits_launch_runs_every_block_on_an_idle_stream(void **state) {
  (void)state;
  asc_stream_t s = new_stream();
  set_workers(4);
  reset_counts();
  count_args a = {.nblocks = 24, .ub_size = 0};
  asc_launch_desc d = {.fn = count_kernel,
                       .nblocks = 24,
                       .args = &a,
                       .args_size = sizeof a,
                       .flags = ASC_LAUNCH_CALLER_WAITS};
  assert_ok(asc_stream_synchronize(s));
  assert_ok(asc_launch_ex(s, &d));
  /* Run while the call lasted, this thread and the helpers sharing the blocks. */
  assert_each_block_ran_once(24);
  assert_ok(asc_stream_synchronize(s));
}

static void test_caller_waits_launch_queues_behind_earlier_work(void **state) {
  (void)state;
  asc_stream_t s = new_stream();
  atomic_store(&g_order, 0);
  asc_task done = {.run = mark_done, .what = "mark"};
  assert_ok(asc_testing_spin(s, 30, 1));
  assert_ok(asc_stream_enqueue(s, &done));
  asc_launch_desc d = {.fn = order_kernel, .nblocks = 3, .flags = ASC_LAUNCH_CALLER_WAITS};
  assert_ok(asc_launch_ex(s, &d));
  assert_ok(asc_stream_synchronize(s));
}

static void test_caller_waits_launch_failure_is_reported_at_synchronisation(void **state) {
  (void)state;
  asc_stream_t s = new_stream();
  asc_launch_desc d = {
      .fn = fail_kernel, .nblocks = 4, .name = "waited_k", .flags = ASC_LAUNCH_CALLER_WAITS};
  assert_ok(asc_launch_ex(s, &d));
  assert_error(asc_stream_synchronize(s), ASC_ERR_KERNEL, "waited_k");
  assert_ok(asc_stream_synchronize(s));
}

static void test_inline_launch_sees_props_set_after_an_earlier_one(void **state) {
  (void)state;
  asc_stream_t s = new_stream();
  asc_launch_desc d = {.fn = record_ub_kernel, .nblocks = 1, .flags = ASC_LAUNCH_INLINE_OK};
  const size_t sizes[] = {32 * 100, 32 * 300};
  for (size_t i = 0; i < 2; i++) {
    asc_device_props p;
    assert_ok(asc_device_get_props(0, &p));
    p.ub_size = sizes[i];
    assert_ok(asc_device_set_props(0, &p));
    assert_ok(asc_stream_synchronize(s));
    assert_ok(asc_launch_ex(s, &d)); /* this thread's copy of the props is stale */
    assert_int_equal(g_ub_seen.ub_size, sizes[i]);
  }
}

/* failed hook: which launches did not complete, and how. */
static atomic_int g_hook_failed, g_hook_skipped, g_hook_released;

static void note_launch_failed(void *args, bool skipped) {
  (void)args;
  atomic_fetch_add(skipped ? &g_hook_skipped : &g_hook_failed, 1);
}

static void note_launch_released(void *args) {
  (void)args;
  atomic_fetch_add(&g_hook_released, 1);
}

static void test_failed_hook_marks_failed_and_skipped_launches(void **state) {
  (void)state;
  asc_stream_t s = new_stream();
  uint32_t bad = 3;
  atomic_store(&g_hook_failed, 0);
  atomic_store(&g_hook_skipped, 0);
  atomic_store(&g_hook_released, 0);
  asc_launch_desc ok = {.fn = no_args_kernel,
                        .nblocks = 8,
                        .release = note_launch_released,
                        .failed = note_launch_failed,
                        .name = "fine"};
  asc_launch_desc bad_launch = {.fn = fail_one_block_kernel,
                                .nblocks = 8,
                                .args = &bad,
                                .args_size = sizeof bad,
                                .release = note_launch_released,
                                .failed = note_launch_failed,
                                .name = "bad"};
  asc_launch_desc inline_bad = {.fn = fail_kernel,
                                .nblocks = 1,
                                .release = note_launch_released,
                                .failed = note_launch_failed,
                                .flags = ASC_LAUNCH_INLINE_OK,
                                .name = "inline bad"};
  assert_ok(asc_launch_ex(s, &ok));
  assert_ok(asc_stream_synchronize(s));
  assert_int_equal(atomic_load(&g_hook_failed) + atomic_load(&g_hook_skipped), 0);
  assert_ok(asc_launch_ex(s, &bad_launch));
  assert_ok(asc_launch_ex(s, &ok));
  assert_ok(asc_launch_ex(s, &inline_bad)); /* queued behind: skipped, not inline */
  assert_error(asc_stream_synchronize(s), ASC_ERR_KERNEL, "block 3");
  assert_int_equal(atomic_load(&g_hook_failed), 1);
  assert_int_equal(atomic_load(&g_hook_skipped), 2);
  /* Alone on an idle stream it runs inline, fails, and says so. */
  assert_ok(asc_launch_ex(s, &inline_bad));
  assert_error(asc_stream_synchronize(s), ASC_ERR_KERNEL, "deliberate");
  assert_int_equal(atomic_load(&g_hook_failed), 2);
  assert_int_equal(atomic_load(&g_hook_released), 5);
  assert_ok(asc_stream_destroy(s));
}

int main(void) {
  const struct CMUnitTest tests[] = {
      ASC_TEST(test_inline_launch_runs_on_the_caller_only_when_the_stream_is_idle),
      ASC_TEST(test_inline_launch_failure_is_reported_at_synchronisation),
      ASC_TEST(test_caller_waits_launch_runs_every_block_on_an_idle_stream),
      ASC_TEST(test_caller_waits_launch_queues_behind_earlier_work),
      ASC_TEST(test_caller_waits_launch_failure_is_reported_at_synchronisation),
      ASC_TEST(test_inline_launch_sees_props_set_after_an_earlier_one),
      ASC_TEST(test_every_block_runs_exactly_once),
      ASC_TEST(test_more_blocks_than_workers_run_in_waves),
      ASC_TEST(test_each_block_gets_a_full_private_unified_buffer),
      ASC_TEST(test_unified_buffer_follows_the_configured_size),
      ASC_TEST(test_queued_launch_keeps_the_props_it_was_launched_with),
      ASC_TEST(test_args_are_copied_at_launch),
      ASC_TEST(test_large_argument_blocks_are_copied_and_oversized_ones_rejected),
      ASC_TEST(test_failing_block_is_reported_with_its_index),
      ASC_TEST(test_failing_block_cancels_unstarted_blocks_and_later_work),
      ASC_TEST(test_invalid_launches_are_rejected),
      ASC_TEST(test_launch_without_args),
      ASC_TEST(test_launch_is_ordered_with_async_copies_on_the_stream),
      ASC_TEST(test_worker_thread_count_can_be_changed),
      ASC_TEST(test_launches_on_two_streams_share_the_worker_pool),
      ASC_TEST(test_launch_uses_the_streams_device_and_its_props),
      ASC_TEST(test_launch_ex_releases_its_args_exactly_once),
      ASC_TEST(test_failed_hook_marks_failed_and_skipped_launches),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
