/* Internal interface of the tensor layer: shape helpers and the element-wise
 * engine every element-wise operation runs on. */
#ifndef ASC_TENSOR_INTERNAL_H
#define ASC_TENSOR_INTERNAL_H

#include <stddef.h>

#include "asc/ops_unary.h"
#include "asc/tensor.h"

void asc_contiguous_strides(int ndim, const int64_t *shape, int64_t *strides);
/* t's element strides broadcast to shape (ndim <= ASC_MAX_DIMS, a valid
 * shape): what asc_tensor_expand gives, without making the view. */
asc_status asc_expand_strides(const asc_tensor *t, int ndim, const int64_t *shape,
                              int64_t *strides);
/* "(2, 3)" into buf. */
void asc_format_shape(int ndim, const int64_t *shape, char *buf, size_t size);

/* True when p may be read as a T. Memory shared from NumPy or DLPack need
 * not be aligned (a view at an odd byte offset): inner loops take their
 * typed fast paths only on aligned pointers and use memcpy otherwise. */
#define ASC_ALIGNED(p, T) (((uintptr_t)(const void *)(p) & (_Alignof(T) - 1)) == 0)

/* The complex dtypes' storage: two floats, real part first (C11's layout,
 * NumPy's and DLPack's). __builtin_complex builds one from its parts
 * without the multiplication by I that would turn inf parts into NaN. */
typedef float _Complex asc_c64_t;
typedef double _Complex asc_c128_t;
#define ASC_C64(re, im) __builtin_complex((float)(re), (float)(im))
#define ASC_C128(re, im) __builtin_complex((double)(re), (double)(im))

/* The end of a function that built *t for its caller: *t becomes *out
 * (the caller releases it) when st is ASC_OK, and is released otherwise.
 * Returns st. */
static inline asc_status asc_tensor_hand_over(asc_status st, asc_tensor *t, asc_tensor *out) {
  if (st)
    asc_tensor_release(t);
  else
    *out = *t;
  return st;
}

/* Whether t's elements are naturally aligned (every dtype's alignment is
 * its size, and strides are whole elements). */
static inline bool asc_tensor_aligned(const asc_tensor *t) {
  return (uintptr_t)asc_tensor_data(t) % asc_dtype_size(t->dtype) == 0;
}

/* Up to this many bytes touched, an operation's launch may run on the
 * calling thread when its stream is idle (ASC_LAUNCH_INLINE_OK): handing
 * it to the stream's thread would cost more than the work. */
#define ASC_INLINE_BYTES ((int64_t)1 << 16)

/* NAME_keep and NAME_release, an asc_launch_desc's keep and release for
 * args of type TYPE whose `storages` hold N storages (N may read the args
 * as `a`), with the fields `whole` and `kept`: a queued launch holds the
 * storages stream-ordered (asc_storages_retain_queued, see ew_keep in
 * elementwise.c); one run on the calling thread borrows the caller's. */
#define ASC_QUEUED_STORAGES(NAME, TYPE, N)                                     \
  static void NAME##_keep(void *args) {                                        \
    TYPE *a = args;                                                            \
    a->whole = asc_storages_retain_queued(a->storages, N, ASC_STREAM_CURRENT); \
    a->kept = true;                                                            \
  }                                                                            \
  static void NAME##_release(void *args) {                                     \
    TYPE *a = args;                                                            \
    if (a->kept) asc_storages_release_queued(a->storages, N, a->whole);        \
  }

/* Launches NAME_block over NBLOCKS blocks on the current stream with a copy
 * of *ARGS and NAME_keep, NAME_release and NAME_failed, LABEL naming it in
 * errors; work touching at most ASC_INLINE_BYTES may run on the calling
 * thread. Evaluates to asc_launch_ex's status. */
#define ASC_QUEUED_LAUNCH(NAME, ARGS, NBLOCKS, LABEL, BYTES) \
  asc_launch_ex(                                             \
      ASC_STREAM_CURRENT,                                    \
      &(asc_launch_desc){.fn = NAME##_block,                 \
                         .nblocks = (NBLOCKS),               \
                         .args = (ARGS),                     \
                         .args_size = sizeof *(ARGS),        \
                         .release = NAME##_release,          \
                         .failed = NAME##_failed,            \
                         .keep = NAME##_keep,                \
                         .name = (LABEL),                    \
                         .flags = (BYTES) <= ASC_INLINE_BYTES ? ASC_LAUNCH_INLINE_OK : 0})

/* A fresh tensor in malloc'd host memory that it owns (freed with its
 * storage), for results the host computes: *data is where to write them,
 * before the tensor is shared with anyone. Implemented in manip.c. */
asc_status asc_host_tensor(int device, asc_dtype dtype, int ndim, const int64_t *shape,
                           asc_tensor *out, void **data);

/* --- element-wise engine ------------------------------------------------ */

#define ASC_EW_MAX_OPERANDS 4 /* the output and up to three inputs */
#define ASC_EW_CTX_MAX 64

/* An inner loop over n elements: ptrs[0] is the output, ptrs[1..] the
 * inputs; strides are in bytes (0 for a broadcast operand). A loop that
 * finds bad input (an integer to a negative power) fails with asc_error. */
typedef asc_status (*asc_ew_loop)(char *const *ptrs, const int64_t *strides, int64_t n,
                                  const void *ctx);

typedef struct asc_ew_kernel {
  asc_ew_loop loop;
  const void *ctx; /* copied; at most ASC_EW_CTX_MAX bytes */
  size_t ctx_size;
  const char *name; /* static, for error messages */
} asc_ew_kernel;

/* Runs the loop over out's shape on the current stream. Inputs must have
 * the dtypes the loop expects and shapes that broadcast to out's; out must
 * be allocated. Holds references to every operand until the work is done. */
asc_status asc_ew_launch(const asc_ew_kernel *kernel, int nin, const asc_tensor *const *inputs,
                         const asc_tensor *out);

/* How many parallel blocks work touching `bytes` on device wants: one
 * below parallel_bytes or without worker threads, else one per
 * bytes_per_block, at most four per worker. */
int64_t asc_parallel_blocks(int64_t bytes, int64_t parallel_bytes, int64_t bytes_per_block,
                            int device);
/* asc_parallel_blocks for `total` elements: *chunk gets the elements per
 * block (all of them, or a multiple of 256); returns the block count. */
uint32_t asc_split_blocks(int64_t total, int64_t bytes, int64_t parallel_bytes,
                          int64_t bytes_per_block, int device, int64_t *chunk);

/* Allocates *out for a result of `dtype` broadcast from the inputs, or, if
 * out->storage is set, checks that out has that shape. */
asc_status asc_ew_prepare_out(int nin, const asc_tensor *const *inputs, asc_dtype dtype,
                              asc_tensor *out, bool *allocated);

/* True when a and b use the same storage and their element ranges meet. */
bool asc_tensors_overlap(const asc_tensor *a, const asc_tensor *b);

/* --- the out= convention of asc/ops.h ------------------------------------ */

/* Checks that a preset out can take a `result` value (same_kind) and is a
 * valid tensor; `name` prefixes the message. */
asc_status asc_check_out_dtype(const char *name, asc_dtype result, const asc_tensor *out);
/* asc_check_out_dtype, and out has the inputs' broadcast shape. */
asc_status asc_ew_check_out(const char *name, int nin, const asc_tensor *const *inputs,
                            asc_dtype result, const asc_tensor *out);
/* Casts each operand to dtypes[k] and runs kernel over them into *out: a
 * fresh `result` tensor if out->storage is NULL, else out (checked with
 * asc_ew_check_out), directly when that is safe or through a temporary. */
asc_status asc_ew_run(const asc_ew_kernel *kernel, int nin, const asc_tensor *const *operands,
                      const asc_dtype *dtypes, asc_dtype result, asc_tensor *out);

/* The inner loop asc_binary runs for op on operands of dtypes a and b,
 * with the dtype both are cast to first (*compute) and the result's. The
 * kernel's ctx (if any) is static. */
asc_status asc_binary_kernel(asc_binary_op op, asc_dtype a, asc_dtype b, asc_ew_kernel *kernel,
                             asc_dtype *compute, asc_dtype *result);
/* The same for asc_unary on an operand of dtype x. */
asc_status asc_unary_kernel(asc_unary_op op, asc_dtype x, asc_ew_kernel *kernel, asc_dtype *compute,
                            asc_dtype *result);
/* The loops asc_where and asc_clip run, for their value operands' dtypes
 * (the condition is cast to bool, the others to *result first). */
asc_status asc_where_kernel(asc_dtype a, asc_dtype b, asc_ew_kernel *kernel, asc_dtype *result);
asc_status asc_clip_kernel(asc_dtype x, asc_dtype lo, asc_dtype hi, asc_ew_kernel *kernel,
                           asc_dtype *result);
/* The loop asc_cast runs from one dtype to another (a copy when they are
 * the same); NULL for an invalid dtype. */
asc_ew_loop asc_cast_loop(asc_dtype from, asc_dtype to);

#endif
