// Part of kernel_operator.h, included only from it: the cube unit's basic APIs (220 series):
// DataCopy GM/UB -> L1 with Nd2NzParams and UB -> GM with Nz2NdParamsFull, LoadData with
// LoadData2DParams, Mmad with MmadParams, Fixpipe with FixpipeParamsV220. Their tensors come
// from TQues at A1/B1/C1 (L1), A2 (L0A), B2 (L0B) and CO1 (L0C), whose TPipe::InitBuffer places
// them in the block's cube buffers (memory.h). Layouts are the device's: rt/cube.h describes
// them. A source that names one of these APIs is built with the cube's runtime table.

enum class QuantMode_t : uint8_t {
  NoQuant,
  F322F16,
  F322BF16,
  DEQF16,
  VDEQF16,
  QF322B8_PRE,
  VQF322B8_PRE,
  REQ8,
  VREQ8
};

namespace AscendC {

struct LoadData2DParams {
  LoadData2DParams() = default;
  LoadData2DParams(uint16_t startIndexIn, uint8_t repeatTimesIn, uint16_t srcStrideIn,
                   uint8_t sidIn, uint16_t dstGapIn, bool ifTransposeIn, uint8_t addrModeIn)
      : startIndex(startIndexIn),
        repeatTimes(repeatTimesIn),
        srcStride(srcStrideIn),
        sid(sidIn),
        dstGap(dstGapIn),
        ifTranspose(ifTransposeIn),
        addrMode(addrModeIn) {}
  uint16_t startIndex = 0;  // the first fractal (512 bytes) of the source
  uint8_t repeatTimes = 0;  // fractals moved
  uint16_t srcStride = 0;   // fractals from one read to the next
  uint8_t sid = 0;
  uint16_t dstGap = 0;  // fractals skipped between two written
  bool ifTranspose = false;
  uint8_t addrMode = 0;
};

struct MmadParams {
  MmadParams() = default;
  MmadParams(uint16_t mIn, uint16_t nIn, uint16_t kIn, bool isBiasIn, int32_t fmOffsetIn,
             bool enSsparseIn, bool enWinogradAIn, bool enWinogradBIn)
      : m(mIn),
        n(nIn),
        k(kIn),
        isBias(isBiasIn),
        fmOffset(fmOffsetIn),
        enSsparse(enSsparseIn),
        enWinogradA(enWinogradAIn),
        enWinogradB(enWinogradBIn) {}
  MmadParams(uint16_t mIn, uint16_t nIn, uint16_t kIn, uint8_t unitFlagIn, bool cmatrixSourceIn,
             bool cmatrixInitValIn)
      : m(mIn),
        n(nIn),
        k(kIn),
        unitFlag(unitFlagIn),
        cmatrixSource(cmatrixSourceIn),
        cmatrixInitVal(cmatrixInitValIn) {}
  uint16_t m = 0, n = 0, k = 0;
  bool isBias = false;  // true: C += A B (the 220 series reads it with cmatrixInitVal)
  int32_t fmOffset = 0;
  bool enSsparse = false, enWinogradA = false, enWinogradB = false;
  uint8_t unitFlag = 0;
  bool kDirectionAlign = false;
  bool cmatrixSource = false;
  bool cmatrixInitVal = true;  // true: C starts from zero (or the bias), false: C += A B
};

struct Nd2NzParams {
  Nd2NzParams() = default;
  Nd2NzParams(uint16_t ndNumIn, uint16_t nValueIn, uint16_t dValueIn, uint16_t srcNdMatrixStrideIn,
              uint16_t srcDValueIn, uint16_t dstNzC0StrideIn, uint16_t dstNzNStrideIn,
              uint16_t dstNzMatrixStrideIn)
      : ndNum(ndNumIn),
        nValue(nValueIn),
        dValue(dValueIn),
        srcNdMatrixStride(srcNdMatrixStrideIn),
        srcDValue(srcDValueIn),
        dstNzC0Stride(dstNzC0StrideIn),
        dstNzNStride(dstNzNStrideIn),
        dstNzMatrixStride(dstNzMatrixStrideIn) {}
  uint16_t ndNum = 0, nValue = 0, dValue = 0, srcNdMatrixStride = 0, srcDValue = 0;
  uint16_t dstNzC0Stride = 0, dstNzNStride = 0, dstNzMatrixStride = 0;
};

struct Nz2NdParamsFull {
  Nz2NdParamsFull() = default;
  Nz2NdParamsFull(uint16_t ndNumIn, uint16_t nValueIn, uint16_t dValueIn,
                  uint16_t srcNdMatrixStrideIn, uint16_t srcNStrideIn, uint16_t dstDStrideIn,
                  uint16_t dstNdMatrixStrideIn)
      : ndNum(ndNumIn),
        nValue(nValueIn),
        dValue(dValueIn),
        srcNdMatrixStride(srcNdMatrixStrideIn),
        srcNStride(srcNStrideIn),
        dstDStride(dstDStrideIn),
        dstNdMatrixStride(dstNdMatrixStrideIn) {}
  uint16_t ndNum = 1, nValue = 0, dValue = 0, srcNdMatrixStride = 0, srcNStride = 0;
  uint16_t dstDStride = 0, dstNdMatrixStride = 0;
};

struct FixpipeParamsV220 {
  FixpipeParamsV220() = default;
  FixpipeParamsV220(uint16_t nSizeIn, uint16_t mSizeIn, uint16_t srcStrideIn, uint32_t dstStrideIn,
                    bool reluEnIn)
      : nSize(nSizeIn),
        mSize(mSizeIn),
        srcStride(srcStrideIn),
        dstStride(dstStrideIn),
        reluEn(reluEnIn) {}
  FixpipeParamsV220(uint16_t nSizeIn, uint16_t mSizeIn, uint16_t srcStrideIn, uint32_t dstStrideIn,
                    bool reluEnIn, QuantMode_t quantPreIn, int64_t deqScalarIn, uint16_t ndNumIn,
                    uint16_t srcNdStrideIn, uint16_t dstNdStrideIn, uint8_t unitFlagIn)
      : nSize(nSizeIn),
        mSize(mSizeIn),
        srcStride(srcStrideIn),
        dstStride(dstStrideIn),
        reluEn(reluEnIn),
        quantPre(quantPreIn),
        deqScalar(static_cast<uint64_t>(deqScalarIn)),
        ndNum(ndNumIn),
        srcNdStride(srcNdStrideIn),
        dstNdStride(dstNdStrideIn),
        unitFlag(unitFlagIn) {}
  uint16_t nSize = 0;      // columns of C moved
  uint16_t mSize = 0;      // rows
  uint16_t srcStride = 0;  // rows of a column block in L0C (a multiple of 16)
  uint32_t dstStride = 0;  // ND: elements from one row to the next; NZ: rows of a column block
  bool reluEn = false;
  QuantMode_t quantPre = QuantMode_t::NoQuant;
  uint64_t deqScalar = 0;  // a float32's bits, the scalar quant modes' scale
  uint16_t ndNum = 1, srcNdStride = 0, dstNdStride = 0;
  uint8_t unitFlag = 0;
  bool isChannelSplit = false;
};

enum class CO2Layout : uint8_t { NZ = 0, ROW_MAJOR, COLUMN_MAJOR };
// isToUB: L0C to the Unified Buffer, which dav-3510 has and dav-2201 has not (its Fixpipe writes
// GM or L1); CANN documents the member for both.
struct FixpipeConfig {
  CO2Layout format;
  bool isToUB = false;
};
constexpr FixpipeConfig CFG_NZ = {CO2Layout::NZ};
constexpr FixpipeConfig CFG_ROW_MAJOR = {CO2Layout::ROW_MAJOR};

namespace sim {
inline void fail_at(const char *message, Loc loc) {
  api()->fail(ctx, loc.file, loc.line, message);
  throw Abort{};
}
// fail_at with a printf message (the library APIs name the values they refuse).
inline void fail_atf(Loc loc, const char *message) {
  fail_at(message, loc);
}
template <typename... A>
inline void fail_atf(Loc loc, const char *fmt, A... args) {
  char message[320];
  std::snprintf(message, sizeof message, fmt, args...);
  fail_at(message, loc);
}
// What CANN's CPU-debug build asserts: the device computes on regardless, so only checked
// mode reports it (and ends the block).
inline bool expect_checked(bool ok, Loc loc, const char *what) {
  if (!ok && PYASC_SIM_CHECKED) fail_at(what, loc);
  return ok || !PYASC_SIM_CHECKED;
}
inline const pyasc_sim_api *cube_table(Loc loc) {
  const pyasc_sim_api *t = api();
  if (!t->cube_load) {
    t->fail(ctx, loc.file, loc.line, "the cube: this kernel was not built with the cube's table");
    throw Abort{};
  }
  return t;
}
template <typename T>
inline void load(const LocalTensor<T> &dst, pyasc_sim_lt src, pyasc_sim_gt g, int gm,
                 const LoadData2DParams &p, Loc loc) {
  check(cube_table(loc)->cube_load(ctx, dst.lt, src, g, gm, dtype<T>::code, p.startIndex,
                                   p.repeatTimes, p.srcStride, p.dstGap, p.ifTranspose, loc.file,
                                   loc.line));
}
template <typename T, typename U, typename S>
inline void mmad(const LocalTensor<T> &dst, const LocalTensor<U> &fm, const LocalTensor<S> &filter,
                 pyasc_sim_lt bias, int has_bias, const MmadParams &p, Loc loc) {
  static_assert(std::is_same_v<U, S>, "Mmad: fm and filter must have one type");
  // the 220 series starts from zero only when cmatrixInitVal is set and isBias is not
  // (bit 1: kDirectionAlign, float A's K aligned to 16 in L0A)
  // (bit 2: cmatrixSource, C starts from the bias table when no bias tensor is given)
  const int init = (p.cmatrixInitVal && !p.isBias) | (p.kDirectionAlign ? 2 : 0) |
                   (p.cmatrixSource && !p.cmatrixInitVal ? 4 : 0);
  check(cube_table(loc)->cube_mmad(ctx, dst.lt, fm.lt, filter.lt, bias, has_bias, dtype<T>::code,
                                   dtype<U>::code, p.m, p.n, p.k, init, loc.file, loc.line));
}
// qv: the cbufWorkspace of a vector quant mode's per-channel scales (an L1 tensor), if any
template <typename T, typename U, const FixpipeConfig &config>
inline void fixpipe(int ub, pyasc_sim_gt g, pyasc_sim_lt dst, const LocalTensor<U> &src,
                    const FixpipeParamsV220 &p, Loc loc, const pyasc_sim_lt *qv = nullptr) {
  static_assert(std::is_same_v<U, float> || std::is_same_v<U, int32_t>,
                "Fixpipe: src is an L0C tensor of float or int32_t");
  static_assert(!config.isToUB, "Fixpipe: isToUB (L0C to the Unified Buffer) is dav-3510's");
  if (config.format == CO2Layout::COLUMN_MAJOR)
    fail_at("Fixpipe: the COLUMN_MAJOR output is not simulated", loc);
  const uint32_t bits = static_cast<uint32_t>(p.deqScalar & 0xffffffffu);
  float deq;
  static_assert(sizeof deq == sizeof bits, "float is 32 bits");
  __builtin_memcpy(&deq, &bits, sizeof deq);
  const int64_t v[10] = {p.nSize,
                         p.mSize,
                         p.srcStride,
                         p.dstStride,
                         static_cast<int64_t>(p.quantPre),
                         p.reluEn ? 1 : 0,
                         (config.format == CO2Layout::NZ ? 1 : 0) | (p.isChannelSplit ? 2 : 0),
                         p.ndNum,
                         p.srcNdStride,
                         p.dstNdStride};
  check(cube_table(loc)->cube_fixpipe(ctx, ub, g, dst, src.lt, qv ? *qv : pyasc_sim_lt{},
                                      qv != nullptr, dtype<T>::code, dtype<U>::code, v, deq,
                                      loc.file, loc.line));
}
}  // namespace sim

// --- GM/UB -> L1 (ND to NZ), UB -> GM (NZ to ND) -------------------------------------------

template <typename T>
inline void DataCopy(const LocalTensor<T> &dst, const GlobalTensor<T> &src,
                     const Nd2NzParams &intriParams, sim::Loc loc = {}) {
  const Nd2NzParams &p = intriParams;
  const int64_t v[8] = {p.ndNum,     p.nValue,        p.dValue,       p.srcNdMatrixStride,
                        p.srcDValue, p.dstNzC0Stride, p.dstNzNStride, p.dstNzMatrixStride};
  sim::check(sim::cube_table(loc)->cube_nd2nz(sim::ctx, dst.lt, src.gt, pyasc_sim_lt{}, 0,
                                              sim::dtype<T>::code, v, loc.file, loc.line));
}
template <typename T>
inline void DataCopy(const LocalTensor<T> &dst, const LocalTensor<T> &src,
                     const Nd2NzParams &intriParams, sim::Loc loc = {}) {
  const Nd2NzParams &p = intriParams;
  const int64_t v[8] = {p.ndNum,     p.nValue,        p.dValue,       p.srcNdMatrixStride,
                        p.srcDValue, p.dstNzC0Stride, p.dstNzNStride, p.dstNzMatrixStride};
  sim::check(sim::cube_table(loc)->cube_nd2nz(sim::ctx, dst.lt, pyasc_sim_gt{}, src.lt, 1,
                                              sim::dtype<T>::code, v, loc.file, loc.line));
}
template <typename T>
inline void DataCopy(const GlobalTensor<T> &dst, const LocalTensor<T> &src,
                     const Nz2NdParamsFull &intriParams, sim::Loc loc = {}) {
  const Nz2NdParamsFull &p = intriParams;
  const int64_t v[7] = {p.ndNum,      p.nValue,     p.dValue,           p.srcNdMatrixStride,
                        p.srcNStride, p.dstDStride, p.dstNdMatrixStride};
  sim::check(sim::cube_table(loc)->cube_nz2nd(sim::ctx, dst.gt, src.lt, sim::dtype<T>::code, v,
                                              loc.file, loc.line));
}

// --- L1/GM -> L0A/L0B, the matrix multiply, L0C -> GM/UB -----------------------------------

template <typename T>
inline void LoadData(const LocalTensor<T> &dst, const LocalTensor<T> &src,
                     const LoadData2DParams &loadDataParams, sim::Loc loc = {}) {
  sim::load(dst, src.lt, pyasc_sim_gt{}, 0, loadDataParams, loc);
}
template <typename T>
inline void LoadData(const LocalTensor<T> &dst, const GlobalTensor<T> &src,
                     const LoadData2DParams &loadDataParams, sim::Loc loc = {}) {
  sim::load(dst, pyasc_sim_lt{}, src.gt, 1, loadDataParams, loc);
}

// dst (L0C, float or int32_t) = fm (L0A, m x k) x filter (L0B, k x n), or += (see MmadParams).
template <typename T, typename U, typename S>
inline void Mmad(const LocalTensor<T> &dst, const LocalTensor<U> &fm, const LocalTensor<S> &filter,
                 const MmadParams &mmadParams, sim::Loc loc = {}) {
  sim::mmad(dst, fm, filter, pyasc_sim_lt{}, 0, mmadParams, loc);
}
// ... plus a bias row (n elements of T, in L1) on the first pass.
template <typename T, typename U, typename S, typename V>
inline void Mmad(const LocalTensor<T> &dst, const LocalTensor<U> &fm, const LocalTensor<S> &filter,
                 const LocalTensor<V> &bias, const MmadParams &mmadParams, sim::Loc loc = {}) {
  sim::mmad(dst, fm, filter, bias.lt, 1, mmadParams, loc);
}

// L0C -> GM or UB: ND rows (CFG_ROW_MAJOR) or NZ (CFG_NZ), with the quantPre conversion
// (float32 -> half/bfloat16_t, the scalar int32 dequant...) and relu; ND rows of ndNum
// matrices (srcNdStride fractals apart in L0C, dstNdStride elements in dst). The vector quant
// modes take their per-channel scales from a cbufWorkspace (uint64 in L1).
template <typename T, typename U, const FixpipeConfig &config = CFG_ROW_MAJOR>
inline void Fixpipe(const GlobalTensor<T> &dst, const LocalTensor<U> &src,
                    const FixpipeParamsV220 &intriParams, sim::Loc loc = {}) {
  sim::fixpipe<T, U, config>(0, dst.gt, pyasc_sim_lt{}, src, intriParams, loc);
}
template <typename T, typename U, const FixpipeConfig &config = CFG_ROW_MAJOR>
inline void Fixpipe(const LocalTensor<T> &dst, const LocalTensor<U> &src,
                    const FixpipeParamsV220 &intriParams, sim::Loc loc = {}) {
  sim::fixpipe<T, U, config>(1, pyasc_sim_gt{}, dst.lt, src, intriParams, loc);
}
template <typename T, typename U, const FixpipeConfig &config = CFG_ROW_MAJOR>
inline void Fixpipe(const GlobalTensor<T> &dst, const LocalTensor<U> &src,
                    const LocalTensor<uint64_t> &cbufWorkspace,
                    const FixpipeParamsV220 &intriParams, sim::Loc loc = {}) {
  sim::fixpipe<T, U, config>(0, dst.gt, pyasc_sim_lt{}, src, intriParams, loc, &cbufWorkspace.lt);
}
template <typename T, typename U, const FixpipeConfig &config = CFG_ROW_MAJOR>
inline void Fixpipe(const LocalTensor<T> &dst, const LocalTensor<U> &src,
                    const LocalTensor<uint64_t> &cbufWorkspace,
                    const FixpipeParamsV220 &intriParams, sim::Loc loc = {}) {
  sim::fixpipe<T, U, config>(1, pyasc_sim_gt{}, dst.lt, src, intriParams, loc, &cbufWorkspace.lt);
}
// --- the other forms ---------------------------------------------------------------------

namespace sim {
inline void cube_more(int op, const int64_t *v, pyasc_sim_gt g, pyasc_sim_lt dst, pyasc_sim_lt src,
                      Loc loc, pyasc_sim_lt third = {}) {
  check(cube_table(loc)->cube_more(ctx, op, v, g, dst, src, third, loc.file, loc.line));
}
}  // namespace sim

// The pre-quant flag register: a float32's bits in the low half, the scale of DataCopy's
// (L0C -> GM/UB) scalar quant modes.
inline void SetFixpipePreQuantFlag(uint64_t config, sim::Loc loc = {}) {
  const int64_t v[1] = {static_cast<int64_t>(config)};
  sim::cube_more(PYASC_SIM_CUBE_FPQ, v, pyasc_sim_gt{}, pyasc_sim_lt{}, pyasc_sim_lt{}, loc);
}

// The fixpipe's configuration: the quant (and relu) vectors in the fixpipe buffer for the
// next L0C copies, and isUnitFlag, which clears L0C's unit flags (MmadParams/FixpipeParamsV220
// unitFlag: the hardware's hand-over between Mmad and Fixpipe). The simulator runs Mmad and
// Fixpipe in program order, so it has no unit flags to clear, and a tensor in the fixpipe
// buffer cannot be made yet (LocalTensor at C2PIPE2GM fails): nothing is left to do here.
template <typename T>
inline void SetFixPipeConfig(const LocalTensor<T> &reluPre, const LocalTensor<T> &quantPre,
                             bool isUnitFlag = false) {
  (void)reluPre, (void)quantPre, (void)isUnitFlag;
}
template <typename T, bool setRelu = false>
inline void SetFixPipeConfig(const LocalTensor<T> &preData, bool isUnitFlag = false) {
  static_assert(!setRelu, "SetFixPipeConfig: setRelu must be false (a quant tensor only)");
  (void)preData, (void)isUnitFlag;
}

// The NZ -> ND register of the L0C copies (DataCopy with nz2ndEn): ndNum matrices, srcNdStride
// and dstNdStride apart. The copies take one matrix (ndNum 1, the strides unused); more are not
// simulated yet and fail here.
inline void SetFixpipeNz2ndFlag(uint16_t ndNum, uint16_t srcNdStride, uint16_t dstNdStride,
                                sim::Loc loc = {}) {
  (void)srcNdStride, (void)dstNdStride;
  if (ndNum != 1)
    sim::check(sim::api()->fail(sim::ctx, loc.file, loc.line,
                                "SetFixpipeNz2ndFlag: ndNum other than 1 is not simulated yet"));
}

// Fixpipe's older form: L0C -> GM or UB, ND (nz2ndEn) or NZ.
struct DataCopyCO12DstParams {
  DataCopyCO12DstParams() = default;
  DataCopyCO12DstParams(uint16_t nSizeIn, uint16_t mSizeIn, uint32_t dstStrideIn,
                        uint16_t srcStrideIn, QuantMode_t quantPreIn, uint8_t reluPreIn,
                        bool channelSplitIn, bool nz2ndEnIn)
      : nSize(nSizeIn),
        mSize(mSizeIn),
        dstStride(dstStrideIn),
        srcStride(srcStrideIn),
        quantPre(quantPreIn),
        reluPre(reluPreIn),
        channelSplit(channelSplitIn),
        nz2ndEn(nz2ndEnIn) {}
  uint16_t nSize = 0, mSize = 0;
  uint32_t dstStride = 0;
  uint16_t srcStride = 0;
  QuantMode_t quantPre = QuantMode_t::NoQuant;
  uint8_t reluPre = 0;
  bool channelSplit = false, nz2ndEn = false;
};
namespace sim {
template <typename T, typename U>
inline void co12(int ub, pyasc_sim_gt g, pyasc_sim_lt dst, const LocalTensor<U> &src,
                 const DataCopyCO12DstParams &p, Loc loc) {
  if (p.channelSplit) fail_at("DataCopy: channelSplit is not simulated", loc);
  const int64_t v[10] = {dtype<T>::code,    dtype<U>::code,
                         p.nSize,           p.mSize,
                         p.dstStride,       p.srcStride,
                         p.reluPre,         static_cast<int64_t>(p.quantPre),
                         p.nz2ndEn ? 0 : 1, ub};
  cube_more(PYASC_SIM_CUBE_CO12, v, g, dst, src.lt, loc);
}
}  // namespace sim
template <typename T, typename U>
inline void DataCopy(const GlobalTensor<T> &dst, const LocalTensor<U> &src,
                     const DataCopyCO12DstParams &intriParams, sim::Loc loc = {}) {
  sim::co12<T, U>(0, dst.gt, pyasc_sim_lt{}, src, intriParams, loc);
}
template <typename T, typename U>
inline void DataCopy(const LocalTensor<T> &dst, const LocalTensor<U> &src,
                     const DataCopyCO12DstParams &intriParams, sim::Loc loc = {}) {
  sim::co12<T, U>(1, pyasc_sim_gt{}, dst.lt, src, intriParams, loc);
}

struct LoadData2dTransposeParams {
  LoadData2dTransposeParams() = default;
  LoadData2dTransposeParams(uint16_t startIndexIn, uint8_t repeatTimesIn, uint16_t srcStrideIn,
                            uint16_t dstGapIn, uint16_t dstFracGapIn, uint8_t addrModeIn)
      : startIndex(startIndexIn),
        repeatTimes(repeatTimesIn),
        srcStride(srcStrideIn),
        dstGap(dstGapIn),
        dstFracGap(dstFracGapIn),
        addrMode(addrModeIn) {}
  uint16_t startIndex = 0;
  uint8_t repeatTimes = 0;
  uint16_t srcStride = 0, dstGap = 0, dstFracGap = 0;
  uint8_t addrMode = 0;
};
// L1 -> L0B, transposing square blocks of 32 bytes x 32 bytes (int8, float32 and the 16-bit
// types).
template <typename T>
inline void LoadDataWithTranspose(const LocalTensor<T> &dst, const LocalTensor<T> &src,
                                  const LoadData2dTransposeParams &loadDataParams,
                                  sim::Loc loc = {}) {
  const LoadData2dTransposeParams &p = loadDataParams;
  const int64_t v[6] = {sim::dtype<T>::code, p.startIndex, p.repeatTimes,
                        p.srcStride,         p.dstGap,     p.dstFracGap};
  sim::cube_more(PYASC_SIM_CUBE_LOAD_T, v, pyasc_sim_gt{}, dst.lt, src.lt, loc);
}

// UB -> L1 with the ND -> NZ conversion: blockCount bursts of blockLen bytes (ndNum 1).
template <typename T>
inline void DataCopyPad(const LocalTensor<T> &dst, const LocalTensor<T> &src,
                        const DataCopyExtParams &dataCopyParams, const Nd2NzParams &nd2nzParams,
                        sim::Loc loc = {}) {
  const DataCopyExtParams &c = dataCopyParams;
  const Nd2NzParams &p = nd2nzParams;
  const int64_t v[13] = {sim::dtype<T>::code, c.blockCount, c.blockLen,      c.srcStride,
                         c.dstStride,         p.ndNum,      p.nValue,        p.dValue,
                         p.srcNdMatrixStride, p.srcDValue,  p.dstNzC0Stride, p.dstNzNStride,
                         p.dstNzMatrixStride};
  sim::cube_more(PYASC_SIM_CUBE_ND2NZ_PAD, v, pyasc_sim_gt{}, dst.lt, src.lt, loc);
}

// 4:2 sparse matmul (rt/cube_sparse.h): LoadDataWithSparse moves int8 filter fractals to L0B
// with their uint8 index; MmadWithSparse multiplies with them into int32.
template <typename T = int8_t, typename U = uint8_t>
inline void LoadDataWithSparse(const LocalTensor<T> &dst, const LocalTensor<T> &src,
                               const LocalTensor<U> &idx, const LoadData2DParams &loadDataParam,
                               sim::Loc loc = {}) {
  static_assert(std::is_same_v<T, int8_t> && std::is_same_v<U, uint8_t>,
                "LoadDataWithSparse takes int8_t data and a uint8_t index");
  const LoadData2DParams &p = loadDataParam;
  const int64_t v[5] = {p.startIndex, p.repeatTimes, p.srcStride, p.dstGap, p.ifTranspose ? 1 : 0};
  sim::cube_more(PYASC_SIM_CUBE_LOAD_SPARSE, v, pyasc_sim_gt{}, dst.lt, src.lt, loc, idx.lt);
}
template <typename T = int32_t, typename U = int8_t>
inline void MmadWithSparse(const LocalTensor<T> &dst, const LocalTensor<U> &fm,
                           const LocalTensor<U> &filter, const MmadParams &mmadParams,
                           sim::Loc loc = {}) {
  static_assert(std::is_same_v<T, int32_t> && std::is_same_v<U, int8_t>,
                "MmadWithSparse multiplies int8_t into int32_t");
  const MmadParams &p = mmadParams;
  const int64_t v[4] = {p.m, p.n, p.k, p.cmatrixInitVal && !p.isBias ? 1 : 0};
  sim::cube_more(PYASC_SIM_CUBE_MMAD_SPARSE, v, pyasc_sim_gt{}, dst.lt, fm.lt, loc, filter.lt);
}

// The cube's modes: HF32 rounding of float32 inputs and the M/N walk's order. The simulated
// Mmad keeps float32 inputs whole and its result does not depend on the walk, so they change
// nothing here (as for Python kernels).
inline void SetHF32Mode(bool hf32Mode) {
  (void)hf32Mode;
}
inline void SetHF32TransMode(bool hf32TransMode) {
  (void)hf32TransMode;
}
inline void SetMMLayoutTransform(bool mmLayoutMode) {
  (void)mmLayoutMode;
}

}  // namespace AscendC
