// Part of kernel_operator.h and of tiling/math_tiling.h (one type on the host and in the kernel):
// Ascend C's ReducePattern, the axes a reduction keeps (A) and reduces (R), outermost first.
#ifndef PYASC_ASCENDC_REDUCE_PATTERN_H
#define PYASC_ASCENDC_REDUCE_PATTERN_H

#include <cstdint>

namespace AscendC {
enum class ReducePattern : uint32_t {
  AR = 0,
  RA = 1,
  R,
  ARA,
  ARAR,
  ARARA,
  ARARAR,
  ARARARA,
  ARARARAR,
  ARARARARA,
  RAR,
  RARA,
  RARAR,
  RARARA,
  RARARAR,
  RARARARA,
};
}  // namespace AscendC

#endif
