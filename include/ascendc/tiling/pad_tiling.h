// Part of tiling/tiling_api.h: the host side of Ascend C's Pad and UnPad (the shared tmp
// buffer's sizes, PadTiling and UnPadTiling), as CANN's asc-devkit computes them for dav-2201, by
// libasc's asc_tiling_pad / asc_tiling_unpad. On an input CANN's checks refuse (a shape of other
// than two positive dims, a typeSize but 2 or 4, an original shape larger than the source, a
// stackBufferSize under the minimum), the sizes are 0 and the tiling is left as it was, with the
// reason on stderr.
#ifndef PYASC_ASCENDC_PAD_TILING_H
#define PYASC_ASCENDC_PAD_TILING_H

#include <cstdint>
#include <cstdio>

#include "../graph/tensor.h"
#include "../kernel_tiling/kernel_tiling.h"
#include "../register/tilingdata_base.h"
#include "asc/tiling.h"
#include "platform/platform_ascendc.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(PadTiling)
TILING_DATA_FIELD_DEF(uint32_t, srcHeight);
TILING_DATA_FIELD_DEF(uint32_t, srcWidth);
TILING_DATA_FIELD_DEF(uint32_t, srcOriWidth);
TILING_DATA_FIELD_DEF(uint32_t, widthWithoutLastBlock);
TILING_DATA_FIELD_DEF(uint32_t, blocksPerRow);
TILING_DATA_FIELD_DEF(uint32_t, heightTiling);
TILING_DATA_FIELD_DEF(uint32_t, heightFractal);
TILING_DATA_FIELD_DEF(uint32_t, heightFractalTail);
TILING_DATA_FIELD_DEF(uint32_t, mainLoopOffset);
TILING_DATA_FIELD_DEF(uint32_t, tailBlockOffset);
TILING_DATA_FIELD_DEF(uint32_t, tmpBuffer1BlockNum);
TILING_DATA_FIELD_DEF(uint32_t, tmpBuffer1RowNum);
TILING_DATA_FIELD_DEF(uint32_t, tmpBuffer2Offset);
TILING_DATA_FIELD_DEF(uint32_t, widthTiling);
TILING_DATA_FIELD_DEF(uint32_t, widthFractal);
TILING_DATA_FIELD_DEF(uint32_t, widthFractalTail);
TILING_DATA_FIELD_DEF(uint32_t, widthFractalTailAlingned);
TILING_DATA_FIELD_DEF(uint32_t, brcbTiling);
TILING_DATA_FIELD_DEF(uint32_t, brcbFractal);
TILING_DATA_FIELD_DEF(uint32_t, brcbFractalTail);
TILING_DATA_FIELD_DEF(uint32_t, maxRepeatTimes);
TILING_DATA_FIELD_DEF(uint32_t, brcbTilingRepeatTimes);
TILING_DATA_FIELD_DEF(uint32_t, brcbTilingRepeatTimesTail);
TILING_DATA_FIELD_DEF(uint32_t, brcbFractalTailRepeatTimes);
TILING_DATA_FIELD_DEF(uint32_t, brcbFractalTailRepeatTimesTail);
TILING_DATA_FIELD_DEF(uint32_t, reserved);
END_TILING_DATA_DEF;
BEGIN_TILING_DATA_DEF(UnPadTiling)
TILING_DATA_FIELD_DEF(uint32_t, srcHeight);
TILING_DATA_FIELD_DEF(uint32_t, srcWidth);
TILING_DATA_FIELD_DEF(uint32_t, tmpBuffer1BlockNum);
TILING_DATA_FIELD_DEF(uint32_t, tmpBuffer1RowNum);
TILING_DATA_FIELD_DEF(uint32_t, tmpBuffer2Offset);
TILING_DATA_FIELD_DEF(uint32_t, widthTiling);
TILING_DATA_FIELD_DEF(uint32_t, widthFractal);
TILING_DATA_FIELD_DEF(uint32_t, widthFractalTail);
END_TILING_DATA_DEF;
}  // namespace optiling

namespace AscendC {
namespace pyasc_detail {
// A two-axis shape's dims, or -1s (which the tiling refuses) for another rank.
inline void PadDims(const ge::Shape &shape, int64_t &h, int64_t &w) {
  const bool two = shape.GetDimNum() == 2;
  h = two ? shape.GetDim(0) : -1;
  w = two ? shape.GetDim(1) : -1;
}
inline void PadStore(const asc_pad_tiling &t, AscendC::tiling::PadTiling &out) {
  static_assert(sizeof(t) == sizeof(out), "PadTiling: asc_pad_tiling's members");
  out.srcHeight = t.srcHeight, out.srcWidth = t.srcWidth, out.srcOriWidth = t.srcOriWidth;
  out.widthWithoutLastBlock = t.widthWithoutLastBlock, out.blocksPerRow = t.blocksPerRow;
  out.heightTiling = t.heightTiling, out.heightFractal = t.heightFractal;
  out.heightFractalTail = t.heightFractalTail, out.mainLoopOffset = t.mainLoopOffset;
  out.tailBlockOffset = t.tailBlockOffset, out.tmpBuffer1BlockNum = t.tmpBuffer1BlockNum;
  out.tmpBuffer1RowNum = t.tmpBuffer1RowNum, out.tmpBuffer2Offset = t.tmpBuffer2Offset;
  out.widthTiling = t.widthTiling, out.widthFractal = t.widthFractal;
  out.widthFractalTail = t.widthFractalTail;
  out.widthFractalTailAlingned = t.widthFractalTailAlingned, out.brcbTiling = t.brcbTiling;
  out.brcbFractal = t.brcbFractal, out.brcbFractalTail = t.brcbFractalTail;
  out.maxRepeatTimes = t.maxRepeatTimes, out.brcbTilingRepeatTimes = t.brcbTilingRepeatTimes;
  out.brcbTilingRepeatTimesTail = t.brcbTilingRepeatTimesTail;
  out.brcbFractalTailRepeatTimes = t.brcbFractalTailRepeatTimes;
  out.brcbFractalTailRepeatTimesTail = t.brcbFractalTailRepeatTimesTail, out.reserved = t.reserved;
}
inline void PadStore(const asc_pad_tiling &t, optiling::PadTiling &out) {
  out.set_srcHeight(t.srcHeight), out.set_srcWidth(t.srcWidth);
  out.set_srcOriWidth(t.srcOriWidth), out.set_widthWithoutLastBlock(t.widthWithoutLastBlock);
  out.set_blocksPerRow(t.blocksPerRow), out.set_heightTiling(t.heightTiling);
  out.set_heightFractal(t.heightFractal), out.set_heightFractalTail(t.heightFractalTail);
  out.set_mainLoopOffset(t.mainLoopOffset), out.set_tailBlockOffset(t.tailBlockOffset);
  out.set_tmpBuffer1BlockNum(t.tmpBuffer1BlockNum), out.set_tmpBuffer1RowNum(t.tmpBuffer1RowNum);
  out.set_tmpBuffer2Offset(t.tmpBuffer2Offset), out.set_widthTiling(t.widthTiling);
  out.set_widthFractal(t.widthFractal), out.set_widthFractalTail(t.widthFractalTail);
  out.set_widthFractalTailAlingned(t.widthFractalTailAlingned);
  out.set_brcbTiling(t.brcbTiling), out.set_brcbFractal(t.brcbFractal);
  out.set_brcbFractalTail(t.brcbFractalTail), out.set_maxRepeatTimes(t.maxRepeatTimes);
  out.set_brcbTilingRepeatTimes(t.brcbTilingRepeatTimes);
  out.set_brcbTilingRepeatTimesTail(t.brcbTilingRepeatTimesTail);
  out.set_brcbFractalTailRepeatTimes(t.brcbFractalTailRepeatTimes);
  out.set_brcbFractalTailRepeatTimesTail(t.brcbFractalTailRepeatTimesTail);
  out.set_reserved(t.reserved);
}
inline void UnPadStore(const asc_unpad_tiling &t, AscendC::tiling::UnPadTiling &out) {
  static_assert(sizeof(t) == sizeof(out), "UnPadTiling: asc_unpad_tiling's members");
  out.srcHeight = t.srcHeight, out.srcWidth = t.srcWidth;
  out.tmpBuffer1BlockNum = t.tmpBuffer1BlockNum, out.tmpBuffer1RowNum = t.tmpBuffer1RowNum;
  out.tmpBuffer2Offset = t.tmpBuffer2Offset, out.widthTiling = t.widthTiling;
  out.widthFractal = t.widthFractal, out.widthFractalTail = t.widthFractalTail;
}
inline void UnPadStore(const asc_unpad_tiling &t, optiling::UnPadTiling &out) {
  out.set_srcHeight(t.srcHeight), out.set_srcWidth(t.srcWidth);
  out.set_tmpBuffer1BlockNum(t.tmpBuffer1BlockNum), out.set_tmpBuffer1RowNum(t.tmpBuffer1RowNum);
  out.set_tmpBuffer2Offset(t.tmpBuffer2Offset), out.set_widthTiling(t.widthTiling);
  out.set_widthFractal(t.widthFractal), out.set_widthFractalTail(t.widthFractalTail);
}
}  // namespace pyasc_detail

inline void GetPadMaxMinTmpSize(const ge::Shape &srcShape, const uint32_t typeSize,
                                uint32_t &maxValue, uint32_t &minValue) {
  int64_t h = 0, w = 0;
  pyasc_detail::PadDims(srcShape, h, w);
  maxValue = minValue = 0;
  if (asc_tiling_pad_tmp_size(h, w, static_cast<int32_t>(typeSize), &maxValue, &minValue) != ASC_OK)
    std::fprintf(stderr, "GetPadMaxMinTmpSize: %s\n", asc_last_error());
}
// AscendC::tiling::PadTiling or optiling::PadTiling
template <typename Tiling>
inline void PadTilingFunc(const ge::Shape srcShape, const ge::Shape oriSrcShape,
                          const uint32_t stackBufferSize, const uint32_t typeSize, Tiling &tiling) {
  int64_t h = 0, w = 0, oh = 0, ow = 0;
  pyasc_detail::PadDims(srcShape, h, w);
  pyasc_detail::PadDims(oriSrcShape, oh, ow);
  asc_pad_tiling t;
  if (asc_tiling_pad(h, w, oh, ow, stackBufferSize, static_cast<int32_t>(typeSize), &t) != ASC_OK) {
    std::fprintf(stderr, "PadTilingFunc: %s\n", asc_last_error());
    return;
  }
  pyasc_detail::PadStore(t, tiling);
}
// UnPad needs no tmp buffer on dav-2201 (the platform is not consulted: pyasc simulates it only).
inline void GetUnPadMaxMinTmpSize(const platform_ascendc::PlatformAscendC &ascendcPlatform,
                                  const ge::Shape &srcShape, const uint32_t typeSize,
                                  uint32_t &maxValue, uint32_t &minValue) {
  (void)ascendcPlatform;
  int64_t h = 0, w = 0;
  pyasc_detail::PadDims(srcShape, h, w);
  maxValue = minValue = 0;
  if (asc_tiling_unpad_tmp_size(h, w, static_cast<int32_t>(typeSize), &maxValue, &minValue) !=
      ASC_OK)
    std::fprintf(stderr, "GetUnPadMaxMinTmpSize: %s\n", asc_last_error());
}
template <typename Tiling>
inline void UnPadTilingFunc(const ge::Shape srcShape, const uint32_t stackBufferSize,
                            const uint32_t typeSize, Tiling &tiling) {
  int64_t h = 0, w = 0;
  pyasc_detail::PadDims(srcShape, h, w);
  asc_unpad_tiling t;
  if (asc_tiling_unpad(h, w, stackBufferSize, static_cast<int32_t>(typeSize), &t) != ASC_OK) {
    std::fprintf(stderr, "UnPadTilingFunc: %s\n", asc_last_error());
    return;
  }
  pyasc_detail::UnPadStore(t, tiling);
}
}  // namespace AscendC

#endif
