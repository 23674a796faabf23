// Part of kernel_operator.h, included only from it: the adv library's TopK (the merge-sort
// algorithm, dav-2201's), built from the vector API in the order CANN's implementation issues
// its instructions, so that values, indices and ties come out as on the NPU: Sort32 sorts
// descending and keeps the earlier of equal scores first, so does MrgSort, and isLargest false
// sorts the negated source and negates the values back.
//
// TOPK_NORMAL, one row at a time: Sort32 of the row into the first half of the tmp buffer (a
// copy in the second), four-way MrgSorts between the halves while four lists fit the row,
// two-way MrgSorts (each list cut to k) of what is left, then GatherMask of the k values and
// indices into row j at j * kAlign (8 floats or 16 halves for values, 8 for indices); with
// isHasfinish, a row whose finish flag is set gets n for all its k indices. TOPK_NSMALL, rows of
// 32: one Sort32 of all rows, then GatherMask with the tiling's patterns packs each row's first
// k values and indices densely (row j at j * k).

#include "topk_tiling.h"

namespace AscendC {

struct TopKInfo {
  int32_t outter = 1;
  int32_t inner;  // the row: n aligned up to 32 elements
  int32_t n;      // the row's valid elements
};

namespace sim {
// GatherMask's built-in patterns 1..3 (CANN's REDUCEV2_MODE_ONE..THREE).
constexpr uint8_t TOPK_EVEN_ELEMENTS = 1;    // 0b0101...: scores of float sort elements
constexpr uint8_t TOPK_ODD_ELEMENTS = 2;     // 0b1010...: indices (as floats)
constexpr uint8_t TOPK_FIRST_OF_FOUR = 3;    // 0b0001...: scores of half sort elements
constexpr uint32_t TOPK_MRG_LISTS_MAX = 15;  // two-way merge lists: three a four-way level

template <typename T>
inline void topk_sort_row(const LocalTensor<T> &src, const LocalTensor<int32_t> &srcIndex,
                          const LocalTensor<T> &tmp, const TopkTiling &t, const TopKInfo &info,
                          bool isLargest, bool initIndex, int row, Loc loc) {
  const UnaryRepeatParams unary;
  LocalTensor<T> from = src[row * info.inner];
  if (!isLargest) {
    SetVectorMask<T, MaskMode::COUNTER>(0, info.inner, loc);
    Muls<T, false>(tmp[t.innerDataSize], from, T(-1), MASK_PLACEHOLDER, 1, unary, loc);
    PipeBarrier<PIPE_V>(loc);
    from = tmp[t.innerDataSize];
  }
  const LocalTensor<uint32_t> index =
      initIndex ? srcIndex.template ReinterpretCast<uint32_t>()
                : tmp[t.srcIndexOffset].template ReinterpretCast<uint32_t>();
  Sort32<T>(tmp, from, index, static_cast<int32_t>(t.sortRepeat), loc);
  PipeBarrier<PIPE_V>(loc);
  const DataCopyParams whole = {static_cast<uint16_t>(t.copyUbToUbBlockCount), 1, 0, 0};
  DataCopy(tmp[t.innerDataSize], tmp, whole, loc);
  PipeBarrier<PIPE_V>(loc);
}

// Four-way merges of lists of z (32, 128, ...) while four of them fit the row, ping-ponging
// between the halves (each result copied back over its source); z ends at the lists' length.
template <typename T>
inline void topk_merge_four(const LocalTensor<T> &tmp, const TopkTiling &t, const TopKInfo &info,
                            uint16_t &z, int32_t &merges, int32_t &dstHalf, Loc loc) {
  const uint16_t inner = static_cast<uint16_t>(info.inner);
  for (; z * 4 <= inner; z *= 4) {
    const LocalTensor<T> from = merges % 2 == 1 ? tmp[t.innerDataSize] : tmp[0];
    dstHalf = (merges + 1) % 2;
    const LocalTensor<T> to = dstHalf == 1 ? tmp[t.innerDataSize] : tmp[0];
    ++merges;
    const uint16_t lengths[4] = {z, z, z, z};
    const MrgSort4Info info4(lengths, false, 0b1111, static_cast<uint16_t>(t.mrgSortRepeat / z));
    const MrgSortSrcList<T> lists(from, from[z * t.mrgSortSrc1offset],
                                  from[z * t.mrgSortSrc2offset], from[z * t.mrgSortSrc3offset]);
    MrgSort<T>(to, lists, info4, loc);
    PipeBarrier<PIPE_V>(loc);
    const DataCopyParams whole = {static_cast<uint16_t>(t.copyUbToUbBlockCount), 1, 0, 0};
    DataCopy(from, to, whole, loc);
    PipeBarrier<PIPE_V>(loc);
  }
}

// The lists left after the four-way levels (as many of each length z, z / 4, ..., 32 as the row
// holds), merged two at a time into the running result, each cut to its first k.
template <typename T>
inline void topk_merge_two(const LocalTensor<T> &tmp, const TopkTiling &t, const TopKInfo &info,
                           uint16_t z, int32_t merges, int32_t &dstHalf, int32_t k, Loc loc) {
  if (z >= info.inner) return;
  int32_t lists[TOPK_MRG_LISTS_MAX] = {0};
  int32_t count = 0, left = info.inner;
  for (int32_t len = z; len >= 32; len /= 4) {
    int32_t c = 0;
    for (; c < left / len; ++c) lists[count++] = len;
    left -= c * len;
  }
  uint16_t merged = 0;
  for (int32_t i = 0; i + 1 < count; ++i) {
    const LocalTensor<T> from = (merges + i) % 2 == 1 ? tmp[t.innerDataSize] : tmp[0];
    dstHalf = (merges + 1 + i) % 2;
    const LocalTensor<T> to = dstHalf == 1 ? tmp[t.innerDataSize] : tmp[0];
    merged = static_cast<uint16_t>(merged + lists[i]);
    const uint16_t lengths[4] = {static_cast<uint16_t>(merged > k ? k : merged),
                                 static_cast<uint16_t>(lists[i + 1] > k ? k : lists[i + 1]), 0, 0};
    const MrgSort4Info info2(lengths, false, 0b0011, 1);
    const MrgSortSrcList<T> pair(from, from[merged * t.mrgSortTwoQueueSrc1Offset], from, from);
    MrgSort<T>(to, pair, info2, loc);
    PipeBarrier<PIPE_V>(loc);
  }
}

// Row j's k values and indices out of the merged sort elements in half dstHalf.
template <typename T>
inline void topk_gather_row(const LocalTensor<T> &dstValue, const LocalTensor<int32_t> &dstIndex,
                            const LocalTensor<T> &tmp, const TopkTiling &t, int32_t dstHalf,
                            int32_t indexAt, int row, Loc loc) {
  uint64_t kept = 0;
  const int32_t from = t.innerDataSize * dstHalf;
  const GatherMaskParams one(1, 1, 8, 1);
  if constexpr (sizeof(T) == sizeof(float)) {
    GatherMask<T>(dstValue[indexAt], tmp[from], TOPK_EVEN_ELEMENTS, true,
                  static_cast<uint32_t>(t.maskVreducev2FourBytes), one, kept, loc);
  } else {
    GatherMask<T>(dstValue[row * t.kAlignTwoBytes], tmp[from], TOPK_FIRST_OF_FOUR, true,
                  static_cast<uint32_t>(t.maskVreducev2TwoBytes), one, kept, loc);
  }
  PipeBarrier<PIPE_V>(loc);
  const LocalTensor<float> indexAsFloat = dstIndex[indexAt].template ReinterpretCast<float>();
  const LocalTensor<float> elems = tmp[from].template ReinterpretCast<float>();
  GatherMask<float>(indexAsFloat, elems, TOPK_ODD_ELEMENTS, true,
                    static_cast<uint32_t>(t.maskVreducev2FourBytes), one, kept, loc);
  PipeBarrier<PIPE_V>(loc);
  SetMaskCount();
}

template <typename T, bool isInitIndex, bool isHasfinish>
inline void topk_normal_rows(const LocalTensor<T> &dstValue, const LocalTensor<int32_t> &dstIndex,
                             const LocalTensor<T> &src, const LocalTensor<int32_t> &srcIndex,
                             const LocalTensor<bool> &finish, const LocalTensor<T> &tmp, int32_t k,
                             const TopkTiling &t, const TopKInfo &info, bool isLargest, Loc loc) {
  for (int row = 0; row < info.outter; ++row) {
    const int32_t indexAt = row * t.kAlignFourBytes;
    topk_sort_row<T>(src, srcIndex, tmp, t, info, isLargest, isInitIndex, row, loc);
    int32_t merges = 0, dstHalf = 0;
    uint16_t z = 32;
    topk_merge_four<T>(tmp, t, info, z, merges, dstHalf, loc);
    topk_merge_two<T>(tmp, t, info, z, merges, dstHalf, k, loc);
    topk_gather_row<T>(dstValue, dstIndex, tmp, t, dstHalf, indexAt, row, loc);
    if constexpr (isHasfinish) {
      const bool done = finish.GetValue(static_cast<uint32_t>(row), loc);
      const auto ev = GetTPipePtr()->FetchEventID(HardEvent::S_V, loc);
      SetFlag<HardEvent::S_V>(ev, loc);
      WaitFlag<HardEvent::S_V>(ev, loc);
      if (done) {
        SetVectorMask<T, MaskMode::COUNTER>(0, k, loc);
        Duplicate<int32_t, false>(dstIndex[indexAt], static_cast<int32_t>(info.n), MASK_PLACEHOLDER,
                                  1, 1, 8, loc);
      }
    }
    PipeBarrier<PIPE_V>(loc);
  }
}

// NSMALL: the patterns written into the tmp buffer by the scalar unit, then one GatherMask per
// output over all rows (a row a repeat, the pattern reused).
inline void topk_nsmall_pick(const LocalTensor<float> &dstValue,
                             const LocalTensor<int32_t> &dstIndex, const LocalTensor<float> &tmp,
                             const TopkTiling &t, const TopKInfo &info, Loc loc) {
  LocalTensor<uint32_t> pattern = tmp[t.topkMrgSrc1MaskSizeOffset].ReinterpretCast<uint32_t>();
  auto ev = GetTPipePtr()->FetchEventID(HardEvent::V_S, loc);
  SetFlag<HardEvent::V_S>(ev, loc);
  WaitFlag<HardEvent::V_S>(ev, loc);
  pattern.SetSize(10);
  pattern.SetValue(0, t.vreduceValMask0, loc);
  pattern.SetValue(1, t.vreduceValMask1, loc);
  pattern.SetValue(8, t.vreduceIdxMask0, loc);
  pattern.SetValue(9, t.vreduceIdxMask1, loc);
  ev = GetTPipePtr()->FetchEventID(HardEvent::S_V, loc);
  SetFlag<HardEvent::S_V>(ev, loc);
  WaitFlag<HardEvent::S_V>(ev, loc);
  const GatherMaskParams rows(1, static_cast<uint16_t>(info.outter), 8, 0);
  uint64_t kept = 0;
  GatherMask<float, uint32_t>(dstValue, tmp, pattern, true, 64, rows, kept, loc);
  const LocalTensor<float> indexAsFloat = dstIndex.ReinterpretCast<float>();
  GatherMask<float, uint32_t>(indexAsFloat, tmp,
                              tmp[t.topkMrgSrc1MaskSizeOffset + 8].ReinterpretCast<uint32_t>(),
                              true, 64, rows, kept, loc);
  PipeBarrier<PIPE_V>(loc);
}
inline void topk_nsmall_pick(const LocalTensor<half> &dstValue,
                             const LocalTensor<int32_t> &dstIndex, const LocalTensor<half> &tmp,
                             const TopkTiling &t, const TopKInfo &info, Loc loc) {
  LocalTensor<uint16_t> pattern = tmp[t.topkMrgSrc1MaskSizeOffset].ReinterpretCast<uint16_t>();
  auto ev = GetTPipePtr()->FetchEventID(HardEvent::V_S, loc);
  SetFlag<HardEvent::V_S>(ev, loc);
  WaitFlag<HardEvent::V_S>(ev, loc);
  pattern.SetSize(8);
  const uint16_t masks[8] = {t.vreducehalfValMask0, t.vreducehalfValMask1, t.vreducehalfValMask2,
                             t.vreducehalfValMask3, t.vreducehalfValMask4, t.vreducehalfValMask5,
                             t.vreducehalfValMask6, t.vreducehalfValMask7};
  for (uint32_t i = 0; i < 8; ++i) pattern.SetValue(i, masks[i], loc);
  LocalTensor<uint32_t> indexPattern =
      tmp[t.topkMrgSrc1MaskSizeOffset + 16].ReinterpretCast<uint32_t>();
  indexPattern.SetSize(2);
  indexPattern.SetValue(0, t.vreduceIdxMask0, loc);
  indexPattern.SetValue(1, t.vreduceIdxMask1, loc);
  ev = GetTPipePtr()->FetchEventID(HardEvent::S_V, loc);
  SetFlag<HardEvent::S_V>(ev, loc);
  WaitFlag<HardEvent::S_V>(ev, loc);
  const GatherMaskParams rows(1, static_cast<uint16_t>(info.outter), 8, 0);
  uint64_t kept = 0;
  GatherMask<half, uint16_t>(dstValue, tmp, pattern, true, 128, rows, kept, loc);
  PipeBarrier<PIPE_V>(loc);
  const LocalTensor<float> indexAsFloat = dstIndex.ReinterpretCast<float>();
  const LocalTensor<float> elems = tmp.ReinterpretCast<float>();
  GatherMask<float, uint32_t>(
      indexAsFloat, elems,
      elems[(t.topkMrgSrc1MaskSizeOffset + 16) / 2].ReinterpretCast<uint32_t>(), true, 64, rows,
      kept, loc);
  PipeBarrier<PIPE_V>(loc);
}

// What CANN's CPU-debug build asserts of a TopK call (its kernel API check), checked mode only;
// a tiling never filled in or a tmp buffer under the tiling's size fail always.
template <typename T, bool isInitIndex, bool isHasfinish, TopKMode mode>
inline bool topk_check(const LocalTensor<T> &dstValue, const LocalTensor<int32_t> &dstIndex,
                       const LocalTensor<T> &src, const LocalTensor<int32_t> &srcIndex,
                       const LocalTensor<bool> &finish, const LocalTensor<uint8_t> &tmp, int32_t k,
                       const TopkTiling &t, const TopKInfo &info, Loc loc) {
  if (t.tmpLocalSize <= 0) fail_at("TopK: the tiling is empty (was TopKTilingFunc called?)", loc);
  if (static_cast<uint64_t>(tmp.GetSize()) < static_cast<uint64_t>(t.tmpLocalSize) * sizeof(T))
    fail_at(
        "TopK: the shared tmp buffer holds less than the tiling's tmpLocalSize "
        "(GetTopKMaxMinTmpSize's bytes)",
        loc);
  const int64_t all = static_cast<int64_t>(info.inner) * info.outter;
  bool ok = expect_checked(k >= 1 && k <= info.n, loc, "TopK: k must be in [1, topKInfo.n]") &&
            expect_checked(info.n >= 1 && info.n <= info.inner, loc,
                           "TopK: topKInfo.n must be in [1, topKInfo.inner]") &&
            expect_checked(info.inner > 0 && info.inner % 32 == 0, loc,
                           "TopK: topKInfo.inner must be a positive multiple of 32") &&
            expect_checked(info.outter >= 1, loc, "TopK: topKInfo.outter must be positive") &&
            expect_checked(src.GetSize() >= all, loc,
                           "TopK: srcLocal holds less than topKInfo.inner * topKInfo.outter");
  if (!ok) return false;
  if constexpr (mode == TopKMode::TOPK_NORMAL) {
    const int64_t kv = (k + 32 / sizeof(T) - 1) / (32 / sizeof(T)) * (32 / sizeof(T));
    const int64_t ki = (k + 7) / 8 * 8;
    ok = expect_checked(info.inner <= 4096, loc,
                        "TopK: topKInfo.inner must be at most 4096 in TOPK_NORMAL mode") &&
         expect_checked(srcIndex.GetSize() >= info.inner, loc,
                        "TopK: srcIndexLocal holds less than topKInfo.inner") &&
         expect_checked(!isHasfinish || finish.GetSize() >= info.outter, loc,
                        "TopK: finishLocal holds less than topKInfo.outter") &&
         expect_checked(dstValue.GetSize() >= kv * info.outter, loc,
                        "TopK: dstValueLocal holds less than k (aligned to 32 bytes) * outter") &&
         expect_checked(dstIndex.GetSize() >= ki * info.outter, loc,
                        "TopK: dstIndexLocal holds less than k (aligned to 8) * outter");
  } else {
    ok = expect_checked(info.inner == 32, loc,
                        "TopK: topKInfo.inner must be 32 in TOPK_NSMALL mode") &&
         expect_checked(!isHasfinish, loc, "TopK: isHasfinish must be false in TOPK_NSMALL mode") &&
         expect_checked(srcIndex.GetSize() >= all, loc,
                        "TopK: srcIndexLocal holds less than inner * outter in TOPK_NSMALL mode") &&
         expect_checked(dstValue.GetSize() >= static_cast<int64_t>(k) * info.outter &&
                            dstIndex.GetSize() >= static_cast<int64_t>(k) * info.outter,
                        loc, "TopK: dstValueLocal or dstIndexLocal holds less than k * outter");
  }
  if (!ok) return false;
  return expect_checked(sizeof(T) == 4 || isInitIndex || info.inner <= 2048, loc,
                        "TopK: topKInfo.inner must be at most 2048 for half without isInitIndex");
}
}  // namespace sim

// The k largest (isLargest) or smallest of each of topKInfo.outter rows of srcLocal (rows
// topKInfo.inner apart) with their indices: srcIndexLocal's (isInitIndex; one row shared by all
// rows in TOPK_NORMAL, one a row in TOPK_NSMALL) or 0..inner-1 generated into the tmp buffer.
template <typename T, bool isInitIndex = false, bool isHasfinish = false, bool isReuseSrc = false,
          TopKMode topkMode = TopKMode::TOPK_NORMAL>
inline void TopK(const LocalTensor<T> &dstValueLocal, const LocalTensor<int32_t> &dstIndexLocal,
                 const LocalTensor<T> &srcLocal, const LocalTensor<int32_t> &srcIndexLocal,
                 const LocalTensor<bool> &finishLocal, const LocalTensor<uint8_t> &tmpLocal,
                 const int32_t k, const TopkTiling &tilling, const TopKInfo &topKInfo,
                 const bool isLargest = true, sim::Loc loc = {}) {
  static_assert(std::is_same_v<T, half> || std::is_same_v<T, float>, "TopK: half or float");
  if (!sim::topk_check<T, isInitIndex, isHasfinish, topkMode>(dstValueLocal, dstIndexLocal,
                                                              srcLocal, srcIndexLocal, finishLocal,
                                                              tmpLocal, k, tilling, topKInfo, loc))
    return;
  const LocalTensor<T> tmp = tmpLocal.template ReinterpretCast<T>();
  const UnaryRepeatParams unary;
  if constexpr (topkMode == TopKMode::TOPK_NORMAL) {
    if constexpr (!isInitIndex) {
      Arange<int32_t>(tmp[tilling.srcIndexOffset].template ReinterpretCast<int32_t>(), 0, 1,
                      topKInfo.inner, loc);
      PipeBarrier<PIPE_V>(loc);
    }
    SetMaskCount();
    sim::topk_normal_rows<T, isInitIndex, isHasfinish>(dstValueLocal, dstIndexLocal, srcLocal,
                                                       srcIndexLocal, finishLocal, tmp, k, tilling,
                                                       topKInfo, isLargest, loc);
    if (!isLargest) {
      SetVectorMask<T, MaskMode::COUNTER>(0, tilling.maskOffset, loc);
      Muls<T, false>(dstValueLocal, dstValueLocal, T(-1), MASK_PLACEHOLDER, 1, unary, loc);
    }
  } else {
    if constexpr (!isInitIndex) {
      LocalTensor<int32_t> index =
          tmp[tilling.topkNSmallSrcIndexOffset].template ReinterpretCast<int32_t>();
      Arange<int32_t>(index, 0, 1, topKInfo.inner, loc);
      PipeBarrier<PIPE_V>(loc);
      if (topKInfo.outter > 1) {
        // the first row's indices into every other row
        Copy(index[topKInfo.inner], index, 32, static_cast<uint8_t>(topKInfo.outter - 1),
             {1, 1, 4, 0}, loc);
        PipeBarrier<PIPE_V>(loc);
      }
    }
    SetMaskCount();
    LocalTensor<T> from = srcLocal;
    if (!isLargest) {
      SetVectorMask<T, MaskMode::COUNTER>(0, tilling.allDataSize, loc);
      Muls<T, false>(tmp[tilling.innerDataSize], srcLocal, T(-1), MASK_PLACEHOLDER, 1, unary, loc);
      PipeBarrier<PIPE_V>(loc);
      from = tmp[tilling.innerDataSize];
    }
    const LocalTensor<uint32_t> index =
        isInitIndex ? srcIndexLocal.template ReinterpretCast<uint32_t>()
                    : tmp[tilling.topkNSmallSrcIndexOffset].template ReinterpretCast<uint32_t>();
    Sort32<T>(tmp, from, index, topKInfo.outter, loc);
    PipeBarrier<PIPE_V>(loc);
    sim::topk_nsmall_pick(dstValueLocal, dstIndexLocal, tmp, tilling, topKInfo, loc);
    if (!isLargest) {
      PipeBarrier<PIPE_V>(loc);
      SetMaskCount();
      SetVectorMask<T, MaskMode::COUNTER>(0, tilling.maskOffset, loc);
      Muls<T, false>(dstValueLocal, dstValueLocal, T(-1), MASK_PLACEHOLDER, 1, unary, loc);
    }
  }
  SetMaskNorm();
  ResetMask();
}

// Without a buffer: the stack's (PopStackBuffer).
template <typename T, bool isInitIndex = false, bool isHasfinish = false, bool isReuseSrc = false,
          TopKMode topkMode = TopKMode::TOPK_NORMAL>
inline void TopK(const LocalTensor<T> &dstValueLocal, const LocalTensor<int32_t> &dstIndexLocal,
                 const LocalTensor<T> &srcLocal, const LocalTensor<int32_t> &srcIndexLocal,
                 const LocalTensor<bool> &finishLocal, const int32_t k, const TopkTiling &tilling,
                 const TopKInfo &topKInfo, const bool isLargest = true, sim::Loc loc = {}) {
  LocalTensor<uint8_t> stack;
  PopStackBuffer<uint8_t, TPosition::LCM>(stack, loc);
  if (static_cast<uint64_t>(stack.GetSize()) >=
      static_cast<uint64_t>(tilling.tmpLocalSize) * sizeof(T))
    stack.SetSize(static_cast<uint32_t>(tilling.tmpLocalSize * sizeof(T)));
  TopK<T, isInitIndex, isHasfinish, isReuseSrc, topkMode>(dstValueLocal, dstIndexLocal, srcLocal,
                                                          srcIndexLocal, finishLocal, stack, k,
                                                          tilling, topKInfo, isLargest, loc);
}

}  // namespace AscendC
