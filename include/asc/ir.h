/* The kernel IR: typed values, structured control flow, one op per Ascend C
 * API. Front ends build it through the builder below; passes check and
 * simplify it; emitters turn it into C (for the simulated cores) or Ascend
 * C (for a real NPU).
 *
 * A module holds one kernel function. Values are numbered from 1; a value
 * is either an op result, a function parameter, a loop induction variable
 * or a variable slot (mutable, for Python names assigned more than once).
 * Ops live in regions; `for`, `while` and `if` own nested regions. */
#ifndef ASC_IR_H
#define ASC_IR_H

#include <stdbool.h>
#include <stdint.h>

#include "asc/dtype.h"
#include "asc/status.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum asc_ir_kind {
  ASC_IR_VOID,
  ASC_IR_BOOL,
  ASC_IR_INT,    /* 64-bit signed scalar */
  ASC_IR_FLOAT,  /* scalar; converted to an API's dtype where used */
  ASC_IR_ADDR,   /* GlobalAddress: a typed pointer into global memory */
  ASC_IR_GLOBAL, /* GlobalTensor */
  ASC_IR_LOCAL,  /* LocalTensor: a typed range of the Unified Buffer */
  ASC_IR_PIPE,   /* TPipe */
  ASC_IR_QUE,    /* TQue */
  ASC_IR_TBUF,   /* TBuf */
  ASC_IR_KIND_COUNT
} asc_ir_kind;

/* TPosition, with PyAsc's member names and values. */
typedef enum asc_ir_position {
  ASC_POS_GM = 0,
  ASC_POS_A1 = 1,
  ASC_POS_A2 = 2,
  ASC_POS_B1 = 3,
  ASC_POS_B2 = 4,
  ASC_POS_C1 = 5,
  ASC_POS_C2 = 6,
  ASC_POS_CO1 = 7,
  ASC_POS_CO2 = 8,
  ASC_POS_VECIN = 9,
  ASC_POS_VECOUT = 10,
  ASC_POS_VECCALC = 11,
  ASC_POS_COUNT
} asc_ir_position;

typedef struct asc_ir_type {
  uint8_t kind;     /* asc_ir_kind */
  uint8_t dtype;    /* element type of ADDR/GLOBAL/LOCAL */
  uint8_t position; /* LOCAL, QUE, TBUF */
  uint8_t depth;    /* QUE */
} asc_ir_type;

typedef struct asc_ir_module asc_ir_module;

/* Where an op came from, for error messages. `line` carries the source
 * file too: bits 20 and up index the module's file table (0: the kernel's
 * own file; see asc_ir_file_index), the low 20 bits are the line. */
typedef struct asc_ir_loc {
  uint32_t line;
  uint32_t col;
} asc_ir_loc;

#define ASC_IR_LINE(encoded) ((encoded)&0xfffffu)
#define ASC_IR_FILE(encoded) ((encoded) >> 20)
#define ASC_IR_MAX_FILES 4096

/* --- modules ------------------------------------------------------------ */
/* A new module for kernel `name` from `file`; free with asc_ir_free. */
asc_status asc_ir_new(const char *name, const char *file, asc_ir_module **out);
void asc_ir_free(asc_ir_module *m);
/* Adds a kernel parameter; returns its value. */
asc_status asc_ir_param(asc_ir_module *m, const char *name, asc_ir_type type, uint32_t *out);
asc_ir_type asc_ir_type_of(const asc_ir_module *m, uint32_t value);
/* Sets the location stamped on ops built next. */
void asc_ir_set_loc(asc_ir_module *m, asc_ir_loc loc);
/* The index of a source file in the module's file table (added if new):
 * device functions may live in other files than the kernel. */
asc_status asc_ir_file_index(asc_ir_module *m, const char *file, uint32_t *out);
/* Names a value after the Python name bound to it, so that emitted source
 * reads like the kernel; a value keeps its first name. No effect on
 * semantics or on asc_ir_print. */
asc_status asc_ir_set_name(asc_ir_module *m, uint32_t value, const char *name);
/* Marks a parameter as a member of a struct the launch flattened, for the
 * Ascend C emitter (which takes the struct whole, as PyAsc does). `path` is
 * "param/Type@pack/field[/Type@pack/field...]/scalar" (scalar: int32,
 * float32, ...); the emitter checks it. No effect on the C emitter. */
asc_status asc_ir_set_member(asc_ir_module *m, uint32_t param, const char *path);

/* --- building ------------------------------------------------------------ */
asc_status asc_ir_const_int(asc_ir_module *m, int64_t v, uint32_t *out);
asc_status asc_ir_const_float(asc_ir_module *m, double v, uint32_t *out);
asc_status asc_ir_const_bool(asc_ir_module *m, bool v, uint32_t *out);
/* A mutable slot of `type`: read with asc_ir_load, write with asc_ir_store. */
asc_status asc_ir_var(asc_ir_module *m, const char *name, asc_ir_type type, uint32_t *out);
asc_status asc_ir_load(asc_ir_module *m, uint32_t var, uint32_t *out);
asc_status asc_ir_store(asc_ir_module *m, uint32_t var, uint32_t value);

/* Any other op by its name in the op table (ir_ops.c): "add", "data_copy",
 * "arith.add", "global.set_global_buffer", ... operands are values, iattrs
 * op-specific integers (dtypes, positions, events), sattr a string (printf
 * format) or NULL. *out receives the result value, 0 for none. The op is
 * type-checked here: errors name the op and the offending operand. */
asc_status asc_ir_op(asc_ir_module *m, const char *name, int noperands, const uint32_t *operands,
                     int niattrs, const int64_t *iattrs, const char *sattr, uint32_t *out);

/* Structured control flow: begin/end pairs nest. `for` yields its
 * induction variable; `while` builds its condition between while_begin and
 * while_body; `if` may have an else part. */
asc_status asc_ir_for_begin(asc_ir_module *m, uint32_t start, uint32_t stop, uint32_t step,
                            uint32_t *induction);
asc_status asc_ir_for_end(asc_ir_module *m);
asc_status asc_ir_while_begin(asc_ir_module *m);
asc_status asc_ir_while_body(asc_ir_module *m, uint32_t condition);
asc_status asc_ir_while_end(asc_ir_module *m);
asc_status asc_ir_if_begin(asc_ir_module *m, uint32_t condition);
asc_status asc_ir_else(asc_ir_module *m);
asc_status asc_ir_if_end(asc_ir_module *m);
/* Closes the function; further building fails. */
asc_status asc_ir_finish(asc_ir_module *m);

/* --- checking, passes, output ---------------------------------------------- */
/* Structural and type verification of a finished module. */
asc_status asc_ir_verify(const asc_ir_module *m);
/* Folds integer/float/bool arithmetic on constants and forwards variables
 * stored exactly once from a constant. Returns the number of folded ops. */
asc_status asc_ir_fold(asc_ir_module *m, int *folded);
/* Unified Buffer budget: buffers that TPipe initialises and explicit
 * LocalTensor ranges must fit ub_size. Known sizes past default mode's
 * reach (asc_ub_reach in asc/hal.h) are refused now (an ASC_ERR_COMPILE
 * naming the source line); unknown ones, and known ones past ub_size but
 * within the reach (checked mode refuses them, default mode runs them), are
 * marked for a run-time check. */
asc_status asc_ir_check_ub(asc_ir_module *m, uint64_t ub_size);
/* The stable textual form (golden tests, dumps). Caller frees. */
asc_status asc_ir_print(const asc_ir_module *m, char **out);
/* C source for the simulated cores. Caller frees. */
asc_status asc_ir_emit_c(const asc_ir_module *m, char **out);
/* The same in checked mode (ASC_K_CHECKED): out-of-extent accesses,
 * misaligned GM<->UB copies, overlapping UB allocations and missing
 * synchronisation between pipes stop the kernel with a message. */
asc_status asc_ir_emit_c_checked(const asc_ir_module *m, char **out);
/* The same with the timing model's accounting (ASC_K_PROFILE,
 * docs/perf-model.md), checked or not. The caller frees *out. */
asc_status asc_ir_emit_c_profiled(const asc_ir_module *m, bool checked, char **out);
/* Static synchronisation check: reports (ASC_ERR_COMPILE, "line N: ...")
 * the first pipe hazard it can prove without running the kernel. */
asc_status asc_ir_check_sync(const asc_ir_module *m);
/* Automatic synchronisation (PyAsc's insert_sync): adds the set_flag /
 * wait_flag pairs (or, where no HardEvent links two pipes, pipe barriers)
 * that the static check finds missing, then checks the result. A kernel
 * the check passes is left unchanged. *inserted (may be NULL): the number
 * of set_flag, wait_flag and pipe_barrier ops added. */
asc_status asc_ir_insert_sync(asc_ir_module *m, int *inserted);
/* Ascend C (C++) source of the kernel for a real NPU, built with the CANN
 * toolkit: `extern "C" __global__ __aicore__ void NAME(GM_ADDR ..., ...)`.
 * ASC_ERR_UNSUPPORTED names an op that has no Ascend C form. Caller frees. */
asc_status asc_ir_emit_ascendc(const asc_ir_module *m, char **out);

/* One row of the API table (src/compiler/api_table.def). The strings have
 * static storage; nobody frees them. */
typedef struct asc_ir_api_row {
  const char *op;       /* the IR op; NULL for an API served without one */
  const char *api;      /* the documented name "group.name"; "" for internal ops */
  const char *operands; /* operand letters (see ir_ops.c); "" without an op */
  const char *pipe;     /* "S", "V", "MTE1", "MTE2", "MTE3" or "" */
  const char *c_rt;     /* the runtime function it calls; NULL for inline C */
  const char *ascendc;  /* the Ascend C template or name; NULL if written by code */
  const char *how;      /* rows without an op: how the API is served; else NULL */
  int niattrs;          /* integer attributes the op carries */
} asc_ir_api_row;
/* How many rows the API table has. */
int asc_ir_api_count(void);
/* Row i of the API table, or NULL when i is out of range. */
const asc_ir_api_row *asc_ir_api_at(int i);
/* How many element-wise maths functions the adv library has
 * (src/compiler/adv_math.def). */
int asc_ir_adv_math_count(void);
/* The name of adv maths function `id` ("acos"...), the id its kernel passes
 * to the runtime; NULL when id is out of range. Static: not to be freed. */
const char *asc_ir_adv_math_name(int id);

#ifdef __cplusplus
}
#endif
#endif
