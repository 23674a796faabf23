/* Sorting, searching, sets and scans from Python: pyasc.sort, argsort,
 * searchsorted, unique and the Array API's unique_*, cumulative_sum/prod
 * and NumPy's cumsum/cumprod; Tensor.sort, argsort, cumsum and cumprod. */
#include "binding.h"

/* after binding.h, whose Python.h must come first */
#include "asc_docstrings.h" /* generated from docs/docstrings (tools/gen_docstrings.py) */

#include <string.h>

#include "asc/ops_manip.h"
#include "asc/ops_sort.h"

static PyObject *wrap(asc_status st, asc_tensor *t) {
  return st ? asc_py_raise(st) : asc_py_tensor_wrap(t);
}

/* --- sort / argsort ---------------------------------------------------------- */

/* NumPy's positional order (x, axis, kind, order), then the Array API's
 * keywords: np.sort(t, 0, "stable") forwarded by __array_function__ means
 * what it means for arrays. Every kind gives the stable sort. */
static PyObject *sort_call(bool arg, PyObject *self, PyObject *const *args, Py_ssize_t nargs,
                           PyObject *kwnames) {
  static const char *const names[] = {"x", "axis", "kind", "order", "descending", "stable", NULL};
  const char *fname = arg ? "argsort" : "sort";
  PyObject *a[6] = {self, NULL, NULL, NULL, NULL, NULL};
  int first = self ? 1 : 0;
  if (asc_py_parse(fname, args, nargs, kwnames, names + first, 1 - first, a + first)) return NULL;
  int axis = -1;
  bool flatten = a[1] == Py_None; /* NumPy: axis=None sorts the flattened tensor */
  if (a[1] && !flatten && asc_py_int(a[1], "axis", &axis)) return NULL;
  if (a[2] && a[2] != Py_None && !PyUnicode_Check(a[2]))
    return PyErr_Format(PyExc_TypeError, "%s: kind must be a string or None", fname);
  if (a[3] && a[3] != Py_None)
    return asc_py_raise_msg(ASC_ERR_UNSUPPORTED, "%s: order= (structured dtypes) is not supported",
                            fname);
  int desc = a[4] ? PyObject_IsTrue(a[4]) : 0;
  int stable = a[5] && a[5] != Py_None ? PyObject_IsTrue(a[5]) : 1; /* always stable */
  if (desc < 0 || stable < 0) return NULL;
  asc_tensor x, flat = {0}, r = {0};
  if (asc_py_as_tensor(a[0], ASC_DTYPE_COUNT, &x)) return NULL;
  int64_t all = -1;
  asc_status st = flatten ? asc_tensor_reshape(&x, 1, &all, &flat) : ASC_OK;
  if (!flatten) asc_tensor_share(&x, &flat);
  if (!st) st = asc_sort(&flat, axis, desc != 0, arg ? NULL : &r, arg ? &r : NULL);
  asc_tensor_release(&x);
  asc_tensor_release(&flat);
  return wrap(st, &r);
}

ASC_PY_ENTRY_POINTS(sort, sort_call, false)
ASC_PY_ENTRY_POINTS(argsort, sort_call, true)

/* --- searchsorted -------------------------------------------------------------- */

static PyObject *fn_searchsorted(PyObject *module, PyObject *const *args, Py_ssize_t nargs,
                                 PyObject *kwnames) {
  (void)module;
  static const char *const names[] = {"x1", "x2", "side", "sorter", NULL};
  PyObject *a[4] = {NULL, NULL, NULL, NULL};
  if (asc_py_parse("searchsorted", args, nargs, kwnames, names, 2, a)) return NULL;
  bool right = false;
  if (a[2]) {
    const char *side = PyUnicode_Check(a[2]) ? PyUnicode_AsUTF8(a[2]) : NULL;
    if (side && !strcmp(side, "right"))
      right = true;
    else if (!side || strcmp(side, "left"))
      return asc_py_raise_msg(ASC_ERR_INVALID_VALUE,
                              "searchsorted: side must be 'left' or 'right'");
  }
  asc_tensor x1, x2, sorter = {0}, r = {0};
  if (asc_py_as_tensor(a[0], ASC_DTYPE_COUNT, &x1)) return NULL;
  if (asc_py_as_tensor(a[1], ASC_DTYPE_COUNT, &x2)) {
    asc_tensor_release(&x1);
    return NULL;
  }
  bool has_sorter = a[3] && a[3] != Py_None;
  asc_status st = ASC_OK;
  if (has_sorter && asc_py_as_tensor(a[3], ASC_DTYPE_COUNT, &sorter)) {
    asc_tensor_release(&x1);
    asc_tensor_release(&x2);
    return NULL;
  }
  st = asc_searchsorted(&x1, &x2, right, has_sorter ? &sorter : NULL, &r);
  asc_tensor_release(&x1);
  asc_tensor_release(&x2);
  asc_tensor_release(&sorter);
  return wrap(st, &r);
}

/* --- unique ------------------------------------------------------------------------ */

static PyTypeObject *unique_all_type, *unique_counts_type, *unique_inverse_type;

enum { U_VALUES = 1, U_FIRST = 2, U_INVERSE = 4, U_COUNTS = 8 };

/* The parts of unique(x) named in `want`, in r[0..3] (values, first,
 * inverse with x's shape, counts); 0 or -1 with an exception. */
static int unique_parts(PyObject *x_obj, int want, bool equal_nan, asc_tensor *r) {
  asc_tensor x, flat = {0}, sorted = {0}, perm = {0};
  if (asc_py_as_tensor(x_obj, ASC_DTYPE_COUNT, &x)) return -1;
  int64_t all = -1;
  asc_status st = asc_tensor_reshape(&x, 1, &all, &flat);
  if (!st) st = asc_sort(&flat, 0, false, &sorted, &perm);
  int rc = st ? -1 : 0;
  if (st)
    asc_py_raise(st);
  else
    rc = asc_py_sync_tensor_for_host(&sorted);
  if (!rc) {
    asc_tensor inv = {0};
    st = asc_unique_sorted(&sorted, &perm, equal_nan, want & U_VALUES ? &r[0] : NULL,
                           want & U_FIRST ? &r[1] : NULL, want & U_INVERSE ? &inv : NULL,
                           want & U_COUNTS ? &r[3] : NULL);
    if (!st && (want & U_INVERSE)) st = asc_tensor_reshape(&inv, x.ndim, x.shape, &r[2]);
    asc_tensor_release(&inv);
    if (st) {
      for (int k = 0; k < 4; k++) asc_tensor_release(&r[k]);
      asc_py_raise(st);
      rc = -1;
    }
  }
  asc_tensor_release(&x);
  asc_tensor_release(&flat);
  asc_tensor_release(&sorted);
  asc_tensor_release(&perm);
  return rc;
}

/* unique(x, axis=axis): the subarrays along axis as rows (moved first and
 * made contiguous), their unique rows moved back; r as in unique_parts. */
static int unique_axis_parts(PyObject *x_obj, PyObject *axis_obj, int want, asc_tensor *r) {
  long axis = PyLong_AsLong(axis_obj);
  if (axis == -1 && PyErr_Occurred()) return -1;
  asc_tensor x, moved = {0}, cont = {0}, rows = {0}, vals = {0}, shaped = {0};
  if (asc_py_as_tensor(x_obj, ASC_DTYPE_COUNT, &x)) return -1;
  asc_status st = ASC_OK;
  if (axis < -x.ndim || axis >= x.ndim)
    st = asc_error(ASC_ERR_INDEX, "unique: axis %ld is out of bounds for array of dimension %d",
                   axis, x.ndim);
  int from = (int)(axis < 0 ? axis + x.ndim : axis), to = 0;
  int64_t shape[2] = {st ? 0 : x.shape[from], 1}, back[ASC_MAX_DIMS];
  for (int d = 0; !st && d < x.ndim; d++)
    if (d != from) shape[1] *= x.shape[d]; /* of a valid tensor: no overflow */
  if (!st) st = asc_moveaxis(&x, 1, &from, &to, &moved);
  if (!st) st = asc_tensor_contiguous(&moved, &cont);
  if (!st) st = asc_tensor_reshape(&cont, 2, shape, &rows);
  int rc = st ? 0 : asc_py_sync_tensor_for_host(&rows); /* -1: raised already */
  if (!st && !rc)
    st = asc_unique_rows(&rows, want & U_VALUES ? &vals : NULL, want & U_FIRST ? &r[1] : NULL,
                         want & U_INVERSE ? &r[2] : NULL, want & U_COUNTS ? &r[3] : NULL);
  if (!st && !rc && (want & U_VALUES)) {
    back[0] = vals.shape[0];
    for (int d = 1; d < x.ndim; d++) back[d] = moved.shape[d];
    st = asc_tensor_reshape(&vals, x.ndim, back, &shaped);
    if (!st) st = asc_moveaxis(&shaped, 1, &to, &from, &r[0]);
  }
  if (st) {
    for (int k = 0; k < 4; k++) asc_tensor_release(&r[k]);
    asc_py_raise(st);
    rc = -1;
  }
  asc_tensor_release(&x);
  asc_tensor_release(&moved);
  asc_tensor_release(&cont);
  asc_tensor_release(&rows);
  asc_tensor_release(&vals);
  asc_tensor_release(&shaped);
  return rc;
}

/* A tuple (type NULL) or struct sequence of the tensors r[k] for k in order. */
static PyObject *pack(PyTypeObject *type, asc_tensor *r, const int *order, int n) {
  PyObject *res = type ? PyStructSequence_New(type) : PyTuple_New(n);
  if (!res) {
    for (int k = 0; k < 4; k++) asc_tensor_release(&r[k]);
    return NULL;
  }
  for (int i = 0; i < n; i++) {
    PyObject *t = asc_py_tensor_wrap(&r[order[i]]);
    if (!t) {
      for (int k = 0; k < 4; k++) asc_tensor_release(&r[k]);
      Py_DECREF(res);
      return NULL;
    }
    if (type)
      PyStructSequence_SetItem(res, i, t);
    else
      PyTuple_SET_ITEM(res, i, t);
  }
  for (int k = 0; k < 4; k++) asc_tensor_release(&r[k]);
  return res;
}

static PyObject *unique_api(PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames,
                            const char *fname, int want, PyTypeObject *type, const int *order,
                            int n) {
  static const char *const names[] = {"x", NULL};
  PyObject *a[1] = {NULL};
  if (asc_py_parse(fname, args, nargs, kwnames, names, 1, a)) return NULL;
  asc_tensor r[4] = {{0}};
  if (unique_parts(a[0], want, false, r)) return NULL;
  if (!type) return asc_py_tensor_wrap(&r[0]);
  return pack(type, r, order, n);
}

static PyObject *fn_unique_values(PyObject *m, PyObject *const *args, Py_ssize_t nargs,
                                  PyObject *kw) {
  (void)m;
  return unique_api(args, nargs, kw, "unique_values", U_VALUES, NULL, NULL, 1);
}

static PyObject *fn_unique_counts(PyObject *m, PyObject *const *args, Py_ssize_t nargs,
                                  PyObject *kw) {
  (void)m;
  static const int order[] = {0, 3};
  return unique_api(args, nargs, kw, "unique_counts", U_VALUES | U_COUNTS, unique_counts_type,
                    order, 2);
}

static PyObject *fn_unique_inverse(PyObject *m, PyObject *const *args, Py_ssize_t nargs,
                                   PyObject *kw) {
  (void)m;
  static const int order[] = {0, 2};
  return unique_api(args, nargs, kw, "unique_inverse", U_VALUES | U_INVERSE, unique_inverse_type,
                    order, 2);
}

static PyObject *fn_unique_all(PyObject *m, PyObject *const *args, Py_ssize_t nargs, PyObject *kw) {
  (void)m;
  static const int order[] = {0, 1, 2, 3};
  return unique_api(args, nargs, kw, "unique_all", U_VALUES | U_FIRST | U_INVERSE | U_COUNTS,
                    unique_all_type, order, 4);
}

static PyObject *fn_unique(PyObject *m, PyObject *const *args, Py_ssize_t nargs, PyObject *kw) {
  (void)m;
  /* sorted= (NumPy 2.3) is accepted with any value: the result is sorted. */
  static const char *const names[] = {"x",    "return_index", "return_inverse", "return_counts",
                                      "axis", "equal_nan",    "sorted",         NULL};
  PyObject *a[7] = {NULL, NULL, NULL, NULL, NULL, NULL, NULL};
  if (asc_py_parse("unique", args, nargs, kw, names, 1, a)) return NULL;
  int flags[3], want = U_VALUES;
  for (int k = 0; k < 3; k++) {
    flags[k] = a[k + 1] ? PyObject_IsTrue(a[k + 1]) : 0;
    if (flags[k] < 0) return NULL;
  }
  int equal_nan = a[5] ? PyObject_IsTrue(a[5]) : 1;
  if (equal_nan < 0) return NULL;
  int order[4] = {0}, n = 1;
  if (flags[0]) want |= U_FIRST, order[n++] = 1;
  if (flags[1]) want |= U_INVERSE, order[n++] = 2;
  if (flags[2]) want |= U_COUNTS, order[n++] = 3;
  asc_tensor r[4] = {{0}};
  if (a[4] && a[4] != Py_None ? unique_axis_parts(a[0], a[4], want, r)
                              : unique_parts(a[0], want, equal_nan != 0, r))
    return NULL;
  if (n == 1) return asc_py_tensor_wrap(&r[0]);
  return pack(NULL, r, order, n);
}

/* --- scans ------------------------------------------------------------------------- */

/* api: the Array API's form (include_initial; axis None only for 1-d). */
static PyObject *scan_call(bool prod, bool api, PyObject *self, PyObject *const *args,
                           Py_ssize_t nargs, PyObject *kwnames) {
  static const char *const api_names[] = {"x", "axis", "dtype", "include_initial", NULL};
  static const char *const np_names[] = {"x", "axis", "dtype", NULL};
  const char *fname =
      api ? (prod ? "cumulative_prod" : "cumulative_sum") : (prod ? "cumprod" : "cumsum");
  PyObject *a[4] = {self, NULL, NULL, NULL};
  int first = self ? 1 : 0;
  if (asc_py_parse(fname, args, nargs, kwnames, (api ? api_names : np_names) + first, 1 - first,
                   a + first))
    return NULL;
  asc_dtype dtype = ASC_DTYPE_COUNT;
  if (a[2] && a[2] != Py_None && asc_py_dtype(a[2], &dtype)) return NULL;
  int initial = a[3] ? PyObject_IsTrue(a[3]) : 0;
  if (initial < 0) return NULL;
  bool flatten = !a[1] || a[1] == Py_None;
  int axis = 0;
  if (!flatten && asc_py_int(a[1], "axis", &axis)) return NULL;
  asc_tensor x, flat = {0}, r = {0};
  if (asc_py_as_tensor(a[0], ASC_DTYPE_COUNT, &x)) return NULL;
  asc_status st = ASC_OK;
  if (flatten && api && x.ndim > 1)
    st =
        asc_error(ASC_ERR_INVALID_VALUE, "%s: axis must be given for a %d-d tensor", fname, x.ndim);
  int64_t all = -1;
  if (!st && flatten)
    st = asc_tensor_reshape(&x, 1, &all, &flat);
  else if (!st)
    asc_tensor_share(&x, &flat);
  if (!st) st = asc_cumulative(&flat, axis, prod, dtype, initial != 0, &r);
  asc_tensor_release(&x);
  asc_tensor_release(&flat);
  return wrap(st, &r);
}

/* The array API's scans: functions only. */
#define SCAN_ENTRY_POINTS(NAME, PROD, API)                                              \
  static PyObject *fn_##NAME(PyObject *module, PyObject *const *args, Py_ssize_t nargs, \
                             PyObject *kwnames) {                                       \
    (void)module;                                                                       \
    return scan_call(PROD, API, NULL, args, nargs, kwnames);                            \
  }
SCAN_ENTRY_POINTS(cumulative_sum, false, true)
SCAN_ENTRY_POINTS(cumulative_prod, true, true)
/* NumPy's: Tensor methods too. */
ASC_PY_ENTRY_POINTS(cumsum, scan_call, false, false)
ASC_PY_ENTRY_POINTS(cumprod, scan_call, true, false)

#define CFUNC(f) (PyCFunction)(void (*)(void))(f)
#define FASTKW METH_FASTCALL | METH_KEYWORDS
/* The docs are docs/docstrings/sort.py's, which the build renders into asc_docstrings.h. */
static PyMethodDef sort_functions[] = {
    {"sort", CFUNC(fn_sort), FASTKW,
     ASC_DOC("sort($module, x, axis=-1, kind=None, order=None, descending=False, stable=True)",
             ASC_DOCTEXT_sort)},
    {"argsort", CFUNC(fn_argsort), FASTKW,
     ASC_DOC("argsort($module, x, axis=-1, kind=None, order=None, descending=False, stable=True)",
             ASC_DOCTEXT_argsort)},
    {"searchsorted", CFUNC(fn_searchsorted), FASTKW,
     ASC_DOC("searchsorted($module, x1, x2, side='left', sorter=None)", ASC_DOCTEXT_searchsorted)},
    {"unique_values", CFUNC(fn_unique_values), FASTKW,
     ASC_DOC("unique_values($module, x)", ASC_DOCTEXT_unique_values)},
    {"unique_counts", CFUNC(fn_unique_counts), FASTKW,
     ASC_DOC("unique_counts($module, x)", ASC_DOCTEXT_unique_counts)},
    {"unique_inverse", CFUNC(fn_unique_inverse), FASTKW,
     ASC_DOC("unique_inverse($module, x)", ASC_DOCTEXT_unique_inverse)},
    {"unique_all", CFUNC(fn_unique_all), FASTKW,
     ASC_DOC("unique_all($module, x)", ASC_DOCTEXT_unique_all)},
    {"unique", CFUNC(fn_unique), FASTKW,
     ASC_DOC("unique($module, x, return_index=False, return_inverse=False, "
             "return_counts=False, axis=None, equal_nan=True, sorted=True)",
             ASC_DOCTEXT_unique)},
    {"cumulative_sum", CFUNC(fn_cumulative_sum), FASTKW,
     ASC_DOC("cumulative_sum($module, x, axis=None, dtype=None, include_initial=False)",
             ASC_DOCTEXT_cumulative_sum)},
    {"cumulative_prod", CFUNC(fn_cumulative_prod), FASTKW,
     ASC_DOC("cumulative_prod($module, x, axis=None, dtype=None, include_initial=False)",
             ASC_DOCTEXT_cumulative_prod)},
    {"cumsum", CFUNC(fn_cumsum), FASTKW,
     ASC_DOC("cumsum($module, x, axis=None, dtype=None)", ASC_DOCTEXT_cumsum)},
    {"cumprod", CFUNC(fn_cumprod), FASTKW,
     ASC_DOC("cumprod($module, x, axis=None, dtype=None)", ASC_DOCTEXT_cumprod)},
    {NULL, NULL, 0, NULL},
};

static PyMethodDef sort_methods[] = {
    {"sort", CFUNC(method_sort), FASTKW,
     ASC_DOC("sort($self, axis=-1, kind=None, order=None, descending=False, stable=True)",
             ASC_METHDOC_sort)},
    {"argsort", CFUNC(method_argsort), FASTKW,
     ASC_DOC("argsort($self, axis=-1, kind=None, order=None, descending=False, stable=True)",
             ASC_METHDOC_argsort)},
    {"cumsum", CFUNC(method_cumsum), FASTKW,
     ASC_DOC("cumsum($self, axis=None, dtype=None)", ASC_METHDOC_cumsum)},
    {"cumprod", CFUNC(method_cumprod), FASTKW,
     ASC_DOC("cumprod($self, axis=None, dtype=None)", ASC_METHDOC_cumprod)},
    {NULL, NULL, 0, NULL},
};

static PyStructSequence_Field all_fields[] = {
    {"values", NULL}, {"indices", NULL}, {"inverse_indices", NULL}, {"counts", NULL}, {NULL, NULL}};
static PyStructSequence_Field counts_fields[] = {{"values", NULL}, {"counts", NULL}, {NULL, NULL}};
static PyStructSequence_Field inverse_fields[] = {
    {"values", NULL}, {"inverse_indices", NULL}, {NULL, NULL}};
static PyStructSequence_Desc all_desc = {"pyasc._C.UniqueAllResult", "The result of unique_all.",
                                         all_fields, 4};
static PyStructSequence_Desc counts_desc = {"pyasc._C.UniqueCountsResult",
                                            "The result of unique_counts.", counts_fields, 2};
static PyStructSequence_Desc inverse_desc = {"pyasc._C.UniqueInverseResult",
                                             "The result of unique_inverse.", inverse_fields, 2};

int asc_py_sort_init(PyObject *module) {
  unique_all_type = PyStructSequence_NewType(&all_desc);
  unique_counts_type = PyStructSequence_NewType(&counts_desc);
  unique_inverse_type = PyStructSequence_NewType(&inverse_desc);
  if (!unique_all_type || !unique_counts_type || !unique_inverse_type) return -1;
  if (PyModule_AddObjectRef(module, "UniqueAllResult", (PyObject *)unique_all_type) < 0 ||
      PyModule_AddObjectRef(module, "UniqueCountsResult", (PyObject *)unique_counts_type) < 0 ||
      PyModule_AddObjectRef(module, "UniqueInverseResult", (PyObject *)unique_inverse_type) < 0)
    return -1;
  if (asc_py_tensor_add_methods(sort_methods) < 0) return -1;
  return PyModule_AddFunctions(module, sort_functions);
}
