/* Linear algebra on tensors. */
#ifndef ASC_OPS_LINALG_H
#define ASC_OPS_LINALG_H

#include "asc/tensor.h"

#ifdef __cplusplus
extern "C" {
#endif

/* NumPy matmul: a 1-d a is a row vector and a 1-d b a column vector (the
 * added axis is dropped from the result), further leading dimensions are
 * batches that broadcast; 0-d operands are an error. The result dtype
 * promotes a and b. float32/float64 run on BLAS gemm, reading transposed
 * and sliced operands in place where BLAS can; float16/bfloat16 accumulate
 * in float32 and round once; integers wrap, bool is OR of ANDs.
 * out->storage NULL allocates; otherwise out (the exact result shape)
 * receives the result under same_kind casting, and may overlap a or b. */
asc_status asc_matmul(const asc_tensor *a, const asc_tensor *b, asc_tensor *out);

#ifdef __cplusplus
}
#endif
#endif
