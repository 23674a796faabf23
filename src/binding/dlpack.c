/* DLPack exchange: Tensor.__dlpack__ and __dlpack_device__ lend a tensor's
 * memory to NumPy, PyTorch, JAX, ...; pyasc.from_dlpack borrows theirs. Both
 * ways share memory without a copy: pyasc device memory is host memory, so
 * every pyasc device is DLPack's (kDLCPU, 0). */
#include "binding.h"

/* after binding.h, whose Python.h must come first */
#include "asc_docstrings.h" /* generated from docs/docstrings (tools/gen_docstrings.py) */

/* after binding.h, whose Python.h must come first */
#include <stdbool.h>
#include <stdlib.h>

#include "../core/checked.h"
#include "dlpack.h"

/* --- dtypes --------------------------------------------------------------- */

static const DLDataType dl_dtypes[ASC_DTYPE_COUNT] = {
    [ASC_BOOL] = {kDLBool, 8, 1},
    [ASC_INT8] = {kDLInt, 8, 1},
    [ASC_UINT8] = {kDLUInt, 8, 1},
    [ASC_INT16] = {kDLInt, 16, 1},
    [ASC_INT32] = {kDLInt, 32, 1},
    [ASC_INT64] = {kDLInt, 64, 1},
    [ASC_FLOAT16] = {kDLFloat, 16, 1},
    [ASC_BFLOAT16] = {kDLBfloat, 16, 1},
    [ASC_FLOAT32] = {kDLFloat, 32, 1},
    [ASC_FLOAT64] = {kDLFloat, 64, 1},
    [ASC_UINT16] = {kDLUInt, 16, 1},
    [ASC_UINT32] = {kDLUInt, 32, 1},
    [ASC_UINT64] = {kDLUInt, 64, 1},
    [ASC_COMPLEX64] = {kDLComplex, 64, 1},
    [ASC_COMPLEX128] = {kDLComplex, 128, 1},
};

static const char *dl_code_name(uint8_t code) {
  static const char *const names[] = {"int",    "uint",    "float", "opaque handle",
                                      "bfloat", "complex", "bool"};
  return code < sizeof names / sizeof names[0] ? names[code] : "float8/other";
}

static int dtype_from_dl(DLDataType dt, asc_dtype *out) {
  for (int d = 0; d < ASC_DTYPE_COUNT; d++) {
    if (dl_dtypes[d].code == dt.code && dl_dtypes[d].bits == dt.bits &&
        dl_dtypes[d].lanes == dt.lanes) {
      *out = (asc_dtype)d;
      return 0;
    }
  }
  asc_py_raise_msg(
      ASC_ERR_TYPE,
      "from_dlpack: DLPack element type (%s, %u bits, %u lanes; code %u) has no "
      "pyasc dtype (pyasc has bool, int8/16/32/64, uint8/16/32/64, float16/32/64, bfloat16, "
      "complex64/128)",
      dl_code_name(dt.code), (unsigned)dt.bits, (unsigned)dt.lanes, (unsigned)dt.code);
  return -1;
}

static const char *dl_device_name(int type) {
  switch (type) {
    case kDLCPU:
      return "CPU";
    case kDLCUDA:
      return "CUDA";
    case kDLCUDAHost:
      return "CUDA host";
    case kDLROCM:
      return "ROCm";
    case kDLCUDAManaged:
      return "CUDA managed";
    case kDLMetal:
      return "Metal";
    case kDLOneAPI:
      return "oneAPI";
    default:
      return "non-CPU";
  }
}

/* --- export ---------------------------------------------------------------- */

/* One allocation per export: the managed tensor, the storage reference it
 * keeps alive, and the shape and strides it points to. */
typedef struct {
  union {
    DLManagedTensor legacy;
    DLManagedTensorVersioned versioned;
  } managed;
  asc_storage *storage;
  int64_t shape[ASC_MAX_DIMS];
  int64_t strides[ASC_MAX_DIMS];
} dl_export;

/* The consumer may drop the tensor on any thread, holding the GIL or not:
 * the deleters touch only libasc, which needs neither. */
static void export_free(dl_export *e) {
  asc_storage_release(e->storage);
  free(e);
}

static void delete_legacy(DLManagedTensor *m) {
  export_free(m->manager_ctx);
}

static void delete_versioned(DLManagedTensorVersioned *m) {
  export_free(m->manager_ctx);
}

/* A capsule nobody consumed still owns its tensor; a consumed one was
 * renamed "used_..." and its consumer calls the deleter. */
static void destroy_legacy_capsule(PyObject *capsule) {
  if (!PyCapsule_IsValid(capsule, DLPACK_CAPSULE_LEGACY)) return;
  DLManagedTensor *m = PyCapsule_GetPointer(capsule, DLPACK_CAPSULE_LEGACY);
  if (m->deleter) m->deleter(m);
}

static void destroy_versioned_capsule(PyObject *capsule) {
  if (!PyCapsule_IsValid(capsule, DLPACK_CAPSULE_VERSIONED)) return;
  DLManagedTensorVersioned *m = PyCapsule_GetPointer(capsule, DLPACK_CAPSULE_VERSIONED);
  if (m->deleter) m->deleter(m);
}

static PyObject *make_capsule(const asc_tensor *t, bool versioned, bool copied) {
  dl_export *e = calloc(1, sizeof *e);
  if (!e) return PyErr_NoMemory();
  asc_storage_retain(t->storage);
  e->storage = t->storage;
  memcpy(e->shape, t->shape, sizeof e->shape);
  memcpy(e->strides, t->strides, sizeof e->strides);
  DLTensor dl = {
      .data = asc_tensor_data(t),
      .device = {kDLCPU, 0},
      .ndim = t->ndim,
      .dtype = dl_dtypes[t->dtype],
      .shape = e->shape,
      .strides = e->strides,
      .byte_offset = 0,
  };
  PyObject *capsule;
  if (versioned) {
    DLManagedTensorVersioned *m = &e->managed.versioned;
    m->version = (DLPackVersion){DLPACK_MAJOR_VERSION, DLPACK_MINOR_VERSION};
    m->manager_ctx = e;
    m->deleter = delete_versioned;
    m->flags = (copied ? DLPACK_FLAG_BITMASK_IS_COPIED : 0) |
               (asc_storage_readonly(t->storage) ? DLPACK_FLAG_BITMASK_READ_ONLY : 0);
    m->dl_tensor = dl;
    capsule = PyCapsule_New(m, DLPACK_CAPSULE_VERSIONED, destroy_versioned_capsule);
  } else {
    DLManagedTensor *m = &e->managed.legacy;
    m->manager_ctx = e;
    m->deleter = delete_legacy;
    m->dl_tensor = dl;
    capsule = PyCapsule_New(m, DLPACK_CAPSULE_LEGACY, destroy_legacy_capsule);
  }
  if (!capsule) export_free(e);
  return capsule;
}

/* copy: None, True or False as -1, 1, 0. */
static int parse_copy(PyObject *obj, int *copy) {
  if (!obj || obj == Py_None) {
    *copy = -1;
    return 0;
  }
  if (!PyBool_Check(obj)) {
    PyErr_Format(PyExc_TypeError, "copy must be True, False or None, not %R", obj);
    return -1;
  }
  *copy = obj == Py_True;
  return 0;
}

/* (a, b) with two ints. */
static int parse_int_pair(PyObject *obj, const char *what, long *a, long *b) {
  if (!PyTuple_Check(obj) || PyTuple_GET_SIZE(obj) != 2 ||
      !PyLong_Check(PyTuple_GET_ITEM(obj, 0)) || !PyLong_Check(PyTuple_GET_ITEM(obj, 1))) {
    PyErr_Format(PyExc_TypeError, "%s must be a tuple of two ints, not %R", what, obj);
    return -1;
  }
  *a = PyLong_AsLong(PyTuple_GET_ITEM(obj, 0));
  if (*a == -1 && PyErr_Occurred()) return -1;
  *b = PyLong_AsLong(PyTuple_GET_ITEM(obj, 1));
  return *b == -1 && PyErr_Occurred() ? -1 : 0;
}

/* Host memory has no streams: the standard asks for None; -1 ("do not
 * synchronise") is accepted, but the export waits for pending work anyway
 * because a host consumer reads at once. */
static int check_stream(PyObject *obj) {
  if (!obj || obj == Py_None) return 0;
  if (PyLong_Check(obj) && !PyBool_Check(obj)) {
    long v = PyLong_AsLong(obj);
    if (v == -1 && !PyErr_Occurred()) return 0;
    PyErr_Clear();
  }
  asc_py_raise_msg(ASC_ERR_INVALID_VALUE,
                   "__dlpack__: stream must be None (or -1) for host memory, not %R", obj);
  return -1;
}

static int parse_max_version(PyObject *obj, bool *versioned) {
  long major, minor;
  *versioned = false;
  if (!obj || obj == Py_None) return 0;
  if (parse_int_pair(obj, "max_version", &major, &minor)) return -1;
  *versioned = major >= DLPACK_MAJOR_VERSION;
  return 0;
}

static int check_dl_device(PyObject *obj) {
  long type, id;
  if (!obj || obj == Py_None) return 0;
  if (parse_int_pair(obj, "dl_device", &type, &id)) return -1;
  if (type == kDLCPU && id == 0) return 0;
  PyErr_Format(PyExc_BufferError,
               "__dlpack__: cannot export to DLPack device (%ld, %ld): pyasc tensors live in "
               "host memory, device (%d, 0)",
               type, id, (int)kDLCPU);
  return -1;
}

static int check_host_visible(const asc_tensor *t) {
  asc_device_props props;
  asc_status st = asc_device_get_props(asc_tensor_device(t), &props);
  if (st) {
    asc_py_raise(st);
    return -1;
  }
  if (props.host_visible) return 0;
  PyErr_SetString(PyExc_BufferError, "the tensor's device memory is not host-visible");
  return -1;
}

static PyObject *tensor_dlpack(PyObject *self, PyObject *const *args, Py_ssize_t nargs,
                               PyObject *kwnames) {
  static const char *const names[] = {"stream", "max_version", "dl_device", "copy", NULL};
  PyObject *a[4] = {NULL, NULL, NULL, NULL};
  if (nargs) return PyErr_Format(PyExc_TypeError, "__dlpack__() takes keyword arguments only");
  bool versioned;
  int copy;
  if (asc_py_parse("__dlpack__", args, nargs, kwnames, names, 0, a) || check_stream(a[0]) ||
      parse_max_version(a[1], &versioned) || check_dl_device(a[2]) || parse_copy(a[3], &copy))
    return NULL;
  const asc_tensor *t = &((TensorObject *)self)->t;
  if (check_host_visible(t)) return NULL;
  /* As NumPy: a legacy capsule cannot say that its memory is read-only. */
  if (!versioned && copy != 1 && asc_storage_readonly(t->storage)) {
    PyErr_SetString(PyExc_BufferError,
                    "__dlpack__: the tensor shares read-only memory, which a legacy (pre-1.0) "
                    "DLPack capsule cannot mark: ask for max_version=(1, 0) or copy=True");
    return NULL;
  }
  asc_tensor src = {0};
  if (copy == 1) {
    asc_status st = asc_cast(t, t->dtype, &src);
    if (st) return asc_py_raise(st);
  } else {
    asc_tensor_share(t, &src);
  }
  PyObject *capsule =
      asc_py_sync_tensor_for_host(t) ? NULL : make_capsule(&src, versioned, copy == 1);
  asc_tensor_release(&src);
  return capsule;
}

static PyObject *tensor_dlpack_device(PyObject *self, PyObject *noargs) {
  (void)self, (void)noargs;
  return Py_BuildValue("(ii)", (int)kDLCPU, 0);
}

/* --- import ---------------------------------------------------------------- */

/* Storage release callbacks of imported memory: they hand the tensor back to
 * its producer. The last reference may drop on a stream thread (a kernel
 * held it), and producers' deleters may run Python code (NumPy's takes the
 * GIL; PyTorch's may release a tensor that has a Python object), which a
 * non-Python thread must not start while the interpreter finalises: the
 * deleter runs on a Python thread (deferred.c), or is skipped at exit. */
static void delete_legacy_now(void *ctx) {
  DLManagedTensor *m = ctx;
  if (m->deleter) m->deleter(m);
}

static void delete_versioned_now(void *ctx) {
  DLManagedTensorVersioned *m = ctx;
  if (m->deleter) m->deleter(m);
}

static void release_legacy(void *ctx) {
  asc_py_call_with_gil(delete_legacy_now, ctx);
}

static void release_versioned(void *ctx) {
  asc_py_call_with_gil(delete_versioned_now, ctx);
}

typedef struct {
  const DLTensor *dl;
  void *managed;
  void (*release)(void *ctx);
  const char *used_name;
  bool readonly;
} dl_import;

static int open_capsule(PyObject *capsule, dl_import *in) {
  const char *name = PyCapsule_GetName(capsule);
  if (!name && PyErr_Occurred()) return -1;
  if (name && !strcmp(name, DLPACK_CAPSULE_VERSIONED)) {
    DLManagedTensorVersioned *m = PyCapsule_GetPointer(capsule, name);
    if (!m) return -1;
    if (m->version.major != DLPACK_MAJOR_VERSION) {
      PyErr_Format(PyExc_BufferError, "from_dlpack: DLPack version %u.%u is not supported (1.x is)",
                   (unsigned)m->version.major, (unsigned)m->version.minor);
      return -1;
    }
    *in = (dl_import){&m->dl_tensor, m, release_versioned, DLPACK_CAPSULE_VERSIONED_USED,
                      (m->flags & DLPACK_FLAG_BITMASK_READ_ONLY) != 0};
    return 0;
  }
  if (name && !strcmp(name, DLPACK_CAPSULE_LEGACY)) {
    DLManagedTensor *m = PyCapsule_GetPointer(capsule, name);
    if (!m) return -1;
    *in = (dl_import){&m->dl_tensor, m, release_legacy, DLPACK_CAPSULE_LEGACY_USED, false};
    return 0;
  }
  if (name &&
      (!strcmp(name, DLPACK_CAPSULE_LEGACY_USED) || !strcmp(name, DLPACK_CAPSULE_VERSIONED_USED))) {
    asc_py_raise_msg(ASC_ERR_INVALID_VALUE,
                     "from_dlpack: this DLPack capsule was already consumed (a capsule can be "
                     "imported only once)");
    return -1;
  }
  PyErr_Format(PyExc_TypeError,
               "from_dlpack: expected a DLPack capsule named 'dltensor' or "
               "'dltensor_versioned', not '%s'",
               name ? name : "(null)");
  return -1;
}

/* Reads dtype, shape and strides into t and the byte range [*lo, *hi) the
 * view covers, relative to its first element. */
static int read_layout(const DLTensor *dl, asc_tensor *t, int64_t *lo, int64_t *hi) {
  if (dl->device.device_type != kDLCPU) {
    asc_py_raise_msg(ASC_ERR_UNSUPPORTED,
                     "from_dlpack: the tensor lives on DLPack device (%d, %d) (%s); pyasc can "
                     "only share host memory (kDLCPU): copy it to the CPU first",
                     (int)dl->device.device_type, (int)dl->device.device_id,
                     dl_device_name(dl->device.device_type));
    return -1;
  }
  if (dl->ndim < 0 || dl->ndim > ASC_MAX_DIMS) {
    asc_py_raise_msg(ASC_ERR_INVALID_VALUE, "from_dlpack: %d dimensions (at most %d)",
                     (int)dl->ndim, ASC_MAX_DIMS);
    return -1;
  }
  if (dl->ndim && !dl->shape) {
    asc_py_raise_msg(ASC_ERR_INVALID_VALUE, "from_dlpack: the DLPack tensor has no shape");
    return -1;
  }
  memset(t, 0, sizeof *t);
  if (dtype_from_dl(dl->dtype, &t->dtype)) return -1;
  int64_t item = (int64_t)asc_dtype_size(t->dtype), stride = 1, unused;
  bool overflow = false;
  t->ndim = dl->ndim;
  for (int i = t->ndim - 1; i >= 0; i--) {
    if (dl->shape[i] < 0) {
      asc_py_raise_msg(ASC_ERR_INVALID_VALUE, "from_dlpack: negative dimension %lld",
                       (long long)dl->shape[i]);
      return -1;
    }
    t->shape[i] = dl->shape[i];
    t->strides[i] = dl->strides ? dl->strides[i] : stride;
    /* Byte strides must fit even when the tensor is empty: they are exported. */
    overflow |= asc_mul_overflow_i64(t->strides[i], item, &unused);
    if (asc_mul_overflow_i64(stride, dl->shape[i] > 1 ? dl->shape[i] : 1, &stride))
      stride = INT64_MAX;
  }
  *lo = *hi = 0;
  if (asc_shape_numel(t->ndim, t->shape) > 0)
    overflow |= asc_span_overflow(t->ndim, t->shape, t->strides, lo, hi) ||
                asc_add_overflow_i64(*hi, 1, hi) || asc_mul_overflow_i64(*lo, item, lo) ||
                asc_mul_overflow_i64(*hi, item, hi) || *hi - *lo > ASC_MAX_TENSOR_BYTES;
  if (overflow) {
    asc_py_raise_msg(ASC_ERR_INVALID_VALUE, "from_dlpack: the tensor's extent overflows");
    return -1;
  }
  asc_status st = asc_check_shape(t->ndim, t->shape, t->dtype, NULL);
  if (st) asc_py_raise(st);
  return st ? -1 : 0;
}

/* Wraps the capsule's memory (no copy) in *out and marks the capsule used. */
static int import_capsule(PyObject *capsule, int device, asc_tensor *out) {
  dl_import in;
  int64_t lo, hi;
  if (open_capsule(capsule, &in) || read_layout(in.dl, out, &lo, &hi)) return -1;
  /* Empty tensors may come with NULL data (PyTorch's do). */
  static char no_data;
  uintptr_t address = (uintptr_t)in.dl->data, start, end;
  if (address &&
      (in.dl->byte_offset > (uint64_t)INT64_MAX ||
       asc_offset_overflow_uptr(address, (int64_t)in.dl->byte_offset, &start) ||
       asc_offset_overflow_uptr(start, lo, &end) || asc_offset_overflow_uptr(start, hi, &end))) {
    asc_py_raise_msg(ASC_ERR_INVALID_VALUE,
                     "from_dlpack: data + byte_offset %llu lies beyond the address space",
                     (unsigned long long)in.dl->byte_offset);
    return -1;
  }
  char *first = address ? (char *)in.dl->data + in.dl->byte_offset : NULL;
  if (!first && hi > lo) {
    asc_py_raise_msg(ASC_ERR_INVALID_VALUE, "from_dlpack: the DLPack tensor's data is NULL");
    return -1;
  }
  /* From here the producer's tensor is ours to release, whatever happens. */
  if (PyCapsule_SetName(capsule, in.used_name)) return -1;
  asc_status st = asc_storage_wrap(device, first ? first + lo : &no_data, (size_t)(hi - lo),
                                   in.release, in.managed, &out->storage);
  if (st) {
    in.release(in.managed);
    out->storage = NULL;
    asc_py_raise(st);
    return -1;
  }
  if (in.readonly) asc_storage_set_readonly(out->storage);
  out->offset = -lo / (int64_t)asc_dtype_size(out->dtype);
  return 0;
}

/* The DLPack device of an object that says, or kDLCPU. */
static int check_producer_device(PyObject *x) {
  PyObject *dev = PyObject_CallMethod(x, "__dlpack_device__", NULL);
  if (!dev) {
    if (!PyErr_ExceptionMatches(PyExc_AttributeError)) return -1;
    PyErr_Clear();
    return 0;
  }
  long type, id;
  int rc = parse_int_pair(dev, "__dlpack_device__()", &type, &id);
  Py_DECREF(dev);
  if (rc || type == kDLCPU) return rc;
  asc_py_raise_msg(ASC_ERR_UNSUPPORTED,
                   "from_dlpack: %.100s lives on DLPack device (%ld, %ld) (%s); pyasc can only "
                   "share host memory (kDLCPU): copy it to the CPU first",
                   Py_TYPE(x)->tp_name, type, id, dl_device_name((int)type));
  return -1;
}

/* x.__dlpack__(), asking for a versioned capsule from producers that know
 * max_version (new reference). */
static PyObject *request_capsule(PyObject *x) {
  PyObject *method = PyObject_GetAttrString(x, "__dlpack__");
  if (!method) {
    if (!PyErr_ExceptionMatches(PyExc_AttributeError)) return NULL;
    PyErr_Clear();
    return PyErr_Format(PyExc_TypeError,
                        "from_dlpack needs an object with __dlpack__ (a NumPy array, a PyTorch "
                        "or JAX tensor, ...) or a DLPack capsule, not %.100s",
                        Py_TYPE(x)->tp_name);
  }
  PyObject *capsule = NULL;
  if (!check_producer_device(x)) {
    PyObject *kwargs =
        Py_BuildValue("{s:(ii)}", "max_version", DLPACK_MAJOR_VERSION, DLPACK_MINOR_VERSION);
    PyObject *empty = kwargs ? PyTuple_New(0) : NULL;
    capsule = empty ? PyObject_Call(method, empty, kwargs) : NULL;
    Py_XDECREF(empty);
    Py_XDECREF(kwargs);
    if (!capsule && PyErr_ExceptionMatches(PyExc_TypeError)) {
      PyErr_Clear(); /* a producer from before DLPack 1.0 */
      capsule = PyObject_CallNoArgs(method);
    }
  }
  Py_DECREF(method);
  if (capsule && !PyCapsule_CheckExact(capsule)) {
    PyErr_Format(PyExc_TypeError, "%.100s.__dlpack__() returned %.100s, not a capsule",
                 Py_TYPE(x)->tp_name, Py_TYPE(capsule)->tp_name);
    Py_CLEAR(capsule);
  }
  return capsule;
}

static PyObject *dlpack_capsule(PyObject *x) {
  return PyCapsule_CheckExact(x) ? Py_NewRef(x) : request_capsule(x);
}

/* A private copy of t, ready before the original goes back to its owner. */
static int copy_tensor(asc_tensor *t) {
  asc_tensor copy = {0};
  asc_status st = asc_cast(t, t->dtype, &copy);
  if (!st && asc_py_wait(asc_stream_synchronize_for, ASC_STREAM_CURRENT, &st)) {
    asc_tensor_release(t);
    asc_tensor_release(&copy);
    return -1;
  }
  asc_tensor_release(t);
  if (st) {
    asc_tensor_release(&copy);
    asc_py_raise(st);
    return -1;
  }
  *t = copy;
  return 0;
}

static PyObject *from_dlpack(PyObject *self, PyObject *const *args, Py_ssize_t nargs,
                             PyObject *kwnames) {
  (void)self;
  static const char *const names[] = {"x", "device", "copy", NULL};
  PyObject *a[3] = {NULL, NULL, NULL};
  if (nargs > 1)
    return PyErr_Format(PyExc_TypeError, "from_dlpack() takes 1 positional argument (%zd given)",
                        nargs);
  int device = asc_device_current(), copy;
  if (asc_py_parse("from_dlpack", args, nargs, kwnames, names, 1, a) ||
      (a[1] && a[1] != Py_None && asc_py_device_spec(a[1], &device)) || parse_copy(a[2], &copy))
    return NULL;
  asc_tensor t;
  if (AscTensor_Check(a[0]) && asc_tensor_device(&((TensorObject *)a[0])->t) == device) {
    asc_tensor_share(&((TensorObject *)a[0])->t, &t);
  } else {
    PyObject *capsule = dlpack_capsule(a[0]);
    int rc = capsule ? import_capsule(capsule, device, &t) : -1;
    Py_XDECREF(capsule);
    if (rc) return NULL;
  }
  if (copy == 1 && copy_tensor(&t)) return NULL;
  return asc_py_tensor_wrap(&t);
}

/* --- registration -------------------------------------------------------- */

static PyMethodDef dlpack_methods[] = {
    {"__dlpack__", (PyCFunction)(void (*)(void))tensor_dlpack, METH_FASTCALL | METH_KEYWORDS,
     ASC_DOC(
         "__dlpack__($self, stream=None, max_version=None, dl_device=None, copy=None)",
         "Exports the tensor as DLPack (the Python array API protocol): a 'dltensor_versioned' "
         "capsule when max_version is (1, x) or later, else a legacy 'dltensor' one. The memory is "
         "shared unless copy=True; pending work on the current stream is waited for first.")},
    {"__dlpack_device__", tensor_dlpack_device, METH_NOARGS,
     ASC_DOC("__dlpack_device__($self, /)",
             "The DLPack device, (1, 0): kDLCPU, as pyasc device memory is host memory.")},
    {NULL, NULL, 0, NULL},
};

static PyMethodDef dlpack_functions[] = {
    {"from_dlpack", (PyCFunction)(void (*)(void))from_dlpack, METH_FASTCALL | METH_KEYWORDS,
     ASC_DOC("from_dlpack($module, x, device=None, copy=None)", ASC_DOCTEXT_from_dlpack)},
    {NULL, NULL, 0, NULL},
};

int asc_py_dlpack_init(PyObject *module) {
  if (asc_py_tensor_add_methods(dlpack_methods)) return -1;
  return PyModule_AddFunctions(module, dlpack_functions);
}
