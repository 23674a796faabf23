"""Types of the kernel-only Ascend C APIs that ``import pyasc`` adds from
pyasc.language.builtins.KERNEL_ONLY (a type checker cannot follow that
dict). Each is a KernelBuiltin: called in a kernel, typed Any outside.
tests/python/test_signatures.py keeps this list equal to KERNEL_ONLY.
No __all__: ``import *`` of a stub takes every public name it declares,
so a new API needs one line here, not two lists kept in step."""

from pyasc.language.core import KernelBuiltin

add_relu: KernelBuiltin
adds: KernelBuiltin
ascend_is_aic: KernelBuiltin
ascend_is_aiv: KernelBuiltin
axpy: KernelBuiltin
bilinear_interpolation: KernelBuiltin
block_reduce_max: KernelBuiltin
block_reduce_min: KernelBuiltin
block_reduce_sum: KernelBuiltin
brcb: KernelBuiltin
cast: KernelBuiltin
check_local_memory_ia: KernelBuiltin
compare: KernelBuiltin
compare_scalar: KernelBuiltin
copy: KernelBuiltin
cross_core_set_flag: KernelBuiltin
cross_core_wait_flag: KernelBuiltin
data_cache_clean_and_invalid: KernelBuiltin
data_cache_preload: KernelBuiltin
data_copy: KernelBuiltin
data_copy_pad: KernelBuiltin
data_sync_barrier: KernelBuiltin
div: KernelBuiltin
dump_acc_chk_point: KernelBuiltin
dump_tensor: KernelBuiltin
duplicate: KernelBuiltin
fixpipe: KernelBuiltin
fused_mul_add: KernelBuiltin
fused_mul_add_relu: KernelBuiltin
gather: KernelBuiltin
get_arch_version: KernelBuiltin
get_block_idx: KernelBuiltin
get_block_num: KernelBuiltin
get_data_block_size_in_bytes: KernelBuiltin
get_hccl_context: KernelBuiltin
get_icache_preload_status: KernelBuiltin
get_program_counter: KernelBuiltin
get_sys_workspace: KernelBuiltin
get_system_cycle: KernelBuiltin
get_task_ratio: KernelBuiltin
ib_set: KernelBuiltin
ib_wait: KernelBuiltin
icache_preload: KernelBuiltin
init_soc_state: KernelBuiltin
leaky_relu: KernelBuiltin
ln: KernelBuiltin
load_data: KernelBuiltin
maxs: KernelBuiltin
metrics_prof_start: KernelBuiltin
metrics_prof_stop: KernelBuiltin
mins: KernelBuiltin
mmad: KernelBuiltin
mul: KernelBuiltin
mul_add_dst: KernelBuiltin
muls: KernelBuiltin
notify_next_block: KernelBuiltin
pair_reduce_sum: KernelBuiltin
pipe_barrier: KernelBuiltin
print_time_stamp: KernelBuiltin
printf: KernelBuiltin
reduce_max: KernelBuiltin
reduce_min: KernelBuiltin
reduce_sum: KernelBuiltin
reset_mask: KernelBuiltin
scatter: KernelBuiltin
select: KernelBuiltin
set_flag: KernelBuiltin
set_hccl_context: KernelBuiltin
set_mask_count: KernelBuiltin
set_mask_norm: KernelBuiltin
set_sys_workspace: KernelBuiltin
set_vector_mask: KernelBuiltin
shift_left: KernelBuiltin
shift_right: KernelBuiltin
sub: KernelBuiltin
sub_relu: KernelBuiltin
trans_data_to_5hd: KernelBuiltin
transpose: KernelBuiltin
trap: KernelBuiltin
wait_flag: KernelBuiltin
wait_pre_block: KernelBuiltin
whole_reduce_max: KernelBuiltin
whole_reduce_min: KernelBuiltin
whole_reduce_sum: KernelBuiltin
