/* IR -> Ascend C: the C++ source of a kernel for a real NPU, built with the
 * CANN toolkit against "kernel_operator.h". The kernel becomes
 *   extern "C" __global__ __aicore__ void NAME(GM_ADDR x, ..., int64_t n)
 * and every IR op the Ascend C call it stands for.
 *
 * The ac_* columns of api_table.def are the one place that maps IR ops to
 * Ascend C (ascendc_ops[] in emit_ascendc_forms.c reads them): fill them in with each new op
 * (tests/python/test_ascendc.py fails for an op without a form). An op with no Ascend C form fails
 * with ASC_ERR_UNSUPPORTED naming it and its line, never silently.
 *
 * The output is meant to be read: values carry their Python names (v<id>
 * otherwise), constants appear as literals, single-use pure expressions
 * and reads of variables that nothing reassigns before the use are written
 * into the expression that uses them, and a for loop's variable is the
 * loop's own when nothing else assigns it. Scalars are int64_t, float and
 * bool; arithmetic keeps the simulator's Python semantics through small
 * helpers (floor division, modulo, ...) defined ahead of the kernel, only
 * those the kernel uses. Errors the simulator reports at run time
 * (division by zero, a zero range() step) call AscendC::Trap().
 *
 * This file is the driver; emit_ascendc.h lists the others, one stage each. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emit_ascendc.h"

/* --- helpers the kernel may need ------------------------------------------ */

static const char *const helper_source[H_COUNT] = {
    [H_FLOORDIV] =
        "// PyAsc's a / b and a // b on run-time integers: C division, truncating.\n"
        "__aicore__ inline int64_t pyasc_floordiv(int64_t a, int64_t b)\n"
        "{\n"
        "    if (b == 0) {\n"
        "        AscendC::Trap();  // ZeroDivisionError\n"
        "        return 0;\n"
        "    }\n"
        "    if (b == -1) {\n"
        "        return (int64_t)(0 - (uint64_t)a);\n"
        "    }\n"
        "    return a / b;\n"
        "}\n",
    [H_MOD] =
        "// PyAsc's a % b on run-time integers: C remainder, the sign of a.\n"
        "__aicore__ inline int64_t pyasc_mod(int64_t a, int64_t b)\n"
        "{\n"
        "    if (b == 0) {\n"
        "        AscendC::Trap();  // ZeroDivisionError\n"
        "        return 0;\n"
        "    }\n"
        "    return b == -1 ? 0 : a % b;\n"
        "}\n",
    [H_FLOORDIVF] =
        "// Python's a // b on floats, floor(a / b). The scalar unit has no floor():\n"
        "// this rounds through int64_t, exact while |a / b| < 2**63.\n"
        "__aicore__ inline float pyasc_floordivf(float a, float b)\n"
        "{\n"
        "    if (b == 0.0f) {\n"
        "        AscendC::Trap();  // ZeroDivisionError\n"
        "        return 0.0f;\n"
        "    }\n"
        "    float q = a / b;\n"
        "    float t = (float)(int64_t)q;\n"
        "    return t > q ? t - 1.0f : t;\n"
        "}\n",
    [H_MODF] =
        "// Python's a % b on floats: the remainder takes the sign of b.\n"
        "__aicore__ inline float pyasc_modf(float a, float b)\n"
        "{\n"
        "    return a - pyasc_floordivf(a, b) * b;\n"
        "}\n",
    [H_TRUEDIV] =
        "// Python's a / b: a zero divisor is an error, not infinity.\n"
        "__aicore__ inline float pyasc_truediv(float a, float b)\n"
        "{\n"
        "    if (b == 0.0f) {\n"
        "        AscendC::Trap();  // ZeroDivisionError\n"
        "        return 0.0f;\n"
        "    }\n"
        "    return a / b;\n"
        "}\n",
    [H_IPOW] =
        "// Python's a ** b on integers (a negative exponent is an error).\n"
        "__aicore__ inline int64_t pyasc_ipow(int64_t a, int64_t b)\n"
        "{\n"
        "    if (b < 0) {\n"
        "        AscendC::Trap();  // write 1.0 / a ** -b\n"
        "        return 0;\n"
        "    }\n"
        "    uint64_t r = 1, x = (uint64_t)a;\n"
        "    for (; b > 0; b >>= 1) {\n"
        "        if (b & 1) {\n"
        "            r *= x;\n"
        "        }\n"
        "        x *= x;\n"
        "    }\n"
        "    return (int64_t)r;\n"
        "}\n",
    [H_POWI] =
        "// Python's a ** b for a float a and an integer b.\n"
        "__aicore__ inline float pyasc_powi(float a, int64_t b)\n"
        "{\n"
        "    uint64_t n = b < 0 ? 0 - (uint64_t)b : (uint64_t)b;\n"
        "    float r = 1.0f;\n"
        "    for (; n > 0; n >>= 1) {\n"
        "        if (n & 1) {\n"
        "            r *= a;\n"
        "        }\n"
        "        a *= a;\n"
        "    }\n"
        "    return b < 0 ? 1.0f / r : r;\n"
        "}\n",
    [H_SHL] =
        "// a << b on int64_t as the simulator computes it: shifted-out bits are lost.\n"
        "__aicore__ inline int64_t pyasc_shl(int64_t a, int64_t b)\n"
        "{\n"
        "    return (b < 0 || b > 63) ? 0 : (int64_t)((uint64_t)a << b);\n"
        "}\n",
    [H_SHR] =
        "// Python's a >> b on int64_t: an arithmetic shift.\n"
        "__aicore__ inline int64_t pyasc_shr(int64_t a, int64_t b)\n"
        "{\n"
        "    return (b < 0 || b > 63) ? (a < 0 ? -1 : 0) : a >> b;\n"
        "}\n",
    [H_COPY] =
        "// copy(dst, src, count): Copy has only mask forms, so whole 256-byte repeats\n"
        "// (at most 255 per call) and then one partial repeat.\n"
        "template <typename T>\n"
        "__aicore__ inline void pyasc_copy(const AscendC::LocalTensor<T> &dst,\n"
        "                                  const AscendC::LocalTensor<T> &src, int64_t count)\n"
        "{\n"
        "    constexpr int64_t per_repeat = 256 / sizeof(T);\n"
        "    const AscendC::CopyRepeatParams contiguous(1, 1, 8, 8);\n"
        "    int64_t done = 0;\n"
        "    while (count - done >= per_repeat) {\n"
        "        int64_t repeats = (count - done) / per_repeat;\n"
        "        repeats = repeats > 255 ? 255 : repeats;\n"
        "        AscendC::Copy(dst[done], src[done], (uint64_t)per_repeat, (uint8_t)repeats,\n"
        "                      contiguous);\n"
        "        done += repeats * per_repeat;\n"
        "    }\n"
        "    if (done < count) {\n"
        "        AscendC::Copy(dst[done], src[done], (uint64_t)(count - done), 1, contiguous);\n"
        "    }\n"
        "}\n",
};

asc_status ac_fail(ac_emitter *e, const ir_op *op, asc_status st, const char *fmt, ...) {
  if (e->st) return e->st;
  char text[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(text, sizeof text, fmt, ap);
  va_end(ap);
  if (op)
    e->st = asc_error(st, "line %u: %s", op->loc.line, text);
  else
    e->st = asc_error(st, "%s", text);
  return e->st;
}

/* --- analysis ------------------------------------------------------------------ */

static void collect(ac_emitter *e, const ir_region *r, const ir_region *scope);

static void add_site(ac_emitter *e, const ir_op *op, const ir_region *scope) {
  if (e->nsites == e->cap) {
    long cap = e->cap ? e->cap * 2 : 64;
    ac_site *grown = realloc(e->sites, (size_t)cap * sizeof *grown);
    if (!grown) {
      ac_fail(e, NULL, ASC_ERR_OUT_OF_MEMORY, "out of memory emitting Ascend C");
      return;
    }
    e->sites = grown;
    e->cap = cap;
  }
  long i = e->nsites++;
  ac_site *s = &e->sites[i];
  memset(s, 0, sizeof *s);
  s->op = op;
  s->scope = scope;
  s->pos = i;
  if (op->code >= IR_FIRST_TABLE_OP) {
    s->map = ac_find_mapping(op->code);
    if (!s->map)
      ac_fail(e, op, ASC_ERR_UNSUPPORTED,
              "%s has no Ascend C mapping (fill in its Ascend C columns in "
              "src/compiler/api_table.def)",
              ir_op_defs[op->code].name);
    else if (s->map->dtypes && op->noperands &&
             !(s->map->dtypes & (1u << ac_type_of(e, op->operands[0]).dtype)))
      ac_fail(e, op, ASC_ERR_UNSUPPORTED, "%s: Ascend C has no form for %s tensors",
              ir_op_defs[op->code].name,
              asc_dtype_name((asc_dtype)ac_type_of(e, op->operands[0]).dtype));
  }
  if (op->result) e->values[op->result].def = i;
  bool loop = op->code == IR_FOR || op->code == IR_WHILE;
  for (int j = 0; j < op->nregions && !e->st; j++) {
    collect(e, op->regions[j], loop ? op->regions[j] : scope);
    if (op->code == IR_WHILE && j == 0) e->sites[i].cond_end = e->nsites - 1;
  }
  e->sites[i].end = e->nsites - 1;
}

static void collect(ac_emitter *e, const ir_region *r, const ir_region *scope) {
  for (int i = 0; r && i < r->n && !e->st; i++)
    if (!r->ops[i]->dead) add_site(e, r->ops[i], scope);
}

/* Records that v is used, at or through site s, before position end. */
static void note_use(ac_emitter *e, uint32_t v, long end, const ir_region *scope, bool foreign,
                     bool pin) {
  ac_value *av = &e->values[v];
  av->nuses++;
  if (end > av->use_end) av->use_end = end;
  if (foreign || av->def < 0 || e->sites[av->def].scope != scope) av->foreign = true;
  if (pin) av->pinned = true;
}

static bool stored_between(const ac_emitter *e, uint32_t var, long lo, long hi) {
  for (long i = lo + 1; i < hi && i < e->nsites; i++) {
    const ir_op *op = e->sites[i].op;
    if (op->code == IR_STORE && op->operands[0] == var) return true;
  }
  return false;
}

/* Whether v is written into its use. Its users come later in program
 * order, so walking backwards decides them first. */
static bool fold(const ac_emitter *e, const ac_site *s, uint32_t v) {
  const ir_op *op = s->op;
  const ac_value *av = &e->values[v];
  if (op->code >= IR_CONST_INT && op->code <= IR_CONST_BOOL) return true;
  if (av->nuses == 0 || av->foreign) return false;
  /* a read of a variable is the variable, whatever Python name it is bound to */
  if (op->code == IR_LOAD) return !stored_between(e, op->operands[0], s->pos, av->use_end);
  if (e->m->values[v].name) return false;
  return s->map && (s->map->flags & AC_PURE) && !(s->map->flags & AC_STATEMENT) && av->nuses == 1 &&
         !av->pinned;
}

static void analyse(ac_emitter *e) {
  for (long i = 0; i < e->nsites; i++) {
    const ir_op *op = e->sites[i].op;
    if (op->code == IR_WHILE) /* the condition is read after its region */
      note_use(e, op->operands[0], e->sites[i].cond_end + 1, op->regions[0], false, false);
  }
  for (long i = e->nsites - 1; i >= 0; i--) {
    const ac_site *s = &e->sites[i];
    const ir_op *op = s->op;
    if (op->result && op->code != IR_VAR && op->code != IR_FOR)
      e->values[op->result].folded = fold(e, s, op->result);
    if (op->code == IR_LOAD || op->code == IR_WHILE || op->code == IR_VAR) continue;
    const ac_value *r = op->result && op->code != IR_FOR ? &e->values[op->result] : NULL;
    bool folded = r && r->folded;
    bool pin = s->map && (s->map->flags & AC_KEEP_OPERANDS);
    /* a for loop with a run-time step writes its stop and step more than once */
    bool loop_pin = op->code == IR_FOR && !ac_known_step(e, op->operands[2]);
    for (int j = op->code == IR_STORE ? 1 : 0; j < op->noperands; j++) {
      long end = folded ? r->use_end : op->code == IR_FOR ? s->end + 1 : s->pos;
      note_use(e, op->operands[j], end, s->scope, folded && r->foreign, pin || (loop_pin && j));
    }
  }
}

/* A for loop whose variable nothing else assigns, and that is only read
 * inside the loop, uses the loop's own variable: `for (int64_t i = ...)`. */
static void fuse_loop_vars(ac_emitter *e) {
  for (long i = 0; i < e->nsites; i++) {
    const ac_site *s = &e->sites[i];
    const ir_op *op = s->op;
    if (op->code != IR_FOR || !op->regions[0] || !op->regions[0]->n) continue;
    const ir_op *first = op->regions[0]->ops[0];
    if (first->code != IR_STORE || first->operands[1] != op->result) continue;
    uint32_t var = first->operands[0];
    bool alone = true;
    for (long j = 0; j < e->nsites && alone; j++) {
      const ir_op *o = e->sites[j].op;
      if (o->code == IR_STORE && o->operands[0] == var && o != first) alone = false;
      if (o->code == IR_LOAD && o->operands[0] == var && (j <= s->pos || j > s->end)) alone = false;
    }
    if (!alone) continue;
    e->values[var].loop = op->result;
  }
}

static void name_values(ac_emitter *e) {
  const asc_ir_module *m = e->m;
  for (int i = 0; i < m->nparams; i++) ac_give_name(e, m->params[i], m->values[m->params[i]].name);
  for (long i = 0; i < e->nsites && !e->st; i++) {
    const ir_op *op = e->sites[i].op;
    uint32_t r = op->result;
    if (!r || e->values[r].folded || e->values[r].name) continue;
    if (op->code == IR_VAR && e->values[r].loop) {
      /* the loop's induction value takes the variable's name */
      uint32_t iv = e->values[r].loop;
      ac_give_name(e, iv, m->values[r].name);
      if (!e->st) e->values[r].name = strdup(e->values[iv].name);
      if (!e->values[r].name)
        ac_fail(e, NULL, ASC_ERR_OUT_OF_MEMORY, "out of memory naming values");
    } else if (!(op->code >= IR_CONST_INT && op->code <= IR_CONST_BOOL)) {
      ac_give_name(e, r, m->values[r].name);
    }
  }
}

/* --- statements ------------------------------------------------------------------ */

static void emit_region(ac_emitter *e, const ir_region *r);

static void statement(ac_emitter *e, const ir_op *op) {
  const ac_op *map = ac_find_mapping(op->code);
  if (map->flags & AC_STATEMENT) {
    map->special(e, op, e->out);
    return;
  }
  if (map->flags & AC_OBJECT) {
    ac_line_start(e);
    if (map->text && (!strncmp(map->text, "AscendC::TBufPool<", 18) ||
                      !strncmp(map->text, "AscendC::TQueBind<", 18))) {
      /* template arguments its IR type (a pipe's, a TQue's) does not hold */
      ac_expand(e, op, map->text, e->out);
      ir_buf_printf(e->out, " %s;\n", e->values[op->result].name);
      return;
    }
    ac_print_decl(e, e->out, op->result);
    ir_buf_printf(e->out, ";\n");
    return;
  }
  ir_buf text = {0};
  ac_expr_of(e, op, &text);
  if (text.failed) e->out->failed = true;
  const char *expr = text.data ? text.data : "";
  ac_line_start(e);
  if (op->result) {
    /* T x = T(args) reads better as T x(args). */
    ir_buf type = {0};
    ac_print_type(&type, ac_type_of(e, op->result));
    size_t n = type.len;
    bool ctor = type.data && !strncmp(expr, type.data, n) && expr[n] == '(';
    if (op->code == IR_OP_PIPE_GET) /* the core's TPipe itself: TPipe is not copyable */
      ir_buf_printf(e->out, "AscendC::TPipe &%s", e->values[op->result].name);
    else
      ac_print_decl(e, e->out, op->result);
    ir_buf_printf(e->out, ctor ? "%s;\n" : " = %s;\n", ctor ? expr + n : expr);
    free(type.data);
  } else {
    ir_buf_printf(e->out, "%s;\n", expr);
  }
  free(text.data);
}

static void declare_var(ac_emitter *e, const ir_op *op) {
  uint32_t v = op->result;
  asc_ir_type t = ac_type_of(e, v);
  if (e->values[v].loop) return; /* the for loop declares it */
  if (t.kind == ASC_IR_PIPE || t.kind == ASC_IR_QUE || t.kind == ASC_IR_TBUF) {
    ac_fail(e, op, ASC_ERR_UNSUPPORTED,
            "variable '%s' holds a %s, and Ascend C objects cannot be reassigned: create it once, "
            "outside loops and branches",
            e->m->values[v].name, ir_kind_name((asc_ir_kind)t.kind));
    return;
  }
  ac_line_start(e);
  ac_print_decl(e, e->out, v);
  const char *init = t.kind == ASC_IR_INT     ? " = 0"
                     : t.kind == ASC_IR_FLOAT ? " = 0.0f"
                     : t.kind == ASC_IR_BOOL  ? " = false"
                     : t.kind == ASC_IR_ADDR  ? " = nullptr"
                                              : "";
  ir_buf_printf(e->out, "%s;\n", init);
}

static bool emits(const ac_emitter *e, const ir_op *op);

static bool region_emits(const ac_emitter *e, const ir_region *r) {
  for (int i = 0; r && i < r->n; i++)
    if (emits(e, r->ops[i])) return true;
  return false;
}

static bool emits(const ac_emitter *e, const ir_op *op) {
  if (op->dead || (op->code >= IR_CONST_INT && op->code <= IR_CONST_BOOL)) return false;
  if (op->code == IR_VAR) return !e->values[op->result].loop;
  if (op->code == IR_STORE) return !e->values[op->operands[0]].loop;
  if (op->result && op->code != IR_FOR && e->values[op->result].folded) return false;
  return true;
}

static void emit_for(ac_emitter *e, const ir_op *op) {
  uint32_t iv = op->result, step = op->operands[2];
  const char *name = e->values[iv].name;
  const ir_op *sd = ac_def_op(e, step);
  bool known = ac_known_step(e, step);
  if (!known) {
    ac_line_start(e);
    ir_buf_printf(e->out, "if (");
    ac_operand(e, step, P_EQ - 1, e->out);
    ir_buf_printf(e->out, " == 0) {\n");
    e->depth++;
    ac_line_start(e);
    ir_buf_printf(e->out, "AscendC::Trap();  // range() step must not be zero\n");
    e->depth--;
    ac_line_start(e);
    ir_buf_printf(e->out, "}\n");
  }
  ac_line_start(e);
  ir_buf_printf(e->out, "for (int64_t %s = ", name);
  ac_operand(e, op->operands[0], P_ANY, e->out);
  ir_buf_printf(e->out, "; ");
  if (known) {
    ir_buf_printf(e->out, "%s %c ", name, sd->ival > 0 ? '<' : '>');
    ac_operand(e, op->operands[1], 8, e->out);
    if (sd->ival == 1)
      ir_buf_printf(e->out, "; ++%s) {\n", name);
    else if (sd->ival == -1)
      ir_buf_printf(e->out, "; --%s) {\n", name);
    else if (sd->ival > 0)
      ir_buf_printf(e->out, "; %s += %lld) {\n", name, (long long)sd->ival);
    else
      ir_buf_printf(e->out, "; %s -= %llu) {\n", name, 0ULL - (unsigned long long)sd->ival);
  } else {
    ac_operand(e, step, 8, e->out);
    ir_buf_printf(e->out, " > 0 ? %s < ", name);
    ac_operand(e, op->operands[1], 8, e->out);
    ir_buf_printf(e->out, " : %s > ", name);
    ac_operand(e, op->operands[1], 8, e->out);
    ir_buf_printf(e->out, "; %s += ", name);
    ac_operand(e, step, P_ANY, e->out);
    ir_buf_printf(e->out, ") {\n");
  }
  emit_region(e, op->regions[0]);
  ac_line_start(e);
  ir_buf_printf(e->out, "}\n");
}

static void emit_while(ac_emitter *e, const ir_op *op) {
  ac_line_start(e);
  if (!region_emits(e, op->regions[0])) {
    ir_buf_printf(e->out, "while (");
    ac_operand(e, op->operands[0], P_ANY, e->out);
    ir_buf_printf(e->out, ") {\n");
  } else {
    /* the condition needs statements of its own */
    ir_buf_printf(e->out, "while (true) {\n");
    emit_region(e, op->regions[0]);
    e->depth++;
    ac_line_start(e);
    ir_buf_printf(e->out, "if (!");
    ac_operand(e, op->operands[0], P_UNARY, e->out);
    ir_buf_printf(e->out, ") {\n");
    e->depth++;
    ac_line_start(e);
    ir_buf_printf(e->out, "break;\n");
    e->depth--;
    ac_line_start(e);
    ir_buf_printf(e->out, "}\n");
    e->depth--;
  }
  emit_region(e, op->regions[1]);
  ac_line_start(e);
  ir_buf_printf(e->out, "}\n");
}

static void emit_if(ac_emitter *e, const ir_op *op) {
  ac_line_start(e);
  ir_buf_printf(e->out, "if (");
  ac_operand(e, op->operands[0], P_ANY, e->out);
  ir_buf_printf(e->out, ") {\n");
  emit_region(e, op->regions[0]);
  if (op->nregions > 1 && region_emits(e, op->regions[1])) {
    ac_line_start(e);
    ir_buf_printf(e->out, "} else {\n");
    emit_region(e, op->regions[1]);
  }
  ac_line_start(e);
  ir_buf_printf(e->out, "}\n");
}

/* x = v, or x += d for x = x + d (also -= and *=). */
static void emit_store(ac_emitter *e, const ir_op *op) {
  uint32_t var = op->operands[0], v = op->operands[1];
  const ir_op *d = ac_def_op(e, v);
  int code = d ? d->code : -1;
  const char *sym = code == IR_OP_ARITH_ADD   ? "+="
                    : code == IR_OP_ARITH_SUB ? "-="
                    : code == IR_OP_ARITH_MUL ? "*="
                                              : NULL;
  const ir_op *lhs = sym && e->values[v].folded ? ac_def_op(e, d->operands[0]) : NULL;
  ac_line_start(e);
  if (lhs && lhs->code == IR_LOAD && lhs->operands[0] == var && e->values[d->operands[0]].folded) {
    ir_buf_printf(e->out, "%s %s ", e->values[var].name, sym);
    ac_operand(e, d->operands[1], P_ANY, e->out);
  } else {
    ir_buf_printf(e->out, "%s = ", e->values[var].name);
    ac_operand(e, v, P_ANY, e->out);
  }
  ir_buf_printf(e->out, ";\n");
}

static void emit_op(ac_emitter *e, const ir_op *op) {
  if (e->st || !emits(e, op)) return;
  switch (op->code) {
    case IR_VAR:
      declare_var(e, op);
      return;
    case IR_LOAD:
      ac_line_start(e);
      ac_print_decl(e, e->out, op->result);
      ir_buf_printf(e->out, " = %s;\n", e->values[op->operands[0]].name);
      return;
    case IR_STORE:
      emit_store(e, op);
      return;
    case IR_FOR:
      emit_for(e, op);
      return;
    case IR_WHILE:
      emit_while(e, op);
      return;
    case IR_IF:
      emit_if(e, op);
      return;
    default:
      statement(e, op);
  }
}

static void emit_region(ac_emitter *e, const ir_region *r) {
  e->depth++;
  for (int i = 0; r && i < r->n && !e->st; i++) emit_op(e, r->ops[i]);
  e->depth--;
}

/* --- the file ------------------------------------------------------------------- */

static const char *base_name(const char *path) {
  const char *slash = strrchr(path, '/');
  return slash ? slash + 1 : path;
}

static void release(ac_emitter *e) {
  if (e->values)
    for (uint32_t v = 1; v < e->m->nvalues; v++) free(e->values[v].name);
  free(e->values);
  free(e->sites);
  free(e->kernel_name);
}

asc_status asc_ir_emit_ascendc(const asc_ir_module *m, char **out) {
  asc_status ready = ir_ready(m, "emit_ascendc");
  if (ready) return ready;
  ac_emitter e = {0};
  e.m = m;
  e.values = calloc(m->nvalues, sizeof *e.values);
  e.kernel_name = strdup(m->name);
  if (!e.values || !e.kernel_name) {
    release(&e);
    return asc_error(ASC_ERR_OUT_OF_MEMORY, "out of memory emitting Ascend C");
  }
  for (uint32_t v = 0; v < m->nvalues; v++) e.values[v].def = -1;
  if (!ac_is_identifier(m->name) || ac_reserved_word(m->name) || ac_helper_name(m->name))
    ac_fail(&e, NULL, ASC_ERR_UNSUPPORTED,
            "kernel name '%s' cannot name an Ascend C kernel (a C++ keyword or reserved name)",
            m->name);
  if (!e.st) collect(&e, m->body, m->body);
  if (!e.st) {
    fuse_loop_vars(&e);
    analyse(&e);
    name_values(&e);
  }
  ir_buf body = {0}, file = {0};
  e.out = &body;
  if (!e.st) emit_region(&e, m->body);
  if (!e.st) {
    /* The file name is the user's: only its [A-Za-z0-9_] form enters a comment
     * (a backslash or `??/` at a line's end would continue it). */
    ir_buf_printf(&file, "// Ascend C source of kernel %s, generated by pyasc from ", m->name);
    ir_buf_safe_name(&file, base_name(m->file), 128, ".-");
    ir_buf_printf(&file, ".\n");
    ir_buf_printf(&file, "#include \"kernel_operator.h\"\n\n");
    /* guarded: an operator's fused kernels are joined into one text (op.ascendc) */
    for (int h = 0; h < H_COUNT; h++)
      if (e.helpers[h])
        ir_buf_printf(&file, "#ifndef PYASC_HELPER_%s\n#define PYASC_HELPER_%s\n%s#endif\n\n",
                      ac_helper_names[h], ac_helper_names[h], helper_source[h]);
    ac_structs *structs = calloc(1, sizeof *structs);
    if (!structs) ac_fail(&e, NULL, ASC_ERR_OUT_OF_MEMORY, "out of memory emitting Ascend C");
    if (!e.st) ac_collect_structs(&e, structs);
    for (int i = 0; !e.st && i < structs->nstructs; i++) ac_emit_struct_def(&e, &file, structs, i);
    if (!e.st) ac_emit_signature(&e, &file, structs);
    if (!e.st) ac_emit_struct_prologue(&e, &file, structs);
    free(structs);
    ir_buf_printf(&file, "%.*s}\n", (int)body.len, body.data ? body.data : "");
  }
  asc_status st = e.st;
  if (!st && (body.failed || file.failed))
    st = asc_error(ASC_ERR_OUT_OF_MEMORY, "out of memory writing Ascend C");
  release(&e);
  free(body.data);
  if (st) {
    free(file.data);
    return st;
  }
  return ir_buf_finish(&file, out);
}
