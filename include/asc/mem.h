/* Device memory: a caching, stream-aware allocator in front of the HAL, and
 * copies in every direction.
 *
 * Freed blocks go back to a per-device cache of size classes and are reused
 * without a backend call. A block freed while work queued on its stream may
 * still touch it is reused at once by that stream (FIFO order makes that
 * safe) but handed to another stream only once that work has completed. */
#ifndef ASC_MEM_H
#define ASC_MEM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "asc/hal.h"
#include "asc/runtime.h"
#include "asc/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Every device allocation is aligned to at least this many bytes. */
#define ASC_MEM_ALIGNMENT 64

typedef struct asc_mem_stats {
  uint64_t allocated_bytes; /* live blocks, rounded to their size class */
  uint64_t requested_bytes; /* live blocks, as requested */
  uint64_t reserved_bytes;  /* held from the backend: live plus cached */
  uint64_t peak_allocated_bytes;
  uint64_t peak_reserved_bytes;
  uint64_t active_blocks;
  uint64_t cached_blocks;
  uint64_t alloc_count; /* successful asc_mem_alloc calls */
  uint64_t free_count;
  uint64_t cache_hits;
  uint64_t cache_misses;
  uint64_t backend_allocs;
  uint64_t backend_frees;
  uint64_t oom_count;
  uint64_t limit_bytes; /* 0: no limit */
  bool caching_enabled;
} asc_mem_stats;

/* What asc_mem_lookup finds about a device pointer. */
typedef struct asc_mem_range {
  int device;
  void *base;
  size_t nbytes; /* as requested at allocation */
  asc_stream_t stream;
} asc_mem_range;

/* Allocates nbytes (0 allowed) on device for use on stream; the caller owns
 * *out and frees it with asc_mem_free. */
asc_status asc_mem_alloc(int device, size_t nbytes, asc_stream_t stream, void **out);
asc_status asc_mem_free(void *ptr);
/* Marks ptr as used by another stream too: its reuse then also waits for
 * that stream's work queued before the free. */
asc_status asc_mem_record_stream(void *ptr, asc_stream_t stream);
/* Finds the live allocation containing [ptr, ptr + nbytes). */
asc_status asc_mem_lookup(const void *ptr, size_t nbytes, asc_mem_range *out);
/* Tagged addresses: the address of live device memory with its
 * allocation's generation in the top 16 bits (1 + generation % 65535, never
 * 0), for pointers stored as data (pyasc.tensor_list) that a kernel later
 * turns back into memory. The tag tells the allocation the address was
 * taken from apart from a later one that reuses the block: a stale address
 * resolves to ASC_MEM_FREED, not to the new owner's memory. A block counts
 * its allocations, so the tag differs for the block's next 65534 owners;
 * a block made anew at the address (after the cache returned the old one to
 * the backend) starts from the process's allocation count. */
#define ASC_MEM_TAG_SHIFT 48
#define ASC_MEM_TAG_MAX 65535u
typedef enum asc_mem_resolution {
  ASC_MEM_NOT_LIVE = 0, /* no live allocation (an untagged address) */
  ASC_MEM_LIVE = 1,     /* *out filled */
  ASC_MEM_FREED = 2,    /* a tagged address whose allocation was freed: use after free */
} asc_mem_resolution;
/* ptr with its live allocation's tag; ptr unchanged when it is not inside
 * one, or its top 16 bits are not zero. */
uint64_t asc_mem_tag(const void *ptr);
/* What a (possibly tagged) address refers to; never sets the last error. */
asc_mem_resolution asc_mem_resolve(uint64_t addr, asc_mem_range *out);
/* Returns cached blocks whose streams are done to the backend. */
asc_status asc_mem_empty_cache(int device);
asc_status asc_mem_get_stats(int device, asc_mem_stats *out);
asc_status asc_mem_reset_peak(int device);
/* 0 removes the limit. Beyond it asc_mem_alloc fails with
 * ASC_ERR_OUT_OF_MEMORY after trying to release cached blocks. */
asc_status asc_mem_set_limit(int device, uint64_t limit_bytes);
/* Disabled: frees go straight back to the backend once safe. */
asc_status asc_mem_set_caching(int device, bool enabled);

/* Synchronous copies wait for the current stream first, so they observe all
 * work queued on it. Device-side ranges must lie inside live allocations;
 * host-side ranges must not be device memory. */
asc_status asc_memcpy(void *dst, const void *src, size_t nbytes, asc_memcpy_kind kind);
asc_status asc_memset(void *dst, int value, size_t nbytes);
/* Asynchronous: host memory must stay valid until the stream passes it. */
asc_status asc_memcpy_async(void *dst, const void *src, size_t nbytes, asc_memcpy_kind kind,
                            asc_stream_t stream);
asc_status asc_memset_async(void *dst, int value, size_t nbytes, asc_stream_t stream);

#ifdef __cplusplus
}
#endif
#endif
