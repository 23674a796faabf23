"""Tiling structs of PyAsc's advanced APIs (``asc.language.adv.tiling``).

:class:`TCubeTiling` is Ascend C's matmul tiling: the host fills it with
``MatmulApiTiling.get_tiling`` (:mod:`pyasc.host`) and passes it to a kernel
like any :class:`~pyasc.language.struct.Struct`. Its members, their order and
their Ascend C names come from libasc (``pyasc._C.tiling_fields()``), the code
that fills them, so the two cannot drift apart.
"""

from __future__ import annotations

from pyasc import _C
from pyasc.language.struct import Field, Struct

_TCUBE_DOC = """Ascend C's ``TCubeTiling``: how a matmul is cut over cores and through
L1/L0A/L0B/L0C (every field int32, default 0). PyAsc's snake_case names:
``used_core_num``, ``m``, ``n``, ``k_a``, ``k_b``, ``single_core_m/n/k``,
``base_m/n/k``, ``depth_a1``, ``depth_b1``, ``step_m``, ``step_n``,
``step_k_a``, ``step_k_b``, ``is_bias``, ``iterate_order``, ``db_l0a/b/c``,
the ``share_*`` sizes, the batch fields and the ``*_layout_info_*`` axes.
See docs/host-tiling.md for what each means."""

TCubeTiling = type(
    "TCubeTiling",
    (Struct,),
    {
        "__doc__": _TCUBE_DOC,
        "__module__": __name__,
        **{py: Field("int32", default=0, name=c) for py, c in _C.tiling_fields()},
    },
)


class SoftmaxTiling(Struct):
    """Ascend C's ``SoftMaxTiling``: the shape of the rows a ``softmax`` call
    normalises (``src_m`` rows of ``src_k`` elements), the shape of its
    ``sum``/``max`` outputs (one 32-byte block per row) and how the host
    split the rows to fit the shared tmp buffer (``split_m`` rows a pass,
    ``range_m`` passes and ``tail_m`` rows left). Fill it on the host with
    :func:`pyasc.language.adv_host.softmax_tiling_func`."""

    src_m = Field("int32", default=0, name="srcM")
    src_k = Field("int32", default=0, name="srcK")
    src_size = Field("int32", default=0, name="srcSize")
    out_max_m = Field("int32", default=0, name="outMaxM")
    out_max_k = Field("int32", default=0, name="outMaxK")
    out_max_size = Field("int32", default=0, name="outMaxSize")
    split_m = Field("int32", default=0, name="splitM")
    split_k = Field("int32", default=0, name="splitK")
    split_size = Field("int32", default=0, name="splitSize")
    reduce_m = Field("int32", default=0, name="reduceM")
    reduce_k = Field("int32", default=0, name="reduceK")
    reduce_size = Field("int32", default=0, name="reduceSize")
    range_m = Field("int32", default=0, name="rangeM")
    tail_m = Field("int32", default=0, name="tailM")
    tail_split_size = Field("int32", default=0, name="tailSplitSize")
    tail_reduce_size = Field("int32", default=0, name="tailReduceSize")


class RmsNormTiling(Struct):
    """Ascend C's ``RmsNormTiling``: a [B, S, H] input (``h_length`` padded,
    ``original_h_length`` real), ``reciprocal_of_h_length`` the mean's
    factor, and the rows per pass (``main_*``) and the rest (``tail_*``) that
    fit the shared tmp buffer. Fill it on the host with
    :func:`pyasc.language.adv_host.get_rms_norm_tiling_info`."""

    b_length = Field("int32", default=0, name="bLength")
    s_length = Field("int32", default=0, name="sLength")
    h_length = Field("int32", default=0, name="hLength")
    original_h_length = Field("int32", default=0, name="originalHLength")
    reciprocal_of_h_length = Field("float32", default=0.0, name="reciprocalOfHLength")
    main_bsh_length = Field("int32", default=0, name="mainBshLength")
    main_bs_length = Field("int32", default=0, name="mainBsLength")
    main_bs_length_align = Field("int32", default=0, name="mainBsLengthAlign")
    loop_round = Field("int32", default=0, name="loopRound")
    input_tail_pos = Field("int32", default=0, name="inputTailPos")
    tail_bsh_length = Field("int32", default=0, name="tailBshLength")
    tail_bs_length = Field("int32", default=0, name="tailBsLength")


class QuantConfig(Struct):
    """Ascend C's ``AscendQuantConfig``: ``calc_count`` elements (used when
    ``quant`` gets no count), the per-channel ``offset_count`` and
    ``scale_count`` (0: per tensor, the only form pyasc simulates) and
    ``work_local_size`` (by keyword or, as PyAsc's constructor lists them,
    by position)."""

    struct_positional = True
    calc_count = Field("int32", default=0, name="calcCount")
    offset_count = Field("int32", default=0, name="offsetCount")
    scale_count = Field("int32", default=0, name="scaleCount")
    work_local_size = Field("int32", default=0, name="workLocalSize")


__all__ = ["TCubeTiling", "SoftmaxTiling", "RmsNormTiling", "QuantConfig"]
