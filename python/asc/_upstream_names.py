"""Which names PyAsc 1.1.1 publishes in each module of its kernel language
(``asc.language.core``, ``fwk``, ``basic``, ``adv``). Each ``asc`` module
serves those of them that pyasc implements, as pyasc's own objects."""

from __future__ import annotations

#: asc.language.core: types, enums, dtypes and parameter structures.
CORE = (
    "AippChannelPaddingParams", "AippColorSpaceConvParams", "AippDataTypeConvParams",
    "AippPaddingParams", "AippParams", "AippSingleLineParams", "AippSwapParams", "array",
    "ConstExpr", "DataType", "double", "half", "int8", "int16", "int32", "int64", "int_",
    "float16", "float32", "float64", "float_", "uint8", "uint16", "uint32", "uint64", "void",
    "AippInputFormat", "BatchMode", "BlockMode", "CacheMode", "CacheRwMode", "CMPMODE",
    "CO2Layout", "CubeFormat", "DataFormat", "DeqScale", "GatherMaskMode", "HardEvent",
    "Hardware", "MemDsbT", "IterateMode", "IterateOrder", "LayoutMode", "MaskMode", "pad_t",
    "PipeID", "ReduceOrder", "RoundMode", "ScheduleType", "SelMode", "TPosition",
    "TransposeType", "QuantModes", "CacheLine", "DcciDst", "MatmulConfigMode", "AtomicDtype",
    "AtomicOp", "GlobalAddress", "LocalMemAllocator", "inline", "number", "property",
    "DEFAULT_C0_SIZE", "ONE_BLK_SIZE", "TOTAL_L0C_SIZE", "TOTAL_L1_SIZE", "range",
    "static_range", "GlobalTensor", "LocalTensor", "LocalTensorAuto", "MrgSortSrcList",
    "BinaryRepeatParams", "BrcbRepeatParams", "CheckLocalMemoryIAParam", "CopyRepeatParams",
    "DataCopyEnhancedParams", "DataCopyExtParams", "DataCopyParams", "DataCopyPadExtParams",
    "DataCopyPadParams", "FixpipeConfig", "FixpipeParamsV220", "GatherMaskParams",
    "GatherRepeatParams", "InitConstValueParams", "LoadImageToLocalParams", "MmadParams",
    "MrgSort4Info", "Nd2NzParams", "ShapeInfo", "SliceInfo", "TransDataTo5HDParams",
    "TransposeParamsExt", "UnaryRepeatParams", "Nz2NdParamsFull", "DataCopyCO12DstParams",
    "LoadData2DParams", "LoadData2DParamsV2", "LoadData2dTransposeParams",
    "LoadData2dTransposeParamsV2", "LoadData3DParamsV1", "LoadData3DParamsV2",
    "LoadData3DParamsV2Pro", "LoadDataRepeatParam", "get_shape_size", "VdeqInfo", "ceildiv",
    "static_assert",
)

#: asc.language.fwk: the TPipe framework.
FWK = (
    "TBuf", "TBufPool", "TPipe", "TQue", "TQueBind", "get_tpipe_ptr",
)

#: asc.language.basic: the basic Ascend C APIs.
BASIC = (
    "data_sync_barrier", "pipe_barrier", "set_flag", "wait_flag", "cross_core_set_flag",
    "cross_core_wait_flag", "ib_set", "ib_wait", "sync_all", "ascend_is_aic", "ascend_is_aiv",
    "check_local_memory_ia", "data_cache_preload", "get_hccl_context",
    "get_store_atomic_config", "get_sys_workspace", "init_soc_state", "reset_mask",
    "set_aipp_functions", "set_hccl_context", "set_hf32_mode", "set_hf32_trans_mode",
    "set_mask_count", "set_mask_norm", "set_mm_layout_transform", "set_store_atomic_config",
    "set_sys_workspace", "set_vector_mask", "data_cache_clean_and_invalid",
    "get_icache_preload_status", "icache_preload", "transpose", "trans_data_to_5hd", "copy",
    "data_copy", "data_copy_pad", "load_image_to_local", "set_pad_value", "notify_next_block",
    "wait_pre_block", "dump_acc_chk_point", "dump_tensor", "printf", "print_time_stamp",
    "metrics_prof_start", "metrics_prof_stop", "fixpipe", "set_fix_pipe_pre_quant_flag",
    "TensorDesc", "ListTensorDesc", "init_const_value", "load_data", "load_data_with_sparse",
    "load_data_with_transpose", "mmad", "mmad_with_sparse", "set_load_data_boundary",
    "set_load_data_padding_value", "set_load_data_repeat", "get_sort_len", "get_sort_offset",
    "count_bits_cnt_same_as_sign_bit", "scalar_cast", "scalar_count_leading_zero",
    "scalar_get_count_of_value", "scalar_get_sff_value", "set_atomic_add", "set_atomic_max",
    "set_atomic_min", "set_atomic_none", "set_atomic_type", "get_arch_version",
    "get_block_idx", "get_block_num", "get_data_block_size_in_bytes", "get_program_counter",
    "get_sub_block_idx", "get_sub_block_num", "get_system_cycle", "get_task_ratio", "trap",
    "add", "add_deq_relu", "add_relu", "add_relu_cast", "bilinear_interpolation",
    "bitwise_and", "bitwise_or", "div", "fused_mul_add", "fused_mul_add_relu", "gather_mask",
    "get_gather_mask_remain_count", "max", "min", "mul", "mul_add_dst", "mul_cast", "sub",
    "sub_relu", "sub_relu_cast", "adds", "leaky_relu", "maxs", "mins", "muls", "shift_left",
    "shift_right", "brcb", "compare", "compare_scalar", "get_cmp_mask", "select",
    "set_cmp_mask", "duplicate", "gather", "gatherb", "get_mrg_sort_result", "mrg_sort",
    "mrg_sort4", "proposal_concat", "proposal_extract", "rp_sort16", "sort", "sort32",
    "block_reduce_sum", "block_reduce_max", "block_reduce_min", "pair_reduce_sum",
    "repeat_reduce_sum", "whole_reduce_max", "whole_reduce_min", "whole_reduce_sum",
    "reduce_max", "reduce_min", "reduce_sum", "scatter", "axpy", "abs", "exp", "ln",
    "bitwise_not", "reciprocal", "relu", "rsqrt", "sqrt", "cast", "cast_deq", "set_deq_scale",
)

#: asc.language.adv: the advanced APIs (not at asc's top level).
ADV = (
    "Matmul", "MatmulApiStaticTiling", "MatmulBatchParams", "MatmulConfig", "MatmulFuncParams",
    "MatmulQuantParams", "MatmulShapeParams", "MatmulType", "QuantConfig", "RmsNormTiling",
    "SoftmaxTiling", "TCubeTiling", "acos", "acosh", "asin", "asinh", "atan", "atanh", "axpy",
    "ceil", "concat", "cos", "cosh", "digamma", "erf", "erfc", "exp", "extract", "floor",
    "frac", "get_basic_config", "get_ib_share_norm_config", "get_matmul_api_tiling",
    "get_mdl_config", "get_mm_config", "get_normal_config", "get_special_basic_config",
    "get_special_mdl_config", "lgamma", "log", "power", "quant", "register_matmul", "rmsnorm",
    "round", "sign", "sin", "sinh", "softmax", "tan", "tanh", "trunc", "xor",
)
