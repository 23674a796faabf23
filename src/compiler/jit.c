/* Builds generated kernel C with the system compiler into a shared object,
 * caches it on disk, loads it, and launches it over blocks.
 *
 * The cache lives in a directory only the user may write (else loading a
 * shared object from it would run someone else's code). Entries are keyed by
 * an XXH3-128 of the source, the compiler's identity, the flags and the
 * pyasc version; each shared object has a checksum file, so a truncated or
 * corrupt object is detected and rebuilt. Writes go to temporary files that
 * are renamed into place, so concurrent builders leave one good entry. */
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <spawn.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <xxhash.h>

#include "asc/jit.h"
#include "asc/tensor.h"
static const char *const asc_k_files[] = {"libasc"};
#include "asc_kernel_rt.h"

extern char **environ;

#define CC_FLAGS "-std=c11 -O3 -fPIC -shared -fno-strict-aliasing -ffp-contract=off"

_Static_assert(sizeof(asc_jit_arg) == sizeof(asc_k_arg), "argument layouts differ");

typedef int (*entry_fn)(asc_k_ctx *k, const asc_k_arg *args);

struct asc_jit_kernel {
  atomic_int refs;
  void *handle;
  entry_fn entry;
  char *name;
  char *path;
};

static char *format(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static char *format(const char *fmt, ...) {
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
  char *dir = override && *override ? format("%s", override)
              : env && *env         ? format("%s", env)
              : home && *home       ? format("%s/.pyasc/cache", home)
                                    : NULL;
  if (!dir) return asc_error(ASC_ERR_COMPILE, "no cache directory: set PYASC_CACHE_DIR or HOME");
  *out = dir;
  return ASC_OK;
}

/* mkdir -p, new directories 0700; then the final directory must be ours
 * and writable by nobody else. */
static asc_status prepare_dir(const char *dir) {
  char *path = format("%s", dir);
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
  return ASC_OK;
}

/* --- running the compiler ------------------------------------------------------ */

/* Runs argv without a shell; *output gets stdout+stderr (caller frees). */
static asc_status run(char *const argv[], int *exit_code, char **output) {
  int pipefd[2];
  if (pipe(pipefd) != 0) return asc_error(ASC_ERR_COMPILE, "pipe failed: %s", strerror(errno));
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, pipefd[1], 1);
  posix_spawn_file_actions_adddup2(&actions, pipefd[1], 2);
  posix_spawn_file_actions_addclose(&actions, pipefd[0]);
  pid_t pid;
  int rc = posix_spawnp(&pid, argv[0], &actions, NULL, argv, environ);
  posix_spawn_file_actions_destroy(&actions);
  close(pipefd[1]);
  if (rc != 0) {
    close(pipefd[0]);
    return asc_error(ASC_ERR_COMPILE, "cannot run the C compiler '%s': %s (set PYASC_CC)", argv[0],
                     strerror(rc));
  }
  size_t len = 0, cap = 4096;
  char *buf = malloc(cap);
  ssize_t n;
  while (buf && (n = read(pipefd[0], buf + len, cap - len - 1)) > 0) {
    len += (size_t)n;
    if (len + 1 == cap) {
      char *grown = realloc(buf, cap *= 2);
      if (!grown) break;
      buf = grown;
    }
  }
  close(pipefd[0]);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (buf) buf[len] = '\0';
  *output = buf;
  *exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  return ASC_OK;
}

static const char *compiler_name(const asc_jit_options *o) {
  const char *env = getenv("PYASC_CC");
  return o && o->compiler && *o->compiler ? o->compiler : env && *env ? env : "cc";
}

/* The compiler binary itself (resolved through PATH and symlinks) with its
 * size and modification time: it changes whenever the compiler does, and
 * costs no process start, which matters for a fresh process's first cache
 * hit. False when the binary cannot be found this way. */
static bool binary_identity(const char *cc, char *out, size_t size) {
  char candidate[4096], resolved[4096];
  const char *path = getenv("PATH");
  bool found = false;
  if (strchr(cc, '/')) {
    found = realpath(cc, resolved) != NULL;
  } else {
    for (const char *dir = path; dir && *dir && !found;) {
      size_t len = strcspn(dir, ":");
      snprintf(candidate, sizeof candidate, "%.*s/%s", (int)len, dir, cc);
      found = access(candidate, X_OK) == 0 && realpath(candidate, resolved) != NULL;
      dir += len + (dir[len] == ':');
    }
  }
  struct stat info;
  if (!found || stat(resolved, &info) != 0 || !S_ISREG(info.st_mode)) return false;
  if (size < 64 || strlen(resolved) > size - 64) return false; /* too long to key on */
  snprintf(out, size, "%.*s %lld %lld.%09ld", (int)(size - 64), resolved, (long long)info.st_size,
           (long long)info.st_mtim.tv_sec, (long)info.st_mtim.tv_nsec);
  return true;
}

/* The compiler's identity for cache keys, cached per compiler name: the
 * binary (binary_identity) or else the first line of `cc --version`. */
static asc_status compiler_identity(const char *cc, char *out, size_t size) {
  static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
  static char cached_cc[256], cached_id[256];
  pthread_mutex_lock(&lock);
  bool hit = !strcmp(cached_cc, cc) && cached_id[0];
  if (hit) snprintf(out, size, "%s", cached_id);
  pthread_mutex_unlock(&lock);
  if (hit) return ASC_OK;
  if (binary_identity(cc, out, size)) goto remember;
  char *argv[] = {(char *)cc, "--version", NULL};
  int code;
  char *text = NULL;
  asc_status st = run(argv, &code, &text);
  if (st) return st;
  if (code != 0 || !text) {
    free(text);
    return asc_error(ASC_ERR_COMPILE, "'%s --version' failed: is it a C compiler? (set PYASC_CC)",
                     cc);
  }
  text[strcspn(text, "\n")] = '\0';
  snprintf(out, size, "%s", text);
  free(text);
remember:
  pthread_mutex_lock(&lock);
  snprintf(cached_cc, sizeof cached_cc, "%s", cc);
  snprintf(cached_id, sizeof cached_id, "%s", out);
  pthread_mutex_unlock(&lock);
  return ASC_OK;
}

/* --- files ------------------------------------------------------------------- */

static char *read_file(const char *path, size_t *size) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  char *data = NULL;
  if (fseek(f, 0, SEEK_END) == 0) {
    long n = ftell(f);
    if (n >= 0 && fseek(f, 0, SEEK_SET) == 0 && (data = malloc((size_t)n + 1))) {
      if (fread(data, 1, (size_t)n, f) != (size_t)n) {
        free(data);
        data = NULL;
      } else {
        data[n] = '\0';
        *size = (size_t)n;
      }
    }
  }
  fclose(f);
  return data;
}

/* Writes data to a fresh temporary file next to `final`, then renames. */
static asc_status write_atomically(const char *final, const char *data, size_t size) {
  char *tmp = format("%s.tmp-%ld-XXXXXX", final, (long)getpid());
  if (!tmp) return asc_error(ASC_ERR_OUT_OF_MEMORY, "out of memory");
  int fd = mkstemp(tmp);
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

static void checksum_text(const char *data, size_t size, char out[40]) {
  snprintf(out, 40, "%016llx %zu\n", (unsigned long long)XXH3_64bits(data, size), size);
}

/* The cached object at so_path if its checksum file vouches for it. */
static bool cache_valid(const char *so_path, const char *sum_path) {
  size_t so_size = 0, sum_size = 0;
  char *so = read_file(so_path, &so_size), *sum = read_file(sum_path, &sum_size);
  char expected[40] = "";
  if (so) checksum_text(so, so_size, expected);
  bool ok = so && sum && !strcmp(sum, expected);
  free(so);
  free(sum);
  return ok;
}

static asc_status compile(const char *cc, const char *source, const char *base, const char *name) {
  char *c_path = format("%s.c", base), *tmp_so = format("%s.so.tmp-%ld", base, (long)getpid());
  asc_status st = c_path && tmp_so ? write_atomically(c_path, source, strlen(source))
                                   : asc_error(ASC_ERR_OUT_OF_MEMORY, "out of memory");
  int code = 0;
  char *output = NULL;
  if (!st) {
    char *argv[] = {
        (char *)cc,          "-std=c11", "-O3",  "-fPIC", "-shared", "-fno-strict-aliasing",
        "-ffp-contract=off", "-o",       tmp_so, c_path,  "-lm",     NULL};
    st = run(argv, &code, &output);
  }
  if (!st && code != 0) {
    const char *text = output ? output : "";
    size_t len = strlen(text);
    st = asc_error(ASC_ERR_COMPILE,
                   "the C compiler failed (exit %d) on kernel '%s'; generated source: %s\n%s", code,
                   name, c_path, len > 3000 ? text + len - 3000 : text);
    unlink(tmp_so);
  }
  if (!st) {
    char *so_path = format("%s.so", base), *sum_path = format("%s.sum", base);
    size_t size = 0;
    char *so = read_file(tmp_so, &size);
    char sum[40];
    if (!so_path || !sum_path || !so) {
      st = asc_error(ASC_ERR_COMPILE, "cannot read the compiled kernel %s", tmp_so);
    } else {
      checksum_text(so, size, sum);
      st = write_atomically(sum_path, sum, strlen(sum));
      if (!st && rename(tmp_so, so_path) != 0)
        st = asc_error(ASC_ERR_COMPILE, "cannot store %s: %s", so_path, strerror(errno));
    }
    if (st) unlink(tmp_so);
    free(so);
    free(so_path);
    free(sum_path);
  }
  free(output);
  free(c_path);
  free(tmp_so);
  return st;
}

static asc_status dump_source(const asc_jit_options *o, const char *source, const char *name) {
  const char *env = getenv("PYASC_DUMP_PATH");
  const char *dir = o && o->dump_dir ? o->dump_dir : env;
  if (!dir || !*dir) return ASC_OK;
  if (mkdir(dir, 0700) != 0 && errno != EEXIST)
    return asc_error(ASC_ERR_COMPILE, "cannot create PYASC_DUMP_PATH %s: %s", dir, strerror(errno));
  char *path = format("%s/%s.c", dir, name);
  asc_status st = path ? write_atomically(path, source, strlen(source))
                       : asc_error(ASC_ERR_OUT_OF_MEMORY, "out of memory");
  free(path);
  return st;
}

static asc_status load(const char *so_path, const char *name, asc_jit_kernel **out) {
  void *handle = dlopen(so_path, RTLD_NOW | RTLD_LOCAL);
  if (!handle) return asc_error(ASC_ERR_COMPILE, "cannot load %s: %s", so_path, dlerror());
  entry_fn entry;
  *(void **)&entry = dlsym(handle, "asc_kernel_entry");
  asc_jit_kernel *k = calloc(1, sizeof *k);
  char *name_copy = format("%s", name), *path_copy = format("%s", so_path);
  if (!entry || !k || !name_copy || !path_copy) {
    dlclose(handle);
    free(k);
    free(name_copy);
    free(path_copy);
    return asc_error(entry ? ASC_ERR_OUT_OF_MEMORY : ASC_ERR_COMPILE,
                     "cannot load kernel %s from %s", name, so_path);
  }
  atomic_init(&k->refs, 1);
  k->handle = handle;
  k->entry = entry;
  k->name = name_copy;
  k->path = path_copy;
  *out = k;
  return ASC_OK;
}

asc_status asc_jit_build(const char *source, const char *name, const asc_jit_options *options,
                         asc_jit_kernel **out, bool *cache_hit) {
  const char *cc = compiler_name(options);
  char identity[256];
  char *dir = NULL;
  asc_status st = compiler_identity(cc, identity, sizeof identity);
  if (!st) st = asc_jit_cache_dir(options ? options->cache_dir : NULL, &dir);
  if (!st) st = prepare_dir(dir);
  if (!st) st = dump_source(options, source, name);
  if (st) {
    free(dir);
    return st;
  }
  XXH3_state_t *state = XXH3_createState();
  if (!state) {
    free(dir);
    return asc_error(ASC_ERR_OUT_OF_MEMORY, "out of memory");
  }
  XXH3_128bits_reset(state);
  XXH3_128bits_update(state, source, strlen(source));
  XXH3_128bits_update(state, identity, strlen(identity) + 1);
  XXH3_128bits_update(state, CC_FLAGS, sizeof CC_FLAGS);
  XXH3_128bits_update(state, asc_version(), strlen(asc_version()) + 1);
  XXH128_hash_t h = XXH3_128bits_digest(state);
  XXH3_freeState(state);
  char *base = format("%s/%s-%016llx%016llx", dir, name, (unsigned long long)h.high64,
                      (unsigned long long)h.low64);
  char *so_path = base ? format("%s.so", base) : NULL,
       *sum_path = base ? format("%s.sum", base) : NULL;
  free(dir);
  if (!so_path || !sum_path) st = asc_error(ASC_ERR_OUT_OF_MEMORY, "out of memory");
  bool hit = false;
  if (!st) {
    hit = !(options && options->always_compile) && cache_valid(so_path, sum_path);
    if (!hit) st = compile(cc, source, base, name);
  }
  if (!st) st = load(so_path, name, out);
  if (cache_hit) *cache_hit = hit;
  free(base);
  free(so_path);
  free(sum_path);
  return st;
}

void asc_jit_retain(asc_jit_kernel *k) {
  atomic_fetch_add(&k->refs, 1);
}

void asc_jit_release(asc_jit_kernel *k) {
  if (!k || atomic_fetch_sub(&k->refs, 1) != 1) return;
  dlclose(k->handle);
  free(k->name);
  free(k->path);
  free(k);
}

const char *asc_jit_path(const asc_jit_kernel *k) {
  return k->path;
}

/* --- launching ------------------------------------------------------------------ */

#define JIT_MAX_ARGS 64

typedef struct jit_launch {
  asc_jit_kernel *kernel;
  int nkeep;
  asc_storage *keep[JIT_MAX_ARGS];
  asc_k_arg args[JIT_MAX_ARGS];
} jit_launch;

static asc_status jit_block(const asc_block_ctx *block, const void *p) {
  const jit_launch *l = p;
  asc_k_ctx k;
  k.ub = block->ub;
  k.ub_size = (int64_t)block->ub_size;
  k.block_idx = block->block_idx;
  k.block_num = block->block_num;
  k.status = 0;
  k.msg[0] = '\0';
  /* The launch adds the kernel's name and the block index. */
  if (l->kernel->entry(&k, l->args)) return asc_error(ASC_ERR_KERNEL, "%s", k.msg);
  return ASC_OK;
}

static void jit_release(void *p) {
  jit_launch *l = p;
  for (int i = 0; i < l->nkeep; i++) asc_storage_release(l->keep[i]);
  asc_jit_release(l->kernel);
}

asc_status asc_jit_launch(asc_jit_kernel *k, asc_stream_t stream, uint32_t nblocks,
                          const asc_jit_arg *args, int nargs, void *const *keep, int nkeep) {
  if (nargs < 0 || nargs > JIT_MAX_ARGS || nkeep < 0 || nkeep > JIT_MAX_ARGS)
    return asc_error(ASC_ERR_INVALID_VALUE, "launch: at most %d arguments", JIT_MAX_ARGS);
  if (nblocks == 0 || nblocks > 65535)
    return asc_error(ASC_ERR_INVALID_VALUE, "launch: the core count must be in [1, 65535], got %u",
                     nblocks);
  jit_launch l;
  l.kernel = k;
  l.nkeep = nkeep;
  memcpy(l.args, args, (size_t)nargs * sizeof *args);
  for (int i = 0; i < nkeep; i++) {
    l.keep[i] = keep[i];
    asc_storage_retain(l.keep[i]);
  }
  asc_jit_retain(k);
  size_t size = offsetof(jit_launch, args) + (size_t)nargs * sizeof(asc_k_arg);
  asc_launch_desc desc = {.fn = jit_block,
                          .nblocks = nblocks,
                          .args = &l,
                          .args_size = size,
                          .release = jit_release,
                          .name = k->name};
  return asc_launch_ex(stream, &desc);
}
