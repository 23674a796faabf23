// Part of kernel_operator.h (and of kernel_tiling/kernel_tiling.h, the host's view): the adv
// library's tiling structs other than the matmul's, plain aggregates in AscendC::tiling and
// exported to the global namespace, as CANN's kernel_tiling.h has them. SoftMaxTiling's 16
// members are libasc's asc_softmax_tiling, in its order (tiling/softmax_tiling.h copies one
// into the other); pyasc.language.adv_tiling.SoftmaxTiling packs the same.
#ifndef PYASC_ASCENDC_ADV_TILING_H
#define PYASC_ASCENDC_ADV_TILING_H

#include <cstdint>

#include "norm_tiling.h"

namespace AscendC {
namespace tiling {
struct SoftMaxTiling {
  uint32_t srcM = 0, srcK = 0, srcSize = 0, outMaxM = 0, outMaxK = 0, outMaxSize = 0, splitM = 0;
  uint32_t splitK = 0, splitSize = 0, reduceM = 0, reduceK = 0, reduceSize = 0, rangeM = 0;
  uint32_t tailM = 0, tailSplitSize = 0, tailReduceSize = 0;
};
// LogSoftMax's has SoftMaxTiling's members, and the host fills it the same way.
using LogSoftMaxTiling = SoftMaxTiling;
struct RmsNormTiling {
  uint32_t bLength, sLength, hLength, originalHLength;
  float reciprocalOfHLength;
  uint32_t mainBshLength, mainBsLength, mainBsLengthAlign, loopRound, inputTailPos, tailBshLength,
      tailBsLength;
};
}  // namespace tiling
}  // namespace AscendC
using AscendC::tiling::LogSoftMaxTiling;
using AscendC::tiling::RmsNormTiling;
using AscendC::tiling::SoftMaxTiling;

#endif
