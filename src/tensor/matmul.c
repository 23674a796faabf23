/* Matrix products with NumPy matmul semantics. float32/float64 and the
 * complex dtypes go to OpenBLAS (gemm, or gemv for a vector operand), reading operands in place
 * when their strides are a BLAS layout; float16/bfloat16 run in float32;
 * integers and bools use a wrapping C loop. The work is a kernel on the
 * current stream; its units are (batch, row range) pieces of the result. */
#include <cblas.h>
#include <string.h>

#include "asc/ops.h"
#include "asc/ops_linalg.h"
#include "tensor_internal.h"

#define SIGNATURE "(n?,k),(k,m?)->(n?,m?)"
#define BLAS_MAX (sizeof(blasint) == 4 ? (int64_t)INT32_MAX : INT64_MAX)
/* Per-matrix work (m * n * k) below which batches are spread over blocks:
 * OpenBLAS runs products below 64^3 on one thread anyway. */
#define SMALL_GEMM ((int64_t)1 << 18)
/* Multiply-adds per block of the integer loop. */
#define INT_WORK ((int64_t)1 << 20)
#define INT_COLS 512

enum { OUT, A, B };

typedef struct mm_operand {
  char *base;
  int64_t rs, cs;              /* row and column strides, elements */
  int64_t batch[ASC_MAX_DIMS]; /* batch strides, elements; 0 broadcasts */
  bool trans;                  /* BLAS: the stored matrix is the transpose */
  int64_t ld;                  /* BLAS leading dimension */
  asc_storage *storage;
} mm_operand;

typedef struct mm_args {
  asc_dtype dtype; /* the compute dtype: the operands all have it */
  int nbatch;
  int64_t batch[ASC_MAX_DIMS];
  int64_t m, n, k;
  int64_t rows_per_unit, units_per_row_block, units, units_per_block;
  mm_operand op[3];
  asc_storage *storages[3]; /* op[k].storage, held only when kept (queued) */
  bool kept;
  uint32_t whole;
} mm_args;

/* --- BLAS ----------------------------------------------------------------- */

/* Can BLAS read a rows x cols matrix with these strides? Row-major needs
 * unit column steps, transposed unit row steps; the other step is the
 * leading dimension, at least the row length. Steps of length-1 axes do
 * not matter. */
static bool blas_layout(int64_t rows, int64_t cols, int64_t rs, int64_t cs, bool *trans,
                        int64_t *ld) {
  int64_t min_rs = cols > 1 ? cols : 1, min_cs = rows > 1 ? rows : 1;
  if ((cs == 1 || cols == 1) && (rows == 1 || rs >= min_rs)) {
    *trans = false;
    *ld = rows == 1 ? min_rs : rs;
  } else if ((rs == 1 || rows == 1) && (cols == 1 || cs >= min_cs)) {
    *trans = true;
    *ld = cols == 1 ? min_cs : cs;
  } else {
    return false;
  }
  return *ld <= BLAS_MAX;
}

/* The dtypes OpenBLAS multiplies. */
static bool uses_blas(asc_dtype dtype) {
  return asc_dtype_is_float(dtype) || asc_dtype_is_complex(dtype);
}

/* The output must be row-major: cblas has no transposed C. */
static bool blas_out_layout(int64_t rows, int64_t cols, int64_t rs, int64_t cs, int64_t *ld) {
  int64_t min_rs = cols > 1 ? cols : 1;
  *ld = rows == 1 ? min_rs : rs;
  return (cols == 1 || cs == 1) && *ld >= min_rs && *ld <= BLAS_MAX;
}

static enum CBLAS_TRANSPOSE tr(bool trans) {
  return trans ? CblasTrans : CblasNoTrans;
}

/* One product of m rows: gemv when a side is a vector, else gemm. */
#define BLAS_PRODUCT(NAME, T, GEMM, GEMV, ONE, ZERO)                                               \
  static void NAME(const mm_args *a, char *const *p, int64_t m) {                                  \
    const mm_operand *oa = &a->op[A], *ob = &a->op[B], *oc = &a->op[OUT];                          \
    const T *pa = (const T *)p[A], *pb = (const T *)p[B];                                          \
    T *pc = (T *)p[OUT];                                                                           \
    blasint M = (blasint)m, N = (blasint)a->n, K = (blasint)a->k;                                  \
    if (a->n == 1 && m > 1) { /* c[:, 0] = A @ b[:, 0] */                                          \
      blasint incb = a->k > 1 ? (blasint)ob->rs : 1, incc = (blasint)oc->rs;                       \
      if (oa->trans)                                                                               \
        GEMV(CblasRowMajor, CblasTrans, K, M, ONE, pa, (blasint)oa->ld, pb, incb, ZERO, pc, incc); \
      else                                                                                         \
        GEMV(CblasRowMajor, CblasNoTrans, M, K, ONE, pa, (blasint)oa->ld, pb, incb, ZERO, pc,      \
             incc);                                                                                \
    } else if (m == 1 && a->n > 1) { /* c[0, :] = a[0, :] @ B */                                   \
      blasint inca = a->k > 1 ? (blasint)oa->cs : 1, incc = (blasint)oc->cs;                       \
      if (ob->trans)                                                                               \
        GEMV(CblasRowMajor, CblasNoTrans, N, K, ONE, pb, (blasint)ob->ld, pa, inca, ZERO, pc,      \
             incc);                                                                                \
      else                                                                                         \
        GEMV(CblasRowMajor, CblasTrans, K, N, ONE, pb, (blasint)ob->ld, pa, inca, ZERO, pc, incc); \
    } else {                                                                                       \
      GEMM(CblasRowMajor, tr(oa->trans), tr(ob->trans), M, N, K, ONE, pa, (blasint)oa->ld, pb,     \
           (blasint)ob->ld, ZERO, pc, (blasint)oc->ld);                                            \
    }                                                                                              \
  }
BLAS_PRODUCT(product_f32, float, cblas_sgemm, cblas_sgemv, 1, 0)
BLAS_PRODUCT(product_f64, double, cblas_dgemm, cblas_dgemv, 1, 0)
/* The complex routines take alpha and beta by address. */
static const float c64_one[2] = {1, 0}, c64_zero[2] = {0, 0};
static const double c128_one[2] = {1, 0}, c128_zero[2] = {0, 0};
BLAS_PRODUCT(product_c64, asc_c64_t, cblas_cgemm, cblas_cgemv, c64_one, c64_zero)
BLAS_PRODUCT(product_c128, asc_c128_t, cblas_zgemm, cblas_zgemv, c128_one, c128_zero)

/* --- integers and bool ---------------------------------------------------- */

/* Sums of products in uint64_t wrap as NumPy's fixed-width integers do;
 * truncating to the element type afterwards gives the same result. bool:
 * any nonzero sum of ANDs is true. */
#define INT_PRODUCT(NAME, T, LOAD, STORE)                                           \
  static void NAME(const mm_args *a, char *const *p, int64_t m) {                   \
    const mm_operand *oa = &a->op[A], *ob = &a->op[B], *oc = &a->op[OUT];           \
    uint64_t acc[INT_COLS];                                                         \
    for (int64_t j0 = 0; j0 < a->n; j0 += INT_COLS) {                               \
      int64_t cols = a->n - j0 < INT_COLS ? a->n - j0 : INT_COLS;                   \
      for (int64_t i = 0; i < m; i++) {                                             \
        memset(acc, 0, (size_t)cols * sizeof *acc);                                 \
        for (int64_t kk = 0; kk < a->k; kk++) {                                     \
          uint64_t x = LOAD(((const T *)p[A])[i * oa->rs + kk * oa->cs]);           \
          if (!x) continue;                                                         \
          const T *row = (const T *)p[B] + kk * ob->rs + j0 * ob->cs;               \
          if (ob->cs == 1)                                                          \
            for (int64_t j = 0; j < cols; j++) acc[j] += x * LOAD(row[j]);          \
          else                                                                      \
            for (int64_t j = 0; j < cols; j++) acc[j] += x * LOAD(row[j * ob->cs]); \
        }                                                                           \
        T *out = (T *)p[OUT] + i * oc->rs + j0 * oc->cs;                            \
        for (int64_t j = 0; j < cols; j++) out[j * oc->cs] = (T)STORE(acc[j]);      \
      }                                                                             \
    }                                                                               \
  }
/* Signed integers are read as unsigned ones of their width: sums of
 * products agree modulo 2^width either way, and only those bits are kept. */
#define LOAD_WRAP(v) ((uint64_t)(v))
#define STORE_WRAP(v) (v)
#define LOAD_BOOL(v) ((uint64_t)((v) != 0))
#define STORE_BOOL(v) ((v) != 0)
INT_PRODUCT(product_bool, uint8_t, LOAD_BOOL, STORE_BOOL)
INT_PRODUCT(product_8, uint8_t, LOAD_WRAP, STORE_WRAP)
INT_PRODUCT(product_16, uint16_t, LOAD_WRAP, STORE_WRAP)
INT_PRODUCT(product_32, uint32_t, LOAD_WRAP, STORE_WRAP)
INT_PRODUCT(product_64, uint64_t, LOAD_WRAP, STORE_WRAP)

typedef void (*product_fn)(const mm_args *a, char *const *p, int64_t m);

static product_fn product_for(asc_dtype dtype) {
  switch (dtype) {
    case ASC_BOOL:
      return product_bool;
    case ASC_INT8:
    case ASC_UINT8:
      return product_8;
    case ASC_INT16:
    case ASC_UINT16:
      return product_16;
    case ASC_INT32:
    case ASC_UINT32:
      return product_32;
    case ASC_INT64:
    case ASC_UINT64:
      return product_64;
    case ASC_FLOAT32:
      return product_f32;
    case ASC_COMPLEX64:
      return product_c64;
    case ASC_COMPLEX128:
      return product_c128;
    default:
      return product_f64;
  }
}

/* --- the kernel ----------------------------------------------------------- */

static void unit_pointers(const mm_args *a, int64_t unit, char **p, int64_t *rows) {
  int64_t batch = unit / a->units_per_row_block;
  int64_t row0 = unit % a->units_per_row_block * a->rows_per_unit;
  *rows = a->m - row0 < a->rows_per_unit ? a->m - row0 : a->rows_per_unit;
  int64_t size = (int64_t)asc_dtype_size(a->dtype);
  for (int k = 0; k < 3; k++) {
    int64_t offset = k == B ? 0 : row0 * a->op[k].rs;
    for (int64_t d = a->nbatch - 1, rem = batch; d >= 0; d--) {
      offset += rem % a->batch[d] * a->op[k].batch[d];
      rem /= a->batch[d];
    }
    p[k] = a->op[k].base + offset * size;
  }
}

/* k == 0: the products are sums of nothing. */
static void zero_rows(const mm_args *a, char *out, int64_t m) {
  size_t size = asc_dtype_size(a->dtype);
  for (int64_t i = 0; i < m; i++)
    for (int64_t j = 0; j < a->n; j++)
      memset(out + (i * a->op[OUT].rs + j * a->op[OUT].cs) * (int64_t)size, 0, size);
}

static asc_status matmul_block(const asc_block_ctx *block, const void *p) {
  const mm_args *a = p;
  product_fn product = product_for(a->dtype);
  int64_t first = (int64_t)block->block_idx * a->units_per_block;
  int64_t last = first + a->units_per_block < a->units ? first + a->units_per_block : a->units;
  for (int64_t u = first; u < last; u++) {
    char *ptrs[3];
    int64_t rows;
    unit_pointers(a, u, ptrs, &rows);
    if (a->k == 0)
      zero_rows(a, ptrs[OUT], rows);
    else
      product(a, ptrs, rows);
  }
  return ASC_OK;
}

static void matmul_failed(void *p, bool skipped) {
  mm_args *a = p;
  asc_storage_poison(a->op[OUT].storage, "matmul", skipped);
}

/* Queued (always, as matmul runs on the stream's thread): the operands'
 * storages are held stream-ordered (asc_storages_retain_queued). */
static void matmul_keep(void *p) {
  mm_args *a = p;
  for (int k = 0; k < 3; k++) a->storages[k] = a->op[k].storage;
  a->whole = asc_storages_retain_queued(a->storages, 3, ASC_STREAM_CURRENT);
  a->kept = true;
}

static void matmul_release(void *p) {
  mm_args *a = p;
  if (a->kept) asc_storages_release_queued(a->storages, 3, a->whole);
}

/* --- planning ------------------------------------------------------------- */

/* (b, m, k) @ (k, n) is one (b*m, k) @ (k, n) product when a's and out's
 * rows run on across the batch and b does not change with it. */
static void fold_batches(mm_args *a) {
  int n = 0;
  for (int d = 0; d < a->nbatch; d++) { /* length-1 batch axes do nothing */
    if (a->batch[d] == 1) continue;
    a->batch[n] = a->batch[d];
    for (int k = 0; k < 3; k++) a->op[k].batch[n] = a->op[k].batch[d];
    n++;
  }
  a->nbatch = n;
  while (a->nbatch > 0) {
    int d = a->nbatch - 1;
    mm_args folded = *a;
    folded.m = a->m * a->batch[d];
    folded.nbatch = d;
    if (a->m == 1) folded.op[A].rs = a->op[A].batch[d], folded.op[OUT].rs = a->op[OUT].batch[d];
    bool ok = a->op[B].batch[d] == 0 && a->op[A].batch[d] == a->m * folded.op[A].rs &&
              a->op[OUT].batch[d] == a->m * folded.op[OUT].rs;
    if (ok && uses_blas(a->dtype) && a->k > 0) {
      mm_operand *x = &folded.op[A], *c = &folded.op[OUT];
      ok = folded.m <= BLAS_MAX && blas_layout(folded.m, a->k, x->rs, x->cs, &x->trans, &x->ld) &&
           blas_out_layout(folded.m, a->n, c->rs, c->cs, &c->ld);
    }
    if (!ok) return;
    *a = folded;
  }
}

/* Splits the work into units (a batch's rows, or a range of them for the
 * integer loop) and the units into blocks. A large float product is one
 * block: OpenBLAS spreads it over its own threads. */
static uint32_t plan_units(mm_args *a, int device) {
  int64_t batches = asc_shape_numel(a->nbatch, a->batch);
  double per_matrix = (double)a->m * (double)a->n * (double)(a->k ? a->k : 1);
  bool blas = uses_blas(a->dtype);
  a->rows_per_unit = a->m;
  if (!blas && per_matrix > INT_WORK) {
    a->rows_per_unit = (int64_t)(INT_WORK / ((double)a->n * (double)(a->k ? a->k : 1)));
    if (a->rows_per_unit < 1) a->rows_per_unit = 1;
  }
  a->units_per_row_block = (a->m + a->rows_per_unit - 1) / a->rows_per_unit;
  a->units = batches * a->units_per_row_block;
  asc_device_props props;
  int workers = asc_device_get_props(device, &props) == ASC_OK ? props.worker_threads : 1;
  int64_t blocks = 1;
  if (workers > 1 && per_matrix * (double)batches > INT_WORK && (!blas || per_matrix < SMALL_GEMM))
    blocks = a->units < 4 * (int64_t)workers ? a->units : 4 * (int64_t)workers;
  a->units_per_block = (a->units + blocks - 1) / blocks;
  return (uint32_t)((a->units + a->units_per_block - 1) / a->units_per_block);
}

/* x with its matrix axes last: a 1-d a is a row, a 1-d b a column. */
static asc_status as_matrix(const asc_tensor *x, bool row, asc_tensor *out) {
  if (x->ndim >= 2) {
    asc_tensor_share(x, out);
    return ASC_OK;
  }
  return asc_tensor_unsqueeze(x, row ? 0 : 1, out);
}

static void set_operand(mm_operand *o, const asc_tensor *t, int nbatch) {
  int lead = nbatch - (t->ndim - 2);
  for (int d = 0; d < nbatch; d++)
    o->batch[d] = d < lead || t->shape[d - lead] == 1 ? 0 : t->strides[d - lead];
  o->rs = t->strides[t->ndim - 2];
  o->cs = t->strides[t->ndim - 1];
  o->base = asc_tensor_data(t);
  o->storage = t->storage; /* held by matmul_keep */
}

/* The operand in the compute dtype, in a layout the product can read: a
 * cast, a contiguous copy, or x itself. */
static asc_status prepare_input(const asc_tensor *x, asc_dtype compute, asc_tensor *out) {
  if (x->dtype != compute || !asc_tensor_aligned(x)) { /* the products read typed pointers */
    asc_tensor fresh = {0};
    asc_status st = asc_cast(x, compute, &fresh);
    if (!st) *out = fresh;
    return st;
  }
  int r = x->ndim - 2;
  bool trans;
  int64_t ld;
  if (!uses_blas(compute) ||
      blas_layout(x->shape[r], x->shape[r + 1], x->strides[r], x->strides[r + 1], &trans, &ld)) {
    asc_tensor_share(x, out);
    return ASC_OK;
  }
  return asc_tensor_contiguous(x, out);
}

static asc_status launch(const asc_tensor *a, const asc_tensor *b, const asc_tensor *c, int nbatch,
                         const int64_t *batch) {
  mm_args args;
  memset(&args, 0, sizeof args);
  args.dtype = c->dtype;
  args.nbatch = nbatch;
  memcpy(args.batch, batch, (size_t)nbatch * sizeof *batch);
  args.m = a->shape[a->ndim - 2];
  args.k = a->shape[a->ndim - 1];
  args.n = b->shape[b->ndim - 1];
  if (args.m == 0 || args.n == 0 || asc_shape_numel(nbatch, batch) == 0) return ASC_OK;
  if (uses_blas(args.dtype) && (args.m > BLAS_MAX || args.n > BLAS_MAX || args.k > BLAS_MAX))
    return asc_error(ASC_ERR_UNSUPPORTED, "matmul: matrix dimensions beyond the BLAS int range");
  set_operand(&args.op[OUT], c, nbatch);
  set_operand(&args.op[A], a, nbatch);
  set_operand(&args.op[B], b, nbatch);
  if (uses_blas(args.dtype) && args.k > 0) { /* k == 0 only writes zeros */
    mm_operand *x = &args.op[A], *y = &args.op[B], *z = &args.op[OUT];
    bool ok = blas_layout(args.m, args.k, x->rs, x->cs, &x->trans, &x->ld) &&
              blas_layout(args.k, args.n, y->rs, y->cs, &y->trans, &y->ld) &&
              blas_out_layout(args.m, args.n, z->rs, z->cs, &z->ld);
    if (!ok) {
      matmul_release(&args);
      return asc_error(ASC_ERR_INTERNAL, "matmul: operands not in a BLAS layout");
    }
  }
  fold_batches(&args);
  asc_launch_desc desc = {.fn = matmul_block,
                          .nblocks = plan_units(&args, asc_tensor_device(c)),
                          .args = &args,
                          .args_size = sizeof args,
                          .release = matmul_release,
                          .failed = matmul_failed,
                          .keep = matmul_keep,
                          .name = "matmul"};
  return asc_launch_ex(ASC_STREAM_CURRENT, &desc);
}

/* --- the op --------------------------------------------------------------- */

static asc_status check_operands(const asc_tensor *a, const asc_tensor *b) {
  asc_status st = asc_tensor_check(a);
  if (!st) st = asc_tensor_check(b);
  if (st) return st;
  const asc_tensor *ops[2] = {a, b};
  for (int i = 0; i < 2; i++)
    if (ops[i]->ndim == 0)
      return asc_error(ASC_ERR_INVALID_VALUE,
                       "matmul: Input operand %d does not have enough dimensions (has 0, gufunc "
                       "core with signature " SIGNATURE " requires 1)",
                       i);
  int64_t ka = a->shape[a->ndim - 1], kb = b->shape[b->ndim == 1 ? 0 : b->ndim - 2];
  if (ka != kb)
    return asc_error(ASC_ERR_INVALID_VALUE,
                     "matmul: Input operand 1 has a mismatch in its core dimension 0, with gufunc "
                     "signature " SIGNATURE " (size %lld is different from %lld)",
                     (long long)kb, (long long)ka);
  return ASC_OK;
}

/* The broadcast batch shape and the result's shape. */
static asc_status result_shape(const asc_tensor *a, const asc_tensor *b, int *nbatch,
                               int64_t *batch, int *ndim, int64_t *shape) {
  int na = a->ndim > 2 ? a->ndim - 2 : 0, nb = b->ndim > 2 ? b->ndim - 2 : 0;
  asc_status st = asc_broadcast_shapes(na, a->shape, nb, b->shape, nbatch, batch);
  if (st) return st;
  *ndim = *nbatch;
  memcpy(shape, batch, (size_t)*nbatch * sizeof *batch);
  if (a->ndim > 1) shape[(*ndim)++] = a->shape[a->ndim - 2];
  if (b->ndim > 1) shape[(*ndim)++] = b->shape[b->ndim - 1];
  return ASC_OK;
}

static asc_status check_out(const asc_tensor *out, asc_dtype result, int ndim,
                            const int64_t *shape) {
  asc_status st = asc_check_out_dtype("matmul", result, out);
  if (st) return st;
  if (out->ndim != ndim || memcmp(out->shape, shape, (size_t)ndim * sizeof *shape)) {
    char want[256], have[256];
    asc_format_shape(ndim, shape, want, sizeof want);
    asc_format_shape(out->ndim, out->shape, have, sizeof have);
    return asc_error(ASC_ERR_INVALID_VALUE, "matmul: output has shape %s but the result has %s",
                     have, want);
  }
  return ASC_OK;
}

/* The result t with its matrix axes restored where a 1-d operand dropped
 * them: (..., m, n) always. */
static asc_status out_matrix(const asc_tensor *t, int ndim_a, int ndim_b, asc_tensor *c) {
  if (ndim_a == 1 && ndim_b == 1) {
    asc_tensor row;
    asc_status st = asc_tensor_unsqueeze(t, t->ndim, &row);
    if (st) return st;
    st = asc_tensor_unsqueeze(&row, row.ndim, c);
    asc_tensor_release(&row);
    return st;
  }
  if (ndim_a == 1) return asc_tensor_unsqueeze(t, t->ndim - 1, c);
  if (ndim_b == 1) return asc_tensor_unsqueeze(t, t->ndim, c);
  asc_tensor_share(t, c);
  return ASC_OK;
}

static asc_status compute_into(const asc_tensor *a2, const asc_tensor *b2, const asc_tensor *t,
                               int ndim_a, int ndim_b, int nbatch, const int64_t *batch) {
  asc_tensor c = {0};
  asc_status st = out_matrix(t, ndim_a, ndim_b, &c);
  if (!st) st = launch(a2, b2, &c, nbatch, batch);
  asc_tensor_release(&c);
  return st;
}

static bool out_is_blas(const asc_tensor *out, int ndim_a, int ndim_b) {
  asc_tensor c;
  if (out_matrix(out, ndim_a, ndim_b, &c)) {
    asc_clear_error();
    return false;
  }
  int64_t ld;
  int r = c.ndim - 2;
  bool ok = blas_out_layout(c.shape[r], c.shape[r + 1], c.strides[r], c.strides[r + 1], &ld);
  asc_tensor_release(&c);
  return ok;
}

/* a and b as matrices (matrix axes last) of the compute dtype, in layouts
 * the product reads. */
static asc_status prepare_operands(const asc_tensor *a, const asc_tensor *b, asc_dtype compute,
                                   asc_tensor *a2, asc_tensor *b2) {
  asc_tensor am = {0}, bm = {0};
  asc_status st = as_matrix(a, true, &am);
  if (!st) st = as_matrix(b, false, &bm);
  if (!st) st = prepare_input(&am, compute, a2);
  if (!st) st = prepare_input(&bm, compute, b2);
  asc_tensor_release(&am);
  asc_tensor_release(&bm);
  return st;
}

/* May the product be formed in out itself? It must have the result dtype
 * with no rounding step to follow (a float16 product is rounded to float16
 * even into a float32 out, as NumPy does), share no memory with the
 * operands and, for BLAS, be row-major. */
static bool writes_directly(const asc_tensor *out, const asc_tensor *a, const asc_tensor *b,
                            asc_dtype result, asc_dtype compute) {
  return out->dtype == result && result == compute && asc_tensor_aligned(out) &&
         !asc_tensors_overlap(out, a) && !asc_tensors_overlap(out, b) &&
         (!uses_blas(compute) || out_is_blas(out, a->ndim, b->ndim));
}

static asc_status round_to(asc_tensor *t, asc_dtype dtype) {
  asc_tensor rounded = {0};
  asc_status st = asc_cast(t, dtype, &rounded);
  asc_tensor_release(t);
  *t = rounded;
  return st;
}

asc_status asc_matmul(const asc_tensor *a, const asc_tensor *b, asc_tensor *out) {
  asc_status st = check_operands(a, b);
  int nbatch, ndim;
  int64_t batch[ASC_MAX_DIMS], shape[ASC_MAX_DIMS];
  if (!st) st = result_shape(a, b, &nbatch, batch, &ndim, shape);
  if (!st) st = asc_tensor_check_input(a);
  if (!st) st = asc_tensor_check_input(b);
  if (st) return st;
  asc_dtype result = asc_dtype_promote(a->dtype, b->dtype);
  asc_dtype compute = result == ASC_FLOAT16 || result == ASC_BFLOAT16 ? ASC_FLOAT32 : result;
  bool preset = out->storage != NULL;
  if (preset && (st = check_out(out, result, ndim, shape))) return st;
  asc_tensor a2 = {0}, b2 = {0}, target = {0};
  st = prepare_operands(a, b, compute, &a2, &b2);
  bool direct = !st && preset && writes_directly(out, a, b, result, compute);
  if (!st && direct)
    asc_tensor_share(out, &target);
  else if (!st)
    st = asc_tensor_empty(asc_tensor_device(a), compute, ndim, shape, &target);
  if (!st) st = compute_into(&a2, &b2, &target, a->ndim, b->ndim, nbatch, batch);
  if (!st && compute != result) st = round_to(&target, result);
  if (!st && preset && !direct) st = asc_copy(&target, out);
  asc_tensor_release(&a2);
  asc_tensor_release(&b2);
  if (st || preset)
    asc_tensor_release(&target);
  else
    *out = target;
  return st;
}
