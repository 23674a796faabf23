/* The IR's data structures, shared by the builder, the passes and the
 * emitters (one file each). */
#ifndef ASC_COMPILER_IR_INTERNAL_H
#define ASC_COMPILER_IR_INTERNAL_H

#include <stddef.h>

#include "asc/ir.h"

#define IR_MAX_DEPTH 64
#define IR_MAX_OPERANDS 40 /* trans_data_to_5hd: 16 + 16 tensors, 3 ints */
#define IR_MAX_IATTRS 8

/* The dtypes kernels may use: the AI core has no complex arithmetic, so the
 * host tensor library's complex dtypes stop here. */
static inline bool ir_kernel_dtype(int dtype) {
  return asc_dtype_valid((asc_dtype)dtype) && !asc_dtype_is_complex((asc_dtype)dtype);
}

/* Which hardware pipe an op runs on (Ascend's instruction queues). */
typedef enum ir_pipe {
  IR_PIPE_NONE, /* bookkeeping: no data moves */
  IR_PIPE_S,    /* scalar unit */
  IR_PIPE_V,    /* vector unit */
  IR_PIPE_MTE2, /* GM -> UB */
  IR_PIPE_MTE3, /* UB -> GM */
  IR_PIPE_MTE1, /* UB -> UB (local copies); L1 -> L0A/L0B (cube) */
  IR_PIPE_M,    /* cube unit: mmad */
  IR_PIPE_FIX,  /* cube unit: L0C -> GM/UB (fixpipe) */
} ir_pipe;

/* How an op's result type follows from its operands and attributes. */
typedef enum ir_result_rule {
  R_NONE,
  R_INT,
  R_BOOL,
  R_FLOAT,
  R_ARITH,      /* INT if both operands are INT/BOOL, else FLOAT */
  R_SAME0,      /* operand 0's type */
  R_GLOBAL,     /* GLOBAL of operand 0's (ADDR) dtype */
  R_LOCAL_A0,   /* LOCAL of dtype iattr0, position iattr1 */
  R_LOCAL_QUE,  /* LOCAL of dtype iattr0 at operand 0's (QUE/TBUF) position */
  R_LOCAL_CAST, /* LOCAL like operand 0 with dtype iattr0 */
  R_PIPE,
  R_QUE,         /* QUE at position iattr0 with depth iattr1 */
  R_TBUF,        /* TBUF at position iattr0 */
  R_SCALAR_ELEM, /* INT or FLOAT by operand 0's element dtype */
  R_ADDR,        /* ADDR of operand 0's (GLOBAL) dtype */
  R_ADDR_U8,     /* a GlobalAddress of uint8 (system registers) */
  R_ADDR_A0,     /* a GlobalAddress of dtype iattr0 (tensor lists) */
  R_GLOBAL_A0,   /* a GlobalTensor of dtype iattr0 */
} ir_result_rule;

struct ir_op;

typedef struct ir_op_def {
  const char *name;
  const char *operands; /* one letter per operand, see ir_ops.c */
  ir_result_rule result;
  int niattrs;
  ir_pipe pipe;
  /* Extra checks beyond operand kinds (dtype agreement, positions). */
  asc_status (*check)(const asc_ir_module *m, const struct ir_op *op);
} ir_op_def;

/* Codes of the ops the builder makes itself; the table continues after. */
enum {
  IR_CONST_INT,
  IR_CONST_FLOAT,
  IR_CONST_BOOL,
  IR_VAR,
  IR_LOAD,
  IR_STORE,
  IR_FOR,
  IR_WHILE,
  IR_IF,
  IR_FIRST_TABLE_OP
};

/* The codes of the table's ops, IR_OP_<id> for row API(id, ...) of
 * api_table.def, so that code can ask which op it has without comparing
 * names. */
enum {
  IR_OP_BEFORE_TABLE_ = IR_FIRST_TABLE_OP - 1,
#define API(id, ...) IR_OP_##id,
#define PYAPI(api, how)
#include "api_table.def"
#undef API
#undef PYAPI
  IR_OP_END_
};

typedef struct ir_region {
  struct ir_op **ops;
  int n, cap;
} ir_region;

typedef struct ir_op {
  int code; /* index into ir_op_defs */
  uint32_t result;
  uint32_t operands[IR_MAX_OPERANDS];
  int noperands;
  int64_t iattrs[IR_MAX_IATTRS];
  int niattrs;
  char *sattr;
  int64_t ival; /* constants */
  double fval;
  asc_ir_loc loc;
  ir_region *regions[2]; /* for: body; while: cond, body; if: then, else */
  int nregions;
  bool dead;     /* removed by a pass */
  bool check_ub; /* UB range needs a run-time check */
} ir_op;

typedef struct ir_value {
  asc_ir_type type;
  char *name;   /* parameters, variables, and values named by asc_ir_set_name */
  char *member; /* parameters flattened from a struct: asc_ir_set_member */
  ir_op *def;   /* NULL for parameters and induction variables */
} ir_value;

struct asc_ir_module {
  char *name;
  char *file;   /* the kernel's file: files[0] */
  char **files; /* source files named by locations (asc_ir_file_index) */
  uint32_t nfiles;
  ir_value *values; /* [0] unused */
  uint32_t nvalues, cap_values;
  uint32_t params[64];
  int nparams;
  ir_region *body;
  ir_region *stack[IR_MAX_DEPTH]; /* regions being built */
  ir_op *owners[IR_MAX_DEPTH];    /* the op owning each stacked region */
  int depth;
  asc_ir_loc loc;
  bool finished;
  bool verified; /* asc_ir_verify passed: the passes and emitters need it */
};

extern const ir_op_def ir_op_defs[];

/* adv.softmax and adv.rmsnorm carry their tiling struct as its fields after the tensors (4 and
 * 3 of them), in Ascend C's member order: SoftMaxTiling's 16, RmsNormTiling's 12; then the
 * host's tmp minimum and the shared tmp buffer when given. */
enum { IR_SOFTMAX_FIELDS = 16, IR_RMSNORM_FIELDS = 12 };
extern const int ir_op_count;
int ir_find_op(const char *name);
/* The file a location's encoded line names (the kernel's file for 0). */
const char *ir_file_name(const asc_ir_module *m, uint32_t encoded_line);
const char *ir_kind_name(asc_ir_kind kind);
const char *ir_position_name(int position);
/* Whether the passes and emitters may walk m: finished and verified (verified
 * now if it was not yet). Misordered builder calls get an error, not a walk
 * over half-built regions. */
asc_status ir_ready(const asc_ir_module *m, const char *what);
/* A new value of type t defined by def (for passes that add ops to a
 * finished function; the module owns it). */
asc_status ir_new_value(asc_ir_module *m, asc_ir_type t, ir_op *def, uint32_t *out);
/* Checks operands against the op's signature and computes its result type. */
asc_status ir_check_op(const asc_ir_module *m, const ir_op *op, asc_ir_type *result);

/* A growable string for the printer and emitters. */
typedef struct ir_buf {
  char *data;
  size_t len, cap;
  bool failed;
} ir_buf;
void ir_buf_printf(ir_buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void ir_buf_indent(ir_buf *b, int depth);
/* The only way user text (format strings, file names) enters generated C or
 * C++: a string literal of s's n bytes in which every byte that is not a
 * letter or digit is a three-digit octal escape. Quotes, backslashes, line
 * ends and trigraphs (`??/` is a backslash under -std=c11) cannot survive,
 * and an escape never runs into a following digit. */
void ir_buf_c_string(ir_buf *b, const char *s, size_t n);
/* At most max bytes of s with every byte outside [A-Za-z0-9_] and the
 * (harmless, punctuation) bytes of extra made '_' ("kernel" for an empty s):
 * for names in comments and file names. */
void ir_buf_safe_name(ir_buf *b, const char *s, size_t max, const char *extra);
/* Hands the text to the caller (who frees it) or fails on OOM. */
asc_status ir_buf_finish(ir_buf *b, char **out);

#endif
