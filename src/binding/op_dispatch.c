/* pyasc._C.OpDispatch: the per-call path of a @pyasc.op operator.
 *
 * pyasc.op.Op derives from this type, so calling an operator lands here
 * without running Python: the arguments become a signature key (each
 * tensor's dtype and shape, the type of each Python-number input, the type
 * and value of each attribute), the key finds the entry of a compiled
 * signature, and the entry runs with the call's arguments as a flat
 * positional list (positional arguments, then keyword values in the order
 * given). Anything this file does not know how to key (a call layout seen
 * for the first time, a framework tensor, an unhashable attribute) and
 * every cache miss goes to the Python method _dispatch_miss(key, args,
 * kwargs), which traces, checks, and fills the two tables below.
 *
 * Tables, both plain dicts the Python side fills (docs/op-compiler.md):
 *   _dispatch_layouts: nargs (no keywords) or (nargs, kwnames) -> bytes,
 *     one role per given argument: 'i' input, 'a' attribute, 'x' not
 *     cacheable (a bad keyword: the slow path raises the real error);
 *   _dispatch_entries: key -> callable(*flat_arguments).
 * Both are only read and written with the GIL held. */
#include "binding.h"

#include <string.h>

/* Calls with more arguments than this take the Python path (the key is
 * built in a stack buffer of this many argument records). */
#define OPD_MAX_ARGS 32
/* One argument's record: tag, dtype, ndim, then the shape. */
#define OPD_RECORD_MAX (3 + 8 * ASC_MAX_DIMS)

typedef struct {
  PyObject_HEAD PyObject *layouts; /* dict, see above */
  PyObject *entries;               /* dict, see above */
} OpDispatchObject;

static PyObject *opd_new(PyTypeObject *type, PyObject *args, PyObject *kwargs) {
  (void)args;
  (void)kwargs;
  OpDispatchObject *self = (OpDispatchObject *)type->tp_alloc(type, 0);
  if (!self) return NULL;
  self->layouts = PyDict_New();
  self->entries = PyDict_New();
  if (!self->layouts || !self->entries) {
    Py_DECREF(self);
    return NULL;
  }
  return (PyObject *)self;
}

static int opd_traverse(OpDispatchObject *self, visitproc visit, void *arg) {
  Py_VISIT(self->layouts);
  Py_VISIT(self->entries);
  return 0;
}

static int opd_clear(OpDispatchObject *self) {
  Py_CLEAR(self->layouts);
  Py_CLEAR(self->entries);
  return 0;
}

/* A heap subclass's dealloc (pyasc.op.Op) drops the type's reference after
 * this: the base is static. */
static void opd_dealloc(OpDispatchObject *self) {
  PyObject_GC_UnTrack(self);
  opd_clear(self);
  Py_TYPE(self)->tp_free((PyObject *)self);
}

/* The roles of a call's arguments (borrowed), NULL without an error when
 * this layout was not registered, NULL with one on failure. */
static PyObject *opd_roles(OpDispatchObject *self, Py_ssize_t nargs, PyObject *kwnames) {
  PyObject *lkey = kwnames ? Py_BuildValue("(nO)", nargs, kwnames) : PyLong_FromSsize_t(nargs);
  if (!lkey) return NULL;
  PyObject *roles = PyDict_GetItemWithError(self->layouts, lkey);
  Py_DECREF(lkey);
  return roles;
}

/* Appends one record for a tensor-or-scalar input to buf; 0 when the value
 * is not one of those kinds (the caller asks Python). */
static size_t opd_record(PyObject *value, unsigned char *buf) {
  PyTypeObject *type = Py_TYPE(value);
  if (type == &AscTensor_Type) {
    const asc_tensor *t = &((TensorObject *)value)->t;
    buf[0] = 'T';
    buf[1] = (unsigned char)t->dtype;
    buf[2] = (unsigned char)t->ndim;
    memcpy(buf + 3, t->shape, sizeof(int64_t) * (size_t)t->ndim);
    return 3 + sizeof(int64_t) * (size_t)t->ndim;
  }
  buf[0] = type == &PyFloat_Type  ? 'f'
           : type == &PyLong_Type ? 'i'
           : type == &PyBool_Type ? 'b'
           : value == Py_None     ? 'n'
                                  : 0;
  return buf[0] ? 1 : 0;
}

/* The key of a call (new reference), Py_None when it cannot be cached, NULL
 * on error. args holds nargs positional arguments then the values of
 * kwnames (a tuple or NULL). */
static PyObject *opd_key(OpDispatchObject *self, PyObject *const *args, Py_ssize_t nargs,
                         PyObject *kwnames) {
  Py_ssize_t nkw = kwnames ? PyTuple_GET_SIZE(kwnames) : 0;
  if (nargs > OPD_MAX_ARGS || nkw > OPD_MAX_ARGS - nargs) Py_RETURN_NONE;
  PyObject *roles = opd_roles(self, nargs, kwnames);
  if (!roles) {
    if (PyErr_Occurred()) return NULL;
    Py_RETURN_NONE;
  }
  if (!PyBytes_Check(roles) || PyBytes_GET_SIZE(roles) != nargs + nkw) {
    PyErr_SetString(PyExc_SystemError, "OpDispatch: a layout's roles do not fit its call");
    return NULL;
  }
  const char *role = PyBytes_AS_STRING(roles);
  unsigned char buf[1 + OPD_MAX_ARGS * OPD_RECORD_MAX];
  /* The positional count and kwnames fix the layout, so the roles of the
   * records and of the extra items below. */
  buf[0] = (unsigned char)nargs;
  size_t used = 1;
  PyObject *extra = NULL; /* attribute (type, value) pairs, other inputs' descriptions */
  Py_ssize_t nextra = 0;
  for (Py_ssize_t i = 0; i < nargs + nkw; i++) {
    PyObject *value = args[i];
    if (role[i] == 'x') goto uncacheable;
    if (role[i] == 'i') {
      size_t n = opd_record(value, buf + used);
      if (n) {
        used += n;
        continue;
      }
      buf[used++] = 'o'; /* described by Python: an ndarray, say */
    }
    if (!extra && !(extra = PyList_New(0))) return NULL;
    if (role[i] == 'a') {
      if (PyList_Append(extra, (PyObject *)Py_TYPE(value)) < 0 || PyList_Append(extra, value) < 0)
        goto fail;
      nextra += 2;
      continue;
    }
    PyObject *part = PyObject_CallMethod((PyObject *)self, "_dispatch_describe", "(O)", value);
    if (!part) goto fail;
    if (part == Py_None) {
      Py_DECREF(part);
      goto uncacheable;
    }
    int bad = PyList_Append(extra, part);
    Py_DECREF(part);
    if (bad < 0) goto fail;
    nextra++;
  }
  PyObject *key = PyTuple_New(2 + nextra);
  if (!key) goto fail;
  PyObject *code = PyBytes_FromStringAndSize((const char *)buf, (Py_ssize_t)used);
  if (!code) {
    Py_DECREF(key);
    goto fail;
  }
  PyTuple_SET_ITEM(key, 0, code);
  PyTuple_SET_ITEM(key, 1, Py_NewRef(kwnames ? kwnames : Py_None));
  for (Py_ssize_t i = 0; i < nextra; i++)
    PyTuple_SET_ITEM(key, 2 + i, Py_NewRef(PyList_GET_ITEM(extra, i)));
  Py_XDECREF(extra);
  return key;
uncacheable:
  Py_XDECREF(extra);
  Py_RETURN_NONE;
fail:
  Py_XDECREF(extra);
  return NULL;
}

/* Splits a (args tuple, kwargs dict) call into a flat array of borrowed
 * references and a kwnames tuple (new reference, NULL when there are no
 * keywords). Returns -1 on error; flat must hold OPD_MAX_ARGS entries, and
 * 1 is returned (nothing filled) when the call has more arguments. */
static int opd_flatten(PyObject *args, PyObject *kwargs, PyObject **flat, PyObject **kwnames) {
  Py_ssize_t nargs = PyTuple_GET_SIZE(args);
  Py_ssize_t nkw = kwargs ? PyDict_GET_SIZE(kwargs) : 0;
  *kwnames = NULL;
  if (nargs > OPD_MAX_ARGS || nkw > OPD_MAX_ARGS - nargs) return 1;
  for (Py_ssize_t i = 0; i < nargs; i++) flat[i] = PyTuple_GET_ITEM(args, i);
  if (!nkw) return 0;
  PyObject *names = PyTuple_New(nkw);
  if (!names) return -1;
  Py_ssize_t pos = 0, i = 0;
  PyObject *name, *value;
  while (PyDict_Next(kwargs, &pos, &name, &value)) {
    PyTuple_SET_ITEM(names, i, Py_NewRef(name));
    flat[nargs + i++] = value;
  }
  *kwnames = names;
  return 0;
}

static PyObject *opd_miss(OpDispatchObject *self, PyObject *key, PyObject *args, PyObject *kwargs) {
  PyObject *kw = kwargs ? Py_NewRef(kwargs) : PyDict_New();
  if (!kw) return NULL;
  PyObject *out = PyObject_CallMethod((PyObject *)self, "_dispatch_miss", "OOO", key, args, kw);
  Py_DECREF(kw);
  return out;
}

static PyObject *opd_call(OpDispatchObject *self, PyObject *args, PyObject *kwargs) {
  if (!self->entries) {
    PyErr_SetString(PyExc_TypeError, "OpDispatch: not initialised");
    return NULL;
  }
  PyObject *flat[OPD_MAX_ARGS];
  PyObject *kwnames;
  int st = opd_flatten(args, kwargs, flat, &kwnames);
  if (st < 0) return NULL;
  if (st > 0) return opd_miss(self, Py_None, args, kwargs);
  Py_ssize_t nargs = PyTuple_GET_SIZE(args);
  PyObject *key = opd_key(self, flat, nargs, kwnames);
  if (!key) goto fail;
  PyObject *entry = NULL;
  if (key != Py_None) {
    entry = PyDict_GetItemWithError(self->entries, key);
    if (!entry && PyErr_Occurred()) {
      if (!PyErr_ExceptionMatches(PyExc_TypeError)) goto fail_key;
      /* An unhashable attribute value: such a call is not cached. */
      PyErr_Clear();
      Py_SETREF(key, Py_NewRef(Py_None));
    }
  }
  PyObject *out;
  if (entry) {
    Py_INCREF(entry); /* the entry may drop itself from the table */
    out = kwnames
              ? PyObject_Vectorcall(entry, flat, (size_t)(nargs + PyTuple_GET_SIZE(kwnames)), NULL)
              : PyObject_Call(entry, args, NULL);
    Py_DECREF(entry);
  } else {
    out = opd_miss(self, key, args, kwargs);
  }
  Py_DECREF(key);
  Py_XDECREF(kwnames);
  return out;
fail_key:
  Py_DECREF(key);
fail:
  Py_XDECREF(kwnames);
  return NULL;
}

static PyObject *opd_dispatch_key(OpDispatchObject *self, PyObject *const *argv, Py_ssize_t argc) {
  if (argc != 2 || !PyTuple_Check(argv[0]) || !(argv[1] == Py_None || PyDict_Check(argv[1]))) {
    PyErr_SetString(PyExc_TypeError,
                    "_dispatch_key(args, kwargs, /) takes a tuple and a dict or None");
    return NULL;
  }
  if (!self->entries) {
    PyErr_SetString(PyExc_TypeError, "OpDispatch: not initialised");
    return NULL;
  }
  PyObject *flat[OPD_MAX_ARGS];
  PyObject *kwnames;
  PyObject *kwargs = argv[1] == Py_None ? NULL : argv[1];
  int st = opd_flatten(argv[0], kwargs, flat, &kwnames);
  if (st < 0) return NULL;
  if (st > 0) Py_RETURN_NONE;
  PyObject *key = opd_key(self, flat, PyTuple_GET_SIZE(argv[0]), kwnames);
  Py_XDECREF(kwnames);
  return key;
}

static PyObject *opd_get_layouts(OpDispatchObject *self, void *closure) {
  (void)closure;
  if (!self->layouts) Py_RETURN_NONE;
  return Py_NewRef(self->layouts);
}

static PyObject *opd_get_entries(OpDispatchObject *self, void *closure) {
  (void)closure;
  if (!self->entries) Py_RETURN_NONE;
  return Py_NewRef(self->entries);
}

static PyMethodDef opd_methods[] = {
    {"_dispatch_key", (PyCFunction)(void (*)(void))opd_dispatch_key, METH_FASTCALL,
     ASC_DOC("_dispatch_key($self, args, kwargs, /)",
             "The cache key of a call with positional arguments args (a tuple) and keywords "
             "kwargs (a dict or None), or None when such a call is not cached (its layout "
             "is not in _dispatch_layouts, or an argument cannot be keyed).")},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef opd_getset[] = {
    {"_dispatch_layouts", (getter)opd_get_layouts, NULL,
     "Call layout (nargs, or (nargs, kwnames)) -> bytes of argument roles: 'i' input, "
     "'a' attribute, 'x' not cached.",
     NULL},
    {"_dispatch_entries", (getter)opd_get_entries, NULL,
     "Call key -> entry, called with the call's arguments as one flat positional list.", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

PyTypeObject AscOpDispatch_Type = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "pyasc._C.OpDispatch",
    .tp_basicsize = sizeof(OpDispatchObject),
    .tp_dealloc = (destructor)opd_dealloc,
    .tp_call = (ternaryfunc)opd_call,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE | Py_TPFLAGS_HAVE_GC,
    .tp_doc =
        "OpDispatch(): the C call path of pyasc.op.Op (its base class): signature key, "
        "entry lookup, launch; misses call _dispatch_miss(key, args, kwargs).",
    .tp_traverse = (traverseproc)opd_traverse,
    .tp_clear = (inquiry)opd_clear,
    .tp_methods = opd_methods,
    .tp_getset = opd_getset,
    .tp_new = opd_new,
};

int asc_py_op_dispatch_init(PyObject *module) {
  if (PyType_Ready(&AscOpDispatch_Type) < 0) return -1;
  return PyModule_AddObjectRef(module, "OpDispatch", (PyObject *)&AscOpDispatch_Type);
}
