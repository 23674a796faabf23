/* Host-side matmul tiling (Ascend C's matmul_tiling / PyAsc's asc.lib.host).
 *
 * Chooses how C = A @ B (+ bias) is cut over cube cores and staged through
 * L1, L0A, L0B and L0C, and writes the result as Ascend C's TCubeTiling.
 * Pure computation: a context is a plain value owned by the caller (no
 * allocation, nothing to free); distinct contexts may be used from any
 * threads at once. The search follows Ascend C's matmul_tiling for a
 * 910B-class core; docs/host-tiling.md describes it. */
#ifndef ASC_TILING_H
#define ASC_TILING_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "asc/hal.h"
#include "asc/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Which of Ascend C's tiling classes a context behaves as. */
typedef enum asc_tiling_kind {
  ASC_TILING_SINGLE_CORE, /* MatmulApiTiling: one core computes the shape */
  ASC_TILING_MULTI_CORE,  /* MultiCoreMatmulTiling: M and N spread over set_dim cores */
  ASC_TILING_BATCH,       /* BatchMatmulTiling: like single core, plus batch fields */
} asc_tiling_kind;

/* matmul_tiling::DataType values (those the tiling accepts are listed in
 * docs/host-tiling.md; others are rejected by asc_tiling_set_type). */
enum {
  ASC_TILING_DT_FLOAT = 0,
  ASC_TILING_DT_FLOAT16 = 1,
  ASC_TILING_DT_INT8 = 2,
  ASC_TILING_DT_INT32 = 3,
  ASC_TILING_DT_BF16 = 27,
  ASC_TILING_DT_INT4 = 29,
};

/* matmul_tiling::TPosition values used here. */
enum {
  ASC_TILING_POS_GM = 0,
  ASC_TILING_POS_VECIN = 9,
  ASC_TILING_POS_VECOUT = 10,
  ASC_TILING_POS_VECCALC = 11,
  ASC_TILING_POS_TSCM = 13,
};

/* matmul_tiling::CubeFormat values used here. */
enum {
  ASC_TILING_FMT_ND = 0,
  ASC_TILING_FMT_NZ = 1,
  ASC_TILING_FMT_ND_ALIGN = 5,
  ASC_TILING_FMT_VECTOR = 7 /* A only: a GEMV's 1 x K row */
};

/* matmul_tiling::MatrixTraverse. */
enum {
  ASC_TILING_TRAVERSE_NOSET = 0,
  ASC_TILING_TRAVERSE_FIRSTM = 1,
  ASC_TILING_TRAVERSE_FIRSTN = 2
};

/* Which operand asc_tiling_set_type describes. */
typedef enum asc_tiling_operand_id {
  ASC_TILING_A,
  ASC_TILING_B,
  ASC_TILING_C,
  ASC_TILING_BIAS,
} asc_tiling_operand_id;

typedef struct asc_tiling_operand {
  int32_t pos;    /* TPosition value */
  int32_t format; /* CubeFormat value */
  int32_t dtype;  /* DataType value */
  bool trans;     /* A/B only: stored transposed */
} asc_tiling_operand;

/* Ascend C's TCubeTiling: the kernel's Matmul reads these. Member names are
 * Ascend C's; asc_tiling_tcube_fields lists them with PyAsc's Python names. */
typedef struct asc_tcube_tiling {
  int32_t usedCoreNum, M, N, Ka, Kb, singleCoreM, singleCoreN, singleCoreK;
  int32_t baseM, baseN, baseK, depthA1, depthB1, stepM, stepN, isBias;
  int32_t transLength, iterateOrder, shareMode, shareL1Size, shareL0CSize, shareUbSize;
  int32_t batchM, batchN, singleBatchM, singleBatchN, stepKa, stepKb;
  int32_t depthAL1CacheUB, depthBL1CacheUB, dbL0A, dbL0B, dbL0C;
  int32_t ALayoutInfoB, ALayoutInfoS, ALayoutInfoN, ALayoutInfoG, ALayoutInfoD;
  int32_t BLayoutInfoB, BLayoutInfoS, BLayoutInfoN, BLayoutInfoG, BLayoutInfoD;
  int32_t CLayoutInfoB, CLayoutInfoS1, CLayoutInfoN, CLayoutInfoG, CLayoutInfoS2;
  int32_t BatchNum;
} asc_tcube_tiling;

/* One TCubeTiling member: PyAsc's Python name, Ascend C's name, offset. */
typedef struct asc_tcube_field {
  const char *py_name;
  const char *c_name;
  size_t offset;
} asc_tcube_field;

/* Every member of asc_tcube_tiling in declaration order; static. */
extern const asc_tcube_field asc_tiling_tcube_fields[];
extern const size_t asc_tiling_tcube_field_count;

/* Hardware limits a tiling must respect (bytes, cores). */
typedef struct asc_tiling_hw {
  int64_t l1_size, l0a_size, l0b_size, l0c_size, ub_size, bt_size;
  int32_t cube_core_count, vector_core_count;
} asc_tiling_hw;

/* The BiasTable of a 910B-class core; not a device property. */
#define ASC_TILING_BT_SIZE 1024

/* The tiling request. Fill with asc_tiling_init, change with the setters
 * (which check their arguments), compute with asc_tiling_matmul_get. -1 in
 * an int field means "not set: choose" (or "the device's" for sizes). */
typedef struct asc_tiling_ctx {
  asc_tiling_kind kind;
  asc_tiling_hw hw;
  asc_tiling_operand a, b, c, bias;
  int32_t org_m, org_n, org_ka, org_kb;        /* full matrices (strides) */
  int32_t m, n, k;                             /* the part to compute */
  int32_t single_m, single_n, single_k;        /* multi-core: fixed per-core shape */
  int32_t dim;                                 /* multi-core: cores available */
  int32_t align_split[3];                      /* multi-core: singleCoreM/N multiple of */
  int32_t single_max[3], single_min[3];        /* multi-core: singleCoreM/N range */
  int32_t base_m, base_n, base_k;              /* fixed base block */
  int32_t max_base[3], min_base[3];            /* split range (m, n, k) */
  int64_t l1_size, l0c_size, ub_size, bt_size; /* buffer space limits */
  bool bias_enabled;
  int32_t traverse;
  bool db_a, db_b, db_c, db_bias;
  int32_t layout[3][5]; /* A (B,S,N,G,D), B (B,S,N,G,D), C (B,S1,N,G,S2) */
  int32_t batch_num, batch_a, batch_b;
  bool split_k; /* multi-core: K may be split over cores too (C by atomic adds) */
  bool sparse;  /* B is 4:2 structured sparse (half its values plus a 2-bit index each) */
  /* Filled by a successful asc_tiling_matmul_get; valid while has_result. */
  bool has_result;
  asc_tcube_tiling result;
  int32_t m_dim, n_dim; /* cores along M and N in the result */
} asc_tiling_ctx;

/* Resets ctx to Ascend C's defaults (A, B, C and bias float32 in GM, ND;
 * no bias; one core) with the buffer sizes of props. */
asc_status asc_tiling_init(asc_tiling_ctx *ctx, asc_tiling_kind kind,
                           const asc_device_props *props);

asc_status asc_tiling_set_type(asc_tiling_ctx *ctx, asc_tiling_operand_id which, int32_t pos,
                               int32_t format, int32_t dtype, bool trans);
/* Full matrix sizes; kb < 0 means kb = ka. */
asc_status asc_tiling_set_org_shape(asc_tiling_ctx *ctx, int64_t m, int64_t n, int64_t ka,
                                    int64_t kb);
asc_status asc_tiling_set_shape(asc_tiling_ctx *ctx, int64_t m, int64_t n, int64_t k);
/* Multi-core only. A -1 leaves that dimension to the tiling. */
asc_status asc_tiling_set_single_shape(asc_tiling_ctx *ctx, int64_t m, int64_t n, int64_t k);
/* Cores available, 1..65535 (a launch's block limit). */
asc_status asc_tiling_set_dim(asc_tiling_ctx *ctx, int64_t dim);
/* Multi-core: alignment and range of the per-core shape (-1: free).
 * Checked and stored; as in Ascend C's search on a 910B-class core they do
 * not change the tiling. */
asc_status asc_tiling_set_align_split(asc_tiling_ctx *ctx, int64_t align_m, int64_t align_n,
                                      int64_t align_k);
/* Multi-core: let the tiling split K over cores as well (the kernel
 * then adds each core's part of C atomically into zeroed memory). */
asc_status asc_tiling_enable_split_k(asc_tiling_ctx *ctx, bool flag);
/* B is 4:2 structured sparse: L1 holds half of B's values and an index of
 * an eighth of its dense size beside them, and baseK becomes a multiple of
 * 64 (docs/host-tiling.md, "Sparse B"). */
asc_status asc_tiling_set_sparse(asc_tiling_ctx *ctx, bool flag);
/* Multi-core: range of the per-core shape; checked and stored, does not
 * change the tiling (as in Ascend C's search). */
asc_status asc_tiling_set_single_range(asc_tiling_ctx *ctx, const int64_t max_single[3],
                                       const int64_t min_single[3]);
/* Fixed baseM/baseN/baseK (-1: chosen). baseM and baseN must be multiples
 * of 16 (checked by asc_tiling_matmul_get with the buffers); baseK is only
 * checked against L0A/L0B, as in Ascend C. */
asc_status asc_tiling_set_fix_split(asc_tiling_ctx *ctx, int64_t base_m, int64_t base_n,
                                    int64_t base_k);
/* Range of the base sizes; checked and stored, does not change the tiling
 * (as in Ascend C's search). */
asc_status asc_tiling_set_split_range(asc_tiling_ctx *ctx, const int64_t max_base[3],
                                      const int64_t min_base[3]);
/* Bytes the matmul may use; -1 keeps the device's size. */
asc_status asc_tiling_set_buffer_space(asc_tiling_ctx *ctx, int64_t l1, int64_t l0c, int64_t ub,
                                       int64_t bt);
asc_status asc_tiling_set_traverse(asc_tiling_ctx *ctx, int32_t traverse);
asc_status asc_tiling_enable_bias(asc_tiling_ctx *ctx, bool enable);
/* Double buffering of A, B, C and the bias: accepted and, as in Ascend C,
 * ignored (the search decides dbL0A/B/C and the L1 depths). */
asc_status asc_tiling_set_double_buffer(asc_tiling_ctx *ctx, bool a, bool b, bool c, bool bias);
/* which: 0 A, 1 B, 2 C; values B, S, N, G, D (C: B, S1, N, G, S2), each >= 0. */
asc_status asc_tiling_set_layout(asc_tiling_ctx *ctx, int which, const int64_t values[5]);
asc_status asc_tiling_set_batch_num(asc_tiling_ctx *ctx, int64_t batch);
asc_status asc_tiling_set_batch_info(asc_tiling_ctx *ctx, int64_t batch_a, int64_t batch_b,
                                     int64_t m, int64_t n, int64_t k);

/* Computes the tiling into *out (and ctx->result). On failure *out is
 * untouched and the message names the input or buffer that cannot work. */
asc_status asc_tiling_matmul_get(asc_tiling_ctx *ctx, asc_tcube_tiling *out);

/* Ascend C's SoftMaxTiling, which its SoftMax, SoftmaxFlash and SoftmaxGrad
 * take: the rows (srcM) of srcK elements, their max/sum outputs (one 32-byte
 * block a row) and the rows a pass (splitM) that the shared tmp buffer
 * holds, rangeM passes and tailM rows left. Member names are Ascend C's. */
typedef struct asc_softmax_tiling {
  uint32_t srcM, srcK, srcSize, outMaxM, outMaxK, outMaxSize, splitM, splitK, splitSize;
  uint32_t reduceM, reduceK, reduceSize, rangeM, tailM, tailSplitSize, tailReduceSize;
} asc_softmax_tiling;

/* Which SoftMax API a size or tiling is for; flag is its isUpdate
 * (SoftmaxFlash) or isFront (SoftmaxGrad), unused for SoftMax. */
typedef enum asc_softmax_kind {
  ASC_SOFTMAX,
  ASC_SOFTMAX_FLASH,
  ASC_SOFTMAX_GRAD,
} asc_softmax_kind;

/* The shared tmp buffer of m rows of k elements of type_size bytes (2 or
 * 4; k a whole number of 32-byte blocks), as CANN's GetSoftMaxMaxTmpSize /
 * GetSoftMaxMinTmpSize (and the Flash and Grad ones) compute it: *max_bytes
 * does every row in one pass, *min_bytes one row. Either may be NULL. */
asc_status asc_tiling_softmax_tmp_size(asc_softmax_kind kind, int64_t m, int64_t k,
                                       int32_t type_size, bool flag, uint32_t *max_bytes,
                                       uint32_t *min_bytes);

/* CANN's SoftMaxTilingFunc (and SoftMaxFlashTilingFunc, SoftMaxGradTilingFunc)
 * for work_bytes of shared tmp buffer into *out; an error, *out untouched,
 * when the buffer holds less than one row or the shape cannot work. */
asc_status asc_tiling_softmax(asc_softmax_kind kind, int64_t m, int64_t k, int32_t type_size,
                              uint32_t work_bytes, bool flag, asc_softmax_tiling *out);

/* SoftmaxFlashV2's (CANN's GetSoftMaxFlashV2Max/MinTmpSize, SoftMaxFlashV2TilingFunc): src
 * elements of src_size bytes, its max and sum of stat_size; basic: isBasicBlock, brc:
 * isFlashOutputBrc (isUpdate changes nothing on dav-2201). Errors as above. */
asc_status asc_tiling_softmax_flash_v2_tmp_size(int64_t m, int64_t k, int32_t src_size,
                                                int32_t stat_size, bool basic, bool brc,
                                                uint32_t *max_bytes, uint32_t *min_bytes);
asc_status asc_tiling_softmax_flash_v2(int64_t m, int64_t k, int32_t src_size, int32_t stat_size,
                                       uint32_t work_bytes, bool basic, bool brc,
                                       asc_softmax_tiling *out);

/* SoftmaxFlashV3's (CANN's GetSoftMaxFlashV3MaxMinTmpSize, SoftMaxFlashV3TilingFunc): half
 * data (src_size 2) and float statistics (stat_size 4) only. Errors as above. */
asc_status asc_tiling_softmax_flash_v3_tmp_size(int64_t m, int64_t k, int32_t src_size,
                                                int32_t stat_size, uint32_t *max_bytes,
                                                uint32_t *min_bytes);
asc_status asc_tiling_softmax_flash_v3(int64_t m, int64_t k, int32_t src_size, int32_t stat_size,
                                       uint32_t work_bytes, asc_softmax_tiling *out);

/* The shared tmp buffer of WelfordUpdate over an [rn, ab] source of
 * type_size bytes (2 or 4) with its reuse flag, as CANN's
 * GetWelfordUpdateMaxMinTmpSize computes it for dav-2201: *min_bytes
 * does one 256-byte repeat a pass, *max_bytes every element at once.
 * Either may be NULL; an error on a bad type or shape, sizes untouched. */
asc_status asc_tiling_welford_update_tmp_size(int64_t rn, int64_t ab, int32_t type_size,
                                              bool reuse_source, uint32_t *max_bytes,
                                              uint32_t *min_bytes);

/* WelfordFinalize's over ab partial means (a positive multiple of 8), as
 * CANN's GetWelfordFinalizeMaxMinTmpSize. Errors as above. */
asc_status asc_tiling_welford_finalize_tmp_size(int64_t ab, uint32_t *max_bytes,
                                                uint32_t *min_bytes);

/* Size in bits of a DataType the tiling accepts (DT_INT4: 4), 0 for any
 * other; asc_tiling_dtype_size: in whole bytes (0 for DT_INT4 too). */
int asc_tiling_dtype_bits(int32_t dtype);
int asc_tiling_dtype_size(int32_t dtype);

/* Ascend C's PadTiling (Pad), members in CANN's order: the shape (srcHeight rows
 * of srcWidth, srcOriWidth of them valid), the 32-byte-aligned case's fields
 * and the unaligned case's tmp-buffer split (zero when work_bytes is 0). */
typedef struct asc_pad_tiling {
  uint32_t srcHeight, srcWidth, srcOriWidth, widthWithoutLastBlock, blocksPerRow, heightTiling;
  uint32_t heightFractal, heightFractalTail, mainLoopOffset, tailBlockOffset, tmpBuffer1BlockNum;
  uint32_t tmpBuffer1RowNum, tmpBuffer2Offset, widthTiling, widthFractal, widthFractalTail;
  uint32_t widthFractalTailAlingned, brcbTiling, brcbFractal, brcbFractalTail, maxRepeatTimes;
  uint32_t brcbTilingRepeatTimes, brcbTilingRepeatTimesTail, brcbFractalTailRepeatTimes;
  uint32_t brcbFractalTailRepeatTimesTail, reserved;
} asc_pad_tiling;

/* Ascend C's UnPadTiling (UnPad), members in CANN's order. */
typedef struct asc_unpad_tiling {
  uint32_t srcHeight, srcWidth, tmpBuffer1BlockNum, tmpBuffer1RowNum, tmpBuffer2Offset;
  uint32_t widthTiling, widthFractal, widthFractalTail;
} asc_unpad_tiling;

/* Ascend C's ConfusionTransposeTiling: 18 numbers whose meaning depends on the
 * transpose type (CANN's param0..param17). */
typedef struct asc_confusion_transpose_tiling {
  uint32_t param[18];
} asc_confusion_transpose_tiling;

/* Pad's shared tmp buffer for a height x width source of type_size (2 or 4)
 * bytes, as CANN's GetPadMaxMinTmpSize: *max_bytes all rows at once,
 * *min_bytes one 16-block pass (1024 bytes). Either may be NULL; an error
 * for a non-positive shape, another type size or a size past uint32. */
asc_status asc_tiling_pad_tmp_size(int64_t height, int64_t width, int32_t type_size,
                                   uint32_t *max_bytes, uint32_t *min_bytes);
/* CANN's PadTilingFunc into *out (untouched on error): src height x width,
 * the original (valid) shape ori_height x ori_width (its size at most the
 * source's), work_bytes of tmp buffer (0: the aligned case's fields only;
 * otherwise at least the minimum). Fields CANN computes modulo 2^32 for a
 * width under one block (widthWithoutLastBlock, tailBlockOffset) are too. */
asc_status asc_tiling_pad(int64_t height, int64_t width, int64_t ori_height, int64_t ori_width,
                          uint32_t work_bytes, int32_t type_size, asc_pad_tiling *out);
/* UnPad's tmp buffer on dav-2201 (CANN's GetUnPadMaxMinTmpSize there): none,
 * both 0; errors as for Pad. */
asc_status asc_tiling_unpad_tmp_size(int64_t height, int64_t width, int32_t type_size,
                                     uint32_t *max_bytes, uint32_t *min_bytes);
/* CANN's UnPadTilingFunc into *out (untouched on error); work_bytes 0 fills
 * the shape only, any other must be at least 1024. */
asc_status asc_tiling_unpad(int64_t height, int64_t width, uint32_t work_bytes, int32_t type_size,
                            asc_unpad_tiling *out);
/* ConfusionTranspose's (Transpose with a TransposeType) tmp buffer, as CANN's
 * GetTransposeMaxMinTmpSize: type 1..7 (dav-2201's) or 13..15; dims its
 * srcShape ([B, N, S, H/N] for 1..6, [H, W] for 7, [H, W] or [N, H, W] for
 * 13, [N, H, W] for 14 and 15), each positive. */
asc_status asc_tiling_confusion_transpose_tmp_size(const int64_t *dims, int ndims,
                                                   int32_t type_size, uint32_t type,
                                                   uint32_t *max_bytes, uint32_t *min_bytes);
/* CANN's GetTransposeTilingInfo into *out (zeroed, then filled; untouched on
 * error). Types 1 and 2 need work_bytes of at least one 16 x 16 tile. */
asc_status asc_tiling_confusion_transpose(const int64_t *dims, int ndims, uint32_t work_bytes,
                                          int32_t type_size, uint32_t type,
                                          asc_confusion_transpose_tiling *out);
/* --- The normalisation family's host tiling (CANN's LayerNorm, LayerNormGrad,
 * LayerNormGradBeta, Normalize and DeepNorm tiling on dav-2201): src/tiling/layernorm.c.
 * Each struct has CANN's members in CANN's order (its optiling tiling data and the kernel's
 * AscendC::tiling struct of the same name). Shapes: b, s the rows' axes, h the stored (32-byte
 * aligned) last axis, orig_h its length before padding; a, r LayerNorm's separate [A, R] form;
 * type_size 2 (half) or 4 (float). The sizes are in bytes, computed in int64 and refused past
 * uint32 (the fields' type). On an input CANN refuses, or a buffer too small for one row, the
 * functions return ASC_ERR_INVALID_VALUE with the reason and leave *out untouched. */
typedef struct asc_layernorm_tiling {
  uint32_t bLength, sLength, hLength, originalHLength, inputXSize, meanVarSize, numberOfTmpBuf;
  uint32_t meanTmpTensorPos, meanTmpTensorSize, varianceTmpTensorPos, varianceTmpTensorSize;
  uint32_t tmpBufSize, oneTmpSize, firstTmpStartPos, secondTmpStartPos, thirdTmpStartPos;
  uint32_t loopRound, inputRoundSize, inputTailSize, inputTailPos, meanVarRoundSize;
  uint32_t meanVarTailSize, meanVarTailPos, bshCurLength, bsCurLength;
  float lastDimValueBack;
} asc_layernorm_tiling;
/* DeepNorm's tiling has LayerNormTiling's members. */
typedef asc_layernorm_tiling asc_deepnorm_tiling;

/* LayerNorm's separate form (output mean and rstd): on dav-2201 halfAddRepeatTimes,
 * rHeadLength, k2Rec, k2RRec and thirdTmpStartPos stay 0 (dav-3510's). */
typedef struct asc_layernorm_separate_tiling {
  uint32_t aLength, rLength, halfAddRepeatTimes, rHeadLength;
  float k2Rec, k2RRec;
  uint32_t inputXSize, meanVarSize, numberOfTmpBuf, varianceTmpTensorPos, varianceTmpTensorSize;
  uint32_t tmpBufSize, oneTmpSize, firstTmpStartPos, secondTmpStartPos, thirdTmpStartPos;
  uint32_t loopRound, inputRoundSize, inputTailSize, inputTailPos, meanVarRoundSize;
  uint32_t meanVarTailSize, meanVarTailPos, arCurLength, aCurLength;
  float rValueBack;
} asc_layernorm_separate_tiling;

/* lastDimValueBack and lastDimValueBackMulTwo hold the bits of 1/orig_h and 2/orig_h. */
typedef struct asc_layernorm_grad_tiling {
  uint32_t stackBufferSize, bLength, sLength, hLength, originalHLength, oneCalSize, nohCalSize;
  uint32_t loopNum, tailSize, nohTailSize, tmpTensorBSHPos, tmpTensorBSHSize, pdVarTensorPos;
  uint32_t pdVarTensorSize, pdMeanTensorPos, pdMeanTensorSize, x1TensorPos, x1TensorSize;
  uint32_t x2TensorPos, x2TensorSize, x3TensorPos, x3TensorSize, tmpTensorPos, tmpTensorSize;
  uint32_t tmpTensor1Pos, tmpTensor1Size, tmpTensor2Pos, tmpTensor2Size, lastDimValueBack;
  uint32_t lastDimValueBackMulTwo;
} asc_layernorm_grad_tiling;

/* stackBufferSize counts floats, as CANN's does. */
typedef struct asc_layernorm_grad_beta_tiling {
  uint32_t stackBufferSize, bLength, sLength, hLength, originalHLength, bshLength, bsLength;
  uint32_t oneCalSize, numberOfTmpBuf, loopRound, inputTailSize, inputTailPos, bsTailSize;
  uint32_t bshCurLength, bsCurLength, gammaTempTensorPos, betaTempTensorPos;
  uint32_t inputDyTmpTensorPos, resForGammaTmpTensorPos, reserved;
} asc_layernorm_grad_beta_tiling;

/* LayerNorm [B, S, H] (GetLayerNormMaxMinTmpSize, GetLayerNormNDTilingInfo). */
asc_status asc_tiling_layernorm_tmp_size(int64_t b, int64_t s, int64_t h, int32_t type_size,
                                         bool reuse, uint32_t *max_bytes, uint32_t *min_bytes);
asc_status asc_tiling_layernorm(int64_t b, int64_t s, int64_t h, int64_t orig_h,
                                uint32_t work_bytes, int32_t type_size, bool reuse,
                                asc_layernorm_tiling *out);
/* LayerNorm [A, R], mean and rstd out: compute_rstd must be true and only_output false (the
 * only form dav-2201 has). Normalize's sizes: size_u gamma/beta's, size_t the input's. */
asc_status asc_tiling_layernorm_separate_tmp_size(int64_t a, int64_t r, int32_t type_size,
                                                  bool compute_rstd, bool only_output,
                                                  uint32_t *max_bytes, uint32_t *min_bytes);
asc_status asc_tiling_layernorm_separate(int64_t a, int64_t r, uint32_t work_bytes,
                                         int32_t type_size, bool compute_rstd,
                                         asc_layernorm_separate_tiling *out);
asc_status asc_tiling_normalize_tmp_size(int64_t a, int64_t r, int32_t size_u, int32_t size_t_,
                                         bool compute_rstd, bool only_output, uint32_t *max_bytes,
                                         uint32_t *min_bytes);
/* LayerNormGrad and LayerNormGradBeta [B, S, H, orig_h]. */
asc_status asc_tiling_layernorm_grad_tmp_size(int64_t b, int64_t s, int64_t h, int32_t type_size,
                                              bool reuse, uint32_t *max_bytes, uint32_t *min_bytes);
asc_status asc_tiling_layernorm_grad(int64_t b, int64_t s, int64_t h, int64_t orig_h,
                                     uint32_t work_bytes, int32_t type_size, bool reuse,
                                     asc_layernorm_grad_tiling *out);
asc_status asc_tiling_layernorm_grad_beta_tmp_size(int64_t b, int64_t s, int64_t h,
                                                   int32_t type_size, uint32_t *max_bytes,
                                                   uint32_t *min_bytes);
asc_status asc_tiling_layernorm_grad_beta(int64_t b, int64_t s, int64_t h, int64_t orig_h,
                                          uint32_t work_bytes, int32_t type_size,
                                          asc_layernorm_grad_beta_tiling *out);
/* DeepNorm [B, S, H] (h 32-byte aligned, at most 2040; basic: h in 64s and b * s in 8s). The
 * tiling also takes the original shape's orig_b, orig_s (equal to b, s) and orig_h (in (0, h],
 * equal to h for a basic block) and a work_bytes of at least the minimum. */
asc_status asc_tiling_deepnorm_tmp_size(int64_t b, int64_t s, int64_t h, int32_t type_size,
                                        bool reuse, bool basic, uint32_t *max_bytes,
                                        uint32_t *min_bytes);
asc_status asc_tiling_deepnorm(int64_t b, int64_t s, int64_t h, int64_t orig_b, int64_t orig_s,
                               int64_t orig_h, uint32_t work_bytes, int32_t type_size, bool reuse,
                               bool basic, asc_deepnorm_tiling *out);

/* Ascend C's TopkTiling (TopK, the merge-sort algorithm), members in CANN's
 * order. Offsets and sizes count elements of the value type T unless named
 * otherwise; the vreduce masks are the NSMALL mode's GatherMask patterns. */
typedef struct asc_topk_tiling {
  int32_t tmpLocalSize, allDataSize, innerDataSize;
  uint32_t sortRepeat;
  int32_t mrgSortRepeat, kAlignFourBytes, kAlignTwoBytes, maskOffset;
  int32_t maskVreducev2FourBytes, maskVreducev2TwoBytes;
  int32_t mrgSortSrc1offset, mrgSortSrc2offset, mrgSortSrc3offset, mrgSortTwoQueueSrc1Offset;
  int32_t mrgFourQueueTailPara1, mrgFourQueueTailPara2, srcIndexOffset;
  uint32_t copyUbToUbBlockCount;
  int32_t topkMrgSrc1MaskSizeOffset, topkNSmallSrcIndexOffset;
  uint32_t vreduceValMask0, vreduceValMask1, vreduceIdxMask0, vreduceIdxMask1;
  uint16_t vreducehalfValMask0, vreducehalfValMask1, vreducehalfValMask2, vreducehalfValMask3;
  uint16_t vreducehalfValMask4, vreducehalfValMask5, vreducehalfValMask6, vreducehalfValMask7;
} asc_topk_tiling;

/* TopK's modes (CANN's TopKMode): rows of any multiple of 32 elements, or
 * rows of exactly 32 sorted all at once. */
enum { ASC_TOPK_NORMAL = 0, ASC_TOPK_NSMALL = 1 };

/* TopK's shared tmp buffer in bytes on dav-2201, as CANN's
 * GetTopKMaxMinTmpSize: outter rows of inner (a positive multiple of 32;
 * exactly 32 in ASC_TOPK_NSMALL) elements of type_size (2 or 4) bytes, at
 * most ub_bytes in all; is_init_index: the caller passes the indices (none
 * generated into the buffer); is_largest false needs room for the negated
 * source in NSMALL mode. Max and min are equal; either pointer may be NULL.
 * Errors (outputs untouched) for any other input. */
asc_status asc_tiling_topk_tmp_size(int64_t inner, int64_t outter, int is_init_index, int mode,
                                    int is_largest, int32_t type_size, uint64_t ub_bytes,
                                    uint32_t *max_bytes, uint32_t *min_bytes);
/* CANN's TopKTilingFunc for dav-2201 into *out (zeroed, then filled;
 * untouched on error): the inputs as for the tmp size, and k in [1, inner]. */
asc_status asc_tiling_topk(int64_t inner, int64_t outter, int64_t k, int32_t type_size,
                           int is_init_index, int mode, int is_largest, uint64_t ub_bytes,
                           asc_topk_tiling *out);

#ifdef __cplusplus
}
#endif
#endif
