/* Small element-wise programs: a chain of element-wise operations over one
 * shape, compiled once into a list of instructions and run in one launch.
 *
 * Each instruction is the inner loop the element-wise engine runs for that
 * operation and dtype (asc_binary, asc_unary, asc_cast), with casts of its
 * operands to the dtype it computes in as instructions of their own, as
 * eager operations cast them: a program's results are those of running its
 * operations one by one, bit for bit. Registers are the program's inputs,
 * its constants (one-element tensors, read with stride 0) and temporaries
 * of the program's shape, contiguous, in scratch memory of the launch;
 * outputs are temporaries written straight into new tensors. Meant for a
 * few thousand elements at most: a program runs as one block.
 *
 * Programs are reference counted: asc_prog_new gives the caller one
 * reference, asc_prog_release drops it; a queued run holds one. */
#ifndef ASC_PROGRAM_H
#define ASC_PROGRAM_H

#include <stdbool.h>

#include "asc/ops_unary.h"
#include "asc/tensor.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The most inputs and outputs of a program together, instructions, and
 * registers (inputs, constants and temporaries). */
#define ASC_PROG_MAX_IO 32
#define ASC_PROG_MAX_INSTRS 256
#define ASC_PROG_MAX_REGS 320

typedef struct asc_prog asc_prog;

/* A new empty program over shape (every operation's result has it). The
 * caller owns the reference: asc_prog_release. */
asc_status asc_prog_new(int ndim, const int64_t *shape, asc_prog **out);
void asc_prog_retain(asc_prog *prog);
void asc_prog_release(asc_prog *prog);

/* Registers: each call returns the new register's index in *reg. */
/* An input of dtype and shape (shape, or broadcast to it). */
asc_status asc_prog_input(asc_prog *prog, asc_dtype dtype, int ndim, const int64_t *shape,
                          int *reg);
/* A constant: a one-element tensor, shared (the program keeps a reference). */
asc_status asc_prog_const(asc_prog *prog, const asc_tensor *value, int *reg);
/* asc_binary(op, a, b), asc_unary(op, x), asc_cast(x, dtype) as instructions:
 * ASC_ERR_TYPE where the eager operation refuses the dtypes, ASC_ERR_UNSUPPORTED
 * past the limits above. */
asc_status asc_prog_binary(asc_prog *prog, asc_binary_op op, int a, int b, int *reg);
asc_status asc_prog_unary(asc_prog *prog, asc_unary_op op, int x, int *reg);
asc_status asc_prog_cast(asc_prog *prog, int x, asc_dtype dtype, int *reg);
/* asc_where(cond, a, b) and asc_clip(x, lo, hi) with both bounds (one
 * bound is asc_prog_binary's maximum or minimum, as asc_clip does it). */
asc_status asc_prog_where(asc_prog *prog, int cond, int a, int b, int *reg);
asc_status asc_prog_clip(asc_prog *prog, int x, int lo, int hi, int *reg);
/* Makes temporary reg the program's next output. */
asc_status asc_prog_output(asc_prog *prog, int reg);

/* A register's dtype (ASC_DTYPE_COUNT for a bad index). */
asc_dtype asc_prog_dtype(const asc_prog *prog, int reg);
int asc_prog_inputs(const asc_prog *prog);
int asc_prog_outputs(const asc_prog *prog);
int asc_prog_instructions(const asc_prog *prog);

/* Runs the program on the current stream over ninputs tensors of the
 * declared dtypes and shapes; outputs (asc_prog_outputs of them) receive new
 * tensors that the caller releases. *declined is set, with nothing run or
 * allocated, when the inputs do not fit (another dtype or shape, a view
 * that is not contiguous, a tensor holding no valid data): the caller then
 * runs the operations eagerly, which also reports any error. Inputs of
 * another shape than the program's are expanded first (one copy each). */
asc_status asc_prog_run(asc_prog *prog, const asc_tensor *const *inputs, int ninputs,
                        asc_tensor *outputs, bool *declined);

#ifdef __cplusplus
}
#endif
#endif
