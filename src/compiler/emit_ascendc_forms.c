/* The Ascend C forms of API ops: the table built from api_table.def's ac_*
 * columns and the forms a template cannot say, the mask (level-0) forms
 * and the cube unit's. The forms of the sort, AIPP, DEQSCALE and img2col
 * units are in their own files. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emit_ascendc.h"

/* --- mask forms ------------------------------------------------------------------ */

/* A mask word as a uint64_t: IR words hold its bits as int64. */
static void print_word(ac_emitter *e, uint32_t v, ir_buf *b) {
  const ir_op *d = ac_def_op(e, v);
  if (ac_is_const(e, v) && d->code == IR_CONST_INT) {
    if (d->ival >= 0 && d->ival <= INT32_MAX)
      ir_buf_printf(b, "%lld", (long long)d->ival);
    else
      ir_buf_printf(b, "0x%llxULL", (unsigned long long)(uint64_t)d->ival);
    return;
  }
  ir_buf_printf(b, "(uint64_t)");
  ac_operand(e, v, P_UNARY, b);
}

/* A bit mask (attribute 0 is 1) is an array: a block declares it, low
 * word first, around the call. */
bool ac_open_mask(ac_emitter *e, const ir_op *op, int m0) {
  if (op->iattrs[0] != 1) return false;
  ac_line_start(e);
  ir_buf_printf(e->out, "{\n");
  e->depth++;
  ac_line_start(e);
  ir_buf_printf(e->out, "uint64_t pyasc_mask[2] = {");
  print_word(e, op->operands[m0], e->out);
  ir_buf_printf(e->out, ", ");
  print_word(e, op->operands[m0 + 1], e->out);
  ir_buf_printf(e->out, "};\n");
  return true;
}

void ac_close_mask(ac_emitter *e, bool opened) {
  if (!opened) return;
  e->depth--;
  ac_line_start(e);
  ir_buf_printf(e->out, "}\n");
}

/* The mask argument: the array, or a continuous mask of the API's type. */
void ac_print_mask(ac_emitter *e, const ir_op *op, int m0, const char *type, ir_buf *b) {
  uint32_t v = op->operands[m0];
  const ir_op *d = ac_def_op(e, v);
  if (op->iattrs[0] == 1) {
    ir_buf_printf(b, "pyasc_mask");
  } else if (ac_is_const(e, v) && d->code == IR_CONST_INT && d->ival > 0 && d->ival <= INT32_MAX) {
    ir_buf_printf(b, "%lld", (long long)d->ival);
  } else {
    ir_buf_printf(b, "(%s)", type);
    ac_operand(e, v, P_UNARY, b);
  }
}

/* bilinear_interpolation: the offsets as uint32, the mask as for the mask forms. */
static int ac_bilinear(ac_emitter *e, const ir_op *op, ir_buf *b) {
  bool block = ac_open_mask(e, op, 4);
  ac_line_start(e);
  ac_expand(e, op, "AscendC::BilinearInterpolation($0, $1, $p2.ReinterpretCast<uint32_t>(), $3, ",
            b);
  ac_print_mask(e, op, 4, "uint64_t", b);
  /* templates name operands 0-9: v_repeat and the tmp buffer are 10 and 11 */
  ac_expand(e, op, ", (uint8_t)$u6, $7, (uint16_t)$u8, (uint16_t)$u9, (uint8_t)", b);
  ac_operand(e, op->operands[10], P_UNARY, b);
  ir_buf_printf(b, ", ");
  ac_operand(e, op->operands[11], P_ANY, b);
  ir_buf_printf(b, ");\n");
  ac_close_mask(e, block);
  return P_PRIMARY;
}

/* Gather / Scatter mask forms: (dst, src, offsets as uint32, base, mask,
 * repeatTime, dst/src repeat stride). */
static int ac_gather_l0(ac_emitter *e, const ir_op *op, ir_buf *b) {
  const ac_op *row = ac_find_mapping(op->code);
  bool block = ac_open_mask(e, op, 4);
  ac_line_start(e);
  ir_buf_printf(b, "AscendC::%s", row->text);
  ac_expand(e, op, "($0, $1, $p2.ReinterpretCast<uint32_t>(), (uint32_t)$u3, ", b);
  ac_print_mask(e, op, 4, "uint64_t", b);
  ac_expand(e, op,
            strcmp(row->text, "Gather") ? ", (uint8_t)$u6, (uint8_t)$u7);\n"
                                        : ", (uint8_t)$u6, (uint16_t)$u7);\n",
            b);
  ac_close_mask(e, block);
  return P_PRIMARY;
}

/* Name<targs, false> when the caller set the mask register itself. */
void ac_print_api(ac_emitter *e, const ir_op *op, const char *name, const char *targs,
                  int set_mask_attr, ir_buf *b) {
  ir_buf_printf(b, "AscendC::%s", name);
  if (!op->iattrs[set_mask_attr]) {
    ir_buf_printf(b, "<");
    ac_expand(e, op, targs, b);
    ir_buf_printf(b, ", false>");
  }
}

/* Op(dst, srcs..., [scalar,] [mode,] mask, repeatTime, XRepeatParams(strides)) */
static int ac_mask_form(ac_emitter *e, const ir_op *op, ir_buf *b) {
  const ac_op *row = ac_find_mapping(op->code);
  const ac_masked *l = row->masked;
  int m0 = l->tensors + (l->scalar ? 1 : 0);
  bool block = ac_open_mask(e, op, m0);
  ac_line_start(e);
  ac_print_api(e, op, row->text, l->targs, 1, b);
  ir_buf_printf(b, "(");
  for (int i = 0; i < l->tensors; i++) {
    ac_operand(e, op->operands[i], P_ANY, b);
    ir_buf_printf(b, ", ");
  }
  if (l->scalar) {
    char scalar[4] = {'$', 'c', (char)('0' + l->tensors), 0};
    ac_expand(e, op, scalar, b);
    ir_buf_printf(b, ", ");
  }
  if (l->mode) {
    ac_print_enum(e, op, l->mode, 2, b);
    ir_buf_printf(b, ", ");
  }
  ac_print_mask(e, op, m0, "uint64_t", b);
  ir_buf_printf(b, ", ");
  ac_operand(e, op->operands[m0 + 2], P_ANY, b);
  bool plain = l->params && !*l->params;
  if (plain)
    ir_buf_printf(b, ", ");
  else
    ir_buf_printf(b, ", AscendC::%sRepeatParams(",
                  l->params          ? l->params
                  : l->nstrides == 6 ? "Binary"
                                     : "Unary");
  for (int i = 0; i < l->nstrides; i++) {
    if (i) ir_buf_printf(b, ", ");
    ac_operand(e, op->operands[m0 + 3 + i], P_ANY, b);
  }
  ir_buf_printf(b, plain ? ");\n" : "));\n");
  ac_close_mask(e, block);
  return P_PRIMARY;
}

/* ReduceSum/Max/Min(dst, src, tmp, mask, repeatTime, srcRepStride[, calIndex]) */
static int ac_reduce_mask(ac_emitter *e, const ir_op *op, ir_buf *b) {
  const ac_op *row = ac_find_mapping(op->code);
  bool block = ac_open_mask(e, op, 3);
  ac_line_start(e);
  ac_expand(e, op, row->text, b);
  ir_buf_printf(b, "(");
  ac_expand(e, op, "$0, $1, $2, ", b);
  ac_print_mask(e, op, 3, "int32_t", b);
  ac_expand(e, op, strcmp(row->text, "AscendC::ReduceSum") ? ", $5, $6, $eb1);\n" : ", $5, $6);\n",
            b);
  ac_close_mask(e, block);
  return P_PRIMARY;
}

/* The per-repeat reductions. WholeReduce* take the mask before repeatTime,
 * BlockReduce* and PairReduceSum after it. */
static int ac_repeat_reduce(ac_emitter *e, const ir_op *op, ir_buf *b) {
  const ac_op *row = ac_find_mapping(op->code);
  bool whole = !strncmp(row->text, "Whole", 5);
  bool block = ac_open_mask(e, op, 2);
  ac_line_start(e);
  ac_print_api(e, op, row->text, "$t0", 1, b);
  ac_expand(e, op, "($0, $1, ", b);
  if (!whole) ac_expand(e, op, "$4, ", b);
  ac_print_mask(e, op, 2, "int32_t", b);
  if (whole) ac_expand(e, op, ", $4", b);
  ac_expand(
      e, op,
      whole && strcmp(row->text, "WholeReduceSum") ? ", $5, $6, $7, $eo2);\n" : ", $5, $6, $7);\n",
      b);
  ac_close_mask(e, block);
  return P_PRIMARY;
}

/* SetVectorMask<T, mode>(len) or (maskHigh, maskLow): attribute 2 says which. */
static int ac_set_vector_mask(ac_emitter *e, const ir_op *op, ir_buf *b) {
  ac_expand(e, op, "AscendC::SetVectorMask<$et0, $em1>(", b);
  if (op->iattrs[2]) {
    print_word(e, op->operands[0], b);
    ir_buf_printf(b, ", ");
    print_word(e, op->operands[1], b);
  } else {
    ac_operand(e, op->operands[0], P_ANY, b);
  }
  ir_buf_printf(b, ")");
  return P_PRIMARY;
}

/* DataCopyPad: GM->UB takes padding parameters (none given: no padding). */
static int ac_data_copy_pad(ac_emitter *e, const ir_op *op, ir_buf *b) {
  ac_expand(e, op, "AscendC::DataCopyPad($0, $1, AscendC::DataCopyExtParams($2, $3, $4, $5, 0)", b);
  if (ac_type_of(e, op->operands[0]).kind == ASC_IR_LOCAL) {
    if (op->noperands > 6)
      ac_expand(e, op, ", AscendC::DataCopyPadExtParams<$t0>($6, $7, $8, $c9)", b);
    else
      ac_expand(e, op, ", AscendC::DataCopyPadExtParams<$t0>(false, 0, 0, 0)", b);
  }
  ir_buf_printf(b, ")");
  return P_PRIMARY;
}

static const ac_masked L0_BINARY = {3, false, 0, 6, "$t0", NULL};
static const ac_masked L0_SCALAR = {2, true, 0, 4, "$t0", NULL};
static const ac_masked L0_UNARY = {2, false, 0, 4, "$t0", NULL};
static const ac_masked L0_COPY = {2, false, 0, 4, "$t0", "Copy"}; /* CopyRepeatParams */
/* Duplicate(dst, scalar, mask, repeatTime, dstBlockStride, dstRepeatStride) */
static const ac_masked L0_DUP = {1, true, 0, 2, "$t0", ""};
static const ac_masked L0_AXPY = {2, true, 0, 4, "$t0, $t1", NULL};    /* Axpy<dst T, src U> */
static const ac_masked L0_CAST = {2, false, 'r', 4, "$t0, $t1", NULL}; /* Cast<dst T, src U> */
static const ac_masked L0_CMP = {3, false, 'k', 6, "$t1, $t0", NULL};  /* Compare<src T, dst U> */
static const ac_masked L0_CMPS = {2, true, 'k', 4, "$t1, $t0", NULL};
static const ac_masked L0_SEL = {4, false, 's', 6, "$t0, $t1", NULL}; /* Select<T, mask U> */
static const ac_masked L0_SELS = {3, true, 's', 6, "$t0, $t1", NULL};
/* AddDeqRelu<dst T, src U[, isSetMask]> mask forms */
static const ac_masked L0_DEQ = {3, false, 0, 6, "$t0, $t1", NULL};
/* AddReluCast / SubReluCast / MulCast<dst T, src U[, isSetMask]> mask forms */
static const ac_masked L0_FCAST = {3, false, 0, 6, "$t0, $t1", NULL};

#define D(x) (1u << ASC_##x)
#define VEC_16_32 (D(FLOAT16) | D(BFLOAT16) | D(FLOAT32) | D(INT16) | D(INT32))

/* --- cube unit ------------------------------------------------------------------
 * Fixpipe<dst T, src U, config>(dst, src, FixpipeParamsV220): the quant mode
 * and scale are fields of the params, set in an immediately invoked lambda. */
static const char *const quant_modes[] = {"NoQuant",      "F322F16", "F322BF16",
                                          "DEQF16",       "VDEQF16", "QF322B8_PRE",
                                          "VQF322B8_PRE", "REQ8",    "VREQ8"};
static int ac_cube_fixpipe(ac_emitter *e, const ir_op *op, ir_buf *b) {
  const ir_op *q = ac_def_op(e, op->operands[6]);
  int64_t quant = q && q->code == IR_CONST_INT ? q->ival : -1;
  if (quant < 0 || quant >= (int64_t)(sizeof quant_modes / sizeof quant_modes[0])) {
    ac_fail(e, op, ASC_ERR_UNSUPPORTED, "fixpipe: quant_pre must be a constant QuantModes value");
    return P_PRIMARY;
  }
  ac_expand(e, op, "AscendC::Fixpipe<$t0, $t1, ", b);
  ir_buf_printf(b, "%s>(", op->iattrs[0] & 1 ? "AscendC::CFG_NZ" : "AscendC::CFG_ROW_MAJOR");
  /* Fixpipe(dst, src[, cbufWorkspace], params) */
  if (op->noperands <= 12)
    ac_expand(e, op, "$0, $1, ", b);
  else if (ac_type_of(e, op->operands[12]).dtype == ASC_UINT64)
    ac_expand(e, op, "$0, $1, $12, ", b);
  else /* Ascend C's workspace is a LocalTensor<uint64_t> */
    ac_expand(e, op, "$0, $1, $p12.ReinterpretCast<uint64_t>(), ", b);
  ac_expand(e, op, "[&]() {\n    AscendC::FixpipeParamsV220 p($2, $3, $4, $5, $7);\n", b);
  ir_buf_printf(b, "    p.quantPre = QuantMode_t::%s;\n", quant_modes[quant]);
  if (op->iattrs[0] & 2) ir_buf_printf(b, "    p.isChannelSplit = true;\n");
  /* several ND matrices: the fields after the constructor's (one matrix
   * keeps the text it always had) */
  const ir_op *nd = ac_def_op(e, op->operands[9]);
  if (!nd || nd->code != IR_CONST_INT || nd->ival != 1)
    ac_expand(e, op, "    p.ndNum = $9;\n    p.srcNdStride = $10;\n    p.dstNdStride = $11;\n", b);
  const ir_op *d = ac_def_op(e, op->operands[8]);
  if (quant == 3 || quant == 5 || quant == 7) { /* scalar scales: the fp32's bits */
    if (!d || d->code != IR_CONST_FLOAT) {
      ac_fail(e, op, ASC_ERR_UNSUPPORTED, "fixpipe: deq_scalar must be a constant for Ascend C");
      return P_PRIMARY;
    }
    float f = (float)d->fval;
    uint32_t bits;
    memcpy(&bits, &f, sizeof bits);
    ir_buf_printf(b, "    p.deqScalar = 0x%08xULL;\n", bits);
  }
  ir_buf_printf(b, "    return p;\n  }())");
  return P_PRIMARY;
}

/* data_copy(dst, L0C, DataCopyCO12DstParams): iattrs quant mode, NZ output */
static int ac_cube_co12(ac_emitter *e, const ir_op *op, ir_buf *b) {
  const int64_t quant = op->iattrs[0];
  if (quant < 0 || quant >= (int64_t)(sizeof quant_modes / sizeof quant_modes[0])) {
    ac_fail(e, op, ASC_ERR_UNSUPPORTED, "data_copy: unknown QuantModes value");
    return P_PRIMARY;
  }
  ac_expand(e, op, "AscendC::DataCopy($0, $1, AscendC::DataCopyCO12DstParams($2, $3, $4, $5, ", b);
  ir_buf_printf(b, "QuantMode_t::%s, ", quant_modes[quant]);
  ac_expand(e, op, "$6, ", b);
  ir_buf_printf(b, "false, %s))", op->iattrs[1] ? "false" : "true");
  return P_PRIMARY;
}

/* asc.adv.Matmul: Matmul<MatmulType<pos, format, T, trans> A, B, C> mm; */
static int ac_mm_new(ac_emitter *e, const ir_op *op, ir_buf *b) {
  /* flags bits 6..14: the LayoutMode of A, B, C, 3 bits each (none given: NONE) */
  static const char *const lays[8] = {"",
                                      ", LayoutMode::NORMAL",
                                      ", LayoutMode::BSNGD",
                                      ", LayoutMode::SBNGD",
                                      ", LayoutMode::BNGS1S2",
                                      "",
                                      "",
                                      ""};
  /* flags bits 15, 18, 21: A's, B's and bias's positions (matmul.py's codes) */
  static const char *const pos[8] = {"GM", "VECIN", "VECOUT", "VECCALC", "TSCM", "GM", "GM", "GM"};
  int flags = (int)op->iattrs[3];
  const char *in = ac_elem_type((int)op->iattrs[1]), *out = ac_elem_type((int)op->iattrs[2]);
  const char *la = lays[(flags >> 6) & 7], *lb = lays[(flags >> 9) & 7],
             *lc = lays[(flags >> 12) & 7];
  ac_line_start(e);
  ir_buf_printf(
      b,
      "AscendC::Matmul<AscendC::MatmulType<AscendC::TPosition::%s, CubeFormat::%s, %s, %s%s>, "
      "AscendC::MatmulType<AscendC::TPosition::%s, CubeFormat::%s, %s, %s%s>, "
      "AscendC::MatmulType<AscendC::TPosition::%s, CubeFormat::%s, %s%s%s>",
      pos[(flags >> 15) & 7], flags & 1 ? "NZ" : "ND", in, flags & 8 ? "true" : "false", la,
      pos[(flags >> 18) & 7], flags & 2 ? "NZ" : "ND", in, flags & 16 ? "true" : "false", lb,
      flags & 32 ? "VECCALC" : "GM", flags & 4 ? "NZ" : "ND", out, *lc ? ", false" : "", lc);
  /* a bias in the UB names its type (Ascend C's default BiasType is GM) */
  if ((flags >> 21) & 7)
    ir_buf_printf(b, ", AscendC::MatmulType<AscendC::TPosition::%s, CubeFormat::ND, %s>",
                  pos[(flags >> 21) & 7],
                  (int)op->iattrs[1] == (int)ASC_INT8 ? "int32_t" : "float");
  ir_buf_printf(b, "> %s;\n", e->values[op->result].name);
  return P_PRIMARY;
}
/* matmul.layout: Init takes the layout axes from the tiling itself. */
static int ac_mm_layout(ac_emitter *e, const ir_op *op, ir_buf *b) {
  (void)op;
  ac_line_start(e);
  ir_buf_printf(b, "// layout axes: Init reads the tiling's *LayoutInfo* fields\n");
  return P_PRIMARY;
}
/* An op whose Ascend C is another's (Init reads the tiling whole). */
static int ac_mm_nothing(ac_emitter *e, const ir_op *op, ir_buf *b) {
  (void)e, (void)op, (void)b;
  return P_PRIMARY;
}
/* register_matmul/init: Ascend C takes the kernel's TCubeTiling parameter
 * whole (its local copy has the parameter's name: the first part of a
 * member's path); the shapes are also set explicitly, as the simulator
 * reads them. */
static int ac_mm_init(ac_emitter *e, const ir_op *op, ir_buf *b) {
  const char *path = e->m->values[op->operands[1]].member;
  const char *slash = path ? strchr(path, '/') : NULL;
  if (!slash || slash == path || slash - path > 64) {
    ac_fail(
        e, op, ASC_ERR_UNSUPPORTED,
        "Matmul.init: Ascend C needs the kernel's TCubeTiling parameter itself (pass the tiling "
        "unchanged)");
    return P_PRIMARY;
  }
  ac_line_start(e);
  ir_buf_printf(
      b, "REGIST_MATMUL_OBJ(AscendC::GetTPipePtr(), AscendC::GetSysWorkSpacePtr(), %s, &%.*s);\n",
      e->values[op->operands[0]].name, (int)(slash - path), path);
  ac_line_start(e);
  ac_expand(e, op, "$p0.SetOrgShape($1, $2, $3, $4);\n", b);
  ac_line_start(e);
  ac_expand(e, op, "$p0.SetSingleShape($5, $6, $7);\n", b);
  ac_line_start(e);
  ac_expand(e, op, "(void)$8, (void)$9, (void)", b); /* one-digit templates: operand 10 by hand */
  ac_operand(e, op->operands[10], P_UNARY, b);
  ir_buf_printf(b, ";  // base block: Init reads it from the tiling\n");
  return P_PRIMARY;
}
static int ac_mm_set_tensor(ac_emitter *e, const ir_op *op, ir_buf *b) {
  static const char *const forms[] = {"$p0.SetTensorA($1, $2)", "$p0.SetTensorB($1, $2)",
                                      "$p0.SetBias($1)"};
  ac_expand(e, op, forms[op->iattrs[0] >= 0 && op->iattrs[0] < 3 ? op->iattrs[0] : 2], b);
  return P_PRIMARY;
}
/* set_l2_cache_hint: PyAsc's CacheMode values (NORMAL 0, DISABLE 1) by name */
static int ac_l2_hint(ac_emitter *e, const ir_op *op, ir_buf *b) {
  static const char *const modes[] = {"NORMAL", "DISABLE", "LAST", "NORMAL", "PERSISTENT"};
  static const char *const rw[] = {"RW", "READ", "WRITE", "RW"};
  int64_t m = op->iattrs[0], w = op->iattrs[1];
  ac_expand(e, op, "$p0", b);
  ir_buf_printf(b, ".SetL2CacheHint<AscendC::CacheRwMode::%s>(AscendC::CacheMode::CACHE_MODE_%s)",
                rw[w >= 0 && w < 4 ? w : 3], modes[m >= 0 && m < 5 ? m : 0]);
  return P_PRIMARY;
}
static int ac_mm_shape(ac_emitter *e, const ir_op *op, ir_buf *b) {
  ac_expand(e, op, op->iattrs[0] ? "$p0.SetOrgShape($1, $2, $3, $4)" : "$p0.SetTail($1, $2, $3)",
            b);
  return P_PRIMARY;
}
/* CrossCoreSetFlag<modeId, pipe>(flagId) and CrossCoreWaitFlag<...> [pipe, mode] */
static int ac_cross_core(ac_emitter *e, const ir_op *op, ir_buf *b) {
  bool wait = op->code == IR_OP_CUBE_CROSS_WAIT;
  ir_buf_printf(b, "AscendC::CrossCore%sFlag<%lld, ", wait ? "Wait" : "Set",
                (long long)op->iattrs[1]);
  ac_expand(e, op, "$I>($0)", b);
  return P_PRIMARY;
}
/* SetTensorA/SetTensorB(scalar), the scalar in the operands' type */
static int ac_mm_set_scalar(ac_emitter *e, const ir_op *op, ir_buf *b) {
  ac_expand(e, op, op->iattrs[0] ? "$p0.SetTensorB($1)" : "$p0.SetTensorA($1)", b);
  return P_PRIMARY;
}
static int ac_mm_flag(ac_emitter *e, const ir_op *op, ir_buf *b) {
  static const char *const calls[] = {"$p0.DisableBias()", "$p0.WaitIterateAll()",
                                      "$p0.WaitGetTensorC()"};
  int64_t which = op->iattrs[0];
  ac_expand(e, op, calls[which >= 0 && which <= 2 ? which : 0], b);
  return P_PRIMARY;
}
/* The launch's core kind, when the kernel's options fix it (rt/mix.h). */
static int ac_core_mode(ac_emitter *e, const ir_op *op, ir_buf *b) {
  static const char *const kinds[] = {"KERNEL_TYPE_MIX_AIC_1_2", "KERNEL_TYPE_AIC_ONLY",
                                      "KERNEL_TYPE_MIX_AIC_1_2", "KERNEL_TYPE_AIV_ONLY"};
  (void)e;
  int64_t mode = op->iattrs[0];
  ir_buf_printf(b, "KERNEL_TASK_TYPE_DEFAULT(%s)", kinds[mode >= 1 && mode <= 3 ? mode : 0]);
  return P_PRIMARY;
}
static int ac_mm_count(ac_emitter *e, const ir_op *op, ir_buf *b) {
  (void)b;
  ac_fail(e, op, ASC_ERR_UNSUPPORTED,
          "Matmul.iterate's count (with mm.iterate() as count) has no Ascend C form yet");
  return P_PRIMARY;
}
/* --- end of cube unit --- */

/* The Ascend C form of every IR op: the ac_* columns of its row in
 * api_table.def. Usually a template (see ac_expand) of its call, e.g.
 * "AscendC::Add($0, $1, $2, $3)"; AC_PURE if it may be folded into its use;
 * a special function when the form depends on operands or attributes. Op
 * results are declared as `T name = <text>;`, ops without one become
 * `<text>;`.
 * Sources: docs/kernel-reference.md (PyAsc's documented Ascend C
 * prototypes and template parameters); Huawei's Ascend C API reference
 * (hiascend.com, CANN 8.x) for the LocalTensor static-tensor constructor
 * LocalTensor<T>(TPosition, addr, tileSize), Copy (mask forms only, 16/32-bit
 * types), Duplicate (no int8 form), printf/PRINTF (AscendC::printf), Trap,
 * and the reductions, whose mask comes before repeatTime for WholeReduce*
 * but after it for BlockReduce* and PairReduceSum (the API headers; PyAsc's
 * WholeReduceSum docstring has it the other way round). */
static const ac_op ascendc_ops[] = {
#define API(id, op, api, operands, result, niattrs, pipe, check, c_emit, c_rt, text, prec, flags, \
            dtypes, special, masked)                                                              \
  {op, text, prec, flags, dtypes, special, masked},
#define PYAPI(api, how)
#include "api_table.def"
#undef API
#undef PYAPI
};

#undef D
#undef VEC_16_32

const ac_op *ac_find_mapping(int code) {
  size_t row = (size_t)(code - IR_FIRST_TABLE_OP);
  if (code < IR_FIRST_TABLE_OP || row >= sizeof ascendc_ops / sizeof ascendc_ops[0]) return NULL;
  return ascendc_ops[row].text || ascendc_ops[row].special ? &ascendc_ops[row] : NULL;
}

int ac_expr_of(ac_emitter *e, const ir_op *op, ir_buf *b) {
  const ac_op *map = ac_find_mapping(op->code);
  if (!map) return P_PRIMARY; /* reported when the sites were collected */
  if (map->special) return map->special(e, op, b);
  if (map->flags & AC_INFIX) {
    ac_infix(e, op, map->text, map->prec, b);
    return map->prec;
  }
  ac_expand(e, op, map->text, b);
  return map->prec;
}
