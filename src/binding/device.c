/* Devices from Python: count, properties, selection, synchronisation. */
#include "binding.h"

/* after binding.h, whose Python.h must come first */
#include "asc_docstrings.h" /* generated from docs/docstrings (tools/gen_docstrings.py) */

static PyTypeObject *props_type;

static PyStructSequence_Field props_fields[] = {
    {"name", "device name"},
    {"backend", "HAL backend serving the device"},
    {"ai_core_count", "vector (AIV) cores that run logical blocks"},
    {"cube_core_count", "cube (AIC) cores"},
    {"ub_size", "Unified Buffer bytes per core"},
    {"l1_size", "L1 buffer bytes per core"},
    {"l0a_size", "L0A buffer bytes"},
    {"l0b_size", "L0B buffer bytes"},
    {"l0c_size", "L0C buffer bytes"},
    {"data_block_size", "bytes per data block, the unit of GM<->UB copies"},
    {"global_mem_size", "global memory bytes"},
    {"worker_threads", "host threads executing blocks (cpu device)"},
    {"host_visible", "device memory is host memory (zero-copy with NumPy)"},
    {NULL, NULL},
};

static PyStructSequence_Desc props_desc = {"pyasc.DeviceProperties", ASC_DOCTEXT_DeviceProperties,
                                           props_fields, 13};

static PyObject *props_to_python(const asc_device_props *p) {
  PyObject *t = PyStructSequence_New(props_type);
  if (!t) return NULL;
  PyObject *items[] = {
      PyUnicode_FromString(p->name),         PyUnicode_FromString(p->backend),
      PyLong_FromLong(p->ai_core_count),     PyLong_FromLong(p->cube_core_count),
      PyLong_FromSize_t(p->ub_size),         PyLong_FromSize_t(p->l1_size),
      PyLong_FromSize_t(p->l0a_size),        PyLong_FromSize_t(p->l0b_size),
      PyLong_FromSize_t(p->l0c_size),        PyLong_FromSize_t(p->data_block_size),
      PyLong_FromSize_t(p->global_mem_size), PyLong_FromLong(p->worker_threads),
      PyBool_FromLong(p->host_visible),
  };
  for (int i = 0; i < 13; i++) {
    if (!items[i]) {
      for (int j = i + 1; j < 13; j++) Py_XDECREF(items[j]);
      Py_DECREF(t);
      return NULL;
    }
    PyStructSequence_SetItem(t, i, items[i]);
  }
  return t;
}

static PyObject *device_count(PyObject *self, PyObject *noargs) {
  (void)self, (void)noargs;
  int n;
  asc_status st = asc_device_count(&n);
  return st ? asc_py_raise(st) : PyLong_FromLong(n);
}

static PyObject *get_device_properties(PyObject *self, PyObject *const *args, Py_ssize_t nargs,
                                       PyObject *kwnames) {
  (void)self;
  static const char *const names[] = {"device", NULL};
  PyObject *a[1] = {NULL};
  int device;
  if (asc_py_parse("get_device_properties", args, nargs, kwnames, names, 0, a) ||
      asc_py_device(a[0], &device))
    return NULL;
  asc_device_props p;
  asc_status st = asc_device_get_props(device, &p);
  return st ? asc_py_raise(st) : props_to_python(&p);
}

static PyObject *set_device(PyObject *self, PyObject *arg) {
  (void)self;
  int device;
  if (asc_py_device(arg, &device)) return NULL;
  asc_status st = asc_device_set(device);
  return st ? asc_py_raise(st) : Py_NewRef(Py_None);
}

static PyObject *current_device(PyObject *self, PyObject *noargs) {
  (void)self, (void)noargs;
  return PyLong_FromLong(asc_device_current());
}

static PyObject *synchronize(PyObject *self, PyObject *const *args, Py_ssize_t nargs,
                             PyObject *kwnames) {
  (void)self;
  static const char *const names[] = {"device", NULL};
  PyObject *a[1] = {NULL};
  int device;
  if (asc_py_parse("synchronize", args, nargs, kwnames, names, 0, a) ||
      asc_py_device(a[0], &device))
    return NULL;
  asc_status st;
  if (asc_py_wait(asc_py_wait_device, (uint64_t)device, &st)) return NULL;
  return st ? asc_py_raise(st) : Py_NewRef(Py_None);
}

/* Reads one keyword into an int or size_t property field. */
static int set_field(PyObject *value, const char *key, asc_device_props *p) {
  struct {
    const char *name;
    int *as_int;
    size_t *as_size;
  } fields[] = {
      {"ai_core_count", &p->ai_core_count, NULL},
      {"cube_core_count", &p->cube_core_count, NULL},
      {"worker_threads", &p->worker_threads, NULL},
      {"ub_size", NULL, &p->ub_size},
      {"l1_size", NULL, &p->l1_size},
      {"l0a_size", NULL, &p->l0a_size},
      {"l0b_size", NULL, &p->l0b_size},
      {"l0c_size", NULL, &p->l0c_size},
      {"global_mem_size", NULL, &p->global_mem_size},
  };
  for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++) {
    if (strcmp(key, fields[i].name)) continue;
    if (!PyLong_Check(value) || PyBool_Check(value)) {
      PyErr_Format(PyExc_TypeError, "configure_device: %s must be an int", key);
      return -1;
    }
    int overflow;
    long long v = PyLong_AsLongLongAndOverflow(value, &overflow);
    if (v == -1 && PyErr_Occurred()) return -1;
    if (overflow || v < 0 || (fields[i].as_int && v > INT_MAX)) {
      asc_py_raise_msg(ASC_ERR_INVALID_VALUE, "configure_device: %s=%S is out of range", key,
                       value);
      return -1;
    }
    if (fields[i].as_int)
      *fields[i].as_int = (int)v;
    else
      *fields[i].as_size = (size_t)v;
    return 0;
  }
  PyErr_Format(PyExc_TypeError, "configure_device() got an unexpected keyword argument '%s'", key);
  return -1;
}

static PyObject *configure_device(PyObject *self, PyObject *args, PyObject *kwargs) {
  (void)self;
  PyObject *device_obj = Py_None;
  if (!PyArg_ParseTuple(args, "|O:configure_device", &device_obj)) return NULL;
  /* `device` may also come as a keyword; the other keywords are properties. */
  PyObject *device_kw = kwargs ? PyDict_GetItemString(kwargs, "device") : NULL;
  if (device_kw) {
    if (PyTuple_GET_SIZE(args) > 0) {
      PyErr_SetString(PyExc_TypeError,
                      "configure_device() got multiple values for argument 'device'");
      return NULL;
    }
    device_obj = device_kw;
  }
  int device;
  if (asc_py_device(device_obj, &device)) return NULL;
  asc_device_props p;
  asc_status st = asc_device_get_props(device, &p);
  if (st) return asc_py_raise(st);
  PyObject *key, *value;
  Py_ssize_t pos = 0;
  while (kwargs && PyDict_Next(kwargs, &pos, &key, &value)) {
    const char *name = PyUnicode_AsUTF8(key);
    if (!name) return NULL;
    if (!strcmp(name, "device")) continue;
    if (set_field(value, name, &p)) return NULL;
  }
  st = asc_device_set_props(device, &p);
  return st ? asc_py_raise(st) : props_to_python(&p);
}

static PyObject *version(PyObject *self, PyObject *noargs) {
  (void)self, (void)noargs;
  return PyUnicode_FromString(asc_version());
}

PyMethodDef asc_py_device_functions[] = {
    {"device_count", device_count, METH_NOARGS,
     ASC_DOC("device_count($module, /)", ASC_DOCTEXT_device_count)},
    {"get_device_properties", (PyCFunction)(void (*)(void))get_device_properties,
     METH_FASTCALL | METH_KEYWORDS,
     ASC_DOC("get_device_properties($module, device=None)", ASC_DOCTEXT_get_device_properties)},
    {"set_device", set_device, METH_O,
     ASC_DOC("set_device($module, device, /)", ASC_DOCTEXT_set_device)},
    {"current_device", current_device, METH_NOARGS,
     ASC_DOC("current_device($module, /)", ASC_DOCTEXT_current_device)},
    {"synchronize", (PyCFunction)(void (*)(void))synchronize, METH_FASTCALL | METH_KEYWORDS,
     ASC_DOC("synchronize($module, device=None)", ASC_DOCTEXT_synchronize)},
    {"configure_device", (PyCFunction)(void (*)(void))configure_device,
     METH_VARARGS | METH_KEYWORDS,
     ASC_DOC("configure_device($module, device=None, /, **properties)",
             ASC_DOCTEXT_configure_device)},
    {"libasc_version", version, METH_NOARGS,
     ASC_DOC("libasc_version($module, /)", "Version of libasc (a str).")},
    {NULL, NULL, 0, NULL},
};

int asc_py_device_init(PyObject *module) {
  props_type = PyStructSequence_NewType(&props_desc);
  if (!props_type) return -1;
  return PyModule_AddObjectRef(module, "DeviceProperties", (PyObject *)props_type);
}
