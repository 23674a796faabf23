// Part of kernel_operator.h, included only from it: DataCopy and DataCopyPad between global memory
// and the Unified Buffer.

namespace AscendC {

// --- data movement --------------------------------------------------------------------------

struct DataCopyExtParams {
  uint16_t blockCount = 1;
  uint32_t blockLen = 0;
  uint32_t srcStride = 0;
  uint32_t dstStride = 0;
  uint32_t rsv = 0;
  DataCopyExtParams() = default;
  DataCopyExtParams(const uint16_t count, const uint32_t len, const uint32_t srcStrideIn,
                    const uint32_t dstStrideIn, const uint32_t rsvIn)
      : blockCount(count),
        blockLen(len),
        srcStride(srcStrideIn),
        dstStride(dstStrideIn),
        rsv(rsvIn) {}
};
template <typename T>
struct DataCopyPadExtParams {
  bool isPad = false;
  uint8_t leftPadding = 0;
  uint8_t rightPadding = 0;
  T paddingValue = T(0);
  DataCopyPadExtParams() = default;
  DataCopyPadExtParams(const bool isPadValue, const uint8_t leftPadValue,
                       const uint8_t rightPadValue, T padValue)
      : isPad(isPadValue),
        leftPadding(leftPadValue),
        rightPadding(rightPadValue),
        paddingValue(padValue) {}
};

namespace sim {
// DataCopy of count int4b_t elements (an even count): the copy of their bytes.
inline void i4_copy(int dir, pyasc_sim_lt l, pyasc_sim_gt g, pyasc_sim_lt l2, uint32_t count,
                    Loc loc) {
  int64_t bytes = 0;
  i4({PYASC_SIM_I4_GM_OFFSET, count, 2}, {}, &bytes, loc);
  const pyasc_sim_lt b = i4_lt({PYASC_SIM_I4_REINTERPRET, 4, 8}, {l}, loc),
                     b2 = i4_lt({PYASC_SIM_I4_REINTERPRET, 4, 8}, {l2}, loc);
  check(api()->copy(ctx, dir, b, g, b2, bytes, 1, loc.file, loc.line));
}
}  // namespace sim

template <typename T>
inline void DataCopy(const LocalTensor<T> &dst, const GlobalTensor<T> &src, const uint32_t count,
                     sim::Loc loc = {}) {
  if constexpr (sim::is_i4_v<T>)
    return sim::i4_copy(PYASC_SIM_GM_UB, dst.lt, src.gt, dst.lt, count, loc);
  sim::check(sim::api()->copy(sim::ctx, PYASC_SIM_GM_UB, dst.lt, src.gt, dst.lt, count, sizeof(T),
                              loc.file, loc.line));
}
template <typename T>
inline void DataCopy(const GlobalTensor<T> &dst, const LocalTensor<T> &src, const uint32_t count,
                     sim::Loc loc = {}) {
  if constexpr (sim::is_i4_v<T>)
    return sim::i4_copy(PYASC_SIM_UB_GM, src.lt, dst.gt, src.lt, count, loc);
  sim::check(sim::api()->copy(sim::ctx, PYASC_SIM_UB_GM, src.lt, dst.gt, src.lt, count, sizeof(T),
                              loc.file, loc.line));
}
template <typename T>
inline void DataCopy(const LocalTensor<T> &dst, const LocalTensor<T> &src, const uint32_t count,
                     sim::Loc loc = {}) {
  if constexpr (sim::is_i4_v<T>)
    return sim::i4_copy(PYASC_SIM_UB_UB, dst.lt, GlobalTensor<T>().gt, src.lt, count, loc);
  sim::check(sim::api()->copy(sim::ctx, PYASC_SIM_UB_UB, dst.lt, GlobalTensor<T>().gt, src.lt,
                              count, sizeof(T), loc.file, loc.line));
}
// DataCopy with DataCopyParams: blockCount bursts of blockLen 32-byte
// blocks, srcStride/dstStride blocks between them.
struct DataCopyParams {
  uint16_t blockCount = 1;
  uint16_t blockLen = 0;
  uint16_t srcStride = 0;
  uint16_t dstStride = 0;
  DataCopyParams() = default;
  DataCopyParams(const uint16_t count, const uint16_t len, const uint16_t srcStrideIn,
                 const uint16_t dstStrideIn)
      : blockCount(count), blockLen(len), srcStride(srcStrideIn), dstStride(dstStrideIn) {}
};
template <typename T>
inline void DataCopy(const LocalTensor<T> &dst, const GlobalTensor<T> &src,
                     const DataCopyParams &repeatParams, sim::Loc loc = {}) {
  sim::check(sim::api()->copy_params(sim::ctx, PYASC_SIM_GM_UB, dst.lt, pyasc_sim_lt{0, 0}, src.gt,
                                     repeatParams.blockCount, repeatParams.blockLen,
                                     repeatParams.srcStride, repeatParams.dstStride, sizeof(T),
                                     loc.file, loc.line));
}
template <typename T>
inline void DataCopy(const GlobalTensor<T> &dst, const LocalTensor<T> &src,
                     const DataCopyParams &repeatParams, sim::Loc loc = {}) {
  sim::check(sim::api()->copy_params(sim::ctx, PYASC_SIM_UB_GM, pyasc_sim_lt{0, 0}, src.lt, dst.gt,
                                     repeatParams.blockCount, repeatParams.blockLen,
                                     repeatParams.srcStride, repeatParams.dstStride, sizeof(T),
                                     loc.file, loc.line));
}
template <typename T>
inline void DataCopy(const LocalTensor<T> &dst, const LocalTensor<T> &src,
                     const DataCopyParams &repeatParams, sim::Loc loc = {}) {
  sim::check(sim::api()->copy_params(sim::ctx, PYASC_SIM_UB_UB, dst.lt, src.lt,
                                     GlobalTensor<T>().gt, repeatParams.blockCount,
                                     repeatParams.blockLen, repeatParams.srcStride,
                                     repeatParams.dstStride, sizeof(T), loc.file, loc.line));
}

template <typename T>
inline void DataCopyPad(const LocalTensor<T> &dst, const GlobalTensor<T> &src,
                        const DataCopyExtParams &dataCopyParams,
                        const DataCopyPadExtParams<T> &padParams, sim::Loc loc = {}) {
  sim::check(sim::api()->copy_pad_gm_ub(
      sim::ctx, sim::dtype<T>::code, dst.lt, src.gt, dataCopyParams.blockCount,
      dataCopyParams.blockLen, dataCopyParams.srcStride, dataCopyParams.dstStride, padParams.isPad,
      padParams.leftPadding, padParams.rightPadding, sim::to_double(padParams.paddingValue),
      loc.file, loc.line));
}
template <typename T>
inline void DataCopyPad(const GlobalTensor<T> &dst, const LocalTensor<T> &src,
                        const DataCopyExtParams &dataCopyParams, sim::Loc loc = {}) {
  sim::check(sim::api()->copy_pad_ub_gm(sim::ctx, sim::dtype<T>::code, dst.gt, src.lt,
                                        dataCopyParams.blockCount, dataCopyParams.blockLen,
                                        dataCopyParams.srcStride, dataCopyParams.dstStride,
                                        loc.file, loc.line));
}

}  // namespace AscendC
