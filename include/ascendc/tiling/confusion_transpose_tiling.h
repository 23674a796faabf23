// Part of tiling/tiling_api.h: the host side of Ascend C's ConfusionTranspose (the adv Transpose
// with a TransposeType): GetTransposeMaxMinTmpSize, GetTransposeTilingInfo and their older
// ConfusionTranspose names, as CANN's asc-devkit computes them, by libasc's
// asc_tiling_confusion_transpose*. On an input they refuse (a type but 1..7 or 13..15, a srcShape
// of the wrong rank, a typeSize the type does not take, a stackBufferSize under one 16 x 16 tile
// for types 1 and 2), the sizes are 0 and the tiling is left as it was, with the reason on
// stderr.
#ifndef PYASC_ASCENDC_CONFUSION_TRANSPOSE_TILING_H
#define PYASC_ASCENDC_CONFUSION_TRANSPOSE_TILING_H

#include <cstdint>
#include <cstdio>
#include <vector>

#include "../graph/tensor.h"
#include "../kernel_tiling/kernel_tiling.h"
#include "../register/tilingdata_base.h"
#include "asc/tiling.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(ConfusionTransposeTiling)
TILING_DATA_FIELD_DEF(uint32_t, param0);
TILING_DATA_FIELD_DEF(uint32_t, param1);
TILING_DATA_FIELD_DEF(uint32_t, param2);
TILING_DATA_FIELD_DEF(uint32_t, param3);
TILING_DATA_FIELD_DEF(uint32_t, param4);
TILING_DATA_FIELD_DEF(uint32_t, param5);
TILING_DATA_FIELD_DEF(uint32_t, param6);
TILING_DATA_FIELD_DEF(uint32_t, param7);
TILING_DATA_FIELD_DEF(uint32_t, param8);
TILING_DATA_FIELD_DEF(uint32_t, param9);
TILING_DATA_FIELD_DEF(uint32_t, param10);
TILING_DATA_FIELD_DEF(uint32_t, param11);
TILING_DATA_FIELD_DEF(uint32_t, param12);
TILING_DATA_FIELD_DEF(uint32_t, param13);
TILING_DATA_FIELD_DEF(uint32_t, param14);
TILING_DATA_FIELD_DEF(uint32_t, param15);
TILING_DATA_FIELD_DEF(uint32_t, param16);
TILING_DATA_FIELD_DEF(uint32_t, param17);
END_TILING_DATA_DEF;
}  // namespace optiling

namespace AscendC {
namespace pyasc_detail {
inline std::vector<int64_t> TransposeDims(const ge::Shape &shape) {
  std::vector<int64_t> dims(shape.GetDimNum());
  for (size_t i = 0; i < dims.size(); ++i) dims[i] = shape.GetDim(i);
  return dims;
}
inline void TransposeStore(const asc_confusion_transpose_tiling &t,
                           AscendC::tiling::ConfusionTransposeTiling &out) {
  static_assert(sizeof(t) == sizeof(out), "ConfusionTransposeTiling: 18 params");
  uint32_t *p[18] = {&out.param0,  &out.param1,  &out.param2,  &out.param3,  &out.param4,
                     &out.param5,  &out.param6,  &out.param7,  &out.param8,  &out.param9,
                     &out.param10, &out.param11, &out.param12, &out.param13, &out.param14,
                     &out.param15, &out.param16, &out.param17};
  for (int i = 0; i < 18; ++i) *p[i] = t.param[i];
}
inline void TransposeStore(const asc_confusion_transpose_tiling &t,
                           optiling::ConfusionTransposeTiling &out) {
  out.set_param0(t.param[0]), out.set_param1(t.param[1]), out.set_param2(t.param[2]);
  out.set_param3(t.param[3]), out.set_param4(t.param[4]), out.set_param5(t.param[5]);
  out.set_param6(t.param[6]), out.set_param7(t.param[7]), out.set_param8(t.param[8]);
  out.set_param9(t.param[9]), out.set_param10(t.param[10]), out.set_param11(t.param[11]);
  out.set_param12(t.param[12]), out.set_param13(t.param[13]), out.set_param14(t.param[14]);
  out.set_param15(t.param[15]), out.set_param16(t.param[16]), out.set_param17(t.param[17]);
}
inline void TransposeSize(const char *what, const ge::Shape &srcShape, uint32_t typeSize,
                          uint32_t type, uint32_t &maxValue, uint32_t &minValue) {
  const std::vector<int64_t> dims = TransposeDims(srcShape);
  maxValue = minValue = 0;
  if (asc_tiling_confusion_transpose_tmp_size(dims.data(), static_cast<int>(dims.size()),
                                              static_cast<int32_t>(typeSize), type, &maxValue,
                                              &minValue) != ASC_OK)
    std::fprintf(stderr, "%s: %s\n", what, asc_last_error());
}
template <typename Tiling>
inline void TransposeFill(const char *what, const ge::Shape &srcShape, uint32_t stackBufferSize,
                          uint32_t typeSize, uint32_t type, Tiling &tiling) {
  const std::vector<int64_t> dims = TransposeDims(srcShape);
  asc_confusion_transpose_tiling t;
  if (asc_tiling_confusion_transpose(dims.data(), static_cast<int>(dims.size()), stackBufferSize,
                                     static_cast<int32_t>(typeSize), type, &t) != ASC_OK) {
    std::fprintf(stderr, "%s: %s\n", what, asc_last_error());
    return;
  }
  TransposeStore(t, tiling);
}
}  // namespace pyasc_detail

inline void GetTransposeMaxMinTmpSize(const ge::Shape &srcShape, const uint32_t typeSize,
                                      const uint32_t transposeTypeIn, uint32_t &maxValue,
                                      uint32_t &minValue) {
  pyasc_detail::TransposeSize("GetTransposeMaxMinTmpSize", srcShape, typeSize, transposeTypeIn,
                              maxValue, minValue);
}
inline void GetConfusionTransposeMaxMinTmpSize(const ge::Shape &srcShape, const uint32_t typeSize,
                                               const uint32_t transposeTypeIn, uint32_t &maxValue,
                                               uint32_t &minValue) {
  pyasc_detail::TransposeSize("GetConfusionTransposeMaxMinTmpSize", srcShape, typeSize,
                              transposeTypeIn, maxValue, minValue);
}
// AscendC::tiling::ConfusionTransposeTiling or optiling::ConfusionTransposeTiling
template <typename Tiling>
inline void GetTransposeTilingInfo(const ge::Shape &srcShape, const uint32_t stackBufferSize,
                                   const uint32_t typeSize, const uint32_t transposeTypeIn,
                                   Tiling &tiling) {
  pyasc_detail::TransposeFill("GetTransposeTilingInfo", srcShape, stackBufferSize, typeSize,
                              transposeTypeIn, tiling);
}
template <typename Tiling>
inline void GetConfusionTransposeTilingInfo(const ge::Shape &srcShape,
                                            const uint32_t stackBufferSize, const uint32_t typeSize,
                                            const uint32_t transposeTypeIn, Tiling &tiling) {
  pyasc_detail::TransposeFill("GetConfusionTransposeTilingInfo", srcShape, stackBufferSize,
                              typeSize, transposeTypeIn, tiling);
}
// The 2-D transpose's (type 7) tiling.
template <typename Tiling>
inline void GetConfusionTransposeOnlyTilingInfo(const ge::Shape &srcShape,
                                                const uint32_t stackBufferSize,
                                                const uint32_t typeSize, Tiling &tiling) {
  pyasc_detail::TransposeFill("GetConfusionTransposeOnlyTilingInfo", srcShape, stackBufferSize,
                              typeSize, 7, tiling);
}
}  // namespace AscendC

#endif
