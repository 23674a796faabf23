// Part of the test stub kernel_operator.h, included only from it: system and hardware, tensor
// lists, layout, AIPP and slice copies.

// System and hardware (the "system and hardware" rows of api_table.def).
namespace AscendC {
enum class MemDsbT : uint8_t { ALL, DDR, UB, SEQ };
enum class CacheLine : uint64_t { SINGLE_CACHE_LINE, ENTIRE_DATA_CACHE };
enum class DcciDst : uint64_t { CACHELINE_ALL, CACHELINE_UB, CACHELINE_OUT, CACHELINE_ATOMIC };
struct CheckLocalMemoryIAParam {
  uint8_t enableBit;
  uint32_t startAddr;
  uint32_t endAddr;
  bool isScalarRead, isScalarWrite, isVectorRead, isVectorWrite, isMteRead, isMteWrite, isEnable;
};
__aicore__ int64_t GetSystemCycle();
__aicore__ int64_t GetProgramCounter();
__aicore__ void PrintTimeStamp(uint32_t descId);
template <MemDsbT arg0>
__aicore__ void DataSyncBarrier();
template <typename T, CacheLine entireType, DcciDst dcciDst>
__aicore__ void DataCacheCleanAndInvalid(const GlobalTensor<T> &dst);
template <typename T, CacheLine entireType, DcciDst dcciDst>
__aicore__ void DataCacheCleanAndInvalid(const LocalTensor<T> &dst);
template <typename T>
__aicore__ void DataCachePreload(const GlobalTensor<uint64_t> &src, const T cacheOffset);
__aicore__ void ICachePreLoad(const int64_t preFetchLen);
__aicore__ int64_t GetICachePreloadStatus();
__aicore__ void CheckLocalMemoryIA(const CheckLocalMemoryIAParam &checkParams);
template <typename T>
__aicore__ void DumpAccChkPoint(const LocalTensor<T> &tensor, uint32_t index, uint32_t countOff,
                                uint32_t dumpSize);
template <typename T>
__aicore__ void DumpAccChkPoint(const GlobalTensor<T> &tensor, uint32_t index, uint32_t countOff,
                                uint32_t dumpSize);
__aicore__ void MetricsProfStart();
__aicore__ void MetricsProfStop();
__aicore__ void InitSocState();
__aicore__ GM_ADDR GetSysWorkSpacePtr();
__aicore__ void SetSysWorkspace(GM_ADDR workspace);
__aicore__ int64_t GetTaskRatio();
__aicore__ void GetArchVersion(uint32_t &coreVersion);
template <uint32_t index>
__aicore__ GM_ADDR GetHcclContext(void);
template <uint32_t index>
__aicore__ void SetHcclContext(GM_ADDR context);
template <bool isAIVOnly = true>
__aicore__ void IBSet(const GlobalTensor<int32_t> &gmWorkspace,
                      const LocalTensor<int32_t> &ubWorkspace, int32_t blockIdx, int32_t eventID);
template <bool isAIVOnly = true>
__aicore__ void IBWait(const GlobalTensor<int32_t> &gmWorkspace,
                       const LocalTensor<int32_t> &ubWorkspace, int32_t blockIdx, int32_t eventID);
__aicore__ void NotifyNextBlock(GlobalTensor<int32_t> &gmWorkspace,
                                LocalTensor<int32_t> &ubWorkspace);
__aicore__ void WaitPreBlock(GlobalTensor<int32_t> &gmWorkspace, LocalTensor<int32_t> &ubWorkspace);

// Tensor lists (the "tensor lists" rows of api_table.def).
template <typename T>
class TensorDesc {
 public:
  __aicore__ void SetShapeAddr(uint64_t *shapePtr);
  __aicore__ uint64_t GetDim();
  __aicore__ uint64_t GetIndex();
  __aicore__ uint64_t GetShape(uint32_t offset);
  __aicore__ T *GetDataPtr();
  __aicore__ GlobalTensor<T> GetDataObj();
};
class ListTensorDesc {
 public:
  __aicore__ ListTensorDesc();
  __aicore__ ListTensorDesc(__gm__ void *data, uint32_t length = 0xffffffff,
                            uint32_t shapeSize = 0xffffffff);
  __aicore__ void Init(__gm__ void *data, uint32_t length = 0xffffffff,
                       uint32_t shapeSize = 0xffffffff);
  template <class T>
  __aicore__ void GetDesc(TensorDesc<T> &desc, uint32_t index);
  template <class T>
  __aicore__ __gm__ T *GetDataPtr(uint32_t index);
  __aicore__ uint32_t GetSize();
};

// Layout (the "layout" rows of api_table.def).
enum class TransposeType : uint8_t {
  TRANSPOSE_TYPE_NONE,
  TRANSPOSE_NZ2ND_0213,
  TRANSPOSE_NZ2NZ_0213,
  TRANSPOSE_NZ2NZ_012_WITH_N,
  TRANSPOSE_NZ2ND_012_WITH_N,
  TRANSPOSE_NZ2ND_012_WITHOUT_N,
  TRANSPOSE_NZ2NZ_012_WITHOUT_N,
  TRANSPOSE_ND2ND_ONLY,
  TRANSPOSE_ND_UB_GM,
  TRANSPOSE_GRAD_ND_UB_GM,
  TRANSPOSE_ND2ND_B16,
  TRANSPOSE_NCHW2NHWC,
  TRANSPOSE_NHWC2NCHW
};
struct TransposeParamsExt {
  uint16_t nSize, cSize, hSize, wSize;
  TransposeType transposeType;
};
struct TransDataTo5HDParams {
  TransDataTo5HDParams(bool dstHighHalf, bool srcHighHalf, uint8_t repeatTimes,
                       uint16_t dstRepStride, uint16_t srcRepStride);
};
template <typename T>
__aicore__ void Transpose(const LocalTensor<T> &dst, const LocalTensor<T> &src,
                          const LocalTensor<uint8_t> &sharedTmpBuffer,
                          const TransposeParamsExt &transposeParams);
template <typename T>
__aicore__ void BilinearInterpolation(const LocalTensor<T> &dst, const LocalTensor<T> &src0,
                                      const LocalTensor<uint32_t> &src0Offset,
                                      const LocalTensor<T> &src1, uint64_t mask[], uint8_t hRepeat,
                                      bool repeatMode, uint16_t dstBlkStride, uint16_t vROffset,
                                      uint8_t vRepeat, const LocalTensor<uint8_t> &sharedTmpBuffer);
template <typename T>
__aicore__ void BilinearInterpolation(const LocalTensor<T> &dst, const LocalTensor<T> &src0,
                                      const LocalTensor<uint32_t> &src0Offset,
                                      const LocalTensor<T> &src1, uint64_t mask, uint8_t hRepeat,
                                      bool repeatMode, uint16_t dstBlkStride, uint16_t vROffset,
                                      uint8_t vRepeat, const LocalTensor<uint8_t> &sharedTmpBuffer);
template <typename T>
__aicore__ void TransDataTo5HD(const LocalTensor<T> (&dstList)[16],
                               const LocalTensor<T> (&srcList)[16],
                               const TransDataTo5HDParams &nchwconvParams);
// the address forms: UB addresses in two uint64_t arrays or LocalTensor<uint64_t>
template <typename T>
__aicore__ void TransDataTo5HD(uint64_t dstList[16], uint64_t srcList[16],
                               const TransDataTo5HDParams &nchwconvParams);
template <typename T>
__aicore__ void TransDataTo5HD(const LocalTensor<uint64_t> &dst, const LocalTensor<uint64_t> &src,
                               const TransDataTo5HDParams &nchwconvParams);
}  // namespace AscendC

/* AIPP: SetAippFunctions, LoadImageToLocal */
namespace AscendC {
enum class AippInputFormat : uint8_t {
  YUV420SP_U8 = 0,
  XRGB8888_U8 = 1,
  RGB888_U8 = 4,
  YUV400_U8 = 9
};
template <typename U>
struct AippPaddingParams {
  uint32_t paddingMode;
  U paddingValueCh0 = 0, paddingValueCh1 = 0, paddingValueCh2 = 0, paddingValueCh3 = 0;
};
struct AippSwapParams {
  bool isSwapRB, isSwapUV, isSwapAX;
};
struct AippSingleLineParams {
  bool isSingleLineCopy;
};
struct AippDataTypeConvParams {
  uint8_t dtcMeanCh0, dtcMeanCh1, dtcMeanCh2;
  half dtcMinCh0 = 0.0f, dtcMinCh1 = 0.0f, dtcMinCh2 = 0.0f;
  half dtcVarCh0 = 1.0f, dtcVarCh1 = 1.0f, dtcVarCh2 = 1.0f;
  uint32_t dtcRoundMode;
};
template <typename U>
struct AippChannelPaddingParams {
  uint32_t cPaddingMode;
  U cPaddingValue = 0;
};
struct AippColorSpaceConvParams {
  bool isEnableCsc;
  int16_t cscMatrixR0C0, cscMatrixR0C1, cscMatrixR0C2, cscMatrixR1C0, cscMatrixR1C1, cscMatrixR1C2,
      cscMatrixR2C0, cscMatrixR2C1, cscMatrixR2C2;
  uint8_t cscBiasIn0, cscBiasIn1, cscBiasIn2, cscBiasOut0, cscBiasOut1, cscBiasOut2;
};
template <typename U>
struct AippParams {
  AippPaddingParams<U> paddingParams;
  AippSwapParams swapParams;
  AippSingleLineParams singleLineParams;
  AippDataTypeConvParams dtcParams;
  AippChannelPaddingParams<U> cPaddingParams;
  AippColorSpaceConvParams cscParams;
};
struct LoadImageToLocalParams {
  uint16_t horizSize, vertSize, horizStartPos, vertStartPos, srcHorizSize;
  uint8_t topPadSize, botPadSize, leftPadSize, rightPadSize, sid;
};
template <typename T, typename U>
__aicore__ void SetAippFunctions(const GlobalTensor<T> &src0, AippInputFormat format,
                                 AippParams<U> config);
template <typename T, typename U>
__aicore__ void SetAippFunctions(const GlobalTensor<T> &src0, const GlobalTensor<T> &src1,
                                 AippInputFormat format, AippParams<U> config);
template <typename T>
__aicore__ void LoadImageToLocal(const LocalTensor<T> &dst,
                                 const LoadImageToLocalParams &loadDataParams);
}  // namespace AscendC

/* DataCopy with SliceInfo lists */
namespace AscendC {
struct SliceInfo {
  __aicore__ SliceInfo(const uint32_t startIndexIn, const uint32_t endIndexIn,
                       const uint32_t strideIn, const uint32_t burstLenIn,
                       const uint32_t shapeValueIn);
};
template <typename T>
__aicore__ void DataCopy(const LocalTensor<T> &dst, const GlobalTensor<T> &src,
                         const SliceInfo dstSliceInfo[], const SliceInfo srcSliceInfo[],
                         const uint32_t dimValue = 1);
template <typename T>
__aicore__ void DataCopy(const GlobalTensor<T> &dst, const LocalTensor<T> &src,
                         const SliceInfo dstSliceInfo[], const SliceInfo srcSliceInfo[],
                         const uint32_t dimValue = 1);
}  // namespace AscendC
