/* sort/argsort along an axis (a stable merge sort per row), searchsorted,
 * and the host part of unique. */
#include <stdlib.h>
#include <string.h>

#include "asc/ops.h"
#include "asc/ops_sort.h"
#include "axis_rows.h"
#include "elem_key.h"

typedef struct sort_args {
  asc_dtype dtype;
  bool desc;
  asc_rows r;
  int64_t rows_per_block;
  const char *in;
  char *vals, *idx; /* either may be NULL */
  asc_storage *storages[3];
  bool kept;
  uint32_t whole;
} sort_args;

/* Stable merge sort of the positions p[0..n) by keys k (indexed by
 * position) under LESS; tmp holds n / 2 + 1 positions. */
#define DEFINE_MSORT(SUF, KT, LESS)                                                      \
  static void msort_##SUF(int64_t *p, int64_t *tmp, int64_t n, const KT *k, bool desc) { \
    (void)desc;                                                                          \
    if (n <= 16) {                                                                       \
      for (int64_t i = 1; i < n; i++) {                                                  \
        int64_t v = p[i], j = i;                                                         \
        for (; j > 0 && LESS(k[v], k[p[j - 1]]); j--) p[j] = p[j - 1];                   \
        p[j] = v;                                                                        \
      }                                                                                  \
      return;                                                                            \
    }                                                                                    \
    int64_t h = n / 2;                                                                   \
    msort_##SUF(p, tmp, h, k, desc);                                                     \
    msort_##SUF(p + h, tmp, n - h, k, desc);                                             \
    if (!LESS(k[p[h]], k[p[h - 1]])) return;                                             \
    memcpy(tmp, p, (size_t)h * sizeof *p);                                               \
    int64_t i = 0, j = h, o = 0;                                                         \
    while (i < h && j < n) p[o++] = LESS(k[p[j]], k[tmp[i]]) ? p[j++] : tmp[i++];        \
    while (i < h) p[o++] = tmp[i++];                                                     \
  }
#define CPLX_LESS(x, y) asc_key_less(ASC_KEY_COMPLEX, x, y, desc)
DEFINE_MSORT(cplx, asc_key, CPLX_LESS)

/* (ordinal, position) pairs, sorted directly: no indirection per compare. */
typedef struct ord_pair {
  uint64_t key;
  int64_t pos;
} ord_pair;

/* Stable merge sort of p[0..n) by key; tmp holds n / 2 + 1 pairs. */
static void msort_pairs(ord_pair *p, ord_pair *tmp, int64_t n) {
  if (n <= 16) {
    for (int64_t i = 1; i < n; i++) {
      ord_pair v = p[i];
      int64_t j = i;
      for (; j > 0 && v.key < p[j - 1].key; j--) p[j] = p[j - 1];
      p[j] = v;
    }
    return;
  }
  int64_t h = n / 2;
  msort_pairs(p, tmp, h);
  msort_pairs(p + h, tmp, n - h);
  if (!(p[h].key < p[h - 1].key)) return;
  memcpy(tmp, p, (size_t)h * sizeof *p);
  int64_t i = 0, j = h, o = 0;
  while (i < h && j < n) p[o++] = p[j].key < tmp[i].key ? p[j++] : tmp[i++];
  while (i < h) p[o++] = tmp[i++];
}

/* A uint64 whose unsigned order is the sort order of a non-complex key:
 * ascending, or descending with NaN still last; -0.0 and 0.0 equal. */
static uint64_t ordinal(asc_key_class cls, asc_key k, bool desc) {
  const uint64_t top = (uint64_t)1 << 63;
  uint64_t u;
  if (cls == ASC_KEY_INT) {
    u = (uint64_t)k.i ^ top;
  } else if (cls == ASC_KEY_UINT) {
    u = k.u;
  } else {
    if (k.f != k.f) return UINT64_MAX;
    double f = k.f == 0 ? 0.0 : k.f;
    memcpy(&u, &f, sizeof u);
    u = u & top ? ~u : u | top; /* +inf maps below UINT64_MAX, so NaN stays last */
  }
  return desc ? ~u : u;
}

static asc_status sort_block(const asc_block_ctx *block, const void *args) {
  const sort_args *a = args;
  int64_t r0 = (int64_t)block->block_idx * a->rows_per_block, r1 = r0 + a->rows_per_block;
  if (r1 > a->r.rows) r1 = a->r.rows;
  if (r0 >= r1) return ASC_OK;
  int64_t len = a->r.len, size = (int64_t)asc_dtype_size(a->dtype);
  asc_key_class cls = asc_key_class_of(a->dtype);
  bool cplx = cls == ASC_KEY_COMPLEX;
  /* complex: keys and positions apart (a 16-byte key); others: pairs, whose
   * positions are copied out to perm after the sort. */
  void *keys = malloc((size_t)len * (cplx ? sizeof(asc_key) : sizeof(ord_pair)));
  int64_t *perm = malloc((size_t)len * sizeof *perm);
  void *tmp = malloc((size_t)(len / 2 + 1) * (cplx ? sizeof(int64_t) : sizeof(ord_pair)));
  asc_status st = ASC_OK;
  if (!keys || !perm || !tmp) st = asc_error(ASC_ERR_OUT_OF_MEMORY, "sort: out of host memory");
  int64_t ostride = a->r.inner;
  for (int64_t row = r0; !st && row < r1; row++) {
    const char *in = asc_rows_in(&a->r, a->in, row);
    if (cplx) {
      asc_key *k = keys;
      for (int64_t i = 0; i < len; i++) {
        k[i] = asc_key_load(a->dtype, in + i * a->r.step);
        perm[i] = i;
      }
      msort_cplx(perm, tmp, len, k, a->desc);
    } else {
      ord_pair *k = keys;
      for (int64_t i = 0; i < len; i++) {
        k[i].key = ordinal(cls, asc_key_load(a->dtype, in + i * a->r.step), a->desc);
        k[i].pos = i;
      }
      msort_pairs(k, tmp, len);
      for (int64_t i = 0; i < len; i++) perm[i] = k[i].pos;
    }
    if (a->vals) {
      char *out = asc_rows_out(&a->r, a->vals, row, len, size);
      for (int64_t i = 0; i < len; i++)
        memcpy(out + i * ostride * size, in + perm[i] * a->r.step, (size_t)size);
    }
    if (a->idx) {
      char *out = asc_rows_out(&a->r, a->idx, row, len, 8);
      for (int64_t i = 0; i < len; i++) memcpy(out + i * ostride * 8, &perm[i], 8);
    }
  }
  free(keys);
  free(perm);
  free(tmp);
  return st;
}

ASC_QUEUED_STORAGES(sort, sort_args, 3)

static void sort_failed(void *args, bool skipped) {
  sort_args *a = args;
  for (int k = 1; k < 3; k++)
    if (a->storages[k]) asc_storage_poison(a->storages[k], "sort", skipped);
}

asc_status asc_sort(const asc_tensor *x, int axis, bool descending, asc_tensor *values,
                    asc_tensor *indices) {
  asc_status st = asc_tensor_check(x);
  if (st) return st;
  if (x->ndim == 0)
    return asc_error(ASC_ERR_INDEX, "sort: axis %d is out of bounds for a 0-d tensor", axis);
  if (axis < -x->ndim || axis >= x->ndim)
    return asc_error(ASC_ERR_INDEX, "sort: axis %d is out of bounds for array of dimension %d",
                     axis, x->ndim);
  if (axis < 0) axis += x->ndim;
  int device = asc_tensor_device(x);
  asc_tensor v = {0}, ix = {0};
  if (values) st = asc_tensor_empty(device, x->dtype, x->ndim, x->shape, &v);
  if (!st && indices) st = asc_tensor_empty(device, ASC_INT64, x->ndim, x->shape, &ix);
  if (!st && asc_tensor_numel(x) > 0) st = asc_tensor_check_input(x);
  if (!st && asc_tensor_numel(x) > 0) {
    sort_args a;
    memset(&a, 0, sizeof a);
    a.dtype = x->dtype;
    a.desc = descending;
    asc_rows_init(&a.r, x, axis);
    a.in = asc_tensor_data(x);
    a.vals = values ? asc_tensor_data(&v) : NULL;
    a.idx = indices ? asc_tensor_data(&ix) : NULL;
    a.storages[0] = x->storage;
    a.storages[1] = v.storage;
    a.storages[2] = ix.storage;
    int64_t bytes = asc_tensor_numel(x) * ((int64_t)asc_dtype_size(x->dtype) + 8) * 4;
    uint32_t blocks = asc_rows_blocks(a.r.rows, bytes, device, &a.rows_per_block);
    st = ASC_QUEUED_LAUNCH(sort, &a, blocks, "sort", bytes);
  }
  if (st) {
    asc_tensor_release(&v);
    asc_tensor_release(&ix);
    return st;
  }
  if (values) *values = v;
  if (indices) *indices = ix;
  return ASC_OK;
}

/* --- searchsorted ----------------------------------------------------------- */

typedef struct search_args {
  asc_dtype dtype;
  bool right;
  int64_t n, total, chunk;
  const char *a, *v;     /* contiguous */
  const int64_t *sorter; /* contiguous, or NULL */
  int64_t *out;
  asc_storage *storages[4]; /* out, a, v, sorter */
  bool kept;
  uint32_t whole;
} search_args;

static asc_status search_block(const asc_block_ctx *block, const void *args) {
  const search_args *s = args;
  int64_t first = (int64_t)block->block_idx * s->chunk, end = first + s->chunk;
  if (end > s->total) end = s->total;
  int64_t size = (int64_t)asc_dtype_size(s->dtype);
  asc_key_class cls = asc_key_class_of(s->dtype);
  if (s->sorter)
    for (int64_t i = 0; i < s->n; i++)
      if (s->sorter[i] < 0 || s->sorter[i] >= s->n)
        return asc_error(ASC_ERR_INDEX,
                         "searchsorted: sorter index %lld is out of range for %lld "
                         "elements",
                         (long long)s->sorter[i], (long long)s->n);
  for (int64_t e = first; e < end; e++) {
    asc_key key = asc_key_load(s->dtype, s->v + e * size);
    int64_t lo = 0, hi = s->n;
    while (lo < hi) {
      int64_t mid = lo + (hi - lo) / 2;
      int64_t at = s->sorter ? s->sorter[mid] : mid;
      asc_key m = asc_key_load(s->dtype, s->a + at * size);
      /* left: the first place where !(a[mid] < key); right: where key < a[mid]. */
      bool go_right =
          s->right ? !asc_key_less(cls, key, m, false) : asc_key_less(cls, m, key, false);
      if (go_right)
        lo = mid + 1;
      else
        hi = mid;
    }
    s->out[e] = lo;
  }
  return ASC_OK;
}

ASC_QUEUED_STORAGES(search, search_args, 4)

static void search_failed(void *args, bool skipped) {
  search_args *s = args;
  asc_storage_poison(s->storages[0], "searchsorted", skipped);
}

asc_status asc_searchsorted(const asc_tensor *a, const asc_tensor *v, bool right,
                            const asc_tensor *sorter, asc_tensor *out) {
  asc_status st = asc_tensor_check(a);
  if (!st) st = asc_tensor_check(v);
  if (!st && sorter) st = asc_tensor_check(sorter);
  if (st) return st;
  if (a->ndim != 1)
    return asc_error(ASC_ERR_INVALID_VALUE, "searchsorted: the sorted tensor must be 1-d, not %d-d",
                     a->ndim);
  if (sorter && (sorter->ndim != 1 || sorter->shape[0] != a->shape[0]))
    return asc_error(ASC_ERR_INVALID_VALUE,
                     "searchsorted: sorter must be 1-d with the sorted "
                     "tensor's length");
  if (sorter && !asc_dtype_is_integer(sorter->dtype))
    return asc_error(ASC_ERR_TYPE, "searchsorted: sorter must hold integers, not %s",
                     asc_dtype_name(sorter->dtype));
  asc_dtype dtype = asc_dtype_promote(a->dtype, v->dtype);
  asc_tensor ac = {0}, vc = {0}, sc = {0}, ca = {0}, cv = {0}, cs = {0}, result = {0};
  st = asc_cast(a, dtype, &ca);
  if (!st) st = asc_cast(v, dtype, &cv);
  if (!st) st = asc_tensor_contiguous(&ca, &ac);
  if (!st) st = asc_tensor_contiguous(&cv, &vc);
  if (!st && sorter) st = asc_cast(sorter, ASC_INT64, &cs);
  if (!st && sorter) st = asc_tensor_contiguous(&cs, &sc);
  if (!st) st = asc_tensor_empty(asc_tensor_device(v), ASC_INT64, v->ndim, v->shape, &result);
  int64_t total = asc_tensor_numel(v);
  if (!st && total > 0) {
    search_args s;
    memset(&s, 0, sizeof s);
    s.dtype = dtype;
    s.right = right;
    s.n = a->shape[0];
    s.total = total;
    s.a = asc_tensor_data(&ac);
    s.v = asc_tensor_data(&vc);
    s.sorter = sorter ? asc_tensor_data(&sc) : NULL;
    s.out = asc_tensor_data(&result);
    s.storages[0] = result.storage;
    s.storages[1] = ac.storage;
    s.storages[2] = vc.storage;
    s.storages[3] = sorter ? sc.storage : NULL;
    int64_t bytes = total * 64;
    uint32_t blocks = asc_split_blocks(total, bytes, (int64_t)1 << 20, (int64_t)1 << 19,
                                       asc_tensor_device(v), &s.chunk);
    st = asc_tensor_check_input(&ac);
    if (!st) st = asc_tensor_check_input(&vc);
    if (!st) st = ASC_QUEUED_LAUNCH(search, &s, blocks, "searchsorted", bytes);
  }
  asc_tensor_release(&ca);
  asc_tensor_release(&cv);
  asc_tensor_release(&cs);
  asc_tensor_release(&ac);
  asc_tensor_release(&vc);
  asc_tensor_release(&sc);
  return asc_tensor_hand_over(st, &result, out);
}

/* --- unique (host part) ----------------------------------------------------- */

static bool key_has_nan(asc_key_class cls, asc_key k) {
  if (cls == ASC_KEY_REAL) return k.f != k.f;
  if (cls == ASC_KEY_COMPLEX) return k.c.re != k.c.re || k.c.im != k.c.im;
  return false;
}

static bool key_equal(asc_key_class cls, asc_key a, asc_key b, bool equal_nan) {
  switch (cls) {
    case ASC_KEY_INT:
      return a.i == b.i;
    case ASC_KEY_UINT:
      return a.u == b.u;
    case ASC_KEY_REAL:
      return a.f == b.f || (equal_nan && a.f != a.f && b.f != b.f);
    default:
      if (equal_nan && key_has_nan(cls, a) && key_has_nan(cls, b)) return true;
      return a.c.re == b.c.re && a.c.im == b.c.im;
  }
}

static asc_status host_tensor(int device, asc_dtype dtype, int64_t n, asc_tensor *out,
                              void **data) {
  return asc_host_tensor(device, dtype, 1, &n, out, data);
}

/* Hands the made tensors r[k] to the wanted out[k] (NULL: not wanted), or
 * releases them all when st failed; returns st. */
static asc_status unique_finish(asc_status st, asc_tensor *r, asc_tensor *const *out) {
  for (int k = 0; k < 4; k++) {
    if (st || !out[k])
      asc_tensor_release(&r[k]);
    else
      *out[k] = r[k];
  }
  return st;
}

asc_status asc_unique_sorted(const asc_tensor *sorted, const asc_tensor *perm, bool equal_nan,
                             asc_tensor *values, asc_tensor *first, asc_tensor *inverse,
                             asc_tensor *counts) {
  if (sorted->ndim != 1 || perm->ndim != 1 || perm->dtype != ASC_INT64 ||
      perm->shape[0] != sorted->shape[0] || !asc_tensor_is_contiguous(sorted) ||
      !asc_tensor_is_contiguous(perm))
    return asc_error(ASC_ERR_INTERNAL, "unique: bad sorted input");
  asc_status st = asc_tensor_check_valid(sorted);
  if (!st) st = asc_tensor_check_valid(perm);
  if (st) return st;
  int64_t n = sorted->shape[0], size = (int64_t)asc_dtype_size(sorted->dtype);
  int device = asc_tensor_device(sorted);
  asc_key_class cls = asc_key_class_of(sorted->dtype);
  const char *sv = asc_tensor_data(sorted);
  const int64_t *p = asc_tensor_data(perm);
  /* starts[g]: the sorted position where group g begins. */
  int64_t *starts = malloc((size_t)(n + 1) * sizeof *starts);
  if (!starts) return asc_error(ASC_ERR_OUT_OF_MEMORY, "unique: out of host memory");
  int64_t groups = 0;
  asc_key prev = {0};
  for (int64_t i = 0; i < n; i++) {
    asc_key k = asc_key_load(sorted->dtype, sv + i * size);
    if (i == 0 || !key_equal(cls, prev, k, equal_nan)) starts[groups++] = i;
    prev = k;
  }
  starts[groups] = n;
  asc_tensor r[4] = {{0}}, *out[4] = {values, first, inverse, counts};
  asc_tensor *v = &r[0], *f = &r[1], *inv = &r[2], *c = &r[3];
  void *vd = NULL, *fd = NULL, *invd = NULL, *cd = NULL;
  if (values) st = host_tensor(device, sorted->dtype, groups, v, &vd);
  for (int64_t g = 0; !st && vd && g < groups; g++)
    memcpy((char *)vd + g * size, sv + starts[g] * size, (size_t)size);
  if (!st && first) st = host_tensor(device, ASC_INT64, groups, f, &fd);
  if (!st && inverse) st = host_tensor(device, ASC_INT64, n, inv, &invd);
  if (!st && counts) st = host_tensor(device, ASC_INT64, groups, c, &cd);
  for (int64_t g = 0; !st && g < groups; g++) {
    if (fd) {
      int64_t m = p[starts[g]];
      for (int64_t i = starts[g] + 1; i < starts[g + 1]; i++) m = p[i] < m ? p[i] : m;
      ((int64_t *)fd)[g] = m;
    }
    if (cd) ((int64_t *)cd)[g] = starts[g + 1] - starts[g];
    if (invd)
      for (int64_t i = starts[g]; i < starts[g + 1]; i++) ((int64_t *)invd)[p[i]] = g;
  }
  free(starts);
  return unique_finish(st, r, out);
}

/* --- unique along an axis (host part) ----------------------------------------- */

/* Rows of m keys, compared lexicographically in NumPy's element order. */
typedef struct row_set {
  const asc_key *keys;
  int64_t m;
  asc_key_class cls;
} row_set;

static int row_cmp(const row_set *s, int64_t a, int64_t b) {
  const asc_key *ra = s->keys + a * s->m, *rb = s->keys + b * s->m;
  for (int64_t j = 0; j < s->m; j++) {
    if (asc_key_less(s->cls, ra[j], rb[j], false)) return -1;
    if (asc_key_less(s->cls, rb[j], ra[j], false)) return 1;
  }
  return 0;
}

/* Rows equal for unique: element-wise ==, so a row holding NaN equals no
 * other (NumPy compares the rows as records, whatever equal_nan says). */
static bool row_equal(const row_set *s, int64_t a, int64_t b) {
  const asc_key *ra = s->keys + a * s->m, *rb = s->keys + b * s->m;
  for (int64_t j = 0; j < s->m; j++)
    if (!key_equal(s->cls, ra[j], rb[j], false)) return false;
  return true;
}

/* Stable merge sort of row numbers p[0..n); tmp holds n / 2 + 1. */
static void msort_rows(const row_set *s, int64_t *p, int64_t *tmp, int64_t n) {
  if (n <= 8) {
    for (int64_t i = 1; i < n; i++) {
      int64_t v = p[i], j = i;
      for (; j > 0 && row_cmp(s, v, p[j - 1]) < 0; j--) p[j] = p[j - 1];
      p[j] = v;
    }
    return;
  }
  int64_t h = n / 2;
  msort_rows(s, p, tmp, h);
  msort_rows(s, p + h, tmp, n - h);
  if (row_cmp(s, p[h], p[h - 1]) >= 0) return;
  memcpy(tmp, p, (size_t)h * sizeof *p);
  int64_t i = 0, j = h, o = 0;
  while (i < h && j < n) p[o++] = row_cmp(s, p[j], tmp[i]) < 0 ? p[j++] : tmp[i++];
  while (i < h) p[o++] = tmp[i++];
}

asc_status asc_unique_rows(const asc_tensor *rows, asc_tensor *values, asc_tensor *first,
                           asc_tensor *inverse, asc_tensor *counts) {
  if (rows->ndim != 2 || !asc_tensor_is_contiguous(rows))
    return asc_error(ASC_ERR_INTERNAL, "unique: rows must be a contiguous 2-d tensor");
  asc_status st = asc_tensor_check_valid(rows);
  if (st) return st;
  int64_t n = rows->shape[0], m = rows->shape[1], size = (int64_t)asc_dtype_size(rows->dtype);
  int64_t cells = asc_tensor_numel(rows);
  if (n > INT64_MAX / 2 / (int64_t)sizeof(int64_t) ||
      (cells && (uint64_t)cells > SIZE_MAX / sizeof(asc_key)))
    return asc_error(ASC_ERR_OUT_OF_MEMORY, "unique: %lld rows are too many", (long long)n);
  const char *data = asc_tensor_data(rows);
  asc_key *keys = malloc((size_t)(cells ? cells : 1) * sizeof *keys);
  int64_t *order = malloc((size_t)(n ? n : 1) * sizeof *order);
  int64_t *tmp = malloc((size_t)(n / 2 + 1) * sizeof *tmp);
  int64_t *starts = malloc((size_t)(n + 1) * sizeof *starts);
  if (!keys || !order || !tmp || !starts) {
    free(keys), free(order), free(tmp), free(starts);
    return asc_error(ASC_ERR_OUT_OF_MEMORY, "unique: out of host memory");
  }
  for (int64_t i = 0; i < cells; i++) keys[i] = asc_key_load(rows->dtype, data + i * size);
  row_set s = {keys, m, asc_key_class_of(rows->dtype)};
  for (int64_t i = 0; i < n; i++) order[i] = i;
  msort_rows(&s, order, tmp, n);
  int64_t groups = 0;
  for (int64_t i = 0; i < n; i++)
    if (i == 0 || !row_equal(&s, order[i - 1], order[i])) starts[groups++] = i;
  starts[groups] = n;
  int device = asc_tensor_device(rows);
  asc_tensor r[4] = {{0}}, *out[4] = {values, first, inverse, counts};
  asc_tensor *v = &r[0], *f = &r[1], *inv = &r[2], *c = &r[3];
  void *vd = NULL, *fd = NULL, *invd = NULL, *cd = NULL;
  int64_t vshape[2] = {groups, m};
  if (values) st = asc_host_tensor(device, rows->dtype, 2, vshape, v, &vd);
  if (!st && first) st = host_tensor(device, ASC_INT64, groups, f, &fd);
  if (!st && inverse) st = host_tensor(device, ASC_INT64, n, inv, &invd);
  if (!st && counts) st = host_tensor(device, ASC_INT64, groups, c, &cd);
  for (int64_t g = 0; !st && g < groups; g++) {
    /* the sort is stable: a group's first row in order is its first occurrence */
    int64_t r = order[starts[g]];
    if (vd) memcpy((char *)vd + g * m * size, data + r * m * size, (size_t)(m * size));
    if (fd) ((int64_t *)fd)[g] = r;
    if (cd) ((int64_t *)cd)[g] = starts[g + 1] - starts[g];
    if (invd)
      for (int64_t i = starts[g]; i < starts[g + 1]; i++) ((int64_t *)invd)[order[i]] = g;
  }
  free(keys), free(order), free(tmp), free(starts);
  return unique_finish(st, r, out);
}
