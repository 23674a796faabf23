/* Internal interface of the reductions: the launch plan shared by the
 * planner (reduce.c), the kernels (reduce_kernel.c) and softmax, and the
 * conversion and summation loops (reduce_loops.c). */
#ifndef ASC_REDUCE_INTERNAL_H
#define ASC_REDUCE_INTERNAL_H

#include "asc/ops_reduce.h"
#include "tensor_internal.h"

/* What values are accumulated in: int64 (wrapping) for integer results,
 * float for float16, bfloat16 and float32, double for float64. */
typedef enum asc_red_acc { ASC_ACC_I64, ASC_ACC_F32, ASC_ACC_F64 } asc_red_acc;

/* Elements converted at a time into an accumulator-typed buffer. */
#define ASC_RED_BUF 512
/* Outputs reduced side by side when the kept axis is the contiguous one:
 * the unit of planning, and the most one tile takes. */
#define ASC_RED_TILE 64
#define ASC_RED_TILE_MAX 4096

/* The partial result of one output over one segment of its reduction set.
 * Float accumulators keep their value in f, integer ones in i. */
typedef struct asc_red_state {
  double f;  /* sum, product, extreme, or mean (var/std) */
  double m2; /* var/std: sum of squared deviations from the mean */
  int64_t i; /* integer sum, product, extreme; any/all flag */
  int64_t n; /* count (sum, mean, var); index of the extreme (argmax) */
} asc_red_state;

/* A reduction launch. Kept axes are in logical order (an output's index is
 * its position in them); reduced axes are in iteration order, innermost
 * last: logical order for argmax/argmin, whose index counts in it,
 * otherwise sorted for memory locality. Strides are in bytes. The outputs
 * are split into `groups` ranges of group_len and each reduction set into
 * `segments` of seg_len; block b takes group b / segments, segment
 * b % segments. With one segment a block writes results, with more it
 * writes states to scratch ([output][segment]) for the combine kernel. */
typedef struct asc_red_args {
  asc_reduce_op op;
  asc_red_acc acc;
  asc_dtype in_dtype, out_dtype;
  bool column; /* reduce tiles of outputs along the last kept axis at once */
  int kdim, rdim;
  int64_t kshape[ASC_MAX_DIMS], kstride[ASC_MAX_DIMS];
  int64_t rshape[ASC_MAX_DIMS], rstride[ASC_MAX_DIMS];
  int64_t nout, nred;
  int64_t ddof;
  uint32_t groups, segments;
  int64_t group_len, seg_len;
  const char *in;
  char *out; /* contiguous, out_dtype */
  asc_red_state *scratch;
  asc_storage *storages[3];
} asc_red_args;

asc_status asc_red_block(const asc_block_ctx *block, const void *args);
asc_status asc_red_combine(const asc_block_ctx *block, const void *args);
void asc_red_release(void *args);

/* The result into *out: handed over when out was empty, else copied (and
 * released). */
asc_status asc_red_deliver(asc_tensor *result, asc_tensor *out);

/* asc_reduce of uint64 for max, min, argmax and argmin (reduce_composed.c),
 * through the int64 kernels; checks done as for asc_reduce_complex. */
asc_status asc_reduce_u64_order(asc_reduce_op op, const asc_tensor *x, const bool *reduced,
                                bool keepdims, asc_tensor *out);

/* asc_reduce for complex inputs or results (reduce_composed.c): sum, mean
 * and prod into result_dtype, any and all, var and std (with ddof) into
 * result_dtype's real dtype; `reduced` marks x's reduced axes and the
 * checks of asc_reduce are done. */
asc_status asc_reduce_complex(asc_reduce_op op, const asc_tensor *x, const bool *reduced,
                              bool keepdims, int ddof, asc_dtype result_dtype, asc_tensor *out);

/* --- loops (reduce_loops.c) --------------------------------------------- */

/* n elements of dtype at p (byte stride) as accumulator values: p itself
 * when it already is a contiguous array of them, else converted into buf
 * (room for n). Integer buffers take only bool and integer dtypes. */
const int64_t *asc_red_gather_i64(int64_t *buf, const char *p, int64_t stride, int64_t n,
                                  asc_dtype dtype);
const float *asc_red_gather_f32(float *buf, const char *p, int64_t stride, int64_t n,
                                asc_dtype dtype);
const double *asc_red_gather_f64(double *buf, const char *p, int64_t stride, int64_t n,
                                 asc_dtype dtype);
/* Stores n values to dtype at p with a byte stride (floats to float
 * dtypes; integers to any, as asc_cast). */
void asc_red_scatter_i64(char *p, int64_t stride, const int64_t *v, int64_t n, asc_dtype dtype);
void asc_red_scatter_f32(char *p, int64_t stride, const float *v, int64_t n, asc_dtype dtype);
void asc_red_scatter_f64(char *p, int64_t stride, const double *v, int64_t n, asc_dtype dtype);

/* NumPy's pairwise summation: blocks of 128 in eight accumulators, halves
 * above that. */
float asc_red_pairwise_f32(const float *x, int64_t n);
double asc_red_pairwise_f64(const double *x, int64_t n);

/* The max (is_max) or min of x[0, n), n >= 1, skipping NaN; *nan tells
 * whether there was one (reduce_extreme.c). */
float asc_red_extreme_f32(const float *x, int64_t n, bool is_max, bool *nan);
double asc_red_extreme_f64(const double *x, int64_t n, bool is_max, bool *nan);
/* Defines NAME, the portable max (CMP >) or min (CMP <) of x[0, n) of
 * type T, n >= 1: eight independent lanes, so that the comparisons do not
 * wait on each other, then the lanes and the tail one by one. CMP is a
 * compile-time operator, so that the compiler makes each step a
 * branch-free max/min instead of a jump on data. NaN is not compared (a
 * comparison with it is false); *nan tells whether there was one (never,
 * for integers, where v != v folds away). */
#define ASC_RED_EXTREME_LOOP(NAME, T, CMP)                 \
  static inline T NAME(const T *x, int64_t n, bool *nan) { \
    T lane[8], r = x[0];                                   \
    int nans[8] = {0, 0, 0, 0, 0, 0, 0, 0}, any = 0;       \
    for (int j = 0; j < 8; j++) lane[j] = x[0];            \
    int64_t k = 0;                                         \
    for (; k + 8 <= n; k += 8)                             \
      for (int j = 0; j < 8; j++) {                        \
        T v = x[k + j];                                    \
        lane[j] = v CMP lane[j] ? v : lane[j];             \
        nans[j] |= v != v;                                 \
      }                                                    \
    for (int j = 0; j < 8; j++) {                          \
      r = lane[j] CMP r ? lane[j] : r;                     \
      any |= nans[j];                                      \
    }                                                      \
    for (; k < n; k++) {                                   \
      r = x[k] CMP r ? x[k] : r;                           \
      any |= x[k] != x[k];                                 \
    }                                                      \
    *nan = any != 0;                                       \
    return r;                                              \
  }
/* asc_red_extreme's max for other files (softmax.c). */
float asc_red_piece_max_f32(const float *x, int64_t n, bool *nan);
double asc_red_piece_max_f64(const double *x, int64_t n, bool *nan);

/* One value stored as dtype with the conversions of asc_cast. */
void asc_red_put_f(asc_dtype dtype, char *p, double v);
void asc_red_put_i(asc_dtype dtype, char *p, int64_t v);

#endif
