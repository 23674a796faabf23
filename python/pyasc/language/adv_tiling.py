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

__all__ = ["TCubeTiling"]
