"""Types of the kernel-only Ascend C APIs that ``import pyasc`` adds from
pyasc.language.builtins.KERNEL_ONLY (a type checker cannot follow that
dict). Each is a KernelBuiltin: called in a kernel, typed Any outside.
tests/python/test_signatures.py keeps this list equal to KERNEL_ONLY.
No __all__: ``import *`` of a stub takes every public name it declares,
so a new API needs one line here, not two lists kept in step."""

from pyasc.language.core import KernelBuiltin

add_relu: KernelBuiltin
add_relu_cast: KernelBuiltin
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
count_bits_cnt_same_as_sign_bit: KernelBuiltin
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
gather_mask: KernelBuiltin
gatherb: KernelBuiltin
get_block_idx: KernelBuiltin
get_block_num: KernelBuiltin
get_cmp_mask: KernelBuiltin
get_data_block_size_in_bytes: KernelBuiltin
get_gather_mask_remain_count: KernelBuiltin
get_mrg_sort_result: KernelBuiltin
get_sort_len: KernelBuiltin
get_sort_offset: KernelBuiltin
leaky_relu: KernelBuiltin
ln: KernelBuiltin
load_data: KernelBuiltin
maxs: KernelBuiltin
mins: KernelBuiltin
mmad: KernelBuiltin
mrg_sort: KernelBuiltin
mrg_sort4: KernelBuiltin
mul: KernelBuiltin
mul_add_dst: KernelBuiltin
mul_cast: KernelBuiltin
muls: KernelBuiltin
pair_reduce_sum: KernelBuiltin
pipe_barrier: KernelBuiltin
printf: KernelBuiltin
proposal_concat: KernelBuiltin
proposal_extract: KernelBuiltin
reduce_max: KernelBuiltin
reduce_min: KernelBuiltin
reduce_sum: KernelBuiltin
repeat_reduce_sum: KernelBuiltin
reset_mask: KernelBuiltin
rp_sort16: KernelBuiltin
scalar_cast: KernelBuiltin
scalar_count_leading_zero: KernelBuiltin
scalar_get_count_of_value: KernelBuiltin
scalar_get_sff_value: KernelBuiltin
scatter: KernelBuiltin
select: KernelBuiltin
set_cmp_mask: KernelBuiltin
set_flag: KernelBuiltin
set_mask_count: KernelBuiltin
set_mask_norm: KernelBuiltin
set_vector_mask: KernelBuiltin
shift_left: KernelBuiltin
shift_right: KernelBuiltin
sort: KernelBuiltin
sort32: KernelBuiltin
sub: KernelBuiltin
sub_relu: KernelBuiltin
sub_relu_cast: KernelBuiltin
transpose: KernelBuiltin
trap: KernelBuiltin
wait_flag: KernelBuiltin
whole_reduce_max: KernelBuiltin
whole_reduce_min: KernelBuiltin
whole_reduce_sum: KernelBuiltin
