// Part of adv_tiling.h: the normalisation family's tiling structs (LayerNormTiling,
// LayerNormSeparateTiling, LayerNormGradTiling, LayerNormGradBetaTiling, DeepNormTiling), CANN's
// members in CANN's order. Each list X(type, name) below makes the kernel's struct here, the
// host's optiling class (tiling/layernorm_tiling.h) and the copy from libasc's C struct of the
// same members (asc_layernorm_tiling, ...).
#ifndef PYASC_ASCENDC_NORM_TILING_H
#define PYASC_ASCENDC_NORM_TILING_H

#include <cstdint>

// clang-format off
#define PYASC_LAYERNORM_TILING_FIELDS(X) \
  X(uint32_t, bLength)                   \
  X(uint32_t, sLength)                   \
  X(uint32_t, hLength)                   \
  X(uint32_t, originalHLength)           \
  X(uint32_t, inputXSize)                \
  X(uint32_t, meanVarSize)               \
  X(uint32_t, numberOfTmpBuf)            \
  X(uint32_t, meanTmpTensorPos)          \
  X(uint32_t, meanTmpTensorSize)         \
  X(uint32_t, varianceTmpTensorPos)      \
  X(uint32_t, varianceTmpTensorSize)     \
  X(uint32_t, tmpBufSize)                \
  X(uint32_t, oneTmpSize)                \
  X(uint32_t, firstTmpStartPos)          \
  X(uint32_t, secondTmpStartPos)         \
  X(uint32_t, thirdTmpStartPos)          \
  X(uint32_t, loopRound)                 \
  X(uint32_t, inputRoundSize)            \
  X(uint32_t, inputTailSize)             \
  X(uint32_t, inputTailPos)              \
  X(uint32_t, meanVarRoundSize)          \
  X(uint32_t, meanVarTailSize)           \
  X(uint32_t, meanVarTailPos)            \
  X(uint32_t, bshCurLength)              \
  X(uint32_t, bsCurLength)               \
  X(float, lastDimValueBack)

#define PYASC_LAYERNORM_SEPARATE_TILING_FIELDS(X) \
  X(uint32_t, aLength)                            \
  X(uint32_t, rLength)                            \
  X(uint32_t, halfAddRepeatTimes)                 \
  X(uint32_t, rHeadLength)                        \
  X(float, k2Rec)                                 \
  X(float, k2RRec)                                \
  X(uint32_t, inputXSize)                         \
  X(uint32_t, meanVarSize)                        \
  X(uint32_t, numberOfTmpBuf)                     \
  X(uint32_t, varianceTmpTensorPos)               \
  X(uint32_t, varianceTmpTensorSize)              \
  X(uint32_t, tmpBufSize)                         \
  X(uint32_t, oneTmpSize)                         \
  X(uint32_t, firstTmpStartPos)                   \
  X(uint32_t, secondTmpStartPos)                  \
  X(uint32_t, thirdTmpStartPos)                   \
  X(uint32_t, loopRound)                          \
  X(uint32_t, inputRoundSize)                     \
  X(uint32_t, inputTailSize)                      \
  X(uint32_t, inputTailPos)                       \
  X(uint32_t, meanVarRoundSize)                   \
  X(uint32_t, meanVarTailSize)                    \
  X(uint32_t, meanVarTailPos)                     \
  X(uint32_t, arCurLength)                        \
  X(uint32_t, aCurLength)                         \
  X(float, rValueBack)

#define PYASC_LAYERNORM_GRAD_TILING_FIELDS(X) \
  X(uint32_t, stackBufferSize)                \
  X(uint32_t, bLength)                        \
  X(uint32_t, sLength)                        \
  X(uint32_t, hLength)                        \
  X(uint32_t, originalHLength)                \
  X(uint32_t, oneCalSize)                     \
  X(uint32_t, nohCalSize)                     \
  X(uint32_t, loopNum)                        \
  X(uint32_t, tailSize)                       \
  X(uint32_t, nohTailSize)                    \
  X(uint32_t, tmpTensorBSHPos)                \
  X(uint32_t, tmpTensorBSHSize)               \
  X(uint32_t, pdVarTensorPos)                 \
  X(uint32_t, pdVarTensorSize)                \
  X(uint32_t, pdMeanTensorPos)                \
  X(uint32_t, pdMeanTensorSize)               \
  X(uint32_t, x1TensorPos)                    \
  X(uint32_t, x1TensorSize)                   \
  X(uint32_t, x2TensorPos)                    \
  X(uint32_t, x2TensorSize)                   \
  X(uint32_t, x3TensorPos)                    \
  X(uint32_t, x3TensorSize)                   \
  X(uint32_t, tmpTensorPos)                   \
  X(uint32_t, tmpTensorSize)                  \
  X(uint32_t, tmpTensor1Pos)                  \
  X(uint32_t, tmpTensor1Size)                 \
  X(uint32_t, tmpTensor2Pos)                  \
  X(uint32_t, tmpTensor2Size)                 \
  X(uint32_t, lastDimValueBack)               \
  X(uint32_t, lastDimValueBackMulTwo)

#define PYASC_LAYERNORM_GRAD_BETA_TILING_FIELDS(X) \
  X(uint32_t, stackBufferSize)                     \
  X(uint32_t, bLength)                             \
  X(uint32_t, sLength)                             \
  X(uint32_t, hLength)                             \
  X(uint32_t, originalHLength)                     \
  X(uint32_t, bshLength)                           \
  X(uint32_t, bsLength)                            \
  X(uint32_t, oneCalSize)                          \
  X(uint32_t, numberOfTmpBuf)                      \
  X(uint32_t, loopRound)                           \
  X(uint32_t, inputTailSize)                       \
  X(uint32_t, inputTailPos)                        \
  X(uint32_t, bsTailSize)                          \
  X(uint32_t, bshCurLength)                        \
  X(uint32_t, bsCurLength)                         \
  X(uint32_t, gammaTempTensorPos)                  \
  X(uint32_t, betaTempTensorPos)                   \
  X(uint32_t, inputDyTmpTensorPos)                 \
  X(uint32_t, resForGammaTmpTensorPos)             \
  X(uint32_t, reserved)
// clang-format on

#define PYASC_NORM_TILING_MEMBER(type, name) type name = 0;

namespace AscendC {
namespace tiling {
struct LayerNormTiling {
  PYASC_LAYERNORM_TILING_FIELDS(PYASC_NORM_TILING_MEMBER)
};
struct LayerNormSeparateTiling {
  PYASC_LAYERNORM_SEPARATE_TILING_FIELDS(PYASC_NORM_TILING_MEMBER)
};
struct LayerNormGradTiling {
  PYASC_LAYERNORM_GRAD_TILING_FIELDS(PYASC_NORM_TILING_MEMBER)
};
struct LayerNormGradBetaTiling {
  PYASC_LAYERNORM_GRAD_BETA_TILING_FIELDS(PYASC_NORM_TILING_MEMBER)
};
// DeepNorm's has LayerNormTiling's members.
struct DeepNormTiling {
  PYASC_LAYERNORM_TILING_FIELDS(PYASC_NORM_TILING_MEMBER)
};
}  // namespace tiling
}  // namespace AscendC
#undef PYASC_NORM_TILING_MEMBER
using AscendC::tiling::DeepNormTiling;
using AscendC::tiling::LayerNormGradBetaTiling;
using AscendC::tiling::LayerNormGradTiling;
using AscendC::tiling::LayerNormSeparateTiling;
using AscendC::tiling::LayerNormTiling;

#endif
