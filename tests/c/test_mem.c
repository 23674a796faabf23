/* The caching, stream-aware allocator and checked copies (asc/mem.h). */
#include "asc_test.h"

static asc_mem_stats stats_of(int device) {
  asc_mem_stats s;
  memset(&s, 0xa5, sizeof s);
  asc_status st = asc_mem_get_stats(device, &s);
  if (st) fail_msg("asc_mem_get_stats: %s", asc_last_error());
  return s;
}

static asc_mem_stats stats(void) {
  return stats_of(0);
}

/* The documented classes: 64 bytes, then four per octave, 25% apart. */
static size_t expected_class(size_t n) {
  if (n <= 64) return 64;
  size_t p = 64;
  while (p * 2 < n) p *= 2; /* p < n <= 2p */
  for (size_t k = 5; k <= 8; k++)
    if (p / 4 * k >= n) return p / 4 * k;
  return 0; /* unreachable */
}

static void *alloc_on(asc_stream_t s, size_t n) {
  void *p = NULL;
  asc_status st = asc_mem_alloc(0, n, s, &p);
  if (st) fail_msg("asc_mem_alloc(%zu): %s", n, asc_last_error());
  return p;
}

static asc_stream_t new_stream(void) {
  asc_stream_t s;
  assert_ok(asc_stream_create(0, &s));
  return s;
}

/* --- allocation and statistics --------------------------------------------- */

static void test_alloc_returns_aligned_distinct_writable_memory(void **state) {
  (void)state;
  const size_t sizes[] = {1, 3, 63, 64, 65, 100, 1000, 4097, 65536, 1 << 20, 3 * (1 << 20) + 7};
  enum { N = sizeof sizes / sizeof sizes[0] };
  void *p[N];
  for (int i = 0; i < N; i++) {
    p[i] = alloc_on(ASC_STREAM_CURRENT, sizes[i]);
    assert_non_null(p[i]);
    assert_int_equal((uintptr_t)p[i] % ASC_MEM_ALIGNMENT, 0);
    memset(p[i], i + 1, sizes[i]); /* host-visible device memory */
  }
  for (int i = 0; i < N; i++) {
    const unsigned char *b = p[i];
    assert_int_equal(b[0], i + 1);
    assert_int_equal(b[sizes[i] - 1], i + 1); /* not overwritten by a neighbour */
    for (int j = 0; j < i; j++) assert_ptr_not_equal(p[i], p[j]);
  }
  for (int i = 0; i < N; i++) assert_ok(asc_mem_free(p[i]));
  asc_mem_stats s = stats();
  assert_int_equal(s.allocated_bytes, 0);
  assert_int_equal(s.active_blocks, 0);
}

static void test_zero_byte_alloc_gives_distinct_pointers(void **state) {
  (void)state;
  void *a = alloc_on(ASC_STREAM_CURRENT, 0);
  void *b = alloc_on(ASC_STREAM_CURRENT, 0);
  assert_non_null(a);
  assert_non_null(b);
  assert_ptr_not_equal(a, b);
  assert_int_equal((uintptr_t)a % ASC_MEM_ALIGNMENT, 0);
  asc_mem_stats s = stats();
  assert_int_equal(s.active_blocks, 2);
  assert_int_equal(s.requested_bytes, 0);
  assert_int_equal(s.allocated_bytes, 2 * expected_class(0));
  asc_mem_range r;
  assert_ok(asc_mem_lookup(a, 0, &r));
  assert_ptr_equal(r.base, a);
  assert_int_equal(r.nbytes, 0);
  assert_status(asc_mem_lookup(a, 1, &r), ASC_ERR_INVALID_VALUE);
  assert_ok(asc_mem_free(a));
  assert_ok(asc_mem_free(b));
  assert_int_equal(stats().active_blocks, 0);
}

static void test_free_of_null_is_a_no_op(void **state) {
  (void)state;
  asc_mem_stats before = stats();
  assert_ok(asc_mem_free(NULL));
  asc_mem_stats after = stats();
  assert_int_equal(after.free_count, before.free_count);
}

static void test_stats_follow_an_alloc_free_realloc_cycle(void **state) {
  (void)state;
  asc_mem_stats s = stats();
  assert_int_equal(s.allocated_bytes, 0);
  assert_int_equal(s.reserved_bytes, 0);
  assert_int_equal(s.alloc_count, 0);
  assert_int_equal(s.backend_allocs, 0);
  assert_true(s.caching_enabled);
  assert_int_equal(s.limit_bytes, 0);

  void *p = alloc_on(ASC_STREAM_CURRENT, 1000);
  s = stats();
  assert_int_equal(s.allocated_bytes, 1024);
  assert_int_equal(s.requested_bytes, 1000);
  assert_int_equal(s.reserved_bytes, 1024);
  assert_int_equal(s.peak_allocated_bytes, 1024);
  assert_int_equal(s.peak_reserved_bytes, 1024);
  assert_int_equal(s.active_blocks, 1);
  assert_int_equal(s.cached_blocks, 0);
  assert_int_equal(s.alloc_count, 1);
  assert_int_equal(s.cache_hits, 0);
  assert_int_equal(s.cache_misses, 1);
  assert_int_equal(s.backend_allocs, 1);
  assert_int_equal(s.backend_frees, 0);

  assert_ok(asc_mem_free(p));
  s = stats();
  assert_int_equal(s.allocated_bytes, 0);
  assert_int_equal(s.requested_bytes, 0);
  assert_int_equal(s.reserved_bytes, 1024); /* cached, not returned */
  assert_int_equal(s.active_blocks, 0);
  assert_int_equal(s.cached_blocks, 1);
  assert_int_equal(s.free_count, 1);
  assert_int_equal(s.backend_frees, 0);
  assert_int_equal(s.peak_allocated_bytes, 1024);

  /* Same size, same stream: a cache hit without a backend call. */
  void *q = alloc_on(ASC_STREAM_CURRENT, 1000);
  assert_ptr_equal(q, p);
  s = stats();
  assert_int_equal(s.cache_hits, 1);
  assert_int_equal(s.cache_misses, 1);
  assert_int_equal(s.backend_allocs, 1);
  assert_int_equal(s.cached_blocks, 0);
  assert_int_equal(s.active_blocks, 1);
  assert_int_equal(s.alloc_count, 2);
  assert_ok(asc_mem_free(q));
}

static void test_allocations_round_to_their_size_class(void **state) {
  (void)state;
  const size_t sizes[] = {1,   64,  65,   80,   81,   100,  128,   129,
                          160, 161, 1000, 1024, 1025, 5000, 12345, (1 << 20) + 1};
  for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
    asc_mem_stats before = stats();
    void *p = alloc_on(ASC_STREAM_CURRENT, sizes[i]);
    asc_mem_stats after = stats();
    if (after.allocated_bytes - before.allocated_bytes != expected_class(sizes[i]))
      fail_msg("%zu bytes took %llu, expected class %zu", sizes[i],
               (unsigned long long)(after.allocated_bytes - before.allocated_bytes),
               expected_class(sizes[i]));
    assert_int_equal(after.requested_bytes - before.requested_bytes, sizes[i]);
    assert_ok(asc_mem_free(p));
  }
}

static void test_sizes_in_one_class_share_cached_blocks(void **state) {
  (void)state;
  void *a = alloc_on(ASC_STREAM_CURRENT, 900); /* class 1024 */
  assert_ok(asc_mem_free(a));
  void *b = alloc_on(ASC_STREAM_CURRENT, 1000); /* class 1024 too */
  assert_ptr_equal(b, a);
  asc_mem_stats s = stats();
  assert_int_equal(s.cache_hits, 1);
  assert_int_equal(s.backend_allocs, 1);
  /* The lookup reports the new request, not the old one. */
  asc_mem_range r;
  assert_ok(asc_mem_lookup(b, 1000, &r));
  assert_int_equal(r.nbytes, 1000);

  void *c = alloc_on(ASC_STREAM_CURRENT, 1025); /* class 1280: no reuse */
  assert_ptr_not_equal(c, b);
  s = stats();
  assert_int_equal(s.cache_misses, 2);
  assert_int_equal(s.backend_allocs, 2);
  assert_ok(asc_mem_free(b));
  void *d = alloc_on(ASC_STREAM_CURRENT, 700); /* class 768: the 1024 block stays cached */
  assert_ptr_not_equal(d, b);
  assert_int_equal(stats().cached_blocks, 1);
  assert_ok(asc_mem_free(c));
  assert_ok(asc_mem_free(d));
}

static void test_peak_tracks_the_high_water_mark_until_reset(void **state) {
  (void)state;
  void *p[3];
  for (int i = 0; i < 3; i++) p[i] = alloc_on(ASC_STREAM_CURRENT, 4096);
  for (int i = 0; i < 3; i++) assert_ok(asc_mem_free(p[i]));
  asc_mem_stats s = stats();
  assert_int_equal(s.allocated_bytes, 0);
  assert_int_equal(s.peak_allocated_bytes, 3 * 4096);
  assert_int_equal(s.peak_reserved_bytes, 3 * 4096);
  assert_ok(asc_mem_reset_peak(0));
  s = stats();
  assert_int_equal(s.peak_allocated_bytes, 0);
  assert_int_equal(s.peak_reserved_bytes, s.reserved_bytes);
  void *q = alloc_on(ASC_STREAM_CURRENT, 4096);
  assert_int_equal(stats().peak_allocated_bytes, 4096);
  assert_ok(asc_mem_free(q));
}

/* --- stream-aware reuse ---------------------------------------------------- */

static void test_block_freed_behind_pending_work_is_reused_only_by_its_stream(void **state) {
  (void)state;
  asc_stream_t a = new_stream(), b = new_stream();
  asc_test_gate *g = asc_test_gate_get(0);
  void *p = alloc_on(a, 4096);
  assert_ok(asc_test_gate_enqueue(a, g)); /* a's queued work may still use p */
  assert_ok(asc_mem_free(p));

  void *q = alloc_on(b, 4096); /* b must not get p: a has not passed the free */
  assert_ptr_not_equal(q, p);
  void *r = alloc_on(a, 4096); /* a may: its later work is ordered after */
  assert_ptr_equal(r, p);
  assert_ok(asc_mem_free(r)); /* freed again behind the closed gate */
  void *s = alloc_on(b, 4096);
  assert_ptr_not_equal(s, p);
  assert_ptr_not_equal(s, q);
  assert_int_equal(stats().cached_blocks, 1);

  asc_test_gate_open(g);
  assert_ok(asc_stream_synchronize(a));
  void *t = alloc_on(b, 4096); /* a passed the free: p is b's to take now */
  assert_ptr_equal(t, p);
  assert_ok(asc_mem_free(q));
  assert_ok(asc_mem_free(s));
  assert_ok(asc_mem_free(t));
}

static void test_block_freed_behind_a_spin_is_not_given_to_another_stream(void **state) {
  (void)state;
  asc_stream_t a = new_stream(), b = new_stream();
  void *p = alloc_on(a, 8192);
  assert_ok(asc_testing_spin(a, 100, 1));
  assert_ok(asc_mem_free(p));
  void *q = alloc_on(b, 8192);
  /* Only meaningful while a is provably still busy. */
  if (asc_stream_query(a) == ASC_ERR_NOT_READY) {
    assert_ptr_not_equal(q, p);
    void *r = alloc_on(a, 8192);
    assert_ptr_equal(r, p);
    assert_ok(asc_mem_free(r));
  }
  assert_ok(asc_stream_synchronize(a));
  void *t = alloc_on(b, 8192);
  assert_ptr_equal(t, p);
  assert_ok(asc_mem_free(q));
  assert_ok(asc_mem_free(t));
}

static void test_record_stream_makes_reuse_wait_for_that_stream(void **state) {
  (void)state;
  asc_stream_t a = new_stream(), b = new_stream();
  asc_test_gate *g = asc_test_gate_get(0);
  void *p = alloc_on(a, 2048);
  assert_ok(asc_test_gate_enqueue(b, g));               /* b is busy and uses p */
  assert_ok(asc_mem_record_stream((char *)p + 100, b)); /* interior pointers work */
  assert_ok(asc_mem_free(p));
  void *q = alloc_on(a, 2048); /* even a must wait for b now */
  assert_ptr_not_equal(q, p);
  assert_ok(asc_mem_empty_cache(0)); /* and p is not idle either */
  assert_int_equal(stats().cached_blocks, 1);

  asc_test_gate_open(g);
  assert_ok(asc_stream_synchronize(b));
  void *r = alloc_on(a, 2048);
  assert_ptr_equal(r, p);
  assert_ok(asc_mem_free(q));
  assert_ok(asc_mem_free(r));
}

static void test_record_stream_tracks_many_streams(void **state) {
  (void)state;
  enum { N = 5 };
  asc_stream_t s[N];
  for (int i = 0; i < N; i++) s[i] = new_stream();
  void *p = alloc_on(s[0], 512);
  for (int i = 1; i < N; i++) {
    assert_ok(asc_mem_record_stream(p, s[i]));
    assert_ok(asc_mem_record_stream(p, s[i])); /* twice is harmless */
  }
  asc_test_gate *g = asc_test_gate_get(0);
  assert_ok(asc_test_gate_enqueue(s[N - 1], g)); /* only the last one is busy */
  assert_ok(asc_mem_free(p));
  void *q[N - 1];
  for (int i = 0; i < N - 1; i++) {
    q[i] = alloc_on(s[i], 512); /* none of them, not even s[0], may take p */
    assert_ptr_not_equal(q[i], p);
  }
  asc_test_gate_open(g);
  assert_ok(asc_stream_synchronize(s[N - 1]));
  void *r = alloc_on(s[0], 512);
  assert_ptr_equal(r, p);
  assert_ok(asc_mem_free(r));
  for (int i = 0; i < N - 1; i++) assert_ok(asc_mem_free(q[i]));
}

static void test_record_stream_rejects_bad_pointers_and_streams(void **state) {
  (void)state;
  void *p = alloc_on(ASC_STREAM_CURRENT, 256);
  int local = 0;
  asc_stream_t s = new_stream();
  assert_error(asc_mem_record_stream(&local, s), ASC_ERR_INVALID_HANDLE, "not live device memory");
  assert_status(asc_mem_record_stream((char *)p + 257, s), ASC_ERR_INVALID_HANDLE);
  assert_status(asc_mem_record_stream(p, 99999), ASC_ERR_INVALID_HANDLE);
  assert_ok(asc_mem_free(p));
  assert_status(asc_mem_record_stream(p, s), ASC_ERR_INVALID_HANDLE); /* freed */
}

static void test_async_copy_marks_the_block_used_by_its_stream(void **state) {
  (void)state;
  static unsigned char host[4096];
  asc_stream_t a = new_stream(), b = new_stream();
  asc_test_gate *g = asc_test_gate_get(0);
  void *p = alloc_on(a, sizeof host);
  assert_ok(asc_test_gate_enqueue(b, g));
  assert_ok(asc_memcpy_async(p, host, sizeof host, ASC_MEMCPY_HOST_TO_DEVICE, b));
  assert_ok(asc_mem_free(p));
  void *q = alloc_on(a, sizeof host); /* b's copy into p is still queued */
  assert_ptr_not_equal(q, p);
  asc_test_gate_open(g);
  assert_ok(asc_stream_synchronize(b));
  void *r = alloc_on(a, sizeof host);
  assert_ptr_equal(r, p);
  assert_ok(asc_mem_free(q));
  assert_ok(asc_mem_free(r));
}

static void test_blocks_outlive_a_destroyed_stream(void **state) {
  (void)state;
  asc_stream_t s = new_stream();
  void *p = alloc_on(s, 1500);
  asc_mem_range r;
  assert_ok(asc_mem_lookup(p, 1500, &r));
  assert_true(r.stream == s);
  assert_ok(asc_testing_spin(s, 1, 1));
  assert_ok(asc_stream_destroy(s));
  memset(p, 7, 1500); /* still valid memory */
  assert_ok(asc_mem_free(p));
  void *q = alloc_on(ASC_STREAM_CURRENT, 1500); /* s drained: reusable at once */
  assert_ptr_equal(q, p);
  assert_ok(asc_mem_free(q));
  void *t = NULL;
  assert_status(asc_mem_alloc(0, 16, s, &t), ASC_ERR_INVALID_HANDLE);
  assert_null(t);
}

/* --- limits and cache control ---------------------------------------------- */

static void test_memory_limit_fails_cleanly_and_leaks_nothing(void **state) {
  (void)state;
  assert_ok(asc_mem_set_limit(0, 8192));
  assert_int_equal(stats().limit_bytes, 8192);
  void *a = alloc_on(ASC_STREAM_CURRENT, 4096);
  asc_mem_stats before = stats();
  void *b = (void *)0x1;
  assert_error(asc_mem_alloc(0, 6000, ASC_STREAM_CURRENT, &b), ASC_ERR_OUT_OF_MEMORY, "limit");
  assert_contains(asc_last_error(), "6000");
  assert_ptr_equal(b, (void *)0x1); /* not written on failure */
  asc_mem_stats after = stats();
  assert_int_equal(after.allocated_bytes, before.allocated_bytes);
  assert_int_equal(after.reserved_bytes, before.reserved_bytes);
  assert_int_equal(after.active_blocks, before.active_blocks);
  assert_int_equal(after.alloc_count, before.alloc_count);
  assert_int_equal(after.backend_allocs, before.backend_allocs);
  assert_int_equal(after.oom_count, before.oom_count + 1);

  void *c = alloc_on(ASC_STREAM_CURRENT, 4096); /* exactly up to the limit */
  assert_int_equal(stats().reserved_bytes, 8192);
  assert_ok(asc_mem_free(a));
  assert_ok(asc_mem_free(c));
  assert_ok(asc_mem_set_limit(0, 0)); /* removed */
  void *d = alloc_on(ASC_STREAM_CURRENT, 1 << 20);
  assert_ok(asc_mem_free(d));
  assert_int_equal(stats().limit_bytes, 0);
}

static void test_limit_releases_cached_blocks_before_failing(void **state) {
  (void)state;
  void *a = alloc_on(ASC_STREAM_CURRENT, 2048);
  void *b = alloc_on(ASC_STREAM_CURRENT, 3000);
  assert_ok(asc_mem_free(a));
  assert_ok(asc_mem_free(b));
  asc_mem_stats s = stats();
  assert_int_equal(s.cached_blocks, 2);
  uint64_t reserved = s.reserved_bytes;
  assert_ok(asc_mem_set_limit(0, reserved)); /* not exceeded: nothing released */
  assert_int_equal(stats().cached_blocks, 2);

  void *c = alloc_on(ASC_STREAM_CURRENT, 4096); /* a different class: needs room */
  s = stats();
  assert_true(s.reserved_bytes <= reserved);
  assert_int_equal(s.cached_blocks, 0);
  assert_int_equal(s.backend_frees, 2);
  assert_int_equal(s.oom_count, 0);
  assert_ok(asc_mem_free(c));

  /* Lowering the limit below what is reserved releases idle blocks now. */
  assert_int_equal(stats().cached_blocks, 1);
  assert_ok(asc_mem_set_limit(0, 1024));
  s = stats();
  assert_int_equal(s.cached_blocks, 0);
  assert_int_equal(s.reserved_bytes, 0);
}

static void test_limit_does_not_release_blocks_other_streams_still_use(void **state) {
  (void)state;
  asc_stream_t a = new_stream();
  asc_test_gate *g = asc_test_gate_get(0);
  void *p = alloc_on(a, 4096);
  assert_ok(asc_test_gate_enqueue(a, g));
  assert_ok(asc_mem_free(p));
  assert_ok(asc_mem_set_limit(0, 4096));
  void *q = NULL;
  assert_status(asc_mem_alloc(0, 2048, ASC_STREAM_CURRENT, &q), ASC_ERR_OUT_OF_MEMORY);
  assert_int_equal(stats().cached_blocks, 1); /* p could not be given back */
  asc_test_gate_open(g);
  assert_ok(asc_stream_synchronize(a));
  q = alloc_on(ASC_STREAM_CURRENT, 2048);
  assert_ok(asc_mem_free(q));
}

static void test_empty_cache_returns_idle_blocks_to_the_backend(void **state) {
  (void)state;
  void *p[3];
  for (int i = 0; i < 3; i++) p[i] = alloc_on(ASC_STREAM_CURRENT, 1000 * (i + 1));
  void *keep = alloc_on(ASC_STREAM_CURRENT, 64);
  for (int i = 0; i < 3; i++) assert_ok(asc_mem_free(p[i]));
  asc_mem_stats s = stats();
  assert_int_equal(s.cached_blocks, 3);
  assert_int_equal(s.reserved_bytes, 1024 + 2048 + 3072 + 64);
  assert_ok(asc_mem_empty_cache(0));
  s = stats();
  assert_int_equal(s.cached_blocks, 0);
  assert_int_equal(s.reserved_bytes, 64); /* the live block stays */
  assert_int_equal(s.backend_frees, 3);
  assert_int_equal(s.allocated_bytes, 64);
  assert_ok(asc_mem_free(keep));
  /* Freed pointers are gone for good. */
  assert_status(asc_mem_free(p[0]), ASC_ERR_INVALID_HANDLE);
}

static void test_empty_cache_keeps_blocks_pending_on_a_stream(void **state) {
  (void)state;
  asc_stream_t a = new_stream();
  asc_test_gate *g = asc_test_gate_get(0);
  void *p = alloc_on(a, 4096);
  assert_ok(asc_test_gate_enqueue(a, g));
  assert_ok(asc_mem_free(p));
  assert_ok(asc_mem_empty_cache(0));
  assert_int_equal(stats().cached_blocks, 1);
  asc_test_gate_open(g);
  assert_ok(asc_stream_synchronize(a));
  assert_ok(asc_mem_empty_cache(0));
  assert_int_equal(stats().cached_blocks, 0);
  assert_int_equal(stats().reserved_bytes, 0);
}

static void test_disabled_caching_frees_to_the_backend(void **state) {
  (void)state;
  void *a = alloc_on(ASC_STREAM_CURRENT, 5000);
  assert_ok(asc_mem_free(a));
  assert_int_equal(stats().cached_blocks, 1);
  assert_ok(asc_mem_set_caching(0, false)); /* releases what is cached */
  asc_mem_stats s = stats();
  assert_false(s.caching_enabled);
  assert_int_equal(s.cached_blocks, 0);
  assert_int_equal(s.reserved_bytes, 0);

  void *b = alloc_on(ASC_STREAM_CURRENT, 5000);
  assert_ok(asc_mem_free(b));
  s = stats();
  assert_int_equal(s.cached_blocks, 0);
  assert_int_equal(s.reserved_bytes, 0);
  assert_int_equal(s.backend_allocs, 2);
  assert_int_equal(s.backend_frees, 2);
  void *c = alloc_on(ASC_STREAM_CURRENT, 5000);
  s = stats();
  assert_int_equal(s.cache_hits, 0);
  assert_int_equal(s.backend_allocs, 3);
  assert_ok(asc_mem_free(c));

  assert_ok(asc_mem_set_caching(0, true));
  void *d = alloc_on(ASC_STREAM_CURRENT, 5000);
  assert_ok(asc_mem_free(d));
  assert_int_equal(stats().cached_blocks, 1);
}

static void test_disabled_caching_returns_pending_frees_once_safe(void **state) {
  (void)state;
  assert_ok(asc_mem_set_caching(0, false));
  asc_stream_t a = new_stream();
  asc_test_gate *g = asc_test_gate_get(0);
  void *p = alloc_on(a, 4096);
  assert_ok(asc_test_gate_enqueue(a, g));
  assert_ok(asc_mem_free(p)); /* a may still use p: it cannot go back yet */
  asc_mem_stats s = stats();
  assert_int_equal(s.cached_blocks, 1);
  assert_int_equal(s.reserved_bytes, 4096);
  void *q = alloc_on(ASC_STREAM_CURRENT, 4096); /* and it is not reused either */
  assert_ptr_not_equal(q, p);
  asc_test_gate_open(g);
  assert_ok(asc_stream_synchronize(a));
  /* Safe now: the allocator's next free hands it back without empty_cache. */
  assert_ok(asc_mem_free(q));
  s = stats();
  assert_int_equal(s.cached_blocks, 0);
  assert_int_equal(s.reserved_bytes, 0);
  assert_int_equal(s.backend_frees, 2);
}

static void test_env_can_disable_caching(void **state) {
  (void)state;
  setenv("PYASC_NO_MEMORY_CACHING", "1", 1);
  assert_ok(asc_shutdown());
  assert_false(stats().caching_enabled);
  void *p = alloc_on(ASC_STREAM_CURRENT, 100);
  assert_ok(asc_mem_free(p));
  assert_int_equal(stats().backend_frees, 1);

  setenv("PYASC_NO_MEMORY_CACHING", "0", 1);
  assert_ok(asc_shutdown());
  assert_true(stats().caching_enabled);
}

/* --- invalid frees and lookups --------------------------------------------- */

static void test_invalid_frees_are_reported_without_crashing(void **state) {
  (void)state;
  void *p = alloc_on(ASC_STREAM_CURRENT, 1000);
  int local = 0;
  void *heap = malloc(64);
  assert_non_null(heap);
  asc_mem_stats before = stats();
  char hex[32];
  snprintf(hex, sizeof hex, "%p", (void *)((char *)p + 64));
  assert_error(asc_mem_free((char *)p + 64), ASC_ERR_INVALID_HANDLE, hex); /* interior */
  assert_status(asc_mem_free((char *)p + 1), ASC_ERR_INVALID_HANDLE);
  assert_status(asc_mem_free(&local), ASC_ERR_INVALID_HANDLE); /* stack */
  assert_status(asc_mem_free(heap), ASC_ERR_INVALID_HANDLE);   /* host heap */
  assert_status(asc_mem_free((void *)(uintptr_t)0x10), ASC_ERR_INVALID_HANDLE);
  asc_mem_stats mid = stats();
  assert_int_equal(mid.free_count, before.free_count);
  assert_int_equal(mid.active_blocks, before.active_blocks);

  assert_ok(asc_mem_free(p)); /* p itself was untouched */
  assert_error(asc_mem_free(p), ASC_ERR_INVALID_HANDLE, "not a live device allocation");
  asc_mem_stats after = stats();
  assert_int_equal(after.free_count, before.free_count + 1);
  assert_int_equal(after.cached_blocks, 1);
  assert_int_equal(after.active_blocks, 0);
  free(heap);
}

static void test_lookup_finds_interior_ranges_and_rejects_overruns(void **state) {
  (void)state;
  asc_stream_t s = new_stream();
  char *p = alloc_on(s, 1000);
  asc_mem_range r;
  memset(&r, 0, sizeof r);
  assert_ok(asc_mem_lookup(p, 1000, &r));
  assert_ptr_equal(r.base, p);
  assert_int_equal(r.nbytes, 1000);
  assert_int_equal(r.device, 0);
  assert_true(r.stream == s);
  memset(&r, 0, sizeof r);
  assert_ok(asc_mem_lookup(p + 10, 990, &r));
  assert_ptr_equal(r.base, p);
  assert_ok(asc_mem_lookup(p + 999, 1, &r));
  assert_ok(asc_mem_lookup(p + 500, 0, &r));
  assert_ok(asc_mem_lookup(p, 0, NULL)); /* out may be NULL */
  /* Overruns, even into the rounding slack of the 1024-byte class. */
  assert_error(asc_mem_lookup(p + 10, 991, &r), ASC_ERR_INVALID_VALUE, "991");
  assert_status(asc_mem_lookup(p, 1001, &r), ASC_ERR_INVALID_VALUE);
  assert_status(asc_mem_lookup(p + 1000, 1, &r), ASC_ERR_INVALID_VALUE);
  assert_status(asc_mem_lookup(p + 1, SIZE_MAX, &r), ASC_ERR_INVALID_VALUE);
  assert_status(asc_mem_lookup(p - 1, 2, &r), ASC_ERR_INVALID_VALUE);
  int local;
  assert_status(asc_mem_lookup(&local, 1, &r), ASC_ERR_INVALID_VALUE);
  assert_status(asc_mem_lookup(NULL, 1, &r), ASC_ERR_INVALID_VALUE);
  assert_ok(asc_mem_free(p));
  assert_status(asc_mem_lookup(p, 1, &r), ASC_ERR_INVALID_VALUE); /* freed */
}

/* --- copies ---------------------------------------------------------------- */

enum { COPY = 3000 };
static unsigned char g_src[COPY], g_dst[COPY], g_dst2[COPY];

static void fill_pattern(unsigned char *buf, size_t n, unsigned seed) {
  for (size_t i = 0; i < n; i++) buf[i] = (unsigned char)(i * 31 + seed);
}

static void test_sync_copies_in_all_four_directions(void **state) {
  (void)state;
  fill_pattern(g_src, COPY, 5);
  memset(g_dst, 0, COPY);
  memset(g_dst2, 0, COPY);
  void *d1 = alloc_on(ASC_STREAM_CURRENT, COPY);
  void *d2 = alloc_on(ASC_STREAM_CURRENT, COPY);
  assert_ok(asc_memcpy(d1, g_src, COPY, ASC_MEMCPY_HOST_TO_DEVICE));
  assert_memory_equal(d1, g_src, COPY);
  assert_ok(asc_memcpy(d2, d1, COPY, ASC_MEMCPY_DEVICE_TO_DEVICE));
  assert_ok(asc_memcpy(g_dst, d2, COPY, ASC_MEMCPY_DEVICE_TO_HOST));
  assert_memory_equal(g_dst, g_src, COPY);
  assert_ok(asc_memcpy(g_dst2, g_dst, COPY, ASC_MEMCPY_HOST_TO_HOST));
  assert_memory_equal(g_dst2, g_src, COPY);
  /* Partial copies at offsets. */
  assert_ok(asc_memcpy((char *)d2 + 1000, g_src + 7, 500, ASC_MEMCPY_HOST_TO_DEVICE));
  assert_memory_equal((char *)d2 + 1000, g_src + 7, 500);
  assert_memory_equal(d2, g_src, 1000); /* the rest is untouched */
  /* Overlapping device-to-device copies behave like memmove. */
  assert_ok(asc_memcpy((char *)d1 + 1, d1, 100, ASC_MEMCPY_DEVICE_TO_DEVICE));
  assert_memory_equal((char *)d1 + 1, g_src, 100);
  assert_ok(asc_mem_free(d1));
  assert_ok(asc_mem_free(d2));
}

static void test_async_copies_in_all_four_directions(void **state) {
  (void)state;
  fill_pattern(g_src, COPY, 9);
  memset(g_dst, 0, COPY);
  memset(g_dst2, 0, COPY);
  asc_stream_t s = new_stream();
  asc_test_gate *g = asc_test_gate_get(0);
  void *d1 = alloc_on(s, COPY);
  void *d2 = alloc_on(s, COPY);
  memset(d1, 0, COPY);
  memset(d2, 0, COPY);
  assert_ok(asc_test_gate_enqueue(s, g)); /* everything below queues up first */
  assert_ok(asc_memcpy_async(d1, g_src, COPY, ASC_MEMCPY_HOST_TO_DEVICE, s));
  assert_ok(asc_memcpy_async(d2, d1, COPY, ASC_MEMCPY_DEVICE_TO_DEVICE, s));
  assert_ok(asc_memcpy_async(g_dst, d2, COPY, ASC_MEMCPY_DEVICE_TO_HOST, s));
  assert_ok(asc_memcpy_async(g_dst2, g_dst, COPY, ASC_MEMCPY_HOST_TO_HOST, s));
  /* Asynchronous: nothing has happened yet. */
  assert_int_equal(((unsigned char *)d1)[1], 0);
  assert_int_equal(g_dst2[1], 0);
  asc_test_gate_open(g);
  assert_ok(asc_stream_synchronize(s));
  assert_memory_equal(d1, g_src, COPY);
  assert_memory_equal(d2, g_src, COPY);
  assert_memory_equal(g_dst, g_src, COPY);
  assert_memory_equal(g_dst2, g_src, COPY);
  assert_ok(asc_mem_free(d1));
  assert_ok(asc_mem_free(d2));
}

static void test_copies_in_the_wrong_direction_are_rejected(void **state) {
  (void)state;
  void *d = alloc_on(ASC_STREAM_CURRENT, 256);
  void *d2 = alloc_on(ASC_STREAM_CURRENT, 256);
  unsigned char h[256] = {0}, h2[256] = {0};
  asc_stream_t s = new_stream();
  assert_error(asc_memcpy(h2, h, 16, ASC_MEMCPY_HOST_TO_DEVICE), ASC_ERR_INVALID_VALUE,
               "not device memory");
  assert_error(asc_memcpy(d, d2, 16, ASC_MEMCPY_HOST_TO_DEVICE), ASC_ERR_INVALID_VALUE,
               "is device memory");
  assert_error(asc_memcpy(h, h2, 16, ASC_MEMCPY_DEVICE_TO_HOST), ASC_ERR_INVALID_VALUE,
               "not device memory");
  assert_error(asc_memcpy(d2, d, 16, ASC_MEMCPY_DEVICE_TO_HOST), ASC_ERR_INVALID_VALUE,
               "is device memory");
  assert_status(asc_memcpy(d, h, 16, ASC_MEMCPY_DEVICE_TO_DEVICE), ASC_ERR_INVALID_VALUE);
  assert_status(asc_memcpy(h, d, 16, ASC_MEMCPY_DEVICE_TO_DEVICE), ASC_ERR_INVALID_VALUE);
  assert_status(asc_memcpy(h, d, 16, ASC_MEMCPY_HOST_TO_HOST), ASC_ERR_INVALID_VALUE);
  assert_status(asc_memcpy(d, h, 16, ASC_MEMCPY_HOST_TO_HOST), ASC_ERR_INVALID_VALUE);
  /* A host range whose end reaches into device memory. */
  assert_status(asc_memcpy((char *)d - 8, h, 16, ASC_MEMCPY_HOST_TO_HOST), ASC_ERR_INVALID_VALUE);
  assert_error(asc_memcpy(d, h, 16, (asc_memcpy_kind)7), ASC_ERR_INVALID_VALUE, "kind");
  /* The same checks apply to asynchronous copies, and nothing is queued. */
  assert_status(asc_memcpy_async(h2, h, 16, ASC_MEMCPY_HOST_TO_DEVICE, s), ASC_ERR_INVALID_VALUE);
  assert_status(asc_memcpy_async(h, h2, 16, ASC_MEMCPY_DEVICE_TO_HOST, s), ASC_ERR_INVALID_VALUE);
  assert_status(asc_memcpy_async(h, d, 16, ASC_MEMCPY_HOST_TO_HOST, s), ASC_ERR_INVALID_VALUE);
  assert_status(asc_memcpy_async(d, h, 16, (asc_memcpy_kind)-1, s), ASC_ERR_INVALID_VALUE);
  assert_status(asc_memcpy_async(d, h, 16, ASC_MEMCPY_HOST_TO_DEVICE, 4242),
                ASC_ERR_INVALID_HANDLE);
  assert_ok(asc_stream_synchronize(s));
  /* Freed device memory is no longer device memory. */
  assert_ok(asc_mem_free(d2));
  assert_error(asc_memcpy(d2, h, 16, ASC_MEMCPY_HOST_TO_DEVICE), ASC_ERR_INVALID_VALUE,
               "not device memory");
  assert_ok(asc_mem_free(d));
}

static void test_copies_past_the_allocation_are_rejected(void **state) {
  (void)state;
  char *d = alloc_on(ASC_STREAM_CURRENT, 1000);
  char *d2 = alloc_on(ASC_STREAM_CURRENT, 1000);
  static char h[2048];
  asc_stream_t s = new_stream();
  assert_error(asc_memcpy(d, h, 1001, ASC_MEMCPY_HOST_TO_DEVICE), ASC_ERR_INVALID_VALUE, "overrun");
  assert_status(asc_memcpy(d + 500, h, 501, ASC_MEMCPY_HOST_TO_DEVICE), ASC_ERR_INVALID_VALUE);
  assert_ok(asc_memcpy(d + 500, h, 500, ASC_MEMCPY_HOST_TO_DEVICE));
  assert_error(asc_memcpy(h, d + 1, 1000, ASC_MEMCPY_DEVICE_TO_HOST), ASC_ERR_INVALID_VALUE,
               "overrun");
  assert_status(asc_memcpy(d2, d, 1024, ASC_MEMCPY_DEVICE_TO_DEVICE), ASC_ERR_INVALID_VALUE);
  assert_status(asc_memcpy_async(d, h, 2000, ASC_MEMCPY_HOST_TO_DEVICE, s), ASC_ERR_INVALID_VALUE);
  assert_status(asc_memset(d + 1, 0, 1000), ASC_ERR_INVALID_VALUE);
  assert_status(asc_memset_async(d, 0, 1001, s), ASC_ERR_INVALID_VALUE);
  assert_ok(asc_mem_free(d));
  assert_ok(asc_mem_free(d2));
}

static void test_null_pointers_and_huge_sizes_are_rejected(void **state) {
  (void)state;
  char *d = alloc_on(ASC_STREAM_CURRENT, 64);
  static char h[64];
  asc_stream_t s = new_stream();
  assert_error(asc_memcpy(NULL, h, 8, ASC_MEMCPY_HOST_TO_HOST), ASC_ERR_INVALID_VALUE, "NULL");
  assert_error(asc_memcpy(h, NULL, 8, ASC_MEMCPY_HOST_TO_HOST), ASC_ERR_INVALID_VALUE, "NULL");
  assert_status(asc_memcpy(NULL, h, 8, ASC_MEMCPY_HOST_TO_DEVICE), ASC_ERR_INVALID_VALUE);
  assert_status(asc_memcpy(h, NULL, 8, ASC_MEMCPY_DEVICE_TO_HOST), ASC_ERR_INVALID_VALUE);
  assert_status(asc_memcpy_async(d, NULL, 8, ASC_MEMCPY_HOST_TO_DEVICE, s), ASC_ERR_INVALID_VALUE);
  assert_status(asc_memset(NULL, 0, 8), ASC_ERR_INVALID_VALUE);
  assert_status(asc_memset_async(NULL, 0, 8, s), ASC_ERR_INVALID_VALUE);
  /* Sizes that wrap around the address space. */
  assert_status(asc_memcpy(d, h, SIZE_MAX, ASC_MEMCPY_HOST_TO_DEVICE), ASC_ERR_INVALID_VALUE);
  assert_status(asc_memcpy(h, d, SIZE_MAX, ASC_MEMCPY_DEVICE_TO_HOST), ASC_ERR_INVALID_VALUE);
  assert_status(asc_memcpy(h, h + 1, SIZE_MAX, ASC_MEMCPY_HOST_TO_HOST), ASC_ERR_INVALID_VALUE);
  assert_status(asc_memcpy(d, d, SIZE_MAX / 2, ASC_MEMCPY_DEVICE_TO_DEVICE), ASC_ERR_INVALID_VALUE);
  assert_status(asc_memcpy_async(d, h, SIZE_MAX, ASC_MEMCPY_HOST_TO_DEVICE, s),
                ASC_ERR_INVALID_VALUE);
  assert_status(asc_memset(d, 0, SIZE_MAX), ASC_ERR_INVALID_VALUE);
  assert_status(asc_memset_async(d, 0, SIZE_MAX, s), ASC_ERR_INVALID_VALUE);
  /* Zero bytes between valid pointers is a no-op that succeeds. */
  assert_ok(asc_memcpy(d, h, 0, ASC_MEMCPY_HOST_TO_DEVICE));
  assert_ok(asc_memcpy(h, h, 0, ASC_MEMCPY_HOST_TO_HOST));
  assert_ok(asc_memset(d, 0, 0));
  assert_ok(asc_stream_synchronize(s));
  assert_ok(asc_mem_free(d));
}

static void test_alloc_rejects_bad_arguments_without_side_effects(void **state) {
  (void)state;
  asc_mem_stats before = stats();
  void *p = NULL;
  assert_status(asc_mem_alloc(0, 64, ASC_STREAM_CURRENT, NULL), ASC_ERR_INVALID_VALUE);
  assert_error(asc_mem_alloc(0, SIZE_MAX, ASC_STREAM_CURRENT, &p), ASC_ERR_OUT_OF_MEMORY, "bytes");
  assert_status(asc_mem_alloc(0, SIZE_MAX / 2, ASC_STREAM_CURRENT, &p), ASC_ERR_OUT_OF_MEMORY);
  assert_status(asc_mem_alloc(0, 64, 77777, &p), ASC_ERR_INVALID_HANDLE);
  assert_null(p);
  asc_mem_stats after = stats();
  assert_int_equal(after.allocated_bytes, before.allocated_bytes);
  assert_int_equal(after.reserved_bytes, before.reserved_bytes);
  assert_int_equal(after.alloc_count, before.alloc_count);
}

static void test_alloc_on_another_devices_stream_is_rejected(void **state) {
  (void)state;
  setenv("PYASC_CPU_DEVICES", "2", 1);
  assert_ok(asc_shutdown());
  asc_stream_t s1;
  assert_ok(asc_stream_create(1, &s1));
  void *p = NULL;
  assert_error(asc_mem_alloc(0, 64, s1, &p), ASC_ERR_INVALID_VALUE, "device 1");
  assert_null(p);
  p = NULL;
  assert_ok(asc_mem_alloc(1, 64, s1, &p));
  asc_mem_range r;
  assert_ok(asc_mem_lookup(p, 64, &r));
  assert_int_equal(r.device, 1);
  assert_int_equal(stats_of(1).active_blocks, 1);
  assert_int_equal(stats_of(0).active_blocks, 0); /* per-device statistics */
  assert_ok(asc_mem_free(p));
}

static void test_backend_exhaustion_releases_cached_blocks(void **state) {
  (void)state;
  setenv("PYASC_CPU_MEMORY", "1M", 1);
  assert_ok(asc_shutdown());
  void *p = NULL;
  assert_error(asc_mem_alloc(0, 2 << 20, ASC_STREAM_CURRENT, &p), ASC_ERR_OUT_OF_MEMORY,
               "out of memory");
  void *a = alloc_on(ASC_STREAM_CURRENT, 600 * 1024);
  assert_ok(asc_mem_free(a));                         /* cached: the backend still holds it */
  void *b = alloc_on(ASC_STREAM_CURRENT, 700 * 1024); /* fits only once a is released */
  asc_mem_stats s = stats();
  assert_int_equal(s.backend_frees, 1);
  assert_int_equal(s.cached_blocks, 0);
  assert_ok(asc_mem_free(b));
}

/* --- fills ----------------------------------------------------------------- */

static void test_memset_sync_and_async(void **state) {
  (void)state;
  unsigned char *d = alloc_on(ASC_STREAM_CURRENT, 1000);
  assert_ok(asc_memset(d, 0x5a, 1000));
  for (int i = 0; i < 1000; i++) assert_int_equal(d[i], 0x5a);
  assert_ok(asc_memset(d + 100, 0x1ab, 50)); /* converted to unsigned char */
  assert_int_equal(d[99], 0x5a);
  assert_int_equal(d[100], 0xab);
  assert_int_equal(d[149], 0xab);
  assert_int_equal(d[150], 0x5a);

  asc_stream_t s = new_stream();
  asc_test_gate *g = asc_test_gate_get(0);
  assert_ok(asc_test_gate_enqueue(s, g));
  assert_ok(asc_memset_async(d, 0x3c, 500, s));
  assert_ok(asc_memset_async(d + 250, 0x2c1, 10, s));
  assert_int_equal(d[0], 0x5a); /* not yet */
  asc_test_gate_open(g);
  assert_ok(asc_stream_synchronize(s));
  assert_int_equal(d[0], 0x3c);
  assert_int_equal(d[249], 0x3c);
  assert_int_equal(d[250], 0xc1);
  assert_int_equal(d[259], 0xc1);
  assert_int_equal(d[260], 0x3c);
  assert_int_equal(d[499], 0x3c);
  assert_int_equal(d[500], 0x5a);
  int local[4];
  assert_error(asc_memset(local, 0, sizeof local), ASC_ERR_INVALID_VALUE, "memset");
  assert_ok(asc_mem_free(d));
}

static void test_sync_copy_waits_for_the_current_stream(void **state) {
  (void)state;
  static unsigned char h[512];
  unsigned char *d = alloc_on(ASC_STREAM_CURRENT, 512);
  memset(d, 0, 512);
  memset(h, 0, 512);
  /* Slow work, then a fill, on the current stream. */
  assert_ok(asc_testing_spin(ASC_STREAM_CURRENT, 40, 1));
  assert_ok(asc_memset_async(d, 0x77, 512, ASC_STREAM_CURRENT));
  assert_ok(asc_memcpy(h, d, 512, ASC_MEMCPY_DEVICE_TO_HOST));
  for (int i = 0; i < 512; i++) assert_int_equal(h[i], 0x77);
  assert_ok(asc_stream_query(ASC_STREAM_CURRENT));
  assert_ok(asc_mem_free(d));
}

static void test_sync_copy_reports_a_deferred_error_of_the_current_stream(void **state) {
  (void)state;
  static unsigned char h[64];
  void *d = alloc_on(ASC_STREAM_CURRENT, 64);
  assert_ok(asc_testing_fail(ASC_STREAM_CURRENT, ASC_ERR_DEVICE, "earlier async failure"));
  assert_error(asc_memcpy(h, d, 64, ASC_MEMCPY_DEVICE_TO_HOST), ASC_ERR_DEVICE,
               "earlier async failure");
  assert_ok(asc_memcpy(h, d, 64, ASC_MEMCPY_DEVICE_TO_HOST));
  assert_ok(asc_mem_free(d));
}

/* --- threads --------------------------------------------------------------- */

enum { THREADS = 4, ITERS = 150 };

typedef struct mem_worker {
  int index;
  int errors;
  char first_error[256];
} mem_worker;

static void note_error(mem_worker *w, const char *what) {
  if (!w->errors++)
    snprintf(w->first_error, sizeof w->first_error, "%s: %s", what, asc_last_error());
}

static void *mem_churn(void *arg) {
  mem_worker *w = arg;
  asc_stream_t s = ASC_STREAM_CURRENT;
  bool own = w->index < 2;
  if (own && asc_stream_create(0, &s) != ASC_OK) {
    note_error(w, "stream_create");
    return NULL;
  }
  unsigned char *src = malloc(8192), *back = malloc(8192);
  for (int i = 0; i < ITERS && src && back; i++) {
    size_t n = 64 + (size_t)((i * 977 + w->index * 131) % 8000);
    fill_pattern(src, n, (unsigned)(i + w->index));
    void *d = NULL, *d2 = NULL;
    if (asc_mem_alloc(0, n, s, &d) != ASC_OK || asc_mem_alloc(0, n, s, &d2) != ASC_OK) {
      note_error(w, "alloc");
      asc_mem_free(d);
      continue;
    }
    memset(back, 0, n);
    if (i % 2 == 0) {
      if (asc_memcpy(d, src, n, ASC_MEMCPY_HOST_TO_DEVICE) ||
          asc_memcpy(d2, d, n, ASC_MEMCPY_DEVICE_TO_DEVICE) ||
          asc_memcpy(back, d2, n, ASC_MEMCPY_DEVICE_TO_HOST))
        note_error(w, "memcpy");
    } else {
      if (asc_memset_async(d, 0, n, s) ||
          asc_memcpy_async(d, src, n, ASC_MEMCPY_HOST_TO_DEVICE, s) ||
          asc_memcpy_async(d2, d, n, ASC_MEMCPY_DEVICE_TO_DEVICE, s) ||
          asc_memcpy_async(back, d2, n, ASC_MEMCPY_DEVICE_TO_HOST, s) || asc_stream_synchronize(s))
        note_error(w, "memcpy_async");
    }
    if (memcmp(back, src, n) != 0) {
      asc_error(ASC_ERR_INTERNAL, "iteration %d: %zu bytes differ", i, n);
      note_error(w, "content");
    }
    if (asc_mem_free(d) || asc_mem_free(d2)) note_error(w, "free");
  }
  if (!src || !back) note_error(w, "malloc");
  free(src);
  free(back);
  if (own && asc_stream_destroy(s) != ASC_OK) note_error(w, "stream_destroy");
  return NULL;
}

static void test_four_threads_alloc_copy_free_and_leave_nothing_allocated(void **state) {
  (void)state;
  asc_mem_stats before = stats();
  mem_worker workers[THREADS];
  pthread_t threads[THREADS];
  for (int i = 0; i < THREADS; i++) {
    memset(&workers[i], 0, sizeof workers[i]);
    workers[i].index = i;
    assert_int_equal(pthread_create(&threads[i], NULL, mem_churn, &workers[i]), 0);
  }
  for (int i = 0; i < THREADS; i++) assert_int_equal(pthread_join(threads[i], NULL), 0);
  for (int i = 0; i < THREADS; i++)
    if (workers[i].errors)
      fail_msg("thread %d: %d errors, first: %s", i, workers[i].errors, workers[i].first_error);
  asc_mem_stats after = stats();
  assert_int_equal(after.allocated_bytes, 0);
  assert_int_equal(after.requested_bytes, 0);
  assert_int_equal(after.active_blocks, 0);
  assert_int_equal(after.alloc_count - before.alloc_count, 2 * THREADS * ITERS);
  assert_int_equal(after.free_count - before.free_count, 2 * THREADS * ITERS);
  assert_int_equal(after.cache_hits + after.cache_misses, after.alloc_count);
  assert_ok(asc_mem_empty_cache(0));
  assert_int_equal(stats().reserved_bytes, 0);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      ASC_TEST(test_alloc_returns_aligned_distinct_writable_memory),
      ASC_TEST(test_zero_byte_alloc_gives_distinct_pointers),
      ASC_TEST(test_free_of_null_is_a_no_op),
      ASC_TEST(test_stats_follow_an_alloc_free_realloc_cycle),
      ASC_TEST(test_allocations_round_to_their_size_class),
      ASC_TEST(test_sizes_in_one_class_share_cached_blocks),
      ASC_TEST(test_peak_tracks_the_high_water_mark_until_reset),
      ASC_TEST(test_block_freed_behind_pending_work_is_reused_only_by_its_stream),
      ASC_TEST(test_block_freed_behind_a_spin_is_not_given_to_another_stream),
      ASC_TEST(test_record_stream_makes_reuse_wait_for_that_stream),
      ASC_TEST(test_record_stream_tracks_many_streams),
      ASC_TEST(test_record_stream_rejects_bad_pointers_and_streams),
      ASC_TEST(test_async_copy_marks_the_block_used_by_its_stream),
      ASC_TEST(test_blocks_outlive_a_destroyed_stream),
      ASC_TEST(test_memory_limit_fails_cleanly_and_leaks_nothing),
      ASC_TEST(test_limit_releases_cached_blocks_before_failing),
      ASC_TEST(test_limit_does_not_release_blocks_other_streams_still_use),
      ASC_TEST(test_empty_cache_returns_idle_blocks_to_the_backend),
      ASC_TEST(test_empty_cache_keeps_blocks_pending_on_a_stream),
      ASC_TEST(test_disabled_caching_frees_to_the_backend),
      ASC_TEST(test_disabled_caching_returns_pending_frees_once_safe),
      ASC_TEST(test_env_can_disable_caching),
      ASC_TEST(test_invalid_frees_are_reported_without_crashing),
      ASC_TEST(test_lookup_finds_interior_ranges_and_rejects_overruns),
      ASC_TEST(test_sync_copies_in_all_four_directions),
      ASC_TEST(test_async_copies_in_all_four_directions),
      ASC_TEST(test_copies_in_the_wrong_direction_are_rejected),
      ASC_TEST(test_copies_past_the_allocation_are_rejected),
      ASC_TEST(test_null_pointers_and_huge_sizes_are_rejected),
      ASC_TEST(test_alloc_rejects_bad_arguments_without_side_effects),
      ASC_TEST(test_alloc_on_another_devices_stream_is_rejected),
      ASC_TEST(test_backend_exhaustion_releases_cached_blocks),
      ASC_TEST(test_memset_sync_and_async),
      ASC_TEST(test_sync_copy_waits_for_the_current_stream),
      ASC_TEST(test_sync_copy_reports_a_deferred_error_of_the_current_stream),
      ASC_TEST(test_four_threads_alloc_copy_free_and_leave_nothing_allocated),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
