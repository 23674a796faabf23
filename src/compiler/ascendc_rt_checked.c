/* The checked mode's table of the kernel runtime for Ascend C (see
 * ascendc_rt.c): the same file, compiled with the checked mode's checks. */
#define ASC_K_CHECKED 1
#define PYASC_SIM_TABLE asc_ascendc_table_checked
#include "ascendc_rt.c"
