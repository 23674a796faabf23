/* The C emitter's profiled builds (ASC_K_PROFILE): after each op, the call
 * that charges its cycles to its pipe in the timing model (rt/perf_model.h,
 * docs/perf-model.md). Costs depend on what the op moves or computes, which
 * only the emitter sees (operand kinds, dtypes, counts); the runtime's
 * functions stay as they are, so an unprofiled kernel is unchanged. */
#include <stdio.h>
#include <string.h>

#include "emit_c.h"
#include "sync_model.h"

/* The model's pipe numbers (rt/core.h's ASC_K_S ...) are sync_model.h's. */
static int pf_pipe(ir_pipe p) {
  switch (p) {
    case IR_PIPE_V:
      return SYNC_P_V;
    case IR_PIPE_MTE2:
      return SYNC_P_MTE2;
    case IR_PIPE_MTE3:
      return SYNC_P_MTE3;
    case IR_PIPE_MTE1:
      return SYNC_P_MTE1;
    case IR_PIPE_M:
      return SYNC_P_M;
    case IR_PIPE_FIX:
      return SYNC_P_FIX;
    default:
      return SYNC_P_S;
  }
}

static bool pf_is(const emitter *e, uint32_t v, asc_ir_kind kind) {
  return ce_type_of(e, v).kind == kind;
}

/* The first LocalTensor operand, or -1. */
static int pf_first_local(const emitter *e, const ir_op *op) {
  for (int i = 0; i < op->noperands; i++)
    if (pf_is(e, op->operands[i], ASC_IR_LOCAL)) return i;
  return -1;
}

/* A copy between GM and a local buffer, or inside the core. A GM copy
 * whose bursts stride through GM (DataCopyParams' and DataCopyPad's
 * blockCount rows with the GM side's gap) is charged row by row, so that
 * the L2 sees the lines each row touches. */
static int pf_copy(emitter *e, const ir_op *op, int L) {
  const uint32_t *o = op->operands;
  bool in = pf_is(e, o[0], ASC_IR_LOCAL) && pf_is(e, o[1], ASC_IR_GLOBAL);
  bool out = pf_is(e, o[0], ASC_IR_GLOBAL) && pf_is(e, o[1], ASC_IR_LOCAL);
  uint32_t local = in ? o[0] : o[1];
  long long es = (long long)ce_esize(e, local);
  uint32_t g = in ? o[1] : o[0];
  int p = in ? SYNC_P_MTE2 : SYNC_P_MTE3;
  /* the gap on the GM side: srcStride reading, dstStride writing */
  uint32_t gap = in ? o[4] : o[5];
  /* GM copies: rt/perf_model.h's asc_pf_copy_*, which Ascend C's profiled
   * table (ascendc_rt_perf.h) calls for the same APIs */
  if ((in || out) && op->code == IR_OP_DATA_COPY_PARAMS) /* blockLen, gaps: 32-B blocks */
    return ce_line(e,
                   "asc_pf_copy_blocks(pf, %d, v%u.base, v%u.base + v%u.lead, v%u, v%u, v%u, %d);",
                   p, g, g, g, o[2], o[3], gap, L);
  if ((in || out) && op->code == IR_OP_DATA_COPY_PAD) /* blockLen and the GM gap: bytes */
    return ce_line(e, "asc_pf_copy_pad(pf, %d, v%u.base, v%u.base + v%u.lead, v%u, v%u, v%u, %d);",
                   p, g, g, g, o[2], o[3], gap, L);
  if ((in || out) && op->code == IR_OP_DATA_COPY)
    return ce_line(e, "asc_pf_copy_count(pf, %d, v%u, %lld, v%u.base, v%u.base + v%u.lead, %d);", p,
                   o[2], es, g, g, g, L);
  char bytes[96];
  if (op->code == IR_OP_DATA_COPY)
    snprintf(bytes, sizeof bytes, "v%u * %lld / 32 * 32", o[2], es);
  else if (op->code == IR_OP_DATA_COPY_PARAMS) /* blockCount bursts of blockLen 32-B blocks */
    snprintf(bytes, sizeof bytes, "v%u * v%u * 32", o[2], o[3]);
  else if (op->code == IR_OP_DATA_COPY_PAD) /* blockCount bursts of blockLen bytes */
    snprintf(bytes, sizeof bytes, "v%u * v%u", o[2], o[3]);
  else
    snprintf(bytes, sizeof bytes, "v%u.len * %lld", local, es);
  if (in || out) /* the view starts lead bytes into the argument */
    return ce_line(e, "asc_pf_gm(pf, %d, %s, v%u.base, v%u.base + v%u.lead, %d);", p, bytes, g, g,
                   g, L);
  return ce_line(e, "asc_pf_local(pf, %d, %s, %d);", e->cube ? SYNC_P_MTE1 : SYNC_P_V, bytes, L);
}

/* DataCopy GM (ND) -> L1 (NZ): ndNum matrices of nValue rows of dValue
 * elements, srcDValue elements apart, the matrices srcNdMatrixStride
 * elements apart; each row a burst. */
static int pf_nd2nz(emitter *e, const ir_op *op, int L) {
  const uint32_t *o = op->operands;
  long long es = (long long)ce_esize(e, o[0]);
  return ce_line(e,
                 "asc_pf_nd2nz(pf, v%u.base, v%u.base + v%u.lead, v%u, v%u, v%u * %lld, "
                 "v%u * %lld, v%u * %lld, %d);",
                 o[1], o[1], o[1], o[2], o[3], o[4], es, o[5], es, o[6], es, L);
}

/* A vector instruction: the count form (tensors, then a count) reads count
 * elements of each source; other forms are charged their destination's
 * length. */
static int pf_vector(emitter *e, const ir_op *op, int L) {
  const char *letters = ir_op_defs[op->code].operands;
  int nlocal = 0;
  long long es = 1;
  for (int i = 0; i < op->noperands; i++)
    if (pf_is(e, op->operands[i], ASC_IR_LOCAL)) {
      nlocal++;
      if (ce_esize(e, op->operands[i]) > es) es = (long long)ce_esize(e, op->operands[i]);
    }
  int first = pf_first_local(e, op);
  if (first < 0) return ce_line(e, "asc_pf_op(pf, %d, 1, %d);", SYNC_P_V, L);
  size_t n = strlen(letters);
  bool count_form = op->noperands <= 4 && n == (size_t)op->noperands && letters[n - 1] == 'I' &&
                    strspn(letters, "LN") == n - 1;
  /* the sources' UB addresses, for bank conflicts: operands 1 and 2 */
  char srcs[64] = "-1, -1";
  if (nlocal == 3 && op->noperands > 2 && first == 0)
    snprintf(srcs, sizeof srcs, "v%u.off, v%u.off", op->operands[1], op->operands[2]);
  if (count_form)
    return ce_line(e, "asc_pf_vec(pf, v%u * %lld, %d, %s, %d);", op->operands[op->noperands - 1],
                   es, nlocal - 1, srcs, L);
  return ce_line(e, "asc_pf_vec(pf, v%u.len * %lld, %d, %s, %d);", op->operands[first], es,
                 nlocal - 1, srcs, L);
}

static int pf_queue(emitter *e, const ir_op *op) {
  const uint32_t *o = op->operands;
  uint32_t r = op->result;
  int src, dst, unused;
  switch (op->code) {
    case IR_OP_QUE_NEW:
      sync_position_pipes(op->iattrs[0], &src, &dst);
      return ce_line(e, "asc_pf_que_new(pf, v%u, %d, %d);", r, src, dst);
    case IR_OP_QUEBIND_NEW:
      sync_position_pipes(op->iattrs[2], &src, &unused);
      sync_position_pipes(op->iattrs[3], &unused, &dst);
      return ce_line(e, "asc_pf_que_new(pf, v%u, %d, %d);", r, src, dst);
    case IR_OP_QUE_ENQUE:
      return ce_line(e, "asc_pf_qop(pf, v%u, 0);", o[0]);
    case IR_OP_QUE_DEQUE:
    case IR_OP_QUE_DEQUE_INPLACE:
      return ce_line(e, "asc_pf_qop(pf, v%u, 1);", o[0]);
    case IR_OP_QUE_FREE_TENSOR:
      return ce_line(e, "asc_pf_qop(pf, v%u, 2);", o[0]);
    case IR_OP_QUE_ALLOC_TENSOR:
    case IR_OP_QUE_ALLOC_TENSOR_INPLACE:
      return ce_line(e, "asc_pf_qop(pf, v%u, 3);", o[0]);
    default:
      return -1;
  }
}

/* asc.adv.Matmul: its internal loads, mmads and fixpipes (rt/perf_model.h's
 * asc_pf_mm_*), from the object's state after the call. o[1] is C: a
 * GlobalTensor (its writes go through the L2) or a LocalTensor. */
static int pf_matmul(emitter *e, const ir_op *op, int L) {
  const uint32_t *o = op->operands;
  char cc[128] = "NULL, NULL, 4";
  if (op->noperands > 1 && pf_is(e, o[1], ASC_IR_GLOBAL)) {
    long long es = (long long)ce_esize(e, o[1]);
    snprintf(cc, sizeof cc, "v%u.base, v%u.base + v%u.lead, %lld", o[1], o[1], o[1], es);
  } else if (op->noperands > 1 && pf_is(e, o[1], ASC_IR_LOCAL)) {
    snprintf(cc, sizeof cc, "NULL, NULL, %lld", (long long)ce_esize(e, o[1]));
  }
  switch (op->code) {
    case IR_OP_MATMUL_INIT:
      return ce_line(e, "asc_pf_s(pf, 1); asc_pf_mm_init(pf, v%u);", o[0]);
    case IR_OP_MATMUL_ITERATE:
      return ce_line(e, "asc_pf_mm_iterate(pf, v%u, v%u, %d);", o[0], op->result, L);
    case IR_OP_MATMUL_GET_TENSOR_C:
    case IR_OP_MATMUL_GET_TENSOR_C_ATOMIC:
    case IR_OP_MATMUL_ASYNC_GET_TENSOR_C:
      return ce_line(e, "asc_pf_s(pf, 1); asc_pf_mm_out(pf, v%u, %s, %d);", o[0], cc, L);
    case IR_OP_MATMUL_ITERATE_ALL:
    case IR_OP_MATMUL_ITERATE_ALL_ATOMIC:
    case IR_OP_MATMUL_ITERATE_ALL_UB:
      return ce_line(e, "asc_pf_mm_all(pf, v%u, %s, %d);", o[0], cc, L);
    default:
      return -1;
  }
}

int ce_profile_only(emitter *e, const ir_op *op, const char *rt) {
  (void)e, (void)op, (void)rt;
  return 0;
}

int ce_pf_op(emitter *e, const ir_op *op) {
  int L = (int)op->loc.line;
  const uint32_t *o = op->operands;
  if (op->code < IR_FIRST_TABLE_OP) return 0;
  if (pf_queue(e, op) == 0) return 0;
  if (pf_matmul(e, op, L) == 0) return 0;
  switch (op->code) {
    case IR_OP_SET_FLAG:
    case IR_OP_WAIT_FLAG: {
      int src = 0, dst = 0;
      int ev = (int)op->iattrs[0];
      if (sync_event_pipes(ev, &src, &dst)) return ce_line(e, "asc_pf_s(pf, 1);");
      if (op->code == IR_OP_SET_FLAG)
        return ce_line(e, "asc_pf_set_flag(pf, %d, v%u, %d);", ev, o[0], src);
      return ce_line(e, "asc_pf_wait_flag(pf, %d, v%u, %d);", ev, o[0], dst);
    }
    case IR_OP_PIPE_BARRIER:
      if (op->iattrs[0] == SYNC_PIPE_ALL) return ce_line(e, "asc_pf_barrier_all(pf);");
      return ce_line(e, "asc_pf_s(pf, 1);");
    case IR_OP_SYNC_ALL:
    case IR_OP_SYNC_ALL_SOFT:
      return ce_line(e, "asc_pf_barrier_all(pf);");
    case IR_OP_LOCAL_GET_VALUE:
    case IR_OP_LOCAL_SET_VALUE:
    case IR_OP_GLOBAL_GET_VALUE:
    case IR_OP_GLOBAL_SET_VALUE:
      return ce_line(e, "asc_pf_scalar_mem(pf);");
    case IR_OP_DATA_COPY:
    case IR_OP_DATA_COPY_PARAMS:
    case IR_OP_DATA_COPY_PAD:
      return pf_copy(e, op, L);
    case IR_OP_CUBE_ND2NZ:
      return pf_nd2nz(e, op, L);
    case IR_OP_CUBE_MMAD:
    case IR_OP_CUBE_MMAD_SPARSE:
      return ce_line(e, "asc_pf_mmad(pf, v%u, v%u, v%u, %d);", o[3], o[4], o[5], L);
    case IR_OP_GLOBAL_L2_HINT:
      return ce_line(e, "asc_pf_l2_hint(pf, v%u.base, %lld, %lld);", o[0], (long long)op->iattrs[0],
                     (long long)op->iattrs[1]);
    case IR_OP_CUBE_MMAD_BIAS:
      return ce_line(e, "asc_pf_mmad(pf, v%u, v%u, v%u, %d);", o[4], o[5], o[6], L);
    default:
      break;
  }
  int pipe = pf_pipe(ir_op_defs[op->code].pipe);
  if (pipe == SYNC_P_V) return pf_vector(e, op, L);
  int local = pf_first_local(e, op);
  if (pipe == SYNC_P_S || local < 0) return ce_line(e, "asc_pf_s(pf, 1);");
  int global = -1;
  for (int i = 0; i < op->noperands && global < 0; i++)
    if (pf_is(e, o[i], ASC_IR_GLOBAL)) global = i;
  long long es = (long long)ce_esize(e, o[local]);
  if (global >= 0)
    return ce_line(e, "asc_pf_gm(pf, %d, v%u.len * %lld, v%u.base, v%u.base + v%u.lead, %d);", pipe,
                   o[local], es, o[global], o[global], o[global], L);
  return ce_line(e, "asc_pf_local(pf, %d, v%u.len * %lld, %d);", pipe, o[local], es, L);
}
