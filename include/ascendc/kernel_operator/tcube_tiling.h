// Part of kernel_operator.h (and of kernel_tiling/kernel_tiling.h, the host's view): the matmul
// tiling the host computes and the kernel's Matmul reads.
//
// One definition for both sides, so that a host program that fills AscendC::tiling::TCubeTiling
// (tiling/tiling_api.h) and a kernel that takes ::TCubeTiling pass the same type; CANN's
// generated kernel_tiling.h exports the struct from AscendC::tiling to the global namespace the
// same way. Every member is int32, in Ascend C's order (pyasc.host fills it and
// pyasc.language.adv_tiling.TCubeTiling packs it); the 910B's tiling has no mxTypePara.
#ifndef PYASC_ASCENDC_TCUBE_TILING_H
#define PYASC_ASCENDC_TCUBE_TILING_H

#include <cstdint>

namespace AscendC {
namespace tiling {
struct TCubeTiling {
  int32_t usedCoreNum, M, N, Ka, Kb, singleCoreM, singleCoreN, singleCoreK, baseM, baseN, baseK;
  int32_t depthA1, depthB1, stepM, stepN, isBias, transLength, iterateOrder, shareMode;
  int32_t shareL1Size, shareL0CSize, shareUbSize, batchM, batchN, singleBatchM, singleBatchN;
  int32_t stepKa, stepKb, depthAL1CacheUB, depthBL1CacheUB, dbL0A, dbL0B, dbL0C;
  int32_t ALayoutInfoB, ALayoutInfoS, ALayoutInfoN, ALayoutInfoG, ALayoutInfoD;
  int32_t BLayoutInfoB, BLayoutInfoS, BLayoutInfoN, BLayoutInfoG, BLayoutInfoD;
  int32_t CLayoutInfoB, CLayoutInfoS1, CLayoutInfoN, CLayoutInfoG, CLayoutInfoS2, BatchNum;
};
}  // namespace tiling
}  // namespace AscendC
using AscendC::tiling::TCubeTiling;

#endif
