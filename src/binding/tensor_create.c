/* Tensor creation from Python, named and shaped as in NumPy: empty, zeros,
 * ones, full and their _like forms, arange, linspace, eye, concatenate and
 * stack. */
#include "binding.h"

/* after binding.h, whose Python.h must come first */
#include "asc_docstrings.h" /* generated from docs/docstrings (tools/gen_docstrings.py) */

#include "asc/ops_create.h"

int asc_py_shape(PyObject *obj, int *ndim, int64_t *shape) {
  if (!obj || obj == Py_None) {
    *ndim = 0;
    return 0;
  }
  PyObject *fast = PyIndex_Check(obj) ? PyTuple_Pack(1, obj)
                                      : PySequence_Fast(obj,
                                                        "shape must be an int or a "
                                                        "sequence of ints");
  if (!fast) return -1;
  Py_ssize_t n = PySequence_Fast_GET_SIZE(fast);
  int rc = 0;
  if (n > ASC_MAX_DIMS) {
    asc_py_raise_msg(ASC_ERR_INVALID_VALUE, "at most %d dimensions", ASC_MAX_DIMS);
    rc = -1;
  }
  for (Py_ssize_t i = 0; !rc && i < n; i++) {
    PyObject *index = PyNumber_Index(PySequence_Fast_GET_ITEM(fast, i));
    long long v = index ? PyLong_AsLongLong(index) : -1;
    Py_XDECREF(index);
    if (v == -1 && PyErr_Occurred())
      rc = -1;
    else if (v < 0)
      rc = -1, asc_py_raise_msg(ASC_ERR_INVALID_VALUE, "negative dimensions are not allowed");
    shape[i] = v;
  }
  Py_DECREF(fast);
  *ndim = (int)n;
  return rc;
}

static int parse_dtype(PyObject *obj, asc_dtype fallback, asc_dtype *dtype) {
  *dtype = fallback;
  return obj && obj != Py_None ? asc_py_dtype(obj, dtype) : 0;
}

static PyObject *wrap(asc_status st, asc_tensor *t) {
  return st ? asc_py_raise(st) : asc_py_tensor_wrap(t);
}

/* --- fills ---------------------------------------------------------------- */

typedef enum fill_kind { FILL_NONE, FILL_ZERO, FILL_ONE, FILL_VALUE } fill_kind;

/* The dtype NumPy gives a fill value: its own for arrays, bool/int64/
 * float64 for Python scalars. */
static int value_dtype(PyObject *value, asc_dtype *dtype) {
  if (PyBool_Check(value)) return *dtype = ASC_BOOL, 0;
  if (PyLong_Check(value)) return *dtype = ASC_INT64, 0;
  if (PyFloat_Check(value)) return *dtype = ASC_FLOAT64, 0;
  if (PyComplex_Check(value)) return *dtype = ASC_COMPLEX128, 0;
  asc_tensor t;
  if (asc_py_as_tensor(value, ASC_DTYPE_COUNT, &t)) return -1;
  *dtype = t.dtype;
  asc_tensor_release(&t);
  return 0;
}

/* t[...] = a Python int: NumPy 2 raises OverflowError when an integer
 * dtype cannot hold it. */
static asc_status fill_long(const asc_tensor *t, PyObject *value) {
  int overflow;
  long long v = PyLong_AsLongLongAndOverflow(value, &overflow);
  if (v == -1 && PyErr_Occurred()) return ASC_ERR_INTERNAL;
  if (asc_dtype_is_integer(t->dtype)) {
    int bits = (int)(8 * asc_dtype_size(t->dtype));
    long long hi = bits == 64                      ? LLONG_MAX
                   : asc_dtype_is_signed(t->dtype) ? (1LL << (bits - 1)) - 1
                                                   : (1LL << bits) - 1;
    long long lo = asc_dtype_is_signed(t->dtype) ? -hi - 1 : 0;
    if (overflow || v < lo || v > hi) {
      PyErr_Format(PyExc_OverflowError, "Python integer %R out of bounds for %s", value,
                   asc_dtype_name(t->dtype));
      return ASC_ERR_INTERNAL;
    }
  }
  if (!overflow) return asc_fill_int(t, v);
  if (t->dtype == ASC_BOOL) return asc_fill_int(t, 1);
  double d = PyLong_AsDouble(value);
  if (d == -1.0 && PyErr_Occurred()) return ASC_ERR_INTERNAL;
  return asc_fill(t, d);
}

/* t[...] = value for a Python scalar or any array-like (broadcast). A
 * Python error is already set when ASC_ERR_INTERNAL comes back with one. */
static int fill_with(const asc_tensor *t, PyObject *value) {
  asc_status st;
  if (PyLong_Check(value)) {
    st = fill_long(t, value);
  } else if (PyFloat_Check(value)) {
    double d = PyFloat_AsDouble(value);
    st = d == -1.0 && PyErr_Occurred() ? ASC_ERR_INTERNAL : asc_fill(t, d);
  } else {
    asc_tensor src;
    if (asc_py_as_tensor(value, ASC_DTYPE_COUNT, &src)) return -1;
    st = asc_copy(&src, t);
    asc_tensor_release(&src);
  }
  if (st && !PyErr_Occurred()) asc_py_raise(st);
  return st ? -1 : 0;
}

static PyObject *make(int ndim, const int64_t *shape, asc_dtype dtype, fill_kind kind,
                      PyObject *value) {
  asc_tensor t;
  asc_status st = asc_tensor_empty(asc_device_current(), dtype, ndim, shape, &t);
  if (st) return asc_py_raise(st);
  int rc = 0;
  if (kind == FILL_ZERO || kind == FILL_ONE) {
    st = asc_fill_int(&t, kind == FILL_ONE);
    if (st) rc = -1, asc_py_raise(st);
  } else if (kind == FILL_VALUE) {
    rc = fill_with(&t, value);
  }
  if (rc) {
    asc_tensor_release(&t);
    return NULL;
  }
  return asc_py_tensor_wrap(&t);
}

/* empty/zeros/ones(shape, dtype=None); full(shape, fill_value, dtype=None). */
static PyObject *create(const char *fname, fill_kind kind, PyObject *const *args, Py_ssize_t nargs,
                        PyObject *kwnames) {
  static const char *const plain[] = {"shape", "dtype", NULL};
  static const char *const filled[] = {"shape", "fill_value", "dtype", NULL};
  PyObject *a[3] = {NULL, NULL, NULL};
  bool full = kind == FILL_VALUE;
  if (asc_py_parse(fname, args, nargs, kwnames, full ? filled : plain, full ? 2 : 1, a))
    return NULL;
  int ndim;
  int64_t shape[ASC_MAX_DIMS];
  asc_dtype dtype = ASC_FLOAT64;
  PyObject *dtype_obj = a[full ? 2 : 1];
  if (asc_py_shape(a[0], &ndim, shape)) return NULL;
  if (full && (!dtype_obj || dtype_obj == Py_None)) {
    if (value_dtype(a[1], &dtype)) return NULL;
  } else if (parse_dtype(dtype_obj, ASC_FLOAT64, &dtype)) {
    return NULL;
  }
  return make(ndim, shape, dtype, kind, a[1]);
}

/* empty_like/zeros_like/ones_like(x, dtype=None); full_like(x, fill_value,
 * dtype=None): x's shape and dtype. */
static PyObject *create_like(const char *fname, fill_kind kind, PyObject *const *args,
                             Py_ssize_t nargs, PyObject *kwnames) {
  static const char *const plain[] = {"x", "dtype", NULL};
  static const char *const filled[] = {"x", "fill_value", "dtype", NULL};
  PyObject *a[3] = {NULL, NULL, NULL};
  bool full = kind == FILL_VALUE;
  if (asc_py_parse(fname, args, nargs, kwnames, full ? filled : plain, full ? 2 : 1, a))
    return NULL;
  asc_tensor x;
  if (asc_py_as_tensor(a[0], ASC_DTYPE_COUNT, &x)) return NULL;
  asc_dtype dtype;
  int rc = parse_dtype(a[full ? 2 : 1], x.dtype, &dtype);
  PyObject *result = rc ? NULL : make(x.ndim, x.shape, dtype, kind, a[1]);
  asc_tensor_release(&x);
  return result;
}

#define CREATE(NAME, KIND, FN)                                                        \
  static PyObject *fn_##NAME(PyObject *self, PyObject *const *args, Py_ssize_t nargs, \
                             PyObject *kwnames) {                                     \
    (void)self;                                                                       \
    return FN(#NAME, KIND, args, nargs, kwnames);                                     \
  }
CREATE(empty, FILL_NONE, create)
CREATE(zeros, FILL_ZERO, create)
CREATE(ones, FILL_ONE, create)
CREATE(full, FILL_VALUE, create)
CREATE(empty_like, FILL_NONE, create_like)
CREATE(zeros_like, FILL_ZERO, create_like)
CREATE(ones_like, FILL_ONE, create_like)
CREATE(full_like, FILL_VALUE, create_like)

/* --- ranges --------------------------------------------------------------- */

/* Python ints (and NumPy integers) stay exact; anything else is a float. */
static bool is_integer(PyObject *obj) {
  return PyLong_Check(obj) || (!PyFloat_Check(obj) && PyIndex_Check(obj));
}

static int as_double(PyObject *obj, const char *fname, double *out) {
  *out = PyFloat_AsDouble(obj);
  if (*out == -1.0 && PyErr_Occurred()) {
    if (PyErr_ExceptionMatches(PyExc_TypeError)) {
      PyErr_Clear();
      PyErr_Format(PyExc_TypeError, "%s: expected a real number, got %.100s", fname,
                   Py_TYPE(obj)->tp_name);
    }
    return -1;
  }
  return 0;
}

static int as_int64(PyObject *obj, int64_t *out) {
  PyObject *index = PyNumber_Index(obj);
  long long v = index ? PyLong_AsLongLong(index) : -1;
  Py_XDECREF(index);
  if (v == -1 && PyErr_Occurred()) return -1;
  *out = v;
  return 0;
}

/* arange([start,] stop[, step], dtype=None). */
static PyObject *fn_arange(PyObject *self, PyObject *const *args, Py_ssize_t nargs,
                           PyObject *kwnames) {
  (void)self;
  static const char *const names[] = {"start", "stop", "step", "dtype", NULL};
  PyObject *a[4] = {NULL, NULL, NULL, NULL};
  if (asc_py_parse("arange", args, nargs, kwnames, names, 1, a)) return NULL;
  PyObject *start = a[0], *stop = a[1], *step = a[2];
  if (!stop || stop == Py_None) stop = start, start = NULL;
  if (step == Py_None) step = NULL;
  PyObject *values[3] = {start, stop, step};
  bool integers = true;
  for (int i = 0; i < 3; i++) integers = integers && (!values[i] || is_integer(values[i]));
  asc_dtype dtype;
  if (parse_dtype(a[3], integers ? ASC_INT64 : ASC_FLOAT64, &dtype)) return NULL;
  asc_tensor t;
  asc_status st;
  if (integers) {
    int64_t v[3] = {0, 0, 1};
    for (int i = 0; i < 3; i++)
      if (values[i] && as_int64(values[i], &v[i])) return NULL;
    st = asc_arange_int(asc_device_current(), dtype, v[0], v[1], v[2], &t);
  } else {
    double v[3] = {0, 0, 1};
    for (int i = 0; i < 3; i++)
      if (values[i] && as_double(values[i], "arange", &v[i])) return NULL;
    st = asc_arange(asc_device_current(), dtype, v[0], v[1], v[2], &t);
  }
  return wrap(st, &t);
}

static PyObject *fn_linspace(PyObject *self, PyObject *const *args, Py_ssize_t nargs,
                             PyObject *kwnames) {
  (void)self;
  static const char *const names[] = {"start", "stop", "num", "endpoint", "dtype", NULL};
  PyObject *a[5] = {NULL, NULL, NULL, NULL, NULL};
  if (asc_py_parse("linspace", args, nargs, kwnames, names, 2, a)) return NULL;
  double start, stop;
  int64_t num = 50;
  int endpoint = a[3] ? PyObject_IsTrue(a[3]) : 1;
  asc_dtype dtype;
  if (endpoint < 0 || as_double(a[0], "linspace", &start) || as_double(a[1], "linspace", &stop) ||
      (a[2] && as_int64(a[2], &num)) || parse_dtype(a[4], ASC_FLOAT64, &dtype))
    return NULL;
  asc_tensor t;
  return wrap(asc_linspace(asc_device_current(), dtype, start, stop, num, endpoint, &t), &t);
}

static PyObject *fn_eye(PyObject *self, PyObject *const *args, Py_ssize_t nargs,
                        PyObject *kwnames) {
  (void)self;
  static const char *const names[] = {"N", "M", "k", "dtype", NULL};
  PyObject *a[4] = {NULL, NULL, NULL, NULL};
  if (asc_py_parse("eye", args, nargs, kwnames, names, 1, a)) return NULL;
  int64_t n, m, k = 0;
  asc_dtype dtype;
  if (as_int64(a[0], &n) || (a[1] && a[1] != Py_None ? as_int64(a[1], &m) : (m = n, 0)) ||
      (a[2] && as_int64(a[2], &k)) || parse_dtype(a[3], ASC_FLOAT64, &dtype))
    return NULL;
  asc_tensor t;
  return wrap(asc_eye(asc_device_current(), dtype, n, m, k, &t), &t);
}

/* --- joining -------------------------------------------------------------- */

typedef asc_status (*join_fn)(int n, const asc_tensor *const *xs, int axis, asc_tensor *out);

/* The tensors of a sequence (flattened when axis is None); *ptrs and
 * *tensors are PyMem arrays of *n entries. */
static int gather(const char *fname, PyObject *seq, bool flatten, int *n, asc_tensor **tensors,
                  const asc_tensor ***ptrs) {
  PyObject *fast = PySequence_Fast(seq, "expected a sequence of array-likes");
  if (!fast) return -1;
  Py_ssize_t count = PySequence_Fast_GET_SIZE(fast);
  if (count > INT_MAX) {
    Py_DECREF(fast);
    asc_py_raise_msg(ASC_ERR_INVALID_VALUE, "%s: too many arrays", fname);
    return -1;
  }
  *tensors = PyMem_Calloc((size_t)count + 1, sizeof **tensors);
  *ptrs = PyMem_Calloc((size_t)count + 1, sizeof **ptrs);
  int rc = *tensors && *ptrs ? 0 : (PyErr_NoMemory(), -1);
  *n = 0;
  for (Py_ssize_t i = 0; !rc && i < count; i++) {
    asc_tensor *t = &(*tensors)[i];
    rc = asc_py_as_tensor(PySequence_Fast_GET_ITEM(fast, i), ASC_DTYPE_COUNT, t);
    if (rc) break;
    (*ptrs)[i] = t;
    *n = (int)i + 1;
    if (flatten) {
      int64_t all = -1;
      asc_tensor flat;
      asc_status st = asc_tensor_reshape(t, 1, &all, &flat);
      if (st) {
        rc = -1, asc_py_raise(st);
        break;
      }
      asc_tensor_release(t);
      *t = flat;
    }
  }
  Py_DECREF(fast);
  return rc;
}

/* concatenate/stack(arrays, axis=0, out=None, dtype=None). */
static PyObject *join(const char *fname, join_fn fn, bool allow_none_axis, PyObject *const *args,
                      Py_ssize_t nargs, PyObject *kwnames) {
  static const char *const names[] = {"arrays", "axis", "out", "dtype", NULL};
  PyObject *a[4] = {NULL, NULL, NULL, NULL};
  if (asc_py_parse(fname, args, nargs, kwnames, names, 1, a)) return NULL;
  PyObject *out = a[2];
  if (asc_py_parse_out(fname, &out)) return NULL;
  bool flatten = allow_none_axis && a[1] == Py_None;
  int axis = 0;
  if (a[1] && !flatten) {
    int64_t v;
    if (as_int64(a[1], &v)) return NULL;
    if (v < INT_MIN || v > INT_MAX) return asc_py_raise_msg(ASC_ERR_INDEX, "axis out of range");
    axis = (int)v;
  }
  asc_dtype dtype = ASC_DTYPE_COUNT;
  if (parse_dtype(a[3], ASC_DTYPE_COUNT, &dtype)) return NULL;
  if (out && dtype != ASC_DTYPE_COUNT)
    return PyErr_Format(PyExc_TypeError,
                        "%s() only takes `out` or `dtype` as an argument, but both were provided.",
                        fname);
  int n;
  asc_tensor *tensors = NULL;
  const asc_tensor **ptrs = NULL;
  PyObject *result = NULL;
  if (!gather(fname, a[0], flatten, &n, &tensors, &ptrs)) {
    asc_tensor r = {0};
    if (out) asc_tensor_share(&((TensorObject *)out)->t, &r);
    asc_status st = fn(n, ptrs, axis, &r);
    if (!st && !out && dtype != ASC_DTYPE_COUNT && dtype != r.dtype) {
      asc_tensor cast = {0};
      st = asc_can_cast_same_kind(r.dtype, dtype)
               ? asc_cast(&r, dtype, &cast)
               : asc_error(ASC_ERR_TYPE, "%s: cannot cast %s to %s (same_kind)", fname,
                           asc_dtype_name(r.dtype), asc_dtype_name(dtype));
      asc_tensor_release(&r);
      r = cast;
    }
    result = asc_py_result(st, &r, out);
  }
  for (int i = 0; tensors && i < n; i++) asc_tensor_release(&tensors[i]);
  PyMem_Free(tensors);
  PyMem_Free(ptrs);
  return result;
}

static PyObject *fn_concatenate(PyObject *self, PyObject *const *args, Py_ssize_t nargs,
                                PyObject *kwnames) {
  (void)self;
  return join("concatenate", asc_concatenate, true, args, nargs, kwnames);
}

static PyObject *fn_stack(PyObject *self, PyObject *const *args, Py_ssize_t nargs,
                          PyObject *kwnames) {
  (void)self;
  return join("stack", asc_stack, false, args, nargs, kwnames);
}

/* Tensor.fill(value): every element becomes value, in place (NumPy's
 * ndarray.fill). */
static PyObject *tensor_fill(PyObject *self, PyObject *value) {
  return fill_with(&((TensorObject *)self)->t, value) ? NULL : Py_NewRef(Py_None);
}

static PyMethodDef methods[] = {
    {"fill", tensor_fill, METH_O, ASC_DOC("fill($self, value, /)", ASC_METHDOC_fill)},
    {NULL, NULL, 0, NULL},
};

#define ENTRY(NAME, ARGS)                                                \
  {                                                                      \
    .ml_name = #NAME, .ml_meth = (PyCFunction)(void (*)(void))fn_##NAME, \
    .ml_flags = METH_FASTCALL | METH_KEYWORDS,                           \
    .ml_doc = ASC_DOC(#NAME "($module, " ARGS ")", ASC_DOCTEXT_##NAME)   \
  }

static PyMethodDef functions[] = {
    ENTRY(empty, "shape, dtype=None"),
    ENTRY(zeros, "shape, dtype=None"),
    ENTRY(ones, "shape, dtype=None"),
    ENTRY(full, "shape, fill_value, dtype=None"),
    ENTRY(empty_like, "x, dtype=None"),
    ENTRY(zeros_like, "x, dtype=None"),
    ENTRY(ones_like, "x, dtype=None"),
    ENTRY(full_like, "x, fill_value, dtype=None"),
    ENTRY(arange, "start, stop=None, step=None, dtype=None"),
    ENTRY(linspace, "start, stop, num=50, endpoint=True, dtype=None"),
    ENTRY(eye, "N, M=None, k=0, dtype=None"),
    ENTRY(concatenate, "arrays, axis=0, out=None, dtype=None"),
    ENTRY(stack, "arrays, axis=0, out=None, dtype=None"),
    {NULL, NULL, 0, NULL},
};

int asc_py_create_init(PyObject *module) {
  if (PyModule_AddFunctions(module, functions) < 0) return -1;
  return asc_py_tensor_add_methods(methods);
}
