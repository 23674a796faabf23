/* The op table: every IR op's name, operand signature, result rule and
 * pipe (the API ops' rows come from api_table.def), plus the checks that go
 * beyond operand kinds.
 *
 * Operand letters: I int (bool allowed), B bool (int allowed), N any scalar,
 * A GlobalAddress, G GlobalTensor, L LocalTensor, M Global- or LocalTensor,
 * P TPipe, Q TQue, T TBuf, '?' makes the letters after it optional, '*'
 * accepts any number of further scalars, '+' any number of further scalars
 * or GlobalAddresses (printf).
 *
 * The checks of some runtime units live in files of their own (ir_check.h
 * lists them). */
#include <stdio.h>
#include <string.h>

#include "ir_check.h"

const asc_ir_type *ir_type_at(const asc_ir_module *m, const ir_op *op, int i) {
  return &m->values[op->operands[i]].type;
}

bool ir_is_vector_position(int pos) {
  return pos == ASC_POS_VECIN || pos == ASC_POS_VECOUT || pos == ASC_POS_VECCALC;
}

/* Vector ops: LocalTensors in vector positions, all of one dtype that the
 * API supports. `allowed` is a bit set of dtypes. */
static asc_status check_vector(const asc_ir_module *m, const ir_op *op, int nlocals,
                               unsigned allowed) {
  const char *name = ir_op_defs[op->code].name;
  asc_dtype dtype = ir_type_at(m, op, 0)->dtype;
  for (int i = 0; i < nlocals; i++) {
    const asc_ir_type *t = ir_type_at(m, op, i);
    if (!ir_is_vector_position(t->position))
      return asc_error(ASC_ERR_COMPILE,
                       "%s: operand %d is a LocalTensor at TPosition.%s; vector instructions need "
                       "VECIN, VECOUT or VECCALC",
                       name, i + 1, ir_position_name(t->position));
    if (t->dtype != dtype)
      return asc_error(ASC_ERR_COMPILE, "%s: operand %d is %s but the destination is %s", name,
                       i + 1, asc_dtype_name(t->dtype), asc_dtype_name(dtype));
  }
  if (!(allowed & (1u << dtype))) {
    char names[160] = "";
    size_t len = 0;
    for (int d = 0; d < ASC_DTYPE_COUNT && len < sizeof names; d++)
      if (allowed & (1u << d))
        len += (size_t)snprintf(names + len, sizeof names - len, "%s%s", len ? ", " : "",
                                asc_dtype_name((asc_dtype)d));
    return asc_error(ASC_ERR_COMPILE, "%s does not support %s tensors (supported: %s)", name,
                     asc_dtype_name(dtype), names);
  }
  return ASC_OK;
}

static asc_status check_binary(const asc_ir_module *m, const ir_op *op) {
  return check_vector(m, op, 3, F16 | F32 | I16 | I32);
}
static asc_status check_binary_float(const asc_ir_module *m, const ir_op *op) {
  return check_vector(m, op, 3, F16 | F32);
}
static asc_status check_scalar_op(const asc_ir_module *m, const ir_op *op) {
  return check_vector(m, op, 2, F16 | F32 | I16 | I32);
}
static asc_status check_unary_float(const asc_ir_module *m, const ir_op *op) {
  return check_vector(m, op, 2, F16 | F32);
}
static asc_status check_unary_abs(const asc_ir_module *m, const ir_op *op) {
  return check_vector(m, op, 2, F16 | F32 | I16 | I32);
}
static asc_status check_relu(const asc_ir_module *m, const ir_op *op) {
  return check_vector(m, op, 2, F16 | F32 | I32);
}
static asc_status check_duplicate(const asc_ir_module *m, const ir_op *op) {
  return check_vector(m, op, 1,
                      F16 | F32 | I16 | I32 | U16 | U32 | (1u << ASC_UINT8) | (1u << ASC_INT8));
}
static asc_status check_copy(const asc_ir_module *m, const ir_op *op) {
  return check_vector(m, op, 2,
                      F16 | F32 | I16 | I32 | U16 | U32 | (1u << ASC_UINT8) | (1u << ASC_INT8));
}

static asc_status check_data_copy(const asc_ir_module *m, const ir_op *op) {
  const asc_ir_type *dst = ir_type_at(m, op, 0), *src = ir_type_at(m, op, 1);
  if (dst->kind == ASC_IR_GLOBAL && src->kind == ASC_IR_GLOBAL)
    return asc_error(ASC_ERR_COMPILE,
                     "data_copy: both operands are GlobalTensors; copy through a LocalTensor");
  if (dst->dtype != src->dtype)
    return asc_error(ASC_ERR_COMPILE, "data_copy: destination is %s but source is %s",
                     asc_dtype_name(dst->dtype), asc_dtype_name(src->dtype));
  return ASC_OK;
}

static asc_status check_global_value(const asc_ir_module *m, const ir_op *op) {
  (void)m, (void)op;
  return ASC_OK;
}

static asc_status check_local_new(const asc_ir_module *m, const ir_op *op) {
  (void)m;
  if (!ir_kernel_dtype((int)op->iattrs[0]))
    return asc_error(ASC_ERR_COMPILE, "LocalTensor: invalid dtype");
  if (op->iattrs[1] <= ASC_POS_GM || op->iattrs[1] >= ASC_POS_COUNT)
    return asc_error(ASC_ERR_COMPILE, "LocalTensor: position must be a local TPosition, not GM");
  return ASC_OK;
}

static asc_status check_que_new(const asc_ir_module *m, const ir_op *op) {
  (void)m;
  if (op->iattrs[0] <= ASC_POS_GM || op->iattrs[0] >= ASC_POS_COUNT)
    return asc_error(ASC_ERR_COMPILE, "TQue: position must be a local TPosition");
  if (op->iattrs[1] < 0 || op->iattrs[1] > 8)
    return asc_error(ASC_ERR_COMPILE, "TQue: depth must be a constant in [0, 8], got %lld",
                     (long long)op->iattrs[1]);
  return ASC_OK;
}

static asc_status check_dtype_attr(const asc_ir_module *m, const ir_op *op) {
  (void)m;
  if (!ir_kernel_dtype((int)op->iattrs[0]))
    return asc_error(ASC_ERR_COMPILE, "%s: invalid dtype", ir_op_defs[op->code].name);
  return ASC_OK;
}

/* que.enque/free_tensor take a tensor at any position: a tensor dequeued
 * from a VECIN queue may be enqueued into a VECOUT one (queues pass
 * addresses); the runtime checks which buffer it is. */

static asc_status check_event(const asc_ir_module *m, const ir_op *op) {
  (void)m;
  if (op->iattrs[0] < 0 || op->iattrs[0] >= 32)
    return asc_error(ASC_ERR_COMPILE, "%s: unknown HardEvent", ir_op_defs[op->code].name);
  return ASC_OK;
}

/* --- API coverage: checks of the level-0 forms and the APIs added with them --- */

static asc_status check_attr_range(const ir_op *op, int i, int64_t lo, int64_t hi,
                                   const char *what) {
  if (op->iattrs[i] < lo || op->iattrs[i] > hi)
    return asc_error(ASC_ERR_COMPILE, "%s: %s must be in [%lld, %lld], got %lld",
                     ir_op_defs[op->code].name, what, (long long)lo, (long long)hi,
                     (long long)op->iattrs[i]);
  return ASC_OK;
}
/* Operand i: a vector-position LocalTensor whose dtype is in `allowed`. */
asc_status ir_check_local_at(const asc_ir_module *m, const ir_op *op, int i, unsigned allowed,
                             const char *what) {
  const char *name = ir_op_defs[op->code].name;
  const asc_ir_type *t = ir_type_at(m, op, i);
  if (!ir_is_vector_position(t->position))
    return asc_error(ASC_ERR_COMPILE,
                     "%s: %s is a LocalTensor at TPosition.%s; vector instructions need VECIN, "
                     "VECOUT or VECCALC",
                     name, what, ir_position_name(t->position));
  if (!(allowed & (1u << t->dtype)))
    return asc_error(ASC_ERR_COMPILE, "%s does not support a %s %s", name, asc_dtype_name(t->dtype),
                     what);
  return ASC_OK;
}
static asc_status check_int_ops(const asc_ir_module *m, const ir_op *op) {
  return check_vector(m, op, 3, I16 | I32 | U16 | U32);
}
static asc_status check_int_unary(const asc_ir_module *m, const ir_op *op) {
  return check_vector(m, op, 2, I16 | I32 | U16 | U32);
}
static asc_status check_float_ops(const asc_ir_module *m, const ir_op *op) {
  return check_vector(m, op, 3, F16 | F32);
}
/* add_relu: half, float and int16_t (Atlas A2) */
static asc_status check_add_relu(const asc_ir_module *m, const ir_op *op) {
  return check_vector(m, op, 3, F16 | F32 | I16);
}
static asc_status check_axpy(const asc_ir_module *m, const ir_op *op) {
  asc_status st = ir_check_local_at(m, op, 0, F16 | F32, "dst");
  if (!st) st = ir_check_local_at(m, op, 1, F16 | F32, "src");
  asc_dtype d = ir_type_at(m, op, 0)->dtype, s = ir_type_at(m, op, 1)->dtype;
  if (!st && d != s && !(d == ASC_FLOAT32 && s == ASC_FLOAT16))
    return asc_error(ASC_ERR_COMPILE,
                     "axpy: a %s dst needs a %s src (or float16 src with a "
                     "float32 dst), got %s",
                     asc_dtype_name(d), asc_dtype_name(d), asc_dtype_name(s));
  return st;
}
/* cast: count form [mode]; level-0 form [mask kind, is_set_mask, mode]. */
static asc_status check_cast(const asc_ir_module *m, const ir_op *op) {
  unsigned ok = F16 | BF16 | F32 | I8 | U8 | I16 | I32;
  asc_status st = ir_check_local_at(m, op, 0, ok, "dst");
  if (!st) st = ir_check_local_at(m, op, 1, ok, "src");
  if (!st) st = check_attr_range(op, op->niattrs - 1, 0, 6, "round_mode (a RoundMode)");
  return st;
}
/* compare / compare_scalar: integer dst of packed bits, nsrc same-dtype sources. */
static asc_status check_compare_n(const asc_ir_module *m, const ir_op *op, int nsrc) {
  asc_status st = ir_check_local_at(m, op, 0, INTS, "dst (the bit mask)");
  for (int i = 1; !st && i <= nsrc; i++) {
    st = ir_check_local_at(m, op, i, F16 | F32 | I16 | I32, "source");
    if (!st && ir_type_at(m, op, i)->dtype != ir_type_at(m, op, 1)->dtype)
      st = asc_error(ASC_ERR_COMPILE, "%s: src0 is %s but src1 is %s", ir_op_defs[op->code].name,
                     asc_dtype_name(ir_type_at(m, op, 1)->dtype),
                     asc_dtype_name(ir_type_at(m, op, i)->dtype));
  }
  if (!st) st = check_attr_range(op, op->niattrs - 1, 0, 5, "cmp_mode (a CMPMODE)");
  return st;
}
static asc_status check_compare(const asc_ir_module *m, const ir_op *op) {
  return check_compare_n(m, op, 2);
}
static asc_status check_compare_scalar(const asc_ir_module *m, const ir_op *op) {
  return check_compare_n(m, op, 1);
}
/* select (dst, sel_mask, src0, src1 tensor) and selects (..., src1 scalar). */
static asc_status check_select(const asc_ir_module *m, const ir_op *op) {
  const char *name = ir_op_defs[op->code].name;
  bool scalar = name[6] == 's';
  asc_status st = ir_check_local_at(m, op, 1, INTS, "sel_mask");
  for (int i = 0; !st && i < (scalar ? 3 : 4); i++) {
    if (i == 1) continue;
    st = ir_check_local_at(m, op, i, F16 | F32 | I16 | I32, i ? "source" : "dst");
    if (!st && ir_type_at(m, op, i)->dtype != ir_type_at(m, op, 0)->dtype)
      st = asc_error(ASC_ERR_COMPILE, "select: operand %d is %s but dst is %s", i + 1,
                     asc_dtype_name(ir_type_at(m, op, i)->dtype),
                     asc_dtype_name(ir_type_at(m, op, 0)->dtype));
  }
  if (!st) st = check_attr_range(op, op->niattrs - 1, 0, 2, "sel_mode (a SELMODE)");
  if (!st && scalar != (op->iattrs[op->niattrs - 1] == 1))
    st = asc_error(ASC_ERR_COMPILE,
                   "select: SELMODE.VSEL_TENSOR_SCALAR_MODE (1) takes a scalar src1 and the "
                   "other modes a LocalTensor src1");
  return st;
}
static asc_status check_reduce(const asc_ir_module *m, const ir_op *op) {
  return check_vector(m, op, 3, F16 | F32);
}
static asc_status check_reduce2(const asc_ir_module *m, const ir_op *op) {
  asc_status st = check_vector(m, op, 2, F16 | F32);
  if (!st && op->niattrs > 2) st = check_attr_range(op, 2, 0, 3, "order (a ReduceOrder)");
  return st;
}
static asc_status check_data_copy_pad(const asc_ir_module *m, const ir_op *op) {
  const asc_ir_type *dst = ir_type_at(m, op, 0), *src = ir_type_at(m, op, 1);
  if ((dst->kind == ASC_IR_GLOBAL) == (src->kind == ASC_IR_GLOBAL))
    return asc_error(ASC_ERR_COMPILE,
                     "data_copy_pad: copies GM->UB or UB->GM: one operand is a "
                     "GlobalTensor, the other a LocalTensor");
  if (dst->dtype != src->dtype)
    return asc_error(ASC_ERR_COMPILE, "data_copy_pad: destination is %s but source is %s",
                     asc_dtype_name(dst->dtype), asc_dtype_name(src->dtype));
  if (dst->kind == ASC_IR_GLOBAL && op->noperands > 6)
    return asc_error(ASC_ERR_COMPILE, "data_copy_pad: padding applies to GM->UB copies only");
  return ASC_OK;
}
static asc_status check_copy_l0(const asc_ir_module *m, const ir_op *op) {
  return check_vector(m, op, 2, F16 | BF16 | F32 | I16 | I32);
}
static asc_status check_vector_mask(const asc_ir_module *m, const ir_op *op) {
  (void)m;
  asc_status st = check_dtype_attr(m, op);
  if (!st) st = check_attr_range(op, 1, 0, 1, "mode (a MaskMode)");
  return st;
}

/* --- cube unit --------------------------------------------------------------
 * The AIC's positions: A1/B1/C1/C2 live in L1, A2 in L0A, B2 in L0B, CO1 in
 * L0C (src/compiler/rt/cube.h). */
bool ir_is_l1_position(int pos) {
  return pos == ASC_POS_A1 || pos == ASC_POS_B1 || pos == ASC_POS_C1 || pos == ASC_POS_C2;
}
bool ir_cube_input_dtype(asc_dtype d) {
  return d == ASC_FLOAT16 || d == ASC_BFLOAT16 || d == ASC_FLOAT32 || d == ASC_INT8;
}
asc_status ir_cube_position(const asc_ir_module *m, const ir_op *op, int i, bool ok,
                            const char *want) {
  const asc_ir_type *t = ir_type_at(m, op, i);
  if (t->kind == ASC_IR_LOCAL && !ok)
    return asc_error(ASC_ERR_COMPILE,
                     "%s: operand %d is a LocalTensor at TPosition.%s; it must be at %s",
                     ir_op_defs[op->code].name + 5, i + 1, ir_position_name(t->position), want);
  return ASC_OK;
}
/* The loads into L0A/L0B (api names them in errors): dst A2/B2, src A1/B1
 * (or GM); one input dtype. */
asc_status ir_check_cube_load_named(const asc_ir_module *m, const ir_op *op, const char *api) {
  const asc_ir_type *d = ir_type_at(m, op, 0), *s = ir_type_at(m, op, 1);
  asc_status st = ir_cube_position(m, op, 0, d->position == ASC_POS_A2 || d->position == ASC_POS_B2,
                                   "A2 or B2");
  if (!st && s->kind == ASC_IR_LOCAL)
    st = ir_cube_position(m, op, 1, ir_is_l1_position(s->position), "A1 or B1");
  if (st) return st;
  if (d->dtype != s->dtype || !ir_cube_input_dtype((asc_dtype)d->dtype))
    return asc_error(ASC_ERR_COMPILE,
                     "%s: dst and src must both be float16, bfloat16, float32 or int8 (got %s and "
                     "%s)",
                     api, asc_dtype_name((asc_dtype)d->dtype), asc_dtype_name((asc_dtype)s->dtype));
  return ASC_OK;
}
asc_status ir_check_cube_load(const asc_ir_module *m, const ir_op *op) {
  return ir_check_cube_load_named(m, op, "load_data");
}
/* mmad: dst CO1 (float32 for 16-bit floats, int32 for int8), fm A2, filter B2,
 * the bias in GM or L1. PyAsc's front end takes any LocalTensors here: the
 * positions and dtypes are checked when the op runs (ir_cube_mmad_problem,
 * rt/cube_view.h), so only the operand kinds are checked here. */
static asc_status check_cube_mmad(const asc_ir_module *m, const ir_op *op) {
  (void)m, (void)op;
  return ASC_OK;
}
const char *ir_cube_mmad_problem(const asc_ir_module *m, const ir_op *op, char *buf, size_t n) {
  const asc_ir_type *c = ir_type_at(m, op, 0), *a = ir_type_at(m, op, 1), *b = ir_type_at(m, op, 2);
  asc_dtype want = a->dtype == ASC_INT8 ? ASC_INT32 : ASC_FLOAT32;
  if (a->dtype != b->dtype || !ir_cube_input_dtype((asc_dtype)a->dtype) || c->dtype != want) {
    snprintf(buf, n,
             "mmad: fm and filter must be float16, bfloat16, float32 or int8 and dst float32 "
             "(int32 for int8); got dst %s, fm %s, filter %s",
             asc_dtype_name((asc_dtype)c->dtype), asc_dtype_name((asc_dtype)a->dtype),
             asc_dtype_name((asc_dtype)b->dtype));
    return buf;
  }
  if (ir_op_defs[op->code].operands[3] == 'M') {
    const asc_ir_type *bias = ir_type_at(m, op, 3);
    if (bias->dtype != c->dtype) {
      snprintf(buf, n, "mmad: the bias must be %s, not %s", asc_dtype_name((asc_dtype)c->dtype),
               asc_dtype_name((asc_dtype)bias->dtype));
      return buf;
    }
  }
  return NULL;
}
/* fixpipe: src CO1 (float32/int32), dst GM or a vector position. */
/* PyAsc compiles any src and quant vector here: that src is in L0C
 * (float32/int32) and the quant vector in L1 is checked when it runs
 * (ir_cube_fixpipe_problem, rt/cube_view.h). */
static asc_status check_cube_fixpipe(const asc_ir_module *m, const ir_op *op) {
  const asc_ir_type *d = ir_type_at(m, op, 0);
  if (d->kind == ASC_IR_LOCAL)
    return ir_cube_position(m, op, 0, ir_is_vector_position(d->position), "VECIN/VECOUT/VECCALC");
  return ASC_OK;
}
const char *ir_cube_fixpipe_problem(const asc_ir_module *m, const ir_op *op, char *buf, size_t n) {
  const asc_ir_type *s = ir_type_at(m, op, 1);
  if (s->dtype == ASC_FLOAT32 || s->dtype == ASC_INT32) return NULL;
  snprintf(buf, n, "fixpipe: src must be float32 or int32, not %s",
           asc_dtype_name((asc_dtype)s->dtype));
  return buf;
}
/* data_copy with Nd2NzParams: dst in L1, src GM or UB, one dtype. */
/* The operands' positions are a run-time matter, as in PyAsc, which compiles
 * any: the instruction takes a tensor elsewhere by its address in L1 (the
 * hardware's reading), and checked mode reports it (rt/cube_view.h). */
static asc_status check_cube_nd2nz(const asc_ir_module *m, const ir_op *op) {
  const asc_ir_type *d = ir_type_at(m, op, 0), *s = ir_type_at(m, op, 1);
  if (d->dtype != s->dtype)
    return asc_error(ASC_ERR_COMPILE, "data_copy: destination is %s but source is %s",
                     asc_dtype_name((asc_dtype)d->dtype), asc_dtype_name((asc_dtype)s->dtype));
  return ASC_OK;
}
/* data_copy with Nz2NdParamsFull: dst GM, src UB. */
static asc_status check_cube_nz2nd(const asc_ir_module *m, const ir_op *op) {
  const asc_ir_type *d = ir_type_at(m, op, 0), *s = ir_type_at(m, op, 1);
  asc_status st =
      ir_cube_position(m, op, 1, ir_is_vector_position(s->position), "VECIN/VECOUT/VECCALC");
  if (st) return st;
  if (d->dtype != s->dtype)
    return asc_error(ASC_ERR_COMPILE, "data_copy: destination is %s but source is %s",
                     asc_dtype_name((asc_dtype)d->dtype), asc_dtype_name((asc_dtype)s->dtype));
  return ASC_OK;
}
/* --- end of cube unit --- */

static asc_status check_transpose(const asc_ir_module *m, const ir_op *op) {
  return check_vector(m, op, 2, F16 | BF16 | I16);
}
/* gather/scatter: dst and src of one dtype, the offsets a uint32 tensor
 * (Ascend C's type) or an int32 one read as unsigned */
static asc_status check_gather(const asc_ir_module *m, const ir_op *op) {
  asc_status st = ir_check_local_at(m, op, 2, I32 | U32, "offset tensor (uint32 byte offsets)");
  if (!st) st = ir_check_local_at(m, op, 0, F16 | BF16 | F32 | I16 | I32 | U16 | U32, "dst");
  if (!st) st = ir_check_local_at(m, op, 1, F16 | BF16 | F32 | I16 | I32 | U16 | U32, "src");
  if (!st && ir_type_at(m, op, 0)->dtype != ir_type_at(m, op, 1)->dtype)
    st = asc_error(ASC_ERR_COMPILE, "%s: src is %s but dst is %s", ir_op_defs[op->code].name,
                   asc_dtype_name(ir_type_at(m, op, 1)->dtype),
                   asc_dtype_name(ir_type_at(m, op, 0)->dtype));
  return st;
}
static asc_status check_brcb(const asc_ir_module *m, const ir_op *op) {
  return check_vector(m, op, 2, F16 | BF16 | F32 | I16 | I32);
}

/* --- adv library: checks ---------------------------------------------------------------
 * A shared tmp buffer, when given (the last operand, after the tmp_min
 * operand), is a uint8 LocalTensor in a vector position. */
static asc_status check_adv_tmp(const asc_ir_module *m, const ir_op *op, int at) {
  if (op->noperands <= at) return ASC_OK;
  const asc_ir_type *t = ir_type_at(m, op, at);
  const char *name = ir_op_defs[op->code].name;
  if (t->kind != ASC_IR_LOCAL || t->dtype != ASC_UINT8 || !ir_is_vector_position(t->position))
    return asc_error(ASC_ERR_COMPILE,
                     "%s: temp_buffer must be a uint8 LocalTensor at VECIN, VECOUT or VECCALC "
                     "(got %s)",
                     name, asc_dtype_name(t->dtype));
  return ASC_OK;
}
static asc_status check_adv_unary(const asc_ir_module *m, const ir_op *op) {
  asc_status st = check_vector(m, op, 2, F16 | F32);
  return st ? st : check_adv_tmp(m, op, 4);
}
/* exp's taylorExpandLevel is a template argument (uint8_t) in Ascend C. */
static asc_status check_adv_exp(const asc_ir_module *m, const ir_op *op) {
  if (op->iattrs[0] < 0 || op->iattrs[0] > 255)
    return asc_error(ASC_ERR_COMPILE, "adv.exp: taylor_expand_level %lld is outside [0, 255]",
                     (long long)op->iattrs[0]);
  return check_adv_unary(m, op);
}
static asc_status check_adv_power(const asc_ir_module *m, const ir_op *op) {
  asc_status st = check_vector(m, op, 3, F16 | F32);
  return st ? st : check_adv_tmp(m, op, 5);
}
static asc_status check_adv_xor(const asc_ir_module *m, const ir_op *op) {
  asc_status st = check_vector(m, op, 3, I16);
  return st ? st : check_adv_tmp(m, op, 5);
}
/* Mixed axpy: float32 dst with a float16 src, as Ascend C's Axpy<T, U>. */
static asc_status check_adv_axpy(const asc_ir_module *m, const ir_op *op) {
  asc_dtype d = ir_type_at(m, op, 0)->dtype, s = ir_type_at(m, op, 1)->dtype;
  asc_status st = d == ASC_FLOAT32 && s == ASC_FLOAT16 ? check_vector(m, op, 1, F32)
                                                       : check_vector(m, op, 2, F16 | F32);
  if (!st && !ir_is_vector_position(ir_type_at(m, op, 1)->position))
    st = asc_error(ASC_ERR_COMPILE, "adv.axpy: src must be at VECIN, VECOUT or VECCALC");
  return st ? st : check_adv_tmp(m, op, 5);
}
/* softmax: dst and src of one float type; sum and max of it too, or
 * float32 with float16 data. */
static asc_status check_adv_softmax(const asc_ir_module *m, const ir_op *op) {
  asc_dtype d = ir_type_at(m, op, 0)->dtype, r = ir_type_at(m, op, 1)->dtype;
  if (ir_type_at(m, op, 3)->dtype != d)
    return asc_error(ASC_ERR_COMPILE, "adv.softmax: src is %s but dst is %s",
                     asc_dtype_name(ir_type_at(m, op, 3)->dtype), asc_dtype_name(d));
  if (ir_type_at(m, op, 2)->dtype != r || !(r == d || (d == ASC_FLOAT16 && r == ASC_FLOAT32)))
    return asc_error(ASC_ERR_COMPILE,
                     "adv.softmax: sum and max must both be %s (or float32 for float16 data)",
                     asc_dtype_name(d));
  for (int i = 0; i < 4; i++)
    if (!ir_is_vector_position(ir_type_at(m, op, i)->position))
      return asc_error(ASC_ERR_COMPILE, "adv.softmax: operand %d is not at VECIN/VECOUT/VECCALC",
                       i + 1);
  if (!(d == ASC_FLOAT16 || d == ASC_FLOAT32))
    return asc_error(ASC_ERR_COMPILE,
                     "adv.softmax does not support %s tensors (supported: "
                     "float16, float32)",
                     asc_dtype_name(d));
  return check_adv_tmp(m, op, 4 + IR_SOFTMAX_FIELDS + 1);
}
static asc_status check_adv_rmsnorm(const asc_ir_module *m, const ir_op *op) {
  asc_status st = check_vector(m, op, 3, F16 | F32);
  return st ? st : check_adv_tmp(m, op, 3 + IR_RMSNORM_FIELDS + 2);
}
static asc_status check_adv_quant(const asc_ir_module *m, const ir_op *op) {
  asc_status st = check_vector(m, op, 1, 1u << ASC_INT8);
  if (st) return st;
  asc_dtype s = ir_type_at(m, op, 1)->dtype;
  if (!(s == ASC_FLOAT16 || s == ASC_FLOAT32) ||
      !ir_is_vector_position(ir_type_at(m, op, 1)->position))
    return asc_error(ASC_ERR_COMPILE,
                     "adv.quant: src must be a float16 or float32 LocalTensor at "
                     "VECIN/VECOUT/VECCALC, not %s",
                     asc_dtype_name(s));
  return check_adv_tmp(m, op, 6);
}
static asc_status check_adv_concat(const asc_ir_module *m, const ir_op *op) {
  return check_vector(m, op, 3, F16 | F32);
}
static asc_status check_adv_extract(const asc_ir_module *m, const ir_op *op) {
  asc_dtype v = ir_type_at(m, op, 0)->dtype, i = ir_type_at(m, op, 1)->dtype;
  if (ir_type_at(m, op, 2)->dtype != v || !(v == ASC_FLOAT16 || v == ASC_FLOAT32))
    return asc_error(ASC_ERR_COMPILE,
                     "adv.extract: dst_value and src must be float16 or float32 "
                     "of one type");
  if (i != ASC_INT32 && i != ASC_UINT32)
    return asc_error(ASC_ERR_COMPILE,
                     "adv.extract: dst_index must be uint32 (Ascend C's uint32_t) or int32, "
                     "not %s",
                     asc_dtype_name(i));
  for (int k = 0; k < 3; k++)
    if (!ir_is_vector_position(ir_type_at(m, op, k)->position))
      return asc_error(ASC_ERR_COMPILE, "adv.extract: operand %d is not at VECIN/VECOUT/VECCALC",
                       k + 1);
  return ASC_OK;
}

/* --- fwk/core: the atomic store mode and TBufPool --- */
static asc_status check_atomic(const asc_ir_module *m, const ir_op *op) {
  (void)m;
  if (!ir_kernel_dtype((int)op->iattrs[0]) || op->iattrs[1] < 0 || op->iattrs[1] > 6 ||
      op->iattrs[2] < -1 || op->iattrs[2] > 2)
    return asc_error(ASC_ERR_COMPILE, "%s: invalid atomic mode", ir_op_defs[op->code].name);
  return ASC_OK;
}
static asc_status check_sync_all(const asc_ir_module *m, const ir_op *op) {
  const asc_ir_type *gm = ir_type_at(m, op, 0), *ub = ir_type_at(m, op, 1);
  if (gm->dtype != ASC_INT32 || ub->dtype != ASC_INT32)
    return asc_error(ASC_ERR_COMPILE, "sync_all: gm_workspace and ub_workspace must be int32");
  if (!ir_is_vector_position(ub->position))
    return asc_error(ASC_ERR_COMPILE, "sync_all: ub_workspace must be at VECIN, VECOUT or VECCALC");
  return ASC_OK;
}
/* TQueBind [buffer position, depth, src, dst]: GM or vector ends (not both GM), the buffers
 * at the local end (the source when both are local) */
static asc_status check_quebind(const asc_ir_module *m, const ir_op *op) {
  (void)m;
  const int64_t *a = op->iattrs;
  bool gm_src = a[2] == ASC_POS_GM, gm_dst = a[3] == ASC_POS_GM;
  bool ends = (gm_src || ir_is_vector_position((int)a[2])) &&
              (gm_dst || ir_is_vector_position((int)a[3])) && !(gm_src && gm_dst);
  if (!ends || a[0] != (gm_src ? a[3] : a[2]) || a[1] < 0 || a[1] > 8)
    return asc_error(ASC_ERR_COMPILE,
                     "TQueBind: the ends must be GM or VECIN/VECOUT/VECCALC (not both GM), "
                     "depth in [0, 8]");
  return ASC_OK;
}
static asc_status check_bufpool(const asc_ir_module *m, const ir_op *op) {
  (void)m;
  if (!ir_is_vector_position((int)op->iattrs[0]) || op->iattrs[1] < 1 || op->iattrs[1] > 16)
    return asc_error(ASC_ERR_COMPILE,
                     "TBufPool: position must be VECIN/VECOUT/VECCALC and buf_id_size in [1, 16]");
  return ASC_OK;
}

/* --- system and hardware (rt/system.h) --- */
/* data_sync_barrier: iattr 0 a MemDsbT; *_hccl_context: iattr 0 the index;
 * data_cache_clean_and_invalid: iattr 0 a CacheLine, iattr 1 a DcciDst
 * (CACHELINE_UB is reserved). */
static asc_status check_sys_enum(const asc_ir_module *m, const ir_op *op) {
  (void)m;
  const char *name = ir_op_defs[op->code].name;
  if (!strcmp(name, "data_sync_barrier")) return check_attr_range(op, 0, 0, 3, "the MemDsbT");
  if (strstr(name, "hccl_context")) return check_attr_range(op, 0, 0, 1, "the index");
  asc_status st = check_attr_range(op, 0, 0, 1, "the CacheLine");
  if (!st) st = check_attr_range(op, 1, 0, 3, "the DcciDst");
  if (!st && op->iattrs[1] == 1)
    st = asc_error(ASC_ERR_COMPILE,
                   "data_cache_clean_and_invalid: DcciDst.CACHELINE_UB is reserved (not supported "
                   "by the hardware)");
  return st;
}
/* ib_set/ib_wait/notify_next_block/wait_pre_block: an int32 GM workspace
 * and an int32 UB workspace at a vector position. */
static asc_status check_block_sync(const asc_ir_module *m, const ir_op *op) {
  const char *name = ir_op_defs[op->code].name;
  if (ir_type_at(m, op, 0)->dtype != ASC_INT32)
    return asc_error(ASC_ERR_COMPILE, "%s: gm_workspace must be an int32 GlobalTensor, not %s",
                     name, asc_dtype_name(ir_type_at(m, op, 0)->dtype));
  return ir_check_local_at(m, op, 1, I32, "ub_workspace");
}

/* --- layout (rt/layout.h) --- */
/* transpose.ext: dst and src of one 2- or 4-byte dtype, a uint8 tmp buffer,
 * a TransposeType of this form. */
static asc_status check_transpose_ext(const asc_ir_module *m, const ir_op *op) {
  int64_t t = op->iattrs[0];
  if (t < 10 || t > 12)
    return asc_error(ASC_ERR_COMPILE,
                     "transpose: TransposeType %lld is not a form of transpose (it takes "
                     "TRANSPOSE_ND2ND_B16, TRANSPOSE_NCHW2NHWC and TRANSPOSE_NHWC2NCHW)",
                     (long long)t);
  /* TRANSPOSE_ND2ND_B16: 2-byte elements only */
  asc_status st = check_vector(m, op, 2, F16 | BF16 | I16 | (t == 10 ? 0 : F32 | I32));
  if (!st) st = ir_check_local_at(m, op, 2, U8, "shared_tmp_buffer");
  return st;
}
/* bilinear_interpolation: float16 dst/src0/src1, int32 (uint32) offsets, uint8 tmp. */
static asc_status check_bilinear(const asc_ir_module *m, const ir_op *op) {
  asc_status st = ir_check_local_at(m, op, 0, F16, "dst");
  if (!st) st = ir_check_local_at(m, op, 1, F16, "src0");
  if (!st) st = ir_check_local_at(m, op, 2, I32 | U32, "src0_offset (uint32 byte offsets)");
  if (!st) st = ir_check_local_at(m, op, 3, F16, "src1");
  if (!st) st = ir_check_local_at(m, op, 11, U8, "shared_tmp_buffer");
  return st;
}
/* trans_data_to_5hd's address-tensor form: two uint64 LocalTensors of
 * UB addresses at vector positions. */
static asc_status check_trans_5hd_addr_tensor(const asc_ir_module *m, const ir_op *op) {
  asc_status st = ir_check_local_at(m, op, 0, 1u << ASC_UINT64, "dst address tensor (uint64)");
  if (!st) st = ir_check_local_at(m, op, 1, 1u << ASC_UINT64, "src address tensor (uint64)");
  return st;
}
/* trans_data_to_5hd: 32 tensors of one dtype at vector positions. */
static asc_status check_trans_5hd(const asc_ir_module *m, const ir_op *op) {
  asc_status st = ASC_OK;
  for (int i = 0; i < 32 && !st; i++) {
    st = ir_check_local_at(m, op, i, I8 | U8 | F16 | BF16 | I16 | F32 | I32,
                           i < 16 ? "dst_list tensor" : "src_list tensor");
    if (!st && ir_type_at(m, op, i)->dtype != ir_type_at(m, op, 0)->dtype)
      st = asc_error(ASC_ERR_COMPILE, "trans_data_to_5hd: %s[%d] is %s but dst_list[0] is %s",
                     i < 16 ? "dst_list" : "src_list", i % 16,
                     asc_dtype_name(ir_type_at(m, op, i)->dtype),
                     asc_dtype_name(ir_type_at(m, op, 0)->dtype));
  }
  return st;
}

const ir_op_def ir_op_defs[] = {
    [IR_CONST_INT] = {"const.int", "", R_INT, 0, IR_PIPE_NONE, NULL},
    [IR_CONST_FLOAT] = {"const.float", "", R_FLOAT, 0, IR_PIPE_NONE, NULL},
    [IR_CONST_BOOL] = {"const.bool", "", R_BOOL, 0, IR_PIPE_NONE, NULL},
    [IR_VAR] = {"var", "", R_NONE, 0, IR_PIPE_NONE, NULL},
    [IR_LOAD] = {"load", "", R_NONE, 0, IR_PIPE_S, NULL},
    [IR_STORE] = {"store", "", R_NONE, 0, IR_PIPE_S, NULL},
    [IR_FOR] = {"for", "", R_NONE, 0, IR_PIPE_S, NULL},
    [IR_WHILE] = {"while", "", R_NONE, 0, IR_PIPE_S, NULL},
    [IR_IF] = {"if", "", R_NONE, 0, IR_PIPE_S, NULL},
/* the rest of the table: one row per API op (api_table.def) */
#define API(id, op, api, operands, result, niattrs, pipe, check, ...) \
  {op, operands, result, niattrs, pipe, check},
#define PYAPI(api, how)
#include "api_table.def"
#undef API
#undef PYAPI
};

const int ir_op_count = (int)(sizeof ir_op_defs / sizeof ir_op_defs[0]);
_Static_assert(sizeof ir_op_defs / sizeof ir_op_defs[0] == IR_OP_END_,
               "IR_OP_<id> codes (ir_internal.h) are the table's rows");

int ir_find_op(const char *name) {
  for (int i = 0; i < ir_op_count; i++)
    if (!strcmp(ir_op_defs[i].name, name)) return i;
  return -1;
}

const char *ir_kind_name(asc_ir_kind kind) {
  static const char *const names[ASC_IR_KIND_COUNT] = {
      "void",         "bool",        "int",   "float", "GlobalAddress",
      "GlobalTensor", "LocalTensor", "TPipe", "TQue",  "TBuf"};
  return (unsigned)kind < ASC_IR_KIND_COUNT ? names[kind] : "?";
}

const char *ir_position_name(int position) {
  static const char *const names[ASC_POS_COUNT] = {
      "GM", "A1", "A2", "B1", "B2", "C1", "C2", "CO1", "CO2", "VECIN", "VECOUT", "VECCALC"};
  return position >= 0 && position < ASC_POS_COUNT ? names[position] : "?";
}

static bool letter_accepts(char letter, asc_ir_kind k) {
  switch (letter) {
    case 'I':
    case 'B':
      return k == ASC_IR_INT || k == ASC_IR_BOOL;
    case 'N':
    case '*':
      return k == ASC_IR_INT || k == ASC_IR_BOOL || k == ASC_IR_FLOAT;
    case '+':
      return k == ASC_IR_INT || k == ASC_IR_BOOL || k == ASC_IR_FLOAT || k == ASC_IR_ADDR;
    case 'A':
      return k == ASC_IR_ADDR;
    case 'G':
      return k == ASC_IR_GLOBAL;
    case 'L':
      return k == ASC_IR_LOCAL;
    case 'M':
      return k == ASC_IR_GLOBAL || k == ASC_IR_LOCAL;
    case 'P':
      return k == ASC_IR_PIPE;
    case 'Q':
      return k == ASC_IR_QUE;
    case 'T':
      return k == ASC_IR_TBUF;
    default:
      return false;
  }
}

static const char *letter_name(char letter) {
  switch (letter) {
    case 'I':
      return "an int";
    case 'B':
      return "a bool";
    case 'N':
    case '*':
      return "a number";
    case '+':
      return "a number or a GlobalAddress";
    case 'A':
      return "a GlobalAddress";
    case 'G':
      return "a GlobalTensor";
    case 'L':
      return "a LocalTensor";
    case 'M':
      return "a GlobalTensor or LocalTensor";
    case 'P':
      return "a TPipe";
    case 'Q':
      return "a TQue";
    default:
      return "a TBuf";
  }
}

static asc_status check_operands(const asc_ir_module *m, const ir_op *op, const ir_op_def *def) {
  const char *sig = def->operands;
  int required = 0, total = 0;
  bool variadic = false, optional = false;
  for (const char *c = sig; *c; c++) {
    if (*c == '?')
      optional = true;
    else if (*c == '*' || *c == '+')
      variadic = true;
    else {
      total++;
      if (!optional) required++;
    }
  }
  if (op->noperands < required || (!variadic && op->noperands > total))
    return asc_error(ASC_ERR_COMPILE, "%s takes %d%s argument%s, got %d", def->name, required,
                     variadic ? " or more" : (total > required ? " or more" : ""),
                     required == 1 ? "" : "s", op->noperands);
  if (op->niattrs < def->niattrs)
    return asc_error(ASC_ERR_INTERNAL, "%s needs %d attributes", def->name, def->niattrs);
  const char *c = sig;
  for (int i = 0; i < op->noperands; i++) {
    while (*c == '?') c++;
    char letter = *c ? *c : '*';
    asc_ir_kind k = m->values[op->operands[i]].type.kind;
    if (!letter_accepts(letter, k))
      return asc_error(ASC_ERR_COMPILE, "%s: argument %d must be %s, not %s", def->name, i + 1,
                       letter_name(letter), ir_kind_name(k));
    if (*c && *c != '*' && *c != '+') c++;
  }
  return ASC_OK;
}

asc_status ir_check_op(const asc_ir_module *m, const ir_op *op, asc_ir_type *result) {
  const ir_op_def *def = &ir_op_defs[op->code];
  asc_status st = check_operands(m, op, def);
  if (!st && def->check) st = def->check(m, op);
  if (st) return st;
  asc_ir_type r = {ASC_IR_VOID, 0, 0, 0};
  const asc_ir_type *t0 = op->noperands ? ir_type_at(m, op, 0) : NULL;
  switch (def->result) {
    case R_NONE:
      break;
    case R_INT:
      r.kind = ASC_IR_INT;
      break;
    case R_BOOL:
      r.kind = ASC_IR_BOOL;
      break;
    case R_FLOAT:
      r.kind = ASC_IR_FLOAT;
      break;
    case R_ARITH: {
      bool any_float = false;
      for (int i = 0; i < op->noperands; i++)
        any_float |= ir_type_at(m, op, i)->kind == ASC_IR_FLOAT;
      r.kind = any_float ? ASC_IR_FLOAT : ASC_IR_INT;
      break;
    }
    case R_SAME0:
      r = *t0;
      break;
    case R_GLOBAL:
      r = *t0;
      r.kind = ASC_IR_GLOBAL;
      break;
    case R_LOCAL_A0:
      r.kind = ASC_IR_LOCAL;
      r.dtype = (uint8_t)op->iattrs[0];
      r.position = (uint8_t)op->iattrs[1];
      break;
    case R_LOCAL_QUE:
      r.kind = ASC_IR_LOCAL;
      r.dtype = (uint8_t)op->iattrs[0];
      r.position = t0->position;
      break;
    case R_LOCAL_CAST:
      r = *t0;
      r.dtype = (uint8_t)op->iattrs[0];
      break;
    case R_PIPE:
      r.kind = ASC_IR_PIPE;
      break;
    case R_QUE:
      r.kind = ASC_IR_QUE;
      r.position = (uint8_t)op->iattrs[0];
      r.depth = (uint8_t)op->iattrs[1];
      break;
    case R_TBUF:
      r.kind = ASC_IR_TBUF;
      r.position = (uint8_t)op->iattrs[0];
      break;
    case R_ADDR:
      r = *t0;
      r.kind = ASC_IR_ADDR;
      break;
    case R_SCALAR_ELEM:
      r.kind = asc_dtype_is_float((asc_dtype)t0->dtype) ? ASC_IR_FLOAT : ASC_IR_INT;
      break;
    case R_ADDR_U8:
      r.kind = ASC_IR_ADDR;
      r.dtype = ASC_UINT8;
      break;
    case R_ADDR_A0:
      r.kind = ASC_IR_ADDR;
      r.dtype = (uint8_t)op->iattrs[0];
      break;
    case R_GLOBAL_A0:
      r.kind = ASC_IR_GLOBAL;
      r.dtype = (uint8_t)op->iattrs[0];
      break;
  }
  *result = r;
  return ASC_OK;
}
