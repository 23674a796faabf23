/* The profiled table of the kernel runtime for Ascend C (see ascendc_rt.c):
 * the plain runtime whose entries also charge the timing model
 * (ascendc_rt_perf.h), for kernels launched inside pyasc.profile(). */
#define ASC_K_PROFILE 1
#define PYASC_SIM_TABLE asc_ascendc_table_profiled
#define asc_kernel_pf_reset asc_ascendc_pf_reset
#define asc_kernel_pf_records asc_ascendc_pf_records
#include "ascendc_rt.c"
