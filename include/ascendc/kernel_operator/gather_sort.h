// Part of kernel_operator.h, included only from it: gathers (Gather, Gatherb, GatherMask), sorts
// (Sort32, MrgSort), transposes (Transpose, TransDataTo5HD) through the table's vec_more, and the
// newer names of older forms (Compares, ReduceRepeat, ReduceDataBlock, ReducePairElem).

namespace AscendC {

namespace sim {
// One vec_more call: the tensors t, the numbers v; the result (GatherMask's count) back.
inline int64_t vec_more(int op, const int64_t *v, std::initializer_list<pyasc_sim_lt> t, Loc loc,
                        pyasc_sim_gt g = {nullptr, 0, 0, -1, 0}) {
  int64_t out = 0;
  check(api()->vec_more(ctx, op, v, t.begin(), g, 0, &out, loc.file, loc.line));
  return out;
}
}  // namespace sim

// --- blocks in order through global memory (IBSet/IBWait, NotifyNextBlock/WaitPreBlock) -----

// Block blockIdx's flag eventID in the workspace: IBSet waits for it to be clear and sets it,
// IBWait waits for it to be set and clears it.
template <bool isAIVOnly = true>
inline void IBSet(const GlobalTensor<int32_t> &gmWorkspace, const LocalTensor<int32_t> &ubWorkspace,
                  int32_t blockIdx, int32_t eventID, sim::Loc loc = {}) {
  const int64_t v[3] = {blockIdx, eventID, isAIVOnly};
  sim::vec_more(PYASC_SIM_VEC_IB_SET, v, {ubWorkspace.lt}, loc, gmWorkspace.gt);
}
template <bool isAIVOnly = true>
inline void IBWait(const GlobalTensor<int32_t> &gmWorkspace,
                   const LocalTensor<int32_t> &ubWorkspace, int32_t blockIdx, int32_t eventID,
                   sim::Loc loc = {}) {
  const int64_t v[3] = {blockIdx, eventID, isAIVOnly};
  sim::vec_more(PYASC_SIM_VEC_IB_WAIT, v, {ubWorkspace.lt}, loc, gmWorkspace.gt);
}
// Blocks in turn: each waits for the previous one's notification, from a workspace that
// InitDetermineComputeWorkspace clears.
inline void InitDetermineComputeWorkspace(GlobalTensor<int32_t> &gmWorkspace,
                                          LocalTensor<int32_t> &ubWorkspace, sim::Loc loc = {}) {
  sim::vec_more(PYASC_SIM_VEC_INIT_DETERMINE, nullptr, {ubWorkspace.lt}, loc, gmWorkspace.gt);
}
inline void NotifyNextBlock(GlobalTensor<int32_t> &gmWorkspace, LocalTensor<int32_t> &ubWorkspace,
                            sim::Loc loc = {}) {
  sim::vec_more(PYASC_SIM_VEC_NOTIFY_NEXT_BLOCK, nullptr, {ubWorkspace.lt}, loc, gmWorkspace.gt);
}
inline void WaitPreBlock(GlobalTensor<int32_t> &gmWorkspace, LocalTensor<int32_t> &ubWorkspace,
                         sim::Loc loc = {}) {
  sim::vec_more(PYASC_SIM_VEC_WAIT_PRE_BLOCK, nullptr, {ubWorkspace.lt}, loc, gmWorkspace.gt);
}

// --- gathers --------------------------------------------------------------------------------

// dst[i] = src's element at byte srcBaseOffset + srcOffset[i], for count elements.
template <typename T>
inline void Gather(const LocalTensor<T> &dst, const LocalTensor<T> &src,
                   const LocalTensor<uint32_t> &srcOffset, const uint32_t srcBaseOffset,
                   const uint32_t count, sim::Loc loc = {}) {
  const int64_t v[3] = {srcBaseOffset, count, static_cast<int64_t>(sizeof(T))};
  sim::vec_more(PYASC_SIM_VEC_GATHER, v, {dst.lt, src.lt, srcOffset.lt}, loc);
}

struct GatherRepeatParams {
  GatherRepeatParams() = default;
  GatherRepeatParams(const uint8_t dstBlkStrideIn, const uint8_t dstRepStrideIn)
      : dstRepStride(dstRepStrideIn), dstBlkStride(dstBlkStrideIn) {}
  uint32_t blockNumber = 8;
  uint16_t dstRepStride = 8;
  uint8_t dstBlkStride = 1;
  uint8_t src0BlkStride = 1;
  uint8_t src1BlkStride = 1;
  uint8_t src0RepStride = 8;
  uint8_t src1RepStride = 8;
  bool repeatStrideMode = false;
  bool strideSizeMode = false;
};

// Per repeat, 8 data blocks of src picked by the byte offsets in offset.
template <typename T>
inline void Gatherb(const LocalTensor<T> &dst, const LocalTensor<T> &src,
                    const LocalTensor<uint32_t> &offset, const uint8_t repeatTime,
                    const GatherRepeatParams &repeatParams, sim::Loc loc = {}) {
  const int64_t v[4] = {repeatTime, repeatParams.dstBlkStride, repeatParams.dstRepStride,
                        sim::dtype<T>::code};
  sim::vec_more(PYASC_SIM_VEC_GATHERB, v, {dst.lt, src.lt, offset.lt}, loc);
}

enum class GatherMaskMode : uint8_t { VERSION_V1 = 0, VERSION_V2 = 1 };
constexpr GatherMaskMode defaultGatherMaskMode = GatherMaskMode::VERSION_V2;  // dav-2201's
constexpr GatherMaskMode defaultGahterMaskMode = defaultGatherMaskMode;       // CANN's old spelling

struct GatherMaskParams {
  GatherMaskParams() = default;
  GatherMaskParams(const uint8_t src0BlockStrideIn, const uint16_t repeatTimesIn,
                   const uint16_t src0RepeatStrideIn, const uint8_t src1RepeatStrideIn)
      : src0BlockStride(src0BlockStrideIn),
        repeatTimes(repeatTimesIn),
        src0RepeatStride(src0RepeatStrideIn),
        src1RepeatStride(src1RepeatStrideIn) {}
  uint8_t src0BlockStride = 1;
  uint16_t repeatTimes = 0;
  uint16_t src0RepeatStride = 8;
  uint8_t src1RepeatStride = 8;
};

namespace sim {
template <typename T>
inline void gather_mask(const LocalTensor<T> &dst, const LocalTensor<T> &src0, pyasc_sim_lt pat,
                        int64_t pattern, bool reduceMode, uint32_t mask, const GatherMaskParams &p,
                        uint64_t &rsvdCnt, Loc loc) {
  const int64_t v[8] = {pattern,
                        reduceMode,
                        mask,
                        p.src0BlockStride,
                        p.repeatTimes,
                        p.src0RepeatStride,
                        p.src1RepeatStride,
                        dtype<T>::code};
  rsvdCnt =
      static_cast<uint64_t>(vec_more(PYASC_SIM_VEC_GATHER_MASK, v, {dst.lt, src0.lt, pat}, loc));
}
}  // namespace sim

// The elements of src0 whose bit of the pattern is set, packed into dst; rsvdCnt their number.
template <typename T, typename U, GatherMaskMode mode = defaultGatherMaskMode>
inline void GatherMask(const LocalTensor<T> &dst, const LocalTensor<T> &src0,
                       const LocalTensor<U> &src1Pattern, const bool reduceMode,
                       const uint32_t mask, const GatherMaskParams &gatherMaskParams,
                       uint64_t &rsvdCnt, sim::Loc loc = {}) {
  static_assert(sizeof(U) == sizeof(T), "GatherMask: the pattern's elements are src0's size");
  sim::gather_mask(dst, src0, src1Pattern.lt, 0, reduceMode, mask, gatherMaskParams, rsvdCnt, loc);
}
// The built-in patterns 1 to 7 (every other element, every fourth...).
template <typename T, GatherMaskMode mode = defaultGatherMaskMode>
inline void GatherMask(const LocalTensor<T> &dst, const LocalTensor<T> &src0,
                       const uint8_t src1Pattern, const bool reduceMode, const uint32_t mask,
                       const GatherMaskParams &gatherMaskParams, uint64_t &rsvdCnt,
                       sim::Loc loc = {}) {
  sim::gather_mask(dst, src0, pyasc_sim_lt{0, 0}, src1Pattern, reduceMode, mask, gatherMaskParams,
                   rsvdCnt, loc);
}

// --- CreateVecIndex -----------------------------------------------------------------------

// dst[i] = firstValue + i for the first count elements.
template <typename T>
inline void CreateVecIndex(LocalTensor<T> dst, const T &firstValue, uint32_t count,
                           sim::Loc loc = {}) {
  const int64_t v[2] = {sim::dtype<T>::code, count};
  const pyasc_sim_lt t[1] = {dst.lt};
  int64_t out = 0;
  sim::check(sim::api()->vec_more(sim::ctx, PYASC_SIM_VEC_CREATE_VEC_INDEX, v, t,
                                  GlobalTensor<T>().gt, sim::to_double(firstValue), &out, loc.file,
                                  loc.line));
}

// --- sorts ----------------------------------------------------------------------------------

// Per repeat, 32 scores of src0 with their indices from src1, sorted descending into dst as
// (score, index) pairs.
template <typename T>
inline void Sort32(const LocalTensor<T> &dst, const LocalTensor<T> &src0,
                   const LocalTensor<uint32_t> &src1, const int32_t repeatTime, sim::Loc loc = {}) {
  const int64_t v[2] = {repeatTime, sim::dtype<T>::code};
  sim::vec_more(PYASC_SIM_VEC_SORT32, v, {dst.lt, src0.lt, src1.lt}, loc);
}

struct MrgSort4Info {
  MrgSort4Info() = default;
  MrgSort4Info(const uint16_t elementLengthsIn[4], const bool ifExhaustedSuspensionIn,
               const uint16_t validBitIn, const uint16_t repeatTimesIn)
      : ifExhaustedSuspension(ifExhaustedSuspensionIn),
        validBit(validBitIn),
        repeatTimes(static_cast<uint8_t>(repeatTimesIn)) {
    for (int i = 0; i < 4; ++i) elementLengths[i] = elementLengthsIn[i];
  }
  uint16_t elementLengths[4] = {0};
  bool ifExhaustedSuspension = false;
  uint16_t validBit = 0;
  uint8_t repeatTimes = 1;
};
template <typename T>
struct MrgSortSrcList {
  MrgSortSrcList() = default;
  MrgSortSrcList(const LocalTensor<T> &src1In, const LocalTensor<T> &src2In,
                 const LocalTensor<T> &src3In, const LocalTensor<T> &src4In)
      : src1(src1In[0]), src2(src2In[0]), src3(src3In[0]), src4(src4In[0]) {}
  LocalTensor<T> src1;
  LocalTensor<T> src2;
  LocalTensor<T> src3;
  LocalTensor<T> src4;
};

// Merges up to four sorted (score, index) lists (validBit: which of them) into dst.
template <typename T>
inline void MrgSort(const LocalTensor<T> &dst, const MrgSortSrcList<T> &src,
                    const MrgSort4Info &params, sim::Loc loc = {}) {
  const int64_t v[8] = {
      params.elementLengths[0],     params.elementLengths[1], params.elementLengths[2],
      params.elementLengths[3],     params.validBit,          params.repeatTimes,
      params.ifExhaustedSuspension, sim::dtype<T>::code};
  sim::vec_more(PYASC_SIM_VEC_MRG_SORT, v,
                {dst.lt, src.src1.lt, src.src2.lt, src.src3.lt, src.src4.lt}, loc);
}

// --- transposes -----------------------------------------------------------------------------

// A 16 x 16 matrix of 2-byte elements.
template <typename T>
inline void Transpose(const LocalTensor<T> &dst, const LocalTensor<T> &src, sim::Loc loc = {}) {
  const int64_t v[1] = {static_cast<int64_t>(sizeof(T))};
  sim::vec_more(PYASC_SIM_VEC_TRANSPOSE, v, {dst.lt, src.lt}, loc);
}

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
  constexpr TransposeParamsExt() = default;
  constexpr TransposeParamsExt(const uint16_t nSizeIn, const uint16_t cSizeIn,
                               const uint16_t hSizeIn, const uint16_t wSizeIn,
                               const TransposeType transposeTypeIn)
      : nSize(nSizeIn),
        cSize(cSizeIn),
        hSize(hSizeIn),
        wSize(wSizeIn),
        transposeType(transposeTypeIn) {}
  uint16_t nSize = 0;
  uint16_t cSize = 0;
  uint16_t hSize = 0;
  uint16_t wSize = 0;
  TransposeType transposeType = TransposeType::TRANSPOSE_ND2ND_B16;
};

// [H, W] -> [W, H] of 2-byte elements (ND2ND_B16), [N, C, H, W] <-> [N, H, W, C] (the runtime
// names any other type).
template <typename T>
inline void Transpose(const LocalTensor<T> &dst, const LocalTensor<T> &src,
                      const LocalTensor<uint8_t> &sharedTmpBuffer,
                      const TransposeParamsExt &transposeParams, sim::Loc loc = {}) {
  const int64_t v[6] = {transposeParams.nSize,
                        transposeParams.cSize,
                        transposeParams.hSize,
                        transposeParams.wSize,
                        static_cast<int64_t>(transposeParams.transposeType),
                        static_cast<int64_t>(sizeof(T))};
  sim::vec_more(PYASC_SIM_VEC_TRANSPOSE_EXT, v, {dst.lt, src.lt, sharedTmpBuffer.lt}, loc);
}

struct TransDataTo5HDParams {
  constexpr TransDataTo5HDParams() = default;
  constexpr TransDataTo5HDParams(const bool dstHighHalfIn, const bool srcHighHalfIn,
                                 const uint8_t repeatTimesIn, const uint16_t dstRepStrideIn,
                                 const uint16_t srcRepStrideIn)
      : dstHighHalf(dstHighHalfIn),
        srcHighHalf(srcHighHalfIn),
        repeatTimes(repeatTimesIn),
        dstRepStride(dstRepStrideIn),
        srcRepStride(srcRepStrideIn) {}
  bool dstHighHalf = false;
  bool srcHighHalf = false;
  uint8_t repeatTimes = 1;
  uint16_t dstRepStride = 0;
  uint16_t srcRepStride = 0;
};

// 16 rows of 16 tensors' 32-byte blocks transposed (NCHW -> NC1HWC0), by tensors or UB addresses.
template <typename T>
inline void TransDataTo5HD(const LocalTensor<T> (&dstList)[16], const LocalTensor<T> (&srcList)[16],
                           const TransDataTo5HDParams &nchwconvParams, sim::Loc loc = {}) {
  const int64_t v[6] = {nchwconvParams.dstHighHalf,  nchwconvParams.srcHighHalf,
                        nchwconvParams.repeatTimes,  nchwconvParams.dstRepStride,
                        nchwconvParams.srcRepStride, static_cast<int64_t>(sizeof(T))};
  pyasc_sim_lt t[32];
  for (int i = 0; i < 16; ++i) t[i] = dstList[i].lt, t[16 + i] = srcList[i].lt;
  int64_t out = 0;
  sim::check(sim::api()->vec_more(sim::ctx, PYASC_SIM_VEC_TRANS_5HD, v, t, pyasc_sim_gt{}, 0, &out,
                                  loc.file, loc.line));
}
template <typename T>
inline void TransDataTo5HD(uint64_t dstList[16], uint64_t srcList[16],
                           const TransDataTo5HDParams &nchwconvParams, sim::Loc loc = {}) {
  int64_t v[6 + 32] = {nchwconvParams.dstHighHalf,  nchwconvParams.srcHighHalf,
                       nchwconvParams.repeatTimes,  nchwconvParams.dstRepStride,
                       nchwconvParams.srcRepStride, static_cast<int64_t>(sizeof(T))};
  for (int i = 0; i < 16; ++i)
    v[6 + i] = static_cast<int64_t>(dstList[i]), v[22 + i] = static_cast<int64_t>(srcList[i]);
  sim::vec_more(PYASC_SIM_VEC_TRANS_5HD_AT, v, {}, loc);
}

// --- Compares (CompareScalar's newer name) ------------------------------------------------

template <typename T, typename U>
inline void Compares(const LocalTensor<U> &dst, const LocalTensor<T> &src0,
                     const sim::same_t<T> src1Scalar, CMPMODE cmpMode, uint32_t count,
                     sim::Loc loc = {}) {
  CompareScalar(dst, src0, src1Scalar, cmpMode, count, loc);
}
template <typename T, typename U, bool isSetMask = true>
inline void Compares(const LocalTensor<U> &dst, const LocalTensor<T> &src0,
                     const sim::same_t<T> src1Scalar, CMPMODE cmpMode, const uint64_t mask[],
                     uint8_t repeatTime, const UnaryRepeatParams &repeatParams, sim::Loc loc = {}) {
  CompareScalar<T, U, isSetMask>(dst, src0, src1Scalar, cmpMode, mask, repeatTime, repeatParams,
                                 loc);
}
template <typename T, typename U, bool isSetMask = true>
inline void Compares(const LocalTensor<U> &dst, const LocalTensor<T> &src0,
                     const sim::same_t<T> src1Scalar, CMPMODE cmpMode, const uint64_t mask,
                     uint8_t repeatTime, const UnaryRepeatParams &repeatParams, sim::Loc loc = {}) {
  CompareScalar<T, U, isSetMask>(dst, src0, src1Scalar, cmpMode, mask, repeatTime, repeatParams,
                                 loc);
}

// --- ReduceRepeat, ReduceDataBlock, ReducePairElem (WholeReduce*, BlockReduce*, PairReduceSum) -

enum class ReduceType { NONE = -1, SUM = 0, MAX, MIN };

namespace sim {
template <ReduceType reduceType, typename T, typename U, typename M>
inline void reduce_per(int shape, const LocalTensor<T> &dst, const LocalTensor<U> &src, M mask,
                       bool isSetMask, int32_t repeatTime, int32_t dstRepStride,
                       int32_t srcBlkStride, int32_t srcRepStride, ReduceOrder order, Loc loc) {
  static_assert(std::is_same_v<T, U>, "the simulator reduces into the source's type");
  static_assert(reduceType != ReduceType::NONE, "ReduceType::NONE names no reduction");
  constexpr int what = reduceType == ReduceType::SUM   ? PYASC_SIM_REDUCE_SUM
                       : reduceType == ReduceType::MAX ? PYASC_SIM_REDUCE_MAX
                                                       : PYASC_SIM_REDUCE_MIN;
  rrun(shape, what, dst, src, mask_of(mask), isSetMask, repeatTime, dstRepStride, srcBlkStride,
       srcRepStride, order, loc);
}
}  // namespace sim

// One result per repeat (WholeReduceSum/Max/Min).
template <ReduceType reduceType, typename T, typename U, bool isSetMask = true>
inline void ReduceRepeat(const LocalTensor<T> &dst, const LocalTensor<U> &src, const int32_t mask,
                         const int32_t repeatTime, const int32_t dstRepStride,
                         const int32_t srcBlkStride, const int32_t srcRepStride,
                         ReduceOrder order = ReduceOrder::ORDER_VALUE_INDEX, sim::Loc loc = {}) {
  sim::reduce_per<reduceType>(0, dst, src, mask, isSetMask, repeatTime, dstRepStride, srcBlkStride,
                              srcRepStride, order, loc);
}
template <ReduceType reduceType, typename T, typename U, bool isSetMask = true>
inline void ReduceRepeat(const LocalTensor<T> &dst, const LocalTensor<U> &src,
                         const uint64_t mask[], const int32_t repeatTime,
                         const int32_t dstRepStride, const int32_t srcBlkStride,
                         const int32_t srcRepStride,
                         ReduceOrder order = ReduceOrder::ORDER_VALUE_INDEX, sim::Loc loc = {}) {
  sim::reduce_per<reduceType>(0, dst, src, mask, isSetMask, repeatTime, dstRepStride, srcBlkStride,
                              srcRepStride, order, loc);
}
// One result per data block (BlockReduceSum/Max/Min).
template <ReduceType reduceType, typename T, typename U, bool isSetMask = true>
inline void ReduceDataBlock(const LocalTensor<T> &dst, const LocalTensor<U> &src,
                            const int32_t mask, const int32_t repeatTime,
                            const int32_t dstRepStride, const int32_t srcBlkStride,
                            const int32_t srcRepStride, sim::Loc loc = {}) {
  sim::reduce_per<reduceType>(1, dst, src, mask, isSetMask, repeatTime, dstRepStride, srcBlkStride,
                              srcRepStride, ReduceOrder::ORDER_VALUE_INDEX, loc);
}
template <ReduceType reduceType, typename T, typename U, bool isSetMask = true>
inline void ReduceDataBlock(const LocalTensor<T> &dst, const LocalTensor<U> &src,
                            const uint64_t mask[], const int32_t repeatTime,
                            const int32_t dstRepStride, const int32_t srcBlkStride,
                            const int32_t srcRepStride, sim::Loc loc = {}) {
  sim::reduce_per<reduceType>(1, dst, src, mask, isSetMask, repeatTime, dstRepStride, srcBlkStride,
                              srcRepStride, ReduceOrder::ORDER_VALUE_INDEX, loc);
}
// One result per pair of neighbours (PairReduceSum).
template <ReduceType reduceType, typename T, typename U, bool isSetMask = true>
inline void ReducePairElem(const LocalTensor<T> &dst, const LocalTensor<U> &src, const int32_t mask,
                           const int32_t repeatTime, const int32_t dstRepStride,
                           const int32_t srcBlkStride, const int32_t srcRepStride,
                           sim::Loc loc = {}) {
  sim::reduce_per<reduceType>(2, dst, src, mask, isSetMask, repeatTime, dstRepStride, srcBlkStride,
                              srcRepStride, ReduceOrder::ORDER_VALUE_INDEX, loc);
}
template <ReduceType reduceType, typename T, typename U, bool isSetMask = true>
inline void ReducePairElem(const LocalTensor<T> &dst, const LocalTensor<U> &src,
                           const uint64_t mask[], const int32_t repeatTime,
                           const int32_t dstRepStride, const int32_t srcBlkStride,
                           const int32_t srcRepStride, sim::Loc loc = {}) {
  sim::reduce_per<reduceType>(2, dst, src, mask, isSetMask, repeatTime, dstRepStride, srcBlkStride,
                              srcRepStride, ReduceOrder::ORDER_VALUE_INDEX, loc);
}

}  // namespace AscendC
