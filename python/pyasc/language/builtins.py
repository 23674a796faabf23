"""The kernel-only Ascend C APIs, and which pyasc names a kernel may call.

Some API names are also eager tensor operations outside kernels
(``pyasc.add``, ``pyasc.exp``, ``pyasc.max``...): inside a kernel the front
end resolves those objects to the vector instruction of the same name."""

from __future__ import annotations

from pyasc.language.core import KernelBuiltin
from pyasc.language.fwk_core import DOCS as _FWK_DOCS

_DOCS = {
    "get_block_idx": "get_block_idx() -> int: index of the running block (AI core).",
    "get_block_num": "get_block_num() -> int: number of blocks in the launch.",
    "data_copy": "data_copy(dst, src, count): copy count elements GM<->UB or UB<->UB.",
    "copy": "copy(dst, src, count) or copy(dst, src, mask, repeat_time, repeat_params, "
            "is_set_mask=True): vector copy between LocalTensors (CopyRepeatParams strides).",
    "duplicate": "duplicate(dst, scalar, count): fill count elements with a scalar.",
    "sub": "sub(dst, src0, src1, count): dst = src0 - src1.",
    "mul": "mul(dst, src0, src1, count): dst = src0 * src1.",
    "div": "div(dst, src0, src1, count): dst = src0 / src1.",
    "adds": "adds(dst, src, scalar, count): dst = src + scalar.",
    "muls": "muls(dst, src, scalar, count): dst = src * scalar.",
    "maxs": "maxs(dst, src, scalar, count): dst = max(src, scalar).",
    "mins": "mins(dst, src, scalar, count): dst = min(src, scalar).",
    "ln": "ln(dst, src, count): natural logarithm.",
    "set_flag": "set_flag(event, event_id=0): signal a HardEvent between pipes.",
    "wait_flag": "wait_flag(event, event_id=0): wait for a HardEvent.",
    "pipe_barrier": "pipe_barrier(pipe): order all earlier work on a pipe.",
    "printf": "printf(format, *args): print from the device.",
}

# API coverage: the mask/repeat-form APIs and those added with them
# (lowered in pyasc.language.lower.vector).
_DOCS.update({
    "fused_mul_add": "fused_mul_add(dst, src0, src1, count | mask, ...): dst = src0 * dst + src1.",
    "mul_add_dst": "mul_add_dst(dst, src0, src1, count | mask, ...): dst = src0 * src1 + dst.",
    "leaky_relu": "leaky_relu(dst, src, scalar, count | mask, ...): x if x >= 0 else x * scalar.",
    "shift_left": "shift_left(dst, src, scalar, count | mask, ...): x << scalar.",
    "shift_right": "shift_right(dst, src, scalar, count | mask, ...): x >> scalar (arithmetic).",
    "axpy": "axpy(dst, src, scalar, count | mask, ...): dst = src * scalar + dst.",
    "cast": "cast(dst, src, round_mode, count | mask, ...): convert with a RoundMode.",
    "compare": "compare(dst, src0, src1, cmp_mode, count | mask, ...): one bit per element.",
    "compare_scalar": "compare_scalar(dst, src0, src1_scalar, cmp_mode, count | mask, ...).",
    "select": "select(dst, sel_mask, src0, src1, sel_mode, count | mask, ...).",
    "reduce_sum": "reduce_sum(dst, src, shared_tmp_buffer, count | mask, repeat_time, "
                  "src_rep_stride): the sum in dst[0].",
    "reduce_max": "reduce_max(dst, src, shared_tmp_buffer, count | mask, ..., cal_index=False).",
    "reduce_min": "reduce_min(dst, src, shared_tmp_buffer, count | mask, ..., cal_index=False).",
    "whole_reduce_sum": "whole_reduce_sum(dst, src, mask, repeat_time, dst_rep_stride, "
                        "src_blk_stride, src_rep_stride, is_set_mask=True).",
    "whole_reduce_max": "whole_reduce_max(dst, src, mask, repeat_time, dst_rep_stride, "
                        "src_blk_stride, src_rep_stride, order=ReduceOrder.ORDER_VALUE_INDEX).",
    "whole_reduce_min": "whole_reduce_min(dst, src, mask, repeat_time, dst_rep_stride, "
                        "src_blk_stride, src_rep_stride, order=ReduceOrder.ORDER_VALUE_INDEX).",
    "block_reduce_sum": "block_reduce_sum(dst, src, repeat, mask, dst_rep_stride, "
                        "src_blk_stride, src_rep_stride): one sum per data block.",
    "block_reduce_max": "block_reduce_max(dst, src, repeat, mask, dst_rep_stride, "
                        "src_blk_stride, src_rep_stride).",
    "block_reduce_min": "block_reduce_min(dst, src, repeat, mask, dst_rep_stride, "
                        "src_blk_stride, src_rep_stride).",
    "pair_reduce_sum": "pair_reduce_sum(dst, src, repeat_time, mask, dst_rep_stride, "
                       "src_blk_stride, src_rep_stride, is_set_mask=True).",
    "set_mask_count": "set_mask_count(): counter mode (mask = total element count).",
    "set_mask_norm": "set_mask_norm(): normal mask mode (the default).",
    "set_vector_mask": "set_vector_mask(length | mask_high, mask_low, *, dtype, mode).",
    "reset_mask": "reset_mask(): mask register back to all ones.",
    "get_data_block_size_in_bytes": "get_data_block_size_in_bytes() -> int: 32.",
    "data_copy_pad": "data_copy_pad(dst, src, data_copy_params, pad_params=None): row copies "
                     "of any byte length between GM and UB; data_copy_pad(dst, src, "
                     "data_copy_params, nd2nz_params): UB -> L1 as NZ, through GM.",
    "dump_tensor": "dump_tensor(tensor, desc, dump_size, shape_info=None): print elements.",
    "trap": "trap(): stop the kernel with an error naming the line.",
})

# cube unit (lowered in pyasc.language.cube)
_DOCS.update({
    "load_data": "load_data(dst, src, LoadData2DParams): fractals L1/GM -> L0A/L0B.",
    "ascend_is_aic": "ascend_is_aic() -> bool: whether the block is a cube core (AIC).",
    "cross_core_set_flag": "cross_core_set_flag(flag_id, mode_id, pipe): signal the other half "
                           "of a mixed kernel.",
    "cross_core_wait_flag": "cross_core_wait_flag(flag_id, mode_id, pipe): wait for "
                            "cross_core_set_flag.",
    "ascend_is_aiv": "ascend_is_aiv() -> bool: whether the block is a vector core (AIV).",
    "set_hf32_mode": "set_hf32_mode(hf32_mode): mmad rounds float32 inputs to HF32 (no "
                     "effect on fp16/bf16/int8).",
    "set_hf32_trans_mode": "set_hf32_trans_mode(trans_mode): HF32 rounding toward zero or "
                           "to nearest even.",
    "set_mm_layout_transform": "set_mm_layout_transform(mm_layout_mode): the cube's N-first "
                               "or M-first walk (same results).",
    "get_sub_block_idx": "get_sub_block_idx() -> int: the AIV's index in its core group (0 or "
                         "1; 0 on the AIC).",
    "get_sub_block_num": "get_sub_block_num() -> int: AIVs per core group (2 on an AIV of a "
                         "mixed kernel, else 1).",
    "mmad": "mmad(dst, fm, filter[, bias], MmadParams): L0C = L0A @ L0B (+ bias).",
    "fixpipe": "fixpipe(dst, src, FixpipeParamsV220, config=FixpipeConfig.cfg_row_major): "
               "L0C -> GM/UB with conversion, quantisation and relu.",
})

# Lowered in pyasc.language.lower.vector_moves.
_DOCS.update({
    "add_relu": "add_relu(dst, src0, src1, count | mask, ...): relu(src0 + src1).",
    "sub_relu": "sub_relu(dst, src0, src1, count | mask, ...): relu(src0 - src1).",
    "fused_mul_add_relu": "fused_mul_add_relu(dst, src0, src1, count | mask, ...): "
                          "relu(src0 * dst + src1).",
    "transpose": "transpose(dst, src[, shared_tmp_buffer, params: TransposeParamsExt]): one "
                 "16x16 matrix of 2-byte elements, or [H, W] -> [W, H] / NCHW <-> NHWC.",
    "gather": "gather(dst, src, src_offset, src_base, count): dst[i] = the element at byte "
              "src_base + src_offset[i] of src (src_offset: int32 byte offsets).",
    "scatter": "scatter(dst, src, dst_offset, dst_base, count): the element at byte "
               "dst_base + dst_offset[i] of dst = src[i].",
    "brcb": "brcb(dst, src0, repeat_times, repeat_params): each of 8 elements per repeat "
            "fills one 32-byte block of dst (BrcbRepeatParams strides).",
})

# Lowered in pyasc.language.lower.fwk.
_DOCS.update(_FWK_DOCS)
# System and hardware (lowered in pyasc.language.lower.system).
_DOCS.update({
    "get_system_cycle": "get_system_cycle() -> int: the 50 MHz system counter (monotonic).",
    "get_program_counter": "get_program_counter() -> int: the call's source location "
                           "(file index << 20 | line) on the simulated core.",
    "print_time_stamp": "print_time_stamp(desc_id): print desc_id, the system counter and pc.",
    "data_sync_barrier": "data_sync_barrier(arg0: MemDsbT): wait for earlier memory accesses "
                         "(program order on the simulated core).",
    "data_cache_clean_and_invalid": "data_cache_clean_and_invalid(entire_type, [dcci_dst,] "
                                    "dst): flush the data cache (none is simulated).",
    "data_cache_preload": "data_cache_preload(src, cache_offset): prefetch GM into the data "
                          "cache (none is simulated).",
    "icache_preload": "icache_preload(pre_fetch_len): prefetch instructions (none simulated).",
    "get_icache_preload_status": "get_icache_preload_status() -> int: 0 idle, 1 busy.",
    "check_local_memory_ia": "check_local_memory_ia(check_params: CheckLocalMemoryIAParam): "
                             "set the UB access check register (fields range-checked).",
    "dump_acc_chk_point": "dump_acc_chk_point(tensor, index, count_off, dump_size): print "
                          "dump_size elements from element count_off.",
    "metrics_prof_start": "metrics_prof_start(): start of a profiled range (no profiler).",
    "metrics_prof_stop": "metrics_prof_stop(): end of a profiled range (no profiler).",
    "init_soc_state": "init_soc_state(): reset the core's global state (the vector mask).",
    "get_sys_workspace": "get_sys_workspace() -> GlobalAddress: the system workspace register.",
    "set_sys_workspace": "set_sys_workspace(workspace: GlobalAddress): set that register.",
    "get_task_ratio": "get_task_ratio() -> int: vector cores per AI core (1: coupled mode).",
    "get_arch_version": "get_arch_version(core_version): Ascend C's by-reference query "
                        "(nothing to return in Python).",
    "get_hccl_context": "get_hccl_context(index) -> GlobalAddress: HCCL context 0 or 1.",
    "set_hccl_context": "set_hccl_context(index, context): set HCCL context 0 or 1.",
    "ib_set": "ib_set(gm_workspace, ub_workspace, block_idx, event_id, is_aiv_only=True): "
              "set block_idx's flag of event_id in GM (waits until it is clear).",
    "ib_wait": "ib_wait(gm_workspace, ub_workspace, block_idx, event_id, is_aiv_only=True): "
               "wait for that flag, then clear it.",
    "notify_next_block": "notify_next_block(gm_workspace, ub_workspace): let the next block "
                         "past its wait_pre_block.",
    "bilinear_interpolation": "bilinear_interpolation(dst, src0, src0_offset, src1, mask, "
                              "h_repeat, repeat_mode, dst_blk_stride, v_r_offset, v_repeat, "
                              "shared_tmp_buffer): weighted sums of src0 blocks (float16).",
    "trans_data_to_5hd": "trans_data_to_5hd(dst_list, src_list, params: TransDataTo5HDParams):"
                         " transpose 16 data blocks per repeat (NCHW -> NC1HWC0).",
    "wait_pre_block": "wait_pre_block(gm_workspace, ub_workspace): wait for the previous "
                      "block's notify_next_block (blocks run one after another).",
})
# Lowered in pyasc.language.lower.sort.
_DOCS.update({
    "sort32": "sort32(dst, src0, src1, repeat_time): 32 scores per repeat sorted descending into "
              "(score, uint32 index) pairs of 8 bytes.",
    "sort": "sort(dst, concat, index, tmp, repeat_time, is_full_sort=False): sort32, or with "
            "is_full_sort one descending sort of all 32 * repeat_time scores.",
    "mrg_sort": "mrg_sort(dst, sort_list, element_count_list, sorted_num, valid_bit, repeat_time, "
                "is_exhausted_suspension=False) or mrg_sort(dst, sort_list, MrgSort4Info): merge "
                "2-4 sorted queues of (score, index) pairs.",
    "mrg_sort4": "mrg_sort4(dst, src, params): merge 2-4 sorted region-proposal queues.",
    "get_mrg_sort_result": "get_mrg_sort_result() -> (n1, n2, n3, n4): elements the last merge "
                           "took from each queue.",
    "rp_sort16": "rp_sort16(dst, src, repeat_time): 16 region proposals per repeat sorted by "
                 "score.",
    "proposal_concat": "proposal_concat(dst, src, repeat_time, mode_number): 16 elements per "
                       "repeat into field mode_number of 16 region proposals.",
    "proposal_extract": "proposal_extract(dst, src, repeat_time, mode_number): field "
                        "mode_number of 16 region proposals per repeat out into 16 elements.",
    "get_sort_len": "get_sort_len(elem_count, dtype=float32) -> int: elements of dtype that "
                    "elem_count sort elements span.",
    "get_sort_offset": "get_sort_offset(elem_offset, dtype=float32) -> int: the offset, in "
                       "elements of dtype, of sort element elem_offset.",
    "gather_mask": "gather_mask(dst, src0, src1_pattern, reduce_mode, mask, params, "
                   "gather_mask_mode=GatherMaskMode.DEFAULT) -> int: the elements src1_pattern "
                   "selects (built-in pattern 1..7 or a bit tensor), packed; returns their count.",
    "get_gather_mask_remain_count": "get_gather_mask_remain_count() -> int: the count of the "
                                    "last gather_mask.",
    "gatherb": "gatherb(dst, src0, offset, repeat_times, repeat_params): 8 32-byte blocks per "
               "repeat gathered from src0 at byte offsets.",
    "set_cmp_mask": "set_cmp_mask(src): load the 128-bit CMPMASK register from src.",
    "get_cmp_mask": "get_cmp_mask(dst): store the CMPMASK register (compare's register form) "
                    "into dst.",
    "scalar_cast": "scalar_cast(value_in, dtype, round_mode): a float cast to float16 or int32.",
    "scalar_count_leading_zero": "scalar_count_leading_zero(value_in) -> int: leading zero bits "
                                 "of a uint64.",
    "scalar_get_count_of_value": "scalar_get_count_of_value(value_in, count_value) -> int: bits "
                                 "of a uint64 equal to count_value (0 or 1).",
    "scalar_get_sff_value": "scalar_get_sff_value(value_in, count_value) -> int: position of the "
                            "first bit equal to count_value from the LSB, -1 if none.",
    "count_bits_cnt_same_as_sign_bit": "count_bits_cnt_same_as_sign_bit(value_in) -> int: bits "
                                       "after the sign bit equal to it (-1 for 0 and -1).",
    "add_relu_cast": "add_relu_cast(dst, src0, src1, count | mask, ...): relu(src0 + src1) cast to "
                     "dst's narrower dtype.",
    "sub_relu_cast": "sub_relu_cast(dst, src0, src1, count | mask, ...): relu(src0 - src1) cast to "
                     "dst's narrower dtype.",
    "mul_cast": "mul_cast(dst, src0, src1, count | mask, ...): src0 * src1 (float16) cast to int8 "
                "or uint8.",
    "repeat_reduce_sum": "repeat_reduce_sum(dst, src, repeat_time, mask, dst_blk_stride, "
                         "src_blk_stride, dst_rep_stride, src_rep_stride, is_set_mask=True): the "
                         "sum of each repeat's first mask elements.",
})

# Lowered in pyasc.language.deq (the DEQSCALE register).
_DOCS.update({
    "set_deq_scale": "set_deq_scale(scale) | (scale, offset, sign_mode) | (vdeq, vdeq_info): set "
                     "the DEQSCALE register read by cast_deq and add_deq_relu.",
    "cast_deq": "cast_deq(dst, src, count | mask, ..., is_vec_deq=True, half_block=True): int16 -> "
                "int8/uint8 as src * scale + offset, int32 -> float16 as src * scale.",
    "add_deq_relu": "add_deq_relu(dst, src0, src1, count | mask, ...): float16 of relu((src0 + "
                    "src1) * scale) from int32 sources.",
    "set_fix_pipe_pre_quant_flag": "set_fix_pipe_pre_quant_flag(config): fixpipe's scalar "
                                   "quant parameter (data_copy L0C -> GM).",
    "load_data_with_transpose": "load_data_with_transpose(dst, src, params): A1/B1 -> A2/B2 "
                                "with each square transposed (float16/bfloat16, int8, float32).",
    "set_load_data_boundary": "set_load_data_boundary(boundary): where img2col loads' L1 reads "
                              "wrap to L1's start (V1: 32-byte units, V2: bytes; 0 none).",
    "set_load_data_padding_value": "set_load_data_padding_value(pad_value): the padding value "
                                   "of LoadData3DParamsV2Pro loads.",
    "set_load_data_repeat": "set_load_data_repeat(LoadDataRepeatParam): repeat V2 img2col "
                            "loads along M (mode 0) or K (mode 1).",
    "load_data_with_sparse": "load_data_with_sparse(dst, src, idx, load_data_params): dense int8 "
                             "fractals B1 -> B2 with their 2-bit sparse indices (uint8 idx).",
    "mmad_with_sparse": "mmad_with_sparse(dst, fm, filter, mmad_params): int32 C = A (4:2 "
                        "sparse, int8) @ B (densified int8).",
})

# Lowered in pyasc.language.aipp (the AIC's image preprocessing).
_DOCS.update({
    "set_aipp_functions": "set_aipp_functions(src0, [src1,] input_format, config): set the AIPP "
                          "registers (image planes in GM, AippInputFormat, AippParams) read by "
                          "load_image_to_local.",
    "load_image_to_local": "load_image_to_local(dst, load_data_params): an image from GM to "
                           "A1/B1 through the AIPP: crop, swaps, colour-space and data-type "
                           "conversion, padding.",
})

#: API names that are also eager pyasc operations outside kernels.
SHARED_NAMES = ("add", "max", "min", "exp", "abs", "sqrt", "rsqrt", "reciprocal", "relu",
                "bitwise_and", "bitwise_or", "bitwise_not", "sort", "transpose", "copy", "gather")

_BUILTINS = {name: KernelBuiltin(name, doc) for name, doc in _DOCS.items()}

#: Builtins created for kernel-only names (and for shared names that have
#: no eager operation).
KERNEL_ONLY = {name: b for name, b in _BUILTINS.items() if name not in SHARED_NAMES}

#: The builtins of shared names whose kernel form has a lowering of its own
#: (sort): pyasc.<name> is the eager operation, and kernels that call it
#: are lowered as calls of this builtin (pyasc.language.lower.core).
SHARED_BUILTINS = {name: b for name, b in _BUILTINS.items() if name in SHARED_NAMES}


def shared_builtin(name: str) -> KernelBuiltin:
    """A kernel builtin for a shared name with no eager operation."""
    return KernelBuiltin(name, f"{name}: vector instruction inside @pyasc.jit kernels.")
