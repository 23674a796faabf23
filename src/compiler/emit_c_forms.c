/* The C forms of api_table.def's c_emit column that the other files do
 * not hold: statements written per op, scalar arithmetic, the runtime
 * calls of vector instructions and events, adv, fwk, system and layout. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emit_c.h"

/* Ops whose statement is written here, one case each. */
int ce_named(emitter *e, const ir_op *op, const char *rt) {
  (void)rt;
  const char *name = ir_op_defs[op->code].name;
  uint32_t r = op->result;
  const uint32_t *o = op->operands;
  int L = (int)op->loc.line;
  if (op->code == IR_OP_GET_BLOCK_IDX) return ce_line(e, "int64_t v%u = k->block_idx;", r);
  if (op->code == IR_OP_GET_BLOCK_NUM) return ce_line(e, "int64_t v%u = k->block_num;", r);
  if (op->code == IR_OP_ADDR_OFFSET)
    return ce_line(e, "asc_k_addr v%u = asc_k_addr_offset(v%u, v%u, %lld);", r, o[0], o[1],
                   (long long)ce_esize(e, o[0]));
  if (op->code == IR_OP_GLOBAL_NEW) {
    ce_line(e, "asc_k_gt v%u;", r);
    char len[32] = "-1";
    if (op->noperands > 1) snprintf(len, sizeof len, "v%u", o[1]);
    ce_checked(e, "asc_k_global_new(k, &v%u, v%u, %s, %lld, %d)", r, o[0], len,
               (long long)ce_esize(e, o[0]), L);
    return 0;
  }
  if (op->code == IR_OP_GLOBAL_SLICE)
    return ce_line(e, "asc_k_gt v%u = asc_k_global_slice(v%u, v%u, %lld);", r, o[0], o[1],
                   (long long)ce_esize(e, o[0]));
  if (op->code == IR_OP_GLOBAL_GET_VALUE || op->code == IR_OP_LOCAL_GET_VALUE) {
    ce_line(e, "%s v%u;", ce_c_type(ce_type_of(e, r).kind), r);
    ce_checked(e, "asc_k_%cget_%s(k, v%u, v%u, &v%u, %d)", name[0] == 'g' ? 'g' : 'l',
               ce_suffix(e, o[0]), o[0], o[1], r, L);
    return 0;
  }
  if (op->code == IR_OP_GLOBAL_SET_VALUE || op->code == IR_OP_LOCAL_SET_VALUE) {
    bool is_float = asc_dtype_is_float((asc_dtype)ce_type_of(e, o[0]).dtype);
    /* a float value stored to an integer tensor saturates (rt/core.h) */
    const char *conv = is_float                                   ? "(double)"
                       : ce_type_of(e, o[2]).kind == ASC_IR_FLOAT ? "asc_k_f2i"
                                                                  : "(int64_t)";
    ce_checked(e, "asc_k_%cset_%s(k, v%u, v%u, %s(v%u), %d)", name[0] == 'g' ? 'g' : 'l',
               ce_suffix(e, o[0]), o[0], o[1], conv, o[2], L);
    return 0;
  }
  if (op->code == IR_OP_GLOBAL_GET_SIZE)
    return ce_line(e, "int64_t v%u = asc_k_global_size(v%u);", r, o[0]);
  if (op->code == IR_OP_LOCAL_NEW) {
    /* an explicit LocalTensor at A1..CO1 addresses that buffer of the AIC
     * (an address past the tag's range is no buffer's: refused at use) */
    int buf = e->cube ? ce_cube_buffer((int)op->iattrs[1]) : -1;
    if (buf >= 0)
      return ce_line(e,
                     "asc_k_lt v%u = asc_k_local_new(v%u >= 0 && v%u < ((int64_t)1 << "
                     "ASC_KC_TAG_SHIFT) ? ASC_KC_TAG(%d, v%u) : -1, v%u);",
                     r, o[0], o[0], buf, o[0], o[1]);
    ce_line(e, "asc_k_lt v%u = asc_k_local_new(v%u, v%u);", r, o[0], o[1]);
    /* check_ub left a range with run-time bounds to this check. */
    if (op->check_ub)
      ce_checked(e, "asc_k_local_check(k, v%u, %lld, %d)", r, (long long)ce_esize(e, r), L);
    return 0;
  }
  if (op->code == IR_OP_LOCAL_SLICE)
    return ce_line(e, "asc_k_lt v%u = asc_k_local_slice(v%u, v%u, %lld);", r, o[0], o[1],
                   (long long)ce_esize(e, o[0]));
  if (op->code == IR_OP_LOCAL_GET_SIZE) return ce_line(e, "int64_t v%u = v%u.len;", r, o[0]);
  if (op->code == IR_OP_LOCAL_GET_PHY_ADDR) { /* the UB byte address of element offset */
    ce_line(e, "int64_t v%u;", r);
    return ce_checked(e, "asc_k_local_phy_addr(k, v%u, %s%u, %lld, &v%u, %d)", o[0],
                      op->noperands > 1 ? "v" : "", op->noperands > 1 ? o[1] : 0,
                      (long long)ce_esize(e, o[0]), r, L);
  }
  if (op->code == IR_OP_LOCAL_GET_LENGTH)
    return ce_line(e, "int64_t v%u = asc_k_mul(v%u.len, %lld);", r, o[0],
                   (long long)ce_esize(e, o[0]));
  if (op->code == IR_OP_LOCAL_GET_POSITION)
    return ce_line(e, "int64_t v%u = %d;", r, ce_type_of(e, o[0]).position);
  if (op->code == IR_OP_LOCAL_REINTERPRET_CAST)
    return ce_line(e, "asc_k_lt v%u = asc_k_local_cast(v%u, %lld, %lld);", r, o[0],
                   (long long)ce_esize(e, o[0]), (long long)ce_esize(e, r));
  if (op->code == IR_OP_PIPE_NEW) {
    ce_line(e, "o%u = (asc_k_pipe){0};", r);
    return ce_line(e, "asc_k_pipe *v%u = &o%u;", r, r);
  }
  if (op->code == IR_OP_QUE_NEW || op->code == IR_OP_QUEBIND_NEW) {
    ce_line(e, "memset(&o%u, 0, sizeof o%u);", r, r);
    /* depth 0, the in-place queue, keeps no tensors of its own: it orders
     * every buffer enqueued (at most ASC_K_MAX_DEPTH, as InitBuffer allows) */
    int depth = ce_type_of(e, r).depth;
    if (depth)
      ce_line(e, "o%u.depth = %d;", r, depth);
    else
      ce_line(e, "o%u.depth = ASC_K_MAX_DEPTH;", r);
    if (e->pipe) ce_line(e, "o%u.pipe = &o%u;", r, e->pipe);
    return ce_line(e, "asc_k_que *v%u = &o%u;", r, r);
  }
  if (op->code == IR_OP_TBUF_NEW) {
    ce_line(e, "o%u = (asc_k_tbuf){0, 0};", r);
    return ce_line(e, "asc_k_tbuf *v%u = &o%u;", r, r);
  }
  if (op->code == IR_OP_PIPE_INIT_BUFFER && ce_cube_buffer(ce_type_of(e, o[1]).position) >= 0)
    return ce_emit_cube_op(e, op, op->code); /* cube unit: a queue in L1/L0 */
  if (op->code == IR_OP_PIPE_INIT_BUFFER)
    return ce_checked(e, "asc_k_init_buffer(k, v%u, v%u, v%u, v%u, %d)", o[0], o[1], o[2], o[3], L);
  if (op->code == IR_OP_PIPE_INIT_TBUF)
    return ce_checked(e, "asc_k_init_tbuf(k, v%u, v%u, v%u, %d)", o[0], o[1], o[2], L);
  if (op->code == IR_OP_PIPE_DESTROY || op->code == IR_OP_PIPE_RESET)
    return ce_line(e, "asc_k_pipe_reset(v%u);", o[0]);
  if (op->code == IR_OP_QUE_DEQUE_INPLACE) {
    ce_line(e, "asc_k_lt v%u;", r);
    return ce_checked(e, "asc_k_deque_inplace(k, v%u, v%u, &v%u, %d)", o[0], o[1], r, L);
  }
  if (op->code == IR_OP_QUE_ALLOC_TENSOR || op->code == IR_OP_QUE_DEQUE ||
      op->code == IR_OP_QUE_ALLOC_TENSOR_INPLACE) {
    ce_line(e, "asc_k_lt v%u;", r);
    ce_checked(e, "asc_k_%s(k, v%u, &v%u, %lld, %d)", name[4] == 'a' ? "alloc_tensor" : "deque",
               o[0], r, (long long)ce_esize(e, r), L);
    return 0;
  }
  if (op->code == IR_OP_QUE_ENQUE)
    return ce_checked(e, "asc_k_enque(k, v%u, v%u, %d)", o[0], o[1], L);
  if (op->code == IR_OP_QUE_FREE_TENSOR)
    return ce_checked(e, "asc_k_free_tensor(k, v%u, v%u, %d)", o[0], o[1], L);
  if (op->code == IR_OP_QUE_HAS_TENSOR_IN_QUE)
    return ce_line(e, "int v%u = v%u->count > 0;", r, o[0]);
  if (op->code == IR_OP_QUE_VACANT_IN_QUE)
    return ce_line(e, "int v%u = v%u->count < v%u->depth;", r, o[0], o[0]);
  if (op->code == IR_OP_TBUF_GET || op->code == IR_OP_TBUF_ALLOC_TENSOR) {
    char len[32] = "-1"; /* the whole buffer */
    if (op->noperands > 1) snprintf(len, sizeof len, "v%u", o[1]);
    ce_line(e, "asc_k_lt v%u;", r);
    return ce_checked(e, "asc_k_tbuf_get(k, v%u, %s, %lld, &v%u, %d)", o[0], len,
                      (long long)ce_esize(e, r), r, L);
  }
  if (op->code == IR_OP_TBUF_GET_WITH_OFFSET) {
    ce_line(e, "asc_k_lt v%u;", r);
    return ce_checked(e, "asc_k_tbuf_get_with_offset(k, v%u, v%u, v%u, %lld, &v%u, %d)", o[0], o[1],
                      o[2], (long long)ce_esize(e, r), r, L);
  }
  if (op->code == IR_OP_TBUF_FREE_TENSOR)
    return ce_line(e, "/* TBuf.free_tensor: nothing to release */");
  if (op->code == IR_OP_DATA_COPY) {
    asc_ir_kind dk = ce_type_of(e, o[0]).kind, sk = ce_type_of(e, o[1]).kind;
    const char *fn = dk == ASC_IR_LOCAL ? "copy_gm_ub" : "copy_ub_gm";
    if (dk == ASC_IR_LOCAL && sk == ASC_IR_LOCAL)
      return ce_checked(e, "asc_k_copy_ub_ub(k, v%u, v%u, v%u, %lld, \"data_copy\", %d)", o[0],
                        o[1], o[2], (long long)ce_esize(e, o[0]), L);
    return ce_checked(e, "asc_k_%s(k, v%u, v%u, v%u, %lld, %d)", fn, o[0], o[1], o[2],
                      (long long)ce_esize(e, o[0]), L);
  }
  if (op->code == IR_OP_COPY)
    return ce_checked(e, "asc_k_copy_ub_ub(k, v%u, v%u, v%u, %lld, \"copy\", %d)", o[0], o[1], o[2],
                      (long long)ce_esize(e, o[0]), L);
  if (op->code == IR_OP_DUPLICATE)
    return ce_checked(e, "asc_k_duplicate_%s(k, v%u, (double)v%u, v%u, %d)", ce_suffix(e, o[0]),
                      o[0], o[1], o[2], L);
  if (op->code == IR_OP_SET_FLAG || op->code == IR_OP_WAIT_FLAG || op->code == IR_OP_PIPE_BARRIER)
    return ce_line(e, "/* %s: program order on the simulated core */", name);
  if (op->code == IR_OP_PRINTF) return ce_emit_printf(e, op);
  if (ce_emit_api_ext(e, op, name)) return 0;
  e->b->failed = true; /* a ce_named row without a case: an internal error */
  return 0;
}

int ce_arith(emitter *e, const ir_op *op, const char *rt) {
  (void)rt; /* inline C */
  return ce_emit_arith(e, op, ir_op_defs[op->code].name);
}

/* Vector instructions: <rt>_<dtype>(k, dst, srcs..., count, line). */
int ce_vector(emitter *e, const ir_op *op, const char *rt) {
  const uint32_t *o = op->operands;
  ir_buf_indent(e->b, e->depth);
  ir_buf_printf(e->b, "if (%s_%s(k", rt, ce_suffix(e, o[0]));
  for (int i = 0; i < op->noperands; i++) {
    bool scalar = ce_type_of(e, o[i]).kind != ASC_IR_LOCAL && i < op->noperands - 1;
    ir_buf_printf(e->b, scalar ? ", (double)v%u" : ", v%u", o[i]);
  }
  ir_buf_printf(e->b, ", %d)) return 1;\n", (int)op->loc.line);
  return 0;
}

/* <rt>(k, operands..., element size of operand 0, line). */
int ce_call(emitter *e, const ir_op *op, const char *rt) {
  ir_buf_indent(e->b, e->depth);
  ir_buf_printf(e->b, "if (%s(k", rt);
  for (int i = 0; i < op->noperands; i++) ir_buf_printf(e->b, ", v%u", op->operands[i]);
  ir_buf_printf(e->b, ", %lld, %d)) return 1;\n", (long long)ce_esize(e, op->operands[0]),
                (int)op->loc.line);
  return 0;
}

/* Ops with nothing to do on the simulated core. */
int ce_none(emitter *e, const ir_op *op, const char *rt) {
  (void)rt;
  return ce_line(e, "/* %s: nothing to do */", ir_op_defs[op->code].name);
}

/* <rt>(k, pipe, HardEvent, &result | id, line). */
int ce_event(emitter *e, const ir_op *op, const char *rt) {
  const uint32_t *o = op->operands;
  long long ev = (long long)op->iattrs[0];
  int L = (int)op->loc.line;
  if (op->noperands > 1) return ce_checked(e, "%s(k, v%u, %lld, v%u, %d)", rt, o[0], ev, o[1], L);
  ce_line(e, "int64_t v%u;", op->result);
  return ce_checked(e, "%s(k, v%u, %lld, &v%u, %d)", rt, o[0], ev, op->result, L);
}

/* --- adv library: every op calls the rt/adv_math.h function its c_rt column names; a missing
 * tmp buffer is passed as an empty tensor with tmp_min -1. */
/* tmp_min and the tmp tensor, from operand `at` (tmp_min) on. */
static void adv_tmp(const emitter *e, const ir_op *op, int at, char *buf, size_t size) {
  if (op->noperands > at + 1)
    snprintf(buf, size, "v%u, v%u", op->operands[at + 1], op->operands[at]);
  else
    snprintf(buf, size, "(asc_k_lt){0, 0}, -1");
  (void)e;
}

int ce_adv(emitter *e, const ir_op *op, const char *rt) {
  const char *name = ir_op_defs[op->code].name;
  const uint32_t *o = op->operands;
  int L = (int)op->loc.line;
  const char *base = name + 4;
  char tmp[64];
  /* the element-wise maths pass their id (adv_math.def) */
  for (int i = 0; i < asc_ir_adv_math_count(); i++)
    if (!strcmp(asc_ir_adv_math_name(i), base)) {
      adv_tmp(e, op, 3, tmp, sizeof tmp);
      return ce_checked(e, "%s(k, %d, %d, v%u, v%u, v%u, %lld, %s, \"adv.%s\", %d)", rt, i,
                        ce_type_of(e, o[0]).dtype, o[0], o[1], o[2],
                        op->niattrs ? (long long)op->iattrs[0] : 0LL, tmp, base, L);
    }
  if (op->code == IR_OP_ADV_POWER || op->code == IR_OP_ADV_XOR) {
    adv_tmp(e, op, 4, tmp, sizeof tmp);
    return ce_checked(e, "%s(k, %d, %d, v%u, v%u, v%u, v%u, %s, \"adv.%s\", %d)", rt,
                      base[0] == 'x', ce_type_of(e, o[0]).dtype, o[0], o[1], o[2], o[3], tmp, base,
                      L);
  }
  if (op->code == IR_OP_ADV_AXPY) {
    adv_tmp(e, op, 4, tmp, sizeof tmp);
    return ce_checked(e, "%s(k, %d, %d, v%u, v%u, (double)v%u, v%u, %s, \"adv.axpy\", %d)", rt,
                      ce_type_of(e, o[0]).dtype, ce_type_of(e, o[1]).dtype, o[0], o[1], o[2], o[3],
                      tmp, L);
  }
  if (op->code == IR_OP_ADV_SOFTMAX) {
    adv_tmp(e, op, 4 + IR_SOFTMAX_FIELDS, tmp, sizeof tmp);
    return ce_checked(e, "%s(k, %d, %d, v%u, v%u, v%u, v%u, v%u, v%u, %s, %d)", rt,
                      ce_type_of(e, o[0]).dtype, ce_type_of(e, o[1]).dtype, o[0], o[1], o[2], o[3],
                      o[4], o[5], tmp, L);
  }
  if (op->code == IR_OP_ADV_RMSNORM) { /* rows b * s, hLength, reciprocalOfHLength */
    adv_tmp(e, op, 4 + IR_RMSNORM_FIELDS, tmp, sizeof tmp);
    return ce_checked(e,
                      "%s(k, %d, v%u, v%u, v%u, (double)v%u, asc_k_mul(v%u, v%u), v%u, "
                      "(double)v%u, %s, %d)",
                      rt, ce_type_of(e, o[0]).dtype, o[0], o[1], o[2], o[3], o[4], o[5], o[6], o[8],
                      tmp, L);
  }
  if (op->code == IR_OP_ADV_QUANT) {
    adv_tmp(e, op, 5, tmp, sizeof tmp);
    return ce_checked(e, "%s(k, %d, v%u, v%u, (double)v%u, (double)v%u, v%u, %s, %d)", rt,
                      ce_type_of(e, o[1]).dtype, o[0], o[1], o[2], o[3], o[4], tmp, L);
  }
  if (op->code == IR_OP_ADV_CONCAT)
    return ce_checked(e, "%s(k, %d, v%u, v%u, v%u, v%u, %d)", rt, ce_type_of(e, o[0]).dtype, o[0],
                      o[1], o[2], o[3], L);
  return ce_checked(e, "%s(k, %d, v%u, v%u, v%u, v%u, %d)", rt, ce_type_of(e, o[0]).dtype, o[0],
                    o[1], o[2], o[3], L);
}

/* --- fwk/core (rt/fwk.h): the atomic store mode, TBufPool, TQue queries, tensor
 * setters and getters, set_pad_value --- */
int ce_fwk(emitter *e, const ir_op *op, const char *rt) {
  const char *name = ir_op_defs[op->code].name;
  const uint32_t *o = op->operands;
  uint32_t r = op->result;
  int L = (int)op->loc.line;
  if (!strncmp(name, "atomic.", 7) && op->niattrs == 3)
    return ce_line(e, "%s(k, %d, %d);", rt, (int)op->iattrs[1], (int)op->iattrs[2]);
  if (op->code == IR_OP_ATOMIC_GET_TYPE) return ce_line(e, "int64_t v%u = k->fwk.atomic_type;", r);
  if (op->code == IR_OP_ATOMIC_GET_OP) return ce_line(e, "int64_t v%u = k->fwk.atomic_op;", r);
  if (op->code == IR_OP_PIPE_GET) return ce_line(e, "asc_k_pipe *v%u = &o%u;", r, e->pipe);
  if (op->code == IR_OP_BUFPOOL_NEW) {
    ce_line(e, "o%u = (asc_k_pipe){0};", r);
    ce_line(e, "o%u.pool = 1;", r); /* no memory yet (rt/fwk.h) */
    ce_line(e, "o%u.max_bufs = %d;", r, (int)op->iattrs[1]);
    return ce_line(e, "asc_k_pipe *v%u = &o%u;", r, r);
  }
  if (op->code == IR_OP_BUFPOOL_INIT) {
    char share[24] = "NULL";
    if (op->noperands > 3) snprintf(share, sizeof share, "v%u", o[3]);
    return ce_checked(e, "%s(k, v%u, v%u, v%u, %s, %d)", rt, o[0], o[1], o[2], share, L);
  }
  if (op->code == IR_OP_BUFPOOL_RESET) return ce_line(e, "%s(k, v%u);", rt, o[0]);
  if (op->code == IR_OP_QUE_GET_TENSOR_COUNT_IN_QUE)
    return ce_line(e, "int64_t v%u = v%u->count;", r, o[0]);
  if (op->code == IR_OP_QUE_HAS_IDLE_BUFFER) return ce_line(e, "int v%u = %s(v%u);", r, rt, o[0]);
  if (op->code == IR_OP_LOCAL_SET_SIZE || op->code == IR_OP_LOCAL_SET_BUFFER_LEN) {
    ce_line(e, "asc_k_lt v%u;", r);
    return ce_checked(e, "%s(k, v%u, v%u, %d, %lld, &v%u, %d)", rt, o[0], o[1], name[10] == 'b',
                      (long long)ce_esize(e, o[0]), r, L);
  }
  if (op->code == IR_OP_LOCAL_SET_ADDR_WITH_OFFSET) {
    ce_line(e, "asc_k_lt v%u;", r);
    return ce_checked(e, "%s(k, v%u, v%u, %lld, %lld, &v%u, %d)", rt, o[1], o[2],
                      (long long)ce_esize(e, o[1]), (long long)ce_esize(e, o[0]), r, L);
  }
  if (op->code == IR_OP_LOCAL_SET_USER_TAG)
    return ce_checked(e, "%s(k, v%u, v%u, %d)", rt, o[0], o[1], L);
  if (op->code == IR_OP_LOCAL_GET_USER_TAG)
    return ce_line(e, "int64_t v%u = %s(k, v%u);", r, rt, o[0]);
  if (op->code == IR_OP_GLOBAL_GET_PHY_ADDR) {
    ce_line(e, "asc_k_addr v%u;", r);
    char off[24] = "0";
    if (op->noperands > 1) snprintf(off, sizeof off, "v%u", o[1]);
    return ce_checked(e, "%s(k, v%u, %s, %lld, &v%u, %d)", rt, o[0], off,
                      (long long)ce_esize(e, o[0]), r, L);
  }
  if (op->code == IR_OP_PAD_SET) return ce_line(e, "%s(k, (double)v%u);", rt, o[0]);
  if (op->code == IR_OP_INIT_CONST_VALUE)
    return ce_checked(e, "%s(k, v%u, %d, v%u, v%u, v%u, (double)v%u, %d)", rt, o[0],
                      ce_type_of(e, o[0]).dtype, o[1], o[2], o[3], o[4], L);
  if (op->code == IR_OP_SYNC_ALL) return ce_checked(e, "%s(k, 0, %d)", rt, L);
  if (op->code == IR_OP_SYNC_ALL_SOFT)
    return ce_checked(e, "%s(k, v%u, v%u, v%u, %d)", rt, o[0], o[1], o[2], L);
  e->b->failed = true; /* a ce_fwk row without a case: an internal error */
  return 0;
}

/* System and hardware (rt/system.h): <rt>(k, [&result,] operands..., iattrs..., line);
 * dump_acc_chk_point passes its tensor's dtype and memory first. */
int ce_sys(emitter *e, const ir_op *op, const char *rt) {
  const uint32_t *o = op->operands;
  int L = (int)op->loc.line;
  if (op->code == IR_OP_DUMP_ACC_CHK_POINT) {
    asc_ir_type t = ce_type_of(e, o[0]);
    bool g = t.kind == ASC_IR_GLOBAL;
    char tensor[64]; /* the tensor in its slot, an empty one in the other */
    snprintf(tensor, sizeof tensor, g ? "(asc_k_lt){0, 0}, v%u" : "v%u, (asc_k_gt){0}", o[0]);
    return ce_checked(e, "%s(k, %d, %d, %s, v%u, v%u, v%u, \"%s\", %d)", rt, t.dtype, g, tensor,
                      o[1], o[2], o[3], ce_suffix(e, o[0]), L);
  }
  ir_buf b = {0};
  asc_ir_kind rk = ir_op_defs[op->code].result != R_NONE
                       ? (asc_ir_kind)ce_type_of(e, op->result).kind
                       : ASC_IR_VOID;
  if (rk != ASC_IR_VOID) {
    ce_line(e, "%s v%u;", ce_c_type(rk), op->result);
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
  ce_checked(e, "%s(k%s, %d)", rt, b.data ? b.data : "", L);
  free(b.data);
  return 0;
}

/* Layout (rt/layout.h): transpose.ext passes its TransposeType and element
 * size; trans_data_to_5hd its two lists as arrays. */
int ce_layout(emitter *e, const ir_op *op, const char *rt) {
  const uint32_t *o = op->operands;
  int L = (int)op->loc.line;
  long long es = (long long)ce_esize(e, o[0]);
  if (op->code == IR_OP_BILINEAR_INTERPOLATION) {
    ir_buf_indent(e->b, e->depth);
    ir_buf_printf(e->b, "if (%s(k", rt);
    for (int i = 0; i < op->noperands; i++) ir_buf_printf(e->b, ", v%u", o[i]);
    ir_buf_printf(e->b, ", %lld, %d)) return 1;\n", (long long)op->iattrs[0], L);
    return 0;
  }
  if (op->code == IR_OP_TRANS_DATA_TO_5HD_ADDR_TENSOR) /* iattrs: halves, element dtype */
    return ce_checked(
        e, "asc_k_trans_5hd_addr_tensor(k, v%u, v%u, v%u, v%u, v%u, %lld, %lld, %lld, %d)", o[0],
        o[1], o[2], o[3], o[4], (long long)op->iattrs[0], (long long)op->iattrs[1],
        (long long)asc_dtype_size((asc_dtype)op->iattrs[2]), L);
  if (op->code == IR_OP_TRANS_DATA_TO_5HD_ADDRS) {
    ce_line(e, "{");
    e->depth++;
    ir_buf_indent(e->b, e->depth);
    ir_buf_printf(e->b, "const int64_t addr_[32] = {");
    for (int i = 0; i < 32; i++) ir_buf_printf(e->b, "%s(int64_t)v%u", i ? ", " : "", o[i]);
    ir_buf_printf(e->b, "};\n");
    ce_checked(e, "asc_k_trans_5hd_at(k, addr_, %lld, %lld, v%u, v%u, v%u, %lld, %d)",
               (long long)op->iattrs[0], (long long)op->iattrs[1], o[32], o[33], o[34],
               (long long)asc_dtype_size((asc_dtype)op->iattrs[2]), L);
    e->depth--;
    return ce_line(e, "}");
  }
  if (op->code == IR_OP_TRANSPOSE_EXT)
    return ce_checked(e, "%s(k, v%u, v%u, v%u, v%u, v%u, v%u, v%u, %lld, %lld, %d)", rt, o[0], o[1],
                      o[2], o[3], o[4], o[5], o[6], (long long)op->iattrs[0], es, L);
  ce_line(e, "{");
  e->depth++;
  for (int list = 0; list < 2; list++) {
    ir_buf_indent(e->b, e->depth);
    ir_buf_printf(e->b, "asc_k_lt %s[16] = {", list ? "src" : "dst");
    for (int i = 0; i < 16; i++) ir_buf_printf(e->b, "%sv%u", i ? ", " : "", o[list * 16 + i]);
    ir_buf_printf(e->b, "};\n");
  }
  ce_checked(e, "%s(k, dst, src, %lld, %lld, v%u, v%u, v%u, %lld, %d)", rt,
             (long long)op->iattrs[0], (long long)op->iattrs[1], o[32], o[33], o[34], es, L);
  e->depth--;
  return ce_line(e, "}");
}
