/* Ascend C forms of the DEQSCALE rows of api_table.def (rt/deq.h). */

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emit_ascendc.h"

/* CastDeq<T, U, isSetMask, isVecDeq, halfBlock>(dst, src, mask, repeatTime,
 * UnaryRepeatParams) [kind, is_set_mask, is_vec_deq, half_block] */
int ac_cast_deq_l0(ac_emitter *e, const ir_op *op, ir_buf *b) {
  bool block = ac_open_mask(e, op, 2);
  ac_line_start(e);
  ac_expand(e, op, "AscendC::CastDeq<$t0, $t1, $eb1, $eb2, $eb3>($0, $1, ", b);
  ac_print_mask(e, op, 2, "int32_t", b);
  ac_expand(e, op, ", $4, AscendC::UnaryRepeatParams($5, $6, $7, $8));\n", b);
  ac_close_mask(e, block);
  return P_PRIMARY;
}

/* SetDeqScale(vdeq, VdeqInfo(scales, offsets, sign modes)): the arrays in a
 * block around the call; operand 33 holds the sign modes as bits */
int ac_set_vdeq(ac_emitter *e, const ir_op *op, ir_buf *b) {
  static const char *const decl[] = {"float pyasc_vdeq_scale", "int16_t pyasc_vdeq_offset",
                                     "bool pyasc_vdeq_sign"};
  ac_line_start(e);
  ir_buf_printf(b, "{\n");
  e->depth++;
  for (int a = 0; a < 3; a++) {
    ac_line_start(e);
    ir_buf_printf(b, "%s[16] = {", decl[a]);
    for (int j = 0; j < 16; j++) {
      if (j) ir_buf_printf(b, ", ");
      if (a == 0) {
        ir_buf_printf(b, "(float)");
        ac_operand(e, op->operands[1 + j], P_UNARY, b);
      } else if (a == 1) {
        ir_buf_printf(b, "(int16_t)");
        ac_operand(e, op->operands[17 + j], P_UNARY, b);
      } else {
        ir_buf_printf(b, "((");
        ac_operand(e, op->operands[33], P_ANY, b);
        ir_buf_printf(b, ") >> %d & 1) != 0", j);
      }
    }
    ir_buf_printf(b, "};\n");
  }
  ac_line_start(e);
  ac_expand(e, op,
            "AscendC::SetDeqScale($0, AscendC::VdeqInfo(pyasc_vdeq_scale, "
            "pyasc_vdeq_offset, pyasc_vdeq_sign));\n",
            b);
  e->depth--;
  ac_line_start(e);
  ir_buf_printf(b, "}\n");
  return P_PRIMARY;
}
