/* Shared declarations of the CPython binding (pyasc._C). */
#ifndef ASC_BINDING_H
#define ASC_BINDING_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "asc/asc.h"

/* errors.c: exception hierarchy rooted at pyasc.Error. */
int asc_py_errors_init(PyObject *module);
/* Raises the exception for status with the thread's libasc message;
 * returns NULL so that callers can `return asc_py_raise(st);`. */
PyObject *asc_py_raise(asc_status status);
/* Raises pyasc exception `status` with a formatted message of our own. */
PyObject *asc_py_raise_msg(asc_status status, const char *fmt, ...);

/* Fast argument parsing for METH_FASTCALL | METH_KEYWORDS: fills out[] in
 * the order of names[] (NULL-terminated); the first `required` are required.
 * Missing optional arguments are left as they were (callers preset NULL). */
int asc_py_parse(const char *fname, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames,
                 const char *const *names, int required, PyObject **out);

/* None -> the current device; an int -> checked index. */
int asc_py_device(PyObject *obj, int *device);
/* None -> ASC_STREAM_CURRENT; a pyasc.Stream -> its handle. */
int asc_py_stream(PyObject *obj, asc_stream_t *stream);

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

#endif
