/* The C forms of the AIPP rows (rt/aipp.h) and of data_copy with SliceInfo
 * (rt/slice_copy.h). AIPP:
 * rt(k, tensors..., attributes..., dtype, scalars, count, line),
 * the scalars (ints and floats alike) in one array of doubles; dtype is
 * operand 0's for a LocalTensor, else the op's last attribute. */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emit_c.h"

int ce_aipp(emitter *e, const ir_op *op, const char *rt) {
  const uint32_t *o = op->operands;
  int nt = 0;
  while (nt < op->noperands &&
         (ce_type_of(e, o[nt]).kind == ASC_IR_GLOBAL || ce_type_of(e, o[nt]).kind == ASC_IR_LOCAL))
    nt++;
  bool local = nt && ce_type_of(e, o[0]).kind == ASC_IR_LOCAL;
  ce_line(e, "{");
  e->depth++;
  ir_buf_indent(e->b, e->depth);
  ir_buf_printf(e->b, "const double p_[%d] = {", op->noperands - nt);
  for (int i = nt; i < op->noperands; i++)
    ir_buf_printf(e->b, "%s(double)v%u", i > nt ? ", " : "", o[i]);
  ir_buf_printf(e->b, "};\n");
  ir_buf_indent(e->b, e->depth);
  ir_buf_printf(e->b, "if (%s(k", rt);
  for (int i = 0; i < nt; i++) ir_buf_printf(e->b, ", v%u", o[i]);
  for (int i = 0; i < op->niattrs - !local; i++)
    ir_buf_printf(e->b, ", %lld", (long long)op->iattrs[i]);
  ir_buf_printf(e->b, ", %d, p_, %d, %d)) return 1;\n",
                local ? (int)ce_type_of(e, o[0]).dtype : (int)op->iattrs[op->niattrs - 1],
                op->noperands - nt, (int)op->loc.line);
  e->depth--;
  return ce_line(e, "}");
}

/* data_copy with SliceInfo lists [dims]: dst's fields then src's in an
 * int64_t array; the direction picks the runtime function. */
int ce_slice_copy(emitter *e, const ir_op *op, const char *rt) {
  const uint32_t *o = op->operands;
  (void)rt;
  bool to_ub = ce_type_of(e, o[0]).kind == ASC_IR_LOCAL;
  ce_line(e, "{");
  e->depth++;
  ir_buf_indent(e->b, e->depth);
  ir_buf_printf(e->b, "const int64_t p_[%d] = {", op->noperands - 2);
  for (int i = 2; i < op->noperands; i++) ir_buf_printf(e->b, "%sv%u", i > 2 ? ", " : "", o[i]);
  ir_buf_printf(e->b, "};\n");
  ce_checked(e, "asc_k_copy_slice_%s(k, v%u, v%u, %d, %lld, p_, %d)", to_ub ? "gm_ub" : "ub_gm",
             o[0], o[1], (int)op->iattrs[0], (long long)ce_esize(e, o[0]), (int)op->loc.line);
  e->depth--;
  return ce_line(e, "}");
}
