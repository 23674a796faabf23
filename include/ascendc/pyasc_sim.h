/* The C interface between Ascend C compiled for the simulated AI cores
 * (kernel_operator.h, C++17) and pyasc's C kernel runtime (src/compiler/rt).
 *
 * libasc compiles the runtime twice, plain and checked, into one table of
 * functions each (src/compiler/ascendc_rt.c). A kernel built from Ascend C
 * declares the slot `pyasc_sim_table`; when the kernel's shared object is
 * loaded, libasc stores there the table its checked mode asks for
 * (`pyasc_sim_checked`). kernel_operator.h's classes and functions are thin
 * typed calls through that table: every semantic has one implementation, the
 * runtime's, shared with kernels written in Python.
 *
 * Every call takes the block's context (opaque), and the source file and
 * line of the user's call for error messages; a non-zero return means the
 * call failed and the context holds the message ("file:line: ..."). */
#ifndef PYASC_SIM_H
#define PYASC_SIM_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define PYASC_SIM_VERSION 1

/* A kernel argument as the launcher passes it (the runtime's asc_k_arg). */
typedef struct pyasc_sim_arg {
  union {
    int64_t i;
    double f;
    char *p;
  } v;
  int64_t n; /* bytes of an address argument's memory */
} pyasc_sim_arg;

/* A GlobalTensor (the runtime's asc_k_gt) and a LocalTensor (asc_k_lt). */
typedef struct pyasc_sim_gt {
  char *base;
  int64_t n, lead, size, skip;
} pyasc_sim_gt;
typedef struct pyasc_sim_lt {
  int64_t off, len; /* UB byte offset, elements */
} pyasc_sim_lt;
/* off of a tensor in a cube buffer (L1, L0A, L0B, L0C): that buffer's index
 * plus one above this bit, its byte below */
#define PYASC_SIM_CUBE_TAG_SHIFT 40

/* Bytes a TPipe, a TQue and a TBuf keep for the runtime's objects. */
#define PYASC_SIM_PIPE_BYTES 1024
#define PYASC_SIM_QUE_BYTES 2048
#define PYASC_SIM_TBUF_BYTES 64
/* Bytes a Matmul keeps for the runtime's object (asc_k_matmul). */
#define PYASC_SIM_MM_BYTES 2048
/* Matmul members through mm_more, and what v holds for each:
 * ORG_KC m, n, ka, kb, kc; SET_SCALAR which (f the value); SET_LOCAL which,
 * trans, dt (t); GET_C_BOTH g's dt, t's dt; BATCH_NUM batchA, batchB;
 * ITERATE_BATCH dt, batchA, batchB, strideA, strideB (-1, -1: SetBatchNum's);
 * ITERATE_N_BATCH loop, batchA, batchB, strideA, strideB; GET_BATCH_C(_GM)
 * batchA, batchB; QUANT_SCALAR bits; QUANT_VECTOR, WORKSPACE element size. */
enum {
  PYASC_SIM_MM_ORG_KC,
  PYASC_SIM_MM_SET_SCALAR,
  PYASC_SIM_MM_SET_LOCAL,
  PYASC_SIM_MM_GET_C_BOTH,
  PYASC_SIM_MM_BATCH_NUM,
  PYASC_SIM_MM_ITERATE_BATCH,
  PYASC_SIM_MM_ITERATE_N_BATCH,
  PYASC_SIM_MM_GET_BATCH_C,
  PYASC_SIM_MM_GET_BATCH_C_GM,
  PYASC_SIM_MM_QUANT_SCALAR,
  PYASC_SIM_MM_QUANT_VECTOR,
  PYASC_SIM_MM_WORKSPACE
};

/* The cube forms through cube_more, and what v holds for each: FPQ the
 * pre-quant flag; CO12 (DataCopy from L0C with DataCopyCO12DstParams) dst's
 * dt, src's dt, nSize, mSize, dstStride, srcStride, reluPre, quantPre, NZ
 * output, to the UB (dst) or GM (g); LOAD_T (LoadDataWithTranspose) dt,
 * startIndex, repeatTimes, srcStride, dstGap, dstFracGap; ND2NZ_PAD
 * (DataCopyPad UB -> L1) dt, DataCopyExtParams' 4 numbers, Nd2NzParams' 8;
 * LOAD_SPARSE (LoadDataWithSparse, the index third) startIndex,
 * repeatTimes, srcStride, dstGap, ifTranspose; MMAD_SPARSE (MmadWithSparse:
 * dst, fm src, filter third) m, n, k, init; LOAD3D_V2 (LoadData with
 * LoadData3DParamsV2, dst, src) dt, padList[4], l1H, l1W, channelSize,
 * kExtension, mExtension, kStartPt, mStartPt, strideW, strideH, filterW,
 * filterH, dilationFilterW, dilationFilterH, enTranspose, filterSizeW,
 * filterSizeH, fMatrixCtrl, then padValue as a double's bits; READ
 * (DumpTensor of an L1 or L0C tensor, src) the element size, the count
 * and the first element, copied to g.base (g.n bytes); the img2col
 * registers: L3D_BOUNDARY (SetLoadDataBoundary) the boundary; L3D_PAD
 * (SetLoadDataPaddingValue) the value as a double's bits; L3D_REPEAT
 * (SetLoadDataRepeat) repeatTime, repeatStride, repeatMode; LOAD3D_V1 (LoadData with
 * LoadData3DParamsV1, dst, src) dt, padList[4], l1H, l1W, c1Index, fetchFilterW/H,
 * leftTopW/H, strideW/H, filterW/H, dilationFilterW/H, jumpStride, repeatMode, repeatTime,
 * cSize, then padValue as a double's bits; LOAD3D_V2PRO dt, channelSize, enTranspose,
 * enSmallK, filterSizeW/H, fMatrixCtrl, extConfig, filterConfig; LOAD2D_V2 (LoadData with
 * LoadData2DParamsV2, dst and src, or g from GM) dt, mStartPosition, kStartPosition, mStep,
 * kStep, srcStride, dstStride, ifTranspose, sid, from GM. */
enum {
  PYASC_SIM_CUBE_FPQ,
  PYASC_SIM_CUBE_CO12,
  PYASC_SIM_CUBE_LOAD_T,
  PYASC_SIM_CUBE_ND2NZ_PAD,
  PYASC_SIM_CUBE_LOAD_SPARSE,
  PYASC_SIM_CUBE_MMAD_SPARSE,
  PYASC_SIM_CUBE_LOAD3D_V2,
  PYASC_SIM_CUBE_READ,
  PYASC_SIM_CUBE_L3D_BOUNDARY,
  PYASC_SIM_CUBE_L3D_PAD,
  PYASC_SIM_CUBE_L3D_REPEAT,
  PYASC_SIM_CUBE_LOAD3D_V1,
  PYASC_SIM_CUBE_LOAD3D_V2PRO,
  PYASC_SIM_CUBE_LOAD2D_V2
};

/* The other vector and state forms through vec_more: t the tensors, v the
 * numbers, f a floating value, out a result. SET_PAD_VALUE f; BRCB t dst,
 * src, v repeatTime, dstBlkStride, dstRepStride, element size; GATHER t
 * dst, src, offsets, v srcBaseOffset, count, element size; GATHERB t dst,
 * src, offsets, v repeatTime, dstBlkStride, dstRepStride, dtype; GATHER_MASK
 * t dst, src0, pattern tensor, v built-in pattern (0: the tensor), reduceMode,
 * mask, src0BlockStride, repeatTimes, src0RepeatStride, src1RepeatStride,
 * dtype, out rsvdCnt; SORT32 t dst, src0, src1, v repeatTime, dtype;
 * MRG_SORT t dst and 4 sources, v 4 lengths, validBit, repeatTimes,
 * ifExhaustedSuspension, dtype; TRANSPOSE t dst, src, v element size;
 * TRANSPOSE_EXT t dst, src, tmp, v n, c, h, w, TransposeType, element size;
 * TRANS_5HD t 16 dst then 16 src, v dstHighHalf, srcHighHalf, repeatTimes,
 * dstRepStride, srcRepStride, element size; TRANS_5HD_AT the same with v[6..]
 * the 32 UB byte addresses instead of t; INIT_SOC_STATE nothing; SYSTEM_CYCLE out the
 * cycle counter; IB_SET, IB_WAIT g the workspace, t the UB workspace, v blockIdx, eventID,
 * isAIVOnly; NOTIFY_NEXT_BLOCK, WAIT_PRE_BLOCK, INIT_DETERMINE g the workspace, t the UB
 * workspace; CREATE_VEC_INDEX t dst, v dtype, count, f firstValue; COPY_SLICE (DataCopy with
 * SliceInfo lists) t the UB tensor, g the GM one, v direction (0 GM -> UB, 1 UB -> GM), dims,
 * element size, then dst's dims x (start, end, stride, burstLen, shape), then src's;
 * LIST_DESC (ListTensorDesc, TensorDesc) g the list, v what (0 check the list, 1 the tensor
 * count, 2 tensor index's dim, 3 its index, 4 its shape[offset], 5 its data pointer, 6 check tensor
 * index), length, shapeSize, index, offset, out the value; INT4 the int4b_t forms
 * (PYASC_SIM_I4_*). */
enum {
  PYASC_SIM_VEC_SET_PAD_VALUE,
  PYASC_SIM_VEC_BRCB,
  PYASC_SIM_VEC_GATHER,
  PYASC_SIM_VEC_GATHERB,
  PYASC_SIM_VEC_GATHER_MASK,
  PYASC_SIM_VEC_SORT32,
  PYASC_SIM_VEC_MRG_SORT,
  PYASC_SIM_VEC_TRANSPOSE,
  PYASC_SIM_VEC_TRANSPOSE_EXT,
  PYASC_SIM_VEC_TRANS_5HD,
  PYASC_SIM_VEC_TRANS_5HD_AT,
  PYASC_SIM_VEC_INIT_SOC_STATE,
  PYASC_SIM_VEC_SYSTEM_CYCLE,
  PYASC_SIM_VEC_IB_SET,
  PYASC_SIM_VEC_IB_WAIT,
  PYASC_SIM_VEC_NOTIFY_NEXT_BLOCK,
  PYASC_SIM_VEC_WAIT_PRE_BLOCK,
  PYASC_SIM_VEC_INIT_DETERMINE,
  PYASC_SIM_VEC_L2_HINT, /* v: CacheMode, CacheRwMode; only the timing model reads it */
  PYASC_SIM_VEC_CREATE_VEC_INDEX,
  PYASC_SIM_VEC_COPY_SLICE,
  PYASC_SIM_VEC_LIST_DESC,
  PYASC_SIM_VEC_REDUCE_SUM_SPR,
  PYASC_SIM_VEC_GROUP_ARRIVE,
  PYASC_SIM_VEC_GROUP_WAIT,
  PYASC_SIM_VEC_GM_FILL,
  PYASC_SIM_VEC_INT4
};
/* The int4b_t forms through vec_more (PYASC_SIM_VEC_INT4, v[0]); what the
 * rest of v, t and out hold: src/compiler/ascendc_rt_int4.h. */
enum {
  PYASC_SIM_I4_NEW,
  PYASC_SIM_I4_SLICE,
  PYASC_SIM_I4_REINTERPRET,
  PYASC_SIM_I4_GET,
  PYASC_SIM_I4_SET,
  PYASC_SIM_I4_CAST,
  PYASC_SIM_I4_PHY_ADDR,
  PYASC_SIM_I4_GM_OFFSET
};

/* TBufPool and a custom pool (EXTERN_IMPL_BUFPOOL) through pool_more: pool the
 * pool's runtime TPipe (PYASC_SIM_PIPE_BYTES), other and obj as each op says.
 * NEW v bufIDSize; INIT other the parent TPipe or pool, obj the pool shared
 * (NULL: none), v len, out the pool's first UB byte; RESET nothing else;
 * QUE_BUF (InitBufHandle) obj the TQue, v num, index, addr, len; TBUF_BUF obj
 * the TBuf, v addr, len; STACK (PopStackBuffer) pool a TPipe, out the first UB byte past its
 * buffers (32-byte aligned) and the bytes left to the UB's end. */
enum {
  PYASC_SIM_POOL_NEW,
  PYASC_SIM_POOL_INIT,
  PYASC_SIM_POOL_RESET,
  PYASC_SIM_POOL_QUE_BUF,
  PYASC_SIM_POOL_TBUF_BUF,
  PYASC_SIM_POOL_STACK
};

/* The adv library, the fused and dequantising vector forms, sorts over proposals, scalar bit
 * helpers and system registers through adv_more: t the tensors, v the numbers, f a floating
 * value, g a GlobalTensor, out the result(s). tmp_min < 0: no sharedTmpBuffer (t's slot
 * unused). UNARY v fn (PYASC_SIM_FN_*), dt, count, taylor level, -1 without a buffer else
 * whether a float source may be overwritten (the least buffer depends on it), t dst, src, tmp;
 * BINARY v xor, dt, count, tmp_min, for power which operand is the scalar f (0 none, 1 the
 * base, 2 the exponent), t dst, src0, src1, tmp; ELEMENTWISE v fn (the runtime's
 * ASC_K_ADV_EW_*), dt, count, tmp_min, the bits of a double second scalar, f the first
 * scalar, t dst, src0, src1, tmp; CUMSUM v dt, outter, inner, along the last axis, with the last
 * row, t dst, lastRow, src; BROADCAST v element size, dst rows, cols, src rows, cols, axis,
 * t dst, src; DEQUANT v dst dt, scale dt, m, n, calCount, single-row mode, t dst, src, scale;
 * SELECT v dt, mask dt, the scalar first, firstAxis, srcLastAxis, maskLastAxis, f the scalar,
 * t dst, src, mask; AXPY v dst dt, src dt, count,
 * tmp_min, f the scalar, t dst, src, tmp; SOFTMAX v dt, sum dt, rows, columns, tmp_min,
 * LogSoftMax's log10, t dst, sum, max, src, tmp; RMSNORM v dt, rows, h, tmp_min, the bits of a
 * double 1/h, f epsilon, t dst, src, gamma, tmp; QUANT v src dt, count, tmp_min, the bits of a
 * double offset, f the scale, t dst, src, tmp; CONCAT v dt, repeat, t dst, src, tmp; EXTRACT v dt,
 * repeat, t value, index, src; SCALAR_CLZ, SCALAR_SIGN_BITS v the value; SCALAR_COUNT, SCALAR_SFF v
 * the value, the bit; SCALAR_CAST v the target dt, RoundMode, f the value, out a double's bits;
 * GATHER_MASK_COUNT, PROGRAM_COUNTER, ICACHE_STATUS, TASK_RATIO out; ATOMIC_CONFIG out type,
 * op; TIME_STAMP v id; DCACHE_PRELOAD g, v offset; ICACHE_PRELOAD v length; CHECK_IA v the
 * CheckLocalMemoryIAParam's 10 fields; DUMP_ACC v dt, global, index, countOff, dumpSize, t or
 * g the tensor; HCCL v set, index, g the context (out: the address for get); SYNC_ALL_SOFT
 * g, t, v used cores; INIT_CONST v dt, repeat, blocks, gap, f value; SET_DEQ v offset, sign,
 * f the scale; SET_DEQ_HALF f; SET_VDEQ t the deq tensor, v 16 scales as double bits, 16
 * offsets, 16 signs; CAST_DEQ v dst dt, src dt, isVecDeq, halfBlock, count, then for the
 * mask form m0, m1, repeat, dst/src block and repeat strides, kind, isSetMask (v[4] -1: the
 * count form reads v[5..]); ADD_DEQ_RELU and FCAST (v[0] which: 0 AddReluCast, 1 SubReluCast,
 * 2 MulCast) v dst dt, src dt, then count or the mask form's m0, m1, repeat, 6 strides, kind,
 * isSetMask, t dst, src0, src1; REPEAT_REDUCE_SUM v dt, mask, repeat, dstRepStride,
 * srcBlkStride, srcRepStride, isSetMask, t dst, src; GATHER_SCATTER v scatter, mask form,
 * base, count or m0, m1, repeat, repeat stride, kind, dt, element size, t dst, src, offsets;
 * SORT v dt, repeat, full, t dst, concat, index, tmp; MRG_SORT4 v dt, 4 lengths, validBit,
 * repeat, ifExhaustedSuspension, t dst, 4 sources; MRG_SORT_RESULT v dt, out 4 counts;
 * RP_SORT16 v dt, repeat; PROPOSAL v dt, extract, repeat, mode, t dst, src; SORT_LEN and
 * SORT_OFFSET v dt, count, out; LOCAL_RESIZE (SetBufferLen) t, v bytes, element size, out the
 * tensor's offset and length; LOCAL_WITH_OFFSET t src, v offset, src's and dst's element
 * sizes, out as LOCAL_RESIZE; USER_TAG t, v set, tag, out the tag; TRANS_5HD_TENSOR t dst,
 * src (the address lists), v repeat, dst and src repeat strides, dst and src high half,
 * element size; BILINEAR t dst, src0, offsets, src1, tmp, v m0, m1, hRepeat, repeatMode,
 * dstBlkStride, vROffset, vRepeat, mask kind; AIPP_SET (SetAippFunctions) g src0, v format,
 * planes, the config's dt, AippParams' 37 members as double bits, then src1's base (bits), n,
 * lead, size, skip; AIPP_LOAD (LoadImageToLocal) t dst, v dt, the 9 sizes; SOFTMAX_ADJUST
 * (AdjustSoftMaxRes) v res dt, max dt, from's bits, rows, columns, one max a row, f to, t res,
 * max, out whether a row matched; SOFTMAX_GRAD v dt, rows, columns, front, tmp_min, t dst,
 * grad, src, tmp; SOFTMAX_FLASH2 v dt, statistics' dt, rows, columns, update, tmp_min, t dst,
 * sum, max, src, expMax, inExpSum, inMax, tmp; REDUCE2 (adv ReduceMax/ReduceMin) v dt, max,
 * first, last, RA, the row stride, tmp_min, t dst, src, tmp; DROPOUT v dt, rows, src's and the
 * mask's row lengths, bit mode, tmp_min, f keepProb, t dst, src, mask, tmp; ANTIQUANT v src dt,
 * dst dt, per tensor, rows, cols, groups, transposed, the offset's bits (a double), f the scale,
 * t dst, src, offset (length 0: none), scale. */
enum {
  PYASC_SIM_ADV_UNARY,
  PYASC_SIM_ADV_BINARY,
  PYASC_SIM_ADV_AXPY,
  PYASC_SIM_ADV_ELEMENTWISE,
  PYASC_SIM_ADV_CUMSUM,
  PYASC_SIM_ADV_BROADCAST,
  PYASC_SIM_ADV_DEQUANT,
  PYASC_SIM_ADV_SELECT,
  PYASC_SIM_ADV_SOFTMAX,
  PYASC_SIM_ADV_RMSNORM,
  PYASC_SIM_ADV_QUANT,
  PYASC_SIM_ADV_CONCAT,
  PYASC_SIM_ADV_EXTRACT,
  PYASC_SIM_ADV_SCALAR_CLZ,
  PYASC_SIM_ADV_SCALAR_SIGN_BITS,
  PYASC_SIM_ADV_SCALAR_COUNT,
  PYASC_SIM_ADV_SCALAR_SFF,
  PYASC_SIM_ADV_SCALAR_CAST,
  PYASC_SIM_ADV_GATHER_MASK_COUNT,
  PYASC_SIM_ADV_PROGRAM_COUNTER,
  PYASC_SIM_ADV_ICACHE_STATUS,
  PYASC_SIM_ADV_TASK_RATIO,
  PYASC_SIM_ADV_ATOMIC_CONFIG,
  PYASC_SIM_ADV_TIME_STAMP,
  PYASC_SIM_ADV_DCACHE_PRELOAD,
  PYASC_SIM_ADV_ICACHE_PRELOAD,
  PYASC_SIM_ADV_CHECK_IA,
  PYASC_SIM_ADV_DUMP_ACC,
  PYASC_SIM_ADV_HCCL,
  PYASC_SIM_ADV_SYNC_ALL_SOFT,
  PYASC_SIM_ADV_INIT_CONST,
  PYASC_SIM_ADV_SET_DEQ,
  PYASC_SIM_ADV_SET_DEQ_HALF,
  PYASC_SIM_ADV_SET_VDEQ,
  PYASC_SIM_ADV_CAST_DEQ,
  PYASC_SIM_ADV_ADD_DEQ_RELU,
  PYASC_SIM_ADV_FCAST,
  PYASC_SIM_ADV_REPEAT_REDUCE_SUM,
  PYASC_SIM_ADV_GATHER_SCATTER,
  PYASC_SIM_ADV_SORT,
  PYASC_SIM_ADV_MRG_SORT4,
  PYASC_SIM_ADV_MRG_SORT_RESULT,
  PYASC_SIM_ADV_RP_SORT16,
  PYASC_SIM_ADV_PROPOSAL,
  PYASC_SIM_ADV_SORT_LEN,
  PYASC_SIM_ADV_SORT_OFFSET,
  PYASC_SIM_ADV_LOCAL_RESIZE,
  PYASC_SIM_ADV_LOCAL_WITH_OFFSET,
  PYASC_SIM_ADV_USER_TAG,
  PYASC_SIM_ADV_TRANS_5HD_TENSOR,
  PYASC_SIM_ADV_BILINEAR,
  PYASC_SIM_ADV_AIPP_SET,
  PYASC_SIM_ADV_AIPP_LOAD,
  PYASC_SIM_ADV_SOFTMAX_ADJUST,
  PYASC_SIM_ADV_SOFTMAX_GRAD,
  PYASC_SIM_ADV_SOFTMAX_FLASH2,
  PYASC_SIM_ADV_REDUCE2,
  PYASC_SIM_ADV_DROPOUT,
  PYASC_SIM_ADV_ANTIQUANT
};
/* The adv library's element-wise maths (the runtime's ASC_K_ADV_*, in its order). */
enum {
  PYASC_SIM_FN_ACOS,
  PYASC_SIM_FN_ACOSH,
  PYASC_SIM_FN_ASIN,
  PYASC_SIM_FN_ASINH,
  PYASC_SIM_FN_ATAN,
  PYASC_SIM_FN_ATANH,
  PYASC_SIM_FN_CEIL,
  PYASC_SIM_FN_COS,
  PYASC_SIM_FN_COSH,
  PYASC_SIM_FN_DIGAMMA,
  PYASC_SIM_FN_ERF,
  PYASC_SIM_FN_ERFC,
  PYASC_SIM_FN_EXP,
  PYASC_SIM_FN_FLOOR,
  PYASC_SIM_FN_FRAC,
  PYASC_SIM_FN_LGAMMA,
  PYASC_SIM_FN_LOG,
  PYASC_SIM_FN_ROUND,
  PYASC_SIM_FN_SIGN,
  PYASC_SIM_FN_SIN,
  PYASC_SIM_FN_SINH,
  PYASC_SIM_FN_TAN,
  PYASC_SIM_FN_TANH,
  PYASC_SIM_FN_TRUNC
};

/* The adv library's element-wise forms that only Ascend C calls (the runtime's
 * ASC_K_ADV_EW_*, in its order). */
enum {
  PYASC_SIM_EW_GELU,
  PYASC_SIM_EW_SIGMOID,
  PYASC_SIM_EW_SILU,
  PYASC_SIM_EW_SWISH,
  PYASC_SIM_EW_CLAMP_MIN,
  PYASC_SIM_EW_CLAMP_MAX,
  PYASC_SIM_EW_GEGLU,
  PYASC_SIM_EW_FMOD,
  PYASC_SIM_EW_SWIGLU,
  PYASC_SIM_EW_ARANGE
};

/* Vector operations, by form. */
enum { PYASC_SIM_ADD, PYASC_SIM_SUB, PYASC_SIM_MUL, PYASC_SIM_DIV, PYASC_SIM_MAX, PYASC_SIM_MIN };
enum { PYASC_SIM_ADDS, PYASC_SIM_MULS, PYASC_SIM_MAXS, PYASC_SIM_MINS };
enum {
  PYASC_SIM_EXP,
  PYASC_SIM_LN,
  PYASC_SIM_ABS,
  PYASC_SIM_SQRT,
  PYASC_SIM_RSQRT,
  PYASC_SIM_RECIPROCAL,
  PYASC_SIM_RELU
};
enum { PYASC_SIM_REDUCE_SUM, PYASC_SIM_REDUCE_MAX, PYASC_SIM_REDUCE_MIN };
/* data copies: GM -> UB, UB -> GM, UB -> UB */
enum { PYASC_SIM_GM_UB, PYASC_SIM_UB_GM, PYASC_SIM_UB_UB };

/* The element-wise executor's operations (the runtime's asc_k_vrun), the
 * C emitter's count and mask (level-0) forms of these APIs. */
enum {
  PYASC_SIM_VOP_ADD,
  PYASC_SIM_VOP_SUB,
  PYASC_SIM_VOP_MUL,
  PYASC_SIM_VOP_DIV,
  PYASC_SIM_VOP_MAX,
  PYASC_SIM_VOP_MIN,
  PYASC_SIM_VOP_AND,
  PYASC_SIM_VOP_OR,
  PYASC_SIM_VOP_FUSED_MUL_ADD,
  PYASC_SIM_VOP_MUL_ADD_DST,
  PYASC_SIM_VOP_ADDS,
  PYASC_SIM_VOP_MULS,
  PYASC_SIM_VOP_MAXS,
  PYASC_SIM_VOP_MINS,
  PYASC_SIM_VOP_LEAKY_RELU,
  PYASC_SIM_VOP_SHIFT_LEFT,
  PYASC_SIM_VOP_SHIFT_RIGHT,
  PYASC_SIM_VOP_AXPY,
  PYASC_SIM_VOP_EXP,
  PYASC_SIM_VOP_LN,
  PYASC_SIM_VOP_ABS,
  PYASC_SIM_VOP_SQRT,
  PYASC_SIM_VOP_RSQRT,
  PYASC_SIM_VOP_RECIPROCAL,
  PYASC_SIM_VOP_RELU,
  PYASC_SIM_VOP_NOT,
  PYASC_SIM_VOP_CAST,
  PYASC_SIM_VOP_COMPARE,
  PYASC_SIM_VOP_COMPARE_SCALAR,
  PYASC_SIM_VOP_SELECT,
  PYASC_SIM_VOP_SELECTS,
  PYASC_SIM_VOP_COPY,
  PYASC_SIM_VOP_DUPLICATE,
  PYASC_SIM_VOP_ADD_RELU,
  PYASC_SIM_VOP_SUB_RELU,
  PYASC_SIM_VOP_FUSED_MUL_ADD_RELU,
  PYASC_SIM_VOP_COUNT
};

/* One instruction of the executor: dst t[0] and nsrc tensor sources, with
 * their dtypes and block and repeat strides (in 32-byte blocks). kind 0: a
 * continuous mask m0; 1: the bit mask [m0, m1] (low word first); 2: the
 * count form (m0 elements). set_mask 0 uses the mask register. mode:
 * RoundMode (Cast), CMPMODE (Compare), SELMODE (Select). */
typedef struct pyasc_sim_vargs {
  int op, mode, nsrc;
  int dt[3];
  pyasc_sim_lt t[3];
  int64_t blk[3], rep[3];
  double scalar;
  pyasc_sim_lt sel; /* Select's mask tensor */
  int sel_dt;
  int kind, set_mask;
  uint64_t m0, m1;
  int64_t repeat;
} pyasc_sim_vargs;

/* A per-repeat reduction (the runtime's asc_k_rrun): shape 0 WholeReduce*,
 * 1 BlockReduce*, 2 PairReduceSum; what PYASC_SIM_REDUCE_*; order the
 * ReduceOrder of WholeReduceMax/Min; the mask as in pyasc_sim_vargs. */
typedef struct pyasc_sim_rargs {
  int what, shape, dt, order;
  pyasc_sim_lt dst, src;
  int kind, set_mask;
  uint64_t m0, m1;
  int64_t repeat, dst_rep, src_blk, src_rep;
} pyasc_sim_rargs;

typedef struct pyasc_sim_api {
  int version; /* PYASC_SIM_VERSION */
  int checked; /* 1: the checked mode's runtime */
  /* a block's run: before and after the kernel function */
  int (*begin)(void *k);
  void (*end)(void *k);
  int (*failed)(void *k); /* whether a call failed (the block stops) */
  int (*fail)(void *k, const char *file, int line, const char *message);
  int64_t (*block_idx)(void *k);
  int64_t (*block_num)(void *k);
  /* half precision, as the vector unit rounds it */
  uint16_t (*f2h)(float x);
  float (*h2f)(uint16_t h);
  /* GlobalTensor */
  int (*global_new)(void *k, pyasc_sim_gt *g, const void *ptr, int64_t size, int64_t esize,
                    const char *file, int line);
  pyasc_sim_gt (*global_slice)(pyasc_sim_gt g, int64_t off, int64_t esize);
  int64_t (*global_size)(pyasc_sim_gt g);
  /* element access: floating dtypes through f, integer ones through i (all
   * 64 bits kept) */
  int (*gget)(void *k, int dt, pyasc_sim_gt g, int64_t idx, double *f, int64_t *i, const char *file,
              int line);
  int (*gset)(void *k, int dt, pyasc_sim_gt g, int64_t idx, double f, int64_t i, const char *file,
              int line);
  /* LocalTensor */
  int (*local_new)(void *k, pyasc_sim_lt *t, int64_t addr, int64_t len, int64_t esize,
                   const char *file, int line);
  pyasc_sim_lt (*local_slice)(pyasc_sim_lt t, int64_t off, int64_t esize);
  pyasc_sim_lt (*local_cast)(pyasc_sim_lt t, int64_t from, int64_t to);
  int (*lget)(void *k, int dt, pyasc_sim_lt t, int64_t idx, double *f, int64_t *i, const char *file,
              int line);
  int (*lset)(void *k, int dt, pyasc_sim_lt t, int64_t idx, double f, int64_t i, const char *file,
              int line);
  /* TPipe, TQue, TBuf (their bytes live in the C++ objects) */
  void (*pipe_init)(void *pipe);
  void (*pipe_reset)(void *k, void *pipe);
  /* depth in the low 16 bits; above, the TPositions (+ 1) that fill (bits 16-23) and drain
   * (24-30) it, which the profiled table's timing model reads */
  void (*que_init)(void *que, int depth);
  void (*tbuf_init)(void *tbuf);
  int (*init_buffer)(void *k, void *pipe, void *que, int64_t num, int64_t len, const char *file,
                     int line);
  int (*init_tbuf)(void *k, void *pipe, void *tbuf, int64_t len, const char *file, int line);
  int (*tbuf_get)(void *k, const void *tbuf, int64_t len, int64_t esize, pyasc_sim_lt *t,
                  const char *file, int line);
  int (*alloc_tensor)(void *k, void *que, pyasc_sim_lt *t, int64_t esize, const char *file,
                      int line);
  int (*enque)(void *k, void *que, pyasc_sim_lt t, const char *file, int line);
  int (*deque)(void *k, void *que, pyasc_sim_lt *t, int64_t esize, const char *file, int line);
  int (*free_tensor)(void *k, void *que, pyasc_sim_lt t, const char *file, int line);
  /* data movement */
  int (*copy)(void *k, int dir, pyasc_sim_lt l, pyasc_sim_gt g, pyasc_sim_lt l2, int64_t count,
              int64_t esize, const char *file, int line);
  int (*copy_pad_gm_ub)(void *k, int dt, pyasc_sim_lt dst, pyasc_sim_gt src, int64_t block_count,
                        int64_t block_len, int64_t src_stride, int64_t dst_stride, int is_pad,
                        int64_t left_pad, int64_t right_pad, double pad_value, const char *file,
                        int line);
  int (*copy_pad_ub_gm)(void *k, int dt, pyasc_sim_gt dst, pyasc_sim_lt src, int64_t block_count,
                        int64_t block_len, int64_t src_stride, int64_t dst_stride, const char *file,
                        int line);
  /* the vector unit, count forms */
  int (*binary)(void *k, int op, int dt, pyasc_sim_lt d, pyasc_sim_lt a, pyasc_sim_lt b, int64_t n,
                const char *file, int line);
  int (*scalar)(void *k, int op, int dt, pyasc_sim_lt d, pyasc_sim_lt a, double s, int64_t n,
                const char *file, int line);
  int (*unary)(void *k, int op, int dt, pyasc_sim_lt d, pyasc_sim_lt a, int64_t n, const char *file,
               int line);
  int (*duplicate)(void *k, int dt, pyasc_sim_lt d, double v, int64_t n, const char *file,
                   int line);
  int (*leaky_relu)(void *k, int dt, pyasc_sim_lt d, pyasc_sim_lt a, double alpha, int64_t n,
                    const char *file, int line);
  int (*cast)(void *k, int dst_dt, int src_dt, pyasc_sim_lt d, pyasc_sim_lt a, int round, int64_t n,
              const char *file, int line);
  int (*reduce)(void *k, int what, int dt, pyasc_sim_lt d, pyasc_sim_lt src, int64_t n,
                int cal_index, const char *file, int line);
  /* synchronisation (checked mode orders pipes by them) and debugging */
  int (*set_flag)(void *k, int event, int64_t id, const char *file, int line);
  int (*wait_flag)(void *k, int event, int64_t id, const char *file, int line);
  int (*barrier)(void *k, int pipe, const char *file, int line);
  int (*trap)(void *k, const char *file, int line);
  /* the executor (count and mask forms), the mask register */
  int (*vrun)(void *k, const pyasc_sim_vargs *a, const char *file, int line);
  int (*reduce_mask)(void *k, int what, int dt, pyasc_sim_lt d, pyasc_sim_lt src, int kind,
                     uint64_t m0, uint64_t m1, int64_t repeat, int64_t src_rep_stride,
                     int cal_index, const char *file, int line);
  int (*set_mask_mode)(void *k, int counter);
  int (*reset_mask)(void *k);
  int (*set_vector_mask)(void *k, int form, int dt, int mode, int64_t a, int64_t b,
                         const char *file, int line);
  /* DataCopy with DataCopyParams: dir as copy's; the unused operand zero */
  int (*copy_params)(void *k, int dir, pyasc_sim_lt dst, pyasc_sim_lt src, pyasc_sim_gt g,
                     int64_t block_count, int64_t block_len, int64_t src_stride, int64_t dst_stride,
                     int64_t esize, const char *file, int line);
  int (*rrun)(void *k, const pyasc_sim_rargs *r, const char *file, int line);
  /* the atomic store mode: AtomicDtype type, op 0 sum, 1 max, 2 min, -1 kept */
  void (*atomic_set)(void *k, int type, int op);
  /* SyncAll: every block of the launch meets (used 0: all of them) */
  int (*sync_all)(void *k, int64_t used, const char *file, int line);
  int (*tbuf_get_with_offset)(void *k, const void *tbuf, int64_t size, int64_t offset,
                              int64_t esize, pyasc_sim_lt *t, const char *file, int line);
  /* TPipe's event ids: how 0 FetchEventID, 1 AllocEventID, 2 ReleaseEventID */
  int (*event_id)(void *k, void *pipe, int how, int event, int64_t *id, const char *file, int line);
  /* TQue: deque in place (depth 0), and queries: what 0 tensors queued,
   * 1 whether one more fits (VacantInQue), 2 a buffer is free (HasIdleBuffer) */
  int (*deque_inplace)(void *k, void *que, pyasc_sim_lt t, pyasc_sim_lt *r, const char *file,
                       int line);
  int64_t (*que_query)(const void *que, int what);
  /* LocalTensor::GetPhyAddr(offset): the UB byte address of an element */
  int (*local_phy_addr)(void *k, pyasc_sim_lt t, int64_t offset, int64_t esize, int64_t *out,
                        const char *file, int line);
  /* the CMPMASK register: SetCmpMask (set 1) / GetCmpMask (set 0); the
   * register forms of Compare and Select (st: the 6 BinaryRepeatParams) */
  int (*cmp_mask)(void *k, int set, pyasc_sim_lt t, int dt, const char *file, int line);
  int (*compare_reg)(void *k, pyasc_sim_lt a, pyasc_sim_lt b, uint64_t m0, uint64_t m1,
                     const int64_t *st, int kind, int set_mask, int mode, int dt, const char *file,
                     int line);
  int (*select_reg)(void *k, pyasc_sim_lt d, pyasc_sim_lt a, pyasc_sim_lt b, int64_t repeat,
                    const int64_t *st, int mode, int dt, const char *file, int line);
  int (*select_reg_scalar)(void *k, pyasc_sim_lt d, pyasc_sim_lt m, pyasc_sim_lt a, int64_t repeat,
                           const int64_t *st, int dt, int mdt, const char *file, int line);
  /* the system workspace register: set 1 SetSysWorkspace(*ptr), 0 GetSysWorkSpacePtr */
  int (*sys_workspace)(void *k, int set, void **ptr);
  /* The cube (NULL but in the table of kernels that export pyasc_sim_cube):
   * the AIC's buffers for a block's run, the core it runs on, a block's run
   * as a group of an AIC and two AIVs (mixed) or as one core of the given
   * kind (0 AIV, 1 AIC), and the cross-core flags. */
  int (*cube_begin)(void *k);
  void (*cube_end)(void *k);
  int64_t (*core_info)(void *k, int what); /* 0 kind, 1 mixed, 2 sub-block idx, 3 num */
  int (*group_run)(void *k, const void *args, int (*run)(void *k, const void *args), int mixed,
                   int kind);
  /* CrossCoreSetFlag (wait 0) / CrossCoreWaitFlag<mode>(id) */
  int (*cross_flag)(void *k, int64_t id, int wait, int64_t mode, const char *file, int line);
  /* the adv Matmul (mm: PYASC_SIM_MM_BYTES): init from the TCubeTiling's
   * nfields int32 fields and matmul.new's flags; set A (0), B (1) or the
   * bias (2); SetTail (org 0) or SetOrgShape (org 1); Iterate; GetTensorC
   * (all 0) or IterateAll (all 1) into C in GM (ub 0) or a LocalTensor;
   * End (what 0) or DisableBias (1); GetOffsetC's field */
  int (*mm_init)(void *k, void *mm, int in_dt, int c_dt, int flags, const int32_t *tiling,
                 int64_t nfields, const char *file, int line);
  int (*mm_set)(void *k, void *mm, int which, pyasc_sim_gt g, int trans, const char *file,
                int line);
  int (*mm_shape)(void *k, void *mm, int org, int64_t a, int64_t b, int64_t c, int64_t d,
                  const char *file, int line);
  int (*mm_iterate)(void *k, void *mm, int *more, const char *file, int line);
  int (*mm_get_c)(void *k, void *mm, int all, int ub, pyasc_sim_gt g, pyasc_sim_lt t, int dt,
                  int atomic, const char *file, int line);
  int (*mm_end)(void *k, void *mm, int what, const char *file, int line);
  int (*mm_offset_c)(void *k, void *mm, int field, int64_t *v, const char *file, int line);
  /* the rest of Matmul's members, by op (PYASC_SIM_MM_*) */
  int (*mm_more)(void *k, void *mm, int op, const int64_t *v, pyasc_sim_gt g, pyasc_sim_lt t,
                 double f, pyasc_sim_gt *gout, const char *file, int line);
  /* the basic cube APIs: InitBuffer for a TQue in buf (0 L1, 1 L0A, 2 L0B,
   * 3 L0C); LoadData from L1 (gm 0) or GM with LoadData2DParams; Mmad
   * (init: C = A B, else C += A B); Fixpipe to GM (ub 0) or the UB, p: nSize,
   * mSize, srcStride, dstStride, quantPre, reluEn, NZ output, deq: the
   * scalar quant scale; DataCopy GM/UB -> L1 with Nd2NzParams (v[8]) and
   * UB -> GM with Nz2NdParamsFull (v[7]) */
  int (*cube_init_buffer)(void *k, void *pipe, void *que, int64_t num, int64_t len, int buf,
                          const char *file, int line);
  int (*cube_load)(void *k, pyasc_sim_lt dst, pyasc_sim_lt src, pyasc_sim_gt g, int gm, int dt,
                   int64_t start, int64_t repeat, int64_t src_stride, int64_t dst_gap,
                   int transpose, const char *file, int line);
  int (*cube_mmad)(void *k, pyasc_sim_lt dst, pyasc_sim_lt a, pyasc_sim_lt b, pyasc_sim_lt bias,
                   int has_bias, int dst_dt, int dt, int64_t m, int64_t n, int64_t kk, int init,
                   const char *file, int line);
  int (*cube_fixpipe)(void *k, int ub, pyasc_sim_gt g, pyasc_sim_lt dst, pyasc_sim_lt src,
                      pyasc_sim_lt qv, int has_qv, int dt, int st, const int64_t *p, double deq,
                      const char *file, int line);
  int (*cube_nd2nz)(void *k, pyasc_sim_lt dst, pyasc_sim_gt g, pyasc_sim_lt src, int ub, int dt,
                    const int64_t *v, const char *file, int line);
  int (*cube_nz2nd)(void *k, pyasc_sim_gt g, pyasc_sim_lt src, int dt, const int64_t *v,
                    const char *file, int line);
  /* the other cube forms, by op (PYASC_SIM_CUBE_*) */
  int (*cube_more)(void *k, int op, const int64_t *v, pyasc_sim_gt g, pyasc_sim_lt dst,
                   pyasc_sim_lt src, pyasc_sim_lt third, const char *file, int line);
  /* a LocalTensor at a fixed byte addr of cube buffer buf (0 L1, 1 L0A, 2 L0B, 3 L0C), len
   * elements of esize: static-tensor programming and LocalMemAllocator */
  int (*cube_local_new)(void *k, pyasc_sim_lt *t, int buf, int64_t addr, int64_t len, int64_t esize,
                        const char *file, int line);
  /* the other vector and state forms, by op (PYASC_SIM_VEC_*) */
  int (*vec_more)(void *k, int op, const int64_t *v, const pyasc_sim_lt *t, pyasc_sim_gt g,
                  double f, int64_t *out, const char *file, int line);
  /* TBufPool and custom pools, by op (PYASC_SIM_POOL_*) */
  int (*pool_more)(void *k, int op, void *pool, void *other, void *obj, const int64_t *v,
                   int64_t *out, const char *file, int line);
  /* the adv library and the other forms, by op (PYASC_SIM_ADV_*) */
  int (*adv_more)(void *k, int op, const int64_t *v, const pyasc_sim_lt *t, pyasc_sim_gt g,
                  double f, int64_t *out, const char *file, int line);
} pyasc_sim_api;

#ifdef __cplusplus
}
#endif

#endif
