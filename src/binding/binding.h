/* Shared declarations of the CPython binding (pyasc._C). */
#ifndef ASC_BINDING_H
#define ASC_BINDING_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "asc/asc.h"

/* A method-table docstring that starts with a text signature, which
 * inspect.signature and help() read (CPython's convention): SIG is
 * "name($module, x, /, out=None)" for a function, "name($self, ...)" for a
 * method; defaults must be Python literals. */
#define ASC_DOC(SIG, DOC) SIG "\n--\n\n" DOC

/* Defines an operation's module function fn_NAME and its Tensor method
 * method_NAME: both call IMPL(ARGS..., self or NULL, args, nargs, kwnames),
 * IMPL's arguments after ARGS being those of a METH_FASTCALL |
 * METH_KEYWORDS method. */
#define ASC_PY_ENTRY_POINTS(NAME, IMPL, ...)                                              \
  static PyObject *fn_##NAME(PyObject *module, PyObject *const *args, Py_ssize_t nargs,   \
                             PyObject *kwnames) {                                         \
    (void)module;                                                                         \
    return IMPL(__VA_ARGS__, NULL, args, nargs, kwnames);                                 \
  }                                                                                       \
  static PyObject *method_##NAME(PyObject *self, PyObject *const *args, Py_ssize_t nargs, \
                                 PyObject *kwnames) {                                     \
    return IMPL(__VA_ARGS__, self, args, nargs, kwnames);                                 \
  }

/* errors.c: exception hierarchy rooted at pyasc.Error. */
int asc_py_errors_init(PyObject *module);
/* Raises the exception for status with the thread's libasc message;
 * returns NULL so that callers can `return asc_py_raise(st);`. */
PyObject *asc_py_raise(asc_status status);
/* Raises pyasc exception `status` with a formatted message of our own. */
PyObject *asc_py_raise_msg(asc_status status, const char *fmt, ...);
/* For a method of an object made with __new__ alone (no C state): raises
 * instead of dereferencing NULL; returns NULL. */
PyObject *asc_py_uninitialised(const char *type);

/* Fast argument parsing for METH_FASTCALL | METH_KEYWORDS: fills out[] in
 * the order of names[] (NULL-terminated); the first `required` are required.
 * Missing optional arguments are left as they were (callers preset NULL). */
int asc_py_parse(const char *fname, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames,
                 const char *const *names, int required, PyObject **out);

/* None -> the current device; an int -> checked index. */
int asc_py_device(PyObject *obj, int *device);
/* None -> ASC_STREAM_CURRENT; a pyasc.Stream -> its handle. */
int asc_py_stream(PyObject *obj, asc_stream_t *stream);

/* profile.c: a profiled kernel's records (CompiledKernel.profile_reset,
 * profile_records); new references, or NULL with an exception set. */
struct asc_jit_kernel;
PyObject *asc_py_profile_reset(struct asc_jit_kernel *k, PyObject *n);
PyObject *asc_py_profile_records(const struct asc_jit_kernel *k);

/* stream.c */
extern PyTypeObject AscStream_Type;
extern PyTypeObject AscEvent_Type;
int asc_py_streams_init(PyObject *module);
extern PyMethodDef asc_py_stream_functions[];

/* device.c */
int asc_py_device_init(PyObject *module);
extern PyMethodDef asc_py_device_functions[];

/* memory.c */
extern PyTypeObject AscBuffer_Type;
int asc_py_memory_init(PyObject *module);
extern PyMethodDef asc_py_memory_functions[];

/* dtype.c */
#include "asc/ops.h"
#include "asc/tensor.h"
extern PyTypeObject AscDType_Type;
int asc_py_dtype_init(PyObject *module);
/* pyasc.dtype, NumPy dtype or scalar type, name, or bool/int/float. */
int asc_py_dtype(PyObject *obj, asc_dtype *out);
PyObject *asc_py_dtype_object(asc_dtype dtype); /* new reference */
const char *asc_py_dtype_format(asc_dtype dtype);
int asc_py_dtype_from_format(const char *format, Py_ssize_t itemsize, asc_dtype *out);

/* tensor.c */
typedef struct {
  PyObject_HEAD asc_tensor t;
  Py_ssize_t exports; /* live buffer-protocol views */
  PyObject *weakreflist;
} TensorObject;
extern PyTypeObject AscTensor_Type;
int asc_py_tensor_init(PyObject *module);
/* Adds methods to pyasc.Tensor after its type is ready: each operation
 * family registers its own (e.g. sum, exp) from its init function. */
int asc_py_tensor_add_methods(PyMethodDef *defs);
extern PyMethodDef asc_py_tensor_functions[];
#define AscTensor_Check(op) PyObject_TypeCheck(op, &AscTensor_Type)
/* obj's tensor if it is a Tensor, else NULL (for the weak-scalar rule). */
static inline const asc_tensor *asc_py_tensor_of(PyObject *obj) {
  return AscTensor_Check(obj) ? &((TensorObject *)obj)->t : NULL;
}
/* Wraps t (taking over its storage reference) in a new pyasc.Tensor. */
PyObject *asc_py_tensor_wrap(asc_tensor *t);
/* An out= argument: None becomes NULL, anything but a Tensor raises. */
int asc_py_parse_out(const char *fname, PyObject **out);
/* Hands back an op's result: result wrapped in a new Tensor, or out itself
 * (result, its share, is released); raises for a failed status. */
PyObject *asc_py_result(asc_status st, asc_tensor *result, PyObject *out);
/* Any array-like as a tensor: a Tensor is shared, a buffer-protocol object
 * (NumPy array) is shared without a copy when its layout allows, anything
 * else goes through numpy.asarray. dtype ASC_DTYPE_COUNT keeps the
 * source's dtype, another dtype converts (a copy). */
int asc_py_as_tensor(PyObject *obj, asc_dtype dtype, asc_tensor *out);
/* tensor_import.c: a buffer-protocol object's memory as *out, shared (the
 * comment at its definition gives the return codes). */
int asc_py_tensor_from_buffer(PyObject *obj, asc_tensor *out);
/* Waits until copy, made from source's memory, is complete, so that it does
 * not see the caller's later writes: 0, or -1 raised (copy released). */
int asc_py_finish_copy_of(PyObject *source, asc_tensor *copy);
/* _C._set_array_importer(fn): the hook for objects nothing else shares. */
PyObject *asc_py_set_array_importer(PyObject *self, PyObject *fn);
/* The host may read t: waits for the calling thread's current stream. */
int asc_py_sync_for_host(void);
/* asc_py_sync_for_host, then raises if t holds no valid data (an operation
 * that would have written it was skipped or failed). */
int asc_py_sync_tensor_for_host(const asc_tensor *t);
/* Waits with wait(what, timeout_ns) in short slices with the GIL released,
 * running Python's signal handlers between slices, so that Ctrl-C stops a
 * wait on work that never ends (the work itself goes on). Returns 0 with
 * the wait's final status in *st, or -1 with the handler's exception set. */
int asc_py_wait(asc_status (*wait)(uint64_t what, int64_t timeout_ns), uint64_t what,
                asc_status *st);
asc_status asc_py_wait_device(uint64_t device, int64_t timeout_ns);
/* asc_py_wait on a stream, raising its failure: 0 or -1 with an exception. */
int asc_py_sync_stream(asc_stream_t stream);
/* numpy, imported once. Borrowed reference. */
PyObject *asc_py_numpy(void);
/* A device as an int, "cpu" (the current device) or "cpu:N". */
int asc_py_device_spec(PyObject *obj, int *device);

/* tensor_number.c */
extern PyNumberMethods asc_py_tensor_as_number;
PyObject *asc_py_tensor_richcompare(PyObject *a, PyObject *b, int op);
extern PyMethodDef asc_py_binary_functions[];
/* A Python scalar or array-like as an operand next to `other` (NEP 50
 * weak scalars). Returns 0, -1 on error, 1 when obj is no operand. */
int asc_py_operand(PyObject *obj, const asc_tensor *other, asc_tensor *out);
/* A Python number obj as the operand of op next to an operand of dtype
 * other, as op(x, obj) and op(obj, x) convert it (weak scalars, the exact
 * integer comparisons): 0 with *out a new 0-d tensor the caller releases,
 * -1 on error, 1 when obj is no operand. */
int asc_py_binary_scalar(asc_binary_op op, PyObject *obj, asc_dtype other, asc_tensor *out);
/* tensor_unary.c: whether clip drops a bound (a Python int beyond the
 * range of integer dtype x, as NumPy does): 1 drop, 0 keep, -1 error. */
int asc_py_clip_bound_moot(asc_dtype x, PyObject *bound, bool upper);
/* The range of integer dtype d. */
void asc_py_int_limits(asc_dtype d, long long *lo, long long *hi);

/* tensor_index.c: indexing, pyasc.nonzero, argwhere, add_at. */
extern PyMappingMethods asc_py_tensor_as_mapping;
extern PySequenceMethods asc_py_tensor_as_sequence;
int asc_py_index_init(PyObject *module);
/* pyasc.nonzero(obj): a new tuple of int64 tensors, or NULL with an error. */
PyObject *asc_py_nonzero(PyObject *obj);

/* tensor_create.c: pyasc.zeros, full, arange, linspace, eye, concatenate,
 * stack, ... */
int asc_py_create_init(PyObject *module);
/* A shape: an int, a sequence of ints, or None for (); negative sizes
 * raise InvalidValueError. */
int asc_py_shape(PyObject *obj, int *ndim, int64_t *shape);

/* tensor_linalg.c: pyasc.matmul, Tensor.matmul, and a @ b / a @= b for
 * asc_py_tensor_as_number. */
int asc_py_linalg_init(PyObject *module);
PyObject *asc_py_matmul_operator(PyObject *a, PyObject *b);
PyObject *asc_py_matmul_inplace(PyObject *a, PyObject *b);

/* random.c: pyasc.Generator. */
int asc_py_random_init(PyObject *module);

/* tensor_unary.c: pyasc.exp, where, clip, ... and the Tensor methods;
 * the operators -t, +t, abs(t), ~t for asc_py_tensor_as_number. */
int asc_py_unary_init(PyObject *module);
PyObject *asc_py_tensor_negative(PyObject *self);
PyObject *asc_py_tensor_positive(PyObject *self);
PyObject *asc_py_tensor_absolute(PyObject *self);
PyObject *asc_py_tensor_invert(PyObject *self);

/* tensor_reduce.c: pyasc.sum, mean, argmax, softmax, ... and the Tensor methods. */
int asc_py_reduce_init(PyObject *module);

/* tensor_sort.c: pyasc.sort, argsort, searchsorted, unique*, cumsum... */
int asc_py_sort_init(PyObject *module);

/* tensor_manip.c: pyasc.flip, squeeze, roll, repeat, tile, ... */
int asc_py_manip_init(PyObject *module);
/* An int (not bool) argument; ints beyond C int saturate, staying out of
 * range for any axis. 0, or -1 with TypeError. */
int asc_py_int(PyObject *obj, const char *what, int *out);
int asc_py_int64(PyObject *obj, const char *what, int64_t *out);
/* axis: None (*naxes = -1), an int (1) or a tuple/list of ints. */
int asc_py_axes(PyObject *obj, const char *what, int *naxes, int *axes);

/* dlpack.c: Tensor.__dlpack__, __dlpack_device__ and pyasc.from_dlpack. */
int asc_py_dlpack_init(PyObject *module);

/* numpy_protocol.c: Tensor.__array_ufunc__ / __array_function__, which
 * forward to python/pyasc/_numpy_protocol.py. */
int asc_py_numpy_protocol_init(PyObject *module);

/* deferred.c: runs fn(arg) on a thread holding the GIL: at once when the
 * caller holds it, else later; for release callbacks that device work calls
 * on stream threads. Once the interpreter is finalising, fn is not run (the
 * resource is leaked rather than risk an abort). */
void asc_py_call_with_gil(void (*fn)(void *arg), void *arg);
/* native_gil.c: PyGILState_Ensure for threads Python did not start, safe
 * against a fork() on another thread; release with PyGILState_Release. */
PyGILState_STATE asc_py_gil_ensure(void);
/* _C._finish_pending, the exit handler's wait for all work. */
extern PyMethodDef asc_py_deferred_functions[];
/* Runs what is queued; the caller holds the GIL. */
void asc_py_run_deferred(void);

/* ir.c: the kernel IR builder; kernel.c: compiled kernels and their launches. */
int asc_py_ir_init(PyObject *module);
int asc_py_kernel_init(PyObject *module);

/* api_table.c: _C.api_table and _C.adv_math_functions. */
extern PyMethodDef asc_py_api_table_functions[];

/* tiling.c: host matmul tiling (PlatformAscendC, MatmulApiTiling, ...). */
int asc_py_tiling_init(PyObject *module);

/* op_dispatch.c: pyasc._C.OpDispatch, the per-call path of @pyasc.op operators. */
int asc_py_op_dispatch_init(PyObject *module);

/* op_program.c: pyasc._C.OpProgram, a chain of element-wise operations run
 * in one call (asc/program.h). */
int asc_py_op_program_init(PyObject *module);

#endif
