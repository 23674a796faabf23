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
/* what: 0 the core's kind (0 AIV, 1 AIC), 1 whether it is in a mixed
 * group, 2 GetSubBlockIdx(), 3 GetSubBlockNum() */
static int64_t sim_core_info(void *kv, int what) {
  const asc_k_ctx *k = kv;
  return what == 0   ? k->core_kind
         : what == 1 ? k->mixed
         : what == 2 ? k->sub_block_idx
                     : k->sub_block_num;
}
/* CrossCoreSetFlag / CrossCoreWaitFlag<mode>(id) */
static int sim_cross_flag(void *kv, int64_t id, int wait, int64_t mode, const char *file,
                          int line) {
  return asc_k_mix_cross(kv, id, wait, mode, at(file, line));
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

/* the cube's type of dt, or a failure naming api */
static int cube_dt(asc_k_ctx *k, int dt, const char *api, int L, int *t) {
  *t = cube_type(dt);
  return *t < 0 ? unsupported(k, L, api, dt) : 0;
}
/* REGIST_MATMUL_OBJ / Init: the TCubeTiling's int32 fields in Ascend C's
 * order (src/tiling/tiling.c asc_tiling_tcube_fields), as matmul.init and
 * matmul.schedule take them. */
enum { T_M = 1, T_N, T_KA, T_KB, T_SM, T_SN, T_SK, T_BM, T_BN, T_BK, T_DEPTH_A1, T_DEPTH_B1 };
enum { T_STEP_M = 13, T_STEP_N, T_ITERATE_ORDER = 17, T_STEP_KA = 26, T_STEP_KB, T_LAYOUT = 33 };
enum { T_FIELDS = 49 };
static int sim_mm_init(void *kv, void *mm, int in_dt, int c_dt, int flags, const int32_t *t,
                       int64_t nfields, const char *file, int line) {
  asc_k_ctx *k = kv;
  int L = at(file, line);
  /* int4b_t A and B: the int8 Matmul on their values, widened as L1 takes them */
  const int i4 = in_dt == ASC_K_DT_INT4;
  int in = i4 ? ASC_KC_S8 : cube_type(in_dt), c = cube_type(c_dt);
  flags |= i4 ? 1 << 27 : 0;
  if (in < 0 || in == ASC_KC_S32 || c < 0)
    return asc_k_fail(k, L,
                      "Matmul: A/B must be half, bfloat16_t, int8_t, int4b_t or float and C half, "
                      "bfloat16_t, int8_t, float or int32_t");
  if (!t || nfields < T_FIELDS)
    return asc_k_fail(k, L, "REGIST_MATMUL_OBJ: the tiling must be a TCubeTiling");
  if (asc_k_mm_init(k, mm, in, c, flags, t[T_M], t[T_N], t[T_KA], t[T_KB], t[T_SM], t[T_SN],
                    t[T_SK], t[T_BM], t[T_BN], t[T_BK], L) ||
      asc_k_mm_schedule(k, mm, t[T_ITERATE_ORDER], t[T_STEP_M], t[T_STEP_N], t[T_DEPTH_A1],
                        t[T_DEPTH_B1], t[T_STEP_KA], t[T_STEP_KB], L))
    return 1;
  /* BSNGD, SBNGD, BNGS1S2 operands (codes 2-4) read the tiling's axes */
  int axes = 0;
  for (int w = 0; w < 3; w++) axes |= ((flags >> (6 + 3 * w)) & 7) >= 2;
  if (!axes) return 0;
  int64_t v[15];
  for (int i = 0; i < 15; i++) v[i] = t[T_LAYOUT + i];
  return asc_k_mm_layout(k, mm, v, L);
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
  if (ub == 2) /* GM, written sequentially (enSequentialWrite) */
    return all ? asc_k_fail(k, L, "Matmul::IterateAll: enSequentialWrite to GM is not simulated")
               : asc_k_mm_get_c_gm_as(k, mm, gt_in(g), c, 1, L);
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

/* The rest of Matmul's members (pyasc_sim.h PYASC_SIM_MM_*): v holds the
 * integer operands, g/t the tensors (dt, v's dtypes as the op says). */
static int sim_mm_more(void *kv, void *mm, int op, const int64_t *v, pyasc_sim_gt g, pyasc_sim_lt t,
                       double f, pyasc_sim_gt *gout, const char *file, int line) {
  asc_k_ctx *k = kv;
  int L = at(file, line);
  const char *const names[] = {"SetOrgShape",    "SetTensorA/B",    "SetTensorA/B",
                               "GetTensorC",     "SetBatchNum",     "IterateBatch",
                               "IterateNBatch",  "GetBatchTensorC", "GetBatchTensorC",
                               "SetQuantScalar", "SetQuantVector",  "SetWorkspace"};
  if (op < 0 || op >= (int)(sizeof names / sizeof names[0]))
    return asc_k_fail(k, L, "Matmul: unknown member %d", op);
  int c = 0, c2 = 0;
  if ((op == PYASC_SIM_MM_SET_LOCAL || op == PYASC_SIM_MM_GET_C_BOTH ||
       op == PYASC_SIM_MM_ITERATE_BATCH) &&
      cube_dt(k, (int)v[op == PYASC_SIM_MM_SET_LOCAL ? 2 : 0], names[op], L, &c))
    return 1;
  if (op == PYASC_SIM_MM_GET_C_BOTH && cube_dt(k, (int)v[1], names[op], L, &c2)) return 1;
  switch (op) {
    case PYASC_SIM_MM_ORG_KC:
      return asc_k_mm_org_kc(k, mm, v[0], v[1], v[2], v[3], v[4], L);
    case PYASC_SIM_MM_SET_SCALAR:
      return asc_k_mm_set_scalar(k, mm, v[0] != 0, f, L);
    case PYASC_SIM_MM_SET_LOCAL:
      return asc_k_mm_set_local(k, mm, (int)v[0], lt_in(t), c, v[1] != 0, L);
    case PYASC_SIM_MM_GET_C_BOTH:
      return asc_k_mm_get_c_both(k, mm, gt_in(g), c, lt_in(t), c2, L);
    case PYASC_SIM_MM_BATCH_NUM:
      return asc_k_mm_batch_num(k, mm, v[0], v[1], L);
    case PYASC_SIM_MM_ITERATE_BATCH:
      return asc_k_mm_iterate_batch(k, mm, gt_in(g), c, v[1], v[2], v[3], v[4], L);
    case PYASC_SIM_MM_ITERATE_N_BATCH:
      return asc_k_mm_iterate_n_batch(k, mm, v[0], v[1], v[2], v[3], v[4], L);
    case PYASC_SIM_MM_GET_BATCH_C:
      return asc_k_mm_get_batch_c(k, mm, lt_in(t), v[0], v[1], L);
    case PYASC_SIM_MM_GET_BATCH_C_GM: {
      asc_k_gt r = {NULL, 0, 0, -1, 0};
      int rc = asc_k_mm_get_batch_c_gm(k, mm, v[0], v[1], &r, L);
      if (gout) *gout = gt_out(r);
      return rc;
    }
    case PYASC_SIM_MM_QUANT_SCALAR:
      return asc_k_mm_quant_scalar(k, mm, v[0], L);
    case PYASC_SIM_MM_QUANT_VECTOR:
      return asc_k_mm_quant_vector(k, mm, gt_in(g), (int)v[0], L);
    default:
      return asc_k_mm_workspace(k, mm, gt_in(g), (int)v[0], L);
  }
}

/* --- the basic cube APIs: TQue at the cube's positions, LoadData, Mmad,
 * Fixpipe, DataCopy with Nd2NzParams / Nz2NdParamsFull ---------------------- */
/* buf: 0 L1 (A1, B1, C1, C2), 1 L0A (A2), 2 L0B (B2), 3 L0C (CO1) */
static int sim_cube_init_buffer(void *kv, void *pipe, void *que, int64_t num, int64_t len, int buf,
                                const char *file, int line) {
  return asc_k_cube_init_buffer(kv, pipe, que, num, len, buf, at(file, line));
}
/* LoadData(dst L0A/L0B, src L1 (gm 0) or GM, LoadData2DParams) */
static int sim_cube_load(void *kv, pyasc_sim_lt dst, pyasc_sim_lt src, pyasc_sim_gt g, int gm,
                         int dt, int64_t start, int64_t repeat, int64_t src_stride, int64_t dst_gap,
                         int transpose, const char *file, int line) {
  asc_k_ctx *k = kv;
  int L = at(file, line), t;
  if (dt == ASC_K_DT_INT4)
    return asc_k_cube_i4_load(k, lt_in(dst), lt_in(src), gt_in(g), gm, start, repeat, src_stride,
                              dst_gap, transpose, L);
  if (cube_dt(k, dt, "LoadData", L, &t)) return 1;
  return gm ? asc_k_cube_load_gm(k, lt_in(dst), gt_in(g), t, start, repeat, src_stride, dst_gap,
                                 transpose, L)
            : asc_k_cube_load_l1(k, lt_in(dst), lt_in(src), t, start, repeat, src_stride, dst_gap,
                                 transpose, L);
}
/* Mmad(dst L0C, fm L0A, filter L0B[, bias in L1], MmadParams); dt: fm's */
static int sim_cube_mmad(void *kv, pyasc_sim_lt dst, pyasc_sim_lt a, pyasc_sim_lt b,
                         pyasc_sim_lt bias, int has_bias, int dst_dt, int dt, int64_t m, int64_t n,
                         int64_t kk, int init, const char *file, int line) {
  asc_k_ctx *k = kv;
  int L = at(file, line), t = cube_type(dt), d = cube_type(dst_dt);
  asc_k_lt bl = lt_in(bias);
  if ((init & 4) && !has_bias) {
    /* cmatrixSource: C starts from the bias table (C2, which shares L1 here) at its byte 0 */
    bl.off = ASC_KC_TAG(ASC_KC_L1, 0), bl.len = n;
    has_bias = 1;
  }
  init &= 3;
  if (dt == ASC_K_DT_INT4) {
    if (d != ASC_KC_S32) return asc_k_fail(k, L, "Mmad: int4b_t fm and filter give int32_t dst");
    return asc_k_cube_i4_mmad(k, lt_in(dst), lt_in(a), lt_in(b), has_bias ? &bl : NULL, m, n, kk,
                              init, L);
  }
  /* the types the cube multiplies (ir_check's rule for Python kernels) */
  if (t < 0 || t == ASC_KC_S32 || d != (t == ASC_KC_S8 ? ASC_KC_S32 : ASC_KC_F32))
    return asc_k_fail(k, L,
                      "Mmad: fm and filter must be half, bfloat16_t, float or int8_t and dst "
                      "float (int32_t for int8_t)");
  return asc_k_cube_mmad(k, lt_in(dst), lt_in(a), lt_in(b), has_bias ? &bl : NULL, NULL, t, m, n,
                         kk, init, L);
}
/* Fixpipe(dst GM (ub 0) or UB, src L0C[, quant vector in L1], FixpipeParamsV220):
 * p = nSize, mSize, srcStride, dstStride, quantPre, reluEn, nz, ndNum, srcNdStride,
 * dstNdStride */
static int sim_cube_fixpipe(void *kv, int ub, pyasc_sim_gt g, pyasc_sim_lt dst, pyasc_sim_lt src,
                            pyasc_sim_lt qv, int has_qv, int dt, int st, const int64_t *p,
                            double deq, const char *file, int line) {
  asc_k_ctx *k = kv;
  int L = at(file, line), t, s;
  if (cube_dt(k, dt, "Fixpipe", L, &t) || cube_dt(k, st, "Fixpipe", L, &s)) return 1;
  asc_k_lt q = lt_in(qv), d = lt_in(dst);
  const asc_k_lt *qp = has_qv ? &q : NULL;
  if (ub && (d.off >> ASC_KC_TAG_SHIFT) - 1 == ASC_KC_L1) {
    /* into L1 (C1): the same fixpipe, its destination a span of L1 */
    asc_kc_span sd;
    if (asc_k_cube_local(k, d, asc_kc_esize((asc_kc_type)t), ASC_KC_M_L1, "fixpipe", "dst", &sd, L))
      return 1;
    return asc_k_cube_fixpipe(k, sd, lt_in(src), qp, t, s, p[0], p[1], p[2], p[3], p[4], (int)p[5],
                              deq, (int)p[6], p + 7, L);
  }
  return ub ? asc_k_cube_fixpipe_ub(k, lt_in(dst), lt_in(src), qp, t, s, p[0], p[1], p[2], p[3],
                                    p[4], (int)p[5], deq, (int)p[6], p + 7, L)
            : asc_k_cube_fixpipe_gm(k, gt_in(g), lt_in(src), qp, t, s, p[0], p[1], p[2], p[3], p[4],
                                    (int)p[5], deq, (int)p[6], p + 7, L);
}
/* DataCopy(dst L1, src GM (ub 0) or UB, Nd2NzParams v[8]) */
static int sim_cube_nd2nz(void *kv, pyasc_sim_lt dst, pyasc_sim_gt g, pyasc_sim_lt src, int ub,
                          int dt, const int64_t *v, const char *file, int line) {
  asc_k_ctx *k = kv;
  int L = at(file, line), t;
  if (dt == ASC_K_DT_INT4) /* b4's Nd2Nz is b8's: its parameters count bytes */
    return ub ? asc_k_cube_nd2nz_ub(k, asc_k_i4_view(lt_in(dst)), asc_k_i4_view(lt_in(src)),
                                    ASC_KC_S8, v, L)
              : asc_k_cube_nd2nz_gm(k, asc_k_i4_view(lt_in(dst)), gt_in(g), ASC_KC_S8, v, L);
  if (cube_dt(k, dt, "DataCopy", L, &t)) return 1;
  return ub ? asc_k_cube_nd2nz_ub(k, lt_in(dst), lt_in(src), t, v, L)
            : asc_k_cube_nd2nz_gm(k, lt_in(dst), gt_in(g), t, v, L);
}
/* DataCopy(dst GM, src UB (NZ), Nz2NdParamsFull v[7]) */
static int sim_cube_nz2nd(void *kv, pyasc_sim_gt g, pyasc_sim_lt src, int dt, const int64_t *v,
                          const char *file, int line) {
  asc_k_ctx *k = kv;
  int L = at(file, line), t;
  if (cube_dt(k, dt, "DataCopy", L, &t)) return 1;
  return asc_k_cube_nz2nd(k, gt_in(g), lt_in(src), t, v, L);
}

/* The other cube forms (pyasc_sim.h PYASC_SIM_CUBE_*). */
_Static_assert(PYASC_SIM_CUBE_TAG_SHIFT == ASC_KC_TAG_SHIFT, "the header's cube tag");
/* DumpTensor of a tensor in L1 or L0C (where CANN's DumpTensor reads):
 * count elements of esize bytes from element `from` to out (n bytes). */
static int cube_read(asc_k_ctx *k, pyasc_sim_lt src, int64_t esize, int64_t count, int64_t from,
                     char *out, int64_t n, int L) {
  asc_kc_span s;
  if (esize < 1 || esize > 8 || count < 0 || from < 0)
    return asc_k_fail(k, L, "DumpTensor: bad element size %lld, count %lld or start %lld",
                      (long long)esize, (long long)count, (long long)from);
  if (asc_k_cube_local(k, lt_in(src), esize, ASC_KC_M_L1 | ASC_KC_M_L0C, "DumpTensor", "tensor", &s,
                       L))
    return 1;
  if (from > s.n / esize || count > s.n / esize - from || count > n / esize)
    return asc_k_fail(k, L, "DumpTensor: elements %lld to %lld run past the tensor (%lld bytes)",
                      (long long)from, (long long)(from + count), (long long)s.n);
  memcpy(out, s.p + from * esize, (size_t)(count * esize));
  return 0;
}
static int sim_cube_more(void *kv, int op, const int64_t *v, pyasc_sim_gt g, pyasc_sim_lt dst,
                         pyasc_sim_lt src, pyasc_sim_lt third, const char *file, int line) {
  asc_k_ctx *k = kv;
  int L = at(file, line), t, st;
  if (op == PYASC_SIM_CUBE_FPQ) return asc_k_set_fpq(k, v[0], 0, L);
  if (op == PYASC_SIM_CUBE_L3D_BOUNDARY) return asc_k_l3d_set_boundary(k, v[0], L);
  if (op == PYASC_SIM_CUBE_L3D_REPEAT) return asc_k_l3d_set_repeat(k, v[0], v[1], v[2], L);
  if (op == PYASC_SIM_CUBE_L3D_PAD) {
    double pad;
    memcpy(&pad, &v[0], sizeof pad);
    return asc_k_l3d_set_pad(k, pad, L);
  }
  if (op == PYASC_SIM_CUBE_READ) return cube_read(k, src, v[0], v[1], v[2], g.base, g.n, L);
  if (op == PYASC_SIM_CUBE_MMAD_SPARSE)
    return asc_k_cube_mmad_sparse(k, lt_in(dst), lt_in(src), lt_in(third), v[0], v[1], v[2],
                                  v[3] != 0, L);
  if (op == PYASC_SIM_CUBE_LOAD_SPARSE)
    return asc_k_cube_load_sparse(k, lt_in(dst), lt_in(src), lt_in(third), v[0], v[1], v[2], v[3],
                                  v[4] != 0, L);
  if (v[0] == ASC_K_DT_INT4 && op == PYASC_SIM_CUBE_LOAD_T)
    return asc_k_cube_i4_load_t(k, lt_in(dst), lt_in(src), v[1], v[2], v[3], v[4], v[5], L);
  if (v[0] == ASC_K_DT_INT4 && op == PYASC_SIM_CUBE_LOAD3D_V2) {
    double pad;
    memcpy(&pad, &v[22], sizeof pad);
    return asc_k_cube_i4_load3d(k, lt_in(dst), lt_in(src), v + 1, pad, L);
  }
  if (cube_dt(k, (int)v[0], "the cube", L, &t)) return 1;
  switch (op) {
    case PYASC_SIM_CUBE_CO12:
      if (cube_dt(k, (int)v[1], "DataCopy", L, &st)) return 1;
      return v[9] ? asc_k_cube_co12_ub(k, lt_in(dst), lt_in(src), t, st, v[2], v[3], v[4], v[5],
                                       v[6], v[7], (int)v[8], L)
                  : asc_k_cube_co12_gm(k, gt_in(g), lt_in(src), t, st, v[2], v[3], v[4], v[5], v[6],
                                       v[7], (int)v[8], L);
    case PYASC_SIM_CUBE_LOAD_T:
      return asc_k_cube_load_t(k, lt_in(dst), lt_in(src), t, v[1], v[2], v[3], v[4], v[5], L);
    case PYASC_SIM_CUBE_ND2NZ_PAD:
      return asc_k_cube_nd2nz_pad(k, lt_in(dst), lt_in(src), t, v + 1, v + 5, L);
    case PYASC_SIM_CUBE_LOAD3D_V2:
    case PYASC_SIM_CUBE_LOAD3D_V1: {
      double pad;
      memcpy(&pad, &v[22], sizeof pad);
      return (op == PYASC_SIM_CUBE_LOAD3D_V2 ? asc_k_load3d_v2 : asc_k_load3d_v1)(
          k, lt_in(dst), lt_in(src), t, (int)v[0], v + 1, pad, L);
    }
    case PYASC_SIM_CUBE_LOAD3D_V2PRO:
      return asc_k_load3d_v2pro(k, lt_in(dst), lt_in(src), t, (int)v[0], v[1], (int)v[2], (int)v[3],
                                (int)v[4], (int)v[5], (int)v[6], v[7], v[8], L);
    case PYASC_SIM_CUBE_LOAD2D_V2:
      if (v[9])
        return asc_k_load2d_v2_gm(k, lt_in(dst), gt_in(g), t, v[1], v[2], v[3], v[4], v[5], v[6],
                                  (int)v[7], v[8], L);
      return asc_k_load2d_v2_l1(k, lt_in(dst), lt_in(src), t, v[1], v[2], v[3], v[4], v[5], v[6],
                                (int)v[7], v[8], L);
    default:
      return asc_k_fail(k, L, "the cube: unknown form %d", op);
  }
}

/* A LocalTensor at byte addr of cube buffer buf: tagged as init_buffer's
 * buffers are (rt/cube_view.h), so that only cube instructions take it;
 * the whole tensor must lie in the buffer. */
static int sim_cube_local_new(void *kv, pyasc_sim_lt *t, int buf, int64_t addr, int64_t len,
                              int64_t esize, const char *file, int line) {
  static const char *const names[ASC_KC_NBUF] = {"L1", "L0A", "L0B", "L0C"};
  asc_k_ctx *k = kv;
  int L = at(file, line);
  const asc_kc_core *c = (const asc_kc_core *)k->cube;
  if (!c || buf < 0 || buf >= ASC_KC_NBUF)
    return asc_k_fail(k, L, "LocalTensor: no cube buffer here");
  int64_t bytes = asc_k_mul(len, esize);
  if (addr < 0 || len < 0 || esize <= 0 || bytes == ASC_K_FAR || addr > c->size[buf] ||
      bytes > c->size[buf] - addr)
    return asc_k_fail(
        k, L, "LocalTensor: %lld elements at %s byte %lld fall outside the %lld-byte %s",
        (long long)len, names[buf], (long long)addr, (long long)c->size[buf], names[buf]);
  t->off = ASC_KC_TAG(buf, addr);
  t->len = len;
  return 0;
}

/* DataCopy GM -> L1, with DataCopyParams (bc bursts of bl 32-byte blocks, ss and ds blocks
 * between them) or, es < 0, a count (one burst of bl bytes, elements of -es bytes). A burst is
 * the Nd2Nz copy of one row of bytes, which NZ lays out contiguously (C0 stride 1): the cube's
 * GM -> L1 path, in pieces of at most Nd2Nz's 65535-element row. */
static int sim_cube_copy_gm_l1(asc_k_ctx *k, asc_k_lt dst, asc_k_gt g, int64_t bc, int64_t bl,
                               int64_t ss, int64_t ds, int64_t es, int L) {
  const int64_t unit = es < 0 ? 1 : 32, esize = es < 0 ? -es : es, piece = 65504;
  if (bc < 0 || bl < 0 || ss < 0 || ds < 0 || bl == ASC_K_FAR)
    return asc_k_fail(k, L, "data_copy: DataCopyParams fields must not be negative");
  const int64_t burst = asc_k_mul(bl, unit), room = asc_k_mul(dst.len, esize);
  const int64_t src_step = asc_k_mul(asc_k_add(bl, ss), unit),
                dst_step = asc_k_mul(asc_k_add(bl, ds), unit);
  if (burst < 0 || room < 0 || src_step < 0 || dst_step < 0)
    return asc_k_fail(k, L, "data_copy: the copy's span overflows");
  for (int64_t i = 0; i < bc; i++)
    for (int64_t at = 0; at < burst; at += piece) {
      const int64_t n = burst - at < piece ? burst - at : piece;
      const int64_t d_at = asc_k_madd(at, i, dst_step), s_at = asc_k_madd(at, i, src_step);
      if (d_at < 0 || s_at < 0 || d_at > room)
        return asc_k_fail(k, L, "data_copy: burst %lld lies past the %lld-byte L1 LocalTensor",
                          (long long)i, (long long)room);
      asc_k_lt d = {dst.off + d_at, room - d_at};
      asc_k_gt s = g;
      s.lead = asc_k_add(g.lead, s_at);
      /* the bytes go as int8 elements: set_global_buffer's size and the
       * view's skip count elements of esize bytes */
      if (g.size >= 0)
        s.size = asc_k_mul(g.size, esize), s.skip = asc_k_add(asc_k_mul(g.skip, esize), s_at);
      const int64_t v[8] = {1, 1, n, 0, n, 1, 1, 0};
      if (asc_k_cube_nd2nz_gm(k, d, s, ASC_KC_S8, v, L)) return 1;
    }
  return 0;
}

/* DataCopy C1 -> C2 (L1 to the bias table) with DataCopyParams: bc bursts of bl 64-byte
 * blocks, ss 32-byte blocks between source bursts, ds 64-byte blocks between destination
 * bursts (dav-2201's units on this path). C2 shares L1 in the simulator, so the destination
 * is an L1 tensor; as on the device, the bias table's 1 KB bounds it. */
static int sim_cube_copy_l1_bt(asc_k_ctx *k, asc_k_lt dst, asc_k_lt src, int64_t bc, int64_t bl,
                               int64_t ss, int64_t ds, int64_t es, int L) {
  static const char api[] = "data_copy (C1 -> C2)";
  asc_kc_span d, s;
  if (bc < 0 || bc > 4095 || bl < 0 || bl > 65535 || ss < 0 || ss > 65535 || ds < 0 || ds > 65535)
    return asc_k_fail(k, L,
                      "%s: DataCopyParams out of range (blockCount %lld, blockLen %lld, "
                      "srcStride %lld, dstStride %lld)",
                      api, (long long)bc, (long long)bl, (long long)ss, (long long)ds);
  if (asc_k_cube_local(k, dst, es, ASC_KC_M_L1, api, "dst", &d, L) ||
      asc_k_cube_local(k, src, es, ASC_KC_M_L1, api, "src", &s, L))
    return 1;
  const int64_t at = dst.off & (((int64_t)1 << ASC_KC_TAG_SHIFT) - 1), burst = bl * 64;
  for (int64_t i = 0; i < bc; i++) {
    const int64_t so = i * (burst + ss * 32), dof = i * (burst + ds * 64);
    if (!asc_kc_in(so, burst, s.n) || !asc_kc_in(dof, burst, d.n))
      return asc_k_fail(k, L, "%s: burst %lld lies past src (%lld bytes) or dst (%lld bytes)", api,
                        (long long)i, (long long)s.n, (long long)d.n);
    if (at + dof + burst > 1024)
      return asc_k_fail(k, L, "%s: burst %lld ends at byte %lld of the 1 KB bias table", api,
                        (long long)i, (long long)(at + dof + burst));
    memmove(d.p + dof, s.p + so, (size_t)burst);
    if (asc_k_cube_use(k, ASC_K_MTE1, s, so, burst, 0, api, "src", L) ||
        asc_k_cube_use(k, ASC_K_MTE1, d, dof, burst, 1, api, "dst", L))
      return 1;
  }
  return 0;
}

/* DataCopy L1 -> GM with DataCopyParams (the 220 series moves L1 straight out): bc bursts of
 * bl 32-byte blocks, ss blocks apart in L1 and ds in GM, stored as DataCopy stores (atomic
 * mode included); es the element size. */
static int sim_cube_copy_l1_gm(asc_k_ctx *k, asc_k_gt g, asc_k_lt src, int64_t bc, int64_t bl,
                               int64_t ss, int64_t ds, int64_t es, int L) {
  if (bc < 0 || bl < 0 || ss < 0 || ds < 0 || bl == ASC_K_FAR)
    return asc_k_fail(k, L, "data_copy: DataCopyParams fields must not be negative");
  const int64_t burst = asc_k_mul(bl, 32), src_step = asc_k_mul(asc_k_add(bl, ss), 32),
                dst_step = asc_k_mul(asc_k_add(bl, ds), 32), room = asc_k_mul(src.len, es);
  if (burst < 0 || src_step < 0 || dst_step < 0 || room < 0 || es < 1)
    return asc_k_fail(k, L, "data_copy: the copy's span overflows");
  for (int64_t i = 0; i < bc; i++) {
    const int64_t s_at = asc_k_mul(i, src_step), d_at = asc_k_mul(i, dst_step);
    if (s_at < 0 || d_at < 0 || asc_k_add(s_at, burst) > room)
      return asc_k_fail(k, L, "data_copy: burst %lld lies past the %lld-byte L1 LocalTensor",
                        (long long)i, (long long)room);
    asc_k_lt at = {src.off + s_at, (room - s_at) / es};
    asc_kc_span sp;
    asc_k_gt d = g;
    d.lead = asc_k_add(g.lead, d_at);
    d.skip = asc_k_add(g.skip, d_at / es);
    if (asc_k_cube_local(k, at, es, ASC_KC_M_L1, "data_copy", "src", &sp, L) ||
        asc_k_gm_range(k, &d, 0, burst / es, es, "data_copy", L) ||
        asc_k_cube_use(k, ASC_K_MTE3, sp, 0, burst, 0, "data_copy", "src", L) ||
        asc_k_gm_store(k, &d, d.lead, sp.p, burst, es, "data_copy", L))
      return 1;
  }
  return 0;
}

#define SIM_CUBE_ENTRIES                                                                   \
  sim_cube_begin, sim_cube_end, sim_core_info, sim_group_run, sim_cross_flag, sim_mm_init, \
      sim_mm_set, sim_mm_shape, sim_mm_iterate, sim_mm_get_c, sim_mm_end, sim_mm_offset_c, \
      sim_mm_more, sim_cube_init_buffer, sim_cube_load, sim_cube_mmad, sim_cube_fixpipe,   \
      sim_cube_nd2nz, sim_cube_nz2nd, sim_cube_more, sim_cube_local_new
