// Part of tiling/tiling_api.h: the host side of Ascend C's math library APIs, the shared
// temporary buffer their kernel calls take (sizes as CANN's asc-devkit computes them).
#ifndef PYASC_ASCENDC_MATH_TILING_H
#define PYASC_ASCENDC_MATH_TILING_H

#include <cstdint>

#include "../graph/tensor.h"

namespace AscendC {

using TensorShape = ge::Shape;

namespace pyasc_detail {
// Exp (with Taylor expansion) works in float32 buffers of the input's length, at least one
// 256-byte repeat each: 3 for float input (2 when it may overwrite the source), 4 for half.
inline uint32_t ExpTmpBuffers(uint32_t typeSize, bool isReuseSource) {
  return typeSize == sizeof(float) ? (isReuseSource ? 2u : 3u) : 4u;
}
}  // namespace pyasc_detail

// Per element of input, maxLiveNodeCount input-sized buffers: the float buffers above over
// the input's typeSize (12/4 for float, 16/2 for half); no extra bytes.
inline void GetExpTmpBufferFactorSize(const uint32_t typeSize, uint32_t &maxLiveNodeCount,
                                      uint32_t &extraBuffer) {
  extraBuffer = 0;
  maxLiveNodeCount = typeSize == sizeof(float) ? 3u : 8u;
}

// The least (one repeat per buffer) and the most (the whole input per buffer) bytes Exp's
// shared buffer needs. false for an unknown (negative) shape or a size past uint32.
inline bool GetExpMaxMinTmpSize(const TensorShape &srcShape, const uint32_t typeSize,
                                const bool isReuseSource, uint32_t &maxValue, uint32_t &minValue) {
  const uint64_t repeat = 256;
  const uint64_t buffers = pyasc_detail::ExpTmpBuffers(typeSize, isReuseSource);
  int64_t count = srcShape.GetShapeSize();
  if (count < 0) return false;
  uint64_t perBuffer = static_cast<uint64_t>(count) * sizeof(float);
  if (perBuffer / sizeof(float) != static_cast<uint64_t>(count)) return false;
  if (perBuffer < repeat) perBuffer = repeat;
  if (perBuffer > UINT32_MAX / buffers) return false;
  minValue = static_cast<uint32_t>(buffers * repeat);
  maxValue = static_cast<uint32_t>(buffers * perBuffer);
  return true;
}

}  // namespace AscendC

#endif
