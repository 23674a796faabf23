// Part of kernel_operator.h, included only from it: more of the cube's basic APIs (LoadData with
// LoadData3DParamsV2, V1 and V2Pro, the img2col loads of the runtime's rt/img2col.h, and with
// LoadData2DParamsV2) and DumpTensor.

namespace AscendC {

// L1 (a feature map, NC1HWC0) -> L0A/L0B through img2col.
template <typename T>
struct LoadData3DParamsV2 {
  LoadData3DParamsV2() = default;
  LoadData3DParamsV2(const uint8_t padListIn[4], const uint16_t l1HIn, const uint16_t l1WIn,
                     const uint16_t channelSizeIn, const uint16_t kExtensionIn,
                     const uint16_t mExtensionIn, const uint16_t kStartPtIn,
                     const uint16_t mStartPtIn, const uint8_t strideWIn, const uint8_t strideHIn,
                     const uint8_t filterWIn, const uint8_t filterHIn,
                     const uint8_t dilationFilterWIn, const uint8_t dilationFilterHIn,
                     const bool enTransposeIn, const bool enSmallKIn, const T padValueIn,
                     const bool filterSizeWIn = false, const bool filterSizeHIn = false,
                     const bool fMatrixCtrlIn = false)
      : l1H(l1HIn),
        l1W(l1WIn),
        channelSize(channelSizeIn),
        kExtension(kExtensionIn),
        mExtension(mExtensionIn),
        kStartPt(kStartPtIn),
        mStartPt(mStartPtIn),
        strideW(strideWIn),
        strideH(strideHIn),
        filterW(filterWIn),
        filterH(filterHIn),
        dilationFilterW(dilationFilterWIn),
        dilationFilterH(dilationFilterHIn),
        enTranspose(enTransposeIn),
        enSmallK(enSmallKIn),
        padValue(padValueIn),
        filterSizeW(filterSizeWIn),
        filterSizeH(filterSizeHIn),
        fMatrixCtrl(fMatrixCtrlIn) {
    for (int i = 0; i < 4; ++i) padList[i] = padListIn[i];
  }
  uint8_t padList[4] = {0};
  uint16_t l1H = 0;
  uint16_t l1W = 0;
  uint16_t channelSize = 0;
  uint16_t kExtension = 0;
  uint16_t mExtension = 0;
  uint16_t kStartPt = 0;
  uint16_t mStartPt = 0;
  uint8_t strideW = 1;
  uint8_t strideH = 1;
  uint8_t filterW = 1;
  uint8_t filterH = 1;
  uint8_t dilationFilterW = 1;
  uint8_t dilationFilterH = 1;
  bool enTranspose = false;
  bool enSmallK = false;
  T padValue = 0;
  bool filterSizeW = false;
  bool filterSizeH = false;
  bool fMatrixCtrl = false;
};

namespace sim {
// An img2col load through cube_more: dt, the pad list, 17 fields (the runtime's order for op),
// then the padding value as a double's bits.
template <typename T, typename P>
inline void load3d(int op, const LocalTensor<T> &dst, const LocalTensor<T> &src, const P &p,
                   std::initializer_list<int64_t> fields, Loc loc) {
  int64_t v[23] = {dtype<T>::code, p.padList[0], p.padList[1], p.padList[2], p.padList[3]};
  std::copy(fields.begin(), fields.end(), v + 5);
  const double pad = to_double(p.padValue);
  __builtin_memcpy(&v[22], &pad, sizeof pad);
  cube_more(op, v, pyasc_sim_gt{}, dst.lt, src.lt, loc);
}
}  // namespace sim

template <typename T>
inline void LoadData(const LocalTensor<T> &dst, const LocalTensor<T> &src,
                     const LoadData3DParamsV2<T> &p, sim::Loc loc = {}) {
  sim::load3d(PYASC_SIM_CUBE_LOAD3D_V2, dst, src, p,
              {p.l1H, p.l1W, p.channelSize, p.kExtension, p.mExtension, p.kStartPt, p.mStartPt,
               p.strideW, p.strideH, p.filterW, p.filterH, p.dilationFilterW, p.dilationFilterH,
               p.enTranspose, p.filterSizeW, p.filterSizeH, p.fMatrixCtrl},
              loc);
}

// The older img2col load (V1): c1Index's channel block, a fetch window and repeats; it sets the
// FMATRIX register as V2 does.
template <typename T>
struct LoadData3DParamsV1 {
  LoadData3DParamsV1() = default;
  LoadData3DParamsV1(const uint8_t padListIn[4], const uint16_t l1HIn, const uint16_t l1WIn,
                     const uint16_t c1IndexIn, const uint8_t fetchFilterWIn,
                     const uint8_t fetchFilterHIn, const int16_t leftTopWIn,
                     const int16_t leftTopHIn, const uint8_t strideWIn, const uint8_t strideHIn,
                     const uint8_t filterWIn, const uint8_t filterHIn,
                     const uint8_t dilationFilterWIn, const uint8_t dilationFilterHIn,
                     const uint8_t jumpStrideIn, const uint8_t repeatModeIn,
                     const uint8_t repeatTimeIn, const uint8_t cSizeIn, const T padValueIn)
      : strideW(strideWIn),
        strideH(strideHIn),
        filterW(filterWIn),
        filterH(filterHIn),
        dilationFilterW(dilationFilterWIn),
        dilationFilterH(dilationFilterHIn),
        jumpStride(jumpStrideIn),
        repeatMode(repeatModeIn),
        repeatTime(repeatTimeIn),
        cSize(cSizeIn),
        padValue(padValueIn),
        fetchFilterW(fetchFilterWIn),
        fetchFilterH(fetchFilterHIn),
        l1H(l1HIn),
        l1W(l1WIn),
        c1Index(c1IndexIn),
        leftTopW(leftTopWIn),
        leftTopH(leftTopHIn) {
    for (int i = 0; i < 4; ++i) padList[i] = padListIn[i];
  }
  uint8_t padList[4] = {0};
  uint8_t strideW = 0;
  uint8_t strideH = 0;
  uint8_t filterW = 0;
  uint8_t filterH = 0;
  uint8_t dilationFilterW = 0;
  uint8_t dilationFilterH = 0;
  uint8_t jumpStride = 0;
  uint8_t repeatMode = 0;
  uint8_t repeatTime = 0;
  uint8_t cSize = 0;
  T padValue = 0;
  uint8_t fetchFilterW = 0;
  uint8_t fetchFilterH = 0;
  uint16_t l1H = 0;
  uint16_t l1W = 0;
  uint16_t c1Index = 0;
  int16_t leftTopW = 0;
  int16_t leftTopH = 0;
};

template <typename T>
inline void LoadData(const LocalTensor<T> &dst, const LocalTensor<T> &src,
                     const LoadData3DParamsV1<T> &p, sim::Loc loc = {}) {
  sim::load3d(PYASC_SIM_CUBE_LOAD3D_V1, dst, src, p,
              {p.l1H, p.l1W, p.c1Index, p.fetchFilterW, p.fetchFilterH, p.leftTopW, p.leftTopH,
               p.strideW, p.strideH, p.filterW, p.filterH, p.dilationFilterW, p.dilationFilterH,
               p.jumpStride, p.repeatMode, p.repeatTime, p.cSize},
              loc);
}

// V2's fields packed as the registers take them: the FMATRIX from an earlier V1/V2 load (or
// SetFmatrix), extConfig the K/M extensions and starts (16 bits each, from the low end),
// filterConfig the strides, filter sizes and dilations (8 bits each).
struct LoadData3DParamsV2Pro {
  LoadData3DParamsV2Pro() = default;
  LoadData3DParamsV2Pro(const uint16_t channelSizeIn, const bool enTransposeIn,
                        const bool enSmallKIn, const bool filterSizeWIn, const bool filterSizeHIn,
                        const bool fMatrixCtrlIn, const uint64_t extConfigIn,
                        const uint64_t filterConfigIn)
      : channelSize(channelSizeIn),
        enTranspose(enTransposeIn),
        enSmallK(enSmallKIn),
        filterSizeW(filterSizeWIn),
        filterSizeH(filterSizeHIn),
        fMatrixCtrl(fMatrixCtrlIn),
        extConfig(extConfigIn),
        filterConfig(filterConfigIn) {}
  uint16_t channelSize = 0;
  bool enTranspose = false;
  bool enSmallK = false;
  bool filterSizeW = false;
  bool filterSizeH = false;
  bool fMatrixCtrl = false;
  uint64_t extConfig = 0;
  uint64_t filterConfig = 0x10101010101;
};

template <typename T>
inline void LoadData(const LocalTensor<T> &dst, const LocalTensor<T> &src,
                     const LoadData3DParamsV2Pro &p, sim::Loc loc = {}) {
  const int64_t v[9] = {sim::dtype<T>::code,
                        p.channelSize,
                        p.enTranspose,
                        p.enSmallK,
                        p.filterSizeW,
                        p.filterSizeH,
                        p.fMatrixCtrl,
                        static_cast<int64_t>(p.extConfig),
                        static_cast<int64_t>(p.filterConfig)};
  sim::cube_more(PYASC_SIM_CUBE_LOAD3D_V2PRO, v, pyasc_sim_gt{}, dst.lt, src.lt, loc);
}

// An NZ matrix's m x k fractals (from L1 or GM) into L0A/L0B (or GM -> L1).
struct LoadData2DParamsV2 {
  LoadData2DParamsV2() = default;
  LoadData2DParamsV2(const uint32_t mStartPositionIn, const uint32_t kStartPositionIn,
                     const uint16_t mStepIn, const uint16_t kStepIn, const int32_t srcStrideIn,
                     const uint16_t dstStrideIn, const bool ifTransposeIn, const uint8_t sidIn)
      : mStartPosition(mStartPositionIn),
        kStartPosition(kStartPositionIn),
        mStep(mStepIn),
        kStep(kStepIn),
        srcStride(srcStrideIn),
        dstStride(dstStrideIn),
        ifTranspose(ifTransposeIn),
        sid(sidIn) {}
  uint32_t mStartPosition = 0;
  uint32_t kStartPosition = 0;
  uint16_t mStep = 0;
  uint16_t kStep = 0;
  int32_t srcStride = 0;
  uint16_t dstStride = 0;
  bool ifTranspose = false;
  uint8_t sid = 0;
};

namespace sim {
template <typename T>
inline void load2d_v2(const LocalTensor<T> &dst, pyasc_sim_lt src, pyasc_sim_gt g,
                      const LoadData2DParamsV2 &p, Loc loc) {
  const int64_t v[10] = {dtype<T>::code, p.mStartPosition, p.kStartPosition, p.mStep,
                         p.kStep,        p.srcStride,      p.dstStride,      p.ifTranspose,
                         p.sid,          g.base != nullptr};
  cube_more(PYASC_SIM_CUBE_LOAD2D_V2, v, g, dst.lt, src, loc);
}
}  // namespace sim
template <typename T>
inline void LoadData(const LocalTensor<T> &dst, const LocalTensor<T> &src,
                     const LoadData2DParamsV2 &p, sim::Loc loc = {}) {
  sim::load2d_v2(dst, src.lt, pyasc_sim_gt{}, p, loc);
}
template <typename T>
inline void LoadData(const LocalTensor<T> &dst, const GlobalTensor<T> &src,
                     const LoadData2DParamsV2 &p, sim::Loc loc = {}) {
  sim::load2d_v2(dst, pyasc_sim_lt{}, src.gt, p, loc);
}

// img2col's registers, read by the LoadData3DParamsV2 loads after them: the L1 boundary
// (bytes, 0: none), the padding value, and the repeat (CANN's constructor takes the stride
// first; repeatMode 0 repeats along M, 1 along K).
struct LoadDataRepeatParam {
  LoadDataRepeatParam() = default;
  LoadDataRepeatParam(const uint16_t repeatStrideIn, const uint8_t repeatTimeIn,
                      const uint8_t repeatModeIn)
      : repeatStride(repeatStrideIn), repeatTime(repeatTimeIn), repeatMode(repeatModeIn) {}
  uint16_t repeatStride = 0;
  uint8_t repeatTime = 1;
  uint8_t repeatMode = 0;
};
inline void SetLoadDataBoundary(uint32_t boundaryValue, sim::Loc loc = {}) {
  const int64_t v[1] = {boundaryValue};
  sim::cube_more(PYASC_SIM_CUBE_L3D_BOUNDARY, v, pyasc_sim_gt{}, pyasc_sim_lt{}, pyasc_sim_lt{},
                 loc);
}
template <typename T>
inline void SetLoadDataPaddingValue(const T padValue, sim::Loc loc = {}) {
  const double pad = sim::to_double(padValue);
  int64_t v[1];
  __builtin_memcpy(&v[0], &pad, sizeof pad);
  sim::cube_more(PYASC_SIM_CUBE_L3D_PAD, v, pyasc_sim_gt{}, pyasc_sim_lt{}, pyasc_sim_lt{}, loc);
}
inline void SetLoadDataRepeat(const LoadDataRepeatParam &repeatParams, sim::Loc loc = {}) {
  const int64_t v[3] = {repeatParams.repeatTime, repeatParams.repeatStride,
                        repeatParams.repeatMode};
  sim::cube_more(PYASC_SIM_CUBE_L3D_REPEAT, v, pyasc_sim_gt{}, pyasc_sim_lt{}, pyasc_sim_lt{}, loc);
}

// --- DumpTensor -----------------------------------------------------------------------------

namespace sim {
// The first dumpSize elements of a Local (UB, L1 or L0C) or Global tensor, on standard
// output with the block and desc; one lock for both kinds, so no two dumps interleave.
template <typename Tensor>
inline void dump_tensor(const Tensor &tensor, uint32_t desc, uint32_t dumpSize, sim::Loc loc) {
  static std::mutex lock;
  std::lock_guard<std::mutex> hold(lock);
  std::printf("DumpTensor: block %lld desc=%u size=%u:", static_cast<long long>(GetBlockIdx()),
              desc, dumpSize);
  if constexpr (std::is_same_v<Tensor, LocalTensor<typename Tensor::PrimType>>) {
    using T = typename Tensor::PrimType;
    if (tensor.lt.off >> PYASC_SIM_CUBE_TAG_SHIFT) {  // L1 or L0C: no scalar reads there
      constexpr uint32_t chunk = 64;
      unsigned char raw[chunk * sizeof(T)];
      for (uint32_t i0 = 0; i0 < dumpSize; i0 += chunk) {
        const uint32_t n = dumpSize - i0 < chunk ? dumpSize - i0 : chunk;
        const int64_t v[3] = {static_cast<int64_t>(sizeof(T)), n, i0};
        const pyasc_sim_gt out{reinterpret_cast<char *>(raw), static_cast<int64_t>(sizeof raw), 0,
                               0, 0};
        check(cube_table(loc)->cube_more(ctx, PYASC_SIM_CUBE_READ, v, out, pyasc_sim_lt{},
                                         tensor.lt, pyasc_sim_lt{}, loc.file, loc.line));
        for (uint32_t i = 0; i < n; ++i) {
          T x;
          __builtin_memcpy(&x, raw + static_cast<size_t>(i) * sizeof(T), sizeof(T));
          std::printf(" %g", sim::to_double(x));
        }
      }
      std::printf("\n");
      std::fflush(stdout);
      return;
    }
  }
  for (uint32_t i = 0; i < dumpSize; ++i)
    std::printf(" %g", sim::to_double(tensor.GetValue(i, loc)));
  std::printf("\n");
  std::fflush(stdout);
}
}  // namespace sim

template <typename T>
inline void DumpTensor(const LocalTensor<T> &tensor, uint32_t desc, uint32_t dumpSize,
                       sim::Loc loc = {}) {
  sim::dump_tensor(tensor, desc, dumpSize, loc);
}
template <typename T>
inline void DumpTensor(const GlobalTensor<T> &tensor, uint32_t desc, uint32_t dumpSize,
                       sim::Loc loc = {}) {
  sim::dump_tensor(tensor, desc, dumpSize, loc);
}

}  // namespace AscendC
