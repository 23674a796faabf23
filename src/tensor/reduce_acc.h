/* Reduction loops for one accumulator type: a template that
 * reduce_kernel.c includes once per type, with ACC (the C type), SUF (the
 * name suffix: i64, f32, f64), SELF (the dtype stored as ACC) and IS_INT
 * defined. No include guard on purpose.
 *
 * A "row" reduces one output over a range of its reduction set, walking
 * runs of the innermost reduced axis. A "tile" reduces up to ASC_RED_TILE
 * neighbouring outputs along the last kept axis together, one reduced
 * position at a time, so that reading them is contiguous and the
 * per-output work vectorises. */

#define FN(name) RED_CAT(name, SUF)
#define GATHER RED_CAT(asc_red_gather, SUF)
#if IS_INT
#define ADD(x, y) ((int64_t)((uint64_t)(x) + (uint64_t)(y)))
#define MUL(x, y) ((int64_t)((uint64_t)(x) * (uint64_t)(y)))
#define ISNAN(x) 0
#define VAL(st) ((st)->i)
#else
#define ADD(x, y) ((x) + (y))
#define MUL(x, y) ((x) * (y))
#define ISNAN(x) isnan(x)
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
 * summed in place in one piece per run, exactly as NumPy does. */
static ACC FN(row_sum)(const asc_red_args *a, const char *base, int64_t r0, int64_t r1,
                       const ACC *mean) {
  ACC buf[ASC_RED_BUF];
  FN(cascade) c;
  c.full = 0;
  red_iter it;
  iter_init(a, &it, base, r0, r1);
  const int64_t step = a->rstride[a->rdim - 1];
  const bool direct = !mean && a->in_dtype == SELF && step == (int64_t)sizeof(ACC);
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

/* prod, max, min, argmax, argmin, any, all over [r0, r1) of one output.
 * NaN propagates through max/min and is the extreme for argmax/argmin. */
static void FN(row_scan)(const asc_red_args *a, const char *base, int64_t r0, int64_t r1,
                         asc_red_state *st) {
  ACC buf[ASC_RED_BUF];
  red_iter it;
  iter_init(a, &it, base, r0, r1);
  const int64_t step = a->rstride[a->rdim - 1];
  const asc_reduce_op op = a->op;
  ACC best = 0, prod = 1;
  int64_t best_idx = r0, pos = r0, flag = op == ASC_REDUCE_ALL;
  bool first = true;
  const char *p;
  int64_t n, m;
  while (iter_next(a, &it, &p, &n)) {
    for (int64_t done = 0; done < n; done += m, pos += m) {
      m = n - done < ASC_RED_BUF ? n - done : ASC_RED_BUF;
      const ACC *x = GATHER(buf, p + done * step, step, m, a->in_dtype);
      if (first) {
        best = x[0];
        first = false;
      }
      switch (op) {
        case ASC_REDUCE_PROD:
          for (int64_t k = 0; k < m; k++) prod = MUL(prod, x[k]);
          break;
        case ASC_REDUCE_MAX:
          for (int64_t k = 0; k < m; k++) best = (best >= x[k] || ISNAN(best)) ? best : x[k];
          break;
        case ASC_REDUCE_MIN:
          for (int64_t k = 0; k < m; k++) best = (best <= x[k] || ISNAN(best)) ? best : x[k];
          break;
        case ASC_REDUCE_ARGMAX:
          for (int64_t k = 0; k < m; k++)
            if (x[k] > best || (ISNAN(x[k]) && !ISNAN(best))) {
              best = x[k];
              best_idx = pos + k;
            }
          break;
        case ASC_REDUCE_ARGMIN:
          for (int64_t k = 0; k < m; k++)
            if (x[k] < best || (ISNAN(x[k]) && !ISNAN(best))) {
              best = x[k];
              best_idx = pos + k;
            }
          break;
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

/* Adds a tile's block of rows to its cascade and clears the block. */
static void FN(tile_push)(ACC (*lev)[ASC_RED_TILE], uint64_t *full, ACC *blk, int t) {
  int k = 0;
  while (k < RED_LEVELS - 1 && (*full >> k & 1)) {
    for (int j = 0; j < t; j++) blk[j] = ADD(lev[k][j], blk[j]);
    *full &= ~(UINT64_C(1) << k);
    k++;
  }
  for (int j = 0; j < t; j++) lev[k][j] = (*full >> k & 1) ? ADD(lev[k][j], blk[j]) : blk[j];
  *full |= UINT64_C(1) << k;
  for (int j = 0; j < t; j++) blk[j] = 0;
}

/* Sums (or with `mean`, squared deviations) of t outputs at base, base +
 * kstep, ...: blocks of 128 positions, combined in a cascade. */
static void FN(tile_sum)(const asc_red_args *a, const char *base, int64_t kstep, int t, int64_t r0,
                         int64_t r1, const ACC *mean, ACC *sum) {
  ACC buf[ASC_RED_TILE], blk[ASC_RED_TILE], lev[RED_LEVELS][ASC_RED_TILE];
  uint64_t full = 0;
  int rows = 0;
  (void)mean; /* unused for integers */
  for (int j = 0; j < t; j++) blk[j] = 0;
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
      if (++rows == 128) {
        FN(tile_push)(lev, &full, blk, t);
        rows = 0;
      }
    }
  }
  if (rows) FN(tile_push)(lev, &full, blk, t);
  for (int j = 0; j < t; j++) sum[j] = (ACC)-0.0;
  for (int k = 0; k < RED_LEVELS; k++)
    if (full >> k & 1)
      for (int j = 0; j < t; j++) sum[j] = ADD(lev[k][j], sum[j]);
}

static void FN(tile_scan)(const asc_red_args *a, const char *base, int64_t kstep, int t, int64_t r0,
                          int64_t r1, asc_red_state *st) {
  ACC buf[ASC_RED_TILE], best[ASC_RED_TILE];
  int64_t idx[ASC_RED_TILE];
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
          for (int j = 0; j < t; j++)
            best[j] = (best[j] >= x[j] || ISNAN(best[j])) ? best[j] : x[j];
          break;
        case ASC_REDUCE_MIN:
          for (int j = 0; j < t; j++)
            best[j] = (best[j] <= x[j] || ISNAN(best[j])) ? best[j] : x[j];
          break;
        case ASC_REDUCE_ARGMAX:
          for (int j = 0; j < t; j++)
            if (x[j] > best[j] || (ISNAN(x[j]) && !ISNAN(best[j]))) {
              best[j] = x[j];
              idx[j] = pos;
            }
          break;
        case ASC_REDUCE_ARGMIN:
          for (int j = 0; j < t; j++)
            if (x[j] < best[j] || (ISNAN(x[j]) && !ISNAN(best[j]))) {
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
  for (int j = 0; j < t; j++) {
    VAL(&st[j]) = best[j];
    st[j].n = idx[j];
    if (op == ASC_REDUCE_ANY || op == ASC_REDUCE_ALL) st[j].i = best[j] != 0;
  }
}

static void FN(tile)(const asc_red_args *a, const char *base, int64_t kstep, int t, int64_t r0,
                     int64_t r1, asc_red_state *st) {
  ACC sum[ASC_RED_TILE];
  memset(st, 0, (size_t)t * sizeof *st);
  for (int j = 0; j < t; j++) st[j].n = r1 - r0;
  switch (a->op) {
    case ASC_REDUCE_SUM:
    case ASC_REDUCE_MEAN:
      FN(tile_sum)(a, base, kstep, t, r0, r1, NULL, sum);
      for (int j = 0; j < t; j++) VAL(&st[j]) = sum[j];
      break;
#if !IS_INT
    case ASC_REDUCE_VAR:
    case ASC_REDUCE_STD: {
      ACC mean[ASC_RED_TILE];
      FN(tile_sum)(a, base, kstep, t, r0, r1, NULL, sum);
      for (int j = 0; j < t; j++) mean[j] = sum[j] / (ACC)(r1 - r0);
      FN(tile_sum)(a, base, kstep, t, r0, r1, mean, sum);
      for (int j = 0; j < t; j++) {
        st[j].f = mean[j];
        st[j].m2 = (double)sum[j] + 0.0;
      }
      break;
    }
#endif
    default:
      FN(tile_scan)(a, base, kstep, t, r0, r1, st);
      break;
  }
}

#undef FN
#undef GATHER
#undef ADD
#undef MUL
#undef ISNAN
#undef VAL
