/* The compiler's tables as Python sees them: _C.api_table() (the rows of
 * src/compiler/api_table.def) and _C.adv_math_functions() (adv_math.def),
 * for the coverage report and for checking Python's lists against them. */
#include "binding.h"

/* binding.h first: Python.h must precede system headers. */
#include "asc/ir.h"

/* The API table's rows as a list of dicts (src/compiler/api_table.def). */
static PyObject *api_table(PyObject *self, PyObject *unused) {
  (void)self;
  (void)unused;
  int n = asc_ir_api_count();
  PyObject *list = PyList_New(0);
  for (int i = 0; list && i < n; i++) {
    const asc_ir_api_row *r = asc_ir_api_at(i);
    PyObject *row = Py_BuildValue("{s:z,s:s,s:s,s:s,s:z,s:z,s:z,s:i}", "op", r->op, "api", r->api,
                                  "operands", r->operands, "pipe", r->pipe, "c_rt", r->c_rt,
                                  "ascendc", r->ascendc, "how", r->how, "niattrs", r->niattrs);
    if (!row || PyList_Append(list, row) < 0) Py_CLEAR(list);
    Py_XDECREF(row);
  }
  return list;
}

/* The adv maths functions' names in id order (src/compiler/adv_math.def),
 * for the Python lists of them to be checked against. */
static PyObject *adv_math_functions(PyObject *self, PyObject *unused) {
  (void)self;
  (void)unused;
  int n = asc_ir_adv_math_count();
  PyObject *list = PyList_New(n);
  for (int i = 0; list && i < n; i++) {
    PyObject *name = PyUnicode_FromString(asc_ir_adv_math_name(i));
    if (!name)
      Py_CLEAR(list);
    else
      PyList_SET_ITEM(list, i, name);
  }
  return list;
}

PyMethodDef asc_py_api_table_functions[] = {
    {"api_table", api_table, METH_NOARGS,
     ASC_DOC("api_table($module, /)",
             "The rows of the API table, a list of dicts (op, api, operands, pipe, c_rt, "
             "ascendc, how, niattrs).")},
    {"adv_math_functions", adv_math_functions, METH_NOARGS,
     ASC_DOC("adv_math_functions($module, /)",
             "The adv library's element-wise maths functions, a list of names in the order "
             "of the ids their kernels pass to the runtime.")},
    {NULL, NULL, 0, NULL},
};
