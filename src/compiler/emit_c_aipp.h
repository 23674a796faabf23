/* The C form of the AIPP rows (rt/aipp.h), included by emit_c.c ahead of
 * the table: rt(k, tensors..., attributes..., dtype, scalars, count, line),
 * the scalars (ints and floats alike) in one array of doubles; dtype is
 * operand 0's for a LocalTensor, else the op's last attribute. */
static int ce_aipp(emitter *e, const ir_op *op, const char *rt) {
  const uint32_t *o = op->operands;
  int nt = 0;
  while (nt < op->noperands &&
         (type_of(e, o[nt]).kind == ASC_IR_GLOBAL || type_of(e, o[nt]).kind == ASC_IR_LOCAL))
    nt++;
  bool local = nt && type_of(e, o[0]).kind == ASC_IR_LOCAL;
  line(e, "{");
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
                local ? (int)type_of(e, o[0]).dtype : (int)op->iattrs[op->niattrs - 1],
                op->noperands - nt, (int)op->loc.line);
  e->depth--;
  return line(e, "}");
}
