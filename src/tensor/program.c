/* Small element-wise programs (asc/program.h): compiled once into the inner
 * loops eager operations run, then run in one launch over registers. */
#include "asc/program.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "tensor_internal.h"

/* Temporaries start on cache lines in the scratch. */
#define PROG_ALIGN 64

typedef enum reg_kind { REG_INPUT, REG_CONST, REG_TEMP } reg_kind;

typedef struct prog_reg {
  reg_kind kind;
  asc_dtype dtype;
  bool scalar;    /* one element, read with stride 0 */
  bool expand;    /* an input of another shape, expanded before the run */
  int index;      /* an input's or constant's position */
  int output;     /* a temporary's output position, or -1 */
  int64_t offset; /* a temporary's byte offset in the scratch */
  int64_t stride; /* bytes between elements: 0 for a scalar */
  char *data;     /* a constant's element */
} prog_reg;

typedef struct prog_instr {
  asc_ew_loop loop;
  int nops; /* the destination and its operands */
  int regs[ASC_EW_MAX_OPERANDS];
  _Alignas(16) unsigned char ctx[ASC_EW_CTX_MAX];
} prog_instr;

typedef struct prog_input {
  int ndim;
  int64_t shape[ASC_MAX_DIMS];
} prog_input;

struct asc_prog {
  atomic_int refs;
  int ndim;
  int64_t shape[ASC_MAX_DIMS];
  int64_t numel;
  int nregs, ninstrs, ninputs, nconsts, noutputs;
  int64_t scratch; /* bytes of temporaries */
  int64_t touched; /* bytes of temporaries, inputs and outputs */
  prog_reg regs[ASC_PROG_MAX_REGS];
  prog_instr instrs[ASC_PROG_MAX_INSTRS];
  prog_input inputs[ASC_PROG_MAX_IO];
  asc_tensor consts[ASC_PROG_MAX_IO];
  int in_regs[ASC_PROG_MAX_IO];
  int out_regs[ASC_PROG_MAX_IO];
};

/* --- building --------------------------------------------------------------- */

asc_status asc_prog_new(int ndim, const int64_t *shape, asc_prog **out) {
  asc_status st = asc_check_shape(ndim, shape, ASC_UINT8, NULL);
  if (st) return st;
  asc_prog *p = calloc(1, sizeof *p);
  if (!p) return asc_error(ASC_ERR_OUT_OF_MEMORY, "program: out of memory");
  atomic_init(&p->refs, 1);
  p->ndim = ndim;
  if (ndim) memcpy(p->shape, shape, (size_t)ndim * sizeof *shape);
  p->numel = asc_shape_numel(ndim, shape);
  *out = p;
  return ASC_OK;
}

void asc_prog_retain(asc_prog *prog) {
  atomic_fetch_add_explicit(&prog->refs, 1, memory_order_relaxed);
}

void asc_prog_release(asc_prog *prog) {
  if (!prog || atomic_fetch_sub_explicit(&prog->refs, 1, memory_order_acq_rel) != 1) return;
  for (int k = 0; k < prog->nconsts; k++) asc_tensor_release(&prog->consts[k]);
  free(prog);
}

static asc_status new_reg(asc_prog *p, reg_kind kind, asc_dtype dtype, bool scalar, int *reg) {
  if (p->nregs == ASC_PROG_MAX_REGS)
    return asc_error(ASC_ERR_UNSUPPORTED, "program: more than %d registers", ASC_PROG_MAX_REGS);
  prog_reg *r = &p->regs[p->nregs];
  *r = (prog_reg){.kind = kind,
                  .dtype = dtype,
                  .scalar = scalar,
                  .output = -1,
                  .stride = scalar ? 0 : (int64_t)asc_dtype_size(dtype)};
  if (kind == REG_TEMP) {
    int64_t bytes = (scalar ? 1 : p->numel) * (int64_t)asc_dtype_size(dtype);
    r->offset = p->scratch;
    p->scratch += (bytes + PROG_ALIGN - 1) / PROG_ALIGN * PROG_ALIGN;
    p->touched += bytes;
  }
  *reg = p->nregs++;
  return ASC_OK;
}

asc_status asc_prog_input(asc_prog *prog, asc_dtype dtype, int ndim, const int64_t *shape,
                          int *reg) {
  if (prog->ninputs + prog->noutputs == ASC_PROG_MAX_IO)
    return asc_error(ASC_ERR_UNSUPPORTED, "program: more than %d inputs and outputs",
                     ASC_PROG_MAX_IO);
  asc_status st = asc_check_shape(ndim, shape, dtype, NULL);
  int out_ndim;
  int64_t out_shape[ASC_MAX_DIMS];
  if (!st) st = asc_broadcast_shapes(ndim, shape, prog->ndim, prog->shape, &out_ndim, out_shape);
  if (!st && (out_ndim != prog->ndim ||
              memcmp(out_shape, prog->shape, (size_t)out_ndim * sizeof *out_shape)))
    st = asc_error(ASC_ERR_INVALID_VALUE, "program: an input does not broadcast to its shape");
  bool scalar = asc_shape_numel(ndim, shape) == 1;
  if (!st) st = new_reg(prog, REG_INPUT, dtype, scalar, reg);
  if (st) return st;
  prog->touched += asc_shape_numel(ndim, shape) * (int64_t)asc_dtype_size(dtype);
  prog_input *in = &prog->inputs[prog->ninputs];
  in->ndim = ndim;
  if (ndim) memcpy(in->shape, shape, (size_t)ndim * sizeof *shape); /* shape may be NULL */
  prog->in_regs[prog->ninputs] = *reg;
  prog->regs[*reg].index = prog->ninputs++;
  prog->regs[*reg].expand =
      !scalar &&
      (ndim != prog->ndim || (ndim && memcmp(shape, prog->shape, (size_t)ndim * sizeof *shape)));
  return ASC_OK;
}

asc_status asc_prog_const(asc_prog *prog, const asc_tensor *value, int *reg) {
  if (asc_tensor_numel(value) != 1)
    return asc_error(ASC_ERR_INVALID_VALUE, "program: a constant has one element");
  if (prog->nconsts == ASC_PROG_MAX_IO)
    return asc_error(ASC_ERR_UNSUPPORTED, "program: more than %d constants", ASC_PROG_MAX_IO);
  asc_status st = new_reg(prog, REG_CONST, value->dtype, true, reg);
  if (st) return st;
  asc_tensor_share(value, &prog->consts[prog->nconsts]);
  prog->regs[*reg].data = asc_tensor_data(value);
  prog->regs[*reg].index = prog->nconsts++;
  return ASC_OK;
}

static asc_status check_reg(const asc_prog *p, int reg) {
  if (reg < 0 || reg >= p->nregs)
    return asc_error(ASC_ERR_INVALID_VALUE, "program: no register %d", reg);
  return ASC_OK;
}

/* Appends kernel over operands (nin of them) into a new temporary of dtype
 * result, scalar when all operands are. */
static asc_status emit(asc_prog *p, const asc_ew_kernel *kernel, int nin, const int *operands,
                       asc_dtype result, int *reg) {
  if (!kernel->loop || kernel->ctx_size > ASC_EW_CTX_MAX)
    return asc_error(ASC_ERR_UNSUPPORTED, "program: no loop for %s", kernel->name);
  if (p->ninstrs == ASC_PROG_MAX_INSTRS)
    return asc_error(ASC_ERR_UNSUPPORTED, "program: more than %d instructions",
                     ASC_PROG_MAX_INSTRS);
  bool scalar = true;
  for (int k = 0; k < nin; k++) scalar = scalar && p->regs[operands[k]].scalar;
  asc_status st = new_reg(p, REG_TEMP, result, scalar, reg);
  if (st) return st;
  prog_instr *ins = &p->instrs[p->ninstrs++];
  memset(ins, 0, sizeof *ins);
  ins->loop = kernel->loop;
  ins->nops = nin + 1;
  ins->regs[0] = *reg;
  memcpy(ins->regs + 1, operands, (size_t)nin * sizeof *operands);
  if (kernel->ctx_size) memcpy(ins->ctx, kernel->ctx, kernel->ctx_size);
  return ASC_OK;
}

asc_status asc_prog_cast(asc_prog *prog, int x, asc_dtype dtype, int *reg) {
  asc_status st = check_reg(prog, x);
  if (st) return st;
  if (!asc_dtype_valid(dtype)) return asc_error(ASC_ERR_TYPE, "invalid dtype %d", (int)dtype);
  asc_ew_kernel kernel = {.loop = asc_cast_loop(prog->regs[x].dtype, dtype), .name = "cast"};
  return emit(prog, &kernel, 1, &x, dtype, reg);
}

/* x itself when it has dtype, else a cast of it (as asc_ew_run casts). */
static asc_status operand_as(asc_prog *p, int x, asc_dtype dtype, int *reg) {
  *reg = x;
  return p->regs[x].dtype == dtype ? ASC_OK : asc_prog_cast(p, x, dtype, reg);
}

/* regs[0..n) checked, in order, as registers of the program. */
static asc_status check_regs(const asc_prog *p, int n, const int *regs) {
  asc_status st = ASC_OK;
  for (int k = 0; k < n && !st; k++) st = check_reg(p, regs[k]);
  return st;
}

/* Emits kernel over regs[0..n) (at most 3), each as dtypes[k]: the casts
 * an operand of another dtype needs come first, as asc_ew_run casts. */
static asc_status emit_as(asc_prog *p, const asc_ew_kernel *kernel, int n, const int *regs,
                          const asc_dtype *dtypes, asc_dtype result, int *reg) {
  int operands[3];
  asc_status st = ASC_OK;
  for (int k = 0; k < n && !st; k++) st = operand_as(p, regs[k], dtypes[k], &operands[k]);
  return st ? st : emit(p, kernel, n, operands, result, reg);
}

asc_status asc_prog_binary(asc_prog *prog, asc_binary_op op, int a, int b, int *reg) {
  const int regs[2] = {a, b};
  asc_status st = check_regs(prog, 2, regs);
  asc_ew_kernel kernel;
  asc_dtype compute, result;
  if (!st)
    st =
        asc_binary_kernel(op, prog->regs[a].dtype, prog->regs[b].dtype, &kernel, &compute, &result);
  if (st) return st;
  return emit_as(prog, &kernel, 2, regs, (const asc_dtype[]){compute, compute}, result, reg);
}

asc_status asc_prog_unary(asc_prog *prog, asc_unary_op op, int x, int *reg) {
  asc_status st = check_reg(prog, x);
  asc_ew_kernel kernel;
  asc_dtype compute, result;
  if (!st) st = asc_unary_kernel(op, prog->regs[x].dtype, &kernel, &compute, &result);
  if (st) return st;
  return emit_as(prog, &kernel, 1, &x, &compute, result, reg);
}

asc_status asc_prog_where(asc_prog *prog, int cond, int a, int b, int *reg) {
  const int regs[3] = {cond, a, b};
  asc_status st = check_regs(prog, 3, regs);
  asc_ew_kernel kernel;
  asc_dtype result;
  if (!st) st = asc_where_kernel(prog->regs[a].dtype, prog->regs[b].dtype, &kernel, &result);
  if (st) return st;
  return emit_as(prog, &kernel, 3, regs, (const asc_dtype[]){ASC_BOOL, result, result}, result,
                 reg);
}

asc_status asc_prog_clip(asc_prog *prog, int x, int lo, int hi, int *reg) {
  const int regs[3] = {x, lo, hi};
  asc_status st = check_regs(prog, 3, regs);
  asc_ew_kernel kernel;
  asc_dtype result;
  if (!st)
    st = asc_clip_kernel(prog->regs[x].dtype, prog->regs[lo].dtype, prog->regs[hi].dtype, &kernel,
                         &result);
  if (st) return st;
  return emit_as(prog, &kernel, 3, regs, (const asc_dtype[]){result, result, result}, result, reg);
}

asc_status asc_prog_output(asc_prog *prog, int reg) {
  asc_status st = check_reg(prog, reg);
  if (st) return st;
  prog_reg *r = &prog->regs[reg];
  if (r->kind != REG_TEMP || r->output >= 0 || r->scalar != (prog->numel == 1))
    return asc_error(ASC_ERR_INVALID_VALUE, "program: register %d cannot be an output", reg);
  if (prog->ninputs + prog->noutputs == ASC_PROG_MAX_IO)
    return asc_error(ASC_ERR_UNSUPPORTED, "program: more than %d inputs and outputs",
                     ASC_PROG_MAX_IO);
  r->output = prog->noutputs;
  prog->out_regs[prog->noutputs++] = reg;
  return ASC_OK;
}

asc_dtype asc_prog_dtype(const asc_prog *prog, int reg) {
  return reg >= 0 && reg < prog->nregs ? prog->regs[reg].dtype : ASC_DTYPE_COUNT;
}

int asc_prog_inputs(const asc_prog *prog) {
  return prog->ninputs;
}

int asc_prog_outputs(const asc_prog *prog) {
  return prog->noutputs;
}

int asc_prog_instructions(const asc_prog *prog) {
  return prog->ninstrs;
}

/* --- running ---------------------------------------------------------------- */

/* One run's launch arguments: the data of each input and output, and their
 * storages (held, with the program, while the run is queued). */
typedef struct prog_args {
  asc_prog *prog;
  char *in[ASC_PROG_MAX_IO];
  char *out[ASC_PROG_MAX_IO];
  asc_storage *storages[ASC_PROG_MAX_IO]; /* inputs, then outputs */
  int nstorages;
  bool kept;
  uint32_t whole;
} prog_args;

/* Each register's data and byte stride (0 for a scalar). */
static void bind_regs(const asc_prog *p, const prog_args *a, char *scratch, char **ptr,
                      int64_t *stride) {
  for (int r = 0; r < p->nregs; r++) {
    const prog_reg *g = &p->regs[r];
    stride[r] = g->stride;
    if (g->kind == REG_INPUT)
      ptr[r] = a->in[g->index];
    else if (g->kind == REG_CONST)
      ptr[r] = g->data;
    else
      ptr[r] = g->output >= 0 ? a->out[g->output] : scratch + g->offset;
  }
}

static asc_status prog_block(const asc_block_ctx *block, const void *args) {
  const prog_args *a = args;
  const asc_prog *p = a->prog;
  char *heap = NULL, *scratch = block->ub;
  if (p->scratch > (int64_t)block->ub_size || !scratch) {
    heap = scratch = malloc((size_t)p->scratch);
    if (!heap) return asc_error(ASC_ERR_OUT_OF_MEMORY, "program: no scratch memory");
  }
  char *ptr[ASC_PROG_MAX_REGS];
  int64_t stride[ASC_PROG_MAX_REGS];
  bind_regs(p, a, scratch, ptr, stride);
  asc_status st = ASC_OK;
  for (int i = 0; i < p->ninstrs && !st; i++) {
    const prog_instr *ins = &p->instrs[i];
    char *ptrs[ASC_EW_MAX_OPERANDS];
    int64_t strides[ASC_EW_MAX_OPERANDS];
    for (int k = 0; k < ins->nops; k++) {
      ptrs[k] = ptr[ins->regs[k]];
      strides[k] = stride[ins->regs[k]];
    }
    st = ins->loop(ptrs, strides, p->regs[ins->regs[0]].scalar ? 1 : p->numel, ins->ctx);
  }
  free(heap);
  return st;
}

static void prog_failed(void *args, bool skipped) {
  prog_args *a = args;
  for (int k = a->prog->ninputs; k < a->nstorages; k++)
    asc_storage_poison(a->storages[k], "program", skipped);
}

/* A queued run holds its operands' storages and the program (see ew_keep
 * in elementwise.c); one on the calling thread borrows the caller's. */
static void prog_keep(void *args) {
  prog_args *a = args;
  a->whole = asc_storages_retain_queued(a->storages, a->nstorages, ASC_STREAM_CURRENT);
  asc_prog_retain(a->prog);
  a->kept = true;
}

static void prog_release(void *args) {
  prog_args *a = args;
  if (!a->kept) return;
  asc_storages_release_queued(a->storages, a->nstorages, a->whole);
  asc_prog_release(a->prog);
}

/* Whether input k fits its register: dtype, shape, contiguous, valid. */
static bool input_fits(const asc_prog *p, int k, const asc_tensor *t) {
  const prog_input *in = &p->inputs[k];
  if (t->ndim != in->ndim || memcmp(t->shape, in->shape, (size_t)in->ndim * sizeof *in->shape))
    return false;
  const prog_reg *r = &p->regs[p->in_regs[k]];
  if (t->dtype != r->dtype || (!r->scalar && !r->expand && !asc_tensor_is_contiguous(t)))
    return false;
  if (asc_tensor_check_input(t)) {
    asc_clear_error();
    return false;
  }
  return true;
}

/* Expands the inputs of another shape into contiguous tensors (held in
 * held[k], which the caller releases) and points args at every input. */
static asc_status bind_inputs(const asc_prog *p, const asc_tensor *const *inputs, asc_tensor *held,
                              prog_args *a) {
  for (int r = 0; r < p->nregs; r++) {
    const prog_reg *g = &p->regs[r];
    if (g->kind != REG_INPUT) continue;
    const asc_tensor *t = inputs[g->index];
    if (g->expand) {
      asc_tensor view;
      asc_status st = asc_tensor_expand(t, p->ndim, p->shape, &view);
      if (!st) st = asc_tensor_contiguous(&view, &held[g->index]);
      if (!st) asc_tensor_release(&view);
      if (st) return st;
      t = &held[g->index];
    }
    a->in[g->index] = asc_tensor_data(t);
    a->storages[g->index] = t->storage;
  }
  return ASC_OK;
}

static asc_status alloc_outputs(const asc_prog *p, int device, asc_tensor *outputs, prog_args *a) {
  for (int k = 0; k < p->noutputs; k++) {
    asc_dtype dtype = p->regs[p->out_regs[k]].dtype;
    asc_status st = asc_tensor_empty(device, dtype, p->ndim, p->shape, &outputs[k]);
    if (st) return st;
    a->out[k] = asc_tensor_data(&outputs[k]);
    a->storages[p->ninputs + k] = outputs[k].storage;
  }
  return ASC_OK;
}

asc_status asc_prog_run(asc_prog *prog, const asc_tensor *const *inputs, int ninputs,
                        asc_tensor *outputs, bool *declined) {
  *declined = ninputs != prog->ninputs || ninputs == 0;
  for (int k = 0; k < ninputs && !*declined; k++) *declined = !input_fits(prog, k, inputs[k]);
  if (*declined) return ASC_OK;
  prog_args a;
  a.prog = prog;
  a.nstorages = prog->ninputs + prog->noutputs;
  a.kept = false;
  asc_tensor held[ASC_PROG_MAX_IO];
  for (int k = 0; k < prog->noutputs; k++) outputs[k].storage = NULL;
  for (int k = 0; k < prog->ninputs; k++) held[k].storage = NULL;
  asc_status st = bind_inputs(prog, inputs, held, &a);
  if (!st) st = alloc_outputs(prog, asc_tensor_device(inputs[0]), outputs, &a);
  if (!st && prog->numel) {
    st = ASC_QUEUED_LAUNCH(prog, &a, 1, "program", prog->touched);
  }
  for (int k = 0; k < prog->ninputs; k++) asc_tensor_release(&held[k]);
  if (st)
    for (int k = 0; k < prog->noutputs; k++) asc_tensor_release(&outputs[k]);
  return st;
}
