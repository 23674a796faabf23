/* Host tiling of Ascend C's ConfusionTranspose (the adv Transpose with a
 * TransposeType): see include/asc/tiling.h.
 *
 * The 18 params follow CANN's asc-devkit (impl/adv_api/tiling/transpose/
 * confusion_transpose_tiling_impl.cpp): for the NZ types 1..6 the shape is
 * [B, N, S, H/N] and the params are its 16-aligned sizes and offsets; type 7
 * ([H, W]) the strides of a 16-row transpose; types 13..15 (dav-3510's) the
 * three dims. Every value is computed in int64 and refused past uint32. */
#include <string.h>

#include "asc/tiling.h"

enum { CT_CUBE = 16, CT_CUBE_SIZE = 256, CT_BLOCK = 32, CT_PARAMS = 18 };

static int64_t ct_align(int64_t v) {
  return (v + CT_CUBE - 1) / CT_CUBE * CT_CUBE;
}

/* The dims each type takes: [lo, hi] of them. */
static asc_status ct_check(const int64_t *dims, int ndims, int32_t type_size, uint32_t type) {
  int lo = 4, hi = 4;
  if (type == 7)
    lo = hi = 2;
  else if (type == 13)
    lo = 2, hi = 3;
  else if (type == 14 || type == 15)
    lo = hi = 3;
  else if (type < 1 || type > 6)
    return asc_error(ASC_ERR_INVALID_VALUE,
                     "Transpose tiling: transposeType %u is not one of 1..7 or 13..15 (CANN "
                     "computes no tiling for it)",
                     (unsigned)type);
  const bool small_ok = type >= 13;
  if (!(type_size == 2 || type_size == 4 || (small_ok && type_size == 1)))
    return asc_error(ASC_ERR_INVALID_VALUE,
                     "Transpose tiling: typeSize %d is not one transposeType %u takes (%s)",
                     (int)type_size, (unsigned)type, small_ok ? "1, 2 or 4" : "2 or 4");
  if (!dims || ndims < lo || ndims > hi)
    return asc_error(ASC_ERR_INVALID_VALUE,
                     "Transpose tiling: transposeType %u takes a srcShape of %d%s dims, not %d",
                     (unsigned)type, lo, lo == hi ? "" : " or 3", dims ? ndims : 0);
  int64_t total = 1;
  for (int i = 0; i < ndims; i++) {
    if (dims[i] <= 0 || dims[i] > UINT32_MAX || ct_align(dims[i]) > UINT32_MAX / total)
      return asc_error(ASC_ERR_INVALID_VALUE,
                       "Transpose tiling: srcShape's dim %d (%lld) must be positive and the "
                       "16-aligned shape fit uint32",
                       i, (long long)dims[i]);
    total *= ct_align(dims[i]);
  }
  if (ndims == 4 && total * CT_CUBE > UINT32_MAX)
    return asc_error(ASC_ERR_INVALID_VALUE,
                     "Transpose tiling: the 16-aligned srcShape is too large for uint32 params");
  return ASC_OK;
}

asc_status asc_tiling_confusion_transpose_tmp_size(const int64_t *dims, int ndims,
                                                   int32_t type_size, uint32_t type,
                                                   uint32_t *max_bytes, uint32_t *min_bytes) {
  asc_status st = ct_check(dims, ndims, type_size, type);
  if (st) return st;
  int64_t most = 0, least = 0;
  if (type == 1 || type == 2) {
    most = ct_align(dims[2]) * CT_CUBE * type_size;
    least = CT_CUBE_SIZE * type_size;
  } else if (type <= 6) {
    most = least = 2 * CT_CUBE_SIZE * type_size;
  }
  if (max_bytes) *max_bytes = (uint32_t)most;
  if (min_bytes) *min_bytes = (uint32_t)least;
  return ASC_OK;
}

asc_status asc_tiling_confusion_transpose(const int64_t *dims, int ndims, uint32_t work_bytes,
                                          int32_t type_size, uint32_t type,
                                          asc_confusion_transpose_tiling *out) {
  if (!out) return asc_error(ASC_ERR_INVALID_VALUE, "Transpose tiling: NULL output");
  asc_status st = ct_check(dims, ndims, type_size, type);
  if (st) return st;
  int64_t p[CT_PARAMS];
  memset(p, 0, sizeof p);
  const int64_t block = CT_BLOCK / type_size; /* elements of a 32-byte block */
  if (type <= 6) {
    const int64_t b = dims[0], n = dims[1], s = dims[2], hn = dims[3];
    const int64_t align_s = ct_align(s), align_hn = ct_align(hn), h = n * hn;
    const int64_t align_h = ct_align(h), s_blocks = align_s / CT_CUBE;
    const int64_t h_blocks = align_h / CT_CUBE, hn_blocks = align_hn / CT_CUBE;
    if (type == 1 || type == 2) {
      /* the tmp buffer in whole 16 x 16 tiles, a pass of its rows of 16 */
      const int64_t pop = (int64_t)work_bytes / type_size / CT_CUBE_SIZE * CT_CUBE_SIZE;
      if (pop == 0)
        return asc_error(ASC_ERR_INVALID_VALUE,
                         "Transpose tiling: a stackBufferSize of %u bytes holds no 16 x 16 "
                         "tile of %d-byte elements (GetTransposeMaxMinTmpSize's minimum is %d)",
                         (unsigned)work_bytes, (int)type_size, CT_CUBE_SIZE * (int)type_size);
      const int64_t pop_h = pop / CT_CUBE, need = align_s * CT_CUBE, main_blocks = need / pop;
      const int64_t vals[16] = {block,
                                b,
                                n,
                                align_hn,
                                align_s,
                                hn_blocks,
                                pop,
                                pop_h,
                                need,
                                main_blocks,
                                need % pop,
                                align_s * align_hn,
                                n * align_s * align_hn,
                                n * align_hn,
                                n * CT_CUBE,
                                pop_h * main_blocks * n * align_hn};
      memcpy(p, vals, sizeof vals);
    } else if (type == 3) {
      const int64_t vals[17] = {block,
                                b,
                                n,
                                hn,
                                CT_CUBE / block,
                                h,
                                h_blocks,
                                s_blocks,
                                align_h,
                                align_s,
                                hn_blocks,
                                align_hn,
                                align_hn - hn,
                                align_s * CT_CUBE,
                                n * hn_blocks,
                                n * align_hn * align_s,
                                align_h * align_s};
      memcpy(p, vals, sizeof vals);
    } else if (type == 4) {
      const int64_t vals[18] = {block,
                                b,
                                n,
                                hn,
                                h,
                                h_blocks,
                                s_blocks,
                                hn_blocks,
                                align_hn,
                                align_hn - hn,
                                s_blocks * CT_CUBE_SIZE,
                                n * hn_blocks,
                                align_s * align_hn,
                                align_hn * CT_CUBE,
                                align_hn * block,
                                n * align_hn * align_s,
                                h_blocks * s_blocks * CT_CUBE_SIZE,
                                CT_CUBE / block};
      memcpy(p, vals, sizeof vals);
    } else { /* 5 and 6 */
      const int64_t vals[15] = {block,
                                b,
                                n,
                                hn,
                                h,
                                h_blocks,
                                s_blocks,
                                hn_blocks,
                                align_h,
                                s_blocks * CT_CUBE_SIZE,
                                align_h * CT_CUBE,
                                block * align_h,
                                n * align_hn * align_s,
                                align_h * align_s,
                                CT_CUBE / block};
      memcpy(p, vals, sizeof vals);
    }
  } else if (type == 7) {
    const int64_t hgt = dims[0], wid = dims[1];
    const int64_t vals[6] = {
        block, hgt, wid, hgt / CT_CUBE, hgt * block * type_size / CT_BLOCK, wid / block};
    memcpy(p, vals, sizeof vals);
  } else { /* 13..15: the three dims, a 2-dim 13 with a leading 1 */
    p[0] = ndims == 3 ? dims[0] : 1;
    p[1] = dims[ndims - 2];
    p[2] = dims[ndims - 1];
  }
  asc_confusion_transpose_tiling t;
  for (int i = 0; i < CT_PARAMS; i++) {
    if (p[i] < 0 || p[i] > UINT32_MAX)
      return asc_error(ASC_ERR_INVALID_VALUE,
                       "Transpose tiling: param%d (%lld) does not fit uint32 for this srcShape", i,
                       (long long)p[i]);
    t.param[i] = (uint32_t)p[i];
  }
  *out = t;
  return ASC_OK;
}
