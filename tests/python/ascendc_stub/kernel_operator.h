// A stand-in for the CANN toolkit's kernel_operator.h, for tests only: it
// declares just what pyasc's Ascend C emitter (src/compiler/emit_ascendc.c)
// uses, with the names, template parameters and parameter lists of Huawei's
// Ascend C API reference (and docs/kernel-language.md), so that
// `g++ -std=c++17 -fsyntax-only` rejects a wrong name, a template argument
// in the wrong place or an argument list Ascend C has no overload for.
// Nothing is defined (so nothing is declared inline): this header cannot run
// a kernel.
#ifndef PYASC_TEST_KERNEL_OPERATOR_H
#define PYASC_TEST_KERNEL_OPERATOR_H

#include <cstdint>

// Address-space and kernel qualifiers of the bisheng compiler: no-ops here.
#define __global__
#define __aicore__
#define __gm__
#define GM_ADDR __gm__ uint8_t *

// The device's 16-bit floating types convert to and from float.
struct half {
  half(float value);
  operator float() const;
};
struct bfloat16_t {
  bfloat16_t(float value);
  operator float() const;
};

// The adv library's tiling structs: plain aggregates in the global
// namespace on the device (kernel_tiling/kernel_tiling.h), filled by the host.
struct TCubeTiling {
  int32_t usedCoreNum, M, N, Ka, Kb, singleCoreM, singleCoreN, singleCoreK, baseM, baseN, baseK,
      depthA1, depthB1, stepM, stepN, isBias, transLength, iterateOrder, shareMode, shareL1Size,
      shareL0CSize, shareUbSize, batchM, batchN, singleBatchM, singleBatchN, stepKa, stepKb,
      depthAL1CacheUB, depthBL1CacheUB, dbL0A, dbL0B, dbL0C, ALayoutInfoB, ALayoutInfoS,
      ALayoutInfoN, ALayoutInfoG, ALayoutInfoD, BLayoutInfoB, BLayoutInfoS, BLayoutInfoN,
      BLayoutInfoG, BLayoutInfoD, CLayoutInfoB, CLayoutInfoS1, CLayoutInfoN, CLayoutInfoG,
      CLayoutInfoS2, BatchNum;
};
struct SoftMaxTiling {
  uint32_t srcM, srcK, srcSize, outMaxM, outMaxK, outMaxSize, splitM, splitK, splitSize, reduceM,
      reduceK, reduceSize;
};
struct RmsNormTiling {
  uint32_t bLength, sLength, hLength, originalHLength;
  float reciprocalOfHLength;
  uint32_t mainBshLength, mainBsLength, mainBsLengthAlign, loopRound, inputTailPos, tailBshLength,
      tailBsLength;
};

enum pipe_t {
  PIPE_S,
  PIPE_V,
  PIPE_M,
  PIPE_MTE1,
  PIPE_MTE2,
  PIPE_MTE3,
  PIPE_ALL,
  PIPE_MTE4,
  PIPE_MTE5,
  PIPE_V2,
  PIPE_FIX
};

enum KernelTypeStub { KERNEL_TYPE_AIV_ONLY, KERNEL_TYPE_AIC_ONLY, KERNEL_TYPE_MIX_AIC_1_2 };

namespace AscendC {

enum class TPosition : uint8_t {
  GM,
  A1,
  A2,
  B1,
  B2,
  C1,
  C2,
  CO1,
  CO2,
  VECIN,
  VECOUT,
  VECCALC,
  LCM = VECCALC,
  SPM,
  SHM = SPM,
  TSCM
};

enum class HardEvent : uint8_t {
  MTE2_MTE1,
  MTE1_MTE2,
  MTE1_M,
  M_MTE1,
  MTE2_V,
  V_MTE2,
  MTE3_V,
  V_MTE3,
  M_V,
  V_M,
  V_V,
  MTE3_MTE1,
  MTE1_MTE3,
  MTE1_V,
  MTE2_M,
  M_MTE2,
  V_MTE1,
  M_FIX,
  FIX_M,
  MTE3_MTE2,
  MTE2_MTE3,
  S_V,
  V_S,
  S_MTE2,
  MTE2_S,
  S_MTE3,
  MTE3_S,
  MTE2_FIX,
  FIX_MTE2,
  FIX_S,
  M_S,
  FIX_MTE3,
  MTE1_FIX,
  FIX_MTE1,
  FIX_FIX
};

enum class RoundMode : uint8_t {
  CAST_NONE,
  CAST_RINT,
  CAST_FLOOR,
  CAST_CEIL,
  CAST_ROUND,
  CAST_TRUNC,
  CAST_ODD
};
enum class CMPMODE : uint8_t { LT, GT, EQ, LE, GE, NE };
enum class SELMODE : uint8_t { VSEL_CMPMASK_SPR, VSEL_TENSOR_SCALAR_MODE, VSEL_TENSOR_TENSOR_MODE };
enum class ReduceOrder : uint8_t {
  ORDER_VALUE_INDEX,
  ORDER_INDEX_VALUE,
  ORDER_ONLY_VALUE,
  ORDER_ONLY_INDEX
};
enum class MaskMode : uint8_t { NORMAL, COUNTER };

struct BinaryRepeatParams {
  __aicore__ BinaryRepeatParams();
  __aicore__ BinaryRepeatParams(const uint8_t dstBlkStrideIn, const uint8_t src0BlkStrideIn,
                                const uint8_t src1BlkStrideIn, const uint8_t dstRepStrideIn,
                                const uint8_t src0RepStrideIn, const uint8_t src1RepStrideIn);
};
struct UnaryRepeatParams {
  __aicore__ UnaryRepeatParams();
  __aicore__ UnaryRepeatParams(const uint16_t dstBlkStrideIn, const uint16_t srcBlkStrideIn,
                               const uint8_t dstRepStrideIn, const uint8_t srcRepStrideIn);
};
struct DataCopyParams {
  __aicore__ DataCopyParams();
  __aicore__ DataCopyParams(const uint16_t count, const uint16_t len, const uint16_t srcStrideIn,
                            const uint16_t dstStrideIn);
};
struct DataCopyExtParams {
  __aicore__ DataCopyExtParams();
  __aicore__ DataCopyExtParams(const uint16_t count, const uint32_t len, const uint32_t srcStrideIn,
                               const uint32_t dstStrideIn, const uint32_t rsvIn);
};
template <typename T>
struct DataCopyPadExtParams {
  __aicore__ DataCopyPadExtParams();
  __aicore__ DataCopyPadExtParams(const bool isPadValue, const uint8_t leftPadValue,
                                  const uint8_t rightPadValue, T padValue);
};

template <typename T>
class GlobalTensor {
 public:
  __aicore__ void SetGlobalBuffer(__gm__ T *buffer, uint64_t bufferSize);
  __aicore__ void SetGlobalBuffer(__gm__ T *buffer);
  __aicore__ GlobalTensor operator[](const uint64_t offset) const;
  __aicore__ T GetValue(const uint64_t offset) const;
  __aicore__ void SetValue(const uint64_t offset, T value);
  __aicore__ uint64_t GetSize() const;
  // fwk/core
  __aicore__ __gm__ T *GetPhyAddr() const;
  __aicore__ __gm__ T *GetPhyAddr(const uint64_t offset) const;
};

template <typename T>
class LocalTensor {
 public:
  __aicore__ LocalTensor();
  // static-tensor programming: addr in bytes, tileSize in elements
  __aicore__ LocalTensor(TPosition pos, uint32_t addr, uint32_t tileSize);
  __aicore__ LocalTensor operator[](const uint32_t offset) const;
  __aicore__ T GetValue(const uint32_t index) const;
  template <typename T1>
  __aicore__ void SetValue(const uint32_t index, const T1 value) const;
  __aicore__ uint32_t GetSize() const;
  __aicore__ uint32_t GetLength() const;
  __aicore__ int32_t GetPosition() const;
  __aicore__ uint64_t GetPhyAddr() const;
  __aicore__ uint64_t GetPhyAddr(const uint32_t offset) const;
  template <typename CAST_T>
  __aicore__ LocalTensor<CAST_T> ReinterpretCast() const;
  // fwk/core
  __aicore__ void SetSize(const uint32_t size);
  __aicore__ void SetBufferLen(uint32_t dataLen);
  template <typename T1>
  __aicore__ void SetAddrWithOffset(LocalTensor<T1> &src, uint32_t offset);
  __aicore__ void SetUserTag(const int32_t tag);
  __aicore__ int32_t GetUserTag() const;
};

template <TPosition pos, int32_t depth, auto mask = 0>
class TQue {
 public:
  template <typename T>
  __aicore__ LocalTensor<T> AllocTensor();
  template <typename T>
  __aicore__ void AllocTensor(LocalTensor<T> &tensor);  // in place (depth 0)
  template <typename T>
  __aicore__ bool EnQue(const LocalTensor<T> &tensor);
  template <typename T>
  __aicore__ LocalTensor<T> DeQue();
  template <typename T>
  __aicore__ void DeQue(LocalTensor<T> &tensor);  // in place (depth 0)
  template <typename T>
  __aicore__ void FreeTensor(LocalTensor<T> &tensor);
  __aicore__ bool HasTensorInQue();
  __aicore__ bool VacantInQue();
  // fwk/core
  __aicore__ int32_t GetTensorCountInQue();
  __aicore__ bool HasIdleBuffer();
  __aicore__ void FreeAllEvent();
};

template <TPosition pos = TPosition::LCM>
class TBuf {
 public:
  template <typename T>
  __aicore__ LocalTensor<T> Get();
  template <typename T>
  __aicore__ LocalTensor<T> Get(uint32_t len);
  template <typename T>
  __aicore__ LocalTensor<T> GetWithOffset(uint32_t size, uint32_t bufOffset);
  // from TQueBind: the whole buffer; FreeTensor releases nothing
  template <typename T>
  __aicore__ LocalTensor<T> AllocTensor();
  template <typename T>
  __aicore__ void FreeTensor(LocalTensor<T> &tensor);
};

class TPipe {
 public:
  template <class T>
  __aicore__ bool InitBuffer(T &que, uint8_t num, uint32_t len);
  template <TPosition pos>
  __aicore__ bool InitBuffer(TBuf<pos> &buf, uint32_t len);
  __aicore__ void Destroy();
  __aicore__ void Reset();
  __aicore__ void Init();
  template <HardEvent evt>
  __aicore__ int8_t AllocEventID();
  template <HardEvent evt>
  __aicore__ int8_t FetchEventID();
  template <HardEvent evt>
  __aicore__ void ReleaseEventID(int8_t id);
  // fwk/core
  template <class T>
  __aicore__ bool InitBufPool(T &bufPool, uint32_t len);
  template <class T, class U>
  __aicore__ bool InitBufPool(T &bufPool, uint32_t len, U &shareBuf);
};

// fwk/core: TQueBind, TBufPool, the atomic store mode, SetPadValue
template <TPosition src, TPosition dst, int32_t depth, auto mask = 0>
class TQueBind {
 public:
  template <typename T>
  __aicore__ LocalTensor<T> AllocTensor();
  template <typename T>
  __aicore__ void AllocTensor(LocalTensor<T> &tensor);  // in place (depth 0)
  template <typename T>
  __aicore__ bool EnQue(const LocalTensor<T> &tensor);
  template <typename T>
  __aicore__ LocalTensor<T> DeQue();
  template <typename T>
  __aicore__ void DeQue(LocalTensor<T> &tensor);  // in place (depth 0)
  template <typename T>
  __aicore__ void FreeTensor(LocalTensor<T> &tensor);
  __aicore__ bool HasTensorInQue();
  __aicore__ bool VacantInQue();
  __aicore__ int32_t GetTensorCountInQue();
  __aicore__ bool HasIdleBuffer();
  __aicore__ void FreeAllEvent();
};
template <TPosition pos, uint32_t bufIDSize = 4>
class TBufPool {
 public:
  template <class T>
  __aicore__ bool InitBuffer(T &que, uint8_t num, uint32_t len);
  template <TPosition bpos>
  __aicore__ bool InitBuffer(TBuf<bpos> &buf, uint32_t len);
  template <class T>
  __aicore__ bool InitBufPool(T &bufPool, uint32_t len);
  template <class T, class U>
  __aicore__ bool InitBufPool(T &bufPool, uint32_t len, U &shareBuf);
  __aicore__ void Reset();
};
enum class AtomicDtype : uint8_t {
  ATOMIC_NONE,
  ATOMIC_F32,
  ATOMIC_F16,
  ATOMIC_S16,
  ATOMIC_S32,
  ATOMIC_S8,
  ATOMIC_BF16
};
enum class AtomicOp : uint8_t { ATOMIC_SUM };
template <typename T>
__aicore__ void SetAtomicAdd();
template <typename T>
__aicore__ void SetAtomicMax();
template <typename T>
__aicore__ void SetAtomicMin();
template <typename T>
__aicore__ void SetAtomicType();
__aicore__ void SetAtomicNone();
template <AtomicDtype type, AtomicOp op>
__aicore__ void SetStoreAtomicConfig();
__aicore__ void GetStoreAtomicConfig(uint16_t &atomicType, uint16_t &atomicOp);
template <typename T>
__aicore__ void SetPadValue(T paddingValue);
template <typename T>
struct InitConstValueParams {
  __aicore__ InitConstValueParams(uint16_t repeatTimes, uint16_t blockNum, uint16_t dstGap,
                                  T initValue);
};
template <typename T, typename U>
__aicore__ void InitConstValue(const LocalTensor<T> &dst, const InitConstValueParams<U> &params);
template <bool isAIVOnly = true>
__aicore__ void SyncAll();
template <bool isAIVOnly = true>
__aicore__ void SyncAll(const GlobalTensor<int32_t> &gmWorkspace,
                        const LocalTensor<int32_t> &ubWorkspace, const int32_t usedCores = 0);

__aicore__ int64_t GetBlockIdx();
__aicore__ int64_t GetBlockNum();
__aicore__ int64_t GetSubBlockIdx();
__aicore__ int64_t GetSubBlockNum();
__aicore__ bool StubCoreIsAic();  // stands for the device's g_coreType
__aicore__ void SetHF32Mode(bool hf32Mode);
__aicore__ void SetHF32TransMode(bool hf32TransMode);
__aicore__ void SetMMLayoutTransform(bool mmLayoutMode);
#define ASCEND_IS_AIC (AscendC::StubCoreIsAic())
#define ASCEND_IS_AIV (!AscendC::StubCoreIsAic())
#define KERNEL_TASK_TYPE_DEFAULT(type) static_assert(type >= 0, "kernel type")
__aicore__ void Trap();

template <typename T>
__aicore__ void DataCopy(const LocalTensor<T> &dst, const GlobalTensor<T> &src,
                         const uint32_t count);
template <typename T>
__aicore__ void DataCopy(const GlobalTensor<T> &dst, const LocalTensor<T> &src,
                         const uint32_t count);
template <typename T>
__aicore__ void DataCopy(const LocalTensor<T> &dst, const LocalTensor<T> &src,
                         const uint32_t count);

template <typename T>
__aicore__ void DataCopy(const LocalTensor<T> &dst, const GlobalTensor<T> &src,
                         const DataCopyParams &repeatParams);
template <typename T>
__aicore__ void DataCopy(const GlobalTensor<T> &dst, const LocalTensor<T> &src,
                         const DataCopyParams &repeatParams);
template <typename T>
__aicore__ void DataCopy(const LocalTensor<T> &dst, const LocalTensor<T> &src,
                         const DataCopyParams &repeatParams);
template <typename T>
__aicore__ void DataCopyPad(const LocalTensor<T> &dst, const GlobalTensor<T> &src,
                            const DataCopyExtParams &dataCopyParams,
                            const DataCopyPadExtParams<T> &padParams);
template <typename T>
__aicore__ void DataCopyPad(const GlobalTensor<T> &dst, const LocalTensor<T> &src,
                            const DataCopyExtParams &dataCopyParams);

struct CopyRepeatParams {
  __aicore__ CopyRepeatParams();
  __aicore__ CopyRepeatParams(const uint16_t dstStrideIn, const uint16_t srcStrideIn,
                              uint16_t dstRepeatSizeIn, uint16_t srcRepeatSizeIn);
};
// Copy has mask forms only (no count form).
template <typename T, bool isSetMask = true>
__aicore__ void Copy(const LocalTensor<T> &dst, const LocalTensor<T> &src, const uint64_t mask[],
                     const uint8_t repeatTime, const CopyRepeatParams &repeatParams);
template <typename T, bool isSetMask = true>
__aicore__ void Copy(const LocalTensor<T> &dst, const LocalTensor<T> &src, const uint64_t mask,
                     const uint8_t repeatTime, const CopyRepeatParams &repeatParams);

template <typename T>
__aicore__ void Transpose(const LocalTensor<T> &dst, const LocalTensor<T> &src);
template <typename T>
__aicore__ void Gather(const LocalTensor<T> &dst, const LocalTensor<T> &src,
                       const LocalTensor<uint32_t> &srcOffset, const uint32_t srcBaseAddr,
                       const uint32_t count);
template <typename T>
__aicore__ void Scatter(const LocalTensor<T> &dst, const LocalTensor<T> &src,
                        const LocalTensor<uint32_t> &dstOffset, const uint32_t dstBaseAddr,
                        const uint32_t count);
// Gather / Scatter mask forms (bit-by-bit and continuous masks).
template <typename T>
__aicore__ void Gather(const LocalTensor<T> &dst, const LocalTensor<T> &src,
                       const LocalTensor<uint32_t> &srcOffset, const uint32_t srcBaseAddr,
                       const uint64_t mask[], const uint8_t repeatTime,
                       const uint16_t dstRepStride);
template <typename T>
__aicore__ void Gather(const LocalTensor<T> &dst, const LocalTensor<T> &src,
                       const LocalTensor<uint32_t> &srcOffset, const uint32_t srcBaseAddr,
                       const uint64_t mask, const uint8_t repeatTime, const uint16_t dstRepStride);
template <typename T>
__aicore__ void Scatter(const LocalTensor<T> &dst, const LocalTensor<T> &src,
                        const LocalTensor<uint32_t> &dstOffset, const uint32_t dstBaseAddr,
                        const uint64_t mask[], const uint8_t repeatTime,
                        const uint8_t srcRepStride);
template <typename T>
__aicore__ void Scatter(const LocalTensor<T> &dst, const LocalTensor<T> &src,
                        const LocalTensor<uint32_t> &dstOffset, const uint32_t dstBaseAddr,
                        const uint64_t mask, const uint8_t repeatTime, const uint8_t srcRepStride);
struct BrcbRepeatParams {
  __aicore__ BrcbRepeatParams();
  __aicore__ BrcbRepeatParams(const uint16_t dstBlkStrideIn, const uint16_t dstRepStrideIn);
};
template <typename T>
__aicore__ void Brcb(const LocalTensor<T> &dst, const LocalTensor<T> &src0,
                     const uint8_t repeatTime, const BrcbRepeatParams &repeatParams);

// Sorting (Atlas A2 (score, index) elements and region proposals).
template <typename T>
__aicore__ void Sort32(const LocalTensor<T> &dst, const LocalTensor<T> &src0,
                       const LocalTensor<uint32_t> &src1, const int32_t repeatTime);
template <typename T, bool isFullSort>
__aicore__ void Sort(const LocalTensor<T> &dst, const LocalTensor<T> &concat,
                     const LocalTensor<uint32_t> &index, LocalTensor<T> &tmp,
                     const int32_t repeatTime);
template <typename T>
struct MrgSortSrcList {
  __aicore__ MrgSortSrcList(const LocalTensor<T> &src1In, const LocalTensor<T> &src2In,
                            const LocalTensor<T> &src3In, const LocalTensor<T> &src4In);
};
struct MrgSort4Info {
  __aicore__ MrgSort4Info(const uint16_t elementLengthsIn[], const bool ifExhaustedSuspensionIn,
                          const uint16_t validBitIn, const uint16_t repeatTimesIn);
};
template <typename T>
__aicore__ void MrgSort(const LocalTensor<T> &dst, const MrgSortSrcList<T> &src,
                        const MrgSort4Info &params);
template <typename T>
__aicore__ void MrgSort4(const LocalTensor<T> &dst, const MrgSortSrcList<T> &src,
                         const MrgSort4Info &params);
__aicore__ void GetMrgSortResult(uint16_t &mrgSortList1, uint16_t &mrgSortList2,
                                 uint16_t &mrgSortList3, uint16_t &mrgSortList4);
template <typename T>
__aicore__ void RpSort16(const LocalTensor<T> &dst, const LocalTensor<T> &src,
                         const int32_t repeatTime);
template <typename T>
__aicore__ void ProposalConcat(const LocalTensor<T> &dst, const LocalTensor<T> &src,
                               const int32_t repeatTime, const int32_t modeNumber);
template <typename T>
__aicore__ void ProposalExtract(const LocalTensor<T> &dst, const LocalTensor<T> &src,
                                const int32_t repeatTime, const int32_t modeNumber);
template <typename T>
__aicore__ uint32_t GetSortLen(const uint32_t elemCount);
template <typename T>
__aicore__ uint32_t GetSortOffset(const uint32_t elemOffset);
// GatherMask, Gatherb and the CMPMASK register.
enum class GatherMaskMode { V1, V2 };
struct GatherMaskParams {
  __aicore__ GatherMaskParams(const uint8_t src0BlockStrideIn, const uint16_t repeatTimesIn,
                              const uint16_t src0RepeatStrideIn, const uint8_t src1RepeatStrideIn);
};
template <typename T, typename U>
__aicore__ void GatherMask(const LocalTensor<T> &dst, const LocalTensor<T> &src0,
                           const LocalTensor<U> &src1Pattern, const bool reduceMode,
                           const uint32_t mask, const GatherMaskParams &gatherMaskParams,
                           uint64_t &rsvdCnt);
template <typename T>
__aicore__ void GatherMask(const LocalTensor<T> &dst, const LocalTensor<T> &src0,
                           const uint8_t src1Pattern, const bool reduceMode, const uint32_t mask,
                           const GatherMaskParams &gatherMaskParams, uint64_t &rsvdCnt);
__aicore__ int64_t GetGatherMaskRemainCount();
struct GatherRepeatParams {
  __aicore__ GatherRepeatParams(const uint8_t dstBlkStrideIn, const uint8_t dstRepStrideIn);
};
template <typename T>
__aicore__ void Gatherb(const LocalTensor<T> &dst, const LocalTensor<T> &src0,
                        const LocalTensor<uint32_t> &offset, const uint8_t repeatTime,
                        const GatherRepeatParams &repeatParams);
template <typename T>
__aicore__ void SetCmpMask(const LocalTensor<T> &src);
template <typename T>
__aicore__ void GetCmpMask(const LocalTensor<T> &dst);
// Scalar bit operations.
__aicore__ int64_t ScalarCountLeadingZero(uint64_t valueIn);
template <int countValue>
__aicore__ int64_t ScalarGetCountOfValue(uint64_t valueIn);
template <int countValue>
__aicore__ int64_t ScalarGetSFFValue(uint64_t valueIn);
__aicore__ int64_t CountBitsCntSameAsSignBit(int64_t valueIn);
template <typename T, typename U, RoundMode roundMode>
__aicore__ U ScalarCast(T valueIn);
// The register forms of Compare (result in CMPMASK) and Select (mask from it).
template <typename T, bool isSetMask = true>
__aicore__ void Compare(const LocalTensor<T> &src0, const LocalTensor<T> &src1, CMPMODE cmpMode,
                        const uint64_t mask[], const BinaryRepeatParams &repeatParams);
template <typename T, bool isSetMask = true>
__aicore__ void Compare(const LocalTensor<T> &src0, const LocalTensor<T> &src1, CMPMODE cmpMode,
                        const uint64_t mask, const BinaryRepeatParams &repeatParams);
template <typename T, SELMODE selMode>
__aicore__ void Select(const LocalTensor<T> &dst, const LocalTensor<T> &src0,
                       const LocalTensor<T> &src1, uint8_t repeatTime,
                       const BinaryRepeatParams &repeatParams);
// Select's tensor-scalar mode without a mask (the scalar set by SetCmpMask).
template <typename T, typename U>
__aicore__ void Select(const LocalTensor<T> &dst, const LocalTensor<U> &selMask,
                       const LocalTensor<T> &src0, uint8_t repeatTime,
                       const BinaryRepeatParams &repeatParams);
// Fused casts (dst T narrower than the sources U) and RepeatReduceSum.
#define PYASC_STUB_FUSED_CAST(NAME)                                                           \
  template <typename T, typename U>                                                           \
  __aicore__ void NAME(const LocalTensor<T> &dst, const LocalTensor<U> &src0,                 \
                       const LocalTensor<U> &src1, const int32_t &count);                     \
  template <typename T, typename U, bool isSetMask = true>                                    \
  __aicore__ void NAME(const LocalTensor<T> &dst, const LocalTensor<U> &src0,                 \
                       const LocalTensor<U> &src1, uint64_t mask[], const uint8_t repeatTime, \
                       const BinaryRepeatParams &repeatParams);                               \
  template <typename T, typename U, bool isSetMask = true>                                    \
  __aicore__ void NAME(const LocalTensor<T> &dst, const LocalTensor<U> &src0,                 \
                       const LocalTensor<U> &src1, uint64_t mask, const uint8_t repeatTime,   \
                       const BinaryRepeatParams &repeatParams);
PYASC_STUB_FUSED_CAST(AddReluCast)
PYASC_STUB_FUSED_CAST(SubReluCast)
PYASC_STUB_FUSED_CAST(MulCast)
PYASC_STUB_FUSED_CAST(AddDeqRelu)
#undef PYASC_STUB_FUSED_CAST
// The DEQSCALE register and CastDeq (dst T, src U).
struct VdeqInfo {
  VdeqInfo(const float scale[16], const int16_t offset[16], const bool signMode[16]);
};
__aicore__ void SetDeqScale(half scale);
__aicore__ void SetDeqScale(float scale, int16_t offset, bool signMode);
template <typename T>
__aicore__ void SetDeqScale(const LocalTensor<T> &vdeq, const VdeqInfo &vdeqInfo);
__aicore__ void SetFixpipePreQuantFlag(uint64_t config);
struct LoadData2dTransposeParams {
  LoadData2dTransposeParams(uint16_t startIndex, uint8_t repeatTimes, uint16_t srcStride,
                            uint16_t dstGap, uint16_t dstFracGap, uint16_t addrMode);
};
template <typename T>
__aicore__ void LoadDataWithTranspose(const LocalTensor<T> &dst, const LocalTensor<T> &src,
                                      const LoadData2dTransposeParams &loadDataParams);
template <typename T, typename U, bool isVecDeq = true, bool halfBlock = true>
__aicore__ void CastDeq(const LocalTensor<T> &dst, const LocalTensor<U> &src, const uint32_t count);
template <typename T, typename U, bool isSetMask = true, bool isVecDeq = true,
          bool halfBlock = true>
__aicore__ void CastDeq(const LocalTensor<T> &dst, const LocalTensor<U> &src, const uint64_t mask[],
                        uint8_t repeatTime, const UnaryRepeatParams &repeatParams);
template <typename T, typename U, bool isSetMask = true, bool isVecDeq = true,
          bool halfBlock = true>
__aicore__ void CastDeq(const LocalTensor<T> &dst, const LocalTensor<U> &src, const int32_t mask,
                        uint8_t repeatTime, const UnaryRepeatParams &repeatParams);
template <typename T, bool isSetMask = true>
__aicore__ void RepeatReduceSum(const LocalTensor<T> &dst, const LocalTensor<T> &src,
                                const int32_t repeatTime, const int32_t mask,
                                const int32_t dstBlkStride, const int32_t srcBlkStride,
                                const int32_t dstRepStride, const int32_t srcRepStride);

template <typename T>
__aicore__ void Duplicate(const LocalTensor<T> &dst, const T &scalarValue, const int32_t &count);
template <typename T, bool isSetMask = true>
__aicore__ void Duplicate(const LocalTensor<T> &dst, const T &scalarValue, uint64_t mask[],
                          const uint8_t repeatTimes, const uint16_t dstBlockStride,
                          const uint8_t dstRepeatStride);
template <typename T, bool isSetMask = true>
__aicore__ void Duplicate(const LocalTensor<T> &dst, const T &scalarValue, uint64_t mask,
                          const uint8_t repeatTimes, const uint16_t dstBlockStride,
                          const uint8_t dstRepeatStride);

// Vector APIs: the count form and the two mask forms (bit mask, continuous mask).
#define PYASC_STUB_BINARY(NAME)                                                               \
  template <typename T>                                                                       \
  __aicore__ void NAME(const LocalTensor<T> &dst, const LocalTensor<T> &src0,                 \
                       const LocalTensor<T> &src1, const int32_t &count);                     \
  template <typename T, bool isSetMask = true>                                                \
  __aicore__ void NAME(const LocalTensor<T> &dst, const LocalTensor<T> &src0,                 \
                       const LocalTensor<T> &src1, uint64_t mask[], const uint8_t repeatTime, \
                       const BinaryRepeatParams &repeatParams);                               \
  template <typename T, bool isSetMask = true>                                                \
  __aicore__ void NAME(const LocalTensor<T> &dst, const LocalTensor<T> &src0,                 \
                       const LocalTensor<T> &src1, uint64_t mask, const uint8_t repeatTime,   \
                       const BinaryRepeatParams &repeatParams);
PYASC_STUB_BINARY(Add)
PYASC_STUB_BINARY(Sub)
PYASC_STUB_BINARY(Mul)
PYASC_STUB_BINARY(Div)
PYASC_STUB_BINARY(Max)
PYASC_STUB_BINARY(Min)
PYASC_STUB_BINARY(And)
PYASC_STUB_BINARY(Or)
PYASC_STUB_BINARY(FusedMulAdd)
PYASC_STUB_BINARY(MulAddDst)
PYASC_STUB_BINARY(AddRelu)
PYASC_STUB_BINARY(SubRelu)
PYASC_STUB_BINARY(FusedMulAddRelu)

#define PYASC_STUB_SCALAR(NAME)                                                                    \
  template <typename T, bool isSetMask = true>                                                     \
  __aicore__ void NAME(const LocalTensor<T> &dst, const LocalTensor<T> &src, const T &scalarValue, \
                       const int32_t &count);                                                      \
  template <typename T, bool isSetMask = true>                                                     \
  __aicore__ void NAME(const LocalTensor<T> &dst, const LocalTensor<T> &src, const T &scalarValue, \
                       uint64_t mask[], const uint8_t repeatTime,                                  \
                       const UnaryRepeatParams &repeatParams);                                     \
  template <typename T, bool isSetMask = true>                                                     \
  __aicore__ void NAME(const LocalTensor<T> &dst, const LocalTensor<T> &src, const T &scalarValue, \
                       uint64_t mask, const uint8_t repeatTime,                                    \
                       const UnaryRepeatParams &repeatParams);
PYASC_STUB_SCALAR(Adds)
PYASC_STUB_SCALAR(Muls)
PYASC_STUB_SCALAR(Maxs)
PYASC_STUB_SCALAR(Mins)
PYASC_STUB_SCALAR(LeakyRelu)
PYASC_STUB_SCALAR(ShiftLeft)
PYASC_STUB_SCALAR(ShiftRight)

#define PYASC_STUB_UNARY(NAME)                                                                \
  template <typename T>                                                                       \
  __aicore__ void NAME(const LocalTensor<T> &dst, const LocalTensor<T> &src,                  \
                       const int32_t &count);                                                 \
  template <typename T, bool isSetMask = true>                                                \
  __aicore__ void NAME(const LocalTensor<T> &dst, const LocalTensor<T> &src, uint64_t mask[], \
                       const uint8_t repeatTime, const UnaryRepeatParams &repeatParams);      \
  template <typename T, bool isSetMask = true>                                                \
  __aicore__ void NAME(const LocalTensor<T> &dst, const LocalTensor<T> &src, uint64_t mask,   \
                       const uint8_t repeatTime, const UnaryRepeatParams &repeatParams);
PYASC_STUB_UNARY(Exp)
PYASC_STUB_UNARY(Ln)
PYASC_STUB_UNARY(Abs)
PYASC_STUB_UNARY(Sqrt)
PYASC_STUB_UNARY(Rsqrt)
PYASC_STUB_UNARY(Reciprocal)
PYASC_STUB_UNARY(Relu)
PYASC_STUB_UNARY(Not)

// Axpy<dst T, src U>: the scalar has the source's type.
template <typename T, typename U>
__aicore__ void Axpy(const LocalTensor<T> &dst, const LocalTensor<U> &src, const U scalarValue,
                     const int32_t &count);
template <typename T, typename U, bool isSetMask = true>
__aicore__ void Axpy(const LocalTensor<T> &dst, const LocalTensor<U> &src, const U scalarValue,
                     uint64_t mask[], const uint8_t repeatTime,
                     const UnaryRepeatParams &repeatParams);
template <typename T, typename U, bool isSetMask = true>
__aicore__ void Axpy(const LocalTensor<T> &dst, const LocalTensor<U> &src, const U scalarValue,
                     uint64_t mask, const uint8_t repeatTime,
                     const UnaryRepeatParams &repeatParams);

// Cast<dst T, src U>
template <typename T, typename U>
__aicore__ void Cast(const LocalTensor<T> &dst, const LocalTensor<U> &src,
                     const RoundMode &roundMode, const uint32_t count);
template <typename T, typename U, bool isSetMask = true>
__aicore__ void Cast(const LocalTensor<T> &dst, const LocalTensor<U> &src,
                     const RoundMode &roundMode, const uint64_t mask[], const uint8_t repeatTime,
                     const UnaryRepeatParams &repeatParams);
template <typename T, typename U, bool isSetMask = true>
__aicore__ void Cast(const LocalTensor<T> &dst, const LocalTensor<U> &src,
                     const RoundMode &roundMode, const uint64_t mask, const uint8_t repeatTime,
                     const UnaryRepeatParams &repeatParams);

// Compare<src T, dst U>: one result bit per element.
template <typename T, typename U>
__aicore__ void Compare(const LocalTensor<U> &dst, const LocalTensor<T> &src0,
                        const LocalTensor<T> &src1, CMPMODE cmpMode, uint32_t count);
template <typename T, typename U, bool isSetMask = true>
__aicore__ void Compare(const LocalTensor<U> &dst, const LocalTensor<T> &src0,
                        const LocalTensor<T> &src1, CMPMODE cmpMode, const uint64_t mask[],
                        uint8_t repeatTime, const BinaryRepeatParams &repeatParams);
template <typename T, typename U, bool isSetMask = true>
__aicore__ void Compare(const LocalTensor<U> &dst, const LocalTensor<T> &src0,
                        const LocalTensor<T> &src1, CMPMODE cmpMode, const uint64_t mask,
                        uint8_t repeatTime, const BinaryRepeatParams &repeatParams);
template <typename T, typename U>
__aicore__ void CompareScalar(const LocalTensor<U> &dst, const LocalTensor<T> &src0,
                              const T src1Scalar, CMPMODE cmpMode, uint32_t count);
template <typename T, typename U, bool isSetMask = true>
__aicore__ void CompareScalar(const LocalTensor<U> &dst, const LocalTensor<T> &src0,
                              const T src1Scalar, CMPMODE cmpMode, const uint64_t mask[],
                              uint8_t repeatTime, const UnaryRepeatParams &repeatParams);
template <typename T, typename U, bool isSetMask = true>
__aicore__ void CompareScalar(const LocalTensor<U> &dst, const LocalTensor<T> &src0,
                              const T src1Scalar, CMPMODE cmpMode, const uint64_t mask,
                              uint8_t repeatTime, const UnaryRepeatParams &repeatParams);

// Select<T, mask U>: src1 a tensor or a scalar.
template <typename T, typename U>
__aicore__ void Select(const LocalTensor<T> &dst, const LocalTensor<U> &selMask,
                       const LocalTensor<T> &src0, const LocalTensor<T> &src1, SELMODE selMode,
                       uint32_t count);
template <typename T, typename U>
__aicore__ void Select(const LocalTensor<T> &dst, const LocalTensor<U> &selMask,
                       const LocalTensor<T> &src0, T src1, SELMODE selMode, uint32_t count);
template <typename T, typename U, bool isSetMask = true>
__aicore__ void Select(const LocalTensor<T> &dst, const LocalTensor<U> &selMask,
                       const LocalTensor<T> &src0, const LocalTensor<T> &src1, SELMODE selMode,
                       uint64_t mask[], uint8_t repeatTime, const BinaryRepeatParams &repeatParams);
template <typename T, typename U, bool isSetMask = true>
__aicore__ void Select(const LocalTensor<T> &dst, const LocalTensor<U> &selMask,
                       const LocalTensor<T> &src0, const LocalTensor<T> &src1, SELMODE selMode,
                       uint64_t mask, uint8_t repeatTime, const BinaryRepeatParams &repeatParams);
template <typename T, typename U, bool isSetMask = true>
__aicore__ void Select(const LocalTensor<T> &dst, const LocalTensor<U> &selMask,
                       const LocalTensor<T> &src0, T src1, SELMODE selMode, uint64_t mask[],
                       uint8_t repeatTime, const BinaryRepeatParams &repeatParams);
template <typename T, typename U, bool isSetMask = true>
__aicore__ void Select(const LocalTensor<T> &dst, const LocalTensor<U> &selMask,
                       const LocalTensor<T> &src0, T src1, SELMODE selMode, uint64_t mask,
                       uint8_t repeatTime, const BinaryRepeatParams &repeatParams);

// Reductions over the whole input: count form and mask forms.
#define PYASC_STUB_REDUCE(NAME, ...)                                                            \
  template <typename T>                                                                         \
  __aicore__ void NAME(const LocalTensor<T> &dst, const LocalTensor<T> &src,                    \
                       const LocalTensor<T> &sharedTmpBuffer, const int32_t count __VA_ARGS__); \
  template <typename T>                                                                         \
  __aicore__ void NAME(const LocalTensor<T> &dst, const LocalTensor<T> &src,                    \
                       const LocalTensor<T> &sharedTmpBuffer, uint64_t mask[],                  \
                       const int32_t repeatTime, const int32_t srcRepStride __VA_ARGS__);       \
  template <typename T>                                                                         \
  __aicore__ void NAME(const LocalTensor<T> &dst, const LocalTensor<T> &src,                    \
                       const LocalTensor<T> &sharedTmpBuffer, const int32_t mask,               \
                       const int32_t repeatTime, const int32_t srcRepStride __VA_ARGS__);
PYASC_STUB_REDUCE(ReduceSum)
PYASC_STUB_REDUCE(ReduceMax, , bool calIndex = 0)
PYASC_STUB_REDUCE(ReduceMin, , bool calIndex = 0)

// Per-repeat reductions: WholeReduce* take the mask before repeatTime,
// BlockReduce* and PairReduceSum after it.
#define PYASC_STUB_WHOLE(NAME, ...)                                                              \
  template <typename T, bool isSetMask = true>                                                   \
  __aicore__ void NAME(const LocalTensor<T> &dst, const LocalTensor<T> &src,                     \
                       const uint64_t mask[], const int32_t repeatTime,                          \
                       const int32_t dstRepStride, const int32_t srcBlkStride,                   \
                       const int32_t srcRepStride __VA_ARGS__);                                  \
  template <typename T, bool isSetMask = true>                                                   \
  __aicore__ void NAME(const LocalTensor<T> &dst, const LocalTensor<T> &src, const int32_t mask, \
                       const int32_t repeatTime, const int32_t dstRepStride,                     \
                       const int32_t srcBlkStride, const int32_t srcRepStride __VA_ARGS__);
PYASC_STUB_WHOLE(WholeReduceSum)
PYASC_STUB_WHOLE(WholeReduceMax, , ReduceOrder order = ReduceOrder::ORDER_VALUE_INDEX)
PYASC_STUB_WHOLE(WholeReduceMin, , ReduceOrder order = ReduceOrder::ORDER_VALUE_INDEX)
#define PYASC_STUB_BLOCK(NAME)                                                                   \
  template <typename T, bool isSetMask = true>                                                   \
  __aicore__ void NAME(const LocalTensor<T> &dst, const LocalTensor<T> &src,                     \
                       const int32_t repeatTime, const uint64_t mask[],                          \
                       const int32_t dstRepStride, const int32_t srcBlkStride,                   \
                       const int32_t srcRepStride);                                              \
  template <typename T, bool isSetMask = true>                                                   \
  __aicore__ void NAME(const LocalTensor<T> &dst, const LocalTensor<T> &src,                     \
                       const int32_t repeatTime, const int32_t mask, const int32_t dstRepStride, \
                       const int32_t srcBlkStride, const int32_t srcRepStride);
PYASC_STUB_BLOCK(BlockReduceSum)
PYASC_STUB_BLOCK(BlockReduceMax)
PYASC_STUB_BLOCK(BlockReduceMin)
PYASC_STUB_BLOCK(PairReduceSum)

// The vector mask register.
__aicore__ void SetMaskCount();
__aicore__ void SetMaskNorm();
__aicore__ void ResetMask();
template <typename T, MaskMode mode = MaskMode::NORMAL>
__aicore__ void SetVectorMask(const uint64_t maskHigh, const uint64_t maskLow);
template <typename T, MaskMode mode = MaskMode::NORMAL>
__aicore__ void SetVectorMask(int32_t len);

template <typename T>
__aicore__ void DumpTensor(const LocalTensor<T> &tensor, uint32_t desc, uint32_t dumpSize);
template <typename T>
__aicore__ void DumpTensor(const GlobalTensor<T> &tensor, uint32_t desc, uint32_t dumpSize);

template <HardEvent event>
__aicore__ void SetFlag(int32_t eventID);
template <HardEvent event>
__aicore__ void WaitFlag(int32_t eventID);
template <pipe_t pipe>
__aicore__ void PipeBarrier();

template <class... Args>
__aicore__ void printf(__gm__ const char *fmt, Args &&...args);

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
  __aicore__ bool Iterate(bool enPartialSum = false);
  template <typename T>
  __aicore__ void GetTensorC(const GlobalTensor<T> &gm, uint8_t enAtomic = 0,
                             bool enSequentialWrite = false);
  template <typename T>
  __aicore__ void GetTensorC(const LocalTensor<T> &co2Local, uint8_t enAtomic = 0,
                             bool enSequentialWrite = false);
  template <typename T>
  __aicore__ void GetTensorC(const GlobalTensor<T> &gm, const LocalTensor<T> &co2Local,
                             uint8_t enAtomic = 0, bool enSequentialWrite = false);
  template <typename T>
  __aicore__ void IterateAll(const GlobalTensor<T> &gm, uint8_t enAtomic = 0);
  template <typename T>
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
#define REGIST_MATMUL_OBJ(tpipe, workspace, mm, tiling) \
  ((void)(tpipe), (void)(workspace), (void)(tiling))

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

#endif
