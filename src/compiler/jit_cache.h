/* The JIT's disk cache (jit_cache.c), shared with the build (jit.c): the
 * cache directory's checks, entries with their checksum files, and
 * eviction. Kept apart from the build so that what may be trusted on disk
 * is read in one place. */
#ifndef ASC_COMPILER_JIT_CACHE_H
#define ASC_COMPILER_JIT_CACHE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "asc/jit.h"

/* A printf-formatted string the caller frees; NULL on OOM. */
char *jit_format(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* A number no other temporary file of this process has used. */
unsigned long jit_next_tmp(void);
/* Writes data to a fresh temporary file next to `final`, then renames. */
asc_status jit_write_atomically(const char *final, const char *data, size_t size);

/* The files of one build, in a temporary directory of its own beside the
 * entry it becomes (named <entry>.tmp-...): fixed names, since the source's
 * name is in the object and racing builds must produce the same bytes. */
#define JIT_BUILD_SOURCE "kernel.c"
#define JIT_BUILD_OBJECT "kernel.so"

/* mkdir -p dir (0700), then refuses it unless it and the way to it are ours
 * and writable by nobody else. */
asc_status jit_cache_prepare(const char *dir);
/* Whether the object at so_path is entry `key`'s, as its .sum vouches; a
 * hit refreshes its place in the LRU order. */
bool jit_cache_valid(const char *so_path, const char *sum_path, const char *key);
/* Moves a built object into the cache with its .sum; false (nothing
 * stored, tmp_so untouched) when the entry's names cannot be used. */
bool jit_cache_publish(const char *tmp_so, const char *so_path, const char *sum_path,
                       const char *key);
/* Evicts the least recently used entries until the cache holds at most max
 * bytes (0: no bound), never the entry whose file name is keep. */
void jit_cache_evict(const char *dir, uint64_t max, const char *keep);

#endif
