/* Launches of Ascend C kernels compiled into the host program
 * (include/ascendc/pyasc_sim_launch.h): a `.asc` program's
 * kernel<<<...>>>(...) over libasc's JIT launcher, as pyasc.ascendc.load's
 * kernels are launched, with ACL's error codes. */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "acl_internal.h"
#include "acl_profile.h"
#include "asc/jit.h"
#include "asc/mem.h"
#include "ascendc/pyasc_sim_launch.h"

#define ACL_LAUNCH_MAX_ARGS 64

/* Checked mode as for every other kernel: PYASC_DEBUG set and not 0. */
static bool launch_checked(void) {
  const char *env = getenv("PYASC_DEBUG");
  return env && env[0] && strcmp(env, "0") != 0;
}

const pyasc_sim_api *pyasc_sim_host_table(int cube) {
  if (acl_profile_path()) return acl_profile_table(cube != 0);
  return asc_jit_ascendc_table(launch_checked(), cube != 0);
}

static aclError launch(const pyasc_sim_kernel *kernel, uint32_t block_dim, void *stream,
                       const pyasc_sim_arg *args, int nargs) {
  if (!kernel || !kernel->name || !kernel->entry || !kernel->table)
    return acl_fail(ACL_ERROR_INVALID_PARAM, "kernel launch: NULL kernel description");
  if (nargs < 0 || nargs > ACL_LAUNCH_MAX_ARGS)
    return acl_fail(ACL_ERROR_INVALID_PARAM, "kernel %.80s: %d arguments (at most %d)",
                    kernel->name, nargs, ACL_LAUNCH_MAX_ARGS);
  if (nargs && !args)
    return acl_fail(ACL_ERROR_INVALID_PARAM, "kernel %.80s: %d arguments in a NULL array",
                    kernel->name, nargs);
  asc_stream_t handle = 0;
  aclError err = acl_stream_of(stream, "kernel launch", &handle);
  if (err) return err;
  /* An address reaches to the end of its allocation: the bound the
   * runtime's pointer checks hold the kernel to. */
  asc_jit_arg packed[ACL_LAUNCH_MAX_ARGS];
  for (int i = 0; i < nargs; i++) {
    memset(&packed[i], 0, sizeof packed[i]);
    bool address = kernel->params && (size_t)i < strlen(kernel->params) && kernel->params[i] == 'a';
    if (!address) {
      memcpy(&packed[i].v, &args[i].v, sizeof packed[i].v);
      continue;
    }
    packed[i].v.p = args[i].v.p;
    if (!args[i].v.p) continue;
    asc_mem_range r;
    if (asc_mem_lookup(args[i].v.p, 1, &r))
      return acl_fail(ACL_ERROR_INVALID_PARAM,
                      "kernel %.80s: argument %d (%p) is not in device memory (aclrtMalloc)",
                      kernel->name, i, (void *)args[i].v.p);
    packed[i].n = (int64_t)((char *)r.base + r.nbytes - args[i].v.p);
  }
  asc_jit_kernel *k = NULL;
  /* profiled: the program's slot gets the profiled table under acl_profile.c's lock */
  const void *unused = NULL;
  bool profiled = acl_profile_path() != NULL;
  asc_status st = asc_jit_host_kernel(kernel->name, kernel->entry, kernel->params, kernel->all_live,
                                      profiled ? &unused : (const void **)kernel->table,
                                      launch_checked(), kernel->cube != 0, &k);
  if (st) return acl_from_status(st);
  if (profiled) {
    err = acl_profile_launch(kernel, k, handle, block_dim, packed, nargs);
    asc_jit_release(k);
    return err;
  }
  st = asc_jit_launch(k, handle, block_dim, packed, nargs, NULL, 0);
  asc_jit_release(k); /* the launch holds its own reference */
  return acl_from_status(st);
}

int pyasc_sim_launch(const pyasc_sim_kernel *kernel, uint32_t block_dim, void *stream,
                     const pyasc_sim_arg *args, int nargs) {
  aclError err = launch(kernel, block_dim, stream, args, nargs);
  /* `k<<<...>>>(...)` has no result a CANN program looks at: say why here,
   * and leave the message for aclGetRecentErrMsg too. */
  if (err) fprintf(stderr, "pyasc: launch failed (ACL error %d): %s\n", err, asc_last_error());
  return err;
}
