/* Checks of load_data with LoadData2DParamsV2 (rt/img2col.h), included by
 * ir_ops.c after ir_ops_deq.h; the img2col loads use check_cube_load. */

/* dst A2/B2 from A1/B1, or A1/B1/A2/B2 from GM; one cube input dtype */
static asc_status check_cube_load2d_v2(const asc_ir_module *m, const ir_op *op) {
  const asc_ir_type *d = type_at(m, op, 0), *s = type_at(m, op, 1);
  if (s->kind == ASC_IR_GLOBAL) {
    asc_status st = cube_position(
        m, op, 0,
        d->position != ASC_POS_CO1 &&
            (is_l1_position(d->position) || d->position == ASC_POS_A2 || d->position == ASC_POS_B2),
        "A1, B1, A2 or B2");
    if (st) return st;
    if (d->dtype != s->dtype || !cube_input_dtype((asc_dtype)d->dtype))
      return asc_error(ASC_ERR_COMPILE,
                       "load_data: dst and src must both be float16, bfloat16 or int8 (got %s "
                       "and %s)",
                       asc_dtype_name((asc_dtype)d->dtype), asc_dtype_name((asc_dtype)s->dtype));
    return ASC_OK;
  }
  return check_cube_load(m, op);
}
