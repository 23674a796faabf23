/* The Ascend C forms of the sort, gather_mask, CMPMASK and scalar-bit rows
 * of api_table.def that a template cannot say (the table is in
 * emit_ascendc_forms.c). Array and out parameters live in an immediately
 * invoked lambda, as in the fixpipe form. */

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emit_ascendc.h"

/* A new line of a lambda body: one level deeper than the statement (in =
 * 1), or the statement's own level for the closing brace (in = 0). */
static void ac_nl(const ac_emitter *e, int in, ir_buf *b) {
  ir_buf_printf(b, "\n%*s", (e->depth + in) * 4, "");
}

static void ac_list(ac_emitter *e, const ir_op *op, int from, int to, ir_buf *b) {
  for (int i = from; i <= to; i++) {
    if (i > from) ir_buf_printf(b, ", ");
    ac_operand(e, op->operands[i], P_ANY, b);
  }
}

/* mrg_sort / mrg_sort4 (dst, src1..src4, len1..len4, valid_bit, repeat,
 * exhausted suspension) */
int ac_mrg_sort(ac_emitter *e, const ir_op *op, ir_buf *b) {
  bool four = op->code == IR_OP_MRG_SORT4;
  ir_buf_printf(b, "AscendC::%s(", four ? "MrgSort4" : "MrgSort");
  ac_operand(e, op->operands[0], P_ANY, b);
  ac_expand(e, op, ", AscendC::MrgSortSrcList<$t0>(", b);
  ac_list(e, op, 1, 4, b);
  ir_buf_printf(b, "), [&]() {");
  ac_nl(e, 1, b);
  ir_buf_printf(b, "uint16_t pyasc_len[4] = {");
  ac_list(e, op, 5, 8, b);
  ir_buf_printf(b, "};");
  ac_nl(e, 1, b);
  ir_buf_printf(b, "return AscendC::MrgSort4Info(pyasc_len, ");
  ac_list(e, op, 11, 11, b);
  ir_buf_printf(b, ", ");
  ac_list(e, op, 9, 10, b);
  ir_buf_printf(b, ");");
  ac_nl(e, 0, b);
  ir_buf_printf(b, "}())");
  return P_PRIMARY;
}

/* get_mrg_sort_result()[attribute 0] */
int ac_mrg_sort_result(ac_emitter *e, const ir_op *op, ir_buf *b) {
  ir_buf_printf(b, "[&]() {");
  ac_nl(e, 1, b);
  ir_buf_printf(b, "uint16_t pyasc_n[4];");
  ac_nl(e, 1, b);
  ir_buf_printf(b, "AscendC::GetMrgSortResult(pyasc_n[0], pyasc_n[1], pyasc_n[2], pyasc_n[3]);");
  ac_nl(e, 1, b);
  ir_buf_printf(b, "return (int64_t)pyasc_n[%d];", (int)(op->iattrs[0] & 3));
  ac_nl(e, 0, b);
  ir_buf_printf(b, "}()");
  return P_PRIMARY;
}

/* GetSortLen<T> / GetSortOffset<T>; attribute 0 is sizeof(T) */
int ac_sort_len(ac_emitter *e, const ir_op *op, ir_buf *b) {
  bool len = op->code == IR_OP_GET_SORT_LEN;
  ir_buf_printf(b, "(int64_t)AscendC::%s<%s>((uint32_t)", len ? "GetSortLen" : "GetSortOffset",
                op->iattrs[0] == 2 ? "half" : "float");
  ac_operand(e, op->operands[0], P_UNARY, b);
  ir_buf_printf(b, ")");
  return P_UNARY;
}

/* gather_mask (dst, src0, pattern tensor | built-in pattern, reduce_mode,
 * mask, src0_block_stride, repeat_times, src0_repeat_stride,
 * src1_repeat_stride) -> rsvdCnt */
int ac_gather_mask(ac_emitter *e, const ir_op *op, ir_buf *b) {
  bool tensor = ac_type_of(e, op->operands[2]).kind == ASC_IR_LOCAL;
  ir_buf_printf(b, "[&]() {");
  ac_nl(e, 1, b);
  ir_buf_printf(b, "uint64_t pyasc_rsvd = 0;");
  ac_nl(e, 1, b);
  ir_buf_printf(b, "AscendC::GatherMask(");
  ac_list(e, op, 0, 1, b);
  if (tensor)
    ac_expand(e, op,
              asc_dtype_size((asc_dtype)ac_type_of(e, op->operands[2]).dtype) == 2
                  ? ", $p2.ReinterpretCast<uint16_t>(), "
                  : ", $p2.ReinterpretCast<uint32_t>(), ",
              b);
  else
    ac_expand(e, op, ", (uint8_t)$u2, ", b);
  ac_expand(e, op, "$3, (uint32_t)$u4, AscendC::GatherMaskParams(", b);
  ac_list(e, op, 5, 8, b);
  ir_buf_printf(b, "), pyasc_rsvd);");
  ac_nl(e, 1, b);
  ir_buf_printf(b, "return (int64_t)pyasc_rsvd;");
  ac_nl(e, 0, b);
  ir_buf_printf(b, "}()");
  return P_PRIMARY;
}

/* compare's register form (src0, src1, m0, m1, 6 strides) [mask kind,
 * is_set_mask, cmp_mode]: a statement (a bit mask is an array). */
int ac_compare_reg(ac_emitter *e, const ir_op *op, ir_buf *b) {
  bool block = ac_open_mask(e, op, 2);
  ac_line_start(e);
  ac_print_api(e, op, "Compare", "$t0", 1, b);
  ir_buf_printf(b, "(");
  ac_list(e, op, 0, 1, b);
  ir_buf_printf(b, ", ");
  ac_print_enum(e, op, 'k', 2, b);
  ir_buf_printf(b, ", ");
  ac_print_mask(e, op, 2, "uint64_t", b);
  ir_buf_printf(b, ", AscendC::BinaryRepeatParams(");
  ac_list(e, op, 4, 9, b);
  ir_buf_printf(b, "));\n");
  ac_close_mask(e, block);
  return P_PRIMARY;
}

/* ScalarGetCountOfValue<v> / ScalarGetSFFValue<v> */
int ac_scalar_count(ac_emitter *e, const ir_op *op, ir_buf *b) {
  bool sff = op->code == IR_OP_SCALAR_GET_SFF_VALUE;
  ir_buf_printf(b, "AscendC::%s<%d>((uint64_t)",
                sff ? "ScalarGetSFFValue" : "ScalarGetCountOfValue", (int)op->iattrs[0]);
  ac_operand(e, op->operands[0], P_UNARY, b);
  ir_buf_printf(b, ")");
  return P_PRIMARY;
}

/* ScalarCast<float, half|int32_t, mode>((float)value) [dtype, round mode] */
int ac_scalar_cast(ac_emitter *e, const ir_op *op, ir_buf *b) {
  bool half = op->iattrs[0] == ASC_FLOAT16;
  ir_buf_printf(b, "(%s)AscendC::ScalarCast<float, %s, ", half ? "float" : "int64_t",
                half ? "half" : "int32_t");
  ac_print_enum(e, op, 'r', 1, b);
  ir_buf_printf(b, ">((float)");
  ac_operand(e, op->operands[0], P_UNARY, b);
  ir_buf_printf(b, ")");
  return P_UNARY;
}
