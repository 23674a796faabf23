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
#ifdef ASC_HAVE_AVX2 /* the same, compiled with -mavx2 */
extern const pyasc_sim_api asc_ascendc_table_plain_avx2;
extern const pyasc_sim_api asc_ascendc_table_checked_avx2;
#endif

#endif
