/* asc.adv.Matmul's batch forms (set_batch_num, the BNGS1S2-style layouts,
 * iterate_batch, iterate_n_batch and get_batch_tensor_c over a workspace)
 * and its quantised outputs (set_quant_scalar/set_quant_vector). A part of
 * rt/cube.h, after cube_matmul.h. */

/* set_batch_num(batch_a, batch_b): the batch counts iterate_batch's
 * set_batch_num form uses. */
static int asc_k_mm_batch_num(asc_k_ctx *k, asc_k_matmul *mm, int64_t ba, int64_t bb, int line)
    __attribute__((unused));
static int asc_k_mm_batch_num(asc_k_ctx *k, asc_k_matmul *mm, int64_t ba, int64_t bb, int line) {
  if (asc_k_mm_check(k, mm, "set_batch_num", line)) return 1;
  if (ba <= 0 || bb <= 0 || ba > 65535 || bb > 65535)
    return asc_k_fail(k, line,
                      "Matmul.set_batch_num: batch_a %lld and batch_b %lld must be 1..65535",
                      (long long)ba, (long long)bb);
  mm->batch_a = ba, mm->batch_b = bb;
  return 0;
}
/* matmul.layout: the tiling's a/b/c_layout_info_* axes (B, S, N, G, D;
 * C's S1 and S2 in the S and D places), read by iterate_batch for the
 * operands whose MatmulType has a BSNGD, SBNGD or BNGS1S2 layout. */
static int asc_k_mm_layout(asc_k_ctx *k, asc_k_matmul *mm, const int64_t v[15], int line)
    __attribute__((unused));
static int asc_k_mm_layout(asc_k_ctx *k, asc_k_matmul *mm, const int64_t v[15], int line) {
  if (asc_k_mm_check(k, mm, "init", line)) return 1;
  for (int i = 0; i < 15; i++) mm->linfo[i / 5][i % 5] = v[i];
  return 0;
}
enum { ASC_K_LAY_BSNGD = 2, ASC_K_LAY_SBNGD = 3, ASC_K_LAY_BNGS1S2 = 4 };
/* Where operand w's (0 A, 1 B, 2 C) `used` matrices lie in its layout:
 * each is S x D (as stored: transposed operands too) with rows *ld
 * elements apart, matrix j at j * *step. BSNGD: [B, S, N, G, D], the N*G
 * matrices of one B side by side (rows N*G*D apart, D apart); SBNGD:
 * [S, B, N, G, D], all B*N*G side by side; BNGS1S2: each matrix whole,
 * one after another. */
static int asc_k_mm_geom(asc_k_ctx *k, const asc_k_matmul *mm, int w, int64_t used, int64_t *ld,
                         int64_t *step, int line) {
  static const char *const names[3] = {"A", "B", "C"}, *const lays[5] = {"", "", "BSNGD", "SBNGD",
                                                                         "BNGS1S2"};
  const int64_t *v = mm->linfo[w], b = v[0], s = v[1], n = v[2], g = v[3], d = v[4];
  const int lay = mm->lay[w], nz = w == 0 ? mm->a_nz : w == 1 ? mm->b_nz : mm->c_nz;
  const char *what = lays[lay], *op = names[w];
  /* PyAsc takes NZ inputs in BNGS1S2 only (C stays ND) */
  if (nz && (w == 2 || lay != ASC_K_LAY_BNGS1S2))
    return asc_k_fail(k, line,
                      "Matmul.iterate_batch: %s in the %s layout must be ND (NZ: A and B in "
                      "BNGS1S2)",
                      op, what);
  for (int i = 0; i < 5; i++)
    if (v[i] <= 0)
      return asc_k_fail(
          k, line,
          "Matmul.iterate_batch: %s has the %s layout but the tiling's %c_layout_info "
          "axes are not set (host: set_%c_layout(b, s, n, g, d))",
          op, what, "abc"[w], "abc"[w]);
  /* the stored matrix: A m x ka (ka x m transposed), B kb x n (n x kb), C m x n */
  const int64_t rows = w == 0   ? (mm->a_trans ? mm->ka : mm->m)
                       : w == 1 ? (mm->b_trans ? mm->n : mm->kb)
                                : mm->m;
  const int64_t cols = w == 0   ? (mm->a_trans ? mm->m : mm->ka)
                       : w == 1 ? (mm->b_trans ? mm->kb : mm->n)
                                : mm->n;
  if (rows > s || cols > d)
    return asc_k_fail(
        k, line,
        "Matmul.iterate_batch: %s's matrix (%lld x %lld as stored) is larger than its "
        "%s layout's S x D (%lld x %lld)",
        op, (long long)rows, (long long)cols, what, (long long)s, (long long)d);
  const int64_t ng = asc_k_mul(n, g), bng = asc_k_mul(b, ng);
  const int64_t count = lay == ASC_K_LAY_BSNGD ? ng : bng;
  *ld = lay == ASC_K_LAY_BSNGD ? asc_k_mul(ng, d) : lay == ASC_K_LAY_SBNGD ? asc_k_mul(bng, d) : d;
  *step = lay == ASC_K_LAY_BNGS1S2 ? asc_k_mul(s, d) : d;
  if (nz) { /* S x D in NZ: S padded to 16 rows, D to C0 columns; *ld is the padded S */
    const int64_t c0 = asc_kc_c0((asc_kc_type)mm->in_type);
    *ld = asc_k_mul(asc_k_add(s, 15) / 16, 16);
    *step = asc_k_mul(*ld, asc_k_mul(asc_k_add(d, c0 - 1) / c0, c0));
  }
  if (*ld < 0 || *step < 0 || count < 0)
    return asc_k_fail(k, line, "Matmul.iterate_batch: %s's layout axes overflow", op);
  /* BSNGD cannot step from one B's S rows to the next within a call */
  if (used > count || (lay == ASC_K_LAY_BSNGD && w < 2 && used > 0 && count % used))
    return asc_k_fail(k, line,
                      "Matmul.iterate_batch: %lld %s matrices do not fit its %s layout (%lld per "
                      "call%s)",
                      (long long)used, op, what, (long long)count,
                      lay == ASC_K_LAY_BSNGD ? ", N*G a multiple of the batch count" : "");
  return 0;
}
/* iterate_batch: max(batch_a, batch_b) products of the single-core shape.
 * NORMAL (or NONE) layout: A's matrices lie stride_a elements apart (0:
 * m x ka), B's stride_b apart (0: kb x n), C's m x n apart; an operand in
 * a BSNGD/SBNGD/BNGS1S2 layout follows asc_k_mm_geom instead (its
 * matrix_stride is not used), as does C unless c_plain (iterate_n_batch's
 * workspace). With unequal counts (one a multiple of the other) product
 * i takes A i / (batch / batch_a) and B i / (batch / batch_b). The bias is
 * the same for every product. ba < 0 takes set_batch_num's counts.
 * Synchronous: all done on return. */
static int asc_k_mm_batch_run(asc_k_ctx *k, asc_k_matmul *mm, asc_k_gt c, int dt, int64_t ba,
                              int64_t bb, int64_t sa, int64_t sb, int c_plain, int line) {
  if (asc_k_mm_check(k, mm, "iterate_batch", line)) return 1;
  if (ba < 0 || bb < 0) {
    if (mm->batch_a <= 0)
      return asc_k_fail(k, line,
                        "Matmul.iterate_batch: pass batch_a/batch_b or call set_batch_num");
    ba = mm->batch_a, bb = mm->batch_b;
  }
  if (ba <= 0 || bb <= 0 || ba > 65535 || bb > 65535)
    return asc_k_fail(k, line,
                      "Matmul.iterate_batch: batch_a %lld and batch_b %lld must be 1..65535",
                      (long long)ba, (long long)bb);
  const int64_t nb = ba > bb ? ba : bb;
  if (nb % ba || nb % bb)
    return asc_k_fail(k, line,
                      "Matmul.iterate_batch: batch_a %lld and batch_b %lld must be multiples of "
                      "one another",
                      (long long)ba, (long long)bb);
  if (sa < 0 || sb < 0) return asc_k_fail(k, line, "Matmul.iterate_batch: negative matrix stride");
  if (mm->quant)
    return asc_k_fail(k, line, "Matmul.iterate_batch does not take set_quant_scalar/vector");
  if (!mm->a.set || !mm->b.set)
    return asc_k_fail(k, line, "Matmul.iterate_batch: set_tensor_a and set_tensor_b first");
  if (mm->a.local || mm->b.local) /* the batch walks GM strides: a LocalTensor has none */
    return asc_k_fail(k, line, "Matmul.iterate_batch: A and B must be GlobalTensors");
  const int es = asc_kc_esize((asc_kc_type)mm->in_type), ces = asc_kc_esize((asc_kc_type)dt);
  int64_t ld[3] = {0, 0, 0};
  int64_t step[3] = {sa ? sa : asc_k_mul(mm->m, mm->ka), sb ? sb : asc_k_mul(mm->kb, mm->n),
                     asc_k_mul(mm->m, mm->n)};
  const int64_t used[3] = {ba, bb, nb};
  for (int w = 0; w < 3; w++)
    if (mm->lay[w] >= ASC_K_LAY_BSNGD && !(w == 2 && c_plain) &&
        asc_k_mm_geom(k, mm, w, used[w], &ld[w], &step[w], line))
      return 1;
  if (step[0] < 0 || step[1] < 0 || step[2] < 0)
    return asc_k_fail(k, line, "Matmul.iterate_batch: size overflow");
  const asc_k_gt a0 = mm->a.g, b0 = mm->b.g;
  int rc = 0;
  memcpy(mm->ld, ld, sizeof ld);
  for (int64_t i = 0; i < nb && !rc; i++) {
    mm->a.g = asc_k_global_slice(a0, asc_k_mul(i / (nb / ba), step[0]), es);
    mm->b.g = asc_k_global_slice(b0, asc_k_mul(i / (nb / bb), step[1]), es);
    rc = asc_k_mm_iterate_all(k, mm, asc_k_global_slice(c, asc_k_mul(i, step[2]), ces), dt, line);
  }
  mm->a.g = a0, mm->b.g = b0;
  memset(mm->ld, 0, sizeof mm->ld);
  return rc;
}
static int asc_k_mm_iterate_batch(asc_k_ctx *k, asc_k_matmul *mm, asc_k_gt c, int dt, int64_t ba,
                                  int64_t bb, int64_t sa, int64_t sb, int line)
    __attribute__((unused));
static int asc_k_mm_iterate_batch(asc_k_ctx *k, asc_k_matmul *mm, asc_k_gt c, int dt, int64_t ba,
                                  int64_t bb, int64_t sa, int64_t sb, int line) {
  return asc_k_mm_batch_run(k, mm, c, dt, ba, bb, sa, sb, 0, line);
}
/* set_quant_scalar(bits): one scale for C, a float32's bits in the low
 * 32 bits (PyAsc's uint64 form); set_quant_vector(v): one per column of
 * C, a GlobalTensor of uint64 (float32 bits in the low half). */
static int asc_k_mm_quant_scalar(asc_k_ctx *k, asc_k_matmul *mm, int64_t bits, int line)
    __attribute__((unused));
static int asc_k_mm_quant_scalar(asc_k_ctx *k, asc_k_matmul *mm, int64_t bits, int line) {
  if (asc_k_mm_check(k, mm, "set_quant_scalar", line)) return 1;
  uint32_t b = (uint32_t)((uint64_t)bits & 0xffffffffu);
  memcpy(&mm->quant_scalar, &b, 4);
  mm->quant = 1;
  return 0;
}
static int asc_k_mm_quant_vector(asc_k_ctx *k, asc_k_matmul *mm, asc_k_gt v, int es, int line)
    __attribute__((unused));
static int asc_k_mm_quant_vector(asc_k_ctx *k, asc_k_matmul *mm, asc_k_gt v, int es, int line) {
  if (asc_k_mm_check(k, mm, "set_quant_vector", line)) return 1;
  mm->quant_vec = v, mm->quant_vec_es = es;
  mm->quant = 2;
  return 0;
}

/* set_workspace(gt): where iterate_n_batch leaves its results. */
static int asc_k_mm_workspace(asc_k_ctx *k, asc_k_matmul *mm, asc_k_gt g, int es, int line)
    __attribute__((unused));
static int asc_k_mm_workspace(asc_k_ctx *k, asc_k_matmul *mm, asc_k_gt g, int es, int line) {
  if (asc_k_cube_gm(k, g, es, "Matmul.set_workspace", &mm->ws, line)) return 1;
  mm->ws_read = 0;
  return 0;
}
/* iterate_n_batch: loop iterate_batch calls, A and B moving on by batch_a
 * and batch_b matrices each time, their C's in the workspace: one after
 * another (max(batch_a, batch_b) x m x n each), for get_batch_tensor_c,
 * or where C's BSNGD/SBNGD/BNGS1S2 layout puts them (CANN: the output is
 * not written sequentially; batch_matmul_iterate_n_batch). */
static int asc_k_mm_iterate_n_batch(asc_k_ctx *k, asc_k_matmul *mm, int64_t loop, int64_t ba,
                                    int64_t bb, int64_t sa, int64_t sb, int line)
    __attribute__((unused));
static int asc_k_mm_iterate_n_batch(asc_k_ctx *k, asc_k_matmul *mm, int64_t loop, int64_t ba,
                                    int64_t bb, int64_t sa, int64_t sb, int line) {
  if (asc_k_mm_check(k, mm, "iterate_n_batch", line)) return 1;
  if (!mm->ws.p)
    return asc_k_fail(k, line,
                      "Matmul.iterate_n_batch: call set_workspace first (its results go "
                      "there)");
  if (loop < 0 || ba <= 0 || bb <= 0 || ba > 65535 || bb > 65535 || sa < 0 || sb < 0)
    return asc_k_fail(k, line,
                      "Matmul.iterate_n_batch: batch_loop %lld, batch_a %lld, batch_b %lld out of "
                      "range",
                      (long long)loop, (long long)ba, (long long)bb);
  if (!mm->a.set || !mm->b.set)
    return asc_k_fail(k, line, "Matmul.iterate_n_batch: set_tensor_a and set_tensor_b first");
  if (mm->a.local || mm->b.local) /* the batch walks GM strides: a LocalTensor has none */
    return asc_k_fail(k, line, "Matmul.iterate_n_batch: A and B must be GlobalTensors");
  const int es = asc_kc_esize((asc_kc_type)mm->in_type);
  int64_t ua = sa ? sa : asc_k_mul(mm->m, mm->ka), ub = sb ? sb : asc_k_mul(mm->kb, mm->n), ld;
  /* a layout's matrices: the loop's batch_a (batch_b) at a time, side by side */
  if ((mm->lay[0] >= ASC_K_LAY_BSNGD &&
       asc_k_mm_geom(k, mm, 0, asc_k_mul(loop, ba), &ld, &ua, line)) ||
      (mm->lay[1] >= ASC_K_LAY_BSNGD &&
       asc_k_mm_geom(k, mm, 1, asc_k_mul(loop, bb), &ld, &ub, line)))
    return 1;
  const int64_t nb = ba > bb ? ba : bb;
  const int c_lay = mm->lay[2] >= ASC_K_LAY_BSNGD;
  int64_t uc = asc_k_mul(mm->m, mm->n);
  if (c_lay && asc_k_mm_geom(k, mm, 2, asc_k_mul(loop, nb), &ld, &uc, line)) return 1;
  const int64_t step_a = asc_k_mul(ba, ua), step_b = asc_k_mul(bb, ub), step_c = asc_k_mul(nb, uc);
  if (step_a < 0 || step_b < 0 || step_c < 0)
    return asc_k_fail(k, line, "Matmul.iterate_n_batch: size overflow");
  const asc_k_gt a0 = mm->a.g, b0 = mm->b.g;
  asc_k_gt ws = {mm->ws.p, mm->ws.n, 0, -1, 0};
  int rc = 0;
  for (int64_t l = 0; l < loop && !rc; l++) {
    mm->a.g = asc_k_global_slice(a0, asc_k_mul(l, step_a), es);
    mm->b.g = asc_k_global_slice(b0, asc_k_mul(l, step_b), es);
    rc = asc_k_mm_batch_run(
        k, mm, asc_k_global_slice(ws, asc_k_mul(l, step_c), asc_kc_esize((asc_kc_type)mm->c_type)),
        mm->c_type, ba, bb, sa, sb, !c_lay, line);
  }
  mm->a.g = a0, mm->b.g = b0;
  mm->ws_read = c_lay ? -1 : 0; /* get_batch_tensor_c reads sequential results only */
  return rc;
}
/* get_batch_tensor_c(ub, batch_a, batch_b): the workspace's next
 * max(batch_a, batch_b) x m x n results into ub. */
static int asc_k_mm_get_batch_c(asc_k_ctx *k, asc_k_matmul *mm, asc_k_lt t, int64_t ba, int64_t bb,
                                int line) __attribute__((unused));
static int asc_k_mm_get_batch_c(asc_k_ctx *k, asc_k_matmul *mm, asc_k_lt t, int64_t ba, int64_t bb,
                                int line) {
  asc_kc_span d;
  if (asc_k_mm_check(k, mm, "get_batch_tensor_c", line)) return 1;
  if (mm->ws_read < 0)
    return asc_k_fail(k, line,
                      "Matmul.get_batch_tensor_c: iterate_n_batch left C in its layout, in "
                      "place in the workspace: read it from there");
  const int ces = asc_kc_esize((asc_kc_type)mm->c_type);
  if (asc_k_cube_ub(k, t, ces, "Matmul.get_batch_tensor_c", &d, line)) return 1;
  if (ba <= 0 || bb <= 0 || ba > 65535 || bb > 65535)
    return asc_k_fail(k, line, "Matmul.get_batch_tensor_c: batch_a and batch_b must be 1..65535");
  const int64_t bytes = asc_k_mul(asc_k_mul(ba > bb ? ba : bb, asc_k_mul(mm->m, mm->n)), ces);
  if (bytes < 0 || bytes > d.n)
    return asc_k_fail(k, line, "Matmul.get_batch_tensor_c: %lld bytes do not fit the tensor",
                      (long long)bytes);
  if (!mm->ws.p || bytes > mm->ws.n - mm->ws_read)
    return asc_k_fail(k, line,
                      "Matmul.get_batch_tensor_c: no more results: call "
                      "iterate_n_batch (after set_workspace) first");
  memcpy(d.p, mm->ws.p + mm->ws_read, (size_t)bytes);
  mm->ws_read += bytes;
  return 0;
}
/* get_batch_tensor_c(batch_a, batch_b) -> GlobalTensor: the next
 * max(batch_a, batch_b) C matrices iterate_n_batch left in the workspace,
 * as a GlobalTensor over them (the read moves on, as with a LocalTensor). */
static int asc_k_mm_get_batch_c_gm(asc_k_ctx *k, asc_k_matmul *mm, int64_t ba, int64_t bb,
                                   asc_k_gt *g, int line) __attribute__((unused));
static int asc_k_mm_get_batch_c_gm(asc_k_ctx *k, asc_k_matmul *mm, int64_t ba, int64_t bb,
                                   asc_k_gt *g, int line) {
  if (asc_k_mm_check(k, mm, "get_batch_tensor_c", line)) return 1;
  const int ces = asc_kc_esize((asc_kc_type)mm->c_type);
  if (ba <= 0 || bb <= 0 || ba > 65535 || bb > 65535)
    return asc_k_fail(k, line, "Matmul.get_batch_tensor_c: batch_a and batch_b must be 1..65535");
  const int64_t count = asc_k_mul(ba > bb ? ba : bb, asc_k_mul(mm->m, mm->n));
  const int64_t bytes = asc_k_mul(count, ces);
  if (mm->ws_read < 0 && mm->ws.p) { /* C in its layout: the results in place, all of them */
    asc_k_gt all = {mm->ws.p, mm->ws.n, 0, mm->ws.n / ces, 0};
    *g = all;
    return 0;
  }
  if (!mm->ws.p || bytes < 0 || bytes > mm->ws.n - mm->ws_read)
    return asc_k_fail(k, line,
                      "Matmul.get_batch_tensor_c: no more results: call "
                      "iterate_n_batch (after set_workspace) first");
  asc_k_gt r = {mm->ws.p + mm->ws_read, mm->ws.n - mm->ws_read, 0, count, 0};
  *g = r;
  mm->ws_read += bytes;
  return 0;
}
