/* Ascend C expressions: C++ types and names of values, literals, operand
 * text at a precedence, the templates of api_table.def's ac_text column
 * (ac_expand), and the forms of scalar arithmetic that keep Python's
 * semantics through helpers. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emit_ascendc.h"

/* --- types and names ------------------------------------------------------------ */

asc_ir_type ac_type_of(const ac_emitter *e, uint32_t v) {
  return e->m->values[v].type;
}

const char *ac_elem_type(int dtype) {
  static const char *const names[ASC_DTYPE_COUNT] = {
      [ASC_BOOL] = "bool",      [ASC_INT8] = "int8_t",         [ASC_UINT8] = "uint8_t",
      [ASC_INT16] = "int16_t",  [ASC_INT32] = "int32_t",       [ASC_INT64] = "int64_t",
      [ASC_FLOAT16] = "half",   [ASC_BFLOAT16] = "bfloat16_t", [ASC_FLOAT32] = "float",
      [ASC_FLOAT64] = "double", [ASC_UINT16] = "uint16_t",     [ASC_UINT32] = "uint32_t",
      [ASC_UINT64] = "uint64_t"};
  return dtype >= 0 && dtype < ASC_DTYPE_COUNT ? names[dtype] : "void";
}

static void print_position(ir_buf *b, int position) {
  ir_buf_printf(b, "AscendC::TPosition::%s", ir_position_name(position));
}

/* The declared type of a value of type t. */
void ac_print_type(ir_buf *b, asc_ir_type t) {
  switch (t.kind) {
    case ASC_IR_BOOL:
      ir_buf_printf(b, "bool");
      break;
    case ASC_IR_INT:
      ir_buf_printf(b, "int64_t");
      break;
    case ASC_IR_FLOAT:
      ir_buf_printf(b, "float");
      break;
    case ASC_IR_ADDR:
      ir_buf_printf(b, "__gm__ %s *", ac_elem_type(t.dtype));
      break;
    case ASC_IR_GLOBAL:
      ir_buf_printf(b, "AscendC::GlobalTensor<%s>", ac_elem_type(t.dtype));
      break;
    case ASC_IR_LOCAL:
      ir_buf_printf(b, "AscendC::LocalTensor<%s>", ac_elem_type(t.dtype));
      break;
    case ASC_IR_PIPE:
      ir_buf_printf(b, "AscendC::TPipe");
      break;
    case ASC_IR_QUE:
      ir_buf_printf(b, "AscendC::TQue<");
      print_position(b, t.position);
      ir_buf_printf(b, ", %d>", t.depth);
      break;
    case ASC_IR_TBUF:
      ir_buf_printf(b, "AscendC::TBuf<");
      print_position(b, t.position);
      ir_buf_printf(b, ">");
      break;
    default:
      ir_buf_printf(b, "void");
      break;
  }
}

/* "TYPE name" with the pointer star next to the name. */
void ac_print_decl(ac_emitter *e, ir_buf *b, uint32_t v) {
  ac_print_type(b, ac_type_of(e, v));
  if (!b->failed && b->len && b->data[b->len - 1] != '*') ir_buf_printf(b, " ");
  ir_buf_printf(b, "%s", e->values[v].name);
}

bool ac_is_identifier(const char *s) {
  if (!s || !*s || !((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || *s == '_'))
    return false;
  for (; *s; s++)
    if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9') ||
          *s == '_'))
      return false;
  return true;
}

/* C++ keywords, and the names the output refers to. */
bool ac_reserved_word(const char *s) {
  static const char *const words[] = {
      "alignas", "alignof", "and", "and_eq", "asm", "auto", "bitand", "bitor", "bool", "break",
      "case", "catch", "char", "char8_t", "char16_t", "char32_t", "class", "compl", "concept",
      "const", "consteval", "constexpr", "constinit", "const_cast", "continue", "co_await",
      "co_return", "co_yield", "decltype", "default", "delete", "do", "double", "dynamic_cast",
      "else", "enum", "explicit", "export", "extern", "false", "float", "for", "friend", "goto",
      "if", "inline", "int", "long", "mutable", "namespace", "new", "noexcept", "not", "not_eq",
      "nullptr", "operator", "or", "or_eq", "private", "protected", "public", "register",
      "reinterpret_cast", "requires", "return", "short", "signed", "sizeof", "static",
      "static_assert", "static_cast", "struct", "switch", "template", "this", "thread_local",
      "throw", "true", "try", "typedef", "typeid", "typename", "union", "unsigned", "using",
      "virtual", "void", "volatile", "wchar_t", "while", "xor", "xor_eq",
      /* names the emitted source refers to */
      "AscendC", "GM_ADDR", "half", "bfloat16_t", "int8_t", "uint8_t", "int16_t", "uint16_t",
      "int32_t", "uint32_t", "int64_t", "uint64_t", "size_t", "main", "PIPE_S", "PIPE_V", "PIPE_M",
      "PIPE_MTE1", "PIPE_MTE2", "PIPE_MTE3", "PIPE_ALL", "PIPE_MTE4", "PIPE_MTE5", "PIPE_V2",
      "PIPE_FIX"};
  for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
    if (!strcmp(s, words[i])) return true;
  /* identifiers C++ keeps for the implementation */
  return !strncmp(s, "__", 2) || (s[0] == '_' && s[1] >= 'A' && s[1] <= 'Z');
}

const char *const ac_helper_names[H_COUNT] = {[H_FLOORDIV] = "pyasc_floordiv",
                                              [H_MOD] = "pyasc_mod",
                                              [H_FLOORDIVF] = "pyasc_floordivf",
                                              [H_MODF] = "pyasc_modf",
                                              [H_TRUEDIV] = "pyasc_truediv",
                                              [H_IPOW] = "pyasc_ipow",
                                              [H_POWI] = "pyasc_powi",
                                              [H_SHL] = "pyasc_shl",
                                              [H_SHR] = "pyasc_shr",
                                              [H_COPY] = "pyasc_copy"};

bool ac_helper_name(const char *s) {
  for (size_t i = 0; i < H_COUNT; i++)
    if (!strcmp(s, ac_helper_names[i])) return true;
  return false;
}

/* Names a local must not take. */
bool ac_reserved(const char *s) {
  return ac_reserved_word(s) || !strncmp(s, "pyasc_", 6);
}

bool ac_name_taken(const ac_emitter *e, const char *s) {
  if (ac_reserved(s) || !strcmp(s, e->kernel_name)) return true;
  for (uint32_t v = 1; v < e->m->nvalues; v++)
    if (e->values[v].name && !strcmp(e->values[v].name, s)) return true;
  return false;
}

/* Gives v the Python name it carries (made unique with _2, _3...) or v<id>. */
void ac_give_name(ac_emitter *e, uint32_t v, const char *want) {
  char fallback[24], text[160];
  snprintf(fallback, sizeof fallback, "v%u", v);
  /* a suffix cannot save names C++ reserves by their prefix */
  bool usable = ac_is_identifier(want) && strlen(want) < 120 && strncmp(want, "__", 2) &&
                !(want[0] == '_' && want[1] >= 'A' && want[1] <= 'Z') && strncmp(want, "pyasc_", 6);
  const char *base = usable ? want : fallback;
  snprintf(text, sizeof text, "%s", base);
  for (int n = 2; ac_name_taken(e, text); n++) snprintf(text, sizeof text, "%s_%d", base, n);
  size_t len = strlen(text) + 1;
  e->values[v].name = malloc(len);
  if (!e->values[v].name) {
    ac_fail(e, NULL, ASC_ERR_OUT_OF_MEMORY, "out of memory naming values");
    return;
  }
  memcpy(e->values[v].name, text, len);
}

/* --- literals ---------------------------------------------------------------------- */

static void print_int(ir_buf *b, int64_t v) {
  if (v == INT64_MIN)
    ir_buf_printf(b, "(-9223372036854775807LL - 1)");
  else if (v > INT32_MAX || v < INT32_MIN)
    ir_buf_printf(b, "%lldLL", (long long)v);
  else
    ir_buf_printf(b, "%lld", (long long)v);
}

/* The shortest float literal that reads back as the same float. */
static void print_float(ir_buf *b, double d) {
  float f = (float)d;
  if (isnan(f)) {
    ir_buf_printf(b, "__builtin_nanf(\"\")");
    return;
  }
  if (isinf(f)) {
    ir_buf_printf(b, "%s__builtin_huge_valf()", f < 0 ? "-" : "");
    return;
  }
  char text[48];
  for (int digits = 1; digits <= 9; digits++) {
    snprintf(text, sizeof text, "%.*g", digits, (double)f);
    if (strtof(text, NULL) == f) break;
  }
  bool plain = !strpbrk(text, ".e");
  ir_buf_printf(b, "%s%sf", text, plain ? ".0" : "");
}

/* --- expressions ------------------------------------------------------------------ */

const ir_op *ac_def_op(const ac_emitter *e, uint32_t v) {
  return e->m->values[v].def;
}

bool ac_is_const(const ac_emitter *e, uint32_t v) {
  const ir_op *d = ac_def_op(e, v);
  return d && d->code >= IR_CONST_INT && d->code <= IR_CONST_BOOL;
}

/* v's text as an expression, and its precedence. */
static int value_text(ac_emitter *e, uint32_t v, ir_buf *b) {
  const ir_op *d = ac_def_op(e, v);
  const ac_value *av = &e->values[v];
  if (d && d->code == IR_CONST_INT) {
    print_int(b, d->ival);
    return d->ival < 0 ? P_UNARY : P_PRIMARY;
  }
  if (d && d->code == IR_CONST_FLOAT) {
    size_t at = b->len;
    print_float(b, d->fval);
    return !b->failed && b->data[at] == '-' ? P_UNARY : P_PRIMARY;
  }
  if (d && d->code == IR_CONST_BOOL) {
    ir_buf_printf(b, "%s", d->ival ? "true" : "false");
    return P_PRIMARY;
  }
  if (d && d->code == IR_LOAD && av->folded) {
    ir_buf_printf(b, "%s", e->values[d->operands[0]].name);
    return P_PRIMARY;
  }
  if (d && av->folded) return ac_expr_of(e, d, b);
  /* Kernel parameters arrive as untyped GM_ADDR. */
  if (!d && av->def < 0 && ac_type_of(e, v).kind == ASC_IR_ADDR) {
    ir_buf_printf(b, "(__gm__ %s *)%s", ac_elem_type(ac_type_of(e, v).dtype), av->name);
    return P_UNARY;
  }
  ir_buf_printf(b, "%s", av->name ? av->name : "?");
  return P_PRIMARY;
}

/* Appends v as an expression of precedence at most prec, in parentheses if
 * it binds more loosely. */
void ac_operand(ac_emitter *e, uint32_t v, int prec, ir_buf *b) {
  ir_buf inner = {0};
  int p = value_text(e, v, &inner);
  if (inner.failed)
    b->failed = true;
  else if (p > prec)
    ir_buf_printf(b, "(%.*s)", (int)inner.len, inner.data ? inner.data : "");
  else
    ir_buf_printf(b, "%.*s", (int)inner.len, inner.data ? inner.data : "");
  free(inner.data);
}

static const char *const hard_events[] = {
    "MTE2_MTE1", "MTE1_MTE2", "MTE1_M", "M_MTE1",   "MTE2_V",    "V_MTE2",    "MTE3_V",
    "V_MTE3",    "M_V",       "V_M",    "V_V",      "MTE3_MTE1", "MTE1_MTE3", "MTE1_V",
    "MTE2_M",    "M_MTE2",    "V_MTE1", "M_FIX",    "FIX_M",     "MTE3_MTE2", "MTE2_MTE3",
    "S_V",       "V_S",       "S_MTE2", "MTE2_S",   "S_MTE3",    "MTE3_S",    "MTE2_FIX",
    "FIX_MTE2",  "FIX_S",     "M_S",    "FIX_MTE3", "MTE1_FIX",  "FIX_MTE1",  "FIX_FIX"};

static const char *const pipe_ids[] = {"PIPE_S",    "PIPE_V",    "PIPE_M",   "PIPE_MTE1",
                                       "PIPE_MTE2", "PIPE_MTE3", "PIPE_ALL", "PIPE_MTE4",
                                       "PIPE_MTE5", "PIPE_V2",   "PIPE_FIX"};

/* The op's first attribute as its Ascend C name, prefix then names[value];
 * a value past the n names fails the emission (enum is the attribute's type). */
static void print_first_attr(ac_emitter *e, const ir_op *op, const char *enum_name,
                             const char *prefix, const char *const *names, size_t n, ir_buf *b) {
  int64_t v = op->iattrs[0];
  if (v < 0 || v >= (int64_t)n)
    ac_fail(e, op, ASC_ERR_UNSUPPORTED, "%s: %s %lld has no Ascend C name",
            ir_op_defs[op->code].name, enum_name, (long long)v);
  else
    ir_buf_printf(b, "%s%s", prefix, names[v]);
}

/* Enumerators of Ascend C's enums, by the values PyAsc gives them. */
static const char *const round_modes[] = {"CAST_NONE",  "CAST_RINT",  "CAST_FLOOR", "CAST_CEIL",
                                          "CAST_ROUND", "CAST_TRUNC", "CAST_ODD"};
static const char *const cmp_modes[] = {"LT", "GT", "EQ", "LE", "GE", "NE"};
static const char *const sel_modes[] = {"VSEL_CMPMASK_SPR", "VSEL_TENSOR_SCALAR_MODE",
                                        "VSEL_TENSOR_TENSOR_MODE"};
static const char *const reduce_orders[] = {"ORDER_VALUE_INDEX", "ORDER_INDEX_VALUE",
                                            "ORDER_ONLY_VALUE", "ORDER_ONLY_INDEX"};
static const char *const mask_modes[] = {"NORMAL", "COUNTER"};
static const char *const atomic_dtypes[] = {"ATOMIC_NONE", "ATOMIC_F32", "ATOMIC_F16", "ATOMIC_S16",
                                            "ATOMIC_S32",  "ATOMIC_S8",  "ATOMIC_BF16"};
static const char *const atomic_ops[] = {"ATOMIC_SUM"};

static const char *const mem_dsbs[] = {"ALL", "DDR", "UB", "SEQ"};
static const char *const transpose_types[] = {"TRANSPOSE_TYPE_NONE",
                                              "TRANSPOSE_NZ2ND_0213",
                                              "TRANSPOSE_NZ2NZ_0213",
                                              "TRANSPOSE_NZ2NZ_012_WITH_N",
                                              "TRANSPOSE_NZ2ND_012_WITH_N",
                                              "TRANSPOSE_NZ2ND_012_WITHOUT_N",
                                              "TRANSPOSE_NZ2NZ_012_WITHOUT_N",
                                              "TRANSPOSE_ND2ND_ONLY",
                                              "TRANSPOSE_ND_UB_GM",
                                              "TRANSPOSE_GRAD_ND_UB_GM",
                                              "TRANSPOSE_ND2ND_B16",
                                              "TRANSPOSE_NCHW2NHWC",
                                              "TRANSPOSE_NHWC2NCHW"};
static const char *const cache_lines[] = {"SINGLE_CACHE_LINE", "ENTIRE_DATA_CACHE"};
static const char *const dcci_dsts[] = {"CACHELINE_ALL", "CACHELINE_UB", "CACHELINE_OUT",
                                        "CACHELINE_ATOMIC"};

/* Attribute i of op as Ascend C: kind r RoundMode, k CMPMODE, s SELMODE,
 * o ReduceOrder, m MaskMode, a AtomicDtype, A AtomicOp, d MemDsbT, l CacheLine,
 * x DcciDst, T TransposeType, b a bool, t a dtype's type, i or n the integer,
 * P a TPosition. */
void ac_print_enum(ac_emitter *e, const ir_op *op, char kind, int i, ir_buf *b) {
  static const struct {
    char kind;
    const char *type;
    const char *const *names;
    int n;
  } enums[] = {{'r', "RoundMode", round_modes, 7},
               {'k', "CMPMODE", cmp_modes, 6},
               {'s', "SELMODE", sel_modes, 3},
               {'o', "ReduceOrder", reduce_orders, 4},
               {'m', "MaskMode", mask_modes, 2},
               {'a', "AtomicDtype", atomic_dtypes, 7},
               {'A', "AtomicOp", atomic_ops, 1},
               {'d', "MemDsbT", mem_dsbs, 4},
               {'l', "CacheLine", cache_lines, 2},
               {'x', "DcciDst", dcci_dsts, 4},
               {'T', "TransposeType", transpose_types, 13}};
  int64_t v = i < op->niattrs ? op->iattrs[i] : -1;
  if (kind == 'b') {
    ir_buf_printf(b, "%s", v ? "true" : "false");
    return;
  }
  if (kind == 't') {
    ir_buf_printf(b, "%s", ac_elem_type((int)v));
    return;
  }
  if (kind == 'i' || kind == 'n') { /* a plain integer (template arguments) */
    ir_buf_printf(b, "%lld", (long long)v);
    return;
  }
  if (kind == 'P') {
    print_position(b, (int)v);
    return;
  }
  for (size_t j = 0; j < sizeof enums / sizeof enums[0]; j++) {
    if (enums[j].kind != kind) continue;
    if (v < 0 || v >= enums[j].n)
      ac_fail(e, op, ASC_ERR_UNSUPPORTED, "%s: %lld is not a %s", ir_op_defs[op->code].name,
              (long long)v, enums[j].type);
    else
      ir_buf_printf(b, "AscendC::%s::%s", enums[j].type, enums[j].names[v]);
    return;
  }
}

/* Writes a template: $N operand N as an argument, $pN/$uN/$mN/$sN operand N
 * (N of one or more digits) at primary/unary/multiplicative/additive precedence, $tN and $tr the
 * element type of operand N and of the result, $PN and $Pr their TPosition,
 * $D the result's queue depth, $E the HardEvent and $I the pipe_t named by
 * attribute 0, $?N operand N if present, $,N ", operand N" if present, $cN
 * scalar operand N as the element type of the tensor before it (operand 0
 * if that is no tensor), a cast unless it has that type, $eKN attribute N
 * as the enum of kind K (print_enum). */
void ac_expand(ac_emitter *e, const ir_op *op, const char *t, ir_buf *b) {
  for (; *t; t++) {
    if (*t != '$') {
      ir_buf_printf(b, "%c", *t);
      continue;
    }
    char c = *++t;
    int prec = P_ANY;
    if (strchr("pums", c) && t[1] >= '0' && t[1] <= '9') {
      prec = c == 'p' ? P_PRIMARY : c == 'u' ? P_UNARY : c == 'm' ? P_MUL : P_ADD;
      c = *++t;
    }
    if (c >= '0' && c <= '9') {
      int i = c - '0';
      while (t[1] >= '0' && t[1] <= '9') i = i * 10 + (*++t - '0');
      if (i < op->noperands)
        ac_operand(e, op->operands[i], prec, b);
      else
        ac_fail(e, op, ASC_ERR_INTERNAL, "%s: the Ascend C form names operand %d of %d",
                ir_op_defs[op->code].name, i, op->noperands);
    } else if (c == 'c') {
      int i = *++t - '0';
      uint32_t v = op->operands[i];
      uint32_t like = i > 0 && ac_type_of(e, op->operands[i - 1]).kind == ASC_IR_LOCAL
                          ? op->operands[i - 1]
                          : op->operands[0];
      int dtype = ac_type_of(e, like).dtype;
      asc_ir_kind kind = (asc_ir_kind)ac_type_of(e, v).kind;
      bool same = (kind == ASC_IR_FLOAT && dtype == ASC_FLOAT32) ||
                  (kind == ASC_IR_INT && dtype == ASC_INT64 && !ac_is_const(e, v)) ||
                  (kind == ASC_IR_BOOL && dtype == ASC_BOOL);
      if (same) {
        ac_operand(e, v, P_ANY, b);
      } else if (dtype == ASC_FLOAT32 && ac_is_const(e, v) &&
                 ac_def_op(e, v)->code == IR_CONST_INT) {
        print_float(b, (double)ac_def_op(e, v)->ival); /* 2 -> 2.0f */
      } else {
        ir_buf_printf(b, "(%s)", ac_elem_type(dtype));
        ac_operand(e, v, P_UNARY, b);
      }
    } else if (c == 'e') {
      char kind = *++t;
      ac_print_enum(e, op, kind, *++t - '0', b);
    } else if (c == '?' || c == ',') {
      int i = *++t - '0';
      if (i < op->noperands) {
        if (c == ',') ir_buf_printf(b, ", ");
        ac_operand(e, op->operands[i], P_ANY, b);
      }
    } else if (c == 't' || c == 'P') {
      char which = *++t;
      asc_ir_type ty =
          which == 'r' ? ac_type_of(e, op->result) : ac_type_of(e, op->operands[which - '0']);
      if (c == 't')
        ir_buf_printf(b, "%s", ac_elem_type(ty.dtype));
      else
        print_position(b, ty.position);
    } else if (c == 'D') {
      ir_buf_printf(b, "%d", ac_type_of(e, op->result).depth);
    } else if (c == 'E') {
      print_first_attr(e, op, "HardEvent", "AscendC::HardEvent::", hard_events,
                       sizeof hard_events / sizeof hard_events[0], b);
    } else if (c == 'I') {
      print_first_attr(e, op, "PipeID", "", pipe_ids, sizeof pipe_ids / sizeof pipe_ids[0], b);
    } else {
      ir_buf_printf(b, "%c", c);
    }
  }
}

/* Operand levels of an infix operator; parentheses go where a reader (and
 * -Wparentheses) would want them, not only where C++ needs them. */
void ac_infix(ac_emitter *e, const ir_op *op, const char *sym, int prec, ir_buf *b) {
  int left = prec, right = prec - 1;
  if (prec == P_REL || prec == P_EQ)
    left = right = 8; /* no chained comparisons */
  else if (prec >= 11 && prec <= 13)
    left = right = P_UNARY; /* & ^ | */
  else if (prec >= 14)
    left = right = P_EQ; /* && || */
  ac_operand(e, op->operands[0], left, b);
  ir_buf_printf(b, " %s ", sym);
  ac_operand(e, op->operands[1], right, b);
}

static bool is_float(const ac_emitter *e, uint32_t v) {
  return ac_type_of(e, v).kind == ASC_IR_FLOAT;
}

/* A for loop's step known at compile time (and valid). */
bool ac_known_step(const ac_emitter *e, uint32_t v) {
  const ir_op *d = ac_def_op(e, v);
  return ac_is_const(e, v) && d->code == IR_CONST_INT && d->ival != 0;
}

static bool nonzero_const(const ac_emitter *e, uint32_t v) {
  const ir_op *d = ac_def_op(e, v);
  return ac_is_const(e, v) && (d->code == IR_CONST_FLOAT ? d->fval != 0 : d->ival != 0);
}

static int call2(ac_emitter *e, const ir_op *op, int helper, const char *fn, ir_buf *b) {
  e->helpers[helper] = true;
  ir_buf_printf(b, "%s(", fn);
  ac_operand(e, op->operands[0], P_ANY, b);
  ir_buf_printf(b, ", ");
  ac_operand(e, op->operands[1], P_ANY, b);
  ir_buf_printf(b, ")");
  return P_PRIMARY;
}

int ac_floordiv(ac_emitter *e, const ir_op *op, ir_buf *b) {
  if (is_float(e, op->result)) return call2(e, op, H_FLOORDIVF, "pyasc_floordivf", b);
  return call2(e, op, H_FLOORDIV, "pyasc_floordiv", b);
}

int ac_mod(ac_emitter *e, const ir_op *op, ir_buf *b) {
  if (is_float(e, op->result)) {
    e->helpers[H_FLOORDIVF] = true;
    return call2(e, op, H_MODF, "pyasc_modf", b);
  }
  return call2(e, op, H_MOD, "pyasc_mod", b);
}

/* a / b in float; a nonzero constant divisor needs no zero check. */
int ac_truediv(ac_emitter *e, const ir_op *op, ir_buf *b) {
  if (!nonzero_const(e, op->operands[1])) return call2(e, op, H_TRUEDIV, "pyasc_truediv", b);
  for (int i = 0; i < 2; i++) {
    uint32_t v = op->operands[i];
    if (i) ir_buf_printf(b, " / ");
    if (is_float(e, v)) {
      ac_operand(e, v, i ? P_UNARY : P_MUL, b);
    } else if (ac_is_const(e, v)) {
      print_float(b, (double)ac_def_op(e, v)->ival);
    } else {
      ir_buf_printf(b, "(float)");
      ac_operand(e, v, P_UNARY, b);
    }
  }
  return P_MUL;
}

int ac_pow(ac_emitter *e, const ir_op *op, ir_buf *b) {
  if (!is_float(e, op->result)) return call2(e, op, H_IPOW, "pyasc_ipow", b);
  if (is_float(e, op->operands[1])) {
    ac_fail(e, op, ASC_ERR_UNSUPPORTED,
            "arith.pow: a float exponent has no Ascend C scalar form (the scalar unit has no pow); "
            "use an integer exponent");
    return P_PRIMARY;
  }
  return call2(e, op, H_POWI, "pyasc_powi", b);
}

int ac_shift(ac_emitter *e, const ir_op *op, ir_buf *b) {
  bool left = op->code == IR_OP_ARITH_SHL;
  return call2(e, op, left ? H_SHL : H_SHR, left ? "pyasc_shl" : "pyasc_shr", b);
}

/* The arms of a conditional expression whose condition is printed:
 * " ? operand yes : operand no". */
static int print_arms(ac_emitter *e, const ir_op *op, int yes, int no, ir_buf *b) {
  ir_buf_printf(b, " ? ");
  ac_operand(e, op->operands[yes], P_ANY, b);
  ir_buf_printf(b, " : ");
  ac_operand(e, op->operands[no], P_ANY, b);
  return P_ANY;
}

/* Python's min/max: the first operand on ties, as the simulator. */
int ac_minmax(ac_emitter *e, const ir_op *op, ir_buf *b) {
  bool is_min = op->code == IR_OP_ARITH_MIN;
  ac_operand(e, op->operands[0], 8, b);
  ir_buf_printf(b, " %s ", is_min ? "<=" : ">=");
  ac_operand(e, op->operands[1], 8, b);
  return print_arms(e, op, 0, 1, b);
}

int ac_select(ac_emitter *e, const ir_op *op, ir_buf *b) {
  ac_operand(e, op->operands[0], 15, b);
  return print_arms(e, op, 1, 2, b);
}

int ac_copy(ac_emitter *e, const ir_op *op, ir_buf *b) {
  e->helpers[H_COPY] = true;
  ac_expand(e, op, "pyasc_copy($0, $1, $2)", b);
  return P_PRIMARY;
}

/* PipeBarrier<PIPE_S> is a hardware error: the scalar pipe is in order already. */
int ac_pipe_barrier(ac_emitter *e, const ir_op *op, ir_buf *b) {
  if (op->iattrs[0] == 0)
    ac_fail(e, op, ASC_ERR_UNSUPPORTED,
            "pipe_barrier(PipeID.PIPE_S) is an error on the NPU (the scalar pipe is ordered "
            "already); remove it");
  ac_expand(e, op, "AscendC::PipeBarrier<$I>()", b);
  return P_PRIMARY;
}

/* Ops that write no Ascend C (hints only the simulator's timing model reads). */
int ac_nothing(ac_emitter *e, const ir_op *op, ir_buf *b) {
  (void)e, (void)op, (void)b;
  return P_PRIMARY;
}

/* adv.exp: Exp<T, taylorExpandLevel, isReuseSource>, the level from attribute 0. */
int ac_adv_exp(ac_emitter *e, const ir_op *op, ir_buf *b) {
  ac_expand(e, op, "AscendC::Exp<$t0, ", b);
  ir_buf_printf(b, "%lld, false>(", (long long)op->iattrs[0]);
  ac_expand(e, op, "$0, $1$,4, $2)", b);
  return P_PRIMARY;
}

/* adv.softmax / adv.rmsnorm: the tiling struct travels as its fields
 * (IR_SOFTMAX_FIELDS / IR_RMSNORM_FIELDS after the tensors, Ascend C's member
 * order), rebuilt as an aggregate; the shared tmp buffer (after the host's
 * minimum) when given. */
int ac_adv_tiled(ac_emitter *e, const ir_op *op, ir_buf *b) {
  bool softmax = op->code == IR_OP_ADV_SOFTMAX;
  int ntensors = softmax ? 4 : 3;
  int first = 4, nfields = softmax ? IR_SOFTMAX_FIELDS : IR_RMSNORM_FIELDS;
  int tmp = first + nfields + 1;
  ir_buf_printf(b, "AscendC::%s<", softmax ? "SoftMax" : "RmsNorm");
  ac_expand(e, op, "$t0>(", b); /* explicit: SoftMax<half> with float sum/max deduces no T */
  for (int i = 0; i < ntensors; i++) {
    if (i) ir_buf_printf(b, ", ");
    ac_operand(e, op->operands[i], P_ANY, b);
  }
  if (op->noperands > tmp) {
    ir_buf_printf(b, ", ");
    ac_operand(e, op->operands[tmp], P_ANY, b);
  }
  if (!softmax) ac_expand(e, op, ", $c3", b);
  ir_buf_printf(b, ", %s{", softmax ? "SoftMaxTiling" : "RmsNormTiling");
  for (int i = first; i < first + nfields; i++) {
    ir_buf_printf(b, "%s(%s)", i > first ? ", " : "", !softmax && i == 8 ? "float" : "uint32_t");
    ac_operand(e, op->operands[i], P_UNARY, b);
  }
  ir_buf_printf(b, "})");
  return P_PRIMARY;
}

void ac_line_start(ac_emitter *e) {
  ir_buf_printf(e->out, "%*s", e->depth * 4, "");
}

/* trans_data_to_5hd: the two lists become LocalTensor arrays in a block. */
int ac_trans_5hd(ac_emitter *e, const ir_op *op, ir_buf *b) {
  ac_line_start(e);
  ir_buf_printf(b, "{\n");
  for (int list = 0; list < 2; list++) {
    ac_line_start(e);
    ac_expand(e, op, "    AscendC::LocalTensor<$t0> ", b);
    ir_buf_printf(b, "pyasc_%s[16] = {", list ? "src" : "dst");
    for (int i = 0; i < 16; i++) {
      if (i) ir_buf_printf(b, ", ");
      ac_operand(e, op->operands[list * 16 + i], P_ANY, b);
    }
    ir_buf_printf(b, "};\n");
  }
  ac_line_start(e);
  ac_expand(e, op, "    AscendC::TransDataTo5HD<$t0>(pyasc_dst, pyasc_src, ", b);
  ir_buf_printf(b, "AscendC::TransDataTo5HDParams(");
  ac_print_enum(e, op, 'b', 0, b);
  ir_buf_printf(b, ", ");
  ac_print_enum(e, op, 'b', 1, b);
  ir_buf_printf(b, ", (uint8_t)");
  ac_operand(e, op->operands[32], P_UNARY, b);
  ir_buf_printf(b, ", (uint16_t)");
  ac_operand(e, op->operands[33], P_UNARY, b);
  ir_buf_printf(b, ", (uint16_t)");
  ac_operand(e, op->operands[34], P_UNARY, b);
  ir_buf_printf(b, "));\n");
  ac_line_start(e);
  ir_buf_printf(b, "}\n");
  return P_PRIMARY;
}

/* trans_data_to_5hd's address forms: TransDataTo5HD<T>(dst, src, params)
 * with two LocalTensor<uint64_t> or two uint64_t[16] arrays; T the dtype
 * the addresses' tensors had (attribute 2). */
int ac_trans_5hd_addrs(ac_emitter *e, const ir_op *op, ir_buf *b) {
  bool lists = op->code == IR_OP_TRANS_DATA_TO_5HD_ADDRS;
  int p0 = lists ? 32 : 2;
  ac_line_start(e);
  ir_buf_printf(b, "{\n");
  if (lists)
    for (int list = 0; list < 2; list++) {
      ac_line_start(e);
      ir_buf_printf(b, "    uint64_t pyasc_%s[16] = {", list ? "src" : "dst");
      for (int i = 0; i < 16; i++) {
        ir_buf_printf(b, "%s(uint64_t)", i ? ", " : "");
        ac_operand(e, op->operands[list * 16 + i], P_UNARY, b);
      }
      ir_buf_printf(b, "};\n");
    }
  ac_line_start(e);
  ir_buf_printf(b, "    AscendC::TransDataTo5HD<%s>(", ac_elem_type((int)op->iattrs[2]));
  if (lists) {
    ir_buf_printf(b, "pyasc_dst, pyasc_src, ");
  } else {
    ac_operand(e, op->operands[0], P_ANY, b);
    ir_buf_printf(b, ", ");
    ac_operand(e, op->operands[1], P_ANY, b);
    ir_buf_printf(b, ", ");
  }
  ir_buf_printf(b, "AscendC::TransDataTo5HDParams(");
  ac_print_enum(e, op, 'b', 0, b);
  ir_buf_printf(b, ", ");
  ac_print_enum(e, op, 'b', 1, b);
  ir_buf_printf(b, ", (uint8_t)");
  ac_operand(e, op->operands[p0], P_UNARY, b);
  ir_buf_printf(b, ", (uint16_t)");
  ac_operand(e, op->operands[p0 + 1], P_UNARY, b);
  ir_buf_printf(b, ", (uint16_t)");
  ac_operand(e, op->operands[p0 + 2], P_UNARY, b);
  ir_buf_printf(b, "));\n");
  ac_line_start(e);
  ir_buf_printf(b, "}\n");
  return P_PRIMARY;
}

/* GlobalTensor<T> g; g.SetGlobalBuffer(addr[, length]); */
int ac_global_new(ac_emitter *e, const ir_op *op, ir_buf *b) {
  ac_line_start(e);
  ac_print_decl(e, b, op->result);
  ir_buf_printf(b, ";\n");
  ac_line_start(e);
  ir_buf_printf(b, "%s.SetGlobalBuffer(", e->values[op->result].name);
  ac_expand(e, op, "$0$,1);\n", b);
  return P_PRIMARY;
}

/* AscendC::printf with the format's conversions matched to the arguments
 * as the simulator prints them: ints as integers, floats as floats. Ascend
 * C's printf takes %d/%i/%u/%x for int8..int64 and %f for float. */
int ac_printf(ac_emitter *e, const ir_op *op, ir_buf *b) {
  ac_line_start(e);
  ir_buf fmt = {0};
  int arg = 0;
  for (const char *c = op->sattr ? op->sattr : ""; *c; c++) {
    unsigned char ch = (unsigned char)*c;
    if (ch == '%' && c[1] == '%') {
      ir_buf_printf(&fmt, "%%%%");
      c++;
    } else if (ch == '%') {
      const char *spec = c + 1;
      while (*spec && strchr("-+ #0123456789.", *spec)) spec++;
      int flags = (int)(spec - c - 1);
      while (*spec && strchr("hlLqjzt", *spec))
        spec++; /* length modifiers: types follow the args */
      if (!*spec) break;
      char conv = *spec;
      if (arg < op->noperands) {
        if (ac_type_of(e, op->operands[arg]).kind == ASC_IR_ADDR)
          conv = conv == 'p' ? 'p' : 's'; /* a GM address: its string or the pointer */
        else if (is_float(e, op->operands[arg]))
          conv = 'f';
        else if (conv == 'X')
          conv = 'x';
        else if (!strchr("diux", conv))
          conv = 'd';
      }
      ir_buf_printf(&fmt, "%%%.*s%c", flags, c + 1, conv);
      arg++;
      c = spec;
    } else {
      ir_buf_printf(&fmt, "%c", ch);
    }
  }
  ir_buf_printf(b, "AscendC::printf(");
  if (fmt.failed) b->failed = true;
  ir_buf_c_string(b, fmt.data ? fmt.data : "", fmt.failed ? 0 : fmt.len);
  free(fmt.data);
  for (int i = 0; i < op->noperands; i++) {
    ir_buf_printf(b, ", ");
    if (ac_type_of(e, op->operands[i]).kind == ASC_IR_BOOL) {
      ir_buf_printf(b, "(int32_t)");
      ac_operand(e, op->operands[i], P_UNARY, b);
    } else {
      ac_operand(e, op->operands[i], P_ANY, b);
    }
  }
  ir_buf_printf(b, ");\n");
  return P_PRIMARY;
}
