"""``asc.adv.get_matmul_api_tiling`` and ``MatmulApiStaticTiling``: the
constant Matmul tiling Ascend C's ``GetMatmulApiTiling`` derives at compile
time from a ``MatmulConfig`` that fixes the base (and single-core) shapes.

Compile-time values: ``asc.adv.Matmul(a, b, c, bias, static_tiling)``
takes one in place of a MatmulConfig. The simulated Matmul reads its
shapes from the runtime TCubeTiling (``register_matmul``), so the static
tiling only checks, here, that the fixed base block fits L1/L0A/L0B/L0C;
upstream requires it to agree with the runtime tiling."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

from pyasc import _C
from pyasc.language.matmul_config import MatmulConfig

#: The 910B AI core's cube buffers, in bytes (L1, L0A, L0B, L0C).
L1_SIZE, L0A_SIZE, L0B_SIZE, L0C_SIZE = 512 * 1024, 64 * 1024, 64 * 1024, 128 * 1024

_FIELDS = (
    "used_core_num", "m", "n", "k_a", "k_b", "single_core_m", "single_core_n", "single_core_k",
    "base_m", "base_n", "base_k", "depth_a1", "depth_b1", "step_m", "step_n", "is_bias",
    "trans_length", "iterate_order", "share_mode", "share_l1_size", "share_l0c_size",
    "share_ub_size", "step_k_a", "step_k_b", "depth_a_l1_cache_ub", "depth_b_l1_cache_ub",
    "db_l0a", "db_l0b", "db_l0c", "a_layout_info_b", "a_layout_info_s", "a_layout_info_n",
    "a_layout_info_g", "a_layout_info_d", "b_layout_info_b", "b_layout_info_s",
    "b_layout_info_n", "b_layout_info_g", "b_layout_info_d", "c_layout_info_b",
    "c_layout_info_s1", "c_layout_info_n", "c_layout_info_g", "c_layout_info_s2", "batch_num",
    "mx_type_para")


@dataclass(frozen=True)
class MatmulApiStaticTiling:
    """PyAsc's ``MatmulApiStaticTiling``: Ascend C's constant tiling fields
    (-1 where the config leaves one open) and the config ``cfg``."""

    cfg: MatmulConfig = MatmulConfig()
    used_core_num: int = -1
    m: int = -1
    n: int = -1
    k_a: int = -1
    k_b: int = -1
    single_core_m: int = -1
    single_core_n: int = -1
    single_core_k: int = -1
    base_m: int = -1
    base_n: int = -1
    base_k: int = -1
    depth_a1: int = -1
    depth_b1: int = -1
    step_m: int = -1
    step_n: int = -1
    is_bias: int = -1
    trans_length: int = -1
    iterate_order: int = -1
    share_mode: int = -1
    share_l1_size: int = -1
    share_l0c_size: int = -1
    share_ub_size: int = -1
    step_k_a: int = -1
    step_k_b: int = -1
    depth_a_l1_cache_ub: int = -1
    depth_b_l1_cache_ub: int = -1
    db_l0a: int = -1
    db_l0b: int = -1
    db_l0c: int = -1
    a_layout_info_b: int = -1
    a_layout_info_s: int = -1
    a_layout_info_n: int = -1
    a_layout_info_g: int = -1
    a_layout_info_d: int = -1
    b_layout_info_b: int = -1
    b_layout_info_s: int = -1
    b_layout_info_n: int = -1
    b_layout_info_g: int = -1
    b_layout_info_d: int = -1
    c_layout_info_b: int = -1
    c_layout_info_s1: int = -1
    c_layout_info_n: int = -1
    c_layout_info_g: int = -1
    c_layout_info_s2: int = -1
    batch_num: int = -1
    mx_type_para: int = -1


def _size(t: Any, what: str) -> int:
    if t is None or getattr(t, "dtype", None) is None:
        raise ValueError(f"{what} must be a MatmulType with a dtype")
    return _C.dtype(t.dtype).itemsize


def get_matmul_api_tiling(mm_cfg: MatmulConfig, *args: Any, **kwargs: Any) -> MatmulApiStaticTiling:
    """``get_matmul_api_tiling(mm_cfg, l1_size, a_type, b_type, c_type,
    bias_type=None)`` (also upstream's ``(mm_cfg, a_type, b_type, c_type,
    bias_type, l1_size=None)``): the constant tiling of mm_cfg's fixed base
    block (basic_m/n/k), checked against the cube's buffers; a config that
    fixes neither the base block nor the single-core shape gives a tiling
    with no constant field (-1), as Ascend C's GetMatmulApiTiling does."""
    if not isinstance(mm_cfg, MatmulConfig):
        raise TypeError(f"mm_cfg must be a MatmulConfig, not {type(mm_cfg).__name__}")
    if args and isinstance(args[0], int):  # the documented order: l1_size second
        names = ("l1_size", "a_type", "b_type", "c_type", "bias_type")
    else:
        names = ("a_type", "b_type", "c_type", "bias_type", "l1_size")
    if len(args) > len(names):
        raise TypeError("get_matmul_api_tiling: too many arguments")
    values = dict(zip(names, args))
    for key, value in kwargs.items():
        if key not in names or key in values:
            raise TypeError(f"get_matmul_api_tiling: unexpected or repeated argument {key!r}")
        values[key] = value
    l1 = values.get("l1_size") or L1_SIZE
    if not isinstance(l1, int) or not 0 < l1 <= L1_SIZE:
        raise ValueError(f"l1_size must be 1..{L1_SIZE}, not {l1!r}")
    es_a = _size(values.get("a_type"), "a_type")
    es_b = _size(values.get("b_type"), "b_type")
    _size(values.get("c_type"), "c_type")
    bm, bn, bk = mm_cfg.basic_m, mm_cfg.basic_n, mm_cfg.basic_k
    single_open = min(mm_cfg.single_core_m, mm_cfg.single_core_n, mm_cfg.single_core_k) <= 0
    if min(bm, bn, bk) <= 0:
        if single_open:  # Ascend C: nothing fixed, only the config (every field -1)
            return MatmulApiStaticTiling(cfg=mm_cfg)
        raise ValueError("mm_cfg fixes the single-core shape: it must fix the base block too "
                         "(basic_m, basic_n, basic_k > 0)")

    def r16(x: int) -> int:  # rows rounded up to whole 16-row fractals
        return (x + 15) // 16 * 16

    need = {"L1": (r16(bm) * bk * es_a + r16(bn) * bk * es_b, l1),
            "L0A": (r16(bm) * bk * es_a, L0A_SIZE), "L0B": (r16(bn) * bk * es_b, L0B_SIZE),
            "L0C": (r16(bm) * r16(bn) * 4, L0C_SIZE)}
    for buf, (size, room) in need.items():
        if size > room:
            raise ValueError(f"the base block {bm}x{bn}x{bk} needs {size} bytes of {buf} "
                             f"({room} there)")
    single = {}
    if min(mm_cfg.single_core_m, mm_cfg.single_core_n, mm_cfg.single_core_k) > 0:
        single = {"single_core_m": mm_cfg.single_core_m, "single_core_n": mm_cfg.single_core_n,
                  "single_core_k": mm_cfg.single_core_k, "m": mm_cfg.single_core_m,
                  "n": mm_cfg.single_core_n, "k_a": mm_cfg.single_core_k,
                  "k_b": mm_cfg.single_core_k}
    return MatmulApiStaticTiling(
        cfg=mm_cfg, base_m=bm, base_n=bn, base_k=bk, is_bias=int(values.get("bias_type")
                                                                is not None),
        step_m=mm_cfg.step_m or -1, step_n=mm_cfg.step_n or -1,
        iterate_order=int(mm_cfg.iterate_order),
        **single)


assert tuple(f.name for f in dataclasses.fields(MatmulApiStaticTiling))[1:] == _FIELDS

__all__ = ["MatmulApiStaticTiling", "get_matmul_api_tiling"]
