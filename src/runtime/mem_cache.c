/* The caching allocator: size-class free lists per device in front of the
 * backend, with stream-aware reuse (see asc/mem.h). One lock guards it all:
 * every operation is a few list and array updates. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "asc/mem.h"
#include "runtime.h"

/* Class 0 is 64 bytes; above it each octave has four classes, 25% apart. */
#define NCLASSES 240
#define MAX_REQUEST ((size_t)1 << 62)
#define INLINE_STREAMS 2

typedef struct mem_block {
  void *ptr;
  size_t size;      /* the class size: what the backend holds */
  size_t requested; /* what the caller asked for */
  int device;
  int cls;
  bool live;
  uint64_t gen; /* which allocation holds the block (asc_mem_tag) */
  /* Streams that used the block: [0] allocated it, the rest were recorded.
   * ticks[i] is streams[i]'s position when the block was freed. */
  asc_stream_obj **streams;
  uint64_t *ticks;
  uint32_t nstreams, cap_streams;
  asc_stream_obj *inline_streams[INLINE_STREAMS];
  uint64_t inline_ticks[INLINE_STREAMS];
  struct mem_block *next_free;
} mem_block;

typedef struct mem_device {
  bool configured;
  bool caching;
  uint64_t limit;
  mem_block *free_lists[NCLASSES];
  asc_mem_stats stats;
} mem_device;

static pthread_mutex_t mem_lock = PTHREAD_MUTEX_INITIALIZER;
static mem_device devices[ASC_MAX_DEVICES];
/* Every block the backend holds for us, sorted by address, for lookups of
 * interior pointers. Changes only on backend calls (cache misses). */
static mem_block **by_addr;
static size_t nblocks, cap_blocks;
/* Allocations so far: where a new block's generations start. */
static uint64_t next_gen;

void asc_mem_at_fork(asc_fork_phase phase) {
  /* Blocks stay valid in the child: memory is host memory, copied by fork. */
  if (phase == ASC_FORK_PREPARE)
    pthread_mutex_lock(&mem_lock);
  else
    pthread_mutex_unlock(&mem_lock);
}

static size_t class_of(size_t n, int *cls) {
  if (n <= 64) {
    *cls = 0;
    return 64;
  }
  int octave = 63 - __builtin_clzll((unsigned long long)(n - 1)); /* 2^o <= n-1 */
  size_t step = (size_t)1 << (octave - 2);
  size_t size = (n + step - 1) & ~(step - 1);
  *cls = 1 + (octave - 6) * 4 + (int)(size / step) - 5;
  return size;
}

static mem_device *device_state(int device) {
  mem_device *d = &devices[device];
  if (!d->configured) {
    const char *off = getenv("PYASC_NO_MEMORY_CACHING");
    d->caching = !(off && *off && strcmp(off, "0") != 0);
    d->configured = true;
  }
  return d;
}

/* Index of the block with the greatest base <= ptr, or -1. */
static ptrdiff_t find_index(const void *ptr) {
  ptrdiff_t lo = 0, hi = (ptrdiff_t)nblocks - 1, found = -1;
  while (lo <= hi) {
    ptrdiff_t mid = lo + (hi - lo) / 2;
    if ((uintptr_t)by_addr[mid]->ptr <= (uintptr_t)ptr)
      found = mid, lo = mid + 1;
    else
      hi = mid - 1;
  }
  return found;
}

static asc_status index_block(mem_block *b) {
  if (nblocks == cap_blocks) {
    size_t cap = cap_blocks ? cap_blocks * 2 : 64;
    mem_block **grown = realloc(by_addr, cap * sizeof *grown);
    if (!grown) return asc_error(ASC_ERR_OUT_OF_MEMORY, "cannot grow the allocation index");
    by_addr = grown;
    cap_blocks = cap;
  }
  size_t at = (size_t)(find_index(b->ptr) + 1);
  memmove(&by_addr[at + 1], &by_addr[at], (nblocks - at) * sizeof *by_addr);
  by_addr[at] = b;
  nblocks++;
  return ASC_OK;
}

static void unindex_block(mem_block *b) {
  ptrdiff_t at = find_index(b->ptr);
  if (at < 0 || by_addr[at] != b) return;
  memmove(&by_addr[at], &by_addr[at + 1], (nblocks - (size_t)at - 1) * sizeof *by_addr);
  nblocks--;
}

static void drop_streams(mem_block *b) {
  for (uint32_t i = 0; i < b->nstreams; i++) asc_rt_stream_put(b->streams[i]);
  b->nstreams = 0;
}

static bool stream_passed(const mem_block *b, uint32_t i) {
  return asc_rt_backend()->stream_reached(b->streams[i]->impl, b->ticks[i]);
}

/* May stream s take this freed block now? Its own queued work is ordered
 * after the free; every other stream must have passed the free. */
static bool ready_for(const mem_block *b, const asc_stream_obj *s) {
  for (uint32_t i = 0; i < b->nstreams; i++)
    if (b->streams[i] != s && !stream_passed(b, i)) return false;
  return true;
}

static void release_block(mem_block *b) {
  mem_device *d = &devices[b->device];
  (void)asc_rt_backend()->mem_free(b->device, b->ptr, b->size);
  unindex_block(b);
  d->stats.reserved_bytes -= b->size;
  d->stats.backend_frees++;
  drop_streams(b);
  if (b->streams != b->inline_streams) {
    free(b->streams);
    free(b->ticks);
  }
  free(b);
}

/* Returns idle cached blocks of a device to the backend. */
static void release_idle(mem_device *d) {
  for (int c = 0; c < NCLASSES; c++) {
    mem_block **link = &d->free_lists[c];
    while (*link) {
      mem_block *b = *link;
      if (ready_for(b, NULL)) {
        *link = b->next_free;
        d->stats.cached_blocks--;
        release_block(b);
      } else {
        link = &b->next_free;
      }
    }
  }
}

static mem_block *take_cached(mem_device *d, int cls, const asc_stream_obj *s) {
  for (mem_block **link = &d->free_lists[cls]; *link; link = &(*link)->next_free) {
    mem_block *b = *link;
    if (!ready_for(b, s)) continue;
    *link = b->next_free;
    d->stats.cached_blocks--;
    drop_streams(b);
    return b;
  }
  return NULL;
}

static asc_status out_of_memory(int device, mem_device *d, size_t nbytes, size_t size,
                                const char *why) {
  d->stats.oom_count++;
  return asc_error(ASC_ERR_OUT_OF_MEMORY,
                   "device %d out of memory: tried to allocate %zu bytes (%zu with rounding); %s; "
                   "%llu bytes allocated, %llu reserved (%llu cached blocks)",
                   device, nbytes, size, why, (unsigned long long)d->stats.allocated_bytes,
                   (unsigned long long)d->stats.reserved_bytes,
                   (unsigned long long)d->stats.cached_blocks);
}

static asc_status backend_block(int device, mem_device *d, size_t nbytes, size_t size, int cls,
                                mem_block **out) {
  char why[128] = "the device has no free memory";
  if (d->limit && d->stats.reserved_bytes + size > d->limit) release_idle(d);
  if (d->limit && d->stats.reserved_bytes + size > d->limit) {
    snprintf(why, sizeof why, "the memory limit is %llu bytes", (unsigned long long)d->limit);
    return out_of_memory(device, d, nbytes, size, why);
  }
  mem_block *b = calloc(1, sizeof *b);
  if (!b) return asc_error(ASC_ERR_OUT_OF_MEMORY, "cannot allocate a block record");
  asc_status st = asc_rt_backend()->mem_alloc(device, size, &b->ptr);
  if (st == ASC_OK && !(st = index_block(b))) {
  } else if (st == ASC_ERR_OUT_OF_MEMORY && d->stats.cached_blocks) {
    release_idle(d); /* cached memory may be what the backend lacks */
    st = asc_rt_backend()->mem_alloc(device, size, &b->ptr);
    if (st == ASC_OK) st = index_block(b);
  }
  if (st) {
    if (b->ptr) (void)asc_rt_backend()->mem_free(device, b->ptr, size);
    free(b);
    if (st == ASC_ERR_OUT_OF_MEMORY)
      return out_of_memory(device, d, nbytes, size, asc_last_error());
    return st;
  }
  b->size = size;
  b->device = device;
  b->cls = cls;
  b->streams = b->inline_streams;
  b->ticks = b->inline_ticks;
  b->cap_streams = INLINE_STREAMS;
  d->stats.reserved_bytes += size;
  d->stats.backend_allocs++;
  if (d->stats.reserved_bytes > d->stats.peak_reserved_bytes)
    d->stats.peak_reserved_bytes = d->stats.reserved_bytes;
  *out = b;
  return ASC_OK;
}

asc_status asc_mem_alloc(int device, size_t nbytes, asc_stream_t stream, void **out) {
  if (!out) return asc_error(ASC_ERR_INVALID_VALUE, "alloc: out is NULL");
  asc_status st = asc_rt_check_device(device);
  if (st) return st;
  if (nbytes > MAX_REQUEST)
    return asc_error(ASC_ERR_OUT_OF_MEMORY, "alloc: %zu bytes is beyond any device", nbytes);
  asc_stream_obj *s;
  if (stream == ASC_STREAM_CURRENT) st = asc_stream_current(device, &stream);
  if (st || (st = asc_rt_stream_get(stream, &s))) return st;
  if (s->device != device) {
    int other = s->device;
    asc_rt_stream_put(s);
    return asc_error(ASC_ERR_INVALID_VALUE, "alloc: the stream belongs to device %d, not %d", other,
                     device);
  }
  int cls;
  size_t size = class_of(nbytes, &cls);
  pthread_mutex_lock(&mem_lock);
  mem_device *d = device_state(device);
  mem_block *b = d->caching ? take_cached(d, cls, s) : NULL;
  bool hit = b != NULL;
  if (b)
    d->stats.cache_hits++;
  else {
    d->stats.cache_misses++;
    st = backend_block(device, d, nbytes, size, cls, &b);
  }
  if (st == ASC_OK) {
    b->live = true;
    /* A reused block counts on, so its next 65534 owners' tags all differ
     * from a stale one's; a new block starts from the allocation count,
     * unrelated to what an earlier block at its address counted. */
    next_gen++;
    b->gen = hit ? b->gen + 1 : next_gen;
    b->requested = nbytes;
    b->streams[0] = s; /* takes over our reference */
    b->nstreams = 1;
    d->stats.alloc_count++;
    d->stats.active_blocks++;
    d->stats.allocated_bytes += b->size;
    d->stats.requested_bytes += nbytes;
    if (d->stats.allocated_bytes > d->stats.peak_allocated_bytes)
      d->stats.peak_allocated_bytes = d->stats.allocated_bytes;
    *out = b->ptr;
  }
  pthread_mutex_unlock(&mem_lock);
  if (st) asc_rt_stream_put(s);
  return st;
}

/* The live block whose base is ptr; mem_lock held. */
static mem_block *live_block_at(const void *ptr) {
  ptrdiff_t at = find_index(ptr);
  if (at < 0 || by_addr[at]->ptr != ptr || !by_addr[at]->live) return NULL;
  return by_addr[at];
}

asc_status asc_mem_free(void *ptr) {
  if (!ptr) return ASC_OK;
  asc_status st = asc_rt_ready();
  if (st) return st;
  pthread_mutex_lock(&mem_lock);
  mem_block *b = live_block_at(ptr);
  if (b) {
    mem_device *d = &devices[b->device];
    for (uint32_t i = 0; i < b->nstreams; i++)
      b->ticks[i] = asc_rt_backend()->stream_tick(b->streams[i]->impl);
    b->live = false;
    d->stats.free_count++;
    d->stats.active_blocks--;
    d->stats.allocated_bytes -= b->size;
    d->stats.requested_bytes -= b->requested;
    if (!d->caching && ready_for(b, NULL)) {
      release_block(b);
    } else {
      b->next_free = d->free_lists[b->cls];
      d->free_lists[b->cls] = b;
      d->stats.cached_blocks++;
    }
    /* Uncached: earlier frees that were pending may be safe by now. */
    if (!d->caching) release_idle(d);
  }
  pthread_mutex_unlock(&mem_lock);
  if (!b)
    return asc_error(ASC_ERR_INVALID_HANDLE,
                     "free: %p is not a live device allocation (already freed, or not from "
                     "asc_mem_alloc)",
                     ptr);
  return ASC_OK;
}

static asc_status add_stream(mem_block *b, asc_stream_obj *s) {
  for (uint32_t i = 0; i < b->nstreams; i++)
    if (b->streams[i] == s) return ASC_OK;
  if (b->nstreams == b->cap_streams) {
    uint32_t cap = b->cap_streams * 2;
    asc_stream_obj **streams = malloc(cap * sizeof *streams);
    uint64_t *ticks = malloc(cap * sizeof *ticks);
    if (!streams || !ticks) {
      free(streams);
      free(ticks);
      return asc_error(ASC_ERR_OUT_OF_MEMORY, "record_stream: cannot grow the stream list");
    }
    memcpy(streams, b->streams, b->nstreams * sizeof *streams);
    if (b->streams != b->inline_streams) {
      free(b->streams);
      free(b->ticks);
    }
    b->streams = streams;
    b->ticks = ticks;
    b->cap_streams = cap;
  }
  asc_rt_stream_retain(s);
  b->streams[b->nstreams++] = s;
  return ASC_OK;
}

/* The live block containing [ptr, ptr + nbytes); mem_lock held. */
static mem_block *live_block_containing(const void *ptr, size_t nbytes) {
  ptrdiff_t at = find_index(ptr);
  if (at < 0) return NULL;
  mem_block *b = by_addr[at];
  uintptr_t offset = (uintptr_t)ptr - (uintptr_t)b->ptr;
  if (!b->live || offset > b->requested || nbytes > b->requested - offset) return NULL;
  return b;
}

asc_status asc_mem_record_stream(void *ptr, asc_stream_t stream) {
  asc_stream_obj *s;
  asc_status st = asc_rt_stream_get(stream, &s);
  if (st) return st;
  pthread_mutex_lock(&mem_lock);
  mem_block *b = live_block_containing(ptr, 0);
  if (b) st = add_stream(b, s);
  pthread_mutex_unlock(&mem_lock);
  asc_rt_stream_put(s);
  if (!b)
    return asc_error(ASC_ERR_INVALID_HANDLE, "record_stream: %p is not live device memory", ptr);
  return st;
}

/* What asc_mem_lookup and asc_mem_resolve report of a live block; under mem_lock. */
static void describe_block(const mem_block *b, asc_mem_range *out) {
  out->device = b->device;
  out->base = b->ptr;
  out->nbytes = b->requested;
  out->stream = b->streams[0]->handle;
}

asc_status asc_mem_lookup(const void *ptr, size_t nbytes, asc_mem_range *out) {
  asc_status st = asc_rt_ready();
  if (st) return st;
  pthread_mutex_lock(&mem_lock);
  mem_block *b = live_block_containing(ptr, nbytes);
  if (b && out) describe_block(b, out);
  pthread_mutex_unlock(&mem_lock);
  if (!b)
    return asc_error(ASC_ERR_INVALID_VALUE,
                     "%zu bytes at %p are not inside one live device allocation", nbytes, ptr);
  return ASC_OK;
}

static uint64_t tag_of(uint64_t gen) {
  return 1 + gen % ASC_MEM_TAG_MAX;
}

uint64_t asc_mem_tag(const void *ptr) {
  uint64_t p = (uint64_t)(uintptr_t)ptr;
  if (p >> ASC_MEM_TAG_SHIFT || asc_rt_ready()) return p; /* no room for a tag, or no runtime */
  pthread_mutex_lock(&mem_lock);
  mem_block *b = live_block_containing(ptr, 1); /* as asc_mem_resolve finds it */
  if (b) p |= tag_of(b->gen) << ASC_MEM_TAG_SHIFT;
  pthread_mutex_unlock(&mem_lock);
  return p;
}

asc_mem_resolution asc_mem_resolve(uint64_t addr, asc_mem_range *out) {
  uint64_t tag = addr >> ASC_MEM_TAG_SHIFT;
  const void *ptr = (const void *)(uintptr_t)(addr & (((uint64_t)1 << ASC_MEM_TAG_SHIFT) - 1));
  if (asc_rt_ready()) return tag ? ASC_MEM_FREED : ASC_MEM_NOT_LIVE;
  pthread_mutex_lock(&mem_lock);
  mem_block *b = live_block_containing(ptr, 1);
  if (b && tag && tag_of(b->gen) != tag) b = NULL;
  if (b && out) describe_block(b, out);
  pthread_mutex_unlock(&mem_lock);
  if (b) return ASC_MEM_LIVE;
  /* A tag is only ever given to a live allocation's address: one that no
   * longer matches names an allocation freed since, whatever holds its
   * memory now (a later allocation, the cache, the backend). */
  return tag ? ASC_MEM_FREED : ASC_MEM_NOT_LIVE;
}

/* The per-device settings and statistics below all check the device, then
 * read or change its state under mem_lock: on success the lock is held and
 * the caller unlocks it. */
static asc_status lock_device(int device, mem_device **out) {
  asc_status st = asc_rt_check_device(device);
  if (st) return st;
  pthread_mutex_lock(&mem_lock);
  *out = device_state(device);
  return ASC_OK;
}

asc_status asc_mem_empty_cache(int device) {
  mem_device *d;
  asc_status st = lock_device(device, &d);
  if (st) return st;
  release_idle(d);
  pthread_mutex_unlock(&mem_lock);
  return ASC_OK;
}

asc_status asc_mem_get_stats(int device, asc_mem_stats *out) {
  mem_device *d;
  asc_status st = lock_device(device, &d);
  if (st) return st;
  *out = d->stats;
  out->limit_bytes = d->limit;
  out->caching_enabled = d->caching;
  pthread_mutex_unlock(&mem_lock);
  return ASC_OK;
}

asc_status asc_mem_reset_peak(int device) {
  mem_device *d;
  asc_status st = lock_device(device, &d);
  if (st) return st;
  d->stats.peak_allocated_bytes = d->stats.allocated_bytes;
  d->stats.peak_reserved_bytes = d->stats.reserved_bytes;
  pthread_mutex_unlock(&mem_lock);
  return ASC_OK;
}

asc_status asc_mem_set_limit(int device, uint64_t limit_bytes) {
  mem_device *d;
  asc_status st = lock_device(device, &d);
  if (st) return st;
  d->limit = limit_bytes;
  if (limit_bytes && d->stats.reserved_bytes > limit_bytes) release_idle(d);
  pthread_mutex_unlock(&mem_lock);
  return ASC_OK;
}

asc_status asc_mem_set_caching(int device, bool enabled) {
  mem_device *d;
  asc_status st = lock_device(device, &d);
  if (st) return st;
  d->caching = enabled;
  if (!enabled) release_idle(d);
  pthread_mutex_unlock(&mem_lock);
  return ASC_OK;
}

void asc_mem_shutdown(void) {
  pthread_mutex_lock(&mem_lock);
  while (nblocks) release_block(by_addr[nblocks - 1]);
  free(by_addr);
  by_addr = NULL;
  cap_blocks = 0;
  memset(devices, 0, sizeof devices);
  pthread_mutex_unlock(&mem_lock);
}
