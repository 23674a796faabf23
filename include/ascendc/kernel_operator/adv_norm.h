// Part of kernel_operator.h, included only from it: the adv library's normalisations LayerNorm
// (the [B, S, H] form with mean and variance out, and the [A, R] form with mean and rstd out),
// LayerNormGrad, LayerNormGradBeta, Normalize and DeepNorm, built from the vector API in the
// order CANN's dav-2201 implementation issues its instructions: float temporaries (half data
// is cast to float first and back at the end), the mean and variance as row sums of x / H and
// (x - mean)^2 / H, rstd = 1 / sqrt(variance + epsilon), y = (x - mean) * rstd * gamma + beta.
// The passes and the temporaries' places in the shared tmp buffer are the tiling's (the host's
// Get*TilingInfo); without a sharedTmpBuffer the stack's (PopStackBuffer) serves.
// As CANN's: LayerNorm [B, S, H] sums the stored H (padding included) scaled by 1 / originalH,
// DeepNorm sums originalH; the [A, R] form zeroes its copy of the padding (CANN zeroes the
// source's); LayerNormGrad takes the ND format only; isOnlyOutput must be false.

namespace AscendC {

// CANN's AscendCUtils::SetOverflow (CTRL[48]: 1 inf/nan results, 0 saturated ones), which this
// family's examples bracket their kernels with: the simulator's vector unit always computes
// IEEE results, so both are accepted and change nothing.
class AscendCUtils {
 public:
  static inline void SetOverflow(uint64_t ctrlValue) { (void)ctrlValue; }
};

// --- the configs and parameters, CANN's members in CANN's order ----------------------------
struct LayerNormConfig {
  bool isNoBeta = false;
  bool isNoGamma = false;
  bool isOnlyOutput = false;
  bool isOutputRstd = true;
};
constexpr LayerNormConfig LNCFG_NORM = {false, false, false, true};
struct LayerNormPara {
  uint32_t aLength;
  uint32_t rLength;
  uint32_t rLengthWithPadding;
};
struct NormalizeConfig {
  ReducePattern reducePattern = ReducePattern::AR;
  int32_t aLength = -1;
  bool isNoBeta = false;
  bool isNoGamma = false;
  bool isOnlyOutput = false;
};
constexpr NormalizeConfig NLCFG_NORM = {ReducePattern::AR, -1, false, false, false};
constexpr NormalizeConfig NLCFG_NOBETA = {ReducePattern::AR, -1, true, false, false};
constexpr NormalizeConfig NLCFG_NOGAMMA = {ReducePattern::AR, -1, false, true, false};
constexpr NormalizeConfig NLCFG_NOOPT = {ReducePattern::AR, -1, true, true, false};
struct NormalizePara {
  uint32_t aLength;
  uint32_t rLength;
  uint32_t rLengthWithPadding;
};
struct LayerNormGradShapeInfo {
  DataFormat dataFormat = DataFormat::ND;
};

namespace sim {
namespace norm {
inline void barrier(Loc loc) {
  PipeBarrier<PIPE_V>(loc);
}
// The vector pipe's results visible to the scalar reads (GetValue) that follow.
inline void vector_to_scalar(Loc loc) {
  TPipe *pipe = GetTPipePtr();
  if (!pipe) return;
  const TEventID id = pipe->FetchEventID(HardEvent::V_S, loc);
  SetFlag<HardEvent::V_S>(id, loc);
  WaitFlag<HardEvent::V_S>(id, loc);
}
// The scalar reads (GetValue) done before the vector pipe writes what they read.
inline void scalar_to_vector(Loc loc) {
  TPipe *pipe = GetTPipePtr();
  if (!pipe) return;
  const TEventID id = pipe->FetchEventID(HardEvent::S_V, loc);
  SetFlag<HardEvent::S_V>(id, loc);
  WaitFlag<HardEvent::S_V>(id, loc);
}
inline LocalTensor<float> floats(const LocalTensor<uint8_t> &buffer) {
  return buffer.template ReinterpretCast<float>();
}
// The shared buffer, or the stack's where the form has none.
inline LocalTensor<uint8_t> stack(Loc loc) {
  LocalTensor<uint8_t> buffer;
  PopStackBuffer<uint8_t, TPosition::LCM>(buffer, loc);
  return buffer;
}
// dst[i] = the sum of the count first elements of src's row i (rows of stride floats), by the
// adv Sum (a RepeatReduceSum a 64-float repeat, then over those sums); scratch holds its
// ceil(count / 64) partial sums.
inline void row_sums(const LocalTensor<float> &dst, const LocalTensor<float> &src,
                     const LocalTensor<float> &scratch, uint32_t rows, uint32_t stride,
                     uint32_t count, Loc loc) {
  SumParams p;
  p.outter = rows, p.inner = stride, p.n = count;
  Sum<float>(dst, src, scratch.template ReinterpretCast<uint8_t>(), p, loc);
  barrier(loc);
}
// Row i of dst (rows of stride floats, count of them written) = value[i], the per-row scalar
// broadcast (CANN's Brcb / Duplicate of each row's statistic).
inline void broadcast_rows(const LocalTensor<float> &dst, const LocalTensor<float> &value,
                           uint32_t rows, uint32_t stride, uint32_t count, Loc loc) {
  vector_to_scalar(loc);
  for (uint32_t i = 0; i < rows; ++i)
    Duplicate(dst[i * stride], value.GetValue(i, loc), count, loc);
  scalar_to_vector(loc);
  barrier(loc);
}
// dst = 1 / src over n floats (Duplicate of ones, then Div, as CANN), ones n floats of scratch.
inline void reciprocal(const LocalTensor<float> &dst, const LocalTensor<float> &src,
                       const LocalTensor<float> &ones, uint32_t n, Loc loc) {
  Duplicate(ones, 1.0f, n, loc);
  barrier(loc);
  Div(dst, ones, src, n, loc);
  barrier(loc);
}
// The statistics of rows of h floats of x (float; sums over the first `count` of each row, each
// scaled by inv first) into mean and var, and (x - mean) * rstd into c. a, b, c: a pass's areas;
// x may be a (it is read before a is written). rstd is left in a's first rows floats.
inline void mean_var_normalise(const LocalTensor<float> &x, const LocalTensor<float> &a,
                               const LocalTensor<float> &b, const LocalTensor<float> &c,
                               const LocalTensor<float> &mean, const LocalTensor<float> &var,
                               uint32_t rows, uint32_t h, uint32_t count, float inv, float epsilon,
                               Loc loc) {
  const uint32_t n = rows * h;
  Muls(c, x, inv, n, loc);
  barrier(loc);
  row_sums(mean, c, b, rows, h, count, loc);
  vector_to_scalar(loc);
  for (uint32_t i = 0; i < rows; ++i) Adds(b[i * h], x[i * h], -mean.GetValue(i, loc), h, loc);
  scalar_to_vector(loc);
  barrier(loc);
  Mul(c, b, b, n, loc);
  barrier(loc);
  Muls(a, c, inv, n, loc);
  barrier(loc);
  row_sums(var, a, c, rows, h, count, loc);
  Adds(a, var, epsilon, rows, loc);
  barrier(loc);
  Sqrt(a, a, rows, loc);
  barrier(loc);
  reciprocal(a, a, c, rows, loc);
  vector_to_scalar(loc);
  for (uint32_t i = 0; i < rows; ++i) Muls(c[i * h], b[i * h], a.GetValue(i, loc), h, loc);
  scalar_to_vector(loc);
  barrier(loc);
}
// out = y * gamma + beta, row by row (rows of h); half data through float copies of gamma and
// beta in a and c's first row, the sum in a and cast back.
inline void scale_shift(const LocalTensor<float> &out, const LocalTensor<float> &y,
                        const LocalTensor<float> &gamma, const LocalTensor<float> &beta,
                        const LocalTensor<float> &a, const LocalTensor<float> &,
                        const LocalTensor<float> &, uint32_t rows, uint32_t h, Loc loc) {
  for (uint32_t i = 0; i < rows; ++i) Mul(a[i * h], y[i * h], gamma, h, loc);
  barrier(loc);
  for (uint32_t i = 0; i < rows; ++i) Add(out[i * h], a[i * h], beta, h, loc);
  barrier(loc);
}
inline void scale_shift(const LocalTensor<half> &out, const LocalTensor<float> &y,
                        const LocalTensor<half> &gamma, const LocalTensor<half> &beta,
                        const LocalTensor<float> &a, const LocalTensor<float> &b,
                        const LocalTensor<float> &c, uint32_t rows, uint32_t h, Loc loc) {
  Cast(a, gamma, RoundMode::CAST_NONE, h, loc);
  barrier(loc);
  for (uint32_t i = 0; i < rows; ++i) Mul(b[i * h], y[i * h], a, h, loc);
  barrier(loc);
  Cast(c, beta, RoundMode::CAST_NONE, h, loc);
  barrier(loc);
  for (uint32_t i = 0; i < rows; ++i) Add(a[i * h], b[i * h], c, h, loc);
  barrier(loc);
  Cast(out, a, RoundMode::CAST_NONE, rows * h, loc);
  barrier(loc);
}
// Does the buffer hold `floats` floats? (a checked-mode error naming the API if not)
inline bool holds(const char *api, const LocalTensor<float> &buffer, uint64_t floats, Loc loc) {
  if (buffer.GetSize() >= floats) return true;
  fail_atf(loc,
           "%s: the sharedTmpBuffer holds %u bytes, the tiling uses %llu (pass the buffer the "
           "tiling was computed for)",
           api, buffer.GetSize() * 4u, static_cast<unsigned long long>(floats) * 4u);
  return false;
}

// LayerNorm's and DeepNorm's passes over the tiling (DeepNorm first makes alpha * x + gx).
template <typename T, bool isReuseSource, bool deep>
inline void layernorm_bsh(const char *api, const LocalTensor<T> &output,
                          const LocalTensor<T> &outputMean, const LocalTensor<T> &outputVariance,
                          const LocalTensor<T> &inputX, const LocalTensor<T> &gx,
                          const LocalTensor<T> &gamma, const LocalTensor<T> &beta,
                          const LocalTensor<uint8_t> &sharedTmpBuffer, float alpha, float epsilon,
                          const tiling::LayerNormTiling &t, Loc loc) {
  static_assert(std::is_same_v<T, half> || std::is_same_v<T, float>,
                "LayerNorm / DeepNorm: half or float");
  constexpr bool isFloat = std::is_same_v<T, float>;
  if (t.oneTmpSize == 0 || t.hLength == 0) {
    fail_atf(loc, "%s: the tiling's oneTmpSize is 0 (fill it with the host's tiling function)",
             api);
    return;
  }
  const LocalTensor<float> buffer = floats(sharedTmpBuffer);
  if (!holds(api, buffer, t.tmpBufSize, loc)) return;
  const bool reuse = isReuseSource && isFloat;
  LocalTensor<float> mean, var;
  if constexpr (isFloat) {
    mean = outputMean, var = outputVariance;
  } else {
    mean = buffer[t.meanTmpTensorPos], var = buffer[t.varianceTmpTensorPos];
  }
  const uint32_t count = deep ? t.originalHLength : t.hLength;
  uint32_t offset = 0, statOffset = 0;
  for (uint32_t pass = 0; pass <= t.loopRound; ++pass) {
    const bool tail = pass == t.loopRound;
    if (tail && t.inputTailSize == 0) break;
    const uint32_t n = tail ? t.inputTailSize : t.inputRoundSize;
    const uint32_t rows = tail ? t.meanVarTailSize : t.meanVarRoundSize;
    if (tail) offset = t.inputTailPos, statOffset = t.meanVarTailPos;
    LocalTensor<float> a, b, c, x;
    if constexpr (isFloat) {
      a = reuse ? inputX[offset] : buffer[t.firstTmpStartPos];
      b = buffer[reuse ? t.firstTmpStartPos : t.secondTmpStartPos];
      c = buffer[reuse ? t.secondTmpStartPos : t.thirdTmpStartPos];
    } else {
      a = buffer[t.firstTmpStartPos], b = buffer[t.secondTmpStartPos];
      c = buffer[t.thirdTmpStartPos];
    }
    if constexpr (deep) {  // x1 = alpha * x + gx into a
      if constexpr (isFloat) {
        Muls(b, inputX[offset], alpha, n, loc);
        barrier(loc);
        Add(a, gx[offset], b, n, loc);
      } else {
        Cast(a, inputX[offset], RoundMode::CAST_NONE, n, loc);
        barrier(loc);
        Cast(c, gx[offset], RoundMode::CAST_NONE, n, loc);
        barrier(loc);
        Muls(a, a, alpha, n, loc);
        barrier(loc);
        Add(a, c, a, n, loc);
      }
      barrier(loc);
      x = a;
    } else if constexpr (isFloat) {
      x = inputX[offset];
    } else {
      Cast(a, inputX[offset], RoundMode::CAST_NONE, n, loc);
      barrier(loc);
      x = a;
    }
    mean_var_normalise(x, a, b, c, mean[statOffset], var[statOffset], rows, t.hLength, count,
                       t.lastDimValueBack, epsilon, loc);
    scale_shift(output[offset], c, gamma, beta, a, b, c, rows, t.hLength, loc);
    offset += t.inputRoundSize, statOffset += t.meanVarRoundSize;
  }
  if constexpr (!isFloat) {
    Cast(outputMean, mean, RoundMode::CAST_NONE, t.meanVarSize, loc);
    barrier(loc);
    Cast(outputVariance, var, RoundMode::CAST_NONE, t.meanVarSize, loc);
    barrier(loc);
  }
}
}  // namespace norm
}  // namespace sim

// --- LayerNorm [B, S, H]: output, mean and variance (half or float) -------------------------
template <typename T, bool isReuseSource = false>
inline void LayerNorm(const LocalTensor<T> &output, const LocalTensor<T> &outputMean,
                      const LocalTensor<T> &outputVariance, const LocalTensor<T> &inputX,
                      const LocalTensor<T> &gamma, const LocalTensor<T> &beta,
                      const LocalTensor<uint8_t> &sharedTmpBuffer, const T epsilon,
                      LayerNormTiling &tiling, sim::Loc loc = {}) {
  sim::norm::layernorm_bsh<T, isReuseSource, false>("LayerNorm", output, outputMean, outputVariance,
                                                    inputX, inputX, gamma, beta, sharedTmpBuffer,
                                                    0.0f, static_cast<float>(epsilon), tiling, loc);
}
template <typename T, bool isReuseSource = false>
inline void LayerNorm(const LocalTensor<T> &output, const LocalTensor<T> &outputMean,
                      const LocalTensor<T> &outputVariance, const LocalTensor<T> &inputX,
                      const LocalTensor<T> &gamma, const LocalTensor<T> &beta, const T epsilon,
                      LayerNormTiling &tiling, sim::Loc loc = {}) {
  LayerNorm<T, isReuseSource>(output, outputMean, outputVariance, inputX, gamma, beta,
                              sim::norm::stack(loc), epsilon, tiling, loc);
}

// --- Normalize [A, R]: output and rstd from a given mean and variance -----------------------
// T the data's type, U gamma and beta's: float/float, half/half or half data with float gamma.
template <typename U, typename T, bool isReuseSource = false,
          const NormalizeConfig &config = NLCFG_NORM>
inline void Normalize(const LocalTensor<T> &output, const LocalTensor<float> &outputRstd,
                      const LocalTensor<float> &inputMean, const LocalTensor<float> &inputVariance,
                      const LocalTensor<T> &inputX, const LocalTensor<U> &gamma,
                      const LocalTensor<U> &beta, const LocalTensor<uint8_t> &sharedTmpBuffer,
                      const float epsilon, const NormalizePara &para, sim::Loc loc = {}) {
  static_assert(
      (std::is_same_v<T, float> && std::is_same_v<U, float>) ||
          (std::is_same_v<T, half> && (std::is_same_v<U, half> || std::is_same_v<U, float>)),
      "Normalize: T float with U float, or T half with U half or float");
  static_assert(!config.isOnlyOutput, "Normalize: isOnlyOutput must be false");
  using namespace sim::norm;
  const uint32_t a = para.aLength, r = para.rLength, rwp = para.rLengthWithPadding;
  if (a == 0 || r == 0 || rwp < r || rwp * sizeof(T) % 32) {
    fail_atf(loc,
             "Normalize: NormalizePara {%u, %u, %u} must have rows, 0 < rLength <= "
             "rLengthWithPadding, the latter a whole number of 32-byte blocks",
             a, r, rwp);
    return;
  }
  const LocalTensor<float> buffer = floats(sharedTmpBuffer);
  constexpr bool halfGamma = std::is_same_v<U, half>;
  const uint32_t size = buffer.GetSize();
  uint32_t rows =
      halfGamma ? (size >= 2 * rwp ? (size - 2 * rwp) / (2 * rwp) : 0) : size / (2 * rwp);
  if (rows > a) rows = a;
  if (rows == 0 || size < a) {
    fail_atf(loc,
             "Normalize: the sharedTmpBuffer's %u bytes do not hold one row's temporaries "
             "(GetNormalizeMaxMinTmpSize's minimum)",
             size * 4u);
    return;
  }
  const LocalTensor<float> tmpA = buffer, tmpB = buffer[rows * rwp];
  // rstd = 1 / sqrt(variance + epsilon)
  Adds(outputRstd, inputVariance, epsilon, a, loc);
  barrier(loc);
  Sqrt(outputRstd, outputRstd, a, loc);
  barrier(loc);
  reciprocal(outputRstd, outputRstd, buffer, a, loc);
  LocalTensor<float> gammaF, betaF;
  if constexpr (halfGamma) {
    gammaF = buffer[2 * rows * rwp], betaF = buffer[2 * rows * rwp + rwp];
    if constexpr (!config.isNoGamma) Cast(gammaF, gamma, RoundMode::CAST_NONE, r, loc);
    if constexpr (!config.isNoBeta) Cast(betaF, beta, RoundMode::CAST_NONE, r, loc);
    barrier(loc);
  } else {
    gammaF = gamma, betaF = beta;
  }
  for (uint32_t first = 0; first < a; first += rows) {
    const uint32_t n = a - first < rows ? a - first : rows, index = first * rwp;
    if constexpr (std::is_same_v<T, float>)
      Adds(tmpA, inputX[index], 0.0f, n * rwp, loc);
    else
      Cast(tmpA, inputX[index], RoundMode::CAST_NONE, n * rwp, loc);
    barrier(loc);
    vector_to_scalar(loc);
    for (uint32_t i = 0; i < n; ++i)
      Duplicate(tmpB[i * rwp], inputMean.GetValue(first + i, loc), rwp, loc);
    scalar_to_vector(loc);
    barrier(loc);
    Sub(tmpA, tmpA, tmpB, n * rwp, loc);
    barrier(loc);
    vector_to_scalar(loc);
    for (uint32_t i = 0; i < n; ++i)
      Duplicate(tmpB[i * rwp], outputRstd.GetValue(first + i, loc), rwp, loc);
    scalar_to_vector(loc);
    barrier(loc);
    Mul(tmpA, tmpA, tmpB, n * rwp, loc);
    barrier(loc);
    for (uint32_t i = 0; i < n; ++i) {
      if constexpr (!config.isNoGamma) {
        Mul(tmpA[i * rwp], tmpA[i * rwp], gammaF, r, loc);
        barrier(loc);
      }
      if constexpr (!config.isNoBeta) {
        Add(tmpA[i * rwp], tmpA[i * rwp], betaF, r, loc);
        barrier(loc);
      }
    }
    if constexpr (std::is_same_v<T, float>)
      Adds(output[index], tmpA, 0.0f, n * rwp, loc);
    else
      Cast(output[index], tmpA, RoundMode::CAST_NONE, n * rwp, loc);
    barrier(loc);
  }
}
template <typename U, typename T, bool isReuseSource = false,
          const NormalizeConfig &config = NLCFG_NORM>
inline void Normalize(const LocalTensor<T> &output, const LocalTensor<float> &outputRstd,
                      const LocalTensor<float> &inputMean, const LocalTensor<float> &inputVariance,
                      const LocalTensor<T> &inputX, const LocalTensor<U> &gamma,
                      const LocalTensor<U> &beta, const float epsilon, const NormalizePara &para,
                      sim::Loc loc = {}) {
  Normalize<U, T, isReuseSource, config>(output, outputRstd, inputMean, inputVariance, inputX,
                                         gamma, beta, sim::norm::stack(loc), epsilon, para, loc);
}

// --- LayerNorm [A, R]: output, mean and rstd (LayerNormSeparateTiling): the statistics, then
// Normalize with the config's gamma and beta ------------------------------------------------
template <typename U, typename T, bool isReuseSource = false,
          const LayerNormConfig &config = LNCFG_NORM>
inline void LayerNorm(const LocalTensor<T> &output, const LocalTensor<float> &outputMean,
                      const LocalTensor<float> &outputRstd, const LocalTensor<T> &inputX,
                      const LocalTensor<U> &gamma, const LocalTensor<U> &beta, const float epsilon,
                      const LocalTensor<uint8_t> &sharedTmpBuffer, const LayerNormPara &para,
                      const LayerNormSeparateTiling &tiling, sim::Loc loc = {}) {
  static_assert(!config.isOnlyOutput, "LayerNorm: isOnlyOutput must be false on dav-2201");
  static_assert(std::is_same_v<T, half> || std::is_same_v<T, float>, "LayerNorm: half or float");
  using namespace sim::norm;
  const LayerNormSeparateTiling &t = tiling;
  const uint32_t rwp = para.rLengthWithPadding, r = para.rLength;
  if (t.oneTmpSize == 0 || rwp == 0 || r == 0 || rwp < r || rwp * sizeof(T) % 32) {
    fail_atf(loc,
             "LayerNorm: LayerNormPara {%u, %u, %u} or the tiling (oneTmpSize %u) cannot work: "
             "0 < rLength <= rLengthWithPadding, a whole number of 32-byte blocks",
             para.aLength, r, rwp, t.oneTmpSize);
    return;
  }
  const LocalTensor<float> buffer = floats(sharedTmpBuffer);
  if (!holds("LayerNorm", buffer, t.tmpBufSize, loc)) return;
  const LocalTensor<float> var = buffer[t.varianceTmpTensorPos];
  const LocalTensor<float> a = buffer[t.firstTmpStartPos], b = buffer[t.secondTmpStartPos];
  uint32_t offset = 0, statOffset = 0;
  for (uint32_t pass = 0; pass <= t.loopRound; ++pass) {
    const bool tail = pass == t.loopRound;
    if (tail && t.inputTailSize == 0) break;
    const uint32_t n = tail ? t.inputTailSize : t.inputRoundSize;
    const uint32_t rows = tail ? t.meanVarTailSize : t.meanVarRoundSize;
    if (tail) offset = t.inputTailPos, statOffset = t.meanVarTailPos;
    // a = the rows as floats, the padding zeroed (CANN zeroes the source's)
    auto load = [&]() {
      if constexpr (std::is_same_v<T, float>)
        DataCopy(a, inputX[offset], n, loc);
      else
        Cast(a, inputX[offset], RoundMode::CAST_NONE, n, loc);
      barrier(loc);
      if (r != rwp) {
        Duplicate(b, 0.0f, rwp, loc);
        barrier(loc);
        Adds(b, b, 1.0f, r, loc);
        barrier(loc);
        for (uint32_t i = 0; i < rows; ++i) Mul(a[i * rwp], a[i * rwp], b, rwp, loc);
        barrier(loc);
      }
    };
    load();
    Muls(a, a, t.rValueBack, n, loc);
    barrier(loc);
    row_sums(outputMean[statOffset], a, b, rows, rwp, rwp, loc);
    load();
    vector_to_scalar(loc);
    for (uint32_t i = 0; i < rows; ++i)
      Adds(a[i * rwp], a[i * rwp], -outputMean.GetValue(statOffset + i, loc), r, loc);
    scalar_to_vector(loc);
    barrier(loc);
    Mul(a, a, a, n, loc);
    barrier(loc);
    Muls(a, a, t.rValueBack, n, loc);
    barrier(loc);
    row_sums(var[statOffset], a, b, rows, rwp, rwp, loc);
    offset += t.inputRoundSize, statOffset += t.meanVarRoundSize;
  }
  const NormalizePara np = {para.aLength, r, rwp};
  const LocalTensor<uint8_t> rest = a.template ReinterpretCast<uint8_t>();
  if constexpr (!config.isNoBeta && !config.isNoGamma)
    Normalize<U, T, false, NLCFG_NORM>(output, outputRstd, outputMean, var, inputX, gamma, beta,
                                       rest, epsilon, np, loc);
  else if constexpr (config.isNoBeta && !config.isNoGamma)
    Normalize<U, T, false, NLCFG_NOBETA>(output, outputRstd, outputMean, var, inputX, gamma, beta,
                                         rest, epsilon, np, loc);
  else if constexpr (!config.isNoBeta && config.isNoGamma)
    Normalize<U, T, false, NLCFG_NOGAMMA>(output, outputRstd, outputMean, var, inputX, gamma, beta,
                                          rest, epsilon, np, loc);
  else
    Normalize<U, T, false, NLCFG_NOOPT>(output, outputRstd, outputMean, var, inputX, gamma, beta,
                                        rest, epsilon, np, loc);
}
template <typename U, typename T, bool isReuseSource = false,
          const LayerNormConfig &config = LNCFG_NORM>
inline void LayerNorm(const LocalTensor<T> &output, const LocalTensor<float> &outputMean,
                      const LocalTensor<float> &outputRstd, const LocalTensor<T> &inputX,
                      const LocalTensor<U> &gamma, const LocalTensor<U> &beta, const float epsilon,
                      const LayerNormPara &para, const LayerNormSeparateTiling &tiling,
                      sim::Loc loc = {}) {
  LayerNorm<U, T, isReuseSource, config>(output, outputMean, outputRstd, inputX, gamma, beta,
                                         epsilon, sim::norm::stack(loc), para, tiling, loc);
}

// --- DeepNorm [B, S, H]: LayerNorm of alpha * src + gx (mean and variance out) ---------------
template <typename T, bool isReuseSrc = false, bool isBasicBlock = false>
inline void DeepNorm(const LocalTensor<T> &dstLocal, const LocalTensor<T> &meanLocal,
                     const LocalTensor<T> &rstdLocal, const LocalTensor<T> &srcLocal,
                     const LocalTensor<T> &gxLocal, const LocalTensor<T> &betaLocal,
                     const LocalTensor<T> &gammaLocal, const LocalTensor<uint8_t> &sharedTmpBuffer,
                     const T alpha, const T epsilon, DeepNormTiling &tiling, sim::Loc loc = {}) {
  if (isBasicBlock && (tiling.hLength % 64 || tiling.originalHLength % 64 ||
                       (tiling.bLength * tiling.sLength) % 8)) {
    sim::fail_atf(loc,
                  "DeepNorm: isBasicBlock needs hLength (%u) and originalHLength (%u) in 64s "
                  "and bLength * sLength (%u) in 8s",
                  tiling.hLength, tiling.originalHLength, tiling.bLength * tiling.sLength);
    return;
  }
  tiling::LayerNormTiling t;  // the same members
#define PYASC_DEEPNORM_COPY(type, name) t.name = tiling.name;
  PYASC_LAYERNORM_TILING_FIELDS(PYASC_DEEPNORM_COPY)
#undef PYASC_DEEPNORM_COPY
  sim::norm::layernorm_bsh<T, isReuseSrc, true>(
      "DeepNorm", dstLocal, meanLocal, rstdLocal, srcLocal, gxLocal, gammaLocal, betaLocal,
      sharedTmpBuffer, static_cast<float>(alpha), static_cast<float>(epsilon), t, loc);
}
template <typename T, bool isReuseSrc = false, bool isBasicBlock = false>
inline void DeepNorm(const LocalTensor<T> &dstLocal, const LocalTensor<T> &meanLocal,
                     const LocalTensor<T> &rstdLocal, const LocalTensor<T> &srcLocal,
                     const LocalTensor<T> &gxLocal, const LocalTensor<T> &betaLocal,
                     const LocalTensor<T> &gammaLocal, const T alpha, const T epsilon,
                     DeepNormTiling &tiling, sim::Loc loc = {}) {
  DeepNorm<T, isReuseSrc, isBasicBlock>(dstLocal, meanLocal, rstdLocal, srcLocal, gxLocal,
                                        betaLocal, gammaLocal, sim::norm::stack(loc), alpha,
                                        epsilon, tiling, loc);
}

// --- LayerNormGrad [B, S, H]: pd_x and resForGamma = (x - mean) * rstd ----------------------
namespace sim {
namespace norm {
struct GradAreas {
  LocalTensor<float> x1, x2, x3, pdVar, pdMean, tmp, tmp1, tmp2, bsh;
};
// The pass's float part (CANN's ComputePdVar, ComputePdMean, ComputePdX) after x1 = dy * gamma
// and x2 = x - mean are in place; var the rows' variance (float), pdx and res the outputs.
inline void grad_pass(const GradAreas &g, const LocalTensor<float> &var,
                      const LocalTensor<float> &pdx, const LocalTensor<float> &res, float epsilon,
                      float back, float back2, uint32_t n, uint32_t rows, uint32_t h, Loc loc) {
  const uint32_t skip = (rows + 7) / 8 * 8;  // the row sums' scratch after the rows' values
  // pd_var = sum(-0.5 * x1 * x2 * (var + eps)^-1.5)
  Adds(g.tmp, var, epsilon, rows, loc);
  barrier(loc);
  Mul(g.bsh, g.tmp, g.tmp, rows, loc);
  barrier(loc);
  Mul(g.tmp, g.bsh, g.tmp, rows, loc);
  barrier(loc);
  Sqrt(g.tmp, g.tmp, rows, loc);
  barrier(loc);
  reciprocal(g.tmp, g.tmp, g.bsh, rows, loc);
  broadcast_rows(g.bsh, g.tmp, rows, h, h, loc);
  Mul(g.bsh, g.x2, g.bsh, n, loc);
  barrier(loc);
  Mul(g.bsh, g.x1, g.bsh, n, loc);
  barrier(loc);
  Muls(g.bsh, g.bsh, -0.5f, n, loc);
  barrier(loc);
  row_sums(g.pdVar, g.bsh, g.pdVar[skip], rows, h, h, loc);
  // rstd = (var + eps)^-0.5; res = x2 * rstd; x3 = x1 * rstd
  Adds(g.tmp, var, epsilon, rows, loc);
  barrier(loc);
  Sqrt(g.tmp, g.tmp, rows, loc);
  barrier(loc);
  reciprocal(g.tmp, g.tmp, g.bsh, rows, loc);
  broadcast_rows(g.bsh, g.tmp, rows, h, h, loc);
  Mul(res, g.x2, g.bsh, n, loc);
  barrier(loc);
  Mul(g.x3, g.x1, g.bsh, n, loc);
  barrier(loc);
  // pd_mean = sum(-x3) + pd_var / H * sum(-2 * x2)
  Muls(g.bsh, g.x3, -1.0f, n, loc);
  barrier(loc);
  row_sums(g.pdMean, g.bsh, g.pdMean[skip], rows, h, h, loc);
  Muls(g.bsh, g.x2, -2.0f, n, loc);
  barrier(loc);
  row_sums(g.tmp, g.bsh, g.tmp[skip], rows, h, h, loc);
  Muls(g.tmp, g.tmp, back, rows, loc);
  barrier(loc);
  Mul(g.tmp, g.pdVar, g.tmp, rows, loc);
  barrier(loc);
  Add(g.pdMean, g.pdMean, g.tmp, rows, loc);
  barrier(loc);
  // pd_x = x3 + pd_var * 2 / H * x2 + pd_mean / H
  Muls(g.pdVar, g.pdVar, back2, rows, loc);
  barrier(loc);
  broadcast_rows(g.bsh, g.pdVar, rows, h, h, loc);
  Mul(g.x1, g.bsh, g.x2, n, loc);
  barrier(loc);
  Muls(g.pdMean, g.pdMean, back, rows, loc);
  barrier(loc);
  broadcast_rows(g.bsh, g.pdMean, rows, h, h, loc);
  Add(g.x1, g.x1, g.bsh, n, loc);
  barrier(loc);
  Add(pdx, g.x1, g.x3, n, loc);
  barrier(loc);
}
}  // namespace norm
}  // namespace sim

template <typename T, bool isReuseSource = false>
inline void LayerNormGrad(const LocalTensor<T> &outputPdX, const LocalTensor<T> &resForGamma,
                          const LocalTensor<T> &inputDy, const LocalTensor<T> &inputX,
                          const LocalTensor<T> &inputVariance, const LocalTensor<T> &inputMean,
                          const LocalTensor<T> &inputGamma, LocalTensor<uint8_t> &sharedTmpBuffer,
                          T epsilon, LayerNormGradTiling &tiling,
                          const LayerNormGradShapeInfo &shapeInfo = {}, sim::Loc loc = {}) {
  static_assert(std::is_same_v<T, half> || std::is_same_v<T, float>,
                "LayerNormGrad: half or float");
  using namespace sim::norm;
  const LayerNormGradTiling &t = tiling;
  if (shapeInfo.dataFormat != DataFormat::ND) {
    fail_atf(loc, "LayerNormGrad: only the ND format is simulated");
    return;
  }
  if (t.oneCalSize == 0 || t.hLength == 0 || t.nohCalSize == 0) {
    fail_atf(loc,
             "LayerNormGrad: the tiling's oneCalSize is 0 (fill it with "
             "GetLayerNormGradNDTilingInfo)");
    return;
  }
  const LocalTensor<float> buffer = floats(sharedTmpBuffer);
  constexpr bool isFloat = std::is_same_v<T, float>;
  const uint32_t areas = isFloat ? (isReuseSource ? 4 : 6) : 9;
  if (!holds("LayerNormGrad", buffer, static_cast<uint64_t>(areas) * t.oneCalSize, loc)) return;
  float back = 0, back2 = 0;
  std::memcpy(&back, &t.lastDimValueBack, sizeof back);
  std::memcpy(&back2, &t.lastDimValueBackMulTwo, sizeof back2);
  const uint32_t h = t.hLength, total = t.bLength * t.sLength * h;
  uint32_t offset = 0, statOffset = 0;
  for (uint32_t pass = 0; pass <= t.loopNum; ++pass) {
    const bool tail = pass == t.loopNum;
    if (tail && t.tailSize == 0) break;
    const uint32_t n = tail ? t.tailSize : t.oneCalSize;
    const uint32_t rows = tail ? t.nohTailSize : t.nohCalSize;
    if (!tail && offset + n > total) break;
    GradAreas g;
    g.x1 = buffer[t.x1TensorPos], g.x2 = buffer[t.x2TensorPos], g.x3 = buffer[t.x3TensorPos];
    g.pdVar = buffer[t.pdVarTensorPos], g.pdMean = buffer[t.pdMeanTensorPos];
    g.bsh = buffer[t.tmpTensorBSHPos];
    if constexpr (isFloat) {
      g.tmp = outputPdX[offset];
      if (isReuseSource) g.x1 = inputDy[offset], g.x2 = inputX[offset];
      for (uint32_t i = 0; i < rows; ++i)
        Mul(g.x1[i * h], inputDy[offset + i * h], inputGamma, h, loc);
      barrier(loc);
      broadcast_rows(g.bsh, inputMean[statOffset], rows, h, h, loc);
      Sub(g.x2, inputX[offset], g.bsh, n, loc);
      barrier(loc);
      grad_pass(g, inputVariance[statOffset], outputPdX[offset], resForGamma[offset], epsilon, back,
                back2, n, rows, h, loc);
    } else {
      g.tmp = buffer[t.tmpTensorPos], g.tmp1 = buffer[t.tmpTensor1Pos];
      g.tmp2 = buffer[t.tmpTensor2Pos];
      Cast(g.tmp1, inputDy[offset], RoundMode::CAST_NONE, n, loc);
      Cast(g.tmp2, inputGamma, RoundMode::CAST_NONE, h, loc);
      barrier(loc);
      for (uint32_t i = 0; i < rows; ++i) Mul(g.x1[i * h], g.tmp1[i * h], g.tmp2, h, loc);
      barrier(loc);
      Cast(g.tmp1, inputX[offset], RoundMode::CAST_NONE, n, loc);
      Cast(g.tmp2, inputMean[statOffset], RoundMode::CAST_NONE, rows, loc);
      barrier(loc);
      broadcast_rows(g.bsh, g.tmp2, rows, h, h, loc);
      Sub(g.x2, g.tmp1, g.bsh, n, loc);
      barrier(loc);
      Cast(g.tmp1, inputVariance[statOffset], RoundMode::CAST_NONE, rows, loc);
      barrier(loc);
      grad_pass(g, g.tmp1, g.tmp, g.tmp2, static_cast<float>(epsilon), back, back2, n, rows, h,
                loc);
      Cast(outputPdX[offset], g.tmp, RoundMode::CAST_NONE, n, loc);
      Cast(resForGamma[offset], g.tmp2, RoundMode::CAST_NONE, n, loc);
      barrier(loc);
    }
    offset += n, statOffset += rows;
  }
}
template <typename T, bool isReuseSource = false>
inline void LayerNormGrad(const LocalTensor<T> &outputPdX, const LocalTensor<T> &resForGamma,
                          const LocalTensor<T> &inputDy, const LocalTensor<T> &inputX,
                          const LocalTensor<T> &inputVariance, const LocalTensor<T> &inputMean,
                          const LocalTensor<T> &inputGamma, T epsilon, LayerNormGradTiling &tiling,
                          const LayerNormGradShapeInfo &shapeInfo = {}, sim::Loc loc = {}) {
  LocalTensor<uint8_t> buffer = sim::norm::stack(loc);
  LayerNormGrad<T, isReuseSource>(outputPdX, resForGamma, inputDy, inputX, inputVariance, inputMean,
                                  inputGamma, buffer, epsilon, tiling, shapeInfo, loc);
}

// --- LayerNormGradBeta: pd_gamma = sum over rows of dy * resForGamma, pd_beta of dy --------
template <typename T, bool isReuseSource = false>
inline void LayerNormGradBeta(const LocalTensor<T> &outputPdGamma,
                              const LocalTensor<T> &outputPdBeta, const LocalTensor<T> &resForGamma,
                              const LocalTensor<T> &inputDy,
                              const LocalTensor<uint8_t> &sharedTmpBuffer,
                              const LayerNormGradBetaTiling &tiling, sim::Loc loc = {}) {
  static_assert(std::is_same_v<T, half> || std::is_same_v<T, float>,
                "LayerNormGradBeta: half or float");
  using namespace sim::norm;
  const LayerNormGradBetaTiling &t = tiling;
  if (t.oneCalSize == 0 || t.hLength == 0) {
    fail_atf(loc,
             "LayerNormGradBeta: the tiling's oneCalSize is 0 (fill it with "
             "GetLayerNormGradBetaNDTilingInfo)");
    return;
  }
  const LocalTensor<float> buffer = floats(sharedTmpBuffer);
  if (!holds("LayerNormGradBeta", buffer, t.stackBufferSize, loc)) return;
  constexpr bool isFloat = std::is_same_v<T, float>;
  const uint32_t h = t.hLength, count = t.originalHLength;
  LocalTensor<float> gammaSum, betaSum;
  if constexpr (isFloat) {
    gammaSum = outputPdGamma, betaSum = outputPdBeta;
  } else {
    gammaSum = buffer[t.gammaTempTensorPos], betaSum = buffer[t.betaTempTensorPos];
  }
  for (uint32_t pass = 0; pass <= t.loopRound; ++pass) {
    const bool tail = pass == t.loopRound;
    if (tail && t.inputTailSize == 0) break;
    const uint32_t offset = tail ? t.inputTailPos : pass * t.oneCalSize;
    const uint32_t n = tail ? t.inputTailSize : t.bshCurLength;
    const uint32_t rows = tail ? t.bsTailSize : t.bsCurLength;
    LocalTensor<float> dy, res, prod;
    if constexpr (isFloat) {
      dy = inputDy[offset], res = resForGamma[offset];
      prod = isReuseSource ? resForGamma[offset] : buffer[t.resForGammaTmpTensorPos];
    } else {
      dy = buffer[t.inputDyTmpTensorPos], res = buffer[t.resForGammaTmpTensorPos], prod = res;
      Cast(dy, inputDy[offset], RoundMode::CAST_NONE, n, loc);
      barrier(loc);
      Cast(res, resForGamma[offset], RoundMode::CAST_NONE, n, loc);
      barrier(loc);
    }
    Mul(prod, dy, res, n, loc);
    barrier(loc);
    // the rows added one after another into the sums (the first pass starts them)
    for (uint32_t i = 0; i < rows; ++i) {
      if (pass == 0 && i == 0)
        Adds(gammaSum, prod, 0.0f, count, loc);
      else
        Add(gammaSum, prod[i * h], gammaSum, count, loc);
      barrier(loc);
    }
    for (uint32_t i = 0; i < rows; ++i) {
      if (pass == 0 && i == 0)
        Adds(betaSum, dy, 0.0f, count, loc);
      else
        Add(betaSum, dy[i * h], betaSum, count, loc);
      barrier(loc);
    }
    if constexpr (!isFloat) {
      Cast(outputPdGamma, gammaSum, RoundMode::CAST_NONE, count, loc);
      barrier(loc);
      Cast(outputPdBeta, betaSum, RoundMode::CAST_NONE, count, loc);
      barrier(loc);
    }
  }
}
template <typename T, bool isReuseSource = false>
inline void LayerNormGradBeta(const LocalTensor<T> &outputPdGamma,
                              const LocalTensor<T> &outputPdBeta, const LocalTensor<T> &resForGamma,
                              const LocalTensor<T> &inputDy, LayerNormGradBetaTiling &tiling,
                              sim::Loc loc = {}) {
  LayerNormGradBeta<T, isReuseSource>(outputPdGamma, outputPdBeta, resForGamma, inputDy,
                                      sim::norm::stack(loc), tiling, loc);
}

}  // namespace AscendC
