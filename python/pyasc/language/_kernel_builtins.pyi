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
block_reduce_max: KernelBuiltin
block_reduce_min: KernelBuiltin
block_reduce_sum: KernelBuiltin
brcb: KernelBuiltin
cast: KernelBuiltin
compare: KernelBuiltin
compare_scalar: KernelBuiltin
copy: KernelBuiltin
cross_core_set_flag: KernelBuiltin
cross_core_wait_flag: KernelBuiltin
data_copy: KernelBuiltin
data_copy_pad: KernelBuiltin
div: KernelBuiltin
dump_tensor: KernelBuiltin
duplicate: KernelBuiltin
fixpipe: KernelBuiltin
fused_mul_add: KernelBuiltin
fused_mul_add_relu: KernelBuiltin
gather: KernelBuiltin
get_block_idx: KernelBuiltin
get_block_num: KernelBuiltin
get_data_block_size_in_bytes: KernelBuiltin
get_shape_size: KernelBuiltin
get_store_atomic_config: KernelBuiltin
get_sub_block_idx: KernelBuiltin
get_sub_block_num: KernelBuiltin
get_tpipe_ptr: KernelBuiltin
init_const_value: KernelBuiltin
leaky_relu: KernelBuiltin
ln: KernelBuiltin
load_data: KernelBuiltin
maxs: KernelBuiltin
mins: KernelBuiltin
mmad: KernelBuiltin
mul: KernelBuiltin
mul_add_dst: KernelBuiltin
muls: KernelBuiltin
pair_reduce_sum: KernelBuiltin
pipe_barrier: KernelBuiltin
printf: KernelBuiltin
reduce_max: KernelBuiltin
reduce_min: KernelBuiltin
reduce_sum: KernelBuiltin
reset_mask: KernelBuiltin
scatter: KernelBuiltin
select: KernelBuiltin
set_atomic_add: KernelBuiltin
set_atomic_max: KernelBuiltin
set_atomic_min: KernelBuiltin
set_atomic_none: KernelBuiltin
set_atomic_type: KernelBuiltin
set_flag: KernelBuiltin
set_hf32_mode: KernelBuiltin
set_hf32_trans_mode: KernelBuiltin
set_mask_count: KernelBuiltin
set_mask_norm: KernelBuiltin
set_mm_layout_transform: KernelBuiltin
set_pad_value: KernelBuiltin
set_store_atomic_config: KernelBuiltin
set_vector_mask: KernelBuiltin
shift_left: KernelBuiltin
shift_right: KernelBuiltin
sub: KernelBuiltin
sub_relu: KernelBuiltin
sync_all: KernelBuiltin
transpose: KernelBuiltin
trap: KernelBuiltin
wait_flag: KernelBuiltin
whole_reduce_max: KernelBuiltin
whole_reduce_min: KernelBuiltin
whole_reduce_sum: KernelBuiltin
