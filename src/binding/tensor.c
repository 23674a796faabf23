/* pyasc.Tensor: creation, NumPy exchange, properties and view methods. */
#include "binding.h"

/* after binding.h, whose Python.h must come first */
#include "asc_docstrings.h" /* generated from docs/docstrings (tools/gen_docstrings.py) */

#include "../core/checked.h"
#include "asc/ops_create.h"

static PyObject *numpy_module;

PyObject *asc_py_numpy(void) {
  if (!numpy_module) numpy_module = PyImport_ImportModule("numpy");
  return numpy_module;
}

/* A Tensor holds no Python references it could form a cycle through (its
 * storage exists before it), so it is not tracked by the cyclic GC: every
 * result of an operation would otherwise count towards a collection. */
PyObject *asc_py_tensor_wrap(asc_tensor *t) {
  TensorObject *obj = PyObject_New(TensorObject, &AscTensor_Type);
  if (!obj) {
    asc_tensor_release(t);
    return NULL;
  }
  obj->t = *t;
  obj->exports = 0;
  obj->weakreflist = NULL;
  memset(t, 0, sizeof *t);
  return (PyObject *)obj;
}

int asc_py_parse_out(const char *fname, PyObject **out) {
  if (*out == Py_None) *out = NULL;
  if (*out && !AscTensor_Check(*out)) {
    PyErr_Format(PyExc_TypeError, "%s: out must be a pyasc.Tensor, not %.100s", fname,
                 Py_TYPE(*out)->tp_name);
    return -1;
  }
  return 0;
}

PyObject *asc_py_result(asc_status st, asc_tensor *result, PyObject *out) {
  if (!st && !out) return asc_py_tensor_wrap(result);
  asc_tensor_release(result);
  return st ? asc_py_raise(st) : Py_NewRef(out);
}

int asc_py_sync_for_host(void) {
  return asc_py_sync_stream(ASC_STREAM_CURRENT);
}

int asc_py_sync_tensor_for_host(const asc_tensor *t) {
  if (asc_py_sync_for_host()) return -1;
  asc_status st = asc_tensor_check_valid(t);
  if (st) asc_py_raise(st);
  return st ? -1 : 0;
}

/* --- construction ------------------------------------------------------- */

static int parse_dtype_arg(PyObject *obj, asc_dtype *dtype) {
  *dtype = ASC_DTYPE_COUNT;
  return obj && obj != Py_None ? asc_py_dtype(obj, dtype) : 0;
}

/* A private copy of any array-like (NumPy's np.array(obj, dtype)). */
static PyObject *tensor_new(PyTypeObject *type, PyObject *args, PyObject *kwargs) {
  (void)type;
  static char *names[] = {"data", "dtype", NULL};
  PyObject *data, *dtype_obj = NULL;
  asc_dtype dtype;
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O|O:Tensor", names, &data, &dtype_obj) ||
      parse_dtype_arg(dtype_obj, &dtype))
    return NULL;
  asc_tensor src, copy = {0};
  if (asc_py_as_tensor(data, ASC_DTYPE_COUNT, &src)) return NULL;
  asc_status st = asc_cast(&src, dtype == ASC_DTYPE_COUNT ? src.dtype : dtype, &copy);
  asc_tensor_release(&src);
  if (st) return asc_py_raise(st);
  return asc_py_finish_copy_of(data, &copy) ? NULL : asc_py_tensor_wrap(&copy);
}

static PyObject *from_numpy(PyObject *self, PyObject *array) {
  (void)self;
  asc_tensor t;
  int rc = PyObject_CheckBuffer(array) ? asc_py_tensor_from_buffer(array, &t) : 1;
  if (rc == 1)
    return asc_py_raise_msg(ASC_ERR_TYPE,
                            "from_numpy needs an array whose memory can be shared, not %.100s",
                            Py_TYPE(array)->tp_name);
  return rc ? NULL : asc_py_tensor_wrap(&t);
}

static PyObject *asarray(PyObject *self, PyObject *args, PyObject *kwargs) {
  (void)self;
  static char *names[] = {"data", "dtype", NULL};
  PyObject *data, *dtype_obj = NULL;
  asc_dtype dtype;
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O|O:asarray", names, &data, &dtype_obj) ||
      parse_dtype_arg(dtype_obj, &dtype))
    return NULL;
  if (AscTensor_Check(data) &&
      (dtype == ASC_DTYPE_COUNT || dtype == ((TensorObject *)data)->t.dtype))
    return Py_NewRef(data);
  asc_tensor t;
  return asc_py_as_tensor(data, dtype, &t) ? NULL : asc_py_tensor_wrap(&t);
}

/* NumPy ignores any error from the buffer protocol and then asks __array__,
 * by which time the deferred device error has been reported once and the
 * stream looks healthy: the array would hold garbage. The failure is kept
 * here (under the GIL) so that __array__ of the same tensor raises it again. */
static const TensorObject *failed_export;
static asc_status failed_status;
static char failed_msg[1024];

static int sync_for_export(const TensorObject *self) {
  failed_export = NULL;
  asc_status st;
  if (asc_py_wait(asc_stream_synchronize_for, ASC_STREAM_CURRENT, &st)) return -1;
  if (!st) st = asc_tensor_check_valid(&self->t);
  if (!st) return 0;
  failed_export = self;
  failed_status = st;
  snprintf(failed_msg, sizeof failed_msg, "%s", asc_last_error());
  asc_py_raise(st);
  return -1;
}

/* Raises the failure a buffer export of self just reported, if any. */
static int reraise_failed_export(const TensorObject *self) {
  if (failed_export != self) return 0;
  failed_export = NULL;
  asc_py_raise_msg(failed_status, "%s", failed_msg);
  return -1;
}

static void tensor_dealloc(TensorObject *self) {
  if (self->weakreflist) PyObject_ClearWeakRefs((PyObject *)self);
  if (failed_export == self) failed_export = NULL;
  asc_tensor_release(&self->t);
  Py_TYPE(self)->tp_free((PyObject *)self);
}

/* --- buffer protocol and NumPy export ----------------------------------- */

static int tensor_getbuffer(TensorObject *self, Py_buffer *view, int flags) {
  const asc_tensor *t = &self->t;
  if (t->dtype == ASC_BFLOAT16) {
    PyErr_SetString(PyExc_BufferError,
                    "bfloat16 has no buffer format: use numpy() (float32) or numpy(raw=True)");
    return -1;
  }
  asc_device_props props;
  asc_status st = asc_device_get_props(asc_tensor_device(t), &props);
  if (st) {
    asc_py_raise(st);
    return -1;
  }
  if (!props.host_visible) {
    PyErr_SetString(PyExc_BufferError, "the tensor's device memory is not host-visible");
    return -1;
  }
  if (sync_for_export(self)) return -1;
  Py_ssize_t *dims = PyMem_Malloc(2 * (size_t)(t->ndim ? t->ndim : 1) * sizeof *dims);
  if (!dims) {
    PyErr_NoMemory();
    return -1;
  }
  Py_ssize_t itemsize = (Py_ssize_t)asc_dtype_size(t->dtype);
  int64_t stride;
  for (int i = 0; i < t->ndim; i++) {
    dims[i] = (Py_ssize_t)t->shape[i];
    if (asc_mul_overflow_i64(t->strides[i], itemsize, &stride)) {
      PyMem_Free(dims);
      PyErr_SetString(PyExc_BufferError, "the tensor's byte strides overflow");
      return -1;
    }
    dims[t->ndim + i] = (Py_ssize_t)stride;
  }
  bool readonly = asc_storage_readonly(t->storage);
  if (readonly && (flags & PyBUF_WRITABLE) == PyBUF_WRITABLE) {
    PyMem_Free(dims);
    PyErr_SetString(PyExc_BufferError,
                    "the tensor shares read-only memory: it cannot be exported writable");
    return -1;
  }
  view->buf = asc_tensor_data(t);
  view->obj = Py_NewRef((PyObject *)self);
  /* A valid tensor spans at most ASC_MAX_TENSOR_BYTES: this cannot wrap. */
  view->len = (Py_ssize_t)asc_tensor_numel(t) * itemsize;
  view->readonly = readonly;
  view->itemsize = itemsize;
  view->format = (flags & PyBUF_FORMAT) ? (char *)asc_py_dtype_format(t->dtype) : NULL;
  view->ndim = t->ndim;
  view->shape = dims;
  view->strides = dims + t->ndim;
  view->suboffsets = NULL;
  view->internal = dims;
  if ((flags & PyBUF_ND) != PyBUF_ND && !asc_tensor_is_contiguous(t)) {
    PyMem_Free(dims);
    Py_CLEAR(view->obj);
    PyErr_SetString(PyExc_BufferError, "tensor is not contiguous");
    return -1;
  }
  self->exports++;
  return 0;
}

static void tensor_releasebuffer(TensorObject *self, Py_buffer *view) {
  PyMem_Free(view->internal);
  self->exports--;
}

static PyBufferProcs tensor_as_buffer = {
    .bf_getbuffer = (getbufferproc)tensor_getbuffer,
    .bf_releasebuffer = (releasebufferproc)tensor_releasebuffer,
};

/* A NumPy array sharing t's memory (bfloat16: a float32 copy, or with raw
 * the uint16 bit patterns). */
static PyObject *to_numpy(TensorObject *self, int raw) {
  PyObject *np = asc_py_numpy();
  if (!np) return NULL;
  /* Synchronise here, not only in the buffer export: NumPy would swallow
   * the error that export raises. */
  if (reraise_failed_export(self) || asc_py_sync_tensor_for_host(&self->t)) return NULL;
  /* Through a memoryview: NumPy would answer a failed buffer export by
   * calling __array__, which is this function again. */
  if (self->t.dtype != ASC_BFLOAT16) {
    PyObject *view = PyMemoryView_FromObject((PyObject *)self);
    PyObject *array = view ? PyObject_CallMethod(np, "asarray", "O", view) : NULL;
    Py_XDECREF(view);
    return array;
  }
  asc_tensor converted = {0};
  asc_status st;
  if (raw) {
    asc_tensor_share(&self->t, &converted);
    converted.dtype = ASC_INT16; /* same size; viewed as uint16 below */
    st = ASC_OK;
  } else {
    st = asc_cast(&self->t, ASC_FLOAT32, &converted);
  }
  if (st) return asc_py_raise(st);
  PyObject *holder = asc_py_tensor_wrap(&converted);
  if (!holder) return NULL;
  PyObject *array = PyObject_CallMethod(np, "asarray", "O", holder);
  Py_DECREF(holder);
  if (array && raw) Py_SETREF(array, PyObject_CallMethod(array, "view", "s", "uint16"));
  return array;
}

static PyObject *tensor_numpy(TensorObject *self, PyObject *args, PyObject *kwargs) {
  static char *names[] = {"raw", NULL};
  int raw = 0;
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, "|$p:numpy", names, &raw)) return NULL;
  return to_numpy(self, raw);
}

static PyObject *tensor_array(TensorObject *self, PyObject *args, PyObject *kwargs) {
  static char *names[] = {"dtype", "copy", NULL};
  PyObject *dtype = Py_None, *copy = Py_None;
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, "|OO:__array__", names, &dtype, &copy))
    return NULL;
  PyObject *array = to_numpy(self, 0);
  if (array && dtype != Py_None) Py_SETREF(array, PyObject_CallMethod(array, "astype", "O", dtype));
  if (array && copy == Py_True) Py_SETREF(array, PyObject_CallMethod(array, "copy", NULL));
  return array;
}

static PyObject *tensor_tolist(TensorObject *self, PyObject *noargs) {
  (void)noargs;
  PyObject *array = to_numpy(self, 0);
  if (!array) return NULL;
  PyObject *list = PyObject_CallMethod(array, "tolist", NULL);
  Py_DECREF(array);
  return list;
}

static PyObject *tensor_item(TensorObject *self, PyObject *noargs) {
  (void)noargs;
  if (asc_tensor_numel(&self->t) != 1)
    return asc_py_raise_msg(ASC_ERR_INVALID_VALUE,
                            "can only convert a tensor of size 1 to a Python scalar");
  if (asc_py_sync_tensor_for_host(&self->t)) return NULL;
  /* Shared NumPy memory may be unaligned: read the bytes, not a typed pointer. */
  union {
    uint8_t u8;
    int8_t i8;
    int16_t i16;
    int32_t i32;
    int64_t i64;
    uint16_t h;
    uint32_t u32;
    uint64_t u64;
    float f;
    double d;
    float c64[2];
    double c128[2];
  } v;
  memcpy(&v, asc_tensor_data(&self->t), asc_dtype_size(self->t.dtype));
  switch (self->t.dtype) {
    case ASC_BOOL:
      return PyBool_FromLong(v.u8);
    case ASC_INT8:
      return PyLong_FromLong(v.i8);
    case ASC_UINT8:
      return PyLong_FromLong(v.u8);
    case ASC_INT16:
      return PyLong_FromLong(v.i16);
    case ASC_INT32:
      return PyLong_FromLong(v.i32);
    case ASC_INT64:
      return PyLong_FromLongLong(v.i64);
    case ASC_UINT16:
      return PyLong_FromLong(v.h);
    case ASC_UINT32:
      return PyLong_FromUnsignedLong(v.u32);
    case ASC_UINT64:
      return PyLong_FromUnsignedLongLong(v.u64);
    case ASC_FLOAT16:
      return PyFloat_FromDouble(asc_half_to_float(v.h));
    case ASC_BFLOAT16:
      return PyFloat_FromDouble(asc_bfloat_to_float(v.h));
    case ASC_FLOAT32:
      return PyFloat_FromDouble(v.f);
    case ASC_COMPLEX64:
      return PyComplex_FromDoubles(v.c64[0], v.c64[1]);
    case ASC_COMPLEX128:
      return PyComplex_FromDoubles(v.c128[0], v.c128[1]);
    default:
      return PyFloat_FromDouble(v.d);
  }
}

/* Tensor([10., 12., 14.], dtype=float64), formatted by NumPy. */
static PyObject *tensor_repr(TensorObject *self) {
  PyObject *np = asc_py_numpy();
  PyObject *array = np ? to_numpy(self, 0) : NULL;
  if (!array) return NULL;
  PyObject *fn = PyObject_GetAttrString(np, "array2string");
  PyObject *args = fn ? PyTuple_Pack(1, array) : NULL;
  PyObject *kwargs =
      args ? Py_BuildValue("{s:s,s:s}", "separator", ", ", "prefix", "Tensor(") : NULL;
  PyObject *text = kwargs ? PyObject_Call(fn, args, kwargs) : NULL;
  Py_XDECREF(fn);
  Py_XDECREF(args);
  Py_XDECREF(kwargs);
  Py_DECREF(array);
  if (!text) return NULL;
  const char *name = asc_dtype_name(self->t.dtype);
  PyObject *repr = NULL;
  if (asc_tensor_numel(&self->t) == 0 && self->t.ndim != 1) {
    /* As NumPy: "[]" alone would hide an empty tensor's shape. */
    PyObject *shape = PyObject_GetAttrString((PyObject *)self, "shape");
    if (shape) repr = PyUnicode_FromFormat("Tensor(%U, shape=%R, dtype=%s)", text, shape, name);
    Py_XDECREF(shape);
  } else {
    repr = PyUnicode_FromFormat("Tensor(%U, dtype=%s)", text, name);
  }
  Py_DECREF(text);
  return repr;
}

static PyObject *tensor_str(TensorObject *self) {
  PyObject *array = to_numpy(self, 0);
  if (!array) return NULL;
  PyObject *text = PyObject_Str(array);
  Py_DECREF(array);
  return text;
}

/* --- properties --------------------------------------------------------- */

static PyObject *int64_tuple(int n, const int64_t *values, int64_t scale) {
  PyObject *tuple = PyTuple_New(n);
  for (int i = 0; tuple && i < n; i++) {
    int64_t scaled;
    PyObject *v = asc_mul_overflow_i64(values[i], scale, &scaled)
                      ? PyErr_Format(PyExc_OverflowError, "stride %lld overflows in bytes",
                                     (long long)values[i])
                      : PyLong_FromLongLong(scaled);
    if (!v) {
      Py_CLEAR(tuple);
      break;
    }
    PyTuple_SET_ITEM(tuple, i, v);
  }
  return tuple;
}

static PyObject *get_shape(TensorObject *self, void *c) {
  (void)c;
  return int64_tuple(self->t.ndim, self->t.shape, 1);
}
static PyObject *get_strides(TensorObject *self, void *c) {
  (void)c;
  return int64_tuple(self->t.ndim, self->t.strides, (int64_t)asc_dtype_size(self->t.dtype));
}
static PyObject *get_dtype(TensorObject *self, void *c) {
  (void)c;
  return asc_py_dtype_object(self->t.dtype);
}
static PyObject *get_ndim(TensorObject *self, void *c) {
  (void)c;
  return PyLong_FromLong(self->t.ndim);
}
static PyObject *get_size(TensorObject *self, void *c) {
  (void)c;
  return PyLong_FromLongLong(asc_tensor_numel(&self->t));
}
static PyObject *get_itemsize(TensorObject *self, void *c) {
  (void)c;
  return PyLong_FromSize_t(asc_dtype_size(self->t.dtype));
}
static PyObject *get_nbytes(TensorObject *self, void *c) {
  (void)c;
  return PyLong_FromLongLong(asc_tensor_numel(&self->t) * (int64_t)asc_dtype_size(self->t.dtype));
}
static PyObject *get_device(TensorObject *self, void *c) {
  (void)c;
  return PyUnicode_FromFormat("cpu:%d", asc_tensor_device(&self->t));
}
static PyObject *get_data_ptr(TensorObject *self, void *c) {
  (void)c;
  return PyLong_FromVoidPtr(asc_tensor_data(&self->t));
}

static PyObject *wrap_result(asc_status st, asc_tensor *t) {
  return st ? asc_py_raise(st) : asc_py_tensor_wrap(t);
}

static PyObject *get_T(TensorObject *self, void *c) {
  (void)c;
  asc_tensor t;
  return wrap_result(asc_tensor_permute(&self->t, NULL, &t), &t);
}

/* x[..., i, j] -> x[..., j, i]: the Array API's mT (a view). */
static PyObject *get_mT(TensorObject *self, void *c) {
  (void)c;
  if (self->t.ndim < 2)
    return asc_py_raise_msg(ASC_ERR_INVALID_VALUE, "mT needs at least 2 dimensions, not %d",
                            self->t.ndim);
  asc_tensor t;
  return wrap_result(asc_tensor_transpose(&self->t, -2, -1, &t), &t);
}

/* The real or imaginary part as a view, as NumPy's .real and .imag: of a
 * complex tensor its parts' memory, of a real one the tensor itself (real)
 * or zeros (imag, a new read-only-in-spirit tensor as NumPy gives). */
static PyObject *get_part(TensorObject *self, int part) {
  if (!asc_dtype_is_complex(self->t.dtype)) {
    if (part == 0) return Py_NewRef((PyObject *)self);
    asc_tensor z = {0};
    asc_status st = asc_tensor_empty(asc_tensor_device(&self->t), self->t.dtype, self->t.ndim,
                                     self->t.shape, &z);
    if (!st) st = asc_fill_int(&z, 0);
    if (st) asc_tensor_release(&z);
    return wrap_result(st, &z);
  }
  asc_tensor parts, t;
  asc_status st = asc_tensor_view_real(&self->t, &parts);
  if (st) return asc_py_raise(st);
  st = asc_tensor_select(&parts, parts.ndim - 1, part, &t);
  asc_tensor_release(&parts);
  return wrap_result(st, &t);
}
static PyObject *get_real(TensorObject *self, void *c) {
  (void)c;
  return get_part(self, 0);
}
static PyObject *get_imag(TensorObject *self, void *c) {
  (void)c;
  return get_part(self, 1);
}

static PyGetSetDef tensor_getset[] = {
    {"shape", (getter)get_shape, NULL, "Tuple of dimensions.", NULL},
    {"strides", (getter)get_strides, NULL, "Tuple of byte steps per dimension, as NumPy.", NULL},
    {"dtype", (getter)get_dtype, NULL, "Element type (a pyasc.dtype).", NULL},
    {"ndim", (getter)get_ndim, NULL, "Number of dimensions.", NULL},
    {"size", (getter)get_size, NULL, "Number of elements.", NULL},
    {"itemsize", (getter)get_itemsize, NULL, "Bytes per element.", NULL},
    {"nbytes", (getter)get_nbytes, NULL, "Bytes of the elements (size * itemsize).", NULL},
    {"device", (getter)get_device, NULL, "The device holding the data, e.g. 'cpu:0'.", NULL},
    {"data_ptr", (getter)get_data_ptr, NULL, "Address of the first element.", NULL},
    {"T", (getter)get_T, NULL, "The tensor with its axes reversed (a view).", NULL},
    {"mT", (getter)get_mT, NULL, "The last two axes swapped (a view): a stack of transposes.",
     NULL},
    {"real", (getter)get_real, NULL,
     "The real part: a view of a complex tensor's memory, or the tensor itself.", NULL},
    {"imag", (getter)get_imag, NULL,
     "The imaginary part: a view of a complex tensor's memory, or zeros.", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

/* --- shape methods ------------------------------------------------------- */

/* Reads a shape given as *args or as one sequence argument. */
static int parse_shape(PyObject *args, int *ndim, int64_t *shape) {
  PyObject *seq = args;
  if (PyTuple_GET_SIZE(args) == 1 && !PyLong_Check(PyTuple_GET_ITEM(args, 0)) &&
      !PyIndex_Check(PyTuple_GET_ITEM(args, 0)))
    seq = PyTuple_GET_ITEM(args, 0);
  PyObject *fast = PySequence_Fast(seq, "shape must be ints or a sequence of ints");
  if (!fast) return -1;
  Py_ssize_t n = PySequence_Fast_GET_SIZE(fast);
  if (n > ASC_MAX_DIMS) {
    Py_DECREF(fast);
    asc_py_raise_msg(ASC_ERR_INVALID_VALUE, "at most %d dimensions", ASC_MAX_DIMS);
    return -1;
  }
  for (Py_ssize_t i = 0; i < n; i++) {
    PyObject *index = PyNumber_Index(PySequence_Fast_GET_ITEM(fast, i));
    long long v = index ? PyLong_AsLongLong(index) : -1;
    Py_XDECREF(index);
    if (v == -1 && PyErr_Occurred()) {
      Py_DECREF(fast);
      return -1;
    }
    shape[i] = v;
  }
  *ndim = (int)n;
  Py_DECREF(fast);
  return 0;
}

static PyObject *tensor_reshape(TensorObject *self, PyObject *args) {
  int ndim;
  int64_t shape[ASC_MAX_DIMS];
  asc_tensor t;
  if (parse_shape(args, &ndim, shape)) return NULL;
  return wrap_result(asc_tensor_reshape(&self->t, ndim, shape, &t), &t);
}

static PyObject *tensor_view(TensorObject *self, PyObject *args) {
  int ndim;
  int64_t shape[ASC_MAX_DIMS];
  asc_tensor t;
  if (parse_shape(args, &ndim, shape)) return NULL;
  return wrap_result(asc_tensor_view(&self->t, ndim, shape, &t), &t);
}

static PyObject *tensor_expand(TensorObject *self, PyObject *args) {
  int ndim;
  int64_t shape[ASC_MAX_DIMS];
  asc_tensor t;
  if (parse_shape(args, &ndim, shape)) return NULL;
  return wrap_result(asc_tensor_expand(&self->t, ndim, shape, &t), &t);
}

static PyObject *tensor_transpose(TensorObject *self, PyObject *args) {
  asc_tensor t;
  if (PyTuple_GET_SIZE(args) == 0) return wrap_result(asc_tensor_permute(&self->t, NULL, &t), &t);
  int ndim;
  int64_t axes64[ASC_MAX_DIMS];
  if (parse_shape(args, &ndim, axes64)) return NULL;
  if (ndim != self->t.ndim)
    return asc_py_raise_msg(ASC_ERR_INVALID_VALUE, "axes don't match the tensor's %d dimensions",
                            self->t.ndim);
  int axes[ASC_MAX_DIMS];
  for (int i = 0; i < ndim; i++)
    if (asc_narrow_overflow_int(axes64[i], &axes[i]))
      return asc_py_raise_msg(ASC_ERR_INDEX, "axis %lld is out of bounds for a %d-d tensor",
                              (long long)axes64[i], ndim);
  return wrap_result(asc_tensor_permute(&self->t, axes, &t), &t);
}

static PyObject *tensor_swapaxes(TensorObject *self, PyObject *args) {
  int a, b;
  if (!PyArg_ParseTuple(args, "ii:swapaxes", &a, &b)) return NULL;
  asc_tensor t;
  return wrap_result(asc_tensor_transpose(&self->t, a, b, &t), &t);
}

static PyObject *tensor_unsqueeze(TensorObject *self, PyObject *arg) {
  long axis = PyLong_AsLong(arg);
  if (axis == -1 && PyErr_Occurred()) return NULL;
  if (axis < INT_MIN || axis > INT_MAX) return asc_py_raise_msg(ASC_ERR_INDEX, "axis out of range");
  asc_tensor t;
  return wrap_result(asc_tensor_unsqueeze(&self->t, (int)axis, &t), &t);
}

static PyObject *tensor_flatten(TensorObject *self, PyObject *noargs) {
  (void)noargs;
  int64_t all = -1;
  asc_tensor t;
  return wrap_result(asc_tensor_reshape(&self->t, 1, &all, &t), &t);
}

static PyObject *tensor_contiguous(TensorObject *self, PyObject *noargs) {
  (void)noargs;
  asc_tensor t;
  return wrap_result(asc_tensor_contiguous(&self->t, &t), &t);
}

static PyObject *tensor_is_contiguous(TensorObject *self, PyObject *noargs) {
  (void)noargs;
  return PyBool_FromLong(asc_tensor_is_contiguous(&self->t));
}

static PyObject *tensor_copy(TensorObject *self, PyObject *noargs) {
  (void)noargs;
  asc_tensor t = {0};
  return wrap_result(asc_cast(&self->t, self->t.dtype, &t), &t);
}

static PyObject *tensor_astype(TensorObject *self, PyObject *dtype_obj) {
  asc_dtype dtype;
  if (asc_py_dtype(dtype_obj, &dtype)) return NULL;
  asc_tensor t = {0};
  return wrap_result(asc_cast(&self->t, dtype, &t), &t);
}

/* A device given as an int or as "cpu" / "cpu:N". */
static int is_device_spec(PyObject *obj) {
  if (PyLong_Check(obj) && !PyBool_Check(obj)) return 1;
  const char *text = PyUnicode_Check(obj) ? PyUnicode_AsUTF8(obj) : NULL;
  return text && !strncmp(text, "cpu", 3);
}

int asc_py_device_spec(PyObject *obj, int *device) {
  if (PyUnicode_Check(obj)) {
    const char *text = PyUnicode_AsUTF8(obj);
    if (!text) return -1;
    if (!strcmp(text, "cpu")) {
      *device = asc_device_current();
      return 0;
    }
    int index, consumed = 0;
    if (sscanf(text, "cpu:%d%n", &index, &consumed) == 1 && text[consumed] == '\0') {
      PyObject *n = PyLong_FromLong(index);
      int rc = n ? asc_py_device(n, device) : -1;
      Py_XDECREF(n);
      return rc;
    }
    asc_py_raise_msg(ASC_ERR_INVALID_VALUE, "unknown device '%s' (expected 'cpu' or 'cpu:N')",
                     text);
    return -1;
  }
  return asc_py_device(obj, device);
}

/* to(dtype), to(device), to(device=None, dtype=None): a copy when either
 * changes, else the tensor itself. */
static PyObject *tensor_to(TensorObject *self, PyObject *args, PyObject *kwargs) {
  static char *names[] = {"target", "dtype", "device", NULL};
  PyObject *target = NULL, *dtype_obj = NULL, *device_obj = NULL;
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, "|OOO:to", names, &target, &dtype_obj,
                                   &device_obj))
    return NULL;
  if (target && is_device_spec(target))
    device_obj = target;
  else if (target)
    dtype_obj = target;
  int device = asc_tensor_device(&self->t);
  asc_dtype dtype = self->t.dtype;
  if (device_obj && device_obj != Py_None && asc_py_device_spec(device_obj, &device)) return NULL;
  if (dtype_obj && dtype_obj != Py_None && asc_py_dtype(dtype_obj, &dtype)) return NULL;
  if (device == asc_tensor_device(&self->t) && dtype == self->t.dtype)
    return Py_NewRef((PyObject *)self);
  asc_tensor t;
  asc_status st = asc_tensor_empty(device, dtype, self->t.ndim, self->t.shape, &t);
  if (!st) st = asc_copy(&self->t, &t);
  if (st) asc_tensor_release(&t);
  return wrap_result(st, &t);
}

/* The Array API: the namespace of pyasc's standard functions. */
static PyObject *tensor_array_namespace(PyObject *self, PyObject *args, PyObject *kwargs) {
  (void)self;
  static char *names[] = {"api_version", NULL};
  PyObject *version = Py_None;
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, "|$O:__array_namespace__", names, &version))
    return NULL;
  if (version != Py_None) {
    const char *text = PyUnicode_Check(version) ? PyUnicode_AsUTF8(version) : NULL;
    static const char *const known[] = {"2021.12", "2022.12", "2023.12", "2024.12"};
    bool ok = false;
    for (size_t i = 0; text && i < sizeof known / sizeof *known; i++) ok |= !strcmp(text, known[i]);
    if (!ok)
      return asc_py_raise_msg(ASC_ERR_INVALID_VALUE,
                              "unsupported Array API version %R (pyasc implements 2024.12)",
                              version);
  }
  return PyImport_ImportModule("pyasc.array_api");
}

/* to_device(device, /, *, stream=None): the tensor itself on its own
 * device; a copy on another simulated device. */
static PyObject *tensor_to_device(TensorObject *self, PyObject *args, PyObject *kwargs) {
  static char *names[] = {"", "stream", NULL}; /* device is positional-only */
  PyObject *device, *stream = Py_None;
  if (kwargs && PyDict_GetItemString(kwargs, "device"))
    return PyErr_Format(PyExc_TypeError,
                        "to_device() got an unexpected keyword argument 'device' (it is "
                        "positional-only)");
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O|$O:to_device", names, &device, &stream))
    return NULL;
  if (stream != Py_None)
    return asc_py_raise_msg(ASC_ERR_INVALID_VALUE,
                            "to_device: stream= is not supported: copies run on the current "
                            "stream");
  int target;
  if (asc_py_device_spec(device, &target)) return NULL;
  if (target == asc_tensor_device(&self->t)) return Py_NewRef((PyObject *)self);
  PyObject *index = PyLong_FromLong(target);
  PyObject *result = index ? PyObject_CallMethod((PyObject *)self, "to", "O", index) : NULL;
  Py_XDECREF(index);
  return result;
}

static PyObject *tensor_complex(PyObject *self, PyObject *noargs) {
  (void)noargs;
  PyObject *item = PyObject_CallMethod(self, "item", NULL);
  if (!item) return NULL;
  if (!PyComplex_Check(item))
    Py_SETREF(item, PyObject_CallOneArg((PyObject *)&PyComplex_Type, item));
  return item;
}

static PyMethodDef tensor_methods[] = {
    {"__array_namespace__", (PyCFunction)(void (*)(void))tensor_array_namespace,
     METH_VARARGS | METH_KEYWORDS,
     ASC_DOC("__array_namespace__($self, /, *, api_version=None)",
             "The Array API namespace: pyasc.array_api.")},
    {"to_device", (PyCFunction)(void (*)(void))tensor_to_device, METH_VARARGS | METH_KEYWORDS,
     ASC_DOC("to_device($self, device, /, *, stream=None)", ASC_METHDOC_to_device)},
    {"__complex__", (PyCFunction)tensor_complex, METH_NOARGS,
     ASC_DOC("__complex__($self, /)", "complex(t) for a tensor of one element.")},
    {"numpy", (PyCFunction)(void (*)(void))tensor_numpy, METH_VARARGS | METH_KEYWORDS,
     ASC_DOC("numpy($self, /, *, raw=False)", ASC_METHDOC_numpy)},
    {"__array__", (PyCFunction)(void (*)(void))tensor_array, METH_VARARGS | METH_KEYWORDS,
     ASC_DOC("__array__($self, /, dtype=None, copy=None)", "The NumPy array protocol.")},
    {"tolist", (PyCFunction)tensor_tolist, METH_NOARGS,
     ASC_DOC("tolist($self, /)", ASC_METHDOC_tolist)},
    {"item", (PyCFunction)tensor_item, METH_NOARGS, ASC_DOC("item($self, /)", ASC_METHDOC_item)},
    {"reshape", (PyCFunction)tensor_reshape, METH_VARARGS,
     ASC_DOC("reshape($self, /, *shape)", ASC_METHDOC_reshape)},
    {"view", (PyCFunction)tensor_view, METH_VARARGS,
     ASC_DOC("view($self, /, *shape)", ASC_METHDOC_view)},
    {"expand", (PyCFunction)tensor_expand, METH_VARARGS,
     ASC_DOC("expand($self, /, *shape)", ASC_METHDOC_expand)},
    {"broadcast_to", (PyCFunction)tensor_expand, METH_VARARGS,
     ASC_DOC("broadcast_to($self, /, *shape)", ASC_METHDOC_broadcast_to)},
    {"transpose", (PyCFunction)tensor_transpose, METH_VARARGS,
     ASC_DOC("transpose($self, /, *axes)", ASC_METHDOC_transpose)},
    {"permute", (PyCFunction)tensor_transpose, METH_VARARGS,
     ASC_DOC("permute($self, /, *axes)", ASC_METHDOC_permute)},
    {"swapaxes", (PyCFunction)tensor_swapaxes, METH_VARARGS,
     ASC_DOC("swapaxes($self, a, b, /)", ASC_METHDOC_swapaxes)},
    {"unsqueeze", (PyCFunction)tensor_unsqueeze, METH_O,
     ASC_DOC("unsqueeze($self, axis, /)", ASC_METHDOC_unsqueeze)},
    {"flatten", (PyCFunction)tensor_flatten, METH_NOARGS,
     ASC_DOC("flatten($self, /)", ASC_METHDOC_flatten)},
    {"ravel", (PyCFunction)tensor_flatten, METH_NOARGS,
     ASC_DOC("ravel($self, /)", ASC_METHDOC_ravel)},
    {"contiguous", (PyCFunction)tensor_contiguous, METH_NOARGS,
     ASC_DOC("contiguous($self, /)", ASC_METHDOC_contiguous)},
    {"is_contiguous", (PyCFunction)tensor_is_contiguous, METH_NOARGS,
     ASC_DOC("is_contiguous($self, /)", ASC_METHDOC_is_contiguous)},
    {"copy", (PyCFunction)tensor_copy, METH_NOARGS, ASC_DOC("copy($self, /)", ASC_METHDOC_copy)},
    {"clone", (PyCFunction)tensor_copy, METH_NOARGS, ASC_DOC("clone($self, /)", ASC_METHDOC_clone)},
    {"astype", (PyCFunction)tensor_astype, METH_O,
     ASC_DOC("astype($self, dtype, /)", ASC_METHDOC_astype)},
    {"to", (PyCFunction)(void (*)(void))tensor_to, METH_VARARGS | METH_KEYWORDS,
     ASC_DOC("to($self, /, target=None, dtype=None, device=None)", ASC_METHDOC_to)},
    {NULL, NULL, 0, NULL},
};

PyTypeObject AscTensor_Type = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "pyasc.Tensor",
    .tp_basicsize = sizeof(TensorObject),
    .tp_dealloc = (destructor)tensor_dealloc,
    .tp_repr = (reprfunc)tensor_repr,
    .tp_str = (reprfunc)tensor_str,
    .tp_as_number = &asc_py_tensor_as_number,
    .tp_as_sequence = &asc_py_tensor_as_sequence,
    .tp_as_mapping = &asc_py_tensor_as_mapping,
    .tp_as_buffer = &tensor_as_buffer,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = ASC_DOC("Tensor(data, dtype=None)", ASC_DOCTEXT_Tensor),
    .tp_richcompare = asc_py_tensor_richcompare,
    .tp_weaklistoffset = offsetof(TensorObject, weakreflist),
    .tp_methods = tensor_methods,
    .tp_getset = tensor_getset,
    .tp_new = tensor_new,
};

PyMethodDef asc_py_tensor_functions[] = {
    {"from_numpy", from_numpy, METH_O,
     ASC_DOC("from_numpy($module, array, /)", ASC_DOCTEXT_from_numpy)},
    {"asarray", (PyCFunction)(void (*)(void))asarray, METH_VARARGS | METH_KEYWORDS,
     ASC_DOC("asarray($module, data, dtype=None)", ASC_DOCTEXT_asarray)},
    {"_set_array_importer", asc_py_set_array_importer, METH_O,
     ASC_DOC("_set_array_importer($module, fn, /)",
             "fn(obj) -> a DLPack-sharable host view of obj's memory, or None: consulted "
             "for objects neither the buffer protocol nor DLPack can share (None: none). Returns "
             "the previous one.")},
    {NULL, NULL, 0, NULL},
};

int asc_py_tensor_add_methods(PyMethodDef *defs) {
  PyObject *dict = AscTensor_Type.tp_dict;
  for (PyMethodDef *def = defs; def->ml_name; def++) {
    PyObject *descr = PyDescr_NewMethod(&AscTensor_Type, def);
    if (!descr || PyDict_SetItemString(dict, def->ml_name, descr) < 0) {
      Py_XDECREF(descr);
      return -1;
    }
    Py_DECREF(descr);
  }
  PyType_Modified(&AscTensor_Type);
  return 0;
}

int asc_py_tensor_init(PyObject *module) {
  if (PyType_Ready(&AscTensor_Type) < 0) return -1;
  return PyModule_AddObjectRef(module, "Tensor", (PyObject *)&AscTensor_Type);
}
