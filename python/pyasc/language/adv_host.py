"""Host-side helpers of the adv library: shared tmp buffer sizes and tilings.

Ascend C's adv APIs take an optional ``sharedTmpBuffer`` (a uint8
LocalTensor) that the host sizes with ``GetXxxMaxMinTmpSize``: below the
minimum the API cannot run, at the maximum it runs in one pass. pyasc keeps
the same calls under PyAsc-style names (``get_acos_max_min_tmp_size``,
``get_softmax_max_tmp_size``, ``softmax_tiling_func``,
``get_rms_norm_max_min_tmp_size``, ``get_rms_norm_tiling_info``,
``get_ascend_quant_max_min_tmp_size``); a kernel given a smaller buffer than
the minimum stops with an error naming the line.

The maths family's sizes are CANN's (its asc-devkit's host queries, which
the C++ header's ``AscendC::GetXxxMaxMinTmpSize`` computes from the same
table, :data:`~pyasc.language.names.adv_math.MATH_TMP_FACTORS`): an API
needs a number of buffers of the input's type per element (by type, and for
some float APIs by ``is_reuse_source``); the minimum is one 256-byte repeat
of each, the maximum covers every element. The kernel side
(:mod:`pyasc.language.lower.adv`) asks these same functions for the minimum
it checks. softmax's sizes and tiling are CANN's too, computed by libasc
(``asc_tiling_softmax``, which the C++ header's ``SoftMaxTilingFunc``
calls); rmsnorm and quant keep pyasc's own sizes.
"""

from __future__ import annotations

import math
from typing import Sequence

from pyasc import _C
from pyasc.language.adv_tiling import RmsNormTiling, SoftmaxTiling
from pyasc.language.names.adv_math import MATH_APIS, MATH_TMP_FACTORS

BLOCK_BYTES = 32
REPEAT_BYTES = 256

def _align(n: int, to: int = BLOCK_BYTES) -> int:
    return -(-n // to) * to


def _elements(src_shape: Sequence[int], what: str) -> int:
    dims = list(src_shape)
    if not dims or any(not isinstance(d, int) or isinstance(d, bool) or d < 0 for d in dims):
        raise ValueError(f"{what}: src_shape must be a non-empty sequence of non-negative ints, "
                         f"not {src_shape!r}")
    return math.prod(dims)


def _type_size(type_size: int, what: str, allowed: tuple = (2, 4)) -> int:
    if type_size not in allowed:
        raise ValueError(f"{what}: type_size must be one of {allowed} (bytes per element), "
                         f"not {type_size!r}")
    return type_size


def math_tmp_factor(api: str, type_size: int, is_reuse_source: bool = False) -> int:
    """Buffers of the input's type per element that adv.<api> needs."""
    half, single, single_reuse, _floor = MATH_TMP_FACTORS[api]
    if type_size != 4:
        return half
    return single_reuse if is_reuse_source else single


def _power_sizes(n: int, type_size: int) -> tuple[int, int]:
    # two tensors on dav-2201: 4 float buffers and a repeat more, or 14 half
    # ones (half a repeat each at the least) and a repeat more
    if type_size == 4:
        return 4 * max(n * 4, REPEAT_BYTES) + REPEAT_BYTES, 5 * REPEAT_BYTES
    return 14 * max(n * 2, REPEAT_BYTES // 2) + REPEAT_BYTES, 8 * REPEAT_BYTES


def math_min_tmp_size(api: str, type_size: int, is_reuse_source: bool = False) -> int:
    """The smallest shared tmp buffer adv.<api> accepts, in bytes."""
    if api == "power":
        return _power_sizes(1, type_size)[1]
    return math_tmp_factor(api, type_size, is_reuse_source) * REPEAT_BYTES


def get_math_max_min_tmp_size(api: str, src_shape: Sequence[int], type_size: int,
                              is_reuse_source: bool = False) -> tuple[int, int]:
    """(max, min) shared tmp buffer bytes of adv.<api> over src_shape
    (``GetXxxMaxMinTmpSize``). As CANN's, a shape of no elements is refused
    but by exp."""
    if api not in MATH_APIS:
        raise ValueError(f"no adv maths API called {api!r}")
    what = f"get_{api}_max_min_tmp_size"
    size = _type_size(type_size, what, (2,) if api == "xor" else (2, 4))
    n = _elements(src_shape, what)
    if n == 0 and api != "exp":
        raise ValueError(f"{what}: src_shape {list(src_shape)} has no elements")
    if api == "power":
        return _power_sizes(n, size)
    k = math_tmp_factor(api, size, is_reuse_source)
    floor = MATH_TMP_FACTORS[api][3]
    most = {"repeat": k * max(n * size, REPEAT_BYTES),
            "elements": max(k * n, REPEAT_BYTES) * size,
            "none": k * n * size,
            "float32": k * max(n * 4, REPEAT_BYTES)}[floor]
    return most, k * REPEAT_BYTES


def _make_math_query(api: str):
    def query(src_shape: Sequence[int], type_size: int,
              is_reuse_source: bool = False) -> tuple[int, int]:
        return get_math_max_min_tmp_size(api, src_shape, type_size, is_reuse_source)

    query.__name__ = query.__qualname__ = f"get_{api}_max_min_tmp_size"
    query.__doc__ = (f"(max, min) bytes of adv.{api}'s shared tmp buffer for src_shape "
                     f"(Ascend C's Get{api.capitalize()}MaxMinTmpSize).")
    return query


for _api in MATH_APIS:
    globals()[f"get_{_api}_max_min_tmp_size"] = _make_math_query(_api)


# --- softmax ----------------------------------------------------------------------


def _rows(src_shape: Sequence[int], what: str) -> tuple[int, int]:
    _elements(src_shape, what)
    dims = list(src_shape)
    if len(dims) < 2 or dims[-1] == 0:
        raise ValueError(f"{what}: src_shape must be [..., rows, k] with k > 0, not {src_shape!r}")
    return math.prod(dims[:-1]), dims[-1]


def _softmax_line(type_size: int) -> tuple[int, int]:
    """(bytes, bytes per element) of GetSoftMaxMinTmpSize as a line in the
    row length, read from libasc's sizes at one and two 32-byte blocks."""
    per_block = BLOCK_BYTES // type_size
    one, two = (_C.softmax_tmp_size("softmax", 1, n * per_block, type_size, False)[1]
                for n in (1, 2))
    per_element = (two - one) // per_block
    return one - per_element * per_block, per_element


def softmax_row_bytes(k: int, data_type_size: int) -> int:
    """Shared tmp bytes softmax needs for one row of k elements
    (``GetSoftMaxMinTmpSize``): CANN's float32 words for the row, its max
    block and a 64-word scratch."""
    base, per_element = _softmax_line(data_type_size)
    return base + per_element * k


def _softmax_sizes(src_shape: Sequence[int], data_type_size: int, what: str) -> tuple[int, int]:
    m, k = _rows(src_shape, what)
    size = _type_size(data_type_size, what)
    most, least = _C.softmax_tmp_size("softmax", m, k, size, False)
    return most, least


def get_softmax_max_tmp_size(src_shape: Sequence[int], data_type_size: int,
                             is_reuse_source: bool = False) -> int:
    """Bytes of a shared tmp buffer that lets softmax do every row of
    src_shape in one pass (``GetSoftMaxMaxTmpSize``)."""
    return _softmax_sizes(src_shape, data_type_size, "get_softmax_max_tmp_size")[0]


def get_softmax_min_tmp_size(src_shape: Sequence[int], data_type_size: int,
                             is_reuse_source: bool = False) -> int:
    """The smallest shared tmp buffer softmax accepts: one row
    (``GetSoftMaxMinTmpSize``)."""
    return _softmax_sizes(src_shape, data_type_size, "get_softmax_min_tmp_size")[1]


def softmax_tiling_func(src_shape: Sequence[int], data_type_size: int,
                        local_work_space_size: int, softmax_tiling: SoftmaxTiling) -> None:
    """Fills softmax_tiling for rows of src_shape ([..., m, k], k a whole
    number of 32-byte blocks) with local_work_space_size bytes of shared tmp
    buffer, as CANN's ``SoftMaxTilingFunc`` does. ValueError when the buffer
    holds less than one row or the shape cannot work."""
    what = "softmax_tiling_func"
    m, k = _rows(src_shape, what)
    size = _type_size(data_type_size, what)
    if not isinstance(softmax_tiling, SoftmaxTiling):
        raise TypeError(f"{what}: softmax_tiling must be a SoftmaxTiling")
    values = _C.softmax_tiling("softmax", m, k, size, local_work_space_size, False)
    if max(values) > 2**31 - 1:
        raise ValueError(f"{what}: {m} x {k} elements do not fit SoftmaxTiling's int32 fields")
    for name, value in zip(SoftmaxTiling.struct_fields, values, strict=True):
        setattr(softmax_tiling, name, value)


# --- rmsnorm ----------------------------------------------------------------------


def _bsh(src_shape: Sequence[int], what: str) -> tuple[int, int, int]:
    dims = list(src_shape)
    _elements(dims, what)
    if len(dims) != 3 or dims[2] == 0:
        raise ValueError(f"{what}: src_shape must be [B, S, H] with H > 0, not {src_shape!r}")
    return dims[0], dims[1], dims[2]


def rms_norm_row_bytes(h: int, type_size: int) -> int:
    """Shared tmp bytes rmsnorm needs per row of h elements: the squares in
    float32 (and a float32 copy for float16 data) plus one reduce block."""
    return h * 4 * (2 if type_size == 2 else 1) + BLOCK_BYTES


def get_rms_norm_max_min_tmp_size(src_shape: Sequence[int], type_size: int,
                                  is_basic_block: bool = False) -> tuple[int, int]:
    """(max, min) shared tmp bytes of rmsnorm over [B, S, H]
    (``GetRmsNormMaxMinTmpSize``): every row at once, or one row."""
    b, s, h = _bsh(src_shape, "get_rms_norm_max_min_tmp_size")
    row = rms_norm_row_bytes(h, _type_size(type_size, "get_rms_norm_max_min_tmp_size"))
    return _align(b * s * row), _align(row)


def get_rms_norm_tiling_info(src_shape: Sequence[int], origin_src_shape: Sequence[int],
                             stack_buffer_byte_size: int, type_size: int,
                             tiling: RmsNormTiling, is_basic_block: bool = False) -> bool:
    """Fills tiling for rmsnorm over src_shape [B, S, H] whose real last axis
    is origin_src_shape's, with stack_buffer_byte_size bytes of shared tmp
    buffer (``GetRmsNormTilingInfo``). False, tiling untouched, when the
    buffer holds less than one row or the shapes disagree."""
    what = "get_rms_norm_tiling_info"
    b, s, h = _bsh(src_shape, what)
    ob, os_, oh = _bsh(origin_src_shape, what)
    size = _type_size(type_size, what)
    if not isinstance(tiling, RmsNormTiling):
        raise TypeError(f"{what}: tiling must be an RmsNormTiling")
    row = rms_norm_row_bytes(h, size)
    if (ob, os_) != (b, s) or oh > h or oh == 0 or stack_buffer_byte_size < row or \
            b * s * h > 2**31 - 1:
        return False
    rows = b * s
    main = min(rows, stack_buffer_byte_size // row)
    rounds, tail = (rows // main, rows % main) if main else (0, 0)
    values = {"b_length": b, "s_length": s, "h_length": h, "original_h_length": oh,
              "reciprocal_of_h_length": 1.0 / oh, "main_bsh_length": main * h,
              "main_bs_length": main, "main_bs_length_align": _align(main, 8),
              "loop_round": rounds, "input_tail_pos": rounds * main * h,
              "tail_bsh_length": tail * h, "tail_bs_length": tail}
    for name, value in values.items():
        setattr(tiling, name, value)
    return True


# --- quant ------------------------------------------------------------------------


def get_ascend_quant_max_min_tmp_size(src_shape: Sequence[int],
                                      type_size: int) -> tuple[int, int]:
    """(max, min) shared tmp bytes of quant (``GetAscendQuantMaxMinTmpSize``):
    two bytes per element, at least two 256-byte repeats."""
    n = _elements(src_shape, "get_ascend_quant_max_min_tmp_size")
    _type_size(type_size, "get_ascend_quant_max_min_tmp_size")
    low = 2 * REPEAT_BYTES
    return _align(max(n * 2, low)), low


QUANT_MIN_TMP_SIZE = 2 * REPEAT_BYTES

__all__ = ["get_math_max_min_tmp_size", "get_softmax_max_tmp_size", "get_softmax_min_tmp_size",
           "softmax_tiling_func", "get_rms_norm_max_min_tmp_size", "get_rms_norm_tiling_info",
           "get_ascend_quant_max_min_tmp_size"] + \
    [f"get_{a}_max_min_tmp_size" for a in MATH_APIS]
