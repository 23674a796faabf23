/* pyasc.Stream and pyasc.Event over libasc handles, the per-thread current
 * stream, and Python host functions run in stream order. */
#include "binding.h"

/* after binding.h, whose Python.h must come first */
#include "asc_docstrings.h" /* generated from docs/docstrings (tools/gen_docstrings.py) */
/* binding.h first: Python.h must precede system headers. */
#include "asc/jit.h"

typedef struct {
  PyObject_HEAD asc_stream_t handle;
  int device;
  int owned; /* destroys the stream when collected; default streams are not */
} StreamObject;

typedef struct {
  PyObject_HEAD asc_event_t handle;
} EventObject;

static PyObject *stream_wrap(asc_stream_t handle, int device, int owned) {
  StreamObject *s = PyObject_New(StreamObject, &AscStream_Type);
  if (!s) return NULL;
  s->handle = handle;
  s->device = device;
  s->owned = owned;
  return (PyObject *)s;
}

int asc_py_stream(PyObject *obj, asc_stream_t *stream) {
  if (!obj || obj == Py_None) {
    *stream = ASC_STREAM_CURRENT;
    return 0;
  }
  if (!PyObject_TypeCheck(obj, &AscStream_Type)) {
    PyErr_Format(PyExc_TypeError, "stream must be a pyasc.Stream or None, not %.100s",
                 Py_TYPE(obj)->tp_name);
    return -1;
  }
  *stream = ((StreamObject *)obj)->handle;
  if (!*stream) {
    asc_py_raise_msg(ASC_ERR_INVALID_HANDLE, "the stream was destroyed");
    return -1;
  }
  return 0;
}

static int stream_init(StreamObject *self, PyObject *args, PyObject *kwargs) {
  static char *names[] = {"device", NULL};
  PyObject *device_obj = Py_None;
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, "|O:Stream", names, &device_obj)) return -1;
  int device;
  if (asc_py_device(device_obj, &device)) return -1;
  if (self->handle) {
    PyErr_SetString(PyExc_TypeError, "Stream.__init__ called twice");
    return -1;
  }
  asc_status st = asc_stream_create(device, &self->handle);
  if (st) {
    asc_py_raise(st);
    return -1;
  }
  self->device = device;
  self->owned = 1;
  return 0;
}

/* On failure (a task destroying its own stream) the stream stays usable. */
static asc_status destroy_stream(StreamObject *self) {
  asc_stream_t handle = self->handle;
  self->handle = 0;
  asc_status st;
  Py_BEGIN_ALLOW_THREADS
  st = asc_stream_destroy(handle);
  Py_END_ALLOW_THREADS
  if (st) self->handle = handle;
  return st;
}

static void stream_dealloc(StreamObject *self) {
  if (self->owned && self->handle) {
    PyObject *type, *value, *tb;
    PyErr_Fetch(&type, &value, &tb);
    (void)destroy_stream(self);
    asc_clear_error();
    PyErr_Restore(type, value, tb);
  }
  Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyObject *stream_destroy(StreamObject *self, PyObject *noargs) {
  (void)noargs;
  if (!self->owned)
    return asc_py_raise_msg(ASC_ERR_INVALID_VALUE, "the default stream cannot be destroyed");
  if (!self->handle) return asc_py_raise_msg(ASC_ERR_INVALID_HANDLE, "the stream was destroyed");
  asc_status st = destroy_stream(self);
  return st ? asc_py_raise(st) : Py_NewRef(Py_None);
}

/* How long a wait runs without looking at signals: well under the 100 ms
 * in which Ctrl-C should take effect, long enough to cost nothing. */
#define WAIT_SLICE_NS 20000000

int asc_py_wait(asc_status (*wait)(uint64_t what, int64_t timeout_ns), uint64_t what,
                asc_status *st) {
  for (;;) {
    Py_BEGIN_ALLOW_THREADS
    *st = wait(what, WAIT_SLICE_NS);
    Py_END_ALLOW_THREADS
    if (*st != ASC_ERR_NOT_READY) return 0;
    if (PyErr_CheckSignals()) {
      /* Ctrl-C of a wait stops the kernels it may be waiting for (a
       * kernel that never ends would keep its stream busy for ever); their
       * "interrupted" error comes at the next wait. Other work goes on. */
      if (PyErr_ExceptionMatches(PyExc_KeyboardInterrupt)) asc_jit_cancel_running();
      return -1;
    }
  }
}

asc_status asc_py_wait_device(uint64_t device, int64_t timeout_ns) {
  return asc_device_synchronize_for((int)device, timeout_ns);
}

int asc_py_sync_stream(asc_stream_t stream) {
  asc_status st;
  if (asc_py_wait(asc_stream_synchronize_for, stream, &st)) return -1;
  if (st) asc_py_raise(st);
  return st ? -1 : 0;
}

static PyObject *stream_synchronize(StreamObject *self, PyObject *noargs) {
  (void)noargs;
  asc_stream_t handle;
  if (asc_py_stream((PyObject *)self, &handle) || asc_py_sync_stream(handle)) return NULL;
  Py_RETURN_NONE;
}

static PyObject *stream_query(StreamObject *self, PyObject *noargs) {
  (void)noargs;
  asc_stream_t handle;
  if (asc_py_stream((PyObject *)self, &handle)) return NULL;
  asc_status st = asc_stream_query(handle);
  if (st == ASC_ERR_NOT_READY) Py_RETURN_FALSE;
  return st ? asc_py_raise(st) : Py_NewRef(Py_True);
}

static int event_handle(PyObject *obj, asc_event_t *out);

static PyObject *stream_wait_event(StreamObject *self, PyObject *event) {
  asc_stream_t handle;
  asc_event_t e;
  if (asc_py_stream((PyObject *)self, &handle) || event_handle(event, &e)) return NULL;
  asc_status st = asc_stream_wait_event(handle, e);
  return st ? asc_py_raise(st) : Py_NewRef(Py_None);
}

static PyObject *stream_record_event(StreamObject *self, PyObject *const *args, Py_ssize_t nargs,
                                     PyObject *kwnames) {
  static const char *const names[] = {"event", NULL};
  PyObject *a[1] = {NULL};
  asc_stream_t handle;
  if (asc_py_parse("record_event", args, nargs, kwnames, names, 0, a) ||
      asc_py_stream((PyObject *)self, &handle))
    return NULL;
  PyObject *event =
      a[0] && a[0] != Py_None ? Py_NewRef(a[0]) : PyObject_CallNoArgs((PyObject *)&AscEvent_Type);
  asc_event_t e;
  if (!event || event_handle(event, &e)) {
    Py_XDECREF(event);
    return NULL;
  }
  asc_status st = asc_event_record(e, handle);
  if (st) {
    Py_DECREF(event);
    return asc_py_raise(st);
  }
  return event;
}

/* A Python callable run on the stream's thread. */
static asc_status run_host_func(void *user) {
  PyGILState_STATE gil = asc_py_gil_ensure();
  PyObject *result = PyObject_CallNoArgs((PyObject *)user);
  asc_status st = ASC_OK;
  if (result) {
    Py_DECREF(result);
  } else {
    PyObject *type, *exc, *tb;
    PyErr_Fetch(&type, &exc, &tb);
    PyErr_NormalizeException(&type, &exc, &tb);
    PyObject *text = exc ? PyObject_Str(exc) : NULL;
    const char *msg = text ? PyUnicode_AsUTF8(text) : NULL;
    st = asc_error(ASC_ERR_DEVICE, "host function raised %s: %s",
                   exc ? Py_TYPE(exc)->tp_name : "an exception", msg ? msg : "?");
    PyErr_Clear();
    Py_XDECREF(text);
    Py_XDECREF(type);
    Py_XDECREF(exc);
    Py_XDECREF(tb);
  }
  PyGILState_Release(gil);
  return st;
}

static void release_host_func(void *user) {
  PyGILState_STATE gil = asc_py_gil_ensure();
  Py_DECREF((PyObject *)user);
  PyGILState_Release(gil);
}

static PyObject *stream_launch_host_func(StreamObject *self, PyObject *fn) {
  asc_stream_t handle;
  if (asc_py_stream((PyObject *)self, &handle)) return NULL;
  if (!PyCallable_Check(fn))
    return PyErr_Format(PyExc_TypeError, "launch_host_func needs a callable");
  asc_task task = {.run = run_host_func,
                   .release = release_host_func,
                   .user = Py_NewRef(fn),
                   .what = "host function"};
  asc_status st = asc_stream_enqueue(handle, &task);
  if (st) {
    Py_DECREF(fn);
    return asc_py_raise(st);
  }
  Py_RETURN_NONE;
}

static PyObject *stream_richcompare(PyObject *a, PyObject *b, int op) {
  if (!PyObject_TypeCheck(b, &AscStream_Type) || (op != Py_EQ && op != Py_NE))
    Py_RETURN_NOTIMPLEMENTED;
  int same = ((StreamObject *)a)->handle == ((StreamObject *)b)->handle;
  return PyBool_FromLong(op == Py_EQ ? same : !same);
}

static Py_hash_t stream_hash(StreamObject *self) {
  Py_hash_t h = (Py_hash_t)(self->handle ^ (self->handle >> 32));
  return h == -1 ? -2 : h;
}

static PyObject *stream_repr(StreamObject *self) {
  if (!self->handle) return PyUnicode_FromString("<pyasc.Stream destroyed>");
  char hex[24]; /* PyUnicode_FromFormat has no %llx */
  snprintf(hex, sizeof hex, "0x%llx", (unsigned long long)self->handle);
  return PyUnicode_FromFormat("<pyasc.Stream device=%d handle=%s%s>", self->device, hex,
                              self->owned ? "" : " default");
}

static PyObject *stream_get_handle(StreamObject *self, void *closure) {
  (void)closure;
  return PyLong_FromUnsignedLongLong(self->handle);
}

static PyObject *stream_get_device(StreamObject *self, void *closure) {
  (void)closure;
  return PyLong_FromLong(self->device);
}

static PyObject *stream_get_is_default(StreamObject *self, void *closure) {
  (void)closure;
  return PyBool_FromLong(!self->owned);
}

static PyMethodDef stream_methods[] = {
    {"synchronize", (PyCFunction)stream_synchronize, METH_NOARGS,
     ASC_DOC("synchronize($self, /)", ASC_DOCTEXT_Stream_synchronize)},
    {"query", (PyCFunction)stream_query, METH_NOARGS,
     ASC_DOC("query($self, /)", ASC_DOCTEXT_Stream_query)},
    {"wait_event", (PyCFunction)stream_wait_event, METH_O,
     ASC_DOC("wait_event($self, event, /)", ASC_DOCTEXT_Stream_wait_event)},
    {"record_event", (PyCFunction)(void (*)(void))stream_record_event,
     METH_FASTCALL | METH_KEYWORDS,
     ASC_DOC("record_event($self, event=None)", ASC_DOCTEXT_Stream_record_event)},
    {"launch_host_func", (PyCFunction)stream_launch_host_func, METH_O,
     ASC_DOC("launch_host_func($self, fn, /)", ASC_DOCTEXT_Stream_launch_host_func)},
    {"destroy", (PyCFunction)stream_destroy, METH_NOARGS,
     ASC_DOC("destroy($self, /)", ASC_DOCTEXT_Stream_destroy)},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef stream_getset[] = {
    {"handle", (getter)stream_get_handle, NULL, "The libasc stream handle (0 once destroyed).",
     NULL},
    {"device", (getter)stream_get_device, NULL, "Index of the stream's device.", NULL},
    {"is_default", (getter)stream_get_is_default, NULL, "True for a device's default stream.",
     NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

PyTypeObject AscStream_Type = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "pyasc.Stream",
    .tp_basicsize = sizeof(StreamObject),
    .tp_dealloc = (destructor)stream_dealloc,
    .tp_repr = (reprfunc)stream_repr,
    .tp_hash = (hashfunc)stream_hash,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = ASC_DOC("Stream(device=None)", ASC_DOCTEXT_Stream),
    .tp_richcompare = stream_richcompare,
    .tp_methods = stream_methods,
    .tp_getset = stream_getset,
    .tp_init = (initproc)stream_init,
    .tp_new = PyType_GenericNew,
};

/* --- current stream --------------------------------------------------- */

/* The Python object behind each thread's current stream is kept in the
 * thread state dict so that it lives as long as it is current. */
static int remember_current(PyObject *stream, int device) {
  PyObject *dict = PyThreadState_GetDict();
  if (!dict) {
    PyErr_SetString(PyExc_RuntimeError, "no thread state dict");
    return -1;
  }
  PyObject *key = PyUnicode_FromFormat("pyasc.current_stream.%d", device);
  if (!key) return -1;
  int rc = PyDict_SetItem(dict, key, stream);
  Py_DECREF(key);
  return rc;
}

static PyObject *default_stream(PyObject *self, PyObject *const *args, Py_ssize_t nargs,
                                PyObject *kwnames) {
  (void)self;
  static const char *const names[] = {"device", NULL};
  PyObject *a[1] = {NULL};
  int device;
  if (asc_py_parse("default_stream", args, nargs, kwnames, names, 0, a) ||
      asc_py_device(a[0], &device))
    return NULL;
  asc_stream_t handle;
  asc_status st = asc_stream_default(device, &handle);
  return st ? asc_py_raise(st) : stream_wrap(handle, device, 0);
}

static PyObject *current_stream(PyObject *self, PyObject *const *args, Py_ssize_t nargs,
                                PyObject *kwnames) {
  (void)self;
  static const char *const names[] = {"device", NULL};
  PyObject *a[1] = {NULL};
  int device;
  if (asc_py_parse("current_stream", args, nargs, kwnames, names, 0, a) ||
      asc_py_device(a[0], &device))
    return NULL;
  PyObject *dict = PyThreadState_GetDict();
  PyObject *key = PyUnicode_FromFormat("pyasc.current_stream.%d", device);
  if (!key) return NULL;
  PyObject *known = dict ? PyDict_GetItemWithError(dict, key) : NULL;
  Py_DECREF(key);
  if (known) return Py_NewRef(known);
  if (PyErr_Occurred()) return NULL;
  asc_stream_t handle;
  asc_status st = asc_stream_current(device, &handle);
  return st ? asc_py_raise(st) : stream_wrap(handle, device, 0);
}

static PyObject *set_stream(PyObject *self, PyObject *stream) {
  (void)self;
  asc_stream_t handle;
  if (stream == Py_None || asc_py_stream(stream, &handle)) {
    if (stream == Py_None) PyErr_SetString(PyExc_TypeError, "set_stream needs a pyasc.Stream");
    return NULL;
  }
  asc_status st = asc_stream_set_current(handle);
  if (st) return asc_py_raise(st);
  if (remember_current(stream, ((StreamObject *)stream)->device)) return NULL;
  Py_RETURN_NONE;
}

/* --- events ----------------------------------------------------------- */

static int event_handle(PyObject *obj, asc_event_t *out) {
  if (!PyObject_TypeCheck(obj, &AscEvent_Type)) {
    PyErr_Format(PyExc_TypeError, "expected a pyasc.Event, not %.100s", Py_TYPE(obj)->tp_name);
    return -1;
  }
  *out = ((EventObject *)obj)->handle;
  if (!*out) {
    asc_py_raise_msg(ASC_ERR_INVALID_HANDLE, "the event was destroyed");
    return -1;
  }
  return 0;
}

static int event_init(EventObject *self, PyObject *args, PyObject *kwargs) {
  static char *names[] = {"enable_timing", NULL};
  int timing = 1;
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, "|p:Event", names, &timing)) return -1;
  if (self->handle) {
    PyErr_SetString(PyExc_TypeError, "Event.__init__ called twice");
    return -1;
  }
  asc_status st = asc_event_create(&self->handle);
  if (st) asc_py_raise(st);
  return st ? -1 : 0;
}

static void event_dealloc(EventObject *self) {
  if (self->handle) (void)asc_event_destroy(self->handle);
  Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyObject *event_record(EventObject *self, PyObject *const *args, Py_ssize_t nargs,
                              PyObject *kwnames) {
  static const char *const names[] = {"stream", NULL};
  PyObject *a[1] = {NULL};
  asc_stream_t stream;
  asc_event_t e;
  if (asc_py_parse("record", args, nargs, kwnames, names, 0, a) || asc_py_stream(a[0], &stream) ||
      event_handle((PyObject *)self, &e))
    return NULL;
  asc_status st = asc_event_record(e, stream);
  return st ? asc_py_raise(st) : Py_NewRef(Py_None);
}

static PyObject *event_synchronize(EventObject *self, PyObject *noargs) {
  (void)noargs;
  asc_event_t e;
  asc_status st;
  if (event_handle((PyObject *)self, &e) || asc_py_wait(asc_event_synchronize_for, e, &st))
    return NULL;
  return st ? asc_py_raise(st) : Py_NewRef(Py_None);
}

static PyObject *event_query(EventObject *self, PyObject *noargs) {
  (void)noargs;
  asc_event_t e;
  if (event_handle((PyObject *)self, &e)) return NULL;
  asc_status st = asc_event_query(e);
  if (st == ASC_ERR_NOT_READY) Py_RETURN_FALSE;
  return st ? asc_py_raise(st) : Py_NewRef(Py_True);
}

static PyObject *event_elapsed_time(EventObject *self, PyObject *end) {
  asc_event_t a, b;
  if (event_handle((PyObject *)self, &a) || event_handle(end, &b)) return NULL;
  double ms;
  asc_status st = asc_event_elapsed_ms(a, b, &ms);
  if (st == ASC_ERR_NOT_READY) st = ASC_ERR_INVALID_VALUE; /* Python callers get a ValueError */
  return st ? asc_py_raise(st) : PyFloat_FromDouble(ms);
}

static PyObject *event_wait(EventObject *self, PyObject *const *args, Py_ssize_t nargs,
                            PyObject *kwnames) {
  static const char *const names[] = {"stream", NULL};
  PyObject *a[1] = {NULL};
  asc_stream_t stream;
  asc_event_t e;
  if (asc_py_parse("wait", args, nargs, kwnames, names, 0, a) || asc_py_stream(a[0], &stream) ||
      event_handle((PyObject *)self, &e))
    return NULL;
  asc_status st = asc_stream_wait_event(stream, e);
  return st ? asc_py_raise(st) : Py_NewRef(Py_None);
}

static PyObject *event_destroy(EventObject *self, PyObject *noargs) {
  (void)noargs;
  asc_event_t e;
  if (event_handle((PyObject *)self, &e)) return NULL;
  self->handle = 0;
  asc_status st = asc_event_destroy(e);
  return st ? asc_py_raise(st) : Py_NewRef(Py_None);
}

static PyObject *event_repr(EventObject *self) {
  if (!self->handle) return PyUnicode_FromString("<pyasc.Event destroyed>");
  char hex[24]; /* PyUnicode_FromFormat has no %llx */
  snprintf(hex, sizeof hex, "0x%llx", (unsigned long long)self->handle);
  return PyUnicode_FromFormat("<pyasc.Event handle=%s>", hex);
}

static PyMethodDef event_methods[] = {
    {"record", (PyCFunction)(void (*)(void))event_record, METH_FASTCALL | METH_KEYWORDS,
     ASC_DOC("record($self, stream=None)", ASC_DOCTEXT_Event_record)},
    {"synchronize", (PyCFunction)event_synchronize, METH_NOARGS,
     ASC_DOC("synchronize($self, /)", ASC_DOCTEXT_Event_synchronize)},
    {"query", (PyCFunction)event_query, METH_NOARGS,
     ASC_DOC("query($self, /)", ASC_DOCTEXT_Event_query)},
    {"elapsed_time", (PyCFunction)event_elapsed_time, METH_O,
     ASC_DOC("elapsed_time($self, end, /)", ASC_DOCTEXT_Event_elapsed_time)},
    {"wait", (PyCFunction)(void (*)(void))event_wait, METH_FASTCALL | METH_KEYWORDS,
     ASC_DOC("wait($self, stream=None)", ASC_DOCTEXT_Event_wait)},
    {"destroy", (PyCFunction)event_destroy, METH_NOARGS,
     ASC_DOC("destroy($self, /)", ASC_DOCTEXT_Event_destroy)},
    {NULL, NULL, 0, NULL},
};

PyTypeObject AscEvent_Type = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "pyasc.Event",
    .tp_basicsize = sizeof(EventObject),
    .tp_dealloc = (destructor)event_dealloc,
    .tp_repr = (reprfunc)event_repr,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = ASC_DOC("Event(enable_timing=True)", ASC_DOCTEXT_Event),
    .tp_methods = event_methods,
    .tp_init = (initproc)event_init,
    .tp_new = PyType_GenericNew,
};

/* --- test support ----------------------------------------------------- */

static PyObject *testing_spin(PyObject *self, PyObject *const *args, Py_ssize_t nargs,
                              PyObject *kwnames) {
  (void)self;
  static const char *const names[] = {"ms", "blocks", "stream", NULL};
  PyObject *a[3] = {NULL, NULL, NULL};
  asc_stream_t stream;
  if (asc_py_parse("spin", args, nargs, kwnames, names, 1, a) || asc_py_stream(a[2], &stream))
    return NULL;
  double ms = PyFloat_AsDouble(a[0]);
  if (ms == -1.0 && PyErr_Occurred()) return NULL;
  long blocks = a[1] ? PyLong_AsLong(a[1]) : 1;
  if (blocks == -1 && PyErr_Occurred()) return NULL;
  if (blocks < 1 || blocks > UINT32_MAX)
    return asc_py_raise_msg(ASC_ERR_INVALID_VALUE, "spin: blocks must be >= 1");
  asc_status st = asc_testing_spin(stream, ms, (uint32_t)blocks);
  return st ? asc_py_raise(st) : Py_NewRef(Py_None);
}

static PyObject *testing_fail(PyObject *self, PyObject *const *args, Py_ssize_t nargs,
                              PyObject *kwnames) {
  (void)self;
  static const char *const names[] = {"message", "stream", "kernel", NULL};
  PyObject *a[3] = {NULL, NULL, NULL};
  asc_stream_t stream;
  if (asc_py_parse("fail", args, nargs, kwnames, names, 1, a) || asc_py_stream(a[1], &stream))
    return NULL;
  const char *message = PyUnicode_AsUTF8(a[0]);
  if (!message) return NULL;
  int kernel = a[2] ? PyObject_IsTrue(a[2]) : 0;
  if (kernel < 0) return NULL;
  asc_status st = asc_testing_fail(stream, kernel ? ASC_ERR_KERNEL : ASC_ERR_DEVICE, message);
  return st ? asc_py_raise(st) : Py_NewRef(Py_None);
}

PyMethodDef asc_py_stream_functions[] = {
    {"default_stream", (PyCFunction)(void (*)(void))default_stream, METH_FASTCALL | METH_KEYWORDS,
     ASC_DOC("default_stream($module, device=None)", ASC_DOCTEXT_default_stream)},
    {"current_stream", (PyCFunction)(void (*)(void))current_stream, METH_FASTCALL | METH_KEYWORDS,
     ASC_DOC("current_stream($module, device=None)", ASC_DOCTEXT_current_stream)},
    {"set_stream", set_stream, METH_O,
     ASC_DOC("set_stream($module, stream, /)", ASC_DOCTEXT_set_stream)},
    {"_testing_spin", (PyCFunction)(void (*)(void))testing_spin, METH_FASTCALL | METH_KEYWORDS,
     ASC_DOC("_testing_spin($module, ms, blocks=1, stream=None)", "See pyasc.testing.spin.")},
    {"_testing_fail", (PyCFunction)(void (*)(void))testing_fail, METH_FASTCALL | METH_KEYWORDS,
     ASC_DOC("_testing_fail($module, message, stream=None, kernel=False)",
             "See pyasc.testing.fail.")},
    {NULL, NULL, 0, NULL},
};

int asc_py_streams_init(PyObject *module) {
  if (PyType_Ready(&AscStream_Type) < 0 || PyType_Ready(&AscEvent_Type) < 0) return -1;
  if (PyModule_AddObjectRef(module, "Stream", (PyObject *)&AscStream_Type) < 0) return -1;
  return PyModule_AddObjectRef(module, "Event", (PyObject *)&AscEvent_Type);
}
