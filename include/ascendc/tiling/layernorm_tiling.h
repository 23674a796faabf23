// Part of tiling/tiling_api.h: the host side of Ascend C's normalisation family (LayerNorm in
// its [B, S, H] and [A, R] forms, LayerNormGrad, LayerNormGradBeta, Normalize, DeepNorm): the
// shared tmp buffer's sizes and the tiling structs, as CANN's asc-devkit computes them for
// dav-2201, by libasc's asc_tiling_layernorm* / asc_tiling_deepnorm* (src/tiling/layernorm.c).
// Shapes: [B, S, H, originalH] for LayerNorm's first form and its gradients, [A, R] for its
// separate form and Normalize, [B, S, H] for DeepNorm. On an input CANN's checks refuse, the
// sizes are 0, the tiling is left as it was and DeepNorm's functions return false, with the
// reason on stderr.
#ifndef PYASC_ASCENDC_LAYERNORM_TILING_H
#define PYASC_ASCENDC_LAYERNORM_TILING_H

#include <cstdint>
#include <cstdio>

#include "../graph/tensor.h"
#include "../kernel_tiling/kernel_tiling.h"
#include "../register/tilingdata_base.h"
#include "asc/tiling.h"

#define PYASC_NORM_OPT_FIELD(type, name) TILING_DATA_FIELD_DEF(type, name);
namespace optiling {
BEGIN_TILING_DATA_DEF(LayerNormTiling)
PYASC_LAYERNORM_TILING_FIELDS(PYASC_NORM_OPT_FIELD)
END_TILING_DATA_DEF;
BEGIN_TILING_DATA_DEF(LayerNormSeparateTiling)
PYASC_LAYERNORM_SEPARATE_TILING_FIELDS(PYASC_NORM_OPT_FIELD)
END_TILING_DATA_DEF;
BEGIN_TILING_DATA_DEF(LayerNormGradTiling)
PYASC_LAYERNORM_GRAD_TILING_FIELDS(PYASC_NORM_OPT_FIELD)
END_TILING_DATA_DEF;
BEGIN_TILING_DATA_DEF(LayerNormGradBetaTiling)
PYASC_LAYERNORM_GRAD_BETA_TILING_FIELDS(PYASC_NORM_OPT_FIELD)
END_TILING_DATA_DEF;
BEGIN_TILING_DATA_DEF(DeepNormTiling)
PYASC_LAYERNORM_TILING_FIELDS(PYASC_NORM_OPT_FIELD)
END_TILING_DATA_DEF;
}  // namespace optiling
#undef PYASC_NORM_OPT_FIELD

namespace AscendC {
namespace pyasc_detail {
// libasc's struct into the kernel's struct or the optiling class of the same members.
#define PYASC_NORM_COPY(type, name) out.name = t.name;
#define PYASC_NORM_SET(type, name) out.set_##name(t.name);
#define PYASC_NORM_STORE(CType, Name, FIELDS)                         \
  inline void NormStore(const CType &t, AscendC::tiling::Name &out) { \
    FIELDS(PYASC_NORM_COPY)                                           \
  }                                                                   \
  inline void NormStore(const CType &t, optiling::Name &out) {        \
    FIELDS(PYASC_NORM_SET)                                            \
  }
PYASC_NORM_STORE(asc_layernorm_tiling, LayerNormTiling, PYASC_LAYERNORM_TILING_FIELDS)
PYASC_NORM_STORE(asc_layernorm_tiling, DeepNormTiling, PYASC_LAYERNORM_TILING_FIELDS)
PYASC_NORM_STORE(asc_layernorm_separate_tiling, LayerNormSeparateTiling,
                 PYASC_LAYERNORM_SEPARATE_TILING_FIELDS)
PYASC_NORM_STORE(asc_layernorm_grad_tiling, LayerNormGradTiling, PYASC_LAYERNORM_GRAD_TILING_FIELDS)
PYASC_NORM_STORE(asc_layernorm_grad_beta_tiling, LayerNormGradBetaTiling,
                 PYASC_LAYERNORM_GRAD_BETA_TILING_FIELDS)
#undef PYASC_NORM_STORE
#undef PYASC_NORM_SET
#undef PYASC_NORM_COPY

// The shape's dims, or false (and the reason on stderr) when it has not `want` of them.
inline bool NormDims(const char *what, const ge::Shape &shape, size_t want, int64_t dims[4]) {
  if (shape.GetDimNum() != want) {
    std::fprintf(stderr, "%s: the shape has %zu dims, it takes %zu (%s)\n", what, shape.GetDimNum(),
                 want,
                 want == 4   ? "[B, S, H, originalH]"
                 : want == 3 ? "[B, S, H]"
                             : "[A, R]");
    return false;
  }
  for (size_t i = 0; i < want; ++i) dims[i] = shape.GetDim(i);
  return true;
}
// st's message on stderr; true when st is ASC_OK.
inline bool NormOk(const char *what, asc_status st) {
  if (st == ASC_OK) return true;
  std::fprintf(stderr, "%s: %s\n", what, asc_last_error());
  return false;
}
// most and least by reference: read after st, the call that fills them, has run.
inline void NormSizes(const char *what, asc_status st, const uint32_t &most, const uint32_t &least,
                      uint32_t &maxValue, uint32_t &minValue) {
  const bool ok = NormOk(what, st);
  maxValue = ok ? most : 0;
  minValue = ok ? least : 0;
}
// A [B, S, H, originalH] API's sizes: call(b, s, h, &most, &least) is its libasc function.
template <typename Call>
inline void BshSizes(const char *what, const ge::Shape &shape, Call call, uint32_t &maxValue,
                     uint32_t &minValue) {
  int64_t d[4] = {0, 0, 0, 0};
  uint32_t most = 0, least = 0;
  if (!NormDims(what, shape, 4, d)) {
    maxValue = minValue = 0;
    return;
  }
  NormSizes(what, call(d[0], d[1], d[2], &most, &least), most, least, maxValue, minValue);
}
// Its tiling: call(b, s, h, originalH, &t) fills the C struct T, stored into tiling.
template <typename T, typename Tiling, typename Call>
inline void BshTiling(const char *what, const ge::Shape &shape, Call call, Tiling &tiling) {
  int64_t d[4] = {0, 0, 0, 0};
  T t;
  if (NormDims(what, shape, 4, d) && NormOk(what, call(d[0], d[1], d[2], d[3], &t)))
    NormStore(t, tiling);
}
}  // namespace pyasc_detail

// --- LayerNorm [B, S, H, originalH]: output, mean and variance ---------------------------
inline void GetLayerNormMaxMinTmpSize(const ge::Shape &srcShape, const uint32_t typeSize,
                                      const bool isReuseSource, uint32_t &maxValue,
                                      uint32_t &minValue) {
  pyasc_detail::BshSizes(
      "GetLayerNormMaxMinTmpSize", srcShape,
      [&](int64_t b, int64_t s, int64_t h, uint32_t *most, uint32_t *least) {
        return asc_tiling_layernorm_tmp_size(b, s, h, static_cast<int32_t>(typeSize), isReuseSource,
                                             most, least);
      },
      maxValue, minValue);
}
template <typename Tiling>
inline void GetLayerNormNDTilingInfo(const ge::Shape &srcShape, const uint32_t stackBufferSize,
                                     const uint32_t typeSize, const bool isReuseSource,
                                     Tiling &tiling) {
  pyasc_detail::BshTiling<asc_layernorm_tiling>(
      "GetLayerNormNDTilingInfo", srcShape,
      [&](int64_t b, int64_t s, int64_t h, int64_t originalH, asc_layernorm_tiling *t) {
        return asc_tiling_layernorm(b, s, h, originalH, stackBufferSize,
                                    static_cast<int32_t>(typeSize), isReuseSource, t);
      },
      tiling);
}
// CANN's older spelling.
template <typename Tiling>
inline void GetLayerNormNDTillingInfo(const ge::Shape &srcShape, const uint32_t stackBufferSize,
                                      const uint32_t typeSize, const bool isReuseSource,
                                      Tiling &tilling) {
  GetLayerNormNDTilingInfo(srcShape, stackBufferSize, typeSize, isReuseSource, tilling);
}

// --- LayerNorm [A, R]: output, mean and rstd (LayerNormSeparateTiling) --------------------
inline void GetLayerNormMaxMinTmpSize(const ge::Shape &srcShape, const uint32_t typeSize,
                                      const bool isReuseSource, const bool isComputeRstd,
                                      const bool isOnlyOutput, uint32_t &maxValue,
                                      uint32_t &minValue) {
  (void)isReuseSource;
  const char *what = "GetLayerNormMaxMinTmpSize";
  int64_t d[4] = {0, 0, 0, 0};
  uint32_t most = 0, least = 0;
  if (!pyasc_detail::NormDims(what, srcShape, 2, d)) {
    maxValue = minValue = 0;
    return;
  }
  pyasc_detail::NormSizes(
      what,
      asc_tiling_layernorm_separate_tmp_size(d[0], d[1], static_cast<int32_t>(typeSize),
                                             isComputeRstd, isOnlyOutput, &most, &least),
      most, least, maxValue, minValue);
}
template <typename Tiling>
inline void GetLayerNormNDTilingInfo(const ge::Shape &srcShape, const uint32_t stackBufferSize,
                                     const uint32_t typeSize, const bool isReuseSource,
                                     const bool isComputeRstd, Tiling &tiling) {
  (void)isReuseSource;
  const char *what = "GetLayerNormNDTilingInfo";
  int64_t d[4] = {0, 0, 0, 0};
  asc_layernorm_separate_tiling t;
  if (pyasc_detail::NormDims(what, srcShape, 2, d) &&
      pyasc_detail::NormOk(
          what, asc_tiling_layernorm_separate(d[0], d[1], stackBufferSize,
                                              static_cast<int32_t>(typeSize), isComputeRstd, &t)))
    pyasc_detail::NormStore(t, tiling);
}

// --- Normalize [A, R] (typeSizeU: gamma and beta's, typeSizeT: the input's) -----------------
inline void GetNormalizeMaxMinTmpSize(const ge::Shape &srcShape, const uint32_t typeSizeU,
                                      const uint32_t typeSizeT, const bool isReuseSource,
                                      const bool isComputeRstd, const bool isOnlyOutput,
                                      uint32_t &maxValue, uint32_t &minValue) {
  (void)isReuseSource;
  const char *what = "GetNormalizeMaxMinTmpSize";
  int64_t d[4] = {0, 0, 0, 0};
  uint32_t most = 0, least = 0;
  if (!pyasc_detail::NormDims(what, srcShape, 2, d)) {
    maxValue = minValue = 0;
    return;
  }
  pyasc_detail::NormSizes(what,
                          asc_tiling_normalize_tmp_size(d[0], d[1], static_cast<int32_t>(typeSizeU),
                                                        static_cast<int32_t>(typeSizeT),
                                                        isComputeRstd, isOnlyOutput, &most, &least),
                          most, least, maxValue, minValue);
}

// --- LayerNormGrad, LayerNormGradBeta [B, S, H, originalH] ----------------------------------
inline void GetLayerNormGradMaxMinTmpSize(const ge::Shape &srcShape, const uint32_t typeSize,
                                          const bool isReuseSource, uint32_t &maxValue,
                                          uint32_t &minValue) {
  pyasc_detail::BshSizes(
      "GetLayerNormGradMaxMinTmpSize", srcShape,
      [&](int64_t b, int64_t s, int64_t h, uint32_t *most, uint32_t *least) {
        return asc_tiling_layernorm_grad_tmp_size(b, s, h, static_cast<int32_t>(typeSize),
                                                  isReuseSource, most, least);
      },
      maxValue, minValue);
}
template <typename Tiling>
inline void GetLayerNormGradNDTilingInfo(const ge::Shape &srcShape, const uint32_t stackBufferSize,
                                         const uint32_t typeSize, const bool isReuseSource,
                                         Tiling &tiling) {
  pyasc_detail::BshTiling<asc_layernorm_grad_tiling>(
      "GetLayerNormGradNDTilingInfo", srcShape,
      [&](int64_t b, int64_t s, int64_t h, int64_t originalH, asc_layernorm_grad_tiling *t) {
        return asc_tiling_layernorm_grad(b, s, h, originalH, stackBufferSize,
                                         static_cast<int32_t>(typeSize), isReuseSource, t);
      },
      tiling);
}
inline void GetLayerNormGradBetaMaxMinTmpSize(const ge::Shape &srcShape, const uint32_t typeSize,
                                              const bool isReuseSource, uint32_t &maxValue,
                                              uint32_t &minValue) {
  (void)isReuseSource;
  pyasc_detail::BshSizes(
      "GetLayerNormGradBetaMaxMinTmpSize", srcShape,
      [&](int64_t b, int64_t s, int64_t h, uint32_t *most, uint32_t *least) {
        return asc_tiling_layernorm_grad_beta_tmp_size(b, s, h, static_cast<int32_t>(typeSize),
                                                       most, least);
      },
      maxValue, minValue);
}
template <typename Tiling>
inline void GetLayerNormGradBetaNDTilingInfo(const ge::Shape &srcShape,
                                             const uint32_t stackBufferSize,
                                             const uint32_t typeSize, const bool isReuseSource,
                                             Tiling &tiling) {
  (void)isReuseSource;
  pyasc_detail::BshTiling<asc_layernorm_grad_beta_tiling>(
      "GetLayerNormGradBetaNDTilingInfo", srcShape,
      [&](int64_t b, int64_t s, int64_t h, int64_t originalH, asc_layernorm_grad_beta_tiling *t) {
        return asc_tiling_layernorm_grad_beta(b, s, h, originalH, stackBufferSize,
                                              static_cast<int32_t>(typeSize), t);
      },
      tiling);
}

// --- DeepNorm [B, S, H]: false (and the reason on stderr) where CANN's returns false ------------
inline bool GetDeepNormMaxMinTmpSize(const ge::Shape &srcShape, const uint32_t typeSize,
                                     const bool isReuseSource, const bool isBasicBlock,
                                     uint32_t &maxValue, uint32_t &minValue) {
  const char *what = "GetDeepNormMaxMinTmpSize";
  int64_t d[4] = {0, 0, 0, 0};
  uint32_t most = 0, least = 0;
  if (!pyasc_detail::NormDims(what, srcShape, 3, d)) return false;
  if (!pyasc_detail::NormOk(
          what, asc_tiling_deepnorm_tmp_size(d[0], d[1], d[2], static_cast<int32_t>(typeSize),
                                             isReuseSource, isBasicBlock, &most, &least)))
    return false;
  maxValue = most;
  minValue = least;
  return true;
}
template <typename Tiling>
inline bool GetDeepNormTilingInfo(const ge::Shape &srcShape, const ge::Shape &originSrcShape,
                                  const uint32_t stackBufferSize, const uint32_t typeSize,
                                  const bool isReuseSource, const bool isBasicBlock,
                                  Tiling &tiling) {
  const char *what = "GetDeepNormTilingInfo";
  int64_t d[4] = {0, 0, 0, 0}, o[4] = {0, 0, 0, 0};
  asc_deepnorm_tiling t;
  if (!pyasc_detail::NormDims(what, srcShape, 3, d) ||
      !pyasc_detail::NormDims(what, originSrcShape, 3, o) ||
      !pyasc_detail::NormOk(
          what,
          asc_tiling_deepnorm(d[0], d[1], d[2], o[0], o[1], o[2], stackBufferSize,
                              static_cast<int32_t>(typeSize), isReuseSource, isBasicBlock, &t)))
    return false;
  pyasc_detail::NormStore(t, tiling);
  return true;
}
}  // namespace AscendC

#endif
