/* What the JIT's build (jit.c) and its launches (jit_launch.c) share: the
 * kernel runtime's types (the generated kernels' own header, compiled into
 * libasc too) and a loaded kernel. */
#ifndef ASC_COMPILER_JIT_INTERNAL_H
#define ASC_COMPILER_JIT_INTERNAL_H

#include <stdatomic.h>
#include <stdbool.h>

#include "asc/jit.h"
/* The runtime names its source files by index for messages: libasc's own. */
static const char *const asc_k_files[] = {"libasc"};
#include "../tensor/unary_math.h"
#include "asc_kernel_rt.h"
#include "ascendc_rt.h"
#include "rt/perf_model.h"

typedef int (*entry_fn)(asc_k_ctx *k, const asc_k_arg *args);

struct asc_jit_kernel {
  atomic_int refs;
  void *handle;
  /* tiered builds (jit.c): the optimising build replaces the first tier's
   * entry while launches may run, and its library is closed with the
   * kernel (the first tier's stays open: params points into it) */
  _Atomic(entry_fn) entry;
  void *tier2_handle;
  entry_fn tier1_entry;     /* the first tier's entry; NULL: built in one tier */
  atomic_bool tier_pending; /* its optimising build is still running ... */
  unsigned tier_epoch;      /* ... in this process's epoch (jit.c, tiers) */
  bool all_live;            /* it calls sync_all: its blocks meet (asc_kernel_all_live) */
  /* a host program's kernel (asc_jit_host_kernel): its first failure is
   * printed on stderr too, since CANN's programs rarely look at the
   * synchronisation's result */
  bool print_failure;
  int mode0; /* ... for mode-0 cross-core flags: 2 over groups, 3 AIVs, 4 AICs (rt/mix.h) */
  /* its parameters' kinds (asc_kernel_params, emit_c.c), in the library:
   * valid while handle is open; NULL when it does not declare them */
  const char *params;
  char *name;
  char *path;
  /* a profiled kernel's records (rt/perf_model.h); NULL in others */
  int (*pf_reset)(int64_t n);
  const asc_pf_record *(*pf_records)(int64_t *n);
};

/* k's all_live and mode0 from the kernel's asc_kernel_all_live (NULL:
 * absent): 1 SyncAll, 2-4 mode-0 cross-core flags (jit_launch.c). */
void jit_set_live(asc_jit_kernel *k, const int *live);

/* The runtime's table for an Ascend C kernel of that mode (jit.c). */
const pyasc_sim_api *jit_ascendc_table(bool checked, bool cube);

/* Before a launch of k with its nargs checked arguments: a launch over
 * many bytes of address arguments waits for k's optimising build when one
 * is running, since the first tier runs the runtime's loops several to tens
 * of times slower (jit.c, tiers). One atomic load when none runs. */
void jit_tier_before_launch(asc_jit_kernel *k, const asc_jit_arg *args, int nargs);

/* The unsigned integer in environment variable name, def when unset:
 * InvalidValue for anything else (jit.c). */
asc_status jit_env_limit(const char *name, uint64_t def, uint64_t *out);

#endif
