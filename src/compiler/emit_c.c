/* IR -> C for the simulated AI cores (this file is the driver; emit_c.h
 * lists the others, one stage each). The output is one self-contained
 * translation unit: the kernel runtime header followed by the kernel as
 * `int asc_kernel_entry(asc_k_ctx *k, const asc_k_arg *args)`, returning 0
 * or 1 with k->msg set. Every API call's failure returns at once. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emit_c.h"

extern const char asc_kernel_rt_source[]; /* asc_kernel_rt.h, embedded at build time */
extern const char asc_kernel_pf_source[]; /* rt/perf_model.h: profiled builds only */

const char *ce_c_type(asc_ir_kind kind) {
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

asc_ir_type ce_type_of(const emitter *e, uint32_t v) {
  return e->m->values[v].type;
}
int64_t ce_esize(const emitter *e, uint32_t v) {
  return (int64_t)asc_dtype_size((asc_dtype)ce_type_of(e, v).dtype);
}
const char *ce_suffix(const emitter *e, uint32_t v) {
  return asc_dtype_name((asc_dtype)ce_type_of(e, v).dtype);
}

/* Emitters return 0 so that `return ce_line(...)` ends a case. */
int ce_line(emitter *e, const char *fmt, ...) {
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
int ce_checked(emitter *e, const char *fmt, ...) {
  char call[768];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(call, sizeof call, fmt, ap);
  va_end(ap);
  return ce_line(e, "if (%s) return 1;", call);
}

static int emit_region(emitter *e, const ir_region *r);

int ce_emit_arith(emitter *e, const ir_op *op, const char *name) {
  uint32_t r = op->result, a = op->operands[0], b = op->noperands > 1 ? op->operands[1] : 0;
  int L = (int)op->loc.line;
  bool is_float = ce_type_of(e, r).kind == ASC_IR_FLOAT;
  const char *t = ce_c_type(ce_type_of(e, r).kind);
  if (op->code == IR_OP_ARITH_ADD || op->code == IR_OP_ARITH_SUB || op->code == IR_OP_ARITH_MUL) {
    char sym = name[6] == 'a' ? '+' : name[6] == 's' ? '-' : '*';
    if (is_float)
      ce_line(e, "double v%u = (double)v%u %c (double)v%u;", r, a, sym, b);
    else
      ce_line(e, "int64_t v%u = (int64_t)((uint64_t)v%u %c (uint64_t)v%u);", r, a, sym, b);
  } else if (op->code == IR_OP_ARITH_FLOORDIV) {
    if (is_float) {
      ce_line(e,
              "if ((double)v%u == 0.0) return asc_k_fail(k, %d, \"float floor division by zero\");",
              b, L);
      ce_line(e, "double v%u = floor((double)v%u / (double)v%u);", r, a, b);
    } else {
      ce_line(e, "int64_t v%u;", r);
      ce_checked(e, "asc_k_floordiv(k, v%u, v%u, &v%u, %d)", a, b, r, L);
    }
  } else if (op->code == IR_OP_ARITH_MOD) {
    if (is_float) {
      ce_line(e, "if ((double)v%u == 0.0) return asc_k_fail(k, %d, \"float modulo by zero\");", b,
              L);
      ce_line(e, "double v%u = asc_k_fmod((double)v%u, (double)v%u);", r, a, b);
    } else {
      ce_line(e, "int64_t v%u;", r);
      ce_checked(e, "asc_k_mod(k, v%u, v%u, &v%u, %d)", a, b, r, L);
    }
  } else if (op->code == IR_OP_ARITH_TRUEDIV) {
    ce_line(e, "if ((double)v%u == 0.0) return asc_k_fail(k, %d, \"division by zero\");", b, L);
    ce_line(e, "double v%u = (double)v%u / (double)v%u;", r, a, b);
  } else if (op->code == IR_OP_ARITH_POW) {
    if (is_float) {
      ce_line(e, "double v%u = pow((double)v%u, (double)v%u);", r, a, b);
    } else {
      ce_line(e,
              "if (v%u < 0) return asc_k_fail(k, %d, \"negative integer exponent: write 1.0 / x ** "
              "n\");",
              b, L);
      ce_line(e, "int64_t v%u = asc_k_ipow(v%u, v%u);", r, a, b);
    }
  } else if (op->code == IR_OP_ARITH_NEG) {
    if (is_float)
      ce_line(e, "double v%u = -(double)v%u;", r, a);
    else
      ce_line(e, "int64_t v%u = (int64_t)(0 - (uint64_t)v%u);", r, a);
  } else if (op->code == IR_OP_ARITH_MIN || op->code == IR_OP_ARITH_MAX) {
    char cmp = name[7] == 'i' ? '<' : '>';
    ce_line(e, "%s v%u = (v%u %c= v%u) ? (%s)v%u : (%s)v%u;", t, r, a, cmp, b, t, a, t, b);
  } else if (!strncmp(name, "arith.", 6) && strlen(name) == 8 &&
             strchr("elgn", name[6])) { /* eq ne lt le gt ge */
    const char *ops[][2] = {{"eq", "=="}, {"ne", "!="}, {"lt", "<"},
                            {"le", "<="}, {"gt", ">"},  {"ge", ">="}};
    for (int i = 0; i < 6; i++)
      if (!strcmp(name + 6, ops[i][0])) ce_line(e, "int v%u = v%u %s v%u;", r, a, ops[i][1], b);
  } else if (op->code == IR_OP_ARITH_AND) {
    ce_line(e, "int v%u = v%u && v%u;", r, a, b);
  } else if (op->code == IR_OP_ARITH_OR) {
    ce_line(e, "int v%u = v%u || v%u;", r, a, b);
  } else if (op->code == IR_OP_ARITH_NOT) {
    ce_line(e, "int v%u = !v%u;", r, a);
  } else if (op->code == IR_OP_ARITH_BITAND || op->code == IR_OP_ARITH_BITOR ||
             op->code == IR_OP_ARITH_BITXOR) {
    char sym = name[9] == 'n' ? '&' : name[9] == 'r' ? '|' : '^';
    ce_line(e, "int64_t v%u = v%u %c v%u;", r, a, sym, b);
  } else if (op->code == IR_OP_ARITH_SHL) {
    ce_line(e, "int64_t v%u = (v%u < 0 || v%u > 63) ? 0 : (int64_t)((uint64_t)v%u << v%u);", r, b,
            b, a, b);
  } else if (op->code == IR_OP_ARITH_SHR) {
    ce_line(e, "int64_t v%u = (v%u < 0 || v%u > 63) ? (v%u < 0 ? -1 : 0) : v%u >> v%u;", r, b, b, a,
            a, b);
  } else if (op->code == IR_OP_ARITH_SELECT) {
    ce_line(e, "%s v%u = v%u ? (%s)v%u : (%s)v%u;", t, r, a, t, b, t, op->operands[2]);
  } else if (op->code == IR_OP_ARITH_TO_INT) { /* saturating (rt/core.h) */
    ce_line(e, "int64_t v%u = %s(v%u);", r,
            ce_type_of(e, a).kind == ASC_IR_FLOAT ? "asc_k_f2i" : "(int64_t)", a);
  } else if (op->code == IR_OP_ARITH_TO_FLOAT) {
    ce_line(e, "double v%u = (double)v%u;", r, a);
  }
  return 0;
}

/* printf with Python-typed arguments: ints print as long long, floats as
 * double, whatever conversion the format names. */
int ce_emit_printf(emitter *e, const ir_op *op) {
  ir_buf fmt = {0};
  int arg = 0;
  bool addr_p[64] = {false}; /* which GM address arguments print with %p */
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
      bool is_float = arg < op->noperands && ce_type_of(e, op->operands[arg]).kind == ASC_IR_FLOAT;
      bool is_addr = arg < op->noperands && ce_type_of(e, op->operands[arg]).kind == ASC_IR_ADDR;
      if (is_addr && arg < (int)sizeof addr_p) addr_p[arg] = conv == 'p';
      if (is_addr)
        ir_buf_printf(&fmt, "%c", conv == 'p' ? 'p' : 's');
      else if (strchr("diuxXoc", conv))
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
  /* a GM address printed with %s: its bytes up to a NUL, read inside its
   * argument (asc_k_addr_str); with %p: where it points */
  bool strings = false;
  for (int i = 0; i < op->noperands; i++)
    if (ce_type_of(e, op->operands[i]).kind == ASC_IR_ADDR) strings = true;
  if (strings) {
    ce_line(e, "{");
    e->depth++;
    for (int i = 0; i < op->noperands; i++)
      if (ce_type_of(e, op->operands[i]).kind == ASC_IR_ADDR && !(i < 64 && addr_p[i])) {
        ce_line(e, "char s%d_[4096];", i);
        ce_checked(e, "asc_k_addr_str(k, v%u, s%d_, sizeof s%d_, %d)", op->operands[i], i, i,
                   (int)op->loc.line);
      }
  }
  ir_buf_indent(e->b, e->depth);
  ir_buf_printf(e->b, "printf(");
  ir_buf_c_string(e->b, fmt.data ? fmt.data : "", fmt.len);
  for (int i = 0; i < op->noperands; i++) {
    asc_ir_kind kind = ce_type_of(e, op->operands[i]).kind;
    if (kind == ASC_IR_ADDR && i < 64 && addr_p[i])
      ir_buf_printf(e->b, ", (void *)((uintptr_t)v%u.base + (uintptr_t)v%u.lead)", op->operands[i],
                    op->operands[i]);
    else if (kind == ASC_IR_ADDR)
      ir_buf_printf(e->b, ", (const char *)s%d_", i);
    else
      ir_buf_printf(e->b, ", (%s)v%u", kind == ASC_IR_FLOAT ? "double" : "long long",
                    op->operands[i]);
  }
  ir_buf_printf(e->b, ");\n");
  ce_line(e, "fflush(stdout);");
  if (strings) {
    e->depth--;
    ce_line(e, "}");
  }
  free(fmt.data);
  return 0;
}

/* The c_emit and c_rt columns of api_table.def, by op code. */
typedef struct c_form {
  int (*emit)(emitter *e, const ir_op *op, const char *rt);
  const char *rt;
} c_form;

static const c_form c_forms[] = {
#define API(id, op, api, operands, result, niattrs, pipe, check, c_emit, c_rt, ...) {c_emit, c_rt},
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
  if (op->code == IR_OP_LOCAL_NEW && !(e->cube && ce_cube_buffer((int)op->iattrs[1]) >= 0))
    return ce_checked(e, "asc_k_chk_local_new(k, v%u, %lld, %d)", r, (long long)ce_esize(e, r), L);
  if (op->code == IR_OP_LOCAL_SLICE)
    return ce_line(e,
                   "if (v%u < 0) return asc_k_fail(k, %d, \"LocalTensor slice [%%lld:]: negative "
                   "offset\", (long long)v%u);",
                   o[1], L, o[1]);
  if (op->code == IR_OP_SET_FLAG || op->code == IR_OP_WAIT_FLAG)
    return ce_checked(e, "asc_k_chk_%s(k, %lld, v%u, %d)", name, (long long)op->iattrs[0], o[0], L);
  if (op->code == IR_OP_PIPE_BARRIER)
    return ce_checked(e, "asc_k_chk_barrier(k, %lld, %d)", (long long)op->iattrs[0], L);
  if (op->code == IR_OP_PIPE_DESTROY || op->code == IR_OP_PIPE_RESET)
    return ce_line(e, "asc_k_chk_pipe_reset(k);");
  return 0;
}

static int emit_op(emitter *e, const ir_op *op) {
  if (op->dead) return 0;
  uint32_t r = op->result;
  switch (op->code) {
    case IR_CONST_INT:
      if (op->ival == INT64_MIN) return ce_line(e, "const int64_t v%u = INT64_MIN;", r);
      return ce_line(e, "const int64_t v%u = INT64_C(%lld);", r, (long long)op->ival);
    case IR_CONST_FLOAT:
      ir_buf_indent(e->b, e->depth);
      ir_buf_printf(e->b, "const double v%u = ", r);
      print_double(e->b, op->fval);
      ir_buf_printf(e->b, ";\n");
      return 0;
    case IR_CONST_BOOL:
      return ce_line(e, "const int v%u = %d;", r, op->ival ? 1 : 0);
    case IR_VAR:
      return 0; /* declared at the top */
    case IR_LOAD:
      return ce_line(e, "%s v%u = v%u;", ce_c_type(ce_type_of(e, r).kind), r, op->operands[0]);
    case IR_STORE:
      return ce_line(e, "v%u = v%u;", op->operands[0], op->operands[1]);
    case IR_FOR: {
      uint32_t iv = op->result, start = op->operands[0], stop = op->operands[1],
               step = op->operands[2];
      ce_line(e, "if (v%u == 0) return asc_k_fail(k, %u, \"range() step must not be zero\");", step,
              op->loc.line);
      ce_line(e, "for (int64_t v%u = v%u; v%u > 0 ? v%u < v%u : v%u > v%u; v%u += v%u) {", iv,
              start, step, iv, stop, iv, stop, iv, step);
      e->depth++;
      ce_line(e, "if (asc_k_poll(k, %u)) return 1;", op->loc.line); /* Ctrl-C, watchdog */
      if (e->profiled) ce_line(e, "asc_pf_s(pf, 2);");              /* the test and the step */
      emit_region(e, op->regions[0]);
      e->depth--;
      return ce_line(e, "}");
    }
    case IR_WHILE:
      ce_line(e, "for (;;) {");
      e->depth++;
      ce_line(e, "if (asc_k_poll(k, %u)) return 1;", op->loc.line); /* Ctrl-C, watchdog */
      if (e->profiled) ce_line(e, "asc_pf_s(pf, 1);");
      /* no block: the condition's values stay in scope for the test */
      for (int i = 0; i < op->regions[0]->n; i++) emit_op(e, op->regions[0]->ops[i]);
      ce_line(e, "if (!v%u) break;", op->operands[0]);
      emit_region(e, op->regions[1]);
      e->depth--;
      return ce_line(e, "}");
    case IR_IF:
      ce_line(e, "if (v%u) {", op->operands[0]);
      e->depth++;
      emit_region(e, op->regions[0]);
      e->depth--;
      if (op->nregions > 1) {
        ce_line(e, "} else {");
        e->depth++;
        emit_region(e, op->regions[1]);
        e->depth--;
      }
      return ce_line(e, "}");
    default:
      emit_table_op(e, op);
      if (e->checked) emit_checks(e, op);
      return e->profiled ? ce_pf_op(e, op) : 0;
  }
}

static int emit_region(emitter *e, const ir_region *r) {
  if (!r) return 0;
  ce_line(e, "{");
  e->depth++;
  for (int i = 0; i < r->n; i++) emit_op(e, r->ops[i]);
  e->depth--;
  return ce_line(e, "}");
}

/* Storage for TPipe/TQue/TBuf objects lives for the whole function, so
 * that pointers to it stay valid across regions. */
static void declare_objects(emitter *e, const ir_region *r) {
  for (int i = 0; r && i < r->n; i++) {
    const ir_op *op = r->ops[i];
    for (int j = 0; j < op->nregions; j++) declare_objects(e, op->regions[j]);
    if (op->code == IR_OP_PIPE_NEW) {
      ce_line(e, "asc_k_pipe o%u;", op->result);
      e->pipe = op->result;
    } else if (op->code == IR_OP_BUFPOOL_NEW) { /* rt/fwk.h */
      ce_line(e, "asc_k_pipe o%u;", op->result);
    } else if (op->code == IR_OP_QUE_NEW || op->code == IR_OP_QUEBIND_NEW)
      ce_line(e, "asc_k_que o%u;", op->result);
    else if (op->code == IR_OP_TBUF_NEW)
      ce_line(e, "asc_k_tbuf o%u;", op->result);
    else if (op->code == IR_OP_MATMUL_NEW) /* cube unit */
      ce_line(e, "asc_k_matmul o%u;", op->result);
    else if (op->code == IR_VAR) {
      asc_ir_kind kind = ce_type_of(e, op->result).kind;
      bool pointer = kind == ASC_IR_PIPE || kind == ASC_IR_QUE || kind == ASC_IR_TBUF;
      if (pointer)
        ce_line(e, "%sv%u = NULL;", ce_c_type(kind), op->result);
      else
        ce_line(e, "%s v%u = {0};", ce_c_type(kind), op->result);
    }
  }
}

static asc_status emit(const asc_ir_module *m, bool checked, bool profiled, char **out) {
  ir_buf b = {0};
  emitter e = {m, &b, 0, checked, 0, false, profiled};
  /* The name is the user's: only its [A-Za-z0-9_] form enters a comment. */
  ir_buf_printf(&b, "/* generated by pyasc: kernel ");
  ir_buf_safe_name(&b, m->name, 128, NULL);
  ir_buf_printf(&b, "%s%s */\n", checked ? " (checked)" : "", profiled ? " (profiled)" : "");
  if (checked) ir_buf_printf(&b, "#define ASC_K_CHECKED 1\n");
  if (profiled) ir_buf_printf(&b, "#define ASC_K_PROFILE 1\n");
  /* Source files of the locations (see ASC_IR_FILE): the kernel's first. */
  ir_buf_printf(&b, "static const char *const asc_k_files[] = {");
  print_c_string(&b, m->file);
  for (uint32_t i = 0; i < m->nfiles; i++) {
    ir_buf_printf(&b, ", ");
    print_c_string(&b, m->files[i]);
  }
  bool cube = ce_uses_cube(m->body); /* the block gets the AIC's buffers */
  e.cube = cube;
  core_use cu = {0, false, false, false};
  ce_scan_cores(m->body, &cu);
  /* a launch of groups (rt/mix.h): the options say mixed, or they leave
   * it open and the kernel asks for the core kind, uses the cross-core
   * flags or a Matmul (whose AIC serves the AIVs) */
  bool mixed = cu.mode == 2 || (cu.mode == 0 && cu.mix);
  bool group = mixed || cu.flags;
  ir_buf_printf(&b, "};\n%s%s%s\n", cube ? "#define ASC_K_CUBE 1\n" : "",
                group ? "#define ASC_K_MIX 1\n" : "", asc_kernel_rt_source);
  if (profiled) ir_buf_printf(&b, "%s\n", asc_kernel_pf_source);
  bool wrapped = checked || cube || group || profiled;
  ir_buf_printf(&b, "%s(asc_k_ctx *k, const asc_k_arg *args) {\n",
                wrapped ? "static int asc_kernel_body" : "int asc_kernel_entry");
  e.depth = 1;
  if (profiled) ce_line(&e, "asc_pf *pf = asc_pf_cur;\n  (void)pf;");
  for (int i = 0; i < m->nparams; i++) {
    uint32_t v = m->params[i];
    switch (ce_type_of(&e, v).kind) {
      case ASC_IR_ADDR:
        ce_line(&e, "asc_k_addr v%u = {args[%d].v.p, args[%d].n, 0};", v, i, i);
        break;
      case ASC_IR_FLOAT:
        ce_line(&e, "double v%u = args[%d].v.f;", v, i);
        break;
      case ASC_IR_BOOL:
        ce_line(&e, "int v%u = args[%d].v.i != 0;", v, i);
        break;
      default:
        ce_line(&e, "int64_t v%u = args[%d].v.i;", v, i);
    }
  }
  ce_line(&e, "asc_k_vm_init(k);");
  declare_objects(&e, m->body);
  emit_region(&e, m->body);
  ce_line(&e, "return 0;");
  ir_buf_printf(&b, "}\n");
  /* The checker's state and the cube's buffers live exactly as long as
   * one block's run. */
  if (wrapped) {
    ir_buf_printf(&b, "%s(asc_k_ctx *k, const asc_k_arg *args) {\n",
                  group ? "static int asc_kernel_core" : "int asc_kernel_entry");
    if (profiled) ir_buf_printf(&b, "  asc_pf pf_;\n  asc_pf_begin(k, &pf_);\n");
    /* an early return still ends the model (it frees the block's L2) */
    const char *pf_end = profiled ? "    asc_pf_end(k, &pf_);\n" : "";
    if (checked) ir_buf_printf(&b, "  if (asc_k_chk_begin(k)) {\n%s    return 1;\n  }\n", pf_end);
    if (cube)
      ir_buf_printf(&b, "  if (asc_k_cube_begin(k)) {\n%s%s    return 1;\n  }\n",
                    checked ? "    asc_k_chk_end(k);\n" : "", pf_end);
    ir_buf_printf(&b, "  int rc = asc_kernel_body(k, args);\n");
    if (cube) ir_buf_printf(&b, "  asc_k_cube_end(k);\n");
    if (checked) ir_buf_printf(&b, "  asc_k_chk_end(k);\n");
    if (profiled) ir_buf_printf(&b, "  asc_pf_end(k, &pf_);\n");
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
    asc_ir_kind kind = ce_type_of(&e, m->params[i]).kind;
    ir_buf_printf(&b, "%c",
                  kind == ASC_IR_ADDR    ? 'a'
                  : kind == ASC_IR_FLOAT ? 'f'
                  : kind == ASC_IR_BOOL  ? 'b'
                                         : 'i');
  }
  ir_buf_printf(&b, "\";\n");
  /* sync_all and mode-0 cross-core flags: the launcher runs every block
   * at once (jit.c); mode 0 says on what: 2 groups, 3 AIVs, 4 AICs */
  if (ce_uses_op(m->body, "sync_all") || cu.mode0)
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
  return emit(m, false, false, out);
}

asc_status asc_ir_emit_c_checked(const asc_ir_module *m, char **out) {
  asc_status ready = ir_ready(m, "emit_c");
  if (ready) return ready;
  return emit(m, true, false, out);
}

asc_status asc_ir_emit_c_profiled(const asc_ir_module *m, bool checked, char **out) {
  asc_status ready = ir_ready(m, "emit_c");
  if (ready) return ready;
  return emit(m, checked, true, out);
}
