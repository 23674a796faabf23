/* Ascend C forms of the img2col loads (rt/img2col.h): LoadData(dst, src, params) with
 * CANN's LoadData3DParamsV1<T> and LoadData3DParamsV2<T> constructors, which take the pad
 * list as an array: built in a lambda, each field cast to its parameter's type. */

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emit_ascendc.h"
static const char *const load3d_v2_fields[] = {
    "uint8_t",  "uint8_t",  "uint8_t",  "uint8_t", "uint16_t", "uint16_t", "uint16_t", "uint16_t",
    "uint16_t", "uint16_t", "uint16_t", "uint8_t", "uint8_t",  "uint8_t",  "uint8_t",  "uint8_t",
    "uint8_t",  "bool",     NULL,       "bool",    "bool",     "bool"};
static const char *const load3d_v1_fields[] = {
    "uint8_t", "uint8_t", "uint8_t", "uint8_t", "uint16_t", "uint16_t", "uint16_t", "uint8_t",
    "uint8_t", "int16_t", "int16_t", "uint8_t", "uint8_t",  "uint8_t",  "uint8_t",  "uint8_t",
    "uint8_t", "uint8_t", "uint8_t", "uint8_t", "uint8_t",  NULL};
int ac_load3d(ac_emitter *e, const ir_op *op, ir_buf *b) {
  bool v2 = op->code == IR_OP_CUBE_LOAD3D_V2;
  const char *const *fields = v2 ? load3d_v2_fields : load3d_v1_fields;
  const char *elem = ac_elem_type(ac_type_of(e, op->operands[0]).dtype);
  ac_expand(e, op, "AscendC::LoadData($0, $1, [&]() {\n    const uint8_t padList[4] = {", b);
  for (int i = 0; i < 4; i++) {
    ir_buf_printf(b, "%sstatic_cast<uint8_t>(", i ? ", " : "");
    ac_operand(e, op->operands[2 + i], P_ANY, b);
    ir_buf_printf(b, ")");
  }
  ir_buf_printf(b, "};\n    return AscendC::LoadData3DParams%s<%s>(padList", v2 ? "V2" : "V1",
                elem);
  for (int i = 4; i < 22; i++) {
    if (v2 && i == 18) ir_buf_printf(b, ", false"); /* enSmallK, which PyAsc does not set */
    ir_buf_printf(b, ", static_cast<%s>(", fields[i] ? fields[i] : elem);
    ac_operand(e, op->operands[2 + i], P_ANY, b);
    ir_buf_printf(b, ")");
  }
  ir_buf_printf(b, ");\n  }())");
  return P_PRIMARY;
}
