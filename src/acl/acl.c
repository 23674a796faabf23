/* ACL's process, device, context, stream and event calls over libasc's
 * runtime (include/acl/acl_rt.h). */
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "acl_internal.h"
#include "asc/dtype.h"
#include "asc/hal.h"

/* Matches ASC_MAX_DEVICES (src/runtime/runtime.h): a device id beyond it
 * is refused by libasc before a default context is looked at. */
#define ACL_MAX_DEVICES 64

typedef struct acl_context {
  int device;
} acl_context;

typedef enum { ACL_STATE_NEVER, ACL_STATE_INITIALISED, ACL_STATE_FINALISED } acl_state;

static pthread_mutex_t acl_lock = PTHREAD_MUTEX_INITIALIZER;
static acl_state state = ACL_STATE_NEVER;
/* aclrtSetDevice's implicit contexts, one per device: never written or
 * destroyed, only their addresses matter (the index is the device). */
static acl_context default_contexts[ACL_MAX_DEVICES];
/* aclrtCreateContext's contexts, so that a destroyed or made-up one is
 * recognised without being dereferenced. Guarded by acl_lock. */
static acl_context **contexts;
static size_t ncontexts, contexts_cap;

/* Bumped by aclFinalize: a thread's device and context from before it are
 * forgotten the next time that thread looks. */
static atomic_uint acl_epoch;
static _Thread_local unsigned thread_epoch;
static _Thread_local int thread_device = -1;
static _Thread_local acl_context *thread_context;

static void refresh_thread(void) {
  unsigned epoch = atomic_load(&acl_epoch);
  if (thread_epoch != epoch) {
    thread_epoch = epoch;
    thread_device = -1;
    thread_context = NULL;
  }
}

aclError acl_from_status(asc_status status) {
  switch (status) {
    case ASC_OK:
      return ACL_SUCCESS;
    case ASC_ERR_INVALID_VALUE:
    case ASC_ERR_TYPE:
    case ASC_ERR_INDEX:
      return ACL_ERROR_INVALID_PARAM;
    case ASC_ERR_INVALID_HANDLE:
      return ACL_ERROR_RT_INVALID_HANDLE;
    case ASC_ERR_OUT_OF_MEMORY:
      return ACL_ERROR_RT_MEMORY_ALLOCATION;
    case ASC_ERR_NOT_READY:
      return ACL_ERROR_RT_STREAM_NOT_COMPLETE;
    case ASC_ERR_KERNEL:
      return ACL_ERROR_RT_AICORE_EXCEPTION;
    case ASC_ERR_UNSUPPORTED:
      return ACL_ERROR_RT_FEATURE_NOT_SUPPORT;
    case ASC_ERR_COMPILE:
      return ACL_ERROR_FAILURE;
    case ASC_ERR_DEVICE:
      return ACL_ERROR_RT_INTERNAL_ERROR;
    case ASC_ERR_INTERNAL:
    case ASC_STATUS_COUNT:
      break;
  }
  return ACL_ERROR_INTERNAL_ERROR;
}

/* The libasc status recorded with an ACL-level message: aclGetRecentErrMsg
 * only needs it to be a failure, libasc callers see a fitting one. */
static asc_status status_for(aclError code) {
  switch (code) {
    case ACL_ERROR_RT_FEATURE_NOT_SUPPORT:
    case ACL_ERROR_FEATURE_UNSUPPORTED:
      return ASC_ERR_UNSUPPORTED;
    case ACL_ERROR_RT_STREAM_SYNC_TIMEOUT:
    case ACL_ERROR_RT_EVENT_SYNC_TIMEOUT:
    case ACL_ERROR_RT_EVENT_NOT_COMPLETE:
      return ASC_ERR_NOT_READY;
    case ACL_ERROR_RT_MEMORY_ALLOCATION:
      return ASC_ERR_OUT_OF_MEMORY;
    case ACL_ERROR_RT_INVALID_HANDLE:
      return ASC_ERR_INVALID_HANDLE;
    default:
      return ASC_ERR_INVALID_VALUE;
  }
}

aclError acl_fail(aclError code, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  (void)asc_verror(status_for(code), fmt, ap);
  va_end(ap);
  return code;
}

void *acl_grow(void *items, size_t *cap, size_t size, size_t first) {
  size_t n = *cap ? *cap * 2 : first;
  void *grown = n <= SIZE_MAX / size ? realloc(items, n * size) : NULL;
  if (grown) *cap = n;
  return grown;
}

aclError acl_need_device(const char *op, int *device) {
  refresh_thread();
  if (thread_device < 0)
    return acl_fail(ACL_ERROR_RT_CONTEXT_NULL,
                    "%s: no current device (call aclrtSetDevice or aclrtSetCurrentContext first)",
                    op);
  *device = thread_device;
  return ACL_SUCCESS;
}

aclError acl_stream_of(aclrtStream stream, const char *op, asc_stream_t *out) {
  if (stream) {
    *out = acl_handle(stream);
    return ACL_SUCCESS;
  }
  int device = -1;
  aclError err = acl_need_device(op, &device);
  return err ? err : acl_from_status(asc_stream_default(device, out));
}

/* --- process ------------------------------------------------------------ */

aclError aclInit(const char *configPath) {
  if (configPath && configPath[0]) {
    FILE *f = fopen(configPath, "r");
    if (!f) return acl_fail(ACL_ERROR_INVALID_FILE, "aclInit: cannot read %s", configPath);
    fclose(f);
  }
  pthread_mutex_lock(&acl_lock);
  aclError err = ACL_SUCCESS;
  if (state == ACL_STATE_INITIALISED)
    err = acl_fail(ACL_ERROR_REPEAT_INITIALIZE, "aclInit: already initialised");
  else if ((err = acl_from_status(asc_init())) == ACL_SUCCESS)
    state = ACL_STATE_INITIALISED;
  pthread_mutex_unlock(&acl_lock);
  return err;
}

aclError aclFinalize(void) {
  pthread_mutex_lock(&acl_lock);
  aclError err = ACL_SUCCESS;
  if (state == ACL_STATE_NEVER) {
    err = acl_fail(ACL_ERROR_UNINITIALIZE, "aclFinalize: aclInit was never called");
  } else if (state == ACL_STATE_FINALISED) {
    err = acl_fail(ACL_ERROR_REPEAT_FINALIZE, "aclFinalize: already finalised");
  } else {
    for (size_t i = 0; i < ncontexts; i++) free(contexts[i]);
    free(contexts);
    contexts = NULL;
    ncontexts = contexts_cap = 0;
    acl_mem_finalize();
    (void)asc_shutdown();
    atomic_fetch_add(&acl_epoch, 1);
    state = ACL_STATE_FINALISED;
  }
  pthread_mutex_unlock(&acl_lock);
  return err;
}

const char *aclGetRecentErrMsg(void) {
  static _Thread_local char message[1024];
  if (asc_last_status() == ASC_OK) return NULL;
  snprintf(message, sizeof message, "%s", asc_last_error());
  asc_clear_error();
  return message;
}

aclError aclrtGetVersion(int32_t *majorVersion, int32_t *minorVersion, int32_t *patchVersion) {
  if (!majorVersion || !minorVersion || !patchVersion)
    return acl_fail(ACL_ERROR_INVALID_PARAM, "aclrtGetVersion: NULL output pointer");
  int major = 0, minor = 0, patch = 0;
  if (sscanf(asc_version(), "%d.%d.%d", &major, &minor, &patch) != 3)
    return acl_fail(ACL_ERROR_INTERNAL_ERROR, "aclrtGetVersion: malformed version %s",
                    asc_version());
  *majorVersion = major;
  *minorVersion = minor;
  *patchVersion = patch;
  return ACL_SUCCESS;
}

aclError aclrtGetRunMode(aclrtRunMode *runMode) {
  if (!runMode) return acl_fail(ACL_ERROR_INVALID_PARAM, "aclrtGetRunMode: NULL runMode");
  *runMode = ACL_HOST;
  return ACL_SUCCESS;
}

const char *aclrtGetSocName(void) {
  return "Ascend910B1";
}

/* --- devices and contexts ----------------------------------------------- */

static aclError check_device(int32_t deviceId, const char *op) {
  int count = 0;
  aclError err = acl_from_status(asc_device_count(&count));
  if (err) return err;
  if (deviceId < 0 || deviceId >= count || deviceId >= ACL_MAX_DEVICES)
    return acl_fail(ACL_ERROR_RT_INVALID_DEVICEID, "%s: device %d does not exist (%d device%s)", op,
                    (int)deviceId, count, count == 1 ? "" : "s");
  return ACL_SUCCESS;
}

static aclError make_current(int device, acl_context *context) {
  aclError err = acl_from_status(asc_device_set(device));
  if (err) return err;
  refresh_thread();
  thread_device = device;
  thread_context = context;
  return ACL_SUCCESS;
}

aclError aclrtGetDeviceCount(uint32_t *count) {
  if (!count) return acl_fail(ACL_ERROR_INVALID_PARAM, "aclrtGetDeviceCount: NULL count");
  int n = 0;
  aclError err = acl_from_status(asc_device_count(&n));
  if (err == ACL_SUCCESS) *count = (uint32_t)n;
  return err;
}

aclError aclrtSetDevice(int32_t deviceId) {
  aclError err = check_device(deviceId, "aclrtSetDevice");
  if (err) return err;
  return make_current(deviceId, &default_contexts[deviceId]);
}

aclError aclrtResetDevice(int32_t deviceId) {
  aclError err = check_device(deviceId, "aclrtResetDevice");
  if (err) return err;
  err = acl_from_status(asc_device_synchronize(deviceId));
  refresh_thread();
  if (thread_device == deviceId) {
    thread_device = -1;
    thread_context = NULL;
  }
  return err;
}

aclError aclrtGetDevice(int32_t *deviceId) {
  if (!deviceId) return acl_fail(ACL_ERROR_INVALID_PARAM, "aclrtGetDevice: NULL deviceId");
  int device = -1;
  aclError err = acl_need_device("aclrtGetDevice", &device);
  if (err == ACL_SUCCESS) *deviceId = device;
  return err;
}

aclError aclrtSynchronizeDevice(void) {
  return aclrtSynchronizeDeviceWithTimeout(-1);
}

/* Milliseconds as libasc's nanoseconds (< 0: for ever); -1 is the only
 * negative ACL accepts. */
static aclError timeout_ns(int32_t timeout, const char *op, int64_t *out) {
  if (timeout < -1)
    return acl_fail(ACL_ERROR_INVALID_PARAM, "%s: timeout %d ms (use -1 to wait for ever)", op,
                    (int)timeout);
  *out = timeout < 0 ? -1 : (int64_t)timeout * 1000000;
  return ACL_SUCCESS;
}

aclError aclrtSynchronizeDeviceWithTimeout(int32_t timeout) {
  int device = -1;
  int64_t ns = -1;
  aclError err = timeout_ns(timeout, "aclrtSynchronizeDevice", &ns);
  if (err || (err = acl_need_device("aclrtSynchronizeDevice", &device))) return err;
  asc_status st = asc_device_synchronize_for(device, ns);
  if (st == ASC_ERR_NOT_READY)
    return acl_fail(ACL_ERROR_RT_STREAM_SYNC_TIMEOUT,
                    "aclrtSynchronizeDevice: device %d still busy after %d ms", device,
                    (int)timeout);
  return acl_from_status(st);
}

aclError aclGetDeviceCapability(uint32_t deviceId, aclDeviceInfo deviceInfo, int64_t *value) {
  if (!value) return acl_fail(ACL_ERROR_INVALID_PARAM, "aclGetDeviceCapability: NULL value");
  if (deviceId > INT32_MAX)
    return acl_fail(ACL_ERROR_RT_INVALID_DEVICEID, "aclGetDeviceCapability: device %u", deviceId);
  aclError err = check_device((int32_t)deviceId, "aclGetDeviceCapability");
  if (err) return err;
  asc_device_props props;
  if ((err = acl_from_status(asc_device_get_props((int)deviceId, &props)))) return err;
  switch (deviceInfo) {
    case ACL_DEVICE_INFO_AI_CORE_NUM:
      *value = props.cube_core_count;
      return ACL_SUCCESS;
    case ACL_DEVICE_INFO_VECTOR_CORE_NUM:
      *value = props.ai_core_count;
      return ACL_SUCCESS;
    case ACL_DEVICE_INFO_L2_SIZE:
      return acl_fail(ACL_ERROR_FEATURE_UNSUPPORTED,
                      "aclGetDeviceCapability: the simulator has no L2 cache model");
    case ACL_DEVICE_INFO_UNDEFINED:
      break;
  }
  return acl_fail(ACL_ERROR_INVALID_PARAM, "aclGetDeviceCapability: unknown query %d",
                  (int)deviceInfo);
}

/* Under acl_lock: the index of a created context, or -1. */
static ptrdiff_t find_context(const void *context) {
  for (size_t i = 0; i < ncontexts; i++)
    if (contexts[i] == context) return (ptrdiff_t)i;
  return -1;
}

/* The device of a live context (default or created), or -1. */
static int context_device(const void *context) {
  int count = 0;
  if (asc_device_count(&count)) return -1;
  for (int d = 0; d < count && d < ACL_MAX_DEVICES; d++)
    if (context == (const void *)&default_contexts[d]) return d;
  pthread_mutex_lock(&acl_lock);
  ptrdiff_t at = find_context(context);
  int device = at < 0 ? -1 : contexts[at]->device;
  pthread_mutex_unlock(&acl_lock);
  return device;
}

aclError aclrtCreateContext(aclrtContext *context, int32_t deviceId) {
  if (!context) return acl_fail(ACL_ERROR_INVALID_PARAM, "aclrtCreateContext: NULL context");
  aclError err = check_device(deviceId, "aclrtCreateContext");
  if (err) return err;
  acl_context *c = malloc(sizeof *c);
  if (!c) return acl_fail(ACL_ERROR_RT_MEMORY_ALLOCATION, "aclrtCreateContext: out of memory");
  c->device = deviceId;
  pthread_mutex_lock(&acl_lock);
  if (ncontexts == contexts_cap) {
    acl_context **grown = acl_grow(contexts, &contexts_cap, sizeof *grown, 8);
    if (!grown) {
      pthread_mutex_unlock(&acl_lock);
      free(c);
      return acl_fail(ACL_ERROR_RT_MEMORY_ALLOCATION, "aclrtCreateContext: out of memory");
    }
    contexts = grown;
  }
  contexts[ncontexts++] = c;
  pthread_mutex_unlock(&acl_lock);
  err = make_current(deviceId, c);
  if (err) {
    (void)aclrtDestroyContext(c);
    return err;
  }
  *context = c;
  return ACL_SUCCESS;
}

aclError aclrtDestroyContext(aclrtContext context) {
  if (!context) return acl_fail(ACL_ERROR_INVALID_PARAM, "aclrtDestroyContext: NULL context");
  pthread_mutex_lock(&acl_lock);
  ptrdiff_t at = find_context(context);
  if (at >= 0) {
    free(contexts[at]);
    contexts[at] = contexts[--ncontexts];
  }
  pthread_mutex_unlock(&acl_lock);
  if (at < 0)
    return acl_fail(ACL_ERROR_INVALID_PARAM,
                    "aclrtDestroyContext: %p is not a context from aclrtCreateContext (destroyed, "
                    "or a device's default context)",
                    context);
  refresh_thread();
  if (thread_context == context) {
    thread_context = NULL;
    thread_device = -1;
  }
  return ACL_SUCCESS;
}

aclError aclrtSetCurrentContext(aclrtContext context) {
  if (!context) return acl_fail(ACL_ERROR_INVALID_PARAM, "aclrtSetCurrentContext: NULL context");
  int device = context_device(context);
  if (device < 0)
    return acl_fail(ACL_ERROR_INVALID_PARAM, "aclrtSetCurrentContext: %p is not a live context",
                    context);
  return make_current(device, context);
}

aclError aclrtGetCurrentContext(aclrtContext *context) {
  if (!context) return acl_fail(ACL_ERROR_INVALID_PARAM, "aclrtGetCurrentContext: NULL context");
  refresh_thread();
  if (!thread_context)
    return acl_fail(ACL_ERROR_RT_CONTEXT_NULL, "aclrtGetCurrentContext: no current context");
  *context = thread_context;
  return ACL_SUCCESS;
}

/* --- streams ------------------------------------------------------------ */

aclError aclrtCreateStream(aclrtStream *stream) {
  if (!stream) return acl_fail(ACL_ERROR_INVALID_PARAM, "aclrtCreateStream: NULL stream");
  int device = -1;
  asc_stream_t handle = 0;
  aclError err = acl_need_device("aclrtCreateStream", &device);
  if (err || (err = acl_from_status(asc_stream_create(device, &handle)))) return err;
  *stream = (aclrtStream)(uintptr_t)handle;
  return ACL_SUCCESS;
}

aclError aclrtDestroyStream(aclrtStream stream) {
  if (!stream) return acl_fail(ACL_ERROR_INVALID_PARAM, "aclrtDestroyStream: NULL stream");
  return acl_from_status(asc_stream_destroy(acl_handle(stream)));
}

aclError aclrtSynchronizeStream(aclrtStream stream) {
  return aclrtSynchronizeStreamWithTimeout(stream, -1);
}

aclError aclrtSynchronizeStreamWithTimeout(aclrtStream stream, int32_t timeout) {
  int64_t ns = -1;
  asc_stream_t handle = 0;
  aclError err = timeout_ns(timeout, "aclrtSynchronizeStream", &ns);
  if (err || (err = acl_stream_of(stream, "aclrtSynchronizeStream", &handle))) return err;
  asc_status st = asc_stream_synchronize_for(handle, ns);
  if (st == ASC_ERR_NOT_READY)
    return acl_fail(ACL_ERROR_RT_STREAM_SYNC_TIMEOUT,
                    "aclrtSynchronizeStream: work still queued after %d ms", (int)timeout);
  return acl_from_status(st);
}

aclError aclrtStreamWaitEvent(aclrtStream stream, aclrtEvent event) {
  if (!event) return acl_fail(ACL_ERROR_INVALID_PARAM, "aclrtStreamWaitEvent: NULL event");
  asc_stream_t handle = 0;
  aclError err = acl_stream_of(stream, "aclrtStreamWaitEvent", &handle);
  return err ? err : acl_from_status(asc_stream_wait_event(handle, acl_handle(event)));
}

/* --- events ------------------------------------------------------------- */

aclError aclrtCreateEvent(aclrtEvent *event) {
  return aclrtCreateEventWithFlag(event, ACL_EVENT_SYNC | ACL_EVENT_TIME_LINE);
}

aclError aclrtCreateEventWithFlag(aclrtEvent *event, uint32_t flag) {
  if (!event) return acl_fail(ACL_ERROR_INVALID_PARAM, "aclrtCreateEvent: NULL event");
  if (flag & ~(ACL_EVENT_SYNC | ACL_EVENT_TIME_LINE))
    return acl_fail(ACL_ERROR_FEATURE_UNSUPPORTED,
                    "aclrtCreateEventWithFlag: flags 0x%x (only ACL_EVENT_SYNC and "
                    "ACL_EVENT_TIME_LINE are simulated)",
                    flag);
  asc_event_t handle;
  aclError err = acl_from_status(asc_event_create(&handle));
  if (err == ACL_SUCCESS) *event = (aclrtEvent)(uintptr_t)handle;
  return err;
}

aclError aclrtDestroyEvent(aclrtEvent event) {
  if (!event) return acl_fail(ACL_ERROR_INVALID_PARAM, "aclrtDestroyEvent: NULL event");
  return acl_from_status(asc_event_destroy(acl_handle(event)));
}

aclError aclrtRecordEvent(aclrtEvent event, aclrtStream stream) {
  if (!event) return acl_fail(ACL_ERROR_INVALID_PARAM, "aclrtRecordEvent: NULL event");
  asc_stream_t handle = 0;
  aclError err = acl_stream_of(stream, "aclrtRecordEvent", &handle);
  return err ? err : acl_from_status(asc_event_record(acl_handle(event), handle));
}

aclError aclrtSynchronizeEvent(aclrtEvent event) {
  return aclrtSynchronizeEventWithTimeout(event, -1);
}

aclError aclrtSynchronizeEventWithTimeout(aclrtEvent event, int32_t timeout) {
  if (!event) return acl_fail(ACL_ERROR_INVALID_PARAM, "aclrtSynchronizeEvent: NULL event");
  int64_t ns = -1;
  aclError err = timeout_ns(timeout, "aclrtSynchronizeEvent", &ns);
  if (err) return err;
  asc_status st = asc_event_synchronize_for(acl_handle(event), ns);
  if (st == ASC_ERR_NOT_READY)
    return acl_fail(ACL_ERROR_RT_EVENT_SYNC_TIMEOUT,
                    "aclrtSynchronizeEvent: event not reached after %d ms", (int)timeout);
  return acl_from_status(st);
}

/* ASC_OK: complete, ASC_ERR_NOT_READY: pending, else the failure. */
static asc_status query(aclrtEvent event, const void *status, const char *op) {
  if (!event || !status)
    return asc_error(ASC_ERR_INVALID_VALUE, "%s: NULL %s", op, event ? "status" : "event");
  asc_status st = asc_event_query(acl_handle(event));
  if (st == ASC_ERR_NOT_READY) asc_clear_error();
  return st;
}

aclError aclrtQueryEvent(aclrtEvent event, aclrtEventStatus *status) {
  asc_status st = query(event, status, "aclrtQueryEvent");
  if (st != ASC_OK && st != ASC_ERR_NOT_READY) return acl_from_status(st);
  *status = st == ASC_OK ? ACL_EVENT_STATUS_COMPLETE : ACL_EVENT_STATUS_NOT_READY;
  return ACL_SUCCESS;
}

aclError aclrtQueryEventStatus(aclrtEvent event, aclrtEventRecordedStatus *status) {
  asc_status st = query(event, status, "aclrtQueryEventStatus");
  if (st != ASC_OK && st != ASC_ERR_NOT_READY) return acl_from_status(st);
  *status = st == ASC_OK ? ACL_EVENT_RECORDED_STATUS_COMPLETE : ACL_EVENT_RECORDED_STATUS_NOT_READY;
  return ACL_SUCCESS;
}

aclError aclrtEventElapsedTime(float *ms, aclrtEvent startEvent, aclrtEvent endEvent) {
  if (!ms || !startEvent || !endEvent)
    return acl_fail(ACL_ERROR_INVALID_PARAM, "aclrtEventElapsedTime: NULL %s",
                    !ms ? "ms" : "event");
  double elapsed = 0;
  asc_status st = asc_event_elapsed_ms(acl_handle(startEvent), acl_handle(endEvent), &elapsed);
  if (st == ASC_ERR_NOT_READY) return ACL_ERROR_RT_EVENT_NOT_COMPLETE;
  if (st == ASC_OK) *ms = (float)elapsed;
  return acl_from_status(st);
}

float aclFloat16ToFloat(aclFloat16 value) {
  return asc_half_to_float(value);
}

aclFloat16 aclFloatToFloat16(float value) {
  return asc_float_to_half(value);
}
