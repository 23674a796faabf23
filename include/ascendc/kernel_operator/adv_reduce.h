// Part of kernel_operator.h, included only from it: the adv library's reductions built from the
// vector API, as CANN's implementation builds them, so that the simulator adds in the NPU's
// order: Sum over the last axis; and CumSum, Broadcast and the two-axis ReduceMax/ReduceMin, the
// runtime's.

namespace AscendC {

// The reduce APIs' patterns: A a kept axis, R a reduced one (two-axis ones here).
namespace Pattern {
namespace Reduce {
struct AR {
  static constexpr bool isRA = false;
};
struct RA {
  static constexpr bool isRA = true;
};
}  // namespace Reduce
}  // namespace Pattern

namespace sim {
template <typename T, class pattern>
inline void reduce2(const LocalTensor<T> &dst, const LocalTensor<T> &src, pyasc_sim_lt tmp,
                    bool has_tmp, const uint32_t srcShape[], bool srcInnerPad, bool most, Loc loc) {
  static_assert(std::is_same_v<T, half> || std::is_same_v<T, float>,
                "ReduceMax/ReduceMin: half or float on dav-2201");
  const int64_t last = srcShape[1], per_block = 32 / sizeof(T);
  const int64_t stride = srcInnerPad ? (last + per_block - 1) / per_block * per_block : last;
  const int64_t v[7] = {dtype<T>::code, most,   srcShape[0],           last,
                        pattern::isRA,  stride, has_tmp ? tmp.len : -1};
  adv_more(PYASC_SIM_ADV_REDUCE2, v, {dst.lt, src.lt, tmp}, loc);
}
}  // namespace sim

// The adv ReduceMax/ReduceMin of a two-axis srcShape along its R axis; with srcInnerPad the rows
// start 32 bytes apart (the last axis padded), as CANN requires on dav-2201.
#define PYASC_REDUCE2(Name, most)                                                             \
  template <class T, class pattern, bool isReuseSource = false>                               \
  inline void Name(const LocalTensor<T> &dstTensor, const LocalTensor<T> &srcTensor,          \
                   const LocalTensor<uint8_t> &sharedTmpBuffer, const uint32_t srcShape[],    \
                   bool srcInnerPad, sim::Loc loc = {}) {                                     \
    sim::reduce2<T, pattern>(dstTensor, srcTensor, sharedTmpBuffer.lt, true, srcShape,        \
                             srcInnerPad, most, loc);                                         \
  }                                                                                           \
  template <class T, class pattern, bool isReuseSource = false>                               \
  inline void Name(const LocalTensor<T> &dstTensor, const LocalTensor<T> &srcTensor,          \
                   const uint32_t srcShape[], bool srcInnerPad, sim::Loc loc = {}) {          \
    sim::reduce2<T, pattern>(dstTensor, srcTensor, sim::no_tmp, false, srcShape, srcInnerPad, \
                             most, loc);                                                      \
  }
PYASC_REDUCE2(ReduceMax, true)
PYASC_REDUCE2(ReduceMin, false)
#undef PYASC_REDUCE2

struct SumParams {
  uint32_t outter = 1;  // rows
  uint32_t inner;       // a row's length in the tensor, n rounded up to 32 bytes
  uint32_t n;           // the elements of a row summed
};

// dst[row] = the sum of src's row (n elements of each inner-long row), half or float: in
// counter mode, one RepeatReduceSum per 256-byte repeat into the shared buffer, then again over
// those sums until one is left. The buffer holds GetSumMaxMinTmpSize's bytes.
template <typename T, int32_t reduceDim = -1, bool isReuseSource = false, bool isBasicBlock = false>
inline void Sum(const LocalTensor<T> &dstTensor, const LocalTensor<T> &srcTensor,
                const LocalTensor<uint8_t> &sharedTmpBuffer, const SumParams &sumParams,
                sim::Loc loc = {}) {
  static_assert(std::is_same_v<T, half> || std::is_same_v<T, float>, "Sum: half or float");
  constexpr uint32_t perRepeat = 256 / sizeof(T);
  SetMaskCount();
  LocalTensor<T> tmp = sharedTmpBuffer.template ReinterpretCast<T>();
  for (uint32_t row = 0; row < sumParams.outter; ++row) {
    uint32_t count = sumParams.n;
    LocalTensor<T> from = srcTensor[row * sumParams.inner];
    while (true) {
      SetVectorMask<T>(0, count, loc);
      const bool last = count <= perRepeat;
      RepeatReduceSum<T, false>(last ? dstTensor[row] : tmp, from, 1, MASK_PLACEHOLDER, 1, 1, 1, 8,
                                loc);
      PipeBarrier<PIPE_V>();
      if (last) break;
      count = (count + perRepeat - 1) / perRepeat;
      from = tmp;
    }
  }
  SetMaskNorm();
  ResetMask();
}
// Without a buffer: the stack's (PopStackBuffer).
template <typename T, int32_t reduceDim = -1, bool isReuseSource = false, bool isBasicBlock = false>
inline void Sum(const LocalTensor<T> &dstTensor, const LocalTensor<T> &srcTensor,
                const SumParams &sumParams, sim::Loc loc = {}) {
  LocalTensor<uint8_t> sharedTmpBuffer;
  PopStackBuffer<uint8_t, TPosition::LCM>(sharedTmpBuffer, loc);
  Sum<T, reduceDim, isReuseSource, isBasicBlock>(dstTensor, srcTensor, sharedTmpBuffer, sumParams,
                                                 loc);
}

// --- CumSum: running sums along the last axis or down the first (in float) ----------------
enum class CumSumAlgorithm { CUMSUM_ALGORITHM_LINEBYLINE = 0, CUMSUM_ALGORITHM_SKLANSKY = 1 };
struct CumSumConfig {
  bool isLastAxis{true};
  bool isReuseSource{false};
  bool outputLastRow{false};
  CumSumAlgorithm algorithm{CumSumAlgorithm::CUMSUM_ALGORITHM_LINEBYLINE};
};
constexpr CumSumConfig defaultCumSumConfig = {true, false, false,
                                              CumSumAlgorithm::CUMSUM_ALGORITHM_LINEBYLINE};
struct CumSumInfo {
  uint32_t outter{0};
  uint32_t inner{0};  // 32-byte aligned
};
// The shared buffer holds the NPU's transposes and casts; the simulator adds in place.
template <typename T, const CumSumConfig &config = defaultCumSumConfig>
inline void CumSum(LocalTensor<T> &dstTensor, LocalTensor<T> &lastRowTensor,
                   const LocalTensor<T> &srcTensor, LocalTensor<uint8_t> &sharedTmpBuffer,
                   const CumSumInfo &cumSumInfo, sim::Loc loc = {}) {
  (void)sharedTmpBuffer;
  const int64_t v[5] = {sim::dtype<T>::code, cumSumInfo.outter, cumSumInfo.inner, config.isLastAxis,
                        config.outputLastRow};
  sim::adv_more(PYASC_SIM_ADV_CUMSUM, v, {dstTensor.lt, lastRowTensor.lt, srcTensor.lt}, loc);
}
template <typename T, const CumSumConfig &config = defaultCumSumConfig>
inline void CumSum(LocalTensor<T> &dstTensor, LocalTensor<T> &lastRowTensor,
                   const LocalTensor<T> &srcTensor, const CumSumInfo &cumSumInfo,
                   sim::Loc loc = {}) {
  LocalTensor<uint8_t> none;
  CumSum<T, config>(dstTensor, lastRowTensor, srcTensor, none, cumSumInfo, loc);
}

// --- Broadcast (dim 1 or 2): dst of dstShape from src of srcShape, 1 along axis -------------
template <typename T, int32_t dim, int32_t axis, bool isReuseSource = false>
inline void Broadcast(const LocalTensor<T> &dstLocal, const LocalTensor<T> &srcLocal,
                      const uint32_t dstShape[dim], const uint32_t srcShape[dim],
                      sim::Loc loc = {}) {
  static_assert(dim == 1 || dim == 2, "Broadcast: dim 1 or 2");
  static_assert(axis == 0 || axis == 1, "Broadcast: axis 0 or 1");
  const int64_t rows = dim == 1 ? 1 : dstShape[0], cols = dstShape[dim - 1];
  const int64_t sr = dim == 1 ? 1 : srcShape[0], sc = srcShape[dim - 1];
  // one dimension: its one element along its only axis (a 1 x n tile from a 1 x 1 source)
  const int64_t v[6] = {sizeof(T), rows, cols, sr, sc, dim == 1 ? 1 : axis};
  sim::adv_more(PYASC_SIM_ADV_BROADCAST, v, {dstLocal.lt, srcLocal.lt}, loc);
}
template <typename T, int32_t dim, int32_t axis, bool isReuseSource = false>
inline void Broadcast(const LocalTensor<T> &dstLocal, const LocalTensor<T> &srcLocal,
                      const uint32_t dstShape[dim], const uint32_t srcShape[dim],
                      LocalTensor<uint8_t> &sharedTmpBuffer, sim::Loc loc = {}) {
  (void)sharedTmpBuffer;  // the NPU's scratch; the simulator copies in place
  Broadcast<T, dim, axis, isReuseSource>(dstLocal, srcLocal, dstShape, srcShape, loc);
}
// BroadCast: the name CANN's implementation gives Broadcast, which its examples call too.
template <typename T, int32_t dim, int32_t axis, bool isReuseSource = false>
inline void BroadCast(const LocalTensor<T> &dstLocal, const LocalTensor<T> &srcLocal,
                      const uint32_t dstShape[dim], const uint32_t srcShape[dim],
                      sim::Loc loc = {}) {
  Broadcast<T, dim, axis, isReuseSource>(dstLocal, srcLocal, dstShape, srcShape, loc);
}
template <typename T, int32_t dim, int32_t axis, bool isReuseSource = false>
inline void BroadCast(const LocalTensor<T> &dstLocal, const LocalTensor<T> &srcLocal,
                      const uint32_t dstShape[dim], const uint32_t srcShape[dim],
                      LocalTensor<uint8_t> &sharedTmpBuffer, sim::Loc loc = {}) {
  Broadcast<T, dim, axis, isReuseSource>(dstLocal, srcLocal, dstShape, srcShape, sharedTmpBuffer,
                                         loc);
}

}  // namespace AscendC
