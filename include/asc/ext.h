/* The table of runtime entry points that pyasc._C lends to optional native
 * extensions (the torch "npu" device, src/torch_npu/) as the PyCapsule
 * pyasc._C._ext_api, so that they use the same allocator and devices as
 * pyasc without linking a second copy of libasc. */
#ifndef ASC_EXT_H
#define ASC_EXT_H

#include <stddef.h>

#include "asc/status.h"

#ifdef __cplusplus
extern "C" {
#endif

#define ASC_EXT_API_CAPSULE "pyasc._C._ext_api"
#define ASC_EXT_API_VERSION 1

typedef struct asc_ext_api {
  int version; /* ASC_EXT_API_VERSION */
  /* nbytes of device memory on device, for its calling thread's current
   * stream; the caller frees *out with mem_free. */
  asc_status (*mem_alloc)(int device, size_t nbytes, void **out);
  asc_status (*mem_free)(void *ptr);
  asc_status (*device_count)(int *out);
  int (*device_current)(void);
  asc_status (*device_set)(int device);
  asc_status (*device_synchronize)(int device);
  /* The calling thread's last error message (static storage per thread). */
  const char *(*last_error)(void);
} asc_ext_api;

#ifdef __cplusplus
}
#endif
#endif
