/* Part of ascendc_rt.c, included only from it: the table's adv_more, the adv library's
 * maths, softmax, rmsnorm, quant, concat/extract, the dequantising and fused-cast vector
 * forms, sorts over proposals, scalar bit helpers and system registers (PYASC_SIM_ADV_*,
 * include/ascendc/pyasc_sim.h says what each op's numbers are). Every case calls the runtime
 * function the C emitter writes for the same API (api_table.def's c_rt column). */

#include "../../include/asc/dtype.h"

_Static_assert((int)PYASC_SIM_FN_ACOS == (int)ASC_K_ADV_ACOS &&
                   (int)PYASC_SIM_FN_EXP == (int)ASC_K_ADV_EXP &&
                   (int)PYASC_SIM_FN_TRUNC == (int)ASC_K_ADV_TRUNC,
               "PYASC_SIM_FN_* differ from the runtime's ASC_K_ADV_*");
_Static_assert((int)PYASC_SIM_EW_GELU == (int)ASC_K_ADV_EW_GELU &&
                   (int)PYASC_SIM_EW_GEGLU == (int)ASC_K_ADV_EW_GEGLU &&
                   (int)PYASC_SIM_EW_SWIGLU == (int)ASC_K_ADV_EW_SWIGLU &&
                   (int)PYASC_SIM_EW_ARANGE == (int)ASC_K_ADV_EW_ARANGE,
               "PYASC_SIM_EW_* differ from the runtime's ASC_K_ADV_EW_*");

/* The least sharedTmpBuffer of the maths family, as CANN's host queries size it (the C++
 * header's GetXxxMaxMinTmpSize): repeats of 256 bytes by the input's type and whether a float
 * source may be overwritten; the unary functions by PYASC_SIM_FN_*, then xor and axpy. The
 * Python kernel's lowering passes the same minimum (pyasc/language/names/adv_math.py's
 * MATH_TMP_FACTORS; test_tables.py compares both with the .def). */
static const struct {
  int half, flt, flt_reuse;
} adv_tmp_factors[] = {
#define PYASC_ADV_TMP(NAME, name, HALF, FLOAT, FLOAT_REUSE, FLOOR) {HALF, FLOAT, FLOAT_REUSE},
#include "../../include/ascendc/adv_math_tmp.def"
#undef PYASC_ADV_TMP
};
enum { ADV_TMP_XOR = PYASC_SIM_FN_TRUNC + 1, ADV_TMP_AXPY, ADV_TMP_ROWS };
_Static_assert(sizeof adv_tmp_factors / sizeof adv_tmp_factors[0] == ADV_TMP_ROWS,
               "adv_math_tmp.def has a row for each maths function, then xor and axpy");

/* reuse: the API may overwrite its float source. -1: no buffer given. */
static int64_t adv_tmp_min(int has_tmp, int row, int dt, int reuse) {
  if (!has_tmp) return -1;
  int n = dt != ASC_K_DT_FLOAT32 ? adv_tmp_factors[row].half
          : reuse                ? adv_tmp_factors[row].flt_reuse
                                 : adv_tmp_factors[row].flt;
  return (int64_t)n * 256;
}

/* Power (dav-2201): 4 float buffers (5 with a scalar operand) and one repeat more, or 14 half
 * ones of half a repeat each and one repeat more. */
static int64_t adv_power_tmp_min(int has_tmp, int dt, int scalar) {
  if (!has_tmp) return -1;
  return dt == ASC_K_DT_FLOAT32 ? (scalar ? 6 : 5) * 256 : 8 * 256;
}

/* A sharedTmpBuffer: none (tmp_min < 0) or t, which the vector pipe then counts as written. */
static asc_k_lt adv_tmp(const pyasc_sim_lt *t, int slot, int64_t tmp_min) {
  asc_k_lt none = {0, 0};
  return tmp_min < 0 ? none : lt_in(t[slot]);
}
static double adv_bits(int64_t v) {
  double d;
  memcpy(&d, &v, sizeof d);
  return d;
}

/* The sorts, proposals and the dequantising and fused-cast forms. */
static int adv_vector(asc_k_ctx *k, int op, const int64_t *v, const pyasc_sim_lt *t, int64_t *out,
                      int L) {
  int dd = (int)v[1], ds = (int)v[2];
  switch (op) {
    case PYASC_SIM_ADV_CAST_DEQ:
      if (!v[4])
        return asc_k_cast_deq(k, lt_in(t[0]), lt_in(t[1]), v[5], v[2], v[3], (int)v[0], (int)v[1],
                              L);
      return asc_k_cast_deq_l0(k, lt_in(t[0]), lt_in(t[1]), v[5], v[6], v[7], v[8], v[9], v[10],
                               v[11], v[12], v[13], v[2], v[3], (int)v[0], (int)v[1], L);
    case PYASC_SIM_ADV_ADD_DEQ_RELU:
      if (!v[3])
        return asc_k_add_deq_relu(k, lt_in(t[0]), lt_in(t[1]), lt_in(t[2]), v[4], dd, ds, L);
      return asc_k_add_deq_relu_l0(k, lt_in(t[0]), lt_in(t[1]), lt_in(t[2]), v[4], v[5], v[6], v[7],
                                   v[8], v[9], v[10], v[11], v[12], v[13], v[14], 0, dd, ds, L);
    case PYASC_SIM_ADV_FCAST: {
      static int (*const count[3])(asc_k_ctx *, asc_k_lt, asc_k_lt, asc_k_lt, int64_t, int, int,
                                   int) = {asc_k_add_relu_cast, asc_k_sub_relu_cast,
                                           asc_k_mul_cast};
      static int (*const l0[3])(asc_k_ctx *, asc_k_lt, asc_k_lt, asc_k_lt, int64_t, int64_t,
                                int64_t, int64_t, int64_t, int64_t, int64_t, int64_t, int64_t,
                                int64_t, int64_t, int64_t, int, int, int) = {
          asc_k_add_relu_cast_l0, asc_k_sub_relu_cast_l0, asc_k_mul_cast_l0};
      if (v[0] < 0 || v[0] > 2) return asc_k_fail(k, L, "unknown fused cast %lld", (long long)v[0]);
      if (!v[3]) return count[v[0]](k, lt_in(t[0]), lt_in(t[1]), lt_in(t[2]), v[4], dd, ds, L);
      return l0[v[0]](k, lt_in(t[0]), lt_in(t[1]), lt_in(t[2]), v[4], v[5], v[6], v[7], v[8], v[9],
                      v[10], v[11], v[12], v[13], v[14], 0, dd, ds, L);
    }
    case PYASC_SIM_ADV_REPEAT_REDUCE_SUM:
      return asc_k_repeat_reduce_sum(k, lt_in(t[0]), lt_in(t[1]), v[1], 0, v[2], v[3], v[4], v[5],
                                     0, v[6], 0, (int)v[0], (int)v[0], L);
    case PYASC_SIM_ADV_GATHER_SCATTER:
      if (!v[1])
        return (v[0] ? asc_k_scatter : asc_k_gather)(k, lt_in(t[0]), lt_in(t[1]), lt_in(t[2]), v[2],
                                                     v[3], v[10], L);
      return (v[0] ? asc_k_scatter_l0 : asc_k_gather_l0)(k, lt_in(t[0]), lt_in(t[1]), lt_in(t[2]),
                                                         v[2], v[3], v[4], v[5], v[6], v[7],
                                                         (int)v[8], L);
    case PYASC_SIM_ADV_SORT:
      return asc_k_sort(k, lt_in(t[0]), lt_in(t[1]), lt_in(t[2]), lt_in(t[3]), v[1], v[2],
                        (int)v[0], L);
    case PYASC_SIM_ADV_MRG_SORT4:
      return asc_k_mrg_sort4(k, lt_in(t[0]), lt_in(t[1]), lt_in(t[2]), lt_in(t[3]), lt_in(t[4]),
                             v[1], v[2], v[3], v[4], v[5], v[6], v[7], (int)v[0], L);
    case PYASC_SIM_ADV_MRG_SORT_RESULT:
      for (int64_t i = 0; i < 4; i++)
        if (asc_k_mrg_sort_result(k, i, (int)v[0], out + i, L)) return 1;
      return 0;
    case PYASC_SIM_ADV_RP_SORT16:
      return asc_k_rp_sort16(k, lt_in(t[0]), lt_in(t[1]), v[1], (int)v[0], L);
    case PYASC_SIM_ADV_PROPOSAL:
      return (v[1] ? asc_k_proposal_extract : asc_k_proposal_concat)(k, lt_in(t[0]), lt_in(t[1]),
                                                                     v[2], v[3], (int)v[0], L);
    case PYASC_SIM_ADV_LOCAL_RESIZE:
    case PYASC_SIM_ADV_LOCAL_WITH_OFFSET: {
      asc_k_lt r;
      int rc = op == PYASC_SIM_ADV_LOCAL_RESIZE
                   ? asc_k_local_resize(k, lt_in(t[0]), v[0], 1, v[1], &r, L)
                   : asc_k_local_with_offset(k, lt_in(t[0]), v[0], v[1], v[2], &r, L);
      out[0] = r.off, out[1] = r.len;
      return rc;
    }
    case PYASC_SIM_ADV_USER_TAG:
      if (v[0]) return asc_k_set_user_tag(k, lt_in(t[0]), v[1], L);
      out[0] = asc_k_get_user_tag(k, lt_in(t[0]));
      return 0;
    case PYASC_SIM_ADV_TRANS_5HD_TENSOR:
      return asc_k_trans_5hd_addr_tensor(k, lt_in(t[0]), lt_in(t[1]), v[0], v[1], v[2], v[3], v[4],
                                         v[5], L);
    case PYASC_SIM_ADV_BILINEAR:
      return asc_k_bilinear(k, lt_in(t[0]), lt_in(t[1]), lt_in(t[2]), lt_in(t[3]), v[0], v[1], v[2],
                            v[3], v[4], v[5], v[6], lt_in(t[4]), v[7], L);
#ifdef ASC_K_CUBE /* rt/aipp.h needs the AIC (the cube table) */
    case PYASC_SIM_ADV_AIPP_LOAD: {
      double p[9];
      for (int i = 0; i < 9; i++) p[i] = (double)v[1 + i];
      return asc_k_cube_aipp_load(k, lt_in(t[0]), (int)v[0], p, 9, L);
    }
#else
    case PYASC_SIM_ADV_AIPP_LOAD:
    case PYASC_SIM_ADV_AIPP_SET:
      return asc_k_fail(k, L, "AIPP: this kernel was not built with the cube's table");
#endif
    default:
      return asc_k_fail(k, L, "unknown adv form %d", op);
  }
}

/* Scalar helpers and system registers. */
static int adv_scalar(asc_k_ctx *k, int op, const int64_t *v, const pyasc_sim_lt *t, pyasc_sim_gt g,
                      double f, int64_t *out, int L) {
  const int i64 = ASC_K_DT_INT64;
  switch (op) {
    case PYASC_SIM_ADV_SCALAR_CLZ:
      return asc_k_scalar_clz(k, v[0], i64, out, L);
    case PYASC_SIM_ADV_SCALAR_SIGN_BITS:
      return asc_k_scalar_sign_bits(k, v[0], i64, out, L);
    case PYASC_SIM_ADV_SCALAR_COUNT:
      return asc_k_scalar_count(k, v[0], v[1], i64, out, L);
    case PYASC_SIM_ADV_SCALAR_SFF:
      return asc_k_scalar_sff(k, v[0], v[1], i64, out, L);
    case PYASC_SIM_ADV_SCALAR_CAST: {
      double r;
      if (asc_k_scalar_cast(k, f, v[0], v[1], ASC_K_DT_FLOAT32, &r, L)) return 1;
      memcpy(out, &r, sizeof r);
      return 0;
    }
    case PYASC_SIM_ADV_GATHER_MASK_COUNT:
      return asc_k_gather_mask_count(k, 0, out, L);
    case PYASC_SIM_ADV_PROGRAM_COUNTER:
      return asc_k_get_program_counter(k, out, L);
    case PYASC_SIM_ADV_ICACHE_STATUS:
      return asc_k_get_icache_preload_status(k, out, L);
    case PYASC_SIM_ADV_TASK_RATIO:
      return asc_k_get_task_ratio(k, out, L);
    case PYASC_SIM_ADV_ATOMIC_CONFIG:
      out[0] = k->fwk.atomic_type, out[1] = k->fwk.atomic_op;
      return 0;
    case PYASC_SIM_ADV_TIME_STAMP:
      return asc_k_print_time_stamp(k, v[0], L);
    case PYASC_SIM_ADV_DCACHE_PRELOAD:
      return asc_k_data_cache_preload(k, gt_in(g), v[0], L);
    case PYASC_SIM_ADV_ICACHE_PRELOAD:
      return asc_k_icache_preload(k, v[0], L);
    case PYASC_SIM_ADV_CHECK_IA:
      return asc_k_check_local_memory_ia(k, v[0], v[1], v[2], (int)v[3], (int)v[4], (int)v[5],
                                         (int)v[6], (int)v[7], (int)v[8], (int)v[9], L);
    case PYASC_SIM_ADV_DUMP_ACC:
      return asc_k_dump_acc_chk_point(k, (int)v[0], (int)v[1], lt_in(t[0]), gt_in(g), v[2], v[3],
                                      v[4], asc_dtype_name((asc_dtype)v[0]), L);
    case PYASC_SIM_ADV_HCCL: {
      if (v[0]) return asc_k_set_hccl_context(k, resolve(k, g.base), v[1], L);
      asc_k_addr a;
      if (asc_k_get_hccl_context(k, &a, v[1], L)) return 1;
      char *p = a.base && a.lead >= 0 && a.lead <= a.n ? a.base + a.lead : a.base;
      memcpy(out, &p, sizeof p);
      return 0;
    }
    case PYASC_SIM_ADV_SYNC_ALL_SOFT:
      return asc_k_sync_all_soft(k, gt_in(g), lt_in(t[0]), v[0], L);
    case PYASC_SIM_ADV_INIT_CONST:
      return asc_k_init_const_value(k, lt_in(t[0]), (int)v[0], v[1], v[2], v[3], f, L);
    case PYASC_SIM_ADV_SET_DEQ:
      return asc_k_set_deq_scale(k, f, v[0], v[1], ASC_K_DT_FLOAT32, L);
    case PYASC_SIM_ADV_SET_DEQ_HALF:
      return asc_k_set_deq_scale_half(k, f, ASC_K_DT_FLOAT32, L);
    case PYASC_SIM_ADV_SET_VDEQ: {
      double s[16];
      int64_t signs = 0;
      for (int j = 0; j < 16; j++) s[j] = adv_bits(v[j]), signs |= (int64_t)(v[32 + j] != 0) << j;
      return asc_k_set_vdeq(k, lt_in(t[0]), s, v + 16, signs, L);
    }
#ifdef ASC_K_CUBE
    case PYASC_SIM_ADV_AIPP_SET: {
      double p[37];
      for (int i = 0; i < 37; i++) p[i] = adv_bits(v[3 + i]);
      pyasc_sim_gt g1;
      memcpy(&g1.base, &v[40], sizeof g1.base);
      g1.n = v[41], g1.lead = v[42], g1.size = v[43], g1.skip = v[44];
      return asc_k_cube_aipp_set(k, gt_in(g), gt_in(g1), v[0], v[1], (int)v[2], p, 37, L);
    }
#else
    case PYASC_SIM_ADV_AIPP_SET:
      return adv_vector(k, op, v, t, out, L);
#endif
    case PYASC_SIM_ADV_SORT_LEN:
    case PYASC_SIM_ADV_SORT_OFFSET:
      return (op == PYASC_SIM_ADV_SORT_LEN ? asc_k_sort_len : asc_k_sort_offset)(
          k, v[1], asc_k_dt_size((int)v[0]), (int)v[0], out, L);
    default:
      return adv_vector(k, op, v, t, out, L);
  }
}

static int sim_adv_more(void *kv, int op, const int64_t *v, const pyasc_sim_lt *t, pyasc_sim_gt g,
                        double f, int64_t *out, const char *file, int line) {
  asc_k_ctx *k = kv;
  int L = at(file, line);
  switch (op) {
    case PYASC_SIM_ADV_UNARY: {
      static const char *const names[] = {
          "adv.acos", "adv.acosh", "adv.asin", "adv.asinh",   "adv.atan", "adv.atanh",
          "adv.ceil", "adv.cos",   "adv.cosh", "adv.digamma", "adv.erf",  "adv.erfc",
          "adv.exp",  "adv.floor", "adv.frac", "adv.lgamma",  "adv.log",  "adv.round",
          "adv.sign", "adv.sin",   "adv.sinh", "adv.tan",     "adv.tanh", "adv.trunc"};
      if (v[0] < 0 || v[0] > PYASC_SIM_FN_TRUNC)
        return asc_k_fail(k, L, "unknown adv maths function %lld", (long long)v[0]);
      int64_t tmp_min = adv_tmp_min(v[4] >= 0, (int)v[0], (int)v[1], v[4] > 0);
      return asc_k_adv_unary(k, (int)v[0], (int)v[1], lt_in(t[0]), lt_in(t[1]), v[2], v[3],
                             adv_tmp(t, 2, tmp_min), tmp_min, names[v[0]], L);
    }
    case PYASC_SIM_ADV_BINARY: {
      if (v[0]) {
        int64_t tmp_min = adv_tmp_min(v[3] >= 0, ADV_TMP_XOR, (int)v[1], 0);
        return asc_k_adv_binary(k, 1, (int)v[1], lt_in(t[0]), lt_in(t[1]), lt_in(t[2]), v[2],
                                adv_tmp(t, 3, tmp_min), tmp_min, "adv.xor", L);
      }
      /* power: v[4] says which operand is the scalar f (0 none, 1 the base, 2 the exponent) */
      int64_t tmp_min = adv_power_tmp_min(v[3] >= 0, (int)v[1], v[4] != 0);
      if (v[4])
        return asc_k_adv_power_scalar(k, (int)v[1], lt_in(t[0]), lt_in(t[v[4] == 1 ? 2 : 1]), f,
                                      v[4] == 1, v[2], adv_tmp(t, 3, tmp_min), tmp_min, "adv.power",
                                      L);
      return asc_k_adv_binary(k, 0, (int)v[1], lt_in(t[0]), lt_in(t[1]), lt_in(t[2]), v[2],
                              adv_tmp(t, 3, tmp_min), tmp_min, "adv.power", L);
    }
    case PYASC_SIM_ADV_ELEMENTWISE: {
      static const char *const names[] = {"Gelu",     "Sigmoid", "Silu", "Swish",  "ClampMin",
                                          "ClampMax", "GeGLU",   "Fmod", "SwiGLU", "Arange"};
      if (v[0] < 0 || v[0] > PYASC_SIM_EW_ARANGE)
        return asc_k_fail(k, L, "unknown adv element-wise function %lld", (long long)v[0]);
      int64_t tmp_min = v[3] >= 0 ? 0 : -1; /* CANN's sizes; the simulator needs none */
      return asc_k_adv_elementwise(k, (int)v[0], (int)v[1], lt_in(t[0]), lt_in(t[1]), lt_in(t[2]),
                                   f, adv_bits(v[4]), v[2], adv_tmp(t, 3, tmp_min), tmp_min,
                                   names[v[0]], L);
    }
    case PYASC_SIM_ADV_CUMSUM:
      return asc_k_adv_cumsum(k, (int)v[0], lt_in(t[0]), lt_in(t[1]), lt_in(t[2]), v[1], v[2],
                              v[3] != 0, v[4] != 0, L);
    case PYASC_SIM_ADV_BROADCAST:
      return asc_k_adv_broadcast(k, v[0], lt_in(t[0]), lt_in(t[1]), v[1], v[2], v[3], v[4], v[5],
                                 L);
    case PYASC_SIM_ADV_DEQUANT:
      return asc_k_adv_dequant(k, (int)v[0], (int)v[1], lt_in(t[0]), lt_in(t[1]), lt_in(t[2]), v[2],
                               v[3], v[4], v[5] != 0, L);
    case PYASC_SIM_ADV_SELECT:
      return asc_k_adv_select(k, (int)v[0], (int)v[1], lt_in(t[0]), lt_in(t[1]), f, v[2] != 0,
                              lt_in(t[2]), v[3], v[4], v[5], L);
    case PYASC_SIM_ADV_AXPY: { /* by src's type */
      int64_t tmp_min = adv_tmp_min(v[3] >= 0, ADV_TMP_AXPY, (int)v[1], 0);
      return asc_k_adv_axpy(k, (int)v[0], (int)v[1], lt_in(t[0]), lt_in(t[1]), f, v[2],
                            adv_tmp(t, 2, tmp_min), tmp_min, "adv.axpy", L);
    }
    case PYASC_SIM_ADV_SOFTMAX:
      return asc_k_adv_softmax_as(k, (int)v[0], (int)v[1], lt_in(t[0]), lt_in(t[1]), lt_in(t[2]),
                                  lt_in(t[3]), v[2], v[3], adv_tmp(t, 4, v[4]), v[4], v[5] != 0, L);
    case PYASC_SIM_ADV_SOFTMAX_ADJUST:
      return asc_k_adv_softmax_adjust(k, (int)v[0], (int)v[1], lt_in(t[0]), lt_in(t[1]),
                                      (uint32_t)v[2], f, v[3], v[4], v[5] != 0, &out[0], L);
    case PYASC_SIM_ADV_SOFTMAX_FLASH2:
      return asc_k_adv_softmax_flash2(
          k, (int)v[0], (int)v[1], lt_in(t[0]), lt_in(t[1]), lt_in(t[2]), lt_in(t[3]), lt_in(t[4]),
          lt_in(t[5]), lt_in(t[6]), v[2], v[3], v[4] != 0, adv_tmp(t, 7, v[5]), v[5], L);
    case PYASC_SIM_ADV_ANTIQUANT:
      return asc_k_adv_antiquant(k, (int)v[0], (int)v[1], lt_in(t[0]), lt_in(t[1]), lt_in(t[2]),
                                 lt_in(t[3]), v[2] != 0, adv_bits(v[7]), f, v[3], v[4], v[5],
                                 v[6] != 0, L);
    case PYASC_SIM_ADV_DROPOUT:
      return asc_k_adv_dropout(k, (int)v[0], lt_in(t[0]), lt_in(t[1]), lt_in(t[2]), v[1], v[2],
                               v[3], v[4] != 0, f, adv_tmp(t, 3, v[5]), v[5], L);
    case PYASC_SIM_ADV_REDUCE2:
      return asc_k_adv_reduce2(k, (int)v[0], v[1] != 0, lt_in(t[0]), lt_in(t[1]), v[2], v[3],
                               v[4] != 0, v[5], adv_tmp(t, 2, v[6]), v[6], L);
    case PYASC_SIM_ADV_SOFTMAX_GRAD:
      return asc_k_adv_softmax_grad(k, (int)v[0], lt_in(t[0]), lt_in(t[1]), lt_in(t[2]), v[1], v[2],
                                    v[3] != 0, adv_tmp(t, 3, v[4]), v[4], L);
    case PYASC_SIM_ADV_RMSNORM:
      return asc_k_adv_rmsnorm(k, (int)v[0], lt_in(t[0]), lt_in(t[1]), lt_in(t[2]), f, v[1], v[2],
                               adv_bits(v[4]), adv_tmp(t, 3, v[3]), v[3], L);
    case PYASC_SIM_ADV_QUANT:
      return asc_k_adv_quant(k, (int)v[0], lt_in(t[0]), lt_in(t[1]), f, adv_bits(v[3]), v[1],
                             adv_tmp(t, 2, v[2]), v[2], L);
    case PYASC_SIM_ADV_CONCAT:
      return asc_k_adv_concat(k, (int)v[0], lt_in(t[0]), lt_in(t[1]), lt_in(t[2]), v[1], L);
    case PYASC_SIM_ADV_EXTRACT:
      return asc_k_adv_extract(k, (int)v[0], lt_in(t[0]), lt_in(t[1]), lt_in(t[2]), v[1], L);
    default:
      return adv_scalar(k, op, v, t, g, f, out, L);
  }
}
