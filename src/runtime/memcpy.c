/* Checked copies and fills between host and device memory. */
#include "asc/mem.h"
#include "runtime.h"

static const char *const kind_names[] = {"host-to-device copy", "device-to-host copy",
                                         "device-to-device copy", "host-to-host copy"};

static bool is_device(const void *ptr) {
  asc_mem_range range;
  bool found = asc_mem_lookup(ptr, 1, &range) == ASC_OK;
  asc_clear_error();
  return found;
}

/* A device-side range must lie inside one live allocation. */
static asc_status check_device_side(const void *ptr, size_t nbytes, const char *side,
                                    const char *op, int *device) {
  asc_mem_range range;
  if (asc_mem_lookup(ptr, nbytes, &range) == ASC_OK) {
    *device = range.device;
    return ASC_OK;
  }
  if (nbytes && is_device(ptr))
    return asc_error(ASC_ERR_INVALID_VALUE, "%s: %zu bytes from %s %p overrun its allocation", op,
                     nbytes, side, ptr);
  return asc_error(ASC_ERR_INVALID_VALUE,
                   "%s: %s %p is not device memory (wrong direction, or freed)", op, side, ptr);
}

static asc_status check_host_side(const void *ptr, size_t nbytes, const char *side,
                                  asc_memcpy_kind kind) {
  if (nbytes && (is_device(ptr) || is_device((const char *)ptr + nbytes - 1)))
    return asc_error(ASC_ERR_INVALID_VALUE,
                     "%s: %s %p is device memory (wrong direction: use a device kind)",
                     kind_names[kind], side, ptr);
  return ASC_OK;
}

/* Validates a copy and returns the device whose backend performs it. */
static asc_status check_copy(void *dst, const void *src, size_t nbytes, asc_memcpy_kind kind,
                             int *device) {
  asc_status st = asc_rt_ready();
  if (st) return st;
  if ((unsigned)kind > ASC_MEMCPY_HOST_TO_HOST)
    return asc_error(ASC_ERR_INVALID_VALUE, "memcpy: unknown copy kind %d", (int)kind);
  if (nbytes && (!dst || !src))
    return asc_error(ASC_ERR_INVALID_VALUE, "memcpy: NULL %s pointer",
                     dst ? "source" : "destination");
  if ((uintptr_t)dst + nbytes < (uintptr_t)dst || (uintptr_t)src + nbytes < (uintptr_t)src)
    return asc_error(ASC_ERR_INVALID_VALUE, "memcpy: %zu bytes overflow the address space", nbytes);
  *device = asc_device_current();
  bool dst_dev = kind == ASC_MEMCPY_HOST_TO_DEVICE || kind == ASC_MEMCPY_DEVICE_TO_DEVICE;
  bool src_dev = kind == ASC_MEMCPY_DEVICE_TO_HOST || kind == ASC_MEMCPY_DEVICE_TO_DEVICE;
  st = src_dev ? check_device_side(src, nbytes, "source", kind_names[kind], device)
               : check_host_side(src, nbytes, "source", kind);
  if (st == ASC_OK)
    st = dst_dev ? check_device_side(dst, nbytes, "destination", kind_names[kind], device)
                 : check_host_side(dst, nbytes, "destination", kind);
  return st;
}

static asc_status check_fill(void *dst, size_t nbytes, int *device) {
  asc_status st = asc_rt_ready();
  if (st) return st;
  return check_device_side(dst, nbytes, "destination", "memset", device);
}

asc_status asc_memcpy(void *dst, const void *src, size_t nbytes, asc_memcpy_kind kind) {
  int device = 0;
  asc_status st = check_copy(dst, src, nbytes, kind, &device);
  if (!st) st = asc_stream_synchronize(ASC_STREAM_CURRENT);
  if (!st) st = asc_rt_backend()->memcpy_sync(device, dst, src, nbytes, kind);
  return st;
}

asc_status asc_memset(void *dst, int value, size_t nbytes) {
  int device = 0;
  asc_status st = check_fill(dst, nbytes, &device);
  if (!st) st = asc_stream_synchronize(ASC_STREAM_CURRENT);
  if (!st) st = asc_rt_backend()->memset_sync(device, dst, value, nbytes);
  return st;
}

asc_status asc_memcpy_async(void *dst, const void *src, size_t nbytes, asc_memcpy_kind kind,
                            asc_stream_t stream) {
  int device = 0;
  asc_status st = check_copy(dst, src, nbytes, kind, &device);
  asc_stream_obj *s;
  if (st || (st = asc_rt_stream_get(stream, &s))) return st;
  /* The blocks must not be reused before this stream has passed the copy. */
  if (kind == ASC_MEMCPY_HOST_TO_DEVICE || kind == ASC_MEMCPY_DEVICE_TO_DEVICE)
    st = asc_mem_record_stream(dst, s->handle);
  if (!st && (kind == ASC_MEMCPY_DEVICE_TO_HOST || kind == ASC_MEMCPY_DEVICE_TO_DEVICE))
    st = asc_mem_record_stream((void *)src, s->handle);
  if (!st) st = asc_rt_backend()->memcpy_async(s->impl, dst, src, nbytes, kind);
  asc_rt_stream_put(s);
  return st;
}

asc_status asc_memset_async(void *dst, int value, size_t nbytes, asc_stream_t stream) {
  int device = 0;
  asc_status st = check_fill(dst, nbytes, &device);
  asc_stream_obj *s;
  if (st || (st = asc_rt_stream_get(stream, &s))) return st;
  st = asc_mem_record_stream(dst, s->handle);
  if (!st) st = asc_rt_backend()->memset_async(s->impl, dst, value, nbytes);
  asc_rt_stream_put(s);
  return st;
}
