/* ACL over libasc (include/acl/acl.h): every call, its error codes and
 * messages, and a host program in the shape of CANN's examples. */
#include "acl/acl.h"
#include "asc_test.h"

#include <math.h>
#include <unistd.h>

#define assert_acl(expr, want)                                                    \
  do {                                                                            \
    aclError got_ = (expr);                                                       \
    aclError want_ = (want);                                                      \
    if (got_ != want_)                                                            \
      fail_msg("%s returned %d, expected %d (message: '%s')", #expr, got_, want_, \
               asc_last_error());                                                 \
  } while (0)

#define assert_acl_ok(expr) assert_acl(expr, ACL_SUCCESS)

/* Fails with `want`, and aclGetRecentErrMsg mentions `needle`. */
#define assert_acl_error(expr, want, needle)       \
  do {                                             \
    assert_acl(expr, want);                        \
    assert_contains(aclGetRecentErrMsg(), needle); \
  } while (0)

static int acl_setup(void **state) {
  asc_test_setup(state);
  return aclInit(NULL) == ACL_SUCCESS ? 0 : -1;
}

/* Two devices, for the calls that choose one. */
static int acl_setup_two_devices(void **state) {
  asc_test_setup(state);
  setenv("PYASC_CPU_DEVICES", "2", 1);
  return aclInit(NULL) == ACL_SUCCESS ? 0 : -1;
}

static int acl_teardown(void **state) {
  /* A failed test may leave a gate shut: aclFinalize waits for every stream. */
  for (int i = 0; i < ASC_TEST_GATES; i++) asc_test_gate_open(asc_test_gate_get(i));
  aclError err = aclFinalize();
  return asc_test_teardown(state) == 0 && err == ACL_SUCCESS ? 0 : -1;
}

#define ACL_TEST(f) cmocka_unit_test_setup_teardown(f, acl_setup, acl_teardown)
#define ACL_TEST2(f) cmocka_unit_test_setup_teardown(f, acl_setup_two_devices, acl_teardown)

static double slack_ms(void) {
  return asc_test_under_valgrind() ? 2000 : 200;
}

static asc_stream_t handle_of(aclrtStream s) {
  return (asc_stream_t)(uintptr_t)s;
}

/* --- process ------------------------------------------------------------ */

/* First in main: no other test has called aclInit yet. */
static void test_init_and_finalize(void **state) {
  (void)state;
  assert_acl_error(aclFinalize(), ACL_ERROR_UNINITIALIZE, "never");
  assert_acl_error(aclInit("/nonexistent/acl.json"), ACL_ERROR_INVALID_FILE, "/nonexistent");
  assert_acl_ok(aclInit(NULL));
  assert_acl_error(aclInit(NULL), ACL_ERROR_REPEAT_INITIALIZE, "already");
  assert_acl_ok(aclFinalize());
  assert_acl_error(aclFinalize(), ACL_ERROR_REPEAT_FINALIZE, "already");
  /* A configuration file is read for existence only; "" means none. */
  char path[] = "/tmp/pyasc_acl_XXXXXX";
  int fd = mkstemp(path);
  assert_true(fd >= 0);
  assert_true(write(fd, "{}", 2) == 2);
  close(fd);
  assert_acl_ok(aclInit(path));
  assert_acl_ok(aclFinalize());
  unlink(path);
  assert_acl_ok(aclInit(""));
  assert_acl_ok(aclFinalize());
}

static void test_recent_error_message_is_taken_once(void **state) {
  (void)state;
  asc_clear_error();
  assert_null(aclGetRecentErrMsg());
  assert_acl(aclrtMalloc(NULL, 16, ACL_MEM_MALLOC_HUGE_FIRST), ACL_ERROR_INVALID_PARAM);
  const char *msg = aclGetRecentErrMsg();
  assert_contains(msg, "aclrtMalloc");
  assert_contains(msg, "NULL devPtr");
  assert_null(aclGetRecentErrMsg());
  /* libasc's own messages come through too. */
  assert_acl_ok(aclrtSetDevice(0));
  int here = 0;
  assert_acl(aclrtFree(&here), ACL_ERROR_INVALID_PARAM);
  assert_contains(aclGetRecentErrMsg(), "not a live device allocation");
}

static void test_version_run_mode_and_soc(void **state) {
  (void)state;
  int32_t major = -1, minor = -1, patch = -1;
  assert_acl_ok(aclrtGetVersion(&major, &minor, &patch));
  char text[64];
  snprintf(text, sizeof text, "%d.%d.%d", major, minor, patch);
  assert_string_equal(text, asc_version());
  assert_acl_error(aclrtGetVersion(NULL, &minor, &patch), ACL_ERROR_INVALID_PARAM, "NULL");
  assert_acl_error(aclrtGetVersion(&major, &minor, NULL), ACL_ERROR_INVALID_PARAM, "NULL");

  aclrtRunMode mode = ACL_DEVICE;
  assert_acl_ok(aclrtGetRunMode(&mode));
  assert_int_equal(mode, ACL_HOST);
  assert_acl_error(aclrtGetRunMode(NULL), ACL_ERROR_INVALID_PARAM, "runMode");
  /* docs/ascendc.md: the simulator models a 910B1. */
  assert_string_equal(aclrtGetSocName(), "Ascend910B1");
}

/* --- devices ------------------------------------------------------------ */

static void test_devices(void **state) {
  (void)state;
  uint32_t count = 0;
  int want = 0;
  assert_acl_ok(aclrtGetDeviceCount(&count));
  assert_ok(asc_device_count(&want));
  assert_int_equal(count, 2);
  assert_int_equal(count, want);
  assert_acl_error(aclrtGetDeviceCount(NULL), ACL_ERROR_INVALID_PARAM, "count");

  int32_t device = -7;
  assert_acl_error(aclrtGetDevice(&device), ACL_ERROR_RT_CONTEXT_NULL, "aclrtSetDevice");
  assert_int_equal(device, -7);
  assert_acl_error(aclrtGetDevice(NULL), ACL_ERROR_INVALID_PARAM, "deviceId");
  assert_acl_error(aclrtSetDevice(-1), ACL_ERROR_RT_INVALID_DEVICEID, "device -1");
  assert_acl_error(aclrtSetDevice(2), ACL_ERROR_RT_INVALID_DEVICEID, "2 devices");
  assert_acl_ok(aclrtSetDevice(1));
  assert_acl_ok(aclrtGetDevice(&device));
  assert_int_equal(device, 1);
  /* libasc's current device follows, so its calls land on the same one. */
  assert_int_equal(asc_device_current(), 1);
  assert_acl_ok(aclrtSetDevice(0));
  assert_acl_ok(aclrtGetDevice(&device));
  assert_int_equal(device, 0);

  assert_acl_error(aclrtResetDevice(5), ACL_ERROR_RT_INVALID_DEVICEID, "device 5");
  assert_acl_ok(aclrtResetDevice(1)); /* not the current one: it stays */
  assert_acl_ok(aclrtGetDevice(&device));
  assert_int_equal(device, 0);
  assert_acl_ok(aclrtResetDevice(0));
  assert_acl(aclrtGetDevice(&device), ACL_ERROR_RT_CONTEXT_NULL);
}

static void *other_thread_device(void *arg) {
  int32_t *device = arg;
  if (aclrtGetDevice(device) != ACL_ERROR_RT_CONTEXT_NULL) *device = -100;
  return NULL;
}

static void test_current_device_is_per_thread(void **state) {
  (void)state;
  assert_acl_ok(aclrtSetDevice(1));
  int32_t seen = 42;
  pthread_t t;
  assert_int_equal(pthread_create(&t, NULL, other_thread_device, &seen), 0);
  assert_int_equal(pthread_join(t, NULL), 0);
  assert_int_equal(seen, 42); /* the other thread had no device */
}

static void test_synchronize_device(void **state) {
  (void)state;
  assert_acl_error(aclrtSynchronizeDevice(), ACL_ERROR_RT_CONTEXT_NULL, "aclrtSynchronizeDevice");
  assert_acl_ok(aclrtSetDevice(0));
  aclrtStream s;
  assert_acl_ok(aclrtCreateStream(&s));
  asc_test_gate *gate = asc_test_gate_get(0);
  assert_ok(asc_test_gate_enqueue(handle_of(s), gate));
  assert_acl_error(aclrtSynchronizeDeviceWithTimeout(0), ACL_ERROR_RT_STREAM_SYNC_TIMEOUT,
                   "still busy");
  assert_acl_error(aclrtSynchronizeDeviceWithTimeout(20), ACL_ERROR_RT_STREAM_SYNC_TIMEOUT,
                   "after 20 ms");
  assert_acl_error(aclrtSynchronizeDeviceWithTimeout(-2), ACL_ERROR_INVALID_PARAM, "-2");
  asc_test_gate_open(gate);
  assert_acl_ok(aclrtSynchronizeDevice());
  assert_ok(asc_stream_query(handle_of(s)));
  assert_acl_ok(aclrtSynchronizeDeviceWithTimeout(10));
  assert_acl_ok(aclrtDestroyStream(s));
}

static void test_device_capability(void **state) {
  (void)state;
  asc_device_props props;
  assert_ok(asc_device_get_props(1, &props));
  int64_t value = -1;
  assert_acl_ok(aclGetDeviceCapability(1, ACL_DEVICE_INFO_AI_CORE_NUM, &value));
  assert_int_equal(value, props.cube_core_count);
  assert_acl_ok(aclGetDeviceCapability(1, ACL_DEVICE_INFO_VECTOR_CORE_NUM, &value));
  assert_int_equal(value, props.ai_core_count);
  assert_acl_error(aclGetDeviceCapability(0, ACL_DEVICE_INFO_L2_SIZE, &value),
                   ACL_ERROR_FEATURE_UNSUPPORTED, "L2");
  assert_acl_error(aclGetDeviceCapability(0, (aclDeviceInfo)9, &value), ACL_ERROR_INVALID_PARAM,
                   "unknown query 9");
  assert_acl_error(aclGetDeviceCapability(2, ACL_DEVICE_INFO_AI_CORE_NUM, &value),
                   ACL_ERROR_RT_INVALID_DEVICEID, "device 2");
  assert_acl_error(aclGetDeviceCapability(0x80000000u, ACL_DEVICE_INFO_AI_CORE_NUM, &value),
                   ACL_ERROR_RT_INVALID_DEVICEID, "device");
  assert_acl_error(aclGetDeviceCapability(0, ACL_DEVICE_INFO_AI_CORE_NUM, NULL),
                   ACL_ERROR_INVALID_PARAM, "NULL value");
}

/* IEEE binary16 values worked out by hand: 1.0 is 0x3C00, the largest finite
 * 65504 is 0x7BFF, the smallest subnormal 2^-24 is 0x0001; 1 + 2^-11 lies
 * halfway between 1.0 and its successor and rounds to the even 0x3C00, while
 * 1 + 3 * 2^-11 rounds up to 0x3C02; 65520 overflows to infinity. */
static void test_float16_conversions(void **state) {
  (void)state;
  assert_true(aclFloat16ToFloat(0x3C00) == 1.0f);
  assert_true(aclFloat16ToFloat(0xC000) == -2.0f);
  assert_true(aclFloat16ToFloat(0x7BFF) == 65504.0f);
  assert_true(aclFloat16ToFloat(0x0001) == ldexpf(1.0f, -24));
  assert_true(isinf(aclFloat16ToFloat(0xFC00)) && aclFloat16ToFloat(0xFC00) < 0);
  assert_true(isnan(aclFloat16ToFloat(0x7E00)));
  assert_int_equal(aclFloatToFloat16(1.0f), 0x3C00);
  assert_int_equal(aclFloatToFloat16(-0.0f), 0x8000);
  assert_int_equal(aclFloatToFloat16(1.0f + ldexpf(1.0f, -11)), 0x3C00);
  assert_int_equal(aclFloatToFloat16(1.0f + 3.0f * ldexpf(1.0f, -11)), 0x3C02);
  assert_int_equal(aclFloatToFloat16(ldexpf(1.0f, -24)), 0x0001);
  assert_int_equal(aclFloatToFloat16(65520.0f), 0x7C00);
  assert_int_equal(aclFloatToFloat16(NAN) & 0x7C00, 0x7C00);
  assert_true((aclFloatToFloat16(NAN) & 0x03FF) != 0);
}

/* --- contexts ----------------------------------------------------------- */

static void test_contexts(void **state) {
  (void)state;
  aclrtContext ctx = NULL, cur = NULL;
  int32_t device = -1;
  assert_acl_error(aclrtGetCurrentContext(&cur), ACL_ERROR_RT_CONTEXT_NULL, "no current");
  assert_acl_error(aclrtCreateContext(NULL, 0), ACL_ERROR_INVALID_PARAM, "NULL context");
  assert_acl_error(aclrtCreateContext(&ctx, 3), ACL_ERROR_RT_INVALID_DEVICEID, "device 3");
  assert_null(ctx);
  assert_acl_ok(aclrtCreateContext(&ctx, 1));
  assert_non_null(ctx);
  assert_acl_ok(aclrtGetCurrentContext(&cur));
  assert_ptr_equal(cur, ctx);
  assert_acl_ok(aclrtGetDevice(&device));
  assert_int_equal(device, 1);

  /* aclrtSetDevice switches to the device's own (default) context. */
  assert_acl_ok(aclrtSetDevice(0));
  aclrtContext dflt = NULL;
  assert_acl_ok(aclrtGetCurrentContext(&dflt));
  assert_non_null(dflt);
  assert_ptr_not_equal(dflt, ctx);
  assert_acl_error(aclrtDestroyContext(dflt), ACL_ERROR_INVALID_PARAM, "default context");
  assert_acl_ok(aclrtSetCurrentContext(ctx));
  assert_acl_ok(aclrtGetDevice(&device));
  assert_int_equal(device, 1);
  assert_acl_ok(aclrtSetCurrentContext(dflt));
  assert_acl_ok(aclrtGetDevice(&device));
  assert_int_equal(device, 0);
  assert_acl_ok(aclrtSetCurrentContext(ctx));

  /* Destroying the current context leaves the thread without one. */
  assert_acl_ok(aclrtDestroyContext(ctx));
  assert_acl(aclrtGetCurrentContext(&cur), ACL_ERROR_RT_CONTEXT_NULL);
  assert_acl(aclrtGetDevice(&device), ACL_ERROR_RT_CONTEXT_NULL);
  assert_acl_error(aclrtDestroyContext(ctx), ACL_ERROR_INVALID_PARAM, "not a context");
  assert_acl_error(aclrtSetCurrentContext(ctx), ACL_ERROR_INVALID_PARAM, "not a live context");
  int made_up = 0;
  assert_acl_error(aclrtSetCurrentContext(&made_up), ACL_ERROR_INVALID_PARAM, "not a live");
  assert_acl_error(aclrtSetCurrentContext(NULL), ACL_ERROR_INVALID_PARAM, "NULL");
  assert_acl_error(aclrtDestroyContext(NULL), ACL_ERROR_INVALID_PARAM, "NULL");
  assert_acl_error(aclrtGetCurrentContext(NULL), ACL_ERROR_INVALID_PARAM, "NULL");
  /* Left for aclFinalize to release (the leak checkers watch). */
  assert_acl_ok(aclrtCreateContext(&ctx, 0));
}

/* --- streams ------------------------------------------------------------ */

static void test_streams(void **state) {
  (void)state;
  aclrtStream s = NULL;
  assert_acl_error(aclrtCreateStream(&s), ACL_ERROR_RT_CONTEXT_NULL, "aclrtCreateStream");
  assert_acl_error(aclrtSynchronizeStream(NULL), ACL_ERROR_RT_CONTEXT_NULL, "no current device");
  assert_acl_ok(aclrtSetDevice(0));
  assert_acl_error(aclrtCreateStream(NULL), ACL_ERROR_INVALID_PARAM, "NULL stream");
  assert_acl_ok(aclrtCreateStream(&s));
  assert_non_null(s);
  int device = -1;
  assert_ok(asc_stream_device(handle_of(s), &device));
  assert_int_equal(device, 0);
  assert_acl_ok(aclrtSynchronizeStream(s));
  assert_acl_ok(aclrtSynchronizeStream(NULL)); /* the default stream */

  asc_test_gate *gate = asc_test_gate_get(0);
  assert_ok(asc_test_gate_enqueue(handle_of(s), gate));
  assert_acl_error(aclrtSynchronizeStreamWithTimeout(s, 0), ACL_ERROR_RT_STREAM_SYNC_TIMEOUT,
                   "still queued");
  assert_acl_error(aclrtSynchronizeStreamWithTimeout(s, 20), ACL_ERROR_RT_STREAM_SYNC_TIMEOUT,
                   "after 20 ms");
  assert_acl_error(aclrtSynchronizeStreamWithTimeout(s, -3), ACL_ERROR_INVALID_PARAM, "-3");
  asc_test_gate_open(gate);
  assert_acl_ok(aclrtSynchronizeStreamWithTimeout(s, -1));
  assert_ok(asc_stream_query(handle_of(s)));

  /* A failure of queued work surfaces at the next synchronisation, once. */
  assert_ok(asc_testing_fail(handle_of(s), ASC_ERR_KERNEL, "injected kernel fault"));
  assert_acl_error(aclrtSynchronizeStream(s), ACL_ERROR_RT_AICORE_EXCEPTION, "injected");
  assert_acl_ok(aclrtSynchronizeStream(s));

  assert_acl_ok(aclrtDestroyStream(s));
  assert_acl(aclrtDestroyStream(s), ACL_ERROR_RT_INVALID_HANDLE);
  assert_acl(aclrtSynchronizeStream(s), ACL_ERROR_RT_INVALID_HANDLE);
  assert_acl(aclrtSynchronizeStream((aclrtStream)(uintptr_t)0x1234), ACL_ERROR_RT_INVALID_HANDLE);
  assert_acl_error(aclrtDestroyStream(NULL), ACL_ERROR_INVALID_PARAM, "NULL stream");
  asc_stream_t dflt;
  assert_ok(asc_stream_default(0, &dflt));
  assert_acl_error(aclrtDestroyStream((aclrtStream)(uintptr_t)dflt), ACL_ERROR_INVALID_PARAM,
                   "default stream");
  /* Left for aclFinalize. */
  assert_acl_ok(aclrtCreateStream(&s));
}

/* --- events ------------------------------------------------------------- */

static void test_event_create_and_destroy(void **state) {
  (void)state;
  aclrtEvent e = NULL;
  assert_acl_error(aclrtCreateEvent(NULL), ACL_ERROR_INVALID_PARAM, "NULL event");
  assert_acl_ok(aclrtCreateEvent(&e));
  assert_acl_ok(aclrtDestroyEvent(e));
  assert_acl(aclrtDestroyEvent(e), ACL_ERROR_RT_INVALID_HANDLE);
  assert_acl_error(aclrtDestroyEvent(NULL), ACL_ERROR_INVALID_PARAM, "NULL event");
  assert_acl_ok(aclrtCreateEventWithFlag(&e, ACL_EVENT_SYNC));
  assert_acl_ok(aclrtDestroyEvent(e));
  assert_acl_ok(aclrtCreateEventWithFlag(&e, ACL_EVENT_TIME_LINE | ACL_EVENT_SYNC));
  assert_acl_ok(aclrtDestroyEvent(e));
  assert_acl_error(aclrtCreateEventWithFlag(&e, 0x40), ACL_ERROR_FEATURE_UNSUPPORTED, "0x40");
  assert_acl_error(aclrtCreateEventWithFlag(NULL, 0), ACL_ERROR_INVALID_PARAM, "NULL");
  /* Left for aclFinalize. */
  assert_acl_ok(aclrtCreateEvent(&e));
}

static void test_event_record_query_synchronize(void **state) {
  (void)state;
  aclrtEvent e;
  aclrtStream s;
  aclrtEventStatus status = ACL_EVENT_STATUS_RESERVED;
  aclrtEventRecordedStatus recorded = ACL_EVENT_RECORDED_STATUS_NOT_READY;
  assert_acl_ok(aclrtCreateEvent(&e));
  /* Never recorded: complete, as in ACL. */
  assert_acl_ok(aclrtQueryEvent(e, &status));
  assert_int_equal(status, ACL_EVENT_STATUS_COMPLETE);
  assert_acl_error(aclrtRecordEvent(e, NULL), ACL_ERROR_RT_CONTEXT_NULL, "aclrtRecordEvent");

  assert_acl_ok(aclrtSetDevice(0));
  assert_acl_ok(aclrtCreateStream(&s));
  asc_test_gate *gate = asc_test_gate_get(0);
  assert_ok(asc_test_gate_enqueue(handle_of(s), gate));
  assert_acl_ok(aclrtRecordEvent(e, s));
  assert_acl_ok(aclrtQueryEvent(e, &status));
  assert_int_equal(status, ACL_EVENT_STATUS_NOT_READY);
  assert_acl_ok(aclrtQueryEventStatus(e, &recorded));
  assert_int_equal(recorded, ACL_EVENT_RECORDED_STATUS_NOT_READY);
  assert_acl_error(aclrtSynchronizeEventWithTimeout(e, 0), ACL_ERROR_RT_EVENT_SYNC_TIMEOUT,
                   "not reached");
  assert_acl_error(aclrtSynchronizeEventWithTimeout(e, 20), ACL_ERROR_RT_EVENT_SYNC_TIMEOUT,
                   "after 20 ms");
  assert_acl_error(aclrtSynchronizeEventWithTimeout(e, -9), ACL_ERROR_INVALID_PARAM, "-9");
  asc_test_gate_open(gate);
  assert_acl_ok(aclrtSynchronizeEvent(e));
  assert_acl_ok(aclrtQueryEvent(e, &status));
  assert_int_equal(status, ACL_EVENT_STATUS_COMPLETE);
  assert_acl_ok(aclrtQueryEventStatus(e, &recorded));
  assert_int_equal(recorded, ACL_EVENT_RECORDED_STATUS_COMPLETE);
  assert_acl_ok(aclrtSynchronizeEventWithTimeout(e, 5));
  /* The default stream too. */
  assert_acl_ok(aclrtRecordEvent(e, NULL));
  assert_acl_ok(aclrtSynchronizeEvent(e));

  assert_acl_error(aclrtQueryEvent(e, NULL), ACL_ERROR_INVALID_PARAM, "NULL status");
  assert_acl_error(aclrtQueryEvent(NULL, &status), ACL_ERROR_INVALID_PARAM, "NULL event");
  assert_acl_error(aclrtQueryEventStatus(e, NULL), ACL_ERROR_INVALID_PARAM, "NULL status");
  assert_acl_error(aclrtRecordEvent(NULL, s), ACL_ERROR_INVALID_PARAM, "NULL event");
  assert_acl_error(aclrtSynchronizeEvent(NULL), ACL_ERROR_INVALID_PARAM, "NULL event");
  assert_acl_ok(aclrtDestroyEvent(e));
  assert_acl(aclrtQueryEvent(e, &status), ACL_ERROR_RT_INVALID_HANDLE);
  assert_acl(aclrtQueryEventStatus(e, &recorded), ACL_ERROR_RT_INVALID_HANDLE);
  assert_acl(aclrtRecordEvent(e, s), ACL_ERROR_RT_INVALID_HANDLE);
  assert_acl(aclrtSynchronizeEvent(e), ACL_ERROR_RT_INVALID_HANDLE);
  assert_acl_ok(aclrtDestroyStream(s));
  assert_acl_ok(aclrtCreateEvent(&e));
  assert_acl(aclrtRecordEvent(e, s), ACL_ERROR_RT_INVALID_HANDLE);
  assert_acl_ok(aclrtDestroyEvent(e));
}

static void test_event_elapsed_time(void **state) {
  (void)state;
  const double spin_ms = 60;
  aclrtEvent start, end;
  aclrtStream s;
  assert_acl_ok(aclrtSetDevice(0));
  assert_acl_ok(aclrtCreateStream(&s));
  assert_acl_ok(aclrtCreateEvent(&start));
  assert_acl_ok(aclrtCreateEvent(&end));
  asc_test_gate *gate = asc_test_gate_get(0);
  assert_ok(asc_test_gate_enqueue(handle_of(s), gate));
  assert_acl_ok(aclrtRecordEvent(start, s));
  assert_ok(asc_testing_spin(handle_of(s), spin_ms, 1));
  assert_acl_ok(aclrtRecordEvent(end, s));
  float ms = -1;
  /* Held behind the gate: neither event has been reached. */
  assert_acl(aclrtEventElapsedTime(&ms, start, end), ACL_ERROR_RT_EVENT_NOT_COMPLETE);
  asc_test_gate_open(gate);
  assert_acl_ok(aclrtSynchronizeEvent(end));
  assert_acl_ok(aclrtEventElapsedTime(&ms, start, end));
  /* The spin holds its core for spin_ms of wall time. */
  assert_true(ms >= spin_ms * 0.95);
  assert_true(ms <= spin_ms + 10 * slack_ms());
  assert_acl_error(aclrtEventElapsedTime(NULL, start, end), ACL_ERROR_INVALID_PARAM, "NULL ms");
  assert_acl_error(aclrtEventElapsedTime(&ms, NULL, end), ACL_ERROR_INVALID_PARAM, "NULL event");
  assert_acl_error(aclrtEventElapsedTime(&ms, start, NULL), ACL_ERROR_INVALID_PARAM, "NULL event");
  assert_acl_ok(aclrtDestroyEvent(end));
  assert_acl(aclrtEventElapsedTime(&ms, start, end), ACL_ERROR_RT_INVALID_HANDLE);
  assert_acl_ok(aclrtDestroyEvent(start));
  assert_acl_ok(aclrtDestroyStream(s));
}

static void test_stream_wait_event(void **state) {
  (void)state;
  aclrtStream a, b;
  aclrtEvent e, after;
  assert_acl_ok(aclrtSetDevice(0));
  assert_acl_ok(aclrtCreateStream(&a));
  assert_acl_ok(aclrtCreateStream(&b));
  assert_acl_ok(aclrtCreateEvent(&e));
  assert_acl_ok(aclrtCreateEvent(&after));
  asc_test_gate *gate = asc_test_gate_get(0);
  assert_ok(asc_test_gate_enqueue(handle_of(a), gate));
  assert_acl_ok(aclrtRecordEvent(e, a));
  assert_acl_ok(aclrtStreamWaitEvent(b, e));
  assert_acl_ok(aclrtRecordEvent(after, b));
  /* b's event can only complete once a's has: b has nothing else queued. */
  aclrtEventStatus status;
  assert_acl_error(aclrtSynchronizeEventWithTimeout(after, 50), ACL_ERROR_RT_EVENT_SYNC_TIMEOUT,
                   "not reached");
  assert_acl_ok(aclrtQueryEvent(after, &status));
  assert_int_equal(status, ACL_EVENT_STATUS_NOT_READY);
  asc_test_gate_open(gate);
  assert_acl_ok(aclrtSynchronizeEvent(after));
  assert_acl_ok(aclrtQueryEvent(e, &status));
  assert_int_equal(status, ACL_EVENT_STATUS_COMPLETE);
  assert_acl_ok(aclrtStreamWaitEvent(NULL, e));
  assert_acl_ok(aclrtSynchronizeStream(NULL));
  assert_acl_error(aclrtStreamWaitEvent(b, NULL), ACL_ERROR_INVALID_PARAM, "NULL event");
  assert_acl_ok(aclrtDestroyStream(b));
  assert_acl(aclrtStreamWaitEvent(b, e), ACL_ERROR_RT_INVALID_HANDLE);
  assert_acl_ok(aclrtDestroyEvent(e));
  assert_acl(aclrtStreamWaitEvent(a, e), ACL_ERROR_RT_INVALID_HANDLE);
  assert_acl_ok(aclrtDestroyEvent(after));
  assert_acl_ok(aclrtDestroyStream(a));
}

/* --- memory ------------------------------------------------------------- */

static void test_malloc_and_free(void **state) {
  (void)state;
  void *p = NULL;
  assert_acl_error(aclrtMalloc(&p, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_ERROR_RT_CONTEXT_NULL,
                   "aclrtMalloc");
  assert_acl_ok(aclrtSetDevice(1));
  assert_acl_error(aclrtMalloc(&p, 0, ACL_MEM_MALLOC_HUGE_FIRST), ACL_ERROR_INVALID_PARAM,
                   "size 0");
  assert_acl_error(aclrtMalloc(&p, 64, (aclrtMemMallocPolicy)8), ACL_ERROR_INVALID_PARAM,
                   "policy 0x8");
  assert_acl_error(aclrtMalloc(&p, 64, (aclrtMemMallocPolicy)0x200), ACL_ERROR_INVALID_PARAM,
                   "policy 0x200");
  assert_null(p);
  assert_acl_ok(aclrtMalloc(&p, 1000, ACL_MEM_MALLOC_NORMAL_ONLY));
  /* libasc's memory, on the current device. */
  asc_mem_range range;
  assert_ok(asc_mem_lookup(p, 1000, &range));
  assert_ptr_equal(range.base, p);
  assert_int_equal(range.nbytes, 1000);
  assert_int_equal(range.device, 1);
  assert_int_equal((uintptr_t)p % ASC_MEM_ALIGNMENT, 0);
  assert_acl_error(aclrtFree((char *)p + 8), ACL_ERROR_INVALID_PARAM, "not a live");
  assert_acl_ok(aclrtFree(p));
  assert_acl_error(aclrtFree(p), ACL_ERROR_INVALID_PARAM, "already freed");
  assert_acl_error(aclrtFree(NULL), ACL_ERROR_INVALID_PARAM, "NULL devPtr");
  assert_acl_ok(aclrtMalloc(
      &p, 64, (aclrtMemMallocPolicy)(ACL_MEM_MALLOC_HUGE_FIRST | ACL_MEM_TYPE_HIGH_BAND_WIDTH)));
  assert_acl_ok(aclrtFree(p));

  /* Beyond the device's limit. */
  assert_ok(asc_mem_set_limit(1, 1 << 20));
  assert_acl(aclrtMalloc(&p, 2 << 20, ACL_MEM_MALLOC_HUGE_FIRST), ACL_ERROR_RT_MEMORY_ALLOCATION);
  assert_ok(asc_mem_set_limit(1, 0));
  /* Left for aclFinalize. */
  assert_acl_ok(aclrtMalloc(&p, 4096, ACL_MEM_MALLOC_HUGE_FIRST));
}

static void test_malloc_host_and_free_host(void **state) {
  (void)state;
  void *h = NULL, *d = NULL;
  assert_acl_error(aclrtMallocHost(NULL, 8), ACL_ERROR_INVALID_PARAM, "NULL hostPtr");
  assert_acl_error(aclrtMallocHost(&h, 0), ACL_ERROR_INVALID_PARAM, "size 0");
  assert_acl_ok(aclrtMallocHost(&h, 3000));
  assert_int_equal((uintptr_t)h % ASC_MEM_ALIGNMENT, 0);
  memset(h, 0x5a, 3000); /* all of it is usable */
  assert_acl_error(aclrtFree(h), ACL_ERROR_INVALID_PARAM, "aclrtFreeHost");
  assert_acl_ok(aclrtFreeHost(h));
  assert_acl_error(aclrtFreeHost(h), ACL_ERROR_INVALID_PARAM, "already freed");
  assert_acl_error(aclrtFreeHost(NULL), ACL_ERROR_INVALID_PARAM, "NULL hostPtr");
  int local = 0;
  assert_acl_error(aclrtFreeHost(&local), ACL_ERROR_INVALID_PARAM, "not a live block");
  assert_acl_ok(aclrtSetDevice(0));
  assert_acl_ok(aclrtMalloc(&d, 64, ACL_MEM_MALLOC_HUGE_FIRST));
  assert_acl_error(aclrtFreeHost(d), ACL_ERROR_INVALID_PARAM, "use aclrtFree");
  assert_acl_ok(aclrtFree(d));
  /* Left for aclFinalize. */
  assert_acl_ok(aclrtMallocHost(&h, 128));
}

static void fill_pattern(uint8_t *p, size_t n, unsigned seed) {
  for (size_t i = 0; i < n; i++) p[i] = (uint8_t)((i * 131u + seed) >> 1);
}

static void test_memcpy_every_kind(void **state) {
  (void)state;
  enum { N = 4096 };
  uint8_t src[N], out[N], zero[N];
  fill_pattern(src, N, 7);
  memset(zero, 0, N);
  void *d1, *d2;
  assert_acl_ok(aclrtSetDevice(0));
  assert_acl_ok(aclrtMalloc(&d1, N, ACL_MEM_MALLOC_HUGE_FIRST));
  assert_acl_ok(aclrtMalloc(&d2, N, ACL_MEM_MALLOC_HUGE_FIRST));

  assert_acl_ok(aclrtMemcpy(d1, N, src, N, ACL_MEMCPY_HOST_TO_DEVICE));
  assert_acl_ok(aclrtMemcpy(d2, N, d1, N, ACL_MEMCPY_DEVICE_TO_DEVICE));
  memset(out, 0, N);
  assert_acl_ok(aclrtMemcpy(out, N, d2, N, ACL_MEMCPY_DEVICE_TO_HOST));
  assert_memory_equal(out, src, N);
  memset(out, 0, N);
  assert_acl_ok(aclrtMemcpy(out, N, src, N, ACL_MEMCPY_HOST_TO_HOST));
  assert_memory_equal(out, src, N);

  /* ACL_MEMCPY_DEFAULT reads the direction from the addresses. */
  assert_acl_ok(aclrtMemcpy(d1, N, zero, N, ACL_MEMCPY_DEFAULT));
  assert_acl_ok(aclrtMemcpy(out, N, d1, N, ACL_MEMCPY_DEFAULT));
  assert_memory_equal(out, zero, N);
  assert_acl_ok(aclrtMemcpy(d1, N, d2, N, ACL_MEMCPY_DEFAULT));
  memset(out, 0, N);
  assert_acl_ok(aclrtMemcpy(out, N, d1, N, ACL_MEMCPY_DEFAULT));
  assert_memory_equal(out, src, N);
  memset(out, 0, N);
  assert_acl_ok(aclrtMemcpy(out, N, src, N, ACL_MEMCPY_DEFAULT));
  assert_memory_equal(out, src, N);

  /* A part, into the middle of a larger destination. */
  memset(out, 0, N);
  assert_acl_ok(aclrtMemcpy(out + 100, 50, (uint8_t *)d2 + 10, 50, ACL_MEMCPY_DEVICE_TO_HOST));
  assert_memory_equal(out + 100, src + 10, 50);
  assert_memory_equal(out, zero, 100);
  assert_memory_equal(out + 150, zero, N - 150);
  assert_acl_ok(aclrtMemcpy(d1, N, src, 0, ACL_MEMCPY_HOST_TO_DEVICE));

  assert_acl_ok(aclrtFree(d1));
  assert_acl_ok(aclrtFree(d2));
}

static void test_memcpy_errors(void **state) {
  (void)state;
  enum { N = 256 };
  uint8_t host[N] = {0};
  void *d;
  assert_acl_ok(aclrtSetDevice(0));
  assert_acl_ok(aclrtMalloc(&d, N, ACL_MEM_MALLOC_HUGE_FIRST));
  assert_acl_error(aclrtMemcpy(d, N - 1, host, N, ACL_MEMCPY_HOST_TO_DEVICE),
                   ACL_ERROR_INVALID_PARAM, "destMax 255");
  assert_acl_error(aclrtMemcpy(NULL, N, host, N, ACL_MEMCPY_HOST_TO_DEVICE),
                   ACL_ERROR_INVALID_PARAM, "NULL dst");
  assert_acl_error(aclrtMemcpy(d, N, NULL, N, ACL_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_INVALID_PARAM,
                   "NULL src");
  assert_acl_error(aclrtMemcpy(d, N, host, N, (aclrtMemcpyKind)99), ACL_ERROR_INVALID_PARAM,
                   "unknown copy kind 99");
  assert_acl_error(aclrtMemcpy(d, N, host, N, (aclrtMemcpyKind)-1), ACL_ERROR_INVALID_PARAM,
                   "unknown copy kind -1");
  /* The wrong direction. */
  assert_acl_error(aclrtMemcpy(host, N, d, N, ACL_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_INVALID_PARAM,
                   "wrong direction");
  assert_acl_error(aclrtMemcpy(d, N, host, N, ACL_MEMCPY_DEVICE_TO_HOST), ACL_ERROR_INVALID_PARAM,
                   "wrong direction");
  /* destMax larger than the allocation does not let a copy overrun it. */
  assert_acl_error(aclrtMemcpy(d, 2 * N, host, N + 1, ACL_MEMCPY_HOST_TO_DEVICE),
                   ACL_ERROR_INVALID_PARAM, "overrun");
  assert_acl_ok(aclrtFree(d));
  assert_acl_error(aclrtMemcpy(d, N, host, N, ACL_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_INVALID_PARAM,
                   "freed");
  assert_acl_error(aclrtMemcpy(host, N, d, N, ACL_MEMCPY_DEVICE_TO_HOST), ACL_ERROR_INVALID_PARAM,
                   "freed");
}

static void test_memcpy_async(void **state) {
  (void)state;
  enum { N = 1 << 16 };
  uint8_t *src = malloc(N), *out = malloc(N);
  assert_non_null(src);
  assert_non_null(out);
  fill_pattern(src, N, 3);
  memset(out, 0, N);
  aclrtStream s;
  void *d;
  assert_acl_ok(aclrtSetDevice(0));
  assert_acl_ok(aclrtCreateStream(&s));
  assert_acl_ok(aclrtMalloc(&d, N, ACL_MEM_MALLOC_HUGE_FIRST));
  /* Queued behind a gate: nothing lands before the stream gets there. */
  asc_test_gate *gate = asc_test_gate_get(0);
  assert_ok(asc_test_gate_enqueue(handle_of(s), gate));
  assert_acl_ok(aclrtMemcpyAsync(d, N, src, N, ACL_MEMCPY_HOST_TO_DEVICE, s));
  assert_acl_ok(aclrtMemcpyAsync(out, N, d, N, ACL_MEMCPY_DEVICE_TO_HOST, s));
  uint8_t *zero = calloc(N, 1);
  assert_non_null(zero);
  assert_memory_equal(out, zero, N);
  free(zero);
  asc_test_gate_open(gate);
  assert_acl_ok(aclrtSynchronizeStream(s));
  assert_memory_equal(out, src, N);
  /* The default stream. */
  memset(out, 0, N);
  assert_acl_ok(aclrtMemcpyAsync(out, N, d, N, ACL_MEMCPY_DEFAULT, NULL));
  assert_acl_ok(aclrtSynchronizeStream(NULL));
  assert_memory_equal(out, src, N);

  assert_acl_error(aclrtMemcpyAsync(d, N / 2, src, N, ACL_MEMCPY_HOST_TO_DEVICE, s),
                   ACL_ERROR_INVALID_PARAM, "destMax");
  assert_acl_error(aclrtMemcpyAsync(d, N, src, N, (aclrtMemcpyKind)8, s), ACL_ERROR_INVALID_PARAM,
                   "unknown copy kind 8");
  assert_acl_error(aclrtMemcpyAsync(d, N, NULL, N, ACL_MEMCPY_HOST_TO_DEVICE, s),
                   ACL_ERROR_INVALID_PARAM, "NULL src");
  assert_acl_ok(aclrtDestroyStream(s));
  assert_acl(aclrtMemcpyAsync(d, N, src, N, ACL_MEMCPY_HOST_TO_DEVICE, s),
             ACL_ERROR_RT_INVALID_HANDLE);
  assert_acl_ok(aclrtFree(d));
  assert_acl_error(aclrtMemcpyAsync(d, N, src, N, ACL_MEMCPY_HOST_TO_DEVICE, NULL),
                   ACL_ERROR_INVALID_PARAM, "freed");
  free(src);
  free(out);
}

static void test_memset(void **state) {
  (void)state;
  enum { N = 1000 };
  uint8_t out[N], want[N];
  void *d, *h;
  aclrtStream s;
  assert_acl_ok(aclrtSetDevice(0));
  assert_acl_ok(aclrtMalloc(&d, N, ACL_MEM_MALLOC_HUGE_FIRST));
  assert_acl_ok(aclrtMallocHost(&h, N));
  assert_acl_ok(aclrtCreateStream(&s));

  /* memset(3)'s semantics: the low byte of value, count bytes. */
  memset(want, 0, N);
  memset(want + 10, 0x1ab & 0xff, 300);
  assert_acl_ok(aclrtMemset(d, N, 0, N));
  assert_acl_ok(aclrtMemset((uint8_t *)d + 10, N - 10, 0x1ab, 300));
  assert_acl_ok(aclrtMemcpy(out, N, d, N, ACL_MEMCPY_DEVICE_TO_HOST));
  assert_memory_equal(out, want, N);
  assert_acl_ok(aclrtMemset(h, N, 0x77, N));
  memset(want, 0x77, N);
  assert_memory_equal(h, want, N);

  memset(want, 0x3c, N);
  assert_acl_ok(aclrtMemsetAsync(d, N, 0x3c, N, s));
  assert_acl_ok(aclrtMemcpyAsync(out, N, d, N, ACL_MEMCPY_DEVICE_TO_HOST, s));
  assert_acl_ok(aclrtSynchronizeStream(s));
  assert_memory_equal(out, want, N);
  /* A host block is filled after the stream's earlier work: the copy into
   * it (behind a spin) lands first, the fill overwrites it. */
  assert_ok(asc_testing_spin(handle_of(s), 50, 1));
  assert_acl_ok(aclrtMemcpyAsync(h, N, d, N, ACL_MEMCPY_DEVICE_TO_HOST, s));
  assert_acl_ok(aclrtMemsetAsync(h, N, 0x11, N, s));
  assert_acl_ok(aclrtSynchronizeStream(s));
  memset(want, 0x11, N);
  assert_memory_equal(h, want, N);
  assert_acl_ok(aclrtMemsetAsync(d, N, 0, N, NULL));
  assert_acl_ok(aclrtSynchronizeStream(NULL));

  assert_acl_error(aclrtMemset(d, N - 1, 0, N), ACL_ERROR_INVALID_PARAM, "maxCount 999");
  assert_acl_error(aclrtMemset(NULL, N, 0, N), ACL_ERROR_INVALID_PARAM, "NULL devPtr");
  assert_acl_error(aclrtMemset(d, 2 * N, 0, N + 1), ACL_ERROR_INVALID_PARAM, "overrun");
  assert_acl_error(aclrtMemset(h, 2 * N, 0, N + 1), ACL_ERROR_INVALID_PARAM, "host block");
  assert_acl_error(aclrtMemset(out, N, 0, N), ACL_ERROR_INVALID_PARAM, "aclrtMallocHost");
  assert_acl_error(aclrtMemsetAsync(d, 1, 0, 2, s), ACL_ERROR_INVALID_PARAM, "maxCount 1");
  assert_acl_error(aclrtMemsetAsync(out, N, 0, N, s), ACL_ERROR_INVALID_PARAM, "aclrtMallocHost");
  assert_acl_ok(aclrtDestroyStream(s));
  assert_acl(aclrtMemsetAsync(d, N, 0, N, s), ACL_ERROR_RT_INVALID_HANDLE);
  assert_acl_ok(aclrtFree(d));
  assert_acl_error(aclrtMemset(d, N, 0, N), ACL_ERROR_INVALID_PARAM, "neither");
  assert_acl_ok(aclrtFreeHost(h));
  assert_acl_error(aclrtMemset(h, N, 0, N), ACL_ERROR_INVALID_PARAM, "neither");
}

static void test_get_mem_info(void **state) {
  (void)state;
  size_t free_b = 0, total = 0;
  assert_acl_error(aclrtGetMemInfo(ACL_HBM_MEM, &free_b, &total), ACL_ERROR_RT_CONTEXT_NULL,
                   "aclrtGetMemInfo");
  assert_acl_ok(aclrtSetDevice(0));
  assert_acl_error(aclrtGetMemInfo(ACL_HBM_MEM, NULL, &total), ACL_ERROR_INVALID_PARAM, "free");
  assert_acl_error(aclrtGetMemInfo(ACL_HBM_MEM, &free_b, NULL), ACL_ERROR_INVALID_PARAM, "total");
  assert_acl_error(aclrtGetMemInfo((aclrtMemAttr)12, &free_b, &total), ACL_ERROR_INVALID_PARAM,
                   "attribute 12");
  asc_device_props props;
  assert_ok(asc_device_get_props(0, &props));
  assert_acl_ok(aclrtGetMemInfo(ACL_HBM_MEM, &free_b, &total));
  assert_int_equal(total, props.global_mem_size);
  assert_true(free_b <= total);
  size_t before = free_b;
  void *d;
  const size_t big = (size_t)64 << 20;
  assert_acl_ok(aclrtMalloc(&d, big, ACL_MEM_MALLOC_HUGE_FIRST));
  assert_acl_ok(aclrtGetMemInfo(ACL_DDR_MEM, &free_b, &total));
  assert_true(before - free_b >= big);
  /* A limit caps what is free. */
  assert_ok(asc_mem_set_limit(0, big + ((size_t)1 << 20)));
  assert_acl_ok(aclrtGetMemInfo(ACL_HBM_MEM_HUGE, &free_b, &total));
  asc_mem_stats stats;
  assert_ok(asc_mem_get_stats(0, &stats));
  assert_int_equal(free_b, big + ((size_t)1 << 20) - stats.reserved_bytes);
  assert_ok(asc_mem_set_limit(0, 0));
  assert_acl_ok(aclrtFree(d));
}

/* --- a host program in the style of CANN's examples ----------------------- */

typedef struct add_args {
  const float *x, *y;
  float *z;
  size_t n;
} add_args;

/* z = x + y over blocks of the device's cores, on device memory from aclrtMalloc. */
static asc_status add_kernel(const asc_block_ctx *ctx, const void *args) {
  const add_args *a = args;
  size_t per = (a->n + ctx->block_num - 1) / ctx->block_num;
  size_t begin = per * ctx->block_idx, end = begin + per < a->n ? begin + per : a->n;
  for (size_t i = begin; i < end; i++) a->z[i] = a->x[i] + a->y[i];
  return ASC_OK;
}

static void test_host_program(void **state) {
  (void)state;
  /* acl_setup already ran aclInit: start again as a program would. */
  assert_acl_ok(aclFinalize());
  enum { N = 8 * 2048 };
  const size_t bytes = N * sizeof(float);
  int32_t deviceId = 0;
  aclrtContext context;
  aclrtStream stream;
  assert_acl_ok(aclInit(NULL));
  assert_acl_ok(aclrtSetDevice(deviceId));
  assert_acl_ok(aclrtCreateContext(&context, deviceId));
  assert_acl_ok(aclrtCreateStream(&stream));

  float *xHost, *yHost, *zHost;
  assert_acl_ok(aclrtMallocHost((void **)&xHost, bytes));
  assert_acl_ok(aclrtMallocHost((void **)&yHost, bytes));
  assert_acl_ok(aclrtMallocHost((void **)&zHost, bytes));
  for (int i = 0; i < N; i++) {
    xHost[i] = (float)(i % 97) * 0.25f;
    yHost[i] = (float)(i % 13) - 6.5f;
  }
  void *xDevice, *yDevice, *zDevice;
  assert_acl_ok(aclrtMalloc(&xDevice, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
  assert_acl_ok(aclrtMalloc(&yDevice, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
  assert_acl_ok(aclrtMalloc(&zDevice, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
  assert_acl_ok(aclrtMemcpy(xDevice, bytes, xHost, bytes, ACL_MEMCPY_HOST_TO_DEVICE));
  assert_acl_ok(aclrtMemcpy(yDevice, bytes, yHost, bytes, ACL_MEMCPY_HOST_TO_DEVICE));

  aclrtEvent start, end;
  assert_acl_ok(aclrtCreateEvent(&start));
  assert_acl_ok(aclrtCreateEvent(&end));
  assert_acl_ok(aclrtRecordEvent(start, stream));
  add_args args = {xDevice, yDevice, zDevice, N};
  assert_ok(asc_launch(handle_of(stream), add_kernel, 8, &args, sizeof args));
  assert_acl_ok(aclrtRecordEvent(end, stream));
  assert_acl_ok(aclrtSynchronizeStream(stream));
  float ms = -1;
  assert_acl_ok(aclrtEventElapsedTime(&ms, start, end));
  assert_true(ms >= 0);

  assert_acl_ok(aclrtMemcpy(zHost, bytes, zDevice, bytes, ACL_MEMCPY_DEVICE_TO_HOST));
  for (int i = 0; i < N; i++) {
    double want = (double)xHost[i] + (double)yHost[i];
    if ((double)zHost[i] != (double)(float)want) fail_msg("z[%d] = %g, want %g", i, zHost[i], want);
  }

  assert_acl_ok(aclrtDestroyEvent(start));
  assert_acl_ok(aclrtDestroyEvent(end));
  assert_acl_ok(aclrtFree(xDevice));
  assert_acl_ok(aclrtFree(yDevice));
  assert_acl_ok(aclrtFree(zDevice));
  assert_acl_ok(aclrtFreeHost(xHost));
  assert_acl_ok(aclrtFreeHost(yHost));
  assert_acl_ok(aclrtFreeHost(zHost));
  assert_acl_ok(aclrtDestroyStream(stream));
  assert_acl_ok(aclrtDestroyContext(context));
  assert_acl_ok(aclrtResetDevice(deviceId));
  /* acl_teardown finalizes. */
}

/* aclFinalize releases what a program left behind and forgets its handles. */
static void test_finalize_releases_everything(void **state) {
  (void)state;
  aclrtStream s;
  aclrtEvent e;
  aclrtContext c;
  void *d, *h;
  assert_acl_ok(aclrtSetDevice(0));
  assert_acl_ok(aclrtCreateStream(&s));
  assert_acl_ok(aclrtCreateEvent(&e));
  assert_acl_ok(aclrtCreateContext(&c, 0));
  assert_acl_ok(aclrtMalloc(&d, 1 << 20, ACL_MEM_MALLOC_HUGE_FIRST));
  assert_acl_ok(aclrtMallocHost(&h, 1 << 20));
  assert_ok(asc_testing_spin(handle_of(s), 30, 2));
  assert_acl_ok(aclFinalize());
  int32_t device;
  aclrtEventStatus status;
  assert_acl(aclrtGetDevice(&device), ACL_ERROR_RT_CONTEXT_NULL);
  assert_acl(aclrtSynchronizeStream(s), ACL_ERROR_RT_INVALID_HANDLE);
  assert_acl(aclrtQueryEvent(e, &status), ACL_ERROR_RT_INVALID_HANDLE);
  assert_acl(aclrtSetCurrentContext(c), ACL_ERROR_INVALID_PARAM);
  assert_acl(aclrtFreeHost(h), ACL_ERROR_INVALID_PARAM);
  assert_acl(aclrtFree(d), ACL_ERROR_INVALID_PARAM);
  assert_acl_ok(aclInit(NULL)); /* for acl_teardown */
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup_teardown(test_init_and_finalize, asc_test_setup, asc_test_teardown),
      ACL_TEST(test_recent_error_message_is_taken_once),
      ACL_TEST(test_version_run_mode_and_soc),
      ACL_TEST2(test_devices),
      ACL_TEST2(test_current_device_is_per_thread),
      ACL_TEST(test_synchronize_device),
      ACL_TEST2(test_device_capability),
      cmocka_unit_test(test_float16_conversions),
      ACL_TEST2(test_contexts),
      ACL_TEST(test_streams),
      ACL_TEST(test_event_create_and_destroy),
      ACL_TEST(test_event_record_query_synchronize),
      ACL_TEST(test_event_elapsed_time),
      ACL_TEST(test_stream_wait_event),
      ACL_TEST2(test_malloc_and_free),
      ACL_TEST(test_malloc_host_and_free_host),
      ACL_TEST(test_memcpy_every_kind),
      ACL_TEST(test_memcpy_errors),
      ACL_TEST(test_memcpy_async),
      ACL_TEST(test_memset),
      ACL_TEST(test_get_mem_info),
      ACL_TEST(test_host_program),
      ACL_TEST(test_finalize_releases_everything),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
