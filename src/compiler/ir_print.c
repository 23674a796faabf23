/* The IR's stable textual form, for dumps and golden tests. */
#include <stdlib.h>

#include "ir_internal.h"

static void print_type(ir_buf *b, asc_ir_type t) {
  switch (t.kind) {
    case ASC_IR_ADDR:
    case ASC_IR_GLOBAL:
      ir_buf_printf(b, "%s<%s>", ir_kind_name(t.kind), asc_dtype_name(t.dtype));
      break;
    case ASC_IR_LOCAL:
      ir_buf_printf(b, "LocalTensor<%s, %s>", asc_dtype_name(t.dtype),
                    ir_position_name(t.position));
      break;
    case ASC_IR_QUE:
      ir_buf_printf(b, "TQue<%s, %d>", ir_position_name(t.position), t.depth);
      break;
    case ASC_IR_TBUF:
      ir_buf_printf(b, "TBuf<%s>", ir_position_name(t.position));
      break;
    default:
      ir_buf_printf(b, "%s", ir_kind_name(t.kind));
  }
}

static void print_string(ir_buf *b, const char *s) {
  ir_buf_printf(b, "\"");
  for (; *s; s++) {
    if (*s == '"' || *s == '\\')
      ir_buf_printf(b, "\\%c", *s);
    else if (*s == '\n')
      ir_buf_printf(b, "\\n");
    else
      ir_buf_printf(b, "%c", *s);
  }
  ir_buf_printf(b, "\"");
}

static void print_region(const asc_ir_module *m, ir_buf *b, const ir_region *r, int depth);

static void print_op(const asc_ir_module *m, ir_buf *b, const ir_op *op, int depth) {
  ir_buf_indent(b, depth);
  const char *name = ir_op_defs[op->code].name;
  switch (op->code) {
    case IR_CONST_INT:
      ir_buf_printf(b, "%%%u = const %lld : int", op->result, (long long)op->ival);
      break;
    case IR_CONST_FLOAT:
      ir_buf_printf(b, "%%%u = const %.17g : float", op->result, op->fval);
      break;
    case IR_CONST_BOOL:
      ir_buf_printf(b, "%%%u = const %s : bool", op->result, op->ival ? "true" : "false");
      break;
    case IR_VAR:
      ir_buf_printf(b, "%%%u = var \"%s\" : ", op->result, m->values[op->result].name);
      print_type(b, m->values[op->result].type);
      break;
    case IR_FOR:
      ir_buf_printf(b, "for %%%u = range(%%%u, %%%u, %%%u) {\n", op->result, op->operands[0],
                    op->operands[1], op->operands[2]);
      print_region(m, b, op->regions[0], depth + 1);
      ir_buf_indent(b, depth);
      ir_buf_printf(b, "}\n");
      return;
    case IR_WHILE:
      ir_buf_printf(b, "while {\n");
      print_region(m, b, op->regions[0], depth + 1);
      ir_buf_indent(b, depth);
      ir_buf_printf(b, "} test %%%u do {\n", op->operands[0]);
      print_region(m, b, op->regions[1], depth + 1);
      ir_buf_indent(b, depth);
      ir_buf_printf(b, "}\n");
      return;
    case IR_IF:
      ir_buf_printf(b, "if %%%u {\n", op->operands[0]);
      print_region(m, b, op->regions[0], depth + 1);
      if (op->nregions > 1) {
        ir_buf_indent(b, depth);
        ir_buf_printf(b, "} else {\n");
        print_region(m, b, op->regions[1], depth + 1);
      }
      ir_buf_indent(b, depth);
      ir_buf_printf(b, "}\n");
      return;
    default:
      if (op->result) ir_buf_printf(b, "%%%u = ", op->result);
      ir_buf_printf(b, "%s(", name);
      for (int i = 0; i < op->noperands; i++)
        ir_buf_printf(b, "%s%%%u", i ? ", " : "", op->operands[i]);
      ir_buf_printf(b, ")");
      if (op->niattrs) {
        ir_buf_printf(b, " {");
        for (int i = 0; i < op->niattrs; i++)
          ir_buf_printf(b, "%s%lld", i ? ", " : "", (long long)op->iattrs[i]);
        ir_buf_printf(b, "}");
      }
      if (op->sattr) {
        ir_buf_printf(b, " ");
        print_string(b, op->sattr);
      }
      if (op->result) {
        ir_buf_printf(b, " : ");
        print_type(b, m->values[op->result].type);
      }
      if (op->check_ub) ir_buf_printf(b, " !ub_check");
  }
  ir_buf_printf(b, "  @%u:%u", ASC_IR_LINE(op->loc.line), op->loc.col);
  if (ASC_IR_FILE(op->loc.line)) ir_buf_printf(b, " in %s", ir_file_name(m, op->loc.line));
  ir_buf_printf(b, "\n");
}

/* Any state prints, a half-built one too (a while without its body yet). */
static void print_region(const asc_ir_module *m, ir_buf *b, const ir_region *r, int depth) {
  for (int i = 0; r && i < r->n; i++)
    if (!r->ops[i]->dead) print_op(m, b, r->ops[i], depth);
}

asc_status asc_ir_print(const asc_ir_module *m, char **out) {
  ir_buf b = {0};
  ir_buf_printf(&b, "kernel @%s(", m->name);
  for (int i = 0; i < m->nparams; i++) {
    uint32_t v = m->params[i];
    ir_buf_printf(&b, "%s%%%u %s: ", i ? ", " : "", v, m->values[v].name);
    print_type(&b, m->values[v].type);
  }
  ir_buf_printf(&b, ") {\n");
  print_region(m, &b, m->body, 1);
  ir_buf_printf(&b, "}\n");
  return ir_buf_finish(&b, out);
}
