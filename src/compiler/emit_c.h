/* The C emitter's shared state and functions, one stage per file:
 *   emit_c.c          the driver: constants, control flow, the checked
 *                     mode's checks, the kernel's file; the table of C
 *                     forms (api_table.def's c_emit and c_rt columns)
 *   emit_c_forms.c    the forms written per op (ce_named), scalar
 *                     arithmetic, vector calls, adv, fwk, system, layout
 *   emit_c_vector.c   the level-0 forms through the runtime's executors
 *   emit_c_cube.c     the cube unit and core groups
 *   emit_c_sort.c, emit_c_aipp.c, emit_c_img2col.c  those units' forms
 * A form writes op's statements and returns 0 (so that `return
 * ce_line(...)` ends a case); nothing here returns memory to free. */
#ifndef ASC_COMPILER_EMIT_C_H
#define ASC_COMPILER_EMIT_C_H

#include <stdbool.h>
#include <stdint.h>

#include "ir_internal.h"

typedef struct emitter {
  const asc_ir_module *m;
  ir_buf *b;
  int depth;
  bool checked;  /* checked mode: see rt/core.h and emit_checks() */
  uint32_t pipe; /* the kernel's TPipe object (its pipe.new result), 0 if none */
  bool cube;     /* the kernel has the AIC's buffers (ASC_K_CUBE) */
  bool profiled; /* the timing model's accounting (ASC_K_PROFILE, emit_c_perf.c) */
} emitter;

/* What decides how a launch runs its cores (rt/mix.h). */
typedef struct core_use {
  int64_t mode; /* core.mode's attribute: 0 open, 1 AIC only, 2 mixed, 3 AIV only */
  bool mix;     /* the core kind, the cross-core flags or a Matmul */
  bool flags;   /* the cross-core flags */
  bool mode0;   /* ... in mode 0: every core of a kind in the launch */
} core_use;

/* emit_c.c */
const char *ce_c_type(asc_ir_kind kind);
asc_ir_type ce_type_of(const emitter *e, uint32_t v);
int64_t ce_esize(const emitter *e, uint32_t v);
const char *ce_suffix(const emitter *e, uint32_t v);
int ce_line(emitter *e, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
int ce_checked(emitter *e, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
int ce_emit_arith(emitter *e, const ir_op *op, const char *name);
int ce_emit_printf(emitter *e, const ir_op *op);

/* emit_c_forms.c */
int ce_named(emitter *e, const ir_op *op, const char *rt);
int ce_arith(emitter *e, const ir_op *op, const char *rt);
int ce_vector(emitter *e, const ir_op *op, const char *rt);
int ce_call(emitter *e, const ir_op *op, const char *rt);
int ce_none(emitter *e, const ir_op *op, const char *rt);
int ce_event(emitter *e, const ir_op *op, const char *rt);
int ce_adv(emitter *e, const ir_op *op, const char *rt);
int ce_fwk(emitter *e, const ir_op *op, const char *rt);
int ce_sys(emitter *e, const ir_op *op, const char *rt);
int ce_layout(emitter *e, const ir_op *op, const char *rt);

/* emit_c_perf.c: the timing model's charge for op (profiled builds), and
 * the form of ops only the model reads: nothing in the kernel's own C */
int ce_pf_op(emitter *e, const ir_op *op);
int ce_profile_only(emitter *e, const ir_op *op, const char *rt);

/* emit_c_vector.c */
int ce_vrun(emitter *e, const ir_op *op, const char *rt);
int ce_rrun(emitter *e, const ir_op *op, const char *rt);
int ce_reduce(emitter *e, const ir_op *op, const char *rt);
int ce_emit_api_ext(emitter *e, const ir_op *op, const char *name);

/* emit_c_cube.c */
int ce_cube_buffer(int position);
int ce_cube_type(const emitter *e, uint32_t v);
bool ce_uses_op(const ir_region *r, const char *name);
bool ce_uses_cube(const ir_region *r);
void ce_scan_cores(const ir_region *r, core_use *u);
/* The cube op `code` (op's own, or the one whose form it shares). */
int ce_emit_cube_op(emitter *e, const ir_op *op, int code);
int ce_cube(emitter *e, const ir_op *op, const char *rt);

/* emit_c_sort.c */
int ce_sg(emitter *e, const ir_op *op, const char *rt);
int ce_sg2(emitter *e, const ir_op *op, const char *rt);

/* emit_c_aipp.c */
int ce_aipp(emitter *e, const ir_op *op, const char *rt);
int ce_slice_copy(emitter *e, const ir_op *op, const char *rt);

/* emit_c_img2col.c */
int ce_img2col(emitter *e, const ir_op *op, const char *rt);

#endif
