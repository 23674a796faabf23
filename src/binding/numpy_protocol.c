/* NumPy's dispatch protocols on pyasc.Tensor: __array_ufunc__ (NEP 13) and
 * __array_function__ (NEP 18). The decisions live in Python
 * (python/pyasc/_numpy_protocol.py), where ufunc and function names map to
 * pyasc functions; these methods only forward to it. */
#include "binding.h"

enum { ARRAY_UFUNC, ARRAY_FUNCTION, HANDLERS };
static const char *const handler_names[HANDLERS] = {"array_ufunc", "array_function"};
static PyObject *handlers[HANDLERS];

/* Imported on first use: pyasc._numpy_protocol imports pyasc, which is only
 * complete after this extension has loaded. */
static PyObject *handler(int which) {
  if (handlers[which]) return handlers[which];
  PyObject *module = PyImport_ImportModule("pyasc._numpy_protocol");
  if (!module) return NULL;
  handlers[which] = PyObject_GetAttrString(module, handler_names[which]);
  Py_DECREF(module);
  return handlers[which];
}

/* handler(self, *args, **kwargs) */
static PyObject *forward(int which, PyObject *self, PyObject *const *args, Py_ssize_t nargs,
                         PyObject *kwnames) {
  PyObject *fn = handler(which);
  if (!fn) return NULL;
  Py_ssize_t total = 1 + nargs + (kwnames ? PyTuple_GET_SIZE(kwnames) : 0);
  PyObject *small[8], **stack = small;
  if (total > (Py_ssize_t)(sizeof small / sizeof small[0])) {
    stack = PyMem_Malloc((size_t)total * sizeof *stack);
    if (!stack) return PyErr_NoMemory();
  }
  stack[0] = self;
  memcpy(stack + 1, args, (size_t)(total - 1) * sizeof *stack);
  PyObject *result = PyObject_Vectorcall(fn, stack, (size_t)(1 + nargs), kwnames);
  if (stack != small) PyMem_Free(stack);
  return result;
}

static PyObject *tensor_array_ufunc(PyObject *self, PyObject *const *args, Py_ssize_t nargs,
                                    PyObject *kwnames) {
  return forward(ARRAY_UFUNC, self, args, nargs, kwnames);
}

static PyObject *tensor_array_function(PyObject *self, PyObject *const *args, Py_ssize_t nargs,
                                       PyObject *kwnames) {
  return forward(ARRAY_FUNCTION, self, args, nargs, kwnames);
}

static PyMethodDef protocol_methods[] = {
    {"__array_ufunc__", (PyCFunction)(void (*)(void))tensor_array_ufunc,
     METH_FASTCALL | METH_KEYWORDS,
     ASC_DOC(
         "__array_ufunc__($self, ufunc, method, /, *inputs, **kwargs)",
         "NumPy ufuncs on tensors run the pyasc function of the same name (np.add -> pyasc.add) "
         "and return tensors; ufuncs pyasc lacks raise TypeError.")},
    {"__array_function__", (PyCFunction)(void (*)(void))tensor_array_function,
     METH_FASTCALL | METH_KEYWORDS,
     ASC_DOC(
         "__array_function__($self, func, types, args, kwargs, /)",
         "NumPy functions on tensors run the pyasc function of the same name (np.concatenate -> "
         "pyasc.concatenate) and return tensors; functions pyasc lacks raise TypeError.")},
    {NULL, NULL, 0, NULL},
};

int asc_py_numpy_protocol_init(PyObject *module) {
  (void)module;
  if (asc_py_tensor_add_methods(protocol_methods)) return -1;
  /* Above ndarray's 0, so that NumPy's legacy mixed-type paths defer to us. */
  PyObject *priority = PyFloat_FromDouble(100.0);
  int rc =
      priority ? PyDict_SetItemString(AscTensor_Type.tp_dict, "__array_priority__", priority) : -1;
  Py_XDECREF(priority);
  PyType_Modified(&AscTensor_Type);
  return rc;
}
