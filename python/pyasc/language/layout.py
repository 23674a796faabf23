"""The enums and parameter structs of PyAsc's layout APIs (transpose's
TransposeParamsExt form, trans_data_to_5hd) and data formats, with PyAsc's
values. Lowering: pyasc.language.lower.layout; runtime:
src/compiler/rt/layout.h."""

from __future__ import annotations

import enum

from pyasc.language.core import ParamStruct


class TransposeType(enum.IntEnum):
    """Transposition kinds; ``transpose`` takes TRANSPOSE_ND2ND_B16,
    TRANSPOSE_NCHW2NHWC and TRANSPOSE_NHWC2NCHW (the NZ kinds belong to the
    matmul library's confusion transpose)."""

    TRANSPOSE_TYPE_NONE = 0
    TRANSPOSE_NZ2ND_0213 = 1
    TRANSPOSE_NZ2NZ_0213 = 2
    TRANSPOSE_NZ2NZ_012_WITH_N = 3
    TRANSPOSE_NZ2ND_012_WITH_N = 4
    TRANSPOSE_NZ2ND_012_WITHOUT_N = 5
    TRANSPOSE_NZ2NZ_012_WITHOUT_N = 6
    TRANSPOSE_ND2ND_ONLY = 7
    TRANSPOSE_ND_UB_GM = 8
    TRANSPOSE_GRAD_ND_UB_GM = 9
    TRANSPOSE_ND2ND_B16 = 10
    TRANSPOSE_NCHW2NHWC = 11
    TRANSPOSE_NHWC2NCHW = 12


class DataFormat(enum.IntEnum):
    """Tensor data formats."""

    ND = 0
    NZ = 1
    NCHW = 2
    NC1HWC0 = 3
    NHWC = 4


class BlockMode(enum.IntEnum):
    """Block modes of data copies between cube buffers."""

    BLOCK_MODE_NORMAL = 0
    BLOCK_MODE_MATRIX = 1
    BLOCK_MODE_VECTOR = 2
    BLOCK_MODE_SMALL_CHANNEL = 3
    BLOCK_MODE_DEPTHWISE = 4


class TransposeParamsExt(ParamStruct):
    """Shape [n, c, h, w] and TransposeType of transpose's extended form."""


class DataCopyEnhancedParams(ParamStruct):
    """data_copy's enhanced parameters: block mode, dequantisation, relu
    and padding of copies between cube buffers (the defaults: a plain copy)."""


class TransDataTo5HDParams(ParamStruct):
    """trans_data_to_5hd's halves (1-byte data), repeat_times and repeat
    strides in 32-byte blocks."""


#: fields and defaults, for the kernel front end
STRUCTS = {
    TransposeParamsExt: (("n_size", 0), ("c_size", 0), ("h_size", 0), ("w_size", 0),
                         ("transpose_type", TransposeType.TRANSPOSE_ND2ND_B16)),
    DataCopyEnhancedParams: (("block_mode", BlockMode.BLOCK_MODE_NORMAL), ("deq_scale", 0),
                             ("deq_value_in", 0), ("sid_store_mode_in", 0), ("is_relu_in", False),
                             ("pad_mode_in", 0), ("pad_value_in", 0)),
    TransDataTo5HDParams: (("dst_high_half", False), ("src_high_half", False),
                           ("repeat_times", 1), ("dst_rep_stride", 0), ("src_rep_stride", 0)),
}
