/* pyasc._C.CompiledKernel (a built kernel that launches over blocks), the
 * launch fast path (KernelDispatcher, KernelLauncher) and the module's
 * build and cache functions (jit_build, ascendc_build, write_dump). */
#include "binding.h"

#include <stdatomic.h>
#include <structmember.h> /* after binding.h, whose Python.h must come first */
/* binding.h first: Python.h must precede system headers. */
#include "asc/jit.h"

/* --- compiled kernels ---------------------------------------------------- */

typedef struct {
  PyObject_HEAD asc_jit_kernel *k;
  char signature[65]; /* one letter per runtime parameter: a(ddress) i f b */
  int nparams;
} KernelObject;

static void kernel_dealloc(KernelObject *self) {
  asc_jit_release(self->k);
  Py_TYPE(self)->tp_free((PyObject *)self);
}

/* asc_jit_cancel.check of a synchronous launch: called on the launching
 * thread (which released the GIL into *user) from a running kernel's loops
 * and waits, about every 20 ms. Runs Python's signal handlers: one that
 * raises (Ctrl-C's KeyboardInterrupt) cancels the launch, its exception
 * kept for kernel_launch to raise. A handler must not wait for the
 * launch's stream: the stream is busy running this kernel. */
static int launch_check(void *user) {
  PyThreadState **ts = user;
  PyEval_RestoreThread(*ts);
  int failed = PyErr_Occurred() ? 1 : PyErr_CheckSignals() < 0;
  *ts = PyEval_SaveThread();
  return failed;
}

/* Packs one argument; addresses keep their storage alive in keep[]. */
static int pack_arg(char kind, PyObject *obj, asc_jit_arg *arg, asc_tensor *held, int *nheld,
                    int index) {
  memset(arg, 0, sizeof *arg); /* a scalar's length is 0, never what the stack held */
  switch (kind) {
    case 'a': {
      asc_tensor *t = &held[*nheld];
      if (asc_py_as_tensor(obj, ASC_DTYPE_COUNT, t)) return -1;
      (*nheld)++;
      /* The kernel sees flat memory: a strided view would be misread. */
      if (!asc_tensor_is_contiguous(t)) {
        asc_py_raise_msg(ASC_ERR_INVALID_VALUE,
                         "kernel argument %d is not contiguous: pass a contiguous array (e.g. "
                         "numpy.ascontiguousarray or .contiguous()), whose memory the kernel "
                         "writes in place",
                         index);
        return -1;
      }
      /* The kernel may write any argument: lent read-only memory must stay as it is. */
      if (asc_storage_readonly(t->storage)) {
        asc_py_raise_msg(ASC_ERR_INVALID_VALUE,
                         "kernel argument %d is read-only memory (a read-only buffer, NumPy array "
                         "or DLPack tensor), which kernels may not receive: pass a writable copy",
                         index);
        return -1;
      }
      char *data = asc_tensor_data(t);
      char *end = (char *)asc_storage_data(t->storage) + asc_storage_nbytes(t->storage);
      arg->v.p = data;
      arg->n = end - data;
      return 0;
    }
    case 'f':
      arg->v.f = PyFloat_AsDouble(obj);
      return arg->v.f == -1.0 && PyErr_Occurred() ? -1 : 0;
    default: {
      if (!PyLong_Check(obj) && !PyIndex_Check(obj)) {
        PyErr_Format(PyExc_TypeError, "kernel argument %d must be an int, not %.100s", index,
                     Py_TYPE(obj)->tp_name);
        return -1;
      }
      PyObject *i = PyNumber_Index(obj);
      arg->v.i = i ? PyLong_AsLongLong(i) : -1;
      Py_XDECREF(i);
      return arg->v.i == -1 && PyErr_Occurred() ? -1 : 0;
    }
  }
}

static PyObject *kernel_launch(KernelObject *self, PyObject *const *args, Py_ssize_t nargs) {
  if (nargs < 2) return PyErr_Format(PyExc_TypeError, "launch(blocks, stream, *args)");
  long blocks = PyLong_AsLong(args[0]);
  if (blocks == -1 && PyErr_Occurred()) return NULL;
  asc_stream_t stream;
  if (asc_py_stream(args[1], &stream)) return NULL;
  if (nargs - 2 != self->nparams)
    return PyErr_Format(PyExc_TypeError, "kernel takes %d runtime arguments, got %zd",
                        self->nparams, nargs - 2);
  if (blocks < 1 || blocks > 65535)
    return asc_py_raise_msg(ASC_ERR_INVALID_VALUE, "core count must be in [1, 65535], got %ld",
                            blocks);
  asc_jit_arg packed[64];
  asc_tensor held[64];
  void *keep[64];
  int nheld = 0, rc = 0;
  /* Memory pyasc does not own (NumPy, PyTorch, any producer but a Tensor)
   * gives no later point at which to wait for the kernel: as in PyAsc, the
   * launch is complete, and its error raised, when the call returns. */
  bool host_owned = false;
  for (int i = 0; i < self->nparams && !rc; i++) {
    rc = pack_arg(self->signature[i], args[i + 2], &packed[i], held, &nheld, i);
    if (self->signature[i] == 'a' && !AscTensor_Check(args[i + 2])) host_owned = true;
  }
  asc_status st = ASC_OK;
  for (int i = 0; !rc && i < nheld; i++) keep[i] = held[i].storage;
  if (!rc && host_owned) {
    /* Waited for at once: on an idle stream it runs on this thread, without
     * the GIL (its blocks may take long), and the wait finds it done; else
     * this thread waits in slices. Either way Ctrl-C is seen (launch_check
     * from the kernel's loops and waits, or between the slices): the
     * launch is cancelled and, once its blocks stopped and the arrays are
     * the caller's again, KeyboardInterrupt is raised. */
    asc_jit_cancel cancel = {0, launch_check, NULL};
    PyThreadState *ts = PyEval_SaveThread();
    cancel.user = &ts;
    st = asc_jit_launch_cancellable(self->k, stream, (uint32_t)blocks, packed, self->nparams, keep,
                                    nheld, ASC_LAUNCH_CALLER_WAITS, &cancel);
    PyEval_RestoreThread(ts);
    if (!st && !__atomic_load_n(&cancel.flag, __ATOMIC_SEQ_CST) &&
        asc_py_wait(asc_stream_synchronize_for, stream, &st))
      __atomic_store_n(&cancel.flag, 1, __ATOMIC_SEQ_CST);
    if (__atomic_load_n(&cancel.flag, __ATOMIC_SEQ_CST)) {
      Py_BEGIN_ALLOW_THREADS
      asc_stream_synchronize(stream); /* the blocks' "interrupted" error */
      asc_clear_error();
      Py_END_ALLOW_THREADS
      if (!PyErr_Occurred()) PyErr_SetNone(PyExc_KeyboardInterrupt);
      rc = -1;
    }
  } else if (!rc) {
    st = asc_jit_launch(self->k, stream, (uint32_t)blocks, packed, self->nparams, keep, nheld);
  }
  for (int i = 0; i < nheld; i++) asc_tensor_release(&held[i]);
  if (rc) return NULL;
  if (host_owned) asc_py_run_deferred(); /* hand the arrays back to their producers now */
  return st ? asc_py_raise(st) : Py_NewRef(Py_None);
}

static PyObject *kernel_profile_reset(KernelObject *self, PyObject *n) {
  return asc_py_profile_reset(self->k, n);
}

static PyObject *kernel_profile_records(KernelObject *self, PyObject *unused) {
  (void)unused;
  return asc_py_profile_records(self->k);
}

static PyObject *kernel_get_path(KernelObject *self, void *c) {
  (void)c;
  return PyUnicode_FromString(asc_jit_path(self->k));
}

static PyObject *kernel_get_tier(KernelObject *self, void *c) {
  (void)c;
  return PyLong_FromLong(asc_jit_tier(self->k));
}

static PyMethodDef kernel_methods[] = {
    {"launch", (PyCFunction)(void (*)(void))kernel_launch, METH_FASTCALL,
     ASC_DOC("launch($self, blocks, stream, /, *args)",
             "Runs the kernel on stream; asynchronously when every array argument is a "
             "pyasc.Tensor, else it waits for the stream before returning.")},
    {"profile_reset", (PyCFunction)kernel_profile_reset, METH_O,
     ASC_DOC("profile_reset($self, n, /)",
             "A profiled kernel: clears its records and makes room for n blocks "
             "(docs/perf-model.md).")},
    {"profile_records", (PyCFunction)kernel_profile_records, METH_NOARGS,
     ASC_DOC("profile_records($self, /)",
             "A profiled kernel's records of its last launch, one tuple per block: (block_idx, "
             "core_kind, sub_block, wave, cores, clock_mhz, launch_us, end_cycles, busy_cycles, "
             "spans).")},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef kernel_getset[] = {
    {"path", (getter)kernel_get_path, NULL, "The cached shared object.", NULL},
    {"tier", (getter)kernel_get_tier, NULL,
     "1 while the first tier's build (TinyCC) runs, 2 once the optimising build does "
     "(PYASC_JIT_TIERS).",
     NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

PyTypeObject AscKernel_Type = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "pyasc._C.CompiledKernel",
    .tp_basicsize = sizeof(KernelObject),
    .tp_dealloc = (destructor)kernel_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "A kernel built into native code; made by jit_build.",
    .tp_methods = kernel_methods,
    .tp_getset = kernel_getset,
};

/* --- the launch fast path ------------------------------------------------ */

/* Per @pyasc.jit function: specialisation key -> CompiledKernel, so that a
 * launch of a built kernel stays in C: no Python code runs per launch. */
typedef struct {
  PyObject_HEAD PyObject *table; /* dict */
  int nparams;
  unsigned char constexpr_params[64];
  int debug; /* -1: follow PYASC_DEBUG at each launch */
} DispatcherObject;

static int dispatcher_init(DispatcherObject *self, PyObject *args, PyObject *kwargs) {
  static char *names[] = {"constexpr", "debug", NULL};
  PyObject *constexpr_flags, *debug = Py_None;
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O|O:KernelDispatcher", names, &constexpr_flags,
                                   &debug))
    return -1;
  Py_ssize_t n = PySequence_Size(constexpr_flags);
  if (n < 0) return -1;
  if (n > 64) {
    asc_py_raise_msg(ASC_ERR_COMPILE, "a kernel takes at most 64 parameters");
    return -1;
  }
  for (Py_ssize_t i = 0; i < n; i++) {
    PyObject *item = PySequence_GetItem(constexpr_flags, i);
    int truth = item ? PyObject_IsTrue(item) : -1;
    Py_XDECREF(item);
    if (truth < 0) return -1;
    self->constexpr_params[i] = (unsigned char)truth;
  }
  self->nparams = (int)n;
  int truth = debug == Py_None ? -1 : PyObject_IsTrue(debug);
  if (truth < 0 && debug != Py_None) return -1; /* debug has no truth value */
  self->debug = truth;
  Py_XSETREF(self->table, PyDict_New());
  return self->table ? 0 : -1;
}

static void dispatcher_dealloc(DispatcherObject *self) {
  Py_XDECREF(self->table);
  Py_TYPE(self)->tp_free((PyObject *)self);
}

static int checked_now(const DispatcherObject *self) {
  if (self->debug >= 0) return self->debug;
  const char *env = getenv("PYASC_DEBUG");
  return env && *env && strcmp(env, "0") != 0;
}

/* A pyasc.Struct (python/pyasc/language/struct.py): its type declares
 * struct_fields, and flatten() gives its scalar members in parameter order. */
static bool is_struct(PyObject *a) {
  return PyObject_HasAttrString((PyObject *)Py_TYPE(a), "struct_fields") &&
         PyObject_HasAttrString((PyObject *)Py_TYPE(a), "flatten");
}

/* The key jit.py's JITFunction._key describes: constexpr values, scalar
 * and Struct types, (array type, dtype) pairs, the checked flag and the
 * Unified Buffer size the budget was checked against. NULL with no error
 * set when an argument has no dtype (Python then explains). */
static PyObject *dispatch_key(DispatcherObject *self, PyObject *const *args, Py_ssize_t n,
                              unsigned char *structs /* may be NULL: marks Struct arguments */) {
  asc_device_props props;
  if (asc_device_get_props(asc_device_current(), &props)) {
    asc_clear_error();
    return NULL;
  }
  PyObject *key = PyTuple_New(n + 2);
  if (!key) return NULL;
  for (Py_ssize_t i = 0; i < n; i++) {
    PyObject *a = args[i], *item;
    if (structs) structs[i] = 0;
    if (self->constexpr_params[i])
      item = PyTuple_Pack(1, a);
    else if (PyBool_Check(a) || PyLong_CheckExact(a) || PyFloat_CheckExact(a))
      item = Py_NewRef((PyObject *)Py_TYPE(a));
    else {
      PyObject *dtype = PyObject_GetAttrString(a, "dtype");
      if (!dtype) {
        PyErr_Clear();
        if (!is_struct(a)) {
          Py_DECREF(key);
          return NULL;
        }
        item = Py_NewRef((PyObject *)Py_TYPE(a)); /* a Struct: its type */
        if (structs) structs[i] = 1;
      } else {
        item = PyTuple_Pack(2, (PyObject *)Py_TYPE(a), dtype);
        Py_DECREF(dtype);
      }
    }
    if (!item) {
      Py_DECREF(key);
      return NULL;
    }
    PyTuple_SET_ITEM(key, i, item);
  }
  PyTuple_SET_ITEM(key, n, PyBool_FromLong(checked_now(self)));
  PyObject *ub = PyLong_FromSize_t(props.ub_size);
  if (!ub) {
    Py_DECREF(key);
    return NULL;
  }
  PyTuple_SET_ITEM(key, n + 1, ub);
  return key;
}

/* Set while a hook takes every launch (upstream's tests patch
 * asc.runtime.launcher.Launcher.run to compile without running): the fast
 * path then declines, so that each launch reaches jit.py and the hook. One
 * flag for the process, as the patched class is one for the process. */
static atomic_bool launches_hooked;

static PyObject *set_launch_hooked(PyObject *module, PyObject *flag) {
  (void)module;
  int on = PyObject_IsTrue(flag);
  if (on < 0) return NULL;
  atomic_store(&launches_hooked, on);
  Py_RETURN_NONE;
}

static PyObject *dispatcher_launch(DispatcherObject *self, PyObject *const *args,
                                   Py_ssize_t nargs) {
  if (!self->table) return asc_py_uninitialised("KernelDispatcher");
  if (nargs != self->nparams + 2 || atomic_load(&launches_hooked)) Py_RETURN_FALSE;
  const char *dry_run = getenv("DRY_RUN"); /* PyAsc's: build, do not launch (jit.py) */
  if (dry_run && *dry_run) Py_RETURN_FALSE;
  unsigned char structs[64];
  PyObject *key = dispatch_key(self, args + 2, self->nparams, structs);
  if (!key) {
    if (PyErr_Occurred()) return NULL;
    Py_RETURN_FALSE;
  }
  PyObject *kernel = PyDict_GetItemWithError(self->table, key);
  Py_DECREF(key);
  if (!kernel) {
    /* An unhashable argument (an array for a ConstExpr): the Python path
     * names the parameter. */
    if (PyErr_Occurred() && !PyErr_ExceptionMatches(PyExc_TypeError)) return NULL;
    PyErr_Clear();
    Py_RETURN_FALSE;
  }
  /* Structs pass their scalar members (jit.py's _runtime_args); the lists
   * flatten() returns hold the members while the launch packs them. */
  PyObject *call[66], *flat[64];
  Py_ssize_t n = 0;
  int nflat = 0, fits = 1;
  call[n++] = args[0];
  call[n++] = args[1];
  for (int i = 0; i < self->nparams && fits; i++) {
    PyObject *a = args[i + 2];
    if (self->constexpr_params[i]) continue;
    if (!structs[i]) {
      call[n++] = a;
      continue;
    }
    PyObject *members = PyObject_CallMethod(a, "flatten", NULL);
    PyObject *seq =
        members ? PySequence_Fast(members, "Struct.flatten() must return a list") : NULL;
    Py_XDECREF(members);
    if (!seq) {
      for (int k = 0; k < nflat; k++) Py_DECREF(flat[k]);
      return NULL;
    }
    flat[nflat++] = seq;
    Py_ssize_t m = PySequence_Fast_GET_SIZE(seq);
    fits = m <= (Py_ssize_t)(sizeof call / sizeof call[0]) - n;
    for (Py_ssize_t k = 0; fits && k < m; k++) call[n++] = PySequence_Fast_GET_ITEM(seq, k);
  }
  /* More members than a kernel takes: the Python path says so. */
  PyObject *result = fits ? kernel_launch((KernelObject *)kernel, call, n) : Py_NewRef(Py_False);
  for (int k = 0; k < nflat; k++) Py_DECREF(flat[k]);
  if (!result) return NULL;
  if (result == Py_False) return result;
  Py_DECREF(result);
  Py_RETURN_TRUE;
}

static PyObject *dispatcher_insert(DispatcherObject *self, PyObject *const *args,
                                   Py_ssize_t nargs) {
  if (!self->table) return asc_py_uninitialised("KernelDispatcher");
  if (nargs != 2 || !PyTuple_Check(args[0]) || !PyObject_TypeCheck(args[1], &AscKernel_Type))
    return PyErr_Format(PyExc_TypeError, "insert(args: tuple, kernel: CompiledKernel)");
  if (PyTuple_GET_SIZE(args[0]) != self->nparams) Py_RETURN_NONE;
  PyObject *key = dispatch_key(self, &PyTuple_GET_ITEM(args[0], 0), self->nparams, NULL);
  if (!key) return PyErr_Occurred() ? NULL : Py_NewRef(Py_None);
  int rc = PyDict_SetItem(self->table, key, args[1]);
  Py_DECREF(key);
  return rc ? NULL : Py_NewRef(Py_None);
}

static PyMethodDef dispatcher_methods[] = {
    {"launch", (PyCFunction)(void (*)(void))dispatcher_launch, METH_FASTCALL,
     ASC_DOC("launch($self, core_num, stream, /, *args)",
             "Launches a kernel built for these argument types and returns True; False "
             "(nothing done) when there is none yet.")},
    {"insert", (PyCFunction)(void (*)(void))dispatcher_insert, METH_FASTCALL,
     ASC_DOC("insert($self, args, kernel, /)", "Remembers the kernel built for args' types.")},
    {NULL, NULL, 0, NULL},
};

PyTypeObject AscDispatcher_Type = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "pyasc._C.KernelDispatcher",
    .tp_basicsize = sizeof(DispatcherObject),
    .tp_dealloc = (destructor)dispatcher_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "KernelDispatcher(constexpr, debug=None): a kernel's launch fast path.",
    .tp_methods = dispatcher_methods,
    .tp_init = (initproc)dispatcher_init,
    .tp_new = PyType_GenericNew,
};

/* kernel[core_num, stream]: calling it launches. In C so that a launch of
 * a built kernel runs no Python code: only binding keywords or defaults
 * (kernel.bind) and a first launch (kernel.launch: build, DRY_RUN) do. */
typedef struct LauncherObject LauncherObject;
static PyObject *launcher_vectorcall(LauncherObject *self, PyObject *const *args, size_t nargsf,
                                     PyObject *kwnames);

struct LauncherObject {
  PyObject_HEAD PyObject *kernel; /* the JITFunction */
  DispatcherObject *dispatch;
  PyObject *core_num, *stream;
  int bind; /* the kernel has defaults: arguments go through kernel.bind */
  vectorcallfunc vectorcall;
};

static PyObject *launcher_new(PyTypeObject *type, PyObject *args, PyObject *kwargs) {
  PyObject *kernel, *dispatch, *core_num, *stream;
  int bind;
  if (kwargs && PyDict_GET_SIZE(kwargs)) {
    PyErr_SetString(PyExc_TypeError, "KernelLauncher() takes no keyword arguments");
    return NULL;
  }
  if (!PyArg_ParseTuple(args, "OO!OOp:KernelLauncher", &kernel, &AscDispatcher_Type, &dispatch,
                        &core_num, &stream, &bind))
    return NULL;
  if (!PyLong_Check(core_num) || PyBool_Check(core_num))
    return PyErr_Format(PyExc_TypeError, "core_num must be an int, not %.100s",
                        Py_TYPE(core_num)->tp_name);
  LauncherObject *self = (LauncherObject *)type->tp_alloc(type, 0);
  if (!self) return NULL;
  self->kernel = Py_NewRef(kernel);
  self->dispatch = (DispatcherObject *)Py_NewRef(dispatch);
  self->core_num = Py_NewRef(core_num);
  self->stream = Py_NewRef(stream);
  self->bind = bind;
  self->vectorcall = (vectorcallfunc)launcher_vectorcall;
  return (PyObject *)self;
}

static void launcher_dealloc(LauncherObject *self) {
  Py_XDECREF(self->kernel);
  Py_XDECREF(self->dispatch);
  Py_XDECREF(self->core_num);
  Py_XDECREF(self->stream);
  Py_TYPE(self)->tp_free((PyObject *)self);
}

/* kernel.bind(args, kwargs) (the arguments in parameter order, a tuple), or
 * with_keywords: kernel.launch_with_keywords(core_num, stream, args, kwargs)
 * (keywords may be launch options, which select another build). */
static PyObject *launcher_bind(LauncherObject *self, PyObject *const *args, size_t nargs,
                               PyObject *kwnames, bool with_keywords) {
  PyObject *tuple = PyTuple_New((Py_ssize_t)nargs), *kwargs = PyDict_New(), *bound = NULL;
  if (!tuple || !kwargs) goto done;
  for (size_t i = 0; i < nargs; i++) PyTuple_SET_ITEM(tuple, i, Py_NewRef(args[i]));
  Py_ssize_t nkw = kwnames ? PyTuple_GET_SIZE(kwnames) : 0;
  for (Py_ssize_t i = 0; i < nkw; i++)
    if (PyDict_SetItem(kwargs, PyTuple_GET_ITEM(kwnames, i), args[nargs + (size_t)i]) < 0)
      goto done;
  if (with_keywords) {
    bound = PyObject_CallMethod(self->kernel, "launch_with_keywords", "OOOO", self->core_num,
                                self->stream, tuple, kwargs);
    goto done;
  }
  bound = PyObject_CallMethod(self->kernel, "bind", "OO", tuple, kwargs);
  if (bound && !PyTuple_Check(bound)) {
    Py_SETREF(bound, NULL);
    PyErr_SetString(PyExc_TypeError, "kernel.bind must return a tuple");
  }
done:
  Py_XDECREF(tuple);
  Py_XDECREF(kwargs);
  return bound;
}

static PyObject *launcher_vectorcall(LauncherObject *self, PyObject *const *args, size_t nargsf,
                                     PyObject *kwnames) {
  size_t nargs = PyVectorcall_NARGS(nargsf);
  PyObject *bound = NULL;
  if (kwnames && PyTuple_GET_SIZE(kwnames)) { /* Python binds keywords and options */
    PyObject *r = launcher_bind(self, args, nargs, kwnames, true);
    if (!r) return NULL;
    Py_DECREF(r);
    Py_RETURN_NONE;
  }
  if (self->bind) {
    bound = launcher_bind(self, args, nargs, NULL, false);
    if (!bound) return NULL;
    args = &PyTuple_GET_ITEM(bound, 0);
    nargs = (size_t)PyTuple_GET_SIZE(bound);
  }
  PyObject *result = NULL;
  if (nargs <= 64) {
    PyObject *call[66];
    call[0] = self->core_num;
    call[1] = self->stream;
    for (size_t i = 0; i < nargs; i++) call[i + 2] = args[i];
    result = dispatcher_launch(self->dispatch, call, (Py_ssize_t)nargs + 2);
  } else {
    result = Py_NewRef(Py_False); /* kernel.launch explains */
  }
  if (result == Py_False) {
    /* Not built yet (or DRY_RUN, or arguments to explain): Python's path. */
    Py_DECREF(result);
    PyObject *tuple = bound ? Py_NewRef(bound) : PyTuple_New((Py_ssize_t)nargs);
    if (tuple && !bound)
      for (size_t i = 0; i < nargs; i++) PyTuple_SET_ITEM(tuple, i, Py_NewRef(args[i]));
    result = tuple ? PyObject_CallMethod(self->kernel, "launch", "OOO", self->core_num,
                                         self->stream, tuple)
                   : NULL;
    Py_XDECREF(tuple);
  }
  Py_XDECREF(bound);
  if (!result) return NULL;
  Py_DECREF(result);
  Py_RETURN_NONE;
}

static PyMemberDef launcher_members[] = {
    {"kernel", T_OBJECT, offsetof(LauncherObject, kernel), READONLY, "The kernel."},
    {"core_num", T_OBJECT, offsetof(LauncherObject, core_num), READONLY, "The core count."},
    {"stream", T_OBJECT, offsetof(LauncherObject, stream), READONLY, "The stream, or None."},
    {"__vectorcalloffset__", T_PYSSIZET, offsetof(LauncherObject, vectorcall), READONLY, NULL},
    {NULL, 0, 0, 0, NULL},
};

PyTypeObject AscLauncher_Type = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "pyasc._C.KernelLauncher",
    .tp_basicsize = sizeof(LauncherObject),
    .tp_dealloc = (destructor)launcher_dealloc,
    .tp_vectorcall_offset = offsetof(LauncherObject, vectorcall),
    .tp_call = PyVectorcall_Call,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_VECTORCALL,
    .tp_doc =
        "KernelLauncher(kernel, dispatch, core_num, stream, bind, /)\n--\n\n"
        "kernel[core_num, stream]: calling it launches the kernel (kernel.launch when "
        "no built kernel fits the arguments; kernel.bind first when bind is true).",
    .tp_members = launcher_members,
    .tp_new = launcher_new,
};

static PyObject *jit_build(PyObject *self, PyObject *args, PyObject *kwargs) {
  (void)self;
  static char *names[] = {"source",   "name",           "signature", "cache_dir",
                          "compiler", "always_compile", NULL};
  const char *source, *name, *signature, *cache_dir = NULL, *compiler = NULL;
  int always = 0;
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, "sss|zzp:jit_build", names, &source, &name,
                                   &signature, &cache_dir, &compiler, &always))
    return NULL;
  if (strlen(signature) > 64)
    return asc_py_raise_msg(ASC_ERR_COMPILE, "too many kernel parameters");
  asc_jit_options options = {cache_dir, compiler, always, NULL, false};
  asc_jit_kernel *k = NULL;
  bool hit = false;
  asc_status st;
  Py_BEGIN_ALLOW_THREADS
  st = asc_jit_build(source, name, &options, &k, &hit);
  Py_END_ALLOW_THREADS
  if (st) return asc_py_raise(st);
  /* The launcher trusts lengths only of the kernel's own addresses: a
   * signature that disagrees would pack memory it then ignores. */
  const char *params = asc_jit_params(k);
  bool agree = params ? strlen(params) == strlen(signature) : !*signature;
  for (size_t i = 0; agree && params && params[i]; i++)
    agree = (params[i] == 'a') == (signature[i] == 'a');
  if (!agree) { /* params lives in the kernel's library: release it last */
    asc_py_raise_msg(ASC_ERR_COMPILE,
                     "jit_build: signature '%.64s' does not match the kernel's parameters '%.64s'",
                     signature, params ? params : "");
    asc_jit_release(k);
    return NULL;
  }
  KernelObject *obj = PyObject_New(KernelObject, &AscKernel_Type);
  if (!obj) {
    asc_jit_release(k);
    return NULL;
  }
  obj->k = k;
  snprintf(obj->signature, sizeof obj->signature, "%s", signature);
  obj->nparams = (int)strlen(signature);
  return Py_BuildValue("(NO)", obj, hit ? Py_True : Py_False);
}

static PyObject *ascendc_build(PyObject *self, PyObject *args, PyObject *kwargs) {
  (void)self;
  static char *names[] = {"source", "name", "file", "checked", "cache_dir", "profiled", NULL};
  const char *source, *name, *file = NULL, *cache_dir = NULL;
  int checked = 0, profiled = 0;
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, "ss|zpzp:ascendc_build", names, &source, &name,
                                   &file, &checked, &cache_dir, &profiled))
    return NULL;
  asc_jit_options options = {cache_dir, NULL, false, NULL, true};
  asc_jit_kernel *k = NULL;
  bool hit = false;
  asc_status st;
  Py_BEGIN_ALLOW_THREADS
  st = asc_ascendc_build_mode(source, file, name, checked, profiled, &options, &k, &hit);
  Py_END_ALLOW_THREADS
  if (st) return asc_py_raise(st);
  /* The kernel's parameters, as kernel_operator.h's entry declares them. */
  const char *params = asc_jit_params(k);
  if (!params) {
    asc_jit_release(k);
    return asc_py_raise_msg(ASC_ERR_COMPILE, "Ascend C kernel '%s' declares no parameters", name);
  }
  KernelObject *obj = PyObject_New(KernelObject, &AscKernel_Type);
  if (!obj) {
    asc_jit_release(k);
    return NULL;
  }
  obj->k = k;
  snprintf(obj->signature, sizeof obj->signature, "%s", params);
  obj->nparams = (int)strlen(obj->signature);
  return Py_BuildValue("(NO)", obj, hit ? Py_True : Py_False);
}

static PyObject *ascendc_traits(PyObject *self, PyObject *arg) {
  (void)self;
  const char *source = PyUnicode_AsUTF8(arg);
  if (!source) return NULL;
  int live = 0, cube = 0, group = 0;
  asc_ascendc_traits(source, &live, &cube, &group);
  return Py_BuildValue("(iii)", live, cube, group);
}

static PyObject *write_dump(PyObject *self, PyObject *args) {
  (void)self;
  const char *name, *suffix, *text;
  Py_ssize_t len;
  if (!PyArg_ParseTuple(args, "sss#:write_dump", &name, &suffix, &text, &len)) return NULL;
  bool written = false;
  asc_status st;
  Py_BEGIN_ALLOW_THREADS
  st = asc_jit_dump(NULL, name, suffix, text, (size_t)len, &written);
  Py_END_ALLOW_THREADS
  if (st) return asc_py_raise(st);
  return PyBool_FromLong(written);
}

static PyObject *jit_cache_dir(PyObject *self, PyObject *args) {
  (void)self;
  const char *override = NULL;
  if (!PyArg_ParseTuple(args, "|z:jit_cache_dir", &override)) return NULL;
  char *dir = NULL;
  asc_status st = asc_jit_cache_dir(override, &dir);
  if (st) return asc_py_raise(st);
  PyObject *s = PyUnicode_DecodeFSDefault(dir);
  free(dir);
  return s;
}

static PyObject *jit_cache_limit(PyObject *self, PyObject *unused) {
  (void)self;
  (void)unused;
  uint64_t limit = 0;
  asc_status st = asc_jit_cache_limit(&limit);
  return st ? asc_py_raise(st) : PyLong_FromUnsignedLongLong(limit);
}

static PyObject *jit_wait_tiers(PyObject *self, PyObject *noargs) {
  (void)self, (void)noargs;
  Py_BEGIN_ALLOW_THREADS
  asc_jit_wait_tiers();
  Py_END_ALLOW_THREADS
  Py_RETURN_NONE;
}

static PyMethodDef kernel_functions[] = {
    {"jit_build", (PyCFunction)(void (*)(void))jit_build, METH_VARARGS | METH_KEYWORDS,
     ASC_DOC("jit_build($module, source, name, signature, cache_dir=None, compiler=None, "
             "always_compile=False)",
             "-> (CompiledKernel, cache_hit)")},
    {"ascendc_build", (PyCFunction)(void (*)(void))ascendc_build, METH_VARARGS | METH_KEYWORDS,
     ASC_DOC("ascendc_build($module, source, name, file=None, checked=False, cache_dir=None, "
             "profiled=False)",
             "Builds Ascend C source (C++17 against kernel_operator.h) whose kernel function is "
             "name, for the simulated cores (profiled: with the timing model's table, its records "
             "read by profile_records): -> (CompiledKernel, cache_hit).")},
    {"ascendc_traits", ascendc_traits, METH_O,
     ASC_DOC("ascendc_traits($module, source, /)",
             "What ascendc_build reads from Ascend C source: -> (all_live, cube, group), the "
             "PYASC_SIM_ALL_LIVE, PYASC_SIM_CUBE and PYASC_SIM_GROUP it defines.")},
    {"write_dump", write_dump, METH_VARARGS,
     ASC_DOC("write_dump($module, name, suffix, text, /)",
             "Writes text to $PYASC_DUMP_PATH/<name><suffix> (suffix .c, .ir or .ascendc.cpp) as "
             "safely as a cache entry; False when PYASC_DUMP_PATH is unset.")},
    {"jit_cache_dir", jit_cache_dir, METH_VARARGS,
     ASC_DOC("jit_cache_dir($module, override=None, /)",
             "The kernel cache directory in use (a str).")},
    {"set_launch_hooked", set_launch_hooked, METH_O,
     ASC_DOC("set_launch_hooked($module, flag, /)",
             "While true, no launch takes the C fast path: every launch goes through "
             "JITFunction.launch (and its launch hook).")},
    {"jit_wait_tiers", jit_wait_tiers, METH_NOARGS,
     ASC_DOC("jit_wait_tiers($module, /)",
             "Waits until every optimising build started behind a first-tier (TinyCC) build "
             "has been published to the cache and swapped in (PYASC_JIT_TIERS).")},
    {"jit_cache_limit", jit_cache_limit, METH_NOARGS,
     ASC_DOC("jit_cache_limit($module, /)", "The kernel cache's size limit in bytes (0: none).")},
    {NULL, NULL, 0, NULL},
};

int asc_py_kernel_init(PyObject *module) {
  if (PyType_Ready(&AscKernel_Type) < 0 || PyType_Ready(&AscDispatcher_Type) < 0 ||
      PyType_Ready(&AscLauncher_Type) < 0 ||
      PyModule_AddObjectRef(module, "KernelDispatcher", (PyObject *)&AscDispatcher_Type) < 0 ||
      PyModule_AddObjectRef(module, "KernelLauncher", (PyObject *)&AscLauncher_Type) < 0 ||
      PyModule_AddObjectRef(module, "CompiledKernel", (PyObject *)&AscKernel_Type) < 0)
    return -1;
  return PyModule_AddFunctions(module, kernel_functions);
}
