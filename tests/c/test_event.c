/* Events: record/query/synchronize, elapsed time, cross-stream waits,
 * re-recording and destroyed handles. */
#include "asc_test.h"

/* Host tasks: one sets a flag, one samples it (to prove ordering). */
static atomic_int g_flag;
static atomic_int g_observed;

static asc_status set_flag(void *user) {
  (void)user;
  atomic_store(&g_flag, 1);
  return ASC_OK;
}

static asc_status observe_flag(void *user) {
  (void)user;
  atomic_store(&g_observed, atomic_load(&g_flag));
  return ASC_OK;
}

static asc_status enqueue_fn(asc_stream_t s, asc_status (*fn)(void *), const char *what) {
  asc_task task = {.run = fn, .what = what};
  return asc_stream_enqueue(s, &task);
}

static void reset_flags(void) {
  atomic_store(&g_flag, 0);
  atomic_store(&g_observed, -1);
}

static double slack_ms(void) {
  return asc_test_under_valgrind() ? 2000 : 200;
}

static void test_record_query_synchronize(void **state) {
  (void)state;
  asc_stream_t s;
  asc_event_t e;
  assert_ok(asc_stream_create(0, &s));
  assert_ok(asc_event_create(&e));
  asc_test_gate *g = asc_test_gate_get(0);
  assert_ok(asc_test_gate_enqueue(s, g));
  assert_ok(asc_event_record(e, s));
  assert_status(asc_event_query(e), ASC_ERR_NOT_READY);
  asc_test_sleep_ms(5);
  assert_status(asc_event_query(e), ASC_ERR_NOT_READY); /* still held by the gate */
  asc_test_gate_open(g);
  assert_ok(asc_event_synchronize(e));
  assert_ok(asc_event_query(e));
  assert_int_equal(atomic_load(&g->passed), 1); /* the event came after the gate */
  assert_ok(asc_event_destroy(e));
}

static void test_event_synchronize_waits_for_earlier_work_only(void **state) {
  (void)state;
  reset_flags();
  asc_stream_t s;
  asc_event_t e;
  assert_ok(asc_stream_create(0, &s));
  assert_ok(asc_event_create(&e));
  assert_ok(asc_testing_spin(s, 30, 1));
  assert_ok(enqueue_fn(s, set_flag, "set flag"));
  assert_ok(asc_event_record(e, s));
  asc_test_gate *g = asc_test_gate_get(0);
  assert_ok(asc_test_gate_enqueue(s, g)); /* work after the event */
  assert_ok(asc_event_synchronize(e));
  assert_int_equal(atomic_load(&g_flag), 1);
  assert_ok(asc_event_query(e));
  assert_status(asc_stream_query(s), ASC_ERR_NOT_READY); /* the gate is still closed */
  asc_test_gate_open(g);
  assert_ok(asc_stream_synchronize(s));
}

static void test_unrecorded_event_is_complete(void **state) {
  (void)state;
  asc_event_t e;
  assert_ok(asc_event_create(&e));
  assert_ok(asc_event_query(e));
  assert_ok(asc_event_synchronize(e));
}

static void test_elapsed_time_measures_a_spin(void **state) {
  (void)state;
  asc_stream_t s;
  asc_event_t a, b;
  assert_ok(asc_stream_create(0, &s));
  assert_ok(asc_event_create(&a));
  assert_ok(asc_event_create(&b));
  assert_ok(asc_event_record(a, s));
  assert_ok(asc_testing_spin(s, 20, 1));
  assert_ok(asc_event_record(b, s));
  assert_ok(asc_event_synchronize(b));
  double ms = -1;
  assert_ok(asc_event_elapsed_ms(a, b, &ms));
  if (!(ms >= 19 && ms < slack_ms())) fail_msg("elapsed %.3f ms around a 20 ms spin", ms);
  /* Reversed order gives the negative interval. */
  double back = 0;
  assert_ok(asc_event_elapsed_ms(b, a, &back));
  assert_float_equal(back, -ms, 1e-6);
  /* An event against itself is zero. */
  double zero = -1;
  assert_ok(asc_event_elapsed_ms(a, a, &zero));
  assert_float_equal(zero, 0, 1e-9);
}

static void test_elapsed_time_of_an_unrecorded_event_is_invalid(void **state) {
  (void)state;
  asc_stream_t s;
  asc_event_t rec, unrec;
  assert_ok(asc_stream_create(0, &s));
  assert_ok(asc_event_create(&rec));
  assert_ok(asc_event_create(&unrec));
  assert_ok(asc_event_record(rec, s));
  assert_ok(asc_event_synchronize(rec));
  double ms = 12345;
  assert_error(asc_event_elapsed_ms(unrec, rec, &ms), ASC_ERR_INVALID_VALUE, "start");
  assert_contains(asc_last_error(), "never recorded");
  assert_error(asc_event_elapsed_ms(rec, unrec, &ms), ASC_ERR_INVALID_VALUE, "end");
  assert_status(asc_event_elapsed_ms(unrec, unrec, &ms), ASC_ERR_INVALID_VALUE);
  assert_float_equal(ms, 12345, 0); /* untouched on failure */
}

static void test_elapsed_time_of_a_pending_event_is_not_ready(void **state) {
  (void)state;
  asc_stream_t s;
  asc_event_t a, b;
  assert_ok(asc_stream_create(0, &s));
  assert_ok(asc_event_create(&a));
  assert_ok(asc_event_create(&b));
  asc_test_gate *g = asc_test_gate_get(0);
  assert_ok(asc_event_record(a, s));
  assert_ok(asc_event_synchronize(a));
  assert_ok(asc_test_gate_enqueue(s, g));
  assert_ok(asc_event_record(b, s));
  double ms = 12345;
  assert_error(asc_event_elapsed_ms(a, b, &ms), ASC_ERR_NOT_READY, "end");
  assert_error(asc_event_elapsed_ms(b, a, &ms), ASC_ERR_NOT_READY, "start");
  assert_float_equal(ms, 12345, 0);
  asc_test_gate_open(g);
  assert_ok(asc_event_synchronize(b));
  assert_ok(asc_event_elapsed_ms(a, b, &ms));
  assert_true(ms >= 0);
}

static void test_cross_stream_wait_orders_work_after_a_spin(void **state) {
  (void)state;
  reset_flags();
  asc_stream_t a, b;
  asc_event_t e;
  assert_ok(asc_stream_create(0, &a));
  assert_ok(asc_stream_create(0, &b));
  assert_ok(asc_event_create(&e));
  /* a: spin 50 ms, then set the flag, then record the event. */
  assert_ok(asc_testing_spin(a, 50, 1));
  assert_ok(enqueue_fn(a, set_flag, "set flag"));
  assert_ok(asc_event_record(e, a));
  /* b: wait for the event, then read the flag. Without the wait b would
   * read it at once, 50 ms before a sets it. */
  assert_ok(asc_stream_wait_event(b, e));
  assert_ok(enqueue_fn(b, observe_flag, "observe flag"));
  assert_ok(asc_stream_synchronize(b));
  assert_int_equal(atomic_load(&g_observed), 1);
  assert_ok(asc_event_query(e)); /* b could only finish after the event */
}

static void test_cross_stream_wait_holds_until_the_event_completes(void **state) {
  (void)state;
  reset_flags();
  asc_stream_t a, b;
  asc_event_t e;
  assert_ok(asc_stream_create(0, &a));
  assert_ok(asc_stream_create(0, &b));
  assert_ok(asc_event_create(&e));
  asc_test_gate *g = asc_test_gate_get(0);
  assert_ok(asc_test_gate_enqueue(a, g));
  assert_ok(enqueue_fn(a, set_flag, "set flag"));
  assert_ok(asc_event_record(e, a));
  assert_ok(asc_stream_wait_event(b, e));
  assert_ok(enqueue_fn(b, observe_flag, "observe flag"));
  /* Work on a after the record is not waited for. */
  asc_test_gate *g2 = asc_test_gate_get(1);
  assert_ok(asc_test_gate_enqueue(a, g2));
  asc_test_sleep_ms(10);
  assert_status(asc_stream_query(b), ASC_ERR_NOT_READY);
  assert_int_equal(atomic_load(&g_observed), -1);
  asc_test_gate_open(g);
  assert_ok(asc_stream_synchronize(b)); /* returns although a is held by g2 */
  assert_int_equal(atomic_load(&g_observed), 1);
  assert_status(asc_stream_query(a), ASC_ERR_NOT_READY);
  asc_test_gate_open(g2);
  assert_ok(asc_stream_synchronize(a));
}

static void test_waiting_on_an_unrecorded_event_does_not_block(void **state) {
  (void)state;
  reset_flags();
  asc_stream_t b;
  asc_event_t e;
  assert_ok(asc_stream_create(0, &b));
  assert_ok(asc_event_create(&e));
  assert_ok(asc_stream_wait_event(b, e));
  assert_ok(enqueue_fn(b, observe_flag, "observe flag"));
  assert_ok(asc_stream_synchronize(b));
  assert_int_equal(atomic_load(&g_observed), 0);
}

static void test_destroyed_event_handle_is_invalid(void **state) {
  (void)state;
  asc_stream_t s;
  asc_event_t e, other;
  assert_ok(asc_stream_create(0, &s));
  assert_ok(asc_event_create(&e));
  assert_ok(asc_event_create(&other));
  assert_ok(asc_event_record(other, s));
  assert_ok(asc_event_record(e, s));
  assert_ok(asc_event_destroy(e));
  double ms;
  assert_error(asc_event_query(e), ASC_ERR_INVALID_HANDLE, "event");
  assert_status(asc_event_synchronize(e), ASC_ERR_INVALID_HANDLE);
  assert_status(asc_event_record(e, s), ASC_ERR_INVALID_HANDLE);
  assert_status(asc_event_elapsed_ms(e, other, &ms), ASC_ERR_INVALID_HANDLE);
  assert_status(asc_event_elapsed_ms(other, e, &ms), ASC_ERR_INVALID_HANDLE);
  assert_status(asc_stream_wait_event(s, e), ASC_ERR_INVALID_HANDLE);
  assert_status(asc_event_destroy(e), ASC_ERR_INVALID_HANDLE);
  /* Stream handles and made-up values are not events. */
  assert_status(asc_event_query(s), ASC_ERR_INVALID_HANDLE);
  assert_status(asc_event_query(0), ASC_ERR_INVALID_HANDLE);
  assert_status(asc_event_destroy(42), ASC_ERR_INVALID_HANDLE);
  /* Nor are events streams. */
  assert_status(asc_event_record(other, other), ASC_ERR_INVALID_HANDLE);
  assert_ok(asc_event_synchronize(other));
}

static void test_destroying_an_event_with_a_pending_record_is_safe(void **state) {
  (void)state;
  asc_stream_t a, b;
  asc_event_t e;
  assert_ok(asc_stream_create(0, &a));
  assert_ok(asc_stream_create(0, &b));
  assert_ok(asc_event_create(&e));
  asc_test_gate *g = asc_test_gate_get(0);
  assert_ok(asc_test_gate_enqueue(a, g));
  assert_ok(asc_event_record(e, a));
  assert_ok(asc_stream_wait_event(b, e));
  assert_ok(asc_event_destroy(e));
  assert_status(asc_stream_query(b), ASC_ERR_NOT_READY); /* the wait still holds */
  asc_test_gate_open(g);
  assert_ok(asc_stream_synchronize(b));
  assert_ok(asc_stream_synchronize(a));
  /* Destroying the stream an event was recorded on is fine too. */
  asc_event_t f;
  assert_ok(asc_event_create(&f));
  assert_ok(asc_event_record(f, a));
  assert_ok(asc_stream_destroy(a));
  assert_ok(asc_event_query(f));
  assert_ok(asc_event_synchronize(f));
}

static void test_rerecording_moves_the_event(void **state) {
  (void)state;
  asc_stream_t a, b;
  asc_event_t start, e;
  assert_ok(asc_stream_create(0, &a));
  assert_ok(asc_stream_create(0, &b));
  assert_ok(asc_event_create(&start));
  assert_ok(asc_event_create(&e));
  assert_ok(asc_event_record(start, b));
  asc_test_gate *g = asc_test_gate_get(0);
  assert_ok(asc_test_gate_enqueue(a, g));
  assert_ok(asc_event_record(e, a)); /* pending behind the gate */
  assert_status(asc_event_query(e), ASC_ERR_NOT_READY);
  assert_ok(asc_event_record(e, b));   /* moves to b, which is idle */
  assert_ok(asc_event_synchronize(e)); /* does not wait for a */
  assert_ok(asc_event_query(e));
  assert_status(asc_stream_query(a), ASC_ERR_NOT_READY);
  double first = -1;
  assert_ok(asc_event_elapsed_ms(start, e, &first));
  assert_true(first >= 0);
  /* The stale record on a completes later and must not change e. */
  asc_test_sleep_ms(5);
  asc_test_gate_open(g);
  assert_ok(asc_stream_synchronize(a));
  double again = -1;
  assert_ok(asc_event_elapsed_ms(start, e, &again));
  assert_float_equal(again, first, 1e-9);

  /* Recording again after completion measures the new point. */
  assert_ok(asc_testing_spin(b, 10, 1));
  assert_ok(asc_event_record(e, b));
  assert_ok(asc_event_synchronize(e));
  double later = -1;
  assert_ok(asc_event_elapsed_ms(start, e, &later));
  assert_true(later >= first + 9);
}

static void test_events_complete_on_a_stream_with_a_deferred_error(void **state) {
  (void)state;
  reset_flags();
  asc_stream_t a, b;
  asc_event_t e;
  assert_ok(asc_stream_create(0, &a));
  assert_ok(asc_stream_create(0, &b));
  assert_ok(asc_event_create(&e));
  assert_ok(asc_testing_fail(a, ASC_ERR_DEVICE, "failed before the record"));
  assert_ok(enqueue_fn(a, set_flag, "set flag")); /* skipped */
  assert_ok(asc_event_record(e, a));              /* still completes */
  assert_ok(asc_stream_wait_event(b, e));
  assert_ok(enqueue_fn(b, observe_flag, "observe flag"));
  assert_ok(asc_event_synchronize(e));
  assert_ok(asc_event_query(e));
  assert_ok(asc_stream_synchronize(b)); /* b is not poisoned by a */
  assert_int_equal(atomic_load(&g_observed), 0);
  /* The record is an ordering marker, not a skipped task. */
  assert_error(asc_stream_synchronize(a), ASC_ERR_DEVICE, "1 later task skipped");
}

static void test_record_on_current_stream(void **state) {
  (void)state;
  reset_flags();
  asc_stream_t s;
  asc_event_t e;
  assert_ok(asc_stream_create(0, &s));
  assert_ok(asc_stream_set_current(s));
  assert_ok(asc_event_create(&e));
  asc_test_gate *g = asc_test_gate_get(0);
  assert_ok(asc_test_gate_enqueue(s, g));
  assert_ok(asc_event_record(e, ASC_STREAM_CURRENT)); /* lands on s */
  asc_test_sleep_ms(5); /* long enough for an idle stream to pass it */
  assert_status(asc_event_query(e), ASC_ERR_NOT_READY);
  asc_test_gate_open(g);
  assert_ok(asc_event_synchronize(e));
  asc_stream_t d;
  assert_ok(asc_stream_default(0, &d));
  assert_ok(asc_stream_set_current(d));
}

static void test_many_events_on_many_streams(void **state) {
  (void)state;
  enum { STREAMS = 3, EVENTS = 40 };
  asc_stream_t s[STREAMS];
  asc_event_t e[EVENTS];
  for (int i = 0; i < STREAMS; i++) assert_ok(asc_stream_create(0, &s[i]));
  asc_test_gate *g = asc_test_gate_get(0);
  assert_ok(asc_test_gate_enqueue(s[0], g)); /* holds the head of the chain */
  for (int i = 0; i < EVENTS; i++) {
    assert_ok(asc_event_create(&e[i]));
    /* Each event comes after the previous one, across streams: a chain. */
    if (i > 0) assert_ok(asc_stream_wait_event(s[i % STREAMS], e[i - 1]));
    assert_ok(asc_event_record(e[i], s[i % STREAMS]));
  }
  for (int i = 0; i < EVENTS; i++) assert_status(asc_event_query(e[i]), ASC_ERR_NOT_READY);
  asc_test_gate_open(g);
  assert_ok(asc_event_synchronize(e[EVENTS - 1]));
  for (int i = 0; i < EVENTS; i++) assert_ok(asc_event_query(e[i]));
  for (int i = 0; i < EVENTS; i += 2) assert_ok(asc_event_destroy(e[i]));
  /* The rest are cleaned up by asc_shutdown in the teardown. */
}

int main(void) {
  const struct CMUnitTest tests[] = {
      ASC_TEST(test_record_query_synchronize),
      ASC_TEST(test_event_synchronize_waits_for_earlier_work_only),
      ASC_TEST(test_unrecorded_event_is_complete),
      ASC_TEST(test_elapsed_time_measures_a_spin),
      ASC_TEST(test_elapsed_time_of_an_unrecorded_event_is_invalid),
      ASC_TEST(test_elapsed_time_of_a_pending_event_is_not_ready),
      ASC_TEST(test_cross_stream_wait_orders_work_after_a_spin),
      ASC_TEST(test_cross_stream_wait_holds_until_the_event_completes),
      ASC_TEST(test_waiting_on_an_unrecorded_event_does_not_block),
      ASC_TEST(test_destroyed_event_handle_is_invalid),
      ASC_TEST(test_destroying_an_event_with_a_pending_record_is_safe),
      ASC_TEST(test_rerecording_moves_the_event),
      ASC_TEST(test_events_complete_on_a_stream_with_a_deferred_error),
      ASC_TEST(test_record_on_current_stream),
      ASC_TEST(test_many_events_on_many_streams),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
