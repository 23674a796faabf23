/* Building generated C into native kernels, with an on-disk cache, and
 * launching them over N blocks of the simulated cores. */
#ifndef ASC_JIT_H
#define ASC_JIT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "asc/runtime.h"
#include "asc/status.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct asc_jit_kernel asc_jit_kernel;

typedef struct asc_jit_options {
  const char *cache_dir; /* NULL: $PYASC_CACHE_DIR or ~/.pyasc/cache */
  const char *compiler;  /* NULL: $PYASC_CC or cc */
  bool always_compile;   /* rebuild even when the cache has the kernel */
  const char *dump_dir;  /* NULL: $PYASC_DUMP_PATH; if set, the source is copied there */
  bool cxx; /* the source is C++17 Ascend C (kernel_operator.h): built with $PYASC_CXX or c++ */
} asc_jit_options;

/* One kernel argument as the generated code reads it. */
typedef struct asc_jit_arg {
  union {
    int64_t i;
    double f;
    void *p;
  } v;
  int64_t n; /* for addresses: bytes available from p; ignored (0) for scalars */
} asc_jit_arg;

/* Builds (or finds in the cache) C `source` for kernel `name`. The caller
 * owns *out (asc_jit_release). *cache_hit tells whether no compiler ran. */
asc_status asc_jit_build(const char *source, const char *name, const asc_jit_options *options,
                         asc_jit_kernel **out, bool *cache_hit);
/* Builds Ascend C `source` (C++17 against include/ascendc/kernel_operator.h)
 * whose kernel function is `kernel` (a C++ identifier), for the simulated
 * cores: the runtime is libasc's (checked mode's when `checked`). `file`
 * names the source in compiler errors and kernel errors (NULL: "<string>").
 * The caller owns *out (asc_jit_release). */
asc_status asc_ascendc_build(const char *source, const char *file, const char *kernel, bool checked,
                             const asc_jit_options *options, asc_jit_kernel **out, bool *cache_hit);
/* The same, profiled when `profiled`: the kernel runs the runtime's profiled
 * table (unchecked: `checked` is ignored), which charges the timing model
 * (docs/perf-model.md); its records come from asc_jit_profile_reset and
 * asc_jit_profile_records, as a profiled C kernel's. */
asc_status asc_ascendc_build_mode(const char *source, const char *file, const char *kernel,
                                  bool checked, bool profiled, const asc_jit_options *options,
                                  asc_jit_kernel **out, bool *cache_hit);
/* A kernel compiled into the program itself (a .asc host program:
 * include/ascendc/pyasc_sim_launch.h): its per-block entry, parameter
 * kinds (NULL: none; kept by pointer, so static), asc_kernel_all_live's
 * value (0: none) and the slot its calls read the runtime's table from,
 * where the table of the mode asked (checked, cube) is stored now. The
 * caller owns *out (asc_jit_release); launch it with asc_jit_launch. */
asc_status asc_jit_host_kernel(const char *name, int (*entry)(void *, const void *),
                               const char *params, int all_live, const void **table, bool checked,
                               bool cube, asc_jit_kernel **out);
/* The runtime's table (a const pyasc_sim_api *, include/ascendc/pyasc_sim.h)
 * an Ascend C kernel of that mode gets. */
const void *asc_jit_ascendc_table(bool checked, bool cube);
/* What asc_ascendc_build reads from an Ascend C source, as the numbers it
 * defines for kernel_operator.h: PYASC_SIM_ALL_LIVE (*live), PYASC_SIM_CUBE
 * (*cube), PYASC_SIM_GROUP (*group). source must not be NULL. */
void asc_ascendc_traits(const char *source, int *live, int *cube, int *group);
/* Waits until every optimising build started behind a first-tier build
 * (jit.c, PYASC_JIT_TIERS) has published its kernel and swapped it in;
 * also run at exit, so that the disk cache keeps the optimised build. */
void asc_jit_wait_tiers(void);
/* 1 while k runs its first tier's build (TinyCC), 2 once it runs the
 * optimising build, which a kernel built in one tier always does. */
int asc_jit_tier(const asc_jit_kernel *k);
void asc_jit_retain(asc_jit_kernel *k);
void asc_jit_release(asc_jit_kernel *k);
/* Path of the cached shared object (owned by the kernel). */
const char *asc_jit_path(const asc_jit_kernel *k);
/* The kernel's parameter kinds, one letter each: 'a' an address, 'i' an
 * integer, 'b' a bool, 'f' a float; NULL when the library does not declare
 * them (then it takes no arguments). Owned by the kernel. */
const char *asc_jit_params(const asc_jit_kernel *k);
/* Profiled kernels (asc_ir_emit_c_profiled; rt/perf_model.h has the
 * record, docs/perf-model.md the model). reset makes room for n block
 * records (a launch of N blocks fills N, a mixed one 3N) and clears them;
 * records gives the kernel's array, valid until the next reset, owned by
 * the kernel. Either fails for a kernel built without profiling. A
 * kernel keeps one set of records: profiled launches of one kernel must
 * not overlap. */
typedef struct asc_pf_record asc_pf_record;
asc_status asc_jit_profile_reset(asc_jit_kernel *k, int64_t n);
asc_status asc_jit_profile_records(const asc_jit_kernel *k, const asc_pf_record **out, int64_t *n);
/* The cache directory in use (resolved like asc_jit_build): caller frees. */
asc_status asc_jit_cache_dir(const char *override, char **out);
/* The cache's size limit in bytes ($PYASC_CACHE_MAX_BYTES, default 1 GiB;
 * 0: unbounded). Past it, least recently used entries are evicted. */
asc_status asc_jit_cache_limit(uint64_t *out);

/* Writes data to <dir>/<name><suffix>, dir NULL: $PYASC_DUMP_PATH (nothing
 * when unset or empty; *written, if not NULL, says whether a file was
 * written). name enters the file name in its [A-Za-z0-9_] form only;
 * suffix is one of ".c", ".ir", ".ascendc.cpp". The directory is created
 * 0700 if missing and must belong to the user and be writable by nobody
 * else; the file is written to a temporary opened without following links
 * and renamed over the name, which may hold only a regular file. */
asc_status asc_jit_dump(const char *dir, const char *name, const char *suffix, const char *data,
                        size_t size, bool *written);

/* Launches over nblocks blocks on stream. keep[] are storages (as void *
 * asc_storage) that must live until the kernel ran: references are taken. */
asc_status asc_jit_launch(asc_jit_kernel *k, asc_stream_t stream, uint32_t nblocks,
                          const asc_jit_arg *args, int nargs, void *const *keep, int nkeep);
/* How a caller stops a launch (asc_jit_launch_cancellable). */
typedef struct asc_jit_cancel {
  int flag; /* non-zero: the blocks stop (read atomically) */
  /* If not NULL: called on the launching thread, about every 20 ms, while
   * a block of the launch runs there (ASC_LAUNCH_CALLER_WAITS on an idle
   * stream) and loops or waits; non-zero sets flag. */
  int (*check)(void *user);
  void *user;
} asc_jit_cancel;
/* asc_jit_launch_ex whose blocks stop with an ASC_ERR_KERNEL
 * ("interrupted") at their next loop iteration or wait turn once
 * cancel->flag is non-zero (cancel NULL: never). The caller owns *cancel
 * and keeps it alive until the launch has finished (a synchronize of its
 * stream). PYASC_KERNEL_TIMEOUT_MS (default 0: none), read at each launch,
 * stops a block of any launch that runs longer, naming its loop's line. */
asc_status asc_jit_launch_cancellable(asc_jit_kernel *k, asc_stream_t stream, uint32_t nblocks,
                                      const asc_jit_arg *args, int nargs, void *const *keep,
                                      int nkeep, uint32_t flags, asc_jit_cancel *cancel);
/* Stops every launch of this process that has no caller's cancellation
 * (the asynchronous ones, queued or running): their blocks end with an
 * ASC_ERR_KERNEL ("interrupted") at their next loop iteration or wait
 * turn, which their stream reports once, at its next synchronisation.
 * What a Ctrl-C of a wait does. Returns how many launches it flagged. */
int asc_jit_cancel_running(void);
/* asc_jit_launch with ASC_LAUNCH_* flags (ASC_LAUNCH_CALLER_WAITS). */
asc_status asc_jit_launch_ex(asc_jit_kernel *k, asc_stream_t stream, uint32_t nblocks,
                             const asc_jit_arg *args, int nargs, void *const *keep, int nkeep,
                             uint32_t flags);

#ifdef __cplusplus
}
#endif
#endif
