// Part of kernel_operator.h, included only from it: the DEQSCALE register and the dequantising
// vector forms (SetDeqScale, CastDeq, AddDeqRelu), the fused casts (AddReluCast, SubReluCast,
// MulCast), RepeatReduceSum, the mask forms of Gather and Scatter, the sorts over region
// proposals (Sort, MrgSort4, RpSort16, ProposalConcat/Extract) and their sizes, through the
// table's adv_more.

namespace AscendC {

// --- the DEQSCALE register ----------------------------------------------------------------

// 16 groups of (scale, offset, sign mode) for SetDeqScale's vector form.
struct VdeqInfo {
  VdeqInfo() = default;
  VdeqInfo(const float vdeqScaleIn[16], const int16_t vdeqOffsetIn[16],
           const bool vdeqSignModeIn[16]) {
    for (int i = 0; i < 16; ++i)
      vdeqScale[i] = vdeqScaleIn[i], vdeqOffset[i] = vdeqOffsetIn[i],
      vdeqSignMode[i] = vdeqSignModeIn[i];
  }
  float vdeqScale[16] = {0};
  int16_t vdeqOffset[16] = {0};
  bool vdeqSignMode[16] = {false};
};

// The scale rounded to half, offset 0, signed.
inline void SetDeqScale(half scale, sim::Loc loc = {}) {
  sim::adv_more(PYASC_SIM_ADV_SET_DEQ_HALF, nullptr, {}, loc, sim::to_double(scale));
}
// A float scale, the offset's low 9 bits, the sign mode.
inline void SetDeqScale(float scale, int16_t offset, bool signMode, sim::Loc loc = {}) {
  const int64_t v[2] = {offset, signMode};
  sim::adv_more(PYASC_SIM_ADV_SET_DEQ, v, {}, loc, scale);
}
// The 16 groups packed into vdeq (16 uint64 words) and loaded into the register.
template <typename T>
inline void SetDeqScale(const LocalTensor<T> &vdeq, const VdeqInfo &vdeqInfo, sim::Loc loc = {}) {
  int64_t v[48];
  for (int i = 0; i < 16; ++i) {
    v[i] = sim::bits_of(static_cast<double>(vdeqInfo.vdeqScale[i]));
    v[16 + i] = vdeqInfo.vdeqOffset[i];
    v[32 + i] = vdeqInfo.vdeqSignMode[i];
  }
  sim::adv_more(PYASC_SIM_ADV_SET_VDEQ, v, {vdeq.lt}, loc);
}

// --- CastDeq: int16 -> int8/uint8 (or int32 -> half) through DEQSCALE ---------------------

template <typename T, typename U, bool isVecDeq = true, bool halfBlock = true>
inline void CastDeq(const LocalTensor<T> &dst, const LocalTensor<U> &src, const uint32_t count,
                    sim::Loc loc = {}) {
  const int64_t v[6] = {sim::dtype<T>::code, sim::dtype<U>::code, isVecDeq, halfBlock, 0, count};
  sim::adv_more(PYASC_SIM_ADV_CAST_DEQ, v, {dst.lt, src.lt}, loc);
}
namespace sim {
template <typename T, typename U>
inline void cast_deq(const LocalTensor<T> &dst, const LocalTensor<U> &src, Mask m, bool setMask,
                     bool vec, bool half_block, uint8_t repeat, const UnaryRepeatParams &p,
                     Loc loc) {
  const int64_t v[14] = {dtype<T>::code,
                         dtype<U>::code,
                         vec,
                         half_block,
                         1,
                         static_cast<int64_t>(m.m0),
                         static_cast<int64_t>(m.m1),
                         repeat,
                         p.dstBlkStride,
                         p.srcBlkStride,
                         p.dstRepStride,
                         p.srcRepStride,
                         m.kind,
                         setMask};
  adv_more(PYASC_SIM_ADV_CAST_DEQ, v, {dst.lt, src.lt}, loc);
}
}  // namespace sim
template <typename T, typename U, bool isSetMask = true, bool isVecDeq = true,
          bool halfBlock = true>
inline void CastDeq(const LocalTensor<T> &dst, const LocalTensor<U> &src, const uint64_t mask[],
                    uint8_t repeatTime, const UnaryRepeatParams &repeatParams, sim::Loc loc = {}) {
  sim::cast_deq(dst, src, sim::mask_of(mask), isSetMask, isVecDeq, halfBlock, repeatTime,
                repeatParams, loc);
}
template <typename T, typename U, bool isSetMask = true, bool isVecDeq = true,
          bool halfBlock = true>
inline void CastDeq(const LocalTensor<T> &dst, const LocalTensor<U> &src, const int32_t mask,
                    uint8_t repeatTime, const UnaryRepeatParams &repeatParams, sim::Loc loc = {}) {
  sim::cast_deq(dst, src, sim::mask_of(static_cast<uint64_t>(mask)), isSetMask, isVecDeq, halfBlock,
                repeatTime, repeatParams, loc);
}

// --- AddDeqRelu and the fused casts: dst T from two sources U -----------------------------

namespace sim {
// which: -1 AddDeqRelu, 0 AddReluCast, 1 SubReluCast, 2 MulCast
template <typename T, typename U>
inline void fused(int which, const LocalTensor<T> &dst, const LocalTensor<U> &src0,
                  const LocalTensor<U> &src1, int64_t count, Loc loc) {
  const int64_t v[5] = {which, dtype<T>::code, dtype<U>::code, 0, count};
  adv_more(which < 0 ? PYASC_SIM_ADV_ADD_DEQ_RELU : PYASC_SIM_ADV_FCAST, v,
           {dst.lt, src0.lt, src1.lt}, loc);
}
template <typename T, typename U>
inline void fused(int which, const LocalTensor<T> &dst, const LocalTensor<U> &src0,
                  const LocalTensor<U> &src1, Mask m, bool setMask, uint8_t repeat,
                  const BinaryRepeatParams &p, Loc loc) {
  const int64_t v[15] = {which,
                         dtype<T>::code,
                         dtype<U>::code,
                         1,
                         static_cast<int64_t>(m.m0),
                         static_cast<int64_t>(m.m1),
                         repeat,
                         p.dstBlkStride,
                         p.src0BlkStride,
                         p.src1BlkStride,
                         p.dstRepStride,
                         p.src0RepStride,
                         p.src1RepStride,
                         m.kind,
                         setMask};
  adv_more(which < 0 ? PYASC_SIM_ADV_ADD_DEQ_RELU : PYASC_SIM_ADV_FCAST, v,
           {dst.lt, src0.lt, src1.lt}, loc);
}
}  // namespace sim

#define PYASC_SIM_FUSED(NAME, WHICH)                                                            \
  template <typename T, typename U>                                                             \
  inline void NAME(const LocalTensor<T> &dst, const LocalTensor<U> &src0,                       \
                   const LocalTensor<U> &src1, const int32_t &count, sim::Loc loc = {}) {       \
    sim::fused(WHICH, dst, src0, src1, count, loc);                                             \
  }                                                                                             \
  template <typename T, typename U, bool isSetMask = true>                                      \
  inline void NAME(const LocalTensor<T> &dst, const LocalTensor<U> &src0,                       \
                   const LocalTensor<U> &src1, uint64_t mask[], const uint8_t repeatTime,       \
                   const BinaryRepeatParams &repeatParams, sim::Loc loc = {}) {                 \
    sim::fused(WHICH, dst, src0, src1, sim::mask_of(mask), isSetMask, repeatTime, repeatParams, \
               loc);                                                                            \
  }                                                                                             \
  template <typename T, typename U, bool isSetMask = true>                                      \
  inline void NAME(const LocalTensor<T> &dst, const LocalTensor<U> &src0,                       \
                   const LocalTensor<U> &src1, uint64_t mask, const uint8_t repeatTime,         \
                   const BinaryRepeatParams &repeatParams, sim::Loc loc = {}) {                 \
    sim::fused(WHICH, dst, src0, src1, sim::mask_of(mask), isSetMask, repeatTime, repeatParams, \
               loc);                                                                            \
  }
PYASC_SIM_FUSED(AddDeqRelu, -1)
PYASC_SIM_FUSED(AddReluCast, 0)
PYASC_SIM_FUSED(SubReluCast, 1)
PYASC_SIM_FUSED(MulCast, 2)
#undef PYASC_SIM_FUSED

// --- RepeatReduceSum: WholeReduceSum with a continuous mask -------------------------------

template <typename T, bool isSetMask = true>
inline void RepeatReduceSum(const LocalTensor<T> &dst, const LocalTensor<T> &src,
                            const int32_t repeatTime, const int32_t mask,
                            const int32_t dstBlkStride, const int32_t srcBlkStride,
                            const int32_t dstRepStride, const int32_t srcRepStride,
                            sim::Loc loc = {}) {
  (void)dstBlkStride;  // one value per repeat: the destination has no blocks to stride
  const int64_t v[7] = {sim::dtype<T>::code, mask,         repeatTime, dstRepStride,
                        srcBlkStride,        srcRepStride, isSetMask};
  sim::adv_more(PYASC_SIM_ADV_REPEAT_REDUCE_SUM, v, {dst.lt, src.lt}, loc);
}

// --- Scatter, and the mask forms of Gather and Scatter ------------------------------------

// dst's element at byte dstBaseAddr + dstOffset[i] = src[i], for count elements.
template <typename T>
inline void Scatter(const LocalTensor<T> &dst, const LocalTensor<T> &src,
                    const LocalTensor<uint32_t> &dstOffset, const uint32_t dstBaseAddr,
                    const uint32_t count, sim::Loc loc = {}) {
  const int64_t v[11] = {1, 0, dstBaseAddr, count, 0, 0, 0, 0, sim::dtype<T>::code, 0, sizeof(T)};
  sim::adv_more(PYASC_SIM_ADV_GATHER_SCATTER, v, {dst.lt, src.lt, dstOffset.lt}, loc);
}
namespace sim {
template <typename T>
inline void gather_scatter(int scatter, const LocalTensor<T> &dst, const LocalTensor<T> &src,
                           const LocalTensor<uint32_t> &offset, uint32_t base, Mask m,
                           uint8_t repeat, int64_t stride, Loc loc) {
  const int64_t v[11] = {scatter,
                         1,
                         base,
                         static_cast<int64_t>(m.m0),
                         static_cast<int64_t>(m.m1),
                         repeat,
                         stride,
                         m.kind,
                         dtype<T>::code,
                         0,
                         sizeof(T)};
  adv_more(PYASC_SIM_ADV_GATHER_SCATTER, v, {dst.lt, src.lt, offset.lt}, loc);
}
}  // namespace sim
template <typename T>
inline void Gather(const LocalTensor<T> &dst, const LocalTensor<T> &src,
                   const LocalTensor<uint32_t> &srcOffset, const uint32_t srcBaseAddr,
                   const uint64_t mask[], const uint8_t repeatTime, const uint16_t dstRepStride,
                   sim::Loc loc = {}) {
  sim::gather_scatter(0, dst, src, srcOffset, srcBaseAddr, sim::mask_of(mask), repeatTime,
                      dstRepStride, loc);
}
template <typename T>
inline void Gather(const LocalTensor<T> &dst, const LocalTensor<T> &src,
                   const LocalTensor<uint32_t> &srcOffset, const uint32_t srcBaseAddr,
                   const uint64_t mask, const uint8_t repeatTime, const uint16_t dstRepStride,
                   sim::Loc loc = {}) {
  sim::gather_scatter(0, dst, src, srcOffset, srcBaseAddr, sim::mask_of(mask), repeatTime,
                      dstRepStride, loc);
}
template <typename T>
inline void Scatter(const LocalTensor<T> &dst, const LocalTensor<T> &src,
                    const LocalTensor<uint32_t> &dstOffset, const uint32_t dstBaseAddr,
                    const uint64_t mask[], const uint8_t repeatTime, const uint8_t srcRepStride,
                    sim::Loc loc = {}) {
  sim::gather_scatter(1, dst, src, dstOffset, dstBaseAddr, sim::mask_of(mask), repeatTime,
                      srcRepStride, loc);
}
template <typename T>
inline void Scatter(const LocalTensor<T> &dst, const LocalTensor<T> &src,
                    const LocalTensor<uint32_t> &dstOffset, const uint32_t dstBaseAddr,
                    const uint64_t mask, const uint8_t repeatTime, const uint8_t srcRepStride,
                    sim::Loc loc = {}) {
  sim::gather_scatter(1, dst, src, dstOffset, dstBaseAddr, sim::mask_of(mask), repeatTime,
                      srcRepStride, loc);
}

// --- sorts: Sort, MrgSort4, RpSort16, region proposals ------------------------------------

// Sort32 then merges (isFullSort) of the concatenated scores with their indices.
template <typename T, bool isFullSort>
inline void Sort(const LocalTensor<T> &dst, const LocalTensor<T> &concat,
                 const LocalTensor<uint32_t> &index, LocalTensor<T> &tmp, const int32_t repeatTime,
                 sim::Loc loc = {}) {
  const int64_t v[3] = {sim::dtype<T>::code, repeatTime, isFullSort};
  sim::adv_more(PYASC_SIM_ADV_SORT, v, {dst.lt, concat.lt, index.lt, tmp.lt}, loc);
}
// The region-proposal merge of up to 4 sorted queues.
template <typename T>
inline void MrgSort4(const LocalTensor<T> &dst, const MrgSortSrcList<T> &src,
                     const MrgSort4Info &params, sim::Loc loc = {}) {
  const int64_t v[8] = {sim::dtype<T>::code,      params.elementLengths[0],
                        params.elementLengths[1], params.elementLengths[2],
                        params.elementLengths[3], params.validBit,
                        params.repeatTimes,       params.ifExhaustedSuspension};
  sim::adv_more(PYASC_SIM_ADV_MRG_SORT4, v,
                {dst.lt, src.src1.lt, src.src2.lt, src.src3.lt, src.src4.lt}, loc);
}
// Each queue's element count consumed by the last merge (ifExhaustedSuspension).
inline void GetMrgSortResult(uint16_t &mrgSortList1, uint16_t &mrgSortList2, uint16_t &mrgSortList3,
                             uint16_t &mrgSortList4, sim::Loc loc = {}) {
  const int64_t v[1] = {sim::dtype<half>::code};
  int64_t out[4] = {0, 0, 0, 0};
  const pyasc_sim_lt none[1] = {{0, 0}};
  sim::check(sim::api()->adv_more(sim::ctx, PYASC_SIM_ADV_MRG_SORT_RESULT, v, none,
                                  pyasc_sim_gt{nullptr, 0, 0, -1, 0}, 0, out, loc.file, loc.line));
  mrgSortList1 = static_cast<uint16_t>(out[0]), mrgSortList2 = static_cast<uint16_t>(out[1]);
  mrgSortList3 = static_cast<uint16_t>(out[2]), mrgSortList4 = static_cast<uint16_t>(out[3]);
}
// 16 region proposals per repeat, sorted by score.
template <typename T>
inline void RpSort16(const LocalTensor<T> &dst, const LocalTensor<T> &src, const int32_t repeatTime,
                     sim::Loc loc = {}) {
  const int64_t v[2] = {sim::dtype<T>::code, repeatTime};
  sim::adv_more(PYASC_SIM_ADV_RP_SORT16, v, {dst.lt, src.lt}, loc);
}
// src's elements into (Concat) or out of (Extract) element modeNumber of each proposal.
template <typename T>
inline void ProposalConcat(const LocalTensor<T> &dst, const LocalTensor<T> &src,
                           const int32_t repeatTime, const int32_t modeNumber, sim::Loc loc = {}) {
  const int64_t v[4] = {sim::dtype<T>::code, 0, repeatTime, modeNumber};
  sim::adv_more(PYASC_SIM_ADV_PROPOSAL, v, {dst.lt, src.lt}, loc);
}
template <typename T>
inline void ProposalExtract(const LocalTensor<T> &dst, const LocalTensor<T> &src,
                            const int32_t repeatTime, const int32_t modeNumber, sim::Loc loc = {}) {
  const int64_t v[4] = {sim::dtype<T>::code, 1, repeatTime, modeNumber};
  sim::adv_more(PYASC_SIM_ADV_PROPOSAL, v, {dst.lt, src.lt}, loc);
}
// Elements of T that elemCount sort elements (8 bytes each) span.
template <typename T>
inline uint32_t GetSortLen(const uint32_t elemCount, sim::Loc loc = {}) {
  const int64_t v[2] = {sim::dtype<T>::code, elemCount};
  return static_cast<uint32_t>(sim::adv_more(PYASC_SIM_ADV_SORT_LEN, v, {}, loc));
}
template <typename T>
inline uint32_t GetSortOffset(const uint32_t elemOffset, sim::Loc loc = {}) {
  const int64_t v[2] = {sim::dtype<T>::code, elemOffset};
  return static_cast<uint32_t>(sim::adv_more(PYASC_SIM_ADV_SORT_OFFSET, v, {}, loc));
}

}  // namespace AscendC

// --- LocalTensor's buffer setters and user tags (declared in memory.h) ---------------------

namespace AscendC {

template <typename T>
void LocalTensor<T>::SetBufferLen(uint32_t dataLen, sim::Loc loc) {
  const int64_t v[2] = {dataLen, static_cast<int64_t>(sizeof(T))};
  int64_t out[4] = {0, 0, 0, 0};
  sim::check(sim::api()->adv_more(sim::ctx, PYASC_SIM_ADV_LOCAL_RESIZE, v, &lt,
                                  pyasc_sim_gt{nullptr, 0, 0, -1, 0}, 0, out, loc.file, loc.line));
  lt = pyasc_sim_lt{out[0], out[1]};
}
template <typename T>
template <typename T1>
void LocalTensor<T>::SetAddrWithOffset(LocalTensor<T1> &src, uint32_t offset, sim::Loc loc) {
  const int64_t v[3] = {offset, static_cast<int64_t>(sizeof(T1)), static_cast<int64_t>(sizeof(T))};
  int64_t out[4] = {0, 0, 0, 0};
  sim::check(sim::api()->adv_more(sim::ctx, PYASC_SIM_ADV_LOCAL_WITH_OFFSET, v, &src.lt,
                                  pyasc_sim_gt{nullptr, 0, 0, -1, 0}, 0, out, loc.file, loc.line));
  lt = pyasc_sim_lt{out[0], out[1]};
}
template <typename T>
void LocalTensor<T>::SetUserTag(const int32_t tag, sim::Loc loc) {
  const int64_t v[2] = {1, tag};
  sim::adv_more(PYASC_SIM_ADV_USER_TAG, v, {lt}, loc);
}
template <typename T>
int32_t LocalTensor<T>::GetUserTag(sim::Loc loc) const {
  const int64_t v[2] = {0, 0};
  return static_cast<int32_t>(sim::adv_more(PYASC_SIM_ADV_USER_TAG, v, {lt}, loc));
}

// --- TransDataTo5HD with the address lists in uint64 tensors; BilinearInterpolation -------

template <typename T>
inline void TransDataTo5HD(const LocalTensor<uint64_t> &dst, const LocalTensor<uint64_t> &src,
                           const TransDataTo5HDParams &nchwconvParams, sim::Loc loc = {}) {
  const int64_t v[6] = {nchwconvParams.repeatTimes,  nchwconvParams.dstRepStride,
                        nchwconvParams.srcRepStride, nchwconvParams.dstHighHalf,
                        nchwconvParams.srcHighHalf,  static_cast<int64_t>(sizeof(T))};
  sim::adv_more(PYASC_SIM_ADV_TRANS_5HD_TENSOR, v, {dst.lt, src.lt}, loc);
}

namespace sim {
template <typename T>
inline void bilinear(const LocalTensor<T> &dst, const LocalTensor<T> &src0,
                     const LocalTensor<uint32_t> &src0Offset, const LocalTensor<T> &src1, Mask m,
                     uint8_t hRepeat, bool repeatMode, uint16_t dstBlkStride, uint16_t vROffset,
                     uint8_t vRepeat, const LocalTensor<uint8_t> &tmp, Loc loc) {
  const int64_t v[8] = {static_cast<int64_t>(m.m0),
                        static_cast<int64_t>(m.m1),
                        hRepeat,
                        repeatMode,
                        dstBlkStride,
                        vROffset,
                        vRepeat,
                        m.kind};
  adv_more(PYASC_SIM_ADV_BILINEAR, v, {dst.lt, src0.lt, src0Offset.lt, src1.lt, tmp.lt}, loc);
}
}  // namespace sim
// Per repeat, src0's blocks picked by src0Offset, weighted by src1's elements and summed over
// vRepeat rows.
template <typename T>
inline void BilinearInterpolation(const LocalTensor<T> &dst, const LocalTensor<T> &src0,
                                  const LocalTensor<uint32_t> &src0Offset,
                                  const LocalTensor<T> &src1, uint64_t mask[], uint8_t hRepeat,
                                  bool repeatMode, uint16_t dstBlkStride, uint16_t vROffset,
                                  uint8_t vRepeat, const LocalTensor<uint8_t> &sharedTmpBuffer,
                                  sim::Loc loc = {}) {
  sim::bilinear(dst, src0, src0Offset, src1, sim::mask_of(mask), hRepeat, repeatMode, dstBlkStride,
                vROffset, vRepeat, sharedTmpBuffer, loc);
}
template <typename T>
inline void BilinearInterpolation(const LocalTensor<T> &dst, const LocalTensor<T> &src0,
                                  const LocalTensor<uint32_t> &src0Offset,
                                  const LocalTensor<T> &src1, uint64_t mask, uint8_t hRepeat,
                                  bool repeatMode, uint16_t dstBlkStride, uint16_t vROffset,
                                  uint8_t vRepeat, const LocalTensor<uint8_t> &sharedTmpBuffer,
                                  sim::Loc loc = {}) {
  sim::bilinear(dst, src0, src0Offset, src1, sim::mask_of(mask), hRepeat, repeatMode, dstBlkStride,
                vROffset, vRepeat, sharedTmpBuffer, loc);
}

}  // namespace AscendC
