// Ascend C's header of ListTensorDesc/TensorDesc for .asc programs (python -m pyasc
// asc-compile): the simulator's kernel_operator.h has them (kernel_operator/list_tensor.h).
#ifndef PYASC_ASCENDC_KERNEL_OPERATOR_LIST_TENSOR_INTF_H
#define PYASC_ASCENDC_KERNEL_OPERATOR_LIST_TENSOR_INTF_H
#include "kernel_operator.h"
#endif
