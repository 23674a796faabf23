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

/* The row's words into *words; an error naming the input that cannot work. */
static asc_status sm_row_words(asc_softmax_kind kind, int64_t m, int64_t k, int32_t type_size,
                               bool flag, int64_t *words) {
  if ((int)kind < 0 || (size_t)kind >= sizeof sm_names / sizeof sm_names[0])
    return asc_error(ASC_ERR_INVALID_VALUE, "softmax tiling: unknown kind %d", (int)kind);
  const char *name = sm_names[kind];
  if (type_size != 2 && type_size != 4)
    return asc_error(ASC_ERR_INVALID_VALUE,
                     "%s tiling: dataTypeSize must be 2 (half) or 4 (float), not %d", name,
                     (int)type_size);
  if (m <= 0 || k <= 0 || m > UINT32_MAX || k > UINT32_MAX)
    return asc_error(ASC_ERR_INVALID_VALUE,
                     "%s tiling: the shape's rows (%lld) and last axis (%lld) must be positive",
                     name, (long long)m, (long long)k);
  if (k * type_size % SM_BLOCK_BYTES)
    return asc_error(ASC_ERR_INVALID_VALUE,
                     "%s tiling: the last axis (%lld elements of %d bytes) must be a multiple of "
                     "32 bytes; pad it and pass the original length in SoftMaxShapeInfo",
                     name, (long long)k, (int)type_size);
  for (size_t i = 0; i < sizeof sm_rows / sizeof sm_rows[0]; i++) {
    if (sm_rows[i].kind != kind) continue;
    if (sm_rows[i].half >= 0 && sm_rows[i].half != (type_size == 2)) continue;
    if (sm_rows[i].flag >= 0 && sm_rows[i].flag != (int)flag) continue;
    *words = sm_rows[i].epb * (SM_BLOCK_BYTES / type_size) + sm_rows[i].k * k +
             sm_rows[i].unit * SM_BASIC_UNIT;
    return ASC_OK;
  }
  return asc_error(ASC_ERR_INVALID_VALUE, "%s tiling: no row size", name);
}

asc_status asc_tiling_softmax_tmp_size(asc_softmax_kind kind, int64_t m, int64_t k,
                                       int32_t type_size, bool flag, uint32_t *max_bytes,
                                       uint32_t *min_bytes) {
  int64_t words = 0;
  asc_status st = sm_row_words(kind, m, k, type_size, flag, &words);
  if (st) return st;
  /* words < 2^35 and m < 2^32: the product needs a check, not a wider type */
  if (words * SM_WORD_BYTES > UINT32_MAX || m > UINT32_MAX / (words * SM_WORD_BYTES))
    return asc_error(ASC_ERR_INVALID_VALUE,
                     "%s tiling: %lld rows of %lld elements need more than 4 GiB of tmp buffer",
                     sm_names[kind], (long long)m, (long long)k);
  if (max_bytes) *max_bytes = (uint32_t)(m * words * SM_WORD_BYTES);
  if (min_bytes) *min_bytes = (uint32_t)(words * SM_WORD_BYTES);
  return ASC_OK;
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

asc_status asc_tiling_softmax(asc_softmax_kind kind, int64_t m, int64_t k, int32_t type_size,
                              uint32_t work_bytes, bool flag, asc_softmax_tiling *out) {
  if (!out) return asc_error(ASC_ERR_INVALID_VALUE, "softmax tiling: NULL output");
  int64_t words = 0;
  asc_status st = sm_row_words(kind, m, k, type_size, flag, &words);
  if (st) return st;
  if (m > UINT32_MAX / k)
    return asc_error(ASC_ERR_INVALID_VALUE,
                     "%s tiling: %lld rows of %lld elements do not fit its uint32 fields",
                     sm_names[kind], (long long)m, (long long)k);
  int64_t base_m = work_bytes / SM_WORD_BYTES / words;
  if (base_m > m) base_m = m;
  if (base_m < m && base_m > SM_BASIC_TILE) base_m = base_m / SM_BASIC_TILE * SM_BASIC_TILE;
  base_m = sm_basic_block_rows(base_m, m, k);
  if (base_m == 0)
    return asc_error(
        ASC_ERR_INVALID_VALUE,
        "%s tiling: localWorkSpaceSize %u is below one row's %lld bytes (Get%sMinTmpSize)",
        sm_names[kind], work_bytes, (long long)(words * SM_WORD_BYTES), sm_names[kind]);
  const int64_t epb = SM_BLOCK_BYTES / type_size, tail = m % base_m;
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
  return ASC_OK;
}
