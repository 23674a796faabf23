/* The C forms of the cube unit (rt/cube.h) and core groups (rt/mix.h),
 * and what decides how a launch runs its cores. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emit_c.h"
#include "ir_check.h"

/* --- cube unit (rt/cube.h) -------------------------------------------------- */
/* The cube's buffer of a TPosition (asc_kc_buf), -1 for the others. */
int ce_cube_buffer(int position) {
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
int ce_cube_type(const emitter *e, uint32_t v) {
  return dtype_cube_type((asc_dtype)ce_type_of(e, v).dtype);
}
/* Whether region r (or one inside it) holds an op named name or name.*. */
bool ce_uses_op(const ir_region *r, const char *name) {
  size_t n = strlen(name);
  for (int i = 0; r && i < r->n; i++) {
    const char *op = ir_op_defs[r->ops[i]->code].name;
    if (!strncmp(op, name, n) && (op[n] == '\0' || op[n] == '.')) return true;
    for (int j = 0; j < r->ops[i]->nregions; j++)
      if (ce_uses_op(r->ops[i]->regions[j], name)) return true;
  }
  return false;
}
bool ce_uses_cube(const ir_region *r) {
  for (int i = 0; r && i < r->n; i++) {
    const ir_op *op = r->ops[i];
    const char *name = ir_op_defs[op->code].name;
    if (!strncmp(name, "cube.", 5) || !strncmp(name, "matmul.", 7)) return true;
    if ((op->code == IR_OP_QUE_NEW || op->code == IR_OP_TBUF_NEW) &&
        ce_cube_buffer((int)op->iattrs[0]) >= 0)
      return true;
    for (int j = 0; j < op->nregions; j++)
      if (ce_uses_cube(op->regions[j])) return true;
  }
  return false;
}
void ce_scan_cores(const ir_region *r, core_use *u) {
  for (int i = 0; r && i < r->n; i++) {
    const ir_op *op = r->ops[i];
    const char *name = ir_op_defs[op->code].name;
    if (op->code == IR_OP_CORE_MODE) u->mode = op->iattrs[0];
    if (!strncmp(name, "cube.cross_", 11)) u->flags = true;
    if (!strncmp(name, "cube.cross_", 11) && op->niattrs > 1 && op->iattrs[1] == 0) u->mode0 = true;
    if (!strncmp(name, "cube.cross_", 11) || !strncmp(name, "core.is_ai", 10) ||
        !strncmp(name, "matmul.", 7))
      u->mix = true;
    for (int j = 0; j < op->nregions; j++) ce_scan_cores(op->regions[j], u);
  }
}
int ce_emit_cube_op(emitter *e, const ir_op *op, int code) {
  const char *name = ir_op_defs[code].name;
  const uint32_t *o = op->operands;
  int L = (int)op->loc.line;
  bool gm1 = ce_type_of(e, o[1]).kind == ASC_IR_GLOBAL,
       gm0 = ce_type_of(e, o[0]).kind == ASC_IR_GLOBAL;
  if (code == IR_OP_PIPE_INIT_BUFFER)
    return ce_checked(e, "asc_k_cube_init_buffer(k, v%u, v%u, v%u, v%u, %d, %d)", o[0], o[1], o[2],
                      o[3], ce_cube_buffer(ce_type_of(e, o[1]).position), L);
  if (code == IR_OP_CUBE_LOAD_DATA_T) /* rt/cube_sparse.h */
    return ce_checked(e, "asc_k_cube_load_t(k, v%u, v%u, %d, v%u, v%u, v%u, v%u, v%u, %d)", o[0],
                      o[1], ce_cube_type(e, o[0]), o[2], o[3], o[4], o[5], o[6], L);
  if (code == IR_OP_CUBE_LOAD_SPARSE)
    return ce_checked(e, "asc_k_cube_load_sparse(k, v%u, v%u, v%u, v%u, v%u, v%u, v%u, v%u, %d)",
                      o[0], o[1], o[2], o[3], o[4], o[5], o[6], o[7], L);
  if (code == IR_OP_CUBE_MMAD_SPARSE)
    return ce_checked(e, "asc_k_cube_mmad_sparse(k, v%u, v%u, v%u, v%u, v%u, v%u, v%u, %d)", o[0],
                      o[1], o[2], o[3], o[4], o[5], o[6], L);
  if (code == IR_OP_CUBE_LOAD_DATA || code == IR_OP_CUBE_LOAD_DATA_GM)
    return ce_checked(e, "asc_k_cube_load_%s(k, v%u, v%u, %d, v%u, v%u, v%u, v%u, v%u, %d)",
                      gm1 ? "gm" : "l1", o[0], o[1], ce_cube_type(e, o[0]), o[2], o[3], o[4], o[5],
                      o[6], L);
  if (code == IR_OP_CUBE_MMAD || code == IR_OP_CUBE_MMAD_BIAS) {
    /* PyAsc compiles any dtypes here; the cube refuses them when it runs */
    char msg[256];
    if (ir_cube_mmad_problem(e->m, op, msg, sizeof msg))
      return ce_checked(e, "asc_k_fail(k, %d, \"%%s\", \"%s\")", L, msg);
  }
  if (code == IR_OP_CUBE_MMAD)
    return ce_checked(e,
                      "asc_k_cube_mmad(k, v%u, v%u, v%u, NULL, NULL, %d, v%u, v%u, v%u, v%u, %d)",
                      o[0], o[1], o[2], ce_cube_type(e, o[1]), o[3], o[4], o[5], o[6], L);
  if (code == IR_OP_CUBE_MMAD_BIAS) {
    char bias[48];
    if (ce_type_of(e, o[3]).kind == ASC_IR_GLOBAL)
      snprintf(bias, sizeof bias, "NULL, &v%u", o[3]);
    else
      snprintf(bias, sizeof bias, "&v%u, NULL", o[3]);
    return ce_checked(e, "asc_k_cube_mmad(k, v%u, v%u, v%u, %s, %d, v%u, v%u, v%u, v%u, %d)", o[0],
                      o[1], o[2], bias, ce_cube_type(e, o[1]), o[4], o[5], o[6], o[7], L);
  }
  if (code == IR_OP_CUBE_FIXPIPE) {
    char qv[32] = "NULL", msg[256];
    if (ir_cube_fixpipe_problem(e->m, op, msg, sizeof msg))
      return ce_checked(e, "asc_k_fail(k, %d, \"%%s\", \"%s\")", L, msg);
    if (op->noperands > 12) snprintf(qv, sizeof qv, "&v%u", o[12]);
    return ce_checked(
        e,
        "asc_k_cube_fixpipe_%s(k, v%u, v%u, %s, %d, %d, v%u, v%u, v%u, v%u, v%u, v%u, "
        "(double)v%u, %d, (const int64_t[3]){v%u, v%u, v%u}, %d)",
        gm0 ? "gm" : "ub", o[0], o[1], qv, ce_cube_type(e, o[0]), ce_cube_type(e, o[1]), o[2], o[3],
        o[4], o[5], o[6], o[7], o[8], (int)op->iattrs[0], o[9], o[10], o[11], L);
  }
  if (code == IR_OP_CUBE_CO12) /* iattrs: quant mode, NZ output */
    return ce_checked(
        e, "asc_k_cube_co12_%s(k, v%u, v%u, %d, %d, v%u, v%u, v%u, v%u, v%u, %lld, %d, %d)",
        gm0 ? "gm" : "ub", o[0], o[1], ce_cube_type(e, o[0]), ce_cube_type(e, o[1]), o[2], o[3],
        o[4], o[5], o[6], (long long)op->iattrs[0], (int)op->iattrs[1], L);
  if (code == IR_OP_CUBE_ND2NZ) {
    ce_line(e, "{");
    ce_line(e, "  const int64_t p_[8] = {v%u, v%u, v%u, v%u, v%u, v%u, v%u, v%u};", o[2], o[3],
            o[4], o[5], o[6], o[7], o[8], o[9]);
    ce_checked(e, "asc_k_cube_nd2nz_%s(k, v%u, v%u, %d, p_, %d)", gm1 ? "gm" : "ub", o[0], o[1],
               ce_cube_type(e, o[0]), L);
    return ce_line(e, "}");
  }
  if (code == IR_OP_CUBE_ND2NZ_PAD) {
    ce_line(e, "{");
    ce_line(e, "  const int64_t c_[4] = {v%u, v%u, v%u, v%u};", o[2], o[3], o[4], o[5]);
    ce_line(e, "  const int64_t p_[8] = {v%u, v%u, v%u, v%u, v%u, v%u, v%u, v%u};", o[6], o[7],
            o[8], o[9], o[10], o[11], o[12], o[13]);
    ce_checked(e, "asc_k_cube_nd2nz_pad(k, v%u, v%u, %d, c_, p_, %d)", o[0], o[1],
               ce_cube_type(e, o[0]), L);
    return ce_line(e, "}");
  }
  if (code == IR_OP_CUBE_CROSS_SET || code == IR_OP_CUBE_CROSS_WAIT)
    return ce_checked(e, "asc_k_mix_cross(k, v%u, %d, %lld, %d)", o[0], name[11] == 'w',
                      (long long)op->iattrs[1], L);
  if (code == IR_OP_CUBE_NZ2ND) {
    ce_line(e, "{");
    ce_line(e, "  const int64_t p_[7] = {v%u, v%u, v%u, v%u, v%u, v%u, v%u};", o[2], o[3], o[4],
            o[5], o[6], o[7], o[8]);
    ce_checked(e, "asc_k_cube_nz2nd(k, v%u, v%u, %d, p_, %d)", o[0], o[1], ce_cube_type(e, o[0]),
               L);
    return ce_line(e, "}");
  }
  /* asc.adv.Matmul: o[0] is the object; its types are matmul.new's attributes */
  const ir_op *mk = e->m->values[o[0]].def;
  int in_t = 0, c_t = 3;
  if (mk && mk->code == IR_OP_MATMUL_NEW) {
    in_t = dtype_cube_type((asc_dtype)mk->iattrs[1]);
    c_t = dtype_cube_type((asc_dtype)mk->iattrs[2]);
  }
  if (code == IR_OP_MATMUL_NEW) {
    ce_line(e, "memset(&o%u, 0, sizeof o%u);", op->result, op->result);
    return ce_line(e, "asc_k_matmul *v%u = &o%u;", op->result, op->result);
  }
  if (code == IR_OP_MATMUL_INIT) {
    ce_checked(
        e,
        "asc_k_mm_init(k, v%u, %d, %d, %d, v%u, v%u, v%u, v%u, v%u, v%u, v%u, v%u, v%u, v%u, %d)",
        o[0], in_t, c_t, mk ? (int)mk->iattrs[3] : 0, o[1], o[2], o[3], o[4], o[5], o[6], o[7],
        o[8], o[9], o[10], L);
    /* In a mixed kernel the AIC serves its AIVs' Matmul calls from here
     * to the end (Ascend C's REGIST_MATMUL_OBJ); the simulated AIVs run
     * them on cube buffers of their own, so the AIC is done. */
    return ce_line(e, "if (k->mixed && k->core_kind == 1) return 0;");
  }
  if (code == IR_OP_MATMUL_SET_TENSOR)
    return ce_checked(e, "asc_k_mm_set(k, v%u, %d, v%u, v%u, %d)", o[0], (int)op->iattrs[0], o[1],
                      o[2], L);
  if (code == IR_OP_MATMUL_SET_TENSOR_LOCAL)
    return ce_checked(e, "asc_k_mm_set_local(k, v%u, %d, v%u, %d, v%u, %d)", o[0],
                      (int)op->iattrs[0], o[1], ce_cube_type(e, o[1]), o[2], L);
  if (code == IR_OP_MATMUL_SHAPE)
    return ce_checked(e, "asc_k_mm_shape(k, v%u, %d, v%u, v%u, v%u, v%u, %d)", o[0],
                      (int)op->iattrs[0], o[1], o[2], o[3], o[4], L);
  if (code == IR_OP_MATMUL_ITERATE) {
    ce_line(e, "int v%u = 0;", op->result);
    return ce_checked(e, "asc_k_mm_iterate(k, v%u, &v%u, %d)", o[0], op->result, L);
  }
  if (code == IR_OP_MATMUL_GET_TENSOR_C)
    return ce_checked(e, "asc_k_mm_get_c_%s(k, v%u, v%u, %d, %d)", gm1 ? "gm" : "ub", o[0], o[1],
                      ce_cube_type(e, o[1]), L);
  if (code == IR_OP_MATMUL_ITERATE_ALL)
    return ce_checked(e, "asc_k_mm_iterate_all(k, v%u, v%u, %d, %d)", o[0], o[1],
                      ce_cube_type(e, o[1]), L);
  if (code == IR_OP_MATMUL_COUNT)
    return ce_line(e, "int64_t v%u = v%u->next - 1;", op->result, o[0]);
  if (code == IR_OP_MATMUL_END) return ce_checked(e, "asc_k_mm_end(k, v%u, %d)", o[0], L);
  if (code == IR_OP_MATMUL_BATCH_NUM)
    return ce_checked(e, "asc_k_mm_batch_num(k, v%u, v%u, v%u, %d)", o[0], o[1], o[2], L);
  if (code == IR_OP_MATMUL_ITERATE_BATCH)
    return ce_checked(e, "asc_k_mm_iterate_batch(k, v%u, v%u, %d, v%u, v%u, v%u, v%u, %d)", o[0],
                      o[1], ce_cube_type(e, o[1]), o[2], o[3], o[4], o[5], L);
  if (code == IR_OP_MATMUL_ITERATE_BATCH_N)
    return ce_checked(e, "asc_k_mm_iterate_batch(k, v%u, v%u, %d, -1, -1, v%u, v%u, %d)", o[0],
                      o[1], ce_cube_type(e, o[1]), o[2], o[3], L);
  if (code == IR_OP_MATMUL_GET_BATCH_TENSOR_C_GM) {
    ce_line(e, "asc_k_gt v%u = {NULL, 0, 0, -1, 0};", op->result);
    return ce_checked(e, "asc_k_mm_get_batch_c_gm(k, v%u, v%u, v%u, &v%u, %d)", o[0], o[1], o[2],
                      op->result, L);
  }
  if (code == IR_OP_MATMUL_GET_TENSOR_C_BOTH)
    return ce_checked(e, "asc_k_mm_get_c_both(k, v%u, v%u, %d, v%u, %d, %d)", o[0], o[1],
                      ce_cube_type(e, o[1]), o[2], ce_cube_type(e, o[2]), L);
  if (code == IR_OP_MATMUL_ITERATE_ALL_UB)
    return ce_checked(e, "asc_k_mm_iterate_all_ub(k, v%u, v%u, %d, %d)", o[0], o[1],
                      ce_cube_type(e, o[1]), L);
  if (code == IR_OP_MATMUL_ORG_SHAPE_KC)
    return ce_checked(e, "asc_k_mm_org_kc(k, v%u, v%u, v%u, v%u, v%u, v%u, %d)", o[0], o[1], o[2],
                      o[3], o[4], o[5], L);
  if (code == IR_OP_MATMUL_SET_SCALAR)
    return ce_checked(e, "asc_k_mm_set_scalar(k, v%u, %d, (double)v%u, %d)", o[0],
                      (int)op->iattrs[0], o[1], L);
  if (code == IR_OP_MATMUL_ITERATE_ALL_ATOMIC || code == IR_OP_MATMUL_GET_TENSOR_C_ATOMIC)
    return ce_checked(e, "asc_k_mm_%s_atomic(k, v%u, v%u, %d, v%u, %d)",
                      name[7] == 'i' ? "iterate_all" : "get_c", o[0], o[1], ce_cube_type(e, o[1]),
                      o[2], L);
  if (code == IR_OP_MATMUL_SCHEDULE)
    return ce_checked(e, "asc_k_mm_schedule(k, v%u, v%u, v%u, v%u, v%u, v%u, v%u, v%u, %d)", o[0],
                      o[1], o[2], o[3], o[4], o[5], o[6], o[7], L);
  if (code == IR_OP_MATMUL_LAYOUT) {
    ce_line(e, "{");
    ce_line(e,
            "  const int64_t p_[15] = {v%u, v%u, v%u, v%u, v%u, v%u, v%u, v%u, v%u, v%u, v%u, v%u, "
            "v%u, v%u, v%u};",
            o[1], o[2], o[3], o[4], o[5], o[6], o[7], o[8], o[9], o[10], o[11], o[12], o[13], o[14],
            o[15]);
    ce_checked(e, "asc_k_mm_layout(k, v%u, p_, %d)", o[0], L);
    return ce_line(e, "}");
  }
  if (code == IR_OP_MATMUL_ITERATE_N_BATCH)
    return ce_checked(e, "asc_k_mm_iterate_n_batch(k, v%u, v%u, v%u, v%u, v%u, v%u, %d)", o[0],
                      o[1], o[2], o[3], o[4], o[5], L);
  if (code == IR_OP_MATMUL_GET_BATCH_TENSOR_C)
    return ce_checked(e, "asc_k_mm_get_batch_c(k, v%u, v%u, v%u, v%u, %d)", o[0], o[1], o[2], o[3],
                      L);
  if (code == IR_OP_MATMUL_SET_WORKSPACE)
    return ce_checked(e, "asc_k_mm_workspace(k, v%u, v%u, %d, %d)", o[0], o[1],
                      (int)ce_esize(e, o[1]), L);
  if (!strncmp(name, "matmul.offset_c.", 16)) {
    static const char *const fields[] = {"offset", "row", "col", "height", "width"};
    int f = 0;
    while (f < 4 && strcmp(name + 16, fields[f])) f++;
    ce_line(e, "int64_t v%u = 0;", op->result);
    return ce_checked(e, "asc_k_mm_offset_c(k, v%u, %d, &v%u, %d)", o[0], f, op->result, L);
  }
  if (code == IR_OP_MATMUL_QUANT_SCALAR)
    return ce_checked(e, "asc_k_mm_quant_scalar(k, v%u, (int64_t)v%u, %d)", o[0], o[1], L);
  if (code == IR_OP_MATMUL_QUANT_VECTOR)
    return ce_checked(e, "asc_k_mm_quant_vector(k, v%u, v%u, %d, %d)", o[0], o[1],
                      (int)ce_esize(e, o[1]), L);
  if (code == IR_OP_MATMUL_SPARSE_INDEX)
    return ce_checked(
        e,
        "asc_k_fail(k, %d, \"Matmul.set_sparse_index: sparse matmul is not simulated "
        "through adv.Matmul: PyAsc documents no sparse MatmulType nor the GM layout of "
        "its B and index (kernel.ascendc() emits it; load_data_with_sparse and "
        "mmad_with_sparse run)\")",
        L);
  return ce_line(e, "#error unknown cube op");
}
int ce_cube(emitter *e, const ir_op *op, const char *rt) {
  (void)rt; /* the runtime function follows from the op and its operands */
  const char *name = ir_op_defs[op->code].name;
  /* core groups (rt/mix.h): ops without operands */
  if (op->code == IR_OP_CORE_MODE) return 0; /* read by emit() */
  if (op->code == IR_OP_CORE_IS_AIC || op->code == IR_OP_CORE_IS_AIV)
    return ce_line(e, "int v%u = k->core_kind == %d;", op->result, name[10] == 'c');
  if (op->code == IR_OP_CORE_SUB_BLOCK_IDX || op->code == IR_OP_CORE_SUB_BLOCK_NUM)
    return ce_line(e, "int64_t v%u = k->sub_block_%s;", op->result, name + 15);
  /* Matmul calls with nothing to do in a synchronous simulator */
  if (op->code == IR_OP_MATMUL_SET_HF32 || op->code == IR_OP_MATMUL_WAIT_ITERATE_BATCH ||
      !strncmp(name, "matmul.self_define_data", 23) || !strncmp(name, "matmul.user_def_info", 20))
    return 0;
  if (op->code == IR_OP_MATMUL_FLAG)
    return op->iattrs[0] ? 0
                         : ce_checked(e, "asc_k_mm_disable_bias(k, v%u, %d)", op->operands[0],
                                      (int)op->loc.line);
  if (op->code == IR_OP_MATMUL_ASYNC_GET_TENSOR_C) /* the same copy, done at once */
    return ce_emit_cube_op(e, op, IR_OP_MATMUL_GET_TENSOR_C);
  return ce_emit_cube_op(e, op, op->code);
}
/* --- end of cube unit --- */
