/* The C forms of the level-0 (mask/repeat) APIs and those added with them:
 * the runtime's element-wise and reduction executors. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emit_c.h"

/* --- API coverage --------------------------------------------------------------------
 * The level-0 (mask/repeat) forms and the APIs added with them run through
 * the runtime's element-wise executor (asc_k_vrun) and reduction executors
 * (asc_k_reduce, asc_k_rrun); see "API coverage" in rt/vector.h. */

static int emit_vrun(emitter *e, const ir_op *op, const char *base, bool l0) {
  const uint32_t *o = op->operands;
  int nlocal = 0;
  while (nlocal < op->noperands && ce_type_of(e, o[nlocal]).kind == ASC_IR_LOCAL) nlocal++;
  /* a scalar operand follows the tensors where the op's signature says so */
  bool sel = !strncmp(base, "select", 6), scalar = ir_op_defs[op->code].operands[nlocal] == 'N';
  uint32_t tensors[3];
  int nt = 0;
  for (int i = 0; i < nlocal && nt < 3; i++)
    if (!(sel && i == 1)) tensors[nt++] = o[i];
  int i = nlocal;
  ce_line(e, "{");
  e->depth++;
  ce_line(e, "asc_k_vargs A;");
  ce_line(e, "memset(&A, 0, sizeof A);");
  ce_line(e, "A.op = ASC_K_VOP_%s; A.nsrc = %d; A.api = \"%s\";", base, nt - 1, base);
  if (scalar) ce_line(e, "A.scalar = (double)v%u;", o[i++]);
  if (sel) ce_line(e, "A.sel = v%u; A.sel_dt = %d;", o[1], ce_type_of(e, o[1]).dtype);
  int nstr = l0 ? op->noperands - (i + 3) : 0, half = nstr / 2;
  /* count forms are contiguous: a repeat spans 256 bytes of the widest operand */
  int64_t widest = 1;
  for (int j = strncmp(base, "compare", 7) ? 0 : 1; j < nt; j++)
    if (ce_esize(e, tensors[j]) > widest) widest = ce_esize(e, tensors[j]);
  for (int j = 0; j < nt; j++) {
    char blk[32] = "1", rep[32];
    snprintf(rep, sizeof rep, "%lld", (long long)(8 * ce_esize(e, tensors[j]) / widest));
    if (l0 && j < half) {
      snprintf(blk, sizeof blk, "v%u", o[i + 3 + j]);
      snprintf(rep, sizeof rep, "v%u", o[i + 3 + half + j]);
    }
    ce_line(e, "A.dt[%d] = %d; A.t[%d] = v%u; A.blk[%d] = %s; A.rep[%d] = %s;", j,
            ce_type_of(e, tensors[j]).dtype, j, tensors[j], j, blk, j, rep);
  }
  if (l0) {
    ce_line(e, "A.kind = %d; A.set_mask = %d; A.mode = %d;", (int)op->iattrs[0], (int)op->iattrs[1],
            (int)op->iattrs[2]);
    ce_line(e, "A.m0 = v%u; A.m1 = v%u; A.repeat = v%u;", o[i], o[i + 1], o[i + 2]);
  } else {
    ce_line(e, "A.kind = 2; A.set_mask = 1; A.mode = %d;", op->niattrs ? (int)op->iattrs[0] : 0);
    ce_line(e, "A.m0 = v%u;", o[i]);
  }
  ce_checked(e, "asc_k_vrun(k, &A, %d)", (int)op->loc.line);
  e->depth--;
  return ce_line(e, "}");
}

static int reduce_what(const char *name) {
  const char *s = name + strcspn(name, ".") - 3;
  return !strncmp(s, "sum", 3) ? 0 : !strncmp(s, "max", 3) ? 1 : 2;
}

static int emit_rrun(emitter *e, const ir_op *op, const char *base) {
  const uint32_t *o = op->operands;
  ce_line(e, "{");
  e->depth++;
  ce_line(e, "asc_k_rargs R;");
  ce_line(e, "memset(&R, 0, sizeof R);");
  ce_line(e, "R.what = %d; R.shape = %d; R.dt = %d; R.order = %d; R.api = \"%s\";",
          reduce_what(base),
          base[0] == 'w'   ? 0
          : base[0] == 'b' ? 1
                           : 2,
          ce_type_of(e, o[0]).dtype, (int)op->iattrs[2], base);
  ce_line(e, "R.dst = v%u; R.src = v%u; R.kind = %d; R.set_mask = %d;", o[0], o[1],
          (int)op->iattrs[0], (int)op->iattrs[1]);
  ce_line(e, "R.m0 = v%u; R.m1 = v%u; R.repeat = v%u;", o[2], o[3], o[4]);
  ce_line(e, "R.dst_rep = v%u; R.src_blk = v%u; R.src_rep = v%u;", o[5], o[6], o[7]);
  ce_checked(e, "asc_k_rrun(k, &R, %d)", (int)op->loc.line);
  e->depth--;
  return ce_line(e, "}");
}

/* The API's name without the form's suffix (".l0", ".params"). */
static void base_name(const ir_op *op, char *base, size_t size, bool *l0) {
  const char *name = ir_op_defs[op->code].name;
  size_t n = strcspn(name, ".");
  *l0 = !strcmp(name + n, ".l0");
  snprintf(base, size, "%.*s", (int)n, name);
}

/* The forms of api_table.def's c_emit column; rt is the row's c_rt. */
int ce_vrun(emitter *e, const ir_op *op, const char *rt) {
  (void)rt; /* asc_k_vrun */
  char base[40];
  bool l0;
  base_name(op, base, sizeof base, &l0);
  return emit_vrun(e, op, base, l0);
}

int ce_rrun(emitter *e, const ir_op *op, const char *rt) {
  (void)rt; /* asc_k_rrun */
  char base[40];
  bool l0;
  base_name(op, base, sizeof base, &l0);
  return emit_rrun(e, op, base);
}

int ce_reduce(emitter *e, const ir_op *op, const char *rt) {
  const uint32_t *o = op->operands;
  int L = (int)op->loc.line;
  char base[40];
  bool l0;
  base_name(op, base, sizeof base, &l0);
  int what = reduce_what(base), dt = ce_type_of(e, o[0]).dtype;
  if (l0)
    return ce_checked(e, "%s(k, %d, %d, v%u, v%u, %d, v%u, v%u, v%u, v%u, %d, \"%s\", %d)", rt,
                      what, dt, o[0], o[1], (int)op->iattrs[0], o[3], o[4], o[5], o[6],
                      (int)op->iattrs[1], base, L);
  return ce_checked(e, "%s(k, %d, %d, v%u, v%u, 2, v%u, 0, 0, 8, %d, \"%s\", %d)", rt, what, dt,
                    o[0], o[1], o[3], (int)op->iattrs[0], base, L);
}

/* 1 if the op is one of this section's, emitted. */
int ce_emit_api_ext(emitter *e, const ir_op *op, const char *name) {
  const uint32_t *o = op->operands;
  int L = (int)op->loc.line;
  if (op->code == IR_OP_SET_MASK_COUNT || op->code == IR_OP_SET_MASK_NORM)
    return ce_line(e, "asc_k_set_mask_mode(k, %d);", name[9] == 'c'), 1;
  if (op->code == IR_OP_RESET_MASK) return ce_line(e, "asc_k_reset_mask(k);"), 1;
  if (op->code == IR_OP_SET_VECTOR_MASK)
    return ce_checked(e, "asc_k_set_vector_mask(k, %d, %d, %d, v%u, v%u, %d)", (int)op->iattrs[2],
                      (int)op->iattrs[0], (int)op->iattrs[1], o[0], o[1], L),
           1;
  if (op->code == IR_OP_DATA_COPY_PARAMS) {
    bool dl = ce_type_of(e, o[0]).kind == ASC_IR_LOCAL,
         sl = ce_type_of(e, o[1]).kind == ASC_IR_LOCAL;
    char ld[32] = "(asc_k_lt){0, 0}", ls[32] = "(asc_k_lt){0, 0}", g[32] = "(asc_k_gt){0}";
    if (dl)
      snprintf(ld, sizeof ld, "v%u", o[0]);
    else
      snprintf(g, sizeof g, "v%u", o[0]);
    if (sl)
      snprintf(ls, sizeof ls, "v%u", o[1]);
    else
      snprintf(g, sizeof g, "v%u", o[1]);
    ce_checked(e, "asc_k_copy_params(k, %d, %s, %s, %s, v%u, v%u, v%u, v%u, %lld, %d)",
               dl && sl ? 2
               : dl     ? 0
                        : 1,
               ld, ls, g, o[2], o[3], o[4], o[5], (long long)ce_esize(e, o[0]), L);
    return 1;
  }
  if (op->code == IR_OP_DATA_COPY_PAD) {
    int dt = ce_type_of(e, o[0]).dtype;
    if (ce_type_of(e, o[0]).kind == ASC_IR_GLOBAL)
      ce_checked(e, "asc_k_copy_pad_ub_gm(k, %d, v%u, v%u, v%u, v%u, v%u, v%u, %d)", dt, o[0], o[1],
                 o[2], o[3], o[4], o[5], L);
    else if (op->noperands > 6)
      ce_checked(e,
                 "asc_k_copy_pad_gm_ub(k, %d, v%u, v%u, v%u, v%u, v%u, v%u, (int)v%u, v%u, v%u, "
                 "(double)v%u, %d)",
                 dt, o[0], o[1], o[2], o[3], o[4], o[5], o[6], o[7], o[8], o[9], L);
    else
      ce_checked(e, "asc_k_copy_pad_gm_ub(k, %d, v%u, v%u, v%u, v%u, v%u, v%u, 0, 0, 0, 0.0, %d)",
                 dt, o[0], o[1], o[2], o[3], o[4], o[5], L);
    return 1;
  }
  if (op->code == IR_OP_DUMP_TENSOR) {
    asc_ir_type t = ce_type_of(e, o[0]);
    if (t.kind == ASC_IR_GLOBAL)
      ce_checked(e, "asc_k_dump_global(k, %d, v%u, v%u, v%u, \"%s\", %d)", t.dtype, o[0], o[1],
                 o[2], ce_suffix(e, o[0]), L);
    else
      ce_checked(e, "asc_k_dump_local(k, %d, v%u, v%u, v%u, \"LocalTensor@%s\", \"%s\", %d)",
                 t.dtype, o[0], o[1], o[2], ir_position_name(t.position), ce_suffix(e, o[0]), L);
    return 1;
  }
  if (op->code == IR_OP_TRAP) return ce_checked(e, "asc_k_trap(k, %d)", L), 1;
  return 0;
}
