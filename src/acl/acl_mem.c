/* ACL's memory calls: device memory is libasc's caching allocator, host
 * memory is tracked here so that frees and fills can be checked. */
#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "acl_internal.h"
#include "asc/mem.h"

typedef struct host_block {
  void *ptr;
  size_t size;
} host_block;

static pthread_mutex_t host_lock = PTHREAD_MUTEX_INITIALIZER;
static host_block *hosts; /* live aclrtMallocHost blocks, unordered */
static size_t nhosts, hosts_cap;

/* Under host_lock: the block containing [ptr, ptr + count), or -1. */
static ptrdiff_t find_host(const void *ptr, size_t count) {
  uintptr_t p = (uintptr_t)ptr;
  for (size_t i = 0; i < nhosts; i++) {
    uintptr_t base = (uintptr_t)hosts[i].ptr;
    if (p >= base && p - base <= hosts[i].size && count <= hosts[i].size - (p - base))
      return (ptrdiff_t)i;
  }
  return -1;
}

static bool is_host_block(const void *ptr, size_t count) {
  pthread_mutex_lock(&host_lock);
  bool found = find_host(ptr, count) >= 0;
  pthread_mutex_unlock(&host_lock);
  return found;
}

static bool is_device(const void *ptr) {
  asc_mem_range range;
  bool found = asc_mem_lookup(ptr, 1, &range) == ASC_OK;
  asc_clear_error();
  return found;
}

void acl_mem_finalize(void) {
  pthread_mutex_lock(&host_lock);
  for (size_t i = 0; i < nhosts; i++) free(hosts[i].ptr);
  free(hosts);
  hosts = NULL;
  nhosts = hosts_cap = 0;
  pthread_mutex_unlock(&host_lock);
}

aclError aclrtMalloc(void **devPtr, size_t size, aclrtMemMallocPolicy policy) {
  if (!devPtr) return acl_fail(ACL_ERROR_INVALID_PARAM, "aclrtMalloc: NULL devPtr");
  if (size == 0) return acl_fail(ACL_ERROR_INVALID_PARAM, "aclrtMalloc: size 0");
  unsigned bits = (unsigned)policy;
  const unsigned flags = ACL_MEM_TYPE_LOW_BAND_WIDTH | ACL_MEM_TYPE_HIGH_BAND_WIDTH |
                         ACL_MEM_ACCESS_USER_SPACE_READONLY;
  if ((bits & 0xffu) > ACL_MEM_MALLOC_HUGE1G_ONLY_P2P || (bits & ~0xffu & ~flags))
    return acl_fail(ACL_ERROR_INVALID_PARAM, "aclrtMalloc: unknown policy 0x%x", bits);
  int device = -1;
  aclError err = acl_need_device("aclrtMalloc", &device);
  if (err) return err;
  void *ptr = NULL;
  if ((err = acl_from_status(asc_mem_alloc(device, size, ASC_STREAM_CURRENT, &ptr)))) return err;
  *devPtr = ptr;
  return ACL_SUCCESS;
}

aclError aclrtFree(void *devPtr) {
  if (!devPtr) return acl_fail(ACL_ERROR_INVALID_PARAM, "aclrtFree: NULL devPtr");
  if (is_host_block(devPtr, 0))
    return acl_fail(ACL_ERROR_INVALID_PARAM, "aclrtFree: %p is host memory (use aclrtFreeHost)",
                    devPtr);
  asc_status st = asc_mem_free(devPtr);
  /* A pointer that is not a live allocation is a bad argument to ACL. */
  return st == ASC_ERR_INVALID_HANDLE ? ACL_ERROR_INVALID_PARAM : acl_from_status(st);
}

aclError aclrtMallocHost(void **hostPtr, size_t size) {
  if (!hostPtr) return acl_fail(ACL_ERROR_INVALID_PARAM, "aclrtMallocHost: NULL hostPtr");
  if (size == 0) return acl_fail(ACL_ERROR_INVALID_PARAM, "aclrtMallocHost: size 0");
  void *ptr = NULL;
  if (posix_memalign(&ptr, ASC_MEM_ALIGNMENT, size) != 0)
    return acl_fail(ACL_ERROR_RT_MEMORY_ALLOCATION, "aclrtMallocHost: cannot allocate %zu bytes",
                    size);
  pthread_mutex_lock(&host_lock);
  if (nhosts == hosts_cap) {
    host_block *grown = acl_grow(hosts, &hosts_cap, sizeof *grown, 16);
    if (!grown) {
      pthread_mutex_unlock(&host_lock);
      free(ptr);
      return acl_fail(ACL_ERROR_RT_MEMORY_ALLOCATION, "aclrtMallocHost: out of memory");
    }
    hosts = grown;
  }
  hosts[nhosts++] = (host_block){ptr, size};
  pthread_mutex_unlock(&host_lock);
  *hostPtr = ptr;
  return ACL_SUCCESS;
}

aclError aclrtFreeHost(void *hostPtr) {
  if (!hostPtr) return acl_fail(ACL_ERROR_INVALID_PARAM, "aclrtFreeHost: NULL hostPtr");
  pthread_mutex_lock(&host_lock);
  ptrdiff_t at = -1;
  for (size_t i = 0; i < nhosts && at < 0; i++)
    if (hosts[i].ptr == hostPtr) at = (ptrdiff_t)i;
  if (at >= 0) hosts[at] = hosts[--nhosts];
  pthread_mutex_unlock(&host_lock);
  if (at < 0)
    return acl_fail(ACL_ERROR_INVALID_PARAM,
                    "aclrtFreeHost: %p is not a live block from aclrtMallocHost (already freed, "
                    "or device memory: use aclrtFree)",
                    hostPtr);
  free(hostPtr);
  return ACL_SUCCESS;
}

/* Checks what every copy shares and picks libasc's kind. */
static aclError copy_kind(void *dst, size_t destMax, const void *src, size_t count,
                          aclrtMemcpyKind kind, const char *op, asc_memcpy_kind *out) {
  if (!dst || !src)
    return acl_fail(ACL_ERROR_INVALID_PARAM, "%s: NULL %s", op, dst ? "src" : "dst");
  if (count > destMax)
    return acl_fail(ACL_ERROR_INVALID_PARAM, "%s: %zu bytes do not fit destMax %zu", op, count,
                    destMax);
  switch (kind) {
    case ACL_MEMCPY_HOST_TO_HOST:
      *out = ASC_MEMCPY_HOST_TO_HOST;
      return ACL_SUCCESS;
    case ACL_MEMCPY_HOST_TO_DEVICE:
    case ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE:
      *out = ASC_MEMCPY_HOST_TO_DEVICE;
      return ACL_SUCCESS;
    case ACL_MEMCPY_DEVICE_TO_HOST:
      *out = ASC_MEMCPY_DEVICE_TO_HOST;
      return ACL_SUCCESS;
    case ACL_MEMCPY_DEVICE_TO_DEVICE:
    case ACL_MEMCPY_INNER_DEVICE_TO_DEVICE:
    case ACL_MEMCPY_INTER_DEVICE_TO_DEVICE:
      *out = ASC_MEMCPY_DEVICE_TO_DEVICE;
      return ACL_SUCCESS;
    case ACL_MEMCPY_DEFAULT: {
      bool to_dev = is_device(dst), from_dev = is_device(src);
      *out = to_dev ? (from_dev ? ASC_MEMCPY_DEVICE_TO_DEVICE : ASC_MEMCPY_HOST_TO_DEVICE)
                    : (from_dev ? ASC_MEMCPY_DEVICE_TO_HOST : ASC_MEMCPY_HOST_TO_HOST);
      return ACL_SUCCESS;
    }
  }
  return acl_fail(ACL_ERROR_INVALID_PARAM, "%s: unknown copy kind %d", op, (int)kind);
}

aclError aclrtMemcpy(void *dst, size_t destMax, const void *src, size_t count,
                     aclrtMemcpyKind kind) {
  asc_memcpy_kind k = ASC_MEMCPY_HOST_TO_HOST;
  aclError err = copy_kind(dst, destMax, src, count, kind, "aclrtMemcpy", &k);
  return err ? err : acl_from_status(asc_memcpy(dst, src, count, k));
}

aclError aclrtMemcpyAsync(void *dst, size_t destMax, const void *src, size_t count,
                          aclrtMemcpyKind kind, aclrtStream stream) {
  asc_memcpy_kind k = ASC_MEMCPY_HOST_TO_HOST;
  asc_stream_t handle = 0;
  aclError err = copy_kind(dst, destMax, src, count, kind, "aclrtMemcpyAsync", &k);
  if (err || (err = acl_stream_of(stream, "aclrtMemcpyAsync", &handle))) return err;
  return acl_from_status(asc_memcpy_async(dst, src, count, k, handle));
}

/* Device memory: ASC_OK with *device_side; host blocks: ASC_OK without. */
static aclError fill_target(void *ptr, size_t maxCount, size_t count, const char *op,
                            bool *device_side) {
  if (!ptr) return acl_fail(ACL_ERROR_INVALID_PARAM, "%s: NULL devPtr", op);
  if (count > maxCount)
    return acl_fail(ACL_ERROR_INVALID_PARAM, "%s: %zu bytes do not fit maxCount %zu", op, count,
                    maxCount);
  *device_side = is_device(ptr);
  if (*device_side || is_host_block(ptr, count)) return ACL_SUCCESS;
  if (is_host_block(ptr, 0))
    return acl_fail(ACL_ERROR_INVALID_PARAM, "%s: %zu bytes from %p overrun its host block", op,
                    count, ptr);
  return acl_fail(ACL_ERROR_INVALID_PARAM,
                  "%s: %p is neither live device memory nor a block from aclrtMallocHost", op, ptr);
}

aclError aclrtMemset(void *devPtr, size_t maxCount, int32_t value, size_t count) {
  bool device_side = false;
  aclError err = fill_target(devPtr, maxCount, count, "aclrtMemset", &device_side);
  if (err) return err;
  if (device_side) return acl_from_status(asc_memset(devPtr, value, count));
  memset(devPtr, value, count);
  return ACL_SUCCESS;
}

aclError aclrtMemsetAsync(void *devPtr, size_t maxCount, int32_t value, size_t count,
                          aclrtStream stream) {
  bool device_side = false;
  asc_stream_t handle = 0;
  aclError err = fill_target(devPtr, maxCount, count, "aclrtMemsetAsync", &device_side);
  if (err || (err = acl_stream_of(stream, "aclrtMemsetAsync", &handle))) return err;
  if (device_side) return acl_from_status(asc_memset_async(devPtr, value, count, handle));
  /* Host memory is filled by the host: once the stream's earlier work is
   * done, so that the order ACL promises holds. */
  if ((err = acl_from_status(asc_stream_synchronize(handle)))) return err;
  memset(devPtr, value, count);
  return ACL_SUCCESS;
}

aclError aclrtGetMemInfo(aclrtMemAttr attr, size_t *free, size_t *total) {
  if (!free || !total)
    return acl_fail(ACL_ERROR_INVALID_PARAM, "aclrtGetMemInfo: NULL %s", free ? "total" : "free");
  if ((unsigned)attr > ACL_HBM_MEM_P2P_HUGE1G)
    return acl_fail(ACL_ERROR_INVALID_PARAM, "aclrtGetMemInfo: unknown attribute %d", (int)attr);
  int device = -1;
  aclError err = acl_need_device("aclrtGetMemInfo", &device);
  if (err) return err;
  asc_device_props props;
  asc_mem_stats stats;
  if ((err = acl_from_status(asc_device_get_props(device, &props))) ||
      (err = acl_from_status(asc_mem_get_stats(device, &stats))))
    return err;
  uint64_t cap = props.global_mem_size;
  if (stats.limit_bytes && stats.limit_bytes < cap) cap = stats.limit_bytes;
  *total = props.global_mem_size;
  *free = cap > stats.reserved_bytes ? (size_t)(cap - stats.reserved_bytes) : 0;
  return ACL_SUCCESS;
}
