// Ascend C's header of the adv Matmul for .asc programs (python -m pyasc asc-compile): the
// simulator's kernel_operator.h has it (kernel_operator/matmul.h).
#ifndef PYASC_ASCENDC_LIB_MATMUL_INTF_H
#define PYASC_ASCENDC_LIB_MATMUL_INTF_H
#include "kernel_operator.h"
#endif
