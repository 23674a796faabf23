/* Host tiling of Ascend C's Pad and UnPad: see include/asc/tiling.h.
 *
 * The numbers follow CANN's asc-devkit (impl/adv_api/tiling/pad/
 * pad_tiling_impl.cpp) for a 910B-class core: a 32-byte aligned row is
 * padded in place with one masked Duplicate a row, 255 rows a repeat; an
 * unaligned one goes through two halves of the shared tmp buffer, each a
 * number of 16-row blocks of one 32-byte block a row. UnPad needs no tmp
 * buffer on dav-2201. Sizes are computed in int64 and refused past uint32,
 * the fields' type; where CANN's uint32 arithmetic wraps in a field the
 * kernel does not read for that shape, the wrapped value is kept. */
#include "asc/tiling.h"

enum {
  PAD_BLOCK = 32,      /* bytes of a block */
  PAD_ROWS = 16,       /* rows (blocks) of a TransDataTo5HD pass */
  PAD_MAX_REPEAT = 255 /* rows of one Duplicate */
};

/* The checks both APIs share: type size 2 or 4, positive dims that fit uint32 with their
 * product. */
static asc_status pad_check(const char *name, int64_t height, int64_t width, int32_t type_size) {
  if (type_size != 2 && type_size != 4)
    return asc_error(ASC_ERR_INVALID_VALUE, "%s tiling: typeSize must be 2 or 4, not %d", name,
                     (int)type_size);
  if (height <= 0 || width <= 0 || height > UINT32_MAX || width > UINT32_MAX ||
      height > UINT32_MAX / width)
    return asc_error(ASC_ERR_INVALID_VALUE,
                     "%s tiling: the shape [%lld, %lld] must be two positive dims whose product "
                     "fits uint32",
                     name, (long long)height, (long long)width);
  return ASC_OK;
}

/* The 16-row blocks each half of work_bytes holds: 0 with an error below one. */
static asc_status pad_blocks(const char *name, uint32_t work_bytes, int32_t type_size,
                             int64_t *blocks) {
  const int64_t base = PAD_ROWS * PAD_BLOCK / type_size; /* elements of a block */
  *blocks = (int64_t)work_bytes / type_size / base / 2;
  if (*blocks == 0)
    return asc_error(ASC_ERR_INVALID_VALUE,
                     "%s tiling: a stackBufferSize of %u bytes is under the minimum %d (0 for "
                     "none)",
                     name, (unsigned)work_bytes, 2 * PAD_ROWS * PAD_BLOCK);
  return ASC_OK;
}

asc_status asc_tiling_pad_tmp_size(int64_t height, int64_t width, int32_t type_size,
                                   uint32_t *max_bytes, uint32_t *min_bytes) {
  asc_status st = pad_check("Pad", height, width, type_size);
  if (st) return st;
  const int64_t per_row = (int64_t)PAD_BLOCK / type_size * 2 * type_size; /* 64 bytes */
  const int64_t rows = (height * width + PAD_ROWS - 1) / PAD_ROWS * PAD_ROWS;
  if (rows > UINT32_MAX / per_row)
    return asc_error(ASC_ERR_INVALID_VALUE,
                     "Pad tiling: the shape needs more than 4 GiB of tmp buffer");
  if (max_bytes) *max_bytes = (uint32_t)(rows * per_row);
  if (min_bytes) *min_bytes = (uint32_t)(PAD_ROWS * per_row);
  return ASC_OK;
}

asc_status asc_tiling_pad(int64_t height, int64_t width, int64_t ori_height, int64_t ori_width,
                          uint32_t work_bytes, int32_t type_size, asc_pad_tiling *out) {
  if (!out) return asc_error(ASC_ERR_INVALID_VALUE, "Pad tiling: NULL output");
  asc_status st = pad_check("Pad", height, width, type_size);
  if (st) return st;
  if (ori_height <= 0 || ori_width <= 0 || ori_height > UINT32_MAX || ori_width > UINT32_MAX ||
      ori_height > height * width / ori_width)
    return asc_error(ASC_ERR_INVALID_VALUE,
                     "Pad tiling: the original shape [%lld, %lld] must be positive and hold at "
                     "most the source's %lld elements",
                     (long long)ori_height, (long long)ori_width, (long long)(height * width));
  asc_pad_tiling t = {0};
  const uint32_t h = (uint32_t)height, w = (uint32_t)width, epb = PAD_BLOCK / (uint32_t)type_size;
  t.srcHeight = h;
  t.srcWidth = w;
  t.srcOriWidth = (uint32_t)ori_width;
  /* the aligned case: the row's last block, 255 rows a Duplicate (uint32 as CANN's) */
  t.widthWithoutLastBlock = w - epb;
  t.blocksPerRow = (uint32_t)(width * type_size / PAD_BLOCK);
  t.heightTiling = PAD_MAX_REPEAT;
  t.heightFractal = h / PAD_MAX_REPEAT;
  t.heightFractalTail = h % PAD_MAX_REPEAT;
  if ((int64_t)PAD_MAX_REPEAT * width > UINT32_MAX)
    return asc_error(ASC_ERR_INVALID_VALUE,
                     "Pad tiling: 255 rows of %lld elements do not fit its uint32 fields",
                     (long long)width);
  t.mainLoopOffset = (uint32_t)(PAD_MAX_REPEAT * width);
  t.tailBlockOffset = t.heightFractal * PAD_MAX_REPEAT * w + t.widthWithoutLastBlock;
  if (work_bytes) {
    int64_t blocks = 0;
    st = pad_blocks("Pad", work_bytes, type_size, &blocks);
    if (st) return st;
    const int64_t base = PAD_ROWS * PAD_BLOCK / type_size;
    const int64_t tiling = PAD_ROWS * blocks; /* rows of a pass, elements of a width piece */
    const int64_t tail = width % tiling;
    const int64_t brcb = height * width % tiling;
    const int64_t max_repeat = PAD_MAX_REPEAT - 1; /* 255 x 8 is not 32-byte aligned */
    t.tmpBuffer1BlockNum = (uint32_t)blocks;
    t.tmpBuffer1RowNum = (uint32_t)tiling;
    t.tmpBuffer2Offset = (uint32_t)(blocks * base);
    t.widthTiling = (uint32_t)tiling;
    t.widthFractal = (uint32_t)(width / tiling);
    t.widthFractalTail = (uint32_t)tail;
    t.widthFractalTailAlingned = (uint32_t)((tail + epb - 1) / epb * epb);
    t.brcbTiling = (uint32_t)tiling;
    t.brcbFractal = (uint32_t)(height * width / tiling);
    t.brcbFractalTail = (uint32_t)brcb;
    t.maxRepeatTimes = (uint32_t)max_repeat;
    t.brcbTilingRepeatTimes = (uint32_t)(tiling / 8 / max_repeat);
    t.brcbTilingRepeatTimesTail = (uint32_t)(tiling / 8 % max_repeat);
    t.brcbFractalTailRepeatTimes = (uint32_t)(brcb / 8 / max_repeat);
    t.brcbFractalTailRepeatTimesTail = (uint32_t)(brcb / 8 % max_repeat);
  }
  *out = t;
  return ASC_OK;
}

asc_status asc_tiling_unpad_tmp_size(int64_t height, int64_t width, int32_t type_size,
                                     uint32_t *max_bytes, uint32_t *min_bytes) {
  asc_status st = pad_check("UnPad", height, width, type_size);
  if (st) return st;
  if (max_bytes) *max_bytes = 0;
  if (min_bytes) *min_bytes = 0;
  return ASC_OK;
}

asc_status asc_tiling_unpad(int64_t height, int64_t width, uint32_t work_bytes, int32_t type_size,
                            asc_unpad_tiling *out) {
  if (!out) return asc_error(ASC_ERR_INVALID_VALUE, "UnPad tiling: NULL output");
  asc_status st = pad_check("UnPad", height, width, type_size);
  if (st) return st;
  asc_unpad_tiling t = {0};
  t.srcHeight = (uint32_t)height;
  t.srcWidth = (uint32_t)width;
  if (work_bytes) {
    int64_t blocks = 0;
    st = pad_blocks("UnPad", work_bytes, type_size, &blocks);
    if (st) return st;
    const int64_t tiling = PAD_ROWS * blocks;
    const int64_t tail = width % tiling;
    t.tmpBuffer1BlockNum = (uint32_t)blocks;
    t.tmpBuffer1RowNum = (uint32_t)tiling;
    t.tmpBuffer2Offset = (uint32_t)(blocks * (PAD_ROWS * PAD_BLOCK / type_size));
    t.widthTiling = (uint32_t)tiling;
    t.widthFractal = (uint32_t)(width / tiling + (tail != 0));
    t.widthFractalTail = (uint32_t)(tail ? tail : tiling);
  }
  *out = t;
  return ASC_OK;
}
