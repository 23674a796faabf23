// CANN's kernel_tiling/kernel_tiling.h for pyasc's simulator: the tiling structs as the kernel
// reads them, in AscendC::tiling and exported to the global namespace as CANN's are.
//
// The structs are kernel_operator.h's own (one type on the host and in the kernel): the
// matmul's TCubeTiling, SoftMaxTiling, RmsNormTiling, the normalisation family's (LayerNormTiling,
// LayerNormSeparateTiling, DeepNormTiling, ...) and the tensor transforms' (PadTiling,
// UnPadTiling, ConfusionTransposeTiling) and TopK's (TopkTiling).
#ifndef PYASC_ASCENDC_KERNEL_TILING_H
#define PYASC_ASCENDC_KERNEL_TILING_H

#include <cstdint>
#include <cstring>

#include "../kernel_operator/adv_tiling.h"
#include "../kernel_operator/tcube_tiling.h"
#include "../kernel_operator/topk_tiling.h"
#include "../kernel_operator/transform_tiling.h"

#endif
