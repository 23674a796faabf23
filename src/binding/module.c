/* pyasc._C: the CPython extension over libasc. */
#include "binding.h"

static int add_functions(PyObject *module, PyMethodDef *defs) {
  return PyModule_AddFunctions(module, defs);
}

static struct PyModuleDef module_def = {
    PyModuleDef_HEAD_INIT,
    .m_name = "pyasc._C",
    .m_doc = "The C core of pyasc (libasc) for Python. Use it through the pyasc package.",
    .m_size = -1,
};

PyMODINIT_FUNC PyInit__C(void) {
  PyObject *m = PyModule_Create(&module_def);
  if (!m) return NULL;
  if (asc_py_errors_init(m) || asc_py_device_init(m) || asc_py_streams_init(m) ||
      asc_py_memory_init(m) || asc_py_dtype_init(m) || asc_py_tensor_init(m) ||
      add_functions(m, asc_py_tensor_functions) || add_functions(m, asc_py_binary_functions) ||
      add_functions(m, asc_py_device_functions) || add_functions(m, asc_py_stream_functions) ||
      add_functions(m, asc_py_memory_functions) || add_functions(m, asc_py_deferred_functions) ||
      asc_py_unary_init(m) || asc_py_dlpack_init(m) || asc_py_numpy_protocol_init(m) ||
      asc_py_reduce_init(m) || asc_py_sort_init(m) || asc_py_manip_init(m) || asc_py_ir_init(m) ||
      asc_py_kernel_init(m) || asc_py_create_init(m) || asc_py_index_init(m) ||
      asc_py_linalg_init(m) || asc_py_random_init(m) || asc_py_tiling_init(m) ||
      asc_py_op_dispatch_init(m) || asc_py_op_program_init(m) ||
      add_functions(m, asc_py_api_table_functions)) {
    Py_DECREF(m);
    return NULL;
  }
  asc_status st = asc_init();
  if (st) {
    /* Keep the module importable so the message reaches the user as a
     * pyasc error on first use; record it for `python -m pyasc info`. */
    PyObject *msg = PyUnicode_FromString(asc_last_error());
    if (!msg || PyModule_AddObject(m, "init_error", msg) < 0) {
      Py_XDECREF(msg);
      Py_DECREF(m);
      return NULL;
    }
  } else if (PyModule_AddObjectRef(m, "init_error", Py_None) < 0) {
    Py_DECREF(m);
    return NULL;
  }
  return m;
}
