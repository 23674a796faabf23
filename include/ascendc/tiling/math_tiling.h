// Part of tiling/tiling_api.h: the host side of Ascend C's math library APIs, the shared
// temporary buffer their kernel calls take (sizes as CANN's asc-devkit computes them).
#ifndef PYASC_ASCENDC_MATH_TILING_H
#define PYASC_ASCENDC_MATH_TILING_H

#include <algorithm>
#include <cstdint>
#include <cstdio>

#include "../graph/tensor.h"
#include "../kernel_operator/reduce_pattern.h"

namespace AscendC {

using TensorShape = ge::Shape;

// --- the element-wise maths APIs: GetXxxMaxMinTmpSize, GetXxxTmpBufferFactorSize -----------
// Their factors and forms: ../adv_math_tmp.def.
namespace pyasc_detail {
enum class TmpFloor { REPEAT, ELEMENTS, NONE, FLOAT32 };
struct MathTmpFactor {
  uint32_t half, floatNoReuse, floatReuse;
  TmpFloor floor;
};
inline uint32_t MathFactor(const MathTmpFactor &f, uint32_t typeSize, bool isReuseSource) {
  if (typeSize != sizeof(float)) return f.half;
  return isReuseSource ? f.floatReuse : f.floatNoReuse;
}
// false, maxValue and minValue left as they were, for an unknown (negative) shape, an empty
// one (CANN's host assertion returns there; Exp's query takes it) or sizes past uint32.
inline bool MathMaxMinTmpSize(const MathTmpFactor &f, const TensorShape &srcShape,
                              uint32_t typeSize, bool isReuseSource, uint32_t &maxValue,
                              uint32_t &minValue) {
  const uint64_t repeat = 256;
  const int64_t count = srcShape.GetShapeSize();
  if (count < 0 || (count == 0 && f.floor != TmpFloor::FLOAT32)) return false;
  if (static_cast<uint64_t>(count) > UINT32_MAX) return false;
  const uint64_t factor = MathFactor(f, typeSize, isReuseSource);
  const uint64_t n = static_cast<uint64_t>(count);
  uint64_t most = 0;
  switch (f.floor) {
    case TmpFloor::REPEAT:
      most = factor * std::max<uint64_t>(n * typeSize, repeat);
      break;
    case TmpFloor::ELEMENTS:
      most = std::max<uint64_t>(factor * n, repeat) * typeSize;
      break;
    case TmpFloor::NONE:
      most = factor * n * typeSize;
      break;
    case TmpFloor::FLOAT32:
      most = factor * std::max<uint64_t>(n * sizeof(float), repeat);
      break;
  }
  if (most > UINT32_MAX) return false;
  minValue = static_cast<uint32_t>(factor * repeat);
  maxValue = static_cast<uint32_t>(most);
  return true;
}
// Buffers of the input's type per element (Exp's float32 buffers counted so).
inline uint32_t MathLiveNodes(const MathTmpFactor &f, uint32_t typeSize) {
  const uint32_t factor = MathFactor(f, typeSize, false);
  return f.floor == TmpFloor::FLOAT32 ? factor * sizeof(float) / typeSize : factor;
}
}  // namespace pyasc_detail

// CANN's queries return nothing but Exp's; a bool from the others changes no caller.
#define PYASC_ADV_TMP(NAME, name, HALF, FLOAT, FLOAT_REUSE, FLOOR)                                \
  inline constexpr pyasc_detail::MathTmpFactor k##NAME##TmpFactor{HALF, FLOAT, FLOAT_REUSE,       \
                                                                  pyasc_detail::TmpFloor::FLOOR}; \
  inline bool Get##NAME##MaxMinTmpSize(const TensorShape &srcShape, const uint32_t typeSize,      \
                                       const bool isReuseSource, uint32_t &maxValue,              \
                                       uint32_t &minValue) {                                      \
    return pyasc_detail::MathMaxMinTmpSize(k##NAME##TmpFactor, srcShape, typeSize, isReuseSource, \
                                           maxValue, minValue);                                   \
  }                                                                                               \
  inline void Get##NAME##TmpBufferFactorSize(const uint32_t typeSize, uint32_t &maxLiveNodeCount, \
                                             uint32_t &extraBuf) {                                \
    extraBuf = 0;                                                                                 \
    maxLiveNodeCount = pyasc_detail::MathLiveNodes(k##NAME##TmpFactor, typeSize);                 \
  }
#include "../adv_math_tmp.def"
// Ascend C's APIs that PyAsc has not: Sigmoid, GeGLU, Fmod (Trunc's buffers and its own),
// SwiGLU
PYASC_ADV_TMP(Sigmoid, sigmoid, 1, 1, 1, REPEAT)
PYASC_ADV_TMP(GeGLU, geglu, 4, 0, 0, REPEAT)
PYASC_ADV_TMP(Fmod, fmod, 8, 1, 1, REPEAT)
PYASC_ADV_TMP(SwiGLU, swiglu, 6, 0, 0, REPEAT)
#undef PYASC_ADV_TMP
// SwiGLU's query takes isReuseSource last.
inline void GetSwiGLUMaxMinTmpSize(const TensorShape &srcShape, const uint32_t typeSize,
                                   uint32_t &maxValue, uint32_t &minValue,
                                   const bool isReuseSource) {
  GetSwiGLUMaxMinTmpSize(srcShape, typeSize, isReuseSource, maxValue, minValue);
}

// Gelu: three float32 buffers, whatever the type (no isReuseSource in its queries).
inline constexpr pyasc_detail::MathTmpFactor kGeluTmpFactor{3, 3, 3,
                                                            pyasc_detail::TmpFloor::FLOAT32};
inline void GetGeluMaxMinTmpSize(const TensorShape &srcShape, const uint32_t typeSize,
                                 uint32_t &maxValue, uint32_t &minValue) {
  pyasc_detail::MathMaxMinTmpSize(kGeluTmpFactor, srcShape, typeSize, false, maxValue, minValue);
}
inline uint32_t GetGeluMinTmpSize(const TensorShape &srcShape, const uint32_t typeSize) {
  uint32_t maxValue = 0, minValue = 0;
  GetGeluMaxMinTmpSize(srcShape, typeSize, maxValue, minValue);
  return minValue;
}
inline uint32_t GetGeluMaxTmpSize(const TensorShape &srcShape, const uint32_t typeSize) {
  uint32_t maxValue = 0, minValue = 0;
  GetGeluMaxMinTmpSize(srcShape, typeSize, maxValue, minValue);
  return maxValue;
}

// Silu and Swish need no buffer.
inline void GetSiluTmpSize(const TensorShape &, const uint32_t, const bool, uint32_t &maxValue,
                           uint32_t &minValue) {
  maxValue = minValue = 0;
}
inline void GetSwishTmpSize(const TensorShape &, const uint32_t, const bool, uint32_t &maxValue,
                            uint32_t &minValue) {
  maxValue = minValue = 0;
}

// ClampMin and ClampMax: a byte per element, at least 64 (float) or 128 (half).
inline void GetClampMaxMinTmpSize(const TensorShape &srcShape, const uint32_t typeSize,
                                  const bool isReuseSource, uint32_t &maxValue,
                                  uint32_t &minValue) {
  (void)isReuseSource;
  const int64_t count = srcShape.GetShapeSize();
  if (count < 0 || static_cast<uint64_t>(count) > UINT32_MAX) return;
  minValue = typeSize == sizeof(float) ? 64 : 128;
  maxValue = std::max(static_cast<uint32_t>(count), minValue);
}
inline void GetClampTmpBufferFactorSize(const uint32_t typeSize, uint32_t &maxLiveNodeCount,
                                        uint32_t &extraBuf) {
  (void)typeSize;
  maxLiveNodeCount = 1;
  extraBuf = 0;
}

// --- AscendQuant: two bytes an element, at least two repeats, in 32-byte blocks (its input
// 32-byte aligned, half or float; left as it was otherwise, as CANN's host assertion returns).
inline void GetAscendQuantMaxMinTmpSize(const TensorShape &srcShape, const uint32_t typeSize,
                                        uint32_t &maxValue, uint32_t &minValue) {
  const uint64_t least = 2 * 256;
  const int64_t count = srcShape.GetShapeSize();
  if (count <= 0 || static_cast<uint64_t>(count) > UINT32_MAX / 2) return;
  if ((typeSize != 2 && typeSize != sizeof(float)) || count * typeSize % 32 != 0) return;
  const uint64_t most = std::max<uint64_t>(static_cast<uint64_t>(count) * 2, least);
  minValue = static_cast<uint32_t>(least);
  maxValue = static_cast<uint32_t>((most + 31) / 32 * 32);
}
inline void GetAscendQuantTmpBufferFactorSize(uint32_t &maxLiveNodeCount, uint32_t &extraBuf) {
  maxLiveNodeCount = 2;
  extraBuf = 0;
}

// --- Sum: one value per 256-byte repeat of a row, in 32-byte blocks (n elements a row).
inline void GetSumMaxMinTmpSize(const uint32_t n, const uint32_t typeSize, const bool isReuseSource,
                                uint32_t &maxSize, uint32_t &minSize) {
  (void)isReuseSource;
  if (typeSize == 0 || typeSize > 32 || n == 0) return;
  const uint64_t perBlock = 32 / typeSize, perRepeat = 256 / typeSize;
  const uint64_t repeats = (n + perRepeat - 1) / perRepeat;
  minSize = maxSize =
      static_cast<uint32_t>((repeats + perBlock - 1) / perBlock * perBlock * typeSize);
}

// --- ReduceMax / ReduceMin of a two-axis shape (CANN's GetReduceMaxMaxMinTmpSize): nothing when
// the source may be overwritten; along the last axis a block a row (a repeat a row past one
// repeat's elements) once a row passes a block; down the first axis a row of the largest power
// of two below the rows (32-byte aligned).
namespace pyasc_detail {
inline void ReduceExtremeTmpSize(const char *what, const TensorShape &srcShape,
                                 const ge::DataType dataType, ReducePattern pattern,
                                 bool isSrcInnerPad, bool isReuseSource, uint32_t &maxValue,
                                 uint32_t &minValue) {
  const uint64_t typeSize = dataType == ge::DT_FLOAT ? 4 : dataType == ge::DT_FLOAT16 ? 2 : 0;
  const int64_t first = srcShape.GetDim(0), last = srcShape.GetDim(1);
  const char *why = typeSize == 0               ? "half or float"
                    : srcShape.GetDimNum() != 2 ? "a 2-axis shape"
                    : !isSrcInnerPad            ? "isSrcInnerPad"
                    : pattern != ReducePattern::AR && pattern != ReducePattern::RA ? "AR or RA"
                    : first <= 0 || last <= 0 || first > UINT32_MAX || last > UINT32_MAX
                        ? "positive axes"
                        : nullptr;
  if (why) {
    std::fprintf(stderr, "%s: dav-2201 takes %s\n", what, why);
    return;
  }
  if (isReuseSource) {
    maxValue = minValue = 0;
    return;
  }
  uint64_t bytes = 0;
  if (pattern == ReducePattern::AR) {
    const uint64_t perBlock = 32 / typeSize, perRepeat = 256 / typeSize;
    const uint64_t l = static_cast<uint64_t>(last);
    bytes = l <= perBlock ? 0 : first * (l < perRepeat ? perBlock : perRepeat) * typeSize;
  } else {
    uint64_t k = 1;
    while (k * 2 <= static_cast<uint64_t>(first)) k *= 2;
    if (k == static_cast<uint64_t>(first) && k > 1) k /= 2;
    bytes = k * ((last * typeSize + 31) / 32 * 32);
  }
  if (bytes > UINT32_MAX) return;
  maxValue = minValue = static_cast<uint32_t>(bytes);
}
}  // namespace pyasc_detail
inline void GetReduceMaxMaxMinTmpSize(const TensorShape &srcShape, const ge::DataType dataType,
                                      ReducePattern pattern, bool isSrcInnerPad, bool isReuseSource,
                                      uint32_t &maxValue, uint32_t &minValue) {
  pyasc_detail::ReduceExtremeTmpSize("GetReduceMaxMaxMinTmpSize", srcShape, dataType, pattern,
                                     isSrcInnerPad, isReuseSource, maxValue, minValue);
}
inline void GetReduceMinMaxMinTmpSize(const TensorShape &srcShape, const ge::DataType dataType,
                                      ReducePattern pattern, bool isSrcInnerPad, bool isReuseSource,
                                      uint32_t &maxValue, uint32_t &minValue) {
  pyasc_detail::ReduceExtremeTmpSize("GetReduceMinMaxMinTmpSize", srcShape, dataType, pattern,
                                     isSrcInnerPad, isReuseSource, maxValue, minValue);
}

// --- AscendAntiQuant (dav-2201): nothing for half output; for bfloat16 float copies of the
// scale and offset and 64 floats a source row (per channel), or of the whole source (per tensor:
// at least 1 KiB). CANN's sizes.
inline void GetAscendAntiQuantMaxMinTmpSize(const TensorShape &srcShape,
                                            const TensorShape &scaleShape, bool isTranspose,
                                            ge::DataType inputDataType, ge::DataType outputDataType,
                                            uint32_t &maxValue, uint32_t &minValue) {
  (void)inputDataType;
  const int64_t srcSize = srcShape.GetShapeSize(), scaleSize = scaleShape.GetShapeSize();
  if (srcSize <= 0 || scaleSize <= 0) {
    std::fprintf(stderr, "GetAscendAntiQuantMaxMinTmpSize: the shapes must not be empty\n");
    return;
  }
  if (outputDataType == ge::DT_FLOAT16) {
    maxValue = minValue = 0;
    return;
  }
  const uint64_t f = sizeof(float), scale = static_cast<uint64_t>(scaleSize);
  uint64_t most = 0, least = 0;
  if (scale == 1) {
    most = static_cast<uint64_t>(srcSize) * f;
    least = 1024;
  } else if (isTranspose) {
    most = least = (8 + 8 + 64) * scale * f;
  } else {
    most = least = scale * 2 * f + 64 * static_cast<uint64_t>(srcShape.GetDim(0)) * f;
  }
  if (most > UINT32_MAX || least > UINT32_MAX) return;
  maxValue = static_cast<uint32_t>(most), minValue = static_cast<uint32_t>(least);
}

// --- DropOut: two repeats at the least, two floats an element at the most (CANN's sizes).
inline uint32_t GetDropOutMinTmpSize(const TensorShape &srcShape, const uint32_t typeSize,
                                     const bool isReuseSource) {
  (void)srcShape, (void)typeSize, (void)isReuseSource;
  return 2 * 256;
}
inline uint32_t GetDropOutMaxTmpSize(const TensorShape &srcShape, const uint32_t typeSize,
                                     const bool isReuseSource) {
  const int64_t count = srcShape.GetShapeSize();
  const uint64_t most = count > 0 ? 2 * static_cast<uint64_t>(count) * sizeof(float) : 0;
  const uint32_t least = GetDropOutMinTmpSize(srcShape, typeSize, isReuseSource);
  return most > UINT32_MAX ? UINT32_MAX : std::max<uint32_t>(least, static_cast<uint32_t>(most));
}
inline void GetDropOutMaxMinTmpSize(const TensorShape &srcShape, const uint32_t typeSize,
                                    const bool isReuseSource, uint32_t &maxValue,
                                    uint32_t &minValue) {
  maxValue = GetDropOutMaxTmpSize(srcShape, typeSize, isReuseSource);
  minValue = GetDropOutMinTmpSize(srcShape, typeSize, isReuseSource);
}

// --- CumSum over a [outter, inner] shape (inner 32-byte aligned, half or float): down the first
// axis half needs the tile in float; along the last, both transposes of 16-row blocks (and for
// half the cast) at the least, of every row at the most.
inline void GetCumSumMaxMinTmpSize(const TensorShape &srcShape, const uint32_t typeSize,
                                   const bool isLastAxis, const bool isReuseSource,
                                   uint32_t &maxValue, uint32_t &minValue) {
  (void)isReuseSource;
  const int64_t rows = srcShape.GetDim(0), inner = srcShape.GetDim(1);
  if ((typeSize != 2 && typeSize != sizeof(float)) || rows < 0 || inner <= 0 ||
      inner * typeSize % 32 != 0 || rows > UINT32_MAX || inner > UINT32_MAX)
    return;
  const uint64_t r = static_cast<uint64_t>(rows), c = static_cast<uint64_t>(inner);
  uint64_t least = 0, most = 0;
  if (!isLastAxis) {
    least = most = typeSize == 2 ? r * c * sizeof(float) : 0;
  } else {
    const uint64_t block = 16, aligned = (r + block - 1) / block * block;
    least = (typeSize == 2 ? c * block * 2 : 0) + block * c * typeSize * 2;
    most = (typeSize == 2 ? c * aligned * 2 : 0) + aligned * c * typeSize * 2;
  }
  if (most > UINT32_MAX) return;
  minValue = static_cast<uint32_t>(least);
  maxValue = static_cast<uint32_t>(most);
}

// --- AscendDequant over [outer, inner] (or [inner]) int32s: float copies of a repeat, the
// scale (inner plus a block) and the input, every row at the most, one row at the least.
inline void GetAscendDequantMaxMinTmpSize(const TensorShape &srcShape, const uint32_t typeSize,
                                          uint32_t &maxValue, uint32_t &minValue) {
  const size_t dims = srcShape.GetDimNum();
  if (typeSize != sizeof(int32_t) || dims < 1 || dims > 2 || srcShape.GetShapeSize() <= 0) return;
  const uint64_t outer = dims == 2 ? static_cast<uint64_t>(srcShape.GetDim(0)) : 1;
  const uint64_t inner = static_cast<uint64_t>(srcShape.GetDim(dims - 1));
  const uint64_t scale = inner + 8, repeat = 64;
  const uint64_t most = (repeat + outer * inner + scale) * sizeof(float);
  if (most > UINT32_MAX) return;
  maxValue = static_cast<uint32_t>(most);
  minValue = static_cast<uint32_t>((repeat + inner + scale) * sizeof(float));
}

// --- Select with a byte mask: half-width copies of the source (blocks of 4096 at the least),
// 512 bytes more, at least 1024; and the mask widened when its rows are longer and not reused.
inline uint32_t GetSelectBufferSize(const TensorShape &src0Shape, const TensorShape &src1Shape,
                                    const TensorShape &maskShape, const uint32_t maskTypeSize,
                                    const bool isReuseMask, const bool least) {
  auto scalar = [](const TensorShape &s) { return s.GetDimNum() == 0 || s.GetShapeSize() == 1; };
  const TensorShape &src = scalar(src0Shape) ? src1Shape : src0Shape;
  if (src.GetDimNum() == 0 || maskShape.GetDimNum() == 0) return 0;
  const uint64_t size = static_cast<uint64_t>(std::max<int64_t>(src.GetShapeSize(), 0));
  const int64_t srcLast = src.GetDim(src.GetDimNum() - 1);
  const int64_t maskLast = maskShape.GetDim(maskShape.GetDimNum() - 1);
  const uint64_t counted = least && size > 4096 ? 4096 : size;
  uint64_t bytes = std::max<uint64_t>(1024, (counted + 31) / 32 * 32 * 2 + 512);
  if (maskLast != srcLast && !isReuseMask && maskLast > 1)
    bytes += (size * maskTypeSize + 31) / 32 * 32;
  return bytes > UINT32_MAX ? 0 : static_cast<uint32_t>(bytes);
}
inline void GetSelectMaxMinTmpSize(const TensorShape &src0Shape, const TensorShape &src1Shape,
                                   const uint32_t srcTypeSize, const TensorShape &maskShape,
                                   const uint32_t maskTypeSize, const bool isReuseMask,
                                   uint32_t &maxValue, uint32_t &minValue) {
  (void)srcTypeSize;
  maxValue = GetSelectBufferSize(src0Shape, src1Shape, maskShape, maskTypeSize, isReuseMask, false);
  minValue = GetSelectBufferSize(src0Shape, src1Shape, maskShape, maskTypeSize, isReuseMask, true);
}

// --- Power: its own sizes, by which operands are tensors (a shape of one element is a scalar)
// and the type (dav-2201's counts: CANN's POW_TILING_PARAM_V220).
inline void GetPowerMaxMinTmpSize(const TensorShape &srcShape1, const TensorShape &srcShape2,
                                  const bool typeIsInt, const uint32_t typeSize,
                                  const bool isReuseSource, uint32_t &maxValue,
                                  uint32_t &minValue) {
  (void)isReuseSource;
  const uint64_t repeat = 256;
  auto scalar = [](const TensorShape &s) { return s.GetDimNum() == 1 && s.GetDim(0) == 1; };
  const bool both = !scalar(srcShape1) && !scalar(srcShape2);
  const int64_t count = (scalar(srcShape1) ? srcShape2 : srcShape1).GetShapeSize();
  if (count <= 0 || static_cast<uint64_t>(count) > UINT32_MAX) return;
  const uint64_t n = static_cast<uint64_t>(count);
  uint64_t least = 0, most = 0;
  if (typeIsInt) {
    const uint64_t nodes = both ? 6 : 7;
    least = nodes * repeat;
    most = nodes * std::max<uint64_t>(n * typeSize, repeat);
  } else if (typeSize == sizeof(float)) {
    const uint64_t nodes = both ? 4 : 5;
    least = nodes * repeat + repeat;
    most = nodes * std::max<uint64_t>(n * typeSize, repeat) + repeat;
  } else {  // half: 14 half-width buffers, the least half a repeat each
    least = 14 * repeat / 2 + repeat;
    most = 14 * std::max<uint64_t>(n * typeSize, repeat / 2) + repeat;
  }
  if (most > UINT32_MAX) return;
  minValue = static_cast<uint32_t>(least);
  maxValue = static_cast<uint32_t>(most);
}

}  // namespace AscendC

#endif
