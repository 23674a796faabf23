/* Tensors from other objects' memory: the buffer protocol and DLPack
 * without a copy where the layout allows, the array importer, and
 * numpy.asarray copies for the rest (asc_py_as_tensor). */
#include "binding.h"

#include "../core/checked.h"

static void release_view_now(void *ctx) {
  PyBuffer_Release((Py_buffer *)ctx);
  PyMem_RawFree(ctx);
}

/* Storage release callback: may run on a stream thread without the GIL. */
static void release_view(void *ctx) {
  asc_py_call_with_gil(release_view_now, ctx);
}

/* The byte range [*lo, *hi) a buffer's view covers relative to view->buf;
 * 1 if its layout cannot be expressed in elements or overflows. */
static int buffer_extent(const Py_buffer *view, asc_dtype dtype, int64_t *lo, int64_t *hi) {
  if (view->ndim < 0 || view->ndim > ASC_MAX_DIMS ||
      (size_t)view->itemsize != asc_dtype_size(dtype))
    return 1;
  int64_t shape[ASC_MAX_DIMS], strides[ASC_MAX_DIMS];
  for (int i = 0; i < view->ndim; i++) {
    shape[i] = view->shape[i];
    strides[i] = view->strides[i];
    if (shape[i] < 0 || strides[i] % view->itemsize) return 1;
  }
  if (asc_check_shape(view->ndim, shape, dtype, NULL)) {
    asc_clear_error();
    return 1;
  }
  if (asc_shape_numel(view->ndim, shape) == 0) {
    *lo = *hi = 0;
    return 0;
  }
  if (asc_span_overflow(view->ndim, shape, strides, lo, hi) ||
      asc_add_overflow_i64(*hi, view->itemsize, hi))
    return 1;
  return 0;
}

/* Shares the memory of a buffer-protocol object, read-only when the object
 * lends it so (bytes, a non-writeable NumPy array). Returns 1 (and no
 * error) if its layout cannot be expressed in elements, so callers can copy;
 * -2 (an error set) if the object gave no buffer at all, -1 on other errors. */
int asc_py_tensor_from_buffer(PyObject *obj, asc_tensor *out) {
  Py_buffer *view = PyMem_RawMalloc(sizeof *view);
  if (!view) {
    PyErr_NoMemory();
    return -1;
  }
  bool readonly = false;
  if (PyObject_GetBuffer(obj, view, PyBUF_RECORDS) < 0) {
    PyErr_Clear();
    if (PyObject_GetBuffer(obj, view, PyBUF_RECORDS_RO) < 0) {
      PyMem_RawFree(view);
      return -2;
    }
    readonly = true;
  }
  readonly |= view->readonly != 0;
  asc_dtype dtype;
  int64_t lo = 0, hi = 0;
  int rc = asc_py_dtype_from_format(view->format, view->itemsize, &dtype);
  if (rc == 0) rc = buffer_extent(view, dtype, &lo, &hi);
  if (rc) {
    PyBuffer_Release(view);
    PyMem_RawFree(view);
    if (rc == 1) PyErr_Clear();
    return rc;
  }
  memset(out, 0, sizeof *out);
  char *base = (char *)view->buf + lo;
  asc_status st = asc_storage_wrap(asc_device_current(), base, (size_t)(hi - lo), release_view,
                                   view, &out->storage);
  if (st) {
    PyBuffer_Release(view);
    PyMem_RawFree(view);
    asc_py_raise(st);
    return -1;
  }
  if (readonly) asc_storage_set_readonly(out->storage);
  out->dtype = dtype;
  out->ndim = view->ndim;
  out->offset = -lo / view->itemsize;
  for (int i = 0; i < view->ndim; i++) {
    out->shape[i] = view->shape[i];
    out->strides[i] = view->strides[i] / view->itemsize;
  }
  return 0;
}

static int convert_dtype(asc_tensor *t, asc_dtype dtype) {
  if (dtype == ASC_DTYPE_COUNT || dtype == t->dtype) return 0;
  asc_tensor converted = {0};
  asc_status st = asc_cast(t, dtype, &converted);
  asc_tensor_release(t);
  if (st) {
    asc_py_raise(st);
    return -1;
  }
  *t = converted;
  return 0;
}

/* Shares the memory of a DLPack producer (a PyTorch tensor, any strides)
 * through pyasc.from_dlpack. */
static int tensor_from_dlpack(PyObject *obj, asc_tensor *out) {
  static PyObject *from_dlpack;
  if (!from_dlpack) {
    PyObject *module = PyImport_ImportModule("pyasc._C");
    from_dlpack = module ? PyObject_GetAttrString(module, "from_dlpack") : NULL;
    Py_XDECREF(module);
    if (!from_dlpack) return -1;
  }
  PyObject *t = PyObject_CallOneArg(from_dlpack, obj);
  if (!t) return -1;
  int rc = AscTensor_Check(t) ? 0 : -1;
  if (!rc) asc_tensor_share(&((TensorObject *)t)->t, out);
  Py_DECREF(t);
  return rc;
}

/* Set by _set_array_importer (pyasc.npu: torch's npu tensors): called with
 * an object that neither the buffer protocol nor DLPack could share, it
 * returns a host view of the object's memory that DLPack can share, or None.
 * Owned here; NULL when none is set. */
static PyObject *array_importer;

PyObject *asc_py_set_array_importer(PyObject *self, PyObject *fn) {
  (void)self;
  if (fn != Py_None && !PyCallable_Check(fn))
    return PyErr_Format(PyExc_TypeError, "_set_array_importer: expected a callable or None");
  PyObject *previous = array_importer ? array_importer : Py_NewRef(Py_None);
  array_importer = fn == Py_None ? NULL : Py_NewRef(fn);
  return previous; /* the reference array_importer held, or a new one to None */
}

/* 0: shared through the importer; 1: the importer declined (or none is
 * set); -1: error. */
static int tensor_from_importer(PyObject *obj, asc_tensor *out) {
  if (!array_importer) return 1;
  PyObject *view = PyObject_CallOneArg(array_importer, obj);
  if (!view) return -1;
  int rc = view == Py_None ? 1 : tensor_from_dlpack(view, out);
  Py_DECREF(view);
  return rc;
}

/* A copy made from memory the caller owns (a NumPy array) must not see the
 * caller's later writes to it: it is finished before the call returns. */
int asc_py_finish_copy_of(PyObject *source, asc_tensor *copy) {
  if (AscTensor_Check(source) || !PyObject_CheckBuffer(source) || !asc_py_sync_for_host()) return 0;
  asc_tensor_release(copy);
  return -1;
}

int asc_py_as_tensor(PyObject *obj, asc_dtype dtype, asc_tensor *out) {
  asc_py_run_deferred();
  if (AscTensor_Check(obj)) {
    asc_status st = asc_tensor_check_input(&((TensorObject *)obj)->t);
    if (st) {
      asc_py_raise(st);
      return -1;
    }
    asc_tensor_share(&((TensorObject *)obj)->t, out);
    return convert_dtype(out, dtype);
  }
  int rc = PyObject_CheckBuffer(obj) ? asc_py_tensor_from_buffer(obj, out) : 1;
  /* DLPack when there is no buffer, or when its exporter could not describe
   * it (PEP 3118 has no bfloat16: TensorFlow's bfloat16 tensors). Not for a
   * described buffer of a type pyasc lacks (strings): NumPy reports those,
   * and TensorFlow aborts the process when asked to export one by DLPack. */
  bool try_dlpack = rc == -2 || !PyObject_CheckBuffer(obj);
  if (rc < 0) PyErr_Clear(); /* not a usable buffer: let NumPy convert it */
  if (rc != 0 && try_dlpack && PyObject_HasAttrString(obj, "__dlpack__")) {
    rc = tensor_from_dlpack(obj, out);
    if (rc) PyErr_Clear(); /* a layout DLPack cannot share: NumPy copies */
  }
  if (rc != 0 && !PyObject_CheckBuffer(obj)) {
    rc = tensor_from_importer(obj, out);
    if (rc < 0) return -1;
  }
  if (rc != 0) {
    PyObject *np = asc_py_numpy();
    if (!np) return -1;
    /* asarray(obj, None, "C"), not ascontiguousarray: that one makes 0-d
     * results 1-d. */
    PyObject *array = PyObject_CallMethod(np, "asarray", "OOs", obj, Py_None, "C");
    if (!array) return -1;
    rc = asc_py_tensor_from_buffer(array, out);
    Py_DECREF(array);
    if (rc == 1) asc_py_raise_msg(ASC_ERR_TYPE, "cannot convert %R to a tensor", obj);
    if (rc) return -1;
  }
  bool copies = dtype != ASC_DTYPE_COUNT && dtype != out->dtype;
  if (convert_dtype(out, dtype)) return -1;
  return copies ? asc_py_finish_copy_of(obj, out) : 0;
}
