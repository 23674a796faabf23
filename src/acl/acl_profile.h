/* A host program's launches under the timing model (acl_profile.c). */
#ifndef ASC_ACL_PROFILE_H
#define ASC_ACL_PROFILE_H

#include "acl_internal.h"
#include "asc/jit.h"
#include "ascendc/pyasc_sim_launch.h"

/* PYASC_PROFILE_OUT when set and not empty (launches are profiled), else NULL. */
ACL_INTERNAL const char *acl_profile_path(void);
/* The runtime's profiled table for a kernel of this kind (cube: it uses the cube). */
ACL_INTERNAL const pyasc_sim_api *acl_profile_table(int cube);
/* Launches k (kernel's) over block_dim blocks on the profiled table, waits
 * for stream and appends the launch's records to PYASC_PROFILE_OUT. */
ACL_INTERNAL aclError acl_profile_launch(const pyasc_sim_kernel *kernel, asc_jit_kernel *k,
                                         asc_stream_t stream, uint32_t block_dim,
                                         const asc_jit_arg *args, int nargs);

#endif
