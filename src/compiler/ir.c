/* IR modules and the builder. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ir_internal.h"

static char *dup_str(const char *s) {
  if (!s) return NULL;
  size_t n = strlen(s) + 1;
  char *copy = malloc(n);
  if (copy) memcpy(copy, s, n);
  return copy;
}

static ir_region *new_region(void) {
  return calloc(1, sizeof(ir_region));
}

static void free_region(ir_region *r);

static void free_op(ir_op *op) {
  for (int i = 0; i < op->nregions; i++) free_region(op->regions[i]);
  free(op->sattr);
  free(op);
}

static void free_region(ir_region *r) {
  if (!r) return;
  for (int i = 0; i < r->n; i++) free_op(r->ops[i]);
  free(r->ops);
  free(r);
}

asc_status asc_ir_new(const char *name, const char *file, asc_ir_module **out) {
  asc_ir_module *m = calloc(1, sizeof *m);
  if (!m) return asc_error(ASC_ERR_OUT_OF_MEMORY, "cannot allocate an IR module");
  m->name = dup_str(name ? name : "kernel");
  m->file = dup_str(file ? file : "<unknown>");
  m->body = new_region();
  m->values = calloc(64, sizeof *m->values);
  m->cap_values = 64;
  m->nvalues = 1;
  if (!m->name || !m->file || !m->body || !m->values) {
    asc_ir_free(m);
    return asc_error(ASC_ERR_OUT_OF_MEMORY, "cannot allocate an IR module");
  }
  m->stack[0] = m->body;
  m->depth = 1;
  *out = m;
  return ASC_OK;
}

void asc_ir_free(asc_ir_module *m) {
  if (!m) return;
  free_region(m->body);
  for (uint32_t i = 1; i < m->nvalues; i++) {
    free(m->values[i].name);
    free(m->values[i].member);
  }
  free(m->values);
  for (uint32_t i = 0; i < m->nfiles; i++) free(m->files[i]);
  free(m->files);
  free(m->name);
  free(m->file);
  free(m);
}

asc_status asc_ir_file_index(asc_ir_module *m, const char *file, uint32_t *out) {
  if (!file || !strcmp(file, m->file)) {
    *out = 0;
    return ASC_OK;
  }
  for (uint32_t i = 0; i < m->nfiles; i++)
    if (!strcmp(m->files[i], file)) {
      *out = i + 1;
      return ASC_OK;
    }
  if (m->nfiles + 1 >= ASC_IR_MAX_FILES)
    return asc_error(ASC_ERR_COMPILE, "a kernel may draw on at most %d source files",
                     ASC_IR_MAX_FILES - 1);
  char **grown = realloc(m->files, (m->nfiles + 1) * sizeof *grown);
  char *copy = dup_str(file);
  if (grown) m->files = grown;
  if (!grown || !copy) {
    free(copy);
    return asc_error(ASC_ERR_OUT_OF_MEMORY, "cannot grow the file table");
  }
  m->files[m->nfiles++] = copy;
  *out = m->nfiles;
  return ASC_OK;
}

const char *ir_file_name(const asc_ir_module *m, uint32_t encoded_line) {
  uint32_t index = ASC_IR_FILE(encoded_line);
  return index == 0 || index > m->nfiles ? m->file : m->files[index - 1];
}

void asc_ir_set_loc(asc_ir_module *m, asc_ir_loc loc) {
  m->loc = loc;
}

asc_status asc_ir_set_name(asc_ir_module *m, uint32_t value, const char *name) {
  if (!value || value >= m->nvalues || !name)
    return asc_error(ASC_ERR_INTERNAL, "set_name: value %%%u does not exist", value);
  if (m->values[value].name) return ASC_OK;
  m->values[value].name = dup_str(name);
  return m->values[value].name ? ASC_OK : asc_error(ASC_ERR_OUT_OF_MEMORY, "out of memory");
}

asc_status asc_ir_set_member(asc_ir_module *m, uint32_t param, const char *path) {
  bool is_param = false;
  for (int i = 0; i < m->nparams; i++) is_param |= m->params[i] == param;
  if (!is_param || !path)
    return asc_error(ASC_ERR_INTERNAL, "set_member: %%%u is not a parameter", param);
  char *copy = dup_str(path);
  if (!copy) return asc_error(ASC_ERR_OUT_OF_MEMORY, "out of memory");
  free(m->values[param].member);
  m->values[param].member = copy;
  return ASC_OK;
}

asc_ir_type asc_ir_type_of(const asc_ir_module *m, uint32_t value) {
  asc_ir_type none = {ASC_IR_VOID, 0, 0, 0};
  return value && value < m->nvalues ? m->values[value].type : none;
}

static asc_status new_value(asc_ir_module *m, asc_ir_type type, const char *name, ir_op *def,
                            uint32_t *out) {
  if (m->nvalues == m->cap_values) {
    uint32_t cap = m->cap_values * 2;
    ir_value *grown = realloc(m->values, cap * sizeof *grown);
    if (!grown) return asc_error(ASC_ERR_OUT_OF_MEMORY, "cannot grow the IR value table");
    m->values = grown;
    m->cap_values = cap;
  }
  ir_value *v = &m->values[m->nvalues];
  v->type = type;
  v->name = dup_str(name);
  v->member = NULL;
  v->def = def;
  *out = m->nvalues++;
  return ASC_OK;
}

asc_status ir_new_value(asc_ir_module *m, asc_ir_type type, ir_op *def, uint32_t *out) {
  return new_value(m, type, NULL, def, out);
}

static asc_status building(const asc_ir_module *m) {
  if (m->finished) return asc_error(ASC_ERR_INTERNAL, "the IR function is already finished");
  return ASC_OK;
}

static asc_status append(asc_ir_module *m, ir_op *op) {
  ir_region *r = m->stack[m->depth - 1];
  if (r->n == r->cap) {
    int cap = r->cap ? r->cap * 2 : 16;
    ir_op **grown = realloc(r->ops, (size_t)cap * sizeof *grown);
    if (!grown) return asc_error(ASC_ERR_OUT_OF_MEMORY, "cannot grow an IR region");
    r->ops = grown;
    r->cap = cap;
  }
  r->ops[r->n++] = op;
  return ASC_OK;
}

static ir_op *new_op(const asc_ir_module *m, int code) {
  ir_op *op = calloc(1, sizeof *op);
  if (op) {
    op->code = code;
    op->loc = m->loc;
  }
  return op;
}

/* Appends op and, for a result type other than VOID, gives it a value. */
static asc_status add_op(asc_ir_module *m, ir_op *op, asc_ir_type result, uint32_t *out) {
  asc_status st = building(m);
  if (!st && result.kind != ASC_IR_VOID) st = new_value(m, result, NULL, op, &op->result);
  if (!st) st = append(m, op);
  if (st) {
    free_op(op);
    return st;
  }
  if (out) *out = op->result;
  return ASC_OK;
}

/* A type the passes and emitters can handle: every field in its range. */
static asc_status check_type(asc_ir_type t, const char *what, const char *name) {
  if (t.kind == ASC_IR_VOID || t.kind >= ASC_IR_KIND_COUNT || !ir_kernel_dtype((int)t.dtype) ||
      t.position >= ASC_POS_COUNT || (t.kind == ASC_IR_QUE && t.depth > 8))
    return asc_error(ASC_ERR_COMPILE, "%s '%s' has an invalid type", what, name ? name : "?");
  return ASC_OK;
}

asc_status asc_ir_param(asc_ir_module *m, const char *name, asc_ir_type type, uint32_t *out) {
  if (m->nparams == 64) return asc_error(ASC_ERR_COMPILE, "a kernel takes at most 64 parameters");
  asc_status st = building(m);
  if (!st) st = check_type(type, "parameter", name);
  if (!st && type.kind != ASC_IR_BOOL && type.kind != ASC_IR_INT && type.kind != ASC_IR_FLOAT &&
      type.kind != ASC_IR_ADDR)
    st = asc_error(ASC_ERR_COMPILE, "parameter '%s' must be a scalar or a GlobalAddress",
                   name ? name : "?");
  if (!st) st = new_value(m, type, name, NULL, out);
  if (!st) m->params[m->nparams++] = *out;
  return st;
}

static asc_status add_const(asc_ir_module *m, int code, asc_ir_kind kind, int64_t i, double f,
                            uint32_t *out) {
  ir_op *op = new_op(m, code);
  if (!op) return asc_error(ASC_ERR_OUT_OF_MEMORY, "cannot allocate an IR op");
  op->ival = i;
  op->fval = f;
  asc_ir_type t = {kind, 0, 0, 0};
  return add_op(m, op, t, out);
}

asc_status asc_ir_const_int(asc_ir_module *m, int64_t v, uint32_t *out) {
  return add_const(m, IR_CONST_INT, ASC_IR_INT, v, 0, out);
}

asc_status asc_ir_const_float(asc_ir_module *m, double v, uint32_t *out) {
  return add_const(m, IR_CONST_FLOAT, ASC_IR_FLOAT, 0, v, out);
}

asc_status asc_ir_const_bool(asc_ir_module *m, bool v, uint32_t *out) {
  return add_const(m, IR_CONST_BOOL, ASC_IR_BOOL, v, 0, out);
}

static asc_status check_value(const asc_ir_module *m, uint32_t v, const char *what) {
  if (!v || v >= m->nvalues)
    return asc_error(ASC_ERR_INTERNAL, "%s: value %%%u does not exist", what, v);
  return ASC_OK;
}

asc_status asc_ir_var(asc_ir_module *m, const char *name, asc_ir_type type, uint32_t *out) {
  if (type.kind == ASC_IR_VOID)
    return asc_error(ASC_ERR_COMPILE, "variable '%s' has no type", name);
  asc_status checked = check_type(type, "variable", name);
  if (checked) return checked;
  ir_op *op = new_op(m, IR_VAR);
  if (!op) return asc_error(ASC_ERR_OUT_OF_MEMORY, "cannot allocate an IR op");
  /* Variables live for the whole function: declare them at its top. */
  asc_status st = building(m);
  if (!st) st = new_value(m, type, name, op, &op->result);
  if (st) {
    free_op(op);
    return st;
  }
  ir_region *saved = m->stack[m->depth - 1];
  m->stack[m->depth - 1] = m->body;
  st = append(m, op);
  m->stack[m->depth - 1] = saved;
  if (st) {
    free_op(op);
    return st;
  }
  /* Keep declarations ahead of everything else in the body. */
  ir_region *body = m->body;
  int pos = 0;
  while (pos < body->n - 1 && body->ops[pos]->code == IR_VAR) pos++;
  memmove(&body->ops[pos + 1], &body->ops[pos], (size_t)(body->n - 1 - pos) * sizeof(ir_op *));
  body->ops[pos] = op;
  *out = op->result;
  return ASC_OK;
}

static bool is_var(const asc_ir_module *m, uint32_t v) {
  return v && v < m->nvalues && m->values[v].def && m->values[v].def->code == IR_VAR;
}

asc_status asc_ir_load(asc_ir_module *m, uint32_t var, uint32_t *out) {
  if (!is_var(m, var)) return asc_error(ASC_ERR_INTERNAL, "load: %%%u is not a variable", var);
  ir_op *op = new_op(m, IR_LOAD);
  if (!op) return asc_error(ASC_ERR_OUT_OF_MEMORY, "cannot allocate an IR op");
  op->operands[0] = var;
  op->noperands = 1;
  return add_op(m, op, m->values[var].type, out);
}

static bool same_type(asc_ir_type a, asc_ir_type b) {
  if (a.kind != b.kind) return false;
  switch (a.kind) {
    case ASC_IR_ADDR:
    case ASC_IR_GLOBAL:
      return a.dtype == b.dtype;
    case ASC_IR_LOCAL:
      return a.dtype == b.dtype && a.position == b.position;
    case ASC_IR_QUE:
      return a.position == b.position && a.depth == b.depth;
    case ASC_IR_TBUF:
      return a.position == b.position;
    default:
      return true;
  }
}

asc_status asc_ir_store(asc_ir_module *m, uint32_t var, uint32_t value) {
  if (!is_var(m, var)) return asc_error(ASC_ERR_INTERNAL, "store: %%%u is not a variable", var);
  asc_status st = check_value(m, value, "store");
  if (st) return st;
  asc_ir_type vt = m->values[var].type, t = m->values[value].type;
  bool numeric = (vt.kind == ASC_IR_FLOAT && (t.kind == ASC_IR_INT || t.kind == ASC_IR_BOOL)) ||
                 (vt.kind == ASC_IR_INT && t.kind == ASC_IR_BOOL);
  bool typed = vt.kind == ASC_IR_ADDR || vt.kind == ASC_IR_GLOBAL || vt.kind == ASC_IR_LOCAL;
  if (!same_type(vt, t) && !numeric && typed && vt.kind == t.kind && vt.dtype != t.dtype)
    return asc_error(ASC_ERR_COMPILE, "'%s' holds a %s %s and cannot be assigned a %s %s",
                     m->values[var].name, asc_dtype_name((asc_dtype)vt.dtype),
                     ir_kind_name(vt.kind), asc_dtype_name((asc_dtype)t.dtype),
                     ir_kind_name(t.kind));
  if (!same_type(vt, t) && !numeric)
    return asc_error(ASC_ERR_COMPILE, "'%s' holds a %s and cannot be assigned a %s",
                     m->values[var].name, ir_kind_name(vt.kind), ir_kind_name(t.kind));
  ir_op *op = new_op(m, IR_STORE);
  if (!op) return asc_error(ASC_ERR_OUT_OF_MEMORY, "cannot allocate an IR op");
  op->operands[0] = var;
  op->operands[1] = value;
  op->noperands = 2;
  asc_ir_type none = {ASC_IR_VOID, 0, 0, 0};
  return add_op(m, op, none, NULL);
}

asc_status asc_ir_op(asc_ir_module *m, const char *name, int noperands, const uint32_t *operands,
                     int niattrs, const int64_t *iattrs, const char *sattr, uint32_t *out) {
  int code = ir_find_op(name);
  if (code < IR_FIRST_TABLE_OP) return asc_error(ASC_ERR_COMPILE, "unknown operation '%s'", name);
  if (noperands < 0 || noperands > IR_MAX_OPERANDS || niattrs < 0 || niattrs > IR_MAX_IATTRS)
    return asc_error(ASC_ERR_COMPILE, "%s: too many arguments", name);
  for (int i = 0; i < noperands; i++) {
    asc_status st = check_value(m, operands[i], name);
    if (st) return st;
  }
  ir_op *op = new_op(m, code);
  if (!op) return asc_error(ASC_ERR_OUT_OF_MEMORY, "cannot allocate an IR op");
  memcpy(op->operands, operands, (size_t)noperands * sizeof *operands);
  op->noperands = noperands;
  if (niattrs) memcpy(op->iattrs, iattrs, (size_t)niattrs * sizeof *iattrs);
  op->niattrs = niattrs;
  op->sattr = dup_str(sattr);
  asc_ir_type result;
  asc_status st = (sattr && !op->sattr) ? asc_error(ASC_ERR_OUT_OF_MEMORY, "out of memory")
                                        : ir_check_op(m, op, &result);
  if (st) {
    free_op(op);
    return st;
  }
  if (out) *out = 0;
  return add_op(m, op, result, out);
}

/* Opens the n-th region of op (already appended) for building. */
static asc_status push_region(asc_ir_module *m, ir_op *op, int index) {
  if (m->depth == IR_MAX_DEPTH) return asc_error(ASC_ERR_COMPILE, "control flow nested too deeply");
  ir_region *r = new_region();
  if (!r) return asc_error(ASC_ERR_OUT_OF_MEMORY, "cannot allocate an IR region");
  op->regions[index] = r;
  if (op->nregions <= index) op->nregions = index + 1;
  m->owners[m->depth] = op;
  m->stack[m->depth++] = r;
  return ASC_OK;
}

static ir_op *open_owner(const asc_ir_module *m, int code) {
  if (m->depth < 2) return NULL;
  ir_op *op = m->owners[m->depth - 1];
  return op && op->code == code ? op : NULL;
}

static asc_status expect_kind(const asc_ir_module *m, uint32_t v, asc_ir_kind kind,
                              const char *what) {
  asc_status st = check_value(m, v, what);
  if (st) return st;
  asc_ir_kind k = m->values[v].type.kind;
  if (k == kind || (kind == ASC_IR_INT && k == ASC_IR_BOOL) ||
      (kind == ASC_IR_BOOL && k == ASC_IR_INT))
    return ASC_OK;
  return asc_error(ASC_ERR_COMPILE, "%s must be %s, not %s", what, ir_kind_name(kind),
                   ir_kind_name(k));
}

asc_status asc_ir_for_begin(asc_ir_module *m, uint32_t start, uint32_t stop, uint32_t step,
                            uint32_t *induction) {
  asc_status st = expect_kind(m, start, ASC_IR_INT, "range() start");
  if (!st) st = expect_kind(m, stop, ASC_IR_INT, "range() stop");
  if (!st) st = expect_kind(m, step, ASC_IR_INT, "range() step");
  if (st) return st;
  ir_op *op = new_op(m, IR_FOR);
  if (!op) return asc_error(ASC_ERR_OUT_OF_MEMORY, "cannot allocate an IR op");
  op->operands[0] = start;
  op->operands[1] = stop;
  op->operands[2] = step;
  op->noperands = 3;
  asc_ir_type none = {ASC_IR_VOID, 0, 0, 0}, i64 = {ASC_IR_INT, 0, 0, 0};
  st = add_op(m, op, none, NULL);
  if (!st) st = new_value(m, i64, NULL, NULL, &op->result); /* the induction variable */
  if (!st) st = push_region(m, op, 0);
  if (!st) *induction = op->result;
  return st;
}

asc_status asc_ir_for_end(asc_ir_module *m) {
  if (!open_owner(m, IR_FOR)) return asc_error(ASC_ERR_INTERNAL, "for_end without for_begin");
  m->depth--;
  return ASC_OK;
}

asc_status asc_ir_while_begin(asc_ir_module *m) {
  ir_op *op = new_op(m, IR_WHILE);
  if (!op) return asc_error(ASC_ERR_OUT_OF_MEMORY, "cannot allocate an IR op");
  asc_ir_type none = {ASC_IR_VOID, 0, 0, 0};
  asc_status st = add_op(m, op, none, NULL);
  return st ? st : push_region(m, op, 0);
}

asc_status asc_ir_while_body(asc_ir_module *m, uint32_t condition) {
  ir_op *op = open_owner(m, IR_WHILE);
  if (!op || op->nregions != 1) return asc_error(ASC_ERR_INTERNAL, "while_body out of place");
  asc_status st = expect_kind(m, condition, ASC_IR_BOOL, "a while condition");
  if (st) return st;
  op->operands[0] = condition;
  op->noperands = 1;
  m->depth--;
  return push_region(m, op, 1);
}

asc_status asc_ir_while_end(asc_ir_module *m) {
  ir_op *op = open_owner(m, IR_WHILE);
  if (!op || op->nregions != 2) return asc_error(ASC_ERR_INTERNAL, "while_end out of place");
  m->depth--;
  return ASC_OK;
}

asc_status asc_ir_if_begin(asc_ir_module *m, uint32_t condition) {
  asc_status st = expect_kind(m, condition, ASC_IR_BOOL, "an if condition");
  if (st) return st;
  ir_op *op = new_op(m, IR_IF);
  if (!op) return asc_error(ASC_ERR_OUT_OF_MEMORY, "cannot allocate an IR op");
  op->operands[0] = condition;
  op->noperands = 1;
  asc_ir_type none = {ASC_IR_VOID, 0, 0, 0};
  st = add_op(m, op, none, NULL);
  return st ? st : push_region(m, op, 0);
}

asc_status asc_ir_else(asc_ir_module *m) {
  ir_op *op = open_owner(m, IR_IF);
  if (!op || op->nregions != 1) return asc_error(ASC_ERR_INTERNAL, "else out of place");
  m->depth--;
  return push_region(m, op, 1);
}

asc_status asc_ir_if_end(asc_ir_module *m) {
  if (!open_owner(m, IR_IF)) return asc_error(ASC_ERR_INTERNAL, "if_end without if_begin");
  m->depth--;
  return ASC_OK;
}

asc_status asc_ir_finish(asc_ir_module *m) {
  if (m->depth != 1) return asc_error(ASC_ERR_INTERNAL, "unclosed control flow at finish");
  m->finished = true;
  return ASC_OK;
}

/* --- text buffers ---------------------------------------------------------- */

void ir_buf_printf(ir_buf *b, const char *fmt, ...) {
  if (b->failed) return;
  va_list ap;
  for (;;) {
    va_start(ap, fmt);
    int n = vsnprintf(b->data ? b->data + b->len : NULL, b->data ? b->cap - b->len : 0, fmt, ap);
    va_end(ap);
    if (n < 0) {
      b->failed = true;
      return;
    }
    if (b->data && b->len + (size_t)n < b->cap) {
      b->len += (size_t)n;
      return;
    }
    size_t cap = b->cap ? b->cap * 2 : 4096;
    while (cap < b->len + (size_t)n + 1) cap *= 2;
    char *grown = realloc(b->data, cap);
    if (!grown) {
      b->failed = true;
      return;
    }
    b->data = grown;
    b->cap = cap;
  }
}

void ir_buf_c_string(ir_buf *b, const char *s, size_t n) {
  ir_buf_printf(b, "\"");
  for (size_t i = 0; i < n; i++) {
    unsigned char c = (unsigned char)s[i];
    bool alnum = (c >= '0' && c <= '9') || (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z');
    if (alnum)
      ir_buf_printf(b, "%c", c);
    else
      ir_buf_printf(b, "\\%03o", c);
  }
  ir_buf_printf(b, "\"");
}

void ir_buf_safe_name(ir_buf *b, const char *s, size_t max, const char *extra) {
  size_t n = 0;
  for (; s && s[n] && n < max; n++) {
    unsigned char c = (unsigned char)s[n];
    bool ok = (c >= '0' && c <= '9') || (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') ||
              c == '_' || (c && extra && strchr(extra, c));
    ir_buf_printf(b, "%c", ok ? c : '_');
  }
  if (!n) ir_buf_printf(b, "kernel");
}

void ir_buf_indent(ir_buf *b, int depth) {
  ir_buf_printf(b, "%*s", depth * 2, "");
}

asc_status ir_buf_finish(ir_buf *b, char **out) {
  if (b->failed || !b->data) {
    free(b->data);
    return asc_error(ASC_ERR_OUT_OF_MEMORY, "out of memory writing IR text");
  }
  *out = b->data;
  return ASC_OK;
}
