/* The kernel runtime's table for Ascend C kernels that use the cube (see
 * ascendc_rt.c): the same file with the AIC's units and core groups, whose
 * checked mode also shadows the AIC's buffers. jit.c hands it to a kernel
 * that exports pyasc_sim_cube, so that vector kernels keep the smaller
 * shadow of the plain tables. */
#define ASC_K_CUBE 1
#define ASC_K_MIX 1
#define PYASC_SIM_TABLE asc_ascendc_table_cube_plain
#include "ascendc_rt.c"
