// A stand-in for the CANN toolkit's kernel_operator.h, for tests only: it
// declares just what pyasc's Ascend C emitter (src/compiler/emit_ascendc.c)
// uses, with the names, template parameters and parameter lists of Huawei's
// Ascend C API reference (and docs/kernel-reference.md), so that
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
enum class CacheMode {
  CACHE_MODE_DISABLE = 0,
  CACHE_MODE_NORMAL = 1,
  CACHE_MODE_LAST = 2,
  CACHE_MODE_PERSISTENT = 4
};
enum class CacheRwMode { READ = 1, WRITE = 2, RW = 3 };

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
  template <CacheRwMode rwMode = CacheRwMode::RW>
  __aicore__ void SetL2CacheHint(CacheMode mode);
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
}  // namespace AscendC

// The rest of the API, in dependency order.
#include "kernel_operator_adv.h"

#include "kernel_operator_system.h"

#endif
