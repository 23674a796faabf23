/* Maps libasc statuses to the documented pyasc exception hierarchy. */
#include "binding.h"

typedef struct error_kind {
  const char *name;
  asc_status status;
  const char *parent; /* pyasc parent besides Error, or NULL */
  PyObject **builtin; /* the builtin it also derives from, or NULL */
  const char *doc;
  PyObject *type;
} error_kind;

static PyObject *error_base;

static error_kind kinds[] = {
    {"InvalidValueError", ASC_ERR_INVALID_VALUE, NULL, &PyExc_ValueError,
     "An argument is out of range or malformed.", NULL},
    {"InvalidHandleError", ASC_ERR_INVALID_HANDLE, NULL, &PyExc_ValueError,
     "A stream, event or buffer was destroyed, freed, or never existed.", NULL},
    {"OutOfMemoryError", ASC_ERR_OUT_OF_MEMORY, NULL, &PyExc_MemoryError,
     "Device memory is exhausted or the memory limit was reached.", NULL},
    {"DeviceError", ASC_ERR_DEVICE, NULL, &PyExc_RuntimeError,
     "The device, or work queued on it, failed.", NULL},
    {"KernelError", ASC_ERR_KERNEL, "DeviceError", NULL,
     "A kernel reported an error while running on the device.", NULL},
    {"DTypeError", ASC_ERR_TYPE, NULL, &PyExc_TypeError, "An operand has the wrong type or dtype.",
     NULL},
    {"IndexOutOfRangeError", ASC_ERR_INDEX, NULL, &PyExc_IndexError, "An index is out of range.",
     NULL},
    {"UnsupportedError", ASC_ERR_UNSUPPORTED, NULL, &PyExc_RuntimeError,
     "A valid request that this device or build cannot carry out.", NULL},
    {"CompileError", ASC_ERR_COMPILE, NULL, NULL, "Kernel compilation failed.", NULL},
    {"InternalError", ASC_ERR_INTERNAL, NULL, &PyExc_RuntimeError,
     "A pyasc invariant broke: please report it as a bug.", NULL},
};

#define NKINDS ((int)(sizeof kinds / sizeof kinds[0]))

static PyObject *kind_type(const char *name) {
  for (int i = 0; i < NKINDS; i++)
    if (!strcmp(kinds[i].name, name)) return kinds[i].type;
  return NULL;
}

/* A new exception class. Its tp_doc starts with the text signature, which
 * inspect.signature reads; __doc__ keeps the plain text. */
static PyObject *new_error(const char *qualified, const char *doc, PyObject *bases) {
  const char *name = strrchr(qualified, '.') + 1;
  PyObject *sig_doc = PyUnicode_FromFormat("%s(*args)\n--\n\n%s", name, doc);
  const char *text = sig_doc ? PyUnicode_AsUTF8(sig_doc) : NULL;
  PyObject *type = text ? PyErr_NewExceptionWithDoc(qualified, text, bases, NULL) : NULL;
  Py_XDECREF(sig_doc);
  PyObject *plain = type ? PyUnicode_FromString(doc) : NULL;
  if (!plain || PyObject_SetAttrString(type, "__doc__", plain) < 0) Py_CLEAR(type);
  Py_XDECREF(plain);
  return type;
}

int asc_py_errors_init(PyObject *module) {
  error_base =
      new_error("pyasc.Error",
                "Base class of every error pyasc raises. `status` names the libasc status.", NULL);
  if (!error_base || PyModule_AddObjectRef(module, "Error", error_base) < 0) return -1;
  for (int i = 0; i < NKINDS; i++) {
    error_kind *k = &kinds[i];
    PyObject *first = k->parent ? kind_type(k->parent) : error_base;
    PyObject *bases = k->builtin ? PyTuple_Pack(2, first, *k->builtin) : PyTuple_Pack(1, first);
    if (!bases) return -1;
    char qualified[64];
    snprintf(qualified, sizeof qualified, "pyasc.%s", k->name);
    k->type = new_error(qualified, k->doc, bases);
    Py_DECREF(bases);
    if (!k->type || PyModule_AddObjectRef(module, k->name, k->type) < 0) return -1;
  }
  return 0;
}

/* Steals message. */
static PyObject *raise_with(asc_status status, PyObject *message) {
  if (!message) return NULL;
  PyObject *type = error_base;
  for (int i = 0; i < NKINDS; i++)
    if (kinds[i].status == status) type = kinds[i].type;
  PyObject *exc = PyObject_CallOneArg(type, message);
  Py_DECREF(message);
  if (!exc) return NULL;
  PyObject *name = PyUnicode_FromString(asc_status_name(status));
  if (name && PyObject_SetAttrString(exc, "status", name) == 0) PyErr_SetObject(type, exc);
  Py_XDECREF(name);
  Py_DECREF(exc);
  return NULL;
}

PyObject *asc_py_raise(asc_status status) {
  const char *message = asc_last_error();
  if (!message[0]) message = asc_status_name(status);
  return raise_with(status, PyUnicode_DecodeUTF8(message, (Py_ssize_t)strlen(message), "replace"));
}

PyObject *asc_py_raise_msg(asc_status status, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  PyObject *message = PyUnicode_FromFormatV(fmt, ap);
  va_end(ap);
  return raise_with(status, message);
}

PyObject *asc_py_uninitialised(const char *type) {
  return asc_py_raise_msg(ASC_ERR_INTERNAL, "this %s is not initialised (call __init__)", type);
}

int asc_py_parse(const char *fname, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames,
                 const char *const *names, int required, PyObject **out) {
  int count = 0;
  while (names[count]) count++;
  if (nargs > count) {
    PyErr_Format(PyExc_TypeError, "%s() takes at most %d arguments (%zd given)", fname, count,
                 nargs);
    return -1;
  }
  for (Py_ssize_t i = 0; i < nargs; i++) out[i] = args[i];
  Py_ssize_t nkw = kwnames ? PyTuple_GET_SIZE(kwnames) : 0;
  for (Py_ssize_t k = 0; k < nkw; k++) {
    const char *key = PyUnicode_AsUTF8(PyTuple_GET_ITEM(kwnames, k));
    if (!key) return -1;
    int slot = -1;
    for (int i = 0; i < count && slot < 0; i++)
      if (!strcmp(key, names[i])) slot = i;
    if (slot < 0) {
      PyErr_Format(PyExc_TypeError, "%s() got an unexpected keyword argument '%s'", fname, key);
      return -1;
    }
    if (slot < nargs) {
      PyErr_Format(PyExc_TypeError, "%s() got multiple values for argument '%s'", fname, key);
      return -1;
    }
    out[slot] = args[nargs + k];
  }
  for (int i = 0; i < required; i++)
    if (!out[i]) {
      PyErr_Format(PyExc_TypeError, "%s() missing required argument '%s'", fname, names[i]);
      return -1;
    }
  return 0;
}

int asc_py_device(PyObject *obj, int *device) {
  if (!obj || obj == Py_None) {
    *device = asc_device_current();
    return 0;
  }
  if (!PyLong_Check(obj) || PyBool_Check(obj)) {
    PyErr_Format(PyExc_TypeError, "device must be an int or None, not %.100s",
                 Py_TYPE(obj)->tp_name);
    return -1;
  }
  int overflow;
  long v = PyLong_AsLongAndOverflow(obj, &overflow);
  if (v == -1 && PyErr_Occurred()) return -1;
  int count = 0;
  asc_status st = asc_device_count(&count);
  if (st) {
    asc_py_raise(st);
    return -1;
  }
  if (overflow || v < 0 || v >= count) {
    asc_py_raise_msg(ASC_ERR_INVALID_VALUE, "device %S does not exist (%d device%s)", obj, count,
                     count == 1 ? "" : "s");
    return -1;
  }
  *device = (int)v;
  return 0;
}
