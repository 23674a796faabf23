/* What the ACL layer's files share: status translation, the calling
 * thread's device and the growth of its registries' arrays. */
#ifndef ASC_ACL_INTERNAL_H
#define ASC_ACL_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "acl/acl.h"
#include "asc/runtime.h"
#include "asc/status.h"

/* Internal to libasc: hidden, so that the shared library exports ACL's
 * names and not these (POSIX's libacl uses the acl_ prefix too). */
#define ACL_INTERNAL __attribute__((visibility("hidden")))

/* libasc handles travel in ACL's pointer-typed handles. */
_Static_assert(sizeof(uintptr_t) >= sizeof(asc_stream_t), "handles must fit in a pointer");

/* The ACL code for a libasc status (the message stays libasc's). */
ACL_INTERNAL aclError acl_from_status(asc_status status);
/* Records a printf-style message for aclGetRecentErrMsg and returns code. */
ACL_INTERNAL aclError acl_fail(aclError code, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* Room for one more element of size bytes in items, whose capacity *cap is
 * full: items realloc'd to twice *cap (first when empty), *cap updated.
 * Returns the grown array, which replaces items and stays the caller's to
 * free; NULL when out of memory, items and *cap then untouched. */
ACL_INTERNAL void *acl_grow(void *items, size_t *cap, size_t size, size_t first);
/* The calling thread's device (set by aclrtSetDevice or a context), or
 * ACL_ERROR_RT_CONTEXT_NULL naming `op`. */
ACL_INTERNAL aclError acl_need_device(const char *op, int *device);
/* NULL: the current device's default stream. */
ACL_INTERNAL aclError acl_stream_of(aclrtStream stream, const char *op, asc_stream_t *out);

static inline asc_stream_t acl_handle(const void *ptr) {
  return (asc_stream_t)(uintptr_t)ptr;
}

/* Implemented in acl_mem.c: frees every aclrtMallocHost block (aclFinalize). */
ACL_INTERNAL void acl_mem_finalize(void);

#endif
