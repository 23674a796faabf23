/* IR -> C for the simulated AI cores. The output is one self-contained
 * translation unit: the kernel runtime header followed by the kernel as
 * `int asc_kernel_entry(asc_k_ctx *k, const asc_k_arg *args)`, returning 0
 * or 1 with k->msg set. Every API call's failure returns at once. */
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ir_internal.h"

extern const char asc_kernel_rt_source[]; /* asc_kernel_rt.h, embedded at build time */

typedef struct emitter {
  const asc_ir_module *m;
  ir_buf *b;
  int depth;
  bool checked;  /* checked mode: see rt/core.h and emit_checks() */
  uint32_t pipe; /* the kernel's TPipe object (its pipe.new result), 0 if none */
  bool cube;     /* the kernel has the AIC's buffers (ASC_K_CUBE) */
} emitter;

static const char *c_type(asc_ir_kind kind) {
  switch (kind) {
    case ASC_IR_BOOL:
      return "int";
    case ASC_IR_INT:
      return "int64_t";
    case ASC_IR_FLOAT:
      return "double";
    case ASC_IR_ADDR:
      return "asc_k_addr";
    case ASC_IR_GLOBAL:
      return "asc_k_gt";
    case ASC_IR_LOCAL:
      return "asc_k_lt";
    case ASC_IR_PIPE:
      return "asc_k_pipe *";
    case ASC_IR_QUE:
      return "asc_k_que *";
    case ASC_IR_TBUF:
      return "asc_k_tbuf *";
    default:
      return "void";
  }
}

/* A C string literal with s's bytes (see ir_buf_c_string). */
static void print_c_string(ir_buf *b, const char *s) {
  ir_buf_c_string(b, s, strlen(s));
}

/* A double literal that reads back exactly: hex floats for finite values
 * (%.17g of an overflowing or subnormal value need not), and the
 * <math.h> macros for infinities and NaN, which have no literal. */
static void print_double(ir_buf *b, double d) {
  if (isnan(d))
    ir_buf_printf(b, "%sNAN", signbit(d) ? "-" : "");
  else if (isinf(d))
    ir_buf_printf(b, "%sINFINITY", d < 0 ? "-" : "");
  else
    ir_buf_printf(b, "%a", d);
}

static asc_ir_type type_of(const emitter *e, uint32_t v) {
  return e->m->values[v].type;
}
static int64_t esize(const emitter *e, uint32_t v) {
  return (int64_t)asc_dtype_size((asc_dtype)type_of(e, v).dtype);
}
static const char *suffix(const emitter *e, uint32_t v) {
  return asc_dtype_name((asc_dtype)type_of(e, v).dtype);
}

/* Emitters return 0 so that `return line(...)` ends a case. */
static int line(emitter *e, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int line(emitter *e, const char *fmt, ...) {
  ir_buf_indent(e->b, e->depth);
  va_list ap;
  va_start(ap, fmt);
  char text[1024];
  vsnprintf(text, sizeof text, fmt, ap);
  va_end(ap);
  ir_buf_printf(e->b, "%s\n", text);
  return 0;
}

/* `if (call) return 1;` for runtime calls that can fail. */
static int CHECKED(emitter *e, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int CHECKED(emitter *e, const char *fmt, ...) {
  char call[768];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(call, sizeof call, fmt, ap);
  va_end(ap);
  return line(e, "if (%s) return 1;", call);
}

static int emit_region(emitter *e, const ir_region *r);

static int emit_arith(emitter *e, const ir_op *op, const char *name) {
  uint32_t r = op->result, a = op->operands[0], b = op->noperands > 1 ? op->operands[1] : 0;
  int L = (int)op->loc.line;
  bool is_float = type_of(e, r).kind == ASC_IR_FLOAT;
  const char *t = c_type(type_of(e, r).kind);
  if (!strcmp(name, "arith.add") || !strcmp(name, "arith.sub") || !strcmp(name, "arith.mul")) {
    char sym = name[6] == 'a' ? '+' : name[6] == 's' ? '-' : '*';
    if (is_float)
      line(e, "double v%u = (double)v%u %c (double)v%u;", r, a, sym, b);
    else
      line(e, "int64_t v%u = (int64_t)((uint64_t)v%u %c (uint64_t)v%u);", r, a, sym, b);
  } else if (!strcmp(name, "arith.floordiv")) {
    if (is_float) {
      line(e, "if ((double)v%u == 0.0) return asc_k_fail(k, %d, \"float floor division by zero\");",
           b, L);
      line(e, "double v%u = floor((double)v%u / (double)v%u);", r, a, b);
    } else {
      line(e, "int64_t v%u;", r);
      CHECKED(e, "asc_k_floordiv(k, v%u, v%u, &v%u, %d)", a, b, r, L);
    }
  } else if (!strcmp(name, "arith.mod")) {
    if (is_float) {
      line(e, "if ((double)v%u == 0.0) return asc_k_fail(k, %d, \"float modulo by zero\");", b, L);
      line(e, "double v%u = asc_k_fmod((double)v%u, (double)v%u);", r, a, b);
    } else {
      line(e, "int64_t v%u;", r);
      CHECKED(e, "asc_k_mod(k, v%u, v%u, &v%u, %d)", a, b, r, L);
    }
  } else if (!strcmp(name, "arith.truediv")) {
    line(e, "if ((double)v%u == 0.0) return asc_k_fail(k, %d, \"division by zero\");", b, L);
    line(e, "double v%u = (double)v%u / (double)v%u;", r, a, b);
  } else if (!strcmp(name, "arith.pow")) {
    if (is_float) {
      line(e, "double v%u = pow((double)v%u, (double)v%u);", r, a, b);
    } else {
      line(e,
           "if (v%u < 0) return asc_k_fail(k, %d, \"negative integer exponent: write 1.0 / x ** "
           "n\");",
           b, L);
      line(e, "int64_t v%u = asc_k_ipow(v%u, v%u);", r, a, b);
    }
  } else if (!strcmp(name, "arith.neg")) {
    if (is_float)
      line(e, "double v%u = -(double)v%u;", r, a);
    else
      line(e, "int64_t v%u = (int64_t)(0 - (uint64_t)v%u);", r, a);
  } else if (!strcmp(name, "arith.min") || !strcmp(name, "arith.max")) {
    char cmp = name[7] == 'i' ? '<' : '>';
    line(e, "%s v%u = (v%u %c= v%u) ? (%s)v%u : (%s)v%u;", t, r, a, cmp, b, t, a, t, b);
  } else if (!strncmp(name, "arith.", 6) && strlen(name) == 8 &&
             strchr("elgn", name[6])) { /* eq ne lt le gt ge */
    const char *ops[][2] = {{"eq", "=="}, {"ne", "!="}, {"lt", "<"},
                            {"le", "<="}, {"gt", ">"},  {"ge", ">="}};
    for (int i = 0; i < 6; i++)
      if (!strcmp(name + 6, ops[i][0])) line(e, "int v%u = v%u %s v%u;", r, a, ops[i][1], b);
  } else if (!strcmp(name, "arith.and")) {
    line(e, "int v%u = v%u && v%u;", r, a, b);
  } else if (!strcmp(name, "arith.or")) {
    line(e, "int v%u = v%u || v%u;", r, a, b);
  } else if (!strcmp(name, "arith.not")) {
    line(e, "int v%u = !v%u;", r, a);
  } else if (!strcmp(name, "arith.bitand") || !strcmp(name, "arith.bitor") ||
             !strcmp(name, "arith.bitxor")) {
    char sym = name[9] == 'n' ? '&' : name[9] == 'r' ? '|' : '^';
    line(e, "int64_t v%u = v%u %c v%u;", r, a, sym, b);
  } else if (!strcmp(name, "arith.shl")) {
    line(e, "int64_t v%u = (v%u < 0 || v%u > 63) ? 0 : (int64_t)((uint64_t)v%u << v%u);", r, b, b,
         a, b);
  } else if (!strcmp(name, "arith.shr")) {
    line(e, "int64_t v%u = (v%u < 0 || v%u > 63) ? (v%u < 0 ? -1 : 0) : v%u >> v%u;", r, b, b, a, a,
         b);
  } else if (!strcmp(name, "arith.select")) {
    line(e, "%s v%u = v%u ? (%s)v%u : (%s)v%u;", t, r, a, t, b, t, op->operands[2]);
  } else if (!strcmp(name, "arith.to_int")) { /* saturating (rt/core.h) */
    line(e, "int64_t v%u = %s(v%u);", r,
         type_of(e, a).kind == ASC_IR_FLOAT ? "asc_k_f2i" : "(int64_t)", a);
  } else if (!strcmp(name, "arith.to_float")) {
    line(e, "double v%u = (double)v%u;", r, a);
  }
  return 0;
}

/* printf with Python-typed arguments: ints print as long long, floats as
 * double, whatever conversion the format names. */
static int emit_printf(emitter *e, const ir_op *op) {
  ir_buf fmt = {0};
  int arg = 0;
  for (const char *c = op->sattr ? op->sattr : ""; *c; c++) {
    if (*c != '%')
      ir_buf_printf(&fmt, "%c", *c);
    else if (c[1] == '%')
      ir_buf_printf(&fmt, "%%%%"), c++;
    else {
      const char *spec = c + 1;
      while (*spec && strchr("-+ #0123456789.", *spec)) spec++;
      while (*spec && strchr("hlLqjzt", *spec)) spec++;
      char conv = *spec;
      if (!conv) break;
      /* flags and width as written, length modifiers replaced */
      const char *flags_end = c + 1;
      while (*flags_end && strchr("-+ #0123456789.", *flags_end)) flags_end++;
      ir_buf_printf(&fmt, "%%%.*s", (int)(flags_end - c - 1), c + 1);
      bool is_float = arg < op->noperands && type_of(e, op->operands[arg]).kind == ASC_IR_FLOAT;
      if (strchr("diuxXoc", conv))
        ir_buf_printf(&fmt, is_float ? "g" : "ll%c", conv);
      else
        ir_buf_printf(&fmt, is_float ? "%c" : "lld", conv);
      arg++;
      c = spec;
    }
  }
  if (fmt.failed) {
    free(fmt.data);
    e->b->failed = true;
    return 0;
  }
  ir_buf_indent(e->b, e->depth);
  ir_buf_printf(e->b, "printf(");
  ir_buf_c_string(e->b, fmt.data ? fmt.data : "", fmt.len);
  for (int i = 0; i < op->noperands; i++) {
    bool is_float = type_of(e, op->operands[i]).kind == ASC_IR_FLOAT;
    ir_buf_printf(e->b, ", (%s)v%u", is_float ? "double" : "long long", op->operands[i]);
  }
  ir_buf_printf(e->b, ");\n");
  line(e, "fflush(stdout);");
  free(fmt.data);
  return 0;
}

/* --- API coverage --------------------------------------------------------------------
 * The level-0 (mask/repeat) forms and the APIs added with them run through
 * the runtime's element-wise executor (asc_k_vrun) and reduction executors
 * (asc_k_reduce, asc_k_rrun); see "API coverage" in rt/vector.h. */

static int emit_vrun(emitter *e, const ir_op *op, const char *base, bool l0) {
  const uint32_t *o = op->operands;
  int nlocal = 0;
  while (nlocal < op->noperands && type_of(e, o[nlocal]).kind == ASC_IR_LOCAL) nlocal++;
  /* a scalar operand follows the tensors where the op's signature says so */
  bool sel = !strncmp(base, "select", 6), scalar = ir_op_defs[op->code].operands[nlocal] == 'N';
  uint32_t tensors[3];
  int nt = 0;
  for (int i = 0; i < nlocal && nt < 3; i++)
    if (!(sel && i == 1)) tensors[nt++] = o[i];
  int i = nlocal;
  line(e, "{");
  e->depth++;
  line(e, "asc_k_vargs A;");
  line(e, "memset(&A, 0, sizeof A);");
  line(e, "A.op = ASC_K_VOP_%s; A.nsrc = %d; A.api = \"%s\";", base, nt - 1, base);
  if (scalar) line(e, "A.scalar = (double)v%u;", o[i++]);
  if (sel) line(e, "A.sel = v%u; A.sel_dt = %d;", o[1], type_of(e, o[1]).dtype);
  int nstr = l0 ? op->noperands - (i + 3) : 0, half = nstr / 2;
  /* count forms are contiguous: a repeat spans 256 bytes of the widest operand */
  int64_t widest = 1;
  for (int j = strncmp(base, "compare", 7) ? 0 : 1; j < nt; j++)
    if (esize(e, tensors[j]) > widest) widest = esize(e, tensors[j]);
  for (int j = 0; j < nt; j++) {
    char blk[32] = "1", rep[32];
    snprintf(rep, sizeof rep, "%lld", (long long)(8 * esize(e, tensors[j]) / widest));
    if (l0 && j < half) {
      snprintf(blk, sizeof blk, "v%u", o[i + 3 + j]);
      snprintf(rep, sizeof rep, "v%u", o[i + 3 + half + j]);
    }
    line(e, "A.dt[%d] = %d; A.t[%d] = v%u; A.blk[%d] = %s; A.rep[%d] = %s;", j,
         type_of(e, tensors[j]).dtype, j, tensors[j], j, blk, j, rep);
  }
  if (l0) {
    line(e, "A.kind = %d; A.set_mask = %d; A.mode = %d;", (int)op->iattrs[0], (int)op->iattrs[1],
         (int)op->iattrs[2]);
    line(e, "A.m0 = v%u; A.m1 = v%u; A.repeat = v%u;", o[i], o[i + 1], o[i + 2]);
  } else {
    line(e, "A.kind = 2; A.set_mask = 1; A.mode = %d;", op->niattrs ? (int)op->iattrs[0] : 0);
    line(e, "A.m0 = v%u;", o[i]);
  }
  CHECKED(e, "asc_k_vrun(k, &A, %d)", (int)op->loc.line);
  e->depth--;
  return line(e, "}");
}

static int reduce_what(const char *name) {
  const char *s = name + strcspn(name, ".") - 3;
  return !strncmp(s, "sum", 3) ? 0 : !strncmp(s, "max", 3) ? 1 : 2;
}

static int emit_rrun(emitter *e, const ir_op *op, const char *base) {
  const uint32_t *o = op->operands;
  line(e, "{");
  e->depth++;
  line(e, "asc_k_rargs R;");
  line(e, "memset(&R, 0, sizeof R);");
  line(e, "R.what = %d; R.shape = %d; R.dt = %d; R.order = %d; R.api = \"%s\";", reduce_what(base),
       base[0] == 'w'   ? 0
       : base[0] == 'b' ? 1
                        : 2,
       type_of(e, o[0]).dtype, (int)op->iattrs[2], base);
  line(e, "R.dst = v%u; R.src = v%u; R.kind = %d; R.set_mask = %d;", o[0], o[1], (int)op->iattrs[0],
       (int)op->iattrs[1]);
  line(e, "R.m0 = v%u; R.m1 = v%u; R.repeat = v%u;", o[2], o[3], o[4]);
  line(e, "R.dst_rep = v%u; R.src_blk = v%u; R.src_rep = v%u;", o[5], o[6], o[7]);
  CHECKED(e, "asc_k_rrun(k, &R, %d)", (int)op->loc.line);
  e->depth--;
  return line(e, "}");
}

/* The API's name without the form's suffix (".l0", ".params"). */
static void base_name(const ir_op *op, char *base, size_t size, bool *l0) {
  const char *name = ir_op_defs[op->code].name;
  size_t n = strcspn(name, ".");
  *l0 = !strcmp(name + n, ".l0");
  snprintf(base, size, "%.*s", (int)n, name);
}

/* The forms of api_table.def's c_emit column; rt is the row's c_rt. */
static int ce_vrun(emitter *e, const ir_op *op, const char *rt) {
  (void)rt; /* asc_k_vrun */
  char base[40];
  bool l0;
  base_name(op, base, sizeof base, &l0);
  return emit_vrun(e, op, base, l0);
}

static int ce_rrun(emitter *e, const ir_op *op, const char *rt) {
  (void)rt; /* asc_k_rrun */
  char base[40];
  bool l0;
  base_name(op, base, sizeof base, &l0);
  return emit_rrun(e, op, base);
}

static int ce_reduce(emitter *e, const ir_op *op, const char *rt) {
  const uint32_t *o = op->operands;
  int L = (int)op->loc.line;
  char base[40];
  bool l0;
  base_name(op, base, sizeof base, &l0);
  int what = reduce_what(base), dt = type_of(e, o[0]).dtype;
  if (l0)
    return CHECKED(e, "%s(k, %d, %d, v%u, v%u, %d, v%u, v%u, v%u, v%u, %d, \"%s\", %d)", rt, what,
                   dt, o[0], o[1], (int)op->iattrs[0], o[3], o[4], o[5], o[6], (int)op->iattrs[1],
                   base, L);
  return CHECKED(e, "%s(k, %d, %d, v%u, v%u, 2, v%u, 0, 0, 8, %d, \"%s\", %d)", rt, what, dt, o[0],
                 o[1], o[3], (int)op->iattrs[0], base, L);
}

/* 1 if the op is one of this section's, emitted. */
static int emit_api_ext(emitter *e, const ir_op *op, const char *name) {
  const uint32_t *o = op->operands;
  int L = (int)op->loc.line;
  if (!strcmp(name, "set_mask_count") || !strcmp(name, "set_mask_norm"))
    return line(e, "asc_k_set_mask_mode(k, %d);", name[9] == 'c'), 1;
  if (!strcmp(name, "reset_mask")) return line(e, "asc_k_reset_mask(k);"), 1;
  if (!strcmp(name, "set_vector_mask"))
    return CHECKED(e, "asc_k_set_vector_mask(k, %d, %d, %d, v%u, v%u, %d)", (int)op->iattrs[2],
                   (int)op->iattrs[0], (int)op->iattrs[1], o[0], o[1], L),
           1;
  if (!strcmp(name, "data_copy.params")) {
    bool dl = type_of(e, o[0]).kind == ASC_IR_LOCAL, sl = type_of(e, o[1]).kind == ASC_IR_LOCAL;
    char ld[32] = "(asc_k_lt){0, 0}", ls[32] = "(asc_k_lt){0, 0}", g[32] = "(asc_k_gt){0}";
    if (dl)
      snprintf(ld, sizeof ld, "v%u", o[0]);
    else
      snprintf(g, sizeof g, "v%u", o[0]);
    if (sl)
      snprintf(ls, sizeof ls, "v%u", o[1]);
    else
      snprintf(g, sizeof g, "v%u", o[1]);
    CHECKED(e, "asc_k_copy_params(k, %d, %s, %s, %s, v%u, v%u, v%u, v%u, %lld, %d)",
            dl && sl ? 2
            : dl     ? 0
                     : 1,
            ld, ls, g, o[2], o[3], o[4], o[5], (long long)esize(e, o[0]), L);
    return 1;
  }
  if (!strcmp(name, "data_copy_pad")) {
    int dt = type_of(e, o[0]).dtype;
    if (type_of(e, o[0]).kind == ASC_IR_GLOBAL)
      CHECKED(e, "asc_k_copy_pad_ub_gm(k, %d, v%u, v%u, v%u, v%u, v%u, v%u, %d)", dt, o[0], o[1],
              o[2], o[3], o[4], o[5], L);
    else if (op->noperands > 6)
      CHECKED(e,
              "asc_k_copy_pad_gm_ub(k, %d, v%u, v%u, v%u, v%u, v%u, v%u, (int)v%u, v%u, v%u, "
              "(double)v%u, %d)",
              dt, o[0], o[1], o[2], o[3], o[4], o[5], o[6], o[7], o[8], o[9], L);
    else
      CHECKED(e, "asc_k_copy_pad_gm_ub(k, %d, v%u, v%u, v%u, v%u, v%u, v%u, 0, 0, 0, 0.0, %d)", dt,
              o[0], o[1], o[2], o[3], o[4], o[5], L);
    return 1;
  }
  if (!strcmp(name, "dump_tensor")) {
    asc_ir_type t = type_of(e, o[0]);
    if (t.kind == ASC_IR_GLOBAL)
      CHECKED(e, "asc_k_dump_global(k, %d, v%u, v%u, v%u, \"%s\", %d)", t.dtype, o[0], o[1], o[2],
              suffix(e, o[0]), L);
    else
      CHECKED(e, "asc_k_dump_local(k, %d, v%u, v%u, v%u, \"LocalTensor@%s\", \"%s\", %d)", t.dtype,
              o[0], o[1], o[2], ir_position_name(t.position), suffix(e, o[0]), L);
    return 1;
  }
  if (!strcmp(name, "trap")) return CHECKED(e, "asc_k_trap(k, %d)", L), 1;
  return 0;
}

/* --- cube unit (rt/cube.h) -------------------------------------------------- */
/* The cube's buffer of a TPosition (asc_kc_buf), -1 for the others. */
static int cube_buffer(int position) {
  switch (position) {
    case ASC_POS_A1:
    case ASC_POS_B1:
    case ASC_POS_C1:
    case ASC_POS_C2:
      return 0;
    case ASC_POS_A2:
      return 1;
    case ASC_POS_B2:
      return 2;
    case ASC_POS_CO1:
      return 3;
    default:
      return -1;
  }
}
/* asc_kc_type of a dtype (the checks admit only these). */
static int dtype_cube_type(asc_dtype d) {
  switch (d) {
    case ASC_FLOAT16:
      return 0;
    case ASC_BFLOAT16:
      return 1;
    case ASC_INT8:
    case ASC_UINT8: /* bytes alike: the sparse index moves as int8 does */
      return 2;
    case ASC_FLOAT32:
      return 3;
    default:
      return 4;
  }
}
static int cube_type(const emitter *e, uint32_t v) {
  return dtype_cube_type((asc_dtype)type_of(e, v).dtype);
}
/* Whether region r (or one inside it) holds an op named name or name.*. */
static bool uses_op(const ir_region *r, const char *name) {
  size_t n = strlen(name);
  for (int i = 0; r && i < r->n; i++) {
    const char *op = ir_op_defs[r->ops[i]->code].name;
    if (!strncmp(op, name, n) && (op[n] == '\0' || op[n] == '.')) return true;
    for (int j = 0; j < r->ops[i]->nregions; j++)
      if (uses_op(r->ops[i]->regions[j], name)) return true;
  }
  return false;
}
static bool uses_cube(const ir_region *r) {
  for (int i = 0; r && i < r->n; i++) {
    const ir_op *op = r->ops[i];
    const char *name = ir_op_defs[op->code].name;
    if (!strncmp(name, "cube.", 5) || !strncmp(name, "matmul.", 7)) return true;
    if ((!strcmp(name, "que.new") || !strcmp(name, "tbuf.new")) &&
        cube_buffer((int)op->iattrs[0]) >= 0)
      return true;
    for (int j = 0; j < op->nregions; j++)
      if (uses_cube(op->regions[j])) return true;
  }
  return false;
}
/* What decides how a launch runs its cores (rt/mix.h). */
typedef struct core_use {
  int64_t mode; /* core.mode's attribute: 0 open, 1 AIC only, 2 mixed, 3 AIV only */
  bool mix;     /* the core kind, the cross-core flags or a Matmul */
  bool flags;   /* the cross-core flags */
  bool mode0;   /* ... in mode 0: every core of a kind in the launch */
} core_use;
static void scan_cores(const ir_region *r, core_use *u) {
  for (int i = 0; r && i < r->n; i++) {
    const ir_op *op = r->ops[i];
    const char *name = ir_op_defs[op->code].name;
    if (!strcmp(name, "core.mode")) u->mode = op->iattrs[0];
    if (!strncmp(name, "cube.cross_", 11)) u->flags = true;
    if (!strncmp(name, "cube.cross_", 11) && op->niattrs > 1 && op->iattrs[1] == 0) u->mode0 = true;
    if (!strncmp(name, "cube.cross_", 11) || !strncmp(name, "core.is_ai", 10) ||
        !strncmp(name, "matmul.", 7))
      u->mix = true;
    for (int j = 0; j < op->nregions; j++) scan_cores(op->regions[j], u);
  }
}
static int emit_cube_op(emitter *e, const ir_op *op, const char *name) {
  const uint32_t *o = op->operands;
  int L = (int)op->loc.line;
  bool gm1 = type_of(e, o[1]).kind == ASC_IR_GLOBAL, gm0 = type_of(e, o[0]).kind == ASC_IR_GLOBAL;
  if (!strcmp(name, "pipe.init_buffer"))
    return CHECKED(e, "asc_k_cube_init_buffer(k, v%u, v%u, v%u, v%u, %d, %d)", o[0], o[1], o[2],
                   o[3], cube_buffer(type_of(e, o[1]).position), L);
  if (!strcmp(name, "cube.load_data_t")) /* rt/cube_sparse.h */
    return CHECKED(e, "asc_k_cube_load_t(k, v%u, v%u, %d, v%u, v%u, v%u, v%u, v%u, %d)", o[0], o[1],
                   cube_type(e, o[0]), o[2], o[3], o[4], o[5], o[6], L);
  if (!strcmp(name, "cube.load_sparse"))
    return CHECKED(e, "asc_k_cube_load_sparse(k, v%u, v%u, v%u, v%u, v%u, v%u, v%u, v%u, %d)", o[0],
                   o[1], o[2], o[3], o[4], o[5], o[6], o[7], L);
  if (!strcmp(name, "cube.mmad_sparse"))
    return CHECKED(e, "asc_k_cube_mmad_sparse(k, v%u, v%u, v%u, v%u, v%u, v%u, v%u, %d)", o[0],
                   o[1], o[2], o[3], o[4], o[5], o[6], L);
  if (!strcmp(name, "cube.load_data") || !strcmp(name, "cube.load_data.gm"))
    return CHECKED(e, "asc_k_cube_load_%s(k, v%u, v%u, %d, v%u, v%u, v%u, v%u, v%u, %d)",
                   gm1 ? "gm" : "l1", o[0], o[1], cube_type(e, o[0]), o[2], o[3], o[4], o[5], o[6],
                   L);
  if (!strcmp(name, "cube.mmad"))
    return CHECKED(e, "asc_k_cube_mmad(k, v%u, v%u, v%u, NULL, NULL, %d, v%u, v%u, v%u, v%u, %d)",
                   o[0], o[1], o[2], cube_type(e, o[1]), o[3], o[4], o[5], o[6], L);
  if (!strcmp(name, "cube.mmad.bias")) {
    char bias[48];
    if (type_of(e, o[3]).kind == ASC_IR_GLOBAL)
      snprintf(bias, sizeof bias, "NULL, &v%u", o[3]);
    else
      snprintf(bias, sizeof bias, "&v%u, NULL", o[3]);
    return CHECKED(e, "asc_k_cube_mmad(k, v%u, v%u, v%u, %s, %d, v%u, v%u, v%u, v%u, %d)", o[0],
                   o[1], o[2], bias, cube_type(e, o[1]), o[4], o[5], o[6], o[7], L);
  }
  if (!strcmp(name, "cube.fixpipe")) {
    char qv[32] = "NULL";
    if (op->noperands > 9) snprintf(qv, sizeof qv, "&v%u", o[9]);
    return CHECKED(e,
                   "asc_k_cube_fixpipe_%s(k, v%u, v%u, %s, %d, %d, v%u, v%u, v%u, v%u, v%u, v%u, "
                   "(double)v%u, %d, %d)",
                   gm0 ? "gm" : "ub", o[0], o[1], qv, cube_type(e, o[0]), cube_type(e, o[1]), o[2],
                   o[3], o[4], o[5], o[6], o[7], o[8], (int)op->iattrs[0], L);
  }
  if (!strcmp(name, "cube.co12")) /* iattrs: quant mode, NZ output */
    return CHECKED(e,
                   "asc_k_cube_co12_%s(k, v%u, v%u, %d, %d, v%u, v%u, v%u, v%u, v%u, %lld, %d, %d)",
                   gm0 ? "gm" : "ub", o[0], o[1], cube_type(e, o[0]), cube_type(e, o[1]), o[2],
                   o[3], o[4], o[5], o[6], (long long)op->iattrs[0], (int)op->iattrs[1], L);
  if (!strcmp(name, "cube.nd2nz")) {
    line(e, "{");
    line(e, "  const int64_t p_[8] = {v%u, v%u, v%u, v%u, v%u, v%u, v%u, v%u};", o[2], o[3], o[4],
         o[5], o[6], o[7], o[8], o[9]);
    CHECKED(e, "asc_k_cube_nd2nz_%s(k, v%u, v%u, %d, p_, %d)", gm1 ? "gm" : "ub", o[0], o[1],
            cube_type(e, o[0]), L);
    return line(e, "}");
  }
  if (!strcmp(name, "cube.cross_set") || !strcmp(name, "cube.cross_wait"))
    return CHECKED(e, "asc_k_mix_cross(k, v%u, %d, %lld, %d)", o[0], name[11] == 'w',
                   (long long)op->iattrs[1], L);
  if (!strcmp(name, "cube.nz2nd")) {
    line(e, "{");
    line(e, "  const int64_t p_[7] = {v%u, v%u, v%u, v%u, v%u, v%u, v%u};", o[2], o[3], o[4], o[5],
         o[6], o[7], o[8]);
    CHECKED(e, "asc_k_cube_nz2nd(k, v%u, v%u, %d, p_, %d)", o[0], o[1], cube_type(e, o[0]), L);
    return line(e, "}");
  }
  /* asc.adv.Matmul: o[0] is the object; its types are matmul.new's attributes */
  const ir_op *mk = e->m->values[o[0]].def;
  int in_t = 0, c_t = 3;
  if (mk && !strcmp(ir_op_defs[mk->code].name, "matmul.new")) {
    in_t = dtype_cube_type((asc_dtype)mk->iattrs[1]);
    c_t = dtype_cube_type((asc_dtype)mk->iattrs[2]);
  }
  if (!strcmp(name, "matmul.new")) {
    line(e, "memset(&o%u, 0, sizeof o%u);", op->result, op->result);
    return line(e, "asc_k_matmul *v%u = &o%u;", op->result, op->result);
  }
  if (!strcmp(name, "matmul.init")) {
    CHECKED(
        e,
        "asc_k_mm_init(k, v%u, %d, %d, %d, v%u, v%u, v%u, v%u, v%u, v%u, v%u, v%u, v%u, v%u, %d)",
        o[0], in_t, c_t, mk ? (int)mk->iattrs[3] : 0, o[1], o[2], o[3], o[4], o[5], o[6], o[7],
        o[8], o[9], o[10], L);
    /* In a mixed kernel the AIC serves its AIVs' Matmul calls from here
     * to the end (Ascend C's REGIST_MATMUL_OBJ); the simulated AIVs run
     * them on cube buffers of their own, so the AIC is done. */
    return line(e, "if (k->mixed && k->core_kind == 1) return 0;");
  }
  if (!strcmp(name, "matmul.set_tensor"))
    return CHECKED(e, "asc_k_mm_set(k, v%u, %d, v%u, v%u, %d)", o[0], (int)op->iattrs[0], o[1],
                   o[2], L);
  if (!strcmp(name, "matmul.set_tensor.local"))
    return CHECKED(e, "asc_k_mm_set_local(k, v%u, %d, v%u, %d, v%u, %d)", o[0], (int)op->iattrs[0],
                   o[1], cube_type(e, o[1]), o[2], L);
  if (!strcmp(name, "matmul.shape"))
    return CHECKED(e, "asc_k_mm_shape(k, v%u, %d, v%u, v%u, v%u, v%u, %d)", o[0],
                   (int)op->iattrs[0], o[1], o[2], o[3], o[4], L);
  if (!strcmp(name, "matmul.iterate")) {
    line(e, "int v%u = 0;", op->result);
    return CHECKED(e, "asc_k_mm_iterate(k, v%u, &v%u, %d)", o[0], op->result, L);
  }
  if (!strcmp(name, "matmul.get_tensor_c"))
    return CHECKED(e, "asc_k_mm_get_c_%s(k, v%u, v%u, %d, %d)", gm1 ? "gm" : "ub", o[0], o[1],
                   cube_type(e, o[1]), L);
  if (!strcmp(name, "matmul.iterate_all"))
    return CHECKED(e, "asc_k_mm_iterate_all(k, v%u, v%u, %d, %d)", o[0], o[1], cube_type(e, o[1]),
                   L);
  if (!strcmp(name, "matmul.count"))
    return line(e, "int64_t v%u = v%u->next - 1;", op->result, o[0]);
  if (!strcmp(name, "matmul.end")) return CHECKED(e, "asc_k_mm_end(k, v%u, %d)", o[0], L);
  if (!strcmp(name, "matmul.batch_num"))
    return CHECKED(e, "asc_k_mm_batch_num(k, v%u, v%u, v%u, %d)", o[0], o[1], o[2], L);
  if (!strcmp(name, "matmul.iterate_batch"))
    return CHECKED(e, "asc_k_mm_iterate_batch(k, v%u, v%u, %d, v%u, v%u, v%u, v%u, %d)", o[0], o[1],
                   cube_type(e, o[1]), o[2], o[3], o[4], o[5], L);
  if (!strcmp(name, "matmul.iterate_batch.n"))
    return CHECKED(e, "asc_k_mm_iterate_batch(k, v%u, v%u, %d, -1, -1, v%u, v%u, %d)", o[0], o[1],
                   cube_type(e, o[1]), o[2], o[3], L);
  if (!strcmp(name, "matmul.iterate_all.atomic") || !strcmp(name, "matmul.get_tensor_c.atomic"))
    return CHECKED(e, "asc_k_mm_%s_atomic(k, v%u, v%u, %d, v%u, %d)",
                   name[7] == 'i' ? "iterate_all" : "get_c", o[0], o[1], cube_type(e, o[1]), o[2],
                   L);
  if (!strcmp(name, "matmul.schedule"))
    return CHECKED(e, "asc_k_mm_schedule(k, v%u, v%u, v%u, v%u, v%u, v%u, v%u, v%u, %d)", o[0],
                   o[1], o[2], o[3], o[4], o[5], o[6], o[7], L);
  if (!strcmp(name, "matmul.layout")) {
    line(e, "{");
    line(e,
         "  const int64_t p_[15] = {v%u, v%u, v%u, v%u, v%u, v%u, v%u, v%u, v%u, v%u, v%u, v%u, "
         "v%u, v%u, v%u};",
         o[1], o[2], o[3], o[4], o[5], o[6], o[7], o[8], o[9], o[10], o[11], o[12], o[13], o[14],
         o[15]);
    CHECKED(e, "asc_k_mm_layout(k, v%u, p_, %d)", o[0], L);
    return line(e, "}");
  }
  if (!strcmp(name, "matmul.iterate_n_batch"))
    return CHECKED(e, "asc_k_mm_iterate_n_batch(k, v%u, v%u, v%u, v%u, v%u, v%u, %d)", o[0], o[1],
                   o[2], o[3], o[4], o[5], L);
  if (!strcmp(name, "matmul.get_batch_tensor_c"))
    return CHECKED(e, "asc_k_mm_get_batch_c(k, v%u, v%u, v%u, v%u, %d)", o[0], o[1], o[2], o[3], L);
  if (!strcmp(name, "matmul.set_workspace"))
    return CHECKED(e, "asc_k_mm_workspace(k, v%u, v%u, %d, %d)", o[0], o[1], (int)esize(e, o[1]),
                   L);
  if (!strncmp(name, "matmul.offset_c.", 16)) {
    static const char *const fields[] = {"offset", "row", "col", "height", "width"};
    int f = 0;
    while (f < 4 && strcmp(name + 16, fields[f])) f++;
    line(e, "int64_t v%u = 0;", op->result);
    return CHECKED(e, "asc_k_mm_offset_c(k, v%u, %d, &v%u, %d)", o[0], f, op->result, L);
  }
  if (!strcmp(name, "matmul.quant_scalar"))
    return CHECKED(e, "asc_k_mm_quant_scalar(k, v%u, (int64_t)v%u, %d)", o[0], o[1], L);
  if (!strcmp(name, "matmul.quant_vector"))
    return CHECKED(e, "asc_k_mm_quant_vector(k, v%u, v%u, %d, %d)", o[0], o[1], (int)esize(e, o[1]),
                   L);
  if (!strcmp(name, "matmul.sparse_index"))
    return CHECKED(e,
                   "asc_k_fail(k, %d, \"Matmul.set_sparse_index: sparse matmul is not simulated "
                   "through adv.Matmul: PyAsc documents no sparse MatmulType nor the GM layout of "
                   "its B and index (kernel.ascendc() emits it; load_data_with_sparse and "
                   "mmad_with_sparse run)\")",
                   L);
  return line(e, "#error unknown cube op");
}
static int ce_cube(emitter *e, const ir_op *op, const char *rt) {
  (void)rt; /* the runtime function follows from the op and its operands */
  const char *name = ir_op_defs[op->code].name;
  /* core groups (rt/mix.h): ops without operands */
  if (!strcmp(name, "core.mode")) return 0; /* read by emit() */
  if (!strcmp(name, "core.is_aic") || !strcmp(name, "core.is_aiv"))
    return line(e, "int v%u = k->core_kind == %d;", op->result, name[10] == 'c');
  if (!strcmp(name, "core.sub_block_idx") || !strcmp(name, "core.sub_block_num"))
    return line(e, "int64_t v%u = k->sub_block_%s;", op->result, name + 15);
  /* Matmul calls with nothing to do in a synchronous simulator */
  if (!strcmp(name, "matmul.set_hf32") || !strcmp(name, "matmul.wait_iterate_batch") ||
      !strncmp(name, "matmul.self_define_data", 23) || !strcmp(name, "matmul.user_def_info"))
    return 0;
  if (!strcmp(name, "matmul.flag"))
    return op->iattrs[0] ? 0
                         : CHECKED(e, "asc_k_mm_disable_bias(k, v%u, %d)", op->operands[0],
                                   (int)op->loc.line);
  if (!strcmp(name, "matmul.async_get_tensor_c"))
    name = "matmul.get_tensor_c"; /* the same copy, done at once */
  return emit_cube_op(e, op, name);
}
/* --- end of cube unit --- */

/* Ops whose statement is written here, one case each. */
static int ce_named(emitter *e, const ir_op *op, const char *rt) {
  (void)rt;
  const char *name = ir_op_defs[op->code].name;
  uint32_t r = op->result;
  const uint32_t *o = op->operands;
  int L = (int)op->loc.line;
  if (!strcmp(name, "get_block_idx")) return line(e, "int64_t v%u = k->block_idx;", r);
  if (!strcmp(name, "get_block_num")) return line(e, "int64_t v%u = k->block_num;", r);
  if (!strcmp(name, "addr.offset"))
    return line(e, "asc_k_addr v%u = asc_k_addr_offset(v%u, v%u, %lld);", r, o[0], o[1],
                (long long)esize(e, o[0]));
  if (!strcmp(name, "global.new")) {
    line(e, "asc_k_gt v%u;", r);
    char len[32] = "-1";
    if (op->noperands > 1) snprintf(len, sizeof len, "v%u", o[1]);
    CHECKED(e, "asc_k_global_new(k, &v%u, v%u, %s, %lld, %d)", r, o[0], len,
            (long long)esize(e, o[0]), L);
    return 0;
  }
  if (!strcmp(name, "global.slice"))
    return line(e, "asc_k_gt v%u = asc_k_global_slice(v%u, v%u, %lld);", r, o[0], o[1],
                (long long)esize(e, o[0]));
  if (!strcmp(name, "global.get_value") || !strcmp(name, "local.get_value")) {
    line(e, "%s v%u;", c_type(type_of(e, r).kind), r);
    CHECKED(e, "asc_k_%cget_%s(k, v%u, v%u, &v%u, %d)", name[0] == 'g' ? 'g' : 'l', suffix(e, o[0]),
            o[0], o[1], r, L);
    return 0;
  }
  if (!strcmp(name, "global.set_value") || !strcmp(name, "local.set_value")) {
    bool is_float = asc_dtype_is_float((asc_dtype)type_of(e, o[0]).dtype);
    /* a float value stored to an integer tensor saturates (rt/core.h) */
    const char *conv = is_float                                ? "(double)"
                       : type_of(e, o[2]).kind == ASC_IR_FLOAT ? "asc_k_f2i"
                                                               : "(int64_t)";
    CHECKED(e, "asc_k_%cset_%s(k, v%u, v%u, %s(v%u), %d)", name[0] == 'g' ? 'g' : 'l',
            suffix(e, o[0]), o[0], o[1], conv, o[2], L);
    return 0;
  }
  if (!strcmp(name, "global.get_size"))
    return line(e, "int64_t v%u = asc_k_global_size(v%u);", r, o[0]);
  if (!strcmp(name, "local.new")) {
    /* an explicit LocalTensor at A1..CO1 addresses that buffer of the AIC
     * (an address past the tag's range is no buffer's: refused at use) */
    int buf = e->cube ? cube_buffer((int)op->iattrs[1]) : -1;
    if (buf >= 0)
      return line(e,
                  "asc_k_lt v%u = asc_k_local_new(v%u >= 0 && v%u < ((int64_t)1 << "
                  "ASC_KC_TAG_SHIFT) ? ASC_KC_TAG(%d, v%u) : -1, v%u);",
                  r, o[0], o[0], buf, o[0], o[1]);
    line(e, "asc_k_lt v%u = asc_k_local_new(v%u, v%u);", r, o[0], o[1]);
    /* check_ub left a range with run-time bounds to this check. */
    if (op->check_ub)
      CHECKED(e, "asc_k_local_check(k, v%u, %lld, %d)", r, (long long)esize(e, r), L);
    return 0;
  }
  if (!strcmp(name, "local.slice"))
    return line(e, "asc_k_lt v%u = asc_k_local_slice(v%u, v%u, %lld);", r, o[0], o[1],
                (long long)esize(e, o[0]));
  if (!strcmp(name, "local.get_size")) return line(e, "int64_t v%u = v%u.len;", r, o[0]);
  if (!strcmp(name, "local.get_phy_addr")) { /* the UB byte address of element offset */
    line(e, "int64_t v%u;", r);
    return CHECKED(e, "asc_k_local_phy_addr(k, v%u, %s%u, %lld, &v%u, %d)", o[0],
                   op->noperands > 1 ? "v" : "", op->noperands > 1 ? o[1] : 0,
                   (long long)esize(e, o[0]), r, L);
  }
  if (!strcmp(name, "local.get_length"))
    return line(e, "int64_t v%u = asc_k_mul(v%u.len, %lld);", r, o[0], (long long)esize(e, o[0]));
  if (!strcmp(name, "local.get_position"))
    return line(e, "int64_t v%u = %d;", r, type_of(e, o[0]).position);
  if (!strcmp(name, "local.reinterpret_cast"))
    return line(e, "asc_k_lt v%u = asc_k_local_cast(v%u, %lld, %lld);", r, o[0],
                (long long)esize(e, o[0]), (long long)esize(e, r));
  if (!strcmp(name, "pipe.new")) {
    line(e, "o%u = (asc_k_pipe){0};", r);
    return line(e, "asc_k_pipe *v%u = &o%u;", r, r);
  }
  if (!strcmp(name, "que.new") || !strcmp(name, "quebind.new")) {
    line(e, "memset(&o%u, 0, sizeof o%u);", r, r);
    line(e, "o%u.depth = %d;", r, type_of(e, r).depth);
    if (e->pipe) line(e, "o%u.pipe = &o%u;", r, e->pipe);
    return line(e, "asc_k_que *v%u = &o%u;", r, r);
  }
  if (!strcmp(name, "tbuf.new")) {
    line(e, "o%u = (asc_k_tbuf){0, 0};", r);
    return line(e, "asc_k_tbuf *v%u = &o%u;", r, r);
  }
  if (!strcmp(name, "pipe.init_buffer") && cube_buffer(type_of(e, o[1]).position) >= 0)
    return emit_cube_op(e, op, name); /* cube unit: a queue in L1/L0 */
  if (!strcmp(name, "pipe.init_buffer"))
    return CHECKED(e, "asc_k_init_buffer(k, v%u, v%u, v%u, v%u, %d)", o[0], o[1], o[2], o[3], L);
  if (!strcmp(name, "pipe.init_tbuf"))
    return CHECKED(e, "asc_k_init_tbuf(k, v%u, v%u, v%u, %d)", o[0], o[1], o[2], L);
  if (!strcmp(name, "pipe.destroy") || !strcmp(name, "pipe.reset"))
    return line(e, "asc_k_pipe_reset(v%u);", o[0]);
  if (!strcmp(name, "que.alloc_tensor") || !strcmp(name, "que.deque")) {
    line(e, "asc_k_lt v%u;", r);
    CHECKED(e, "asc_k_%s(k, v%u, &v%u, %lld, %d)", name[4] == 'a' ? "alloc_tensor" : "deque", o[0],
            r, (long long)esize(e, r), L);
    return 0;
  }
  if (!strcmp(name, "que.enque")) return CHECKED(e, "asc_k_enque(k, v%u, v%u, %d)", o[0], o[1], L);
  if (!strcmp(name, "que.free_tensor"))
    return CHECKED(e, "asc_k_free_tensor(k, v%u, v%u, %d)", o[0], o[1], L);
  if (!strcmp(name, "que.has_tensor_in_que")) return line(e, "int v%u = v%u->count > 0;", r, o[0]);
  if (!strcmp(name, "que.vacant_in_que"))
    return line(e, "int v%u = v%u->count < v%u->depth;", r, o[0], o[0]);
  if (!strcmp(name, "tbuf.get") || !strcmp(name, "tbuf.alloc_tensor")) {
    char len[32] = "-1"; /* the whole buffer */
    if (op->noperands > 1) snprintf(len, sizeof len, "v%u", o[1]);
    line(e, "asc_k_lt v%u;", r);
    return CHECKED(e, "asc_k_tbuf_get(k, v%u, %s, %lld, &v%u, %d)", o[0], len,
                   (long long)esize(e, r), r, L);
  }
  if (!strcmp(name, "tbuf.get_with_offset")) {
    line(e, "asc_k_lt v%u;", r);
    return CHECKED(e, "asc_k_tbuf_get_with_offset(k, v%u, v%u, v%u, %lld, &v%u, %d)", o[0], o[1],
                   o[2], (long long)esize(e, r), r, L);
  }
  if (!strcmp(name, "tbuf.free_tensor"))
    return line(e, "/* TBuf.free_tensor: nothing to release */");
  if (!strcmp(name, "data_copy")) {
    asc_ir_kind dk = type_of(e, o[0]).kind, sk = type_of(e, o[1]).kind;
    const char *fn = dk == ASC_IR_LOCAL ? "copy_gm_ub" : "copy_ub_gm";
    if (dk == ASC_IR_LOCAL && sk == ASC_IR_LOCAL)
      return CHECKED(e, "asc_k_copy_ub_ub(k, v%u, v%u, v%u, %lld, \"data_copy\", %d)", o[0], o[1],
                     o[2], (long long)esize(e, o[0]), L);
    return CHECKED(e, "asc_k_%s(k, v%u, v%u, v%u, %lld, %d)", fn, o[0], o[1], o[2],
                   (long long)esize(e, o[0]), L);
  }
  if (!strcmp(name, "copy"))
    return CHECKED(e, "asc_k_copy_ub_ub(k, v%u, v%u, v%u, %lld, \"copy\", %d)", o[0], o[1], o[2],
                   (long long)esize(e, o[0]), L);
  if (!strcmp(name, "duplicate"))
    return CHECKED(e, "asc_k_duplicate_%s(k, v%u, (double)v%u, v%u, %d)", suffix(e, o[0]), o[0],
                   o[1], o[2], L);
  if (!strcmp(name, "set_flag") || !strcmp(name, "wait_flag") || !strcmp(name, "pipe_barrier"))
    return line(e, "/* %s: program order on the simulated core */", name);
  if (!strcmp(name, "printf")) return emit_printf(e, op);
  if (emit_api_ext(e, op, name)) return 0;
  e->b->failed = true; /* a ce_named row without a case: an internal error */
  return 0;
}

static int ce_arith(emitter *e, const ir_op *op, const char *rt) {
  (void)rt; /* inline C */
  return emit_arith(e, op, ir_op_defs[op->code].name);
}

/* Vector instructions: <rt>_<dtype>(k, dst, srcs..., count, line). */
static int ce_vector(emitter *e, const ir_op *op, const char *rt) {
  const uint32_t *o = op->operands;
  ir_buf_indent(e->b, e->depth);
  ir_buf_printf(e->b, "if (%s_%s(k", rt, suffix(e, o[0]));
  for (int i = 0; i < op->noperands; i++) {
    bool scalar = type_of(e, o[i]).kind != ASC_IR_LOCAL && i < op->noperands - 1;
    ir_buf_printf(e->b, scalar ? ", (double)v%u" : ", v%u", o[i]);
  }
  ir_buf_printf(e->b, ", %d)) return 1;\n", (int)op->loc.line);
  return 0;
}

/* <rt>(k, operands..., element size of operand 0, line). */
static int ce_call(emitter *e, const ir_op *op, const char *rt) {
  ir_buf_indent(e->b, e->depth);
  ir_buf_printf(e->b, "if (%s(k", rt);
  for (int i = 0; i < op->noperands; i++) ir_buf_printf(e->b, ", v%u", op->operands[i]);
  ir_buf_printf(e->b, ", %lld, %d)) return 1;\n", (long long)esize(e, op->operands[0]),
                (int)op->loc.line);
  return 0;
}

/* Ops with nothing to do on the simulated core. */
static int ce_none(emitter *e, const ir_op *op, const char *rt) {
  (void)rt;
  return line(e, "/* %s: nothing to do */", ir_op_defs[op->code].name);
}

/* <rt>(k, pipe, HardEvent, &result | id, line). */
static int ce_event(emitter *e, const ir_op *op, const char *rt) {
  const uint32_t *o = op->operands;
  long long ev = (long long)op->iattrs[0];
  int L = (int)op->loc.line;
  if (op->noperands > 1) return CHECKED(e, "%s(k, v%u, %lld, v%u, %d)", rt, o[0], ev, o[1], L);
  line(e, "int64_t v%u;", op->result);
  return CHECKED(e, "%s(k, v%u, %lld, &v%u, %d)", rt, o[0], ev, op->result, L);
}

/* --- adv library: every op calls the rt/adv_math.h function its c_rt column names; a missing
 * tmp buffer is passed as an empty tensor with tmp_min -1. */
static const char *const adv_unary_ops[] = {
    "acos",    "acosh", "asin", "asinh", "atan",  "atanh", "ceil",   "cos", "cosh",
    "digamma", "erf",   "erfc", "exp",   "floor", "frac",  "lgamma", "log", "round",
    "sign",    "sin",   "sinh", "tan",   "tanh",  "trunc", NULL};

/* tmp_min and the tmp tensor, from operand `at` (tmp_min) on. */
static void adv_tmp(const emitter *e, const ir_op *op, int at, char *buf, size_t size) {
  if (op->noperands > at + 1)
    snprintf(buf, size, "v%u, v%u", op->operands[at + 1], op->operands[at]);
  else
    snprintf(buf, size, "(asc_k_lt){0, 0}, -1");
  (void)e;
}

static int ce_adv(emitter *e, const ir_op *op, const char *rt) {
  const char *name = ir_op_defs[op->code].name;
  const uint32_t *o = op->operands;
  int L = (int)op->loc.line;
  const char *base = name + 4;
  char tmp[64];
  for (int i = 0; adv_unary_ops[i]; i++)
    if (!strcmp(adv_unary_ops[i], base)) {
      adv_tmp(e, op, 3, tmp, sizeof tmp);
      return CHECKED(e, "%s(k, %d, %d, v%u, v%u, v%u, %lld, %s, \"adv.%s\", %d)", rt, i,
                     type_of(e, o[0]).dtype, o[0], o[1], o[2],
                     op->niattrs ? (long long)op->iattrs[0] : 0LL, tmp, base, L);
    }
  if (!strcmp(base, "power") || !strcmp(base, "xor")) {
    adv_tmp(e, op, 4, tmp, sizeof tmp);
    return CHECKED(e, "%s(k, %d, %d, v%u, v%u, v%u, v%u, %s, \"adv.%s\", %d)", rt, base[0] == 'x',
                   type_of(e, o[0]).dtype, o[0], o[1], o[2], o[3], tmp, base, L);
  }
  if (!strcmp(base, "axpy")) {
    adv_tmp(e, op, 4, tmp, sizeof tmp);
    return CHECKED(e, "%s(k, %d, %d, v%u, v%u, (double)v%u, v%u, %s, \"adv.axpy\", %d)", rt,
                   type_of(e, o[0]).dtype, type_of(e, o[1]).dtype, o[0], o[1], o[2], o[3], tmp, L);
  }
  if (!strcmp(base, "softmax")) {
    adv_tmp(e, op, 16, tmp, sizeof tmp);
    return CHECKED(e, "%s(k, %d, %d, v%u, v%u, v%u, v%u, v%u, v%u, %s, %d)", rt,
                   type_of(e, o[0]).dtype, type_of(e, o[1]).dtype, o[0], o[1], o[2], o[3], o[4],
                   o[5], tmp, L);
  }
  if (!strcmp(base, "rmsnorm")) { /* rows b * s, hLength, reciprocalOfHLength */
    adv_tmp(e, op, 16, tmp, sizeof tmp);
    return CHECKED(e,
                   "%s(k, %d, v%u, v%u, v%u, (double)v%u, asc_k_mul(v%u, v%u), v%u, "
                   "(double)v%u, %s, %d)",
                   rt, type_of(e, o[0]).dtype, o[0], o[1], o[2], o[3], o[4], o[5], o[6], o[8], tmp,
                   L);
  }
  if (!strcmp(base, "quant")) {
    adv_tmp(e, op, 5, tmp, sizeof tmp);
    return CHECKED(e, "%s(k, %d, v%u, v%u, (double)v%u, (double)v%u, v%u, %s, %d)", rt,
                   type_of(e, o[1]).dtype, o[0], o[1], o[2], o[3], o[4], tmp, L);
  }
  if (!strcmp(base, "concat"))
    return CHECKED(e, "%s(k, %d, v%u, v%u, v%u, v%u, %d)", rt, type_of(e, o[0]).dtype, o[0], o[1],
                   o[2], o[3], L);
  return CHECKED(e, "%s(k, %d, v%u, v%u, v%u, v%u, %d)", rt, type_of(e, o[0]).dtype, o[0], o[1],
                 o[2], o[3], L);
}

/* --- fwk/core (rt/fwk.h): the atomic store mode, TBufPool, TQue queries, tensor
 * setters and getters, set_pad_value --- */
static int ce_fwk(emitter *e, const ir_op *op, const char *rt) {
  const char *name = ir_op_defs[op->code].name;
  const uint32_t *o = op->operands;
  uint32_t r = op->result;
  int L = (int)op->loc.line;
  if (!strncmp(name, "atomic.", 7) && op->niattrs == 3)
    return line(e, "%s(k, %d, %d);", rt, (int)op->iattrs[1], (int)op->iattrs[2]);
  if (!strcmp(name, "atomic.get_type")) return line(e, "int64_t v%u = k->fwk.atomic_type;", r);
  if (!strcmp(name, "atomic.get_op")) return line(e, "int64_t v%u = k->fwk.atomic_op;", r);
  if (!strcmp(name, "pipe.get")) return line(e, "asc_k_pipe *v%u = &o%u;", r, e->pipe);
  if (!strcmp(name, "bufpool.new")) {
    line(e, "o%u = (asc_k_pipe){0};", r);
    line(e, "o%u.max_bufs = %d;", r, (int)op->iattrs[1]);
    return line(e, "asc_k_pipe *v%u = &o%u;", r, r);
  }
  if (!strcmp(name, "bufpool.init")) {
    char share[24] = "NULL";
    if (op->noperands > 3) snprintf(share, sizeof share, "v%u", o[3]);
    return CHECKED(e, "%s(k, v%u, v%u, v%u, %s, %d)", rt, o[0], o[1], o[2], share, L);
  }
  if (!strcmp(name, "bufpool.reset")) return line(e, "%s(k, v%u);", rt, o[0]);
  if (!strcmp(name, "que.get_tensor_count_in_que"))
    return line(e, "int64_t v%u = v%u->count;", r, o[0]);
  if (!strcmp(name, "que.has_idle_buffer")) return line(e, "int v%u = %s(v%u);", r, rt, o[0]);
  if (!strcmp(name, "local.set_size") || !strcmp(name, "local.set_buffer_len")) {
    line(e, "asc_k_lt v%u;", r);
    return CHECKED(e, "%s(k, v%u, v%u, %d, %lld, &v%u, %d)", rt, o[0], o[1], name[10] == 'b',
                   (long long)esize(e, o[0]), r, L);
  }
  if (!strcmp(name, "local.set_addr_with_offset")) {
    line(e, "asc_k_lt v%u;", r);
    return CHECKED(e, "%s(k, v%u, v%u, %lld, %lld, &v%u, %d)", rt, o[1], o[2],
                   (long long)esize(e, o[1]), (long long)esize(e, o[0]), r, L);
  }
  if (!strcmp(name, "local.set_user_tag"))
    return CHECKED(e, "%s(k, v%u, v%u, %d)", rt, o[0], o[1], L);
  if (!strcmp(name, "local.get_user_tag")) return line(e, "int64_t v%u = %s(k, v%u);", r, rt, o[0]);
  if (!strcmp(name, "global.get_phy_addr")) {
    line(e, "asc_k_addr v%u;", r);
    char off[24] = "0";
    if (op->noperands > 1) snprintf(off, sizeof off, "v%u", o[1]);
    return CHECKED(e, "%s(k, v%u, %s, %lld, &v%u, %d)", rt, o[0], off, (long long)esize(e, o[0]), r,
                   L);
  }
  if (!strcmp(name, "pad.set")) return line(e, "%s(k, (double)v%u);", rt, o[0]);
  if (!strcmp(name, "init_const_value"))
    return CHECKED(e, "%s(k, v%u, %d, v%u, v%u, v%u, (double)v%u, %d)", rt, o[0],
                   type_of(e, o[0]).dtype, o[1], o[2], o[3], o[4], L);
  if (!strcmp(name, "sync_all")) return CHECKED(e, "%s(k, 0, %d)", rt, L);
  if (!strcmp(name, "sync_all.soft"))
    return CHECKED(e, "%s(k, v%u, v%u, v%u, %d)", rt, o[0], o[1], o[2], L);
  e->b->failed = true; /* a ce_fwk row without a case: an internal error */
  return 0;
}

/* System and hardware (rt/system.h): <rt>(k, [&result,] operands..., iattrs..., line);
 * dump_acc_chk_point passes its tensor's dtype and memory first. */
static int ce_sys(emitter *e, const ir_op *op, const char *rt) {
  const uint32_t *o = op->operands;
  int L = (int)op->loc.line;
  if (!strcmp(ir_op_defs[op->code].name, "dump_acc_chk_point")) {
    asc_ir_type t = type_of(e, o[0]);
    bool g = t.kind == ASC_IR_GLOBAL;
    char tensor[64]; /* the tensor in its slot, an empty one in the other */
    snprintf(tensor, sizeof tensor, g ? "(asc_k_lt){0, 0}, v%u" : "v%u, (asc_k_gt){0}", o[0]);
    return CHECKED(e, "%s(k, %d, %d, %s, v%u, v%u, v%u, \"%s\", %d)", rt, t.dtype, g, tensor, o[1],
                   o[2], o[3], suffix(e, o[0]), L);
  }
  ir_buf b = {0};
  asc_ir_kind rk = ir_op_defs[op->code].result != R_NONE ? (asc_ir_kind)type_of(e, op->result).kind
                                                         : ASC_IR_VOID;
  if (rk != ASC_IR_VOID) {
    line(e, "%s v%u;", c_type(rk), op->result);
    ir_buf_printf(&b, ", &v%u", op->result);
  }
  for (int i = 0; i < op->noperands; i++) ir_buf_printf(&b, ", v%u", o[i]);
  for (int i = 0; i < ir_op_defs[op->code].niattrs; i++)
    ir_buf_printf(&b, ", INT64_C(%lld)", (long long)op->iattrs[i]);
  if (b.failed) {
    free(b.data);
    e->b->failed = true;
    return 0;
  }
  CHECKED(e, "%s(k%s, %d)", rt, b.data ? b.data : "", L);
  free(b.data);
  return 0;
}

/* Layout (rt/layout.h): transpose.ext passes its TransposeType and element
 * size; trans_data_to_5hd its two lists as arrays. */
static int ce_layout(emitter *e, const ir_op *op, const char *rt) {
  const uint32_t *o = op->operands;
  int L = (int)op->loc.line;
  long long es = (long long)esize(e, o[0]);
  if (!strcmp(ir_op_defs[op->code].name, "bilinear_interpolation")) {
    ir_buf_indent(e->b, e->depth);
    ir_buf_printf(e->b, "if (%s(k", rt);
    for (int i = 0; i < op->noperands; i++) ir_buf_printf(e->b, ", v%u", o[i]);
    ir_buf_printf(e->b, ", %lld, %d)) return 1;\n", (long long)op->iattrs[0], L);
    return 0;
  }
  if (!strcmp(ir_op_defs[op->code].name, "transpose.ext"))
    return CHECKED(e, "%s(k, v%u, v%u, v%u, v%u, v%u, v%u, v%u, %lld, %lld, %d)", rt, o[0], o[1],
                   o[2], o[3], o[4], o[5], o[6], (long long)op->iattrs[0], es, L);
  line(e, "{");
  e->depth++;
  for (int list = 0; list < 2; list++) {
    ir_buf_indent(e->b, e->depth);
    ir_buf_printf(e->b, "asc_k_lt %s[16] = {", list ? "src" : "dst");
    for (int i = 0; i < 16; i++) ir_buf_printf(e->b, "%sv%u", i ? ", " : "", o[list * 16 + i]);
    ir_buf_printf(e->b, "};\n");
  }
  CHECKED(e, "%s(k, dst, src, %lld, %lld, v%u, v%u, v%u, %lld, %d)", rt, (long long)op->iattrs[0],
          (long long)op->iattrs[1], o[32], o[33], o[34], es, L);
  e->depth--;
  return line(e, "}");
}
#include "emit_c_aipp.h"    /* set_aipp_functions, load_image_to_local */
#include "emit_c_img2col.h" /* img2col loads (LoadData3D*), LoadData2DParamsV2 */
#include "emit_c_sort.h"    /* sort, gather_mask, CMPMASK, scalar bits */

/* The c_emit and c_rt columns of api_table.def, by op code. */
typedef struct c_form {
  int (*emit)(emitter *e, const ir_op *op, const char *rt);
  const char *rt;
} c_form;

static const c_form c_forms[] = {
#define API(op, api, operands, result, niattrs, pipe, check, c_emit, c_rt, ...) {c_emit, c_rt},
#define PYAPI(api, how)
#include "api_table.def"
#undef API
#undef PYAPI
};

static int emit_table_op(emitter *e, const ir_op *op) {
  int row = op->code - IR_FIRST_TABLE_OP;
  if (row < 0 || row >= (int)(sizeof c_forms / sizeof c_forms[0])) {
    e->b->failed = true;
    return 0;
  }
  return c_forms[row].emit(e, op, c_forms[row].rt);
}

/* --- checked mode ------------------------------------------------------------
 * Checks for ops whose runtime functions cannot see them: views (slices),
 * explicit LocalTensors (their range joins the allocation
 * registry) and the ordering points set_flag/wait_flag/pipe_barrier.
 * Accesses are checked inside the runtime (asc_k_ub_use, asc_k_gm_range),
 * so a new API needs a case here only if it makes a view or orders pipes. */
static int emit_checks(emitter *e, const ir_op *op) {
  const char *name = ir_op_defs[op->code].name;
  uint32_t r = op->result;
  const uint32_t *o = op->operands;
  int L = (int)op->loc.line;
  if (!strcmp(name, "local.new") && !(e->cube && cube_buffer((int)op->iattrs[1]) >= 0))
    return CHECKED(e, "asc_k_chk_local_new(k, v%u, %lld, %d)", r, (long long)esize(e, r), L);
  if (!strcmp(name, "local.slice"))
    return line(e,
                "if (v%u < 0) return asc_k_fail(k, %d, \"LocalTensor slice [%%lld:]: negative "
                "offset\", (long long)v%u);",
                o[1], L, o[1]);
  if (!strcmp(name, "set_flag") || !strcmp(name, "wait_flag"))
    return CHECKED(e, "asc_k_chk_%s(k, %lld, v%u, %d)", name, (long long)op->iattrs[0], o[0], L);
  if (!strcmp(name, "pipe_barrier"))
    return CHECKED(e, "asc_k_chk_barrier(k, %lld, %d)", (long long)op->iattrs[0], L);
  if (!strcmp(name, "pipe.destroy") || !strcmp(name, "pipe.reset"))
    return line(e, "asc_k_chk_pipe_reset(k);");
  return 0;
}

static int emit_op(emitter *e, const ir_op *op) {
  if (op->dead) return 0;
  uint32_t r = op->result;
  switch (op->code) {
    case IR_CONST_INT:
      if (op->ival == INT64_MIN) return line(e, "const int64_t v%u = INT64_MIN;", r);
      return line(e, "const int64_t v%u = INT64_C(%lld);", r, (long long)op->ival);
    case IR_CONST_FLOAT:
      ir_buf_indent(e->b, e->depth);
      ir_buf_printf(e->b, "const double v%u = ", r);
      print_double(e->b, op->fval);
      ir_buf_printf(e->b, ";\n");
      return 0;
    case IR_CONST_BOOL:
      return line(e, "const int v%u = %d;", r, op->ival ? 1 : 0);
    case IR_VAR:
      return 0; /* declared at the top */
    case IR_LOAD:
      return line(e, "%s v%u = v%u;", c_type(type_of(e, r).kind), r, op->operands[0]);
    case IR_STORE:
      return line(e, "v%u = v%u;", op->operands[0], op->operands[1]);
    case IR_FOR: {
      uint32_t iv = op->result, start = op->operands[0], stop = op->operands[1],
               step = op->operands[2];
      line(e, "if (v%u == 0) return asc_k_fail(k, %u, \"range() step must not be zero\");", step,
           op->loc.line);
      line(e, "for (int64_t v%u = v%u; v%u > 0 ? v%u < v%u : v%u > v%u; v%u += v%u) {", iv, start,
           step, iv, stop, iv, stop, iv, step);
      e->depth++;
      line(e, "if (asc_k_poll(k, %u)) return 1;", op->loc.line); /* Ctrl-C, watchdog */
      emit_region(e, op->regions[0]);
      e->depth--;
      return line(e, "}");
    }
    case IR_WHILE:
      line(e, "for (;;) {");
      e->depth++;
      line(e, "if (asc_k_poll(k, %u)) return 1;", op->loc.line); /* Ctrl-C, watchdog */
      /* no block: the condition's values stay in scope for the test */
      for (int i = 0; i < op->regions[0]->n; i++) emit_op(e, op->regions[0]->ops[i]);
      line(e, "if (!v%u) break;", op->operands[0]);
      emit_region(e, op->regions[1]);
      e->depth--;
      return line(e, "}");
    case IR_IF:
      line(e, "if (v%u) {", op->operands[0]);
      e->depth++;
      emit_region(e, op->regions[0]);
      e->depth--;
      if (op->nregions > 1) {
        line(e, "} else {");
        e->depth++;
        emit_region(e, op->regions[1]);
        e->depth--;
      }
      return line(e, "}");
    default:
      emit_table_op(e, op);
      return e->checked ? emit_checks(e, op) : 0;
  }
}

static int emit_region(emitter *e, const ir_region *r) {
  if (!r) return 0;
  line(e, "{");
  e->depth++;
  for (int i = 0; i < r->n; i++) emit_op(e, r->ops[i]);
  e->depth--;
  return line(e, "}");
}

/* Storage for TPipe/TQue/TBuf objects lives for the whole function, so
 * that pointers to it stay valid across regions. */
static void declare_objects(emitter *e, const ir_region *r) {
  for (int i = 0; r && i < r->n; i++) {
    const ir_op *op = r->ops[i];
    for (int j = 0; j < op->nregions; j++) declare_objects(e, op->regions[j]);
    const char *name = ir_op_defs[op->code].name;
    if (!strcmp(name, "pipe.new")) {
      line(e, "asc_k_pipe o%u;", op->result);
      e->pipe = op->result;
    } else if (!strcmp(name, "bufpool.new")) { /* rt/fwk.h */
      line(e, "asc_k_pipe o%u;", op->result);
    } else if (!strcmp(name, "que.new") || !strcmp(name, "quebind.new"))
      line(e, "asc_k_que o%u;", op->result);
    else if (!strcmp(name, "tbuf.new"))
      line(e, "asc_k_tbuf o%u;", op->result);
    else if (!strcmp(name, "matmul.new")) /* cube unit */
      line(e, "asc_k_matmul o%u;", op->result);
    else if (op->code == IR_VAR) {
      asc_ir_kind kind = type_of(e, op->result).kind;
      bool pointer = kind == ASC_IR_PIPE || kind == ASC_IR_QUE || kind == ASC_IR_TBUF;
      if (pointer)
        line(e, "%sv%u = NULL;", c_type(kind), op->result);
      else
        line(e, "%s v%u = {0};", c_type(kind), op->result);
    }
  }
}

static asc_status emit(const asc_ir_module *m, bool checked, char **out) {
  ir_buf b = {0};
  emitter e = {m, &b, 0, checked, 0, false};
  /* The name is the user's: only its [A-Za-z0-9_] form enters a comment. */
  ir_buf_printf(&b, "/* generated by pyasc: kernel ");
  ir_buf_safe_name(&b, m->name, 128, NULL);
  ir_buf_printf(&b, "%s */\n", checked ? " (checked)" : "");
  if (checked) ir_buf_printf(&b, "#define ASC_K_CHECKED 1\n");
  /* Source files of the locations (see ASC_IR_FILE): the kernel's first. */
  ir_buf_printf(&b, "static const char *const asc_k_files[] = {");
  print_c_string(&b, m->file);
  for (uint32_t i = 0; i < m->nfiles; i++) {
    ir_buf_printf(&b, ", ");
    print_c_string(&b, m->files[i]);
  }
  bool cube = uses_cube(m->body); /* the block gets the AIC's buffers */
  e.cube = cube;
  core_use cu = {0, false, false, false};
  scan_cores(m->body, &cu);
  /* a launch of groups (rt/mix.h): the options say mixed, or they leave
   * it open and the kernel asks for the core kind, uses the cross-core
   * flags or a Matmul (whose AIC serves the AIVs) */
  bool mixed = cu.mode == 2 || (cu.mode == 0 && cu.mix);
  bool group = mixed || cu.flags;
  ir_buf_printf(&b, "};\n%s%s%s\n", cube ? "#define ASC_K_CUBE 1\n" : "",
                group ? "#define ASC_K_MIX 1\n" : "", asc_kernel_rt_source);
  ir_buf_printf(&b, "%s(asc_k_ctx *k, const asc_k_arg *args) {\n",
                checked || cube || group ? "static int asc_kernel_body" : "int asc_kernel_entry");
  e.depth = 1;
  for (int i = 0; i < m->nparams; i++) {
    uint32_t v = m->params[i];
    switch (type_of(&e, v).kind) {
      case ASC_IR_ADDR:
        line(&e, "asc_k_addr v%u = {args[%d].v.p, args[%d].n, 0};", v, i, i);
        break;
      case ASC_IR_FLOAT:
        line(&e, "double v%u = args[%d].v.f;", v, i);
        break;
      case ASC_IR_BOOL:
        line(&e, "int v%u = args[%d].v.i != 0;", v, i);
        break;
      default:
        line(&e, "int64_t v%u = args[%d].v.i;", v, i);
    }
  }
  line(&e, "asc_k_vm_init(k);");
  declare_objects(&e, m->body);
  emit_region(&e, m->body);
  line(&e, "return 0;");
  ir_buf_printf(&b, "}\n");
  /* The checker's state and the cube's buffers live exactly as long as
   * one block's run. */
  if (checked || cube || group) {
    ir_buf_printf(&b, "%s(asc_k_ctx *k, const asc_k_arg *args) {\n",
                  group ? "static int asc_kernel_core" : "int asc_kernel_entry");
    if (checked) ir_buf_printf(&b, "  if (asc_k_chk_begin(k)) return 1;\n");
    if (cube)
      ir_buf_printf(&b, "  if (asc_k_cube_begin(k)) {\n%s    return 1;\n  }\n",
                    checked ? "    asc_k_chk_end(k);\n" : "");
    ir_buf_printf(&b, "  int rc = asc_kernel_body(k, args);\n");
    if (cube) ir_buf_printf(&b, "  asc_k_cube_end(k);\n");
    if (checked) ir_buf_printf(&b, "  asc_k_chk_end(k);\n");
    ir_buf_printf(&b, "  return rc;\n}\n");
  }
  if (group) /* one core per block, or a group of an AIC and two AIVs */
    ir_buf_printf(&b,
                  "int asc_kernel_entry(asc_k_ctx *k, const asc_k_arg *args) {\n"
                  "  return asc_k_group_run(k, args, asc_kernel_core, %d, %d);\n}\n",
                  mixed, cu.mode == 1);
  /* Its parameters' kinds, one letter each (a address, f float, b bool, i
   * int): the launcher trusts an argument's length only where it says 'a'
   * (jit.c asc_jit_params). */
  ir_buf_printf(&b, "const char asc_kernel_params[] = \"");
  for (int i = 0; i < m->nparams; i++) {
    asc_ir_kind kind = type_of(&e, m->params[i]).kind;
    ir_buf_printf(&b, "%c",
                  kind == ASC_IR_ADDR    ? 'a'
                  : kind == ASC_IR_FLOAT ? 'f'
                  : kind == ASC_IR_BOOL  ? 'b'
                                         : 'i');
  }
  ir_buf_printf(&b, "\";\n");
  /* sync_all and mode-0 cross-core flags: the launcher runs every block
   * at once (jit.c); mode 0 says on what: 2 groups, 3 AIVs, 4 AICs */
  if (uses_op(m->body, "sync_all") || cu.mode0)
    ir_buf_printf(&b, "const int asc_kernel_all_live = %d;\n",
                  !cu.mode0      ? 1
                  : mixed        ? 2
                  : cu.mode == 1 ? 4
                                 : 3);
  return ir_buf_finish(&b, out);
}

asc_status asc_ir_emit_c(const asc_ir_module *m, char **out) {
  asc_status ready = ir_ready(m, "emit_c");
  if (ready) return ready;
  return emit(m, false, out);
}

asc_status asc_ir_emit_c_checked(const asc_ir_module *m, char **out) {
  asc_status ready = ir_ready(m, "emit_c");
  if (ready) return ready;
  return emit(m, true, out);
}
