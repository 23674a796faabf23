/* Shape manipulation from Python: pyasc.flip, squeeze, expand_dims,
 * moveaxis, roll, repeat, tile, tril, triu, diff, count_nonzero,
 * broadcast_to, broadcast_arrays, unstack and meshgrid; Tensor.flip,
 * squeeze and repeat. */
#include "binding.h"

/* after binding.h, whose Python.h must come first */
#include "asc_docstrings.h" /* generated from docs/docstrings (tools/gen_docstrings.py) */

#include <limits.h>
#include <string.h>

#include "asc/ops_manip.h"

static PyObject *wrap(asc_status st, asc_tensor *t) {
  return st ? asc_py_raise(st) : asc_py_tensor_wrap(t);
}

int asc_py_int64(PyObject *obj, const char *what, int64_t *out) {
  if (!PyIndex_Check(obj) || PyBool_Check(obj)) {
    PyErr_Format(PyExc_TypeError, "%s must be an integer, not %.100s", what, Py_TYPE(obj)->tp_name);
    return -1;
  }
  PyObject *index = PyNumber_Index(obj);
  long long v = index ? PyLong_AsLongLong(index) : -1;
  Py_XDECREF(index);
  if (v == -1 && PyErr_Occurred()) return -1;
  *out = v;
  return 0;
}

int asc_py_int(PyObject *obj, const char *what, int *out) {
  int64_t v;
  if (!PyIndex_Check(obj) || PyBool_Check(obj)) {
    PyErr_Format(PyExc_TypeError, "%s must be an integer, not %.100s", what, Py_TYPE(obj)->tp_name);
    return -1;
  }
  Py_ssize_t s = PyNumber_AsSsize_t(obj, NULL);
  if (s == -1 && PyErr_Occurred()) return -1;
  v = s;
  /* Values beyond int saturate: still out of range for any axis. */
  *out = v > INT_MAX ? INT_MAX : v < INT_MIN ? INT_MIN : (int)v;
  return 0;
}

int asc_py_axes(PyObject *obj, const char *what, int *naxes, int *axes) {
  *naxes = -1;
  if (!obj || obj == Py_None) return 0;
  if (!PyTuple_Check(obj) && !PyList_Check(obj)) {
    *naxes = 1;
    return asc_py_int(obj, what, &axes[0]);
  }
  PyObject *fast = PySequence_Fast(obj, "axes");
  if (!fast) return -1;
  Py_ssize_t n = PySequence_Fast_GET_SIZE(fast);
  int rc = 0;
  if (n > ASC_MAX_DIMS) rc = -1, asc_py_raise_msg(ASC_ERR_INVALID_VALUE, "too many axes (%zd)", n);
  for (Py_ssize_t k = 0; !rc && k < n; k++)
    rc = asc_py_int(PySequence_Fast_GET_ITEM(fast, k), what, &axes[k]);
  Py_DECREF(fast);
  *naxes = (int)n;
  return rc;
}

/* --- views ------------------------------------------------------------------ */

typedef asc_status (*axes_view_fn)(const asc_tensor *, int, const int *, asc_tensor *);

static PyObject *axes_view(axes_view_fn fn, const char *fname, PyObject *self,
                           PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames) {
  static const char *const names[] = {"x", "axis", NULL};
  PyObject *a[2] = {self, NULL};
  int first = self ? 1 : 0;
  if (asc_py_parse(fname, args, nargs, kwnames, names + first, 1 - first, a + first)) return NULL;
  int naxes, axes[ASC_MAX_DIMS];
  if (asc_py_axes(a[1], "axis", &naxes, axes)) return NULL;
  asc_tensor x, r = {0};
  if (asc_py_as_tensor(a[0], ASC_DTYPE_COUNT, &x)) return NULL;
  asc_status st = fn(&x, naxes < 0 ? 0 : naxes, naxes < 0 ? NULL : axes, &r);
  asc_tensor_release(&x);
  return wrap(st, &r);
}

ASC_PY_ENTRY_POINTS(flip, axes_view, asc_flip, "flip")
ASC_PY_ENTRY_POINTS(squeeze, axes_view, asc_squeeze, "squeeze")

static PyObject *fn_expand_dims(PyObject *m, PyObject *const *args, Py_ssize_t nargs,
                                PyObject *kw) {
  (void)m;
  static const char *const names[] = {"x", "axis", NULL};
  PyObject *a[2] = {NULL, NULL};
  if (asc_py_parse("expand_dims", args, nargs, kw, names, 1, a)) return NULL;
  int naxes = 1, axes[ASC_MAX_DIMS] = {0};
  if (a[1] && asc_py_axes(a[1], "axis", &naxes, axes)) return NULL;
  if (naxes < 0) return asc_py_raise_msg(ASC_ERR_INVALID_VALUE, "expand_dims: axis cannot be None");
  asc_tensor x, r = {0};
  if (asc_py_as_tensor(a[0], ASC_DTYPE_COUNT, &x)) return NULL;
  asc_status st = asc_expand_dims(&x, naxes, axes, &r);
  asc_tensor_release(&x);
  return wrap(st, &r);
}

static PyObject *fn_moveaxis(PyObject *m, PyObject *const *args, Py_ssize_t nargs, PyObject *kw) {
  (void)m;
  static const char *const names[] = {"x", "source", "destination", NULL};
  PyObject *a[3] = {NULL, NULL, NULL};
  if (asc_py_parse("moveaxis", args, nargs, kw, names, 3, a)) return NULL;
  int ns, nd, src[ASC_MAX_DIMS], dst[ASC_MAX_DIMS];
  if (asc_py_axes(a[1], "source", &ns, src) || asc_py_axes(a[2], "destination", &nd, dst))
    return NULL;
  if (ns != nd || ns < 0)
    return asc_py_raise_msg(ASC_ERR_INVALID_VALUE,
                            "moveaxis: `source` and `destination` "
                            "arguments must have the same number of elements");
  asc_tensor x, r = {0};
  if (asc_py_as_tensor(a[0], ASC_DTYPE_COUNT, &x)) return NULL;
  asc_status st = asc_moveaxis(&x, ns, src, dst, &r);
  asc_tensor_release(&x);
  return wrap(st, &r);
}

/* --- copies ------------------------------------------------------------------ */

/* An int-like scalar (a Python or NumPy integer), not a tensor or array. */
static bool int_scalar(PyObject *obj) {
  return PyIndex_Check(obj) && !PyBool_Check(obj) && !AscTensor_Check(obj) &&
         !PySequence_Check(obj);
}

/* An int or a sequence of ints (at most max) into v; *n -1 for a bare int. */
static int int64_list(PyObject *obj, const char *what, int max, int *n, int64_t *v) {
  if (int_scalar(obj)) {
    *n = -1;
    return asc_py_int64(obj, what, &v[0]);
  }
  PyObject *fast = PySequence_Fast(obj, "an int or a sequence of ints");
  if (!fast) return -1;
  Py_ssize_t len = PySequence_Fast_GET_SIZE(fast);
  int rc = 0;
  if (len > max) rc = -1, asc_py_raise_msg(ASC_ERR_INVALID_VALUE, "%s: too many values", what);
  for (Py_ssize_t k = 0; !rc && k < len; k++)
    rc = asc_py_int64(PySequence_Fast_GET_ITEM(fast, k), what, &v[k]);
  Py_DECREF(fast);
  *n = (int)len;
  return rc;
}

static PyObject *fn_roll(PyObject *m, PyObject *const *args, Py_ssize_t nargs, PyObject *kw) {
  (void)m;
  static const char *const names[] = {"x", "shift", "axis", NULL};
  PyObject *a[3] = {NULL, NULL, NULL};
  if (asc_py_parse("roll", args, nargs, kw, names, 2, a)) return NULL;
  int nshift, naxes, axes[ASC_MAX_DIMS];
  int64_t shifts[ASC_MAX_DIMS];
  if (int64_list(a[1], "shift", ASC_MAX_DIMS, &nshift, shifts) ||
      asc_py_axes(a[2], "axis", &naxes, axes))
    return NULL;
  int ns = nshift < 0 ? 1 : nshift, n = 0;
  if (naxes < 0) {
    /* The flattened tensor, shifted by all the shifts (NumPy rolls its
     * ravel along axis 0). */
    for (int k = 1; k < ns; k++) shifts[0] += shifts[k];
    if (ns == 0) shifts[0] = 0;
  } else {
    /* NumPy broadcasts shift and axis together. */
    if (ns != naxes && ns != 1 && naxes != 1)
      return asc_py_raise_msg(ASC_ERR_INVALID_VALUE,
                              "roll: shift and axis must broadcast together (%d and %d values)", ns,
                              naxes);
    n = ns > naxes ? ns : naxes;
    if (ns == 0 || naxes == 0) n = 0;
    for (int k = n - 1; k >= 0; k--) {
      if (ns == 1) shifts[k] = shifts[0];
      if (naxes == 1) axes[k] = axes[0];
    }
  }
  asc_tensor x, r = {0};
  if (asc_py_as_tensor(a[0], ASC_DTYPE_COUNT, &x)) return NULL;
  /* No axis to roll (empty tuples) is a copy; naxes 0 means the flattened tensor. */
  asc_status st = naxes >= 0 && n == 0 ? asc_tile(&x, 0, NULL, &r)
                                       : asc_roll(&x, naxes < 0 ? 0 : n, shifts, axes, &r);
  asc_tensor_release(&x);
  return wrap(st, &r);
}

static PyObject *repeat_call(PyObject *self, PyObject *const *args, Py_ssize_t nargs,
                             PyObject *kwnames) {
  static const char *const names[] = {"x", "repeats", "axis", NULL};
  PyObject *a[3] = {self, NULL, NULL};
  int first = self ? 1 : 0;
  if (asc_py_parse("repeat", args, nargs, kwnames, names + first, 2 - first, a + first))
    return NULL;
  bool flatten = !a[2] || a[2] == Py_None;
  int axis = 0;
  if (!flatten && asc_py_int(a[2], "axis", &axis)) return NULL;
  asc_tensor rep = {0}, rep64 = {0}, x, r = {0};
  int64_t one;
  const int64_t *reps = &one;
  int nrep = 1;
  asc_status st = ASC_OK;
  if (int_scalar(a[1])) {
    if (asc_py_int64(a[1], "repeats", &one)) return NULL;
  } else {
    if (asc_py_as_tensor(a[1], ASC_DTYPE_COUNT, &rep)) return NULL;
    if (!asc_dtype_is_integer(rep.dtype) && rep.dtype != ASC_BOOL)
      st = asc_error(ASC_ERR_TYPE, "repeat: repeats must hold integers, not %s",
                     asc_dtype_name(rep.dtype));
    else if (rep.ndim > 1)
      st = asc_error(ASC_ERR_INVALID_VALUE, "repeat: repeats must be an int or 1-d, not %d-d",
                     rep.ndim);
    asc_tensor cast = {0};
    if (!st) st = asc_cast(&rep, ASC_INT64, &cast);
    if (!st) st = asc_tensor_contiguous(&cast, &rep64);
    asc_tensor_release(&cast);
    asc_tensor_release(&rep);
    if (st) {
      asc_tensor_release(&rep64);
      return asc_py_raise(st);
    }
    if (asc_py_sync_tensor_for_host(&rep64)) {
      asc_tensor_release(&rep64);
      return NULL;
    }
    reps = asc_tensor_data(&rep64);
    int64_t n = asc_tensor_numel(&rep64);
    if (n > INT_MAX) n = INT_MAX;
    nrep = (int)n;
  }
  if (asc_py_as_tensor(a[0], ASC_DTYPE_COUNT, &x)) {
    asc_tensor_release(&rep64);
    return NULL;
  }
  st = asc_repeat(&x, nrep, reps, flatten, axis, &r);
  asc_tensor_release(&x);
  asc_tensor_release(&rep64);
  return wrap(st, &r);
}

static PyObject *fn_repeat(PyObject *m, PyObject *const *args, Py_ssize_t nargs, PyObject *kw) {
  (void)m;
  return repeat_call(NULL, args, nargs, kw);
}

static PyObject *method_repeat(PyObject *self, PyObject *const *args, Py_ssize_t nargs,
                               PyObject *kw) {
  return repeat_call(self, args, nargs, kw);
}

static PyObject *fn_tile(PyObject *m, PyObject *const *args, Py_ssize_t nargs, PyObject *kw) {
  (void)m;
  static const char *const names[] = {"x", "reps", NULL};
  PyObject *a[2] = {NULL, NULL};
  if (asc_py_parse("tile", args, nargs, kw, names, 2, a)) return NULL;
  int n;
  int64_t reps[ASC_MAX_DIMS];
  if (int64_list(a[1], "reps", ASC_MAX_DIMS, &n, reps)) return NULL;
  asc_tensor x, r = {0};
  if (asc_py_as_tensor(a[0], ASC_DTYPE_COUNT, &x)) return NULL;
  asc_status st = asc_tile(&x, n < 0 ? 1 : n, reps, &r);
  asc_tensor_release(&x);
  return wrap(st, &r);
}

static PyObject *tri_call(bool upper, PyObject *const *args, Py_ssize_t nargs, PyObject *kw) {
  static const char *const names[] = {"x", "k", NULL};
  PyObject *a[2] = {NULL, NULL};
  if (asc_py_parse(upper ? "triu" : "tril", args, nargs, kw, names, 1, a)) return NULL;
  int64_t k = 0;
  if (a[1] && asc_py_int64(a[1], "k", &k)) return NULL;
  asc_tensor x, r = {0};
  if (asc_py_as_tensor(a[0], ASC_DTYPE_COUNT, &x)) return NULL;
  asc_status st = asc_tri_mask(&x, k, upper, &r);
  asc_tensor_release(&x);
  return wrap(st, &r);
}

static PyObject *fn_tril(PyObject *m, PyObject *const *args, Py_ssize_t nargs, PyObject *kw) {
  (void)m;
  return tri_call(false, args, nargs, kw);
}

static PyObject *fn_triu(PyObject *m, PyObject *const *args, Py_ssize_t nargs, PyObject *kw) {
  (void)m;
  return tri_call(true, args, nargs, kw);
}

static PyObject *fn_diff(PyObject *m, PyObject *const *args, Py_ssize_t nargs, PyObject *kw) {
  (void)m;
  /* NumPy's positional order (a, n, axis, ...); the Array API's are keywords. */
  static const char *const names[] = {"x", "n", "axis", "prepend", "append", NULL};
  PyObject *a[5] = {NULL, NULL, NULL, NULL, NULL};
  if (asc_py_parse("diff", args, nargs, kw, names, 1, a)) return NULL;
  int axis = -1, n = 1;
  if ((a[2] && asc_py_int(a[2], "axis", &axis)) || (a[1] && asc_py_int(a[1], "n", &n))) return NULL;
  asc_tensor x, pre = {0}, app = {0}, r = {0};
  bool has_pre = a[3] && a[3] != Py_None, has_app = a[4] && a[4] != Py_None;
  if (asc_py_as_tensor(a[0], ASC_DTYPE_COUNT, &x)) return NULL;
  int rc = 0;
  /* As NumPy, prepend and append are arrays (a Python int is int64, not a
   * weak scalar) before they join x. */
  if (has_pre) rc = asc_py_as_tensor(a[3], ASC_DTYPE_COUNT, &pre);
  if (!rc && has_app) rc = asc_py_as_tensor(a[4], ASC_DTYPE_COUNT, &app);
  if (rc) {
    asc_tensor_release(&x);
    asc_tensor_release(&pre);
    return NULL;
  }
  asc_status st = asc_diff(&x, axis, n, has_pre ? &pre : NULL, has_app ? &app : NULL, &r);
  asc_tensor_release(&x);
  asc_tensor_release(&pre);
  asc_tensor_release(&app);
  return wrap(st, &r);
}

static PyObject *fn_count_nonzero(PyObject *m, PyObject *const *args, Py_ssize_t nargs,
                                  PyObject *kw) {
  (void)m;
  static const char *const names[] = {"x", "axis", "keepdims", NULL};
  PyObject *a[3] = {NULL, NULL, NULL};
  if (asc_py_parse("count_nonzero", args, nargs, kw, names, 1, a)) return NULL;
  int naxes, axes[ASC_MAX_DIMS];
  if (asc_py_axes(a[1], "axis", &naxes, axes)) return NULL;
  int keepdims = a[2] ? PyObject_IsTrue(a[2]) : 0;
  if (keepdims < 0) return NULL;
  asc_tensor x, r = {0};
  if (asc_py_as_tensor(a[0], ASC_DTYPE_COUNT, &x)) return NULL;
  asc_status st =
      asc_count_nonzero(&x, naxes < 0 ? 0 : naxes, naxes < 0 ? NULL : axes, keepdims != 0, &r);
  asc_tensor_release(&x);
  return wrap(st, &r);
}

/* --- broadcasting, unstack, meshgrid ------------------------------------------- */

static PyObject *fn_broadcast_to(PyObject *m, PyObject *const *args, Py_ssize_t nargs,
                                 PyObject *kw) {
  (void)m;
  static const char *const names[] = {"x", "shape", NULL};
  PyObject *a[2] = {NULL, NULL};
  if (asc_py_parse("broadcast_to", args, nargs, kw, names, 2, a)) return NULL;
  int ndim;
  int64_t shape[ASC_MAX_DIMS];
  if (asc_py_shape(a[1], &ndim, shape)) return NULL;
  asc_tensor x, r = {0};
  if (asc_py_as_tensor(a[0], ASC_DTYPE_COUNT, &x)) return NULL;
  asc_status st = asc_tensor_expand(&x, ndim, shape, &r);
  asc_tensor_release(&x);
  return wrap(st, &r);
}

/* Each of the n objects as a tensor in ts (all released on failure). */
static int tensors_of(PyObject *const *objs, Py_ssize_t n, asc_tensor *ts) {
  for (Py_ssize_t i = 0; i < n; i++)
    if (asc_py_as_tensor(objs[i], ASC_DTYPE_COUNT, &ts[i])) {
      for (Py_ssize_t k = 0; k < i; k++) asc_tensor_release(&ts[k]);
      return -1;
    }
  return 0;
}

/* A tuple of tensors made by make(k) for k < n, or NULL. */
static PyObject *tuple_of(Py_ssize_t n, asc_tensor *made) {
  PyObject *res = PyTuple_New(n);
  for (Py_ssize_t i = 0; i < n; i++) {
    PyObject *t = res ? asc_py_tensor_wrap(&made[i]) : NULL;
    if (!t) {
      Py_CLEAR(res);
      for (Py_ssize_t k = i; k < n; k++) asc_tensor_release(&made[k]);
      return NULL;
    }
    PyTuple_SET_ITEM(res, i, t);
  }
  return res;
}

static PyObject *fn_broadcast_arrays(PyObject *m, PyObject *const *args, Py_ssize_t nargs,
                                     PyObject *kw) {
  (void)m;
  if (kw && PyTuple_GET_SIZE(kw))
    return PyErr_Format(PyExc_TypeError, "broadcast_arrays() takes no keyword arguments");
  asc_tensor *ts = PyMem_Calloc((size_t)nargs + 1, sizeof *ts);
  asc_tensor *out = PyMem_Calloc((size_t)nargs + 1, sizeof *out);
  if (!ts || !out) {
    PyMem_Free(ts);
    PyMem_Free(out);
    return PyErr_NoMemory();
  }
  PyObject *res = NULL;
  if (!tensors_of(args, nargs, ts)) {
    int ndim = 0;
    int64_t shape[ASC_MAX_DIMS];
    asc_status st = ASC_OK;
    for (Py_ssize_t i = 0; !st && i < nargs; i++) {
      int64_t prev[ASC_MAX_DIMS];
      memcpy(prev, shape, sizeof prev);
      st = asc_broadcast_shapes(ndim, prev, ts[i].ndim, ts[i].shape, &ndim, shape);
    }
    Py_ssize_t made = 0;
    for (; !st && made < nargs; made++) st = asc_tensor_expand(&ts[made], ndim, shape, &out[made]);
    if (st) {
      for (Py_ssize_t k = 0; k < made; k++) asc_tensor_release(&out[k]);
      asc_py_raise(st);
    } else {
      res = tuple_of(nargs, out);
    }
    for (Py_ssize_t i = 0; i < nargs; i++) asc_tensor_release(&ts[i]);
  }
  PyMem_Free(ts);
  PyMem_Free(out);
  return res;
}

static PyObject *fn_unstack(PyObject *m, PyObject *const *args, Py_ssize_t nargs, PyObject *kw) {
  (void)m;
  static const char *const names[] = {"x", "axis", NULL};
  PyObject *a[2] = {NULL, NULL};
  if (asc_py_parse("unstack", args, nargs, kw, names, 1, a)) return NULL;
  int axis = 0;
  if (a[1] && asc_py_int(a[1], "axis", &axis)) return NULL;
  asc_tensor x;
  if (asc_py_as_tensor(a[0], ASC_DTYPE_COUNT, &x)) return NULL;
  asc_status st = asc_normalize_axes("unstack", x.ndim, 1, &axis);
  if (st) {
    asc_tensor_release(&x);
    return asc_py_raise(st);
  }
  int64_t n = x.shape[axis];
  asc_tensor *out = PyMem_Calloc((size_t)n + 1, sizeof *out);
  if (!out) {
    asc_tensor_release(&x);
    return PyErr_NoMemory();
  }
  int64_t made = 0;
  for (; !st && made < n; made++) st = asc_tensor_select(&x, axis, made, &out[made]);
  PyObject *res = NULL;
  if (st) {
    for (int64_t k = 0; k < made; k++) asc_tensor_release(&out[k]);
    asc_py_raise(st);
  } else {
    res = tuple_of((Py_ssize_t)n, out);
  }
  asc_tensor_release(&x);
  PyMem_Free(out);
  return res;
}

static PyObject *fn_meshgrid(PyObject *m, PyObject *const *args, Py_ssize_t nargs, PyObject *kw) {
  (void)m;
  bool ij = false;
  Py_ssize_t nkw = kw ? PyTuple_GET_SIZE(kw) : 0;
  for (Py_ssize_t k = 0; k < nkw; k++) {
    const char *key = PyUnicode_AsUTF8(PyTuple_GET_ITEM(kw, k));
    if (!key) return NULL;
    if (strcmp(key, "indexing"))
      return PyErr_Format(PyExc_TypeError, "meshgrid() got an unexpected keyword argument '%s'",
                          key);
    PyObject *v = args[nargs + k];
    const char *s = PyUnicode_Check(v) ? PyUnicode_AsUTF8(v) : NULL;
    if (s && !strcmp(s, "ij"))
      ij = true;
    else if (!s || strcmp(s, "xy"))
      return asc_py_raise_msg(ASC_ERR_INVALID_VALUE, "meshgrid: indexing must be 'xy' or 'ij'");
  }
  if (nargs > ASC_MAX_DIMS)
    return asc_py_raise_msg(ASC_ERR_INVALID_VALUE, "meshgrid: at most %d inputs", ASC_MAX_DIMS);
  asc_tensor ts[ASC_MAX_DIMS], out[ASC_MAX_DIMS];
  memset(out, 0, sizeof out);
  if (tensors_of(args, nargs, ts)) return NULL;
  int n = (int)nargs;
  int64_t shape[ASC_MAX_DIMS];
  for (int i = 0; i < n; i++) shape[i] = asc_tensor_numel(&ts[i]);
  if (!ij && n >= 2) {
    int64_t t = shape[0];
    shape[0] = shape[1];
    shape[1] = t;
  }
  asc_status st = ASC_OK;
  int made = 0;
  for (; !st && made < n; made++) {
    int pos = !ij && made < 2 && n >= 2 ? 1 - made : made;
    int64_t vshape[ASC_MAX_DIMS];
    for (int d = 0; d < n; d++) vshape[d] = d == pos ? shape[d] : 1;
    asc_tensor v = {0}, e = {0};
    st = asc_tensor_reshape(&ts[made], n, vshape, &v);
    if (!st) st = asc_tensor_expand(&v, n, shape, &e);
    if (!st)
      st = asc_tensor_empty(asc_tensor_device(&ts[made]), ts[made].dtype, n, shape, &out[made]);
    if (!st) st = asc_copy(&e, &out[made]);
    asc_tensor_release(&v);
    asc_tensor_release(&e);
  }
  for (int i = 0; i < n; i++) asc_tensor_release(&ts[i]);
  if (st) {
    for (int k = 0; k < made; k++) asc_tensor_release(&out[k]);
    return asc_py_raise(st);
  }
  return tuple_of(n, out);
}

#define CFUNC(f) (PyCFunction)(void (*)(void))(f)
#define FASTKW METH_FASTCALL | METH_KEYWORDS
/* The docs are docs/docstrings/manip.py's, which the build renders into asc_docstrings.h. */

static PyMethodDef manip_functions[] = {
    {"flip", CFUNC(fn_flip), FASTKW, ASC_DOC("flip($module, x, axis=None)", ASC_DOCTEXT_flip)},
    {"squeeze", CFUNC(fn_squeeze), FASTKW,
     ASC_DOC("squeeze($module, x, axis=None)", ASC_DOCTEXT_squeeze)},
    {"expand_dims", CFUNC(fn_expand_dims), FASTKW,
     ASC_DOC("expand_dims($module, x, axis=0)", ASC_DOCTEXT_expand_dims)},
    {"moveaxis", CFUNC(fn_moveaxis), FASTKW,
     ASC_DOC("moveaxis($module, x, source, destination)", ASC_DOCTEXT_moveaxis)},
    {"roll", CFUNC(fn_roll), FASTKW,
     ASC_DOC("roll($module, x, shift, axis=None)", ASC_DOCTEXT_roll)},
    {"repeat", CFUNC(fn_repeat), FASTKW,
     ASC_DOC("repeat($module, x, repeats, axis=None)", ASC_DOCTEXT_repeat)},
    {"tile", CFUNC(fn_tile), FASTKW, ASC_DOC("tile($module, x, reps)", ASC_DOCTEXT_tile)},
    {"tril", CFUNC(fn_tril), FASTKW, ASC_DOC("tril($module, x, k=0)", ASC_DOCTEXT_tril)},
    {"triu", CFUNC(fn_triu), FASTKW, ASC_DOC("triu($module, x, k=0)", ASC_DOCTEXT_triu)},
    {"diff", CFUNC(fn_diff), FASTKW,
     ASC_DOC("diff($module, x, n=1, axis=-1, prepend=None, append=None)", ASC_DOCTEXT_diff)},
    {"count_nonzero", CFUNC(fn_count_nonzero), FASTKW,
     ASC_DOC("count_nonzero($module, x, axis=None, keepdims=False)", ASC_DOCTEXT_count_nonzero)},
    {"broadcast_to", CFUNC(fn_broadcast_to), FASTKW,
     ASC_DOC("broadcast_to($module, x, shape)", ASC_DOCTEXT_broadcast_to)},
    {"broadcast_arrays", CFUNC(fn_broadcast_arrays), METH_FASTCALL | METH_KEYWORDS,
     ASC_DOC("broadcast_arrays($module, *arrays)", ASC_DOCTEXT_broadcast_arrays)},
    {"unstack", CFUNC(fn_unstack), FASTKW,
     ASC_DOC("unstack($module, x, axis=0)", ASC_DOCTEXT_unstack)},
    {"meshgrid", CFUNC(fn_meshgrid), METH_FASTCALL | METH_KEYWORDS,
     ASC_DOC("meshgrid($module, *arrays, indexing='xy')", ASC_DOCTEXT_meshgrid)},
    {NULL, NULL, 0, NULL},
};

static PyMethodDef manip_methods[] = {
    {"flip", CFUNC(method_flip), FASTKW, ASC_DOC("flip($self, axis=None)", ASC_METHDOC_flip)},
    {"squeeze", CFUNC(method_squeeze), FASTKW,
     ASC_DOC("squeeze($self, axis=None)", ASC_METHDOC_squeeze)},
    {"repeat", CFUNC(method_repeat), FASTKW,
     ASC_DOC("repeat($self, repeats, axis=None)", ASC_METHDOC_repeat)},
    {NULL, NULL, 0, NULL},
};

int asc_py_manip_init(PyObject *module) {
  if (asc_py_tensor_add_methods(manip_methods) < 0) return -1;
  return PyModule_AddFunctions(module, manip_functions);
}
