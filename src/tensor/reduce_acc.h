/* Reduction loops for one accumulator type: a template that
 * reduce_kernel.c includes once per type, with ACC (the C type), SUF (the
 * name suffix: i64, f32, f64), SELF (the dtype stored as ACC) and IS_INT
 * defined. No include guard on purpose.
 *
 * A "row" reduces one output over a range of its reduction set, walking
 * runs of the innermost reduced axis. A "tile" reduces neighbouring
 * outputs along the last kept axis together (as many as the workspace
 * holds), one reduced position at a time, so that reading them is
 * contiguous and the per-output work vectorises. */

#define FN(name) RED_CAT(name, SUF)
#define GATHER RED_CAT(asc_red_gather, SUF)
#if IS_INT
#define ADD(x, y) ((int64_t)((uint64_t)(x) + (uint64_t)(y)))
#define MUL(x, y) ((int64_t)((uint64_t)(x) * (uint64_t)(y)))
#define NANV(x) 0
#define VAL(st) ((st)->i)
#else
#define ADD(x, y) ((x) + (y))
#define MUL(x, y) ((x) * (y))
#define NANV(x) ((x) != (x))
#define VAL(st) ((st)->f)
#endif

/* Sum of a contiguous piece: pairwise for floats, wrapping for integers. */
static ACC FN(piece_sum)(const ACC *x, int64_t n) {
#if IS_INT
  uint64_t s = 0;
  for (int64_t k = 0; k < n; k++) s += (uint64_t)x[k];
  return (int64_t)s;
#else
  return RED_CAT(asc_red_pairwise, SUF)(x, n);
#endif
}

/* Piece sums combine like a binary counter: level k holds the sum of 2^k
 * pieces, so the error grows with log(pieces), as in a pairwise sum. */
typedef struct FN(cascade) {
  ACC part[RED_LEVELS];
  uint64_t full;
} FN(cascade);

static void FN(push)(FN(cascade) * c, ACC v) {
  int k = 0;
  while (k < RED_LEVELS - 1 && (c->full >> k & 1)) {
    v = ADD(c->part[k], v);
    c->full &= ~(UINT64_C(1) << k);
    k++;
  }
  c->part[k] = (c->full >> k & 1) ? ADD(c->part[k], v) : v;
  c->full |= UINT64_C(1) << k;
}

static ACC FN(total)(const FN(cascade) * c) {
  ACC t = (ACC)-0.0;
  for (int k = 0; k < RED_LEVELS; k++)
    if (c->full >> k & 1) t = ADD(c->part[k], t);
  return t;
}

/* Sum over [r0, r1) of one output, or with `mean` the sum of squared
 * deviations from it. Contiguous data of the accumulator's own dtype is
 * summed in place in one piece per run, as NumPy does, which gives its
 * rounding too. */
static ACC FN(row_sum)(const asc_red_args *a, const char *base, int64_t r0, int64_t r1,
                       const ACC *mean) {
  ACC buf[ASC_RED_BUF];
  FN(cascade) c;
  c.full = 0;
  red_iter it;
  iter_init(a, &it, base, r0, r1);
  const int64_t step = a->rstride[a->rdim - 1];
  const bool direct =
      !mean && a->in_dtype == SELF && step == (int64_t)sizeof(ACC) && ASC_ALIGNED(base, ACC);
  const char *p;
  int64_t n, m;
  while (iter_next(a, &it, &p, &n)) {
    for (int64_t done = 0; done < n; done += m) {
      m = direct || n - done < ASC_RED_BUF ? n - done : ASC_RED_BUF;
      const ACC *x = direct ? (const ACC *)(const void *)p
                            : GATHER(buf, p + done * step, step, m, a->in_dtype);
#if !IS_INT
      if (mean) {
        for (int64_t k = 0; k < m; k++) {
          ACC d = x[k] - *mean;
          buf[k] = d * d;
        }
        x = buf;
      }
#endif
      FN(push)(&c, FN(piece_sum)(x, m));
    }
  }
  return FN(total)(&c);
}

#if IS_INT
/* Integers: the portable loop (*nan: always false). */
ASC_RED_EXTREME_LOOP(FN(piece_max), ACC, >)
ASC_RED_EXTREME_LOOP(FN(piece_min), ACC, <)
#else
/* Floats: reduce_extreme.c, vectorised; *nan tells whether the piece
 * holds a NaN (which the comparisons skip). */
static ACC FN(piece_max)(const ACC *x, int64_t n, bool *nan) {
  return RED_CAT(asc_red_extreme, SUF)(x, n, true, nan);
}
static ACC FN(piece_min)(const ACC *x, int64_t n, bool *nan) {
  return RED_CAT(asc_red_extreme, SUF)(x, n, false, nan);
}
#endif

#if !IS_INT
/* piece_max for other files (softmax.c): n >= 1. */
ACC RED_CAT(asc_red_piece_max, SUF)(const ACC *x, int64_t n, bool *nan) {
  return FN(piece_max)(x, n, nan);
}
#endif

/* prod, max, min, argmax, argmin, any, all over [r0, r1) of one output.
 * NaN propagates through max/min and is the extreme for argmax/argmin;
 * either way the first NaN ends the scan. argmax finds each piece's
 * extreme first and looks for its index only when it improves. */
static void FN(row_scan)(const asc_red_args *a, const char *base, int64_t r0, int64_t r1,
                         asc_red_state *st) {
  ACC buf[ASC_RED_BUF];
  red_iter it;
  iter_init(a, &it, base, r0, r1);
  const int64_t step = a->rstride[a->rdim - 1];
  const asc_reduce_op op = a->op;
  const bool is_max = op == ASC_REDUCE_MAX || op == ASC_REDUCE_ARGMAX;
  ACC best = 0, prod = 1;
  int64_t best_idx = r0, pos = r0, flag = op == ASC_REDUCE_ALL;
  bool first = true;
  /* contiguous data of the accumulator's own dtype is scanned in place,
   * a whole run at a time; the rest through the buffer */
  const bool direct = a->in_dtype == SELF && step == (int64_t)sizeof(ACC) && ASC_ALIGNED(base, ACC);
  const char *p;
  int64_t n, m;
  while (iter_next(a, &it, &p, &n)) {
    for (int64_t done = 0; done < n; done += m, pos += m) {
      m = direct || n - done < ASC_RED_BUF ? n - done : ASC_RED_BUF;
      const ACC *x = GATHER(buf, p + done * step, step, m, a->in_dtype);
      switch (op) {
        case ASC_REDUCE_PROD:
          for (int64_t k = 0; k < m; k++) prod = MUL(prod, x[k]);
          break;
        case ASC_REDUCE_MAX:
        case ASC_REDUCE_MIN:
        case ASC_REDUCE_ARGMAX:
        case ASC_REDUCE_ARGMIN: {
          bool nan;
          ACC e = is_max ? FN(piece_max)(x, m, &nan) : FN(piece_min)(x, m, &nan);
          int64_t k = 0;
          if (nan) {
            while (!NANV(x[k])) k++;
            best = x[k];
            best_idx = pos + k;
            goto done;
          }
          if (first || (is_max ? e > best : e < best)) {
            best = e;
            if (op == ASC_REDUCE_ARGMAX || op == ASC_REDUCE_ARGMIN) { /* max/min need no index */
              while (x[k] != e) k++;
              best_idx = pos + k;
            }
          }
          break;
        }
        case ASC_REDUCE_ANY:
          for (int64_t k = 0; k < m && !flag; k++) flag = x[k] != 0;
          if (flag) goto done;
          break;
        case ASC_REDUCE_ALL:
          for (int64_t k = 0; k < m && flag; k++) flag = x[k] != 0;
          if (!flag) goto done;
          break;
        default:
          break;
      }
      first = false;
    }
  }
done:
  VAL(st) = op == ASC_REDUCE_PROD ? prod : best;
  st->n = best_idx;
  if (op == ASC_REDUCE_ANY || op == ASC_REDUCE_ALL) st->i = flag;
}

static void FN(row)(const asc_red_args *a, const char *base, int64_t r0, int64_t r1,
                    asc_red_state *st) {
  memset(st, 0, sizeof *st);
  st->n = r1 - r0;
  switch (a->op) {
    case ASC_REDUCE_SUM:
    case ASC_REDUCE_MEAN:
      VAL(st) = FN(row_sum)(a, base, r0, r1, NULL);
      break;
#if !IS_INT
    case ASC_REDUCE_VAR:
    case ASC_REDUCE_STD: {
      ACC mean = FN(row_sum)(a, base, r0, r1, NULL) / (ACC)(r1 - r0);
      st->f = mean;
      st->m2 = (double)FN(row_sum)(a, base, r0, r1, &mean) + 0.0; /* never -0.0 */
      break;
    }
#endif
    default:
      FN(row_scan)(a, base, r0, r1, st);
      break;
  }
}

/* Tiles work in the block's workspace (see red_ws): W columns of buf,
 * blk, L cascade levels, mean, val and m2 accumulators, then W indices. */
#define WS_BUF(ws) ((ACC *)(void *)(ws)->mem)
#define WS_BLK(ws) (WS_BUF(ws) + (ws)->width)
#define WS_LEV(ws) (WS_BLK(ws) + (ws)->width)
#define WS_MEAN(ws) (WS_LEV(ws) + (ws)->levels * (ws)->width)
#define WS_VAL(ws) (WS_MEAN(ws) + (ws)->width)
#define WS_M2(ws) (WS_VAL(ws) + (ws)->width)
#define WS_IDX(ws) ((int64_t *)(void *)(WS_M2(ws) + (ws)->width))

/* Adds a tile's block of rows to its cascade and clears the block. */
static void FN(tile_push)(const red_ws *ws, uint64_t *full, ACC *blk, int t) {
  ACC *lev = WS_LEV(ws);
  const int w = ws->width;
  int k = 0;
  while (k < ws->levels - 1 && (*full >> k & 1)) {
    for (int j = 0; j < t; j++) blk[j] = ADD(lev[k * w + j], blk[j]);
    *full &= ~(UINT64_C(1) << k);
    k++;
  }
  ACC *dst = lev + k * w;
  if (*full >> k & 1)
    for (int j = 0; j < t; j++) dst[j] = ADD(dst[j], blk[j]);
  else
    for (int j = 0; j < t; j++) dst[j] = blk[j];
  *full |= UINT64_C(1) << k;
  for (int j = 0; j < t; j++) blk[j] = 0;
}

/* Sums (or with `mean`, squared deviations) of t outputs at base, base +
 * kstep, ... into sum: blocks of 128 positions, combined in a cascade. */
static void FN(tile_sum)(const asc_red_args *a, const char *base, int64_t kstep, int t, int64_t r0,
                         int64_t r1, const red_ws *ws, const ACC *mean, ACC *sum) {
  ACC *buf = WS_BUF(ws), *blk = WS_BLK(ws), *lev = WS_LEV(ws);
  uint64_t full = 0;
  int rows = 0;
  (void)mean;                    /* unused for integers */
  if (r1 - r0 <= 128) blk = sum; /* one block of rows: no cascade */
  for (int j = 0; j < t; j++) blk[j] = (ACC)-0.0;
  red_iter it;
  iter_init(a, &it, base, r0, r1);
  const int64_t step = a->rstride[a->rdim - 1];
  const char *p;
  int64_t n;
  while (iter_next(a, &it, &p, &n)) {
    for (int64_t k = 0; k < n; k++) {
      const ACC *x = GATHER(buf, p + k * step, kstep, t, a->in_dtype);
#if !IS_INT
      if (mean) {
        for (int j = 0; j < t; j++) {
          ACC d = x[j] - mean[j];
          blk[j] += d * d;
        }
      } else
#endif
      {
        for (int j = 0; j < t; j++) blk[j] = ADD(blk[j], x[j]);
      }
      if (++rows == 128 && blk != sum) {
        FN(tile_push)(ws, &full, blk, t);
        rows = 0;
      }
    }
  }
  if (blk == sum) return;
  if (rows) FN(tile_push)(ws, &full, blk, t);
  for (int j = 0; j < t; j++) sum[j] = (ACC)-0.0;
  for (int k = 0; k < ws->levels; k++)
    if (full >> k & 1)
      for (int j = 0; j < t; j++) sum[j] = ADD(lev[k * ws->width + j], sum[j]);
}

/* prod, extremes, arg-extremes, any/all of t outputs into val (and idx). */
static void FN(tile_scan)(const asc_red_args *a, const char *base, int64_t kstep, int t, int64_t r0,
                          int64_t r1, const red_ws *ws) {
  ACC *buf = WS_BUF(ws), *best = WS_VAL(ws);
  int64_t *idx = WS_IDX(ws);
  const asc_reduce_op op = a->op;
  for (int j = 0; j < t; j++) {
    best[j] = op == ASC_REDUCE_PROD || op == ASC_REDUCE_ALL;
    idx[j] = r0;
  }
  red_iter it;
  iter_init(a, &it, base, r0, r1);
  const int64_t step = a->rstride[a->rdim - 1];
  const char *p;
  int64_t n, pos = r0;
  bool first = true;
  while (iter_next(a, &it, &p, &n)) {
    for (int64_t k = 0; k < n; k++, pos++) {
      const ACC *x = GATHER(buf, p + k * step, kstep, t, a->in_dtype);
      if (first && op >= ASC_REDUCE_MAX && op <= ASC_REDUCE_ARGMIN) {
        for (int j = 0; j < t; j++) best[j] = x[j];
        first = false;
      }
      switch (op) {
        case ASC_REDUCE_PROD:
          for (int j = 0; j < t; j++) best[j] = MUL(best[j], x[j]);
          break;
        case ASC_REDUCE_MAX:
          for (int j = 0; j < t; j++) best[j] = (best[j] >= x[j] || NANV(best[j])) ? best[j] : x[j];
          break;
        case ASC_REDUCE_MIN:
          for (int j = 0; j < t; j++) best[j] = (best[j] <= x[j] || NANV(best[j])) ? best[j] : x[j];
          break;
        case ASC_REDUCE_ARGMAX:
          for (int j = 0; j < t; j++)
            if (x[j] > best[j] || (NANV(x[j]) && !NANV(best[j]))) {
              best[j] = x[j];
              idx[j] = pos;
            }
          break;
        case ASC_REDUCE_ARGMIN:
          for (int j = 0; j < t; j++)
            if (x[j] < best[j] || (NANV(x[j]) && !NANV(best[j]))) {
              best[j] = x[j];
              idx[j] = pos;
            }
          break;
        case ASC_REDUCE_ANY:
          for (int j = 0; j < t; j++) best[j] = best[j] != 0 || x[j] != 0;
          break;
        case ASC_REDUCE_ALL:
          for (int j = 0; j < t; j++) best[j] = best[j] != 0 && x[j] != 0;
          break;
        default:
          break;
      }
    }
  }
}

/* Reduces t outputs over [r0, r1) into the workspace's val (the mean for
 * var/std), m2 and idx. */
static void FN(tile)(const asc_red_args *a, const char *base, int64_t kstep, int t, int64_t r0,
                     int64_t r1, const red_ws *ws) {
  ACC *val = WS_VAL(ws);
  switch (a->op) {
    case ASC_REDUCE_SUM:
    case ASC_REDUCE_MEAN:
      FN(tile_sum)(a, base, kstep, t, r0, r1, ws, NULL, val);
      break;
#if !IS_INT
    case ASC_REDUCE_VAR:
    case ASC_REDUCE_STD: {
      ACC *mean = WS_MEAN(ws), *m2 = WS_M2(ws);
      FN(tile_sum)(a, base, kstep, t, r0, r1, ws, NULL, val);
      for (int j = 0; j < t; j++) mean[j] = val[j] / (ACC)(r1 - r0);
      FN(tile_sum)(a, base, kstep, t, r0, r1, ws, mean, m2);
      for (int j = 0; j < t; j++) val[j] = mean[j];
      break;
    }
#endif
    default:
      FN(tile_scan)(a, base, kstep, t, r0, r1, ws);
      break;
  }
}

/* Hands a tile's n-element reductions on: partial states to scratch when
 * the reduction is split, else the results, t at a time, to the output. */
static void FN(tile_emit)(const asc_red_args *a, int64_t o, uint32_t seg, int t, int64_t n,
                          const red_ws *ws) {
  ACC *val = WS_VAL(ws), *m2 = WS_M2(ws);
  const int64_t *idx = WS_IDX(ws);
  const asc_reduce_op op = a->op;
  const bool logical = op == ASC_REDUCE_ANY || op == ASC_REDUCE_ALL;
  if (a->segments > 1) {
    for (int j = 0; j < t; j++) {
      asc_red_state st = {0};
      VAL(&st) = val[j];
      st.m2 = (double)m2[j] + 0.0;
      st.n = op == ASC_REDUCE_ARGMAX || op == ASC_REDUCE_ARGMIN ? idx[j] : n;
      if (logical) st.i = val[j] != 0;
      a->scratch[(o + j) * a->segments + seg] = st;
    }
    return;
  }
  const int64_t size = (int64_t)asc_dtype_size(a->out_dtype);
  char *out = a->out + o * size;
  switch (op) {
    case ASC_REDUCE_ARGMAX:
    case ASC_REDUCE_ARGMIN:
      memcpy(out, idx, (size_t)t * sizeof *idx);
      return;
    case ASC_REDUCE_ANY:
    case ASC_REDUCE_ALL:
      for (int j = 0; j < t; j++) out[j] = val[j] != 0;
      return;
    case ASC_REDUCE_SUM:
      if (n == 0)
        for (int j = 0; j < t; j++) val[j] = 0; /* the identity is +0.0 */
      break;
    case ASC_REDUCE_MEAN:
#if IS_INT /* an integer dtype= */
      for (int j = 0; j < t; j++)
        asc_red_put_f(a->out_dtype, out + j * size, (double)val[j] / (double)n);
      return;
#else
      for (int j = 0; j < t; j++) val[j] = val[j] / (ACC)n;
      break;
#endif
#if !IS_INT
    case ASC_REDUCE_VAR:
    case ASC_REDUCE_STD: {
      ACC div = (ACC)(n - a->ddof > 0 ? n - a->ddof : 0);
      for (int j = 0; j < t; j++) val[j] = (m2[j] + 0) / div;
      if (op == ASC_REDUCE_STD)
        for (int j = 0; j < t; j++) val[j] = SQRT(val[j]);
      break;
    }
#endif
    default:
      break;
  }
  RED_CAT(asc_red_scatter, SUF)(out, size, val, t, a->out_dtype);
}

#undef WS_BUF
#undef WS_BLK
#undef WS_LEV
#undef WS_MEAN
#undef WS_VAL
#undef WS_M2
#undef WS_IDX
#undef FN
#undef GATHER
#undef ADD
#undef MUL
#undef NANV
#undef VAL
