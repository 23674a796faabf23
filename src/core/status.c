/* Thread-local error messages: every failing call leaves one for its thread. */
#include <stdio.h>
#include <string.h>

#include "asc/status.h"

#ifndef ASC_VERSION
#define ASC_VERSION "0.0.0"
#endif

#define ERROR_MESSAGE_MAX 1024

static _Thread_local char last_message[ERROR_MESSAGE_MAX];
static _Thread_local asc_status last_status;

static const char *const status_names[ASC_STATUS_COUNT] = {
    [ASC_OK] = "ASC_OK",
    [ASC_ERR_INVALID_VALUE] = "ASC_ERR_INVALID_VALUE",
    [ASC_ERR_INVALID_HANDLE] = "ASC_ERR_INVALID_HANDLE",
    [ASC_ERR_OUT_OF_MEMORY] = "ASC_ERR_OUT_OF_MEMORY",
    [ASC_ERR_NOT_READY] = "ASC_ERR_NOT_READY",
    [ASC_ERR_DEVICE] = "ASC_ERR_DEVICE",
    [ASC_ERR_KERNEL] = "ASC_ERR_KERNEL",
    [ASC_ERR_TYPE] = "ASC_ERR_TYPE",
    [ASC_ERR_INDEX] = "ASC_ERR_INDEX",
    [ASC_ERR_UNSUPPORTED] = "ASC_ERR_UNSUPPORTED",
    [ASC_ERR_COMPILE] = "ASC_ERR_COMPILE",
    [ASC_ERR_INTERNAL] = "ASC_ERR_INTERNAL",
};

const char *asc_status_name(asc_status status) {
  if ((unsigned)status >= ASC_STATUS_COUNT) return "ASC_ERR_UNKNOWN";
  return status_names[status];
}

const char *asc_last_error(void) {
  return last_message;
}

asc_status asc_last_status(void) {
  return last_status;
}

void asc_clear_error(void) {
  last_message[0] = '\0';
  last_status = ASC_OK;
}

asc_status asc_verror(asc_status status, const char *fmt, va_list ap) {
  char scratch[ERROR_MESSAGE_MAX];
  /* fmt may format the current message itself ("%s", asc_last_error()). */
  vsnprintf(scratch, sizeof scratch, fmt, ap);
  memcpy(last_message, scratch, sizeof last_message);
  last_status = status;
  return status;
}

asc_status asc_error(asc_status status, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  asc_verror(status, fmt, ap);
  va_end(ap);
  return status;
}

const char *asc_version(void) {
  return ASC_VERSION;
}
