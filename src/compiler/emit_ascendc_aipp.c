/* Ascend C forms of the AIPP rows of api_table.def (rt/aipp.h) and of
 * data_copy with SliceInfo (rt/slice_copy.h): each struct is built member by
 * member in a block around the call. */

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emit_ascendc.h"

/* AippParams' members in the order of cube.aipp_set's scalar operands */
static const char *const AIPP_MEMBERS[] = {"paddingParams.paddingMode",
                                           "paddingParams.paddingValueCh0",
                                           "paddingParams.paddingValueCh1",
                                           "paddingParams.paddingValueCh2",
                                           "paddingParams.paddingValueCh3",
                                           "swapParams.isSwapRB",
                                           "swapParams.isSwapUV",
                                           "swapParams.isSwapAX",
                                           "singleLineParams.isSingleLineCopy",
                                           "dtcParams.dtcMeanCh0",
                                           "dtcParams.dtcMeanCh1",
                                           "dtcParams.dtcMeanCh2",
                                           "dtcParams.dtcMinCh0",
                                           "dtcParams.dtcMinCh1",
                                           "dtcParams.dtcMinCh2",
                                           "dtcParams.dtcVarCh0",
                                           "dtcParams.dtcVarCh1",
                                           "dtcParams.dtcVarCh2",
                                           "dtcParams.dtcRoundMode",
                                           "cPaddingParams.cPaddingMode",
                                           "cPaddingParams.cPaddingValue",
                                           "cscParams.isEnableCsc",
                                           "cscParams.cscMatrixR0C0",
                                           "cscParams.cscMatrixR0C1",
                                           "cscParams.cscMatrixR0C2",
                                           "cscParams.cscMatrixR1C0",
                                           "cscParams.cscMatrixR1C1",
                                           "cscParams.cscMatrixR1C2",
                                           "cscParams.cscMatrixR2C0",
                                           "cscParams.cscMatrixR2C1",
                                           "cscParams.cscMatrixR2C2",
                                           "cscParams.cscBiasIn0",
                                           "cscParams.cscBiasIn1",
                                           "cscParams.cscBiasIn2",
                                           "cscParams.cscBiasOut0",
                                           "cscParams.cscBiasOut1",
                                           "cscParams.cscBiasOut2"};
static const char *const AIPP_LOAD_MEMBERS[] = {"horizSize",    "vertSize",     "horizStartPos",
                                                "vertStartPos", "srcHorizSize", "topPadSize",
                                                "botPadSize",   "leftPadSize",  "rightPadSize"};

/* `name.member = value;` for operands from..from+count */
static void ac_members(ac_emitter *e, const ir_op *op, const char *name, const char *const *members,
                       int from, int count, ir_buf *b) {
  for (int i = 0; i < count && from + i < op->noperands; i++) {
    ac_line_start(e);
    ir_buf_printf(b, "%s.%s = ", name, members[i]);
    ac_operand(e, op->operands[from + i], P_ANY, b);
    ir_buf_printf(b, ";\n");
  }
}

/* SetAippFunctions(src0[, src1], format, AippParams<U>) [format, planes, dtype] */
int ac_aipp_set(ac_emitter *e, const ir_op *op, ir_buf *b) {
  int64_t f = op->iattrs[0];
  const char *format = f == 0   ? "YUV420SP_U8"
                       : f == 1 ? "XRGB8888_U8"
                       : f == 4 ? "RGB888_U8"
                                : "YUV400_U8";
  ac_line_start(e);
  ir_buf_printf(b, "{\n");
  e->depth++;
  ac_line_start(e);
  ir_buf_printf(b, "AscendC::AippParams<%s> pyasc_aipp;\n",
                op->iattrs[2] == ASC_INT8 ? "int8_t" : "half");
  ac_members(e, op, "pyasc_aipp", AIPP_MEMBERS, 2, 37, b);
  ac_line_start(e);
  ac_expand(
      e, op,
      op->iattrs[1] == 2 ? "AscendC::SetAippFunctions($0, $1, " : "AscendC::SetAippFunctions($0, ",
      b);
  ir_buf_printf(b, "AscendC::AippInputFormat::%s, pyasc_aipp);\n", format);
  e->depth--;
  ac_line_start(e);
  ir_buf_printf(b, "}\n");
  return P_PRIMARY;
}

/* LoadImageToLocal(dst, LoadImageToLocalParams) */
int ac_aipp_load(ac_emitter *e, const ir_op *op, ir_buf *b) {
  ac_line_start(e);
  ir_buf_printf(b, "{\n");
  e->depth++;
  ac_line_start(e);
  ir_buf_printf(b, "AscendC::LoadImageToLocalParams pyasc_load;\n");
  ac_members(e, op, "pyasc_load", AIPP_LOAD_MEMBERS, 1, 9, b);
  ac_line_start(e);
  ac_expand(e, op, "AscendC::LoadImageToLocal($0, pyasc_load);\n", b);
  e->depth--;
  ac_line_start(e);
  ir_buf_printf(b, "}\n");
  return P_PRIMARY;
}

/* DataCopy(dst, src, SliceInfo dst[], SliceInfo src[], dims) [dims] */
int ac_slice_copy(ac_emitter *e, const ir_op *op, ir_buf *b) {
  int dims = (int)op->iattrs[0];
  ac_line_start(e);
  ir_buf_printf(b, "{\n");
  e->depth++;
  for (int side = 0; side < 2; side++) {
    ac_line_start(e);
    ir_buf_printf(b, "AscendC::SliceInfo pyasc_%s_slices[%d] = {", side ? "src" : "dst", dims);
    for (int d = 0; d < dims; d++) {
      ir_buf_printf(b, "%sAscendC::SliceInfo(", d ? ", " : "");
      for (int f = 0; f < 5; f++) {
        if (f) ir_buf_printf(b, ", ");
        ac_operand(e, op->operands[2 + side * 5 * dims + 5 * d + f], P_ANY, b);
      }
      ir_buf_printf(b, ")");
    }
    ir_buf_printf(b, "};\n");
  }
  ac_line_start(e);
  ac_expand(e, op, "AscendC::DataCopy($0, $1, pyasc_dst_slices, pyasc_src_slices, ", b);
  ir_buf_printf(b, "%d);\n", dims);
  e->depth--;
  ac_line_start(e);
  ir_buf_printf(b, "}\n");
  return P_PRIMARY;
}
