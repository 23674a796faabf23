/* The C form of the sort, gather_mask, CMPMASK and scalar-bit rows of
 * api_table.def (runtime: rt/sort.h, rt/mask_bits.h): <rt>(k, operands..., attributes..., dtype of
 * operand 0 (0 if it is no tensor), [&result,] line). */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emit_c.h"

int ce_sg(emitter *e, const ir_op *op, const char *rt) {
  const uint32_t *o = op->operands;
  if (op->result) ce_line(e, "%s v%u;", ce_c_type(ce_type_of(e, op->result).kind), op->result);
  ir_buf_indent(e->b, e->depth);
  ir_buf_printf(e->b, "if (%s(k", rt);
  for (int i = 0; i < op->noperands; i++) ir_buf_printf(e->b, ", v%u", o[i]);
  for (int i = 0; i < op->niattrs; i++) ir_buf_printf(e->b, ", %lld", (long long)op->iattrs[i]);
  int dt =
      op->noperands && ce_type_of(e, o[0]).kind == ASC_IR_LOCAL ? ce_type_of(e, o[0]).dtype : 0;
  ir_buf_printf(e->b, ", %d", dt);
  if (op->result) ir_buf_printf(e->b, ", &v%u", op->result);
  ir_buf_printf(e->b, ", %d)) return 1;\n", (int)op->loc.line);
  return 0;
}
/* As ce_sg, with the dtypes of operands 0 and 1 (fused casts: dst, src). */
int ce_sg2(emitter *e, const ir_op *op, const char *rt) {
  const uint32_t *o = op->operands;
  ir_buf_indent(e->b, e->depth);
  ir_buf_printf(e->b, "if (%s(k", rt);
  for (int i = 0; i < op->noperands; i++) ir_buf_printf(e->b, ", v%u", o[i]);
  for (int i = 0; i < op->niattrs; i++) ir_buf_printf(e->b, ", %lld", (long long)op->iattrs[i]);
  ir_buf_printf(e->b, ", %d, %d, %d)) return 1;\n", ce_type_of(e, o[0]).dtype,
                ce_type_of(e, o[1]).dtype, (int)op->loc.line);
  return 0;
}
