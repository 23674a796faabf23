/* Kernels that compute each element of a fresh contiguous tensor from its
 * flat index (ranges, identity matrices, random numbers). Because a value
 * depends only on its index, the result is the same however the work is
 * split into parallel blocks. Implemented in create.c. */
#ifndef ASC_TENSOR_INDEX_KERNEL_H
#define ASC_TENSOR_INDEX_KERNEL_H

#include "tensor_internal.h"

#define ASC_INDEX_CTX_MAX 96

/* Writes elements [first, first + n) to out, which points at element
 * `first`. May fail with asc_error. */
typedef asc_status (*asc_index_loop)(char *out, int64_t first, int64_t n, const void *ctx);

typedef struct asc_index_kernel {
  asc_index_loop loop;
  const void *ctx; /* copied; at most ASC_INDEX_CTX_MAX bytes */
  size_t ctx_size;
  const char *name; /* static, for error messages */
} asc_index_kernel;

/* Runs the loop over every element of out (C-contiguous) on the current
 * stream, holding a reference to out's storage until done. */
asc_status asc_index_launch(const asc_index_kernel *kernel, const asc_tensor *out);

#endif
