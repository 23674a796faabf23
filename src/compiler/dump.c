/* PYASC_DUMP_PATH: a kernel's IR, C and Ascend C copied where the user
 * asked, written as safely as the kernel cache's entries (jit.c): the
 * directory must be ours and writable by nobody else; each file is written
 * to a fresh temporary beside it, opened without following links, and
 * renamed over the name, which may only hold a regular file. Every file of
 * a dump, from C (jit.c) or Python (language/jit.py, through
 * _C.write_dump), goes through asc_jit_dump. */
#include <errno.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "asc/jit.h"
#include "asc/status.h"

/* The suffixes a dump file may have: no other text reaches its name. */
static const char *const dump_suffixes[] = {".c", ".ir", ".ascendc.cpp", ".sim.cpp"};

/* mkdir -p dir, new directories 0700; an existing component is left as it
 * is (the final directory is checked by the caller). */
static asc_status make_dirs(const char *dir) {
  size_t len = strlen(dir);
  char *path = malloc(len + 1);
  if (!path) return asc_error(ASC_ERR_OUT_OF_MEMORY, "out of memory");
  memcpy(path, dir, len + 1);
  asc_status st = ASC_OK;
  for (char *p = path + 1; !st; p++) {
    if (*p != '/' && *p) continue;
    char saved = *p;
    *p = '\0';
    if (mkdir(path, 0700) != 0 && errno != EEXIST)
      st = asc_error(ASC_ERR_COMPILE, "cannot create the PYASC_DUMP_PATH directory %s: %s", path,
                     strerror(errno));
    *p = saved;
    if (!saved) break;
  }
  free(path);
  return st;
}

/* An open descriptor of dir (caller closes), once it is a directory of ours
 * that nobody else may write. */
static asc_status open_dump_dir(const char *dir, int *out) {
  asc_status st = make_dirs(dir);
  if (st) return st;
  int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0)
    return asc_error(ASC_ERR_COMPILE, "PYASC_DUMP_PATH %s is not a directory we can open: %s", dir,
                     errno == ENOTDIR ? "a file is in the way" : strerror(errno));
  struct stat info;
  if (fstat(fd, &info) != 0)
    st = asc_error(ASC_ERR_COMPILE, "cannot check PYASC_DUMP_PATH %s: %s", dir, strerror(errno));
  else if (info.st_uid != geteuid())
    st = asc_error(ASC_ERR_COMPILE,
                   "PYASC_DUMP_PATH %s belongs to another user; refusing to write kernel dumps "
                   "into it (use a directory of your own)",
                   dir);
  else if (info.st_mode & (S_IWGRP | S_IWOTH))
    st = asc_error(ASC_ERR_COMPILE,
                   "PYASC_DUMP_PATH %s is writable by other users; refusing to write kernel dumps "
                   "into it (chmod 700 it, or use another directory)",
                   dir);
  if (st) {
    close(fd);
    return st;
  }
  *out = fd;
  return ASC_OK;
}

static unsigned long dump_counter(void) {
  static atomic_ulong counter;
  return atomic_fetch_add(&counter, 1);
}

/* data into a new temporary of dfd, renamed over file. */
static asc_status write_in(int dfd, const char *dir, const char *file, const char *data,
                           size_t size) {
  struct stat info;
  if (fstatat(dfd, file, &info, AT_SYMLINK_NOFOLLOW) == 0 && !S_ISREG(info.st_mode))
    return asc_error(ASC_ERR_COMPILE,
                     "PYASC_DUMP_PATH %s: %s exists and is not a regular file (a link, FIFO, "
                     "directory or device); refusing to replace it",
                     dir, file);
  char tmp[160];
  int fd = -1;
  for (int attempt = 0; fd < 0 && attempt < 16; attempt++) {
    snprintf(tmp, sizeof tmp, ".%s.tmp-%ld-%lu", file, (long)getpid(), dump_counter());
    fd = openat(dfd, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
    if (fd < 0 && errno != EEXIST) break;
  }
  if (fd < 0)
    return asc_error(ASC_ERR_COMPILE, "cannot write %s/%s: %s", dir, file, strerror(errno));
  bool ok = true;
  for (size_t done = 0; ok && done < size;) {
    ssize_t n = write(fd, data + done, size - done);
    if (n < 0 && errno == EINTR) continue;
    ok = n > 0;
    if (ok) done += (size_t)n;
  }
  int err = errno;
  ok = close(fd) == 0 && ok;
  if (ok && renameat(dfd, tmp, dfd, file) == 0) return ASC_OK;
  if (!err) err = errno;
  unlinkat(dfd, tmp, 0);
  return asc_error(ASC_ERR_COMPILE, "cannot write %s/%s: %s", dir, file, strerror(err));
}

asc_status asc_jit_dump(const char *dir, const char *name, const char *suffix, const char *data,
                        size_t size, bool *written) {
  if (written) *written = false;
  bool known = false;
  for (size_t i = 0; suffix && i < sizeof dump_suffixes / sizeof dump_suffixes[0]; i++)
    known = known || !strcmp(suffix, dump_suffixes[i]);
  if (!known)
    return asc_error(ASC_ERR_INVALID_VALUE,
                     "a dump file's suffix is .c, .ir, .ascendc.cpp or .sim.cpp");
  if (!dir || !*dir) dir = getenv("PYASC_DUMP_PATH");
  if (!dir || !*dir) return ASC_OK;
  /* The kernel's name is arbitrary text: only its [A-Za-z0-9_] form, at
   * most 64 bytes, names the file (jit.c names the cache entry alike). */
  char file[96];
  size_t n = 0;
  for (; name && name[n] && n < 64; n++) {
    unsigned char c = (unsigned char)name[n];
    bool ok =
        (c >= '0' && c <= '9') || (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_';
    file[n] = ok ? (char)c : '_';
  }
  if (!n) n = (size_t)snprintf(file, sizeof file, "kernel");
  snprintf(file + n, sizeof file - n, "%s", suffix);
  int dfd = -1;
  asc_status st = open_dump_dir(dir, &dfd);
  if (st) return st;
  st = write_in(dfd, dir, file, data, size);
  close(dfd);
  if (!st && written) *written = true;
  return st;
}
