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
/* load_data_with_sparse: dst B2 int8, src B1 int8, idx B1 uint8 */
asc_status ir_check_cube_load_sparse(const asc_ir_module *m, const ir_op *op) {
  const asc_ir_type *d = ir_type_at(m, op, 0), *s = ir_type_at(m, op, 1), *x = ir_type_at(m, op, 2);
  asc_status st = ir_cube_position(m, op, 0, d->position == ASC_POS_B2, "B2");
  if (!st) st = ir_cube_position(m, op, 1, s->position == ASC_POS_B1, "B1");
  if (!st) st = ir_cube_position(m, op, 2, x->position == ASC_POS_B1, "B1");
  if (st) return st;
  if (d->dtype != ASC_INT8 || s->dtype != ASC_INT8 || x->dtype != ASC_UINT8)
    return asc_error(ASC_ERR_COMPILE,
                     "load_data_with_sparse: dst and src must be int8 and idx uint8 (got %s, %s, "
                     "%s)",
                     asc_dtype_name((asc_dtype)d->dtype), asc_dtype_name((asc_dtype)s->dtype),
                     asc_dtype_name((asc_dtype)x->dtype));
  return ASC_OK;
}
/* mmad_with_sparse: dst CO1 int32, fm A2 int8, filter B2 int8 */
asc_status ir_check_cube_mmad_sparse(const asc_ir_module *m, const ir_op *op) {
  const asc_ir_type *c = ir_type_at(m, op, 0), *a = ir_type_at(m, op, 1), *b = ir_type_at(m, op, 2);
  asc_status st = ir_cube_position(m, op, 0, c->position == ASC_POS_CO1, "CO1");
  if (!st) st = ir_cube_position(m, op, 1, a->position == ASC_POS_A2, "A2");
  if (!st) st = ir_cube_position(m, op, 2, b->position == ASC_POS_B2, "B2");
  if (st) return st;
  if (c->dtype != ASC_INT32 || a->dtype != ASC_INT8 || b->dtype != ASC_INT8)
    return asc_error(ASC_ERR_COMPILE,
                     "mmad_with_sparse: dst must be int32 and fm, filter int8 (got %s, %s, %s)",
                     asc_dtype_name((asc_dtype)c->dtype), asc_dtype_name((asc_dtype)a->dtype),
                     asc_dtype_name((asc_dtype)b->dtype));
  return ASC_OK;
}
