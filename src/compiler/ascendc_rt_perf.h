/* Part of ascendc_rt.c, included only from it, just before its table, when
 * the table is a profiled one (ascendc_rt_profiled.c, ascendc_rt_cube_profiled.c:
 * ASC_K_PROFILE defined): the timing model (rt/perf_model.h,
 * docs/perf-model.md) for Ascend C kernels. Each wrapper runs the plain
 * entry and then charges what a Python kernel's profiled build charges for
 * the same API (emit_c_perf.c), through the same asc_pf_* functions; the
 * #defines after each make the table below list the wrapper in the entry's
 * place. Entries with no wrapper charge nothing.
 *
 * The block's model state (asc_pf) is allocated at begin and freed at end,
 * one per block, on the block's thread (asc_pf_cur). The launch's records
 * are perf_model.h's asc_pf_records of this table (read through the names
 * ascendc_rt_profiled.c gives asc_kernel_pf_reset/records): one set per
 * table, filled by one profiled launch at a time (pyasc.profile's lock,
 * acl_profile.c's), as a profiled Python kernel's are per library. */
#include "rt/perf_model.h"
#include "sync_model.h"

/* this block's state, owned by the block's thread from begin to end */
static _Thread_local asc_pf *pf_block;

/* pf_NAME(PARAMS): the plain entry sim_NAME(ARGS), then CHARGE when it
 * succeeds; the #define after each use puts it in the entry's place. */
#define PF_AFTER(NAME, PARAMS, ARGS, CHARGE) \
  static int pf_##NAME PARAMS {              \
    int rc = sim_##NAME ARGS;                \
    if (!rc) CHARGE;                         \
    return rc;                               \
  }

static int pf_begin(void *kv) {
  int rc = sim_begin(kv);
  if (rc) return rc;
  /* owned here, freed by pf_end */
  pf_block = malloc(sizeof *pf_block);
  if (!pf_block) return asc_k_fail(kv, 0, "profile: no memory for the block's timing model");
  asc_pf_begin(kv, pf_block);
  return 0;
}
#define sim_begin pf_begin
static void pf_end(void *kv) {
  if (pf_block) {
    asc_pf_end(kv, pf_block);
    free(pf_block);
    pf_block = NULL;
  }
  sim_end(kv);
}
#define sim_end pf_end

/* --- scalar work ------------------------------------------------------------ */
/* Entries a Python kernel's build charges one scalar instruction each, as
 * its other scalar work (emit_c_perf.c); the C++ kernel's own arithmetic
 * and loops run outside the table, unseen and uncharged. */
static void pf_scalar_op(void) {
  if (asc_pf_cur) asc_pf_s(asc_pf_cur, 1);
}
PF_AFTER(local_new,
         (void *kv, pyasc_sim_lt *t, int64_t addr, int64_t len, int64_t esize, const char *file,
          int line),
         (kv, t, addr, len, esize, file, line), pf_scalar_op())
#define sim_local_new pf_local_new
static pyasc_sim_lt pf_local_slice(pyasc_sim_lt t, int64_t off, int64_t esize) {
  pf_scalar_op();
  return sim_local_slice(t, off, esize);
}
#define sim_local_slice pf_local_slice
static pyasc_sim_gt pf_global_slice(pyasc_sim_gt g, int64_t off, int64_t esize) {
  pf_scalar_op();
  return sim_global_slice(g, off, esize);
}
#define sim_global_slice pf_global_slice
PF_AFTER(init_buffer,
         (void *kv, void *pipe, void *que, int64_t num, int64_t len, const char *file, int line),
         (kv, pipe, que, num, len, file, line), pf_scalar_op())
#define sim_init_buffer pf_init_buffer
PF_AFTER(tbuf_get,
         (void *kv, const void *tbuf, int64_t len, int64_t esize, pyasc_sim_lt *t, const char *file,
          int line),
         (kv, tbuf, len, esize, t, file, line), pf_scalar_op())
#define sim_tbuf_get pf_tbuf_get
PF_AFTER(global_new,
         (void *kv, pyasc_sim_gt *g, const void *ptr, int64_t size, int64_t esize, const char *file,
          int line),
         (kv, g, ptr, size, esize, file, line), pf_scalar_op())
#define sim_global_new pf_global_new
/* GetValue/SetValue: the scalar unit reads or writes the UB (or GM) */
#define PF_ACCESS(NAME, HT, FT, IT)                                                       \
  static int pf_##NAME(void *kv, int dt, HT h, int64_t idx, FT f, IT i, const char *file, \
                       int line) {                                                        \
    int rc = sim_##NAME(kv, dt, h, idx, f, i, file, line);                                \
    if (!rc && asc_pf_cur) asc_pf_scalar_mem(asc_pf_cur);                                 \
    return rc;                                                                            \
  }
PF_ACCESS(gget, pyasc_sim_gt, double *, int64_t *)
PF_ACCESS(gset, pyasc_sim_gt, double, int64_t)
PF_ACCESS(lget, pyasc_sim_lt, double *, int64_t *)
PF_ACCESS(lset, pyasc_sim_lt, double, int64_t)
#undef PF_ACCESS
#define sim_gget pf_gget
#define sim_gset pf_gset
#define sim_lget pf_lget
#define sim_lset pf_lset

/* --- queues -------------------------------------------------------------------- */
/* que_init's argument carries the TPositions (each + 1) that fill and drain
 * the queue above its depth (kernel_operator/memory.h sim::que_arg) */
static void pf_que_init(void *que, int arg) {
  sim_que_init(que, arg);
  int src, dst, unused;
  sync_position_pipes(((arg >> 16) & 0xff) - 1, &src, &unused);
  sync_position_pipes(((arg >> 24) & 0x7f) - 1, &unused, &dst);
  if (asc_pf_cur) asc_pf_que_new(asc_pf_cur, que, src, dst);
}
#define sim_que_init pf_que_init
/* what: asc_pf_qop's (0 enque, 1 deque, 2 free_tensor, 3 alloc_tensor) */
static void pf_qop(const void *que, int what) {
  if (asc_pf_cur) asc_pf_qop(asc_pf_cur, que, what);
}
PF_AFTER(alloc_tensor,
         (void *kv, void *que, pyasc_sim_lt *t, int64_t esize, const char *file, int line),
         (kv, que, t, esize, file, line), pf_qop(que, 3))
PF_AFTER(enque, (void *kv, void *que, pyasc_sim_lt t, const char *file, int line),
         (kv, que, t, file, line), pf_qop(que, 0))
PF_AFTER(deque, (void *kv, void *que, pyasc_sim_lt *t, int64_t esize, const char *file, int line),
         (kv, que, t, esize, file, line), pf_qop(que, 1))
PF_AFTER(deque_inplace,
         (void *kv, void *que, pyasc_sim_lt t, pyasc_sim_lt *r, const char *file, int line),
         (kv, que, t, r, file, line), pf_qop(que, 1))
PF_AFTER(free_tensor, (void *kv, void *que, pyasc_sim_lt t, const char *file, int line),
         (kv, que, t, file, line), pf_qop(que, 2))
#define sim_alloc_tensor pf_alloc_tensor
#define sim_enque pf_enque
#define sim_deque pf_deque
#define sim_deque_inplace pf_deque_inplace
#define sim_free_tensor pf_free_tensor

/* --- data movement -------------------------------------------------------------- */
/* A move inside the core: the vector unit's, or MTE1's on a core with the cube */
static int pf_local_pipe(const asc_k_ctx *k) {
  return k->cube ? ASC_K_MTE1 : ASC_K_V;
}
static int pf_copy(void *kv, int dir, pyasc_sim_lt l, pyasc_sim_gt g, pyasc_sim_lt l2,
                   int64_t count, int64_t esize, const char *file, int line) {
  int rc = sim_copy(kv, dir, l, g, l2, count, esize, file, line);
  asc_pf *pf = asc_pf_cur;
  if (rc || !pf) return rc;
  int L = at(file, line);
  if (dir == PYASC_SIM_UB_UB)
    asc_pf_local(pf, pf_local_pipe(kv), count * esize / 32 * 32, L);
  else
    asc_pf_copy_count(pf, dir == PYASC_SIM_GM_UB ? ASC_K_MTE2 : ASC_K_MTE3, count, esize, g.base,
                      g.base + g.lead, L);
  return 0;
}
#define sim_copy pf_copy
static int pf_copy_params(void *kv, int dir, pyasc_sim_lt dst, pyasc_sim_lt src, pyasc_sim_gt g,
                          int64_t bc, int64_t bl, int64_t ss, int64_t ds, int64_t es,
                          const char *file, int line) {
  int rc = sim_copy_params(kv, dir, dst, src, g, bc, bl, ss, ds, es, file, line);
  asc_pf *pf = asc_pf_cur;
  if (rc || !pf) return rc;
  int L = at(file, line);
  if (dir == PYASC_SIM_UB_UB)
    asc_pf_local(pf, pf_local_pipe(kv), bc * bl * 32, L);
  else if (dir == PYASC_SIM_GM_UB)
    asc_pf_copy_blocks(pf, ASC_K_MTE2, g.base, g.base + g.lead, bc, bl, ss, L);
  else
    asc_pf_copy_blocks(pf, ASC_K_MTE3, g.base, g.base + g.lead, bc, bl, ds, L);
  return 0;
}
#define sim_copy_params pf_copy_params
/* DataCopyPad: blockLen and the GM side's gap in bytes */
static int pf_copy_pad_gm_ub(void *kv, int dt, pyasc_sim_lt dst, pyasc_sim_gt src, int64_t bc,
                             int64_t bl, int64_t ss, int64_t ds, int is_pad, int64_t lp, int64_t rp,
                             double pv, const char *file, int line) {
  int rc = sim_copy_pad_gm_ub(kv, dt, dst, src, bc, bl, ss, ds, is_pad, lp, rp, pv, file, line);
  if (!rc && asc_pf_cur)
    asc_pf_copy_pad(asc_pf_cur, ASC_K_MTE2, src.base, src.base + src.lead, bc, bl, ss,
                    at(file, line));
  return rc;
}
#define sim_copy_pad_gm_ub pf_copy_pad_gm_ub
static int pf_copy_pad_ub_gm(void *kv, int dt, pyasc_sim_gt dst, pyasc_sim_lt src, int64_t bc,
                             int64_t bl, int64_t ss, int64_t ds, const char *file, int line) {
  int rc = sim_copy_pad_ub_gm(kv, dt, dst, src, bc, bl, ss, ds, file, line);
  if (!rc && asc_pf_cur)
    asc_pf_copy_pad(asc_pf_cur, ASC_K_MTE3, dst.base, dst.base + dst.lead, bc, bl, ds,
                    at(file, line));
  return rc;
}
#define sim_copy_pad_ub_gm pf_copy_pad_ub_gm

/* --- the vector unit ------------------------------------------------------------ *
 * As emit_c_perf.c's pf_vector: a count form reads count elements of each
 * source (the widest dtype's bytes), the other forms are charged their
 * destination's length; two sources' UB offsets decide bank conflicts. */
static void pf_vec(int64_t bytes, int nsrc, int64_t a, int64_t b, const char *file, int line) {
  if (asc_pf_cur) asc_pf_vec(asc_pf_cur, bytes, nsrc, a, b, at(file, line));
}
PF_AFTER(binary,
         (void *kv, int op, int dt, pyasc_sim_lt d, pyasc_sim_lt a, pyasc_sim_lt b, int64_t n,
          const char *file, int line),
         (kv, op, dt, d, a, b, n, file, line),
         pf_vec(asc_k_dt_size(dt) * n, 2, a.off, b.off, file, line))
#define sim_binary pf_binary
PF_AFTER(scalar,
         (void *kv, int op, int dt, pyasc_sim_lt d, pyasc_sim_lt a, double s, int64_t n,
          const char *file, int line),
         (kv, op, dt, d, a, s, n, file, line), pf_vec(asc_k_dt_size(dt) * n, 1, -1, -1, file, line))
#define sim_scalar pf_scalar
PF_AFTER(unary,
         (void *kv, int op, int dt, pyasc_sim_lt d, pyasc_sim_lt a, int64_t n, const char *file,
          int line),
         (kv, op, dt, d, a, n, file, line), pf_vec(asc_k_dt_size(dt) * n, 1, -1, -1, file, line))
#define sim_unary pf_unary
PF_AFTER(duplicate,
         (void *kv, int dt, pyasc_sim_lt d, double v, int64_t n, const char *file, int line),
         (kv, dt, d, v, n, file, line), pf_vec(asc_k_dt_size(dt) * n, 0, -1, -1, file, line))
#define sim_duplicate pf_duplicate
PF_AFTER(leaky_relu,
         (void *kv, int dt, pyasc_sim_lt d, pyasc_sim_lt a, double alpha, int64_t n,
          const char *file, int line),
         (kv, dt, d, a, alpha, n, file, line), pf_vec(asc_k_dt_size(dt) * n, 1, -1, -1, file, line))
#define sim_leaky_relu pf_leaky_relu
static int pf_cast(void *kv, int dst_dt, int src_dt, pyasc_sim_lt d, pyasc_sim_lt a, int round,
                   int64_t n, const char *file, int line) {
  int rc = sim_cast(kv, dst_dt, src_dt, d, a, round, n, file, line);
  int64_t es =
      asc_k_dt_size(dst_dt) > asc_k_dt_size(src_dt) ? asc_k_dt_size(dst_dt) : asc_k_dt_size(src_dt);
  if (!rc) pf_vec(n * es, 1, -1, -1, file, line);
  return rc;
}
#define sim_cast pf_cast
/* the count form's work tensor is the header's own: its offset is unknown here */
PF_AFTER(reduce,
         (void *kv, int what, int dt, pyasc_sim_lt d, pyasc_sim_lt src, int64_t n, int cal_index,
          const char *file, int line),
         (kv, what, dt, d, src, n, cal_index, file, line),
         pf_vec(asc_k_dt_size(dt) * n, 2, src.off, -1, file, line))
#define sim_reduce pf_reduce
static int pf_vrun(void *kv, const pyasc_sim_vargs *a, const char *file, int line) {
  int rc = sim_vrun(kv, a, file, line);
  if (rc) return rc;
  int64_t es = 1;
  for (int j = 0; j <= a->nsrc && j < 3; j++)
    if (asc_k_dt_size(a->dt[j]) > es) es = asc_k_dt_size(a->dt[j]);
  int64_t elems = a->kind == 2 ? (int64_t)a->m0 : a->t[0].len;
  pf_vec(elems * es, a->nsrc, a->nsrc == 2 ? a->t[1].off : -1, a->nsrc == 2 ? a->t[2].off : -1,
         file, line);
  return 0;
}
#define sim_vrun pf_vrun
static int pf_reduce_mask(void *kv, int what, int dt, pyasc_sim_lt d, pyasc_sim_lt src, int kind,
                          uint64_t m0, uint64_t m1, int64_t repeat, int64_t src_rep, int cal_index,
                          const char *file, int line) {
  int rc =
      sim_reduce_mask(kv, what, dt, d, src, kind, m0, m1, repeat, src_rep, cal_index, file, line);
  if (!rc) pf_vec(d.len * asc_k_dt_size(dt), 2, src.off, -1, file, line);
  return rc;
}
#define sim_reduce_mask pf_reduce_mask
PF_AFTER(rrun, (void *kv, const pyasc_sim_rargs *r, const char *file, int line),
         (kv, r, file, line), pf_vec(asc_k_dt_size(r->dt) * r->dst.len, 1, -1, -1, file, line))
#define sim_rrun pf_rrun

/* --- synchronisation ---------------------------------------------------------- *
 * The event's pipes are the compiler's (sync_check.c's table), as a Python
 * kernel's emitted set_flag/wait_flag name them. */
static int pf_flag(int rc, int wait, int event, int64_t id) {
  int src, dst;
  if (rc || !asc_pf_cur) return rc;
  if (sync_event_pipes(event, &src, &dst))
    asc_pf_s(asc_pf_cur, 1);
  else if (wait)
    asc_pf_wait_flag(asc_pf_cur, event, id, dst);
  else
    asc_pf_set_flag(asc_pf_cur, event, id, src);
  return 0;
}
static int pf_set_flag(void *kv, int event, int64_t id, const char *file, int line) {
  return pf_flag(sim_set_flag(kv, event, id, file, line), 0, event, id);
}
#define sim_set_flag pf_set_flag
static int pf_wait_flag(void *kv, int event, int64_t id, const char *file, int line) {
  return pf_flag(sim_wait_flag(kv, event, id, file, line), 1, event, id);
}
#define sim_wait_flag pf_wait_flag
static int pf_barrier(void *kv, int pipe, const char *file, int line) {
  int rc = sim_barrier(kv, pipe, file, line);
  if (rc || !asc_pf_cur) return rc;
  if (pipe == SYNC_PIPE_ALL)
    asc_pf_barrier_all(asc_pf_cur);
  else
    asc_pf_s(asc_pf_cur, 1);
  return 0;
}
#define sim_barrier pf_barrier
static int pf_sync_all(void *kv, int64_t used, const char *file, int line) {
  int rc = sim_sync_all(kv, used, file, line);
  if (!rc && asc_pf_cur) asc_pf_barrier_all(asc_pf_cur);
  return rc;
}
#define sim_sync_all pf_sync_all

/* The widest of an element size and the uint32_t offsets or indices a
 * gather or a sort reads beside its elements (pf_vector's widest operand) */
static int64_t pf_wide(int64_t es) {
  return es > 4 ? es : 4;
}
/* vec_more's forms, as a Python kernel's ops of the same name are charged
 * (pf_vector: Sort32's operands make it a count form of repeatTime). v
 * holds each form's element size or dtype where the header puts it.
 * SetL2CacheHint: Ascend C's CacheMode numbers DISABLE 0 and NORMAL 1, the
 * model (PyAsc's CacheMode) the other way round. */
static int pf_vec_more(void *kv, int op, const int64_t *v, const pyasc_sim_lt *t, pyasc_sim_gt g,
                       double f, int64_t *out, const char *file, int line) {
  int rc = sim_vec_more(kv, op, v, t, g, f, out, file, line);
  if (rc || !asc_pf_cur) return rc;
  switch (op) {
    case PYASC_SIM_VEC_L2_HINT:
      asc_pf_l2_hint(asc_pf_cur, g.base, v[0] == 0 ? 1 : v[0] == 1 ? 0 : v[0], v[1]);
      break;
    case PYASC_SIM_VEC_GATHER:
      pf_vec(t[0].len * pf_wide(v[2]), 2, t[1].off, t[2].off, file, line);
      break;
    case PYASC_SIM_VEC_GATHERB:
      pf_vec(t[0].len * pf_wide(asc_k_dt_size((int)v[3])), 2, t[1].off, t[2].off, file, line);
      break;
    case PYASC_SIM_VEC_SORT32:
      pf_vec(v[0] * pf_wide(asc_k_dt_size((int)v[1])), 2, t[1].off, t[2].off, file, line);
      break;
    case PYASC_SIM_VEC_MRG_SORT:
      pf_vec(t[0].len * asc_k_dt_size((int)v[7]), 4, -1, -1, file, line);
      break;
    case PYASC_SIM_VEC_TRANSPOSE:
      pf_vec(t[0].len * v[0], 1, -1, -1, file, line);
      break;
    case PYASC_SIM_VEC_BRCB:
      pf_vec(t[0].len * v[3], 1, -1, -1, file, line);
      break;
    default:
      break;
  }
  return 0;
}
#define sim_vec_more pf_vec_more
/* adv_more's Gather and Scatter (count and mask forms), charged as the
 * Python kernel's gather/scatter ops are (pf_vector: the destination's
 * length at the widest operand, the two sources' banks); its other forms
 * are not charged yet (docs/perf-model.md). */
static int pf_adv_more(void *kv, int op, const int64_t *v, const pyasc_sim_lt *t, pyasc_sim_gt g,
                       double f, int64_t *out, const char *file, int line) {
  int rc = sim_adv_more(kv, op, v, t, g, f, out, file, line);
  if (rc || !asc_pf_cur) return rc;
  if (op == PYASC_SIM_ADV_GATHER_SCATTER)
    pf_vec(t[0].len * pf_wide(v[10]), 2, t[1].off, t[2].off, file, line);
  return 0;
}
#define sim_adv_more pf_adv_more

#ifdef ASC_K_CUBE
/* --- the cube ---------------------------------------------------------------- */
static int pf_cube_load(void *kv, pyasc_sim_lt dst, pyasc_sim_lt src, pyasc_sim_gt g, int gm,
                        int dt, int64_t start, int64_t repeat, int64_t src_stride, int64_t dst_gap,
                        int transpose, const char *file, int line) {
  int rc = sim_cube_load(kv, dst, src, g, gm, dt, start, repeat, src_stride, dst_gap, transpose,
                         file, line);
  asc_pf *pf = asc_pf_cur;
  if (rc || !pf) return rc;
  int64_t bytes = dst.len * asc_k_dt_size(dt);
  if (gm)
    asc_pf_gm(pf, ASC_K_MTE2, bytes, g.base, g.base + g.lead, at(file, line));
  else
    asc_pf_local(pf, ASC_K_MTE1, bytes, at(file, line));
  return 0;
}
#define sim_cube_load pf_cube_load
static int pf_cube_mmad(void *kv, pyasc_sim_lt dst, pyasc_sim_lt a, pyasc_sim_lt b,
                        pyasc_sim_lt bias, int has_bias, int dst_dt, int dt, int64_t m, int64_t n,
                        int64_t kk, int init, const char *file, int line) {
  int rc = sim_cube_mmad(kv, dst, a, b, bias, has_bias, dst_dt, dt, m, n, kk, init, file, line);
  if (!rc && asc_pf_cur) asc_pf_mmad(asc_pf_cur, m, n, kk, at(file, line));
  return rc;
}
#define sim_cube_mmad pf_cube_mmad
/* to GM: L0C's bytes (src's length) through the L2; to the UB or L1: dst's */
static int pf_cube_fixpipe(void *kv, int ub, pyasc_sim_gt g, pyasc_sim_lt dst, pyasc_sim_lt src,
                           pyasc_sim_lt qv, int has_qv, int dt, int st, const int64_t *p,
                           double deq, const char *file, int line) {
  int rc = sim_cube_fixpipe(kv, ub, g, dst, src, qv, has_qv, dt, st, p, deq, file, line);
  asc_pf *pf = asc_pf_cur;
  if (rc || !pf) return rc;
  if (ub)
    asc_pf_local(pf, ASC_K_FIX, dst.len * asc_k_dt_size(dt), at(file, line));
  else
    asc_pf_gm(pf, ASC_K_FIX, src.len * asc_k_dt_size(st), g.base, g.base + g.lead, at(file, line));
  return 0;
}
#define sim_cube_fixpipe pf_cube_fixpipe
/* Nd2NzParams v: ndNum, nValue, dValue, srcNdMatrixStride, srcDValue (elements) */
static int pf_cube_nd2nz(void *kv, pyasc_sim_lt dst, pyasc_sim_gt g, pyasc_sim_lt src, int ub,
                         int dt, const int64_t *v, const char *file, int line) {
  int rc = sim_cube_nd2nz(kv, dst, g, src, ub, dt, v, file, line);
  asc_pf *pf = asc_pf_cur;
  if (rc || !pf) return rc;
  int64_t es = asc_k_dt_size(dt);
  if (ub)
    asc_pf_local(pf, ASC_K_MTE1, dst.len * es, at(file, line));
  else
    asc_pf_nd2nz(pf, g.base, g.base + g.lead, v[0], v[1], v[2] * es, v[3] * es, v[4] * es,
                 at(file, line));
  return 0;
}
#define sim_cube_nd2nz pf_cube_nd2nz

/* The other cube forms, as a Python kernel's ops of the same name are
 * charged: v[0] is the destination's dtype but for the sparse forms
 * (int8); CO12 and ND2NZ_PAD by their local operand's bytes on their
 * pipe, through the L2 when to GM. */
static int pf_cube_more(void *kv, int op, const int64_t *v, pyasc_sim_gt g, pyasc_sim_lt dst,
                        pyasc_sim_lt src, pyasc_sim_lt third, const char *file, int line) {
  int rc = sim_cube_more(kv, op, v, g, dst, src, third, file, line);
  asc_pf *pf = asc_pf_cur;
  if (rc || !pf) return rc;
  int L = at(file, line);
  switch (op) {
    case PYASC_SIM_CUBE_MMAD_SPARSE:
      asc_pf_mmad(pf, v[0], v[1], v[2], L);
      break;
    case PYASC_SIM_CUBE_LOAD_SPARSE:
      asc_pf_local(pf, ASC_K_MTE1, dst.len, L);
      break;
    case PYASC_SIM_CUBE_LOAD_T:
    case PYASC_SIM_CUBE_LOAD3D_V2:
    case PYASC_SIM_CUBE_LOAD3D_V1:
    case PYASC_SIM_CUBE_LOAD3D_V2PRO:
      asc_pf_local(pf, ASC_K_MTE1, dst.len * asc_k_dt_size((int)v[0]), L);
      break;
    case PYASC_SIM_CUBE_LOAD2D_V2: /* from GM on MTE2, from L1 on MTE1 */
      if (v[9])
        asc_pf_gm(pf, ASC_K_MTE2, dst.len * asc_k_dt_size((int)v[0]), g.base, g.base + g.lead, L);
      else
        asc_pf_local(pf, ASC_K_MTE1, dst.len * asc_k_dt_size((int)v[0]), L);
      break;
    case PYASC_SIM_CUBE_ND2NZ_PAD:
      asc_pf_local(pf, ASC_K_MTE3, dst.len * asc_k_dt_size((int)v[0]), L);
      break;
    case PYASC_SIM_CUBE_CO12:
      if (v[9])
        asc_pf_local(pf, ASC_K_FIX, dst.len * asc_k_dt_size((int)v[0]), L);
      else
        asc_pf_gm(pf, ASC_K_FIX, src.len * asc_k_dt_size((int)v[1]), g.base, g.base + g.lead, L);
      break;
    case PYASC_SIM_CUBE_FPQ: /* register writes: one scalar instruction */
    case PYASC_SIM_CUBE_L3D_BOUNDARY:
    case PYASC_SIM_CUBE_L3D_PAD:
    case PYASC_SIM_CUBE_L3D_REPEAT:
      asc_pf_s(pf, 1);
      break;
    default:
      break;
  }
  return 0;
}
#define sim_cube_more pf_cube_more

/* the adv Matmul: its internal pipes (perf_model.h's asc_pf_mm_*) */
static int pf_mm_init(void *kv, void *mm, int in_dt, int c_dt, int flags, const int32_t *t,
                      int64_t nfields, const char *file, int line) {
  int rc = sim_mm_init(kv, mm, in_dt, c_dt, flags, t, nfields, file, line);
  if (!rc && asc_pf_cur) {
    asc_pf_s(asc_pf_cur, 1);
    asc_pf_mm_init(asc_pf_cur, mm);
  }
  return rc;
}
#define sim_mm_init pf_mm_init
static int pf_mm_iterate(void *kv, void *mm, int *more, const char *file, int line) {
  int rc = sim_mm_iterate(kv, mm, more, file, line);
  if (!rc && asc_pf_cur) asc_pf_mm_iterate(asc_pf_cur, mm, *more, at(file, line));
  return rc;
}
#define sim_mm_iterate pf_mm_iterate
static int pf_mm_get_c(void *kv, void *mm, int all, int ub, pyasc_sim_gt g, pyasc_sim_lt t, int dt,
                       int atomic, const char *file, int line) {
  int rc = sim_mm_get_c(kv, mm, all, ub, g, t, dt, atomic, file, line);
  asc_pf *pf = asc_pf_cur;
  if (rc || !pf) return rc;
  int L = at(file, line), es = (int)asc_k_dt_size(dt);
  const char *base = ub ? NULL : g.base, *addr = ub ? NULL : g.base + g.lead;
  if (all) {
    asc_pf_mm_all(pf, mm, base, addr, es, L);
  } else {
    asc_pf_s(pf, 1);
    asc_pf_mm_out(pf, mm, base, addr, es, L);
  }
  return 0;
}
#define sim_mm_get_c pf_mm_get_c
/* Matmul's other members that move data, as a Python kernel's ops charge
 * them (pf_vector's default: FIXPIPE over the LocalTensor's bytes, through
 * the L2 when C also goes to GM); the rest are the scalar unit's */
static int pf_mm_more(void *kv, void *mm, int op, const int64_t *v, pyasc_sim_gt g, pyasc_sim_lt t,
                      double f, pyasc_sim_gt *gout, const char *file, int line) {
  int rc = sim_mm_more(kv, mm, op, v, g, t, f, gout, file, line);
  asc_pf *pf = asc_pf_cur;
  if (rc || !pf) return rc;
  const asc_k_matmul *m = mm;
  if (op == PYASC_SIM_MM_GET_BATCH_C)
    asc_pf_local(pf, ASC_K_FIX, t.len * asc_kc_esize((asc_kc_type)m->c_type), at(file, line));
  else if (op == PYASC_SIM_MM_GET_C_BOTH)
    asc_pf_gm(pf, ASC_K_FIX, t.len * asc_k_dt_size((int)v[1]), g.base, g.base + g.lead,
              at(file, line));
  return 0;
}
#define sim_mm_more pf_mm_more
#endif /* ASC_K_CUBE */
