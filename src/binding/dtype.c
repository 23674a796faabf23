/* pyasc.dtype objects (pyasc.float32, ...) and conversions from names,
 * NumPy dtypes and Python types. */
#include "binding.h"

/* after binding.h, whose Python.h must come first */
#include "asc_docstrings.h" /* generated from docs/docstrings (tools/gen_docstrings.py) */

typedef struct {
  PyObject_HEAD asc_dtype value;
} DTypeObject;

static DTypeObject *instances[ASC_DTYPE_COUNT];

/* Buffer-protocol format characters, as NumPy and struct write them. */
static const char *const formats[ASC_DTYPE_COUNT] = {
    [ASC_BOOL] = "?",    [ASC_INT8] = "b",       [ASC_UINT8] = "B",       [ASC_INT16] = "h",
    [ASC_INT32] = "i",   [ASC_INT64] = "q",      [ASC_FLOAT16] = "e",     [ASC_BFLOAT16] = "H",
    [ASC_FLOAT32] = "f", [ASC_FLOAT64] = "d",    [ASC_UINT16] = "H",      [ASC_UINT32] = "I",
    [ASC_UINT64] = "Q",  [ASC_COMPLEX64] = "Zf", [ASC_COMPLEX128] = "Zd",
};

const char *asc_py_dtype_format(asc_dtype dtype) {
  return formats[dtype];
}

int asc_py_dtype_from_format(const char *format, Py_ssize_t itemsize, asc_dtype *out) {
  const char *f = format ? format : "B";
  if (*f == '@' || *f == '=' || *f == '<' || *f == '|') f++;
  if (f[0] && !f[1]) {
    switch (f[0]) {
      case '?':
        *out = ASC_BOOL;
        return 0;
      case 'b':
        *out = ASC_INT8;
        return 0;
      case 'B':
        *out = ASC_UINT8;
        return 0;
      case 'h':
        *out = ASC_INT16;
        return 0;
      case 'i':
        *out = ASC_INT32;
        return 0;
      case 'e':
        *out = ASC_FLOAT16;
        return 0;
      case 'f':
        *out = ASC_FLOAT32;
        return 0;
      case 'd':
        *out = ASC_FLOAT64;
        return 0;
      case 'l':
      case 'q':
        *out = itemsize == 4 ? ASC_INT32 : ASC_INT64;
        return 0;
      case 'H': /* bfloat16 exports as 'H' too: it imports as what NumPy sees */
        *out = ASC_UINT16;
        return 0;
      case 'I':
        *out = ASC_UINT32;
        return 0;
      case 'L':
      case 'Q':
        *out = itemsize == 4 ? ASC_UINT32 : ASC_UINT64;
        return 0;
      default:
        break;
    }
  }
  if (f[0] == 'Z' && (f[1] == 'f' || f[1] == 'd') && !f[2]) {
    *out = f[1] == 'f' ? ASC_COMPLEX64 : ASC_COMPLEX128;
    return 0;
  }
  asc_py_raise_msg(ASC_ERR_TYPE, "unsupported element format '%s' (itemsize %zd)", format,
                   itemsize);
  return -1;
}

PyObject *asc_py_dtype_object(asc_dtype dtype) {
  return Py_NewRef((PyObject *)instances[dtype]);
}

int asc_py_is_dtype(PyObject *obj) {
  return PyObject_TypeCheck(obj, &AscDType_Type);
}

int asc_py_dtype(PyObject *obj, asc_dtype *out) {
  if (PyObject_TypeCheck(obj, &AscDType_Type)) {
    *out = ((DTypeObject *)obj)->value;
    return 0;
  }
  if (obj == (PyObject *)&PyBool_Type) return *out = ASC_BOOL, 0;
  if (obj == (PyObject *)&PyLong_Type) return *out = ASC_INT64, 0;
  if (obj == (PyObject *)&PyFloat_Type) return *out = ASC_FLOAT64, 0;
  if (obj == (PyObject *)&PyComplex_Type) return *out = ASC_COMPLEX128, 0;
  PyObject *name = NULL;
  if (PyUnicode_Check(obj)) {
    name = Py_NewRef(obj);
  } else {
    /* NumPy scalar types (np.float32) by __name__, dtypes by .name. */
    name = PyObject_GetAttrString(obj, PyType_Check(obj) ? "__name__" : "name");
    if (!name) PyErr_Clear();
  }
  const char *text = name && PyUnicode_Check(name) ? PyUnicode_AsUTF8(name) : NULL;
  if (text && !strcmp(text, "bool_")) text = "bool";
  if (text && !strcmp(text, "half")) text = "float16";
  if (text && !strcmp(text, "double")) text = "float64";
  if (text && !strcmp(text, "cdouble")) text = "complex128";
  if (text && !strcmp(text, "csingle")) text = "complex64";
  if (text && !strcmp(text, "float") && PyUnicode_Check(obj)) text = "float32";
  if (text && asc_dtype_from_name(text, out) == ASC_OK) {
    Py_DECREF(name);
    return 0;
  }
  Py_XDECREF(name);
  asc_clear_error();
  PyErr_Clear();
  asc_py_raise_msg(ASC_ERR_TYPE, "cannot interpret %R as a pyasc dtype", obj);
  return -1;
}

/* promote_types(a, b): the dtype a and b convert to together. */
static PyObject *promote_types(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
  (void)self;
  if (nargs != 2)
    return PyErr_Format(PyExc_TypeError, "promote_types() takes 2 positional arguments (%zd given)",
                        nargs);
  asc_dtype a, b;
  if (asc_py_dtype(args[0], &a) || asc_py_dtype(args[1], &b)) return NULL;
  return asc_py_dtype_object(asc_dtype_promote(a, b));
}

static PyMethodDef dtype_functions[] = {
    {"promote_types", (PyCFunction)(void (*)(void))promote_types, METH_FASTCALL,
     ASC_DOC("promote_types($module, type1, type2, /)", ASC_DOCTEXT_promote_types)},
    {NULL, NULL, 0, NULL},
};

static PyObject *dtype_new(PyTypeObject *type, PyObject *args, PyObject *kwargs) {
  (void)type;
  PyObject *spec;
  static char *names[] = {"dtype", NULL};
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O:dtype", names, &spec)) return NULL;
  asc_dtype d;
  if (asc_py_dtype(spec, &d)) return NULL;
  return asc_py_dtype_object(d);
}

static PyObject *dtype_repr(DTypeObject *self) {
  return PyUnicode_FromFormat("pyasc.%s", asc_dtype_name(self->value));
}

static PyObject *dtype_str(DTypeObject *self) {
  return PyUnicode_FromString(asc_dtype_name(self->value));
}

static PyObject *dtype_richcompare(PyObject *a, PyObject *b, int op) {
  if (op != Py_EQ && op != Py_NE) Py_RETURN_NOTIMPLEMENTED;
  asc_dtype other;
  if (asc_py_dtype(b, &other)) {
    PyErr_Clear();
    asc_clear_error();
    Py_RETURN_NOTIMPLEMENTED;
  }
  int same = ((DTypeObject *)a)->value == other;
  return PyBool_FromLong(op == Py_EQ ? same : !same);
}

static Py_hash_t dtype_hash(DTypeObject *self) {
  return (Py_hash_t)self->value + 1000003;
}

static PyObject *dtype_get_name(DTypeObject *self, void *closure) {
  (void)closure;
  return PyUnicode_FromString(asc_dtype_name(self->value));
}

static PyObject *dtype_get_itemsize(DTypeObject *self, void *closure) {
  (void)closure;
  return PyLong_FromSize_t(asc_dtype_size(self->value));
}

static PyObject *dtype_get_is_floating_point(DTypeObject *self, void *closure) {
  (void)closure;
  return PyBool_FromLong(asc_dtype_is_float(self->value));
}

/* The NumPy dtype of the same name, so that numpy.dtype(pyasc.float32)
 * works; bfloat16 has none (AttributeError, and NumPy says it cannot
 * interpret it). */
static PyObject *dtype_get_numpy(DTypeObject *self, void *closure) {
  (void)closure;
  if (self->value == ASC_BFLOAT16)
    return PyErr_Format(PyExc_AttributeError, "bfloat16 has no NumPy dtype");
  PyObject *np = asc_py_numpy();
  return np ? PyObject_CallMethod(np, "dtype", "s",
                                  self->value == ASC_BOOL ? "bool" : asc_dtype_name(self->value))
            : NULL;
}

static PyObject *dtype_sizeof(DTypeObject *self, PyObject *noargs) {
  (void)noargs;
  return PyLong_FromSize_t(asc_dtype_size(self->value));
}

static PyObject *dtype_reduce(DTypeObject *self, PyObject *noargs) {
  (void)noargs;
  return PyUnicode_FromString(asc_dtype_name(self->value));
}

static PyMethodDef dtype_methods[] = {
    {"sizeof", (PyCFunction)dtype_sizeof, METH_NOARGS,
     ASC_DOC("sizeof($self, /)", ASC_DOCTEXT_dtype_sizeof)},
    {"__reduce__", (PyCFunction)dtype_reduce, METH_NOARGS,
     ASC_DOC("__reduce__($self, /)", "Pickles a dtype by name.")},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef dtype_getset[] = {
    {"name", (getter)dtype_get_name, NULL, "The dtype's name, e.g. 'float32'.", NULL},
    {"itemsize", (getter)dtype_get_itemsize, NULL, "Bytes per element.", NULL},
    {"dtype", (getter)dtype_get_numpy, NULL,
     "The NumPy dtype of the same name (none for bfloat16): numpy.dtype(pyasc.float32) works.",
     NULL},
    {"is_floating_point", (getter)dtype_get_is_floating_point, NULL, "True for float dtypes.",
     NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

PyTypeObject AscDType_Type = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "pyasc.dtype",
    .tp_basicsize = sizeof(DTypeObject),
    .tp_repr = (reprfunc)dtype_repr,
    .tp_str = (reprfunc)dtype_str,
    .tp_hash = (hashfunc)dtype_hash,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = ASC_DOC("dtype(dtype)", ASC_DOCTEXT_dtype),
    .tp_richcompare = dtype_richcompare,
    .tp_methods = dtype_methods,
    .tp_getset = dtype_getset,
    .tp_new = dtype_new,
};

int asc_py_dtype_init(PyObject *module) {
  if (PyType_Ready(&AscDType_Type) < 0) return -1;
  if (PyModule_AddObjectRef(module, "dtype", (PyObject *)&AscDType_Type) < 0) return -1;
  if (PyModule_AddFunctions(module, dtype_functions) < 0) return -1;
  for (int i = 0; i < ASC_DTYPE_COUNT; i++) {
    DTypeObject *d = PyObject_New(DTypeObject, &AscDType_Type);
    if (!d) return -1;
    d->value = (asc_dtype)i;
    instances[i] = d;
    const char *name = i == ASC_BOOL ? "bool_" : asc_dtype_name((asc_dtype)i);
    if (PyModule_AddObjectRef(module, name, (PyObject *)d) < 0) return -1;
  }
  return 0;
}
