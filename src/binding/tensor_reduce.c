/* Reductions and softmax from Python: pyasc.sum(x, axis=None, ...) and
 * friends, and the same as Tensor methods (t.sum(axis=None, ...)). */
#include "binding.h"

/* after binding.h, whose Python.h must come first */
#include "asc_docstrings.h" /* generated from docs/docstrings (tools/gen_docstrings.py) */

#include <limits.h>

#include "asc/ops_reduce.h"

/* Which optional parameters a reduction takes after (x, axis, keepdims). */
enum { TAKES_DTYPE = 1, TAKES_DDOF = 2 };

static int takes(asc_reduce_op op) {
  switch (op) {
    case ASC_REDUCE_SUM:
    case ASC_REDUCE_PROD:
    case ASC_REDUCE_MEAN:
      return TAKES_DTYPE;
    case ASC_REDUCE_VAR:
    case ASC_REDUCE_STD:
      return TAKES_DTYPE | TAKES_DDOF;
    default:
      return 0;
  }
}

/* A Python int as a C int; values beyond it saturate (still out of range
 * for any axis, so the C layer reports them). */
static int as_int(PyObject *obj, const char *what, int *out) {
  if (!PyIndex_Check(obj) || PyBool_Check(obj)) {
    PyErr_Format(PyExc_TypeError, "%s must be an integer, not %.100s", what, Py_TYPE(obj)->tp_name);
    return -1;
  }
  Py_ssize_t v = PyNumber_AsSsize_t(obj, NULL);
  if (v == -1 && PyErr_Occurred()) return -1;
  *out = v > INT_MAX ? INT_MAX : v < INT_MIN ? INT_MIN : (int)v;
  return 0;
}

/* axis: None (every axis: *naxes = -1), an int, or for reductions other
 * than argmax/argmin a tuple of ints. As NumPy's ufunc reductions (not its
 * mean, var and std), an int axis of 0 or -1 on a 0-d tensor means every
 * axis. */
static int parse_axis(PyObject *obj, asc_reduce_op op, const asc_tensor *x, int *naxes, int *axes) {
  *naxes = -1;
  if (!obj || obj == Py_None) return 0;
  bool arg = op == ASC_REDUCE_ARGMAX || op == ASC_REDUCE_ARGMIN;
  if (PyTuple_Check(obj) && !arg) {
    Py_ssize_t n = PyTuple_GET_SIZE(obj);
    if (n > ASC_MAX_DIMS) {
      asc_py_raise_msg(ASC_ERR_INVALID_VALUE, "%zd axes for a %d-d tensor", n, x->ndim);
      return -1;
    }
    for (Py_ssize_t k = 0; k < n; k++)
      if (as_int(PyTuple_GET_ITEM(obj, k), "axis", &axes[k])) return -1;
    *naxes = (int)n;
    return 0;
  }
  if (as_int(obj, "axis", &axes[0])) return -1;
  bool moment = op == ASC_REDUCE_MEAN || op == ASC_REDUCE_VAR || op == ASC_REDUCE_STD;
  if (x->ndim == 0 && !moment && (axes[0] == 0 || axes[0] == -1)) return 0;
  *naxes = 1;
  return 0;
}

/* Runs op on x with the parsed arguments; returns the result or out. */
static PyObject *run_reduce(asc_reduce_op op, PyObject *x_obj, PyObject *axis_obj,
                            PyObject *keepdims_obj, PyObject *dtype_obj, PyObject *out_obj,
                            PyObject *ddof_obj) {
  const char *fname = asc_reduce_op_name(op);
  int keepdims = keepdims_obj ? PyObject_IsTrue(keepdims_obj) : 0;
  if (keepdims < 0) return NULL;
  asc_dtype dtype = ASC_DTYPE_COUNT;
  if (dtype_obj && dtype_obj != Py_None && asc_py_dtype(dtype_obj, &dtype)) return NULL;
  int ddof = 0;
  if (ddof_obj && as_int(ddof_obj, "ddof", &ddof)) return NULL;
  PyObject *out = out_obj;
  if (asc_py_parse_out(fname, &out)) return NULL;
  asc_tensor x;
  if (asc_py_as_tensor(x_obj, ASC_DTYPE_COUNT, &x)) return NULL;
  int naxes, axes[ASC_MAX_DIMS];
  if (parse_axis(axis_obj, op, &x, &naxes, axes)) {
    asc_tensor_release(&x);
    return NULL;
  }
  asc_tensor result = {0};
  if (out) asc_tensor_share(&((TensorObject *)out)->t, &result);
  asc_status st = asc_reduce(op, &x, naxes < 0 ? 0 : naxes, naxes < 0 ? NULL : axes, keepdims != 0,
                             ddof, dtype, &result);
  asc_tensor_release(&x);
  return asc_py_result(st, &result, out);
}

/* Module functions take x first; methods take it as self. Positional
 * parameters come in NumPy's order, so that np.sum(t, 0, None, None, True)
 * forwarded through __array_function__ means what it does for arrays. */
static PyObject *reduce_call(asc_reduce_op op, PyObject *self, PyObject *const *args,
                             Py_ssize_t nargs, PyObject *kwnames) {
  static const char *const plain[] = {"x", "axis", "out", "keepdims", NULL};
  static const char *const typed[] = {"x", "axis", "dtype", "out", "keepdims", NULL};
  static const char *const moments[] = {"x", "axis", "dtype", "out", "ddof", "keepdims", NULL};
  int kinds = takes(op);
  const char *const *names = kinds & TAKES_DDOF ? moments : kinds & TAKES_DTYPE ? typed : plain;
  PyObject *a[6] = {NULL, NULL, NULL, NULL, NULL, NULL};
  int first = self ? 1 : 0; /* a method fills slot 0 with self */
  if (self) a[0] = self;
  if (asc_py_parse(asc_reduce_op_name(op), args, nargs, kwnames, names + first, 1 - first,
                   a + first))
    return NULL;
  if (kinds & TAKES_DDOF) return run_reduce(op, a[0], a[1], a[5], a[2], a[3], a[4]);
  if (kinds & TAKES_DTYPE) return run_reduce(op, a[0], a[1], a[4], a[2], a[3], NULL);
  return run_reduce(op, a[0], a[1], a[3], NULL, a[2], NULL);
}

ASC_PY_ENTRY_POINTS(sum, reduce_call, ASC_REDUCE_SUM)
ASC_PY_ENTRY_POINTS(prod, reduce_call, ASC_REDUCE_PROD)
ASC_PY_ENTRY_POINTS(mean, reduce_call, ASC_REDUCE_MEAN)
ASC_PY_ENTRY_POINTS(max, reduce_call, ASC_REDUCE_MAX)
ASC_PY_ENTRY_POINTS(min, reduce_call, ASC_REDUCE_MIN)
ASC_PY_ENTRY_POINTS(argmax, reduce_call, ASC_REDUCE_ARGMAX)
ASC_PY_ENTRY_POINTS(argmin, reduce_call, ASC_REDUCE_ARGMIN)
ASC_PY_ENTRY_POINTS(any, reduce_call, ASC_REDUCE_ANY)
ASC_PY_ENTRY_POINTS(all, reduce_call, ASC_REDUCE_ALL)
ASC_PY_ENTRY_POINTS(var, reduce_call, ASC_REDUCE_VAR)
ASC_PY_ENTRY_POINTS(std, reduce_call, ASC_REDUCE_STD)

static PyObject *softmax_call(bool log, PyObject *self, PyObject *const *args, Py_ssize_t nargs,
                              PyObject *kwnames) {
  static const char *const names[] = {"x", "axis", "out", NULL};
  const char *fname = log ? "log_softmax" : "softmax";
  PyObject *a[3] = {self, NULL, NULL};
  int first = self ? 1 : 0;
  if (asc_py_parse(fname, args, nargs, kwnames, names + first, 1 - first, a + first)) return NULL;
  int axis = -1;
  if (a[1] && as_int(a[1], "axis", &axis)) return NULL;
  PyObject *out = a[2];
  if (asc_py_parse_out(fname, &out)) return NULL;
  asc_tensor x;
  if (asc_py_as_tensor(a[0], ASC_DTYPE_COUNT, &x)) return NULL;
  asc_tensor result = {0};
  if (out) asc_tensor_share(&((TensorObject *)out)->t, &result);
  asc_status st = asc_softmax(&x, axis, log, &result);
  asc_tensor_release(&x);
  return asc_py_result(st, &result, out);
}

ASC_PY_ENTRY_POINTS(softmax, softmax_call, false)
ASC_PY_ENTRY_POINTS(log_softmax, softmax_call, true)

/* Each family's parameters after x. The docs are docs/docstrings/reduce.py's,
 * which the build renders into asc_docstrings.h. */
#define SUM_ARGS ", axis=None, dtype=None, out=None, keepdims=False"
#define MOMENT_ARGS ", axis=None, dtype=None, out=None, ddof=0, keepdims=False"
#define PLAIN_ARGS ", axis=None, out=None, keepdims=False"
#define SOFTMAX_ARGS ", axis=-1, out=None"

#define DOCS(X)            \
  X(sum, SUM_ARGS)         \
  X(prod, SUM_ARGS)        \
  X(mean, SUM_ARGS)        \
  X(var, MOMENT_ARGS)      \
  X(std, MOMENT_ARGS)      \
  X(max, PLAIN_ARGS)       \
  X(min, PLAIN_ARGS)       \
  X(argmax, PLAIN_ARGS)    \
  X(argmin, PLAIN_ARGS)    \
  X(any, PLAIN_ARGS)       \
  X(all, PLAIN_ARGS)       \
  X(softmax, SOFTMAX_ARGS) \
  X(log_softmax, SOFTMAX_ARGS)

#define CFUNC(f) (PyCFunction)(void (*)(void))(f)
/* The function takes x first; the method has x as self. */
#define FUNCTION_DEF(NAME, ARGS)              \
  {.ml_name = #NAME,                          \
   .ml_meth = CFUNC(fn_##NAME),               \
   .ml_flags = METH_FASTCALL | METH_KEYWORDS, \
   .ml_doc = ASC_DOC(#NAME "($module, x" ARGS ")", ASC_DOCTEXT_##NAME)},
#define METHOD_DEF(NAME, ARGS)                \
  {.ml_name = #NAME,                          \
   .ml_meth = CFUNC(method_##NAME),           \
   .ml_flags = METH_FASTCALL | METH_KEYWORDS, \
   .ml_doc = ASC_DOC(#NAME "($self" ARGS ")", ASC_METHDOC_##NAME)},

static PyMethodDef reduce_functions[] = {
    DOCS(FUNCTION_DEF){"amax", CFUNC(fn_max), METH_FASTCALL | METH_KEYWORDS,
                       ASC_DOC("amax($module, x" PLAIN_ARGS ")", ASC_DOCTEXT_amax)},
    {"amin", CFUNC(fn_min), METH_FASTCALL | METH_KEYWORDS,
     ASC_DOC("amin($module, x" PLAIN_ARGS ")", ASC_DOCTEXT_amin)},
    {NULL, NULL, 0, NULL},
};

static PyMethodDef reduce_methods[] = {
    DOCS(METHOD_DEF){NULL, NULL, 0, NULL},
};

int asc_py_reduce_init(PyObject *module) {
  if (asc_py_tensor_add_methods(reduce_methods) < 0) return -1;
  return PyModule_AddFunctions(module, reduce_functions);
}
