/* Generation-checked handle tables and reference counts (src/core/handle.h). */
#include "asc_test.h"

#include "../../src/core/handle.h"

#define TAG 0x57 /* 'W' */

typedef struct widget {
  asc_ref ref; /* first, as the table requires */
  int id;
  atomic_int *destroyed; /* bumped by the destructor */
  bool heap;             /* freed by the destructor */
} widget;

static void widget_destroy(asc_ref *ref) {
  widget *w = (widget *)ref;
  atomic_fetch_add(w->destroyed, 1);
  if (w->heap) free(w);
}

static void widget_init(widget *w, int id, atomic_int *destroyed) {
  asc_ref_init(&w->ref, widget_destroy);
  w->id = id;
  w->destroyed = destroyed;
  w->heap = false;
}

static widget *widget_new(int id, atomic_int *destroyed) {
  widget *w = malloc(sizeof *w);
  if (!w) return NULL;
  widget_init(w, id, destroyed);
  w->heap = true;
  return w;
}

static int refcount(const widget *w) {
  return atomic_load(&w->ref.count);
}

static void test_insert_get_remove_roundtrip(void **state) {
  (void)state;
  asc_handle_table t;
  asc_handle_table_init(&t, TAG, "widget");
  atomic_int destroyed = 0;
  widget w;
  widget_init(&w, 7, &destroyed);

  uint64_t h = 0;
  assert_ok(asc_handle_insert(&t, &w.ref, &h));
  assert_true(h != 0);
  assert_int_equal(t.live, 1);

  asc_ref *got = NULL;
  assert_ok(asc_handle_get(&t, h, &got));
  assert_ptr_equal(got, &w.ref);
  assert_int_equal(((widget *)got)->id, 7);
  assert_int_equal(refcount(&w), 2); /* the table's and ours */
  asc_ref_release(got);
  assert_int_equal(refcount(&w), 1);

  asc_ref *removed = NULL;
  assert_ok(asc_handle_remove(&t, h, &removed));
  assert_ptr_equal(removed, &w.ref);
  assert_int_equal(t.live, 0);
  assert_int_equal(refcount(&w), 1); /* the table's reference passed to us */
  assert_int_equal(destroyed, 0);

  got = NULL;
  assert_error(asc_handle_get(&t, h, &got), ASC_ERR_INVALID_HANDLE, "widget");
  assert_null(got);
  char hex[32];
  snprintf(hex, sizeof hex, "0x%llx", (unsigned long long)h);
  assert_contains(asc_last_error(), hex);
  assert_status(asc_handle_remove(&t, h, &removed), ASC_ERR_INVALID_HANDLE);

  asc_ref_release(removed);
  assert_int_equal(destroyed, 1);
  asc_handle_table_destroy(&t);
}

static void test_removed_handle_stays_invalid_after_slot_reuse(void **state) {
  (void)state;
  asc_handle_table t;
  asc_handle_table_init(&t, TAG, "widget");
  atomic_int destroyed = 0;
  enum { ROUNDS = 50 };
  uint64_t old[ROUNDS];
  for (int i = 0; i < ROUNDS; i++) {
    widget *w = widget_new(i, &destroyed);
    assert_non_null(w);
    assert_ok(asc_handle_insert(&t, &w->ref, &old[i]));
    /* The freed slot is reused (one live object at a time)... */
    if (i) assert_int_equal(old[i] & 0xffffffffu, old[0] & 0xffffffffu);
    /* ...but every handle is new, and all earlier ones are dead. */
    for (int j = 0; j < i; j++) {
      assert_true(old[j] != old[i]);
      asc_ref *got = NULL;
      assert_status(asc_handle_get(&t, old[j], &got), ASC_ERR_INVALID_HANDLE);
    }
    asc_ref *got = NULL;
    assert_ok(asc_handle_get(&t, old[i], &got));
    assert_int_equal(((widget *)got)->id, i);
    asc_ref_release(got);
    asc_ref *removed;
    assert_ok(asc_handle_remove(&t, old[i], &removed));
    asc_ref_release(removed);
  }
  assert_int_equal(destroyed, ROUNDS);
  assert_int_equal(t.capacity, 16); /* reuse, not growth */
  asc_handle_table_destroy(&t);
}

static void test_forged_handles_are_rejected(void **state) {
  (void)state;
  asc_handle_table t;
  asc_handle_table_init(&t, TAG, "widget");
  atomic_int destroyed = 0;
  widget w;
  widget_init(&w, 1, &destroyed);
  uint64_t h;
  assert_ok(asc_handle_insert(&t, &w.ref, &h));

  const uint64_t forged[] = {
      0,
      h ^ ((uint64_t)0x01 << 56),                         /* wrong tag */
      (h & ~((uint64_t)0xff << 56)),                      /* tag 0 */
      ((uint64_t)TAG << 56) | 0xffffffffu,                /* huge index */
      ((uint64_t)TAG << 56) | 0x7fffffffu,                /* huge index */
      ((uint64_t)TAG << 56) | (uint64_t)(t.capacity + 1), /* just past the table */
      ((uint64_t)TAG << 56),                              /* index field 0 */
      h + ((uint64_t)1 << 32),                            /* wrong generation */
      h + 1,                                              /* free slot */
      UINT64_MAX,
  };
  for (size_t i = 0; i < sizeof forged / sizeof forged[0]; i++) {
    asc_ref *got = NULL;
    assert_status(asc_handle_get(&t, forged[i], &got), ASC_ERR_INVALID_HANDLE);
    assert_null(got);
    assert_status(asc_handle_remove(&t, forged[i], &got), ASC_ERR_INVALID_HANDLE);
  }
  /* Nothing was disturbed. */
  assert_int_equal(t.live, 1);
  assert_int_equal(refcount(&w), 1);
  asc_ref *got;
  assert_ok(asc_handle_get(&t, h, &got));
  asc_ref_release(got);

  /* A handle from another table (different tag) is foreign here. */
  asc_handle_table other;
  asc_handle_table_init(&other, TAG + 1, "gadget");
  widget w2;
  widget_init(&w2, 2, &destroyed);
  uint64_t h2;
  assert_ok(asc_handle_insert(&other, &w2.ref, &h2));
  assert_error(asc_handle_get(&t, h2, &got), ASC_ERR_INVALID_HANDLE, "widget");
  assert_error(asc_handle_get(&other, h, &got), ASC_ERR_INVALID_HANDLE, "gadget");

  asc_handle_table_destroy(&other);
  asc_handle_table_destroy(&t);
  assert_int_equal(destroyed, 2);
}

static void test_zero_handle_is_invalid_even_with_tag_zero(void **state) {
  (void)state;
  asc_handle_table t;
  asc_handle_table_init(&t, 0, "thing");
  atomic_int destroyed = 0;
  widget w;
  widget_init(&w, 1, &destroyed);
  uint64_t h;
  assert_ok(asc_handle_insert(&t, &w.ref, &h));
  assert_true(h != 0);
  asc_ref *got = NULL;
  assert_status(asc_handle_get(&t, 0, &got), ASC_ERR_INVALID_HANDLE);
  assert_ok(asc_handle_get(&t, h, &got));
  asc_ref_release(got);
  asc_handle_table_destroy(&t);
  assert_int_equal(destroyed, 1);
}

static void test_table_grows_beyond_sixteen_slots(void **state) {
  (void)state;
  asc_handle_table t;
  asc_handle_table_init(&t, TAG, "widget");
  atomic_int destroyed = 0;
  enum { N = 100 };
  uint64_t h[N];
  for (int i = 0; i < N; i++) {
    widget *w = widget_new(i, &destroyed);
    assert_non_null(w);
    assert_ok(asc_handle_insert(&t, &w->ref, &h[i]));
  }
  assert_int_equal(t.live, N);
  assert_true(t.capacity >= N);
  for (int i = 0; i < N; i++) {
    for (int j = 0; j < i; j++) assert_true(h[i] != h[j]);
    asc_ref *got;
    assert_ok(asc_handle_get(&t, h[i], &got));
    assert_int_equal(((widget *)got)->id, i); /* growth kept every mapping */
    asc_ref_release(got);
  }
  for (int i = 0; i < N; i += 2) {
    asc_ref *removed;
    assert_ok(asc_handle_remove(&t, h[i], &removed));
    asc_ref_release(removed);
  }
  assert_int_equal(t.live, N / 2);
  assert_int_equal(destroyed, N / 2);
  for (int i = 1; i < N; i += 2) {
    asc_ref *got;
    assert_ok(asc_handle_get(&t, h[i], &got));
    assert_int_equal(((widget *)got)->id, i);
    asc_ref_release(got);
  }
  asc_handle_table_destroy(&t); /* drops the remaining table references */
  assert_int_equal(destroyed, N);
}

typedef struct visit_log {
  int seen[64];
  int calls;
  asc_handle_table *table;
  uint64_t *handles; /* when set, the callback removes the visited object */
} visit_log;

static void record_visit(asc_ref *obj, void *user) {
  visit_log *log = user;
  widget *w = (widget *)obj;
  log->calls++;
  if (w->id >= 0 && w->id < 64) log->seen[w->id]++;
  if (log->handles) {
    /* The callback runs outside the table lock, so it may use the table. */
    asc_ref *removed;
    if (asc_handle_remove(log->table, log->handles[w->id], &removed) == ASC_OK)
      asc_ref_release(removed);
  }
  asc_ref_release(obj);
}

static void test_each_visits_every_live_object_once(void **state) {
  (void)state;
  asc_handle_table t;
  asc_handle_table_init(&t, TAG, "widget");
  atomic_int destroyed = 0;
  enum { N = 40 };
  widget ws[N];
  uint64_t h[N];
  for (int i = 0; i < N; i++) {
    widget_init(&ws[i], i, &destroyed);
    assert_ok(asc_handle_insert(&t, &ws[i].ref, &h[i]));
  }
  for (int i = 0; i < N; i += 3) {
    asc_ref *removed;
    assert_ok(asc_handle_remove(&t, h[i], &removed));
    /* keep our reference so that ws[i] survives for the check below */
  }
  visit_log log;
  memset(&log, 0, sizeof log);
  assert_ok(asc_handle_each(&t, record_visit, &log));
  int live = 0;
  for (int i = 0; i < N; i++) {
    assert_int_equal(log.seen[i], i % 3 == 0 ? 0 : 1);
    live += i % 3 != 0;
    /* each released the reference it gave the callback */
    assert_int_equal(refcount(&ws[i]), 1);
  }
  assert_int_equal(log.calls, live);
  assert_int_equal(destroyed, 0);

  /* Callbacks may remove the objects they visit. */
  memset(&log, 0, sizeof log);
  log.table = &t;
  log.handles = h;
  assert_ok(asc_handle_each(&t, record_visit, &log));
  assert_int_equal(log.calls, live);
  assert_int_equal(t.live, 0);
  assert_int_equal(destroyed, live);

  /* An empty table calls nothing. */
  memset(&log, 0, sizeof log);
  assert_ok(asc_handle_each(&t, record_visit, &log));
  assert_int_equal(log.calls, 0);

  for (int i = 0; i < N; i += 3) asc_ref_release(&ws[i].ref);
  assert_int_equal(destroyed, N);
  asc_handle_table_destroy(&t);
}

static void test_destroy_runs_exactly_once_at_last_release(void **state) {
  (void)state;
  asc_handle_table t;
  asc_handle_table_init(&t, TAG, "widget");
  atomic_int destroyed = 0;
  widget w;
  widget_init(&w, 3, &destroyed);
  uint64_t h;
  assert_ok(asc_handle_insert(&t, &w.ref, &h));
  asc_ref *a, *b, *removed;
  assert_ok(asc_handle_get(&t, h, &a));
  assert_ok(asc_handle_get(&t, h, &b));
  asc_ref_retain(&w.ref);
  assert_int_equal(refcount(&w), 4);
  assert_ok(asc_handle_remove(&t, h, &removed));
  asc_ref_release(removed);
  assert_int_equal(destroyed, 0);
  asc_ref_release(a);
  asc_ref_release(b);
  assert_int_equal(destroyed, 0);
  assert_int_equal(refcount(&w), 1);
  asc_ref_release(&w.ref);
  assert_int_equal(destroyed, 1);
  assert_int_equal(refcount(&w), 0);
  asc_handle_table_destroy(&t);
  assert_int_equal(destroyed, 1);
}

static void test_clear_drops_table_references_and_invalidates_handles(void **state) {
  (void)state;
  asc_handle_table t;
  asc_handle_table_init(&t, TAG, "widget");
  atomic_int destroyed = 0;
  widget a, b;
  widget_init(&a, 1, &destroyed);
  widget_init(&b, 2, &destroyed);
  uint64_t ha, hb;
  assert_ok(asc_handle_insert(&t, &a.ref, &ha));
  assert_ok(asc_handle_insert(&t, &b.ref, &hb));
  asc_ref *held;
  assert_ok(asc_handle_get(&t, hb, &held)); /* b outlives the clear */

  asc_handle_table_clear(&t);
  assert_int_equal(destroyed, 1);
  assert_int_equal(refcount(&b), 1);
  assert_int_equal(t.live, 0);
  asc_ref *got;
  assert_status(asc_handle_get(&t, ha, &got), ASC_ERR_INVALID_HANDLE);
  assert_status(asc_handle_get(&t, hb, &got), ASC_ERR_INVALID_HANDLE);

  /* The table stays usable, and new handles do not resurrect old ones. */
  widget c;
  widget_init(&c, 3, &destroyed);
  uint64_t hc;
  assert_ok(asc_handle_insert(&t, &c.ref, &hc));
  assert_true(hc != ha && hc != hb);
  assert_status(asc_handle_get(&t, ha, &got), ASC_ERR_INVALID_HANDLE);
  assert_status(asc_handle_get(&t, hb, &got), ASC_ERR_INVALID_HANDLE);

  asc_ref_release(held);
  assert_int_equal(destroyed, 2);
  asc_handle_table_destroy(&t);
  assert_int_equal(destroyed, 3);
}

enum { THREADS = 4, ITERS = 3000, WINDOW = 12 };

static pthread_barrier_t g_start, g_full;

typedef struct worker {
  asc_handle_table *table;
  atomic_int *destroyed;
  int index;
  int errors;
  int stale_accepted;
} worker;

static void *churn(void *arg) {
  worker *me = arg;
  uint64_t live[WINDOW] = {0};
  int ids[WINDOW] = {0};
  uint64_t dead[WINDOW] = {0};
  pthread_barrier_wait(&g_start); /* all threads churn at the same time */
  for (int i = 0; i < ITERS; i++) {
    int k = i % WINDOW;
    if (live[k]) {
      asc_ref *got = NULL;
      if (asc_handle_get(me->table, live[k], &got) != ASC_OK || ((widget *)got)->id != ids[k])
        me->errors++;
      if (got) asc_ref_release(got);
      asc_ref *removed = NULL;
      if (asc_handle_remove(me->table, live[k], &removed) != ASC_OK || removed != got) me->errors++;
      if (removed) asc_ref_release(removed);
      dead[k] = live[k];
      live[k] = 0;
    }
    /* A handle removed a while ago must stay dead even though other threads
     * keep reusing its slot. */
    if (dead[(k + 1) % WINDOW]) {
      asc_ref *got = NULL;
      if (asc_handle_get(me->table, dead[(k + 1) % WINDOW], &got) == ASC_OK) {
        me->stale_accepted++;
        asc_ref_release(got);
      }
    }
    ids[k] = me->index * ITERS + i;
    widget *w = widget_new(ids[k], me->destroyed);
    if (!w || asc_handle_insert(me->table, &w->ref, &live[k]) != ASC_OK) {
      me->errors++;
      free(w);
      live[k] = 0;
    }
  }
  /* Every thread holds a full window here, so the table must have grown. */
  pthread_barrier_wait(&g_full);
  for (int k = 0; k < WINDOW; k++) {
    asc_ref *removed;
    if (live[k] && asc_handle_remove(me->table, live[k], &removed) == ASC_OK)
      asc_ref_release(removed);
    else if (live[k])
      me->errors++;
  }
  return NULL;
}

static void test_concurrent_insert_and_remove_from_four_threads(void **state) {
  (void)state;
  asc_handle_table t;
  asc_handle_table_init(&t, TAG, "widget");
  atomic_int destroyed = 0;
  worker workers[THREADS];
  pthread_t threads[THREADS];
  assert_int_equal(pthread_barrier_init(&g_start, NULL, THREADS), 0);
  assert_int_equal(pthread_barrier_init(&g_full, NULL, THREADS), 0);
  for (int i = 0; i < THREADS; i++) {
    workers[i] = (worker){.table = &t, .destroyed = &destroyed, .index = i};
    assert_int_equal(pthread_create(&threads[i], NULL, churn, &workers[i]), 0);
  }
  for (int i = 0; i < THREADS; i++) assert_int_equal(pthread_join(threads[i], NULL), 0);
  pthread_barrier_destroy(&g_start);
  pthread_barrier_destroy(&g_full);
  for (int i = 0; i < THREADS; i++) {
    assert_int_equal(workers[i].errors, 0);
    assert_int_equal(workers[i].stale_accepted, 0);
  }
  assert_int_equal(t.live, 0);
  assert_int_equal(destroyed, THREADS * ITERS);
  assert_true(t.capacity >= THREADS * WINDOW);
  asc_handle_table_destroy(&t);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      ASC_TEST(test_insert_get_remove_roundtrip),
      ASC_TEST(test_removed_handle_stays_invalid_after_slot_reuse),
      ASC_TEST(test_forged_handles_are_rejected),
      ASC_TEST(test_zero_handle_is_invalid_even_with_tag_zero),
      ASC_TEST(test_table_grows_beyond_sixteen_slots),
      ASC_TEST(test_each_visits_every_live_object_once),
      ASC_TEST(test_destroy_runs_exactly_once_at_last_release),
      ASC_TEST(test_clear_drops_table_references_and_invalidates_handles),
      ASC_TEST(test_concurrent_insert_and_remove_from_four_threads),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
