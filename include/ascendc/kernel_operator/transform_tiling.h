// Part of kernel_operator.h (and of kernel_tiling/kernel_tiling.h, the host's view): the tiling
// structs of the adv tensor transforms (Pad, UnPad, ConfusionTranspose), plain aggregates in
// AscendC::tiling and exported to the global namespace, as CANN's kernel_tiling.h has them. Their
// members are libasc's asc_pad_tiling, asc_unpad_tiling and asc_confusion_transpose_tiling, in
// CANN's order (tiling/pad_tiling.h and tiling/confusion_transpose_tiling.h copy one into the
// other).
#ifndef PYASC_ASCENDC_TRANSFORM_TILING_H
#define PYASC_ASCENDC_TRANSFORM_TILING_H

#include <cstdint>

namespace AscendC {
namespace tiling {
struct PadTiling {
  uint32_t srcHeight = 0, srcWidth = 0, srcOriWidth = 0, widthWithoutLastBlock = 0;
  uint32_t blocksPerRow = 0, heightTiling = 0, heightFractal = 0, heightFractalTail = 0;
  uint32_t mainLoopOffset = 0, tailBlockOffset = 0, tmpBuffer1BlockNum = 0, tmpBuffer1RowNum = 0;
  uint32_t tmpBuffer2Offset = 0, widthTiling = 0, widthFractal = 0, widthFractalTail = 0;
  uint32_t widthFractalTailAlingned = 0, brcbTiling = 0, brcbFractal = 0, brcbFractalTail = 0;
  uint32_t maxRepeatTimes = 0, brcbTilingRepeatTimes = 0, brcbTilingRepeatTimesTail = 0;
  uint32_t brcbFractalTailRepeatTimes = 0, brcbFractalTailRepeatTimesTail = 0, reserved = 0;
};
struct UnPadTiling {
  uint32_t srcHeight = 0, srcWidth = 0, tmpBuffer1BlockNum = 0, tmpBuffer1RowNum = 0;
  uint32_t tmpBuffer2Offset = 0, widthTiling = 0, widthFractal = 0, widthFractalTail = 0;
};
struct ConfusionTransposeTiling {
  uint32_t param0 = 0, param1 = 0, param2 = 0, param3 = 0, param4 = 0, param5 = 0;
  uint32_t param6 = 0, param7 = 0, param8 = 0, param9 = 0, param10 = 0, param11 = 0;
  uint32_t param12 = 0, param13 = 0, param14 = 0, param15 = 0, param16 = 0, param17 = 0;
};
}  // namespace tiling
}  // namespace AscendC
using AscendC::tiling::ConfusionTransposeTiling;
using AscendC::tiling::PadTiling;
using AscendC::tiling::UnPadTiling;

#endif
