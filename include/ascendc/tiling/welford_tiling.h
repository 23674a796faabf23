// Part of tiling/tiling_api.h: the shared tmp buffer sizes of Ascend C's WelfordUpdate and
// WelfordFinalize, as CANN's asc-devkit computes them for dav-2201, by libasc's
// asc_tiling_welford_* (docs/host-tiling.md). On an input CANN's checks refuse, the sizes are
// left as they were, with the reason on stderr.
#ifndef PYASC_ASCENDC_WELFORD_TILING_H
#define PYASC_ASCENDC_WELFORD_TILING_H

#include <cstdint>
#include <cstdio>

#include "../graph/tensor.h"
#include "asc/tiling.h"
#include "math_tiling.h"

namespace AscendC {
// srcShape: [rnLength, abLength]; typeSizeT the source's (2 or 4); the mean and variance are
// float whatever typeSizeU says, and isInplace needs no buffer.
inline void GetWelfordUpdateMaxMinTmpSize(const TensorShape &srcShape, const uint32_t typeSizeT,
                                          const uint32_t typeSizeU, const bool isReuseSource,
                                          const bool isInplace, uint32_t &maxValue,
                                          uint32_t &minValue) {
  (void)typeSizeU, (void)isInplace;
  const char *what = "GetWelfordUpdateMaxMinTmpSize";
  if (srcShape.GetDimNum() != 2) {
    std::fprintf(stderr, "%s: srcShape has %zu axes, not 2\n", what, srcShape.GetDimNum());
    return;
  }
  if (asc_tiling_welford_update_tmp_size(srcShape.GetDim(0), srcShape.GetDim(1),
                                         static_cast<int32_t>(typeSizeT), isReuseSource, &maxValue,
                                         &minValue) != ASC_OK)
    std::fprintf(stderr, "%s: %s\n", what, asc_last_error());
}

// srcShape: [abLength], the partial means WelfordFinalize sums.
inline void GetWelfordFinalizeMaxMinTmpSize(const TensorShape &srcShape, const uint32_t typeSize,
                                            const bool isReuseSource, uint32_t &maxValue,
                                            uint32_t &minValue) {
  (void)typeSize, (void)isReuseSource;
  const char *what = "GetWelfordFinalizeMaxMinTmpSize";
  if (srcShape.GetDimNum() != 1) {
    std::fprintf(stderr, "%s: srcShape has %zu axes, not 1\n", what, srcShape.GetDimNum());
    return;
  }
  if (asc_tiling_welford_finalize_tmp_size(srcShape.GetDim(0), &maxValue, &minValue) != ASC_OK)
    std::fprintf(stderr, "%s: %s\n", what, asc_last_error());
}
}  // namespace AscendC

#endif
