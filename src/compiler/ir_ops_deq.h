/* Checks of the dequantising vector ops (rt/deq.h) and of
 * load_data_with_transpose, included by ir_ops.c after ir_ops_sort.h
 * (check_same_locals). */

/* cast_deq: int16 -> int8/uint8, int32 -> float16 (dst, src) */
static asc_status check_cast_deq(const asc_ir_module *m, const ir_op *op) {
  asc_status st = check_local_at(m, op, 1, I16 | I32, "src");
  if (!st) st = check_local_at(m, op, 0, F16 | I8 | U8, "dst");
  if (st) return st;
  asc_dtype d = type_at(m, op, 0)->dtype, s = type_at(m, op, 1)->dtype;
  if (s == ASC_INT32 ? d != ASC_FLOAT16 : d == ASC_FLOAT16)
    return asc_error(ASC_ERR_COMPILE,
                     "cast_deq: %s -> %s is not one of its casts (int16 -> int8 or uint8, "
                     "int32 -> float16)",
                     asc_dtype_name(s), asc_dtype_name(d));
  return ASC_OK;
}
/* add_deq_relu: int32 sources, float16 dst */
static asc_status check_add_deq_relu(const asc_ir_module *m, const ir_op *op) {
  asc_status st = check_same_locals(m, op, 1, 2, I32);
  if (!st) st = check_local_at(m, op, 0, F16, "dst");
  return st;
}
/* set_deq_scale's vector form: a uint64 tensor of 16 entries */
static asc_status check_vdeq(const asc_ir_module *m, const ir_op *op) {
  return check_local_at(m, op, 0, 1u << ASC_UINT64, "vdeq");
}
/* load_data_with_transpose: load_data's positions; float16/bfloat16 only
 * (the 8- and 32-bit forms transpose two-fractal squares) */
static asc_status check_cube_load_t(const asc_ir_module *m, const ir_op *op) {
  asc_status st = check_cube_load(m, op);
  if (st) return st;
  asc_dtype d = type_at(m, op, 0)->dtype;
  if (d != ASC_FLOAT16 && d != ASC_BFLOAT16)
    return asc_error(ASC_ERR_COMPILE,
                     "load_data_with_transpose: %s is not simulated (float16 and bfloat16 are)",
                     asc_dtype_name(d));
  return ASC_OK;
}
