/* The reduction kernels: each block reduces a range of outputs over one
 * segment of their reduction sets; a combine kernel merges the segments'
 * partial states when a reduction was split. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "reduce_internal.h"

#define RED_CAT_(a, b) a##_##b
#define RED_CAT(a, b) RED_CAT_(a, b)
#define RED_LEVELS 48

/* Walks the reduction set of one output from position r0 to r1 in runs
 * along the innermost reduced axis. */
typedef struct red_iter {
  int64_t idx[ASC_MAX_DIMS];
  int64_t pos, end;
  const char *p;
} red_iter;

static void iter_init(const asc_red_args *a, red_iter *it, const char *base, int64_t r0,
                      int64_t r1) {
  it->pos = r0;
  it->end = r1;
  it->p = base;
  if (r0 >= r1) return;
  int64_t rem = r0;
  for (int d = a->rdim - 1; d >= 0; d--) {
    it->idx[d] = rem % a->rshape[d];
    rem /= a->rshape[d];
    it->p += it->idx[d] * a->rstride[d];
  }
}

static bool iter_next(const asc_red_args *a, red_iter *it, const char **p, int64_t *n) {
  if (it->pos >= it->end) return false;
  int last = a->rdim - 1;
  int64_t run = a->rshape[last] - it->idx[last];
  if (run > it->end - it->pos) run = it->end - it->pos;
  *p = it->p;
  *n = run;
  it->pos += run;
  it->idx[last] += run;
  it->p += run * a->rstride[last];
  for (int d = last; d > 0 && it->idx[d] == a->rshape[d]; d--) {
    it->idx[d] = 0;
    it->idx[d - 1]++;
    it->p += a->rstride[d - 1] - a->rshape[d] * a->rstride[d];
  }
  return true;
}

/* A block's scratch for tiles: room for `width` columns with `levels`
 * cascade levels (see the WS_ macros of reduce_acc.h). */
typedef struct red_ws {
  char *mem;
  int width, levels;
} red_ws;

#define ACC int64_t
#define SUF i64
#define SELF ASC_INT64
#define IS_INT 1
#define SQRT(x) (x)
#include "reduce_acc.h"
#undef ACC
#undef SUF
#undef SELF
#undef IS_INT
#undef SQRT

#define ACC float
#define SUF f32
#define SELF ASC_FLOAT32
#define IS_INT 0
#define SQRT sqrtf
#include "reduce_acc.h"
#undef ACC
#undef SUF
#undef SELF
#undef IS_INT
#undef SQRT

#define ACC double
#define SUF f64
#define SELF ASC_FLOAT64
#define IS_INT 0
#define SQRT sqrt
#include "reduce_acc.h"
#undef ACC
#undef SUF
#undef SELF
#undef IS_INT
#undef SQRT

static void reduce_row(const asc_red_args *a, const char *base, int64_t r0, int64_t r1,
                       asc_red_state *st) {
  if (a->acc == ASC_ACC_I64)
    row_i64(a, base, r0, r1, st);
  else if (a->acc == ASC_ACC_F32)
    row_f32(a, base, r0, r1, st);
  else
    row_f64(a, base, r0, r1, st);
}

static void reduce_tile(const asc_red_args *a, const char *base, int64_t kstep, int t, int64_t r0,
                        int64_t r1, const red_ws *ws, int64_t o, uint32_t seg) {
  if (a->acc == ASC_ACC_I64) {
    tile_i64(a, base, kstep, t, r0, r1, ws);
    tile_emit_i64(a, o, seg, t, r1 - r0, ws);
  } else if (a->acc == ASC_ACC_F32) {
    tile_f32(a, base, kstep, t, r0, r1, ws);
    tile_emit_f32(a, o, seg, t, r1 - r0, ws);
  } else {
    tile_f64(a, base, kstep, t, r0, r1, ws);
    tile_emit_f64(a, o, seg, t, r1 - r0, ws);
  }
}

/* Writes the result for a final state. float32 accumulations divide in
 * float32, as NumPy's. */
static void finalize(const asc_red_args *a, const asc_red_state *st, char *p) {
  const bool is_f32 = a->acc == ASC_ACC_F32;
  const asc_dtype dt = a->out_dtype;
  switch (a->op) {
    case ASC_REDUCE_MEAN:
      if (a->acc == ASC_ACC_I64)
        asc_red_put_f(dt, p, (double)st->i / (double)st->n);
      else
        asc_red_put_f(dt, p,
                      is_f32 ? (double)((float)st->f / (float)st->n) : st->f / (double)st->n);
      return;
    case ASC_REDUCE_VAR:
    case ASC_REDUCE_STD: {
      int64_t div = st->n - a->ddof > 0 ? st->n - a->ddof : 0;
      double v = is_f32 ? (double)((float)st->m2 / (float)div) : st->m2 / (double)div;
      if (a->op == ASC_REDUCE_STD) v = is_f32 ? (double)sqrtf((float)v) : sqrt(v);
      asc_red_put_f(dt, p, v);
      return;
    }
    case ASC_REDUCE_ARGMAX:
    case ASC_REDUCE_ARGMIN:
      asc_red_put_i(dt, p, st->n);
      return;
    case ASC_REDUCE_ANY:
    case ASC_REDUCE_ALL:
      asc_red_put_i(dt, p, st->i);
      return;
    case ASC_REDUCE_SUM:
      if (a->acc != ASC_ACC_I64 && st->n == 0) {
        asc_red_put_f(dt, p, 0.0); /* the identity is +0.0 */
        return;
      }
      /* fall through */
    default:
      if (a->acc == ASC_ACC_I64)
        asc_red_put_i(dt, p, st->i);
      else
        asc_red_put_f(dt, p, st->f);
      return;
  }
}

/* Folds y, the state of a later segment, into x. */
static void merge(const asc_red_args *a, asc_red_state *x, const asc_red_state *y) {
  const bool fl = a->acc != ASC_ACC_I64;
  switch (a->op) {
    case ASC_REDUCE_SUM:
    case ASC_REDUCE_MEAN:
      x->f += y->f;
      x->i = (int64_t)((uint64_t)x->i + (uint64_t)y->i);
      x->n += y->n;
      break;
    case ASC_REDUCE_PROD:
      x->f *= y->f;
      x->i = (int64_t)((uint64_t)x->i * (uint64_t)y->i);
      break;
    case ASC_REDUCE_MAX:
    case ASC_REDUCE_ARGMAX:
      if (fl ? !isnan(x->f) && (isnan(y->f) || y->f > x->f) : y->i > x->i) *x = *y;
      break;
    case ASC_REDUCE_MIN:
    case ASC_REDUCE_ARGMIN:
      if (fl ? !isnan(x->f) && (isnan(y->f) || y->f < x->f) : y->i < x->i) *x = *y;
      break;
    case ASC_REDUCE_ANY:
      x->i = x->i || y->i;
      break;
    case ASC_REDUCE_ALL:
      x->i = x->i && y->i;
      break;
    case ASC_REDUCE_VAR:
    case ASC_REDUCE_STD: {
      /* Chan et al.'s pairwise update of (count, mean, M2). */
      double n = (double)(x->n + y->n);
      if (y->n == 0) break;
      if (x->n == 0) {
        *x = *y;
        break;
      }
      double delta = y->f - x->f;
      x->m2 += y->m2 + delta * delta * (double)x->n * (double)y->n / n;
      x->f += delta * (double)y->n / n;
      x->n += y->n;
      break;
    }
    default:
      break;
  }
}

static void emit(const asc_red_args *a, int64_t o, uint32_t seg, const asc_red_state *st) {
  if (a->segments == 1)
    finalize(a, st, a->out + o * (int64_t)asc_dtype_size(a->out_dtype));
  else
    a->scratch[o * a->segments + seg] = *st;
}

static const char *kept_base(const asc_red_args *a, int64_t o) {
  const char *p = a->in;
  for (int d = a->kdim - 1; d >= 0; d--) {
    p += (o % a->kshape[d]) * a->kstride[d];
    o /= a->kshape[d];
  }
  return p;
}

asc_status asc_red_block(const asc_block_ctx *block, const void *args) {
  const asc_red_args *a = args;
  uint32_t g = block->block_idx / a->segments, seg = block->block_idx % a->segments;
  int64_t o0 = (int64_t)g * a->group_len, o1 = o0 + a->group_len;
  int64_t r0 = (int64_t)seg * a->seg_len, r1 = r0 + a->seg_len;
  if (o1 > a->nout) o1 = a->nout;
  if (r1 > a->nred) r1 = a->nred;
  if (!a->column) {
    for (int64_t o = o0; o < o1; o++) {
      asc_red_state st;
      reduce_row(a, kept_base(a, o), r0, r1, &st);
      emit(a, o, seg, &st);
    }
    return ASC_OK;
  }
  /* Tiles as wide as the block's Unified Buffer holds: whole rows of the
   * kept axis make reading each reduced position one contiguous run. */
  red_ws ws = {.levels = 1};
  for (int64_t chunks = (r1 - r0 + 127) / 128; chunks > 1 && ws.levels < RED_LEVELS; chunks /= 2)
    ws.levels++;
  size_t acc = a->acc == ASC_ACC_F32 ? sizeof(float) : sizeof(double);
  size_t per_column = (size_t)(ws.levels + 5) * acc + sizeof(int64_t);
  size_t width = block->ub ? block->ub_size / per_column : 0;
  if (width > ASC_RED_TILE_MAX) width = ASC_RED_TILE_MAX;
  ws.width = (int)(width & ~(size_t)7); /* keeps the index array aligned */
  ws.mem = block->ub;
  void *heap = NULL;
  if (ws.width < ASC_RED_TILE) { /* a small configured UB: use the heap */
    ws.width = ASC_RED_TILE;
    ws.mem = heap = malloc(ASC_RED_TILE * per_column);
    if (!heap) return asc_error(ASC_ERR_OUT_OF_MEMORY, "no memory for a reduction tile");
  }
  int64_t klen = a->kshape[a->kdim - 1], kstep = a->kstride[a->kdim - 1];
  for (int64_t o = o0, t; o < o1; o += t) {
    t = klen - o % klen;
    if (t > o1 - o) t = o1 - o;
    if (t > ws.width) t = ws.width;
    reduce_tile(a, kept_base(a, o), kstep, (int)t, r0, r1, &ws, o, seg);
  }
  free(heap);
  return ASC_OK;
}

asc_status asc_red_combine(const asc_block_ctx *block, const void *args) {
  const asc_red_args *a = args;
  int64_t per = (a->nout + block->block_num - 1) / block->block_num;
  int64_t o0 = (int64_t)block->block_idx * per, o1 = o0 + per < a->nout ? o0 + per : a->nout;
  size_t size = asc_dtype_size(a->out_dtype);
  for (int64_t o = o0; o < o1; o++) {
    const asc_red_state *parts = a->scratch + o * a->segments;
    asc_red_state st = parts[0];
    for (uint32_t s = 1; s < a->segments; s++) merge(a, &st, &parts[s]);
    finalize(a, &st, a->out + o * (int64_t)size);
  }
  return ASC_OK;
}

void asc_red_release(void *args) {
  asc_red_args *a = args;
  for (int k = 0; k < 3; k++) asc_storage_release(a->storages[k]);
}
