// Part of kernel_operator.h, included only from it: the adv library's Welford APIs
// (WelfordUpdate, WelfordFinalize), built from the vector API in the order CANN's dav-2201
// implementation issues its instructions, so that every step rounds as on the NPU: the online
// mean and variance of LayerNorm over a split reduce axis.

namespace AscendC {

struct WelfordUpdateConfig {
  constexpr WelfordUpdateConfig(const bool isInplaceIn) : isInplace(isInplaceIn) {}
  bool isInplace = false;  // copy the means and variances past abComputeLength to the outputs
};
constexpr WelfordUpdateConfig WFUPDATE_DEFAULT_CFG = {false};

struct WelfordUpdateParam {
  uint32_t rnLength;         // 1 on dav-2201
  uint32_t abLength;         // the row, a whole number of 32-byte blocks of the source
  uint32_t abComputeLength;  // the elements updated
  float nRec;                // 1 / (the samples seen, this one included)
};

// The variance correction is dav-3510's; dav-2201 has no config field and no
// rRecWithCorrection.
struct WelfordFinalizeConfig {
  constexpr WelfordFinalizeConfig(const bool isCorrectionIn) : isCorrection(isCorrectionIn) {}
  bool isCorrection = false;
};
constexpr WelfordFinalizeConfig WFFINALIZE_DEFAULT_CFG = {false};

struct WelfordFinalizePara {
  uint32_t rnLength;         // pieces the reduce axis was split into
  uint32_t abLength;         // a piece, a whole number of 8 floats
  uint32_t headCount;        // without counts: the weight of the first headCountLength entries
  uint32_t headCountLength;  //   (headCountLength + tailCountLength = abLength)
  uint32_t tailCount;        //   and of the rest; tailCount 0 weighs all by abRec and rnLength
  uint32_t tailCountLength;
  float abRec;  // 1 / abLength
  float rRec;   // 1 / the reduce axis
};

namespace sim {

// The NPU's sum of src[0, n) into dst[0] (and into spare[0]): the repeats past the first 64
// floats are added into them one repeat after the other, then one WholeReduceSum; src is
// overwritten (LayerNorm's row sum, one row).
inline void welford_row_sum(const LocalTensor<float> &spare, const LocalTensor<float> &dst,
                            const LocalTensor<float> &src, uint32_t n, Loc loc) {
  constexpr uint32_t lanes = 64;
  const BinaryRepeatParams onto_first = {1, 1, 1, 0, 8, 0};
  SetMaskNorm();
  ResetMask();
  if (n > lanes) {
    const uint32_t whole = n / lanes - 1, tail = n % lanes;
    if (whole > 0) Add(src, src[lanes], src, lanes, static_cast<uint8_t>(whole), onto_first, loc);
    PipeBarrier<PIPE_V>();
    if (tail > 0) Add(src, src[n - tail], src, tail, 1, onto_first, loc);
    PipeBarrier<PIPE_V>();
  }
  const int32_t mask = static_cast<int32_t>(n > lanes ? lanes : n);
  WholeReduceSum(spare, src, mask, 1, 1, 1, 8, loc);
  WholeReduceSum(dst, src, mask, 1, 1, 1, 8, loc);
  PipeBarrier<PIPE_V>();
}

// dst[0, n) = src[0], through the vector unit as BroadcastLastDim.
inline void welford_spread(const LocalTensor<float> &dst, const LocalTensor<float> &src, uint32_t n,
                           Loc loc) {
  Duplicate(dst, src.GetValue(0), static_cast<int32_t>(n), loc);
  PipeBarrier<PIPE_V>();
}
}  // namespace sim

// --- WelfordUpdate: one more sample x into each running mean and variance ----------------------
// mean' = mean + (x - mean) * nRec, var' = var + (x - mean) * (x - mean'), element by element over
// abComputeLength, a piece of whole repeats at a time: the shared buffer holds the piece's float
// copies (3 for half x: x, x - mean, x - mean'; 2 for float; 1 with isReuseSource, which
// overwrites x with x - mean). With config.isInplace the entries from abComputeLength (rounded
// down to a 32-byte block) to abLength are copied from the inputs to the outputs.
template <typename T, typename U, bool isReuseSource = false,
          const WelfordUpdateConfig &config = WFUPDATE_DEFAULT_CFG>
inline void WelfordUpdate(const LocalTensor<U> &outputMean, const LocalTensor<U> &outputVariance,
                          const LocalTensor<U> &inputMean, const LocalTensor<U> &inputVariance,
                          const LocalTensor<T> &inputX, const LocalTensor<uint8_t> &sharedTmpBuffer,
                          const WelfordUpdateParam &para, sim::Loc loc = {}) {
  static_assert(std::is_same_v<T, half> || std::is_same_v<T, float>,
                "WelfordUpdate: inputX is half or float");
  static_assert(std::is_same_v<U, float>, "WelfordUpdate: the means and variances are float");
  if ASCEND_IS_AIC {
    return;
  }
  constexpr uint32_t lanes = 64, copies = sizeof(T) == 2 ? 3 : isReuseSource ? 1 : 2;
  const uint32_t piece = sharedTmpBuffer.GetSize() / (256 * copies) * lanes;
  if (piece == 0) {
    sim::fail_at(sizeof(T) == 2  ? "WelfordUpdate: the shared tmp buffer holds less than "
                                   "768 bytes (3 repeats of float)"
                 : isReuseSource ? "WelfordUpdate: the shared tmp buffer holds less than "
                                   "256 bytes (a repeat of float)"
                                 : "WelfordUpdate: the shared tmp buffer holds less than "
                                   "512 bytes (2 repeats of float)",
                 loc);
    return;
  }
  if (!sim::expect_checked(para.rnLength == 1, loc, "WelfordUpdate: rnLength must be 1") ||
      !sim::expect_checked(para.abComputeLength > 0 && para.abComputeLength <= para.abLength, loc,
                           "WelfordUpdate: abComputeLength must be in (0, abLength]") ||
      !sim::expect_checked(para.abLength % (32 / sizeof(T)) == 0, loc,
                           "WelfordUpdate: abLength must be a whole number of 32-byte blocks") ||
      !sim::expect_checked(para.abLength <= inputX.GetSize(), loc,
                           "WelfordUpdate: abLength is longer than inputX"))
    return;
  if (config.isInplace && para.abComputeLength < para.abLength) {
    const uint32_t kept = AlignUp(para.abLength - para.abComputeLength, 8);
    const uint32_t from = kept < para.abLength ? para.abLength - kept : 0;
    DataCopy(outputMean[from], inputMean[from], para.abLength - from, loc);
    DataCopy(outputVariance[from], inputVariance[from], para.abLength - from, loc);
    PipeBarrier<PIPE_V>();
  }
  const LocalTensor<float> tmp = sharedTmpBuffer.template ReinterpretCast<float>();
  for (uint32_t at = 0; at < para.abComputeLength; at += piece) {
    const uint32_t left = para.abComputeLength - at;
    const int32_t n = static_cast<int32_t>(left < piece ? left : piece);
    const LocalTensor<float> mean = inputMean[at], outMean = outputMean[at];
    if constexpr (isReuseSource && sizeof(T) == 4) {
      // x - mean is computed again into x itself, after the mean: with the outputs in the
      // inputs' place it reads the new mean, as on the NPU
      const LocalTensor<float> x = inputX[at];
      PipeBarrier<PIPE_V>();
      Sub(tmp, x, mean, n, loc);
      PipeBarrier<PIPE_V>();
      Muls(tmp, tmp, para.nRec, n, loc);
      PipeBarrier<PIPE_V>();
      Add(outMean, tmp, mean, n, loc);
      PipeBarrier<PIPE_V>();
      Sub(tmp, x, outMean, n, loc);
      PipeBarrier<PIPE_V>();
      Sub(x, x, mean, n, loc);
      PipeBarrier<PIPE_V>();
      Mul(tmp, tmp, x, n, loc);
      PipeBarrier<PIPE_V>();
      Add(outputVariance[at], tmp, inputVariance[at], n, loc);
    } else {
      // half data is cast to float in the buffer's first copy; float data is read in place
      const uint32_t copy = sizeof(T) == 2 ? piece : 0;
      const LocalTensor<float> d = tmp[copy], e = tmp[copy + piece];
      LocalTensor<float> x;
      if constexpr (sizeof(T) == 2) {
        x = tmp;
        PipeBarrier<PIPE_V>();
        Cast(x, inputX[at], RoundMode::CAST_NONE, n, loc);
      } else {
        x = inputX[at];
      }
      PipeBarrier<PIPE_V>();
      Sub(d, x, mean, n, loc);
      PipeBarrier<PIPE_V>();
      Muls(e, d, para.nRec, n, loc);
      PipeBarrier<PIPE_V>();
      Add(outMean, e, mean, n, loc);
      PipeBarrier<PIPE_V>();
      Sub(e, x, outMean, n, loc);
      PipeBarrier<PIPE_V>();
      Mul(d, d, e, n, loc);
      PipeBarrier<PIPE_V>();
      Add(outputVariance[at], d, inputVariance[at], n, loc);
    }
    PipeBarrier<PIPE_V>();
  }
  SetMaskNorm();
  ResetMask();
}
// Without a buffer: the stack's (PopStackBuffer).
template <typename T, typename U, bool isReuseSource = false,
          const WelfordUpdateConfig &config = WFUPDATE_DEFAULT_CFG>
inline void WelfordUpdate(const LocalTensor<U> &outputMean, const LocalTensor<U> &outputVariance,
                          const LocalTensor<U> &inputMean, const LocalTensor<U> &inputVariance,
                          const LocalTensor<T> &inputX, const WelfordUpdateParam &para,
                          sim::Loc loc = {}) {
  LocalTensor<uint8_t> sharedTmpBuffer;
  PopStackBuffer<uint8_t, TPosition::LCM>(sharedTmpBuffer, loc);
  WelfordUpdate<T, U, isReuseSource, config>(outputMean, outputVariance, inputMean, inputVariance,
                                             inputX, sharedTmpBuffer, para, loc);
}

namespace sim {
// WelfordFinalize's scratch, in its shared buffer: the pieces' partial sums of the mean and of
// the variance (64 floats each), then a piece's two working rows.
struct WelfordScratch {
  LocalTensor<float> meanSums, varSums, work0, work1;
  uint32_t piece;
};

// Mean: the weighted inputs of one piece, summed into sum[0].
inline void welford_piece_mean(const WelfordScratch &s, const LocalTensor<float> &mean,
                               const LocalTensor<int32_t> *counts, const WelfordFinalizePara &para,
                               uint32_t n, uint32_t offset, const LocalTensor<float> &sum,
                               Loc loc) {
  const int32_t c = static_cast<int32_t>(n);
  if (counts) {
    Cast(s.work0, *counts, RoundMode::CAST_NONE, n, loc);
    PipeBarrier<PIPE_V>();
    Mul(s.work0, mean, s.work0, c, loc);
    PipeBarrier<PIPE_V>();
    Muls(s.work0, s.work0, para.rRec, c, loc);
  } else if (para.tailCountLength == 0 || para.tailCount == 0) {
    Muls(s.work0, mean, para.abRec, c, loc);
  } else {
    Muls(s.work1, mean, static_cast<float>(para.tailCount), c, loc);
    PipeBarrier<PIPE_V>();
    Muls(s.work0, s.work1, para.rRec, c, loc);
    const int64_t head = static_cast<int64_t>(para.headCountLength) - offset;
    if (head > 0) {
      PipeBarrier<PIPE_V>();
      Muls(s.work0, s.work0,
           static_cast<float>(para.headCount) / static_cast<float>(para.tailCount),
           static_cast<int32_t>(head < c ? head : c), loc);
    }
  }
  PipeBarrier<PIPE_V>();
  welford_row_sum(s.work1, sum, s.work0, n, loc);
}

// Variance: the weighted squared distances of one piece's means from the mean (in work0[0])
// plus its variances, summed into sum[0].
inline void welford_piece_var(const WelfordScratch &s, const LocalTensor<float> &mean,
                              const LocalTensor<float> &var, const LocalTensor<int32_t> *counts,
                              const WelfordFinalizePara &para, uint32_t n, uint32_t offset,
                              const LocalTensor<float> &sum, Loc loc) {
  const int32_t c = static_cast<int32_t>(n);
  Adds(s.work1, s.work0, 0.0f, 1, loc);
  PipeBarrier<PIPE_V>();
  welford_spread(s.work0, s.work1, n, loc);
  Sub(s.work1, mean, s.work0, c, loc);
  PipeBarrier<PIPE_V>();
  Mul(s.work0, s.work1, s.work1, c, loc);
  PipeBarrier<PIPE_V>();
  if (counts) {
    Cast(s.work1, *counts, RoundMode::CAST_NONE, n, loc);
    PipeBarrier<PIPE_V>();
    Mul(s.work0, s.work0, s.work1, c, loc);
    PipeBarrier<PIPE_V>();
    Add(s.work1, s.work0, var, c, loc);
    PipeBarrier<PIPE_V>();
    Muls(s.work1, s.work1, para.rRec, c, loc);
    PipeBarrier<PIPE_V>();
    welford_row_sum(s.work0, sum, s.work1, n, loc);
    return;
  }
  const bool tail = !(para.tailCountLength == 0 || para.tailCount == 0);
  Muls(s.work1, s.work0, static_cast<float>(tail ? para.tailCount : para.rnLength), c, loc);
  PipeBarrier<PIPE_V>();
  const int64_t head = static_cast<int64_t>(para.headCountLength) - offset;
  if (tail && head > 0) {
    Muls(s.work1, s.work1, static_cast<float>(para.headCount) / static_cast<float>(para.tailCount),
         static_cast<int32_t>(head < c ? head : c), loc);
    PipeBarrier<PIPE_V>();
  }
  Add(s.work0, var, s.work1, c, loc);
  PipeBarrier<PIPE_V>();
  Muls(s.work1, s.work0, para.rRec, c, loc);
  PipeBarrier<PIPE_V>();
  welford_row_sum(s.work0, sum, s.work1, n, loc);
}

// The sums of the pieces: each piece's into sums[k]; when 64 are there, they are summed into
// sums[0] and the next goes to sums[1]; at the end one WholeReduceSum of what is left.
template <typename Piece>
inline void welford_pieces(const WelfordScratch &s, const LocalTensor<float> &sums,
                           uint32_t abLength, Piece piece, Loc loc) {
  uint32_t k = 0;
  for (uint32_t offset = 0; offset < abLength; offset += s.piece) {
    const uint32_t left = abLength - offset;
    piece(offset, left < s.piece ? left : s.piece, sums[k]);
    if (++k == 64) {
      WholeReduceSum(sums, sums, 64, 1, 1, 1, 8, loc);
      PipeBarrier<PIPE_V>();
      k = 1;
    }
  }
  WholeReduceSum(sums, sums, static_cast<int32_t>(k), 1, 1, 1, 8, loc);
  PipeBarrier<PIPE_V>();
}

inline void welford_finalize(const LocalTensor<float> &outputMean,
                             const LocalTensor<float> &outputVariance,
                             const LocalTensor<float> &inputMean,
                             const LocalTensor<float> &inputVariance,
                             const LocalTensor<int32_t> *counts,
                             const LocalTensor<uint8_t> &sharedTmpBuffer,
                             const WelfordFinalizePara &para, Loc loc) {
  const LocalTensor<float> stack = sharedTmpBuffer.ReinterpretCast<float>();
  if (stack.GetSize() < 256) {
    fail_at("WelfordFinalize: the shared tmp buffer holds less than 1024 bytes", loc);
    return;
  }
  if (para.abLength == 0 || para.abLength % 8 != 0) {
    fail_at("WelfordFinalize: abLength must be a positive whole number of 8 floats", loc);
    return;
  }
  if (!expect_checked(para.headCountLength + para.tailCountLength == para.abLength, loc,
                      "WelfordFinalize: headCountLength + tailCountLength must be abLength") ||
      !expect_checked(inputMean.GetSize() >= para.abLength &&
                          inputVariance.GetSize() >= para.abLength &&
                          (!counts || counts->GetSize() >= para.abLength),
                      loc, "WelfordFinalize: an input is shorter than abLength") ||
      !expect_checked(outputMean.GetSize() >= 8 && outputVariance.GetSize() >= 8, loc,
                      "WelfordFinalize: the outputs need 8 floats each"))
    return;
  WelfordScratch s;
  s.piece = (stack.GetSize() - 128) / 128 * 64;
  s.meanSums = stack, s.varSums = stack[64], s.work0 = stack[128], s.work1 = stack[128 + s.piece];
  welford_pieces(
      s, s.meanSums, para.abLength,
      [&](uint32_t offset, uint32_t n, const LocalTensor<float> &sum) {
        LocalTensor<int32_t> cnt = counts ? (*counts)[offset] : LocalTensor<int32_t>();
        welford_piece_mean(s, inputMean[offset], counts ? &cnt : nullptr, para, n, offset, sum,
                           loc);
      },
      loc);
  welford_pieces(
      s, s.varSums, para.abLength,
      [&](uint32_t offset, uint32_t n, const LocalTensor<float> &sum) {
        Adds(s.work0, s.meanSums, 0.0f, 1, loc);
        PipeBarrier<PIPE_V>();
        LocalTensor<int32_t> cnt = counts ? (*counts)[offset] : LocalTensor<int32_t>();
        welford_piece_var(s, inputMean[offset], inputVariance[offset], counts ? &cnt : nullptr,
                          para, n, offset, sum, loc);
      },
      loc);
  Adds(outputMean, s.meanSums, 0.0f, 1, loc);
  Adds(outputVariance, s.varSums, 0.0f, 1, loc);
  PipeBarrier<PIPE_V>();
  uint64_t after_first[2] = {0xfe, 0};
  Duplicate(outputMean, 0.0f, after_first, 1, 1, 8, loc);
  PipeBarrier<PIPE_V>();
  Duplicate(outputVariance, 0.0f, after_first, 1, 1, 8, loc);
  PipeBarrier<PIPE_V>();
  ResetMask();
}
}  // namespace sim

// --- WelfordFinalize: the mean and variance of the whole axis from the pieces' ------------------
// outputMean[0] = sum of w_i mean_i, outputVariance[0] = sum of (w_i (mean_i - mean)^2 + var_i)
// scaled by rRec, where w_i is counts[i] * rRec (with counts), abRec (no tail: tailCount or
// tailCountLength 0; rnLength for the variance) or headCount / tailCount * rRec (the tail's
// tailCount); entries 1 to 7 of each output are set to 0. The pieces are as long as the shared
// buffer allows (GetWelfordFinalizeMaxMinTmpSize), each summed as LayerNorm sums a row.
#define PYASC_WELFORD_FINALIZE(COUNTS_PARAM, COUNTS_ARG)                                           \
  template <bool isReuseSource = false,                                                            \
            const WelfordFinalizeConfig &config = WFFINALIZE_DEFAULT_CFG>                          \
  inline void WelfordFinalize(                                                                     \
      const LocalTensor<float> &outputMean, const LocalTensor<float> &outputVariance,              \
      const LocalTensor<float> &inputMean, const LocalTensor<float> &inputVariance COUNTS_PARAM,   \
      const LocalTensor<uint8_t> &sharedTmpBuffer, WelfordFinalizePara &para, sim::Loc loc = {}) { \
    if ASCEND_IS_AIC {                                                                             \
      return;                                                                                      \
    }                                                                                              \
    sim::welford_finalize(outputMean, outputVariance, inputMean, inputVariance, COUNTS_ARG,        \
                          sharedTmpBuffer, para, loc);                                             \
  }                                                                                                \
  template <bool isReuseSource = false,                                                            \
            const WelfordFinalizeConfig &config = WFFINALIZE_DEFAULT_CFG>                          \
  inline void WelfordFinalize(                                                                     \
      const LocalTensor<float> &outputMean, const LocalTensor<float> &outputVariance,              \
      const LocalTensor<float> &inputMean, const LocalTensor<float> &inputVariance COUNTS_PARAM,   \
      WelfordFinalizePara &para, sim::Loc loc = {}) {                                              \
    if ASCEND_IS_AIC {                                                                             \
      return;                                                                                      \
    }                                                                                              \
    LocalTensor<uint8_t> sharedTmpBuffer;                                                          \
    PopStackBuffer<uint8_t, TPosition::LCM>(sharedTmpBuffer, loc);                                 \
    sim::welford_finalize(outputMean, outputVariance, inputMean, inputVariance, COUNTS_ARG,        \
                          sharedTmpBuffer, para, loc);                                             \
  }
#define PYASC_WELFORD_COMMA ,
PYASC_WELFORD_FINALIZE(, nullptr)
PYASC_WELFORD_FINALIZE(PYASC_WELFORD_COMMA const LocalTensor<int32_t> &counts, &counts)
#undef PYASC_WELFORD_COMMA
#undef PYASC_WELFORD_FINALIZE

}  // namespace AscendC
