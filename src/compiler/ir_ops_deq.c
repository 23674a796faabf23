/* Checks of the dequantising vector ops (rt/deq.h) and of
 * load_data_with_transpose and the 4:2 sparse matmul (rt/cube_sparse.h). */

#include <stdio.h>
#include <string.h>

#include "ir_check.h"

/* cast_deq: int16 -> int8/uint8, int32 -> float16 (dst, src) */
asc_status ir_check_cast_deq(const asc_ir_module *m, const ir_op *op) {
  asc_status st = ir_check_local_at(m, op, 1, I16 | I32, "src");
  if (!st) st = ir_check_local_at(m, op, 0, F16 | I8 | U8, "dst");
  if (st) return st;
  asc_dtype d = ir_type_at(m, op, 0)->dtype, s = ir_type_at(m, op, 1)->dtype;
  if (s == ASC_INT32 ? d != ASC_FLOAT16 : d == ASC_FLOAT16)
    return asc_error(ASC_ERR_COMPILE,
                     "cast_deq: %s -> %s is not one of its casts (int16 -> int8 or uint8, "
                     "int32 -> float16)",
                     asc_dtype_name(s), asc_dtype_name(d));
  return ASC_OK;
}
/* add_deq_relu: int32 sources, float16 dst */
asc_status ir_check_add_deq_relu(const asc_ir_module *m, const ir_op *op) {
  asc_status st = ir_check_same_locals(m, op, 1, 2, I32);
  if (!st) st = ir_check_local_at(m, op, 0, F16, "dst");
  return st;
}
/* set_deq_scale's vector form: a uint64 tensor of 16 entries */
asc_status ir_check_vdeq(const asc_ir_module *m, const ir_op *op) {
  return ir_check_local_at(m, op, 0, 1u << ASC_UINT64, "vdeq");
}
/* load_data_with_transpose: load_data's positions; float16/bfloat16 squares
 * are one fractal, int8 and float32 squares two (rt/cube_sparse.h) */
/* load_data_with_transpose: one input dtype. PyAsc's front end takes
 * LocalTensors at any position: where they are (dst in L0A/L0B, src in
 * L1) is checked when it runs (rt/cube_view.h). */
asc_status ir_check_cube_load_t(const asc_ir_module *m, const ir_op *op) {
  const asc_ir_type *d = ir_type_at(m, op, 0), *s = ir_type_at(m, op, 1);
  if (d->dtype != s->dtype || !ir_cube_input_dtype((asc_dtype)d->dtype))
    return asc_error(ASC_ERR_COMPILE,
                     "load_data_with_transpose: dst and src must both be float16, bfloat16, "
                     "float32 or int8 (got %s and %s)",
                     asc_dtype_name((asc_dtype)d->dtype), asc_dtype_name((asc_dtype)s->dtype));
  return ASC_OK;
}
/* The sparse cube ops' three operands: operand i at position pos[i] (named
 * where[i]) holding dtype dt[i]; rule says what the dtypes must be. */
static asc_status check_sparse_operands(const asc_ir_module *m, const ir_op *op,
                                        const asc_ir_position pos[3], const char *const where[3],
                                        const asc_dtype dt[3], const char *rule) {
  const asc_ir_type *t[3];
  bool dtypes_ok = true;
  for (int i = 0; i < 3; i++) {
    t[i] = ir_type_at(m, op, i);
    asc_status st = ir_cube_position(m, op, i, t[i]->position == pos[i], where[i]);
    if (st) return st;
    dtypes_ok = dtypes_ok && t[i]->dtype == dt[i];
  }
  if (!dtypes_ok)
    return asc_error(ASC_ERR_COMPILE, "%s (got %s, %s, %s)", rule,
                     asc_dtype_name((asc_dtype)t[0]->dtype), asc_dtype_name((asc_dtype)t[1]->dtype),
                     asc_dtype_name((asc_dtype)t[2]->dtype));
  return ASC_OK;
}
/* load_data_with_sparse: dst B2 int8, src B1 int8, idx B1 uint8 */
asc_status ir_check_cube_load_sparse(const asc_ir_module *m, const ir_op *op) {
  static const asc_ir_position pos[3] = {ASC_POS_B2, ASC_POS_B1, ASC_POS_B1};
  static const char *const where[3] = {"B2", "B1", "B1"};
  static const asc_dtype dt[3] = {ASC_INT8, ASC_INT8, ASC_UINT8};
  return check_sparse_operands(m, op, pos, where, dt,
                               "load_data_with_sparse: dst and src must be int8 and idx uint8");
}
/* mmad_with_sparse: dst CO1 int32, fm A2 int8, filter B2 int8 */
asc_status ir_check_cube_mmad_sparse(const asc_ir_module *m, const ir_op *op) {
  static const asc_ir_position pos[3] = {ASC_POS_CO1, ASC_POS_A2, ASC_POS_B2};
  static const char *const where[3] = {"CO1", "A2", "B2"};
  static const asc_dtype dt[3] = {ASC_INT32, ASC_INT8, ASC_INT8};
  return check_sparse_operands(m, op, pos, where, dt,
                               "mmad_with_sparse: dst must be int32 and fm, filter int8");
}
