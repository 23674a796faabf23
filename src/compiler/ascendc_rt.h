/* The kernel runtime as tables of functions for Ascend C compiled for the
 * simulated AI cores (include/ascendc/pyasc_sim.h, ascendc_rt.c). */
#ifndef ASC_ASCENDC_RT_H
#define ASC_ASCENDC_RT_H

#include "../../include/ascendc/pyasc_sim.h"

extern const pyasc_sim_api asc_ascendc_table_plain;
extern const pyasc_sim_api asc_ascendc_table_checked;
/* for kernels that use the cube (ascendc_rt_cube.c) */
extern const pyasc_sim_api asc_ascendc_table_cube_plain;
extern const pyasc_sim_api asc_ascendc_table_cube_checked;
/* profiled (ascendc_rt_profiled.c, ascendc_rt_cube_profiled.c): the timing
 * model's charges beside each call; each keeps its launch's block records
 * (rt/perf_model.h asc_pf_record), made by _reset(n) and read by _records */
extern const pyasc_sim_api asc_ascendc_table_profiled;
extern const pyasc_sim_api asc_ascendc_table_cube_profiled;
struct asc_pf_record;
int asc_ascendc_pf_reset(int64_t n);
const struct asc_pf_record *asc_ascendc_pf_records(int64_t *n);
int asc_ascendc_pf_reset_cube(int64_t n);
const struct asc_pf_record *asc_ascendc_pf_records_cube(int64_t *n);
#ifdef ASC_HAVE_AVX2 /* the same, compiled with -mavx2 */
extern const pyasc_sim_api asc_ascendc_table_plain_avx2;
extern const pyasc_sim_api asc_ascendc_table_checked_avx2;
#endif

#endif
