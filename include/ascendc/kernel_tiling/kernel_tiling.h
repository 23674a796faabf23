// CANN's kernel_tiling/kernel_tiling.h for pyasc's simulator: the tiling structs as the kernel
// reads them, in AscendC::tiling and exported to the global namespace as CANN's are.
//
// The matmul's TCubeTiling and SoftMaxTiling, RmsNormTiling are kernel_operator.h's own (one
// type on the host and in the kernel). The other library APIs' tiling structs (LayerNormTiling,
// ...) are not here.
#ifndef PYASC_ASCENDC_KERNEL_TILING_H
#define PYASC_ASCENDC_KERNEL_TILING_H

#include <cstdint>
#include <cstring>

#include "../kernel_operator/adv_tiling.h"
#include "../kernel_operator/tcube_tiling.h"
#include "../kernel_operator/transform_tiling.h"

#endif
