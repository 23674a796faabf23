/* Host tiling of Ascend C's TopK (the merge-sort algorithm): see
 * include/asc/tiling.h.
 *
 * The numbers follow CANN's asc-devkit (impl/adv_api/tiling/sort/
 * topk_tiling_impl.cpp) for a 910B-class core (dav-2201). TOPK_NORMAL sorts
 * one row at a time: Sort32 into the first half of the tmp buffer (8 bytes a
 * sort element, so 2 floats or 4 halves an element), four-way and two-way
 * merges between the two halves, then GatherMask of the first k values and
 * indices. TOPK_NSMALL sorts all rows (32 elements each) with one Sort32 and
 * picks the first k of each with the GatherMask patterns carried in the
 * tiling. Where CANN's host checks only log, these refuse: the tiling is left
 * as it was and the error names the input. */
#include "asc/tiling.h"

enum {
  TOPK_ROW = 32,        /* elements a Sort32 repeat sorts; rows are multiples of it */
  TOPK_SORT_ELEM = 8,   /* bytes of a sort element (score, index) */
  TOPK_BLOCK = 32,      /* bytes of a UB block */
  TOPK_MASK_BYTES = 64, /* NSMALL: room for the GatherMask patterns */
  TOPK_MAX_ELEMS = 1 << 24
};

static asc_status topk_check(const char *name, int64_t inner, int64_t outter, int mode,
                             int32_t type_size, uint64_t ub_bytes) {
  if (mode != ASC_TOPK_NORMAL && mode != ASC_TOPK_NSMALL)
    return asc_error(ASC_ERR_INVALID_VALUE, "%s: mode %d is neither TOPK_NORMAL nor TOPK_NSMALL",
                     name, mode);
  if (type_size != 2 && type_size != 4)
    return asc_error(ASC_ERR_INVALID_VALUE, "%s: type size %d is unsupported (2 or 4)", name,
                     (int)type_size);
  if (inner <= 0 || inner % TOPK_ROW != 0)
    return asc_error(ASC_ERR_INVALID_VALUE,
                     "%s: the inner axis (%lld) must be a positive multiple of 32", name,
                     (long long)inner);
  if (mode == ASC_TOPK_NSMALL && inner != TOPK_ROW)
    return asc_error(ASC_ERR_INVALID_VALUE,
                     "%s: in TOPK_NSMALL mode the inner axis must be 32, not %lld", name,
                     (long long)inner);
  if (outter <= 0)
    return asc_error(ASC_ERR_INVALID_VALUE, "%s: the outter axis (%lld) must be positive", name,
                     (long long)outter);
  if (inner > TOPK_MAX_ELEMS || outter > TOPK_MAX_ELEMS / inner ||
      (uint64_t)(inner * outter * type_size) > ub_bytes)
    return asc_error(ASC_ERR_INVALID_VALUE,
                     "%s: the source of %lld x %lld elements of %d bytes exceeds the UB (%llu "
                     "bytes)",
                     name, (long long)outter, (long long)inner, (int)type_size,
                     (unsigned long long)ub_bytes);
  return ASC_OK;
}

asc_status asc_tiling_topk_tmp_size(int64_t inner, int64_t outter, int is_init_index, int mode,
                                    int is_largest, int32_t type_size, uint64_t ub_bytes,
                                    uint32_t *max_bytes, uint32_t *min_bytes) {
  asc_status st = topk_check("TopK tmp size", inner, outter, mode, type_size, ub_bytes);
  if (st) return st;
  int64_t bytes;
  if (mode == ASC_TOPK_NORMAL) {
    /* two halves of a row's sort elements, and a row of generated int32 indices */
    bytes = 2 * TOPK_SORT_ELEM * inner + (is_init_index ? 0 : 4 * inner);
  } else {
    const int64_t all = inner * outter;
    /* the sort elements, the patterns, the negated source (as floats' room), the indices */
    bytes = TOPK_SORT_ELEM * all + TOPK_MASK_BYTES + (is_largest ? 0 : 4 * all) +
            (is_init_index ? 0 : 4 * all);
  }
  /* all < 2^24 elements: at most 2^29 bytes, within uint32 */
  if (max_bytes) *max_bytes = (uint32_t)bytes;
  if (min_bytes) *min_bytes = (uint32_t)bytes;
  return ASC_OK;
}

/* n one-bit fields: a pattern of n set bits, each followed by `gap` clear ones, from bit
 * `first` of each group of 1 + gap bits. */
static uint32_t topk_bits(int64_t n, int gap, int first) {
  uint32_t m = 0;
  for (int64_t i = 0; i < n; i++) m |= 1u << (i * (gap + 1) + first);
  return m;
}

/* NSMALL's GatherMask patterns: from each row's sort elements (8 bytes), the first k values
 * (every other float, or every fourth half) and indices (the other floats). */
static void topk_masks(int64_t k, int32_t type_size, asc_topk_tiling *t) {
  const int64_t lo = k < 16 ? k : 16, hi = k > 16 ? k - 16 : 0;
  t->vreduceIdxMask0 = topk_bits(lo, 1, 1);
  t->vreduceIdxMask1 = topk_bits(hi, 1, 1);
  if (type_size == 4) {
    t->vreduceValMask0 = topk_bits(lo, 1, 0);
    t->vreduceValMask1 = topk_bits(hi, 1, 0);
    return;
  }
  uint16_t *half[8] = {&t->vreducehalfValMask0, &t->vreducehalfValMask1, &t->vreducehalfValMask2,
                       &t->vreducehalfValMask3, &t->vreducehalfValMask4, &t->vreducehalfValMask5,
                       &t->vreducehalfValMask6, &t->vreducehalfValMask7};
  for (int i = 0; i < 8; i++) {
    int64_t n = k - 4 * i;
    n = n < 0 ? 0 : n > 4 ? 4 : n;
    *half[i] = (uint16_t)topk_bits(n, 3, 0);
  }
}

asc_status asc_tiling_topk(int64_t inner, int64_t outter, int64_t k, int32_t type_size,
                           int is_init_index, int mode, int is_largest, uint64_t ub_bytes,
                           asc_topk_tiling *out) {
  if (!out) return asc_error(ASC_ERR_INVALID_VALUE, "TopK tiling: NULL output");
  asc_status st = topk_check("TopK tiling", inner, outter, mode, type_size, ub_bytes);
  if (st) return st;
  if (k < 1 || k > inner)
    return asc_error(ASC_ERR_INVALID_VALUE, "TopK tiling: k (%lld) must be in [1, %lld]",
                     (long long)k, (long long)inner);
  /* every product below is under 2^24 * 10 elements: int32 */
  asc_topk_tiling t = {0};
  const int32_t n = (int32_t)inner, rows = (int32_t)outter, kk = (int32_t)k;
  const int32_t per_elem = TOPK_SORT_ELEM / type_size; /* elements of T in a sort element */
  const int32_t k8 = (kk + 7) / 8 * 8, k16 = (kk + 15) / 16 * 16;
  t.allDataSize = n * rows;
  t.kAlignFourBytes = k8;
  if (mode == ASC_TOPK_NORMAL) {
    t.innerDataSize = n * per_elem;    /* one half of the buffer: a row's sort elements */
    t.tmpLocalSize = 2 * n * per_elem; /* both halves */
    t.copyUbToUbBlockCount = (uint32_t)(n * TOPK_SORT_ELEM / TOPK_BLOCK);
    t.sortRepeat = (uint32_t)(n / TOPK_ROW);
    t.mrgSortRepeat = n / 4;
    t.kAlignTwoBytes = k16;
    t.maskOffset = rows * (type_size == 2 ? k16 : k8);
    t.maskVreducev2FourBytes = 2 * kk;
    t.maskVreducev2TwoBytes = 4 * kk;
    t.mrgSortSrc1offset = per_elem;
    t.mrgSortSrc2offset = 2 * per_elem;
    t.mrgSortSrc3offset = 3 * per_elem;
    t.mrgSortTwoQueueSrc1Offset = per_elem;
    t.mrgFourQueueTailPara1 = 2 * n;
    t.mrgFourQueueTailPara2 = 4 / type_size;
    if (!is_init_index) {
      /* a row of int32 indices after both halves */
      t.srcIndexOffset = 2 * n * per_elem;
      t.tmpLocalSize = 2 * n * per_elem + n * 4 / type_size;
    }
  } else {
    const int32_t all = n * rows;
    t.innerDataSize = all * per_elem;
    t.maskOffset = rows * kk;
    /* the sort elements, then (smallest first) the negated source, then the patterns */
    t.topkMrgSrc1MaskSizeOffset = t.innerDataSize + (is_largest ? 0 : all);
    t.tmpLocalSize = t.topkMrgSrc1MaskSizeOffset + TOPK_MASK_BYTES / type_size;
    if (!is_init_index) {
      t.topkNSmallSrcIndexOffset = t.tmpLocalSize;
      t.tmpLocalSize += all * 4 / type_size;
    }
    topk_masks(k, type_size, &t);
  }
  *out = t;
  return ASC_OK;
}
