/* The checked mode's table for Ascend C kernels that use the cube (see
 * ascendc_rt_cube.c). */
#define ASC_K_CHECKED 1
#define ASC_K_CUBE 1
#define ASC_K_MIX 1
#define PYASC_SIM_TABLE asc_ascendc_table_cube_checked
#include "ascendc_rt.c"
