/* --- asc.adv.Matmul ---------------------------------------------------------
 * The high-level matmul of one core: the single-core shape (set_tail /
 * set_single_shape, else the tiling's single_core_*) is cut into base
 * blocks of base_m x base_n, visited in the tiling's order (asc_k_mm_order); each block runs over
 * K in steps of base_k: A and B^T are gathered from global memory (ND or NZ,
 * transposed or not) into L1 as NZ fractals, moved to L0A/L0B with
 * load_data, and mmad accumulates in L0C, the bias added at the first step.
 * get_tensor_c writes the block with fixpipe. Its L1/L0 space comes from
 * the core's buffers (init), so it coexists with the kernel's own queues. */
typedef struct asc_k_mm_in {
  asc_k_gt g;
  int set;
  int local;             /* set from a LocalTensor (UB or L1): span holds it */
  asc_kc_span span;      /* the LocalTensor's bytes (a span of k's UB or cube L1) */
  int scalar;            /* set_tensor_a/b(scalar): every element is sval */
  unsigned char sval[8]; /* the scalar in the operands' type */
} asc_k_mm_in;
typedef struct asc_k_matmul {
  int inited;
  int in_type, c_type, c_pos_ub; /* asc_kc_type of A/B and of C; C in UB */
  int a_nz, b_nz, c_nz, a_trans, b_trans;
  int c_align;        /* an ND_ALIGN C: its rows start 32 bytes apart at least (Ascend C's form) */
  int c_split;        /* MatmulConfig's isEnableChannelSplit: a float NZ C in 16 x 8 fractals */
  int partial;        /* isPartialOutput: each iterate() is one base K block of one base block */
  int64_t k_lo, k_hi; /* with partial: the K range of the current iterate() */
  int i4; /* A and B hold int4b_t (two a byte, the low nibble first), widened to int8 in L1 */
  int64_t m, n, ka, kb; /* org shape */
  int64_t kc;           /* set_org_shape's org_kc: C's N (its row length); 0: n */
  int64_t sm, sn, sk;   /* single-core shape */
  int64_t bm, bn, bk;   /* base block */
  asc_k_mm_in a, b, bias;
  int64_t next, cur_m0, cur_n0, cur_tm, cur_tn; /* iteration state */
  int have_block;
  int64_t batch_a, batch_b; /* set_batch_num (0: none) */
  int quant;                /* 0 none, 1 set_quant_scalar, 2 set_quant_vector */
  float quant_scalar;
  asc_k_gt quant_vec;
  int quant_vec_es; /* 8: uint64, float32 bits in the low half */
  asc_kc_span ws;   /* set_workspace: iterate_n_batch's results */
  int64_t ws_read;  /* bytes of ws get_batch_tensor_c has read */
  int64_t off_l1a, off_l1b, off_l0a, off_l0b, off_l0c; /* bytes in each buffer */
  int lay[3];               /* LayoutMode of A, B, C (matmul.new's flags) */
  int64_t linfo[3][5];      /* the tiling's layout axes B, S, N, G, D (C: S1, S2) */
  int64_t ld[3];            /* iterate_batch: A, B, C row strides (NZ: padded rows); 0: org shape */
  int order;                /* the tiling's iterate_order: 0 ORDER_M, 1 ORDER_N */
  int atomic;               /* en_atomic of the GM write under way: 1 add, 2 max, 3 min */
  int64_t step_m, step_n;   /* base blocks of A (B) that L1 holds at once (>= 1) */
  int64_t step_ka, step_kb; /* base K blocks of A (B) one GM -> L1 load brings (>= 1) */
  int64_t off_l1a_x, off_l1b_x; /* L1 blocks 1.. of A (B) past init's one (schedule's) */
  int64_t depth_a1, depth_b1;   /* A (B) base blocks L1 holds (0: one); the timing model's */
  int pos[3];       /* A's, B's, bias's position code (matmul.py): 0 GM, 1-3 UB, 4 L1 (TSCM) */
  int unit_flag;    /* the config's en_unit_flag: MMAD and FIXPIPE hand L0C over per 512 B */
  int const_tiling; /* a MatmulApiStaticTiling config: the tiling is known at compile time */
  int64_t own[ASC_KC_NBUF][4][2]; /* the spans (offset, bytes) it took of each buffer */
  int nown[ASC_KC_NBUF];
} asc_k_matmul;

/* The first offset from 0 on where step bytes miss every span mm holds of
 * buf (its own blocks), aligned. */
static int64_t asc_k_mm_wrap(const asc_k_matmul *mm, int buf, int64_t step, int64_t align) {
  int64_t at = 0;
  for (int moved = 1; moved;) {
    moved = 0;
    for (int i = 0; i < mm->nown[buf]; i++) {
      const int64_t lo = mm->own[buf][i][0], hi = lo + mm->own[buf][i][1];
      if (at < hi && lo < at + step) at = (hi + align - 1) / align * align, moved = 1;
    }
  }
  return at;
}

static int asc_k_mm_take(asc_k_ctx *k, asc_kc_core *c, asc_k_matmul *mm, int buf, int64_t bytes,
                         int64_t align, int64_t *off, const char *what, int line) {
  static const char *const names[ASC_KC_NBUF] = {"L1", "L0A", "L0B", "L0C"};
  int64_t step = (bytes + align - 1) / align * align;
  int64_t at = (c->cursor[buf] + align - 1) / align * align;
  /* Matmul objects past the buffer's end: on the device each takes its
   * space from the TPipe, unchecked, and objects used one after another
   * (CANN's matmul_a2b2_share: two that each fill L0C) work on the space
   * they overlap; the default mode overlaps them from the start (never an
   * object's own blocks), checked mode reports it */
  if (bytes >= 0 && step <= c->size[buf] && step > c->size[buf] - at && !k->chk &&
      mm->nown[buf] < 4)
    at = asc_k_mm_wrap(mm, buf, step, align);
  if (bytes < 0 || step > c->size[buf] - at)
    return asc_k_fail(
        k, line,
        "Matmul: the tiling's %s (%lld bytes) does not fit the %lld bytes left of the %lld-byte %s",
        what, (long long)step, (long long)(c->size[buf] - at), (long long)c->size[buf], names[buf]);
  *off = at;
  c->cursor[buf] = at + step;
  if (mm->nown[buf] < 4) {
    mm->own[buf][mm->nown[buf]][0] = at, mm->own[buf][mm->nown[buf]][1] = step;
    mm->nown[buf]++;
  }
  return 0;
}

/* register_matmul + init(tiling): the types, the tiling's shapes, and L1/L0
 * space for one base block (A: base_m x base_k, B: base_k x base_n, C:
 * base_m x base_n in float32/int32). */
static int asc_k_mm_init(asc_k_ctx *k, asc_k_matmul *mm, int in_type, int c_type, int flags,
                         int64_t m, int64_t n, int64_t ka, int64_t kb, int64_t sm, int64_t sn,
                         int64_t sk, int64_t bm, int64_t bn, int64_t bk, int line)
    __attribute__((unused));
static int asc_k_mm_init(asc_k_ctx *k, asc_k_matmul *mm, int in_type, int c_type, int flags,
                         int64_t m, int64_t n, int64_t ka, int64_t kb, int64_t sm, int64_t sn,
                         int64_t sk, int64_t bm, int64_t bn, int64_t bk, int line) {
  asc_kc_core *c = (asc_kc_core *)k->cube;
  if (!c) return asc_k_fail(k, line, "Matmul: no cube on this core");
  if (bm <= 0 || bn <= 0 || bk <= 0 || bm > 4096 || bn > 4096 || bk > 4096 || m < 0 || n < 0 ||
      ka < 0 || sm < 0 || sn < 0 || sk < 0)
    return asc_k_fail(k, line,
                      "Matmul: the tiling has no valid base block (base_m %lld, base_n %lld, "
                      "base_k %lld): fill it "
                      "with a host tiling's get_tiling",
                      (long long)bm, (long long)bn, (long long)bk);
  const asc_kc_span ws = mm->ws; /* set_workspace may come before init */
  memset(mm, 0, sizeof *mm);
  mm->ws = ws;
  mm->in_type = in_type;
  mm->c_type = c_type;
  mm->a_nz = flags & 1, mm->b_nz = (flags >> 1) & 1, mm->c_nz = (flags >> 2) & 1;
  mm->a_trans = (flags >> 3) & 1, mm->b_trans = (flags >> 4) & 1, mm->c_pos_ub = (flags >> 5) & 1;
  for (int w = 0; w < 3; w++) mm->lay[w] = (flags >> (6 + 3 * w)) & 7;
  for (int w = 0; w < 3; w++) mm->pos[w] = (flags >> (15 + 3 * w)) & 7;
  mm->unit_flag = (flags >> 24) & 1, mm->const_tiling = (flags >> 25) & 1;
  mm->c_align = (flags >> 26) & 1, mm->i4 = (flags >> 27) & 1, mm->c_split = (flags >> 28) & 1;
  mm->partial = (flags >> 29) & 1;
  mm->m = m, mm->n = n, mm->ka = ka, mm->kb = kb > 0 ? kb : ka;
  mm->sm = sm, mm->sn = sn, mm->sk = sk;
  mm->bm = bm, mm->bn = bn, mm->bk = bk;
  mm->step_m = mm->step_n = mm->step_ka = mm->step_kb = 1;
  const int es = asc_kc_esize((asc_kc_type)in_type), c0 = asc_kc_c0((asc_kc_type)in_type);
  const int64_t m16 = (bm + 15) / 16 * 16, n16 = (bn + 15) / 16 * 16, kc = (bk + c0 - 1) / c0 * c0;
  if (asc_k_mm_take(k, c, mm, ASC_KC_L1, m16 * kc * es, 512, &mm->off_l1a, "A tile in L1", line) ||
      asc_k_mm_take(k, c, mm, ASC_KC_L1, n16 * kc * es, 512, &mm->off_l1b, "B tile in L1", line) ||
      asc_k_mm_take(k, c, mm, ASC_KC_L0A, m16 * kc * es, 512, &mm->off_l0a, "base_m x base_k block",
                    line) ||
      asc_k_mm_take(k, c, mm, ASC_KC_L0B, n16 * kc * es, 512, &mm->off_l0b, "base_k x base_n block",
                    line) ||
      asc_k_mm_take(k, c, mm, ASC_KC_L0C, m16 * n16 * 4, 1024, &mm->off_l0c,
                    "base_m x base_n result", line))
    return 1;
  mm->inited = 1;
  return 0;
}
static int asc_k_mm_check(asc_k_ctx *k, asc_k_matmul *mm, const char *api, int line) {
  if (!mm->inited)
    return asc_k_fail(k, line, "Matmul.%s: call register_matmul (or init) first", api);
  return 0;
}
/* Operand which (0 A, 1 B, 2 bias) marked set, from GM or (local) from a
 * LocalTensor, for set_tensor_a/b and set_bias; the caller stores where it
 * is. A new operand restarts iteration. */
static asc_k_mm_in *asc_k_mm_mark(asc_k_matmul *mm, int which, int local, int trans) {
  asc_k_mm_in *in = which == 0 ? &mm->a : which == 1 ? &mm->b : &mm->bias;
  in->local = local;
  in->scalar = 0;
  in->set = 1;
  if (which == 0) mm->a_trans = trans;
  if (which == 1) mm->b_trans = trans;
  mm->next = 0;
  return in;
}
static int asc_k_mm_set(asc_k_ctx *k, asc_k_matmul *mm, int which, asc_k_gt g, int trans, int line)
    __attribute__((unused));
static int asc_k_mm_set(asc_k_ctx *k, asc_k_matmul *mm, int which, asc_k_gt g, int trans,
                        int line) {
  static const char *const apis[] = {"set_tensor_a", "set_tensor_b", "set_bias"};
  if (asc_k_mm_check(k, mm, apis[which], line)) return 1;
  asc_k_mm_mark(mm, which, 0, trans)->g = g;
  return 0;
}
/* The bytes operand w (0 A, 1 B, 2 bias) needs for the org shape: A is m x
 * ka stored (ka x m transposed), B kb x n (n x kb); an NZ operand's rows
 * pad to 16 and its columns to C0; the bias holds n float32/int32. */
static int64_t asc_k_mm_need(const asc_k_matmul *mm, int w, int trans) __attribute__((unused));
static int64_t asc_k_mm_need(const asc_k_matmul *mm, int w, int trans) {
  const int es = asc_kc_esize((asc_kc_type)mm->in_type), c0 = asc_kc_c0((asc_kc_type)mm->in_type);
  if (w == 2) return asc_k_mul(mm->n, 4);
  int64_t rows = w ? mm->kb : mm->m, cols = w ? mm->n : mm->ka;
  if (trans) {
    const int64_t x = rows;
    rows = cols, cols = x;
  }
  if (rows > ((int64_t)1 << 40) || cols > ((int64_t)1 << 40)) return ASC_K_FAR; /* padding fits */
  if (w ? mm->b_nz : mm->a_nz) rows = (rows + 15) / 16 * 16, cols = (cols + c0 - 1) / c0 * c0;
  const int64_t elems = asc_k_mul(rows, cols);
  return mm->i4 && elems >= 0 ? (elems + 1) / 2 : asc_k_mul(elems, es);
}
/* set_tensor_a/set_tensor_b/set_bias(local): the operand is read from the
 * LocalTensor's UB or L1 bytes where GM would be (matmul.new's position
 * says which): its dtype must be the MatmulType's, its address 32-byte
 * aligned (an NZ operand in L1: 512, one fractal) and its length must hold
 * the org shape. dt is the tensor's asc_kc_type. */
static int asc_k_mm_set_local(asc_k_ctx *k, asc_k_matmul *mm, int which, asc_k_lt t, int dt,
                              int trans, int line) __attribute__((unused));
static int asc_k_mm_set_local(asc_k_ctx *k, asc_k_matmul *mm, int which, asc_k_lt t, int dt,
                              int trans, int line) {
  static const char *const apis[] = {"Matmul.set_tensor_a", "Matmul.set_tensor_b",
                                     "Matmul.set_bias"};
  static const char *const ops[] = {"A", "B", "bias"};
  if (which < 0 || which > 2) return asc_k_fail(k, line, "Matmul: no operand %d", which);
  const char *api = apis[which];
  if (asc_k_mm_check(k, mm, api + 7, line)) return 1;
  const int want = which == 2 ? (mm->in_type == ASC_KC_S8 ? ASC_KC_S32 : ASC_KC_F32) : mm->in_type;
  if (dt != want)
    return asc_k_fail(k, line, "%s: the LocalTensor's dtype is not the MatmulType's", api);
  asc_kc_span s;
  const int l1 = mm->pos[which] == 4;
  const int64_t es = asc_kc_esize((asc_kc_type)dt);
  if (l1 ? asc_k_cube_local(k, t, es, 1u << ASC_KC_L1, api, ops[which], &s, line)
         : asc_k_cube_ub(k, t, es, api, &s, line))
    return 1;
  const int64_t at = l1 ? t.off & (((int64_t)1 << ASC_KC_TAG_SHIFT) - 1) : t.off,
                align = l1 ? 512 : 32;
  if (at % align)
    return asc_k_fail(
        k, line, "%s: the LocalTensor's address (byte %lld of the %s) is not %lld-byte aligned",
        api, (long long)at, l1 ? "L1" : "Unified Buffer", (long long)align);
  const int64_t need = asc_k_mm_need(mm, which, which < 2 && trans);
  if (need < 0 || s.n < need)
    return asc_k_fail(k, line,
                      "%s: the LocalTensor holds %lld bytes; %s of the org shape (M %lld, N %lld, "
                      "K %lld) needs %lld",
                      api, (long long)s.n, ops[which], (long long)mm->m, (long long)mm->n,
                      (long long)(which == 1 ? mm->kb : mm->ka), (long long)need);
  asc_k_mm_mark(mm, which, 1, trans)->span = s;
  return 0;
}
/* disable_bias: the result has no bias from here on (set_bias sets one). */
static int asc_k_mm_disable_bias(asc_k_ctx *k, asc_k_matmul *mm, int line) __attribute__((unused));
static int asc_k_mm_disable_bias(asc_k_ctx *k, asc_k_matmul *mm, int line) {
  if (asc_k_mm_check(k, mm, "disable_bias", line)) return 1;
  mm->bias.set = 0;
  return 0;
}
/* set_tail / set_single_shape (a negative value keeps the current one) and
 * set_org_shape. */
static int asc_k_mm_shape(asc_k_ctx *k, asc_k_matmul *mm, int org, int64_t a, int64_t b, int64_t c,
                          int64_t d, int line) __attribute__((unused));
static int asc_k_mm_shape(asc_k_ctx *k, asc_k_matmul *mm, int org, int64_t a, int64_t b, int64_t c,
                          int64_t d, int line) {
  if (asc_k_mm_check(k, mm, org ? "set_org_shape" : "set_tail", line)) return 1;
  if (org) {
    if (a < 0 || b < 0 || c < 0) return asc_k_fail(k, line, "Matmul.set_org_shape: negative size");
    mm->m = a, mm->n = b, mm->ka = c, mm->kb = d > 0 ? d : c;
    mm->kc = 0;
  } else {
    if (a >= 0) mm->sm = a;
    if (b >= 0) mm->sn = b;
    if (c >= 0) mm->sk = c;
  }
  mm->next = 0;
  return 0;
}

/* One element of es bytes (1, 2 or 4): a copy of known size, which the
 * compiler turns into a move where memcpy(es) would be a call. */
static inline void asc_k_mm_elem(char *d, const char *s, int es) {
  if (es == 2)
    memcpy(d, s, 2);
  else if (es == 4)
    memcpy(d, s, 4);
  else
    *d = *s;
}

/* asc_k_mm_gather for an ND source, when every byte it touches is in
 * range: returns 0 (nothing written) otherwise, so that the element-wise
 * walk reports the first bad element. Addresses grow with r and cc (ld and
 * the NZ strides are positive), so the first and last elements bound them
 * all. Untransposed, each row's run of C0 is one copy; transposed, the
 * source is read along its rows (r) and written C0 apart. */
static int asc_k_mm_gather_nd(asc_kc_span dst, asc_kc_span src, int es, int c0, int64_t rows,
                              int64_t cols, int64_t r0, int64_t col0, int64_t ld, int trans) {
  const int64_t rows16 = (rows + 15) / 16 * 16;
  if (rows <= 0 || cols <= 0 || ld <= 0) return 0;
  const int64_t rs = trans ? 1 : ld, cs = trans ? ld : 1; /* source strides of r and cc */
  const int64_t first = r0 * rs + col0 * cs, last = (r0 + rows - 1) * rs + (col0 + cols - 1) * cs;
  const int64_t dlast = (((cols - 1) / c0) * rows16 + rows - 1) * c0 + (cols - 1) % c0;
  if (first < 0 || !asc_kc_in(last * es, es, src.n) || !asc_kc_in(dlast * es, es, dst.n)) return 0;
  for (int64_t cb = 0; cb < cols; cb += c0) {
    const int64_t run = cols - cb < c0 ? cols - cb : c0;
    char *d = dst.p + cb * rows16 * es;
    const char *s = src.p + (first + cb * cs) * es;
    if (!trans) {
      for (int64_t r = 0; r < rows; r++)
        memcpy(d + r * c0 * es, s + r * rs * es, (size_t)(run * es));
      continue;
    }
    int64_t r8 = 0; /* rows done 8 x 8 at a time */
#if ASC_KC_X86
    if (es == 2)
      for (int64_t ci = 0; ci + 8 <= run; ci += 8)
        for (r8 = 0; r8 + 8 <= rows; r8 += 8)
          asc_kc_tr8x8_u16(d + (r8 * c0 + ci) * 2, c0 * 2, s + (ci * cs + r8) * 2, cs * 2);
    if (es != 2 || run % 8) r8 = 0;
#endif
    for (int64_t ci = 0; ci < run; ci++)
      for (int64_t r = r8; r < rows; r++)
        asc_k_mm_elem(d + (r * c0 + ci) * es, s + (ci * cs + r) * es, es);
  }
  return 1;
}

/* Writes rows x cols of a matrix into L1 as NZ (rows padded to 16; C0
 * along cols): element (r, c) is src[r * rs + c * cs] for ND sources, or
 * at NZ offsets of the stored matrix (rows16s rows) for NZ ones. */
static int asc_k_mm_gather(asc_k_ctx *k, asc_kc_span dst, asc_kc_span src, int es, int c0,
                           int64_t rows, int64_t cols, int64_t r0, int64_t col0, int64_t ld,
                           int trans, int nz, int64_t rows16s, int bcast, int i4, int line) {
  const int64_t rows16 = (rows + 15) / 16 * 16;
  if (!nz && !bcast && !i4 && asc_k_mm_gather_nd(dst, src, es, c0, rows, cols, r0, col0, ld, trans))
    return 0;
  for (int64_t r = 0; r < rows; r++)
    for (int64_t cc = 0; cc < cols; cc++) {
      /* stored coordinates (sr, sc) of logical (r0 + r, col0 + cc) */
      int64_t lr = r0 + r, lc = col0 + cc, sr = trans ? lc : lr, sc = trans ? lr : lc, at;
      if (bcast) /* a scalar operand: every element is src's one */
        at = 0;
      else if (nz)
        at = ((sc / c0) * rows16s + sr) * c0 + sc % c0;
      else
        at = sr * ld + sc;
      const int64_t nibble = at; /* int4b_t: element at of the bytes' nibbles */
      at = i4 ? at / 2 : at * es;
      int64_t d = (((cc / c0) * rows16 + r) * c0 + cc % c0) * es;
      if (!asc_kc_in(at, es, src.n))
        return asc_k_fail(
            k, line, "Matmul: element (%lld, %lld) lies outside its global tensor (%lld bytes)",
            (long long)sr, (long long)sc, (long long)src.n);
      if (!asc_kc_in(d, es, dst.n)) return asc_k_fail(k, line, "Matmul: L1 tile overflow");
      if (i4) { /* the signed nibble, widened */
        const int v = ((unsigned char)src.p[at] >> (nibble % 2 * 4)) & 15;
        dst.p[d] = (char)(v >= 8 ? v - 16 : v);
      } else {
        memcpy(dst.p + d, src.p + at, (size_t)es);
      }
    }
  return 0;
}

/* L1 block j of A (w 0) or B (w 1), blk bytes each: block 0 is init's,
 * blocks 1.. schedule's (depth_a1/step_ka), one after another. */
static int asc_k_mm_l1(asc_k_ctx *k, const asc_k_matmul *mm, int w, int64_t j, int64_t blk,
                       asc_kc_span *s, int line) {
  asc_kc_err e;
  const int64_t off = j == 0 ? (w ? mm->off_l1b : mm->off_l1a)
                             : (w ? mm->off_l1b_x : mm->off_l1a_x) + (j - 1) * blk;
  if (asc_kc_span_at((asc_kc_core *)k->cube, ASC_KC_L1, off, s, &e))
    return asc_k_fail(k, line, "Matmul: %s", e.msg);
  return 0;
}

/* asc_k_mm_block's K loop without its L1 and L0A/L0B copies, when A and B
 * are row-major, untransposed, of a float type, in bounds, and the host
 * has AVX-512 (rt/cube_mmad512.h): the Matmul object's L1/L0 tiles are
 * its own (no instruction of the kernel reads them), and the sums are
 * those the copies' mmads make, bit for bit. Checked mode keeps the
 * copies. Returns 1 when it computed the block, 0 to leave it to the loop
 * (which reports what is wrong, if anything is). */
static int asc_k_mm_direct(const asc_k_ctx *k, const asc_k_matmul *mm, asc_kc_core *c,
                           asc_kc_span l0c, asc_kc_span sa, asc_kc_span sb, asc_kc_span sbias,
                           int64_t m0, int64_t n0, int64_t tm, int64_t tn, int64_t lda,
                           int64_t ldb) {
#if ASC_KC_X86
  const asc_kc_type t = (asc_kc_type)mm->in_type;
  const int64_t es = asc_kc_esize(t), sk = mm->sk;
  if (k->chk || c->portable || c->simd < 2 || t == ASC_KC_S8 || mm->a_nz || mm->b_nz ||
      mm->a_trans || mm->b_trans || mm->a.scalar || mm->b.scalar || tm < 1 || tn < 1 || tm > 4096 ||
      tn > 4096 || lda < sk || ldb < tn || m0 < 0 || n0 < 0)
    return 0;
  /* the first and last elements bound the rest (both strides positive) */
  const int64_t a_last = asc_k_add(asc_k_mul(m0 + tm - 1, lda), sk - 1),
                b_last = asc_k_add(asc_k_mul(sk - 1, ldb), n0 + tn - 1);
  if (a_last < 0 || b_last < 0 || !asc_kc_in(asc_k_mul(a_last, es), es, sa.n) ||
      !asc_kc_in(asc_k_mul(b_last, es), es, sb.n) ||
      l0c.n < asc_kc_ceil16(tm) * asc_kc_ceil16(tn) * 1024 || (mm->bias.set && sbias.n < tn * 4))
    return 0;
  const asc_kc_mmad mp = {tm, tn, sk, 1, mm->bias.set};
  asc_kc_mmad512_nd(c, l0c, sa.p + m0 * lda * es, lda, sb.p + n0 * es, ldb, sbias, t, &mp);
  return 1;
#else
  (void)k, (void)mm, (void)c, (void)l0c, (void)sa, (void)sb, (void)sbias, (void)m0, (void)n0;
  (void)tm, (void)tn, (void)lda, (void)ldb;
  return 0;
#endif
}

/* Computes base block (m0, n0) of tm x tn into L0C. */
static int asc_k_mm_block(asc_k_ctx *k, asc_k_matmul *mm, int64_t m0, int64_t n0, int64_t tm,
                          int64_t tn, int line) {
  asc_kc_core *c = (asc_kc_core *)k->cube;
  const asc_kc_type t = (asc_kc_type)mm->in_type;
  const int es = asc_kc_esize(t), c0 = asc_kc_c0(t);
  asc_kc_span sa, sb, sbias = {NULL, 0}, l1a, l1b, l0a, l0b, l0c;
  asc_kc_err e;
  if (!mm->a.set || !mm->b.set)
    return asc_k_fail(k, line, "Matmul.iterate: set_tensor_a and set_tensor_b first");
  /* a LocalTensor operand (UB or L1) is read in place of GM; set_org_shape
   * may have grown the shape it must hold since set_tensor_a/b */
  for (int w = 0; w < 2; w++) {
    const asc_k_mm_in *in = w ? &mm->b : &mm->a;
    const int64_t need = asc_k_mm_need(mm, w, w ? mm->b_trans : mm->a_trans);
    if (in->local && (need < 0 || in->span.n < need))
      return asc_k_fail(k, line,
                        "Matmul: %s's LocalTensor holds %lld bytes; the org shape (M %lld, N "
                        "%lld, K %lld) needs %lld",
                        w ? "B" : "A", (long long)in->span.n, (long long)mm->m, (long long)mm->n,
                        (long long)(w ? mm->kb : mm->ka), (long long)need);
  }
  asc_kc_span scal[2] = {{(char *)mm->a.sval, es}, {(char *)mm->b.sval, es}};
  if ((mm->a.scalar  ? (sa = scal[0], 0)
       : mm->a.local ? (sa = mm->a.span, 0)
                     : asc_k_cube_gm(k, mm->a.g, es, "Matmul", &sa, line)) ||
      (mm->b.scalar  ? (sb = scal[1], 0)
       : mm->b.local ? (sb = mm->b.span, 0)
                     : asc_k_cube_gm(k, mm->b.g, es, "Matmul", &sb, line)))
    return 1;
  if (mm->bias.set && mm->bias.local) {
    if (asc_k_mul(n0, 4) > mm->bias.span.n)
      return asc_k_fail(k, line, "Matmul: the bias LocalTensor is shorter than N");
    sbias.p = mm->bias.span.p + n0 * 4, sbias.n = mm->bias.span.n - n0 * 4;
  } else if (mm->bias.set &&
             asc_k_cube_gm(k, asc_k_global_slice(mm->bias.g, n0, 4), 4, "Matmul", &sbias, line))
    return 1;
  if (asc_kc_span_at(c, ASC_KC_L1, mm->off_l1a, &l1a, &e) ||
      asc_kc_span_at(c, ASC_KC_L1, mm->off_l1b, &l1b, &e) ||
      asc_kc_span_at(c, ASC_KC_L0A, mm->off_l0a, &l0a, &e) ||
      asc_kc_span_at(c, ASC_KC_L0B, mm->off_l0b, &l0b, &e) ||
      asc_kc_span_at(c, ASC_KC_L0C, mm->off_l0c, &l0c, &e))
    return asc_k_fail(k, line, "Matmul: %s", e.msg);
  const int64_t m1 = (tm + 15) / 16, n1 = (tn + 15) / 16;
  /* stored shapes: A is m x ka (ka x m transposed), B is kb x n (n x kb) */
  const int64_t lda = mm->ld[0]     ? mm->ld[0]
                      : mm->a_trans ? mm->m
                                    : mm->ka,
                ldb = mm->ld[1]     ? mm->ld[1]
                      : mm->b_trans ? mm->kb
                                    : mm->n;
  /* an NZ operand's padded row count (iterate_batch's BNGS1S2: ld is it) */
  const int64_t a_rows16 = mm->ld[0] ? mm->ld[0] : ((mm->a_trans ? mm->ka : mm->m) + 15) / 16 * 16;
  const int64_t b_rows16 = mm->ld[1] ? mm->ld[1] : ((mm->b_trans ? mm->n : mm->kb) + 15) / 16 * 16;
  if (mm->sk <= 0) return asc_k_fail(k, line, "Matmul.iterate: K is 0");
  const int64_t kc = (mm->bk + c0 - 1) / c0 * c0, a_blk = (mm->bm + 15) / 16 * 16 * kc * es,
                b_blk = (mm->bn + 15) / 16 * 16 * kc * es;
  /* all of K, or the current one of isPartialOutput's base K blocks */
  const int64_t k_lo = mm->partial ? mm->k_lo : 0, k_hi = mm->partial ? mm->k_hi : mm->sk;
  const int direct =
      !mm->partial && asc_k_mm_direct(k, mm, c, l0c, sa, sb, sbias, m0, n0, tm, tn, lda, ldb);
  for (int64_t kq = 0, k0 = k_lo; !direct && k0 < k_hi; kq++, k0 += mm->bk) {
    const int64_t kk = k_hi - k0 < mm->bk ? k_hi - k0 : mm->bk, k1 = (kk + c0 - 1) / c0;
    /* A (tm x kk) and B^T (tn x kk), both NZ with C0 along K: one GM -> L1
     * load brings step_ka (step_kb) base K blocks, each to its L1 block */
    for (int w = 0; w < 2; w++) {
      const int64_t st = w ? mm->step_kb : mm->step_ka;
      for (int64_t j = 0; kq % st == 0 && j < st && k0 + j * mm->bk < k_hi; j++) {
        const int64_t kj = k0 + j * mm->bk, kkj = k_hi - kj < mm->bk ? k_hi - kj : mm->bk;
        asc_kc_span d;
        if (asc_k_mm_l1(k, mm, w, j, w ? b_blk : a_blk, &d, line) ||
            (w ? asc_k_mm_gather(k, d, sb, es, c0, tn, kkj, n0, kj, ldb, !mm->b_trans, mm->b_nz,
                                 b_rows16, mm->b.scalar, mm->i4, line)
               : asc_k_mm_gather(k, d, sa, es, c0, tm, kkj, m0, kj, lda, mm->a_trans, mm->a_nz,
                                 a_rows16, mm->a.scalar, mm->i4, line)))
          return 1;
      }
    }
    if (asc_k_mm_l1(k, mm, 0, kq % mm->step_ka, a_blk, &l1a, line) ||
        asc_k_mm_l1(k, mm, 1, kq % mm->step_kb, b_blk, &l1b, line))
      return 1;
    for (int64_t i = 0; i < m1; i++) {
      asc_kc_load2d p = {i, k1, m1, 0, 0};
      asc_kc_span d = {l0a.p + i * k1 * 512, l0a.n - i * k1 * 512};
      if (asc_kc_load_data_2d(d, l1a, t, &p, &e)) return asc_k_fail(k, line, "Matmul: %s", e.msg);
    }
    for (int64_t q = 0; q < k1; q++) {
      asc_kc_load2d p = {q * n1, n1, 1, 0, 0};
      asc_kc_span d = {l0b.p + q * n1 * 512, l0b.n - q * n1 * 512};
      if (asc_kc_load_data_2d(d, l1b, t, &p, &e)) return asc_k_fail(k, line, "Matmul: %s", e.msg);
    }
    asc_kc_mmad mp = {tm, tn, kk, k0 == k_lo, k0 == 0 && mm->bias.set};
    if (asc_kc_mmad_run(c, l0c, l0a, l0b, sbias, t, &mp, &e))
      return asc_k_fail(k, line, "Matmul: %s", e.msg);
  }
  mm->cur_m0 = m0, mm->cur_n0 = n0, mm->cur_tm = tm, mm->cur_tn = tn;
  mm->have_block = 1;
  return 0;
}

/* The (m, n) base block Iterate() visits at position `at` of an mb x nb
 * grid, as Ascend C's normal-template Matmul walks it. ORDER_M: the
 * step_n-wide windows of N one after another; in each, M runs over all of
 * its blocks and, for each, N over the window (B's window stays in L1
 * while A's blocks pass). ORDER_N: the same with M and N swapped (step_m
 * windows of M). With steps of 1 that is M first (ORDER_M) or N first. */
static void asc_k_mm_order(int order, int64_t mb, int64_t nb, int64_t step, int64_t at, int64_t *m,
                           int64_t *n) {
  const int64_t outer = order ? nb : mb, wide = order ? mb : nb; /* windows cut `wide` */
  const int64_t w = step < 1 ? 1 : step > wide ? wide : step, full = wide / w;
  int64_t o, x;
  if (at < full * w * outer) {
    const int64_t r = at % (w * outer);
    o = r / w, x = at / (w * outer) * w + r % w;
  } else { /* the last, narrower window */
    const int64_t last = wide - full * w, r = at - full * w * outer;
    o = r / last, x = full * w + r % last;
  }
  *m = order ? x : o, *n = order ? o : x;
}
/* matmul.schedule: the tiling's iterate_order and L1 steps (the order of
 * Iterate's blocks) and depth_a1/depth_b1: the A and B base blocks L1
 * keeps at once, whose space init's one block each grows to (a tiling
 * that does not fit is an error, as on the device; what L1 keeps does not
 * change results), and step_ka/step_kb: the base K blocks of A and B one
 * GM -> L1 load brings (iterate's K loop loads them every step_ka/step_kb
 * blocks; L1 keeps at least that many). A hand-made tiling's zeros mean
 * ORDER_M, steps and depths of 1. */
static int asc_k_mm_schedule(asc_k_ctx *k, asc_k_matmul *mm, int64_t order, int64_t step_m,
                             int64_t step_n, int64_t depth_a1, int64_t depth_b1, int64_t step_ka,
                             int64_t step_kb, int line) __attribute__((unused));
static int asc_k_mm_schedule(asc_k_ctx *k, asc_k_matmul *mm, int64_t order, int64_t step_m,
                             int64_t step_n, int64_t depth_a1, int64_t depth_b1, int64_t step_ka,
                             int64_t step_kb, int line) {
  if (asc_k_mm_check(k, mm, "init", line)) return 1;
  if (order < 0 || order > 2 || step_m < 0 || step_n < 0 || depth_a1 < 0 || depth_b1 < 0 ||
      depth_a1 > 4096 || depth_b1 > 4096 || step_ka < 0 || step_kb < 0 || step_ka > 4096 ||
      step_kb > 4096)
    return asc_k_fail(k, line,
                      "Matmul: the tiling's iterate_order %lld (0 ORDER_M, 1 ORDER_N), step_m "
                      "%lld, step_n %lld, depth_a1 %lld, depth_b1 %lld, step_ka %lld and step_kb "
                      "%lld are not valid",
                      (long long)order, (long long)step_m, (long long)step_n, (long long)depth_a1,
                      (long long)depth_b1, (long long)step_ka, (long long)step_kb);
  const int c0 = asc_kc_c0((asc_kc_type)mm->in_type), es = asc_kc_esize((asc_kc_type)mm->in_type);
  const int64_t kc = (mm->bk + c0 - 1) / c0 * c0, a_blk = (mm->bm + 15) / 16 * 16 * kc * es,
                b_blk = (mm->bn + 15) / 16 * 16 * kc * es;
  /* L1 holds depth_a1 A blocks, and at least the step_ka one load brings */
  const int64_t na = depth_a1 > step_ka ? depth_a1 : step_ka,
                nb = depth_b1 > step_kb ? depth_b1 : step_kb;
  if ((na > 1 &&
       asc_k_mm_take(k, (asc_kc_core *)k->cube, mm, ASC_KC_L1, (na - 1) * a_blk, 512,
                     &mm->off_l1a_x, "depth_a1 A blocks in L1 (at least step_ka)", line)) ||
      (nb > 1 && asc_k_mm_take(k, (asc_kc_core *)k->cube, mm, ASC_KC_L1, (nb - 1) * b_blk, 512,
                               &mm->off_l1b_x, "depth_b1 B blocks in L1 (at least step_kb)", line)))
    return 1;
  mm->order = order == 1; /* UNDEF (2) is the normal template's ORDER_M */
  mm->step_m = step_m ? step_m : 1, mm->step_n = step_n ? step_n : 1;
  mm->step_ka = step_ka ? step_ka : 1, mm->step_kb = step_kb ? step_kb : 1;
  mm->depth_a1 = na, mm->depth_b1 = nb;
  mm->next = 0;
  return 0;
}
/* iterate(): the next base block; *more is 0 once every block is done. */
static int asc_k_mm_iterate(asc_k_ctx *k, asc_k_matmul *mm, int *more, int line)
    __attribute__((unused));
static int asc_k_mm_iterate(asc_k_ctx *k, asc_k_matmul *mm, int *more, int line) {
  if (asc_k_mm_check(k, mm, "iterate", line)) return 1;
  const int64_t mb = (mm->sm + mm->bm - 1) / mm->bm, nb = (mm->sn + mm->bn - 1) / mm->bn;
  /* isPartialOutput: each block's base K blocks one by one, their sums not added */
  const int64_t kb = mm->partial ? (mm->sk + mm->bk - 1) / mm->bk : 1;
  if (mm->next >= mb * nb * kb) {
    *more = 0;
    mm->next = 0; /* the next iterate() starts over, as after end() */
    mm->have_block = 0;
    return 0;
  }
  int64_t i, j;
  asc_k_mm_order(mm->order, mb, nb, mm->order ? mm->step_m : mm->step_n, mm->next / kb, &i, &j);
  mm->k_lo = mm->next % kb * mm->bk;
  mm->k_hi = mm->k_lo + mm->bk < mm->sk ? mm->k_lo + mm->bk : mm->sk;
  mm->next++;
  const int64_t m0 = i * mm->bm, n0 = j * mm->bn;
  const int64_t tm = mm->sm - m0 < mm->bm ? mm->sm - m0 : mm->bm,
                tn = mm->sn - n0 < mm->bn ? mm->sn - n0 : mm->bn;
  *more = 1;
  return asc_k_mm_block(k, mm, m0, n0, tm, tn, line);
}

/* The current block added (en_atomic 1, or set_atomic_add; max, min: 2,
 * 3) into ND C in GM at byte `at`, rows `stride` elements apart: fixpipe
 * to a scratch block, then an atomic combine per element, so cores that
 * split K sum their parts. */
static int asc_k_mm_put_atomic(asc_k_ctx *k, asc_k_matmul *mm, asc_kc_span d, int64_t at,
                               int64_t stride, int dt, asc_kc_quant q, asc_kc_span qv, int line) {
  static const int types[] = {2, 6, 5, 1, 4}; /* AtomicDtype of F16, BF16, S8, F32, S32 */
  asc_kc_span l0c;
  asc_kc_err e;
  const int es = asc_kc_esize((asc_kc_type)dt);
  int type = k->fwk.atomic_type, op = k->fwk.atomic_op;
  if (mm->atomic < 0 || mm->atomic > 3)
    return asc_k_fail(k, line, "Matmul: en_atomic must be 0 (none), 1 (add), 2 (max) or 3 (min)");
  if (!type) type = types[dt >= 0 && dt < 5 ? dt : 3], op = mm->atomic - 1;
  if (asc_k_atomic_size(type) != es)
    return asc_k_fail(k, line,
                      "Matmul.get_tensor_c: the atomic mode combines %s elements but C has "
                      "%d-byte elements",
                      asc_k_atomic_name(type), es);
  if (mm->c_nz) return asc_k_fail(k, line, "Matmul.get_tensor_c: an atomic write needs an ND C");
  const int64_t tm = mm->cur_tm, tn = mm->cur_tn;
  const int64_t last = asc_k_add(at, asc_k_mul(asc_k_add(asc_k_mul(tm - 1, stride), tn), es));
  if (last < 0 || last > d.n)
    return asc_k_fail(k, line, "Matmul.get_tensor_c: the block lies outside C");
  char *scratch = (char *)malloc((size_t)(tm * tn * es)); /* tm, tn <= 4096 */
  if (!scratch) return asc_k_fail(k, line, "Matmul.get_tensor_c: out of host memory");
  asc_kc_span sd = {scratch, tm * tn * es};
  asc_kc_fixpipe fp = {
      tn, tm, (tm + 15) / 16 * 16, tn, q, mm->quant == 1 ? mm->quant_scalar : 1.0f, 0, 0, 0};
  int rc = 0;
  if (asc_kc_span_at((asc_kc_core *)k->cube, ASC_KC_L0C, mm->off_l0c, &l0c, &e) ||
      asc_kc_fixpipe_run(sd, l0c, qv, (asc_kc_type)dt,
                         mm->in_type == ASC_KC_S8 ? ASC_KC_S32 : ASC_KC_F32, &fp, &e))
    rc = asc_k_fail(k, line, "Matmul.get_tensor_c: %s", e.msg);
  for (int64_t r = 0; r < tm && !rc; r++)
    for (int64_t c = 0; c < tn; c++)
      asc_k_atomic_elem(type, op, d.p + at + (r * stride + c) * es, scratch + (r * tn + c) * es);
  free(scratch);
  return rc;
}

/* get_tensor_c(dst): the current block to dst (ub 0, GM: at its place in the
 * single-core matrix, rows n apart, or org_kc; ub 1, UB: base_m x base_n,
 * rows base_n apart; ub 2, UB holding all of C: at its place, as in GM,
 * without the GM's atomic modes). */
static int asc_k_mm_get_c(asc_k_ctx *k, asc_k_matmul *mm, asc_kc_span d, int ub, int dt, int line) {
  asc_kc_core *c = (asc_kc_core *)k->cube;
  asc_kc_span l0c, none = {NULL, 0};
  asc_kc_err e;
  if (asc_k_mm_check(k, mm, "get_tensor_c", line)) return 1;
  if (!mm->have_block)
    return asc_k_fail(k, line, "Matmul.get_tensor_c: no block: call iterate() first");
  if (asc_kc_span_at(c, ASC_KC_L0C, mm->off_l0c, &l0c, &e))
    return asc_k_fail(k, line, "Matmul: %s", e.msg);
  asc_kc_type st = mm->in_type == ASC_KC_S8 ? ASC_KC_S32 : ASC_KC_F32;
  asc_kc_quant q = dt == ASC_KC_F16    ? ASC_KC_F322F16
                   : dt == ASC_KC_BF16 ? ASC_KC_F322BF16
                                       : ASC_KC_NO_QUANT;
  /* set_quant_scalar/vector: dequant int32 -> fp16, requant int32 -> int8,
   * quant fp32 -> int8, one scale for C or one per column */
  float qbuf[4096];
  asc_kc_span qv = none;
  if (mm->quant) {
    int vec = mm->quant == 2;
    if (st == ASC_KC_S32 && dt == ASC_KC_F16)
      q = vec ? ASC_KC_VDEQF16 : ASC_KC_DEQF16;
    else if (st == ASC_KC_S32 && dt == ASC_KC_S8)
      q = vec ? ASC_KC_VREQ8 : ASC_KC_REQ8;
    else if (st == ASC_KC_F32 && dt == ASC_KC_S8)
      q = vec ? ASC_KC_VQF322B8_PRE : ASC_KC_QF322B8_PRE;
    else
      return asc_k_fail(k, line,
                        "Matmul: set_quant_scalar/set_quant_vector need an int8 A/B with a half "
                        "or int8 C, or a half/bfloat16 A/B with an int8 C");
    if (vec) {
      asc_kc_span s;
      const int es = mm->quant_vec_es;
      if (asc_k_cube_gm(k, asc_k_global_slice(mm->quant_vec, mm->cur_n0, es), es,
                        "Matmul.set_quant_vector", &s, line))
        return 1;
      if (mm->cur_tn > 4096 || s.n < mm->cur_tn * es)
        return asc_k_fail(k, line,
                          "Matmul.set_quant_vector: the vector has fewer than N (%lld) "
                          "scales",
                          (long long)(mm->cur_n0 + mm->cur_tn));
      for (int64_t j = 0; j < mm->cur_tn; j++) {
        uint32_t bits;
        memcpy(&bits, s.p + j * es, 4); /* the low half of a little-endian uint64 */
        memcpy(&qbuf[j], &bits, 4);
      }
      qv.p = (char *)qbuf, qv.n = (int64_t)sizeof qbuf;
    }
  } else if (dt == ASC_KC_S8) {
    return asc_k_fail(k, line, "Matmul: an int8 C needs set_quant_scalar or set_quant_vector");
  }
  int64_t at, stride;
  if (ub == 1) {
    at = 0, stride = mm->c_nz ? (mm->bm + 15) / 16 * 16 : mm->bn;
  } else if (mm->c_nz) {
    int64_t m16 = (mm->m + 15) / 16 * 16, dc0 = asc_kc_nz_c0((asc_kc_type)dt, mm->c_split);
    at = ((mm->cur_n0 / dc0) * m16 + mm->cur_m0) * dc0, stride = m16;
  } else {
    stride = mm->ld[2] ? mm->ld[2] : mm->kc ? mm->kc : mm->n;
    at = -1; /* after the alignment */
  }
  if (mm->c_align && !mm->c_nz) { /* CANN's ND_ALIGN: rows padded to 32 bytes, the pad unwritten */
    const int64_t per32 = 32 / asc_kc_esize((asc_kc_type)dt);
    stride = (stride + per32 - 1) / per32 * per32;
  }
  if (at < 0) at = asc_k_mul(mm->cur_m0, stride) + mm->cur_n0;
  int64_t bytes = asc_k_mul(at, asc_kc_esize((asc_kc_type)dt));
  if (bytes < 0 || bytes > d.n)
    return asc_k_fail(k, line, "Matmul.get_tensor_c: the block lies outside C");
  if (ub == 0 && (mm->atomic || k->fwk.atomic_type))
    return asc_k_mm_put_atomic(k, mm, d, bytes, stride, dt, q, qv, line);
  d.p += bytes, d.n -= bytes;
  /* an NZ C's stride counts rows here; the fixpipe counts 32-byte blocks */
  const int64_t fstride = mm->c_nz ? stride * asc_kc_nz_c0((asc_kc_type)dt, mm->c_split) *
                                         asc_kc_esize((asc_kc_type)dt) / 32
                                   : stride;
  asc_kc_fixpipe fp = {mm->cur_tn, mm->cur_tm, (mm->cur_tm + 15) / 16 * 16,
                       fstride,    q,          mm->quant == 1 ? mm->quant_scalar : 1.0f,
                       0,          mm->c_nz,   mm->c_nz && mm->c_split};
  if (asc_kc_fixpipe_run(d, l0c, qv, (asc_kc_type)dt, st, &fp, &e))
    return asc_k_fail(k, line, "Matmul.get_tensor_c: %s", e.msg);
  return 0;
}
/* get_tensor_c(gm): the current block to C in GM, at its place (seq 0) or,
 * with en_sequential_write (seq 1), at gm's start with rows base_n apart,
 * as into the UB (isPartialOutput's blocks one after another, CANN's
 * matmul_partial_output). */
static int asc_k_mm_get_c_gm_as(asc_k_ctx *k, asc_k_matmul *mm, asc_k_gt g, int dt, int seq,
                                int line) __attribute__((unused));
static int asc_k_mm_get_c_gm_as(asc_k_ctx *k, asc_k_matmul *mm, asc_k_gt g, int dt, int seq,
                                int line) {
  asc_kc_span d;
  if (asc_k_cube_gm(k, g, asc_kc_esize((asc_kc_type)dt), "Matmul.get_tensor_c", &d, line)) return 1;
  return asc_k_mm_get_c(k, mm, d, seq ? 1 : 0, dt, line);
}
static int asc_k_mm_get_c_gm(asc_k_ctx *k, asc_k_matmul *mm, asc_k_gt g, int dt, int line)
    __attribute__((unused));
static int asc_k_mm_get_c_gm(asc_k_ctx *k, asc_k_matmul *mm, asc_k_gt g, int dt, int line) {
  return asc_k_mm_get_c_gm_as(k, mm, g, dt, 0, line);
}
static int asc_k_mm_get_c_ub(asc_k_ctx *k, asc_k_matmul *mm, asc_k_lt t, int dt, int line)
    __attribute__((unused));
static int asc_k_mm_get_c_ub(asc_k_ctx *k, asc_k_matmul *mm, asc_k_lt t, int dt, int line) {
  asc_kc_span d;
  if (asc_k_cube_ub(k, t, asc_kc_esize((asc_kc_type)dt), "Matmul.get_tensor_c", &d, line)) return 1;
  return asc_k_mm_get_c(k, mm, d, 1, dt, line);
}
/* iterate_all(c): every block to its place in C. */
static int asc_k_mm_iterate_all(asc_k_ctx *k, asc_k_matmul *mm, asc_k_gt g, int dt, int line)
    __attribute__((unused));
static int asc_k_mm_iterate_all(asc_k_ctx *k, asc_k_matmul *mm, asc_k_gt g, int dt, int line) {
  if (mm->partial)
    return asc_k_fail(k, line,
                      "Matmul.iterate_all: an isPartialOutput Matmul's blocks are K parts: take "
                      "them with iterate and get_tensor_c");
  int more = 1;
  mm->next = 0;
  for (;;) {
    if (asc_k_mm_iterate(k, mm, &more, line)) return 1;
    if (!more) return 0;
    if (asc_k_mm_get_c_gm(k, mm, g, dt, line)) return 1;
  }
}
/* iterate_all(c) with C a LocalTensor (VECIN): all of C, rows n apart. */
static int asc_k_mm_iterate_all_ub(asc_k_ctx *k, asc_k_matmul *mm, asc_k_lt t, int dt, int line)
    __attribute__((unused));
static int asc_k_mm_iterate_all_ub(asc_k_ctx *k, asc_k_matmul *mm, asc_k_lt t, int dt, int line) {
  asc_kc_span d;
  int more = 1;
  if (asc_k_cube_ub(k, t, asc_kc_esize((asc_kc_type)dt), "Matmul.iterate_all", &d, line)) return 1;
  mm->next = 0;
  for (;;) {
    if (asc_k_mm_iterate(k, mm, &more, line)) return 1;
    if (!more) return 0;
    if (asc_k_mm_get_c(k, mm, d, 2, dt, line)) return 1;
  }
}
/* get_tensor_c(gm, co2_local): the current block to C in GM and to the
 * LocalTensor (as get_tensor_c with each). */
static int asc_k_mm_get_c_both(asc_k_ctx *k, asc_k_matmul *mm, asc_k_gt g, int gdt, asc_k_lt t,
                               int ldt, int line) __attribute__((unused));
static int asc_k_mm_get_c_both(asc_k_ctx *k, asc_k_matmul *mm, asc_k_gt g, int gdt, asc_k_lt t,
                               int ldt, int line) {
  return asc_k_mm_get_c_gm(k, mm, g, gdt, line) || asc_k_mm_get_c_ub(k, mm, t, ldt, line);
}
/* set_org_shape(m, n, ka, kb, kc): kc > 0 is C's row length. */
static int asc_k_mm_org_kc(asc_k_ctx *k, asc_k_matmul *mm, int64_t m, int64_t n, int64_t ka,
                           int64_t kb, int64_t kc, int line) __attribute__((unused));
static int asc_k_mm_org_kc(asc_k_ctx *k, asc_k_matmul *mm, int64_t m, int64_t n, int64_t ka,
                           int64_t kb, int64_t kc, int line) {
  if (asc_k_mm_shape(k, mm, 1, m, n, ka, kb, line)) return 1;
  if (kc < 0) return asc_k_fail(k, line, "Matmul.set_org_shape: negative org_kc");
  if (kc > 0 && kc < n)
    return asc_k_fail(k, line,
                      "Matmul.set_org_shape: org_kc %lld (C's row length) is shorter than N %lld",
                      (long long)kc, (long long)n);
  mm->kc = kc;
  return 0;
}
/* set_tensor_a/b(scalar): every element of A (B) is the scalar, in the
 * operands' type (float16 or bfloat16). */
static int asc_k_mm_set_scalar(asc_k_ctx *k, asc_k_matmul *mm, int which, double v, int line)
    __attribute__((unused));
static int asc_k_mm_set_scalar(asc_k_ctx *k, asc_k_matmul *mm, int which, double v, int line) {
  if (asc_k_mm_check(k, mm, which ? "set_tensor_b" : "set_tensor_a", line)) return 1;
  asc_k_mm_in *in = which ? &mm->b : &mm->a;
  uint16_t h;
  if (mm->in_type == ASC_KC_F16)
    h = asc_k_f2h((float)v);
  else if (mm->in_type == ASC_KC_BF16)
    h = asc_k_f2bf((float)v);
  else
    return asc_k_fail(k, line, "Matmul.set_tensor_%c(scalar): A and B must be float16 or bfloat16",
                      which ? 'b' : 'a');
  memcpy(in->sval, &h, sizeof h);
  in->scalar = 1;
  in->local = 0;
  in->set = 1;
  mm->next = 0;
  return 0;
}
/* iterate_all(c, en_atomic) / get_tensor_c(c, en_atomic) with en_atomic
 * not 0: the blocks are added into C (asc_k_mm_put_atomic). */
static int asc_k_mm_iterate_all_atomic(asc_k_ctx *k, asc_k_matmul *mm, asc_k_gt g, int dt,
                                       int64_t atomic, int line) __attribute__((unused));
static int asc_k_mm_iterate_all_atomic(asc_k_ctx *k, asc_k_matmul *mm, asc_k_gt g, int dt,
                                       int64_t atomic, int line) {
  mm->atomic = atomic < 0 || atomic > 3 ? -1 : (int)atomic;
  int rc = asc_k_mm_iterate_all(k, mm, g, dt, line);
  mm->atomic = 0;
  return rc;
}
static int asc_k_mm_get_c_atomic(asc_k_ctx *k, asc_k_matmul *mm, asc_k_gt g, int dt, int64_t atomic,
                                 int line) __attribute__((unused));
static int asc_k_mm_get_c_atomic(asc_k_ctx *k, asc_k_matmul *mm, asc_k_gt g, int dt, int64_t atomic,
                                 int line) {
  mm->atomic = atomic < 0 || atomic > 3 ? -1 : (int)atomic;
  int rc = asc_k_mm_get_c_gm(k, mm, g, dt, line);
  mm->atomic = 0;
  return rc;
}
static int asc_k_mm_end(asc_k_ctx *k, asc_k_matmul *mm, int line) __attribute__((unused));
static int asc_k_mm_end(asc_k_ctx *k, asc_k_matmul *mm, int line) {
  if (asc_k_mm_check(k, mm, "end", line)) return 1;
  mm->a.set = mm->b.set = mm->bias.set = 0;
  mm->next = 0;
  mm->have_block = 0;
  return 0;
}

/* get_offset_c(): the current block's place in C (MatrixOffset's offset,
 * row, col, height, width: field 0..4). */
static int asc_k_mm_offset_c(asc_k_ctx *k, asc_k_matmul *mm, int field, int64_t *v, int line)
    __attribute__((unused));
static int asc_k_mm_offset_c(asc_k_ctx *k, asc_k_matmul *mm, int field, int64_t *v, int line) {
  if (asc_k_mm_check(k, mm, "get_offset_c", line)) return 1;
  if (!mm->have_block)
    return asc_k_fail(k, line, "Matmul.get_offset_c: no block: call iterate() first");
  const int64_t f[5] = {mm->cur_m0 * mm->n + mm->cur_n0, mm->cur_m0, mm->cur_n0, mm->cur_tm,
                        mm->cur_tn};
  *v = f[field >= 0 && field < 5 ? field : 0];
  return 0;
}
