/* Status codes and the thread-local error message (asc/status.h). */
#include <ctype.h>

#include "asc_test.h"

static void test_error_returns_status_and_sets_message(void **state) {
  (void)state;
  asc_clear_error();
  asc_status st = asc_error(ASC_ERR_TYPE, "operand %d has dtype %s", 3, "float16");
  assert_int_equal(st, ASC_ERR_TYPE);
  assert_int_equal(asc_last_status(), ASC_ERR_TYPE);
  assert_string_equal(asc_last_error(), "operand 3 has dtype float16");
}

static void test_clear_error_resets_status_and_message(void **state) {
  (void)state;
  asc_error(ASC_ERR_DEVICE, "device fell over");
  asc_clear_error();
  assert_int_equal(asc_last_status(), ASC_OK);
  assert_non_null(asc_last_error());
  assert_string_equal(asc_last_error(), "");
}

static void test_later_error_replaces_earlier_one(void **state) {
  (void)state;
  asc_error(ASC_ERR_INDEX, "first");
  asc_error(ASC_ERR_KERNEL, "second %s", "message");
  assert_int_equal(asc_last_status(), ASC_ERR_KERNEL);
  assert_string_equal(asc_last_error(), "second message");
}

static void test_successful_calls_keep_the_last_error(void **state) {
  (void)state;
  asc_error(ASC_ERR_COMPILE, "kept across successes");
  int count = 0;
  assert_int_equal(asc_device_count(&count), ASC_OK);
  asc_device_props props;
  assert_int_equal(asc_device_get_props(0, &props), ASC_OK);
  assert_int_equal(asc_last_status(), ASC_ERR_COMPILE);
  assert_string_equal(asc_last_error(), "kept across successes");
}

static void test_error_can_format_the_previous_message(void **state) {
  (void)state;
  asc_error(ASC_ERR_INVALID_VALUE, "inner problem");
  asc_error(ASC_ERR_DEVICE, "outer: %s", asc_last_error());
  assert_string_equal(asc_last_error(), "outer: inner problem");
  assert_int_equal(asc_last_status(), ASC_ERR_DEVICE);

  /* The message may appear twice and after other text. */
  asc_error(ASC_ERR_DEVICE, "[%s|%s]", asc_last_error(), asc_last_error());
  assert_string_equal(asc_last_error(), "[outer: inner problem|outer: inner problem]");

  /* And be reused unchanged. */
  asc_error(ASC_ERR_KERNEL, "%s", asc_last_error());
  assert_string_equal(asc_last_error(), "[outer: inner problem|outer: inner problem]");
  assert_int_equal(asc_last_status(), ASC_ERR_KERNEL);
}

static asc_status forward_verror(asc_status st, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  asc_status got = asc_verror(st, fmt, ap);
  va_end(ap);
  return got;
}

static void test_verror_formats_a_va_list(void **state) {
  (void)state;
  assert_int_equal(forward_verror(ASC_ERR_INDEX, "index %d of %u (%s)", -1, 8u, "x"),
                   ASC_ERR_INDEX);
  assert_string_equal(asc_last_error(), "index -1 of 8 (x)");
  assert_int_equal(asc_last_status(), ASC_ERR_INDEX);
}

static void test_very_long_message_is_truncated_safely(void **state) {
  (void)state;
  enum { LONG = 20000 };
  char *text = malloc(LONG + 1);
  assert_non_null(text);
  for (size_t i = 0; i < LONG; i++) text[i] = (char)('a' + i % 26);
  text[LONG] = '\0';

  assert_int_equal(asc_error(ASC_ERR_INTERNAL, "%s", text), ASC_ERR_INTERNAL);
  const char *msg = asc_last_error();
  size_t len = strlen(msg);
  assert_true(len < LONG);
  assert_true(len >= 256); /* a useful amount survives */
  assert_memory_equal(msg, text, len);
  assert_int_equal(asc_last_status(), ASC_ERR_INTERNAL);

  /* Formatting a maximal message into itself stays bounded and correct. */
  asc_error(ASC_ERR_DEVICE, "prefix:%s", asc_last_error());
  const char *again = asc_last_error();
  size_t len2 = strlen(again);
  assert_true(len2 <= len);
  assert_memory_equal(again, "prefix:", 7);
  assert_memory_equal(again + 7, text, len2 - 7);
  free(text);
}

static void test_status_name_names_every_status(void **state) {
  (void)state;
  static const struct {
    asc_status st;
    const char *name;
  } expected[] = {
      {ASC_OK, "ASC_OK"},
      {ASC_ERR_INVALID_VALUE, "ASC_ERR_INVALID_VALUE"},
      {ASC_ERR_INVALID_HANDLE, "ASC_ERR_INVALID_HANDLE"},
      {ASC_ERR_OUT_OF_MEMORY, "ASC_ERR_OUT_OF_MEMORY"},
      {ASC_ERR_NOT_READY, "ASC_ERR_NOT_READY"},
      {ASC_ERR_DEVICE, "ASC_ERR_DEVICE"},
      {ASC_ERR_KERNEL, "ASC_ERR_KERNEL"},
      {ASC_ERR_TYPE, "ASC_ERR_TYPE"},
      {ASC_ERR_INDEX, "ASC_ERR_INDEX"},
      {ASC_ERR_UNSUPPORTED, "ASC_ERR_UNSUPPORTED"},
      {ASC_ERR_COMPILE, "ASC_ERR_COMPILE"},
      {ASC_ERR_INTERNAL, "ASC_ERR_INTERNAL"},
  };
  size_t n = sizeof expected / sizeof expected[0];
  assert_int_equal(n, ASC_STATUS_COUNT);
  for (size_t i = 0; i < n; i++)
    assert_string_equal(asc_status_name(expected[i].st), expected[i].name);
  /* Distinct names. */
  for (int a = 0; a < ASC_STATUS_COUNT; a++)
    for (int b = a + 1; b < ASC_STATUS_COUNT; b++)
      assert_string_not_equal(asc_status_name((asc_status)a), asc_status_name((asc_status)b));
}

static void test_status_name_of_out_of_range_values_is_not_null(void **state) {
  (void)state;
  const int bad[] = {ASC_STATUS_COUNT, ASC_STATUS_COUNT + 1, -1, 1000, -100000, 0x7fffffff};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    const char *name = asc_status_name((asc_status)bad[i]);
    assert_non_null(name);
    assert_true(strlen(name) > 0);
    for (int s = 0; s < ASC_STATUS_COUNT; s++)
      assert_string_not_equal(name, asc_status_name((asc_status)s));
  }
}

typedef struct thread_view {
  asc_status status_before;
  char message_before[64];
  asc_status status_after;
  char message_after[64];
} thread_view;

static void *other_thread(void *arg) {
  thread_view *v = arg;
  v->status_before = asc_last_status();
  snprintf(v->message_before, sizeof v->message_before, "%s", asc_last_error());
  asc_error(ASC_ERR_INDEX, "set by the other thread");
  v->status_after = asc_last_status();
  snprintf(v->message_after, sizeof v->message_after, "%s", asc_last_error());
  return NULL;
}

static void test_error_message_is_thread_local(void **state) {
  (void)state;
  asc_error(ASC_ERR_DEVICE, "set by the main thread");
  thread_view v;
  memset(&v, 0, sizeof v);
  pthread_t t;
  assert_int_equal(pthread_create(&t, NULL, other_thread, &v), 0);
  assert_int_equal(pthread_join(t, NULL), 0);
  /* A new thread starts clean and does not see the main thread's error. */
  assert_int_equal(v.status_before, ASC_OK);
  assert_string_equal(v.message_before, "");
  assert_int_equal(v.status_after, ASC_ERR_INDEX);
  assert_string_equal(v.message_after, "set by the other thread");
  /* The other thread's error did not leak back. */
  assert_int_equal(asc_last_status(), ASC_ERR_DEVICE);
  assert_string_equal(asc_last_error(), "set by the main thread");
}

static void test_failing_api_call_sets_status_and_message(void **state) {
  (void)state;
  asc_clear_error();
  assert_int_equal(asc_device_set(12345), ASC_ERR_INVALID_VALUE);
  assert_int_equal(asc_last_status(), ASC_ERR_INVALID_VALUE);
  assert_contains(asc_last_error(), "12345");
}

static void test_version_is_dotted_numbers(void **state) {
  (void)state;
  const char *v = asc_version();
  assert_non_null(v);
  int dots = 0;
  assert_true(isdigit((unsigned char)v[0]));
  for (const char *p = v; *p; p++) {
    if (*p == '.')
      dots++;
    else
      assert_true(isdigit((unsigned char)*p));
  }
  assert_int_equal(dots, 2);
  assert_string_not_equal(v, "0.0.0"); /* the build passes the project version */
}

int main(void) {
  const struct CMUnitTest tests[] = {
      ASC_TEST(test_error_returns_status_and_sets_message),
      ASC_TEST(test_clear_error_resets_status_and_message),
      ASC_TEST(test_later_error_replaces_earlier_one),
      ASC_TEST(test_successful_calls_keep_the_last_error),
      ASC_TEST(test_error_can_format_the_previous_message),
      ASC_TEST(test_verror_formats_a_va_list),
      ASC_TEST(test_very_long_message_is_truncated_safely),
      ASC_TEST(test_status_name_names_every_status),
      ASC_TEST(test_status_name_of_out_of_range_values_is_not_null),
      ASC_TEST(test_error_message_is_thread_local),
      ASC_TEST(test_failing_api_call_sets_status_and_message),
      ASC_TEST(test_version_is_dotted_numbers),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
