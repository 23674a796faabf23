/* Status codes and the thread-local error message shared by every libasc call. */
#ifndef ASC_STATUS_H
#define ASC_STATUS_H

#include <stdarg.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Every public libasc function that can fail returns one of these; on failure
 * asc_last_error() holds a human-readable message for the calling thread. */
typedef enum asc_status {
  ASC_OK = 0,
  ASC_ERR_INVALID_VALUE,  /* an argument is out of range or malformed */
  ASC_ERR_INVALID_HANDLE, /* unknown, destroyed or foreign stream/event/pointer */
  ASC_ERR_OUT_OF_MEMORY,  /* allocation failed or the memory limit was hit */
  ASC_ERR_NOT_READY,      /* a query found work still pending (not a failure) */
  ASC_ERR_DEVICE,         /* the device or work queued on it failed */
  ASC_ERR_KERNEL,         /* a kernel reported an error while running */
  ASC_ERR_TYPE,           /* an operand has the wrong type or dtype */
  ASC_ERR_INDEX,          /* an index is out of range */
  ASC_ERR_UNSUPPORTED,    /* valid request the device or build cannot do */
  ASC_ERR_COMPILE,        /* kernel compilation failed */
  ASC_ERR_INTERNAL,       /* a libasc invariant broke: a bug in libasc */
  ASC_STATUS_COUNT
} asc_status;

/* Static name such as "ASC_ERR_INVALID_VALUE"; never NULL. */
const char *asc_status_name(asc_status status);

/* The calling thread's message for its last failing call. The pointer is
 * owned by libasc and stays valid until the thread's next failing call. */
const char *asc_last_error(void);

/* Status of the calling thread's last failing call (ASC_OK after clear). */
asc_status asc_last_status(void);

void asc_clear_error(void);

/* Records status and a printf-style message for this thread; returns status
 * so that callers can write `return asc_error(ASC_ERR_..., "...")`. */
asc_status asc_error(asc_status status, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
asc_status asc_verror(asc_status status, const char *fmt, va_list ap);

/* libasc's version string, e.g. "0.1.0"; static. */
const char *asc_version(void);

#ifdef __cplusplus
}
#endif
#endif
