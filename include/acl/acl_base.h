/* ACL (Ascend Computing Language) base types and error codes, as CANN's
 * public ACL reference names and numbers them, for host programs that run on
 * pyasc's simulated device (docs/ascendc.md, "ACL on the simulator").
 *
 * The codes are enumerators rather than CANN's `static const int`s so that C
 * programs may use them in `case` labels too; their values are CANN's. */
#ifndef PYASC_ACL_BASE_H
#define PYASC_ACL_BASE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#ifndef ACL_FUNC_VISIBILITY
#if defined(__GNUC__)
#define ACL_FUNC_VISIBILITY __attribute__((visibility("default")))
#else
#define ACL_FUNC_VISIBILITY
#endif
#endif

typedef int aclError;
typedef uint16_t aclFloat16;
/* Opaque handles: streams and events are libasc handles carried in a
 * pointer, contexts are objects of the ACL layer. */
typedef void *aclrtStream;
typedef void *aclrtEvent;
typedef void *aclrtContext;

enum {
  ACL_SUCCESS = 0,
  ACL_ERROR_NONE = 0,

  ACL_ERROR_INVALID_PARAM = 100000,
  ACL_ERROR_UNINITIALIZE = 100001,
  ACL_ERROR_REPEAT_INITIALIZE = 100002,
  ACL_ERROR_INVALID_FILE = 100003,
  ACL_ERROR_REPEAT_FINALIZE = 100037,

  ACL_ERROR_BAD_ALLOC = 200000,
  ACL_ERROR_API_NOT_SUPPORT = 200001,
  ACL_ERROR_INVALID_DEVICE = 200002,
  ACL_ERROR_MEMORY_ADDRESS_UNALIGNED = 200003,
  ACL_ERROR_RESOURCE_NOT_MATCH = 200004,
  ACL_ERROR_INVALID_RESOURCE_HANDLE = 200005,
  ACL_ERROR_FEATURE_UNSUPPORTED = 200006,

  ACL_ERROR_STORAGE_OVER_LIMIT = 300000,

  ACL_ERROR_INTERNAL_ERROR = 500000,
  ACL_ERROR_FAILURE = 500001,
  ACL_ERROR_RT_FAILURE = 500003,

  /* The runtime's codes (CANN's acl/error_codes/rt_error_codes.h). */
  ACL_RT_SUCCESS = 0,
  ACL_ERROR_RT_PARAM_INVALID = 107000,
  ACL_ERROR_RT_INVALID_DEVICEID = 107001,
  ACL_ERROR_RT_CONTEXT_NULL = 107002,
  ACL_ERROR_RT_STREAM_CONTEXT = 107003,
  ACL_ERROR_RT_EVENT_TIMESTAMP_INVALID = 107006,
  ACL_ERROR_RT_INVALID_MEMORY_TYPE = 107016,
  ACL_ERROR_RT_INVALID_HANDLE = 107017,
  ACL_ERROR_RT_INVALID_MALLOC_TYPE = 107018,
  ACL_ERROR_RT_WAIT_TIMEOUT = 107019,
  ACL_ERROR_RT_FEATURE_NOT_SUPPORT = 207000,
  ACL_ERROR_RT_MEMORY_ALLOCATION = 207001,
  ACL_ERROR_RT_MEMORY_FREE = 207002,
  ACL_ERROR_RT_NO_DEVICE = 207004,
  ACL_ERROR_RT_DEVICE_OOM = 207018,
  ACL_ERROR_RT_INTERNAL_ERROR = 507000,
  ACL_ERROR_RT_STREAM_NOT_COMPLETE = 507004,
  ACL_ERROR_RT_EVENT_NOT_COMPLETE = 507006,
  ACL_ERROR_RT_AICORE_EXCEPTION = 507015,
  ACL_ERROR_RT_STREAM_SYNC_TIMEOUT = 507046,
  ACL_ERROR_RT_EVENT_SYNC_TIMEOUT = 507047,
};

typedef enum {
  ACL_DEVICE_INFO_UNDEFINED = -1,
  ACL_DEVICE_INFO_AI_CORE_NUM = 0,
  ACL_DEVICE_INFO_VECTOR_CORE_NUM = 1,
  ACL_DEVICE_INFO_L2_SIZE = 2
} aclDeviceInfo;

/* The SoC the simulator models, "Ascend910B1"; static, never NULL. */
ACL_FUNC_VISIBILITY const char *aclrtGetSocName(void);

/* AI_CORE_NUM: cube cores; VECTOR_CORE_NUM: vector cores of the device's
 * current properties. L2_SIZE is not modelled (ACL_ERROR_FEATURE_UNSUPPORTED). */
ACL_FUNC_VISIBILITY aclError aclGetDeviceCapability(uint32_t deviceId, aclDeviceInfo deviceInfo,
                                                    int64_t *value);

/* IEEE binary16 <-> float: round to nearest even; NaN stays NaN, infinities
 * and subnormals exact (host programs convert their fp16 data with these). */
ACL_FUNC_VISIBILITY float aclFloat16ToFloat(aclFloat16 value);
ACL_FUNC_VISIBILITY aclFloat16 aclFloatToFloat16(float value);

#ifdef __cplusplus
}
#endif
#endif
