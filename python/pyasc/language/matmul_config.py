"""``asc.adv.MatmulConfig`` and the getters that build one
(``get_normal_config``, ``get_mdl_config``, ``get_special_mdl_config``,
``get_basic_config``, ``get_special_basic_config``,
``get_ib_share_norm_config``, ``get_mm_config`` with ``MatmulShapeParams``,
``MatmulQuantParams``, ``MatmulBatchParams`` and ``MatmulFuncParams``).

A configuration is a compile-time value with upstream's fields and
defaults; the getters are plain functions, callable on the host and in
kernels with constant arguments. The simulated Matmul runs its normal
schedule whatever the configuration selects (its results do not depend on
the template)."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

from pyasc.language.matmul_enums import (BatchMode, IterateMode, IterateOrder, MatmulConfigMode,
                                         ScheduleType)


@dataclass(frozen=True)
class MatmulConfig:
    """PyAsc's ``MatmulConfig`` (Ascend C's ``MatmulConfig``): which Matmul
    template and features a kernel asks for. A compile-time value."""

    do_norm: bool = True
    do_basic_block: bool = False
    do_multi_data_load: bool = False
    basic_m: int = 0
    basic_n: int = 0
    basic_k: int = 0
    intrinsics_check: bool = False
    is_n_batch: bool = False
    en_vec_nd2nz: bool = False
    do_special_basic_block: bool = False
    do_mte2_preload: int = 0
    single_core_m: int = 0
    single_core_n: int = 0
    single_core_k: int = 0
    step_m: int = 0
    step_n: int = 0
    base_mn: int = 0
    single_core_mn: int = 0
    en_unit_flag: bool = True
    is_per_tensor: bool = False
    has_anti_quant_offset: bool = False
    do_ib_share_norm: bool = False
    do_special_mdl: bool = False
    enable_init: bool = True
    batch_mode: int = BatchMode.BATCH_LESS_THAN_L1
    enable_end: bool = True
    enable_get_tensor_c: bool = True
    enable_set_org_shape: bool = True
    enable_set_bias: bool = True
    enable_set_tail: bool = True
    enable_quant_vector: bool = True
    enable_set_define_data: bool = True
    iterate_mode: int = IterateMode.ITERATE_MODE_DEFAULT
    enable_reuse: bool = True
    enable_ub_reuse: bool = False
    enable_l1_cache_ub: bool = False
    intra_block_part_sum: bool = False
    iterate_order: int = IterateOrder.UNDEF
    schedule_type: int = ScheduleType.INNER_PRODUCT
    enable_double_cache: int = 0
    is_bias_batch: bool = True
    enable_static_pad_zeros: bool = False
    is_partial_output: bool = False
    enable_mix_dual_master: bool = False
    is_a2b2_shared: bool = False
    is_enable_channel_split: bool = False
    enable_kdim_reorder_load: bool = False
    is_co1_shared: bool = False
    shared_co1_buffer_size: int = 64 * 1024
    batch_out_mode: int = 0


@dataclass(frozen=True)
class MatmulShapeParams:
    """Static shapes for get_mm_config."""

    single_core_m: int = 0
    single_core_n: int = 0
    single_core_k: int = 0
    basic_m: int = 0
    basic_n: int = 0
    basic_k: int = 0


@dataclass(frozen=True)
class MatmulQuantParams:
    """Quantisation switches for get_mm_config."""

    is_per_tensor: bool = False
    has_anti_quant_offset: bool = False


@dataclass(frozen=True)
class MatmulBatchParams:
    """Batch switches for get_mm_config (``is_b_batch`` is the config's is_n_batch)."""

    is_b_batch: bool = False
    batch_mode: int = BatchMode.BATCH_LESS_THAN_L1
    is_bias_batch: bool = False


@dataclass(frozen=True)
class MatmulFuncParams:
    """Feature switches for get_mm_config."""

    intrinsics_limit: bool = False
    en_vec_nd2_nz: bool = False
    enable_double_cache: bool = False
    enable_l1_cache: bool = False
    do_mte2_pre_load: int = 0
    iterate_order: int = IterateOrder.ORDER_M
    schedule_type: int = ScheduleType.INNER_PRODUCT
    enable_reuse: bool = True
    enable_ub_reuse: bool = False
    is_partial_output: bool = False
    is_a2_b2_shared: bool = False
    is_enable_channel_split: bool = False
    enable_kdim_reorder_load: bool = False


def get_normal_config(intrinsics_limit: bool = False, batch_loop: bool = False,
                      is_vec_nd2_nz: bool = False, bmm_mode: int = BatchMode.BATCH_LESS_THAN_L1,
                      is_msg_reuse: bool = True, iterate_order: int = IterateOrder.ORDER_M,
                      schedule_type: int = ScheduleType.INNER_PRODUCT,
                      en_unit_flag: bool = True) -> MatmulConfig:
    """The normal (NORM) template's configuration."""
    return MatmulConfig(intrinsics_check=intrinsics_limit, is_n_batch=batch_loop,
                        en_vec_nd2nz=is_vec_nd2_nz, batch_mode=bmm_mode, enable_reuse=is_msg_reuse,
                        iterate_order=iterate_order, schedule_type=schedule_type,
                        en_unit_flag=en_unit_flag)


def get_mdl_config(intrinsics_limit: bool = False, batch_loop: bool = False,
                   do_mte2_preload: int = 0, is_vec_nd2_nz: bool = False,
                   is_per_tensor: bool = False, has_anti_quant_offset: bool = False,
                   en_unit_flag: bool = False, is_msg_reuse: bool = True,
                   enable_ub_reuse: bool = True, enable_l1_cache_ub: bool = False,
                   enable_mix_dual_master: bool = False,
                   enable_kdim_reorder_load: bool = False) -> MatmulConfig:
    """The MDL template's configuration (several base blocks loaded at once)."""
    return MatmulConfig(do_norm=False, do_multi_data_load=True, intrinsics_check=intrinsics_limit,
                        is_n_batch=batch_loop, do_mte2_preload=do_mte2_preload,
                        en_vec_nd2nz=is_vec_nd2_nz, is_per_tensor=is_per_tensor,
                        has_anti_quant_offset=has_anti_quant_offset, en_unit_flag=en_unit_flag,
                        enable_reuse=is_msg_reuse, enable_ub_reuse=enable_ub_reuse,
                        enable_l1_cache_ub=enable_l1_cache_ub,
                        enable_mix_dual_master=enable_mix_dual_master,
                        enable_kdim_reorder_load=enable_kdim_reorder_load)


def get_special_mdl_config(intrinsics_limit: bool = False, batch_loop: bool = False,
                           do_mte2_pre_load: int = 0, is_vec_nd2_nz: bool = False,
                           is_per_tensor: bool = False,
                           has_anti_quant_offset: bool = False) -> MatmulConfig:
    """The special MDL template's configuration."""
    return MatmulConfig(do_norm=False, do_special_mdl=True, intrinsics_check=intrinsics_limit,
                        is_n_batch=batch_loop, do_mte2_preload=do_mte2_pre_load,
                        en_vec_nd2nz=is_vec_nd2_nz, is_per_tensor=is_per_tensor,
                        has_anti_quant_offset=has_anti_quant_offset, en_unit_flag=False)


def get_basic_config(basic_m: int, basic_n: int, basic_k: int, intrinsics_limit: bool = False,
                     batch_loop: bool = False,
                     bmm_mode: int = BatchMode.BATCH_LESS_THAN_L1) -> MatmulConfig:
    """The basic-block template's configuration (fixed base block)."""
    return MatmulConfig(do_norm=False, do_basic_block=True, basic_m=basic_m, basic_n=basic_n,
                        basic_k=basic_k, intrinsics_check=intrinsics_limit, is_n_batch=batch_loop,
                        batch_mode=bmm_mode, en_unit_flag=False)


def get_special_basic_config(basic_m: int, basic_n: int, basic_k: int, single_core_m: int,
                             single_core_n: int, single_core_k: int, step_m: int, step_n: int,
                             intrinsics_limit: bool = False, batch_loop: bool = False,
                             bmm_mode: int = BatchMode.BATCH_LESS_THAN_L1) -> MatmulConfig:
    """The special basic-block template's configuration (static shapes and steps)."""
    return MatmulConfig(do_norm=False, do_special_basic_block=True, basic_m=basic_m,
                        basic_n=basic_n, basic_k=basic_k, single_core_m=single_core_m,
                        single_core_n=single_core_n, single_core_k=single_core_k, step_m=step_m,
                        step_n=step_n, intrinsics_check=intrinsics_limit, is_n_batch=batch_loop,
                        batch_mode=bmm_mode)


def get_ib_share_norm_config(intrinsics_limit: bool = False, batch_loop: bool = False,
                             is_vec_nd2_nz: bool = False,
                             bmm_mode: int = BatchMode.BATCH_LESS_THAN_L1,
                             is_double_cache: bool = False,
                             en_unit_flag: bool = True) -> MatmulConfig:
    """The IBShare template's configuration (A or B shared by a group's AIVs)."""
    return MatmulConfig(do_norm=False, do_ib_share_norm=True, intrinsics_check=intrinsics_limit,
                        is_n_batch=batch_loop, en_vec_nd2nz=is_vec_nd2_nz, batch_mode=bmm_mode,
                        enable_double_cache=int(is_double_cache), en_unit_flag=en_unit_flag)


def _check(value: Any, allowed: range, what: str) -> None:
    if int(value) not in allowed:
        raise ValueError(f"get_mm_config: {what} must be in [{allowed.start}, {allowed.stop - 1}], "
                         f"got {value}")


def get_mm_config(*params: Any, **named: Any) -> MatmulConfig:
    """A configuration from a MatmulConfigMode and any of MatmulShapeParams,
    MatmulQuantParams, MatmulBatchParams and MatmulFuncParams, in any order."""
    mode = MatmulConfigMode.CONFIG_NORM
    fields: dict[str, Any] = {"iterate_order": IterateOrder.ORDER_M,
                              "enable_reuse": False, "is_bias_batch": False}
    for p in (*params, *named.values()):
        if isinstance(p, MatmulConfigMode):
            mode = p
            # upstream starts from CFG_MDL (or the special MDL config) here,
            # whose unit flag is off; CFG_NORM's and CFG_IBSHARE_NORM's is on
            fields["en_unit_flag"] = p not in (MatmulConfigMode.CONFIG_MDL,
                                               MatmulConfigMode.CONFIG_SPECIALMDL)
        elif isinstance(p, MatmulShapeParams):
            fields.update(dataclasses.asdict(p))
        elif isinstance(p, MatmulQuantParams):
            fields.update(dataclasses.asdict(p))
        elif isinstance(p, MatmulBatchParams):
            fields.update(is_n_batch=p.is_b_batch, batch_mode=p.batch_mode,
                          is_bias_batch=p.is_bias_batch)
        elif isinstance(p, MatmulFuncParams):
            fields.update(intrinsics_check=p.intrinsics_limit, en_vec_nd2nz=p.en_vec_nd2_nz,
                          enable_double_cache=int(p.enable_double_cache),
                          enable_l1_cache_ub=p.enable_l1_cache, do_mte2_preload=p.do_mte2_pre_load,
                          iterate_order=p.iterate_order, schedule_type=p.schedule_type,
                          enable_reuse=p.enable_reuse, enable_ub_reuse=p.enable_ub_reuse,
                          is_partial_output=p.is_partial_output,
                          is_a2b2_shared=p.is_a2_b2_shared,
                          is_enable_channel_split=p.is_enable_channel_split,
                          enable_kdim_reorder_load=p.enable_kdim_reorder_load)
        else:
            raise TypeError(f"get_mm_config: unexpected {type(p).__name__} (give a "
                            "MatmulConfigMode or Matmul*Params)")
    _check(fields.get("batch_mode", BatchMode.BATCH_LESS_THAN_L1), range(1, 4), "batch_mode")
    _check(fields["iterate_order"], range(0, 3), "iterate_order")
    _check(fields.get("schedule_type", 0), range(0, 2), "schedule_type")
    _check(fields.get("do_mte2_preload", 0), range(0, 3), "do_mte2_preload")
    return MatmulConfig(do_norm=mode == MatmulConfigMode.CONFIG_NORM,
                        do_multi_data_load=mode == MatmulConfigMode.CONFIG_MDL,
                        do_special_mdl=mode == MatmulConfigMode.CONFIG_SPECIALMDL,
                        do_ib_share_norm=mode == MatmulConfigMode.CONFIG_IBSHARE, **fields)


#: the getters and parameter classes a kernel may call with constant arguments
COMPILE_TIME = (MatmulConfig, MatmulShapeParams, MatmulQuantParams, MatmulBatchParams,
                MatmulFuncParams, get_normal_config, get_mdl_config, get_special_mdl_config,
                get_basic_config, get_special_basic_config, get_ib_share_norm_config,
                get_mm_config)

__all__ = ["MatmulBatchParams", "MatmulConfig", "MatmulFuncParams", "MatmulQuantParams",
           "MatmulShapeParams", "get_basic_config", "get_ib_share_norm_config", "get_mdl_config",
           "get_mm_config", "get_normal_config", "get_special_basic_config",
           "get_special_mdl_config"]
