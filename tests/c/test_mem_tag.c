/* Tagged device addresses (asc/mem.h asc_mem_tag, asc_mem_resolve): what
 * pyasc.tensor_list stores, so that a kernel holding an address of a freed
 * allocation reaches nothing rather than the block's next owner. */
#include "asc_test.h"

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

static uint64_t untagged(uint64_t a) {
  return a & (((uint64_t)1 << ASC_MEM_TAG_SHIFT) - 1);
}

/* A tagged address names its allocation: after a free it resolves to
 * ASC_MEM_FREED, also when the next allocation took the same block. */
static void test_tagged_addresses_outlive_nothing_they_name(void **state) {
  (void)state;
  asc_stream_t s = new_stream();
  char *p = alloc_on(s, 1000);
  uint64_t t = asc_mem_tag(p + 10);
  assert_int_equal(untagged(t), (uint64_t)(uintptr_t)(p + 10));
  assert_true(t >> ASC_MEM_TAG_SHIFT >= 1 && t >> ASC_MEM_TAG_SHIFT <= ASC_MEM_TAG_MAX);
  asc_mem_range r;
  memset(&r, 0, sizeof r);
  assert_int_equal(asc_mem_resolve(t, &r), ASC_MEM_LIVE);
  assert_ptr_equal(r.base, p);
  assert_int_equal(r.nbytes, 1000);
  assert_int_equal(asc_mem_resolve(untagged(t), NULL), ASC_MEM_LIVE); /* out may be NULL */
  /* Not device memory, or no room for a tag: unchanged, as before. */
  int local;
  assert_int_equal(asc_mem_tag(&local), (uint64_t)(uintptr_t)&local);
  assert_int_equal(asc_mem_tag(NULL), 0);
  assert_int_equal(asc_mem_tag(p + 1000), (uint64_t)(uintptr_t)(p + 1000)); /* one past */
  assert_int_equal(asc_mem_resolve((uint64_t)(uintptr_t)&local, &r), ASC_MEM_NOT_LIVE);
  assert_int_equal(asc_mem_resolve(0, &r), ASC_MEM_NOT_LIVE);
  assert_ok(asc_mem_free(p));
  assert_int_equal(asc_mem_resolve(t, &r), ASC_MEM_FREED); /* cached */
  assert_int_equal(asc_mem_resolve(untagged(t), &r), ASC_MEM_NOT_LIVE);
  char *q = alloc_on(s, 1000);
  assert_ptr_equal(q, p);                                  /* the cache gave the block back */
  assert_int_equal(asc_mem_resolve(t, &r), ASC_MEM_FREED); /* another allocation's */
  assert_int_equal(asc_mem_resolve(untagged(t), &r), ASC_MEM_LIVE); /* untagged: no history */
  uint64_t t2 = asc_mem_tag(q + 10);
  assert_int_not_equal(t2, t);
  assert_int_equal(asc_mem_resolve(t2, &r), ASC_MEM_LIVE);
  assert_ok(asc_mem_free(q));
  /* The block's later owners never take the stale tag back. */
  for (int i = 0; i < 2000; i++) {
    char *o = alloc_on(s, 1000);
    assert_ptr_equal(o, p);
    assert_int_equal(asc_mem_resolve(t, &r), ASC_MEM_FREED);
    assert_int_equal(asc_mem_resolve(asc_mem_tag(o), &r), ASC_MEM_LIVE);
    assert_ok(asc_mem_free(o));
  }
  assert_ok(asc_stream_synchronize(s));
  assert_ok(asc_mem_empty_cache(0));
  assert_int_equal(asc_mem_resolve(t2, &r), ASC_MEM_FREED); /* back with the backend */
  /* A tag that never was: freed or not, it names no live allocation. */
  assert_int_equal(asc_mem_resolve(UINT64_MAX, &r), ASC_MEM_FREED);
  assert_ok(asc_stream_destroy(s));
}

int main(void) {
  const struct CMUnitTest tests[] = {
      ASC_TEST(test_tagged_addresses_outlive_nothing_they_name),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
