// CANN's tiling/tiling_api.h for pyasc's simulator: the host-side tiling of Ascend C's library
// APIs. Here: the matmul's (matmul_tiling::MatmulApiTiling, MultiCoreMatmulTiling,
// BatchMatmulTiling over libasc's search), the platform (platform_ascendc::PlatformAscendC), the
// tiling data classes (register/tilingdata_base.h), GE's ge::Shape and the maths library's
// buffer sizes (GetExpMaxMinTmpSize, GetAcoshMaxMinTmpSize, ...), and the sizes and tilings of
// the SoftMax family, the Welford APIs, the normalisation family (LayerNorm, DeepNorm, ...),
// the tensor transforms (Pad, UnPad, ConfusionTranspose) and TopK. Link libasc: the CMake targets
// tiling_api, register, platform; docs/host-tiling.md, "C++".
#ifndef PYASC_ASCENDC_TILING_API_H
#define PYASC_ASCENDC_TILING_API_H

// CANN's headers bring the iostreams with them; its examples print with std::cout.
#include <iostream>

#include "../graph/tensor.h"
#include "../kernel_tiling/kernel_tiling.h"
#include "../register/tilingdata_base.h"
#include "confusion_transpose_tiling.h"
#include "layernorm_tiling.h"
#include "math_tiling.h"
#include "matmul_tiling.h"
#include "pad_tiling.h"
#include "platform/platform_ascendc.h"
#include "softmax_tiling.h"
#include "topk_tiling.h"
#include "welford_tiling.h"

#endif
