/* Matrix products from Python: the @ and @= operators, pyasc.matmul and
 * Tensor.matmul. */
#include "binding.h"

/* after binding.h, whose Python.h must come first */
#include "asc_docstrings.h" /* generated from docs/docstrings (tools/gen_docstrings.py) */

#include "asc/ops_linalg.h"

/* a @ b into a new tensor, or into out_obj (a pyasc.Tensor) when given.
 * Py_NotImplemented when an operand is not array-like. */
static PyObject *matmul(PyObject *a, PyObject *b, PyObject *out_obj) {
  const asc_tensor *ta = asc_py_tensor_of(a), *tb = asc_py_tensor_of(b);
  asc_tensor x, y;
  int rc = asc_py_operand(a, tb, &x);
  if (rc) return rc > 0 ? Py_NewRef(Py_NotImplemented) : NULL;
  rc = asc_py_operand(b, ta ? ta : &x, &y);
  if (rc) {
    asc_tensor_release(&x);
    return rc > 0 ? Py_NewRef(Py_NotImplemented) : NULL;
  }
  asc_tensor result = {0};
  if (out_obj) asc_tensor_share(&((TensorObject *)out_obj)->t, &result);
  asc_status st = asc_matmul(&x, &y, &result);
  asc_tensor_release(&x);
  asc_tensor_release(&y);
  return asc_py_result(st, &result, out_obj);
}

PyObject *asc_py_matmul_operator(PyObject *a, PyObject *b) {
  return matmul(a, b, NULL);
}

PyObject *asc_py_matmul_inplace(PyObject *a, PyObject *b) {
  return matmul(a, b, a);
}

static PyObject *checked_matmul(PyObject *a, PyObject *b, PyObject *out) {
  if (asc_py_parse_out("matmul", &out)) return NULL;
  PyObject *result = matmul(a, b, out);
  if (result == Py_NotImplemented) {
    Py_DECREF(result);
    return PyErr_Format(PyExc_TypeError, "matmul: unsupported operand types %.100s and %.100s",
                        Py_TYPE(a)->tp_name, Py_TYPE(b)->tp_name);
  }
  return result;
}

static PyObject *fn_matmul(PyObject *self, PyObject *const *args, Py_ssize_t nargs,
                           PyObject *kwnames) {
  (void)self;
  static const char *const names[] = {"x1", "x2", "out", NULL};
  PyObject *a[3] = {NULL, NULL, Py_None};
  if (asc_py_parse("matmul", args, nargs, kwnames, names, 2, a)) return NULL;
  return checked_matmul(a[0], a[1], a[2]);
}

static PyObject *tensor_matmul(PyObject *self, PyObject *const *args, Py_ssize_t nargs,
                               PyObject *kwnames) {
  static const char *const names[] = {"other", "out", NULL};
  PyObject *a[2] = {NULL, Py_None};
  if (asc_py_parse("matmul", args, nargs, kwnames, names, 1, a)) return NULL;
  return checked_matmul(self, a[0], a[1]);
}

/* The docs are docs/docstrings/index.py's, which the build renders into asc_docstrings.h. */
static PyMethodDef functions[] = {
    {"matmul", (PyCFunction)(void (*)(void))fn_matmul, METH_FASTCALL | METH_KEYWORDS,
     ASC_DOC("matmul($module, x1, x2, out=None)", ASC_DOCTEXT_matmul)},
    {NULL, NULL, 0, NULL},
};

static PyMethodDef methods[] = {
    {"matmul", (PyCFunction)(void (*)(void))tensor_matmul, METH_FASTCALL | METH_KEYWORDS,
     ASC_DOC("matmul($self, other, out=None)", ASC_METHDOC_matmul)},
    {NULL, NULL, 0, NULL},
};

int asc_py_linalg_init(PyObject *module) {
  if (PyModule_AddFunctions(module, functions) < 0) return -1;
  return asc_py_tensor_add_methods(methods);
}
