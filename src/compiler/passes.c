/* IR passes: verification, constant folding, the Unified Buffer budget. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "asc/hal.h"

#include "ir_internal.h"

/* --- verification -------------------------------------------------------- */

typedef struct verifier {
  const asc_ir_module *m;
  unsigned char *visible; /* per value: defined in an enclosing scope so far */
} verifier;

static asc_status verify_region(verifier *v, const ir_region *r);

static asc_status located(const ir_op *op, asc_status st) {
  return asc_error(st, "line %u: %s", op->loc.line, asc_last_error());
}

static asc_status verify_while(verifier *v, const ir_op *op);

static asc_status verify_op(verifier *v, const ir_op *op) {
  const asc_ir_module *m = v->m;
  if (op->code == IR_WHILE) return verify_while(v, op);
  for (int i = 0; i < op->noperands; i++) {
    uint32_t x = op->operands[i];
    if (!x || x >= m->nvalues) return asc_error(ASC_ERR_INTERNAL, "operand %%%u does not exist", x);
    if (!v->visible[x])
      return located(op,
                     asc_error(ASC_ERR_COMPILE, "%s uses %%%u outside the scope that defines it",
                               ir_op_defs[op->code].name, x));
  }
  if (op->code >= IR_FIRST_TABLE_OP) {
    asc_ir_type t;
    asc_status st = ir_check_op(m, op, &t);
    if (st) return located(op, st);
  }
  if (op->code == IR_FOR) v->visible[op->result] = 1;
  for (int i = 0; i < op->nregions; i++) {
    asc_status st = verify_region(v, op->regions[i]);
    if (st) return st;
  }
  if (op->code == IR_FOR) v->visible[op->result] = 0;
  if (op->result && op->code != IR_FOR) v->visible[op->result] = 1;
  return ASC_OK;
}

static asc_status verify_region(verifier *v, const ir_region *r) {
  if (!r) return asc_error(ASC_ERR_INTERNAL, "missing region");
  asc_status st = ASC_OK;
  for (int i = 0; i < r->n && !st; i++) st = verify_op(v, r->ops[i]);
  /* Values defined here go out of scope with the region. */
  for (int i = 0; i < r->n; i++)
    if (r->ops[i]->result && r->ops[i]->code != IR_VAR && r != v->m->body)
      v->visible[r->ops[i]->result] = 0;
  return st;
}

/* A while's condition is computed by its first region and read after it;
 * the body cannot see that region's values. */
static asc_status verify_while(verifier *v, const ir_op *op) {
  const ir_region *cond = op->nregions == 2 ? op->regions[0] : NULL;
  if (!cond || !op->regions[1] || op->noperands != 1)
    return asc_error(ASC_ERR_INTERNAL, "while without its condition or body");
  asc_status st = ASC_OK;
  for (int i = 0; i < cond->n && !st; i++) st = verify_op(v, cond->ops[i]);
  uint32_t c = op->operands[0];
  if (!st && (!c || c >= v->m->nvalues || !v->visible[c]))
    st = located(op, asc_error(ASC_ERR_COMPILE, "while: its condition %%%u is not in scope", c));
  for (int i = 0; i < cond->n; i++)
    if (cond->ops[i]->result && cond->ops[i]->code != IR_VAR) v->visible[cond->ops[i]->result] = 0;
  return st ? st : verify_region(v, op->regions[1]);
}

asc_status asc_ir_verify(const asc_ir_module *m) {
  if (!m->finished) return asc_error(ASC_ERR_INTERNAL, "verify: the function is not finished");
  verifier v = {m, calloc(m->nvalues, 1)};
  if (!v.visible) return asc_error(ASC_ERR_OUT_OF_MEMORY, "verify: out of memory");
  for (int i = 0; i < m->nparams; i++) v.visible[m->params[i]] = 1;
  asc_status st = verify_region(&v, m->body);
  free(v.visible);
  return st;
}

asc_status ir_ready(const asc_ir_module *m, const char *what) {
  if (!m->finished) return asc_error(ASC_ERR_INTERNAL, "%s: the function is not finished", what);
  if (m->verified) return ASC_OK;
  asc_status st = asc_ir_verify(m);
  /* The flag is a cache of the check above, not part of the IR's value. */
  if (!st) ((asc_ir_module *)m)->verified = true;
  return st;
}

/* --- constant folding -------------------------------------------------------- */

typedef struct var_info {
  int stores;
  bool top_level_store; /* the only store is in the function body itself */
  long store_at, first_load_at;
  const ir_op *store;
} var_info;

typedef struct folder {
  asc_ir_module *m;
  var_info *vars;
  long counter;
  int folded;
} folder;

static const ir_op *def_of(const asc_ir_module *m, uint32_t v) {
  return m->values[v].def;
}

static bool is_const(const asc_ir_module *m, uint32_t v) {
  const ir_op *d = def_of(m, v);
  return d && !d->dead && d->code >= IR_CONST_INT && d->code <= IR_CONST_BOOL;
}

static double const_f(const asc_ir_module *m, uint32_t v) {
  const ir_op *d = def_of(m, v);
  return d->code == IR_CONST_FLOAT ? d->fval : (double)d->ival;
}

static void scan_vars(folder *f, const ir_region *r, int depth) {
  for (int i = 0; i < r->n; i++) {
    const ir_op *op = r->ops[i];
    f->counter++;
    if (op->code == IR_STORE) {
      var_info *vi = &f->vars[op->operands[0]];
      vi->stores++;
      vi->top_level_store = depth == 0;
      vi->store_at = f->counter;
      vi->store = op;
    } else if (op->code == IR_LOAD) {
      var_info *vi = &f->vars[op->operands[0]];
      if (!vi->first_load_at) vi->first_load_at = f->counter;
    }
    for (int j = 0; j < op->nregions; j++) scan_vars(f, op->regions[j], depth + 1);
  }
}

/* Turns op into a constant of kind (keeping its result value). */
static void make_const(folder *f, ir_op *op, asc_ir_kind kind, int64_t i, double d) {
  op->code = kind == ASC_IR_FLOAT  ? IR_CONST_FLOAT
             : kind == ASC_IR_BOOL ? IR_CONST_BOOL
                                   : IR_CONST_INT;
  op->ival = i;
  op->fval = d;
  op->noperands = 0;
  f->folded++;
}

static bool fold_arith(folder *f, ir_op *op) {
  asc_ir_module *m = f->m;
  const char *name = ir_op_defs[op->code].name;
  if (strncmp(name, "arith.", 6)) return false;
  for (int i = 0; i < op->noperands; i++)
    if (!is_const(m, op->operands[i])) return false;
  asc_ir_kind kind = m->values[op->result].type.kind;
  const char *n = name + 6;
  double a = const_f(m, op->operands[0]), b = op->noperands > 1 ? const_f(m, op->operands[1]) : 0;
  const ir_op *da = def_of(m, op->operands[0]);
  const ir_op *db = op->noperands > 1 ? def_of(m, op->operands[1]) : NULL;
  int64_t ia = da->code == IR_CONST_FLOAT ? (int64_t)a : da->ival;
  int64_t ib = !db ? 0 : db->code == IR_CONST_FLOAT ? (int64_t)b : db->ival;
  if (kind == ASC_IR_INT) {
    int64_t r;
    if (!strcmp(n, "add"))
      r = (int64_t)((uint64_t)ia + (uint64_t)ib);
    else if (!strcmp(n, "sub"))
      r = (int64_t)((uint64_t)ia - (uint64_t)ib);
    else if (!strcmp(n, "mul"))
      r = (int64_t)((uint64_t)ia * (uint64_t)ib);
    else if (!strcmp(n, "floordiv") && ib != 0 && ib != -1) /* as the runtime: truncating */
      r = ia / ib;
    else if (!strcmp(n, "mod") && ib != 0 && ib != -1)
      r = ia % ib;
    else if (!strcmp(n, "neg"))
      r = (int64_t)(0 - (uint64_t)ia);
    else if (!strcmp(n, "min"))
      r = ia < ib ? ia : ib;
    else if (!strcmp(n, "max"))
      r = ia > ib ? ia : ib;
    else
      return false; /* left for run time: errors keep their line */
    make_const(f, op, kind, r, 0);
    return true;
  }
  if (kind == ASC_IR_FLOAT) {
    double r;
    if (!strcmp(n, "add"))
      r = a + b;
    else if (!strcmp(n, "sub"))
      r = a - b;
    else if (!strcmp(n, "mul"))
      r = a * b;
    else if (!strcmp(n, "truediv") && b != 0)
      r = a / b;
    else if (!strcmp(n, "neg"))
      r = -a;
    else if (!strcmp(n, "to_float"))
      r = a;
    else
      return false;
    make_const(f, op, kind, 0, r);
    return true;
  }
  if (kind == ASC_IR_BOOL) {
    int64_t r;
    if (!strcmp(n, "eq"))
      r = a == b;
    else if (!strcmp(n, "ne"))
      r = a != b;
    else if (!strcmp(n, "lt"))
      r = a < b;
    else if (!strcmp(n, "le"))
      r = a <= b;
    else if (!strcmp(n, "gt"))
      r = a > b;
    else if (!strcmp(n, "ge"))
      r = a >= b;
    else if (!strcmp(n, "and"))
      r = a != 0 && b != 0;
    else if (!strcmp(n, "or"))
      r = a != 0 || b != 0;
    else if (!strcmp(n, "not"))
      r = a == 0;
    else
      return false;
    make_const(f, op, kind, r, 0);
    return true;
  }
  return false;
}

/* A load of a variable stored once, at the top level, from a constant,
 * before any load, reads that constant. */
static bool fold_load(folder *f, ir_op *op) {
  if (op->code != IR_LOAD) return false;
  const var_info *vi = &f->vars[op->operands[0]];
  if (vi->stores != 1 || !vi->top_level_store || vi->store_at > vi->first_load_at) return false;
  uint32_t value = vi->store->operands[1];
  if (!is_const(f->m, value)) return false;
  const ir_op *c = def_of(f->m, value);
  asc_ir_kind kind = f->m->values[op->result].type.kind;
  if (kind == ASC_IR_FLOAT)
    make_const(f, op, kind, 0, c->code == IR_CONST_FLOAT ? c->fval : (double)c->ival);
  else
    make_const(f, op, kind, c->ival, 0);
  return true;
}

static void fold_region(folder *f, ir_region *r) {
  for (int i = 0; i < r->n; i++) {
    ir_op *op = r->ops[i];
    if (!fold_load(f, op)) fold_arith(f, op);
    for (int j = 0; j < op->nregions; j++) fold_region(f, op->regions[j]);
  }
}

asc_status asc_ir_fold(asc_ir_module *m, int *folded) {
  asc_status ready = ir_ready(m, "fold");
  if (ready) return ready;
  folder f = {m, calloc(m->nvalues, sizeof(var_info)), 0, 0};
  if (!f.vars) return asc_error(ASC_ERR_OUT_OF_MEMORY, "fold: out of memory");
  int before;
  do {
    before = f.folded;
    memset(f.vars, 0, m->nvalues * sizeof(var_info));
    f.counter = 0;
    scan_vars(&f, m->body, 0);
    fold_region(&f, m->body);
  } while (f.folded != before);
  free(f.vars);
  if (folded) *folded = f.folded;
  return ASC_OK;
}

/* --- Unified Buffer budget --------------------------------------------------- */

static bool const_int(const asc_ir_module *m, uint32_t v, int64_t *out) {
  if (!is_const(m, v)) return false;
  *out = (int64_t)const_f(m, v);
  return true;
}

typedef struct ub_state {
  asc_ir_module *m;
  uint64_t ub_size;
  uint64_t reach;      /* default mode's UB reach (asc_ub_reach) */
  uint64_t pipe_bytes; /* known TPipe buffers so far */
  bool reset_unknown;  /* a reset/destroy under control flow: the sum above is unknown */
  char note[96];
} ub_state;

static int64_t align32(int64_t n) {
  return (n + 31) / 32 * 32;
}

/* For a budget error: default mode's reach, when it goes past the UB. */
static const char *reach_note(ub_state *s) {
  s->note[0] = '\0';
  if (s->reach > s->ub_size)
    snprintf(s->note, sizeof s->note, " (or the %llu bytes default mode lets a kernel reach)",
             (unsigned long long)s->reach);
  return s->note;
}

static asc_status ub_region(ub_state *s, ir_region *r, int depth) {
  for (int i = 0; i < r->n; i++) {
    ir_op *op = r->ops[i];
    const char *name = ir_op_defs[op->code].name;
    int64_t num = 1, len = 0, addr = 0;
    if (!strcmp(name, "pipe.init_buffer") || !strcmp(name, "pipe.init_tbuf")) {
      bool is_que = name[10] == 'b';
      /* cube unit: queues at A1..CO1 live in the AIC's buffers (rt/cube.h
       * checks their capacity), not in the Unified Buffer */
      int pos = s->m->values[op->operands[1]].type.position;
      if (is_que && pos >= ASC_POS_A1 && pos <= ASC_POS_CO2) continue;
      bool known = const_int(s->m, op->operands[is_que ? 3 : 2], &len) &&
                   (!is_que || const_int(s->m, op->operands[2], &num));
      /* Inside loops the buffers may be re-initialised: leave it to run time. */
      if (!known || depth > 0 || s->reset_unknown) {
        op->check_ub = true;
      } else {
        s->pipe_bytes += (uint64_t)(num * align32(len));
        if (s->pipe_bytes > s->reach)
          return asc_error(ASC_ERR_COMPILE,
                           "line %u: Unified Buffer budget exceeded: the TPipe buffers need %llu "
                           "bytes so far but the UB holds %llu%s",
                           op->loc.line, (unsigned long long)s->pipe_bytes,
                           (unsigned long long)s->ub_size, reach_note(s));
        /* past the physical UB but within the reach: default mode runs it
         * as the NPU does, checked mode reports it at this line */
        if (s->pipe_bytes > s->ub_size) op->check_ub = true;
      }
    } else if (!strcmp(name, "pipe.reset") || !strcmp(name, "pipe.destroy")) {
      /* The pipe hands out the UB from the bottom again. */
      if (depth == 0)
        s->pipe_bytes = 0;
      else
        s->reset_unknown = true;
    } else if (!strcmp(name, "local.new")) {
      asc_dtype dtype = (asc_dtype)op->iattrs[0];
      int pos = (int)op->iattrs[1];
      if (pos >= ASC_POS_A1 && pos <= ASC_POS_CO2) {
        /* the AIC's buffers: rt/cube.h checks the address at each use */
      } else if (const_int(s->m, op->operands[0], &addr) &&
                 const_int(s->m, op->operands[1], &len)) {
        uint64_t end = (uint64_t)addr + (uint64_t)len * asc_dtype_size(dtype);
        if (addr < 0 || len < 0 || end > s->reach)
          return asc_error(ASC_ERR_COMPILE,
                           "line %u: LocalTensor bytes [%lld, %llu) fall outside the %llu-byte "
                           "Unified Buffer%s",
                           op->loc.line, (long long)addr, (unsigned long long)end,
                           (unsigned long long)s->ub_size, reach_note(s));
        if (end > s->ub_size) op->check_ub = true; /* as for the TPipe above */
      } else {
        op->check_ub = true;
      }
    }
    for (int j = 0; j < op->nregions; j++) {
      asc_status st = ub_region(s, op->regions[j], depth + 1);
      if (st) return st;
    }
  }
  return ASC_OK;
}

asc_status asc_ir_check_ub(asc_ir_module *m, uint64_t ub_size) {
  asc_status ready = ir_ready(m, "check_ub");
  if (ready) return ready;
  /* a UB over 1 GiB is no device's (asc_device_props' validation) */
  uint64_t reach =
      ub_size > ((uint64_t)1 << 30) ? ub_size : (uint64_t)asc_ub_reach((size_t)ub_size);
  ub_state s = {m, ub_size, reach, 0, false, {0}};
  return ub_region(&s, m->body, 0);
}
