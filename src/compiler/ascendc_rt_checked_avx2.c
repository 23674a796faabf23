/* The checked table of the kernel runtime for Ascend C (see ascendc_rt.c),
 * compiled with -mavx2 (meson.build) for CPUs that have it: jit.c hands it
 * out when generated kernels are built with -mavx2 too, so that both run
 * the runtime's loops the same width. */
#define ASC_K_CHECKED 1
#define PYASC_SIM_TABLE asc_ascendc_table_checked_avx2
#include "ascendc_rt.c"
