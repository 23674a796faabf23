/* The API table's public view: every row of api_table.def with the columns
 * a reader needs (the API names for `python -m pyasc api`, the coverage test
 * and docs/api-coverage.md), and the adv maths functions of adv_math.def in
 * id order. */
#include "ir_internal.h"

#define PIPE_NAME_IR_PIPE_NONE ""
#define PIPE_NAME_IR_PIPE_S "S"
#define PIPE_NAME_IR_PIPE_V "V"
#define PIPE_NAME_IR_PIPE_MTE1 "MTE1"
#define PIPE_NAME_IR_PIPE_MTE2 "MTE2"
#define PIPE_NAME_IR_PIPE_MTE3 "MTE3"
#define PIPE_NAME_IR_PIPE_M "M"     /* cube unit */
#define PIPE_NAME_IR_PIPE_FIX "FIX" /* cube unit */

static const asc_ir_api_row rows[] = {
#define API(id, op, api, operands, result, niattrs, pipe, check, c_emit, c_rt, text, ...) \
  {op, api, operands, PIPE_NAME_##pipe, c_rt, text, NULL, niattrs},
#define PYAPI(api, how) {NULL, api, "", "", NULL, NULL, how, 0},
#include "api_table.def"
#undef API
#undef PYAPI
};

int asc_ir_api_count(void) {
  return (int)(sizeof rows / sizeof rows[0]);
}

const asc_ir_api_row *asc_ir_api_at(int i) {
  return i >= 0 && i < asc_ir_api_count() ? &rows[i] : NULL;
}

static const char *const adv_math_names[] = {
#define ADV_MATH(name, NAME) #name,
#include "adv_math.def"
#undef ADV_MATH
};

int asc_ir_adv_math_count(void) {
  return (int)(sizeof adv_math_names / sizeof adv_math_names[0]);
}

const char *asc_ir_adv_math_name(int id) {
  return id >= 0 && id < asc_ir_adv_math_count() ? adv_math_names[id] : NULL;
}
