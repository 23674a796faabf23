// Part of tiling/tiling_api.h: the host side of Ascend C's TopK (the shared tmp buffer's size and
// TopkTiling), as CANN's asc-devkit computes them for dav-2201, by libasc's asc_tiling_topk_*.
// On an input CANN's checks refuse (an inner axis not a positive multiple of 32, or not 32 in
// TOPK_NSMALL mode, a non-positive outter, a source larger than the UB, a type size but 2 or 4,
// k outside [1, inner]), the sizes and the tiling are left as they were, the reason goes to
// stderr and the call returns false.
#ifndef PYASC_ASCENDC_TOPK_TILING_HOST_H
#define PYASC_ASCENDC_TOPK_TILING_HOST_H

#include <cstdint>
#include <cstdio>

#include "../kernel_tiling/kernel_tiling.h"
#include "../register/tilingdata_base.h"
#include "asc/tiling.h"
#include "platform/platform_ascendc.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(TopkTiling)
TILING_DATA_FIELD_DEF(int32_t, tmpLocalSize);
TILING_DATA_FIELD_DEF(int32_t, allDataSize);
TILING_DATA_FIELD_DEF(int32_t, innerDataSize);
TILING_DATA_FIELD_DEF(uint32_t, sortRepeat);
TILING_DATA_FIELD_DEF(int32_t, mrgSortRepeat);
TILING_DATA_FIELD_DEF(int32_t, kAlignFourBytes);
TILING_DATA_FIELD_DEF(int32_t, kAlignTwoBytes);
TILING_DATA_FIELD_DEF(int32_t, maskOffset);
TILING_DATA_FIELD_DEF(int32_t, maskVreducev2FourBytes);
TILING_DATA_FIELD_DEF(int32_t, maskVreducev2TwoBytes);
TILING_DATA_FIELD_DEF(int32_t, mrgSortSrc1offset);
TILING_DATA_FIELD_DEF(int32_t, mrgSortSrc2offset);
TILING_DATA_FIELD_DEF(int32_t, mrgSortSrc3offset);
TILING_DATA_FIELD_DEF(int32_t, mrgSortTwoQueueSrc1Offset);
TILING_DATA_FIELD_DEF(int32_t, mrgFourQueueTailPara1);
TILING_DATA_FIELD_DEF(int32_t, mrgFourQueueTailPara2);
TILING_DATA_FIELD_DEF(int32_t, srcIndexOffset);
TILING_DATA_FIELD_DEF(uint32_t, copyUbToUbBlockCount);
TILING_DATA_FIELD_DEF(int32_t, topkMrgSrc1MaskSizeOffset);
TILING_DATA_FIELD_DEF(int32_t, topkNSmallSrcIndexOffset);
TILING_DATA_FIELD_DEF(uint32_t, vreduceValMask0);
TILING_DATA_FIELD_DEF(uint32_t, vreduceValMask1);
TILING_DATA_FIELD_DEF(uint32_t, vreduceIdxMask0);
TILING_DATA_FIELD_DEF(uint32_t, vreduceIdxMask1);
TILING_DATA_FIELD_DEF(uint16_t, vreducehalfValMask0);
TILING_DATA_FIELD_DEF(uint16_t, vreducehalfValMask1);
TILING_DATA_FIELD_DEF(uint16_t, vreducehalfValMask2);
TILING_DATA_FIELD_DEF(uint16_t, vreducehalfValMask3);
TILING_DATA_FIELD_DEF(uint16_t, vreducehalfValMask4);
TILING_DATA_FIELD_DEF(uint16_t, vreducehalfValMask5);
TILING_DATA_FIELD_DEF(uint16_t, vreducehalfValMask6);
TILING_DATA_FIELD_DEF(uint16_t, vreducehalfValMask7);
END_TILING_DATA_DEF;
}  // namespace optiling

namespace AscendC {
namespace pyasc_detail {
inline int TopKModeCode(TopKMode mode) {
  return mode == TopKMode::TOPK_NSMALL ? ASC_TOPK_NSMALL : ASC_TOPK_NORMAL;
}
inline uint64_t TopKUbBytes(const platform_ascendc::PlatformAscendC &ascendcPlatform) {
  uint64_t ub = 0;
  ascendcPlatform.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ub);
  return ub;
}
inline void TopKStore(const asc_topk_tiling &t, AscendC::tiling::TopkTiling &out) {
  static_assert(sizeof(t) == sizeof(out), "TopkTiling: asc_topk_tiling's members");
  out.tmpLocalSize = t.tmpLocalSize, out.allDataSize = t.allDataSize;
  out.innerDataSize = t.innerDataSize, out.sortRepeat = t.sortRepeat;
  out.mrgSortRepeat = t.mrgSortRepeat, out.kAlignFourBytes = t.kAlignFourBytes;
  out.kAlignTwoBytes = t.kAlignTwoBytes, out.maskOffset = t.maskOffset;
  out.maskVreducev2FourBytes = t.maskVreducev2FourBytes;
  out.maskVreducev2TwoBytes = t.maskVreducev2TwoBytes;
  out.mrgSortSrc1offset = t.mrgSortSrc1offset, out.mrgSortSrc2offset = t.mrgSortSrc2offset;
  out.mrgSortSrc3offset = t.mrgSortSrc3offset;
  out.mrgSortTwoQueueSrc1Offset = t.mrgSortTwoQueueSrc1Offset;
  out.mrgFourQueueTailPara1 = t.mrgFourQueueTailPara1;
  out.mrgFourQueueTailPara2 = t.mrgFourQueueTailPara2, out.srcIndexOffset = t.srcIndexOffset;
  out.copyUbToUbBlockCount = t.copyUbToUbBlockCount;
  out.topkMrgSrc1MaskSizeOffset = t.topkMrgSrc1MaskSizeOffset;
  out.topkNSmallSrcIndexOffset = t.topkNSmallSrcIndexOffset;
  out.vreduceValMask0 = t.vreduceValMask0, out.vreduceValMask1 = t.vreduceValMask1;
  out.vreduceIdxMask0 = t.vreduceIdxMask0, out.vreduceIdxMask1 = t.vreduceIdxMask1;
  out.vreducehalfValMask0 = t.vreducehalfValMask0, out.vreducehalfValMask1 = t.vreducehalfValMask1;
  out.vreducehalfValMask2 = t.vreducehalfValMask2, out.vreducehalfValMask3 = t.vreducehalfValMask3;
  out.vreducehalfValMask4 = t.vreducehalfValMask4, out.vreducehalfValMask5 = t.vreducehalfValMask5;
  out.vreducehalfValMask6 = t.vreducehalfValMask6, out.vreducehalfValMask7 = t.vreducehalfValMask7;
}
inline void TopKStore(const asc_topk_tiling &t, optiling::TopkTiling &out) {
  out.set_tmpLocalSize(t.tmpLocalSize), out.set_allDataSize(t.allDataSize);
  out.set_innerDataSize(t.innerDataSize), out.set_sortRepeat(t.sortRepeat);
  out.set_mrgSortRepeat(t.mrgSortRepeat), out.set_kAlignFourBytes(t.kAlignFourBytes);
  out.set_kAlignTwoBytes(t.kAlignTwoBytes), out.set_maskOffset(t.maskOffset);
  out.set_maskVreducev2FourBytes(t.maskVreducev2FourBytes);
  out.set_maskVreducev2TwoBytes(t.maskVreducev2TwoBytes);
  out.set_mrgSortSrc1offset(t.mrgSortSrc1offset), out.set_mrgSortSrc2offset(t.mrgSortSrc2offset);
  out.set_mrgSortSrc3offset(t.mrgSortSrc3offset);
  out.set_mrgSortTwoQueueSrc1Offset(t.mrgSortTwoQueueSrc1Offset);
  out.set_mrgFourQueueTailPara1(t.mrgFourQueueTailPara1);
  out.set_mrgFourQueueTailPara2(t.mrgFourQueueTailPara2);
  out.set_srcIndexOffset(t.srcIndexOffset), out.set_copyUbToUbBlockCount(t.copyUbToUbBlockCount);
  out.set_topkMrgSrc1MaskSizeOffset(t.topkMrgSrc1MaskSizeOffset);
  out.set_topkNSmallSrcIndexOffset(t.topkNSmallSrcIndexOffset);
  out.set_vreduceValMask0(t.vreduceValMask0), out.set_vreduceValMask1(t.vreduceValMask1);
  out.set_vreduceIdxMask0(t.vreduceIdxMask0), out.set_vreduceIdxMask1(t.vreduceIdxMask1);
  out.set_vreducehalfValMask0(t.vreducehalfValMask0);
  out.set_vreducehalfValMask1(t.vreducehalfValMask1);
  out.set_vreducehalfValMask2(t.vreducehalfValMask2);
  out.set_vreducehalfValMask3(t.vreducehalfValMask3);
  out.set_vreducehalfValMask4(t.vreducehalfValMask4);
  out.set_vreducehalfValMask5(t.vreducehalfValMask5);
  out.set_vreducehalfValMask6(t.vreducehalfValMask6);
  out.set_vreducehalfValMask7(t.vreducehalfValMask7);
}
}  // namespace pyasc_detail

// Bytes of TopK's shared tmp buffer (max and min are equal); isReuseSource is unused, as in CANN.
inline bool GetTopKMaxMinTmpSize(const platform_ascendc::PlatformAscendC &ascendcPlatform,
                                 const int32_t inner, const int32_t outter,
                                 const bool isReuseSource, const bool isInitIndex, TopKMode mode,
                                 const bool isLargest, const uint32_t dataTypeSize,
                                 uint32_t &maxValue, uint32_t &minValue) {
  (void)isReuseSource;
  if (asc_tiling_topk_tmp_size(inner, outter, isInitIndex, pyasc_detail::TopKModeCode(mode),
                               isLargest, static_cast<int32_t>(dataTypeSize),
                               pyasc_detail::TopKUbBytes(ascendcPlatform), &maxValue,
                               &minValue) != ASC_OK) {
    std::fprintf(stderr, "GetTopKMaxMinTmpSize: %s\n", asc_last_error());
    return false;
  }
  return true;
}
// AscendC::tiling::TopkTiling or optiling::TopkTiling
template <typename Tiling>
inline bool TopKTilingFunc(const platform_ascendc::PlatformAscendC &ascendcPlatform,
                           const int32_t inner, const int32_t outter, const int32_t k,
                           const uint32_t dataTypeSize, const bool isInitIndex, TopKMode mode,
                           const bool isLargest, Tiling &topKTiling) {
  asc_topk_tiling t;
  if (asc_tiling_topk(inner, outter, k, static_cast<int32_t>(dataTypeSize), isInitIndex,
                      pyasc_detail::TopKModeCode(mode), isLargest,
                      pyasc_detail::TopKUbBytes(ascendcPlatform), &t) != ASC_OK) {
    std::fprintf(stderr, "TopKTilingFunc: %s\n", asc_last_error());
    return false;
  }
  pyasc_detail::TopKStore(t, topKTiling);
  return true;
}
}  // namespace AscendC

#endif
