// Part of kernel_operator.h, included only from it: AIPP, the image pre-processing of an
// L1 load (SetAippFunctions, LoadImageToLocal), through the table's adv_more into the runtime's
// rt/aipp.h, which a kernel built with the cube's table has (a source naming SetAippFunctions
// or LoadImageToLocal gets it).

namespace AscendC {

// The image formats (pyasc's values, which the runtime takes).
enum class AippInputFormat : uint8_t {
  YUV420SP_U8 = 0,
  XRGB8888_U8 = 1,
  RGB888_U8 = 4,
  YUV400_U8 = 9
};

template <typename T>
struct AippPaddingParams {
  uint32_t paddingMode = 0;
  T paddingValueCh0 = 0;
  T paddingValueCh1 = 0;
  T paddingValueCh2 = 0;
  T paddingValueCh3 = 0;
};
struct AippSwapParams {
  bool isSwapRB = false;
  bool isSwapUV = false;
  bool isSwapAX = false;
};
struct AippSingleLineParams {
  bool isSingleLineCopy = false;
};
struct AippDataTypeConvParams {
  uint8_t dtcMeanCh0 = 0;
  uint8_t dtcMeanCh1 = 0;
  uint8_t dtcMeanCh2 = 0;
  half dtcMinCh0 = half(0.0f);
  half dtcMinCh1 = half(0.0f);
  half dtcMinCh2 = half(0.0f);
  half dtcVarCh0 = half(1.0f);
  half dtcVarCh1 = half(1.0f);
  half dtcVarCh2 = half(1.0f);
  uint32_t dtcRoundMode = 0;
};
template <typename T>
struct AippChannelPaddingParams {
  uint32_t cPaddingMode = 0;
  T cPaddingValue = 0;
};
struct AippColorSpaceConvParams {
  bool isEnableCsc = false;
  int16_t cscMatrixR0C0 = 0;
  int16_t cscMatrixR0C1 = 0;
  int16_t cscMatrixR0C2 = 0;
  int16_t cscMatrixR1C0 = 0;
  int16_t cscMatrixR1C1 = 0;
  int16_t cscMatrixR1C2 = 0;
  int16_t cscMatrixR2C0 = 0;
  int16_t cscMatrixR2C1 = 0;
  int16_t cscMatrixR2C2 = 0;
  uint8_t cscBiasIn0 = 0;
  uint8_t cscBiasIn1 = 0;
  uint8_t cscBiasIn2 = 0;
  uint8_t cscBiasOut0 = 0;
  uint8_t cscBiasOut1 = 0;
  uint8_t cscBiasOut2 = 0;
};
template <typename T>
struct AippParams {
  AippPaddingParams<T> paddingParams;
  AippSwapParams swapParams;
  AippSingleLineParams singleLineParams;
  AippDataTypeConvParams dtcParams;
  AippChannelPaddingParams<T> cPaddingParams;
  AippColorSpaceConvParams cscParams;
};

namespace sim {
// SetAippFunctions: the 37 members in the runtime's order, src1 (src0 again for one plane).
template <typename U>
inline void aipp_set(pyasc_sim_gt src0, pyasc_sim_gt src1, int planes, AippInputFormat format,
                     const AippParams<U> &c, Loc loc) {
  const auto &p = c.paddingParams;
  const auto &d = c.dtcParams;
  const auto &s = c.cscParams;
  const double m[37] = {static_cast<double>(p.paddingMode),
                        to_double(p.paddingValueCh0),
                        to_double(p.paddingValueCh1),
                        to_double(p.paddingValueCh2),
                        to_double(p.paddingValueCh3),
                        c.swapParams.isSwapRB,
                        c.swapParams.isSwapUV,
                        c.swapParams.isSwapAX,
                        c.singleLineParams.isSingleLineCopy,
                        d.dtcMeanCh0,
                        d.dtcMeanCh1,
                        d.dtcMeanCh2,
                        to_double(d.dtcMinCh0),
                        to_double(d.dtcMinCh1),
                        to_double(d.dtcMinCh2),
                        to_double(d.dtcVarCh0),
                        to_double(d.dtcVarCh1),
                        to_double(d.dtcVarCh2),
                        static_cast<double>(d.dtcRoundMode),
                        static_cast<double>(c.cPaddingParams.cPaddingMode),
                        to_double(c.cPaddingParams.cPaddingValue),
                        s.isEnableCsc,
                        s.cscMatrixR0C0,
                        s.cscMatrixR0C1,
                        s.cscMatrixR0C2,
                        s.cscMatrixR1C0,
                        s.cscMatrixR1C1,
                        s.cscMatrixR1C2,
                        s.cscMatrixR2C0,
                        s.cscMatrixR2C1,
                        s.cscMatrixR2C2,
                        s.cscBiasIn0,
                        s.cscBiasIn1,
                        s.cscBiasIn2,
                        s.cscBiasOut0,
                        s.cscBiasOut1,
                        s.cscBiasOut2};
  int64_t v[45];
  v[0] = static_cast<int64_t>(format), v[1] = planes, v[2] = dtype<U>::code;
  for (int i = 0; i < 37; ++i) v[3 + i] = bits_of(m[i]);
  std::memcpy(&v[40], &src1.base, sizeof src1.base);
  v[41] = src1.n, v[42] = src1.lead, v[43] = src1.size, v[44] = src1.skip;
  adv_more(PYASC_SIM_ADV_AIPP_SET, v, {}, loc, 0, src0);
}
}  // namespace sim

template <typename T, typename U>
inline void SetAippFunctions(const GlobalTensor<T> &src0, AippInputFormat format,
                             AippParams<U> config, sim::Loc loc = {}) {
  sim::aipp_set(src0.gt, src0.gt, 1, format, config, loc);
}
template <typename T, typename U>
inline void SetAippFunctions(const GlobalTensor<T> &src0, const GlobalTensor<T> &src1,
                             AippInputFormat format, AippParams<U> config, sim::Loc loc = {}) {
  sim::aipp_set(src0.gt, src1.gt, 2, format, config, loc);
}

struct LoadImageToLocalParams {
  uint16_t horizSize = 0;
  uint16_t vertSize = 0;
  uint16_t horizStartPos = 0;
  uint16_t vertStartPos = 0;
  uint16_t srcHorizSize = 0;
  uint8_t topPadSize = 0;
  uint8_t botPadSize = 0;
  uint16_t leftPadSize = 0;
  uint16_t rightPadSize = 0;
};
// The image SetAippFunctions configured, cropped, padded and converted, into dst in L1.
template <typename T>
inline void LoadImageToLocal(const LocalTensor<T> &dst,
                             const LoadImageToLocalParams &loadDataParams, sim::Loc loc = {}) {
  const LoadImageToLocalParams &p = loadDataParams;
  const int64_t v[10] = {sim::dtype<T>::code, p.horizSize,    p.vertSize,   p.horizStartPos,
                         p.vertStartPos,      p.srcHorizSize, p.topPadSize, p.botPadSize,
                         p.leftPadSize,       p.rightPadSize};
  sim::adv_more(PYASC_SIM_ADV_AIPP_LOAD, v, {dst.lt}, loc);
}

}  // namespace AscendC
