/* pyasc.DeviceBuffer and the pyasc.memory functions over libasc's allocator. */
#include "binding.h"

/* after binding.h, whose Python.h must come first */
#include "asc_docstrings.h" /* generated from docs/docstrings (tools/gen_docstrings.py) */

#include "asc/ext.h"

typedef struct {
  PyObject_HEAD void *ptr;
  size_t nbytes;
  int freed;
  int device;
  Py_ssize_t exports; /* live buffer-protocol views */
  Py_ssize_t busy;    /* synchronous copies using it while the GIL is released */
} BufferObject;

static int buffer_live(BufferObject *self) {
  if (!self->freed) return 0;
  asc_py_raise_msg(ASC_ERR_INVALID_HANDLE, "the device buffer was freed");
  return -1;
}

static PyObject *alloc(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames) {
  (void)self;
  static const char *const names[] = {"nbytes", "device", "stream", NULL};
  PyObject *a[3] = {NULL, NULL, NULL};
  int device;
  asc_stream_t stream;
  if (asc_py_parse("alloc", args, nargs, kwnames, names, 1, a) || asc_py_device(a[1], &device) ||
      asc_py_stream(a[2], &stream))
    return NULL;
  if (!PyLong_Check(a[0]))
    return PyErr_Format(PyExc_TypeError, "alloc: nbytes must be an int, not %.100s",
                        Py_TYPE(a[0])->tp_name);
  Py_ssize_t nbytes = PyLong_AsSsize_t(a[0]);
  if (nbytes < 0) {
    if (PyErr_Occurred() && !PyErr_ExceptionMatches(PyExc_OverflowError)) return NULL;
    PyErr_Clear();
    return asc_py_raise_msg(ASC_ERR_INVALID_VALUE, "alloc: nbytes must be in [0, %zd], got %S",
                            PY_SSIZE_T_MAX, a[0]);
  }
  BufferObject *buf = PyObject_New(BufferObject, &AscBuffer_Type);
  if (!buf) return NULL;
  buf->nbytes = (size_t)nbytes;
  buf->device = device;
  buf->exports = 0;
  buf->busy = 0;
  buf->freed = 0;
  asc_status st = asc_mem_alloc(device, (size_t)nbytes, stream, &buf->ptr);
  if (st) {
    buf->freed = 1;
    Py_DECREF(buf);
    return asc_py_raise(st);
  }
  return (PyObject *)buf;
}

static void buffer_dealloc(BufferObject *self) {
  if (!self->freed) (void)asc_mem_free(self->ptr);
  Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyObject *buffer_free(BufferObject *self, PyObject *noargs) {
  (void)noargs;
  if (self->exports)
    return asc_py_raise_msg(ASC_ERR_INVALID_VALUE,
                            "cannot free a device buffer while %zd view(s) of it exist",
                            self->exports);
  if (self->busy)
    return asc_py_raise_msg(
        ASC_ERR_INVALID_VALUE,
        "cannot free a device buffer while another thread copies to or from it");
  if (self->freed) Py_RETURN_NONE;
  self->freed = 1;
  asc_status st = asc_mem_free(self->ptr);
  return st ? asc_py_raise(st) : Py_NewRef(Py_None);
}

static PyObject *buffer_record_stream(BufferObject *self, PyObject *stream_obj) {
  asc_stream_t stream;
  if (buffer_live(self) || asc_py_stream(stream_obj, &stream)) return NULL;
  asc_status st = asc_mem_record_stream(self->ptr, stream);
  return st ? asc_py_raise(st) : Py_NewRef(Py_None);
}

static PyObject *buffer_enter(PyObject *self, PyObject *noargs) {
  (void)noargs;
  return Py_NewRef(self);
}

static PyObject *buffer_exit(BufferObject *self, PyObject *args) {
  (void)args;
  return buffer_free(self, NULL);
}

static int buffer_getbuffer(BufferObject *self, Py_buffer *view, int flags) {
  if (buffer_live(self)) return -1;
  asc_device_props props;
  asc_status st = asc_device_get_props(self->device, &props);
  if (st) {
    asc_py_raise(st);
    return -1;
  }
  if (!props.host_visible) {
    PyErr_SetString(PyExc_BufferError, "device memory of this device is not host-visible");
    return -1;
  }
  if (PyBuffer_FillInfo(view, (PyObject *)self, self->ptr, (Py_ssize_t)self->nbytes, 0, flags) < 0)
    return -1;
  self->exports++;
  return 0;
}

static void buffer_releasebuffer(BufferObject *self, Py_buffer *view) {
  (void)view;
  self->exports--;
}

static PyBufferProcs buffer_as_buffer = {
    .bf_getbuffer = (getbufferproc)buffer_getbuffer,
    .bf_releasebuffer = (releasebufferproc)buffer_releasebuffer,
};

static PyObject *buffer_get_ptr(BufferObject *self, void *closure) {
  (void)closure;
  if (buffer_live(self)) return NULL;
  return PyLong_FromVoidPtr(self->ptr);
}

static PyObject *buffer_get_nbytes(BufferObject *self, void *closure) {
  (void)closure;
  return PyLong_FromSize_t(self->nbytes);
}

static PyObject *buffer_get_device(BufferObject *self, void *closure) {
  (void)closure;
  return PyLong_FromLong(self->device);
}

static PyObject *buffer_get_freed(BufferObject *self, void *closure) {
  (void)closure;
  return PyBool_FromLong(self->freed);
}

static Py_ssize_t buffer_length(BufferObject *self) {
  return (Py_ssize_t)self->nbytes;
}

static PyObject *buffer_repr(BufferObject *self) {
  if (self->freed) return PyUnicode_FromString("<pyasc.DeviceBuffer freed>");
  return PyUnicode_FromFormat("<pyasc.DeviceBuffer device=%d nbytes=%zu ptr=%p>", self->device,
                              self->nbytes, self->ptr);
}

static PyMethodDef buffer_methods[] = {
    {"free", (PyCFunction)buffer_free, METH_NOARGS,
     ASC_DOC("free($self, /)", ASC_DOCTEXT_DeviceBuffer_free)},
    {"record_stream", (PyCFunction)buffer_record_stream, METH_O,
     ASC_DOC("record_stream($self, stream, /)", ASC_DOCTEXT_DeviceBuffer_record_stream)},
    {"__enter__", buffer_enter, METH_NOARGS, ASC_DOC("__enter__($self, /)", "Returns the buffer.")},
    {"__exit__", (PyCFunction)buffer_exit, METH_VARARGS,
     ASC_DOC("__exit__($self, /, *exc_info)", "Frees the buffer.")},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef buffer_getset[] = {
    {"ptr", (getter)buffer_get_ptr, NULL, "Device address as an int.", NULL},
    {"nbytes", (getter)buffer_get_nbytes, NULL, "Size in bytes.", NULL},
    {"device", (getter)buffer_get_device, NULL, "Index of the owning device.", NULL},
    {"freed", (getter)buffer_get_freed, NULL, "True once free() was called.", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PySequenceMethods buffer_as_sequence = {.sq_length = (lenfunc)buffer_length};

PyTypeObject AscBuffer_Type = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "pyasc.DeviceBuffer",
    .tp_basicsize = sizeof(BufferObject),
    .tp_dealloc = (destructor)buffer_dealloc,
    .tp_repr = (reprfunc)buffer_repr,
    .tp_as_sequence = &buffer_as_sequence,
    .tp_as_buffer = &buffer_as_buffer,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = ASC_DOCTEXT_DeviceBuffer,
    .tp_methods = buffer_methods,
    .tp_getset = buffer_getset,
};

/* --- copies ------------------------------------------------------------- */

/* One side of a copy: a DeviceBuffer or a host object with the buffer
 * protocol. */
typedef struct copy_side {
  BufferObject *buffer; /* the DeviceBuffer, or NULL for host memory */
  char *ptr;
  size_t size;
  int is_device;
  int has_view;
  Py_buffer view;
} copy_side;

static int resolve_side(const char *op, PyObject *obj, PyObject *offset_obj, int writable,
                        const char *name, copy_side *side) {
  side->has_view = 0;
  side->buffer = NULL;
  if (PyObject_TypeCheck(obj, &AscBuffer_Type)) {
    BufferObject *buf = (BufferObject *)obj;
    if (buffer_live(buf)) return -1;
    side->buffer = buf;
    side->ptr = buf->ptr;
    side->size = buf->nbytes;
    side->is_device = 1;
  } else {
    int flags = PyBUF_C_CONTIGUOUS | PyBUF_FORMAT | (writable ? PyBUF_WRITABLE : 0);
    if (PyObject_GetBuffer(obj, &side->view, flags) < 0) {
      PyErr_Clear();
      PyErr_Format(PyExc_TypeError,
                   "%s: %s must be a DeviceBuffer or a %scontiguous buffer, not %.100s", op, name,
                   writable ? "writable " : "", Py_TYPE(obj)->tp_name);
      return -1;
    }
    /* Raw bytes over Python object pointers (a NumPy object array) would
     * corrupt reference counts: such memory is not data. */
    if (side->view.format && strchr(side->view.format, 'O')) {
      PyErr_Format(PyExc_TypeError, "%s: %s holds Python objects (buffer format '%s'), not data",
                   op, name, side->view.format);
      PyBuffer_Release(&side->view);
      return -1;
    }
    side->has_view = 1;
    side->ptr = side->view.buf;
    side->size = (size_t)side->view.len;
    side->is_device = 0;
  }
  Py_ssize_t offset = offset_obj ? PyLong_AsSsize_t(offset_obj) : 0;
  if (offset == -1 && PyErr_Occurred()) return -1;
  if (offset < 0 || (size_t)offset > side->size) {
    asc_py_raise_msg(ASC_ERR_INVALID_VALUE, "%s: %s offset %zd is outside its %zu bytes", op, name,
                     offset, side->size);
    return -1;
  }
  side->ptr += offset;
  side->size -= (size_t)offset;
  return 0;
}

/* Keeps a DeviceBuffer from being freed by another thread while a
 * synchronous copy uses its memory without the GIL (delta +1, then -1). */
static void pin_side(copy_side *side, int delta) {
  if (side->buffer) side->buffer->busy += delta;
}

static void release_side(copy_side *side) {
  if (side->has_view) PyBuffer_Release(&side->view);
  side->has_view = 0;
}

/* Host views kept alive until the stream passes the copy. */
typedef struct held_views {
  copy_side sides[2];
} held_views;

static asc_status run_nothing(void *user) {
  (void)user;
  return ASC_OK;
}

static void release_held(void *user) {
  held_views *held = user;
  PyGILState_STATE gil = asc_py_gil_ensure();
  release_side(&held->sides[0]);
  release_side(&held->sides[1]);
  PyGILState_Release(gil);
  PyMem_RawFree(held);
}

/* After an async copy: hand the host views to the stream, which releases
 * them once it has passed the copy. */
static int hold_until_done(asc_stream_t stream, copy_side *dst, copy_side *src) {
  if (!dst->has_view && !src->has_view) return 0;
  held_views *held = PyMem_RawMalloc(sizeof *held);
  asc_status st = ASC_ERR_OUT_OF_MEMORY;
  if (held) {
    held->sides[0] = *dst;
    held->sides[1] = *src;
    asc_task task = {
        .run = run_nothing, .release = release_held, .user = held, .what = "release host buffers"};
    st = asc_stream_enqueue(stream, &task);
    if (st == ASC_OK) {
      dst->has_view = src->has_view = 0;
      return 0;
    }
    PyMem_RawFree(held);
  }
  /* Could not hand over: wait for the copy instead. */
  Py_BEGIN_ALLOW_THREADS
  if (asc_stream_synchronize(stream)) asc_clear_error();
  Py_END_ALLOW_THREADS
  return 0;
}

static asc_memcpy_kind copy_kind(const copy_side *dst, const copy_side *src) {
  if (dst->is_device)
    return src->is_device ? ASC_MEMCPY_DEVICE_TO_DEVICE : ASC_MEMCPY_HOST_TO_DEVICE;
  return src->is_device ? ASC_MEMCPY_DEVICE_TO_HOST : ASC_MEMCPY_HOST_TO_HOST;
}

static PyObject *py_memcpy(PyObject *self, PyObject *const *args, Py_ssize_t nargs,
                           PyObject *kwnames) {
  (void)self;
  static const char *const names[] = {"dst",        "src",    "nbytes",       "dst_offset",
                                      "src_offset", "stream", "non_blocking", NULL};
  PyObject *a[7] = {NULL};
  asc_stream_t stream;
  if (asc_py_parse("memcpy", args, nargs, kwnames, names, 2, a) || asc_py_stream(a[5], &stream))
    return NULL;
  int non_blocking = a[6] ? PyObject_IsTrue(a[6]) : 0;
  if (non_blocking < 0) return NULL;
  copy_side dst = {0}, src = {0};
  PyObject *result = NULL;
  if (resolve_side("memcpy", a[0], a[3], 1, "dst", &dst) ||
      resolve_side("memcpy", a[1], a[4], 0, "src", &src))
    goto done;
  size_t nbytes = src.size;
  if (a[2] && a[2] != Py_None) {
    Py_ssize_t n = PyLong_AsSsize_t(a[2]);
    if (n == -1 && PyErr_Occurred()) goto done;
    if (n < 0) {
      asc_py_raise_msg(ASC_ERR_INVALID_VALUE, "memcpy: nbytes must be >= 0, got %zd", n);
      goto done;
    }
    nbytes = (size_t)n;
  }
  if (nbytes > src.size || nbytes > dst.size) {
    asc_py_raise_msg(ASC_ERR_INVALID_VALUE,
                     "memcpy: %zu bytes do not fit (source has %zu, destination %zu after offsets)",
                     nbytes, src.size, dst.size);
    goto done;
  }
  asc_memcpy_kind kind = copy_kind(&dst, &src);
  asc_status st;
  if (non_blocking) {
    st = asc_memcpy_async(dst.ptr, src.ptr, nbytes, kind, stream);
    if (st == ASC_OK) hold_until_done(stream, &dst, &src);
  } else if (stream == ASC_STREAM_CURRENT) {
    /* Earlier work first, interruptibly: the copy then waits for nothing. */
    if (asc_py_wait(asc_stream_synchronize_for, stream, &st)) goto done;
    pin_side(&dst, 1);
    pin_side(&src, 1);
    if (!st) {
      Py_BEGIN_ALLOW_THREADS
      st = asc_memcpy(dst.ptr, src.ptr, nbytes, kind);
      Py_END_ALLOW_THREADS
    }
    pin_side(&dst, -1);
    pin_side(&src, -1);
  } else {
    st = asc_memcpy_async(dst.ptr, src.ptr, nbytes, kind, stream);
    if (st == ASC_OK && asc_py_wait(asc_stream_synchronize_for, stream, &st)) {
      hold_until_done(stream, &dst, &src); /* interrupted: the copy goes on */
      goto done;
    }
  }
  result = st ? asc_py_raise(st) : Py_NewRef(Py_None);
done:
  release_side(&dst);
  release_side(&src);
  return result;
}

static PyObject *py_memset(PyObject *self, PyObject *const *args, Py_ssize_t nargs,
                           PyObject *kwnames) {
  (void)self;
  static const char *const names[] = {"dst",    "value",        "nbytes", "offset",
                                      "stream", "non_blocking", NULL};
  PyObject *a[6] = {NULL};
  asc_stream_t stream;
  if (asc_py_parse("memset", args, nargs, kwnames, names, 2, a) || asc_py_stream(a[4], &stream))
    return NULL;
  if (!PyObject_TypeCheck(a[0], &AscBuffer_Type))
    return PyErr_Format(PyExc_TypeError, "memset: dst must be a DeviceBuffer, not %.100s",
                        Py_TYPE(a[0])->tp_name);
  long value = PyLong_AsLong(a[1]);
  if (value == -1 && PyErr_Occurred()) return NULL;
  if (value < 0 || value > 255)
    return asc_py_raise_msg(ASC_ERR_INVALID_VALUE,
                            "memset: value must be a byte in [0, 255], got %ld", value);
  int non_blocking = a[5] ? PyObject_IsTrue(a[5]) : 0;
  if (non_blocking < 0) return NULL;
  copy_side dst;
  if (resolve_side("memset", a[0], a[3], 1, "dst", &dst)) return NULL;
  size_t nbytes = dst.size;
  if (a[2] && a[2] != Py_None) {
    Py_ssize_t n = PyLong_AsSsize_t(a[2]);
    if (n == -1 && PyErr_Occurred()) return NULL;
    if (n < 0 || (size_t)n > dst.size)
      return asc_py_raise_msg(ASC_ERR_INVALID_VALUE, "memset: nbytes %zd is outside [0, %zu]", n,
                              dst.size);
    nbytes = (size_t)n;
  }
  asc_status st;
  if (non_blocking || stream != ASC_STREAM_CURRENT) {
    /* Device memory only: freeing it is ordered after the queued fill. */
    st = asc_memset_async(dst.ptr, (int)value, nbytes, stream);
    if (st == ASC_OK && !non_blocking && asc_py_wait(asc_stream_synchronize_for, stream, &st))
      return NULL;
  } else if (!asc_py_wait(asc_stream_synchronize_for, stream, &st)) {
    pin_side(&dst, 1);
    if (!st) {
      Py_BEGIN_ALLOW_THREADS
      st = asc_memset(dst.ptr, (int)value, nbytes);
      Py_END_ALLOW_THREADS
    }
    pin_side(&dst, -1);
  } else {
    return NULL;
  }
  return st ? asc_py_raise(st) : Py_NewRef(Py_None);
}

/* --- allocator control -------------------------------------------------- */

static int parse_device_only(const char *fname, PyObject *const *args, Py_ssize_t nargs,
                             PyObject *kwnames, int *device) {
  static const char *const names[] = {"device", NULL};
  PyObject *a[1] = {NULL};
  return asc_py_parse(fname, args, nargs, kwnames, names, 0, a) || asc_py_device(a[0], device);
}

static int put_u64(PyObject *dict, const char *key, uint64_t v) {
  PyObject *o = PyLong_FromUnsignedLongLong(v);
  int rc = o ? PyDict_SetItemString(dict, key, o) : -1;
  Py_XDECREF(o);
  return rc;
}

static PyObject *memory_stats(PyObject *self, PyObject *const *args, Py_ssize_t nargs,
                              PyObject *kwnames) {
  (void)self;
  int device;
  if (parse_device_only("memory_stats", args, nargs, kwnames, &device)) return NULL;
  asc_mem_stats s;
  asc_status st = asc_mem_get_stats(device, &s);
  if (st) return asc_py_raise(st);
  PyObject *d = PyDict_New();
  if (!d) return NULL;
  struct {
    const char *key;
    uint64_t value;
  } items[] = {
      {"allocated_bytes", s.allocated_bytes},
      {"requested_bytes", s.requested_bytes},
      {"reserved_bytes", s.reserved_bytes},
      {"peak_allocated_bytes", s.peak_allocated_bytes},
      {"peak_reserved_bytes", s.peak_reserved_bytes},
      {"active_blocks", s.active_blocks},
      {"cached_blocks", s.cached_blocks},
      {"alloc_count", s.alloc_count},
      {"free_count", s.free_count},
      {"cache_hits", s.cache_hits},
      {"cache_misses", s.cache_misses},
      {"backend_allocs", s.backend_allocs},
      {"backend_frees", s.backend_frees},
      {"oom_count", s.oom_count},
      {"limit_bytes", s.limit_bytes},
  };
  for (size_t i = 0; i < sizeof items / sizeof items[0]; i++)
    if (put_u64(d, items[i].key, items[i].value)) {
      Py_DECREF(d);
      return NULL;
    }
  if (PyDict_SetItemString(d, "caching_enabled", s.caching_enabled ? Py_True : Py_False)) {
    Py_DECREF(d);
    return NULL;
  }
  return d;
}

static PyObject *empty_cache(PyObject *self, PyObject *const *args, Py_ssize_t nargs,
                             PyObject *kwnames) {
  (void)self;
  int device;
  if (parse_device_only("empty_cache", args, nargs, kwnames, &device)) return NULL;
  asc_status st = asc_mem_empty_cache(device);
  return st ? asc_py_raise(st) : Py_NewRef(Py_None);
}

static PyObject *reset_peak_memory_stats(PyObject *self, PyObject *const *args, Py_ssize_t nargs,
                                         PyObject *kwnames) {
  (void)self;
  int device;
  if (parse_device_only("reset_peak_memory_stats", args, nargs, kwnames, &device)) return NULL;
  asc_status st = asc_mem_reset_peak(device);
  return st ? asc_py_raise(st) : Py_NewRef(Py_None);
}

static PyObject *set_memory_limit(PyObject *self, PyObject *const *args, Py_ssize_t nargs,
                                  PyObject *kwnames) {
  (void)self;
  static const char *const names[] = {"nbytes", "device", NULL};
  PyObject *a[2] = {NULL, NULL};
  int device;
  if (asc_py_parse("set_memory_limit", args, nargs, kwnames, names, 1, a) ||
      asc_py_device(a[1], &device))
    return NULL;
  unsigned long long limit = 0;
  if (a[0] != Py_None) {
    if (!PyLong_Check(a[0]))
      return PyErr_Format(PyExc_TypeError, "set_memory_limit: nbytes must be an int or None");
    int overflow;
    long long v = PyLong_AsLongLongAndOverflow(a[0], &overflow);
    if (v == -1 && PyErr_Occurred()) return NULL;
    if (overflow || v <= 0)
      return asc_py_raise_msg(ASC_ERR_INVALID_VALUE,
                              "set_memory_limit: nbytes must be a positive int or None, got %S",
                              a[0]);
    limit = (unsigned long long)v;
  }
  asc_status st = asc_mem_set_limit(device, limit);
  return st ? asc_py_raise(st) : Py_NewRef(Py_None);
}

static PyObject *set_caching(PyObject *self, PyObject *const *args, Py_ssize_t nargs,
                             PyObject *kwnames) {
  (void)self;
  static const char *const names[] = {"enabled", "device", NULL};
  PyObject *a[2] = {NULL, NULL};
  int device;
  if (asc_py_parse("set_caching", args, nargs, kwnames, names, 1, a) ||
      asc_py_device(a[1], &device))
    return NULL;
  int enabled = PyObject_IsTrue(a[0]);
  if (enabled < 0) return NULL;
  asc_status st = asc_mem_set_caching(device, enabled);
  return st ? asc_py_raise(st) : Py_NewRef(Py_None);
}

static PyObject *tagged_address(PyObject *self, PyObject *ptr) {
  (void)self;
  if (!PyLong_Check(ptr))
    return PyErr_Format(PyExc_TypeError, "_tagged_address: ptr must be an int, not %.100s",
                        Py_TYPE(ptr)->tp_name);
  unsigned long long p = PyLong_AsUnsignedLongLong(ptr);
  if (p == (unsigned long long)-1 && PyErr_Occurred()) return NULL;
  return PyLong_FromUnsignedLongLong(asc_mem_tag((const void *)(uintptr_t)p));
}

#define FASTCALL(fn) (PyCFunction)(void (*)(void))(fn), METH_FASTCALL | METH_KEYWORDS

PyMethodDef asc_py_memory_functions[] = {
    {"alloc", FASTCALL(alloc),
     ASC_DOC("alloc($module, nbytes, device=None, stream=None)", ASC_DOCTEXT_alloc)},
    {"memcpy", FASTCALL(py_memcpy),
     ASC_DOC("memcpy($module, dst, src, nbytes=None, dst_offset=0, src_offset=0, stream=None, "
             "non_blocking=False)",
             ASC_DOCTEXT_memcpy)},
    {"memset", FASTCALL(py_memset),
     ASC_DOC("memset($module, dst, value, nbytes=None, offset=0, stream=None, "
             "non_blocking=False)",
             ASC_DOCTEXT_memset)},
    {"memory_stats", FASTCALL(memory_stats),
     ASC_DOC("memory_stats($module, device=None)", ASC_DOCTEXT_memory_stats)},
    {"empty_cache", FASTCALL(empty_cache),
     ASC_DOC("empty_cache($module, device=None)", ASC_DOCTEXT_empty_cache)},
    {"reset_peak_memory_stats", FASTCALL(reset_peak_memory_stats),
     ASC_DOC("reset_peak_memory_stats($module, device=None)", ASC_DOCTEXT_reset_peak_memory_stats)},
    {"set_memory_limit", FASTCALL(set_memory_limit),
     ASC_DOC("set_memory_limit($module, nbytes, device=None)", ASC_DOCTEXT_set_memory_limit)},
    {"set_caching", FASTCALL(set_caching),
     ASC_DOC("set_caching($module, enabled, device=None)", ASC_DOCTEXT_set_caching)},
    {"_tagged_address", tagged_address, METH_O,
     ASC_DOC("_tagged_address($module, ptr, /)",
             "ptr with its live device allocation's generation in the top 16 bits (asc/mem.h "
             "asc_mem_tag), as pyasc.tensor_list stores a tensor's address; ptr unchanged when "
             "it is not device memory.")},
    {NULL, NULL, 0, NULL},
};

/* --- the capsule lent to native extensions (include/asc/ext.h) ------------ */

static asc_status ext_mem_alloc(int device, size_t nbytes, void **out) {
  asc_stream_t stream;
  asc_status st = asc_stream_current(device, &stream);
  return st ? st : asc_mem_alloc(device, nbytes, stream, out);
}

static const asc_ext_api ext_api = {
    ASC_EXT_API_VERSION, ext_mem_alloc,  asc_mem_free,           asc_device_count,
    asc_device_current,  asc_device_set, asc_device_synchronize, asc_last_error,
};

int asc_py_memory_init(PyObject *module) {
  if (PyType_Ready(&AscBuffer_Type) < 0) return -1;
  if (PyModule_AddObjectRef(module, "DeviceBuffer", (PyObject *)&AscBuffer_Type)) return -1;
  /* Static table: the capsule owns nothing. */
  PyObject *capsule = PyCapsule_New((void *)&ext_api, ASC_EXT_API_CAPSULE, NULL);
  if (!capsule) return -1;
  int rc = PyModule_AddObjectRef(module, "_ext_api", capsule);
  Py_DECREF(capsule);
  return rc;
}
