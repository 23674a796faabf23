// CANN's header for printf in kernels, on the simulator: a kernel's printf is the C library's,
// printed by the thread that runs the block (blocks' lines may interleave).
#ifndef PYASC_ASCENDC_UTILS_DEBUG_ASC_PRINTF_H
#define PYASC_ASCENDC_UTILS_DEBUG_ASC_PRINTF_H

#include <cstdio>

#include "../../kernel_operator.h"

#endif
