/* The kernel runtime (the units under rt/) as a table of functions for Ascend C compiled
 * for the simulated AI cores (include/ascendc/pyasc_sim.h). This file is
 * compiled several times: plain, with ASC_K_CHECKED 1 (ascendc_rt_checked.c),
 * with ASC_K_PROFILE (ascendc_rt_profiled.c), each giving one table; jit.c hands a C++ kernel the
 * one its checked mode asks for when it loads it. Every entry calls the same runtime function a
 * kernel written in Python calls for that API. */
#include <stddef.h>
#include <stdint.h>

#include "../../include/ascendc/pyasc_sim.h"

/* The runtime names a call's file through asc_k_files[line >> 20]: here
 * one slot, per thread (a block runs on one thread), set by every call. */
static _Thread_local const char *asc_k_files[1];
/* gcc's -O3 sees the runtime's mask set-up (asc_k_sel_make) through every
 * caller here and reports fields it sets on all paths that reach their use
 * as maybe uninitialized. */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
#include "asc_kernel_rt.h"
#include "ascendc_rt.h"

#ifndef PYASC_SIM_TABLE
#define PYASC_SIM_TABLE asc_ascendc_table_plain
#endif

_Static_assert(sizeof(pyasc_sim_arg) == sizeof(asc_k_arg), "pyasc_sim_arg differs");
_Static_assert(sizeof(pyasc_sim_gt) == sizeof(asc_k_gt), "pyasc_sim_gt differs");
_Static_assert(sizeof(pyasc_sim_lt) == sizeof(asc_k_lt), "pyasc_sim_lt differs");
_Static_assert(sizeof(asc_k_pipe) <= PYASC_SIM_PIPE_BYTES, "TPipe storage too small");
_Static_assert(sizeof(asc_k_que) <= PYASC_SIM_QUE_BYTES, "TQue storage too small");
_Static_assert(sizeof(asc_k_tbuf) <= PYASC_SIM_TBUF_BYTES, "TBuf storage too small");

/* The line a runtime call reports: the user's line, file slot 0. */
static int at(const char *file, int line) {
  asc_k_files[0] = file ? file : "?";
  return (int)((unsigned)line & 0xfffffu);
}
static asc_k_gt gt_in(pyasc_sim_gt g) {
  asc_k_gt r = {g.base, g.n, g.lead, g.size, g.skip};
  return r;
}
static pyasc_sim_gt gt_out(asc_k_gt g) {
  pyasc_sim_gt r = {g.base, g.n, g.lead, g.size, g.skip};
  return r;
}
static asc_k_lt lt_in(pyasc_sim_lt t) {
  asc_k_lt r = {t.off, t.len};
  return r;
}
static pyasc_sim_lt lt_out(asc_k_lt t) {
  pyasc_sim_lt r = {t.off, t.len};
  return r;
}
static int unsupported(asc_k_ctx *k, int line, const char *api, int dt) {
  return asc_k_fail(k, line, "%s: dtype %d is not supported by the simulator's Ascend C API", api,
                    dt);
}

/* The special register ReduceSum's count form leaves its result in
 * (GetReduceRepeatSumSpr); per thread, as a block runs on one. */
static _Thread_local double sim_sum_spr;

static int sim_begin(void *kv) {
  asc_k_ctx *k = kv;
  asc_k_vm_init(k);
  sim_sum_spr = 0;
#if ASC_K_CHECKED
  return asc_k_chk_begin(k);
#else
  return 0;
#endif
}
static void sim_end(void *kv) {
#if ASC_K_CHECKED
  asc_k_chk_end(kv);
#else
  (void)kv;
#endif
}
static int sim_failed(void *kv) {
  return ((asc_k_ctx *)kv)->status != 0;
}
static int sim_fail(void *kv, const char *file, int line, const char *message) {
  return asc_k_fail(kv, at(file, line), "%s", message);
}
static int64_t sim_block_idx(void *kv) {
  return ((asc_k_ctx *)kv)->block_idx;
}
static int64_t sim_block_num(void *kv) {
  return ((asc_k_ctx *)kv)->block_num;
}
static uint16_t sim_f2h(float x) {
  return asc_k_f2h(x);
}
static float sim_h2f(uint16_t h) {
  return asc_k_h2f(h);
}

/* --- GlobalTensor ------------------------------------------------------------ */
/* A raw GM pointer as the runtime's address: an offset into the launch
 * argument whose memory holds it (its end counts too); a pointer into no
 * argument is an address with no memory (reads give zeros, writes are
 * dropped; checked mode reports it at set_global_buffer). */
static asc_k_addr resolve(const asc_k_ctx *k, const void *ptr) {
  uintptr_t p = (uintptr_t)ptr;
  asc_k_addr a = {(char *)ptr, 0, 0};
  int end_match = -1;
  for (int i = 0; i < k->sys.nargs; i++) {
    const asc_k_arg *g = &k->sys.args[i];
    uintptr_t b = (uintptr_t)g->v.p;
    if (g->n <= 0 || p < b) continue;
    if (p - b < (uintptr_t)g->n) {
      asc_k_addr r = {g->v.p, g->n, (int64_t)(p - b)};
      return r;
    }
    if (p - b == (uintptr_t)g->n && end_match < 0) end_match = i;
  }
  if (end_match >= 0) {
    asc_k_addr r = {k->sys.args[end_match].v.p, k->sys.args[end_match].n, k->sys.args[end_match].n};
    return r;
  }
  /* a pointer the kernel read from memory (a tensor list's): a live device
   * allocation, as the runtime's one provenance check finds it */
  int freed;
  asc_k_addr r = asc_k_resolve(k, (uint64_t)p, &freed);
  return r.base ? r : a;
}
static int sim_global_new(void *kv, pyasc_sim_gt *g, const void *ptr, int64_t size, int64_t esize,
                          const char *file, int line) {
  asc_k_ctx *k = kv;
  asc_k_gt r = {0};
  int rc = asc_k_global_new(k, &r, resolve(k, ptr), size, esize, at(file, line));
  *g = gt_out(r);
  return rc;
}
static pyasc_sim_gt sim_global_slice(pyasc_sim_gt g, int64_t off, int64_t esize) {
  return gt_out(asc_k_global_slice(gt_in(g), off, esize));
}
static int64_t sim_global_size(pyasc_sim_gt g) {
  return asc_k_global_size(gt_in(g));
}

/* Element access by dtype, through the runtime's per-dtype functions:
 * floating values as double, integers as int64 (all their bits). The four
 * accessors (get and set on a GlobalTensor or a LocalTensor) differ only in
 * the runtime family they call and the handle they pass, so one definition
 * serves all four. */
/* clang-format off */
#define SIM_FLOATS(X, ...)                                                 \
  X(FLOAT16, float16, __VA_ARGS__) X(BFLOAT16, bfloat16, __VA_ARGS__)     \
  X(FLOAT32, float32, __VA_ARGS__) X(FLOAT64, float64, __VA_ARGS__)
#define SIM_INTS(X, ...)                                                   \
  X(INT8, int8, __VA_ARGS__) X(UINT8, uint8, __VA_ARGS__)                 \
  X(INT16, int16, __VA_ARGS__) X(INT32, int32, __VA_ARGS__)               \
  X(INT64, int64, __VA_ARGS__) X(BOOL, bool, __VA_ARGS__)                 \
  X(UINT16, uint16, __VA_ARGS__) X(UINT32, uint32, __VA_ARGS__) X(UINT64, uint64, __VA_ARGS__)
/* clang-format on */
#define SIM_ACCESS_CASE(DT, S, OP, H, V) \
  case ASC_K_DT_##DT:                    \
    return asc_k_##OP##_##S(k, H, idx, V, L);
#define SIM_ACCESS(NAME, OP, HT, H, FT, IT, API)                                                 \
  static int NAME(void *kv, int dt, HT h, int64_t idx, FT f, IT i, const char *file, int line) { \
    asc_k_ctx *k = kv;                                                                           \
    int L = at(file, line);                                                                      \
    switch (dt) {                                                                                \
      SIM_FLOATS(SIM_ACCESS_CASE, OP, H, f)                                                      \
      SIM_INTS(SIM_ACCESS_CASE, OP, H, i)                                                        \
      default:                                                                                   \
        return unsupported(k, L, API, dt);                                                       \
    }                                                                                            \
  }
SIM_ACCESS(sim_gget, gget, pyasc_sim_gt, gt_in(h), double *, int64_t *, "GetValue")
SIM_ACCESS(sim_gset, gset, pyasc_sim_gt, gt_in(h), double, int64_t, "SetValue")

/* --- LocalTensor ------------------------------------------------------------- */
static int sim_local_new(void *kv, pyasc_sim_lt *t, int64_t addr, int64_t len, int64_t esize,
                         const char *file, int line) {
  asc_k_ctx *k = kv;
  int L = at(file, line);
  asc_k_lt r = asc_k_local_new(addr, len);
  *t = lt_out(r);
  if (asc_k_local_check(k, r, esize, L)) return 1;
#if ASC_K_CHECKED
  return asc_k_chk_local_new(k, r, esize, L);
#else
  return 0;
#endif
}
static pyasc_sim_lt sim_local_slice(pyasc_sim_lt t, int64_t off, int64_t esize) {
  return lt_out(asc_k_local_slice(lt_in(t), off, esize));
}
static pyasc_sim_lt sim_local_cast(pyasc_sim_lt t, int64_t from, int64_t to) {
  return lt_out(asc_k_local_cast(lt_in(t), from, to));
}
SIM_ACCESS(sim_lget, lget, pyasc_sim_lt, lt_in(h), double *, int64_t *, "GetValue")
SIM_ACCESS(sim_lset, lset, pyasc_sim_lt, lt_in(h), double, int64_t, "SetValue")

/* --- TPipe, TQue, TBuf --------------------------------------------------------- */
static void sim_pipe_init(void *pipe) {
  memset(pipe, 0, sizeof(asc_k_pipe));
}
static void sim_pipe_reset(void *kv, void *pipe) {
#if ASC_K_CHECKED
  asc_k_chk_pipe_reset(kv);
#else
  (void)kv;
#endif
  asc_k_pipe_reset(pipe);
}
static void sim_que_init(void *que, int depth) {
  asc_k_que *q = que;
  memset(q, 0, sizeof *q);
  /* depth 0, the in-place queue, orders every buffer enqueued (emit_c_forms.c) */
  /* the bits above 16 name the queue's positions (ascendc_rt_perf.h) */
  depth &= 0xffff;
  q->depth = depth > 0 && depth <= ASC_K_MAX_DEPTH ? depth : ASC_K_MAX_DEPTH;
}
static void sim_tbuf_init(void *tbuf) {
  memset(tbuf, 0, sizeof(asc_k_tbuf));
}
static int sim_init_buffer(void *kv, void *pipe, void *que, int64_t num, int64_t len,
                           const char *file, int line) {
  return asc_k_init_buffer(kv, pipe, que, num, len, at(file, line));
}
static int sim_init_tbuf(void *kv, void *pipe, void *tbuf, int64_t len, const char *file,
                         int line) {
  return asc_k_init_tbuf(kv, pipe, tbuf, len, at(file, line));
}
static int sim_tbuf_get(void *kv, const void *tbuf, int64_t len, int64_t esize, pyasc_sim_lt *t,
                        const char *file, int line) {
  asc_k_lt r = {0, 0};
  int rc = asc_k_tbuf_get(kv, tbuf, len, esize, &r, at(file, line));
  *t = lt_out(r);
  return rc;
}
static int sim_alloc_tensor(void *kv, void *que, pyasc_sim_lt *t, int64_t esize, const char *file,
                            int line) {
  asc_k_lt r = {0, 0};
  int rc = asc_k_alloc_tensor(kv, que, &r, esize, at(file, line));
  *t = lt_out(r);
  return rc;
}
static int sim_enque(void *kv, void *que, pyasc_sim_lt t, const char *file, int line) {
  return asc_k_enque(kv, que, lt_in(t), at(file, line));
}
static int sim_deque(void *kv, void *que, pyasc_sim_lt *t, int64_t esize, const char *file,
                     int line) {
  asc_k_lt r = {0, 0};
  int rc = asc_k_deque(kv, que, &r, esize, at(file, line));
  *t = lt_out(r);
  return rc;
}
static int sim_free_tensor(void *kv, void *que, pyasc_sim_lt t, const char *file, int line) {
  return asc_k_free_tensor(kv, que, lt_in(t), at(file, line));
}

/* --- data movement ------------------------------------------------------------- */
#ifdef ASC_K_CUBE
/* DataCopy GM -> L1 (ascendc_rt_cube.h): a destination tagged with a cube buffer. */
static int sim_cube_copy_gm_l1(asc_k_ctx *k, asc_k_lt dst, asc_k_gt g, int64_t bc, int64_t bl,
                               int64_t ss, int64_t ds, int64_t es, int L);
static int sim_cube_copy_l1_gm(asc_k_ctx *k, asc_k_gt g, asc_k_lt src, int64_t bc, int64_t bl,
                               int64_t ss, int64_t ds, int64_t es, int L);
static int sim_cube_copy_l1_bt(asc_k_ctx *k, asc_k_lt dst, asc_k_lt src, int64_t bc, int64_t bl,
                               int64_t ss, int64_t ds, int64_t es, int L);
#define SIM_TO_CUBE(k, dir, dst) \
  ((dir) == PYASC_SIM_GM_UB && (k)->cube && (dst).off >> ASC_KC_TAG_SHIFT)
#else
#define SIM_TO_CUBE(k, dir, dst) 0
#endif
static int sim_copy(void *kv, int dir, pyasc_sim_lt l, pyasc_sim_gt g, pyasc_sim_lt l2,
                    int64_t count, int64_t esize, const char *file, int line) {
  int L = at(file, line);
#ifdef ASC_K_CUBE
  /* the count form to L1: one burst of count elements */
  if (SIM_TO_CUBE((asc_k_ctx *)kv, dir, l))
    return sim_cube_copy_gm_l1(kv, lt_in(l), gt_in(g), 1, asc_k_mul(count, esize), 0, 0, -esize, L);
#endif
  switch (dir) {
    case PYASC_SIM_GM_UB:
      return asc_k_copy_gm_ub(kv, lt_in(l), gt_in(g), count, esize, L);
    case PYASC_SIM_UB_GM:
      return asc_k_copy_ub_gm(kv, gt_in(g), lt_in(l), count, esize, L);
    default:
      return asc_k_copy_ub_ub(kv, lt_in(l), lt_in(l2), count, esize, "data_copy", L);
  }
}
static int sim_copy_pad_gm_ub(void *kv, int dt, pyasc_sim_lt dst, pyasc_sim_gt src, int64_t bc,
                              int64_t bl, int64_t ss, int64_t ds, int is_pad, int64_t lp,
                              int64_t rp, double pv, const char *file, int line) {
  return asc_k_copy_pad_gm_ub(kv, dt, lt_in(dst), gt_in(src), bc, bl, ss, ds, is_pad, lp, rp, pv,
                              at(file, line));
}
static int sim_copy_pad_ub_gm(void *kv, int dt, pyasc_sim_gt dst, pyasc_sim_lt src, int64_t bc,
                              int64_t bl, int64_t ss, int64_t ds, const char *file, int line) {
  return asc_k_copy_pad_ub_gm(kv, dt, gt_in(dst), lt_in(src), bc, bl, ss, ds, at(file, line));
}

/* --- the vector unit ------------------------------------------------------------ */
#define SIM_BY_DT(FN, ...)              \
  switch (dt) {                         \
    case ASC_K_DT_FLOAT16:              \
      return FN##_float16(__VA_ARGS__); \
    case ASC_K_DT_FLOAT32:              \
      return FN##_float32(__VA_ARGS__); \
    default:                            \
      break;                            \
  }
#define SIM_BY_DT_INT(FN, ...)        \
  switch (dt) {                       \
    case ASC_K_DT_INT16:              \
      return FN##_int16(__VA_ARGS__); \
    case ASC_K_DT_INT32:              \
      return FN##_int32(__VA_ARGS__); \
    default:                          \
      break;                          \
  }

/* One operation's case in a switch on op: its float forms, and for those
 * defined on them its int16/int32 forms; any other dtype is unsupported. */
#define SIM_CASE_F(OP, FN, API, ...) \
  case OP:                           \
    SIM_BY_DT(FN, __VA_ARGS__);      \
    return unsupported(k, L, API, dt);
#define SIM_CASE_FI(OP, FN, API, ...) \
  case OP:                            \
    SIM_BY_DT(FN, __VA_ARGS__);       \
    SIM_BY_DT_INT(FN, __VA_ARGS__);   \
    return unsupported(k, L, API, dt);

static int sim_binary(void *kv, int op, int dt, pyasc_sim_lt d, pyasc_sim_lt a, pyasc_sim_lt b,
                      int64_t n, const char *file, int line) {
  asc_k_ctx *k = kv;
  int L = at(file, line);
  asc_k_lt D = lt_in(d), A = lt_in(a), B = lt_in(b);
  switch (op) {
    SIM_CASE_FI(PYASC_SIM_ADD, asc_k_add, "Add", k, D, A, B, n, L)
    SIM_CASE_FI(PYASC_SIM_SUB, asc_k_sub, "Sub", k, D, A, B, n, L)
    SIM_CASE_FI(PYASC_SIM_MUL, asc_k_mul, "Mul", k, D, A, B, n, L)
    SIM_CASE_F(PYASC_SIM_DIV, asc_k_div, "Div", k, D, A, B, n, L)
    SIM_CASE_FI(PYASC_SIM_MAX, asc_k_max, "Max", k, D, A, B, n, L)
    SIM_CASE_FI(PYASC_SIM_MIN, asc_k_min, "Min", k, D, A, B, n, L)
    default:
      return asc_k_fail(k, L, "unknown binary vector operation %d", op);
  }
}
static int sim_scalar(void *kv, int op, int dt, pyasc_sim_lt d, pyasc_sim_lt a, double s, int64_t n,
                      const char *file, int line) {
  asc_k_ctx *k = kv;
  int L = at(file, line);
  asc_k_lt D = lt_in(d), A = lt_in(a);
  switch (op) {
    SIM_CASE_FI(PYASC_SIM_ADDS, asc_k_adds, "Adds", k, D, A, s, n, L)
    SIM_CASE_FI(PYASC_SIM_MULS, asc_k_muls, "Muls", k, D, A, s, n, L)
    SIM_CASE_FI(PYASC_SIM_MAXS, asc_k_maxs, "Maxs", k, D, A, s, n, L)
    SIM_CASE_FI(PYASC_SIM_MINS, asc_k_mins, "Mins", k, D, A, s, n, L)
    default:
      return asc_k_fail(k, L, "unknown scalar vector operation %d", op);
  }
}
static int sim_unary(void *kv, int op, int dt, pyasc_sim_lt d, pyasc_sim_lt a, int64_t n,
                     const char *file, int line) {
  asc_k_ctx *k = kv;
  int L = at(file, line);
  asc_k_lt D = lt_in(d), A = lt_in(a);
  switch (op) {
    SIM_CASE_F(PYASC_SIM_EXP, asc_k_exp, "Exp", k, D, A, n, L)
    SIM_CASE_F(PYASC_SIM_LN, asc_k_ln, "Ln", k, D, A, n, L)
    SIM_CASE_FI(PYASC_SIM_ABS, asc_k_abs, "Abs", k, D, A, n, L)
    SIM_CASE_F(PYASC_SIM_SQRT, asc_k_sqrt, "Sqrt", k, D, A, n, L)
    SIM_CASE_F(PYASC_SIM_RSQRT, asc_k_rsqrt, "Rsqrt", k, D, A, n, L)
    SIM_CASE_F(PYASC_SIM_RECIPROCAL, asc_k_reciprocal, "Reciprocal", k, D, A, n, L)
    SIM_CASE_FI(PYASC_SIM_RELU, asc_k_relu, "Relu", k, D, A, n, L)
    default:
      return asc_k_fail(k, L, "unknown unary vector operation %d", op);
  }
}
/* Duplicate's form for each dtype it has (NULL: unsupported). */
static int (*const sim_duplicates[])(asc_k_ctx *, asc_k_lt, double, int64_t, int) = {
    [ASC_K_DT_FLOAT16] = asc_k_duplicate_float16, [ASC_K_DT_FLOAT32] = asc_k_duplicate_float32,
    [ASC_K_DT_INT8] = asc_k_duplicate_int8,       [ASC_K_DT_UINT8] = asc_k_duplicate_uint8,
    [ASC_K_DT_INT16] = asc_k_duplicate_int16,     [ASC_K_DT_INT32] = asc_k_duplicate_int32,
    [ASC_K_DT_UINT16] = asc_k_duplicate_uint16,   [ASC_K_DT_UINT32] = asc_k_duplicate_uint32,
};
static int sim_duplicate(void *kv, int dt, pyasc_sim_lt d, double v, int64_t n, const char *file,
                         int line) {
  asc_k_ctx *k = kv;
  int L = at(file, line);
  int known = dt >= 0 && dt < (int)(sizeof sim_duplicates / sizeof *sim_duplicates);
  if (!known || !sim_duplicates[dt]) return unsupported(k, L, "Duplicate", dt);
  return sim_duplicates[dt](k, lt_in(d), v, n, L);
}
/* A count form through the executor, as the C emitter writes it
 * (emit_c_vector.c emit_vrun): contiguous operands, a repeat spanning 256
 * bytes of the widest. */
static int vrun(asc_k_ctx *k, int op, const char *api, int ndt, const int *dts, const asc_k_lt *ts,
                double scalar, int mode, int64_t n, int L) {
  asc_k_vargs A;
  memset(&A, 0, sizeof A);
  A.op = op;
  A.nsrc = ndt - 1;
  A.api = api;
  A.scalar = scalar;
  int64_t widest = 1;
  for (int j = 0; j < ndt; j++)
    if (asc_k_dt_size(dts[j]) > widest) widest = asc_k_dt_size(dts[j]);
  for (int j = 0; j < ndt; j++) {
    A.dt[j] = dts[j];
    A.t[j] = ts[j];
    A.blk[j] = 1;
    A.rep[j] = 8 * asc_k_dt_size(dts[j]) / widest;
  }
  A.kind = 2;
  A.set_mask = 1;
  A.mode = mode;
  A.m0 = n;
  return asc_k_vrun(k, &A, L);
}
static int sim_leaky_relu(void *kv, int dt, pyasc_sim_lt d, pyasc_sim_lt a, double alpha, int64_t n,
                          const char *file, int line) {
  int dts[2] = {dt, dt};
  asc_k_lt ts[2] = {lt_in(d), lt_in(a)};
  return vrun(kv, ASC_K_VOP_leaky_relu, "leaky_relu", 2, dts, ts, alpha, 0, n, at(file, line));
}
static int sim_cast(void *kv, int dst_dt, int src_dt, pyasc_sim_lt d, pyasc_sim_lt a, int round,
                    int64_t n, const char *file, int line) {
  int dts[2] = {dst_dt, src_dt};
  asc_k_lt ts[2] = {lt_in(d), lt_in(a)};
  return vrun(kv, ASC_K_VOP_cast, "cast", 2, dts, ts, 0.0, round, n, at(file, line));
}
/* The count forms of the float reductions, each a copy of asc_k_reduce
 * the compiler specialises for its constants (as it does inside a kernel
 * written in Python, which calls it with them): the generic call reads
 * every element through a switch on its dtype, several times slower. */
#define SIM_REDUCE_FAST(W, DT)                                                                  \
  static __attribute__((flatten, noinline)) int reduce_##W##_##DT(                              \
      asc_k_ctx *k, asc_k_lt d, asc_k_lt s, int64_t n, int cal_index, const char *api, int L) { \
    return asc_k_reduce(k, W, ASC_K_DT_##DT, d, s, 2, n, 0, 0, 8, cal_index, api, L);           \
  }
SIM_REDUCE_FAST(0, FLOAT16)
SIM_REDUCE_FAST(1, FLOAT16)
SIM_REDUCE_FAST(2, FLOAT16)
SIM_REDUCE_FAST(0, FLOAT32)
SIM_REDUCE_FAST(1, FLOAT32)
SIM_REDUCE_FAST(2, FLOAT32)
#undef SIM_REDUCE_FAST

static int sim_reduce_run(void *kv, int what, int dt, pyasc_sim_lt d, pyasc_sim_lt src, int64_t n,
                          int cal_index, const char *file, int line) {
  static const char *const names[] = {"reduce_sum", "reduce_max", "reduce_min"};
  int L = at(file, line);
  if (what < 0 || what > 2) return asc_k_fail(kv, L, "unknown reduction %d", what);
  asc_k_lt D = lt_in(d), S = lt_in(src);
  typedef int (*fast_fn)(asc_k_ctx *, asc_k_lt, asc_k_lt, int64_t, int, const char *, int);
  static const fast_fn f16[] = {reduce_0_FLOAT16, reduce_1_FLOAT16, reduce_2_FLOAT16};
  static const fast_fn f32[] = {reduce_0_FLOAT32, reduce_1_FLOAT32, reduce_2_FLOAT32};
  const fast_fn *fast = dt == ASC_K_DT_FLOAT16 ? f16 : dt == ASC_K_DT_FLOAT32 ? f32 : NULL;
  if (fast) return fast[what](kv, D, S, n, cal_index, names[what], L);
  return asc_k_reduce(kv, what, dt, D, S, 2, n, 0, 0, 8, cal_index, names[what], L);
}
static int sim_reduce(void *kv, int what, int dt, pyasc_sim_lt d, pyasc_sim_lt src, int64_t n,
                      int cal_index, const char *file, int line) {
  asc_k_ctx *k = kv;
  if (sim_reduce_run(kv, what, dt, d, src, n, cal_index, file, line)) return 1;
  /* the sum, as written to dst[0], is also the register's */
  if (what == 0 && d.off >= 0 && d.off <= k->ub_size - asc_k_dt_size(dt))
    sim_sum_spr = asc_k_ld(dt, k->ub + d.off);
  return 0;
}

/* --- synchronisation and debugging ------------------------------------------------ */
static int sim_set_flag(void *kv, int event, int64_t id, const char *file, int line) {
#if ASC_K_CHECKED
  return asc_k_chk_set_flag(kv, event, id, at(file, line));
#else
  (void)kv, (void)event, (void)id, (void)file, (void)line;
  return 0; /* program order on the simulated core */
#endif
}
static int sim_wait_flag(void *kv, int event, int64_t id, const char *file, int line) {
#if ASC_K_CHECKED
  return asc_k_chk_wait_flag(kv, event, id, at(file, line));
#else
  (void)kv, (void)event, (void)id, (void)file, (void)line;
  return 0;
#endif
}
static int sim_barrier(void *kv, int pipe, const char *file, int line) {
#if ASC_K_CHECKED
  return asc_k_chk_barrier(kv, pipe, at(file, line));
#else
  (void)kv, (void)pipe, (void)file, (void)line;
  return 0;
#endif
}
static int sim_trap(void *kv, const char *file, int line) {
  return asc_k_trap(kv, at(file, line));
}

/* --- the executor, the mask register ---------------------------------------------- */
static const struct {
  int op;
  const char *api;
} vops[PYASC_SIM_VOP_COUNT] = {
    [PYASC_SIM_VOP_ADD] = {ASC_K_VOP_add, "add"},
    [PYASC_SIM_VOP_SUB] = {ASC_K_VOP_sub, "sub"},
    [PYASC_SIM_VOP_MUL] = {ASC_K_VOP_mul, "mul"},
    [PYASC_SIM_VOP_DIV] = {ASC_K_VOP_div, "div"},
    [PYASC_SIM_VOP_MAX] = {ASC_K_VOP_max, "max"},
    [PYASC_SIM_VOP_MIN] = {ASC_K_VOP_min, "min"},
    [PYASC_SIM_VOP_AND] = {ASC_K_VOP_bitwise_and, "bitwise_and"},
    [PYASC_SIM_VOP_OR] = {ASC_K_VOP_bitwise_or, "bitwise_or"},
    [PYASC_SIM_VOP_FUSED_MUL_ADD] = {ASC_K_VOP_fused_mul_add, "fused_mul_add"},
    [PYASC_SIM_VOP_MUL_ADD_DST] = {ASC_K_VOP_mul_add_dst, "mul_add_dst"},
    [PYASC_SIM_VOP_ADDS] = {ASC_K_VOP_adds, "adds"},
    [PYASC_SIM_VOP_MULS] = {ASC_K_VOP_muls, "muls"},
    [PYASC_SIM_VOP_MAXS] = {ASC_K_VOP_maxs, "maxs"},
    [PYASC_SIM_VOP_MINS] = {ASC_K_VOP_mins, "mins"},
    [PYASC_SIM_VOP_LEAKY_RELU] = {ASC_K_VOP_leaky_relu, "leaky_relu"},
    [PYASC_SIM_VOP_SHIFT_LEFT] = {ASC_K_VOP_shift_left, "shift_left"},
    [PYASC_SIM_VOP_SHIFT_RIGHT] = {ASC_K_VOP_shift_right, "shift_right"},
    [PYASC_SIM_VOP_AXPY] = {ASC_K_VOP_axpy, "axpy"},
    [PYASC_SIM_VOP_EXP] = {ASC_K_VOP_exp, "exp"},
    [PYASC_SIM_VOP_LN] = {ASC_K_VOP_ln, "ln"},
    [PYASC_SIM_VOP_ABS] = {ASC_K_VOP_abs, "abs"},
    [PYASC_SIM_VOP_SQRT] = {ASC_K_VOP_sqrt, "sqrt"},
    [PYASC_SIM_VOP_RSQRT] = {ASC_K_VOP_rsqrt, "rsqrt"},
    [PYASC_SIM_VOP_RECIPROCAL] = {ASC_K_VOP_reciprocal, "reciprocal"},
    [PYASC_SIM_VOP_RELU] = {ASC_K_VOP_relu, "relu"},
    [PYASC_SIM_VOP_NOT] = {ASC_K_VOP_bitwise_not, "bitwise_not"},
    [PYASC_SIM_VOP_CAST] = {ASC_K_VOP_cast, "cast"},
    [PYASC_SIM_VOP_COMPARE] = {ASC_K_VOP_compare, "compare"},
    [PYASC_SIM_VOP_COMPARE_SCALAR] = {ASC_K_VOP_compare_scalar, "compare_scalar"},
    [PYASC_SIM_VOP_SELECT] = {ASC_K_VOP_select, "select"},
    [PYASC_SIM_VOP_SELECTS] = {ASC_K_VOP_selects, "selects"},
    [PYASC_SIM_VOP_COPY] = {ASC_K_VOP_copy, "copy"},
    [PYASC_SIM_VOP_DUPLICATE] = {ASC_K_VOP_duplicate, "duplicate"},
    [PYASC_SIM_VOP_ADD_RELU] = {ASC_K_VOP_add_relu, "add_relu"},
    [PYASC_SIM_VOP_SUB_RELU] = {ASC_K_VOP_sub_relu, "sub_relu"},
    [PYASC_SIM_VOP_FUSED_MUL_ADD_RELU] = {ASC_K_VOP_fused_mul_add_relu, "fused_mul_add_relu"},
};
static int sim_vrun(void *kv, const pyasc_sim_vargs *a, const char *file, int line) {
  asc_k_ctx *k = kv;
  int L = at(file, line);
  if (a->op < 0 || a->op >= PYASC_SIM_VOP_COUNT || a->nsrc < 0 || a->nsrc > 2)
    return asc_k_fail(k, L, "unknown vector operation %d", a->op);
  asc_k_vargs A;
  memset(&A, 0, sizeof A);
  A.op = vops[a->op].op;
  A.api = vops[a->op].api;
  A.mode = a->mode;
  A.nsrc = a->nsrc;
  for (int j = 0; j <= a->nsrc; j++) {
    A.dt[j] = a->dt[j];
    A.t[j] = lt_in(a->t[j]);
    A.blk[j] = a->blk[j];
    A.rep[j] = a->rep[j];
  }
  A.scalar = a->scalar;
  A.sel = lt_in(a->sel);
  A.sel_dt = a->sel_dt;
  A.kind = a->kind;
  A.set_mask = a->set_mask;
  A.m0 = (int64_t)a->m0;
  A.m1 = (int64_t)a->m1;
  A.repeat = a->repeat;
  return asc_k_vrun(k, &A, L);
}
static int sim_reduce_mask(void *kv, int what, int dt, pyasc_sim_lt d, pyasc_sim_lt src, int kind,
                           uint64_t m0, uint64_t m1, int64_t repeat, int64_t src_rep, int cal_index,
                           const char *file, int line) {
  static const char *const names[] = {"reduce_sum", "reduce_max", "reduce_min"};
  int L = at(file, line);
  if (what < 0 || what > 2) return asc_k_fail(kv, L, "unknown reduction %d", what);
  return asc_k_reduce(kv, what, dt, lt_in(d), lt_in(src), kind, (int64_t)m0, (int64_t)m1, repeat,
                      src_rep, cal_index, names[what], L);
}
static int sim_set_mask_mode(void *kv, int counter) {
  return asc_k_set_mask_mode(kv, counter);
}
static int sim_reset_mask(void *kv) {
  return asc_k_reset_mask(kv);
}
static int sim_set_vector_mask(void *kv, int form, int dt, int mode, int64_t a, int64_t b,
                               const char *file, int line) {
  return asc_k_set_vector_mask(kv, form, dt, mode, a, b, at(file, line));
}
static int sim_copy_params(void *kv, int dir, pyasc_sim_lt dst, pyasc_sim_lt src, pyasc_sim_gt g,
                           int64_t bc, int64_t bl, int64_t ss, int64_t ds, int64_t es,
                           const char *file, int line) {
#ifdef ASC_K_CUBE
  if (SIM_TO_CUBE((asc_k_ctx *)kv, dir, dst))
    return sim_cube_copy_gm_l1(kv, lt_in(dst), gt_in(g), bc, bl, ss, ds, es, at(file, line));
  if (dir == PYASC_SIM_UB_GM && ((asc_k_ctx *)kv)->cube &&
      (src.off >> ASC_KC_TAG_SHIFT) - 1 == ASC_KC_L1)
    return sim_cube_copy_l1_gm(kv, gt_in(g), lt_in(src), bc, bl, ss, ds, es, at(file, line));
  if (dir == PYASC_SIM_UB_UB && ((asc_k_ctx *)kv)->cube &&
      (src.off >> ASC_KC_TAG_SHIFT) - 1 == ASC_KC_L1 &&
      (dst.off >> ASC_KC_TAG_SHIFT) - 1 == ASC_KC_L1)
    return sim_cube_copy_l1_bt(kv, lt_in(dst), lt_in(src), bc, bl, ss, ds, es, at(file, line));
#endif
  return asc_k_copy_params(kv, dir, lt_in(dst), lt_in(src), gt_in(g), bc, bl, ss, ds, es,
                           at(file, line));
}

static int sim_rrun(void *kv, const pyasc_sim_rargs *r, const char *file, int line) {
  static const char *const names[3][3] = {
      {"whole_reduce_sum", "whole_reduce_max", "whole_reduce_min"},
      {"block_reduce_sum", "block_reduce_max", "block_reduce_min"},
      {"pair_reduce_sum", "pair_reduce_max", "pair_reduce_min"}};
  int L = at(file, line);
  if (r->what < 0 || r->what > 2 || r->shape < 0 || r->shape > 2)
    return asc_k_fail(kv, L, "unknown per-repeat reduction %d/%d", r->shape, r->what);
  asc_k_rargs R;
  memset(&R, 0, sizeof R);
  R.what = r->what;
  R.shape = r->shape;
  R.dt = r->dt;
  R.order = r->order;
  R.dst = lt_in(r->dst);
  R.src = lt_in(r->src);
  R.kind = r->kind;
  R.set_mask = r->set_mask;
  R.m0 = (int64_t)r->m0;
  R.m1 = (int64_t)r->m1;
  R.repeat = r->repeat;
  R.dst_rep = r->dst_rep;
  R.src_blk = r->src_blk;
  R.src_rep = r->src_rep;
  R.api = names[r->shape][r->what];
  return asc_k_rrun(kv, &R, L);
}

static void sim_atomic_set(void *kv, int type, int op) {
  asc_k_atomic_set(kv, type, op);
}
static int sim_sync_all(void *kv, int64_t used, const char *file, int line) {
  return asc_k_sync_all(kv, used, at(file, line));
}
static int sim_tbuf_get_with_offset(void *kv, const void *tbuf, int64_t size, int64_t offset,
                                    int64_t esize, pyasc_sim_lt *t, const char *file, int line) {
  asc_k_lt r = {0, 0};
  int rc = asc_k_tbuf_get_with_offset(kv, tbuf, size, offset, esize, &r, at(file, line));
  *t = lt_out(r);
  return rc;
}
static int sim_event_id(void *kv, void *pipe, int how, int event, int64_t *id, const char *file,
                        int line) {
  int L = at(file, line);
  if (how == 2) return asc_k_release_event_id(kv, pipe, event, *id, L);
  return how ? asc_k_alloc_event_id(kv, pipe, event, id, L)
             : asc_k_fetch_event_id(kv, pipe, event, id, L);
}

static int sim_deque_inplace(void *kv, void *que, pyasc_sim_lt t, pyasc_sim_lt *r, const char *file,
                             int line) {
  asc_k_lt out = lt_in(t);
  int rc = asc_k_deque_inplace(kv, que, lt_in(t), &out, at(file, line));
  *r = lt_out(out);
  return rc;
}
static int64_t sim_que_query(const void *que, int what) {
  const asc_k_que *q = que;
  return what == 0 ? q->count : what == 1 ? q->count < q->depth : asc_k_que_idle(q);
}

static int sim_local_phy_addr(void *kv, pyasc_sim_lt t, int64_t offset, int64_t esize, int64_t *out,
                              const char *file, int line) {
  return asc_k_local_phy_addr(kv, lt_in(t), offset, esize, out, at(file, line));
}

static int sim_cmp_mask(void *kv, int set, pyasc_sim_lt t, int dt, const char *file, int line) {
  int L = at(file, line);
  return set ? asc_k_set_cmp_mask(kv, lt_in(t), dt, L) : asc_k_get_cmp_mask(kv, lt_in(t), dt, L);
}
static int sim_compare_reg(void *kv, pyasc_sim_lt a, pyasc_sim_lt b, uint64_t m0, uint64_t m1,
                           const int64_t *st, int kind, int set_mask, int mode, int dt,
                           const char *file, int line) {
  return asc_k_compare_reg(kv, lt_in(a), lt_in(b), (int64_t)m0, (int64_t)m1, st[0], st[1], st[2],
                           st[3], st[4], st[5], kind, set_mask, mode, dt, at(file, line));
}
static int sim_select_reg(void *kv, pyasc_sim_lt d, pyasc_sim_lt a, pyasc_sim_lt b, int64_t repeat,
                          const int64_t *st, int mode, int dt, const char *file, int line) {
  return asc_k_select_reg(kv, lt_in(d), lt_in(a), lt_in(b), repeat, st[0], st[1], st[2], st[3],
                          st[4], st[5], mode, dt, at(file, line));
}
static int sim_select_reg_scalar(void *kv, pyasc_sim_lt d, pyasc_sim_lt m, pyasc_sim_lt a,
                                 int64_t repeat, const int64_t *st, int dt, int mdt,
                                 const char *file, int line) {
  return asc_k_select_reg_scalar(kv, lt_in(d), lt_in(m), lt_in(a), repeat, st[0], st[1], st[2],
                                 st[3], st[4], st[5], dt, mdt, at(file, line));
}

/* SetSysWorkspace (set 1: *ptr a GM pointer) and GetSysWorkSpacePtr (set 0:
 * *ptr the pointer set, NULL before) */
static int sim_sys_workspace(void *kv, int set, void **ptr) {
  asc_k_ctx *k = kv;
  if (set) return asc_k_set_sys_workspace(k, resolve(k, *ptr), 0);
  asc_k_addr a;
  asc_k_get_sys_workspace(k, &a, 0);
  *ptr = a.base && a.lead >= 0 && a.lead <= a.n ? a.base + a.lead : a.base;
  return 0;
}

/* CreateVecIndex, the count form: dst[i] = first + i for count elements of
 * dt (int16, int32, half, float), each rounded to dt as a cast to it rounds. */
static int sim_create_vec_index(asc_k_ctx *k, asc_k_lt dst, int dt, double first, int64_t count,
                                int L) {
  if (dt != ASC_K_DT_INT16 && dt != ASC_K_DT_INT32 && dt != ASC_K_DT_FLOAT16 &&
      dt != ASC_K_DT_FLOAT32)
    return asc_k_fail(k, L, "create_vec_index takes int16, int32, half or float elements");
  if (count < 0 || count > UINT32_MAX)
    return asc_k_fail(k, L, "create_vec_index: count %lld is outside [0, 2**32)", (long long)count);
  const int64_t es = asc_k_dt_size(dt);
  if (asc_k_ub_use(k, ASC_K_V, dst, count, es, ASC_K_WRITE, "create_vec_index", "dst", L)) return 1;
  for (int64_t i = 0; i < count; i++)
    asc_k_cast_store(dt, k->ub + dst.off + i * es, first + (double)i, 1);
  return 0;
}

#include "ascendc_rt_sys.h"

/* SetPadValue, Brcb, gathers, sorts, transposes (PYASC_SIM_VEC_*) */
static int sim_int4(asc_k_ctx *k, const int64_t *v, const pyasc_sim_lt *t, int64_t *out,
                    const char *file, int line);
static int sim_vec_more(void *kv, int op, const int64_t *v, const pyasc_sim_lt *t, pyasc_sim_gt g,
                        double f, int64_t *out, const char *file, int line) {
  asc_k_ctx *k = kv;
  int L = at(file, line);
  switch (op) {
    case PYASC_SIM_VEC_SET_PAD_VALUE:
      asc_k_set_pad_value(k, f);
      return 0;
    case PYASC_SIM_VEC_BRCB:
      return asc_k_brcb(k, lt_in(t[0]), lt_in(t[1]), v[0], v[1], v[2], v[3], L);
    case PYASC_SIM_VEC_GATHER:
      return asc_k_gather(k, lt_in(t[0]), lt_in(t[1]), lt_in(t[2]), v[0], v[1], v[2], L);
    case PYASC_SIM_VEC_GATHERB:
      return asc_k_gatherb(k, lt_in(t[0]), lt_in(t[1]), lt_in(t[2]), v[0], v[1], v[2], (int)v[3],
                           L);
    case PYASC_SIM_VEC_GATHER_MASK:
      return v[0] ? asc_k_gather_mask_builtin(k, lt_in(t[0]), lt_in(t[1]), v[0], v[1], v[2], v[3],
                                              v[4], v[5], v[6], (int)v[7], out, L)
                  : asc_k_gather_mask(k, lt_in(t[0]), lt_in(t[1]), lt_in(t[2]), v[1], v[2], v[3],
                                      v[4], v[5], v[6], (int)v[7], out, L);
    case PYASC_SIM_VEC_SORT32:
      return asc_k_sort32(k, lt_in(t[0]), lt_in(t[1]), lt_in(t[2]), v[0], (int)v[1], L);
    case PYASC_SIM_VEC_MRG_SORT:
      return asc_k_mrg_sort(k, lt_in(t[0]), lt_in(t[1]), lt_in(t[2]), lt_in(t[3]), lt_in(t[4]),
                            v[0], v[1], v[2], v[3], v[4], v[5], v[6], (int)v[7], L);
    case PYASC_SIM_VEC_TRANSPOSE:
      return asc_k_transpose(k, lt_in(t[0]), lt_in(t[1]), v[0], L);
    case PYASC_SIM_VEC_TRANSPOSE_EXT:
      return asc_k_transpose_ext(k, lt_in(t[0]), lt_in(t[1]), lt_in(t[2]), v[0], v[1], v[2], v[3],
                                 v[4], v[5], L);
    case PYASC_SIM_VEC_TRANS_5HD: {
      asc_k_lt d[16], s[16];
      for (int i = 0; i < 16; i++) d[i] = lt_in(t[i]), s[i] = lt_in(t[16 + i]);
      return asc_k_trans_5hd(k, d, s, v[0], v[1], v[2], v[3], v[4], v[5], L);
    }
    case PYASC_SIM_VEC_TRANS_5HD_AT:
      return asc_k_trans_5hd_at(k, v + 6, v[0], v[1], v[2], v[3], v[4], v[5], L);
    case PYASC_SIM_VEC_INIT_SOC_STATE:
      return asc_k_init_soc_state(k, L);
    case PYASC_SIM_VEC_SYSTEM_CYCLE:
      return asc_k_get_system_cycle(k, out, L);
    case PYASC_SIM_VEC_IB_SET:
      return asc_k_ib_set(k, gt_in(g), lt_in(t[0]), v[0], v[1], v[2], L);
    case PYASC_SIM_VEC_IB_WAIT:
      return asc_k_ib_wait(k, gt_in(g), lt_in(t[0]), v[0], v[1], v[2], L);
    case PYASC_SIM_VEC_NOTIFY_NEXT_BLOCK:
      return asc_k_notify_next_block(k, gt_in(g), lt_in(t[0]), L);
    case PYASC_SIM_VEC_WAIT_PRE_BLOCK:
      return asc_k_wait_pre_block(k, gt_in(g), lt_in(t[0]), L);
    case PYASC_SIM_VEC_COPY_SLICE:
      return v[0] ? asc_k_copy_slice_ub_gm(k, gt_in(g), lt_in(t[0]), (int)v[1], v[2], v + 3, L)
                  : asc_k_copy_slice_gm_ub(k, lt_in(t[0]), gt_in(g), (int)v[1], v[2], v + 3, L);
    case PYASC_SIM_VEC_REDUCE_SUM_SPR:
      memcpy(out, &sim_sum_spr, sizeof sim_sum_spr);
      return 0;
    case PYASC_SIM_VEC_GROUP_ARRIVE:
    case PYASC_SIM_VEC_GROUP_WAIT:
      return sim_group_barrier(k, op == PYASC_SIM_VEC_GROUP_WAIT, g, v, L);
    case PYASC_SIM_VEC_GM_FILL:
      return sim_gm_fill(k, g, (int)v[0], v[1], f, L);
    case PYASC_SIM_VEC_LIST_DESC:
      return sim_list_desc(k, g, v, out, L);
    case PYASC_SIM_VEC_INT4:
      return sim_int4(k, v, t, out, file, line);
    case PYASC_SIM_VEC_CREATE_VEC_INDEX:
      return sim_create_vec_index(k, lt_in(t[0]), (int)v[0], f, v[1], L);
    case PYASC_SIM_VEC_L2_HINT: /* the memory has no L2: the profiled table's model reads it */
      return 0;
    case PYASC_SIM_VEC_INIT_DETERMINE: {
      /* InitDetermineComputeWorkspace: block 0 clears every block's slot of
       * NotifyNextBlock/WaitPreBlock before it notifies (no block notifies
       * before block 0 has) */
      asc_k_gt w = gt_in(g);
      for (int64_t b = 0; k->block_idx == 0 && b < k->block_num; b++) {
        int32_t *flag = asc_k_sys_flag(k, &w, b, "init_determine_compute_workspace", L);
        if (!flag) return 1;
        __atomic_store_n(flag, 0, __ATOMIC_SEQ_CST);
      }
      return 0;
    }
    default:
      return asc_k_fail(k, L, "unknown vector form %d", op);
  }
}

#include "ascendc_rt_pool.h"

#include "ascendc_rt_adv.h"

#ifdef ASC_K_CUBE
#include "ascendc_rt_cube.h"
#else /* a kernel that uses the cube gets the cube's table (jit.c) */
#define SIM_CUBE_ENTRIES                                                                          \
  NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, \
      NULL, NULL, NULL, NULL, NULL
#endif

#include "ascendc_rt_int4.h"

#ifdef ASC_K_PROFILE /* the timing model's wrappers take the entries' places */
#include "ascendc_rt_perf.h"
#endif

const pyasc_sim_api PYASC_SIM_TABLE = {
    PYASC_SIM_VERSION,
    ASC_K_CHECKED,
    sim_begin,
    sim_end,
    sim_failed,
    sim_fail,
    sim_block_idx,
    sim_block_num,
    sim_f2h,
    sim_h2f,
    sim_global_new,
    sim_global_slice,
    sim_global_size,
    sim_gget,
    sim_gset,
    sim_local_new,
    sim_local_slice,
    sim_local_cast,
    sim_lget,
    sim_lset,
    sim_pipe_init,
    sim_pipe_reset,
    sim_que_init,
    sim_tbuf_init,
    sim_init_buffer,
    sim_init_tbuf,
    sim_tbuf_get,
    sim_alloc_tensor,
    sim_enque,
    sim_deque,
    sim_free_tensor,
    sim_copy,
    sim_copy_pad_gm_ub,
    sim_copy_pad_ub_gm,
    sim_binary,
    sim_scalar,
    sim_unary,
    sim_duplicate,
    sim_leaky_relu,
    sim_cast,
    sim_reduce,
    sim_set_flag,
    sim_wait_flag,
    sim_barrier,
    sim_trap,
    sim_vrun,
    sim_reduce_mask,
    sim_set_mask_mode,
    sim_reset_mask,
    sim_set_vector_mask,
    sim_copy_params,
    sim_rrun,
    sim_atomic_set,
    sim_sync_all,
    sim_tbuf_get_with_offset,
    sim_event_id,
    sim_deque_inplace,
    sim_que_query,
    sim_local_phy_addr,
    sim_cmp_mask,
    sim_compare_reg,
    sim_select_reg,
    sim_select_reg_scalar,
    sim_sys_workspace,
    SIM_CUBE_ENTRIES,
    sim_vec_more,
    sim_pool_more,
    sim_adv_more,
};
