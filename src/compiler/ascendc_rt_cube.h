/* Part of ascendc_rt.c, included only from it when the table is the cube's
 * (ascendc_rt_cube.c: ASC_K_CUBE and ASC_K_MIX defined): the AIC's buffers,
 * core groups and the adv Matmul for Ascend C kernels. Each entry calls the
 * runtime function the C emitter (emit_c_cube.c) calls for that API. */

_Static_assert(sizeof(asc_k_matmul) <= PYASC_SIM_MM_BYTES, "Matmul storage too small");

static int sim_cube_begin(void *kv) {
  return asc_k_cube_begin(kv);
}
static void sim_cube_end(void *kv) {
  asc_k_cube_end(kv);
}
static int sim_core_kind(void *kv) {
  return ((asc_k_ctx *)kv)->core_kind;
}
static int sim_mixed(void *kv) {
  return ((asc_k_ctx *)kv)->mixed;
}

/* A core of the group runs the kernel's own entry; the context carries it
 * to each core's thread (mix.h copies the caller's context). */
static int sim_core(asc_k_ctx *k, const asc_k_arg *args) {
  return k->ext_run ? k->ext_run(k, args) : asc_k_fail(k, 0, "the core group has no kernel");
}
static int sim_group_run(void *kv, const void *args, int (*run)(void *k, const void *args),
                         int mixed, int kind) {
  asc_k_ctx *k = kv;
  k->ext_run = run;
  return asc_k_group_run(k, (const asc_k_arg *)args, sim_core, mixed, kind);
}

/* The cube's element type of a dtype code (ASC_K_DT_*), -1 if none. */
static int cube_type(int dt) {
  switch (dt) {
    case ASC_K_DT_FLOAT16:
      return ASC_KC_F16;
    case ASC_K_DT_BFLOAT16:
      return ASC_KC_BF16;
    case ASC_K_DT_INT8:
    case ASC_K_DT_UINT8:
      return ASC_KC_S8;
    case ASC_K_DT_FLOAT32:
      return ASC_KC_F32;
    case ASC_K_DT_INT32:
      return ASC_KC_S32;
    default:
      return -1;
  }
}

/* REGIST_MATMUL_OBJ / Init: the TCubeTiling's int32 fields in Ascend C's
 * order (src/tiling/tiling.c asc_tiling_tcube_fields), as matmul.init and
 * matmul.schedule take them. */
enum { T_M = 1, T_N, T_KA, T_KB, T_SM, T_SN, T_SK, T_BM, T_BN, T_BK, T_DEPTH_A1, T_DEPTH_B1 };
enum { T_STEP_M = 13, T_STEP_N, T_ITERATE_ORDER = 17, T_STEP_KA = 26, T_STEP_KB, T_FIELDS = 49 };
static int sim_mm_init(void *kv, void *mm, int in_dt, int c_dt, int flags, const int32_t *t,
                       int64_t nfields, const char *file, int line) {
  asc_k_ctx *k = kv;
  int L = at(file, line);
  int in = cube_type(in_dt), c = cube_type(c_dt);
  if (in < 0 || in == ASC_KC_S32 || c < 0)
    return asc_k_fail(k, L,
                      "Matmul: A/B must be half, bfloat16_t, int8_t or float and C half, "
                      "bfloat16_t, int8_t, float or int32_t");
  if (!t || nfields < T_FIELDS)
    return asc_k_fail(k, L, "REGIST_MATMUL_OBJ: the tiling must be a TCubeTiling");
  return asc_k_mm_init(k, mm, in, c, flags, t[T_M], t[T_N], t[T_KA], t[T_KB], t[T_SM], t[T_SN],
                       t[T_SK], t[T_BM], t[T_BN], t[T_BK], L) ||
         asc_k_mm_schedule(k, mm, t[T_ITERATE_ORDER], t[T_STEP_M], t[T_STEP_N], t[T_DEPTH_A1],
                           t[T_DEPTH_B1], t[T_STEP_KA], t[T_STEP_KB], L);
}
/* which: 0 A, 1 B, 2 the bias */
static int sim_mm_set(void *kv, void *mm, int which, pyasc_sim_gt g, int trans, const char *file,
                      int line) {
  return asc_k_mm_set(kv, mm, which < 0 || which > 2 ? 2 : which, gt_in(g), trans != 0,
                      at(file, line));
}
static int sim_mm_shape(void *kv, void *mm, int org, int64_t a, int64_t b, int64_t c, int64_t d,
                        const char *file, int line) {
  return asc_k_mm_shape(kv, mm, org, a, b, c, d, at(file, line));
}
static int sim_mm_iterate(void *kv, void *mm, int *more, const char *file, int line) {
  return asc_k_mm_iterate(kv, mm, more, at(file, line));
}
/* GetTensorC (all 0) and IterateAll (all 1): C in GM (ub 0) or in the UB */
static int sim_mm_get_c(void *kv, void *mm, int all, int ub, pyasc_sim_gt g, pyasc_sim_lt t, int dt,
                        int atomic, const char *file, int line) {
  asc_k_ctx *k = kv;
  int L = at(file, line), c = cube_type(dt);
  if (c < 0) return unsupported(k, L, all ? "Matmul::IterateAll" : "Matmul::GetTensorC", dt);
  if (ub)
    return all ? asc_k_mm_iterate_all_ub(k, mm, lt_in(t), c, L)
               : asc_k_mm_get_c_ub(k, mm, lt_in(t), c, L);
  if (atomic)
    return all ? asc_k_mm_iterate_all_atomic(k, mm, gt_in(g), c, atomic, L)
               : asc_k_mm_get_c_atomic(k, mm, gt_in(g), c, atomic, L);
  return all ? asc_k_mm_iterate_all(k, mm, gt_in(g), c, L)
             : asc_k_mm_get_c_gm(k, mm, gt_in(g), c, L);
}
/* what: 0 End, 1 DisableBias */
static int sim_mm_end(void *kv, void *mm, int what, const char *file, int line) {
  return what ? asc_k_mm_disable_bias(kv, mm, at(file, line))
              : asc_k_mm_end(kv, mm, at(file, line));
}
static int sim_mm_offset_c(void *kv, void *mm, int field, int64_t *v, const char *file, int line) {
  return asc_k_mm_offset_c(kv, mm, field, v, at(file, line));
}

#define SIM_CUBE_ENTRIES                                                                          \
  sim_cube_begin, sim_cube_end, sim_core_kind, sim_mixed, sim_group_run, sim_mm_init, sim_mm_set, \
      sim_mm_shape, sim_mm_iterate, sim_mm_get_c, sim_mm_end, sim_mm_offset_c
