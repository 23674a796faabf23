/* The Ascend C emitter's shared state and functions, one stage per file:
 *   emit_ascendc.c          the driver: which values fold into their uses,
 *                           statements, the kernel's file
 *   emit_ascendc_expr.c     types, names, literals, expressions and the
 *                           forms of scalar arithmetic
 *   emit_ascendc_forms.c    the table of every op's Ascend C form (the ac_*
 *                           columns of api_table.def), mask forms, the cube
 *   emit_ascendc_sort.c, emit_ascendc_aipp.c, emit_ascendc_deq.c,
 *   emit_ascendc_img2col.c  the forms of those runtime units' rows
 *   emit_ascendc_struct.c   Struct parameters
 * Nothing here returns memory to free: names live in the emitter's values
 * until the driver releases them. */
#ifndef ASC_COMPILER_EMIT_ASCENDC_H
#define ASC_COMPILER_EMIT_ASCENDC_H

#include <stdbool.h>
#include <stdint.h>

#include "ir_internal.h"

/* The helpers a kernel may need, defined ahead of it (emit_ascendc.c). */
enum {
  H_FLOORDIV,
  H_MOD,
  H_FLOORDIVF,
  H_MODF,
  H_TRUEDIV,
  H_IPOW,
  H_POWI,
  H_SHL,
  H_SHR,
  H_COPY,
  H_COUNT
};

/* --- the emitter's state ---------------------------------------------------- */

/* An op in program order (pre-order through the regions). */
typedef struct ac_site {
  const ir_op *op;
  const ir_region *scope; /* the innermost loop region holding it, or the body */
  long pos;
  long end;      /* the last position inside its regions; pos when it has none */
  long cond_end; /* while: the last position of the condition region */
  const struct ac_op *map;
} ac_site;

typedef struct ac_value {
  long def; /* index of the defining site (the for of an induction value); -1 none */
  int nuses;
  long use_end;  /* every use, through folded users, happens before this position */
  bool foreign;  /* some use lies across a loop boundary from the definition */
  bool pinned;   /* a user needs it as a named value (an lvalue, or read twice) */
  bool folded;   /* written into its use rather than declared */
  uint32_t loop; /* var: the for's induction value it is fused with; 0 none */
  char *name;
} ac_value;

typedef struct ac_emitter {
  const asc_ir_module *m;
  ir_buf *out;
  int depth;
  ac_site *sites;
  long nsites, cap;
  ac_value *values;
  char *kernel_name;
  bool helpers[H_COUNT];
  asc_status st; /* the first failure */
} ac_emitter;

typedef struct ac_op ac_op;
/* Writes op's expression (or, with AC_STATEMENT, its whole statements);
 * returns the expression's C++ precedence. */
typedef int (*ac_special)(ac_emitter *e, const ir_op *op, ir_buf *b);

enum {
  AC_PURE = 1,           /* no side effects, reads no memory: may be written into its use */
  AC_INFIX = 2,          /* text is a binary operator */
  AC_OBJECT = 4,         /* text is the type of an object the op declares */
  AC_STATEMENT = 8,      /* special writes whole statements */
  AC_KEEP_OPERANDS = 16, /* operands that are computations stay named values */
};

/* C++ precedence levels (lower binds tighter), as far as the output uses them. */
enum { P_PRIMARY = 0, P_UNARY = 3, P_MUL = 5, P_ADD = 6, P_REL = 9, P_EQ = 10, P_ANY = 16 };

/* The argument layout of a vector API's mask form (an IR "<api>.l0" op:
 * the tensors, the scalar if any, mask words m0 m1, repeat_times, block
 * strides then repeat strides; attributes: mask kind 0 int / 1 list,
 * is_set_mask, mode). */
typedef struct ac_masked {
  int tensors;        /* leading LocalTensors */
  bool scalar;        /* a scalar follows, typed like the last tensor */
  char mode;          /* an enum of attribute 2 after them (see ac_print_enum), or 0 */
  int nstrides;       /* 6: BinaryRepeatParams, 4: UnaryRepeatParams */
  const char *targs;  /* template arguments ahead of isSetMask */
  const char *params; /* the repeat-parameter struct, if not by nstrides; "": plain strides */
} ac_masked;

struct ac_op {
  const char *ir;          /* the IR op (ir_ops.c) */
  const char *text;        /* an expression template (see ac_expand), an operator, or an API name */
  int prec;                /* text's precedence as an expression */
  unsigned flags;          /* AC_* */
  unsigned dtypes;         /* element dtypes operand 0 may have (bit per asc_dtype); 0: any */
  ac_special special;      /* for mappings a template cannot say */
  const ac_masked *masked; /* mask forms: their layout */
};

/* Struct parameters (emit_ascendc_struct.c). */
enum { AC_MAX_STRUCTS = 32, AC_MAX_MEMBERS = 64, AC_MAX_PARTS = 34, AC_NAME = 128 };

typedef struct {
  char name[AC_NAME];
  int pack, n;
  bool emitted;
  char fields[AC_MAX_MEMBERS][AC_NAME];
  int sub[AC_MAX_MEMBERS]; /* a struct's index, or -1 for a scalar */
  const char *ctype[AC_MAX_MEMBERS];
} ac_struct;

typedef struct {
  ac_struct structs[AC_MAX_STRUCTS];
  int nstructs;
  /* per parameter: the struct parameter it belongs to (-1 none); the root
   * struct's index, its GM pointer's and its local copy's names */
  int root_of[64];
  int root_struct[64];
  char addr_name[64][AC_NAME], local_name[64][AC_NAME];
} ac_structs;

/* emit_ascendc.c */
asc_status ac_fail(ac_emitter *e, const ir_op *op, asc_status st, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* emit_ascendc_expr.c */
asc_ir_type ac_type_of(const ac_emitter *e, uint32_t v);
const char *ac_elem_type(int dtype);
void ac_print_type(ir_buf *b, asc_ir_type t);
void ac_print_decl(ac_emitter *e, ir_buf *b, uint32_t v);
bool ac_is_identifier(const char *s);
bool ac_reserved_word(const char *s);
extern const char *const ac_helper_names[H_COUNT];
bool ac_helper_name(const char *s);
bool ac_reserved(const char *s);
bool ac_name_taken(const ac_emitter *e, const char *s);
void ac_give_name(ac_emitter *e, uint32_t v, const char *want);
const ir_op *ac_def_op(const ac_emitter *e, uint32_t v);
bool ac_is_const(const ac_emitter *e, uint32_t v);
void ac_operand(ac_emitter *e, uint32_t v, int prec, ir_buf *b);
void ac_print_enum(ac_emitter *e, const ir_op *op, char kind, int i, ir_buf *b);
void ac_expand(ac_emitter *e, const ir_op *op, const char *t, ir_buf *b);
void ac_infix(ac_emitter *e, const ir_op *op, const char *sym, int prec, ir_buf *b);
bool ac_known_step(const ac_emitter *e, uint32_t v);
int ac_floordiv(ac_emitter *e, const ir_op *op, ir_buf *b);
int ac_mod(ac_emitter *e, const ir_op *op, ir_buf *b);
int ac_truediv(ac_emitter *e, const ir_op *op, ir_buf *b);
int ac_pow(ac_emitter *e, const ir_op *op, ir_buf *b);
int ac_shift(ac_emitter *e, const ir_op *op, ir_buf *b);
int ac_minmax(ac_emitter *e, const ir_op *op, ir_buf *b);
int ac_select(ac_emitter *e, const ir_op *op, ir_buf *b);
int ac_copy(ac_emitter *e, const ir_op *op, ir_buf *b);
int ac_pipe_barrier(ac_emitter *e, const ir_op *op, ir_buf *b);
int ac_nothing(ac_emitter *e, const ir_op *op, ir_buf *b);
int ac_adv_exp(ac_emitter *e, const ir_op *op, ir_buf *b);
int ac_adv_tiled(ac_emitter *e, const ir_op *op, ir_buf *b);
void ac_line_start(ac_emitter *e);
int ac_trans_5hd(ac_emitter *e, const ir_op *op, ir_buf *b);
int ac_trans_5hd_addrs(ac_emitter *e, const ir_op *op, ir_buf *b);
int ac_global_new(ac_emitter *e, const ir_op *op, ir_buf *b);
int ac_printf(ac_emitter *e, const ir_op *op, ir_buf *b);

/* emit_ascendc_forms.c */
bool ac_open_mask(ac_emitter *e, const ir_op *op, int m0);
void ac_close_mask(ac_emitter *e, bool opened);
void ac_print_mask(ac_emitter *e, const ir_op *op, int m0, const char *type, ir_buf *b);
void ac_print_api(ac_emitter *e, const ir_op *op, const char *name, const char *targs,
                  int set_mask_attr, ir_buf *b);
int ac_expr_of(ac_emitter *e, const ir_op *op, ir_buf *b);
/* The Ascend C form of the op with that code (its row of the table), or
 * NULL when it has none. */
const ac_op *ac_find_mapping(int code);

/* emit_ascendc_sort.c */
int ac_mrg_sort(ac_emitter *e, const ir_op *op, ir_buf *b);
int ac_mrg_sort_result(ac_emitter *e, const ir_op *op, ir_buf *b);
int ac_sort_len(ac_emitter *e, const ir_op *op, ir_buf *b);
int ac_gather_mask(ac_emitter *e, const ir_op *op, ir_buf *b);
int ac_compare_reg(ac_emitter *e, const ir_op *op, ir_buf *b);
int ac_scalar_count(ac_emitter *e, const ir_op *op, ir_buf *b);
int ac_scalar_cast(ac_emitter *e, const ir_op *op, ir_buf *b);

/* emit_ascendc_aipp.c */
int ac_aipp_set(ac_emitter *e, const ir_op *op, ir_buf *b);
int ac_aipp_load(ac_emitter *e, const ir_op *op, ir_buf *b);
int ac_slice_copy(ac_emitter *e, const ir_op *op, ir_buf *b);

/* emit_ascendc_deq.c */
int ac_cast_deq_l0(ac_emitter *e, const ir_op *op, ir_buf *b);
int ac_set_vdeq(ac_emitter *e, const ir_op *op, ir_buf *b);

/* emit_ascendc_img2col.c */
int ac_load3d(ac_emitter *e, const ir_op *op, ir_buf *b);

/* emit_ascendc_struct.c */
void ac_collect_structs(ac_emitter *e, ac_structs *s);
void ac_emit_struct_def(ac_emitter *e, ir_buf *b, ac_structs *s, int i);
void ac_emit_struct_prologue(ac_emitter *e, ir_buf *b, const ac_structs *s);
void ac_emit_signature(ac_emitter *e, ir_buf *b, const ac_structs *s);

#endif
