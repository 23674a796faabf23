// Part of tiling/tiling_api.h: the host side of Ascend C's SoftMax family (SoftMax,
// SoftmaxFlash, SoftmaxGrad): the shared tmp buffer's sizes and SoftMaxTiling, as CANN's
// asc-devkit computes them for dav-2201, by libasc's asc_tiling_softmax* (the same code
// pyasc.language.adv_host runs). On an input CANN's checks refuse, the sizes are 0 and the
// tiling is left as it was, with the reason on stderr.
#ifndef PYASC_ASCENDC_SOFTMAX_TILING_H
#define PYASC_ASCENDC_SOFTMAX_TILING_H

#include <cstdint>
#include <cstdio>

#include "../graph/tensor.h"
#include "../kernel_tiling/kernel_tiling.h"
#include "../register/tilingdata_base.h"
#include "asc/tiling.h"

// optiling::SoftMaxTiling and LogSoftMaxTiling: the same 16 members, as CANN's.
#define PYASC_SOFTMAX_TILING_DATA(name)            \
  BEGIN_TILING_DATA_DEF(name)                      \
  TILING_DATA_FIELD_DEF(uint32_t, srcM);           \
  TILING_DATA_FIELD_DEF(uint32_t, srcK);           \
  TILING_DATA_FIELD_DEF(uint32_t, srcSize);        \
  TILING_DATA_FIELD_DEF(uint32_t, outMaxM);        \
  TILING_DATA_FIELD_DEF(uint32_t, outMaxK);        \
  TILING_DATA_FIELD_DEF(uint32_t, outMaxSize);     \
  TILING_DATA_FIELD_DEF(uint32_t, splitM);         \
  TILING_DATA_FIELD_DEF(uint32_t, splitK);         \
  TILING_DATA_FIELD_DEF(uint32_t, splitSize);      \
  TILING_DATA_FIELD_DEF(uint32_t, reduceM);        \
  TILING_DATA_FIELD_DEF(uint32_t, reduceK);        \
  TILING_DATA_FIELD_DEF(uint32_t, reduceSize);     \
  TILING_DATA_FIELD_DEF(uint32_t, rangeM);         \
  TILING_DATA_FIELD_DEF(uint32_t, tailM);          \
  TILING_DATA_FIELD_DEF(uint32_t, tailSplitSize);  \
  TILING_DATA_FIELD_DEF(uint32_t, tailReduceSize); \
  END_TILING_DATA_DEF;
namespace optiling {
PYASC_SOFTMAX_TILING_DATA(SoftMaxTiling)
PYASC_SOFTMAX_TILING_DATA(LogSoftMaxTiling)
}  // namespace optiling
#undef PYASC_SOFTMAX_TILING_DATA

namespace AscendC {
namespace pyasc_detail {
// The rows (every axis but the last) and the last axis of a shape; -1 rows for an empty one.
inline void SoftMaxRows(const ge::Shape &shape, int64_t &rows, int64_t &cols) {
  const size_t n = shape.GetDimNum();
  cols = n ? shape.GetDim(n - 1) : 0;
  rows = n && cols > 0 ? shape.GetShapeSize() / cols : -1;
}
inline uint32_t SoftMaxSize(asc_softmax_kind kind, const char *what, const ge::Shape &shape,
                            uint32_t typeSize, bool flag, bool most) {
  int64_t rows = 0, cols = 0;
  SoftMaxRows(shape, rows, cols);
  uint32_t maxBytes = 0, minBytes = 0;
  if (asc_tiling_softmax_tmp_size(kind, rows, cols, static_cast<int32_t>(typeSize), flag, &maxBytes,
                                  &minBytes) != ASC_OK) {
    std::fprintf(stderr, "%s: %s\n", what, asc_last_error());
    return 0;
  }
  return most ? maxBytes : minBytes;
}
// The tiling into t, or false with the reason on stderr.
inline bool SoftMaxCompute(asc_softmax_kind kind, const char *what, const ge::Shape &shape,
                           uint32_t typeSize, uint32_t workBytes, bool flag,
                           asc_softmax_tiling &t) {
  int64_t rows = 0, cols = 0;
  SoftMaxRows(shape, rows, cols);
  if (asc_tiling_softmax(kind, rows, cols, static_cast<int32_t>(typeSize), workBytes, flag, &t) ==
      ASC_OK)
    return true;
  std::fprintf(stderr, "%s: %s\n", what, asc_last_error());
  return false;
}
inline void SoftMaxStore(const asc_softmax_tiling &t, AscendC::tiling::SoftMaxTiling &out) {
  out.srcM = t.srcM, out.srcK = t.srcK, out.srcSize = t.srcSize, out.outMaxM = t.outMaxM;
  out.outMaxK = t.outMaxK, out.outMaxSize = t.outMaxSize, out.splitM = t.splitM;
  out.splitK = t.splitK, out.splitSize = t.splitSize, out.reduceM = t.reduceM;
  out.reduceK = t.reduceK, out.reduceSize = t.reduceSize, out.rangeM = t.rangeM;
  out.tailM = t.tailM, out.tailSplitSize = t.tailSplitSize, out.tailReduceSize = t.tailReduceSize;
}
// optiling::SoftMaxTiling or LogSoftMaxTiling
template <typename OpTiling>
inline void SoftMaxStore(const asc_softmax_tiling &t, OpTiling &out) {
  out.set_srcM(t.srcM), out.set_srcK(t.srcK), out.set_srcSize(t.srcSize);
  out.set_outMaxM(t.outMaxM), out.set_outMaxK(t.outMaxK), out.set_outMaxSize(t.outMaxSize);
  out.set_splitM(t.splitM), out.set_splitK(t.splitK), out.set_splitSize(t.splitSize);
  out.set_reduceM(t.reduceM), out.set_reduceK(t.reduceK), out.set_reduceSize(t.reduceSize);
  out.set_rangeM(t.rangeM), out.set_tailM(t.tailM), out.set_tailSplitSize(t.tailSplitSize);
  out.set_tailReduceSize(t.tailReduceSize);
}
template <typename Tiling>
inline void SoftMaxFill(asc_softmax_kind kind, const char *what, const ge::Shape &shape,
                        uint32_t typeSize, uint32_t workBytes, bool flag, Tiling &out) {
  asc_softmax_tiling t;
  if (SoftMaxCompute(kind, what, shape, typeSize, workBytes, flag, t)) SoftMaxStore(t, out);
}
}  // namespace pyasc_detail

// --- SoftMax / SimpleSoftMax ---------------------------------------------------------------
inline uint32_t GetSoftMaxMaxTmpSize(const ge::Shape &srcShape, const uint32_t dataTypeSize,
                                     const bool isReuseSource) {
  (void)isReuseSource;
  return pyasc_detail::SoftMaxSize(ASC_SOFTMAX, "GetSoftMaxMaxTmpSize", srcShape, dataTypeSize,
                                   false, true);
}
inline uint32_t GetSoftMaxMinTmpSize(const ge::Shape &srcShape, const uint32_t dataTypeSize,
                                     const bool isReuseSource) {
  (void)isReuseSource;
  return pyasc_detail::SoftMaxSize(ASC_SOFTMAX, "GetSoftMaxMinTmpSize", srcShape, dataTypeSize,
                                   false, false);
}
template <typename Tiling>
inline void SoftMaxTilingFunc(const ge::Shape &srcShape, const uint32_t dataTypeSize,
                              const uint32_t localWorkSpaceSize, Tiling &softmaxTiling) {
  pyasc_detail::SoftMaxFill(ASC_SOFTMAX, "SoftMaxTilingFunc", srcShape, dataTypeSize,
                            localWorkSpaceSize, false, softmaxTiling);
}

// --- LogSoftMax: SoftMax's sizes and tiling (CANN computes them alike) --------------------------
inline uint32_t GetLogSoftMaxMaxTmpSize(const ge::Shape &srcShape, const uint32_t dataTypeSize,
                                        const bool isReuseSource) {
  (void)isReuseSource;
  return pyasc_detail::SoftMaxSize(ASC_SOFTMAX, "GetLogSoftMaxMaxTmpSize", srcShape, dataTypeSize,
                                   false, true);
}
inline uint32_t GetLogSoftMaxMinTmpSize(const ge::Shape &srcShape, const uint32_t dataTypeSize,
                                        const bool isReuseSource) {
  (void)isReuseSource;
  return pyasc_detail::SoftMaxSize(ASC_SOFTMAX, "GetLogSoftMaxMinTmpSize", srcShape, dataTypeSize,
                                   false, false);
}
template <typename Tiling>
inline void LogSoftMaxTilingFunc(const ge::Shape &srcShape, const uint32_t dataTypeSize,
                                 const uint32_t localWorkSpaceSize, Tiling &softmaxTiling) {
  pyasc_detail::SoftMaxFill(ASC_SOFTMAX, "LogSoftMaxTilingFunc", srcShape, dataTypeSize,
                            localWorkSpaceSize, false, softmaxTiling);
}

// --- SoftmaxFlash (isUpdate: a later block of the row) ----------------------------------------
inline uint32_t GetSoftMaxFlashMaxTmpSize(const ge::Shape &srcShape, const uint32_t dataTypeSize,
                                          const bool isUpdate, const bool isReuseSource) {
  (void)isReuseSource;
  return pyasc_detail::SoftMaxSize(ASC_SOFTMAX_FLASH, "GetSoftMaxFlashMaxTmpSize", srcShape,
                                   dataTypeSize, isUpdate, true);
}
inline uint32_t GetSoftMaxFlashMinTmpSize(const ge::Shape &srcShape, const uint32_t dataTypeSize,
                                          const bool isUpdate, const bool isReuseSource) {
  (void)isReuseSource;
  return pyasc_detail::SoftMaxSize(ASC_SOFTMAX_FLASH, "GetSoftMaxFlashMinTmpSize", srcShape,
                                   dataTypeSize, isUpdate, false);
}
template <typename Tiling>
inline void SoftMaxFlashTilingFunc(const ge::Shape &srcShape, const uint32_t dataTypeSize,
                                   const uint32_t localWorkSpaceSize, Tiling &softmaxFlashTiling,
                                   const bool isUpdate = false) {
  pyasc_detail::SoftMaxFill(ASC_SOFTMAX_FLASH, "SoftMaxFlashTilingFunc", srcShape, dataTypeSize,
                            localWorkSpaceSize, isUpdate, softmaxFlashTiling);
}

// --- SoftmaxFlashV2 (dataTypeSize1 the source's, dataTypeSize2 the max and sum's) -----------
inline uint32_t GetSoftMaxFlashV2Size(const char *what, const ge::Shape &srcShape,
                                      uint32_t dataTypeSize1, uint32_t dataTypeSize2,
                                      bool isBasicBlock, bool isFlashOutputBrc, bool most) {
  int64_t rows = 0, cols = 0;
  pyasc_detail::SoftMaxRows(srcShape, rows, cols);
  uint32_t maxBytes = 0, minBytes = 0;
  if (asc_tiling_softmax_flash_v2_tmp_size(rows, cols, static_cast<int32_t>(dataTypeSize1),
                                           static_cast<int32_t>(dataTypeSize2), isBasicBlock,
                                           isFlashOutputBrc, &maxBytes, &minBytes) != ASC_OK) {
    std::fprintf(stderr, "%s: %s\n", what, asc_last_error());
    return 0;
  }
  return most ? maxBytes : minBytes;
}
inline uint32_t GetSoftMaxFlashV2MaxTmpSize(const ge::Shape &srcShape, const uint32_t dataTypeSize1,
                                            const uint32_t dataTypeSize2, const bool isUpdate,
                                            const bool isBasicBlock = false,
                                            const bool isFlashOutputBrc = false) {
  (void)isUpdate;
  return GetSoftMaxFlashV2Size("GetSoftMaxFlashV2MaxTmpSize", srcShape, dataTypeSize1,
                               dataTypeSize2, isBasicBlock, isFlashOutputBrc, true);
}
inline uint32_t GetSoftMaxFlashV2MinTmpSize(const ge::Shape &srcShape, const uint32_t dataTypeSize1,
                                            const uint32_t dataTypeSize2, const bool isUpdate,
                                            const bool isBasicBlock = false,
                                            const bool isFlashOutputBrc = false) {
  (void)isUpdate;
  return GetSoftMaxFlashV2Size("GetSoftMaxFlashV2MinTmpSize", srcShape, dataTypeSize1,
                               dataTypeSize2, isBasicBlock, isFlashOutputBrc, false);
}
template <typename Tiling>
inline void SoftMaxFlashV2TilingFunc(const ge::Shape &srcShape, const uint32_t dataTypeSize1,
                                     const uint32_t dataTypeSize2,
                                     const uint32_t localWorkSpaceSize, Tiling &softmaxFlashTiling,
                                     const bool isUpdate, const bool isBasicBlock = false,
                                     const bool isFlashOutputBrc = false) {
  (void)isUpdate;
  int64_t rows = 0, cols = 0;
  pyasc_detail::SoftMaxRows(srcShape, rows, cols);
  asc_softmax_tiling t;
  if (asc_tiling_softmax_flash_v2(rows, cols, static_cast<int32_t>(dataTypeSize1),
                                  static_cast<int32_t>(dataTypeSize2), localWorkSpaceSize,
                                  isBasicBlock, isFlashOutputBrc, &t) != ASC_OK) {
    std::fprintf(stderr, "SoftMaxFlashV2TilingFunc: %s\n", asc_last_error());
    return;
  }
  pyasc_detail::SoftMaxStore(t, softmaxFlashTiling);
}

// --- SoftmaxFlashV3 (half data, float statistics) ---------------------------------------------
inline void GetSoftMaxFlashV3MaxMinTmpSize(const ge::Shape &srcShape, const uint32_t dataTypeSize1,
                                           const uint32_t dataTypeSize2, uint32_t &maxValue,
                                           uint32_t &minValue, const bool isUpdate,
                                           const bool isBasicBlock = false) {
  (void)isUpdate, (void)isBasicBlock;
  int64_t rows = 0, cols = 0;
  pyasc_detail::SoftMaxRows(srcShape, rows, cols);
  if (asc_tiling_softmax_flash_v3_tmp_size(rows, cols, static_cast<int32_t>(dataTypeSize1),
                                           static_cast<int32_t>(dataTypeSize2), &maxValue,
                                           &minValue) != ASC_OK)
    std::fprintf(stderr, "GetSoftMaxFlashV3MaxMinTmpSize: %s\n", asc_last_error());
}
template <typename Tiling>
inline void SoftMaxFlashV3TilingFunc(const ge::Shape &srcShape, const uint32_t dataTypeSize1,
                                     const uint32_t dataTypeSize2,
                                     const uint32_t localWorkSpaceSize,
                                     Tiling &softmaxFlashV3Tiling, const bool isUpdate,
                                     const bool isBasicBlock = false) {
  (void)isUpdate, (void)isBasicBlock;
  int64_t rows = 0, cols = 0;
  pyasc_detail::SoftMaxRows(srcShape, rows, cols);
  asc_softmax_tiling t;
  if (asc_tiling_softmax_flash_v3(rows, cols, static_cast<int32_t>(dataTypeSize1),
                                  static_cast<int32_t>(dataTypeSize2), localWorkSpaceSize,
                                  &t) != ASC_OK) {
    std::fprintf(stderr, "SoftMaxFlashV3TilingFunc: %s\n", asc_last_error());
    return;
  }
  pyasc_detail::SoftMaxStore(t, softmaxFlashV3Tiling);
}

// --- SoftmaxGrad (isFront: SoftmaxGradFront's row sums only) ----------------------------------
inline uint32_t GetSoftMaxGradMaxTmpSize(const ge::Shape &srcShape, const uint32_t dataTypeSize,
                                         const bool isFront, const bool isReuseSource) {
  (void)isReuseSource;
  return pyasc_detail::SoftMaxSize(ASC_SOFTMAX_GRAD, "GetSoftMaxGradMaxTmpSize", srcShape,
                                   dataTypeSize, isFront, true);
}
inline uint32_t GetSoftMaxGradMinTmpSize(const ge::Shape &srcShape, const uint32_t dataTypeSize,
                                         const bool isFront, const bool isReuseSource) {
  (void)isReuseSource;
  return pyasc_detail::SoftMaxSize(ASC_SOFTMAX_GRAD, "GetSoftMaxGradMinTmpSize", srcShape,
                                   dataTypeSize, isFront, false);
}
template <typename Tiling>
inline void SoftMaxGradTilingFunc(const ge::Shape &srcShape, const uint32_t dataTypeSize,
                                  const uint32_t localWorkSpaceSize, Tiling &softmaxGradTiling,
                                  const bool isFront = false) {
  pyasc_detail::SoftMaxFill(ASC_SOFTMAX_GRAD, "SoftMaxGradTilingFunc", srcShape, dataTypeSize,
                            localWorkSpaceSize, isFront, softmaxGradTiling);
}

// CANN's basic block: no tail rows and a row of 256 bytes to 2047 elements, in 64s.
inline bool IsBasicBlockInSoftMax(const AscendC::tiling::SoftMaxTiling &tiling,
                                  const uint32_t dataTypeSize) {
  if (dataTypeSize == 0) return false;
  return tiling.tailM == 0 && tiling.srcK >= 256 / dataTypeSize && tiling.srcK < 2048 &&
         tiling.srcK % 64 == 0;
}
inline bool IsBasicBlockInSoftMax(const optiling::SoftMaxTiling &tiling,
                                  const uint32_t dataTypeSize) {
  AscendC::tiling::SoftMaxTiling t{};
  t.srcK = tiling.get_srcK(), t.tailM = tiling.get_tailM();
  return IsBasicBlockInSoftMax(t, dataTypeSize);
}
}  // namespace AscendC

#endif
