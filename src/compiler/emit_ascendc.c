/* IR -> Ascend C: the C++ source of a kernel for a real NPU, built with the
 * CANN toolkit against "kernel_operator.h". The kernel becomes
 *   extern "C" __global__ __aicore__ void NAME(GM_ADDR x, ..., int64_t n)
 * and every IR op the Ascend C call it stands for.
 *
 * The ac_* columns of api_table.def are the one place that maps IR ops to
 * Ascend C (ascendc_ops[] below reads them): fill them in with each new op
 * (tests/python/test_ascendc.py fails for an op without a form). An op with no Ascend C form fails
 * with ASC_ERR_UNSUPPORTED naming it and its line, never silently.
 *
 * The output is meant to be read: values carry their Python names (v<id>
 * otherwise), constants appear as literals, single-use pure expressions
 * and reads of variables that nothing reassigns before the use are written
 * into the expression that uses them, and a for loop's variable is the
 * loop's own when nothing else assigns it. Scalars are int64_t, float and
 * bool; arithmetic keeps the simulator's Python semantics through small
 * helpers (floor division, modulo, ...) defined ahead of the kernel, only
 * those the kernel uses. Errors the simulator reports at run time
 * (division by zero, a zero range() step) call AscendC::Trap(). */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ir_internal.h"

/* --- helpers the kernel may need ------------------------------------------ */

enum {
  H_FLOORDIV,
  H_MOD,
  H_FLOORDIVF,
  H_MODF,
  H_TRUEDIV,
  H_IPOW,
  H_POWI,
  H_SHL,
  H_SHR,
  H_COPY,
  H_COUNT
};

static const char *const helper_source[H_COUNT] = {
    [H_FLOORDIV] =
        "// PyAsc's a / b and a // b on run-time integers: C division, truncating.\n"
        "__aicore__ inline int64_t pyasc_floordiv(int64_t a, int64_t b)\n"
        "{\n"
        "    if (b == 0) {\n"
        "        AscendC::Trap();  // ZeroDivisionError\n"
        "        return 0;\n"
        "    }\n"
        "    if (b == -1) {\n"
        "        return (int64_t)(0 - (uint64_t)a);\n"
        "    }\n"
        "    return a / b;\n"
        "}\n",
    [H_MOD] =
        "// PyAsc's a % b on run-time integers: C remainder, the sign of a.\n"
        "__aicore__ inline int64_t pyasc_mod(int64_t a, int64_t b)\n"
        "{\n"
        "    if (b == 0) {\n"
        "        AscendC::Trap();  // ZeroDivisionError\n"
        "        return 0;\n"
        "    }\n"
        "    return b == -1 ? 0 : a % b;\n"
        "}\n",
    [H_FLOORDIVF] =
        "// Python's a // b on floats, floor(a / b). The scalar unit has no floor():\n"
        "// this rounds through int64_t, exact while |a / b| < 2**63.\n"
        "__aicore__ inline float pyasc_floordivf(float a, float b)\n"
        "{\n"
        "    if (b == 0.0f) {\n"
        "        AscendC::Trap();  // ZeroDivisionError\n"
        "        return 0.0f;\n"
        "    }\n"
        "    float q = a / b;\n"
        "    float t = (float)(int64_t)q;\n"
        "    return t > q ? t - 1.0f : t;\n"
        "}\n",
    [H_MODF] =
        "// Python's a % b on floats: the remainder takes the sign of b.\n"
        "__aicore__ inline float pyasc_modf(float a, float b)\n"
        "{\n"
        "    return a - pyasc_floordivf(a, b) * b;\n"
        "}\n",
    [H_TRUEDIV] =
        "// Python's a / b: a zero divisor is an error, not infinity.\n"
        "__aicore__ inline float pyasc_truediv(float a, float b)\n"
        "{\n"
        "    if (b == 0.0f) {\n"
        "        AscendC::Trap();  // ZeroDivisionError\n"
        "        return 0.0f;\n"
        "    }\n"
        "    return a / b;\n"
        "}\n",
    [H_IPOW] =
        "// Python's a ** b on integers (a negative exponent is an error).\n"
        "__aicore__ inline int64_t pyasc_ipow(int64_t a, int64_t b)\n"
        "{\n"
        "    if (b < 0) {\n"
        "        AscendC::Trap();  // write 1.0 / a ** -b\n"
        "        return 0;\n"
        "    }\n"
        "    uint64_t r = 1, x = (uint64_t)a;\n"
        "    for (; b > 0; b >>= 1) {\n"
        "        if (b & 1) {\n"
        "            r *= x;\n"
        "        }\n"
        "        x *= x;\n"
        "    }\n"
        "    return (int64_t)r;\n"
        "}\n",
    [H_POWI] =
        "// Python's a ** b for a float a and an integer b.\n"
        "__aicore__ inline float pyasc_powi(float a, int64_t b)\n"
        "{\n"
        "    uint64_t n = b < 0 ? 0 - (uint64_t)b : (uint64_t)b;\n"
        "    float r = 1.0f;\n"
        "    for (; n > 0; n >>= 1) {\n"
        "        if (n & 1) {\n"
        "            r *= a;\n"
        "        }\n"
        "        a *= a;\n"
        "    }\n"
        "    return b < 0 ? 1.0f / r : r;\n"
        "}\n",
    [H_SHL] =
        "// a << b on int64_t as the simulator computes it: shifted-out bits are lost.\n"
        "__aicore__ inline int64_t pyasc_shl(int64_t a, int64_t b)\n"
        "{\n"
        "    return (b < 0 || b > 63) ? 0 : (int64_t)((uint64_t)a << b);\n"
        "}\n",
    [H_SHR] =
        "// Python's a >> b on int64_t: an arithmetic shift.\n"
        "__aicore__ inline int64_t pyasc_shr(int64_t a, int64_t b)\n"
        "{\n"
        "    return (b < 0 || b > 63) ? (a < 0 ? -1 : 0) : a >> b;\n"
        "}\n",
    [H_COPY] =
        "// copy(dst, src, count): Copy has only mask forms, so whole 256-byte repeats\n"
        "// (at most 255 per call) and then one partial repeat.\n"
        "template <typename T>\n"
        "__aicore__ inline void pyasc_copy(const AscendC::LocalTensor<T> &dst,\n"
        "                                  const AscendC::LocalTensor<T> &src, int64_t count)\n"
        "{\n"
        "    constexpr int64_t per_repeat = 256 / sizeof(T);\n"
        "    const AscendC::CopyRepeatParams contiguous(1, 1, 8, 8);\n"
        "    int64_t done = 0;\n"
        "    while (count - done >= per_repeat) {\n"
        "        int64_t repeats = (count - done) / per_repeat;\n"
        "        repeats = repeats > 255 ? 255 : repeats;\n"
        "        AscendC::Copy(dst[done], src[done], (uint64_t)per_repeat, (uint8_t)repeats,\n"
        "                      contiguous);\n"
        "        done += repeats * per_repeat;\n"
        "    }\n"
        "    if (done < count) {\n"
        "        AscendC::Copy(dst[done], src[done], (uint64_t)(count - done), 1, contiguous);\n"
        "    }\n"
        "}\n",
};

/* --- the emitter's state ---------------------------------------------------- */

/* An op in program order (pre-order through the regions). */
typedef struct ac_site {
  const ir_op *op;
  const ir_region *scope; /* the innermost loop region holding it, or the body */
  long pos;
  long end;      /* the last position inside its regions; pos when it has none */
  long cond_end; /* while: the last position of the condition region */
  const struct ac_op *map;
} ac_site;

typedef struct ac_value {
  long def; /* index of the defining site (the for of an induction value); -1 none */
  int nuses;
  long use_end;  /* every use, through folded users, happens before this position */
  bool foreign;  /* some use lies across a loop boundary from the definition */
  bool pinned;   /* a user needs it as a named value (an lvalue, or read twice) */
  bool folded;   /* written into its use rather than declared */
  uint32_t loop; /* var: the for's induction value it is fused with; 0 none */
  char *name;
} ac_value;

typedef struct ac_emitter {
  const asc_ir_module *m;
  ir_buf *out;
  int depth;
  ac_site *sites;
  long nsites, cap;
  ac_value *values;
  char *kernel_name;
  bool helpers[H_COUNT];
  asc_status st; /* the first failure */
} ac_emitter;

typedef struct ac_op ac_op;
/* Writes op's expression (or, with AC_STATEMENT, its whole statements);
 * returns the expression's C++ precedence. */
typedef int (*ac_special)(ac_emitter *e, const ir_op *op, ir_buf *b);

enum {
  AC_PURE = 1,           /* no side effects, reads no memory: may be written into its use */
  AC_INFIX = 2,          /* text is a binary operator */
  AC_OBJECT = 4,         /* text is the type of an object the op declares */
  AC_STATEMENT = 8,      /* special writes whole statements */
  AC_KEEP_OPERANDS = 16, /* operands that are computations stay named values */
};

/* C++ precedence levels (lower binds tighter), as far as the output uses them. */
enum { P_PRIMARY = 0, P_UNARY = 3, P_MUL = 5, P_ADD = 6, P_REL = 9, P_EQ = 10, P_ANY = 16 };

/* The argument layout of a vector API's mask form (an IR "<api>.l0" op:
 * the tensors, the scalar if any, mask words m0 m1, repeat_times, block
 * strides then repeat strides; attributes: mask kind 0 int / 1 list,
 * is_set_mask, mode). */
typedef struct ac_masked {
  int tensors;        /* leading LocalTensors */
  bool scalar;        /* a scalar follows, typed like the last tensor */
  char mode;          /* an enum of attribute 2 after them (see print_enum), or 0 */
  int nstrides;       /* 6: BinaryRepeatParams, 4: UnaryRepeatParams */
  const char *targs;  /* template arguments ahead of isSetMask */
  const char *params; /* the repeat-parameter struct, if not by nstrides; "": plain strides */
} ac_masked;

struct ac_op {
  const char *ir;          /* the IR op (ir_ops.c) */
  const char *text;        /* an expression template (see expand), an operator, or an API name */
  int prec;                /* text's precedence as an expression */
  unsigned flags;          /* AC_* */
  unsigned dtypes;         /* element dtypes operand 0 may have (bit per asc_dtype); 0: any */
  ac_special special;      /* for mappings a template cannot say */
  const ac_masked *masked; /* mask forms: their layout */
};

static asc_status fail(ac_emitter *e, const ir_op *op, asc_status st, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static asc_status fail(ac_emitter *e, const ir_op *op, asc_status st, const char *fmt, ...) {
  if (e->st) return e->st;
  char text[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(text, sizeof text, fmt, ap);
  va_end(ap);
  if (op)
    e->st = asc_error(st, "line %u: %s", op->loc.line, text);
  else
    e->st = asc_error(st, "%s", text);
  return e->st;
}

/* --- types and names ------------------------------------------------------------ */

static asc_ir_type type_of(const ac_emitter *e, uint32_t v) {
  return e->m->values[v].type;
}

static const char *elem_type(int dtype) {
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
static void print_type(ir_buf *b, asc_ir_type t) {
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
      ir_buf_printf(b, "__gm__ %s *", elem_type(t.dtype));
      break;
    case ASC_IR_GLOBAL:
      ir_buf_printf(b, "AscendC::GlobalTensor<%s>", elem_type(t.dtype));
      break;
    case ASC_IR_LOCAL:
      ir_buf_printf(b, "AscendC::LocalTensor<%s>", elem_type(t.dtype));
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
static void print_decl(ac_emitter *e, ir_buf *b, uint32_t v) {
  print_type(b, type_of(e, v));
  if (!b->failed && b->len && b->data[b->len - 1] != '*') ir_buf_printf(b, " ");
  ir_buf_printf(b, "%s", e->values[v].name);
}

static bool is_identifier(const char *s) {
  if (!s || !*s || !((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || *s == '_'))
    return false;
  for (; *s; s++)
    if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9') ||
          *s == '_'))
      return false;
  return true;
}

/* C++ keywords, and the names the output refers to. */
static bool reserved_word(const char *s) {
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

static const char *const helper_names[H_COUNT] = {[H_FLOORDIV] = "pyasc_floordiv",
                                                  [H_MOD] = "pyasc_mod",
                                                  [H_FLOORDIVF] = "pyasc_floordivf",
                                                  [H_MODF] = "pyasc_modf",
                                                  [H_TRUEDIV] = "pyasc_truediv",
                                                  [H_IPOW] = "pyasc_ipow",
                                                  [H_POWI] = "pyasc_powi",
                                                  [H_SHL] = "pyasc_shl",
                                                  [H_SHR] = "pyasc_shr",
                                                  [H_COPY] = "pyasc_copy"};

static bool helper_name(const char *s) {
  for (size_t i = 0; i < H_COUNT; i++)
    if (!strcmp(s, helper_names[i])) return true;
  return false;
}

/* Names a local must not take. */
static bool reserved(const char *s) {
  return reserved_word(s) || !strncmp(s, "pyasc_", 6);
}

static bool name_taken(const ac_emitter *e, const char *s) {
  if (reserved(s) || !strcmp(s, e->kernel_name)) return true;
  for (uint32_t v = 1; v < e->m->nvalues; v++)
    if (e->values[v].name && !strcmp(e->values[v].name, s)) return true;
  return false;
}

/* Gives v the Python name it carries (made unique with _2, _3...) or v<id>. */
static void give_name(ac_emitter *e, uint32_t v, const char *want) {
  char fallback[24], text[160];
  snprintf(fallback, sizeof fallback, "v%u", v);
  /* a suffix cannot save names C++ reserves by their prefix */
  bool usable = is_identifier(want) && strlen(want) < 120 && strncmp(want, "__", 2) &&
                !(want[0] == '_' && want[1] >= 'A' && want[1] <= 'Z') && strncmp(want, "pyasc_", 6);
  const char *base = usable ? want : fallback;
  snprintf(text, sizeof text, "%s", base);
  for (int n = 2; name_taken(e, text); n++) snprintf(text, sizeof text, "%s_%d", base, n);
  size_t len = strlen(text) + 1;
  e->values[v].name = malloc(len);
  if (!e->values[v].name) {
    fail(e, NULL, ASC_ERR_OUT_OF_MEMORY, "out of memory naming values");
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

static int expr_of(ac_emitter *e, const ir_op *op, ir_buf *b);

static const ir_op *def_op(const ac_emitter *e, uint32_t v) {
  return e->m->values[v].def;
}

static bool is_const(const ac_emitter *e, uint32_t v) {
  const ir_op *d = def_op(e, v);
  return d && d->code >= IR_CONST_INT && d->code <= IR_CONST_BOOL;
}

/* v's text as an expression, and its precedence. */
static int value_text(ac_emitter *e, uint32_t v, ir_buf *b) {
  const ir_op *d = def_op(e, v);
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
  if (d && av->folded) return expr_of(e, d, b);
  /* Kernel parameters arrive as untyped GM_ADDR. */
  if (!d && av->def < 0 && type_of(e, v).kind == ASC_IR_ADDR) {
    ir_buf_printf(b, "(__gm__ %s *)%s", elem_type(type_of(e, v).dtype), av->name);
    return P_UNARY;
  }
  ir_buf_printf(b, "%s", av->name ? av->name : "?");
  return P_PRIMARY;
}

/* Appends v as an expression of precedence at most prec, in parentheses if
 * it binds more loosely. */
static void operand(ac_emitter *e, uint32_t v, int prec, ir_buf *b) {
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
static void print_enum(ac_emitter *e, const ir_op *op, char kind, int i, ir_buf *b) {
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
    ir_buf_printf(b, "%s", elem_type((int)v));
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
      fail(e, op, ASC_ERR_UNSUPPORTED, "%s: %lld is not a %s", ir_op_defs[op->code].name,
           (long long)v, enums[j].type);
    else
      ir_buf_printf(b, "AscendC::%s::%s", enums[j].type, enums[j].names[v]);
    return;
  }
}

/* Writes a template: $N operand N as an argument, $pN/$uN/$mN/$sN operand N
 * at primary/unary/multiplicative/additive precedence, $tN and $tr the
 * element type of operand N and of the result, $PN and $Pr their TPosition,
 * $D the result's queue depth, $E the HardEvent and $I the pipe_t named by
 * attribute 0, $?N operand N if present, $,N ", operand N" if present, $cN
 * scalar operand N as the element type of the tensor before it (operand 0
 * if that is no tensor), a cast unless it has that type, $eKN attribute N
 * as the enum of kind K (print_enum). */
static void expand(ac_emitter *e, const ir_op *op, const char *t, ir_buf *b) {
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
      operand(e, op->operands[c - '0'], prec, b);
    } else if (c == 'c') {
      int i = *++t - '0';
      uint32_t v = op->operands[i];
      uint32_t like = i > 0 && type_of(e, op->operands[i - 1]).kind == ASC_IR_LOCAL
                          ? op->operands[i - 1]
                          : op->operands[0];
      int dtype = type_of(e, like).dtype;
      asc_ir_kind kind = (asc_ir_kind)type_of(e, v).kind;
      bool same = (kind == ASC_IR_FLOAT && dtype == ASC_FLOAT32) ||
                  (kind == ASC_IR_INT && dtype == ASC_INT64 && !is_const(e, v)) ||
                  (kind == ASC_IR_BOOL && dtype == ASC_BOOL);
      if (same) {
        operand(e, v, P_ANY, b);
      } else if (dtype == ASC_FLOAT32 && is_const(e, v) && def_op(e, v)->code == IR_CONST_INT) {
        print_float(b, (double)def_op(e, v)->ival); /* 2 -> 2.0f */
      } else {
        ir_buf_printf(b, "(%s)", elem_type(dtype));
        operand(e, v, P_UNARY, b);
      }
    } else if (c == 'e') {
      char kind = *++t;
      print_enum(e, op, kind, *++t - '0', b);
    } else if (c == '?' || c == ',') {
      int i = *++t - '0';
      if (i < op->noperands) {
        if (c == ',') ir_buf_printf(b, ", ");
        operand(e, op->operands[i], P_ANY, b);
      }
    } else if (c == 't' || c == 'P') {
      char which = *++t;
      asc_ir_type ty =
          which == 'r' ? type_of(e, op->result) : type_of(e, op->operands[which - '0']);
      if (c == 't')
        ir_buf_printf(b, "%s", elem_type(ty.dtype));
      else
        print_position(b, ty.position);
    } else if (c == 'D') {
      ir_buf_printf(b, "%d", type_of(e, op->result).depth);
    } else if (c == 'E') {
      int64_t ev = op->iattrs[0];
      if (ev < 0 || ev >= (int64_t)(sizeof hard_events / sizeof hard_events[0]))
        fail(e, op, ASC_ERR_UNSUPPORTED, "%s: HardEvent %lld has no Ascend C name",
             ir_op_defs[op->code].name, (long long)ev);
      else
        ir_buf_printf(b, "AscendC::HardEvent::%s", hard_events[ev]);
    } else if (c == 'I') {
      int64_t p = op->iattrs[0];
      if (p < 0 || p >= (int64_t)(sizeof pipe_ids / sizeof pipe_ids[0]))
        fail(e, op, ASC_ERR_UNSUPPORTED, "%s: PipeID %lld has no Ascend C name",
             ir_op_defs[op->code].name, (long long)p);
      else
        ir_buf_printf(b, "%s", pipe_ids[p]);
    } else {
      ir_buf_printf(b, "%c", c);
    }
  }
}

/* Operand levels of an infix operator; parentheses go where a reader (and
 * -Wparentheses) would want them, not only where C++ needs them. */
static void infix(ac_emitter *e, const ir_op *op, const char *sym, int prec, ir_buf *b) {
  int left = prec, right = prec - 1;
  if (prec == P_REL || prec == P_EQ)
    left = right = 8; /* no chained comparisons */
  else if (prec >= 11 && prec <= 13)
    left = right = P_UNARY; /* & ^ | */
  else if (prec >= 14)
    left = right = P_EQ; /* && || */
  operand(e, op->operands[0], left, b);
  ir_buf_printf(b, " %s ", sym);
  operand(e, op->operands[1], right, b);
}

static bool is_float(const ac_emitter *e, uint32_t v) {
  return type_of(e, v).kind == ASC_IR_FLOAT;
}

/* A for loop's step known at compile time (and valid). */
static bool known_step(const ac_emitter *e, uint32_t v) {
  const ir_op *d = def_op(e, v);
  return is_const(e, v) && d->code == IR_CONST_INT && d->ival != 0;
}

static bool nonzero_const(const ac_emitter *e, uint32_t v) {
  const ir_op *d = def_op(e, v);
  return is_const(e, v) && (d->code == IR_CONST_FLOAT ? d->fval != 0 : d->ival != 0);
}

static int call2(ac_emitter *e, const ir_op *op, int helper, const char *fn, ir_buf *b) {
  e->helpers[helper] = true;
  ir_buf_printf(b, "%s(", fn);
  operand(e, op->operands[0], P_ANY, b);
  ir_buf_printf(b, ", ");
  operand(e, op->operands[1], P_ANY, b);
  ir_buf_printf(b, ")");
  return P_PRIMARY;
}

static int ac_floordiv(ac_emitter *e, const ir_op *op, ir_buf *b) {
  if (is_float(e, op->result)) return call2(e, op, H_FLOORDIVF, "pyasc_floordivf", b);
  return call2(e, op, H_FLOORDIV, "pyasc_floordiv", b);
}

static int ac_mod(ac_emitter *e, const ir_op *op, ir_buf *b) {
  if (is_float(e, op->result)) {
    e->helpers[H_FLOORDIVF] = true;
    return call2(e, op, H_MODF, "pyasc_modf", b);
  }
  return call2(e, op, H_MOD, "pyasc_mod", b);
}

/* a / b in float; a nonzero constant divisor needs no zero check. */
static int ac_truediv(ac_emitter *e, const ir_op *op, ir_buf *b) {
  if (!nonzero_const(e, op->operands[1])) return call2(e, op, H_TRUEDIV, "pyasc_truediv", b);
  for (int i = 0; i < 2; i++) {
    uint32_t v = op->operands[i];
    if (i) ir_buf_printf(b, " / ");
    if (is_float(e, v)) {
      operand(e, v, i ? P_UNARY : P_MUL, b);
    } else if (is_const(e, v)) {
      print_float(b, (double)def_op(e, v)->ival);
    } else {
      ir_buf_printf(b, "(float)");
      operand(e, v, P_UNARY, b);
    }
  }
  return P_MUL;
}

static int ac_pow(ac_emitter *e, const ir_op *op, ir_buf *b) {
  if (!is_float(e, op->result)) return call2(e, op, H_IPOW, "pyasc_ipow", b);
  if (is_float(e, op->operands[1])) {
    fail(e, op, ASC_ERR_UNSUPPORTED,
         "arith.pow: a float exponent has no Ascend C scalar form (the scalar unit has no pow); "
         "use an integer exponent");
    return P_PRIMARY;
  }
  return call2(e, op, H_POWI, "pyasc_powi", b);
}

static int ac_shift(ac_emitter *e, const ir_op *op, ir_buf *b) {
  bool left = !strcmp(ir_op_defs[op->code].name, "arith.shl");
  return call2(e, op, left ? H_SHL : H_SHR, left ? "pyasc_shl" : "pyasc_shr", b);
}

/* Python's min/max: the first operand on ties, as the simulator. */
static int ac_minmax(ac_emitter *e, const ir_op *op, ir_buf *b) {
  bool is_min = !strcmp(ir_op_defs[op->code].name, "arith.min");
  operand(e, op->operands[0], 8, b);
  ir_buf_printf(b, " %s ", is_min ? "<=" : ">=");
  operand(e, op->operands[1], 8, b);
  ir_buf_printf(b, " ? ");
  operand(e, op->operands[0], P_ANY, b);
  ir_buf_printf(b, " : ");
  operand(e, op->operands[1], P_ANY, b);
  return P_ANY;
}

static int ac_select(ac_emitter *e, const ir_op *op, ir_buf *b) {
  operand(e, op->operands[0], 15, b);
  ir_buf_printf(b, " ? ");
  operand(e, op->operands[1], P_ANY, b);
  ir_buf_printf(b, " : ");
  operand(e, op->operands[2], P_ANY, b);
  return P_ANY;
}

static int ac_copy(ac_emitter *e, const ir_op *op, ir_buf *b) {
  e->helpers[H_COPY] = true;
  expand(e, op, "pyasc_copy($0, $1, $2)", b);
  return P_PRIMARY;
}

/* PipeBarrier<PIPE_S> is a hardware error: the scalar pipe is in order already. */
static int ac_pipe_barrier(ac_emitter *e, const ir_op *op, ir_buf *b) {
  if (op->iattrs[0] == 0)
    fail(e, op, ASC_ERR_UNSUPPORTED,
         "pipe_barrier(PipeID.PIPE_S) is an error on the NPU (the scalar pipe is ordered "
         "already); remove it");
  expand(e, op, "AscendC::PipeBarrier<$I>()", b);
  return P_PRIMARY;
}

/* adv.exp: Exp<T, taylorExpandLevel, isReuseSource>, the level from attribute 0. */
static int ac_adv_exp(ac_emitter *e, const ir_op *op, ir_buf *b) {
  expand(e, op, "AscendC::Exp<$t0, ", b);
  ir_buf_printf(b, "%lld, false>(", (long long)op->iattrs[0]);
  expand(e, op, "$0, $1$,4, $2)", b);
  return P_PRIMARY;
}

/* adv.softmax / adv.rmsnorm: the tiling struct travels as its fields
 * (operands 4..15, Ascend C's member order), rebuilt as an aggregate; the
 * shared tmp buffer (operand 17) when given. */
static int ac_adv_tiled(ac_emitter *e, const ir_op *op, ir_buf *b) {
  bool softmax = !strcmp(ir_op_defs[op->code].name, "adv.softmax");
  int ntensors = softmax ? 4 : 3;
  ir_buf_printf(b, "AscendC::%s<", softmax ? "SoftMax" : "RmsNorm");
  expand(e, op, "$t0>(", b); /* explicit: SoftMax<half> with float sum/max deduces no T */
  for (int i = 0; i < ntensors; i++) {
    if (i) ir_buf_printf(b, ", ");
    operand(e, op->operands[i], P_ANY, b);
  }
  if (op->noperands > 17) {
    ir_buf_printf(b, ", ");
    operand(e, op->operands[17], P_ANY, b);
  }
  if (!softmax) expand(e, op, ", $c3", b);
  ir_buf_printf(b, ", %s{", softmax ? "SoftMaxTiling" : "RmsNormTiling");
  for (int i = 4; i < 16; i++) {
    ir_buf_printf(b, "%s(%s)", i > 4 ? ", " : "", !softmax && i == 8 ? "float" : "uint32_t");
    operand(e, op->operands[i], P_UNARY, b);
  }
  ir_buf_printf(b, "})");
  return P_PRIMARY;
}

static void line_start(ac_emitter *e) {
  ir_buf_printf(e->out, "%*s", e->depth * 4, "");
}

/* trans_data_to_5hd: the two lists become LocalTensor arrays in a block. */
static int ac_trans_5hd(ac_emitter *e, const ir_op *op, ir_buf *b) {
  line_start(e);
  ir_buf_printf(b, "{\n");
  for (int list = 0; list < 2; list++) {
    line_start(e);
    expand(e, op, "    AscendC::LocalTensor<$t0> ", b);
    ir_buf_printf(b, "pyasc_%s[16] = {", list ? "src" : "dst");
    for (int i = 0; i < 16; i++) {
      if (i) ir_buf_printf(b, ", ");
      operand(e, op->operands[list * 16 + i], P_ANY, b);
    }
    ir_buf_printf(b, "};\n");
  }
  line_start(e);
  expand(e, op, "    AscendC::TransDataTo5HD<$t0>(pyasc_dst, pyasc_src, ", b);
  ir_buf_printf(b, "AscendC::TransDataTo5HDParams(");
  print_enum(e, op, 'b', 0, b);
  ir_buf_printf(b, ", ");
  print_enum(e, op, 'b', 1, b);
  ir_buf_printf(b, ", (uint8_t)");
  operand(e, op->operands[32], P_UNARY, b);
  ir_buf_printf(b, ", (uint16_t)");
  operand(e, op->operands[33], P_UNARY, b);
  ir_buf_printf(b, ", (uint16_t)");
  operand(e, op->operands[34], P_UNARY, b);
  ir_buf_printf(b, "));\n");
  line_start(e);
  ir_buf_printf(b, "}\n");
  return P_PRIMARY;
}

/* GlobalTensor<T> g; g.SetGlobalBuffer(addr[, length]); */
static int ac_global_new(ac_emitter *e, const ir_op *op, ir_buf *b) {
  line_start(e);
  print_decl(e, b, op->result);
  ir_buf_printf(b, ";\n");
  line_start(e);
  ir_buf_printf(b, "%s.SetGlobalBuffer(", e->values[op->result].name);
  expand(e, op, "$0$,1);\n", b);
  return P_PRIMARY;
}

/* AscendC::printf with the format's conversions matched to the arguments
 * as the simulator prints them: ints as integers, floats as floats. Ascend
 * C's printf takes %d/%i/%u/%x for int8..int64 and %f for float. */
static int ac_printf(ac_emitter *e, const ir_op *op, ir_buf *b) {
  line_start(e);
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
        if (is_float(e, op->operands[arg]))
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
    if (type_of(e, op->operands[i]).kind == ASC_IR_BOOL) {
      ir_buf_printf(b, "(int32_t)");
      operand(e, op->operands[i], P_UNARY, b);
    } else {
      operand(e, op->operands[i], P_ANY, b);
    }
  }
  ir_buf_printf(b, ");\n");
  return P_PRIMARY;
}

/* --- mask forms ------------------------------------------------------------------ */

static const ac_op *find_mapping(const char *name);

/* A mask word as a uint64_t: IR words hold its bits as int64. */
static void print_word(ac_emitter *e, uint32_t v, ir_buf *b) {
  const ir_op *d = def_op(e, v);
  if (is_const(e, v) && d->code == IR_CONST_INT) {
    if (d->ival >= 0 && d->ival <= INT32_MAX)
      ir_buf_printf(b, "%lld", (long long)d->ival);
    else
      ir_buf_printf(b, "0x%llxULL", (unsigned long long)(uint64_t)d->ival);
    return;
  }
  ir_buf_printf(b, "(uint64_t)");
  operand(e, v, P_UNARY, b);
}

/* A bit mask (attribute 0 is 1) is an array: a block declares it, low
 * word first, around the call. */
static bool open_mask(ac_emitter *e, const ir_op *op, int m0) {
  if (op->iattrs[0] != 1) return false;
  line_start(e);
  ir_buf_printf(e->out, "{\n");
  e->depth++;
  line_start(e);
  ir_buf_printf(e->out, "uint64_t pyasc_mask[2] = {");
  print_word(e, op->operands[m0], e->out);
  ir_buf_printf(e->out, ", ");
  print_word(e, op->operands[m0 + 1], e->out);
  ir_buf_printf(e->out, "};\n");
  return true;
}

static void close_mask(ac_emitter *e, bool opened) {
  if (!opened) return;
  e->depth--;
  line_start(e);
  ir_buf_printf(e->out, "}\n");
}

/* The mask argument: the array, or a continuous mask of the API's type. */
static void print_mask(ac_emitter *e, const ir_op *op, int m0, const char *type, ir_buf *b) {
  uint32_t v = op->operands[m0];
  const ir_op *d = def_op(e, v);
  if (op->iattrs[0] == 1) {
    ir_buf_printf(b, "pyasc_mask");
  } else if (is_const(e, v) && d->code == IR_CONST_INT && d->ival > 0 && d->ival <= INT32_MAX) {
    ir_buf_printf(b, "%lld", (long long)d->ival);
  } else {
    ir_buf_printf(b, "(%s)", type);
    operand(e, v, P_UNARY, b);
  }
}

/* bilinear_interpolation: the offsets as uint32, the mask as for the mask forms. */
static int ac_bilinear(ac_emitter *e, const ir_op *op, ir_buf *b) {
  bool block = open_mask(e, op, 4);
  line_start(e);
  expand(e, op, "AscendC::BilinearInterpolation($0, $1, $p2.ReinterpretCast<uint32_t>(), $3, ", b);
  print_mask(e, op, 4, "uint64_t", b);
  /* templates name operands 0-9: v_repeat and the tmp buffer are 10 and 11 */
  expand(e, op, ", (uint8_t)$u6, $7, (uint16_t)$u8, (uint16_t)$u9, (uint8_t)", b);
  operand(e, op->operands[10], P_UNARY, b);
  ir_buf_printf(b, ", ");
  operand(e, op->operands[11], P_ANY, b);
  ir_buf_printf(b, ");\n");
  close_mask(e, block);
  return P_PRIMARY;
}

/* Name<targs, false> when the caller set the mask register itself. */
static void print_api(ac_emitter *e, const ir_op *op, const char *name, const char *targs,
                      int set_mask_attr, ir_buf *b) {
  ir_buf_printf(b, "AscendC::%s", name);
  if (!op->iattrs[set_mask_attr]) {
    ir_buf_printf(b, "<");
    expand(e, op, targs, b);
    ir_buf_printf(b, ", false>");
  }
}

/* Op(dst, srcs..., [scalar,] [mode,] mask, repeatTime, XRepeatParams(strides)) */
static int ac_mask_form(ac_emitter *e, const ir_op *op, ir_buf *b) {
  const ac_op *row = find_mapping(ir_op_defs[op->code].name);
  const ac_masked *l = row->masked;
  int m0 = l->tensors + (l->scalar ? 1 : 0);
  bool block = open_mask(e, op, m0);
  line_start(e);
  print_api(e, op, row->text, l->targs, 1, b);
  ir_buf_printf(b, "(");
  for (int i = 0; i < l->tensors; i++) {
    operand(e, op->operands[i], P_ANY, b);
    ir_buf_printf(b, ", ");
  }
  if (l->scalar) {
    char scalar[4] = {'$', 'c', (char)('0' + l->tensors), 0};
    expand(e, op, scalar, b);
    ir_buf_printf(b, ", ");
  }
  if (l->mode) {
    print_enum(e, op, l->mode, 2, b);
    ir_buf_printf(b, ", ");
  }
  print_mask(e, op, m0, "uint64_t", b);
  ir_buf_printf(b, ", ");
  operand(e, op->operands[m0 + 2], P_ANY, b);
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
    operand(e, op->operands[m0 + 3 + i], P_ANY, b);
  }
  ir_buf_printf(b, plain ? ");\n" : "));\n");
  close_mask(e, block);
  return P_PRIMARY;
}

/* ReduceSum/Max/Min(dst, src, tmp, mask, repeatTime, srcRepStride[, calIndex]) */
static int ac_reduce_mask(ac_emitter *e, const ir_op *op, ir_buf *b) {
  const ac_op *row = find_mapping(ir_op_defs[op->code].name);
  bool block = open_mask(e, op, 3);
  line_start(e);
  expand(e, op, row->text, b);
  ir_buf_printf(b, "(");
  expand(e, op, "$0, $1, $2, ", b);
  print_mask(e, op, 3, "int32_t", b);
  expand(e, op, ", $5, $6", b);
  if (strcmp(row->text, "AscendC::ReduceSum")) {
    ir_buf_printf(b, ", ");
    print_enum(e, op, 'b', 1, b);
  }
  ir_buf_printf(b, ");\n");
  close_mask(e, block);
  return P_PRIMARY;
}

/* The per-repeat reductions. WholeReduce* take the mask before repeatTime,
 * BlockReduce* and PairReduceSum after it. */
static int ac_repeat_reduce(ac_emitter *e, const ir_op *op, ir_buf *b) {
  const ac_op *row = find_mapping(ir_op_defs[op->code].name);
  bool whole = !strncmp(row->text, "Whole", 5);
  bool block = open_mask(e, op, 2);
  line_start(e);
  print_api(e, op, row->text, "$t0", 1, b);
  expand(e, op, "($0, $1, ", b);
  if (!whole) expand(e, op, "$4, ", b);
  print_mask(e, op, 2, "int32_t", b);
  if (whole) expand(e, op, ", $4", b);
  expand(e, op, ", $5, $6, $7", b);
  if (whole && strcmp(row->text, "WholeReduceSum")) {
    ir_buf_printf(b, ", ");
    print_enum(e, op, 'o', 2, b);
  }
  ir_buf_printf(b, ");\n");
  close_mask(e, block);
  return P_PRIMARY;
}

/* SetVectorMask<T, mode>(len) or (maskHigh, maskLow): attribute 2 says which. */
static int ac_set_vector_mask(ac_emitter *e, const ir_op *op, ir_buf *b) {
  expand(e, op, "AscendC::SetVectorMask<$et0, $em1>(", b);
  if (op->iattrs[2]) {
    print_word(e, op->operands[0], b);
    ir_buf_printf(b, ", ");
    print_word(e, op->operands[1], b);
  } else {
    operand(e, op->operands[0], P_ANY, b);
  }
  ir_buf_printf(b, ")");
  return P_PRIMARY;
}

/* DataCopyPad: GM->UB takes padding parameters (none given: no padding). */
static int ac_data_copy_pad(ac_emitter *e, const ir_op *op, ir_buf *b) {
  expand(e, op, "AscendC::DataCopyPad($0, $1, AscendC::DataCopyExtParams($2, $3, $4, $5, 0)", b);
  if (type_of(e, op->operands[0]).kind == ASC_IR_LOCAL) {
    if (op->noperands > 6)
      expand(e, op, ", AscendC::DataCopyPadExtParams<$t0>($6, $7, $8, $c9)", b);
    else
      expand(e, op, ", AscendC::DataCopyPadExtParams<$t0>(false, 0, 0, 0)", b);
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

#define D(x) (1u << ASC_##x)
#define VEC_16_32 (D(FLOAT16) | D(BFLOAT16) | D(FLOAT32) | D(INT16) | D(INT32))

/* --- cube unit ------------------------------------------------------------------
 * Fixpipe<dst T, src U, config>(dst, src, FixpipeParamsV220): the quant mode
 * and scale are fields of the params, set in an immediately invoked lambda. */
static const char *const quant_modes[] = {"NoQuant",      "F322F16", "F322BF16",
                                          "DEQF16",       "VDEQF16", "QF322B8_PRE",
                                          "VQF322B8_PRE", "REQ8",    "VREQ8"};
static int ac_cube_fixpipe(ac_emitter *e, const ir_op *op, ir_buf *b) {
  const ir_op *q = def_op(e, op->operands[6]);
  int64_t quant = q && q->code == IR_CONST_INT ? q->ival : -1;
  if (quant < 0 || quant >= (int64_t)(sizeof quant_modes / sizeof quant_modes[0])) {
    fail(e, op, ASC_ERR_UNSUPPORTED, "fixpipe: quant_pre must be a constant QuantModes value");
    return P_PRIMARY;
  }
  expand(e, op, "AscendC::Fixpipe<$t0, $t1, ", b);
  ir_buf_printf(b, "%s>(", op->iattrs[0] ? "AscendC::CFG_NZ" : "AscendC::CFG_ROW_MAJOR");
  expand(e, op, "$0, $1, [&]() {\n    AscendC::FixpipeParamsV220 p($2, $3, $4, $5, $7);\n", b);
  ir_buf_printf(b, "    p.quantPre = QuantMode_t::%s;\n", quant_modes[quant]);
  const ir_op *d = def_op(e, op->operands[8]);
  if (quant == 3 || quant == 5 || quant == 7) { /* scalar scales: the fp32's bits */
    if (!d || d->code != IR_CONST_FLOAT) {
      fail(e, op, ASC_ERR_UNSUPPORTED, "fixpipe: deq_scalar must be a constant for Ascend C");
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
    fail(e, op, ASC_ERR_UNSUPPORTED, "data_copy: unknown QuantModes value");
    return P_PRIMARY;
  }
  expand(e, op, "AscendC::DataCopy($0, $1, AscendC::DataCopyCO12DstParams($2, $3, $4, $5, ", b);
  ir_buf_printf(b, "QuantMode_t::%s, ", quant_modes[quant]);
  expand(e, op, "$6, ", b);
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
  const char *in = elem_type((int)op->iattrs[1]), *out = elem_type((int)op->iattrs[2]);
  const char *la = lays[(flags >> 6) & 7], *lb = lays[(flags >> 9) & 7],
             *lc = lays[(flags >> 12) & 7];
  line_start(e);
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
  line_start(e);
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
    fail(e, op, ASC_ERR_UNSUPPORTED,
         "Matmul.init: Ascend C needs the kernel's TCubeTiling parameter itself (pass the tiling "
         "unchanged)");
    return P_PRIMARY;
  }
  line_start(e);
  ir_buf_printf(
      b, "REGIST_MATMUL_OBJ(AscendC::GetTPipePtr(), AscendC::GetSysWorkSpacePtr(), %s, &%.*s);\n",
      e->values[op->operands[0]].name, (int)(slash - path), path);
  line_start(e);
  expand(e, op, "$p0.SetOrgShape($1, $2, $3, $4);\n", b);
  line_start(e);
  expand(e, op, "$p0.SetSingleShape($5, $6, $7);\n", b);
  line_start(e);
  expand(e, op, "(void)$8, (void)$9, (void)", b); /* one-digit templates: operand 10 by hand */
  operand(e, op->operands[10], P_UNARY, b);
  ir_buf_printf(b, ";  // base block: Init reads it from the tiling\n");
  return P_PRIMARY;
}
static int ac_mm_set_tensor(ac_emitter *e, const ir_op *op, ir_buf *b) {
  static const char *const forms[] = {"$p0.SetTensorA($1, $2)", "$p0.SetTensorB($1, $2)",
                                      "$p0.SetBias($1)"};
  expand(e, op, forms[op->iattrs[0] >= 0 && op->iattrs[0] < 3 ? op->iattrs[0] : 2], b);
  return P_PRIMARY;
}
static int ac_mm_shape(ac_emitter *e, const ir_op *op, ir_buf *b) {
  expand(e, op, op->iattrs[0] ? "$p0.SetOrgShape($1, $2, $3, $4)" : "$p0.SetTail($1, $2, $3)", b);
  return P_PRIMARY;
}
/* CrossCoreSetFlag<modeId, pipe>(flagId) and CrossCoreWaitFlag<...> [pipe, mode] */
static int ac_cross_core(ac_emitter *e, const ir_op *op, ir_buf *b) {
  bool wait = !strcmp(ir_op_defs[op->code].name, "cube.cross_wait");
  ir_buf_printf(b, "AscendC::CrossCore%sFlag<%lld, ", wait ? "Wait" : "Set",
                (long long)op->iattrs[1]);
  expand(e, op, "$I>($0)", b);
  return P_PRIMARY;
}
static int ac_mm_flag(ac_emitter *e, const ir_op *op, ir_buf *b) {
  static const char *const calls[] = {"$p0.DisableBias()", "$p0.WaitIterateAll()",
                                      "$p0.WaitGetTensorC()"};
  int64_t which = op->iattrs[0];
  expand(e, op, calls[which >= 0 && which <= 2 ? which : 0], b);
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
  fail(e, op, ASC_ERR_UNSUPPORTED,
       "Matmul.iterate's count (with mm.iterate() as count) has no Ascend C form yet");
  return P_PRIMARY;
}
/* --- end of cube unit --- */

#include "emit_ascendc_sort.h" /* sort, gather_mask, CMPMASK, scalar bits */
/* after the sort unit, in the order ir_ops.c includes them */
#include "emit_ascendc_aipp.h"    /* set_aipp_functions, load_image_to_local */
#include "emit_ascendc_deq.h"     /* set_deq_scale, cast_deq, add_deq_relu */
#include "emit_ascendc_img2col.h" /* LoadData3DParamsV1/V2 forms */

/* The Ascend C form of every IR op: the ac_* columns of its row in
 * api_table.def. Usually a template (see expand) of its call, e.g.
 * "AscendC::Add($0, $1, $2, $3)"; AC_PURE if it may be folded into its use;
 * a special function when the form depends on operands or attributes. Op
 * results are declared as `T name = <text>;`, ops without one become
 * `<text>;`.
 * Sources: docs/kernel-language.md (PyAsc's documented Ascend C
 * prototypes and template parameters); Huawei's Ascend C API reference
 * (hiascend.com, CANN 8.x) for the LocalTensor static-tensor constructor
 * LocalTensor<T>(TPosition, addr, tileSize), Copy (mask forms only, 16/32-bit
 * types), Duplicate (no int8 form), printf/PRINTF (AscendC::printf), Trap,
 * and the reductions, whose mask comes before repeatTime for WholeReduce*
 * but after it for BlockReduce* and PairReduceSum (the API headers; PyAsc's
 * WholeReduceSum docstring has it the other way round). */
static const ac_op ascendc_ops[] = {
#define API(op, api, operands, result, niattrs, pipe, check, c_emit, c_rt, text, prec, flags, \
            dtypes, special, masked)                                                          \
  {op, text, prec, flags, dtypes, special, masked},
#define PYAPI(api, how)
#include "api_table.def"
#undef API
#undef PYAPI
};

#undef D
#undef VEC_16_32

static const ac_op *find_mapping(const char *name) {
  for (size_t i = 0; i < sizeof ascendc_ops / sizeof ascendc_ops[0]; i++)
    if (!strcmp(ascendc_ops[i].ir, name))
      return ascendc_ops[i].text || ascendc_ops[i].special ? &ascendc_ops[i] : NULL;
  return NULL;
}

static int expr_of(ac_emitter *e, const ir_op *op, ir_buf *b) {
  const ac_op *map = find_mapping(ir_op_defs[op->code].name);
  if (!map) return P_PRIMARY; /* reported when the sites were collected */
  if (map->special) return map->special(e, op, b);
  if (map->flags & AC_INFIX) {
    infix(e, op, map->text, map->prec, b);
    return map->prec;
  }
  expand(e, op, map->text, b);
  return map->prec;
}

/* --- analysis ------------------------------------------------------------------ */

static void collect(ac_emitter *e, const ir_region *r, const ir_region *scope);

static void add_site(ac_emitter *e, const ir_op *op, const ir_region *scope) {
  if (e->nsites == e->cap) {
    long cap = e->cap ? e->cap * 2 : 64;
    ac_site *grown = realloc(e->sites, (size_t)cap * sizeof *grown);
    if (!grown) {
      fail(e, NULL, ASC_ERR_OUT_OF_MEMORY, "out of memory emitting Ascend C");
      return;
    }
    e->sites = grown;
    e->cap = cap;
  }
  long i = e->nsites++;
  ac_site *s = &e->sites[i];
  memset(s, 0, sizeof *s);
  s->op = op;
  s->scope = scope;
  s->pos = i;
  if (op->code >= IR_FIRST_TABLE_OP) {
    s->map = find_mapping(ir_op_defs[op->code].name);
    if (!s->map)
      fail(e, op, ASC_ERR_UNSUPPORTED,
           "%s has no Ascend C mapping (fill in its Ascend C columns in "
           "src/compiler/api_table.def)",
           ir_op_defs[op->code].name);
    else if (s->map->dtypes && op->noperands &&
             !(s->map->dtypes & (1u << type_of(e, op->operands[0]).dtype)))
      fail(e, op, ASC_ERR_UNSUPPORTED, "%s: Ascend C has no form for %s tensors",
           ir_op_defs[op->code].name, asc_dtype_name((asc_dtype)type_of(e, op->operands[0]).dtype));
  }
  if (op->result) e->values[op->result].def = i;
  bool loop = op->code == IR_FOR || op->code == IR_WHILE;
  for (int j = 0; j < op->nregions && !e->st; j++) {
    collect(e, op->regions[j], loop ? op->regions[j] : scope);
    if (op->code == IR_WHILE && j == 0) e->sites[i].cond_end = e->nsites - 1;
  }
  e->sites[i].end = e->nsites - 1;
}

static void collect(ac_emitter *e, const ir_region *r, const ir_region *scope) {
  for (int i = 0; r && i < r->n && !e->st; i++)
    if (!r->ops[i]->dead) add_site(e, r->ops[i], scope);
}

/* Records that v is used, at or through site s, before position end. */
static void note_use(ac_emitter *e, uint32_t v, long end, const ir_region *scope, bool foreign,
                     bool pin) {
  ac_value *av = &e->values[v];
  av->nuses++;
  if (end > av->use_end) av->use_end = end;
  if (foreign || av->def < 0 || e->sites[av->def].scope != scope) av->foreign = true;
  if (pin) av->pinned = true;
}

static bool stored_between(const ac_emitter *e, uint32_t var, long lo, long hi) {
  for (long i = lo + 1; i < hi && i < e->nsites; i++) {
    const ir_op *op = e->sites[i].op;
    if (op->code == IR_STORE && op->operands[0] == var) return true;
  }
  return false;
}

/* Whether v is written into its use. Its users come later in program
 * order, so walking backwards decides them first. */
static bool fold(const ac_emitter *e, const ac_site *s, uint32_t v) {
  const ir_op *op = s->op;
  const ac_value *av = &e->values[v];
  if (op->code >= IR_CONST_INT && op->code <= IR_CONST_BOOL) return true;
  if (av->nuses == 0 || av->foreign) return false;
  /* a read of a variable is the variable, whatever Python name it is bound to */
  if (op->code == IR_LOAD) return !stored_between(e, op->operands[0], s->pos, av->use_end);
  if (e->m->values[v].name) return false;
  return s->map && (s->map->flags & AC_PURE) && !(s->map->flags & AC_STATEMENT) && av->nuses == 1 &&
         !av->pinned;
}

static void analyse(ac_emitter *e) {
  for (long i = 0; i < e->nsites; i++) {
    const ir_op *op = e->sites[i].op;
    if (op->code == IR_WHILE) /* the condition is read after its region */
      note_use(e, op->operands[0], e->sites[i].cond_end + 1, op->regions[0], false, false);
  }
  for (long i = e->nsites - 1; i >= 0; i--) {
    const ac_site *s = &e->sites[i];
    const ir_op *op = s->op;
    if (op->result && op->code != IR_VAR && op->code != IR_FOR)
      e->values[op->result].folded = fold(e, s, op->result);
    if (op->code == IR_LOAD || op->code == IR_WHILE || op->code == IR_VAR) continue;
    const ac_value *r = op->result && op->code != IR_FOR ? &e->values[op->result] : NULL;
    bool folded = r && r->folded;
    bool pin = s->map && (s->map->flags & AC_KEEP_OPERANDS);
    /* a for loop with a run-time step writes its stop and step more than once */
    bool loop_pin = op->code == IR_FOR && !known_step(e, op->operands[2]);
    for (int j = op->code == IR_STORE ? 1 : 0; j < op->noperands; j++) {
      long end = folded ? r->use_end : op->code == IR_FOR ? s->end + 1 : s->pos;
      note_use(e, op->operands[j], end, s->scope, folded && r->foreign, pin || (loop_pin && j));
    }
  }
}

/* A for loop whose variable nothing else assigns, and that is only read
 * inside the loop, uses the loop's own variable: `for (int64_t i = ...)`. */
static void fuse_loop_vars(ac_emitter *e) {
  for (long i = 0; i < e->nsites; i++) {
    const ac_site *s = &e->sites[i];
    const ir_op *op = s->op;
    if (op->code != IR_FOR || !op->regions[0] || !op->regions[0]->n) continue;
    const ir_op *first = op->regions[0]->ops[0];
    if (first->code != IR_STORE || first->operands[1] != op->result) continue;
    uint32_t var = first->operands[0];
    bool alone = true;
    for (long j = 0; j < e->nsites && alone; j++) {
      const ir_op *o = e->sites[j].op;
      if (o->code == IR_STORE && o->operands[0] == var && o != first) alone = false;
      if (o->code == IR_LOAD && o->operands[0] == var && (j <= s->pos || j > s->end)) alone = false;
    }
    if (!alone) continue;
    e->values[var].loop = op->result;
  }
}

static void name_values(ac_emitter *e) {
  const asc_ir_module *m = e->m;
  for (int i = 0; i < m->nparams; i++) give_name(e, m->params[i], m->values[m->params[i]].name);
  for (long i = 0; i < e->nsites && !e->st; i++) {
    const ir_op *op = e->sites[i].op;
    uint32_t r = op->result;
    if (!r || e->values[r].folded || e->values[r].name) continue;
    if (op->code == IR_VAR && e->values[r].loop) {
      /* the loop's induction value takes the variable's name */
      uint32_t iv = e->values[r].loop;
      give_name(e, iv, m->values[r].name);
      if (!e->st) e->values[r].name = strdup(e->values[iv].name);
      if (!e->values[r].name) fail(e, NULL, ASC_ERR_OUT_OF_MEMORY, "out of memory naming values");
    } else if (!(op->code >= IR_CONST_INT && op->code <= IR_CONST_BOOL)) {
      give_name(e, r, m->values[r].name);
    }
  }
}

/* --- statements ------------------------------------------------------------------ */

static void emit_region(ac_emitter *e, const ir_region *r);

static void statement(ac_emitter *e, const ir_op *op) {
  const ac_op *map = find_mapping(ir_op_defs[op->code].name);
  if (map->flags & AC_STATEMENT) {
    map->special(e, op, e->out);
    return;
  }
  if (map->flags & AC_OBJECT) {
    line_start(e);
    if (map->text && (!strncmp(map->text, "AscendC::TBufPool<", 18) ||
                      !strncmp(map->text, "AscendC::TQueBind<", 18))) {
      /* template arguments its IR type (a pipe's, a TQue's) does not hold */
      expand(e, op, map->text, e->out);
      ir_buf_printf(e->out, " %s;\n", e->values[op->result].name);
      return;
    }
    print_decl(e, e->out, op->result);
    ir_buf_printf(e->out, ";\n");
    return;
  }
  ir_buf text = {0};
  expr_of(e, op, &text);
  if (text.failed) e->out->failed = true;
  const char *expr = text.data ? text.data : "";
  line_start(e);
  if (op->result) {
    /* T x = T(args) reads better as T x(args). */
    ir_buf type = {0};
    print_type(&type, type_of(e, op->result));
    size_t n = type.len;
    bool ctor = type.data && !strncmp(expr, type.data, n) && expr[n] == '(';
    print_decl(e, e->out, op->result);
    ir_buf_printf(e->out, ctor ? "%s;\n" : " = %s;\n", ctor ? expr + n : expr);
    free(type.data);
  } else {
    ir_buf_printf(e->out, "%s;\n", expr);
  }
  free(text.data);
}

static void declare_var(ac_emitter *e, const ir_op *op) {
  uint32_t v = op->result;
  asc_ir_type t = type_of(e, v);
  if (e->values[v].loop) return; /* the for loop declares it */
  if (t.kind == ASC_IR_PIPE || t.kind == ASC_IR_QUE || t.kind == ASC_IR_TBUF) {
    fail(e, op, ASC_ERR_UNSUPPORTED,
         "variable '%s' holds a %s, and Ascend C objects cannot be reassigned: create it once, "
         "outside loops and branches",
         e->m->values[v].name, ir_kind_name((asc_ir_kind)t.kind));
    return;
  }
  line_start(e);
  print_decl(e, e->out, v);
  const char *init = t.kind == ASC_IR_INT     ? " = 0"
                     : t.kind == ASC_IR_FLOAT ? " = 0.0f"
                     : t.kind == ASC_IR_BOOL  ? " = false"
                     : t.kind == ASC_IR_ADDR  ? " = nullptr"
                                              : "";
  ir_buf_printf(e->out, "%s;\n", init);
}

static bool emits(const ac_emitter *e, const ir_op *op);

static bool region_emits(const ac_emitter *e, const ir_region *r) {
  for (int i = 0; r && i < r->n; i++)
    if (emits(e, r->ops[i])) return true;
  return false;
}

static bool emits(const ac_emitter *e, const ir_op *op) {
  if (op->dead || (op->code >= IR_CONST_INT && op->code <= IR_CONST_BOOL)) return false;
  if (op->code == IR_VAR) return !e->values[op->result].loop;
  if (op->code == IR_STORE) return !e->values[op->operands[0]].loop;
  if (op->result && op->code != IR_FOR && e->values[op->result].folded) return false;
  return true;
}

static void emit_for(ac_emitter *e, const ir_op *op) {
  uint32_t iv = op->result, step = op->operands[2];
  const char *name = e->values[iv].name;
  const ir_op *sd = def_op(e, step);
  bool known = known_step(e, step);
  if (!known) {
    line_start(e);
    ir_buf_printf(e->out, "if (");
    operand(e, step, P_EQ - 1, e->out);
    ir_buf_printf(e->out, " == 0) {\n");
    e->depth++;
    line_start(e);
    ir_buf_printf(e->out, "AscendC::Trap();  // range() step must not be zero\n");
    e->depth--;
    line_start(e);
    ir_buf_printf(e->out, "}\n");
  }
  line_start(e);
  ir_buf_printf(e->out, "for (int64_t %s = ", name);
  operand(e, op->operands[0], P_ANY, e->out);
  ir_buf_printf(e->out, "; ");
  if (known) {
    ir_buf_printf(e->out, "%s %c ", name, sd->ival > 0 ? '<' : '>');
    operand(e, op->operands[1], 8, e->out);
    if (sd->ival == 1)
      ir_buf_printf(e->out, "; ++%s) {\n", name);
    else if (sd->ival == -1)
      ir_buf_printf(e->out, "; --%s) {\n", name);
    else if (sd->ival > 0)
      ir_buf_printf(e->out, "; %s += %lld) {\n", name, (long long)sd->ival);
    else
      ir_buf_printf(e->out, "; %s -= %llu) {\n", name, 0ULL - (unsigned long long)sd->ival);
  } else {
    operand(e, step, 8, e->out);
    ir_buf_printf(e->out, " > 0 ? %s < ", name);
    operand(e, op->operands[1], 8, e->out);
    ir_buf_printf(e->out, " : %s > ", name);
    operand(e, op->operands[1], 8, e->out);
    ir_buf_printf(e->out, "; %s += ", name);
    operand(e, step, P_ANY, e->out);
    ir_buf_printf(e->out, ") {\n");
  }
  emit_region(e, op->regions[0]);
  line_start(e);
  ir_buf_printf(e->out, "}\n");
}

static void emit_while(ac_emitter *e, const ir_op *op) {
  line_start(e);
  if (!region_emits(e, op->regions[0])) {
    ir_buf_printf(e->out, "while (");
    operand(e, op->operands[0], P_ANY, e->out);
    ir_buf_printf(e->out, ") {\n");
  } else {
    /* the condition needs statements of its own */
    ir_buf_printf(e->out, "while (true) {\n");
    emit_region(e, op->regions[0]);
    e->depth++;
    line_start(e);
    ir_buf_printf(e->out, "if (!");
    operand(e, op->operands[0], P_UNARY, e->out);
    ir_buf_printf(e->out, ") {\n");
    e->depth++;
    line_start(e);
    ir_buf_printf(e->out, "break;\n");
    e->depth--;
    line_start(e);
    ir_buf_printf(e->out, "}\n");
    e->depth--;
  }
  emit_region(e, op->regions[1]);
  line_start(e);
  ir_buf_printf(e->out, "}\n");
}

static void emit_if(ac_emitter *e, const ir_op *op) {
  line_start(e);
  ir_buf_printf(e->out, "if (");
  operand(e, op->operands[0], P_ANY, e->out);
  ir_buf_printf(e->out, ") {\n");
  emit_region(e, op->regions[0]);
  if (op->nregions > 1 && region_emits(e, op->regions[1])) {
    line_start(e);
    ir_buf_printf(e->out, "} else {\n");
    emit_region(e, op->regions[1]);
  }
  line_start(e);
  ir_buf_printf(e->out, "}\n");
}

/* x = v, or x += d for x = x + d (also -= and *=). */
static void emit_store(ac_emitter *e, const ir_op *op) {
  uint32_t var = op->operands[0], v = op->operands[1];
  const ir_op *d = def_op(e, v);
  const char *name = d && d->code >= IR_FIRST_TABLE_OP ? ir_op_defs[d->code].name : "";
  const char *sym = !strcmp(name, "arith.add")   ? "+="
                    : !strcmp(name, "arith.sub") ? "-="
                    : !strcmp(name, "arith.mul") ? "*="
                                                 : NULL;
  const ir_op *lhs = sym && e->values[v].folded ? def_op(e, d->operands[0]) : NULL;
  line_start(e);
  if (lhs && lhs->code == IR_LOAD && lhs->operands[0] == var && e->values[d->operands[0]].folded) {
    ir_buf_printf(e->out, "%s %s ", e->values[var].name, sym);
    operand(e, d->operands[1], P_ANY, e->out);
  } else {
    ir_buf_printf(e->out, "%s = ", e->values[var].name);
    operand(e, v, P_ANY, e->out);
  }
  ir_buf_printf(e->out, ";\n");
}

static void emit_op(ac_emitter *e, const ir_op *op) {
  if (e->st || !emits(e, op)) return;
  switch (op->code) {
    case IR_VAR:
      declare_var(e, op);
      return;
    case IR_LOAD:
      line_start(e);
      print_decl(e, e->out, op->result);
      ir_buf_printf(e->out, " = %s;\n", e->values[op->operands[0]].name);
      return;
    case IR_STORE:
      emit_store(e, op);
      return;
    case IR_FOR:
      emit_for(e, op);
      return;
    case IR_WHILE:
      emit_while(e, op);
      return;
    case IR_IF:
      emit_if(e, op);
      return;
    default:
      statement(e, op);
  }
}

static void emit_region(ac_emitter *e, const ir_region *r) {
  e->depth++;
  for (int i = 0; r && i < r->n && !e->st; i++) emit_op(e, r->ops[i]);
  e->depth--;
}

/* --- the file ------------------------------------------------------------------- */

static const char *base_name(const char *path) {
  const char *slash = strrchr(path, '/');
  return slash ? slash + 1 : path;
}

/* --- struct parameters ----------------------------------------------------------- */
/* PyAsc passes a Struct argument as one GM pointer to its packed bytes; the
 * simulator's launch flattens it into scalar parameters that carry their
 * member path (asc_ir_set_member). The Ascend C kernel takes the struct
 * whole, as PyAsc's does, copies it out of GM and reads each member into
 * the flattened parameter's name, so the body is the same either way. */

enum { AC_MAX_STRUCTS = 32, AC_MAX_MEMBERS = 64, AC_MAX_PARTS = 34, AC_NAME = 128 };

typedef struct {
  char name[AC_NAME];
  int pack, n;
  bool emitted;
  char fields[AC_MAX_MEMBERS][AC_NAME];
  int sub[AC_MAX_MEMBERS]; /* a struct's index, or -1 for a scalar */
  const char *ctype[AC_MAX_MEMBERS];
} ac_struct;

typedef struct {
  ac_struct structs[AC_MAX_STRUCTS];
  int nstructs;
  /* per parameter: the struct parameter it belongs to (-1 none); the root
   * struct's index, its GM pointer's and its local copy's names */
  int root_of[64];
  int root_struct[64];
  char addr_name[64][AC_NAME], local_name[64][AC_NAME];
} ac_structs;

typedef struct {
  char buf[512];
  char *parts[AC_MAX_PARTS];
  int n;
} ac_path;

static const char *const scalar_ctypes[][2] = {
    {"int1", "bool"},       {"bool", "bool"},       {"int8", "int8_t"},   {"int16", "int16_t"},
    {"int32", "int32_t"},   {"int64", "int64_t"},   {"uint8", "uint8_t"}, {"uint16", "uint16_t"},
    {"uint32", "uint32_t"}, {"uint64", "uint64_t"}, {"float32", "float"}, {"float64", "double"}};

static bool usable_name(const ac_emitter *e, const char *s) {
  return is_identifier(s) && strlen(s) < AC_NAME - 8 && !reserved(s) && !helper_name(s) &&
         strcmp(s, e->kernel_name);
}

/* Splits "param/Type@pack/field/.../scalar"; false (e->st set) when malformed. */
static bool parse_path(ac_emitter *e, const char *path, ac_path *p) {
  size_t len = strlen(path);
  p->n = 0;
  if (len >= sizeof p->buf) {
    fail(e, NULL, ASC_ERR_UNSUPPORTED, "struct member path too long");
    return false;
  }
  memcpy(p->buf, path, len + 1);
  for (char *c = p->buf, *start = p->buf;; c++)
    if (*c == '/' || !*c) {
      bool end = !*c;
      *c = 0;
      if (p->n == AC_MAX_PARTS) { /* nested too deeply: refused below */
        p->n = 0;
        break;
      }
      p->parts[p->n++] = start;
      start = c + 1;
      if (end) break;
    }
  bool ok = p->n >= 4 && p->n % 2 == 0 && usable_name(e, p->parts[0]);
  for (int i = 1; ok && i < p->n - 1; i += 2) {
    char *at = strchr(p->parts[i], '@');
    ok = at && usable_name(e, p->parts[i + 1]);
    if (ok) {
      *at = 0;
      int pack = atoi(at + 1);
      ok = usable_name(e, p->parts[i]) &&
           (pack == 1 || pack == 2 || pack == 4 || pack == 8 || pack == 16);
    }
  }
  if (!ok)
    fail(e, NULL, ASC_ERR_UNSUPPORTED,
         "a struct parameter's member path '%s' does not name C++ identifiers (struct, field "
         "and parameter names must be identifiers that are not C++ keywords)",
         path);
  return ok;
}

static const char *scalar_ctype(const char *name) {
  for (size_t i = 0; i < sizeof scalar_ctypes / sizeof scalar_ctypes[0]; i++)
    if (!strcmp(scalar_ctypes[i][0], name)) return scalar_ctypes[i][1];
  return NULL;
}

static int struct_index(ac_emitter *e, ac_structs *s, const char *type_at) {
  const char *at = type_at + strlen(type_at) + 1; /* parse_path cut "Type@pack" at the @ */
  int pack = atoi(at);
  for (int i = 0; i < s->nstructs; i++)
    if (!strcmp(s->structs[i].name, type_at)) {
      if (s->structs[i].pack != pack) break;
      return i;
    }
  for (int i = 0; i < s->nstructs; i++)
    if (!strcmp(s->structs[i].name, type_at)) {
      fail(e, NULL, ASC_ERR_UNSUPPORTED, "two struct types named %s", type_at);
      return -1;
    }
  if (s->nstructs == AC_MAX_STRUCTS) {
    fail(e, NULL, ASC_ERR_UNSUPPORTED, "more than %d struct types", AC_MAX_STRUCTS);
    return -1;
  }
  ac_struct *t = &s->structs[s->nstructs];
  snprintf(t->name, sizeof t->name, "%s", type_at);
  t->pack = pack;
  t->n = 0;
  return s->nstructs++;
}

static void add_member(ac_emitter *e, ac_struct *t, const char *field, int sub, const char *ctype) {
  for (int i = 0; i < t->n; i++)
    if (!strcmp(t->fields[i], field)) {
      if (t->sub[i] != sub || (ctype && strcmp(t->ctype[i], ctype)))
        fail(e, NULL, ASC_ERR_UNSUPPORTED, "two struct types named %s with different members",
             t->name);
      return;
    }
  if (t->n == AC_MAX_MEMBERS) {
    fail(e, NULL, ASC_ERR_UNSUPPORTED, "struct %s has more than %d members", t->name,
         AC_MAX_MEMBERS);
    return;
  }
  snprintf(t->fields[t->n], AC_NAME, "%s", field);
  t->sub[t->n] = sub;
  t->ctype[t->n++] = ctype;
}

/* A name no value, struct or earlier struct parameter uses. */
static void fresh_name(ac_emitter *e, const ac_structs *s, int upto, const char *base, char *out) {
  for (int n = 1;; n++) {
    if (n == 1)
      snprintf(out, AC_NAME, "%s", base);
    else
      snprintf(out, AC_NAME, "%s_%d", base, n);
    bool taken = name_taken(e, out);
    for (int i = 0; i < s->nstructs; i++) taken |= !strcmp(s->structs[i].name, out);
    for (int i = 0; i < upto; i++)
      taken |=
          s->root_of[i] == i && (!strcmp(s->addr_name[i], out) || !strcmp(s->local_name[i], out));
    if (!taken) return;
  }
}

static void collect_structs(ac_emitter *e, ac_structs *s) {
  const asc_ir_module *m = e->m;
  s->nstructs = 0;
  for (int i = 0; i < m->nparams && !e->st; i++) {
    s->root_of[i] = -1;
    const char *path = m->values[m->params[i]].member;
    ac_path p;
    if (!path || !parse_path(e, path, &p)) continue;
    const char *ctype = scalar_ctype(p.parts[p.n - 1]);
    if (!ctype) {
      fail(e, NULL, ASC_ERR_UNSUPPORTED, "struct member type %s", p.parts[p.n - 1]);
      return;
    }
    int parent = -1;
    for (int k = 1; k < p.n - 1 && !e->st; k += 2) {
      int idx = struct_index(e, s, p.parts[k]);
      if (idx < 0) return;
      if (parent >= 0)
        add_member(e, &s->structs[parent], p.parts[k - 1], idx, NULL);
      else
        s->root_struct[i] = idx;
      parent = idx;
    }
    if (!e->st) add_member(e, &s->structs[parent], p.parts[p.n - 2], -1, ctype);
    for (int j = 0; j < i && s->root_of[i] < 0; j++) {
      ac_path q;
      if (s->root_of[j] == j && parse_path(e, m->values[m->params[j]].member, &q) &&
          !strcmp(q.parts[0], p.parts[0]))
        s->root_of[i] = j;
    }
    if (s->root_of[i] < 0) {
      s->root_of[i] = i;
      char base[AC_NAME];
      snprintf(base, sizeof base, "%s_addr", p.parts[0]);
      fresh_name(e, s, i, base, s->addr_name[i]);
      fresh_name(e, s, i, p.parts[0], s->local_name[i]);
    }
  }
}

/* Tiling structs Ascend C declares itself (kernel_tiling/kernel_tiling.h),
 * with the members pyasc's structs of the same name have: not redefined. */
static bool ascendc_declares(const char *name) {
  static const char *const known[] = {"TCubeTiling", "RmsNormTiling", "SoftMaxTiling"};
  for (size_t i = 0; i < sizeof known / sizeof known[0]; i++)
    if (!strcmp(known[i], name)) return true;
  return false;
}

static void emit_struct_def(ac_emitter *e, ir_buf *b, ac_structs *s, int i) {
  ac_struct *t = &s->structs[i];
  if (t->emitted) return;
  t->emitted = true;
  if (ascendc_declares(t->name)) return;
  for (int j = 0; j < t->n; j++)
    if (t->sub[j] >= 0) emit_struct_def(e, b, s, t->sub[j]);
  ir_buf_printf(b, "#pragma pack(push, %d)\nstruct %s {\n", t->pack, t->name);
  for (int j = 0; j < t->n; j++)
    ir_buf_printf(b, "    %s %s;\n", t->sub[j] >= 0 ? s->structs[t->sub[j]].name : t->ctype[j],
                  t->fields[j]);
  ir_buf_printf(b, "};\n#pragma pack(pop)\n\n");
}

/* The struct copies and each flattened parameter read from its member. */
static void emit_struct_prologue(ac_emitter *e, ir_buf *b, const ac_structs *s) {
  const asc_ir_module *m = e->m;
  for (int i = 0; i < m->nparams; i++) {
    if (s->root_of[i] != i) continue;
    const char *local = s->local_name[i];
    ir_buf_printf(b, "    %s %s;\n", s->structs[s->root_struct[i]].name, local);
    ir_buf_printf(b,
                  "    for (uint32_t i = 0; i < sizeof(%s); ++i) {\n"
                  "        reinterpret_cast<uint8_t *>(&%s)[i] = %s[i];\n    }\n",
                  local, local, s->addr_name[i]);
  }
  for (int i = 0; i < m->nparams; i++) {
    if (s->root_of[i] < 0) continue;
    uint32_t v = m->params[i];
    ac_path p;
    if (!parse_path(e, m->values[v].member, &p)) return;
    asc_ir_kind kind = (asc_ir_kind)type_of(e, v).kind;
    const char *type = kind == ASC_IR_FLOAT ? "float" : kind == ASC_IR_BOOL ? "bool" : "int64_t";
    ir_buf_printf(b, "    %s %s = static_cast<%s>(%s", type, e->values[v].name, type,
                  s->local_name[s->root_of[i]]);
    for (int k = 2; k < p.n - 1; k += 2) ir_buf_printf(b, ".%s", p.parts[k]);
    ir_buf_printf(b, ");\n");
  }
}

static void emit_signature(ac_emitter *e, ir_buf *b, const ac_structs *s) {
  const asc_ir_module *m = e->m;
  ir_buf_printf(b, "extern \"C\" __global__ __aicore__ void %s(", e->kernel_name);
  for (int i = 0; i < m->nparams; i++) {
    uint32_t v = m->params[i];
    if (s->root_of[i] >= 0) {
      if (s->root_of[i] == i) ir_buf_printf(b, "%sGM_ADDR %s", i ? ", " : "", s->addr_name[i]);
      continue;
    }
    asc_ir_kind kind = (asc_ir_kind)type_of(e, v).kind;
    const char *type = kind == ASC_IR_ADDR    ? "GM_ADDR"
                       : kind == ASC_IR_FLOAT ? "float"
                       : kind == ASC_IR_BOOL  ? "bool"
                                              : "int64_t";
    if (kind != ASC_IR_ADDR && kind != ASC_IR_FLOAT && kind != ASC_IR_BOOL && kind != ASC_IR_INT)
      fail(e, NULL, ASC_ERR_UNSUPPORTED,
           "kernel parameter '%s' is a %s, which Ascend C kernels "
           "cannot take",
           m->values[v].name, ir_kind_name(kind));
    ir_buf_printf(b, "%s%s %s", i ? ", " : "", type, e->values[v].name);
  }
  ir_buf_printf(b, ")\n{\n");
}

static void release(ac_emitter *e) {
  if (e->values)
    for (uint32_t v = 1; v < e->m->nvalues; v++) free(e->values[v].name);
  free(e->values);
  free(e->sites);
  free(e->kernel_name);
}

asc_status asc_ir_emit_ascendc(const asc_ir_module *m, char **out) {
  asc_status ready = ir_ready(m, "emit_ascendc");
  if (ready) return ready;
  ac_emitter e = {0};
  e.m = m;
  e.values = calloc(m->nvalues, sizeof *e.values);
  e.kernel_name = strdup(m->name);
  if (!e.values || !e.kernel_name) {
    release(&e);
    return asc_error(ASC_ERR_OUT_OF_MEMORY, "out of memory emitting Ascend C");
  }
  for (uint32_t v = 0; v < m->nvalues; v++) e.values[v].def = -1;
  if (!is_identifier(m->name) || reserved_word(m->name) || helper_name(m->name))
    fail(&e, NULL, ASC_ERR_UNSUPPORTED,
         "kernel name '%s' cannot name an Ascend C kernel (a C++ keyword or reserved name)",
         m->name);
  if (!e.st) collect(&e, m->body, m->body);
  if (!e.st) {
    fuse_loop_vars(&e);
    analyse(&e);
    name_values(&e);
  }
  ir_buf body = {0}, file = {0};
  e.out = &body;
  if (!e.st) emit_region(&e, m->body);
  if (!e.st) {
    /* The file name is the user's: only its [A-Za-z0-9_] form enters a comment
     * (a backslash or `??/` at a line's end would continue it). */
    ir_buf_printf(&file, "// Ascend C source of kernel %s, generated by pyasc from ", m->name);
    ir_buf_safe_name(&file, base_name(m->file), 128, ".-");
    ir_buf_printf(&file, ".\n");
    ir_buf_printf(&file, "#include \"kernel_operator.h\"\n\n");
    /* guarded: an operator's fused kernels are joined into one text (op.ascendc) */
    for (int h = 0; h < H_COUNT; h++)
      if (e.helpers[h])
        ir_buf_printf(&file, "#ifndef PYASC_HELPER_%s\n#define PYASC_HELPER_%s\n%s#endif\n\n",
                      helper_names[h], helper_names[h], helper_source[h]);
    ac_structs *structs = calloc(1, sizeof *structs);
    if (!structs) fail(&e, NULL, ASC_ERR_OUT_OF_MEMORY, "out of memory emitting Ascend C");
    if (!e.st) collect_structs(&e, structs);
    for (int i = 0; !e.st && i < structs->nstructs; i++) emit_struct_def(&e, &file, structs, i);
    if (!e.st) emit_signature(&e, &file, structs);
    if (!e.st) emit_struct_prologue(&e, &file, structs);
    free(structs);
    ir_buf_printf(&file, "%.*s}\n", (int)body.len, body.data ? body.data : "");
  }
  asc_status st = e.st;
  if (!st && (body.failed || file.failed))
    st = asc_error(ASC_ERR_OUT_OF_MEMORY, "out of memory writing Ascend C");
  release(&e);
  free(body.data);
  if (st) {
    free(file.data);
    return st;
  }
  return ir_buf_finish(&file, out);
}
