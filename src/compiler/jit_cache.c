/* The JIT's disk cache: a directory only the user may write (else loading a
 * shared object from it would run someone else's code), entries
 * "<name in [A-Za-z0-9_]>-<key>.so" each with a checksum file (.sum), so a
 * truncated or corrupt object is detected and rebuilt, writes by rename so
 * that concurrent builders leave one good entry, and a size bound kept by
 * evicting the least recently used entries. jit.c computes the keys and
 * builds the objects. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <xxhash.h>

#include "jit_cache.h"

char *jit_format(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(NULL, 0, fmt, ap);
  va_end(ap);
  char *s = n >= 0 ? malloc((size_t)n + 1) : NULL;
  if (!s) return NULL;
  va_start(ap, fmt);
  vsnprintf(s, (size_t)n + 1, fmt, ap);
  va_end(ap);
  return s;
}

/* --- the cache directory ----------------------------------------------------- */

asc_status asc_jit_cache_dir(const char *override, char **out) {
  const char *env = getenv("PYASC_CACHE_DIR");
  const char *home = getenv("HOME");
  char *dir = override && *override ? jit_format("%s", override)
              : env && *env         ? jit_format("%s", env)
              : home && *home       ? jit_format("%s/.pyasc/cache", home)
                                    : NULL;
  if (!dir) return asc_error(ASC_ERR_COMPILE, "no cache directory: set PYASC_CACHE_DIR or HOME");
  *out = dir;
  return ASC_OK;
}

/* Whoever may replace a directory on the way to the cache may replace the
 * cache: every ancestor must belong to root or to us and be writable by
 * nobody else, unless it is sticky (like /tmp, where others cannot rename
 * what is ours). */
static asc_status check_ancestors(const char *dir) {
  char *real = realpath(dir, NULL);
  if (!real)
    return asc_error(ASC_ERR_COMPILE, "cannot resolve the kernel cache %s: %s", dir,
                     strerror(errno));
  asc_status st = ASC_OK;
  size_t len = strlen(real);
  for (size_t end = len; !st;) {
    char saved = real[end];
    real[end] = '\0';
    struct stat info;
    const char *path = end ? real : "/";
    if (stat(path, &info) != 0)
      st = asc_error(ASC_ERR_COMPILE, "cannot check %s: %s", path, strerror(errno));
    else if (info.st_uid != 0 && info.st_uid != geteuid())
      st = asc_error(ASC_ERR_COMPILE,
                     "kernel cache %s lies inside %s, which belongs to another user; refusing to "
                     "load code from it (set PYASC_CACHE_DIR)",
                     dir, path);
    else if ((info.st_mode & (S_IWGRP | S_IWOTH)) && !(info.st_mode & S_ISVTX))
      st = asc_error(ASC_ERR_COMPILE,
                     "kernel cache %s lies inside %s, which others may write (and not sticky); "
                     "refusing to load code from it (set PYASC_CACHE_DIR)",
                     dir, path);
    real[end] = saved;
    if (!end) break;
    while (end > 0 && real[end - 1] != '/') end--;
    if (end > 0) end--; /* drop the slash: "/a/b" -> "/a" -> "" (the root) */
  }
  free(real);
  return st;
}

/* mkdir -p, new directories 0700; then the final directory must be ours
 * and writable by nobody else, and so must the way to it. */
asc_status jit_cache_prepare(const char *dir) {
  char *path = jit_format("%s", dir);
  if (!path) return asc_error(ASC_ERR_OUT_OF_MEMORY, "out of memory");
  for (char *p = path + 1;; p++) {
    if (*p != '/' && *p) continue;
    char saved = *p;
    *p = '\0';
    if (mkdir(path, 0700) != 0 && errno != EEXIST) {
      asc_status st = asc_error(ASC_ERR_COMPILE, "cannot create the kernel cache directory %s: %s",
                                path, strerror(errno));
      free(path);
      return st;
    }
    *p = saved;
    if (!saved) break;
  }
  free(path);
  struct stat info;
  if (stat(dir, &info) != 0 || !S_ISDIR(info.st_mode))
    return asc_error(ASC_ERR_COMPILE, "kernel cache %s is not a directory", dir);
  if (info.st_uid != geteuid())
    return asc_error(ASC_ERR_COMPILE,
                     "kernel cache %s belongs to another user; refusing to load code from it (set "
                     "PYASC_CACHE_DIR to a directory of your own)",
                     dir);
  if (info.st_mode & (S_IWGRP | S_IWOTH))
    return asc_error(ASC_ERR_COMPILE,
                     "kernel cache %s is writable by other users; refusing to load code from it "
                     "(chmod 700 it, or set PYASC_CACHE_DIR)",
                     dir);
  return check_ancestors(dir);
}

/* --- files ------------------------------------------------------------------- */

#define ENTRY_MAX_BYTES (1ull << 30) /* larger "kernels" are not ours */

/* Reads a cache file if it is a regular file of ours: opened without
 * following links or blocking (a FIFO planted there must not hang us).
 * With touch, its access time becomes now (the cache's LRU order). Caller
 * frees *data; false for anything else. */
static bool read_entry(const char *path, char **data, size_t *size, bool touch) {
  int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0) return false;
  struct stat info;
  char *buf = NULL;
  bool ok = fstat(fd, &info) == 0 && S_ISREG(info.st_mode) && info.st_uid == geteuid() &&
            info.st_size >= 0 && (uint64_t)info.st_size <= ENTRY_MAX_BYTES &&
            (buf = malloc((size_t)info.st_size + 1));
  size_t got = 0;
  while (ok && got < (size_t)info.st_size) {
    ssize_t n = read(fd, buf + got, (size_t)info.st_size - got);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) ok = false;
    got += n > 0 ? (size_t)n : 0;
  }
  if (ok && touch) {
    struct timespec times[2] = {{0, UTIME_NOW}, {0, UTIME_OMIT}};
    futimens(fd, times);
  }
  close(fd);
  if (!ok) {
    free(buf);
    return false;
  }
  buf[got] = '\0';
  *data = buf;
  *size = got;
  return true;
}

unsigned long jit_next_tmp(void) {
  static atomic_ulong counter;
  return atomic_fetch_add(&counter, 1);
}

/* Writes data to a fresh temporary file next to `final`, then renames. */
asc_status jit_write_atomically(const char *final, const char *data, size_t size) {
  char *tmp = jit_format("%s.tmp-%ld-%lu-XXXXXX", final, (long)getpid(), jit_next_tmp());
  if (!tmp) return asc_error(ASC_ERR_OUT_OF_MEMORY, "out of memory");
  int fd = mkostemp(tmp, O_CLOEXEC);
  asc_status st = ASC_OK;
  if (fd < 0)
    st = asc_error(ASC_ERR_COMPILE, "cannot write %s: %s", tmp, strerror(errno));
  else {
    bool ok = write(fd, data, size) == (ssize_t)size;
    ok = close(fd) == 0 && ok;
    if (!ok || rename(tmp, final) != 0) {
      st = asc_error(ASC_ERR_COMPILE, "cannot write %s: %s", final, strerror(errno));
      unlink(tmp);
    }
  }
  free(tmp);
  return st;
}

/* What an entry's .sum holds: the entry's key and its object's checksum
 * and size, so that a valid object with its .sum copied over another
 * entry's name does not pass for that entry. */
static void checksum_text(const char *key, const char *data, size_t size, char out[96]) {
  snprintf(out, 96, "pyasc-kernel %s %016llx %zu\n", key,
           (unsigned long long)XXH3_64bits(data, size), size);
}

/* The cached object at so_path if its checksum file vouches for it; a hit
 * refreshes its place in the LRU order. */
bool jit_cache_valid(const char *so_path, const char *sum_path, const char *key) {
  size_t so_size = 0, sum_size = 0;
  char *so = NULL, *sum = NULL;
  char expected[96] = "";
  bool ok =
      read_entry(sum_path, &sum, &sum_size, false) && read_entry(so_path, &so, &so_size, true);
  if (ok) checksum_text(key, so, so_size, expected);
  ok = ok && !strcmp(sum, expected);
  free(so);
  free(sum);
  return ok;
}

/* A directory where an entry belongs (planted, or left by a bug) would make
 * every rename onto it fail: remove it if empty. */
static void clear_way(const char *path) {
  struct stat info;
  if (lstat(path, &info) == 0 && S_ISDIR(info.st_mode)) rmdir(path);
}

/* Moves a built object into the cache with its .sum; false (nothing
 * stored, tmp_so untouched) when the entry's names cannot be used. */
bool jit_cache_publish(const char *tmp_so, const char *so_path, const char *sum_path,
                       const char *key) {
  size_t size = 0;
  char *so = NULL, sum[96];
  if (!read_entry(tmp_so, &so, &size, false)) return false;
  checksum_text(key, so, size, sum);
  free(so);
  clear_way(sum_path);
  clear_way(so_path);
  if (jit_write_atomically(sum_path, sum, strlen(sum))) {
    asc_clear_error();
    return false;
  }
  return rename(tmp_so, so_path) == 0;
}

/* --- the cache's size ------------------------------------------------------------ */

typedef struct cache_file {
  char *name;
  size_t stem; /* bytes of name before its extension: one entry's files share it */
  uint64_t size;
  struct timespec atime;
} cache_file;

static int by_name(const void *a, const void *b) {
  const cache_file *x = a, *y = b;
  return strcmp(x->name, y->name);
}

static int by_atime(const void *a, const void *b) {
  const cache_file *x = a, *y = b;
  if (x->atime.tv_sec != y->atime.tv_sec) return x->atime.tv_sec < y->atime.tv_sec ? -1 : 1;
  if (x->atime.tv_nsec != y->atime.tv_nsec) return x->atime.tv_nsec < y->atime.tv_nsec ? -1 : 1;
  return strcmp(x->name, y->name);
}

static bool ends_with(const char *s, const char *tail) {
  size_t n = strlen(s), t = strlen(tail);
  return n >= t && !strcmp(s + n - t, tail);
}

#define STALE_TMP_SECONDS 3600 /* a temporary this old was left by a killed build */

/* Removes a build directory a killed build left: its two files, then the
 * directory (which stays if anything else is in it). */
static void remove_stale_build(int dir_fd, const char *name) {
  int fd = openat(dir_fd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0) return;
  unlinkat(fd, JIT_BUILD_SOURCE, 0);
  unlinkat(fd, JIT_BUILD_OBJECT, 0);
  close(fd);
  unlinkat(dir_fd, name, AT_REMOVEDIR);
}

/* Removes the least recently used entries (by access time, which a hit
 * refreshes) until the cache's files total at most max bytes; never the
 * entry just stored (keep: its file name). Best effort: other processes
 * may be doing the same. */
void jit_cache_evict(const char *dir, uint64_t max, const char *keep) {
  DIR *d = max ? opendir(dir) : NULL;
  if (!d) return;
  cache_file *files = NULL;
  size_t n = 0, cap = 0;
  uint64_t total = 0;
  struct timespec now;
  clock_gettime(CLOCK_REALTIME, &now);
  for (struct dirent *ent; (ent = readdir(d));) {
    const char *name = ent->d_name;
    bool tmp = strstr(name, ".tmp-") != NULL;
    bool ours = tmp || (strchr(name, '-') && (ends_with(name, ".so") || ends_with(name, ".sum") ||
                                              ends_with(name, ".c")));
    struct stat info;
    if (!ours || fstatat(dirfd(d), name, &info, AT_SYMLINK_NOFOLLOW) != 0) continue;
    if (tmp && S_ISDIR(info.st_mode)) {
      if (now.tv_sec - info.st_mtim.tv_sec > STALE_TMP_SECONDS) remove_stale_build(dirfd(d), name);
      continue;
    }
    if (!S_ISREG(info.st_mode)) continue;
    if (tmp) {
      if (now.tv_sec - info.st_mtim.tv_sec > STALE_TMP_SECONDS && !unlinkat(dirfd(d), name, 0))
        continue;
      total += (uint64_t)info.st_size;
      continue;
    }
    if (n == cap) {
      size_t grown_cap = cap ? cap * 2 : 64;
      cache_file *grown = realloc(files, grown_cap * sizeof *grown);
      if (!grown) break;
      files = grown;
      cap = grown_cap;
    }
    char *copy = jit_format("%s", name);
    if (!copy) break;
    files[n].name = copy;
    files[n].stem = (size_t)(strrchr(copy, '.') - copy);
    files[n].size = (uint64_t)info.st_size;
    files[n].atime = info.st_atim;
    total += files[n].size;
    n++;
  }
  if (total > max && n) {
    /* One entry per stem, dated by its most recently used file. */
    qsort(files, n, sizeof *files, by_name);
    size_t groups = 0;
    for (size_t i = 0; i < n;) {
      size_t j = i + 1;
      cache_file g = files[i];
      while (j < n && files[j].stem == g.stem && !strncmp(files[j].name, g.name, g.stem)) {
        g.size += files[j].size;
        if (by_atime(&files[j], &g) > 0) g.atime = files[j].atime;
        j++;
      }
      g.name = files[i].name; /* the group's first file names its stem */
      for (size_t k = i + 1; k < j; k++) free(files[k].name);
      files[groups++] = g;
      i = j;
    }
    n = groups;
    qsort(files, n, sizeof *files, by_atime);
    static const char *const exts[] = {".so", ".sum", ".c"};
    for (size_t i = 0; i < n && total > max; i++) {
      if (keep && !strncmp(keep, files[i].name, files[i].stem) && keep[files[i].stem] == '.')
        continue;
      for (size_t e = 0; e < sizeof exts / sizeof exts[0]; e++) {
        char *path = jit_format("%.*s%s", (int)files[i].stem, files[i].name, exts[e]);
        if (path) unlinkat(dirfd(d), path, 0);
        free(path);
      }
      total = total > files[i].size ? total - files[i].size : 0;
    }
  }
  for (size_t i = 0; i < n; i++) free(files[i].name);
  free(files);
  closedir(d);
}
