/* The profiled table of the kernel runtime for Ascend C kernels that use
 * the cube (see ascendc_rt_cube.c and ascendc_rt_profiled.c). */
#define ASC_K_CUBE 1
#define ASC_K_MIX 1
#define ASC_K_PROFILE 1
#define PYASC_SIM_TABLE asc_ascendc_table_cube_profiled
#define asc_kernel_pf_reset asc_ascendc_pf_reset_cube
#define asc_kernel_pf_records asc_ascendc_pf_records_cube
#include "ascendc_rt.c"
