// Part of kernel_operator.h (and of kernel_tiling/kernel_tiling.h, the host's view): TopK's
// tiling struct, a plain aggregate in AscendC::tiling exported to the global namespace as CANN's
// kernel_tiling.h has it, and TopKMode, which the host tiling and the kernel API share. The
// members are libasc's asc_topk_tiling, in CANN's order (tiling/topk_tiling.h copies one into the
// other).
#ifndef PYASC_ASCENDC_TOPK_TILING_H
#define PYASC_ASCENDC_TOPK_TILING_H

#include <cstdint>

namespace AscendC {
// TOPK_NORMAL: rows of any multiple of 32 elements, one at a time; TOPK_NSMALL: rows of exactly
// 32, all at once.
enum class TopKMode {
  TOPK_NORMAL,
  TOPK_NSMALL,
};
namespace tiling {
struct TopkTiling {
  int32_t tmpLocalSize = 0, allDataSize = 0, innerDataSize = 0;
  uint32_t sortRepeat = 0;
  int32_t mrgSortRepeat = 0, kAlignFourBytes = 0, kAlignTwoBytes = 0, maskOffset = 0;
  int32_t maskVreducev2FourBytes = 0, maskVreducev2TwoBytes = 0;
  int32_t mrgSortSrc1offset = 0, mrgSortSrc2offset = 0, mrgSortSrc3offset = 0;
  int32_t mrgSortTwoQueueSrc1Offset = 0, mrgFourQueueTailPara1 = 0, mrgFourQueueTailPara2 = 0;
  int32_t srcIndexOffset = 0;
  uint32_t copyUbToUbBlockCount = 0;
  int32_t topkMrgSrc1MaskSizeOffset = 0, topkNSmallSrcIndexOffset = 0;
  uint32_t vreduceValMask0 = 0, vreduceValMask1 = 0, vreduceIdxMask0 = 0, vreduceIdxMask1 = 0;
  uint16_t vreducehalfValMask0 = 0, vreducehalfValMask1 = 0, vreducehalfValMask2 = 0;
  uint16_t vreducehalfValMask3 = 0, vreducehalfValMask4 = 0, vreducehalfValMask5 = 0;
  uint16_t vreducehalfValMask6 = 0, vreducehalfValMask7 = 0;
};
}  // namespace tiling
}  // namespace AscendC
using AscendC::tiling::TopkTiling;

#endif
