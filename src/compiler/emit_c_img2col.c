/* The C forms of the img2col loads and their registers (rt/img2col.h).
 * The load3d rows pass their
 * integer fields as one array (see the runtime's parameter lists). */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emit_c.h"

int ce_img2col(emitter *e, const ir_op *op, const char *rt) {
  const char *name = ir_op_defs[op->code].name;
  const uint32_t *o = op->operands;
  int L = (int)op->loc.line;
  if (op->code == IR_OP_CUBE_SET_L3D_BOUNDARY || op->code == IR_OP_CUBE_SET_L3D_PAD)
    return ce_checked(e, "%s(k, (%s)v%u, %d)", rt, name[12] == 'p' ? "double" : "int64_t", o[0], L);
  if (op->code == IR_OP_CUBE_SET_L3D_REPEAT)
    return ce_checked(e, "%s(k, v%u, v%u, v%u, %d)", rt, o[0], o[1], o[2], L);
  int t = ce_cube_type(e, o[0]), dt = ce_type_of(e, o[0]).dtype;
  if (op->code == IR_OP_CUBE_LOAD3D_V2PRO)
    return ce_checked(e, "%s(k, v%u, v%u, %d, %d, v%u, v%u, v%u, v%u, v%u, v%u, v%u, v%u, %d)", rt,
                      o[0], o[1], t, dt, o[2], o[3], o[4], o[5], o[6], o[7], o[8], o[9], L);
  if (!strncmp(name, "cube.load2d_v2", 14))
    return ce_checked(e, "%s_%s(k, v%u, v%u, %d, v%u, v%u, v%u, v%u, v%u, v%u, v%u, v%u, %d)", rt,
                      name[14] ? "gm" : "l1", o[0], o[1], t, o[2], o[3], o[4], o[5], o[6], o[7],
                      o[8], o[9], L);
  /* load3d_v2: fields o[2..19] and o[21..23], pad o[20]; load3d_v1: o[2..22], pad o[23] */
  bool v2 = op->code == IR_OP_CUBE_LOAD3D_V2;
  ce_line(e, "{");
  ir_buf_indent(e->b, e->depth);
  ir_buf_printf(e->b, "const int64_t a_[21] = {");
  for (int i = 0; i < 21; i++) {
    int at = v2 && i >= 18 ? i + 3 : i + 2;
    ir_buf_printf(e->b, "%s(int64_t)v%u", i ? ", " : "", o[at]);
  }
  ir_buf_printf(e->b, "};\n");
  ce_checked(e, "%s(k, v%u, v%u, %d, %d, a_, (double)v%u, %d)", rt, o[0], o[1], t, dt,
             o[v2 ? 20 : 23], L);
  return ce_line(e, "}");
}
