/* Checks of load_data with LoadData2DParamsV2 (rt/img2col.h); the img2col
 * loads use ir_check_cube_load. */

#include <stdio.h>
#include <string.h>

#include "ir_check.h"

/* dst A2/B2 from A1/B1, or A1/B1/A2/B2 from GM; one cube input dtype */
asc_status ir_check_cube_load2d_v2(const asc_ir_module *m, const ir_op *op) {
  const asc_ir_type *d = ir_type_at(m, op, 0), *s = ir_type_at(m, op, 1);
  if (s->kind == ASC_IR_GLOBAL) {
    asc_status st = ir_cube_position(
        m, op, 0,
        d->position != ASC_POS_CO1 && (ir_is_l1_position(d->position) ||
                                       d->position == ASC_POS_A2 || d->position == ASC_POS_B2),
        "A1, B1, A2 or B2");
    if (st) return st;
    if (d->dtype != s->dtype || !ir_cube_input_dtype((asc_dtype)d->dtype))
      return asc_error(ASC_ERR_COMPILE,
                       "load_data: dst and src must both be float16, bfloat16 or int8 (got %s "
                       "and %s)",
                       asc_dtype_name((asc_dtype)d->dtype), asc_dtype_name((asc_dtype)s->dtype));
    return ASC_OK;
  }
  return ir_check_cube_load(m, op);
}
