/* Checks of the AIPP rows (rt/aipp.h) and of data_copy with SliceInfo
 * (rt/slice_copy.h). */

#include <stdio.h>
#include <string.h>

#include "ir_check.h"

/* set_aipp_functions [format, planes, dtype]: the attributes the lowering
 * made (the runtime checks the values the configuration holds) */
asc_status ir_check_aipp_set(const asc_ir_module *m, const ir_op *op) {
  (void)m;
  int64_t f = op->iattrs[0], planes = op->iattrs[1], dt = op->iattrs[2];
  if (f != 0 && f != 1 && f != 4 && f != 9)
    return asc_error(ASC_ERR_COMPILE, "set_aipp_functions: %lld is not an AippInputFormat",
                     (long long)f);
  if ((f == 0) != (planes == 2))
    return asc_error(ASC_ERR_COMPILE,
                     "set_aipp_functions: YUV420SP_U8 takes src0 and src1 "
                     "(its UV plane), the other formats src0 alone");
  if (dt != ASC_INT8 && dt != ASC_FLOAT16)
    return asc_error(ASC_ERR_COMPILE,
                     "set_aipp_functions: AippParams dtype must be int8 or "
                     "float16");
  return ASC_OK;
}
/* load_image_to_local: dst an int8 or float16 LocalTensor at A1 or B1 */
asc_status ir_check_aipp_load(const asc_ir_module *m, const ir_op *op) {
  const asc_ir_type *d = ir_type_at(m, op, 0);
  asc_status st = ir_cube_position(m, op, 0, d->position == ASC_POS_A1 || d->position == ASC_POS_B1,
                                   "A1 or B1");
  if (st) return st;
  if (d->dtype != ASC_INT8 && d->dtype != ASC_FLOAT16)
    return asc_error(ASC_ERR_COMPILE, "load_image_to_local: dst is %s; it must be int8 or float16",
                     asc_dtype_name((asc_dtype)d->dtype));
  return ASC_OK;
}
/* data_copy with SliceInfo [dims]: GM <-> UB of one dtype, 5 fields per
 * dimension for each side */
asc_status ir_check_slice_copy(const asc_ir_module *m, const ir_op *op) {
  const asc_ir_type *d = ir_type_at(m, op, 0), *s = ir_type_at(m, op, 1);
  int64_t dims = op->iattrs[0];
  if (dims < 1 || dims > 3 || op->noperands != 2 + 10 * dims)
    return asc_error(ASC_ERR_COMPILE, "data_copy: SliceInfo lists of 1 to 3 dimensions");
  if ((d->kind == ASC_IR_LOCAL) == (s->kind == ASC_IR_LOCAL))
    return asc_error(ASC_ERR_COMPILE,
                     "data_copy with SliceInfo copies between a GlobalTensor "
                     "and a LocalTensor");
  const asc_ir_type *l = d->kind == ASC_IR_LOCAL ? d : s;
  if (!ir_is_vector_position(l->position))
    return asc_error(ASC_ERR_COMPILE,
                     "data_copy with SliceInfo: the LocalTensor is at "
                     "TPosition.%s; it must be in the Unified Buffer",
                     ir_position_name(l->position));
  if (d->dtype != s->dtype)
    return asc_error(ASC_ERR_COMPILE, "data_copy: destination is %s but source is %s",
                     asc_dtype_name((asc_dtype)d->dtype), asc_dtype_name((asc_dtype)s->dtype));
  return ASC_OK;
}
