// Part of kernel_operator.h (and of kernel_tiling/kernel_tiling.h, the host's view): the matmul
// tiling the host computes and the kernel's Matmul reads.
//
// One definition for both sides, so that a host program that fills AscendC::tiling::TCubeTiling
// (tiling/tiling_api.h) and a kernel that takes ::TCubeTiling pass the same type; CANN's
// generated kernel_tiling.h exports the struct from AscendC::tiling to the global namespace the
// same way. Every member is int32, in Ascend C's order (pyasc.host fills it and
// pyasc.language.adv_tiling.TCubeTiling packs it), 0 unless set, as in CANN's kernel_tiling.h
// (the Ascend C Huawei's PyAsc generates declares a TCubeTiling and sets some members); the
// 910B's tiling has no mxTypePara.
#ifndef PYASC_ASCENDC_TCUBE_TILING_H
#define PYASC_ASCENDC_TCUBE_TILING_H

#include <cstdint>

namespace AscendC {
namespace tiling {
struct TCubeTiling {
  int32_t usedCoreNum = 0, M = 0, N = 0, Ka = 0, Kb = 0, singleCoreM = 0, singleCoreN = 0;
  int32_t singleCoreK = 0, baseM = 0, baseN = 0, baseK = 0, depthA1 = 0, depthB1 = 0, stepM = 0;
  int32_t stepN = 0, isBias = 0, transLength = 0, iterateOrder = 0, shareMode = 0;
  int32_t shareL1Size = 0, shareL0CSize = 0, shareUbSize = 0, batchM = 0, batchN = 0;
  int32_t singleBatchM = 0, singleBatchN = 0, stepKa = 0, stepKb = 0, depthAL1CacheUB = 0;
  int32_t depthBL1CacheUB = 0, dbL0A = 0, dbL0B = 0, dbL0C = 0, ALayoutInfoB = 0;
  int32_t ALayoutInfoS = 0, ALayoutInfoN = 0, ALayoutInfoG = 0, ALayoutInfoD = 0;
  int32_t BLayoutInfoB = 0, BLayoutInfoS = 0, BLayoutInfoN = 0, BLayoutInfoG = 0;
  int32_t BLayoutInfoD = 0, CLayoutInfoB = 0, CLayoutInfoS1 = 0, CLayoutInfoN = 0;
  int32_t CLayoutInfoG = 0, CLayoutInfoS2 = 0, BatchNum = 0;
};
}  // namespace tiling
}  // namespace AscendC
using AscendC::tiling::TCubeTiling;

#endif
