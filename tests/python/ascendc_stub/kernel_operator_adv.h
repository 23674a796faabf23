// Part of the test stub kernel_operator.h, included only from it: the adv library, Matmul and the
// cube unit's forms.

namespace AscendC {

// --- adv library (pyasc.adv) --------------------------------------------------
#define PYASC_STUB_ADV_MATH(NAME)                                                             \
  template <typename T, bool isReuseSource = false>                                           \
  __aicore__ void NAME(const LocalTensor<T> &dstTensor, const LocalTensor<T> &srcTensor,      \
                       const LocalTensor<uint8_t> &sharedTmpBuffer, const uint32_t calCount); \
  template <typename T, bool isReuseSource = false>                                           \
  __aicore__ void NAME(const LocalTensor<T> &dstTensor, const LocalTensor<T> &srcTensor,      \
                       const uint32_t calCount);
PYASC_STUB_ADV_MATH(Acos)
PYASC_STUB_ADV_MATH(Acosh)
PYASC_STUB_ADV_MATH(Asin)
PYASC_STUB_ADV_MATH(Asinh)
PYASC_STUB_ADV_MATH(Atan)
PYASC_STUB_ADV_MATH(Atanh)
PYASC_STUB_ADV_MATH(Ceil)
PYASC_STUB_ADV_MATH(Cos)
PYASC_STUB_ADV_MATH(Cosh)
PYASC_STUB_ADV_MATH(Digamma)
PYASC_STUB_ADV_MATH(Erf)
PYASC_STUB_ADV_MATH(Erfc)
PYASC_STUB_ADV_MATH(Floor)
PYASC_STUB_ADV_MATH(Frac)
PYASC_STUB_ADV_MATH(Lgamma)
PYASC_STUB_ADV_MATH(Log)
PYASC_STUB_ADV_MATH(Round)
PYASC_STUB_ADV_MATH(Sign)
PYASC_STUB_ADV_MATH(Sin)
PYASC_STUB_ADV_MATH(Sinh)
PYASC_STUB_ADV_MATH(Tan)
PYASC_STUB_ADV_MATH(Tanh)
PYASC_STUB_ADV_MATH(Trunc)

template <typename T, uint8_t taylorExpandLevel, bool isReuseSource = false>
__aicore__ void Exp(const LocalTensor<T> &dstLocal, const LocalTensor<T> &srcLocal,
                    const LocalTensor<uint8_t> &sharedTmpBuffer, const uint32_t calCount);
template <typename T, uint8_t taylorExpandLevel, bool isReuseSource = false>
__aicore__ void Exp(const LocalTensor<T> &dstLocal, const LocalTensor<T> &srcLocal,
                    const uint32_t calCount);

#define PYASC_STUB_ADV_BINARY(NAME)                                                           \
  template <typename T, bool isReuseSource = false>                                           \
  __aicore__ void NAME(const LocalTensor<T> &dstTensor, const LocalTensor<T> &src0Tensor,     \
                       const LocalTensor<T> &src1Tensor,                                      \
                       const LocalTensor<uint8_t> &sharedTmpBuffer, const uint32_t calCount); \
  template <typename T, bool isReuseSource = false>                                           \
  __aicore__ void NAME(const LocalTensor<T> &dstTensor, const LocalTensor<T> &src0Tensor,     \
                       const LocalTensor<T> &src1Tensor, const uint32_t calCount);
PYASC_STUB_ADV_BINARY(Power)
PYASC_STUB_ADV_BINARY(Xor)

template <typename T, typename U, bool isReuseSource = false>
__aicore__ void Axpy(const LocalTensor<T> &dstTensor, const LocalTensor<U> &srcTensor,
                     const U scalarValue, const LocalTensor<uint8_t> &sharedTmpBuffer,
                     const uint32_t calCount);

template <typename T, bool isReuseSource = false, bool isBasicBlock = false,
          bool isDataFormatNZ = false>
__aicore__ void SoftMax(const LocalTensor<T> &dstTensor, const LocalTensor<T> &sumTensor,
                        const LocalTensor<T> &maxTensor, const LocalTensor<T> &srcTensor,
                        const SoftMaxTiling &tiling);
template <typename T, bool isReuseSource = false, bool isBasicBlock = false,
          bool isDataFormatNZ = false>
__aicore__ void SoftMax(const LocalTensor<half> &dstTensor, const LocalTensor<float> &sumTensor,
                        const LocalTensor<float> &maxTensor, const LocalTensor<half> &srcTensor,
                        const SoftMaxTiling &tiling);
template <typename T, bool isReuseSource = false, bool isBasicBlock = false,
          bool isDataFormatNZ = false>
__aicore__ void SoftMax(const LocalTensor<T> &dstTensor, const LocalTensor<T> &sumTensor,
                        const LocalTensor<T> &maxTensor, const LocalTensor<T> &srcTensor,
                        const LocalTensor<uint8_t> &sharedTmpBuffer, const SoftMaxTiling &tiling);
template <typename T, bool isReuseSource = false, bool isBasicBlock = false,
          bool isDataFormatNZ = false>
__aicore__ void SoftMax(const LocalTensor<half> &dstTensor, const LocalTensor<float> &sumTensor,
                        const LocalTensor<float> &maxTensor, const LocalTensor<half> &srcTensor,
                        const LocalTensor<uint8_t> &sharedTmpBuffer, const SoftMaxTiling &tiling);

template <typename T, bool isBasicBlock = false>
__aicore__ void RmsNorm(const LocalTensor<T> &dstLocal, const LocalTensor<T> &srcLocal,
                        const LocalTensor<T> &gammaLocal,
                        const LocalTensor<uint8_t> &sharedTmpBuffer, const T epsilon,
                        const RmsNormTiling &tiling);
template <typename T, bool isBasicBlock = false>
__aicore__ void RmsNorm(const LocalTensor<T> &dstLocal, const LocalTensor<T> &srcLocal,
                        const LocalTensor<T> &gammaLocal, const T epsilon,
                        const RmsNormTiling &tiling);

template <typename T, bool isReuseSource = false>
__aicore__ void AscendQuant(const LocalTensor<int8_t> &dstTensor, const LocalTensor<T> &srcTensor,
                            const LocalTensor<uint8_t> &sharedTmpBuffer, const float scale,
                            const float offset, const uint32_t calCount);
template <typename T, bool isReuseSource = false>
__aicore__ void AscendQuant(const LocalTensor<int8_t> &dstTensor, const LocalTensor<T> &srcTensor,
                            const float scale, const float offset, const uint32_t calCount);

template <typename T>
__aicore__ void Concat(LocalTensor<T> &concatLocal, const LocalTensor<T> &srcLocal,
                       const LocalTensor<T> &tmpLocal, const int32_t repeatTime);
template <typename T>
__aicore__ void Extract(const LocalTensor<T> &dstValueLocal,
                        const LocalTensor<uint32_t> &dstIndexLocal,
                        const LocalTensor<T> &sortedLocal, const int32_t repeatTime);
/* cube unit (Ascend C's cube data movement, Mmad and Fixpipe, 220 series);
 * QuantMode_t is global, like pipe_t */
/* asc.adv.Matmul (Ascend C's high-level matmul, lib/matmul_intf.h) */
}  // namespace AscendC
enum class CubeFormat : uint8_t { ND, NZ };
enum class LayoutMode : uint8_t { NONE, BSNGD, SBNGD, BNGS1S2, NORMAL };
namespace AscendC {
template <TPosition POS, CubeFormat FMT, typename T, bool TRANS = false,
          LayoutMode LAYOUT = LayoutMode::NONE>
struct MatmulType {
  using Type = T;
};
struct MatrixOffset {
  int32_t offset;
  int32_t row, col;
  int32_t height, width;
};
template <class A, class B, class C, class BIAS = C>
class Matmul {
 public:
  template <typename T>
  __aicore__ void SetTensorA(const GlobalTensor<T> &gm, bool isTransposeA = false);
  template <typename T>
  __aicore__ void SetTensorA(const LocalTensor<T> &leftMatrix, bool isTransposeA = false);
  template <typename T>
  __aicore__ void SetTensorB(const GlobalTensor<T> &gm, bool isTransposeB = false);
  template <typename T>
  __aicore__ void SetTensorB(const LocalTensor<T> &rightMatrix, bool isTransposeB = false);
  template <typename T>
  __aicore__ void SetBias(const GlobalTensor<T> &biasGlobal);
  template <typename T>
  __aicore__ void SetBias(const LocalTensor<T> &inputBias);
  __aicore__ void SetOrgShape(int orgM, int orgN, int orgKa, int orgKb);
  __aicore__ void SetOrgShape(int orgM, int orgN, int orgKa, int orgKb, int orgKc);
  __aicore__ void SetTensorA(typename A::Type aScalar);
  __aicore__ void SetTensorB(typename B::Type bScalar);
  __aicore__ void SetSingleShape(int singleM, int singleN, int singleK);
  __aicore__ void SetTail(int tailM = -1, int tailN = -1, int tailK = -1);
  template <bool sync = true>
  __aicore__ bool Iterate(bool enPartialSum = false);
  template <bool sync = true, typename T>
  __aicore__ void GetTensorC(const GlobalTensor<T> &gm, uint8_t enAtomic = 0,
                             bool enSequentialWrite = false);
  template <bool sync = true, typename T>
  __aicore__ void GetTensorC(const LocalTensor<T> &co2Local, uint8_t enAtomic = 0,
                             bool enSequentialWrite = false);
  template <typename T>
  __aicore__ void GetTensorC(const GlobalTensor<T> &gm, const LocalTensor<T> &co2Local,
                             uint8_t enAtomic = 0, bool enSequentialWrite = false);
  template <bool sync = true, typename T>
  __aicore__ void IterateAll(const GlobalTensor<T> &gm, uint8_t enAtomic = 0,
                             bool enSequentialWrite = false, bool waitIterateAll = false,
                             bool fakeMsg = false);
  template <bool sync = true, typename T>
  __aicore__ void IterateAll(const LocalTensor<T> &ubCmatrix, uint8_t enAtomic = 0);
  __aicore__ void End();
  __aicore__ void DisableBias();
  __aicore__ void WaitIterateAll();
  __aicore__ void WaitGetTensorC();
  template <typename T>
  __aicore__ void AsyncGetTensorC(const LocalTensor<T> &c);
  template <typename T>
  __aicore__ void SetWorkspace(GlobalTensor<T> &addr);
  __aicore__ void SetHF32(bool enableHF32 = false, int32_t transMode = 0);
  __aicore__ void SetBatchNum(int32_t batchA, int32_t batchB);
  template <typename T>
  __aicore__ void IterateBatch(const GlobalTensor<T> &gm, uint32_t batchA, uint32_t batchB,
                               bool enSequentialWrite, const uint32_t matrixStrideA = 0,
                               const uint32_t matrixStrideB = 0, const uint32_t matrixStrideC = 0,
                               const bool enPartialSum = false, const uint8_t enAtomic = 0);
  template <typename T>
  __aicore__ void IterateBatch(const GlobalTensor<T> &gm, bool enPartialSum, uint8_t enAtomic,
                               bool enSequentialWrite, const uint32_t matrixStrideA = 0,
                               const uint32_t matrixStrideB = 0, const uint32_t matrixStrideC = 0);
  __aicore__ void WaitIterateBatch();
  __aicore__ MatrixOffset GetOffsetC();
  __aicore__ void IterateNBatch(const uint32_t batchLoop, uint32_t batchA, uint32_t batchB,
                                bool enSequentialWrite, const uint32_t matrixStrideA = 0,
                                const uint32_t matrixStrideB = 0, const uint32_t matrixStrideC = 0);
  template <typename T>
  __aicore__ void GetBatchTensorC(const LocalTensor<T> &c, uint32_t batchA, uint32_t batchB,
                                  bool enSequentialWrite = false);
  template <bool sync>
  __aicore__ GlobalTensor<typename C::Type> GetBatchTensorC(uint32_t batchA, uint32_t batchB,
                                                            bool enSequentialWrite = false);
  __aicore__ void SetQuantScalar(const uint64_t quantScalar);
  __aicore__ void SetQuantVector(const GlobalTensor<uint64_t> &quantTensor);
  __aicore__ void SetSelfDefineData(const uint64_t dataPtr);
  __aicore__ void SetUserDefInfo(const uint64_t tilingPtr);
  __aicore__ void SetSparseIndex(const GlobalTensor<uint8_t> &indexGlobal);
};
__aicore__ TPipe *GetTPipePtr();
__aicore__ GM_ADDR GetSysWorkSpacePtr();
template <uint8_t modeId, pipe_t pipe>
__aicore__ void CrossCoreSetFlag(uint16_t flagId);
template <uint8_t modeId, pipe_t pipe>
__aicore__ void CrossCoreWaitFlag(uint16_t flagId);
#define REGIST_MATMUL_OBJ(tpipe, workspace, ...) ((void)(tpipe), (void)(workspace))

}  // namespace AscendC
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
struct FixpipeConfig {
  bool isToUB;
};
constexpr FixpipeConfig CFG_ROW_MAJOR = {true};
constexpr FixpipeConfig CFG_NZ = {false};
struct LoadData2DParams {
  __aicore__ LoadData2DParams(const uint16_t startIndexIn, const uint8_t repeatTimesIn,
                              const uint16_t srcStrideIn, const uint8_t sidIn,
                              const uint16_t dstGapIn, const bool ifTransposeIn,
                              const uint8_t addrModeIn);
};
struct MmadParams {
  __aicore__ MmadParams(const uint16_t mIn, const uint16_t nIn, const uint16_t kIn,
                        const uint8_t unitFlagIn, const bool cmatrixSourceIn,
                        const bool cmatrixInitValIn);
};
struct FixpipeParamsV220 {
  __aicore__ FixpipeParamsV220(const uint16_t nSizeIn, const uint16_t mSizeIn,
                               const uint16_t srcStrideIn, const uint32_t dstStrideIn,
                               const bool reluEnIn);
  QuantMode_t quantPre;
  uint64_t deqScalar;
  uint16_t ndNum;
  uint16_t srcNdStride;
  uint16_t dstNdStride;
};
struct DataCopyCO12DstParams {
  __aicore__ DataCopyCO12DstParams(const uint16_t nSizeIn, const uint16_t mSizeIn,
                                   const uint32_t dstStrideIn, const uint16_t srcStrideIn,
                                   const QuantMode_t quantPreIn, const uint8_t reluPreIn,
                                   const bool channelSplitIn, const bool nz2ndEnIn);
};
template <typename T, typename U>
__aicore__ void DataCopy(const GlobalTensor<T> &dst, const LocalTensor<U> &src,
                         const DataCopyCO12DstParams &params);
template <typename T, typename U>
__aicore__ void DataCopy(const LocalTensor<T> &dst, const LocalTensor<U> &src,
                         const DataCopyCO12DstParams &params);
struct Nd2NzParams {
  __aicore__ Nd2NzParams(const uint16_t ndNumIn, const uint16_t nValueIn, const uint16_t dValueIn,
                         const uint16_t srcNdMatrixStrideIn, const uint16_t srcDValueIn,
                         const uint16_t dstNzC0StrideIn, const uint16_t dstNzNStrideIn,
                         const uint16_t dstNzMatrixStrideIn);
};
/* UB -> L1 (VECIN/VECOUT -> TSCM) through a GM workspace, ND to NZ */
template <typename T>
__aicore__ void DataCopyPad(const LocalTensor<T> &dst, const LocalTensor<T> &src,
                            const DataCopyExtParams &dataCopyParams,
                            const Nd2NzParams &nd2nzParams);
struct Nz2NdParamsFull {
  __aicore__ Nz2NdParamsFull(const uint16_t ndNumIn, const uint16_t nValueIn,
                             const uint16_t dValueIn, const uint16_t srcNdMatrixStrideIn,
                             const uint16_t srcNStrideIn, const uint16_t dstDStrideIn,
                             const uint16_t dstNdMatrixStrideIn);
};
template <typename T>
__aicore__ void LoadData(const LocalTensor<T> &dst, const LocalTensor<T> &src,
                         const LoadData2DParams &params);
template <typename T>
__aicore__ void LoadData(const LocalTensor<T> &dst, const GlobalTensor<T> &src,
                         const LoadData2DParams &params);
/* the img2col loads and LoadData2DParamsV2: aggregates, members in Ascend C's order */
template <typename T>
struct LoadData3DParamsV1 {
  uint8_t padList[4];
  uint16_t l1H, l1W, c1Index;
  uint8_t fetchFilterW, fetchFilterH;
  int16_t leftTopW, leftTopH;
  uint8_t strideW, strideH, filterW, filterH, dilationFilterW, dilationFilterH, jumpStride,
      repeatMode, repeatTime, cSize;
  T padValue;
};
template <typename T>
struct LoadData3DParamsV2 {
  uint8_t padList[4];
  uint16_t l1H, l1W, channelSize, kExtension, mExtension, kStartPt, mStartPt;
  uint8_t strideW, strideH, filterW, filterH, dilationFilterW, dilationFilterH;
  bool enTranspose;
  T padValue;
  bool filterSizeW, filterSizeH, fMatrixCtrl;
};
struct LoadData3DParamsV2Pro {
  uint16_t channelSize;
  bool enTranspose, enSmallK, filterSizeW, filterSizeH, fMatrixCtrl;
  uint64_t extConfig, filterConfig;
};
struct LoadData2DParamsV2 {
  uint32_t mStartPosition, kStartPosition;
  uint16_t mStep, kStep;
  int32_t srcStride;
  uint16_t dstStride;
  bool ifTranspose;
  uint8_t sid;
};
struct LoadDataRepeatParam {
  uint8_t repeatTime;
  uint16_t repeatStride;
  uint8_t repeatMode;
};
template <typename T>
__aicore__ void LoadData(const LocalTensor<T> &dst, const LocalTensor<T> &src,
                         const LoadData3DParamsV1<T> &params);
template <typename T>
__aicore__ void LoadData(const LocalTensor<T> &dst, const LocalTensor<T> &src,
                         const LoadData3DParamsV2<T> &params);
template <typename T>
__aicore__ void LoadData(const LocalTensor<T> &dst, const LocalTensor<T> &src,
                         const LoadData3DParamsV2Pro &params);
template <typename T>
__aicore__ void LoadData(const LocalTensor<T> &dst, const LocalTensor<T> &src,
                         const LoadData2DParamsV2 &params);
template <typename T>
__aicore__ void LoadData(const LocalTensor<T> &dst, const GlobalTensor<T> &src,
                         const LoadData2DParamsV2 &params);
__aicore__ void SetLoadDataBoundary(uint32_t boundaryValue);
template <typename T>
__aicore__ void SetLoadDataPaddingValue(const T padValue);
__aicore__ void SetLoadDataRepeat(const LoadDataRepeatParam &repeatParams);
template <typename T, typename U, typename S>
__aicore__ void Mmad(const LocalTensor<T> &dst, const LocalTensor<U> &fm,
                     const LocalTensor<S> &filter, const MmadParams &params);
template <typename T, typename U, typename S, typename B>
__aicore__ void Mmad(const LocalTensor<T> &dst, const LocalTensor<U> &fm,
                     const LocalTensor<S> &filter, const LocalTensor<B> &bias,
                     const MmadParams &params);
// 4:2 sparse matmul: int8 B2 with its uint8 index from B1, int32 results.
template <typename T = int8_t, typename U = uint8_t>
__aicore__ void LoadDataWithSparse(const LocalTensor<T> &dst, const LocalTensor<T> &src,
                                   const LocalTensor<U> &idx, const LoadData2DParams &params);
template <typename T = int32_t, typename U = int8_t>
__aicore__ void MmadWithSparse(const LocalTensor<T> &dst, const LocalTensor<U> &fm,
                               const LocalTensor<U> &filter, const MmadParams &params);
template <typename T, typename U, const FixpipeConfig &config>
__aicore__ void Fixpipe(const GlobalTensor<T> &dst, const LocalTensor<U> &src,
                        const FixpipeParamsV220 &params);
template <typename T, typename U, const FixpipeConfig &config>
__aicore__ void Fixpipe(const LocalTensor<T> &dst, const LocalTensor<U> &src,
                        const FixpipeParamsV220 &params);
// with the quant vector's workspace in L1 (cbufWorkspace)
template <typename T, typename U, const FixpipeConfig &config>
__aicore__ void Fixpipe(const GlobalTensor<T> &dst, const LocalTensor<U> &src,
                        const LocalTensor<uint64_t> &cbufWorkspace,
                        const FixpipeParamsV220 &params);
template <typename T, typename U, const FixpipeConfig &config>
__aicore__ void Fixpipe(const LocalTensor<T> &dst, const LocalTensor<U> &src,
                        const LocalTensor<uint64_t> &cbufWorkspace,
                        const FixpipeParamsV220 &params);
template <typename T>
__aicore__ void DataCopy(const LocalTensor<T> &dst, const GlobalTensor<T> &src,
                         const Nd2NzParams &params);
template <typename T>
__aicore__ void DataCopy(const LocalTensor<T> &dst, const LocalTensor<T> &src,
                         const Nd2NzParams &params);
template <typename T>
__aicore__ void DataCopy(const GlobalTensor<T> &dst, const LocalTensor<T> &src,
                         const Nz2NdParamsFull &params);

}  // namespace AscendC
