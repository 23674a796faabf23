/* Devices: count, properties, per-thread current device, reconfiguration and
 * the PYASC_CPU_* environment read at init (asc/runtime.h, asc/hal.h). */
#include "asc_test.h"

/* Re-reads the environment: the variables are only consulted at init. */
static asc_status reinit(void) {
  assert_ok(asc_shutdown());
  return asc_init();
}

static void test_device_count_is_at_least_one(void **state) {
  (void)state;
  int count = 0;
  assert_ok(asc_device_count(&count));
  assert_true(count >= 1);
  assert_int_equal(count, 1); /* the default without PYASC_CPU_DEVICES */
}

static void test_default_props_describe_a_910b_class_core(void **state) {
  (void)state;
  asc_device_props p;
  memset(&p, 0xa5, sizeof p);
  assert_ok(asc_device_get_props(0, &p));
  assert_int_equal(p.ub_size, 192 * 1024);
  assert_int_equal(p.l1_size, 512 * 1024);
  assert_int_equal(p.l0a_size, 64 * 1024);
  assert_int_equal(p.l0b_size, 64 * 1024);
  assert_int_equal(p.l0c_size, 128 * 1024);
  assert_int_equal(p.data_block_size, 32);
  assert_int_equal(p.ai_core_count, 48);
  assert_int_equal(p.cube_core_count, 24);
  assert_true(p.host_visible);
  assert_true(p.worker_threads >= 1);
  assert_true(p.global_mem_size > 0);
  assert_true(p.global_mem_size <= ((size_t)64 << 30));
  assert_non_null(memchr(p.name, '\0', sizeof p.name));
  assert_true(strlen(p.name) > 0);
  assert_string_equal(p.backend, "cpu");

  const asc_backend *b = asc_hal_backend();
  assert_non_null(b);
  assert_string_equal(b->name, "cpu");
}

typedef struct thread_devices {
  int initial;
  asc_status set_status;
  int after_set;
} thread_devices;

static void *use_device_one(void *arg) {
  thread_devices *t = arg;
  t->initial = asc_device_current();
  t->set_status = asc_device_set(1);
  t->after_set = asc_device_current();
  return NULL;
}

static void test_current_device_is_per_thread(void **state) {
  (void)state;
  setenv("PYASC_CPU_DEVICES", "3", 1);
  assert_ok(reinit());
  int count;
  assert_ok(asc_device_count(&count));
  assert_int_equal(count, 3);

  assert_int_equal(asc_device_current(), 0);
  assert_ok(asc_device_set(2));
  assert_int_equal(asc_device_current(), 2);

  thread_devices t = {-1, ASC_ERR_INTERNAL, -1};
  pthread_t th;
  assert_int_equal(pthread_create(&th, NULL, use_device_one, &t), 0);
  assert_int_equal(pthread_join(th, NULL), 0);
  assert_int_equal(t.initial, 0); /* a new thread starts on device 0 */
  assert_int_equal(t.set_status, ASC_OK);
  assert_int_equal(t.after_set, 1);
  assert_int_equal(asc_device_current(), 2); /* not changed by the other thread */

  /* Every device has its own properties; names tell them apart. */
  asc_device_props p0, p2;
  assert_ok(asc_device_get_props(0, &p0));
  assert_ok(asc_device_get_props(2, &p2));
  assert_string_not_equal(p0.name, p2.name);
  assert_int_equal(p2.ub_size, 192 * 1024);
  assert_ok(asc_device_set(0));
}

static void test_invalid_device_indices_are_rejected(void **state) {
  (void)state;
  int count;
  assert_ok(asc_device_count(&count));
  assert_ok(asc_device_set(0));
  asc_device_props p;
  asc_stream_t s;
  void *ptr = NULL;
  asc_mem_stats stats;
  const int bad[] = {-1, count, count + 1, 64, 1 << 30, -2147483647 - 1};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    char idx[32];
    snprintf(idx, sizeof idx, "device %d", bad[i]);
    assert_error(asc_device_set(bad[i]), ASC_ERR_INVALID_VALUE, idx);
    assert_error(asc_device_get_props(bad[i], &p), ASC_ERR_INVALID_VALUE, idx);
    assert_error(asc_device_set_props(bad[i], &p), ASC_ERR_INVALID_VALUE, idx);
    assert_error(asc_device_synchronize(bad[i]), ASC_ERR_INVALID_VALUE, idx);
    assert_error(asc_stream_create(bad[i], &s), ASC_ERR_INVALID_VALUE, idx);
    assert_error(asc_stream_default(bad[i], &s), ASC_ERR_INVALID_VALUE, idx);
    assert_error(asc_stream_current(bad[i], &s), ASC_ERR_INVALID_VALUE, idx);
    assert_error(asc_mem_alloc(bad[i], 16, ASC_STREAM_CURRENT, &ptr), ASC_ERR_INVALID_VALUE, idx);
    assert_error(asc_mem_get_stats(bad[i], &stats), ASC_ERR_INVALID_VALUE, idx);
    assert_int_equal(asc_device_current(), 0); /* a failed set changes nothing */
  }
  assert_null(ptr);
}

static void test_set_props_rejects_invalid_configurations(void **state) {
  (void)state;
  asc_device_props orig;
  assert_ok(asc_device_get_props(0, &orig));
  /* The field each case breaks; the message must name it. */
  static const char *const fields[] = {
      "ub_size",         "ub_size",         "l1_size",       "l0a_size",      "l0c_size",
      "worker_threads",  "worker_threads",  "ai_core_count", "ai_core_count", "cube_core_count",
      "data_block_size", "global_mem_size", "ub_size",
  };
  size_t n = sizeof fields / sizeof fields[0];
  for (size_t i = 0; i < n; i++) {
    asc_device_props p = orig;
    switch (i) {
      case 0:
        p.ub_size = 192 * 1024 + 1;
        break; /* not a multiple of 32 */
      case 1:
        p.ub_size = 0;
        break;
      case 2:
        p.l1_size = 100;
        break;
      case 3:
        p.l0a_size = 48;
        break;
      case 4:
        p.l0c_size = ((size_t)1 << 30) + 32;
        break; /* beyond 1 GiB */
      case 5:
        p.worker_threads = 0;
        break;
      case 6:
        p.worker_threads = -3;
        break;
      case 7:
        p.ai_core_count = 0;
        break;
      case 8:
        p.ai_core_count = 70000;
        break;
      case 9:
        p.cube_core_count = -1;
        break;
      case 10:
        p.data_block_size = 64;
        break;
      case 11:
        p.global_mem_size = 0;
        break;
      case 12:
        p.ub_size = 31;
        break;
    }
    asc_clear_error();
    assert_error(asc_device_set_props(0, &p), ASC_ERR_INVALID_VALUE, fields[i]);
    asc_device_props now;
    assert_ok(asc_device_get_props(0, &now));
    assert_memory_equal(&now, &orig, sizeof now); /* nothing was applied */
  }
}

static void test_valid_set_props_is_visible_and_keeps_identity(void **state) {
  (void)state;
  asc_device_props orig;
  assert_ok(asc_device_get_props(0, &orig));
  asc_device_props p = orig;
  p.ub_size = 256 * 1024;
  p.l1_size = 1024 * 1024;
  p.ai_core_count = 8;
  p.cube_core_count = 0;
  p.worker_threads = 3;
  p.global_mem_size = (size_t)1 << 30;
  snprintf(p.name, sizeof p.name, "renamed");
  snprintf(p.backend, sizeof p.backend, "npu");
  p.host_visible = false;
  assert_ok(asc_device_set_props(0, &p));

  asc_device_props now;
  assert_ok(asc_device_get_props(0, &now));
  assert_int_equal(now.ub_size, 256 * 1024);
  assert_int_equal(now.l1_size, 1024 * 1024);
  assert_int_equal(now.ai_core_count, 8);
  assert_int_equal(now.cube_core_count, 0);
  assert_int_equal(now.worker_threads, 3);
  assert_int_equal(now.global_mem_size, (size_t)1 << 30);
  assert_int_equal(now.l0a_size, orig.l0a_size);
  /* Identity fields belong to the backend. */
  assert_string_equal(now.name, orig.name);
  assert_string_equal(now.backend, "cpu");
  assert_true(now.host_visible);

  /* Shutdown and init restore the defaults. */
  assert_ok(reinit());
  assert_ok(asc_device_get_props(0, &now));
  assert_int_equal(now.ub_size, 192 * 1024);
  assert_int_equal(now.ai_core_count, 48);
}

static void test_env_sizes_are_read_at_init(void **state) {
  (void)state;
  assert_ok(asc_init());
  setenv("PYASC_CPU_UB_SIZE", "256K", 1);
  setenv("PYASC_CPU_L1_SIZE", "1M", 1);
  setenv("PYASC_CPU_L0C_SIZE", "262144", 1);
  setenv("PYASC_CPU_AI_CORES", "16", 1);
  setenv("PYASC_CPU_WORKERS", "3", 1);
  setenv("PYASC_CPU_MEMORY", "2g", 1);
  asc_device_props p;
  /* Already initialised: nothing changes until the next init. */
  assert_ok(asc_init());
  assert_ok(asc_device_get_props(0, &p));
  assert_int_equal(p.ub_size, 192 * 1024);

  assert_ok(reinit());
  assert_ok(asc_device_get_props(0, &p));
  assert_int_equal(p.ub_size, 256 * 1024);
  assert_int_equal(p.l1_size, 1024 * 1024);
  assert_int_equal(p.l0c_size, 262144);
  assert_int_equal(p.ai_core_count, 16);
  assert_int_equal(p.worker_threads, 3);
  assert_int_equal(p.global_mem_size, (size_t)2 << 30);
  assert_int_equal(p.l0a_size, 64 * 1024); /* untouched */

  asc_test_clean_env();
  assert_ok(reinit());
  assert_ok(asc_device_get_props(0, &p));
  assert_int_equal(p.ub_size, 192 * 1024);
  assert_int_equal(p.ai_core_count, 48);
}

static void test_malformed_env_fails_init_naming_the_variable(void **state) {
  (void)state;
  setenv("PYASC_CPU_UB_SIZE", "abc", 1);
  assert_ok(asc_shutdown());
  assert_error(asc_init(), ASC_ERR_INVALID_VALUE, "PYASC_CPU_UB_SIZE");
  assert_contains(asc_last_error(), "abc");
  /* Every lazily-initialising call reports the same failure. */
  int count = -1;
  assert_error(asc_device_count(&count), ASC_ERR_INVALID_VALUE, "PYASC_CPU_UB_SIZE");
  assert_int_equal(count, -1);
  asc_stream_t s;
  assert_error(asc_stream_create(0, &s), ASC_ERR_INVALID_VALUE, "PYASC_CPU_UB_SIZE");
  assert_null(asc_hal_backend());

  unsetenv("PYASC_CPU_UB_SIZE");
  assert_ok(asc_init());
  assert_ok(asc_device_count(&count));
  assert_int_equal(count, 1);
  asc_device_props p;
  assert_ok(asc_device_get_props(0, &p));
  assert_int_equal(p.ub_size, 192 * 1024);
}

static void test_other_malformed_env_values_are_rejected(void **state) {
  (void)state;
  const struct {
    const char *var, *value, *needle;
  } cases[] = {
      {"PYASC_CPU_UB_SIZE", "", "PYASC_CPU_UB_SIZE"},
      {"PYASC_CPU_UB_SIZE", "12Q", "PYASC_CPU_UB_SIZE"},
      {"PYASC_CPU_UB_SIZE", "1K2", "PYASC_CPU_UB_SIZE"},
      {"PYASC_CPU_UB_SIZE", "100", "ub_size"}, /* parses, but not a multiple of 32 */
      {"PYASC_CPU_L1_SIZE", "-512K", "PYASC_CPU_L1_SIZE"},
      {"PYASC_CPU_MEMORY", "-1", "PYASC_CPU_MEMORY"},
      {"PYASC_CPU_MEMORY", " -1", "PYASC_CPU_MEMORY"},
      {"PYASC_CPU_MEMORY", "99999999999999999999", "PYASC_CPU_MEMORY"},
      {"PYASC_CPU_MEMORY", "17179869184G", "PYASC_CPU_MEMORY"}, /* 2^64 bytes */
      {"PYASC_CPU_WORKERS", "0", "worker_threads"},
      {"PYASC_CPU_WORKERS", "many", "PYASC_CPU_WORKERS"},
      {"PYASC_CPU_WORKERS", "4294967296", "PYASC_CPU_WORKERS"},
      {"PYASC_CPU_AI_CORES", "0", "ai_core_count"},
      {"PYASC_CPU_DEVICES", "0", "PYASC_CPU_DEVICES"},
      {"PYASC_CPU_DEVICES", "65", "PYASC_CPU_DEVICES"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    setenv(cases[i].var, cases[i].value, 1);
    assert_ok(asc_shutdown());
    asc_status st = asc_init();
    if (st != ASC_ERR_INVALID_VALUE)
      fail_msg("%s='%s': asc_init returned %s", cases[i].var, cases[i].value, asc_status_name(st));
    assert_contains(asc_last_error(), cases[i].needle);
    unsetenv(cases[i].var);
    assert_ok(asc_init());
  }
}

static void test_device_synchronize_on_idle_device_succeeds(void **state) {
  (void)state;
  assert_ok(asc_device_synchronize(0));
  asc_stream_t s;
  assert_ok(asc_stream_create(0, &s));
  assert_ok(asc_device_synchronize(0));
  assert_ok(asc_stream_destroy(s));
  assert_ok(asc_device_synchronize(0));
}

static void test_init_and_shutdown_are_repeatable(void **state) {
  (void)state;
  for (int i = 0; i < 5; i++) {
    assert_ok(asc_init());
    assert_ok(asc_init()); /* idempotent */
    asc_stream_t s;
    assert_ok(asc_stream_create(0, &s));
    assert_ok(asc_testing_spin(s, 0, 2));
    assert_ok(asc_shutdown());
    assert_ok(asc_shutdown()); /* harmless when not initialised */
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      ASC_TEST(test_device_count_is_at_least_one),
      ASC_TEST(test_default_props_describe_a_910b_class_core),
      ASC_TEST(test_current_device_is_per_thread),
      ASC_TEST(test_invalid_device_indices_are_rejected),
      ASC_TEST(test_set_props_rejects_invalid_configurations),
      ASC_TEST(test_valid_set_props_is_visible_and_keeps_identity),
      ASC_TEST(test_env_sizes_are_read_at_init),
      ASC_TEST(test_malformed_env_fails_init_naming_the_variable),
      ASC_TEST(test_other_malformed_env_values_are_rejected),
      ASC_TEST(test_device_synchronize_on_idle_device_succeeds),
      ASC_TEST(test_init_and_shutdown_are_repeatable),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
