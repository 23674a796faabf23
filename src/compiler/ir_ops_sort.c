/* Checks of the sort, gather_mask, CMPMASK and scalar-bit rows of
 * api_table.def (runtime: rt/sort.h, rt/mask_bits.h). */

#include <stdio.h>
#include <string.h>

#include "ir_check.h"

/* Operands first..last (LocalTensors in vector positions) of operand
 * first's dtype, which `allowed` contains. */
asc_status ir_check_same_locals(const asc_ir_module *m, const ir_op *op, int first, int last,
                                unsigned allowed) {
  const char *name = ir_op_defs[op->code].name;
  asc_dtype dt = ir_type_at(m, op, first)->dtype;
  for (int i = first; i <= last; i++) {
    asc_status st = ir_check_local_at(m, op, i, allowed, i == 0 ? "dst" : "source");
    if (st) return st;
    if (ir_type_at(m, op, i)->dtype != dt)
      return asc_error(ASC_ERR_COMPILE, "%s: operand %d is %s but operand %d is %s", name, i + 1,
                       asc_dtype_name(ir_type_at(m, op, i)->dtype), first + 1, asc_dtype_name(dt));
  }
  return ASC_OK;
}
/* Operand i: a LocalTensor in a vector position with integer elements of
 * `size` bytes (uint32_t/uint16_t in Ascend C; int32/int16 or the unsigned
 * types here). */
static asc_status check_int_local(const asc_ir_module *m, const ir_op *op, int i, size_t size,
                                  const char *what) {
  const asc_ir_type *t = ir_type_at(m, op, i);
  asc_status st = ir_check_local_at(m, op, i, ~0u, what);
  if (!st && (asc_dtype_is_float(t->dtype) || asc_dtype_size(t->dtype) != size))
    st = asc_error(ASC_ERR_COMPILE, "%s: %s must have %zu-byte integer elements, not %s",
                   ir_op_defs[op->code].name, what, size, asc_dtype_name(t->dtype));
  return st;
}
/* sort32 (dst, src0, src1 indices) */
asc_status ir_check_sort32(const asc_ir_module *m, const ir_op *op) {
  asc_status st = ir_check_same_locals(m, op, 0, 1, F16 | F32);
  return st ? st : check_int_local(m, op, 2, 4, "src1 (uint32 indices)");
}
/* sort (dst, concat, index, tmp) */
asc_status ir_check_sort(const asc_ir_module *m, const ir_op *op) {
  asc_status st = ir_check_same_locals(m, op, 0, 1, F16 | F32);
  if (!st) st = check_int_local(m, op, 2, 4, "index (uint32 indices)");
  if (!st) st = ir_check_local_at(m, op, 3, F16 | F32, "tmp");
  if (!st && ir_type_at(m, op, 3)->dtype != ir_type_at(m, op, 0)->dtype)
    st = asc_error(ASC_ERR_COMPILE, "sort: tmp must have dst's dtype");
  return st;
}
/* mrg_sort / mrg_sort4 (dst, src1..src4, ...) */
asc_status ir_check_mrg_sort(const asc_ir_module *m, const ir_op *op) {
  return ir_check_same_locals(m, op, 0, 4, F16 | F32);
}
/* rp_sort16, proposal_concat, proposal_extract (dst, src, ...) */
asc_status ir_check_proposal(const asc_ir_module *m, const ir_op *op) {
  return ir_check_same_locals(m, op, 0, 1, F16 | F32);
}
/* get_sort_len / get_sort_offset: attribute 0 is sizeof(T) */
asc_status ir_check_sort_len(const asc_ir_module *m, const ir_op *op) {
  (void)m;
  if (op->iattrs[0] != 2 && op->iattrs[0] != 4)
    return asc_error(ASC_ERR_COMPILE, "%s: the sort dtype must be float16 or float32",
                     ir_op_defs[op->code].name);
  return ASC_OK;
}
/* gather_mask (dst, src0[, pattern tensor], ...): the pattern an integer
 * tensor of the data's element size (uint16 for 2-byte data, uint32 for
 * 4-byte, as int16/int32) */
asc_status ir_check_gather_mask(const asc_ir_module *m, const ir_op *op) {
  asc_status st = ir_check_same_locals(m, op, 0, 1, F16 | BF16 | F32 | I16 | I32);
  if (st || ir_type_at(m, op, 2)->kind != ASC_IR_LOCAL) return st;
  return check_int_local(m, op, 2, asc_dtype_size(ir_type_at(m, op, 0)->dtype),
                         "src1_pattern (the data's element size)");
}
/* gatherb (dst, src0, offset) */
asc_status ir_check_gatherb(const asc_ir_module *m, const ir_op *op) {
  /* the 2- and 4-byte types (uint16_t and uint32_t as documented for Atlas A2) */
  asc_status st = ir_check_same_locals(m, op, 0, 1, F16 | BF16 | F32 | I16 | I32 | U16 | U32);
  return st ? st : check_int_local(m, op, 2, 4, "offset (uint32 byte offsets)");
}
asc_status ir_check_cmp_mask(const asc_ir_module *m, const ir_op *op) {
  return ir_check_local_at(m, op, 0, F16 | BF16 | F32 | INTS, "tensor");
}
asc_status ir_check_compare_reg(const asc_ir_module *m, const ir_op *op) {
  return ir_check_same_locals(m, op, 0, 1, F16 | F32);
}
asc_status ir_check_select_reg(const asc_ir_module *m, const ir_op *op) {
  if (op->iattrs[0] != 0)
    return asc_error(ASC_ERR_COMPILE,
                     "select: the register form (no sel_mask) takes SELMODE.VSEL_CMPMASK_SPR");
  return ir_check_same_locals(m, op, 0, 2, F16 | F32);
}
/* select.reg_scalar (dst, sel_mask, src0, ...): dst and src0 of one float
 * dtype, sel_mask any vector-position tensor (its bits) */
asc_status ir_check_select_reg_scalar(const asc_ir_module *m, const ir_op *op) {
  asc_status st = ir_check_local_at(m, op, 1, ~0u, "sel_mask");
  if (!st) st = ir_check_local_at(m, op, 0, F16 | F32, "dst");
  if (!st) st = ir_check_local_at(m, op, 2, F16 | F32, "src0");
  if (!st && ir_type_at(m, op, 0)->dtype != ir_type_at(m, op, 2)->dtype)
    st = asc_error(ASC_ERR_COMPILE, "select: dst is %s but src0 is %s",
                   asc_dtype_name(ir_type_at(m, op, 0)->dtype),
                   asc_dtype_name(ir_type_at(m, op, 2)->dtype));
  return st;
}
/* scalar_get_count_of_value / scalar_get_sff_value: count_value 0 or 1 */
asc_status ir_check_count_value(const asc_ir_module *m, const ir_op *op) {
  (void)m;
  if (op->iattrs[0] != 0 && op->iattrs[0] != 1)
    return asc_error(ASC_ERR_COMPILE, "%s: count_value must be 0 or 1, not %lld",
                     ir_op_defs[op->code].name, (long long)op->iattrs[0]);
  return ASC_OK;
}
/* scalar_cast [dtype, round mode]: float32 -> float16 with CAST_ODD,
 * float32 -> int32 with CAST_RINT, CAST_FLOOR, CAST_CEIL or CAST_ROUND */
asc_status ir_check_scalar_cast(const asc_ir_module *m, const ir_op *op) {
  (void)m;
  int64_t dt = op->iattrs[0], mode = op->iattrs[1];
  if (dt == ASC_FLOAT16 && mode == 6) return ASC_OK;
  if (dt == ASC_INT32 && mode >= 1 && mode <= 4) return ASC_OK;
  if (dt != ASC_FLOAT16 && dt != ASC_INT32)
    return asc_error(ASC_ERR_COMPILE, "scalar_cast: dtype must be float16 or int32, not %s",
                     asc_dtype_name((asc_dtype)dt));
  return asc_error(ASC_ERR_COMPILE, "scalar_cast: float32 -> %s takes %s, not round mode %lld",
                   asc_dtype_name((asc_dtype)dt),
                   dt == ASC_FLOAT16 ? "RoundMode.CAST_ODD"
                                     : "RoundMode.CAST_RINT, CAST_FLOOR, CAST_CEIL or CAST_ROUND",
                   (long long)mode);
}
/* add_relu_cast / sub_relu_cast: float32 -> float16, float16 -> int8,
 * int16 -> int8; mul_cast: float16 -> int8 or uint8 (dst, src0, src1) */
asc_status ir_check_fused_cast(const asc_ir_module *m, const ir_op *op) {
  const char *name = ir_op_defs[op->code].name;
  asc_status st = ir_check_same_locals(m, op, 1, 2, F16 | F32 | I16);
  if (!st) st = ir_check_local_at(m, op, 0, F16 | I8 | U8, "dst");
  if (st) return st;
  asc_dtype d = ir_type_at(m, op, 0)->dtype, s = ir_type_at(m, op, 1)->dtype;
  bool mul = !strncmp(name, "mul_cast", 8);
  bool ok = mul ? s == ASC_FLOAT16 && (d == ASC_INT8 || d == ASC_UINT8)
                : (s == ASC_FLOAT32 && d == ASC_FLOAT16) || (s == ASC_FLOAT16 && d == ASC_INT8) ||
                      (s == ASC_INT16 && d == ASC_INT8);
  if (!ok)
    return asc_error(
        ASC_ERR_COMPILE, "%.*s: %s -> %s is not one of its casts (%s)", (int)strcspn(name, "."),
        name, asc_dtype_name(s), asc_dtype_name(d),
        mul ? "float16 -> int8 or uint8" : "float32 -> float16, float16 -> int8, int16 -> int8");
  return ASC_OK;
}
asc_status ir_check_repeat_reduce_sum(const asc_ir_module *m, const ir_op *op) {
  return ir_check_same_locals(m, op, 0, 1, F16 | F32);
}
