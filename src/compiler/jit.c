/* Builds generated kernel C with the system compiler into a shared object,
 * caches it on disk (jit_cache.c) and loads it; jit_launch.c launches it
 * over blocks.
 *
 * Cache entries are keyed by an XXH3-128 of the source, the compiler's
 * identity, the flags and the pyasc version. User text never names a file:
 * entries are "<name in [A-Za-z0-9_]>-<key>". The compiler runs under
 * limits (time, address space, source size) and dies with its caller. */
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <xxhash.h>

#include "asc/jit.h"
#include "asc/mem.h"
#include "asc/tensor.h"
#include "ascendc_rt.h"
#include "jit_cache.h"
#include "jit_internal.h"

/* kernel_operator.h and pyasc_sim.h (include/ascendc), embedded at build
 * time: an Ascend C build writes them beside its source. */
extern const char asc_ascendc_header_source[];
extern const char asc_ascendc_sim_source[];

extern char **environ;

/* The compiler's flags, part of every cache key. -O1 -ftree-vectorize,
 * not -O2: the runtime's element loops vectorise the same (the copies are
 * libc's memcpy and hand-unrolled intrinsics), and a new kernel's first
 * call, nearly all compiler, takes about 25% less (bench/first_call.py).
 * -pipe: no temporary assembly file. */
static const char *const cc_flags[] = {
    "-std=c11", "-O1",     "-ftree-vectorize",     "-pipe",
    "-fPIC",    "-shared", "-fno-strict-aliasing", "-ffp-contract=off"};
#define CC_NFLAGS (sizeof cc_flags / sizeof cc_flags[0])
/* Ascend C (C++17): the same code generation flags. */
static const char *const cxx_flags[] = {
    "-std=c++17", "-O1", "-pipe", "-fPIC", "-shared", "-fno-strict-aliasing", "-ffp-contract=off"};
#define CXX_NFLAGS (sizeof cxx_flags / sizeof cxx_flags[0])

/* One more flag on CPUs with AVX2: the element loops vectorise 256 bits
 * wide (about 10% off a fused exp(x) * y + x, bench/op_fusion.py). It
 * changes no result: -ffp-contract=off keeps every a * b + c two roundings,
 * and the maths goes through the table the launcher lends. As a flag it is
 * part of the cache key, so a cache shared with an older CPU never hands
 * it a kernel it cannot run. PYASC_CPU_SIMD=0 leaves it out, as it makes
 * eager maths portable. */
static const char *cc_isa_flag;
static pthread_once_t cc_isa_once = PTHREAD_ONCE_INIT;
static void cc_isa_choose(void) {
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
  const char *env = getenv("PYASC_CPU_SIMD");
  if (env && !strcmp(env, "0")) return;
  __builtin_cpu_init();
  if (__builtin_cpu_supports("avx2")) cc_isa_flag = "-mavx2";
#endif
}
/* The ISA flag, or NULL: chosen once, read-only after. */
static const char *cc_isa(void) {
  pthread_once(&cc_isa_once, cc_isa_choose);
  return cc_isa_flag;
}

_Static_assert(sizeof(asc_jit_arg) == sizeof(asc_k_arg), "argument layouts differ");

/* Generated kernels name an adv maths function by its row in adv_math.def
 * (emit_c.c); the runtime they carry numbers them by its own enum. This is
 * the one file that sees both, so it checks that they agree. */
enum {
#define ADV_MATH(name, NAME) ADV_ID_##name,
#include "adv_math.def"
#undef ADV_MATH
};
#define ADV_MATH(name, NAME)                                  \
  _Static_assert((int)ASC_K_ADV_##NAME == (int)ADV_ID_##name, \
                 "rt/adv_math.h numbers adv." #name " unlike adv_math.def");
#include "adv_math.def"
#undef ADV_MATH

/* --- limits ------------------------------------------------------------------ */

/* A non-negative integer from environment variable `name`, or def when it
 * is unset; 0 turns the limit off. */
asc_status jit_env_limit(const char *name, uint64_t def, uint64_t *out) {
  const char *text = getenv(name);
  if (!text || !*text) {
    *out = def;
    return ASC_OK;
  }
  char *end;
  errno = 0;
  unsigned long long v = strtoull(text, &end, 10);
  if (errno || end == text || *end || text[0] == '-')
    return asc_error(ASC_ERR_INVALID_VALUE, "%s=%.64s: expected a non-negative integer", name,
                     text);
  *out = v;
  return ASC_OK;
}

#if defined(__SANITIZE_ADDRESS__)
#define JIT_SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define JIT_SANITIZED 1
#endif
#endif
#ifndef JIT_SANITIZED
#define JIT_SANITIZED 0
#endif

/* A sanitizer build's runtime, preloaded into the process, may reach a
 * child through LD_PRELOAD and reserve terabytes of address space: no
 * RLIMIT_AS by default. */
#if JIT_SANITIZED
#define DEFAULT_COMPILE_MEMORY 0ull
#else
#define DEFAULT_COMPILE_MEMORY (8ull << 30)
#endif

typedef struct jit_limits {
  uint64_t timeout_s;  /* PYASC_COMPILE_TIMEOUT: seconds per compiler run */
  uint64_t memory;     /* PYASC_COMPILE_MEMORY: the compiler's address space, bytes */
  uint64_t max_source; /* PYASC_MAX_KERNEL_SOURCE: bytes of generated C */
  uint64_t cache_max;  /* PYASC_CACHE_MAX_BYTES: the disk cache's size */
} jit_limits;

static asc_status read_limits(jit_limits *l) {
  asc_status st = jit_env_limit("PYASC_COMPILE_TIMEOUT", 120, &l->timeout_s);
  if (!st) st = jit_env_limit("PYASC_COMPILE_MEMORY", DEFAULT_COMPILE_MEMORY, &l->memory);
  if (!st) st = jit_env_limit("PYASC_MAX_KERNEL_SOURCE", 64ull << 20, &l->max_source);
  if (!st) st = jit_env_limit("PYASC_CACHE_MAX_BYTES", 1ull << 30, &l->cache_max);
  return st;
}

asc_status asc_jit_cache_limit(uint64_t *out) {
  return jit_env_limit("PYASC_CACHE_MAX_BYTES", 1ull << 30, out);
}

/* --- running the compiler ------------------------------------------------------ */

/* The executable `name` names, searched in PATH as execvp would (the child
 * cannot call execvp: it is not async-signal-safe). Caller frees. */
static char *find_program(const char *name) {
  if (strchr(name, '/')) return jit_format("%s", name);
  const char *path = getenv("PATH");
  if (!path || !*path) path = "/usr/local/bin:/usr/bin:/bin";
  for (const char *dir = path; *dir;) {
    size_t len = strcspn(dir, ":");
    char *candidate = jit_format("%.*s/%s", len ? (int)len : 1, len ? dir : ".", name);
    if (!candidate) return NULL;
    if (access(candidate, X_OK) == 0) return candidate;
    free(candidate);
    dir += len + (dir[len] == ':');
  }
  return NULL;
}

/* The compiler's environment: the process's, except that a sanitizer
 * build leaves out LD_PRELOAD, which carries the sanitizer runtimes (make
 * sanitize preloads them into Python): a compiler under ASan takes about
 * twice as long and checks nothing of ours. The array is the caller's to
 * free, not its strings (environ's). NULL on OOM. */
static char **compiler_environ(void) {
  size_t n = 0;
  while (environ[n]) n++;
  char **env = malloc((n + 1) * sizeof *env);
  if (!env) return NULL;
  size_t kept = 0;
  for (size_t i = 0; i < n; i++)
    if (!JIT_SANITIZED || strncmp(environ[i], "LD_PRELOAD=", 11)) env[kept++] = environ[i];
  env[kept] = NULL;
  return env;
}

/* Between fork and exec, in a copy of a threaded process: only
 * async-signal-safe calls (another thread may have held malloc's lock). The
 * compiler gets its own process group (a timeout kills all of it), dies
 * with the thread that started it, and inherits limits that also stop any
 * of its helpers (cc1, as) orphaned by a killed parent. */
static void child_exec(const char *path, char *const argv[], char *const envp[], int out_fd,
                       int err_fd, pid_t parent, const jit_limits *l) {
  setpgid(0, 0);
  prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (getppid() != parent) _exit(127); /* the parent died before prctl */
  sigset_t none;
  sigemptyset(&none);
  pthread_sigmask(SIG_SETMASK, &none, NULL);
  struct sigaction dfl;
  memset(&dfl, 0, sizeof dfl);
  dfl.sa_handler = SIG_DFL;
  sigaction(SIGPIPE, &dfl, NULL);
  if (l->memory) {
    struct rlimit r = {(rlim_t)l->memory, (rlim_t)l->memory};
    setrlimit(RLIMIT_AS, &r);
  }
  if (l->timeout_s && l->timeout_s < (1ull << 40)) { /* larger: no limit, and no overflow */
    struct rlimit r = {(rlim_t)l->timeout_s + 5, (rlim_t)l->timeout_s + 10};
    setrlimit(RLIMIT_CPU, &r);
  }
  if (dup2(out_fd, 1) >= 0 && dup2(out_fd, 2) >= 0) execve(path, argv, envp);
  int e = errno;
  ssize_t ignored = write(err_fd, &e, sizeof e);
  (void)ignored;
  _exit(127);
}

/* fork without the pthread_atfork handlers where libc allows (glibc's
 * _Fork): libraries' handlers (OpenBLAS stops its thread pool) have no
 * business running for a process that only execs. */
static pid_t fork_quietly(void) {
#if defined(__GLIBC__) && defined(__GLIBC_PREREQ)
#if __GLIBC_PREREQ(2, 34)
  return _Fork();
#endif
#endif
  return fork();
}

static double seconds_since(const struct timespec *t0) {
  struct timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  return (double)(now.tv_sec - t0->tv_sec) + (double)(now.tv_nsec - t0->tv_nsec) * 1e-9;
}

#define RUN_OUTPUT_MAX (64 * 1024) /* the tail of the compiler's output kept */

/* Runs argv without a shell under the limits; *output gets the tail of
 * stdout+stderr (caller frees). A run past the time limit is killed with
 * its process group and reported as a compile error. */
static asc_status run(char *const argv[], const jit_limits *l, int *exit_code, char **output) {
  char *path = find_program(argv[0]);
  if (!path)
    return asc_error(ASC_ERR_COMPILE, "cannot run the C compiler '%s': not found (set PYASC_CC)",
                     argv[0]);
  char *buf = malloc(RUN_OUTPUT_MAX + 1);
  char **envp = compiler_environ();
  int outp[2] = {-1, -1}, errp[2] = {-1, -1};
  if (!buf || !envp || pipe2(outp, O_CLOEXEC) != 0 || pipe2(errp, O_CLOEXEC) != 0) {
    asc_status st = asc_error(ASC_ERR_COMPILE, "cannot start the C compiler: %s", strerror(errno));
    for (int i = 0; i < 2; i++) {
      if (outp[i] >= 0) close(outp[i]);
      if (errp[i] >= 0) close(errp[i]);
    }
    free(buf);
    free(envp);
    free(path);
    return st;
  }
  pid_t parent = getpid();
  pid_t pid = fork_quietly();
  if (pid == 0) child_exec(path, argv, envp, outp[1], errp[1], parent, l);
  int fork_errno = errno;
  free(envp);
  free(path);
  close(outp[1]);
  close(errp[1]);
  if (pid < 0) {
    close(outp[0]);
    close(errp[0]);
    free(buf);
    return asc_error(ASC_ERR_COMPILE, "cannot start the C compiler: %s", strerror(fork_errno));
  }
  setpgid(pid, pid); /* as the child does: whichever runs first */
  int exec_errno = 0;
  ssize_t got;
  while ((got = read(errp[0], &exec_errno, sizeof exec_errno)) < 0 && errno == EINTR) {
  }
  close(errp[0]);
  struct timespec t0;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  bool timed_out = false;
  size_t len = 0;
  for (;;) {
    int wait_ms = -1;
    if (l->timeout_s) {
      double left = (double)l->timeout_s - seconds_since(&t0);
      if (left <= 0) {
        timed_out = true;
        break;
      }
      wait_ms = left > 1000 ? 1000000 : (int)(left * 1000) + 1;
    }
    struct pollfd p = {outp[0], POLLIN, 0};
    int rc = poll(&p, 1, wait_ms);
    if (rc < 0 && errno == EINTR) continue;
    if (rc <= 0) continue;
    char chunk[4096];
    ssize_t n = read(outp[0], chunk, sizeof chunk);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    if (len + (size_t)n > RUN_OUTPUT_MAX) { /* keep the tail: errors come last */
      size_t drop = len + (size_t)n - RUN_OUTPUT_MAX;
      drop = drop > len ? len : drop;
      memmove(buf, buf + drop, len - drop);
      len -= drop;
    }
    size_t take = (size_t)n > RUN_OUTPUT_MAX ? RUN_OUTPUT_MAX : (size_t)n;
    memcpy(buf + len, chunk + (size_t)n - take, take);
    len += take;
  }
  close(outp[0]);
  int status = 0;
  if (timed_out) {
    kill(-pid, SIGKILL);
    kill(pid, SIGKILL);
  }
  for (;;) { /* the output may end before the compiler does */
    pid_t r = waitpid(pid, &status, l->timeout_s ? WNOHANG : 0);
    if (r == pid) break;
    if (r < 0) {
      if (errno == EINTR) continue;
      break;
    }
    if (!timed_out && seconds_since(&t0) >= (double)l->timeout_s) {
      timed_out = true;
      kill(-pid, SIGKILL);
      kill(pid, SIGKILL);
    }
    struct timespec nap = {0, 1000 * 1000};
    nanosleep(&nap, NULL);
  }
  buf[len] = '\0';
  if (got == (ssize_t)sizeof exec_errno) {
    free(buf);
    return asc_error(ASC_ERR_COMPILE, "cannot run the C compiler '%s': %s (set PYASC_CC)", argv[0],
                     strerror(exec_errno));
  }
  if (timed_out) {
    kill(-pid, SIGKILL); /* helpers the compiler left behind */
    free(buf);
    return asc_error(ASC_ERR_COMPILE,
                     "the C compiler '%s' ran longer than the compile time limit of %llu s and was "
                     "stopped (raise PYASC_COMPILE_TIMEOUT, or make the kernel smaller)",
                     argv[0], (unsigned long long)l->timeout_s);
  }
  *output = buf;
  *exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  return ASC_OK;
}

static const char *compiler_name(const asc_jit_options *o) {
  if (o && o->cxx) {
    const char *cxx = getenv("PYASC_CXX");
    return cxx && *cxx ? cxx : "c++";
  }
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

/* The compiler identity last asked for. Its lock is held across fork() by
 * atfork handlers, so a child never inherits it locked by a thread that
 * does not exist there. */
static pthread_mutex_t identity_lock = PTHREAD_MUTEX_INITIALIZER;
static char cached_cc[256], cached_id[256];
static pthread_once_t identity_atfork_once = PTHREAD_ONCE_INIT;
static void identity_lock_take(void) {
  pthread_mutex_lock(&identity_lock);
}
static void identity_lock_give(void) {
  pthread_mutex_unlock(&identity_lock);
}
static void identity_register_atfork(void) {
  pthread_atfork(identity_lock_take, identity_lock_give, identity_lock_give);
}

/* The compiler's identity for cache keys, cached per compiler name: the
 * binary (binary_identity) or else the first line of `cc --version`. */
static asc_status compiler_identity(const char *cc, const jit_limits *l, char *out, size_t size) {
  pthread_once(&identity_atfork_once, identity_register_atfork);
  pthread_mutex_lock(&identity_lock);
  bool hit = !strcmp(cached_cc, cc) && cached_id[0];
  if (hit) snprintf(out, size, "%s", cached_id);
  pthread_mutex_unlock(&identity_lock);
  if (hit) return ASC_OK;
  if (binary_identity(cc, out, size)) goto remember;
  char *argv[] = {(char *)cc, "--version", NULL};
  int code;
  char *text = NULL;
  asc_status st = run(argv, l, &code, &text);
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
  pthread_mutex_lock(&identity_lock);
  snprintf(cached_cc, sizeof cached_cc, "%s", cc);
  snprintf(cached_id, sizeof cached_id, "%s", out);
  pthread_mutex_unlock(&identity_lock);
  return ASC_OK;
}

/* Removes what is left of a build: its object (unless published, that is
 * renamed away) and its directory. */
static void discard_build(const char *tmp_so) {
  unlink(tmp_so);
  const char *slash = strrchr(tmp_so, '/');
  char *dir = slash ? jit_format("%.*s", (int)(slash - tmp_so), tmp_so) : NULL;
  if (dir) rmdir(dir);
  free(dir);
}

/* Builds source into a fresh temporary object next to base: *tmp_so
 * (caller frees and, once done with it, calls discard_build). Each build
 * has a directory of its own, so threads and processes building the same
 * kernel never share a name, while the file names inside are fixed: the
 * source's name is in the object (its symbol table), and two processes
 * racing to publish one entry must build byte-identical objects, or one's
 * .sum could end up beside the other's .so. */
/* Writes text to a new file path (0600, never over anything): false on failure. */
static bool write_new(const char *path, const char *text, size_t len) {
  int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
  bool written = fd >= 0 && write(fd, text, len) == (ssize_t)len;
  return fd >= 0 && close(fd) == 0 && written;
}

/* The headers an Ascend C build finds beside its source. */
enum { CXX_HEADERS = 4 };
static const char *const cxx_header_names[CXX_HEADERS] = {
    "kernel_operator.h", "pyasc_sim.h", "lib/matmul_intf.h", "kernel_operator_list_tensor_intf.h"};
/* Ascend C kernels that use Matmul include lib/matmul_intf.h, those that
 * read tensor lists kernel_operator_list_tensor_intf.h: here both APIs are
 * part of kernel_operator.h. */
static const char matmul_intf_text[] =
    "/* Ascend C's adv Matmul: part of kernel_operator.h here */\n"
    "#include \"../kernel_operator.h\"\n";
static const char list_tensor_intf_text[] =
    "/* Ascend C's ListTensorDesc: part of kernel_operator.h here */\n"
    "#include \"kernel_operator.h\"\n";
static const char *cxx_header_text(int i) {
  return i == 0   ? asc_ascendc_header_source
         : i == 1 ? asc_ascendc_sim_source
         : i == 2 ? matmul_intf_text
                  : list_tensor_intf_text;
}

/* first_tier: cc is TinyCC, which takes only what it needs (see tiers below). */
static asc_status compile(const char *cc, const jit_limits *l, const char *source,
                          size_t source_len, const char *base, const char *name, bool cxx,
                          bool first_tier, char **tmp_so) {
  char *dir = jit_format("%s.tmp-%ld-%lu-XXXXXX", base, (long)getpid(), jit_next_tmp());
  if (!dir) return asc_error(ASC_ERR_OUT_OF_MEMORY, "out of memory");
  if (!mkdtemp(dir)) {
    asc_status st = asc_error(ASC_ERR_COMPILE, "cannot create %s: %s", dir, strerror(errno));
    free(dir);
    return st;
  }
  char *c_path = jit_format("%s/" JIT_BUILD_SOURCE, dir);
  char *so_path = jit_format("%s/" JIT_BUILD_OBJECT, dir);
  char *h_paths[CXX_HEADERS] = {NULL, NULL, NULL, NULL};
  char *lib_dir = cxx ? jit_format("%s/lib", dir) : NULL;
  bool written = false;
  if (c_path && so_path) written = write_new(c_path, source, source_len);
  if (cxx && written) written = lib_dir && mkdir(lib_dir, 0700) == 0;
  for (int i = 0; cxx && written && i < CXX_HEADERS; i++) {
    h_paths[i] = jit_format("%s/%s", dir, cxx_header_names[i]);
    written = h_paths[i] && write_new(h_paths[i], cxx_header_text(i), strlen(cxx_header_text(i)));
  }
  asc_status st = !c_path || !so_path ? asc_error(ASC_ERR_OUT_OF_MEMORY, "out of memory")
                  : !written          ? asc_error(ASC_ERR_COMPILE, "cannot write %s", c_path)
                                      : ASC_OK;
  int code = 0;
  char *output = NULL;
  if (!st) {
    char *argv[CC_NFLAGS + CXX_NFLAGS + 10];
    size_t n = 0;
    argv[n++] = (char *)cc;
    if (first_tier) {
      argv[n++] = "-shared";
    } else if (cxx) {
      for (size_t i = 0; i < CXX_NFLAGS; i++) argv[n++] = (char *)cxx_flags[i];
      argv[n++] = "-I";
      argv[n++] = dir;
    } else {
      for (size_t i = 0; i < CC_NFLAGS; i++) argv[n++] = (char *)cc_flags[i];
    }
    if (cc_isa() && !first_tier) argv[n++] = (char *)cc_isa();
    argv[n++] = "-o";
    argv[n++] = so_path;
    if (cxx) {
      argv[n++] = "-x";
      argv[n++] = "c++";
    }
    argv[n++] = c_path;
    argv[n++] = "-lm";
    argv[n] = NULL;
    st = run(argv, l, &code, &output);
  }
  for (int i = 0; i < CXX_HEADERS; i++)
    if (h_paths[i]) unlink(h_paths[i]), free(h_paths[i]);
  if (lib_dir) rmdir(lib_dir);
  free(lib_dir);
  free(dir);
  if (!st && code != 0) {
    const char *text = output ? output : "";
    size_t len = strlen(text);
    char why[160] = "";
    if (code > 128) /* a signal: most likely one of the limits */
      snprintf(why, sizeof why,
               "; it was killed by signal %d (PYASC_COMPILE_MEMORY and PYASC_COMPILE_TIMEOUT "
               "limit it)",
               code - 128);
    if (cxx) { /* the first error's own line first: a template's comes after its context */
      const char *first = strstr(text, ": error: ");
      int first_len = 0;
      if (first) {
        while (first > text && first[-1] != '\n') first--;
        const char *end = strchr(first, '\n');
        first_len = (int)(end ? end - first : (ptrdiff_t)strlen(first));
        if (first_len > 600) first_len = 600;
      }
      st = asc_error(ASC_ERR_COMPILE,
                     "the C++ compiler failed (exit %d) on Ascend C kernel '%s'%s: %.*s\n%.3000s",
                     code, name, why, first_len, first ? first : "", text);
    } else
      st = asc_error(ASC_ERR_COMPILE,
                     "the C compiler failed (exit %d) on kernel '%s' (set PYASC_DUMP_PATH to keep "
                     "the generated source)%s:\n%s",
                     code, name, why, len > 3000 ? text + len - 3000 : text);
  }
  if (c_path) unlink(c_path);
  free(output);
  free(c_path);
  if (st) {
    if (so_path) discard_build(so_path);
    free(so_path);
    return st;
  }
  *tmp_so = so_path;
  return ASC_OK;
}

static asc_status dump_source(const asc_jit_options *o, const char *source, size_t len,
                              const char *safe_name) {
  return asc_jit_dump(o ? o->dump_dir : NULL, safe_name, o && o->cxx ? ".sim.cpp" : ".c", source,
                      len, NULL);
}

/* The kernel's name as it may appear in a file name: [A-Za-z0-9_] only,
 * at most 64 bytes (the hash beside it keeps entries apart). */
static void safe_file_name(const char *name, char out[65]) {
  size_t n = 0;
  for (; name && name[n] && n < 64; n++) {
    unsigned char c = (unsigned char)name[n];
    bool ok =
        (c >= '0' && c <= '9') || (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_';
    out[n] = ok ? (char)c : '_';
  }
  out[n] = '\0';
  if (!n) snprintf(out, 65, "kernel");
}

/* The runtime's table for an Ascend C kernel: compiled for the width
 * generated kernels are built for (cc_isa), so both run the same loops. */
const pyasc_sim_api *jit_ascendc_table(bool checked, bool cube) {
  if (cube) return checked ? &asc_ascendc_table_cube_checked : &asc_ascendc_table_cube_plain;
#ifdef ASC_HAVE_AVX2
  if (cc_isa()) return checked ? &asc_ascendc_table_checked_avx2 : &asc_ascendc_table_plain_avx2;
#endif
  return checked ? &asc_ascendc_table_checked : &asc_ascendc_table_plain;
}

const void *asc_jit_ascendc_table(bool checked, bool cube) {
  return jit_ascendc_table(checked, cube);
}

static asc_status load(const char *so_path, const char *name, asc_jit_kernel **out) {
  void *handle = dlopen(so_path, RTLD_NOW | RTLD_LOCAL);
  if (!handle) return asc_error(ASC_ERR_COMPILE, "cannot load %s: %s", so_path, dlerror());
  entry_fn entry;
  *(void **)&entry = dlsym(handle, "asc_kernel_entry");
  asc_jit_kernel *k = calloc(1, sizeof *k);
  char *name_copy = jit_format("%s", name), *path_copy = jit_format("%s", so_path);
  if (!entry || !k || !name_copy || !path_copy) {
    dlclose(handle);
    free(k);
    free(name_copy);
    free(path_copy);
    return asc_error(entry ? ASC_ERR_OUT_OF_MEMORY : ASC_ERR_COMPILE,
                     "cannot load kernel %s from %s", name, so_path);
  }
  atomic_init(&k->refs, 1);
  jit_set_live(k, (const int *)dlsym(handle, "asc_kernel_all_live"));
  k->params = (const char *)dlsym(handle, "asc_kernel_params");
  *(void **)&k->pf_reset = dlsym(handle, "asc_kernel_pf_reset");
  *(void **)&k->pf_records = dlsym(handle, "asc_kernel_pf_records");
  /* Ascend C: the runtime's table its checked mode asks for */
  const pyasc_sim_api **table = (const pyasc_sim_api **)dlsym(handle, "pyasc_sim_table");
  const int *checked = (const int *)dlsym(handle, "pyasc_sim_checked");
  const int *cube = (const int *)dlsym(handle, "pyasc_sim_cube");
  const int *profiled = (const int *)dlsym(handle, "pyasc_sim_profiled");
  if (table && profiled && *profiled) { /* the records are the profiled table's */
    bool c = cube && *cube;
    *table = c ? &asc_ascendc_table_cube_profiled : &asc_ascendc_table_profiled;
    k->pf_reset = c ? asc_ascendc_pf_reset_cube : asc_ascendc_pf_reset;
    k->pf_records = c ? asc_ascendc_pf_records_cube : asc_ascendc_pf_records;
  } else if (table) {
    *table = jit_ascendc_table(checked && *checked, cube && *cube);
  }
  if (k->params && strnlen(k->params, 65) > 64) k->params = NULL; /* not one of ours */
  k->handle = handle;
  k->entry = entry;
  k->name = name_copy;
  k->path = path_copy;
  *out = k;
  return ASC_OK;
}

/* --- tiers -------------------------------------------------------------------- */

/* A new kernel's first build is TinyCC's (tcc, tens of milliseconds where
 * cc takes well over a hundred): the kernel runs at once, on the runtime's
 * portable loops, whose results the SIMD paths match bit for bit. A
 * detached thread then runs the optimising build, publishes it to the
 * cache and swaps its entry in; the next process finds it on disk. Only
 * for C kernels built with the default compiler (PYASC_CC and
 * asc_jit_options.compiler choose one build) and when tcc is on PATH.
 * PYASC_JIT_TIERS=0 builds with cc only; =first keeps the first tier and
 * never runs cc (tests and benchmarks of that tier). */
typedef enum { TIERS_OFF, TIERS_ON, TIERS_FIRST_ONLY } tier_mode;

static tier_mode tiers_wanted(const asc_jit_options *o, const char *source) {
  const char *env = getenv("PYASC_JIT_TIERS");
  const char *cc = getenv("PYASC_CC");
  if ((env && !strcmp(env, "0")) || (o && (o->cxx || (o->compiler && *o->compiler))) || (cc && *cc))
    return TIERS_OFF;
  if (env && !strcmp(env, "first")) return TIERS_FIRST_ONLY;
  /* A kernel with the cube unit (emit_c.c marks it) multiplies on the
   * portable loops some 60 times slower at the first tier, which costs
   * more than the optimising build saves. */
  return strstr(source, "\n#define ASC_K_CUBE 1\n") ? TIERS_OFF : TIERS_ON;
}

/* Launches over more bytes of arguments than this wait for the optimising
 * build (PYASC_JIT_TIER1_BYTES; 0: never). The default keeps a 1M-element
 * fused operator on the first tier (bench/first_call.py) and sends a
 * streaming kernel over tens of MB to the optimising build, which then
 * costs no more than building with cc alone did. */
#define TIER1_DEFAULT_BYTES (16ll << 20)

/* Optimising builds still running, so that a wait (and exit) can let them
 * publish. A forked child has none of their threads: it starts at zero and
 * in a new epoch, so it never waits for a build begun before the fork. */
static pthread_mutex_t tier_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t tier_cond = PTHREAD_COND_INITIALIZER;
static int tier_builds_running;
static unsigned tier_epoch;
static pthread_once_t tier_once = PTHREAD_ONCE_INIT;
static void tier_lock_take(void) {
  pthread_mutex_lock(&tier_lock);
}
static void tier_lock_give(void) {
  pthread_mutex_unlock(&tier_lock);
}
static void tier_child(void) {
  tier_builds_running = 0;
  tier_epoch++;
  pthread_mutex_unlock(&tier_lock);
}
static void tier_at_exit(void) {
  asc_jit_wait_tiers();
}
static void tier_init(void) {
  pthread_atfork(tier_lock_take, tier_lock_give, tier_child);
  atexit(tier_at_exit);
}

void asc_jit_wait_tiers(void) {
  pthread_mutex_lock(&tier_lock);
  while (tier_builds_running > 0) pthread_cond_wait(&tier_cond, &tier_lock);
  pthread_mutex_unlock(&tier_lock);
}

/* What the optimising build needs, owned by its thread. */
typedef struct tier_job {
  asc_jit_kernel *k; /* a reference of the job's own */
  jit_limits limits;
  char *cc, *source, *base, *name, *so_path, *sum_path, *dir;
  size_t source_len;
  char key[33];
} tier_job;

static void tier_job_free(tier_job *j) {
  free(j->cc);
  free(j->source);
  free(j->base);
  free(j->name);
  free(j->so_path);
  free(j->sum_path);
  free(j->dir);
  free(j);
}

/* k's optimising build has ended, swapped in or not: its waiters go on and
 * the build's reference is dropped. */
static void tier_finished(asc_jit_kernel *k) {
  pthread_mutex_lock(&tier_lock);
  atomic_store(&k->tier_pending, false);
  tier_builds_running--;
  pthread_cond_broadcast(&tier_cond);
  pthread_mutex_unlock(&tier_lock);
  asc_jit_release(k);
}

static void *tier_build(void *arg) {
  tier_job *j = arg;
  asc_jit_kernel *k = j->k;
  char *tmp_so = NULL;
  if (!compile(j->cc, &j->limits, j->source, j->source_len, j->base, j->name, false, false,
               &tmp_so)) {
    const char *from = tmp_so;
    if (jit_cache_publish(tmp_so, j->so_path, j->sum_path, j->key)) {
      from = j->so_path;
      jit_cache_evict(j->dir, j->limits.cache_max, strrchr(j->so_path, '/') + 1);
    }
    void *handle = dlopen(from, RTLD_NOW | RTLD_LOCAL);
    entry_fn entry = NULL;
    if (handle) *(void **)&entry = dlsym(handle, "asc_kernel_entry");
    if (entry) {
      k->tier2_handle = handle;
      atomic_store(&k->entry, entry);
    } else if (handle) {
      dlclose(handle);
    }
    discard_build(tmp_so);
  }
  /* a failed optimising build leaves the first tier running: its errors
   * would have been the first tier's too, or are the machine's */
  asc_clear_error();
  free(tmp_so);
  tier_job_free(j);
  tier_finished(k);
  return NULL;
}

void jit_tier_before_launch(asc_jit_kernel *k, const asc_jit_arg *args, int nargs) {
  if (!atomic_load(&k->tier_pending)) return;
  int64_t bytes = 0; /* lengths are checked non-negative by the launch */
  for (int i = 0; i < nargs; i++)
    if (k->params && k->params[i] == 'a')
      bytes = args[i].n > INT64_MAX - bytes ? INT64_MAX : bytes + args[i].n;
  uint64_t limit;
  if (jit_env_limit("PYASC_JIT_TIER1_BYTES", TIER1_DEFAULT_BYTES, &limit)) {
    asc_clear_error();
    limit = TIER1_DEFAULT_BYTES;
  }
  if (!limit || (uint64_t)bytes <= limit) return;
  pthread_mutex_lock(&tier_lock);
  while (atomic_load(&k->tier_pending) && k->tier_epoch == tier_epoch)
    pthread_cond_wait(&tier_cond, &tier_lock);
  pthread_mutex_unlock(&tier_lock);
}

/* Starts the optimising build of k in a detached thread that takes no
 * signals (Python's handlers run on the main thread). Without memory or a
 * thread, k simply stays at the first tier. */
static void tier_start(asc_jit_kernel *k, const char *cc, const jit_limits *l, const char *source,
                       size_t source_len, const char *base, const char *name, const char *so_path,
                       const char *sum_path, const char *dir, const char *key) {
  pthread_once(&tier_once, tier_init);
  tier_job *j = calloc(1, sizeof *j);
  if (!j) return;
  j->limits = *l;
  j->source_len = source_len;
  snprintf(j->key, sizeof j->key, "%s", key);
  j->cc = jit_format("%s", cc);
  j->source = malloc(source_len + 1);
  j->base = jit_format("%s", base);
  j->name = jit_format("%s", name);
  j->so_path = jit_format("%s", so_path);
  j->sum_path = jit_format("%s", sum_path);
  j->dir = jit_format("%s", dir);
  if (!j->cc || !j->source || !j->base || !j->name || !j->so_path || !j->sum_path || !j->dir) {
    tier_job_free(j);
    return;
  }
  memcpy(j->source, source, source_len + 1);
  asc_jit_retain(k);
  j->k = k;
  pthread_mutex_lock(&tier_lock);
  tier_builds_running++;
  k->tier_epoch = tier_epoch;
  atomic_store(&k->tier_pending, true);
  pthread_mutex_unlock(&tier_lock);
  sigset_t all, old;
  sigfillset(&all);
  pthread_sigmask(SIG_SETMASK, &all, &old);
  pthread_attr_t attr;
  pthread_t thread;
  bool started = !pthread_attr_init(&attr);
  if (started) {
    pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
    started = !pthread_create(&thread, &attr, tier_build, j);
    pthread_attr_destroy(&attr);
  }
  pthread_sigmask(SIG_SETMASK, &old, NULL);
  if (started) return;
  tier_job_free(j);
  tier_finished(k);
}

/* The first tier of a cache miss: tcc's build, loaded into *out, with the
 * optimising build started behind it. False (no tcc, a source tcc
 * refuses, a profiled kernel) when the caller is to build with cc. */
static bool tier_first(tier_mode mode, const char *cc, const jit_limits *l, const char *source,
                       size_t source_len, const char *base, const char *name, const char *so_path,
                       const char *sum_path, const char *dir, const char *key,
                       asc_jit_kernel **out) {
  char *tcc = find_program("tcc");
  char *tmp_so = NULL;
  bool built = tcc && !compile(tcc, l, source, source_len, base, name, false, true, &tmp_so);
  free(tcc);
  if (!built) {
    asc_clear_error();
    return false;
  }
  bool loaded = !load(tmp_so, name, out);
  discard_build(tmp_so);
  free(tmp_so);
  if (!loaded) {
    asc_clear_error();
    return false;
  }
  if ((*out)->pf_reset) { /* a profiled kernel keeps its records in one library */
    asc_jit_release(*out);
    *out = NULL;
    return false;
  }
  (*out)->tier1_entry = atomic_load(&(*out)->entry);
  char *path = jit_format("%s", so_path); /* where the optimised build will be */
  if (path) free((*out)->path), (*out)->path = path;
  if (mode == TIERS_ON)
    tier_start(*out, cc, l, source, source_len, base, name, so_path, sum_path, dir, key);
  return true;
}

asc_status asc_jit_build(const char *source, const char *name, const asc_jit_options *options,
                         asc_jit_kernel **out, bool *cache_hit) {
  const char *cc = compiler_name(options);
  bool cxx = options && options->cxx;
  char identity[256], safe[65];
  char *dir = NULL;
  jit_limits limits;
  size_t source_len = strlen(source);
  safe_file_name(name, safe);
  asc_status st = read_limits(&limits);
  if (!st && limits.max_source && source_len > limits.max_source)
    st = asc_error(ASC_ERR_COMPILE,
                   "kernel '%s' generates %zu bytes of C, over the limit of %llu bytes "
                   "(PYASC_MAX_KERNEL_SOURCE): unroll less (fewer ConstExpr-driven loop copies)",
                   name, source_len, (unsigned long long)limits.max_source);
  if (!st) st = compiler_identity(cc, &limits, identity, sizeof identity);
  if (!st) st = asc_jit_cache_dir(options ? options->cache_dir : NULL, &dir);
  if (!st) st = jit_cache_prepare(dir);
  if (!st) st = dump_source(options, source, source_len, safe);
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
  XXH3_128bits_update(state, source, source_len);
  XXH3_128bits_update(state, identity, strlen(identity) + 1);
  if (cxx) {
    for (size_t i = 0; i < CXX_NFLAGS; i++)
      XXH3_128bits_update(state, cxx_flags[i], strlen(cxx_flags[i]) + 1);
    for (int i = 0; i < CXX_HEADERS; i++)
      XXH3_128bits_update(state, cxx_header_text(i), strlen(cxx_header_text(i)) + 1);
  } else {
    for (size_t i = 0; i < CC_NFLAGS; i++)
      XXH3_128bits_update(state, cc_flags[i], strlen(cc_flags[i]) + 1);
  }
  if (cc_isa()) XXH3_128bits_update(state, cc_isa(), strlen(cc_isa()) + 1);
  XXH3_128bits_update(state, asc_version(), strlen(asc_version()) + 1);
  XXH128_hash_t h = XXH3_128bits_digest(state);
  XXH3_freeState(state);
  char key[33];
  snprintf(key, sizeof key, "%016llx%016llx", (unsigned long long)h.high64,
           (unsigned long long)h.low64);
  /* File names come from the hash and the sanitised name only: a name like
   * "../x" cannot leave the cache. */
  char *base = jit_format("%s/%s-%s", dir, safe, key);
  char *so_path = base ? jit_format("%s.so", base) : NULL,
       *sum_path = base ? jit_format("%s.sum", base) : NULL;
  if (!so_path || !sum_path) st = asc_error(ASC_ERR_OUT_OF_MEMORY, "out of memory");
  bool hit = false;
  if (!st) {
    hit = !(options && options->always_compile) && jit_cache_valid(so_path, sum_path, key);
    char *tmp_so = NULL;
    tier_mode tiers = hit ? TIERS_OFF : tiers_wanted(options, source);
    if (hit) {
      st = load(so_path, name, out);
    } else if (tiers != TIERS_OFF && tier_first(tiers, cc, &limits, source, source_len, base, name,
                                                so_path, sum_path, dir, key, out)) {
      st = ASC_OK;
    } else if (!(st = compile(cc, &limits, source, source_len, base, name, cxx, false, &tmp_so))) {
      if (jit_cache_publish(tmp_so, so_path, sum_path, key)) {
        st = load(so_path, name, out);
        jit_cache_evict(dir, limits.cache_max, strrchr(so_path, '/') + 1);
      } else {
        /* The entry's name is blocked (a non-empty directory...): run
         * this build uncached rather than fail for good. */
        st = load(tmp_so, name, out);
      }
      discard_build(tmp_so);
    }
    free(tmp_so);
  }
  if (cache_hit) *cache_hit = hit;
  free(dir);
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
  if (k->tier2_handle) dlclose(k->tier2_handle);
  if (k->handle) dlclose(k->handle); /* none for a host program's kernel */
  free(k->name);
  free(k->path);
  free(k);
}

int asc_jit_tier(const asc_jit_kernel *k) {
  entry_fn now = atomic_load(&((asc_jit_kernel *)k)->entry);
  return k->tier1_entry && now == k->tier1_entry ? 1 : 2;
}

const char *asc_jit_path(const asc_jit_kernel *k) {
  return k->path;
}

const char *asc_jit_params(const asc_jit_kernel *k) {
  return k->params;
}
