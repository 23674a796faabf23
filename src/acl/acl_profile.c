/* A host program's kernel launches under the timing model
 * (docs/perf-model.md): with PYASC_PROFILE_OUT naming a file, every launch
 * of a `.asc` program's kernel runs on the runtime's profiled table, waits
 * for its stream, and appends one JSON line to the file: {"name",
 * "block_num", "records"}, the records as CompiledKernel.profile_records
 * gives them (src/binding/profile.c), which `python -m pyasc prof PROGRAM`
 * reads back and sums as for any other kernel (pyasc.profiler). */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include "../compiler/ascendc_rt.h"
#include "../compiler/rt/perf_model.h"
#include "acl_profile.h"

/* The profiled tables keep one launch's records at a time: a launch holds
 * this from their reset to the end of the line it writes. */
static pthread_mutex_t acl_profile_lock = PTHREAD_MUTEX_INITIALIZER;

const char *acl_profile_path(void) {
  const char *path = getenv("PYASC_PROFILE_OUT");
  return path && *path ? path : NULL;
}

const pyasc_sim_api *acl_profile_table(int cube) {
  return cube ? &asc_ascendc_table_cube_profiled : &asc_ascendc_table_profiled;
}

/* The kernel's name as a JSON string: other than [A-Za-z0-9_:<>, ] goes as '_'. */
static void acl_profile_name(FILE *f, const char *name) {
  fputc('"', f);
  for (const char *c = name; *c; c++) {
    int ok = (*c >= '0' && *c <= '9') || (*c >= 'A' && *c <= 'Z') || (*c >= 'a' && *c <= 'z') ||
             *c == '_' || *c == ':' || *c == '<' || *c == '>' || *c == ',' || *c == ' ';
    fputc(ok ? *c : '_', f);
  }
  fputc('"', f);
}

static void acl_profile_write(FILE *f, const char *name, uint32_t block_dim,
                              const asc_pf_record *recs, int64_t n) {
  fputs("{\"name\": ", f);
  acl_profile_name(f, name);
  fprintf(f, ", \"block_num\": %u, \"records\": [", block_dim);
  const char *sep = "";
  for (int64_t i = 0; i < n; i++) {
    const asc_pf_record *r = &recs[i];
    if (!r->used) continue;
    fprintf(f, "%s[%lld, %d, %d, %d, %d, %.17g, %.17g, %.17g, [", sep, (long long)r->block_idx,
            r->core_kind, r->sub_block, r->wave, r->cores, r->clock_mhz, r->launch_us, r->end);
    for (int p = 0; p < ASC_PF_NPIPES; p++) fprintf(f, "%s%.17g", p ? ", " : "", r->busy[p]);
    fputs("], [", f);
    for (int32_t s = 0; s < r->nspans && s < ASC_PF_MAX_SPANS; s++)
      fprintf(f, "%s[%d, %.9g, %.9g, %d]", s ? ", " : "", r->spans[s].pipe,
              (double)r->spans[s].start, (double)r->spans[s].end, r->spans[s].line);
    fputs("]]", f);
    sep = ", ";
  }
  fputs("]}\n", f);
}

aclError acl_profile_launch(const pyasc_sim_kernel *kernel, asc_jit_kernel *k, asc_stream_t stream,
                            uint32_t block_dim, const asc_jit_arg *args, int nargs) {
  const char *path = acl_profile_path();
  int cube = kernel->cube != 0;
  if (!path || block_dim < 1 || block_dim > 65535)
    return acl_fail(ACL_ERROR_INVALID_PARAM, "kernel %.80s: profiling %u blocks", kernel->name,
                    block_dim);
  pthread_mutex_lock(&acl_profile_lock);
  /* the program's slot: every profiled launch stores the profiled table */
  __atomic_store_n(kernel->table, acl_profile_table(cube), __ATOMIC_SEQ_CST);
  int64_t n = 3 * (int64_t)block_dim; /* a mixed kernel's groups: 3 cores each */
  aclError err = ACL_SUCCESS;
  if (cube ? asc_ascendc_pf_reset_cube(n) : asc_ascendc_pf_reset(n))
    err = acl_fail(ACL_ERROR_BAD_ALLOC, "kernel %.80s: no memory for the profile", kernel->name);
  asc_status st = err ? ASC_OK : asc_jit_launch(k, stream, block_dim, args, nargs, NULL, 0);
  if (!err && !st) st = asc_stream_synchronize(stream);
  if (!err && st) err = acl_from_status(st);
  FILE *f = err ? NULL : fopen(path, "a");
  if (!err && !f)
    err = acl_fail(ACL_ERROR_INVALID_PARAM, "kernel %.80s: cannot append to %.200s (%s)",
                   kernel->name, path, "PYASC_PROFILE_OUT");
  if (f) {
    const asc_pf_record *recs = cube ? asc_ascendc_pf_records_cube(&n) : asc_ascendc_pf_records(&n);
    acl_profile_write(f, kernel->name, block_dim, recs, n);
    if (fclose(f))
      err = acl_fail(ACL_ERROR_INVALID_PARAM, "kernel %.80s: cannot write %.200s", kernel->name,
                     path);
  }
  pthread_mutex_unlock(&acl_profile_lock);
  return err;
}
