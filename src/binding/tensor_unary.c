/* Unary maths, where and clip from Python: the NumPy-named functions
 * (pyasc.exp(x, out=None), ...), the matching Tensor methods (t.exp(),
 * t.clip(lo, hi)) and the -t, +t, abs(t), ~t operators. */
#include "binding.h"

/* after binding.h, whose Python.h must come first */
#include "asc/ops_unary.h"
#include "asc_docstrings.h" /* generated from docs/docstrings (tools/gen_docstrings.py) */

static bool is_python_scalar(PyObject *obj) {
  return PyBool_Check(obj) || PyLong_Check(obj) || PyFloat_Check(obj) || PyComplex_Check(obj);
}

/* Converts n operands (NULL objects are skipped; entries of ts already set
 * count as converted arrays): arrays keep their dtypes, and Python scalars
 * are weak (NEP 50) next to the dtype the arrays promote to, or take their
 * default dtypes when all are scalars. On failure all of ts is released. */
static int convert_operands(const char *fname, int n, PyObject *const *objs, asc_tensor *ts) {
  asc_tensor ref = {0};
  bool have_ref = false, done[3];
  for (int k = 0; k < n; k++) {
    done[k] = ts[k].storage != NULL;
    if (!done[k]) continue;
    ref.dtype = have_ref ? asc_dtype_promote(ref.dtype, ts[k].dtype) : ts[k].dtype;
    have_ref = true;
  }
  for (int pass = 0; pass < 2; pass++) {
    for (int k = 0; k < n; k++) {
      if (done[k] || !objs[k] || is_python_scalar(objs[k]) != (pass == 1)) continue;
      int rc = asc_py_operand(objs[k], have_ref ? &ref : NULL, &ts[k]);
      if (rc) {
        if (rc > 0)
          PyErr_Format(PyExc_TypeError, "%s: unsupported operand type %.100s", fname,
                       Py_TYPE(objs[k])->tp_name);
        for (int j = 0; j < n; j++) asc_tensor_release(&ts[j]);
        return -1;
      }
      done[k] = true;
      if (pass == 0) {
        ref.dtype = have_ref ? asc_dtype_promote(ref.dtype, ts[k].dtype) : ts[k].dtype;
        have_ref = true;
      }
    }
  }
  return 0;
}

/* op(x) into a new tensor or into out (a Tensor or NULL). */
static PyObject *apply_unary(asc_unary_op op, PyObject *x, PyObject *out) {
  asc_tensor t;
  t.storage = NULL; /* only storage marks it held: no need to zero it all */
  /* A Tensor is borrowed: the caller's reference and the GIL keep it. */
  const asc_tensor *operand = asc_py_tensor_of(x);
  if (!operand && convert_operands(asc_unary_op_name(op), 1, &x, &t)) return NULL;
  asc_tensor result;
  result.storage = NULL;
  if (out) asc_tensor_share(&((TensorObject *)out)->t, &result);
  asc_status st = asc_unary(op, operand ? operand : &t, &result);
  asc_tensor_release(&t);
  return asc_py_result(st, &result, out);
}

PyObject *asc_py_tensor_negative(PyObject *self) {
  return apply_unary(ASC_UNARY_NEGATIVE, self, NULL);
}
PyObject *asc_py_tensor_positive(PyObject *self) {
  return apply_unary(ASC_UNARY_POSITIVE, self, NULL);
}
PyObject *asc_py_tensor_absolute(PyObject *self) {
  return apply_unary(ASC_UNARY_ABS, self, NULL);
}
PyObject *asc_py_tensor_invert(PyObject *self) {
  return apply_unary(ASC_UNARY_INVERT, self, NULL);
}

/* pyasc.exp(x, out=None) and friends. */
static PyObject *unary_function(asc_unary_op op, PyObject *const *args, Py_ssize_t nargs,
                                PyObject *kwnames) {
  static const char *const names[] = {"x", "out", NULL};
  PyObject *a[2] = {NULL, NULL};
  const char *fname = asc_unary_op_name(op);
  if (asc_py_parse(fname, args, nargs, kwnames, names, 1, a) || asc_py_parse_out(fname, &a[1]))
    return NULL;
  return apply_unary(op, a[0], a[1]);
}

/* t.exp(out=None) and friends. */
static PyObject *unary_method(asc_unary_op op, PyObject *self, PyObject *const *args,
                              Py_ssize_t nargs, PyObject *kwnames) {
  static const char *const names[] = {"out", NULL};
  PyObject *out = NULL;
  const char *fname = asc_unary_op_name(op);
  if (asc_py_parse(fname, args, nargs, kwnames, names, 0, &out) || asc_py_parse_out(fname, &out))
    return NULL;
  return apply_unary(op, self, out);
}

#define UNARY(NAME, OP)                                                                   \
  static PyObject *fn_##NAME(PyObject *self, PyObject *const *args, Py_ssize_t nargs,     \
                             PyObject *kwnames) {                                         \
    (void)self;                                                                           \
    return unary_function(OP, args, nargs, kwnames);                                      \
  }                                                                                       \
  static PyObject *method_##NAME(PyObject *self, PyObject *const *args, Py_ssize_t nargs, \
                                 PyObject *kwnames) {                                     \
    return unary_method(OP, self, args, nargs, kwnames);                                  \
  }
UNARY(negative, ASC_UNARY_NEGATIVE)
UNARY(positive, ASC_UNARY_POSITIVE)
UNARY(abs, ASC_UNARY_ABS)
UNARY(logical_not, ASC_UNARY_LOGICAL_NOT)
UNARY(invert, ASC_UNARY_INVERT)
UNARY(sign, ASC_UNARY_SIGN)
UNARY(exp, ASC_UNARY_EXP)
UNARY(exp2, ASC_UNARY_EXP2)
UNARY(log, ASC_UNARY_LOG)
UNARY(log2, ASC_UNARY_LOG2)
UNARY(log1p, ASC_UNARY_LOG1P)
UNARY(expm1, ASC_UNARY_EXPM1)
UNARY(sqrt, ASC_UNARY_SQRT)
UNARY(rsqrt, ASC_UNARY_RSQRT)
UNARY(reciprocal, ASC_UNARY_RECIPROCAL)
UNARY(sin, ASC_UNARY_SIN)
UNARY(cos, ASC_UNARY_COS)
UNARY(tan, ASC_UNARY_TAN)
UNARY(tanh, ASC_UNARY_TANH)
UNARY(sigmoid, ASC_UNARY_SIGMOID)
UNARY(relu, ASC_UNARY_RELU)
UNARY(gelu, ASC_UNARY_GELU)
UNARY(erf, ASC_UNARY_ERF)
UNARY(floor, ASC_UNARY_FLOOR)
UNARY(ceil, ASC_UNARY_CEIL)
UNARY(trunc, ASC_UNARY_TRUNC)
UNARY(rint, ASC_UNARY_RINT)
UNARY(isnan, ASC_UNARY_ISNAN)
UNARY(isinf, ASC_UNARY_ISINF)
UNARY(asin, ASC_UNARY_ASIN)
UNARY(acos, ASC_UNARY_ACOS)
UNARY(atan, ASC_UNARY_ATAN)
UNARY(sinh, ASC_UNARY_SINH)
UNARY(cosh, ASC_UNARY_COSH)
UNARY(asinh, ASC_UNARY_ASINH)
UNARY(acosh, ASC_UNARY_ACOSH)
UNARY(atanh, ASC_UNARY_ATANH)
UNARY(log10, ASC_UNARY_LOG10)
UNARY(square, ASC_UNARY_SQUARE)
UNARY(signbit, ASC_UNARY_SIGNBIT)
UNARY(conj, ASC_UNARY_CONJ)
#define UNARY_FN(NAME, OP)                                                            \
  static PyObject *fn_##NAME(PyObject *self, PyObject *const *args, Py_ssize_t nargs, \
                             PyObject *kwnames) {                                     \
    (void)self;                                                                       \
    return unary_function(OP, args, nargs, kwnames);                                  \
  }
UNARY_FN(real, ASC_UNARY_REAL)
UNARY_FN(imag, ASC_UNARY_IMAG)
UNARY(isfinite, ASC_UNARY_ISFINITE)

/* round(x, decimals=0, out=None): only whole numbers are supported. */
static PyObject *round_impl(PyObject *x, PyObject *decimals, PyObject *out) {
  if (asc_py_parse_out("round", &out)) return NULL;
  if (decimals) {
    long d = PyLong_AsLong(decimals);
    if (d == -1 && PyErr_Occurred()) return NULL;
    if (d != 0) return asc_py_raise_msg(ASC_ERR_UNSUPPORTED, "round: only decimals=0 is supported");
  }
  return apply_unary(ASC_UNARY_ROUND, x, out);
}

static PyObject *fn_round(PyObject *self, PyObject *const *args, Py_ssize_t nargs,
                          PyObject *kwnames) {
  (void)self;
  static const char *const names[] = {"x", "decimals", "out", NULL};
  PyObject *a[3] = {NULL, NULL, NULL};
  if (asc_py_parse("round", args, nargs, kwnames, names, 1, a)) return NULL;
  return round_impl(a[0], a[1], a[2]);
}

static PyObject *method_round(PyObject *self, PyObject *const *args, Py_ssize_t nargs,
                              PyObject *kwnames) {
  static const char *const names[] = {"decimals", "out", NULL};
  PyObject *a[2] = {NULL, NULL};
  if (asc_py_parse("round", args, nargs, kwnames, names, 0, a)) return NULL;
  return round_impl(self, a[0], a[1]);
}

/* --- where and clip ------------------------------------------------------ */

static PyObject *fn_where(PyObject *self, PyObject *const *args, Py_ssize_t nargs,
                          PyObject *kwnames) {
  (void)self;
  static const char *const names[] = {"condition", "x", "y", NULL};
  PyObject *a[3] = {NULL, NULL, NULL};
  if (asc_py_parse("where", args, nargs, kwnames, names, 1, a)) return NULL;
  for (int k = 1; k < 3; k++)
    if (a[k] == Py_None) a[k] = NULL;              /* the signature's default */
  if (!a[1] && !a[2]) return asc_py_nonzero(a[0]); /* NumPy: where(c) is nonzero(c) */
  if (!a[1] || !a[2])
    return asc_py_raise_msg(ASC_ERR_INVALID_VALUE,
                            "where: either both or neither of x and y should be given");
  asc_tensor t[3] = {{0}};
  /* The condition is only tested for truth: it takes no part in the
   * promotion of x and y. */
  if (convert_operands("where", 1, &a[0], &t[0])) return NULL;
  if (convert_operands("where", 2, &a[1], &t[1])) {
    asc_tensor_release(&t[0]);
    return NULL;
  }
  asc_tensor result = {0};
  asc_status st = asc_where(&t[0], &t[1], &t[2], &result);
  for (int k = 0; k < 3; k++) asc_tensor_release(&t[k]);
  return asc_py_result(st, &result, NULL);
}

/* NumPy drops a Python-int bound beyond an integer x's range (clip(u8, -5,
 * 300) is fine): it cannot bind, and it could not be stored. Returns 1 to
 * drop, 0 to keep, -1 on error. */
int asc_py_clip_bound_moot(asc_dtype x, PyObject *bound, bool upper) {
  if (!asc_dtype_is_integer(x) || !PyLong_CheckExact(bound)) return 0;
  long long lo, hi;
  asc_py_int_limits(x, &lo, &hi);
  PyObject *limit = x == ASC_UINT64 && upper ? PyLong_FromUnsignedLongLong(UINT64_MAX)
                                             : PyLong_FromLongLong(upper ? hi : lo);
  if (!limit) return -1;
  int moot = PyObject_RichCompareBool(bound, limit, upper ? Py_GE : Py_LE);
  Py_DECREF(limit);
  return moot;
}

static PyObject *clip_impl(PyObject *x, PyObject *lo, PyObject *hi, PyObject *out) {
  if (asc_py_parse_out("clip", &out)) return NULL;
  asc_tensor t[3] = {{0}};
  if (convert_operands("clip", 1, &x, &t[0])) return NULL;
  PyObject *bounds[2] = {lo == Py_None ? NULL : lo, hi == Py_None ? NULL : hi};
  for (int k = 0; k < 2; k++) {
    int moot = bounds[k] ? asc_py_clip_bound_moot(t[0].dtype, bounds[k], k == 1) : 0;
    if (moot < 0) {
      asc_tensor_release(&t[0]);
      return NULL;
    }
    if (moot) bounds[k] = NULL;
  }
  /* x, converted, takes part in the promotion that makes scalar bounds weak. */
  PyObject *objs[3] = {x, bounds[0], bounds[1]};
  if (convert_operands("clip", 3, objs, t)) return NULL;
  asc_tensor result = {0};
  if (out) asc_tensor_share(&((TensorObject *)out)->t, &result);
  asc_status st = asc_clip(&t[0], bounds[0] ? &t[1] : NULL, bounds[1] ? &t[2] : NULL, &result);
  for (int k = 0; k < 3; k++) asc_tensor_release(&t[k]);
  return asc_py_result(st, &result, out);
}

/* The bounds may also be spelt as NumPy does: a_min/a_max, min/max. */
static int clip_bounds(PyObject **slots, PyObject **lo, PyObject **hi) {
  static const char *const what[] = {"lower", "upper"};
  PyObject **out[2] = {lo, hi};
  for (int k = 0; k < 2; k++) {
    *out[k] = NULL;
    for (int j = k; j < 6; j += 2) {
      if (!slots[j]) continue;
      if (*out[k]) {
        PyErr_Format(PyExc_TypeError, "clip() got more than one %s bound", what[k]);
        return -1;
      }
      *out[k] = slots[j];
    }
  }
  return 0;
}

static PyObject *fn_clip(PyObject *self, PyObject *const *args, Py_ssize_t nargs,
                         PyObject *kwnames) {
  (void)self;
  static const char *const names[] = {"x", "lo", "hi", "out", "a_min", "a_max", "min", "max", NULL};
  PyObject *a[8] = {NULL};
  PyObject *bounds[6], *lo, *hi;
  if (asc_py_parse("clip", args, nargs, kwnames, names, 1, a)) return NULL;
  memcpy(bounds, &a[1], 2 * sizeof *bounds);
  memcpy(&bounds[2], &a[4], 4 * sizeof *bounds);
  if (clip_bounds(bounds, &lo, &hi)) return NULL;
  return clip_impl(a[0], lo, hi, a[3]);
}

static PyObject *method_clip(PyObject *self, PyObject *const *args, Py_ssize_t nargs,
                             PyObject *kwnames) {
  static const char *const names[] = {"lo", "hi", "out", "a_min", "a_max", "min", "max", NULL};
  PyObject *a[7] = {NULL};
  PyObject *bounds[6], *lo, *hi;
  if (asc_py_parse("clip", args, nargs, kwnames, names, 0, a)) return NULL;
  memcpy(bounds, &a[0], 2 * sizeof *bounds);
  memcpy(&bounds[2], &a[3], 4 * sizeof *bounds);
  if (clip_bounds(bounds, &lo, &hi)) return NULL;
  return clip_impl(self, lo, hi, a[2]);
}

static PyObject *fn_vector_isa(PyObject *self, PyObject *unused) {
  (void)self;
  (void)unused;
  return PyUnicode_FromString(asc_unary_isa());
}

/* --- tables --------------------------------------------------------------- */

/* The function takes x first; the method has x as self. */
#define FN(NAME, IMPL, ARGS)                                                      \
  {                                                                               \
    .ml_name = #NAME, .ml_meth = (PyCFunction)(void (*)(void))fn_##IMPL,          \
    .ml_flags = METH_FASTCALL | METH_KEYWORDS,                                    \
    .ml_doc = ASC_DOC(#NAME "($module, x" ARGS ", out=None)", ASC_DOCTEXT_##NAME) \
  }
#define METHOD(NAME, IMPL, ARGS)                                             \
  {                                                                          \
    .ml_name = #NAME, .ml_meth = (PyCFunction)(void (*)(void))method_##IMPL, \
    .ml_flags = METH_FASTCALL | METH_KEYWORDS,                               \
    .ml_doc = ASC_DOC(#NAME "($self" ARGS ", out=None)", ASC_METHDOC_##NAME) \
  }
/* Every unary op as a function and a method, under the same name: NAME, the
 * implementation and the parameters between x and out. The docs are
 * docs/docstrings/unary.py's, which the build renders into asc_docstrings.h. */
#define BOTH(X)                   \
  X(negative, negative, "")       \
  X(positive, positive, "")       \
  X(abs, abs, "")                 \
  X(absolute, abs, "")            \
  X(logical_not, logical_not, "") \
  X(invert, invert, "")           \
  X(bitwise_not, invert, "")      \
  X(bitwise_invert, invert, "")   \
  X(sign, sign, "")               \
  X(exp, exp, "")                 \
  X(exp2, exp2, "")               \
  X(log, log, "")                 \
  X(log2, log2, "")               \
  X(log1p, log1p, "")             \
  X(expm1, expm1, "")             \
  X(sqrt, sqrt, "")               \
  X(rsqrt, rsqrt, "")             \
  X(reciprocal, reciprocal, "")   \
  X(sin, sin, "")                 \
  X(cos, cos, "")                 \
  X(tan, tan, "")                 \
  X(tanh, tanh, "")               \
  X(sigmoid, sigmoid, "")         \
  X(relu, relu, "")               \
  X(gelu, gelu, "")               \
  X(erf, erf, "")                 \
  X(floor, floor, "")             \
  X(ceil, ceil, "")               \
  X(trunc, trunc, "")             \
  X(rint, rint, "")               \
  X(round, round, ", decimals=0") \
  X(isnan, isnan, "")             \
  X(isinf, isinf, "")             \
  X(isfinite, isfinite, "")       \
  X(asin, asin, "")               \
  X(arcsin, asin, "")             \
  X(acos, acos, "")               \
  X(arccos, acos, "")             \
  X(atan, atan, "")               \
  X(arctan, atan, "")             \
  X(sinh, sinh, "")               \
  X(cosh, cosh, "")               \
  X(asinh, asinh, "")             \
  X(arcsinh, asinh, "")           \
  X(acosh, acosh, "")             \
  X(arccosh, acosh, "")           \
  X(atanh, atanh, "")             \
  X(arctanh, atanh, "")           \
  X(log10, log10, "")             \
  X(square, square, "")           \
  X(signbit, signbit, "")         \
  X(conj, conj, "")               \
  X(conjugate, conj, "")
/* Functions only: on a Tensor, real and imag are attributes (as NumPy's). */
#define FUNCTIONS_ONLY(X) \
  X(real, real, "")       \
  X(imag, imag, "")

static PyMethodDef functions[] = {
#define X(NAME, IMPL, ARGS) FN(NAME, IMPL, ARGS),
    BOTH(X) FUNCTIONS_ONLY(X)
#undef X
        {"where", (PyCFunction)(void (*)(void))fn_where, METH_FASTCALL | METH_KEYWORDS,
         ASC_DOC("where($module, condition, x=None, y=None)", ASC_DOCTEXT_where)},
    {"clip", (PyCFunction)(void (*)(void))fn_clip, METH_FASTCALL | METH_KEYWORDS,
     ASC_DOC("clip($module, x, lo=None, hi=None, out=None, a_min=None, a_max=None, min=None, "
             "max=None)",
             ASC_DOCTEXT_clip)},
    {"_vector_isa", fn_vector_isa, METH_NOARGS,
     ASC_DOC("_vector_isa($module, /)",
             "The vector maths in use: 'avx512f', 'avx2' or 'generic' (PYASC_CPU_SIMD=0 forces "
             "generic, PYASC_CPU_SIMD=avx2 stops at avx2).")},
    {NULL, NULL, 0, NULL},
};

static PyMethodDef methods[] = {
#define X(NAME, IMPL, ARGS) METHOD(NAME, IMPL, ARGS),
    BOTH(X)
#undef X
        {"clip", (PyCFunction)(void (*)(void))method_clip, METH_FASTCALL | METH_KEYWORDS,
         ASC_DOC("clip($self, lo=None, hi=None, out=None, a_min=None, a_max=None, min=None, "
                 "max=None)",
                 ASC_METHDOC_clip)},
    {NULL, NULL, 0, NULL},
};

int asc_py_unary_init(PyObject *module) {
  if (asc_py_tensor_add_methods(methods) < 0) return -1;
  return PyModule_AddFunctions(module, functions);
}
