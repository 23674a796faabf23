// Part of kernel_operator.h, included only from it: the adv library's SoftmaxFlashV3, built from
// the vector API in the order CANN's dav-2201 implementation computes it, a row at a time (the
// NPU does splitM rows an instruction; every step but the row sums is elementwise, so the values
// are the same).

namespace AscendC {

// SoftmaxFlashV3's shape and its mean-shift parameters: the rows and row length srcM x srcK
// (0: the source's shape info), the rows and elements reduced oriSrcM x oriSrcK, the block's
// number among those of the row (loopCnt, from 1), the pieces a row's mean is taken in
// (splitMeanCnt; 8 on dav-2201) and alpha, whose alpha / (1 - alpha) scales the shifts.
struct SoftMaxParams {
  uint32_t srcM{0};
  uint32_t srcK{0};
  uint32_t oriSrcM{0};
  uint32_t oriSrcK{0};
  uint32_t loopCnt{1};
  uint32_t splitMeanCnt{8};
  float alpha{0.9375};
};

namespace sim {
// A row's scratch in the shared buffer: the row in float and its shifts (stride floats each),
// the 64 lanes of its block sums and five 8-float statistics.
struct FlashV3Row {
  LocalTensor<float> x, shifts, lanes, pieceMean, rowMean, shift, prevShift, expMax;
};

// x[0, k) of a row into the row's 8 piece means (pieceMean) and their mean (rowMean, 8 copies):
// the 64 block sums of the first 512 floats, the later repeats added onto them lane by lane,
// then each 8 lanes summed and scaled by 1 / (k / 8), and those 8 summed and scaled by 1 / 8.
inline void flash3_means(const FlashV3Row &r, uint32_t k, Loc loc) {
  constexpr uint32_t lanes = 64, first = 512;
  BlockReduceSum(r.lanes, r.x, 8, static_cast<int32_t>(lanes), 1, 1, 8, loc);
  PipeBarrier<PIPE_V>();
  const uint32_t whole = k / lanes, tail = k % lanes;
  if (whole > first / lanes)
    Add(r.lanes, r.x[first], r.lanes, lanes, static_cast<uint8_t>(whole - first / lanes),
        {1, 1, 1, 0, 8, 0}, loc);
  PipeBarrier<PIPE_V>();
  if (tail > 0) Add(r.lanes, r.x[k - tail], r.lanes, tail, 1, {1, 1, 1, 0, 8, 0}, loc);
  PipeBarrier<PIPE_V>();
  BlockReduceSum(r.pieceMean, r.lanes, 1, static_cast<int32_t>(lanes), 1, 1, 8, loc);
  PipeBarrier<PIPE_V>();
  Muls(r.pieceMean, r.pieceMean, 1.0f / static_cast<float>(k / 8), 8, loc);
  PipeBarrier<PIPE_V>();
  BlockReduceSum(r.rowMean, r.pieceMean, 1, 8, 1, 1, 8, loc);
  PipeBarrier<PIPE_V>();
  Duplicate(r.rowMean, r.rowMean.GetValue(0), 8, loc);
  PipeBarrier<PIPE_V>();
  Muls(r.rowMean, r.rowMean, 1.0f / 8, 8, loc);
  PipeBarrier<PIPE_V>();
}

// x[0, k) -= v[0] (a row statistic's first copy), through the shifts row.
inline void flash3_sub_row(const FlashV3Row &r, const LocalTensor<float> &v, uint32_t k, Loc loc) {
  Duplicate(r.shifts, v.GetValue(0), static_cast<int32_t>(k), loc);
  PipeBarrier<PIPE_V>();
  Sub(r.x, r.x, r.shifts, static_cast<int32_t>(k), loc);
  PipeBarrier<PIPE_V>();
}

// 8 copies of x[0, k)'s max or sum into dst (the scalar unit reads the reduction's result).
inline void flash3_row_stat(const FlashV3Row &r, const LocalTensor<float> &dst, uint32_t k,
                            bool max, Loc loc) {
  if (max)
    ReduceMax(r.lanes, r.x, r.shifts, static_cast<int32_t>(k), false, loc);
  else
    ReduceSum(r.lanes, r.x, r.shifts, static_cast<int32_t>(k), loc);
  PipeBarrier<PIPE_V>();
  Duplicate(dst, r.lanes.GetValue(0), 8, loc);
  PipeBarrier<PIPE_V>();
}

// One row: src (half) to dst = exp(x - shifts - max'), the statistics at row*8 of their
// tensors, expMax (16 halves a row) with isUpdate.
template <bool isUpdate>
inline void flash3_row(const FlashV3Row &r, const LocalTensor<half> &dst,
                       const LocalTensor<float> &mean, const LocalTensor<float> &expSum,
                       const LocalTensor<float> &max, const LocalTensor<half> &src,
                       const LocalTensor<half> &expMax, const LocalTensor<float> &inMean,
                       const LocalTensor<float> &inExpSum, const LocalTensor<float> &inMax,
                       const SoftMaxParams &params, uint32_t k, Loc loc) {
  const float scale = params.alpha / (1.0f - params.alpha);
  Cast(r.x, src, RoundMode::CAST_NONE, k, loc);
  PipeBarrier<PIPE_V>();
  flash3_means(r, k, loc);
  // each piece of k / 8 shifted by (rowMean - its mean) * scale
  Sub(r.shift, r.rowMean, r.pieceMean, 8, loc);
  PipeBarrier<PIPE_V>();
  Muls(r.shift, r.shift, scale, 8, loc);
  PipeBarrier<PIPE_V>();
  const uint32_t piece = k / 8;
  for (uint32_t j = 0; j < 8; ++j)
    Duplicate(r.shifts[j * piece], r.shift.GetValue(j), static_cast<int32_t>(piece), loc);
  PipeBarrier<PIPE_V>();
  Sub(r.x, r.x, r.shifts, static_cast<int32_t>(k), loc);
  PipeBarrier<PIPE_V>();
  if constexpr (isUpdate) {
    // mean = (inMean * (loopCnt - 1) + rowMean) / loopCnt
    Muls(mean, inMean, static_cast<float>(params.loopCnt) - 1.0f, 8, loc);
    PipeBarrier<PIPE_V>();
    Add(mean, mean, r.rowMean, 8, loc);
    PipeBarrier<PIPE_V>();
    Muls(mean, mean, 1.0f / static_cast<float>(params.loopCnt), 8, loc);
  } else {
    Adds(mean, r.rowMean, 0.0f, 8, loc);
  }
  PipeBarrier<PIPE_V>();
  flash3_row_stat(r, r.pieceMean, k, true, loc);  // the row's max, in the piece means' place
  // shiftCurr = (rowMean - mean) * scale, max = rowmax + shiftCurr
  Sub(r.shift, r.rowMean, mean, 8, loc);
  PipeBarrier<PIPE_V>();
  Muls(r.shift, r.shift, scale, 8, loc);
  PipeBarrier<PIPE_V>();
  Add(max, r.pieceMean, r.shift, 8, loc);
  PipeBarrier<PIPE_V>();
  if constexpr (isUpdate) {
    // shiftPrev = (inMean - mean) * scale, max = max(max, inMax + shiftPrev)
    Sub(r.prevShift, inMean, mean, 8, loc);
    PipeBarrier<PIPE_V>();
    Muls(r.prevShift, r.prevShift, scale, 8, loc);
    PipeBarrier<PIPE_V>();
    Add(r.pieceMean, inMax, r.prevShift, 8, loc);
    PipeBarrier<PIPE_V>();
    Max(max, max, r.pieceMean, 8, loc);
    PipeBarrier<PIPE_V>();
    // expMax = exp(inMax - max + shiftPrev), sum = expMax * inSum
    Sub(r.expMax, inMax, max, 8, loc);
    PipeBarrier<PIPE_V>();
    Add(r.expMax, r.prevShift, r.expMax, 8, loc);
    PipeBarrier<PIPE_V>();
    Exp(r.expMax, r.expMax, 8, loc);
    PipeBarrier<PIPE_V>();
    Mul(expSum, r.expMax, inExpSum, 8, loc);
    PipeBarrier<PIPE_V>();
  }
  // y = exp(x - (max - shiftCurr))
  Sub(r.shift, max, r.shift, 8, loc);
  PipeBarrier<PIPE_V>();
  flash3_sub_row(r, r.shift, k, loc);
  Exp(r.x, r.x, static_cast<int32_t>(k), loc);
  PipeBarrier<PIPE_V>();
  Cast(dst, r.x, RoundMode::CAST_ROUND, k, loc);
  PipeBarrier<PIPE_V>();
  if constexpr (isUpdate) {
    flash3_row_stat(r, r.rowMean, k, false, loc);
    Add(expSum, expSum, r.rowMean, 8, loc);
    PipeBarrier<PIPE_V>();
    Duplicate(r.lanes, r.expMax.GetValue(0), 16, loc);
    PipeBarrier<PIPE_V>();
    Cast(expMax, r.lanes, RoundMode::CAST_ROUND, 16, loc);
  } else {
    flash3_row_stat(r, expSum, k, false, loc);
  }
  PipeBarrier<PIPE_V>();
}

template <bool isUpdate>
inline void softmax_flash3(const LocalTensor<half> &dst, const LocalTensor<float> &mean,
                           const LocalTensor<float> &expSum, const LocalTensor<float> &max,
                           const LocalTensor<half> &src, const LocalTensor<half> &expMax,
                           const LocalTensor<float> &inMean, const LocalTensor<float> &inExpSum,
                           const LocalTensor<float> &inMax,
                           const LocalTensor<uint8_t> &sharedTmpBuffer, const SoftMaxTiling &tiling,
                           const SoftMaxParams &params, Loc loc) {
  uint32_t k = params.oriSrcK;
  if (params.srcM == 0 || params.srcK == 0) {
    const ShapeInfo shape = src.GetShapeInfo();
    k = shape.shapeDim >= 1 ? shape.originalShape[shape.shapeDim - 1] : 0;
  }
  const uint32_t rows = tiling.rangeM * tiling.splitM + tiling.tailM, stride = tiling.srcK;
  if (params.splitMeanCnt != 8) {
    fail_at("SoftmaxFlashV3: splitMeanCnt must be 8 on dav-2201", loc);
    return;
  }
  if (k < 512 || k > stride || k % 64 != 0) {
    fail_at(
        "SoftmaxFlashV3: the row reduced (oriSrcK) must be a multiple of 64 from 512 "
        "to the tiling's srcK",
        loc);
    return;
  }
  const LocalTensor<float> work = sharedTmpBuffer.ReinterpretCast<float>();
  if (work.GetSize() < 2 * stride + 104) {
    fail_at(
        "SoftmaxFlashV3: the shared tmp buffer holds less than one row "
        "(GetSoftMaxFlashV3MaxMinTmpSize)",
        loc);
    return;
  }
  FlashV3Row r;
  r.x = work, r.shifts = work[stride], r.lanes = work[2 * stride];
  r.pieceMean = work[2 * stride + 64], r.rowMean = work[2 * stride + 72];
  r.shift = work[2 * stride + 80], r.prevShift = work[2 * stride + 88];
  r.expMax = work[2 * stride + 96];
  for (uint32_t row = 0; row < rows; ++row) {
    const uint32_t at = row * 8;
    flash3_row<isUpdate>(r, dst[row * stride], mean[at], expSum[at], max[at], src[row * stride],
                         expMax[row * 16], inMean[at], inExpSum[at], inMax[at], params, k, loc);
  }
  SetMaskNorm();
  ResetMask();
}
}  // namespace sim

// --- SoftmaxFlashV3: FlashAttention's online softmax of half data with a mean shift ------------
// With isUpdate false: mean = the row's mean (in 8 pieces: m_j, and their mean m), x_j -= (m -
// m_j) * alpha / (1 - alpha), max = rowmax(x), y = exp(x - max), sum = rowsum(y). With isUpdate:
// mean = (inMean * (loopCnt - 1) + m) / loopCnt, shiftCurr = (m - mean) * s, shiftPrev =
// (inMean - mean) * s, max = max(rowmax(x) + shiftCurr, inMax + shiftPrev), y = exp(x - (max -
// shiftCurr)), expMax = exp(inMax - max + shiftPrev), sum = expMax * inSum + rowsum(y).
// Statistics are 8 floats a row, expMax 16 halves; the outputs may be the inputs, as CANN's
// example passes them (each step reads what the previous one wrote, as on the NPU).
#define PYASC_FLASH3_FORM(BUFFER_PARAM, BUFFER)                                              \
  template <typename T, typename U, bool isUpdate = false, bool isReuseSource = false,       \
            bool isBasicBlock = false, bool isDataFormatNZ = false,                          \
            const SoftmaxConfig &config = SOFTMAX_DEFAULT_CFG>                               \
  inline void SoftmaxFlashV3(                                                                \
      const LocalTensor<T> &dstTensor, const LocalTensor<U> &meanTensor,                     \
      const LocalTensor<U> &expSumTensor, const LocalTensor<U> &maxTensor,                   \
      const LocalTensor<T> &srcTensor, const LocalTensor<T> &expMaxTensor,                   \
      const LocalTensor<U> &inMeanTensor, const LocalTensor<U> &inExpSumTensor,              \
      const LocalTensor<U> &inMaxTensor BUFFER_PARAM, const SoftMaxTiling &tiling,           \
      const SoftMaxParams &params, sim::Loc loc = {}) {                                      \
    static_assert(std::is_same_v<T, half> && std::is_same_v<U, float>,                       \
                  "SoftmaxFlashV3: half data, float statistics");                            \
    if ASCEND_IS_AIC {                                                                       \
      return;                                                                                \
    }                                                                                        \
    BUFFER;                                                                                  \
    sim::softmax_flash3<isUpdate>(dstTensor, meanTensor, expSumTensor, maxTensor, srcTensor, \
                                  expMaxTensor, inMeanTensor, inExpSumTensor, inMaxTensor,   \
                                  sharedTmpBuffer, tiling, params, loc);                     \
  }
#define PYASC_FLASH3_COMMA ,
PYASC_FLASH3_FORM(PYASC_FLASH3_COMMA const LocalTensor<uint8_t> &sharedTmpBuffer, (void)0)
PYASC_FLASH3_FORM(, LocalTensor<uint8_t> sharedTmpBuffer;
                  PopStackBuffer<uint8_t PYASC_FLASH3_COMMA TPosition::LCM>(sharedTmpBuffer, loc))
#undef PYASC_FLASH3_COMMA
#undef PYASC_FLASH3_FORM

}  // namespace AscendC
