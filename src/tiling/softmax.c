/* Host tiling of Ascend C's SoftMax family: see include/asc/tiling.h.
 *
 * On a 910B-class core (dav-2201) every variant keeps a number of float32
 * words per row in its shared tmp buffer (CANN's asc-devkit,
 * impl/adv_api/tiling/activation/softmax_tiling.cpp): the minimum is one
 * row, the maximum every row, and the tiling takes as many rows a pass
 * (splitM) as the buffer holds, rounded to whole 8-row blocks and, for a
 * basic-block shape, to a divisor of the rows small enough for 255 repeats.
 * Sizes are computed in int64 and refused past uint32, the fields' type. */
#include "asc/tiling.h"

#include <stddef.h>

enum {
  SM_BLOCK_BYTES = 32,
  SM_WORD_BYTES = 4,
  SM_BASIC_TILE = 8,   /* rows of a basic block: one 32-byte block of floats */
  SM_BASIC_UNIT = 64,  /* floats of a basic block's row unit */
  SM_REPEAT_ROWS = 256 /* basic-block rows x k stay under SM_BASIC_UNIT * this */
};

/* Words a row needs: epb elements-per-block, k the row, unit a 64-float
 * scratch, each with its count; which rows: kind, half (1 half, 0 float,
 * -1 either) and the variant's flag (isUpdate / isFront; -1 either). */
static const struct {
  asc_softmax_kind kind;
  int half, flag;
  int epb, k, unit;
} sm_rows[] = {
    {ASC_SOFTMAX, -1, -1, 1, 1, 1},      {ASC_SOFTMAX_FLASH, -1, 0, 1, 1, 1},
    {ASC_SOFTMAX_FLASH, -1, 1, 4, 2, 0}, {ASC_SOFTMAX_GRAD, 1, -1, 2, 3, 1},
    {ASC_SOFTMAX_GRAD, 0, 1, 1, 1, 1},   {ASC_SOFTMAX_GRAD, 0, 0, 2, 1, 1},
};

static const char *const sm_names[] = {"SoftMax", "SoftMaxFlash", "SoftMaxGrad"};

static const char *sm_name(asc_softmax_kind kind) {
  return (size_t)kind < sizeof sm_names / sizeof sm_names[0] ? sm_names[kind] : "SoftMax";
}

/* What CANN's checks refuse: a type size but 2 or 4, an empty shape, a last axis that is not a
 * whole number of 32-byte blocks of type_size (the source's); sizes past uint32. */
static asc_status sm_check(const char *name, int64_t m, int64_t k, int32_t type_size,
                           int32_t stat_size) {
  if ((type_size != 2 && type_size != 4) || (stat_size != 2 && stat_size != 4))
    return asc_error(ASC_ERR_INVALID_VALUE,
                     "%s tiling: dataTypeSize must be 2 (half) or 4 (float), not %d", name,
                     (int)(type_size != 2 && type_size != 4 ? type_size : stat_size));
  if (m <= 0 || k <= 0 || m > UINT32_MAX || k > UINT32_MAX)
    return asc_error(ASC_ERR_INVALID_VALUE,
                     "%s tiling: the shape's rows (%lld) and last axis (%lld) must be positive",
                     name, (long long)m, (long long)k);
  if (k * type_size % SM_BLOCK_BYTES)
    return asc_error(ASC_ERR_INVALID_VALUE,
                     "%s tiling: the last axis (%lld elements of %d bytes) must be a multiple of "
                     "32 bytes; pad it and pass the original length in SoftMaxShapeInfo",
                     name, (long long)k, (int)type_size);
  if (m > UINT32_MAX / k)
    return asc_error(ASC_ERR_INVALID_VALUE,
                     "%s tiling: %lld rows of %lld elements do not fit its uint32 fields", name,
                     (long long)m, (long long)k);
  return ASC_OK;
}

/* The row's words into *words; an error naming the input that cannot work. */
static asc_status sm_row_words(asc_softmax_kind kind, int64_t m, int64_t k, int32_t type_size,
                               bool flag, int64_t *words) {
  if ((int)kind < 0 || (size_t)kind >= sizeof sm_names / sizeof sm_names[0])
    return asc_error(ASC_ERR_INVALID_VALUE, "softmax tiling: unknown kind %d", (int)kind);
  asc_status st = sm_check(sm_name(kind), m, k, type_size, type_size);
  if (st) return st;
  for (size_t i = 0; i < sizeof sm_rows / sizeof sm_rows[0]; i++) {
    if (sm_rows[i].kind != kind) continue;
    if (sm_rows[i].half >= 0 && sm_rows[i].half != (type_size == 2)) continue;
    if (sm_rows[i].flag >= 0 && sm_rows[i].flag != (int)flag) continue;
    *words = sm_rows[i].epb * (SM_BLOCK_BYTES / type_size) + sm_rows[i].k * k +
             sm_rows[i].unit * SM_BASIC_UNIT;
    return ASC_OK;
  }
  return asc_error(ASC_ERR_INVALID_VALUE, "%s tiling: no row size", sm_name(kind));
}

/* max_rows of max_words and least_words, in bytes, or an error past uint32. */
static asc_status sm_bytes(const char *name, int64_t max_rows, int64_t max_words,
                           int64_t least_words, uint32_t *max_bytes, uint32_t *min_bytes) {
  /* words < 2^35 and rows < 2^32: the product needs a check, not a wider type */
  if (max_words * SM_WORD_BYTES > UINT32_MAX || least_words * SM_WORD_BYTES > UINT32_MAX ||
      max_rows > UINT32_MAX / (max_words * SM_WORD_BYTES))
    return asc_error(ASC_ERR_INVALID_VALUE,
                     "%s tiling: the shape needs more than 4 GiB of tmp buffer", name);
  if (max_bytes) *max_bytes = (uint32_t)(max_rows * max_words * SM_WORD_BYTES);
  if (min_bytes) *min_bytes = (uint32_t)(least_words * SM_WORD_BYTES);
  return ASC_OK;
}

asc_status asc_tiling_softmax_tmp_size(asc_softmax_kind kind, int64_t m, int64_t k,
                                       int32_t type_size, bool flag, uint32_t *max_bytes,
                                       uint32_t *min_bytes) {
  int64_t words = 0;
  asc_status st = sm_row_words(kind, m, k, type_size, flag, &words);
  return st ? st : sm_bytes(sm_name(kind), m, words, words, max_bytes, min_bytes);
}

/* CANN's basic-block rows: whole 8-row blocks that divide the rows, halved
 * until a pass is under 255 repeats. */
static int64_t sm_basic_block_rows(int64_t base_m, int64_t m, int64_t k) {
  if (base_m <= SM_BASIC_TILE || m % SM_BASIC_TILE || k % SM_BASIC_UNIT) return base_m;
  base_m = base_m / SM_BASIC_TILE * SM_BASIC_TILE;
  while (m % base_m) base_m -= SM_BASIC_TILE;
  while (base_m * k >= SM_BASIC_UNIT * SM_REPEAT_ROWS) base_m /= 2;
  return base_m;
}

/* The tiling of m rows of k, base_m a pass, epb elements in a 32-byte block of the outputs. */
static void sm_fill(int64_t m, int64_t k, int64_t epb, int64_t base_m, asc_softmax_tiling *out) {
  const int64_t tail = m % base_m;
  *out = (asc_softmax_tiling){
      .srcM = (uint32_t)m,
      .srcK = (uint32_t)k,
      .srcSize = (uint32_t)(m * k),
      .outMaxM = (uint32_t)m,
      .outMaxK = (uint32_t)epb,
      .outMaxSize = (uint32_t)(m * epb),
      .splitM = (uint32_t)base_m,
      .splitK = (uint32_t)k,
      .splitSize = (uint32_t)(base_m * k),
      .reduceM = (uint32_t)base_m,
      .reduceK = (uint32_t)epb,
      .reduceSize = (uint32_t)(base_m * epb),
      .rangeM = (uint32_t)(m / base_m),
      .tailM = (uint32_t)tail,
      .tailSplitSize = (uint32_t)(tail * k),
      .tailReduceSize = (uint32_t)(tail * epb),
  };
}

static asc_status sm_below_one_row(const char *name, uint32_t work_bytes, int64_t words) {
  return asc_error(
      ASC_ERR_INVALID_VALUE,
      "%s tiling: localWorkSpaceSize %u is below one row's %lld bytes (Get%sMinTmpSize)", name,
      work_bytes, (long long)(words * SM_WORD_BYTES), name);
}

asc_status asc_tiling_softmax(asc_softmax_kind kind, int64_t m, int64_t k, int32_t type_size,
                              uint32_t work_bytes, bool flag, asc_softmax_tiling *out) {
  if (!out) return asc_error(ASC_ERR_INVALID_VALUE, "softmax tiling: NULL output");
  int64_t words = 0;
  asc_status st = sm_row_words(kind, m, k, type_size, flag, &words);
  if (st) return st;
  int64_t base_m = work_bytes / SM_WORD_BYTES / words;
  if (base_m > m) base_m = m;
  if (base_m < m && base_m > SM_BASIC_TILE) base_m = base_m / SM_BASIC_TILE * SM_BASIC_TILE;
  base_m = sm_basic_block_rows(base_m, m, k);
  if (base_m == 0) return sm_below_one_row(sm_name(kind), work_bytes, words);
  sm_fill(m, k, SM_BLOCK_BYTES / type_size, base_m, out);
  return ASC_OK;
}

/* SoftmaxFlashV2's words a row on dav-2201: with a basic block (k in 64s) a block of the
 * statistics' type and a unit (twice for a 1024 row), plus the row for half data; else a unit
 * and one block (two and the row for half data). */
static int64_t sm_v2_words(int64_t k, int32_t src_size, int32_t stat_size, bool basic) {
  const int64_t epb = SM_BLOCK_BYTES / stat_size, half = src_size == 2;
  if (basic) return epb + (half ? k : 0) + (k == 1024 ? 2 : 1) * SM_BASIC_UNIT;
  return (half ? 2 : 1) * epb + (half ? k : 0) + SM_BASIC_UNIT;
}

static const char *const sm_v2 = "SoftMaxFlashV2";

asc_status asc_tiling_softmax_flash_v2_tmp_size(int64_t m, int64_t k, int32_t src_size,
                                                int32_t stat_size, bool basic, bool brc,
                                                uint32_t *max_bytes, uint32_t *min_bytes) {
  asc_status st = sm_check(sm_v2, m, k, src_size, stat_size);
  if (st) return st;
  const bool basic_k = basic && k % SM_BASIC_UNIT == 0;
  const int64_t per_block = SM_BLOCK_BYTES / src_size, brc_rows = m < per_block ? m : per_block;
  int64_t least = basic_k ? SM_BASIC_TILE * sm_v2_words(k, src_size, stat_size, true)
                          : sm_v2_words(k, src_size, stat_size, false);
  if (brc) least = basic_k ? least / SM_BASIC_TILE * brc_rows : least * brc_rows;
  int64_t rows = m, words = sm_v2_words(k, src_size, stat_size, false);
  if (basic_k && m % SM_BASIC_TILE == 0) {
    while (rows * k >= SM_BASIC_UNIT * SM_REPEAT_ROWS) rows /= 2;
    words = sm_v2_words(k, src_size, stat_size, true);
  }
  return sm_bytes(sm_v2, rows, words, least, max_bytes, min_bytes);
}

asc_status asc_tiling_softmax_flash_v2(int64_t m, int64_t k, int32_t src_size, int32_t stat_size,
                                       uint32_t work_bytes, bool basic, bool brc,
                                       asc_softmax_tiling *out) {
  if (!out) return asc_error(ASC_ERR_INVALID_VALUE, "softmax tiling: NULL output");
  asc_status st = sm_check(sm_v2, m, k, src_size, stat_size);
  if (st) return st;
  const bool basic_shape = basic && k % SM_BASIC_UNIT == 0 && m % SM_BASIC_TILE == 0;
  const int64_t words = sm_v2_words(k, src_size, stat_size, basic_shape);
  int64_t base_m = work_bytes / SM_WORD_BYTES / words;
  if (base_m > m) base_m = m;
  if (basic_shape) base_m = sm_basic_block_rows(base_m, m, k);
  /* with the broadcast output, half rows go in 16s (a block of halves) */
  const int64_t tile = brc && src_size == 2 ? SM_BLOCK_BYTES / 2 : SM_BASIC_TILE;
  if (base_m < m && base_m > tile) base_m = base_m / tile * tile;
  if (base_m == 0) return sm_below_one_row(sm_v2, work_bytes, words);
  if (brc && (m / base_m > 1 || m % base_m) && base_m % (SM_BLOCK_BYTES / src_size))
    return asc_error(ASC_ERR_INVALID_VALUE,
                     "%s tiling: with isFlashOutputBrc, %lld rows a pass must be a multiple of %d; "
                     "give it a larger localWorkSpaceSize",
                     sm_v2, (long long)base_m, SM_BLOCK_BYTES / src_size);
  sm_fill(m, k, SM_BLOCK_BYTES / stat_size, base_m, out);
  return ASC_OK;
}

/* SoftmaxFlashV3's words a row on dav-2201: five blocks of float statistics (the row's mean,
 * max, two shifts and a spare), the row twice (its float copy and its shifts) and a unit. */
static int64_t sm_v3_words(int64_t k) {
  return 5 * (SM_BLOCK_BYTES / 4) + 2 * k + SM_BASIC_UNIT;
}

static const char *const sm_v3 = "SoftMaxFlashV3";

/* What CANN's checks refuse besides sm_check's: data other than half, statistics other than
 * float. */
static asc_status sm_v3_check(int64_t m, int64_t k, int32_t src_size, int32_t stat_size) {
  if (src_size != 2 || stat_size != 4)
    return asc_error(ASC_ERR_INVALID_VALUE,
                     "%s tiling: the data is half (dataTypeSize1 2) and the statistics float "
                     "(dataTypeSize2 4), not %d and %d",
                     sm_v3, (int)src_size, (int)stat_size);
  return sm_check(sm_v3, m, k, src_size, stat_size);
}

asc_status asc_tiling_softmax_flash_v3_tmp_size(int64_t m, int64_t k, int32_t src_size,
                                                int32_t stat_size, uint32_t *max_bytes,
                                                uint32_t *min_bytes) {
  asc_status st = sm_v3_check(m, k, src_size, stat_size);
  if (st) return st;
  return sm_bytes(sm_v3, m, sm_v3_words(k), sm_v3_words(k), max_bytes, min_bytes);
}

asc_status asc_tiling_softmax_flash_v3(int64_t m, int64_t k, int32_t src_size, int32_t stat_size,
                                       uint32_t work_bytes, asc_softmax_tiling *out) {
  if (!out) return asc_error(ASC_ERR_INVALID_VALUE, "softmax tiling: NULL output");
  asc_status st = sm_v3_check(m, k, src_size, stat_size);
  if (st) return st;
  int64_t base_m = work_bytes / SM_WORD_BYTES / sm_v3_words(k);
  if (base_m > m) base_m = m;
  if (base_m < m && base_m > SM_BASIC_TILE) base_m = base_m / SM_BASIC_TILE * SM_BASIC_TILE;
  if (base_m == 0) return sm_below_one_row(sm_v3, work_bytes, sm_v3_words(k));
  sm_fill(m, k, SM_BLOCK_BYTES / stat_size, base_m, out);
  return ASC_OK;
}
