/* What the ACL layer's files share: status translation and the calling
 * thread's device. */
#ifndef ASC_ACL_INTERNAL_H
#define ASC_ACL_INTERNAL_H

#include <stdint.h>

#include "acl/acl.h"
#include "asc/runtime.h"
#include "asc/status.h"

/* libasc handles travel in ACL's pointer-typed handles. */
_Static_assert(sizeof(uintptr_t) >= sizeof(asc_stream_t), "handles must fit in a pointer");

/* The ACL code for a libasc status (the message stays libasc's). */
aclError acl_from_status(asc_status status);
/* Records a printf-style message for aclGetRecentErrMsg and returns code. */
aclError acl_fail(aclError code, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The calling thread's device (set by aclrtSetDevice or a context), or
 * ACL_ERROR_RT_CONTEXT_NULL naming `op`. */
aclError acl_need_device(const char *op, int *device);
/* NULL: the current device's default stream. */
aclError acl_stream_of(aclrtStream stream, const char *op, asc_stream_t *out);

static inline asc_stream_t acl_handle(const void *ptr) {
  return (asc_stream_t)(uintptr_t)ptr;
}

/* Implemented in acl_mem.c: frees every aclrtMallocHost block (aclFinalize). */
void acl_mem_finalize(void);

#endif
